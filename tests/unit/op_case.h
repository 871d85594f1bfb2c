/* SPDX-License-Identifier: Apache-2.0 */
/* op_case.h -- parses an op_example (op_examples.h) through the op spec into op_args, failing
 * the cmocka test on any error.  Shared by the tests that run every example op (test_oom,
 * test_plan); include after cmocka.h, opreg.h and op_examples.h. */
#ifndef TX_TESTS_OP_CASE_H
#define TX_TESTS_OP_CASE_H

#include "args.h"

static inline void parse_case(const op_example *c, op_args *a) {
    const op_def *d = op_find(c->op);
    if (!d) fail_msg("op '%s' is not in the CLI table", c->op);
    if (op_args_parse(a, d, opx_argc(c), c->args, NULL) != TX_OK) fail_msg("%s: %s", c->op, op_error());
}

#endif
