/* SPDX-License-Identifier: Apache-2.0 */
/* test_tensor_proto.c -- parse_tensor and serialize_tensor (tensorx/ops_parsing.h) and the wire
 * writer under serialize_tensor (src/io/proto_wire.c): TF 2.21's bytes for numbers, strings,
 * scalars and empty tensors; TF's parse rules (the last value repeated, the first n of more,
 * protobuf's merges, packed and unpacked values, unknown fields and groups); every error with
 * TF's message; round trips of every dtype; hostile bytes (cut at every byte, every bit flipped);
 * allocation failures.  The expected bytes were written by TF 2.21 (tf.raw_ops.SerializeTensor)
 * and the parse results read by it (tf.raw_ops.ParseTensor); tests/tf/ops_parsing.py compares
 * the two at random. */
#define TX_EXPERIMENTAL_API /* tx_dtype_info_of: every dtype TF has */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "io/proto_wire.h"

#define S(lit) lit, sizeof lit - 1

static tx_tensor *bytes_scalar(const char *b, size_t n) {
    const char *data[1] = {b};
    size_t lens[1] = {n};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new_strings(0, NULL, data, lens, &t), TX_OK);
    return t;
}

static tx_string scalar_bytes(const tx_tensor *t) {
    assert_int_equal(tx_tensor_dtype(t), TX_STRING);
    assert_int_equal(tx_tensor_rank(t), 0);
    return *(const tx_string *)tx_tensor_data_const(t);
}

static void assert_serializes(const tx_tensor *x, const char *want, size_t n) {
    tx_tensor *o = NULL;
    assert_int_equal(tx_serialize_tensor(x, &o), TX_OK);
    tx_string s = scalar_bytes(o);
    assert_int_equal(s.size, n);
    assert_memory_equal(s.data, want, n);
    tx_tensor_free(o);
}

/* Parses bytes b as out_type; the caller frees the result. */
static tx_tensor *parsed(const char *b, size_t n, tx_dtype out_type) {
    tx_tensor *ser = bytes_scalar(b, n), *o = NULL;
    tx_status st = tx_parse_tensor(ser, out_type, &o);
    if (st != TX_OK) fail_msg("parse_tensor: %s", tx_last_error());
    tx_tensor_free(ser);
    return o;
}

static void assert_parse_error(const char *b, size_t n, tx_dtype out_type, const char *fragment) {
    tx_tensor *ser = bytes_scalar(b, n), *o = (tx_tensor *)1;
    tu_assert_error(tx_parse_tensor(ser, out_type, &o), TX_INVALID_ARGUMENT, fragment);
    assert_null(o);
    tx_tensor_free(ser);
}

/* ---- the writer ------------------------------------------------------------------------------ */

static void test_wire_writer(void **state) {
    (void)state;
    assert_int_equal(tx__pw_varint_size(0), 1);
    assert_int_equal(tx__pw_varint_size(127), 1);
    assert_int_equal(tx__pw_varint_size(128), 2);
    assert_int_equal(tx__pw_varint_size(UINT64_MAX), 10);
    assert_int_equal(tx__pw_len_size(8, 300), 1 + 2 + 300);
    assert_int_equal(tx__pw_len_size(18, 1), 2 + 1 + 1);
    uint8_t buf[16];
    tx__pw_out w = tx__pw_writer(buf, sizeof buf);
    tx__pw_put_tag(&w, 18, TX__PW_LEN);
    tx__pw_put_varint(&w, 300);
    tx__pw_put_raw(&w, "ab", 2);
    assert_false(w.overflow);
    const uint8_t want[] = {0x92, 0x01, 0xac, 0x02, 'a', 'b'};
    assert_int_equal(w.p - buf, 6);
    assert_memory_equal(buf, want, 6);
    /* what does not fit is not written, and the writer says so */
    tx__pw_put_varint(&w, UINT64_MAX);
    assert_false(w.overflow);
    tx__pw_put_bytes(&w, 1, "abc", 3);
    assert_true(w.overflow);
    assert_int_equal(w.p - buf, 16);
    /* the reader reads it back; an unknown group is skipped to its end tag */
    tx__pw r = tx__pw_reader(buf, 6);
    uint32_t tag, len;
    assert_true(tx__pw_varint32(&r, &tag));
    assert_int_equal(tag, 0x92);
    assert_true(tx__pw_varint32(&r, &len));
    assert_int_equal(len, 300);
    const uint8_t group[] = {0x08, 0x01, 0x13, 0x10, 0x05, 0x14, 0x1c}, bad[] = {0x0c};
    r = tx__pw_reader(group, sizeof group);
    assert_true(tx__pw_skip_unknown(&r, 0x1b, 100));
    assert_true(tx__pw_at_end(&r));
    r = tx__pw_reader(group, sizeof group);
    assert_false(tx__pw_skip_unknown(&r, 0x1b, 1)); /* nested deeper than allowed */
    r = tx__pw_reader(bad, 1);
    assert_false(tx__pw_skip_unknown(&r, 0x1b, 100)); /* another field's end */
    r = tx__pw_reader(bad, 0);
    assert_false(tx__pw_skip_unknown(&r, 0x0c, 100)); /* an end tag alone */
}

/* ---- serialize_tensor: TF's bytes ------------------------------------------------------------- */

static void test_serialize_bytes(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT32, 0, NULL, (const double[]){1.5});
    assert_serializes(x, S("\x08\x01\x12\x00\x22\x04\x00\x00\xc0\x3f"));
    tx_tensor_free(x);
    x = tu_tensor(TX_FLOAT32, 2, TU_DIMS(0, 2), NULL);
    assert_serializes(x, S("\x08\x01\x12\x06\x12\x00\x12\x02\x08\x02"));
    tx_tensor_free(x);
    x = tu_tensor(TX_UINT64, 2, TU_DIMS(2, 3), (const double[]){1, 2, 3, 0, 1, 1});
    char want[16 + 48] = "\x08\x17\x12\x08\x12\x02\x08\x02\x12\x02\x08\x03\x22\x30";
    for (int i = 0; i < 6; i++) want[14 + 8 * i] = (char)(int[]){1, 2, 3, 0, 1, 1}[i];
    assert_serializes(x, want, 14 + 48);
    tx_tensor_free(x);
    x = tu_tensor(TX_COMPLEX64, 1, TU_DIMS(1), NULL);
    ((float *)tx_tensor_data(x))[0] = 1.0f;
    ((float *)tx_tensor_data(x))[1] = 2.0f;
    assert_serializes(x, S("\x08\x08\x12\x04\x12\x02\x08\x01\x22\x08\x00\x00\x80\x3f\x00\x00\x00\x40"));
    tx_tensor_free(x);
    x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1000), NULL);
    tx_tensor *o = NULL;
    assert_int_equal(tx_serialize_tensor(x, &o), TX_OK);
    tx_string s = scalar_bytes(o);
    assert_int_equal(s.size, 12 + 4000);
    assert_memory_equal(s.data, "\x08\x01\x12\x05\x12\x03\x08\xe8\x07\x22\xa0\x1f", 12);
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = tu_strings(2, TU_DIMS(2, 3), (const char *const[]){"a", "bb", "c", "", "x", "y"});
    assert_serializes(x, S("\x08\x07\x12\x08\x12\x02\x08\x02\x12\x02\x08\x03\x42\x01\x61\x42\x02"
                           "bb\x42\x01\x63\x42\x00\x42\x01x\x42\x01y"));
    tx_tensor_free(x);
    x = tu_strings(0, NULL, (const char *const[]){"x"});
    assert_serializes(x, S("\x08\x07\x12\x00\x42\x01x"));
    tx_tensor_free(x);
    x = tu_strings(1, TU_DIMS(0), NULL);
    assert_serializes(x, S("\x08\x07\x12\x02\x12\x00"));
    tx_tensor_free(x);
}

/* ---- parse_tensor: TF's rules ------------------------------------------------------------------ */

static void test_parse_values(void **state) {
    (void)state;
    /* float_val with fewer values than elements: the last repeats; with more: the first n */
    tx_tensor *o = parsed(S("\x08\x01\x12\x04\x12\x02\x08\x03\x2a\x08\x00\x00\x80\x3f\x00\x00\x00\x40"),
                          TX_FLOAT32);
    tu_assert_shape(o, TX_FLOAT32, 1, TU_DIMS(3));
    tu_assert_values(o, (const double[]){1, 2, 2});
    tx_tensor_free(o);
    o = parsed(S("\x08\x01\x12\x04\x12\x02\x08\x02\x2a\x0c\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40"),
               TX_FLOAT32);
    tu_assert_values(o, (const double[]){1, 2});
    tx_tensor_free(o);
    /* unpacked values too, and the last tensor_content wins (empty: the typed field counts) */
    o = parsed(S("\x08\x01\x12\x04\x12\x02\x08\x02\x22\x01\x00\x22\x00\x2d\x00\x00\x80\x3f"), TX_FLOAT32);
    tu_assert_values(o, (const double[]){1, 1});
    tx_tensor_free(o);
    /* no values: zeros; a shape given twice merges; unknown_rank is ignored */
    o = parsed(S("\x08\x01\x12\x04\x12\x02\x08\x02\x12\x04\x12\x02\x08\x03"), TX_FLOAT32);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(2, 3));
    tu_assert_values(o, (const double[]){0, 0, 0, 0, 0, 0});
    tx_tensor_free(o);
    o = parsed(S("\x08\x01\x12\x02\x18\x01"), TX_FLOAT32);
    tu_assert_shape(o, TX_FLOAT32, 0, NULL);
    tx_tensor_free(o);
    /* the values are converted as TF converts: uint8 from int_val 258 is 2, bool_val 5 true,
     * int32 from int_val 2^32 is 0, uint32_val's low 32 bits; a dtype's low 32 bits */
    o = parsed(S("\x08\x04\x12\x04\x12\x02\x08\x03\x38\x82\x02"), TX_UINT8);
    tu_assert_values(o, (const double[]){2, 2, 2});
    tx_tensor_free(o);
    o = parsed(S("\x08\x0a\x12\x04\x12\x02\x08\x03\x5a\x02\x01\x05"), TX_BOOL);
    tu_assert_values(o, (const double[]){1, 1, 1});
    tx_tensor_free(o);
    o = parsed(S("\x08\x03\x12\x04\x12\x02\x08\x02\x38\x80\x80\x80\x80\x10"), TX_INT32);
    tu_assert_values(o, (const double[]){0, 0});
    tx_tensor_free(o);
    o = parsed(S("\x08\x16\x12\x04\x12\x02\x08\x02\x80\x01\xff\xff\xff\xff\x1f"), TX_UINT32);
    tu_assert_values(o, (const double[]){4294967295.0, 4294967295.0});
    tx_tensor_free(o);
    o = parsed(S("\x08\x81\x80\x80\x80\x10\x12\x04\x12\x02\x08\x01"), TX_FLOAT32);
    tx_tensor_free(o);
    /* half_val: the low 16 bits */
    o = parsed(S("\x08\x13\x12\x04\x12\x02\x08\x02\x6a\x02\x00\x3c"), TX_FLOAT16);
    const uint16_t *h = tx_tensor_data_const(o);
    assert_int_equal(h[0], 0);
    assert_int_equal(h[1], 0x3c);
    tx_tensor_free(o);
    /* complex: pairs (one float is no pair: zeros) */
    o = parsed(S("\x08\x08\x12\x04\x12\x02\x08\x03\x4a\x0c\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40"),
               TX_COMPLEX64);
    const float *c = tx_tensor_data_const(o);
    for (int i = 0; i < 3; i++) assert_true(c[2 * i] == 1.0f && c[2 * i + 1] == 2.0f);
    tx_tensor_free(o);
    /* float8_val: one byte a value, the last field wins; int4 from int_val keeps the low bits */
    o = parsed(S("\x08\x18\x12\x04\x12\x02\x08\x03\x92\x01\x01\x05\x92\x01\x01\x06"), TX_FLOAT8_E5M2);
    assert_memory_equal(tx_tensor_data_const(o), "\x06\x06\x06", 3);
    tx_tensor_free(o);
    o = parsed(S("\x08\x1d\x12\x04\x12\x02\x08\x03\x3a\x03\x01\x0f\x7f"), TX_INT4);
    assert_memory_equal(tx_tensor_data_const(o), "\x01\x0f\x0f", 3); /* 1, -1, -1 */
    tx_tensor_free(o);
    /* strings: tensor_content as lengths then bytes; string_val with the last repeated */
    o = parsed(S("\x08\x07\x12\x04\x12\x02\x08\x02\x22\x04\x01\x01\x61\x62"), TX_STRING);
    const tx_string *st = tx_tensor_data_const(o);
    assert_true(st[0].size == 1 && st[0].data[0] == 'a' && st[1].size == 1 && st[1].data[0] == 'b');
    tx_tensor_free(o);
    o = parsed(S("\x08\x07\x12\x04\x12\x02\x08\x03\x42\x01\x61\x42\x00"), TX_STRING);
    st = tx_tensor_data_const(o);
    assert_true(st[0].size == 1 && st[1].size == 0 && st[2].size == 0);
    tx_tensor_free(o);
    /* unknown fields of every wire type, groups included, and a known field of another wire type */
    o = parsed(S("\x08\x01\x12\x04\x12\x02\x08\x01\x28\x05\xa0\x06\x01\x0b\x10\x01\x0c\x39\x01\x02\x03"
                 "\x04\x05\x06\x07\x08\x7d\x01\x02\x03\x04"), TX_FLOAT32);
    tu_assert_values(o, (const double[]){0});
    tx_tensor_free(o);
    /* a 5-byte tag, and one past 32 bits (its low 32 bits: field 2^29 - 1); a resource handle */
    tx_tensor_free(parsed(S("\x88\x80\x80\x80\x00\x01\x12\x00"), TX_FLOAT32));
    tx_tensor_free(parsed(S("\x08\x01\x12\x00\xf8\xff\xff\xff\x1f\x01"), TX_FLOAT32));
    tx_tensor_free(parsed(S("\x08\x01\x12\x04\x12\x02\x08\x01\x72\x02\x08\x01"), TX_FLOAT32));
    /* an empty tensor ignores its content */
    o = parsed(S("\x08\x01\x12\x04\x12\x02\x08\x00\x22\x01\x05"), TX_FLOAT32);
    tu_assert_shape(o, TX_FLOAT32, 1, TU_DIMS(0));
    tx_tensor_free(o);
}

static void test_parse_errors(void **state) {
    (void)state;
    assert_parse_error(S("\xff"), TX_FLOAT32, "parse_tensor: Could not parse `serialized` as "
                       "TensorProto, base64: /w==");
    assert_parse_error(S("\x08\x01\x1a\x01"), TX_FLOAT32, "base64: CAEaAQ==");    /* cut */
    assert_parse_error(S("\x08\x01\x00"), TX_FLOAT32, "Could not parse");          /* field 0 */
    assert_parse_error(S("\x08\x01\x0c"), TX_FLOAT32, "Could not parse");          /* stray end */
    assert_parse_error(S("\x08\x01\x1b\x14"), TX_FLOAT32, "Could not parse");      /* group end */
    assert_parse_error(S("\x08\x01\x0f"), TX_FLOAT32, "Could not parse");          /* wire 7 */
    assert_parse_error(S("\x08\x01\x12\x04\x12\x02\x08\x01\x2a\x03\x00\x00\x80"), TX_FLOAT32,
                       "Could not parse"); /* packed floats of 3 bytes */
    assert_parse_error(S("\x08\x01\x12\x05\x12\x03\x12\x01\xff"), TX_FLOAT32,
                       "Could not parse"); /* Dim.name not UTF-8 */
    assert_parse_error(S("\x08\x01\x12\x04\x12\x02\x08\x02\x22\x04\x00\x00\x80\x3f"), TX_FLOAT32,
                       "Cannot parse tensor from proto");
    assert_parse_error(S(""), TX_FLOAT32, "Cannot parse tensor from proto");      /* no dtype */
    assert_parse_error(S("\x08\x63\x12\x00"), TX_FLOAT32, "Cannot parse tensor from proto");
    assert_parse_error(S("\x08\x01\x12\x0d\x12\x0b\x08\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01"),
                       TX_FLOAT32, "Cannot parse tensor from proto");            /* dim -2 */
    assert_parse_error(S("\x08\x01\x12\x16\x12\x07\x08\x80\x80\x80\x80\x80\x20\x12\x07\x08\x80\x80"
                         "\x80\x80\x80\x20\x12\x02\x08\x00"), TX_FLOAT32,
                       "Cannot parse tensor from proto");                        /* 2^80 */
    assert_parse_error(S("\x08\x0a\x12\x04\x12\x02\x08\x03\x22\x03\x01\x05\x00"), TX_BOOL,
                       "Cannot parse tensor from proto");                        /* bool byte 5 */
    assert_parse_error(S("\x08\x07\x12\x04\x12\x02\x08\x02\x22\x03\x01\x01\x61"), TX_STRING,
                       "Cannot parse tensor from proto");                        /* short */
    assert_parse_error(S("\x08\x01\x12\x04\x12\x02\x08\x02"), TX_FLOAT64,
                       "Type mismatch between parsed tensor (float) and dtype (double)");
    assert_parse_error(S("\x08\x07\x12\x00"), TX_FLOAT16,
                       "Type mismatch between parsed tensor (string) and dtype (half)");
    assert_parse_error(S("\x08\x14\x12\x00"), TX_INT8,
                       "Type mismatch between parsed tensor (resource) and dtype (int8)");
    /* a tag of more than 5 bytes; a resource handle's string not UTF-8, or cut */
    assert_parse_error(S("\x88\x80\x80\x80\x80\x00\x01\x12\x00"), TX_FLOAT32, "Could not parse");
    assert_parse_error(S("\x08\x01\x12\x04\x12\x02\x08\x01\x72\x03\x0a\x01\xff"), TX_FLOAT32,
                       "Could not parse");
    assert_parse_error(S("\x08\x01\x12\x04\x12\x02\x08\x01\x72\x02\x0a\x01"), TX_FLOAT32,
                       "Could not parse");
    /* unknown groups: 100 nested parse, 101 do not (protobuf's recursion limit) */
    char deep[4 + 2 * 101] = "\x08\x01\x12\x00";
    for (int depth = 100; depth <= 101; depth++) {
        memset(deep + 4, 0x1b, (size_t)depth);
        memset(deep + 4 + depth, 0x1c, (size_t)depth);
        if (depth == 101) {
            assert_parse_error(deep, 4 + 2 * (size_t)depth, TX_FLOAT32, "Could not parse");
        } else {
            tx_tensor_free(parsed(deep, 4 + 2 * (size_t)depth, TX_FLOAT32));
        }
    }
    /* 255 dims */
    char many[5 + 4 * 255] = "\x08\x01\x12"; /* dtype, shape tag, 2-byte length, dims */
    size_t at = 3;
    many[at++] = (char)0xfc;
    many[at++] = 0x07;
    for (int i = 0; i < 255; i++) memcpy(many + at, "\x12\x02\x08\x01", 4), at += 4;
    assert_parse_error(many, at, TX_FLOAT32, "Cannot parse tensor from proto");
    many[3] = (char)0xf8; /* 254 dims: fine */
    tx_tensor *o = parsed(many, at - 4, TX_FLOAT32);
    assert_int_equal(tx_tensor_rank(o), 254);
    tx_tensor_free(o);
}

static void test_argument_errors(void **state) {
    (void)state;
    tx_tensor *ser = bytes_scalar(S("\x08\x01\x12\x00")), *o = NULL;
    tu_assert_error(tx_parse_tensor(ser, TX_FLOAT32, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_parse_tensor(NULL, TX_FLOAT32, &o), TX_INVALID_ARGUMENT, "serialized is NULL");
    tu_assert_error(tx_parse_tensor(ser, TX_FLOAT6_E2M3FN, &o), TX_INVALID_ARGUMENT,
                    "out_type must be a TensorFlow dtype");
    tu_assert_error(tx_parse_tensor(ser, (tx_dtype)999, &o), TX_INVALID_ARGUMENT,
                    "out_type must be a TensorFlow dtype");
    tx_tensor *f = tu_tensor(TX_FLOAT32, 0, NULL, (const double[]){1});
    tu_assert_error(tx_parse_tensor(f, TX_FLOAT32, &o), TX_INVALID_ARGUMENT,
                    "serialized must be a string tensor, got float32");
    tx_tensor *v = tu_strings(1, TU_DIMS(1), (const char *const[]){"a"});
    tu_assert_error(tx_parse_tensor(v, TX_FLOAT32, &o), TX_INVALID_ARGUMENT,
                    "Expected `serialized` to be a scalar, got shape: [1]");
    assert_null(o);
    tu_assert_error(tx_serialize_tensor(f, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_serialize_tensor(NULL, &o), TX_INVALID_ARGUMENT, "tensor is NULL");
    tx_tensor *e = tu_tensor(TX_FLOAT8_E8M0FNU, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_serialize_tensor(e, &o), TX_INVALID_ARGUMENT,
                    "serialize_tensor: tensor is float8_e8m0fnu, which TensorFlow has no DataType");
    assert_null(o);
    tx_tensor_free(e);
    tx_tensor_free(v);
    tx_tensor_free(f);
    tx_tensor_free(ser);
}

/* ---- round trips, hostile bytes, allocation failures ------------------------------------------- */

static tx_tensor *random_tensor(tx_dtype t, size_t rank, const int64_t *dims, unsigned *seed) {
    if (t == TX_STRING) {
        int64_t n = 1;
        for (size_t i = 0; i < rank; i++) n *= dims[i];
        const char *data[24];
        size_t lens[24];
        static const char pool[] = "hello\0world\xff\x80 tensor proto";
        for (int64_t i = 0; i < n; i++) {
            data[i] = pool + rand_r(seed) % 10;
            lens[i] = (size_t)(rand_r(seed) % 8);
        }
        tx_tensor *x = NULL;
        assert_int_equal(tx_tensor_new_strings(rank, dims, data, lens, &x), TX_OK);
        return x;
    }
    tx_tensor *x = tu_tensor(t, rank, dims, NULL);
    uint8_t *p = tx_tensor_data(x);
    for (size_t i = 0; i < tx_tensor_nbytes(x); i++) p[i] = tu_canonical_byte(t, (uint8_t)rand_r(seed));
    return x;
}

static void assert_same(const tx_tensor *a, const tx_tensor *b) {
    tu_assert_shape(b, tx_tensor_dtype(a), tx_tensor_rank(a), tx_tensor_dims(a));
    if (tx_tensor_dtype(a) != TX_STRING) {
        assert_memory_equal(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
        return;
    }
    const tx_string *x = tx_tensor_data_const(a), *y = tx_tensor_data_const(b);
    for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
        assert_int_equal(x[i].size, y[i].size);
        assert_memory_equal(x[i].data, y[i].data, x[i].size);
    }
}

static void test_round_trips(void **state) {
    (void)state;
    unsigned seed = 7;
    const int64_t shapes[][3] = {{0}, {5}, {2, 3}, {4, 0}, {3, 2, 2}};
    const size_t ranks[] = {0, 1, 2, 2, 3};
    for (int id = 0; id < 128; id++) {
        const tx_dtype_info *d = tx_dtype_info_of((tx_dtype)id);
        if (d == NULL || d->tf_datatype == 0) continue;
        for (size_t s = 0; s < 5; s++) {
            tx_tensor *x = random_tensor(d->id, ranks[s], shapes[s], &seed), *ser = NULL, *y = NULL;
            assert_int_equal(tx_serialize_tensor(x, &ser), TX_OK);
            if (tx_parse_tensor(ser, d->id, &y) != TX_OK) fail_msg("%s: %s", d->name, tx_last_error());
            assert_same(x, y);
            tx_tensor_free(y);
            tx_tensor_free(ser);
            tx_tensor_free(x);
        }
    }
}

static void test_hostile_bytes(void **state) {
    (void)state;
    unsigned seed = 3;
    tx_tensor *x = random_tensor(TX_STRING, 2, TU_DIMS(2, 3), &seed), *ser = NULL;
    assert_int_equal(tx_serialize_tensor(x, &ser), TX_OK);
    tx_string s = scalar_bytes(ser);
    char *b = malloc(s.size);
    for (uint64_t cut = 0; cut <= s.size; cut++) { /* every prefix: parsed or refused */
        tx_tensor *t = bytes_scalar(s.data, (size_t)cut), *o = NULL;
        tx_status st = tx_parse_tensor(t, TX_STRING, &o);
        assert_true(st == TX_OK || st == TX_INVALID_ARGUMENT);
        assert_true((st == TX_OK) == (o != NULL));
        tx_tensor_free(o);
        tx_tensor_free(t);
    }
    for (uint64_t i = 0; i < s.size * 8; i++) { /* every bit flipped */
        memcpy(b, s.data, s.size);
        b[i / 8] ^= (char)(1 << (i % 8));
        tx_tensor *t = bytes_scalar(b, (size_t)s.size), *o = NULL;
        tx_status st = tx_parse_tensor(t, TX_STRING, &o);
        assert_true(st == TX_OK || st == TX_INVALID_ARGUMENT);
        tx_tensor_free(o);
        tx_tensor_free(t);
    }
    free(b);
    tx_tensor_free(ser);
    tx_tensor_free(x);
}

static void test_allocation_failures(void **state) {
    (void)state;
    unsigned seed = 5;
    tx_tensor *x = random_tensor(TX_STRING, 1, TU_DIMS(3), &seed), *ser = NULL;
    assert_int_equal(tx_serialize_tensor(x, &ser), TX_OK);
    tu_alloc_install();
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        tx_tensor *o = NULL;
        tx_status st = tx_serialize_tensor(x, &o);
        tu_alloc_fail_at(0);
        if (tu_alloc_sweep_step(st, o, (tx_tensor *const[3]){NULL})) break;
    }
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        tx_tensor *o = NULL;
        tx_status st = tx_parse_tensor(ser, TX_STRING, &o);
        tu_alloc_fail_at(0);
        if (tu_alloc_sweep_step(st, o, (tx_tensor *const[3]){NULL})) break;
    }
    tu_alloc_uninstall();
    tx_tensor_free(ser);
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wire_writer),
        cmocka_unit_test(test_serialize_bytes),
        cmocka_unit_test(test_parse_values),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_argument_errors),
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_hostile_bytes),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
