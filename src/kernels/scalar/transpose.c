/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c -- portable scalar 2-D transpose kernels (see kernels/transpose.h) for elements of
 * 1, 2, 4, 8 and 16 bytes, used by tf.transpose (src/ops/reorder.c) at the scalar CPU level and
 * as the reference the SIMD kernels are tested against.
 *
 * The plane is cut into tiles of TR source rows by TC source columns, and every tile goes through
 * a small contiguous buffer: the tile's source rows are read front to back, four rows at a time,
 * and scattered into the buffer already transposed; then each buffer row is written to its
 * destination row in one run.  Memory is thus only touched in whole-row bursts on both sides, so
 * each cache line fetched or written is used whole at once.  Walking a tile directly would revisit
 * every source line once per column strip, and with power-of-two row strides (a 4096-float matrix)
 * all rows of a tile fall into one cache set and evict each other before the revisit.  A plane
 * with fewer rows than a tile has short destination rows, where the buffer's extra pass costs more
 * than it saves: it is transposed directly, four columns per pass.  Tiles are visited in blocks of
 * SB x SB elements so that the pages one pass touches on either side stay in the TLB, and 1- and
 * 2-byte elements move in 8x8 and 4x4 blocks transposed inside 64-bit words. */
#include "kernels/transpose.h"

#include "core/byteorder.h"

typedef struct tx__u128 {
    uint64_t lo, hi;
} tx__u128;

/* In-register transposes of small square blocks held one row per 64-bit word, read as a
 * little-endian word on every host so that element j of a row is its j-th lowest unit: each stage
 * swaps the off-diagonal halves of 2x2 blocks of units between pairs of rows, from single units up
 * to half words.  8x8 bytes take three stages, 4x4 16-bit units two. */
static inline __attribute__((always_inline)) void swap_units(uint64_t *a, uint64_t *b, int shift,
                                                             uint64_t mask) {
    uint64_t t = ((*a >> shift) ^ *b) & mask;
    *b ^= t;
    *a ^= t << shift;
}

static inline void block8x8_u8(uint64_t *x) {
    uint64_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    const uint64_t m8 = UINT64_C(0x00FF00FF00FF00FF), m16 = UINT64_C(0x0000FFFF0000FFFF),
                   m32 = UINT64_C(0x00000000FFFFFFFF);
    swap_units(&x0, &x1, 8, m8);
    swap_units(&x2, &x3, 8, m8);
    swap_units(&x4, &x5, 8, m8);
    swap_units(&x6, &x7, 8, m8);
    swap_units(&x0, &x2, 16, m16);
    swap_units(&x1, &x3, 16, m16);
    swap_units(&x4, &x6, 16, m16);
    swap_units(&x5, &x7, 16, m16);
    swap_units(&x0, &x4, 32, m32);
    swap_units(&x1, &x5, 32, m32);
    swap_units(&x2, &x6, 32, m32);
    swap_units(&x3, &x7, 32, m32);
    x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3, x[4] = x4, x[5] = x5, x[6] = x6, x[7] = x7;
}

static inline void block4x4_u16(uint64_t *x) {
    uint64_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    const uint64_t m16 = UINT64_C(0x0000FFFF0000FFFF), m32 = UINT64_C(0x00000000FFFFFFFF);
    swap_units(&x0, &x1, 16, m16);
    swap_units(&x2, &x3, 16, m16);
    swap_units(&x0, &x2, 32, m32);
    swap_units(&x1, &x3, 32, m32);
    x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3;
}

/* The kernels, one inclusion of transpose_tmpl.h each.  Tiles: 64 x 64 elements of 1 and 2
 * bytes, 32 x 32 of 4 and 8, 16 x 16 of 16 (buffers of 4 to 8 KB, bursts of at least one 64-byte
 * line); TLB blocks of 256, 256, 128, 128 and 64 elements; 1- and 2-byte elements also in blocks
 * of 8 x 8 and 4 x 4 transposed inside 64-bit words. */
#define TT_NAME tx__transpose2d_w1
#define TT_T uint8_t
#define TT_TR 64
#define TT_TC 64
#define TT_B 8
#define TT_BLOCK block8x8_u8
#define TT_SB 256
#include "kernels/scalar/transpose_tmpl.h"

#define TT_NAME tx__transpose2d_w2
#define TT_T uint16_t
#define TT_TR 64
#define TT_TC 64
#define TT_B 4
#define TT_BLOCK block4x4_u16
#define TT_SB 256
#include "kernels/scalar/transpose_tmpl.h"

#define TT_NAME tx__transpose2d_w4
#define TT_T uint32_t
#define TT_TR 32
#define TT_TC 32
#define TT_B 1
#define TT_SB 128
#include "kernels/scalar/transpose_tmpl.h"

#define TT_NAME tx__transpose2d_w8
#define TT_T uint64_t
#define TT_TR 32
#define TT_TC 32
#define TT_B 1
#define TT_SB 128
#include "kernels/scalar/transpose_tmpl.h"

#define TT_NAME tx__transpose2d_w16
#define TT_T tx__u128
#define TT_TR 16
#define TT_TC 16
#define TT_B 1
#define TT_SB 64
#include "kernels/scalar/transpose_tmpl.h"

/* tx__transpose2d_any's tile walks (transpose_any_tmpl.h): any_fixed_<W> for common widths
 * with a constant size (the copy becomes a few plain moves), any_u64, any_u32, any_u16 and any_u8
 * for any other width, in n words of the largest of those sizes dividing it. */
#define ANY_NAME any_fixed_3
#define ANY_W 3
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_fixed_6
#define ANY_W 6
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_fixed_12
#define ANY_W 12
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_fixed_24
#define ANY_W 24
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_fixed_32
#define ANY_W 32
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_fixed_48
#define ANY_W 48
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_fixed_64
#define ANY_W 64
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_u64
#define ANY_WORD uint64_t
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_u32
#define ANY_WORD uint32_t
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_u16
#define ANY_WORD uint16_t
#include "kernels/scalar/transpose_any_tmpl.h"
#define ANY_NAME any_u8
#define ANY_WORD uint8_t
#include "kernels/scalar/transpose_any_tmpl.h"

void tx__transpose2d_any(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                         int64_t ds, size_t width) {
    int64_t tile = 2048 / (int64_t)width;
    if (tile < 4) tile = 4;
    if (tile > 64) tile = 64;
    switch (width) {
    case 3: any_fixed_3(dst, src, rows, cols, ss, ds, tile); return;
    case 6: any_fixed_6(dst, src, rows, cols, ss, ds, tile); return;
    case 12: any_fixed_12(dst, src, rows, cols, ss, ds, tile); return;
    case 24: any_fixed_24(dst, src, rows, cols, ss, ds, tile); return;
    case 32: any_fixed_32(dst, src, rows, cols, ss, ds, tile); return;
    case 48: any_fixed_48(dst, src, rows, cols, ss, ds, tile); return;
    case 64: any_fixed_64(dst, src, rows, cols, ss, ds, tile); return;
    }
    if (width % 8 == 0) any_u64(dst, src, rows, cols, ss, ds, width / 8, tile);
    else if (width % 4 == 0) any_u32(dst, src, rows, cols, ss, ds, width / 4, tile);
    else if (width % 2 == 0) any_u16(dst, src, rows, cols, ss, ds, width / 2, tile);
    else any_u8(dst, src, rows, cols, ss, ds, width, tile);
}
