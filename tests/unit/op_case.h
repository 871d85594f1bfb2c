/* SPDX-License-Identifier: Apache-2.0 */
/* op_case.h -- parses an op_example (op_examples.h) through the CLI's op table into op_args,
 * failing the cmocka test on any error.  Shared by the tests that run every example op
 * (test_oom, test_plan); include after cmocka.h, opreg.h and op_examples.h. */
#ifndef TX_TESTS_OP_CASE_H
#define TX_TESTS_OP_CASE_H

#include <string.h>

static inline void parse_case(const op_example *c, op_args *a) {
    memset(a, 0, sizeof *a);
    a->def = op_find(c->op);
    if (!a->def) fail_msg("op '%s' is not in the CLI table", c->op);
    for (size_t i = 0; i < OPX_MAX_ARGS && c->args[i]; i++) {
        const char *eq = strchr(c->args[i], '=');
        if (!eq) fail_msg("%s: '%s' is not name=value", c->op, c->args[i]);
        size_t k;
        for (k = 0; k < OP_MAX_PARAMS && a->def->params[k].name; k++)
            if (strlen(a->def->params[k].name) == (size_t)(eq - c->args[i]) &&
                !strncmp(a->def->params[k].name, c->args[i], (size_t)(eq - c->args[i])))
                break;
        if (k == OP_MAX_PARAMS || !a->def->params[k].name) fail_msg("%s: no argument '%s'", c->op, c->args[i]);
        if (op_parse_value(&a->def->params[k], eq + 1, &a->v[k]) != TX_OK)
            fail_msg("%s: cannot parse '%s': %s", c->op, c->args[i], op_error());
    }
    if (op_args_finish(a) != TX_OK) fail_msg("%s: %s", c->op, op_error());
}

#endif
