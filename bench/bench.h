/* SPDX-License-Identifier: Apache-2.0 */
/* bench.h -- what the benchmark's files share: the workload and its state (workloads.c holds the
 * table), the options, the timing (bench.c) and the small helpers every part uses.  Include it
 * after defining _DEFAULT_SOURCE and TX_EXPERIMENTAL_API, as bench.c does. */
#ifndef TX_BENCH_H
#define TX_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "tensorx.h"

static inline double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double median(double *v, int n);
void die(const char *what, tx_status st);
uint64_t next_rand(void);
void *big_buffer(size_t n);

/* ---- inputs (workloads.c) ---------------------------------------------------------------------- */

typedef enum fill_kind {
    FILL_FLOAT,  /* values in [-1000, 1000) with fractions */
    FILL_BYTES,  /* random bits */
    FILL_SAT,    /* floats in [-100, 400): saturate_cast to uint8 clamps both sides */
    FILL_INT     /* integers in [-1e6, 1e6) */
} fill_kind;

tx_tensor *mk(tx_dtype dt, size_t rank, const int64_t *dims, fill_kind fill);
tx_tensor *mk_index(int64_t n, int64_t range, const int32_t *vals);
tx_tensor *mk_ints(size_t rank, const int64_t *dims, const int32_t *vals);

/* ---- workloads (workloads.c) ------------------------------------------------------------------- */

typedef struct wl_state {
    tx_tensor *in[4];
    int64_t a, b;      /* per-workload integers (axis, dtype, block size ...) */
    uint64_t bytes;    /* bytes the op must move: what it reads plus what it writes */
} wl_state;

#define BENCH_MAX_OUTPUTS 4 /* split's parts */

typedef struct workload {
    const char *name;
    const char *family;
    void (*setup)(wl_state *s, int64_t scale_div, const struct workload *w);
    /* Runs the op; returns its outputs (up to BENCH_MAX_OUTPUTS) and their count. */
    int (*run)(const wl_state *s, tx_tensor **outs);
    int64_t arg;       /* passed to setup through w->arg */
    int64_t arg2;
    /* The op call that run makes, returning its status, for the prepared path (time_prepared);
     * NULL: not timed prepared.  Its data inputs are s->in[0..n) in order. */
    tx_status (*call)(const wl_state *s, tx_tensor **outs);
} workload;

static inline uint64_t nb(const tx_tensor *t) { return (uint64_t)tx_tensor_nbytes(t); }

extern const workload WORKLOADS[];
extern const size_t NUM_WORKLOADS;

/* The op calls of the size sweep's families, returning the op's status (the prepared path puts
 * them through TX_PREPARE); run_X calls call_X and dies on an error. */
tx_status call_cast(const wl_state *s, tx_tensor **o);
tx_status call_transpose(const wl_state *s, tx_tensor **o);
tx_status call_concat(const wl_state *s, tx_tensor **o);
tx_status call_pad(const wl_state *s, tx_tensor **o);
tx_status call_strided(const wl_state *s, tx_tensor **o);
tx_status call_gather(const wl_state *s, tx_tensor **o);
tx_status call_one_hot(const wl_state *s, tx_tensor **o);
tx_status call_s2d(const wl_state *s, tx_tensor **o);

/* The run functions the size sweep reuses. */
int run_cast(const wl_state *s, tx_tensor **o);
int run_decode(const wl_state *s, tx_tensor **o);
int run_transpose(const wl_state *s, tx_tensor **o);
int run_concat(const wl_state *s, tx_tensor **o);
int run_pad(const wl_state *s, tx_tensor **o);
int run_strided(const wl_state *s, tx_tensor **o);
int run_gather(const wl_state *s, tx_tensor **o);
int run_s2d(const wl_state *s, tx_tensor **o);
int run_one_hot(const wl_state *s, tx_tensor **o);

/* ---- timing (bench.c) -------------------------------------------------------------------------- */

typedef struct options {
    bool quick, json, list, into, alloc_probe, probes_only, floor;
    const char *filter, *exact, *memcpy_given, *sweep, *dims;
    int threads, reps;
} options;

long calls_per_sample(double first_call_s);
#define WARMUP_CALLS 5
double time_op(const workload *w, const wl_state *s, int reps, uint64_t *out_bytes);
/* Median seconds per tx_op_run of w->call prepared once, into outputs allocated and touched
 * beforehand, after checking one run's bytes against the call's; NAN when w has no call or the
 * op no prepared form.  runner NULL: tensorx's pool. */
double time_prepared(const workload *w, const wl_state *s, int reps, const tx_runner *runner);

/* The size sweep (sweep.c) and the copy floor (floor.c). */
int run_sweep(const char *fam, const char *dims_list, int reps);
void run_floor(const options *o, int64_t div, int reps);

#endif
