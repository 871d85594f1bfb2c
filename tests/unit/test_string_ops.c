/* SPDX-License-Identifier: Apache-2.0 */
/* test_string_ops.c -- string_to_number (TF's test vectors and the parser's edge cases) and
 * string_tensor_pack/unpack (OpenVINO's examples, edges, errors), and random bytes through both
 * and decode_raw (never a crash, leak or read out of bounds under ASan). */
#include "casting_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- string_to_number --------------------------------------------------------------------- */

static tx_tensor *parse_ok(const char *s, tx_dtype t) {
    tx_tensor *x = str_scalar(s, strlen(s)), *o = NULL;
    tx_status st = tx_string_to_number(x, t, &o);
    if (st != TX_OK) fail_msg("string_to_number('%s', %s): %s", s, tx_dtype_name(t), tx_last_error());
    tx_tensor_free(x);
    return o;
}

static double parse_f64(const char *s) {
    tx_tensor *o = parse_ok(s, TX_FLOAT64);
    double d = *(const double *)tx_tensor_data(o);
    tx_tensor_free(o);
    return d;
}

static float parse_f32(const char *s) {
    tx_tensor *o = parse_ok(s, TX_FLOAT32);
    float f = *(const float *)tx_tensor_data(o);
    tx_tensor_free(o);
    return f;
}

static int64_t parse_int(const char *s, tx_dtype t) {
    tx_tensor *o = parse_ok(s, t);
    int64_t v;
    assert_int_equal(tx_tensor_get_int(o, 0, &v), TX_OK);
    tx_tensor_free(o);
    return v;
}

static void parse_fails(const char *s, size_t len, tx_dtype t) {
    tx_tensor *x = str_scalar(s, len), *o = NULL;
    tx_status st = tx_string_to_number(x, t, &o);
    if (st != TX_INVALID_ARGUMENT)
        fail_msg("string_to_number('%s', %s) gave %s, want invalid_argument", s, tx_dtype_name(t), tx_status_name(st));
    assert_null(o);
    assert_non_null(strstr(tx_last_error(), "StringToNumberOp could not correctly convert string: "));
    tx_tensor_free(x);
}

static void test_string_to_number_tf_vectors(void **state) {
    (void)state;
    /* string_to_number_op_test.py */
    assert_true(parse_f32("0") == 0 && parse_f32("3") == 3 && parse_f32("-1") == -1);
    assert_true(parse_f32("1.12") == 1.12f && parse_f32("0xF") == 15 && parse_f32("   -10.5") == -10.5f);
    assert_true(parse_f32("3.40282e+38") == 3.40282e+38f);
    assert_true(parse_f32("3.40283e+38") == INFINITY && parse_f32("-3.40283e+38") == -INFINITY);
    assert_true(isnan(parse_f32("NAN")) && parse_f32("INF") == INFINITY);
    parse_fails("10foobar", 8, TX_FLOAT32);
    assert_true(parse_f64("3.40283e+38") == 3.40283e+38 && parse_f64("-3.40283e+38") == -3.40283e+38);
    assert_true(parse_f64("0xF") == 15 && parse_f64("   -10.5") == -10.5 && parse_f64("1.12") == 1.12);
    parse_fails("10foobar", 8, TX_FLOAT64);
    assert_true(parse_int("0", TX_INT32) == 0 && parse_int("-1", TX_INT32) == -1);
    assert_true(parse_int("    -10", TX_INT32) == -10);
    assert_true(parse_int("-2147483648", TX_INT32) == INT32_MIN && parse_int("2147483647", TX_INT32) == INT32_MAX);
    parse_fails("-2147483649", 11, TX_INT32);
    parse_fails("2147483648", 10, TX_INT32);
    parse_fails("2.9", 3, TX_INT32);
    parse_fails("10foobar", 8, TX_INT32);
    assert_true(parse_int("-2147483649", TX_INT64) == -2147483649ll && parse_int("2147483648", TX_INT64) == 2147483648ll);
    assert_true(parse_int("9223372036854775807", TX_INT64) == INT64_MAX);
    assert_true(parse_int("-9223372036854775808", TX_INT64) == INT64_MIN);
    parse_fails("9223372036854775808", 19, TX_INT64);
    parse_fails("-9223372036854775809", 20, TX_INT64);
    parse_fails("2.9", 3, TX_INT64);
    /* The error names the string and the element. */
    const char *v[3] = {"1", "2", "zz"};
    tx_tensor *x = tu_strings(1, TU_DIMS(3), v), *o = NULL;
    tu_assert_error(tx_string_to_number(x, TX_INT32, &o), TX_INVALID_ARGUMENT,
                    "StringToNumberOp could not correctly convert string: zz (element 2, out_type int32)");
    tx_tensor_free(x);
}

static void test_string_to_number_rules(void **state) {
    (void)state;
    /* Floats: whitespace, signs, exponents, hex integers, inf/nan spellings. */
    assert_true(parse_f64(" \t\n\v\f\r1.5 \t\n") == 1.5);
    assert_true(parse_f64("+1.5") == 1.5 && parse_f64(".5") == 0.5 && parse_f64("5.") == 5.0);
    assert_true(parse_f64("1e3") == 1000 && parse_f64("1E+3") == 1000 && parse_f64("25e-1") == 2.5);
    assert_true(parse_f64("0.e1") == 0 && parse_f64("0e5") == 0 && parse_f64("000123") == 123);
    assert_true(signbit(parse_f64("-0")) && parse_f64("-0") == 0);
    assert_true(parse_f64("0x10") == 16 && parse_f64("-0X1f") == -31 && parse_f64("0xABCDEF ") == 0xabcdef);
    assert_true(parse_f64("inf") == INFINITY && parse_f64("-Inf") == -INFINITY && parse_f64("+iNF") == INFINITY);
    assert_true(isnan(parse_f64("nan")) && isnan(parse_f64("NaN")) && signbit(parse_f64("-nan")));
    assert_true(parse_f64(" inf ") == INFINITY);
    assert_true(parse_f64("1e400") == INFINITY && parse_f64("-1e400") == -INFINITY);
    assert_true(parse_f64("1e-400") == 0 && parse_f64("4.9e-324") == 4.9e-324);
    assert_true(parse_f64("1e99999999999") == INFINITY && parse_f64("1e-99999999999") == 0);
    assert_true(parse_f32("1e-45") == 0x1p-149f && parse_f32("3.4028235e38") == FLT_MAX);
    assert_true(parse_f32("0.1") == 0.1f && parse_f64("0.1") == 0.1);
    /* Rounding is done once, directly to float: 1.00000005960464477539 is a tie in float32 that a
     * round trip through double would break differently. */
    assert_true(parse_f32("1.000000059604644775390625") == 1.0f);
    assert_true(parse_f32("1.000000059604644775390626") == 1.0f + 0x1p-23f);
    assert_true(parse_f32("0x1000001") == 16777216.0f && parse_f32("0x1000003") == 16777220.0f);
    /* TF 2.21 decides (absl::SimpleAtod): a string of only whitespace is an error, as "" is. */
    parse_fails("   ", 3, TX_FLOAT64);
    parse_fails("\t", 1, TX_FLOAT32);
    parse_fails("", 0, TX_FLOAT32);
    /* "infinity" in any case, NaN payloads in parentheses, hex floats with binary exponents. */
    assert_true(parse_f64("Infinity") == INFINITY && parse_f64("-INFINITY") == -INFINITY);
    assert_true(parse_f32(" +infinity ") == INFINITY && parse_f64("0x1p3") == 8 && parse_f64("0x1.8") == 1.5);
    assert_true(parse_f64("0x.8") == 0.5 && parse_f64("-0x1.8p1") == -3 && parse_f32("0x1P-2") == 0.25f);
    double nan1 = parse_f64("nan(1)"), nanx = parse_f64("-NaN(0x10)"), nanw = parse_f64("nan(abc_9)");
    uint64_t b1, bx, bw;
    memcpy(&b1, &nan1, 8), memcpy(&bx, &nanx, 8), memcpy(&bw, &nanw, 8);
    assert_true(b1 == 0x7ff8000000000001ull && bx == 0xfff8000000000010ull && bw == 0x7ff8000000000000ull);
    float nanf1 = parse_f32("nan(5)");
    uint32_t f1;
    memcpy(&f1, &nanf1, 4);
    assert_int_equal(f1, 0x7fc00005);
    const char *bad[] = {"infin", "infinit", "infinityx", "nan(", "nan(-1)", "nanq", "in", "+", "-", "+ 1", "- 1",
                         ".", "-.", ".e1", "e5", "1e", "1e+", "1.5.2", "1 2", "0x", "0xp1", "0x1p", "0x.p1", "0xg",
                         "x10", "00x1", "1_000", "1,5", "--1", "+-1", "++1", "-+1", "1e5x", "0b101",
                         "\xef\xbc\x91", "inff", "nana", ("\xa0" "1")};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) parse_fails(bad[i], strlen(bad[i]), TX_FLOAT64);
    parse_fails("1\0", 2, TX_FLOAT32);             /* a NUL byte is not whitespace */
    /* Any length, rounded correctly: 400 digits, 500 leading fraction zeros, long hex. */
    char pad[600];
    memset(pad, ' ', 40);
    memcpy(pad + 40, "1.5", 4);
    assert_true(parse_f64(pad) == 1.5);
    memset(pad, '0', sizeof pad);
    pad[0] = '.', pad[501] = '3', pad[502] = 'e', memcpy(pad + 503, "502", 4);
    assert_true(parse_f64(pad) == 30.0);
    memset(pad, '9', 400);
    memcpy(pad + 400, "e-400", 6);
    assert_true(parse_f64(pad) == 1.0 && parse_f32(pad) == 1.0f);
    memset(pad, ' ', 40);
    memcpy(pad + 29, "123", 4); /* integers have no length limit either */
    assert_true(parse_int(pad, TX_INT64) == 123);
    /* Integers: an optional sign ('+' too: TF 2.21 decides), no hex, no exponent, surrounding
     * whitespace allowed. */
    assert_true(parse_int(" 42 ", TX_INT32) == 42 && parse_int("-0", TX_INT64) == 0);
    assert_true(parse_int("+5", TX_INT32) == 5 && parse_int(" +7 ", TX_INT64) == 7);
    assert_true(parse_int("000000000000000000000000000000000000000000007", TX_INT32) == 7);
    const char *ibad[] = {"+-5", "+", "0x10", "1e3", "", " ", "-", "- 1", "1 2", "５", "12a", "inf", "nan", "1.0"};
    for (size_t i = 0; i < sizeof ibad / sizeof ibad[0]; i++) {
        parse_fails(ibad[i], strlen(ibad[i]), TX_INT32);
        parse_fails(ibad[i], strlen(ibad[i]), TX_INT64);
    }
    parse_fails("7\0", 2, TX_INT64);
    /* uint32 / uint64 (TF 2.21 has these kernels, tsl::safe_strtou32 / safe_strtou64): as the
     * signed types, but any '-' fails, "-0" too; the full unsigned range. */
    assert_true(parse_int(" +7 ", TX_UINT32) == 7 && parse_int("4294967295", TX_UINT32) == UINT32_MAX);
    assert_true(parse_int("4294967296", TX_UINT64) == 4294967296ll && parse_int("0", TX_UINT64) == 0);
    tx_tensor *u = parse_ok("18446744073709551615", TX_UINT64);
    assert_true(tx_tensor_dtype(u) == TX_UINT64 && *(const uint64_t *)tx_tensor_data(u) == UINT64_MAX);
    tx_tensor_free(u);
    const char *ubad[] = {"-1", "-0", "4294967296", "0x10", "1.5", "", "+-1", "1e3", "nan"};
    for (size_t i = 0; i < sizeof ubad / sizeof ubad[0]; i++) parse_fails(ubad[i], strlen(ubad[i]), TX_UINT32);
    for (size_t i = 0; i < sizeof ubad / sizeof ubad[0]; i++)
        if (i != 2) parse_fails(ubad[i], strlen(ubad[i]), TX_UINT64);
    parse_fails("18446744073709551616", 20, TX_UINT64);
    parse_fails("99999999999999999999", 20, TX_UINT64);
    /* shapes, empty tensors, errors */
    tx_tensor *x = tu_strings(2, TU_DIMS(2, 2), (const char *[]){"1", "2.5", "-3e2", "0x1"}), *o = NULL;
    assert_int_equal(tx_string_to_number(x, TX_FLOAT32, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(2, 2));
    tu_assert_values(o, TU_VALS(1, 2.5, -300, 1));
    tx_tensor_free(o);
    tu_assert_error(tx_string_to_number(x, TX_INT16, &o), TX_UNIMPLEMENTED, "out_type int16 is not supported");
    tu_assert_error(tx_string_to_number(x, TX_FLOAT16, &o), TX_UNIMPLEMENTED, "float16");
    tx_tensor_free(x);
    x = tu_strings(2, TU_DIMS(0, 5), NULL);
    assert_int_equal(tx_string_to_number(x, TX_INT64, &o), TX_OK);
    tu_assert_shape(o, TX_INT64, 2, TU_DIMS(0, 5));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), NULL);
    tu_assert_error(tx_string_to_number(x, TX_FLOAT32, &o), TX_INVALID_ARGUMENT, "must be a string tensor");
    tu_assert_error(tx_string_to_number(NULL, TX_FLOAT32, &o), TX_INVALID_ARGUMENT, "string_tensor is NULL");
    tx_tensor_free(x);
    /* A hostile message: long and binary strings are escaped and cut. */
    char longs[200];
    memset(longs, 'z', sizeof longs);
    longs[5] = '\x01';
    x = str_scalar(longs, sizeof longs);
    tu_assert_error(tx_string_to_number(x, TX_INT32, &o), TX_INVALID_ARGUMENT, "zzzzz\\x01zzz");
    assert_non_null(strstr(tx_last_error(), "..."));
    tx_tensor_free(x);
}

/* ---- string_tensor_pack / unpack ---------------------------------------------------------- */

static tx_tensor *pack_ok(const tx_tensor *b, const tx_tensor *e, const tx_tensor *s) {
    tx_tensor *o = NULL;
    tx_status st = tx_string_tensor_pack(b, e, s, &o);
    if (st != TX_OK) fail_msg("pack: %s", tx_last_error());
    return o;
}

static void assert_strings(const tx_tensor *t, const char *const *want) {
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        const tx_string *s = tx_tensor_string(t, i);
        if (s->size != strlen(want[i]) || (s->size && memcmp(s->data, want[i], s->size) != 0))
            fail_msg("string %lld: got '%.*s', want '%s'", (long long)i, (int)s->size, s->data, want[i]);
    }
}

static void test_pack_page_examples(void **state) {
    (void)state;
    const char *sym1 = "IntelOpenVINO";
    tx_tensor *s = raw1(TX_UINT8, 13, sym1);
    tx_tensor *b = tu_i64(2, TU_DIMS(0, 5)), *e = tu_i64(2, TU_DIMS(5, 13)), *o = pack_ok(b, e, s);
    tu_assert_shape(o, TX_STRING, 1, TU_DIMS(2));
    assert_strings(o, (const char *[]){"Intel", "OpenVINO"});
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(s); /* the output keeps its own copy of the bytes */
    assert_strings(o, (const char *[]){"Intel", "OpenVINO"});
    tx_tensor_free(o);
    /* Example 2: an empty string */
    s = raw1(TX_UINT8, 13, "OMZGenAI 2024");
    b = tu_i64(5, TU_DIMS(0, 3, 3, 8, 9));
    e = tu_i64(5, TU_DIMS(3, 3, 8, 9, 13));
    o = pack_ok(b, e, s);
    assert_strings(o, (const char *[]){"OMZ", "", "GenAI", " ", "2024"});
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(s);
    /* Example 3: skipped symbols (the page's <dim>5</dim> for the output is a typo: 2 strings) */
    s = raw1(TX_UINT8, 9, "123456789");
    b = tu_i64(2, TU_DIMS(0, 8));
    e = tu_i64(2, TU_DIMS(1, 9));
    o = pack_ok(b, e, s);
    tu_assert_shape(o, TX_STRING, 1, TU_DIMS(2));
    assert_strings(o, (const char *[]){"1", "9"});
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(s);
    /* Example 4: 2-D begins and ends */
    s = raw1(TX_UINT8, 21, "IntelOpenVINOOMZGenAI");
    b = raw(TX_INT64, 2, TU_DIMS(2, 2), (const int64_t[]){0, 5, 13, 16});
    e = raw(TX_INT64, 2, TU_DIMS(2, 2), (const int64_t[]){5, 13, 16, 21});
    o = pack_ok(b, e, s);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(2, 2));
    assert_strings(o, (const char *[]){"Intel", "OpenVINO", "OMZ", "GenAI"});
    /* unpack gives the compact form, which packs back to the same tensor */
    tx_tensor *outs[3];
    assert_int_equal(tx_string_tensor_unpack(o, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_shape(outs[1], TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_shape(outs[2], TX_UINT8, 1, TU_DIMS(21));
    tu_assert_values(outs[0], TU_VALS(0, 5, 13, 16));
    tu_assert_values(outs[1], TU_VALS(5, 13, 16, 21));
    assert_memory_equal(tx_tensor_data_const(outs[2]), "IntelOpenVINOOMZGenAI", 21);
    tx_tensor *again = pack_ok(outs[0], outs[1], outs[2]);
    assert_strings(again, (const char *[]){"Intel", "OpenVINO", "OMZ", "GenAI"});
    tx_tensor_free(again);
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(s);
}

static void test_pack_edges(void **state) {
    (void)state;
    /* int32 indices, overlapping and repeated ranges, scalar output, empty symbols */
    tx_tensor *s = raw1(TX_UINT8, 5, "abcde");
    tx_tensor *b = tu_i32(4, (const int32_t[]){0, 1, 0, 5}), *e = tu_i32(4, (const int32_t[]){5, 3, 5, 5});
    tx_tensor *o = pack_ok(b, e, s);
    assert_strings(o, (const char *[]){"abcde", "bc", "abcde", ""});
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(e);
    const int64_t one_b = 2, one_e = 4;
    b = raw(TX_INT64, 0, NULL, &one_b);
    e = raw(TX_INT64, 0, NULL, &one_e);
    o = pack_ok(b, e, s);
    tu_assert_shape(o, TX_STRING, 0, NULL);
    assert_strings(o, (const char *[]){"cd"});
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(s);
    s = tu_tensor(TX_UINT8, 1, TU_DIMS(0), NULL);
    b = tu_i64(2, TU_DIMS(0, 0));
    e = tu_i64(2, TU_DIMS(0, 0));
    o = pack_ok(b, e, s);
    assert_strings(o, (const char *[]){"", ""});
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(e);
    b = tu_tensor(TX_INT64, 2, TU_DIMS(3, 0), NULL);
    e = tu_tensor(TX_INT64, 2, TU_DIMS(3, 0), NULL);
    o = pack_ok(b, e, s);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(3, 0));
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(s);
    /* unpack: binary bytes, empty strings, scalars, empty tensors */
    const char *v[3] = {"a\0b", "", "xyz"};
    const size_t len[3] = {3, 0, 3};
    tx_tensor *d = strs(1, TU_DIMS(3), v, len), *outs[3] = {NULL, NULL, NULL};
    assert_int_equal(tx_string_tensor_unpack(d, outs), TX_OK);
    tu_assert_values(outs[0], TU_VALS(0, 3, 3));
    tu_assert_values(outs[1], TU_VALS(3, 3, 6));
    assert_memory_equal(tx_tensor_data_const(outs[2]), "a\0bxyz", 6);
    o = pack_ok(outs[0], outs[1], outs[2]);
    assert_int_equal(tx_tensor_string(o, 0)->size, 3);
    assert_memory_equal(tx_tensor_string(o, 0)->data, "a\0b", 3);
    tx_tensor_free(o);
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(d);
    d = tu_strings(2, TU_DIMS(0, 2), NULL);
    assert_int_equal(tx_string_tensor_unpack(d, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(0, 2));
    tu_assert_shape(outs[2], TX_UINT8, 1, TU_DIMS(0));
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(d);
    d = str_scalar("hello", 5);
    assert_int_equal(tx_string_tensor_unpack(d, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 0, NULL);
    tu_assert_values(outs[1], TU_VALS(5));
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(d);
}

static void test_pack_errors(void **state) {
    (void)state;
    tx_tensor *s = raw1(TX_UINT8, 5, "abcde"), *o = NULL;
    struct {
        int64_t b[2], e[2];
        const char *msg;
    } cases[] = {
        {{0, -1}, {1, 2}, "begins[1] = -1 is negative"},
        {{3, 0}, {2, 1}, "ends[0] = 2 is less than begins[0] = 3"},
        {{0, 1}, {5, 6}, "ends[1] = 6 is past the end of symbols (5 bytes)"},
        {{0, INT64_MAX}, {1, INT64_MAX}, "past the end"},
        {{INT64_MIN, 0}, {0, 0}, "is negative"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tx_tensor *b = tu_i64(2, cases[i].b), *e = tu_i64(2, cases[i].e);
        tu_assert_error(tx_string_tensor_pack(b, e, s, &o), TX_INVALID_ARGUMENT, cases[i].msg);
        assert_null(o);
        tx_tensor_free(b);
        tx_tensor_free(e);
    }
    tx_tensor *b64 = tu_i64(2, TU_DIMS(0, 1)), *b32 = tu_i32(2, (const int32_t[]){1, 2});
    tx_tensor *e3 = tu_i64(3, TU_DIMS(1, 2, 3)), *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_string_tensor_pack(b64, b32, s, &o), TX_INVALID_ARGUMENT,
                    "begins and ends must both be int32 or both be int64, got int64 and int32");
    tu_assert_error(tx_string_tensor_pack(f, f, s, &o), TX_INVALID_ARGUMENT, "got float32 and float32");
    tu_assert_error(tx_string_tensor_pack(b64, e3, s, &o), TX_INVALID_ARGUMENT, "begins shape [2] and ends shape [3] differ");
    tu_assert_error(tx_string_tensor_pack(b64, b64, f, &o), TX_INVALID_ARGUMENT, "symbols must be a 1-D uint8 tensor, got float32");
    tx_tensor *s2 = tu_tensor(TX_UINT8, 2, TU_DIMS(1, 5), NULL);
    tu_assert_error(tx_string_tensor_pack(b64, b64, s2, &o), TX_INVALID_ARGUMENT, "of rank 2");
    tu_assert_error(tx_string_tensor_pack(NULL, b64, s, &o), TX_INVALID_ARGUMENT, "begins is NULL");
    tu_assert_error(tx_string_tensor_pack(b64, b64, NULL, &o), TX_INVALID_ARGUMENT, "symbols is NULL");
    tx_tensor *outs[3] = {b64, b64, b64};
    tu_assert_error(tx_string_tensor_unpack(f, outs), TX_INVALID_ARGUMENT, "data must be a string tensor, got float32");
    assert_null(outs[0]);
    assert_null(outs[2]);
    tu_assert_error(tx_string_tensor_unpack(NULL, outs), TX_INVALID_ARGUMENT, "data is NULL");
    tu_assert_error(tx_string_tensor_unpack(s, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
    tx_tensor_free(s2);
    tx_tensor_free(b64);
    tx_tensor_free(b32);
    tx_tensor_free(e3);
    tx_tensor_free(f);
    tx_tensor_free(s);
}

/* ---- hostile inputs: random bytes never crash, leak or read out of bounds (ASan) ------------ */

static void test_hostile_inputs(void **state) {
    (void)state;
    static const char alphabet[] = "0123456789.eE+-xXabcdefinINaAfF \t\n\v\r\0\x80\xff";
    const tx_dtype types[4] = {TX_FLOAT32, TX_FLOAT64, TX_INT32, TX_INT64};
    srand(777);
    for (int iter = 0; iter < 4000; iter++) {
        char buf[48];
        size_t len = (size_t)(rand() % 40);
        for (size_t i = 0; i < len; i++) buf[i] = alphabet[rand() % (int)(sizeof alphabet - 1)];
        tx_tensor *x = str_scalar(buf, len), *o = NULL;
        tx_status st = tx_string_to_number(x, types[iter % 4], &o);
        assert_true(st == TX_OK || st == TX_INVALID_ARGUMENT);
        assert_true((st == TX_OK) == (o != NULL));
        if (st == TX_OK && types[iter % 4] == TX_FLOAT64) {
            /* whatever parsed must also parse as float32, to the same value rounded */
            tx_tensor *o32 = NULL;
            assert_int_equal(tx_string_to_number(x, TX_FLOAT32, &o32), TX_OK);
            double d = *(const double *)tx_tensor_data(o);
            float f = *(const float *)tx_tensor_data(o32);
            assert_true((isnan(d) && isnan(f)) || (float)d == f || fabs((double)f - d) <= fabs(d) * 0x1p-23);
            tx_tensor_free(o32);
        }
        tx_tensor_free(o);
        /* decode_raw with random fixed lengths and byte orders */
        int64_t fl = (int64_t)(rand() % 20) - 4;
        tx_dtype dt = (tx_dtype)(rand() % 24);
        st = tx_decode_raw(x, dt, rand() & 1, (rand() & 1) ? &fl : NULL, &o);
        assert_true(st == TX_OK || st == TX_INVALID_ARGUMENT || st == TX_UNIMPLEMENTED);
        tx_tensor_free(o);
        tx_tensor_free(x);
        /* pack with random ranges over 6 symbols */
        int64_t b[3], e[3];
        for (int k = 0; k < 3; k++) b[k] = rand() % 10 - 2, e[k] = rand() % 10 - 2;
        static const char letters[] = "abcdef";
        tx_tensor *tb = tu_i64(3, b), *te = tu_i64(3, e), *ts = raw1(TX_UINT8, 6, letters);
        st = tx_string_tensor_pack(tb, te, ts, &o);
        bool valid = true;
        for (int k = 0; k < 3; k++) valid &= b[k] >= 0 && e[k] >= b[k] && e[k] <= 6;
        assert_int_equal(st, valid ? TX_OK : TX_INVALID_ARGUMENT);
        for (int k = 0; valid && k < 3; k++) {
            const tx_string *r = tx_tensor_string(o, k);
            assert_int_equal(r->size, (uint64_t)(e[k] - b[k]));
            if (r->size) assert_memory_equal(r->data, &letters[b[k]], r->size);
        }
        tx_tensor_free(o);
        tx_tensor_free(tb);
        tx_tensor_free(te);
        tx_tensor_free(ts);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_string_to_number_tf_vectors),
        cmocka_unit_test(test_string_to_number_rules),
        cmocka_unit_test(test_pack_page_examples),
        cmocka_unit_test(test_pack_edges),
        cmocka_unit_test(test_pack_errors),
        cmocka_unit_test(test_hostile_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
