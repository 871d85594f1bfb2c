/* SPDX-License-Identifier: Apache-2.0 */
/* transpose_x86.h -- the parts of the SIMD 2-D transpose kernels (kernels/transpose.h) that the
 * AVX2 and AVX-512 levels share, included by x86/avx2/transpose.c and x86/avx512/transpose.c so
 * that each copy is compiled with its level's flags.  Serves tf.transpose (src/ops/reorder.c).
 *
 * How a plane is cut.  A kernel transposes "micro tiles" of VR source rows by VC source columns in
 * registers, VR * width = 64 bytes: each tile writes one whole cache line into each of its VC
 * destination rows, so that when the output is too large for the caches (`stream`) the line can go
 * out with streaming stores -- on this class of machine that decides everything: a tiled
 * transpose of a 256 MiB matrix with plain stores ran at 4.5x the time of memcpy, with streaming
 * stores at 1.4x, because every plain store into a new destination line first reads that line
 * from memory, from a different DRAM row each time.  Rows left below the last whole band of VR go
 * through a smaller tile (VR2 rows, plain stores), then scalar; so do the columns right of the last
 * whole tile.  A plane with fewer columns than a tile (NHWC -> NCHW with 3 channels: rows of 3
 * elements) or fewer rows (the way back) takes a byte-shuffle path instead when its narrow side is
 * packed (source rows cols * width apart, or destination rows rows * width apart): 16-byte groups
 * of the packed side are dealt into the other side's rows with PSHUFB, whose controls are built
 * once per call.
 *
 * The in-register transposes are the usual butterflies: for 1- and 2-byte elements 16x16 bytes and
 * 8x8 words inside each 128-bit lane, with each lane of a wider register holding rows further down
 * the plane (the "lane" tiles); for 4-, 8- and 16-byte elements full-width unpack and shuffle
 * stages across the register. */
#ifndef TX_KERNELS_X86_TRANSPOSE_X86_H
#define TX_KERNELS_X86_TRANSPOSE_X86_H

#include <immintrin.h>
#include <string.h>

#include "kernels/transpose.h"

#define TP_INLINE static inline __attribute__((always_inline))
#define TP_CAT_(a, b) a##b
#define TP_CAT(a, b) TP_CAT_(a, b) /* pastes after expanding a and b */

/* ---- scalar edges ---------------------------------------------------------------------------- */

/* dst[c][r] = src[r][c] element by element; used for the strips the tiles leave. */
TP_INLINE void tp_edge(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                       int64_t ds, size_t w) {
    for (int64_t c = 0; c < cols; c++, src += w, dst += ds) {
        const char *s = src;
        char *d = dst;
        for (int64_t r = 0; r < rows; r++, s += ss, d += w) memcpy(d, s, w);
    }
}

/* ---- in-lane transposes (every 128-bit lane independently) ----------------------------------- */

/* tp_t16x16_u8_x, tp_t8x8_u16_x (__m128i) and tp_t16x16_u8_y, tp_t8x8_u16_y (__m256i). */
#define LANE_V __m128i
#define LANE_OP(op) _mm_##op
#define LANE_T16X16_U8 tp_t16x16_u8_x
#define LANE_T8X8_U16 tp_t8x8_u16_x
#include "kernels/x86/transpose_lanes_tmpl.h"

#define LANE_V __m256i
#define LANE_OP(op) _mm256_##op
#define LANE_T16X16_U8 tp_t16x16_u8_y
#define LANE_T8X8_U16 tp_t8x8_u16_y
#include "kernels/x86/transpose_lanes_tmpl.h"

/* ---- stores ---------------------------------------------------------------------------------- */

/* A 32-byte store; streaming when nt (dst is then 32-byte aligned). */
TP_INLINE void tp_store_y(char *d, __m256i v, bool nt) {
    if (nt) _mm256_stream_si256((__m256i *)(void *)d, v);
    else _mm256_storeu_si256((__m256i *)(void *)d, v);
}

TP_INLINE __m256i tp_load2_y(const char *lo, const char *hi) {
    return _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)lo)),
        _mm_loadu_si128((const __m128i *)(const void *)hi), 1);
}

/* dst[0, n) = src[0, n) with streaming stores for the whole 64-byte lines of dst and plain ones
 * for the partial lines at both ends. */
TP_INLINE void tp_stream_row(char *d, const char *s, int64_t n) {
    int64_t head = (int64_t)(-(uintptr_t)d & 63);
    if (head > n) head = n;
    memcpy(d, s, (size_t)head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 64; n -= 64, d += 64, s += 64) {
        _mm256_stream_si256((__m256i *)(void *)d,
                            _mm256_loadu_si256((const __m256i *)(const void *)s));
        _mm256_stream_si256((__m256i *)(void *)(d + 32),
                            _mm256_loadu_si256((const __m256i *)(const void *)(s + 32)));
    }
    memcpy(d, s, (size_t)n);
}

/* ---- tiles shared by both levels ------------------------------------------------------------- */

/* 16 x 16 bytes, 16-byte stores (the small tile for 1-byte elements). */
TP_INLINE void tp_tile_w1_16x16(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    (void)nt;
    __m128i r[16];
    for (int i = 0; i < 16; i++)
        r[i] = _mm_loadu_si128((const __m128i *)(const void *)(s + i * ss));
    tp_t16x16_u8_x(r);
    for (int j = 0; j < 16; j++) _mm_storeu_si128((__m128i *)(void *)(d + j * ds), r[j]);
}

/* 32 rows x 16 columns of bytes: lanes hold rows i and i + 16, so each result register is 32
 * consecutive bytes of one destination row. */
TP_INLINE void tp_regs_w1_32x16(const char *s, int64_t ss, __m256i *r) {
    for (int i = 0; i < 16; i++) r[i] = tp_load2_y(s + i * ss, s + (i + 16) * ss);
    tp_t16x16_u8_y(r);
}

/* 8 x 8 words, 16-byte stores (the small tile for 2-byte elements). */
TP_INLINE void tp_tile_w2_8x8(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    (void)nt;
    __m128i r[8];
    for (int i = 0; i < 8; i++) r[i] = _mm_loadu_si128((const __m128i *)(const void *)(s + i * ss));
    tp_t8x8_u16_x(r);
    for (int j = 0; j < 8; j++) _mm_storeu_si128((__m128i *)(void *)(d + j * ds), r[j]);
}

/* 16 rows x 8 columns of words, lanes holding rows i and i + 8. */
TP_INLINE void tp_regs_w2_16x8(const char *s, int64_t ss, __m256i *r) {
    for (int i = 0; i < 8; i++) r[i] = tp_load2_y(s + i * ss, s + (i + 8) * ss);
    tp_t8x8_u16_y(r);
}

/* 8 x 8 of 4-byte elements. */
TP_INLINE void tp_regs_w4_8x8(const char *s, int64_t ss, __m256i *out) {
    __m256 r[8], t[8];
    for (int i = 0; i < 8; i++) r[i] = _mm256_loadu_ps((const float *)(const void *)(s + i * ss));
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int h = 0; h < 2; h++) {
        r[4 * h] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0x44);
        r[4 * h + 1] = _mm256_shuffle_ps(t[4 * h], t[4 * h + 2], 0xEE);
        r[4 * h + 2] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0x44);
        r[4 * h + 3] = _mm256_shuffle_ps(t[4 * h + 1], t[4 * h + 3], 0xEE);
    }
    for (int j = 0; j < 4; j++) {
        t[j] = _mm256_permute2f128_ps(r[j], r[j + 4], 0x20);
        t[j + 4] = _mm256_permute2f128_ps(r[j], r[j + 4], 0x31);
    }
    for (int j = 0; j < 8; j++) out[j] = _mm256_castps_si256(t[j]);
}
TP_INLINE void tp_tile_w4_8x8(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m256i r[8];
    tp_regs_w4_8x8(s, ss, r);
    for (int j = 0; j < 8; j++) tp_store_y(d + j * ds, r[j], nt);
}

/* 4 x 4 of 8-byte elements. */
TP_INLINE void tp_regs_w8_4x4(const char *s, int64_t ss, __m256i *out) {
    __m256d r[4], t[4];
    for (int i = 0; i < 4; i++) r[i] = _mm256_loadu_pd((const double *)(const void *)(s + i * ss));
    t[0] = _mm256_unpacklo_pd(r[0], r[1]);
    t[1] = _mm256_unpackhi_pd(r[0], r[1]);
    t[2] = _mm256_unpacklo_pd(r[2], r[3]);
    t[3] = _mm256_unpackhi_pd(r[2], r[3]);
    r[0] = _mm256_permute2f128_pd(t[0], t[2], 0x20);
    r[1] = _mm256_permute2f128_pd(t[1], t[3], 0x20);
    r[2] = _mm256_permute2f128_pd(t[0], t[2], 0x31);
    r[3] = _mm256_permute2f128_pd(t[1], t[3], 0x31);
    for (int j = 0; j < 4; j++) out[j] = _mm256_castpd_si256(r[j]);
}
TP_INLINE void tp_tile_w8_4x4(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m256i r[4];
    tp_regs_w8_4x4(s, ss, r);
    for (int j = 0; j < 4; j++) tp_store_y(d + j * ds, r[j], nt);
}

/* 2 x 2 of 16-byte elements. */
TP_INLINE void tp_regs_w16_2x2(const char *s, int64_t ss, __m256i *out) {
    __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)s);
    __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(s + ss));
    out[0] = _mm256_permute2x128_si256(a, b, 0x20);
    out[1] = _mm256_permute2x128_si256(a, b, 0x31);
}
TP_INLINE void tp_tile_w16_2x2(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m256i r[2];
    tp_regs_w16_2x2(s, ss, r);
    tp_store_y(d, r[0], nt);
    tp_store_y(d + ds, r[1], nt);
}

/* ---- narrow planes: byte-shuffle paths ------------------------------------------------------- */

/* Most columns (rows) a narrow plane may have for the shuffle paths. */
#define TP_NARROW_MAX 15

/* Columns fewer than a tile, source rows packed (src_stride == cols * w): every 16-byte group of
 * E = 16 / w source rows is `cols` chunks of 16 bytes, and destination row j takes from them the
 * elements j, j + cols, j + 2 cols, ...  Two groups per 256-bit register (one per lane).
 * ctl[j * cols + i] picks, in lane order, the bytes of chunk i that land in row j (0x80 = none);
 * lo[j]..hi[j] are the chunks row j draws on. */
TP_INLINE void tp_narrow_cols(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ds,
                              size_t w, bool stream) {
    const int C = (int)cols, E = 16 / (int)w;
    if (rows < 4 * E) { /* too few rows to pay for the controls */
        tp_edge(dst, src, rows, cols, (int64_t)C * (int64_t)w, ds, w);
        return;
    }
    /* Streaming: every destination row advances 32 bytes at a time; peel rows until aligned. */
    bool nt = false;
    if (stream && ds % 32 == 0 && (uintptr_t)dst % w == 0) {
        int64_t head = (int64_t)((-(uintptr_t)dst & 31) / w);
        tp_edge(dst, src, head, cols, (int64_t)C * (int64_t)w, ds, w);
        dst += head * (int64_t)w;
        src += head * (int64_t)C * (int64_t)w;
        rows -= head;
        nt = true;
    }
    __m256i ctl[TP_NARROW_MAX * TP_NARROW_MAX];
    int lo[TP_NARROW_MAX], hi[TP_NARROW_MAX];
    for (int j = 0; j < C; j++) {
        unsigned char b[TP_NARROW_MAX][16];
        memset(b, 0x80, sizeof b);
        lo[j] = C;
        hi[j] = -1;
        for (int k = 0; k < E; k++)
            for (int t = 0; t < (int)w; t++) {
                int sb = (k * C + j) * (int)w + t, ch = sb / 16;
                b[ch][k * (int)w + t] = (unsigned char)(sb % 16);
                if (ch < lo[j]) lo[j] = ch;
                if (ch > hi[j]) hi[j] = ch;
            }
        for (int i = 0; i < C; i++)
            ctl[j * C + i] =
                _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)b[i]));
    }
    const int64_t group = (int64_t)C * 16;
    int64_t r = 0;
    for (; r + 2 * E <= rows; r += 2 * E, src += 2 * group, dst += 32) {
        __m256i in[TP_NARROW_MAX];
        for (int i = 0; i < C; i++) in[i] = tp_load2_y(src + 16 * i, src + group + 16 * i);
        for (int j = 0; j < C; j++) {
            __m256i o = _mm256_shuffle_epi8(in[lo[j]], ctl[j * C + lo[j]]);
            for (int i = lo[j] + 1; i <= hi[j]; i++)
                o = _mm256_or_si256(o, _mm256_shuffle_epi8(in[i], ctl[j * C + i]));
            tp_store_y(dst + j * ds, o, nt);
        }
    }
    if (nt) _mm_sfence();
    tp_edge(dst, src, rows - r, cols, (int64_t)C * (int64_t)w, ds, w);
}

/* Rows fewer than a tile, destination rows packed (dst_stride == rows * w): the mirror image.
 * E source columns of the R rows make R destination chunks of 16 bytes; chunk m takes from row r
 * the bytes ctl[m * R + r] picks.  Two groups of E columns per register. */
TP_INLINE void tp_narrow_rows(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                              size_t w, bool stream) {
    const int R = (int)rows, E = 16 / (int)w;
    if (cols < 4 * E) {
        tp_edge(dst, src, rows, cols, ss, (int64_t)R * (int64_t)w, w);
        return;
    }
    /* Streaming: the destination is written front to back in 16-byte pieces; peel columns until
     * the next one starts on 16 bytes (possible within 16 columns, or never). */
    bool nt = false;
    if (stream) {
        int64_t head = 0;
        while (head < 16 && ((uintptr_t)dst + (uintptr_t)(head * R * (int64_t)w)) % 16 != 0) head++;
        if (head < 16) {
            tp_edge(dst, src, rows, head, ss, (int64_t)R * (int64_t)w, w);
            dst += head * R * (int64_t)w;
            src += head * (int64_t)w;
            cols -= head;
            nt = true;
        }
    }
    __m256i ctl[TP_NARROW_MAX * TP_NARROW_MAX];
    for (int m = 0; m < R; m++) {
        unsigned char b[TP_NARROW_MAX][16];
        memset(b, 0x80, sizeof b);
        for (int q = 0; q < 16; q++) {
            int e = (m * 16 + q) / (int)w, t = (m * 16 + q) % (int)w;
            b[e % R][q] = (unsigned char)((e / R) * (int)w + t);
        }
        for (int r = 0; r < R; r++)
            ctl[m * R + r] =
                _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)b[r]));
    }
    const int64_t group = (int64_t)R * 16;
    int64_t c = 0;
    for (; c + 2 * E <= cols; c += 2 * E, src += 32, dst += 2 * group) {
        __m256i in[TP_NARROW_MAX];
        for (int r = 0; r < R; r++)
            in[r] = _mm256_loadu_si256((const __m256i *)(const void *)(src + r * ss));
        for (int m = 0; m < R; m++) {
            __m256i o = _mm256_shuffle_epi8(in[0], ctl[m * R]);
            for (int r = 1; r < R; r++)
                o = _mm256_or_si256(o, _mm256_shuffle_epi8(in[r], ctl[m * R + r]));
            __m128i lo = _mm256_castsi256_si128(o), hi = _mm256_extracti128_si256(o, 1);
            if (nt) {
                _mm_stream_si128((__m128i *)(void *)(dst + 16 * m), lo);
                _mm_stream_si128((__m128i *)(void *)(dst + group + 16 * m), hi);
            } else {
                _mm_storeu_si128((__m128i *)(void *)(dst + 16 * m), lo);
                _mm_storeu_si128((__m128i *)(void *)(dst + group + 16 * m), hi);
            }
        }
    }
    if (nt) _mm_sfence();
    tp_edge(dst, src, rows, cols - c, ss, (int64_t)R * (int64_t)w, w);
}

/* The narrow entry points the driver takes (DRV_NCOLS, DRV_NROWS of transpose_driver_tmpl.h),
 * with the byte-shuffle paths: tp_ncols_w1, tp_nrows_w1, ... tp_ncols_w8, tp_nrows_w8. */
typedef void (*tp_narrow_fn)(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                             int64_t ds, bool stream);
#define NARROW_W 1
#include "kernels/x86/transpose_narrow_tmpl.h"
#define NARROW_W 2
#include "kernels/x86/transpose_narrow_tmpl.h"
#define NARROW_W 4
#include "kernels/x86/transpose_narrow_tmpl.h"
#define NARROW_W 8
#include "kernels/x86/transpose_narrow_tmpl.h"
/* 16-byte elements have no narrow path (a tile is at most 4 of them wide). */
#define tp_ncols_w16 NULL
#define tp_nrows_w16 NULL

/* The buffered streaming path's block: TP_BUF_BYTES of each of TP_BUF_COLS destination rows. */
#ifndef TP_BUF_BYTES
#define TP_BUF_BYTES 1024
#endif
#ifndef TP_BUF_COLS
#define TP_BUF_COLS 16
#endif

/* ---- the driver ---------------------------------------------------------------------------
 * x86/transpose_driver_tmpl.h, included once per kernel by the level's transpose.c. */

#endif
