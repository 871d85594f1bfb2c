/* SPDX-License-Identifier: Apache-2.0 */
/* test_transpose.c -- transpose: every example of TF's page with TensorFlow's result, edge cases
 * (zero-size inputs, scalars, the kernels' rank limits, int64 perm narrowing), the conjugate
 * transpose, every error with its status and message, and brute-force comparisons of the tiled
 * transpose with naive loops over many shapes and element widths. */
#include "reorder_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- transpose ---- */

static void test_transpose_page_examples(void **state) {
    (void)state;
    /* 'x' is [[1 2 3] [4 5 6]] */
    tx_tensor *x = iota(TX_INT32, 2, TU_DIMS(2, 3)), *o = NULL;
    assert_int_equal(tx_transpose(x, NULL, 0, &o), TX_OK);
    check_values(o, TX_INT32, 2, TU_DIMS(3, 2), TU_VALS(1, 4, 2, 5, 3, 6));
    tx_tensor *p = tu_i32(2, (int32_t[]){1, 0});
    assert_int_equal(tx_transpose(x, p, 0, &o), TX_OK);
    check_values(o, TX_INT32, 2, TU_DIMS(3, 2), TU_VALS(1, 4, 2, 5, 3, 6));
    tx_tensor_free(p);
    tx_tensor_free(x);
    /* 'x' is [[[1 2 3] [4 5 6]] [[7 8 9] [10 11 12]]]; perm [0, 2, 1] */
    x = iota(TX_INT32, 3, TU_DIMS(2, 2, 3));
    p = tu_i64(3, TU_DIMS(0, 2, 1));
    assert_int_equal(tx_transpose(x, p, 0, &o), TX_OK);
    check_values(o, TX_INT32, 3, TU_DIMS(2, 3, 2), TU_VALS(1, 4, 2, 5, 3, 6, 7, 10, 8, 11, 9, 12));
    /* Default perm on rank 3 is [2, 1, 0]. */
    assert_int_equal(tx_transpose(x, NULL, 0, &o), TX_OK);
    check_values(o, TX_INT32, 3, TU_DIMS(3, 2, 2), TU_VALS(1, 7, 4, 10, 2, 8, 5, 11, 3, 9, 6, 12));
    tx_tensor_free(p);
    tx_tensor_free(x);
}

static void test_transpose_brute(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_UINT8, TX_INT16, TX_FLOAT32, TX_UINT64, TX_COMPLEX128};
    /* 2-D around the tile edges of every width. */
    static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 130};
    size_t ns = sizeof sizes / sizeof sizes[0];
    for (size_t k = 0; k < 5; k++)
        for (size_t i = 0; i < ns; i++)
            for (size_t j = 0; j < ns; j += 1 + (i % 3))
                check_transpose(dts[k], 2, (int64_t[]){sizes[i], sizes[j]}, (size_t[]){1, 0});
    /* Past the TLB blocks (256 elements for 1- and 2-byte widths, 128, 64 for 16 bytes). */
    static const int64_t big[] = {1, 64, 257, 300};
    for (size_t k = 0; k < 5; k++)
        for (size_t i = 2; i < 4; i++)
            for (size_t j = 0; j < 4; j++) {
                check_transpose(dts[k], 2, (int64_t[]){big[i], big[j]}, (size_t[]){1, 0});
                check_transpose(dts[k], 2, (int64_t[]){big[j], big[i]}, (size_t[]){1, 0});
            }
    /* Random ranks 1..6 with random permutations, including size-1 and zero-size dims, and
     * inner runs that fold into widths the tiled kernels do not take (3, 12, 24 bytes ...). */
    for (int trial = 0; trial < 1500; trial++) {
        size_t r = 1 + rnd() % 6;
        int64_t dims[6];
        size_t perm[6];
        for (size_t d = 0; d < r; d++) {
            dims[d] = (int64_t)(rnd() % 6);
            if (trial % 11) dims[d] += dims[d] == 0;
            perm[d] = d;
        }
        if (trial % 5 == 0) dims[r - 1] = 20 + (int64_t)(rnd() % 60);
        for (size_t d = r; d-- > 1;) {
            size_t e = rnd() % (d + 1), tmp = perm[d];
            perm[d] = perm[e];
            perm[e] = tmp;
        }
        check_transpose(dts[trial % 5], r, dims, perm);
    }
}

static void test_transpose_edge(void **state) {
    (void)state;
    tx_tensor *x = iota(TX_INT32, 3, TU_DIMS(2, 3, 1)), *o = NULL;
    /* Negative entries get the rank added once (TensorFlow's TransposeOp). */
    tx_tensor *p = tu_i32(3, (int32_t[]){-2, 0, -1});
    assert_int_equal(tx_transpose(x, p, 0, &o), TX_OK);
    check_values(o, TX_INT32, 3, TU_DIMS(3, 2, 1), TU_VALS(1, 4, 2, 5, 3, 6));
    tx_tensor_free(p);
    /* int64 entries are narrowed to int32 first, as TensorFlow does: 2^32 + 1 acts as 1. */
    p = tu_i64(3, TU_DIMS(4294967297LL, 0, -4294967294LL));
    assert_int_equal(tx_transpose(x, p, 0, &o), TX_OK);
    check_values(o, TX_INT32, 3, TU_DIMS(3, 2, 1), TU_VALS(1, 4, 2, 5, 3, 6));
    tx_tensor_free(p);
    /* Identity, scalars, rank 1, zero-size: copies with their own buffer. */
    p = tu_i32(3, (int32_t[]){0, 1, 2});
    assert_int_equal(tx_transpose(x, p, 0, &o), TX_OK);
    assert_false(tx_tensor_shares_buffer(o, x));
    check_values(o, TX_INT32, 3, TU_DIMS(2, 3, 1), TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor_free(p);
    tx_tensor *s = tu_tensor(TX_INT8, 0, NULL, TU_VALS(-3)), *e = tu_i32(0, NULL);
    assert_int_equal(tx_transpose(s, e, 0, &o), TX_OK);
    check_values(o, TX_INT8, 0, NULL, TU_VALS(-3));
    assert_int_equal(tx_transpose(s, NULL, 1, &o), TX_OK);
    check_values(o, TX_INT8, 0, NULL, TU_VALS(-3));
    tx_tensor *z = tu_tensor(TX_FLOAT32, 3, TU_DIMS(2, 0, 3), NULL);
    assert_int_equal(tx_transpose(z, NULL, 0, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 3, TU_DIMS(3, 0, 2));
    tx_tensor_free(o);
    /* Strings. */
    tx_tensor *st = tu_strings(2, TU_DIMS(2, 3), (const char *[]){"a", "bb", "ccc", "", "Intel", "f"});
    assert_int_equal(tx_transpose(st, NULL, 0, &o), TX_OK);
    tx_tensor_free(st);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(3, 2));
    assert_strings(o, (const char *[]){"a", "", "bb", "Intel", "ccc", "f"});
    tx_tensor_free(o);
    tx_tensor_free(x);
    tx_tensor_free(s);
    tx_tensor_free(e);
    tx_tensor_free(z);
}

static void test_transpose_conjugate(void **state) {
    (void)state;
    /* [[1+2i, 3-4i], [-0-0i, nan+inf i]] transposed and conjugated. */
    float c[8] = {1, 2, 3, -4, -0.0f, -0.0f, __builtin_nanf(""), __builtin_inff()};
    tx_tensor *x = NULL, *o = NULL;
    assert_int_equal(tx_tensor_from_data(TX_COMPLEX64, 2, TU_DIMS(2, 2), c, sizeof c, &x), TX_OK);
    assert_int_equal(tx_transpose(x, NULL, 1, &o), TX_OK);
    const float *r = tx_tensor_data(o);
    assert_true(r[0] == 1 && r[1] == -2);
    assert_true(r[2] == -0.0f && __builtin_signbit(r[2]) && r[3] == 0.0f && !__builtin_signbit(r[3]));
    assert_true(r[4] == 3 && r[5] == 4);
    assert_true(r[6] != r[6] && r[7] == -__builtin_inff());
    tx_tensor_free(o);
    /* conjugate=false leaves the values alone. */
    assert_int_equal(tx_transpose(x, NULL, 0, &o), TX_OK);
    r = tx_tensor_data(o);
    assert_true(r[1] == 2 && r[5] == -4);
    tx_tensor_free(o);
    tx_tensor_free(x);
    double d[4] = {1.5, -2.5, 0, 7};
    assert_int_equal(tx_tensor_from_data(TX_COMPLEX128, 1, TU_DIMS(2), d, sizeof d, &x), TX_OK);
    assert_int_equal(tx_transpose(x, NULL, 1, &o), TX_OK);
    const double *rd = tx_tensor_data(o);
    assert_true(rd[0] == 1.5 && rd[1] == 2.5 && rd[2] == 0 && rd[3] == -7);
    tx_tensor_free(o);
    tx_tensor_free(x);
    /* For real dtypes conjugate changes nothing (tf.transpose uses the plain Transpose). */
    x = tu_tensor(TX_FLOAT32, 2, TU_DIMS(1, 2), TU_VALS(-1.5, 2));
    assert_int_equal(tx_transpose(x, NULL, 1, &o), TX_OK);
    check_values(o, TX_FLOAT32, 2, TU_DIMS(2, 1), TU_VALS(-1.5, 2));
    tx_tensor_free(x);
}

static void test_transpose_errors(void **state) {
    (void)state;
    tx_tensor *x = iota(TX_INT32, 3, TU_DIMS(2, 3, 4)), *o = NULL;
    tx_tensor *p2 = tu_i32(2, (int32_t[]){1, 0}), *pdup = tu_i32(3, (int32_t[]){0, 2, 0});
    tx_tensor *prange = tu_i64(3, TU_DIMS(0, 3, 1)), *pneg = tu_i32(3, (int32_t[]){0, -4, 1});
    tx_tensor *pf = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(0, 1, 2));
    tx_tensor *pm = tu_tensor(TX_INT32, 2, TU_DIMS(1, 3), TU_VALS(0, 1, 2));
    tx_tensor *ps = tu_tensor(TX_INT32, 0, NULL, TU_VALS(0));
    tx_tensor *pbig = tu_i64(3, TU_DIMS(0, 1, 4294967298LL + 1));
    tu_assert_error(tx_transpose(x, p2, 0, &o), TX_INVALID_ARGUMENT, "perm has 2 entries but a has rank 3");
    tu_assert_error(tx_transpose(x, pdup, 0, &o), TX_INVALID_ARGUMENT, "perm [0,2,0] is not a permutation of [0, 3): 1 is missing");
    tu_assert_error(tx_transpose(x, prange, 0, &o), TX_INVALID_ARGUMENT, "perm[1] = 3 is out of range [-3, 3)");
    tu_assert_error(tx_transpose(x, pneg, 0, &o), TX_INVALID_ARGUMENT, "perm[1] = -4 is out of range [-3, 3)");
    tu_assert_error(tx_transpose(x, pbig, 0, &o), TX_INVALID_ARGUMENT, "narrowed to int32");
    /* a dtype the op does not take: unimplemented (TF 2.21 decides) */
    tu_assert_error(tx_transpose(x, pf, 0, &o), TX_UNIMPLEMENTED, "perm must be int32 or int64, got float32");
    tu_assert_error(tx_transpose(x, pm, 0, &o), TX_INVALID_ARGUMENT, "perm must be rank 1, got shape [1,3]");
    tu_assert_error(tx_transpose(x, ps, 0, &o), TX_INVALID_ARGUMENT, "perm must be rank 1, got shape []");
    tu_assert_error(tx_transpose(NULL, p2, 0, &o), TX_INVALID_ARGUMENT, "a is NULL");
    tu_assert_error(tx_transpose(x, p2, 0, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    assert_null(o);
    tx_tensor *tt[] = {x, p2, pdup, prange, pneg, pf, pm, ps, pbig};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose_page_examples),
        cmocka_unit_test(test_transpose_brute),
        cmocka_unit_test(test_transpose_edge),
        cmocka_unit_test(test_transpose_conjugate),
        cmocka_unit_test(test_transpose_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
