/* SPDX-License-Identifier: Apache-2.0 */
/* test_alloc.c -- the default allocator's large-block path (src/core/alloc.c): reuse of freed
 * blocks of the same size class, the byte bound and its eviction, tx_shutdown, custom allocators
 * bypassing the cache, alignment, data integrity through reuse, concurrent use, and allocation
 * failure staying resource_exhausted.  (Speed is measured by bench/, never asserted here.) */
#define TX_EXPERIMENTAL_API /* the allocation cache and its counters (tensorx.h) */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
/* The failure test asks for more memory than exists: ASan must then return NULL, not abort. */
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
#endif

#define MIB ((size_t)1 << 20)

static tx_alloc_stats stats(void) {
    tx_alloc_stats s = TX_ALLOC_STATS_INIT;
    assert_int_equal(tx_alloc_stats_get(&s), TX_OK);
    assert_int_equal(s.struct_size, sizeof s);
    return s;
}

static void reuse_same_class(void **state) {
    (void)state;
    tx_shutdown();
    const tx_allocator *a = tx_default_allocator();
    assert_non_null(a);
    tx_alloc_stats s0 = stats();
    assert_int_equal(s0.cached_blocks, 0);
    void *p = a->alloc(8 * MIB, 64, a->ctx);
    assert_non_null(p);
    memset(p, 1, 8 * MIB);
    a->free(p, 8 * MIB, a->ctx);
    tx_alloc_stats s1 = stats();
    assert_int_equal(s1.cached_blocks, 1);
    assert_true(s1.cached_bytes >= 8 * MIB);
    assert_int_equal(s1.large_allocs, s0.large_allocs + 1);
    /* the same class (a little smaller) gets the same block back */
    void *q = a->alloc(8 * MIB - 100, 64, a->ctx);
    assert_ptr_equal(q, p);
    tx_alloc_stats s2 = stats();
    assert_int_equal(s2.cache_hits, s1.cache_hits + 1);
    assert_int_equal(s2.cached_blocks, 0);
    /* another class does not */
    void *r = a->alloc(20 * MIB, 64, a->ctx);
    assert_non_null(r);
    assert_int_equal(stats().cache_hits, s2.cache_hits);
    a->free(q, 8 * MIB - 100, a->ctx);
    a->free(r, 20 * MIB, a->ctx);
    assert_int_equal(stats().cached_blocks, 2);
    tx_shutdown();
    assert_int_equal(stats().cached_blocks, 0);
    assert_int_equal(stats().cached_bytes, 0);
}

static void bound_and_eviction(void **state) {
    (void)state;
    tx_shutdown();
    const tx_allocator *a = tx_default_allocator();
    size_t old = tx_alloc_cache_bytes();
    assert_true(old > 0);
    tx_set_alloc_cache_bytes(20 * MIB);
    assert_int_equal(tx_alloc_cache_bytes(), 20 * MIB);
    void *b[4];
    for (int i = 0; i < 4; i++) {
        b[i] = a->alloc(8 * MIB, 64, a->ctx);
        assert_non_null(b[i]);
    }
    for (int i = 0; i < 4; i++) a->free(b[i], 8 * MIB, a->ctx);
    tx_alloc_stats s = stats();
    assert_true(s.cached_bytes <= 20 * MIB);
    assert_int_equal(s.cached_blocks, 2); /* the two newest */
    /* a block larger than the bound is released at once */
    void *big = a->alloc(40 * MIB, 64, a->ctx);
    assert_non_null(big);
    a->free(big, 40 * MIB, a->ctx);
    assert_int_equal(stats().cached_blocks, 2);
    /* lowering the bound evicts; 0 disables the cache */
    tx_set_alloc_cache_bytes(0);
    assert_int_equal(stats().cached_blocks, 0);
    void *c = a->alloc(8 * MIB, 64, a->ctx);
    a->free(c, 8 * MIB, a->ctx);
    assert_int_equal(stats().cached_blocks, 0);
    tx_set_alloc_cache_bytes(old);
    /* many small-class blocks: the slot count is bounded too */
    void *m[80];
    for (int i = 0; i < 80; i++) {
        m[i] = a->alloc(MIB + (size_t)i, 64, a->ctx);
        assert_non_null(m[i]);
    }
    for (int i = 0; i < 80; i++) a->free(m[i], MIB + (size_t)i, a->ctx);
    assert_true(stats().cached_blocks <= 64);
    tx_shutdown();
}

static void alignment_and_small_blocks(void **state) {
    (void)state;
    const tx_allocator *a = tx_default_allocator();
    const size_t sizes[] = {1, 63, 4096, MIB - 1, MIB, 3 * MIB + 5, 5 * MIB};
    const size_t aligns[] = {1, 8, 16, 32, 64, 256, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t j = 0; j < sizeof aligns / sizeof *aligns; j++) {
            for (int rep = 0; rep < 2; rep++) { /* the second one may come from the cache */
                unsigned char *p = a->alloc(sizes[i], aligns[j], a->ctx);
                assert_non_null(p);
                assert_int_equal((uintptr_t)p % aligns[j], 0);
                p[0] = 1;
                p[sizes[i] - 1] = 2;
                a->free(p, sizes[i], a->ctx);
            }
        }
    tx_shutdown();
}

/* Tensors made, filled, freed and made again: reused memory holds what the new owner writes, and
 * tx_tensor_new still zero-fills it. */
static void tensors_through_the_cache(void **state) {
    (void)state;
    tx_shutdown();
    const int64_t dims[1] = {3 << 20}; /* 12 MiB of float32 */
    for (int round = 0; round < 4; round++) {
        tx_tensor *t = NULL;
        assert_int_equal(tx_tensor_new(TX_INT32, 1, dims, &t), TX_OK);
        int32_t *d = tx_tensor_data(t);
        for (int64_t i = 0; i < dims[0]; i += 4099) assert_int_equal(d[i], 0);
        for (int64_t i = 0; i < dims[0]; i++) d[i] = (int32_t)(i * 3 + round);
        tx_tensor *c = NULL;
        assert_int_equal(tx_tensor_copy(t, &c), TX_OK);
        assert_memory_equal(tx_tensor_data(c), d, tx_tensor_nbytes(t));
        tx_tensor_free(t);
        tx_tensor_free(c);
    }
    assert_true(stats().cache_hits > 0);
    tx_shutdown();
}

/* A custom allocator sees every request; the cache is not involved. */
static long custom_allocs, custom_frees;
static void *counting_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    custom_allocs++;
    void *p = NULL;
    return posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) ? NULL : p;
}
static void counting_free(void *p, size_t size, void *ctx) {
    (void)size;
    (void)ctx;
    custom_frees++;
    free(p);
}

static void custom_allocator_bypasses_cache(void **state) {
    (void)state;
    tx_shutdown();
    tx_alloc_stats s0 = stats();
    const tx_allocator mine = {counting_alloc, counting_free, NULL};
    tx_set_allocator(&mine);
    const int64_t dims[1] = {4 << 20};
    for (int i = 0; i < 3; i++) {
        tx_tensor *t = NULL;
        assert_int_equal(tx_tensor_new(TX_UINT8, 1, dims, &t), TX_OK);
        tx_tensor_free(t);
    }
    tx_set_allocator(NULL);
    tx_alloc_stats s1 = stats();
    assert_int_equal(s1.large_allocs, s0.large_allocs);
    assert_int_equal(s1.cached_blocks, 0);
    assert_true(custom_allocs >= 3);
    assert_int_equal(custom_allocs, custom_frees);
}

static void failure_is_resource_exhausted(void **state) {
    (void)state;
    /* More than any machine has (and than the address space allows with the class rounding). */
    const int64_t dims[2] = {(int64_t)1 << 30, (int64_t)1 << 26}; /* 2^56 bytes */
    tx_tensor *t = (tx_tensor *)&t;
    tu_assert_error(tx_tensor_new(TX_UINT8, 2, dims, &t), TX_RESOURCE_EXHAUSTED, "out of memory");
    assert_null(t);
    /* the cache still works afterwards */
    const int64_t ok[1] = {2 << 20};
    assert_int_equal(tx_tensor_new(TX_UINT8, 1, ok, &t), TX_OK);
    tx_tensor_free(t);
    tx_shutdown();
}

typedef struct worker_arg {
    int id;
    int bad;
} worker_arg;

static void *worker(void *arg) {
    worker_arg *w = arg;
    const tx_allocator *a = tx_default_allocator();
    for (int i = 0; i < 60; i++) {
        size_t n = ((size_t)1 + (size_t)((i + w->id) % 3)) * 2 * MIB;
        unsigned char *p = a->alloc(n, 64, a->ctx);
        if (p == NULL) {
            w->bad++;
            continue;
        }
        unsigned char tag = (unsigned char)(w->id * 31 + i);
        memset(p, tag, n);
        for (size_t k = 0; k < n; k += 4096)
            if (p[k] != tag) w->bad++;
        a->free(p, n, a->ctx);
    }
    return NULL;
}

static void concurrent_alloc_free(void **state) {
    (void)state;
    enum { N = 4 };
    pthread_t th[N];
    worker_arg args[N];
    for (int i = 0; i < N; i++) {
        args[i].id = i;
        args[i].bad = 0;
        assert_int_equal(pthread_create(&th[i], NULL, worker, &args[i]), 0);
    }
    for (int i = 0; i < N; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < N; i++) assert_int_equal(args[i].bad, 0);
    assert_true(stats().cached_bytes <= tx_alloc_cache_bytes());
    tx_shutdown();
}

/* tx_alloc_stats is grow-safe: NULL and a struct_size the library does not know are refused,
 * naming the argument, and nothing is written. */
static void stats_struct_size(void **state) {
    (void)state;
    tu_assert_error(tx_alloc_stats_get(NULL), TX_INVALID_ARGUMENT, "alloc_stats: stats is NULL");
    const size_t bad[] = {0, sizeof(tx_alloc_stats) - 8, sizeof(tx_alloc_stats) + 8};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        tx_alloc_stats s;
        memset(&s, 0x5A, sizeof s);
        s.struct_size = bad[i];
        tu_assert_error(tx_alloc_stats_get(&s), TX_INVALID_ARGUMENT,
                        "alloc_stats: stats->struct_size is");
        assert_non_null(strstr(tx_last_error(), "TX_ALLOC_STATS_INIT"));
        assert_int_equal(s.cache_hits, 0x5A5A5A5A5A5A5A5Aull);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reuse_same_class),
        cmocka_unit_test(bound_and_eviction),
        cmocka_unit_test(alignment_and_small_blocks),
        cmocka_unit_test(tensors_through_the_cache),
        cmocka_unit_test(custom_allocator_bypasses_cache),
        cmocka_unit_test(failure_is_resource_exhausted),
        cmocka_unit_test(concurrent_alloc_free),
        cmocka_unit_test(stats_struct_size),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    tx_shutdown();
    return rc;
}
