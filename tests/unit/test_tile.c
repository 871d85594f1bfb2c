/* SPDX-License-Identifier: Apache-2.0 */
/* test_tile.c -- tile: the examples of TF's page, edge cases and errors (status + message), strings,
 * and randomized comparisons with a naive reference loop over every element width. */
#include "slicing_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tile ------------------------------------------------------------------------------------ */

/* Naive reference: out[o] = in[o mod d] per dim. */
static void check_tile_ref(const tx_tensor *in, const int64_t *m) {
    size_t r = tx_tensor_rank(in);
    const int64_t *d = tx_tensor_dims(in);
    tx_tensor *mt = tu_i64(r, m), *o = NULL;
    assert_int_equal(tx_tile(in, mt, &o), TX_OK);
    assert_int_equal(tx_tensor_rank(o), r);
    for (size_t i = 0; i < r; i++) assert_int_equal(tx_tensor_dims(o)[i], d[i] * m[i]);
    int64_t idx[8] = {0};
    for (int64_t k = 0; k < tx_tensor_numel(o); k++) {
        int64_t rem = k, src = 0, mul = 1;
        for (size_t i = r; i-- > 0;) {
            idx[i] = rem % (d[i] * m[i]);
            rem /= d[i] * m[i];
        }
        for (size_t i = r; i-- > 0;) {
            src += (idx[i] % d[i]) * mul;
            mul *= d[i];
        }
        if (!same_elem(o, k, in, src)) fail_msg("tile: element %lld differs", (long long)k);
    }
    tx_tensor_free(o);
    tx_tensor_free(mt);
}

static void test_tile(void **state) {
    (void)state;
    /* Tiling [a b c d] by [2] produces [a b c d a b c d]. */
    tx_tensor *t = iota(TX_INT32, 1, TU_DIMS(4)), *o = NULL, *m = tu_i32(1, (int32_t[]){2});
    assert_int_equal(tx_tile(t, m, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(8));
    tu_assert_values(o, TU_VALS(1, 2, 3, 4, 1, 2, 3, 4));
    tx_tensor_free(o);
    tx_tensor_free(m);
    /* TF 2.21 decides: a one-element scalar multiples is refused, even for a 1-D input (TileOp:
     * "Expected multiples to be 1-D, but got shape []"). */
    m = tu_tensor(TX_INT64, 0, NULL, TU_VALS(3));
    tu_assert_error(tx_tile(t, m, &o), TX_INVALID_ARGUMENT, "vector of length 1");
    assert_null(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
    t = iota(TX_FLOAT64, 2, TU_DIMS(2, 2));
    m = tu_i64(2, V(2, 3));
    assert_int_equal(tx_tile(t, m, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT64, 2, TU_DIMS(4, 6));
    tu_assert_values(o, TU_VALS(1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4));
    tx_tensor_free(o);
    tx_tensor_free(m);
    /* Zero multiples give empty outputs. */
    m = tu_i64(2, V(0, 5));
    assert_int_equal(tx_tile(t, m, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT64, 2, TU_DIMS(0, 10));
    tx_tensor_free(o);
    tx_tensor_free(m);
    /* Errors. */
    m = tu_i64(2, V(1, -1));
    tu_assert_error(tx_tile(t, m, &o), TX_INVALID_ARGUMENT, "expected multiples[1] >= 0, but got -1");
    tx_tensor_free(m);
    m = tu_i64(3, V(1, 1, 1));
    tu_assert_error(tx_tile(t, m, &o), TX_INVALID_ARGUMENT, "vector of length 2");
    tx_tensor_free(m);
    m = tu_tensor(TX_INT32, 2, TU_DIMS(1, 2), TU_VALS(1, 1));
    tu_assert_error(tx_tile(t, m, &o), TX_INVALID_ARGUMENT, "vector of length 2");
    tx_tensor_free(m);
    m = tu_tensor(TX_UINT8, 1, TU_DIMS(3), TU_VALS(1, 1, 1));
    /* a dtype the op does not take: unimplemented, before the length check (TF 2.21 decides) */
    tu_assert_error(tx_tile(t, m, &o), TX_UNIMPLEMENTED, "multiples must be int32 or int64, got uint8");
    tx_tensor_free(m);
    m = tu_i64(2, V(INT64_MAX / 2 + 1, 1));
    tu_assert_error(tx_tile(t, m, &o), TX_INVALID_ARGUMENT, "output dim 0");
    tx_tensor_free(m);
    m = tu_i64(2, V(1LL << 40, 1LL << 40));
    tu_assert_error(tx_tile(t, m, &o), TX_INVALID_ARGUMENT, "element count overflows int64");
    tx_tensor_free(m);
    /* Representable but too large to allocate. */
    m = tu_i64(2, V(1LL << 20, 1LL << 20));
    tx_set_max_tensor_bytes(1u << 30); /* so the sanitizers never see the huge request */
    tu_assert_error(tx_tile(t, m, &o), TX_RESOURCE_EXHAUSTED, "exceed");
    tx_set_max_tensor_bytes(0);
    assert_null(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
    /* A scalar with multiples [] is copied. */
    t = tu_tensor(TX_INT16, 0, NULL, TU_VALS(-4));
    m = tu_i32(0, NULL);
    assert_int_equal(tx_tile(t, m, &o), TX_OK);
    tu_assert_shape(o, TX_INT16, 0, NULL);
    tu_assert_values(o, TU_VALS(-4));
    tx_tensor_free(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
    /* Strings. */
    t = string_iota(1, TU_DIMS(2));
    m = tu_i32(1, (int32_t[]){3});
    assert_int_equal(tx_tile(t, m, &o), TX_OK);
    tx_tensor_free(t);
    assert_strings(o, (const char *[]){"s0", "s1", "s0", "s1", "s0", "s1"});
    tx_tensor_free(o);
    tx_tensor_free(m);
}

static void test_tile_random(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_INT8, TX_INT16, TX_FLOAT32, TX_INT64, TX_COMPLEX128, TX_STRING};
    for (int iter = 0; iter < 300; iter++) {
        size_t r = (size_t)rnd(5) + 1;
        int64_t d[8], m[8];
        for (size_t i = 0; i < r; i++) {
            d[i] = rnd(4) + (rnd(5) == 0 ? 0 : 1);
            m[i] = rnd(4) + (rnd(6) == 0 ? 0 : 1);
        }
        if (iter % 10 == 0) m[r - 1] = 40 + rnd(30); /* many small blocks, then doubling */
        tx_tensor *t = pattern(dts[iter % 6], r, d, (unsigned)iter);
        check_tile_ref(t, m);
        tx_tensor_free(t);
    }
    /* Long repeated rows (one strided copy with stride-0 dims), trailing untiled dims included;
     * the last one large enough for the threads and the streaming stores. */
    for (int iter = 0; iter < 60; iter++) {
        size_t r = (size_t)rnd(3) + 1;
        int64_t d[8], m[8];
        for (size_t i = 0; i < r; i++) {
            d[i] = rnd(3) + 1;
            m[i] = rnd(3) + 1;
        }
        d[r - 1] = 60 + rnd(150);
        if (iter % 3 == 0) m[r - 1] = 1;
        tx_tensor *t = pattern(dts[iter % 6], r, d, (unsigned)iter + 1000);
        check_tile_ref(t, m);
        tx_tensor_free(t);
    }
    tx_tensor *t = pattern(TX_FLOAT32, 2, TU_DIMS(1024, 300), 7u);
    check_tile_ref(t, (int64_t[]){3, 4});
    tx_tensor_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile),
        cmocka_unit_test(test_tile_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
