/* SPDX-License-Identifier: Apache-2.0 */
/* test_slicing.c -- slice and strided_slice: the examples of TF's page (with TF's real result where
 * the page is wrong), TF's edge cases and error rules (status + message), string tensors and int16
 * specs; and an allocation-failure sweep for every op of the family (slice, strided_slice, split,
 * split_v, unpack, tile, pad).  split and unpack are in test_split.c, tile in test_tile.c, pad in
 * test_pad.c. */
#include "slicing_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------------------- */

/* TF's page's 3x2x3 'input' [[[1,1,1],[2,2,2]], [[3,3,3],[4,4,4]], [[5,5,5],[6,6,6]]]. */
static tx_tensor *page_input(void) {
    return tu_tensor(TX_INT32, 3, TU_DIMS(3, 2, 3),
                     TU_VALS(1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6));
}

static tx_status do_strided_slice(const tx_tensor *in, size_t n, const int64_t *b, const int64_t *e,
                                  const int64_t *s, int32_t bm, int32_t em, int32_t ellm, int32_t nam,
                                  int32_t sam, tx_tensor **out) {
    tx_tensor *tb = tu_i64(n, b), *te = tu_i64(n, e), *ts = tu_i64(n, s);
    tx_status st = tx_strided_slice(in, tb, te, ts, bm, em, ellm, nam, sam, out);
    tx_tensor_free(tb);
    tx_tensor_free(te);
    tx_tensor_free(ts);
    return st;
}
#define SS(in, b, e, s, bm, em, ellm, nam, sam, out)                                               \
    do_strided_slice(in, sizeof(b) / sizeof(int64_t), b, e, s, bm, em, ellm, nam, sam, out)

/* ---- slice ----------------------------------------------------------------------------------- */

static void check_slice(const tx_tensor *in, size_t n, const int32_t *b, const int32_t *s, size_t rank,
                        const int64_t *dims, const double *vals) {
    tx_tensor *tb = tu_i32(n, b), *ts = tu_i32(n, s), *o = NULL;
    assert_int_equal(tx_slice(in, tb, ts, &o), TX_OK);
    tu_assert_shape(o, tx_tensor_dtype(in), rank, dims);
    tu_assert_values(o, vals);
    assert_false(tx_tensor_shares_buffer(o, in));
    tx_tensor_free(o);
    tx_tensor_free(tb);
    tx_tensor_free(ts);
}

static void test_slice_page_examples(void **state) {
    (void)state;
    tx_tensor *t = page_input();
    /* tf.slice(input, [1, 0, 0], [1, 1, 3]) ==> [[[3, 3, 3]]] */
    check_slice(t, 3, (int32_t[]){1, 0, 0}, (int32_t[]){1, 1, 3}, 3, TU_DIMS(1, 1, 3), TU_VALS(3, 3, 3));
    /* tf.slice(input, [1, 0, 0], [1, 2, 3]) ==> [[[3, 3, 3], [4, 4, 4]]] */
    check_slice(t, 3, (int32_t[]){1, 0, 0}, (int32_t[]){1, 2, 3}, 3, TU_DIMS(1, 2, 3),
                TU_VALS(3, 3, 3, 4, 4, 4));
    /* tf.slice(input, [1, 0, 0], [2, 1, 3]) ==> [[[3, 3, 3]], [[5, 5, 5]]] */
    check_slice(t, 3, (int32_t[]){1, 0, 0}, (int32_t[]){2, 1, 3}, 3, TU_DIMS(2, 1, 3),
                TU_VALS(3, 3, 3, 5, 5, 5));
    /* size -1 takes the rest of the dim: size[i] = D[i] - begin[i]. */
    check_slice(t, 3, (int32_t[]){1, 1, 1}, (int32_t[]){-1, -1, -1}, 3, TU_DIMS(2, 1, 2),
                TU_VALS(4, 4, 6, 6));
    /* begin == D with size 0 is allowed and gives an empty slice. */
    check_slice(t, 3, (int32_t[]){3, 0, 0}, (int32_t[]){0, 2, 3}, 3, TU_DIMS(0, 2, 3), TU_VALS(0));
    tx_tensor_free(t);
}

static void test_slice_edge_and_errors(void **state) {
    (void)state;
    tx_tensor *t = page_input(), *o = NULL;
    /* int64 begin/size. */
    tx_tensor *b = tu_i64(3, V(2, 1, 0)), *s = tu_i64(3, V(1, -1, 2));
    assert_int_equal(tx_slice(t, b, s, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(1, 1, 2));
    tu_assert_values(o, TU_VALS(6, 6));
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(s);

    struct {
        int64_t b[3], s[3];
        const char *frag;
    } bad[] = {
        {{0, 3, 0}, {1, 0, 1}, "expected begin[1] in [0, 2], but got 3"},
        {{-1, 0, 0}, {1, 1, 1}, "expected begin[0] in [0, 3], but got -1"},
        {{0, 0, 1}, {1, 1, 3}, "expected size[2] in [0, 2]"},
        {{0, 0, 0}, {1, -2, 1}, "expected size[1] in [0, 2]"},
        {{2, 0, 0}, {2, 1, 1}, "but got 2"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        b = tu_i64(3, bad[k].b);
        s = tu_i64(3, bad[k].s);
        o = (tx_tensor *)&o; /* must be reset to NULL */
        tu_assert_error(tx_slice(t, b, s, &o), TX_INVALID_ARGUMENT, bad[k].frag);
        assert_null(o);
        tx_tensor_free(b);
        tx_tensor_free(s);
    }
    /* Shape, dtype and NULL errors. */
    b = tu_i64(2, V(0, 0));
    s = tu_i64(2, V(1, 1));
    tu_assert_error(tx_slice(t, b, s, &o), TX_INVALID_ARGUMENT, "1-D tensors of size 3");
    tx_tensor_free(b);
    tx_tensor_free(s);
    b = tu_i32(3, (int32_t[]){0, 0, 0});
    s = tu_i64(3, V(1, 1, 1));
    tu_assert_error(tx_slice(t, b, s, &o), TX_INVALID_ARGUMENT, "same dtype");
    tx_tensor_free(s);
    s = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(1, 1, 1));
    /* TF 2.21 decides: Index comes from begin, so a float size beside an int32 begin is a dtype
     * mismatch (invalid_argument), and a float begin a dtype the op does not take
     * (unimplemented, checked before the lengths) */
    tu_assert_error(tx_slice(t, b, s, &o), TX_INVALID_ARGUMENT, "same dtype (TF's Index), got int32 and float32");
    tu_assert_error(tx_slice(t, s, b, &o), TX_UNIMPLEMENTED, "begin must be int32 or int64, got float32");
    tu_assert_error(tx_slice(t, NULL, s, &o), TX_INVALID_ARGUMENT, "begin is NULL");
    tu_assert_error(tx_slice(t, b, s, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tx_tensor_free(s);
    s = tu_tensor(TX_INT32, 2, TU_DIMS(1, 3), TU_VALS(1, 1, 1));
    tu_assert_error(tx_slice(t, b, s, &o), TX_INVALID_ARGUMENT, "but got shapes [3] and [1,3]");
    tx_tensor_free(s);
    tx_tensor_free(b);
    tx_tensor_free(t);

    /* A zero-size dim takes only begin 0 with size 0 (or -1). */
    t = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 0), NULL);
    b = tu_i64(2, V(1, 0));
    s = tu_i64(2, V(1, -1));
    assert_int_equal(tx_slice(t, b, s, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(1, 0));
    tx_tensor_free(o);
    tx_tensor_free(b);
    b = tu_i64(2, V(1, 1));
    tu_assert_error(tx_slice(t, b, s, &o), TX_INVALID_ARGUMENT,
                    "expected begin[1] == 0 (got 1) and size[1] == 0 (got -1) when input_.shape[1] == 0");
    tx_tensor_free(b);
    tx_tensor_free(s);
    /* INT64_MIN begin with size -1 must not overflow. */
    b = tu_i64(2, V(0, INT64_MIN));
    s = tu_i64(2, V(1, -1));
    tu_assert_error(tx_slice(t, b, s, &o), TX_INVALID_ARGUMENT, "begin[1] == 0");
    tx_tensor_free(b);
    tx_tensor_free(s);
    tx_tensor_free(t);

    /* A scalar takes empty begin/size. */
    t = tu_tensor(TX_FLOAT64, 0, NULL, TU_VALS(2.5));
    b = tu_i32(0, NULL);
    s = tu_i32(0, NULL);
    assert_int_equal(tx_slice(t, b, s, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT64, 0, NULL);
    tu_assert_values(o, TU_VALS(2.5));
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(s);
    tx_tensor_free(t);
}

static void test_slice_strings(void **state) {
    (void)state;
    tx_tensor *t = string_iota(2, TU_DIMS(3, 4)), *o = NULL;
    tx_tensor *b = tu_i32(2, (int32_t[]){1, 1}), *s = tu_i32(2, (int32_t[]){2, 2});
    assert_int_equal(tx_slice(t, b, s, &o), TX_OK);
    tx_tensor_free(t); /* the output keeps the string bytes alive */
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(2, 2));
    assert_strings(o, (const char *[]){"s5", "s6", "s9", "s10"});
    tx_tensor_free(o);
    tx_tensor_free(b);
    tx_tensor_free(s);
}

/* ---- strided_slice --------------------------------------------------------------------------- */

static void check_ss(const tx_tensor *in, size_t n, const int64_t *b, const int64_t *e, const int64_t *s,
                     int32_t bm, int32_t em, int32_t ellm, int32_t nam, int32_t sam, size_t rank,
                     const int64_t *dims, const double *vals) {
    tx_tensor *o = NULL;
    tx_status st = do_strided_slice(in, n, b, e, s, bm, em, ellm, nam, sam, &o);
    if (st != TX_OK) fail_msg("strided_slice failed: %s", tx_last_error());
    tu_assert_shape(o, tx_tensor_dtype(in), rank, dims);
    if (vals) tu_assert_values(o, vals);
    tx_tensor_free(o);
}
#define CHECK_SS(in, b, e, s, bm, em, ellm, nam, sam, rank, dims, vals)                            \
    check_ss(in, sizeof(b) / sizeof(int64_t), b, e, s, bm, em, ellm, nam, sam, rank, dims, vals)

static void test_strided_slice_page_examples(void **state) {
    (void)state;
    tx_tensor *t = page_input();
    /* The page writes these as tf.slice with four arguments; they are tf.strided_slice calls. */
    CHECK_SS(t, V(1, 0, 0), V(2, 1, 3), V(1, 1, 1), 0, 0, 0, 0, 0, 3, TU_DIMS(1, 1, 3), TU_VALS(3, 3, 3));
    CHECK_SS(t, V(1, 0, 0), V(2, 2, 3), V(1, 1, 1), 0, 0, 0, 0, 0, 3, TU_DIMS(1, 2, 3),
             TU_VALS(3, 3, 3, 4, 4, 4));
    /* The page claims strided_slice(input, [1, 1, 0], [2, -1, 3], [1, -1, 1]) gives
     * [[[4, 4, 4], [3, 3, 3]]].  That is wrong: in dim 1 (size 2) end -1 means index 1, so the
     * range 1:1:-1 is empty and TF returns an empty tensor of shape [1, 0, 3].  TF's later docs
     * use begin [1, -1, 0], end [2, -3, 3] for the page's result (checked next). */
    CHECK_SS(t, V(1, 1, 0), V(2, -1, 3), V(1, -1, 1), 0, 0, 0, 0, 0, 3, TU_DIMS(1, 0, 3), NULL);
    CHECK_SS(t, V(1, -1, 0), V(2, -3, 3), V(1, -1, 1), 0, 0, 0, 0, 0, 3, TU_DIMS(1, 2, 3),
             TU_VALS(4, 4, 4, 3, 3, 3));
    tx_tensor_free(t);

    /* foo[5:,:,:3] on a 7x8x9 tensor is foo[5:7,0:8,0:3]. */
    t = iota(TX_INT32, 3, TU_DIMS(7, 8, 9));
    CHECK_SS(t, V(5, 0, 0), V(0, 0, 3), V(1, 1, 1), 0x2, 0x3, 0, 0, 0, 3, TU_DIMS(2, 8, 3), NULL);
    tx_tensor *o1 = NULL, *o2 = NULL;
    assert_int_equal(SS(t, V(5, 0, 0), V(0, 0, 3), V(1, 1, 1), 0x2, 0x3, 0, 0, 0, &o1), TX_OK);
    assert_int_equal(SS(t, V(5, 0, 0), V(7, 8, 3), V(1, 1, 1), 0, 0, 0, 0, 0, &o2), TX_OK);
    assert_memory_equal(tx_tensor_data(o1), tx_tensor_data(o2), tx_tensor_nbytes(o2));
    assert_int_equal(((int32_t *)tx_tensor_data(o1))[0], 5 * 72 + 1);
    tx_tensor_free(o1);
    tx_tensor_free(o2);
    tx_tensor_free(t);
    /* foo[::-1] reverses a tensor of shape 8. */
    t = iota(TX_INT64, 1, TU_DIMS(8));
    CHECK_SS(t, V(0), V(0), V(-1), 1, 1, 0, 0, 0, 1, TU_DIMS(8), TU_VALS(8, 7, 6, 5, 4, 3, 2, 1));
    tx_tensor_free(t);
    /* foo[3:5,...,4:5] on 10x3x3x10 is foo[3:5,:,:,4:5]; foo[3:5,...] is foo[3:5,:,:,:]. */
    t = iota(TX_INT16, 4, TU_DIMS(10, 3, 3, 10));
    CHECK_SS(t, V(3, 0, 4), V(5, 0, 5), V(1, 1, 1), 0, 0, 0x2, 0, 0, 4, TU_DIMS(2, 3, 3, 1), NULL);
    CHECK_SS(t, V(3, 0), V(5, 0), V(1, 1), 0, 0, 0x2, 0, 0, 4, TU_DIMS(2, 3, 3, 10), NULL);
    tx_tensor_free(t);
    /* foo[3:5,4] on 10x8 has shape [2]; foo[3:5,4:5] has shape [2,1]. */
    t = iota(TX_FLOAT32, 2, TU_DIMS(10, 8));
    CHECK_SS(t, V(3, 4), V(5, 5), V(1, 1), 0, 0, 0, 0, 0x2, 1, TU_DIMS(2), TU_VALS(29, 37));
    CHECK_SS(t, V(3, 4), V(5, 5), V(1, 1), 0, 0, 0, 0, 0, 2, TU_DIMS(2, 1), TU_VALS(29, 37));
    tx_tensor_free(t);
}

static void test_strided_slice_rules(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 2, TU_DIMS(3, 4)), *o = NULL; /* [[1..4],[5..8],[9..12]] */
    /* Python clamping: t[-100:100, 1:-1]. */
    CHECK_SS(t, V(-100, 1), V(100, -1), V(1, 1), 0, 0, 0, 0, 0, 2, TU_DIMS(3, 2),
             TU_VALS(2, 3, 6, 7, 10, 11));
    /* t[::2, ::-3]: stride 2 and -3 with masks. */
    CHECK_SS(t, V(0, 0), V(0, 0), V(2, -3), 3, 3, 0, 0, 0, 2, TU_DIMS(2, 2), TU_VALS(4, 1, 12, 9));
    /* t[100:-100:-1, 2]: negative stride clamps begin to D-1 and end to -1 (before 0). */
    CHECK_SS(t, V(100, 2), V(-100, 3), V(-1, 1), 0, 0, 0, 0, 2, 1, TU_DIMS(3), TU_VALS(11, 7, 3));
    /* t[-1] (shrink: begin -1, end 0) is the last row; t[1, -1] is one element. */
    CHECK_SS(t, V(-1), V(0), V(1), 0, 0, 0, 0, 1, 1, TU_DIMS(4), TU_VALS(9, 10, 11, 12));
    CHECK_SS(t, V(1, -1), V(2, 0), V(1, 1), 0, 0, 0, 0, 3, 0, NULL, TU_VALS(8));
    /* Shrink ignores the masks and takes stride 2 (only stride <= 0 is refused). */
    CHECK_SS(t, V(2), V(0), V(2), 1, 1, 0, 0, 1, 1, TU_DIMS(4), TU_VALS(9, 10, 11, 12));
    /* t[tf.newaxis, ..., tf.newaxis] and t[:, tf.newaxis]. */
    CHECK_SS(t, V(0, 0, 0), V(0, 0, 0), V(1, 1, 1), 0, 0, 0x2, 0x5, 0, 4, TU_DIMS(1, 3, 4, 1), NULL);
    CHECK_SS(t, V(0, 0), V(0, 0), V(1, 1), 1, 1, 0, 0x2, 0, 3, TU_DIMS(3, 1, 4), NULL);
    /* t[..., tf.newaxis, 1]: new axes after the ellipsis do not consume input dims. */
    CHECK_SS(t, V(0, 0, 1), V(0, 0, 2), V(1, 1, 1), 0, 0, 0x1, 0x2, 0x4, 2, TU_DIMS(3, 1), TU_VALS(2, 6, 10));
    /* new_axis wins over shrink; ellipsis wins over new_axis. */
    CHECK_SS(t, V(0), V(0), V(1), 0, 0, 0, 1, 1, 3, TU_DIMS(1, 3, 4), NULL);
    CHECK_SS(t, V(0), V(0), V(1), 0, 0, 1, 1, 0, 2, TU_DIMS(3, 4), NULL);
    /* An ellipsis bit at or beyond n does not count: the implied one is at the end. */
    CHECK_SS(t, V(1), V(2), V(1), 0, 0, 0x10, 0, 0, 2, TU_DIMS(1, 4), TU_VALS(5, 6, 7, 8));
    /* Mask bits beyond n are ignored, bit 31 included. */
    CHECK_SS(t, V(1), V(2), V(1), (int32_t)0x80000000, (int32_t)0xfffffff0, 0, (int32_t)0x80000000, 0, 2,
             TU_DIMS(1, 4), TU_VALS(5, 6, 7, 8));
    /* No specs at all: the whole tensor. */
    check_ss(t, 0, NULL, NULL, NULL, 0, 0, 0, 0, 0, 2, TU_DIMS(3, 4), NULL);
    /* Empty ranges: begin >= end with a positive stride, and the reverse. */
    CHECK_SS(t, V(2, 0), V(1, 4), V(1, 1), 0, 0, 0, 0, 0, 2, TU_DIMS(0, 4), NULL);
    CHECK_SS(t, V(0, 0), V(2, 4), V(-1, 1), 0, 0, 0, 0, 0, 2, TU_DIMS(0, 4), NULL);
    /* A huge stride steps once. */
    CHECK_SS(t, V(1, 0), V(3, 4), V(INT64_MAX, INT64_MIN), 0, 0, 0, 0, 0, 2, TU_DIMS(1, 0), NULL);
    CHECK_SS(t, V(1, 3), V(3, 0), V(INT64_MAX, INT64_MIN), 0, 0, 0, 0, 0, 2, TU_DIMS(1, 1), TU_VALS(8));
    /* int32 index tensors. */
    tx_tensor *b = tu_i32(2, (int32_t[]){0, 1}), *e = tu_i32(2, (int32_t[]){3, 3}),
              *s = tu_i32(2, (int32_t[]){2, 1});
    assert_int_equal(tx_strided_slice(t, b, e, s, 0, 0, 0, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_values(o, TU_VALS(2, 3, 10, 11));
    tx_tensor_free(o);

    /* Errors. */
    tu_assert_error(SS(t, V(0, 0), V(1, 1), V(1, 0), 0, 0, 0, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "strides[1] must be non-zero");
    assert_null(o);
    tu_assert_error(SS(t, V(3), V(4), V(1), 0, 0, 0, 0, 1, &o), TX_INVALID_ARGUMENT,
                    "slice index 3 of dimension 0 out of bounds");
    tu_assert_error(SS(t, V(0, -5), V(1, 0), V(1, 1), 0, 0, 0, 0, 2, &o), TX_INVALID_ARGUMENT,
                    "slice index -5 of dimension 1 out of bounds");
    tu_assert_error(SS(t, V(1), V(0), V(-1), 0, 0, 0, 0, 1, &o), TX_INVALID_ARGUMENT,
                    "only stride 1 allowed on non-range indexing");
    tu_assert_error(SS(t, V(0, 0), V(1, 1), V(1, 1), 0, 0, 3, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "multiple ellipses");
    tu_assert_error(SS(t, V(0, 0), V(1, 1), V(1, 1), 0, 0, (int32_t)0x80000001, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "multiple ellipses");
    tu_assert_error(SS(t, V(0, 0, 0), V(1, 1, 1), V(1, 1, 1), 0, 0, 0, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "index out of range using input dim 2; input has only 2 dims");
    /* A new axis does not use an input dim, so three specs with one new axis fit. */
    CHECK_SS(t, V(0, 0, 0), V(1, 1, 1), V(1, 1, 1), 0, 0, 0, 2, 0, 3, TU_DIMS(1, 1, 1), TU_VALS(1));
    tx_tensor_free(s);
    s = tu_i32(3, (int32_t[]){1, 1, 1});
    tu_assert_error(tx_strided_slice(t, b, e, s, 0, 0, 0, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "1-D tensors of one size");
    tx_tensor_free(s);
    s = tu_i64(2, V(1, 1));
    tu_assert_error(tx_strided_slice(t, b, e, s, 0, 0, 0, 0, 0, &o), TX_INVALID_ARGUMENT, "same dtype");
    tu_assert_error(tx_strided_slice(t, b, NULL, s, 0, 0, 0, 0, 0, &o), TX_INVALID_ARGUMENT, "end is NULL");
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(s);
    int64_t many[32] = {0}, ones[32];
    for (int i = 0; i < 32; i++) ones[i] = 1;
    tu_assert_error(do_strided_slice(t, 32, many, many, ones, 0, 0, 1, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "below 32");
    /* 31 specs are fine when most are new axes. */
    assert_int_equal(do_strided_slice(t, 31, many, many, ones, 0, 0, 1, 0x7ffffffe, 0, &o), TX_OK);
    assert_int_equal(tx_tensor_rank(o), 32);
    tx_tensor_free(o);
    tx_tensor_free(t);

    /* Scalars: an index is refused, an ellipsis or a new axis is fine. */
    t = tu_tensor(TX_INT8, 0, NULL, TU_VALS(7));
    tu_assert_error(SS(t, V(0), V(1), V(1), 0, 0, 0, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "attempting to slice scalar input");
    CHECK_SS(t, V(0), V(0), V(1), 0, 0, 1, 0, 0, 0, NULL, TU_VALS(7));
    CHECK_SS(t, V(0), V(0), V(1), 0, 0, 0, 1, 0, 1, TU_DIMS(1), TU_VALS(7));
    tx_tensor_free(t);

    /* Zero-size dims. */
    t = tu_tensor(TX_FLOAT32, 3, TU_DIMS(2, 0, 3), NULL);
    CHECK_SS(t, V(0, 0, 1), V(2, 5, 3), V(-1, 1, 1), 0, 0, 0, 0, 0, 3, TU_DIMS(0, 0, 2), NULL);
    CHECK_SS(t, V(1, 0, 1), V(2, 0, 3), V(1, 1, 1), 0, 0, 0, 0, 1, 2, TU_DIMS(0, 2), NULL);
    tu_assert_error(SS(t, V(0, 0), V(1, 1), V(1, 1), 0, 0, 0, 0, 2, &o), TX_INVALID_ARGUMENT,
                    "slice index 0 of dimension 1 out of bounds");
    tx_tensor_free(t);
}

static void test_strided_slice_strings(void **state) {
    (void)state;
    tx_tensor *t = string_iota(2, TU_DIMS(2, 3)), *o = NULL;
    assert_int_equal(SS(t, V(0, 0), V(0, 0), V(-1, -2), 3, 3, 0, 0, 0, &o), TX_OK);
    tx_tensor_free(t);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(2, 2));
    assert_strings(o, (const char *[]){"s5", "s3", "s2", "s0"});
    tx_tensor_free(o);
}

/* StridedSlice's Index attr is {int16, int32, int64} (tensorflow/core/ops/array_ops.cc); the CPU
 * kernel has no Index constraint (strided_slice_op.cc) and ValidateStridedSliceOp
 * (util/strided_slice_op.cc) builds the dense spec from int16 as from int32 and int64.  Random
 * specs within int16 give the same result with each index dtype, int16's extremes clamp like the
 * others, and the three tensors still need one dtype. */
static tx_tensor *spec(tx_dtype dt, size_t n, const int64_t *v) {
    double d[32];
    for (size_t i = 0; i < n; i++) d[i] = (double)v[i];
    return tu_tensor(dt, 1, (int64_t[]){(int64_t)n}, d);
}

static void test_strided_slice_int16(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 3, TU_DIMS(3, 4, 5)), *o = NULL;
    int nonempty = 0, refused = 0; /* both paths must have run */
    for (int trial = 0; trial < 400; trial++) {
        size_t n = 1 + (size_t)rnd(4);
        int64_t b[4], e[4], st[4];
        for (size_t i = 0; i < n; i++) {
            b[i] = rnd(5) == 0 ? (rnd(2) ? -32768 : 32767) : rnd(13) - 6;
            e[i] = rnd(5) == 0 ? (rnd(2) ? -32768 : 32767) : rnd(13) - 6;
            st[i] = rnd(2) ? rnd(3) + 1 : -(rnd(3) + 1);
        }
        int32_t bm = (int32_t)rnd(16), em = (int32_t)rnd(16), ellm = rnd(3) == 0 ? (int32_t)(1 << rnd((int64_t)n)) : 0;
        int32_t nam = rnd(4) == 0 ? (int32_t)(1 << rnd((int64_t)n)) : 0, sam = (int32_t)rnd(16) & ~ellm & ~nam;
        tx_tensor *r[3] = {NULL, NULL, NULL};
        tx_status sts[3];
        char msg[3][256];
        const tx_dtype dts[3] = {TX_INT16, TX_INT32, TX_INT64};
        for (int k = 0; k < 3; k++) {
            tx_tensor *tb = spec(dts[k], n, b), *te = spec(dts[k], n, e), *ts = spec(dts[k], n, st);
            sts[k] = tx_strided_slice(t, tb, te, ts, bm, em, ellm, nam, sam, &r[k]);
            snprintf(msg[k], sizeof msg[k], "%s", tx_last_error());
            tx_tensor_free(tb);
            tx_tensor_free(te);
            tx_tensor_free(ts);
        }
        for (int k = 1; k < 3; k++) {
            assert_int_equal(sts[0], sts[k]);
            assert_string_equal(msg[0], msg[k]);
            if (sts[0] != TX_OK) continue;
            assert_int_equal(tx_tensor_rank(r[0]), tx_tensor_rank(r[k]));
            assert_memory_equal(tx_tensor_dims(r[0]), tx_tensor_dims(r[k]), tx_tensor_rank(r[0]) * sizeof(int64_t));
            assert_memory_equal(tx_tensor_data(r[0]), tx_tensor_data(r[k]), tx_tensor_nbytes(r[0]));
        }
        if (sts[0] == TX_OK) nonempty += tx_tensor_numel(r[0]) > 0;
        else refused++;
        for (int k = 0; k < 3; k++) tx_tensor_free(r[k]);
    }
    assert_true(nonempty > 100);
    assert_true(refused > 20);
    /* t[-32768:32767:2, 1] with int16 specs: rows 0 and 2, column 1 (iota counts from 1). */
    tx_tensor *b = spec(TX_INT16, 2, V(-32768, 1)), *e = spec(TX_INT16, 2, V(32767, 2)), *s = spec(TX_INT16, 2, V(2, 1));
    assert_int_equal(tx_strided_slice(t, b, e, s, 0, 0, 0, 0, 2, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 5));
    tu_assert_values(o, TU_VALS(6, 7, 8, 9, 10, 46, 47, 48, 49, 50));
    tx_tensor_free(o);
    tx_tensor *s32 = spec(TX_INT32, 2, V(2, 1));
    tu_assert_error(tx_strided_slice(t, b, e, s32, 0, 0, 0, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "begin, end and strides must have the same dtype (TF's Index), got int16, int16, int32");
    tx_tensor *u16 = tu_tensor(TX_UINT16, 1, TU_DIMS(2), TU_VALS(1, 1));
    /* TF 2.21 decides: Index comes from begin; a begin dtype the op does not take is
     * unimplemented (before the lengths), another dtype for end or strides invalid_argument */
    tu_assert_error(tx_strided_slice(t, u16, e, s, 0, 0, 0, 0, 0, &o), TX_UNIMPLEMENTED,
                    "begin must be int16, int32 or int64, got uint16");
    tu_assert_error(tx_strided_slice(t, u16, s32, u16, 0, 0, 0, 0, 0, &o), TX_UNIMPLEMENTED,
                    "begin must be int16, int32 or int64, got uint16");
    tu_assert_error(tx_strided_slice(t, b, e, u16, 0, 0, 0, 0, 0, &o), TX_INVALID_ARGUMENT,
                    "same dtype (TF's Index), got int16, int16, uint16");
    tx_tensor *tt[] = {t, b, e, s, s32, u16};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* ---- allocation failures --------------------------------------------------------------------- */

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 3, TU_DIMS(3, 2, 3));
    tx_tensor *st = string_iota(2, TU_DIMS(2, 3));
    tx_tensor *b = tu_i32(3, (int32_t[]){1, 0, 0}), *s = tu_i32(3, (int32_t[]){2, -1, 2});
    tx_tensor *e = tu_i32(3, (int32_t[]){3, 2, 3}), *k1 = tu_i32(3, (int32_t[]){1, -1, 2});
    tx_tensor *b2 = tu_i32(2, (int32_t[]){0, 1}), *s2 = tu_i32(2, (int32_t[]){2, -1});
    tx_tensor *m = tu_i32(3, (int32_t[]){2, 3, 1}), *m2 = tu_i32(2, (int32_t[]){2, 2});
    tx_tensor *p = tu_tensor(TX_INT64, 2, TU_DIMS(3, 2), TU_VALS(1, 1, 1, 0, 0, 2));
    tx_tensor *p2 = tu_tensor(TX_INT64, 2, TU_DIMS(2, 2), TU_VALS(1, 0, 1, 2));
    const char *one = "c";
    size_t len = 1;
    tx_tensor *cv = NULL;
    assert_int_equal(tx_tensor_new_strings(0, NULL, &one, &len, &cv), TX_OK);
    tu_alloc_install();
    for (int op = 0; op < 14; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[4] = {NULL, NULL, NULL, NULL};
            tx_status rc;
            size_t nout = 1;
            switch (op) {
            case 0: rc = tx_slice(t, b, s, &o); break;
            case 1: rc = tx_slice(st, b2, s2, &o); break;
            case 2: rc = tx_strided_slice(t, b, e, k1, 0, 0, 0, 0, 0, &o); break;
            case 3: rc = tx_strided_slice(st, b, e, k1, 0, 0, 0, 4, 1, &o); break;
            case 4: rc = tx_split(t, 2, 3, outs); nout = 3; break;
            case 5: rc = tx_split_v(st, (int64_t[]){1, -1}, 2, 1, outs); nout = 2; break;
            case 6: rc = tx_unpack(t, TX_UNPACK_INFER_NUM, 0, outs); nout = 3; break;
            case 7: rc = tx_unpack(st, 3, 1, outs); nout = 3; break;
            case 8: rc = tx_tile(t, m, &o); break;
            case 9: rc = tx_tile(st, m2, &o); break;
            case 10: rc = tx_pad(t, p, TX_PAD_CONSTANT, NULL, &o); break;
            case 11: rc = tx_pad(st, p2, TX_PAD_CONSTANT, cv, &o); break;
            case 12: rc = tx_pad(t, p, TX_PAD_SYMMETRIC, NULL, &o); break;
            default: rc = tx_pad(st, p2, TX_PAD_REFLECT, NULL, &o); break;
            }
            if (rc == TX_OK) {
                tx_tensor_free(o);
                for (size_t i = 0; i < nout; i++) tx_tensor_free(outs[i]);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            if (rc != TX_RESOURCE_EXHAUSTED) fail_msg("op %d, k %ld: %s: %s", op, k, tx_status_name(rc), tx_last_error());
            assert_null(o);
            for (size_t i = 0; i < nout; i++) assert_null(outs[i]);
            assert_int_equal(tu_alloc_live(), 0);
        }
    }
    tu_alloc_uninstall();
    tx_tensor *all[] = {t, st, b, s, b2, s2, e, k1, m, m2, p, p2, cv};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) tx_tensor_free(all[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slice_page_examples),
        cmocka_unit_test(test_slice_edge_and_errors),
        cmocka_unit_test(test_slice_strings),
        cmocka_unit_test(test_strided_slice_page_examples),
        cmocka_unit_test(test_strided_slice_rules),
        cmocka_unit_test(test_strided_slice_strings),
        cmocka_unit_test(test_strided_slice_int16),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
