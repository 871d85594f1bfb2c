/* SPDX-License-Identifier: Apache-2.0 */
/* test_onnx_presets.c -- the ONNX semantics presets in the slicing, spatial and unique ops: pad
 * modes EDGE and WRAP (ONNX Pad-19 'edge'/'wrap'), tx_split_uneven (ONNX Split-18 num_outputs),
 * tx_depth_to_space_in_mode with TX_DEPTH_CRD (ONNX DepthToSpace mode CRD) and
 * tx_unique_with_counts_in_mode with TX_UNIQUE_SORTED (ONNX Unique sorted=1).  The ONNX
 * specification's examples, edge cases (wrap past the dim, NaN and signed zero, strings), the TF
 * default without a preset, errors (status + message) and an allocation-failure sweep for each
 * preset. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------------------- */

static tx_tensor *pads_of(size_t r, const int64_t *p) {
    double v[16];
    for (size_t i = 0; i < 2 * r; i++) v[i] = (double)p[i];
    return tu_tensor(TX_INT64, 2, TU_DIMS((int64_t)r, 2), v);
}

static tx_status do_pad(const tx_tensor *t, size_t r, const int64_t *pads, tx_pad_mode mode,
                        tx_tensor **out) {
    tx_tensor *p = pads_of(r, pads);
    tx_status st = tx_pad(t, p, mode, NULL, out);
    tx_tensor_free(p);
    return st;
}

static void assert_strings(const tx_tensor *t, const char *const *want) {
    const tx_string *s = (const tx_string *)tx_tensor_data_const(t);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        size_t n = strlen(want[i]);
        if (s[i].size != n || (n && memcmp(s[i].data, want[i], n) != 0))
            fail_msg("string %lld: got '%.*s', want '%s'", (long long)i, (int)s[i].size,
                     s[i].data ? s[i].data : "", want[i]);
    }
}

static void free3(tx_tensor **o) {
    for (int i = 0; i < 3; i++) tx_tensor_free(o[i]);
}

static const int64_t *I(const int64_t *v) { return v; }
#define V(...) I((const int64_t[]){__VA_ARGS__})

/* ---- pad EDGE / WRAP --------------------------------------------------------------------------- */

/* ONNX Pad's documented examples (float32 data, pads in ONNX's [b1, b2, e1, e2] order turned into
 * TF's [[b1, e1], [b2, e2]]). */
static void test_pad_onnx_examples(void **state) {
    (void)state;
    tx_tensor *d = tu_tensor(TX_FLOAT32, 2, TU_DIMS(3, 2), TU_VALS(1.0f, 1.2f, 2.3f, 3.4f, 4.5f, 5.7f));
    tx_tensor *o = NULL;
    /* mode 'edge', pads = [0, 2, 0, 0]. */
    assert_int_equal(do_pad(d, 2, V(0, 0, 2, 0), TX_PAD_EDGE, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(3, 4));
    tu_assert_values(o, TU_VALS(1.0f, 1.0f, 1.0f, 1.2f, 2.3f, 2.3f, 2.3f, 3.4f, 4.5f, 4.5f, 4.5f, 5.7f));
    tx_tensor_free(o);
    /* mode 'wrap', pads = [2, 1, 1, 1] (Pad-19). */
    assert_int_equal(do_pad(d, 2, V(2, 1, 1, 1), TX_PAD_WRAP, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(6, 4));
    tu_assert_values(o, TU_VALS(3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f,
                                3.4f, 2.3f, 3.4f, 2.3f, 5.7f, 4.5f, 5.7f, 4.5f, 1.2f, 1.0f, 1.2f, 1.0f));
    tx_tensor_free(o);
    tx_tensor_free(d);
}

static void test_pad_edge_wrap_cases(void **state) {
    (void)state;
    tx_tensor *t = tu_tensor(TX_INT32, 1, TU_DIMS(3), TU_VALS(1, 2, 3)), *o = NULL;
    /* The header's one-line examples. */
    assert_int_equal(do_pad(t, 1, V(2, 2), TX_PAD_EDGE, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 1, 1, 2, 3, 3, 3));
    tx_tensor_free(o);
    assert_int_equal(do_pad(t, 1, V(2, 2), TX_PAD_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(2, 3, 1, 2, 3, 1, 2));
    tx_tensor_free(o);
    /* Wrap past the dim's size repeats it (np.pad), edge any length. */
    assert_int_equal(do_pad(t, 1, V(7, 5), TX_PAD_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2));
    tx_tensor_free(o);
    assert_int_equal(do_pad(t, 1, V(4, 0), TX_PAD_EDGE, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 1, 1, 1, 1, 2, 3));
    tx_tensor_free(o);
    tx_tensor_free(t);
    /* A size-1 dim, unpadded trailing dims merged into the element, a 3-D case. */
    t = tu_tensor(TX_INT16, 3, TU_DIMS(1, 2, 2), TU_VALS(1, 2, 3, 4));
    assert_int_equal(do_pad(t, 3, V(1, 2, 1, 0, 0, 0), TX_PAD_WRAP, &o), TX_OK);
    tu_assert_shape(o, TX_INT16, 3, TU_DIMS(4, 3, 2));
    tu_assert_values(o, TU_VALS(3, 4, 1, 2, 3, 4, 3, 4, 1, 2, 3, 4, 3, 4, 1, 2, 3, 4, 3, 4, 1, 2, 3, 4));
    tx_tensor_free(o);
    assert_int_equal(do_pad(t, 3, V(0, 0, 1, 1, 1, 0), TX_PAD_EDGE, &o), TX_OK);
    tu_assert_shape(o, TX_INT16, 3, TU_DIMS(1, 4, 3));
    tu_assert_values(o, TU_VALS(1, 1, 2, 1, 1, 2, 3, 3, 4, 3, 3, 4));
    tx_tensor_free(o);
    tx_tensor_free(t);
    /* An empty dim with no padding there: the output is empty, no error (np.pad agrees). */
    t = tu_tensor(TX_FLOAT32, 2, TU_DIMS(0, 2), NULL);
    assert_int_equal(do_pad(t, 2, V(0, 0, 1, 3), TX_PAD_WRAP, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(0, 6));
    tx_tensor_free(o);
    tx_tensor_free(t);
    /* Strings: records copied, bytes kept alive after the input is freed. */
    t = tu_strings(1, TU_DIMS(3), (const char *[]){"a", "bc", ""});
    tx_tensor *o2 = NULL;
    assert_int_equal(do_pad(t, 1, V(1, 2), TX_PAD_EDGE, &o), TX_OK);
    assert_int_equal(do_pad(t, 1, V(4, 1), TX_PAD_WRAP, &o2), TX_OK);
    tx_tensor_free(t);
    assert_strings(o, (const char *[]){"a", "a", "bc", "", "", ""});
    assert_strings(o2, (const char *[]){"", "a", "bc", "", "a", "bc", "", "a"});
    tx_tensor_free(o);
    tx_tensor_free(o2);
    /* constant_values is ignored by the presets, as by the mirror modes. */
    t = tu_tensor(TX_INT32, 1, TU_DIMS(2), TU_VALS(5, 6));
    tx_tensor *cv = tu_tensor(TX_INT32, 0, NULL, TU_VALS(9)), *p = pads_of(1, V(1, 1));
    assert_int_equal(tx_pad(t, p, TX_PAD_EDGE, cv, &o), TX_OK);
    tu_assert_values(o, TU_VALS(5, 5, 6, 6));
    tx_tensor_free(o);
    tx_tensor_free(p);
    tx_tensor_free(cv);
    tx_tensor_free(t);
}

static void test_pad_preset_errors(void **state) {
    (void)state;
    tx_tensor *t = tu_tensor(TX_INT32, 2, TU_DIMS(2, 0), NULL), *o = (tx_tensor *)1;
    tu_assert_error(do_pad(t, 2, V(0, 0, 1, 0), TX_PAD_EDGE, &o), TX_INVALID_ARGUMENT,
                    "EDGE cannot pad dim 1 of size 0");
    assert_null(o);
    tu_assert_error(do_pad(t, 2, V(0, 0, 0, 2), TX_PAD_WRAP, &o), TX_INVALID_ARGUMENT,
                    "WRAP cannot pad dim 1 of size 0");
    tx_tensor_free(t);
    t = tu_tensor(TX_INT32, 1, TU_DIMS(2), TU_VALS(1, 2));
    tu_assert_error(do_pad(t, 1, V(-1, 0), TX_PAD_WRAP, &o), TX_INVALID_ARGUMENT, "non-negative");
    tu_assert_error(do_pad(t, 1, V(1, 0), (tx_pad_mode)5, &o), TX_INVALID_ARGUMENT,
                    "not one of CONSTANT, REFLECT, SYMMETRIC, EDGE, WRAP");
    tu_assert_error(do_pad(t, 1, V(INT64_C(1) << 62, INT64_C(1) << 62), TX_PAD_EDGE, &o), TX_INVALID_ARGUMENT, "overflows int64");
    tx_tensor_free(t);
}

/* ---- split uneven ------------------------------------------------------------------------------ */

static void test_split_uneven(void **state) {
    (void)state;
    tx_tensor *outs[8] = {NULL};
    /* ONNX test_split_1d_uneven_split_opset18: 7 elements, 4 outputs. */
    tx_tensor *x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(7), TU_VALS(1, 2, 3, 4, 5, 6, 7));
    assert_int_equal(tx_split_uneven(x, 0, 4, outs), TX_OK);
    tu_assert_shape(outs[0], TX_FLOAT32, 1, TU_DIMS(2));
    tu_assert_values(outs[0], TU_VALS(1, 2));
    tu_assert_values(outs[1], TU_VALS(3, 4));
    tu_assert_values(outs[2], TU_VALS(5, 6));
    tu_assert_shape(outs[3], TX_FLOAT32, 1, TU_DIMS(1));
    tu_assert_values(outs[3], TU_VALS(7));
    for (int i = 0; i < 4; i++) tx_tensor_free(outs[i]);
    /* Without the preset, TF's rule: 4 does not divide 7. */
    tu_assert_error(tx_split(x, 0, 4, outs), TX_INVALID_ARGUMENT, "evenly divide");
    /* 8 parts of 7: chunk 1, seven of them use everything, the last is empty. */
    assert_int_equal(tx_split_uneven(x, 0, 8, outs), TX_OK);
    tu_assert_shape(outs[6], TX_FLOAT32, 1, TU_DIMS(1));
    tu_assert_values(outs[6], TU_VALS(7));
    tu_assert_shape(outs[7], TX_FLOAT32, 1, TU_DIMS(0));
    for (int i = 0; i < 8; i++) tx_tensor_free(outs[i]);
    /* One part: the whole dim. */
    assert_int_equal(tx_split_uneven(x, -1, 1, outs), TX_OK);
    tu_assert_values(outs[0], TU_VALS(1, 2, 3, 4, 5, 6, 7));
    tx_tensor_free(outs[0]);
    tx_tensor_free(x);
    /* ONNX test_split_2d_uneven_split_opset18: [2, 8] along axis 1 into 3. */
    x = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 8), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16));
    assert_int_equal(tx_split_uneven(x, 1, 3, outs), TX_OK);
    tu_assert_shape(outs[0], TX_FLOAT32, 2, TU_DIMS(2, 3));
    tu_assert_values(outs[0], TU_VALS(1, 2, 3, 9, 10, 11));
    tu_assert_values(outs[1], TU_VALS(4, 5, 6, 12, 13, 14));
    tu_assert_shape(outs[2], TX_FLOAT32, 2, TU_DIMS(2, 2));
    tu_assert_values(outs[2], TU_VALS(7, 8, 15, 16));
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    /* An even split is tx_split's. */
    assert_int_equal(tx_split_uneven(x, 1, 4, outs), TX_OK);
    tu_assert_values(outs[3], TU_VALS(7, 8, 15, 16));
    for (int i = 0; i < 4; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(x);
    /* Strings and an empty dim. */
    x = tu_strings(1, TU_DIMS(5), (const char *[]){"a", "b", "c", "d", "e"});
    assert_int_equal(tx_split_uneven(x, 0, 2, outs), TX_OK);
    tx_tensor_free(x);
    assert_strings(outs[0], (const char *[]){"a", "b", "c"});
    assert_strings(outs[1], (const char *[]){"d", "e"});
    for (int i = 0; i < 2; i++) tx_tensor_free(outs[i]);
    x = tu_tensor(TX_INT8, 2, TU_DIMS(3, 0), NULL);
    assert_int_equal(tx_split_uneven(x, 1, 3, outs), TX_OK);
    for (int i = 0; i < 3; i++) {
        tu_assert_shape(outs[i], TX_INT8, 2, TU_DIMS(3, 0));
        tx_tensor_free(outs[i]);
    }
    tx_tensor_free(x);
}

static void test_split_uneven_errors(void **state) {
    (void)state;
    tx_tensor *outs[8] = {NULL};
    tx_tensor *x = tu_tensor(TX_INT32, 1, TU_DIMS(7), TU_VALS(1, 2, 3, 4, 5, 6, 7));
    /* ceil(7 / 5) = 2, and 4 parts of 2 are already more than 7. */
    tu_assert_error(tx_split_uneven(x, 0, 5, outs), TX_INVALID_ARGUMENT, "leaves nothing for the last part");
    tu_assert_error(tx_split_uneven(x, 0, 9, outs), TX_INVALID_ARGUMENT, "leaves nothing");
    tu_assert_error(tx_split_uneven(x, 0, 0, outs), TX_INVALID_ARGUMENT, "should be > 0");
    tu_assert_error(tx_split_uneven(x, 0, (int64_t)INT32_MAX + 1, outs), TX_INVALID_ARGUMENT, "int32 limit");
    tu_assert_error(tx_split_uneven(x, 1, 2, outs), TX_INVALID_ARGUMENT, "split_dim");
    tu_assert_error(tx_split_uneven(NULL, 0, 2, outs), TX_INVALID_ARGUMENT, "value");
    tu_assert_error(tx_split_uneven(x, 0, 2, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
    tx_tensor_free(x);
    x = tu_tensor(TX_INT32, 0, NULL, TU_VALS(1));
    tu_assert_error(tx_split_uneven(x, 0, 1, outs), TX_INVALID_ARGUMENT, "split_dim");
    tx_tensor_free(x);
}

/* ---- depth_to_space CRD ------------------------------------------------------------------------ */

/* ONNX DepthToSpace's CRD example: NCHW [1, 8, 2, 3], blocksize 2 -> [1, 2, 4, 6]. */
static const double crd_in[48] = {0,  1,  2,  3,  4,  5,  9,  10, 11, 12, 13, 14, 18, 19, 20, 21,
                                  22, 23, 27, 28, 29, 30, 31, 32, 36, 37, 38, 39, 40, 41, 45, 46,
                                  47, 48, 49, 50, 54, 55, 56, 57, 58, 59, 63, 64, 65, 66, 67, 68};
static const double crd_out[48] = {0,  9,  1,  10, 2,  11, 18, 27, 19, 28, 20, 29, 3,  12, 4,  13,
                                   5,  14, 21, 30, 22, 31, 23, 32, 36, 45, 37, 46, 38, 47, 54, 63,
                                   55, 64, 56, 65, 39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68};

static void test_depth_to_space_crd(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT32, 4, TU_DIMS(1, 8, 2, 3), crd_in), *o = NULL, *o2 = NULL;
    assert_int_equal(tx_depth_to_space_in_mode(x, 2, TX_FORMAT_NCHW, TX_DEPTH_CRD, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 4, TU_DIMS(1, 2, 4, 6));
    tu_assert_values(o, crd_out);
    tx_tensor_free(o);
    /* The same example in NHWC (ONNX data transposed with perm [0, 2, 3, 1]). */
    tx_tensor *perm = tu_i32(4, (int32_t[]){0, 2, 3, 1}), *xn = NULL, *yn = NULL;
    assert_int_equal(tx_transpose(x, perm, 0, &xn), TX_OK);
    assert_int_equal(tx_depth_to_space_in_mode(xn, 2, TX_FORMAT_NHWC, TX_DEPTH_CRD, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 4, TU_DIMS(1, 4, 6, 2));
    tx_tensor *y = tu_tensor(TX_FLOAT32, 4, TU_DIMS(1, 2, 4, 6), crd_out);
    assert_int_equal(tx_transpose(y, perm, 0, &yn), TX_OK);
    assert_memory_equal(tx_tensor_data(o), tx_tensor_data(yn), 48 * sizeof(float));
    tx_tensor_free(o);
    /* DCR through _ex is tx_depth_to_space, bit for bit, in both layouts. */
    for (int f = 0; f < 2; f++) {
        const tx_tensor *in = f ? x : xn;
        tx_data_format fmt = f ? TX_FORMAT_NCHW : TX_FORMAT_NHWC;
        assert_int_equal(tx_depth_to_space_in_mode(in, 2, fmt, TX_DEPTH_DCR, &o), TX_OK);
        assert_int_equal(tx_depth_to_space(in, 2, fmt, &o2), TX_OK);
        assert_memory_equal(tx_tensor_data(o), tx_tensor_data(o2), 48 * sizeof(float));
        tx_tensor_free(o);
        tx_tensor_free(o2);
    }
    tx_tensor_free(y);
    tx_tensor_free(yn);
    tx_tensor_free(xn);
    tx_tensor_free(perm);
    tx_tensor_free(x);
    /* CRD with one output channel is DCR (bs * bs channels in either order); block 3, strings. */
    const char *names[18];
    char buf[18][12];
    for (int i = 0; i < 18; i++) {
        snprintf(buf[i], sizeof buf[i], "%d", i);
        names[i] = buf[i];
    }
    x = tu_strings(4, TU_DIMS(1, 1, 1, 18), names);
    assert_int_equal(tx_depth_to_space_in_mode(x, 3, TX_FORMAT_NHWC, TX_DEPTH_CRD, &o), TX_OK);
    tx_tensor_free(x);
    tu_assert_shape(o, TX_STRING, 4, TU_DIMS(1, 3, 3, 2));
    /* out[0, dy, dx, k] = in[k * 9 + dy * 3 + dx]. */
    assert_strings(o, (const char *[]){"0", "9", "1", "10", "2", "11", "3", "12", "4", "13", "5", "14",
                                      "6", "15", "7", "16", "8", "17"});
    tx_tensor_free(o);
    /* Empty batch. */
    x = tu_tensor(TX_INT32, 4, TU_DIMS(0, 2, 2, 8), NULL);
    assert_int_equal(tx_depth_to_space_in_mode(x, 2, TX_FORMAT_NHWC, TX_DEPTH_CRD, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(0, 4, 4, 2));
    tx_tensor_free(o);
    /* Errors: a bad mode, then depth_to_space's own rules. */
    o = (tx_tensor *)1;
    tu_assert_error(tx_depth_to_space_in_mode(x, 2, TX_FORMAT_NHWC, (tx_depth_mode)2, &o), TX_INVALID_ARGUMENT,
                    "mode 2 is not DCR (0) or CRD (1)");
    assert_null(o);
    tu_assert_error(tx_depth_to_space_in_mode(x, 3, TX_FORMAT_NHWC, TX_DEPTH_CRD, &o), TX_INVALID_ARGUMENT,
                    "divisible by block_size");
    tu_assert_error(tx_depth_to_space_in_mode(x, 1, TX_FORMAT_NHWC, TX_DEPTH_CRD, &o), TX_INVALID_ARGUMENT,
                    "block_size must be > 1");
    tu_assert_error(tx_depth_to_space_in_mode(x, 2, TX_FORMAT_NCHW_VECT_C, TX_DEPTH_CRD, &o), TX_UNIMPLEMENTED,
                    "NCHW_VECT_C");
    tx_tensor_free(x);
}

/* ---- unique sorted ----------------------------------------------------------------------------- */

static void test_unique_sorted(void **state) {
    (void)state;
    tx_tensor *o[3] = {NULL};
    /* ONNX Unique's sorted_without_axis example. */
    tx_tensor *x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(6), TU_VALS(2, 1, 1, 3, 4, 3));
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT64, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_shape(o[0], TX_FLOAT32, 1, TU_DIMS(4));
    tu_assert_values(o[0], TU_VALS(1, 2, 3, 4));
    tu_assert_shape(o[1], TX_INT64, 1, TU_DIMS(6));
    tu_assert_values(o[1], TU_VALS(1, 0, 0, 2, 3, 2));
    tu_assert_shape(o[2], TX_INT64, 1, TU_DIMS(4));
    tu_assert_values(o[2], TU_VALS(2, 1, 2, 1));
    free3(o);
    /* sorted = 0 keeps TF's first-occurrence order. */
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_FIRST_SEEN, o), TX_OK);
    tu_assert_values(o[0], TU_VALS(2, 1, 3, 4));
    tu_assert_values(o[1], TU_VALS(0, 1, 1, 2, 3, 2));
    tu_assert_values(o[2], TU_VALS(1, 2, 2, 1));
    free3(o);
    tx_tensor_free(x);
    /* ONNX test_unique_length_1 and the empty input. */
    x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), TU_VALS(1));
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT64, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_values(o[0], TU_VALS(1));
    tu_assert_values(o[1], TU_VALS(0));
    tu_assert_values(o[2], TU_VALS(1));
    free3(o);
    tx_tensor_free(x);
    x = tu_tensor(TX_INT32, 1, TU_DIMS(0), NULL);
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_shape(o[0], TX_INT32, 1, TU_DIMS(0));
    tu_assert_shape(o[2], TX_INT32, 1, TU_DIMS(0));
    free3(o);
    tx_tensor_free(x);
    /* np.unique's float rules: -0.0 == 0.0 (the first seen is kept: -0.0), NaNs one value, last. */
    x = tu_tensor(TX_FLOAT64, 1, TU_DIMS(6), TU_VALS(NAN, 1, -0.0, NAN, 0.0, -INFINITY));
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_shape(o[0], TX_FLOAT64, 1, TU_DIMS(4));
    const double *y = tx_tensor_data(o[0]);
    assert_true(y[0] == -INFINITY && y[1] == 0.0 && signbit(y[1]) && y[2] == 1.0 && isnan(y[3]));
    tu_assert_values(o[1], TU_VALS(3, 2, 1, 3, 1, 0));
    tu_assert_values(o[2], TU_VALS(1, 2, 1, 2));
    free3(o);
    tx_tensor_free(x);
    /* float16 bits: 0x8000 (-0), 0x7E00 (NaN), 0x3C00 (1), 0x0000 (+0), 0xFC00 (-inf), 0x7C01 (NaN). */
    uint16_t hb[6] = {0x8000, 0x7E00, 0x3C00, 0x0000, 0xFC00, 0x7C01};
    x = tu_tensor(TX_FLOAT16, 1, TU_DIMS(6), NULL);
    memcpy(tx_tensor_data(x), hb, sizeof hb);
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_shape(o[0], TX_FLOAT16, 1, TU_DIMS(4));
    const uint16_t *hy = tx_tensor_data(o[0]);
    assert_int_equal(hy[0], 0xFC00);
    assert_int_equal(hy[1], 0x8000);
    assert_int_equal(hy[2], 0x3C00);
    assert_int_equal(hy[3], 0x7E00);
    tu_assert_values(o[1], TU_VALS(1, 3, 2, 1, 0, 3));
    tu_assert_values(o[2], TU_VALS(1, 2, 1, 2));
    free3(o);
    tx_tensor_free(x);
    /* Signed and unsigned extremes, bool. */
    x = tu_tensor(TX_INT64, 1, TU_DIMS(5), TU_VALS(5, -9007199254740992.0, 0, -1, 5));
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_values(o[0], TU_VALS(-9007199254740992.0, -1, 0, 5));
    tu_assert_values(o[1], TU_VALS(3, 0, 2, 1, 3));
    free3(o);
    tx_tensor_free(x);
    x = tu_tensor(TX_UINT8, 1, TU_DIMS(4), TU_VALS(255, 0, 128, 127));
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_values(o[0], TU_VALS(0, 127, 128, 255));
    free3(o);
    tx_tensor_free(x);
    x = tu_tensor(TX_INT8, 1, TU_DIMS(4), TU_VALS(127, -128, 0, -1));
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_values(o[0], TU_VALS(-128, -1, 0, 127));
    free3(o);
    tx_tensor_free(x);
    x = tu_tensor(TX_BOOL, 1, TU_DIMS(3), TU_VALS(1, 0, 1));
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_OK);
    tu_assert_values(o[0], TU_VALS(0, 1));
    tu_assert_values(o[1], TU_VALS(1, 0, 1));
    tu_assert_values(o[2], TU_VALS(1, 2));
    free3(o);
    tx_tensor_free(x);
    /* Strings by bytes, a prefix first; the bytes outlive the input. */
    x = tu_strings(1, TU_DIMS(6), (const char *[]){"b", "a", "", "ab", "a", "B"});
    assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT64, TX_UNIQUE_SORTED, o), TX_OK);
    tx_tensor_free(x);
    assert_strings(o[0], (const char *[]){"", "B", "a", "ab", "b"});
    tu_assert_values(o[1], TU_VALS(4, 2, 0, 3, 2, 1));
    tu_assert_values(o[2], TU_VALS(1, 1, 2, 1, 1));
    free3(o);
}

/* Randomized: sorted output against a naive check (y strictly ascending, y[idx[i]] == x[i],
 * counts sum to n and match) over int32 values with many repeats. */
static void test_unique_sorted_random(void **state) {
    (void)state;
    unsigned seed = 12345;
    for (int iter = 0; iter < 200; iter++) {
        int64_t n = iter % 50;
        double v[64];
        for (int64_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            v[i] = (double)((int)((seed >> 16) % 21) - 10);
        }
        tx_tensor *x = tu_tensor(TX_INT32, 1, TU_DIMS(n), v), *o[3] = {NULL};
        assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_OK);
        const int32_t *y = tx_tensor_data(o[0]), *idx = tx_tensor_data(o[1]), *cnt = tx_tensor_data(o[2]);
        int64_t u = tx_tensor_numel(o[0]), total = 0;
        for (int64_t j = 1; j < u; j++) assert_true(y[j - 1] < y[j]);
        for (int64_t i = 0; i < n; i++) assert_int_equal(y[idx[i]], (int32_t)v[i]);
        for (int64_t j = 0; j < u; j++) {
            int64_t c = 0;
            for (int64_t i = 0; i < n; i++) c += idx[i] == j;
            assert_int_equal(cnt[j], c);
            total += cnt[j];
        }
        assert_int_equal(total, n);
        free3(o);
        tx_tensor_free(x);
    }
}

static void test_unique_sorted_errors(void **state) {
    (void)state;
    tx_tensor *o[3] = {(tx_tensor *)1, (tx_tensor *)1, (tx_tensor *)1};
    tx_tensor *x = tu_tensor(TX_INT32, 2, TU_DIMS(1, 2), TU_VALS(1, 2));
    tu_assert_error(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_INVALID_ARGUMENT, "must be 1-D");
    assert_null(o[0]);
    assert_null(o[1]);
    assert_null(o[2]);
    tx_tensor_free(x);
    x = tu_tensor(TX_INT32, 1, TU_DIMS(2), TU_VALS(1, 2));
    tu_assert_error(tx_unique_with_counts_in_mode(x, TX_INT16, TX_UNIQUE_SORTED, o), TX_UNIMPLEMENTED, "out_idx must be int32 or int64");
    tu_assert_error(tx_unique_with_counts_in_mode(NULL, TX_INT32, TX_UNIQUE_SORTED, o), TX_INVALID_ARGUMENT, "x");
    tu_assert_error(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
    tu_assert_error(tx_unique_with_counts_in_mode(x, TX_INT32, (tx_unique_mode)2, o), TX_INVALID_ARGUMENT,
                    "unique_with_counts: mode 2 is not a tx_unique_mode");
    assert_null(o[0]);
    tu_assert_error(tx_unique_with_counts_in_mode(x, TX_INT32, (tx_unique_mode)-1, o), TX_INVALID_ARGUMENT,
                    "mode -1 is not");
    tx_tensor_free(x);
    x = tu_tensor(TX_COMPLEX64, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_unique_with_counts_in_mode(x, TX_INT32, TX_UNIQUE_SORTED, o), TX_UNIMPLEMENTED, "complex64");
    tx_tensor_free(x);
}

/* ---- allocation failures ----------------------------------------------------------------------- */

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *t = tu_tensor(TX_INT32, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor *st = tu_strings(1, TU_DIMS(5), (const char *[]){"b", "a", "c", "a", ""});
    tx_tensor *p = pads_of(2, V(1, 2, 3, 1)), *p1 = pads_of(1, V(2, 4));
    tx_tensor *d = tu_tensor(TX_FLOAT32, 4, TU_DIMS(1, 8, 2, 3), crd_in);
    tx_tensor *dn = tu_tensor(TX_FLOAT32, 4, TU_DIMS(1, 2, 3, 8), crd_in);
    tx_tensor *f = tu_tensor(TX_FLOAT64, 1, TU_DIMS(5), TU_VALS(3, NAN, -0.0, 0.0, 3));
    tu_alloc_install();
    for (int op = 0; op < 9; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[4] = {NULL, NULL, NULL, NULL};
            tx_status rc;
            size_t nout = 1;
            switch (op) {
            case 0: rc = tx_pad(t, p, TX_PAD_EDGE, NULL, &o); break;
            case 1: rc = tx_pad(st, p1, TX_PAD_WRAP, NULL, &o); break;
            case 2: rc = tx_split_uneven(t, 1, 2, outs); nout = 2; break;
            case 3: rc = tx_split_uneven(st, 0, 3, outs); nout = 3; break;
            case 4: rc = tx_depth_to_space_in_mode(d, 2, TX_FORMAT_NCHW, TX_DEPTH_CRD, &o); break;
            case 5: rc = tx_depth_to_space_in_mode(dn, 2, TX_FORMAT_NHWC, TX_DEPTH_CRD, &o); break;
            case 6: rc = tx_unique_with_counts_in_mode(f, TX_INT64, TX_UNIQUE_SORTED, outs); nout = 3; break;
            case 7: rc = tx_unique_with_counts_in_mode(st, TX_INT32, TX_UNIQUE_SORTED, outs); nout = 3; break;
            default: rc = tx_unique_with_counts_in_mode(f, TX_INT32, TX_UNIQUE_FIRST_SEEN, outs); nout = 3; break;
            }
            if (rc == TX_OK) {
                tx_tensor_free(o);
                for (size_t i = 0; i < nout; i++) tx_tensor_free(outs[i]);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            if (rc != TX_RESOURCE_EXHAUSTED)
                fail_msg("op %d, k %ld: %s: %s", op, k, tx_status_name(rc), tx_last_error());
            assert_null(o);
            for (size_t i = 0; i < nout; i++) assert_null(outs[i]);
            assert_int_equal(tu_alloc_live(), 0);
        }
    }
    tu_alloc_uninstall();
    tx_tensor *all[] = {t, st, p, p1, d, dn, f};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) tx_tensor_free(all[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pad_onnx_examples),
        cmocka_unit_test(test_pad_edge_wrap_cases),
        cmocka_unit_test(test_pad_preset_errors),
        cmocka_unit_test(test_split_uneven),
        cmocka_unit_test(test_split_uneven_errors),
        cmocka_unit_test(test_depth_to_space_crd),
        cmocka_unit_test(test_unique_sorted),
        cmocka_unit_test(test_unique_sorted_random),
        cmocka_unit_test(test_unique_sorted_errors),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
