/* SPDX-License-Identifier: Apache-2.0 */
/* spatial.h -- the argument checks of src/ops/spatial.c that src/ops/space_paddings.c shares. */
#ifndef TX_OPS_SPATIAL_H
#define TX_OPS_SPATIAL_H

#include "core/internal.h"

/* t present and int32 or int64; another dtype is unimplemented (TF 2.21 decides: its op
 * definitions list int32 and int64 only, and it refuses another dtype before any kernel check). */
TX_HIDDEN tx_status tx__check_int_tensor(const char *op, const char *what, const tx_tensor *t);
/* t an int32/int64 matrix of shape [m, 2]. */
TX_HIDDEN tx_status tx__check_pairs(const char *op, const char *what, const tx_tensor *t,
                                    int64_t m);

#endif
