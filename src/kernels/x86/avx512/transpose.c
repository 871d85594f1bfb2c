/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c (AVX-512) -- the AVX-512 2-D transpose kernels of kernels/transpose.h for
 * tf.transpose (src/ops/reorder.c): 512-bit tiles in which every load reads one whole 64-byte
 * source line (4-, 8- and 16-byte elements: 16 x 16, 8 x 8 and 4 x 4 elements) or four 16-byte
 * pieces of rows 16 (8) apart (1- and 2-byte elements, transposed inside each 128-bit lane), and
 * every store writes one whole destination line.  The driver, the small tiles and the narrow
 * paths are the shared ones of x86/transpose_x86.h, here compiled with AVX-512 flags (32 vector
 * registers: the 16 x 16 byte tiles run without spills).  Same bytes as the scalar kernels. */
#include "kernels/x86/transpose_x86.h"

TP_LANE_T16X16_U8(t16x16_u8_z, __m512i, _mm512)
TP_LANE_T8X8_U16(t8x8_u16_z, __m512i, _mm512)

static inline void store_z(char *d, __m512i v, bool nt) {
    if (nt) _mm512_stream_si512((void *)d, v);
    else _mm512_storeu_si512((void *)d, v);
}

/* Four 16-byte pieces, `step` bytes apart, as the lanes of one register. */
static inline __m512i load4_z(const char *s, int64_t step) {
    __m512i v = _mm512_castsi256_si512(tp_load2_y(s, s + step));
    return _mm512_inserti64x4(v, tp_load2_y(s + 2 * step, s + 3 * step), 1);
}

/* 64 rows x 16 columns of bytes: lanes hold rows i, i + 16, i + 32, i + 48. */
static inline void tile_w1(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m512i r[16];
    for (int i = 0; i < 16; i++) r[i] = load4_z(s + i * ss, 16 * ss);
    t16x16_u8_z(r);
    for (int j = 0; j < 16; j++) store_z(d + j * ds, r[j], nt);
}

/* 32 rows x 8 columns of 2-byte elements: lanes hold rows i, i + 8, i + 16, i + 24. */
static inline void regs_w2(const char *s, int64_t ss, __m512i *r) {
    for (int i = 0; i < 8; i++) r[i] = load4_z(s + i * ss, 8 * ss);
    t8x8_u16_z(r);
}
static inline void tile_w2(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m512i r[8];
    regs_w2(s, ss, r);
    for (int j = 0; j < 8; j++) store_z(d + j * ds, r[j], nt);
}

/* 16 x 16 of 4-byte elements: 32-bit and 64-bit unpacks inside lanes, then two rounds of lane
 * shuffles. */
static inline void regs_w4(const char *s, int64_t ss, __m512i *out) {
    __m512 r[16], t[16];
    for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps((const void *)(s + i * ss));
    for (int i = 0; i < 8; i++) {
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; i++) {
        __m512d a = _mm512_castps_pd(t[4 * i]), b = _mm512_castps_pd(t[4 * i + 1]),
                c = _mm512_castps_pd(t[4 * i + 2]), e = _mm512_castps_pd(t[4 * i + 3]);
        r[4 * i] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, c));
        r[4 * i + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, c));
        r[4 * i + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(b, e));
        r[4 * i + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(b, e));
    }
    for (int h = 0; h < 2; h++)
        for (int i = 0; i < 4; i++) {
            t[8 * h + i] = _mm512_shuffle_f32x4(r[8 * h + i], r[8 * h + i + 4], 0x88);
            t[8 * h + i + 4] = _mm512_shuffle_f32x4(r[8 * h + i], r[8 * h + i + 4], 0xDD);
        }
    for (int i = 0; i < 8; i++) {
        r[i] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0x88);
        r[i + 8] = _mm512_shuffle_f32x4(t[i], t[i + 8], 0xDD);
    }
    for (int j = 0; j < 16; j++) out[j] = _mm512_castps_si512(r[j]);
}
static inline void tile_w4(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m512i r[16];
    regs_w4(s, ss, r);
    for (int j = 0; j < 16; j++) store_z(d + j * ds, r[j], nt);
}

/* 8 x 8 of 8-byte elements: 64-bit unpacks, then two rounds of lane shuffles. */
static inline void regs_w8(const char *s, int64_t ss, __m512i *out) {
    __m512d r[8], t[8];
    for (int i = 0; i < 8; i++) r[i] = _mm512_loadu_pd((const void *)(s + i * ss));
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm512_unpacklo_pd(r[2 * i], r[2 * i + 1]);     /* columns 0 2 4 6 */
        t[2 * i + 1] = _mm512_unpackhi_pd(r[2 * i], r[2 * i + 1]); /* columns 1 3 5 7 */
    }
    /* r[4h + k]: rows 4h..4h+3; k = 0: columns 0 4, 1: 1 5, 2: 2 6, 3: 3 7 */
    for (int h = 0; h < 2; h++)
        for (int k = 0; k < 2; k++) {
            r[4 * h + k] = _mm512_shuffle_f64x2(t[4 * h + k], t[4 * h + 2 + k], 0x88);
            r[4 * h + 2 + k] = _mm512_shuffle_f64x2(t[4 * h + k], t[4 * h + 2 + k], 0xDD);
        }
    for (int k = 0; k < 4; k++) {
        t[k] = _mm512_shuffle_f64x2(r[k], r[4 + k], 0x88);
        t[k + 4] = _mm512_shuffle_f64x2(r[k], r[4 + k], 0xDD);
    }
    for (int j = 0; j < 8; j++) out[j] = _mm512_castpd_si512(t[j]);
}
static inline void tile_w8(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m512i r[8];
    regs_w8(s, ss, r);
    for (int j = 0; j < 8; j++) store_z(d + j * ds, r[j], nt);
}

/* 4 x 4 of 16-byte elements: two rounds of lane shuffles. */
static inline void tile_w16(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m512i r[4], t[4];
    for (int i = 0; i < 4; i++) r[i] = _mm512_loadu_si512((const void *)(s + i * ss));
    t[0] = _mm512_shuffle_i64x2(r[0], r[1], 0x88);
    t[1] = _mm512_shuffle_i64x2(r[0], r[1], 0xDD);
    t[2] = _mm512_shuffle_i64x2(r[2], r[3], 0x88);
    t[3] = _mm512_shuffle_i64x2(r[2], r[3], 0xDD);
    store_z(d, _mm512_shuffle_i64x2(t[0], t[2], 0x88), nt);
    store_z(d + ds, _mm512_shuffle_i64x2(t[1], t[3], 0x88), nt);
    store_z(d + 2 * ds, _mm512_shuffle_i64x2(t[0], t[2], 0xDD), nt);
    store_z(d + 3 * ds, _mm512_shuffle_i64x2(t[1], t[3], 0xDD), nt);
}

/* ---- narrow planes with cross-lane permutes ------------------------------------------------------
 * For 2-, 4- and 8-byte elements a register holds V = 64 / W elements and VPERMT2W/D/Q pick lanes
 * from two registers at once.  Narrow columns (source rows packed): V source rows are C whole
 * registers, and destination row j takes lanes j, j + C, j + 2C, ... of their concatenation, from
 * register pair p under mask m[j][p].  Narrow rows (destination rows packed): V columns of the R
 * source rows (one register each) make R whole destination registers, register m taking element
 * e = mV + q from source row e % R, column e / R.  Index lanes and masks are built once per call. */

typedef struct zn_plan {
    int n, pairs;                          /* registers in and out (C or R), register pairs */
    __m512i idx[TP_NARROW_MAX * 8];        /* [out * pairs + p] */
    uint64_t msk[TP_NARROW_MAX * 8];
} zn_plan;

/* Lane k of output o comes from lane src_lane(o, k) of the concatenated inputs: pair p takes
 * registers 2p and 2p + 1, indexed [0, 2V). */
TP_INLINE void zn_build(zn_plan *pl, int n, size_t w, bool cols) {
    const int V = 64 / (int)w;
    pl->n = n;
    pl->pairs = (n + 1) / 2;
    for (int o = 0; o < n; o++)
        for (int p = 0; p < pl->pairs; p++) {
            unsigned char b[64] = {0};
            uint64_t m = 0;
            for (int k = 0; k < V; k++) {
                int reg, lane;
                if (cols) { /* lane k of row o: element k * n + o of the block */
                    int e = k * n + o;
                    reg = e / V;
                    lane = e % V;
                } else { /* lane k of output register o: element o * V + k */
                    int e = o * V + k;
                    reg = e % n;
                    lane = e / n;
                }
                if (reg / 2 != p) continue;
                m |= (uint64_t)1 << k;
                uint64_t ix = (uint64_t)(lane + (reg % 2) * V);
                memcpy(b + (size_t)k * w, &ix, w); /* little-endian: the low w bytes */
            }
            pl->idx[o * pl->pairs + p] = _mm512_loadu_si512((const void *)b);
            pl->msk[o * pl->pairs + p] = m;
        }
}

#define ZN_PERMUTE(SFX, MT)                                                                      \
    TP_INLINE __m512i zn_gather_##SFX(const zn_plan *pl, const __m512i *in, int o, int n) {      \
        const int P = (n + 1) / 2;                                                               \
        const __m512i *ix = pl->idx + o * P;                                                     \
        __m512i v = n == 1 ? _mm512_permutexvar_##SFX(ix[0], in[0])                              \
                           : _mm512_permutex2var_##SFX(in[0], ix[0], in[1]);                     \
        for (int p = 1; p < P; p++) {                                                            \
            MT m = (MT)pl->msk[o * P + p];                                                       \
            if (2 * p + 1 < n)                                                                   \
                v = _mm512_mask_mov_##SFX(v, m, _mm512_permutex2var_##SFX(in[2 * p], ix[p],      \
                                                                          in[2 * p + 1]));       \
            else                                                                                 \
                v = _mm512_mask_permutexvar_##SFX(v, m, ix[p], in[2 * p]);                       \
        }                                                                                        \
        return v;                                                                                \
    }
ZN_PERMUTE(epi16, __mmask32)
ZN_PERMUTE(epi32, __mmask16)
ZN_PERMUTE(epi64, __mmask8)

/* Narrow columns: C = n, source rows packed. */
#define ZN_COLS(W, SFX)                                                                          \
    TP_INLINE void zn_cols_w##W(char *dst, const char *src, int64_t rows, int64_t ds,            \
                                bool stream, int n) {                                            \
        const int V = 64 / (W);                                                                  \
        if (rows < 2 * V) {                                                                      \
            tp_narrow_cols(dst, src, rows, n, ds, (W), false);                                   \
            return;                                                                              \
        }                                                                                        \
        bool nt = false;                                                                         \
        if (stream && ds % 64 == 0 && (uintptr_t)dst % (W) == 0) {                               \
            int64_t head = (int64_t)((-(uintptr_t)dst & 63) / (W));                              \
            tp_edge(dst, src, head, n, (int64_t)n * (W), ds, (W));                               \
            dst += head * (W);                                                                   \
            src += head * n * (W);                                                               \
            rows -= head;                                                                        \
            nt = true;                                                                           \
        }                                                                                        \
        zn_plan pl;                                                                              \
        zn_build(&pl, n, (W), true);                                                             \
        int64_t r = 0;                                                                           \
        for (; r + V <= rows; r += V, src += 64 * n, dst += 64) {                                \
            __m512i in[TP_NARROW_MAX];                                                           \
            for (int i = 0; i < n; i++) in[i] = _mm512_loadu_si512((const void *)(src + 64 * i)); \
            for (int j = 0; j < n; j++) store_z(dst + j * ds, zn_gather_##SFX(&pl, in, j, n), nt); \
        }                                                                                        \
        if (nt) _mm_sfence();                                                                    \
        tp_narrow_cols(dst, src, rows - r, n, ds, (W), false);                                   \
    }                                                                                            \
    static void zn_ncols_w##W(char *dst, const char *src, int64_t rows, int64_t cols,            \
                              int64_t ss, int64_t ds, bool stream) {                             \
        (void)ss;                                                                                \
        TP_NARROW_CASES(ZN_COLS_N, cols, zn_cols_w##W, dst, src, rows, ds, stream);              \
    }
#define ZN_COLS_N(fn, dst, src, rows, ds, stream, n) fn(dst, src, rows, ds, stream, n)

/* Narrow rows: R = n, destination rows packed. */
#define ZN_ROWS(W, SFX)                                                                          \
    TP_INLINE void zn_rows_w##W(char *dst, const char *src, int64_t cols, int64_t ss,            \
                                bool stream, int n) {                                            \
        const int V = 64 / (W);                                                                  \
        if (cols < 2 * V) {                                                                      \
            tp_narrow_rows(dst, src, n, cols, ss, (W), false);                                   \
            return;                                                                              \
        }                                                                                        \
        bool nt = false;                                                                         \
        if (stream) { /* peel columns until the output is on a line (within 64, or never) */    \
            int64_t head = 0;                                                                    \
            while (head < 64 && ((uintptr_t)dst + (uintptr_t)(head * n * (W))) % 64 != 0) head++; \
            if (head < 64 && head < cols) {                                                      \
                tp_edge(dst, src, n, head, ss, (int64_t)n * (W), (W));                           \
                dst += head * n * (W);                                                           \
                src += head * (W);                                                               \
                cols -= head;                                                                    \
                nt = true;                                                                       \
            }                                                                                    \
        }                                                                                        \
        zn_plan pl;                                                                              \
        zn_build(&pl, n, (W), false);                                                            \
        int64_t c = 0;                                                                           \
        for (; c + V <= cols; c += V, src += 64, dst += 64 * n) {                                \
            __m512i in[TP_NARROW_MAX];                                                           \
            for (int i = 0; i < n; i++) in[i] = _mm512_loadu_si512((const void *)(src + i * ss)); \
            for (int m = 0; m < n; m++) store_z(dst + 64 * m, zn_gather_##SFX(&pl, in, m, n), nt); \
        }                                                                                        \
        if (nt) _mm_sfence();                                                                    \
        tp_narrow_rows(dst, src, n, cols - c, ss, (W), false);                                   \
    }                                                                                            \
    static void zn_nrows_w##W(char *dst, const char *src, int64_t rows, int64_t cols,            \
                              int64_t ss, int64_t ds, bool stream) {                             \
        (void)ds;                                                                                \
        TP_NARROW_CASES(ZN_ROWS_N, rows, zn_rows_w##W, dst, src, cols, ss, stream);              \
    }
#define ZN_ROWS_N(fn, dst, src, cols, ss, stream, n) fn(dst, src, cols, ss, stream, n)

ZN_COLS(2, epi16)
ZN_COLS(4, epi32)
ZN_COLS(8, epi64)
ZN_ROWS(2, epi16)
ZN_ROWS(4, epi32)
ZN_ROWS(8, epi64)

/* ---- streaming into destination rows that are not line-aligned ----------------------------------
 * When destination rows are not a multiple of 64 bytes apart, each row's line boundaries fall at
 * a different element, so a tile's register for row c straddles two lines.  Each column keeps the
 * register of the tile above it (its carry); the line that ends inside the current tile is the
 * last m_c lanes of the carry followed by the first V - m_c lanes of the new register -- one
 * VPERMT2 -- and goes out with a streaming store.  Only the first and last (partial) line of each
 * row segment is a plain masked store.  Needs dst and ds to be multiples of W.
 * Two walks.  Narrow source rows (a band of V rows spans at most STRIP_MAX_BYTES): down one strip
 * of VC columns at a time, the carries in registers.  Wide rows: band by band across the columns
 * as the aligned path does (the source is then read in long runs), the carries in an array --
 * slower (each carry store can falsely alias a later source load 4 KiB away), but a strip of a
 * wide plane reads every source line from a different page and ran slower still. */
#define CARRY_COLS 256
#define STRIP_MAX_BYTES ((int64_t)32 << 10)

/* Line indices: idx[m] lane i is carry lane V - m + i for i < m, then new lane i - m. */
#define ZC_INDICES(W, idx)                                                                       \
    for (int m = 0; m < 64 / (W); m++) {                                                         \
        unsigned char b[64];                                                                     \
        for (int i = 0; i < 64 / (W); i++) {                                                     \
            uint64_t x = (uint64_t)(64 / (W) - m + i);                                           \
            memcpy(b + (size_t)i * (W), &x, (W)); /* little-endian: the low W bytes */           \
        }                                                                                        \
        idx[m] = _mm512_loadu_si512((const void *)b);                                            \
    }

/* Emits the line of column c (misalignment m lanes) for the tile at row r with register v. */
#define ZC_EMIT(W, SFX, V, line0, r, m, carry, v, idx)                                           \
    do {                                                                                         \
        char *line_ = (line0) + ((r) - (m)) * (W);                                               \
        if ((m) == 0)                                                                            \
            _mm512_stream_si512((void *)line_, (v));                                             \
        else if ((r) == 0) /* the head: lanes [0, V - m) at the row's start */                   \
            _mm512_mask_storeu_##SFX(line_ + (m) * (W), ~(uint64_t)0 >> (64 - (V) + (m)), (v));  \
        else                                                                                     \
            _mm512_stream_si512((void *)line_, _mm512_permutex2var_##SFX((carry), idx[m], (v))); \
    } while (0)

/* The tail of column c after the last tile (at row rb): the carry's last m lanes. */
#define ZC_TAIL(W, SFX, line0, rb, m, carry, idx)                                                \
    do {                                                                                         \
        if ((m) != 0)                                                                            \
            _mm512_mask_storeu_##SFX((line0) + ((rb) - (m)) * (W), ~(uint64_t)0 >> (64 - (m)),   \
                                     _mm512_permutex2var_##SFX((carry), idx[m], (carry)));       \
    } while (0)

#define ZC_DEFINE(W, SFX, VC, REGS)                                                              \
    static void zc_band_w##W(char *dst, const char *src, int64_t rb, int64_t cols, int64_t ss,   \
                             int64_t ds, const __m512i *idx) {                                   \
        enum { V = 64 / (W) };                                                                   \
        __m512i carry[CARRY_COLS];                                                               \
        int mis[CARRY_COLS];                                                                     \
        for (int64_t c0 = 0; c0 < cols; c0 += CARRY_COLS) {                                      \
            const int64_t cb = cols - c0 < CARRY_COLS ? cols - c0 : CARRY_COLS;                  \
            char *d0 = dst + c0 * ds;                                                            \
            const char *s0 = src + c0 * (W);                                                     \
            for (int64_t c = 0; c < cb; c++) {                                                   \
                mis[c] = (int)(((uintptr_t)(d0 + c * ds) & 63) / (W));                           \
                carry[c] = _mm512_setzero_si512();                                               \
            }                                                                                    \
            for (int64_t r = 0; r < rb; r += V)                                                  \
                for (int64_t ct = 0; ct < cb; ct += (VC)) {                                      \
                    __m512i out[VC];                                                             \
                    REGS(s0 + r * ss + ct * (W), ss, out);                                       \
                    for (int j = 0; j < (VC); j++) {                                             \
                        const int64_t c = ct + j;                                                \
                        ZC_EMIT(W, SFX, V, d0 + c * ds, r, mis[c], carry[c], out[j], idx);       \
                        carry[c] = out[j];                                                       \
                    }                                                                            \
                }                                                                                \
            for (int64_t c = 0; c < cb; c++) ZC_TAIL(W, SFX, d0 + c * ds, rb, mis[c], carry[c], idx); \
        }                                                                                        \
    }                                                                                            \
    static void zc_w##W(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,      \
                        int64_t ds) {                                                            \
        enum { V = 64 / (W) };                                                                   \
        __m512i idx[V];                                                                          \
        ZC_INDICES(W, idx)                                                                       \
        const int64_t rb = rows - rows % V, cb = cols - cols % (VC);                             \
        if (ss * V > STRIP_MAX_BYTES) {                                                          \
            zc_band_w##W(dst, src, rb, cb, ss, ds, idx);                                         \
        } else {                                                                                 \
            for (int64_t ct = 0; ct < cb; ct += (VC)) { /* strips, the carries in registers */   \
                __m512i carry[VC];                                                               \
                int mis[VC];                                                                     \
                char *d0 = dst + ct * ds;                                                        \
                const char *s0 = src + ct * (W);                                                 \
                for (int j = 0; j < (VC); j++) {                                                 \
                    mis[j] = (int)(((uintptr_t)(d0 + j * ds) & 63) / (W));                       \
                    carry[j] = _mm512_setzero_si512();                                           \
                }                                                                                \
                for (int64_t r = 0; r < rb; r += V) {                                            \
                    __m512i out[VC];                                                             \
                    REGS(s0 + r * ss, ss, out);                                                  \
                    for (int j = 0; j < (VC); j++) {                                             \
                        ZC_EMIT(W, SFX, V, d0 + j * ds, r, mis[j], carry[j], out[j], idx);       \
                        carry[j] = out[j];                                                       \
                    }                                                                            \
                }                                                                                \
                for (int j = 0; j < (VC); j++)                                                   \
                    ZC_TAIL(W, SFX, d0 + j * ds, rb, mis[j], carry[j], idx);                     \
            }                                                                                    \
        }                                                                                        \
        tp_edge(dst + rb * (W), src + rb * ss, rows - rb, cb, ss, ds, (W));                      \
        tp_edge(dst + cb * ds, src + cb * (W), rows, cols - cb, ss, ds, (W));                    \
        _mm_sfence();                                                                            \
    }

ZC_DEFINE(2, epi16, 8, regs_w2)
ZC_DEFINE(4, epi32, 16, regs_w4)
ZC_DEFINE(8, epi64, 8, regs_w8)

/* 1-byte elements keep the byte-shuffle paths (a byte permute across lanes needs VBMI, which the
 * AVX-512 level does not include). */
TP_DEFINE(tx__transpose2d_w1_avx512, 1, 64, 16, tile_w1, 16, 16, tp_tile_w1_16x16, tp_ncols_w1,
          tp_nrows_w1, NULL)
TP_DEFINE(tx__transpose2d_w2_avx512, 2, 32, 8, tile_w2, 8, 8, tp_tile_w2_8x8, zn_ncols_w2,
          zn_nrows_w2, zc_w2)
TP_DEFINE(tx__transpose2d_w4_avx512, 4, 16, 16, tile_w4, 8, 8, tp_tile_w4_8x8, zn_ncols_w4,
          zn_nrows_w4, zc_w4)
TP_DEFINE(tx__transpose2d_w8_avx512, 8, 8, 8, tile_w8, 4, 4, tp_tile_w8_4x4, zn_ncols_w8,
          zn_nrows_w8, zc_w8)
TP_DEFINE(tx__transpose2d_w16_avx512, 16, 4, 4, tile_w16, 2, 2, tp_tile_w16_2x2, tp_ncols_w16,
          tp_nrows_w16, NULL)
