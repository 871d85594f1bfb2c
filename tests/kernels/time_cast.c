/* SPDX-License-Identifier: Apache-2.0 */
/* time_cast.c -- a small timing program (not a test; build it in a release build) for the SIMD
 * cast and decode_raw paths (kernels/cast.h): GB/s (input + output bytes per second) of
 * tf.cast on the hot pairs, saturate_cast float32 -> uint8 and decode_raw (one long string, little-
 * and big-endian, and 1M records of 64 bytes), at every CPU level this machine has and at 1 and 2
 * threads, through the public API with the default allocator in steady state.  `--exhaustive`
 * instead checks every 32-bit pattern through the float32 -> float16 / bfloat16 / int32,
 * saturate uint8, int32 -> float32 and float32 -> float8_e4m3fn / float4_e2m1fn / float8_e8m0fnu
 * kernels of every level against the scalar ones (--filter: the pairs whose name, e.g.
 * "f32->e4m3fn", contains it).
 *   time_cast [--elems N] [--reps R] [--filter SUBSTRING] [--min] [--exhaustive] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tensorx.h"

#include "dispatch/cpu.h"
#include "dispatch/dispatch.h"
#include "kernels/cast.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void die(const char *what, tx_status st) {
    fprintf(stderr, "%s: %s: %s\n", what, tx_status_name(st), tx_last_error());
    exit(1);
}

/* Input tensors with ordinary values (what a model's tensors hold). */
static tx_tensor *make_input(tx_dtype t, int64_t n) {
    tx_tensor *x;
    tx_status st = tx_tensor_new(t, 1, &n, &x);
    if (st != TX_OK) die("tx_tensor_new", st);
    void *p = tx_tensor_data(x);
    for (int64_t i = 0; i < n; i++) {
        double v = (double)(int64_t)(rnd() % 2000001) / 1000.0 - 1000.0;
        switch (t) {
        case TX_FLOAT32: ((float *)p)[i] = (float)v; break;
        case TX_FLOAT64: ((double *)p)[i] = v * 1e3; break;
        case TX_INT32: ((int32_t *)p)[i] = (int32_t)(rnd() >> 33); break;
        case TX_UINT8: ((uint8_t *)p)[i] = (uint8_t)rnd(); break;
        case TX_FLOAT16: ((uint16_t *)p)[i] = tx__f32_to_f16((float)v); break;
        case TX_BFLOAT16: ((uint16_t *)p)[i] = tx__f32_to_bf16((float)v); break;
        default: break;
        }
    }
    return x;
}

static tx_tensor *make_strings(int64_t count, size_t len) {
    char *bytes = malloc((size_t)count * len);
    tx_string *s = malloc((size_t)count * sizeof *s);
    if (!bytes || !s) die("malloc", TX_RESOURCE_EXHAUSTED);
    for (size_t i = 0; i < (size_t)count * len; i += 8) {
        uint64_t r = rnd();
        memcpy(bytes + i, &r, 8);
    }
    for (int64_t i = 0; i < count; i++) s[i] = (tx_string){len, bytes + (size_t)i * len};
    tx_tensor *t;
    tx_status st = tx_tensor_wrap_strings(1, &count, s, bytes, (size_t)count * len, NULL, NULL, &t);
    if (st != TX_OK) die("wrap_strings", st);
    free(s);
    return t; /* bytes leak until exit: fine for a timing run */
}

typedef enum { OP_CAST, OP_SATURATE, OP_DECODE_LE, OP_DECODE_BE } op_kind;

typedef struct workload {
    const char *name;
    op_kind op;
    tx_dtype from, to;
    int64_t records, record_bytes; /* decode_raw */
} workload;

static tx_status run(const workload *w, const tx_tensor *x, tx_tensor **out) {
    switch (w->op) {
    case OP_CAST: return tx_cast(x, w->to, out);
    case OP_SATURATE: return tx_saturate_cast(x, w->to, out);
    case OP_DECODE_LE: return tx_decode_raw(x, w->to, 1, NULL, out);
    default: return tx_decode_raw(x, w->to, 0, NULL, out);
    }
}

static bool use_min; /* --min: the fastest run instead of the median (for a busy machine) */

static double median_time(const workload *w, const tx_tensor *x, int reps) {
    double t[64];
    if (reps > 64) reps = 64;
    tx_tensor *o = NULL;
    tx_status st = run(w, x, &o); /* warm-up: fills the allocator's cache */
    if (st != TX_OK) die(w->name, st);
    tx_tensor_free(o);
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        st = run(w, x, &o);
        t[r] = now() - t0;
        if (st != TX_OK) die(w->name, st);
        tx_tensor_free(o);
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return use_min ? t[0] : t[reps / 2];
}

/* Every 32-bit input of the pairs whose name contains `filter` (all when NULL). */
static int exhaustive(const char *filter) {
    const int pairs[] = {TX__CP_F32_F16,    TX__CP_F32_BF16,   TX__CP_F32_I32, TX__CP_SAT_F32_U8,
                         TX__CP_I32_F32,    TX__CP_F32_E4M3FN, TX__CP_F32_E2M1FN, TX__CP_F32_E8M0};
    const char *names[] = {"f32->f16", "f32->bf16", "f32->i32", "saturate f32->u8", "i32->f32",
                           "f32->e4m3fn", "f32->e2m1fn", "f32->e8m0"};
    const size_t osz[] = {2, 2, 4, 1, 4, 1, 1, 1};
    const size_t chunk = (size_t)1 << 24;
    uint32_t *in = malloc(chunk * 4);
    unsigned char *want = malloc(chunk * 4), *got = malloc(chunk * 4);
    if (!in || !want || !got) return 1;
    tx_isa_level have = tx_cpu_detected_level();
    const tx__kernels *ref = tx__kernels_at(TX_ISA_SCALAR);
    long bad = 0;
    for (int p = 0; p < (int)(sizeof pairs / sizeof *pairs); p++) {
        if (filter && !strstr(names[p], filter)) continue;
        long before = bad;
        double t0 = now();
        for (uint64_t base = 0; base < ((uint64_t)1 << 32); base += chunk) {
            for (size_t i = 0; i < chunk; i++) in[i] = (uint32_t)(base + i);
            ref->cast[pairs[p]](want, in, (int64_t)chunk);
            for (int lv = TX_ISA_AVX2; lv <= (int)have; lv++) {
                if (!tx__cpu_has((tx_isa_level)lv)) continue; /* x86-64 levels on aarch64 */
                const tx__kernels *k = tx__kernels_at((tx_isa_level)lv);
                for (int nt = 0; nt < 2; nt++) {
                    (nt ? k->cast_stream : k->cast)[pairs[p]](got, in, (int64_t)chunk);
                    if (memcmp(got, want, chunk * osz[p]) != 0) {
                        size_t i = 0;
                        while (memcmp(got + i * osz[p], want + i * osz[p], osz[p]) == 0) i++;
                        printf("%s %s%s: input 0x%08x differs\n", names[p],
                               tx_isa_level_name((tx_isa_level)lv), nt ? " nt" : "", in[i]);
                        bad++;
                    }
                }
            }
        }
        printf("%-18s all 2^32 inputs: %s (%.1f s)\n", names[p],
               bad > before ? "DIFFERENCES" : "identical at every level", now() - t0);
    }
    free(in);
    free(want);
    free(got);
    return bad != 0;
}

int main(int argc, char **argv) {
    int64_t elems = (int64_t)64 << 20;
    int reps = 7;
    const char *filter = NULL;
    bool want_exhaustive = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--elems") && i + 1 < argc) elems = atoll(argv[++i]);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--exhaustive")) want_exhaustive = true;
        else if (!strcmp(argv[i], "--min")) use_min = true;
        else {
            fprintf(stderr, "usage: %s [--elems N] [--reps R] [--filter S] [--min] [--exhaustive]\n",
                    argv[0]);
            return 2;
        }
    }
    if (want_exhaustive) return exhaustive(filter);
    const workload wl[] = {
        {"cast f32->f16", OP_CAST, TX_FLOAT32, TX_FLOAT16, 0, 0},
        {"cast f16->f32", OP_CAST, TX_FLOAT16, TX_FLOAT32, 0, 0},
        {"cast f32->bf16", OP_CAST, TX_FLOAT32, TX_BFLOAT16, 0, 0},
        {"cast bf16->f32", OP_CAST, TX_BFLOAT16, TX_FLOAT32, 0, 0},
        {"cast f32->i32", OP_CAST, TX_FLOAT32, TX_INT32, 0, 0},
        {"cast i32->f32", OP_CAST, TX_INT32, TX_FLOAT32, 0, 0},
        {"cast f64->f32", OP_CAST, TX_FLOAT64, TX_FLOAT32, 0, 0},
        {"cast u8->f32", OP_CAST, TX_UINT8, TX_FLOAT32, 0, 0},
        {"saturate_cast f32->u8", OP_SATURATE, TX_FLOAT32, TX_UINT8, 0, 0},
        {"cast f32->e4m3fn", OP_CAST, TX_FLOAT32, TX_FLOAT8_E4M3FN, 0, 0},
        {"cast f32->e2m1fn", OP_CAST, TX_FLOAT32, TX_FLOAT4_E2M1FN, 0, 0},
        {"cast f32->e8m0", OP_CAST, TX_FLOAT32, TX_FLOAT8_E8M0FNU, 0, 0},
        {"decode_raw 256MiB le i16", OP_DECODE_LE, TX_STRING, TX_INT16, 1, 256 << 20},
        {"decode_raw 256MiB be i16", OP_DECODE_BE, TX_STRING, TX_INT16, 1, 256 << 20},
        {"decode_raw 256MiB be f32", OP_DECODE_BE, TX_STRING, TX_FLOAT32, 1, 256 << 20},
        {"decode_raw 256MiB be f64", OP_DECODE_BE, TX_STRING, TX_FLOAT64, 1, 256 << 20},
        {"decode_raw 1Mx64B le f32", OP_DECODE_LE, TX_STRING, TX_FLOAT32, 1 << 20, 64},
        {"decode_raw 1Mx64B be f32", OP_DECODE_BE, TX_STRING, TX_FLOAT32, 1 << 20, 64},
    };
    tx_isa_level have = tx_cpu_detected_level();
    printf("GB/s = (input + output bytes) / %s time of %d runs; %lld elements per cast\n",
           use_min ? "fastest" : "median", reps, (long long)elems);
    printf("%-26s %8s", "workload", "MB");
    for (int lv = 0; lv <= (int)have; lv++)
        for (int th = 1; th <= 2; th++) printf(" %9s/%d", tx_isa_level_name((tx_isa_level)lv), th);
    printf("\n");
    for (size_t i = 0; i < sizeof wl / sizeof *wl; i++) {
        const workload *w = &wl[i];
        if (filter && !strstr(w->name, filter)) continue;
        tx_tensor *x = w->from == TX_STRING ? make_strings(w->records, (size_t)w->record_bytes)
                                            : make_input(w->from, elems);
        double bytes = w->from == TX_STRING
                           ? 2.0 * (double)w->records * (double)w->record_bytes
                           : (double)elems * (double)(tx_dtype_size(w->from) + tx_dtype_size(w->to));
        printf("%-26s %8.0f", w->name, bytes / 1e6);
        fflush(stdout);
        for (int lv = 0; lv <= (int)have; lv++) {
            tx_set_cpu_mask((tx_isa_level)lv);
            for (int th = 1; th <= 2; th++) {
                tx_set_num_threads(th);
                double t = median_time(w, x, reps);
                printf(" %11.1f", bytes / t / 1e9);
                fflush(stdout);
            }
        }
        printf("\n");
        tx_tensor_free(x);
    }
    return 0;
}
