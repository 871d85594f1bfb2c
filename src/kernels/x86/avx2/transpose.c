/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c (AVX2) -- the AVX2 2-D transpose kernels of kernels/transpose.h for tf.transpose
 * (src/ops/reorder.c): 256-bit tiles that write one whole 64-byte line into each destination row
 * (two 32-byte halves from tiles stacked on top of each other), on the shared driver and narrow
 * paths of x86/transpose_x86.h.  Same bytes as the scalar kernels. */
#include "kernels/x86/transpose_x86.h"

/* Each tile is two 256-bit tiles stacked on top of each other, computed before anything is stored
 * so that the two halves of every destination line go out back to back: streaming stores of the
 * halves far apart in time leave the line's write-combining buffer to be flushed half full, which
 * measured 5-10x slower. */
#define STACKED_TILE(NAME, REGS, N, ROWS)                                                        \
    static inline void NAME(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {           \
        __m256i a[N], b[N];                                                                      \
        REGS(s, ss, a);                                                                          \
        REGS(s + (ROWS) * ss, ss, b);                                                            \
        for (int j = 0; j < (N); j++) {                                                          \
            tp_store_y(d + j * ds, a[j], nt);                                                    \
            tp_store_y(d + j * ds + 32, b[j], nt);                                               \
        }                                                                                        \
    }

STACKED_TILE(tile_w1, tp_regs_w1_32x16, 16, 32)  /* 64 rows x 16 columns of bytes */
STACKED_TILE(tile_w2, tp_regs_w2_16x8, 8, 16)    /* 32 x 8 of 2-byte elements */
STACKED_TILE(tile_w4, tp_regs_w4_8x8, 8, 8)      /* 16 x 8 of 4-byte elements */
STACKED_TILE(tile_w8, tp_regs_w8_4x4, 4, 4)      /* 8 x 4 of 8-byte elements */
STACKED_TILE(tile_w16, tp_regs_w16_2x2, 2, 2)    /* 4 x 2 of 16-byte elements */

TP_DEFINE(tx__transpose2d_w1_avx2, 1, 64, 16, tile_w1, 16, 16, tp_tile_w1_16x16, tp_ncols_w1,
          tp_nrows_w1, NULL)
TP_DEFINE(tx__transpose2d_w2_avx2, 2, 32, 8, tile_w2, 8, 8, tp_tile_w2_8x8, tp_ncols_w2,
          tp_nrows_w2, NULL)
TP_DEFINE(tx__transpose2d_w4_avx2, 4, 16, 8, tile_w4, 8, 8, tp_tile_w4_8x8, tp_ncols_w4,
          tp_nrows_w4, NULL)
TP_DEFINE(tx__transpose2d_w8_avx2, 8, 8, 4, tile_w8, 4, 4, tp_tile_w8_4x4, tp_ncols_w8,
          tp_nrows_w8, NULL)
TP_DEFINE(tx__transpose2d_w16_avx2, 16, 4, 2, tile_w16, 2, 2, tp_tile_w16_2x2, tp_ncols_w16,
          tp_nrows_w16, NULL)
