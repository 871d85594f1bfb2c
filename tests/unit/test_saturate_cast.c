/* SPDX-License-Identifier: Apache-2.0 */
/* test_saturate_cast.c -- saturate_cast: clamping to the target's range before the cast, complex
 * inputs, and every error with its status and message. */
#include "casting_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- saturate_cast ------------------------------------------------------------------------ */

static tx_tensor *sat_ok(const tx_tensor *x, tx_dtype to) {
    tx_tensor *o = NULL;
    tx_status st = tx_saturate_cast(x, to, &o);
    if (st != TX_OK) fail_msg("saturate_cast to %s: %s", tx_dtype_name(to), tx_last_error());
    return o;
}

static void test_saturate_cast(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(8), TU_VALS(-1e10, -300, -1.5, 0.5, 200.7, 300, 3e9, 1e30)), *o;
    o = sat_ok(x, TX_UINT8);
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 200, 255, 255, 255));
    tx_tensor_free(o);
    o = sat_ok(x, TX_INT8);
    tu_assert_values(o, TU_VALS(-128, -128, -1, 0, 127, 127, 127, 127));
    tx_tensor_free(o);
    /* float32 -> int32: the upper bound 2^31 is not an int32, so it moves to 2147483520. */
    o = sat_ok(x, TX_INT32);
    tu_assert_values(o, TU_VALS(INT32_MIN, -300, -1, 0, 200, 300, 2147483520.0, 2147483520.0));
    tx_tensor_free(o);
    /* float32 -> int64 / uint64: nothing wraps (TF's float64 comparison would let 2^63 through). */
    o = sat_ok(x, TX_INT64);
    assert_true(((const int64_t *)tx_tensor_data(o))[7] == (int64_t)(0x1p63 - 0x1p39));
    assert_true(((const int64_t *)tx_tensor_data(o))[0] == -10000000000ll);
    tx_tensor_free(o);
    o = sat_ok(x, TX_UINT64);
    assert_true(((const uint64_t *)tx_tensor_data(o))[7] == (uint64_t)(0x1p64 - 0x1p40));
    assert_true(((const uint64_t *)tx_tensor_data(o))[0] == 0);
    tx_tensor_free(o);
    o = sat_ok(x, TX_FLOAT16); /* clamps to +-65504 instead of overflowing to inf */
    const uint16_t h[8] = {0xfbff, 0xdcb0, 0xbe00, 0x3800, 0x5a46, 0x5cb0, 0x7bff, 0x7bff};
    assert_bytes(o, h, sizeof h);
    tx_tensor_free(o);
    o = sat_ok(x, TX_FLOAT64); /* a wider type: plain cast */
    assert_true(((const double *)tx_tensor_data(o))[7] == (double)1e30f);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* float64 -> float32: inf becomes FLT_MAX; NaN stays NaN. */
    x = tu_tensor(TX_FLOAT64, 1, TU_DIMS(4), TU_VALS(INFINITY, -1e300, NAN, 1.0));
    o = sat_ok(x, TX_FLOAT32);
    const float *f = tx_tensor_data(o);
    assert_true(f[0] == FLT_MAX && f[1] == -FLT_MAX && isnan(f[2]) && f[3] == 1.0f);
    tx_tensor_free(o);
    o = sat_ok(x, TX_INT16); /* NaN is not clamped: it converts as tf.cast does (low bits of INT32_MIN) */
    tu_assert_values(o, TU_VALS(32767, -32768, 0, 1));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* Integers: int32 -> int8, int8 -> uint8 (only the lower bound applies), uint64 -> int64. */
    x = tu_tensor(TX_INT32, 1, TU_DIMS(4), TU_VALS(-1000, -5, 5, 1000));
    o = sat_ok(x, TX_INT8);
    tu_assert_values(o, TU_VALS(-128, -5, 5, 127));
    tx_tensor_free(o);
    o = sat_ok(x, TX_UINT16);
    tu_assert_values(o, TU_VALS(0, 0, 5, 1000));
    tx_tensor_free(o);
    o = sat_ok(x, TX_FLOAT16);
    tx_tensor *back = cast_ok(o, TX_FLOAT32);
    tu_assert_values(back, TU_VALS(-1000, -5, 5, 1000));
    tx_tensor_free(back);
    tx_tensor_free(o);
    tx_tensor_free(x);
    const int8_t i8[3] = {-128, -1, 127};
    x = raw1(TX_INT8, 3, i8);
    o = sat_ok(x, TX_UINT8);
    tu_assert_values(o, TU_VALS(0, 0, 127));
    tx_tensor_free(o);
    tx_tensor_free(x);
    const uint64_t u64[2] = {UINT64_MAX, 5};
    x = raw1(TX_UINT64, 2, u64);
    o = sat_ok(x, TX_INT64);
    assert_true(((const int64_t *)tx_tensor_data(o))[0] == INT64_MAX);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* int32 -> float16: 100000 clamps to 65504. */
    x = tu_tensor(TX_INT32, 1, TU_DIMS(2), TU_VALS(100000, -100000));
    o = sat_ok(x, TX_FLOAT16);
    const uint16_t hh[2] = {0x7bff, 0xfbff};
    assert_bytes(o, hh, sizeof hh);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* bfloat16 -> float16: 65504 rounds up to 65536 in bfloat16, so the bound moves to 65280. */
    const uint16_t bf[2] = {0x47c3 /* 99840 */, 0x3f80};
    x = raw1(TX_BFLOAT16, 2, bf);
    o = sat_ok(x, TX_FLOAT16);
    back = cast_ok(o, TX_FLOAT32);
    tu_assert_values(back, TU_VALS(65280, 1));
    tx_tensor_free(back);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* TF 2.21 decides: a real input is clamped even into a wider or the same type (its
     * forward-compatibility date has passed): float16 +-inf -> +-65504 in float32, float32 inf ->
     * FLT_MAX in float32 and complex64, NaN kept; e5m2 inf -> 57344.  complex64 -> complex64 is
     * not clamped (TF clamps complex -> complex only into a narrower part type). */
    const uint16_t hinf[3] = {0x7c00, 0xfc00, 0x3c00};
    x = raw1(TX_FLOAT16, 3, hinf);
    o = sat_ok(x, TX_FLOAT32);
    tu_assert_values(o, TU_VALS(65504, -65504, 1));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(INFINITY, -INFINITY, NAN));
    o = sat_ok(x, TX_FLOAT32);
    f = tx_tensor_data(o);
    assert_true(f[0] == FLT_MAX && f[1] == -FLT_MAX && isnan(f[2]));
    tx_tensor_free(o);
    o = sat_ok(x, TX_COMPLEX64);
    f = tx_tensor_data(o);
    assert_true(f[0] == FLT_MAX && f[1] == 0 && f[2] == -FLT_MAX && isnan(f[4]));
    tx_tensor_free(o);
    tx_tensor_free(x);
    const float cinf[2] = {INFINITY, -INFINITY};
    x = raw1(TX_COMPLEX64, 1, cinf);
    o = sat_ok(x, TX_COMPLEX64);
    assert_bytes(o, cinf, sizeof cinf);
    tx_tensor_free(o);
    tx_tensor_free(x);
    const uint8_t e5inf[2] = {0x7c, 0xfc};
    x = raw1(TX_FLOAT8_E5M2, 2, e5inf);
    o = sat_ok(x, TX_FLOAT32);
    tu_assert_values(o, TU_VALS(57344, -57344));
    tx_tensor_free(o);
    tx_tensor_free(x);
}

static void test_saturate_complex(void **state) {
    (void)state;
    /* complex128 -> complex64: real and imaginary parts clamp separately. */
    const double c[6] = {1e300, -1e300, 1.5, INFINITY, -INFINITY, 2.0};
    tx_tensor *x = raw1(TX_COMPLEX128, 3, c), *o = sat_ok(x, TX_COMPLEX64);
    const float want[6] = {FLT_MAX, -FLT_MAX, 1.5f, FLT_MAX, -FLT_MAX, 2.0f};
    assert_bytes(o, want, sizeof want);
    tx_tensor_free(o);
    /* complex -> real: the real part, clamped. */
    o = sat_ok(x, TX_INT32);
    tu_assert_values(o, TU_VALS(INT32_MAX, 1, INT32_MIN));
    tx_tensor_free(o);
    o = sat_ok(x, TX_FLOAT32);
    tu_assert_values(o, TU_VALS(FLT_MAX, 1.5, -FLT_MAX));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* real -> complex: clamped to the real range of the complex type. */
    x = tu_tensor(TX_FLOAT64, 1, TU_DIMS(2), TU_VALS(1e300, -2));
    o = sat_ok(x, TX_COMPLEX64);
    const float w2[4] = {FLT_MAX, 0, -2, 0};
    assert_bytes(o, w2, sizeof w2);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* A large tensor crosses several scratch blocks. */
    enum { N = 10000 };
    double *v = malloc(2 * N * sizeof *v);
    for (int i = 0; i < 2 * N; i++) v[i] = (i % 3 == 0) ? 1e40 : (double)i;
    x = raw1(TX_COMPLEX128, N, v);
    o = sat_ok(x, TX_COMPLEX64);
    const float *g = tx_tensor_data(o);
    for (int i = 0; i < 2 * N; i++) assert_true(g[i] == (i % 3 == 0 ? FLT_MAX : (float)i));
    tx_tensor_free(o);
    tx_tensor_free(x);
    free(v);
}

static void test_saturate_errors(void **state) {
    (void)state;
    tx_tensor *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), TU_VALS(1)), *o = NULL;
    tu_assert_error(tx_saturate_cast(f, TX_BOOL, &o), TX_UNIMPLEMENTED, "dtype bool has no min/max");
    tu_assert_error(tx_saturate_cast(f, TX_QINT8, &o), TX_UNIMPLEMENTED, "dtype qint8 has no min/max");
    tu_assert_error(tx_saturate_cast(f, TX_STRING, &o), TX_UNIMPLEMENTED, "dtype string");
    tu_assert_error(tx_saturate_cast(NULL, TX_INT8, &o), TX_INVALID_ARGUMENT, "saturate_cast: value is NULL");
    tu_assert_error(tx_saturate_cast(f, (tx_dtype)77, &o), TX_INVALID_ARGUMENT, "dtype 77 is not a dtype");
    assert_null(o);
    tx_tensor *b = tu_tensor(TX_BOOL, 1, TU_DIMS(1), TU_VALS(1));
    tu_assert_error(tx_saturate_cast(b, TX_INT8, &o), TX_UNIMPLEMENTED, "value dtype bool");
    tx_tensor_free(b);
    tx_tensor_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saturate_cast),
        cmocka_unit_test(test_saturate_complex),
        cmocka_unit_test(test_saturate_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
