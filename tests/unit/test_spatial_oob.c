/* SPDX-License-Identifier: Apache-2.0 */
/* test_spatial_oob.c -- batch_to_space's crops policies (tx_batch_to_space_nd_oob,
 * tx_batch_to_space_oob): each policy by hand, and their edge cases. */
#include "spatial_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- batch_to_space crops policies (tx_batch_to_space_nd_oob / tx_batch_to_space_oob) ---------- */

static tx_tensor *b2s_ex(const tx_tensor *x, const tx_tensor *block, const tx_tensor *crops,
                         tx_oob_policy oob) {
    tx_tensor *o = NULL;
    tx_status st = tx_batch_to_space_nd_oob(x, block, crops, oob, &o);
    if (st != TX_OK) fail_msg("batch_to_space_nd_oob: %s", tx_last_error());
    return o;
}

static void test_b2s_oob_policies(void **state) {
    (void)state;
    /* 1-D: batch 2, block 2, one spatial dim of 3: the expanded dim is 1 4 2 5 3 6 (full = 6) */
    tx_tensor *x = iota(2, TU_DIMS(2, 3)), *bl = tu_i64(1, P64(2));
    tx_tensor *c = pairs(1, P64(-2, 5)); /* positions -2 .. 0: size 6 + 2 - 5 = 3 */
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 2, TU_DIMS(1, 3), TU_VALS(0, 0, 1));
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 2, TU_DIMS(1, 3), TU_VALS(1, 1, 1));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 3), TU_VALS(3, 6, 1));
    tx_tensor *o = NULL;
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "crops[0] = [-2, 5] must be non-negative");
    tx_tensor_free(c);
    c = pairs(1, P64(4, -3)); /* positions 4 .. 8 */
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 2, TU_DIMS(1, 5), TU_VALS(3, 6, 0, 0, 0));
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 2, TU_DIMS(1, 5), TU_VALS(3, 6, 6, 6, 6));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 5), TU_VALS(3, 6, 1, 4, 2));
    tx_tensor_free(c);
    /* crops beyond the dim: an empty output under every policy but error */
    c = pairs(1, P64(5, 4));
    for (int p = TX_OOB_ZERO; p <= TX_OOB_WRAP; p++)
        expect(b2s_ex(x, bl, c, (tx_oob_policy)p), 2, TU_DIMS(1, 0), TU_VALS(0));
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "crops[0] = [5, 4] are larger than spatial dim 0 of size 3 * 2 = 6");
    tx_tensor_free(c);
    /* crops inside TF's rule: TF's result under every policy */
    c = pairs(1, P64(1, 2));
    for (int p = TX_OOB_ERROR; p <= TX_OOB_WRAP; p++)
        expect(b2s_ex(x, bl, c, (tx_oob_policy)p), 2, TU_DIMS(1, 3), TU_VALS(4, 2, 5));
    tx_tensor_free(c);
    tx_tensor_free(x);
    tx_tensor_free(bl);
    /* 2-D with a remaining dim: [4, 1, 1, 2] block [2, 2] expands to [1, 2, 2, 2] */
    x = iota(4, TU_DIMS(4, 1, 1, 2));
    bl = tu_i64(2, P64(2, 2));
    c = pairs(2, P64(-1, 0, 1, -1)); /* rows -1, 0, 1; cols 1, 2 */
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 4, TU_DIMS(1, 3, 2, 2), TU_VALS(0, 0, 0, 0, 3, 4, 0, 0, 7, 8, 0, 0));
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 4, TU_DIMS(1, 3, 2, 2), TU_VALS(3, 4, 3, 4, 3, 4, 3, 4, 7, 8, 7, 8));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 4, TU_DIMS(1, 3, 2, 2), TU_VALS(7, 8, 5, 6, 3, 4, 1, 2, 7, 8, 5, 6));
    tx_tensor_free(c);
    /* the legacy 4-D form takes the same policies */
    c = pairs(2, P64(0, -1, 1, 0));
    tx_status st = tx_batch_to_space_oob(x, c, 2, TX_OOB_CLAMP, &o);
    assert_int_equal(st, TX_OK);
    expect(o, 4, TU_DIMS(1, 3, 1, 2), TU_VALS(3, 4, 7, 8, 7, 8));
    tu_assert_error(tx_batch_to_space_oob(x, c, 2, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "batch_to_space: crops[0] = [0, -1] must be non-negative");
    tu_assert_error(tx_batch_to_space_oob(x, c, 2, (tx_oob_policy)9, &o), TX_INVALID_ARGUMENT,
                    "batch_to_space: oob policy 9 is not one of");
    tx_tensor_free(c);
    tx_tensor_free(x);
    tx_tensor_free(bl);
}

static void test_b2s_oob_edges(void **state) {
    (void)state;
    tx_tensor *o = NULL, *bl = tu_i64(1, P64(2));
    /* strings: zero cells are empty strings; the output keeps the input's bytes alive */
    tx_tensor *x = tu_strings(2, TU_DIMS(2, 1), (const char *[]){"ab", "cd"});
    tx_tensor *c = pairs(1, P64(1, -2)); /* positions 1, 2, 3: "cd", "", "" */
    o = b2s_ex(x, bl, c, TX_OOB_ZERO);
    tx_tensor_free(x);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(1, 3));
    assert_int_equal(tx_tensor_string(o, 0)->size, 2);
    assert_memory_equal(tx_tensor_string(o, 0)->data, "cd", 2);
    assert_int_equal(tx_tensor_string(o, 1)->size, 0);
    assert_int_equal(tx_tensor_string(o, 2)->size, 0);
    tx_tensor_free(o);
    tx_tensor_free(c);
    /* an empty spatial dim: zero cells under zero; nothing to take under clamp/wrap */
    x = tu_tensor(TX_INT32, 2, TU_DIMS(2, 0), NULL);
    c = pairs(1, P64(-1, -1));
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 2, TU_DIMS(1, 2), TU_VALS(0, 0));
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_CLAMP, &o), TX_INVALID_ARGUMENT,
                    "crops[0] = [-1, -1] select 2 positions of spatial dim 0, which is empty (size 0 * 2): oob=clamp has nothing to take");
    assert_null(o);
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_WRAP, &o), TX_INVALID_ARGUMENT, "oob=wrap has nothing to take");
    tx_tensor_free(c);
    /* ... but an empty output needs nothing */
    c = pairs(1, P64(0, 0));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 0), TU_VALS(0));
    tx_tensor_free(c);
    tx_tensor_free(x);
    /* sizes that overflow int64, and huge crops that leave an empty dim */
    x = iota(2, TU_DIMS(2, 3));
    c = pairs(1, P64(INT64_MIN, 0));
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_ZERO, &o), TX_INVALID_ARGUMENT,
                    "the size of spatial dim 0 overflows int64");
    tx_tensor_free(c);
    c = pairs(1, P64(INT64_MAX, INT64_MAX));
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, c, TX_OOB_ZERO, &o), TX_INVALID_ARGUMENT, "overflows int64");
    tx_tensor_free(c);
    c = pairs(1, P64(INT64_MAX - 10, 0));
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 0), TU_VALS(0));
    tx_tensor_free(c);
    c = pairs(1, P64(-(INT64_MAX / 2), INT64_MAX / 2 - 2)); /* positions -(2^62 - 1) .. -(2^62 - 1) + 7 */
    /* -(2^62 - 1) mod 6 = 3: the expanded 1 4 2 5 3 6 from index 3 on */
    expect(b2s_ex(x, bl, c, TX_OOB_WRAP), 2, TU_DIMS(1, 8), TU_VALS(5, 3, 6, 1, 4, 2, 5, 3));
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 2, TU_DIMS(1, 8), TU_VALS(1, 1, 1, 1, 1, 1, 1, 1));
    tx_tensor_free(c);
    c = pairs(1, P64(INT64_MAX / 2, -(INT64_MAX / 2) - 2)); /* far beyond the end */
    expect(b2s_ex(x, bl, c, TX_OOB_CLAMP), 2, TU_DIMS(1, 8), TU_VALS(6, 6, 6, 6, 6, 6, 6, 6));
    expect(b2s_ex(x, bl, c, TX_OOB_ZERO), 2, TU_DIMS(1, 8), TU_VALS(0, 0, 0, 0, 0, 0, 0, 0));
    tx_tensor_free(c);
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, NULL, TX_OOB_ZERO, &o), TX_INVALID_ARGUMENT, "crops is NULL");
    tu_assert_error(tx_batch_to_space_nd_oob(x, bl, NULL, (tx_oob_policy)-1, &o), TX_INVALID_ARGUMENT, "oob policy -1");
    tx_tensor_free(x);
    tx_tensor_free(bl);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_b2s_oob_policies),    cmocka_unit_test(test_b2s_oob_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
