/* SPDX-License-Identifier: Apache-2.0 */
/* copy.h -- the generic N-d strided copy that every data-movement op can be expressed with
 * (slice, strided_slice, transpose, reverse, tile, pad, concat, split, space/batch/depth ...).
 * An op describes its output as dims plus byte strides into the input; the copy is normalised
 * (exec/normalize.h: size-1 dims dropped, dims contiguous on both sides merged, a contiguous
 * innermost run folded into one memcpy) and its loops run the rest, large copies split over the
 * thread pool.  No validation and no allocation here: the op has checked every index. */
#ifndef TX_EXEC_COPY_H
#define TX_EXEC_COPY_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"
#include "exec/normalize.h"

/* Runs the part of the plan whose outer (all but innermost) linear index is in [begin, end). */
TX_HIDDEN void tx__copy_plan_run(const tx__copy_plan *p, char *dst, const char *src, int64_t begin,
                                 int64_t end);
/* Number of outer rows of the plan (the unit of tx__copy_plan_run's range). */
TX_HIDDEN int64_t tx__copy_plan_rows(const tx__copy_plan *p);

/* Runs a whole plan, large copies split over the threads (tx__parallel_for). */
TX_HIDDEN void tx__copy_plan_exec(const tx__copy_plan *p, char *dst, const char *src);
/* The run half of the ops that are one strided copy starting at an offset into their input
 * (slice, strided_slice, reverse): their prepared plan, and tx__offset_copy_run on it. */
typedef struct tx__offset_copy {
    tx__copy_plan copy;
    int64_t offset; /* bytes from the input's first element to the first one read */
} tx__offset_copy;
TX_HIDDEN tx_status tx__offset_copy_run(const void *plan, const tx__run_io *io);

/* Plan and run in one call; a large copy is split over the thread pool (tx__parallel_for). */
TX_HIDDEN void tx__copy_nd(char *dst, const char *src, size_t rank, const int64_t *dims,
                           const int64_t *dst_strides, const int64_t *src_strides, size_t elem);

#endif
