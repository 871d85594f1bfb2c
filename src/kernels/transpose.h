/* transpose.h -- the 2-D transpose kernels that tf.transpose reduces to (src/ops/reorder.c), keyed
 * by element width as XNNPACK does: after dims that stay adjacent are merged, every transpose that
 * moves the innermost dim is a batch of 2-D transposes of 1-, 2-, 4-, 8- or 16-byte elements.
 * Pure loops: no validation, no allocation. */
#ifndef TX_KERNELS_TRANSPOSE_H
#define TX_KERNELS_TRANSPOSE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* dst[c][r] = src[r][c] for r < rows, c < cols.  src rows are src_stride bytes apart with their
 * elements contiguous; dst rows (one per source column) are dst_stride bytes apart with their
 * elements contiguous.  Strides are positive; the regions do not overlap. */
typedef void (*tx__transpose2d_fn)(char *dst, const char *src, int64_t rows, int64_t cols,
                                   int64_t src_stride, int64_t dst_stride);

TX_HIDDEN void tx__transpose2d_w1(char *dst, const char *src, int64_t rows, int64_t cols,
                                  int64_t src_stride, int64_t dst_stride);
TX_HIDDEN void tx__transpose2d_w2(char *dst, const char *src, int64_t rows, int64_t cols,
                                  int64_t src_stride, int64_t dst_stride);
TX_HIDDEN void tx__transpose2d_w4(char *dst, const char *src, int64_t rows, int64_t cols,
                                  int64_t src_stride, int64_t dst_stride);
TX_HIDDEN void tx__transpose2d_w8(char *dst, const char *src, int64_t rows, int64_t cols,
                                  int64_t src_stride, int64_t dst_stride);
TX_HIDDEN void tx__transpose2d_w16(char *dst, const char *src, int64_t rows, int64_t cols,
                                   int64_t src_stride, int64_t dst_stride);

/* The kernel for `width` bytes (1, 2, 4, 8 or 16), NULL for any other width. */
TX_HIDDEN tx__transpose2d_fn tx__transpose2d_kernel(size_t width);

#endif
