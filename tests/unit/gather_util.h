/* SPDX-License-Identifier: Apache-2.0 */
/* gather_util.h -- helpers that the gather family's unit tests share (test_gather.c,
 * test_gather_limits.c, test_unique.c, test_partition.c, test_one_hot.c). */
#ifndef TX_GATHER_UTIL_H
#define TX_GATHER_UTIL_H

#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tensor holding 0, 1, 2, ... in row-major order. */
static inline tx_tensor *iota(tx_dtype dt, size_t rank, const int64_t *dims) {
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    double *v = calloc((size_t)tx_tensor_numel(t) + 1, sizeof *v);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) v[i] = (double)i;
    tx_tensor_free(t);
    t = tu_tensor(dt, rank, dims, v);
    free(v);
    return t;
}

static inline void assert_strings(const tx_tensor *t, const char *const *want) {
    assert_int_equal(tx_tensor_dtype(t), TX_STRING);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        const tx_string *s = tx_tensor_string(t, i);
        assert_non_null(s);
        if (s->size != strlen(want[i]) || (s->size && memcmp(s->data, want[i], s->size) != 0))
            fail_msg("string %lld: got '%.*s', want '%s'", (long long)i, (int)s->size,
                     s->size ? s->data : "", want[i]);
    }
}

#define T32(rank, dims, ...) tu_tensor(TX_INT32, rank, dims, TU_VALS(__VA_ARGS__))
#define T64(rank, dims, ...) tu_tensor(TX_INT64, rank, dims, TU_VALS(__VA_ARGS__))
#define TF32(rank, dims, ...) tu_tensor(TX_FLOAT32, rank, dims, TU_VALS(__VA_ARGS__))
#define TB(rank, dims, ...) tu_tensor(TX_BOOL, rank, dims, TU_VALS(__VA_ARGS__))
#define STRS(...) ((const char *const[]){__VA_ARGS__})

static inline tx_tensor *p2(void) {
    return tu_strings(2, TU_DIMS(2, 2), STRS("a", "b", "c", "d"));
}
static inline tx_tensor *p3(void) {
    return tu_strings(3, TU_DIMS(2, 2, 2), STRS("a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1"));
}

static inline void check_nd(tx_tensor *params, tx_tensor *indices, size_t rank,
                            const int64_t *dims, const char *const *want) {
    tx_tensor *o = NULL;
    assert_int_equal(tx_gather_nd(params, indices, &o), TX_OK);
    tx_tensor_free(params); /* the output keeps the bytes alive */
    tu_assert_shape(o, TX_STRING, rank, dims);
    assert_strings(o, want);
    tx_tensor_free(o);
    tx_tensor_free(indices);
}

static inline tx_tensor *i64_tensor(size_t rank, const int64_t *dims, const int64_t *v) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT64, rank, dims, v, (size_t)n * 8, &t), TX_OK);
    return t;
}

static inline tx_tensor *i32_tensor(size_t rank, const int64_t *dims, const int32_t *v) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT32, rank, dims, v, (size_t)n * 4, &t), TX_OK);
    return t;
}

#define I64S(...) ((const int64_t[]){__VA_ARGS__})
#define I32S(...) ((const int32_t[]){__VA_ARGS__})

#endif
