/* SPDX-License-Identifier: Apache-2.0 */
/* test_spatial_edges.c -- the spatial family's edge cases (M = 0, zero-size dims, folded block-1
 * dims, int64 arguments, strings, SAME padding on an image of about 2^63 rows) and every error
 * with its status and message. */
#include "spatial_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
        cmocka_unit_test(test_space_batch_edges),
        cmocka_unit_test(test_strings),             cmocka_unit_test(test_space_batch_errors),
        cmocka_unit_test(test_depth_errors),        cmocka_unit_test(test_patches_errors),
        cmocka_unit_test(test_patches_same_padding_huge_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
