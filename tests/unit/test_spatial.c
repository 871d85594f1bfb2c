/* SPDX-License-Identifier: Apache-2.0 */
/* test_spatial.c -- space_to_batch(_nd), batch_to_space(_nd), required_space_to_batch_paddings,
 * space_to_depth, depth_to_space and extract_image_patches: the examples of TF's page with the
 * values TF really computes (several examples on the page are garbled; each such case says so),
 * TF's own test vectors, edge cases (M = 0, zero-size dims, folded block-1 dims, int64
 * arguments, NCHW, strings), random shapes against naive per-element references, every error
 * with its status and message, and an allocation-failure sweep per op. */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------------------- */

/* int32 tensor holding 1, 2, 3, ... (so that 0 marks padding). */
static tx_tensor *iota(size_t rank, const int64_t *dims) {
    tx_tensor *t = tu_tensor(TX_INT32, rank, dims, NULL);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) ((int32_t *)tx_tensor_data(t))[i] = (int32_t)i + 1;
    return t;
}

/* [m, 2] int64 matrix (m may be 0). */
static tx_tensor *pairs(int64_t m, const int64_t *v) {
    int64_t dims[2] = {m, 2};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT64, 2, dims, v, (size_t)m * 16, &t), TX_OK);
    return t;
}

/* [m, 2] int32 matrix. */
static tx_tensor *pairs32(int64_t m, const int32_t *v) {
    int64_t dims[2] = {m, 2};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT32, 2, dims, v, (size_t)m * 8, &t), TX_OK);
    return t;
}

#define P64(...) ((const int64_t[]){__VA_ARGS__})
#define P32(...) ((const int32_t[]){__VA_ARGS__})

static void expect(tx_tensor *o, size_t rank, const int64_t *dims, const double *vals) {
    tu_assert_shape(o, TX_INT32, rank, dims);
    tu_assert_values(o, vals);
    tx_tensor_free(o);
}

static void check_s2b_nd(tx_tensor *x, tx_tensor *block, tx_tensor *pads, size_t rank,
                         const int64_t *dims, const double *vals) {
    tx_tensor *o = NULL;
    assert_int_equal(tx_space_to_batch_nd(x, block, pads, &o), TX_OK);
    expect(o, rank, dims, vals);
}

static void check_b2s_nd(tx_tensor *x, tx_tensor *block, tx_tensor *crops, size_t rank,
                         const int64_t *dims, const double *vals) {
    tx_tensor *o = NULL;
    assert_int_equal(tx_batch_to_space_nd(x, block, crops, &o), TX_OK);
    expect(o, rank, dims, vals);
}

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

static tx_status patches(const tx_tensor *x, int64_t kr, int64_t kc, int64_t sr, int64_t sc, int64_t rr,
                         int64_t rc, tx_padding pad, tx_tensor **o) {
    int64_t k[4] = {1, kr, kc, 1}, s[4] = {1, sr, sc, 1}, r[4] = {1, rr, rc, 1};
    return tx_extract_image_patches(x, k, 4, s, 4, r, 4, pad, o);
}

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

/* ---- naive references on random shapes --------------------------------------------------------- */

static uint64_t rng_state = 88172645463325252ULL;
static int64_t rnd(int64_t n) { /* [0, n) */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (int64_t)(rng_state % (uint64_t)n);
}

/* Row-major linear index of idx[0..rank) in dims. */
static int64_t lin(size_t rank, const int64_t *dims, const int64_t *idx) {
    int64_t l = 0;
    for (size_t i = 0; i < rank; i++) l = l * dims[i] + idx[i];
    return l;
}

static void test_space_batch_random(void **state) {
    (void)state;
    for (int iter = 0; iter < 400; iter++) {
        size_t m = (size_t)rnd(4), rest = (size_t)rnd(3), rank = 1 + m + rest;
        int64_t dims[8], block[4], pads[8], odims[8];
        dims[0] = rnd(3);
        int64_t nb = 1;
        for (size_t k = 0; k < m; k++) {
            block[k] = 1 + rnd(3);
            dims[1 + k] = rnd(5);
            pads[2 * k] = rnd(3);
            pads[2 * k + 1] = rnd(3);
            /* make the padded size divisible */
            int64_t tot = dims[1 + k] + pads[2 * k] + pads[2 * k + 1];
            pads[2 * k + 1] += (block[k] - tot % block[k]) % block[k];
            if (rnd(4) == 0) pads[2 * k] = pads[2 * k + 1] = 0, block[k] = 1;
            if (rnd(4) == 0) { /* no padding: pick a divisible size */
                pads[2 * k] = pads[2 * k + 1] = 0;
                dims[1 + k] = block[k] * rnd(3);
            }
            odims[1 + k] = (dims[1 + k] + pads[2 * k] + pads[2 * k + 1]) / block[k];
            nb *= block[k];
        }
        for (size_t d = 1 + m; d < rank; d++) dims[d] = odims[d] = rnd(4);
        odims[0] = dims[0] * nb;
        tx_tensor *x = iota(rank, dims), *bt = tu_i64(m, block), *pt = pairs((int64_t)m, pads);
        tx_tensor *o = NULL, *back = NULL;
        assert_int_equal(tx_space_to_batch_nd(x, bt, pt, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, rank, odims);
        const int32_t *xv = tx_tensor_data(x), *ov = tx_tensor_data(o);
        int64_t idx[8], src[8];
        for (int64_t l = 0; l < tx_tensor_numel(o); l++) {
            int64_t r = l;
            for (size_t d = rank; d-- > 0;) idx[d] = r % odims[d], r /= odims[d];
            int64_t b = idx[0] % dims[0], oi = idx[0] / dims[0];
            bool inside = true;
            for (size_t k = m; k-- > 0;) {
                int64_t off = oi % block[k];
                oi /= block[k];
                src[1 + k] = idx[1 + k] * block[k] + off - pads[2 * k];
                if (src[1 + k] < 0 || src[1 + k] >= dims[1 + k]) inside = false;
            }
            src[0] = b;
            for (size_t d = 1 + m; d < rank; d++) src[d] = idx[d];
            int32_t want = inside ? xv[lin(rank, dims, src)] : 0;
            if (ov[l] != want) fail_msg("iter %d: element %lld: got %d want %d", iter, (long long)l, ov[l], want);
        }
        /* batch_to_space_nd with crops = paddings inverts it. */
        assert_int_equal(tx_batch_to_space_nd(o, bt, pt, &back), TX_OK);
        tu_assert_shape(back, TX_INT32, rank, dims);
        if (tx_tensor_numel(x)) assert_memory_equal(tx_tensor_data(back), xv, (size_t)tx_tensor_numel(x) * 4);
        tx_tensor_free(back);
        /* batch_to_space_nd of a random batch tensor against its own per-element reference. */
        if (dims[0] > 0) {
            tx_tensor *y = iota(rank, odims), *z = NULL;
            assert_int_equal(tx_batch_to_space_nd(y, bt, pt, &z), TX_OK);
            tu_assert_shape(z, TX_INT32, rank, dims);
            const int32_t *yv = tx_tensor_data(y), *zv = tx_tensor_data(z);
            for (int64_t l = 0; l < tx_tensor_numel(z); l++) {
                int64_t r = l;
                for (size_t d = rank; d-- > 0;) idx[d] = r % dims[d], r /= dims[d];
                int64_t oi = 0;
                for (size_t k = 0; k < m; k++) {
                    int64_t u = idx[1 + k] + pads[2 * k];
                    oi = oi * block[k] + u % block[k];
                    src[1 + k] = u / block[k];
                }
                src[0] = oi * dims[0] + idx[0];
                for (size_t d = 1 + m; d < rank; d++) src[d] = idx[d];
                assert_int_equal(zv[l], yv[lin(rank, odims, src)]);
            }
            tx_tensor_free(z);
            tx_tensor_free(y);
        }
        tx_tensor_free(o);
        tx_tensor_free(x);
        tx_tensor_free(bt);
        tx_tensor_free(pt);
    }
}

static void test_patches_random(void **state) {
    (void)state;
    for (int iter = 0; iter < 300; iter++) {
        int64_t B = rnd(3), R = rnd(7), C = rnd(7), D = 1 + rnd(3);
        int64_t kr = 1 + rnd(3), kc = 1 + rnd(3), sr = 1 + rnd(3), sc = 1 + rnd(3);
        int64_t rr = 1 + rnd(3), rc = 1 + rnd(3);
        tx_padding pad = rnd(2) ? TX_PADDING_SAME : TX_PADDING_VALID;
        tx_dtype dt = rnd(2) ? TX_INT32 : TX_INT8;
        tx_tensor *x = tu_tensor(dt, 4, TU_DIMS(B, R, C, D), NULL), *o = NULL;
        for (int64_t i = 0; i < tx_tensor_numel(x); i++) {
            if (dt == TX_INT32) ((int32_t *)tx_tensor_data(x))[i] = (int32_t)i + 1;
            else ((int8_t *)tx_tensor_data(x))[i] = (int8_t)(i % 100 + 1);
        }
        int64_t ker = (kr - 1) * rr + 1, kec = (kc - 1) * rc + 1, OR, OC, pt = 0, pl = 0;
        if (pad == TX_PADDING_VALID) {
            OR = (R - ker + sr) / sr;
            OC = (C - kec + sc) / sc;
        } else {
            OR = (R + sr - 1) / sr;
            OC = (C + sc - 1) / sc;
            int64_t nr = (OR - 1) * sr + ker - R, nc = (OC - 1) * sc + kec - C;
            pt = nr > 0 ? nr / 2 : 0;
            pl = nc > 0 ? nc / 2 : 0;
        }
        tx_status st = patches(x, kr, kc, sr, sc, rr, rc, pad, &o);
        if (OR < 0 || OC < 0) {
            tu_assert_error(st, TX_INVALID_ARGUMENT, "would be negative");
            tx_tensor_free(x);
            continue;
        }
        assert_int_equal(st, TX_OK);
        tu_assert_shape(o, dt, 4, TU_DIMS(B, OR, OC, kr * kc * D));
        for (int64_t b = 0; b < B; b++)
            for (int64_t r = 0; r < OR; r++)
                for (int64_t c = 0; c < OC; c++)
                    for (int64_t i = 0; i < kr; i++)
                        for (int64_t j = 0; j < kc; j++)
                            for (int64_t d = 0; d < D; d++) {
                                int64_t y = r * sr + i * rr - pt, xx = c * sc + j * rc - pl;
                                int64_t ol = ((b * OR + r) * OC + c) * kr * kc * D + (i * kc + j) * D + d;
                                int64_t il = ((b * R + y) * C + xx) * D + d;
                                bool in = y >= 0 && y < R && xx >= 0 && xx < C;
                                if (dt == TX_INT32)
                                    assert_int_equal(((int32_t *)tx_tensor_data(o))[ol],
                                                     in ? ((int32_t *)tx_tensor_data(x))[il] : 0);
                                else
                                    assert_int_equal(((int8_t *)tx_tensor_data(o))[ol],
                                                     in ? ((int8_t *)tx_tensor_data(x))[il] : 0);
                            }
        tx_tensor_free(o);
        tx_tensor_free(x);
    }
}

static void test_depth_random(void **state) {
    (void)state;
    const tx_dtype dts[] = {TX_INT8, TX_INT16, TX_INT32, TX_FLOAT64, TX_COMPLEX128, TX_BOOL};
    for (int iter = 0; iter < 200; iter++) {
        int64_t bs = 2 + rnd(3), N = rnd(3), H = bs * rnd(3), W = bs * rnd(3), C = 1 + rnd(3);
        tx_data_format f = rnd(2) ? TX_FORMAT_NCHW : TX_FORMAT_NHWC;
        tx_dtype dt = dts[rnd(6)];
        int64_t dims[4] = {N, H, W, C};
        if (f == TX_FORMAT_NCHW) dims[1] = C, dims[2] = H, dims[3] = W;
        tx_tensor *y = NULL, *z = NULL, *xt = NULL;
        assert_int_equal(tx_tensor_new(dt, 4, dims, &xt), TX_OK);
        unsigned char *bytes = tx_tensor_data(xt);
        for (size_t i = 0; i < tx_tensor_nbytes(xt); i++) bytes[i] = (unsigned char)(dt == TX_BOOL ? rnd(2) : rnd(256));
        assert_int_equal(tx_space_to_depth(xt, bs, f, &y), TX_OK);
        int64_t want[4] = {N, H / bs, W / bs, C * bs * bs};
        if (f == TX_FORMAT_NCHW) want[1] = C * bs * bs, want[2] = H / bs, want[3] = W / bs;
        tu_assert_shape(y, dt, 4, want);
        /* NHWC: check one element formula; both formats: depth_to_space inverts. */
        if (f == TX_FORMAT_NHWC && tx_tensor_numel(y) > 0) {
            size_t e = tx_dtype_size(dt);
            int64_t n = rnd(N), oy = rnd(H / bs), ox = rnd(W / bs), dy = rnd(bs), dx = rnd(bs), k = rnd(C);
            int64_t ol = ((n * (H / bs) + oy) * (W / bs) + ox) * C * bs * bs + (dy * bs + dx) * C + k;
            int64_t il = ((n * H + oy * bs + dy) * W + ox * bs + dx) * C + k;
            assert_memory_equal((char *)tx_tensor_data(y) + ol * (int64_t)e, bytes + il * (int64_t)e, e);
        }
        assert_int_equal(tx_depth_to_space(y, bs, f, &z), TX_OK);
        tu_assert_shape(z, dt, 4, dims);
        if (tx_tensor_nbytes(xt)) assert_memory_equal(tx_tensor_data(z), bytes, tx_tensor_nbytes(xt));
        tx_tensor_free(y);
        tx_tensor_free(z);
        tx_tensor_free(xt);
    }
}

/* ---- edge cases ---------------------------------------------------------------------------------- */

static void test_space_batch_edges(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* M = 0: a copy of the input with its own buffer (paddings must still be [0, 2]). */
    tx_tensor *x = iota(2, TU_DIMS(2, 3)), *b0 = tu_i32(0, NULL), *p0 = pairs(0, NULL);
    assert_int_equal(tx_space_to_batch_nd(x, b0, p0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 3));
    assert_false(tx_tensor_shares_buffer(o, x));
    tu_assert_values(o, TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor_free(o);
    assert_int_equal(tx_batch_to_space_nd(x, b0, p0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor_free(o);
    /* A rank-1 input with M = 0 too. */
    tx_tensor *v = iota(1, TU_DIMS(3));
    assert_int_equal(tx_space_to_batch_nd(v, b0, p0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(1, 2, 3));
    tx_tensor_free(o);
    tx_tensor_free(v);
    tx_tensor_free(x);
    tx_tensor_free(b0);
    tx_tensor_free(p0);
    /* M = 1 with a block of 1 and padding: plain zero padding. */
    x = iota(3, TU_DIMS(1, 2, 2));
    tx_tensor *b1 = tu_i64(1, P64(1)), *p1 = pairs(1, P64(1, 2));
    assert_int_equal(tx_space_to_batch_nd(x, b1, p1, &o), TX_OK);
    expect(o, 3, TU_DIMS(1, 5, 2), TU_VALS(0, 0, 1, 2, 3, 4, 0, 0, 0, 0));
    tx_tensor_free(p1);
    tx_tensor_free(b1);
    tx_tensor_free(x);
    /* A spatial dim of 0 padded to a block: every output cell is padding. */
    x = iota(4, TU_DIMS(1, 0, 2, 1));
    tx_tensor *b22 = tu_i32(2, P32(2, 2)), *pp = pairs(2, P64(1, 1, 0, 0));
    assert_int_equal(tx_space_to_batch_nd(x, b22, pp, &o), TX_OK);
    expect(o, 4, TU_DIMS(4, 1, 1, 1), TU_VALS(0, 0, 0, 0));
    tx_tensor_free(x);
    /* Batch 0: empty output. */
    x = iota(4, TU_DIMS(0, 2, 2, 1));
    assert_int_equal(tx_space_to_batch_nd(x, b22, pp, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(0, 2, 1, 1));
    tx_tensor_free(o);
    tx_tensor_free(x);
    tx_tensor_free(pp);
    /* A huge block with an empty batch: no loop over prod(block) block offsets. */
    x = iota(3, TU_DIMS(0, 4, 1));
    tx_tensor *bh = tu_i64(1, P64(1LL << 40)), *ph = pairs(1, P64(0, (1LL << 40) - 4));
    assert_int_equal(tx_space_to_batch_nd(x, bh, ph, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(0, 1, 1));
    tx_tensor_free(o);
    tx_tensor_free(x);
    x = iota(3, TU_DIMS(0, 1, 1));
    assert_int_equal(tx_batch_to_space_nd(x, bh, ph, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(0, 4, 1));
    tx_tensor_free(o);
    tx_tensor_free(x);
    tx_tensor_free(bh);
    tx_tensor_free(ph);
    /* Cropping everything away. */
    x = iota(4, TU_DIMS(4, 1, 1, 1));
    tx_tensor *call = pairs(2, P64(1, 1, 0, 2));
    assert_int_equal(tx_batch_to_space_nd(x, b22, call, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 0, 0, 1));
    tx_tensor_free(o);
    tx_tensor_free(call);
    tx_tensor_free(x);
    tx_tensor_free(b22);
    /* Block-1 leading/trailing dims are folded (a plan detail): results are unchanged. */
    x = iota(5, TU_DIMS(2, 3, 4, 2, 2));
    tx_tensor *bf = tu_i64(3, P64(1, 2, 1)), *pf = pairs(3, P64(0, 0, 1, 1, 0, 0)), *back = NULL;
    assert_int_equal(tx_space_to_batch_nd(x, bf, pf, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 5, TU_DIMS(4, 3, 3, 2, 2));
    const int32_t *ov = tx_tensor_data(o);
    /* batch 2 = offset 1, b 0: rows of x[0, :, 1 + 2q - 1] */
    assert_int_equal(ov[((2 * 3 + 0) * 3 + 0) * 4 + 0], 1 + ((0 * 3 + 0) * 4 + 0) * 4);
    assert_int_equal(ov[((2 * 3 + 0) * 3 + 1) * 4 + 0], 1 + ((0 * 3 + 0) * 4 + 2) * 4);
    assert_int_equal(ov[((0 * 3 + 0) * 3 + 0) * 4 + 0], 0); /* offset 0, q 0 -> padding */
    assert_int_equal(tx_batch_to_space_nd(o, bf, pf, &back), TX_OK);
    assert_memory_equal(tx_tensor_data(back), tx_tensor_data(x), 96 * 4);
    tx_tensor_free(back);
    tx_tensor_free(o);
    tx_tensor_free(bf);
    tx_tensor_free(pf);
    tx_tensor_free(x);
}

static void test_strings(void **state) {
    (void)state;
    const char *words[] = {"a", "bb", "ccc", "dddd"};
    tx_tensor *s = tu_strings(4, TU_DIMS(1, 2, 2, 1), words), *o = NULL, *b22 = tu_i32(2, P32(2, 2));
    tx_tensor *pp = pairs(2, P64(0, 0, 1, 1));
    /* space_to_batch_nd with padding: padding cells are empty strings. */
    assert_int_equal(tx_space_to_batch_nd(s, b22, pp, &o), TX_OK);
    tu_assert_shape(o, TX_STRING, 4, TU_DIMS(4, 1, 2, 1));
    const char *want[] = {"", "bb", "a", "", "", "dddd", "ccc", ""};
    for (int i = 0; i < 8; i++) {
        const tx_string *e = tx_tensor_string(o, i);
        assert_int_equal(e->size, strlen(want[i]));
        if (e->size) assert_memory_equal(e->data, want[i], e->size);
    }
    /* The output keeps the bytes alive after the input goes. */
    tx_tensor *back = NULL;
    assert_int_equal(tx_batch_to_space_nd(o, b22, pp, &back), TX_OK);
    tx_tensor_free(s);
    tx_tensor_free(o);
    for (int i = 0; i < 4; i++) {
        const tx_string *e = tx_tensor_string(back, i);
        assert_int_equal(e->size, strlen(words[i]));
        assert_memory_equal(e->data, words[i], e->size);
    }
    /* space_to_depth / depth_to_space / patches on strings. */
    tx_tensor *d = NULL, *sp = NULL, *pt = NULL;
    assert_int_equal(tx_space_to_depth(back, 2, TX_FORMAT_NHWC, &d), TX_OK);
    tu_assert_shape(d, TX_STRING, 4, TU_DIMS(1, 1, 1, 4));
    tx_tensor *s4 = tu_strings(4, TU_DIMS(1, 4, 1, 1), words);
    assert_int_equal(tx_depth_to_space(s4, 2, TX_FORMAT_NCHW, &sp), TX_OK);
    tx_tensor_free(s4);
    tu_assert_shape(sp, TX_STRING, 4, TU_DIMS(1, 1, 2, 2));
    assert_memory_equal(tx_tensor_string(sp, 3)->data, "dddd", 4);
    assert_int_equal(patches(back, 2, 2, 1, 1, 1, 1, TX_PADDING_SAME, &pt), TX_OK);
    tu_assert_shape(pt, TX_STRING, 4, TU_DIMS(1, 2, 2, 4));
    tx_tensor_free(back);
    tx_tensor_free(d);
    assert_memory_equal(tx_tensor_string(pt, 1)->data, "bb", 2); /* patch (0,0) = a bb ccc dddd */
    assert_int_equal(tx_tensor_string(pt, 5)->size, 0);          /* patch (0,1) = bb "" dddd "" */
    assert_memory_equal(tx_tensor_string(sp, 0)->data, "a", 1);
    tx_tensor_free(sp);
    tx_tensor_free(pt);
    tx_tensor_free(b22);
    tx_tensor_free(pp);
}

/* ---- errors -------------------------------------------------------------------------------------- */

static void test_space_batch_errors(void **state) {
    (void)state;
    tx_tensor *x = iota(4, TU_DIMS(2, 4, 4, 1)), *o = NULL;
    tx_tensor *b22 = tu_i32(2, P32(2, 2)), *p0 = pairs(2, P64(0, 0, 0, 0));
    tu_assert_error(tx_space_to_batch_nd(x, b22, p0, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_space_to_batch_nd(NULL, b22, p0, &o), TX_INVALID_ARGUMENT, "input is NULL");
    tu_assert_error(tx_space_to_batch_nd(x, NULL, p0, &o), TX_INVALID_ARGUMENT, "block_shape is NULL");
    tu_assert_error(tx_batch_to_space_nd(x, b22, NULL, &o), TX_INVALID_ARGUMENT, "crops is NULL");
    tx_tensor *fb = tu_tensor(TX_FLOAT32, 1, TU_DIMS(2), TU_VALS(2, 2));
    /* a dtype the op does not take: unimplemented (TF 2.21 decides) */
    tu_assert_error(tx_space_to_batch_nd(x, fb, p0, &o), TX_UNIMPLEMENTED,
                    "block_shape must be int32 or int64, got float32");
    tx_tensor *b2d = pairs(1, P64(2, 2));
    tu_assert_error(tx_space_to_batch_nd(x, b2d, p0, &o), TX_INVALID_ARGUMENT,
                    "block_shape must be 1-D, got rank 2");
    tx_tensor *b4 = tu_i32(4, P32(2, 2, 1, 1));
    tu_assert_error(tx_space_to_batch_nd(x, b4, p0, &o), TX_INVALID_ARGUMENT,
                    "input rank must be >= 1 + M = 5");
    tx_tensor *p3 = pairs(3, P64(0, 0, 0, 0, 0, 0));
    tu_assert_error(tx_space_to_batch_nd(x, b22, p3, &o), TX_INVALID_ARGUMENT,
                    "paddings must have shape [2, 2], got [3,2]");
    tx_tensor *pv = tu_i32(4, P32(0, 0, 0, 0));
    tu_assert_error(tx_batch_to_space_nd(x, b22, pv, &o), TX_INVALID_ARGUMENT,
                    "crops must have shape [2, 2], got [4]");
    tx_tensor *fp = tu_tensor(TX_FLOAT64, 2, TU_DIMS(2, 2), TU_VALS(0, 0, 0, 0));
    /* a dtype the op does not take: unimplemented (TF 2.21 decides) */
    tu_assert_error(tx_space_to_batch_nd(x, b22, fp, &o), TX_UNIMPLEMENTED,
                    "paddings must be int32 or int64, got float64");
    /* ... before any other check (block_shape's rank, the legacy block_size), as TF's op
     * definition is checked before its kernel */
    tu_assert_error(tx_space_to_batch_nd(x, b2d, fp, &o), TX_UNIMPLEMENTED,
                    "paddings must be int32 or int64, got float64");
    tu_assert_error(tx_space_to_batch(x, fp, 1, &o), TX_UNIMPLEMENTED,
                    "paddings must be int32 or int64, got float64");
    tx_tensor *b0 = tu_i32(2, P32(2, 0));
    tu_assert_error(tx_space_to_batch_nd(x, b0, p0, &o), TX_INVALID_ARGUMENT,
                    "block_shape[1] = 0 must be >= 1");
    tu_assert_error(tx_batch_to_space_nd(x, b0, p0, &o), TX_INVALID_ARGUMENT,
                    "block_shape[1] = 0 must be >= 1");
    tx_tensor *bneg = tu_i64(2, P64(-1, -1)); /* product 1: TF's kernel alone would not notice */
    tu_assert_error(tx_batch_to_space_nd(x, bneg, p0, &o), TX_INVALID_ARGUMENT,
                    "block_shape[0] = -1 must be >= 1");
    tx_tensor *pneg = pairs(2, P64(0, 0, -2, 2));
    tu_assert_error(tx_space_to_batch_nd(x, b22, pneg, &o), TX_INVALID_ARGUMENT,
                    "paddings[1] = [-2, 2] must be non-negative");

    tx_tensor *b3 = tu_i32(2, P32(3, 2));
    tu_assert_error(tx_space_to_batch_nd(x, b3, p0, &o), TX_INVALID_ARGUMENT,
                    "padded size 4 of spatial dim 0 (4 + 0 + 0) is not divisible by block_shape[0] = 3");
    tu_assert_error(tx_batch_to_space_nd(x, b3, p0, &o), TX_INVALID_ARGUMENT,
                    "input batch 2 is not divisible by the product of block_shape 6");
    tx_tensor *xb = iota(4, TU_DIMS(4, 1, 2, 1)), *cbig = pairs(2, P64(1, 1, 3, 2));
    tu_assert_error(tx_batch_to_space_nd(xb, b22, pneg, &o), TX_INVALID_ARGUMENT,
                    "crops[1] = [-2, 2] must be non-negative");
    tu_assert_error(tx_batch_to_space_nd(xb, b22, cbig, &o), TX_INVALID_ARGUMENT,
                    "crops[1] = [3, 2] are larger than spatial dim 1 of size 2 * 2 = 4");
    /* overflow of the block product and of the output batch */
    tx_tensor *bbig = tu_i64(2, P64(1LL << 32, 1LL << 32));
    tu_assert_error(tx_space_to_batch_nd(x, bbig, p0, &o), TX_INVALID_ARGUMENT,
                    "product of block_shape overflows int64");
    tx_tensor *bb2 = tu_i64(2, P64(1LL << 31, 1LL << 31)), *ppbig = pairs(2, P64(0, (1LL << 31) - 4, 0, (1LL << 31) - 4));
    tx_tensor *xbig = iota(4, TU_DIMS(4, 4, 4, 1));
    tu_assert_error(tx_space_to_batch_nd(xbig, bb2, ppbig, &o), TX_INVALID_ARGUMENT,
                    "output batch 4 * 4611686018427387904 overflows int64");
    tx_tensor *pmax = pairs(2, P64(INT64_MAX, 1, 0, 0));
    tu_assert_error(tx_space_to_batch_nd(x, b22, pmax, &o), TX_INVALID_ARGUMENT,
                    "padded size of spatial dim 0 overflows int64");
    tx_tensor *b1 = tu_i64(2, P64(1, INT64_MAX)), *x0 = iota(4, TU_DIMS(0, 1, 2, 1));
    tu_assert_error(tx_batch_to_space_nd(x0, b1, p0, &o), TX_INVALID_ARGUMENT,
                    "times block_shape[1] = 9223372036854775807 overflows int64");
    /* a result too large to allocate (under a 1 GiB limit) */
    tx_tensor *xs = iota(4, TU_DIMS(1, 1, 1, 1)), *bh = tu_i64(2, P64(1LL << 20, 1LL << 20));
    tx_tensor *ph = pairs(2, P64(0, (1LL << 20) - 1, 0, (1LL << 20) - 1));
    tx_set_max_tensor_bytes((size_t)1 << 30);
    tu_assert_error(tx_space_to_batch_nd(xs, bh, ph, &o), TX_RESOURCE_EXHAUSTED, "space_to_batch_nd");
    tx_set_max_tensor_bytes(0);
    assert_null(o);
    /* legacy forms */
    tu_assert_error(tx_space_to_batch(x, p0, 1, &o), TX_INVALID_ARGUMENT, "block_size must be > 1, got 1");
    tu_assert_error(tx_batch_to_space(x, p0, 0, &o), TX_INVALID_ARGUMENT, "block_size must be > 1, got 0");
    tx_tensor *x3 = iota(3, TU_DIMS(1, 2, 2));
    tu_assert_error(tx_space_to_batch(x3, p0, 2, &o), TX_INVALID_ARGUMENT, "input must be 4-D, got rank 3");
    tu_assert_error(tx_batch_to_space(x3, p0, 2, &o), TX_INVALID_ARGUMENT, "input must be 4-D, got rank 3");
    tu_assert_error(tx_space_to_batch(x, p3, 2, &o), TX_INVALID_ARGUMENT, "paddings must have shape [2, 2]");
    tu_assert_error(tx_batch_to_space(x, p0, 2, &o), TX_INVALID_ARGUMENT,
                    "batch_to_space: input batch 2 is not divisible by the product of block_shape 4");
    tu_assert_error(tx_space_to_batch(x, p0, 3, &o), TX_INVALID_ARGUMENT, "space_to_batch: padded size 4");
    assert_null(o);
    tx_tensor *objs[] = {x, b22, p0, fb, b2d, b4, p3, pv, fp, b0, bneg, pneg, b3, xb, cbig, bbig, bb2,
                         ppbig, xbig, pmax, b1, x0, xs, bh, ph, x3};
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++) tx_tensor_free(objs[i]);
}

static void test_depth_errors(void **state) {
    (void)state;
    tx_tensor *x = iota(4, TU_DIMS(1, 4, 6, 4)), *o = NULL;
    tu_assert_error(tx_space_to_depth(x, 2, TX_FORMAT_NHWC, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_depth_to_space(NULL, 2, TX_FORMAT_NHWC, &o), TX_INVALID_ARGUMENT, "input is NULL");
    tu_assert_error(tx_space_to_depth(x, 1, TX_FORMAT_NHWC, &o), TX_INVALID_ARGUMENT,
                    "block_size must be > 1, got 1");
    tu_assert_error(tx_depth_to_space(x, -2, TX_FORMAT_NHWC, &o), TX_INVALID_ARGUMENT,
                    "block_size must be > 1, got -2");
    tu_assert_error(tx_space_to_depth(x, 2, (tx_data_format)7, &o), TX_INVALID_ARGUMENT,
                    "data_format 7 is not NHWC");
    tu_assert_error(tx_space_to_depth(x, 2, TX_FORMAT_NCHW_VECT_C, &o), TX_UNIMPLEMENTED,
                    "NCHW_VECT_C is not supported");
    tu_assert_error(tx_depth_to_space(x, 2, TX_FORMAT_NCHW_VECT_C, &o), TX_UNIMPLEMENTED,
                    "NCHW_VECT_C is not supported");
    tx_tensor *x3 = iota(3, TU_DIMS(4, 4, 4));
    tu_assert_error(tx_space_to_depth(x3, 2, TX_FORMAT_NHWC, &o), TX_INVALID_ARGUMENT,
                    "input must be 4-D, got rank 3");
    tu_assert_error(tx_depth_to_space(x3, 2, TX_FORMAT_NCHW, &o), TX_INVALID_ARGUMENT,
                    "input must be 4-D, got rank 3");
    tu_assert_error(tx_space_to_depth(x, 4, TX_FORMAT_NHWC, &o), TX_INVALID_ARGUMENT,
                    "height 4 and width 6 must be divisible by block_size 4");
    /* NCHW reads height and width from dims 2 and 3: [1, 4, 6, 4] has height 6, width 4. */
    tu_assert_error(tx_space_to_depth(x, 4, TX_FORMAT_NCHW, &o), TX_INVALID_ARGUMENT,
                    "height 6 and width 4 must be divisible by block_size 4");
    tu_assert_error(tx_depth_to_space(x, 3, TX_FORMAT_NHWC, &o), TX_INVALID_ARGUMENT,
                    "depth 4 must be divisible by block_size * block_size = 3 * 3");
    tu_assert_error(tx_depth_to_space(x, 3LL << 32, TX_FORMAT_NHWC, &o), TX_INVALID_ARGUMENT,
                    "depth 4 must be divisible");
    /* depth 0 is divisible by anything; the output height then overflows. */
    tx_tensor *z = iota(4, TU_DIMS(1, 4, 4, 0));
    tu_assert_error(tx_depth_to_space(z, 1LL << 62, TX_FORMAT_NHWC, &o), TX_INVALID_ARGUMENT,
                    "overflows int64");
    assert_int_equal(tx_depth_to_space(z, 2, TX_FORMAT_NHWC, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 8, 8, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_space_to_depth(z, 2, TX_FORMAT_NHWC, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 2, 2, 0));
    tx_tensor_free(o);
    tx_tensor_free(z);
    tx_tensor_free(x3);
    tx_tensor_free(x);
}

static void test_patches_errors(void **state) {
    (void)state;
    tx_tensor *x = iota(4, TU_DIMS(1, 3, 3, 1)), *o = NULL;
    int64_t k[5] = {1, 2, 2, 1, 1}, s[4] = {1, 1, 1, 1}, r[4] = {1, 1, 1, 1};
    tu_assert_error(tx_extract_image_patches(x, k, 4, s, 4, r, 4, TX_PADDING_VALID, NULL),
                    TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_extract_image_patches(NULL, k, 4, s, 4, r, 4, TX_PADDING_VALID, &o),
                    TX_INVALID_ARGUMENT, "images is NULL");
    tu_assert_error(tx_extract_image_patches(x, k, 5, s, 4, r, 4, TX_PADDING_VALID, &o),
                    TX_INVALID_ARGUMENT, "ksizes must have 4 entries, got 5");
    tu_assert_error(tx_extract_image_patches(x, k, 4, s, 3, r, 4, TX_PADDING_VALID, &o),
                    TX_INVALID_ARGUMENT, "strides must have 4 entries, got 3");
    tu_assert_error(tx_extract_image_patches(x, k, 4, s, 4, NULL, 4, TX_PADDING_VALID, &o),
                    TX_INVALID_ARGUMENT, "rates must have 4 entries, got 0");
    int64_t bad0[4] = {2, 1, 1, 1}, bad3[4] = {1, 1, 1, 3}, zero[4] = {1, 0, 1, 1}, big[4] = {1, 1LL << 31, 1, 1};
    tu_assert_error(tx_extract_image_patches(x, bad0, 4, s, 4, r, 4, TX_PADDING_VALID, &o),
                    TX_UNIMPLEMENTED, "ksizes = [2, 1, 1, 1]: only [1, rows, cols, 1] is supported");
    tu_assert_error(tx_extract_image_patches(x, k, 4, bad3, 4, r, 4, TX_PADDING_VALID, &o),
                    TX_UNIMPLEMENTED, "strides = [1, 1, 1, 3]");
    tu_assert_error(tx_extract_image_patches(x, k, 4, s, 4, zero, 4, TX_PADDING_VALID, &o),
                    TX_OUT_OF_RANGE, "rates = [1, 0, 1, 1] is out of range");
    tu_assert_error(tx_extract_image_patches(x, zero, 4, s, 4, r, 4, TX_PADDING_SAME, &o),
                    TX_OUT_OF_RANGE, "ksizes = [1, 0, 1, 1] is out of range");
    tu_assert_error(tx_extract_image_patches(x, big, 4, s, 4, r, 4, TX_PADDING_SAME, &o),
                    TX_INVALID_ARGUMENT, "ksizes[1] = 2147483648 does not fit int32");
    tu_assert_error(tx_extract_image_patches(x, k, 4, s, 4, r, 4, (tx_padding)0, &o),
                    TX_INVALID_ARGUMENT, "padding 0 is not VALID (1) or SAME (2)");
    tx_tensor *x3 = iota(3, TU_DIMS(3, 3, 1));
    tu_assert_error(tx_extract_image_patches(x3, k, 4, s, 4, r, 4, TX_PADDING_SAME, &o),
                    TX_INVALID_ARGUMENT, "images must be 4-D, got rank 3");
    int64_t kb[4] = {1, 3, 1, 1}, rb[4] = {1, 2, 1, 1};
    tu_assert_error(tx_extract_image_patches(x, kb, 4, s, 4, rb, 4, TX_PADDING_VALID, &o),
                    TX_INVALID_ARGUMENT, "rows input size: 3, effective filter size: 5, stride: 1");
    assert_null(o);
    /* Huge but valid lists: the output depth overflows int64 -> invalid; a large output is refused. */
    int64_t kh[4] = {1, 2147483647, 2147483647, 1}, sh[4] = {1, 1, 1, 1};
    tx_tensor *w = iota(4, TU_DIMS(1, 1, 1, 4));
    tu_assert_error(tx_extract_image_patches(w, kh, 4, sh, 4, r, 4, TX_PADDING_SAME, &o),
                    TX_INVALID_ARGUMENT, "output depth");
    tx_tensor_free(w);
    tx_tensor *v = iota(4, TU_DIMS(1, 4, 4, 1));
    int64_t kk[4] = {1, 40000, 40000, 1};
    tx_set_max_tensor_bytes((size_t)1 << 30);
    tu_assert_error(tx_extract_image_patches(v, kk, 4, sh, 4, r, 4, TX_PADDING_SAME, &o),
                    TX_RESOURCE_EXHAUSTED, "extract_image_patches");
    tx_set_max_tensor_bytes(0);
    tx_tensor_free(v);
    tx_tensor_free(x3);
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

/* ---- batch_to_space crops policies (tx_batch_to_space_nd_oob / tx_batch_to_space_oob) ---------- */

static tx_tensor *b2s_ex(const tx_tensor *x, const tx_tensor *block, const tx_tensor *crops,
                         tx_oob_policy oob) {
    tx_tensor *o = NULL;
    tx_status st = tx_batch_to_space_nd_oob(x, block, crops, oob, &o);
    if (st != TX_OK) fail_msg("batch_to_space_nd_oob: %s", tx_last_error());
    return o;
}

static void test_b2s_oob_policies(void **state) {
    (void)state;
    /* 1-D: batch 2, block 2, one spatial dim of 3: the expanded dim is 1 4 2 5 3 6 (full = 6) */
    tx_tensor *x = iota(2, TU_DIMS(2, 3)), *bl = tu_i64(1, P64(2));
    tx_tensor *c = pairs(1, P64(-2, 5)); /* positions -2 .. 0: size 6 + 2 - 5 = 3 */
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 2, TU_DIMS(1, 3), TU_VALS(0, 0, 1));
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 2, TU_DIMS(1, 3), TU_VALS(1, 1, 1));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 3), TU_VALS(3, 6, 1));
    tx_tensor *o = NULL;
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "crops[0] = [-2, 5] must be non-negative");
    tx_tensor_free(c);
    c = pairs(1, P64(4, -3)); /* positions 4 .. 8 */
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 2, TU_DIMS(1, 5), TU_VALS(3, 6, 0, 0, 0));
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 2, TU_DIMS(1, 5), TU_VALS(3, 6, 6, 6, 6));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 5), TU_VALS(3, 6, 1, 4, 2));
    tx_tensor_free(c);
    /* crops beyond the dim: an empty output under every policy but error */
    c = pairs(1, P64(5, 4));
    for (int p = TX_OOB_ZERO; p <= TX_OOB_WRAP; p++)
        expect(b2s_ex(x, bl, c, (tx_oob_policy)p), 2, TU_DIMS(1, 0), TU_VALS(0));
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "crops[0] = [5, 4] are larger than spatial dim 0 of size 3 * 2 = 6");
    tx_tensor_free(c);
    /* crops inside TF's rule: TF's result under every policy */
    c = pairs(1, P64(1, 2));
    for (int p = TX_OOB_ERROR; p <= TX_OOB_WRAP; p++)
        expect(b2s_ex(x, bl, c, (tx_oob_policy)p), 2, TU_DIMS(1, 3), TU_VALS(4, 2, 5));
    tx_tensor_free(c);
    tx_tensor_free(x);
    tx_tensor_free(bl);
    /* 2-D with a remaining dim: [4, 1, 1, 2] block [2, 2] expands to [1, 2, 2, 2] */
    x = iota(4, TU_DIMS(4, 1, 1, 2));
    bl = tu_i64(2, P64(2, 2));
    c = pairs(2, P64(-1, 0, 1, -1)); /* rows -1, 0, 1; cols 1, 2 */
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 4, TU_DIMS(1, 3, 2, 2), TU_VALS(0, 0, 0, 0, 3, 4, 0, 0, 7, 8, 0, 0));
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 4, TU_DIMS(1, 3, 2, 2), TU_VALS(3, 4, 3, 4, 3, 4, 3, 4, 7, 8, 7, 8));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 4, TU_DIMS(1, 3, 2, 2), TU_VALS(7, 8, 5, 6, 3, 4, 1, 2, 7, 8, 5, 6));
    tx_tensor_free(c);
    /* the legacy 4-D form takes the same policies */
    c = pairs(2, P64(0, -1, 1, 0));
    tx_status st = tx_batch_to_space_oob(x, c, 2, TX_OOB_CLAMP, &o);
    assert_int_equal(st, TX_OK);
    expect(o, 4, TU_DIMS(1, 3, 1, 2), TU_VALS(3, 4, 7, 8, 7, 8));
    tu_assert_error(tx_batch_to_space_oob(x, c, 2, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "batch_to_space: crops[0] = [0, -1] must be non-negative");
    tu_assert_error(tx_batch_to_space_oob(x, c, 2, (tx_oob_policy)9, &o), TX_INVALID_ARGUMENT,
                    "batch_to_space: oob policy 9 is not one of");
    tx_tensor_free(c);
    tx_tensor_free(x);
    tx_tensor_free(bl);
}

static void test_b2s_oob_edges(void **state) {
    (void)state;
    tx_tensor *o = NULL, *bl = tu_i64(1, P64(2));
    /* strings: zero cells are empty strings; the output keeps the input's bytes alive */
    tx_tensor *x = tu_strings(2, TU_DIMS(2, 1), (const char *[]){"ab", "cd"});
    tx_tensor *c = pairs(1, P64(1, -2)); /* positions 1, 2, 3: "cd", "", "" */
    o = b2s_ex(x, bl, c, TX_OOB_ZERO);
    tx_tensor_free(x);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(1, 3));
    assert_int_equal(tx_tensor_string(o, 0)->size, 2);
    assert_memory_equal(tx_tensor_string(o, 0)->data, "cd", 2);
    assert_int_equal(tx_tensor_string(o, 1)->size, 0);
    assert_int_equal(tx_tensor_string(o, 2)->size, 0);
    tx_tensor_free(o);
    tx_tensor_free(c);
    /* an empty spatial dim: zero cells under zero; nothing to take under clamp/wrap */
    x = tu_tensor(TX_INT32, 2, TU_DIMS(2, 0), NULL);
    c = pairs(1, P64(-1, -1));
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 2, TU_DIMS(1, 2), TU_VALS(0, 0));
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_CLAMP, &o), TX_INVALID_ARGUMENT,
                    "crops[0] = [-1, -1] select 2 positions of spatial dim 0, which is empty (size 0 * 2): oob=clamp has nothing to take");
    assert_null(o);
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_WRAP, &o), TX_INVALID_ARGUMENT, "oob=wrap has nothing to take");
    tx_tensor_free(c);
    /* ... but an empty output needs nothing */
    c = pairs(1, P64(0, 0));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 0), TU_VALS(0));
    tx_tensor_free(c);
    tx_tensor_free(x);
    /* sizes that overflow int64, and huge crops that leave an empty dim */
    x = iota(2, TU_DIMS(2, 3));
    c = pairs(1, P64(INT64_MIN, 0));
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_ZERO, &o), TX_INVALID_ARGUMENT,
                    "the size of spatial dim 0 overflows int64");
    tx_tensor_free(c);
    c = pairs(1, P64(INT64_MAX, INT64_MAX));
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_ZERO, &o), TX_INVALID_ARGUMENT, "overflows int64");
    tx_tensor_free(c);
    c = pairs(1, P64(INT64_MAX - 10, 0));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 0), TU_VALS(0));
    tx_tensor_free(c);
    c = pairs(1, P64(-(INT64_MAX / 2), INT64_MAX / 2 - 2)); /* positions -(2^62 - 1) .. -(2^62 - 1) + 7 */
    /* -(2^62 - 1) mod 6 = 3: the expanded 1 4 2 5 3 6 from index 3 on */
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 8), TU_VALS(5, 3, 6, 1, 4, 2, 5, 3));
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 2, TU_DIMS(1, 8), TU_VALS(1, 1, 1, 1, 1, 1, 1, 1));
    tx_tensor_free(c);
    c = pairs(1, P64(INT64_MAX / 2, -(INT64_MAX / 2) - 2)); /* far beyond the end */
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 2, TU_DIMS(1, 8), TU_VALS(6, 6, 6, 6, 6, 6, 6, 6));
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 2, TU_DIMS(1, 8), TU_VALS(0, 0, 0, 0, 0, 0, 0, 0));
    tx_tensor_free(c);
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, NULL, TX_OOB_ZERO, &o), TX_INVALID_ARGUMENT, "crops is NULL");
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, NULL, (tx_oob_policy)-1, &o), TX_INVALID_ARGUMENT, "oob policy -1");
    tx_tensor_free(x);
    tx_tensor_free(bl);
}

/* SAME padding on an empty image with 2^63 - 2^30 rows, a dilated kernel of about 2^62 rows and
 * stride 2^30: the padding TF's formula needs, (out - 1) * stride + kernel - in, passes int64 in
 * its intermediate sum although the padding itself is small.  The output is empty.  UBSan builds
 * fail on the overflow. */
static void test_patches_same_padding_huge_rows(void **state) {
    (void)state;
    const int64_t rows = INT64_MAX - (INT64_C(1) << 30) + 1, k = INT32_MAX, s = INT64_C(1) << 30;
    tx_tensor *x = NULL, *o = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(0, rows, 1, 1), &x), TX_OK);
    assert_int_equal(patches(x, k, 1, s, 1, k, 1, TX_PADDING_SAME, &o), TX_OK);
    /* ceil(rows / 2^30) = 2^33 - 1 output rows; depth kr * kc * 1 */
    tu_assert_shape(o, TX_FLOAT32, 4, TU_DIMS(0, (INT64_C(1) << 33) - 1, 1, k));
    tx_tensor_free(o);
    assert_int_equal(patches(x, k, 1, s, 1, k, 1, TX_PADDING_VALID, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 4, TU_DIMS(0, 4294967301, 1, k));
    tx_tensor_free(o);
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_space_to_batch_page_examples), cmocka_unit_test(test_batch_to_space_page_examples),
        cmocka_unit_test(test_depth_page_examples),          cmocka_unit_test(test_depth_nchw),
        cmocka_unit_test(test_required_paddings),   cmocka_unit_test(test_patches_tf_vectors),
        cmocka_unit_test(test_space_batch_random),  cmocka_unit_test(test_patches_random),
        cmocka_unit_test(test_depth_random),        cmocka_unit_test(test_space_batch_edges),
        cmocka_unit_test(test_strings),             cmocka_unit_test(test_space_batch_errors),
        cmocka_unit_test(test_depth_errors),        cmocka_unit_test(test_patches_errors),
        cmocka_unit_test(test_b2s_oob_policies),    cmocka_unit_test(test_b2s_oob_edges),
        cmocka_unit_test(test_alloc_failure),
        cmocka_unit_test(test_patches_same_padding_huge_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
