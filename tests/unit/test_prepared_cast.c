/* SPDX-License-Identifier: Apache-2.0 */
/* test_prepared_cast.c -- the prepared forms of the cast ops (cast, the to_* ops, saturate_cast,
 * cast_in_mode) and of gather, gather_nd and one_hot: runs equal the op call bit for bit over
 * dtype pairs and shapes (empty, small, and past 256 KiB so that the work is split) on tensorx's
 * pool, a runner on one thread and a runner of real threads; in-place runs where the op allows
 * them; no allocator call over many runs; the errors a run finds (gather's indices) are the
 * call's. */
#include "testutil.h"
#include "prepared_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* Runs op on the data of ins[0..n_in) three ways into fresh memory (a guard byte after it) and
 * compares each with the call's result y; then, when the op allows it, in place: a copy of input
 * 0 is both input and output. */
static void check_runs(tx_op *op, const tx_tensor *const *ins, size_t n_in, const tx_tensor *y) {
    assert_int_equal(tx_op_input_count(op), n_in);
    tx_output_info info = output_like(op, y);
    const void *in[4];
    for (size_t i = 0; i < n_in; i++) in[i] = tx_tensor_data_const(ins[i]);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    tx_runner threads = TX_RUNNER_INIT(threads_for, NULL, 3);
    const tx_runner *runners[] = {NULL, &serial, &threads};
    for (size_t r = 0; r < 3; r++) {
        char *out = malloc(info.nbytes + 1);
        memset(out, 0xA5, info.nbytes + 1);
        void *outs[1] = {out};
        assert_int_equal(tx_op_run(op, in, outs, runners[r]), TX_OK);
        assert_memory_equal(out, tx_tensor_data_const(y), info.nbytes);
        assert_int_equal((unsigned char)out[info.nbytes], 0xA5);
        free(out);
    }
    if (!tx_op_in_place(op, 0, 0)) return;
    assert_int_equal(tx_tensor_nbytes(ins[0]), info.nbytes);
    for (size_t r = 0; r < 3; r++) {
        char *buf = malloc(info.nbytes + 1);
        if (info.nbytes) memcpy(buf, tx_tensor_data_const(ins[0]), info.nbytes);
        const void *in_place[4];
        memcpy(in_place, in, sizeof in);
        in_place[0] = buf;
        void *outs[1] = {buf};
        assert_int_equal(tx_op_run(op, in_place, outs, runners[r]), TX_OK);
        assert_memory_equal(buf, tx_tensor_data_const(y), info.nbytes);
        free(buf);
    }
}

/* ---- casts ---- */

typedef enum cast_kind { TO_CAST, TO_SATURATE, TO_ONNX, TO_INT32 } cast_kind;

static tx_status cast_call(cast_kind k, const tx_tensor *x, tx_dtype to, unsigned flags,
                           tx_tensor **y) {
    switch (k) {
    case TO_CAST: return tx_cast(x, to, y);
    case TO_SATURATE: return tx_saturate_cast(x, to, y);
    case TO_ONNX: return tx_cast_in_mode(x, to, TX_CAST_ONNX, flags, y);
    case TO_INT32: return tx_to_int32(x, y);
    }
    return TX_INTERNAL;
}

typedef struct cast_case {
    cast_kind kind;
    tx_dtype from, to;
    unsigned flags;
    int in_place; /* what tx_op_in_place must say */
} cast_case;

static const cast_case cast_cases[] = {
    {TO_CAST, TX_FLOAT32, TX_FLOAT16, 0, 0},       /* hot pairs (SIMD kernels) */
    {TO_CAST, TX_FLOAT32, TX_INT32, 0, 1},
    {TO_CAST, TX_INT32, TX_FLOAT32, 0, 1},
    {TO_CAST, TX_FLOAT64, TX_FLOAT32, 0, 0},
    {TO_CAST, TX_UINT8, TX_FLOAT32, 0, 0},
    {TO_CAST, TX_FLOAT32, TX_FLOAT8_E4M3FN, 0, 0},
    {TO_CAST, TX_INT16, TX_UINT16, 0, 1},          /* portable loops */
    {TO_CAST, TX_FLOAT16, TX_BFLOAT16, 0, 1},
    {TO_CAST, TX_COMPLEX64, TX_FLOAT64, 0, 1},
    {TO_CAST, TX_BFLOAT16, TX_INT8, 0, 0},
    {TO_CAST, TX_INT64, TX_INT64, 0, 1},           /* identity: a copy */
    {TO_INT32, TX_UINT32, TX_INT32, 0, 1},
    {TO_SATURATE, TX_FLOAT32, TX_UINT8, 0, 0},     /* the fused kernel */
    {TO_SATURATE, TX_FLOAT64, TX_INT64, 0, 1},     /* clamp in the scratch */
    {TO_SATURATE, TX_COMPLEX128, TX_COMPLEX64, 0, 0},
    {TO_SATURATE, TX_INT32, TX_UINT32, 0, 1},
    {TO_SATURATE, TX_UINT8, TX_INT16, 0, 0},       /* no clamp: the plain cast */
    {TO_ONNX, TX_FLOAT32, TX_FLOAT8_E5M2, 0, 0},   /* the preset's rules */
    {TO_ONNX, TX_FLOAT32, TX_FLOAT8_E8M0FNU, TX_CAST_ONNX_ROUND_DOWN, 0},
    {TO_ONNX, TX_FLOAT64, TX_INT4, 0, 0},
    {TO_ONNX, TX_FLOAT8_E5M2, TX_FLOAT8_E4M3FN, TX_CAST_ONNX_NO_SATURATE, 1},
    {TO_ONNX, TX_INT8, TX_UINT4, 0, 1},            /* tx_cast's rule */
};

static void test_casts_run_as_called(void **state) {
    (void)state;
    tx_set_num_threads(2);
    /* [2, 300, 700] is past 256 KiB for every element size: the runners get pieces */
    const int64_t shapes[][3] = {{0, 4, 5}, {1, 1, 1}, {3, 5, 7}, {2, 300, 700}};
    for (size_t c = 0; c < sizeof cast_cases / sizeof cast_cases[0]; c++) {
        const cast_case *cc = &cast_cases[c];
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            tx_tensor *x = random_tensor(cc->from, 3, shapes[k], (uint32_t)c), *y = NULL;
            tx_tensor *unused = NULL;
            assert_int_equal(cast_call(cc->kind, x, cc->to, cc->flags, &y), TX_OK);
            tx_op *op = NULL;
            assert_int_equal(TX_PREPARE(&op, NULL, cast_call(cc->kind, x, cc->to, cc->flags, &unused)),
                             TX_OK);
            assert_null(unused);
            assert_int_equal(tx_op_in_place(op, 0, 0), cc->in_place);
            int before = serial_calls;
            check_runs(op, (const tx_tensor *const[]){x}, 1, y);
            if (k == 3) assert_true(serial_calls > before); /* the split went to the runner */
            tx_op_free(op);
            tx_tensor_free(y);
            tx_tensor_free(x);
        }
    }
}

/* Casts into the caller's strides: rows into a window of a wider buffer, and every other element
 * of a row; each element lands where its strides say, the other bytes stay, checked mode takes
 * no strides. */
static void test_cast_strided_outputs(void **state) {
    (void)state;
    tx_set_num_threads(2);
    const int64_t rows = 300, cols = 500; /* 300 KB of float16 at least: split over rows */
    tx_tensor *x = random_tensor(TX_FLOAT32, 2, TU_DIMS(rows, cols), 21);
    tx_tensor *x64 = random_tensor(TX_FLOAT64, 2, TU_DIMS(rows, cols), 22);
    const struct {
        const tx_tensor *x;
        cast_kind kind;
        tx_dtype to;
        int64_t row_stride, col_stride; /* in elements of the target */
    } cases[] = {
        {x, TO_CAST, TX_FLOAT16, cols + 7, 1},
        {x64, TO_SATURATE, TX_INT16, 2 * cols, 2},
        {x, TO_ONNX, TX_FLOAT8_E5M2, 2 * cols + 1, 1},
    };
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        tx_tensor *y = NULL, *unused = NULL;
        assert_int_equal(cast_call(cases[c].kind, cases[c].x, cases[c].to, 0, &y), TX_OK);
        const size_t w = tx_dtype_size(cases[c].to);
        const int64_t strides[2] = {cases[c].row_stride * (int64_t)w,
                                    cases[c].col_stride * (int64_t)w};
        const int64_t *per_output[1] = {strides};
        tx_prepare_options opts = TX_PREPARE_OPTIONS_INIT(1, per_output);
        tx_op *op = NULL;
        assert_int_equal(TX_PREPARE(&op, &opts, cast_call(cases[c].kind, cases[c].x, cases[c].to, 0,
                                                          &unused)),
                         TX_OK);
        assert_false(tx_op_in_place(op, 0, 0));
        size_t bytes = (size_t)(rows * strides[0]);
        char *buf = malloc(bytes);
        const void *in[1] = {tx_tensor_data_const(cases[c].x)};
        void *outs[1] = {buf};
        for (int r = 0; r < 2; r++) {
            memset(buf, 0x5A, bytes);
            assert_int_equal(tx_op_run(op, in, outs, r ? &serial : NULL), TX_OK);
            const char *want = tx_tensor_data_const(y);
            for (int64_t i = 0; i < rows; i++)
                for (int64_t j = 0; j < strides[0] / (int64_t)w; j++) {
                    const char *at = buf + i * strides[0] + j * (int64_t)w;
                    bool element = j % cases[c].col_stride == 0 && j / cases[c].col_stride < cols;
                    if (element)
                        assert_memory_equal(at, want + (i * cols + j / cases[c].col_stride) * (int64_t)w, w);
                    else
                        for (size_t b = 0; b < w; b++) assert_int_equal((unsigned char)at[b], 0x5A);
                }
        }
        free(buf);
        tx_op_free(op);
        tx_tensor_free(y);
    }
    /* checked mode writes contiguous outputs only */
    const int64_t strides[2] = {2 * cols * 4, 4};
    const int64_t *per_output[1] = {strides};
    tx_prepare_options opts = TX_PREPARE_OPTIONS_INIT(1, per_output);
    tx_tensor *unused = NULL;
    tx_op *op = NULL;
    tu_assert_error(TX_PREPARE(&op, &opts, tx_cast_in_mode(x, TX_INT32, TX_CAST_CHECKED, 0, &unused)),
                    TX_UNIMPLEMENTED, "row-major only");
    tx_tensor_free(x);
    tx_tensor_free(x64);
}

/* Checked mode: a prepare does not read x's values (a plan of the same call fails on them); a
 * run of good values equals the call, never in place; a run of bad values fails with the call's
 * status and message, naming the first bad element. */
static void test_checked_runs(void **state) {
    (void)state;
    tx_set_num_threads(2);
    const int64_t dims[2] = {300, 500};
    int64_t n = dims[0] * dims[1];
    double *vals = malloc((size_t)n * sizeof *vals);
    for (int64_t i = 0; i < n; i++) vals[i] = (double)(i % 251) - 125.0;
    tx_tensor *good = tu_tensor(TX_FLOAT64, 2, dims, vals);
    vals[n - 7] = 0.5;
    vals[n - 3] = 1e9;
    tx_tensor *bad = tu_tensor(TX_FLOAT64, 2, dims, vals);
    free(vals);
    tx_tensor *y = NULL, *unused = NULL;
    tx_status call = tx_cast_in_mode(bad, TX_INT8, TX_CAST_CHECKED, 0, &y);
    assert_int_equal(call, TX_INVALID_ARGUMENT);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    assert_non_null(strstr(msg, "element 149993 (index [299,493])"));
    tx_output_info info[1];
    int64_t plan_dims[TX_MAX_RANK];
    tx_plan plan = TX_PLAN_INIT(info, 1, plan_dims, TX_MAX_RANK);
    tu_assert_error(TX_PLAN(&plan, tx_cast_in_mode(bad, TX_INT8, TX_CAST_CHECKED, 0, &unused)),
                    call, msg);
    tx_op *op = NULL;
    assert_int_equal(TX_PREPARE(&op, NULL, tx_cast_in_mode(bad, TX_INT8, TX_CAST_CHECKED, 0, &unused)),
                     TX_OK);
    assert_null(unused);
    assert_false(tx_op_in_place(op, 0, 0));
    assert_int_equal(tx_cast_in_mode(good, TX_INT8, TX_CAST_CHECKED, 0, &y), TX_OK);
    check_runs(op, (const tx_tensor *const[]){good}, 1, y);
    tx_tensor_free(y);
    char *out = malloc((size_t)n);
    const void *in[1] = {tx_tensor_data_const(bad)};
    void *outs[1] = {out};
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    tu_assert_error(tx_op_run(op, in, outs, NULL), call, msg);
    tu_assert_error(tx_op_run(op, in, outs, &serial), call, msg);
    free(out);
    tx_op_free(op);
    tx_tensor_free(good);
    tx_tensor_free(bad);
}

/* What stays with the call: string casts; a prepare's errors are the call's. */
static void test_cast_prepare_errors(void **state) {
    (void)state;
    tx_tensor *x = random_tensor(TX_FLOAT32, 1, TU_DIMS(8), 1), *y = NULL;
    tx_op *op = NULL;
    const char *words[2] = {"1", "2"};
    tx_tensor *str = tu_strings(1, TU_DIMS(2), words);
    tu_assert_error(TX_PREPARE(&op, NULL, tx_cast(str, TX_STRING, &y)), TX_UNIMPLEMENTED,
                    "cast: prepared ops take fixed-size dtypes");
    tu_assert_error(TX_PREPARE(&op, NULL, tx_cast(str, TX_FLOAT32, &y)), TX_UNIMPLEMENTED,
                    "cast: Cast string to float32 is not supported");
    tx_tensor *b = random_tensor(TX_BOOL, 1, TU_DIMS(3), 2);
    tx_status call = tx_saturate_cast(b, TX_INT8, &y);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    tu_assert_error(TX_PREPARE(&op, NULL, tx_saturate_cast(b, TX_INT8, &y)), call, msg);
    assert_null(op);
    tx_tensor_free(b);
    tx_tensor_free(str);
    tx_tensor_free(x);
}

/* ---- gather, gather_nd ---- */

/* An index tensor of dtype (int16, int32 or int64) with values in [lo, hi). */
static tx_tensor *index_tensor(tx_dtype dtype, size_t rank, const int64_t *dims, int64_t lo,
                               int64_t hi, uint32_t seed) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(dtype, rank, dims, &t), TX_OK);
    char *p = tx_tensor_data(t);
    uint32_t x = seed;
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        x = x * 1664525u + 1013904223u;
        int64_t v = lo + (int64_t)((x >> 8) % (uint64_t)(hi - lo));
        if (dtype == TX_INT16) ((int16_t *)p)[i] = (int16_t)v;
        else if (dtype == TX_INT32) ((int32_t *)p)[i] = (int32_t)v;
        else ((int64_t *)p)[i] = v;
    }
    return t;
}

typedef struct gather_case {
    bool nd;
    tx_dtype dtype, index_dtype;
    size_t prank, irank;
    int64_t pdims[3], idims[3];
    int64_t lo, hi; /* index values */
    int64_t axis, batch_dims;
    tx_oob_policy oob;
} gather_case;

static const gather_case gather_cases[] = {
    /* rows of [64, 200, 20] float32 (1 MiB): the rows are split */
    {false, TX_FLOAT32, TX_INT32, 3, 2, {64, 300, 20}, {5, 40}, 0, 300, 1, 0, TX_OOB_ERROR},
    /* one row: the indices are split (640 KB) */
    {false, TX_FLOAT32, TX_INT64, 2, 1, {1000, 80}, {2000}, 0, 1000, 0, 0, TX_OOB_ERROR},
    {false, TX_INT16, TX_INT16, 3, 2, {4, 50, 8}, {4, 30}, 0, 50, 1, 1, TX_OOB_ERROR},
    {false, TX_UINT8, TX_INT32, 2, 1, {300, 7}, {500}, -400, 400, 0, 0, TX_OOB_ZERO},
    {false, TX_COMPLEX128, TX_INT32, 2, 1, {30, 3}, {700}, -400, 400, 0, 0, TX_OOB_CLAMP},
    {false, TX_FLOAT64, TX_INT64, 2, 2, {9, 3}, {20, 30}, -400, 400, -1, 0, TX_OOB_WRAP},
    {false, TX_FLOAT32, TX_INT32, 2, 1, {0, 3}, {4}, 0, 5, 0, 0, TX_OOB_ZERO},   /* dim 0 */
    {false, TX_FLOAT32, TX_INT32, 2, 1, {5, 3}, {0}, 0, 5, 0, 0, TX_OOB_ERROR},  /* empty */
    /* gather_nd: slices, elements, out of range, no vectors */
    {true, TX_FLOAT32, TX_INT32, 3, 2, {100, 200, 8}, {9000, 2}, 0, 100, 0, 0, TX_OOB_ERROR},
    {true, TX_BFLOAT16, TX_INT64, 3, 2, {10, 20, 8}, {500, 3}, 0, 8, 0, 0, TX_OOB_ERROR},
    {true, TX_INT64, TX_INT16, 2, 2, {40, 9}, {300, 2}, -50, 50, 0, 0, TX_OOB_ZERO},
    {true, TX_INT8, TX_INT32, 2, 3, {40, 9}, {10, 30, 1}, -50, 50, 0, 0, TX_OOB_WRAP},
    {true, TX_FLOAT32, TX_INT32, 2, 2, {4, 5}, {0, 2}, 0, 4, 0, 0, TX_OOB_ERROR},
};

static tx_status gather_call(const gather_case *g, const tx_tensor *params,
                             const tx_tensor *indices, tx_tensor **y) {
    return g->nd ? tx_gather_nd_oob(params, indices, g->oob, y)
                 : tx_gather_oob(params, indices, g->axis, g->batch_dims, g->oob, y);
}

static void test_gathers_run_as_called(void **state) {
    (void)state;
    tx_set_num_threads(2);
    for (size_t c = 0; c < sizeof gather_cases / sizeof gather_cases[0]; c++) {
        const gather_case *g = &gather_cases[c];
        tx_tensor *params = random_tensor(g->dtype, g->prank, g->pdims, (uint32_t)c);
        tx_tensor *indices = index_tensor(g->index_dtype, g->irank, g->idims, g->lo, g->hi,
                                          (uint32_t)c + 7);
        tx_tensor *y = NULL, *unused = NULL;
        assert_int_equal(gather_call(g, params, indices, &y), TX_OK);
        tx_op *op = NULL;
        assert_int_equal(TX_PREPARE(&op, NULL, gather_call(g, params, indices, &unused)), TX_OK);
        assert_null(unused);
        assert_false(tx_op_in_place(op, 0, 0));
        tx_output_info in_info = {sizeof in_info};
        assert_int_equal(tx_op_input(op, 1, &in_info), TX_OK);
        assert_int_equal(in_info.dtype, g->index_dtype);
        int before = serial_calls;
        check_runs(op, (const tx_tensor *const[]){params, indices}, 2, y);
        if (c < 2) assert_true(serial_calls > before); /* the split went to the runner */
        tx_op_free(op);
        tx_tensor_free(y);
        tx_tensor_free(indices);
        tx_tensor_free(params);
    }
}

/* Indices are data: a prepare does not read them (a plan of the same call fails on them), and a
 * run with an index out of range fails with the call's status and message. */
static void test_gather_bad_index_runs(void **state) {
    (void)state;
    tx_set_num_threads(2);
    for (int nd = 0; nd < 2; nd++) {
        tx_tensor *params = random_tensor(TX_FLOAT32, 2, TU_DIMS(600, 100), 5);
        tx_tensor *good = index_tensor(TX_INT32, 2, TU_DIMS(40, 2), 0, 100, 11);
        tx_tensor *bad = index_tensor(TX_INT32, 2, TU_DIMS(40, 2), 0, 100, 11);
        ((int32_t *)tx_tensor_data(bad))[57] = nd ? 600 : -3;
        tx_tensor *y = NULL, *unused = NULL;
        tx_status call = nd ? tx_gather_nd(params, bad, &y) : tx_gather(params, bad, 1, 0, &y);
        assert_int_equal(call, TX_INVALID_ARGUMENT);
        char msg[512];
        snprintf(msg, sizeof msg, "%s", tx_last_error());
        assert_non_null(strstr(msg, nd ? ", 600] does not index into param shape [600,100]"
                                       : "indices[28,1] = -3 is not in [0, 100)"));
        tx_output_info info[1];
        int64_t plan_dims[TX_MAX_RANK];
        tx_plan plan = TX_PLAN_INIT(info, 1, plan_dims, TX_MAX_RANK);
        tu_assert_error(TX_PLAN(&plan, nd ? tx_gather_nd(params, bad, &unused)
                                          : tx_gather(params, bad, 1, 0, &unused)),
                        call, msg);
        tx_op *op = NULL;
        assert_int_equal(TX_PREPARE(&op, NULL, nd ? tx_gather_nd(params, bad, &unused)
                                                  : tx_gather(params, bad, 1, 0, &unused)),
                         TX_OK);
        tx_output_info o = {sizeof o};
        assert_int_equal(tx_op_output(op, 0, &o), TX_OK);
        char *out = malloc(o.nbytes);
        const void *in[2] = {tx_tensor_data_const(params), tx_tensor_data_const(bad)};
        void *outs[1] = {out};
        tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
        tu_assert_error(tx_op_run(op, in, outs, NULL), call, msg);
        tu_assert_error(tx_op_run(op, in, outs, &serial), call, msg);
        in[1] = tx_tensor_data_const(good);
        assert_int_equal(tx_op_run(op, in, outs, &serial), TX_OK);
        assert_int_equal(nd ? tx_gather_nd(params, good, &y) : tx_gather(params, good, 1, 0, &y),
                         TX_OK);
        assert_memory_equal(out, tx_tensor_data_const(y), o.nbytes);
        tx_tensor_free(y);
        free(out);
        tx_op_free(op);
        tx_tensor_free(good);
        tx_tensor_free(bad);
        tx_tensor_free(params);
    }
}

/* ---- one_hot ---- */

typedef struct one_hot_case {
    tx_dtype index_dtype, dtype;
    size_t irank;
    int64_t idims[2];
    int64_t lo, hi, depth, axis;
    bool values; /* on and off values given (else 1 and 0) */
    tx_oob_policy oob;
} one_hot_case;

static const one_hot_case one_hot_cases[] = {
    {TX_INT32, TX_FLOAT32, 2, {300, 400}, -2, 12, 10, -1, false, TX_OOB_ERROR}, /* 4.8 MB */
    {TX_UINT8, TX_INT64, 1, {50}, 0, 9, 7, 0, true, TX_OOB_ERROR},
    {TX_INT64, TX_COMPLEX128, 2, {20, 30}, -40, 40, 9, 1, true, TX_OOB_WRAP},
    {TX_INT8, TX_BFLOAT16, 2, {70, 3}, -100, 100, 5, 0, false, TX_OOB_CLAMP},
    {TX_INT32, TX_FLOAT32, 2, {4, 5}, 0, 3, 0, -1, false, TX_OOB_ERROR},        /* depth 0 */
    {TX_INT32, TX_UINT16, 1, {0}, 0, 3, 4, -1, true, TX_OOB_ZERO},              /* no indices */
};

/* An index tensor of any one_hot index dtype, values in [lo, hi). */
static tx_tensor *one_hot_indices(const one_hot_case *c, uint32_t seed) {
    tx_tensor *wide = index_tensor(TX_INT64, c->irank, c->idims, c->lo, c->hi, seed), *t = NULL;
    assert_int_equal(tx_cast(wide, c->index_dtype, &t), TX_OK);
    tx_tensor_free(wide);
    return t;
}

static void test_one_hot_runs_as_called(void **state) {
    (void)state;
    tx_set_num_threads(2);
    for (size_t k = 0; k < sizeof one_hot_cases / sizeof one_hot_cases[0]; k++) {
        const one_hot_case *c = &one_hot_cases[k];
        tx_tensor *indices = one_hot_indices(c, (uint32_t)k);
        tx_tensor *on = NULL, *off = NULL, *y = NULL, *unused = NULL;
        if (c->values) {
            on = random_tensor(c->dtype, 0, NULL, 1);
            off = random_tensor(c->dtype, 0, NULL, 2);
        }
        assert_int_equal(tx_one_hot_oob(indices, c->depth, on, off, c->axis, c->dtype, c->oob, &y),
                         TX_OK);
        tx_op *op = NULL;
        assert_int_equal(TX_PREPARE(&op, NULL, tx_one_hot_oob(indices, c->depth, on, off, c->axis,
                                                              c->dtype, c->oob, &unused)),
                         TX_OK);
        assert_null(unused);
        assert_false(tx_op_in_place(op, 0, 0));
        /* on and off are attributes: read at prepare time */
        if (on) memset(tx_tensor_data(on), 0x5C, tx_tensor_nbytes(on));
        int before = serial_calls;
        check_runs(op, (const tx_tensor *const[]){indices}, 1, y);
        if (k == 0) assert_true(serial_calls > before); /* the split went to the runner */
        tx_op_free(op);
        tx_tensor_free(y);
        tx_tensor_free(on);
        tx_tensor_free(off);
        tx_tensor_free(indices);
    }
    /* strings stay with the call */
    const char *words[1] = {"x"};
    tx_tensor *s_on = tu_strings(0, NULL, words), *s_off = tu_strings(0, NULL, words);
    tx_tensor *idx = index_tensor(TX_INT32, 1, TU_DIMS(3), 0, 2, 9), *y = NULL;
    tx_op *op = NULL;
    tu_assert_error(TX_PREPARE(&op, NULL, tx_one_hot(idx, 2, s_on, s_off, -1, TX_STRING, &y)),
                    TX_UNIMPLEMENTED, "string outputs need the op call");
    assert_null(op);
    tx_tensor_free(idx);
    tx_tensor_free(s_on);
    tx_tensor_free(s_off);
}

/* ---- no allocation over runs ---- */

static void test_runs_allocate_nothing(void **state) {
    (void)state;
    tx_set_num_threads(2);
    tx_tensor *x = random_tensor(TX_FLOAT32, 2, TU_DIMS(512, 300), 3), *y = NULL;
    tx_tensor *rows = index_tensor(TX_INT32, 1, TU_DIMS(400), 0, 512, 4);
    tx_tensor *points = index_tensor(TX_INT64, 2, TU_DIMS(9000, 2), 0, 300, 5);
    tx_op *ops[5] = {NULL, NULL, NULL, NULL, NULL};
    assert_int_equal(TX_PREPARE(&ops[0], NULL, tx_cast(x, TX_FLOAT16, &y)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[1], NULL, tx_saturate_cast(x, TX_INT16, &y)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[2], NULL, tx_cast_in_mode(x, TX_FLOAT8_E4M3FN, TX_CAST_ONNX, 0, &y)),
                     TX_OK);
    assert_int_equal(TX_PREPARE(&ops[3], NULL, tx_gather(x, rows, 0, 0, &y)), TX_OK);
    assert_int_equal(TX_PREPARE(&ops[4], NULL, tx_gather_nd(x, points, &y)), TX_OK);
    size_t n_ops = sizeof ops / sizeof ops[0];
    char *out = malloc(512 * 300 * 4);
    const void *in_x[1] = {tx_tensor_data_const(x)};
    const void *in_rows[2] = {tx_tensor_data_const(x), tx_tensor_data_const(rows)};
    const void *in_points[2] = {tx_tensor_data_const(x), tx_tensor_data_const(points)};
    const void *const *ins[5] = {in_x, in_x, in_x, in_rows, in_points};
    void *outs[1] = {out};
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    for (size_t k = 0; k < n_ops; k++) assert_int_equal(tx_op_run(ops[k], ins[k], outs, NULL), TX_OK);
    tu_alloc_install();
    long before = tu_alloc_count();
    for (int i = 0; i < 100; i++)
        for (size_t k = 0; k < n_ops; k++) {
            assert_int_equal(tx_op_run(ops[k], ins[k], outs, NULL), TX_OK);
            assert_int_equal(tx_op_run(ops[k], ins[k], outs, &serial), TX_OK);
        }
    assert_int_equal(tu_alloc_count() - before, 0);
    tu_alloc_uninstall();
    free(out);
    for (size_t k = 0; k < n_ops; k++) tx_op_free(ops[k]);
    tx_tensor_free(rows);
    tx_tensor_free(points);
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_casts_run_as_called),
        cmocka_unit_test(test_cast_strided_outputs),
        cmocka_unit_test(test_checked_runs),
        cmocka_unit_test(test_cast_prepare_errors),
        cmocka_unit_test(test_gathers_run_as_called),
        cmocka_unit_test(test_gather_bad_index_runs),
        cmocka_unit_test(test_one_hot_runs_as_called),
        cmocka_unit_test(test_runs_allocate_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
