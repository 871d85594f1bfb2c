/* SPDX-License-Identifier: Apache-2.0 */
/* hash_probe.h -- the lookup at the heart of tf.unique_with_counts (src/ops/unique_numeric.c) for
 * keys of up to 4 bytes: a linear-probing hash table of 8-byte slots, looked up for a whole block
 * of keys at once.  The portable kernel is src/kernels/scalar/hash_probe.c; the AVX-512 one
 * (src/kernels/x86/avx512/hash_probe.c) hashes 16 keys per step and fetches their home slots with
 * two gathers.  Both give the same ids and stop at the same key. */
#ifndef TX_KERNELS_HASH_PROBE_H
#define TX_KERNELS_HASH_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/internal.h"

/* One slot: a key and its id; id < 0 marks an empty slot (whatever its key). */
typedef struct tx__slot32 {
    uint32_t key;
    int32_t id;
} tx__slot32;

/* A key's home slot in a table of 2^bits slots (1 <= bits <= 32): Fibonacci hashing, whose top
 * bits every key bit reaches.  Probing goes on at home + 1, + 2, ... modulo the table size. */
static inline uint32_t tx__slot32_home(uint32_t key, unsigned bits) {
    return (uint32_t)(key * 0x9E3779B1u) >> (32 - bits);
}

/* Looks up x[0, n) in `slots` (2^bits slots, at least one of them empty; 1 <= bits <= 32): each
 * key from its home slot until a slot holding it or an empty slot.  With neg_zero the key
 * 0x80000000 (float32 -0.0) is looked up as 0.
 * ids[i] receives the id of x[i] while the table has every key up to i; the return value is the
 * position of the first key the table lacks (n when it has them all).  x may be unaligned. */
typedef int64_t tx__probe32_ft(const tx__slot32 *slots, unsigned bits, bool neg_zero,
                               const uint32_t *x, int64_t n, int32_t *ids);
typedef tx__probe32_ft *tx__probe32_fn;

/* The kernels, one line each in kernels/hash_probe.inc. */
#define TX__KERNEL(level, slot, width, fn) TX_HIDDEN tx__##slot##_ft fn;
#include "kernels/hash_probe.inc"
#undef TX__KERNEL

#endif
