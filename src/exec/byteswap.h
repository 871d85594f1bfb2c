/* SPDX-License-Identifier: Apache-2.0 */
/* byteswap.h -- the in-place byte swap of whole buffers (.npy data of the other byte order, mapped
 * files), run by the CPU level's byteswap kernels (kernels/cast.inc), the ones decode_raw uses:
 * tensorx has one byte swap for bulk data.  (core/byteorder.h keeps the swaps of single words.) */
#ifndef TX_EXEC_BYTESWAP_H
#define TX_EXEC_BYTESWAP_H

#include "dispatch/dispatch.h"

/* Reverses the bytes of each of the n units of `unit` bytes at p, in place; unit 1 leaves them,
 * and otherwise it is 2, 4 or 8 (a complex element is swapped as its two parts). */
static inline void tx__swap_units(void *p, size_t n, size_t unit) {
    if (unit < 2 || n == 0) return;
    assert(tx__swap_index(unit) >= 0);
    tx__kernels_get()->byteswap[tx__swap_index(unit)](p, p, (int64_t)n);
}

#endif
