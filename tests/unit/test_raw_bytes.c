/* SPDX-License-Identifier: Apache-2.0 */
/* test_raw_bytes.c -- decode_raw and encode_raw: decode_raw's page examples, every dtype, byte
 * order, fixed_length and records, encode_raw's bytes and the round trip between the two, and
 * every error with its status and message. */
#include "casting_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- decode_raw --------------------------------------------------------------------------- */

static tx_tensor *decode_ok(const tx_tensor *x, tx_dtype t, int le, const int64_t *fl) {
    tx_tensor *o = NULL;
    tx_status st = tx_decode_raw(x, t, le, fl, &o);
    if (st != TX_OK) fail_msg("decode_raw %s: %s", tx_dtype_name(t), tx_last_error());
    return o;
}

static void test_decode_raw_page_examples(void **state) {
    (void)state;
    tx_tensor *x = str_scalar("1", 1), *o = decode_ok(x, TX_UINT8, 1, NULL);
    tu_assert_shape(o, TX_UINT8, 1, TU_DIMS(1));
    tu_assert_values(o, TU_VALS(49));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = str_scalar("1,2", 3);
    o = decode_ok(x, TX_UINT8, 1, NULL);
    tu_assert_values(o, TU_VALS(49, 44, 50));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* rank is input rank + 1 */
    x = tu_strings(1, TU_DIMS(2), (const char *[]){"1", "2"});
    o = decode_ok(x, TX_UINT8, 1, NULL);
    tu_assert_shape(o, TX_UINT8, 2, TU_DIMS(2, 1));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = tu_strings(2, TU_DIMS(2, 1), (const char *[]){"1", "2"});
    o = decode_ok(x, TX_UINT8, 1, NULL);
    tu_assert_shape(o, TX_UINT8, 3, TU_DIMS(2, 1, 1));
    tu_assert_values(o, TU_VALS(49, 50));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = str_scalar("123", 3);
    o = decode_ok(x, TX_UINT8, 1, NULL);
    tu_assert_values(o, TU_VALS(49, 50, 51));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = str_scalar("1234", 4);
    o = decode_ok(x, TX_UINT8, 1, NULL);
    tu_assert_values(o, TU_VALS(49, 50, 51, 52));
    tx_tensor_free(o);
    o = decode_ok(x, TX_UINT16, 1, NULL); /* chunked output */
    tu_assert_shape(o, TX_UINT16, 1, TU_DIMS(2));
    tu_assert_values(o, TU_VALS(12849, 13363));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = str_scalar("12", 2);
    o = decode_ok(x, TX_UINT16, 1, NULL);
    tu_assert_values(o, TU_VALS(12849));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = str_scalar("12345678", 8);
    o = decode_ok(x, TX_INT64, 1, NULL);
    assert_true(*(const int64_t *)tx_tensor_data(o) == 4050765991979987505ll);
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = str_scalar("1234567887654321", 16);
    o = decode_ok(x, TX_INT64, 1, NULL);
    assert_true(((const int64_t *)tx_tensor_data(o))[0] == 4050765991979987505ll);
    assert_true(((const int64_t *)tx_tensor_data(o))[1] == 3544952156018063160ll);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* little_endian */
    x = str_scalar("\x0a\x0b", 2);
    o = decode_ok(x, TX_INT16, 1, NULL);
    tu_assert_values(o, TU_VALS(2826)); /* 0xb0a */
    tx_tensor_free(o);
    o = decode_ok(x, TX_INT16, 0, NULL);
    tu_assert_values(o, TU_VALS(2571)); /* 0xa0b */
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* fixed_length zero-pads ... */
    int64_t fl = 4;
    x = tu_strings(2, TU_DIMS(2, 1), (const char *[]){"1", "23"});
    o = decode_ok(x, TX_UINT8, 1, &fl);
    tu_assert_shape(o, TX_UINT8, 3, TU_DIMS(2, 1, 4));
    tu_assert_values(o, TU_VALS(49, 0, 0, 0, 50, 51, 0, 0));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* ... gives several values per element ... */
    x = tu_strings(1, TU_DIMS(1), (const char *[]){"1212"});
    o = decode_ok(x, TX_UINT16, 1, &fl);
    tu_assert_shape(o, TX_UINT16, 2, TU_DIMS(1, 2));
    tu_assert_values(o, TU_VALS(12849, 12849));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* ... truncates, before the endianness conversion */
    fl = 2;
    x = str_scalar("\x01\x02\x03\x04", 4);
    o = decode_ok(x, TX_UINT16, 1, &fl);
    tu_assert_shape(o, TX_UINT16, 1, TU_DIMS(1));
    tu_assert_values(o, TU_VALS(513));
    tx_tensor_free(o);
    o = decode_ok(x, TX_UINT16, 0, &fl);
    tu_assert_values(o, TU_VALS(258));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* equal lengths: fixed_length = the length changes nothing */
    x = tu_strings(1, TU_DIMS(2), (const char *[]){"12345678", "87654321"});
    o = decode_ok(x, TX_INT16, 1, NULL);
    tu_assert_shape(o, TX_INT16, 2, TU_DIMS(2, 4));
    tu_assert_values(o, TU_VALS(12849, 13363, 13877, 14391, 14136, 13622, 13108, 12594));
    fl = 8;
    tx_tensor *o2 = decode_ok(x, TX_INT16, 1, &fl);
    assert_memory_equal(tx_tensor_data(o), tx_tensor_data(o2), 16);
    tx_tensor_free(o2);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

static void test_decode_raw_types(void **state) {
    (void)state;
    /* float32 big-endian: 3f 80 00 00 is 1.0 */
    tx_tensor *x = str_scalar("\x3f\x80\x00\x00\xc0\x00\x00\x00", 8), *o = decode_ok(x, TX_FLOAT32, 0, NULL);
    tu_assert_values(o, TU_VALS(1.0, -2.0));
    tx_tensor_free(o);
    /* complex64 big-endian: each part is swapped on its own */
    o = decode_ok(x, TX_COMPLEX64, 0, NULL);
    tu_assert_shape(o, TX_COMPLEX64, 1, TU_DIMS(1));
    const float c[2] = {1.0f, -2.0f};
    assert_bytes(o, c, 8);
    tx_tensor_free(o);
    o = decode_ok(x, TX_FLOAT64, 1, NULL);
    tu_assert_shape(o, TX_FLOAT64, 1, TU_DIMS(1));
    tx_tensor_free(o);
    tx_tensor_free(x);
    const char be128[16] = {0x3f, (char)0xf0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0};
    x = str_scalar(be128, 16);
    o = decode_ok(x, TX_COMPLEX128, 0, NULL);
    const double cd[2] = {1.0, 2.0};
    assert_bytes(o, cd, 16);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* bool: each non-zero byte is true (stored as 1) */
    x = str_scalar("\x00\x01\x31\xff", 4);
    o = decode_ok(x, TX_BOOL, 1, NULL);
    const uint8_t b[4] = {0, 1, 1, 1};
    assert_bytes(o, b, 4);
    tx_tensor_free(o);
    /* float16, bfloat16, int8, int32 */
    o = decode_ok(x, TX_INT8, 0, NULL);
    tu_assert_values(o, TU_VALS(0, 1, 49, -1));
    tx_tensor_free(o);
    o = decode_ok(x, TX_INT32, 0, NULL);
    tu_assert_values(o, TU_VALS(0x000131ff));
    tx_tensor_free(o);
    o = decode_ok(x, TX_FLOAT16, 1, NULL);
    const uint16_t h[2] = {0x0100, 0xff31};
    assert_bytes(o, h, 4);
    tx_tensor_free(o);
    o = decode_ok(x, TX_BFLOAT16, 0, NULL);
    const uint16_t hb[2] = {0x0001, 0x31ff};
    assert_bytes(o, hb, 4);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

static void test_decode_raw_edges(void **state) {
    (void)state;
    /* empty tensor and empty strings: the new dim is 0 */
    tx_tensor *x = tu_strings(2, TU_DIMS(0, 3), NULL), *o;
    o = decode_ok(x, TX_FLOAT32, 1, NULL);
    tu_assert_shape(o, TX_FLOAT32, 3, TU_DIMS(0, 3, 0));
    tx_tensor_free(o);
    int64_t fl = 8;
    o = decode_ok(x, TX_INT32, 1, &fl);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(0, 3, 2));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = tu_strings(1, TU_DIMS(3), (const char *[]){"", "", ""});
    o = decode_ok(x, TX_INT64, 1, NULL);
    tu_assert_shape(o, TX_INT64, 2, TU_DIMS(3, 0));
    tx_tensor_free(o);
    o = decode_ok(x, TX_INT16, 0, &fl); /* all padding */
    tu_assert_shape(o, TX_INT16, 2, TU_DIMS(3, 4));
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* big-endian fixed_length with a short string: zero-padded first, then swapped (TF reads past
     * the string here; tensorx defines the padding as zeros) */
    fl = 6;
    x = tu_strings(1, TU_DIMS(2), (const char *[]){"\x01\x02\x03", "\x0a\x0b\x0c\x0d\x0e\x0f\x10"});
    o = decode_ok(x, TX_UINT16, 0, &fl);
    tu_assert_shape(o, TX_UINT16, 2, TU_DIMS(2, 3));
    tu_assert_values(o, TU_VALS(0x0102, 0x0300, 0, 0x0a0b, 0x0c0d, 0x0e0f));
    tx_tensor_free(o);
    o = decode_ok(x, TX_UINT16, 1, &fl);
    tu_assert_values(o, TU_VALS(0x0201, 0x0003, 0, 0x0b0a, 0x0d0c, 0x0f0e));
    tx_tensor_free(o);
    fl = 8;
    o = decode_ok(x, TX_INT64, 0, &fl);
    assert_true(((const int64_t *)tx_tensor_data(o))[0] == 0x0102030000000000ll);
    assert_true(((const int64_t *)tx_tensor_data(o))[1] == 0x0a0b0c0d0e0f1000ll);
    tx_tensor_free(o);
    fl = 1; /* truncation to a single byte */
    o = decode_ok(x, TX_UINT8, 0, &fl);
    tu_assert_values(o, TU_VALS(1, 10));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* strings with NUL bytes are bytes like any other */
    x = str_scalar("\0\0\x80\x3f", 4);
    o = decode_ok(x, TX_FLOAT32, 1, NULL);
    tu_assert_values(o, TU_VALS(1.0));
    tx_tensor_free(o);
    tx_tensor_free(x);
}

/* Many records, large enough for the threads and the streaming stores: rows packed one after
 * another in memory are copied as blocks, other rows one by one (a gather's reordered records
 * share the bytes; fixed_length shorter than the records breaks the adjacency). */
static void test_decode_raw_records(void **state) {
    (void)state;
    enum { R = 200000, L = 64 };
    unsigned char *buf = malloc((size_t)R * L);
    const char **ptrs = malloc(R * sizeof *ptrs);
    size_t *lens = malloc(R * sizeof *lens);
    int32_t *perm = malloc(R * sizeof *perm);
    assert_non_null(buf);
    assert_non_null(ptrs);
    assert_non_null(lens);
    assert_non_null(perm);
    for (size_t i = 0; i < (size_t)R * L; i++) buf[i] = (unsigned char)(i * 2654435761u >> 13);
    for (int64_t i = 0; i < R; i++) {
        ptrs[i] = (const char *)buf + i * L;
        lens[i] = L;
        perm[i] = (int32_t)i;
    }
    for (int64_t i = 0; i + 1 < R; i += 997) { /* runs of adjacent rows broken here and there */
        perm[i] = (int32_t)i + 1;
        perm[i + 1] = (int32_t)i;
    }
    const int64_t n = R;
    tx_tensor *x = NULL, *idx = NULL, *g = NULL;
    assert_int_equal(tx_tensor_new_strings(1, &n, ptrs, lens, &x), TX_OK);
    assert_int_equal(tx_tensor_from_data(TX_INT32, 1, &n, perm, R * sizeof *perm, &idx), TX_OK);
    assert_int_equal(tx_gather(x, idx, 0, 0, &g), TX_OK);
    const int64_t fls[] = {0, L, L - 4};
    for (int which = 0; which < 2; which++) {
        for (int le = 0; le < 2; le++) {
            for (size_t f = 0; f < sizeof fls / sizeof *fls; f++) {
                const int64_t row = fls[f] ? fls[f] : L;
                tx_tensor *o = decode_ok(which ? g : x, TX_INT32, le, fls[f] ? &fls[f] : NULL);
                tu_assert_shape(o, TX_INT32, 2, TU_DIMS(R, row / 4));
                const unsigned char *got = tx_tensor_data(o);
                for (int64_t r = 0; r < R; r++) {
                    const unsigned char *rec = buf + (int64_t)(which ? perm[r] : r) * L;
                    for (int64_t b = 0; b < row; b++) {
                        /* the data's order is the host's: bytes as they are; else reversed */
                        const int64_t from =
                            le == TX_HOST_LITTLE_ENDIAN ? b : (b & ~3) + 3 - (b & 3);
                        if (got[r * row + b] != rec[from]) fail_msg("row %lld byte %lld", (long long)r, (long long)b);
                    }
                }
                tx_tensor_free(o);
            }
        }
    }
    tx_tensor_free(g);
    tx_tensor_free(idx);
    tx_tensor_free(x);
    /* Sizes are checked a block at a time: a record of another size deep inside is still the one
     * the error names. */
    lens[150001] = L - 1;
    assert_int_equal(tx_tensor_new_strings(1, &n, ptrs, lens, &x), TX_OK);
    tx_tensor *o = NULL;
    tu_assert_error(tx_decode_raw(x, TX_INT32, 1, NULL, &o), TX_INVALID_ARGUMENT,
                    "but element 150001 has size 63 != 64");
    assert_null(o);
    tx_tensor_free(x);
    free(buf);
    free(ptrs);
    free(lens);
    free(perm);
}

static void test_decode_raw_errors(void **state) {
    (void)state;
    tx_tensor *x = tu_strings(1, TU_DIMS(3), (const char *[]){"12", "12", "123"}), *o = NULL;
    tu_assert_error(tx_decode_raw(x, TX_UINT8, 1, NULL, &o), TX_INVALID_ARGUMENT,
                    "requires input strings to all be the same size, but element 2 has size 3 != 2");
    int64_t fl = 3;
    tu_assert_error(tx_decode_raw(x, TX_UINT16, 1, &fl, &o), TX_INVALID_ARGUMENT,
                    "fixed_length (3) must be a multiple of the size of out_type (2)");
    fl = 0;
    tu_assert_error(tx_decode_raw(x, TX_UINT16, 1, &fl, &o), TX_INVALID_ARGUMENT,
                    "fixed_length (0) must be greater than zero");
    fl = -4;
    tu_assert_error(tx_decode_raw(x, TX_UINT16, 1, &fl, &o), TX_INVALID_ARGUMENT,
                    "fixed_length (-4) must be greater than zero");
    fl = -3;
    tu_assert_error(tx_decode_raw(x, TX_UINT16, 1, &fl, &o), TX_INVALID_ARGUMENT, "must be a multiple");
    fl = 8;
    tu_assert_error(tx_decode_raw(x, TX_COMPLEX64, 1, &fl, &o), TX_UNIMPLEMENTED,
                    "out_type complex64 is not supported with fixed_length");
    tu_assert_error(tx_decode_raw(x, TX_BOOL, 1, &fl, &o), TX_UNIMPLEMENTED, "bool is not supported with fixed_length");
    fl = INT64_MAX - 7;
    tu_assert_error(tx_decode_raw(x, TX_UINT8, 1, &fl, &o), TX_RESOURCE_EXHAUSTED, "decode_raw");
    tu_assert_error(tx_decode_raw(x, TX_QUINT16, 1, NULL, &o), TX_UNIMPLEMENTED,
                    "out_type quint16 is not supported (TF's DecodeRaw takes");
    tu_assert_error(tx_decode_raw(x, TX_STRING, 1, NULL, &o), TX_UNIMPLEMENTED, "out_type string");
    tu_assert_error(tx_decode_raw(x, TX_QINT8, 1, NULL, &o), TX_UNIMPLEMENTED, "qint8");
    tu_assert_error(tx_decode_raw(x, (tx_dtype)0, 1, NULL, &o), TX_INVALID_ARGUMENT, "out_type 0 is not a dtype");
    tu_assert_error(tx_decode_raw(NULL, TX_UINT8, 1, NULL, &o), TX_INVALID_ARGUMENT, "input_bytes is NULL");
    tx_tensor_free(x);
    x = str_scalar("123", 3);
    tu_assert_error(tx_decode_raw(x, TX_UINT16, 1, NULL, &o), TX_INVALID_ARGUMENT,
                    "Input to DecodeRaw has length 3 that is not a multiple of 2, the size of uint16");
    tx_tensor_free(x);
    x = tu_tensor(TX_UINT8, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_decode_raw(x, TX_UINT8, 1, NULL, &o), TX_INVALID_ARGUMENT,
                    "input_bytes must be a string tensor, got uint8");
    tx_tensor_free(x);
    assert_null(o);
}

/* uint32 / uint64: a tensorx extension (TF's op definitions lack them), with and without
 * fixed_length, in both byte orders. */
/* A tensorx extension: the 8-bit float types decode one byte an element in either byte order,
 * with and without fixed_length; the sub-byte types are refused (raw data holds them packed). */
static void test_decode_raw_float8(void **state) {
    (void)state;
    tx_tensor *x = str_scalar("\x38\x40\x80", 3);
    const tx_dtype f8[] = {TX_FLOAT8_E5M2, TX_FLOAT8_E4M3FN, TX_FLOAT8_E4M3FNUZ,
                           TX_FLOAT8_E4M3B11FNUZ, TX_FLOAT8_E5M2FNUZ, TX_FLOAT8_E8M0FNU};
    for (size_t k = 0; k < sizeof f8 / sizeof f8[0]; k++)
        for (int le = 0; le < 2; le++) {
            tx_tensor *o = decode_ok(x, f8[k], le, NULL);
            tu_assert_shape(o, f8[k], 1, TU_DIMS(3));
            assert_bytes(o, "\x38\x40\x80", 3);
            tx_tensor_free(o);
            int64_t fl = 4;
            o = decode_ok(x, f8[k], le, &fl);
            assert_bytes(o, "\x38\x40\x80\x00", 4);
            tx_tensor_free(o);
        }
    const tx_dtype sub[] = {TX_INT4, TX_UINT4, TX_INT2, TX_UINT2, TX_FLOAT4_E2M1FN,
                            TX_FLOAT6_E2M3FN, TX_FLOAT6_E3M2FN};
    for (size_t k = 0; k < sizeof sub / sizeof sub[0]; k++) {
        tx_tensor *o = NULL;
        tu_assert_error(tx_decode_raw(x, sub[k], 1, NULL, &o), TX_UNIMPLEMENTED,
                        "sub-byte types are decoded as uint8 and unpacked");
    }
    tx_tensor_free(x);
}

static void test_decode_raw_uint32_uint64(void **state) {
    (void)state;
    tx_tensor *x = str_scalar("\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    tx_tensor *o = decode_ok(x, TX_UINT32, 1, NULL);
    tu_assert_shape(o, TX_UINT32, 1, TU_DIMS(2));
    const uint32_t w32le[2] = {0x04030201u, 0x08070605u};
    assert_bytes(o, w32le, 8);
    tx_tensor_free(o);
    o = decode_ok(x, TX_UINT32, 0, NULL);
    const uint32_t w32be[2] = {0x01020304u, 0x05060708u};
    assert_bytes(o, w32be, 8);
    tx_tensor_free(o);
    o = decode_ok(x, TX_UINT64, 0, NULL);
    const uint64_t w64be = 0x0102030405060708u;
    assert_bytes(o, &w64be, 8);
    tx_tensor_free(o);
    int64_t fl = 16;
    o = decode_ok(x, TX_UINT64, 1, &fl);
    const uint64_t w64pad[2] = {0x0807060504030201u, 0};
    assert_bytes(o, w64pad, 16);
    tx_tensor_free(o);
    fl = 4;
    o = decode_ok(x, TX_UINT32, 0, &fl);
    assert_bytes(o, w32be, 4);
    tx_tensor_free(o);
    fl = 6;
    tu_assert_error(tx_decode_raw(x, TX_UINT32, 1, &fl, &o), TX_INVALID_ARGUMENT,
                    "fixed_length (6) must be a multiple of the size of out_type (4)");
    tx_tensor_free(x);
    x = str_scalar("\xff\xff\xff\xff", 4);
    tu_assert_error(tx_decode_raw(x, TX_UINT64, 1, NULL, &o), TX_INVALID_ARGUMENT,
                    "length 4 that is not a multiple of 8, the size of uint64");
    tx_tensor_free(x);
}

/* ---- encode_raw ----------------------------------------------------------------------------- */

static tx_tensor *encode_ok(const tx_tensor *x, int le) {
    tx_tensor *o = NULL;
    tx_status st = tx_encode_raw(x, le, &o);
    if (st != TX_OK) fail_msg("encode_raw %s: %s", tx_dtype_name(tx_tensor_dtype(x)), tx_last_error());
    return o;
}

static void assert_str(const tx_tensor *t, int64_t i, const void *want, size_t n) {
    const tx_string *r = tx_tensor_string(t, i);
    assert_non_null(r);
    assert_int_equal(r->size, n);
    if (n) assert_memory_equal(r->data, want, n);
}

static void test_encode_raw_bytes(void **state) {
    (void)state;
    const int32_t v[4] = {0x01020304, -1, 0, 0x7f000080};
    tx_tensor *x = raw(TX_INT32, 2, TU_DIMS(2, 2), v), *o = encode_ok(x, 0);
    tu_assert_shape(o, TX_STRING, 1, TU_DIMS(2));
    assert_str(o, 0, "\x01\x02\x03\x04\xff\xff\xff\xff", 8);
    assert_str(o, 1, "\x00\x00\x00\x00\x7f\x00\x00\x80", 8);
    tx_tensor_free(o);
    o = encode_ok(x, 1);
    assert_str(o, 0, "\x04\x03\x02\x01\xff\xff\xff\xff", 8);
    /* the strings are consecutive in one buffer, in row-major order */
    assert_ptr_equal(tx_tensor_string(o, 1)->data, tx_tensor_string(o, 0)->data + 8);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* complex: each part reversed on its own; a 1-D input gives a scalar string */
    const float c[2] = {1.0f, -2.0f};
    x = raw(TX_COMPLEX64, 1, TU_DIMS(1), c);
    o = encode_ok(x, 0);
    tu_assert_shape(o, TX_STRING, 0, NULL);
    assert_str(o, 0, "\x3f\x80\x00\x00\xc0\x00\x00\x00", 8);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* bool: one byte each, 0 or 1 even if the storage holds another byte */
    const uint8_t b[3] = {0, 1, 7};
    x = raw(TX_BOOL, 1, TU_DIMS(3), b);
    o = encode_ok(x, 0);
    assert_str(o, 0, "\x00\x01\x01", 3);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* float16 / bfloat16 swap as 2-byte units; qint32 as its int32 storage */
    const uint16_t h[2] = {0x3c00, 0xc000};
    x = raw(TX_FLOAT16, 1, TU_DIMS(2), h);
    o = encode_ok(x, 0);
    assert_str(o, 0, "\x3c\x00\xc0\x00", 4);
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = raw(TX_QINT32, 1, TU_DIMS(1), v);
    o = encode_ok(x, 0);
    assert_str(o, 0, "\x01\x02\x03\x04", 4);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* empty rows and empty tensors */
    x = tu_tensor(TX_FLOAT32, 2, TU_DIMS(3, 0), NULL);
    o = encode_ok(x, 1);
    tu_assert_shape(o, TX_STRING, 1, TU_DIMS(3));
    for (int64_t i = 0; i < 3; i++) assert_str(o, i, "", 0);
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = tu_tensor(TX_FLOAT64, 3, TU_DIMS(0, 2, 5), NULL);
    o = encode_ok(x, 0);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(0, 2));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* the output owns its bytes: it survives the input */
    const int16_t s[2] = {0x4142, 0x4344};
    x = raw(TX_INT16, 1, TU_DIMS(2), s);
    o = encode_ok(x, 0);
    tx_tensor_free(x);
    assert_str(o, 0, "ABCD", 4);
    tx_tensor_free(o);
}

static void test_encode_raw_errors(void **state) {
    (void)state;
    tx_tensor *o = (tx_tensor *)1;
    tu_assert_error(tx_encode_raw(NULL, 1, &o), TX_INVALID_ARGUMENT, "encode_raw: x is NULL");
    assert_null(o);
    tx_tensor *x = tu_strings(1, TU_DIMS(1), (const char *[]){"ab"});
    tu_assert_error(tx_encode_raw(x, 1, &o), TX_INVALID_ARGUMENT,
                    "encode_raw: x must be a numeric or bool tensor, got string");
    tx_tensor_free(x);
    const int32_t v = 5;
    x = raw(TX_INT32, 0, NULL, &v);
    tu_assert_error(tx_encode_raw(x, 1, &o), TX_INVALID_ARGUMENT, "x must have rank >= 1");
    tu_assert_error(tx_encode_raw(x, 1, NULL), TX_INVALID_ARGUMENT, "encode_raw: out is NULL");
    tx_tensor_free(x);
}

/* decode_raw(encode_raw(x)) == x, bit for bit, for every dtype decode_raw takes, both byte
 * orders, with random bytes (NaN payloads, subnormals, negative zeros); the dtypes decode_raw
 * does not take (quantized, float8) are checked against the bytes reversed by hand. */
static void test_encode_decode_round_trip(void **state) {
    (void)state;
    srand(1234);
    for (int dt = 1; dt < 32; dt++) {
        size_t size = tx_dtype_size((tx_dtype)dt);
        if (size == 0 || dt == TX_STRING) continue;
        for (int shape = 0; shape < 3; shape++) {
            const int64_t dims[3][3] = {{2, 3, 5}, {1, 1, 1}, {4, 1, 0}};
            size_t rank = shape == 1 ? 1 : 3;
            const int64_t *d = dims[shape];
            int64_t n = 1;
            for (size_t i = 0; i < rank; i++) n *= d[i];
            unsigned char *bytes = malloc((size_t)n * size + 1);
            /* Bytes every dtype keeps as they are (tensor constructors normalise the others of
             * bool and the sub-byte types). */
            for (size_t i = 0; i < (size_t)n * size; i++)
                bytes[i] = tu_canonical_byte((tx_dtype)dt, (unsigned char)rand());
            tx_tensor *x = raw((tx_dtype)dt, rank, d, bytes);
            for (int le = 0; le < 2; le++) {
                tx_tensor *e = encode_ok(x, le);
                tu_assert_shape(e, TX_STRING, rank - 1, d);
                size_t rowb = (size_t)d[rank - 1] * size;
                for (int64_t i = 0; i < tx_tensor_numel(e); i++)
                    assert_int_equal(tx_tensor_string(e, i)->size, rowb);
                tx_tensor *back = NULL;
                tx_status st = tx_decode_raw(e, (tx_dtype)dt, le, NULL, &back);
                if (tx_dtype_kind_of((tx_dtype)dt) == TX_KIND_QUANTIZED) assert_int_equal(st, TX_UNIMPLEMENTED);
                if (st == TX_UNIMPLEMENTED) { /* quantized, float8: not decode_raw's */
                    size_t part = size;
                    bool swap = part > 1 && (le != 0) != (TX_HOST_LITTLE_ENDIAN != 0);
                    for (int64_t i = 0; i < tx_tensor_numel(e); i++) {
                        const unsigned char *got = (const unsigned char *)tx_tensor_string(e, i)->data;
                        for (size_t k = 0; k < rowb; k++) {
                            size_t src = swap ? (k / part) * part + (part - 1 - k % part) : k;
                            assert_int_equal(got[k], bytes[(size_t)i * rowb + src]);
                        }
                    }
                } else {
                    if (st != TX_OK) fail_msg("decode_raw %s: %s", tx_dtype_name((tx_dtype)dt), tx_last_error());
                    assert_int_equal(tx_tensor_rank(back), rank);
                    assert_memory_equal(tx_tensor_dims(back), d, rank * sizeof *d);
                    assert_bytes(back, bytes, (size_t)n * size);
                    tx_tensor_free(back);
                }
                tx_tensor_free(e);
            }
            tx_tensor_free(x);
            free(bytes);
        }
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_raw_page_examples),
        cmocka_unit_test(test_decode_raw_types),
        cmocka_unit_test(test_decode_raw_edges),
        cmocka_unit_test(test_decode_raw_records),
        cmocka_unit_test(test_decode_raw_errors),
        cmocka_unit_test(test_decode_raw_uint32_uint64),
        cmocka_unit_test(test_decode_raw_float8),
        cmocka_unit_test(test_encode_raw_bytes),
        cmocka_unit_test(test_encode_raw_errors),
        cmocka_unit_test(test_encode_decode_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
