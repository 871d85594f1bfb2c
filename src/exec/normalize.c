/* SPDX-License-Identifier: Apache-2.0 */
/* normalize.c -- the shape normalisers (exec/normalize.h). */
#include "exec/normalize.h"

#include "core/tuning.h"

void tx__contiguous_strides(size_t rank, const int64_t *dims, size_t elem, int64_t *strides) {
    /* Each stride is at most the byte size of a tensor of these dims that has elements; only an
     * empty shape's can pass int64 (beside its 0), and those are never used: they saturate. */
    int64_t s = (int64_t)elem;
    for (size_t d = rank; d-- > 0;) {
        strides[d] = s;
        if (d > 0 && !tx__mul_i64(s, dims[d] ? dims[d] : 1, &s)) s = INT64_MAX;
    }
}

/* True when one step of stride `outer` equals n steps of stride `inner` (n * inner computed
 * exactly: a product past int64 equals no stride). */
static bool steps_equal(int64_t outer, int64_t n, int64_t inner) {
    int64_t v;
    return tx__mul_i64(n, inner, &v) && v == outer;
}

void tx__copy_plan_make(tx__copy_plan *p, size_t rank, const int64_t *dims,
                        const int64_t *dst_strides, const int64_t *src_strides, size_t elem) {
    size_t r = 0;
    p->count = 0;
    p->stream = false;
    p->rank = 0;
    p->width = 0;
    /* An empty copy plans nothing: its other dims could multiply past int64 beside the 0. */
    for (size_t d = 0; d < rank; d++)
        if (dims[d] == 0) return;
    for (size_t d = 0; d < rank; d++) {
        if (dims[d] == 1) continue;
        /* Merge into the previous dim when stepping the previous one equals stepping this one
         * dims[d] times, on both sides.  The strides are the caller's: every byte offset of the
         * copy fits int64, (dims[d] - 1) * stride does, but dims[d] * stride may not. */
        if (r > 0 && steps_equal(p->dst_strides[r - 1], dims[d], dst_strides[d]) &&
            steps_equal(p->src_strides[r - 1], dims[d], src_strides[d])) {
            p->dims[r - 1] *= dims[d]; /* <= the element count, which fits (the output exists) */
            p->dst_strides[r - 1] = dst_strides[d];
            p->src_strides[r - 1] = src_strides[d];
            continue;
        }
        p->dims[r] = dims[d];
        p->dst_strides[r] = dst_strides[d];
        p->src_strides[r] = src_strides[d];
        r++;
    }
    p->width = elem;
    /* Fold a contiguous innermost dim into the element width: one memcpy per row. */
    if (r > 0 && p->dst_strides[r - 1] == (int64_t)elem && p->src_strides[r - 1] == (int64_t)elem) {
        p->width = elem * (size_t)p->dims[r - 1];
        r--;
    }
    p->rank = r;
    /* The rows times the width: the output's element count times elem, which fits (it exists). */
    p->count = tx__dims_product(p->dims, 0, r);
    /* Streaming by the extent of the destination's rows written into, not by the bytes written:
     * a concat's input writes every other run of the output, and whether the whole output stays
     * in the cache is what counts.  dims[d] steps of |stride| as (dims[d] - 1) steps, which fit
     * int64 (offsets into the destination), plus one: below 2^64. */
    uint64_t span = (uint64_t)p->count * p->width;
    for (size_t d = 0; d < r; d++) {
        const int64_t s = p->dst_strides[d];
        const uint64_t step = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s,
                       rows = (uint64_t)(p->dims[d] - 1) * step + step;
        if (rows > span) span = rows;
    }
    const int64_t stream_min =
        p->width >= TX_STREAM_SEQ_MIN_RUN ? tx__stream_seq_min_bytes : tx__stream_min_bytes;
    p->stream = span >= (uint64_t)stream_min;
}

void tx__transpose_plan_make(tx__transpose_plan *pl, size_t rank, const int64_t *in_dims,
                             size_t elem, const size_t *perm) {
    size_t r = 0, map[TX_MAX_RANK], q[TX_MAX_RANK], inv[TX_MAX_RANK];
    int64_t dims[TX_MAX_RANK];
    /* Drop size-1 dims: they move nothing. */
    for (size_t d = 0; d < rank; d++) {
        map[d] = in_dims[d] == 1 ? SIZE_MAX : r;
        if (in_dims[d] != 1) dims[r++] = in_dims[d];
    }
    size_t k = 0;
    for (size_t i = 0; i < rank; i++)
        if (map[perm[i]] != SIZE_MAX) q[k++] = map[perm[i]];
    for (size_t j = 0; j < r; j++) inv[q[j]] = j;
    /* Merge input dim d into d-1 when it follows d-1 directly in the output too. */
    size_t group[TX_MAX_RANK], g = 0;
    for (size_t d = 0; d < r; d++) {
        if (d > 0 && inv[d] == inv[d - 1] + 1) {
            pl->dims[g - 1] *= dims[d];
        } else {
            pl->dims[g++] = dims[d];
        }
        group[d] = g - 1;
    }
    size_t n = 0;
    for (size_t j = 0; j < r; j++)
        if (j == 0 || group[q[j]] != group[q[j - 1]]) pl->perm[n++] = group[q[j]];
    pl->rank = g;
    pl->width = elem;
    /* An innermost dim that stays innermost is a contiguous run on both sides: a wider element. */
    if (g > 0 && pl->perm[g - 1] == g - 1) {
        pl->width *= (size_t)pl->dims[g - 1];
        pl->rank = g - 1;
    }
}

void tx__pad_shape_make(tx__pad_shape *p, size_t rank, const int64_t *dims, size_t elem,
                        const int64_t *pads, bool keep_rows) {
    size_t r = rank, last = 0;
    p->w = elem;
    for (size_t d = 0; d < r; d++)
        if (pads[2 * d] || pads[2 * d + 1]) last = d + 1;
    if (keep_rows) {
        for (size_t d = last; d < r; d++) p->w *= (size_t)dims[d];
        r = last;
    }
    size_t k = 0;
    for (size_t d = 0; d < r; d++) {
        int64_t n = dims[d], b = pads[2 * d], a = pads[2 * d + 1];
        bool prev_unpadded = k > 0 && p->before[k - 1] == 0 && p->after[k - 1] == 0;
        if (k > 0 && b == 0 && a == 0 && (!keep_rows || prev_unpadded)) {
            p->in[k - 1] *= n;
            p->before[k - 1] *= n;
            p->after[k - 1] *= n;
            continue;
        }
        p->in[k] = n, p->before[k] = b, p->after[k] = a;
        k++;
    }
    p->rank = k;
    int64_t is = (int64_t)p->w, os = (int64_t)p->w;
    for (size_t d = k; d-- > 0;) {
        p->in_stride[d] = is;
        p->out_stride[d] = os;
        is *= p->in[d];
        os *= p->before[d] + p->in[d] + p->after[d];
    }
}
