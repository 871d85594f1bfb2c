/* SPDX-License-Identifier: Apache-2.0 */
/* prepared_util.h -- runners for the prepared-op tests (tx_runner's parallel_for): one on the
 * calling thread that runs the pieces in reverse order and counts its calls, and one that runs
 * each piece but the first on a thread of its own.  Include after cmocka.h and tensorx.h. */
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

#endif
