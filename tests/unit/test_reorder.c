/* SPDX-License-Identifier: Apache-2.0 */
/* test_reorder.c -- reverse (bool dims and axis list) and reverse_sequence: every example of TF's
 * page with TensorFlow's result, TensorFlow's edge cases, string tensors, every error with its
 * status and message, and brute-force comparisons of the strided reverse with naive loops over
 * many shapes and element widths; and, across the family (concat, pack, meshgrid, reverse,
 * reverse_sequence, transpose), the deliberate differences from TF, the thread-pool paths on
 * large inputs and an allocation-failure sweep for each op.  concat, pack and meshgrid are in
 * test_concat.c, transpose in test_transpose.c. */
#include "reorder_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reverse ---- */

static tx_tensor *bools(size_t n, const int *v) {
    double d[16];
    for (size_t i = 0; i < n; i++) d[i] = v[i];
    return tu_tensor(TX_BOOL, 1, (int64_t[]){(int64_t)n}, d);
}

static void test_reverse_page_examples(void **state) {
    (void)state;
    /* 't' is [[[[0..3], [4..7], [8..11]], [[12..15], [16..19], [20..23]]]], shape [1, 2, 3, 4].
     * (The page's rendering of the results is garbled; the values below are TF's.) */
    tx_tensor *t = iota_from(TX_INT32, 4, TU_DIMS(1, 2, 3, 4), 0), *o = NULL;
    tx_tensor *d = bools(4, (int[]){0, 0, 0, 1});
    assert_int_equal(tx_reverse(t, d, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20));
    tx_tensor_free(d);
    d = bools(4, (int[]){0, 1, 0, 0});
    assert_int_equal(tx_reverse(t, d, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    tx_tensor_free(d);
    d = bools(4, (int[]){0, 0, 1, 0});
    assert_int_equal(tx_reverse(t, d, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15));
    tx_tensor_free(d);
    /* The same three through the axis-list form, with negative axes. */
    assert_int_equal(tx_reverse_v2(t, (int64_t[]){-1}, 1, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20));
    assert_int_equal(tx_reverse_v2(t, (int64_t[]){1}, 1, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    assert_int_equal(tx_reverse_v2(t, (int64_t[]){-2}, 1, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15));
    /* Several dims at once, and none. */
    assert_int_equal(tx_reverse_v2(t, (int64_t[]){3, 1, 2}, 3, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    assert_int_equal(tx_reverse_v2(t, NULL, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4));
    assert_memory_equal(tx_tensor_data(o), tx_tensor_data(t), tx_tensor_nbytes(t));
    assert_false(tx_tensor_shares_buffer(o, t));
    tx_tensor_free(o);
    tx_tensor_free(t);
}

/* Naive reverse: element by element through the full index. */
static void naive_reverse(const tx_tensor *t, const bool *flip, char *out) {
    size_t r = tx_tensor_rank(t), w = tx_dtype_size(tx_tensor_dtype(t));
    const int64_t *dims = tx_tensor_dims(t);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        int64_t rem = i, src = 0, mul = 1;
        for (size_t d = r; d-- > 0;) {
            int64_t k = rem % dims[d];
            rem /= dims[d];
            src += (flip[d] ? dims[d] - 1 - k : k) * mul;
            mul *= dims[d];
        }
        memcpy(out + i * (int64_t)w, (const char *)tx_tensor_data_const(t) + src * (int64_t)w, w);
    }
}

static void test_reverse_brute(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_INT8, TX_FLOAT16, TX_FLOAT32, TX_INT64, TX_COMPLEX128};
    for (int trial = 0; trial < 400; trial++) {
        size_t r = 1 + rnd() % 6;
        int64_t dims[6];
        for (size_t d = 0; d < r; d++) dims[d] = (int64_t)(rnd() % 5);
        if (trial % 7) for (size_t d = 0; d < r; d++) dims[d] += dims[d] == 0;
        tx_tensor *t = random_tensor(dts[trial % 5], r, dims), *o = NULL;
        bool flip[6];
        int64_t axis[6];
        size_t na = 0;
        for (size_t d = 0; d < r; d++) {
            flip[d] = rnd() & 1;
            if (flip[d]) axis[na++] = rnd() & 1 ? (int64_t)d : (int64_t)d - (int64_t)r;
        }
        char *want = malloc(tx_tensor_nbytes(t) + 1);
        naive_reverse(t, flip, want);
        assert_int_equal(tx_reverse_v2(t, axis, na, &o), TX_OK);
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(t));
        tx_tensor_free(o);
        double fl[6];
        for (size_t d = 0; d < r; d++) fl[d] = flip[d];
        tx_tensor *bd = tu_tensor(TX_BOOL, 1, (int64_t[]){(int64_t)r}, fl);
        if (dims[0] == 0) {
            /* The bool-dims form refuses an empty first dim (reverse_op.cc, ReverseOp). */
            tu_assert_error(tx_reverse(t, bd, &o), TX_INVALID_ARGUMENT, "Invalid input first dimension. Found 0.");
        } else {
            assert_int_equal(tx_reverse(t, bd, &o), TX_OK);
            assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(t));
            tx_tensor_free(o);
        }
        tx_tensor_free(bd);
        tx_tensor_free(t);
        free(want);
    }
}

static void test_reverse_edge_errors(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 2, TU_DIMS(2, 3)), *o = NULL;
    /* Scalars come back as they are, whatever dims/axis say (TensorFlow's kernels return before
     * reading them). */
    tx_tensor *s = tu_tensor(TX_FLOAT32, 0, NULL, TU_VALS(2.5)), *d1 = bools(1, (int[]){1});
    assert_int_equal(tx_reverse(s, d1, &o), TX_OK);
    check_values(o, TX_FLOAT32, 0, NULL, TU_VALS(2.5));
    assert_int_equal(tx_reverse_v2(s, (int64_t[]){5}, 1, &o), TX_OK);
    check_values(o, TX_FLOAT32, 0, NULL, TU_VALS(2.5));
    /* Legacy dims errors. */
    tu_assert_error(tx_reverse(t, d1, &o), TX_INVALID_ARGUMENT, "dims has 1 values but tensor has rank 2");
    assert_null(o);
    tx_tensor *di = tu_tensor(TX_INT32, 1, TU_DIMS(2), NULL), *d2 = tu_tensor(TX_BOOL, 2, TU_DIMS(1, 2), NULL);
    tu_assert_error(tx_reverse(t, di, &o), TX_INVALID_ARGUMENT, "dims must be bool, got int32");
    tu_assert_error(tx_reverse(s, di, &o), TX_INVALID_ARGUMENT, "dims must be bool, got int32");
    tu_assert_error(tx_reverse(t, d2, &o), TX_INVALID_ARGUMENT, "dims must be 1-D, got rank 2");
    tu_assert_error(tx_reverse(t, NULL, &o), TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_reverse(NULL, d1, &o), TX_INVALID_ARGUMENT, "tensor is NULL");
    /* Axis-list errors. */
    tu_assert_error(tx_reverse_v2(t, (int64_t[]){2}, 1, &o), TX_INVALID_ARGUMENT, "axis[0] = 2 is out of range [-2, 2)");
    tu_assert_error(tx_reverse_v2(t, (int64_t[]){0, -3}, 2, &o), TX_INVALID_ARGUMENT, "axis[1] = -3 is out of range [-2, 2)");
    tu_assert_error(tx_reverse_v2(t, (int64_t[]){1, -1}, 2, &o), TX_INVALID_ARGUMENT,
                    "axis 1 is specified more than once (axis[1] = -1)");
    tu_assert_error(tx_reverse_v2(t, (int64_t[]){0, 0}, 2, &o), TX_INVALID_ARGUMENT, "axis 0 is specified more than once");
    tu_assert_error(tx_reverse_v2(t, NULL, 1, &o), TX_INVALID_ARGUMENT, "axis is NULL");
    assert_null(o);
    /* Rank above 8: TensorFlow's kernels stop there (unimplemented); a bad axis is still
     * invalid_argument first, as in ReverseV2. */
    tx_tensor *r9 = tu_tensor(TX_INT8, 9, TU_DIMS(1, 1, 1, 1, 1, 1, 1, 1, 2), NULL);
    tu_assert_error(tx_reverse_v2(r9, (int64_t[]){8}, 1, &o), TX_UNIMPLEMENTED, "not implemented for rank > 8");
    tu_assert_error(tx_reverse_v2(r9, (int64_t[]){9}, 1, &o), TX_INVALID_ARGUMENT, "out of range");
    tx_tensor *d9 = tu_tensor(TX_BOOL, 1, TU_DIMS(9), NULL);
    tu_assert_error(tx_reverse(r9, d9, &o), TX_UNIMPLEMENTED, "not implemented for rank > 8");
    tx_tensor *r8 = iota(TX_INT8, 8, TU_DIMS(1, 1, 1, 1, 1, 1, 2, 2));
    assert_int_equal(tx_reverse_v2(r8, (int64_t[]){-1, 6}, 2, &o), TX_OK);
    check_values(o, TX_INT8, 8, TU_DIMS(1, 1, 1, 1, 1, 1, 2, 2), TU_VALS(4, 3, 2, 1));
    /* Strings, and a bool `dims` holding a non-0/1 byte counts as true. */
    tx_tensor *st = tu_strings(2, TU_DIMS(2, 2), (const char *[]){"a", "bb", "", "dddd"});
    tx_tensor *dd = bools(2, (int[]){0, 1});
    ((uint8_t *)tx_tensor_data(dd))[1] = 7;
    assert_int_equal(tx_reverse(st, dd, &o), TX_OK);
    tx_tensor_free(st);
    assert_strings(o, (const char *[]){"bb", "a", "dddd", ""});
    tx_tensor_free(o);
    /* Zero-size tensors.  ReverseV2Op (tensorflow/core/kernels/reverse_op.cc) returns an input
     * with no elements before it reads axis, so out-of-range and repeated axes pass, at any rank. */
    tx_tensor *z = tu_tensor(TX_INT32, 2, TU_DIMS(0, 3), NULL);
    assert_int_equal(tx_reverse_v2(z, (int64_t[]){0, 1}, 2, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(0, 3));
    tx_tensor_free(o);
    tx_tensor *z1 = tu_tensor(TX_FLOAT32, 1, TU_DIMS(0), NULL);
    assert_int_equal(tx_reverse_v2(z1, (int64_t[]){0, 0}, 2, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 1, TU_DIMS(0));
    tx_tensor_free(o);
    assert_int_equal(tx_reverse_v2(z, (int64_t[]){7, -9, 7}, 3, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(0, 3));
    tx_tensor_free(o);
    tx_tensor *z9 = tu_tensor(TX_INT8, 9, TU_DIMS(2, 1, 1, 1, 1, 1, 1, 1, 0), NULL);
    assert_int_equal(tx_reverse_v2(z9, (int64_t[]){8}, 1, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 9, TU_DIMS(2, 1, 1, 1, 1, 1, 1, 1, 0));
    tx_tensor_free(o);
    tu_assert_error(tx_reverse_v2(z, NULL, 1, &o), TX_INVALID_ARGUMENT, "axis is NULL");
    /* ReverseOp (reverse_op.cc) refuses a first dim of 0 before anything else it checks, even
     * when dims is malformed; an empty dim elsewhere is fine (below rank 9). */
    tx_tensor *dz = bools(2, (int[]){1, 1});
    tu_assert_error(tx_reverse(z, dz, &o), TX_INVALID_ARGUMENT, "Invalid input first dimension. Found 0.");
    tu_assert_error(tx_reverse(z, d1, &o), TX_INVALID_ARGUMENT, "Invalid input first dimension. Found 0.");
    tu_assert_error(tx_reverse(z1, d2, &o), TX_INVALID_ARGUMENT, "Invalid input first dimension. Found 0.");
    tu_assert_error(tx_reverse(z, di, &o), TX_INVALID_ARGUMENT, "dims must be bool, got int32");
    assert_null(o);
    tx_tensor *z30 = tu_tensor(TX_INT32, 2, TU_DIMS(3, 0), NULL);
    assert_int_equal(tx_reverse(z30, dz, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(3, 0));
    tx_tensor_free(o);
    tu_assert_error(tx_reverse(z30, d1, &o), TX_INVALID_ARGUMENT, "dims has 1 values but tensor has rank 2");
    tx_tensor *tt[] = {t, s, d1, di, d2, r9, d9, r8, dd, z, z1, z9, dz, z30};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* ---- reverse_sequence ---- */

static void test_reverse_sequence_page_examples(void **state) {
    (void)state;
    /* batch_dim = 0, seq_dim = 1, input.dims = (4, 8, ...), seq_lengths = [7, 2, 3, 5]:
     * output[b, 0:L] = input[b, L-1::-1] and output[b, L:] = input[b, L:].  (The page writes
     * the reversed slices as input[b, L:0:-1], off by one, and its last "copied through" line
     * should read output[3, 5:, ...].) */
    tx_tensor *in = iota_from(TX_INT32, 3, TU_DIMS(4, 8, 2), 0), *o = NULL;
    tx_tensor *lens = tu_i64(4, TU_DIMS(7, 2, 3, 5));
    assert_int_equal(tx_reverse_sequence(in, lens, 1, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(4, 8, 2));
    const int32_t *v = tx_tensor_data(o);
    /* Row 0: positions 0..6 reversed, 7 kept. */
    for (int s = 0; s < 8; s++) {
        int from = s < 7 ? 6 - s : s;
        assert_int_equal(v[(0 * 8 + s) * 2], (0 * 8 + from) * 2);
        assert_int_equal(v[(0 * 8 + s) * 2 + 1], (0 * 8 + from) * 2 + 1);
    }
    /* Row 3: 0..4 reversed, 5.. kept. */
    for (int s = 0; s < 8; s++) assert_int_equal(v[(3 * 8 + s) * 2], (3 * 8 + (s < 5 ? 4 - s : s)) * 2);
    char *want = malloc(tx_tensor_nbytes(in));
    naive_reverse_sequence(in, (int64_t[]){7, 2, 3, 5}, 1, 0, want);
    assert_memory_equal(v, want, tx_tensor_nbytes(in));
    free(want);
    tx_tensor_free(o);
    tx_tensor_free(in);
    /* batch_dim = 2, seq_dim = 0, input.dims = (8, ?, 4, ...) with int32 seq_lengths. */
    in = iota_from(TX_INT16, 4, TU_DIMS(8, 3, 4, 2), 0);
    tx_tensor *l32 = tu_i32(4, (int32_t[]){7, 2, 3, 5});
    assert_int_equal(tx_reverse_sequence(in, l32, 0, 2, &o), TX_OK);
    want = malloc(tx_tensor_nbytes(in));
    naive_reverse_sequence(in, (int64_t[]){7, 2, 3, 5}, 0, 2, want);
    assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(in));
    /* output[0:7, :, 0, :] = input[6::-1, :, 0, :] */
    assert_int_equal(((int16_t *)tx_tensor_data(o))[0], ((int16_t *)tx_tensor_data(in))[6 * 24]);
    free(want);
    tx_tensor_free(o);
    tx_tensor_free(in);
    tx_tensor_free(lens);
    tx_tensor_free(l32);
}

static void test_reverse_sequence_brute(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_BOOL, TX_BFLOAT16, TX_UINT32, TX_FLOAT64, TX_COMPLEX128};
    for (int trial = 0; trial < 300; trial++) {
        size_t r = 2 + rnd() % 4;
        int64_t dims[5];
        for (size_t d = 0; d < r; d++) dims[d] = (int64_t)(rnd() % 5) + (trial % 9 != 0);
        size_t bd = rnd() % r, sd = rnd() % r;
        if (sd == bd) sd = (bd + 1) % r;
        int64_t lens[8];
        for (int64_t b = 0; b < dims[bd]; b++) lens[b] = (int64_t)(rnd() % (uint64_t)(dims[sd] + 1));
        tx_tensor *t = random_tensor(dts[trial % 5], r, dims), *o = NULL;
        tx_tensor *lt = tu_i64((size_t)dims[bd], lens);
        char *want = malloc(tx_tensor_nbytes(t) + 1);
        naive_reverse_sequence(t, lens, sd, bd, want);
        assert_int_equal(tx_reverse_sequence(t, lt, (int64_t)sd, (int64_t)bd, &o), TX_OK);
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(t));
        tx_tensor_free(o);
        tx_tensor_free(t);
        tx_tensor_free(lt);
        free(want);
    }
}

static void test_reverse_sequence_errors(void **state) {
    (void)state;
    tx_tensor *in = iota(TX_INT32, 2, TU_DIMS(3, 4)), *o = NULL;
    tx_tensor *ok = tu_i64(3, TU_DIMS(4, 0, 1)), *o2 = NULL;
    /* seq_lengths[i] == input.dims[seq_dim] is accepted (the page's "<" is stricter than TF). */
    assert_int_equal(tx_reverse_sequence(in, ok, 1, 0, &o2), TX_OK);
    check_values(o2, TX_INT32, 2, TU_DIMS(3, 4), TU_VALS(4, 3, 2, 1, 5, 6, 7, 8, 9, 10, 11, 12));
    tx_tensor *big = tu_i64(3, TU_DIMS(4, 5, 1)), *neg = tu_i32(3, (int32_t[]){0, 1, -1});
    tx_tensor *short_ = tu_i64(2, TU_DIMS(1, 1)), *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), NULL);
    tx_tensor *m = tu_tensor(TX_INT64, 2, TU_DIMS(3, 1), NULL);
    tu_assert_error(tx_reverse_sequence(in, big, 1, 0, &o), TX_INVALID_ARGUMENT,
                    "seq_lengths[1] = 5 is above input.dims[seq_dim=1] = 4");
    tu_assert_error(tx_reverse_sequence(in, neg, 1, 0, &o), TX_INVALID_ARGUMENT, "seq_lengths[2] = -1 is negative");
    tu_assert_error(tx_reverse_sequence(in, short_, 1, 0, &o), TX_INVALID_ARGUMENT,
                    "seq_lengths has 2 values, input.dims[batch_dim=0] is 3");
    /* a dtype the op does not take: unimplemented (TF 2.21 decides) */
    tu_assert_error(tx_reverse_sequence(in, f, 1, 0, &o), TX_UNIMPLEMENTED, "seq_lengths must be int32 or int64, got float32");
    /* ... and checked before the dims, as TF's op definition is */
    tu_assert_error(tx_reverse_sequence(in, f, 1, -1, &o), TX_UNIMPLEMENTED, "seq_lengths must be int32 or int64");
    tu_assert_error(tx_reverse_sequence(in, m, 1, 0, &o), TX_INVALID_ARGUMENT, "seq_lengths must be 1-D, got rank 2");
    tu_assert_error(tx_reverse_sequence(in, ok, 0, 0, &o), TX_INVALID_ARGUMENT, "batch_dim and seq_dim must differ, both are 0");
    tu_assert_error(tx_reverse_sequence(in, ok, 2, 0, &o), TX_INVALID_ARGUMENT, "seq_dim 2 must be < the input rank 2");
    tu_assert_error(tx_reverse_sequence(in, ok, 1, 2, &o), TX_INVALID_ARGUMENT, "batch_dim 2 must be < the input rank 2");
    tu_assert_error(tx_reverse_sequence(in, ok, -1, 0, &o), TX_INVALID_ARGUMENT, "seq_dim -1 is negative");
    tu_assert_error(tx_reverse_sequence(in, ok, 1, -1, &o), TX_INVALID_ARGUMENT, "batch_dim -1 is negative");
    tu_assert_error(tx_reverse_sequence(NULL, ok, 1, 0, &o), TX_INVALID_ARGUMENT, "input is NULL");
    tu_assert_error(tx_reverse_sequence(in, NULL, 1, 0, &o), TX_INVALID_ARGUMENT, "seq_lengths is NULL");
    assert_null(o);
    /* TensorFlow's kernel takes ranks 2..5 only; rank 6 fails after the other checks pass. */
    tx_tensor *r6 = tu_tensor(TX_INT8, 6, TU_DIMS(2, 2, 1, 1, 1, 1), NULL), *l2 = tu_i64(2, TU_DIMS(1, 2));
    tu_assert_error(tx_reverse_sequence(r6, l2, 1, 0, &o), TX_INVALID_ARGUMENT, "handles ranks 2 to 5 only");
    tx_tensor *r1 = tu_tensor(TX_INT8, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_reverse_sequence(r1, l2, 1, 0, &o), TX_INVALID_ARGUMENT, "seq_dim 1 must be < the input rank 1");
    /* Strings and zero-size inputs. */
    tx_tensor *st = tu_strings(2, TU_DIMS(2, 3), (const char *[]){"a", "b", "c", "d", "e", "f"});
    tx_tensor *l3 = tu_i64(3, TU_DIMS(2, 0, 1));
    assert_int_equal(tx_reverse_sequence(st, l3, 0, 1, &o), TX_OK);
    tx_tensor_free(st);
    assert_strings(o, (const char *[]){"d", "b", "c", "a", "e", "f"});
    tx_tensor_free(o);
    tx_tensor *z = tu_tensor(TX_INT32, 3, TU_DIMS(2, 0, 3), NULL);
    assert_int_equal(tx_reverse_sequence(z, l2, 2, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 0, 3));
    tx_tensor_free(o);
    tu_assert_error(tx_reverse_sequence(z, l2, 1, 0, &o), TX_INVALID_ARGUMENT, "is above input.dims[seq_dim=1] = 0");
    tx_tensor *tt[] = {in, ok, big, neg, short_, f, m, r6, l2, r1, l3, z};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* The deliberate differences from TF 2.21 that tests/tf/ops_reorder.py registers: tensorx moves
 * the bits where TF's meshgrid (x * ones on threads that flush subnormals) and its oneDNN
 * ConjugateTranspose change them, and returns what TF's ConjugateTranspose aborts on. */
static void test_tf_differences_kept(void **state) {
    (void)state;
    const uint32_t f32[3] = {0x00000011u, 0x80000011u, 0x7f800001u}; /* subnormals, sNaN */
    const uint16_t bf16[3] = {0x0011u, 0x8011u, 0x7f81u};
    tx_tensor *x = NULL, *b = NULL, *outs[2] = {NULL, NULL}, *o = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT32, 1, TU_DIMS(3), f32, sizeof f32, &x), TX_OK);
    assert_int_equal(tx_tensor_from_data(TX_BFLOAT16, 2, TU_DIMS(1, 3), bf16, sizeof bf16, &b),
                     TX_OK);
    const tx_tensor *args[1] = {x};
    assert_int_equal(tx_meshgrid(args, 1, TX_MESHGRID_XY, outs), TX_OK);
    assert_memory_equal(tx_tensor_data(outs[0]), f32, sizeof f32); /* TF: 0, -0, 0x7fc00001 */
    tx_tensor_free(outs[0]);
    /* bfloat16, identity permutation, conjugate: TF's oneDNN path gives 0, -0, 0x7fc1 */
    tx_tensor *id = tu_i32(2, (int32_t[]){0, 1});
    assert_int_equal(tx_transpose(b, id, 1, &o), TX_OK);
    assert_memory_equal(tx_tensor_data(o), bf16, sizeof bf16);
    tx_tensor_free(o);
    /* TF's ConjugateTranspose aborts on a float32 or bfloat16 scalar and on strings of rank < 2 */
    const float one = 1.5f;
    tx_tensor *s = NULL, *str = tu_strings(1, TU_DIMS(2), (const char *[]){"Intel", "VINO"});
    assert_int_equal(tx_tensor_from_data(TX_FLOAT32, 0, NULL, &one, sizeof one, &s), TX_OK);
    assert_int_equal(tx_transpose(s, NULL, 1, &o), TX_OK);
    assert_true(tx_tensor_rank(o) == 0 && *(const float *)tx_tensor_data(o) == 1.5f);
    tx_tensor_free(o);
    assert_int_equal(tx_transpose(str, NULL, 1, &o), TX_OK);
    assert_strings(o, (const char *[]){"Intel", "VINO"});
    tx_tensor_free(o);
    tx_tensor_free(s);
    tx_tensor_free(str);
    tx_tensor_free(id);
    tx_tensor_free(b);
    tx_tensor_free(x);
}

/* ---- large inputs: the thread-pool paths give the naive loops' bytes for 1 and 4 threads ---- */

static void test_large_parallel(void **state) {
    (void)state;
    for (int threads = 1; threads <= 4; threads += 3) {
        tx_set_num_threads(threads);
        /* transpose: a few big planes (chunked), many small planes, a wide-element copy. */
        check_transpose(TX_FLOAT32, 2, (int64_t[]){700, 650}, (size_t[]){1, 0});
        check_transpose(TX_INT16, 3, (int64_t[]){3, 500, 420}, (size_t[]){2, 0, 1});
        check_transpose(TX_UINT8, 3, (int64_t[]){40000, 7, 5}, (size_t[]){0, 2, 1});
        check_transpose(TX_FLOAT64, 3, (int64_t[]){300, 200, 3}, (size_t[]){1, 0, 2});
        check_transpose(TX_COMPLEX64, 3, (int64_t[]){1, 1, 200000}, (size_t[]){1, 0, 2});
        /* conjugate on a large complex tensor */
        tx_tensor *z = random_tensor(TX_COMPLEX128, 2, TU_DIMS(300, 500)), *o = NULL;
        assert_int_equal(tx_transpose(z, NULL, 1, &o), TX_OK);
        char *want = malloc(tx_tensor_nbytes(z));
        naive_transpose(z, (size_t[]){1, 0}, want);
        /* the imaginary part's sign bit: in its last byte on a little-endian host, first on a
         * big-endian one */
        const int sign_byte = 8 + (TX_HOST_LITTLE_ENDIAN ? 7 : 0);
        for (int64_t i = 0; i < tx_tensor_numel(z); i++) want[16 * i + sign_byte] ^= (char)0x80;
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(z));
        tx_tensor_free(o);
        free(want);
        tx_tensor_free(z);
        /* reverse_sequence, both dim orders */
        tx_tensor *in = random_tensor(TX_INT32, 3, TU_DIMS(64, 100, 50));
        int64_t lens[100];
        for (int b = 0; b < 100; b++) lens[b] = (int64_t)(rnd() % 65);
        tx_tensor *lt = tu_i64(100, lens);
        want = malloc(tx_tensor_nbytes(in));
        assert_int_equal(tx_reverse_sequence(in, lt, 0, 1, &o), TX_OK);
        naive_reverse_sequence(in, lens, 0, 1, want);
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(in));
        tx_tensor_free(o);
        tx_tensor_free(lt);
        for (int b = 0; b < 64; b++) lens[b] = (int64_t)(rnd() % 101);
        lt = tu_i64(64, lens);
        assert_int_equal(tx_reverse_sequence(in, lt, 1, 0, &o), TX_OK);
        naive_reverse_sequence(in, lens, 1, 0, want);
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(in));
        tx_tensor_free(o);
        tx_tensor_free(lt);
        free(want);
        /* concat: narrow rows (row blocks) and wide rows (per-input strided copies). */
        tx_tensor *a = random_tensor(TX_UINT16, 2, TU_DIMS(100000, 3)), *b = random_tensor(TX_UINT16, 2, TU_DIMS(100000, 5));
        const tx_tensor *ab[3] = {a, b, a};
        assert_int_equal(tx_concat(ab, 3, 1, &o), TX_OK);
        const uint16_t *r = tx_tensor_data(o), *pa = tx_tensor_data(a), *pb = tx_tensor_data(b);
        for (int64_t k = 0; k < 100000; k += 997) {
            assert_memory_equal(r + 11 * k, pa + 3 * k, 6);
            assert_memory_equal(r + 11 * k + 3, pb + 5 * k, 10);
            assert_memory_equal(r + 11 * k + 8, pa + 3 * k, 6);
        }
        tx_tensor_free(o);
        tx_tensor *c = random_tensor(TX_INT8, 2, TU_DIMS(300, 3000)), *e = random_tensor(TX_INT8, 2, TU_DIMS(300, 2000));
        const tx_tensor *ce[2] = {c, e};
        assert_int_equal(tx_concat(ce, 2, -1, &o), TX_OK);
        for (int64_t k = 0; k < 300; k++) {
            assert_memory_equal((char *)tx_tensor_data(o) + 5000 * k, (char *)tx_tensor_data(c) + 3000 * k, 3000);
            assert_memory_equal((char *)tx_tensor_data(o) + 5000 * k + 3000, (char *)tx_tensor_data(e) + 2000 * k, 2000);
        }
        tx_tensor_free(o);
        /* meshgrid: big first block (outer 1) and many copies of a small block. */
        tx_tensor *x = iota(TX_INT32, 1, TU_DIMS(700)), *y = iota_from(TX_INT32, 1, TU_DIMS(600), 1000);
        const tx_tensor *xy[2] = {x, y};
        tx_tensor *outs[2];
        assert_int_equal(tx_meshgrid(xy, 2, TX_MESHGRID_IJ, outs), TX_OK);
        const int32_t *g0 = tx_tensor_data(outs[0]), *g1 = tx_tensor_data(outs[1]);
        for (int64_t i = 0; i < 700; i++)
            for (int64_t k = 0; k < 600; k++) {
                if (g0[i * 600 + k] != i + 1 || g1[i * 600 + k] != 1000 + k)
                    fail_msg("meshgrid [%lld, %lld]: %d %d", (long long)i, (long long)k, g0[i * 600 + k], g1[i * 600 + k]);
            }
        tx_tensor_free(outs[0]);
        tx_tensor_free(outs[1]);
        tx_tensor *tt[] = {in, a, b, c, e, x, y};
        for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
    }
    tx_set_num_threads(0);
}

/* ---- allocation failure ---- */

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *a = iota(TX_INT32, 2, TU_DIMS(2, 3)), *b = iota(TX_INT32, 2, TU_DIMS(2, 3));
    tx_tensor *sa = tu_strings(1, TU_DIMS(2), (const char *[]){"x", "yy"});
    tx_tensor *sb = tu_strings(1, TU_DIMS(2), (const char *[]){"zzz", ""});
    tx_tensor *d = bools(2, (int[]){1, 0}), *d1 = bools(1, (int[]){1}), *lens = tu_i32(2, (int32_t[]){2, 1});
    tx_tensor *perm = tu_i64(2, TU_DIMS(1, 0));
    const tx_tensor *ab[2] = {a, b}, *ss[2] = {sa, sb};
    tu_alloc_install();
    for (int op = 0; op < 14; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[2] = {NULL, NULL};
            tx_status st;
            switch (op) {
            case 0: st = tx_concat(ab, 2, 1, &o); break;
            case 1: st = tx_concat(ss, 2, 0, &o); break;
            case 2: st = tx_concat(ab, 1, 0, &o); break;
            case 3: st = tx_pack(ab, 2, 1, &o); break;
            case 4: st = tx_pack(ss, 2, 0, &o); break;
            case 5: st = tx_meshgrid(ab, 2, TX_MESHGRID_XY, outs); break;
            case 6: st = tx_meshgrid(ss, 2, TX_MESHGRID_IJ, outs); break;
            case 7: st = tx_reverse(a, d, &o); break;
            case 8: st = tx_reverse_v2(sa, (int64_t[]){0}, 1, &o); break;
            case 9: st = tx_reverse_sequence(a, lens, 1, 0, &o); break;
            case 10: st = tx_transpose(a, perm, 0, &o); break;
            case 11: st = tx_transpose(sa, NULL, 0, &o); break;
            case 12: st = tx_transpose(a, NULL, 1, &o); break;
            default: st = tx_reverse(sa, d1, &o); break;
            }
            if (st == TX_OK) {
                tx_tensor_free(o);
                tx_tensor_free(outs[0]);
                tx_tensor_free(outs[1]);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(o);
            assert_null(outs[0]);
            assert_null(outs[1]);
            assert_int_equal(tu_alloc_live(), 0);
        }
    }
    tu_alloc_uninstall();
    tx_tensor *tt[] = {a, b, sa, sb, d, d1, lens, perm};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reverse_page_examples),
        cmocka_unit_test(test_reverse_brute),
        cmocka_unit_test(test_reverse_edge_errors),
        cmocka_unit_test(test_reverse_sequence_page_examples),
        cmocka_unit_test(test_reverse_sequence_brute),
        cmocka_unit_test(test_reverse_sequence_errors),
        cmocka_unit_test(test_tf_differences_kept),
        cmocka_unit_test(test_large_parallel),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
