/* SPDX-License-Identifier: Apache-2.0 */
/* oprun.h -- one checked call of a decoded op case, shared by the op fuzzers (fuzz_ops.c,
 * fuzz_ops_diff.c), and the comparison of two calls' results (fuzz_ops_diff.c, the stress test). */
#ifndef TX_FUZZ_OPRUN_H
#define TX_FUZZ_OPRUN_H

#include "opcodec.h"

typedef struct fz_op_outcome {
    tx_status st;
    char msg[512];  /* the failure's message (op_error()); "" on success */
    long allocs;    /* allocations the run made */
    op_outputs out; /* the outputs, when the run was asked to keep them and succeeded */
} fz_op_outcome;

/* Runs case c at the CPU level and thread count in force, with the fail_k-th allocation failing
 * (0: none), and checks it (fz_die on a broken invariant): without a failing allocation its plan
 * (TX_PLAN) agrees with it; a failure has a tensorx status and a message, leaves every output NULL
 * and is resource_exhausted when the allocation failed; then the case's inputs are freed and every
 * byte and string of every output is read.  With keep, a success's outputs go to r->out (free them
 * with op_outputs_clear, then call fz_op_check_leaks); otherwise they are freed and nothing the
 * call allocated may be alive (more than live_before blocks). */
void fz_op_run(fz_op_case *c, long fail_k, long live_before, bool keep, fz_op_outcome *r);

/* No more than live_before blocks are alive; if there are more, what the library keeps between
 * calls is given back first (tx_shutdown). */
void fz_op_check_leaks(const char *name, long live_before, long fail_k, tx_status st);

/* Whether two results are the same: status and message, or the same outputs (dtype, shape and
 * every byte, NaN payloads included; strings by content).  If not, says how in why[cap]. */
bool fz_op_same(tx_status sa, const char *ma, const op_outputs *a, tx_status sb, const char *mb,
                const op_outputs *b, char *why, size_t cap);

#endif
