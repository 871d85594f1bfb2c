/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c (NEON) -- the 2-D transposes of kernels/transpose.h for 1-, 2-, 4- and 8-byte
 * elements with Arm64's Advanced SIMD, for tf.transpose (src/ops/reorder.c).  Square blocks of
 * one 16-byte register per row (16 x 16 bytes, 8 x 8 of 2 bytes, 4 x 4 of 4, 2 x 2 of 8) are
 * loaded row by row, transposed in registers with TRN1/TRN2 and stored column by column; the
 * blocks are walked in tiles of TILE x TILE elements so that a tile's source and destination rows
 * stay in L1 while it is done.  The rows and columns past the last whole block go to the
 * portable kernel (kernels/scalar/transpose.c), which is also the reference the tests hold these
 * to.  16-byte elements keep the portable kernel: a register holds one element, nothing to
 * shuffle.  NEON has no streaming stores worth using (STNP is only a hint): `stream` is ignored,
 * as the contract allows.  Loads and stores are of bytes, at any alignment and stride; the lanes
 * are reinterpreted in place, which is memory order on little-endian aarch64 (cmake/isa.cmake
 * builds this file for no other target). */
#include <arm_neon.h>

#include "kernels/transpose.h"

/* a, b = TRN1(a, b), TRN2(a, b) on units of `unit` bytes: the units of even index of a and b
 * interleaved, then those of odd index.  For rows a (above) and b (below) that is the exchange
 * of the off-diagonal units of every 2 x 2 block of units. */
static inline void trn(uint8x16_t *a, uint8x16_t *b, int unit) {
    uint8x16_t x = *a, y = *b, lo, hi;
    switch (unit) {
    case 1:
        lo = vtrn1q_u8(x, y);
        hi = vtrn2q_u8(x, y);
        break;
    case 2:
        lo = vreinterpretq_u8_u16(vtrn1q_u16(vreinterpretq_u16_u8(x), vreinterpretq_u16_u8(y)));
        hi = vreinterpretq_u8_u16(vtrn2q_u16(vreinterpretq_u16_u8(x), vreinterpretq_u16_u8(y)));
        break;
    case 4:
        lo = vreinterpretq_u8_u32(vtrn1q_u32(vreinterpretq_u32_u8(x), vreinterpretq_u32_u8(y)));
        hi = vreinterpretq_u8_u32(vtrn2q_u32(vreinterpretq_u32_u8(x), vreinterpretq_u32_u8(y)));
        break;
    default:
        lo = vreinterpretq_u8_u64(vtrn1q_u64(vreinterpretq_u64_u8(x), vreinterpretq_u64_u8(y)));
        hi = vreinterpretq_u8_u64(vtrn2q_u64(vreinterpretq_u64_u8(x), vreinterpretq_u64_u8(y)));
        break;
    }
    *a = lo;
    *b = hi;
}

/* The n x n block (n = 16 / width elements) held one row per register becomes one column per
 * register in log2(n) stages: stage h pairs every row k of the first half of each group of 2h
 * rows with row k + h and exchanges the off-diagonal units of h elements between them
 * (scalar/transpose.c's SWAP_UNITS does the same inside 64-bit words). */
static inline void block(char *d, const char *s, int64_t ss, int64_t ds, int width) {
    const int n = 16 / width;
    uint8x16_t x[16];
    /* Unrolled whole (width is a constant at every call), x[] lives in registers and the switch
     * in trn() folds away. */
#pragma GCC unroll 16
    for (int i = 0; i < n; i++) x[i] = vld1q_u8((const uint8_t *)(s + i * ss));
#pragma GCC unroll 4
    for (int h = 1; h < n; h *= 2)
#pragma GCC unroll 8
        for (int i = 0; i < n; i += 2 * h) /* the groups of 2h rows */
#pragma GCC unroll 8
            for (int k = i; k < i + h; k++) trn(&x[k], &x[k + h], h * width);
#pragma GCC unroll 16
    for (int j = 0; j < n; j++) vst1q_u8((uint8_t *)(d + j * ds), x[j]);
}

/* The kernel for W-byte elements: the whole B x B blocks (B = 16 / W) tile by tile, then the
 * columns past the last whole block (every row) and the rows past it (the other columns) through
 * the portable kernel. */
#define DEFINE_TRANSPOSE(W, TILE, SCALAR)                                                        \
    void tx__transpose2d_w##W##_neon(char *dst, const char *src, int64_t rows, int64_t cols,     \
                                     int64_t ss, int64_t ds, bool stream) {                      \
        (void)stream;                                                                            \
        const int64_t B = 16 / (W), rb = rows - rows % B, cb = cols - cols % B;                  \
        for (int64_t r0 = 0; r0 < rb; r0 += (TILE))                                              \
            for (int64_t c0 = 0; c0 < cb; c0 += (TILE)) {                                        \
                const int64_t r1 = rb - r0 < (TILE) ? rb : r0 + (TILE);                          \
                const int64_t c1 = cb - c0 < (TILE) ? cb : c0 + (TILE);                          \
                for (int64_t r = r0; r < r1; r += B)                                             \
                    for (int64_t c = c0; c < c1; c += B)                                         \
                        block(dst + c * ds + r * (W), src + r * ss + c * (W), ss, ds, (W));      \
            }                                                                                    \
        if (cb < cols) SCALAR(dst + cb * ds, src + cb * (W), rows, cols - cb, ss, ds, false);    \
        if (rb < rows) SCALAR(dst + rb * (W), src + rb * ss, rows - rb, cb, ss, ds, false);      \
    }

/* Tiles of 64 x 64 elements of 1 and 2 bytes, 32 x 32 of 4 and 8 (4 to 8 KB a side). */
DEFINE_TRANSPOSE(1, 64, tx__transpose2d_w1)
DEFINE_TRANSPOSE(2, 64, tx__transpose2d_w2)
DEFINE_TRANSPOSE(4, 32, tx__transpose2d_w4)
DEFINE_TRANSPOSE(8, 32, tx__transpose2d_w8)
