/* SPDX-License-Identifier: Apache-2.0 */
/* pool.c -- the pthread pool behind tx__parallel_for (serves every op that splits large work) and
 * the public thread knobs tx_set_num_threads / tx_num_threads / tx_shutdown.
 *
 * Policy.  One pool for the process, created on the first parallel call that needs it, with
 * threads - 1 workers (the caller runs piece 0).  A parallel call owns the pool for its duration:
 * it takes `run_lock` with trylock, and a caller that finds it taken -- another user thread's op,
 * or a nested call from inside a piece -- runs its whole range inline on its own thread.  That
 * keeps concurrent callers correct and deadlock-free, and results never depend on who ran what,
 * because the split into pieces is static and each piece writes its own outputs.
 * tx_set_num_threads and tx_shutdown take run_lock blocking, so they wait for the running section
 * and then join the workers; the next parallel call re-creates them at the new size.  If a
 * worker cannot be created the pool runs with the ones it has (possibly none: inline). */
#include "exec/pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#define DEFAULT_THREAD_CAP 16

typedef struct pool {
    pthread_t threads[TX_MAX_THREADS];
    int nworkers;               /* threads started */
    int wanted;                 /* threads asked for (more than nworkers if creation failed) */
    pthread_mutex_t m;          /* guards everything below */
    pthread_cond_t work_cv;     /* workers wait here for a new generation */
    pthread_cond_t done_cv;     /* the caller waits here for remaining == 0 */
    uint64_t generation;
    bool stop;
    int remaining;              /* workers that have not finished the current generation */
    /* the current job */
    tx__range_fn fn;
    void *ctx;
    int npieces;
    int64_t starts[TX_MAX_THREADS + 1];
} pool;

static pthread_mutex_t run_lock = PTHREAD_MUTEX_INITIALIZER; /* owner runs a parallel section */
static pool the_pool = {.m = PTHREAD_MUTEX_INITIALIZER,
                        .work_cv = PTHREAD_COND_INITIALIZER,
                        .done_cv = PTHREAD_COND_INITIALIZER};
static bool pool_started;           /* under run_lock */
static atomic_int requested;        /* 0 = default */
static atomic_int default_threads;  /* 0 = not computed yet */

/* ---- thread count ---------------------------------------------------------------------------- */

static int compute_default(void) {
    const char *env = getenv("TENSORX_NUM_THREADS");
    if (env != NULL && *env != '\0') {
        char *end = NULL;
        errno = 0;
        long v = strtol(env, &end, 10);
        if (errno == 0 && end != env && *end == '\0' && v >= 1)
            return v > TX_MAX_THREADS ? TX_MAX_THREADS : (int)v;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (n > DEFAULT_THREAD_CAP) n = DEFAULT_THREAD_CAP;
    return (int)n;
}

int tx_num_threads(void) {
    int r = atomic_load_explicit(&requested, memory_order_relaxed);
    if (r > 0) return r;
    int d = atomic_load_explicit(&default_threads, memory_order_relaxed);
    if (d == 0) {
        d = compute_default();
        atomic_store_explicit(&default_threads, d, memory_order_relaxed);
    }
    return d;
}

/* ---- workers --------------------------------------------------------------------------------- */

static void *worker_main(void *arg) {
    int id = (int)(intptr_t)arg; /* runs piece id + 1 */
    pool *p = &the_pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&p->m);
    for (;;) {
        while (!p->stop && p->generation == seen) pthread_cond_wait(&p->work_cv, &p->m);
        if (p->stop) break;
        seen = p->generation;
        tx__range_fn fn = p->fn;
        void *ctx = p->ctx;
        int piece = id + 1;
        bool mine = piece < p->npieces;
        int64_t b = mine ? p->starts[piece] : 0, e = mine ? p->starts[piece + 1] : 0;
        pthread_mutex_unlock(&p->m);
        if (mine) fn(ctx, b, e);
        pthread_mutex_lock(&p->m);
        if (--p->remaining == 0) pthread_cond_signal(&p->done_cv);
    }
    pthread_mutex_unlock(&p->m);
    return NULL;
}

/* A child of fork() has none of the workers, and a lock another thread held at the fork stays
 * held forever: the child starts again from an empty pool with fresh locks. */
static void atfork_child(void) {
    static const pthread_mutex_t mutex_init = PTHREAD_MUTEX_INITIALIZER;
    static const pthread_cond_t cond_init = PTHREAD_COND_INITIALIZER;
    run_lock = mutex_init;
    the_pool.m = mutex_init;
    the_pool.work_cv = cond_init;
    the_pool.done_cv = cond_init;
    the_pool.nworkers = 0;
    the_pool.stop = false;
    pool_started = false;
}
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void atfork_register(void) { pthread_atfork(NULL, NULL, atfork_child); }

/* Under run_lock.  Starts up to want workers; keeps however many could be started. */
static void pool_start(int want) {
    pool *p = &the_pool;
    pthread_once(&atfork_once, atfork_register);
    pthread_mutex_lock(&p->m);
    p->stop = false;
    p->generation = 0;
    p->nworkers = 0;
    p->wanted = want;
    pthread_mutex_unlock(&p->m);
    pthread_attr_t attr;
    bool attr_ok = pthread_attr_init(&attr) == 0;
    if (attr_ok) pthread_attr_setstacksize(&attr, (size_t)1 << 20);
    for (int i = 0; i < want; i++) {
        if (pthread_create(&p->threads[i], attr_ok ? &attr : NULL, worker_main,
                           (void *)(intptr_t)i) != 0)
            break;
        p->nworkers++;
    }
    if (attr_ok) pthread_attr_destroy(&attr);
    pool_started = true;
}

/* Under run_lock. */
static void pool_stop(void) {
    pool *p = &the_pool;
    if (!pool_started) return;
    pthread_mutex_lock(&p->m);
    p->stop = true;
    pthread_cond_broadcast(&p->work_cv);
    pthread_mutex_unlock(&p->m);
    for (int i = 0; i < p->nworkers; i++) pthread_join(p->threads[i], NULL);
    p->nworkers = 0;
    pool_started = false;
}

/* The workers first (this waits for a running parallel section), then the allocator's cache. */
void tx_shutdown(void) {
    pthread_mutex_lock(&run_lock);
    pool_stop();
    pthread_mutex_unlock(&run_lock);
    tx__alloc_cache_release_all();
}

void tx_set_num_threads(int n) {
    if (n > TX_MAX_THREADS) n = TX_MAX_THREADS;
    if (n < 0) n = 0;
    pthread_mutex_lock(&run_lock);
    atomic_store_explicit(&requested, n, memory_order_relaxed);
    if (pool_started && the_pool.wanted + 1 != tx_num_threads()) pool_stop();
    pthread_mutex_unlock(&run_lock);
}

/* ---- splitting and running ------------------------------------------------------------------- */

int tx__parallel_split(int64_t n, int64_t grain, int threads, int64_t *starts) {
    if (grain < 1) grain = 1;
    if (threads < 1) threads = 1;
    if (threads > TX_MAX_THREADS) threads = TX_MAX_THREADS;
    if (n <= 0) {
        starts[0] = 0;
        starts[1] = 0;
        return n < 0 ? 0 : 1;
    }
    /* Whole grains are dealt out evenly; the partial grain at the end joins the last piece, so
     * every piece holds at least one whole grain. */
    int64_t whole = n / grain;
    int k = whole < threads ? (int)(whole < 1 ? 1 : whole) : threads;
    int64_t q = whole / k, r = whole % k;
    for (int i = 0; i < k; i++) starts[i] = grain * ((int64_t)i * q + (i < r ? i : r));
    starts[k] = n;
    return k;
}

void tx__parallel_for(int64_t n, int64_t grain, tx__range_fn fn, void *ctx) {
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    int threads = tx_num_threads();
    if (threads < 2 || n / grain < 2 || pthread_mutex_trylock(&run_lock) != 0) {
        fn(ctx, 0, n);
        return;
    }
    pool *p = &the_pool;
    if (!pool_started || p->wanted + 1 != threads) {
        pool_stop();
        pool_start(threads - 1);
    }
    if (p->nworkers == 0) {
        pthread_mutex_unlock(&run_lock);
        fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&p->m);
    p->npieces = tx__parallel_split(n, grain, p->nworkers + 1, p->starts);
    p->fn = fn;
    p->ctx = ctx;
    p->remaining = p->nworkers;
    p->generation++;
    pthread_cond_broadcast(&p->work_cv);
    int64_t b = p->starts[0], e = p->starts[1];
    pthread_mutex_unlock(&p->m);
    fn(ctx, b, e);
    pthread_mutex_lock(&p->m);
    while (p->remaining > 0) pthread_cond_wait(&p->done_cv, &p->m);
    pthread_mutex_unlock(&p->m);
    pthread_mutex_unlock(&run_lock);
}
