/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c (AVX2) -- the AVX2 2-D transpose kernels of kernels/transpose.h for tf.transpose
 * (src/ops/reorder.c): 256-bit tiles that write one whole 64-byte line into each destination row
 * (two 32-byte halves from tiles stacked on top of each other), on the shared driver and narrow
 * paths of x86/transpose_x86.h.  Same bytes as the scalar kernels. */
#include "kernels/x86/transpose_x86.h"

/* Each tile is two 256-bit tiles stacked on top of each other, computed before anything is stored
 * so that the two halves of every destination line go out back to back: streaming stores of the
 * halves far apart in time leave the line's write-combining buffer to be flushed half full, which
 * measured 5-10x slower.  a[j] is the first half of destination line j, b[j] the second.  (The
 * store loop is written out in each tile: through a shared inline helper taking a and b as
 * pointers, GCC 12 assigns the callers' spill slots differently.) */

/* 64 rows x 16 columns of bytes */
static inline void tile_w1(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m256i a[16], b[16];
    tp_regs_w1_32x16(s, ss, a);
    tp_regs_w1_32x16(s + 32 * ss, ss, b);
    for (int j = 0; j < 16; j++) {
        tp_store_y(d + j * ds, a[j], nt);
        tp_store_y(d + j * ds + 32, b[j], nt);
    }
}
/* 32 x 8 of 2-byte elements */
static inline void tile_w2(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m256i a[8], b[8];
    tp_regs_w2_16x8(s, ss, a);
    tp_regs_w2_16x8(s + 16 * ss, ss, b);
    for (int j = 0; j < 8; j++) {
        tp_store_y(d + j * ds, a[j], nt);
        tp_store_y(d + j * ds + 32, b[j], nt);
    }
}
/* 16 x 8 of 4-byte elements */
static inline void tile_w4(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m256i a[8], b[8];
    tp_regs_w4_8x8(s, ss, a);
    tp_regs_w4_8x8(s + 8 * ss, ss, b);
    for (int j = 0; j < 8; j++) {
        tp_store_y(d + j * ds, a[j], nt);
        tp_store_y(d + j * ds + 32, b[j], nt);
    }
}
/* 8 x 4 of 8-byte elements */
static inline void tile_w8(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m256i a[4], b[4];
    tp_regs_w8_4x4(s, ss, a);
    tp_regs_w8_4x4(s + 4 * ss, ss, b);
    for (int j = 0; j < 4; j++) {
        tp_store_y(d + j * ds, a[j], nt);
        tp_store_y(d + j * ds + 32, b[j], nt);
    }
}
/* 4 x 2 of 16-byte elements */
static inline void tile_w16(char *d, const char *s, int64_t ss, int64_t ds, bool nt) {
    __m256i a[2], b[2];
    tp_regs_w16_2x2(s, ss, a);
    tp_regs_w16_2x2(s + 2 * ss, ss, b);
    for (int j = 0; j < 2; j++) {
        tp_store_y(d + j * ds, a[j], nt);
        tp_store_y(d + j * ds + 32, b[j], nt);
    }
}

/* The kernels: main tile, small tile and narrow paths of each width (transpose_driver_tmpl.h). */
#define DRV_NAME tx__transpose2d_w1_avx2
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

#define DRV_NAME tx__transpose2d_w2_avx2
#define DRV_W 2
#define DRV_VR 32
#define DRV_VC 8
#define DRV_TILE tile_w2
#define DRV_VR2 8
#define DRV_VC2 8
#define DRV_TILE2 tp_tile_w2_8x8
#define DRV_NCOLS tp_ncols_w2
#define DRV_NROWS tp_nrows_w2
#define DRV_UNALIGNED NULL
#include "kernels/x86/transpose_driver_tmpl.h"

#define DRV_NAME tx__transpose2d_w4_avx2
#define DRV_W 4
#define DRV_VR 16
#define DRV_VC 8
#define DRV_TILE tile_w4
#define DRV_VR2 8
#define DRV_VC2 8
#define DRV_TILE2 tp_tile_w4_8x8
#define DRV_NCOLS tp_ncols_w4
#define DRV_NROWS tp_nrows_w4
#define DRV_UNALIGNED NULL
#include "kernels/x86/transpose_driver_tmpl.h"

#define DRV_NAME tx__transpose2d_w8_avx2
#define DRV_W 8
#define DRV_VR 8
#define DRV_VC 4
#define DRV_TILE tile_w8
#define DRV_VR2 4
#define DRV_VC2 4
#define DRV_TILE2 tp_tile_w8_4x4
#define DRV_NCOLS tp_ncols_w8
#define DRV_NROWS tp_nrows_w8
#define DRV_UNALIGNED NULL
#include "kernels/x86/transpose_driver_tmpl.h"

#define DRV_NAME tx__transpose2d_w16_avx2
#define DRV_W 16
#define DRV_VR 4
#define DRV_VC 2
#define DRV_TILE tile_w16
#define DRV_VR2 2
#define DRV_VC2 2
#define DRV_TILE2 tp_tile_w16_2x2
#define DRV_NCOLS tp_ncols_w16
#define DRV_NROWS tp_nrows_w16
#define DRV_UNALIGNED NULL
#include "kernels/x86/transpose_driver_tmpl.h"
