/* SPDX-License-Identifier: Apache-2.0 */
/* slice.c -- TF's Slice op (tf.slice): the block of the input that starts at `begin` and has
 * `size` elements per dim, with TF's rule that size -1 means "to the end" and TF's bounds checks
 * (a zero-size dim only takes begin 0, size 0).  The copy is one strided-copy plan
 * (exec/copy.h), so contiguous rows move with memcpy. */
#include "exec/copy.h"

#include <inttypes.h>

/* TF's SharedSliceValidation: every check, in TF's order, before anything is allocated. */
static tx_status validate(const tx_tensor *input, const tx_tensor *begin, const tx_tensor *size,
                          int64_t *b, int64_t *s) {
    static const char *op = "slice";
    /* Slice's Index is {int32, int64}, taken from begin: another begin dtype is unimplemented;
     * a size of another dtype than begin's, allowed or not, is invalid_argument (TF 2.21 decides). */
    TX_REQUIRE(begin->dtype == TX_INT32 || begin->dtype == TX_INT64, TX_UNIMPLEMENTED,
               "%s: begin must be int32 or int64, got %s", op, tx_dtype_name(begin->dtype));
    TX_REQUIRE(begin->dtype == size->dtype, TX_INVALID_ARGUMENT,
               "%s: begin and size must have the same dtype (TF's Index), got %s and %s", op,
               tx_dtype_name(begin->dtype), tx_dtype_name(size->dtype));
    size_t r = input->rank;
    if (begin->rank != 1 || size->rank != 1 || begin->numel != (int64_t)r ||
        size->numel != (int64_t)r) {
        char bs[TX_DIMS_STR_CAP], ss[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: expected begin and size to be 1-D tensors of size %zu (the rank of "
                        "input_), but got shapes %s and %s",
                        op, r, tx__format_dims(bs, sizeof bs, begin->rank, begin->dims),
                        tx__format_dims(ss, sizeof ss, size->rank, size->dims));
    }
    for (size_t i = 0; i < r; i++) {
        b[i] = tx__index_at(begin, i);
        s[i] = tx__index_at(size, i);
        /* -1 takes the rest of the dim.  A begin so negative that D - begin overflows is refused
         * by the begin check below, so the -1 is left as it is then. */
        int64_t rest;
        if (s[i] == -1 && !__builtin_sub_overflow(input->dims[i], b[i], &rest)) s[i] = rest;
    }
    for (size_t i = 0; i < r; i++) {
        int64_t d = input->dims[i];
        if (d == 0) {
            TX_REQUIRE(b[i] == 0 && s[i] == 0, TX_INVALID_ARGUMENT,
                       "%s: expected begin[%zu] == 0 (got %" PRId64 ") and size[%zu] == 0 (got %" PRId64
                       ") when input_.shape[%zu] == 0",
                       op, i, b[i], i, s[i], i);
        } else {
            TX_REQUIRE(b[i] >= 0 && b[i] <= d, TX_INVALID_ARGUMENT,
                       "%s: expected begin[%zu] in [0, %" PRId64 "], but got %" PRId64, op, i, d, b[i]);
            TX_REQUIRE(s[i] >= 0 && s[i] <= d - b[i], TX_INVALID_ARGUMENT,
                       "%s: expected size[%zu] in [0, %" PRId64 "] (begin[%zu] = %" PRId64
                       ", dim %" PRId64 "), but got %" PRId64,
                       op, i, d - b[i], i, b[i], d, s[i]);
        }
    }
    return TX_OK;
}

tx_status tx_slice(const tx_tensor *input_, const tx_tensor *begin, const tx_tensor *size,
                   tx_tensor **out) {
    static const char *op = "slice";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input_, "input_");
    TX_REQUIRE_TENSOR(op, begin, "begin");
    TX_REQUIRE_TENSOR(op, size, "size");
    int64_t b[TX_MAX_RANK], s[TX_MAX_RANK];
    TX_TRY(validate(input_, begin, size, b, s));

    size_t r = input_->rank, elem = tx_dtype_size(input_->dtype);
    tx__offset_copy p; /* no initialiser: it would clear the copy plan's kilobytes in every call */
    p.offset = 0;
    int64_t in_strides[TX_MAX_RANK], out_strides[TX_MAX_RANK];
    tx__contiguous_strides(r, input_->dims, elem, in_strides);
    const int64_t *dst_strides = tx__output_strides(0);
    if (dst_strides == NULL) {
        tx__contiguous_strides(r, s, elem, out_strides);
        dst_strides = out_strides;
    }
    bool any = tx__dims_product(s, 0, r) > 0;
    /* With elements, every begin is a valid index (size > 0 in every dim), so the offset stays
     * inside the input; without, nothing is copied. */
    if (any)
        for (size_t i = 0; i < r; i++) p.offset += b[i] * in_strides[i];
    tx__copy_plan_make(&p.copy, r, s, dst_strides, in_strides, elem);
    TX_TRY(tx__prepared_step(op, tx__offset_copy_run, &p, sizeof p, 1, &input_, -1));

    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, input_->dtype, r, s, &o));
    tx_status st = tx__share_strings(o, input_);
    if (st == TX_OK)
        st = tx__offset_copy_run(&p, &(tx__run_io){(const char *[]){input_->data}, &o->data});
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}
