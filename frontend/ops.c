/* SPDX-License-Identifier: Apache-2.0 */
/* ops.c -- the op families of the op spec, in order.  One line per family;
 * each family's table lives in frontend/ops_<family>.c. */
#include "opreg.h"

#include <string.h>

extern const op_def tx_cli_ops_casting[];
extern const op_def tx_cli_ops_shapes[];
extern const op_def tx_cli_ops_slicing[];
extern const op_def tx_cli_ops_reorder[];
extern const op_def tx_cli_ops_spatial[];
extern const op_def tx_cli_ops_gather[];
extern const op_def tx_cli_ops_parsing[];

static const op_def *const families[] = {
    tx_cli_ops_casting, tx_cli_ops_shapes, tx_cli_ops_slicing, tx_cli_ops_reorder, tx_cli_ops_spatial,
     tx_cli_ops_gather, tx_cli_ops_parsing,
};

const op_def *op_at(size_t i) {
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        size_t n = 0;
        while (families[f][n].name) n++;
        if (i < n) return &families[f][i];
        i -= n;
    }
    return NULL;
}

const op_def *op_find(const char *name) {
    for (size_t i = 0;; i++) {
        const op_def *d = op_at(i);
        if (d == NULL || strcmp(d->name, name) == 0) return d;
    }
}
