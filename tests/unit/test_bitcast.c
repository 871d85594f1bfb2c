/* SPDX-License-Identifier: Apache-2.0 */
/* test_bitcast.c -- bitcast: the examples of its page, views of the input's bytes, the shape
 * rules between widths, and every error with its status and message. */
#include "casting_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- bitcast ------------------------------------------------------------------------------ */

static void test_bitcast_page_examples(void **state) {
    (void)state;
    /* Example 1: tf.bitcast([1., 2., 3.], tf.complex128) fails: "Cannot bitcast from float to
     * complex128: shape [3]" (the Hindi page shows the older "Cannot bitcast from 1 to 18"). */
    tx_tensor *a = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(1, 2, 3)), *o = NULL;
    tu_assert_error(tx_bitcast(a, TX_COMPLEX128, &o), TX_INVALID_ARGUMENT,
                    "Cannot bitcast from float32 to complex128: shape [3]");
    assert_null(o);
    tx_tensor_free(a);
    /* Example 2: tf.bitcast(tf.constant(0xffffffff, dtype=tf.uint32), tf.uint8) -> [255]*4 */
    const uint32_t ff = 0xffffffffu;
    a = raw(TX_UINT32, 0, NULL, &ff);
    assert_int_equal(tx_bitcast(a, TX_UINT8, &o), TX_OK);
    tu_assert_shape(o, TX_UINT8, 1, TU_DIMS(4));
    tu_assert_values(o, TU_VALS(255, 255, 255, 255));
    assert_true(tx_tensor_shares_buffer(o, a));
    tx_tensor_free(a); /* the view keeps the buffer alive */
    tu_assert_values(o, TU_VALS(255, 255, 255, 255));
    tx_tensor_free(o);
    /* Example 3: bitcast(cast(equal(x, y), float32), uint8) -> [[0,0,0,0],[0,0,128,63],[0,0,128,63]]
     * on a little-endian host; TF's note: a big-endian host gives each float's bytes the other
     * way round, [63,128,0,0]. */
    a = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(0, 1, 1));
    assert_int_equal(tx_bitcast(a, TX_UINT8, &o), TX_OK);
    tu_assert_shape(o, TX_UINT8, 2, TU_DIMS(3, 4));
    tu_assert_values(o, TX_HOST_LITTLE_ENDIAN ? TU_VALS(0, 0, 0, 0, 0, 0, 128, 63, 0, 0, 128, 63)
                                              : TU_VALS(0, 0, 0, 0, 63, 128, 0, 0, 63, 128, 0, 0));
    assert_ptr_equal(tx_tensor_data(o), tx_tensor_data(a));
    tx_tensor_free(o);
    tx_tensor_free(a);
}

static void test_bitcast_shapes(void **state) {
    (void)state;
    tx_tensor *a = tu_tensor(TX_INT8, 2, TU_DIMS(3, 4), NULL), *o = NULL, *o2 = NULL;
    /* smaller -> larger: the last dim must be 4 and goes away; larger -> smaller appends one */
    assert_int_equal(tx_bitcast(a, TX_INT32, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(3));
    assert_int_equal(tx_bitcast(o, TX_QUINT8, &o2), TX_OK);
    tu_assert_shape(o2, TX_QUINT8, 2, TU_DIMS(3, 4));
    assert_true(tx_tensor_shares_buffer(o2, a));
    tx_tensor_free(o2);
    assert_int_equal(tx_bitcast(o, TX_FLOAT32, &o2), TX_OK); /* equal sizes keep the shape */
    tu_assert_shape(o2, TX_FLOAT32, 1, TU_DIMS(3));
    tx_tensor_free(o2);
    tx_tensor_free(o);
    tu_assert_error(tx_bitcast(a, TX_UINT16, &o), TX_INVALID_ARGUMENT,
                    "Cannot bitcast from int8 to uint16: shape [3,4]");
    tu_assert_error(tx_bitcast(a, TX_COMPLEX128, &o), TX_INVALID_ARGUMENT, "last dimension must be 16");
    tx_tensor_free(a);
    /* TF's testErrors: [1, 1] int8 -> int32 fails; testEmpty: an int32 scalar -> int8 is [4]. */
    a = tu_tensor(TX_INT8, 2, TU_DIMS(1, 1), NULL);
    tu_assert_error(tx_bitcast(a, TX_INT32, &o), TX_INVALID_ARGUMENT, "Cannot bitcast from int8 to int32");
    tx_tensor_free(a);
    a = tu_tensor(TX_INT32, 0, NULL, TU_VALS(1));
    assert_int_equal(tx_bitcast(a, TX_INT8, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 1, TU_DIMS(4));
    /* the host's bytes: TF gives [0, 0, 0, 1] on a big-endian host */
    tu_assert_values(o, TX_HOST_LITTLE_ENDIAN ? TU_VALS(1, 0, 0, 0) : TU_VALS(0, 0, 0, 1));
    tx_tensor_free(o);
    tu_assert_error(tx_bitcast(a, TX_INT64, &o), TX_INVALID_ARGUMENT, "shape []");
    tx_tensor_free(a);
    /* complex128 -> float64 -> complex64 and uint64 / bfloat16 / quantized types. */
    const double c[4] = {1.0, -2.0, 3.0, 4.0};
    a = raw1(TX_COMPLEX128, 2, c);
    assert_int_equal(tx_bitcast(a, TX_FLOAT64, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT64, 2, TU_DIMS(2, 2));
    tu_assert_values(o, TU_VALS(1, -2, 3, 4));
    assert_int_equal(tx_bitcast(o, TX_UINT64, &o2), TX_OK);
    tu_assert_shape(o2, TX_UINT64, 2, TU_DIMS(2, 2));
    assert_true(((const uint64_t *)tx_tensor_data(o2))[0] == 0x3ff0000000000000ull);
    tx_tensor_free(o2);
    assert_int_equal(tx_bitcast(o, TX_BFLOAT16, &o2), TX_OK);
    tu_assert_shape(o2, TX_BFLOAT16, 3, TU_DIMS(2, 2, 4));
    tx_tensor_free(o2);
    tx_tensor_free(o);
    tx_tensor_free(a);
    /* zero-size dims */
    a = tu_tensor(TX_FLOAT32, 2, TU_DIMS(0, 3), NULL);
    assert_int_equal(tx_bitcast(a, TX_QINT16, &o), TX_OK);
    tu_assert_shape(o, TX_QINT16, 3, TU_DIMS(0, 3, 2));
    tx_tensor_free(o);
    tx_tensor_free(a);
    a = tu_tensor(TX_UINT8, 2, TU_DIMS(0, 8), NULL);
    assert_int_equal(tx_bitcast(a, TX_COMPLEX64, &o), TX_OK);
    tu_assert_shape(o, TX_COMPLEX64, 1, TU_DIMS(0));
    tx_tensor_free(o);
    tx_tensor_free(a);
}

static void test_bitcast_errors(void **state) {
    (void)state;
    tx_tensor *b = tu_tensor(TX_BOOL, 1, TU_DIMS(4), NULL), *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), NULL), *o = NULL;
    tu_assert_error(tx_bitcast(b, TX_UINT8, &o), TX_UNIMPLEMENTED, "input dtype bool cannot be bitcast");
    tu_assert_error(tx_bitcast(f, TX_BOOL, &o), TX_UNIMPLEMENTED, "type bool is not a bitcast target");
    tu_assert_error(tx_bitcast(f, TX_STRING, &o), TX_UNIMPLEMENTED, "type string");
    tx_tensor *s = tu_strings(1, TU_DIMS(1), (const char *[]){"abcd"});
    tu_assert_error(tx_bitcast(s, TX_INT32, &o), TX_UNIMPLEMENTED, "input dtype string");
    tu_assert_error(tx_bitcast(NULL, TX_INT32, &o), TX_INVALID_ARGUMENT, "bitcast: input is NULL");
    tu_assert_error(tx_bitcast(f, (tx_dtype)20, &o), TX_INVALID_ARGUMENT, "type 20 is not a dtype");
    assert_null(o);
    int64_t dims[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) dims[i] = 1;
    tx_tensor *big = tu_tensor(TX_INT16, TX_MAX_RANK, dims, NULL);
    tu_assert_error(tx_bitcast(big, TX_INT8, &o), TX_INVALID_ARGUMENT, "rank 254 is the maximum");
    assert_int_equal(tx_bitcast(big, TX_INT32, &o), TX_INVALID_ARGUMENT);
    assert_int_equal(tx_bitcast(big, TX_UINT16, &o), TX_OK);
    tx_tensor_free(o);
    tx_tensor_free(big);
    tx_tensor_free(s);
    tx_tensor_free(b);
    tx_tensor_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitcast_page_examples),
        cmocka_unit_test(test_bitcast_shapes),
        cmocka_unit_test(test_bitcast_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
