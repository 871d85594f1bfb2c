/* SPDX-License-Identifier: Apache-2.0 */
/* test_probe_kernels.c -- the hash-probe kernels of tf.unique_with_counts (kernels/hash_probe.h),
 * checkasm-style: every SIMD kernel at every CPU level this machine has against the portable one
 * and against a naive search of the table, on tables of 2^4 .. 2^18 slots filled to loads from one
 * key up to one half, with runs of keys long and short (every tail length), present and absent
 * keys, the keys that look like an empty slot (0xFFFFFFFF) or -0.0 (0x80000000, with and without
 * neg_zero), NaN bit patterns, keys displaced far from home, and unaligned x.  Both kernels must
 * return the same position, give the same ids before it and write nothing at or after it. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "dispatch/dispatch.h"
#include "kernels/hash_probe.h"

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Keys with a meaning of their own in the table or to floats. */
static const uint32_t SPECIAL[] = {0xFFFFFFFFu, 0x80000000u, 0, 1, 0x7FC00000u, 0xFFC00001u, 0x7F800000u};
#define NSPECIAL (sizeof SPECIAL / sizeof *SPECIAL)

typedef struct {
    tx__slot32 *slots;
    unsigned bits;
    uint32_t *keys; /* the keys in the table, in insertion order (id = position) */
    int64_t used;
    tx__slot32 *sorted; /* {key, id} by key, for the naive search */
} table;

static void table_insert(table *t, uint32_t k) {
    const uint32_t mask = (uint32_t)((1ull << t->bits) - 1);
    for (uint32_t s = tx__slot32_home(k, t->bits);; s = (s + 1) & mask) {
        if (t->slots[s].id < 0) {
            t->slots[s].key = k;
            t->slots[s].id = (int32_t)t->used;
            t->keys[t->used++] = k;
            return;
        }
        if (t->slots[s].key == k) return;
    }
}

static int cmp_slot(const void *a, const void *b) {
    const uint32_t x = ((const tx__slot32 *)a)->key, y = ((const tx__slot32 *)b)->key;
    return x < y ? -1 : x > y;
}

/* A table of 2^bits slots with `fill` keys: random, the special keys when `special`, and (when
 * `cluster`) first 40 keys that share one home slot, so that lookups walk long displaced runs. */
static table table_make(unsigned bits, int64_t fill, bool special, bool cluster) {
    table t = {calloc((size_t)1 << bits, sizeof(tx__slot32)), bits, calloc((size_t)fill + NSPECIAL, 4), 0, NULL};
    assert_non_null(t.slots);
    assert_non_null(t.keys);
    for (size_t s = 0; s < (size_t)1 << bits; s++) t.slots[s] = (tx__slot32){0xFFFFFFFFu, -1};
    if (special)
        for (size_t i = 0; i < NSPECIAL && t.used < fill; i++) table_insert(&t, SPECIAL[i]);
    const uint32_t home = (uint32_t)rnd() >> (32 - bits);
    while (t.used < fill) {
        uint32_t k = (uint32_t)rnd();
        if (cluster && t.used < 40 && tx__slot32_home(k, bits) != home) continue;
        table_insert(&t, k);
    }
    t.sorted = malloc((size_t)t.used * sizeof *t.sorted);
    assert_non_null(t.sorted);
    for (int64_t i = 0; i < t.used; i++) t.sorted[i] = (tx__slot32){t.keys[i], (int32_t)i};
    qsort(t.sorted, (size_t)t.used, sizeof *t.sorted, cmp_slot);
    return t;
}

/* The naive reference, by binary search in the sorted keys: the id of k in t, or -1. */
static int32_t naive_id(const table *t, uint32_t k, bool neg_zero) {
    if (neg_zero && k == 0x80000000u) k = 0;
    const tx__slot32 want = {k, 0};
    const tx__slot32 *hit = bsearch(&want, t->sorted, (size_t)t->used, sizeof want, cmp_slot);
    return hit ? hit->id : -1;
}

#define SENTINEL 0x5A5A5A5A

/* One call of fn on x[0, n) (x is misaligned by `mis` bytes inside its block) against the portable
 * kernel and the naive search. */
static void check_call(tx__probe32_fn fn, const table *t, const uint32_t *keys, int64_t n,
                       bool neg_zero, size_t mis, const char *what) {
    unsigned char *block = malloc((size_t)n * 4 + mis + 1);
    assert_non_null(block);
    memcpy(block + mis, keys, (size_t)n * 4);
    const uint32_t *x = (const uint32_t *)(const void *)(block + mis);
    int32_t *a = malloc(((size_t)n + 1) * 4), *b = malloc(((size_t)n + 1) * 4);
    assert_non_null(a);
    assert_non_null(b);
    for (int64_t i = 0; i <= n; i++) a[i] = b[i] = SENTINEL;
    const int64_t ra = tx__probe32_scalar(t->slots, t->bits, neg_zero, x, n, a);
    const int64_t rb = fn(t->slots, t->bits, neg_zero, x, n, b);
    int64_t want = n;
    for (int64_t i = 0; i < n; i++) {
        const int32_t id = naive_id(t, keys[i], neg_zero);
        if (id < 0) {
            want = i;
            break;
        }
        if (a[i] != id) fail_msg("%s: scalar id %d for key %#x at %lld, want %d", what, a[i], keys[i], (long long)i, id);
    }
    if (ra != want) fail_msg("%s: scalar stopped at %lld, want %lld", what, (long long)ra, (long long)want);
    if (rb != want)
        fail_msg("%s: bits=%u n=%lld neg_zero=%d: stopped at %lld, want %lld", what, t->bits,
                 (long long)n, (int)neg_zero, (long long)rb, (long long)want);
    if (memcmp(a, b, ((size_t)n + 1) * 4) != 0) {
        int64_t i = 0;
        while (a[i] == b[i]) i++;
        fail_msg("%s: bits=%u n=%lld: id %d at %lld, the scalar kernel gives %d (%s)", what, t->bits,
                 (long long)n, b[i], (long long)i, a[i], i >= want ? "written past the stop" : "wrong id");
    }
    free(block);
    free(a);
    free(b);
}

/* The SIMD probe kernels this CPU has (one per level above scalar whose entry is not the scalar
 * kernel). */
static int simd_kernels(tx__probe32_fn *fn, const char **name) {
    int n = 0;
    for (int l = TX_ISA_AVX2; l <= (int)tx_cpu_detected_level(); l++) {
        tx__probe32_fn f = tx__kernels_at((tx_isa_level)l)->probe32;
        if (f != tx__probe32_scalar && (n == 0 || fn[n - 1] != f)) {
            fn[n] = f;
            name[n++] = tx_isa_level_name((tx_isa_level)l);
        }
    }
    return n;
}

static void test_probe_matches_scalar(void **state) {
    (void)state;
    tx__probe32_fn fns[4];
    const char *names[4];
    const int nk = simd_kernels(fns, names);
    if (nk == 0) {
        print_message("no SIMD probe kernel on this CPU/build: the portable kernel is checked alone\n");
        fns[0] = tx__probe32_scalar;
        names[0] = "scalar";
    }
    enum { MAXN = 300 };
    uint32_t keys[MAXN];
    for (unsigned bits = 4; bits <= 18; bits += 2) {
        const int64_t cap = (int64_t)1 << bits;
        const int64_t fills[] = {1, cap / 32 + 1, cap / 4, cap / 2};
        for (size_t f = 0; f < 4; f++) {
            for (int variant = 0; variant < 3; variant++) {
                table t = table_make(bits, fills[f], variant == 1, variant == 2);
                for (int trial = 0; trial < 40; trial++) {
                    const int64_t n = trial < 34 ? trial : 1 + (int64_t)(rnd() % MAXN);
                    /* Mostly present keys; trials >= 20 put one absent key somewhere. */
                    for (int64_t i = 0; i < n; i++) keys[i] = t.keys[rnd() % (uint64_t)t.used];
                    if (trial >= 20 && n > 0) {
                        uint32_t absent;
                        do absent = (uint32_t)rnd();
                        while (naive_id(&t, absent, true) >= 0 || naive_id(&t, absent, false) >= 0);
                        keys[rnd() % (uint64_t)n] = absent;
                    }
                    /* -0.0 where 0 is in the table: found with neg_zero, absent without (unless
                     * 0x80000000 itself is in) */
                    if (variant == 1 && n > 3) keys[n / 2] = 0x80000000u;
                    for (int k = 0; k < (nk ? nk : 1); k++)
                        for (int nz = 0; nz < 2; nz++)
                            check_call(fns[k], &t, keys, n, nz, (size_t)(trial % 4), names[k]);
                }
                free(t.slots);
                free(t.keys);
                free(t.sorted);
            }
        }
    }
}

/* The dispatch table holds the AVX-512 kernel at that level when the CPU has it, and the portable
 * one below it. */
static void test_probe_dispatch(void **state) {
    (void)state;
    assert_ptr_equal(tx__kernels_at(TX_ISA_SCALAR)->probe32, tx__probe32_scalar);
    assert_ptr_equal(tx__kernels_at(TX_ISA_AVX2)->probe32, tx__probe32_scalar);
#ifdef TX_HAVE_X86_SIMD
    if (tx_cpu_detected_level() >= TX_ISA_AVX512)
        assert_ptr_equal(tx__kernels_at(TX_ISA_AVX512)->probe32, tx__probe32_avx512);
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probe_matches_scalar),
        cmocka_unit_test(test_probe_dispatch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
