/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.h -- the 2-D transpose kernels that tf.transpose reduces to (src/ops/reorder.c), keyed
 * by element width as XNNPACK does: after dims that stay adjacent are merged, every transpose that
 * moves the innermost dim is a batch of 2-D transposes of 1-, 2-, 4-, 8- or 16-byte elements.
 * One portable kernel per width (kernels/scalar/transpose.c) and SIMD ones per CPU level
 * (kernels/x86/avx2/transpose.c, kernels/x86/avx512/transpose.c, kernels/arm/neon/transpose.c)
 * that give the same bytes, and a portable one for any other width; dispatch/dispatch.c puts the
 * level's kernels in tx__kernels.transpose2d and transpose2d_any.  The list of kernels is
 * kernels/transpose.inc.
 * Pure loops: no validation, no allocation. */
#ifndef TX_KERNELS_TRANSPOSE_H
#define TX_KERNELS_TRANSPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"

/* dst[c][r] = src[r][c] for r < rows, c < cols.  src rows are src_stride bytes apart with their
 * elements contiguous; dst rows (one per source column) are dst_stride bytes apart with their
 * elements contiguous.  Strides are positive; the regions do not overlap.  The kernel reads only
 * the rows x cols elements of src and writes only the rows x cols elements of dst.  `stream` says
 * that the whole output is too large to stay in the caches: a kernel may then write whole
 * aligned cache lines with streaming (non-temporal) stores, which skip reading each destination
 * line first; the bytes written are the same either way. */
typedef void tx__transpose2d_ft(char *dst, const char *src, int64_t rows, int64_t cols,
                                int64_t src_stride, int64_t dst_stride, bool stream);
typedef tx__transpose2d_ft *tx__transpose2d_fn;

/* Any other element width (3, 6, 12, 24, 32, ...: an innermost dim that stays innermost folded
 * into the element), `width` bytes, same contract without `stream`; the portable kernel walks
 * tiles of about 2 KiB of source rows, moving elements in words of the largest power of two
 * dividing `width`. */
typedef void tx__transpose2d_any_ft(char *dst, const char *src, int64_t rows, int64_t cols,
                                    int64_t src_stride, int64_t dst_stride, size_t width);

/* The kernels, one line each in kernels/transpose.inc: the portable ones (the reference of the
 * kernel tests) and the SIMD ones. */
#define TX__KERNEL(level, slot, width, fn) TX_HIDDEN tx__##slot##_ft fn;
#include "kernels/transpose.inc"
#undef TX__KERNEL

#endif
