/* SPDX-License-Identifier: Apache-2.0 */
/* test_gather.c -- gather, gather_nd, unique_with_counts, dynamic_partition, dynamic_stitch,
 * boolean_mask, one_hot, sequence_mask: every example of TF's page (with TensorFlow's
 * result where the page is wrong, and a comment saying so), TF's edge cases (zero-size results
 * that skip index checks, batch_dims, -0.0/NaN in unique, all-off one_hot rows), string tensors,
 * every error with its status and message, and an allocation-failure sweep per op. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------------------- */

/* A tensor holding 0, 1, 2, ... in row-major order. */
static tx_tensor *iota(tx_dtype dt, size_t rank, const int64_t *dims) {
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    double *v = calloc((size_t)tx_tensor_numel(t) + 1, sizeof *v);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) v[i] = (double)i;
    tx_tensor_free(t);
    t = tu_tensor(dt, rank, dims, v);
    free(v);
    return t;
}

static void assert_strings(const tx_tensor *t, const char *const *want) {
    assert_int_equal(tx_tensor_dtype(t), TX_STRING);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        const tx_string *s = tx_tensor_string(t, i);
        assert_non_null(s);
        if (s->size != strlen(want[i]) || (s->size && memcmp(s->data, want[i], s->size) != 0))
            fail_msg("string %lld: got '%.*s', want '%s'", (long long)i, (int)s->size,
                     s->size ? s->data : "", want[i]);
    }
}

static tx_tensor *half_tensor(size_t n, const uint16_t *bits) {
    int64_t d = (int64_t)n;
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT16, 1, &d, bits, n * 2, &t), TX_OK);
    return t;
}

#define T32(rank, dims, ...) tu_tensor(TX_INT32, rank, dims, TU_VALS(__VA_ARGS__))
#define T64(rank, dims, ...) tu_tensor(TX_INT64, rank, dims, TU_VALS(__VA_ARGS__))
#define TF32(rank, dims, ...) tu_tensor(TX_FLOAT32, rank, dims, TU_VALS(__VA_ARGS__))
#define TB(rank, dims, ...) tu_tensor(TX_BOOL, rank, dims, TU_VALS(__VA_ARGS__))
#define STRS(...) ((const char *const[]){__VA_ARGS__})

/* ---- gather ---------------------------------------------------------------------------------- */

static void test_gather_basic(void **state) {
    (void)state;
    /* params [[0,1,2],[3,4,5],[6,7,8],[9,10,11]] */
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(4, 3)), *o = NULL;
    /* Scalar indices: output[:, ..., :] = params[indices, :, ... :] */
    tx_tensor *i0 = T64(0, NULL, 2);
    assert_int_equal(tx_gather(p, i0, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(3));
    tu_assert_values(o, TU_VALS(6, 7, 8));
    tx_tensor_free(o);
    /* A permutation of length params.shape[0] permutes params (the page's note). */
    tx_tensor *perm = T32(1, TU_DIMS(4), 3, 1, 0, 2);
    assert_int_equal(tx_gather(p, perm, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(4, 3));
    tu_assert_values(o, TU_VALS(9, 10, 11, 3, 4, 5, 0, 1, 2, 6, 7, 8));
    tx_tensor_free(o);
    /* Higher-rank indices: output[i, j, :] = params[indices[i, j], :] */
    tx_tensor *i2 = T32(2, TU_DIMS(2, 2), 0, 0, 3, 1);
    assert_int_equal(tx_gather(p, i2, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 2, 3));
    tu_assert_values(o, TU_VALS(0, 1, 2, 0, 1, 2, 9, 10, 11, 3, 4, 5));
    tx_tensor_free(o);
    /* axis 1 and its negative form -1 */
    tx_tensor *ic = T32(1, TU_DIMS(2), 2, 0);
    for (int64_t axis = -1; axis <= 1; axis += 2) {
        assert_int_equal(tx_gather(p, ic, axis, 0, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, 2, TU_DIMS(4, 2));
        tu_assert_values(o, TU_VALS(2, 0, 5, 3, 8, 6, 11, 9));
        tx_tensor_free(o);
    }
    /* An index out of [0, 3) on axis 1 is named with its position, as TF's CPU kernel does. */
    o = (tx_tensor *)1;
    tu_assert_error(tx_gather(p, i2, 1, 0, &o), TX_INVALID_ARGUMENT,
                    "gather: indices[1,0] = 3 is not in [0, 3)");
    assert_null(o);
    tx_tensor *neg = T32(1, TU_DIMS(3), 0, -1, 1);
    tu_assert_error(tx_gather(p, neg, 0, 0, &o), TX_INVALID_ARGUMENT, "indices[1] = -1 is not in [0, 4)");
    tx_tensor *huge = T64(0, NULL, 1099511627776.0);
    tu_assert_error(tx_gather(p, huge, 0, 0, &o), TX_INVALID_ARGUMENT, "indices = 1099511627776 is not in [0, 4)");
    tx_tensor_free(neg);
    tx_tensor_free(huge);
    tx_tensor_free(i0);
    tx_tensor_free(perm);
    tx_tensor_free(i2);
    tx_tensor_free(ic);
    tx_tensor_free(p);

    /* 3-D params, 2-D indices, axis 1: shape [2] + [2, 1] + [2] */
    p = iota(TX_INT32, 3, TU_DIMS(2, 3, 2));
    tx_tensor *ix = T32(2, TU_DIMS(2, 1), 2, 0);
    assert_int_equal(tx_gather(p, ix, 1, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(2, 2, 1, 2));
    tu_assert_values(o, TU_VALS(4, 5, 0, 1, 10, 11, 6, 7));
    tx_tensor_free(o);
    /* axis 2 (the last) with a scalar index: single elements */
    tx_tensor *one = T32(0, NULL, 1);
    assert_int_equal(tx_gather(p, one, 2, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 3));
    tu_assert_values(o, TU_VALS(1, 3, 5, 7, 9, 11));
    tx_tensor_free(o);
    tx_tensor_free(one);
    tx_tensor_free(ix);
    tx_tensor_free(p);
}

static void test_gather_batch_dims(void **state) {
    (void)state;
    /* TF's doc example: params [[1,2,3],[4,5,6]], indices [[0,1],[2,0]], batch_dims=1, axis=1. */
    tx_tensor *p = T32(2, TU_DIMS(2, 3), 1, 2, 3, 4, 5, 6), *o = NULL;
    tx_tensor *ix = T32(2, TU_DIMS(2, 2), 0, 1, 2, 0);
    assert_int_equal(tx_gather(p, ix, 1, 1, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_values(o, TU_VALS(1, 2, 6, 4));
    tx_tensor_free(o);
    /* batch_dims -1 counts from the end of indices' dims: the same as 1 here. */
    assert_int_equal(tx_gather(p, ix, -1, -1, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 2, 6, 4));
    tx_tensor_free(o);
    tu_assert_error(tx_gather(p, ix, 1, 3, &o), TX_INVALID_ARGUMENT, "batch_dims 3 is out of range [-2, 2]");
    tu_assert_error(tx_gather(p, ix, 1, 2, &o), TX_INVALID_ARGUMENT,
                    "batch_dims (2) must be less than rank(params) (2)");
    tu_assert_error(tx_gather(p, ix, 0, 1, &o), TX_INVALID_ARGUMENT,
                    "batch_dims (1) must be less than or equal to axis (0)");
    tx_tensor *ix3 = T32(2, TU_DIMS(3, 1), 0, 0, 0);
    tu_assert_error(tx_gather(p, ix3, 1, 1, &o), TX_INVALID_ARGUMENT,
                    "params.shape[0] = 2 should be equal to indices.shape[0] = 3");
    tx_tensor_free(ix3);
    tx_tensor_free(ix);
    tx_tensor_free(p);
    /* batch_dims 1 with axis 2: out[b, o, i] = params[b, o, indices[b, i]] */
    p = iota(TX_INT32, 3, TU_DIMS(2, 2, 3));
    ix = T64(2, TU_DIMS(2, 1), 1, 0);
    assert_int_equal(tx_gather(p, ix, 2, 1, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 2, 1));
    tu_assert_values(o, TU_VALS(1, 4, 6, 9));
    tx_tensor_free(o);
    /* An error position in a batched gather is the flat position in indices. */
    tx_tensor *bad = T64(2, TU_DIMS(2, 1), 1, 3);
    tu_assert_error(tx_gather(p, bad, 2, 1, &o), TX_INVALID_ARGUMENT, "indices[1,0] = 3 is not in [0, 3)");
    tx_tensor_free(bad);
    tx_tensor_free(ix);
    tx_tensor_free(p);
}

static void test_gather_edges(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* TF checks indices only while copying: an empty result accepts any index. */
    tx_tensor *p = tu_tensor(TX_FLOAT32, 2, TU_DIMS(4, 0), NULL);
    tx_tensor *bad = T32(1, TU_DIMS(1), 7);
    assert_int_equal(tx_gather(p, bad, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(1, 0));
    tx_tensor_free(o);
    tx_tensor_free(p);
    p = tu_tensor(TX_FLOAT32, 2, TU_DIMS(0, 3), NULL);
    assert_int_equal(tx_gather(p, bad, 1, 0, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(0, 1));
    tx_tensor_free(o);
    /* ... but a non-empty result from a zero-size axis fails. */
    tu_assert_error(tx_gather(p, bad, 0, 0, &o), TX_INVALID_ARGUMENT, "indices[0] = 7 is not in [0, 0)");
    tx_tensor_free(p);
    tx_tensor *empty = tu_tensor(TX_INT32, 1, TU_DIMS(0), NULL);
    p = iota(TX_INT32, 2, TU_DIMS(2, 3));
    assert_int_equal(tx_gather(p, empty, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(0, 3));
    tx_tensor_free(o);
    tx_tensor_free(empty);
    tx_tensor_free(bad);
    /* Argument errors. */
    tx_tensor *s = T32(0, NULL, 0);
    tu_assert_error(tx_gather(s, s, 0, 0, &o), TX_INVALID_ARGUMENT, "axis 0 needs params of rank at least 1, got rank 0");
    tu_assert_error(tx_gather(p, s, 2, 0, &o), TX_INVALID_ARGUMENT, "axis 2 needs params of rank at least 3, got rank 2");
    tu_assert_error(tx_gather(p, s, -3, 0, &o), TX_INVALID_ARGUMENT, "axis -3 needs params of rank at least 3");
    tu_assert_error(tx_gather(p, s, INT64_MIN, 0, &o), TX_INVALID_ARGUMENT, "needs params of rank at least 9223372036854775808");
    tx_tensor *f = TF32(1, TU_DIMS(1), 0);
    tu_assert_error(tx_gather(p, f, 0, 0, &o), TX_UNIMPLEMENTED, "indices must be int16, int32 or int64, got float32");
    tu_assert_error(tx_gather(NULL, s, 0, 0, &o), TX_INVALID_ARGUMENT, "params is NULL");
    tu_assert_error(tx_gather(p, NULL, 0, 0, &o), TX_INVALID_ARGUMENT, "indices is NULL");
    tu_assert_error(tx_gather(p, s, 0, 0, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tx_tensor_free(f);
    tx_tensor_free(s);
    tx_tensor_free(p);
}

/* Outputs of several pool grains (TX_GRAIN_BYTES), split over 3 threads (main() sets the split
 * policy), against plain loops: gather's (batch, outer) rows split across a batch boundary, its
 * index positions when there is one row, and gather_nd's index vectors. */
static uint32_t hash32(uint64_t x) {
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ull;
    return (uint32_t)(x >> 32);
}

static tx_tensor *filled_u32(size_t rank, const int64_t *dims) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(TX_UINT32, rank, dims, &t), TX_OK);
    uint32_t *p = tx_tensor_data(t);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) p[i] = hash32((uint64_t)i);
    return t;
}

static tx_tensor *random_indices(size_t rank, const int64_t *dims, int64_t range) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, rank, dims, &t), TX_OK);
    int32_t *p = tx_tensor_data(t);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) p[i] = (int32_t)(hash32((uint64_t)i + 77) % range);
    return t;
}

static void test_gather_split_over_threads(void **state) {
    (void)state;
    tx_set_num_threads(3);
    /* batch_dims 1, axis 2: params [3, 5, 40, 256], indices [3, 70] -> [3, 5, 70, 256] (1 MiB) */
    const int64_t pd[4] = {3, 5, 40, 256}, id[2] = {3, 70};
    tx_tensor *params = filled_u32(4, pd), *idx = random_indices(2, id, 40), *out = NULL;
    assert_int_equal(tx_gather_oob(params, idx, 2, 1, TX_OOB_ERROR, &out), TX_OK);
    const uint32_t *pp = tx_tensor_data_const(params), *o = tx_tensor_data_const(out);
    const int32_t *ix = tx_tensor_data_const(idx);
    for (int64_t b = 0; b < 3; b++)
        for (int64_t r = 0; r < 5; r++)
            for (int64_t i = 0; i < 70; i++)
                for (int64_t e = 0; e < 256; e += 51)
                    assert_int_equal(o[((b * 5 + r) * 70 + i) * 256 + e],
                                     pp[((b * 5 + r) * 40 + ix[b * 70 + i]) * 256 + e]);
    tx_tensor_free(out);
    tx_tensor_free(idx);
    tx_tensor_free(params);
    /* axis 0, one row: params [1000, 256], indices [600] -> 600 KiB */
    const int64_t pd2[2] = {1000, 256}, id2[1] = {600};
    params = filled_u32(2, pd2);
    idx = random_indices(1, id2, 1000);
    assert_int_equal(tx_gather(params, idx, 0, 0, &out), TX_OK);
    pp = tx_tensor_data_const(params);
    o = tx_tensor_data_const(out);
    ix = tx_tensor_data_const(idx);
    for (int64_t i = 0; i < 600; i++) assert_memory_equal(o + i * 256, pp + ix[i] * 256, 1024);
    tx_tensor_free(out);
    tx_tensor_free(idx);
    tx_tensor_free(params);
    /* gather_nd: params [64, 64, 64], indices [4000, 2] -> [4000, 64] (1000 KiB) */
    const int64_t pd3[3] = {64, 64, 64}, id3[2] = {4000, 2};
    params = filled_u32(3, pd3);
    idx = random_indices(2, id3, 64);
    assert_int_equal(tx_gather_nd(params, idx, &out), TX_OK);
    pp = tx_tensor_data_const(params);
    o = tx_tensor_data_const(out);
    ix = tx_tensor_data_const(idx);
    for (int64_t i = 0; i < 4000; i++)
        assert_memory_equal(o + i * 64, pp + (ix[2 * i] * 64 + ix[2 * i + 1]) * 64, 256);
    tx_tensor_free(out);
    tx_tensor_free(idx);
    tx_tensor_free(params);
    tx_set_num_threads(0);
}

static void test_gather_widths_and_strings(void **state) {
    (void)state;
    /* Slices of 1, 2, 4, 8, 16 and 5 bytes take different copy loops. */
    const tx_dtype dts[] = {TX_INT8, TX_INT16, TX_INT32, TX_FLOAT64, TX_INT32, TX_INT8};
    const int64_t inner[] = {1, 1, 1, 1, 4, 5};
    tx_tensor *ix = T32(1, TU_DIMS(4), 2, 0, 2, 1), *o = NULL;
    for (size_t c = 0; c < 6; c++) {
        tx_tensor *p = iota(dts[c], 2, TU_DIMS(3, inner[c]));
        assert_int_equal(tx_gather(p, ix, 0, 0, &o), TX_OK);
        tu_assert_shape(o, dts[c], 2, TU_DIMS(4, inner[c]));
        double want[20];
        const int rows[] = {2, 0, 2, 1};
        for (int r = 0; r < 4; r++)
            for (int64_t k = 0; k < inner[c]; k++) want[r * inner[c] + k] = (double)(rows[r] * inner[c] + k);
        tu_assert_values(o, want);
        tx_tensor_free(o);
        tx_tensor_free(p);
    }
    /* Strings: the output shares the input's byte storage and outlives it. */
    tx_tensor *p = tu_strings(1, TU_DIMS(3), STRS("a", "bb", "ccc"));
    assert_int_equal(tx_gather(p, ix, 0, 0, &o), TX_OK);
    tx_tensor_free(p);
    assert_strings(o, STRS("ccc", "a", "ccc", "bb"));
    tx_tensor_free(o);
    tx_tensor_free(ix);
}

/* ---- gather_nd ------------------------------------------------------------------------------- */

static tx_tensor *p2(void) { return tu_strings(2, TU_DIMS(2, 2), STRS("a", "b", "c", "d")); }
static tx_tensor *p3(void) {
    return tu_strings(3, TU_DIMS(2, 2, 2), STRS("a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1"));
}

static void check_nd(tx_tensor *params, tx_tensor *indices, size_t rank, const int64_t *dims,
                     const char *const *want) {
    tx_tensor *o = NULL;
    assert_int_equal(tx_gather_nd(params, indices, &o), TX_OK);
    tx_tensor_free(params); /* the output keeps the bytes alive */
    tu_assert_shape(o, TX_STRING, rank, dims);
    assert_strings(o, want);
    tx_tensor_free(o);
    tx_tensor_free(indices);
}

static void test_gather_nd_page_examples(void **state) {
    (void)state;
    /* Simple indexing into a matrix */
    check_nd(p2(), T32(2, TU_DIMS(2, 2), 0, 0, 1, 1), 1, TU_DIMS(2), STRS("a", "d"));
    /* Slice indexing into a matrix */
    check_nd(p2(), T32(2, TU_DIMS(2, 1), 1, 0), 2, TU_DIMS(2, 2), STRS("c", "d", "a", "b"));
    /* Indexing into a 3-tensor */
    check_nd(p3(), T32(2, TU_DIMS(1, 1), 1), 3, TU_DIMS(1, 2, 2), STRS("a1", "b1", "c1", "d1"));
    check_nd(p3(), T32(2, TU_DIMS(2, 2), 0, 1, 1, 0), 2, TU_DIMS(2, 2), STRS("c0", "d0", "a1", "b1"));
    check_nd(p3(), T64(2, TU_DIMS(2, 3), 0, 0, 1, 1, 0, 1), 1, TU_DIMS(2), STRS("b0", "b1"));
    /* Batched indexing into a matrix */
    check_nd(p2(), T32(3, TU_DIMS(2, 1, 2), 0, 0, 0, 1), 2, TU_DIMS(2, 1), STRS("a", "b"));
    /* Batched slice indexing into a matrix.  The page prints [['c', 'd'], [['a', 'b']]], which is
     * not even rectangular; TF gives [[['c', 'd']], [['a', 'b']]] of shape [2, 1, 2]. */
    check_nd(p2(), T32(3, TU_DIMS(2, 1, 1), 1, 0), 3, TU_DIMS(2, 1, 2), STRS("c", "d", "a", "b"));
    /* Batched indexing into a 3-tensor.  The page's output drops the outer brackets; TF's shape
     * is [2, 1, 2, 2]. */
    check_nd(p3(), T32(3, TU_DIMS(2, 1, 1), 1, 0), 4, TU_DIMS(2, 1, 2, 2),
             STRS("a1", "b1", "c1", "d1", "a0", "b0", "c0", "d0"));
    /* The page's last two examples lack the outer brackets of params and output. */
    check_nd(p3(), T32(3, TU_DIMS(2, 2, 2), 0, 1, 1, 0, 0, 0, 1, 1), 3, TU_DIMS(2, 2, 2),
             STRS("c0", "d0", "a1", "b1", "a0", "b0", "c1", "d1"));
    check_nd(p3(), T32(3, TU_DIMS(2, 2, 3), 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0), 2, TU_DIMS(2, 2),
             STRS("b0", "b1", "d0", "c1"));
}

static void test_gather_nd_edges(void **state) {
    (void)state;
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(2, 2)), *o = NULL;
    /* A vector of indices is one index vector: a scalar result. */
    tx_tensor *v = T32(1, TU_DIMS(2), 1, 0);
    assert_int_equal(tx_gather_nd(p, v, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 0, NULL);
    tu_assert_values(o, TU_VALS(2));
    tx_tensor_free(o);
    tx_tensor_free(v);
    /* K = 0: each index vector picks the whole of params. */
    tx_tensor *k0 = tu_tensor(TX_INT64, 2, TU_DIMS(2, 0), NULL);
    assert_int_equal(tx_gather_nd(p, k0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 2, 2));
    tu_assert_values(o, TU_VALS(0, 1, 2, 3, 0, 1, 2, 3));
    tx_tensor_free(o);
    tx_tensor_free(k0);
    /* No index vectors: an empty result. */
    tx_tensor *n0 = tu_tensor(TX_INT32, 2, TU_DIMS(0, 1), NULL);
    assert_int_equal(tx_gather_nd(p, n0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(0, 2));
    tx_tensor_free(o);
    tx_tensor_free(n0);
    /* Errors name the position (over indices.shape[:-1]) and the index vector. */
    tx_tensor *bad = T32(3, TU_DIMS(2, 1, 2), 0, 0, 5, 0);
    tu_assert_error(tx_gather_nd(p, bad, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: indices[1,0] = [5, 0] does not index into param shape [2,2]");
    assert_null(o);
    tx_tensor_free(bad);
    bad = T64(1, TU_DIMS(2), 0, -1);
    tu_assert_error(tx_gather_nd(p, bad, &o), TX_INVALID_ARGUMENT, "indices = [0, -1] does not index");
    tx_tensor_free(bad);
    bad = T32(2, TU_DIMS(1, 3), 0, 0, 0);
    tu_assert_error(tx_gather_nd(p, bad, &o), TX_INVALID_ARGUMENT,
                    "index innermost dimension length must be <= params rank; saw: 3 vs. 2");
    tx_tensor_free(bad);
    tx_tensor *s = T32(0, NULL, 0);
    tu_assert_error(tx_gather_nd(s, s, &o), TX_INVALID_ARGUMENT, "params must be at least a vector");
    tu_assert_error(tx_gather_nd(p, s, &o), TX_INVALID_ARGUMENT, "indices must be at least a vector");
    tx_tensor *f = TF32(1, TU_DIMS(1), 0);
    tu_assert_error(tx_gather_nd(p, f, &o), TX_UNIMPLEMENTED, "indices must be int16, int32 or int64, got float32");
    tu_assert_error(tx_gather_nd(NULL, f, &o), TX_INVALID_ARGUMENT, "params is NULL");
    tx_tensor_free(f);
    tx_tensor_free(s);
    tx_tensor_free(p);
    /* TF refuses any entry from an empty params, even a zero-size slice. */
    p = tu_tensor(TX_INT32, 2, TU_DIMS(2, 0), NULL);
    tx_tensor *one = T32(2, TU_DIMS(1, 1), 1);
    tu_assert_error(tx_gather_nd(p, one, &o), TX_INVALID_ARGUMENT, "requested 1 entries, but params is empty");
    tx_tensor_free(one);
    tx_tensor_free(p);
}

/* ---- unique_with_counts ---------------------------------------------------------------------- */

static void unique3(tx_tensor *x, tx_dtype out_idx, tx_tensor **outs) {
    assert_int_equal(tx_unique_with_counts(x, out_idx, outs), TX_OK);
    tx_tensor_free(x);
}

static void free3(tx_tensor **outs) {
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
}

static void test_unique_page_examples(void **state) {
    (void)state;
    tx_tensor *outs[3];
    for (int w = 0; w < 2; w++) {
        tx_dtype oi = w ? TX_INT64 : TX_INT32;
        unique3(T32(1, TU_DIMS(9), 1, 1, 2, 4, 4, 4, 7, 8, 8), oi, outs);
        tu_assert_shape(outs[0], TX_INT32, 1, TU_DIMS(5));
        tu_assert_values(outs[0], TU_VALS(1, 2, 4, 7, 8));
        tu_assert_shape(outs[1], oi, 1, TU_DIMS(9));
        tu_assert_values(outs[1], TU_VALS(0, 0, 1, 2, 2, 2, 3, 4, 4));
        tu_assert_shape(outs[2], oi, 1, TU_DIMS(5));
        tu_assert_values(outs[2], TU_VALS(2, 1, 3, 1, 2));
        free3(outs);
    }
    /* First-occurrence order, not sorted. */
    unique3(T64(1, TU_DIMS(6), 9, -3, 9, 5, -3, 0), TX_INT32, outs);
    tu_assert_values(outs[0], TU_VALS(9, -3, 5, 0));
    tu_assert_values(outs[1], TU_VALS(0, 1, 0, 2, 1, 3));
    tu_assert_values(outs[2], TU_VALS(2, 2, 1, 1));
    free3(outs);
}

static void test_unique_floats(void **state) {
    (void)state;
    tx_tensor *outs[3];
    /* float32: -0.0 == 0.0 (one value, the first seen kept); each NaN is its own value. */
    unique3(TF32(1, TU_DIMS(6), 0.0, -0.0, NAN, 1.0, NAN, -0.0), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_FLOAT32, 1, TU_DIMS(4));
    tu_assert_values(outs[0], TU_VALS(0.0, NAN, 1.0, NAN));
    assert_false(signbit(((float *)tx_tensor_data(outs[0]))[0]));
    tu_assert_values(outs[1], TU_VALS(0, 0, 1, 2, 3, 0));
    tu_assert_values(outs[2], TU_VALS(3, 1, 1, 1));
    free3(outs);
    unique3(tu_tensor(TX_FLOAT64, 1, TU_DIMS(3), TU_VALS(-0.0, 0.0, 2.5)), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_FLOAT64, 1, TU_DIMS(2));
    assert_true(signbit(((double *)tx_tensor_data(outs[0]))[0]));
    tu_assert_values(outs[2], TU_VALS(2, 1));
    free3(outs);
    /* float16 keys hash by bit pattern in TF (Eigen's std::hash), so -0.0 and 0.0 stay apart. */
    const uint16_t h[] = {0x0000, 0x8000, 0x7E00, 0x7E00, 0x3C00, 0x8000};
    unique3(half_tensor(6, h), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_FLOAT16, 1, TU_DIMS(5));
    const uint16_t want[] = {0x0000, 0x8000, 0x7E00, 0x7E00, 0x3C00};
    assert_memory_equal(tx_tensor_data(outs[0]), want, sizeof want);
    tu_assert_values(outs[1], TU_VALS(0, 1, 2, 3, 4, 1));
    free3(outs);
}

static void test_unique_other_dtypes(void **state) {
    (void)state;
    tx_tensor *outs[3];
    unique3(tu_strings(1, TU_DIMS(6), STRS("a", "b", "a", "", "", "ab")), TX_INT32, outs);
    assert_strings(outs[0], STRS("a", "b", "", "ab"));
    tu_assert_values(outs[1], TU_VALS(0, 1, 0, 2, 2, 3));
    tu_assert_values(outs[2], TU_VALS(2, 1, 2, 1));
    free3(outs);
    unique3(TB(1, TU_DIMS(3), 1, 0, 1), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_BOOL, 1, TU_DIMS(2));
    tu_assert_values(outs[0], TU_VALS(1, 0));
    free3(outs);
    const uint64_t u[] = {1ull << 63, 1, 1ull << 63};
    tx_tensor *x = NULL;
    assert_int_equal(tx_tensor_from_data(TX_UINT64, 1, TU_DIMS(3), u, sizeof u, &x), TX_OK);
    unique3(x, TX_INT64, outs);
    assert_memory_equal(tx_tensor_data(outs[0]), u, 16);
    free3(outs);
    /* Empty input. */
    unique3(tu_tensor(TX_INT16, 1, TU_DIMS(0), NULL), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_INT16, 1, TU_DIMS(0));
    tu_assert_shape(outs[1], TX_INT32, 1, TU_DIMS(0));
    tu_assert_shape(outs[2], TX_INT32, 1, TU_DIMS(0));
    free3(outs);
    /* Many values with collisions in the table: compare with a direct first-occurrence map. */
    enum { N = 20000 };
    x = tu_tensor(TX_INT32, 1, TU_DIMS(N), NULL);
    int32_t *xv = tx_tensor_data(x);
    uint32_t r = 12345;
    for (int i = 0; i < N; i++) {
        r = r * 1103515245u + 12345u;
        xv[i] = (int32_t)((r >> 8) % 3000) * 65536 - 7;
    }
    int32_t seen[3000];
    memset(seen, 0xFF, sizeof seen);
    int32_t want_idx[N], nu = 0;
    for (int i = 0; i < N; i++) {
        int32_t key = (xv[i] + 7) / 65536;
        if (seen[key] < 0) seen[key] = nu++;
        want_idx[i] = seen[key];
    }
    assert_int_equal(tx_unique_with_counts(x, TX_INT32, outs), TX_OK);
    assert_int_equal(tx_tensor_numel(outs[0]), nu);
    assert_memory_equal(tx_tensor_data(outs[1]), want_idx, sizeof want_idx);
    for (int i = 0; i < N; i++) assert_int_equal(((int32_t *)tx_tensor_data(outs[0]))[want_idx[i]], xv[i]);
    free3(outs);
    tx_tensor_free(x);
}

/* Large inputs go through per-thread tables merged in thread order: the result must be TF's
 * first-occurrence order and identical bytes for every thread count, whether the values are few
 * (runs and scattered), many (tables grow while scanning and at the merge), floats with -0.0
 * and NaNs, or values that first appear only after the seed that chunk 0 scans alone (`late`:
 * the first half of x holds half of the values, so later chunks meet new ones and need their
 * idx rewritten).  Integer keys include -1 / 0xFFFFFFFF, the bytes of an empty table slot. */
static uint64_t uq_mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return x;
}

static void test_unique_thread_counts(void **state) {
    (void)state;
    enum { N = 300000 };
    static const struct {
        tx_dtype dtype, out_idx;
        int64_t distinct; /* 0: runs of 1000 equal values */
        bool late;
    } cases[] = {
        {TX_INT32, TX_INT32, 1000}, {TX_INT64, TX_INT64, 200000}, {TX_UINT8, TX_INT32, 256},
        {TX_INT16, TX_INT64, 5000}, {TX_INT32, TX_INT32, 0},      {TX_FLOAT32, TX_INT32, 3000},
        {TX_FLOAT64, TX_INT64, 70000},
        /* keys below 65536 take the direct-mapped table, the others the hash, in one input; the
         * table grows past the parallel limit, so one thread takes over */
        {TX_UINT32, TX_INT32, 100000},
        {TX_INT32, TX_INT64, 1000, true}, {TX_FLOAT32, TX_INT32, 400, true}, {TX_UINT32, TX_INT32, 64, true},
        {TX_INT16, TX_INT32, 3000, true},
    };
    int32_t *key = malloc(N * sizeof *key), *seen = malloc(N * sizeof *seen), *want = malloc(N * sizeof *want);
    assert_non_null(key);
    assert_non_null(seen);
    assert_non_null(want);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const int64_t n = N;
        tx_tensor *x = NULL;
        assert_int_equal(tx_tensor_new(cases[c].dtype, 1, &n, &x), TX_OK);
        const int is_float = cases[c].dtype == TX_FLOAT32 || cases[c].dtype == TX_FLOAT64;
        for (int64_t i = 0; i < n; i++) {
            const int64_t d = cases[c].late && i < n / 2 ? cases[c].distinct / 2 : cases[c].distinct;
            int64_t j = d ? (int64_t)(uq_mix((uint64_t)i + 77 * c) % (uint64_t)d) : i / 1000;
            /* floats: key 1 is -0.0 (equal to key 0, 0.0) and key 2 a NaN (never equal) */
            double v = j == 0 ? 0.0 : j == 1 ? -0.0 : j == 2 ? NAN : (double)j * 1.5 - 700.0;
            if (is_float && j == 2) key[i] = -1 - (int32_t)i;
            else key[i] = is_float && j == 1 ? 0 : (int32_t)j;
            switch (cases[c].dtype) {
            case TX_INT32: ((int32_t *)tx_tensor_data(x))[i] = j == 5 ? -1 : (int32_t)(j * 40503 - 9999); break;
            case TX_INT64: ((int64_t *)tx_tensor_data(x))[i] = (int64_t)uq_mix((uint64_t)j); break; /* a bijection */
            case TX_UINT8: ((uint8_t *)tx_tensor_data(x))[i] = (uint8_t)j; break;
            case TX_INT16: ((int16_t *)tx_tensor_data(x))[i] = (int16_t)(j * 13 - 30000); break;
            case TX_UINT32: ((uint32_t *)tx_tensor_data(x))[i] = j == 3 ? 0xFFFFFFFFu : (uint32_t)(j < 70000 ? j : j * 977); break;
            case TX_FLOAT32: ((float *)tx_tensor_data(x))[i] = (float)v; break;
            default: ((double *)tx_tensor_data(x))[i] = v; break;
            }
        }
        /* The reference: first-occurrence ids of the generating keys (j -> value is injective
         * except the -0.0/NaN rules folded into key). */
        int32_t nu = 0;
        memset(seen, 0xFF, N * sizeof *seen);
        for (int64_t i = 0; i < n; i++) {
            if (key[i] < 0) {
                want[i] = nu++;
                continue;
            }
            if (seen[key[i]] < 0) seen[key[i]] = nu++;
            want[i] = seen[key[i]];
        }
        tx_tensor *ref[3];
        for (int t = 1; t <= 5; t++) {
            tx_set_num_threads(t);
            tx_tensor *outs[3];
            assert_int_equal(tx_unique_with_counts(x, cases[c].out_idx, outs), TX_OK);
            if (t == 1) {
                memcpy(ref, outs, sizeof ref);
                assert_int_equal(tx_tensor_numel(outs[0]), nu);
                for (int64_t i = 0; i < n; i++) {
                    const int64_t id = cases[c].out_idx == TX_INT64 ? ((int64_t *)tx_tensor_data(outs[1]))[i]
                                                                     : ((int32_t *)tx_tensor_data(outs[1]))[i];
                    assert_int_equal(id, want[i]);
                }
                int64_t total = 0;
                for (int64_t j = 0; j < nu; j++)
                    total += cases[c].out_idx == TX_INT64 ? ((int64_t *)tx_tensor_data(outs[2]))[j]
                                                          : ((int32_t *)tx_tensor_data(outs[2]))[j];
                assert_int_equal(total, n);
                continue;
            }
            for (int o = 0; o < 3; o++) {
                assert_int_equal(tx_tensor_nbytes(outs[o]), tx_tensor_nbytes(ref[o]));
                assert_memory_equal(tx_tensor_data(outs[o]), tx_tensor_data(ref[o]), tx_tensor_nbytes(ref[o]));
            }
            free3(outs);
        }
        /* y keeps the bits of each value's first occurrence (0.0, not a later -0.0) */
        const size_t w = tx_dtype_size(cases[c].dtype);
        for (int64_t i = n; i-- > 0;) seen[want[i]] = (int32_t)i; /* first position of each id */
        for (int64_t id = 0; id < nu; id++)
            assert_memory_equal((const char *)tx_tensor_data(ref[0]) + id * (int64_t)w,
                                (const char *)tx_tensor_data(x) + seen[id] * (int64_t)w, w);
        free3(ref);
        tx_tensor_free(x);
    }
    tx_set_num_threads(0);
    free(key);
    free(seen);
    free(want);
}

/* Every allocation of the parallel path (tables, seeded chunks, growth, the merge) failing in
 * turn, at 1-3 threads: resource_exhausted with no output and nothing leaked, until the call
 * succeeds.  Few values with late ones (the seed, then chunks with values of their own) and many
 * values (the chunks outgrow the parallel limit and chunk 0 goes on alone). */
static void test_unique_alloc_failures(void **state) {
    (void)state;
    enum { N = 300000 };
    const int64_t n = N;
    tx_tensor *few = NULL, *many = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, 1, &n, &few), TX_OK);
    assert_int_equal(tx_tensor_new(TX_INT64, 1, &n, &many), TX_OK);
    for (int64_t i = 0; i < n; i++) {
        ((int32_t *)tx_tensor_data(few))[i] = (int32_t)(uq_mix((uint64_t)i) % (i < n / 2 ? 300u : 600u));
        ((int64_t *)tx_tensor_data(many))[i] = (int64_t)(uq_mix((uint64_t)i) % 200000u);
    }
    tu_alloc_install();
    for (int t = 1; t <= 3; t++) {
        tx_set_num_threads(t);
        for (int which = 0; which < 2; which++) {
            long k = 1;
            for (;; k++) {
                tu_alloc_fail_at(k);
                tx_tensor *outs[3] = {NULL, NULL, NULL};
                tx_status st = tx_unique_with_counts(which ? many : few, TX_INT32, outs);
                if (tu_alloc_sweep_step(st, outs[0], outs)) break;
            }
            assert_true(k > 4); /* outputs, tables and value lists were each made to fail */
        }
    }
    tu_alloc_uninstall();
    tx_set_num_threads(0);
    tx_tensor_free(few);
    tx_tensor_free(many);
}

static void test_unique_errors(void **state) {
    (void)state;
    tx_tensor *outs[3] = {(tx_tensor *)1, (tx_tensor *)1, (tx_tensor *)1};
    tx_tensor *m = T32(2, TU_DIMS(1, 2), 1, 2);
    tu_assert_error(tx_unique_with_counts(m, TX_INT32, outs), TX_INVALID_ARGUMENT, "x must be 1-D");
    assert_null(outs[0]);
    assert_null(outs[2]);
    tx_tensor_free(m);
    m = T32(0, NULL, 1);
    tu_assert_error(tx_unique_with_counts(m, TX_INT32, outs), TX_INVALID_ARGUMENT, "got rank 0");
    /* TF 2.21 decides: a dtype the op definition does not list is unimplemented */
    tu_assert_error(tx_unique_with_counts(m, TX_FLOAT32, outs), TX_UNIMPLEMENTED,
                    "out_idx must be int32 or int64, got float32");
    tx_tensor_free(m);
    m = tu_tensor(TX_COMPLEX64, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_unique_with_counts(m, TX_INT32, outs), TX_UNIMPLEMENTED, "dtype complex64 is not supported");
    tx_tensor_free(m);
    m = tu_tensor(TX_QINT8, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_unique_with_counts(m, TX_INT32, outs), TX_UNIMPLEMENTED, "dtype qint8");
    tx_tensor_free(m);
    tu_assert_error(tx_unique_with_counts(NULL, TX_INT32, outs), TX_INVALID_ARGUMENT, "x is NULL");
    tu_assert_error(tx_unique_with_counts(NULL, TX_INT32, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
}

/* ---- dynamic_partition ----------------------------------------------------------------------- */

static void test_dynamic_partition(void **state) {
    (void)state;
    tx_tensor *outs[4];
    /* Scalar partitions: outputs[0] is empty with shape [0, 2], outputs[1] = [[10, 20]]. */
    tx_tensor *data = T32(1, TU_DIMS(2), 10, 20), *part = T32(0, NULL, 1);
    assert_int_equal(tx_dynamic_partition(data, part, 2, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(0, 2));
    tu_assert_shape(outs[1], TX_INT32, 2, TU_DIMS(1, 2));
    tu_assert_values(outs[1], TU_VALS(10, 20));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    tx_tensor_free(data);
    tx_tensor_free(part);
    /* Vector partitions.  The page gives partitions [0, 0, 1, 1, 0, 1] with 5 data values and
     * outputs [10, 20, 50] / [30, 40]; TF rejects that (data.shape must start with
     * partitions.shape).  TF's own docs use partitions [0, 0, 1, 1, 0]. */
    data = T32(1, TU_DIMS(5), 10, 20, 30, 40, 50);
    part = T32(1, TU_DIMS(6), 0, 0, 1, 1, 0, 1);
    outs[0] = outs[1] = (tx_tensor *)1;
    tu_assert_error(tx_dynamic_partition(data, part, 2, outs), TX_INVALID_ARGUMENT,
                    "data.shape must start with partitions.shape, got data.shape = [5], partitions.shape = [6]");
    assert_null(outs[0]);
    assert_null(outs[1]);
    tx_tensor_free(part);
    part = T32(1, TU_DIMS(5), 0, 0, 1, 1, 0);
    assert_int_equal(tx_dynamic_partition(data, part, 2, outs), TX_OK);
    tu_assert_values(outs[0], TU_VALS(10, 20, 50));
    tu_assert_values(outs[1], TU_VALS(30, 40));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    /* Unused partitions are empty. */
    assert_int_equal(tx_dynamic_partition(data, part, 4, outs), TX_OK);
    tu_assert_shape(outs[2], TX_INT32, 1, TU_DIMS(0));
    tu_assert_shape(outs[3], TX_INT32, 1, TU_DIMS(0));
    for (int i = 0; i < 4; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(part);
    tx_tensor_free(data);
    /* 2-D partitions over [2, 2, 2] data: slices [js, :] in row-major order of js. */
    data = iota(TX_INT32, 3, TU_DIMS(2, 2, 2));
    part = T32(2, TU_DIMS(2, 2), 1, 0, 2, 1);
    assert_int_equal(tx_dynamic_partition(data, part, 3, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(1, 2));
    tu_assert_values(outs[0], TU_VALS(2, 3));
    tu_assert_shape(outs[1], TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_values(outs[1], TU_VALS(0, 1, 6, 7));
    tu_assert_values(outs[2], TU_VALS(4, 5));
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(part);
    /* Errors. */
    part = T32(2, TU_DIMS(2, 2), 0, 1, 2, 0);
    tu_assert_error(tx_dynamic_partition(data, part, 2, outs), TX_INVALID_ARGUMENT,
                    "partitions[1,0] = 2 is not in [0, 2)");
    assert_null(outs[0]);
    tx_tensor_free(part);
    part = T32(1, TU_DIMS(2), -1, 0);
    tu_assert_error(tx_dynamic_partition(data, part, 2, outs), TX_INVALID_ARGUMENT, "partitions[0] = -1 is not in [0, 2)");
    tu_assert_error(tx_dynamic_partition(data, part, 0, outs), TX_INVALID_ARGUMENT, "num_partitions must be in [1, 2147483647], got 0");
    tx_tensor_free(part);
    part = T64(1, TU_DIMS(2), 0, 0);
    tu_assert_error(tx_dynamic_partition(data, part, 2, outs), TX_INVALID_ARGUMENT, "partitions must be int32, got int64");
    tu_assert_error(tx_dynamic_partition(NULL, part, 2, outs), TX_INVALID_ARGUMENT, "data is NULL");
    tu_assert_error(tx_dynamic_partition(data, part, 2, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
    tx_tensor_free(part);
    tx_tensor_free(data);
    /* Strings. */
    data = tu_strings(1, TU_DIMS(3), STRS("x", "yy", "z"));
    part = T32(1, TU_DIMS(3), 1, 1, 0);
    assert_int_equal(tx_dynamic_partition(data, part, 2, outs), TX_OK);
    tx_tensor_free(data);
    assert_strings(outs[0], STRS("z"));
    assert_strings(outs[1], STRS("x", "yy"));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    tx_tensor_free(part);
}

/* ---- dynamic_stitch -------------------------------------------------------------------------- */

static void test_dynamic_stitch(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* The page's example.  The page says merged.shape = [max(indices)] + constant; it is
     * [max(indices) + 1] + constant: 7 rows here. */
    tx_tensor *ind[3] = {T32(0, NULL, 6), T32(1, TU_DIMS(2), 4, 1), T32(2, TU_DIMS(2, 2), 5, 2, 0, 3)};
    tx_tensor *dat[3] = {T32(1, TU_DIMS(2), 61, 62), T32(2, TU_DIMS(2, 2), 41, 42, 11, 12),
                         T32(3, TU_DIMS(2, 2, 2), 51, 52, 21, 22, 1, 2, 31, 32)};
    assert_int_equal(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)dat, 3, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(7, 2));
    tu_assert_values(o, TU_VALS(1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62));
    tx_tensor_free(o);
    /* Shape errors. */
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)dat, 2, &o),
                    TX_INVALID_ARGUMENT, "indices has 3 tensors but data has 2");
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 0, (const tx_tensor *const *)dat, 0, &o),
                    TX_INVALID_ARGUMENT, "at least 1 tensor");
    tx_tensor *three = T32(1, TU_DIMS(3), 0, 0, 0);
    tx_tensor *swap[3] = {dat[0], three, dat[2]};
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)swap, 3, &o),
                    TX_INVALID_ARGUMENT, "data[1].shape = [3] does not start with indices[1].shape = [2]");
    tx_tensor_free(three);
    tx_tensor *wide = T32(2, TU_DIMS(2, 3), 0, 0, 0, 0, 0, 0);
    tx_tensor *d2[3] = {dat[0], wide, dat[2]};
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)d2, 3, &o),
                    TX_INVALID_ARGUMENT, "need data[0].shape[0:] = data[1].shape[1:]");
    tx_tensor_free(wide);
    tx_tensor *fl = TF32(1, TU_DIMS(2), 0, 0);
    tx_tensor *d3[3] = {dat[0], fl, dat[2]};
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)d3, 3, &o),
                    TX_INVALID_ARGUMENT, "data[1] is float32 but data[0] is int32");
    tx_tensor_free(fl);
    for (int i = 0; i < 3; i++) {
        tx_tensor_free(ind[i]);
        tx_tensor_free(dat[i]);
    }
    /* Later entries win, within one tensor and across tensors; unnamed rows are zero. */
    tx_tensor *a = T32(1, TU_DIMS(4), 0, 1, 1, 5), *b = T32(1, TU_DIMS(1), 1);
    tx_tensor *da = TF32(1, TU_DIMS(4), 10, 20, 30, 60), *db = TF32(1, TU_DIMS(1), 99);
    const tx_tensor *i2[2] = {a, b}, *x2[2] = {da, db};
    assert_int_equal(tx_dynamic_stitch(i2, 2, x2, 2, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 1, TU_DIMS(6));
    tu_assert_values(o, TU_VALS(10, 99, 0, 0, 0, 60));
    tx_tensor_free(o);
    assert_int_equal(tx_dynamic_stitch(i2, 1, x2, 1, &o), TX_OK);
    tu_assert_values(o, TU_VALS(10, 30, 0, 0, 0, 60));
    tx_tensor_free(o);
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(da);
    tx_tensor_free(db);
    /* TF 2.21 decides: a negative index fails even when the merge is empty (all indices
     * negative, or data slices of 0 elements); the oracle found 0 rows here before. */
    a = T32(1, TU_DIMS(2), -1, -5);
    da = TF32(1, TU_DIMS(2), 1, 2);
    const tx_tensor *i1[1] = {a}, *x1[1] = {da};
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "indices[0][0] = -1 is not in [0, 0)");
    tx_tensor_free(da);
    da = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 0), NULL);
    tx_tensor_free(a);
    a = T32(1, TU_DIMS(2), 1, -2);
    i1[0] = a;
    x1[0] = da;
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "indices[0][1] = -2 is not in [0, 2)");
    assert_null(o);
    tx_tensor_free(a);
    a = T32(2, TU_DIMS(1, 2), 2, -1);
    i1[0] = a;
    tx_tensor *da2 = TF32(2, TU_DIMS(1, 2), 1, 2);
    x1[0] = da2;
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "indices[0][0,1] = -1 is not in [0, 3)");
    tx_tensor_free(a);
    tx_tensor_free(da2);
    a = T64(1, TU_DIMS(2), 0, 1);
    i1[0] = a;
    x1[0] = da;
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "indices[0] must be int32, got int64");
    tx_tensor_free(a);
    /* INT32_MAX + 1 rows would overflow TF's int row count. */
    a = T32(1, TU_DIMS(2), 2147483647.0, 0);
    i1[0] = a;
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "makes 2147483648 rows");
    tx_tensor_free(a);
    tx_tensor_free(da);
    /* Strings: unnamed rows are empty strings. */
    a = T32(1, TU_DIMS(2), 0, 3);
    tx_tensor *ds = tu_strings(1, TU_DIMS(2), STRS("first", "last"));
    i1[0] = a;
    x1[0] = ds;
    assert_int_equal(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_OK);
    tx_tensor_free(ds);
    assert_strings(o, STRS("first", "", "", "last"));
    tx_tensor_free(o);
    tx_tensor_free(a);
}

/* ---- boolean_mask ---------------------------------------------------------------------------- */

static void test_boolean_mask(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* 1-D example */
    tx_tensor *t = T32(1, TU_DIMS(4), 0, 1, 2, 3), *m = TB(1, TU_DIMS(4), 1, 0, 1, 0);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(2));
    tu_assert_values(o, TU_VALS(0, 2));
    tx_tensor_free(o);
    tx_tensor_free(t);
    tx_tensor_free(m);
    /* 2-D example */
    t = T32(2, TU_DIMS(3, 2), 1, 2, 3, 4, 5, 6);
    m = TB(1, TU_DIMS(3), 1, 0, 1);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_values(o, TU_VALS(1, 2, 5, 6));
    tx_tensor_free(o);
    tx_tensor_free(m);
    /* All false: zero rows. */
    m = TB(1, TU_DIMS(3), 0, 0, 0);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(0, 2));
    tx_tensor_free(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
    /* A 2-D mask over a [2, 3, 2] tensor, and a 1-D mask at axis 1 (also written -2). */
    t = iota(TX_INT32, 3, TU_DIMS(2, 3, 2));
    m = TB(2, TU_DIMS(2, 3), 1, 0, 1, 0, 0, 1);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(3, 2));
    tu_assert_values(o, TU_VALS(0, 1, 4, 5, 10, 11));
    tx_tensor_free(o);
    tx_tensor_free(m);
    m = TB(1, TU_DIMS(3), 0, 1, 1);
    for (int64_t axis = -2; axis <= 1; axis += 3) {
        assert_int_equal(tx_boolean_mask(t, m, axis, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 2, 2));
        tu_assert_values(o, TU_VALS(2, 3, 4, 5, 8, 9, 10, 11));
        tx_tensor_free(o);
    }
    /* TF slices tensor.shape[axis:axis+K] the Python way: [-1:0] is empty, so axis -1 fails. */
    tx_tensor *m2 = TB(1, TU_DIMS(2), 1, 1);
    tu_assert_error(tx_boolean_mask(t, m2, -1, &o), TX_INVALID_ARGUMENT,
                    "mask shape [2] does not match tensor.shape[-1:0] of tensor shape [2,3,2]");
    assert_null(o);
    assert_int_equal(tx_boolean_mask(t, m2, 2, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 3, 2));
    tx_tensor_free(o);
    tu_assert_error(tx_boolean_mask(t, m2, 1, &o), TX_INVALID_ARGUMENT, "does not match tensor.shape[1:2]");
    tu_assert_error(tx_boolean_mask(t, m2, 3, &o), TX_INVALID_ARGUMENT, "does not match");
    tx_tensor_free(m2);
    tx_tensor *ms = TB(0, NULL, 1);
    tu_assert_error(tx_boolean_mask(t, ms, 0, &o), TX_INVALID_ARGUMENT, "mask cannot be a scalar");
    tx_tensor_free(ms);
    /* TF 2.21 decides the mask dtypes (its Where): numbers count when nonzero; float16 has no CPU
     * kernel; float8, 4-bit and string masks are not in its list. */
    tx_tensor *mi = T32(1, TU_DIMS(2), 0, 7);
    assert_int_equal(tx_boolean_mask(t, mi, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(1, 3, 2));
    tu_assert_values(o, TU_VALS(6, 7, 8, 9, 10, 11));
    tx_tensor_free(o);
    tx_tensor_free(mi);
    const uint16_t half[2] = {0x3c00, 0};
    assert_int_equal(tx_tensor_from_data(TX_FLOAT16, 1, TU_DIMS(2), half, sizeof half, &mi), TX_OK);
    tu_assert_error(tx_boolean_mask(t, mi, 0, &o), TX_UNIMPLEMENTED, "mask dtype float16 is not supported");
    tx_tensor_free(mi);
    const uint8_t nib[2] = {1, 0};
    assert_int_equal(tx_tensor_from_data(TX_INT4, 1, TU_DIMS(2), nib, sizeof nib, &mi), TX_OK);
    tu_assert_error(tx_boolean_mask(t, mi, 0, &o), TX_UNIMPLEMENTED, "mask must be bool or a number type");
    tx_tensor_free(mi);
    tu_assert_error(tx_boolean_mask(NULL, m, 0, &o), TX_INVALID_ARGUMENT, "tensor is NULL");
    tx_tensor *big = TB(4, TU_DIMS(2, 3, 2, 1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    tu_assert_error(tx_boolean_mask(t, big, 0, &o), TX_INVALID_ARGUMENT, "does not match");
    tx_tensor_free(big);
    tx_tensor_free(m);
    tx_tensor_free(t);
    /* Strings. */
    t = tu_strings(1, TU_DIMS(3), STRS("keep", "drop", "also"));
    m = TB(1, TU_DIMS(3), 1, 0, 1);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tx_tensor_free(t);
    assert_strings(o, STRS("keep", "also"));
    tx_tensor_free(o);
    tx_tensor_free(m);
}

/* ---- one_hot --------------------------------------------------------------------------------- */

static void test_one_hot_page_examples(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    tx_tensor *on = TF32(0, NULL, 5.0), *off = TF32(0, NULL, 0.0), *one = TF32(0, NULL, 1.0);
    tx_tensor *i1 = T32(1, TU_DIMS(4), 0, 2, -1, 1);
    assert_int_equal(tx_one_hot(i1, 3, on, off, -1, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(4, 3));
    tu_assert_values(o, TU_VALS(5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0));
    tx_tensor_free(o);
    tx_tensor *i2 = T64(2, TU_DIMS(2, 2), 0, 2, 1, -1);
    assert_int_equal(tx_one_hot(i2, 3, one, off, -1, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 3, TU_DIMS(2, 2, 3));
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0));
    tx_tensor_free(o);
    /* Default on/off values. */
    tx_tensor *i3 = T32(1, TU_DIMS(3), 0, 1, 2);
    assert_int_equal(tx_one_hot(i3, 3, NULL, NULL, -1, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(3, 3));
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 1, 0, 0, 0, 1));
    tx_tensor_free(o);
    /* axis 0 on a vector: depth x features */
    assert_int_equal(tx_one_hot(i1, 3, NULL, NULL, 0, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(3, 4));
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0));
    tx_tensor_free(o);
    /* axis 1 on a matrix: batch x depth x features; axis 0: depth x batch x features */
    assert_int_equal(tx_one_hot(i2, 3, NULL, NULL, 1, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 3, TU_DIMS(2, 3, 2));
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_one_hot(i2, 3, NULL, NULL, 0, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 3, TU_DIMS(3, 2, 2));
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0));
    tx_tensor_free(o);
    /* axis 2 = rank(indices) is the same as -1 */
    assert_int_equal(tx_one_hot(i2, 3, NULL, NULL, 2, TX_FLOAT32, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0));
    tx_tensor_free(o);
    tx_tensor_free(i1);
    tx_tensor_free(i2);
    tx_tensor_free(i3);
    tx_tensor_free(on);
    tx_tensor_free(off);
    tx_tensor_free(one);
}

static void test_one_hot_types(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* Scalar indices give a vector; an index >= depth an all-off row. */
    tx_tensor *s = T32(0, NULL, 1), *big = T32(0, NULL, 3);
    assert_int_equal(tx_one_hot(s, 3, NULL, NULL, -1, TX_INT64, &o), TX_OK);
    tu_assert_shape(o, TX_INT64, 1, TU_DIMS(3));
    tu_assert_values(o, TU_VALS(0, 1, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_one_hot(big, 3, NULL, NULL, -1, TX_BOOL, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0));
    tx_tensor_free(o);
    /* uint8 and int8 indices */
    tx_tensor *u8 = tu_tensor(TX_UINT8, 1, TU_DIMS(2), TU_VALS(2, 200));
    assert_int_equal(tx_one_hot(u8, 3, NULL, NULL, -1, TX_INT8, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 1, 0, 0, 0));
    tx_tensor_free(o);
    tx_tensor *i8 = tu_tensor(TX_INT8, 1, TU_DIMS(2), TU_VALS(-1, 1));
    assert_int_equal(tx_one_hot(i8, 3, NULL, NULL, 0, TX_INT16, &o), TX_OK);
    tu_assert_shape(o, TX_INT16, 2, TU_DIMS(3, 2));
    tu_assert_values(o, TU_VALS(0, 0, 0, 1, 0, 0));
    tx_tensor_free(o);
    /* Default values in every width: float16 1.0 is 0x3C00, complex64 1 is (1, 0). */
    assert_int_equal(tx_one_hot(s, 2, NULL, NULL, -1, TX_FLOAT16, &o), TX_OK);
    const uint16_t hw[] = {0, 0x3C00};
    assert_memory_equal(tx_tensor_data(o), hw, 4);
    tx_tensor_free(o);
    assert_int_equal(tx_one_hot(s, 2, NULL, NULL, -1, TX_COMPLEX128, &o), TX_OK);
    const double cw[] = {0, 0, 1, 0};
    assert_memory_equal(tx_tensor_data(o), cw, sizeof cw);
    tx_tensor_free(o);
    /* depth 0 */
    assert_int_equal(tx_one_hot(u8, 0, NULL, NULL, -1, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(2, 0));
    tx_tensor_free(o);
    /* Strings: the output shares the on/off values' storage. */
    tx_tensor *yes = tu_strings(0, NULL, STRS("yes")), *no = tu_strings(0, NULL, STRS("no"));
    tx_tensor *v = T32(2, TU_DIMS(2, 1), 1, 0);
    assert_int_equal(tx_one_hot(v, 2, yes, no, 1, TX_STRING, &o), TX_OK);
    tx_tensor_free(yes);
    tx_tensor_free(no);
    tu_assert_shape(o, TX_STRING, 3, TU_DIMS(2, 2, 1));
    assert_strings(o, STRS("no", "yes", "yes", "no"));
    tx_tensor_free(o);
    tx_tensor_free(v);
    tx_tensor_free(u8);
    tx_tensor_free(i8);
    tx_tensor_free(big);
    tx_tensor_free(s);
}

static void test_one_hot_errors(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    tx_tensor *i = T32(1, TU_DIMS(2), 0, 1), *f = TF32(1, TU_DIMS(2), 0, 1);
    tx_tensor *on_i = T32(0, NULL, 1), *on_v = TF32(1, TU_DIMS(1), 1);
    tu_assert_error(tx_one_hot(f, 3, NULL, NULL, -1, TX_FLOAT32, &o), TX_UNIMPLEMENTED,
                    "indices must be uint8, int8, int32 or int64, got float32");
    tu_assert_error(tx_one_hot(i, 3, NULL, NULL, -2, TX_FLOAT32, &o), TX_INVALID_ARGUMENT,
                    "axis must be -1 or in [0, 1], got -2");
    tu_assert_error(tx_one_hot(i, 3, NULL, NULL, 2, TX_FLOAT32, &o), TX_INVALID_ARGUMENT, "got 2");
    tu_assert_error(tx_one_hot(i, -1, NULL, NULL, -1, TX_FLOAT32, &o), TX_INVALID_ARGUMENT,
                    "depth must be non-negative, got -1");
    tu_assert_error(tx_one_hot(i, 1LL << 31, NULL, NULL, -1, TX_FLOAT32, &o), TX_INVALID_ARGUMENT,
                    "depth 2147483648 does not fit int32");
    tu_assert_error(tx_one_hot(i, 3, on_i, NULL, -1, TX_FLOAT32, &o), TX_INVALID_ARGUMENT,
                    "on_value is int32 but dtype is float32");
    tu_assert_error(tx_one_hot(i, 3, NULL, on_v, -1, TX_FLOAT32, &o), TX_INVALID_ARGUMENT,
                    "off_value must be a scalar, but got shape [1]");
    tu_assert_error(tx_one_hot(i, 3, NULL, NULL, -1, TX_STRING, &o), TX_INVALID_ARGUMENT,
                    "on_value must be given for a string dtype");
    tu_assert_error(tx_one_hot(i, 3, NULL, NULL, -1, (tx_dtype)99, &o), TX_INVALID_ARGUMENT, "unknown dtype 99");
    tu_assert_error(tx_one_hot(NULL, 3, NULL, NULL, -1, TX_FLOAT32, &o), TX_INVALID_ARGUMENT, "indices is NULL");
    assert_null(o);
    tx_tensor_free(i);
    tx_tensor_free(f);
    tx_tensor_free(on_i);
    tx_tensor_free(on_v);
}

/* ---- sequence_mask --------------------------------------------------------------------------- */

static void test_sequence_mask(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* tf.sequence_mask([1, 3, 2], 5) */
    tx_tensor *len = T32(1, TU_DIMS(3), 1, 3, 2), *five = T32(0, NULL, 5);
    assert_int_equal(tx_sequence_mask(len, five, TX_BOOL, &o), TX_OK);
    tu_assert_shape(o, TX_BOOL, 2, TU_DIMS(3, 5));
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0));
    tx_tensor_free(o);
    /* maxlen absent: max(lengths) = 3 */
    assert_int_equal(tx_sequence_mask(len, NULL, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(3, 3));
    tu_assert_values(o, TU_VALS(1, 0, 0, 1, 1, 1, 1, 1, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_sequence_mask(len, five, TX_FLOAT16, &o), TX_OK);
    assert_memory_equal(tx_tensor_data(o), ((const uint16_t[]){0x3C00, 0, 0, 0, 0}), 10);
    tx_tensor_free(o);
    tx_tensor_free(len);
    /* 2-D lengths, negative and too-long lengths, an int64 maxlen. */
    len = T64(2, TU_DIMS(2, 2), 1, -4, 9, 0);
    tx_tensor *three = T64(0, NULL, 3);
    assert_int_equal(tx_sequence_mask(len, three, TX_INT32, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 2, 3));
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0));
    tx_tensor_free(o);
    tx_tensor_free(len);
    /* TF casts lengths to maxlen's dtype: 2^32 + 2 becomes 2 with an int32 maxlen. */
    len = T64(1, TU_DIMS(1), 4294967298.0);
    assert_int_equal(tx_sequence_mask(len, five, TX_BOOL, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 1, 0, 0, 0));
    tx_tensor_free(o);
    tx_tensor *five64 = T64(0, NULL, 5);
    assert_int_equal(tx_sequence_mask(len, five64, TX_BOOL, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 1, 1, 1, 1));
    tx_tensor_free(o);
    tx_tensor_free(five64);
    tx_tensor_free(len);
    /* Empty lengths without maxlen: [0, 0]; all-negative lengths: maxlen 0. */
    len = tu_tensor(TX_UINT8, 1, TU_DIMS(0), NULL);
    assert_int_equal(tx_sequence_mask(len, NULL, TX_BOOL, &o), TX_OK);
    tu_assert_shape(o, TX_BOOL, 2, TU_DIMS(0, 0));
    tx_tensor_free(o);
    tx_tensor_free(len);
    len = tu_tensor(TX_INT16, 1, TU_DIMS(2), TU_VALS(-3, -1));
    assert_int_equal(tx_sequence_mask(len, NULL, TX_BOOL, &o), TX_OK);
    tu_assert_shape(o, TX_BOOL, 2, TU_DIMS(2, 0));
    tx_tensor_free(o);
    /* Errors. */
    tx_tensor *neg = T32(0, NULL, -1), *vec = T32(1, TU_DIMS(1), 2), *fl = TF32(0, NULL, 2);
    tu_assert_error(tx_sequence_mask(len, neg, TX_BOOL, &o), TX_INVALID_ARGUMENT, "maxlen -1 is negative");
    tu_assert_error(tx_sequence_mask(len, vec, TX_BOOL, &o), TX_INVALID_ARGUMENT, "maxlen must be a scalar, got shape [1]");
    tu_assert_error(tx_sequence_mask(len, fl, TX_BOOL, &o), TX_UNIMPLEMENTED, "maxlen must be int32 or int64, got float32");
    tu_assert_error(tx_sequence_mask(fl, NULL, TX_BOOL, &o), TX_UNIMPLEMENTED, "lengths must be an integer tensor, got float32");
    tu_assert_error(tx_sequence_mask(len, five, TX_STRING, &o), TX_UNIMPLEMENTED, "dtype string is not supported");
    /* TF 2.21 decides: its Cast has no bool kernel to float8 and 4-bit dtypes. */
    tu_assert_error(tx_sequence_mask(len, five, TX_FLOAT8_E5M2, &o), TX_UNIMPLEMENTED, "dtype float8_e5m2 is not supported");
    tu_assert_error(tx_sequence_mask(len, five, TX_UINT4, &o), TX_UNIMPLEMENTED, "dtype uint4 is not supported");
    tu_assert_error(tx_sequence_mask(NULL, five, TX_BOOL, &o), TX_INVALID_ARGUMENT, "lengths is NULL");
    assert_null(o);
    tx_tensor_free(neg);
    tx_tensor_free(vec);
    tx_tensor_free(fl);
    tx_tensor_free(len);
    tx_tensor_free(five);
    tx_tensor_free(three);
}

/* ---- hostile shapes --------------------------------------------------------------------------- */

static void test_max_rank(void **state) {
    (void)state;
    /* Results whose rank would pass TX_MAX_RANK are clean errors; rank-254 inputs work. */
    int64_t ones[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) ones[i] = 1;
    tx_tensor *big = tu_tensor(TX_INT32, TX_MAX_RANK, ones, NULL), *o = NULL;
    tx_tensor *bmask = tu_tensor(TX_BOOL, TX_MAX_RANK, ones, TU_VALS(1));
    tu_assert_error(tx_gather(big, big, 0, 0, &o), TX_INVALID_ARGUMENT, "rank");
    assert_null(o);
    tu_assert_error(tx_one_hot(big, 2, NULL, NULL, -1, TX_FLOAT32, &o), TX_INVALID_ARGUMENT, "rank");
    tu_assert_error(tx_sequence_mask(big, NULL, TX_BOOL, &o), TX_INVALID_ARGUMENT, "rank");
    assert_int_equal(tx_boolean_mask(big, bmask, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(1));
    tx_tensor_free(o);
    /* tf.boolean_mask (python/ops/array_ops.py) first reshapes tensor to the result's rank
     * rank - K + 1, and ReshapeOp (tensorflow/core/kernels/reshape_op.h) wants fewer than 254
     * dims: a 1-D mask on a rank-254 tensor fails, a 2-D one (rank 253) works. */
    tx_tensor *m1 = TB(1, TU_DIMS(1), 1), *m2 = TB(2, TU_DIMS(1, 1), 0);
    tu_assert_error(tx_boolean_mask(big, m1, 0, &o), TX_INVALID_ARGUMENT,
                    "boolean_mask: the result would have rank 254: too many dimensions: must be < 254");
    tu_assert_error(tx_boolean_mask(big, m1, 200, &o), TX_INVALID_ARGUMENT, "rank 254: too many dimensions");
    assert_null(o);
    assert_int_equal(tx_boolean_mask(big, m2, 5, &o), TX_OK);
    assert_int_equal(tx_tensor_rank(o), 253);
    assert_int_equal(tx_tensor_dim(o, 5), 0);
    tx_tensor_free(o);
    tx_tensor_free(m1);
    tx_tensor_free(m2);
    tx_tensor *outs[1];
    assert_int_equal(tx_dynamic_partition(big, big, 1, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 1, TU_DIMS(1));
    tx_tensor_free(outs[0]);
    /* gather_nd with a 254-long index vector picks the one element. */
    int64_t idims[2] = {1, TX_MAX_RANK};
    tx_tensor *ix = tu_tensor(TX_INT64, 2, idims, NULL);
    assert_int_equal(tx_gather_nd(big, ix, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(1));
    tx_tensor_free(o);
    ((int64_t *)tx_tensor_data(ix))[TX_MAX_RANK - 1] = 1;
    tu_assert_error(tx_gather_nd(big, ix, &o), TX_INVALID_ARGUMENT, "does not index into param shape");
    tx_tensor_free(ix);
    tx_tensor_free(bmask);
    tx_tensor_free(big);
    /* gather_nd with K = 0 and an index count that overflows int64. */
    tx_tensor *p = T32(1, TU_DIMS(1), 5);
    int64_t huge[3] = {1LL << 40, 1LL << 40, 0};
    tx_tensor *k0 = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, 3, huge, &k0), TX_OK);
    tu_assert_error(tx_gather_nd(p, k0, &o), TX_INVALID_ARGUMENT, "too many elements for int indexing");
    tx_tensor_free(k0);
    tx_tensor_free(p);
}

/* ---- allocation failure ---------------------------------------------------------------------- */

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(4, 3));
    tx_tensor *sp = tu_strings(1, TU_DIMS(3), STRS("a", "bb", "ccc"));
    tx_tensor *ix = T32(1, TU_DIMS(3), 2, 0, 1);
    tx_tensor *nd = T32(2, TU_DIMS(2, 2), 0, 1, 3, 2);
    tx_tensor *x = tu_strings(1, TU_DIMS(4), STRS("a", "b", "a", "c"));
    tx_tensor *part = T32(1, TU_DIMS(4), 1, 0, 2, 1);
    tx_tensor *m = TB(1, TU_DIMS(3), 1, 0, 1);
    tx_tensor *on = tu_strings(0, NULL, STRS("on")), *off = tu_strings(0, NULL, STRS("off"));
    tx_tensor *len = T32(1, TU_DIMS(3), 1, 3, 2);
    const tx_tensor *si[2] = {ix, ix}, *sd[2] = {sp, sp};
    tu_alloc_install();
    for (int op = 0; op < 8; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[3] = {NULL, NULL, NULL};
            tx_status st;
            switch (op) {
            case 0: st = tx_gather(sp, ix, 0, 0, &o); break;
            case 1: st = tx_gather_nd(p, nd, &o); break;
            case 2: st = tx_unique_with_counts(x, TX_INT64, outs); break;
            case 3: st = tx_dynamic_partition(p, part, 3, outs); break;
            case 4: st = tx_dynamic_stitch(si, 2, sd, 2, &o); break;
            case 5: st = tx_boolean_mask(sp, m, 0, &o); break;
            case 6: st = tx_one_hot(ix, 4, on, off, 0, TX_STRING, &o); break;
            default: st = tx_sequence_mask(len, NULL, TX_FLOAT64, &o); break;
            }
            if (st == TX_OK) {
                tx_tensor_free(o);
                for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(o);
            for (int i = 0; i < 3; i++) assert_null(outs[i]);
            assert_int_equal(tu_alloc_live(), 0);
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(p);
    tx_tensor_free(sp);
    tx_tensor_free(ix);
    tx_tensor_free(nd);
    tx_tensor_free(x);
    tx_tensor_free(part);
    tx_tensor_free(m);
    tx_tensor_free(on);
    tx_tensor_free(off);
    tx_tensor_free(len);
}

/* ---- out-of-range policies (tx_*_ex) ------------------------------------------------------- */

static tx_tensor *i64_tensor(size_t rank, const int64_t *dims, const int64_t *v) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT64, rank, dims, v, (size_t)n * 8, &t), TX_OK);
    return t;
}

static tx_tensor *i32_tensor(size_t rank, const int64_t *dims, const int32_t *v) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT32, rank, dims, v, (size_t)n * 4, &t), TX_OK);
    return t;
}

#define I64S(...) ((const int64_t[]){__VA_ARGS__})
#define I32S(...) ((const int32_t[]){__VA_ARGS__})

static void test_oob_gather(void **state) {
    (void)state;
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(4, 3)), *o = NULL;
    /* Negative, just past the end, huge and the extreme int64 values. */
    tx_tensor *ix = i64_tensor(1, TU_DIMS(6), I64S(-1, 4, INT64_MAX, INT64_MIN, 2, -5));
    tu_assert_error(tx_gather_oob(p, ix, 0, 0, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "gather: indices[0] = -1 is not in [0, 4)");
    assert_null(o);
    assert_int_equal(tx_gather_oob(p, ix, 0, 0, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(6, 3));
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 7, 8, 0, 0, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p, ix, 0, 0, TX_OOB_CLAMP, &o), TX_OK);
    /* rows 0, 3, 3, 0, 2, 0 */
    tu_assert_values(o, TU_VALS(0, 1, 2, 9, 10, 11, 9, 10, 11, 0, 1, 2, 6, 7, 8, 0, 1, 2));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p, ix, 0, 0, TX_OOB_WRAP, &o), TX_OK);
    /* -1 -> 3, 4 -> 0, (2^63 - 1) mod 4 = 3, -2^63 mod 4 = 0, 2, -5 mod 4 = 3 (Python's %) */
    tu_assert_values(o, TU_VALS(9, 10, 11, 0, 1, 2, 9, 10, 11, 0, 1, 2, 6, 7, 8, 9, 10, 11));
    tx_tensor_free(o);
    tx_tensor_free(ix);

    /* int32 indices along axis 1 with batch_dims 1: params [[0,1,2],[3,4,5],...] */
    tx_tensor *p2 = iota(TX_INT32, 2, TU_DIMS(2, 3));
    tx_tensor *bx = i32_tensor(2, TU_DIMS(2, 2), I32S(-1, 5, 3, INT32_MIN));
    assert_int_equal(tx_gather_oob(p2, bx, 1, 1, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_values(o, TU_VALS(0, 0, 0, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p2, bx, 1, 1, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 2, 5, 3));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p2, bx, 1, 1, TX_OOB_WRAP, &o), TX_OK);
    /* -1 -> 2, 5 -> 2, 3 -> 0, -2^31 mod 3 = 1 */
    tu_assert_values(o, TU_VALS(2, 2, 3, 4));
    tx_tensor_free(o);
    /* axis 1 without batch dims: every row of params walks the same indices. */
    tx_tensor *cx = i32_tensor(1, TU_DIMS(2), I32S(7, -2));
    assert_int_equal(tx_gather_oob(p2, cx, -1, 0, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 1, 4, 4));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p2, cx, -1, 0, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 0));
    tx_tensor_free(o);
    tx_tensor_free(cx);
    tx_tensor_free(bx);
    tx_tensor_free(p2);

    /* In-range indices give the same result under every policy. */
    tx_tensor *ok = T32(1, TU_DIMS(3), 3, 0, 1), *ref = NULL;
    assert_int_equal(tx_gather(p, ok, 0, 0, &ref), TX_OK);
    for (int pol = TX_OOB_ERROR; pol <= TX_OOB_WRAP; pol++) {
        assert_int_equal(tx_gather_oob(p, ok, 0, 0, (tx_oob_policy)pol, &o), TX_OK);
        tu_assert_values(o, TU_VALS(9, 10, 11, 0, 1, 2, 3, 4, 5));
        tx_tensor_free(o);
    }
    tx_tensor_free(ref);
    tx_tensor_free(ok);

    /* Unknown policy. */
    tx_tensor *one = T32(1, TU_DIMS(1), 0);
    tu_assert_error(tx_gather_oob(p, one, 0, 0, (tx_oob_policy)7, &o), TX_INVALID_ARGUMENT,
                    "gather: oob policy 7 is not one of");
    tu_assert_error(tx_gather_oob(p, one, 0, 0, (tx_oob_policy)-1, &o), TX_INVALID_ARGUMENT,
                    "oob policy -1");
    assert_null(o);

    /* An empty axis: zero gives zeros, clamp and wrap have no row to map into. */
    tx_tensor *e = tu_tensor(TX_FLOAT32, 2, TU_DIMS(0, 2), NULL);
    assert_int_equal(tx_gather_oob(e, one, 0, 0, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(1, 2));
    tu_assert_values(o, TU_VALS(0, 0));
    tx_tensor_free(o);
    tu_assert_error(tx_gather_oob(e, one, 0, 0, TX_OOB_CLAMP, &o), TX_INVALID_ARGUMENT,
                    "gather: oob=clamp needs params.shape[0] > 0, got 0 (no valid index)");
    tu_assert_error(tx_gather_oob(e, one, 0, 0, TX_OOB_WRAP, &o), TX_INVALID_ARGUMENT,
                    "gather: oob=wrap needs params.shape[0] > 0");
    tu_assert_error(tx_gather_oob(e, one, 0, 0, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "indices[0] = 0 is not in [0, 0)");
    /* ... but an empty output needs no index mapped. */
    tx_tensor *none = T32(1, TU_DIMS(0), 0);
    assert_int_equal(tx_gather_oob(e, none, 0, 0, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(0, 2));
    tx_tensor_free(o);
    tx_tensor *e2 = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 0), NULL);
    assert_int_equal(tx_gather_oob(e2, one, 0, 0, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(1, 0));
    tx_tensor_free(o);
    /* Along the empty axis 1 of [2, 0] the output [2, 1] is non-empty: no row to clamp into. */
    tu_assert_error(tx_gather_oob(e2, one, 1, 0, TX_OOB_CLAMP, &o), TX_INVALID_ARGUMENT,
                    "needs params.shape[1] > 0");
    tx_tensor_free(e2);
    tx_tensor_free(none);
    tx_tensor_free(e);
    tx_tensor_free(one);
    tx_tensor_free(p);
}

static void test_oob_gather_widths_and_strings(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    tx_tensor *sp = tu_strings(1, TU_DIMS(3), STRS("a", "bc", "def"));
    tx_tensor *ix = i64_tensor(1, TU_DIMS(3), I64S(3, -1, 1));
    assert_int_equal(tx_gather_oob(sp, ix, 0, 0, TX_OOB_ZERO, &o), TX_OK);
    assert_strings(o, STRS("", "", "bc"));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(sp, ix, 0, 0, TX_OOB_CLAMP, &o), TX_OK);
    assert_strings(o, STRS("def", "a", "bc"));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(sp, ix, 0, 0, TX_OOB_WRAP, &o), TX_OK);
    tx_tensor_free(sp); /* the output keeps the bytes alive */
    assert_strings(o, STRS("a", "def", "bc"));
    tx_tensor_free(o);
    /* Slice widths 1, 2, 4, 8 (16: the strings above) and an odd 3-byte slice: the zero slice
     * covers the whole width. */
    const tx_dtype dts[] = {TX_UINT8, TX_INT16, TX_FLOAT32, TX_FLOAT64};
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        tx_tensor *p = iota(dts[d], 1, TU_DIMS(3));
        assert_int_equal(tx_gather_oob(p, ix, 0, 0, TX_OOB_ZERO, &o), TX_OK);
        tu_assert_values(o, TU_VALS(0, 0, 1));
        tx_tensor_free(o);
        assert_int_equal(tx_gather_oob(p, ix, 0, 0, TX_OOB_WRAP, &o), TX_OK);
        tu_assert_values(o, TU_VALS(0, 2, 1));
        tx_tensor_free(o);
        tx_tensor_free(p);
    }
    tx_tensor *p3 = iota(TX_UINT8, 2, TU_DIMS(3, 3));
    tx_tensor *big = i64_tensor(1, TU_DIMS(2), I64S(9, 1));
    assert_int_equal(tx_gather_oob(p3, big, 0, 0, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 3, 4, 5));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p3, big, 0, 0, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(6, 7, 8, 3, 4, 5));
    tx_tensor_free(o);
    tx_tensor_free(big);
    tx_tensor_free(p3);
    tx_tensor_free(ix);
}

static void test_oob_gather_nd(void **state) {
    (void)state;
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(3, 4)), *o = NULL;
    tx_tensor *ix = i64_tensor(2, TU_DIMS(5, 2),
                               I64S(-1, 0, 3, 2, 1, INT64_MAX, 1, -5, 2, 3));
    tu_assert_error(tx_gather_nd_oob(p, ix, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: indices[0] = [-1, 0] does not index into param shape [3,4]");
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(5));
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 11));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_CLAMP, &o), TX_OK);
    /* [0,0] [2,2] [1,3] [1,0] [2,3] */
    tu_assert_values(o, TU_VALS(0, 10, 7, 4, 11));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_WRAP, &o), TX_OK);
    /* [2,0] [0,2] [1,3] [1,3] [2,3] */
    tu_assert_values(o, TU_VALS(8, 2, 7, 7, 11));
    tx_tensor_free(o);
    tx_tensor_free(ix);
    /* K = 1: whole rows; int32 indices. */
    tx_tensor *rx = i32_tensor(2, TU_DIMS(2, 1), I32S(5, -1));
    assert_int_equal(tx_gather_nd_oob(p, rx, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 4));
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 0, 0, 0, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(p, rx, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(8, 9, 10, 11, 8, 9, 10, 11));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(p, rx, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(8, 9, 10, 11, 0, 1, 2, 3));
    tx_tensor_free(o);
    tx_tensor_free(rx);
    /* Strings, with a component out of range in the second dim only. */
    tx_tensor *sp = tu_strings(2, TU_DIMS(2, 2), STRS("a", "b", "c", "d"));
    tx_tensor *sx = i32_tensor(2, TU_DIMS(2, 2), I32S(1, 2, 0, 1));
    assert_int_equal(tx_gather_nd_oob(sp, sx, TX_OOB_ZERO, &o), TX_OK);
    assert_strings(o, STRS("", "b"));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(sp, sx, TX_OOB_WRAP, &o), TX_OK);
    tx_tensor_free(sp);
    assert_strings(o, STRS("c", "b"));
    tx_tensor_free(o);
    tx_tensor_free(sx);
    tu_assert_error(tx_gather_nd_oob(p, NULL, (tx_oob_policy)4, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: oob policy 4");
    /* An empty params: TF's error under error, zeros under zero, no index to map into under
     * clamp/wrap unless the output is empty anyway. */
    tx_tensor *e = tu_tensor(TX_FLOAT32, 2, TU_DIMS(0, 2), NULL);
    tx_tensor *one = i32_tensor(2, TU_DIMS(1, 1), I32S(0));
    tu_assert_error(tx_gather_nd_oob(e, one, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "requested 1 entries, but params is empty");
    assert_int_equal(tx_gather_nd_oob(e, one, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(1, 2));
    tu_assert_values(o, TU_VALS(0, 0));
    tx_tensor_free(o);
    tu_assert_error(tx_gather_nd_oob(e, one, TX_OOB_CLAMP, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: oob=clamp needs the indexed dims of params to be non-empty, got "
                    "shape [0,2]");
    tu_assert_error(tx_gather_nd_oob(e, one, TX_OOB_WRAP, &o), TX_INVALID_ARGUMENT, "oob=wrap");
    tx_tensor *e2 = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 0), NULL);
    tx_tensor *far = i32_tensor(2, TU_DIMS(1, 1), I32S(9));
    tu_assert_error(tx_gather_nd_oob(e2, far, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "params is empty");
    for (int pol = TX_OOB_ZERO; pol <= TX_OOB_WRAP; pol++) {
        assert_int_equal(tx_gather_nd_oob(e2, far, (tx_oob_policy)pol, &o), TX_OK);
        tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(1, 0));
        tx_tensor_free(o);
    }
    tx_tensor_free(far);
    tx_tensor_free(e2);
    tx_tensor_free(one);
    tx_tensor_free(e);
    tx_tensor_free(p);
}

static void test_oob_one_hot(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    tx_tensor *ix = i32_tensor(1, TU_DIMS(5), I32S(-1, 3, 1, -7, INT32_MAX));
    /* error (TF) and zero: all-off rows for the out-of-range entries. */
    for (int pol = TX_OOB_ERROR; pol <= TX_OOB_ZERO; pol++) {
        assert_int_equal(tx_one_hot_oob(ix, 3, NULL, NULL, -1, TX_FLOAT32, (tx_oob_policy)pol, &o),
                         TX_OK);
        tu_assert_values(o, TU_VALS(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0));
        tx_tensor_free(o);
    }
    assert_int_equal(tx_one_hot_oob(ix, 3, NULL, NULL, -1, TX_FLOAT32, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(5, 3));
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 0, 1));
    tx_tensor_free(o);
    /* wrap: -1 -> 2, 3 -> 0, 1, -7 -> 2, 2147483647 mod 3 = 1 */
    assert_int_equal(tx_one_hot_oob(ix, 3, NULL, NULL, -1, TX_INT32, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0));
    tx_tensor_free(o);
    /* axis 0 (the per-element select path): the transpose of the above. */
    assert_int_equal(tx_one_hot_oob(ix, 3, NULL, NULL, 0, TX_INT32, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(3, 5));
    tu_assert_values(o, TU_VALS(0, 1, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 1, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_one_hot_oob(ix, 3, NULL, NULL, 0, TX_INT32, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1));
    tx_tensor_free(o);
    assert_int_equal(tx_one_hot_oob(ix, 3, NULL, NULL, 0, TX_INT32, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0));
    tx_tensor_free(o);
    /* int8 and uint8 indices: -128 mod 5 = 2, 255 mod 5 = 0. */
    tx_tensor *i8 = tu_tensor(TX_INT8, 1, TU_DIMS(2), TU_VALS(-128, 127));
    tx_tensor *u8 = tu_tensor(TX_UINT8, 1, TU_DIMS(2), TU_VALS(255, 4));
    assert_int_equal(tx_one_hot_oob(i8, 5, NULL, NULL, -1, TX_UINT8, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 1, 0, 0, 0, 0, 1, 0, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_one_hot_oob(u8, 5, NULL, NULL, -1, TX_UINT8, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 0, 0, 0, 0, 1));
    tx_tensor_free(o);
    assert_int_equal(tx_one_hot_oob(u8, 5, NULL, NULL, -1, TX_UINT8, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 1, 0, 0, 0, 0, 1));
    tx_tensor_free(o);
    /* int64 extremes. */
    tx_tensor *i64 = i64_tensor(1, TU_DIMS(2), I64S(INT64_MIN, INT64_MAX));
    assert_int_equal(tx_one_hot_oob(i64, 4, NULL, NULL, -1, TX_BOOL, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 0, 0, 1));
    tx_tensor_free(o);
    assert_int_equal(tx_one_hot_oob(i64, 4, NULL, NULL, -1, TX_BOOL, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 0, 0, 0, 0, 0, 0, 1));
    tx_tensor_free(o);
    /* Strings. */
    tx_tensor *on = tu_strings(0, NULL, STRS("on")), *off = tu_strings(0, NULL, STRS("off"));
    tx_tensor *two = i32_tensor(1, TU_DIMS(2), I32S(-1, 9));
    assert_int_equal(tx_one_hot_oob(two, 2, on, off, -1, TX_STRING, TX_OOB_CLAMP, &o), TX_OK);
    tx_tensor_free(on);
    tx_tensor_free(off);
    assert_strings(o, STRS("on", "off", "off", "on"));
    tx_tensor_free(o);
    /* depth 0: an empty output under every policy. */
    for (int pol = TX_OOB_ERROR; pol <= TX_OOB_WRAP; pol++) {
        assert_int_equal(tx_one_hot_oob(ix, 0, NULL, NULL, -1, TX_FLOAT32, (tx_oob_policy)pol, &o),
                         TX_OK);
        tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(5, 0));
        tx_tensor_free(o);
    }
    tu_assert_error(tx_one_hot_oob(ix, 3, NULL, NULL, -1, TX_FLOAT32, (tx_oob_policy)9, &o),
                    TX_INVALID_ARGUMENT, "one_hot: oob policy 9");
    assert_null(o);
    tx_tensor_free(two);
    tx_tensor_free(i64);
    tx_tensor_free(i8);
    tx_tensor_free(u8);
    tx_tensor_free(ix);
}

static void test_oob_dynamic_stitch(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    tx_tensor *ind[2] = {i32_tensor(1, TU_DIMS(3), I32S(0, -1, -4)), i32_tensor(1, TU_DIMS(2), I32S(3, INT32_MIN))};
    tx_tensor *dat[2] = {T32(2, TU_DIMS(3, 2), 1, 2, 3, 4, 5, 6), T32(2, TU_DIMS(2, 2), 7, 8, 9, 10)};
    const tx_tensor *const *ci = (const tx_tensor *const *)ind, *const *cd = (const tx_tensor *const *)dat;
    tu_assert_error(tx_dynamic_stitch_oob(ci, 2, cd, 2, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "dynamic_stitch: indices[0][1] = -1 is not in [0, 4)");
    /* zero: the negative entries are dropped; rows 1 and 2 are named by no one. */
    assert_int_equal(tx_dynamic_stitch_oob(ci, 2, cd, 2, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(4, 2));
    tu_assert_values(o, TU_VALS(1, 2, 0, 0, 0, 0, 7, 8));
    tx_tensor_free(o);
    /* clamp: every negative index is row 0; the last one (INT32_MIN -> data [9, 10]) wins. */
    assert_int_equal(tx_dynamic_stitch_oob(ci, 2, cd, 2, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(9, 10, 0, 0, 0, 0, 7, 8));
    tx_tensor_free(o);
    /* wrap modulo 4 rows: -1 -> 3, -4 -> 0, -2^31 -> 0; later wins. */
    assert_int_equal(tx_dynamic_stitch_oob(ci, 2, cd, 2, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(9, 10, 0, 0, 0, 0, 7, 8));
    tx_tensor_free(o);
    tx_tensor *w[2] = {i32_tensor(1, TU_DIMS(3), I32S(0, -1, -3)), ind[1]};
    assert_int_equal(tx_dynamic_stitch_oob((const tx_tensor *const *)w, 2, cd, 2, TX_OOB_WRAP, &o), TX_OK);
    /* -1 -> 3 (then overwritten by index 3), -3 -> 1, INT32_MIN -> 0 */
    tu_assert_values(o, TU_VALS(9, 10, 5, 6, 0, 0, 7, 8));
    tx_tensor_free(o);
    tx_tensor_free(w[0]);
    /* Strings. */
    tx_tensor *sd[2] = {tu_strings(1, TU_DIMS(3), STRS("a", "b", "c")), tu_strings(1, TU_DIMS(2), STRS("d", "e"))};
    tx_tensor *si[2] = {i32_tensor(1, TU_DIMS(3), I32S(-2, 1, 2)), i32_tensor(1, TU_DIMS(2), I32S(-9, 0))};
    const tx_tensor *const *csi = (const tx_tensor *const *)si, *const *csd = (const tx_tensor *const *)sd;
    assert_int_equal(tx_dynamic_stitch_oob(csi, 2, csd, 2, TX_OOB_ZERO, &o), TX_OK);
    tx_tensor *z = o;
    assert_int_equal(tx_dynamic_stitch_oob(csi, 2, csd, 2, TX_OOB_WRAP, &o), TX_OK);
    tx_tensor *wr = o;
    assert_int_equal(tx_dynamic_stitch_oob(csi, 2, csd, 2, TX_OOB_CLAMP, &o), TX_OK);
    tx_tensor_free(sd[0]);
    tx_tensor_free(sd[1]);
    assert_strings(z, STRS("e", "b", "c"));
    /* -2 -> 1, -9 -> 0 (mod 3), then 0 <- "e" */
    assert_strings(wr, STRS("e", "b", "c"));
    assert_strings(o, STRS("e", "b", "c"));
    tx_tensor_free(z);
    tx_tensor_free(wr);
    tx_tensor_free(o);
    tx_tensor *sj[2] = {si[0], i32_tensor(1, TU_DIMS(2), I32S(-9, -1))};
    tx_tensor *sd2[2] = {tu_strings(1, TU_DIMS(3), STRS("a", "b", "c")), tu_strings(1, TU_DIMS(2), STRS("d", "e"))};
    assert_int_equal(tx_dynamic_stitch_oob((const tx_tensor *const *)sj, 2, (const tx_tensor *const *)sd2, 2, TX_OOB_WRAP, &o), TX_OK);
    /* -2 -> "a" at 1, 1 <- "b", 2 <- "c", -9 -> 0 <- "d", -1 -> 2 <- "e" */
    assert_strings(o, STRS("d", "b", "e"));
    tx_tensor_free(o);
    assert_int_equal(tx_dynamic_stitch_oob((const tx_tensor *const *)sj, 2, (const tx_tensor *const *)sd2, 2, TX_OOB_CLAMP, &o), TX_OK);
    assert_strings(o, STRS("e", "b", "c"));
    tx_tensor_free(o);
    tx_tensor_free(sd2[0]);
    tx_tensor_free(sd2[1]);
    tx_tensor_free(sj[1]);
    tx_tensor_free(si[0]);
    tx_tensor_free(si[1]);
    /* All indices negative: an error under TX_OOB_ERROR (TF 2.21 decides), else 0 rows (nothing
     * can be placed). */
    tx_tensor *neg[1] = {i32_tensor(1, TU_DIMS(2), I32S(-1, -2))};
    tx_tensor *nd[1] = {T32(1, TU_DIMS(2), 5, 6)};
    tu_assert_error(tx_dynamic_stitch_oob((const tx_tensor *const *)neg, 1, (const tx_tensor *const *)nd, 1,
                                          TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT, "is not in [0, 0)");
    for (int pol = TX_OOB_ZERO; pol <= TX_OOB_WRAP; pol++) {
        assert_int_equal(tx_dynamic_stitch_oob((const tx_tensor *const *)neg, 1, (const tx_tensor *const *)nd, 1,
                                              (tx_oob_policy)pol, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, 1, TU_DIMS(0));
        tx_tensor_free(o);
    }
    tx_tensor_free(neg[0]);
    tx_tensor_free(nd[0]);
    /* INT32_MAX is a row-count limit under every policy. */
    tx_tensor *mx[1] = {i32_tensor(1, TU_DIMS(1), I32S(INT32_MAX))};
    tx_tensor *md[1] = {T32(1, TU_DIMS(1), 5)};
    tu_assert_error(tx_dynamic_stitch_oob((const tx_tensor *const *)mx, 1, (const tx_tensor *const *)md, 1,
                                         TX_OOB_WRAP, &o), TX_INVALID_ARGUMENT, "more than int32 counts");
    tu_assert_error(tx_dynamic_stitch_oob((const tx_tensor *const *)mx, 1, (const tx_tensor *const *)md, 1,
                                         (tx_oob_policy)5, &o), TX_INVALID_ARGUMENT, "dynamic_stitch: oob policy 5");
    assert_null(o);
    tx_tensor_free(mx[0]);
    tx_tensor_free(md[0]);
    for (int m = 0; m < 2; m++) {
        tx_tensor_free(ind[m]);
        tx_tensor_free(dat[m]);
    }
}

static void test_oob_alloc_failure(void **state) {
    (void)state;
    tx_tensor *sp = tu_strings(1, TU_DIMS(3), STRS("a", "bb", "ccc"));
    tx_tensor *sp2 = tu_strings(2, TU_DIMS(2, 2), STRS("a", "bb", "ccc", "d"));
    tx_tensor *ix = T32(1, TU_DIMS(3), 5, -1, 1);
    tx_tensor *nd = T32(2, TU_DIMS(2, 2), 0, 7, -3, 1);
    tx_tensor *on = tu_strings(0, NULL, STRS("on")), *off = tu_strings(0, NULL, STRS("off"));
    const tx_tensor *si[2] = {ix, ix}, *sd[2] = {sp, sp};
    tu_alloc_install();
    for (int op = 0; op < 4 * 4; op++) {
        tx_oob_policy pol = (tx_oob_policy)(op % 4);
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL;
            tx_status st;
            switch (op / 4) {
            case 0: st = tx_gather_oob(sp, ix, 0, 0, pol, &o); break;
            case 1: st = tx_gather_nd_oob(sp2, nd, pol, &o); break;
            case 2: st = tx_dynamic_stitch_oob(si, 2, sd, 2, pol, &o); break;
            default: st = tx_one_hot_oob(ix, 4, on, off, 0, TX_STRING, pol, &o); break;
            }
            if (st == TX_OK) {
                tx_tensor_free(o);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_null(o);
            assert_int_equal(tu_alloc_live(), 0);
            if (st == TX_INVALID_ARGUMENT && pol == TX_OOB_ERROR) break; /* TF's out-of-range error */
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(sp);
    tx_tensor_free(sp2);
    tx_tensor_free(ix);
    tx_tensor_free(nd);
    tx_tensor_free(on);
    tx_tensor_free(off);
}

/* one_hot splits its rows over the pool: the same bytes for 1, 2 and 3 threads, and the
 * definition, on outputs large enough to split (6 MB), for the new axis last and first. */
static void test_one_hot_threads(void **state) {
    (void)state;
    enum { N = 5000, DEPTH = 300 };
    int32_t *iv = malloc(N * sizeof *iv);
    assert_non_null(iv);
    for (int i = 0; i < N; i++) iv[i] = (int32_t)((i * 7919) % (DEPTH + 40)) - 20; /* some off */
    tx_tensor *ind = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT32, 1, TU_DIMS(N), iv, N * sizeof *iv, &ind), TX_OK);
    for (int axis = -1; axis <= 0; axis++) {
        tx_tensor *ref = NULL;
        for (int t = 1; t <= 3; t++) {
            tx_set_num_threads(t);
            tx_tensor *y = NULL;
            assert_int_equal(tx_one_hot(ind, DEPTH, NULL, NULL, axis, TX_FLOAT32, &y), TX_OK);
            if (t == 1) {
                ref = y;
                const float *f = tx_tensor_data(y);
                for (int i = 0; i < N; i++)
                    for (int d = 0; d < DEPTH; d++) {
                        float want = iv[i] == d ? 1.0f : 0.0f;
                        assert_true(f[axis == -1 ? (size_t)i * DEPTH + d : (size_t)d * N + i] == want);
                    }
            } else {
                assert_memory_equal(tx_tensor_data(ref), tx_tensor_data(y), tx_tensor_nbytes(y));
                tx_tensor_free(y);
            }
        }
        tx_tensor_free(ref);
    }
    tx_set_num_threads(0);
    tx_tensor_free(ind);
    free(iv);
}

/* ---- int16 indices ---------------------------------------------------------------------------- */

/* GatherV2 and GatherNd declare Tindices: {int16, int32, int64} (tensorflow/core/ops/array_ops.cc)
 * and register CPU kernels for int16 (REGISTER_GATHER_CPU in gather_op.cc, REGISTER_GATHER_ND_CPU
 * in gather_nd_op.cc).  Their limits follow the index type: GatherOp refuses
 * params.shape[axis] > numeric_limits<Index>::max(), DoGatherNd (gather_nd_op.h) refuses
 * params.NumElements() and the slice size above it. */

static uint64_t rnd_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void) {
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

/* Index tensors of dtype dt holding v[0..n) (all within int16). */
static tx_tensor *index_tensor(tx_dtype dt, size_t rank, const int64_t *dims, const int64_t *v) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    double *d = calloc((size_t)n + 1, sizeof *d);
    for (int64_t i = 0; i < n; i++) d[i] = (double)v[i];
    tx_tensor *t = tu_tensor(dt, rank, dims, d);
    free(d);
    return t;
}

static void test_int16_indices_gather(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* The page example's shapes with int16 indices: axis 0, axis 1, batch_dims 1. */
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(4, 3));
    tx_tensor *ix = tu_tensor(TX_INT16, 2, TU_DIMS(2, 2), TU_VALS(3, 0, 1, 3));
    assert_int_equal(tx_gather(p, ix, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 2, 3));
    tu_assert_values(o, TU_VALS(9, 10, 11, 0, 1, 2, 3, 4, 5, 9, 10, 11));
    tx_tensor_free(o);
    tx_tensor *ix1 = tu_tensor(TX_INT16, 1, TU_DIMS(2), TU_VALS(2, 0));
    assert_int_equal(tx_gather(p, ix1, -1, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(2, 0, 5, 3, 8, 6, 11, 9));
    tx_tensor_free(o);
    tx_tensor *bx = tu_tensor(TX_INT16, 2, TU_DIMS(4, 1), TU_VALS(2, 0, 1, 2));
    assert_int_equal(tx_gather(p, bx, 1, 1, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(4, 1));
    tu_assert_values(o, TU_VALS(2, 3, 7, 11));
    tx_tensor_free(o);
    /* Every policy on int16's extremes: -32768 and 32767 along a dim of 4. */
    tx_tensor *ex = tu_tensor(TX_INT16, 1, TU_DIMS(5), TU_VALS(-32768, 32767, -1, 4, 2));
    tu_assert_error(tx_gather_oob(p, ex, 0, 0, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "gather: indices[0] = -32768 is not in [0, 4)");
    assert_null(o);
    assert_int_equal(tx_gather_oob(p, ex, 0, 0, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 7, 8));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p, ex, 0, 0, TX_OOB_CLAMP, &o), TX_OK);
    /* rows 0, 3, 0, 3, 2 */
    tu_assert_values(o, TU_VALS(0, 1, 2, 9, 10, 11, 0, 1, 2, 9, 10, 11, 6, 7, 8));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p, ex, 0, 0, TX_OOB_WRAP, &o), TX_OK);
    /* -32768 mod 4 = 0, 32767 mod 4 = 3, -1 -> 3, 4 -> 0, 2 */
    tu_assert_values(o, TU_VALS(0, 1, 2, 9, 10, 11, 9, 10, 11, 0, 1, 2, 6, 7, 8));
    tx_tensor_free(o);
    /* The index position in an error is the int16 tensor's. */
    tx_tensor *bad = tu_tensor(TX_INT16, 2, TU_DIMS(2, 2), TU_VALS(0, 1, 2, -7));
    tu_assert_error(tx_gather(p, bad, 0, 0, &o), TX_INVALID_ARGUMENT, "indices[1,1] = -7 is not in [0, 4)");
    /* params.shape[axis] may be 32767 (the largest int16), not 32768. */
    tx_tensor *big = tu_tensor(TX_INT8, 2, TU_DIMS(2, 32768), NULL);
    tx_tensor *last = tu_tensor(TX_INT16, 1, TU_DIMS(1), TU_VALS(32767));
    tu_assert_error(tx_gather(big, last, 1, 0, &o), TX_INVALID_ARGUMENT,
                    "gather: params.shape[1] = 32768 is too large for int16 indexing (above 32767)");
    assert_null(o);
    /* Other dims are not bounded by the index type. */
    tx_tensor *fits = tu_tensor(TX_INT8, 1, TU_DIMS(32767), NULL);
    ((int8_t *)tx_tensor_data(fits))[32766] = 42;
    tx_tensor *row = tu_tensor(TX_INT16, 0, NULL, TU_VALS(1));
    assert_int_equal(tx_gather(big, row, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 1, TU_DIMS(32768));
    tx_tensor_free(o);
    tx_tensor *top = tu_tensor(TX_INT16, 1, TU_DIMS(1), TU_VALS(32766));
    assert_int_equal(tx_gather(fits, top, 0, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(42));
    tx_tensor_free(o);
    tu_assert_error(tx_gather(fits, last, 0, 0, &o), TX_INVALID_ARGUMENT, "indices[0] = 32767 is not in [0, 32767)");
    tx_tensor *tt[] = {p, ix, ix1, bx, ex, bad, big, last, fits, row, top};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* Random shapes, axes, batch_dims, slice widths and in- and out-of-range values: int16 indices
 * give the bytes int32 and int64 indices give, under every policy (the int32/int64 loops are
 * checked against written-out results above), and the same errors. */
static void test_int16_indices_match_wider(void **state) {
    (void)state;
    /* Element widths 1, 2, 4, 8; the inner dims make slices of 1 to 128 bytes. */
    static const tx_dtype pdt[] = {TX_INT8, TX_INT16, TX_FLOAT32, TX_FLOAT64, TX_UINT8};
    int filled = 0, refused = 0; /* non-empty results and errors seen, so both paths ran */
    for (int trial = 0; trial < 300; trial++) {
        size_t pr = 1 + rnd() % 3, ir = rnd() % 3;
        int64_t pd[3], id[3];
        for (size_t d = 0; d < pr; d++) pd[d] = (int64_t)(1 + rnd() % 4);
        for (size_t d = 0; d < ir; d++) id[d] = (int64_t)(rnd() % 4);
        int64_t bd = 0, axis = (int64_t)(rnd() % pr);
        if (ir > 0 && pr > 1 && rnd() % 3 == 0) {
            bd = 1;
            id[0] = pd[0];
            if (axis == 0) axis = 1;
        }
        int64_t n = 1;
        for (size_t d = 0; d < ir; d++) n *= id[d];
        int64_t v[64];
        for (int64_t i = 0; i < n; i++)
            v[i] = rnd() % 4 ? (int64_t)(rnd() % (uint64_t)pd[axis])
                             : (int64_t)(rnd() % 65536) - 32768;
        tx_tensor *p = iota(pdt[trial % 5], pr, pd);
        tx_tensor *i16 = index_tensor(TX_INT16, ir, id, v);
        tx_tensor *i32 = index_tensor(TX_INT32, ir, id, v);
        tx_tensor *i64 = index_tensor(TX_INT64, ir, id, v);
        for (int pol = TX_OOB_ERROR; pol <= TX_OOB_WRAP; pol++) {
            tx_tensor *a = NULL, *b = NULL, *c = NULL;
            tx_status sa = tx_gather_oob(p, i16, axis, bd, (tx_oob_policy)pol, &a);
            char msg[512];
            snprintf(msg, sizeof msg, "%s", tx_last_error());
            tx_status sb = tx_gather_oob(p, i32, axis, bd, (tx_oob_policy)pol, &b);
            tx_status sc = tx_gather_oob(p, i64, axis, bd, (tx_oob_policy)pol, &c);
            assert_int_equal(sa, sb);
            assert_int_equal(sa, sc);
            if (sa == TX_OK) {
                assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
                assert_memory_equal(tx_tensor_data(a), tx_tensor_data(b), tx_tensor_nbytes(a));
                assert_memory_equal(tx_tensor_data(a), tx_tensor_data(c), tx_tensor_nbytes(a));
                filled += tx_tensor_nbytes(a) > 0;
            } else {
                assert_string_equal(msg, tx_last_error());
                refused++;
            }
            tx_tensor_free(a);
            tx_tensor_free(b);
            tx_tensor_free(c);
        }
        /* gather_nd: indices [n', K] over the same params. */
        int64_t k = (int64_t)(rnd() % (pr + 1)), rows = (int64_t)(rnd() % 4);
        int64_t ndims[2] = {rows, k}, nv[16];
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < k; j++)
                nv[r * k + j] = rnd() % 4 ? (int64_t)(rnd() % (uint64_t)pd[j])
                                          : (int64_t)(rnd() % 65536) - 32768;
        tx_tensor *n16 = index_tensor(TX_INT16, 2, ndims, nv);
        tx_tensor *n32 = index_tensor(TX_INT32, 2, ndims, nv);
        tx_tensor *n64 = index_tensor(TX_INT64, 2, ndims, nv);
        for (int pol = TX_OOB_ERROR; pol <= TX_OOB_WRAP; pol++) {
            tx_tensor *a = NULL, *b = NULL, *c = NULL;
            tx_status sa = tx_gather_nd_oob(p, n16, (tx_oob_policy)pol, &a);
            char msg[512];
            snprintf(msg, sizeof msg, "%s", tx_last_error());
            tx_status sb = tx_gather_nd_oob(p, n32, (tx_oob_policy)pol, &b);
            tx_status sc = tx_gather_nd_oob(p, n64, (tx_oob_policy)pol, &c);
            assert_int_equal(sa, sb);
            assert_int_equal(sa, sc);
            if (sa == TX_OK) {
                assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
                assert_memory_equal(tx_tensor_data(a), tx_tensor_data(b), tx_tensor_nbytes(a));
                assert_memory_equal(tx_tensor_data(a), tx_tensor_data(c), tx_tensor_nbytes(a));
                filled += tx_tensor_nbytes(a) > 0;
            } else {
                assert_string_equal(msg, tx_last_error());
                refused++;
            }
            tx_tensor_free(a);
            tx_tensor_free(b);
            tx_tensor_free(c);
        }
        tx_tensor *tt[] = {p, i16, i32, i64, n16, n32, n64};
        for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
    }
    assert_true(filled > 500);
    assert_true(refused > 50);
}

static void test_int16_indices_gather_nd(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* The page example's batched slice indexing, with int16 indices. */
    check_nd(p3(), tu_tensor(TX_INT16, 3, TU_DIMS(2, 2, 3), TU_VALS(0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0)),
             2, TU_DIMS(2, 2), STRS("b0", "b1", "d0", "c1"));
    check_nd(p2(), tu_tensor(TX_INT16, 2, TU_DIMS(2, 1), TU_VALS(1, 0)), 2, TU_DIMS(2, 2),
             STRS("c", "d", "a", "b"));
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(3, 4));
    tx_tensor *ix = tu_tensor(TX_INT16, 2, TU_DIMS(4, 2), TU_VALS(-32768, 0, 3, 32767, 1, -1, 2, 3));
    tu_assert_error(tx_gather_nd_oob(p, ix, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: indices[0] = [-32768, 0] does not index into param shape [3,4]");
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 11));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_CLAMP, &o), TX_OK);
    /* [0,0] [2,3] [1,0] [2,3] */
    tu_assert_values(o, TU_VALS(0, 11, 4, 11));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_WRAP, &o), TX_OK);
    /* -32768 mod 3 = 1, 32767 mod 4 = 3: [1,0] [0,3] [1,3] [2,3] */
    tu_assert_values(o, TU_VALS(4, 3, 7, 11));
    tx_tensor_free(o);
    /* params may hold 32767 elements with int16 indices, not 32768. */
    tx_tensor *fits = tu_tensor(TX_INT8, 2, TU_DIMS(32767, 1), NULL);
    ((int8_t *)tx_tensor_data(fits))[32766] = 5;
    tx_tensor *last = tu_tensor(TX_INT16, 2, TU_DIMS(1, 2), TU_VALS(32766, 0));
    assert_int_equal(tx_gather_nd(fits, last, &o), TX_OK);
    tu_assert_values(o, TU_VALS(5));
    tx_tensor_free(o);
    tx_tensor *big = tu_tensor(TX_INT8, 2, TU_DIMS(2, 16384), NULL);
    tx_tensor *one = tu_tensor(TX_INT16, 2, TU_DIMS(1, 1), TU_VALS(1));
    tu_assert_error(tx_gather_nd(big, one, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: params has 32768 elements, too many for int16 indexing (above 32767)");
    tu_assert_error(tx_gather_nd_oob(big, one, TX_OOB_WRAP, &o), TX_INVALID_ARGUMENT,
                    "too many for int16 indexing");
    /* An empty params does not bound the slice: the index type does (before the empty-params
     * rule, and even with no index vector). */
    tx_tensor *e = tu_tensor(TX_INT8, 2, TU_DIMS(0, 40000), NULL);
    tx_tensor *none = tu_tensor(TX_INT16, 2, TU_DIMS(0, 1), NULL);
    tu_assert_error(tx_gather_nd(e, one, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: slice size 40000 is too large for int16 indexing (above 32767)");
    tu_assert_error(tx_gather_nd(e, none, &o), TX_INVALID_ARGUMENT, "slice size 40000 is too large");
    assert_null(o);
    tx_tensor *one32 = tu_tensor(TX_INT32, 2, TU_DIMS(1, 1), TU_VALS(0));
    tu_assert_error(tx_gather_nd(e, one32, &o), TX_INVALID_ARGUMENT, "requested 1 entries, but params is empty");
    tx_tensor *tt[] = {p, ix, fits, last, big, one, e, none, one32};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* Empty tensors whose other dims multiply past int64 ([2^40, 2^40, 0]): an op may form products
 * of dims only for a non-empty output (the fuzzer found one_hot doing it; gather and boolean_mask
 * did too).  UBSan builds fail on the overflow. */
static void test_empty_with_huge_dims(void **state) {
    (void)state;
    const int64_t big = INT64_C(1) << 40;
    tx_tensor *params = NULL, *idx = NULL, *y = NULL, *mask = NULL, *ind = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 3, TU_DIMS(big, big, 0), &params), TX_OK);
    assert_int_equal(tx_tensor_new(TX_INT32, 1, TU_DIMS(0), &idx), TX_OK);
    assert_int_equal(tx_gather(params, idx, 2, 0, &y), TX_OK); /* outer = big * big */
    tu_assert_shape(y, TX_FLOAT32, 3, TU_DIMS(big, big, 0));
    tx_tensor_free(y);
    assert_int_equal(tx_tensor_new(TX_BOOL, 1, TU_DIMS(0), &mask), TX_OK);
    tx_tensor *p2 = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 3, TU_DIMS(0, big, big), &p2), TX_OK);
    assert_int_equal(tx_boolean_mask(p2, mask, 0, &y), TX_OK); /* inner = big * big */
    tu_assert_shape(y, TX_FLOAT32, 3, TU_DIMS(0, big, big));
    tx_tensor_free(y);
    assert_int_equal(tx_tensor_new(TX_INT32, 3, TU_DIMS(big, big, 0), &ind), TX_OK);
    assert_int_equal(tx_one_hot(ind, 3, NULL, NULL, -1, TX_FLOAT32, &y), TX_OK); /* prefix */
    tu_assert_shape(y, TX_FLOAT32, 4, TU_DIMS(big, big, 0, 3));
    tx_tensor_free(y);
    /* dynamic_partition's slice is the product of data's dims after the partitions' ones, and
     * dynamic_stitch's of data[0]'s: both beside a 0 here. */
    tx_tensor *parts = NULL, *outs[1] = {NULL};
    assert_int_equal(tx_tensor_new(TX_INT32, 1, TU_DIMS(0), &parts), TX_OK);
    assert_int_equal(tx_dynamic_partition(p2, parts, 1, outs), TX_OK); /* slice = big * big */
    tu_assert_shape(outs[0], TX_FLOAT32, 3, TU_DIMS(0, big, big));
    tx_tensor_free(outs[0]);
    tx_tensor_free(parts);
    tx_tensor *d4 = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(1, big, big, 0), &d4), TX_OK);
    parts = tu_tensor(TX_INT32, 1, TU_DIMS(1), TU_VALS(0));
    assert_int_equal(tx_dynamic_partition(d4, parts, 1, outs), TX_OK); /* big * big before the 0 */
    tu_assert_shape(outs[0], TX_FLOAT32, 4, TU_DIMS(1, big, big, 0));
    tx_tensor_free(outs[0]);
    tx_tensor_free(parts);
    tx_tensor_free(d4);
    const tx_tensor *sidx[1] = {idx}, *sdata[1] = {p2};
    assert_int_equal(tx_dynamic_stitch(sidx, 1, sdata, 1, &y), TX_OK); /* 0 rows of big x big */
    tu_assert_shape(y, TX_FLOAT32, 3, TU_DIMS(0, big, big));
    tx_tensor_free(y);
    tx_tensor_free(params);
    tx_tensor_free(p2);
    tx_tensor_free(idx);
    tx_tensor_free(mask);
    tx_tensor_free(ind);
}

/* gather_nd on an empty params whose dims after the indexed one multiply past int64 ([1,
 * 144684735107497983, 4572, 0], found by fuzz_ops): one index vector is TF's "params is empty"
 * error, oob=zero gives the empty [1, 144684735107497983, 4572, 0] and no index vectors [0, ...].
 * Then indexed dims that multiply past int64 beside an empty one ([0, 2^40, 2^40, 4], k = 3):
 * under oob=zero every index is out of range and the result is zeros.  UBSan builds fail on the
 * overflow of the slice size or of the byte strides. */
static void test_gather_nd_empty_with_huge_dims(void **state) {
    (void)state;
    const int64_t huge = INT64_C(144684735107497983), big = INT64_C(1) << 40;
    tx_tensor *params = NULL, *none = NULL, *y = (tx_tensor *)1;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(1, huge, 4572, 0), &params), TX_OK);
    tx_tensor *idx = tu_tensor(TX_INT32, 2, TU_DIMS(1, 1), TU_VALS(0));
    tu_assert_error(
        tx_gather_nd(params, idx, &y), TX_INVALID_ARGUMENT,
        "requested 1 entries, but params is empty (shape [1,144684735107497983,4572,0])");
    assert_null(y);
    assert_int_equal(tx_gather_nd_oob(params, idx, TX_OOB_ZERO, &y), TX_OK);
    tu_assert_shape(y, TX_FLOAT32, 4, TU_DIMS(1, huge, 4572, 0));
    tx_tensor_free(y);
    assert_int_equal(tx_tensor_new(TX_INT32, 2, TU_DIMS(0, 1), &none), TX_OK);
    assert_int_equal(tx_gather_nd(params, none, &y), TX_OK);
    tu_assert_shape(y, TX_FLOAT32, 4, TU_DIMS(0, huge, 4572, 0));
    tx_tensor_free(y);
    tx_tensor_free(params);

    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(0, big, big, 4), &params), TX_OK);
    tx_tensor *idx3 = tu_tensor(TX_INT64, 2, TU_DIMS(1, 3), TU_VALS(0, 0, 0));
    assert_int_equal(tx_gather_nd_oob(params, idx3, TX_OOB_ZERO, &y), TX_OK);
    tu_assert_shape(y, TX_FLOAT32, 2, TU_DIMS(1, 4));
    tu_assert_values(y, TU_VALS(0, 0, 0, 0));
    tx_tensor_free(y);
    tu_assert_error(tx_gather_nd_oob(params, idx3, TX_OOB_CLAMP, &y), TX_INVALID_ARGUMENT,
                    "oob=clamp needs the indexed dims of params to be non-empty");
    tx_tensor_free(params);
    tx_tensor_free(idx3);
    tx_tensor_free(idx);
    tx_tensor_free(none);
}

/* ---- inputs that are not what tensorx makes ------------------------------------------------- */

/* A bool byte other than 0 and 1 (memory tensorx wraps, e.g. a NumPy uint8 array viewed as bool)
 * is true, as TF reads it: [0, 1, 2, 255] has two values, False once and True three times. */
static void test_unique_bool_any_nonzero_is_true(void **state) {
    (void)state;
    uint8_t bytes[4] = {0, 1, 2, 255};
    tx_tensor *x = NULL, *outs[3] = {NULL, NULL, NULL};
    assert_int_equal(tx_tensor_wrap(TX_BOOL, 1, TU_DIMS(4), bytes, 4, NULL, NULL, &x), TX_OK);
    for (int sorted = 0; sorted <= 1; sorted++) {
        assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32,
                                                  sorted ? TX_UNIQUE_SORTED : TX_UNIQUE_FIRST_SEEN,
                                                  outs),
                         TX_OK);
        tu_assert_shape(outs[0], TX_BOOL, 1, TU_DIMS(2));
        assert_memory_equal(tx_tensor_data_const(outs[0]), ((const uint8_t[]){0, 1}), 2);
        tu_assert_values(outs[1], TU_VALS(0, 1, 1, 1));
        tu_assert_values(outs[2], TU_VALS(1, 3));
        for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    }
    tx_tensor_free(x);
    /* tx_tensor_from_data stores them as 1. */
    assert_int_equal(tx_tensor_from_data(TX_BOOL, 1, TU_DIMS(4), bytes, 4, &x), TX_OK);
    assert_memory_equal(tx_tensor_data_const(x), ((const uint8_t[]){0, 1, 1, 1}), 4);
    tx_tensor_free(x);
}

/* The error message of an axis near INT64_MAX: axis + K is formed without signed overflow (UBSan
 * stopped this call before the fix). */
static void test_boolean_mask_huge_axis_message(void **state) {
    (void)state;
    tx_tensor *t = T32(1, TU_DIMS(2), 1, 2), *m = TB(1, TU_DIMS(2), 1, 0), *o = NULL;
    tu_assert_error(tx_boolean_mask(t, m, INT64_MAX, &o), TX_INVALID_ARGUMENT,
                    "tensor.shape[9223372036854775807:9223372036854775808]");
    tu_assert_error(tx_boolean_mask(t, m, INT64_MIN, &o), TX_INVALID_ARGUMENT,
                    "tensor.shape[-9223372036854775808:-9223372036854775807]");
    tx_tensor_free(t);
    tx_tensor_free(m);
}

/* TF 2.21 decides a negative axis with a mask of rank K > 1 (the oracle found it): tf.boolean_mask
 * reshapes to rank - K + 1 dims and gathers with the same negative axis there, i.e. along the dim
 * K - 1 places before the masked ones, the true entries' flat positions as indices. */
static void test_boolean_mask_negative_axis_rank_k(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 4, TU_DIMS(2, 3, 2, 2)), *o = NULL;
    tx_tensor *m = TB(2, TU_DIMS(3, 2), 1, 1, 0, 0, 0, 0);
    /* axis -3: masked dims 1..2, gathered along dim 0 with indices [0, 1]: the whole of t,
     * shaped [2, 6, 2]. */
    assert_int_equal(tx_boolean_mask(t, m, -3, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 6, 2));
    tu_assert_values(o, TU_VALS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                21, 22, 23));
    tx_tensor_free(o);
    tx_tensor_free(m);
    /* a true position past that dim (2 of [0, 2)) is GatherV2's index error */
    m = TB(2, TU_DIMS(3, 2), 0, 0, 1, 0, 0, 0);
    tu_assert_error(tx_boolean_mask(t, m, -3, &o), TX_INVALID_ARGUMENT, "indices[0] = 2 is not in [0, 2)");
    tx_tensor_free(m);
    /* no dim before the masked ones: GatherV2's rank check */
    m = TB(2, TU_DIMS(2, 3), 1, 0, 0, 0, 0, 0);
    tu_assert_error(tx_boolean_mask(t, m, -4, &o), TX_INVALID_ARGUMENT, "Shape must be at least rank 4 but is rank 3");
    assert_null(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
}

/* Non-bool masks count nonzero entries as Where does: -0.0 is zero, NaN is not; a complex entry
 * is nonzero when either part is; TF 2.21's CPU flushes float32/float64 subnormals to zero, but
 * not bfloat16 ones (the oracle found both). */
static void test_boolean_mask_number_masks(void **state) {
    (void)state;
    tx_tensor *t = T32(1, TU_DIMS(3), 10, 20, 30), *o = NULL;
    const uint32_t fbits[3] = {0x80000000u, 0x7fc00000u, 0x00000001u};
    tx_tensor *m = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT32, 1, TU_DIMS(3), fbits, sizeof fbits, &m), TX_OK);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(20));
    tx_tensor_free(o);
    tx_tensor_free(m);
    const uint16_t bbits[3] = {0x8001u, 0x8000u, 0};
    assert_int_equal(tx_tensor_from_data(TX_BFLOAT16, 1, TU_DIMS(3), bbits, sizeof bbits, &m), TX_OK);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(10));
    tx_tensor_free(o);
    tx_tensor_free(m);
    const uint64_t cbits[6] = {0x8000000000000000u, 0, 0, 0x8000000000000000u, 0, 1};
    assert_int_equal(tx_tensor_from_data(TX_COMPLEX128, 1, TU_DIMS(3), cbits, sizeof cbits, &m), TX_OK);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(30));
    tx_tensor_free(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
}

/* sequence_mask's casts as TF's (the oracle found them): a uint64 length wraps to int64, and
 * 4-bit lengths need maxlen (TF's Max takes no 4-bit dtype; its Cast to maxlen's dtype does). */
static void test_sequence_mask_casts(void **state) {
    (void)state;
    const uint64_t u[2] = {1ull << 63, 2};
    tx_tensor *len = NULL, *three = tu_tensor(TX_INT64, 0, NULL, TU_VALS(3)), *o = NULL;
    assert_int_equal(tx_tensor_from_data(TX_UINT64, 1, TU_DIMS(2), u, sizeof u, &len), TX_OK);
    assert_int_equal(tx_sequence_mask(len, three, TX_BOOL, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 1, 1, 0));
    tx_tensor_free(o);
    tx_tensor_free(len);
    const uint8_t nib[2] = {0x0f, 0x02}; /* int4 -1 (its low nibble) and 2 */
    assert_int_equal(tx_tensor_from_data(TX_INT4, 1, TU_DIMS(2), nib, sizeof nib, &len), TX_OK);
    assert_int_equal(tx_sequence_mask(len, three, TX_INT32, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 1, 1, 0));
    tx_tensor_free(o);
    tu_assert_error(tx_sequence_mask(len, NULL, TX_BOOL, &o), TX_UNIMPLEMENTED, "lengths dtype int4 needs maxlen");
    tx_tensor_free(len);
    tx_tensor_free(three);
}

int main(void) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gather_basic),        cmocka_unit_test(test_gather_batch_dims),
        cmocka_unit_test(test_gather_split_over_threads),
        cmocka_unit_test(test_gather_edges),        cmocka_unit_test(test_gather_widths_and_strings),
        cmocka_unit_test(test_gather_nd_page_examples),      cmocka_unit_test(test_gather_nd_edges),
        cmocka_unit_test(test_unique_page_examples),         cmocka_unit_test(test_unique_floats),
        cmocka_unit_test(test_unique_other_dtypes), cmocka_unit_test(test_unique_errors),
        cmocka_unit_test(test_unique_thread_counts), cmocka_unit_test(test_unique_alloc_failures),
        cmocka_unit_test(test_dynamic_partition),   cmocka_unit_test(test_dynamic_stitch),
        cmocka_unit_test(test_boolean_mask),        cmocka_unit_test(test_one_hot_page_examples),
        cmocka_unit_test(test_one_hot_types),       cmocka_unit_test(test_one_hot_errors),
        cmocka_unit_test(test_sequence_mask),       cmocka_unit_test(test_max_rank),
        cmocka_unit_test(test_alloc_failure),
        cmocka_unit_test(test_oob_gather),          cmocka_unit_test(test_oob_gather_widths_and_strings),
        cmocka_unit_test(test_oob_gather_nd),       cmocka_unit_test(test_oob_one_hot),
        cmocka_unit_test(test_oob_dynamic_stitch),  cmocka_unit_test(test_oob_alloc_failure),
        cmocka_unit_test(test_empty_with_huge_dims), cmocka_unit_test(test_one_hot_threads),
        cmocka_unit_test(test_gather_nd_empty_with_huge_dims),
        cmocka_unit_test(test_int16_indices_gather), cmocka_unit_test(test_int16_indices_match_wider),
        cmocka_unit_test(test_int16_indices_gather_nd),
        cmocka_unit_test(test_unique_bool_any_nonzero_is_true),
        cmocka_unit_test(test_boolean_mask_huge_axis_message),
        cmocka_unit_test(test_boolean_mask_negative_axis_rank_k),
        cmocka_unit_test(test_boolean_mask_number_masks),
        cmocka_unit_test(test_sequence_mask_casts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
