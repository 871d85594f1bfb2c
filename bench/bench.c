/* SPDX-License-Identifier: Apache-2.0 */
/* bench.c -- the tensorx benchmark: times every workload of its table (below) through the public
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
 * Workloads are grouped by op family (one block each) so a family's entries are easy to find. */
#define _DEFAULT_SOURCE 1
#define TX_EXPERIMENTAL_API /* CPU levels and the allocation cache (tensorx.h) */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "tensorx.h"

/* ---- small helpers ---------------------------------------------------------------------------- */

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void die(const char *what, tx_status st) {
    fprintf(stderr, "bench: %s failed: %s: %s\n", what, tx_status_name(st), tx_last_error());
    exit(1);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Big aligned caller memory, on huge pages where allowed, touched. */
static void *big_buffer(size_t n) {
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

/* ---- inputs ------------------------------------------------------------------------------------ */

typedef enum fill_kind {
    FILL_FLOAT,  /* values in [-1000, 1000) with fractions */
    FILL_BYTES,  /* random bits */
    FILL_SAT,    /* floats in [-100, 400): saturate_cast to uint8 clamps both sides */
    FILL_INT     /* integers in [-1e6, 1e6) */
} fill_kind;

static tx_tensor *mk(tx_dtype dt, size_t rank, const int64_t *dims, fill_kind fill) {
    tx_tensor *t = NULL;
    tx_status st = tx_tensor_new(dt, rank, dims, &t);
    if (st != TX_OK) die("tensor_new", st);
    int64_t n = tx_tensor_numel(t);
    void *d = tx_tensor_data(t);
    if (fill == FILL_BYTES || dt == TX_FLOAT16 || dt == TX_UINT8) {
        uint64_t *w = d;
        size_t words = tx_tensor_nbytes(t) / 8;
        for (size_t i = 0; i < words; i++) w[i] = next_rand();
        if (dt == TX_FLOAT16) /* finite halves only: clear the top exponent bit */
            for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] &= 0xBFFF;
        return t;
    }
    for (int64_t i = 0; i < n; i++) {
        double r = (double)(next_rand() >> 11) * (1.0 / 9007199254740992.0);
        double v = fill == FILL_SAT ? -100 + 500 * r : fill == FILL_INT ? floor(-1e6 + 2e6 * r)
                                                                        : -1000 + 2000 * r;
        switch (dt) {
        case TX_FLOAT32: ((float *)d)[i] = (float)v; break;
        case TX_FLOAT64: ((double *)d)[i] = v; break;
        case TX_INT32: ((int32_t *)d)[i] = (int32_t)v; break;
        default: break;
        }
    }
    return t;
}

/* int32 vector of n values in [0, range) (or the given list when vals != NULL). */
static tx_tensor *mk_index(int64_t n, int64_t range, const int32_t *vals) {
    tx_tensor *t = NULL;
    tx_status st = tx_tensor_new(TX_INT32, 1, &n, &t);
    if (st != TX_OK) die("tensor_new", st);
    int32_t *d = tx_tensor_data(t);
    for (int64_t i = 0; i < n; i++) d[i] = vals ? vals[i] : (int32_t)(next_rand() % (uint64_t)range);
    return t;
}

static tx_tensor *mk_ints(size_t rank, const int64_t *dims, const int32_t *vals) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    tx_tensor *t = NULL;
    tx_status st = tx_tensor_from_data(TX_INT32, rank, dims, vals, (size_t)n * 4, &t);
    if (st != TX_OK) die("tensor_from_data", st);
    return t;
}

/* ---- workloads -------------------------------------------------------------------------------- */

typedef struct wl_state {
    tx_tensor *in[4];
    int64_t a, b;      /* per-workload integers (axis, dtype, block size ...) */
    uint64_t bytes;    /* bytes the op must move: what it reads plus what it writes */
} wl_state;

typedef struct workload {
    const char *name;
    const char *family;
    void (*setup)(wl_state *s, int64_t scale_div, const struct workload *w);
    /* Runs the op; returns its outputs (up to 3) and their count. */
    int (*run)(const wl_state *s, tx_tensor **outs);
    int64_t arg;       /* passed to setup through w->arg */
    int64_t arg2;
} workload;

static uint64_t nb(const tx_tensor *t) { return (uint64_t)tx_tensor_nbytes(t); }

/* Elements of the "64M" workloads, divided by the scale. */
#define N64M ((int64_t)64 << 20)

/* -- casting -- */
static void setup_cast(wl_state *s, int64_t div, const workload *w) {
    int64_t n = N64M / div;
    tx_dtype from = (tx_dtype)w->arg;
    s->in[0] = mk(from, 1, &n, from == TX_UINT8 ? FILL_BYTES : FILL_FLOAT);
    s->a = w->arg2;
    s->bytes = nb(s->in[0]) + (uint64_t)n * tx_dtype_size((tx_dtype)w->arg2);
}
static int run_cast(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_cast(s->in[0], (tx_dtype)s->a, o);
    if (st != TX_OK) die("cast", st);
    return 1;
}
static void setup_saturate(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = N64M / div;
    s->in[0] = mk(TX_FLOAT32, 1, &n, FILL_SAT);
    s->bytes = nb(s->in[0]) + (uint64_t)n;
}
static int run_saturate(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_saturate_cast(s->in[0], TX_UINT8, o);
    if (st != TX_OK) die("saturate_cast", st);
    return 1;
}
static void setup_bitcast(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = N64M / div;
    s->in[0] = mk(TX_FLOAT32, 1, &n, FILL_FLOAT);
    s->bytes = 0; /* a view: nothing moves */
}
static int run_bitcast(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_bitcast(s->in[0], TX_INT32, o);
    if (st != TX_OK) die("bitcast", st);
    return 1;
}
/* decode_raw of one string of 256 MiB (arg = out dtype, arg2 = little endian) */
static void setup_decode_one(wl_state *s, int64_t div, const workload *w) {
    size_t n = ((size_t)256 << 20) / (size_t)div;
    char *buf = big_buffer(n);
    for (size_t i = 0; i < n / 8; i++) ((uint64_t *)buf)[i] = next_rand() & 0x3F7F3F7F3F7F3F7Full;
    const char *p = buf;
    tx_status st = tx_tensor_new_strings(0, NULL, &p, &n, &s->in[0]);
    if (st != TX_OK) die("tensor_new_strings", st);
    free(buf);
    s->a = w->arg;
    s->b = w->arg2;
    s->bytes = 2 * (uint64_t)n;
}
/* decode_raw of 1M records of 64 bytes (float32, little-endian) */
static void setup_decode_records(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = ((int64_t)1 << 20) / div;
    char *buf = big_buffer((size_t)n * 64);
    for (int64_t i = 0; i < n * 8; i++) ((uint64_t *)buf)[i] = next_rand() & 0x3F7FFFFF3F7FFFFFull;
    const char **ptrs = malloc((size_t)n * sizeof *ptrs);
    size_t *lens = malloc((size_t)n * sizeof *lens);
    if (!ptrs || !lens) exit(1);
    for (int64_t i = 0; i < n; i++) {
        ptrs[i] = buf + i * 64;
        lens[i] = 64;
    }
    tx_status st = tx_tensor_new_strings(1, &n, ptrs, lens, &s->in[0]);
    if (st != TX_OK) die("tensor_new_strings", st);
    free(buf);
    free(ptrs);
    free(lens);
    s->a = TX_FLOAT32;
    s->b = 1;
    s->bytes = 2 * (uint64_t)n * 64;
}
static int run_decode(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_decode_raw(s->in[0], (tx_dtype)s->a, (int)s->b, NULL, o);
    if (st != TX_OK) die("decode_raw", st);
    return 1;
}

/* Square sides scaled so that the element count drops about as much as the scale asks. */
static int64_t side4096(int64_t div) { return div >= 16 ? 1024 : div >= 4 ? 2048 : 4096; }
static int64_t side8192(int64_t div) { return div >= 16 ? 2048 : div >= 4 ? 4096 : 8192; }

/* -- reorder: transpose (arg = case), concat (arg = axis), reverse -- */
static void setup_transpose(wl_state *s, int64_t div, const workload *w) {
    int64_t dims[4];
    int32_t perm[4];
    size_t rank;
    switch (w->arg) {
    case 0: rank = 2; dims[0] = dims[1] = side8192(div); perm[0] = 1; perm[1] = 0; break;
    case 1: case 2: rank = 3; dims[0] = 64 / div; dims[1] = 512; dims[2] = 512;
        if (w->arg == 1) { perm[0] = 0; perm[1] = 2; perm[2] = 1; }
        else { perm[0] = 2; perm[1] = 0; perm[2] = 1; }
        break;
    default: rank = 4; dims[0] = 32 / div; dims[1] = 224; dims[2] = 224; dims[3] = 3;
        perm[0] = 0; perm[1] = 3; perm[2] = 1; perm[3] = 2; break;
    }
    if (dims[0] < 1) dims[0] = 1;
    s->in[0] = mk(TX_FLOAT32, rank, dims, FILL_BYTES);
    int64_t r = (int64_t)rank;
    s->in[1] = mk_ints(1, &r, perm);
    s->bytes = 2 * nb(s->in[0]);
}
static int run_transpose(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_transpose(s->in[0], s->in[1], 0, o);
    if (st != TX_OK) die("transpose", st);
    return 1;
}
static void setup_concat(wl_state *s, int64_t div, const workload *w) {
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->in[1] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->a = w->arg;
    s->bytes = 4 * nb(s->in[0]);
}
static int run_concat(const wl_state *s, tx_tensor **o) {
    const tx_tensor *v[2] = {s->in[0], s->in[1]};
    tx_status st = tx_concat(v, 2, s->a, o);
    if (st != TX_OK) die("concat", st);
    return 1;
}
static void setup_reverse(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side8192(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->bytes = 2 * nb(s->in[0]);
}
static int run_reverse(const wl_state *s, tx_tensor **o) {
    const int64_t axis[1] = {1};
    tx_status st = tx_reverse_v2(s->in[0], axis, 1, o);
    if (st != TX_OK) die("reverse_v2", st);
    return 1;
}

/* -- slicing: pad (arg = mode), tile, strided_slice -- */
static void setup_pad(wl_state *s, int64_t div, const workload *w) {
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    const int64_t pd[2] = {2, 2};
    const int32_t pv[4] = {16, 16, 16, 16};
    s->in[1] = mk_ints(2, pd, pv);
    s->a = w->arg;
    s->bytes = nb(s->in[0]) + (uint64_t)(d + 32) * (uint64_t)(d + 32) * 4;
}
static int run_pad(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_pad(s->in[0], s->in[1], (tx_pad_mode)s->a, NULL, o);
    if (st != TX_OK) die("pad", st);
    return 1;
}
static void setup_tile(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = div >= 4 ? 512 : 1024, dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    const int64_t two = 2;
    const int32_t m[2] = {4, 4};
    s->in[1] = mk_ints(1, &two, m);
    s->bytes = nb(s->in[0]) + 16 * nb(s->in[0]);
}
static int run_tile(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_tile(s->in[0], s->in[1], o);
    if (st != TX_OK) die("tile", st);
    return 1;
}
static void setup_strided(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side8192(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    const int64_t two = 2;
    const int32_t zero[2] = {0, 0}, strides[2] = {2, -1};
    s->in[1] = mk_ints(1, &two, zero);
    s->in[2] = mk_ints(1, &two, zero);
    s->in[3] = mk_ints(1, &two, strides);
    s->a = s->b = 3; /* begin_mask, end_mask: every axis whole */
    s->bytes = nb(s->in[0]) / 2 * 2; /* reads half the rows, writes as much */
}
static int run_strided(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_strided_slice(s->in[0], s->in[1], s->in[2], s->in[3], s->a, s->b, 0, 0, 0,
                                    o);
    if (st != TX_OK) die("strided_slice", st);
    return 1;
}

/* -- gather family -- */
static void setup_gather_rows(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t rows = ((int64_t)1 << 20) / div, dims[2] = {rows, 64};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->in[1] = mk_index(rows, rows, NULL);
    s->a = 0;
    s->bytes = nb(s->in[1]) + 2 * nb(s->in[0]);
}
static void setup_gather_axis1(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->in[1] = mk_index(d, d, NULL);
    s->a = 1;
    s->bytes = nb(s->in[1]) + 2 * nb(s->in[0]);
}
/* boolean_mask of a [d, d] float32 table by a random [d, d] mask (about half true): the mask is
 * as large as the data, the case where counting it and reading it again cost most. */
static void setup_boolean_mask(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->in[1] = mk(TX_BOOL, 2, dims, FILL_INT); /* filled below */
    uint8_t *m = tx_tensor_data(s->in[1]);
    int64_t kept = 0;
    for (int64_t i = 0; i < d * d; i++) kept += m[i] = (uint8_t)(next_rand() & 1);
    s->bytes = nb(s->in[1]) + nb(s->in[0]) + 2 * (size_t)kept * 4; /* mask, scan, kept rows out */
}
static int run_boolean_mask(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_boolean_mask(s->in[0], s->in[1], 0, o);
    if (st != TX_OK) die("boolean_mask", st);
    return 1;
}
static int run_gather(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_gather(s->in[0], s->in[1], s->a, 0, o);
    if (st != TX_OK) die("gather", st);
    return 1;
}
static void setup_gather_nd(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t dims[3] = {1024, 1024, 16}, n = ((int64_t)1 << 20) / div;
    s->in[0] = mk(TX_FLOAT32, 3, dims, FILL_BYTES);
    int64_t idims[2] = {n, 2};
    int32_t *iv = malloc((size_t)n * 2 * sizeof *iv);
    if (!iv) exit(1);
    for (int64_t i = 0; i < 2 * n; i++) iv[i] = (int32_t)(next_rand() % 1024);
    s->in[1] = mk_ints(2, idims, iv);
    free(iv);
    s->bytes = nb(s->in[1]) + 2 * (uint64_t)n * 64;
}
static int run_gather_nd(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_gather_nd(s->in[0], s->in[1], o);
    if (st != TX_OK) die("gather_nd", st);
    return 1;
}
static void setup_one_hot(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = ((int64_t)1 << 20) / div;
    s->in[0] = mk_index(n, 1000, NULL);
    s->bytes = nb(s->in[0]) + (uint64_t)n * 1000 * 4;
}
static int run_one_hot(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_one_hot(s->in[0], 1000, NULL, NULL, -1, TX_FLOAT32, o);
    if (st != TX_OK) die("one_hot", st);
    return 1;
}
static void setup_unique(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = ((int64_t)16 << 20) / div;
    int32_t vals[1000];
    for (int i = 0; i < 1000; i++) vals[i] = (int32_t)(next_rand() & 0x7FFFFFFF);
    s->in[0] = mk_index(n, 1000, NULL);
    int32_t *d = tx_tensor_data(s->in[0]);
    for (int64_t i = 0; i < n; i++) d[i] = vals[d[i]];
    s->bytes = 2 * nb(s->in[0]);
}
static int run_unique(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_unique_with_counts(s->in[0], TX_INT32, o);
    if (st != TX_OK) die("unique_with_counts", st);
    return 3;
}

/* -- spatial -- */
static void setup_s2d(wl_state *s, int64_t div, const workload *w) {
    int64_t dims[4] = {8 / (div >= 8 ? 8 : div), 256, 256, 64};
    s->in[0] = mk(TX_FLOAT32, 4, dims, FILL_BYTES);
    s->a = w->arg;
    s->bytes = 2 * nb(s->in[0]);
}
static int run_s2d(const wl_state *s, tx_tensor **o) {
    tx_status st = s->a ? tx_depth_to_space(s->in[0], 2, TX_FORMAT_NHWC, o)
                        : tx_space_to_depth(s->in[0], 2, TX_FORMAT_NHWC, o);
    if (st != TX_OK) die("space/depth", st);
    return 1;
}

/* -- core: a plain deep copy (the copy kernel) -- */
static void setup_copy(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = N64M / div;
    s->in[0] = mk(TX_FLOAT32, 1, &n, FILL_BYTES);
    s->bytes = 2 * nb(s->in[0]);
}
static int run_copy(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_tensor_copy(s->in[0], o);
    if (st != TX_OK) die("tensor_copy", st);
    return 1;
}

/* -- inference shapes: small tensors of a model's forward pass; the same size in quick mode -- */
static void setup_infer(wl_state *s, int64_t div, const workload *w) {
    (void)div;
    switch (w->arg) {
    case 0: { /* embedding lookup: 128 token ids into a 30522 x 768 float32 table (BERT's) */
        int64_t dims[2] = {30522, 768};
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk_index(128, 30522, NULL);
        s->a = 0;
        s->bytes = nb(s->in[1]) + 2 * 128 * 768 * 4;
        break;
    }
    case 1: { /* an image batch of one, NHWC -> NCHW */
        int64_t dims[4] = {1, 224, 224, 3}, four = 4;
        const int32_t perm[4] = {0, 3, 1, 2};
        s->in[0] = mk(TX_FLOAT32, 4, dims, FILL_BYTES);
        s->in[1] = mk_ints(1, &four, perm);
        s->bytes = 2 * nb(s->in[0]);
        break;
    }
    case 2: { /* every other token of [1, 128, 768]: x[:, ::2, :] */
        int64_t dims[3] = {1, 128, 768}, three = 3;
        const int32_t zero[3] = {0, 0, 0}, strides[3] = {1, 2, 1};
        s->in[0] = mk(TX_FLOAT32, 3, dims, FILL_BYTES);
        s->in[1] = mk_ints(1, &three, zero);
        s->in[2] = mk_ints(1, &three, zero);
        s->in[3] = mk_ints(1, &three, strides);
        s->a = s->b = 7;
        s->bytes = nb(s->in[0]); /* reads half, writes half */
        break;
    }
    case 3: { /* a KV cache: two [1, 32, 512, 128] float16 blocks joined along the sequence */
        int64_t dims[4] = {1, 32, 512, 128};
        s->in[0] = mk(TX_FLOAT16, 4, dims, FILL_BYTES);
        s->in[1] = mk(TX_FLOAT16, 4, dims, FILL_BYTES);
        s->a = 2;
        s->bytes = 4 * nb(s->in[0]);
        break;
    }
    case 4: /* 128 class labels, depth 1000 */
        s->in[0] = mk_index(128, 1000, NULL);
        s->bytes = nb(s->in[0]) + 128 * 1000 * 4;
        break;
    default: { /* one hidden vector to bfloat16 */
        int64_t dims[2] = {1, 4096};
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_FLOAT);
        s->a = TX_BFLOAT16;
        s->bytes = nb(s->in[0]) + 4096 * 2;
        break;
    }
    }
}

static const workload WORKLOADS[] = {
    /* core */
    {"copy_f32_64M", "core", setup_copy, run_copy, 0, 0},
    /* casting */
    {"cast_f32_f16", "casting", setup_cast, run_cast, TX_FLOAT32, TX_FLOAT16},
    {"cast_f16_f32", "casting", setup_cast, run_cast, TX_FLOAT16, TX_FLOAT32},
    {"cast_f32_bf16", "casting", setup_cast, run_cast, TX_FLOAT32, TX_BFLOAT16},
    {"cast_f32_i32", "casting", setup_cast, run_cast, TX_FLOAT32, TX_INT32},
    {"cast_i32_f32", "casting", setup_cast, run_cast, TX_INT32, TX_FLOAT32},
    {"cast_f64_f32", "casting", setup_cast, run_cast, TX_FLOAT64, TX_FLOAT32},
    {"cast_u8_f32", "casting", setup_cast, run_cast, TX_UINT8, TX_FLOAT32},
    {"saturate_cast_f32_u8", "casting", setup_saturate, run_saturate, 0, 0},
    {"bitcast_f32_i32", "casting", setup_bitcast, run_bitcast, 0, 0},
    {"decode_raw_le_i16", "casting", setup_decode_one, run_decode, TX_INT16, 1},
    {"decode_raw_be_i16", "casting", setup_decode_one, run_decode, TX_INT16, 0},
    {"decode_raw_le_f32", "casting", setup_decode_one, run_decode, TX_FLOAT32, 1},
    {"decode_raw_be_f32", "casting", setup_decode_one, run_decode, TX_FLOAT32, 0},
    {"decode_raw_records_1M_x64", "casting", setup_decode_records, run_decode, 0, 0},
    /* reorder */
    {"transpose_8192x8192", "reorder", setup_transpose, run_transpose, 0, 0},
    {"transpose_64x512x512_021", "reorder", setup_transpose, run_transpose, 1, 0},
    {"transpose_64x512x512_201", "reorder", setup_transpose, run_transpose, 2, 0},
    {"transpose_nhwc_nchw_32x224x224x3", "reorder", setup_transpose, run_transpose, 3, 0},
    {"concat_2x4096x4096_axis0", "reorder", setup_concat, run_concat, 0, 0},
    {"concat_2x4096x4096_axis1", "reorder", setup_concat, run_concat, 1, 0},
    {"reverse_8192x8192_axis1", "reorder", setup_reverse, run_reverse, 0, 0},
    /* slicing */
    {"pad_4096x4096_16_constant", "slicing", setup_pad, run_pad, TX_PAD_CONSTANT, 0},
    {"pad_4096x4096_16_reflect", "slicing", setup_pad, run_pad, TX_PAD_REFLECT, 0},
    {"tile_1024x1024_4x4", "slicing", setup_tile, run_tile, 0, 0},
    {"strided_slice_8192x8192_s2_rev", "slicing", setup_strided, run_strided, 0, 0},
    /* gather */
    {"gather_rows_1Mx64_1M", "gather", setup_gather_rows, run_gather, 0, 0},
    {"gather_axis1_4096x4096", "gather", setup_gather_axis1, run_gather, 0, 0},
    {"gather_nd_1024x1024x16_1M", "gather", setup_gather_nd, run_gather_nd, 0, 0},
    {"boolean_mask_4096x4096_half", "gather", setup_boolean_mask, run_boolean_mask, 0, 0},
    {"one_hot_1M_depth1000", "gather", setup_one_hot, run_one_hot, 0, 0},
    {"unique_with_counts_16M_1000", "gather", setup_unique, run_unique, 0, 0},
    /* spatial */
    {"space_to_depth_8x256x256x64_b2", "spatial", setup_s2d, run_s2d, 0, 0},
    {"depth_to_space_8x256x256x64_b2", "spatial", setup_s2d, run_s2d, 1, 0},
    /* inference shapes (per-call cost matters here: timed over many calls) */
    {"infer_embedding_gather_30522x768_128", "inference", setup_infer, run_gather, 0, 0},
    {"infer_nhwc_nchw_1x224x224x3", "inference", setup_infer, run_transpose, 1, 0},
    {"infer_strided_slice_1x128x768_s2", "inference", setup_infer, run_strided, 2, 0},
    {"infer_concat_kv_f16_1x32x512x128_x2", "inference", setup_infer, run_concat, 3, 0},
    {"infer_one_hot_128_depth1000", "inference", setup_infer, run_one_hot, 4, 0},
    {"infer_cast_f32_bf16_1x4096", "inference", setup_infer, run_cast, 5, 0},
};
#define NUM_WORKLOADS (sizeof WORKLOADS / sizeof *WORKLOADS)

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

typedef struct options {
    bool quick, json, list, into, alloc_probe, probes_only, floor;
    const char *filter, *exact, *memcpy_given, *sweep, *dims;
    int threads, reps;
} options;

/* Calls per timed sample: one when a call takes 2 ms or more, else enough to last about 2 ms (a
 * single call that short is too close to the clock's resolution and jitter). */
static long calls_per_sample(double first_call_s) {
    if (first_call_s >= 2e-3) return 1;
    double c = 2e-3 / (first_call_s > 1e-8 ? first_call_s : 1e-8) + 1;
    return c > 100000 ? 100000 : (long)c;
}

/* Runs the op once and frees its outputs; returns their total size. */
static uint64_t run_and_free(const workload *w, const wl_state *s) {
    tx_tensor *o[3] = {NULL, NULL, NULL};
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
#define WARMUP_CALLS 5
#define WARMUP_MAX_S 1.0
static double time_op(const workload *w, const wl_state *s, int reps, uint64_t *out_bytes) {
    double t[64];
    if (reps > 64) reps = 64;
    double start = now_s(), t0 = start;
    tx_tensor *o[3] = {NULL, NULL, NULL};
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

/* ---- the size sweep (bench/sweep.py): one family at the shapes it is given -------------------- */

/* Sets up family `fam` on dims (what each family's dims mean: bench/sweep.py) and picks its run
 * function; 0 if there is no such family or the dims do not fit it. */
static int sweep_setup(const char *fam, size_t nd, const int64_t *dims, wl_state *s, workload *w) {
    memset(s, 0, sizeof *s);
    memset(w, 0, sizeof *w);
    w->name = fam;
    w->family = "sweep";
    int64_t two = 2, four = 4;
    if (!strcmp(fam, "cast_f32_f16") && nd == 1) {
        s->in[0] = mk(TX_FLOAT32, 1, dims, FILL_FLOAT);
        s->a = TX_FLOAT16;
        w->run = run_cast;
    } else if (!strcmp(fam, "decode_raw_le_f32") && nd == 1) {
        size_t n = (size_t)dims[0];
        char *b = big_buffer(n);
        for (size_t i = 0; i < n / 8; i++) ((uint64_t *)b)[i] = next_rand() & 0x3F7F3F7F3F7F3F7Full;
        const char *p = b;
        tx_status st = tx_tensor_new_strings(0, NULL, &p, &n, &s->in[0]);
        if (st != TX_OK) die("tensor_new_strings", st);
        free(b);
        s->a = TX_FLOAT32;
        s->b = 1;
        w->run = run_decode;
    } else if ((!strcmp(fam, "transpose_2d") && nd == 2) ||
               ((!strcmp(fam, "nhwc_nchw") || !strcmp(fam, "nchw_nhwc")) && nd == 4)) {
        static const int32_t p2[2] = {1, 0}, to_nchw[4] = {0, 3, 1, 2}, to_nhwc[4] = {0, 2, 3, 1};
        s->in[0] = mk(TX_FLOAT32, nd, dims, FILL_BYTES);
        s->in[1] = mk_ints(1, nd == 2 ? &two : &four,
                           nd == 2 ? p2 : !strcmp(fam, "nhwc_nchw") ? to_nchw : to_nhwc);
        w->run = run_transpose;
    } else if (!strcmp(fam, "concat") && nd == 2) { /* two [r, c] along axis 1 */
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->a = 1;
        w->run = run_concat;
    } else if (!strcmp(fam, "pad") && nd == 2) { /* 1 on every side, constant */
        const int64_t pd[2] = {2, 2};
        const int32_t pv[4] = {1, 1, 1, 1};
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk_ints(2, pd, pv);
        s->a = TX_PAD_CONSTANT;
        w->run = run_pad;
    } else if (!strcmp(fam, "strided_slice") && nd == 2) { /* x[::2, :] */
        const int32_t zero[2] = {0, 0}, strides[2] = {2, 1};
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk_ints(1, &two, zero);
        s->in[2] = mk_ints(1, &two, zero);
        s->in[3] = mk_ints(1, &two, strides);
        s->a = s->b = 3;
        w->run = run_strided;
    } else if (!strcmp(fam, "gather_rows") && nd == 2) { /* as many random rows as the table has */
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk_index(dims[0], dims[0], NULL);
        s->a = 0;
        w->run = run_gather;
    } else if (!strcmp(fam, "depth_to_space") && nd == 4) { /* NHWC, block 2 */
        s->in[0] = mk(TX_FLOAT32, 4, dims, FILL_BYTES);
        s->a = 1;
        w->run = run_s2d;
    } else if (!strcmp(fam, "one_hot") && nd == 1) { /* dims[0] labels, depth 1000 */
        s->in[0] = mk_index(dims[0], 1000, NULL);
        w->run = run_one_hot;
    } else {
        return 0;
    }
    return 1;
}

/* For each shape of `dims_list` ("D0,D1;D0,D1;..."): seconds per call of tensorx at its default
 * thread count, then at one thread, as JSON lines {"family", "dims", "peer", "s"} with peer
 * "tensorx" and "tensorx_1t". */
static int run_sweep(const char *fam, const char *dims_list, int reps) {
    char *list = strdup(dims_list), *save = NULL;
    if (!list) return 1;
    for (char *item = strtok_r(list, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
        int64_t dims[6];
        size_t nd = 0;
        for (char *p = item; *p && nd < 6;) {
            dims[nd++] = strtoll(p, &p, 10);
            if (*p == ',') p++;
            else if (*p) break;
        }
        wl_state s;
        workload w;
        if (!sweep_setup(fam, nd, dims, &s, &w)) {
            fprintf(stderr, "bench: no sweep family %s with %zu dims\n", fam, nd);
            free(list);
            return 2;
        }
        for (int one = 0; one < 2; one++) {
            tx_set_num_threads(one ? 1 : 0);
            double t = time_op(&w, &s, reps, NULL);
            printf("{\"family\": \"%s\", \"dims\": \"%s\", \"peer\": \"%s\", \"s\": %.6g, "
                   "\"threads\": %d}\n", fam, item, one ? "tensorx_1t" : "tensorx", t,
                   tx_num_threads());
            fflush(stdout);
        }
        tx_set_num_threads(0);
        for (int k = 0; k < 4; k++) tx_tensor_free(s.in[k]);
    }
    free(list);
    return 0;
}

/* ---- the copy floor (--floor) ------------------------------------------------------------------ *
 * What the hardware allows a workload: memcpy of half its bytes (its bytes count what it reads and
 * writes) from one buffer into another of that size, called over and over as the op is, on one
 * thread and split over two -- the same cache level as the op's own working set.  The second
 * thread spins between calls (as the pool's workers do), so that a call of microseconds is not a
 * thread start.  An op that reads and writes its bytes once cannot beat the better of the two by
 * much; a peer's time below 1/0.7 of it leaves no room for tensorx to be 0.7x that peer. */

typedef struct floor_helper {
    _Atomic long go, done;
    _Atomic bool stop;
    char *d;
    const char *s;
    size_t n;
} floor_helper;

static void *floor_thread(void *arg) {
    floor_helper *h = arg;
    long seen = 0;
    for (;;) {
        long g;
        while ((g = atomic_load_explicit(&h->go, memory_order_acquire)) == seen)
            if (atomic_load_explicit(&h->stop, memory_order_relaxed)) return NULL;
        seen = g;
        memcpy(h->d, h->s, h->n);
        atomic_store_explicit(&h->done, g, memory_order_release);
    }
}

/* Median seconds per copy of n bytes (two threads: halves), after a warm-up as time_op's. */
static double floor_copy(char *dst, const char *src, size_t n, floor_helper *h, int reps) {
    double t[64];
    if (reps > 64) reps = 64;
    size_t half = h ? n / 2 : n;
    if (h) {
        h->d = dst + half;
        h->s = src + half;
        h->n = n - half;
    }
    long calls = 1;
    for (int r = -WARMUP_CALLS; r < reps; r++) {
        double t0 = now_s();
        for (long c = 0; c < calls; c++) {
            long g = 0;
            if (h) g = atomic_fetch_add_explicit(&h->go, 1, memory_order_acq_rel) + 1;
            memcpy(dst, src, half);
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
static double floor_copy2(char *dst, const char *src, size_t n, int reps) {
    floor_helper h;
    atomic_init(&h.go, 0);
    atomic_init(&h.done, 0);
    atomic_init(&h.stop, false);
    pthread_t th;
    if (pthread_create(&th, NULL, floor_thread, &h) != 0) return NAN;
    double t = floor_copy(dst, src, n, &h, reps);
    atomic_store(&h.stop, true);
    pthread_join(th, NULL);
    return t;
}

static void run_floor(const options *o, int64_t div, int reps) {
    printf("copy floor: memcpy of half a workload's bytes (what it reads and writes), repeated as "
           "the op is; tensorx at its default threads\n");
    printf("%-38s %10s %12s %12s %12s %9s\n", "workload", "MB moved", "tensorx ms", "copy 1t ms",
           "copy 2t ms", "tx/floor");
    for (size_t i = 0; i < NUM_WORKLOADS; i++) {
        const workload *w = &WORKLOADS[i];
        if (o->filter && !strstr(w->name, o->filter)) continue;
        if (o->exact && strcmp(w->name, o->exact) != 0) continue;
        wl_state s;
        memset(&s, 0, sizeof s);
        w->setup(&s, div, w);
        if (s.bytes >= 2 && s.bytes / 2 <= ((uint64_t)1 << 30)) {
            double ta = time_op(w, &s, reps, NULL);
            size_t n = (size_t)(s.bytes / 2);
            char *src = big_buffer(n), *dst = big_buffer(n);
            double c1 = floor_copy(dst, src, n, NULL, reps);
            double c2 = floor_copy2(dst, src, n, reps);
            double best = c2 < c1 ? c2 : c1; /* NaN (no second thread) compares false */
            printf("%-38s %10.1f %12.4f %12.4f %12.4f %9.2f\n", w->name, (double)s.bytes / 1e6,
                   ta * 1e3, c1 * 1e3, c2 * 1e3, ta / best);
            fflush(stdout);
            free(src);
            free(dst);
        }
        for (int k = 0; k < 4; k++) tx_tensor_free(s.in[k]);
    }
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
        printf("%-34s %10s %10s %10s %8s %8s\n", "workload", "alloc ms", "into ms", "MB moved",
               "GB/s", "x memcpy");

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
            printf(", \"memcpy2_gbps\": %.2f, \"threads\": %d, \"family\": \"%s\"}\n", m2,
                   tx_num_threads(), w->family);
        } else {
            char into[32] = "-", g[32] = "-", r[32] = "-";
            if (!isnan(ti)) snprintf(into, sizeof into, "%.*f", ti < 1e-3 ? 4 : 2, ti * 1e3);
            if (s.bytes) {
                snprintf(g, sizeof g, "%.1f", gbps);
                snprintf(r, sizeof r, "%.2f", rm);
            }
            printf("%-34s %10.*f %10s %10.1f %8s %8s\n", w->name, ta < 1e-3 ? 4 : 2, ta * 1e3, into,
                   (double)s.bytes / 1e6, g, r);
        }
        fflush(stdout);
    }
    tx_shutdown();
    return 0;
}
