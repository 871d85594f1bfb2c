/* SPDX-License-Identifier: Apache-2.0 */
/* test_prepared_values.c -- the prepared forms of reverse_sequence, sequence_mask (with maxlen)
 * and required_space_to_batch_paddings, whose runs read and check values of a data input, and of
 * shape, shape_n, size, rank, meshgrid and bitcast: each op is prepared over data it must not
 * read (values that would fail), then run on new data on tensorx's pool, a runner on one thread
 * and a runner of real threads, equal to the call on that data bit for bit, or failing with the
 * call's status and message; the limits of the prepared forms are refused as unimplemented. */
#include "testutil.h"

#include "prepared_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs op on in[] on the three runners into fresh memory (a guard byte past each output) and
 * compares every output with the call's ys[0..n). */
static void check_runs(const tx_op *op, const void *const *in, tx_tensor *const *ys, size_t n) {
    assert_int_equal(tx_op_output_count(op), n);
    tx_runner serial = TX_RUNNER_INIT(serial_for, NULL, 4);
    tx_runner threads = TX_RUNNER_INIT(threads_for, NULL, 3);
    const tx_runner *runners[] = {NULL, &serial, &threads};
    for (size_t r = 0; r < 3; r++) {
        void *outs[TX_OP_MAX_OUTPUTS] = {0};
        size_t bytes[TX_OP_MAX_OUTPUTS];
        for (size_t i = 0; i < n; i++) {
            tx_output_info info = {sizeof info};
            assert_int_equal(tx_op_output(op, i, &info), TX_OK);
            assert_int_equal(info.nbytes, tx_tensor_nbytes(ys[i]));
            assert_int_equal(info.rank, tx_tensor_rank(ys[i]));
            bytes[i] = info.nbytes;
            outs[i] = malloc(bytes[i] + 1);
            memset(outs[i], 0xA5, bytes[i] + 1);
        }
        assert_int_equal(tx_op_run(op, in, outs, runners[r]), TX_OK);
        for (size_t i = 0; i < n; i++) {
            assert_memory_equal(outs[i], tx_tensor_data_const(ys[i]), bytes[i]);
            assert_int_equal(((unsigned char *)outs[i])[bytes[i]], 0xA5);
            free(outs[i]);
        }
    }
}

/* Runs op on in[] and requires status `want` with the message `msg` (the call's). */
static void check_run_fails(const tx_op *op, const void *const *in, tx_status want,
                            const char *msg) {
    void *outs[TX_OP_MAX_OUTPUTS];
    char *room[TX_OP_MAX_OUTPUTS];
    for (size_t i = 0; i < tx_op_output_count(op); i++) {
        tx_output_info info = {sizeof info};
        assert_int_equal(tx_op_output(op, i, &info), TX_OK);
        outs[i] = room[i] = malloc(info.nbytes + 1);
    }
    assert_int_equal(tx_op_run(op, in, outs, NULL), want);
    assert_string_equal(tx_last_error(), msg);
    for (size_t i = 0; i < tx_op_output_count(op); i++) free(room[i]);
}

/* A call's error: its status, and its message copied into msg. */
static tx_status call_error(tx_status st, char *msg, size_t cap) {
    snprintf(msg, cap, "%s", tx_last_error());
    return st;
}

/* A 1-D int32 or int64 tensor of n values. */
static tx_tensor *ints(tx_dtype dtype, size_t n, const int64_t *v) {
    if (dtype == TX_INT64) return tu_i64(n, v);
    int32_t w[64];
    assert_true(n <= 64);
    for (size_t i = 0; i < n; i++) w[i] = (int32_t)v[i];
    return tu_i32(n, w);
}

/* ---- reverse_sequence ---- */

static void reverse_sequence_case(tx_dtype ldtype, size_t rank, const int64_t *dims,
                                  int64_t seq_dim, int64_t batch_dim, uint32_t seed) {
    const int64_t nb = dims[batch_dim], ns = dims[seq_dim];
    int64_t bad[64];
    for (int64_t b = 0; b < nb; b++) bad[b] = -1 - b; /* a prepare that read them would fail */
    tx_tensor *x = random_tensor(TX_FLOAT32, rank, dims, seed), *lens = ints(ldtype, (size_t)nb, bad);
    tx_op *op = NULL;
    tx_tensor *y = NULL;
    assert_int_equal(TX_PREPARE(&op, NULL, tx_reverse_sequence(x, lens, seq_dim, batch_dim, &y)),
                     TX_OK);
    assert_null(y);
    assert_int_equal(tx_op_input_count(op), 2);
    for (uint32_t round = 0; round < 4; round++) {
        int64_t l[64];
        for (int64_t b = 0; b < nb; b++) l[b] = (int64_t)((seed + round * 7 + (uint32_t)b * 5) % (uint32_t)(ns + 1));
        tx_tensor *x2 = random_tensor(TX_FLOAT32, rank, dims, seed + 100 + round);
        tx_tensor *l2 = ints(ldtype, (size_t)nb, l);
        assert_int_equal(tx_reverse_sequence(x2, l2, seq_dim, batch_dim, &y), TX_OK);
        const void *in[2] = {tx_tensor_data_const(x2), tx_tensor_data_const(l2)};
        check_runs(op, in, &y, 1);
        tx_tensor_free(y);
        /* a negative length, then one above the sequence dim: the run names the first */
        l[nb - 1] = ns + 1;
        if (nb > 1) l[nb - 2] = -3;
        tx_tensor *l3 = ints(ldtype, (size_t)nb, l);
        char msg[512];
        tx_status st = call_error(tx_reverse_sequence(x2, l3, seq_dim, batch_dim, &y), msg, sizeof msg);
        assert_int_equal(st, TX_INVALID_ARGUMENT);
        const void *in3[2] = {tx_tensor_data_const(x2), tx_tensor_data_const(l3)};
        check_run_fails(op, in3, st, msg);
        tx_tensor_free(x2);
        tx_tensor_free(l2);
        tx_tensor_free(l3);
    }
    tx_op_free(op);
    tx_tensor_free(x);
    tx_tensor_free(lens);
}

static void test_reverse_sequence(void **state) {
    (void)state;
    reverse_sequence_case(TX_INT32, 3, TU_DIMS(4, 6, 3), 1, 0, 1);
    reverse_sequence_case(TX_INT64, 3, TU_DIMS(9, 5, 2), 0, 1, 2);
    /* large enough that the copy is split into pieces */
    reverse_sequence_case(TX_INT64, 3, TU_DIMS(16, 300, 40), 1, 0, 3);
    reverse_sequence_case(TX_INT32, 4, TU_DIMS(200, 3, 12, 20), 0, 2, 4);
    reverse_sequence_case(TX_INT32, 3, TU_DIMS(5, 0, 3), 1, 0, 5);
}

/* TF checks the lengths before the rank (its kernel handles ranks 2 to 5): a prepared rank 6
 * reports what the call reports, run by run. */
static void test_reverse_sequence_rank_after_lengths(void **state) {
    (void)state;
    tx_tensor *x = random_tensor(TX_INT8, 6, TU_DIMS(2, 3, 1, 1, 1, 1), 9);
    tx_tensor *good = tu_i32(2, (const int32_t[]){3, 1}), *bad = tu_i32(2, (const int32_t[]){4, 1});
    tx_op *op = NULL;
    tx_tensor *y = NULL;
    assert_int_equal(TX_PREPARE(&op, NULL, tx_reverse_sequence(x, bad, 1, 0, &y)), TX_OK);
    tx_tensor *lens[2] = {bad, good};
    const char *want[2] = {"seq_lengths[0] = 4 is above", "handles ranks 2 to 5 only"};
    for (int k = 0; k < 2; k++) {
        char msg[512];
        tx_status st = call_error(tx_reverse_sequence(x, lens[k], 1, 0, &y), msg, sizeof msg);
        tu_assert_error(st, TX_INVALID_ARGUMENT, want[k]);
        const void *in[2] = {tx_tensor_data_const(x), tx_tensor_data_const(lens[k])};
        check_run_fails(op, in, st, msg);
    }
    tx_op_free(op);
    tx_tensor_free(x);
    tx_tensor_free(good);
    tx_tensor_free(bad);
}

/* ---- sequence_mask ---- */

static void test_sequence_mask(void **state) {
    (void)state;
    const tx_dtype dtypes[] = {TX_BOOL, TX_FLOAT32, TX_INT64, TX_COMPLEX128};
    const tx_dtype ldtypes[] = {TX_INT64, TX_UINT8, TX_INT32, TX_UINT64};
    for (size_t k = 0; k < 4; k++) {
        const int64_t dims[2] = {3, 5};
        tx_tensor *garbage = random_tensor(ldtypes[k], 2, dims, 11 + (uint32_t)k);
        int32_t m32 = 7;
        int64_t m64 = 9;
        tx_tensor *maxlen = NULL;
        if (k % 2) assert_int_equal(tx_tensor_from_data(TX_INT32, 0, NULL, &m32, 4, &maxlen), TX_OK);
        else assert_int_equal(tx_tensor_from_data(TX_INT64, 0, NULL, &m64, 8, &maxlen), TX_OK);
        tx_op *op = NULL;
        tx_tensor *y = NULL;
        assert_int_equal(TX_PREPARE(&op, NULL, tx_sequence_mask(garbage, maxlen, dtypes[k], &y)),
                         TX_OK);
        for (uint32_t round = 0; round < 3; round++) {
            /* every byte pattern: negative lengths, lengths past maxlen, int64 values that an
             * int32 maxlen wraps */
            tx_tensor *l = random_tensor(ldtypes[k], 2, dims, 50 + round * 4 + (uint32_t)k);
            assert_int_equal(tx_sequence_mask(l, maxlen, dtypes[k], &y), TX_OK);
            const void *in[1] = {tx_tensor_data_const(l)};
            check_runs(op, in, &y, 1);
            tx_tensor_free(y);
            tx_tensor_free(l);
        }
        tx_op_free(op);
        /* without maxlen the last dim is max(lengths): no prepared form */
        op = (tx_op *)&op;
        tu_assert_error(TX_PREPARE(&op, NULL, tx_sequence_mask(garbage, NULL, dtypes[k], &y)),
                        TX_UNIMPLEMENTED, "sequence_mask: without maxlen the output's shape "
                        "depends on the values of lengths; a prepared op needs maxlen");
        assert_null(op);
        tx_tensor_free(maxlen);
        tx_tensor_free(garbage);
    }
}

/* ---- required_space_to_batch_paddings ---- */

static void test_required_paddings(void **state) {
    (void)state;
    for (int with_base = 0; with_base < 2; with_base++) {
        tx_tensor *block = tu_i64(3, (const int64_t[]){2, 3, 5});
        tx_tensor *base = with_base ? tu_tensor(TX_INT32, 2, TU_DIMS(3, 2),
                                                TU_VALS(1, 0, 0, 2, 3, 3))
                                    : NULL;
        tx_tensor *garbage = tu_i32(3, (const int32_t[]){-1, -2, -3});
        tx_op *op = NULL;
        tx_tensor *outs[2] = {NULL, NULL};
        assert_int_equal(TX_PREPARE(&op, NULL, tx_required_space_to_batch_paddings(
                                                    garbage, block, base, outs)),
                         TX_OK);
        assert_int_equal(tx_op_input_count(op), 1);
        const int32_t shapes[4][3] = {{4, 5, 6}, {0, 0, 0}, {7, 11, 13}, {2147483647, 1, 9}};
        for (int r = 0; r < 4; r++) {
            tx_tensor *s = tu_i32(3, shapes[r]);
            const void *in[1] = {tx_tensor_data_const(s)};
            assert_int_equal(tx_required_space_to_batch_paddings(s, block, base, outs), TX_OK);
            check_runs(op, in, outs, 2);
            tx_tensor_free(outs[0]);
            tx_tensor_free(outs[1]);
            tx_tensor_free(s);
        }
        tx_tensor *negative = tu_i32(3, (const int32_t[]){4, -5, 6});
        char msg[512];
        tx_status st = call_error(
            tx_required_space_to_batch_paddings(negative, block, base, outs), msg, sizeof msg);
        tu_assert_error(st, TX_INVALID_ARGUMENT, "input_shape entry 1 = -5");
        check_run_fails(op, (const void *[]){tx_tensor_data_const(negative)}, st, msg);
        tx_op_free(op);
        /* the attributes' values are checked before input_shape's, by the call and the prepare */
        tx_tensor *zero = tu_i64(3, (const int64_t[]){2, 0, 5});
        st = call_error(tx_required_space_to_batch_paddings(negative, zero, base, outs), msg,
                        sizeof msg);
        tu_assert_error(st, TX_INVALID_ARGUMENT, "block_shape entry 1 = 0");
        tu_assert_error(TX_PREPARE(&op, NULL, tx_required_space_to_batch_paddings(
                                                  negative, zero, base, outs)),
                        st, msg);
        assert_null(op);
        tx_tensor_free(zero);
        tx_tensor_free(negative);
        tx_tensor_free(garbage);
        tx_tensor_free(block);
        tx_tensor_free(base);
    }
}

/* A padding end past int32 depends on input_shape: found by the run, as by the call. */
static void test_required_paddings_end(void **state) {
    (void)state;
    tx_tensor *block = tu_i32(2, (const int32_t[]){3, 5});
    tx_tensor *base = tu_tensor(TX_INT64, 2, TU_DIMS(2, 2), TU_VALS(0, 0, 0, 2147483646));
    tx_tensor *s = tu_i64(2, (const int64_t[]){4, 4}), *outs[2];
    tx_op *op = NULL;
    assert_int_equal(TX_PREPARE(&op, NULL, tx_required_space_to_batch_paddings(s, block, base,
                                                                               outs)),
                     TX_OK);
    const int64_t fits[2] = {4, 4}, past[2] = {5, 1}; /* 1 + 2147483646 needs 3 more */
    const int64_t *rows[2] = {fits, past};
    for (int k = 0; k < 2; k++) {
        tx_tensor *x = tu_i64(2, rows[k]);
        const void *in[1] = {tx_tensor_data_const(x)};
        char msg[512];
        tx_status st = call_error(tx_required_space_to_batch_paddings(x, block, base, outs), msg,
                                  sizeof msg);
        if (k == 0) {
            assert_int_equal(st, TX_OK);
            check_runs(op, in, outs, 2);
            tx_tensor_free(outs[0]);
            tx_tensor_free(outs[1]);
        } else {
            tu_assert_error(st, TX_INVALID_ARGUMENT, "padding end 2147483649 of dim 1 does not fit");
            check_run_fails(op, in, st, msg);
        }
        tx_tensor_free(x);
    }
    tx_op_free(op);
    tx_tensor_free(s);
    tx_tensor_free(block);
    tx_tensor_free(base);
}

/* ---- shape, shape_n, size, rank ---- */

static void test_shape_ops(void **state) {
    (void)state;
    tx_tensor *a = random_tensor(TX_FLOAT64, 3, TU_DIMS(4, 1, 6), 1);
    tx_tensor *e = random_tensor(TX_INT8, 2, TU_DIMS(3, 0), 2);
    tx_tensor *s = random_tensor(TX_INT8, 0, NULL, 3);
    const tx_tensor *all[3] = {a, e, s};
    for (size_t k = 0; k < 3; k++) {
        /* a run reads no input: empty inputs may be NULL, others any pointer */
        static const char somewhere[1];
        const void *in[1] = {tx_tensor_numel(all[k]) ? (const void *)somewhere : NULL};
        for (int t = 0; t < 2; t++) {
            tx_dtype out_type = t ? TX_INT64 : TX_INT32;
            tx_tensor *y = NULL;
            tx_op *op = NULL;
            assert_int_equal(TX_PREPARE(&op, NULL, tx_shape(all[k], out_type, &y)), TX_OK);
            assert_int_equal(tx_shape(all[k], out_type, &y), TX_OK);
            check_runs(op, in, &y, 1);
            tx_tensor_free(y);
            tx_op_free(op);
            assert_int_equal(TX_PREPARE(&op, NULL, tx_size(all[k], out_type, &y)), TX_OK);
            assert_int_equal(tx_size(all[k], out_type, &y), TX_OK);
            check_runs(op, in, &y, 1);
            tx_tensor_free(y);
            tx_op_free(op);
        }
        tx_tensor *y = NULL;
        tx_op *op = NULL;
        assert_int_equal(TX_PREPARE(&op, NULL, tx_rank(all[k], &y)), TX_OK);
        assert_int_equal(tx_rank(all[k], &y), TX_OK);
        check_runs(op, in, &y, 1);
        tx_tensor_free(y);
        tx_op_free(op);
    }
    tx_tensor *b = random_tensor(TX_FLOAT64, 1, TU_DIMS(5), 4);
    const tx_tensor *three[3] = {a, b, a};
    tx_tensor *ys[3];
    tx_op *op = NULL;
    assert_int_equal(TX_PREPARE(&op, NULL, tx_shape_n(three, 3, TX_INT64, ys)), TX_OK);
    assert_int_equal(tx_op_input_count(op), 3);
    assert_int_equal(tx_shape_n(three, 3, TX_INT64, ys), TX_OK);
    const void *in[3] = {tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_data_const(a)};
    check_runs(op, in, ys, 3);
    for (int i = 0; i < 3; i++) tx_tensor_free(ys[i]);
    tx_op_free(op);
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(s);
}

/* The limits of a prepared shape_n: 16 outputs, 512 dims in all.  The call has none: it fills
 * its outputs in groups. */
static void test_shape_n_limits(void **state) {
    (void)state;
    int64_t ones[200];
    for (int i = 0; i < 200; i++) ones[i] = 1 + (i % 50 == 7); /* 16 elements */
    tx_tensor *wide = NULL, *v = random_tensor(TX_UINT8, 1, TU_DIMS(2), 1);
    assert_int_equal(tx_tensor_new(TX_UINT8, 200, ones, &wide), TX_OK);
    const tx_tensor *in[70];
    tx_tensor *ys[70];
    for (int c = 0; c < 3; c++) {
        /* 3 * 200 dims; 70 inputs of 200 or 1 dims; 70 of one dim: the call's groups hold up
         * to 512 dims and 64 outputs */
        int n = c ? 70 : 3;
        for (int i = 0; i < n; i++) in[i] = c == 2 || (c == 1 && i % 4 == 3) ? v : wide;
        tx_op *op = (tx_op *)&op;
        tu_assert_error(TX_PREPARE(&op, NULL, tx_shape_n(in, (size_t)n, TX_INT32, ys)),
                        TX_UNIMPLEMENTED, "shape_n: a prepared op takes at most");
        assert_null(op);
        assert_int_equal(tx_shape_n(in, (size_t)n, TX_INT32, ys), TX_OK);
        for (int i = 0; i < n; i++) {
            const tx_tensor *x = in[i];
            assert_int_equal(tx_tensor_numel(ys[i]), (int64_t)tx_tensor_rank(x));
            const int32_t *got = tx_tensor_data_const(ys[i]);
            for (size_t d = 0; d < tx_tensor_rank(x); d++)
                assert_int_equal(got[d], tx_tensor_dims(x)[d]);
            tx_tensor_free(ys[i]);
        }
    }
    for (int i = 0; i < 17; i++) in[i] = v;
    tx_op *op = NULL;
    tu_assert_error(TX_PREPARE(&op, NULL, tx_shape_n(in, 17, TX_INT32, ys)), TX_UNIMPLEMENTED,
                    "shape_n: the call makes 17 outputs; a prepared op makes at most 16");
    tx_tensor_free(wide);
    tx_tensor_free(v);
}

/* ---- meshgrid ---- */

static void test_meshgrid(void **state) {
    (void)state;
    const tx_dtype dtypes[] = {TX_INT16, TX_COMPLEX64, TX_FLOAT32};
    const int64_t sizes[3][3] = {{5, 7, 3}, {4, 6, 0}, {300, 200, 2}};
    for (size_t k = 0; k < 3; k++)
        for (int ij = 0; ij < 2; ij++) {
            tx_tensor *args[3];
            const void *in[3];
            for (int i = 0; i < 3; i++) {
                args[i] = random_tensor(dtypes[k], 1, &sizes[k][i], 7 + (uint32_t)(k * 3 + i));
                in[i] = tx_tensor_data_const(args[i]);
            }
            tx_meshgrid_indexing idx = ij ? TX_MESHGRID_IJ : TX_MESHGRID_XY;
            size_t n = k == 2 ? 2 : 3; /* 300 x 200: a split fill */
            tx_tensor *ys[3];
            tx_op *op = NULL;
            assert_int_equal(TX_PREPARE(&op, NULL, tx_meshgrid((const tx_tensor *const *)args, n,
                                                               idx, ys)),
                             TX_OK);
            assert_int_equal(tx_meshgrid((const tx_tensor *const *)args, n, idx, ys), TX_OK);
            check_runs(op, in, ys, n);
            for (size_t i = 0; i < n; i++) tx_tensor_free(ys[i]);
            tx_op_free(op);
            for (int i = 0; i < 3; i++) tx_tensor_free(args[i]);
        }
    tx_tensor *one = random_tensor(TX_INT8, 1, TU_DIMS(1), 3);
    const tx_tensor *many[17];
    tx_tensor *ys[17];
    for (int i = 0; i < 17; i++) many[i] = one;
    tx_op *op = NULL;
    tu_assert_error(TX_PREPARE(&op, NULL, tx_meshgrid(many, 17, TX_MESHGRID_IJ, ys)),
                    TX_UNIMPLEMENTED, "meshgrid: the call makes 17 outputs; a prepared op makes "
                    "at most 16");
    /* no arguments: no outputs, a run does nothing */
    assert_int_equal(TX_PREPARE(&op, NULL, tx_meshgrid(NULL, 0, TX_MESHGRID_XY, NULL)), TX_OK);
    assert_int_equal(tx_op_output_count(op), 0);
    assert_int_equal(tx_op_run(op, NULL, (void *[]){NULL}, NULL), TX_OK);
    tx_op_free(op);
    tx_tensor_free(one);
}

/* ---- bitcast ---- */

static void test_bitcast(void **state) {
    (void)state;
    const tx_dtype from[] = {TX_FLOAT32, TX_UINT8, TX_COMPLEX128};
    const tx_dtype to[] = {TX_UINT8, TX_UINT16, TX_INT64};
    const int64_t dims[3][2] = {{4, 5}, {6, 2}, {3, 1}};
    for (size_t k = 0; k < 3; k++) {
        tx_tensor *x = random_tensor(from[k], 2, dims[k], 21 + (uint32_t)k), *y = NULL;
        tx_op *op = NULL;
        assert_int_equal(TX_PREPARE(&op, NULL, tx_bitcast(x, to[k], &y)), TX_OK);
        assert_int_equal(tx_bitcast(x, to[k], &y), TX_OK);
        const void *in[1] = {tx_tensor_data_const(x)};
        check_runs(op, in, &y, 1);
        /* in place: the input's memory is the result */
        assert_int_equal(tx_op_in_place(op, 0, 0), 1);
        size_t nbytes = tx_tensor_nbytes(x);
        char *buf = malloc(nbytes);
        memcpy(buf, tx_tensor_data_const(x), nbytes);
        assert_int_equal(tx_op_run(op, (const void *[]){buf}, (void *[]){buf}, NULL), TX_OK);
        assert_memory_equal(buf, tx_tensor_data_const(y), nbytes);
        free(buf);
        tx_tensor_free(y);
        tx_op_free(op);
        tx_tensor_free(x);
    }
    /* strided: int32 [3] as float32 into every other slot of a buffer */
    tx_tensor *x = random_tensor(TX_INT32, 1, TU_DIMS(3), 5), *y = NULL;
    const int64_t stride[1] = {8};
    const int64_t *strides[1] = {stride};
    tx_prepare_options o = TX_PREPARE_OPTIONS_INIT(1, strides);
    tx_op *op = NULL;
    assert_int_equal(TX_PREPARE(&op, &o, tx_bitcast(x, TX_FLOAT32, &y)), TX_OK);
    assert_int_equal(tx_op_in_place(op, 0, 0), 0);
    unsigned char out[24];
    memset(out, 0xEE, sizeof out);
    assert_int_equal(tx_op_run(op, (const void *[]){tx_tensor_data_const(x)}, (void *[]){out}, NULL),
                     TX_OK);
    const unsigned char *src = tx_tensor_data_const(x);
    for (int i = 0; i < 3; i++) {
        assert_memory_equal(out + 8 * i, src + 4 * i, 4);
        for (int b = 4; b < 8; b++) assert_int_equal(out[8 * i + b], 0xEE);
    }
    tx_op_free(op);
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reverse_sequence),
        cmocka_unit_test(test_reverse_sequence_rank_after_lengths),
        cmocka_unit_test(test_sequence_mask),
        cmocka_unit_test(test_required_paddings),
        cmocka_unit_test(test_required_paddings_end),
        cmocka_unit_test(test_shape_ops),
        cmocka_unit_test(test_shape_n_limits),
        cmocka_unit_test(test_meshgrid),
        cmocka_unit_test(test_bitcast),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
