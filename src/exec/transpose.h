/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.h -- the transpose executor: runs a transpose planned by tx__transpose_plan_make
 * (exec/normalize.h) with the 2-D transpose kernels, large ones split over the thread pool.  No
 * validation and no allocation here: the op has checked perm and made the output. */
#ifndef TX_EXEC_TRANSPOSE_H
#define TX_EXEC_TRANSPOSE_H

#include "core/internal.h"
#include "exec/normalize.h"
#include "kernels/transpose.h"

/* The run of a transpose plan worked out once: the kernel, the plane and batch geometry and the
 * cut into blocks, or a strided copy for elements too wide for the kernels.  A prepared transpose
 * keeps one, so that a run does nothing but the copy (its setup was a third of a 4 KiB run). */
typedef struct tx__transpose_job {
    bool copy;                     /* the strided copy below, not the kernels */
    tx__transpose2d_fn kernel;     /* the element width's kernel, or NULL: */
    tx__transpose2d_any_ft *any;   /* the any-width one */
    size_t width;
    bool stream;
    /* planes of rows x cols (source rows sstride bytes apart, destination rows dstride apart) at
     * batch offsets walked by an odometer over nb dims; a unit of work is a block of up to
     * chunk_rows x chunk_cols of one plane (nrc x ncc blocks per plane) */
    int64_t rows, cols, sstride, dstride, chunk_rows, chunk_cols, nrc, ncc;
    int64_t units, unit_bytes, total;
    size_t nb;
    int64_t bdims[TX_MAX_RANK], bsrc[TX_MAX_RANK], bdst[TX_MAX_RANK];
    tx__copy_plan copy_plan;
} tx__transpose_job;

/* Works out the job of a plan of a non-empty tensor. */
TX_HIDDEN void tx__transpose_job_make(tx__transpose_job *j, const tx__transpose_plan *pl);
/* Writes the transpose of src (the job's input) into dst, contiguous. */
TX_HIDDEN void tx__transpose_job_run(const tx__transpose_job *j, char *dst, const char *src);
/* Both in one call. */
TX_HIDDEN void tx__transpose_run(const tx__transpose_plan *pl, char *dst, const char *src);

#endif
