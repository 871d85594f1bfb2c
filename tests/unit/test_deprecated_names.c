/* SPDX-License-Identifier: Apache-2.0 */
/* test_deprecated_names.c -- the 0.2 `_ex` names that tensorx.h keeps as macros for one minor
 * version: each compiles and gives what the function it was renamed to gives (the same status,
 * dtype, shape and bytes), and tx_unique_with_counts_ex keeps 0.2's int `sorted` (any non-zero
 * value sorts). */
#include "testutil.h"

#include <string.h>

#ifndef tx_gather_ex
#error "tensorx.h lost the deprecated name tx_gather_ex before 0.4"
#endif

/* a and b are both TX_OK with equal tensors, or fail with the same status; both freed. */
static void same(tx_status sa, tx_tensor *a, tx_status sb, tx_tensor *b) {
    assert_int_equal(sa, sb);
    if (sa == TX_OK) {
        assert_non_null(a);
        assert_non_null(b);
        assert_int_equal(tx_tensor_dtype(a), tx_tensor_dtype(b));
        assert_int_equal(tx_tensor_rank(a), tx_tensor_rank(b));
        assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
        if (tx_tensor_rank(a))
            assert_memory_equal(tx_tensor_dims(a), tx_tensor_dims(b), tx_tensor_rank(a) * sizeof(int64_t));
        if (tx_tensor_nbytes(a))
            assert_memory_equal(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
    }
    tx_tensor_free(a);
    tx_tensor_free(b);
}

/* Runs the old-name call (writing a) and then the new-name call (writing b): the old one gives
 * the status `want`, and the new one the same status and tensor. */
#define SAME(want, old_call, new_call)                                                           \
    do {                                                                                         \
        tx_tensor *a = NULL, *b = NULL;                                                          \
        tx_status sa = (old_call);                                                               \
        assert_int_equal(sa, (want));                                                            \
        tx_status sb = (new_call);                                                               \
        same(sa, a, sb, b);                                                                      \
    } while (0)

static void test_old_names_are_the_new_functions(void **state) {
    (void)state;
    tx_tensor *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(1.5, 300, -2));
    SAME(TX_OK, tx_cast_ex(f, TX_INT8, TX_CAST_SATURATE, 0, &a),
         tx_cast_in_mode(f, TX_INT8, TX_CAST_SATURATE, 0, &b));
    SAME(TX_INVALID_ARGUMENT, tx_cast_ex(f, TX_INT8, TX_CAST_CHECKED, 0, &a),
         tx_cast_in_mode(f, TX_INT8, TX_CAST_CHECKED, 0, &b));

    tx_tensor *p = tu_tensor(TX_INT32, 1, TU_DIMS(3), TU_VALS(10, 20, 30));
    tx_tensor *ix = tu_tensor(TX_INT32, 1, TU_DIMS(3), TU_VALS(-1, 3, 1));
    SAME(TX_OK, tx_gather_ex(p, ix, 0, 0, TX_OOB_WRAP, &a),
         tx_gather_oob(p, ix, 0, 0, TX_OOB_WRAP, &b));
    tx_tensor *nd = tu_tensor(TX_INT32, 2, TU_DIMS(2, 1), TU_VALS(5, 0));
    SAME(TX_OK, tx_gather_nd_ex(p, nd, TX_OOB_CLAMP, &a),
         tx_gather_nd_oob(p, nd, TX_OOB_CLAMP, &b));
    SAME(TX_OK, tx_one_hot_ex(ix, 3, NULL, NULL, -1, TX_FLOAT32, TX_OOB_WRAP, &a),
         tx_one_hot_oob(ix, 3, NULL, NULL, -1, TX_FLOAT32, TX_OOB_WRAP, &b));
    const tx_tensor *si[1] = {ix}, *sd[1] = {p};
    SAME(TX_OK, tx_dynamic_stitch_ex(si, 1, sd, 1, TX_OOB_ZERO, &a),
         tx_dynamic_stitch_oob(si, 1, sd, 1, TX_OOB_ZERO, &b));

    tx_tensor *x = tu_tensor(TX_INT32, 4, TU_DIMS(4, 1, 1, 1), TU_VALS(1, 2, 3, 4));
    tx_tensor *block = tu_tensor(TX_INT32, 1, TU_DIMS(2), TU_VALS(2, 2));
    tx_tensor *crops = tu_tensor(TX_INT32, 2, TU_DIMS(2, 2), TU_VALS(-1, 0, 0, 0));
    SAME(TX_OK, tx_batch_to_space_nd_ex(x, block, crops, TX_OOB_CLAMP, &a),
         tx_batch_to_space_nd_oob(x, block, crops, TX_OOB_CLAMP, &b));
    SAME(TX_OK, tx_batch_to_space_ex(x, crops, 2, TX_OOB_ZERO, &a),
         tx_batch_to_space_oob(x, crops, 2, TX_OOB_ZERO, &b));

    tx_tensor *d = tu_tensor(TX_INT32, 4, TU_DIMS(1, 1, 1, 4), TU_VALS(1, 2, 3, 4));
    SAME(TX_OK, tx_depth_to_space_ex(d, 2, TX_FORMAT_NHWC, TX_DEPTH_CRD, &a),
         tx_depth_to_space_in_mode(d, 2, TX_FORMAT_NHWC, TX_DEPTH_CRD, &b));

    /* 0.2's `sorted` was an int: 0 keeps first-seen order, any other value sorts. */
    tx_tensor *u = tu_tensor(TX_INT32, 1, TU_DIMS(4), TU_VALS(3, 1, 3, 2));
    const struct { int sorted; tx_unique_mode mode; } cases[] = {
        {0, TX_UNIQUE_FIRST_SEEN}, {1, TX_UNIQUE_SORTED}, {7, TX_UNIQUE_SORTED}, {-1, TX_UNIQUE_SORTED}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tx_tensor *ua[3] = {NULL}, *ub[3] = {NULL};
        tx_status sa = tx_unique_with_counts_ex(u, TX_INT32, cases[c].sorted, ua);
        tx_status sb = tx_unique_with_counts_in_mode(u, TX_INT32, cases[c].mode, ub);
        for (int k = 0; k < 3; k++) same(sa, ua[k], sb, ub[k]);
    }
    int32_t want_sorted[3] = {1, 2, 3};
    tx_tensor *us[3] = {NULL};
    assert_int_equal(tx_unique_with_counts_ex(u, TX_INT32, 5, us), TX_OK);
    assert_memory_equal(tx_tensor_data_const(us[0]), want_sorted, sizeof want_sorted);
    for (int k = 0; k < 3; k++) tx_tensor_free(us[k]);

    tx_tensor *all[] = {f, p, ix, nd, x, block, crops, d, u};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) tx_tensor_free(all[i]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_old_names_are_the_new_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
