/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm_copy.c -- checkasm's checks and benchmarks of the copy family (kernels/copy.h):
 * large blocks, strided runs and reversed runs against naive loops. */
#include "checkasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void check_bulk_copy(const kernel *k) {
    tx__bulk_copy_fn fn = (tx__bulk_copy_fn)k->fn;
    /* every length to 3 lines and 3 vectors, then each side of the page thresholds with every
     * tail length past them, then large blocks */
    size_t sizes[600], ns = 0;
    for (size_t n = 0; n <= 200; n++) sizes[ns++] = n;
    const size_t bases[] = {4096, 8192, 16384, 3 * 4096};
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++)
        for (size_t t = 0; t < 130; t += b == 1 ? 1 : 9) sizes[ns++] = bases[b] - 2 + t;
    /* (511-513 and 1 MiB - 1 .. 1 MiB: the ends of the AVX-512 kernel's vector loop) */
    const size_t big[] = {511, 512, 513, 65536 + 31, 100003, ((size_t)1 << 20) - 1,
                          (size_t)1 << 20, ((size_t)3 << 20) + 17};
    for (size_t b = 0; b < sizeof big / sizeof *big; b++) sizes[ns++] = big[b];
    for (size_t si = 0; si < ns; si++) {
        const size_t n = sizes[si];
        const size_t step = n <= 200 ? 1 : 13;
        for (size_t mis = 0; mis < 64; mis += step) {
            const size_t smis = (mis * 7 + 3) % 64;
            unsigned char *sblock, *src = source(n, smis, &sblock);
            dest d = dest_new(n, mis);
            for (size_t i = 0; i < n; i++) d.want[i] = src[i];
            fn(d.got, src, n);
            char what[96];
            snprintf(what, sizeof what, "n=%zu dst_mis=%zu src_mis=%zu", n, mis, smis);
            bool ok = dest_check(&d, what);
            free(sblock);
            if (!ok) return;
        }
    }
}

void check_bulk_copy_stream(const kernel *k) { check_bulk_copy(k); }

/* Runs: every width class (partial lines only, lines plus ends, two pages and more), run starts
 * at every alignment, gaps between runs left untouched; and whole lines into line-aligned runs
 * (depth_to_space's case) from sources at every alignment. */
static bool runs_case(tx__runs_copy_fn fn, int64_t nruns, size_t w, int64_t ds, int64_t ss,
                      size_t dmis, size_t smis) {
    const size_t dn = (size_t)((nruns - 1) * ds) + w, sn = (size_t)((nruns - 1) * ss) + w;
    unsigned char *sblock, *src = source(sn, smis, &sblock);
    dest d = dest_new(dn, dmis);
    for (int64_t r = 0; r < nruns; r++)
        for (size_t i = 0; i < w; i++) d.want[r * ds + (int64_t)i] = src[r * ss + (int64_t)i];
    fn((char *)d.got, (const char *)src, nruns, ds, ss, w);
    char what[128];
    snprintf(what, sizeof what, "runs=%lld width=%zu ds=%lld ss=%lld dst_mis=%zu src_mis=%zu",
             (long long)nruns, w, (long long)ds, (long long)ss, dmis, smis);
    bool ok = dest_check(&d, what);
    free(sblock);
    return ok;
}

/* Every width to past two vectors, then the ends of the vector path, at run starts of every
 * alignment; one run and none. */
void check_copy_runs(const kernel *k) {
    tx__runs_copy_fn fn = (tx__runs_copy_fn)k->fn;
    size_t widths[160], nw = 0;
    for (size_t w = 1; w <= 130; w++) widths[nw++] = w;
    const size_t more[] = {255, 256, 257, 1000, 4095, 4096, 4097, 9000};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) widths[nw++] = more[i];
    for (size_t wi = 0; wi < nw; wi++) {
        const size_t w = widths[wi];
        for (size_t mis = 0; mis < 64; mis += w <= 130 ? 7 : 13) {
            const int64_t ds = (int64_t)w + (int64_t)(mis * 3 % 70), ss = (int64_t)w + 17;
            if (!runs_case(fn, 5, w, ds, ss, mis, (mis * 5 + 1) % 64)) return;
        }
    }
    if (!runs_case(fn, 1, 128, 128, 128, 0, 0)) return;
    runs_case(fn, 0, 128, 128, 128, 0, 0);
}

void check_copy_runs_stream(const kernel *k) {
    tx__runs_copy_fn fn = (tx__runs_copy_fn)k->fn;
    size_t widths[200], nw = 0;
    for (size_t w = 64; w <= 200; w++) widths[nw++] = w;
    const size_t more[] = {255, 256, 257, 512, 1000, 8191, 8192, 9000};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) widths[nw++] = more[i];
    for (size_t wi = 0; wi < nw; wi++) {
        const size_t w = widths[wi];
        for (size_t mis = 0; mis < 64; mis += w <= 200 ? 9 : 5) {
            const int64_t ds = (int64_t)w + (int64_t)(mis * 3 % 70), ss = (int64_t)w + 17;
            if (!runs_case(fn, 5, w, ds, ss, mis, mis / 2)) return;
            /* whole lines into line-aligned runs: the destination block is 64-aligned + GUARD */
            const size_t wl = (w + 63) / 64 * 64;
            const int64_t dsl = (int64_t)wl + 64 * (int64_t)(mis % 3);
            const int64_t ssl = (int64_t)wl + (int64_t)(mis % 5);
            if (!runs_case(fn, 5, wl, dsl, ssl, 0, mis)) return;
        }
    }
    if (!runs_case(fn, 1, 64, 64, 64, 0, 0)) return;
    runs_case(fn, 0, 64, 64, 64, 0, 0);
}

static void check_reversed(const kernel *k, tx__reverse_fn fn) {
    const size_t w = k->key;
    int64_t counts[160];
    size_t nc = 0;
    for (int64_t n = 0; n <= 140; n++) counts[nc++] = n;
    const int64_t more[] = {255, 256, 257, 1000, 4097};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) counts[nc++] = more[i];
    /* 0, odd (elements off their alignment: no streaming), multiples of the width that leave
     * dst off the vector boundary */
    const size_t miss[] = {0, 1, w, 2 * w, 3 * w, 64 - w, 33};
    for (size_t ci = 0; ci < nc; ci++) {
        const int64_t n = counts[ci];
        for (size_t mi = 0; mi < sizeof miss / sizeof *miss; mi++) {
            const size_t mis = miss[mi], bytes = (size_t)n * w, smis = (mis * 5 + 3) % 64;
            unsigned char *sblock, *lo = source(bytes, smis, &sblock);
            /* the run's first output element is its highest address */
            const unsigned char *s = lo + (n > 0 ? (size_t)(n - 1) * w : 0);
            dest d = dest_new(bytes, mis);
            for (int64_t e = 0; e < n; e++)
                for (size_t b = 0; b < w; b++) d.want[e * (int64_t)w + (int64_t)b] = s[-e * (int64_t)w + (int64_t)b];
            fn((char *)d.got, (const char *)s, n);
            char what[96];
            snprintf(what, sizeof what, "n=%lld dst_mis=%zu src_mis=%zu", (long long)n, mis, smis);
            bool ok = dest_check(&d, what);
            free(sblock);
            if (!ok) return;
        }
    }
}

void check_copy_reversed(const kernel *k) { check_reversed(k, (tx__reverse_fn)k->fn); }
void check_copy_reversed_stream(const kernel *k) { check_reversed(k, (tx__reverse_fn)k->fn); }

typedef struct copy_args {
    const kernel *k;
    unsigned char *dst, *src;
    size_t n, w;
    int64_t runs;
} copy_args;

static void run_bulk(void *p) {
    copy_args *a = p;
    ((tx__bulk_copy_fn)a->k->fn)(a->dst, a->src, a->n);
}
static void run_runs(void *p) {
    copy_args *a = p;
    ((tx__runs_copy_fn)a->k->fn)((char *)a->dst, (const char *)a->src, a->runs,
                                 (int64_t)a->w + 64, (int64_t)a->w + 64, a->w);
}
static void run_reversed(void *p) {
    copy_args *a = p;
    int64_t n = (int64_t)(a->n / a->w);
    ((tx__reverse_fn)a->k->fn)((char *)a->dst, (const char *)a->src + (n - 1) * (int64_t)a->w, n);
}
static void bench_copy(const kernel *k, void (*run)(void *), size_t run_width) {
    for (size_t b = 0; b < NBENCH; b++) {
        const size_t n = BENCH_BYTES[b];
        /* runs are run_width + 64 bytes apart (run_runs) */
        const size_t span = run_width ? n / run_width * (run_width + 64) + 64 : n + n / 2 + 64;
        copy_args a = {k, xmalloc(span), xmalloc(span), n, k->key ? k->key : 1, 0};
        fill_random(a.src, span);
        memset(a.dst, 0, span);
        char size[48];
        size_name(size, sizeof size, n);
        if (run_width) {
            a.w = run_width;
            a.runs = (int64_t)(n / run_width);
            snprintf(size + strlen(size), sizeof size - strlen(size), " (%zu B runs)", run_width);
        }
        bench_row(k, size, (double)n, run, &a);
        free(a.dst);
        free(a.src);
    }
}

void bench_bulk_copy(const kernel *k) { bench_copy(k, run_bulk, 0); }
void bench_bulk_copy_stream(const kernel *k) { bench_copy(k, run_bulk, 0); }
void bench_copy_runs(const kernel *k) {
    bench_copy(k, run_runs, 128);
    bench_copy(k, run_runs, 40);
}
void bench_copy_runs_stream(const kernel *k) {
    bench_copy(k, run_runs, 128);
    bench_copy(k, run_runs, 1000);
}
void bench_copy_reversed(const kernel *k) { bench_copy(k, run_reversed, 0); }
void bench_copy_reversed_stream(const kernel *k) { bench_copy(k, run_reversed, 0); }
