/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.h -- the transpose executor: runs a transpose planned by tx__transpose_plan_make
 * (exec/normalize.h) with the 2-D transpose kernels, large ones split over the thread pool.  No
 * validation and no allocation here: the op has checked perm and made the output. */
#ifndef TX_EXEC_TRANSPOSE_H
#define TX_EXEC_TRANSPOSE_H

#include "core/internal.h"
#include "exec/normalize.h"

/* Writes the transpose of src (the plan's input, non-empty) into dst, contiguous. */
TX_HIDDEN void tx__transpose_run(const tx__transpose_plan *pl, char *dst, const char *src);

#endif
