/* SPDX-License-Identifier: Apache-2.0 */
/* shapes.h -- what the view ops of other files (bitcast in cast.c) share with src/ops/shapes.c:
 * the prepared step of a view. */
#ifndef TX_OPS_SHAPES_H
#define TX_OPS_SHAPES_H

#include "core/internal.h"

/* The prepared step of a view op whose output of dtype `dtype` has `rank` dims `dims` and the
 * input's bytes: a run copies them (row-major, or into the caller's output strides), nothing when
 * a contiguous output is the input's memory.  Outside plan mode it does nothing: the call's view
 * copies nothing. */
TX_HIDDEN tx_status tx__view_step(const char *op, const tx_tensor *input, tx_dtype dtype,
                                  size_t rank, const int64_t *dims);

#endif
