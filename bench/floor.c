/* SPDX-License-Identifier: Apache-2.0 */
/* floor.c -- tensorx_bench --floor: each workload's time next to memcpy of its bytes. */
#define _DEFAULT_SOURCE 1
#define TX_EXPERIMENTAL_API /* CPU levels and the allocation cache (tensorx.h) */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

/* ---- the copy floor (--floor) ------------------------------------------------------------------ *
 * What the hardware allows a workload: memcpy of half its bytes (its bytes count what it reads and
 * writes) from one buffer into another of that size, called over and over as the op is, on one
 * thread and split over two -- the same cache level as the op's own working set.  The second
 * thread spins between calls (as the pool's workers do), so that a call of microseconds is not a
 * thread start.  An op that reads and writes its bytes once cannot beat the better of the two by
 * much; a peer's time below 1/0.7 of it leaves no room for tensorx to be 0.7x that peer. */

typedef void (*copy_fn)(char *d, const char *s, size_t n);

static void copy_memcpy(char *d, const char *s, size_t n) { memcpy(d, s, n); }

#if defined(__x86_64__)
/* x86's string move: the microcode picks its own stores (no read of the lines it writes) */
static void copy_rep_movsb(char *d, const char *s, size_t n) {
    __asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

/* Non-temporal stores, 64 bytes a step: the lines go to memory without being read first. */
static void copy_streaming(char *d, const char *s, size_t n) {
    size_t head = (size_t)(-(uintptr_t)d & 15);
    if (head > n) head = n;
    memcpy(d, s, head);
    size_t i = head;
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i)),
                b = _mm_loadu_si128((const __m128i *)(s + i + 16)),
                c = _mm_loadu_si128((const __m128i *)(s + i + 32)),
                e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a);
        _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c);
        _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    _mm_sfence();
    memcpy(d + i, s + i, n - i);
}
#endif

typedef struct floor_helper {
    _Atomic long go, done;
    _Atomic bool stop;
    char *d;
    const char *s;
    size_t n;
    copy_fn copy;
} floor_helper;

static void *floor_thread(void *arg) {
    floor_helper *h = arg;
    long seen = 0;
    for (;;) {
        long g;
        while ((g = atomic_load_explicit(&h->go, memory_order_acquire)) == seen)
            if (atomic_load_explicit(&h->stop, memory_order_relaxed)) return NULL;
        seen = g;
        h->copy(h->d, h->s, h->n);
        atomic_store_explicit(&h->done, g, memory_order_release);
    }
}

/* Median seconds per copy of n bytes (two threads: halves), after a warm-up as time_op's. */
static double floor_copy(char *dst, const char *src, size_t n, floor_helper *h, int reps,
                         copy_fn copy) {
    double t[64];
    if (reps > 64) reps = 64;
    size_t half = h ? n / 2 : n;
    if (h) {
        h->d = dst + half;
        h->s = src + half;
        h->n = n - half;
        h->copy = copy;
    }
    long calls = 1;
    for (int r = -WARMUP_CALLS; r < reps; r++) {
        double t0 = now_s();
        for (long c = 0; c < calls; c++) {
            long g = 0;
            if (h) g = atomic_fetch_add_explicit(&h->go, 1, memory_order_acq_rel) + 1;
            copy(dst, src, half);
            __asm__ volatile("" ::"r"(dst) : "memory");
            if (h)
                while (atomic_load_explicit(&h->done, memory_order_acquire) != g) {
                }
        }
        double dt = (now_s() - t0) / (double)calls;
        if (r < 0) calls = calls_per_sample(dt);
        else t[r] = dt;
    }
    return median(t, reps);
}

/* Two threads' floor: a helper started for it alone (not spinning while tensorx is timed). */
static double floor_copy2(char *dst, const char *src, size_t n, int reps, copy_fn copy) {
    floor_helper h;
    atomic_init(&h.go, 0);
    atomic_init(&h.done, 0);
    atomic_init(&h.stop, false);
    pthread_t th;
    if (pthread_create(&th, NULL, floor_thread, &h) != 0) return NAN;
    double t = floor_copy(dst, src, n, &h, reps, copy);
    atomic_store(&h.stop, true);
    pthread_join(th, NULL);
    return t;
}

/* The copy ceiling: the fastest copy of n bytes this machine makes in any way a program can
 * (memcpy, and on x86 the string move and non-temporal stores), on one thread or two -- what
 * bounds from below the time of any op that reads and writes that many bytes of memory, by
 * tensorx or a peer.  Only for a working set past the caches (below that the bound is the
 * cache's, which this does not measure): NaN. */
#define CEILING_MIN_BYTES ((size_t)128 << 20)
static double copy_ceiling(char *dst, const char *src, size_t n, int reps) {
    if (2 * n < CEILING_MIN_BYTES) return NAN;
    copy_fn fns[] = {
        copy_memcpy,
#if defined(__x86_64__)
        copy_rep_movsb, copy_streaming,
#endif
    };
    double best = INFINITY;
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        double t1 = floor_copy(dst, src, n, NULL, reps, fns[k]);
        double t2 = floor_copy2(dst, src, n, reps, fns[k]);
        if (t1 < best) best = t1;
        if (t2 < best) best = t2; /* NaN compares false */
    }
    return best;
}

void run_floor(const options *o, int64_t div, int reps) {
    if (!o->json) {
        printf("copy floor: memcpy of half a workload's bytes (what it reads and writes), repeated "
               "as the op is; tensorx at its default threads; ceiling: the fastest copy of them "
               "(memcpy, string move, streaming stores; 1 or 2 threads), past the caches only\n");
        printf("%-38s %10s %12s %12s %12s %9s %12s\n", "workload", "MB moved", "tensorx ms",
               "copy 1t ms", "copy 2t ms", "tx/floor", "ceiling ms");
    }
    for (size_t i = 0; i < NUM_WORKLOADS; i++) {
        const workload *w = &WORKLOADS[i];
        if (o->filter && !strstr(w->name, o->filter)) continue;
        if (o->exact && strcmp(w->name, o->exact) != 0) continue;
        wl_state s;
        memset(&s, 0, sizeof s);
        w->setup(&s, div, w);
        if (s.bytes >= 2 && s.bytes / 2 <= ((uint64_t)1 << 30)) {
            /* the JSON line is the floor alone: bench/peers.py has tensorx's time from its own run */
            double ta = o->json ? NAN : time_op(w, &s, reps, NULL);
            size_t n = (size_t)(s.bytes / 2);
            char *src = big_buffer(n), *dst = big_buffer(n);
            double c1 = floor_copy(dst, src, n, NULL, reps, copy_memcpy);
            double c2 = floor_copy2(dst, src, n, reps, copy_memcpy);
            double best = c2 < c1 ? c2 : c1; /* NaN (no second thread) compares false */
            double ceil = copy_ceiling(dst, src, n, reps);
            if (o->json) { /* bench/peers.py's floor column: the better of the two copies */
                printf("{\"workload\": \"%s\", \"floor_s\": %.9g, \"floor_1t_s\": %.9g, "
                       "\"floor_2t_s\": %.9g, \"ceiling_s\": ", w->name, best, c1,
                       isnan(c2) ? -1.0 : c2);
                if (isnan(ceil)) printf("null}\n");
                else printf("%.9g}\n", ceil);
            } else {
                printf("%-38s %10.1f %12.4f %12.4f %12.4f %9.2f", w->name, (double)s.bytes / 1e6,
                       ta * 1e3, c1 * 1e3, c2 * 1e3, ta / best);
                if (isnan(ceil)) printf(" %12s\n", "-");
                else printf(" %12.4f\n", ceil * 1e3);
            }
            fflush(stdout);
            free(src);
            free(dst);
        }
        for (int k = 0; k < 4; k++) tx_tensor_free(s.in[k]);
    }
}
