/* SPDX-License-Identifier: Apache-2.0 */
/* race.c -- the racing mutator harness: one thread calls every op of the CLI's table while other
 * threads rewrite the bytes of its inputs (scripts/race.sh; docs/reliability.md).  The
 * Python package wraps NumPy arrays in place and releases the GIL during an op, and the CLI maps
 * .npy inputs in place, so an input may change while an op reads it: no op's memory safety may
 * depend on an input's bytes staying the same between two reads.
 *
 * The calls of an op, over memory this program owns, are made in race_calls.c.
 *
 * Op by op, each with an equal share of the time left (its calls are made in it), the main thread
 * calls the op's calls in turn.  Before each call the inputs' bytes are put back as made; during
 * the call THREADS writer threads each wait a random time within the call's undisturbed duration
 * and rewrite input bytes (data bytes only, never a tensor's header): a bit; a 32-bit word (a
 * TF_TString size or offset: any, grown a little, all ones); a record's type bits or inline size;
 * or a run of elements set to one value: for integers one of the input's own range (partition
 * ids: other counts), past its maximum (stitch indices, lengths, offsets), a dim further,
 * INT32_MAX, INT64_MAX, -1, -(maximum + 1), INT32_MIN, INT64_MIN, 0 or any bits; for bool 1, 0
 * or 2..255; for float32/64 NaN, infinities and huge values; other bytes (strings, float16, ...)
 * any.  Results are never compared (a changed input may give a changed answer): a call returns
 * any status, and after the writers have stopped a success's outputs are read byte by byte
 * (fz_check_tensor, every string's bytes too) and every output is freed.  The harness fails on a
 * crash or a sanitizer report (under ASan + UBSan: scripts/race.sh --asan, the ctest race.c of an
 * ASan build), or when a block of its counting allocator is alive after tx_shutdown(); a crash
 * names the call, and after how many tries and seconds on its op it came.
 *
 * Calls of ops with a prepared form (docs/prepared.md) are also prepared, once, undisturbed; every
 * other try of such a call is then its prepared run over the same racing input memory.
 *
 * Usage: tx_race [SECONDS] [THREADS] [--seed N] [--pool N] [-R REGEX] [--max-bytes N] [-v]
 *   SECONDS 20 in all, THREADS 2 writers, --pool 2 library threads, -R only the ops whose name
 *   matches the extended regular expression (a name alone also picks the ops containing it:
 *   '^gather$' for gather only), --max-bytes the tensor limit (64 MiB), -v each call's size,
 *   undisturbed time, tries and successes. */
#include "race.h"

#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define RACE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RACE_ASAN 1
#endif
#endif
#ifdef RACE_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

/* ---- the counting allocator (tests/stress/counting_alloc.h, without failures) ---- */
#include "counting_alloc.h"

static void *rc_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    return counted_alloc(size, align);
}

/* ---- the writers ---- */
/* gen is odd while a call runs; the writers write only then, into cur's regions, and each says
 * when it has seen an even gen (idle), before the main thread puts the bytes back. */
static atomic_ulong gen;
static _Atomic(rcall *) cur;
static atomic_ulong idle_gen[64];
static atomic_bool stopping;
static atomic_long writes;

/* A value that breaks an op that trusts what it validated: one of the input's own range (other
 * counts), past its maximum, a dim further, the limits of int32 and int64, negatives. */
static int64_t bad_int(const region *r, uint64_t *rs) {
    int64_t span = r->hi >= r->lo ? (int64_t)((uint64_t)r->hi - (uint64_t)r->lo) + 1 : 1;
    if (span <= 0) span = INT64_MAX;
    uint64_t hi = (uint64_t)r->hi;
    switch (rnd(rs) % 14) {
    case 0: case 1: return (int64_t)((uint64_t)r->lo + rnd(rs) % (uint64_t)span);
    case 2: return (int64_t)(hi + 1);
    case 3: return (int64_t)(hi + 1 + rnd(rs) % (uint64_t)span);
    case 4: return (int64_t)(2 * hi + 1);
    case 5: return (int64_t)(hi + ((uint64_t)1 << (rnd(rs) % 31)));
    case 6: return INT32_MAX;
    case 7: return INT64_MAX;
    case 8: return -1;
    case 9: return -(int64_t)(hi & INT64_MAX) - 1;
    case 10: return INT32_MIN;
    case 11: return INT64_MIN;
    case 12: return 0;
    default: return (int64_t)rnd(rs);
    }
}

/* An element's new bytes (es of them) at p. */
static void bad_element(const region *r, unsigned char *p, uint64_t *rs) {
    if (r->dt == TX_BOOL) {
        uint64_t k = rnd(rs) % 8;
        *p = k < 4 ? 1 : k == 4 ? 0 : (unsigned char)(2 + rnd(rs) % 254);
    } else if (r->integer) {
        int_put(p, r->es, bad_int(r, rs));
    } else if (r->dt == TX_FLOAT32 || r->dt == TX_FLOAT64 || r->dt == TX_COMPLEX64 || r->dt == TX_COMPLEX128) {
        static const double specials[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, 3e38, -0.0, 2147483648.0, 0.5};
        double v = specials[rnd(rs) % (sizeof specials / sizeof specials[0])];
        if (r->dt == TX_FLOAT32 || r->dt == TX_COMPLEX64) {
            float f = (float)v;
            memcpy(p, &f, 4);
        } else {
            memcpy(p, &v, 8);
        }
    } else {
        /* string bytes, float16, bfloat16, float8: any bytes */
        uint64_t v = rnd(rs) % 3 == 0 ? UINT64_MAX : rnd(rs);
        memcpy(p, &v, r->es < 8 ? r->es : 8);
    }
}

/* One burst of writes into a random input of c. */
static void burst(rcall *c, uint64_t *rs) {
    region *r = &c->reg[rnd(rs) % c->nreg];
    size_t nel = r->n / r->es, at = (size_t)(rnd(rs) % nel);
    switch (rnd(rs) % 8) {
    case 0: /* a bit */
        r->buf[rnd(rs) % r->n] ^= (unsigned char)(1u << (rnd(rs) % 8));
        break;
    case 1: { /* a 32-bit word: a TF_TString record's size or offset, half of an int64 */
        if (r->n < 4) break;
        size_t w = (size_t)(rnd(rs) % (r->n / 4)) * 4;
        uint32_t v;
        memcpy(&v, r->buf + w, 4);
        uint64_t k = rnd(rs) % 4;
        /* a bit of the size or offset, any size or offset (the type bits kept), all ones, a
         * size grown by a little (past what was counted, still inside the buffer) */
        v = k == 0 ? v ^ (1u << (2 + rnd(rs) % 30)) : k == 1 ? (uint32_t)rnd(rs) << 2 | (v & 3) : k == 2 ? UINT32_MAX
                                                                                          : v + ((1 + (uint32_t)(rnd(rs) % 64)) << 2);
        memcpy(r->buf + w, &v, 4);
        break;
    }
    case 2: { /* a record's type (TF_TString: the low 2 bits of byte 0), or its inline size grown */
        size_t b = (size_t)(rnd(rs) % ((r->n + 7) / 8)) * 8;
        if (rnd(rs) % 2) r->buf[b] = (unsigned char)((r->buf[b] & ~3u) | (rnd(rs) & 3));
        else r->buf[b] = (unsigned char)(r->buf[b] + 4 * (1 + rnd(rs) % 8));
        break;
    }
    default: { /* a run of elements, one value: one, a few, or up to 32K */
        uint64_t k = rnd(rs) % 4;
        size_t len = k < 2 ? 1 : k == 2 ? 1 + rnd(rs) % 16 : 1 + rnd(rs) % ((size_t)1 << (rnd(rs) % 16));
        if (len > nel - at) len = nel - at;
        unsigned char v[16];
        bad_element(r, v, rs);
        for (size_t i = 0; i < len; i++) memcpy(r->buf + (at + i) * r->es, v, r->es);
        break;
    }
    }
    atomic_fetch_add_explicit(&writes, 1, memory_order_relaxed);
}

typedef struct writer_arg {
    size_t me;
    uint64_t seed;
} writer_arg;

static void *writer(void *arg) {
    const writer_arg *wa = arg;
    size_t me = wa->me;
    uint64_t rs = wa->seed * 0x9E3779B97F4A7C15ull + 1;
    while (!atomic_load(&stopping)) {
        unsigned long g = atomic_load(&gen);
        if (!(g & 1)) {
            atomic_store(&idle_gen[me], g);
            while (atomic_load(&gen) == g && !atomic_load(&stopping)) sched_yield();
            continue;
        }
        rcall *c = atomic_load(&cur);
        /* Bursts at random times within the call's undisturbed duration, until it returns. */
        double t = now(), span = c->clean_s > 1e-6 ? c->clean_s : 1e-6;
        while (atomic_load(&gen) == g) {
            double at = t + span * (double)(rnd(&rs) % 1024) / 1024;
            while ((t = now()) < at && atomic_load(&gen) == g) sched_yield();
            if (atomic_load(&gen) != g || c->nreg == 0) break;
            burst(c, &rs);
        }
    }
    return NULL;
}

/* ---- the main thread ---- */
static long nwriters;
static char crash_note[160];   /* what runs now, for a crash report */
static atomic_long crash_tries;
static double crash_since;

static void put_str(const char *s) {
    ssize_t w = write(2, s, strlen(s));
    (void)w;
}

/* Says which call died, after how many tries and seconds (a sanitizer's death callback or a
 * signal handler: only write(2) and clock_gettime). */
static void on_death(void) {
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&said)) return;
    char num[32];
    long n = atomic_load(&crash_tries), secs = (long)(now() - crash_since);
    put_str("race: died in ");
    put_str(crash_note);
    size_t i = sizeof num - 1;
    num[i] = '\0';
    do num[--i] = (char)('0' + n % 10); while ((n /= 10) && i);
    put_str(" at try ");
    put_str(num + i);
    i = sizeof num - 1;
    do num[--i] = (char)('0' + secs % 10); while ((secs /= 10) && i);
    put_str(" of this op, after ");
    put_str(num + i);
    put_str(" s on it\n");
}

static void on_signal(int sig) {
    on_death();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void start_call(rcall *c) {
    for (size_t i = 0; i < c->nreg; i++) memcpy(c->reg[i].buf, c->reg[i].orig, c->reg[i].n);
    atomic_store(&cur, c);
    atomic_fetch_add(&gen, 1); /* odd: the writers go */
}

static void end_call(void) {
    unsigned long g = atomic_fetch_add(&gen, 1) + 1;
    for (long w = 0; w < nwriters; w++)
        while (atomic_load(&idle_gen[w]) != g) sched_yield();
}

static long total_tries;

static void race_call(rcall *c) {
    snprintf(crash_note, sizeof crash_note, "%s", c->label);
    /* Every other try of a prepared call is its prepared run, on the same racing memory. */
    if (c->prepared && c->tries % 2) {
        snprintf(crash_note, sizeof crash_note, "%s (prepared run)", c->label);
        start_call(c);
        (void)tx_op_run(c->prepared, c->prepared_in, c->prepared_out, NULL);
        end_call();
        c->tries++;
        total_tries++;
        return;
    }
    op_outputs o;
    start_call(c);
    tx_status st = run_args(&c->args, &o);
    end_call();
    c->tries++;
    total_tries++;
    if (st == TX_OK) {
        c->ok++;
        for (size_t i = 0; i < o.n; i++) {
            char what[160];
            snprintf(what, sizeof what, "%s output %zu", c->label, i);
            fz_check_tensor(o.t[i], what);
        }
    }
    op_outputs_clear(&o);
}

/* Makes op d's calls, runs them in turn until `secs` have passed since it began (each at least
 * once), prints what happened and frees them. */
static void race_op(const op_def *d, double secs, bool verbose, uint64_t *rs) {
    crash_since = now();
    snprintf(crash_note, sizeof crash_note, "%s (making its calls)", d->name);
    atomic_store(&crash_tries, 0);
    make_calls(d, rs);
    size_t n = ncalls;
    if (n == 0) return;
    double made_s = now() - crash_since, end = crash_since + secs;
    long tries = 0, ok = 0, failing = 0;
    for (size_t k = 0; k < n || now() < end; k++, tries++) {
        atomic_store(&crash_tries, tries + 1);
        race_call(&calls[k % n]);
    }
    for (size_t k = 0; k < n; k++) {
        ok += calls[k].ok;
        failing += calls[k].clean_st != TX_OK;
    }
    printf("race: %-34s %3zu calls (%ld fail undisturbed, made in %.1f s), %6ld tries (%ld succeeded), %.1f s\n",
           d->name, n, failing, made_s, tries, ok, now() - crash_since);
    for (size_t k = 0; k < n; k++) {
        rcall *c = &calls[k];
        if (verbose)
            printf("race:   %-60s %7zu input bytes, %8.3f ms undisturbed (%s), %ld tries, %ld succeeded\n", c->label,
                   input_bytes(c), c->clean_s * 1e3, tx_status_name(c->clean_st), c->tries, c->ok);
        free_call(c);
    }
    ncalls = 0;
    fflush(stdout);
}

static long arg_long(const char *s, const char *what) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0) {
        fprintf(stderr, "race: %s: '%s' is not a number\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    long seconds = 20, pool = 2, seed = 1, max_bytes = 64l << 20;
    const char *filter = NULL;
    bool verbose = false;
    nwriters = 2;
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pool") && i + 1 < argc) pool = arg_long(argv[++i], "--pool");
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = arg_long(argv[++i], "--seed");
        else if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc) max_bytes = arg_long(argv[++i], "--max-bytes");
        else if (!strcmp(argv[i], "-R") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "-v")) verbose = true;
        else if (argv[i][0] != '-' && pos == 0 && ++pos) seconds = arg_long(argv[i], "SECONDS");
        else if (argv[i][0] != '-' && pos == 1 && ++pos) nwriters = arg_long(argv[i], "THREADS");
        else {
            fprintf(stderr, "usage: %s [SECONDS] [THREADS] [--seed N] [--pool N] [-R REGEX] [--max-bytes N] [-v]\n", argv[0]);
            return 2;
        }
    }
    if (nwriters < 1 || nwriters > 64) {
        fprintf(stderr, "race: THREADS must be 1 to 64\n");
        return 2;
    }
    regex_t re;
    if (filter && regcomp(&re, filter, REG_EXTENDED | REG_NOSUB)) {
        fprintf(stderr, "race: -R: '%s' is not an extended regular expression\n", filter);
        return 2;
    }
    /* fz_check_tensor's findings abort; under ASan its handlers report the rest. */
    signal(SIGABRT, on_signal);
#ifdef RACE_ASAN
    __sanitizer_set_death_callback(on_death);
#else
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
#endif
    static const tx_allocator counting = {rc_alloc, counted_free, NULL};
    tx_set_allocator(&counting);
    tx_set_max_tensor_bytes((size_t)max_bytes);
    tx_set_num_threads((int)pool);
    uint64_t rs = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 7;

    const op_def *ops[256];
    size_t nops = 0;
    for (size_t k = 0; op_at(k) && nops < 256; k++) {
        const op_def *d = op_at(k);
        bool example = false;
        for (size_t i = 0; i < NEX && !example; i++) example = !strcmp(tx_op_examples[i].op, d->name);
        if (example && (!filter || regexec(&re, d->name, 0, NULL, 0) == 0)) ops[nops++] = d;
    }
    if (filter) regfree(&re);
    if (nops == 0) {
        fprintf(stderr, "race: no op matches '%s'\n", filter ? filter : "");
        return 2;
    }
    printf("race: %zu ops, %.2f s each; %ld writer threads, library pool %ld, seed %ld\n", nops,
           (double)seconds / (double)nops, nwriters, pool, seed);
    fflush(stdout);

    pthread_t tid[64];
    static writer_arg wargs[64];
    for (long w = 0; w < nwriters; w++) {
        wargs[w] = (writer_arg){(size_t)w, (uint64_t)seed * 64 + (uint64_t)w + 1};
        if (pthread_create(&tid[w], NULL, writer, &wargs[w])) die("cannot create a thread");
    }
    double start = now();
    /* Each op gets an equal share of the time left: one that took longer leaves less to the rest. */
    for (size_t k = 0; k < nops; k++) {
        double left = start + (double)seconds - now();
        race_op(ops[k], left > 0 ? left / (double)(nops - k) : 0, verbose, &rs);
    }
    atomic_store(&stopping, true);
    for (long w = 0; w < nwriters; w++) pthread_join(tid[w], NULL);
    double took = now() - start;

    free(calls);
    tx_shutdown();
    long blocks = atomic_load(&live_blocks), bytes = atomic_load(&live_bytes);
    printf("race: %ld tries in %.1f s, %ld bursts of writes, %ld blocks (%ld bytes) alive at the end\n", total_tries, took,
           atomic_load(&writes), blocks, bytes);
    if (blocks || bytes) {
        printf("race: FAILED (memory not returned)\n");
        return 1;
    }
    printf("race: passed\n");
    return 0;
}
