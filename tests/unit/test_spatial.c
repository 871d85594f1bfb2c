/* SPDX-License-Identifier: Apache-2.0 */
/* test_spatial.c -- space_to_batch(_nd), batch_to_space(_nd), required_space_to_batch_paddings,
 * space_to_depth, depth_to_space and extract_image_patches: the examples of TF's page with the
 * values TF really computes (several examples on the page are garbled; each such case says so),
 * TF's own test vectors, NCHW, and an allocation-failure sweep per op.  Random shapes against
 * naive references are in test_spatial_random.c, edge cases, strings and errors in
 * test_spatial_edges.c, batch_to_space's crops policies in test_spatial_oob.c. */
#include "spatial_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- TF's page: space_to_batch_nd / space_to_batch ------------------------------------------- */

static void test_space_to_batch_page_examples(void **state) {
    (void)state;
    tx_tensor *b22 = tu_i64(2, P64(2, 2)), *p0 = pairs(2, P64(0, 0, 0, 0)), *o = NULL;
    /* (1) [1, 2, 2, 1] -> [4, 1, 1, 1] = 1, 2, 3, 4 (the page's brackets are garbled). */
    tx_tensor *x = iota(4, TU_DIMS(1, 2, 2, 1));
    check_s2b_nd(x, b22, p0, 4, TU_DIMS(4, 1, 1, 1), TU_VALS(1, 2, 3, 4));
    assert_int_equal(tx_space_to_batch(x, p0, 2, &o), TX_OK);
    expect(o, 4, TU_DIMS(4, 1, 1, 1), TU_VALS(1, 2, 3, 4));
    tx_tensor_free(x);
    /* (2) [1, 2, 2, 3] -> [4, 1, 1, 3]. */
    x = iota(4, TU_DIMS(1, 2, 2, 3));
    check_s2b_nd(x, b22, p0, 4, TU_DIMS(4, 1, 1, 3), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    assert_int_equal(tx_space_to_batch(x, p0, 2, &o), TX_OK);
    expect(o, 4, TU_DIMS(4, 1, 1, 3), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    tx_tensor_free(x);
    /* (3) [1, 4, 4, 1] -> [4, 2, 2, 1].  The page (and TF's own docstring) show the first batch
     * as [[1], [3]], [[5], [7]] and repeat 5, 7 later; TF's kernel gives batch o = block offset
     * (dy, dx): rows dy, dy + 2 and columns dx, dx + 2, i.e. [[1, 3], [9, 11]], [[2, 4], [10, 12]],
     * [[5, 7], [13, 15]], [[6, 8], [14, 16]]. */
    x = iota(4, TU_DIMS(1, 4, 4, 1));
    const double *want3 = TU_VALS(1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16);
    check_s2b_nd(x, b22, p0, 4, TU_DIMS(4, 2, 2, 1), want3);
    assert_int_equal(tx_space_to_batch(x, p0, 2, &o), TX_OK);
    expect(o, 4, TU_DIMS(4, 2, 2, 1), want3);
    tx_tensor_free(x);
    /* (4) nd: [2, 2, 4, 1], paddings [[0, 0], [2, 0]] -> [8, 1, 3, 1] (the page's values are right,
     * its brackets are not). */
    x = iota(4, TU_DIMS(2, 2, 4, 1));
    tx_tensor *p4 = pairs(2, P64(0, 0, 2, 0));
    check_s2b_nd(x, b22, p4, 4, TU_DIMS(8, 1, 3, 1),
                 TU_VALS(0, 1, 3, 0, 9, 11, 0, 2, 4, 0, 10, 12, 0, 5, 7, 0, 13, 15, 0, 6, 8, 0, 14, 16));
    tx_tensor_free(p4);
    /* (4) legacy: the same input without padding -> [8, 1, 2, 1]. */
    assert_int_equal(tx_space_to_batch(x, p0, 2, &o), TX_OK);
    expect(o, 4, TU_DIMS(8, 1, 2, 1), TU_VALS(1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16));
    tx_tensor_free(x);
    tx_tensor_free(b22);
    tx_tensor_free(p0);
}

/* ---- TF's page: batch_to_space_nd / batch_to_space ------------------------------------------- */

static void test_batch_to_space_page_examples(void **state) {
    (void)state;
    tx_tensor *b22 = tu_i32(2, P32(2, 2)), *c0 = pairs32(2, P32(0, 0, 0, 0)), *o = NULL, *x;
    /* (1) [4, 1, 1, 1] -> [1, 2, 2, 1]. */
    x = iota(4, TU_DIMS(4, 1, 1, 1));
    check_b2s_nd(x, b22, c0, 4, TU_DIMS(1, 2, 2, 1), TU_VALS(1, 2, 3, 4));
    assert_int_equal(tx_batch_to_space(x, c0, 2, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 2, 2, 1), TU_VALS(1, 2, 3, 4));
    tx_tensor_free(x);
    /* (2) [4, 1, 1, 3] -> [1, 2, 2, 3]. */
    x = iota(4, TU_DIMS(4, 1, 1, 3));
    check_b2s_nd(x, b22, c0, 4, TU_DIMS(1, 2, 2, 3), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    assert_int_equal(tx_batch_to_space(x, c0, 2, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 2, 2, 3), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    tx_tensor_free(x);
    /* (3) [4, 2, 2, 1] -> [1, 4, 4, 1] = 1..16.  The page's input is space_to_batch's garbled
     * output (first batch [[1, 3], [5, 7]]); the input that gives 1..16 is TF's real
     * space_to_batch output.  With the page's literal input TF gives row 2 = 5, 10, 7, 12. */
    x = tu_tensor(TX_INT32, 4, TU_DIMS(4, 2, 2, 1),
                  TU_VALS(1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16));
    const double *seq = TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    check_b2s_nd(x, b22, c0, 4, TU_DIMS(1, 4, 4, 1), seq);
    assert_int_equal(tx_batch_to_space(x, c0, 2, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 4, 4, 1), seq);
    tx_tensor_free(x);
    x = tu_tensor(TX_INT32, 4, TU_DIMS(4, 2, 2, 1),
                  TU_VALS(1, 3, 5, 7, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16));
    check_b2s_nd(x, b22, c0, 4, TU_DIMS(1, 4, 4, 1),
                 TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 5, 10, 7, 12, 13, 14, 15, 16));
    tx_tensor_free(x);
    /* (4) nd: [8, 1, 3, 1], crops [[0, 0], [2, 0]] -> [2, 2, 4, 1] = 1..16. */
    x = tu_tensor(TX_INT32, 4, TU_DIMS(8, 1, 3, 1),
                  TU_VALS(0, 1, 3, 0, 9, 11, 0, 2, 4, 0, 10, 12, 0, 5, 7, 0, 13, 15, 0, 6, 8, 0, 14, 16));
    tx_tensor *c4 = pairs32(2, P32(0, 0, 2, 0));
    check_b2s_nd(x, b22, c4, 4, TU_DIMS(2, 2, 4, 1), seq);
    tx_tensor_free(c4);
    tx_tensor_free(x);
    /* (4) legacy: [8, 1, 2, 1] -> [2, 2, 4, 1].  The page prints an unrelated tensor as the
     * output; TF inverts space_to_batch example (4): 1..16. */
    x = tu_tensor(TX_INT32, 4, TU_DIMS(8, 1, 2, 1),
                  TU_VALS(1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16));
    assert_int_equal(tx_batch_to_space(x, c0, 2, &o), TX_OK);
    expect(o, 4, TU_DIMS(2, 2, 4, 1), seq);
    tx_tensor_free(x);
    tx_tensor_free(b22);
    tx_tensor_free(c0);
}

/* ---- TF's page: space_to_depth / depth_to_space ---------------------------------------------- */

static void test_depth_page_examples(void **state) {
    (void)state;
    tx_tensor *o = NULL, *x;
    /* [1, 2, 2, 1] -> [1, 1, 1, 4] (the page prints five brackets). */
    x = iota(4, TU_DIMS(1, 2, 2, 1));
    assert_int_equal(tx_space_to_depth(x, 2, TX_FORMAT_NHWC, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 1, 1, 4), TU_VALS(1, 2, 3, 4));
    tx_tensor_free(x);
    /* [1, 2, 2, 3] -> [1, 1, 1, 12]. */
    x = iota(4, TU_DIMS(1, 2, 2, 3));
    assert_int_equal(tx_space_to_depth(x, 2, TX_FORMAT_NHWC, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 1, 1, 12), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    tx_tensor_free(x);
    /* [1, 4, 4, 1] -> [1, 2, 2, 4]. */
    const double *img = TU_VALS(1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16);
    const double *seq = TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    x = tu_tensor(TX_INT32, 4, TU_DIMS(1, 4, 4, 1), img);
    assert_int_equal(tx_space_to_depth(x, 2, TX_FORMAT_NHWC, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 2, 2, 4), seq);
    tx_tensor_free(x);
    /* depth_to_space: the three inverse examples.  (The page says the output width is
     * input_depth * block_size; it is input_width * block_size.) */
    x = iota(4, TU_DIMS(1, 1, 1, 4));
    assert_int_equal(tx_depth_to_space(x, 2, TX_FORMAT_NHWC, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 2, 2, 1), TU_VALS(1, 2, 3, 4));
    tx_tensor_free(x);
    x = iota(4, TU_DIMS(1, 1, 1, 12));
    assert_int_equal(tx_depth_to_space(x, 2, TX_FORMAT_NHWC, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 2, 2, 3), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    tx_tensor_free(x);
    x = iota(4, TU_DIMS(1, 2, 2, 4));
    assert_int_equal(tx_depth_to_space(x, 2, TX_FORMAT_NHWC, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 4, 4, 1), img);
    tx_tensor_free(x);
}

/* ---- ONNX's DepthToSpace DCR example (NCHW), and NCHW against NHWC -------------------------- */

static void test_depth_nchw(void **state) {
    (void)state;
    tx_tensor *o = NULL, *x;
    /* ONNX DepthToSpace, mode DCR (TF's order), NCHW [1, 8, 2, 3] -> [1, 2, 4, 6]. */
    x = tu_tensor(TX_INT32, 4, TU_DIMS(1, 8, 2, 3), NULL);
    for (int i = 0; i < 48; i++) ((int32_t *)tx_tensor_data(x))[i] = i;
    assert_int_equal(tx_depth_to_space(x, 2, TX_FORMAT_NCHW, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 2, 4, 6),
           TU_VALS(0, 12, 1, 13, 2, 14, 24, 36, 25, 37, 26, 38, 3, 15, 4, 16, 5, 17, 27, 39, 28, 40,
                   29, 41, 6, 18, 7, 19, 8, 20, 30, 42, 31, 43, 32, 44, 9, 21, 10, 22, 11, 23, 33,
                   45, 34, 46, 35, 47));
    /* and back */
    tx_tensor *y = NULL, *z = NULL;
    assert_int_equal(tx_depth_to_space(x, 2, TX_FORMAT_NCHW, &y), TX_OK);
    assert_int_equal(tx_space_to_depth(y, 2, TX_FORMAT_NCHW, &z), TX_OK);
    tu_assert_shape(z, TX_INT32, 4, TU_DIMS(1, 8, 2, 3));
    assert_memory_equal(tx_tensor_data(z), tx_tensor_data(x), 48 * 4);
    tx_tensor_free(x);
    tx_tensor_free(y);
    tx_tensor_free(z);
    /* NCHW space_to_depth of [2, 3, 4, 6] with block 2 equals NHWC after transposes. */
    const int64_t N = 2, C = 3, H = 4, W = 6, bs = 2;
    tx_tensor *nchw = tu_tensor(TX_INT32, 4, TU_DIMS(N, C, H, W), NULL);
    tx_tensor *nhwc = tu_tensor(TX_INT32, 4, TU_DIMS(N, H, W, C), NULL);
    int32_t *a = tx_tensor_data(nchw), *b = tx_tensor_data(nhwc);
    for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < C; c++)
            for (int64_t h = 0; h < H; h++)
                for (int64_t w = 0; w < W; w++) {
                    int32_t v = (int32_t)(((n * C + c) * H + h) * W + w);
                    a[((n * C + c) * H + h) * W + w] = v;
                    b[((n * H + h) * W + w) * C + c] = v;
                }
    tx_tensor *on = NULL, *oh = NULL;
    assert_int_equal(tx_space_to_depth(nchw, bs, TX_FORMAT_NCHW, &on), TX_OK);
    assert_int_equal(tx_space_to_depth(nhwc, bs, TX_FORMAT_NHWC, &oh), TX_OK);
    tu_assert_shape(on, TX_INT32, 4, TU_DIMS(N, C * 4, H / 2, W / 2));
    tu_assert_shape(oh, TX_INT32, 4, TU_DIMS(N, H / 2, W / 2, C * 4));
    const int32_t *pn = tx_tensor_data(on), *ph = tx_tensor_data(oh);
    int64_t OC = C * 4, OH = H / 2, OW = W / 2;
    for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < OC; c++)
            for (int64_t h = 0; h < OH; h++)
                for (int64_t w = 0; w < OW; w++)
                    assert_int_equal(pn[((n * OC + c) * OH + h) * OW + w],
                                     ph[((n * OH + h) * OW + w) * OC + c]);
    tx_tensor_free(on);
    tx_tensor_free(oh);
    tx_tensor_free(nchw);
    tx_tensor_free(nhwc);
}

/* ---- required_space_to_batch_paddings --------------------------------------------------------- */

static void test_required_paddings(void **state) {
    (void)state;
    tx_tensor *outs[2] = {NULL, NULL};
    tx_tensor *in = tu_i32(3, P32(5, 4, 7)), *blk = tu_i32(3, P32(2, 2, 3));
    assert_int_equal(tx_required_space_to_batch_paddings(in, blk, NULL, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(3, 2));
    tu_assert_values(outs[0], TU_VALS(0, 1, 0, 0, 0, 2));
    tu_assert_shape(outs[1], TX_INT32, 2, TU_DIMS(3, 2));
    tu_assert_values(outs[1], TU_VALS(0, 1, 0, 0, 0, 2));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    /* base_paddings: the start is kept, the end grows by the extra; crops take only the extra. */
    tx_tensor *base = pairs(3, P64(1, 2, 0, 3, 4, 0));
    assert_int_equal(tx_required_space_to_batch_paddings(in, blk, base, outs), TX_OK);
    /* 5+1+2 = 8 -> +0;  4+0+3 = 7 -> +1;  7+4+0 = 11 -> +1 */
    tu_assert_values(outs[0], TU_VALS(1, 2, 0, 4, 4, 1));
    tu_assert_values(outs[1], TU_VALS(0, 0, 0, 1, 0, 1));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    tx_tensor_free(base);
    /* int64 arguments give int32 results, as TF (which converts everything to int32). */
    tx_tensor *in64 = tu_i64(1, P64(0)), *blk64 = tu_i64(1, P64(4));
    assert_int_equal(tx_required_space_to_batch_paddings(in64, blk64, NULL, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(1, 2));
    tu_assert_values(outs[0], TU_VALS(0, 0));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    /* M = 0: two [0, 2] tensors, and TF does not look at input_shape's shape then. */
    tx_tensor *empty = tu_i32(0, NULL);
    assert_int_equal(tx_required_space_to_batch_paddings(in, empty, NULL, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(0, 2));
    tu_assert_shape(outs[1], TX_INT32, 2, TU_DIMS(0, 2));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    /* errors */
    tu_assert_error(tx_required_space_to_batch_paddings(in, blk, NULL, NULL), TX_INVALID_ARGUMENT,
                    "outs is NULL");
    tx_tensor *two = tu_i32(2, P32(2, 2));
    tu_assert_error(tx_required_space_to_batch_paddings(in, two, NULL, outs), TX_INVALID_ARGUMENT,
                    "input_shape must have shape [2], got [3]");
    assert_null(outs[0]);
    assert_null(outs[1]);
    tx_tensor *zero = tu_i32(3, P32(2, 0, 2));
    tu_assert_error(tx_required_space_to_batch_paddings(in, zero, NULL, outs), TX_INVALID_ARGUMENT,
                    "block_shape entry 1 = 0 must be in [1,");
    tx_tensor *neg = tu_i32(3, P32(5, -4, 7));
    tu_assert_error(tx_required_space_to_batch_paddings(neg, blk, NULL, outs), TX_INVALID_ARGUMENT,
                    "input_shape entry 1 = -4");
    tx_tensor *nbase = pairs(3, P64(0, 0, 0, -1, 0, 0));
    tu_assert_error(tx_required_space_to_batch_paddings(in, blk, nbase, outs), TX_INVALID_ARGUMENT,
                    "base_paddings entry 3 = -1");
    tx_tensor *bbase = pairs(2, P64(0, 0, 0, 0));
    tu_assert_error(tx_required_space_to_batch_paddings(in, blk, bbase, outs), TX_INVALID_ARGUMENT,
                    "base_paddings must have shape [3, 2], got [2,2]");
    tx_tensor *big = tu_i64(1, P64(3000000000LL)), *one = tu_i64(1, P64(2));
    tu_assert_error(tx_required_space_to_batch_paddings(big, one, NULL, outs), TX_INVALID_ARGUMENT,
                    "input_shape entry 0 = 3000000000");
    tx_tensor *fl = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(1, 2, 3));
    /* a dtype the op does not take: unimplemented (TF 2.21 decides) */
    tu_assert_error(tx_required_space_to_batch_paddings(fl, blk, NULL, outs), TX_UNIMPLEMENTED,
                    "input_shape must be int32 or int64, got float32");
    tx_tensor *scalar = tu_tensor(TX_INT32, 0, NULL, TU_VALS(2));
    tu_assert_error(tx_required_space_to_batch_paddings(in, scalar, NULL, outs), TX_INVALID_ARGUMENT,
                    "block_shape must be 1-D, got rank 0");
    /* a result past int32 */
    tx_tensor *edge = tu_i32(1, P32(1)), *bmax = tu_i32(1, P32(2147483647));
    tx_tensor *emax = pairs32(1, P32(0, 2147483647));
    tu_assert_error(tx_required_space_to_batch_paddings(edge, bmax, emax, outs), TX_INVALID_ARGUMENT,
                    "does not fit int32");
    tx_tensor *objs[] = {in, blk, in64, blk64, empty, two, zero, neg, nbase, bbase, big, one, fl,
                         scalar, edge, bmax, emax};
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) tx_tensor_free(objs[i]);
}

/* ---- extract_image_patches: TF's test vectors ------------------------------------------------- */

static void test_patches_tf_vectors(void **state) {
    (void)state;
    tx_tensor *o = NULL, *x;
    /* 1x1 kernel, stride 1: the output is the input (VALID and SAME). */
    x = iota(4, TU_DIMS(2, 3, 4, 5));
    for (int pad = 1; pad <= 2; pad++) {
        assert_int_equal(patches(x, 1, 1, 1, 1, 1, 1, (tx_padding)pad, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, 4, TU_DIMS(2, 3, 4, 5));
        assert_memory_equal(tx_tensor_data(o), tx_tensor_data(x), 120 * 4);
        tx_tensor_free(o);
    }
    tx_tensor_free(x);
    /* 1x1 kernel, strides 2x3 on [2, 4, 5, 3]: image[:, ::2, ::3, :] for both paddings. */
    x = iota(4, TU_DIMS(2, 4, 5, 3));
    for (int pad = 1; pad <= 2; pad++) {
        assert_int_equal(patches(x, 1, 1, 2, 3, 1, 1, (tx_padding)pad, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, 4, TU_DIMS(2, 2, 2, 3));
        const int32_t *g = tx_tensor_data(o);
        for (int b = 0; b < 2; b++)
            for (int r = 0; r < 2; r++)
                for (int c = 0; c < 2; c++)
                    for (int d = 0; d < 3; d++)
                        assert_int_equal(g[((b * 2 + r) * 2 + c) * 3 + d],
                                         ((b * 4 + 2 * r) * 5 + 3 * c) * 3 + d + 1);
        tx_tensor_free(o);
    }
    tx_tensor_free(x);
    /* 2x2 kernel on [[1, 2], [3, 4]]: VALID [1, 1, 1, 4]; SAME [1, 2, 2, 4] zero-filled. */
    x = iota(4, TU_DIMS(1, 2, 2, 1));
    assert_int_equal(patches(x, 2, 2, 1, 1, 1, 1, TX_PADDING_VALID, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 1, 1, 4), TU_VALS(1, 2, 3, 4));
    assert_int_equal(patches(x, 2, 2, 1, 1, 1, 1, TX_PADDING_SAME, &o), TX_OK);
    expect(o, 4, TU_DIMS(1, 2, 2, 4), TU_VALS(1, 2, 3, 4, 2, 0, 4, 0, 3, 4, 0, 0, 4, 0, 0, 0));
    tx_tensor_free(x);
    /* 2x2 kernel with rates 2x2 on 0..15 as [1, 4, 4, 1], VALID -> [1, 2, 2, 4]. */
    x = tu_tensor(TX_FLOAT32, 4, TU_DIMS(1, 4, 4, 1), NULL);
    for (int i = 0; i < 16; i++) ((float *)tx_tensor_data(x))[i] = (float)i;
    assert_int_equal(patches(x, 2, 2, 1, 1, 2, 2, TX_PADDING_VALID, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 4, TU_DIMS(1, 2, 2, 4));
    tu_assert_values(o, TU_VALS(0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* TF's shape tests: [1, 7, 7, 2], ksizes 2x2, rates 2x2, VALID -> [1, 5, 5, 8];
     * ksizes 1x1 rates 2x2 -> [1, 7, 7, 2]. */
    x = iota(4, TU_DIMS(1, 7, 7, 2));
    assert_int_equal(patches(x, 2, 2, 1, 1, 2, 2, TX_PADDING_VALID, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 5, 5, 8));
    tx_tensor_free(o);
    assert_int_equal(patches(x, 1, 1, 1, 1, 2, 2, TX_PADDING_VALID, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 7, 7, 2));
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* VALID with a window larger than the image: C division truncates toward zero, so
     * (3 - 5 + 3) / 3 = 0 is an empty output while (3 - 5 + 1) / 1 = -1 is an error, as TF. */
    x = iota(4, TU_DIMS(1, 3, 3, 1));
    assert_int_equal(patches(x, 5, 1, 3, 1, 1, 1, TX_PADDING_VALID, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 0, 3, 5));
    tx_tensor_free(o);
    tu_assert_error(patches(x, 5, 1, 1, 1, 1, 1, TX_PADDING_VALID, &o), TX_INVALID_ARGUMENT,
                    "output size would be negative: -1");
    assert_null(o);
    /* SAME with a window larger than the image: the padding goes mostly at the end. */
    assert_int_equal(patches(x, 4, 1, 2, 1, 1, 1, TX_PADDING_SAME, &o), TX_OK);
    /* rows: out = 2, needed = (2-1)*2 + 4 - 3 = 3, top = 1; row r covers y = 2r - 1 .. 2r + 2 */
    expect(o, 4, TU_DIMS(1, 2, 3, 4),
           TU_VALS(0, 1, 4, 7, 0, 2, 5, 8, 0, 3, 6, 9, 4, 7, 0, 0, 5, 8, 0, 0, 6, 9, 0, 0));
    tx_tensor_free(x);
}

/* ---- allocation failures --------------------------------------------------------------------- */

static void test_alloc_failure(void **state) {
    (void)state;
    const char *words[] = {"a", "bb", "ccc", "dddd"};
    tx_tensor *x = iota(4, TU_DIMS(4, 2, 2, 1)), *s = tu_strings(4, TU_DIMS(1, 2, 2, 1), words);
    tx_tensor *b22 = tu_i32(2, P32(2, 2)), *p = pairs(2, P64(0, 0, 1, 1)), *c0 = pairs(2, P64(0, 0, 0, 0));
    tx_tensor *in = tu_i32(2, P32(3, 4)), *base = pairs(2, P64(1, 0, 0, 1));
    tx_tensor *xn = iota(4, TU_DIMS(1, 4, 2, 2));
    tu_alloc_install();
    for (int op = 0; op < 16; op++) {
        long k;
        for (k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[2] = {NULL, NULL};
            tx_status st;
            const tx_tensor *src = op >= 8 ? s : x;
            switch (op % 8) {
            case 0: st = tx_space_to_batch_nd(src, b22, p, &o); break;
            case 1: st = tx_batch_to_space_nd(x, b22, c0, &o); break;
            case 2: st = tx_space_to_batch(src, p, 2, &o); break;
            case 3: st = tx_batch_to_space(x, c0, 2, &o); break;
            case 4: st = tx_space_to_depth(src, 2, TX_FORMAT_NHWC, &o); break;
            case 5: st = tx_depth_to_space(xn, 2, TX_FORMAT_NCHW, &o); break;
            case 6: st = patches(src, 2, 2, 1, 1, 1, 1, TX_PADDING_SAME, &o); break;
            default:
                st = tx_required_space_to_batch_paddings(in, b22, base, outs);
                o = outs[0];
                if (st == TX_OK) tx_tensor_free(outs[1]);
                else assert_null(outs[1]);
                break;
            }
            if (st == TX_OK) {
                tx_tensor_free(o);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(o);
            assert_int_equal(tu_alloc_live(), 0);
        }
        assert_true(k >= 2); /* every op allocates */
    }
    tu_alloc_uninstall();
    tx_tensor *objs[] = {x, s, b22, p, c0, in, base, xn};
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) tx_tensor_free(objs[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_space_to_batch_page_examples), cmocka_unit_test(test_batch_to_space_page_examples),
        cmocka_unit_test(test_depth_page_examples),          cmocka_unit_test(test_depth_nchw),
        cmocka_unit_test(test_required_paddings),   cmocka_unit_test(test_patches_tf_vectors),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
