/* SPDX-License-Identifier: Apache-2.0 */
/* hash_probe.c -- the portable probe kernel of kernels/hash_probe.h, one key at a time. */
#include <string.h>

#include "kernels/hash_probe.h"

int64_t tx__probe32_scalar(const tx__slot32 *slots, unsigned bits, bool neg_zero,
                           const uint32_t *x, int64_t n, int32_t *ids) {
    const uint32_t mask = (uint32_t)((1ull << bits) - 1);
    for (int64_t i = 0; i < n; i++) {
        uint32_t k;
        memcpy(&k, x + i, sizeof k);
        if (neg_zero && k == 0x80000000u) k = 0;
        for (uint32_t s = tx__slot32_home(k, bits);; s = (s + 1) & mask) {
            if (slots[s].id < 0) return i;
            if (slots[s].key == k) {
                ids[i] = slots[s].id;
                break;
            }
        }
    }
    return n;
}
