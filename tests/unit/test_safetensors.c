/* SPDX-License-Identifier: Apache-2.0 */
/* test_safetensors.c -- safetensors files (src/io/safetensors*.c, src/io/json.c): every dtype
 * round-trips through the writer and the reader; tensors are views of the mapped file (no copy)
 * that outlive it; every truncation, lying header lengths, overlapping, gapped and unsorted
 * ranges, shape/size mismatches, huge dims, bad JSON and duplicate names are refused with a
 * message naming the rule; saves replace a file whole or not at all; every allocation failing in
 * turn gives resource_exhausted and no leak.  (The bytes the safetensors package writes and reads
 * are checked against the package itself: tests/oracle/test_safetensors.py.) */
#define _GNU_SOURCE 1 /* memmem */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *path_in_dir(const char *name) {
    static char p[128];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/tx_safetensors_XXXXXX");
        assert_non_null(mkdtemp(dir));
    }
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

/* Every dtype safetensors has, with its name there. */
static const struct {
    tx_dtype dtype;
    const char *name;
} DTYPES[] = {
    {TX_BOOL, "BOOL"}, {TX_UINT8, "U8"}, {TX_INT8, "I8"}, {TX_UINT16, "U16"}, {TX_INT16, "I16"},
    {TX_UINT32, "U32"}, {TX_INT32, "I32"}, {TX_UINT64, "U64"}, {TX_INT64, "I64"},
    {TX_FLOAT16, "F16"}, {TX_BFLOAT16, "BF16"}, {TX_FLOAT32, "F32"}, {TX_FLOAT64, "F64"},
    {TX_COMPLEX64, "C64"}, {TX_FLOAT8_E5M2, "F8_E5M2"}, {TX_FLOAT8_E4M3FN, "F8_E4M3"},
    {TX_FLOAT8_E8M0FNU, "F8_E8M0"}, {TX_FLOAT8_E4M3FNUZ, "F8_E4M3FNUZ"},
    {TX_FLOAT8_E5M2FNUZ, "F8_E5M2FNUZ"}, {TX_FLOAT6_E2M3FN, "F6_E2M3"},
    {TX_FLOAT6_E3M2FN, "F6_E3M2"}, {TX_FLOAT4_E2M1FN, "F4"},
};
#define NDTYPES (sizeof DTYPES / sizeof DTYPES[0])

/* A tensor of dtype and dims with pseudo-random elements as tensorx holds them. */
static tx_tensor *random_tensor(tx_dtype dt, size_t rank, const int64_t *dims, unsigned seed) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    size_t bytes = (size_t)n * tx_dtype_size(dt);
    unsigned char *b = malloc(bytes ? bytes : 1);
    for (size_t i = 0; i < bytes; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = tu_canonical_byte(dt, (unsigned char)(seed >> 16));
    }
    tx_tensor *t;
    assert_int_equal(tx_tensor_from_data(dt, rank, dims, b, bytes, &t), TX_OK);
    free(b);
    return t;
}

static void assert_same_tensor(const tx_tensor *a, const tx_tensor *b) {
    tu_assert_shape(b, tx_tensor_dtype(a), tx_tensor_rank(a), tx_tensor_dims(a));
    assert_memory_equal(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
}

/* Saves names/tensors into a buffer (free with tx_buffer_free). */
static void save(size_t n, const char *const *names, tx_tensor *const *ts, size_t nmeta,
                 const char *const *meta, void **buf, size_t *size) {
    assert_int_equal(tx_safetensors_save_buffer(n, names, (const tx_tensor *const *)ts, nmeta, meta,
                                                 buf, size), TX_OK);
}

static void test_every_dtype_round_trip(void **state) {
    (void)state;
    tx_tensor *ts[NDTYPES];
    const char *names[NDTYPES];
    char namebuf[NDTYPES][16];
    for (size_t i = 0; i < NDTYPES; i++) {
        snprintf(namebuf[i], sizeof namebuf[i], "t%zu", i);
        names[i] = namebuf[i];
        ts[i] = random_tensor(DTYPES[i].dtype, 2, TU_DIMS(3, 4), (unsigned)i + 1);
    }
    const char *meta[] = {"format", "pt", "note", "line\nbreak \"quoted\" \xc3\xa9"};
    void *buf;
    size_t size;
    save(NDTYPES, names, ts, 2, meta, &buf, &size);
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--) n = n << 8 | ((unsigned char *)buf)[i];
    assert_int_equal(n % 8, 0); /* the header is padded to a multiple of 8 */
    for (size_t i = 0; i < NDTYPES; i++) {
        char want[32];
        snprintf(want, sizeof want, "\"dtype\":\"%s\"", DTYPES[i].name);
        assert_non_null(memmem((char *)buf + 8, (size_t)n, want, strlen(want)));
    }
    tx_safetensors *f;
    assert_int_equal(tx_safetensors_open_buffer(buf, size, &f), TX_OK);
    tx_buffer_free(buf, size);
    assert_int_equal(tx_safetensors_count(f), NDTYPES);
    assert_null(tx_safetensors_name(f, NDTYPES));
    assert_int_equal(tx_safetensors_metadata_count(f), 2);
    assert_string_equal(tx_safetensors_metadata_key(f, 1), "note");
    assert_string_equal(tx_safetensors_metadata_value(f, 1), meta[3]);
    assert_null(tx_safetensors_metadata_key(f, 2));
    for (size_t i = 0; i < NDTYPES; i++) {
        tx_tensor *t;
        assert_int_equal(tx_safetensors_get(f, names[i], &t), TX_OK);
        assert_same_tensor(ts[i], t);
        assert_int_equal(tx_tensor_is_writable(t), 0);
        tx_tensor_free(t);
        tx_tensor_free(ts[i]);
    }
    tx_tensor *t = (tx_tensor *)1;
    tu_assert_error(tx_safetensors_get(f, "nope", &t), TX_INVALID_ARGUMENT,
                    "name \"nope\" is not a tensor of the file");
    assert_null(t);
    tx_safetensors_close(f);
    tx_safetensors_close(NULL);
}

static void test_dtypes_without_safetensors_name(void **state) {
    (void)state;
    const tx_dtype none[] = {TX_COMPLEX128, TX_INT4, TX_UINT4, TX_INT2, TX_UINT2,
                             TX_FLOAT8_E4M3B11FNUZ, TX_QINT8, TX_STRING};
    for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
        tx_tensor *t = none[i] == TX_STRING ? tu_strings(1, TU_DIMS(1), (const char *[]){"x"})
                                            : random_tensor(none[i], 1, TU_DIMS(2), 1);
        void *buf = (void *)1;
        size_t size = 1;
        const char *name = "x";
        tu_assert_error(tx_safetensors_save_buffer(1, &name, (const tx_tensor *const *)&t, 0, NULL,
                                                   &buf, &size),
                        TX_UNIMPLEMENTED, "which safetensors has no dtype for");
        assert_null(buf);
        assert_int_equal(size, 0);
        tx_tensor_free(t);
    }
}

/* A file in memory from a header text and data bytes. */
static size_t make_file(char *out, const char *header, const void *data, size_t ndata) {
    uint64_t n = strlen(header);
    for (int i = 0; i < 8; i++) out[i] = (char)(n >> (8 * i));
    memcpy(out + 8, header, (size_t)n);
    memcpy(out + 8 + n, data, ndata);
    return 8 + (size_t)n + ndata;
}

static void expect_refused(const char *header, const void *data, size_t ndata, const char *why) {
    char file[4096];
    size_t size = make_file(file, header, data, ndata);
    tx_safetensors *f = (tx_safetensors *)1;
    tu_assert_error(tx_safetensors_open_buffer(file, size, &f), TX_INVALID_ARGUMENT, why);
    assert_null(f);
}

static void expect_opens(const char *header, const void *data, size_t ndata) {
    char file[4096];
    size_t size = make_file(file, header, data, ndata);
    tx_safetensors *f = NULL;
    tx_status st = tx_safetensors_open_buffer(file, size, &f);
    if (st != TX_OK) fail_msg("%s: %s", header, tx_last_error());
    tx_safetensors_close(f);
}

#define E(n, b, e) "{\"dtype\":\"U8\",\"shape\":[" #n "],\"data_offsets\":[" #b "," #e "]}"

static void test_ranges(void **state) {
    (void)state;
    expect_opens("{\"a\":" E(2, 0, 2) ",\"b\":" E(1, 2, 3) "}", "abc", 3);
    expect_opens("{\"b\":" E(1, 2, 3) ",\"a\":" E(2, 0, 2) "}", "abc", 3); /* unsorted JSON */
    expect_opens("{\"z\":" E(0, 0, 0) ",\"a\":" E(2, 0, 2) ",\"y\":" E(0, 2, 2) "}", "ab", 2);
    expect_refused("{\"a\":" E(2, 0, 2) ",\"b\":" E(2, 1, 3) "}", "abc", 3,
                   "tensor \"b\": data_offsets [1, 3] overlap");
    expect_refused("{\"a\":" E(1, 0, 1) ",\"b\":" E(1, 2, 3) "}", "abc", 3,
                   "tensor \"b\": data_offsets [2, 3] leave a gap");
    expect_refused("{\"a\":" E(2, 1, 3) "}", "abc", 3, "leave a gap");
    expect_refused("{\"a\":" E(0, 3, 0) "}", "abc", 3, "data_offsets [3, 0]");
    expect_refused("{\"a\":" E(2, 0, 2) ",\"b\":" E(0, 2, 1) "}", "ab", 2,
                   "end before they begin");
    expect_refused("{\"a\":" E(2, 0, 3) "}", "abc", 3,
                   "data_offsets [0, 3] hold 3 bytes, but its U8 shape needs 2");
    expect_refused("{\"a\":" E(3, 0, 3) "}", "ab", 2, "the tensors end at byte 3 of the data, but "
                   "the file holds 2 bytes after the header");
    expect_refused("{\"a\":" E(3, 0, 3) "}", "abcd", 4, "the data must end where the file does");
    expect_refused("{\"a\":" E(1, 0, 18446744073709551615) "}", "a", 1,
                   "hold 18446744073709551615 bytes, but its U8 shape needs 1");
    /* Huge dims: the product overflows, or one dim passes int64. */
    expect_refused("{\"a\":{\"dtype\":\"U8\",\"shape\":[4294967296,4294967296,4294967296],"
                   "\"data_offsets\":[0,0]}}", "", 0, "element count overflows 64 bits");
    expect_refused("{\"a\":{\"dtype\":\"F64\",\"shape\":[2147483648,4294967296],"
                   "\"data_offsets\":[0,0]}}", "", 0, "overflow 64 bits");
    expect_refused("{\"a\":{\"dtype\":\"U8\",\"shape\":[9223372036854775808],"
                   "\"data_offsets\":[0,0]}}", "", 0, "shape[0] is 9223372036854775808");
    expect_refused("{\"a\":{\"dtype\":\"U8\",\"shape\":[18446744073709551616],"
                   "\"data_offsets\":[0,0]}}", "", 0, "not an integer in [0, 2^63)");
    expect_opens("{\"a\":{\"dtype\":\"F32\",\"shape\":[0,9223372036854775807],"
                 "\"data_offsets\":[0,0]}}", "", 0);
    char rank[2048] = "{\"a\":{\"dtype\":\"U8\",\"data_offsets\":[0,1],\"shape\":[1";
    for (int i = 1; i <= TX_MAX_RANK; i++) strcat(rank, ",1");
    strcat(rank, "]}}");
    expect_refused(rank, "a", 1, "shape has 255 dims, more than TX_MAX_RANK (254)");
    /* F4 / F6 must fill whole bytes. */
    expect_refused("{\"a\":{\"dtype\":\"F4\",\"shape\":[3],\"data_offsets\":[0,2]}}", "ab", 2,
                   "3 elements of F4 (4 bits) do not fill whole bytes");
    expect_refused("{\"a\":{\"dtype\":\"F6_E3M2\",\"shape\":[2],\"data_offsets\":[0,2]}}", "ab",
                   2, "do not fill whole bytes");
}

static void test_lying_header_length(void **state) {
    (void)state;
    char file[256];
    size_t size = make_file(file, "{\"a\":" E(2, 0, 2) "}", "ab", 2);
    const uint64_t n = size - 10;
    const struct {
        uint64_t len;
        const char *why;
    } lies[] = {
        {0, "a value is missing at byte 0"},
        {n - 1, "expected ',' or '}'"},
        {n + 1, "trailing characters"},
        {n + 3, "passes the end of the file"},
        {100000001, "exceeds the format's limit of 100000000 bytes"},
        {(uint64_t)1 << 63, "exceeds the format's limit"},
        {UINT64_MAX, "exceeds the format's limit"},
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        for (int k = 0; k < 8; k++) file[k] = (char)(lies[i].len >> (8 * k));
        tx_safetensors *f = (tx_safetensors *)1;
        tu_assert_error(tx_safetensors_open_buffer(file, size, &f), TX_INVALID_ARGUMENT,
                        lies[i].why);
        assert_null(f);
    }
}

/* Every prefix of a valid file is refused (and none reads past it: ASan builds check). */
static void test_truncated_at_every_byte(void **state) {
    (void)state;
    tx_tensor *ts[3] = {random_tensor(TX_FLOAT32, 2, TU_DIMS(2, 3), 1),
                        random_tensor(TX_FLOAT4_E2M1FN, 1, TU_DIMS(6), 2),
                        random_tensor(TX_BOOL, 0, NULL, 3)};
    const char *names[3] = {"w", "f4", "b"}, *meta[2] = {"k", "v\\\"\xe2\x82\xac"};
    void *buf;
    size_t size;
    save(3, names, ts, 1, meta, &buf, &size);
    for (size_t cut = 0; cut < size; cut++) {
        char *copy = malloc(cut ? cut : 1); /* exactly cut bytes, for ASan */
        memcpy(copy, buf, cut);
        tx_safetensors *f = (tx_safetensors *)1;
        assert_int_equal(tx_safetensors_open_buffer(copy, cut, &f), TX_INVALID_ARGUMENT);
        assert_null(f);
        free(copy);
    }
    tx_safetensors *f;
    assert_int_equal(tx_safetensors_open_buffer(buf, size, &f), TX_OK);
    tx_safetensors_close(f);
    tx_buffer_free(buf, size);
    for (int i = 0; i < 3; i++) tx_tensor_free(ts[i]);
}

/* A valid header whose entry "y" has a member nested `arrays` arrays deep. */
static void deep_header(char *out, int arrays) {
    int n = sprintf(out, "{\"y\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[0,0],\"z\":");
    for (int i = 0; i < arrays; i++) out[n++] = '[';
    for (int i = 0; i < arrays; i++) out[n++] = ']';
    strcpy(out + n, "}}");
}

static void test_bad_json(void **state) {
    (void)state;
    const struct {
        const char *header, *why;
    } bad[] = {
        {"", "a value is missing"},
        {"[]", "the header must be a JSON object"},
        {"{\"a\":" E(1, 0, 1) ",}", "a trailing comma"},
        {"{\"a\":" E(1, 0, 1), "expected ',' or '}'"},
        {"{\"a\":" E(1, 0, 1) "}\n x", "trailing characters"},
        {"{a:1}", "must start with a string key"},
        {"{\"a\" " E(1, 0, 1) "}", "must be followed by ':'"},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[01],\"data_offsets\":[0,1]}}", "leading zero"},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1.0],\"data_offsets\":[0,1]}}", "shape[0] is 1.0"},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[-0],\"data_offsets\":[0,0]}}", "shape[0] is -0"},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1.],\"data_offsets\":[0,1]}}", "digit after '.'"},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1e],\"data_offsets\":[0,1]}}", "in its exponent"},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1,1]}}", "two integers"},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":1,\"data_offsets\":[0,1]}}", "shape must be an array"},
        {"{\"a\":{\"dtype\":\"I4\",\"shape\":[1],\"data_offsets\":[0,1]}}", "dtype \"I4\""},
        {"{\"a\":{\"dtype\":3,\"shape\":[1],\"data_offsets\":[0,1]}}", "dtype 3 is not"},
        {"{\"a\":{\"shape\":[1],\"data_offsets\":[0,1]}}", "tensor \"a\" has no dtype"},
        {"{\"a\":{\"dtype\":\"U8\",\"data_offsets\":[0,1]}}", "has no shape"},
        {"{\"a\":{\"dtype\":\"U8\",\"shape\":[1]}}", "has no data_offsets"},
        {"{\"a\":[\"U8\",[1],[0,1]]}", "must be an object with dtype"},
        {"{\"a\\ud800\":" E(1, 0, 1) "}", "not followed by a \\u low surrogate"},
        {"{\"a\\udc00\":" E(1, 0, 1) "}", "lone low surrogate"},
        {"{\"a\\u12\":" E(1, 0, 1) "}", "\\u needs 4 hex digits"},
        {"{\"a\\x\":" E(1, 0, 1) "}", "an unknown escape"},
        {"{\"a\x01\":" E(1, 0, 1) "}", "control character in a string must be escaped"},
        {"{\"a\xff\":" E(1, 0, 1) "}", "invalid UTF-8 at byte 3"},
        {"{\"a\xc0\xaf\":" E(1, 0, 1) "}", "invalid UTF-8"},
        {"{\"a\xed\xa0\x80\":" E(1, 0, 1) "}", "invalid UTF-8"},
        {"{\"a\\u0000\":" E(1, 0, 1) "}", "holds a NUL character"},
        {"{\"a\":" E(1, 0, 1) ",\"a\":" E(1, 0, 1) "}", "tensor \"a\" appears twice"},
        {"{\"a\":{\"dtype\":\"U8\",\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]}}",
         "has dtype twice"},
        {"{\"__metadata__\":{},\"__metadata__\":{}}", "__metadata__ appears twice"},
        {"{\"__metadata__\":{\"k\":\"1\",\"k\":\"2\"}}", "__metadata__ key \"k\" appears twice"},
        {"{\"__metadata__\":{\"k\":1}}", "__metadata__ value of \"k\" is not a string"},
        {"{\"__metadata__\":[]}", "__metadata__ must be an object of strings"},
        {"{\"a\":tru}", "expected a value"},
        {"{\"a\":\"x}", "a string is not closed"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        expect_refused(bad[i].header, "a", strstr(bad[i].header, "[0,1]") ? 1 : 0, bad[i].why);
    /* Nesting: 128 levels are JSON the crate reads (here an unknown member, ignored); 129 not. */
    char deep[600];
    deep_header(deep, 126); /* the root, y's entry and 126 arrays */
    expect_opens(deep, "", 0);
    deep_header(deep, 127);
    expect_refused(deep, "", 0, "nesting deeper than 128");
    /* Accepted as the crate accepts them: whitespace, padding, unknown members, null metadata,
     * escapes (decoded), an empty file. */
    expect_opens(" \t\r\n{\"a\" : {\"x\":[{\"y\":null}],\"dtype\":\"U8\",\"shape\":[1],"
                 "\"data_offsets\":[0,1]}}   ", "a", 1);
    expect_opens("{\"__metadata__\":null,\"a\":" E(1, 0, 1) "}", "a", 1);
    expect_opens("{}", "", 0);
    char file[256];
    size_t size = make_file(file, "{\"\\u00e9\\ud83d\\ude00\\n\\/\":" E(1, 0, 1) "}", "a", 1);
    tx_safetensors *f;
    assert_int_equal(tx_safetensors_open_buffer(file, size, &f), TX_OK);
    assert_string_equal(tx_safetensors_name(f, 0), "\xc3\xa9\xf0\x9f\x98\x80\n/");
    tx_safetensors_close(f);
}

static void test_views_of_the_mapped_file(void **state) {
    (void)state;
    tx_tensor *ts[3] = {random_tensor(TX_FLOAT64, 2, TU_DIMS(64, 64), 7),
                        random_tensor(TX_INT16, 1, TU_DIMS(5), 8),
                        random_tensor(TX_BOOL, 1, TU_DIMS(3), 9)};
    const char *names[3] = {"big", "small", "flags"};
    const char *path = path_in_dir("views.safetensors");
    assert_int_equal(tx_safetensors_save(path, 3, names, (const tx_tensor *const *)ts, 0, NULL),
                     TX_OK);
    tx_safetensors *f;
    assert_int_equal(tx_safetensors_open(path, &f), TX_OK);
    tx_tensor *a, *b, *c;
    assert_int_equal(tx_safetensors_get(f, "big", &a), TX_OK);
    assert_int_equal(tx_safetensors_get(f, "big", &b), TX_OK);
    /* The file's bytes, twice; a big-endian host gets byte-swapped copies of multi-byte types
     * (1-byte ones stay views: flags below). */
    if (TX_HOST_LITTLE_ENDIAN) assert_ptr_equal(tx_tensor_data_const(a), tx_tensor_data_const(b));
    else assert_ptr_not_equal(tx_tensor_data_const(a), tx_tensor_data_const(b));
    assert_int_equal(tx_tensor_is_writable(a), 0);
    assert_int_equal(tx_safetensors_get(f, "flags", &c), TX_OK);
    tx_tensor *c2;
    assert_int_equal(tx_safetensors_get(f, "flags", &c2), TX_OK);
    assert_ptr_equal(tx_tensor_data_const(c), tx_tensor_data_const(c2));
    tx_tensor_free(c2);
    tx_safetensors_close(f); /* the tensors keep the mapping */
    unlink(path);
    assert_same_tensor(ts[0], a);
    assert_same_tensor(ts[2], c);
    tu_assert_read_only(a);
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(c);
    for (int i = 0; i < 3; i++) tx_tensor_free(ts[i]);
}

/* Bytes that cannot be used in place: an unaligned tensor and bool bytes other than 0 and 1 come
 * as copies with the same values. */
static void test_copies(void **state) {
    (void)state;
    char file[256];
    const unsigned char data[] = {7, 1, 0, 0, 0, 2, 0, 0, 0, 0, 2, 255};
    size_t size = make_file(file,
                            "{\"a\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[0,1]},"
                            "\"b\":{\"dtype\":\"I32\",\"shape\":[2],\"data_offsets\":[1,9]},"
                            "\"c\":{\"dtype\":\"BOOL\",\"shape\":[3],\"data_offsets\":[9,12]}}",
                            data, sizeof data);
    tx_safetensors *f;
    assert_int_equal(tx_safetensors_open_buffer(file, size, &f), TX_OK);
    tx_tensor *b, *c;
    assert_int_equal(tx_safetensors_get(f, "b", &b), TX_OK);
    assert_int_equal(tx_safetensors_get(f, "c", &c), TX_OK);
    tx_safetensors_close(f);
    int32_t want[2];
    memcpy(want, data + 1, 8);
    if (!TX_HOST_LITTLE_ENDIAN) want[0] = 1, want[1] = 2;
    assert_memory_equal(tx_tensor_data_const(b), want, 8);
    assert_memory_equal(tx_tensor_data_const(c), "\x00\x01\x01", 3);
    assert_int_equal(tx_tensor_is_writable(c), 0);
    tx_tensor_free(b);
    tx_tensor_free(c);
}

static void test_save_rules(void **state) {
    (void)state;
    tx_tensor *t = random_tensor(TX_FLOAT32, 1, TU_DIMS(2), 1);
    tx_tensor *f4 = random_tensor(TX_FLOAT4_E2M1FN, 1, TU_DIMS(3), 1);
    const tx_tensor *two[2] = {t, t};
    void *buf;
    size_t size;
    const char *dup[2] = {"x", "x"}, *meta_dup[4] = {"k", "1", "k", "2"}, *bad_utf8 = "a\xff";
    const char *reserved = "__metadata__", *x = "x", *null_name = NULL;
    tu_assert_error(tx_safetensors_save_buffer(2, dup, two, 0, NULL, &buf, &size),
                    TX_INVALID_ARGUMENT, "tensor name \"x\" appears twice");
    tu_assert_error(tx_safetensors_save_buffer(1, &x, two, 2, meta_dup, &buf, &size),
                    TX_INVALID_ARGUMENT, "metadata key \"k\" appears twice");
    tu_assert_error(tx_safetensors_save_buffer(1, &reserved, two, 0, NULL, &buf, &size),
                    TX_INVALID_ARGUMENT, "the format's metadata entry");
    tu_assert_error(tx_safetensors_save_buffer(1, &bad_utf8, two, 0, NULL, &buf, &size),
                    TX_INVALID_ARGUMENT, "names[0] is not valid UTF-8 (byte 1)");
    tu_assert_error(tx_safetensors_save_buffer(1, &null_name, two, 0, NULL, &buf, &size),
                    TX_INVALID_ARGUMENT, "names[0] is NULL");
    tu_assert_error(tx_safetensors_save_buffer(1, &x, (const tx_tensor *const *)&f4, 0, NULL, &buf,
                                               &size),
                    TX_INVALID_ARGUMENT, "3 elements of F4 (4 bits) do not fill whole bytes");
    tu_assert_error(tx_safetensors_save_buffer(1, NULL, two, 0, NULL, &buf, &size),
                    TX_INVALID_ARGUMENT, "names or tensors is NULL with count 1");
    tu_assert_error(tx_safetensors_save_buffer(1, &x, two, 1, NULL, &buf, &size),
                    TX_INVALID_ARGUMENT, "metadata is NULL with metadata_count 1");
    tu_assert_error(tx_safetensors_save(NULL, 1, &x, two, 0, NULL), TX_INVALID_ARGUMENT,
                    "path is NULL");
    /* No tensor at all: "{}" padded, as the package writes it. */
    save(0, NULL, NULL, 0, NULL, &buf, &size);
    assert_int_equal(size, 16);
    assert_memory_equal(buf, "\x08\0\0\0\0\0\0\0{}      ", 16);
    tx_buffer_free(buf, size);
    /* A file is replaced whole; a failed save leaves it as it was, and no temporary file. */
    const char *path = path_in_dir("replace.safetensors");
    assert_int_equal(tx_safetensors_save(path, 1, &x, two, 0, NULL), TX_OK);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    tu_assert_error(tx_safetensors_save(path, 2, dup, two, 0, NULL), TX_INVALID_ARGUMENT,
                    "appears twice");
    assert_int_equal(stat(path, &after), 0);
    assert_int_equal(before.st_ino, after.st_ino);
    assert_int_equal(tx_safetensors_save(path, 1, &x, two, 0, NULL),
                     TX_OK);
    assert_int_equal(stat(path, &after), 0);
    assert_int_not_equal(before.st_ino, after.st_ino); /* a new file renamed over it */
    char cmd[160];
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -q tx-save", dir);
    assert_int_not_equal(system(cmd), 0);
    tu_assert_error(tx_safetensors_save(path_in_dir("no/such/dir.safetensors"), 1, &x, two, 0,
                                        NULL),
                    TX_INVALID_ARGUMENT, "cannot create");
    tu_assert_error(tx_safetensors_save(dir, 1, &x, two, 0, NULL), TX_INVALID_ARGUMENT,
                    "Is a directory");
    tx_safetensors *f = (tx_safetensors *)1;
    tu_assert_error(tx_safetensors_open(path_in_dir("missing"), &f), TX_INVALID_ARGUMENT,
                    "cannot open");
    assert_null(f);
    tu_assert_error(tx_safetensors_open(dir, &f), TX_INVALID_ARGUMENT, "is not a regular file");
    tu_assert_error(tx_safetensors_open_buffer(NULL, 3, &f), TX_INVALID_ARGUMENT,
                    "data is NULL with size 3");
    tx_tensor_free(t);
    tx_tensor_free(f4);
}

/* Saving over the file a tensor maps: the file is replaced by a rename, so the mapping (and the
 * tensor) keep the old bytes, and the new file holds what was saved. */
static void test_save_over_own_input(void **state) {
    (void)state;
    tx_tensor *t0 = random_tensor(TX_FLOAT32, 1, TU_DIMS(1000), 5);
    const char *path = path_in_dir("own.safetensors"), *name = "x", *other = "y";
    assert_int_equal(tx_safetensors_save(path, 1, &name, (const tx_tensor *const *)&t0, 0, NULL),
                     TX_OK);
    tx_safetensors *f;
    tx_tensor *v;
    assert_int_equal(tx_safetensors_open(path, &f), TX_OK);
    assert_int_equal(tx_safetensors_get(f, "x", &v), TX_OK);
    tx_safetensors_close(f);
    const tx_tensor *both[2] = {v, v};
    const char *names[2] = {other, name};
    assert_int_equal(tx_safetensors_save(path, 2, names, both, 0, NULL), TX_OK);
    assert_same_tensor(t0, v);
    assert_int_equal(tx_safetensors_open(path, &f), TX_OK);
    assert_int_equal(tx_safetensors_count(f), 2);
    tx_tensor *w;
    assert_int_equal(tx_safetensors_get(f, "y", &w), TX_OK);
    assert_same_tensor(t0, w);
    tx_safetensors_close(f);
    tx_tensor_free(w);
    tx_tensor_free(v);
    tx_tensor_free(t0);
}

/* Every allocation of open, get and save failing in turn. */
static void test_allocation_failures(void **state) {
    (void)state;
    tx_tensor *ts[2] = {random_tensor(TX_FLOAT32, 2, TU_DIMS(2, 2), 1),
                        random_tensor(TX_FLOAT6_E2M3FN, 1, TU_DIMS(8), 2)};
    const char *names[2] = {"a", "b"}, *meta[4] = {"k", "v", "j", "w"};
    tu_alloc_install();
    long live = tu_alloc_live();
    for (long k = 1;; k++) {
        void *buf = NULL;
        size_t size = 0;
        tu_alloc_fail_at(k);
        tx_status st = tx_safetensors_save_buffer(2, names, (const tx_tensor *const *)ts, 2, meta,
                                                  &buf, &size);
        tu_alloc_fail_at(0);
        if (st == TX_OK) {
            tx_safetensors *f = NULL;
            for (long j = 1;; j++) {
                tu_alloc_fail_at(j);
                st = tx_safetensors_open_buffer(buf, size, &f);
                tx_tensor *t = NULL;
                if (st == TX_OK) st = tx_safetensors_get(f, "b", &t);
                tu_alloc_fail_at(0);
                tx_tensor_free(t);
                tx_safetensors_close(f);
                f = NULL;
                if (st == TX_OK) break;
                assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
                assert_int_equal(tu_alloc_live(), live + 1);
            }
            tx_buffer_free(buf, size);
            break;
        }
        assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        assert_null(buf);
        assert_int_equal(tu_alloc_live(), live);
    }
    assert_int_equal(tu_alloc_live(), live);
    tu_alloc_uninstall();
    tx_tensor_free(ts[0]);
    tx_tensor_free(ts[1]);
}

static int cleanup(void **state) {
    (void)state;
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        return system(cmd) == 0 ? 0 : 1;
    }
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_dtype_round_trip),
        cmocka_unit_test(test_dtypes_without_safetensors_name),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_lying_header_length),
        cmocka_unit_test(test_truncated_at_every_byte),
        cmocka_unit_test(test_bad_json),
        cmocka_unit_test(test_views_of_the_mapped_file),
        cmocka_unit_test(test_copies),
        cmocka_unit_test(test_save_rules),
        cmocka_unit_test(test_save_over_own_input),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, cleanup);
}
