/* SPDX-License-Identifier: Apache-2.0 */
/* test_cast.c -- cast and the to_* ops: the examples of TF's pages, every dtype pair, TF's NaN,
 * overflow and rounding rules, float16/bfloat16 bit-exactness, complex and quantized dtypes,
 * strings, and every error with its status and message. */
#include "casting_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------------------------ */

static uint16_t f16_bits(float f) {
    tx_tensor *x = raw1(TX_FLOAT32, 1, &f), *o = cast_ok(x, TX_FLOAT16);
    uint16_t h;
    memcpy(&h, tx_tensor_data(o), 2);
    tx_tensor_free(x);
    tx_tensor_free(o);
    return h;
}

/* ---- cast: TF's pages and TF's documented behaviour ---------------------------------------- */

static void test_cast_page_examples(void **state) {
    (void)state;
    /* tensor `a` is [1.8, 2.2], dtype=tf.float; tf.cast(a, tf.int32) ==> [1, 2] */
    tx_tensor *a = tu_tensor(TX_FLOAT32, 1, TU_DIMS(2), TU_VALS(1.8, 2.2)), *o = cast_ok(a, TX_INT32);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(2));
    tu_assert_values(o, TU_VALS(1, 2));
    tx_tensor_free(o);
    tx_tensor_free(a);
    /* tf.bitcast's page: tf.cast([1., 2., 3.], tf.complex128) == [1+0j, 2+0j, 3+0j] */
    a = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(1, 2, 3));
    o = cast_ok(a, TX_COMPLEX128);
    tu_assert_shape(o, TX_COMPLEX128, 1, TU_DIMS(3));
    const double want[6] = {1, 0, 2, 0, 3, 0};
    assert_bytes(o, want, sizeof want);
    tx_tensor_free(o);
    tx_tensor_free(a);
    /* tf.bitcast's page, example 3: cast(equal([1,2,3],[0,2,3]), float32) == [0, 1, 1] */
    const uint8_t eq[3] = {0, 1, 1};
    a = raw1(TX_BOOL, 3, eq);
    o = cast_ok(a, TX_FLOAT32);
    tu_assert_values(o, TU_VALS(0, 1, 1));
    tx_tensor_free(o);
    tx_tensor_free(a);
}

static void test_to_ops(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT64, 2, TU_DIMS(2, 2), TU_VALS(3.14, -2.5, 1e10, 0.5)), *o = NULL;
    assert_int_equal(tx_to_double(x, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT64, 2, TU_DIMS(2, 2));
    assert_false(tx_tensor_shares_buffer(o, x)); /* a same-dtype cast is a copy */
    tu_assert_values(o, TU_VALS(3.14, -2.5, 1e10, 0.5));
    tx_tensor_free(o);
    assert_int_equal(tx_to_float(x, &o), TX_OK);
    tu_assert_values(o, TU_VALS((float)3.14, -2.5, 1e10, 0.5));
    tx_tensor_free(o);
    assert_int_equal(tx_to_int32(x, &o), TX_OK);
    tu_assert_values(o, TU_VALS(3, -2, INT32_MIN, 0)); /* 1e10 is out of range: INT32_MIN (x86) */
    tx_tensor_free(o);
    assert_int_equal(tx_to_int64(x, &o), TX_OK);
    tu_assert_values(o, TU_VALS(3, -2, 1e10, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_to_bfloat16(x, &o), TX_OK);
    tu_assert_shape(o, TX_BFLOAT16, 2, TU_DIMS(2, 2));
    /* 3.14 -> 0x4049 (3.140625), -2.5 -> 0xc020, 1e10 -> 0x5015, 0.5 -> 0x3f00 */
    const uint16_t bf[4] = {0x4049, 0xc020, 0x5015, 0x3f00};
    assert_bytes(o, bf, sizeof bf);
    tx_tensor_free(o);
    tu_assert_error(tx_to_float(NULL, &o), TX_INVALID_ARGUMENT, "to_float: x is NULL");
    tx_tensor_free(x);
    x = tu_strings(1, TU_DIMS(1), (const char *[]){"1"});
    tu_assert_error(tx_to_int64(x, &o), TX_UNIMPLEMENTED, "to_int64: Cast string to int64 is not supported");
    assert_null(o);
    tx_tensor_free(x);
}

/* Float -> integer: truncation, and TF's x86-64 results for NaN and out-of-range values. */
static void test_cast_float_to_int(void **state) {
    (void)state;
    const double in[] = {1.9, -1.9, 0.0, -0.0, 127.5, 128.0, 300.0, -129.0, 255.9, 256.0, -1.0,
                         2147483647.0, 2147483648.0, -2147483648.0, -2147483649.0, 4294967295.0,
                         4294967296.0, 1e19, 1.8446744073709552e19, 1e20, -1e20, NAN, INFINITY,
                         -INFINITY, 9.2233720368547758e18, -9.2233720368547758e18, -2.0, 100000.0};
    enum { N = sizeof in / sizeof in[0] };
    tx_tensor *x = raw1(TX_FLOAT64, N, in);
    tx_tensor *f = cast_ok(x, TX_FLOAT32);
    struct {
        tx_dtype to;
        double want[N];
    } cases[] = {
        {TX_INT8, {1, -1, 0, 0, 127, -128, 44, 127, -1, 0, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                   0, 0, 0, -2, -96}},
        {TX_UINT8, {1, 255, 0, 0, 127, 128, 44, 127, 255, 0, 255, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 254, 160}},
        {TX_INT16, {1, -1, 0, 0, 127, 128, 300, -129, 255, 256, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, -2, -31072}},
        {TX_UINT16, {1, 65535, 0, 0, 127, 128, 300, 65407, 255, 256, 65535, 65535, 0, 0, 0, 0, 0, 0,
                     0, 0, 0, 0, 0, 0, 0, 0, 65534, 34464}},
        {TX_INT32, {1, -1, 0, 0, 127, 128, 300, -129, 255, 256, -1, 2147483647, INT32_MIN, INT32_MIN,
                    INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN,
                    INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, -2, 100000}},
        {TX_UINT32, {1, 4294967295.0, 0, 0, 127, 128, 300, 4294967167.0, 255, 256, 4294967295.0,
                     2147483647, 2147483648.0, 2147483648.0, 2147483647.0, 4294967295.0, 0, 0, 0, 0,
                     0, 0, 0, 0, 0, 0, 4294967294.0, 100000}},
        {TX_INT64, {1, -1, 0, 0, 127, 128, 300, -129, 255, 256, -1, 2147483647, 2147483648.0,
                    -2147483648.0, -2147483649.0, 4294967295.0, 4294967296.0, 1e19 > 0x1p63 ? -0x1p63 : 1e19,
                    -0x1p63, -0x1p63, -0x1p63, -0x1p63, -0x1p63, -0x1p63, -0x1p63, -0x1p63, -2, 100000}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tx_tensor *o = cast_ok(x, cases[c].to);
        tu_assert_values(o, cases[c].want);
        tx_tensor_free(o);
        /* float32 sources give the same results (the truncating conversion of a float and of its
         * double are the same), except where float rounding changed the input. */
        o = cast_ok(f, cases[c].to);
        tx_tensor *via = cast_ok(f, TX_FLOAT64), *o2 = cast_ok(via, cases[c].to);
        assert_memory_equal(tx_tensor_data(o), tx_tensor_data(o2), tx_tensor_nbytes(o));
        tx_tensor_free(o);
        tx_tensor_free(o2);
        tx_tensor_free(via);
    }
    /* uint64: [2^63, 2^64) exact; NaN, +-inf, >= 2^64 and <= -2^63 give 2^63; negatives wrap. */
    tx_tensor *o = cast_ok(x, TX_UINT64);
    const uint64_t *u = tx_tensor_data(o);
    assert_true(u[0] == 1 && u[1] == UINT64_MAX && u[10] == UINT64_MAX && u[26] == UINT64_MAX - 1);
    assert_true(u[17] == 10000000000000000000ull);
    assert_true(u[18] == 1ull << 63); /* 2^64 exactly */
    assert_true(u[19] == 1ull << 63 && u[20] == 1ull << 63);
    assert_true(u[21] == 1ull << 63 && u[22] == 1ull << 63 && u[23] == 1ull << 63);
    assert_true(u[24] == 1ull << 63);                             /* 2^63 */
    assert_true(u[25] == 1ull << 63);                             /* -2^63 */
    assert_true(u[14] == (uint64_t)-2147483649ll);
    tx_tensor_free(o);
    /* bool: x != 0, NaN is true, -0.0 is false. */
    o = cast_ok(x, TX_BOOL);
    const uint8_t *bo = tx_tensor_data(o);
    assert_true(bo[0] == 1 && bo[2] == 0 && bo[3] == 0 && bo[21] == 1 && bo[22] == 1);
    tx_tensor_free(o);
    tx_tensor_free(f);
    tx_tensor_free(x);
}

static void test_cast_int_and_bool(void **state) {
    (void)state;
    const int64_t in[] = {0, 1, -1, 127, 128, 255, 256, -129, 65535, 65536, 2147483647, 2147483648ll,
                          INT64_MAX, INT64_MIN, 16777217, 33685505};
    enum { N = sizeof in / sizeof in[0] };
    tx_tensor *x = raw1(TX_INT64, N, in);
    tx_tensor *o = cast_ok(x, TX_INT8);
    tu_assert_values(o, TU_VALS(0, 1, -1, 127, -128, -1, 0, 127, -1, 0, -1, 0, -1, 0, 1, 1));
    tx_tensor_free(o);
    o = cast_ok(x, TX_UINT16);
    tu_assert_values(o, TU_VALS(0, 1, 65535, 127, 128, 255, 256, 65407, 65535, 0, 65535, 0, 65535, 0, 1, 1));
    tx_tensor_free(o);
    o = cast_ok(x, TX_UINT64);
    assert_true(((const uint64_t *)tx_tensor_data(o))[2] == UINT64_MAX);
    tx_tensor_free(o);
    o = cast_ok(x, TX_BOOL);
    tu_assert_values(o, TU_VALS(0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1));
    tx_tensor_free(o);
    /* int -> float rounds to nearest even: 16777217 -> 16777216. */
    o = cast_ok(x, TX_FLOAT32);
    assert_true(((const float *)tx_tensor_data(o))[14] == 16777216.0f);
    assert_true(((const float *)tx_tensor_data(o))[12] == 0x1p63f);
    tx_tensor_free(o);
    /* int -> bfloat16 goes through float32 (Eigen): 2^25 + 2^17 + 1 rounds to the float
     * 2^25 + 2^17, a tie that goes to even (2^25, 0x4c00); a direct rounding would give 0x4c01. */
    o = cast_ok(x, TX_BFLOAT16);
    assert_int_equal(((const uint16_t *)tx_tensor_data(o))[15], 0x4c00);
    assert_int_equal(((const uint16_t *)tx_tensor_data(o))[1], 0x3f80);
    tx_tensor_free(o);
    o = cast_ok(x, TX_FLOAT16);
    const uint16_t *h = tx_tensor_data(o);
    assert_int_equal(h[1], 0x3c00);
    assert_int_equal(h[2], 0xbc00);
    assert_int_equal(h[8], 0x7c00); /* 65535 overflows to inf */
    tx_tensor_free(o);
    o = cast_ok(x, TX_COMPLEX64);
    const float *c = tx_tensor_data(o);
    assert_true(c[2] == 1.0f && c[3] == 0.0f && c[4] == -1.0f);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* bool -> everything: 0/1; a stray non-zero byte counts as true.  tx_tensor_from_data makes
     * it 1; memory that tensorx wraps keeps it, and the kernels read it as true. */
    uint8_t b[3] = {0, 1, 7};
    x = raw1(TX_BOOL, 3, b);
    assert_bytes(x, (const uint8_t[]){0, 1, 1}, 3);
    tx_tensor_free(x);
    assert_int_equal(tx_tensor_wrap(TX_BOOL, 1, (const int64_t[]){3}, b, 3, NULL, NULL, &x), TX_OK);
    o = cast_ok(x, TX_INT32);
    tu_assert_values(o, TU_VALS(0, 1, 1));
    tx_tensor_free(o);
    o = cast_ok(x, TX_FLOAT16);
    const uint16_t hb[3] = {0, 0x3c00, 0x3c00};
    assert_bytes(o, hb, sizeof hb);
    tx_tensor_free(o);
    o = cast_ok(x, TX_BOOL); /* identity: a copy of the bytes */
    assert_bytes(o, b, 3);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

static void test_cast_complex(void **state) {
    (void)state;
    const double c[6] = {1.5, -2.0, 0.0, 3.0, NAN, 1.0};
    tx_tensor *x = raw1(TX_COMPLEX128, 3, c), *o;
    o = cast_ok(x, TX_FLOAT64); /* the real part */
    const double *d = tx_tensor_data(o);
    assert_true(d[0] == 1.5 && d[1] == 0.0 && isnan(d[2]));
    tx_tensor_free(o);
    o = cast_ok(x, TX_BOOL); /* real part != 0: (0+3j) is false in TF */
    tu_assert_values(o, TU_VALS(1, 0, 1));
    tx_tensor_free(o);
    o = cast_ok(x, TX_INT32);
    tu_assert_values(o, TU_VALS(1, 0, INT32_MIN));
    tx_tensor_free(o);
    o = cast_ok(x, TX_COMPLEX64);
    const float *f = tx_tensor_data(o);
    assert_true(f[0] == 1.5f && f[1] == -2.0f && f[3] == 3.0f && isnan(f[4]) && f[5] == 1.0f);
    tx_tensor *back = cast_ok(o, TX_COMPLEX128);
    assert_true(((const double *)tx_tensor_data(back))[1] == -2.0);
    tx_tensor_free(back);
    tx_tensor_free(o);
    o = cast_ok(x, TX_FLOAT16);
    const uint16_t *h = tx_tensor_data(o);
    assert_int_equal(h[0], 0x3e00);
    assert_int_equal(h[2], 0x7e00);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

/* float16: exact round trips, round to nearest even, overflow, NaN, subnormals. */
static void test_cast_float16(void **state) {
    (void)state;
    /* Every half converts exactly to float32 and back. */
    uint16_t *all = malloc(65536 * 2);
    for (int i = 0; i < 65536; i++) all[i] = (uint16_t)i;
    tx_tensor *h = raw1(TX_FLOAT16, 65536, all), *f = cast_ok(h, TX_FLOAT32), *back = cast_ok(f, TX_FLOAT16);
    tx_tensor *d = cast_ok(h, TX_FLOAT64), *back2 = cast_ok(d, TX_FLOAT16);
    const uint16_t *b = tx_tensor_data(back), *b2 = tx_tensor_data(back2);
    const float *fv = tx_tensor_data(f);
    for (int i = 0; i < 65536; i++) {
        bool nan = (i & 0x7c00) == 0x7c00 && (i & 0x3ff);
        if (nan) {
            /* TF 2.21 decides (F16C): quieted both ways, the payload kept */
            assert_true(isnan(fv[i]));
            if (b[i] != (i | 0x200) || b2[i] != (i | 0x200)) fail_msg("NaN 0x%04x gave 0x%04x", i, b[i]);
        } else {
            if (b[i] != i || b2[i] != i) fail_msg("half 0x%04x round trip gave 0x%04x / 0x%04x", i, b[i], b2[i]);
        }
    }
    assert_true(fv[0x0001] == 0x1p-24f && fv[0x03ff] == 1023 * 0x1p-24f && fv[0x0400] == 0x1p-14f);
    assert_true(fv[0x3c00] == 1.0f && fv[0x7bff] == 65504.0f && fv[0xfc00] == -INFINITY);
    tx_tensor_free(h);
    tx_tensor_free(f);
    tx_tensor_free(back);
    tx_tensor_free(d);
    tx_tensor_free(back2);
    free(all);
    /* Ties to even, overflow threshold, subnormal rounding, signed zero. */
    assert_int_equal(f16_bits(1.0f + 0x1p-11f), 0x3c00);           /* tie, even stays */
    assert_int_equal(f16_bits(1.0f + 3 * 0x1p-11f), 0x3c02);       /* tie, odd rounds up */
    assert_int_equal(f16_bits(1.0f + 0x1p-11f + 0x1p-20f), 0x3c01);
    assert_int_equal(f16_bits(65504.0f), 0x7bff);
    assert_int_equal(f16_bits(65519.99f), 0x7bff);
    assert_int_equal(f16_bits(65520.0f), 0x7c00);                  /* tie to the even inf */
    assert_int_equal(f16_bits(-1e30f), 0xfc00);
    assert_int_equal(f16_bits(0x1p-25f), 0x0000);                  /* tie to even zero */
    assert_int_equal(f16_bits(0x1p-25f * 1.0001f), 0x0001);
    assert_int_equal(f16_bits(3 * 0x1p-25f), 0x0002);              /* tie to even 2 */
    assert_int_equal(f16_bits(0x1p-14f - 0x1p-26f), 0x0400);       /* rounds up into the normals */
    assert_int_equal(f16_bits(-0.0f), 0x8000);
    assert_int_equal(f16_bits(1e-30f), 0x0000);
    assert_int_equal(f16_bits(-NAN), 0xfe00);
    assert_int_equal(f16_bits(INFINITY), 0x7c00);
    /* double -> half goes through float (Eigen): 1 + 2^-11 + 2^-40 rounds to the float 1 + 2^-11,
     * a tie that goes to 1.0; a direct rounding would give 0x3c01. */
    const double dd = 1.0 + 0x1p-11 + 0x1p-40;
    tx_tensor *x = raw1(TX_FLOAT64, 1, &dd), *o = cast_ok(x, TX_FLOAT16);
    assert_int_equal(*(const uint16_t *)tx_tensor_data(o), 0x3c00);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

static uint16_t bf16_ref(float f) { /* round to nearest even by brute force on neighbours */
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t down = x & 0xffff0000u, up = down + 0x10000u;
    float fd, fu;
    memcpy(&fd, &down, 4);
    memcpy(&fu, &up, 4);
    double dd = fabs((double)f - fd), du = fabs((double)fu - f);
    if (isinf(fu) && !isinf(f)) du = fabs(0x1p128 - fabs((double)f)); /* the rounding step to inf */
    if (dd < du) return (uint16_t)(down >> 16);
    if (du < dd) return (uint16_t)(up >> 16);
    return (uint16_t)(((down >> 16) & 1) ? up >> 16 : down >> 16);
}

static void test_cast_bfloat16(void **state) {
    (void)state;
    enum { N = 20000 };
    float *v = malloc(N * sizeof *v);
    srand(12345);
    for (int i = 0; i < N; i++) {
        uint32_t bits = ((uint32_t)rand() << 16) ^ (uint32_t)rand();
        if (i < 100) bits = (bits & 0xffff0000u) | 0x8000u; /* exact ties */
        memcpy(&v[i], &bits, 4);
        if (isnan(v[i])) v[i] = 1.0f;
    }
    v[0] = FLT_MAX;
    v[1] = 0x1.fefffep127f; /* just below the tie that rounds to inf */
    v[2] = 1e-40f;          /* subnormal floats are kept, not flushed */
    tx_tensor *x = raw1(TX_FLOAT32, N, v), *o = cast_ok(x, TX_BFLOAT16);
    const uint16_t *b = tx_tensor_data(o);
    for (int i = 0; i < N; i++)
        if (b[i] != bf16_ref(v[i])) fail_msg("bf16(%a) = 0x%04x, want 0x%04x", (double)v[i], b[i], bf16_ref(v[i]));
    assert_int_equal(b[0], 0x7f80); /* FLT_MAX rounds to inf */
    assert_int_equal(b[1], 0x7f7f);
    assert_int_not_equal(b[2], 0);
    tx_tensor_free(o);
    tx_tensor_free(x);
    free(v);
    const float nan2[2] = {NAN, -NAN};
    x = raw1(TX_FLOAT32, 2, nan2);
    o = cast_ok(x, TX_BFLOAT16);
    const uint16_t want[2] = {0x7fc0, 0xffc0};
    assert_bytes(o, want, sizeof want);
    tx_tensor *back = cast_ok(o, TX_FLOAT32);
    assert_true(isnan(((const float *)tx_tensor_data(back))[0]));
    tx_tensor_free(back);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

/* Quantized dtypes convert as their integer storage. */
static void test_cast_quantized(void **state) {
    (void)state;
    const int8_t q[4] = {-128, -1, 0, 127};
    tx_tensor *x = raw1(TX_QINT8, 4, q), *o = cast_ok(x, TX_FLOAT32);
    tu_assert_values(o, TU_VALS(-128, -1, 0, 127));
    tx_tensor *back = cast_ok(o, TX_QUINT8);
    tu_assert_shape(back, TX_QUINT8, 1, TU_DIMS(4));
    tu_assert_values(back, TU_VALS(128, 255, 0, 127)); /* float -> uint8 keeps the low byte */
    tx_tensor_free(back);
    tx_tensor_free(o);
    o = cast_ok(x, TX_QINT32);
    tu_assert_values(o, TU_VALS(-128, -1, 0, 127));
    tx_tensor_free(o);
    tx_tensor_free(x);
}

/* Every pair of numeric dtypes has a kernel; empty and scalar tensors work. */
static void test_cast_all_pairs(void **state) {
    (void)state;
    const tx_dtype all[] = {TX_BOOL, TX_INT8, TX_UINT8, TX_INT16, TX_UINT16, TX_INT32, TX_UINT32,
                            TX_INT64, TX_UINT64, TX_FLOAT16, TX_BFLOAT16, TX_FLOAT32, TX_FLOAT64,
                            TX_COMPLEX64, TX_COMPLEX128, TX_QINT8, TX_QUINT8, TX_QINT16,
                            TX_QUINT16, TX_QINT32};
    const size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        tx_tensor *one = tu_tensor(TX_INT32, 0, NULL, TU_VALS(1));
        tx_tensor *src = cast_ok(one, all[i]);
        tx_tensor *empty = NULL;
        assert_int_equal(tx_tensor_new(all[i], 3, TU_DIMS(2, 0, 3), &empty), TX_OK);
        for (size_t j = 0; j < n; j++) {
            tx_tensor *o = cast_ok(src, all[j]);
            tu_assert_shape(o, all[j], 0, NULL);
            tx_tensor *i32 = cast_ok(o, TX_INT32); /* 1 survives every pair */
            assert_int_equal(*(const int32_t *)tx_tensor_data(i32), 1);
            tx_tensor_free(i32);
            tx_tensor_free(o);
            o = cast_ok(empty, all[j]);
            tu_assert_shape(o, all[j], 3, TU_DIMS(2, 0, 3));
            tx_tensor_free(o);
        }
        tx_tensor_free(empty);
        tx_tensor_free(src);
        tx_tensor_free(one);
    }
}

static void test_cast_errors_and_strings(void **state) {
    (void)state;
    tx_tensor *s = tu_strings(1, TU_DIMS(2), (const char *[]){"1.5", "x"}), *o = NULL;
    tu_assert_error(tx_cast(s, TX_FLOAT32, &o), TX_UNIMPLEMENTED, "cast: Cast string to float32 is not supported");
    assert_null(o);
    tx_tensor *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), TU_VALS(1));
    tu_assert_error(tx_cast(f, TX_STRING, &o), TX_UNIMPLEMENTED, "Cast float32 to string is not supported");
    tu_assert_error(tx_cast(f, (tx_dtype)99, &o), TX_INVALID_ARGUMENT, "dtype 99 is not a dtype");
    tu_assert_error(tx_cast(NULL, TX_FLOAT32, &o), TX_INVALID_ARGUMENT, "cast: x is NULL");
    tu_assert_error(tx_cast(f, TX_FLOAT32, NULL), TX_INVALID_ARGUMENT, "cast: out is NULL");
    /* string -> string is TF's identity: a copy that keeps the bytes alive. */
    assert_int_equal(tx_cast(s, TX_STRING, &o), TX_OK);
    tx_tensor_free(s);
    assert_int_equal(tx_tensor_string(o, 1)->size, 1);
    assert_memory_equal(tx_tensor_string(o, 0)->data, "1.5", 3);
    tx_tensor_free(o);
    tx_tensor_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cast_page_examples),
        cmocka_unit_test(test_to_ops),
        cmocka_unit_test(test_cast_float_to_int),
        cmocka_unit_test(test_cast_int_and_bool),
        cmocka_unit_test(test_cast_complex),
        cmocka_unit_test(test_cast_float16),
        cmocka_unit_test(test_cast_bfloat16),
        cmocka_unit_test(test_cast_quantized),
        cmocka_unit_test(test_cast_all_pairs),
        cmocka_unit_test(test_cast_errors_and_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
