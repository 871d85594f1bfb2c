/* SPDX-License-Identifier: Apache-2.0 */
/* copy.h -- the generic N-d strided copy that every data-movement op can be expressed with
 * (slice, strided_slice, transpose, reverse, tile, pad, concat, split, space/batch/depth ...).
 * An op describes its output as dims plus byte strides into the input, and this module plans the
 * copy: it drops size-1 dims, merges dims that stay contiguous on both sides, folds a contiguous
 * innermost run into one memcpy, and loops over the rest.  No validation and no allocation here:
 * the op has checked every index before calling. */
#ifndef TX_KERNELS_COPY_H
#define TX_KERNELS_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* A normalised copy description (at most TX_MAX_RANK dims after normalisation). */
typedef struct tx__copy_plan {
    size_t rank;
    int64_t dims[TX_MAX_RANK];
    int64_t dst_strides[TX_MAX_RANK]; /* bytes */
    int64_t src_strides[TX_MAX_RANK]; /* bytes; may be negative */
    size_t width;                     /* bytes moved per innermost element (>= element size) */
    int64_t count;                    /* total number of innermost elements */
    bool stream;                      /* large enough for streaming stores (see copy.c) */
} tx__copy_plan;

/* Builds the plan: element of `elem` bytes at dst + sum(i[d] * dst_strides[d]) receives the one at
 * src + sum(i[d] * src_strides[d]), for every index i < dims.  The caller's promise, on each side:
 * the sum over d of (dims[d] - 1) * |strides[d]| fits int64 (the memory exists), so every offset
 * the loops form does; dims[d] * strides[d] need not, and the planner checks it.  Dims of an
 * empty copy may multiply past int64 beside their 0: such a copy plans to nothing. */
TX_HIDDEN void tx__copy_plan_make(tx__copy_plan *p, size_t rank, const int64_t *dims,
                                  const int64_t *dst_strides, const int64_t *src_strides,
                                  size_t elem);
/* Runs the part of the plan whose outer (all but innermost) linear index is in [begin, end). */
TX_HIDDEN void tx__copy_plan_run(const tx__copy_plan *p, char *dst, const char *src, int64_t begin,
                                 int64_t end);
/* Number of outer rows of the plan (the unit of tx__copy_plan_run's range). */
TX_HIDDEN int64_t tx__copy_plan_rows(const tx__copy_plan *p);

/* Plan and run in one call; a large copy is split over the thread pool (tx__parallel_for). */
TX_HIDDEN void tx__copy_nd(char *dst, const char *src, size_t rank, const int64_t *dims,
                           const int64_t *dst_strides, const int64_t *src_strides, size_t elem);

/* ---- kernels the copy uses, chosen per CPU level by dispatch/dispatch.c ---- */

/* dst[0, n) = src[0, n) for large blocks that do not overlap; the SIMD versions use streaming
 * (non-temporal) stores, which skip reading the destination into the cache first.  Blocks under
 * a few KiB go to memcpy. */
typedef void (*tx__bulk_copy_fn)(void *dst, const void *src, size_t n);
/* n runs of `width` bytes (>= 64): run k goes from src + k * ss to dst + k * ds, the whole lines
 * of each run with streaming stores (for outputs too large to stay in cache: skips reading each
 * destination line first), the partial lines at a run's ends with ordinary ones. */
typedef void (*tx__runs_copy_fn)(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss,
                                 size_t width);
/* Element k of dst (contiguous, k < n) = the element k places BELOW src, i.e. a reversed run:
 * src points at the run's first element in output order, which is its highest address. */
typedef void (*tx__reverse_fn)(char *dst, const char *src, int64_t n);

TX_HIDDEN void tx__bulk_copy_scalar(void *dst, const void *src, size_t n);
TX_HIDDEN void tx__copy_runs_scalar(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss,
                                    size_t width);
TX_HIDDEN void tx__copy_reversed_w1_scalar(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w2_scalar(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w4_scalar(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w8_scalar(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w16_scalar(char *dst, const char *src, int64_t n);
/* Streaming-store versions of the reversed runs, for large outputs (the scalar table uses the
 * plain ones). */
#ifdef TX_HAVE_X86_SIMD
TX_HIDDEN void tx__copy_reversed_stream_w1_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_stream_w2_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_stream_w4_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_stream_w8_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_stream_w16_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_stream_w1_avx512(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_stream_w2_avx512(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_stream_w4_avx512(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_stream_w8_avx512(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__bulk_copy_avx2(void *dst, const void *src, size_t n);
TX_HIDDEN void tx__copy_runs_stream_avx2(char *dst, const char *src, int64_t n, int64_t ds,
                                         int64_t ss, size_t width);
TX_HIDDEN void tx__copy_reversed_w1_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w2_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w4_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w8_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w16_avx2(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__bulk_copy_avx512(void *dst, const void *src, size_t n);
TX_HIDDEN void tx__copy_runs_stream_avx512(char *dst, const char *src, int64_t n, int64_t ds,
                                           int64_t ss, size_t width);
TX_HIDDEN void tx__copy_reversed_w1_avx512(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w2_avx512(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w4_avx512(char *dst, const char *src, int64_t n);
TX_HIDDEN void tx__copy_reversed_w8_avx512(char *dst, const char *src, int64_t n);
#endif

/* Row-major contiguous byte strides of dims for elements of `elem` bytes (a dim of 0 steps like a
 * dim of 1).  Exact for dims of a tensor that has elements; an empty shape's strides, never used,
 * saturate at INT64_MAX where they would pass int64. */
TX_HIDDEN void tx__contiguous_strides(size_t rank, const int64_t *dims, size_t elem,
                                      int64_t *strides);

#endif
