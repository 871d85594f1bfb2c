/* SPDX-License-Identifier: Apache-2.0 */
/* test_float8.c -- the float8_e5m2 and float8_e4m3fn dtypes: the dtype table, every one of the 256
 * codes of each decoded to float32/float64 (against a formula written here), ml_dtypes'
 * numeric_limits values, encoding at every rounding boundary (midpoints between neighbouring codes
 * and one float32 ulp either side), overflow, NaN and infinity codes, float16 <-> e5m2 by bits,
 * saturate and checked modes, data movement, .npy round trip, and the clear refusal of unique
 * (DLPack: test_dlpack_lowbit.c).  The exhaustive comparison with an exact-fraction model is
 * tests/oracle/test_float8.py. */
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct fmt {
    tx_dtype dt;
    int mbits, bias;
    uint8_t maxcode, nan, over;
    double max;
} fmt;

static const fmt E5M2 = {TX_FLOAT8_E5M2, 2, 15, 0x7B, 0x7E, 0x7C, 57344.0};
static const fmt E4M3 = {TX_FLOAT8_E4M3FN, 3, 7, 0x7E, 0x7F, 0x7F, 448.0};

/* The value of a code by the format's definition (NaN and inf as doubles). */
static double ref_decode(const fmt *f, unsigned c) {
    double s = c & 0x80 ? -1.0 : 1.0;
    unsigned a = c & 0x7F, e = a >> f->mbits, m = a & ((1u << f->mbits) - 1);
    if (f->dt == TX_FLOAT8_E4M3FN && a == 0x7F) return NAN;
    if (f->dt == TX_FLOAT8_E5M2 && a > 0x7C) return NAN;
    if (f->dt == TX_FLOAT8_E5M2 && a == 0x7C) return s * INFINITY;
    if (e == 0) return s * ldexp(m, 1 - f->bias - f->mbits);
    return s * ldexp(m + (1u << f->mbits), (int)e - f->bias - f->mbits);
}

static tx_tensor *codes_tensor(const fmt *f, size_t n, const uint8_t *codes) {
    int64_t d = (int64_t)n;
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(f->dt, 1, &d, codes, n, &t), TX_OK);
    return t;
}

static tx_tensor *cast_to(const tx_tensor *x, tx_dtype to) {
    tx_tensor *o = NULL;
    if (tx_cast(x, to, &o) != TX_OK) fail_msg("cast to %s: %s", tx_dtype_name(to), tx_last_error());
    return o;
}

/* Encodes n float32 values and returns the codes in out. */
static void encode_f32(const fmt *f, size_t n, const float *v, uint8_t *out) {
    int64_t d = (int64_t)n;
    tx_tensor *x = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT32, 1, &d, v, n * 4, &x), TX_OK);
    tx_tensor *o = cast_to(x, f->dt);
    memcpy(out, tx_tensor_data(o), n);
    tx_tensor_free(x);
    tx_tensor_free(o);
}

static uint8_t enc1(const fmt *f, float v) {
    uint8_t c;
    encode_f32(f, 1, &v, &c);
    return c;
}

static void test_dtype_table(void **state) {
    (void)state;
    assert_int_equal(TX_FLOAT8_E5M2, 24); /* TF's DataType numbers */
    assert_int_equal(TX_FLOAT8_E4M3FN, 25);
    assert_string_equal(tx_dtype_name(TX_FLOAT8_E5M2), "float8_e5m2");
    assert_string_equal(tx_dtype_name(TX_FLOAT8_E4M3FN), "float8_e4m3fn");
    assert_int_equal(tx_dtype_size(TX_FLOAT8_E4M3FN), 1);
    assert_int_equal(tx_dtype_kind_of(TX_FLOAT8_E5M2), TX_KIND_FLOAT);
    assert_int_equal(tx_dtype_from_name("float8_e4m3fn"), TX_FLOAT8_E4M3FN);
    assert_int_equal(tx_dtype_from_name("DT_FLOAT8_E5M2"), TX_FLOAT8_E5M2);
    assert_int_equal(tx_dtype_from_name("tf.float8_e5m2"), TX_FLOAT8_E5M2);
}

static void decode_all(const fmt *f) {
    uint8_t codes[256];
    for (int i = 0; i < 256; i++) codes[i] = (uint8_t)i;
    tx_tensor *x = codes_tensor(f, 256, codes);
    tx_tensor *o32 = cast_to(x, TX_FLOAT32), *o64 = cast_to(x, TX_FLOAT64);
    const float *g32 = tx_tensor_data(o32);
    const double *g64 = tx_tensor_data(o64);
    for (int i = 0; i < 256; i++) {
        double want = ref_decode(f, (unsigned)i);
        if (isnan(want)) {
            /* ml_dtypes: a NaN becomes the target's quiet NaN with the code's sign. */
            uint32_t b;
            memcpy(&b, &g32[i], 4);
            assert_int_equal(b, (i & 0x80 ? 0xFFC00000u : 0x7FC00000u));
            assert_true(isnan(g64[i]) && !signbit(g64[i]) == !(i & 0x80));
            continue;
        }
        if ((double)g32[i] != want || g64[i] != want || signbit(g64[i]) != signbit(want))
            fail_msg("%s code 0x%02x: got %.17g / %.17g, want %.17g", tx_dtype_name(f->dt), i,
                     (double)g32[i], g64[i], want);
        /* Every non-NaN code encodes back to itself, from float32 and from float64. */
        assert_int_equal(enc1(f, g32[i]), i);
    }
    tx_tensor *back = cast_to(o64, f->dt);
    const uint8_t *b = tx_tensor_data(back);
    for (int i = 0; i < 256; i++)
        if (!isnan(ref_decode(f, (unsigned)i))) assert_int_equal(b[i], i);
        else assert_int_equal(b[i], (i & 0x80) | f->nan);
    tx_tensor_free(back);
    tx_tensor_free(x);
    tx_tensor_free(o32);
    tx_tensor_free(o64);
}

static void test_decode_all_codes(void **state) {
    (void)state;
    decode_all(&E5M2);
    decode_all(&E4M3);
}

/* ml_dtypes' numeric_limits tables. */
static void test_limits(void **state) {
    (void)state;
    assert_int_equal(enc1(&E4M3, 448.0f), 0x7E);             /* max */
    assert_int_equal(enc1(&E4M3, -448.0f), 0xFE);            /* lowest */
    assert_int_equal(enc1(&E4M3, 0x1p-6f), 0x08);            /* min normal */
    assert_int_equal(enc1(&E4M3, 0x1p-9f), 0x01);            /* denorm_min */
    assert_int_equal(enc1(&E4M3, 0.125f), 0x20);             /* epsilon */
    assert_int_equal(enc1(&E4M3, 1.0f), 0x38);
    assert_int_equal(enc1(&E5M2, 57344.0f), 0x7B);
    assert_int_equal(enc1(&E5M2, -57344.0f), 0xFB);
    assert_int_equal(enc1(&E5M2, 0x1p-14f), 0x04);
    assert_int_equal(enc1(&E5M2, 0x1p-16f), 0x01);
    assert_int_equal(enc1(&E5M2, 0.25f), 0x34);
    assert_int_equal(enc1(&E5M2, 1.0f), 0x3C);
    assert_int_equal(enc1(&E5M2, INFINITY), 0x7C);
    assert_int_equal(enc1(&E5M2, -INFINITY), 0xFC);
    assert_int_equal(enc1(&E5M2, NAN), 0x7E);
    assert_int_equal(enc1(&E5M2, -NAN), 0xFE);
    assert_int_equal(enc1(&E4M3, INFINITY), 0x7F); /* no infinity: NaN */
    assert_int_equal(enc1(&E4M3, -INFINITY), 0xFF);
    assert_int_equal(enc1(&E4M3, -NAN), 0xFF);
    assert_int_equal(enc1(&E4M3, -0.0f), 0x80);
    assert_int_equal(enc1(&E5M2, -0.0f), 0x80);
}

/* Between every two neighbouring finite codes: the midpoint ties to the even code, one float32
 * ulp either side goes to the nearer code; past the largest finite value, overflow. */
static void boundaries(const fmt *f) {
    for (unsigned c = 0; c < f->maxcode; c++) {
        double lo = ref_decode(f, c), hi = ref_decode(f, c + 1), mid = (lo + hi) / 2;
        float m = (float)mid;
        assert_true((double)m == mid); /* every midpoint is a float32 */
        float below = nextafterf(m, 0.0f), above = nextafterf(m, INFINITY);
        uint8_t even = (c & 1) ? (uint8_t)(c + 1) : (uint8_t)c;
        float v[6] = {m, below, above, -m, -below, -above};
        uint8_t got[6];
        encode_f32(f, 6, v, got);
        uint8_t want[6] = {even, (uint8_t)c, (uint8_t)(c + 1), (uint8_t)(0x80 | even),
                           (uint8_t)(0x80 | c), (uint8_t)(0x80 | (c + 1))};
        if (c == 0) want[3] = 0x80, want[4] = 0x80; /* -0 stays -0 */
        for (int k = 0; k < 6; k++)
            if (got[k] != want[k])
                fail_msg("%s: %.9g -> 0x%02x, want 0x%02x", tx_dtype_name(f->dt), (double)v[k],
                         got[k], want[k]);
    }
    /* Overflow: the next value past max would be max + ulp; its midpoint ties to the even one. */
    double ulp = f->max - ref_decode(f, f->maxcode - 1u), mid = f->max + ulp / 2;
    bool max_even = !(f->maxcode & 1);
    assert_int_equal(enc1(f, (float)mid), max_even ? f->maxcode : f->over);
    assert_int_equal(enc1(f, nextafterf((float)mid, 0)), f->maxcode);
    assert_int_equal(enc1(f, nextafterf((float)mid, INFINITY)), f->over);
    assert_int_equal(enc1(f, -nextafterf((float)mid, INFINITY)), 0x80 | f->over);
    assert_int_equal(enc1(f, 1e30f), f->over);
    assert_int_equal(enc1(f, FLT_MAX), f->over);
    /* Below half the smallest subnormal: zero; exactly half: ties to 0. */
    double tiny = ref_decode(f, 1);
    assert_int_equal(enc1(f, (float)(tiny / 2)), 0x00);
    assert_int_equal(enc1(f, nextafterf((float)(tiny / 2), 1)), 0x01);
    assert_int_equal(enc1(f, 1e-30f), 0x00);
    assert_int_equal(enc1(f, -1e-30f), 0x80);
}

static void test_encode_boundaries(void **state) {
    (void)state;
    boundaries(&E5M2);
    boundaries(&E4M3);
    /* Overflow: e4m3fn has no infinity, so it overflows to NaN; e5m2 overflows to infinity. */
    assert_int_equal(enc1(&E4M3, 464.0f), 0x7E);
    assert_int_equal(enc1(&E4M3, 465.0f), 0x7F);
    assert_int_equal(enc1(&E5M2, 61439.0f), 0x7B);
    assert_int_equal(enc1(&E5M2, 61440.0f), 0x7C);
}

/* Other sources: float64 rounds once (no float32 step), integers, bool, complex. */
static void test_other_sources(void **state) {
    (void)state;
    /* 1 + 2^-4 + 2^-40: float64 -> e4m3fn rounds up (above the midpoint 1.0625) to 1.125. */
    double d = 1.0 + 0x1p-4 + 0x1p-40;
    tx_tensor *x = tu_tensor(TX_FLOAT64, 1, TU_DIMS(1), &d), *o = cast_to(x, TX_FLOAT8_E4M3FN);
    assert_int_equal(*(const uint8_t *)tx_tensor_data(o), 0x39);
    tx_tensor_free(x);
    tx_tensor_free(o);
    const int32_t iv[] = {0, 1, -3, 17, 448, 465, 100000, -61440};
    int64_t n = 8;
    tx_tensor_from_data(TX_INT32, 1, &n, iv, sizeof iv, &x);
    o = cast_to(x, TX_FLOAT8_E4M3FN);
    const uint8_t want4[] = {0x00, 0x38, 0xC4, 0x58, 0x7E, 0x7F, 0x7F, 0xFF}; /* 17 -> 16 (tie, even) */
    assert_memory_equal(tx_tensor_data(o), want4, 8);
    tx_tensor_free(o);
    o = cast_to(x, TX_FLOAT8_E5M2);
    const uint8_t want5[] = {0x00, 0x3C, 0xC2, 0x4C, 0x5F, 0x5F, 0x7C, 0xFC};
    assert_memory_equal(tx_tensor_data(o), want5, 8);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* float8 -> integers truncate like float32; NaN -> int32 is INT32_MIN; -> bool: x != 0. */
    const uint8_t c[] = {0x3D /* 1.625 */, 0xC6 /* -3 */, 0x7F /* NaN */, 0x80 /* -0 */, 0x01};
    x = codes_tensor(&E4M3, 5, c);
    o = cast_to(x, TX_INT32);
    const int32_t wi[] = {1, -3, INT32_MIN, 0, 0};
    assert_memory_equal(tx_tensor_data(o), wi, sizeof wi);
    tx_tensor_free(o);
    o = cast_to(x, TX_BOOL);
    const uint8_t wb[] = {1, 1, 1, 0, 1};
    assert_memory_equal(tx_tensor_data(o), wb, 5);
    tx_tensor_free(o);
    o = cast_to(x, TX_COMPLEX64);
    assert_true(((const float *)tx_tensor_data(o))[0] == 1.625f && ((const float *)tx_tensor_data(o))[1] == 0);
    tx_tensor *back = cast_to(o, TX_FLOAT8_E4M3FN);
    assert_memory_equal(tx_tensor_data(back), c, 5);
    tx_tensor_free(back);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

/* float16 -> e5m2 by bits, as ml_dtypes and TF 2.21: a NaN keeps its top payload bits. */
static void test_float16_e5m2_bits(void **state) {
    (void)state;
    const uint16_t h[] = {0x3C00, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0x7D00, 0xFF80, 0x3C80, 0x3D80, 0x7BFF};
    int64_t n = 10;
    tx_tensor *x = NULL;
    tx_tensor_from_data(TX_FLOAT16, 1, &n, h, sizeof h, &x);
    tx_tensor *o = cast_to(x, TX_FLOAT8_E5M2);
    /* 0x3C80 ties to even 0x3C, 0x3D80 ties up to 0x3E, 65504 overflows to infinity. */
    const uint8_t want[] = {0x3C, 0x7C, 0xFC, 0x7E, 0x7E, 0x7F, 0xFF, 0x3C, 0x3E, 0x7C};
    assert_memory_equal(tx_tensor_data(o), want, 10);
    tx_tensor *back = cast_to(o, TX_FLOAT16);
    /* TF 2.21 decides: e5m2 -> float16 goes through float32, so every NaN is sign|0x7e00. */
    const uint16_t wb[] = {0x3C00, 0x7C00, 0xFC00, 0x7E00, 0x7E00, 0x7E00, 0xFE00, 0x3C00, 0x3E00, 0x7C00};
    assert_memory_equal(tx_tensor_data(back), wb, sizeof wb);
    tx_tensor_free(back);
    tx_tensor_free(o);
    /* e4m3fn's NaN becomes float16's quiet NaN. */
    const uint8_t c[] = {0x7F, 0xFF, 0x7E};
    x = (tx_tensor_free(x), codes_tensor(&E4M3, 3, c));
    o = cast_to(x, TX_FLOAT16);
    const uint16_t w4[] = {0x7E00, 0xFE00, 0x5F00};
    assert_memory_equal(tx_tensor_data(o), w4, sizeof w4);
    tx_tensor_free(o);
    /* e4m3fn <-> e5m2: 448 -> 448 exactly; e5m2 infinity -> e4m3fn NaN. */
    o = cast_to(x, TX_FLOAT8_E5M2);
    const uint8_t w5[] = {0x7E, 0xFE, 0x5F};
    assert_memory_equal(tx_tensor_data(o), w5, 3);
    tx_tensor_free(o);
    tx_tensor_free(x);
    const uint8_t inf5[] = {0x7C, 0xFC, 0x7B};
    x = codes_tensor(&E5M2, 3, inf5);
    o = cast_to(x, TX_FLOAT8_E4M3FN);
    const uint8_t w45[] = {0x7F, 0xFF, 0x7F};
    assert_memory_equal(tx_tensor_data(o), w45, 3);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

static void test_saturate_and_checked(void **state) {
    (void)state;
    const float v[] = {500.0f, -1e30f, INFINITY, -INFINITY, NAN, 100.0f, 465.0f};
    int64_t n = 7;
    tx_tensor *x = NULL, *o = NULL;
    tx_tensor_from_data(TX_FLOAT32, 1, &n, v, sizeof v, &x);
    assert_int_equal(tx_cast_in_mode(x, TX_FLOAT8_E4M3FN, TX_CAST_SATURATE, 0, &o), TX_OK);
    const uint8_t w4[] = {0x7E, 0xFE, 0x7E, 0xFE, 0x7F, 0x6C, 0x7E};
    assert_memory_equal(tx_tensor_data(o), w4, 7);
    tx_tensor_free(o);
    assert_int_equal(tx_saturate_cast(x, TX_FLOAT8_E5M2, &o), TX_OK);
    const uint8_t w5[] = {0x60, 0xFB, 0x7B, 0xFB, 0x7E, 0x56, 0x5F};
    assert_memory_equal(tx_tensor_data(o), w5, 7);
    tx_tensor_free(o);
    /* From float8: e4m3fn -> int8 clamps to [-128, 120] (127 rounds to 128 in e4m3fn, one step
     * toward zero is 120), e5m2 -> uint8 to [0, 240]. */
    const uint8_t c[] = {0x7E, 0xFE, 0x7F, 0x40};
    tx_tensor *f8 = codes_tensor(&E4M3, 4, c);
    assert_int_equal(tx_saturate_cast(f8, TX_INT8, &o), TX_OK);
    const int8_t wi[] = {120, -128, 0 /* NaN -> cvtt -> INT32_MIN low bits */, 2};
    assert_memory_equal(tx_tensor_data(o), wi, 4);
    tx_tensor_free(o);
    tx_tensor_free(f8);
    tx_tensor_free(x);
    /* Checked: e4m3fn overflow and infinity (no infinity there) fail; rounding only when asked. */
    const float ok[] = {0.5f, -448.0f, NAN};
    n = 3;
    tx_tensor_from_data(TX_FLOAT32, 1, &n, ok, sizeof ok, &x);
    assert_int_equal(tx_cast_in_mode(x, TX_FLOAT8_E4M3FN, TX_CAST_CHECKED, TX_CAST_EXACT_FLOAT, &o), TX_OK);
    tx_tensor_free(o);
    tx_tensor_free(x);
    const float bad[] = {1.0f, 500.0f};
    n = 2;
    tx_tensor_from_data(TX_FLOAT32, 1, &n, bad, sizeof bad, &x);
    tu_assert_error(tx_cast_in_mode(x, TX_FLOAT8_E4M3FN, TX_CAST_CHECKED, 0, &o), TX_INVALID_ARGUMENT,
                    "element 1 (index [1]) is 500 (float32), which float8_e4m3fn cannot hold exactly: out of range");
    tx_tensor_free(x);
    const float inf[] = {INFINITY};
    n = 1;
    tx_tensor_from_data(TX_FLOAT32, 1, &n, inf, sizeof inf, &x);
    tu_assert_error(tx_cast_in_mode(x, TX_FLOAT8_E4M3FN, TX_CAST_CHECKED, 0, &o), TX_INVALID_ARGUMENT, ": infinity");
    assert_int_equal(tx_cast_in_mode(x, TX_FLOAT8_E5M2, TX_CAST_CHECKED, TX_CAST_EXACT_FLOAT, &o), TX_OK);
    tx_tensor_free(o);
    tx_tensor_free(x);
    const float r[] = {0.1f};
    tx_tensor_from_data(TX_FLOAT32, 1, &n, r, sizeof r, &x);
    assert_int_equal(tx_cast_in_mode(x, TX_FLOAT8_E5M2, TX_CAST_CHECKED, 0, &o), TX_OK);
    tx_tensor_free(o);
    tu_assert_error(tx_cast_in_mode(x, TX_FLOAT8_E5M2, TX_CAST_CHECKED, TX_CAST_EXACT_FLOAT, &o),
                    TX_INVALID_ARGUMENT, "would round");
    tx_tensor_free(x);
    const uint8_t frac[] = {0x38, 0x3C}; /* 1.0, 1.5 */
    x = codes_tensor(&E4M3, 2, frac);
    tu_assert_error(tx_cast_in_mode(x, TX_INT32, TX_CAST_CHECKED, 0, &o), TX_INVALID_ARGUMENT,
                    "element 1 (index [1]) is 1.5 (float8_e4m3fn), which int32 cannot hold exactly: not an integer");
    tx_tensor_free(x);
}

/* Data movement works by element width; bitcast between 1-byte types is a view. */
static void test_movement_and_bitcast(void **state) {
    (void)state;
    const uint8_t c[] = {0x38, 0x40, 0x44, 0x48, 0x7F, 0x80};
    int64_t dims[2] = {2, 3};
    tx_tensor *x = NULL, *o = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT8_E4M3FN, 2, dims, c, 6, &x), TX_OK);
    int64_t perm[2] = {1, 0};
    tx_tensor *p = tu_i64(2, perm);
    assert_int_equal(tx_transpose(x, p, false, &o), TX_OK);
    const uint8_t wt[] = {0x38, 0x48, 0x40, 0x7F, 0x44, 0x80};
    assert_int_equal(tx_tensor_dtype(o), TX_FLOAT8_E4M3FN);
    assert_memory_equal(tx_tensor_data(o), wt, 6);
    tx_tensor_free(o);
    tx_tensor_free(p);
    assert_int_equal(tx_bitcast(x, TX_UINT8, &o), TX_OK);
    assert_memory_equal(tx_tensor_data(o), c, 6);
    tx_tensor *b = NULL;
    assert_int_equal(tx_bitcast(o, TX_FLOAT8_E5M2, &b), TX_OK);
    assert_int_equal(tx_tensor_dtype(b), TX_FLOAT8_E5M2);
    tx_tensor_free(b);
    tx_tensor_free(o);
    int64_t two[1] = {2};
    tx_tensor *pair = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT8_E5M2, 1, two, c, 2, &pair), TX_OK);
    assert_int_equal(tx_bitcast(pair, TX_FLOAT16, &o), TX_OK); /* two codes make one half */
    tx_tensor_free(o);
    tx_tensor_free(pair);
    /* one_hot's default on value is 1.0 in the format. */
    const int32_t idx[] = {1};
    tx_tensor *ind = tu_i32(1, idx);
    assert_int_equal(tx_one_hot(ind, 2, NULL, NULL, -1, TX_FLOAT8_E5M2, &o), TX_OK);
    const uint8_t w1[] = {0x00, 0x3C};
    assert_memory_equal(tx_tensor_data(o), w1, 2);
    tx_tensor_free(o);
    tx_tensor_free(ind);
    /* TF's Unique has no float8 kernel. */
    tx_tensor *flat = codes_tensor(&E4M3, 6, c), *outs[3] = {NULL, NULL, NULL};
    tu_assert_error(tx_unique_with_counts(flat, TX_INT32, outs), TX_UNIMPLEMENTED, "dtype float8_e4m3fn is not supported");
    tx_tensor_free(flat);
    tx_tensor_free(x);
}

/* .npy: tensorx's one-field structured convention, [('float8_e4m3fn', '|u1')]. */
static void test_npy_round_trip(void **state) {
    (void)state;
    const uint8_t c[] = {0x00, 0x38, 0xFE, 0x7F, 0x01};
    for (int k = 0; k < 2; k++) {
        const fmt *f = k ? &E4M3 : &E5M2;
        tx_tensor *x = codes_tensor(f, 5, c), *y = NULL;
        void *buf = NULL;
        size_t size = 0;
        char descr[64];
        snprintf(descr, sizeof descr, "[('%s', '|u1')]", tx_dtype_name(f->dt));
        tu_npy_save_with_descr(x, descr, &buf, &size);
        assert_int_equal(tx_npy_load_buffer(buf, size, &y), TX_OK);
        assert_int_equal(tx_tensor_dtype(y), f->dt);
        assert_memory_equal(tx_tensor_data(y), c, 5);
        tx_buffer_free(buf, size);
        tx_tensor_free(x);
        tx_tensor_free(y);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtype_table),
        cmocka_unit_test(test_decode_all_codes),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_encode_boundaries),
        cmocka_unit_test(test_other_sources),
        cmocka_unit_test(test_float16_e5m2_bits),
        cmocka_unit_test(test_saturate_and_checked),
        cmocka_unit_test(test_movement_and_bitcast),
        cmocka_unit_test(test_npy_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
