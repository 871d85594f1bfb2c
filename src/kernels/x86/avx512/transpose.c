/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c (AVX-512) -- the AVX-512 2-D transpose kernels of kernels/transpose.h for
 * tf.transpose (src/ops/reorder.c): 512-bit tiles in which every load reads one whole 64-byte
 * source line (4-, 8- and 16-byte elements: 16 x 16, 8 x 8 and 4 x 4 elements) or four 16-byte
 * pieces of rows 16 (8) apart (1- and 2-byte elements, transposed inside each 128-bit lane), and
 * every store writes one whole destination line.  The driver, the small tiles and the narrow
 * paths are the shared ones of x86/transpose_x86.h, here compiled with AVX-512 flags (32 vector
 * registers: the 16 x 16 byte tiles run without spills).  Same bytes as the scalar kernels. */
#include "kernels/x86/transpose_x86.h"

#define LANE_V __m512i
#define LANE_OP(op) _mm512_##op
#define LANE_T16X16_U8 t16x16_u8_z
#define LANE_T8X8_U16 t8x8_u16_z
#include "kernels/x86/transpose_lanes_tmpl.h"

/* p + step, the sum hidden from the optimizer: otherwise it hoists each row's offset out of the
 * band loops -- up to 32 for a tile's loads and stores -- and they spill: a 64 x 64 float32 plane
 * took 148 ns instead of 100 (the stores' side alone: 121), 64 x 64 bytes 56 ns instead of 42.
 * The 4-byte tile's loads keep the plain sums: bumped too, they cost 256 x 256 float32 (the
 * stripes of the aliased-rows path) 3.6 -> 3.9 us. */
static inline const char *next_row(const char *p, int64_t step) {
    p += step;
    __asm__("" : "+r"(p));
    return p;
}
static inline char *next_row_w(char *p, int64_t step) {
    p += step;
    __asm__("" : "+r"(p));
    return p;
}

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
    for (int i = 0; i < 16; i++, s = next_row(s, ss)) r[i] = load4_z(s, 16 * ss);
    t16x16_u8_z(r);
    for (int j = 0; j < 16; j++, d = next_row_w(d, ds)) store_z(d, r[j], nt);
}

/* 32 rows x 8 columns of 2-byte elements: lanes hold rows i, i + 8, i + 16, i + 24. */
static inline void regs_w2(const char *s, int64_t ss, __m512i *r) {
    for (int i = 0; i < 8; i++, s = next_row(s, ss)) r[i] = load4_z(s, 8 * ss);
    t8x8_u16_z(r);
}
static inline void tile_w2(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m512i r[8];
    regs_w2(s, ss, r);
    for (int j = 0; j < 8; j++, d = next_row_w(d, ds)) store_z(d, r[j], nt);
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
    for (int j = 0; j < 16; j++, d = next_row_w(d, ds)) store_z(d, r[j], nt);
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

/* ---- narrow planes with cross-lane permutes -------------------------------------------------
 * For 2-, 4- and 8-byte elements a register holds V = 64 / W elements and VPERMT2W/D/Q pick lanes
 * from two registers at once.  Narrow columns (source rows packed): V source rows are C whole
 * registers, and destination row j takes lanes j, j + C, j + 2C, ... of their concatenation, from
 * register pair p under mask m[j][p].  Narrow rows (destination rows packed): V columns of the R
 * source rows (one register each) make R whole destination registers, register m taking element
 * e = mV + q from source row e % R, column e / R.  Index lanes and masks are built once per
 * call.  The paths themselves are per width, in transpose_perm_tmpl.h. */

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

/* The narrow paths and the unaligned streaming kernel of each width: transpose_perm_tmpl.h, which
 * describes the latter.  The unaligned walk keeps carries of CARRY_COLS columns at a time, and
 * takes strips down the plane when a band of V source rows spans at most STRIP_MAX_BYTES. */
#define CARRY_COLS 256
#define STRIP_MAX_BYTES ((int64_t)32 << 10)

#define ZP_W 2
#define ZP_EPI(op) op##_epi16
#define ZP_MASK __mmask32
#define ZP_VC 8
#define ZP_REGS regs_w2
#include "kernels/x86/avx512/transpose_perm_tmpl.h"

#define ZP_W 4
#define ZP_EPI(op) op##_epi32
#define ZP_MASK __mmask16
#define ZP_VC 16
#define ZP_REGS regs_w4
#include "kernels/x86/avx512/transpose_perm_tmpl.h"

#define ZP_W 8
#define ZP_EPI(op) op##_epi64
#define ZP_MASK __mmask8
#define ZP_VC 8
#define ZP_REGS regs_w8
#include "kernels/x86/avx512/transpose_perm_tmpl.h"

/* The kernels: main tile, small tile, narrow paths and unaligned streaming of each width
 * (transpose_driver_tmpl.h).  1-byte elements keep the byte-shuffle paths (a byte permute across
 * lanes needs VBMI, which the AVX-512 level does not include). */
#define DRV_NAME tx__transpose2d_w1_avx512
#define DRV_W 1
#define DRV_VR 64
#define DRV_VC 16
#define DRV_TILE tile_w1
#define DRV_VR2 16
#define DRV_VC2 16
#define DRV_TILE2 tp_tile_w1_16x16
#define DRV_NCOLS tp_ncols_w1
#define DRV_NROWS tp_nrows_w1
#define DRV_UNALIGNED NULL
#include "kernels/x86/transpose_driver_tmpl.h"

#define DRV_NAME tx__transpose2d_w2_avx512
#define DRV_W 2
#define DRV_VR 32
#define DRV_VC 8
#define DRV_TILE tile_w2
#define DRV_VR2 8
#define DRV_VC2 8
#define DRV_TILE2 tp_tile_w2_8x8
#define DRV_NCOLS zn_ncols_w2
#define DRV_NROWS zn_nrows_w2
#define DRV_UNALIGNED zc_w2
#include "kernels/x86/transpose_driver_tmpl.h"

#define DRV_NAME tx__transpose2d_w4_avx512
#define DRV_W 4
#define DRV_VR 16
#define DRV_VC 16
#define DRV_TILE tile_w4
#define DRV_VR2 8
#define DRV_VC2 8
#define DRV_TILE2 tp_tile_w4_8x8
#define DRV_NCOLS zn_ncols_w4
#define DRV_NROWS zn_nrows_w4
#define DRV_UNALIGNED zc_w4
#include "kernels/x86/transpose_driver_tmpl.h"

#define DRV_NAME tx__transpose2d_w8_avx512
#define DRV_W 8
#define DRV_VR 8
#define DRV_VC 8
#define DRV_TILE tile_w8
#define DRV_VR2 4
#define DRV_VC2 4
#define DRV_TILE2 tp_tile_w8_4x4
#define DRV_NCOLS zn_ncols_w8
#define DRV_NROWS zn_nrows_w8
#define DRV_UNALIGNED zc_w8
#include "kernels/x86/transpose_driver_tmpl.h"

#define DRV_NAME tx__transpose2d_w16_avx512
#define DRV_W 16
#define DRV_VR 4
#define DRV_VC 4
#define DRV_TILE tile_w16
#define DRV_VR2 2
#define DRV_VC2 2
#define DRV_TILE2 tp_tile_w16_2x2
#define DRV_NCOLS tp_ncols_w16
#define DRV_NROWS tp_nrows_w16
#define DRV_UNALIGNED NULL
#include "kernels/x86/transpose_driver_tmpl.h"
