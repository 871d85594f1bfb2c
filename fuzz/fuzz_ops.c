/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_ops.c -- the generic op fuzzer: every op in the CLI's table (tools/ops_*.c), so every op of
 * the library as its family lands, called through its table run function with dtypes, shapes
 * (zero, negative, huge), attributes and tensors decoded from the input (opcodec.h), optionally
 * with the k-th allocation failing.  Checked for each call: a failure has a tensorx status and a
 * message, leaves every output NULL and is resource_exhausted when an allocation failed; a success
 * gives well-formed outputs that stay readable after the inputs are freed (string storage shared,
 * views holding their buffer); nothing leaks; the call's plan (size before run, TX_PLAN) agrees
 * with it: same status and message, or the same output dtypes, shapes and bytes.  In replay mode (the corpus as a ctest) every
 * allocation of every successful case is failed in turn as well. */
#include "opcodec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runtime knobs that may not be in the library yet: used when they are. */
extern __typeof__(tx_set_cpu_mask) tx_set_cpu_mask __attribute__((weak));
extern __typeof__(tx_shutdown) tx_shutdown __attribute__((weak));

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

/* Runs one decoded case with the fail_k-th allocation failing (0: none); frees the case.
 * Returns the number of allocations the run made, or -1 if it failed. */
static long run_case(fz_op_case *c, long fail_k, long live_before) {
    const char *name = c->def->name;
    if (tx_set_cpu_mask) tx_set_cpu_mask((c->flags & 1) ? TX_ISA_SCALAR : (tx_isa_level)99);
    tx_clear_error();
    op_fail(TX_OK, "%s", "");
    op_outputs o = {0};
    /* Size before run: without failing allocations, the plan of the call must agree with it. */
    static op_plan_result plan;
    if (fail_k == 0) op_plan_run(c->def, &c->args, &plan);
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    fz_alloc_fail_at(fail_k);
    tx_status st = c->def->run(&c->args, &o);
    long n = fz_alloc_count();
    bool failed_alloc = fz_alloc_failed();
    fz_alloc_fail_at(0);
    char why[512];
    if (fail_k == 0 && !op_plan_agrees(&plan, st, &o, why, sizeof why))
        fz_die("%s: %s", name, why);
    if (st != TX_OK) {
        fz_check_failure(st, name, op_error());
        for (size_t i = 0; i < o.n; i++)
            if (o.t[i]) fz_die("%s: failed (%s: %s) but left output %zu set", name, tx_status_name(st), op_error(), i);
        if (failed_alloc && st != TX_RESOURCE_EXHAUSTED)
            fz_die("%s: allocation %ld failed but the op returned %s: %s", name, fail_k, tx_status_name(st), op_error());
    }
    /* Inputs go first: outputs must not depend on the input handles. */
    op_args_clear(&c->args);
    if (st == TX_OK) {
        char what[96];
        for (size_t i = 0; i < o.n; i++) {
            snprintf(what, sizeof what, "%s output %zu", name, i);
            fz_check_tensor(o.t[i], what);
        }
    }
    op_outputs_clear(&o);
    if (fz_alloc_live() > live_before && tx_shutdown) tx_shutdown();
    if (fz_alloc_live() > live_before)
        fz_die("%s: %ld block(s) leaked (fail_k %ld, status %s)", name, fz_alloc_live() - live_before, fail_k,
               tx_status_name(st));
    return st == TX_OK ? n : -1;
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
