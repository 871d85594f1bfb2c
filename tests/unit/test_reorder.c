/* SPDX-License-Identifier: Apache-2.0 */
/* test_reorder.c -- concat, pack, meshgrid, reverse (bool dims and axis list), reverse_sequence and
 * transpose: every example of TF's page with TensorFlow's result, TensorFlow's edge cases
 * (zero-size inputs, negative axes, scalars, the single-value concat, the kernels' rank limits,
 * int64 perm narrowing), string tensors, every error with its status and message, brute-force
 * comparisons of the tiled transpose and the strided reverse with naive loops over many shapes
 * and element widths, and an allocation-failure sweep for each op. */
#include "testutil.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

/* Elements 1, 2, 3, ... (or start, start+1, ...) of a numeric dtype. */
static tx_tensor *iota_from(tx_dtype dt, size_t rank, const int64_t *dims, double start) {
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    int64_t n = tx_tensor_numel(t);
    double *v = calloc((size_t)n + 1, sizeof *v);
    for (int64_t i = 0; i < n; i++) v[i] = start + (double)i;
    tx_tensor_free(t);
    t = tu_tensor(dt, rank, dims, v);
    free(v);
    return t;
}
static tx_tensor *iota(tx_dtype dt, size_t rank, const int64_t *dims) {
    return iota_from(dt, rank, dims, 1);
}

/* A tensor of random bytes (any dtype but string). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static tx_tensor *random_tensor(tx_dtype dt, size_t rank, const int64_t *dims) {
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    unsigned char *p = tx_tensor_data(t);
    for (size_t i = 0; i < tx_tensor_nbytes(t); i++) p[i] = (unsigned char)rnd();
    return t;
}

static void assert_strings(const tx_tensor *t, const char *const *want) {
    assert_int_equal(tx_tensor_dtype(t), TX_STRING);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        const tx_string *s = tx_tensor_string(t, i);
        if (s->size != strlen(want[i]) || memcmp(s->data, want[i], s->size) != 0)
            fail_msg("string %lld: got '%.*s', want '%s'", (long long)i, (int)s->size, s->data,
                     want[i]);
    }
}

static void check_values(tx_tensor *o, tx_dtype dt, size_t rank, const int64_t *dims,
                          const double *want) {
    tu_assert_shape(o, dt, rank, dims);
    tu_assert_values(o, want);
    tx_tensor_free(o);
}

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

/* ---- reverse ---- */

static tx_tensor *bools(size_t n, const int *v) {
    double d[16];
    for (size_t i = 0; i < n; i++) d[i] = v[i];
    return tu_tensor(TX_BOOL, 1, (int64_t[]){(int64_t)n}, d);
}

static void test_reverse_page_examples(void **state) {
    (void)state;
    /* 't' is [[[[0..3], [4..7], [8..11]], [[12..15], [16..19], [20..23]]]], shape [1, 2, 3, 4].
     * (The page's rendering of the results is garbled; the values below are TF's.) */
    tx_tensor *t = iota_from(TX_INT32, 4, TU_DIMS(1, 2, 3, 4), 0), *o = NULL;
    tx_tensor *d = bools(4, (int[]){0, 0, 0, 1});
    assert_int_equal(tx_reverse(t, d, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20));
    tx_tensor_free(d);
    d = bools(4, (int[]){0, 1, 0, 0});
    assert_int_equal(tx_reverse(t, d, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    tx_tensor_free(d);
    d = bools(4, (int[]){0, 0, 1, 0});
    assert_int_equal(tx_reverse(t, d, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15));
    tx_tensor_free(d);
    /* The same three through the axis-list form, with negative axes. */
    assert_int_equal(tx_reverse_v2(t, (int64_t[]){-1}, 1, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 19, 18, 17, 16, 23, 22, 21, 20));
    assert_int_equal(tx_reverse_v2(t, (int64_t[]){1}, 1, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11));
    assert_int_equal(tx_reverse_v2(t, (int64_t[]){-2}, 1, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 20, 21, 22, 23, 16, 17, 18, 19, 12, 13, 14, 15));
    /* Several dims at once, and none. */
    assert_int_equal(tx_reverse_v2(t, (int64_t[]){3, 1, 2}, 3, &o), TX_OK);
    check_values(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4),
                 TU_VALS(23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0));
    assert_int_equal(tx_reverse_v2(t, NULL, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 4));
    assert_memory_equal(tx_tensor_data(o), tx_tensor_data(t), tx_tensor_nbytes(t));
    assert_false(tx_tensor_shares_buffer(o, t));
    tx_tensor_free(o);
    tx_tensor_free(t);
}

/* Naive reverse: element by element through the full index. */
static void naive_reverse(const tx_tensor *t, const bool *flip, char *out) {
    size_t r = tx_tensor_rank(t), w = tx_dtype_size(tx_tensor_dtype(t));
    const int64_t *dims = tx_tensor_dims(t);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        int64_t rem = i, src = 0, mul = 1;
        for (size_t d = r; d-- > 0;) {
            int64_t k = rem % dims[d];
            rem /= dims[d];
            src += (flip[d] ? dims[d] - 1 - k : k) * mul;
            mul *= dims[d];
        }
        memcpy(out + i * (int64_t)w, (const char *)tx_tensor_data_const(t) + src * (int64_t)w, w);
    }
}

static void test_reverse_brute(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_INT8, TX_FLOAT16, TX_FLOAT32, TX_INT64, TX_COMPLEX128};
    for (int trial = 0; trial < 400; trial++) {
        size_t r = 1 + rnd() % 6;
        int64_t dims[6];
        for (size_t d = 0; d < r; d++) dims[d] = (int64_t)(rnd() % 5);
        if (trial % 7) for (size_t d = 0; d < r; d++) dims[d] += dims[d] == 0;
        tx_tensor *t = random_tensor(dts[trial % 5], r, dims), *o = NULL;
        bool flip[6];
        int64_t axis[6];
        size_t na = 0;
        for (size_t d = 0; d < r; d++) {
            flip[d] = rnd() & 1;
            if (flip[d]) axis[na++] = rnd() & 1 ? (int64_t)d : (int64_t)d - (int64_t)r;
        }
        char *want = malloc(tx_tensor_nbytes(t) + 1);
        naive_reverse(t, flip, want);
        assert_int_equal(tx_reverse_v2(t, axis, na, &o), TX_OK);
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(t));
        tx_tensor_free(o);
        double fl[6];
        for (size_t d = 0; d < r; d++) fl[d] = flip[d];
        tx_tensor *bd = tu_tensor(TX_BOOL, 1, (int64_t[]){(int64_t)r}, fl);
        if (dims[0] == 0) {
            /* The bool-dims form refuses an empty first dim (reverse_op.cc, ReverseOp). */
            tu_assert_error(tx_reverse(t, bd, &o), TX_INVALID_ARGUMENT, "Invalid input first dimension. Found 0.");
        } else {
            assert_int_equal(tx_reverse(t, bd, &o), TX_OK);
            assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(t));
            tx_tensor_free(o);
        }
        tx_tensor_free(bd);
        tx_tensor_free(t);
        free(want);
    }
}

static void test_reverse_edge_errors(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 2, TU_DIMS(2, 3)), *o = NULL;
    /* Scalars come back as they are, whatever dims/axis say (TensorFlow's kernels return before
     * reading them). */
    tx_tensor *s = tu_tensor(TX_FLOAT32, 0, NULL, TU_VALS(2.5)), *d1 = bools(1, (int[]){1});
    assert_int_equal(tx_reverse(s, d1, &o), TX_OK);
    check_values(o, TX_FLOAT32, 0, NULL, TU_VALS(2.5));
    assert_int_equal(tx_reverse_v2(s, (int64_t[]){5}, 1, &o), TX_OK);
    check_values(o, TX_FLOAT32, 0, NULL, TU_VALS(2.5));
    /* Legacy dims errors. */
    tu_assert_error(tx_reverse(t, d1, &o), TX_INVALID_ARGUMENT, "dims has 1 values but tensor has rank 2");
    assert_null(o);
    tx_tensor *di = tu_tensor(TX_INT32, 1, TU_DIMS(2), NULL), *d2 = tu_tensor(TX_BOOL, 2, TU_DIMS(1, 2), NULL);
    tu_assert_error(tx_reverse(t, di, &o), TX_INVALID_ARGUMENT, "dims must be bool, got int32");
    tu_assert_error(tx_reverse(s, di, &o), TX_INVALID_ARGUMENT, "dims must be bool, got int32");
    tu_assert_error(tx_reverse(t, d2, &o), TX_INVALID_ARGUMENT, "dims must be 1-D, got rank 2");
    tu_assert_error(tx_reverse(t, NULL, &o), TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_reverse(NULL, d1, &o), TX_INVALID_ARGUMENT, "tensor is NULL");
    /* Axis-list errors. */
    tu_assert_error(tx_reverse_v2(t, (int64_t[]){2}, 1, &o), TX_INVALID_ARGUMENT, "axis[0] = 2 is out of range [-2, 2)");
    tu_assert_error(tx_reverse_v2(t, (int64_t[]){0, -3}, 2, &o), TX_INVALID_ARGUMENT, "axis[1] = -3 is out of range [-2, 2)");
    tu_assert_error(tx_reverse_v2(t, (int64_t[]){1, -1}, 2, &o), TX_INVALID_ARGUMENT,
                    "axis 1 is specified more than once (axis[1] = -1)");
    tu_assert_error(tx_reverse_v2(t, (int64_t[]){0, 0}, 2, &o), TX_INVALID_ARGUMENT, "axis 0 is specified more than once");
    tu_assert_error(tx_reverse_v2(t, NULL, 1, &o), TX_INVALID_ARGUMENT, "axis is NULL");
    assert_null(o);
    /* Rank above 8: TensorFlow's kernels stop there (unimplemented); a bad axis is still
     * invalid_argument first, as in ReverseV2. */
    tx_tensor *r9 = tu_tensor(TX_INT8, 9, TU_DIMS(1, 1, 1, 1, 1, 1, 1, 1, 2), NULL);
    tu_assert_error(tx_reverse_v2(r9, (int64_t[]){8}, 1, &o), TX_UNIMPLEMENTED, "not implemented for rank > 8");
    tu_assert_error(tx_reverse_v2(r9, (int64_t[]){9}, 1, &o), TX_INVALID_ARGUMENT, "out of range");
    tx_tensor *d9 = tu_tensor(TX_BOOL, 1, TU_DIMS(9), NULL);
    tu_assert_error(tx_reverse(r9, d9, &o), TX_UNIMPLEMENTED, "not implemented for rank > 8");
    tx_tensor *r8 = iota(TX_INT8, 8, TU_DIMS(1, 1, 1, 1, 1, 1, 2, 2));
    assert_int_equal(tx_reverse_v2(r8, (int64_t[]){-1, 6}, 2, &o), TX_OK);
    check_values(o, TX_INT8, 8, TU_DIMS(1, 1, 1, 1, 1, 1, 2, 2), TU_VALS(4, 3, 2, 1));
    /* Strings, and a bool `dims` holding a non-0/1 byte counts as true. */
    tx_tensor *st = tu_strings(2, TU_DIMS(2, 2), (const char *[]){"a", "bb", "", "dddd"});
    tx_tensor *dd = bools(2, (int[]){0, 1});
    ((uint8_t *)tx_tensor_data(dd))[1] = 7;
    assert_int_equal(tx_reverse(st, dd, &o), TX_OK);
    tx_tensor_free(st);
    assert_strings(o, (const char *[]){"bb", "a", "dddd", ""});
    tx_tensor_free(o);
    /* Zero-size tensors.  ReverseV2Op (tensorflow/core/kernels/reverse_op.cc) returns an input
     * with no elements before it reads axis, so out-of-range and repeated axes pass, at any rank. */
    tx_tensor *z = tu_tensor(TX_INT32, 2, TU_DIMS(0, 3), NULL);
    assert_int_equal(tx_reverse_v2(z, (int64_t[]){0, 1}, 2, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(0, 3));
    tx_tensor_free(o);
    tx_tensor *z1 = tu_tensor(TX_FLOAT32, 1, TU_DIMS(0), NULL);
    assert_int_equal(tx_reverse_v2(z1, (int64_t[]){0, 0}, 2, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 1, TU_DIMS(0));
    tx_tensor_free(o);
    assert_int_equal(tx_reverse_v2(z, (int64_t[]){7, -9, 7}, 3, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(0, 3));
    tx_tensor_free(o);
    tx_tensor *z9 = tu_tensor(TX_INT8, 9, TU_DIMS(2, 1, 1, 1, 1, 1, 1, 1, 0), NULL);
    assert_int_equal(tx_reverse_v2(z9, (int64_t[]){8}, 1, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 9, TU_DIMS(2, 1, 1, 1, 1, 1, 1, 1, 0));
    tx_tensor_free(o);
    tu_assert_error(tx_reverse_v2(z, NULL, 1, &o), TX_INVALID_ARGUMENT, "axis is NULL");
    /* ReverseOp (reverse_op.cc) refuses a first dim of 0 before anything else it checks, even
     * when dims is malformed; an empty dim elsewhere is fine (below rank 9). */
    tx_tensor *dz = bools(2, (int[]){1, 1});
    tu_assert_error(tx_reverse(z, dz, &o), TX_INVALID_ARGUMENT, "Invalid input first dimension. Found 0.");
    tu_assert_error(tx_reverse(z, d1, &o), TX_INVALID_ARGUMENT, "Invalid input first dimension. Found 0.");
    tu_assert_error(tx_reverse(z1, d2, &o), TX_INVALID_ARGUMENT, "Invalid input first dimension. Found 0.");
    tu_assert_error(tx_reverse(z, di, &o), TX_INVALID_ARGUMENT, "dims must be bool, got int32");
    assert_null(o);
    tx_tensor *z30 = tu_tensor(TX_INT32, 2, TU_DIMS(3, 0), NULL);
    assert_int_equal(tx_reverse(z30, dz, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(3, 0));
    tx_tensor_free(o);
    tu_assert_error(tx_reverse(z30, d1, &o), TX_INVALID_ARGUMENT, "dims has 1 values but tensor has rank 2");
    tx_tensor *tt[] = {t, s, d1, di, d2, r9, d9, r8, dd, z, z1, z9, dz, z30};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* ---- reverse_sequence ---- */

/* Naive reverse_sequence over the full index. */
static void naive_reverse_sequence(const tx_tensor *t, const int64_t *lens, size_t sd, size_t bd,
                                   char *out) {
    size_t r = tx_tensor_rank(t), w = tx_dtype_size(tx_tensor_dtype(t));
    const int64_t *dims = tx_tensor_dims(t);
    int64_t idx[8];
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        int64_t rem = i;
        for (size_t d = r; d-- > 0;) {
            idx[d] = rem % dims[d];
            rem /= dims[d];
        }
        int64_t L = lens[idx[bd]];
        if (idx[sd] < L) idx[sd] = L - 1 - idx[sd];
        int64_t src = 0;
        for (size_t d = 0; d < r; d++) src = src * dims[d] + idx[d];
        memcpy(out + i * (int64_t)w, (const char *)tx_tensor_data_const(t) + src * (int64_t)w, w);
    }
}

static void test_reverse_sequence_page_examples(void **state) {
    (void)state;
    /* batch_dim = 0, seq_dim = 1, input.dims = (4, 8, ...), seq_lengths = [7, 2, 3, 5]:
     * output[b, 0:L] = input[b, L-1::-1] and output[b, L:] = input[b, L:].  (The page writes
     * the reversed slices as input[b, L:0:-1], off by one, and its last "copied through" line
     * should read output[3, 5:, ...].) */
    tx_tensor *in = iota_from(TX_INT32, 3, TU_DIMS(4, 8, 2), 0), *o = NULL;
    tx_tensor *lens = tu_i64(4, TU_DIMS(7, 2, 3, 5));
    assert_int_equal(tx_reverse_sequence(in, lens, 1, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(4, 8, 2));
    const int32_t *v = tx_tensor_data(o);
    /* Row 0: positions 0..6 reversed, 7 kept. */
    for (int s = 0; s < 8; s++) {
        int from = s < 7 ? 6 - s : s;
        assert_int_equal(v[(0 * 8 + s) * 2], (0 * 8 + from) * 2);
        assert_int_equal(v[(0 * 8 + s) * 2 + 1], (0 * 8 + from) * 2 + 1);
    }
    /* Row 3: 0..4 reversed, 5.. kept. */
    for (int s = 0; s < 8; s++) assert_int_equal(v[(3 * 8 + s) * 2], (3 * 8 + (s < 5 ? 4 - s : s)) * 2);
    char *want = malloc(tx_tensor_nbytes(in));
    naive_reverse_sequence(in, (int64_t[]){7, 2, 3, 5}, 1, 0, want);
    assert_memory_equal(v, want, tx_tensor_nbytes(in));
    free(want);
    tx_tensor_free(o);
    tx_tensor_free(in);
    /* batch_dim = 2, seq_dim = 0, input.dims = (8, ?, 4, ...) with int32 seq_lengths. */
    in = iota_from(TX_INT16, 4, TU_DIMS(8, 3, 4, 2), 0);
    tx_tensor *l32 = tu_i32(4, (int32_t[]){7, 2, 3, 5});
    assert_int_equal(tx_reverse_sequence(in, l32, 0, 2, &o), TX_OK);
    want = malloc(tx_tensor_nbytes(in));
    naive_reverse_sequence(in, (int64_t[]){7, 2, 3, 5}, 0, 2, want);
    assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(in));
    /* output[0:7, :, 0, :] = input[6::-1, :, 0, :] */
    assert_int_equal(((int16_t *)tx_tensor_data(o))[0], ((int16_t *)tx_tensor_data(in))[6 * 24]);
    free(want);
    tx_tensor_free(o);
    tx_tensor_free(in);
    tx_tensor_free(lens);
    tx_tensor_free(l32);
}

static void test_reverse_sequence_brute(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_BOOL, TX_BFLOAT16, TX_UINT32, TX_FLOAT64, TX_COMPLEX128};
    for (int trial = 0; trial < 300; trial++) {
        size_t r = 2 + rnd() % 4;
        int64_t dims[5];
        for (size_t d = 0; d < r; d++) dims[d] = (int64_t)(rnd() % 5) + (trial % 9 != 0);
        size_t bd = rnd() % r, sd = rnd() % r;
        if (sd == bd) sd = (bd + 1) % r;
        int64_t lens[8];
        for (int64_t b = 0; b < dims[bd]; b++) lens[b] = (int64_t)(rnd() % (uint64_t)(dims[sd] + 1));
        tx_tensor *t = random_tensor(dts[trial % 5], r, dims), *o = NULL;
        tx_tensor *lt = tu_i64((size_t)dims[bd], lens);
        char *want = malloc(tx_tensor_nbytes(t) + 1);
        naive_reverse_sequence(t, lens, sd, bd, want);
        assert_int_equal(tx_reverse_sequence(t, lt, (int64_t)sd, (int64_t)bd, &o), TX_OK);
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(t));
        tx_tensor_free(o);
        tx_tensor_free(t);
        tx_tensor_free(lt);
        free(want);
    }
}

static void test_reverse_sequence_errors(void **state) {
    (void)state;
    tx_tensor *in = iota(TX_INT32, 2, TU_DIMS(3, 4)), *o = NULL;
    tx_tensor *ok = tu_i64(3, TU_DIMS(4, 0, 1)), *o2 = NULL;
    /* seq_lengths[i] == input.dims[seq_dim] is accepted (the page's "<" is stricter than TF). */
    assert_int_equal(tx_reverse_sequence(in, ok, 1, 0, &o2), TX_OK);
    check_values(o2, TX_INT32, 2, TU_DIMS(3, 4), TU_VALS(4, 3, 2, 1, 5, 6, 7, 8, 9, 10, 11, 12));
    tx_tensor *big = tu_i64(3, TU_DIMS(4, 5, 1)), *neg = tu_i32(3, (int32_t[]){0, 1, -1});
    tx_tensor *short_ = tu_i64(2, TU_DIMS(1, 1)), *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), NULL);
    tx_tensor *m = tu_tensor(TX_INT64, 2, TU_DIMS(3, 1), NULL);
    tu_assert_error(tx_reverse_sequence(in, big, 1, 0, &o), TX_INVALID_ARGUMENT,
                    "seq_lengths[1] = 5 is above input.dims[seq_dim=1] = 4");
    tu_assert_error(tx_reverse_sequence(in, neg, 1, 0, &o), TX_INVALID_ARGUMENT, "seq_lengths[2] = -1 is negative");
    tu_assert_error(tx_reverse_sequence(in, short_, 1, 0, &o), TX_INVALID_ARGUMENT,
                    "seq_lengths has 2 values, input.dims[batch_dim=0] is 3");
    /* a dtype the op does not take: unimplemented (TF 2.21 decides) */
    tu_assert_error(tx_reverse_sequence(in, f, 1, 0, &o), TX_UNIMPLEMENTED, "seq_lengths must be int32 or int64, got float32");
    /* ... and checked before the dims, as TF's op definition is */
    tu_assert_error(tx_reverse_sequence(in, f, 1, -1, &o), TX_UNIMPLEMENTED, "seq_lengths must be int32 or int64");
    tu_assert_error(tx_reverse_sequence(in, m, 1, 0, &o), TX_INVALID_ARGUMENT, "seq_lengths must be 1-D, got rank 2");
    tu_assert_error(tx_reverse_sequence(in, ok, 0, 0, &o), TX_INVALID_ARGUMENT, "batch_dim and seq_dim must differ, both are 0");
    tu_assert_error(tx_reverse_sequence(in, ok, 2, 0, &o), TX_INVALID_ARGUMENT, "seq_dim 2 must be < the input rank 2");
    tu_assert_error(tx_reverse_sequence(in, ok, 1, 2, &o), TX_INVALID_ARGUMENT, "batch_dim 2 must be < the input rank 2");
    tu_assert_error(tx_reverse_sequence(in, ok, -1, 0, &o), TX_INVALID_ARGUMENT, "seq_dim -1 is negative");
    tu_assert_error(tx_reverse_sequence(in, ok, 1, -1, &o), TX_INVALID_ARGUMENT, "batch_dim -1 is negative");
    tu_assert_error(tx_reverse_sequence(NULL, ok, 1, 0, &o), TX_INVALID_ARGUMENT, "input is NULL");
    tu_assert_error(tx_reverse_sequence(in, NULL, 1, 0, &o), TX_INVALID_ARGUMENT, "seq_lengths is NULL");
    assert_null(o);
    /* TensorFlow's kernel takes ranks 2..5 only; rank 6 fails after the other checks pass. */
    tx_tensor *r6 = tu_tensor(TX_INT8, 6, TU_DIMS(2, 2, 1, 1, 1, 1), NULL), *l2 = tu_i64(2, TU_DIMS(1, 2));
    tu_assert_error(tx_reverse_sequence(r6, l2, 1, 0, &o), TX_INVALID_ARGUMENT, "handles ranks 2 to 5 only");
    tx_tensor *r1 = tu_tensor(TX_INT8, 1, TU_DIMS(2), NULL);
    tu_assert_error(tx_reverse_sequence(r1, l2, 1, 0, &o), TX_INVALID_ARGUMENT, "seq_dim 1 must be < the input rank 1");
    /* Strings and zero-size inputs. */
    tx_tensor *st = tu_strings(2, TU_DIMS(2, 3), (const char *[]){"a", "b", "c", "d", "e", "f"});
    tx_tensor *l3 = tu_i64(3, TU_DIMS(2, 0, 1));
    assert_int_equal(tx_reverse_sequence(st, l3, 0, 1, &o), TX_OK);
    tx_tensor_free(st);
    assert_strings(o, (const char *[]){"d", "b", "c", "a", "e", "f"});
    tx_tensor_free(o);
    tx_tensor *z = tu_tensor(TX_INT32, 3, TU_DIMS(2, 0, 3), NULL);
    assert_int_equal(tx_reverse_sequence(z, l2, 2, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 0, 3));
    tx_tensor_free(o);
    tu_assert_error(tx_reverse_sequence(z, l2, 1, 0, &o), TX_INVALID_ARGUMENT, "is above input.dims[seq_dim=1] = 0");
    tx_tensor *tt[] = {in, ok, big, neg, short_, f, m, r6, l2, r1, l3, z};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

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

/* Naive transpose through the full index. */
static void naive_transpose(const tx_tensor *t, const size_t *perm, char *out) {
    size_t r = tx_tensor_rank(t), w = tx_dtype_size(tx_tensor_dtype(t));
    const int64_t *dims = tx_tensor_dims(t);
    int64_t strides[8], odims[8], idx[8];
    int64_t s = 1;
    for (size_t d = r; d-- > 0;) {
        strides[d] = s;
        s *= dims[d];
    }
    for (size_t j = 0; j < r; j++) odims[j] = dims[perm[j]];
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        int64_t rem = i, src = 0;
        for (size_t j = r; j-- > 0;) {
            idx[j] = rem % odims[j];
            rem /= odims[j];
            src += idx[j] * strides[perm[j]];
        }
        memcpy(out + i * (int64_t)w, (const char *)tx_tensor_data_const(t) + src * (int64_t)w, w);
    }
}

static void check_transpose(tx_dtype dt, size_t r, const int64_t *dims, const size_t *perm) {
    tx_tensor *t = random_tensor(dt, r, dims), *o = NULL;
    int64_t p64[8];
    for (size_t j = 0; j < r; j++) p64[j] = (int64_t)perm[j];
    tx_tensor *pt = tu_i64(r, p64);
    char *want = malloc(tx_tensor_nbytes(t) + 1);
    naive_transpose(t, perm, want);
    assert_int_equal(tx_transpose(t, pt, 0, &o), TX_OK);
    for (size_t j = 0; j < r; j++) assert_int_equal(tx_tensor_dims(o)[j], dims[perm[j]]);
    if (memcmp(tx_tensor_data(o), want, tx_tensor_nbytes(t)) != 0) {
        char b[128] = "";
        for (size_t j = 0; j < r; j++)
            snprintf(b + strlen(b), sizeof b - strlen(b), "%lld:%zu ", (long long)dims[j], perm[j]);
        fail_msg("transpose %s dims:perm %s differs from the naive loop", tx_dtype_name(dt), b);
    }
    tx_tensor_free(o);
    tx_tensor_free(pt);
    tx_tensor_free(t);
    free(want);
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

/* The deliberate differences from TF 2.21 that tests/tf/ops_reorder.py registers: tensorx moves
 * the bits where TF's meshgrid (x * ones on threads that flush subnormals) and its oneDNN
 * ConjugateTranspose change them, and returns what TF's ConjugateTranspose aborts on. */
static void test_tf_differences_kept(void **state) {
    (void)state;
    const uint32_t f32[3] = {0x00000011u, 0x80000011u, 0x7f800001u}; /* subnormals, sNaN */
    const uint16_t bf16[3] = {0x0011u, 0x8011u, 0x7f81u};
    tx_tensor *x = NULL, *b = NULL, *outs[2] = {NULL, NULL}, *o = NULL;
    assert_int_equal(tx_tensor_from_data(TX_FLOAT32, 1, TU_DIMS(3), f32, sizeof f32, &x), TX_OK);
    assert_int_equal(tx_tensor_from_data(TX_BFLOAT16, 2, TU_DIMS(1, 3), bf16, sizeof bf16, &b),
                     TX_OK);
    const tx_tensor *args[1] = {x};
    assert_int_equal(tx_meshgrid(args, 1, TX_MESHGRID_XY, outs), TX_OK);
    assert_memory_equal(tx_tensor_data(outs[0]), f32, sizeof f32); /* TF: 0, -0, 0x7fc00001 */
    tx_tensor_free(outs[0]);
    /* bfloat16, identity permutation, conjugate: TF's oneDNN path gives 0, -0, 0x7fc1 */
    tx_tensor *id = tu_i32(2, (int32_t[]){0, 1});
    assert_int_equal(tx_transpose(b, id, 1, &o), TX_OK);
    assert_memory_equal(tx_tensor_data(o), bf16, sizeof bf16);
    tx_tensor_free(o);
    /* TF's ConjugateTranspose aborts on a float32 or bfloat16 scalar and on strings of rank < 2 */
    const float one = 1.5f;
    tx_tensor *s = NULL, *str = tu_strings(1, TU_DIMS(2), (const char *[]){"Intel", "VINO"});
    assert_int_equal(tx_tensor_from_data(TX_FLOAT32, 0, NULL, &one, sizeof one, &s), TX_OK);
    assert_int_equal(tx_transpose(s, NULL, 1, &o), TX_OK);
    assert_true(tx_tensor_rank(o) == 0 && *(const float *)tx_tensor_data(o) == 1.5f);
    tx_tensor_free(o);
    assert_int_equal(tx_transpose(str, NULL, 1, &o), TX_OK);
    assert_strings(o, (const char *[]){"Intel", "VINO"});
    tx_tensor_free(o);
    tx_tensor_free(s);
    tx_tensor_free(str);
    tx_tensor_free(id);
    tx_tensor_free(b);
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

/* ---- large inputs: the thread-pool paths give the naive loops' bytes for 1 and 4 threads ---- */

static void test_large_parallel(void **state) {
    (void)state;
    for (int threads = 1; threads <= 4; threads += 3) {
        tx_set_num_threads(threads);
        /* transpose: a few big planes (chunked), many small planes, a wide-element copy. */
        check_transpose(TX_FLOAT32, 2, (int64_t[]){700, 650}, (size_t[]){1, 0});
        check_transpose(TX_INT16, 3, (int64_t[]){3, 500, 420}, (size_t[]){2, 0, 1});
        check_transpose(TX_UINT8, 3, (int64_t[]){40000, 7, 5}, (size_t[]){0, 2, 1});
        check_transpose(TX_FLOAT64, 3, (int64_t[]){300, 200, 3}, (size_t[]){1, 0, 2});
        check_transpose(TX_COMPLEX64, 3, (int64_t[]){1, 1, 200000}, (size_t[]){1, 0, 2});
        /* conjugate on a large complex tensor */
        tx_tensor *z = random_tensor(TX_COMPLEX128, 2, TU_DIMS(300, 500)), *o = NULL;
        assert_int_equal(tx_transpose(z, NULL, 1, &o), TX_OK);
        char *want = malloc(tx_tensor_nbytes(z));
        naive_transpose(z, (size_t[]){1, 0}, want);
        /* the imaginary part's sign bit: in its last byte on a little-endian host, first on a
         * big-endian one */
        const int sign_byte = 8 + (TX_HOST_LITTLE_ENDIAN ? 7 : 0);
        for (int64_t i = 0; i < tx_tensor_numel(z); i++) want[16 * i + sign_byte] ^= (char)0x80;
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(z));
        tx_tensor_free(o);
        free(want);
        tx_tensor_free(z);
        /* reverse_sequence, both dim orders */
        tx_tensor *in = random_tensor(TX_INT32, 3, TU_DIMS(64, 100, 50));
        int64_t lens[100];
        for (int b = 0; b < 100; b++) lens[b] = (int64_t)(rnd() % 65);
        tx_tensor *lt = tu_i64(100, lens);
        want = malloc(tx_tensor_nbytes(in));
        assert_int_equal(tx_reverse_sequence(in, lt, 0, 1, &o), TX_OK);
        naive_reverse_sequence(in, lens, 0, 1, want);
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(in));
        tx_tensor_free(o);
        tx_tensor_free(lt);
        for (int b = 0; b < 64; b++) lens[b] = (int64_t)(rnd() % 101);
        lt = tu_i64(64, lens);
        assert_int_equal(tx_reverse_sequence(in, lt, 1, 0, &o), TX_OK);
        naive_reverse_sequence(in, lens, 1, 0, want);
        assert_memory_equal(tx_tensor_data(o), want, tx_tensor_nbytes(in));
        tx_tensor_free(o);
        tx_tensor_free(lt);
        free(want);
        /* concat: narrow rows (row blocks) and wide rows (per-input strided copies). */
        tx_tensor *a = random_tensor(TX_UINT16, 2, TU_DIMS(100000, 3)), *b = random_tensor(TX_UINT16, 2, TU_DIMS(100000, 5));
        const tx_tensor *ab[3] = {a, b, a};
        assert_int_equal(tx_concat(ab, 3, 1, &o), TX_OK);
        const uint16_t *r = tx_tensor_data(o), *pa = tx_tensor_data(a), *pb = tx_tensor_data(b);
        for (int64_t k = 0; k < 100000; k += 997) {
            assert_memory_equal(r + 11 * k, pa + 3 * k, 6);
            assert_memory_equal(r + 11 * k + 3, pb + 5 * k, 10);
            assert_memory_equal(r + 11 * k + 8, pa + 3 * k, 6);
        }
        tx_tensor_free(o);
        tx_tensor *c = random_tensor(TX_INT8, 2, TU_DIMS(300, 3000)), *e = random_tensor(TX_INT8, 2, TU_DIMS(300, 2000));
        const tx_tensor *ce[2] = {c, e};
        assert_int_equal(tx_concat(ce, 2, -1, &o), TX_OK);
        for (int64_t k = 0; k < 300; k++) {
            assert_memory_equal((char *)tx_tensor_data(o) + 5000 * k, (char *)tx_tensor_data(c) + 3000 * k, 3000);
            assert_memory_equal((char *)tx_tensor_data(o) + 5000 * k + 3000, (char *)tx_tensor_data(e) + 2000 * k, 2000);
        }
        tx_tensor_free(o);
        /* meshgrid: big first block (outer 1) and many copies of a small block. */
        tx_tensor *x = iota(TX_INT32, 1, TU_DIMS(700)), *y = iota_from(TX_INT32, 1, TU_DIMS(600), 1000);
        const tx_tensor *xy[2] = {x, y};
        tx_tensor *outs[2];
        assert_int_equal(tx_meshgrid(xy, 2, TX_MESHGRID_IJ, outs), TX_OK);
        const int32_t *g0 = tx_tensor_data(outs[0]), *g1 = tx_tensor_data(outs[1]);
        for (int64_t i = 0; i < 700; i++)
            for (int64_t k = 0; k < 600; k++) {
                if (g0[i * 600 + k] != i + 1 || g1[i * 600 + k] != 1000 + k)
                    fail_msg("meshgrid [%lld, %lld]: %d %d", (long long)i, (long long)k, g0[i * 600 + k], g1[i * 600 + k]);
            }
        tx_tensor_free(outs[0]);
        tx_tensor_free(outs[1]);
        tx_tensor *tt[] = {in, a, b, c, e, x, y};
        for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
    }
    tx_set_num_threads(0);
}

/* ---- allocation failure ---- */

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *a = iota(TX_INT32, 2, TU_DIMS(2, 3)), *b = iota(TX_INT32, 2, TU_DIMS(2, 3));
    tx_tensor *sa = tu_strings(1, TU_DIMS(2), (const char *[]){"x", "yy"});
    tx_tensor *sb = tu_strings(1, TU_DIMS(2), (const char *[]){"zzz", ""});
    tx_tensor *d = bools(2, (int[]){1, 0}), *d1 = bools(1, (int[]){1}), *lens = tu_i32(2, (int32_t[]){2, 1});
    tx_tensor *perm = tu_i64(2, TU_DIMS(1, 0));
    const tx_tensor *ab[2] = {a, b}, *ss[2] = {sa, sb};
    tu_alloc_install();
    for (int op = 0; op < 14; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[2] = {NULL, NULL};
            tx_status st;
            switch (op) {
            case 0: st = tx_concat(ab, 2, 1, &o); break;
            case 1: st = tx_concat(ss, 2, 0, &o); break;
            case 2: st = tx_concat(ab, 1, 0, &o); break;
            case 3: st = tx_pack(ab, 2, 1, &o); break;
            case 4: st = tx_pack(ss, 2, 0, &o); break;
            case 5: st = tx_meshgrid(ab, 2, TX_MESHGRID_XY, outs); break;
            case 6: st = tx_meshgrid(ss, 2, TX_MESHGRID_IJ, outs); break;
            case 7: st = tx_reverse(a, d, &o); break;
            case 8: st = tx_reverse_v2(sa, (int64_t[]){0}, 1, &o); break;
            case 9: st = tx_reverse_sequence(a, lens, 1, 0, &o); break;
            case 10: st = tx_transpose(a, perm, 0, &o); break;
            case 11: st = tx_transpose(sa, NULL, 0, &o); break;
            case 12: st = tx_transpose(a, NULL, 1, &o); break;
            default: st = tx_reverse(sa, d1, &o); break;
            }
            if (st == TX_OK) {
                tx_tensor_free(o);
                tx_tensor_free(outs[0]);
                tx_tensor_free(outs[1]);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(o);
            assert_null(outs[0]);
            assert_null(outs[1]);
            assert_int_equal(tu_alloc_live(), 0);
        }
    }
    tu_alloc_uninstall();
    tx_tensor *tt[] = {a, b, sa, sb, d, d1, lens, perm};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
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
        cmocka_unit_test(test_reverse_page_examples),
        cmocka_unit_test(test_reverse_brute),
        cmocka_unit_test(test_reverse_edge_errors),
        cmocka_unit_test(test_reverse_sequence_page_examples),
        cmocka_unit_test(test_reverse_sequence_brute),
        cmocka_unit_test(test_reverse_sequence_errors),
        cmocka_unit_test(test_transpose_page_examples),
        cmocka_unit_test(test_transpose_brute),
        cmocka_unit_test(test_transpose_edge),
        cmocka_unit_test(test_transpose_conjugate),
        cmocka_unit_test(test_transpose_errors),
        cmocka_unit_test(test_tf_differences_kept),
        cmocka_unit_test(test_large_parallel),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
