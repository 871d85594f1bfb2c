/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm_transpose.c -- checkasm's checks and benchmarks of the 2-D transposes
 * (kernels/transpose.h): every row and column count around the tiles, packed, padded and odd
 * strides, misaligned starts, streaming on and off, large and long thin planes, and the
 * width-generic kernel, against an element-by-element loop. */
#include "checkasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool transpose_case(tx__transpose2d_fn fn, size_t w, int64_t rows, int64_t cols, int64_t ss,
                           int64_t ds, size_t dmis, size_t smis, bool stream) {
    const bool empty = rows <= 0 || cols <= 0;
    const size_t sn = empty ? 0 : (size_t)((rows - 1) * ss + cols * (int64_t)w);
    const size_t dn = empty ? 0 : (size_t)((cols - 1) * ds + rows * (int64_t)w);
    unsigned char *sblock, *src = source(sn, smis, &sblock);
    dest d = dest_new(dn, dmis);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            for (size_t b = 0; b < w; b++)
                d.want[c * ds + r * (int64_t)w + (int64_t)b] = src[r * ss + c * (int64_t)w + (int64_t)b];
    fn((char *)d.got, (const char *)src, rows, cols, ss, ds, stream);
    char what[160];
    snprintf(what, sizeof what, "rows=%lld cols=%lld ss=%lld ds=%lld dst_mis=%zu src_mis=%zu stream=%d",
             (long long)rows, (long long)cols, (long long)ss, (long long)ds, dmis, smis, (int)stream);
    bool ok = dest_check(&d, what);
    free(sblock);
    return ok;
}

/* Sizes around the tiles of every width: up to three tiles plus tails. */
static const int64_t SIZES[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33,
                                47, 63, 64, 65, 96, 127, 128, 129, 193, 200};

/* Every pair of SIZES packed and padded by a few elements, at random misalignments and either
 * flag; then strides that are no multiple of the element (elements at odd addresses). */
static bool transpose_sizes(tx__transpose2d_fn fn, size_t w) {
    const int64_t W = (int64_t)w;
    for (size_t i = 0; i < COUNT_OF(SIZES); i++)
        for (size_t j = 0; j < COUNT_OF(SIZES); j++) {
            const int64_t rows = SIZES[i], cols = SIZES[j];
            if (!transpose_case(fn, w, rows, cols, cols * W, rows * W, rnd() % 64, rnd() % 64,
                                rnd() & 1))
                return false;
            const int64_t ss = (cols + 1 + (int64_t)(rnd() % 5)) * W;
            const int64_t ds = (rows + 1 + (int64_t)(rnd() % 5)) * W;
            if (!transpose_case(fn, w, rows, cols, ss, ds, rnd() % 64, rnd() % 64, rnd() & 1))
                return false;
        }
    for (int rep = 0; rep < 60; rep++) {
        const int64_t rows = 1 + (int64_t)(rnd() % 150), cols = 1 + (int64_t)(rnd() % 150);
        const int64_t ss = cols * W + 1 + (int64_t)(rnd() % 13);
        const int64_t ds = rows * W + 1 + (int64_t)(rnd() % 13);
        if (!transpose_case(fn, w, rows, cols, ss, ds, rnd() % 64, rnd() % 64, rnd() & 1))
            return false;
    }
    return true;
}

/* Streaming into rows a multiple of 64 bytes apart, the start on a line or whole elements off it
 * (the head rows peeled off); the narrow paths, 1 .. 17 columns (rows) against long rows
 * (columns), packed and padded. */
static bool transpose_streaming_and_narrow(tx__transpose2d_fn fn, size_t w) {
    static const int64_t rs[] = {64, 65, 100, 129, 256, 300}, cs[] = {16, 17, 40, 64, 100, 257};
    const int64_t W = (int64_t)w;
    for (size_t i = 0; i < COUNT_OF(rs); i++)
        for (size_t j = 0; j < COUNT_OF(cs); j++) {
            const int64_t ds = (rs[i] * W + 63) / 64 * 64 + 64 * (int64_t)(rnd() % 2);
            const size_t mis = (size_t)(rnd() % (64 / w)) * w;
            if (!transpose_case(fn, w, rs[i], cs[j], cs[j] * W, ds, rnd() % 2 ? 0 : mis,
                                rnd() % 64, true))
                return false;
        }
    static const int64_t longs[] = {1, 31, 32, 33, 64, 100, 1000, 4099};
    for (int64_t n = 1; n <= 17; n++)
        for (size_t i = 0; i < COUNT_OF(longs); i++) {
            const int64_t m = longs[i];
            const bool st = rnd() & 1;
            const int64_t shapes[][4] = {{m, n, n * W, m * W},     {m, n, n * W, m * W + W},
                                         {m, n, n * W + W, m * W}, {n, m, m * W, n * W},
                                         {n, m, m * W + 3, n * W}, {n, m, m * W, n * W + W}};
            for (size_t s = 0; s < COUNT_OF(shapes); s++)
                if (!transpose_case(fn, w, shapes[s][0], shapes[s][1], shapes[s][2], shapes[s][3],
                                    rnd() % 64, rnd() % 64, st))
                    return false;
        }
    /* large planes, streaming: aligned, odd, narrow (planes on lines and not), and into
     * unaligned destination rows from wide source rows (the band walk) and narrow ones (the
     * strip walk); {rows, cols, ss, ds, dst_mis, src_mis} */
    const int64_t large[][6] = {{512, 384, 384 * W, 512 * W, 0, 0},
                                {509, 383, 383 * W, 509 * W, 3, 1},
                                {1024, 3, 3 * W, 1024 * W, 0, 0},
                                {1021, 3, 3 * W, 1021 * W, 0, 0},
                                {300, 700, 700 * W + W, 300 * W + W, W, 5},
                                {333, 70, 70 * W, 333 * W, 2 * W, 0}};
    for (size_t i = 0; i < COUNT_OF(large); i++)
        if (!transpose_case(fn, w, large[i][0], large[i][1], large[i][2], large[i][3],
                            (size_t)large[i][4], (size_t)large[i][5], true))
            return false;
    return true;
}

void check_transpose2d(const kernel *k) {
    tx__transpose2d_fn fn = (tx__transpose2d_fn)k->fn;
    if (!transpose_sizes(fn, k->key) || !transpose_streaming_and_narrow(fn, k->key)) return;
    const int64_t W = (int64_t)k->key, lane = 64 / W; /* elements per cache line */
    /* every row and column count to two tiles and a tail (a tile is at most one line of
     * elements each way; the narrow paths take up to 15), packed and padded strides, the
     * destination on a line and off it, the element misaligned, streaming on and off */
    const int64_t maxr = 2 * lane + 3, maxc = 2 * lane + 3 < 35 ? 2 * lane + 3 : 35;
    for (int64_t rows = 0; rows <= maxr; rows++) {
        for (int64_t cols = 0; cols <= maxc; cols++) {
            const int64_t ssp = cols * W, dsp = rows * W;
            for (int stream = 0; stream < 2; stream++)
                if (!transpose_case(fn, k->key, rows, cols, ssp, dsp, 0, 0, stream)) return;
            if (!transpose_case(fn, k->key, rows, cols, ssp + 3 * W + 1, dsp + W, k->key, 5, true))
                return;
            const int64_t dsl = (dsp + 63) / 64 * 64 + 64; /* rows on lines: streaming stores */
            if (!transpose_case(fn, k->key, rows, cols, ssp + W, dsl, 0, 1, true)) return;
            if (!transpose_case(fn, k->key, rows, cols, ssp, dsp + 1, 1, 0, false)) return;
        }
    }
    /* large blocks: many tiles each way, the streaming paths (aligned rows, rows off the lines,
     * the buffered one), and long thin shapes */
    const int64_t shapes[][2] = {{512, 384}, {509, 383}, {1024, 3}, {3, 1024}, {300, 700}, {333, 70}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const int64_t rows = shapes[i][0], cols = shapes[i][1];
        const int64_t dsl = (rows * W + 63) / 64 * 64;
        for (int stream = 0; stream < 2; stream++) {
            if (!transpose_case(fn, k->key, rows, cols, cols * W, rows * W, 0, 3, stream)) return;
            if (!transpose_case(fn, k->key, rows, cols, cols * W + W, dsl, 0, 0, stream)) return;
            if (!transpose_case(fn, k->key, rows, cols, cols * W, dsl + W, k->key, 0, stream)) return;
            if (!transpose_case(fn, k->key, rows, cols, cols * W, rows * W, 7, 1, stream)) return;
        }
    }
}


typedef struct transpose_args {
    const kernel *k;
    unsigned char *dst, *src;
    int64_t side;
    bool stream;
} transpose_args;

static void run_transpose(void *p) {
    transpose_args *a = p;
    const int64_t rowb = a->side * (int64_t)a->k->key;
    ((tx__transpose2d_fn)a->k->fn)((char *)a->dst, (const char *)a->src, a->side, a->side, rowb,
                                   rowb, a->stream);
}

/* Square matrices of each benchmark size; streaming from TX_STREAM_MIN_BYTES, as the op does. */
void bench_transpose2d(const kernel *k) {
    for (size_t b = 0; b < NBENCH; b++) {
        int64_t side = 1;
        while ((size_t)((side + 1) * (side + 1)) * k->key <= BENCH_BYTES[b]) side++;
        const size_t n = (size_t)(side * side) * k->key;
        transpose_args a = {k, xmalloc(n), xmalloc(n), side, (int64_t)n >= TX_STREAM_MIN_BYTES};
        fill_random(a.src, n);
        memset(a.dst, 0, n);
        char size[48];
        snprintf(size, sizeof size, "%lldx%lld%s", (long long)side, (long long)side,
                 a.stream ? " nt" : "");
        bench_row(k, size, (double)n, run_transpose, &a);
        free(a.dst);
        free(a.src);
    }
}

/* The width-generic kernel: element widths that are no power of two and wide ones, packed and
 * padded strides (odd ones included), at random misalignments. */
static bool any_case(tx__transpose2d_any_ft *fn, size_t w, int64_t rows, int64_t cols, int64_t ss,
                     int64_t ds, size_t dmis, size_t smis) {
    const bool empty = rows <= 0 || cols <= 0;
    const size_t sn = empty ? 0 : (size_t)((rows - 1) * ss + cols * (int64_t)w);
    const size_t dn = empty ? 0 : (size_t)((cols - 1) * ds + rows * (int64_t)w);
    unsigned char *sblock, *src = source(sn, smis, &sblock);
    dest d = dest_new(dn, dmis);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            memcpy(d.want + c * ds + r * (int64_t)w, src + r * ss + c * (int64_t)w, w);
    fn((char *)d.got, (const char *)src, rows, cols, ss, ds, w);
    char what[160];
    snprintf(what, sizeof what, "width=%zu rows=%lld cols=%lld ss=%lld ds=%lld dst_mis=%zu src_mis=%zu",
             w, (long long)rows, (long long)cols, (long long)ss, (long long)ds, dmis, smis);
    bool ok = dest_check(&d, what);
    free(sblock);
    return ok;
}

void check_transpose2d_any(const kernel *k) {
    tx__transpose2d_any_ft *fn = (tx__transpose2d_any_ft *)k->fn;
    static const size_t ws[] = {3, 5, 6, 7, 12, 20, 24, 32, 40, 48, 64, 100, 200};
    static const int64_t n[] = {0, 1, 2, 5, 17, 64, 70, 131};
    for (size_t a = 0; a < COUNT_OF(ws); a++) {
        const int64_t W = (int64_t)ws[a];
        for (size_t i = 0; i < COUNT_OF(n); i++)
            for (size_t j = 0; j < COUNT_OF(n); j++) {
                if (!any_case(fn, ws[a], n[i], n[j], n[j] * W, n[i] * W, rnd() % 64, rnd() % 64))
                    return;
                if (!any_case(fn, ws[a], n[i], n[j], n[j] * W + 3, n[i] * W + 1, rnd() % 64,
                              rnd() % 64))
                    return;
            }
    }
}

typedef struct any_args {
    const kernel *k;
    unsigned char *dst, *src;
    int64_t side;
} any_args;

static void run_any(void *p) {
    any_args *a = p;
    ((tx__transpose2d_any_ft *)a->k->fn)((char *)a->dst, (const char *)a->src, a->side, a->side,
                                         a->side * 12, a->side * 12, 12);
}

/* Square matrices of 12-byte elements (a 3-float innermost dim that stays innermost). */
void bench_transpose2d_any(const kernel *k) {
    for (size_t b = 0; b < NBENCH; b++) {
        int64_t side = 1;
        while ((size_t)((side + 1) * (side + 1)) * 12 <= BENCH_BYTES[b]) side++;
        const size_t n = (size_t)(side * side) * 12;
        any_args a = {k, xmalloc(n), xmalloc(n), side};
        fill_random(a.src, n);
        memset(a.dst, 0, n);
        char size[48];
        snprintf(size, sizeof size, "%lldx%lld w12", (long long)side, (long long)side);
        bench_row(k, size, (double)n, run_any, &a);
        free(a.dst);
        free(a.src);
    }
}
