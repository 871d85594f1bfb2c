/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm_probe.c -- checkasm's checks and benchmarks of unique's hash probe
 * (kernels/hash_probe.h) against a naive search of the table. */
#include "checkasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct probe_table {
    tx__slot32 *slots;
    unsigned bits;
    uint32_t *keys; /* the keys in the table, in insertion order (id = position) */
    int64_t used;
} probe_table;

/* The naive lookup: the key's id, walking from its home slot, or -1 at an empty slot. */
static int32_t naive_probe(const probe_table *t, uint32_t key, bool neg_zero) {
    if (neg_zero && key == 0x80000000u) key = 0;
    const uint32_t mask = (uint32_t)((1ull << t->bits) - 1);
    for (uint32_t s = (uint32_t)((key * 0x9E3779B1ull) & 0xFFFFFFFFu) >> (32 - t->bits);; s = (s + 1) & mask) {
        if (t->slots[s].id < 0) return -1;
        if (t->slots[s].key == key) return t->slots[s].id;
    }
}

static void probe_insert(probe_table *t, uint32_t key) {
    if (naive_probe(t, key, false) >= 0) return;
    const uint32_t mask = (uint32_t)((1ull << t->bits) - 1);
    uint32_t s = tx__slot32_home(key, t->bits);
    while (t->slots[s].id >= 0) s = (s + 1) & mask;
    t->slots[s] = (tx__slot32){key, (int32_t)t->used};
    t->keys[t->used++] = key;
}

/* Keys with a meaning of their own to the table (0xFFFFFFFF: the empty slots' key) or to floats
 * (-0.0, NaNs, infinity). */
static const uint32_t PROBE_SPECIAL[] = {0xFFFFFFFFu, 0x80000000u, 0, 1, 0x7FC00000u, 0xFFC00001u,
                                         0x7F800000u};

/* 2^bits slots holding `fill` keys: the special ones, with `cluster` 40 sharing one home slot
 * (long displaced runs), then random ones. */
static probe_table probe_table_new(unsigned bits, int64_t fill, bool cluster) {
    probe_table t = {xmalloc(sizeof(tx__slot32) << bits), bits, xmalloc((size_t)fill * 4 + 64), 0};
    for (size_t s = 0; s < (size_t)1 << bits; s++) t.slots[s] = (tx__slot32){(uint32_t)rnd(), -1};
    for (size_t i = 0; i < sizeof PROBE_SPECIAL / sizeof *PROBE_SPECIAL && t.used < fill; i++)
        probe_insert(&t, PROBE_SPECIAL[i]);
    const uint32_t home = (uint32_t)rnd() >> (32 - bits);
    for (int tries = 0; cluster && t.used < fill && t.used < 40 && tries < 1 << 22; tries++) {
        const uint32_t key = (uint32_t)rnd();
        if (tx__slot32_home(key, bits) == home) probe_insert(&t, key);
    }
    while (t.used < fill) probe_insert(&t, (uint32_t)rnd());
    return t;
}

/* A key the table lacks (with neg_zero: not -0.0 when 0 is there either). */
static uint32_t probe_absent(const probe_table *t) {
    for (;;) {
        const uint32_t key = (uint32_t)rnd();
        if (naive_probe(t, key, false) < 0 && naive_probe(t, key, true) < 0) return key;
    }
}

/* One call on keys[0, n), copied to `xmis` bytes past an aligned start and ending where its
 * block ends; the ids (4-byte aligned) have guards and noise after the stop. */
static bool probe_case(tx__probe32_fn fn, const probe_table *t, const uint32_t *keys, int64_t n,
                       bool neg_zero, size_t xmis, size_t imis) {
    unsigned char *xblock = xmalloc(xmis + (size_t)n * 4);
    memcpy(xblock + xmis, keys, (size_t)n * 4);
    const uint32_t *x = (const uint32_t *)(const void *)(xblock + xmis);
    dest d = dest_new((size_t)n * 4, imis);
    int64_t want = n;
    for (int64_t i = 0; i < n; i++) {
        const int32_t id = naive_probe(t, keys[i], neg_zero);
        if (id < 0) {
            want = i;
            break;
        }
        memcpy(d.want + 4 * i, &id, 4);
    }
    const int64_t got = fn(t->slots, t->bits, neg_zero, x, n, (int32_t *)(void *)d.got);
    char what[128];
    snprintf(what, sizeof what, "bits=%u keys=%lld n=%lld neg_zero=%d x_mis=%zu", t->bits,
             (long long)t->used, (long long)n, (int)neg_zero, xmis);
    bool ok = true;
    if (got != want) {
        fail("%s: stopped at %lld, want %lld", what, (long long)got, (long long)want);
        ok = false;
    }
    ok = dest_check(&d, what) && ok;
    free(xblock);
    return ok;
}

/* 2^bits slots with empty ones keyed 0xFFFFFFFF (a key that looks like an empty slot), holding
 * `fill` keys: the special ones first when `special`, then random ones, the first 40 of them
 * sharing one home slot when `cluster`. */
static probe_table probe_table_variant(unsigned bits, int64_t fill, bool special, bool cluster) {
    probe_table t = {xmalloc(sizeof(tx__slot32) << bits), bits,
                     xmalloc((size_t)fill * 4 + sizeof PROBE_SPECIAL), 0};
    for (size_t s = 0; s < (size_t)1 << bits; s++) t.slots[s] = (tx__slot32){0xFFFFFFFFu, -1};
    for (size_t i = 0; special && i < COUNT_OF(PROBE_SPECIAL) && t.used < fill; i++)
        probe_insert(&t, PROBE_SPECIAL[i]);
    const uint32_t home = (uint32_t)rnd() >> (32 - bits);
    while (t.used < fill) {
        const uint32_t key = (uint32_t)rnd();
        if (cluster && t.used < 40 && tx__slot32_home(key, bits) != home) continue;
        probe_insert(&t, key);
    }
    return t;
}

/* Tables of 2^4 .. 2^18 slots from one key to half full, with and without the special keys and
 * a cluster; runs of every length to 33 and random ones to 300, present keys with one absent key
 * in the later trials, -0.0 among them where 0 is in the table. */
static void check_probe_variants(tx__probe32_fn fn) {
    enum { MAXN = 300 };
    uint32_t keys[MAXN];
    for (unsigned bits = 4; bits <= 18; bits += 2) {
        const int64_t cap = (int64_t)1 << bits;
        const int64_t fills[] = {1, cap / 32 + 1, cap / 4, cap / 2};
        for (size_t f = 0; f < COUNT_OF(fills); f++)
            for (int variant = 0; variant < 3; variant++) {
                probe_table t = probe_table_variant(bits, fills[f], variant == 1, variant == 2);
                bool ok = true;
                for (int trial = 0; trial < 40 && ok; trial++) {
                    const int64_t n = trial < 34 ? trial : 1 + (int64_t)(rnd() % MAXN);
                    for (int64_t i = 0; i < n; i++) keys[i] = t.keys[rnd() % (uint64_t)t.used];
                    if (trial >= 20 && n > 0) keys[rnd() % (uint64_t)n] = probe_absent(&t);
                    if (variant == 1 && n > 3) keys[n / 2] = 0x80000000u;
                    for (int nz = 0; nz < 2 && ok; nz++)
                        ok = probe_case(fn, &t, keys, n, nz, (size_t)(trial % 4), 0);
                }
                free(t.slots);
                free(t.keys);
                if (!ok) return;
            }
    }
}

void check_probe32(const kernel *k) {
    tx__probe32_fn fn = (tx__probe32_fn)k->fn;
    check_probe_variants(fn);
    const unsigned bits_list[] = {4, 6, 10, 14, 18};
    uint32_t keys[1000];
    for (size_t bi = 0; bi < sizeof bits_list / sizeof *bits_list; bi++) {
        const unsigned bits = bits_list[bi];
        const int64_t size = (int64_t)1 << bits, fills[] = {1, size / 4, size / 2, size - 1};
        for (size_t fi = 0; fi < sizeof fills / sizeof *fills; fi++) {
            probe_table t = probe_table_new(bits, fills[fi], fi != 2);
            for (int neg_zero = 0; neg_zero < 2; neg_zero++) {
                /* present keys only: every count to three vectors of 16 keys, then longer */
                for (int64_t i = 0; i < 1000; i++) keys[i] = t.keys[rnd() % (uint64_t)t.used];
                for (int64_t n = 0; n <= 1000; n += n < 50 ? 1 : 317)
                    for (size_t xmis = 0; xmis < 4; xmis++)
                        if (!probe_case(fn, &t, keys, n, neg_zero, xmis, 4 * xmis)) goto next;
                /* one absent key at each position of 40 keys, and in a long run */
                for (int64_t p = 0; p < 40; p++) {
                    const uint32_t keep = keys[p];
                    keys[p] = probe_absent(&t);
                    if (!probe_case(fn, &t, keys, 40, neg_zero, (size_t)p % 4, 0)) goto next;
                    keys[p] = keep;
                }
                keys[777] = probe_absent(&t);
                if (!probe_case(fn, &t, keys, 1000, neg_zero, 1, 4)) goto next;
            }
        next:
            free(t.slots);
            free(t.keys);
        }
    }
}


typedef struct probe_args {
    const kernel *k;
    probe_table t;
    uint32_t *x;
    int32_t *ids;
    int64_t n;
} probe_args;

static void run_probe(void *p) {
    probe_args *a = p;
    int64_t at = ((tx__probe32_fn)a->k->fn)(a->t.slots, a->t.bits, false, a->x, a->n, a->ids);
    if (at != a->n) fprintf(stderr, "checkasm: %s stopped at %lld of %lld\n", a->k->name, (long long)at, (long long)a->n);
}

/* 1M lookups of present keys in tables half full of random keys, from L1-sized to far past the caches. */
void bench_probe32(const kernel *k) {
    const unsigned bits_list[] = {10, 16, 22};
    for (size_t b = 0; b < sizeof bits_list / sizeof *bits_list; b++) {
        probe_args a = {k, probe_table_new(bits_list[b], (int64_t)1 << (bits_list[b] - 1), false), NULL, NULL, 1 << 20};
        a.x = xmalloc((size_t)a.n * 4);
        a.ids = xmalloc((size_t)a.n * 4);
        for (int64_t i = 0; i < a.n; i++) a.x[i] = a.t.keys[rnd() % (uint64_t)a.t.used];
        char size[48];
        snprintf(size, sizeof size, "2^%u slots", bits_list[b]);
        bench_row(k, size, (double)a.n * 4, run_probe, &a);
        free(a.t.slots);
        free(a.t.keys);
        free(a.x);
        free(a.ids);
    }
}
