/* SPDX-License-Identifier: Apache-2.0 */
/* partition.c -- TF's tf.dynamic_partition, tf.dynamic_stitch and tf.boolean_mask: ops that
 * split a tensor into slices and put them back by an index or a mask.  Each validates every
 * partition id, index and shape first, then moves whole slices with the width-keyed loops of
 * kernels/scalar/gather.c.  Shape rules and messages follow TF's dynamic_partition_op.cc,
 * dynamic_stitch_op.cc and the Python boolean_mask in array_ops.py.  tx_dynamic_stitch_oob adds an
 * out-of-range policy for negative indices (drop, row 0, or modulo the row count). */
#include "ops/gather.h"

#include "dispatch/dispatch.h"

#include <inttypes.h>
#include <stdio.h>

/* True when dims a (rank ra) start with dims b (rank rb): TensorShapeUtils::StartsWith. */
static bool starts_with(size_t ra, const int64_t *a, size_t rb, const int64_t *b) {
    if (rb > ra) return false;
    for (size_t i = 0; i < rb; i++)
        if (a[i] != b[i]) return false;
    return true;
}

/* ---- dynamic_partition ----------------------------------------------------------------------- */

/* Output p: [counts[p]] + data.shape[partitions.rank:]; without counts, the bound [n] + ... */
typedef struct {
    const tx_tensor *data;
    size_t prank;
    int64_t n;
    const int64_t *counts;
} partition_t;

static void partition_spec(void *ctx, size_t i, tx__out_spec *s) {
    const partition_t *c = (const partition_t *)ctx;
    size_t extra = c->data->rank - c->prank;
    s->dtype = c->data->dtype;
    s->rank = extra + 1;
    s->dims[0] = c->counts ? c->counts[i] : c->n;
    memcpy(s->dims + 1, c->data->dims + c->prank, extra * sizeof *s->dims);
    s->flags = TX_OUTPUT_DATA_DEPENDENT | (c->counts ? 0u : TX_OUTPUT_UPPER_BOUND);
}

tx_status tx_dynamic_partition(const tx_tensor *data, const tx_tensor *partitions,
                               int64_t num_partitions, tx_tensor **outs) {
    static const char *op = "dynamic_partition";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    TX_REQUIRE(num_partitions >= 1 && num_partitions <= INT32_MAX, TX_INVALID_ARGUMENT,
               "%s: num_partitions must be in [1, %d], got %" PRId64, op, INT32_MAX,
               num_partitions);
    for (int64_t p = 0; p < num_partitions; p++) outs[p] = NULL;
    TX_REQUIRE_TENSOR(op, data, "data");
    TX_REQUIRE_TENSOR(op, partitions, "partitions");
    TX_REQUIRE(partitions->dtype == TX_INT32, TX_INVALID_ARGUMENT,
               "%s: partitions must be int32, got %s", op, tx_dtype_name(partitions->dtype));
    if (!starts_with(data->rank, data->dims, partitions->rank, partitions->dims)) {
        char a[TX_DIMS_STR_CAP], b[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: data.shape must start with partitions.shape, got data.shape = %s, "
                        "partitions.shape = %s", op,
                        tx__format_dims(a, sizeof a, data->rank, data->dims),
                        tx__format_dims(b, sizeof b, partitions->rank, partitions->dims));
    }
    const int32_t *ids = (const int32_t *)partitions->data;
    const int64_t n = partitions->numel;
    for (int64_t i = 0; i < n; i++) {
        if (ids[i] >= 0 && ids[i] < num_partitions) continue;
        char pos[TX_POS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT, "%s: partitions%s = %" PRId32 " is not in [0, %" PRId64 ")",
                        op, tx__position(pos, sizeof pos, partitions->rank, partitions->dims, i),
                        ids[i], num_partitions);
    }
    /* Sizing needs the per-partition counts, i.e. scratch memory: a plan records the bound n
     * rows for every partition instead. */
    partition_t pc = {data, partitions->rank, n, NULL};
    TX_TRY(tx__plan_bounds(op, (size_t)num_partitions, partition_spec, &pc, outs));
    /* counts[p], the rows of output p, then pos[p], the rows the kernel wrote to it.  Every id
     * is read once and bounded where it is used: ids that another thread changes after the
     * check above give wrong rows, never a write outside counts or the outputs. */
    const size_t np = (size_t)num_partitions;
    int64_t *counts = tx__calloc_array(2 * np, sizeof *counts, op);
    if (counts == NULL) return TX_RESOURCE_EXHAUSTED;
    int64_t *pos = counts + np;
    char **dst = tx__calloc_array(np, sizeof *dst, op);
    tx_status st = dst ? TX_OK : TX_RESOURCE_EXHAUSTED;
    for (int64_t i = 0; st == TX_OK && i < n; i++) {
        const int32_t p = ids[i];
        if (p >= 0 && p < num_partitions) counts[p]++;
    }
    /* Elements per partition id: data's dims after the partitions' (only data with elements has
     * slices to move, and then their product divides its element count). */
    const int64_t slice =
        data->numel > 0 ? tx__dims_product(data->dims, partitions->rank, data->rank) : 0;
    pc.counts = counts;
    if (st == TX_OK) st = tx__tensor_alloc_n(op, (size_t)num_partitions, partition_spec, &pc, outs);
    for (int64_t p = 0; st == TX_OK && p < num_partitions; p++) {
        st = tx__share_strings(outs[p], data);
        dst[p] = outs[p]->data;
    }
    if (st == TX_OK && slice > 0) {
        const size_t slice_bytes = (size_t)slice * tx_dtype_size(data->dtype);
        tx__kernels_get()->partition(dst, pos, counts, num_partitions, ids, n, data->data,
                                     slice_bytes);
        /* Rows left unwritten (ids changed between the passes): zeros, not stale memory. */
        for (size_t p = 0; p < np; p++)
            if (pos[p] < counts[p])
                memset(dst[p] + (size_t)pos[p] * slice_bytes, 0,
                       (size_t)(counts[p] - pos[p]) * slice_bytes);
    }
    tx__free(dst, np * sizeof *dst);
    tx__free(counts, 2 * np * sizeof *counts);
    if (st != TX_OK) tx__free_all(outs, (size_t)num_partitions);
    return st;
}

/* ---- dynamic_stitch -------------------------------------------------------------------------- */

tx_status tx_dynamic_stitch(const tx_tensor *const *indices, size_t n_indices,
                            const tx_tensor *const *data, size_t n_data, tx_tensor **out) {
    return tx_dynamic_stitch_oob(indices, n_indices, data, n_data, TX_OOB_ERROR, out);
}

tx_status tx_dynamic_stitch_oob(const tx_tensor *const *indices, size_t n_indices,
                                const tx_tensor *const *data, size_t n_data, tx_oob_policy oob,
                                tx_tensor **out) {
    static const char *op = "dynamic_stitch";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(tx__check_oob(op, oob));
    TX_REQUIRE(n_indices >= 1 && indices != NULL, TX_INVALID_ARGUMENT,
               "%s: indices must hold at least 1 tensor", op);
    TX_REQUIRE(data != NULL && n_data == n_indices, TX_INVALID_ARGUMENT,
               "%s: indices has %zu tensors but data has %zu", op, n_indices,
               data != NULL ? n_data : 0);
    for (size_t m = 0; m < n_indices; m++) {
        TX_REQUIRE(indices[m] != NULL, TX_INVALID_ARGUMENT, "%s: indices[%zu] is NULL", op, m);
        TX_REQUIRE(data[m] != NULL, TX_INVALID_ARGUMENT, "%s: data[%zu] is NULL", op, m);
        TX_REQUIRE(indices[m]->dtype == TX_INT32, TX_INVALID_ARGUMENT,
                   "%s: indices[%zu] must be int32, got %s", op, m,
                   tx_dtype_name(indices[m]->dtype));
        TX_REQUIRE(data[m]->dtype == data[0]->dtype, TX_INVALID_ARGUMENT,
                   "%s: data[%zu] is %s but data[0] is %s", op, m, tx_dtype_name(data[m]->dtype),
                   tx_dtype_name(data[0]->dtype));
    }
    int64_t max_index = -1;
    for (size_t m = 0; m < n_indices; m++) {
        const int32_t *v = (const int32_t *)indices[m]->data;
        for (int64_t i = 0; i < indices[m]->numel; i++)
            if (v[i] > max_index) max_index = v[i];
    }
    const tx_tensor *d0 = data[0], *i0 = indices[0];
    char a[TX_DIMS_STR_CAP], b[TX_DIMS_STR_CAP], c[TX_DIMS_STR_CAP], e[TX_DIMS_STR_CAP];
    for (size_t m = 0; m < n_indices; m++) {
        const tx_tensor *dm = data[m], *im = indices[m];
        if (!starts_with(dm->rank, dm->dims, im->rank, im->dims))
            return tx__fail(TX_INVALID_ARGUMENT,
                            "%s: data[%zu].shape = %s does not start with indices[%zu].shape = %s",
                            op, m, tx__format_dims(a, sizeof a, dm->rank, dm->dims), m,
                            tx__format_dims(b, sizeof b, im->rank, im->dims));
        bool same = dm->rank - im->rank == d0->rank - i0->rank;
        for (size_t k = 0; same && k < d0->rank - i0->rank; k++)
            same = dm->dims[im->rank + k] == d0->dims[i0->rank + k];
        if (!same)
            return tx__fail(TX_INVALID_ARGUMENT,
                            "%s: need data[0].shape[%zu:] = data[%zu].shape[%zu:], got data[0].shape "
                            "= %s, data[%zu].shape = %s, indices[0].shape = %s, indices[%zu].shape "
                            "= %s", op, i0->rank, m, im->rank,
                            tx__format_dims(a, sizeof a, d0->rank, d0->dims), m,
                            tx__format_dims(b, sizeof b, dm->rank, dm->dims),
                            tx__format_dims(c, sizeof c, i0->rank, i0->dims), m,
                            tx__format_dims(e, sizeof e, im->rank, im->dims));
    }
    /* TF counts rows in an int: max + 1 must fit, or TF's own arithmetic overflows. */
    TX_REQUIRE(max_index < INT32_MAX, TX_INVALID_ARGUMENT,
               "%s: index %" PRId64 " makes %" PRId64 " rows, more than int32 counts", op,
               max_index, max_index + 1);
    const int64_t rows = max_index + 1;
    /* The max makes every index < rows, so only negative ones can fail; TF 2.21 decides: every
     * negative index fails, even when the merge is empty (all indices negative, or 0-size data
     * slices).  The other policies map or drop them in the kernel. */
    for (size_t m = 0; oob == TX_OOB_ERROR && m < n_indices; m++) {
        const int32_t *v = (const int32_t *)indices[m]->data;
        for (int64_t i = 0; i < indices[m]->numel; i++) {
            if (v[i] >= 0) continue;
            char pos[TX_POS_STR_CAP];
            return tx__fail(TX_INVALID_ARGUMENT, "%s: indices[%zu]%s = %" PRId32 " is not in [0, %" PRId64 ")",
                            op, m, tx__position(pos, sizeof pos, indices[m]->rank, indices[m]->dims, i),
                            v[i], rows);
        }
    }
    int64_t dims[TX_MAX_RANK + 1];
    const size_t extra = d0->rank - i0->rank;
    dims[0] = rows;
    memcpy(dims + 1, d0->dims + i0->rank, extra * sizeof *dims);
    /* Rows no index names stay zero (empty strings), as TF 2.21's CPU kernel gives them. */
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc_flags(op, d0->dtype, extra + 1, dims, TX_OUTPUT_DATA_DEPENDENT, &o));
    memset(o->data, 0, o->nbytes);
    /* A row's elements: a product of output dims, so only formed for an output with elements
     * (with 0 rows, the other dims could pass int64). */
    const int64_t slice = o->numel > 0 ? tx__dims_product(dims, 1, extra + 1) : 0;
    const size_t slice_bytes = (size_t)slice * tx_dtype_size(d0->dtype); /* <= o->nbytes */
    for (size_t m = 0; m < n_indices; m++) {
        if (rows > 0 && slice_bytes > 0)
            tx__kernels_get()->stitch(o->data, (const int32_t *)indices[m]->data,
                                      indices[m]->numel, data[m]->data, slice_bytes, rows, oob);
        tx_status st = tx__share_strings(o, data[m]);
        if (st != TX_OK) {
            tx_tensor_free(o);
            return st;
        }
    }
    *out = o;
    return TX_OK;
}

/* ---- boolean_mask ---------------------------------------------------------------------------- */

/* TF 2.21 decides the mask dtypes: tf.boolean_mask keeps the entries where(mask) finds, and Where
 * takes bool and number types on the CPU, except float16 (no CPU kernel) and the quantized types
 * (none registered); float8, int4, uint4 and string are not in its list.  Each refusal is
 * unimplemented, tensorx's category for a dtype an op does not take. */
static tx_status check_mask_dtype(const char *op, tx_dtype t) {
    switch (t) {
    case TX_BOOL: case TX_INT8: case TX_UINT8: case TX_INT16: case TX_UINT16: case TX_INT32:
    case TX_UINT32: case TX_INT64: case TX_UINT64: case TX_BFLOAT16: case TX_FLOAT32:
    case TX_FLOAT64: case TX_COMPLEX64: case TX_COMPLEX128:
        return TX_OK;
    case TX_FLOAT16: case TX_QINT8: case TX_QUINT8: case TX_QINT16: case TX_QUINT16: case TX_QINT32:
        return tx__fail(TX_UNIMPLEMENTED, "%s: mask dtype %s is not supported (TF's CPU Where has "
                        "no kernel for it)", op, tx_dtype_name(t));
    default:
        return tx__fail(TX_UNIMPLEMENTED, "%s: mask must be bool or a number type TF's Where "
                        "takes, got %s", op, tx_dtype_name(t));
    }
}

/* Whether mask entry i is true: nonzero, as Where counts it (a float -0.0 is zero, a NaN is not; a
 * complex number is nonzero when either part is; a bool byte other than 0 is true).  TF 2.21
 * decides the subnormals: its CPU threads flush them, so a float32/float64 (or complex part)
 * subnormal is zero, while a bfloat16 one is not (compared through its bits). */
static bool mask_true(const tx_tensor *m, int64_t i) {
    const size_t w = tx_dtype_size(m->dtype);
    const unsigned char *p = (const unsigned char *)m->data + (size_t)i * w;
    uint16_t h;
    uint32_t f[2];
    uint64_t d[2];
    switch (m->dtype) {
    case TX_BFLOAT16: memcpy(&h, p, 2); return (h & 0x7fffu) != 0;
    case TX_FLOAT32: memcpy(f, p, 4); return (f[0] & 0x7f800000u) != 0;
    case TX_COMPLEX64: memcpy(f, p, 8); return ((f[0] | f[1]) & 0x7f800000u) != 0;
    case TX_FLOAT64: memcpy(d, p, 8); return (d[0] & 0x7ff0000000000000u) != 0;
    case TX_COMPLEX128: memcpy(d, p, 16); return ((d[0] | d[1]) & 0x7ff0000000000000u) != 0;
    default:
        for (size_t b = 0; b < w; b++)
            if (p[b]) return true;
        return false;
    }
}

/* The mask's true entries: a one-byte dtype (bool above all) by its bytes, in a loop the compiler
 * vectorizes (mask_true's rule for them: any non-zero byte; entry by entry it took most of a
 * 4096x4096 boolean_mask's time), any other entry by entry. */
static int64_t mask_count(const tx_tensor *m) {
    int64_t count = 0;
    if (tx_dtype_size(m->dtype) == 1) {
        const uint8_t *p = (const uint8_t *)m->data;
        for (int64_t i = 0; i < m->numel; i++) count += p[i] != 0;
        return count;
    }
    for (int64_t i = 0; i < m->numel; i++) count += mask_true(m, i);
    return count;
}

/* The copy of the kept slices: `nouter` blocks of `len` slices of slice_bytes, the kept ones where
 * entry j < m of the mask is true (entries from m to len are false).  A bool mask as long as a
 * block is used as it is; any other goes through a 0/1 copy. */
static tx_status mask_copy(tx_tensor *o, const tx_tensor *tensor, const tx_tensor *mask,
                           int64_t nouter, int64_t len, size_t slice_bytes) {
    const uint8_t *mv = (const uint8_t *)mask->data;
    uint8_t *scratch = NULL;
    if (mask->dtype != TX_BOOL || mask->numel != len) {
        scratch = tx__alloc((size_t)len, "boolean_mask: mask");
        if (scratch == NULL) return TX_RESOURCE_EXHAUSTED;
        for (int64_t j = 0; j < len; j++) scratch[j] = j < mask->numel && mask_true(mask, j);
        mv = scratch;
    }
    /* The kernel stops at the output's end, and zeros fill what it did not reach: a mask that
     * another thread changes after the count gives wrong rows, never a write past o. */
    char *o_end = o->data + o->nbytes;
    char *at = tx__kernels_get()->mask(o->data, o_end, tensor->data, mv, nouter, len, slice_bytes);
    memset(at, 0, (size_t)(o_end - at));
    if (scratch) tx__free(scratch, (size_t)len);
    return TX_OK;
}

/* TF 2.21 decides a negative axis with a mask of rank K > 1: tf.boolean_mask reshapes tensor to
 * rank R = rank - K + 1 (the masked dims a..a+K-1 merged, a = rank + axis) and then gathers with
 * the same negative axis on that reshaped tensor, i.e. along its dim q = R + axis = a - (K - 1),
 * an original dim before the masked ones.  The flat positions of the true entries are the
 * indices: each must be below tensor.shape[q] (checked when the result is non-empty, as GatherV2
 * does), and q < 0 fails as GatherV2's axis check. */
static tx_status mask_negative_axis(const char *op, const tx_tensor *tensor, const tx_tensor *mask,
                                    int64_t a, int64_t count, tx_tensor **out) {
    const int64_t rank = (int64_t)tensor->rank, k = (int64_t)mask->rank, q = a - (k - 1);
    TX_REQUIRE(q >= 0, TX_INVALID_ARGUMENT,
               "%s: axis %" PRId64 " of the reshaped tensor of rank %" PRId64 " (TF's gather after "
               "its reshape): Shape must be at least rank %" PRId64 " but is rank %" PRId64, op,
               a - rank, rank - k + 1, rank - a, rank - k + 1);
    int64_t dims[TX_MAX_RANK], numel = 0;
    size_t r = 0;
    for (int64_t i = 0; i < q; i++) dims[r++] = tensor->dims[i];
    dims[r++] = count;
    for (int64_t i = q + 1; i < a; i++) dims[r++] = tensor->dims[i];
    dims[r++] = mask->numel;
    for (int64_t i = a + k; i < rank; i++) dims[r++] = tensor->dims[i];
    TX_TRY(tx__check_output(op, tensor->dtype, r, dims, &numel));
    for (int64_t j = 0, n = 0; numel > 0 && j < mask->numel; j++) {
        if (!mask_true(mask, j)) continue;
        TX_REQUIRE(j < tensor->dims[q], TX_INVALID_ARGUMENT,
                   "%s: indices[%" PRId64 "] = %" PRId64 " is not in [0, %" PRId64 ") (TF gathers "
                   "the mask's true positions along dim %" PRId64 " for axis %" PRId64 ")", op, n, j,
                   tensor->dims[q], q, a - rank);
        n++;
    }
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc_flags(op, tensor->dtype, r, dims, TX_OUTPUT_DATA_DEPENDENT, &o));
    tx_status st = TX_OK;
    if (o->numel > 0)
        st = mask_copy(o, tensor, mask, tx__dims_product(tensor->dims, 0, (size_t)q), tensor->dims[q],
                       (size_t)tx__dims_product(tensor->dims, (size_t)q + 1, (size_t)rank) *
                           tx_dtype_size(tensor->dtype));
    if (st == TX_OK) st = tx__share_strings(o, tensor);
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}

tx_status tx_boolean_mask(const tx_tensor *tensor, const tx_tensor *mask, int64_t axis,
                          tx_tensor **out) {
    static const char *op = "boolean_mask";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, tensor, "tensor");
    TX_REQUIRE_TENSOR(op, mask, "mask");
    TX_REQUIRE(mask->rank >= 1, TX_INVALID_ARGUMENT, "%s: mask cannot be a scalar", op);
    const int64_t rank = (int64_t)tensor->rank, k = (int64_t)mask->rank;
    /* TF's Python checks tensor.shape[axis:axis+K] against mask.shape with Python slicing, so a
     * negative axis only works while axis + K stays negative (the slice is empty otherwise). */
    int64_t a = axis < 0 ? axis + rank : axis;
    bool fits = axis < 0 ? (axis >= -rank && axis + k < 0) : (axis <= rank - k);
    char sbuf[TX_DIMS_STR_CAP], mbuf[TX_DIMS_STR_CAP], end[24];
    /* axis + K for the message: past INT64_MAX for a huge axis, so formed unsigned there. */
    if (axis >= 0) snprintf(end, sizeof end, "%" PRIu64, (uint64_t)axis + (uint64_t)k);
    else snprintf(end, sizeof end, "%" PRId64, axis + k);
    if (!fits || !starts_with(tensor->rank - (size_t)a, tensor->dims + a, mask->rank, mask->dims))
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: mask shape %s does not match tensor.shape[%" PRId64 ":%s] of "
                        "tensor shape %s", op,
                        tx__format_dims(mbuf, sizeof mbuf, mask->rank, mask->dims), axis, end,
                        tx__format_dims(sbuf, sizeof sbuf, tensor->rank, tensor->dims));
    /* tf.boolean_mask first reshapes tensor to its result's rank, and Reshape wants fewer than
     * 254 dims. */
    TX_REQUIRE(rank - k + 1 <= TX_RESHAPE_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: the result would have rank %" PRId64 ": too many dimensions: must be < %d "
               "(tf.boolean_mask reshapes tensor to that rank)", op, rank - k + 1, TX_MAX_RANK);
    TX_TRY(check_mask_dtype(op, mask->dtype));
    const int64_t count = mask_count(mask);
    if (axis < 0 && k > 1) return mask_negative_axis(op, tensor, mask, a, count, out);
    int64_t dims[TX_MAX_RANK];
    size_t r = 0;
    for (int64_t i = 0; i < a; i++) dims[r++] = tensor->dims[i];
    dims[r++] = count;
    for (int64_t i = a + k; i < rank; i++) dims[r++] = tensor->dims[i];
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc_flags(op, tensor->dtype, r, dims, TX_OUTPUT_DATA_DEPENDENT, &o));
    tx_status st = TX_OK;
    if (o->numel > 0) {
        /* Products of output dims: at most numel once it is not 0 (with an empty output, dims
         * beside a 0 could overflow them). */
        const int64_t nouter = tx__dims_product(tensor->dims, 0, (size_t)a),
                      inner = tx__dims_product(tensor->dims, (size_t)(a + k), (size_t)rank);
        st = mask_copy(o, tensor, mask, nouter, mask->numel,
                       (size_t)inner * tx_dtype_size(tensor->dtype)); /* <= o->nbytes */
    }
    if (st == TX_OK) st = tx__share_strings(o, tensor);
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}
