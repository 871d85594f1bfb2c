/* SPDX-License-Identifier: Apache-2.0 */
/* test_int4.c -- the int4 and uint4 dtypes (TF DataType 29 / 30), stored one element per byte:
 * the value in the low 4 bits and zeros above, as TF 2.21 and ml_dtypes store it (TF 2.21 decides:
 * int4 -6 is the byte 0x0a, not 0xfa); readers ignore the upper 4 bits.  The dtype table,
 * normalising constructors and wrapping of any bytes, the packed two-per-byte interchange form
 * (odd counts, hostile sizes), casts of all 16 values to every numeric dtype and from every
 * numeric dtype (against int8 / int32 casts, whose rules are tested elsewhere), float edge cases,
 * saturate and checked modes, data movement against the same ops on int8, .npy round trip, and the
 * clear refusals (bitcast, unique, sequence_mask lengths, decode_raw). */
#include "testutil.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const tx_dtype NUMERIC[] = {
    TX_BOOL,   TX_INT8,       TX_UINT8,      TX_INT16,       TX_UINT16,       TX_INT32,
    TX_UINT32, TX_INT64,      TX_UINT64,     TX_FLOAT16,     TX_BFLOAT16,     TX_FLOAT32,
    TX_FLOAT64, TX_COMPLEX64, TX_COMPLEX128, TX_QINT8,       TX_QUINT8,       TX_QINT16,
    TX_QUINT16, TX_QINT32,    TX_FLOAT8_E5M2, TX_FLOAT8_E4M3FN, TX_INT4,      TX_UINT4,
};
#define N_NUMERIC (sizeof NUMERIC / sizeof NUMERIC[0])

/* The value of a 4-bit code by definition. */
static int nib(tx_dtype dt, unsigned v) {
    v &= 0xFu;
    return dt == TX_INT4 && v >= 8 ? (int)v - 16 : (int)v;
}

static tx_tensor *bytes_tensor(tx_dtype dt, size_t n, const void *b) {
    int64_t d = (int64_t)n;
    tx_tensor *t = NULL;
    if (tx_tensor_from_data(dt, 1, &d, b, n, &t) != TX_OK) fail_msg("from_data: %s", tx_last_error());
    return t;
}

static tx_tensor *cast_to(const tx_tensor *x, tx_dtype to) {
    tx_tensor *o = NULL;
    if (tx_cast(x, to, &o) != TX_OK) fail_msg("cast to %s: %s", tx_dtype_name(to), tx_last_error());
    return o;
}

static void assert_same(const tx_tensor *a, const tx_tensor *b) {
    assert_int_equal(tx_tensor_rank(a), tx_tensor_rank(b));
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        assert_int_equal(tx_tensor_dim(a, i), tx_tensor_dim(b, i));
    assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
    if (tx_tensor_nbytes(a)) assert_memory_equal(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
}

static void test_dtype_table(void **state) {
    (void)state;
    assert_int_equal(TX_INT4, 29);
    assert_int_equal(TX_UINT4, 30);
    assert_string_equal(tx_dtype_name(TX_INT4), "int4");
    assert_string_equal(tx_dtype_name(TX_UINT4), "uint4");
    assert_int_equal(tx_dtype_size(TX_INT4), 1);
    assert_int_equal(tx_dtype_size(TX_UINT4), 1);
    assert_int_equal(tx_dtype_kind_of(TX_INT4), TX_KIND_SIGNED);
    assert_int_equal(tx_dtype_kind_of(TX_UINT4), TX_KIND_UNSIGNED);
    assert_int_equal(tx_dtype_from_name("tf.int4"), TX_INT4);
    assert_int_equal(tx_dtype_from_name("DT_UINT4"), TX_UINT4);
}

/* tx_tensor_from_data keeps the low nibble of every byte, zeros above (TF 2.21 decides); wrap
 * takes any bytes, whose upper bits every reader ignores. */
static void test_constructors(void **state) {
    (void)state;
    uint8_t raw[256];
    for (int i = 0; i < 256; i++) raw[i] = (uint8_t)i;
    for (int k = 0; k < 2; k++) {
        tx_dtype dt = k ? TX_UINT4 : TX_INT4;
        tx_tensor *t = bytes_tensor(dt, 256, raw);
        const int8_t *s = tx_tensor_data(t);
        const uint8_t *u = tx_tensor_data(t);
        (void)s;
        for (int i = 0; i < 256; i++) {
            assert_int_equal((int)u[i], i & 0xF);
            int64_t v = 99;
            assert_int_equal(tx_tensor_get_int(t, i, &v), TX_OK);
            assert_int_equal(v, nib(dt, (unsigned)i));
        }
        tx_tensor_free(t);
    }
    /* Borrowed memory is taken as it is, any upper bits included (a TF tensor may carry them):
     * 0xfa and 0x0a are both int4 -6, and a cast reads them so. */
    uint8_t any[4] = {0xFA, 0x0A, 0x17, 0xF0};
    int64_t d4 = 4;
    tx_tensor *w = NULL, *c = NULL;
    assert_int_equal(tx_tensor_wrap(TX_INT4, 1, &d4, any, 4, NULL, NULL, &w), TX_OK);
    assert_ptr_equal(tx_tensor_data(w), any);
    const int want_i4[4] = {-6, -6, 7, 0};
    for (int i = 0; i < 4; i++) {
        int64_t v = 99;
        assert_int_equal(tx_tensor_get_int(w, i, &v), TX_OK);
        assert_int_equal(v, want_i4[i]);
    }
    c = cast_to(w, TX_INT32);
    tu_assert_values(c, TU_VALS(-6, -6, 7, 0));
    tx_tensor_free(c);
    c = cast_to(w, TX_UINT4); /* TF 2.21 decides: the nibble, zeros above */
    assert_memory_equal(tx_tensor_data_const(c), ((const uint8_t[]){0x0A, 0x0A, 0x07, 0x00}), 4);
    tx_tensor_free(c);
    c = cast_to(w, TX_INT4); /* the same dtype: the bytes as they are, as TF returns its input */
    assert_memory_equal(tx_tensor_data_const(c), any, 4);
    tx_tensor_free(c);
    tx_tensor_free(w);
    /* A zero-filled tensor is valid as it is. */
    tx_tensor *z = NULL;
    assert_int_equal(tx_tensor_new(TX_INT4, 1, &d4, &z), TX_OK);
    const uint8_t zeros[4] = {0};
    assert_memory_equal(tx_tensor_data(z), zeros, 4);
    tx_tensor_free(z);
}

/* The packed form: element 2k in the low nibble of byte k, 2k+1 in the high one. */
static void test_packed(void **state) {
    (void)state;
    const int8_t v[5] = {-8, -1, 0, 7, 3};
    const uint8_t want[3] = {0xF8, 0x70, 0x03};
    tx_tensor *t = bytes_tensor(TX_INT4, 5, v), *back = NULL;
    size_t n = 99;
    assert_int_equal(tx_tensor_pack_int4(t, NULL, 0, &n), TX_OK); /* size query */
    assert_int_equal(n, 3);
    uint8_t buf[8];
    memset(buf, 0xAA, sizeof buf);
    assert_int_equal(tx_tensor_pack_int4(t, buf, sizeof buf, &n), TX_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(buf, want, 3);
    assert_int_equal(buf[3], 0xAA); /* nothing past the packed size */
    tu_assert_error(tx_tensor_pack_int4(t, buf, 2, &n), TX_INVALID_ARGUMENT, "cap is 2, the packed form needs 3");
    assert_int_equal(n, 0);
    tu_assert_error(tx_tensor_pack_int4(t, NULL, 4, &n), TX_INVALID_ARGUMENT, "buf is NULL");
    tu_assert_error(tx_tensor_pack_int4(t, buf, 8, NULL), TX_INVALID_ARGUMENT, "written is NULL");
    tu_assert_error(tx_tensor_pack_int4(NULL, buf, 8, &n), TX_INVALID_ARGUMENT, "t is NULL");
    /* Round trips, in both shapes of the same 5 elements. */
    int64_t d5 = 5;
    assert_int_equal(tx_tensor_from_packed_int4(TX_INT4, 1, &d5, want, 3, &back), TX_OK);
    assert_same(back, t);
    assert_int_equal(tx_tensor_dtype(back), TX_INT4);
    tx_tensor_free(back);
    /* Every byte value, even count, both dtypes: unpack then pack gives the bytes back. */
    uint8_t all[256], again[256];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    int64_t dims[2] = {16, 32};
    for (int k = 0; k < 2; k++) {
        tx_dtype dt = k ? TX_UINT4 : TX_INT4;
        assert_int_equal(tx_tensor_from_packed_int4(dt, 2, dims, all, 256, &back), TX_OK);
        const uint8_t *e = tx_tensor_data(back);
        for (int i = 0; i < 512; i++)
            assert_int_equal((int)e[i], (i % 2 ? all[i / 2] >> 4 : all[i / 2]) & 0xF);
        assert_int_equal(tx_tensor_pack_int4(back, again, sizeof again, &n), TX_OK);
        assert_int_equal(n, 256);
        assert_memory_equal(again, all, 256);
        tx_tensor_free(back);
    }
    /* Hostile sizes and bytes. */
    tu_assert_error(tx_tensor_from_packed_int4(TX_INT4, 1, &d5, want, 2, &back), TX_INVALID_ARGUMENT,
                    "nbytes is 2, 5 int4 elements packed at 4 bits need 3 (ceil(5 * 4 / 8))");
    tu_assert_error(tx_tensor_from_packed_int4(TX_INT4, 1, &d5, want, 5, &back), TX_INVALID_ARGUMENT, "need 3");
    const uint8_t padded[3] = {0xF8, 0x70, 0x13};
    tu_assert_error(tx_tensor_from_packed_int4(TX_INT4, 1, &d5, padded, 3, &back), TX_INVALID_ARGUMENT,
                    "the bits above bit 3 of the last byte (byte 2, 0x13) pad 5 elements of 4 bits and must be 0");
    assert_null(back);
    tu_assert_error(tx_tensor_from_packed_int4(TX_INT8, 1, &d5, want, 3, &back), TX_INVALID_ARGUMENT,
                    "dtype must be int4 or uint4, got int8");
    tu_assert_error(tx_tensor_from_packed_int4(TX_INT4, 1, &d5, NULL, 3, &back), TX_INVALID_ARGUMENT, "data is NULL");
    tu_assert_error(tx_tensor_from_packed_int4(TX_INT4, 1, &d5, want, 3, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    int64_t neg = -1, huge[2] = {INT64_MAX, 4};
    tu_assert_error(tx_tensor_from_packed_int4(TX_INT4, 1, &neg, want, 0, &back), TX_INVALID_ARGUMENT, "");
    assert_int_not_equal(tx_tensor_from_packed_int4(TX_INT4, 2, huge, want, 3, &back), TX_OK);
    assert_int_not_equal(tx_tensor_from_packed_int4(TX_INT4, 300, huge, want, 3, &back), TX_OK);
    assert_null(back);
    /* Zero elements: zero bytes, data may be NULL. */
    int64_t zero = 0;
    assert_int_equal(tx_tensor_from_packed_int4(TX_UINT4, 1, &zero, NULL, 0, &back), TX_OK);
    assert_int_equal(tx_tensor_pack_int4(back, NULL, 0, &n), TX_OK);
    assert_int_equal(n, 0);
    tx_tensor_free(back);
    /* A scalar packs into one byte with a zero high nibble. */
    const uint8_t one[1] = {0x0D};
    assert_int_equal(tx_tensor_from_packed_int4(TX_UINT4, 0, NULL, one, 1, &back), TX_OK);
    assert_int_equal(((const uint8_t *)tx_tensor_data(back))[0], 13);
    tx_tensor_free(back);
    tx_tensor *i8 = bytes_tensor(TX_INT8, 5, v);
    tu_assert_error(tx_tensor_pack_int4(i8, buf, 8, &n), TX_INVALID_ARGUMENT, "t must be int4 or uint4, got int8");
    tx_tensor_free(i8);
    tx_tensor_free(t);
}

/* All 16 values of each dtype to every numeric dtype: the same bits as from int8 / uint8. */
static void test_cast_from_4bit(void **state) {
    (void)state;
    for (int k = 0; k < 2; k++) {
        tx_dtype dt = k ? TX_UINT4 : TX_INT4, wide = k ? TX_UINT8 : TX_INT8;
        int8_t vals[16];
        for (int i = 0; i < 16; i++) vals[i] = (int8_t)nib(dt, (unsigned)i);
        tx_tensor *x = bytes_tensor(dt, 16, vals), *w = bytes_tensor(wide, 16, vals);
        for (size_t j = 0; j < N_NUMERIC; j++) {
            tx_dtype to = NUMERIC[j];
            tx_tensor *a = cast_to(x, to), *b = NULL;
            assert_int_equal(tx_tensor_dtype(a), to);
            if (to == TX_INT4 || to == TX_UINT4) {
                /* int4 -> uint4 and back: modulo 16 */
                const uint8_t *e = tx_tensor_data(a);
                for (int i = 0; i < 16; i++)
                    assert_int_equal((int)e[i], vals[i] & 0xF); /* the nibble, zeros above */
            } else {
                b = cast_to(w, to);
                assert_same(a, b);
            }
            tx_tensor_free(a);
            tx_tensor_free(b);
        }
        tx_tensor_free(x);
        tx_tensor_free(w);
    }
}

/* Every numeric dtype to int4 / uint4: the low 4 bits of the value as int32 (TF casts to the
 * 8-bit underlying type, whose low bits are those of the int32 conversion). */
static void test_cast_to_4bit(void **state) {
    (void)state;
    const double src[] = {0, 1, -1, 7, 8, -8, -9, 15, 16, 17, 100, -100, 127, 3.75, -3.75, 7.9, -8.9, 255, 300};
    const size_t n = sizeof src / sizeof src[0];
    int64_t d = (int64_t)n;
    for (size_t j = 0; j < N_NUMERIC; j++) {
        tx_dtype from = NUMERIC[j];
        tx_tensor *f64 = tu_tensor(TX_FLOAT64, 1, &d, src);
        tx_tensor *x = cast_to(f64, from), *i32 = cast_to(x, TX_INT32);
        const int32_t *r = tx_tensor_data(i32);
        for (int k = 0; k < 2; k++) {
            tx_dtype to = k ? TX_UINT4 : TX_INT4;
            tx_tensor *y = cast_to(x, to);
            const uint8_t *e = tx_tensor_data(y);
            for (size_t i = 0; i < n; i++) {
                if (e[i] > 15) fail_msg("%s -> %s: byte 0x%x has upper bits", tx_dtype_name(from), tx_dtype_name(to), e[i]);
                int got = nib(to, e[i]);
                if (got != nib(to, (unsigned)r[i]))
                    fail_msg("%s %g -> %s: got %d, want %d", tx_dtype_name(from), src[i], tx_dtype_name(to),
                             got, nib(to, (unsigned)r[i]));
            }
            tx_tensor_free(y);
        }
        tx_tensor_free(f64);
        tx_tensor_free(x);
        tx_tensor_free(i32);
    }
    /* The float rule spelled out: truncate toward zero, then wrap; NaN, inf and values outside
     * int32 give 0 (x86's 0x80000000). */
    const double fv[] = {7.9, -8.9, 8.0, 15.0, 16.0, -9.0, 300.0, -0.5, NAN, INFINITY, -INFINITY, 3e9, -1.0};
    const int want_i[] = {7, -8, -8, -1, 0, 7, -4, 0, 0, 0, 0, 0, -1};
    const int want_u[] = {7, 8, 8, 15, 0, 7, 12, 0, 0, 0, 0, 0, 15};
    int64_t m = (int64_t)(sizeof fv / sizeof fv[0]);
    for (int k = 0; k < 2; k++) {
        tx_dtype from = k ? TX_FLOAT32 : TX_FLOAT64;
        tx_tensor *f64 = tu_tensor(TX_FLOAT64, 1, &m, fv), *x = cast_to(f64, from);
        tx_tensor *a = cast_to(x, TX_INT4), *b = cast_to(x, TX_UINT4);
        for (int64_t i = 0; i < m; i++) {
            assert_int_equal(((const uint8_t *)tx_tensor_data(a))[i], want_i[i] & 0xF);
            assert_int_equal(((const uint8_t *)tx_tensor_data(b))[i], want_u[i]);
        }
        tx_tensor_free(f64);
        tx_tensor_free(x);
        tx_tensor_free(a);
        tx_tensor_free(b);
    }
}

/* t's bytes are want's; for int4 / uint4 want holds values, stored as their low nibble with
 * zeros above (TF 2.21 decides). */
static void assert_bytes(const tx_tensor *t, const int8_t *want, size_t n) {
    assert_int_equal(tx_tensor_nbytes(t), n);
    bool four = tx_tensor_dtype(t) == TX_INT4 || tx_tensor_dtype(t) == TX_UINT4;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(((const uint8_t *)tx_tensor_data_const(t))[i],
                         four ? (uint8_t)want[i] & 0xF : (uint8_t)want[i]);
}

/* a (int8) and b (int4) hold the same values: b's bytes are a's low nibbles. */
static void assert_same_nibbles(const tx_tensor *a, const tx_tensor *b) {
    assert_int_equal(tx_tensor_rank(a), tx_tensor_rank(b));
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        assert_int_equal(tx_tensor_dim(a, i), tx_tensor_dim(b, i));
    assert_bytes(b, tx_tensor_data_const(a), tx_tensor_nbytes(a));
}

static void test_saturate_and_checked(void **state) {
    (void)state;
    int64_t d4 = 4, d2 = 2;
    tx_tensor *f = tu_tensor(TX_FLOAT32, 1, &d4, TU_VALS(100, -100, 7.5, -8.5)), *o = NULL;
    assert_int_equal(tx_saturate_cast(f, TX_INT4, &o), TX_OK);
    assert_bytes(o, (const int8_t[]){7, -8, 7, -8}, 4);
    tx_tensor_free(o);
    assert_int_equal(tx_cast_in_mode(f, TX_UINT4, TX_CAST_SATURATE, 0, &o), TX_OK);
    assert_bytes(o, (const int8_t[]){15, 0, 7, 0}, 4);
    tx_tensor_free(o);
    tx_tensor *i = tu_tensor(TX_INT32, 1, &d4, TU_VALS(-1, 16, 5, -9));
    assert_int_equal(tx_saturate_cast(i, TX_UINT4, &o), TX_OK);
    assert_bytes(o, (const int8_t[]){0, 15, 5, 0}, 4);
    tx_tensor_free(o);
    /* int4 -> uint4 clamps at 0; uint4 -> int4 at 7; int4 -> int8 is a plain cast. */
    tx_tensor *s = bytes_tensor(TX_INT4, 4, (const int8_t[]){-8, -1, 0, 7});
    assert_int_equal(tx_saturate_cast(s, TX_UINT4, &o), TX_OK);
    assert_bytes(o, (const int8_t[]){0, 0, 0, 7}, 4);
    tx_tensor_free(o);
    tx_tensor *u = bytes_tensor(TX_UINT4, 2, (const uint8_t[]){15, 6});
    assert_int_equal(tx_saturate_cast(u, TX_INT4, &o), TX_OK);
    assert_bytes(o, (const int8_t[]){7, 6}, 2);
    tx_tensor_free(o);
    assert_int_equal(tx_saturate_cast(u, TX_FLOAT32, &o), TX_OK);
    tu_assert_values(o, TU_VALS(15, 6));
    tx_tensor_free(o);
    /* checked: the first element that does not fit, by index and reason. */
    tu_assert_error(tx_cast_in_mode(i, TX_INT4, TX_CAST_CHECKED, 0, &o), TX_INVALID_ARGUMENT,
                    "element 1 (index [1]) is 16 (int32), which int4 cannot hold exactly: out of range");
    tx_tensor *fr = tu_tensor(TX_FLOAT64, 1, &d2, TU_VALS(3, 1.5));
    tu_assert_error(tx_cast_in_mode(fr, TX_UINT4, TX_CAST_CHECKED, 0, &o), TX_INVALID_ARGUMENT, "not an integer");
    tu_assert_error(tx_cast_in_mode(s, TX_UINT4, TX_CAST_CHECKED, 0, &o), TX_INVALID_ARGUMENT,
                    "element 0 (index [0]) is -8 (int4), which uint4 cannot hold exactly: out of range");
    assert_int_equal(tx_cast_in_mode(s, TX_FLOAT8_E4M3FN, TX_CAST_CHECKED, TX_CAST_EXACT_FLOAT, &o), TX_OK);
    tx_tensor_free(o);
    assert_int_equal(tx_cast_in_mode(u, TX_INT8, TX_CAST_CHECKED, 0, &o), TX_OK);
    assert_bytes(o, (const int8_t[]){15, 6}, 2);
    tx_tensor_free(o);
    tx_tensor_free(f);
    tx_tensor_free(i);
    tx_tensor_free(s);
    tx_tensor_free(u);
    tx_tensor_free(fr);
}

/* Each op family on int4 gives the values the same op gives on int8 (storage is one per byte). */
static void test_movement_vs_int8(void **state) {
    (void)state;
    int8_t v[24];
    for (int i = 0; i < 24; i++) v[i] = (int8_t)(i % 16 - 8);
    int64_t dims[3] = {2, 3, 4};
    tx_tensor *x[2] = {NULL, NULL}, *o[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++)
        assert_int_equal(tx_tensor_from_data(k ? TX_INT4 : TX_INT8, 3, dims, v, 24, &x[k]), TX_OK);
    tx_tensor *perm = tu_i64(3, (const int64_t[]){2, 0, 1}), *b = tu_i64(3, (const int64_t[]){0, 1, 1});
    tx_tensor *sz = tu_i64(3, (const int64_t[]){2, 2, 3}), *idx = tu_i32(3, (const int32_t[]){2, 0, 2});
    tx_tensor *mult = tu_i32(3, (const int32_t[]){2, 1, 2});
    tx_tensor *pads = tu_tensor(TX_INT32, 2, TU_DIMS(3, 2), TU_VALS(1, 0, 0, 2, 1, 1));
    tx_tensor *rdims = tu_tensor(TX_BOOL, 1, TU_DIMS(3), TU_VALS(1, 0, 1));
    for (int op = 0; op < 9; op++) {
        for (int k = 0; k < 2; k++) {
            const tx_tensor *pair[2] = {x[k], x[k]};
            tx_tensor *parts[3] = {NULL, NULL, NULL};
            tx_status st = TX_OK;
            switch (op) {
            case 0: st = tx_transpose(x[k], perm, 0, &o[k]); break;
            case 1: st = tx_slice(x[k], b, sz, &o[k]); break;
            case 2: st = tx_gather(x[k], idx, 2, 0, &o[k]); break;
            case 3: st = tx_concat(pair, 2, 1, &o[k]); break;
            case 4: st = tx_pack(pair, 2, 0, &o[k]); break;
            case 5: st = tx_tile(x[k], mult, &o[k]); break;
            case 6: st = tx_pad(x[k], pads, TX_PAD_REFLECT, NULL, &o[k]); break;
            case 7: st = tx_reverse(x[k], rdims, &o[k]); break;
            default:
                st = tx_split(x[k], 1, 3, parts);
                if (st == TX_OK) {
                    o[k] = parts[1];
                    tx_tensor_free(parts[0]);
                    tx_tensor_free(parts[2]);
                }
                break;
            }
            if (st != TX_OK) fail_msg("op %d on %s: %s", op, k ? "int4" : "int8", tx_last_error());
            assert_int_equal(tx_tensor_dtype(o[k]), k ? TX_INT4 : TX_INT8);
        }
        assert_same_nibbles(o[0], o[1]);
        tx_tensor_free(o[0]);
        tx_tensor_free(o[1]);
    }
    /* space_to_depth (NHWC) and a constant pad whose value is an int4 tensor. */
    int8_t img[16];
    for (int i = 0; i < 16; i++) img[i] = (int8_t)(7 - i);
    int64_t nhwc[4] = {1, 4, 4, 1};
    tx_tensor *im[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(tx_tensor_from_data(k ? TX_INT4 : TX_INT8, 4, nhwc, img, 16, &im[k]), TX_OK);
        assert_int_equal(tx_space_to_depth(im[k], 2, TX_FORMAT_NHWC, &o[k]), TX_OK);
    }
    assert_same_nibbles(o[0], o[1]);
    assert_int_equal(tx_tensor_dtype(o[1]), TX_INT4);
    tx_tensor_free(o[0]);
    tx_tensor_free(o[1]);
    for (int k = 0; k < 2; k++) {
        int8_t cv = -3;
        tx_tensor *c = NULL;
        assert_int_equal(tx_tensor_from_data(k ? TX_INT4 : TX_INT8, 0, NULL, &cv, 1, &c), TX_OK);
        assert_int_equal(tx_pad(x[k], pads, TX_PAD_CONSTANT, c, &o[k]), TX_OK);
        tx_tensor_free(c);
    }
    assert_same_nibbles(o[0], o[1]);
    tx_tensor_free(o[0]);
    tx_tensor_free(o[1]);
    /* one_hot's default on value is 1. */
    tx_tensor *ind = tu_i32(2, (const int32_t[]){1, 0});
    assert_int_equal(tx_one_hot(ind, 2, NULL, NULL, -1, TX_UINT4, &o[0]), TX_OK);
    assert_bytes(o[0], (const int8_t[]){0, 1, 1, 0}, 4);
    tx_tensor_free(o[0]);
    tx_tensor_free(ind);
    for (int k = 0; k < 2; k++) {
        tx_tensor_free(x[k]);
        tx_tensor_free(im[k]);
    }
    tx_tensor_free(perm);
    tx_tensor_free(b);
    tx_tensor_free(sz);
    tx_tensor_free(idx);
    tx_tensor_free(mult);
    tx_tensor_free(pads);
    tx_tensor_free(rdims);
}

static void test_refusals(void **state) {
    (void)state;
    tx_tensor *x = bytes_tensor(TX_INT4, 2, (const int8_t[]){1, -2}), *o = NULL;
    tx_tensor *i8 = bytes_tensor(TX_INT8, 2, (const int8_t[]){1, -2});
    tu_assert_error(tx_bitcast(x, TX_INT8, &o), TX_UNIMPLEMENTED, "input dtype int4 cannot be bitcast");
    tu_assert_error(tx_bitcast(i8, TX_UINT4, &o), TX_UNIMPLEMENTED, "type uint4 is not a bitcast target");
    tx_tensor *outs[3] = {NULL, NULL, NULL};
    tu_assert_error(tx_unique_with_counts(x, TX_INT32, outs), TX_UNIMPLEMENTED, "dtype int4 is not supported");
    tu_assert_error(tx_sequence_mask(x, NULL, TX_BOOL, &o), TX_UNIMPLEMENTED, "lengths dtype int4 needs maxlen");
    tx_tensor *s = tu_strings(1, TU_DIMS(1), (const char *const[]){"ab"});
    assert_int_not_equal(tx_decode_raw(s, TX_INT4, 1, NULL, &o), TX_OK);
    assert_null(o);
    /* TF 2.21 decides: sequence_mask's cast of the bool mask has no 4-bit output (commit 01cef61). */
    tx_tensor *len = tu_i32(2, (const int32_t[]){1, 2});
    assert_int_equal(tx_sequence_mask(len, NULL, TX_INT4, &o), TX_UNIMPLEMENTED);
    assert_null(o);
    tx_tensor_free(len);
    tx_tensor_free(s);
    tx_tensor_free(x);
    tx_tensor_free(i8);
}

/* .npy: [('int4', '|i1')] / [('uint4', '|u1')], one element per byte, as tensorx stores it (the
 * low nibble, zeros above); loading keeps the low nibble of each byte, so files whose bytes hold
 * sign-extended values (tensorx before 0.4) read the same values. */
static void test_npy_round_trip(void **state) {
    (void)state;
    for (int k = 0; k < 2; k++) {
        tx_dtype dt = k ? TX_UINT4 : TX_INT4;
        const int8_t vi[5] = {-8, -1, 0, 7, 3}, vu[5] = {15, 8, 0, 7, 3};
        const int8_t *v = k ? vu : vi;
        tx_tensor *x = bytes_tensor(dt, 5, v), *y = NULL;
        void *buf = NULL;
        size_t size = 0;
        char descr[64];
        snprintf(descr, sizeof descr, "[('%s', '%s')]", tx_dtype_name(dt), k ? "|u1" : "|i1");
        tu_npy_save_with_descr(x, descr, &buf, &size);
        assert_int_equal(tx_npy_load_buffer(buf, size, &y), TX_OK);
        assert_int_equal(tx_tensor_dtype(y), dt);
        assert_same(x, y);
        tx_tensor_free(y);
        /* int4 -1 written sign-extended (0xFF) or as the nibble (0x0F); a stray high bit is dropped. */
        unsigned char *data = (unsigned char *)buf + size - 5;
        assert_int_equal(data[1], k ? 8 : 0x0F); /* what tensorx writes: the nibble */
        data[1] = 0xFF;
        data[2] = 0x30;
        assert_int_equal(tx_npy_load_buffer(buf, size, &y), TX_OK);
        assert_int_equal(((const uint8_t *)tx_tensor_data(y))[1], 15);
        assert_int_equal(((const uint8_t *)tx_tensor_data(y))[2], 0);
        tx_tensor_free(y);
        tx_buffer_free(buf, size);
        tx_tensor_free(x);
    }
}

/* tx_file_map keeps the low nibble in its private mapping; the file itself is untouched. */
static void test_file_map(void **state) {
    (void)state;
    const uint8_t bytes[6] = {0x0F, 0x17, 0xF8, 0x07, 0x00, 0xFF};
    char path[] = "/tmp/tx_int4_test_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, sizeof bytes), (ssize_t)sizeof bytes);
    close(fd);
    tx_tensor *t = NULL;
    assert_int_equal(tx_file_map(path, 0, TX_INT4, 2, TU_DIMS(2, 3), 0, &t), TX_OK);
    assert_bytes(t, (const int8_t[]){-1, 7, -8, 7, 0, -1}, 6);
    assert_false(tx_tensor_is_writable(t)); /* fixed up in a private copy, still read-only */
    tx_tensor_free(t);
    assert_int_equal(tx_file_map(path, 1, TX_UINT4, 1, TU_DIMS(4), 0, &t), TX_OK);
    assert_bytes(t, (const int8_t[]){7, 8, 7, 0}, 4);
    tx_tensor_free(t);
    uint8_t again[6];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(again, 1, 6, f), 6);
    fclose(f);
    assert_memory_equal(again, bytes, 6);
    unlink(path);
}

/* Allocation failure: resource_exhausted and nothing left allocated, for each allocation. */
static void test_alloc_failure(void **state) {
    (void)state;
    const uint8_t packed[2] = {0x21, 0x03};
    const int8_t raw[3] = {1, 2, 3};
    tx_tensor *x = bytes_tensor(TX_INT4, 3, raw);
    tu_alloc_install();
    for (long k = 1; k < 8; k++) {
        for (int which = 0; which < 3; which++) {
            tx_tensor *o = NULL;
            long live = tu_alloc_live();
            tu_alloc_fail_at(k);
            tx_status st = which == 0 ? tx_tensor_from_packed_int4(TX_INT4, 1, TU_DIMS(3), packed, 2, &o)
                         : which == 1 ? tx_tensor_from_data(TX_UINT4, 1, TU_DIMS(3), raw, 3, &o)
                                      : tx_cast_in_mode(x, TX_UINT4, TX_CAST_SATURATE, 0, &o);
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
        cmocka_unit_test(test_dtype_table),
        cmocka_unit_test(test_constructors),
        cmocka_unit_test(test_packed),
        cmocka_unit_test(test_cast_from_4bit),
        cmocka_unit_test(test_cast_to_4bit),
        cmocka_unit_test(test_saturate_and_checked),
        cmocka_unit_test(test_movement_vs_int8),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_npy_round_trip),
        cmocka_unit_test(test_file_map),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
