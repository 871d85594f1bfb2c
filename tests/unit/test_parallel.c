/* SPDX-License-Identifier: Apache-2.0 */
/* test_parallel.c -- the thread pool (src/exec/pool.c) and the parallel strided copy
 * (src/exec/copy.c): the static split covers [0, n) exactly once in whole grains, every
 * index runs exactly once for many n / grain / thread counts and when the workers or the caller
 * sleep, results are identical for any thread
 * count, nested and concurrent callers, TENSORX_NUM_THREADS, re-sizing and tx_shutdown; the copy
 * planner with dims and strides whose products pass int64; on Linux, the default thread count
 * follows the affinity mask and a worker found on the caller's CPU is moved off it.  No timing is
 * asserted anywhere. */
#if defined(__linux__)
#define _GNU_SOURCE 1 /* sched_getaffinity, sched_getcpu, pthread_setaffinity_np */
#include <dirent.h>
#include <sched.h>
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#include "exec/copy.h"
#include "exec/pool.h"

/* ---- the split ----------------------------------------------------------------------------- */

static void check_split(int64_t n, int64_t grain, int threads) {
    int64_t starts[TX_MAX_THREADS + 1];
    int k = tx__parallel_split(n, grain, threads, starts);
    int64_t g = grain < 1 ? 1 : grain;
    int t = threads < 1 ? 1 : threads > TX_MAX_THREADS ? TX_MAX_THREADS : threads;
    assert_true(k >= 1);
    assert_true(k <= t);
    assert_int_equal(starts[0], 0);
    assert_int_equal(starts[k], n);
    for (int i = 0; i < k; i++) {
        if (n > 0) assert_true(starts[i] < starts[i + 1]); /* no empty piece */
        assert_int_equal(starts[i] % g, 0);                 /* pieces start on grains */
        if (k > 1) assert_true(starts[i + 1] - starts[i] >= g);
    }
    /* as many pieces as threads whenever every piece can get a whole grain */
    int64_t whole = n / g;
    int64_t want = whole < t ? (whole < 1 ? 1 : whole) : t;
    assert_int_equal(k, want);
    /* balanced: piece sizes in whole grains differ by at most one grain (the last may be short) */
    for (int i = 0; i + 1 < k; i++) {
        int64_t a = starts[i + 1] - starts[i], b = starts[1] - starts[0];
        assert_true(a - b < 2 * g && b - a < 2 * g);
    }
}

static void split_covers_exactly(void **state) {
    (void)state;
    const int64_t ns[] = {0, 1, 2, 3, 5, 7, 8, 63, 64, 65, 100, 1000, 4097, 123457, (int64_t)1 << 40,
                          INT64_MAX};
    const int64_t grains[] = {-5, 0, 1, 2, 3, 7, 64, 1000, 4096, (int64_t)1 << 20, (int64_t)1 << 62,
                              INT64_MAX};
    const int threads[] = {-1, 0, 1, 2, 3, 4, 5, 7, 8, 16, 63, 64, 65, 1000};
    for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
        for (size_t b = 0; b < sizeof grains / sizeof *grains; b++)
            for (size_t c = 0; c < sizeof threads / sizeof *threads; c++)
                check_split(ns[a], grains[b], threads[c]);
}

/* ---- every index exactly once --------------------------------------------------------------- */

typedef struct mark_ctx {
    atomic_int *hits;
    atomic_int calls;
} mark_ctx;

static void mark(void *ctx, int64_t b, int64_t e) {
    mark_ctx *m = ctx;
    atomic_fetch_add(&m->calls, 1);
    for (int64_t i = b; i < e; i++) atomic_fetch_add(&m->hits[i], 1);
}

static void every_index_once(void **state) {
    (void)state;
    const int64_t ns[] = {0, 1, 2, 3, 17, 64, 1000, 4099, 100000};
    const int64_t grains[] = {0, 1, 3, 16, 1000, 50000};
    const int threads[] = {1, 2, 3, 4, 8};
    atomic_int *hits = calloc(100000, sizeof *hits);
    assert_non_null(hits);
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        tx_set_num_threads(threads[t]);
        assert_int_equal(tx_num_threads(), threads[t]);
        for (size_t a = 0; a < sizeof ns / sizeof *ns; a++)
            for (size_t b = 0; b < sizeof grains / sizeof *grains; b++) {
                mark_ctx m = {hits, 0};
                for (int64_t i = 0; i < ns[a]; i++) atomic_store(&hits[i], 0);
                tx__parallel_for(ns[a], grains[b], mark, &m);
                for (int64_t i = 0; i < ns[a]; i++) assert_int_equal(atomic_load(&hits[i]), 1);
                int64_t starts[TX_MAX_THREADS + 1];
                int k = tx__parallel_split(ns[a], grains[b], threads[t], starts);
                if (ns[a] == 0) assert_int_equal(atomic_load(&m.calls), 0);
                else assert_true(atomic_load(&m.calls) == 1 || atomic_load(&m.calls) == k);
            }
    }
    free(hits);
    tx_set_num_threads(0);
}

/* The sleeping side of the hand-off (pool.c spins, then sleeps on condition variables): split
 * calls after the workers have fallen asleep, and calls whose worker pieces outlast the caller's
 * spin so that the caller sleeps until the last worker wakes it.  Every index once, each time. */
static void slow_mark(void *ctx, int64_t b, int64_t e) {
    if (b > 0) usleep(3000); /* a worker's piece: past TX_POOL_SPIN_NS (100 us) */
    mark(ctx, b, e);
}

/* Every index of [0, n) was marked once; clears the marks for the next call. */
static void each_once(atomic_int *hits, int64_t n) {
    for (int64_t i = 0; i < n; i++) assert_int_equal(atomic_exchange(&hits[i], 0), 1);
}

static void sleepers_are_woken(void **state) {
    (void)state;
    enum { N = 4096 };
    atomic_int *hits = calloc(N, sizeof *hits);
    assert_non_null(hits);
    tx_set_num_threads(3);
    for (int round = 0; round < 6; round++) {
        mark_ctx m = {hits, 0};
        if (round % 2 == 0) usleep(3000); /* the workers stop spinning and sleep */
        tx__parallel_for(N, 64, round % 3 == 2 ? slow_mark : mark, &m);
        each_once(hits, N);
        assert_int_equal(atomic_load(&m.calls), 3);
    }
    free(hits);
    tx_set_num_threads(0);
}

/* Late workers (pool.c's claims): while the workers are held, a split call must not wait for
 * them -- the caller runs every piece (it hangs, a ctest timeout, if it waits) -- and once they
 * are let go, workers that saw those jobs late must not run a piece again. */
typedef struct who_ctx {
    mark_ctx m;
    pthread_t caller;
    atomic_int elsewhere; /* pieces run on another thread than the caller's */
} who_ctx;

static void mark_who(void *ctx, int64_t b, int64_t e) {
    who_ctx *w = ctx;
    if (!pthread_equal(pthread_self(), w->caller)) atomic_fetch_add(&w->elsewhere, 1);
    mark(&w->m, b, e);
}

static void late_workers_do_not_hold_up_the_call(void **state) {
    (void)state;
    enum { N = 4096 };
    atomic_int *hits = calloc(N, sizeof *hits);
    assert_non_null(hits);
    tx_set_num_threads(4);
    for (int round = 0; round < 40; round++) {
        bool held = round < 20 || round % 3 == 0;
        tx__pool_hold_workers(held);
        who_ctx w = {{hits, 0}, pthread_self(), 0};
        tx__parallel_for(N, 64, mark_who, &w);
        each_once(hits, N);
        assert_int_equal(atomic_load(&w.m.calls), 4);
        if (held) assert_int_equal(atomic_load(&w.elsewhere), 0);
        if (round == 20) usleep(2000); /* the late workers wake and find nothing left to claim */
    }
    tx__pool_hold_workers(false);
    free(hits);
    tx_set_num_threads(0);
}

/* ---- identical results for every thread count ----------------------------------------------- */

typedef struct fill_ctx {
    uint32_t *out;
} fill_ctx;

static uint32_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return (uint32_t)x;
}

static void fill(void *ctx, int64_t b, int64_t e) {
    fill_ctx *f = ctx;
    for (int64_t i = b; i < e; i++) f->out[i] = mix((uint64_t)i);
}

static void identical_across_thread_counts(void **state) {
    (void)state;
    const int64_t n = 1 << 20;
    uint32_t *ref = malloc(n * sizeof *ref), *got = malloc(n * sizeof *got);
    assert_non_null(ref);
    assert_non_null(got);
    tx_set_num_threads(1);
    fill_ctx f = {ref};
    tx__parallel_for(n, 1000, fill, &f);
    for (int t = 2; t <= 6; t++) {
        tx_set_num_threads(t);
        memset(got, 0, n * sizeof *got);
        f.out = got;
        tx__parallel_for(n, 1000, fill, &f);
        assert_memory_equal(ref, got, n * sizeof *got);
    }
    free(ref);
    free(got);
    tx_set_num_threads(0);
}

/* The parallel copy (each split mode) gives the bytes of a one-thread copy. */
static void copy_identical_across_thread_counts(void **state) {
    (void)state;
    const size_t nbytes = (size_t)24 << 20;
    unsigned char *src = malloc(nbytes), *ref = malloc(nbytes), *got = malloc(nbytes);
    assert_non_null(src);
    assert_non_null(ref);
    assert_non_null(got);
    for (size_t i = 0; i < nbytes; i++) src[i] = (unsigned char)mix(i);
    struct {
        size_t rank;
        int64_t dims[3];
        int64_t sst[3]; /* source strides in elements; the source base is offset to stay inside */
        size_t elem;
    } cases[] = {
        {1, {(int64_t)(20 << 20) + 3}, {1}, 1},         /* one contiguous block (SPLIT_BLOCK) */
        {2, {4096, 1024}, {1024, -1}, 4},               /* reversed rows, many (SPLIT_ROWS) */
        {2, {2, (1 << 20) + 5}, {(1 << 20) + 5, -1}, 4}, /* two long reversed rows (SPLIT_ROW) */
        {2, {3, (1 << 20) + 1}, {(1 << 20) + 1, 2}, 2}, /* strided rows */
        {3, {64, 256, 64}, {64, 64 * 64, 1}, 4},        /* a transpose of the outer dims */
        {2, {5, 1 << 20}, {1 << 20, 1}, 4},              /* contiguous, stream-sized rows */
        {2, {(1 << 20) + 7, 1}, {1, 1}, 16},            /* width-16 records */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        int64_t dst_st[3], src_st[3];
        tx__contiguous_strides(cases[c].rank, cases[c].dims, cases[c].elem, dst_st);
        int64_t offset = 0, out = (int64_t)cases[c].elem;
        for (size_t d = 0; d < cases[c].rank; d++) {
            src_st[d] = cases[c].sst[d] * (int64_t)cases[c].elem;
            if (src_st[d] < 0) offset += (cases[c].dims[d] - 1) * -src_st[d];
            out *= cases[c].dims[d];
        }
        assert_true((size_t)out <= nbytes);
        for (int t = 1; t <= 3; t++) {
            tx_set_num_threads(t);
            unsigned char *dst = t == 1 ? ref : got;
            memset(dst, 0xEE, nbytes);
            tx__copy_nd((char *)dst, (const char *)src + offset, cases[c].rank, cases[c].dims,
                        dst_st, src_st, cases[c].elem);
            if (t > 1) assert_memory_equal(ref, got, nbytes);
        }
        /* spot-check the one-thread result against the definition */
        for (int64_t probe = 0; probe < 1000; probe++) {
            int64_t lin = (int64_t)(mix((uint64_t)probe + c) % (uint64_t)(out / (int64_t)cases[c].elem));
            int64_t rem = lin, so = offset;
            for (size_t d = cases[c].rank; d-- > 0;) {
                so += (rem % cases[c].dims[d]) * src_st[d];
                rem /= cases[c].dims[d];
            }
            assert_memory_equal(ref + lin * (int64_t)cases[c].elem, src + so, cases[c].elem);
        }
    }
    free(src);
    free(ref);
    free(got);
    tx_set_num_threads(0);
}

/* ---- planning with products past int64 ---------------------------------------------------- */

/* The planner merges a dim into the one before it when one step of that one equals dims[d] steps
 * of this one on both sides.  dims[d] * stride can pass int64 while every byte offset of the copy
 * fits ((dims[d] - 1) * stride does): 2 elements 2^62 bytes apart, 3 elements -2^62 bytes apart;
 * then no merge is possible.  The dims of an empty copy can multiply past int64 before their 0,
 * and the contiguous strides of an empty shape likewise.  UBSan builds fail on any of these
 * overflows. */
static void copy_plan_products_past_int64(void **state) {
    (void)state;
    const int64_t q = INT64_C(1) << 62, big = INT64_C(1) << 40;
    tx__copy_plan p;
    tx__copy_plan_make(&p, 2, TU_DIMS(2, 2), TU_DIMS(2, 1), TU_DIMS(1, q), 1);
    assert_int_equal(p.rank, 2); /* nothing merged, nothing folded */
    assert_int_equal(p.dims[0], 2);
    assert_int_equal(p.dims[1], 2);
    assert_int_equal(p.src_strides[0], 1);
    assert_int_equal(p.src_strides[1], q);
    assert_int_equal(p.width, 1);
    assert_int_equal(p.count, 4);
    tx__copy_plan_make(&p, 2, TU_DIMS(2, 3), TU_DIMS(3, 1), TU_DIMS(5, -q), 1);
    assert_int_equal(p.rank, 2);
    assert_int_equal(p.src_strides[1], -q);
    /* The same shape with strides whose products fit still merges into one dim. */
    tx__copy_plan_make(&p, 2, TU_DIMS(2, 2), TU_DIMS(2, 1), TU_DIMS(q / 2, q / 4), 1);
    assert_int_equal(p.rank, 1);
    assert_int_equal(p.dims[0], 4);
    assert_int_equal(p.src_strides[0], q / 4);
    /* Empty: [2^40, 2^40, 0] plans nothing and copies nothing. */
    tx__copy_plan_make(&p, 3, TU_DIMS(big, big, 0), TU_DIMS(0, 0, 4), TU_DIMS(0, 0, 4), 4);
    assert_int_equal(p.count, 0);
    assert_int_equal(p.rank, 0);
    assert_int_equal(p.width, 0);
    assert_int_equal(tx__copy_plan_rows(&p), 0);
    tx__copy_nd(NULL, NULL, 3, TU_DIMS(big, big, 0), TU_DIMS(0, 0, 4), TU_DIMS(0, 0, 4), 4);
    /* Contiguous strides: exact while they fit (a 0 dim steps like a 1); past int64, which only
     * an empty shape reaches, they saturate. */
    int64_t st[3];
    tx__contiguous_strides(3, TU_DIMS(big, big, 0), 4, st);
    assert_int_equal(st[2], 4);
    assert_int_equal(st[1], 4);
    assert_int_equal(st[0], 4 * big);
    tx__contiguous_strides(3, TU_DIMS(0, big, big), 4, st);
    assert_int_equal(st[2], 4);
    assert_int_equal(st[1], 4 * big);
    assert_int_equal(st[0], INT64_MAX);
}

/* ---- nesting, concurrency, re-sizing, shutdown ---------------------------------------------- */

typedef struct nest_ctx {
    atomic_int *hits;
    int64_t inner_n;
    atomic_int not_inline; /* cmocka asserts belong to the main thread: count instead */
} nest_ctx;

static void nested_piece(void *ctx, int64_t b, int64_t e) {
    nest_ctx *c = ctx;
    for (int64_t i = b; i < e; i++) {
        mark_ctx m = {c->hits + i * c->inner_n, 0};
        tx__parallel_for(c->inner_n, 1, mark, &m); /* the pool is ours: runs inline */
        if (atomic_load(&m.calls) != 1) atomic_fetch_add(&c->not_inline, 1);
    }
}

static void nested_calls_run_inline(void **state) {
    (void)state;
    tx_set_num_threads(2);
    const int64_t outer = 8, inner_n = 500;
    atomic_int *hits = calloc(outer * inner_n, sizeof *hits);
    assert_non_null(hits);
    nest_ctx c = {hits, inner_n, 0};
    tx__parallel_for(outer, 1, nested_piece, &c);
    assert_int_equal(atomic_load(&c.not_inline), 0);
    for (int64_t i = 0; i < outer * inner_n; i++) assert_int_equal(atomic_load(&hits[i]), 1);
    free(hits);
    tx_set_num_threads(0);
}

typedef struct caller_arg {
    int id;
    int failures;
} caller_arg;

static void *caller_main(void *arg) {
    caller_arg *a = arg;
    const int64_t n = 20000 + a->id * 777;
    atomic_int *hits = calloc((size_t)n, sizeof *hits);
    if (hits == NULL) {
        a->failures++;
        return NULL;
    }
    for (int rep = 0; rep < 200; rep++) {
        for (int64_t i = 0; i < n; i++) atomic_store(&hits[i], 0);
        mark_ctx m = {hits, 0};
        tx__parallel_for(n, 1 + rep % 50, mark, &m);
        for (int64_t i = 0; i < n; i++)
            if (atomic_load(&hits[i]) != 1) a->failures++;
    }
    free(hits);
    return NULL;
}

static atomic_bool resizer_stop;
static void *resizer_main(void *arg) {
    (void)arg;
    for (int i = 0; !atomic_load(&resizer_stop); i++) tx_set_num_threads(1 + i % 4);
    return NULL;
}

static void concurrent_callers(void **state) {
    (void)state;
    tx_set_num_threads(3);
    enum { CALLERS = 4 };
    pthread_t th[CALLERS], rs;
    caller_arg args[CALLERS];
    atomic_store(&resizer_stop, false);
    assert_int_equal(pthread_create(&rs, NULL, resizer_main, NULL), 0);
    for (int i = 0; i < CALLERS; i++) {
        args[i].id = i;
        args[i].failures = 0;
        assert_int_equal(pthread_create(&th[i], NULL, caller_main, &args[i]), 0);
    }
    for (int i = 0; i < CALLERS; i++) pthread_join(th[i], NULL);
    atomic_store(&resizer_stop, true);
    pthread_join(rs, NULL);
    for (int i = 0; i < CALLERS; i++) assert_int_equal(args[i].failures, 0);
    tx_set_num_threads(0);
}

static void shutdown_and_reuse(void **state) {
    (void)state;
    tx_set_num_threads(2);
    atomic_int hits[1000];
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 1000; i++) atomic_store(&hits[i], 0);
        mark_ctx m = {hits, 0};
        tx__parallel_for(1000, 10, mark, &m);
        assert_int_equal(atomic_load(&m.calls), 2);
        for (int i = 0; i < 1000; i++) assert_int_equal(atomic_load(&hits[i]), 1);
        tx_shutdown();
    }
    tx_shutdown(); /* twice is fine */
    tx_set_num_threads(0);
}

/* A child made by fork() after the pool started has no workers: it must still run parallel work
 * (on a fresh pool) instead of waiting forever for threads that do not exist. */
static void fork_child_gets_a_fresh_pool(void **state) {
    (void)state;
    /* qemu-user (the cross stage's emulator) aborts itself when a child forked from a threaded
     * process starts threads; tests/cross.cmake names the emulator. */
    if (getenv("TX_TEST_EMULATOR")) {
        printf("note: skipped under the emulator %s, which cannot start threads after fork\n",
               getenv("TX_TEST_EMULATOR"));
        skip();
    }
    tx_set_num_threads(2);
    atomic_int hits[1000];
    mark_ctx m = {hits, 0};
    for (int i = 0; i < 1000; i++) atomic_store(&hits[i], 0);
    tx__parallel_for(1000, 10, mark, &m); /* the parent's workers exist now */
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        alarm(20); /* a hang becomes a failure */
        int bad = 0;
        for (int round = 0; round < 3; round++) {
            mark_ctx c = {hits, 0};
            for (int i = 0; i < 1000; i++) atomic_store(&hits[i], 0);
            tx__parallel_for(1000, 10, mark, &c);
            for (int i = 0; i < 1000; i++) bad += atomic_load(&hits[i]) != 1;
        }
        _exit(bad == 0 ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    tx_set_num_threads(0);
}

/* Run first: main() sets TENSORX_NUM_THREADS=3 before anything reads it. */
static void env_sets_default(void **state) {
    (void)state;
    assert_int_equal(tx_num_threads(), 3);
    tx_set_num_threads(5);
    assert_int_equal(tx_num_threads(), 5);
    tx_set_num_threads(0);
    assert_int_equal(tx_num_threads(), 3);
    tx_set_num_threads(-7);
    assert_int_equal(tx_num_threads(), 3);
    tx_set_num_threads(100000);
    assert_int_equal(tx_num_threads(), TX_MAX_THREADS);
    tx_set_num_threads(1);
    assert_int_equal(tx_num_threads(), 1);
    mark_ctx m = {calloc(100, sizeof(atomic_int)), 0};
    assert_non_null(m.hits);
    tx__parallel_for(100, 1, mark, &m);
    assert_int_equal(atomic_load(&m.calls), 1); /* one thread: no split */
    free(m.hits);
    tx_set_num_threads(0);
}

/* The measured policy: a site's first call of a size runs as one piece (it measures the serial
 * cost), whatever the thread count, unless it has 16 MiB of work or more (a program that makes one
 * big call would otherwise make it on one thread); every index still runs once under it. */
static void measured_policy_first_call(void **state) {
    (void)state;
    tx__set_split_policy(TX__SPLIT_MEASURED);
    tx_set_num_threads(4);
    atomic_int *hits = calloc(4096, sizeof *hits);
    assert_non_null(hits);
    mark_ctx m = {hits, 0};
    /* 4096 / 32 grains of 64 KiB: 8 MiB; `mark` is new to this process's measured table */
    tx__parallel_for(4096, 32, mark, &m);
    assert_int_equal(atomic_load(&m.calls), 1);
    for (int round = 0; round < 50; round++) {
        m.calls = 0;
        for (int64_t i = 0; i < 4096; i++) atomic_store(&hits[i], 0);
        tx__parallel_for(4096, 32, mark, &m);
        for (int64_t i = 0; i < 4096; i++) assert_int_equal(atomic_load(&hits[i]), 1);
        assert_true(atomic_load(&m.calls) == 1 || atomic_load(&m.calls) == 4);
    }
    m.calls = 0;
    for (int64_t i = 0; i < 4096; i++) atomic_store(&hits[i], 0);
    tx__parallel_for_work(4096, 16, (uint64_t)64 << 20, mark, &m); /* a new size class: 64 MiB */
    tx__set_split_policy(TX__SPLIT_ALWAYS); /* before the asserts: the later tests need it */
    tx_set_num_threads(0);
    assert_int_equal(atomic_load(&m.calls), 4);
    for (int64_t i = 0; i < 4096; i++) assert_int_equal(atomic_load(&hits[i]), 1);
    free(hits);
}

/* A public op gives identical bytes at every thread count (the copy behind tx_tensor-level ops). */
static void op_identical_across_thread_counts(void **state) {
    (void)state;
    const int64_t dims[2] = {1024, 2048};
    tx_tensor *x = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 2, dims, &x), TX_OK);
    uint32_t *p = tx_tensor_data(x);
    for (int64_t i = 0; i < dims[0] * dims[1]; i++) p[i] = mix((uint64_t)i);
    tx_tensor *ref = NULL;
    tx_set_num_threads(1);
    const int64_t axis[1] = {1};
    assert_int_equal(tx_reverse_v2(x, axis, 1, &ref), TX_OK);
    for (int t = 2; t <= 4; t++) {
        tx_set_num_threads(t);
        tx_tensor *got = NULL;
        assert_int_equal(tx_reverse_v2(x, axis, 1, &got), TX_OK);
        assert_memory_equal(tx_tensor_data(ref), tx_tensor_data(got), tx_tensor_nbytes(ref));
        tx_tensor_free(got);
    }
    const uint32_t *r = tx_tensor_data(ref);
    for (int64_t i = 0; i < dims[0]; i += 101)
        for (int64_t j = 0; j < dims[1]; j += 7) assert_int_equal(r[i * dims[1] + j], p[i * dims[1] + dims[1] - 1 - j]);
    tx_tensor_free(ref);
    tx_tensor_free(x);
    tx_set_num_threads(0);
}

#if defined(__linux__)
/* The default thread count of a process whose affinity allows one CPU: this binary re-executed
 * under such a mask with --print-default-threads prints tx_num_threads() as its exit code. */
static void default_follows_affinity(void **state) {
    (void)state;
    if (getenv("TX_TEST_EMULATOR")) skip(); /* the emulator cannot re-execute the binary */
    cpu_set_t all;
    assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
    int one = -1;
    for (int c = 0; c < CPU_SETSIZE && one < 0; c++)
        if (CPU_ISSET(c, &all)) one = c;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        cpu_set_t m;
        CPU_ZERO(&m);
        CPU_SET(one, &m);
        if (sched_setaffinity(0, sizeof m, &m) != 0) _exit(100);
        unsetenv("TENSORX_NUM_THREADS");
        execl("/proc/self/exe", "test_parallel", "--print-default-threads", (char *)NULL);
        _exit(101);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 1);
}

/* A worker put on the caller's CPU is moved off it by the next split call (its mask narrowed
 * to the others), keeps that mask while the caller stays on that CPU, and gets its own affinity
 * back (the pool creator's mask) when the caller runs on another CPU. */
static void worker_on_callers_cpu_is_moved(void **state) {
    (void)state;
    if (getenv("TX_TEST_EMULATOR")) skip(); /* the emulator's threads are not the host's */
    cpu_set_t all;
    assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
    if (CPU_COUNT(&all) < 2) {
        printf("note: skipped, this process may run on one CPU only\n");
        skip();
    }
    tx_set_num_threads(2);
    atomic_int hits[1000];
    mark_ctx m = {hits, 0};
    tx__parallel_for(1000, 10, mark, &m); /* creates the worker under the full mask */
    long self = (long)gettid();
    long worker = -1;
    DIR *d = opendir("/proc/self/task");
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        long tid = strtol(e->d_name, NULL, 10);
        if (tid > 0 && tid != self) worker = tid;
    }
    closedir(d);
    assert_true(worker > 0);
    /* Both on one CPU: the caller pinned there, the worker too (as the scheduler may do). */
    int here = sched_getcpu();
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(here, &one);
    assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof one, &one), 0);
    assert_int_equal(sched_setaffinity((pid_t)worker, sizeof one, &one), 0);
    for (int round = 0; round < 3; round++) {
        mark_ctx c = {hits, 0};
        for (int i = 0; i < 1000; i++) atomic_store(&hits[i], 0);
        tx__parallel_for(1000, 10, mark, &c);
        for (int i = 0; i < 1000; i++) assert_int_equal(atomic_load(&hits[i]), 1);
    }
    cpu_set_t now, all_but_here = all;
    CPU_CLR(here, &all_but_here);
    assert_int_equal(sched_getaffinity((pid_t)worker, sizeof now, &now), 0);
    /* Moved off the caller's CPU by the first call (the mask without that CPU), and kept off
     * it by the next ones while the caller is there. */
    assert_true(CPU_EQUAL(&now, &all_but_here));
    /* The caller on another CPU: the worker's own mask is given back at the next call (and
     * narrowed again only if the worker ran on the caller's new CPU). */
    int there = 0;
    while (there == here || !CPU_ISSET(there, &all)) there++;
    cpu_set_t other, all_but_there = all;
    CPU_ZERO(&other);
    CPU_SET(there, &other);
    CPU_CLR(there, &all_but_there);
    assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof other, &other), 0);
    mark_ctx c = {hits, 0};
    tx__parallel_for(1000, 10, mark, &c);
    assert_int_equal(sched_getaffinity((pid_t)worker, sizeof now, &now), 0);
    bool restored = CPU_EQUAL(&now, &all) || CPU_EQUAL(&now, &all_but_there);
    assert_int_equal(pthread_setaffinity_np(pthread_self(), sizeof all, &all), 0);
    assert_true(restored);
    tx_set_num_threads(0);
}
#endif

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--print-default-threads") == 0) return tx_num_threads();
    setenv("TENSORX_NUM_THREADS", "3", 1);
    /* every split path runs (the measured policy's own test switches to it) */
    setenv("TENSORX_THREAD_POLICY", "split", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(measured_policy_first_call),
        cmocka_unit_test(env_sets_default),
        cmocka_unit_test(split_covers_exactly),
        cmocka_unit_test(every_index_once),
        cmocka_unit_test(sleepers_are_woken),
        cmocka_unit_test(late_workers_do_not_hold_up_the_call),
        cmocka_unit_test(identical_across_thread_counts),
        cmocka_unit_test(copy_identical_across_thread_counts),
        cmocka_unit_test(copy_plan_products_past_int64),
        cmocka_unit_test(nested_calls_run_inline),
        cmocka_unit_test(concurrent_callers),
        cmocka_unit_test(shutdown_and_reuse),
        cmocka_unit_test(fork_child_gets_a_fresh_pool),
        cmocka_unit_test(op_identical_across_thread_counts),
#if defined(__linux__)
        cmocka_unit_test(default_follows_affinity),
        cmocka_unit_test(worker_on_callers_cpu_is_moved),
#endif
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    tx_shutdown();
    return rc;
}
