/* SPDX-License-Identifier: Apache-2.0 */
/* unique_strings.c -- tf.unique_with_counts of a string tensor: one open-addressing hash table
 * (linear probing) of twice the element count, keyed by a hash of each string's bytes, maps each
 * string to its position in y; strings compare by size and bytes (NUL is an ordinary byte).  The
 * op itself is unique.c. */
#include "ops/unique.h"

#include <inttypes.h>

typedef struct {
    uint64_t key; /* a hash of the string's bytes */
    int64_t id;   /* position in y; -1 = empty slot */
} slot_t;

typedef struct {
    slot_t *slots;
    uint64_t mask;
    unsigned shift;
    size_t bytes;
} table_t;

static tx_status table_init(const char *op, table_t *t, int64_t n) {
    uint64_t cap = 8;
    unsigned bits = 3;
    while (cap < 2 * (uint64_t)n) {
        cap <<= 1;
        bits++;
    }
    size_t bytes;
    if (cap > SIZE_MAX / sizeof(slot_t) || __builtin_mul_overflow((size_t)cap, sizeof(slot_t), &bytes))
        return tx__fail(TX_RESOURCE_EXHAUSTED, "%s: hash table of %" PRIu64 " slots is too large", op, cap);
    t->slots = tx__alloc(bytes, op);
    if (t->slots == NULL) return TX_RESOURCE_EXHAUSTED;
    for (uint64_t i = 0; i < cap; i++) t->slots[i].id = -1;
    t->mask = cap - 1;
    t->shift = 64 - bits;
    t->bytes = bytes;
    return TX_OK;
}

/* splitmix64's finaliser: every input bit affects every output bit. */
static inline uint64_t mix64(uint64_t h) {
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBull;
    h ^= h >> 31;
    return h;
}

static uint64_t hash_bytes(const char *p, uint64_t n) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = mix64(h ^ w);
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    if (n) memcpy(&w, p, (size_t)n); /* an empty record may hold a NULL pointer */
    return mix64(h ^ w ^ (n << 56));
}

/* One pass over x: a string the table lacks becomes value u, first seen at i. */
static int64_t scan_strings(const tx_tensor *x, table_t t, int32_t *first, void *idx, bool i64) {
    const tx_string *xv = (const tx_string *)x->data;
    const int64_t n = x->numel;
    int64_t u = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t k = hash_bytes(xv[i].data, xv[i].size);
        uint64_t s = k >> t.shift;
        int64_t found = -1;
        for (;; s = (s + 1) & t.mask) {
            slot_t *e = &t.slots[s];
            if (e->id < 0) {
                e->key = k;
                e->id = u;
                break;
            }
            const tx_string *y = &xv[first[e->id]];
            if (e->key == k && y->size == xv[i].size &&
                (y->size == 0 || memcmp(y->data, xv[i].data, (size_t)y->size) == 0)) {
                found = e->id;
                break;
            }
        }
        if (found >= 0) {
            tx__put_index(idx, i64, i, found);
        } else {
            first[u] = (int32_t)i;
            tx__put_index(idx, i64, i, u++);
        }
    }
    return u;
}

tx_status tx__unique_strings(const char *op, const tx_tensor *x, int32_t *first, void *idx,
                             bool i64, int64_t *u) {
    table_t t = {0};
    TX_TRY(table_init(op, &t, x->numel));
    *u = scan_strings(x, t, first, idx, i64);
    tx__free(t.slots, t.bytes);
    return TX_OK;
}
