/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_ops_diff.c -- the differential op fuzzer: every call the generic op fuzzer makes (opcodec.h,
 * with the flags' scaling, so that inputs reach the SIMD kernels, the thread pool and the
 * streaming stores) is run at every CPU level the machine has (tx_set_cpu_mask from scalar up to
 * tx_cpu_detected_level; a level the library does not take is skipped) and with 1 and several
 * threads (2-5, from a hash of the input), and every run must give the same result as the scalar
 * run on one thread: the same status and message, or outputs of the same dtype, shape and bytes
 * (NaN payloads included; strings by content).  Tensorx promises the same bits for every level and
 * thread count, so this oracle needs no model of TF.  Each run is also checked as fuzz_ops checks
 * it (oprun.h: plan agrees with run, failures well formed, outputs readable after the inputs are
 * freed, no leak), and the case's allocation failure, if it asks for one, runs once more in the
 * last configuration.  The streaming stores start at 32-64 MiB, beyond this target's 16 MiB
 * tensor limit (4 MiB in the other targets), so one more run, at the highest level with several
 * threads, lowers both streaming thresholds to 0: every path that can stream does, whatever the
 * case's size. */
#define TX_EXPERIMENTAL_API /* the CPU level mask (tensorx.h) */
#include "oprun.h"

#include "core/tuning.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    tx_set_max_tensor_bytes((size_t)16 << 20);
    /* several threads must really split the work, whatever the split policy would measure */
    setenv("TENSORX_THREAD_POLICY", "split", 0);
    return 0;
}

typedef struct config {
    tx_isa_level level;
    int threads;
    bool stream_all; /* streaming thresholds at 0 */
} config;

/* The levels this machine runs, each with 1 and `threads` threads, then the highest with
 * `threads` threads streaming whatever can; the first is scalar on one thread, the reference. */
static size_t configs(int threads, config *out) {
    size_t n = 0;
    for (int lv = TX_ISA_SCALAR; lv <= (int)tx_cpu_detected_level(); lv++) {
        if (tx_set_cpu_mask((tx_isa_level)lv) != (tx_isa_level)lv) continue;
        out[n++] = (config){(tx_isa_level)lv, 1, false};
        out[n++] = (config){(tx_isa_level)lv, threads, false};
    }
    if (n > 0) {
        out[n] = (config){out[n - 1].level, threads, true};
        n++;
    }
    return n;
}

static void apply(config k) {
    tx_set_cpu_mask(k.level);
    tx_set_num_threads(k.threads);
    tx__stream_min_bytes = k.stream_all ? 0 : TX_STREAM_MIN_BYTES;
    tx__stream_seq_min_bytes = k.stream_all ? 0 : TX_STREAM_SEQ_MIN_BYTES;
}

static void decode_again(const uint8_t *data, size_t size, fz_op_case *c) {
    if (!fz_op_decode_scaled(data, size, c)) fz_die("a case that decoded once did not decode again");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    long live_before = fz_alloc_live();
    fz_op_case c;
    if (!fz_op_decode_scaled(data, size, &c)) {
        if (fz_alloc_live() > live_before) fz_die("decoding leaked");
        return 0;
    }
    const char *name = c.def->name;
    long fail_k = c.fail_k;
    size_t in_bytes = 0;
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) {
        if (c.args.v[i].tensor) in_bytes += tx_tensor_nbytes(c.args.v[i].tensor);
        for (size_t k = 0; k < c.args.v[i].nlist; k++) in_bytes += tx_tensor_nbytes(c.args.v[i].list[k]);
    }
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 16777619u;
    config cf[32];
    size_t ncf = configs(2 + (int)(h % 4), cf);
    if (ncf == 0) fz_die("no CPU level accepted by tx_set_cpu_mask");

    fz_op_outcome ref, r;
    apply(cf[0]);
    fz_op_run(&c, 0, live_before, true, &ref);
    long live_ref = fz_alloc_live();
    char why[600];
    for (size_t i = 1; i < ncf; i++) {
        decode_again(data, size, &c);
        apply(cf[i]);
        fz_op_run(&c, 0, live_ref, true, &r);
        bool same = fz_op_same(ref.st, ref.msg, &ref.out, r.st, r.msg, &r.out, why, sizeof why);
        if (!same)
            fz_die("%s at %s with %d thread(s)%s differs from %s with %d: %s", name,
                   tx_isa_level_name(cf[i].level), cf[i].threads,
                   cf[i].stream_all ? " streaming everything" : "", tx_isa_level_name(cf[0].level),
                   cf[0].threads, why);
        op_outputs_clear(&r.out);
        fz_op_check_leaks(name, live_ref, 0, r.st);
    }
    op_outputs_clear(&ref.out);
    fz_op_check_leaks(name, live_before, 0, ref.st);
    if (getenv("FZ_VERBOSE"))
        fprintf(stderr, "  %s (%zu input bytes): %s, %zu configurations agree\n", name, in_bytes,
                ref.st == TX_OK ? "ok" : tx_status_name(ref.st), ncf);
    if (fail_k) {
        decode_again(data, size, &c);
        apply(cf[ncf - 1]);
        fz_op_run(&c, fail_k, live_before, false, &r);
    }
    apply(cf[0]); /* the next input's decoding runs at the usual thresholds */
    return 0;
}
