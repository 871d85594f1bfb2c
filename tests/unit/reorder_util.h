/* SPDX-License-Identifier: Apache-2.0 */
/* reorder_util.h -- helpers that the unit tests of concat, pack, meshgrid, reverse,
 * reverse_sequence and transpose share (test_concat.c, test_reorder.c, test_transpose.c): tensors
 * to start from and the naive loops the kernels are compared with. */
#ifndef TX_REORDER_UTIL_H
#define TX_REORDER_UTIL_H

#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Elements 1, 2, 3, ... (or start, start+1, ...) of a numeric dtype. */
static inline tx_tensor *iota_from(tx_dtype dt, size_t rank, const int64_t *dims, double start) {
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    int64_t n = tx_tensor_numel(t);
    double *v = calloc((size_t)n + 1, sizeof *v);
    for (int64_t i = 0; i < n; i++) v[i] = start + (double)i;
    tx_tensor_free(t);
    t = tu_tensor(dt, rank, dims, v);
    free(v);
    return t;
}
static inline tx_tensor *iota(tx_dtype dt, size_t rank, const int64_t *dims) {
    return iota_from(dt, rank, dims, 1);
}

/* A tensor of random bytes (any dtype but string). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static inline uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static inline tx_tensor *random_tensor(tx_dtype dt, size_t rank, const int64_t *dims) {
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    unsigned char *p = tx_tensor_data(t);
    for (size_t i = 0; i < tx_tensor_nbytes(t); i++) p[i] = (unsigned char)rnd();
    return t;
}

static inline void assert_strings(const tx_tensor *t, const char *const *want) {
    assert_int_equal(tx_tensor_dtype(t), TX_STRING);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        const tx_string *s = tx_tensor_string(t, i);
        if (s->size != strlen(want[i]) || memcmp(s->data, want[i], s->size) != 0)
            fail_msg("string %lld: got '%.*s', want '%s'", (long long)i, (int)s->size, s->data,
                     want[i]);
    }
}

static inline void check_values(tx_tensor *o, tx_dtype dt, size_t rank, const int64_t *dims,
                                 const double *want) {
    tu_assert_shape(o, dt, rank, dims);
    tu_assert_values(o, want);
    tx_tensor_free(o);
}

/* Naive reverse_sequence over the full index. */
static inline void naive_reverse_sequence(const tx_tensor *t, const int64_t *lens, size_t sd, size_t bd,
                                          char *out) {
    size_t r = tx_tensor_rank(t), w = tx_dtype_size(tx_tensor_dtype(t));
    const int64_t *dims = tx_tensor_dims(t);
    int64_t idx[8];
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        int64_t rem = i;
        for (size_t d = r; d-- > 0;) {
            idx[d] = rem % dims[d];
            rem /= dims[d];
        }
        int64_t L = lens[idx[bd]];
        if (idx[sd] < L) idx[sd] = L - 1 - idx[sd];
        int64_t src = 0;
        for (size_t d = 0; d < r; d++) src = src * dims[d] + idx[d];
        memcpy(out + i * (int64_t)w, (const char *)tx_tensor_data_const(t) + src * (int64_t)w, w);
    }
}

/* Naive transpose through the full index. */
static inline void naive_transpose(const tx_tensor *t, const size_t *perm, char *out) {
    size_t r = tx_tensor_rank(t), w = tx_dtype_size(tx_tensor_dtype(t));
    const int64_t *dims = tx_tensor_dims(t);
    int64_t strides[8], odims[8], idx[8];
    int64_t s = 1;
    for (size_t d = r; d-- > 0;) {
        strides[d] = s;
        s *= dims[d];
    }
    for (size_t j = 0; j < r; j++) odims[j] = dims[perm[j]];
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        int64_t rem = i, src = 0;
        for (size_t j = r; j-- > 0;) {
            idx[j] = rem % odims[j];
            rem /= odims[j];
            src += idx[j] * strides[perm[j]];
        }
        memcpy(out + i * (int64_t)w, (const char *)tx_tensor_data_const(t) + src * (int64_t)w, w);
    }
}

static inline void check_transpose(tx_dtype dt, size_t r, const int64_t *dims, const size_t *perm) {
    tx_tensor *t = random_tensor(dt, r, dims), *o = NULL;
    int64_t p64[8];
    for (size_t j = 0; j < r; j++) p64[j] = (int64_t)perm[j];
    tx_tensor *pt = tu_i64(r, p64);
    char *want = malloc(tx_tensor_nbytes(t) + 1);
    naive_transpose(t, perm, want);
    assert_int_equal(tx_transpose(t, pt, 0, &o), TX_OK);
    for (size_t j = 0; j < r; j++) assert_int_equal(tx_tensor_dims(o)[j], dims[perm[j]]);
    if (memcmp(tx_tensor_data(o), want, tx_tensor_nbytes(t)) != 0) {
        char b[128] = "";
        for (size_t j = 0; j < r; j++)
            snprintf(b + strlen(b), sizeof b - strlen(b), "%lld:%zu ", (long long)dims[j], perm[j]);
        fail_msg("transpose %s dims:perm %s differs from the naive loop", tx_dtype_name(dt), b);
    }
    tx_tensor_free(o);
    tx_tensor_free(pt);
    tx_tensor_free(t);
    free(want);
}

#endif
