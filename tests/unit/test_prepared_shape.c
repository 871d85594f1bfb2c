/* SPDX-License-Identifier: Apache-2.0 */
/* test_prepared_shape.c -- the prepared forms of the view ops (reshape, squeeze, expand_dims) and
 * of the space/batch/depth family: runs equal the op call bit for bit on tensorx's pool, a runner
 * on one thread and a runner of real threads (shapes large enough that the copy is split, and
 * empty ones); the view ops run in place; strided outputs land where their strides say and
 * nowhere else; runs call the allocator zero times. */
#include "testutil.h"

#include "prepared_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* The bytes of data input `in` run through `op` on tensorx's pool, the serial runner and the
 * threads runner into fresh memory, each compared with the call's result y (and a guard byte
 * past it).  Returns how often the serial runner was handed pieces. */
static int check_runs(const tx_op *op, const tx_tensor *x, const tx_tensor *y) {
    assert_int_equal(tx_op_input_count(op), 1);
    tx_output_info info = output_like(op, y);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    tx_runner threads = TX_RUNNER_INIT(threads_for, NULL, 3);
    const tx_runner *runners[] = {NULL, &serial, &threads};
    int before = serial_calls;
    for (size_t r = 0; r < 3; r++) {
        char *out = malloc(info.nbytes + 1);
        memset(out, 0xA5, info.nbytes + 1);
        const void *in[1] = {tx_tensor_data_const(x)};
        void *outs[1] = {out};
        assert_int_equal(tx_op_run(op, in, outs, runners[r]), TX_OK);
        assert_memory_equal(out, tx_tensor_data_const(y), info.nbytes);
        assert_int_equal((unsigned char)out[info.nbytes], 0xA5);
        free(out);
    }
    return serial_calls - before;
}

/* ---- the view ops ---- */

enum { RESHAPE, SQUEEZE, EXPAND_DIMS, VIEW_OPS };

/* View op k on x (rank 3 [a, b, c]): reshape to [c, -1], squeeze (every size-1 dim), expand_dims
 * at 1.  Made as a call (prepare NULL) or prepared into *prepare. */
static tx_status view_call(int k, const tx_tensor *x, tx_op **prepare, tx_tensor **y) {
    const int64_t *dims = tx_tensor_dims(x);
    int32_t shape_v[2] = {(int32_t)dims[2], -1};
    tx_tensor *shape = tu_i32(2, shape_v);
    tx_status st = TX_INTERNAL;
    switch (k) {
    case RESHAPE:
        st = prepare ? TX_PREPARE(prepare, NULL, tx_reshape(x, shape, y)) : tx_reshape(x, shape, y);
        break;
    case SQUEEZE:
        st = prepare ? TX_PREPARE(prepare, NULL, tx_squeeze(x, NULL, 0, y))
                     : tx_squeeze(x, NULL, 0, y);
        break;
    case EXPAND_DIMS:
        st = prepare ? TX_PREPARE(prepare, NULL, tx_expand_dims(x, 1, y))
                     : tx_expand_dims(x, 1, y);
        break;
    }
    tx_tensor_free(shape);
    return st;
}

static void test_view_runs_equal_calls(void **state) {
    (void)state;
    tx_set_num_threads(2);
    /* [1, 300, 700] float32 is 820 KiB: split over the threads */
    const int64_t shapes[][3] = {{1, 1, 1}, {3, 1, 7}, {1, 300, 700}, {0, 4, 5}, {5, 1, 0}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        tx_tensor *x = random_tensor(TX_FLOAT32, 3, shapes[s], 777u);
        bool large = tx_tensor_nbytes(x) > (256 << 10);
        for (int k = 0; k < VIEW_OPS; k++) {
            tx_tensor *y = NULL, *yp = NULL;
            tx_op *op = NULL;
            assert_int_equal(view_call(k, x, NULL, &y), TX_OK);
            /* the call stays a view: no copy */
            assert_ptr_equal(tx_tensor_data_const(y), tx_tensor_data_const(x));
            assert_int_equal(view_call(k, x, &op, &yp), TX_OK);
            assert_null(yp);
            int split = check_runs(op, x, y);
            if (large) assert_true(split > 0);
            else assert_int_equal(split, 0);
            tx_op_free(op);
            tx_tensor_free(y);
        }
        tx_tensor_free(x);
    }
}

/* A run whose output is its input copies nothing and leaves the bytes as they are. */
static void test_view_in_place(void **state) {
    (void)state;
    tx_set_num_threads(2);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    for (int k = 0; k < VIEW_OPS; k++) {
        tx_tensor *x = random_tensor(TX_FLOAT64, 3, TU_DIMS(1, 200, 300), 777u), *y = NULL;
        tx_tensor *keep = NULL;
        assert_int_equal(tx_tensor_copy(x, &keep), TX_OK);
        tx_op *op = NULL;
        assert_int_equal(view_call(k, x, &op, &y), TX_OK);
        assert_int_equal(tx_op_in_place(op, 0, 0), 1);
        assert_int_equal(tx_op_in_place(op, 0, 1), 0);
        void *data = tx_tensor_data(x);
        const void *in[1] = {data};
        void *outs[1] = {data};
        int before = serial_calls;
        assert_int_equal(tx_op_run(op, in, outs, NULL), TX_OK);
        assert_int_equal(tx_op_run(op, in, outs, &serial), TX_OK);
        assert_int_equal(serial_calls, before); /* nothing to split: nothing copied */
        assert_memory_equal(data, tx_tensor_data_const(keep), tx_tensor_nbytes(x));
        tx_op_free(op);
        tx_tensor_free(keep);
        tx_tensor_free(x);
    }
}

/* A reshape of [rows * cols] into [rows, cols] written as the left half of a [rows, 2 * cols]
 * buffer (a concat input made in place); the right half stays.  Such an op no longer runs in
 * place. */
static void test_view_strided_output(void **state) {
    (void)state;
    const int64_t rows = 300, cols = 257; /* 300 KiB of output: split over the threads */
    tx_tensor *x = random_tensor(TX_INT32, 1, TU_DIMS(rows * cols), 777u), *y = NULL, *unused = NULL;
    int32_t shape_v[2] = {(int32_t)rows, (int32_t)cols};
    tx_tensor *shape = tu_i32(2, shape_v);
    assert_int_equal(tx_reshape(x, shape, &y), TX_OK);
    const int64_t strides[2] = {2 * cols * 4, 4};
    const int64_t *per_output[1] = {strides};
    tx_prepare_options opts = TX_PREPARE_OPTIONS_INIT(1, per_output);
    tx_op *op = NULL;
    assert_int_equal(TX_PREPARE(&op, &opts, tx_reshape(x, shape, &unused)), TX_OK);
    assert_int_equal(tx_op_in_place(op, 0, 0), 0);
    size_t bytes = (size_t)(rows * 2 * cols * 4);
    char *buf = malloc(bytes);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    tx_runner threads = TX_RUNNER_INIT(threads_for, NULL, 3);
    const tx_runner *runners[] = {NULL, &serial, &threads};
    for (size_t r = 0; r < 3; r++) {
        memset(buf, 0x5A, bytes);
        const void *in[1] = {tx_tensor_data_const(x)};
        void *outs[1] = {buf};
        assert_int_equal(tx_op_run(op, in, outs, runners[r]), TX_OK);
        for (int64_t i = 0; i < rows; i++) {
            const char *row = buf + i * 2 * cols * 4;
            assert_memory_equal(row, (const char *)tx_tensor_data_const(y) + i * cols * 4,
                                (size_t)cols * 4);
            for (int64_t b = cols * 4; b < 2 * cols * 4; b++)
                assert_int_equal((unsigned char)row[b], 0x5A);
        }
    }
    free(buf);
    tx_op_free(op);
    tx_tensor_free(shape);
    tx_tensor_free(y);
    tx_tensor_free(x);
}

/* The view ops' errors are the call's, message and all. */
static void test_view_errors(void **state) {
    (void)state;
    tx_tensor *x = random_tensor(TX_FLOAT32, 2, TU_DIMS(3, 4), 777u), *y = NULL;
    int32_t bad_v[2] = {5, -1};
    tx_tensor *bad = tu_i32(2, bad_v);
    tx_op *op = NULL;
    tx_status call = tx_reshape(x, bad, &y);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    assert_int_equal(call, TX_INVALID_ARGUMENT);
    tu_assert_error(TX_PREPARE(&op, NULL, tx_reshape(x, bad, &y)), call, msg);
    assert_null(op);
    const int64_t sq[1] = {0};
    call = tx_squeeze(x, sq, 1, &y);
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    tu_assert_error(TX_PREPARE(&op, NULL, tx_squeeze(x, sq, 1, &y)), call, msg);
    call = tx_expand_dims(x, 4, &y);
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    tu_assert_error(TX_PREPARE(&op, NULL, tx_expand_dims(x, 4, &y)), call, msg);
    assert_null(y);
    const char *words[2] = {"a", "bc"};
    tx_tensor *str = tu_strings(1, TU_DIMS(2), words);
    tu_assert_error(TX_PREPARE(&op, NULL, tx_expand_dims(str, 0, &y)), TX_UNIMPLEMENTED,
                    "fixed-size dtypes");
    tx_tensor_free(str);
    tx_tensor_free(bad);
    tx_tensor_free(x);
}

/* ---- space, batch and depth ---- */

/* Makes `call` (whose output argument is OUT) once as a call and once prepared, and compares the
 * prepared op's runs with the call's result; want_split: the serial runner must get pieces.  None
 * of these ops runs in place. */
#define CHECK_OP(x, want_split, call)                                                            \
    do {                                                                                         \
        tx_tensor *y_ = NULL, *unused_ = NULL, **OUT = &y_;                                     \
        assert_int_equal((call), TX_OK);                                                         \
        tx_op *op_ = NULL;                                                                       \
        OUT = &unused_;                                                                          \
        assert_int_equal(TX_PREPARE(&op_, NULL, (call)), TX_OK);                                 \
        assert_null(unused_);                                                                    \
        assert_int_equal(tx_op_in_place(op_, 0, 0), 0); /* these read other cells than they write */ \
        int split_ = check_runs(op_, (x), y_);                                                   \
        if (want_split) assert_true(split_ > 0);                                                 \
        tx_op_free(op_);                                                                         \
        tx_tensor_free(y_);                                                                      \
    } while (0)

static tx_tensor *pairs(int32_t a, int32_t b, int32_t c, int32_t d) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, 2, TU_DIMS(2, 2), &t), TX_OK);
    int32_t *v = tx_tensor_data(t);
    v[0] = a, v[1] = b, v[2] = c, v[3] = d;
    return t;
}

static void test_space_batch_runs_equal_calls(void **state) {
    (void)state;
    tx_set_num_threads(2);
    int32_t bv[2] = {2, 3}, b22[2] = {2, 2};
    tx_tensor *block = tu_i32(2, bv), *block22 = tu_i32(2, b22);
    tx_tensor *pad = pairs(1, 0, 0, 2), *pad_rows = pairs(1, 1, 0, 0), *none = pairs(0, 0, 0, 0);
    tx_tensor *legacy = pairs(1, 0, 1, 0);
    tx_tensor *small = random_tensor(TX_FLOAT32, 4, TU_DIMS(2, 5, 7, 3), 777u);
    tx_tensor *large = random_tensor(TX_FLOAT32, 4, TU_DIMS(2, 130, 128, 16), 777u); /* 2 MiB */
    tx_tensor *empty = random_tensor(TX_INT8, 4, TU_DIMS(0, 4, 4, 2), 777u);
    tx_tensor *no_cells = random_tensor(TX_FLOAT64, 4, TU_DIMS(1, 0, 2, 3), 777u); /* padded up */
    CHECK_OP(small, false, tx_space_to_batch_nd(small, block, pad, OUT));
    CHECK_OP(large, true, tx_space_to_batch_nd(large, block22, pad_rows, OUT));
    CHECK_OP(empty, false, tx_space_to_batch_nd(empty, block22, none, OUT));
    CHECK_OP(no_cells, false, tx_space_to_batch_nd(no_cells, block22, pad_rows, OUT));
    CHECK_OP(small, false, tx_space_to_batch(small, legacy, 2, OUT));
    tx_tensor *bsmall = random_tensor(TX_INT8, 4, TU_DIMS(12, 3, 3, 3), 777u);
    tx_tensor *blarge = random_tensor(TX_FLOAT32, 4, TU_DIMS(8, 66, 64, 16), 777u);
    CHECK_OP(bsmall, false, tx_batch_to_space_nd(bsmall, block, pad, OUT));
    CHECK_OP(blarge, true, tx_batch_to_space_nd(blarge, block22, pad_rows, OUT));
    CHECK_OP(empty, false, tx_batch_to_space_nd(empty, block22, none, OUT));
    CHECK_OP(bsmall, false, tx_batch_to_space(bsmall, pad_rows, 2, OUT));
    /* crops outside TF's rule, under each policy: the per-cell path */
    tx_tensor *wide = pairs(-1, 2, 1, -2);
    const tx_oob_policy policies[] = {TX_OOB_ERROR, TX_OOB_ZERO, TX_OOB_CLAMP, TX_OOB_WRAP};
    for (size_t k = 0; k < 4; k++) {
        CHECK_OP(bsmall, false, tx_batch_to_space_nd_oob(bsmall, block, pad, policies[k], OUT));
        if (policies[k] == TX_OOB_ERROR) continue;
        CHECK_OP(bsmall, false, tx_batch_to_space_nd_oob(bsmall, block, wide, policies[k], OUT));
        CHECK_OP(blarge, false, tx_batch_to_space_oob(blarge, wide, 2, policies[k], OUT));
    }
    tx_tensor *all[] = {block, block22, pad, pad_rows, none, legacy, small, large, empty, no_cells,
                        bsmall, blarge, wide};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) tx_tensor_free(all[k]);
}

static void test_depth_runs_equal_calls(void **state) {
    (void)state;
    tx_set_num_threads(2);
    const tx_data_format formats[] = {TX_FORMAT_NHWC, TX_FORMAT_NCHW};
    for (size_t f = 0; f < 2; f++) {
        tx_data_format fmt = formats[f];
        bool nhwc = fmt == TX_FORMAT_NHWC;
        tx_tensor *space = random_tensor(TX_FLOAT32, 4, nhwc ? TU_DIMS(2, 4, 6, 3) : TU_DIMS(2, 3, 4, 6), 777u);
        tx_tensor *depth = random_tensor(TX_INT8, 4, nhwc ? TU_DIMS(2, 2, 3, 12) : TU_DIMS(2, 12, 2, 3), 777u);
        tx_tensor *large = random_tensor(TX_FLOAT32, 4, nhwc ? TU_DIMS(2, 128, 128, 12) : TU_DIMS(2, 12, 128, 128), 777u);
        tx_tensor *empty = random_tensor(TX_FLOAT64, 4, TU_DIMS(0, 4, 4, 4), 777u);
        CHECK_OP(space, false, tx_space_to_depth(space, 2, fmt, OUT));
        CHECK_OP(large, nhwc, tx_space_to_depth(large, 2, fmt, OUT)); /* NCHW: row routine */
        CHECK_OP(empty, false, tx_space_to_depth(empty, 2, fmt, OUT));
        for (int mode = TX_DEPTH_DCR; mode <= TX_DEPTH_CRD; mode++) {
            bool copy = nhwc || mode == TX_DEPTH_CRD;
            CHECK_OP(depth, false, tx_depth_to_space_in_mode(depth, 2, fmt, (tx_depth_mode)mode, OUT));
            CHECK_OP(large, copy, tx_depth_to_space_in_mode(large, 2, fmt, (tx_depth_mode)mode, OUT));
            CHECK_OP(empty, false, tx_depth_to_space_in_mode(empty, 2, fmt, (tx_depth_mode)mode, OUT));
        }
        tx_tensor_free(space);
        tx_tensor_free(depth);
        tx_tensor_free(large);
        tx_tensor_free(empty);
    }
}

static void test_patches_runs_equal_calls(void **state) {
    (void)state;
    const int64_t k[4] = {1, 3, 2, 1}, st[4] = {1, 2, 1, 1}, r[4] = {1, 1, 2, 1};
    tx_tensor *x = random_tensor(TX_FLOAT32, 4, TU_DIMS(2, 10, 9, 3), 777u);
    tx_tensor *big = random_tensor(TX_INT8, 4, TU_DIMS(1, 200, 200, 8), 777u);
    tx_tensor *empty = random_tensor(TX_FLOAT32, 4, TU_DIMS(0, 5, 5, 2), 777u);
    const tx_padding pads[2] = {TX_PADDING_VALID, TX_PADDING_SAME};
    for (size_t p = 0; p < 2; p++) {
        CHECK_OP(x, false, tx_extract_image_patches(x, k, 4, st, 4, r, 4, pads[p], OUT));
        CHECK_OP(big, false, tx_extract_image_patches(big, k, 4, st, 4, r, 4, pads[p], OUT));
        CHECK_OP(empty, false, tx_extract_image_patches(empty, k, 4, st, 4, r, 4, pads[p], OUT));
    }
    tx_tensor_free(x);
    tx_tensor_free(big);
    tx_tensor_free(empty);
}

/* Runs `op` (output y's shape, 4-D) into a buffer whose innermost rows are 3 elements longer
 * than y's: each row lands in its place and the 3 elements after it stay. */
static void check_strided_4d(const tx_op *op, const tx_tensor *x, const tx_tensor *y) {
    const int64_t *d = tx_tensor_dims(y);
    const int64_t e = (int64_t)tx_dtype_size(tx_tensor_dtype(y)), row = d[3] * e;
    const int64_t pitch = (d[3] + 3) * e, rows = d[0] * d[1] * d[2];
    char *buf = malloc((size_t)(rows * pitch) + 1);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    tx_runner threads = TX_RUNNER_INIT(threads_for, NULL, 3);
    const tx_runner *runners[] = {NULL, &serial, &threads};
    for (size_t r = 0; r < 3; r++) {
        memset(buf, 0x5A, (size_t)(rows * pitch) + 1);
        const void *in[1] = {tx_tensor_data_const(x)};
        void *outs[1] = {buf};
        assert_int_equal(tx_op_run(op, in, outs, runners[r]), TX_OK);
        for (int64_t i = 0; i < rows; i++) {
            assert_memory_equal(buf + i * pitch, (const char *)tx_tensor_data_const(y) + i * row,
                                (size_t)row);
            for (int64_t b = row; b < pitch; b++)
                assert_int_equal((unsigned char)buf[i * pitch + b], 0x5A);
        }
    }
    free(buf);
}

/* space_to_depth and depth_to_space in every layout and order write strided outputs; the
 * space/batch ops and patches refuse them. */
static void test_spatial_strided_outputs(void **state) {
    (void)state;
    tx_set_num_threads(2);
    int64_t strides[4];
    const int64_t *per_output[1] = {strides};
    tx_prepare_options opts = TX_PREPARE_OPTIONS_INIT(1, per_output);
    const tx_data_format formats[] = {TX_FORMAT_NHWC, TX_FORMAT_NCHW};
    for (size_t f = 0; f < 2; f++) {
        bool nhwc = formats[f] == TX_FORMAT_NHWC;
        for (int big = 0; big < 2; big++) {
            tx_tensor *x = big ? random_tensor(TX_FLOAT32, 4, TU_DIMS(2, 64, 64, 16), 777u)
                               : random_tensor(TX_INT8, 4, nhwc ? TU_DIMS(2, 4, 6, 8) : TU_DIMS(2, 8, 4, 6), 777u);
            for (int which = 0; which < 3; which++) { /* space_to_depth, DCR, CRD */
                tx_tensor *y = NULL, *unused = NULL;
                tx_depth_mode mode = which == 2 ? TX_DEPTH_CRD : TX_DEPTH_DCR;
                tx_status st = which == 0 ? tx_space_to_depth(x, 2, formats[f], &y)
                                          : tx_depth_to_space_in_mode(x, 2, formats[f], mode, &y);
                assert_int_equal(st, TX_OK);
                const int64_t *d = tx_tensor_dims(y), e = (int64_t)tx_dtype_size(tx_tensor_dtype(y));
                strides[3] = e;
                strides[2] = (d[3] + 3) * e;
                strides[1] = d[2] * strides[2];
                strides[0] = d[1] * strides[1];
                tx_op *op = NULL;
                st = which == 0 ? TX_PREPARE(&op, &opts, tx_space_to_depth(x, 2, formats[f], &unused))
                                : TX_PREPARE(&op, &opts, tx_depth_to_space_in_mode(x, 2, formats[f], mode, &unused));
                assert_int_equal(st, TX_OK);
                check_strided_4d(op, x, y);
                tx_op_free(op);
                tx_tensor_free(y);
            }
            tx_tensor_free(x);
        }
    }
    tx_tensor *x = random_tensor(TX_FLOAT32, 4, TU_DIMS(4, 4, 4, 2), 777u), *y = NULL;
    strides[3] = 4, strides[2] = 12, strides[1] = 24, strides[0] = 200;
    int32_t bv[2] = {2, 2};
    tx_tensor *block = tu_i32(2, bv), *none = pairs(0, 0, 0, 0);
    tx_op *op = NULL;
    tu_assert_error(TX_PREPARE(&op, &opts, tx_space_to_batch_nd(x, block, none, &y)),
                    TX_UNIMPLEMENTED, "row-major only");
    tu_assert_error(TX_PREPARE(&op, &opts, tx_batch_to_space_nd(x, block, none, &y)),
                    TX_UNIMPLEMENTED, "row-major only");
    const int64_t one[4] = {1, 1, 1, 1};
    tu_assert_error(TX_PREPARE(&op, &opts, tx_extract_image_patches(x, one, 4, one, 4, one, 4,
                                                                    TX_PADDING_VALID, &y)),
                    TX_UNIMPLEMENTED, "row-major only");
    assert_null(op);
    tx_tensor_free(block);
    tx_tensor_free(none);
    tx_tensor_free(x);
}

/* Prepare gives the call's own errors, message and all. */
static void test_spatial_errors(void **state) {
    (void)state;
    tx_tensor *x = random_tensor(TX_FLOAT32, 4, TU_DIMS(1, 5, 4, 2), 777u), *y = NULL;
    int32_t bv[2] = {2, 2};
    tx_tensor *block = tu_i32(2, bv), *none = pairs(0, 0, 0, 0);
    tx_op *op = NULL;
    char msg[512];
    tx_status call = tx_space_to_batch_nd(x, block, none, &y); /* 5 is not a multiple of 2 */
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    assert_int_equal(call, TX_INVALID_ARGUMENT);
    tu_assert_error(TX_PREPARE(&op, NULL, tx_space_to_batch_nd(x, block, none, &y)), call, msg);
    call = tx_space_to_depth(x, 2, TX_FORMAT_NHWC, &y);
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    assert_int_equal(call, TX_INVALID_ARGUMENT);
    tu_assert_error(TX_PREPARE(&op, NULL, tx_space_to_depth(x, 2, TX_FORMAT_NHWC, &y)), call, msg);
    const int64_t bad[4] = {1, 0, 1, 1}, one[4] = {1, 1, 1, 1};
    call = tx_extract_image_patches(x, bad, 4, one, 4, one, 4, TX_PADDING_VALID, &y);
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    assert_int_equal(call, TX_OUT_OF_RANGE);
    tu_assert_error(TX_PREPARE(&op, NULL, tx_extract_image_patches(x, bad, 4, one, 4, one, 4,
                                                                   TX_PADDING_VALID, &y)),
                    call, msg);
    assert_null(op);
    assert_null(y);
    const char *words[4] = {"a", "bc", "d", "ef"};
    tx_tensor *str = tu_strings(4, TU_DIMS(1, 2, 2, 1), words);
    assert_int_equal(tx_space_to_depth(str, 2, TX_FORMAT_NHWC, &y), TX_OK); /* the call takes strings */
    tx_tensor_free(y);
    y = NULL;
    tu_assert_error(TX_PREPARE(&op, NULL, tx_space_to_depth(str, 2, TX_FORMAT_NHWC, &y)),
                    TX_UNIMPLEMENTED, "fixed-size dtypes");
    tx_tensor_free(str);
    tx_tensor_free(block);
    tx_tensor_free(none);
    tx_tensor_free(x);
}

/* ---- no allocation ---- */

/* The counting allocator sees no call over 50 runs of each op, on tensorx's pool (past its
 * first start) and on a runner: the view ops, the space/batch ops (the per-cell crop path too),
 * space/depth (copy and row routine) and patches. */
static void test_runs_allocate_nothing(void **state) {
    (void)state;
    tx_set_num_threads(2);
    tx_tensor *x = random_tensor(TX_FLOAT32, 4, TU_DIMS(8, 64, 64, 16), 777u), *unused = NULL;
    int32_t bv[2] = {2, 2};
    tx_tensor *block = tu_i32(2, bv), *crop = pairs(1, 1, 0, 0), *wide = pairs(-1, 2, 1, -2);
    const int64_t k[4] = {1, 3, 3, 1}, one[4] = {1, 1, 1, 1};
    enum { N = VIEW_OPS + 6 };
    tx_op *ops[N];
    size_t n = 0;
    for (int v = 0; v < VIEW_OPS; v++) assert_int_equal(view_call(v, x, &ops[n++], &unused), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[n++], NULL, tx_space_to_batch_nd(x, block, crop, &unused)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[n++], NULL, tx_batch_to_space_nd(x, block, crop, &unused)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[n++], NULL, tx_batch_to_space_nd_oob(x, block, wide, TX_OOB_WRAP, &unused)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[n++], NULL, tx_space_to_depth(x, 2, TX_FORMAT_NCHW, &unused)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[n++], NULL, tx_depth_to_space(x, 2, TX_FORMAT_NHWC, &unused)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[n++], NULL, tx_extract_image_patches(x, k, 4, one, 4, one, 4, TX_PADDING_SAME, &unused)), TX_OK);
    assert_int_equal(n, N);
    void *bufs[N];
    for (size_t i = 0; i < n; i++) {
        tx_output_info info = {sizeof info};
        assert_int_equal(tx_op_output(ops[i], 0, &info), TX_OK);
        bufs[i] = malloc(info.nbytes);
    }
    const void *in[1] = {tx_tensor_data_const(x)};
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    for (size_t i = 0; i < n; i++) assert_int_equal(tx_op_run(ops[i], in, &bufs[i], NULL), TX_OK);
    tu_alloc_install();
    long before = tu_alloc_count();
    for (int r = 0; r < 50; r++)
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(tx_op_run(ops[i], in, &bufs[i], NULL), TX_OK);
            assert_int_equal(tx_op_run(ops[i], in, &bufs[i], &serial), TX_OK);
        }
    assert_int_equal(tu_alloc_count() - before, 0);
    tu_alloc_uninstall();
    for (size_t i = 0; i < n; i++) {
        free(bufs[i]);
        tx_op_free(ops[i]);
    }
    tx_tensor_free(block);
    tx_tensor_free(crop);
    tx_tensor_free(wide);
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_runs_equal_calls),
        cmocka_unit_test(test_view_in_place),
        cmocka_unit_test(test_view_strided_output),
        cmocka_unit_test(test_view_errors),
        cmocka_unit_test(test_space_batch_runs_equal_calls),
        cmocka_unit_test(test_depth_runs_equal_calls),
        cmocka_unit_test(test_patches_runs_equal_calls),
        cmocka_unit_test(test_spatial_strided_outputs),
        cmocka_unit_test(test_spatial_errors),
        cmocka_unit_test(test_runs_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
