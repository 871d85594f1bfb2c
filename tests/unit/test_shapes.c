/* SPDX-License-Identifier: Apache-2.0 */
/* test_shapes.c -- shape, shape_n, size, rank, reshape, squeeze, expand_dims: the examples of
 * TF's page, TF's edge cases (zero-size dims, -1 inference next to zeros, [] to scalar), views, and
 * every error with its status and message. */
#include "testutil.h"

#include <string.h>

static tx_tensor *iota(tx_dtype dt, size_t rank, const int64_t *dims) {
    tx_tensor *t = tu_tensor(dt, rank, dims, NULL);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) ((int32_t *)tx_tensor_data(t))[i] = (int32_t)i + 1;
    return t;
}

static void test_shape_size_rank(void **state) {
    (void)state;
    /* 't' is [[[1, 1, 1], [2, 2, 2]], [[3, 3, 3], [4, 4, 4]]]: shape [2, 2, 3], size 12, rank 3 */
    tx_tensor *t = iota(TX_INT32, 3, TU_DIMS(2, 2, 3)), *o = NULL;
    assert_int_equal(tx_shape(t, TX_INT32, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(3));
    tu_assert_values(o, TU_VALS(2, 2, 3));
    tx_tensor_free(o);
    assert_int_equal(tx_shape(t, TX_INT64, &o), TX_OK);
    tu_assert_shape(o, TX_INT64, 1, TU_DIMS(3));
    tx_tensor_free(o);
    assert_int_equal(tx_size(t, TX_INT32, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 0, NULL);
    tu_assert_values(o, TU_VALS(12));
    tx_tensor_free(o);
    assert_int_equal(tx_rank(t, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 0, NULL);
    tu_assert_values(o, TU_VALS(3));
    tx_tensor_free(o);
    /* an out_type the op does not take: unimplemented (TF 2.21 decides) */
    tu_assert_error(tx_shape(t, TX_FLOAT32, &o), TX_UNIMPLEMENTED, "out_type must be int32 or int64, got float32");
    assert_null(o);
    tu_assert_error(tx_size(t, TX_INT16, &o), TX_UNIMPLEMENTED, "out_type must be int32 or int64, got int16");
    assert_null(o);
    tx_tensor_free(t);
    /* A scalar's shape is an empty vector. */
    t = tu_tensor(TX_FLOAT32, 0, NULL, TU_VALS(7));
    assert_int_equal(tx_shape(t, TX_INT32, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(0));
    tx_tensor_free(o);
    tx_tensor_free(t);
    /* size that does not fit int32 is an error for out_type int32 (TF checks the same). */
    tx_tensor *big = NULL;
    assert_int_equal(tx_tensor_new(TX_INT8, 3, TU_DIMS(1LL << 20, 1LL << 20, 0), &big), TX_OK);
    assert_int_equal(tx_shape(big, TX_INT32, &o), TX_OK);
    tx_tensor_free(o);
    tx_tensor_free(big);
    int64_t huge = 3000000000LL;
    assert_int_equal(tx_tensor_new(TX_INT8, 2, TU_DIMS(huge, 0), &big), TX_OK);
    tu_assert_error(tx_shape(big, TX_INT32, &o), TX_INVALID_ARGUMENT, "does not fit out_type int32");
    assert_int_equal(tx_shape(big, TX_INT64, &o), TX_OK);
    tx_tensor_free(o);
    tx_tensor_free(big);
}

static void test_shape_n(void **state) {
    (void)state;
    tx_tensor *a = iota(TX_INT32, 2, TU_DIMS(2, 3)), *b = tu_tensor(TX_INT32, 0, NULL, NULL);
    const tx_tensor *in[2] = {a, b};
    tx_tensor *outs[3];
    assert_int_equal(tx_shape_n(in, 2, TX_INT64, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT64, 1, TU_DIMS(2));
    tu_assert_values(outs[0], TU_VALS(2, 3));
    tu_assert_shape(outs[1], TX_INT64, 1, TU_DIMS(0));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    tu_assert_error(tx_shape_n(in, 0, TX_INT32, outs), TX_INVALID_ARGUMENT, "at least 1");
    const tx_tensor *bad[2] = {a, NULL};
    tu_assert_error(tx_shape_n(bad, 2, TX_INT32, outs), TX_INVALID_ARGUMENT, "input[1] is NULL");
    assert_null(outs[0]);
    /* ShapeN is registered with `input: N * T` (tensorflow/core/ops/array_ops.cc): one dtype T
     * for every input, so a mix is refused, naming the input and both dtypes. */
    tx_tensor *f = tu_tensor(TX_FLOAT64, 0, NULL, NULL), *s = tu_strings(1, TU_DIMS(1), (const char *[]){"x"});
    const tx_tensor *mixed[3] = {a, b, f};
    tu_assert_error(tx_shape_n(mixed, 3, TX_INT32, outs), TX_INVALID_ARGUMENT,
                    "shape_n: input[2] has dtype float64 but input[0] has dtype int32");
    assert_null(outs[0]);
    assert_null(outs[1]);
    assert_null(outs[2]);
    const tx_tensor *strs[3] = {s, s, a};
    tu_assert_error(tx_shape_n(strs, 3, TX_INT64, outs), TX_INVALID_ARGUMENT,
                    "input[2] has dtype int32 but input[0] has dtype string");
    const tx_tensor *same[2] = {s, s};
    assert_int_equal(tx_shape_n(same, 2, TX_INT32, outs), TX_OK);
    tu_assert_values(outs[1], TU_VALS(1));
    tx_tensor_free(outs[0]);
    tx_tensor_free(outs[1]);
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(f);
    tx_tensor_free(s);
}

static void check_reshape(tx_tensor *t, size_t n, const int64_t *shape, size_t rank, const int64_t *want) {
    tx_tensor *s = tu_i64(n, shape), *o = NULL;
    assert_int_equal(tx_reshape(t, s, &o), TX_OK);
    tu_assert_shape(o, tx_tensor_dtype(t), rank, want);
    assert_true(tx_tensor_shares_buffer(o, t)); /* a view, no copy */
    assert_ptr_equal(tx_tensor_data(o), tx_tensor_data(t));
    tx_tensor_free(o);
    tx_tensor_free(s);
}

static void reshape_error(tx_tensor *t, size_t n, const int64_t *shape, const char *fragment) {
    tx_tensor *s = tu_i64(n, shape), *o = (tx_tensor *)1;
    tu_assert_error(tx_reshape(t, s, &o), TX_INVALID_ARGUMENT, fragment);
    assert_null(o);
    tx_tensor_free(s);
}

static void test_reshape_page_examples(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 1, TU_DIMS(9));
    check_reshape(t, 2, TU_DIMS(3, 3), 2, TU_DIMS(3, 3));
    tx_tensor_free(t);
    t = iota(TX_INT32, 3, TU_DIMS(2, 2, 2));
    check_reshape(t, 2, TU_DIMS(2, 4), 2, TU_DIMS(2, 4));
    tx_tensor_free(t);
    t = iota(TX_INT32, 3, TU_DIMS(3, 2, 3));
    check_reshape(t, 1, TU_DIMS(-1), 1, TU_DIMS(18));
    check_reshape(t, 2, TU_DIMS(2, -1), 2, TU_DIMS(2, 9));
    check_reshape(t, 2, TU_DIMS(-1, 9), 2, TU_DIMS(2, 9));
    check_reshape(t, 3, TU_DIMS(2, -1, 3), 3, TU_DIMS(2, 3, 3));
    tx_tensor_free(t);
    /* tensor 't' is [7]; shape [] reshapes to a scalar */
    t = iota(TX_INT32, 1, TU_DIMS(1));
    check_reshape(t, 0, NULL, 0, NULL);
    tx_tensor_free(t);
}

static void test_reshape_edge_cases(void **state) {
    (void)state;
    /* TF leaves zero entries out when inferring -1 (reshape_op.h). */
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 2, TU_DIMS(0, 6), &t), TX_OK);
    check_reshape(t, 2, TU_DIMS(0, -1), 2, TU_DIMS(0, 6));
    check_reshape(t, 2, TU_DIMS(-1, 0), 2, TU_DIMS(6, 0));
    check_reshape(t, 1, TU_DIMS(-1), 1, TU_DIMS(0));
    check_reshape(t, 3, TU_DIMS(3, 0, 4), 3, TU_DIMS(3, 0, 4));
    tx_tensor_free(t);
    t = iota(TX_INT32, 2, TU_DIMS(2, 3));
    reshape_error(t, 2, TU_DIMS(0, -1), "has 6 elements, shape [0,6] needs 0");
    reshape_error(t, 3, TU_DIMS(3, -1, -1), "shape [3,-1,-1] has more than one -1");
    reshape_error(t, 2, TU_DIMS(4, -1), "not a multiple of 4");
    reshape_error(t, 2, TU_DIMS(2, 2), "has 6 elements, shape [2,2] needs 4");
    reshape_error(t, 2, TU_DIMS(-2, 3), "negative entry -2 at index 0");
    reshape_error(t, 3, TU_DIMS(1LL << 40, 1LL << 40, 1LL << 40), "more elements than int64");
    /* shape must be a 1-D int32/int64 tensor */
    tx_tensor *o = NULL, *fs = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), TU_VALS(6));
    /* a dtype the op does not take: unimplemented, before the rank check (TF 2.21 decides) */
    tu_assert_error(tx_reshape(t, fs, &o), TX_UNIMPLEMENTED, "shape must be int32 or int64, got float32");
    tx_tensor_free(fs);
    fs = tu_tensor(TX_INT16, 2, TU_DIMS(1, 2), TU_VALS(3, 2));
    tu_assert_error(tx_reshape(t, fs, &o), TX_UNIMPLEMENTED, "shape must be int32 or int64, got int16");
    tx_tensor_free(fs);
    tx_tensor *s2 = tu_tensor(TX_INT32, 2, TU_DIMS(1, 2), TU_VALS(3, 2));
    tu_assert_error(tx_reshape(t, s2, &o), TX_INVALID_ARGUMENT, "shape must be a vector, got rank 2");
    tx_tensor_free(s2);
    /* TF 2.21 decides: a scalar shape is a one-entry vector (ReshapeOp's legacy scalar). */
    tx_tensor *s0 = tu_tensor(TX_INT64, 0, NULL, TU_VALS(-1));
    assert_int_equal(tx_reshape(t, s0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(6));
    tx_tensor_free(o);
    tx_tensor_free(s0);
    s0 = tu_tensor(TX_INT32, 0, NULL, TU_VALS(4));
    tu_assert_error(tx_reshape(t, s0, &o), TX_INVALID_ARGUMENT, "has 6 elements, shape [4] needs 4");
    tx_tensor_free(s0);
    int32_t s32[] = {3, 2};
    tx_tensor *s = tu_i32(2, s32);
    assert_int_equal(tx_reshape(t, s, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(3, 2));
    tu_assert_values(o, TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor_free(o);
    tx_tensor_free(s);
    tu_assert_error(tx_reshape(NULL, NULL, &o), TX_INVALID_ARGUMENT, "tensor is NULL");
    tx_tensor_free(t);
    /* Strings reshape too, and the view outlives the original handle. */
    const char *v[] = {"a", "bb", "ccc", "dddd"};
    t = tu_strings(1, TU_DIMS(4), v);
    s = tu_i64(2, TU_DIMS(2, 2));
    assert_int_equal(tx_reshape(t, s, &o), TX_OK);
    tx_tensor_free(t);
    tx_tensor_free(s);
    assert_memory_equal(tx_tensor_string(o, 3)->data, "dddd", 4);
    tx_tensor_free(o);
}

/* TF's testReshapeWithManyDims (python/kernel_tests/array_ops/array_ops_test.py) reshapes [[1]] to
 * an int64 shape of 254 ones and expects InvalidArgumentError "too many dimensions": ReshapeOp
 * (tensorflow/core/kernels/reshape_op.h) wants sizes.NumElements() < TensorShape::MaxDimensions(),
 * so a reshape gives at most rank 253 while other ops reach 254 (TensorShape::AddDimWithStatus). */
static void test_reshape_rank_limit(void **state) {
    (void)state;
    assert_int_equal(TX_RESHAPE_MAX_RANK, 253);
    tx_tensor *t = tu_tensor(TX_INT32, 2, TU_DIMS(1, 1), TU_VALS(1)), *o = NULL;
    int64_t ones[TX_MAX_RANK + 1];
    for (int i = 0; i <= TX_MAX_RANK; i++) ones[i] = 1;
    tx_tensor *s254 = tu_i64(254, ones), *s255 = tu_i64(255, ones), *s253 = tu_i64(253, ones);
    tu_assert_error(tx_reshape(t, s254, &o), TX_INVALID_ARGUMENT,
                    "reshape: shape has too many dimensions: must be < 254, but received 254");
    assert_null(o);
    tu_assert_error(tx_reshape(t, s255, &o), TX_INVALID_ARGUMENT, "must be < 254, but received 255");
    /* int32 shapes and a -1 are held to the same count. */
    int32_t ones32[254];
    for (int i = 0; i < 254; i++) ones32[i] = 1;
    ones32[7] = -1;
    tx_tensor *s254i = tu_i32(254, ones32), *s253i = tu_i32(253, ones32);
    tu_assert_error(tx_reshape(t, s254i, &o), TX_INVALID_ARGUMENT, "must be < 254, but received 254");
    assert_int_equal(tx_reshape(t, s253, &o), TX_OK);
    assert_int_equal(tx_tensor_rank(o), 253);
    /* A rank-253 tensor reshapes to rank 253 (and back to [1, 1]); expand_dims still reaches 254,
     * TensorShape's own limit. */
    tx_tensor *e = NULL, *back = NULL, *s2 = tu_i64(2, TU_DIMS(1, 1));
    assert_int_equal(tx_expand_dims(o, 0, &e), TX_OK);
    tx_tensor_free(o);
    assert_int_equal(tx_tensor_rank(e), 254);
    tu_assert_error(tx_reshape(e, s254, &o), TX_INVALID_ARGUMENT, "must be < 254");
    assert_int_equal(tx_reshape(e, s2, &back), TX_OK);
    tu_assert_shape(back, TX_INT32, 2, TU_DIMS(1, 1));
    tx_tensor_free(back);
    assert_int_equal(tx_reshape(t, s253i, &o), TX_OK);
    assert_int_equal(tx_tensor_rank(o), 253);
    tx_tensor_free(o);
    tx_tensor *tt[] = {t, s254, s255, s253, s254i, s253i, e, s2};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

static void test_squeeze(void **state) {
    (void)state;
    tx_tensor *t = tu_tensor(TX_FLOAT32, 6, TU_DIMS(1, 2, 1, 3, 1, 1), NULL), *o = NULL;
    assert_int_equal(tx_squeeze(t, NULL, 0, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(2, 3));
    assert_true(tx_tensor_shares_buffer(o, t));
    tx_tensor_free(o);
    assert_int_equal(tx_squeeze(t, TU_DIMS(2, 4), 2, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 4, TU_DIMS(1, 2, 3, 1));
    tx_tensor_free(o);
    assert_int_equal(tx_squeeze(t, TU_DIMS(-1, -2, 0), 3, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 3, TU_DIMS(2, 1, 3));
    tx_tensor_free(o);
    tu_assert_error(tx_squeeze(t, TU_DIMS(1), 1, &o), TX_INVALID_ARGUMENT, "cannot squeeze dim 1: its size is 2, not 1");
    assert_null(o);
    tu_assert_error(tx_squeeze(t, TU_DIMS(6), 1, &o), TX_INVALID_ARGUMENT, "6 is out of range [-6, 6)");
    tu_assert_error(tx_squeeze(t, TU_DIMS(-7), 1, &o), TX_INVALID_ARGUMENT, "-7 is out of range");
    tx_tensor_free(t);
    /* squeezing a scalar or a tensor without unit dims is the identity */
    t = tu_tensor(TX_INT8, 0, NULL, NULL);
    assert_int_equal(tx_squeeze(t, NULL, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 0, NULL);
    tx_tensor_free(o);
    tx_tensor_free(t);
}

static void test_expand_dims(void **state) {
    (void)state;
    tx_tensor *t = tu_tensor(TX_INT32, 1, TU_DIMS(2), NULL), *o = NULL;
    struct { int64_t dim; int64_t d0, d1; } cases1[] = {{0, 1, 2}, {1, 2, 1}, {-1, 2, 1}, {-2, 1, 2}};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(tx_expand_dims(t, cases1[i].dim, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, 2, TU_DIMS(cases1[i].d0, cases1[i].d1));
        assert_true(tx_tensor_shares_buffer(o, t));
        tx_tensor_free(o);
    }
    tu_assert_error(tx_expand_dims(t, 2, &o), TX_INVALID_ARGUMENT, "dim 2 is out of range [-2, 1]");
    tu_assert_error(tx_expand_dims(t, -3, &o), TX_INVALID_ARGUMENT, "dim -3 is out of range");
    tx_tensor_free(t);
    t = tu_tensor(TX_INT32, 3, TU_DIMS(2, 3, 5), NULL);
    assert_int_equal(tx_expand_dims(t, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(1, 2, 3, 5));
    tx_tensor_free(o);
    assert_int_equal(tx_expand_dims(t, 2, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(2, 3, 1, 5));
    tx_tensor_free(o);
    assert_int_equal(tx_expand_dims(t, 3, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 4, TU_DIMS(2, 3, 5, 1));
    tx_tensor_free(o);
    tx_tensor_free(t);
    /* rank limit */
    int64_t dims[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) dims[i] = 1;
    t = tu_tensor(TX_INT8, TX_MAX_RANK, dims, NULL);
    tu_assert_error(tx_expand_dims(t, 0, &o), TX_INVALID_ARGUMENT, "maximum rank 254");
    tx_tensor_free(t);
}

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_INT32, 2, TU_DIMS(2, 3));
    tx_tensor *s = tu_i64(1, TU_DIMS(-1));
    tu_alloc_install();
    for (int op = 0; op < 6; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[1] = {NULL};
            const tx_tensor *in[1] = {t};
            tx_status st;
            switch (op) {
            case 0: st = tx_shape(t, TX_INT32, &o); break;
            case 1: st = tx_size(t, TX_INT64, &o); break;
            case 2: st = tx_reshape(t, s, &o); break;
            case 3: st = tx_squeeze(t, NULL, 0, &o); break;
            case 4: st = tx_expand_dims(t, 1, &o); break;
            default: st = tx_shape_n(in, 1, TX_INT32, outs); o = outs[0]; break;
            }
            if (st == TX_OK) {
                tx_tensor_free(o);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(o);
            assert_int_equal(tu_alloc_live(), 0);
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(t);
    tx_tensor_free(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape_size_rank),       cmocka_unit_test(test_shape_n),
        cmocka_unit_test(test_reshape_page_examples), cmocka_unit_test(test_reshape_edge_cases),
        cmocka_unit_test(test_reshape_rank_limit),
        cmocka_unit_test(test_squeeze),               cmocka_unit_test(test_expand_dims),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
