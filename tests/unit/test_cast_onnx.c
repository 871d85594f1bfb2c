/* SPDX-License-Identifier: Apache-2.0 */
/* test_cast_onnx.c -- tx_cast_in_mode's TX_CAST_ONNX at the edges of each rule: ties, the
 * largest finite value, overflow, NaN, infinities, -0 and subnormals, for float8 with saturate
 * 1 and 0, float8_e8m0fnu in each round_mode, and int4 / uint4 / int2 / uint2; the targets the
 * preset leaves alone give tx_cast's bits.  The expected codes follow from the formats'
 * definitions and ONNX's rules (docs/casting.md, "Cast modes"); python/tests/test_onnx_cast.py
 * compares the same mode with ONNX Runtime and onnx.reference over large samples. */
#include "testutil.h"

#include <math.h>
#include <string.h>

static tx_tensor *raw1(tx_dtype dt, int64_t n, const void *data) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(dt, 1, &n, data, (size_t)n * tx_dtype_size(dt), &t), TX_OK);
    return t;
}

static float f32_bits(uint32_t b) {
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

/* x (n elements of dtype src) cast in the ONNX mode with flags must give the bytes `want`. */
static void expect_codes(tx_dtype src, int64_t n, const void *x, tx_dtype to, unsigned flags,
                         const uint8_t *want) {
    tx_tensor *t = raw1(src, n, x), *y = NULL;
    if (tx_cast_in_mode(t, to, TX_CAST_ONNX, flags, &y) != TX_OK)
        fail_msg("onnx cast to %s: %s", tx_dtype_name(to), tx_last_error());
    const uint8_t *got = tx_tensor_data_const(y);
    for (int64_t i = 0; i < n; i++)
        if (got[i] != want[i])
            fail_msg("%s -> %s flags %u, element %lld: got 0x%02x, want 0x%02x", tx_dtype_name(src),
                     tx_dtype_name(to), flags, (long long)i, got[i], want[i]);
    tx_tensor_free(t);
    tx_tensor_free(y);
}

#define N(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

static void test_float8_saturate(void **state) {
    (void)state;
    /* 448 is e4m3fn's largest; 464 ties to it, 465 is past it; 1.0625 and 1.1875 are ties
     * (to even: 1.0 and 1.25); 2^-10 ties to 0 and 3*2^-10 to 2^-8 (subnormals). */
    const float x[] = {448.0f, 464.0f, 465.0f, 1e30f, INFINITY, -INFINITY, NAN, -NAN, -0.0f,
                       0x1p-9f, 0x1p-10f, 0x3p-10f, 1.0625f, 1.1875f, -500.0f};
    const uint8_t sat[] = {0x7e, 0x7e, 0x7e, 0x7e, 0x7e, 0xfe, 0x7f, 0xff, 0x80,
                           0x01, 0x00, 0x02, 0x38, 0x3a, 0xfe};
    const uint8_t nosat[] = {0x7e, 0x7e, 0x7f, 0x7f, 0x7f, 0xff, 0x7f, 0xff, 0x80,
                             0x01, 0x00, 0x02, 0x38, 0x3a, 0xff};
    expect_codes(TX_FLOAT32, N(x), x, TX_FLOAT8_E4M3FN, 0, sat);
    expect_codes(TX_FLOAT32, N(x), x, TX_FLOAT8_E4M3FN, TX_CAST_ONNX_NO_SATURATE, nosat);

    /* e5m2: 57344 largest, 61440 the first value that rounds past it. */
    const double y[] = {57344.0, 61439.0, 61440.0, INFINITY, -INFINITY, -1e300, NAN, -0.0, 0x1p-17};
    const uint8_t ysat[] = {0x7b, 0x7b, 0x7b, 0x7b, 0xfb, 0xfb, 0x7e, 0x80, 0x00};
    const uint8_t ynosat[] = {0x7b, 0x7b, 0x7c, 0x7c, 0xfc, 0xfc, 0x7e, 0x80, 0x00};
    expect_codes(TX_FLOAT64, N(y), y, TX_FLOAT8_E5M2, 0, ysat);
    expect_codes(TX_FLOAT64, N(y), y, TX_FLOAT8_E5M2, TX_CAST_ONNX_NO_SATURATE, ynosat);

    /* FNUZ: one NaN (0x80), no -0; e4m3fnuz's largest is 240, 248 ties past it. */
    const float z[] = {240.0f, 247.0f, 248.0f, 1e6f, INFINITY, -INFINITY, NAN, -0.0f, -0x1p-11f};
    const uint8_t zsat[] = {0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0xff, 0x80, 0x00, 0x00};
    const uint8_t znosat[] = {0x7f, 0x7f, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00};
    expect_codes(TX_FLOAT32, N(z), z, TX_FLOAT8_E4M3FNUZ, 0, zsat);
    expect_codes(TX_FLOAT32, N(z), z, TX_FLOAT8_E4M3FNUZ, TX_CAST_ONNX_NO_SATURATE, znosat);
    const float w[] = {57344.0f, 1e6f, -INFINITY, NAN};
    const uint8_t wsat[] = {0x7f, 0x7f, 0xff, 0x80}, wnosat[] = {0x7f, 0x80, 0x80, 0x80};
    expect_codes(TX_FLOAT32, N(w), w, TX_FLOAT8_E5M2FNUZ, 0, wsat);
    expect_codes(TX_FLOAT32, N(w), w, TX_FLOAT8_E5M2FNUZ, TX_CAST_ONNX_NO_SATURATE, wnosat);
    /* Integer sources clamp too. */
    const int32_t i[] = {1000, -1000, 7};
    const uint8_t isat[] = {0x7e, 0xfe, 0x4e};
    expect_codes(TX_INT32, N(i), i, TX_FLOAT8_E4M3FN, 0, isat);
}

static void test_e8m0_round_modes(void **state) {
    (void)state;
    /* 1.5 is the tie between 2^0 and 2^1 (nearest: up); 0x00400000 is 2^-127, the least value,
     * and 0x00600000 1.5 * 2^-127 (float32 subnormals); 0x7f000000 is 2^127, the largest. */
    const float x[] = {1.0f, 1.5f, f32_bits(0x3fbfffffu), 3.0f, 0.75f, f32_bits(0x3f800001u),
                       f32_bits(0x00400000u), f32_bits(0x00400001u), f32_bits(0x00600000u),
                       f32_bits(0x003fffffu), f32_bits(0x7f000000u), f32_bits(0x7f000001u),
                       INFINITY, NAN, 0.0f, -0.0f, -1.0f, -INFINITY};
    const uint8_t up[] = {0x7f, 0x80, 0x80, 0x81, 0x7f, 0x80, 0x00, 0x01, 0x01,
                          0x00, 0xfe, 0xfe, 0xfe, 0xff, 0x00, 0x00, 0x00, 0x00};
    const uint8_t down[] = {0x7f, 0x7f, 0x7f, 0x80, 0x7e, 0x7f, 0x00, 0x00, 0x00,
                            0x00, 0xfe, 0xfe, 0xfe, 0xff, 0x00, 0x00, 0x00, 0x00};
    const uint8_t nearest[] = {0x7f, 0x80, 0x7f, 0x81, 0x7f, 0x7f, 0x00, 0x00, 0x01,
                               0x00, 0xfe, 0xfe, 0xfe, 0xff, 0x00, 0x00, 0x00, 0x00};
    const uint8_t up_nosat[] = {0x7f, 0x80, 0x80, 0x81, 0x7f, 0x80, 0x00, 0x01, 0x01,
                                0xff, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    expect_codes(TX_FLOAT32, N(x), x, TX_FLOAT8_E8M0FNU, 0, up);
    expect_codes(TX_FLOAT32, N(x), x, TX_FLOAT8_E8M0FNU, TX_CAST_ONNX_ROUND_DOWN, down);
    expect_codes(TX_FLOAT32, N(x), x, TX_FLOAT8_E8M0FNU, TX_CAST_ONNX_ROUND_NEAREST, nearest);
    expect_codes(TX_FLOAT32, N(x), x, TX_FLOAT8_E8M0FNU, TX_CAST_ONNX_NO_SATURATE, up_nosat);
    /* float64 goes through float32 first, as ONNX converts: 1 + 2^-40 is 1.0 there. */
    const double d[] = {1.0 + 0x1p-40, 1e300, 0x1p-140};
    const uint8_t dup[] = {0x7f, 0xfe, 0x00};
    expect_codes(TX_FLOAT64, N(d), d, TX_FLOAT8_E8M0FNU, 0, dup);
}

static void test_intn_round_then_saturate(void **state) {
    (void)state;
    const float x[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 6.5f, 7.49f, 7.5f, -8.5f, 100.0f,
                       INFINITY, -INFINITY, NAN, -0.0f, 0x1p-149f, 14.5f, 15.5f, -3.0f};
    const uint8_t i4[] = {0x0, 0x2, 0x2, 0x0, 0xe, 0x6, 0x7, 0x7, 0x8, 0x7,
                          0x7, 0x8, 0x0, 0x0, 0x0, 0x7, 0x7, 0xd};
    const uint8_t u4[] = {0x0, 0x2, 0x2, 0x0, 0x0, 0x6, 0x7, 0x8, 0x0, 0xf,
                          0xf, 0x0, 0x0, 0x0, 0x0, 0xe, 0xf, 0x0};
    const uint8_t i2[] = {0x0, 0x1, 0x1, 0x0, 0x2, 0x1, 0x1, 0x1, 0x2, 0x1,
                          0x1, 0x2, 0x0, 0x0, 0x0, 0x1, 0x1, 0x2};
    const uint8_t u2[] = {0x0, 0x2, 0x2, 0x0, 0x0, 0x3, 0x3, 0x3, 0x0, 0x3,
                          0x3, 0x0, 0x0, 0x0, 0x0, 0x3, 0x3, 0x0};
    expect_codes(TX_FLOAT32, N(x), x, TX_INT4, 0, i4);
    expect_codes(TX_FLOAT32, N(x), x, TX_UINT4, 0, u4);
    expect_codes(TX_FLOAT32, N(x), x, TX_INT2, 0, i2);
    expect_codes(TX_FLOAT32, N(x), x, TX_UINT2, 0, u2);
    /* complex: the real part; integers wrap, as in tx_cast (9 -> int4 -7). */
    const float c[] = {2.5f, 100.0f, -1.5f, 0.0f};
    const uint8_t cw[] = {0x2, 0xe};
    expect_codes(TX_COMPLEX64, 2, c, TX_INT4, 0, cw);
    const int32_t n[] = {9, -9, 17};
    const uint8_t nw[] = {0x9, 0x7, 0x1};
    expect_codes(TX_INT32, N(n), n, TX_INT4, 0, nw);
}

/* Where ONNX's Cast and tx_cast agree, the mode gives tx_cast's bits: saturate=0 float8, the
 * targets without a preset, and a cast to the same dtype. */
static void test_plain_where_onnx_is_plain(void **state) {
    (void)state;
    const float v[] = {0.1f, -2.5f, 300.0f, 1e10f, -1e10f, NAN, INFINITY, -INFINITY, -0.0f, 0x1p-140f, 465.0f};
    tx_tensor *x = raw1(TX_FLOAT32, N(v), v);
    const tx_dtype nosat[] = {TX_FLOAT8_E4M3FN, TX_FLOAT8_E5M2, TX_FLOAT8_E4M3FNUZ, TX_FLOAT8_E5M2FNUZ};
    const tx_dtype plain[] = {TX_INT8, TX_UINT8, TX_INT32, TX_FLOAT16, TX_BFLOAT16, TX_FLOAT4_E2M1FN,
                              TX_FLOAT6_E2M3FN, TX_FLOAT8_E4M3B11FNUZ, TX_BOOL, TX_FLOAT32};
    for (size_t k = 0; k < N(nosat) + N(plain); k++) {
        tx_dtype to = k < N(nosat) ? nosat[k] : plain[k - N(nosat)];
        tx_tensor *a = NULL, *b = NULL;
        assert_int_equal(tx_cast_in_mode(x, to, TX_CAST_ONNX, k < N(nosat) ? TX_CAST_ONNX_NO_SATURATE : 0, &a), TX_OK);
        assert_int_equal(tx_cast(x, to, &b), TX_OK);
        assert_memory_equal(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
        tx_tensor_free(a);
        tx_tensor_free(b);
    }
    tx_tensor_free(x);
}

static void test_alloc_failure(void **state) {
    (void)state;
    const float v[] = {1.5f, 1e6f};
    tx_tensor *x = raw1(TX_FLOAT32, 2, v);
    const tx_dtype targets[] = {TX_FLOAT8_E4M3FN, TX_FLOAT8_E8M0FNU, TX_INT4};
    tu_alloc_install();
    for (long k = 1; k < 10; k++) {
        for (size_t i = 0; i < N(targets); i++) {
            tx_tensor *o = NULL;
            tu_alloc_fail_at(k);
            long live = tu_alloc_live();
            tx_status st = tx_cast_in_mode(x, targets[i], TX_CAST_ONNX, 0, &o);
            tu_alloc_fail_at(0);
            if (st == TX_OK) tx_tensor_free(o);
            else assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_int_equal(tu_alloc_live(), live);
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float8_saturate),
        cmocka_unit_test(test_e8m0_round_modes),
        cmocka_unit_test(test_intn_round_then_saturate),
        cmocka_unit_test(test_plain_where_onnx_is_plain),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
