/* SPDX-License-Identifier: Apache-2.0 */
/* bench.c -- the tensorx benchmark: times each workload of its table (workloads.c) through the public
 * API only, next to this machine's memcpy bandwidth measured in the same run, and prints a table or
 * one JSON object per workload (--json) for bench/peers.py to merge with NumPy, PyTorch, ONNX
 * Runtime and XNNPACK.  Each workload is timed twice: the ordinary allocating call (default
 * allocator, steady state) and the call writing into memory the caller already owns and has
 * touched (a caller-planned arena installed with tx_set_allocator, the way a runtime that plans
 * its buffers would use the library).  Medians of several runs; no assertion on time anywhere.
 *
 *   tensorx_bench [--quick] [--filter SUBSTR] [--exact NAME] [--json] [--threads N] [--reps N]
 *                 [--list] [--no-into] [--no-alloc-probe] [--probes-only] [--memcpy GBPS1,GBPS2]
 *   tensorx_bench --sweep FAMILY --dims "D0,D1,..[;D0,D1,..]" [--reps N]
 *   tensorx_bench --floor [--filter SUBSTR] [--exact NAME] [--quick]
 *
 * --floor prints, per workload, tensorx's time next to memcpy of the same bytes at the same cache
 * level on one and two threads (see run_floor).
 *
 * --sweep (bench/sweep.py's size sweep) times one op family at each shape it is given, at the
 * default thread count and at one thread, and prints JSON lines.  A workload whose call takes
 * under 2 ms (the inference shapes, the sweep's small sizes) is timed over many calls per sample.
 *
 * bench/peers.py drives it one workload at a time (--exact, with the memcpy figures of the run's
 * --probes-only call passed back through --memcpy), so that tensorx and the peers run each
 * workload back to back under the same machine load.
 *
 * The workloads are in workloads.c, the size sweep in sweep.c, the copy floor in floor.c; this file
 * holds the timing, the memcpy and allocation probes and main. */
#define _DEFAULT_SOURCE 1
#define TX_EXPERIMENTAL_API /* CPU levels and the allocation cache (tensorx.h) */
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench.h"

/* ---- small helpers ---------------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of the samples; their minimum with TX_BENCH_STAT=min, a development aid on a busy
 * machine, where the median moves with the load (docs/performance.md). */
double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    const char *stat = getenv("TX_BENCH_STAT");
    if (stat && !strcmp(stat, "min")) return v[0];
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void die(const char *what, tx_status st) {
    fprintf(stderr, "bench: %s failed: %s: %s\n", what, tx_status_name(st), tx_last_error());
    exit(1);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Big aligned caller memory, on huge pages where allowed, touched. */
void *big_buffer(size_t n) {
    void *p = NULL;
    if (posix_memalign(&p, (size_t)2 << 20, n ? n : 1) != 0) {
        fprintf(stderr, "bench: out of memory (%zu bytes)\n", n);
        exit(1);
    }
#ifdef MADV_HUGEPAGE
    madvise(p, n, MADV_HUGEPAGE);
#endif
    memset(p, 0x5A, n);
    return p;
}

/* ---- the caller-owned arena (the into-existing-memory call) ------------------------------------ */

typedef struct arena {
    char *base;
    size_t cap, used;
    long live;
} arena;

static void *arena_alloc(size_t size, size_t align, void *ctx) {
    arena *a = ctx;
    size_t off = (a->used + align - 1) & ~(align - 1);
    if (off <= a->cap && size <= a->cap - off) {
        a->used = off + size;
        a->live++;
        return a->base + off;
    }
    const tx_allocator *d = tx_default_allocator();
    return d->alloc(size, align, d->ctx);
}

static void arena_free(void *p, size_t size, void *ctx) {
    arena *a = ctx;
    if ((char *)p >= a->base && (char *)p < a->base + a->cap) {
        if (--a->live == 0) a->used = 0;
        return;
    }
    const tx_allocator *d = tx_default_allocator();
    d->free(p, size, d->ctx);
}

/* ---- timing ------------------------------------------------------------------------------------ */


/* Calls per timed sample: one when a call takes 2 ms or more, else enough to last about 2 ms (a
 * single call that short is too close to the clock's resolution and jitter). */
long calls_per_sample(double first_call_s) {
    if (first_call_s >= 2e-3) return 1;
    double c = 2e-3 / (first_call_s > 1e-8 ? first_call_s : 1e-8) + 1;
    return c > 100000 ? 100000 : (long)c;
}

/* Runs the op once and frees its outputs; returns their total size. */
static uint64_t run_and_free(const workload *w, const wl_state *s) {
    tx_tensor *o[BENCH_MAX_OUTPUTS] = {NULL};
    int n = w->run(s, o);
    uint64_t bytes = 0;
    for (int i = 0; i < n; i++) {
        bytes += nb(o[i]);
        tx_tensor_free(o[i]);
    }
    return bytes;
}

/* Median seconds per call of the op over reps samples after the warm-up (WARMUP_CALLS calls, or
 * fewer when they pass WARMUP_MAX_S): a process's first calls pay for page faults, the thread
 * pool's start and its first measurements, and on this VM for the host's first touches of the
 * memory -- a 2048x2048 transpose took 58, 4.3, 4.2, 3.0, 1.6 ms on its first five calls, then 1.0
 * ms, so one warm-up call left a median of 5 samples anywhere in 1.0-3.0 ms.  Every harness of
 * the benchmark warms up the same way (xnn_peer.c, peers.py, ort_peer.js).  A sample of one call
 * frees the outputs outside the timed region; a sample of many calls (short calls) frees each
 * call's outputs inside it, as a caller calling it in a loop would.  *out_bytes receives the
 * outputs' total size. */
#define WARMUP_MAX_S 1.0
double time_op(const workload *w, const wl_state *s, int reps, uint64_t *out_bytes) {
    double t[64];
    if (reps > 64) reps = 64;
    double start = now_s(), t0 = start;
    tx_tensor *o[BENCH_MAX_OUTPUTS] = {NULL};
    int n = w->run(s, o);
    double last = now_s() - t0;
    uint64_t bytes = 0;
    for (int i = 0; i < n; i++) {
        bytes += nb(o[i]);
        tx_tensor_free(o[i]);
    }
    if (out_bytes) *out_bytes = bytes;
    for (int k = 1; k < WARMUP_CALLS && now_s() - start < WARMUP_MAX_S; k++) {
        t0 = now_s();
        run_and_free(w, s);
        last = now_s() - t0;
    }
    if (last > 1.0 && reps > 3) reps = 3; /* long workloads: fewer runs */
    long calls = calls_per_sample(last);
    for (int r = 0; r < reps; r++) {
        if (calls == 1) {
            t0 = now_s();
            n = w->run(s, o);
            t[r] = now_s() - t0;
            for (int i = 0; i < n; i++) tx_tensor_free(o[i]);
        } else {
            t0 = now_s();
            for (long c = 0; c < calls; c++) run_and_free(w, s);
            t[r] = (now_s() - t0) / (double)calls;
        }
    }
    return median(t, reps);
}

double time_prepared(const workload *w, const wl_state *s, int reps, const tx_runner *runner) {
    if (w->call == NULL) return NAN;
    tx_op *op = NULL;
    tx_tensor *o[BENCH_MAX_OUTPUTS] = {NULL};
    if (TX_PREPARE(&op, NULL, w->call(s, o)) != TX_OK) return NAN;
    size_t n_in = tx_op_input_count(op), n_out = tx_op_output_count(op);
    const void *in[4] = {NULL};
    void *out[3] = {NULL};
    tx_output_info info[3];
    if (n_in > 4 || n_out > 3) die("time_prepared: more inputs or outputs than a workload has", TX_INTERNAL);
    for (size_t i = 0; i < n_in; i++) in[i] = tx_tensor_data_const(s->in[i]);
    for (size_t i = 0; i < n_out; i++) {
        info[i] = (tx_output_info){sizeof info[i]};
        if (tx_op_output(op, i, &info[i]) != TX_OK) die("tx_op_output", TX_INTERNAL);
        out[i] = big_buffer(info[i].nbytes); /* touched: no page faults in the timed runs */
    }
    /* A prepared run must give the call's bytes: a time of anything else measures nothing. */
    tx_status st = tx_op_run(op, in, out, runner);
    if (st != TX_OK) die("tx_op_run", st);
    int n = w->run(s, o);
    for (int i = 0; i < n; i++) {
        if ((size_t)i >= n_out || tx_tensor_nbytes(o[i]) != info[i].nbytes ||
            memcmp(tx_tensor_data_const(o[i]), out[i], info[i].nbytes) != 0)
            die("time_prepared: the prepared run differs from the call", TX_INTERNAL);
        tx_tensor_free(o[i]);
    }
    double t[64], start = now_s(), t0 = start, last = 0;
    if (reps > 64) reps = 64;
    for (int k = 0; k < WARMUP_CALLS && now_s() - start < WARMUP_MAX_S; k++) {
        t0 = now_s();
        (void)tx_op_run(op, in, out, runner);
        last = now_s() - t0;
    }
    if (last > 1.0 && reps > 3) reps = 3;
    long calls = calls_per_sample(last);
    for (int r = 0; r < reps; r++) {
        t0 = now_s();
        for (long c = 0; c < calls; c++) (void)tx_op_run(op, in, out, runner);
        t[r] = (now_s() - t0) / (double)calls;
    }
    for (size_t i = 0; i < n_out; i++) free(out[i]);
    tx_op_free(op);
    return median(t, reps);
}

typedef struct copy_job {
    char *d;
    const char *s;
    size_t n;
} copy_job;
static void *copy_thread(void *arg) {
    copy_job *j = arg;
    memcpy(j->d, j->s, j->n);
    return NULL;
}

/* memcpy bandwidth (read + write counted) with 1 or 2 threads, median of reps. */
static double memcpy_gbps(char *dst, const char *src, size_t n, int threads, int reps) {
    double t[32];
    if (reps > 32) reps = 32;
    for (int r = -1; r < reps; r++) {
        double t0 = now_s();
        if (threads == 1) {
            memcpy(dst, src, n);
        } else {
            copy_job j = {dst + n / 2, src + n / 2, n - n / 2};
            pthread_t th;
            if (pthread_create(&th, NULL, copy_thread, &j) != 0) {
                memcpy(dst + n / 2, src + n / 2, n - n / 2);
                memcpy(dst, src, n / 2);
            } else {
                memcpy(dst, src, n / 2);
                pthread_join(th, NULL);
            }
        }
        double dt = now_s() - t0;
        if (r >= 0) t[r] = dt;
    }
    return 2.0 * (double)n / median(t, reps) / 1e9;
}

/* Write bandwidth into memory from a fresh allocation against a reused one: tx_tensor_new of
 * `n` bytes zero-fills its buffer, so its time is allocation + one full write. */
static void alloc_probe(size_t n, int reps, const options *o) {
    int64_t dims[1] = {(int64_t)n};
    double t[32], fresh_libc, fresh_tx, reused;
    if (reps > 32) reps = 32;
    /* libc malloc + memset (glibc maps blocks this large afresh each time: 4 KiB faults) */
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        char *volatile p = malloc(n); /* volatile: malloc+memset(0) must not become calloc */
        if (!p) exit(1);
        memset(p, 1, n);
        t[r] = now_s() - t0;
        __asm__ volatile("" ::"r"(p) : "memory");
        free(p);
    }
    fresh_libc = (double)n / median(t, reps) / 1e9;
    size_t saved = tx_alloc_cache_bytes();
    for (int pass = 0; pass < 2; pass++) {
        tx_set_alloc_cache_bytes(pass == 0 ? 0 : saved);
        for (int r = -1; r < reps; r++) {
            tx_tensor *x = NULL;
            double t0 = now_s();
            tx_status st = tx_tensor_new(TX_UINT8, 1, dims, &x);
            double dt = now_s() - t0;
            if (st != TX_OK) die("tensor_new", st);
            tx_tensor_free(x);
            if (r >= 0) t[r] = dt;
        }
        if (pass == 0) fresh_tx = (double)n / median(t, reps) / 1e9;
        else reused = (double)n / median(t, reps) / 1e9;
    }
    if (o->json)
        printf("{\"probe\": \"alloc_write\", \"bytes\": %zu, \"fresh_libc_gbps\": %.2f, "
               "\"fresh_tensorx_gbps\": %.2f, \"reused_tensorx_gbps\": %.2f}\n",
               n, fresh_libc, fresh_tx, reused);
    else
        printf("write into new memory (%zu MiB, GB/s written): malloc+memset %.1f | tensorx fresh "
               "(huge pages, cache off) %.1f | tensorx reused (cache) %.1f\n",
               n >> 20, fresh_libc, fresh_tx, reused);
}

/* ---- main -------------------------------------------------------------------------------------- */

static void usage(void) {
    fprintf(stderr,
            "usage: tensorx_bench [--quick] [--filter SUBSTR] [--exact NAME] [--json] [--threads N]\n"
            "                     [--reps N] [--list] [--no-into] [--no-alloc-probe] [--probes-only]\n"
            "                     [--memcpy GBPS1,GBPS2]\n"
            "       tensorx_bench --floor [--filter SUBSTR] [--quick]\n"
            "       tensorx_bench --sweep FAMILY --dims \"D0,D1,..[;D0,D1,..]\" [--reps N]\n");
    exit(2);
}

int main(int argc, char **argv) {
    options o = {false, false, false, true, true, false, false, NULL, NULL, NULL, NULL, NULL, 0, 0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) o.quick = true;
        else if (!strcmp(argv[i], "--json")) o.json = true;
        else if (!strcmp(argv[i], "--list")) o.list = true;
        else if (!strcmp(argv[i], "--no-into")) o.into = false;
        else if (!strcmp(argv[i], "--no-alloc-probe")) o.alloc_probe = false;
        else if (!strcmp(argv[i], "--probes-only")) o.probes_only = true;
        else if (!strcmp(argv[i], "--floor")) o.floor = true;
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) o.filter = argv[++i];
        else if (!strcmp(argv[i], "--exact") && i + 1 < argc) o.exact = argv[++i];
        else if (!strcmp(argv[i], "--memcpy") && i + 1 < argc) o.memcpy_given = argv[++i];
        else if (!strcmp(argv[i], "--sweep") && i + 1 < argc) o.sweep = argv[++i];
        else if (!strcmp(argv[i], "--dims") && i + 1 < argc) o.dims = argv[++i];
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) o.threads = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) o.reps = atoi(argv[++i]);
        else usage();
    }
    int64_t div = o.quick ? 8 : 1;
    int reps = o.reps > 0 ? o.reps : o.quick ? 3 : 5;
    if (o.list) {
        for (size_t i = 0; i < NUM_WORKLOADS; i++)
            if (!o.filter || strstr(WORKLOADS[i].name, o.filter))
                printf("%s %s\n", WORKLOADS[i].family, WORKLOADS[i].name);
        return 0;
    }
    if (o.sweep) {
        if (!o.dims) usage();
        int rc = run_sweep(o.sweep, o.dims, reps);
        tx_shutdown();
        return rc;
    }
    if (o.threads > 0) tx_set_num_threads(o.threads);
    if (o.floor) {
        run_floor(&o, div, reps);
        tx_shutdown();
        return 0;
    }

    size_t mn = (size_t)(o.quick ? 64 : 256) << 20;
    double m1, m2;
    if (o.memcpy_given == NULL || sscanf(o.memcpy_given, "%lf,%lf", &m1, &m2) != 2) {
        char *msrc = big_buffer(mn), *mdst = big_buffer(mn);
        m1 = memcpy_gbps(mdst, msrc, mn, 1, o.quick ? 5 : 9);
        m2 = memcpy_gbps(mdst, msrc, mn, 2, o.quick ? 5 : 9);
        free(msrc);
        free(mdst);
    }
    if (o.probes_only && o.json)
        printf("{\"probe\": \"memcpy\", \"bytes\": %zu, \"memcpy_gbps\": %.2f, "
               "\"memcpy2_gbps\": %.2f}\n", mn, m1, m2);
    if (!o.json) {
        printf("tensorx %s, %d threads, CPU level %s (detected %s); memcpy %zu MiB: %.1f GB/s on 1 "
               "thread, %.1f GB/s on 2 (read + write counted)\n",
               tx_version_string(), tx_num_threads(), tx_isa_level_name(tx_cpu_level()),
               tx_isa_level_name(tx_cpu_detected_level()), mn >> 20, m1, m2);
    }
    if (o.alloc_probe && !o.exact && (!o.filter || strstr("alloc_write", o.filter)))
        alloc_probe((size_t)(o.quick ? 64 : 256) << 20, o.quick ? 5 : 7, &o);
    if (o.probes_only) {
        tx_shutdown();
        return 0;
    }
    if (!o.json)
        printf("%-34s %10s %10s %10s %10s %8s %8s\n", "workload", "alloc ms", "into ms", "prep ms",
               "MB moved", "GB/s", "x memcpy");

    for (size_t i = 0; i < NUM_WORKLOADS; i++) {
        const workload *w = &WORKLOADS[i];
        if (o.filter && !strstr(w->name, o.filter)) continue;
        if (o.exact && strcmp(w->name, o.exact) != 0) continue;
        wl_state s;
        memset(&s, 0, sizeof s);
        w->setup(&s, div, w);
        uint64_t out_bytes = 0;
        double ta = time_op(w, &s, reps, &out_bytes);
        double ti = NAN;
        if (o.into && s.bytes > 0) {
            arena a = {NULL, out_bytes + ((size_t)4 << 20), 0, 0};
            a.base = big_buffer(a.cap);
            const tx_allocator al = {arena_alloc, arena_free, &a};
            tx_set_allocator(&al);
            ti = time_op(w, &s, reps, NULL);
            tx_set_allocator(NULL);
            free(a.base);
        }
        double tp = time_prepared(w, &s, reps, NULL);
        for (int k = 0; k < 4; k++) tx_tensor_free(s.in[k]);
        double gbps = s.bytes ? (double)s.bytes / ta / 1e9 : NAN;
        double rm = s.bytes ? ta / ((double)s.bytes / (m1 * 1e9)) : NAN;
        if (o.json) {
            printf("{\"workload\": \"%s\", \"bytes\": %llu, \"tensorx_s\": %.6g, \"peers\": {}, "
                   "\"memcpy_gbps\": %.2f, \"ratio_best_peer\": null, \"ratio_memcpy\": ",
                   w->name, (unsigned long long)s.bytes, ta, m1);
            if (s.bytes) printf("%.3f", rm);
            else printf("null");
            printf(", \"tensorx_into_s\": ");
            if (isnan(ti)) printf("null");
            else printf("%.6g", ti);
            printf(", \"tensorx_prepared_s\": ");
            if (isnan(tp)) printf("null");
            else printf("%.6g", tp);
            printf(", \"memcpy2_gbps\": %.2f, \"threads\": %d, \"family\": \"%s\"}\n", m2,
                   tx_num_threads(), w->family);
        } else {
            char into[32] = "-", prep[32] = "-", g[32] = "-", r[32] = "-";
            if (!isnan(ti)) snprintf(into, sizeof into, "%.*f", ti < 1e-3 ? 4 : 2, ti * 1e3);
            if (!isnan(tp)) snprintf(prep, sizeof prep, "%.*f", tp < 1e-3 ? 4 : 2, tp * 1e3);
            if (s.bytes) {
                snprintf(g, sizeof g, "%.1f", gbps);
                snprintf(r, sizeof r, "%.2f", rm);
            }
            printf("%-34s %10.*f %10s %10s %10.1f %8s %8s\n", w->name, ta < 1e-3 ? 4 : 2, ta * 1e3,
                   into, prep, (double)s.bytes / 1e6, g, r);
        }
        fflush(stdout);
    }
    tx_shutdown();
    return 0;
}
