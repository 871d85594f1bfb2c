/* SPDX-License-Identifier: Apache-2.0 */
/* strided_slice.c -- TF's StridedSlice op (tf.strided_slice, the op behind tensor[...] indexing).
 * The validation follows TF's ValidateStridedSliceOp (tensorflow/core/util/strided_slice_op.cc):
 * the "sparse" spec (one entry per begin/end/strides element, with ellipsis and new axes) is
 * expanded into a "dense" spec with one entry per input dim, each begin/end is canonicalised with
 * Python's clamping rules, and the output shape is the per-dim sizes with new axes inserted and
 * shrunk dims dropped.  The copy is one strided-copy plan over the input dims (exec/copy.h):
 * a negative stride is a negative byte stride, and contiguous runs move with memcpy. */
#include "exec/copy.h"

#include <inttypes.h>

/* TF builds the spec in 32-bit masks; begin may have at most 31 entries. */
#define SPEC_MAX 32

/* Entries of the output-shape recipe besides input dim numbers. */
enum { GATHER_SHRINK = -1, GATHER_NEW_AXIS = -2 };

typedef struct dense_spec {
    size_t dims;                     /* input rank */
    int64_t begin[TX_MAX_RANK];
    int64_t end[TX_MAX_RANK];
    int64_t strides[TX_MAX_RANK];
    bool begin_mask[TX_MAX_RANK];
    bool end_mask[TX_MAX_RANK];
    bool shrink[TX_MAX_RANK];
    /* How to build the final shape: an input dim number, GATHER_NEW_AXIS or GATHER_SHRINK. */
    int gather[TX_MAX_RANK + SPEC_MAX];
    size_t ngather;
} dense_spec;

static const char *const OP = "strided_slice";

static bool bit(uint32_t mask, size_t i) { return i < 32 && ((mask >> i) & 1u); }

static tx_status check_spec_tensors(const tx_tensor *begin, const tx_tensor *end,
                                    const tx_tensor *strides) {
    /* StridedSlice's Index is {int16, int32, int64} (array_ops.cc); the CPU kernel does not
     * narrow it (strided_slice_op.cc) and ValidateStridedSliceOp reads all three.  TF 2.21
     * decides: Index is taken from begin, and another begin dtype is unimplemented (the op
     * definition is checked first); an end or strides of another dtype than begin's, allowed or
     * not, is invalid_argument. */
    TX_REQUIRE(begin->dtype == TX_INT16 || begin->dtype == TX_INT32 || begin->dtype == TX_INT64,
               TX_UNIMPLEMENTED, "%s: begin must be int16, int32 or int64, got %s", OP,
               tx_dtype_name(begin->dtype));
    TX_REQUIRE(begin->dtype == end->dtype && end->dtype == strides->dtype, TX_INVALID_ARGUMENT,
               "%s: begin, end and strides must have the same dtype (TF's Index), got %s, %s, %s",
               OP, tx_dtype_name(begin->dtype), tx_dtype_name(end->dtype),
               tx_dtype_name(strides->dtype));
    if (begin->rank != 1 || end->rank != 1 || strides->rank != 1 ||
        begin->numel != strides->numel || end->numel != strides->numel ||
        begin->numel >= SPEC_MAX) {
        char a[TX_DIMS_STR_CAP], b[TX_DIMS_STR_CAP], c[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: expected begin, end, and strides to be 1-D tensors of one size below "
                        "%d, but got shapes %s, %s, and %s",
                        OP, SPEC_MAX, tx__format_dims(a, sizeof a, begin->rank, begin->dims),
                        tx__format_dims(b, sizeof b, end->rank, end->dims),
                        tx__format_dims(c, sizeof c, strides->rank, strides->dims));
    }
    return TX_OK;
}

/* TF's BuildDenseSpec: expands the ellipsis (explicit or implied at the end) into full-range
 * dims and maps each remaining spec onto the next input dim. */
static tx_status build_dense(dense_spec *ds, size_t input_rank, const tx_tensor *begin,
                             const tx_tensor *end, const tx_tensor *strides, uint32_t begin_mask,
                             uint32_t end_mask, uint32_t ellipsis_mask, uint32_t new_axis_mask,
                             uint32_t shrink_axis_mask) {
    size_t n = (size_t)strides->numel;
    TX_REQUIRE((ellipsis_mask & (ellipsis_mask - 1)) == 0, TX_INVALID_ARGUMENT,
               "%s: multiple ellipses in slice spec not allowed (ellipsis_mask 0x%" PRIx32 ")", OP,
               ellipsis_mask);
    /* New axes after the ellipsis do not consume input dims, so the ellipsis covers more. */
    bool ellipsis_seen = false;
    int64_t new_after_ellipsis = 0;
    size_t ellipsis_at = n;
    for (size_t i = 0; i < n; i++) {
        if (ellipsis_seen && bit(new_axis_mask, i)) new_after_ellipsis++;
        if (bit(ellipsis_mask, i)) {
            ellipsis_seen = true;
            ellipsis_at = i;
        }
    }
    /* Without an ellipsis among the specs, one is implied after the last (a mask bit at or
     * beyond n does not count as one). */
    size_t sparse_dims = ellipsis_seen ? n : n + 1;

    /* Only the entries of the input's dims are used: zeroing the whole spec (8 KB) took more
     * time than a small slice's copy. */
    ds->dims = input_rank;
    ds->ngather = 0;
    memset(ds->begin, 0, input_rank * sizeof ds->begin[0]);
    memset(ds->end, 0, input_rank * sizeof ds->end[0]);
    memset(ds->strides, 0, input_rank * sizeof ds->strides[0]);
    memset(ds->begin_mask, 0, input_rank * sizeof ds->begin_mask[0]);
    memset(ds->end_mask, 0, input_rank * sizeof ds->end_mask[0]);
    memset(ds->shrink, 0, input_rank * sizeof ds->shrink[0]);
    int64_t dense_dims = (int64_t)input_rank;
    size_t full = 0;
    for (size_t i = 0; i < sparse_dims; i++) {
        if (i == ellipsis_at) {
            int64_t next = dense_dims - ((int64_t)sparse_dims - (int64_t)i) + 1 + new_after_ellipsis;
            if (next > dense_dims) next = dense_dims;
            for (; (int64_t)full < next; full++) {
                ds->begin[full] = ds->end[full] = 0;
                ds->strides[full] = 1;
                ds->begin_mask[full] = ds->end_mask[full] = true;
                ds->gather[ds->ngather++] = (int)full;
            }
        } else if (bit(new_axis_mask, i)) {
            ds->gather[ds->ngather++] = GATHER_NEW_AXIS;
        } else {
            if (full == input_rank) {
                TX_REQUIRE(input_rank != 0, TX_INVALID_ARGUMENT,
                           "%s: attempting to slice scalar input (spec %zu indexes a dim)", OP, i);
                return tx__fail(TX_INVALID_ARGUMENT,
                                "%s: index out of range using input dim %zu; input has only %zu dims",
                                OP, full, input_rank);
            }
            ds->begin[full] = tx__index_at(begin, i);
            ds->end[full] = tx__index_at(end, i);
            ds->strides[full] = tx__index_at(strides, i);
            ds->begin_mask[full] = bit(begin_mask, i);
            ds->end_mask[full] = bit(end_mask, i);
            if (bit(shrink_axis_mask, i)) {
                ds->gather[ds->ngather++] = GATHER_SHRINK;
                ds->shrink[full] = true;
            } else {
                ds->gather[ds->ngather++] = (int)full;
            }
            full++;
        }
    }
    return TX_OK;
}

/* Python's clamping of one begin (c = 0) or end (c = 1) into the valid range for the stride's
 * direction; a masked value takes the end of that range. */
static int64_t canonical(int64_t x, int c, bool masked, int64_t stride, int64_t dim) {
    int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
    if (masked) {
        if (stride > 0) return c == 0 ? lo : hi;
        return c == 0 ? hi : lo;
    }
    int64_t fwd = x < 0 ? dim + x : x;
    return fwd < lo ? lo : fwd > hi ? hi : fwd;
}

/* TF's step 3: canonical begin/end per input dim and the processing size. */
static tx_status resolve(dense_spec *ds, const int64_t *dims, int64_t *sizes) {
    for (size_t i = 0; i < ds->dims; i++) {
        int64_t stride = ds->strides[i], dim = dims[i];
        TX_REQUIRE(stride != 0, TX_INVALID_ARGUMENT, "%s: strides[%zu] must be non-zero", OP, i);
        bool shrink = ds->shrink[i];
        TX_REQUIRE(!shrink || stride > 0, TX_INVALID_ARGUMENT,
                   "%s: only stride 1 allowed on non-range indexing (dim %zu is shrunk, stride %" PRId64
                   ")", OP, i, stride);
        if (shrink) {
            /* foo[-1] arrives as begin -1, end 0; the end is rebuilt as begin + 1.  The masks
             * do not apply to a shrunk dim. */
            int64_t fwd = ds->begin[i] < 0 ? dim + ds->begin[i] : ds->begin[i];
            TX_REQUIRE(fwd >= 0 && fwd < dim, TX_INVALID_ARGUMENT,
                       "%s: slice index %" PRId64 " of dimension %zu out of bounds (size %" PRId64 ")",
                       OP, ds->begin[i], i, dim);
            ds->begin[i] = fwd;
            ds->end[i] = fwd + 1;
        } else {
            ds->begin[i] = canonical(ds->begin[i], 0, ds->begin_mask[i], stride, dim);
            ds->end[i] = canonical(ds->end[i], 1, ds->end_mask[i], stride, dim);
        }
        int64_t interval = ds->end[i] - ds->begin[i];
        if (interval == 0 || (interval < 0) != (stride < 0)) sizes[i] = 0;
        else sizes[i] = interval / stride + (interval % stride != 0);
    }
    return TX_OK;
}


/* The copy over the input dims (processing sizes `sizes`) into a row-major output or into the
 * caller's output strides, which are per output dim: a new axis or a shrunk dim has size 1 and
 * never steps, so only the output dims that are input dims pass their strides on. */
static void plan_copy(tx__offset_copy *p, const dense_spec *ds, const tx_tensor *input_,
                      const int64_t *sizes) {
    size_t r = input_->rank, elem = tx_dtype_size(input_->dtype);
    int64_t in_strides[TX_MAX_RANK], src_strides[TX_MAX_RANK], dst_strides[TX_MAX_RANK];
    tx__contiguous_strides(r, input_->dims, elem, in_strides);
    const int64_t *caller = tx__output_strides(0);
    if (caller == NULL) {
        tx__contiguous_strides(r, sizes, elem, dst_strides);
    } else {
        memset(dst_strides, 0, r * sizeof *dst_strides);
        for (size_t k = 0, at = 0; k < ds->ngather; k++) {
            int g = ds->gather[k];
            if (g >= 0) dst_strides[g] = caller[at];
            if (g != GATHER_SHRINK) at++;
        }
    }
    p->offset = 0;
    /* With elements, every dim has size >= 1, so each begin is a valid index; a dim of size 1
     * never steps, so its (possibly huge) stride is not multiplied out.  Without, nothing is
     * copied. */
    bool any = tx__dims_product(sizes, 0, r) > 0;
    for (size_t i = 0; i < r; i++) {
        if (any) p->offset += ds->begin[i] * in_strides[i];
        src_strides[i] = any && sizes[i] > 1 ? ds->strides[i] * in_strides[i] : 0;
    }
    tx__copy_plan_make(&p->copy, r, sizes, dst_strides, src_strides, elem);
}

tx_status tx_strided_slice(const tx_tensor *input_, const tx_tensor *begin, const tx_tensor *end,
                           const tx_tensor *strides, int32_t begin_mask, int32_t end_mask,
                           int32_t ellipsis_mask, int32_t new_axis_mask, int32_t shrink_axis_mask,
                           tx_tensor **out) {
    TX_REQUIRE_OUT(OP, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(OP, input_, "input_");
    TX_REQUIRE_TENSOR(OP, begin, "begin");
    TX_REQUIRE_TENSOR(OP, end, "end");
    TX_REQUIRE_TENSOR(OP, strides, "strides");
    TX_TRY(check_spec_tensors(begin, end, strides));

    /* On the stack (8 KB; build_dense initialises what it uses): sizing in plan mode must not
     * allocate. */
    dense_spec spec;
    dense_spec *ds = &spec;
    int64_t sizes[TX_MAX_RANK];
    tx_status st = build_dense(ds, input_->rank, begin, end, strides, (uint32_t)begin_mask,
                               (uint32_t)end_mask, (uint32_t)ellipsis_mask,
                               (uint32_t)new_axis_mask, (uint32_t)shrink_axis_mask);
    if (st == TX_OK) st = resolve(ds, input_->dims, sizes);
    if (st != TX_OK) return st;

    /* Final shape: processing sizes with new axes inserted and shrunk dims left out. */
    int64_t final_dims[TX_MAX_RANK + SPEC_MAX];
    size_t final_rank = 0;
    for (size_t k = 0; k < ds->ngather; k++) {
        int g = ds->gather[k];
        if (g >= 0) final_dims[final_rank++] = sizes[g];
        else if (g == GATHER_NEW_AXIS) final_dims[final_rank++] = 1;
    }
    TX_REQUIRE(final_rank <= TX_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: the result has rank %zu, above the maximum %d", OP, final_rank, TX_MAX_RANK);
    tx__offset_copy p;
    plan_copy(&p, ds, input_, sizes);
    TX_TRY(tx__prepared_step(OP, tx__offset_copy_run, &p, sizeof p, 1, &input_, -1));

    tx_tensor *o = NULL;
    st = tx__tensor_alloc(OP, input_->dtype, final_rank, final_dims, &o);
    if (st == TX_OK) st = tx__share_strings(o, input_);
    if (st == TX_OK)
        st = tx__offset_copy_run(&p, &(tx__run_io){(const char *[]){input_->data}, &o->data});
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}
