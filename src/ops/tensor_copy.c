/* SPDX-License-Identifier: Apache-2.0 */
/* tensor_copy.c -- tx_tensor_copy, the deep copy of a tensor: checks its arguments, makes the
 * output and hands the bytes to the generic copy (exec/copy.h). */
#include "core/internal.h"
#include "exec/copy.h"

tx_status tx_tensor_copy(const tx_tensor *t, tx_tensor **out) {
    TX_REQUIRE_OUT("tensor_copy", out);
    *out = NULL;
    TX_REQUIRE_TENSOR("tensor_copy", t, "t");
    tx_tensor *c;
    TX_TRY(tx__tensor_alloc("tensor_copy", t->dtype, t->rank, t->dims, &c));
    /* The generic copy: large blocks go over the thread pool with streaming stores. */
    const int64_t n = (int64_t)t->nbytes, one = 1;
    if (n > 0) tx__copy_nd(c->data, t->data, 1, &n, &one, &one, 1);
    tx_status st = tx__share_strings(c, t);
    if (st != TX_OK) {
        tx_tensor_free(c);
        return st;
    }
    *out = c;
    return TX_OK;
}
