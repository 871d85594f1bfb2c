/* SPDX-License-Identifier: Apache-2.0 */
/* gather.h -- helpers shared by the gather family's op files (gather.c, partition.c, encode.c;
 * spatial.c takes the out-of-range checks): TF-style index positions for messages, the bytes of the value 1 per dtype, and the
 * out-of-range policy checks. */
#ifndef TX_OPS_GATHER_H
#define TX_OPS_GATHER_H

#include "core/internal.h"

/* Capacity for a position string such as "[12,0,3]". */
#define TX_POS_STR_CAP 160

/* Writes the multi-index of row-major element `flat` of a tensor of shape dims as "[i,j,k]" (TF's
 * SliceDebugString), or "" for a scalar.  Long positions end with "...]".  Returns buf. */
TX_HIDDEN const char *tx__position(char *buf, size_t cap, size_t rank, const int64_t *dims,
                                   int64_t flat);

/* Writes the bytes of the value 1 of `dtype` (1.0 for floats, 1+0i for complex, true for bool) to
 * `one` (room for 16 bytes).  Returns false for string and unknown dtypes. */
TX_HIDDEN bool tx__one_value(tx_dtype dtype, void *one);

/* invalid_argument unless `oob` is one of the tx_oob_policy values. */
TX_HIDDEN tx_status tx__check_oob(const char *op, tx_oob_policy oob);

/* "error", "zero", "clamp" or "wrap". */
TX_HIDDEN const char *tx__oob_name(tx_oob_policy oob);

#endif
