/* transpose.c (AVX2) -- the AVX2 2-D transpose kernels of kernels/transpose.h for tf.transpose
 * (src/ops/reorder.c): 256-bit tiles that write one whole 64-byte line into each destination row
 * (two 32-byte halves from tiles stacked on top of each other), on the shared driver and narrow
 * paths of x86/transpose_x86.h.  Same bytes as the scalar kernels. */
#include "kernels/x86/transpose_x86.h"

/* 64 rows x 16 columns of bytes: two 32 x 16 lane tiles. */
static inline void tile_w1(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    tp_tile_w1_32x16(d, s, ss, ds, nt);
    tp_tile_w1_32x16(d + 32, s + 32 * ss, ss, ds, nt);
}

/* 32 rows x 8 columns of 2-byte elements: two 16 x 8 lane tiles. */
static inline void tile_w2(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    tp_tile_w2_16x8(d, s, ss, ds, nt);
    tp_tile_w2_16x8(d + 32, s + 16 * ss, ss, ds, nt);
}

/* 16 x 8 of 4-byte elements: two 8 x 8 tiles. */
static inline void tile_w4(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    tp_tile_w4_8x8(d, s, ss, ds, nt);
    tp_tile_w4_8x8(d + 32, s + 8 * ss, ss, ds, nt);
}

/* 8 x 4 of 8-byte elements: two 4 x 4 tiles. */
static inline void tile_w8(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    tp_tile_w8_4x4(d, s, ss, ds, nt);
    tp_tile_w8_4x4(d + 32, s + 4 * ss, ss, ds, nt);
}

/* 4 x 2 of 16-byte elements: two 2 x 2 tiles. */
static inline void tile_w16(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    tp_tile_w16_2x2(d, s, ss, ds, nt);
    tp_tile_w16_2x2(d + 32, s + 2 * ss, ss, ds, nt);
}

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
