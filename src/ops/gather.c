/* SPDX-License-Identifier: Apache-2.0 */
/* gather.c -- TF's tf.gather (GatherV2, with axis and batch_dims) and tf.gather_nd, plus the
 * helpers the gather family shares (src/ops/gather.h).  Both ops validate every index before
 * any data moves and then run a width-keyed copy loop from kernels/scalar/gather.c: a gather with
 * a large inner slice is one memcpy per index.  The _ex forms take an out-of-range policy (error,
 * zero, clamp, wrap); the kernel picks one loop per policy, so TF's default path tests no policy.
 * The other ops of the family live in partition.c (dynamic_partition, dynamic_stitch,
 * boolean_mask), unique.c (unique_with_counts) and encode.c (one_hot, sequence_mask). */
#include "ops/gather.h"

#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "kernels/scalar/convert.h"
#include "exec/pool.h"

#include <inttypes.h>
#include <stdio.h>

/* ---- shared helpers ------------------------------------------------------------------------- */

const char *tx__position(char *buf, size_t cap, size_t rank, const int64_t *dims, int64_t flat) {
    buf[0] = '\0';
    if (rank == 0 || cap < 8) return buf;
    int64_t idx[TX_MAX_RANK];
    for (size_t d = rank; d-- > 0;) {
        int64_t n = dims[d] > 0 ? dims[d] : 1;
        idx[d] = flat % n;
        flat /= n;
    }
    size_t pos = 0;
    buf[pos++] = '[';
    for (size_t d = 0; d < rank; d++) {
        char item[32];
        int w = snprintf(item, sizeof item, d ? ",%" PRId64 : "%" PRId64, idx[d]);
        if (pos + (size_t)w + 5 >= cap) {
            memcpy(buf + pos, "...", 3);
            pos += 3;
            break;
        }
        memcpy(buf + pos, item, (size_t)w);
        pos += (size_t)w;
    }
    buf[pos++] = ']';
    buf[pos] = '\0';
    return buf;
}

bool tx__one_value(tx_dtype dtype, void *one) {
    const tx__dtype_info *info = tx__dtype(dtype);
    if (info == NULL || info->kind == TX_KIND_STRING) return false;
    memset(one, 0, 16);
    if (info->kind == TX_KIND_FLOAT || info->kind == TX_KIND_COMPLEX) {
        double v = 1.0; /* 1 in the dtype's encoding, by its cast rule (exact in every float type) */
        tx__cast_kernel(TX_FLOAT64, dtype)(one, &v, 1);
        return true;
    }
    /* bool and every integer or quantized type: the integer 1 in host byte order. */
    uint64_t v = 1;
    if (info->size == 1) *(uint8_t *)one = 1;
    else if (info->size == 2) { uint16_t x = 1; memcpy(one, &x, 2); }
    else if (info->size == 4) { uint32_t x = 1; memcpy(one, &x, 4); }
    else memcpy(one, &v, 8);
    return true;
}

tx_status tx__check_oob(const char *op, tx_oob_policy oob) {
    TX_REQUIRE((unsigned)oob <= (unsigned)TX_OOB_WRAP, TX_INVALID_ARGUMENT,
               "%s: oob policy %d is not one of error (0), zero (1), clamp (2), wrap (3)", op,
               (int)oob);
    return TX_OK;
}

const char *tx__oob_name(tx_oob_policy oob) {
    switch (oob) {
    case TX_OOB_ZERO: return "zero";
    case TX_OOB_CLAMP: return "clamp";
    case TX_OOB_WRAP: return "wrap";
    default: return "error";
    }
}

/* GatherV2 and GatherNd take Tindices in {int16, int32, int64} (array_ops.cc), and both have CPU
 * kernels for all three (gather_op.cc, gather_nd_op.cc).  Another dtype is not in the op
 * definition's list: unimplemented, tensorx's category for a dtype an op does not take. */
static tx_status check_index_dtype(const char *op, const char *what, const tx_tensor *t) {
    TX_REQUIRE(t->dtype == TX_INT16 || t->dtype == TX_INT32 || t->dtype == TX_INT64,
               TX_UNIMPLEMENTED, "%s: %s must be int16, int32 or int64, got %s", op, what,
               tx_dtype_name(t->dtype));
    return TX_OK;
}

/* Position of the first of the numel indices at data (int16/int32/int64: width 2, 4 or 8)
 * outside [0, limit), or -1.  The unsigned compare catches negatives too. */
#define FIRST_OUT_OF_RANGE(IT)                                                                   \
    do {                                                                                         \
        const IT *v = (const IT *)data;                                                          \
        for (int64_t i = 0; i < numel; i++)                                                      \
            if ((uint64_t)(int64_t)v[i] >= lim) return i;                                        \
    } while (0)

static int64_t first_out_of_range(const char *data, size_t width, int64_t numel, int64_t limit) {
    const uint64_t lim = (uint64_t)limit;
    switch (width) {
    case 2: FIRST_OUT_OF_RANGE(int16_t); break;
    case 4: FIRST_OUT_OF_RANGE(int32_t); break;
    default: FIRST_OUT_OF_RANGE(int64_t); break;
    }
    return -1;
}

/* ---- gather ---------------------------------------------------------------------------------- */

tx_status tx_gather(const tx_tensor *params, const tx_tensor *indices, int64_t axis,
                    int64_t batch_dims, tx_tensor **out) {
    return tx_gather_oob(params, indices, axis, batch_dims, TX_OOB_ERROR, out);
}

/* ---- splitting the copy loops over the pool ---------------------------------------------- *
 * Each output slice depends on its own index only, so any split gives the same bytes.  gather
 * splits its output's (batch, outer) rows, or the index positions when there is one row;
 * gather_nd its index vectors.  Grains are about TX_GRAIN_BYTES of output. */
typedef struct gather_split {
    tx__gather_fn fn;
    char *out;
    const char *params, *indices;
    size_t iw, slice;
    int64_t nouter, n, dim;
    tx_oob_policy oob;
} gather_split;

static void gather_rows_piece(void *ctx, int64_t u, int64_t end) {
    const gather_split *g = ctx;
    while (u < end) { /* one call per batch: indices differ between batches */
        int64_t b = u / g->nouter, o = u % g->nouter;
        int64_t rows = end - u < g->nouter - o ? end - u : g->nouter - o;
        g->fn(g->out + (size_t)u * (size_t)g->n * g->slice,
              g->params + (size_t)(b * g->nouter + o) * (size_t)g->dim * g->slice,
              g->indices + (size_t)(b * g->n) * g->iw, g->iw, 1, rows, g->n, g->dim, g->slice,
              g->oob);
        u += rows;
    }
}

static void gather_indices_piece(void *ctx, int64_t i, int64_t end) {
    const gather_split *g = ctx;
    g->fn(g->out + (size_t)i * g->slice, g->params, g->indices + (size_t)i * g->iw, g->iw, 1, 1,
          end - i, g->dim, g->slice, g->oob);
}

static int64_t grain_of(size_t unit_bytes) {
    int64_t g = TX_GRAIN_BYTES / (int64_t)(unit_bytes ? unit_bytes : 1);
    return g > 0 ? g : 1;
}

typedef struct gather_nd_split {
    tx__gather_nd_fn fn;
    char *out;
    const char *params, *indices;
    size_t iw, k, slice;
    const int64_t *dims, *strides;
    tx_oob_policy oob;
} gather_nd_split;

static void gather_nd_piece(void *ctx, int64_t i, int64_t end) {
    const gather_nd_split *g = ctx;
    g->fn(g->out + (size_t)i * g->slice, g->params, g->indices + (size_t)i * g->k * g->iw, g->iw,
          end - i, g->k, g->dims, g->strides, g->slice, g->oob);
}

/* The run half of gather: the plan of its loops, and what an index error names. */
typedef struct gather_plan {
    tx__gather_fn fn;
    tx_oob_policy oob;
    int64_t dim, nouter, n, rows; /* rows 0: an empty output */
    size_t iw, slice, out_bytes;
    tx_dtype index_dtype;
    int64_t index_count;
    size_t index_rank;
    int64_t index_dims[TX_MAX_RANK]; /* last: index_rank entries set, the rest never cleared */
} gather_plan;

/* TX_OOB_ERROR: every index in [0, dim), or TF's message for the first that is not. */
static tx_status check_gather_indices(const gather_plan *p, const char *indices) {
    int64_t bad = first_out_of_range(indices, p->iw, p->index_count, p->dim);
    if (bad < 0) return TX_OK;
    char pos[TX_POS_STR_CAP];
    return tx__fail(TX_INVALID_ARGUMENT, "gather: indices%s = %" PRId64 " is not in [0, %" PRId64 ")",
                    tx__position(pos, sizeof pos, p->index_rank, p->index_dims, bad),
                    tx__int_at(indices, p->index_dtype, bad), p->dim);
}

static tx_status gather_run(const void *plan, const tx__run_io *io) {
    const gather_plan *p = plan;
    if (p->rows == 0) return TX_OK;
    if (p->oob == TX_OOB_ERROR) TX_TRY(check_gather_indices(p, io->in[1]));
    if (p->dim == 0) { /* oob=zero: every index is out of range */
        memset(io->out[0], 0, p->out_bytes);
        return TX_OK;
    }
    gather_split g = {p->fn, io->out[0], io->in[0], io->in[1], p->iw, p->slice, p->nouter, p->n,
                      p->dim, p->oob};
    if (p->rows == 1) tx__parallel_for(p->n, grain_of(p->slice), gather_indices_piece, &g);
    else tx__parallel_for(p->rows, grain_of((size_t)p->n * p->slice), gather_rows_piece, &g);
    return TX_OK;
}

tx_status tx_gather_oob(const tx_tensor *params, const tx_tensor *indices, int64_t axis,
                        int64_t batch_dims, tx_oob_policy oob, tx_tensor **out) {
    static const char *op = "gather";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(tx__check_oob(op, oob));
    TX_REQUIRE_TENSOR(op, params, "params");
    TX_REQUIRE_TENSOR(op, indices, "indices");
    TX_TRY(check_index_dtype(op, "indices", indices));
    const int64_t prank = (int64_t)params->rank, irank = (int64_t)indices->rank;
    /* TF: params must have rank >= axis + 1 (axis >= 0) or >= -axis (axis < 0). */
    if (axis < -prank || axis >= prank) {
        uint64_t need = axis < 0 ? (uint64_t)0 - (uint64_t)axis : (uint64_t)axis + 1;
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: axis %" PRId64 " needs params of rank at least %" PRIu64
                        ", got rank %" PRId64, op, axis, need, prank);
    }
    if (axis < 0) axis += prank;
    if (batch_dims != 0) {
        TX_REQUIRE(batch_dims >= -irank && batch_dims <= irank, TX_INVALID_ARGUMENT,
                   "%s: batch_dims %" PRId64 " is out of range [%" PRId64 ", %" PRId64 "]", op,
                   batch_dims, -irank, irank);
        if (batch_dims < 0) batch_dims += irank;
        TX_REQUIRE(batch_dims < prank, TX_INVALID_ARGUMENT,
                   "%s: batch_dims (%" PRId64 ") must be less than rank(params) (%" PRId64 ")", op,
                   batch_dims, prank);
        TX_REQUIRE(axis >= batch_dims, TX_INVALID_ARGUMENT,
                   "%s: batch_dims (%" PRId64 ") must be less than or equal to axis (%" PRId64 ")",
                   op, batch_dims, axis);
        for (int64_t i = 0; i < batch_dims; i++)
            TX_REQUIRE(params->dims[i] == indices->dims[i], TX_INVALID_ARGUMENT,
                       "%s: params.shape[%" PRId64 "] = %" PRId64
                       " should be equal to indices.shape[%" PRId64 "] = %" PRId64, op, i,
                       params->dims[i], i, indices->dims[i]);
    }
    const int64_t dim = params->dims[axis];
    const size_t iw = tx_dtype_size(indices->dtype);
    TX_REQUIRE(dim <= tx__index_max(iw), TX_INVALID_ARGUMENT,
               "%s: params.shape[%" PRId64 "] = %" PRId64 " is too large for %s indexing (above %"
               PRId64 ")", op, axis, dim, tx_dtype_name(indices->dtype), tx__index_max(iw));

    /* Output shape params[:axis] + indices[batch_dims:] + params[axis+1:]. */
    int64_t dims[2 * TX_MAX_RANK];
    size_t r = 0;
    for (int64_t i = 0; i < axis; i++) dims[r++] = params->dims[i];
    for (int64_t i = batch_dims; i < irank; i++) dims[r++] = indices->dims[i];
    for (int64_t i = axis + 1; i < prank; i++) dims[r++] = params->dims[i];
    /* TF checks indices only while it copies, so an empty result checks none.  The run checks
     * them (they change from run to run); a plan checks them before the output exists, so that
     * it finds the same error. */
    int64_t onumel;
    TX_TRY(tx__check_output(op, params->dtype, r, dims, &onumel));
    if (onumel > 0 && dim == 0 && oob != TX_OOB_ERROR && oob != TX_OOB_ZERO) {
        /* A non-empty output here means at least one index, and no row exists to map it to. */
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: oob=%s needs params.shape[%" PRId64 "] > 0, got 0 (no valid index)",
                        op, tx__oob_name(oob), axis);
    }
    /* Member by member: clearing the 2 KB of index_dims would cost a small gather's time. */
    gather_plan p;
    memset(&p, 0, offsetof(gather_plan, index_dims));
    p.oob = oob;
    p.dim = dim;
    p.iw = iw;
    p.index_dtype = indices->dtype;
    p.index_count = indices->numel;
    p.index_rank = indices->rank;
    if (indices->rank) memcpy(p.index_dims, indices->dims, indices->rank * sizeof *p.index_dims);
    if (onumel > 0) {
        /* params as [batch, outer, dim, inner]: products of output dims, so at most its element
         * count now that that is not 0 (with an empty output, dims beside a 0 could pass int64). */
        const int64_t nbatch = tx__dims_product(params->dims, 0, (size_t)batch_dims),
                      inner = tx__dims_product(params->dims, (size_t)axis + 1, (size_t)prank);
        p.nouter = tx__dims_product(params->dims, (size_t)batch_dims, (size_t)axis);
        p.slice = (size_t)inner * tx_dtype_size(params->dtype); /* <= the output's bytes */
        p.n = indices->numel / nbatch;
        p.rows = nbatch * p.nouter; /* <= output counts */
        p.out_bytes = (size_t)onumel * tx_dtype_size(params->dtype);
        p.fn = tx__kernels_get()->gather;
    }
    TX_TRY(tx__prepared_step(op, gather_run, &p, sizeof p, 2,
                             (const tx_tensor *const[]){params, indices}, -1));
    if (tx__planning() && !tx__preparing() && p.rows > 0 && oob == TX_OOB_ERROR)
        TX_TRY(check_gather_indices(&p, indices->data));
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, params->dtype, r, dims, &o));
    tx_status st = gather_run(&p, &(tx__run_io){(const char *[]){params->data, indices->data},
                                                &o->data});
    if (st == TX_OK && o->numel > 0) st = tx__share_strings(o, params);
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}

/* ---- gather_nd ------------------------------------------------------------------------------- */

/* "a, b, c" of an index vector, shortened with "..." when long. */
static const char *format_vector(char *buf, size_t cap, const char *data, tx_dtype dtype,
                                 int64_t first, size_t k) {
    size_t pos = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < k; j++) {
        char item[32];
        int w = snprintf(item, sizeof item, j ? ", %" PRId64 : "%" PRId64,
                         tx__int_at(data, dtype, first + (int64_t)j));
        if (pos + (size_t)w + 4 >= cap) {
            memcpy(buf + pos, "...", 4);
            return buf;
        }
        memcpy(buf + pos, item, (size_t)w + 1);
        pos += (size_t)w;
    }
    return buf;
}

/* The first of n index vectors of length k (int16/int32/int64) with a component j outside
 * [0, dims[j]), or -1; one loop per index type. */
#define FIRST_BAD_VECTOR(IT)                                                                     \
    do {                                                                                         \
        const IT *v = (const IT *)indices;                                                       \
        for (int64_t i = 0; i < n; i++, v += k)                                                  \
            for (int64_t j = 0; j < k; j++)                                                      \
                if ((uint64_t)(int64_t)v[j] >= (uint64_t)dims[j]) return i;                      \
    } while (0)

static int64_t first_bad_vector(const char *indices, size_t width, const int64_t *dims, int64_t n,
                                int64_t k) {
    switch (width) {
    case 2: FIRST_BAD_VECTOR(int16_t); break;
    case 4: FIRST_BAD_VECTOR(int32_t); break;
    default: FIRST_BAD_VECTOR(int64_t); break;
    }
    return -1;
}

/* The run half of gather_nd: the plan of its loop, and what an index error names. */
typedef struct gather_nd_plan {
    tx__gather_nd_fn fn;
    tx_oob_policy oob;
    int64_t n, k, out_numel, params_numel;
    size_t iw, slice, out_bytes;
    tx_dtype index_dtype;
    size_t index_rank, params_rank;
    /* last: the entries of the ranks (strides: k) set, the rest never cleared */
    int64_t index_dims[TX_MAX_RANK], params_dims[TX_MAX_RANK], strides[TX_MAX_RANK];
} gather_nd_plan;

/* TX_OOB_ERROR: every index vector in bounds (params is not empty here), or TF's message for the
 * first that is not. */
static tx_status check_nd_vectors(const gather_nd_plan *p, const char *indices) {
    int64_t i = p->k > 0 ? first_bad_vector(indices, p->iw, p->params_dims, p->n, p->k) : -1;
    if (i < 0) return TX_OK;
    char pos[TX_POS_STR_CAP], vals[TX_POS_STR_CAP], sbuf[TX_DIMS_STR_CAP];
    return tx__fail(TX_INVALID_ARGUMENT,
                    "gather_nd: indices%s = [%s] does not index into param shape %s",
                    tx__position(pos, sizeof pos, p->index_rank - 1, p->index_dims, i),
                    format_vector(vals, sizeof vals, indices, p->index_dtype, i * p->k,
                                  (size_t)p->k),
                    tx__format_dims(sbuf, sizeof sbuf, p->params_rank, p->params_dims));
}

static tx_status gather_nd_run(const void *plan, const tx__run_io *io) {
    const gather_nd_plan *p = plan;
    if (p->n == 0) return TX_OK;
    if (p->oob == TX_OOB_ERROR) TX_TRY(check_nd_vectors(p, io->in[1]));
    if (p->out_numel > 0 && p->params_numel == 0) {
        /* Only oob=zero gets here (the other policies failed in the call): a dim of params
         * before k is 0, so every index vector is out of range and every slice is zero. */
        memset(io->out[0], 0, p->out_bytes);
    } else if (p->out_numel > 0) {
        gather_nd_split g = {p->fn, io->out[0], io->in[0], io->in[1], p->iw, (size_t)p->k,
                             p->slice, p->params_dims, p->strides, p->oob};
        tx__parallel_for(p->n, grain_of(g.slice), gather_nd_piece, &g);
    }
    return TX_OK;
}

tx_status tx_gather_nd(const tx_tensor *params, const tx_tensor *indices, tx_tensor **out) {
    return tx_gather_nd_oob(params, indices, TX_OOB_ERROR, out);
}

tx_status tx_gather_nd_oob(const tx_tensor *params, const tx_tensor *indices, tx_oob_policy oob,
                           tx_tensor **out) {
    static const char *op = "gather_nd";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(tx__check_oob(op, oob));
    TX_REQUIRE_TENSOR(op, params, "params");
    TX_REQUIRE_TENSOR(op, indices, "indices");
    TX_REQUIRE(params->rank >= 1, TX_INVALID_ARGUMENT, "%s: params must be at least a vector", op);
    TX_REQUIRE(indices->rank >= 1, TX_INVALID_ARGUMENT, "%s: indices must be at least a vector", op);
    TX_TRY(check_index_dtype(op, "indices", indices));
    const size_t ir = indices->rank - 1;
    const int64_t k = indices->dims[ir];
    TX_REQUIRE(k <= (int64_t)params->rank, TX_INVALID_ARGUMENT,
               "%s: index innermost dimension length must be <= params rank; saw: %" PRId64
               " vs. %zu", op, k, params->rank);
    /* The number of index vectors; with k = 0 it is not bounded by indices' element count. */
    int64_t n = 1;
    bool too_many = false;
    for (size_t i = 0; i < ir; i++)
        if (!tx__mul_i64(n, indices->dims[i], &n)) too_many = true;
    for (size_t i = 0; i < ir; i++)
        if (indices->dims[i] == 0) too_many = false, n = 0;
    TX_REQUIRE(!too_many && n <= INT32_MAX, TX_INVALID_ARGUMENT,
               "%s: indices has too many elements for int indexing: more than %d index vectors",
               op, INT32_MAX);
    const size_t iw = tx_dtype_size(indices->dtype);
    TX_REQUIRE(params->numel <= tx__index_max(iw), TX_INVALID_ARGUMENT,
               "%s: params has %" PRId64 " elements, too many for %s indexing (above %" PRId64 ")",
               op, params->numel, tx_dtype_name(indices->dtype), tx__index_max(iw));

    int64_t dims[2 * TX_MAX_RANK];
    size_t r = 0;
    for (size_t i = 0; i < ir; i++) dims[r++] = indices->dims[i];
    for (size_t i = (size_t)k; i < params->rank; i++) dims[r++] = params->dims[i];
    /* Indices are checked after the output's layout and before it exists (as in a plan). */
    int64_t onumel;
    TX_TRY(tx__check_output(op, params->dtype, r, dims, &onumel));
    /* GatherNd (gather_nd_op.h) also bounds the slice by the index dtype; it only binds when
     * params is empty (else params' own count bounds it), whose dims after k may even multiply
     * past int64 beside a 0 before k: checked products, and past int64 is too large too. */
    int64_t slice = 1;
    bool slice_past_int64 = false;
    for (size_t i = (size_t)k; i < params->rank; i++)
        if (!slice_past_int64 && !tx__mul_i64(slice, params->dims[i], &slice)) slice_past_int64 = true;
    for (size_t i = (size_t)k; i < params->rank; i++)
        if (params->dims[i] == 0) slice = 0, slice_past_int64 = false;
    TX_REQUIRE(!slice_past_int64, TX_INVALID_ARGUMENT,
               "%s: slice size passes int64, too large for %s indexing", op,
               tx_dtype_name(indices->dtype));
    TX_REQUIRE(slice <= tx__index_max(iw), TX_INVALID_ARGUMENT,
               "%s: slice size %" PRId64 " is too large for %s indexing (above %" PRId64 ")", op,
               slice, tx_dtype_name(indices->dtype), tx__index_max(iw));
    if (n > 0 && oob == TX_OOB_ERROR && params->numel == 0) {
        /* TF's checks of a non-empty request: params must not be empty; then (the run) every
         * vector in bounds. */
        char sbuf[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: requested %" PRId64 " entries, but params is empty (shape %s)", op, n,
                        tx__format_dims(sbuf, sizeof sbuf, params->rank, params->dims));
    } else if (n > 0 && onumel > 0 && oob != TX_OOB_ERROR && oob != TX_OOB_ZERO &&
               params->numel == 0) {
        /* No TF rule applies under the other policies: an empty params only fails when clamp or
         * wrap must map an index into a dim of size 0 for a non-empty output. */
        char sbuf[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: oob=%s needs the indexed dims of params to be non-empty, got shape %s "
                        "(no valid index)", op, tx__oob_name(oob),
                        tx__format_dims(sbuf, sizeof sbuf, params->rank, params->dims));
    }
    const size_t elem = tx_dtype_size(params->dtype);
    /* Member by member: clearing the 6 KB of arrays would cost a small gather_nd's time. */
    gather_nd_plan p;
    p.fn = tx__kernels_get()->gather_nd;
    p.oob = oob;
    p.n = n;
    p.k = k;
    p.out_numel = onumel;
    p.params_numel = params->numel;
    p.iw = iw;
    p.slice = (size_t)slice * elem;
    p.out_bytes = (size_t)onumel * elem;
    p.index_dtype = indices->dtype;
    p.index_rank = indices->rank;
    p.params_rank = params->rank;
    memcpy(p.index_dims, indices->dims, indices->rank * sizeof *p.index_dims);
    memcpy(p.params_dims, params->dims, params->rank * sizeof *p.params_dims);
    if (onumel > 0 && params->numel > 0) {
        /* params has elements, so the slice (checked above) and the byte strides are at most its
         * byte size (an empty params' dims could pass int64 beside their 0). */
        int64_t st = slice * (int64_t)elem;
        for (int64_t j = k; j-- > 0;) {
            p.strides[j] = st;
            if (j > 0) st *= params->dims[j];
        }
    }
    TX_TRY(tx__prepared_step(op, gather_nd_run, &p, sizeof p, 2,
                             (const tx_tensor *const[]){params, indices}, -1));
    if (tx__planning() && !tx__preparing() && n > 0 && oob == TX_OOB_ERROR)
        TX_TRY(check_nd_vectors(&p, indices->data));
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, params->dtype, r, dims, &o));
    tx_status st = gather_nd_run(&p, &(tx__run_io){(const char *[]){params->data, indices->data},
                                                   &o->data});
    if (st == TX_OK && n > 0) st = tx__share_strings(o, params);
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}
