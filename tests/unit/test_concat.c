/* SPDX-License-Identifier: Apache-2.0 */
/* test_concat.c -- concat, pack and meshgrid: every example of TF's page with TensorFlow's result,
 * TensorFlow's edge cases (zero-size inputs, negative axes, scalars, the single-value concat),
 * string tensors, every dtype and every error with its status and message. */
#include "reorder_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- concat ---- */

static void test_concat_page_examples(void **state) {
    (void)state;
    /* t1 = [[1, 2, 3], [4, 5, 6]]; t2 = [[7, 8, 9], [10, 11, 12]] */
    tx_tensor *t1 = iota(TX_INT32, 2, TU_DIMS(2, 3)), *t2 = iota_from(TX_INT32, 2, TU_DIMS(2, 3), 7);
    const tx_tensor *v[2] = {t1, t2};
    tx_tensor *o = NULL;
    assert_int_equal(tx_concat(v, 2, 0, &o), TX_OK);
    check_values(o, TX_INT32, 2, TU_DIMS(4, 3), TU_VALS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    assert_int_equal(tx_concat(v, 2, 1, &o), TX_OK);
    check_values(o, TX_INT32, 2, TU_DIMS(2, 6), TU_VALS(1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12));
    /* Negative concat_dim counts from the end. */
    assert_int_equal(tx_concat(v, 2, -1, &o), TX_OK);
    check_values(o, TX_INT32, 2, TU_DIMS(2, 6), TU_VALS(1, 2, 3, 7, 8, 9, 4, 5, 6, 10, 11, 12));
    assert_int_equal(tx_concat(v, 2, -2, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(4, 3));
    tx_tensor_free(o);
    tx_tensor_free(t1);
    tx_tensor_free(t2);
}

static void test_concat_edge(void **state) {
    (void)state;
    tx_tensor *a = iota(TX_FLOAT32, 3, TU_DIMS(2, 1, 2)), *z = tu_tensor(TX_FLOAT32, 3, TU_DIMS(2, 0, 2), NULL);
    tx_tensor *b = iota_from(TX_FLOAT32, 3, TU_DIMS(2, 2, 2), 10), *o = NULL;
    /* Zero-size inputs take part in the shape checks and contribute nothing. */
    const tx_tensor *v[4] = {z, a, z, b};
    assert_int_equal(tx_concat(v, 4, 1, &o), TX_OK);
    check_values(o, TX_FLOAT32, 3, TU_DIMS(2, 3, 2), TU_VALS(1, 2, 10, 11, 12, 13, 3, 4, 14, 15, 16, 17));
    const tx_tensor *zz[2] = {z, z};
    assert_int_equal(tx_concat(zz, 2, 1, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 3, TU_DIMS(2, 0, 2));
    tx_tensor_free(o);
    /* ...but a zero-size input must still match in the other dims. */
    tx_tensor *z2 = tu_tensor(TX_FLOAT32, 3, TU_DIMS(0, 0, 2), NULL);
    const tx_tensor *bad[2] = {a, z2};
    tu_assert_error(tx_concat(bad, 2, 1, &o), TX_INVALID_ARGUMENT, "values[1] differs from values[0] in dimension 0");
    assert_null(o);
    /* tf.concat with one value returns it and never looks at concat_dim (even for a scalar). */
    const tx_tensor *one[1] = {a};
    assert_int_equal(tx_concat(one, 1, 99, &o), TX_OK);
    check_values(o, TX_FLOAT32, 3, TU_DIMS(2, 1, 2), TU_VALS(1, 2, 3, 4));
    tx_tensor *s = tu_tensor(TX_INT64, 0, NULL, TU_VALS(5));
    const tx_tensor *ones[1] = {s};
    assert_int_equal(tx_concat(ones, 1, 0, &o), TX_OK);
    check_values(o, TX_INT64, 0, NULL, TU_VALS(5));
    /* Concatenating along the outermost dim of 1-D inputs, many inputs. */
    tx_tensor *parts[40];
    for (int i = 0; i < 40; i++) parts[i] = iota_from(TX_INT16, 1, TU_DIMS(i % 3), 100 * i);
    assert_int_equal(tx_concat((const tx_tensor *const *)parts, 40, 0, &o), TX_OK);
    int64_t k = 0;
    for (int i = 0; i < 40; i++)
        for (int j = 0; j < i % 3; j++, k++) assert_int_equal(((int16_t *)tx_tensor_data(o))[k], 100 * i + j);
    assert_int_equal(tx_tensor_numel(o), k);
    tx_tensor_free(o);
    for (int i = 0; i < 40; i++) tx_tensor_free(parts[i]);
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(z);
    tx_tensor_free(z2);
    tx_tensor_free(s);
}

static void test_concat_strings(void **state) {
    (void)state;
    tx_tensor *a = tu_strings(2, TU_DIMS(2, 1), (const char *[]){"Intel", "Open"});
    tx_tensor *b = tu_strings(2, TU_DIMS(2, 2), (const char *[]){"x", "", "VINO", "yz"});
    const tx_tensor *v[2] = {a, b};
    tx_tensor *o = NULL;
    assert_int_equal(tx_concat(v, 2, 1, &o), TX_OK);
    /* The output keeps the inputs' string bytes alive. */
    tx_tensor_free(a);
    tx_tensor_free(b);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(2, 3));
    assert_strings(o, (const char *[]){"Intel", "x", "", "Open", "VINO", "yz"});
    tx_tensor_free(o);
}

static void test_concat_errors(void **state) {
    (void)state;
    tx_tensor *a = iota(TX_INT32, 2, TU_DIMS(2, 3)), *b = iota(TX_INT32, 2, TU_DIMS(3, 3));
    tx_tensor *f = iota(TX_FLOAT32, 2, TU_DIMS(2, 3)), *r3 = iota(TX_INT32, 3, TU_DIMS(2, 3, 1));
    tx_tensor *s = tu_tensor(TX_INT32, 0, NULL, TU_VALS(1)), *o = (tx_tensor *)1;
    const tx_tensor *v[3] = {a, a, NULL};
    tu_assert_error(tx_concat(v, 0, 0, &o), TX_INVALID_ARGUMENT, "at least 1 tensor");
    assert_null(o);
    tu_assert_error(tx_concat(NULL, 2, 0, &o), TX_INVALID_ARGUMENT, "values is NULL");
    tu_assert_error(tx_concat(v, 3, 0, &o), TX_INVALID_ARGUMENT, "values[2] is NULL");
    tu_assert_error(tx_concat(v, 2, 0, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_concat(v, 2, 2, &o), TX_INVALID_ARGUMENT, "concat_dim 2 is out of range [-2, 2)");
    tu_assert_error(tx_concat(v, 2, -3, &o), TX_INVALID_ARGUMENT, "concat_dim -3 is out of range [-2, 2)");
    const tx_tensor *vs[2] = {s, s};
    tu_assert_error(tx_concat(vs, 2, 0, &o), TX_INVALID_ARGUMENT, "scalars cannot be concatenated");
    const tx_tensor *vf[3] = {a, a, f};
    tu_assert_error(tx_concat(vf, 3, 0, &o), TX_INVALID_ARGUMENT, "values[2] has dtype float32 but values[0] has dtype int32");
    const tx_tensor *vr[3] = {a, r3, a};
    tu_assert_error(tx_concat(vr, 3, 0, &o), TX_INVALID_ARGUMENT, "values[1] has rank 3 but values[0] has rank 2");
    const tx_tensor *vb[2] = {a, b};
    tu_assert_error(tx_concat(vb, 2, 1, &o), TX_INVALID_ARGUMENT,
                    "values[1] differs from values[0] in dimension 0, which is not concat_dim (shape[0] = [2,3] vs. shape[1] = [3,3])");
    assert_null(o);
    assert_int_equal(tx_concat(vb, 2, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(5, 3));
    tx_tensor_free(o);
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(f);
    tx_tensor_free(r3);
    tx_tensor_free(s);
}

/* ---- pack ---- */

static void test_pack(void **state) {
    (void)state;
    /* 'x' is [1, 4], 'y' is [2, 5], 'z' is [3, 6] */
    tx_tensor *x = tu_tensor(TX_INT32, 1, TU_DIMS(2), TU_VALS(1, 4));
    tx_tensor *y = tu_tensor(TX_INT32, 1, TU_DIMS(2), TU_VALS(2, 5));
    tx_tensor *z = tu_tensor(TX_INT32, 1, TU_DIMS(2), TU_VALS(3, 6));
    const tx_tensor *v[3] = {x, y, z};
    tx_tensor *o = NULL;
    assert_int_equal(tx_pack(v, 3, 0, &o), TX_OK); /* => [[1, 4], [2, 5], [3, 6]] */
    check_values(o, TX_INT32, 2, TU_DIMS(3, 2), TU_VALS(1, 4, 2, 5, 3, 6));
    assert_int_equal(tx_pack(v, 3, 1, &o), TX_OK); /* => [[1, 2, 3], [4, 5, 6]] */
    check_values(o, TX_INT32, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6));
    assert_int_equal(tx_pack(v, 3, -1, &o), TX_OK);
    check_values(o, TX_INT32, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6));
    assert_int_equal(tx_pack(v, 3, -2, &o), TX_OK);
    check_values(o, TX_INT32, 2, TU_DIMS(3, 2), TU_VALS(1, 4, 2, 5, 3, 6));
    /* axis must be in [-(R+1), R+1) = [-2, 2). */
    tu_assert_error(tx_pack(v, 3, 2, &o), TX_INVALID_ARGUMENT, "axis 2 is out of range [-2, 2)");
    tu_assert_error(tx_pack(v, 3, -3, &o), TX_INVALID_ARGUMENT, "axis -3 is out of range [-2, 2)");
    assert_null(o);
    /* One value: a reshape. */
    assert_int_equal(tx_pack(v, 1, 1, &o), TX_OK);
    check_values(o, TX_INT32, 2, TU_DIMS(2, 1), TU_VALS(1, 4));
    /* Scalars pack into a vector. */
    tx_tensor *s1 = tu_tensor(TX_FLOAT64, 0, NULL, TU_VALS(1.5)), *s2 = tu_tensor(TX_FLOAT64, 0, NULL, TU_VALS(-2));
    const tx_tensor *vs[2] = {s1, s2};
    assert_int_equal(tx_pack(vs, 2, 0, &o), TX_OK);
    check_values(o, TX_FLOAT64, 1, TU_DIMS(2), TU_VALS(1.5, -2));
    assert_int_equal(tx_pack(vs, 2, -1, &o), TX_OK);
    check_values(o, TX_FLOAT64, 1, TU_DIMS(2), TU_VALS(1.5, -2));
    tu_assert_error(tx_pack(vs, 2, 1, &o), TX_INVALID_ARGUMENT, "axis 1 is out of range [-1, 1)");
    /* Zero-size values. */
    tx_tensor *e = tu_tensor(TX_INT8, 2, TU_DIMS(0, 3), NULL);
    const tx_tensor *ve[2] = {e, e};
    assert_int_equal(tx_pack(ve, 2, 2, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 3, TU_DIMS(0, 3, 2));
    tx_tensor_free(o);
    /* Errors. */
    tx_tensor *w = tu_tensor(TX_INT32, 1, TU_DIMS(3), NULL), *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(2), NULL);
    const tx_tensor *vw[3] = {x, y, w};
    tu_assert_error(tx_pack(vw, 3, 0, &o), TX_INVALID_ARGUMENT,
                    "shapes of all inputs must match: values[0].shape = [2] != values[2].shape = [3]");
    const tx_tensor *vf[2] = {x, f};
    tu_assert_error(tx_pack(vf, 2, 0, &o), TX_INVALID_ARGUMENT, "values[1] has dtype float32 but values[0] has dtype int32");
    tu_assert_error(tx_pack(v, 0, 0, &o), TX_INVALID_ARGUMENT, "at least 1 tensor");
    const tx_tensor *vn[2] = {x, NULL};
    tu_assert_error(tx_pack(vn, 2, 0, &o), TX_INVALID_ARGUMENT, "values[1] is NULL");
    /* Rank limit: packing rank-254 tensors would need rank 255. */
    int64_t dims[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) dims[i] = 1;
    tx_tensor *big = tu_tensor(TX_INT8, TX_MAX_RANK, dims, NULL);
    const tx_tensor *vbig[1] = {big};
    tu_assert_error(tx_pack(vbig, 1, 0, &o), TX_INVALID_ARGUMENT, "would exceed 254");
    assert_null(o);
    /* Strings. */
    tx_tensor *sa = tu_strings(1, TU_DIMS(2), (const char *[]){"a", "bc"});
    tx_tensor *sb = tu_strings(1, TU_DIMS(2), (const char *[]){"", "def"});
    const tx_tensor *vstr[2] = {sa, sb};
    assert_int_equal(tx_pack(vstr, 2, 1, &o), TX_OK);
    tx_tensor_free(sa);
    tx_tensor_free(sb);
    tu_assert_shape(o, TX_STRING, 2, TU_DIMS(2, 2));
    assert_strings(o, (const char *[]){"a", "", "bc", "def"});
    tx_tensor_free(o);
    tx_tensor *tt[] = {x, y, z, s1, s2, e, w, f, big};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* ---- meshgrid ---- */

static void test_meshgrid_page_examples(void **state) {
    (void)state;
    /* x = [1, 2, 3], y = [4, 5, 6].  TF's page shows X = [[1,1,1],[2,2,2],[3,3,3]] and
     * Y = [[4,5,6],[4,5,6],[4,5,6]] for `X, Y = meshgrid(x, y)` while saying 'xy' is the
     * default: that pair is the 'ij' result.  TensorFlow's real default is 'xy', which gives
     * X = [[1,2,3],[1,2,3],[1,2,3]] and Y = [[4,4,4],[5,5,5],[6,6,6]] (as numpy.meshgrid). */
    tx_tensor *x = tu_tensor(TX_INT32, 1, TU_DIMS(3), TU_VALS(1, 2, 3));
    tx_tensor *y = tu_tensor(TX_INT32, 1, TU_DIMS(3), TU_VALS(4, 5, 6));
    const tx_tensor *args[2] = {x, y};
    tx_tensor *outs[2];
    assert_int_equal(tx_meshgrid(args, 2, TX_MESHGRID_XY, outs), TX_OK);
    check_values(outs[0], TX_INT32, 2, TU_DIMS(3, 3), TU_VALS(1, 2, 3, 1, 2, 3, 1, 2, 3));
    check_values(outs[1], TX_INT32, 2, TU_DIMS(3, 3), TU_VALS(4, 4, 4, 5, 5, 5, 6, 6, 6));
    assert_int_equal(tx_meshgrid(args, 2, TX_MESHGRID_IJ, outs), TX_OK);
    check_values(outs[0], TX_INT32, 2, TU_DIMS(3, 3), TU_VALS(1, 1, 1, 2, 2, 2, 3, 3, 3));
    check_values(outs[1], TX_INT32, 2, TU_DIMS(3, 3), TU_VALS(4, 5, 6, 4, 5, 6, 4, 5, 6));
    tx_tensor_free(x);
    tx_tensor_free(y);
}

static void test_meshgrid_shapes(void **state) {
    (void)state;
    /* Three args of lengths 2, 3, 4: xy swaps the first two dims only. */
    tx_tensor *a = iota_from(TX_INT64, 1, TU_DIMS(2), 10), *b = iota_from(TX_INT64, 1, TU_DIMS(3), 20);
    tx_tensor *c = iota_from(TX_INT64, 1, TU_DIMS(4), 30);
    const tx_tensor *args[3] = {a, b, c};
    tx_tensor *outs[3];
    for (int ij = 0; ij < 2; ij++) {
        assert_int_equal(tx_meshgrid(args, 3, ij ? TX_MESHGRID_IJ : TX_MESHGRID_XY, outs), TX_OK);
        for (int k = 0; k < 3; k++) {
            if (ij) tu_assert_shape(outs[k], TX_INT64, 3, TU_DIMS(2, 3, 4));
            else tu_assert_shape(outs[k], TX_INT64, 3, TU_DIMS(3, 2, 4));
            const int64_t *o = tx_tensor_data(outs[k]);
            for (int64_t i0 = 0; i0 < tx_tensor_dims(outs[k])[0]; i0++)
                for (int64_t i1 = 0; i1 < tx_tensor_dims(outs[k])[1]; i1++)
                    for (int64_t i2 = 0; i2 < 4; i2++) {
                        int64_t ia = ij ? i0 : i1, ib = ij ? i1 : i0;
                        int64_t want = k == 0 ? 10 + ia : k == 1 ? 20 + ib : 30 + i2;
                        assert_int_equal(o[(i0 * tx_tensor_dims(outs[k])[1] + i1) * 4 + i2], want);
                    }
            tx_tensor_free(outs[k]);
        }
    }
    /* One arg: a flattened copy; any rank is flattened (tf.meshgrid reshapes each to [-1]). */
    tx_tensor *m = iota(TX_UINT8, 2, TU_DIMS(2, 2)), *s = tu_tensor(TX_UINT8, 0, NULL, TU_VALS(9));
    const tx_tensor *one[1] = {m};
    assert_int_equal(tx_meshgrid(one, 1, TX_MESHGRID_XY, outs), TX_OK);
    check_values(outs[0], TX_UINT8, 1, TU_DIMS(4), TU_VALS(1, 2, 3, 4));
    const tx_tensor *ms[2] = {m, s};
    assert_int_equal(tx_meshgrid(ms, 2, TX_MESHGRID_XY, outs), TX_OK);
    check_values(outs[0], TX_UINT8, 2, TU_DIMS(1, 4), TU_VALS(1, 2, 3, 4));
    check_values(outs[1], TX_UINT8, 2, TU_DIMS(1, 4), TU_VALS(9, 9, 9, 9));
    /* A zero-length arg makes every output empty. */
    tx_tensor *e = tu_tensor(TX_UINT8, 1, TU_DIMS(0), NULL);
    const tx_tensor *me[2] = {m, e};
    assert_int_equal(tx_meshgrid(me, 2, TX_MESHGRID_IJ, outs), TX_OK);
    tu_assert_shape(outs[0], TX_UINT8, 2, TU_DIMS(4, 0));
    tu_assert_shape(outs[1], TX_UINT8, 2, TU_DIMS(4, 0));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    /* No args: no outputs. */
    assert_int_equal(tx_meshgrid(NULL, 0, TX_MESHGRID_XY, NULL), TX_OK);
    tx_tensor *tt[] = {a, b, c, m, s, e};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

static void test_meshgrid_dtypes(void **state) {
    (void)state;
    tx_tensor *x = tu_strings(1, TU_DIMS(2), (const char *[]){"a", "bb"});
    tx_tensor *y = tu_strings(1, TU_DIMS(3), (const char *[]){"", "Intel", "c"});
    const tx_tensor *args[2] = {x, y};
    tx_tensor *outs[3];
    assert_int_equal(tx_meshgrid(args, 2, TX_MESHGRID_XY, outs), TX_OK);
    tx_tensor_free(x);
    tx_tensor_free(y);
    tu_assert_shape(outs[0], TX_STRING, 2, TU_DIMS(3, 2));
    assert_strings(outs[0], (const char *[]){"a", "bb", "a", "bb", "a", "bb"});
    assert_strings(outs[1], (const char *[]){"", "", "Intel", "Intel", "c", "c"});
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    /* Complex values go through TensorFlow's x * (1+0i): -0 next to a negative imaginary part
     * becomes +0, and an infinite part makes the other part NaN (0 * inf). */
    float c64[6] = {-0.0f, -1.0f, 1.5f, 2.5f, __builtin_inff(), 0.0f};
    tx_tensor *zc = NULL, *one = tu_tensor(TX_COMPLEX64, 1, TU_DIMS(1), NULL);
    assert_int_equal(tx_tensor_from_data(TX_COMPLEX64, 1, TU_DIMS(3), c64, sizeof c64, &zc), TX_OK);
    const tx_tensor *cargs[2] = {zc, one};
    assert_int_equal(tx_meshgrid(cargs, 2, TX_MESHGRID_IJ, outs), TX_OK);
    const float *r = tx_tensor_data(outs[0]);
    assert_true(r[0] == 0.0f && !__builtin_signbit(r[0]) && r[1] == -1.0f);
    assert_true(r[2] == 1.5f && r[3] == 2.5f);
    assert_true(r[4] == __builtin_inff() && r[5] != r[5]);
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    /* Errors. */
    tx_tensor *i32 = tu_tensor(TX_INT32, 1, TU_DIMS(2), NULL);
    const tx_tensor *mixed[3] = {one, zc, i32};
    tu_assert_error(tx_meshgrid(mixed, 3, TX_MESHGRID_XY, outs), TX_INVALID_ARGUMENT,
                    "args[2] has dtype int32 but args[0] has dtype complex64");
    assert_null(outs[0]);
    tu_assert_error(tx_meshgrid(cargs, 2, (tx_meshgrid_indexing)7, outs), TX_INVALID_ARGUMENT,
                    "indexing must be 'xy' or 'ij'");
    const tx_tensor *withnull[2] = {one, NULL};
    tu_assert_error(tx_meshgrid(withnull, 2, TX_MESHGRID_XY, outs), TX_INVALID_ARGUMENT, "args[1] is NULL");
    tu_assert_error(tx_meshgrid(cargs, 2, TX_MESHGRID_XY, NULL), TX_INVALID_ARGUMENT, "outs is NULL");
    const tx_tensor **many = calloc(TX_MAX_RANK + 1, sizeof *many);
    tx_tensor **mouts = calloc(TX_MAX_RANK + 1, sizeof *mouts);
    for (int i = 0; i <= TX_MAX_RANK; i++) many[i] = one;
    /* tf.meshgrid (python/ops/array_ops.py) reshapes each arg to rank n, and ReshapeOp
     * (tensorflow/core/kernels/reshape_op.h) wants fewer than 254 dims: n <= 253. */
    tu_assert_error(tx_meshgrid(many, TX_MAX_RANK + 1, TX_MESHGRID_IJ, mouts), TX_INVALID_ARGUMENT,
                    "255 args would give outputs of rank 255: too many dimensions: must be < 254");
    tu_assert_error(tx_meshgrid(many, TX_MAX_RANK, TX_MESHGRID_XY, mouts), TX_INVALID_ARGUMENT,
                    "meshgrid: 254 args would give outputs of rank 254: too many dimensions: must be < 254");
    assert_null(mouts[0]);
    /* 253 args of length 1 are fine. */
    assert_int_equal(tx_meshgrid(many, TX_RESHAPE_MAX_RANK, TX_MESHGRID_IJ, mouts), TX_OK);
    assert_int_equal(tx_tensor_rank(mouts[TX_RESHAPE_MAX_RANK - 1]), 253);
    for (int i = 0; i < TX_RESHAPE_MAX_RANK; i++) tx_tensor_free(mouts[i]);
    free(many);
    free(mouts);
    tx_tensor_free(zc);
    tx_tensor_free(one);
    tx_tensor_free(i32);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concat_page_examples),
        cmocka_unit_test(test_concat_edge),
        cmocka_unit_test(test_concat_strings),
        cmocka_unit_test(test_concat_errors),
        cmocka_unit_test(test_pack),
        cmocka_unit_test(test_meshgrid_page_examples),
        cmocka_unit_test(test_meshgrid_shapes),
        cmocka_unit_test(test_meshgrid_dtypes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
