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
 * worker cannot be created the pool runs with the ones it has (possibly none: inline).
 *
 * Whether a range of two grains or more is split at all is measured, not set by a byte count
 * (see "the measured split decision" below): waking the workers costs from a few to tens of
 * microseconds depending on the machine and its load, and what a grain costs differs by op, by
 * size (in cache or not) and by how well the op scales (a memory-bound op on a busy machine
 * gains nothing from a second thread). */
#if defined(__linux__)
#define _GNU_SOURCE 1 /* sched_getcpu, sched_getaffinity, sched_yield, pthread_setaffinity_np */
#include <sched.h>
#define TX_HAVE_LINUX_SCHED 1
#endif
#include "exec/pool.h"

#include "core/tuning.h"

#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_THREAD_CAP 16

/* The hand-off of a job is lock-free while the threads spin: the caller writes the job and
 * bumps `generation`; each worker, spinning on it, claims its piece, runs it and counts
 * `remaining` down; the caller runs piece 0, then every piece still unclaimed, and spins until
 * `remaining` is 0.  So a late worker (asleep, or its CPU held by the caller, another thread or
 * the hypervisor: 0.1-4 ms in most split calls of some minutes on this VM, 16 MiB concats
 * 0.5-3 ms instead of 0.23 while the caller waited) costs a call at most its piece on the
 * caller's thread.  The mutex and condition variables serve only threads that have stopped
 * spinning: `sleepers` and `caller_sleeping` say that someone sleeps, and the side that changes
 * what a sleeper waits for reads them after its change (both seq_cst, as the sleeper's
 * announcement and re-check are), so either the sleeper sees the change or it is woken under
 * the mutex.  With the mutex at every hand-off, a worker that saw the new generation while the
 * caller held it slept in the kernel: 1.2 futex calls and 400 ns per empty split call. */
typedef struct pool {
    pthread_t threads[TX_MAX_THREADS];
    int nworkers;               /* threads started */
    int wanted;                 /* threads asked for (more than nworkers if creation failed) */
    pthread_mutex_t m;          /* for sleeping and waking only */
    pthread_cond_t work_cv;     /* sleeping workers wait here for a new generation */
    pthread_cond_t done_cv;     /* a sleeping caller waits here for remaining == 0 */
    /* What the caller writes and the workers read, the generation and the job on one cache line
     * (with the bounds of the first two workers' pieces): a worker's first look at it brings the
     * whole job.  The job is written before the generation is bumped and not again until
     * remaining is 0. */
    _Alignas(64) _Atomic uint64_t generation;
    tx__range_fn fn;            /* read by a worker only once it holds a claim: stable until then */
    void *ctx;
    atomic_int npieces;
    atomic_bool stop;
    int64_t starts[TX_MAX_THREADS + 1];
    atomic_int sleepers;         /* workers asleep on work_cv, or about to be */
    /* what the workers write and the caller reads, a line of its own */
    _Alignas(64) atomic_int remaining; /* pieces 1.. of the current generation not yet run */
    atomic_bool caller_sleeping; /* the caller is asleep on done_cv, or about to be */
    /* Piece i (>= 1) is free to claim while claim[i] holds the generation of its job; a claim
     * (by worker i - 1 or by the caller) swaps in 0.  A worker's claim of a generation that has
     * passed fails, so it never reads a job that is being rewritten. */
    _Atomic uint64_t claim[TX_MAX_THREADS];
    /* The CPU each worker last woke on, and the CPU the caller took out of its
     * affinity mask to move it off the caller's, or -1 (see separate_colocated). */
    _Alignas(64) atomic_int cpu[TX_MAX_THREADS];
    int excluded[TX_MAX_THREADS]; /* under run_lock */
    bool late[TX_MAX_THREADS];    /* under run_lock: the caller ran worker i's piece */
    uint32_t late_calls[TX_MAX_THREADS]; /* under run_lock: split calls in a row it was late */
} pool;
_Static_assert(offsetof(pool, starts) + 4 * sizeof(int64_t) <= offsetof(pool, generation) + 64,
               "the job's line holds starts[0..3]");

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
#ifdef TX_HAVE_LINUX_SCHED
    /* The CPUs this process may run on (taskset, cgroups' cpusets): more threads than those
     * would share CPUs and spin against each other. */
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) > 0)
        n = CPU_COUNT(&mask);
#endif
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

/* Waking a thread asleep on a condition variable took 50-70 us on this project's 2-core VM,
 * more than a whole 1 MiB cast on one thread; a thread that spins briefly before it sleeps is
 * found awake by the next call of a run of back-to-back ops.  Both sides spin: a worker for the
 * next generation, the caller for the workers to finish.  TX_POOL_SPIN_NS bounds the CPU time
 * spent so. */
static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Every 64 pauses (a few microseconds) a spinning thread yields its CPU: when the thread it
 * waits for shares that CPU (more threads than CPUs, or the scheduler put both on one), spinning
 * alone would hold it off for the whole spin -- calls took 230 us instead of 8.  With nothing
 * else to run, the yield returns at once. */
static void spin_pause(unsigned i) {
    cpu_relax();
#ifdef TX_HAVE_LINUX_SCHED
    if (i % 64 == 0) sched_yield();
#else
    (void)i;
#endif
}

/* Spins until a new generation or stop, or until TX_POOL_SPIN_NS have passed. */
static void spin_while_idle(pool *p, uint64_t seen) {
    uint64_t start = now_ns();
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&p->generation, memory_order_acquire) != seen ||
            atomic_load_explicit(&p->stop, memory_order_acquire))
            return;
        spin_pause(i);
        if (i % 64 == 0 && now_ns() - start > TX_POOL_SPIN_NS) return;
    }
}

/* Spins until every worker is done, or until TX_POOL_SPIN_NS have passed. */
static void spin_while_running(pool *p) {
    uint64_t start = now_ns();
    for (unsigned i = 1;; i++) {
        if (atomic_load_explicit(&p->remaining, memory_order_acquire) == 0) return;
        spin_pause(i);
        if (i % 64 == 0 && now_ns() - start > TX_POOL_SPIN_NS) return;
    }
}

/* ---- keeping workers off the caller's CPU ----------------------------------------------------
 * Linux may run a worker on the same CPU as the thread that calls the op -- it places a woken
 * thread near its waker, and a thread that ran within the last half millisecond counts as
 * cache-hot and is not moved to an idle CPU.  Once there, a worker stays: on this 2-CPU VM, one
 * process in two of a benchmark's runs had its worker on the caller's CPU for its whole life,
 * every split call running at one thread's speed or worse.  So after a split call the caller
 * compares its CPU with the one each worker last woke on (or counts a worker as there whose
 * piece it had to run itself, run_unclaimed); a worker found on it gets an affinity mask
 * without that CPU, which moves it at once.  It keeps that mask while the caller stays on that
 * CPU, and gets its own back (the pool creator's) once the caller runs elsewhere, so a user's
 * affinity settings are not narrowed beyond the caller's CPU.  (Giving it back at its next
 * piece let the next wake-up put it on the caller's CPU again: one split call in two ran on one
 * CPU, and a 2048x2048 transpose took 2.1 ms instead of 1.0.) */
#ifdef TX_HAVE_LINUX_SCHED
static cpu_set_t creator_mask; /* the pool creator's affinity, which the workers inherited */
static bool creator_mask_ok;

static void note_cpu(pool *p, int id) {
    atomic_store_explicit(&p->cpu[id], sched_getcpu(), memory_order_relaxed);
}

/* Under run_lock, after a split call in which workers 0..busy-1 had pieces. */
static void separate_colocated(pool *p, int busy) {
    int here = sched_getcpu();
    if (here < 0 || !creator_mask_ok) return;
    for (int i = 0; i < p->nworkers; i++) {
        if (p->excluded[i] >= 0 && p->excluded[i] != here &&
            pthread_setaffinity_np(p->threads[i], sizeof creator_mask, &creator_mask) == 0)
            p->excluded[i] = -1;
        /* also when its mask already leaves `here` out: someone else has set it since */
        bool seen_here = atomic_load_explicit(&p->cpu[i], memory_order_relaxed) == here;
        bool late = p->late[i];
        uint32_t k = p->late_calls[i] = late ? p->late_calls[i] + 1 : 0;
        p->late[i] = false;
        if (i >= busy || !(seen_here || late)) continue;
        /* late again though moved: still our mask?  Read (0.2 us) at 1, 2, 4 ... in a row */
        if (!seen_here && p->excluded[i] == here) {
            cpu_set_t cur;
            if ((k & (k - 1)) != 0 ||
                pthread_getaffinity_np(p->threads[i], sizeof cur, &cur) != 0 ||
                !CPU_ISSET(here, &cur))
                continue;
        }
        cpu_set_t m = creator_mask;
        CPU_CLR(here, &m);
        if (CPU_COUNT(&m) == 0) return; /* nowhere else to go */
        if (pthread_setaffinity_np(p->threads[i], sizeof m, &m) != 0) continue;
        p->excluded[i] = here;
        atomic_store_explicit(&p->cpu[i], -1, memory_order_relaxed); /* seen here: anew only */
    }
}
#else
static void note_cpu(pool *p, int id) {
    (void)p;
    (void)id;
}
static void separate_colocated(pool *p, int busy) {
    (void)p;
    (void)busy;
}
#endif

/* Until a generation after `seen` or stop: spins a while, then sleeps. */
static void wait_for_work(pool *p, uint64_t seen) {
    spin_while_idle(p, seen);
    if (atomic_load(&p->generation) != seen || atomic_load(&p->stop)) return;
    pthread_mutex_lock(&p->m);
    atomic_fetch_add(&p->sleepers, 1);
    while (!atomic_load(&p->stop) && atomic_load(&p->generation) == seen)
        pthread_cond_wait(&p->work_cv, &p->m);
    atomic_fetch_sub(&p->sleepers, 1);
    pthread_mutex_unlock(&p->m);
}

static atomic_bool workers_held; /* tx__pool_hold_workers: the tests' late workers */
void tx__pool_hold_workers(bool hold) { atomic_store(&workers_held, hold); }
/* Takes piece `piece` of generation `gen`; false if someone has it or that generation is over. */
static bool claim_piece(pool *p, int piece, uint64_t gen) {
    uint64_t expected = gen;
    return atomic_load_explicit(&p->claim[piece], memory_order_relaxed) == gen &&
           atomic_compare_exchange_strong(&p->claim[piece], &expected, 0);
}

static void *worker_main(void *arg) {
    int id = (int)(intptr_t)arg; /* runs piece id + 1 */
    pool *p = &the_pool;
    uint64_t seen = 0;
    for (;;) {
        wait_for_work(p, seen);
        if (atomic_load(&p->stop)) break;
        seen = atomic_load_explicit(&p->generation, memory_order_acquire);
        while (atomic_load_explicit(&workers_held, memory_order_relaxed)) usleep(100);
        int piece = id + 1;
        note_cpu(p, id); /* also when its piece was taken: a worker on the caller's CPU is late */
        if (piece < atomic_load_explicit(&p->npieces, memory_order_relaxed) &&
            claim_piece(p, piece, seen)) {
            p->fn(p->ctx, p->starts[piece], p->starts[piece + 1]);
            if (atomic_fetch_sub(&p->remaining, 1) == 1 && atomic_load(&p->caller_sleeping)) {
                pthread_mutex_lock(&p->m);
                pthread_cond_signal(&p->done_cv);
                pthread_mutex_unlock(&p->m);
            }
        }
    }
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
    atomic_store(&p->stop, false);
    /* generation is not reset: a claim word equal to a generation is that generation's */
    atomic_store(&p->sleepers, 0);
    atomic_store(&p->caller_sleeping, false);
    p->nworkers = 0;
    p->wanted = want;
    for (int i = 0; i < want && i < TX_MAX_THREADS; i++) {
        atomic_store_explicit(&p->cpu[i], -1, memory_order_relaxed);
        p->excluded[i] = -1;
        p->late[i] = false;
        p->late_calls[i] = 0;
    }
    pthread_mutex_unlock(&p->m);
#ifdef TX_HAVE_LINUX_SCHED
    creator_mask_ok = pthread_getaffinity_np(pthread_self(), sizeof creator_mask, &creator_mask) == 0;
#endif
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
    atomic_store(&p->stop, true);
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

/* ---- handing out and waiting (under run_lock) ----------------------------------------------- */

/* Publishes fn over [0, n) in grains to the workers; the caller runs piece 0 (starts[0..1]). */
static void hand_out(pool *p, int64_t n, int64_t grain, tx__range_fn fn, void *ctx) {
    int pieces = tx__parallel_split(n, grain, p->nworkers + 1, p->starts);
    uint64_t gen = atomic_load_explicit(&p->generation, memory_order_relaxed) + 1;
    atomic_store_explicit(&p->npieces, pieces, memory_order_relaxed);
    p->fn = fn;
    p->ctx = ctx;
    for (int i = 1; i < pieces; i++) atomic_store_explicit(&p->claim[i], gen, memory_order_relaxed);
    atomic_store_explicit(&p->remaining, pieces - 1, memory_order_relaxed);
    atomic_fetch_add(&p->generation, 1); /* publishes the job (seq_cst: see the pool struct) */
    if (atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->m);
        pthread_cond_broadcast(&p->work_cv);
        pthread_mutex_unlock(&p->m);
    }
}

/* Under run_lock, after piece 0: runs here each piece no worker has claimed; returns how many.
 * A worker the scheduler put on this CPU (this VM's packs threads onto fewer CPUs) cannot claim
 * while this thread runs, nor be seen there: a piece run here marks its worker `late`, which
 * separate_colocated treats as found here; a sleeping worker first gets this CPU to wake on. */
static int run_unclaimed(pool *p) {
    uint64_t gen = atomic_load_explicit(&p->generation, memory_order_relaxed);
    int pieces = atomic_load_explicit(&p->npieces, memory_order_relaxed), ran = 0;
    if (pieces < 2) return 0;
    _Atomic uint64_t *last = &p->claim[pieces - 1];
    /* a worker spinning on another CPU claims within ~100 ns: wait that long for tiny pieces */
    for (int i = 0; i < 16 && atomic_load_explicit(last, memory_order_relaxed) == gen; i++)
        cpu_relax();
#ifdef TX_HAVE_LINUX_SCHED
    if (atomic_load(&p->sleepers) > 0 && atomic_load_explicit(last, memory_order_relaxed) == gen)
        sched_yield();
#endif
    for (int i = 1; i < pieces; i++) {
        if (!claim_piece(p, i, gen)) continue;
        p->fn(p->ctx, p->starts[i], p->starts[i + 1]);
        atomic_fetch_sub(&p->remaining, 1);
        p->late[i - 1] = true;
        ran++;
    }
    return ran;
}

/* Until every piece of the current generation has run: spins, then sleeps. */
static void wait_for_workers(pool *p) {
    spin_while_running(p);
    if (atomic_load(&p->remaining) == 0) return;
    pthread_mutex_lock(&p->m);
    atomic_store(&p->caller_sleeping, true);
    while (atomic_load(&p->remaining) != 0) pthread_cond_wait(&p->done_cv, &p->m);
    atomic_store(&p->caller_sleeping, false);
    pthread_mutex_unlock(&p->m);
}

/* ---- the measured split decision ------------------------------------------------------------ *
 * For each call site (the piece function) and size class (log2 of the bytes of work) a small
 * table keeps two costs in nanoseconds per KiB of work, each a moving average of what calls
 * measured:
 *  - serial: the whole range run on the calling thread;
 *  - split: the caller's own piece while the workers ran theirs (memory-bound work slows down
 *    when threads share the memory bus, so this is not serial / threads);
 * and the pool keeps `overhead`: a split call's wall time minus the caller's piece, i.e. handing
 * the pieces out, waiting for the slowest one and the hand-back, measured only on calls that
 * found the workers still spinning from the call before (a run of ops: the case worth tuning;
 * the first call of a run also pays their wake-up, and the call that creates them their start).
 * A call of w KiB split into p pieces is split when
 *     overhead + w / p * split  <  w * serial.
 * The first call of a class runs serially (that measures serial; split is assumed perfect until
 * measured), except work of SPLIT_UNMEASURED_KIB or more, which splits until one call in
 * EXPLORE_EVERY has measured serial: a program that makes one big call (the CLI on a file) would
 * otherwise make it on one thread, and a wake-up of the workers (tens of microseconds) is little
 * beside milliseconds of work.  So that a decision can change when the machine does, one call in
 * EXPLORE_EVERY of a class takes the other way when the two predictions are within a factor of 2
 * of each other; far from the crossover the loser is retried once in EXPLORE_FAR_NS, two calls
 * running (the second finds the workers warm, so it measures the overhead).  Under real load a
 * retried split can wait a scheduler time slice (milliseconds), too much to pay more often; on a
 * quiet machine it undoes what one preempted call did (see average_in).  Results do not depend on
 * any of this (see pool.h).  TENSORX_THREAD_POLICY=split restores splitting every range of two
 * grains or more (the tests use it so that the split paths run whatever the machine measures). */
#define SITE_SLOTS 256 /* a power of two */
#define EXPLORE_EVERY 32
#define SPLIT_UNMEASURED_KIB 16384 /* 16 MiB of work: at least about a millisecond */
#define EXPLORE_FAR_NS 1000000000ull /* 1 s */
#define EXPLORE_FAR_CALLS 2
/* One call in TIME_EVERY of a site is timed (and every call while a cost is unmeasured): the
 * two to three clock reads of a timed call (20 ns each here) cost as much as a split call's
 * hand-off to spinning workers. */
#define TIME_EVERY 8 /* a power of two dividing EXPLORE_EVERY */

typedef struct site {
    _Atomic uintptr_t key;    /* fn ^ size class; 0 = free */
    _Atomic uint32_t serial;  /* ns per KiB of work; 0 = not measured */
    _Atomic uint32_t split;   /* ns per KiB of work; 0 = not measured */
    _Atomic uint32_t calls;
    _Atomic uint32_t far_left; /* calls left of a retry far from the crossover */
    _Atomic uint64_t far_ns;   /* when it began */
} site;

static site sites[SITE_SLOTS];
static _Atomic uint32_t split_overhead_ns; /* set by calibrate */
static atomic_int policy; /* a tx__split_policy; 0: TENSORX_THREAD_POLICY not read yet */

static tx__split_policy split_policy(void) {
    int v = atomic_load_explicit(&policy, memory_order_relaxed);
    if (v == 0) {
        const char *env = getenv("TENSORX_THREAD_POLICY");
        v = env != NULL && strcmp(env, "split") == 0 ? TX__SPLIT_ALWAYS : TX__SPLIT_MEASURED;
        atomic_store_explicit(&policy, v, memory_order_relaxed);
    }
    return (tx__split_policy)v;
}

void tx__set_split_policy(tx__split_policy p) {
    atomic_store_explicit(&policy, (int)p, memory_order_relaxed);
}

/* The slot of (fn, size class of kib), claimed if new; NULL when the table is full. */
static site *site_of(tx__range_fn fn, uint64_t kib) {
    int size_class = 63 - __builtin_clzll((unsigned long long)(kib | 1));
    uintptr_t key = (uintptr_t)fn ^ (uintptr_t)size_class;
    if (key == 0) key = 1;
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 56) & (SITE_SLOTS - 1);
    for (size_t i = 0; i < SITE_SLOTS; i++) {
        site *s = &sites[(h + i) & (SITE_SLOTS - 1)];
        uintptr_t k = atomic_load_explicit(&s->key, memory_order_relaxed);
        if (k == key) return s;
        if (k == 0) {
            uintptr_t expected = 0;
            if (atomic_compare_exchange_strong_explicit(&s->key, &expected, key,
                                                        memory_order_relaxed, memory_order_relaxed) ||
                expected == key)
                return s;
        }
    }
    return NULL;
}

/* A moving average that follows a drop at once and a rise slowly: timings are noisy upwards
 * (page faults of a first call, preemption), so the typical cost is near the low ones.  A sample
 * counts for at most RISE_CAP times the average (a rise of at most 2x a sample): one preempted
 * call would otherwise lift the split overhead a hundredfold. */
#define RISE_CAP 9
static void average_in(_Atomic uint32_t *avg, uint64_t value) {
    uint32_t old = atomic_load_explicit(avg, memory_order_relaxed);
    if (old != 0 && value > (uint64_t)old * RISE_CAP) value = (uint64_t)old * RISE_CAP;
    if (value > UINT32_MAX) value = UINT32_MAX;
    uint64_t v = old == 0 || value < old ? value : ((uint64_t)old * 7 + value) / 8;
    atomic_store_explicit(avg, (uint32_t)(v ? v : 1), memory_order_relaxed); /* 0: unmeasured */
}

/* A new pool measures its hand-off: CALIBRATION_SPLITS splits of nothing, each followed by the
 * check that moves a worker off the caller's CPU, the fastest after the first four (the workers'
 * start, and a worker the scheduler put on the caller's CPU: 5.5 us a round until moved) setting
 * the overhead (70-110 ns on this VM; rounds in which the caller ran a late worker's piece count
 * only when all did).  The guess it replaces, 5 us, kept mid-size work on one thread for a
 * second at a time: float32 -> float16 of 64K elements 1.75 us instead of 1.2. */
#define CALIBRATION_SPLITS 16
static void nothing(void *ctx, int64_t begin, int64_t end) { (void)ctx, (void)begin, (void)end; }
static void calibrate(pool *p) {
    uint64_t best = UINT64_MAX, best_late = UINT64_MAX; /* late: the caller ran a worker's piece */
    for (int i = 0; i < CALIBRATION_SPLITS; i++) {
        uint64_t t0 = now_ns();
        hand_out(p, p->nworkers + 1, 1, nothing, NULL);
        spin_while_running(p); /* the hand-off to the workers is what is measured */
        bool late = run_unclaimed(p) > 0;
        wait_for_workers(p);
        uint64_t t = now_ns() - t0;
        separate_colocated(p, p->nworkers);
        uint64_t *b = late ? &best_late : &best;
        if (i >= 4 && t < *b) *b = t;
    }
    if (best == UINT64_MAX) best = best_late; /* the split calls' own timing corrects it */
    if (best > UINT32_MAX) best = UINT32_MAX;
    atomic_store_explicit(&split_overhead_ns, (uint32_t)(best ? best : 1), memory_order_relaxed);
}

/* Whether to split kib KiB of work into `pieces` pieces at site s, and whether to time the call:
 * while a cost is unmeasured, when it explores the losing way, and one call in TIME_EVERY. */
static bool should_split(site *s, uint64_t kib, int pieces, bool *timed) {
    uint64_t serial = atomic_load_explicit(&s->serial, memory_order_relaxed);
    uint64_t split = atomic_load_explicit(&s->split, memory_order_relaxed);
    *timed = true;
    if (serial == 0) { /* measure the serial cost first, but not by a big call */
        if (kib < SPLIT_UNMEASURED_KIB) return false;
        uint32_t calls = atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed) + 1;
        return calls % EXPLORE_EVERY != 0;
    }
    uint64_t overhead = atomic_load_explicit(&split_overhead_ns, memory_order_relaxed);
    double t_serial = (double)kib * (double)serial;
    double t_split = (double)overhead + (double)kib / pieces * (double)(split ? split : serial);
    bool split_wins = t_split < t_serial;
    uint32_t far = atomic_load_explicit(&s->far_left, memory_order_relaxed);
    if (far > 0) {
        atomic_store_explicit(&s->far_left, far - 1, memory_order_relaxed);
        return !split_wins;
    }
    uint32_t calls = atomic_fetch_add_explicit(&s->calls, 1, memory_order_relaxed) + 1;
    *timed = split == 0 || calls % TIME_EVERY == 0; /* EXPLORE_EVERY is a multiple */
    if (calls % EXPLORE_EVERY != 0) return split_wins;
    if (t_split < 2 * t_serial && t_serial < 2 * t_split) return !split_wins;
    uint64_t now = now_ns();
    if (now - atomic_load_explicit(&s->far_ns, memory_order_relaxed) < EXPLORE_FAR_NS)
        return split_wins;
    atomic_store_explicit(&s->far_ns, now, memory_order_relaxed);
    atomic_store_explicit(&s->far_left, EXPLORE_FAR_CALLS - 1, memory_order_relaxed);
    return !split_wins;
}

/* A prepared op's run on the caller's threads: the static split of tensorx's pool for the
 * runner's thread count, its pieces handed to the runner's parallel_for. */
typedef struct runner_pieces {
    tx__range_fn fn;
    void *ctx;
    int64_t starts[TX_MAX_THREADS + 1];
} runner_pieces;
static void run_piece(void *task_ctx, size_t i) {
    runner_pieces *r = task_ctx;
    r->fn(r->ctx, r->starts[i], r->starts[i + 1]);
}
static void run_on_runner(const tx_runner *runner, int64_t n, int64_t grain, tx__range_fn fn,
                          void *ctx) {
    runner_pieces r = {.fn = fn, .ctx = ctx};
    int pieces = tx__parallel_split(n, grain, runner->threads, r.starts);
    if (pieces < 2) {
        fn(ctx, 0, n);
        return;
    }
    runner->parallel_for(runner->ctx, run_piece, &r, (size_t)pieces);
}

int tx__run_threads(void) {
    return tx__runner_active ? tx__runner_active->threads : tx_num_threads();
}

static uint64_t kib_of(uint64_t bytes) { return bytes >= 1024 ? bytes / 1024 : 1; }

void tx__parallel_for(int64_t n, int64_t grain, tx__range_fn fn, void *ctx) {
    if (n <= 0) return;
    int64_t g = grain < 1 ? 1 : grain;
    if (n / 2 < g) { /* under two grains (n < 2g, without overflow): no division on this path */
        fn(ctx, 0, n);
        return;
    }
    tx__parallel_for_work(n, g, (uint64_t)(n / g) * (uint64_t)TX_GRAIN_BYTES, fn, ctx);
}

void tx__parallel_for_work(int64_t n, int64_t grain, uint64_t work_bytes, tx__range_fn fn,
                           void *ctx) {
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    if (n / 2 < grain) { /* under two grains: a shift, not the division below */
        fn(ctx, 0, n);
        return;
    }
    if (tx__runner_active != NULL) {
        run_on_runner(tx__runner_active, n, grain, fn, ctx);
        return;
    }
    int64_t grains = n / grain;
    int threads = grains < 2 ? 1 : tx_num_threads(); /* small work asks nothing more */
    if (threads < 2 || pthread_mutex_trylock(&run_lock) != 0) {
        fn(ctx, 0, n);
        return;
    }
    pool *p = &the_pool;
    if (!pool_started || p->wanted + 1 != threads) {
        pool_stop();
        pool_start(threads - 1);
        if (p->nworkers > 0) calibrate(p);
    }
    if (p->nworkers == 0) {
        pthread_mutex_unlock(&run_lock);
        fn(ctx, 0, n);
        return;
    }
    int pieces = (int)(grains < p->nworkers + 1 ? grains : p->nworkers + 1);
    const uint64_t kib = kib_of(work_bytes);
    site *s = split_policy() == TX__SPLIT_MEASURED ? site_of(fn, kib) : NULL;
    bool timed = false;
    if (s != NULL && !should_split(s, kib, pieces, &timed)) {
        pthread_mutex_unlock(&run_lock); /* the pool is not needed: let other callers have it */
        uint64_t t0 = timed ? now_ns() : 0;
        fn(ctx, 0, n);
        if (timed) average_in(&s->serial, (now_ns() - t0) / kib);
        return;
    }
    /* the overhead is typical when the workers were found spinning (a run of ops) */
    bool warm = atomic_load_explicit(&p->sleepers, memory_order_relaxed) == 0;
    uint64_t t0 = timed ? now_ns() : 0;
    hand_out(p, n, grain, fn, ctx);
    int64_t b = p->starts[0], e = p->starts[1];
    fn(ctx, b, e);
    uint64_t t_piece = timed ? now_ns() - t0 : 0; /* the caller's piece, and the hand-out */
    bool stole = run_unclaimed(p) > 0;
    wait_for_workers(p);
    uint64_t total = timed ? now_ns() - t0 : 0;
    separate_colocated(p, atomic_load_explicit(&p->npieces, memory_order_relaxed) - 1);
    pthread_mutex_unlock(&run_lock);
    if (timed) {
        /* the caller's piece's share of the work, by its share of the range */
        uint64_t piece_kib = kib_of((uint64_t)((double)work_bytes * (double)(e - b) / (double)n));
        average_in(&s->split, t_piece / piece_kib);
        /* a late worker's piece run here is not the hand-off's cost */
        if (warm && !stole) average_in(&split_overhead_ns, total > t_piece ? total - t_piece : 0);
    }
}
