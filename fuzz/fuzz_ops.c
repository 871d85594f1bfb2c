/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_ops.c -- the generic op fuzzer: every op in the op spec (frontend/ops_*.c), so every op of
 * the library as its family lands, called through its table run function with dtypes, shapes
 * (zero, negative, huge), attributes and tensors decoded from the input (opcodec.h), optionally
 * with the k-th allocation failing.  Checked for each call: a failure has a tensorx status and a
 * message, leaves every output NULL and is resource_exhausted when an allocation failed; a success
 * gives well-formed outputs that stay readable after the inputs are freed (string storage shared,
 * views holding their buffer); nothing leaks; the call's plan (size before run, TX_PLAN) agrees
 * with it: same status and message, or the same output dtypes, shapes and bytes.  In replay mode (the corpus as a ctest) every
 * allocation of every successful case is failed in turn as well. */
#define TX_EXPERIMENTAL_API /* tx_set_cpu_mask (tensorx.h) */
#include "oprun.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

/* Runs one decoded case with the fail_k-th allocation failing (0: none); frees the case.
 * Returns the number of allocations the run made, or -1 if it failed. */
static long run_case(fz_op_case *c, long fail_k, long live_before) {
    tx_set_cpu_mask((c->flags & 1) ? TX_ISA_SCALAR : (tx_isa_level)99);
    fz_op_outcome r;
    fz_op_run(c, fail_k, live_before, false, &r);
    return r.st == TX_OK ? r.allocs : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    long live_before = fz_alloc_live();
    fz_op_case c;
    if (!fz_op_decode(data, size, &c)) {
        if (fz_alloc_live() > live_before) fz_die("decoding leaked");
        return 0;
    }
    const char *name = c.def->name;
    long n = run_case(&c, c.fail_k, live_before);
    if (getenv("FZ_VERBOSE")) fprintf(stderr, "  %s: %s, %ld allocation(s)\n", name, n >= 0 ? "ok" : "error", n);
    if (!fz_replay_mode || c.fail_k || n <= 0) return 0;
    /* The allocation-failure sweep: each allocation of the successful run fails once. */
    for (long k = 1; k <= n; k++) {
        if (!fz_op_decode(data, size, &c)) fz_die("a case that decoded once did not decode again");
        run_case(&c, k, live_before);
    }
    return 0;
}
