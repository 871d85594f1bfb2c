/* SPDX-License-Identifier: Apache-2.0 */
/* test_example.c -- parse_example and parse_single_example (tensorx/ops_parsing.h) and the
 * protocol buffer reader under them (src/io/proto_wire.c): values of every feature kind in packed
 * and unpacked lists, defaults, repeated keys, unknown fields, every TF error with its message in
 * both forms (a batch, one record), hostile records (cut at every byte, every bit flipped), the
 * argument checks and allocation failures.  tests/tf/ops_parsing.py holds the same op to TF 2.21. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "example_proto.h"
#include "io/proto_wire.h"

/* ---- the wire reader ------------------------------------------------------------------------ */

static void test_wire_varints(void **state) {
    (void)state;
    const unsigned char ten[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
    tx__pw r = tx__pw_reader(ten, 10);
    uint64_t v;
    assert_true(tx__pw_varint64(&r, &v)); /* 10 bytes: the bits past 64 drop out */
    assert_true(v == UINT64_MAX);
    assert_true(tx__pw_at_end(&r));
    const unsigned char eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01};
    r = tx__pw_reader(eleven, 11);
    assert_false(tx__pw_varint64(&r, &v)); /* 11 bytes: refused, nothing consumed */
    assert_true(r.p == eleven);
    const unsigned char big32[] = {0x81, 0x80, 0x80, 0x80, 0x70}; /* low 32 bits: 1 */
    r = tx__pw_reader(big32, 5);
    uint32_t u;
    assert_true(tx__pw_varint32(&r, &u));
    assert_int_equal(u, 1);
    const unsigned char cut[] = {0x80, 0x80};
    r = tx__pw_reader(cut, 2);
    assert_false(tx__pw_varint64(&r, &v));
    /* a limit stops every read, and one past the bytes leaves the outer limit */
    const unsigned char four[] = {1, 2, 3, 4};
    r = tx__pw_reader(four, 4);
    const uint8_t *old = tx__pw_push(&r, 3);
    assert_false(tx__pw_fixed32(&r, &u));
    const uint8_t *b;
    assert_true(tx__pw_bytes(&r, 3, &b));
    assert_true(tx__pw_at_end(&r));
    tx__pw_pop(&r, old);
    assert_int_equal(tx__pw_left(&r), 1);
    r = tx__pw_reader(four, 4);
    old = tx__pw_push(&r, 100);
    assert_true(r.limit == four + 4);
    /* skipping: a length past the limit fails and consumes nothing; groups are refused */
    const unsigned char len9[] = {9, 1, 2};
    r = tx__pw_reader(len9, 3);
    assert_false(tx__pw_skip(&r, TX__PW_LEN));
    assert_true(r.p == len9);
    assert_false(tx__pw_skip(&r, TX__PW_GROUP_START));
    assert_true(tx__pw_skip(&r, TX__PW_VARINT));
    assert_true(tx__pw_skip(&r, TX__PW_VARINT));
    assert_int_equal(tx__pw_left(&r), 1);
}

/* ---- helpers ---------------------------------------------------------------------------------- */

static tx_tensor *records(size_t n, const pb *const *recs) {
    const char *data[8];
    size_t lens[8];
    for (size_t i = 0; i < n; i++) data[i] = (const char *)recs[i]->b, lens[i] = recs[i]->n;
    const int64_t dims[1] = {(int64_t)n};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new_strings(1, dims, data, lens, &t), TX_OK);
    return t;
}

static tx_tensor *scalar_record(const pb *rec) {
    const char *data[1] = {(const char *)rec->b};
    size_t lens[1] = {rec->n};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new_strings(0, NULL, data, lens, &t), TX_OK);
    return t;
}

static tx_tensor *keys(size_t n, const char *const *k) {
    return tu_strings(1, (const int64_t[]){(int64_t)n}, k);
}

static void free_outs(tx_tensor **o, size_t n) {
    for (size_t i = 0; i < n; i++) tx_tensor_free(o[i]);
}

static void assert_string_at(const tx_tensor *t, int64_t i, const char *want) {
    const tx_string *s = tx_tensor_data_const(t);
    assert_int_equal(s[i].size, strlen(want));
    assert_memory_equal(s[i].data, want, strlen(want));
}

/* One dense feature of dtype/shape with default `def` (NULL: required) and one sparse feature:
 * the common call of the error tests. */
typedef struct call {
    tx_tensor *skeys, *dkeys, *def;
    tx_dtype stype;
    size_t rank;
    int64_t dims[2];
} call;

static call call_of(const char *skey, tx_dtype stype, const char *dkey, tx_dtype dtype, size_t rank,
                    const int64_t *dims) {
    call c = {keys(1, (const char *[]){skey}), keys(1, (const char *[]){dkey}), NULL, stype, rank,
              {0, 0}};
    for (size_t i = 0; i < rank; i++) c.dims[i] = dims[i];
    if (dtype == TX_STRING)
        c.def = tu_strings(1, TU_DIMS(0), NULL);
    else
        c.def = tu_tensor(dtype, 1, TU_DIMS(0), NULL);
    return c;
}

static tx_status run_call(const call *c, const tx_tensor *ser, tx_tensor **o) {
    const int64_t *shapes[1] = {c->dims};
    const tx_tensor *defs[1] = {c->def};
    if (tx_tensor_rank(ser) == 0)
        return tx_parse_single_example(ser, c->skeys, &c->stype, c->dkeys, defs, &c->rank, shapes, o);
    return tx_parse_example(ser, NULL, c->skeys, &c->stype, c->dkeys, defs, &c->rank, shapes, o);
}

static void call_free(call *c) {
    tx_tensor_free(c->skeys);
    tx_tensor_free(c->dkeys);
    tx_tensor_free(c->def);
}

/* ---- values ---------------------------------------------------------------------------------- */

/* Two records, every kind, packed in one and unpacked in the other; a default; sparse values. */
static void test_batch_values(void **state) {
    (void)state;
    const float f0[2] = {1.5f, -2.0f}, f1[2] = {0.25f, 1e30f};
    const int64_t i0[3] = {1, -1, INT64_MAX}, i1[1] = {7};
    pb ex0 = {.n = 0}, ex1 = {.n = 0}, fs = {.n = 0}, f = {.n = 0};
    feat_floats(&f, 2, f0, 1);
    pb_entry(&fs, "f", &f);
    feat_int64s(&f, 3, i0, 1);
    pb_entry(&fs, "ids", &f);
    feat_bytes(&f, 1, (const char *[]){"cat"});
    pb_entry(&fs, "s", &f);
    pb_example(&ex0, &fs);
    fs.n = 0;
    feat_floats(&f, 2, f1, 0);
    pb_entry(&fs, "f", &f);
    feat_int64s(&f, 1, i1, 0);
    pb_entry(&fs, "ids", &f);
    pb_example(&ex1, &fs);
    tx_tensor *ser = records(2, (const pb *[]){&ex0, &ex1});
    tx_tensor *sk = keys(1, (const char *[]){"ids"});
    tx_tensor *dk = keys(2, (const char *[]){"f", "s"});
    tx_tensor *fdef = tu_tensor(TX_FLOAT32, 1, TU_DIMS(0), NULL);
    tx_tensor *sdef = tu_strings(0, NULL, (const char *[]){"dog"});
    const tx_dtype st[1] = {TX_INT64};
    const size_t ranks[2] = {1, 0};
    const int64_t *shapes[2] = {TU_DIMS(2), NULL};
    const tx_tensor *defs[2] = {fdef, sdef};
    tx_tensor *o[5];
    assert_int_equal(tx_parse_example(ser, NULL, sk, st, dk, defs, ranks, shapes, o), TX_OK);
    tu_assert_shape(o[0], TX_INT64, 2, TU_DIMS(4, 2));
    tu_assert_values(o[0], TU_VALS(0, 0, 0, 1, 0, 2, 1, 0));
    tu_assert_shape(o[1], TX_INT64, 1, TU_DIMS(4));
    const int64_t *iv = tx_tensor_data_const(o[1]);
    assert_true(iv[0] == 1 && iv[1] == -1 && iv[2] == INT64_MAX && iv[3] == 7);
    tu_assert_shape(o[2], TX_INT64, 1, TU_DIMS(2));
    tu_assert_values(o[2], TU_VALS(2, 3));
    tu_assert_shape(o[3], TX_FLOAT32, 2, TU_DIMS(2, 2));
    tu_assert_values(o[3], TU_VALS(1.5, -2.0, 0.25, (double)1e30f));
    tu_assert_shape(o[4], TX_STRING, 1, TU_DIMS(2));
    assert_string_at(o[4], 0, "cat");
    tx_tensor_free(ser); /* the strings point into the records, which the output keeps */
    tx_tensor_free(sdef);
    assert_string_at(o[4], 0, "cat");
    assert_string_at(o[4], 1, "dog");
    free_outs(o, 5);
    tx_tensor_free(sk);
    tx_tensor_free(dk);
    tx_tensor_free(fdef);
}

/* One record: no batch dimension; sparse indices [N, 1] and dense_shape [N]; an absent sparse
 * feature gives [0, 1], [0], [0]. */
static void test_single_values(void **state) {
    (void)state;
    pb ex = {.n = 0}, fs = {.n = 0}, f = {.n = 0};
    feat_bytes(&f, 2, (const char *[]){"a", ""});
    pb_entry(&fs, "words", &f);
    feat_int64s(&f, 2, (const int64_t[]){3, 4}, 0);
    pb_entry(&fs, "xy", &f);
    pb_example(&ex, &fs);
    tx_tensor *ser = scalar_record(&ex);
    tx_tensor *sk = keys(2, (const char *[]){"words", "missing"});
    tx_tensor *dk = keys(1, (const char *[]){"xy"});
    tx_tensor *def = tu_tensor(TX_INT64, 1, TU_DIMS(0), NULL);
    const tx_dtype st[2] = {TX_STRING, TX_FLOAT32};
    const size_t ranks[1] = {2};
    const int64_t *shapes[1] = {TU_DIMS(1, 2)};
    const tx_tensor *defs[1] = {def};
    tx_tensor *o[7];
    assert_int_equal(tx_parse_single_example(ser, sk, st, dk, defs, ranks, shapes, o), TX_OK);
    tu_assert_shape(o[0], TX_INT64, 2, TU_DIMS(2, 1));
    tu_assert_values(o[0], TU_VALS(0, 1));
    tu_assert_shape(o[1], TX_INT64, 2, TU_DIMS(0, 1));
    tu_assert_shape(o[2], TX_STRING, 1, TU_DIMS(2));
    assert_string_at(o[2], 0, "a");
    assert_string_at(o[2], 1, "");
    tu_assert_shape(o[3], TX_FLOAT32, 1, TU_DIMS(0));
    tu_assert_values(o[4], TU_VALS(2));
    tu_assert_values(o[5], TU_VALS(0));
    tu_assert_shape(o[6], TX_INT64, 2, TU_DIMS(1, 2));
    tu_assert_values(o[6], TU_VALS(3, 4));
    free_outs(o, 7);
    /* parse_example of the scalar is the same call */
    assert_int_equal(tx_parse_example(ser, NULL, sk, st, dk, defs, ranks, shapes, o), TX_OK);
    tu_assert_shape(o[0], TX_INT64, 2, TU_DIMS(2, 1));
    free_outs(o, 7);
    tx_tensor_free(ser);
    tx_tensor_free(sk);
    tx_tensor_free(dk);
    tx_tensor_free(def);
}

/* Repeated keys: the last entry wins, across Features messages too (concatenated Examples); an
 * empty Feature is skipped by a dense feature and by a single record's sparse feature, but wins
 * with no values for a batch's sparse feature.  Unknown fields of the Example are skipped. */
static void test_duplicates_and_unknown_fields(void **state) {
    (void)state;
    pb ex = {.n = 0}, fs = {.n = 0}, fs2 = {.n = 0}, f = {.n = 0}, empty = {.n = 0};
    feat_int64s(&f, 2, (const int64_t[]){1, 2}, 1);
    pb_entry(&fs, "d", &f);
    pb_entry(&fs, "s", &f);
    pb_example(&ex, &fs);
    pb_byte(&ex, 0x10); /* field 2 varint */
    pb_varint(&ex, 300);
    pb_byte(&ex, 0x19); /* field 3 fixed64 */
    pb_fixed32(&ex, 0);
    pb_fixed32(&ex, 0);
    pb_field(&ex, 0x22, "junk", 4); /* field 4 bytes */
    pb_byte(&ex, 0x2d); /* field 5 fixed32 */
    pb_fixed32(&ex, 1);
    feat_int64s(&f, 2, (const int64_t[]){5, 6}, 0);
    pb_entry(&fs2, "d", &f);
    pb_entry(&fs2, "d", &empty);
    pb_entry(&fs2, "s", &f);
    pb_entry(&fs2, "s", &empty);
    pb_example(&ex, &fs2);
    call c = call_of("s", TX_INT64, "d", TX_INT64, 1, TU_DIMS(2));
    tx_tensor *o[4];
    tx_tensor *ser = records(1, (const pb *[]){&ex});
    assert_int_equal(run_call(&c, ser, o), TX_OK);
    tu_assert_shape(o[1], TX_INT64, 1, TU_DIMS(0)); /* the empty entry won */
    tu_assert_values(o[2], TU_VALS(1, 0));
    tu_assert_values(o[3], TU_VALS(5, 6));
    free_outs(o, 4);
    tx_tensor_free(ser);
    ser = scalar_record(&ex);
    assert_int_equal(run_call(&c, ser, o), TX_OK);
    tu_assert_values(o[1], TU_VALS(5, 6)); /* one record: the empty entry was skipped */
    tu_assert_values(o[3], TU_VALS(5, 6));
    free_outs(o, 4);
    tx_tensor_free(ser);
    call_free(&c);
}

/* TF's fast parser's own readings: a packed float list of 9 bytes holds 2 values (the rest is
 * ignored), a list after a packed one is ignored, a map entry may give the value first, and a
 * Feature's second list is ignored. */
static void test_fast_parser_rules(void **state) {
    (void)state;
    pb ex = {.n = 0}, fs = {.n = 0}, f = {.n = 0}, list = {.n = 0}, e = {.n = 0};
    const unsigned char nine[9] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0xee};
    pb_field(&list, 0x0a, nine, 9);
    pb_byte(&list, 0x0d);
    pb_fixed32(&list, 0);
    pb_sub(&f, 0x12, &list);
    feat_int64s(&e, 1, (const int64_t[]){9}, 0);
    pb_raw(&f, e.b, e.n); /* a second list: ignored */
    e.n = 0;
    pb_sub(&e, 0x12, &f); /* the value first, then the key */
    pb_field(&e, 0x0a, "v", 1);
    pb_sub(&fs, 0x0a, &e);
    pb_example(&ex, &fs);
    call c = call_of("v", TX_FLOAT32, "v2", TX_FLOAT32, 0, NULL);
    tx_tensor_free(c.def);
    c.def = tu_tensor(TX_FLOAT32, 0, NULL, TU_VALS(-1));
    tx_tensor *o[4];
    tx_tensor *ser = records(1, (const pb *[]){&ex});
    assert_int_equal(run_call(&c, ser, o), TX_OK);
    tu_assert_values(o[1], TU_VALS(1.0, 2.0));
    tu_assert_shape(o[3], TX_FLOAT32, 1, TU_DIMS(1)); /* [records] */
    tu_assert_values(o[3], TU_VALS(-1));
    free_outs(o, 4);
    tx_tensor_free(ser);
    call_free(&c);
}

/* ---- TF's errors, a batch's and one record's words -------------------------------------------- */

static void expect(const call *c, const pb *rec, bool single, const char *msg) {
    tx_tensor *ser = single ? scalar_record(rec) : records(1, (const pb *[]){rec});
    tx_tensor *o[4] = {(tx_tensor *)1, (tx_tensor *)1, (tx_tensor *)1, (tx_tensor *)1};
    tu_assert_error(run_call(c, ser, o), TX_INVALID_ARGUMENT, msg);
    for (int i = 0; i < 4; i++) assert_null(o[i]);
    tx_tensor_free(ser);
}

static void test_errors(void **state) {
    (void)state;
    call c = call_of("s", TX_INT64, "d", TX_INT64, 1, TU_DIMS(2));
    pb ex = {.n = 0}, fs = {.n = 0}, f = {.n = 0};
    /* missing required */
    pb_example(&ex, &fs);
    expect(&c, &ex, false, "parse_example: Name: <unknown>, Feature: d (data type: int64) is "
           "required but could not be found.");
    expect(&c, &ex, true, "parse_single_example: Feature: d (data type: int64) is required but "
           "could not be found.");
    /* type mismatch, dense and sparse */
    feat_floats(&f, 2, (const float[]){1, 2}, 1);
    pb_entry(&fs, "d", &f);
    ex.n = 0;
    pb_example(&ex, &fs);
    expect(&c, &ex, false, "Name: <unknown>, Key: d, Index: 0.  Data types don't match. Data "
           "type: float but expected type: int64");
    expect(&c, &ex, true, "Key: d.  Data types don't match. Data type: float but expected type: "
           "int64");
    fs.n = 0;
    pb_entry(&fs, "s", &f);
    ex.n = 0;
    pb_example(&ex, &fs);
    expect(&c, &ex, false, "Key: s, Index: 0.  Data types don't match. Expected type: int64, "
           "Actual type: float");
    expect(&c, &ex, true, "Key: s.  Data types don't match. Expected type: int64, Actual type: "
           "float");
    /* wrong number of values */
    fs.n = 0;
    feat_int64s(&f, 3, (const int64_t[]){1, 2, 3}, 0);
    pb_entry(&fs, "d", &f);
    ex.n = 0;
    pb_example(&ex, &fs);
    expect(&c, &ex, false, "Key: d, Index: 0.  Number of int64 values != expected.  Values size: "
           "3 but output shape: [2]");
    expect(&c, &ex, true, "Key: d.  Can't parse serialized Example: Some int64_list slice was not "
           "parsed.");
    /* a broken list */
    fs.n = 0;
    f.n = 0;
    pb_field(&f, 0x1a, "\x08", 1);
    pb_entry(&fs, "d", &f);
    ex.n = 0;
    pb_example(&ex, &fs);
    expect(&c, &ex, false, "Key: d, Index: 0.  Can't parse serialized Example.");
    expect(&c, &ex, true, "Key: d.  Can't parse serialized Example: Parsing int64_list failed.");
    /* an unknown kind of Feature */
    fs.n = 0;
    f.n = 0;
    pb_field(&f, 0x22, "", 0);
    pb_entry(&fs, "s", &f);
    ex.n = 0;
    pb_example(&ex, &fs);
    expect(&c, &ex, false, "parse_example: Unsupported datatype.");
    /* not an Example */
    ex.n = 0;
    pb_raw(&ex, "\x0a\x05\x0a\x03", 4);
    expect(&c, &ex, false, "parse_example: Could not parse example input, value: '\\n\\005\\n\\003'");
    expect(&c, &ex, true, "Could not parse example input");
    ex.n = 0;
    pb_byte(&ex, 0x0b); /* a group */
    expect(&c, &ex, false, "Could not parse example input");
    call_free(&c);
}

/* The error TF meets first: entries are met from the last, so a later entry's error wins over an
 * earlier one's; the first failing record decides in a batch, and names name it. */
static void test_error_order(void **state) {
    (void)state;
    call c = call_of("s", TX_INT64, "d", TX_INT64, 1, TU_DIMS(2));
    pb ex = {.n = 0}, fs = {.n = 0}, f = {.n = 0}, good = {.n = 0}, gfs = {.n = 0};
    feat_floats(&f, 1, (const float[]){1}, 0);
    pb_entry(&fs, "d", &f); /* a dtype error, met second */
    pb_entry(&fs, "s", &f); /* a dtype error, met first */
    pb_example(&ex, &fs);
    expect(&c, &ex, false, "Key: s, Index: 0.  Data types don't match. Expected type: int64");
    feat_int64s(&f, 2, (const int64_t[]){1, 2}, 0);
    pb_entry(&gfs, "d", &f);
    pb_example(&good, &gfs);
    tx_tensor *ser = records(2, (const pb *[]){&good, &ex});
    tx_tensor *names = tu_strings(1, TU_DIMS(2), (const char *[]){"first", "second"});
    const int64_t *shapes[1] = {c.dims};
    const tx_tensor *defs[1] = {c.def};
    tx_tensor *o[4];
    tu_assert_error(tx_parse_example(ser, names, c.skeys, &c.stype, c.dkeys, defs, &c.rank, shapes, o),
                    TX_INVALID_ARGUMENT, "Name: second, Key: s, Index: 1.");
    tx_tensor_free(ser);
    tx_tensor_free(names);
    call_free(&c);
}

/* ---- hostile records ---------------------------------------------------------------------------- */

static void parse_any(const call *c, const unsigned char *b, size_t n, bool single) {
    pb rec = {.n = 0};
    pb_raw(&rec, b, n);
    tx_tensor *ser = single ? scalar_record(&rec) : records(1, (const pb *[]){&rec});
    tx_tensor *o[4] = {NULL};
    tx_status st = run_call(c, ser, o);
    assert_true(st == TX_OK || st == TX_INVALID_ARGUMENT);
    for (int i = 0; i < 4; i++) {
        if (st != TX_OK) assert_null(o[i]);
        tx_tensor_free(o[i]);
    }
    tx_tensor_free(ser);
}

/* Every cut and every flipped bit of a record with every kind of list gives a result or
 * invalid_argument, never a read out of bounds (the sanitizer builds check that). */
static void test_hostile_records(void **state) {
    (void)state;
    pb ex = {.n = 0}, fs = {.n = 0}, f = {.n = 0};
    feat_floats(&f, 2, (const float[]){1, 2}, 1);
    pb_entry(&fs, "d", &f);
    feat_floats(&f, 2, (const float[]){3, 4}, 0);
    pb_entry(&fs, "s", &f);
    feat_bytes(&f, 2, (const char *[]){"xy", "z"});
    pb_entry(&fs, "t", &f);
    feat_int64s(&f, 2, (const int64_t[]){-5, 300}, 1);
    pb_entry(&fs, "s", &f);
    pb_example(&ex, &fs);
    pb_field(&ex, 0x12, "zz", 2);
    call cf = call_of("s", TX_FLOAT32, "d", TX_FLOAT32, 1, TU_DIMS(2));
    call ci = call_of("s", TX_INT64, "t", TX_STRING, 1, TU_DIMS(2));
    for (int single = 0; single < 2; single++) {
        for (size_t cut = 0; cut <= ex.n; cut++) {
            parse_any(&cf, ex.b, cut, single);
            parse_any(&ci, ex.b, cut, single);
        }
        for (size_t bit = 0; bit < ex.n * 8; bit++) {
            unsigned char b[512];
            memcpy(b, ex.b, ex.n);
            b[bit / 8] ^= (unsigned char)(1u << (bit % 8));
            parse_any(&cf, b, ex.n, single);
            parse_any(&ci, b, ex.n, single);
        }
    }
    /* lengths that lie: huge varints everywhere */
    const unsigned char lies[][12] = {
        {0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0a, 0x02, 0x0a, 0x00},
        {0x0a, 0x08, 0x0a, 0x06, 0x0a, 0x01, 0x64, 0x12, 0xff, 0xff, 0xff, 0x7f},
        {0x12, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0a, 0x00},
        {0x12, 0x80, 0x80, 0x80, 0x80, 0x08, 0x0a, 0x00},
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++)
        for (int single = 0; single < 2; single++) {
            parse_any(&cf, lies[i], sizeof lies[i], single);
            parse_any(&ci, lies[i], sizeof lies[i], single);
        }
    call_free(&cf);
    call_free(&ci);
}

/* A packed float list whose length promises more than the bytes hold fails; one that a dense
 * feature reads only in part succeeds as TF's does. */
static void test_packed_lengths(void **state) {
    (void)state;
    pb ex = {.n = 0}, fs = {.n = 0}, f = {.n = 0}, list = {.n = 0};
    pb_byte(&list, 0x0a);
    pb_varint(&list, 400); /* 100 floats promised, 2 present */
    pb_fixed32(&list, 0x3f800000u);
    pb_fixed32(&list, 0x40000000u);
    pb_sub(&f, 0x12, &list);
    pb_entry(&fs, "v", &f);
    pb_example(&ex, &fs);
    call c = call_of("v", TX_FLOAT32, "x", TX_FLOAT32, 0, NULL);
    tx_tensor_free(c.def);
    c.def = tu_tensor(TX_FLOAT32, 0, NULL, TU_VALS(0));
    expect(&c, &ex, false, "Key: v, Index: 0.  Can't parse serialized Example.");
    expect(&c, &ex, true, "Key: v.  Can't parse serialized Example: Parsing float_list failed.");
    call_free(&c);
    /* a dense feature of 1 value reads one float, then counts 100 */
    c = call_of("y", TX_FLOAT32, "v", TX_FLOAT32, 0, NULL);
    expect(&c, &ex, false, "Number of float values != expected.  Values size: 100 but output "
           "shape: []");
    call_free(&c);
}

/* ---- arguments and allocation ----------------------------------------------------------------- */

static void test_argument_errors(void **state) {
    (void)state;
    pb ex = {.n = 0}, fs = {.n = 0};
    pb_example(&ex, &fs);
    tx_tensor *ser = records(1, (const pb *[]){&ex});
    tx_tensor *one = scalar_record(&ex);
    tx_tensor *k = keys(1, (const char *[]){"a"});
    tx_tensor *kk = keys(2, (const char *[]){"a", "a"});
    tx_tensor *def = tu_tensor(TX_INT32, 1, TU_DIMS(0), NULL);
    tx_tensor *def3 = tu_tensor(TX_INT64, 1, TU_DIMS(3), NULL);
    tx_tensor *o[8];
    const tx_dtype bad[1] = {TX_INT32}, good[2] = {TX_INT64, TX_INT64};
    const size_t r1[1] = {1};
    const int64_t *s2[1] = {TU_DIMS(2)}, *sneg[1] = {TU_DIMS(-1)};
    tu_assert_error(tx_parse_example(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, o),
                    TX_INVALID_ARGUMENT, "parse_example: serialized is NULL");
    tu_assert_error(tx_parse_example(ser, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
                    TX_INVALID_ARGUMENT, "outs is NULL");
    /* without features no record is read, as in TF: "a" is no Example, and no error */
    assert_int_equal(tx_parse_example(k, NULL, NULL, NULL, NULL, NULL, NULL, NULL, o), TX_OK);
    tu_assert_error(tx_parse_example(k, NULL, k, good, NULL, NULL, NULL, NULL, o),
                    TX_INVALID_ARGUMENT, "Could not parse example input, value: 'a'");
    tu_assert_error(tx_parse_example(def, NULL, NULL, NULL, NULL, NULL, NULL, NULL, o),
                    TX_INVALID_ARGUMENT, "serialized must be a string tensor");
    tu_assert_error(tx_parse_single_example(ser, NULL, NULL, NULL, NULL, NULL, NULL, o),
                    TX_INVALID_ARGUMENT, "serialized must be a scalar");
    tu_assert_error(tx_parse_example(ser, NULL, k, bad, NULL, NULL, NULL, NULL, o),
                    TX_UNIMPLEMENTED, "sparse_types[0] is int32");
    tu_assert_error(tx_parse_example(ser, NULL, k, NULL, NULL, NULL, NULL, NULL, o),
                    TX_INVALID_ARGUMENT, "sparse_types must be given");
    tu_assert_error(tx_parse_example(ser, NULL, kk, good, NULL, NULL, NULL, NULL, o),
                    TX_INVALID_ARGUMENT, "the feature key 'a' is given twice");
    tu_assert_error(tx_parse_example(ser, NULL, NULL, NULL, k, (const tx_tensor *[]){def}, r1, s2, o),
                    TX_UNIMPLEMENTED, "dense_defaults[0] is int32");
    tu_assert_error(tx_parse_example(ser, NULL, NULL, NULL, k, (const tx_tensor *[]){def3}, r1, s2, o),
                    TX_INVALID_ARGUMENT, "def_value[0].shape() == [3] is not compatible with "
                    "dense_shapes_[0] == [2]");
    tu_assert_error(tx_parse_example(ser, NULL, NULL, NULL, k, (const tx_tensor *[]){def3}, r1, sneg, o),
                    TX_INVALID_ARGUMENT, "dense_shapes[0][0] is -1");
    tu_assert_error(tx_parse_example(ser, NULL, NULL, NULL, k, NULL, r1, s2, o),
                    TX_INVALID_ARGUMENT, "dense_defaults, dense_ranks and dense_shapes must be given");
    tu_assert_error(tx_parse_example(ser, kk, NULL, NULL, NULL, NULL, NULL, NULL, o),
                    TX_INVALID_ARGUMENT, "names must be a string tensor with one name per record");
    tu_assert_error(tx_parse_example(ser, NULL, def, NULL, NULL, NULL, NULL, NULL, o),
                    TX_INVALID_ARGUMENT, "sparse_keys must be a 1-D string tensor");
    tu_assert_error(tx_parse_example(one, NULL, NULL, NULL, NULL, NULL, NULL, NULL, o), TX_OK, "");
    tx_tensor *tbl[5] = {ser, one, k, kk, def};
    for (int i = 0; i < 5; i++) tx_tensor_free(tbl[i]);
    tx_tensor_free(def3);
}

/* Every allocation failure leaves every output NULL and nothing leaked. */
static void test_allocation_failures(void **state) {
    (void)state;
    pb ex = {.n = 0}, fs = {.n = 0}, f = {.n = 0};
    feat_bytes(&f, 2, (const char *[]){"p", "q"});
    pb_entry(&fs, "s", &f);
    pb_entry(&fs, "d", &f);
    pb_example(&ex, &fs);
    call c = call_of("s", TX_STRING, "d", TX_STRING, 1, TU_DIMS(2));
    tx_tensor *ser = records(1, (const pb *[]){&ex});
    tu_alloc_install();
    for (long k = 1;; k++) {
        long live = tu_alloc_live();
        tu_alloc_fail_at(k);
        tx_tensor *o[4] = {NULL};
        tx_status st = run_call(&c, ser, o);
        tu_alloc_fail_at(0);
        if (st == TX_OK) {
            free_outs(o, 4);
            assert_int_equal(tu_alloc_live(), live);
            break;
        }
        assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        for (int i = 0; i < 4; i++) assert_null(o[i]);
        assert_int_equal(tu_alloc_live(), live);
        assert_true(k < 100);
    }
    tu_alloc_uninstall();
    tx_tensor_free(ser);
    call_free(&c);
}

/* Plan mode sizes the call exactly, and a plan of a bad record gives the run's error. */
static void test_plan(void **state) {
    (void)state;
    pb ex = {.n = 0}, fs = {.n = 0}, f = {.n = 0};
    feat_int64s(&f, 3, (const int64_t[]){1, 2, 3}, 1);
    pb_entry(&fs, "s", &f);
    pb_example(&ex, &fs);
    call c = call_of("s", TX_INT64, "d", TX_INT64, 1, TU_DIMS(2));
    tx_tensor_free(c.def);
    c.def = tu_tensor(TX_INT64, 1, TU_DIMS(2), TU_VALS(0, 0));
    tx_tensor *ser = records(1, (const pb *[]){&ex});
    tx_tensor *o[4] = {NULL};
    tx_output_info info[4];
    int64_t dims[8];
    tx_plan plan = TX_PLAN_INIT(info, 4, dims, 8);
    assert_int_equal(TX_PLAN(&plan, run_call(&c, ser, o)), TX_OK);
    assert_int_equal(plan.count, 4);
    assert_int_equal(plan.dims_count, 6);
    assert_int_equal(dims[0], 3); /* indices [3, 2] */
    assert_int_equal(dims[1], 2);
    for (int i = 0; i < 4; i++) assert_null(o[i]);
    tx_tensor_free(ser);
    ser = records(1, (const pb *[]){&fs}); /* a Features message is not an Example */
    plan = (tx_plan)TX_PLAN_INIT(info, 4, dims, 8);
    tu_assert_error(TX_PLAN(&plan, run_call(&c, ser, o)), TX_INVALID_ARGUMENT,
                    "Could not parse example input");
    tx_tensor_free(ser);
    call_free(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wire_varints),
        cmocka_unit_test(test_batch_values),
        cmocka_unit_test(test_single_values),
        cmocka_unit_test(test_duplicates_and_unknown_fields),
        cmocka_unit_test(test_fast_parser_rules),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_error_order),
        cmocka_unit_test(test_hostile_records),
        cmocka_unit_test(test_packed_lengths),
        cmocka_unit_test(test_argument_errors),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_plan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
