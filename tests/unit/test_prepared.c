/* SPDX-License-Identifier: Apache-2.0 */
/* test_prepared.c -- prepared ops (TX_PREPARE, tx_op_run) through the C API: runs equal the op
 * call bit for bit (tensorx's pool, a runner on one thread and a runner of real threads),
 * strided outputs land where their strides say and nowhere else, runs call the allocator zero
 * times, and the errors of prepare and run.  Every op's prepared form is compared with its call
 * over all of op_examples.h by the op spec's check (conform --prepared and test_plan.c), and
 * test_prepared_ops.c counts the allocator and system calls of all their runs. */
#include "testutil.h"

#include "prepared_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>



/* Prepares `call`'s op on x, runs it three ways into fresh memory and compares each with the
 * call's result y. */
static void check_runs(tx_op *op, const tx_tensor *x, const tx_tensor *y) {
    assert_int_equal(tx_op_input_count(op), 1);
    tx_output_info info = output_like(op, y);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    tx_runner threads = TX_RUNNER_INIT(threads_for, NULL, 3);
    const tx_runner *runners[] = {NULL, &serial, &threads};
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
}

static void test_runs_equal_calls(void **state) {
    (void)state;
    tx_set_num_threads(2);
    const int64_t shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {64, 64, 33}, {2, 300, 700}, {0, 4, 5}};
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        tx_tensor *x = random_tensor(TX_FLOAT32, 3, shapes[k], 12345u);
        int32_t pv[3] = {2, 0, 1};
        tx_tensor *perm = tu_i32(3, pv);
        tx_tensor *y = NULL, *yp = NULL;
        assert_int_equal(tx_transpose(x, perm, 0, &y), TX_OK);
        tx_op *op = NULL;
        assert_int_equal(TX_PREPARE(&op, NULL, tx_transpose(x, perm, 0, &yp)), TX_OK);
        assert_null(yp);
        check_runs(op, x, y);
        tx_op_free(op);
        tx_tensor_free(y);
        /* slice: the middle block, or all of an empty tensor */
        int32_t bv[3], sv[3];
        for (int d = 0; d < 3; d++) {
            bv[d] = shapes[k][d] > 2 ? 1 : 0;
            sv[d] = shapes[k][d] > 2 ? (int32_t)shapes[k][d] - 2 : (int32_t)shapes[k][d];
        }
        tx_tensor *b = tu_i32(3, bv), *s = tu_i32(3, sv);
        assert_int_equal(tx_slice(x, b, s, &y), TX_OK);
        assert_int_equal(TX_PREPARE(&op, NULL, tx_slice(x, b, s, &yp)), TX_OK);
        check_runs(op, x, y);
        tx_op_free(op);
        tx_tensor_free(y);
        tx_tensor_free(b);
        tx_tensor_free(s);
        tx_tensor_free(perm);
        tx_tensor_free(x);
    }
}

/* A transpose and a slice written as two windows of one [rows, 2 * cols] buffer (a concat along
 * axis 1 done in place): each lands in its half, and the bytes between rows stay. */
static void test_strided_outputs(void **state) {
    (void)state;
    const int64_t rows = 37, cols = 29;
    tx_tensor *x = random_tensor(TX_FLOAT32, 2, TU_DIMS(cols, rows), 12345u);
    tx_tensor *z = random_tensor(TX_FLOAT32, 2, TU_DIMS(rows, cols + 3), 12345u);
    int32_t pv[2] = {1, 0}, bv[2] = {0, 3}, sv[2] = {(int32_t)rows, (int32_t)cols};
    tx_tensor *perm = tu_i32(2, pv), *b = tu_i32(2, bv), *s = tu_i32(2, sv);
    tx_tensor *xt = NULL, *zs = NULL, *unused = NULL;
    assert_int_equal(tx_transpose(x, perm, 0, &xt), TX_OK);
    assert_int_equal(tx_slice(z, b, s, &zs), TX_OK);
    const int64_t strides[2] = {2 * cols * 4, 4};
    const int64_t *per_output[1] = {strides};
    tx_prepare_options opts = TX_PREPARE_OPTIONS_INIT(1, per_output);
    tx_op *t_op = NULL, *s_op = NULL;
    assert_int_equal(TX_PREPARE(&t_op, &opts, tx_transpose(x, perm, 0, &unused)), TX_OK);
    assert_int_equal(TX_PREPARE(&s_op, &opts, tx_slice(z, b, s, &unused)), TX_OK);
    size_t bytes = (size_t)(rows * 2 * cols * 4);
    char *buf = malloc(bytes);
    memset(buf, 0x5A, bytes);
    const void *in_x[1] = {tx_tensor_data_const(x)}, *in_z[1] = {tx_tensor_data_const(z)};
    void *left[1] = {buf}, *right[1] = {buf + cols * 4};
    assert_int_equal(tx_op_run(t_op, in_x, left, NULL), TX_OK);
    assert_int_equal(tx_op_run(s_op, in_z, right, NULL), TX_OK);
    for (int64_t r = 0; r < rows; r++) {
        assert_memory_equal(buf + r * 2 * cols * 4, (const char *)tx_tensor_data_const(xt) + r * cols * 4, (size_t)cols * 4);
        assert_memory_equal(buf + r * 2 * cols * 4 + cols * 4, (const char *)tx_tensor_data_const(zs) + r * cols * 4, (size_t)cols * 4);
    }
    /* strides that overlap, or negative, are refused at prepare time */
    const int64_t overlap[2] = {8, 4}, negative[2] = {-4 * cols, 4};
    const int64_t *bad[1] = {overlap};
    tx_prepare_options bad_opts = TX_PREPARE_OPTIONS_INIT(1, bad);
    tx_op *op = (tx_op *)buf;
    tu_assert_error(TX_PREPARE(&op, &bad_opts, tx_slice(z, b, s, &unused)), TX_INVALID_ARGUMENT,
                    "output_strides[0][0] = 8 overlaps");
    assert_null(op);
    bad[0] = negative;
    tu_assert_error(TX_PREPARE(&op, &bad_opts, tx_slice(z, b, s, &unused)), TX_INVALID_ARGUMENT,
                    "strides must be >= 0");
    free(buf);
    tx_op_free(t_op);
    tx_op_free(s_op);
    tx_tensor_free(xt);
    tx_tensor_free(zs);
    tx_tensor_free(perm);
    tx_tensor_free(b);
    tx_tensor_free(s);
    tx_tensor_free(x);
    tx_tensor_free(z);
}

static void test_errors(void **state) {
    (void)state;
    tx_tensor *x = random_tensor(TX_FLOAT32, 1, TU_DIMS(8), 12345u), *y = NULL;
    tx_op *op = NULL;
    /* an op without a prepared form names itself */
    tx_tensor *outs3[3] = {NULL, NULL, NULL};
    tu_assert_error(TX_PREPARE(&op, NULL, tx_unique_with_counts(x, TX_INT32, outs3)),
                    TX_UNIMPLEMENTED, "unique_with_counts");
    assert_null(op);
    assert_null(outs3[0]);
    /* the op's own errors, unchanged */
    int32_t bad_perm[1] = {3};
    tx_tensor *perm = tu_i32(1, bad_perm);
    tx_status call = tx_transpose(x, perm, 0, &y);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    tu_assert_error(TX_PREPARE(&op, NULL, tx_transpose(x, perm, 0, &y)), call, msg);
    tx_tensor_free(perm);
    /* strings need the call */
    const char *words[2] = {"a", "bc"};
    tx_tensor *str = tu_strings(1, TU_DIMS(2), words);
    int32_t zero = 0;
    perm = tu_i32(1, &zero);
    tu_assert_error(TX_PREPARE(&op, NULL, tx_transpose(str, perm, 0, &y)), TX_UNIMPLEMENTED,
                    "fixed-size dtypes");
    /* strides for an output the op writes row-major only: conjugating complex transposes */
    tx_tensor *c = NULL;
    assert_int_equal(tx_tensor_new(TX_COMPLEX64, 1, TU_DIMS(4), &c), TX_OK);
    const int64_t st[1] = {16};
    const int64_t *per_output[1] = {st};
    tx_prepare_options opts = TX_PREPARE_OPTIONS_INIT(1, per_output);
    tu_assert_error(TX_PREPARE(&op, &opts, tx_transpose(c, perm, 1, &y)), TX_UNIMPLEMENTED,
                    "row-major only");
    tx_prepare_options bad_size = opts;
    bad_size.struct_size = 3;
    tu_assert_error(TX_PREPARE(&op, &bad_size, tx_transpose(x, perm, 0, &y)),
                    TX_INVALID_ARGUMENT, "options->struct_size");
    /* runs: NULL pointers for tensors with elements, bad runners */
    assert_int_equal(TX_PREPARE(&op, NULL, tx_transpose(x, perm, 0, &y)), TX_OK);
    float out[8];
    const void *in[1] = {NULL};
    void *outs[1] = {out};
    tu_assert_error(tx_op_run(op, in, outs, NULL), TX_INVALID_ARGUMENT, "inputs[0] of transpose is NULL");
    in[0] = tx_tensor_data_const(x);
    tx_runner none = TX_RUNNER_INIT(NULL, NULL, 2), zero_threads = TX_RUNNER_INIT(serial_for, NULL, 0);
    tu_assert_error(tx_op_run(op, in, outs, &none), TX_INVALID_ARGUMENT, "parallel_for is NULL");
    tu_assert_error(tx_op_run(op, in, outs, &zero_threads), TX_INVALID_ARGUMENT, "runner->threads is 0");
    tu_assert_error(tx_op_run(NULL, in, outs, NULL), TX_INVALID_ARGUMENT, "op is NULL");
    tx_output_info info = {sizeof info};
    tu_assert_error(tx_op_input(op, 1, &info), TX_INVALID_ARGUMENT, "index 1 is out of range");
    assert_false(tx_op_in_place(op, 0, 0));
    tx_op_free(op);
    tx_op_free(NULL);
    tx_tensor_free(c);
    tx_tensor_free(perm);
    tx_tensor_free(str);
    tx_tensor_free(x);
}

/* Runs allocate nothing: the counting allocator sees no call over 100 runs of each op, on
 * tensorx's pool (past its first start) and on a runner. */
static void test_runs_allocate_nothing(void **state) {
    (void)state;
    tx_set_num_threads(2);
    tx_tensor *x = random_tensor(TX_FLOAT32, 2, TU_DIMS(512, 300), 12345u);
    int32_t pv[2] = {1, 0}, bv[2] = {1, 2}, sv[2] = {500, 290};
    tx_tensor *perm = tu_i32(2, pv), *b = tu_i32(2, bv), *s = tu_i32(2, sv), *y = NULL;
    tx_op *ops[2] = {NULL, NULL};
    assert_int_equal(TX_PREPARE(&ops[0], NULL, tx_transpose(x, perm, 0, &y)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[1], NULL, tx_slice(x, b, s, &y)), TX_OK);
    char *out = malloc(512 * 300 * 4);
    const void *in[1] = {tx_tensor_data_const(x)};
    void *outs[1] = {out};
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    for (size_t k = 0; k < 2; k++) assert_int_equal(tx_op_run(ops[k], in, outs, NULL), TX_OK);
    tu_alloc_install();
    long before = tu_alloc_count();
    for (int i = 0; i < 100; i++)
        for (size_t k = 0; k < 2; k++) {
            assert_int_equal(tx_op_run(ops[k], in, outs, NULL), TX_OK);
            assert_int_equal(tx_op_run(ops[k], in, outs, &serial), TX_OK);
        }
    assert_int_equal(tu_alloc_count() - before, 0);
    tu_alloc_uninstall();
    free(out);
    for (size_t k = 0; k < 2; k++) tx_op_free(ops[k]);
    tx_tensor_free(perm);
    tx_tensor_free(b);
    tx_tensor_free(s);
    tx_tensor_free(x);
}


int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_equal_calls),
        cmocka_unit_test(test_strided_outputs),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_runs_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
