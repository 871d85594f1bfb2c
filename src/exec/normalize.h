/* SPDX-License-Identifier: Apache-2.0 */
/* normalize.h -- the shape normalisers of the data-movement ops, in one place: each reduces a
 * validated request to its essentials (size-1 dims dropped, dims that stay adjacent on both
 * sides merged, a contiguous innermost run folded into a wider element), so the loops that run
 * it see as few and as long dims as possible.  Pure arithmetic: no validation, no allocation. */
#ifndef TX_EXEC_NORMALIZE_H
#define TX_EXEC_NORMALIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"

/* Row-major contiguous byte strides of dims for elements of `elem` bytes (a dim of 0 steps like a
 * dim of 1).  Exact for dims of a tensor that has elements; an empty shape's strides, never used,
 * saturate at INT64_MAX where they would pass int64. */
TX_HIDDEN void tx__contiguous_strides(size_t rank, const int64_t *dims, size_t elem,
                                      int64_t *strides);

/* A normalised N-d copy (at most TX_MAX_RANK dims after normalisation). */
typedef struct tx__copy_plan {
    size_t rank;
    int64_t dims[TX_MAX_RANK];
    int64_t dst_strides[TX_MAX_RANK]; /* bytes */
    int64_t src_strides[TX_MAX_RANK]; /* bytes; may be negative */
    size_t width;                     /* bytes moved per innermost element (>= element size) */
    int64_t count;                    /* total number of innermost elements */
    bool stream;                      /* large enough for streaming stores (core/tuning.h) */
} tx__copy_plan;

/* Builds the plan: element of `elem` bytes at dst + sum(i[d] * dst_strides[d]) receives the one at
 * src + sum(i[d] * src_strides[d]), for every index i < dims.  The caller's promise, on each side:
 * the sum over d of (dims[d] - 1) * |strides[d]| fits int64 (the memory exists), so every offset
 * the loops form does; dims[d] * strides[d] need not, and the planner checks it.  Dims of an
 * empty copy may multiply past int64 beside their 0: such a copy plans to nothing. */
TX_HIDDEN void tx__copy_plan_make(tx__copy_plan *p, size_t rank, const int64_t *dims,
                                  const int64_t *dst_strides, const int64_t *src_strides,
                                  size_t elem);

/* A transpose reduced to its essentials: `rank` input dims `dims` of `width`-byte elements and
 * the output order `perm`, with no size-1 dims, no two dims that stay adjacent, and the innermost
 * input dim folded into the width when it stays innermost. */
typedef struct tx__transpose_plan {
    size_t rank;
    int64_t dims[TX_MAX_RANK];
    size_t perm[TX_MAX_RANK];
    size_t width;
} tx__transpose_plan;

/* perm is a permutation of [0, rank) (checked by the op); dims are of a tensor with elements, so
 * merged dims are products of its dims, at most its element count. */
TX_HIDDEN void tx__transpose_plan_make(tx__transpose_plan *pl, size_t rank, const int64_t *dims,
                                       size_t elem, const size_t *perm);

/* A pad reduced to long rows: per kept dim, the input size and the padding before and after (in
 * units of that dim's element, which may be a merged block), the byte strides of input and
 * output, and the width of the innermost element. */
typedef struct tx__pad_shape {
    size_t rank;
    int64_t in[TX_MAX_RANK], before[TX_MAX_RANK], after[TX_MAX_RANK];
    int64_t in_stride[TX_MAX_RANK], out_stride[TX_MAX_RANK];
    size_t w;
} tx__pad_shape;

/* An unpadded dim joins the dim before it (always when `keep_rows` is false, as for a constant
 * fill, which does not care; with keep_rows only when that dim is unpadded too, as a mirror image
 * must keep rows whole), and with keep_rows the unpadded dims after the last padded one become
 * part of the element.  pads holds (before, after) per dim.  Called only when the output has
 * elements, so every product fits: the input's dims and the paddings are each at most the output
 * dim they make up. */
TX_HIDDEN void tx__pad_shape_make(tx__pad_shape *p, size_t rank, const int64_t *dims, size_t elem,
                                  const int64_t *pads, bool keep_rows);

#endif
