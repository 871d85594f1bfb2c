/* SPDX-License-Identifier: Apache-2.0 */
/* prepared_util.h -- what the prepared-op tests share: runners (tx_runner's parallel_for), one
 * on the calling thread that runs the pieces in reverse order and one that runs each piece but
 * the first on a thread of its own, each counting its calls; random tensors; the check that an
 * op's output is described as the call's result.  Include after cmocka.h and tensorx.h. */
#ifndef TX_TESTS_PREPARED_UTIL_H
#define TX_TESTS_PREPARED_UTIL_H

#include <pthread.h>

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
static int threads_calls;
static void threads_for(void *ctx, tx_task_fn task, void *task_ctx, size_t n) {
    (void)ctx;
    pthread_t th[64];
    piece_arg args[64];
    assert_true(n <= 64);
    threads_calls++;
    for (size_t i = 1; i < n; i++) {
        args[i] = (piece_arg){task, task_ctx, i};
        assert_int_equal(pthread_create(&th[i], NULL, piece_main, &args[i]), 0);
    }
    task(task_ctx, 0);
    for (size_t i = 1; i < n; i++) pthread_join(th[i], NULL);
}

/* A tensor of random bytes from `seed` (every bit pattern: NaNs with payloads, stray bool
 * bytes). */
static inline tx_tensor *random_tensor(tx_dtype dtype, size_t rank, const int64_t *dims,
                                       uint32_t seed) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(dtype, rank, dims, &t), TX_OK);
    unsigned char *p = tx_tensor_data(t);
    uint32_t x = seed + (uint32_t)tx_tensor_numel(t);
    for (size_t i = 0; i < tx_tensor_nbytes(t); i++) {
        x = x * 1664525u + 1013904223u;
        p[i] = (unsigned char)(x >> 24);
    }
    return t;
}

/* Asserts that op makes one output, described as the call's result y is; returns its info. */
static inline tx_output_info output_like(const tx_op *op, const tx_tensor *y) {
    assert_int_equal(tx_op_output_count(op), 1);
    tx_output_info info = {sizeof info};
    assert_int_equal(tx_op_output(op, 0, &info), TX_OK);
    assert_int_equal(info.dtype, tx_tensor_dtype(y));
    assert_int_equal(info.nbytes, tx_tensor_nbytes(y));
    assert_int_equal(info.rank, tx_tensor_rank(y));
    for (size_t d = 0; d < info.rank; d++) assert_int_equal(info.dims[d], tx_tensor_dims(y)[d]);
    return info;
}

#endif
