/* SPDX-License-Identifier: Apache-2.0 */
/* stress.c -- many threads calling every op at once on shared inputs, with allocations failing at
 * random and a small tensor limit (scripts/stress.sh; docs/reliability.md).
 *
 * The calls: every call of tests/unit/op_examples.h (so every op of the CLI's table), MUTANTS random
 * mutations of each (bytes of its fuzz encoding, opcodec.h, changed after the op, fail_k and flags
 * bytes: invalid calls with wrong dtypes, shapes, attributes, and new valid ones), and each example
 * scaled up (opcodec.h's flags) to about 1 KiB and, the first example of each op, past the thread
 * pool's 1 MiB (a 4 MiB tensor limit refuses the largest results).  Their input tensors are made
 * once and shared by every thread.  Before the threads start, each call is run once on one thread
 * (tx_set_num_threads(1)) for its reference result.  Then THREADS threads (default: twice the
 * online CPUs) pick calls at random until the time is up, with the library's pool at --pool
 * threads; in a quarter of the calls the allocator fails each of the calling thread's allocations
 * with probability 1/3.  Each result must equal the reference: the same status and message, or the
 * same outputs byte for byte; a call in which an allocation failed may instead fail with
 * resource_exhausted, a message and no output.  At the end, after the inputs and references are
 * freed and tx_shutdown(), no block of the counting allocator may be alive.  Prints calls per
 * second, failures injected and mismatches; exits 1 on a mismatch or a leak.  Calls of ops with a
 * prepared form are also prepared once; a quarter of their tries run the prepared op (shared by
 * the threads) into outputs of the thread's own, which must equal the reference.
 *
 * Usage: tx_stress [SECONDS] [THREADS] [--pool N] [--seed N] [--max-bytes N] */
#include "op_examples.h"
#include "../../frontend/args.h"
#include "../../fuzz/oprun.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MUTANTS 6
#define NEX (sizeof tx_op_examples / sizeof tx_op_examples[0])

/* ---- the counting allocator (counting_alloc.h), failing on demand ---- */
static atomic_long injected;
static _Thread_local unsigned inject_per_mille; /* this thread's failure rate in the current call */
static _Thread_local long injected_here;        /* failures injected into the current call */
static _Thread_local uint64_t rng_state;

static uint64_t rnd(void) {
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static void die(const char *what) {
    fprintf(stderr, "stress: %s\n", what);
    abort();
}

#include "counting_alloc.h"

static void *st_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    if (inject_per_mille && rnd() % 1000 < inject_per_mille) {
        injected_here++;
        atomic_fetch_add(&injected, 1);
        return NULL;
    }
    return counted_alloc(size, align);
}

/* ---- the calls ---- */
typedef struct call {
    op_args args;      /* shared by every thread */
    tx_status st;      /* the reference result */
    char msg[512];
    op_outputs out;
    /* The call prepared once (docs/prepared.md), NULL when its op has no prepared form or the
     * prepare failed; its data inputs' elements.  Threads run it at once into outputs of their
     * own: a run must give the reference too. */
    tx_op *prepared;
    const void *prepared_in[64];
} call;

static call *calls;
static size_t ncalls;

/* Parses one example into an op_args with only the arguments it gives present (so that its
 * encoding leaves the others out, as the example does). */
static bool parse_example(const op_example *e, op_args *a) {
    const op_def *d = op_find(e->op);
    memset(a, 0, sizeof *a); /* cleared, as a failed parse leaves it, when the op is unknown */
    op_cmdline cl = {.no_defaults = true};
    return d && op_args_parse(a, d, opx_argc(e), e->args, &cl) == TX_OK;
}

static void add_call(const uint8_t *enc, size_t n) {
    fz_op_case c;
    if (!fz_op_decode_scaled(enc, n, &c)) return;
    calls[ncalls++].args = c.args;
}

/* A few random edits of an encoded call (the op selector stays): a byte replaced by a random
 * value or by one of the encoding's edge values (opcodec.h: 0xE0.. are -1, INT64_MIN, ...), a bit
 * flipped, a byte nudged by one. */
static void mutate(uint8_t *b, size_t n) {
    static const uint8_t edges[] = {0, 1, 0x7F, 0x80, 0xE0, 0xE1, 0xE2, 0xE3, 0xFE, 0xFF};
    int edits = 1 + (int)(rnd() % 3);
    for (int e = 0; e < edits && n > 4; e++) {
        size_t at = 4 + (size_t)(rnd() % (n - 4));
        switch (rnd() % 5) {
        case 0: b[at] = (uint8_t)rnd(); break;
        case 1: b[at] = edges[rnd() % sizeof edges]; break;
        case 2: b[at] ^= (uint8_t)(1u << (rnd() % 8)); break;
        case 3: b[at]++; break;
        default: b[at]--; break;
        }
    }
}

static void make_calls(void) {
    calls = calloc(NEX * (MUTANTS + 3), sizeof *calls);
    if (!calls) die("out of memory");
    for (size_t i = 0; i < NEX; i++) {
        op_args a;
        if (!parse_example(&tx_op_examples[i], &a)) {
            fprintf(stderr, "stress: example %zu (%s) does not parse: %s\n", i, tx_op_examples[i].op, op_error());
            exit(2);
        }
        /* Flags byte (opcodec.h; after the u16 op and the u8 fail_k): class 1, unscaled. */
        fz_buf enc = {0};
        fz_op_encode(&a, 0, 1 << 1, &enc);
        op_args_clear(&a);
        add_call(enc.p, enc.n);
        uint8_t *m = malloc(enc.n);
        if (!m) die("out of memory");
        for (int k = 0; k < MUTANTS; k++) {
            memcpy(m, enc.p, enc.n);
            mutate(m, enc.n);
            add_call(m, enc.n);
        }
        /* Scaled: about 1 KiB (class 0) along a random dim choice, and, for the first example of
         * each op, past 1 MiB (class 5), the thread pool's size. */
        enc.p[3] = (uint8_t)((rnd() % 4) << 6);
        add_call(enc.p, enc.n);
        if (i == 0 || strcmp(tx_op_examples[i].op, tx_op_examples[i - 1].op) != 0) {
            enc.p[3] = (uint8_t)(5 << 1 | (rnd() % 4) << 6);
            add_call(enc.p, enc.n);
        }
        free(m);
        free(enc.p);
    }
}

/* Runs call i on this thread; the outputs go to *o. */
static tx_status run_call(const call *c, op_outputs *o, char *msg, size_t cap) {
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    memset(o, 0, sizeof *o);
    tx_status st = c->args.def->run(&c->args, o);
    snprintf(msg, cap, "%s", st == TX_OK ? "" : op_error());
    return st;
}

/* Prepares c (the library's pool at one thread, as for the reference), where its op has a
 * prepared form and the prepare succeeds. */
static void prepare_call(call *c) {
    op_outputs o;
    memset(&o, 0, sizeof o);
    o.prepare = &c->prepared;
    size_t n = 0;
    if (!c->args.def->data_inputs[0] || c->args.def->run(&c->args, &o) != TX_OK) c->prepared = NULL;
    op_outputs_clear(&o);
    if (c->prepared && (!op_data_inputs(c->args.def, &c->args, c->prepared_in, 64, &n) ||
                        n != tx_op_input_count(c->prepared)))
        die("prepared: the spec's data inputs do not match the op's");
}

/* Runs c's prepared op into fresh outputs and compares with the reference; says why not. */
static bool prepared_same(const call *c, char *why, size_t cap) {
    size_t n = tx_op_output_count(c->prepared);
    void *out[TX_OP_MAX_OUTPUTS] = {NULL};
    tx_output_info info[TX_OP_MAX_OUTPUTS];
    for (size_t i = 0; i < n; i++) {
        info[i] = (tx_output_info){sizeof info[i]};
        if (tx_op_output(c->prepared, i, &info[i]) != TX_OK || !(out[i] = malloc(info[i].nbytes + 1)))
            die("prepared: no room for an output");
    }
    tx_status st = tx_op_run(c->prepared, c->prepared_in, out, NULL);
    bool same = true;
    if (st != c->st || (st != TX_OK && strcmp(tx_last_error(), c->msg) != 0)) {
        snprintf(why, cap, "prepared run: %s (%.200s), the reference %s (%.200s)", tx_status_name(st),
                 st ? tx_last_error() : "", tx_status_name(c->st), c->msg);
        same = false;
    }
    for (size_t i = 0; same && st == TX_OK && i < n; i++)
        if (i >= c->out.n || tx_tensor_nbytes(c->out.t[i]) != info[i].nbytes ||
            memcmp(tx_tensor_data_const(c->out.t[i]), out[i], info[i].nbytes) != 0) {
            snprintf(why, cap, "prepared run: output %zu differs from the reference", i);
            same = false;
        }
    for (size_t i = 0; i < n; i++) free(out[i]);
    return same;
}

/* ---- the threads ---- */
static atomic_long total_calls, mismatches, absorbed, exhausted_by_injection;
static double deadline;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void mismatch(const call *c, const char *why, bool inject) {
    if (atomic_fetch_add(&mismatches, 1) >= 10) return;
    pthread_mutex_lock(&report_lock);
    fprintf(stderr, "stress: MISMATCH %s (call %zu%s): %s\n", c->args.def->name, (size_t)(c - calls),
            inject ? ", allocations failing" : "", why);
    pthread_mutex_unlock(&report_lock);
}

static void *worker(void *arg) {
    rng_state = (uint64_t)(uintptr_t)arg * 0x9E3779B97F4A7C15ull + 1;
    long n = 0;
    char msg[512], why[600];
    while (now() < deadline) {
        for (int burst = 0; burst < 16; burst++, n++) {
            const call *c = &calls[rnd() % ncalls];
            if (c->prepared && rnd() % 4 == 0) { /* a quarter of a prepared call's tries */
                if (!prepared_same(c, why, sizeof why)) mismatch(c, why, false);
                continue;
            }
            bool inject = rnd() % 4 == 0;
            injected_here = 0;
            inject_per_mille = inject ? 333 : 0;
            op_outputs o;
            tx_status st = run_call(c, &o, msg, sizeof msg);
            inject_per_mille = 0;
            if (injected_here && st == TX_RESOURCE_EXHAUSTED) {
                /* The failure the allocator caused: a message and no output. */
                atomic_fetch_add(&exhausted_by_injection, 1);
                bool clean = msg[0] != '\0';
                for (size_t i = 0; i < o.n; i++) clean &= o.t[i] == NULL;
                if (!clean) mismatch(c, "resource_exhausted without a message or with an output set", inject);
            } else {
                if (injected_here) atomic_fetch_add(&absorbed, 1);
                if (!fz_op_same(c->st, c->msg, &c->out, st, msg, &o, why, sizeof why)) mismatch(c, why, inject);
            }
            op_outputs_clear(&o);
        }
    }
    atomic_fetch_add(&total_calls, n);
    return NULL;
}

static long arg_long(const char *s, const char *what) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0) {
        fprintf(stderr, "stress: %s: '%s' is not a number\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    long seconds = 10, threads = 0, pool = 4, seed = 1, max_bytes = 4l << 20;
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pool") && i + 1 < argc) pool = arg_long(argv[++i], "--pool");
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = arg_long(argv[++i], "--seed");
        else if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc) max_bytes = arg_long(argv[++i], "--max-bytes");
        else if (argv[i][0] != '-' && pos == 0 && ++pos) seconds = arg_long(argv[i], "SECONDS");
        else if (argv[i][0] != '-' && pos == 1 && ++pos) threads = arg_long(argv[i], "THREADS");
        else {
            fprintf(stderr, "usage: %s [SECONDS] [THREADS] [--pool N] [--seed N] [--max-bytes N]\n", argv[0]);
            return 2;
        }
    }
    if (threads <= 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        threads = 2 * (cpus > 0 ? cpus : 1);
    }
    static const tx_allocator counting = {st_alloc, counted_free, NULL};
    tx_set_allocator(&counting);
    tx_set_max_tensor_bytes((size_t)max_bytes);
    tx_set_num_threads(1);
    rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 7;

    make_calls();
    size_t failing = 0;
    for (size_t i = 0; i < ncalls; i++) {
        calls[i].st = run_call(&calls[i], &calls[i].out, calls[i].msg, sizeof calls[i].msg);
        failing += calls[i].st != TX_OK;
        prepare_call(&calls[i]);
    }
    size_t ops = 0;
    for (size_t k = 0; op_at(k); k++) {
        bool seen = false;
        for (size_t i = 0; i < ncalls && !seen; i++) seen = calls[i].args.def == op_at(k);
        ops += seen;
    }
    printf("stress: %zu calls of %zu ops (%zu succeed, %zu fail), %ld threads, library pool %ld, limit %ld bytes, %ld s\n",
           ncalls, ops, ncalls - failing, failing, threads, pool, max_bytes, seconds);
    fflush(stdout);

    tx_set_num_threads((int)pool);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!tid) die("out of memory");
    double start = now();
    deadline = start + (double)seconds;
    for (long t = 0; t < threads; t++)
        if (pthread_create(&tid[t], NULL, worker, (void *)(uintptr_t)(seed * 1000 + t + 1))) die("cannot create a thread");
    for (long t = 0; t < threads; t++) pthread_join(tid[t], NULL);
    double took = now() - start;
    free(tid);

    for (size_t i = 0; i < ncalls; i++) {
        op_args_clear(&calls[i].args);
        op_outputs_clear(&calls[i].out);
        tx_op_free(calls[i].prepared);
    }
    free(calls);
    tx_shutdown();
    long blocks = atomic_load(&live_blocks), bytes = atomic_load(&live_bytes);
    long n = atomic_load(&total_calls), bad = atomic_load(&mismatches);
    printf("stress: %ld calls in %.1f s (%.0f calls/s), %ld allocation failures injected "
           "(%ld calls resource_exhausted by them, %ld calls succeeded or failed as the reference despite them), "
           "%ld mismatches, %ld blocks (%ld bytes) alive at the end\n",
           n, took, (double)n / took, atomic_load(&injected), atomic_load(&exhausted_by_injection), atomic_load(&absorbed),
           bad, blocks, bytes);
    if (bad || blocks || bytes) {
        printf("stress: FAILED (%s)\n", bad ? "mismatches" : "memory not returned");
        return 1;
    }
    printf("stress: passed\n");
    return 0;
}
