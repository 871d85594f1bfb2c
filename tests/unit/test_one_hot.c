/* SPDX-License-Identifier: Apache-2.0 */
/* test_one_hot.c -- one_hot (with its out-of-range policies) and sequence_mask: the examples of
 * TF's pages, every output dtype, all-off rows, the split of rows over threads, lengths of other
 * dtypes, and every error with its status and message. */
#include "gather_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- out-of-range policies (tx_*_ex) ------------------------------------------------------- */

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

/* Wide rows whose off value is one repeated byte are filled, then their on values set
 * (ops/encode.c); other off values go to the kernel.  Both against an element-by-element
 * reference, under every policy, for the new axis last and first, on 1 and 3 threads. */
static void test_one_hot_fill(void **state) {
    (void)state;
    enum { N = 700, DEPTH = 97 };
    int64_t iv[N];
    for (int i = 0; i < N; i++) iv[i] = (int64_t)((i * 7919) % (3 * DEPTH)) - DEPTH; /* a third in range */
    tx_tensor *ind = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT64, 1, TU_DIMS(N), iv, sizeof iv, &ind), TX_OK);
    const int32_t offs[] = {-1, 0x01010101, 7}; /* repeated bytes 0xff and 0x01; 7 is not one */
    for (size_t k = 0; k < sizeof offs / sizeof *offs; k++) {
        const int32_t on_v = 5;
        tx_tensor *on = NULL, *off = NULL;
        assert_int_equal(tx_tensor_from_data(TX_INT32, 0, NULL, &on_v, 4, &on), TX_OK);
        assert_int_equal(tx_tensor_from_data(TX_INT32, 0, NULL, &offs[k], 4, &off), TX_OK);
        for (int pol = TX_OOB_ERROR; pol <= TX_OOB_WRAP; pol++)
            for (int axis = -1; axis <= 0; axis++)
                for (int t = 1; t <= 3; t += 2) {
                    tx_set_num_threads(t);
                    tx_tensor *y = NULL;
                    assert_int_equal(tx_one_hot_oob(ind, DEPTH, on, off, axis, TX_INT32, (tx_oob_policy)pol, &y),
                                     TX_OK);
                    const int32_t *o = tx_tensor_data(y);
                    for (int i = 0; i < N; i++) {
                        int64_t v = iv[i];
                        if (pol == TX_OOB_CLAMP) v = v < 0 ? 0 : v >= DEPTH ? DEPTH - 1 : v;
                        if (pol == TX_OOB_WRAP) v = ((v % DEPTH) + DEPTH) % DEPTH;
                        for (int d = 0; d < DEPTH; d++)
                            assert_int_equal(o[axis == -1 ? (size_t)i * DEPTH + d : (size_t)d * N + i],
                                             v == d ? on_v : offs[k]);
                    }
                    tx_tensor_free(y);
                }
        tx_tensor_free(on);
        tx_tensor_free(off);
    }
    tx_set_num_threads(0);
    tx_tensor_free(ind);
}

/* ---- inputs that are not what tensorx makes ------------------------------------------------- */

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
        cmocka_unit_test(test_one_hot_page_examples),
        cmocka_unit_test(test_one_hot_types),
        cmocka_unit_test(test_one_hot_errors),
        cmocka_unit_test(test_sequence_mask),
        cmocka_unit_test(test_oob_one_hot),
        cmocka_unit_test(test_one_hot_threads),
        cmocka_unit_test(test_one_hot_fill),
        cmocka_unit_test(test_sequence_mask_casts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
