/* SPDX-License-Identifier: Apache-2.0 */
/* test_unique.c -- unique_with_counts: the examples of TF's page, floats (-0.0 and NaN), every
 * other dtype, bool bytes other than 0 and 1, the per-thread chunks at 1-5 threads, allocation
 * failures, and every error with its status and message. */
#include "gather_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers --------------------------------------------------------------------------------- */

static tx_tensor *half_tensor(size_t n, const uint16_t *bits) {
    int64_t d = (int64_t)n;
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT16, 1, &d, bits, n * 2, &t), TX_OK);
    return t;
}

/* ---- unique_with_counts ---------------------------------------------------------------------- */

static void unique3(tx_tensor *x, tx_dtype out_idx, tx_tensor **outs) {
    assert_int_equal(tx_unique_with_counts(x, out_idx, outs), TX_OK);
    tx_tensor_free(x);
}

static void free3(tx_tensor **outs) {
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
}

static void test_unique_page_examples(void **state) {
    (void)state;
    tx_tensor *outs[3];
    for (int w = 0; w < 2; w++) {
        tx_dtype oi = w ? TX_INT64 : TX_INT32;
        unique3(T32(1, TU_DIMS(9), 1, 1, 2, 4, 4, 4, 7, 8, 8), oi, outs);
        tu_assert_shape(outs[0], TX_INT32, 1, TU_DIMS(5));
        tu_assert_values(outs[0], TU_VALS(1, 2, 4, 7, 8));
        tu_assert_shape(outs[1], oi, 1, TU_DIMS(9));
        tu_assert_values(outs[1], TU_VALS(0, 0, 1, 2, 2, 2, 3, 4, 4));
        tu_assert_shape(outs[2], oi, 1, TU_DIMS(5));
        tu_assert_values(outs[2], TU_VALS(2, 1, 3, 1, 2));
        free3(outs);
    }
    /* First-occurrence order, not sorted. */
    unique3(T64(1, TU_DIMS(6), 9, -3, 9, 5, -3, 0), TX_INT32, outs);
    tu_assert_values(outs[0], TU_VALS(9, -3, 5, 0));
    tu_assert_values(outs[1], TU_VALS(0, 1, 0, 2, 1, 3));
    tu_assert_values(outs[2], TU_VALS(2, 2, 1, 1));
    free3(outs);
}

static void test_unique_floats(void **state) {
    (void)state;
    tx_tensor *outs[3];
    /* float32: -0.0 == 0.0 (one value, the first seen kept); each NaN is its own value. */
    unique3(TF32(1, TU_DIMS(6), 0.0, -0.0, NAN, 1.0, NAN, -0.0), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_FLOAT32, 1, TU_DIMS(4));
    tu_assert_values(outs[0], TU_VALS(0.0, NAN, 1.0, NAN));
    assert_false(signbit(((float *)tx_tensor_data(outs[0]))[0]));
    tu_assert_values(outs[1], TU_VALS(0, 0, 1, 2, 3, 0));
    tu_assert_values(outs[2], TU_VALS(3, 1, 1, 1));
    free3(outs);
    unique3(tu_tensor(TX_FLOAT64, 1, TU_DIMS(3), TU_VALS(-0.0, 0.0, 2.5)), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_FLOAT64, 1, TU_DIMS(2));
    assert_true(signbit(((double *)tx_tensor_data(outs[0]))[0]));
    tu_assert_values(outs[2], TU_VALS(2, 1));
    free3(outs);
    /* float16 keys hash by bit pattern in TF (Eigen's std::hash), so -0.0 and 0.0 stay apart. */
    const uint16_t h[] = {0x0000, 0x8000, 0x7E00, 0x7E00, 0x3C00, 0x8000};
    unique3(half_tensor(6, h), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_FLOAT16, 1, TU_DIMS(5));
    const uint16_t want[] = {0x0000, 0x8000, 0x7E00, 0x7E00, 0x3C00};
    assert_memory_equal(tx_tensor_data(outs[0]), want, sizeof want);
    tu_assert_values(outs[1], TU_VALS(0, 1, 2, 3, 4, 1));
    free3(outs);
}

static void test_unique_other_dtypes(void **state) {
    (void)state;
    tx_tensor *outs[3];
    unique3(tu_strings(1, TU_DIMS(6), STRS("a", "b", "a", "", "", "ab")), TX_INT32, outs);
    assert_strings(outs[0], STRS("a", "b", "", "ab"));
    tu_assert_values(outs[1], TU_VALS(0, 1, 0, 2, 2, 3));
    tu_assert_values(outs[2], TU_VALS(2, 1, 2, 1));
    free3(outs);
    unique3(TB(1, TU_DIMS(3), 1, 0, 1), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_BOOL, 1, TU_DIMS(2));
    tu_assert_values(outs[0], TU_VALS(1, 0));
    free3(outs);
    const uint64_t u[] = {1ull << 63, 1, 1ull << 63};
    tx_tensor *x = NULL;
    assert_int_equal(tx_tensor_from_data(TX_UINT64, 1, TU_DIMS(3), u, sizeof u, &x), TX_OK);
    unique3(x, TX_INT64, outs);
    assert_memory_equal(tx_tensor_data(outs[0]), u, 16);
    free3(outs);
    /* Empty input. */
    unique3(tu_tensor(TX_INT16, 1, TU_DIMS(0), NULL), TX_INT32, outs);
    tu_assert_shape(outs[0], TX_INT16, 1, TU_DIMS(0));
    tu_assert_shape(outs[1], TX_INT32, 1, TU_DIMS(0));
    tu_assert_shape(outs[2], TX_INT32, 1, TU_DIMS(0));
    free3(outs);
    /* Many values with collisions in the table: compare with a direct first-occurrence map. */
    enum { N = 20000 };
    x = tu_tensor(TX_INT32, 1, TU_DIMS(N), NULL);
    int32_t *xv = tx_tensor_data(x);
    uint32_t r = 12345;
    for (int i = 0; i < N; i++) {
        r = r * 1103515245u + 12345u;
        xv[i] = (int32_t)((r >> 8) % 3000) * 65536 - 7;
    }
    int32_t seen[3000];
    memset(seen, 0xFF, sizeof seen);
    int32_t want_idx[N], nu = 0;
    for (int i = 0; i < N; i++) {
        int32_t key = (xv[i] + 7) / 65536;
        if (seen[key] < 0) seen[key] = nu++;
        want_idx[i] = seen[key];
    }
    assert_int_equal(tx_unique_with_counts(x, TX_INT32, outs), TX_OK);
    assert_int_equal(tx_tensor_numel(outs[0]), nu);
    assert_memory_equal(tx_tensor_data(outs[1]), want_idx, sizeof want_idx);
    for (int i = 0; i < N; i++) assert_int_equal(((int32_t *)tx_tensor_data(outs[0]))[want_idx[i]], xv[i]);
    free3(outs);
    tx_tensor_free(x);
}

/* Large inputs go through per-thread tables merged in thread order: the result must be TF's
 * first-occurrence order and identical bytes for every thread count, whether the values are few
 * (runs and scattered), many (tables grow while scanning and at the merge), floats with -0.0
 * and NaNs, or values that first appear only after the seed that chunk 0 scans alone (`late`:
 * the first half of x holds half of the values, so later chunks meet new ones and need their
 * idx rewritten).  Integer keys include -1 / 0xFFFFFFFF, the bytes of an empty table slot. */
static uint64_t uq_mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    return x;
}

static void test_unique_thread_counts(void **state) {
    (void)state;
    enum { N = 300000 };
    static const struct {
        tx_dtype dtype, out_idx;
        int64_t distinct; /* 0: runs of 1000 equal values */
        bool late;
    } cases[] = {
        {TX_INT32, TX_INT32, 1000}, {TX_INT64, TX_INT64, 200000}, {TX_UINT8, TX_INT32, 256},
        {TX_INT16, TX_INT64, 5000}, {TX_INT32, TX_INT32, 0},      {TX_FLOAT32, TX_INT32, 3000},
        {TX_FLOAT64, TX_INT64, 70000},
        /* keys below 65536 take the direct-mapped table, the others the hash, in one input; the
         * table grows past the parallel limit, so one thread takes over */
        {TX_UINT32, TX_INT32, 100000},
        {TX_INT32, TX_INT64, 1000, true}, {TX_FLOAT32, TX_INT32, 400, true}, {TX_UINT32, TX_INT32, 64, true},
        {TX_INT16, TX_INT32, 3000, true},
    };
    int32_t *key = malloc(N * sizeof *key), *seen = malloc(N * sizeof *seen), *want = malloc(N * sizeof *want);
    assert_non_null(key);
    assert_non_null(seen);
    assert_non_null(want);
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const int64_t n = N;
        tx_tensor *x = NULL;
        assert_int_equal(tx_tensor_new(cases[c].dtype, 1, &n, &x), TX_OK);
        const int is_float = cases[c].dtype == TX_FLOAT32 || cases[c].dtype == TX_FLOAT64;
        for (int64_t i = 0; i < n; i++) {
            const int64_t d = cases[c].late && i < n / 2 ? cases[c].distinct / 2 : cases[c].distinct;
            int64_t j = d ? (int64_t)(uq_mix((uint64_t)i + 77 * c) % (uint64_t)d) : i / 1000;
            /* floats: key 1 is -0.0 (equal to key 0, 0.0) and key 2 a NaN (never equal) */
            double v = j == 0 ? 0.0 : j == 1 ? -0.0 : j == 2 ? NAN : (double)j * 1.5 - 700.0;
            if (is_float && j == 2) key[i] = -1 - (int32_t)i;
            else key[i] = is_float && j == 1 ? 0 : (int32_t)j;
            switch (cases[c].dtype) {
            case TX_INT32: ((int32_t *)tx_tensor_data(x))[i] = j == 5 ? -1 : (int32_t)(j * 40503 - 9999); break;
            case TX_INT64: ((int64_t *)tx_tensor_data(x))[i] = (int64_t)uq_mix((uint64_t)j); break; /* a bijection */
            case TX_UINT8: ((uint8_t *)tx_tensor_data(x))[i] = (uint8_t)j; break;
            case TX_INT16: ((int16_t *)tx_tensor_data(x))[i] = (int16_t)(j * 13 - 30000); break;
            case TX_UINT32: ((uint32_t *)tx_tensor_data(x))[i] = j == 3 ? 0xFFFFFFFFu : (uint32_t)(j < 70000 ? j : j * 977); break;
            case TX_FLOAT32: ((float *)tx_tensor_data(x))[i] = (float)v; break;
            default: ((double *)tx_tensor_data(x))[i] = v; break;
            }
        }
        /* The reference: first-occurrence ids of the generating keys (j -> value is injective
         * except the -0.0/NaN rules folded into key). */
        int32_t nu = 0;
        memset(seen, 0xFF, N * sizeof *seen);
        for (int64_t i = 0; i < n; i++) {
            if (key[i] < 0) {
                want[i] = nu++;
                continue;
            }
            if (seen[key[i]] < 0) seen[key[i]] = nu++;
            want[i] = seen[key[i]];
        }
        tx_tensor *ref[3];
        for (int t = 1; t <= 5; t++) {
            tx_set_num_threads(t);
            tx_tensor *outs[3];
            assert_int_equal(tx_unique_with_counts(x, cases[c].out_idx, outs), TX_OK);
            if (t == 1) {
                memcpy(ref, outs, sizeof ref);
                assert_int_equal(tx_tensor_numel(outs[0]), nu);
                for (int64_t i = 0; i < n; i++) {
                    const int64_t id = cases[c].out_idx == TX_INT64 ? ((int64_t *)tx_tensor_data(outs[1]))[i]
                                                                     : ((int32_t *)tx_tensor_data(outs[1]))[i];
                    assert_int_equal(id, want[i]);
                }
                int64_t total = 0;
                for (int64_t j = 0; j < nu; j++)
                    total += cases[c].out_idx == TX_INT64 ? ((int64_t *)tx_tensor_data(outs[2]))[j]
                                                          : ((int32_t *)tx_tensor_data(outs[2]))[j];
                assert_int_equal(total, n);
                continue;
            }
            for (int o = 0; o < 3; o++) {
                assert_int_equal(tx_tensor_nbytes(outs[o]), tx_tensor_nbytes(ref[o]));
                assert_memory_equal(tx_tensor_data(outs[o]), tx_tensor_data(ref[o]), tx_tensor_nbytes(ref[o]));
            }
            free3(outs);
        }
        /* y keeps the bits of each value's first occurrence (0.0, not a later -0.0) */
        const size_t w = tx_dtype_size(cases[c].dtype);
        for (int64_t i = n; i-- > 0;) seen[want[i]] = (int32_t)i; /* first position of each id */
        for (int64_t id = 0; id < nu; id++)
            assert_memory_equal((const char *)tx_tensor_data(ref[0]) + id * (int64_t)w,
                                (const char *)tx_tensor_data(x) + seen[id] * (int64_t)w, w);
        free3(ref);
        tx_tensor_free(x);
    }
    tx_set_num_threads(0);
    free(key);
    free(seen);
    free(want);
}

/* Every allocation of the parallel path (tables, seeded chunks, growth, the merge) failing in
 * turn, at 1-3 threads: resource_exhausted with no output and nothing leaked, until the call
 * succeeds.  Few values with late ones (the seed, then chunks with values of their own) and many
 * values (the chunks outgrow the parallel limit and chunk 0 goes on alone). */
static void test_unique_alloc_failures(void **state) {
    (void)state;
    enum { N = 300000 };
    const int64_t n = N;
    tx_tensor *few = NULL, *many = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, 1, &n, &few), TX_OK);
    assert_int_equal(tx_tensor_new(TX_INT64, 1, &n, &many), TX_OK);
    for (int64_t i = 0; i < n; i++) {
        ((int32_t *)tx_tensor_data(few))[i] = (int32_t)(uq_mix((uint64_t)i) % (i < n / 2 ? 300u : 600u));
        ((int64_t *)tx_tensor_data(many))[i] = (int64_t)(uq_mix((uint64_t)i) % 200000u);
    }
    tu_alloc_install();
    for (int t = 1; t <= 3; t++) {
        tx_set_num_threads(t);
        for (int which = 0; which < 2; which++) {
            long k = 1;
            for (;; k++) {
                tu_alloc_fail_at(k);
                tx_tensor *outs[3] = {NULL, NULL, NULL};
                tx_status st = tx_unique_with_counts(which ? many : few, TX_INT32, outs);
                if (tu_alloc_sweep_step(st, outs[0], outs)) break;
            }
            assert_true(k > 4); /* outputs, tables and value lists were each made to fail */
        }
    }
    tu_alloc_uninstall();
    tx_set_num_threads(0);
    tx_tensor_free(few);
    tx_tensor_free(many);
}

static void test_unique_errors(void **state) {
    (void)state;
    tx_tensor *outs[3] = {(tx_tensor *)1, (tx_tensor *)1, (tx_tensor *)1};
    tx_tensor *m = T32(2, TU_DIMS(1, 2), 1, 2);
    tu_assert_error(tx_unique_with_counts(m, TX_INT32, outs), TX_INVALID_ARGUMENT, "x must be 1-D");
    assert_null(outs[0]);
    assert_null(outs[2]);
    tx_tensor_free(m);
    m = T32(0, NULL, 1);
    tu_assert_error(tx_unique_with_counts(m, TX_INT32, outs), TX_INVALID_ARGUMENT, "got rank 0");
    /* TF 2.21 decides: a dtype the op definition does not list is unimplemented */
    tu_assert_error(tx_unique_with_counts(m, TX_FLOAT32, outs), TX_UNIMPLEMENTED,
                    "out_idx must be int32 or int64, got float32");
    tx_tensor_free(m);
    m = tu_tensor(TX_COMPLEX64, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_unique_with_counts(m, TX_INT32, outs), TX_UNIMPLEMENTED, "dtype complex64 is not supported");
    tx_tensor_free(m);
    m = tu_tensor(TX_QINT8, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_unique_with_counts(m, TX_INT32, outs), TX_UNIMPLEMENTED, "dtype qint8");
    tx_tensor_free(m);
    tu_assert_error(tx_unique_with_counts(NULL, TX_INT32, outs), TX_INVALID_ARGUMENT, "x is NULL");
    tu_assert_error(tx_unique_with_counts(NULL, TX_INT32, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
}

/* ---- inputs that are not what tensorx makes ------------------------------------------------- */

/* A bool byte other than 0 and 1 (memory tensorx wraps, e.g. a NumPy uint8 array viewed as bool)
 * is true, as TF reads it: [0, 1, 2, 255] has two values, False once and True three times. */
static void test_unique_bool_any_nonzero_is_true(void **state) {
    (void)state;
    uint8_t bytes[4] = {0, 1, 2, 255};
    tx_tensor *x = NULL, *outs[3] = {NULL, NULL, NULL};
    assert_int_equal(tx_tensor_wrap(TX_BOOL, 1, TU_DIMS(4), bytes, 4, NULL, NULL, &x), TX_OK);
    for (int sorted = 0; sorted <= 1; sorted++) {
        assert_int_equal(tx_unique_with_counts_in_mode(x, TX_INT32,
                                                  sorted ? TX_UNIQUE_SORTED : TX_UNIQUE_FIRST_SEEN,
                                                  outs),
                         TX_OK);
        tu_assert_shape(outs[0], TX_BOOL, 1, TU_DIMS(2));
        assert_memory_equal(tx_tensor_data_const(outs[0]), ((const uint8_t[]){0, 1}), 2);
        tu_assert_values(outs[1], TU_VALS(0, 1, 1, 1));
        tu_assert_values(outs[2], TU_VALS(1, 3));
        for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    }
    tx_tensor_free(x);
    /* tx_tensor_from_data stores them as 1. */
    assert_int_equal(tx_tensor_from_data(TX_BOOL, 1, TU_DIMS(4), bytes, 4, &x), TX_OK);
    assert_memory_equal(tx_tensor_data_const(x), ((const uint8_t[]){0, 1, 1, 1}), 4);
    tx_tensor_free(x);
}

int main(void) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unique_page_examples),
        cmocka_unit_test(test_unique_floats),
        cmocka_unit_test(test_unique_other_dtypes),
        cmocka_unit_test(test_unique_errors),
        cmocka_unit_test(test_unique_thread_counts),
        cmocka_unit_test(test_unique_alloc_failures),
        cmocka_unit_test(test_unique_bool_any_nonzero_is_true),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
