/* SPDX-License-Identifier: Apache-2.0 */
/* test_cast_modes.c -- tx_cast_in_mode: the default and saturate modes are tx_cast and
 * tx_saturate_cast bit for bit; the checked mode passes exact casts through and fails at the first
 * inexact element with its index, value and reason; argument errors; allocation failures. */
#include "testutil.h"

#include <math.h>
#include <string.h>

static tx_tensor *raw1(tx_dtype dt, int64_t n, const void *data) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(dt, 1, &n, data, (size_t)n * tx_dtype_size(dt), &t), TX_OK);
    return t;
}

static void assert_same_bits(const tx_tensor *a, const tx_tensor *b) {
    assert_int_equal(tx_tensor_dtype(a), tx_tensor_dtype(b));
    assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
    assert_memory_equal(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
}

/* Checked cast of x to `to`: must succeed with tx_cast's bits. */
static void checked_ok(const tx_tensor *x, tx_dtype to, unsigned flags) {
    tx_tensor *a = NULL, *b = NULL;
    if (tx_cast_in_mode(x, to, TX_CAST_CHECKED, flags, &a) != TX_OK)
        fail_msg("checked cast to %s: %s", tx_dtype_name(to), tx_last_error());
    assert_int_equal(tx_cast(x, to, &b), TX_OK);
    assert_same_bits(a, b);
    tx_tensor_free(a);
    tx_tensor_free(b);
}

static void checked_fails(const tx_tensor *x, tx_dtype to, unsigned flags, const char *fragment) {
    tx_tensor *o = (tx_tensor *)1;
    tu_assert_error(tx_cast_in_mode(x, to, TX_CAST_CHECKED, flags, &o), TX_INVALID_ARGUMENT, fragment);
    assert_null(o);
}

static void test_default_and_saturate_modes(void **state) {
    (void)state;
    const float v[] = {1.5f, -2.5f, 300.0f, -1e10f, NAN, INFINITY, 65519.0f, 1e-30f};
    tx_tensor *x = raw1(TX_FLOAT32, 8, v);
    const tx_dtype targets[] = {TX_INT8, TX_UINT8, TX_INT32, TX_UINT64, TX_FLOAT16, TX_BFLOAT16,
                                TX_COMPLEX64, TX_BOOL};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        tx_tensor *a = NULL, *b = NULL;
        assert_int_equal(tx_cast_in_mode(x, targets[i], TX_CAST_DEFAULT, 0, &a), TX_OK);
        assert_int_equal(tx_cast(x, targets[i], &b), TX_OK);
        assert_same_bits(a, b);
        tx_tensor_free(a);
        tx_tensor_free(b);
        tx_status sa = tx_cast_in_mode(x, targets[i], TX_CAST_SATURATE, 0, &a);
        tx_status sb = tx_saturate_cast(x, targets[i], &b);
        assert_int_equal(sa, sb);
        if (sa == TX_OK) assert_same_bits(a, b);
        else assert_non_null(strstr(tx_last_error(), "cast:")); /* named after the op called */
        tx_tensor_free(a);
        tx_tensor_free(b);
    }
    tx_tensor_free(x);
}

static void test_checked_passes_exact(void **state) {
    (void)state;
    const double d[] = {0.0, -0.0, 1.0, -128.0, 127.0, 100.0, NAN, INFINITY};
    tx_tensor *x = raw1(TX_FLOAT64, 6, d); /* the finite integers */
    checked_ok(x, TX_INT8, 0);
    checked_ok(x, TX_INT16, 0);
    checked_ok(x, TX_FLOAT16, TX_CAST_EXACT_FLOAT);
    checked_ok(x, TX_COMPLEX64, TX_CAST_EXACT_FLOAT);
    tx_tensor_free(x);
    /* NaN and infinity stay themselves in float targets. */
    x = raw1(TX_FLOAT64, 8, d);
    checked_ok(x, TX_FLOAT16, TX_CAST_EXACT_FLOAT);
    checked_ok(x, TX_BFLOAT16, 0);
    checked_ok(x, TX_FLOAT64, TX_CAST_EXACT_FLOAT);
    tx_tensor_free(x);
    /* Integers: in range, bool 0/1, int64 extremes into their own type and uint64. */
    const int64_t i64[] = {0, 1, INT64_MAX, 5};
    x = raw1(TX_INT64, 4, i64);
    checked_ok(x, TX_UINT64, 0);
    checked_ok(x, TX_FLOAT32, 0); /* rounds, but no flag asked */
    tx_tensor_free(x);
    const uint8_t b01[] = {0, 1, 1, 0};
    x = raw1(TX_UINT8, 4, b01);
    checked_ok(x, TX_BOOL, 0);
    tx_tensor_free(x);
    /* Complex with zero imaginary parts -> real; real -> complex. */
    const float c[] = {3.0f, 0.0f, -4.0f, -0.0f};
    x = raw1(TX_COMPLEX64, 2, c);
    checked_ok(x, TX_INT32, 0);
    checked_ok(x, TX_FLOAT16, TX_CAST_EXACT_FLOAT);
    checked_ok(x, TX_COMPLEX128, TX_CAST_EXACT_FLOAT);
    tx_tensor_free(x);
    /* Zero-size and same-dtype casts. */
    x = tu_tensor(TX_FLOAT32, 2, TU_DIMS(0, 3), NULL);
    checked_ok(x, TX_INT8, TX_CAST_EXACT_FLOAT);
    tx_tensor_free(x);
    const char *s[] = {"a"};
    x = tu_strings(1, TU_DIMS(1), s);
    tx_tensor *o = NULL;
    assert_int_equal(tx_cast_in_mode(x, TX_STRING, TX_CAST_CHECKED, 0, &o), TX_OK);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

static void test_checked_failures(void **state) {
    (void)state;
    const float v[] = {1.0f, 2.0f, 2.5f, NAN};
    tx_tensor *x = NULL;
    int64_t dims[2] = {2, 2};
    assert_int_equal(tx_tensor_from_data(TX_FLOAT32, 2, dims, v, sizeof v, &x), TX_OK);
    checked_fails(x, TX_INT32, 0,
                  "cast: element 2 (index [1,0]) is 2.5 (float32), which int32 cannot hold exactly: "
                  "not an integer");
    tx_tensor_free(x);
    const float n[] = {NAN};
    x = raw1(TX_FLOAT32, 1, n);
    checked_fails(x, TX_INT64, 0, "element 0 (index [0]) is nan (float32), which int64 cannot hold exactly: NaN");
    checked_fails(x, TX_BOOL, 0, ": NaN");
    tx_tensor_free(x);
    const double inf[] = {-INFINITY};
    x = raw1(TX_FLOAT64, 1, inf);
    checked_fails(x, TX_UINT8, 0, "is -inf (float64), which uint8 cannot hold exactly: infinity");
    tx_tensor_free(x);
    const int32_t i[] = {5, 300, -1};
    x = raw1(TX_INT32, 3, i);
    checked_fails(x, TX_INT8, 0, "element 1 (index [1]) is 300 (int32), which int8 cannot hold exactly: out of range");
    checked_fails(x, TX_BOOL, 0, "element 0 (index [0]) is 5 (int32), which bool cannot hold exactly");
    tx_tensor_free(x);
    const int32_t neg[] = {0, -1};
    x = raw1(TX_INT32, 2, neg);
    checked_fails(x, TX_UINT64, 0, "element 1 (index [1]) is -1 (int32), which uint64 cannot hold exactly: out of range");
    tx_tensor_free(x);
    const uint64_t big[] = {UINT64_MAX};
    x = raw1(TX_UINT64, 1, big);
    checked_fails(x, TX_INT64, 0, "is 18446744073709551615 (uint64), which int64 cannot hold exactly: out of range");
    checked_ok(x, TX_FLOAT32, 0);
    checked_fails(x, TX_FLOAT32, TX_CAST_EXACT_FLOAT, "would round");
    tx_tensor_free(x);
    /* Float targets: overflow always fails; rounding only with the flag. */
    const float f[] = {0.5f, 0.1f, 70000.0f};
    x = raw1(TX_FLOAT32, 3, f);
    checked_fails(x, TX_FLOAT16, 0, "element 2 (index [2]) is 70000 (float32), which float16 cannot hold exactly: out of range");
    checked_fails(x, TX_FLOAT16, TX_CAST_EXACT_FLOAT,
                  "element 1 (index [1]) is 0.100000001 (float32), which float16 cannot hold exactly: would round");
    tx_tensor_free(x);
    const double tiny[] = {1e-300};
    x = raw1(TX_FLOAT64, 1, tiny);
    checked_ok(x, TX_FLOAT32, 0); /* underflow to 0 is rounding */
    checked_fails(x, TX_FLOAT32, TX_CAST_EXACT_FLOAT, "would round");
    tx_tensor_free(x);
    const double huge[] = {1e300};
    x = raw1(TX_FLOAT64, 1, huge);
    checked_fails(x, TX_COMPLEX64, 0, "out of range");
    tx_tensor_free(x);
    /* complex -> real drops the imaginary part: inexact. */
    const float c[] = {1.0f, 0.0f, 2.0f, 0.5f};
    x = raw1(TX_COMPLEX64, 2, c);
    checked_fails(x, TX_FLOAT32, 0, "element 1 (index [1]) is (2+0.5j) (complex64), which float32 cannot hold exactly: nonzero imaginary part");
    checked_fails(x, TX_INT8, 0, "nonzero imaginary part");
    checked_ok(x, TX_COMPLEX128, TX_CAST_EXACT_FLOAT);
    tx_tensor_free(x);
    const double ci[] = {1.0, 0.1};
    x = raw1(TX_COMPLEX128, 1, ci);
    checked_fails(x, TX_COMPLEX64, TX_CAST_EXACT_FLOAT, "(1+0.10000000000000001j) (complex128), which complex64 cannot hold exactly: would round");
    tx_tensor_free(x);
    /* Quantized types check as their storage. */
    const int32_t q[] = {128};
    x = raw1(TX_QINT32, 1, q);
    checked_fails(x, TX_QINT8, 0, "is 128 (qint32), which qint8 cannot hold exactly: out of range");
    checked_ok(x, TX_QUINT8, 0);
    tx_tensor_free(x);
    /* The first inexact element of many, past any block boundary. */
    enum { N = 100000 };
    static int16_t many[N];
    for (int k = 0; k < N; k++) many[k] = (int16_t)(k % 100);
    many[77777] = 1000;
    many[90000] = -5;
    x = raw1(TX_INT16, N, many);
    checked_fails(x, TX_UINT8, 0, "element 77777 (index [77777]) is 1000 (int16)");
    tx_tensor_free(x);
}

static void test_errors(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), TU_VALS(1)), *o = (tx_tensor *)1;
    tu_assert_error(tx_cast_in_mode(x, TX_INT8, (tx_cast_mode)7, 0, &o), TX_INVALID_ARGUMENT, "cast: mode 7 is not");
    assert_null(o);
    tu_assert_error(tx_cast_in_mode(x, TX_INT8, TX_CAST_CHECKED, 0x30, &o), TX_INVALID_ARGUMENT, "flags 0x30 has unknown bits");
    tu_assert_error(tx_cast_in_mode(x, TX_INT4, TX_CAST_DEFAULT, TX_CAST_ONNX_NO_SATURATE, &o), TX_INVALID_ARGUMENT,
                    "the TX_CAST_ONNX_* flags need mode TX_CAST_ONNX");
    tu_assert_error(tx_cast_in_mode(x, TX_INT4, TX_CAST_ONNX, TX_CAST_EXACT_FLOAT, &o), TX_INVALID_ARGUMENT,
                    "TX_CAST_EXACT_FLOAT needs mode TX_CAST_CHECKED");
    tu_assert_error(tx_cast_in_mode(x, TX_FLOAT8_E8M0FNU, TX_CAST_ONNX,
                                    TX_CAST_ONNX_ROUND_DOWN | TX_CAST_ONNX_ROUND_NEAREST, &o),
                    TX_INVALID_ARGUMENT, "exclude each other");
    tu_assert_error(tx_cast_in_mode(x, TX_STRING, TX_CAST_ONNX, 0, &o), TX_UNIMPLEMENTED, "Cast float32 to string");
    tu_assert_error(tx_cast_in_mode(x, TX_INT8, TX_CAST_SATURATE, TX_CAST_EXACT_FLOAT, &o), TX_INVALID_ARGUMENT,
                    "TX_CAST_EXACT_FLOAT needs mode TX_CAST_CHECKED");
    tu_assert_error(tx_cast_in_mode(NULL, TX_INT8, TX_CAST_CHECKED, 0, &o), TX_INVALID_ARGUMENT, "cast: x is NULL");
    tu_assert_error(tx_cast_in_mode(x, (tx_dtype)77, TX_CAST_CHECKED, 0, &o), TX_INVALID_ARGUMENT, "dtype 77 is not a dtype");
    tu_assert_error(tx_cast_in_mode(x, TX_STRING, TX_CAST_CHECKED, 0, &o), TX_UNIMPLEMENTED, "Cast float32 to string");
    tu_assert_error(tx_cast_in_mode(x, TX_BOOL, TX_CAST_SATURATE, 0, &o), TX_UNIMPLEMENTED, "dtype bool has no min/max");
    tu_assert_error(tx_cast_in_mode(x, TX_INT8, TX_CAST_CHECKED, 0, NULL), TX_INVALID_ARGUMENT, "out");
    tx_tensor_free(x);
}

static void test_alloc_failure(void **state) {
    (void)state;
    const float v[] = {1.0f, 2.5f};
    tx_tensor *x = raw1(TX_FLOAT32, 2, v);
    tu_alloc_install();
    for (long k = 1; k < 10; k++) {
        for (int mode = 0; mode <= 3; mode++) {
            tx_tensor *o = NULL;
            tu_alloc_fail_at(k);
            long live = tu_alloc_live();
            tx_status st = tx_cast_in_mode(x, TX_INT8, (tx_cast_mode)mode, 0, &o);
            tu_alloc_fail_at(0);
            if (st == TX_OK) tx_tensor_free(o);
            else assert_true(st == TX_RESOURCE_EXHAUSTED || (mode == 2 && st == TX_INVALID_ARGUMENT));
            assert_int_equal(tu_alloc_live(), live);
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_and_saturate_modes),
        cmocka_unit_test(test_checked_passes_exact),
        cmocka_unit_test(test_checked_failures),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
