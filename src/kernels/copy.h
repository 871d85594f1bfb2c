/* SPDX-License-Identifier: Apache-2.0 */
/* copy.h -- the kernels of the N-d copy (exec/copy.h): large contiguous blocks, strided runs of
 * whole cache lines and reversed runs, each chosen per CPU level by dispatch/dispatch.c.  Leaf
 * loops over raw memory: no planning, validation or allocation here. */
#ifndef TX_KERNELS_COPY_H
#define TX_KERNELS_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"

/* dst[0, n) = src[0, n) for large blocks that do not overlap.  The streaming slot's SIMD kernels
 * use streaming (non-temporal) stores, which skip reading the destination into the cache first;
 * blocks under a few KiB go to memcpy.  The plain slot is memcpy but at the AVX-512 level, where
 * blocks whose destination is skewed against their source take a vector loop. */
typedef void tx__bulk_copy_ft(void *dst, const void *src, size_t n);
typedef tx__bulk_copy_ft tx__bulk_copy_stream_ft;
/* n runs of `width` bytes (>= 64): run k goes from src + k * ss to dst + k * ds, the whole lines
 * of each run with streaming stores (for outputs too large to stay in cache: skips reading each
 * destination line first), the partial lines at a run's ends with ordinary ones. */
typedef void tx__copy_runs_stream_ft(char *dst, const char *src, int64_t n, int64_t ds,
                                     int64_t ss, size_t width);
/* The same with ordinary stores, for runs of any width that stay in cache: the SIMD kernels copy
 * each run with whole vectors in registers instead of a memcpy call per run. */
typedef tx__copy_runs_stream_ft tx__copy_runs_ft;
/* Element k of dst (contiguous, k < n) = the element k places BELOW src, i.e. a reversed run:
 * src points at the run's first element in output order, which is its highest address.  The
 * streaming slot's kernels use streaming stores, for large outputs. */
typedef void tx__copy_reversed_ft(char *dst, const char *src, int64_t n);
typedef tx__copy_reversed_ft tx__copy_reversed_stream_ft;

typedef tx__bulk_copy_ft *tx__bulk_copy_fn;
typedef tx__copy_runs_stream_ft *tx__runs_copy_fn;
typedef tx__copy_reversed_ft *tx__reverse_fn;

/* The kernels: one line each in kernels/copy.inc. */
#define TX__KERNEL(level, slot, width, fn) TX_HIDDEN tx__##slot##_ft fn;
#include "kernels/copy.inc"
#undef TX__KERNEL

#endif
