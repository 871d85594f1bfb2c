/* SPDX-License-Identifier: Apache-2.0 */
/* test_gather_limits.c -- the gather family (gather, gather_nd, unique_with_counts,
 * dynamic_partition, dynamic_stitch, boolean_mask, one_hot, sequence_mask) at its limits: rank
 * 254, empty tensors whose other dims multiply past int64, int16 indices with their int16
 * limits, and an allocation-failure sweep per op (with and without an out-of-range policy). */
#include "gather_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- hostile shapes --------------------------------------------------------------------------- */

static void test_max_rank(void **state) {
    (void)state;
    /* Results whose rank would pass TX_MAX_RANK are clean errors; rank-254 inputs work. */
    int64_t ones[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) ones[i] = 1;
    tx_tensor *big = tu_tensor(TX_INT32, TX_MAX_RANK, ones, NULL), *o = NULL;
    tx_tensor *bmask = tu_tensor(TX_BOOL, TX_MAX_RANK, ones, TU_VALS(1));
    tu_assert_error(tx_gather(big, big, 0, 0, &o), TX_INVALID_ARGUMENT, "rank");
    assert_null(o);
    tu_assert_error(tx_one_hot(big, 2, NULL, NULL, -1, TX_FLOAT32, &o), TX_INVALID_ARGUMENT, "rank");
    tu_assert_error(tx_sequence_mask(big, NULL, TX_BOOL, &o), TX_INVALID_ARGUMENT, "rank");
    assert_int_equal(tx_boolean_mask(big, bmask, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(1));
    tx_tensor_free(o);
    /* tf.boolean_mask (python/ops/array_ops.py) first reshapes tensor to the result's rank
     * rank - K + 1, and ReshapeOp (tensorflow/core/kernels/reshape_op.h) wants fewer than 254
     * dims: a 1-D mask on a rank-254 tensor fails, a 2-D one (rank 253) works. */
    tx_tensor *m1 = TB(1, TU_DIMS(1), 1), *m2 = TB(2, TU_DIMS(1, 1), 0);
    tu_assert_error(tx_boolean_mask(big, m1, 0, &o), TX_INVALID_ARGUMENT,
                    "boolean_mask: the result would have rank 254: too many dimensions: must be < 254");
    tu_assert_error(tx_boolean_mask(big, m1, 200, &o), TX_INVALID_ARGUMENT, "rank 254: too many dimensions");
    assert_null(o);
    assert_int_equal(tx_boolean_mask(big, m2, 5, &o), TX_OK);
    assert_int_equal(tx_tensor_rank(o), 253);
    assert_int_equal(tx_tensor_dim(o, 5), 0);
    tx_tensor_free(o);
    tx_tensor_free(m1);
    tx_tensor_free(m2);
    tx_tensor *outs[1];
    assert_int_equal(tx_dynamic_partition(big, big, 1, outs), TX_OK);
    tu_assert_shape(outs[0], TX_INT32, 1, TU_DIMS(1));
    tx_tensor_free(outs[0]);
    /* gather_nd with a 254-long index vector picks the one element. */
    int64_t idims[2] = {1, TX_MAX_RANK};
    tx_tensor *ix = tu_tensor(TX_INT64, 2, idims, NULL);
    assert_int_equal(tx_gather_nd(big, ix, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 1, TU_DIMS(1));
    tx_tensor_free(o);
    ((int64_t *)tx_tensor_data(ix))[TX_MAX_RANK - 1] = 1;
    tu_assert_error(tx_gather_nd(big, ix, &o), TX_INVALID_ARGUMENT, "does not index into param shape");
    tx_tensor_free(ix);
    tx_tensor_free(bmask);
    tx_tensor_free(big);
    /* gather_nd with K = 0 and an index count that overflows int64. */
    tx_tensor *p = T32(1, TU_DIMS(1), 5);
    int64_t huge[3] = {1LL << 40, 1LL << 40, 0};
    tx_tensor *k0 = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, 3, huge, &k0), TX_OK);
    tu_assert_error(tx_gather_nd(p, k0, &o), TX_INVALID_ARGUMENT, "too many elements for int indexing");
    tx_tensor_free(k0);
    tx_tensor_free(p);
}

/* ---- allocation failure ---------------------------------------------------------------------- */

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(4, 3));
    tx_tensor *sp = tu_strings(1, TU_DIMS(3), STRS("a", "bb", "ccc"));
    tx_tensor *ix = T32(1, TU_DIMS(3), 2, 0, 1);
    tx_tensor *nd = T32(2, TU_DIMS(2, 2), 0, 1, 3, 2);
    tx_tensor *x = tu_strings(1, TU_DIMS(4), STRS("a", "b", "a", "c"));
    tx_tensor *part = T32(1, TU_DIMS(4), 1, 0, 2, 1);
    tx_tensor *m = TB(1, TU_DIMS(3), 1, 0, 1);
    tx_tensor *on = tu_strings(0, NULL, STRS("on")), *off = tu_strings(0, NULL, STRS("off"));
    tx_tensor *len = T32(1, TU_DIMS(3), 1, 3, 2);
    const tx_tensor *si[2] = {ix, ix}, *sd[2] = {sp, sp};
    tu_alloc_install();
    for (int op = 0; op < 8; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[3] = {NULL, NULL, NULL};
            tx_status st;
            switch (op) {
            case 0: st = tx_gather(sp, ix, 0, 0, &o); break;
            case 1: st = tx_gather_nd(p, nd, &o); break;
            case 2: st = tx_unique_with_counts(x, TX_INT64, outs); break;
            case 3: st = tx_dynamic_partition(p, part, 3, outs); break;
            case 4: st = tx_dynamic_stitch(si, 2, sd, 2, &o); break;
            case 5: st = tx_boolean_mask(sp, m, 0, &o); break;
            case 6: st = tx_one_hot(ix, 4, on, off, 0, TX_STRING, &o); break;
            default: st = tx_sequence_mask(len, NULL, TX_FLOAT64, &o); break;
            }
            if (st == TX_OK) {
                tx_tensor_free(o);
                for (int i = 0; i < 3; i++) tx_tensor_free(outs[i]);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(o);
            for (int i = 0; i < 3; i++) assert_null(outs[i]);
            assert_int_equal(tu_alloc_live(), 0);
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(p);
    tx_tensor_free(sp);
    tx_tensor_free(ix);
    tx_tensor_free(nd);
    tx_tensor_free(x);
    tx_tensor_free(part);
    tx_tensor_free(m);
    tx_tensor_free(on);
    tx_tensor_free(off);
    tx_tensor_free(len);
}

/* ---- out-of-range policies (tx_*_ex) ------------------------------------------------------- */

static void test_oob_alloc_failure(void **state) {
    (void)state;
    tx_tensor *sp = tu_strings(1, TU_DIMS(3), STRS("a", "bb", "ccc"));
    tx_tensor *sp2 = tu_strings(2, TU_DIMS(2, 2), STRS("a", "bb", "ccc", "d"));
    tx_tensor *ix = T32(1, TU_DIMS(3), 5, -1, 1);
    tx_tensor *nd = T32(2, TU_DIMS(2, 2), 0, 7, -3, 1);
    tx_tensor *on = tu_strings(0, NULL, STRS("on")), *off = tu_strings(0, NULL, STRS("off"));
    const tx_tensor *si[2] = {ix, ix}, *sd[2] = {sp, sp};
    tu_alloc_install();
    for (int op = 0; op < 4 * 4; op++) {
        tx_oob_policy pol = (tx_oob_policy)(op % 4);
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL;
            tx_status st;
            switch (op / 4) {
            case 0: st = tx_gather_oob(sp, ix, 0, 0, pol, &o); break;
            case 1: st = tx_gather_nd_oob(sp2, nd, pol, &o); break;
            case 2: st = tx_dynamic_stitch_oob(si, 2, sd, 2, pol, &o); break;
            default: st = tx_one_hot_oob(ix, 4, on, off, 0, TX_STRING, pol, &o); break;
            }
            if (st == TX_OK) {
                tx_tensor_free(o);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_null(o);
            assert_int_equal(tu_alloc_live(), 0);
            if (st == TX_INVALID_ARGUMENT && pol == TX_OOB_ERROR) break; /* TF's out-of-range error */
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(sp);
    tx_tensor_free(sp2);
    tx_tensor_free(ix);
    tx_tensor_free(nd);
    tx_tensor_free(on);
    tx_tensor_free(off);
}

/* ---- int16 indices ---------------------------------------------------------------------------- */

/* GatherV2 and GatherNd declare Tindices: {int16, int32, int64} (tensorflow/core/ops/array_ops.cc)
 * and register CPU kernels for int16 (REGISTER_GATHER_CPU in gather_op.cc, REGISTER_GATHER_ND_CPU
 * in gather_nd_op.cc).  Their limits follow the index type: GatherOp refuses
 * params.shape[axis] > numeric_limits<Index>::max(), DoGatherNd (gather_nd_op.h) refuses
 * params.NumElements() and the slice size above it. */

static uint64_t rnd_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void) {
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

/* Index tensors of dtype dt holding v[0..n) (all within int16). */
static tx_tensor *index_tensor(tx_dtype dt, size_t rank, const int64_t *dims, const int64_t *v) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    double *d = calloc((size_t)n + 1, sizeof *d);
    for (int64_t i = 0; i < n; i++) d[i] = (double)v[i];
    tx_tensor *t = tu_tensor(dt, rank, dims, d);
    free(d);
    return t;
}

static void test_int16_indices_gather(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* The page example's shapes with int16 indices: axis 0, axis 1, batch_dims 1. */
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(4, 3));
    tx_tensor *ix = tu_tensor(TX_INT16, 2, TU_DIMS(2, 2), TU_VALS(3, 0, 1, 3));
    assert_int_equal(tx_gather(p, ix, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 3, TU_DIMS(2, 2, 3));
    tu_assert_values(o, TU_VALS(9, 10, 11, 0, 1, 2, 3, 4, 5, 9, 10, 11));
    tx_tensor_free(o);
    tx_tensor *ix1 = tu_tensor(TX_INT16, 1, TU_DIMS(2), TU_VALS(2, 0));
    assert_int_equal(tx_gather(p, ix1, -1, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(2, 0, 5, 3, 8, 6, 11, 9));
    tx_tensor_free(o);
    tx_tensor *bx = tu_tensor(TX_INT16, 2, TU_DIMS(4, 1), TU_VALS(2, 0, 1, 2));
    assert_int_equal(tx_gather(p, bx, 1, 1, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(4, 1));
    tu_assert_values(o, TU_VALS(2, 3, 7, 11));
    tx_tensor_free(o);
    /* Every policy on int16's extremes: -32768 and 32767 along a dim of 4. */
    tx_tensor *ex = tu_tensor(TX_INT16, 1, TU_DIMS(5), TU_VALS(-32768, 32767, -1, 4, 2));
    tu_assert_error(tx_gather_oob(p, ex, 0, 0, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "gather: indices[0] = -32768 is not in [0, 4)");
    assert_null(o);
    assert_int_equal(tx_gather_oob(p, ex, 0, 0, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 7, 8));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p, ex, 0, 0, TX_OOB_CLAMP, &o), TX_OK);
    /* rows 0, 3, 0, 3, 2 */
    tu_assert_values(o, TU_VALS(0, 1, 2, 9, 10, 11, 0, 1, 2, 9, 10, 11, 6, 7, 8));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_oob(p, ex, 0, 0, TX_OOB_WRAP, &o), TX_OK);
    /* -32768 mod 4 = 0, 32767 mod 4 = 3, -1 -> 3, 4 -> 0, 2 */
    tu_assert_values(o, TU_VALS(0, 1, 2, 9, 10, 11, 9, 10, 11, 0, 1, 2, 6, 7, 8));
    tx_tensor_free(o);
    /* The index position in an error is the int16 tensor's. */
    tx_tensor *bad = tu_tensor(TX_INT16, 2, TU_DIMS(2, 2), TU_VALS(0, 1, 2, -7));
    tu_assert_error(tx_gather(p, bad, 0, 0, &o), TX_INVALID_ARGUMENT, "indices[1,1] = -7 is not in [0, 4)");
    /* params.shape[axis] may be 32767 (the largest int16), not 32768. */
    tx_tensor *big = tu_tensor(TX_INT8, 2, TU_DIMS(2, 32768), NULL);
    tx_tensor *last = tu_tensor(TX_INT16, 1, TU_DIMS(1), TU_VALS(32767));
    tu_assert_error(tx_gather(big, last, 1, 0, &o), TX_INVALID_ARGUMENT,
                    "gather: params.shape[1] = 32768 is too large for int16 indexing (above 32767)");
    assert_null(o);
    /* Other dims are not bounded by the index type. */
    tx_tensor *fits = tu_tensor(TX_INT8, 1, TU_DIMS(32767), NULL);
    ((int8_t *)tx_tensor_data(fits))[32766] = 42;
    tx_tensor *row = tu_tensor(TX_INT16, 0, NULL, TU_VALS(1));
    assert_int_equal(tx_gather(big, row, 0, 0, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 1, TU_DIMS(32768));
    tx_tensor_free(o);
    tx_tensor *top = tu_tensor(TX_INT16, 1, TU_DIMS(1), TU_VALS(32766));
    assert_int_equal(tx_gather(fits, top, 0, 0, &o), TX_OK);
    tu_assert_values(o, TU_VALS(42));
    tx_tensor_free(o);
    tu_assert_error(tx_gather(fits, last, 0, 0, &o), TX_INVALID_ARGUMENT, "indices[0] = 32767 is not in [0, 32767)");
    tx_tensor *tt[] = {p, ix, ix1, bx, ex, bad, big, last, fits, row, top};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* Random shapes, axes, batch_dims, slice widths and in- and out-of-range values: int16 indices
 * give the bytes int32 and int64 indices give, under every policy (the int32/int64 loops are
 * checked against written-out results above), and the same errors. */
static void test_int16_indices_match_wider(void **state) {
    (void)state;
    /* Element widths 1, 2, 4, 8; the inner dims make slices of 1 to 128 bytes. */
    static const tx_dtype pdt[] = {TX_INT8, TX_INT16, TX_FLOAT32, TX_FLOAT64, TX_UINT8};
    int filled = 0, refused = 0; /* non-empty results and errors seen, so both paths ran */
    for (int trial = 0; trial < 300; trial++) {
        size_t pr = 1 + rnd() % 3, ir = rnd() % 3;
        int64_t pd[3], id[3];
        for (size_t d = 0; d < pr; d++) pd[d] = (int64_t)(1 + rnd() % 4);
        for (size_t d = 0; d < ir; d++) id[d] = (int64_t)(rnd() % 4);
        int64_t bd = 0, axis = (int64_t)(rnd() % pr);
        if (ir > 0 && pr > 1 && rnd() % 3 == 0) {
            bd = 1;
            id[0] = pd[0];
            if (axis == 0) axis = 1;
        }
        int64_t n = 1;
        for (size_t d = 0; d < ir; d++) n *= id[d];
        int64_t v[64];
        for (int64_t i = 0; i < n; i++)
            v[i] = rnd() % 4 ? (int64_t)(rnd() % (uint64_t)pd[axis])
                             : (int64_t)(rnd() % 65536) - 32768;
        tx_tensor *p = iota(pdt[trial % 5], pr, pd);
        tx_tensor *i16 = index_tensor(TX_INT16, ir, id, v);
        tx_tensor *i32 = index_tensor(TX_INT32, ir, id, v);
        tx_tensor *i64 = index_tensor(TX_INT64, ir, id, v);
        for (int pol = TX_OOB_ERROR; pol <= TX_OOB_WRAP; pol++) {
            tx_tensor *a = NULL, *b = NULL, *c = NULL;
            tx_status sa = tx_gather_oob(p, i16, axis, bd, (tx_oob_policy)pol, &a);
            char msg[512];
            snprintf(msg, sizeof msg, "%s", tx_last_error());
            tx_status sb = tx_gather_oob(p, i32, axis, bd, (tx_oob_policy)pol, &b);
            tx_status sc = tx_gather_oob(p, i64, axis, bd, (tx_oob_policy)pol, &c);
            assert_int_equal(sa, sb);
            assert_int_equal(sa, sc);
            if (sa == TX_OK) {
                assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
                assert_memory_equal(tx_tensor_data(a), tx_tensor_data(b), tx_tensor_nbytes(a));
                assert_memory_equal(tx_tensor_data(a), tx_tensor_data(c), tx_tensor_nbytes(a));
                filled += tx_tensor_nbytes(a) > 0;
            } else {
                assert_string_equal(msg, tx_last_error());
                refused++;
            }
            tx_tensor_free(a);
            tx_tensor_free(b);
            tx_tensor_free(c);
        }
        /* gather_nd: indices [n', K] over the same params. */
        int64_t k = (int64_t)(rnd() % (pr + 1)), rows = (int64_t)(rnd() % 4);
        int64_t ndims[2] = {rows, k}, nv[16];
        for (int64_t r = 0; r < rows; r++)
            for (int64_t j = 0; j < k; j++)
                nv[r * k + j] = rnd() % 4 ? (int64_t)(rnd() % (uint64_t)pd[j])
                                          : (int64_t)(rnd() % 65536) - 32768;
        tx_tensor *n16 = index_tensor(TX_INT16, 2, ndims, nv);
        tx_tensor *n32 = index_tensor(TX_INT32, 2, ndims, nv);
        tx_tensor *n64 = index_tensor(TX_INT64, 2, ndims, nv);
        for (int pol = TX_OOB_ERROR; pol <= TX_OOB_WRAP; pol++) {
            tx_tensor *a = NULL, *b = NULL, *c = NULL;
            tx_status sa = tx_gather_nd_oob(p, n16, (tx_oob_policy)pol, &a);
            char msg[512];
            snprintf(msg, sizeof msg, "%s", tx_last_error());
            tx_status sb = tx_gather_nd_oob(p, n32, (tx_oob_policy)pol, &b);
            tx_status sc = tx_gather_nd_oob(p, n64, (tx_oob_policy)pol, &c);
            assert_int_equal(sa, sb);
            assert_int_equal(sa, sc);
            if (sa == TX_OK) {
                assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
                assert_memory_equal(tx_tensor_data(a), tx_tensor_data(b), tx_tensor_nbytes(a));
                assert_memory_equal(tx_tensor_data(a), tx_tensor_data(c), tx_tensor_nbytes(a));
                filled += tx_tensor_nbytes(a) > 0;
            } else {
                assert_string_equal(msg, tx_last_error());
                refused++;
            }
            tx_tensor_free(a);
            tx_tensor_free(b);
            tx_tensor_free(c);
        }
        tx_tensor *tt[] = {p, i16, i32, i64, n16, n32, n64};
        for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
    }
    assert_true(filled > 500);
    assert_true(refused > 50);
}

static void test_int16_indices_gather_nd(void **state) {
    (void)state;
    tx_tensor *o = NULL;
    /* The page example's batched slice indexing, with int16 indices. */
    check_nd(p3(), tu_tensor(TX_INT16, 3, TU_DIMS(2, 2, 3), TU_VALS(0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0)),
             2, TU_DIMS(2, 2), STRS("b0", "b1", "d0", "c1"));
    check_nd(p2(), tu_tensor(TX_INT16, 2, TU_DIMS(2, 1), TU_VALS(1, 0)), 2, TU_DIMS(2, 2),
             STRS("c", "d", "a", "b"));
    tx_tensor *p = iota(TX_INT32, 2, TU_DIMS(3, 4));
    tx_tensor *ix = tu_tensor(TX_INT16, 2, TU_DIMS(4, 2), TU_VALS(-32768, 0, 3, 32767, 1, -1, 2, 3));
    tu_assert_error(tx_gather_nd_oob(p, ix, TX_OOB_ERROR, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: indices[0] = [-32768, 0] does not index into param shape [3,4]");
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_ZERO, &o), TX_OK);
    tu_assert_values(o, TU_VALS(0, 0, 0, 11));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_CLAMP, &o), TX_OK);
    /* [0,0] [2,3] [1,0] [2,3] */
    tu_assert_values(o, TU_VALS(0, 11, 4, 11));
    tx_tensor_free(o);
    assert_int_equal(tx_gather_nd_oob(p, ix, TX_OOB_WRAP, &o), TX_OK);
    /* -32768 mod 3 = 1, 32767 mod 4 = 3: [1,0] [0,3] [1,3] [2,3] */
    tu_assert_values(o, TU_VALS(4, 3, 7, 11));
    tx_tensor_free(o);
    /* params may hold 32767 elements with int16 indices, not 32768. */
    tx_tensor *fits = tu_tensor(TX_INT8, 2, TU_DIMS(32767, 1), NULL);
    ((int8_t *)tx_tensor_data(fits))[32766] = 5;
    tx_tensor *last = tu_tensor(TX_INT16, 2, TU_DIMS(1, 2), TU_VALS(32766, 0));
    assert_int_equal(tx_gather_nd(fits, last, &o), TX_OK);
    tu_assert_values(o, TU_VALS(5));
    tx_tensor_free(o);
    tx_tensor *big = tu_tensor(TX_INT8, 2, TU_DIMS(2, 16384), NULL);
    tx_tensor *one = tu_tensor(TX_INT16, 2, TU_DIMS(1, 1), TU_VALS(1));
    tu_assert_error(tx_gather_nd(big, one, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: params has 32768 elements, too many for int16 indexing (above 32767)");
    tu_assert_error(tx_gather_nd_oob(big, one, TX_OOB_WRAP, &o), TX_INVALID_ARGUMENT,
                    "too many for int16 indexing");
    /* An empty params does not bound the slice: the index type does (before the empty-params
     * rule, and even with no index vector). */
    tx_tensor *e = tu_tensor(TX_INT8, 2, TU_DIMS(0, 40000), NULL);
    tx_tensor *none = tu_tensor(TX_INT16, 2, TU_DIMS(0, 1), NULL);
    tu_assert_error(tx_gather_nd(e, one, &o), TX_INVALID_ARGUMENT,
                    "gather_nd: slice size 40000 is too large for int16 indexing (above 32767)");
    tu_assert_error(tx_gather_nd(e, none, &o), TX_INVALID_ARGUMENT, "slice size 40000 is too large");
    assert_null(o);
    tx_tensor *one32 = tu_tensor(TX_INT32, 2, TU_DIMS(1, 1), TU_VALS(0));
    tu_assert_error(tx_gather_nd(e, one32, &o), TX_INVALID_ARGUMENT, "requested 1 entries, but params is empty");
    tx_tensor *tt[] = {p, ix, fits, last, big, one, e, none, one32};
    for (size_t i = 0; i < sizeof tt / sizeof tt[0]; i++) tx_tensor_free(tt[i]);
}

/* Empty tensors whose other dims multiply past int64 ([2^40, 2^40, 0]): an op may form products
 * of dims only for a non-empty output (the fuzzer found one_hot doing it; gather and boolean_mask
 * did too).  UBSan builds fail on the overflow. */
static void test_empty_with_huge_dims(void **state) {
    (void)state;
    const int64_t big = INT64_C(1) << 40;
    tx_tensor *params = NULL, *idx = NULL, *y = NULL, *mask = NULL, *ind = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 3, TU_DIMS(big, big, 0), &params), TX_OK);
    assert_int_equal(tx_tensor_new(TX_INT32, 1, TU_DIMS(0), &idx), TX_OK);
    assert_int_equal(tx_gather(params, idx, 2, 0, &y), TX_OK); /* outer = big * big */
    tu_assert_shape(y, TX_FLOAT32, 3, TU_DIMS(big, big, 0));
    tx_tensor_free(y);
    assert_int_equal(tx_tensor_new(TX_BOOL, 1, TU_DIMS(0), &mask), TX_OK);
    tx_tensor *p2 = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 3, TU_DIMS(0, big, big), &p2), TX_OK);
    assert_int_equal(tx_boolean_mask(p2, mask, 0, &y), TX_OK); /* inner = big * big */
    tu_assert_shape(y, TX_FLOAT32, 3, TU_DIMS(0, big, big));
    tx_tensor_free(y);
    assert_int_equal(tx_tensor_new(TX_INT32, 3, TU_DIMS(big, big, 0), &ind), TX_OK);
    assert_int_equal(tx_one_hot(ind, 3, NULL, NULL, -1, TX_FLOAT32, &y), TX_OK); /* prefix */
    tu_assert_shape(y, TX_FLOAT32, 4, TU_DIMS(big, big, 0, 3));
    tx_tensor_free(y);
    /* dynamic_partition's slice is the product of data's dims after the partitions' ones, and
     * dynamic_stitch's of data[0]'s: both beside a 0 here. */
    tx_tensor *parts = NULL, *outs[1] = {NULL};
    assert_int_equal(tx_tensor_new(TX_INT32, 1, TU_DIMS(0), &parts), TX_OK);
    assert_int_equal(tx_dynamic_partition(p2, parts, 1, outs), TX_OK); /* slice = big * big */
    tu_assert_shape(outs[0], TX_FLOAT32, 3, TU_DIMS(0, big, big));
    tx_tensor_free(outs[0]);
    tx_tensor_free(parts);
    tx_tensor *d4 = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(1, big, big, 0), &d4), TX_OK);
    parts = tu_tensor(TX_INT32, 1, TU_DIMS(1), TU_VALS(0));
    assert_int_equal(tx_dynamic_partition(d4, parts, 1, outs), TX_OK); /* big * big before the 0 */
    tu_assert_shape(outs[0], TX_FLOAT32, 4, TU_DIMS(1, big, big, 0));
    tx_tensor_free(outs[0]);
    tx_tensor_free(parts);
    tx_tensor_free(d4);
    const tx_tensor *sidx[1] = {idx}, *sdata[1] = {p2};
    assert_int_equal(tx_dynamic_stitch(sidx, 1, sdata, 1, &y), TX_OK); /* 0 rows of big x big */
    tu_assert_shape(y, TX_FLOAT32, 3, TU_DIMS(0, big, big));
    tx_tensor_free(y);
    tx_tensor_free(params);
    tx_tensor_free(p2);
    tx_tensor_free(idx);
    tx_tensor_free(mask);
    tx_tensor_free(ind);
}

/* gather_nd on an empty params whose dims after the indexed one multiply past int64 ([1,
 * 144684735107497983, 4572, 0], found by fuzz_ops): one index vector is TF's "params is empty"
 * error, oob=zero gives the empty [1, 144684735107497983, 4572, 0] and no index vectors [0, ...].
 * Then indexed dims that multiply past int64 beside an empty one ([0, 2^40, 2^40, 4], k = 3):
 * under oob=zero every index is out of range and the result is zeros.  UBSan builds fail on the
 * overflow of the slice size or of the byte strides. */
static void test_gather_nd_empty_with_huge_dims(void **state) {
    (void)state;
    const int64_t huge = INT64_C(144684735107497983), big = INT64_C(1) << 40;
    tx_tensor *params = NULL, *none = NULL, *y = (tx_tensor *)1;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(1, huge, 4572, 0), &params), TX_OK);
    tx_tensor *idx = tu_tensor(TX_INT32, 2, TU_DIMS(1, 1), TU_VALS(0));
    tu_assert_error(
        tx_gather_nd(params, idx, &y), TX_INVALID_ARGUMENT,
        "requested 1 entries, but params is empty (shape [1,144684735107497983,4572,0])");
    assert_null(y);
    assert_int_equal(tx_gather_nd_oob(params, idx, TX_OOB_ZERO, &y), TX_OK);
    tu_assert_shape(y, TX_FLOAT32, 4, TU_DIMS(1, huge, 4572, 0));
    tx_tensor_free(y);
    assert_int_equal(tx_tensor_new(TX_INT32, 2, TU_DIMS(0, 1), &none), TX_OK);
    assert_int_equal(tx_gather_nd(params, none, &y), TX_OK);
    tu_assert_shape(y, TX_FLOAT32, 4, TU_DIMS(0, huge, 4572, 0));
    tx_tensor_free(y);
    tx_tensor_free(params);

    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(0, big, big, 4), &params), TX_OK);
    tx_tensor *idx3 = tu_tensor(TX_INT64, 2, TU_DIMS(1, 3), TU_VALS(0, 0, 0));
    assert_int_equal(tx_gather_nd_oob(params, idx3, TX_OOB_ZERO, &y), TX_OK);
    tu_assert_shape(y, TX_FLOAT32, 2, TU_DIMS(1, 4));
    tu_assert_values(y, TU_VALS(0, 0, 0, 0));
    tx_tensor_free(y);
    tu_assert_error(tx_gather_nd_oob(params, idx3, TX_OOB_CLAMP, &y), TX_INVALID_ARGUMENT,
                    "oob=clamp needs the indexed dims of params to be non-empty");
    tx_tensor_free(params);
    tx_tensor_free(idx3);
    tx_tensor_free(idx);
    tx_tensor_free(none);
}

int main(void) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_max_rank),
        cmocka_unit_test(test_alloc_failure),
        cmocka_unit_test(test_oob_alloc_failure),
        cmocka_unit_test(test_empty_with_huge_dims),
        cmocka_unit_test(test_gather_nd_empty_with_huge_dims),
        cmocka_unit_test(test_int16_indices_gather),
        cmocka_unit_test(test_int16_indices_match_wider),
        cmocka_unit_test(test_int16_indices_gather_nd),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
