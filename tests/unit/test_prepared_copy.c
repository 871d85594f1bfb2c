/* SPDX-License-Identifier: Apache-2.0 */
/* test_prepared_copy.c -- the prepared forms of the copy ops (strided_slice, concat, pad, tile,
 * reverse, reverse_sequence): runs equal the op call bit for bit on several shapes (empty ones,
 * and ones above the size where the copy is split over threads) on tensorx's pool, a runner on
 * one thread and a runner of real threads; the runners' parallel_for is used when the call
 * splits; runs call the allocator zero times; strided outputs land where their strides say and
 * nowhere else, for the ops that take them.  test_prepared.c has the API's own tests. */
#include "testutil.h"

#include "prepared_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/pool.h"


/* ---- checks ---- */

/* Makes the call (its result in *y) and prepares the same call (options opts) into *op.  CALL
 * names its output &OUT. */
#define CALL_AND_PREPARE(op, y, opts, CALL)                                                       \
    do {                                                                                          \
        tx_tensor *OUT = NULL;                                                                    \
        assert_int_equal((CALL), TX_OK);                                                          \
        *(y) = OUT;                                                                               \
        OUT = NULL;                                                                               \
        assert_int_equal(TX_PREPARE((op), (opts), (CALL)), TX_OK);                                \
        assert_null(OUT);                                                                         \
    } while (0)


/* Runs op on the n inputs xs three ways (tensorx's pool, one thread, real threads) into fresh
 * memory and compares each run with the call's result y; a call that splits (split) must hand
 * its pieces to both runners. */
static void check_runs(const tx_op *op, size_t n, const tx_tensor *const *xs, const tx_tensor *y,
                       bool split) {
    assert_int_equal(tx_op_input_count(op), n);
    const void *in[16];
    assert_true(n <= 16);
    for (size_t i = 0; i < n; i++) {
        tx_output_info info = {sizeof info};
        assert_int_equal(tx_op_input(op, i, &info), TX_OK);
        assert_int_equal(info.nbytes, tx_tensor_nbytes(xs[i]));
        in[i] = tx_tensor_data_const(xs[i]);
    }
    tx_output_info info = output_like(op, y);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    tx_runner threads = TX_RUNNER_INIT(threads_for, NULL, 3);
    const tx_runner *runners[] = {NULL, &serial, &threads};
    int calls_before[2] = {serial_calls, threads_calls};
    for (size_t r = 0; r < 3; r++) {
        char *out = malloc(info.nbytes + 1);
        memset(out, 0xA5, info.nbytes + 1);
        void *outs[1] = {out};
        assert_int_equal(tx_op_run(op, in, outs, runners[r]), TX_OK);
        if (info.nbytes) assert_memory_equal(out, tx_tensor_data_const(y), info.nbytes);
        assert_int_equal((unsigned char)out[info.nbytes], 0xA5);
        free(out);
    }
    if (split) {
        assert_true(serial_calls > calls_before[0]);
        assert_true(threads_calls > calls_before[1]);
    }
}

/* Runs op into a buffer laid out by `strides` (bytes, one per dim of y) and checks that element
 * i of y lands at sum(i[d] * strides[d]) and that no other byte of the buffer changes. */
static void check_strided_run(const tx_op *op, size_t n, const tx_tensor *const *xs,
                              const tx_tensor *y, const int64_t *strides) {
    size_t rank = tx_tensor_rank(y), w = tx_dtype_size(tx_tensor_dtype(y));
    const int64_t *dims = tx_tensor_dims(y);
    size_t bytes = w;
    for (size_t d = 0; d < rank && tx_tensor_numel(y) > 0; d++)
        bytes += (size_t)((dims[d] - 1) * strides[d]);
    char *buf = malloc(bytes), *seen = calloc(bytes, 1);
    memset(buf, 0x5A, bytes);
    const void *in[16];
    for (size_t i = 0; i < n; i++) in[i] = tx_tensor_data_const(xs[i]);
    void *outs[1] = {buf};
    tx_runner threads = TX_RUNNER_INIT(threads_for, NULL, 3);
    assert_int_equal(tx_op_run(op, in, outs, &threads), TX_OK);
    const char *want = tx_tensor_data_const(y);
    int64_t idx[TX_MAX_RANK] = {0};
    for (int64_t e = 0; e < tx_tensor_numel(y); e++) {
        size_t at = 0;
        for (size_t d = 0; d < rank; d++) at += (size_t)(idx[d] * strides[d]);
        assert_memory_equal(buf + at, want + (size_t)e * w, w);
        memset(seen + at, 1, w);
        for (size_t d = rank; d-- > 0;) {
            if (++idx[d] < dims[d]) break;
            idx[d] = 0;
        }
    }
    for (size_t b = 0; b < bytes; b++)
        if (!seen[b]) assert_int_equal((unsigned char)buf[b], 0x5A);
    free(buf);
    free(seen);
}

/* The runs of op make no allocator call (after a first run that settles the pool). */
static void check_no_allocation(const tx_op *op, size_t n, const tx_tensor *const *xs) {
    const void *in[16];
    for (size_t i = 0; i < n; i++) in[i] = tx_tensor_data_const(xs[i]);
    tx_output_info info = {sizeof info};
    assert_int_equal(tx_op_output(op, 0, &info), TX_OK);
    char *out = malloc(info.nbytes + 1);
    void *outs[1] = {out};
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    assert_int_equal(tx_op_run(op, in, outs, NULL), TX_OK);
    tu_alloc_install();
    long before = tu_alloc_count();
    for (int i = 0; i < 20; i++) {
        assert_int_equal(tx_op_run(op, in, outs, NULL), TX_OK);
        assert_int_equal(tx_op_run(op, in, outs, &serial), TX_OK);
    }
    assert_int_equal(tu_alloc_count() - before, 0);
    tu_alloc_uninstall();
    free(out);
}

/* Row-major strides of y's dims with every dim's extent `pad` elements wider: a window of a
 * larger buffer. */
static void padded_strides(const tx_tensor *y, int64_t pad, int64_t *strides) {
    size_t rank = tx_tensor_rank(y);
    int64_t s = (int64_t)tx_dtype_size(tx_tensor_dtype(y));
    for (size_t d = rank; d-- > 0;) {
        strides[d] = s;
        s *= tx_tensor_dims(y)[d] + pad;
    }
}

/* The shapes every op runs on: one element, odd sizes, a few MB (split over threads) and
 * empty. */
static const int64_t shapes[][3] = {{1, 1, 1}, {3, 5, 7}, {64, 64, 33}, {4, 400, 700}, {0, 4, 5}};
enum { N_SHAPES = sizeof shapes / sizeof shapes[0] };

/* Whether a call that makes y splits its copy (TX__SPLIT_ALWAYS: whenever it is large). */
static bool splits(const tx_tensor *y) { return tx_tensor_nbytes(y) >= (size_t)(512 << 10); }

/* ---- strided_slice ---- */

/* Runs of op (one input x) equal the call's y, make no allocation for a large x, and a prepare
 * of the same call with output strides writes its window. */
#define CHECK_ONE_INPUT(x, CALL)                                                                  \
    do {                                                                                          \
        tx_tensor *y_ = NULL, *y2_ = NULL;                                                        \
        tx_op *op_ = NULL;                                                                        \
        CALL_AND_PREPARE(&op_, &y_, NULL, CALL);                                                  \
        check_runs(op_, 1, (const tx_tensor *[]){x}, y_, splits(y_));                             \
        if (tx_tensor_nbytes(x) > (512 << 10))                                                    \
            check_no_allocation(op_, 1, (const tx_tensor *[]){x});                                \
        tx_op_free(op_);                                                                          \
        int64_t st_[TX_MAX_RANK];                                                                 \
        padded_strides(y_, 2, st_);                                                               \
        const int64_t *per_output_[1] = {st_};                                                    \
        tx_prepare_options opts_ = TX_PREPARE_OPTIONS_INIT(1, per_output_);                      \
        CALL_AND_PREPARE(&op_, &y2_, &opts_, CALL);                                               \
        check_strided_run(op_, 1, (const tx_tensor *[]){x}, y_, st_);                             \
        tx_op_free(op_);                                                                          \
        tx_tensor_free(y2_);                                                                      \
        tx_tensor_free(y_);                                                                       \
    } while (0)

/* x[1:, ::-2, ::3] and, for a non-empty x, x[-1, None, ..., ::2] (shrink, new axis, ellipsis):
 * runs, no allocation, strided outputs. */
static void test_strided_slice(void **state) {
    (void)state;
    for (size_t k = 0; k < N_SHAPES; k++) {
        tx_tensor *x = random_tensor(TX_FLOAT32, 3, shapes[k], 777u);
        for (int spec = 0; spec < 2; spec++) {
            if (spec == 1 && tx_tensor_numel(x) == 0) continue;
            int32_t bv[3] = {1, 0, 0}, ev[3] = {0, 0, 0}, sv[3] = {1, -2, 3};
            int32_t bm = 6, em = 7, ellipsis = 0, newaxis = 0, shrink = 0;
            tx_tensor *b, *e, *s;
            if (spec == 0) {
                b = tu_i32(3, bv), e = tu_i32(3, ev), s = tu_i32(3, sv);
            } else {
                const int32_t b1[4] = {-1, 0, 0, 0}, e1[4] = {0, 0, 0, 0}, s1[4] = {1, 1, 1, 2};
                b = tu_i32(4, b1), e = tu_i32(4, e1), s = tu_i32(4, s1);
                bm = 8, em = 8, ellipsis = 4, newaxis = 2, shrink = 1;
            }
            CHECK_ONE_INPUT(x, tx_strided_slice(x, b, e, s, bm, em, ellipsis, newaxis, shrink,
                                                &OUT));
            tx_tensor_free(b);
            tx_tensor_free(e);
            tx_tensor_free(s);
        }
        tx_tensor_free(x);
    }
}

/* ---- concat, pack ---- */

/* A value of shape dims with dims[axis] replaced by `size`. */
static tx_tensor *random_with(const int64_t *dims, size_t axis, int64_t size) {
    int64_t d[3] = {dims[0], dims[1], dims[2]};
    d[axis] = size;
    return random_tensor(TX_FLOAT32, 3, d, 777u);
}

/* Three values (one empty along the axis) joined along each axis, one value alone, and the
 * three values stacked: runs, no allocation; output strides are refused. */
static void test_concat_pack(void **state) {
    (void)state;
    for (size_t k = 0; k < N_SHAPES; k++) {
        for (size_t axis = 0; axis < 3; axis++) {
            const tx_tensor *xs[3] = {random_tensor(TX_FLOAT32, 3, shapes[k], 777u),
                                      random_with(shapes[k], axis, 3),
                                      random_with(shapes[k], axis, 0)};
            tx_tensor *y = NULL;
            tx_op *op = NULL;
            CALL_AND_PREPARE(&op, &y, NULL, tx_concat(xs, 3, (int64_t)axis - 3, &OUT));
            check_runs(op, 3, xs, y, splits(y));
            if (k == 3) check_no_allocation(op, 3, xs);
            tx_op_free(op);
            tx_tensor_free(y);
            if (axis == 0) {
                CALL_AND_PREPARE(&op, &y, NULL, tx_concat(xs, 1, 7, &OUT));
                check_runs(op, 1, xs, y, splits(y));
                tx_op_free(op);
                tx_tensor_free(y);
            }
            const tx_tensor *same[3] = {xs[0], xs[0], xs[0]};
            CALL_AND_PREPARE(&op, &y, NULL, tx_pack(same, 3, (int64_t)axis, &OUT));
            check_runs(op, 3, same, y, splits(y));
            tx_op_free(op);
            tx_tensor_free(y);
            for (size_t i = 0; i < 3; i++) tx_tensor_free((tx_tensor *)xs[i]);
        }
    }
    tx_tensor *x = random_tensor(TX_FLOAT32, 3, TU_DIMS(2, 3, 4), 777u), *y = NULL;
    const tx_tensor *xs[2] = {x, x};
    const int64_t st[3] = {96, 32, 4};
    const int64_t *per_output[1] = {st};
    tx_prepare_options opts = TX_PREPARE_OPTIONS_INIT(1, per_output);
    tx_op *op = NULL;
    tu_assert_error(TX_PREPARE(&op, &opts, tx_concat(xs, 2, 1, &y)), TX_UNIMPLEMENTED,
                    "row-major only");
    assert_null(op);
    tx_tensor_free(x);
}

/* More values than one join plan holds: the call joins them in groups (checked element by
 * element), plan mode sizes it, the prepare takes up to JOIN_PLAN_VALUES (512) of them. */
static void test_concat_many(void **state) {
    (void)state;
    enum { N = 1200 };
    const tx_tensor **xs = malloc(N * sizeof *xs);
    for (size_t i = 0; i < N; i++)
        xs[i] = random_tensor(TX_FLOAT32, 3, TU_DIMS(2, (int64_t)(i % 3), 5), 777u);
    tx_tensor *y = NULL;
    assert_int_equal(tx_concat(xs, N, 1, &y), TX_OK);
    assert_int_equal(tx_tensor_dims(y)[1], N);
    const float *out = tx_tensor_data_const(y);
    for (int64_t r = 0, at = 0; r < 2; r++)
        for (size_t i = 0; i < N; i++) {
            int64_t rows = (int64_t)(i % 3);
            const float *v = tx_tensor_data_const(xs[i]);
            assert_memory_equal(out + at, v + r * rows * 5, (size_t)(rows * 5) * sizeof(float));
            at += rows * 5;
        }
    tx_output_info info[1];
    int64_t dims[3];
    tx_plan plan = TX_PLAN_INIT(info, 1, dims, 3);
    tx_tensor *unused = NULL;
    assert_int_equal(TX_PLAN(&plan, tx_concat(xs, N, 1, &unused)), TX_OK);
    assert_int_equal(info[0].nbytes, tx_tensor_nbytes(y));
    tx_op *op = NULL;
    tu_assert_error(TX_PREPARE(&op, NULL, tx_concat(xs, N, 1, &unused)), TX_UNIMPLEMENTED,
                    "concat");
    tx_tensor_free(y);
    CALL_AND_PREPARE(&op, &y, NULL, tx_concat(xs, 512, 1, &OUT));
    assert_int_equal(tx_op_input_count(op), 512);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    char *buf = malloc(tx_tensor_nbytes(y));
    const void **in = malloc(512 * sizeof *in);
    for (size_t i = 0; i < 512; i++) in[i] = tx_tensor_data_const(xs[i]);
    void *outs[1] = {buf};
    assert_int_equal(tx_op_run(op, in, outs, &serial), TX_OK);
    assert_memory_equal(buf, tx_tensor_data_const(y), tx_tensor_nbytes(y));
    free(in);
    free(buf);
    tx_op_free(op);
    tx_tensor_free(y);
    for (size_t i = 0; i < N; i++) tx_tensor_free((tx_tensor *)xs[i]);
    free(xs);
}

/* ---- reverse, reverse_v2 ---- */


/* Every subset of the dims reversed (legacy bool dims and axis lists), and the scalar and empty
 * inputs that both copy. */
static void test_reverse(void **state) {
    (void)state;
    tx_tensor *dims = NULL;
    assert_int_equal(tx_tensor_new(TX_BOOL, 1, TU_DIMS(3), &dims), TX_OK);
    for (size_t k = 0; k < N_SHAPES; k++) {
        tx_tensor *x = random_tensor(TX_FLOAT32, 3, shapes[k], 777u);
        for (unsigned mask = 0; mask < 8; mask++) {
            int64_t axis[3];
            size_t n_axis = 0;
            unsigned char *flags = tx_tensor_data(dims);
            for (unsigned d = 0; d < 3; d++) {
                flags[d] = (mask >> d) & 1u ? (unsigned char)(d + 1) : 0; /* any non-zero byte */
                if ((mask >> d) & 1u) axis[n_axis++] = (int64_t)d - (mask == 7 ? 3 : 0);
            }
            if (shapes[k][0] > 0) CHECK_ONE_INPUT(x, tx_reverse(x, dims, &OUT));
            CHECK_ONE_INPUT(x, tx_reverse_v2(x, axis, n_axis, &OUT));
        }
        tx_tensor_free(x);
    }
    tx_tensor *scalar = random_tensor(TX_FLOAT32, 0, NULL, 777u), *none = NULL;
    assert_int_equal(tx_tensor_new(TX_BOOL, 1, TU_DIMS(0), &none), TX_OK);
    CHECK_ONE_INPUT(scalar, tx_reverse(scalar, none, &OUT));
    CHECK_ONE_INPUT(scalar, tx_reverse_v2(scalar, NULL, 0, &OUT));
    tx_tensor_free(none);
    tx_tensor_free(scalar);
    tx_tensor_free(dims);
}

/* ---- tile, pad ---- */

/* Runs of op (one input x) equal the call's y and make no allocation for a large x; a prepare
 * with output strides is refused (these ops write row-major outputs). */
#define CHECK_ROW_MAJOR(x, split, CALL)                                                           \
    do {                                                                                          \
        tx_tensor *y_ = NULL;                                                                     \
        tx_op *op_ = NULL;                                                                        \
        CALL_AND_PREPARE(&op_, &y_, NULL, CALL);                                                  \
        check_runs(op_, 1, (const tx_tensor *[]){x}, y_, (split) && splits(y_));                  \
        if (tx_tensor_nbytes(x) > (512 << 10))                                                    \
            check_no_allocation(op_, 1, (const tx_tensor *[]){x});                                \
        tx_op_free(op_);                                                                          \
        int64_t st_[TX_MAX_RANK];                                                                 \
        padded_strides(y_, 1, st_);                                                               \
        const int64_t *per_output_[1] = {st_};                                                    \
        tx_prepare_options opts_ = TX_PREPARE_OPTIONS_INIT(1, per_output_);                      \
        if (tx_tensor_rank(y_) > 0) {                                                             \
            tx_tensor *OUT = NULL;                                                                \
            tu_assert_error(TX_PREPARE(&op_, &opts_, CALL), TX_UNIMPLEMENTED, "row-major only");  \
            assert_null(op_);                                                                     \
        }                                                                                         \
        tx_tensor_free(y_);                                                                       \
    } while (0)

static void test_tile(void **state) {
    (void)state;
    const int32_t multiples[][3] = {{1, 2, 1}, {2, 1, 3}, {1, 1, 1}, {0, 2, 1}, {3, 3, 3}};
    for (size_t k = 0; k < N_SHAPES; k++) {
        tx_tensor *x = random_tensor(TX_FLOAT32, 3, shapes[k], 777u);
        for (size_t i = 0; i < sizeof multiples / sizeof multiples[0]; i++) {
            if (k == 3 && i == 4) continue; /* 100 MB */
            tx_tensor *m = tu_i32(3, multiples[i]);
            CHECK_ROW_MAJOR(x, true, tx_tile(x, m, &OUT));
            tx_tensor_free(m);
        }
        tx_tensor_free(x);
    }
    tx_tensor *scalar = random_tensor(TX_FLOAT32, 0, NULL, 777u), *none = tu_i32(0, NULL);
    CHECK_ROW_MAJOR(scalar, false, tx_tile(scalar, none, &OUT));
    tx_tensor_free(none);
    tx_tensor_free(scalar);
}

/* Every mode, paddings as large as the mode allows up to (1, 0), (0, 0), (2, 1), a constant
 * given or not, and no padding at all (a copy). */
static void test_pad(void **state) {
    (void)state;
    const tx_pad_mode modes[] = {TX_PAD_CONSTANT, TX_PAD_REFLECT, TX_PAD_SYMMETRIC, TX_PAD_EDGE,
                                 TX_PAD_WRAP};
    float c = 2.5f;
    tx_tensor *cv = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 0, NULL, &cv), TX_OK);
    memcpy(tx_tensor_data(cv), &c, sizeof c);
    for (size_t k = 0; k < N_SHAPES; k++) {
        tx_tensor *x = random_tensor(TX_FLOAT32, 3, shapes[k], 777u);
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
            tx_pad_mode mode = modes[i];
            if (mode == TX_PAD_REFLECT && tx_tensor_numel(x) == 0) continue; /* refused */
            const int64_t want[6] = {1, 0, 0, 0, 2, 1};
            int32_t pv[6];
            for (size_t j = 0; j < 6; j++) {
                int64_t dim = shapes[k][j / 2];
                int64_t most = mode == TX_PAD_REFLECT ? dim - 1 : mode == TX_PAD_SYMMETRIC ? dim
                             : mode == TX_PAD_CONSTANT || dim > 0 ? want[j] : 0;
                pv[j] = (int32_t)(want[j] < most ? want[j] : most);
            }
            tx_tensor *paddings = NULL;
            assert_int_equal(tx_tensor_new(TX_INT32, 2, TU_DIMS(3, 2), &paddings), TX_OK);
            memcpy(tx_tensor_data(paddings), pv, sizeof pv);
            bool split = mode != TX_PAD_EDGE && mode != TX_PAD_WRAP;
            CHECK_ROW_MAJOR(x, split, tx_pad(x, paddings, mode, NULL, &OUT));
            if (mode == TX_PAD_CONSTANT) {
                CHECK_ROW_MAJOR(x, split, tx_pad(x, paddings, mode, cv, &OUT));
                memset(tx_tensor_data(paddings), 0, sizeof pv);
                CHECK_ROW_MAJOR(x, false, tx_pad(x, paddings, mode, cv, &OUT));
            }
            tx_tensor_free(paddings);
        }
        tx_tensor_free(x);
    }
    tx_tensor_free(cv);
}

/* ---- strings ---- */

/* String tensors still go through the calls; their prepares are refused. */
#define CALL_NOT_PREPARED(CALL)                                                                   \
    do {                                                                                          \
        tx_tensor *OUT = NULL;                                                                    \
        tx_op *op_ = NULL;                                                                        \
        assert_int_equal((CALL), TX_OK);                                                          \
        assert_int_equal(tx_tensor_dtype(OUT), TX_STRING);                                        \
        tx_tensor_free(OUT);                                                                      \
        OUT = NULL;                                                                               \
        tu_assert_error(TX_PREPARE(&op_, NULL, (CALL)), TX_UNIMPLEMENTED, "fixed-size dtypes");   \
        assert_null(op_);                                                                         \
    } while (0)

static void test_strings(void **state) {
    (void)state;
    const char *words[4] = {"a", "bc", "", "def"};
    tx_tensor *x = tu_strings(2, TU_DIMS(2, 2), words);
    const tx_tensor *xs[2] = {x, x};
    const int32_t one[2] = {1, 1}, zero[2] = {0, 0}, rev[2] = {1, -1};
    tx_tensor *ones = tu_i32(2, one), *zeros = tu_i32(2, zero), *step = tu_i32(2, rev);
    tx_tensor *paddings = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, 2, TU_DIMS(2, 2), &paddings), TX_OK);
    memset(tx_tensor_data(paddings), 0, 16);
    ((int32_t *)tx_tensor_data(paddings))[1] = 1;
    int64_t axis = 1;
    CALL_NOT_PREPARED(tx_strided_slice(x, zeros, zeros, step, 3, 3, 0, 0, 0, &OUT));
    CALL_NOT_PREPARED(tx_concat(xs, 2, 1, &OUT));
    CALL_NOT_PREPARED(tx_pack(xs, 2, 0, &OUT));
    CALL_NOT_PREPARED(tx_tile(x, ones, &OUT));
    CALL_NOT_PREPARED(tx_pad(x, paddings, TX_PAD_CONSTANT, NULL, &OUT));
    CALL_NOT_PREPARED(tx_reverse_v2(x, &axis, 1, &OUT));
    tx_tensor_free(paddings);
    tx_tensor_free(ones);
    tx_tensor_free(zeros);
    tx_tensor_free(step);
    tx_tensor_free(x);
}

int main(void) {
    tx_set_num_threads(2);
    tx__set_split_policy(TX__SPLIT_ALWAYS);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strided_slice),
        cmocka_unit_test(test_concat_pack),
        cmocka_unit_test(test_concat_many),
        cmocka_unit_test(test_reverse),
        cmocka_unit_test(test_tile),
        cmocka_unit_test(test_pad),
        cmocka_unit_test(test_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
