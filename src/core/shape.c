/* SPDX-License-Identifier: Apache-2.0 */
/* shape.c -- overflow-checked shape arithmetic, axis normalisation and reading of small integer
 * argument tensors (shape, perm, begin, ...).  Every op does its shape arithmetic through here. */
#include "core/internal.h"

#include <inttypes.h>
#include <stdio.h>

tx_status tx__shape_numel(const char *op, const char *what, size_t rank, const int64_t *dims,
                          int64_t *numel) {
    int64_t n = 1;
    bool overflow = false;
    for (size_t i = 0; i < rank; i++) {
        TX_REQUIRE(dims[i] >= 0, TX_INVALID_ARGUMENT, "%s: %s has negative dimension %" PRId64
                   " at index %zu", op, what, dims[i], i);
        /* Keep scanning after an overflow: a 0 later makes the product 0, as in TF. */
        if (!overflow && !tx__mul_i64(n, dims[i], &n)) overflow = true;
    }
    for (size_t i = 0; i < rank && overflow; i++)
        if (dims[i] == 0) overflow = false, n = 0;
    TX_REQUIRE(!overflow, TX_RESOURCE_EXHAUSTED, "%s: number of elements of %s overflows int64",
               op, what);
    *numel = n;
    return TX_OK;
}

tx_status tx__normalize_axis(const char *op, const char *what, int64_t axis, size_t rank,
                             size_t *out) {
    int64_t r = (int64_t)rank;
    TX_REQUIRE(axis >= -r && axis < r, TX_INVALID_ARGUMENT,
               "%s: %s %" PRId64 " is out of range [%" PRId64 ", %" PRId64 ")", op, what, axis, -r,
               r);
    *out = (size_t)(axis < 0 ? axis + r : axis);
    return TX_OK;
}

tx_status tx__read_int_vector(const char *op, const char *what, const tx_tensor *t,
                              int64_t **values, size_t *n) {
    *values = NULL;
    *n = 0;
    TX_REQUIRE(t != NULL, TX_INVALID_ARGUMENT, "%s: %s is NULL", op, what);
    TX_REQUIRE(t->dtype == TX_INT32 || t->dtype == TX_INT64, TX_INVALID_ARGUMENT,
               "%s: %s must be int32 or int64, got %s", op, what, tx_dtype_name(t->dtype));
    TX_REQUIRE(t->rank <= 1, TX_INVALID_ARGUMENT, "%s: %s must be a vector, got rank %zu", op,
               what, t->rank);
    size_t count = (size_t)t->numel;
    int64_t *v = tx__calloc_array(count ? count : 1, sizeof *v, op);
    if (v == NULL) return TX_RESOURCE_EXHAUSTED;
    for (size_t i = 0; i < count; i++)
        v[i] = tx__index_at(t, (int64_t)i);
    *values = v;
    *n = count;
    return TX_OK;
}

tx_status tx__read_int_scalar(const char *op, const char *what, const tx_tensor *t,
                              int64_t *value) {
    TX_REQUIRE(t != NULL, TX_INVALID_ARGUMENT, "%s: %s is NULL", op, what);
    TX_REQUIRE(t->dtype == TX_INT32 || t->dtype == TX_INT64, TX_INVALID_ARGUMENT,
               "%s: %s must be int32 or int64, got %s", op, what, tx_dtype_name(t->dtype));
    TX_REQUIRE(t->numel == 1, TX_INVALID_ARGUMENT, "%s: %s must hold one value, got %" PRId64, op,
               what, t->numel);
    *value = tx__index_at(t, 0);
    return TX_OK;
}

const char *tx__format_dims(char *buf, size_t cap, size_t rank, const int64_t *dims) {
    size_t pos = 0;
    int w = snprintf(buf, cap, "[");
    pos = (size_t)w;
    for (size_t i = 0; i < rank && pos < cap; i++) {
        if (pos + 24 >= cap) {
            snprintf(buf + pos, cap - pos, "...]");
            return buf;
        }
        w = snprintf(buf + pos, cap - pos, i ? ",%" PRId64 : "%" PRId64, dims[i]);
        pos += (size_t)w;
    }
    if (pos < cap) snprintf(buf + pos, cap - pos, "]");
    return buf;
}
