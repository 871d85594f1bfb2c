/* SPDX-License-Identifier: Apache-2.0 */
/* test_gather.c -- gather and gather_nd: every example of TF's page (with TensorFlow's result where
 * the page is wrong, and a comment saying so), TF's edge cases (zero-size results that skip index
 * checks, batch_dims), string tensors and every element width, the split over threads, every
 * error with its status and message, and the out-of-range policies (tx_gather_oob,
 * tx_gather_nd_oob).  The family's limits are in test_gather_limits.c. */
#include "gather_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- out-of-range policies (tx_*_ex) ------------------------------------------------------- */

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

int main(void) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gather_basic),
        cmocka_unit_test(test_gather_batch_dims),
        cmocka_unit_test(test_gather_split_over_threads),
        cmocka_unit_test(test_gather_edges),
        cmocka_unit_test(test_gather_widths_and_strings),
        cmocka_unit_test(test_gather_nd_page_examples),
        cmocka_unit_test(test_gather_nd_edges),
        cmocka_unit_test(test_oob_gather),
        cmocka_unit_test(test_oob_gather_widths_and_strings),
        cmocka_unit_test(test_oob_gather_nd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
