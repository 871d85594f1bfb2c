/* SPDX-License-Identifier: Apache-2.0 */
/* test_prepared_shape.c -- the prepared forms of the view ops (reshape, squeeze, expand_dims) and
 * of the space/batch/depth family: runs equal the op call bit for bit on tensorx's pool, a runner
 * on one thread and a runner of real threads (shapes large enough that the copy is split, and
 * empty ones); the view ops run in place; strided outputs land where their strides say and
 * nowhere else; runs call the allocator zero times. */
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tx_tensor *random_tensor(tx_dtype dtype, size_t rank, const int64_t *dims) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(dtype, rank, dims, &t), TX_OK);
    unsigned char *p = tx_tensor_data(t);
    uint32_t x = 777u + (uint32_t)tx_tensor_numel(t);
    for (size_t i = 0; i < tx_tensor_nbytes(t); i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
    return t;
}

/* ---- runners ---- */

/* One thread, pieces in reverse order: the split must not depend on the order. */
static int serial_calls;
static void serial_for(void *ctx, tx_task_fn task, void *task_ctx, size_t n) {
    (void)ctx;
    serial_calls++;
    for (size_t i = n; i-- > 0;) task(task_ctx, i);
}

/* Real threads: one pthread per piece but the first, which the caller runs. */
typedef struct piece_arg {
    tx_task_fn task;
    void *task_ctx;
    size_t i;
} piece_arg;
static void *piece_main(void *p) {
    piece_arg *a = p;
    a->task(a->task_ctx, a->i);
    return NULL;
}
static void threads_for(void *ctx, tx_task_fn task, void *task_ctx, size_t n) {
    (void)ctx;
    pthread_t th[64];
    piece_arg args[64];
    assert_true(n <= 64);
    for (size_t i = 1; i < n; i++) {
        args[i] = (piece_arg){task, task_ctx, i};
        assert_int_equal(pthread_create(&th[i], NULL, piece_main, &args[i]), 0);
    }
    task(task_ctx, 0);
    for (size_t i = 1; i < n; i++) pthread_join(th[i], NULL);
}

/* The bytes of data input `in` run through `op` on tensorx's pool, the serial runner and the
 * threads runner into fresh memory, each compared with the call's result y (and a guard byte
 * past it).  Returns how often the serial runner was handed pieces. */
static int check_runs(const tx_op *op, const tx_tensor *x, const tx_tensor *y) {
    assert_int_equal(tx_op_input_count(op), 1);
    assert_int_equal(tx_op_output_count(op), 1);
    tx_output_info info = {sizeof info};
    assert_int_equal(tx_op_output(op, 0, &info), TX_OK);
    assert_int_equal(info.dtype, tx_tensor_dtype(y));
    assert_int_equal(info.nbytes, tx_tensor_nbytes(y));
    assert_int_equal(info.rank, tx_tensor_rank(y));
    for (size_t d = 0; d < info.rank; d++) assert_int_equal(info.dims[d], tx_tensor_dims(y)[d]);
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
        tx_tensor *x = random_tensor(TX_FLOAT32, 3, shapes[s]);
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
        tx_tensor *x = random_tensor(TX_FLOAT64, 3, TU_DIMS(1, 200, 300)), *y = NULL;
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
    tx_tensor *x = random_tensor(TX_INT32, 1, TU_DIMS(rows * cols)), *y = NULL, *unused = NULL;
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
    tx_tensor *x = random_tensor(TX_FLOAT32, 2, TU_DIMS(3, 4)), *y = NULL;
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

/* ---- no allocation ---- */

/* The counting allocator sees no call over 50 runs of each op, on tensorx's pool (past its
 * first start) and on a runner. */
static void test_runs_allocate_nothing(void **state) {
    (void)state;
    tx_set_num_threads(2);
    tx_tensor *x = random_tensor(TX_FLOAT32, 3, TU_DIMS(1, 300, 700)), *y = NULL;
    tx_op *ops[VIEW_OPS];
    for (int k = 0; k < VIEW_OPS; k++) assert_int_equal(view_call(k, x, &ops[k], &y), TX_OK);
    size_t n_ops = VIEW_OPS;
    char *out = malloc(tx_tensor_nbytes(x));
    const void *in[1] = {tx_tensor_data_const(x)};
    void *outs[1] = {out};
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    for (size_t k = 0; k < n_ops; k++) assert_int_equal(tx_op_run(ops[k], in, outs, NULL), TX_OK);
    tu_alloc_install();
    long before = tu_alloc_count();
    for (int i = 0; i < 50; i++)
        for (size_t k = 0; k < n_ops; k++) {
            assert_int_equal(tx_op_run(ops[k], in, outs, NULL), TX_OK);
            assert_int_equal(tx_op_run(ops[k], in, outs, &serial), TX_OK);
        }
    assert_int_equal(tu_alloc_count() - before, 0);
    tu_alloc_uninstall();
    free(out);
    for (size_t k = 0; k < n_ops; k++) tx_op_free(ops[k]);
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_view_runs_equal_calls),
        cmocka_unit_test(test_view_in_place),
        cmocka_unit_test(test_view_strided_output),
        cmocka_unit_test(test_view_errors),
        cmocka_unit_test(test_runs_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
