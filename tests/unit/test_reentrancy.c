/* SPDX-License-Identifier: Apache-2.0 */
/* test_reentrancy.c -- ops called concurrently from several threads.
 *
 * Every call of op_examples.h (so every op of the CLI's table) and a set of large calls that
 * go through the thread pool (cast, transpose, reverse, concat, pad, gather, tile, slice on a
 * 1024 x 1024 tensor) are first run on one thread to get reference results.  Then THREADS threads
 * run all of them ROUNDS times at once, each call three ways: on the inputs shared by every thread
 * (read-only sharing of the same tensor handles), on per-thread views of those inputs
 * (tx_tensor_ref, reshape to the same shape), and on tensors the thread made itself; every result
 * must equal the reference bit for bit (strings byte for byte).  Each thread also checks that its
 * error message (tx_last_error) is its own while the others fail with theirs.  Run under
 * ThreadSanitizer by scripts/valgrind.sh --tsan (docs/reliability.md). */
#include "testutil.h"

#include "args.h"
#include "opreg.h"
#include "op_examples.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern __typeof__(tx_set_num_threads) tx_set_num_threads __attribute__((weak));

#define THREADS 4
#define ROUNDS 3
#define NEX (sizeof tx_op_examples / sizeof tx_op_examples[0])

/* ---- results ---- */
typedef struct result {
    tx_status st;
    op_outputs o;
} result;

static bool same_tensor(const tx_tensor *a, const tx_tensor *b) {
    if (!a || !b) return a == b;
    if (tx_tensor_dtype(a) != tx_tensor_dtype(b) || tx_tensor_rank(a) != tx_tensor_rank(b)) return false;
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        if (tx_tensor_dims(a)[i] != tx_tensor_dims(b)[i]) return false;
    if (tx_tensor_dtype(a) != TX_STRING) return memcmp(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a)) == 0;
    for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
        const tx_string *x = tx_tensor_string(a, i), *y = tx_tensor_string(b, i);
        if (x->size != y->size || (x->size && memcmp(x->data, y->data, (size_t)x->size))) return false;
    }
    return true;
}

static bool same_outputs(const op_outputs *a, const op_outputs *b) {
    if (a->n != b->n) return false;
    for (size_t i = 0; i < a->n; i++)
        if (!same_tensor(a->t[i], b->t[i])) return false;
    return true;
}

/* ---- examples through the CLI table ---- */
static bool parse_example(const op_example *c, op_args *a) {
    const op_def *d = op_find(c->op);
    memset(a, 0, sizeof *a); /* cleared, as a failed parse leaves it, when the op is unknown */
    return d && op_args_parse(a, d, opx_argc(c), c->args, NULL) == TX_OK;
}

static op_args shared_args[NEX];
static result reference[NEX];

/* A per-thread copy of shared args whose tensors are new handles (views) on the shared buffers.
 * Only those handles belong to the copy. */
static tx_status view_args(const op_args *src, op_args *dst) {
    *dst = *src;
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) {
        dst->v[i].tensor = NULL;
        dst->v[i].list = NULL;
        dst->v[i].nlist = 0;
    }
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) {
        const tx_tensor *t = src->v[i].tensor;
        if (!t) continue;
        tx_tensor *shape = NULL, *view = NULL;
        tx_status st = tx_shape(t, TX_INT64, &shape);
        /* A reshape view of the same shape; tensors with dims beyond int32/int64 limits or rank 0
         * take the plain handle copy instead. */
        if (st == TX_OK && tx_tensor_rank(t) > 0) st = tx_reshape(t, shape, &view);
        else st = tx_tensor_ref(t, &view);
        tx_tensor_free(shape);
        if (st != TX_OK) return st;
        dst->v[i].tensor = view;
    }
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) {
        if (!src->v[i].list) continue;
        dst->v[i].list = calloc(src->v[i].nlist + 1, sizeof *dst->v[i].list);
        if (!dst->v[i].list) return TX_RESOURCE_EXHAUSTED;
        for (size_t k = 0; k < src->v[i].nlist; k++) {
            tx_status st = tx_tensor_ref(src->v[i].list[k], &dst->v[i].list[k]);
            if (st != TX_OK) return st;
            dst->v[i].nlist++;
        }
    }
    return TX_OK;
}

static void view_args_free(op_args *a) {
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) {
        tx_tensor_free(a->v[i].tensor);
        for (size_t k = 0; k < a->v[i].nlist; k++) tx_tensor_free(a->v[i].list[k]);
        free(a->v[i].list);
    }
}

/* ---- large calls (the thread pool's paths) ---- */
#define BIG 1024
static tx_tensor *big_x, *big_idx, *big_pads, *big_mult, *big_begin, *big_size;

typedef tx_status (*big_fn)(const tx_tensor *x, tx_tensor **out);
static tx_status big_cast(const tx_tensor *x, tx_tensor **out) { return tx_cast(x, TX_INT32, out); }
static tx_status big_transpose(const tx_tensor *x, tx_tensor **out) { return tx_transpose(x, NULL, 0, out); }
static tx_status big_reverse(const tx_tensor *x, tx_tensor **out) {
    const int64_t axis[2] = {0, 1};
    return tx_reverse_v2(x, axis, 2, out);
}
static tx_status big_concat(const tx_tensor *x, tx_tensor **out) {
    const tx_tensor *v[3] = {x, x, x};
    return tx_concat(v, 3, 1, out);
}
static tx_status big_pad(const tx_tensor *x, tx_tensor **out) { return tx_pad(x, big_pads, TX_PAD_REFLECT, NULL, out); }
static tx_status big_gather(const tx_tensor *x, tx_tensor **out) { return tx_gather(x, big_idx, 1, 0, out); }
static tx_status big_tile(const tx_tensor *x, tx_tensor **out) { return tx_tile(x, big_mult, out); }
static tx_status big_slice(const tx_tensor *x, tx_tensor **out) { return tx_slice(x, big_begin, big_size, out); }
static const big_fn bigs[] = {big_cast, big_transpose, big_reverse, big_concat, big_pad, big_gather, big_tile, big_slice};
#define NBIG (sizeof bigs / sizeof bigs[0])
static tx_tensor *big_ref[NBIG];

static void make_big(void) {
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 2, TU_DIMS(BIG, BIG), &big_x), TX_OK);
    float *d = tx_tensor_data(big_x);
    uint32_t s = 12345;
    for (size_t i = 0; i < (size_t)BIG * BIG; i++) {
        s = s * 1664525u + 1013904223u;
        d[i] = (float)(int32_t)s / 65536.0f;
    }
    int32_t idx[BIG];
    for (int i = 0; i < BIG; i++) idx[i] = (i * 37) % BIG;
    big_idx = tu_i32(BIG, idx);
    big_pads = tu_tensor(TX_INT32, 2, TU_DIMS(2, 2), TU_VALS(3, 5, 7, 1));
    big_mult = tu_i32(2, (const int32_t[]){2, 1});
    big_begin = tu_i32(2, (const int32_t[]){3, 5});
    big_size = tu_i32(2, (const int32_t[]){1000, -1});
}

/* ---- the threads ---- */
typedef struct worker {
    int id;
    int failures;
    char first_failure[256];
} worker;

static void note(worker *w, const char *fmt, const char *a, const char *b) {
    if (w->failures++ == 0) snprintf(w->first_failure, sizeof w->first_failure, fmt, a, b);
}

static void check(worker *w, const char *how, size_t i, tx_status st, op_outputs *o) {
    if (st != reference[i].st || (st == TX_OK && !same_outputs(o, &reference[i].o)))
        note(w, "%s: %s differs from the single-threaded result", tx_op_examples[i].op, how);
    op_outputs_clear(o);
}

static void *work(void *arg) {
    worker *w = arg;
    char want[64];
    snprintf(want, sizeof want, "%d", 1000 + w->id);
    tx_tensor *mine = NULL;
    if (tx_tensor_new(TX_INT8, 1, TU_DIMS(1000 + w->id), &mine) != TX_OK) {
        note(w, "%s%s", "cannot make a tensor", "");
        return NULL;
    }
    for (int r = 0; r < ROUNDS; r++) {
        for (size_t i = 0; i < NEX; i++) {
            op_outputs o = {0};
            /* Shared handles. */
            tx_status st = shared_args[i].def->run(&shared_args[i], &o);
            check(w, "shared inputs", i, st, &o);
            /* Views of the shared buffers. */
            op_args va;
            if (view_args(&shared_args[i], &va) != TX_OK) note(w, "%s: %s", tx_op_examples[i].op, "cannot make views");
            else {
                st = va.def->run(&va, &o);
                check(w, "views of shared inputs", i, st, &o);
            }
            view_args_free(&va);
            /* The thread's own tensors. */
            op_args own;
            if (!parse_example(&tx_op_examples[i], &own)) note(w, "%s: %s", tx_op_examples[i].op, "does not parse on a thread");
            else {
                st = own.def->run(&own, &o);
                check(w, "own inputs", i, st, &o);
            }
            op_args_clear(&own);

            /* This thread's error message stays its own. */
            /* (No cmocka assertion off the main thread: plain calls only.) */
            const int64_t seven = 7, one = 1;
            tx_tensor *bad_shape = NULL, *x = NULL;
            if (tx_tensor_from_data(TX_INT64, 1, &one, &seven, sizeof seven, &bad_shape) != TX_OK ||
                tx_reshape(mine, bad_shape, &x) == TX_OK || !strstr(tx_last_error(), want))
                note(w, "error message '%s' lacks this thread's '%s'", tx_last_error(), want);
            tx_tensor_free(bad_shape);
            tx_tensor_free(x);
        }
        for (size_t b = 0; b < NBIG; b++) {
            tx_tensor *out = NULL;
            if (bigs[b](big_x, &out) != TX_OK || !same_tensor(out, big_ref[b]))
                note(w, "large call %s%s differs from the single-threaded result", (const char *[]){"cast", "transpose", "reverse", "concat", "pad", "gather", "tile", "slice"}[b], "");
            tx_tensor_free(out);
        }
    }
    tx_tensor_free(mine);
    return NULL;
}

static void test_concurrent_ops(void **state) {
    (void)state;
    if (tx_set_num_threads) tx_set_num_threads(4);
    for (size_t i = 0; i < NEX; i++) {
        if (!parse_example(&tx_op_examples[i], &shared_args[i])) fail_msg("%s: example does not parse: %s", tx_op_examples[i].op, op_error());
        reference[i].st = shared_args[i].def->run(&shared_args[i], &reference[i].o);
        if (reference[i].st != TX_OK) fail_msg("%s: example fails: %s", tx_op_examples[i].op, op_error());
    }
    make_big();
    for (size_t b = 0; b < NBIG; b++) assert_int_equal(bigs[b](big_x, &big_ref[b]), TX_OK);

    pthread_t th[THREADS];
    worker ws[THREADS];
    for (int t = 0; t < THREADS; t++) {
        ws[t] = (worker){.id = t};
        assert_int_equal(pthread_create(&th[t], NULL, work, &ws[t]), 0);
    }
    int failures = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(th[t], NULL);
        if (ws[t].failures) print_error("thread %d: %d failure(s), first: %s\n", t, ws[t].failures, ws[t].first_failure);
        failures += ws[t].failures;
    }
    assert_int_equal(failures, 0);

    for (size_t i = 0; i < NEX; i++) {
        op_outputs_clear(&reference[i].o);
        op_args_clear(&shared_args[i]);
    }
    for (size_t b = 0; b < NBIG; b++) tx_tensor_free(big_ref[b]);
    tx_tensor_free(big_x);
    tx_tensor_free(big_idx);
    tx_tensor_free(big_pads);
    tx_tensor_free(big_mult);
    tx_tensor_free(big_begin);
    tx_tensor_free(big_size);
    if (tx_set_num_threads) tx_set_num_threads(0);
}

int main(void) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
