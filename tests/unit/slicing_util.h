/* SPDX-License-Identifier: Apache-2.0 */
/* slicing_util.h -- helpers that the unit tests of slice, strided_slice, split, unpack, tile and
 * pad share (test_slicing.c, test_split.c, test_tile.c, test_pad.c). */
#ifndef TX_SLICING_UTIL_H
#define TX_SLICING_UTIL_H

#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline tx_tensor *iota(tx_dtype dt, size_t rank, const int64_t *dims) {
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    double *v = malloc(sizeof(double) * (size_t)(tx_tensor_numel(t) + 1));
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) v[i] = (double)(i + 1);
    tx_tensor_free(t);
    t = tu_tensor(dt, rank, dims, v);
    free(v);
    return t;
}

/* A string tensor whose element i is "s<i>". */
static inline tx_tensor *string_iota(size_t rank, const int64_t *dims) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    char **vals = calloc((size_t)n + 1, sizeof *vals);
    for (int64_t i = 0; i < n; i++) {
        vals[i] = malloc(24);
        snprintf(vals[i], 24, "s%lld", (long long)i);
    }
    tx_tensor *t = tu_strings(rank, dims, (const char *const *)vals);
    for (int64_t i = 0; i < n; i++) free(vals[i]);
    free(vals);
    return t;
}

static inline void assert_strings(const tx_tensor *t, const char *const *want) {
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        const tx_string *s = tx_tensor_string(t, i);
        assert_non_null(s);
        if (s->size != strlen(want[i]) || (s->size && memcmp(s->data, want[i], (size_t)s->size)))
            fail_msg("string %lld: got '%.*s', want '%s'", (long long)i, (int)s->size, s->data, want[i]);
    }
}

/* A tensor of the given dtype whose element bytes are a pseudo-random pattern (strings: "s<i>"). */
static inline tx_tensor *pattern(tx_dtype dt, size_t rank, const int64_t *dims, unsigned seed) {
    if (dt == TX_STRING) return string_iota(rank, dims);
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    unsigned char *d = tx_tensor_data(t);
    uint32_t x = seed * 2654435761u + 1;
    for (size_t i = 0; i < tx_tensor_nbytes(t); i++) {
        x = x * 1103515245u + 12345u;
        d[i] = (unsigned char)(x >> 16);
        if (dt == TX_BOOL) d[i] &= 1;
    }
    return t;
}

/* Element i of got equals element j of want (bytes; strings by content). */
static inline int same_elem(const tx_tensor *got, int64_t i, const tx_tensor *want, int64_t j) {
    if (tx_tensor_dtype(got) == TX_STRING) {
        const tx_string *a = tx_tensor_string(got, i), *b = tx_tensor_string(want, j);
        return a->size == b->size && (a->size == 0 || !memcmp(a->data, b->data, (size_t)a->size));
    }
    size_t w = tx_dtype_size(tx_tensor_dtype(got));
    return !memcmp((const char *)tx_tensor_data_const(got) + i * (int64_t)w,
                   (const char *)tx_tensor_data_const(want) + j * (int64_t)w, w);
}

static uint32_t rng_state = 12345;
static inline int64_t rnd(int64_t n) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return n > 0 ? (int64_t)((rng_state >> 8) % (uint32_t)n) : 0;
}

#define V(...) ((int64_t[]){__VA_ARGS__})

#endif
