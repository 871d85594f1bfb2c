/* SPDX-License-Identifier: Apache-2.0 */
/* test_split.c -- split (count and size list) and unpack: the examples of TF's page, TF's edge cases
 * and error rules (status + message), and string tensors. */
#include "slicing_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- split / unpack -------------------------------------------------------------------------- */

static void test_split(void **state) {
    (void)state;
    /* 'value' is a tensor with shape [5, 30]; split0, split1, split2 = tf.split(1, 3, value);
     * tf.shape(split0) ==> [5, 10]. */
    tx_tensor *v = iota(TX_FLOAT32, 2, TU_DIMS(5, 30)), *outs[6];
    assert_int_equal(tx_split(v, 1, 3, outs), TX_OK);
    for (int i = 0; i < 3; i++) {
        tu_assert_shape(outs[i], TX_FLOAT32, 2, TU_DIMS(5, 10));
        for (int r = 0; r < 5; r++)
            for (int c = 0; c < 10; c++)
                assert_true(((float *)tx_tensor_data(outs[i]))[r * 10 + c] == (float)(r * 30 + i * 10 + c + 1));
        tx_tensor_free(outs[i]);
    }
    /* Negative split_dim; num_split 1 copies. */
    assert_int_equal(tx_split(v, -2, 5, outs), TX_OK);
    tu_assert_shape(outs[4], TX_FLOAT32, 2, TU_DIMS(1, 30));
    assert_true(((float *)tx_tensor_data(outs[4]))[0] == 121.0f);
    for (int i = 0; i < 5; i++) tx_tensor_free(outs[i]);
    assert_int_equal(tx_split(v, 0, 1, outs), TX_OK);
    tu_assert_shape(outs[0], TX_FLOAT32, 2, TU_DIMS(5, 30));
    assert_false(tx_tensor_shares_buffer(outs[0], v));
    tx_tensor_free(outs[0]);
    /* Errors leave outs untouched when num_split or split_dim is rejected. */
    outs[0] = (tx_tensor *)outs;
    tu_assert_error(tx_split(v, 1, 4, outs), TX_INVALID_ARGUMENT,
                    "evenly divide the split dimension, but got split_dim 1 (size = 30) and num_split 4");
    assert_ptr_equal(outs[0], outs);
    tu_assert_error(tx_split(v, 2, 1, outs), TX_INVALID_ARGUMENT, "-input rank (-2) <= split_dim < input rank (2), but got 2");
    tu_assert_error(tx_split(v, -3, 1, outs), TX_INVALID_ARGUMENT, "but got -3");
    tu_assert_error(tx_split(v, 0, 0, outs), TX_INVALID_ARGUMENT, "should be > 0, but got 0");
    tu_assert_error(tx_split(v, 0, 1LL << 40, outs), TX_INVALID_ARGUMENT, "int32");
    tu_assert_error(tx_split(NULL, 0, 1, outs), TX_INVALID_ARGUMENT, "value is NULL");
    tu_assert_error(tx_split(v, 0, 1, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
    tx_tensor_free(v);
    /* A zero-size dim splits into any number of empty parts. */
    v = tu_tensor(TX_INT8, 2, TU_DIMS(0, 3), NULL);
    assert_int_equal(tx_split(v, 0, 3, outs), TX_OK);
    for (int i = 0; i < 3; i++) {
        tu_assert_shape(outs[i], TX_INT8, 2, TU_DIMS(0, 3));
        tx_tensor_free(outs[i]);
    }
    tx_tensor_free(v);
    v = tu_tensor(TX_INT8, 0, NULL, TU_VALS(1));
    tu_assert_error(tx_split(v, 0, 1, outs), TX_INVALID_ARGUMENT, "-input rank (0) <= split_dim < input rank (0), but got 0");
    tx_tensor_free(v);
}

static void test_split_v(void **state) {
    (void)state;
    tx_tensor *v = iota(TX_INT64, 2, TU_DIMS(2, 6)), *outs[4];
    assert_int_equal(tx_split_v(v, V(1, -1, 2), 3, 1, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT64, 2, TU_DIMS(2, 1));
    tu_assert_values(outs[0], TU_VALS(1, 7));
    tu_assert_shape(outs[1], TX_INT64, 2, TU_DIMS(2, 3));
    tu_assert_values(outs[1], TU_VALS(2, 3, 4, 8, 9, 10));
    tu_assert_shape(outs[2], TX_INT64, 2, TU_DIMS(2, 2));
    tu_assert_values(outs[2], TU_VALS(5, 6, 11, 12));
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    /* Zero sizes and a -1 that takes nothing. */
    assert_int_equal(tx_split_v(v, V(0, 6, -1, 0), 4, -1, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT64, 2, TU_DIMS(2, 0));
    tu_assert_shape(outs[1], TX_INT64, 2, TU_DIMS(2, 6));
    tu_assert_shape(outs[2], TX_INT64, 2, TU_DIMS(2, 0));
    for (int i = 0; i < 4; i++) tx_tensor_free(outs[i]);
    /* One output must be the whole dim: TF refuses [-1] alone. */
    assert_int_equal(tx_split_v(v, V(2), 1, 0, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT64, 2, TU_DIMS(2, 6));
    tx_tensor_free(outs[0]);
    tu_assert_error(tx_split_v(v, V(-1), 1, 0, outs), TX_INVALID_ARGUMENT,
                    "if there is only one output, it must have the same size as the input. Input size: 2 output size: -1");
    assert_null(outs[0]);
    tu_assert_error(tx_split_v(v, V(1, 2, 2), 3, 1, outs), TX_INVALID_ARGUMENT, "Got: 5 for dim 1 of size 6");
    tu_assert_error(tx_split_v(v, V(-1, 5, 2), 3, 1, outs), TX_INVALID_ARGUMENT, "Got: 7");
    tu_assert_error(tx_split_v(v, V(-1, -1, 2), 3, 1, outs), TX_INVALID_ARGUMENT, "only have one -1");
    tu_assert_error(tx_split_v(v, V(8, -2), 2, 1, outs), TX_INVALID_ARGUMENT,
                    "split size at index 1 must be >= 0. Got: -2");
    tu_assert_error(tx_split_v(v, V(INT64_MAX, 2, -1), 3, 1, outs), TX_INVALID_ARGUMENT, "overflows");
    tu_assert_error(tx_split_v(v, V(1), 0, 1, outs), TX_INVALID_ARGUMENT, "should be > 0");
    tu_assert_error(tx_split_v(v, NULL, 2, 1, outs), TX_INVALID_ARGUMENT, "size_splits is NULL");
    tu_assert_error(tx_split_v(v, V(1, 5), 2, 2, outs), TX_INVALID_ARGUMENT, "but got 2");
    assert_null(outs[0]);
    assert_null(outs[1]);
    tx_tensor_free(v);
}

static void test_unpack(void **state) {
    (void)state;
    /* A tensor of shape (A, B, C, D) = (2, 3, 4, 5). */
    tx_tensor *v = iota(TX_INT32, 4, TU_DIMS(2, 3, 4, 5)), *outs[8];
    assert_int_equal(tx_unpack(v, TX_UNPACK_INFER_NUM, 0, outs), TX_OK);
    for (int i = 0; i < 2; i++) {
        tu_assert_shape(outs[i], TX_INT32, 3, TU_DIMS(3, 4, 5));
        assert_int_equal(((int32_t *)tx_tensor_data(outs[i]))[0], i * 60 + 1);
        tx_tensor_free(outs[i]);
    }
    assert_int_equal(tx_unpack(v, 3, 1, outs), TX_OK);
    for (int i = 0; i < 3; i++) {
        tu_assert_shape(outs[i], TX_INT32, 3, TU_DIMS(2, 4, 5));
        int32_t *d = tx_tensor_data(outs[i]);
        assert_int_equal(d[0], i * 20 + 1);
        assert_int_equal(d[20], 60 + i * 20 + 1);
        tx_tensor_free(outs[i]);
    }
    assert_int_equal(tx_unpack(v, 5, -1, outs), TX_OK);
    for (int i = 0; i < 5; i++) {
        tu_assert_shape(outs[i], TX_INT32, 3, TU_DIMS(2, 3, 4));
        int32_t *d = tx_tensor_data(outs[i]);
        assert_int_equal(d[0], i + 1);
        assert_int_equal(d[1], i + 6);
        tx_tensor_free(outs[i]);
    }
    outs[0] = (tx_tensor *)outs;
    tu_assert_error(tx_unpack(v, 4, 0, outs), TX_INVALID_ARGUMENT,
                    "input shape axis 0 must equal num 4, got shape [2,3,4,5]");
    assert_ptr_equal(outs[0], outs);
    tu_assert_error(tx_unpack(v, TX_UNPACK_INFER_NUM, 4, outs), TX_INVALID_ARGUMENT, "axis = 4 not in [-4, 4)");
    tu_assert_error(tx_unpack(v, TX_UNPACK_INFER_NUM, -5, outs), TX_INVALID_ARGUMENT, "axis = -5 not in [-4, 4)");
    tu_assert_error(tx_unpack(v, -2, 0, outs), TX_INVALID_ARGUMENT, "num must be >= 0");
    tx_tensor_free(v);
    v = tu_tensor(TX_INT32, 0, NULL, TU_VALS(3));
    tu_assert_error(tx_unpack(v, TX_UNPACK_INFER_NUM, 0, outs), TX_INVALID_ARGUMENT, "axis = 0 not in [0, 0)");
    tx_tensor_free(v);
    /* A zero-size axis gives no outputs; another zero dim gives empty outputs. */
    v = tu_tensor(TX_FLOAT64, 2, TU_DIMS(0, 3), NULL);
    assert_int_equal(tx_unpack(v, 0, 0, outs), TX_OK);
    assert_int_equal(tx_unpack(v, 3, 1, outs), TX_OK);
    for (int i = 0; i < 3; i++) {
        tu_assert_shape(outs[i], TX_FLOAT64, 1, TU_DIMS(0));
        tx_tensor_free(outs[i]);
    }
    tx_tensor_free(v);
    /* tf.unpack(x) == list(x) for strings too. */
    v = string_iota(2, TU_DIMS(2, 2));
    assert_int_equal(tx_unpack(v, 2, 1, outs), TX_OK);
    tx_tensor_free(v);
    assert_strings(outs[0], (const char *[]){"s0", "s2"});
    assert_strings(outs[1], (const char *[]){"s1", "s3"});
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
}

static void test_split_strings(void **state) {
    (void)state;
    tx_tensor *v = string_iota(2, TU_DIMS(2, 4)), *outs[2];
    assert_int_equal(tx_split(v, 1, 2, outs), TX_OK);
    tx_tensor_free(v);
    assert_strings(outs[0], (const char *[]){"s0", "s1", "s4", "s5"});
    assert_strings(outs[1], (const char *[]){"s2", "s3", "s6", "s7"});
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_split_v),
        cmocka_unit_test(test_unpack),
        cmocka_unit_test(test_split_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
