/* SPDX-License-Identifier: Apache-2.0 */
/* test_partition.c -- dynamic_partition, dynamic_stitch (with its out-of-range policies) and
 * boolean_mask: the examples of TF's pages, TF's edge cases, string tensors, masks of other
 * dtypes, and every error with its status and message. */
#include "gather_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- dynamic_partition ----------------------------------------------------------------------- */

static void test_dynamic_partition(void **state) {
    (void)state;
    tx_tensor *outs[4];
    /* Scalar partitions: outputs[0] is empty with shape [0, 2], outputs[1] = [[10, 20]]. */
    tx_tensor *data = T32(1, TU_DIMS(2), 10, 20), *part = T32(0, NULL, 1);
    assert_int_equal(tx_dynamic_partition(data, part, 2, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(0, 2));
    tu_assert_shape(outs[1], TX_INT32, 2, TU_DIMS(1, 2));
    tu_assert_values(outs[1], TU_VALS(10, 20));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    tx_tensor_free(data);
    tx_tensor_free(part);
    /* Vector partitions.  The page gives partitions [0, 0, 1, 1, 0, 1] with 5 data values and
     * outputs [10, 20, 50] / [30, 40]; TF rejects that (data.shape must start with
     * partitions.shape).  TF's own docs use partitions [0, 0, 1, 1, 0]. */
    data = T32(1, TU_DIMS(5), 10, 20, 30, 40, 50);
    part = T32(1, TU_DIMS(6), 0, 0, 1, 1, 0, 1);
    outs[0] = outs[1] = (tx_tensor *)1;
    tu_assert_error(tx_dynamic_partition(data, part, 2, outs), TX_INVALID_ARGUMENT,
                    "data.shape must start with partitions.shape, got data.shape = [5], partitions.shape = [6]");
    assert_null(outs[0]);
    assert_null(outs[1]);
    tx_tensor_free(part);
    part = T32(1, TU_DIMS(5), 0, 0, 1, 1, 0);
    assert_int_equal(tx_dynamic_partition(data, part, 2, outs), TX_OK);
    tu_assert_values(outs[0], TU_VALS(10, 20, 50));
    tu_assert_values(outs[1], TU_VALS(30, 40));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    /* Unused partitions are empty. */
    assert_int_equal(tx_dynamic_partition(data, part, 4, outs), TX_OK);
    tu_assert_shape(outs[2], TX_INT32, 1, TU_DIMS(0));
    tu_assert_shape(outs[3], TX_INT32, 1, TU_DIMS(0));
    for (int i = 0; i < 4; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(part);
    tx_tensor_free(data);
    /* 2-D partitions over [2, 2, 2] data: slices [js, :] in row-major order of js. */
    data = iota(TX_INT32, 3, TU_DIMS(2, 2, 2));
    part = T32(2, TU_DIMS(2, 2), 1, 0, 2, 1);
    assert_int_equal(tx_dynamic_partition(data, part, 3, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 2, TU_DIMS(1, 2));
    tu_assert_values(outs[0], TU_VALS(2, 3));
    tu_assert_shape(outs[1], TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_values(outs[1], TU_VALS(0, 1, 6, 7));
    tu_assert_values(outs[2], TU_VALS(4, 5));
    for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
    tx_tensor_free(part);
    /* Errors. */
    part = T32(2, TU_DIMS(2, 2), 0, 1, 2, 0);
    tu_assert_error(tx_dynamic_partition(data, part, 2, outs), TX_INVALID_ARGUMENT,
                    "partitions[1,0] = 2 is not in [0, 2)");
    assert_null(outs[0]);
    tx_tensor_free(part);
    part = T32(1, TU_DIMS(2), -1, 0);
    tu_assert_error(tx_dynamic_partition(data, part, 2, outs), TX_INVALID_ARGUMENT, "partitions[0] = -1 is not in [0, 2)");
    tu_assert_error(tx_dynamic_partition(data, part, 0, outs), TX_INVALID_ARGUMENT, "num_partitions must be in [1, 2147483647], got 0");
    tx_tensor_free(part);
    part = T64(1, TU_DIMS(2), 0, 0);
    tu_assert_error(tx_dynamic_partition(data, part, 2, outs), TX_INVALID_ARGUMENT, "partitions must be int32, got int64");
    tu_assert_error(tx_dynamic_partition(NULL, part, 2, outs), TX_INVALID_ARGUMENT, "data is NULL");
    tu_assert_error(tx_dynamic_partition(data, part, 2, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
    tx_tensor_free(part);
    tx_tensor_free(data);
    /* Strings. */
    data = tu_strings(1, TU_DIMS(3), STRS("x", "yy", "z"));
    part = T32(1, TU_DIMS(3), 1, 1, 0);
    assert_int_equal(tx_dynamic_partition(data, part, 2, outs), TX_OK);
    tx_tensor_free(data);
    assert_strings(outs[0], STRS("z"));
    assert_strings(outs[1], STRS("x", "yy"));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    tx_tensor_free(part);
}

/* ---- dynamic_stitch -------------------------------------------------------------------------- */

static void test_dynamic_stitch(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* The page's example.  The page says merged.shape = [max(indices)] + constant; it is
     * [max(indices) + 1] + constant: 7 rows here. */
    tx_tensor *ind[3] = {T32(0, NULL, 6), T32(1, TU_DIMS(2), 4, 1), T32(2, TU_DIMS(2, 2), 5, 2, 0, 3)};
    tx_tensor *dat[3] = {T32(1, TU_DIMS(2), 61, 62), T32(2, TU_DIMS(2, 2), 41, 42, 11, 12),
                         T32(3, TU_DIMS(2, 2, 2), 51, 52, 21, 22, 1, 2, 31, 32)};
    assert_int_equal(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)dat, 3, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(7, 2));
    tu_assert_values(o, TU_VALS(1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62));
    tx_tensor_free(o);
    /* Shape errors. */
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)dat, 2, &o),
                    TX_INVALID_ARGUMENT, "indices has 3 tensors but data has 2");
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 0, (const tx_tensor *const *)dat, 0, &o),
                    TX_INVALID_ARGUMENT, "at least 1 tensor");
    tx_tensor *three = T32(1, TU_DIMS(3), 0, 0, 0);
    tx_tensor *swap[3] = {dat[0], three, dat[2]};
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)swap, 3, &o),
                    TX_INVALID_ARGUMENT, "data[1].shape = [3] does not start with indices[1].shape = [2]");
    tx_tensor_free(three);
    tx_tensor *wide = T32(2, TU_DIMS(2, 3), 0, 0, 0, 0, 0, 0);
    tx_tensor *d2[3] = {dat[0], wide, dat[2]};
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)d2, 3, &o),
                    TX_INVALID_ARGUMENT, "need data[0].shape[0:] = data[1].shape[1:]");
    tx_tensor_free(wide);
    tx_tensor *fl = TF32(1, TU_DIMS(2), 0, 0);
    tx_tensor *d3[3] = {dat[0], fl, dat[2]};
    tu_assert_error(tx_dynamic_stitch((const tx_tensor *const *)ind, 3, (const tx_tensor *const *)d3, 3, &o),
                    TX_INVALID_ARGUMENT, "data[1] is float32 but data[0] is int32");
    tx_tensor_free(fl);
    for (int i = 0; i < 3; i++) {
        tx_tensor_free(ind[i]);
        tx_tensor_free(dat[i]);
    }
    /* Later entries win, within one tensor and across tensors; unnamed rows are zero. */
    tx_tensor *a = T32(1, TU_DIMS(4), 0, 1, 1, 5), *b = T32(1, TU_DIMS(1), 1);
    tx_tensor *da = TF32(1, TU_DIMS(4), 10, 20, 30, 60), *db = TF32(1, TU_DIMS(1), 99);
    const tx_tensor *i2[2] = {a, b}, *x2[2] = {da, db};
    assert_int_equal(tx_dynamic_stitch(i2, 2, x2, 2, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 1, TU_DIMS(6));
    tu_assert_values(o, TU_VALS(10, 99, 0, 0, 0, 60));
    tx_tensor_free(o);
    assert_int_equal(tx_dynamic_stitch(i2, 1, x2, 1, &o), TX_OK);
    tu_assert_values(o, TU_VALS(10, 30, 0, 0, 0, 60));
    tx_tensor_free(o);
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(da);
    tx_tensor_free(db);
    /* TF 2.21 decides: a negative index fails even when the merge is empty (all indices
     * negative, or data slices of 0 elements); the oracle found 0 rows here before. */
    a = T32(1, TU_DIMS(2), -1, -5);
    da = TF32(1, TU_DIMS(2), 1, 2);
    const tx_tensor *i1[1] = {a}, *x1[1] = {da};
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "indices[0][0] = -1 is not in [0, 0)");
    tx_tensor_free(da);
    da = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 0), NULL);
    tx_tensor_free(a);
    a = T32(1, TU_DIMS(2), 1, -2);
    i1[0] = a;
    x1[0] = da;
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "indices[0][1] = -2 is not in [0, 2)");
    assert_null(o);
    tx_tensor_free(a);
    a = T32(2, TU_DIMS(1, 2), 2, -1);
    i1[0] = a;
    tx_tensor *da2 = TF32(2, TU_DIMS(1, 2), 1, 2);
    x1[0] = da2;
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "indices[0][0,1] = -1 is not in [0, 3)");
    tx_tensor_free(a);
    tx_tensor_free(da2);
    a = T64(1, TU_DIMS(2), 0, 1);
    i1[0] = a;
    x1[0] = da;
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "indices[0] must be int32, got int64");
    tx_tensor_free(a);
    /* INT32_MAX + 1 rows would overflow TF's int row count. */
    a = T32(1, TU_DIMS(2), 2147483647.0, 0);
    i1[0] = a;
    tu_assert_error(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_INVALID_ARGUMENT, "makes 2147483648 rows");
    tx_tensor_free(a);
    tx_tensor_free(da);
    /* Strings: unnamed rows are empty strings. */
    a = T32(1, TU_DIMS(2), 0, 3);
    tx_tensor *ds = tu_strings(1, TU_DIMS(2), STRS("first", "last"));
    i1[0] = a;
    x1[0] = ds;
    assert_int_equal(tx_dynamic_stitch(i1, 1, x1, 1, &o), TX_OK);
    tx_tensor_free(ds);
    assert_strings(o, STRS("first", "", "", "last"));
    tx_tensor_free(o);
    tx_tensor_free(a);
}

/* ---- boolean_mask ---------------------------------------------------------------------------- */

static void test_boolean_mask(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* 1-D example */
    tx_tensor *t = T32(1, TU_DIMS(4), 0, 1, 2, 3), *m = TB(1, TU_DIMS(4), 1, 0, 1, 0);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(2));
    tu_assert_values(o, TU_VALS(0, 2));
    tx_tensor_free(o);
    tx_tensor_free(t);
    tx_tensor_free(m);
    /* 2-D example */
    t = T32(2, TU_DIMS(3, 2), 1, 2, 3, 4, 5, 6);
    m = TB(1, TU_DIMS(3), 1, 0, 1);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(2, 2));
    tu_assert_values(o, TU_VALS(1, 2, 5, 6));
    tx_tensor_free(o);
    tx_tensor_free(m);
    /* All false: zero rows. */
    m = TB(1, TU_DIMS(3), 0, 0, 0);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(0, 2));
    tx_tensor_free(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
    /* A 2-D mask over a [2, 3, 2] tensor, and a 1-D mask at axis 1 (also written -2). */
    t = iota(TX_INT32, 3, TU_DIMS(2, 3, 2));
    m = TB(2, TU_DIMS(2, 3), 1, 0, 1, 0, 0, 1);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(3, 2));
    tu_assert_values(o, TU_VALS(0, 1, 4, 5, 10, 11));
    tx_tensor_free(o);
    tx_tensor_free(m);
    m = TB(1, TU_DIMS(3), 0, 1, 1);
    for (int64_t axis = -2; axis <= 1; axis += 3) {
        assert_int_equal(tx_boolean_mask(t, m, axis, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 2, 2));
        tu_assert_values(o, TU_VALS(2, 3, 4, 5, 8, 9, 10, 11));
        tx_tensor_free(o);
    }
    /* TF slices tensor.shape[axis:axis+K] the Python way: [-1:0] is empty, so axis -1 fails. */
    tx_tensor *m2 = TB(1, TU_DIMS(2), 1, 1);
    tu_assert_error(tx_boolean_mask(t, m2, -1, &o), TX_INVALID_ARGUMENT,
                    "mask shape [2] does not match tensor.shape[-1:0] of tensor shape [2,3,2]");
    assert_null(o);
    assert_int_equal(tx_boolean_mask(t, m2, 2, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 3, 2));
    tx_tensor_free(o);
    tu_assert_error(tx_boolean_mask(t, m2, 1, &o), TX_INVALID_ARGUMENT, "does not match tensor.shape[1:2]");
    tu_assert_error(tx_boolean_mask(t, m2, 3, &o), TX_INVALID_ARGUMENT, "does not match");
    tx_tensor_free(m2);
    tx_tensor *ms = TB(0, NULL, 1);
    tu_assert_error(tx_boolean_mask(t, ms, 0, &o), TX_INVALID_ARGUMENT, "mask cannot be a scalar");
    tx_tensor_free(ms);
    /* TF 2.21 decides the mask dtypes (its Where): numbers count when nonzero; float16 has no CPU
     * kernel; float8, 4-bit and string masks are not in its list. */
    tx_tensor *mi = T32(1, TU_DIMS(2), 0, 7);
    assert_int_equal(tx_boolean_mask(t, mi, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(1, 3, 2));
    tu_assert_values(o, TU_VALS(6, 7, 8, 9, 10, 11));
    tx_tensor_free(o);
    tx_tensor_free(mi);
    const uint16_t half[2] = {0x3c00, 0};
    assert_int_equal(tx_tensor_from_data(TX_FLOAT16, 1, TU_DIMS(2), half, sizeof half, &mi), TX_OK);
    tu_assert_error(tx_boolean_mask(t, mi, 0, &o), TX_UNIMPLEMENTED, "mask dtype float16 is not supported");
    tx_tensor_free(mi);
    const uint8_t nib[2] = {1, 0};
    assert_int_equal(tx_tensor_from_data(TX_INT4, 1, TU_DIMS(2), nib, sizeof nib, &mi), TX_OK);
    tu_assert_error(tx_boolean_mask(t, mi, 0, &o), TX_UNIMPLEMENTED, "mask must be bool or a number type");
    tx_tensor_free(mi);
    tu_assert_error(tx_boolean_mask(NULL, m, 0, &o), TX_INVALID_ARGUMENT, "tensor is NULL");
    tx_tensor *big = TB(4, TU_DIMS(2, 3, 2, 1), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    tu_assert_error(tx_boolean_mask(t, big, 0, &o), TX_INVALID_ARGUMENT, "does not match");
    tx_tensor_free(big);
    tx_tensor_free(m);
    tx_tensor_free(t);
    /* Strings. */
    t = tu_strings(1, TU_DIMS(3), STRS("keep", "drop", "also"));
    m = TB(1, TU_DIMS(3), 1, 0, 1);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tx_tensor_free(t);
    assert_strings(o, STRS("keep", "also"));
    tx_tensor_free(o);
    tx_tensor_free(m);
}

/* ---- out-of-range policies (tx_*_ex) ------------------------------------------------------- */

static void test_oob_dynamic_stitch(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    tx_tensor *ind[2] = {i32_tensor(1, TU_DIMS(3), I32S(0, -1, -4)), i32_tensor(1, TU_DIMS(2), I32S(3, INT32_MIN))};
    tx_tensor *dat[2] = {T32(2, TU_DIMS(3, 2), 1, 2, 3, 4, 5, 6), T32(2, TU_DIMS(2, 2), 7, 8, 9, 10)};
    const tx_tensor *const *ci = (const tx_tensor *const *)ind, *const *cd = (const tx_tensor *const *)dat;
    tu_assert_error(tx_dynamic_stitch_oob(ci, 2, cd, 2, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "dynamic_stitch: indices[0][1] = -1 is not in [0, 4)");
    /* zero: the negative entries are dropped; rows 1 and 2 are named by no one. */
    assert_int_equal(tx_dynamic_stitch_oob(ci, 2, cd, 2, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(4, 2));
    tu_assert_values(o, TU_VALS(1, 2, 0, 0, 0, 0, 7, 8));
    tx_tensor_free(o);
    /* clamp: every negative index is row 0; the last one (INT32_MIN -> data [9, 10]) wins. */
    assert_int_equal(tx_dynamic_stitch_oob(ci, 2, cd, 2, TX_OOB_CLAMP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(9, 10, 0, 0, 0, 0, 7, 8));
    tx_tensor_free(o);
    /* wrap modulo 4 rows: -1 -> 3, -4 -> 0, -2^31 -> 0; later wins. */
    assert_int_equal(tx_dynamic_stitch_oob(ci, 2, cd, 2, TX_OOB_WRAP, &o), TX_OK);
    tu_assert_values(o, TU_VALS(9, 10, 0, 0, 0, 0, 7, 8));
    tx_tensor_free(o);
    tx_tensor *w[2] = {i32_tensor(1, TU_DIMS(3), I32S(0, -1, -3)), ind[1]};
    assert_int_equal(tx_dynamic_stitch_oob((const tx_tensor *const *)w, 2, cd, 2, TX_OOB_WRAP, &o), TX_OK);
    /* -1 -> 3 (then overwritten by index 3), -3 -> 1, INT32_MIN -> 0 */
    tu_assert_values(o, TU_VALS(9, 10, 5, 6, 0, 0, 7, 8));
    tx_tensor_free(o);
    tx_tensor_free(w[0]);
    /* Strings. */
    tx_tensor *sd[2] = {tu_strings(1, TU_DIMS(3), STRS("a", "b", "c")), tu_strings(1, TU_DIMS(2), STRS("d", "e"))};
    tx_tensor *si[2] = {i32_tensor(1, TU_DIMS(3), I32S(-2, 1, 2)), i32_tensor(1, TU_DIMS(2), I32S(-9, 0))};
    const tx_tensor *const *csi = (const tx_tensor *const *)si, *const *csd = (const tx_tensor *const *)sd;
    assert_int_equal(tx_dynamic_stitch_oob(csi, 2, csd, 2, TX_OOB_ZERO, &o), TX_OK);
    tx_tensor *z = o;
    assert_int_equal(tx_dynamic_stitch_oob(csi, 2, csd, 2, TX_OOB_WRAP, &o), TX_OK);
    tx_tensor *wr = o;
    assert_int_equal(tx_dynamic_stitch_oob(csi, 2, csd, 2, TX_OOB_CLAMP, &o), TX_OK);
    tx_tensor_free(sd[0]);
    tx_tensor_free(sd[1]);
    assert_strings(z, STRS("e", "b", "c"));
    /* -2 -> 1, -9 -> 0 (mod 3), then 0 <- "e" */
    assert_strings(wr, STRS("e", "b", "c"));
    assert_strings(o, STRS("e", "b", "c"));
    tx_tensor_free(z);
    tx_tensor_free(wr);
    tx_tensor_free(o);
    tx_tensor *sj[2] = {si[0], i32_tensor(1, TU_DIMS(2), I32S(-9, -1))};
    tx_tensor *sd2[2] = {tu_strings(1, TU_DIMS(3), STRS("a", "b", "c")), tu_strings(1, TU_DIMS(2), STRS("d", "e"))};
    assert_int_equal(tx_dynamic_stitch_oob((const tx_tensor *const *)sj, 2, (const tx_tensor *const *)sd2, 2, TX_OOB_WRAP, &o), TX_OK);
    /* -2 -> "a" at 1, 1 <- "b", 2 <- "c", -9 -> 0 <- "d", -1 -> 2 <- "e" */
    assert_strings(o, STRS("d", "b", "e"));
    tx_tensor_free(o);
    assert_int_equal(tx_dynamic_stitch_oob((const tx_tensor *const *)sj, 2, (const tx_tensor *const *)sd2, 2, TX_OOB_CLAMP, &o), TX_OK);
    assert_strings(o, STRS("e", "b", "c"));
    tx_tensor_free(o);
    tx_tensor_free(sd2[0]);
    tx_tensor_free(sd2[1]);
    tx_tensor_free(sj[1]);
    tx_tensor_free(si[0]);
    tx_tensor_free(si[1]);
    /* All indices negative: an error under TX_OOB_ERROR (TF 2.21 decides), else 0 rows (nothing
     * can be placed). */
    tx_tensor *neg[1] = {i32_tensor(1, TU_DIMS(2), I32S(-1, -2))};
    tx_tensor *nd[1] = {T32(1, TU_DIMS(2), 5, 6)};
    tu_assert_error(tx_dynamic_stitch_oob((const tx_tensor *const *)neg, 1, (const tx_tensor *const *)nd, 1,
                                          TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT, "is not in [0, 0)");
    for (int pol = TX_OOB_ZERO; pol <= TX_OOB_WRAP; pol++) {
        assert_int_equal(tx_dynamic_stitch_oob((const tx_tensor *const *)neg, 1, (const tx_tensor *const *)nd, 1,
                                              (tx_oob_policy)pol, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, 1, TU_DIMS(0));
        tx_tensor_free(o);
    }
    tx_tensor_free(neg[0]);
    tx_tensor_free(nd[0]);
    /* INT32_MAX is a row-count limit under every policy. */
    tx_tensor *mx[1] = {i32_tensor(1, TU_DIMS(1), I32S(INT32_MAX))};
    tx_tensor *md[1] = {T32(1, TU_DIMS(1), 5)};
    tu_assert_error(tx_dynamic_stitch_oob((const tx_tensor *const *)mx, 1, (const tx_tensor *const *)md, 1,
                                         TX_OOB_WRAP, &o), TX_INVALID_ARGUMENT, "more than int32 counts");
    tu_assert_error(tx_dynamic_stitch_oob((const tx_tensor *const *)mx, 1, (const tx_tensor *const *)md, 1,
                                         (tx_oob_policy)5, &o), TX_INVALID_ARGUMENT, "dynamic_stitch: oob policy 5");
    assert_null(o);
    tx_tensor_free(mx[0]);
    tx_tensor_free(md[0]);
    for (int m = 0; m < 2; m++) {
        tx_tensor_free(ind[m]);
        tx_tensor_free(dat[m]);
    }
}

/* ---- inputs that are not what tensorx makes ------------------------------------------------- */

/* The error message of an axis near INT64_MAX: axis + K is formed without signed overflow (UBSan
 * stopped this call before the fix). */
static void test_boolean_mask_huge_axis_message(void **state) {
    (void)state;
    tx_tensor *t = T32(1, TU_DIMS(2), 1, 2), *m = TB(1, TU_DIMS(2), 1, 0), *o = NULL;
    tu_assert_error(tx_boolean_mask(t, m, INT64_MAX, &o), TX_INVALID_ARGUMENT,
                    "tensor.shape[9223372036854775807:9223372036854775808]");
    tu_assert_error(tx_boolean_mask(t, m, INT64_MIN, &o), TX_INVALID_ARGUMENT,
                    "tensor.shape[-9223372036854775808:-9223372036854775807]");
    tx_tensor_free(t);
    tx_tensor_free(m);
}

/* TF 2.21 decides a negative axis with a mask of rank K > 1 (the oracle found it): tf.boolean_mask
 * reshapes to rank - K + 1 dims and gathers with the same negative axis there, i.e. along the dim
 * K - 1 places before the masked ones, the true entries' flat positions as indices. */
static void test_boolean_mask_negative_axis_rank_k(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 4, TU_DIMS(2, 3, 2, 2)), *o = NULL;
    tx_tensor *m = TB(2, TU_DIMS(3, 2), 1, 1, 0, 0, 0, 0);
    /* axis -3: masked dims 1..2, gathered along dim 0 with indices [0, 1]: the whole of t,
     * shaped [2, 6, 2]. */
    assert_int_equal(tx_boolean_mask(t, m, -3, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 6, 2));
    tu_assert_values(o, TU_VALS(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                21, 22, 23));
    tx_tensor_free(o);
    tx_tensor_free(m);
    /* a true position past that dim (2 of [0, 2)) is GatherV2's index error */
    m = TB(2, TU_DIMS(3, 2), 0, 0, 1, 0, 0, 0);
    tu_assert_error(tx_boolean_mask(t, m, -3, &o), TX_INVALID_ARGUMENT, "indices[0] = 2 is not in [0, 2)");
    tx_tensor_free(m);
    /* no dim before the masked ones: GatherV2's rank check */
    m = TB(2, TU_DIMS(2, 3), 1, 0, 0, 0, 0, 0);
    tu_assert_error(tx_boolean_mask(t, m, -4, &o), TX_INVALID_ARGUMENT, "Shape must be at least rank 4 but is rank 3");
    assert_null(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
}

/* Non-bool masks count nonzero entries as Where does: -0.0 is zero, NaN is not; a complex entry
 * is nonzero when either part is; TF 2.21's CPU flushes float32/float64 subnormals to zero, but
 * not bfloat16 ones (the oracle found both). */
static void test_boolean_mask_number_masks(void **state) {
    (void)state;
    tx_tensor *t = T32(1, TU_DIMS(3), 10, 20, 30), *o = NULL;
    const uint32_t fbits[3] = {0x80000000u, 0x7fc00000u, 0x00000001u};
    tx_tensor *m = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT32, 1, TU_DIMS(3), fbits, sizeof fbits, &m), TX_OK);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(20));
    tx_tensor_free(o);
    tx_tensor_free(m);
    const uint16_t bbits[3] = {0x8001u, 0x8000u, 0};
    assert_int_equal(tx_tensor_from_data(TX_BFLOAT16, 1, TU_DIMS(3), bbits, sizeof bbits, &m), TX_OK);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(10));
    tx_tensor_free(o);
    tx_tensor_free(m);
    const uint64_t cbits[6] = {0x8000000000000000u, 0, 0, 0x8000000000000000u, 0, 1};
    assert_int_equal(tx_tensor_from_data(TX_COMPLEX128, 1, TU_DIMS(3), cbits, sizeof cbits, &m), TX_OK);
    assert_int_equal(tx_boolean_mask(t, m, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(30));
    tx_tensor_free(o);
    tx_tensor_free(m);
    tx_tensor_free(t);
}

int main(void) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dynamic_partition),
        cmocka_unit_test(test_dynamic_stitch),
        cmocka_unit_test(test_boolean_mask),
        cmocka_unit_test(test_oob_dynamic_stitch),
        cmocka_unit_test(test_boolean_mask_huge_axis_message),
        cmocka_unit_test(test_boolean_mask_negative_axis_rank_k),
        cmocka_unit_test(test_boolean_mask_number_masks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
