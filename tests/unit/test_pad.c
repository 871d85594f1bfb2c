/* SPDX-License-Identifier: Apache-2.0 */
/* test_pad.c -- pad (constant, reflect, symmetric): the examples of TF's page, TF's error rules
 * (status + message), string tensors, and randomized comparisons with a naive reference loop over
 * every element width. */
#include "slicing_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- pad ------------------------------------------------------------------------------------- */

static tx_status do_pad(const tx_tensor *t, size_t r, const int64_t *pads, tx_pad_mode mode,
                        const tx_tensor *cv, tx_tensor **o) {
    tx_tensor *p = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT64, 2, TU_DIMS((int64_t)r, 2), pads, r * 16, &p), TX_OK);
    tx_status st = tx_pad(t, p, mode, cv, o);
    tx_tensor_free(p);
    return st;
}

static void test_pad_page_examples(void **state) {
    (void)state;
    /* 't' is [[1, 2, 3], [4, 5, 6]]; 'paddings' is [[1, 1,], [2, 2]]. */
    tx_tensor *t = iota(TX_INT32, 2, TU_DIMS(2, 3)), *o = NULL;
    tx_tensor *p = tu_tensor(TX_INT32, 2, TU_DIMS(2, 2), TU_VALS(1, 1, 2, 2));
    assert_int_equal(tx_pad(t, p, TX_PAD_CONSTANT, NULL, &o), TX_OK);
    tu_assert_shape(o, TX_INT32, 2, TU_DIMS(4, 7));
    tu_assert_values(o, TU_VALS(0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0, 0, 0, 0, 0));
    tx_tensor_free(o);
    assert_int_equal(tx_pad(t, p, TX_PAD_REFLECT, NULL, &o), TX_OK);
    tu_assert_values(o, TU_VALS(6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1));
    tx_tensor_free(o);
    assert_int_equal(tx_pad(t, p, TX_PAD_SYMMETRIC, NULL, &o), TX_OK);
    tu_assert_values(o, TU_VALS(2, 1, 1, 2, 3, 3, 2, 2, 1, 1, 2, 3, 3, 2, 5, 4, 4, 5, 6, 6, 5, 5, 4, 4, 5, 6, 6, 5));
    tx_tensor_free(o);
    /* constant_values (PadV2). */
    tx_tensor *cv = tu_tensor(TX_INT32, 0, NULL, TU_VALS(-7));
    assert_int_equal(tx_pad(t, p, TX_PAD_CONSTANT, cv, &o), TX_OK);
    tu_assert_values(o, TU_VALS(-7, -7, -7, -7, -7, -7, -7, -7, -7, 1, 2, 3, -7, -7, -7, -7, 4, 5, 6, -7, -7,
                                -7, -7, -7, -7, -7, -7, -7));
    tx_tensor_free(o);
    /* The mirror modes ignore constant_values, as tf.pad does. */
    assert_int_equal(tx_pad(t, p, TX_PAD_SYMMETRIC, cv, &o), TX_OK);
    tx_tensor_free(o);
    tx_tensor_free(cv);
    tx_tensor_free(p);
    tx_tensor_free(t);
}

static void test_pad_errors(void **state) {
    (void)state;
    tx_tensor *t = iota(TX_FLOAT32, 2, TU_DIMS(2, 3)), *o = NULL;
    /* REFLECT: paddings <= D-1; SYMMETRIC: paddings <= D. */
    assert_int_equal(do_pad(t, 2, V(1, 1, 2, 2), TX_PAD_REFLECT, NULL, &o), TX_OK);
    tx_tensor_free(o);
    tu_assert_error(do_pad(t, 2, V(2, 0, 0, 0), TX_PAD_REFLECT, NULL, &o), TX_INVALID_ARGUMENT,
                    "REFLECT paddings must be less than the dimension size: 2, 0 not less than 2 (dim 0)");
    assert_null(o);
    assert_int_equal(do_pad(t, 2, V(2, 2, 3, 3), TX_PAD_SYMMETRIC, NULL, &o), TX_OK);
    tu_assert_shape(o, TX_FLOAT32, 2, TU_DIMS(6, 9));
    tx_tensor_free(o);
    tu_assert_error(do_pad(t, 2, V(0, 0, 0, 4), TX_PAD_SYMMETRIC, NULL, &o), TX_INVALID_ARGUMENT,
                    "SYMMETRIC paddings must be no greater than the dimension size: 0, 4 greater than 3 (dim 1)");
    tu_assert_error(do_pad(t, 2, V(0, 0, -1, 0), TX_PAD_CONSTANT, NULL, &o), TX_INVALID_ARGUMENT,
                    "paddings must be non-negative, got -1 0 for dim 1");
    tu_assert_error(do_pad(t, 2, V(0, 0, 0, 0), (tx_pad_mode)5, NULL, &o), TX_INVALID_ARGUMENT,
                    "mode 5 is not one of CONSTANT, REFLECT, SYMMETRIC, EDGE, WRAP");
    tu_assert_error(do_pad(t, 1, V(0, 0), TX_PAD_CONSTANT, NULL, &o), TX_INVALID_ARGUMENT,
                    "the first dimension of paddings must be the rank of tensor");
    tx_tensor *p = tu_i64(4, V(0, 0, 0, 0));
    tu_assert_error(tx_pad(t, p, TX_PAD_CONSTANT, NULL, &o), TX_INVALID_ARGUMENT,
                    "paddings must be a matrix with 2 columns, got shape [4]");
    tx_tensor_free(p);
    p = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 2), TU_VALS(0, 0, 0, 0));
    /* a dtype the op does not take: unimplemented (TF 2.21 decides) */
    tu_assert_error(tx_pad(t, p, TX_PAD_CONSTANT, NULL, &o), TX_UNIMPLEMENTED, "paddings must be int32 or int64, got float32");
    tx_tensor_free(p);
    /* ... and checked before the shape and the mode, as TF's op definition is */
    p = tu_tensor(TX_INT16, 1, TU_DIMS(4), TU_VALS(0, 0, 0, 0));
    tu_assert_error(tx_pad(t, p, TX_PAD_CONSTANT, NULL, &o), TX_UNIMPLEMENTED, "paddings must be int32 or int64, got int16");
    tu_assert_error(tx_pad(t, p, (tx_pad_mode)5, NULL, &o), TX_UNIMPLEMENTED, "paddings must be int32 or int64, got int16");
    tx_tensor_free(p);
    tx_tensor *cv = tu_tensor(TX_FLOAT64, 0, NULL, TU_VALS(1));
    tu_assert_error(do_pad(t, 2, V(0, 0, 0, 1), TX_PAD_CONSTANT, cv, &o), TX_INVALID_ARGUMENT,
                    "constant_values must have the tensor's dtype float32, got float64");
    tx_tensor_free(cv);
    cv = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), TU_VALS(1));
    tu_assert_error(do_pad(t, 2, V(0, 0, 0, 1), TX_PAD_CONSTANT, cv, &o), TX_INVALID_ARGUMENT,
                    "constant_values must be a scalar, got shape [1]");
    tx_tensor_free(cv);
    tu_assert_error(do_pad(t, 2, V(0, 0, INT64_MAX, 0), TX_PAD_CONSTANT, NULL, &o), TX_INVALID_ARGUMENT,
                    "output dim 1");
    tu_assert_error(do_pad(t, 2, V(1LL << 40, 0, 1LL << 40, 0), TX_PAD_CONSTANT, NULL, &o), TX_INVALID_ARGUMENT,
                    "element count overflows int64");
    tx_set_max_tensor_bytes(1u << 30); /* so the sanitizers never see the huge request */
    tu_assert_error(do_pad(t, 2, V(1LL << 30, 0, 1LL << 30, 0), TX_PAD_CONSTANT, NULL, &o), TX_RESOURCE_EXHAUSTED,
                    "exceed");
    tx_set_max_tensor_bytes(0);
    tu_assert_error(tx_pad(t, NULL, TX_PAD_CONSTANT, NULL, &o), TX_INVALID_ARGUMENT, "paddings is NULL");
    tx_tensor_free(t);
    /* REFLECT of a zero-size dim is refused even without padding (TF: 0 is not less than 0). */
    t = tu_tensor(TX_INT8, 2, TU_DIMS(0, 2), NULL);
    tu_assert_error(do_pad(t, 2, V(0, 0, 1, 1), TX_PAD_REFLECT, NULL, &o), TX_INVALID_ARGUMENT,
                    "0, 0 not less than 0");
    assert_int_equal(do_pad(t, 2, V(0, 0, 1, 1), TX_PAD_SYMMETRIC, NULL, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 2, TU_DIMS(0, 4));
    tx_tensor_free(o);
    /* CONSTANT grows an empty tensor into a filled one. */
    cv = tu_tensor(TX_INT8, 0, NULL, TU_VALS(9));
    assert_int_equal(do_pad(t, 2, V(1, 1, 0, 0), TX_PAD_CONSTANT, cv, &o), TX_OK);
    tu_assert_shape(o, TX_INT8, 2, TU_DIMS(2, 2));
    tu_assert_values(o, TU_VALS(9, 9, 9, 9));
    tx_tensor_free(o);
    tx_tensor_free(cv);
    tx_tensor_free(t);
    /* A scalar takes a [0, 2] paddings and is copied. */
    t = tu_tensor(TX_UINT64, 0, NULL, TU_VALS(5));
    p = tu_tensor(TX_INT32, 2, TU_DIMS(0, 2), NULL);
    assert_int_equal(tx_pad(t, p, TX_PAD_REFLECT, NULL, &o), TX_OK);
    tu_assert_shape(o, TX_UINT64, 0, NULL);
    tu_assert_values(o, TU_VALS(5));
    tx_tensor_free(o);
    tx_tensor_free(p);
    tx_tensor_free(t);
}

static void test_pad_strings(void **state) {
    (void)state;
    tx_tensor *t = string_iota(1, TU_DIMS(3)), *o = NULL;
    const char *one = "pad";
    size_t len = 3;
    tx_tensor *cv = NULL;
    assert_int_equal(tx_tensor_new_strings(0, NULL, &one, &len, &cv), TX_OK);
    assert_int_equal(do_pad(t, 1, V(1, 2), TX_PAD_CONSTANT, cv, &o), TX_OK);
    tx_tensor_free(cv); /* the output keeps the constant's bytes alive too */
    assert_strings(o, (const char *[]){"pad", "s0", "s1", "s2", "pad", "pad"});
    tx_tensor_free(o);
    assert_int_equal(do_pad(t, 1, V(1, 1), TX_PAD_CONSTANT, NULL, &o), TX_OK);
    assert_strings(o, (const char *[]){"", "s0", "s1", "s2", ""});
    tx_tensor_free(o);
    assert_int_equal(do_pad(t, 1, V(2, 1), TX_PAD_REFLECT, NULL, &o), TX_OK);
    tx_tensor_free(t);
    assert_strings(o, (const char *[]){"s2", "s1", "s0", "s1", "s2", "s1"});
    tx_tensor_free(o);
}

/* Naive reference: each output element's source index per dim, or the fill. */
static void check_pad_ref(const tx_tensor *in, const int64_t *pads, tx_pad_mode mode, const tx_tensor *cv) {
    size_t r = tx_tensor_rank(in);
    const int64_t *d = tx_tensor_dims(in);
    tx_tensor *o = NULL;
    tx_status st = do_pad(in, r, pads, mode, cv, &o);
    if (st != TX_OK) fail_msg("pad failed: %s", tx_last_error());
    int64_t od[8];
    for (size_t i = 0; i < r; i++) {
        od[i] = d[i] + pads[2 * i] + pads[2 * i + 1];
        assert_int_equal(tx_tensor_dims(o)[i], od[i]);
    }
    for (int64_t k = 0; k < tx_tensor_numel(o); k++) {
        int64_t rem = k, src = 0, mul = 1;
        int fill = 0;
        for (size_t i = r; i-- > 0;) {
            int64_t x = rem % od[i] - pads[2 * i];
            rem /= od[i];
            if (x < 0 || x >= d[i]) {
                if (mode == TX_PAD_CONSTANT) fill = 1;
                else if (mode == TX_PAD_EDGE) x = x < 0 ? 0 : d[i] - 1;
                else if (mode == TX_PAD_WRAP) x = ((x % d[i]) + d[i]) % d[i];
                else if (x < 0) x = mode == TX_PAD_REFLECT ? -x : -x - 1;
                else x = mode == TX_PAD_REFLECT ? 2 * d[i] - 2 - x : 2 * d[i] - 1 - x;
            }
            src += x * mul;
            mul *= d[i];
        }
        int ok;
        if (fill && cv) ok = same_elem(o, k, cv, 0);
        else if (fill) {
            tx_tensor *z = tu_tensor(tx_tensor_dtype(in), 0, NULL, NULL);
            ok = same_elem(o, k, z, 0);
            tx_tensor_free(z);
        } else {
            ok = same_elem(o, k, in, src);
        }
        if (!ok) fail_msg("pad mode %d: element %lld differs", (int)mode, (long long)k);
    }
    tx_tensor_free(o);
}

static void test_pad_random(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_BOOL, TX_INT16, TX_FLOAT32, TX_FLOAT64, TX_COMPLEX128, TX_STRING};
    /* Modes 3 and 4 are the ONNX presets EDGE and WRAP: any padding of a non-empty dim (wrap
     * past the dim's size too), none of an empty one. */
    for (int iter = 0; iter < 1000; iter++) {
        tx_pad_mode mode = (tx_pad_mode)(iter % 5);
        size_t r = (size_t)rnd(6);
        int64_t d[8], pads[16];
        for (size_t i = 0; i < r; i++) {
            d[i] = rnd(4) + (mode == TX_PAD_REFLECT || rnd(6) ? 1 : 0);
            int64_t lim = mode == TX_PAD_CONSTANT ? 3 : mode == TX_PAD_REFLECT ? d[i] - 1 : d[i];
            if (mode == TX_PAD_EDGE || mode == TX_PAD_WRAP) lim = d[i] ? 2 * d[i] + 1 : 0;
            pads[2 * i] = rnd(5) == 0 ? 0 : rnd(lim + 1);
            pads[2 * i + 1] = rnd(5) == 0 ? 0 : rnd(lim + 1);
        }
        tx_dtype dt = dts[(iter / 5) % 6];
        tx_tensor *t = pattern(dt, r, d, (unsigned)iter), *cv = NULL;
        if (mode == TX_PAD_CONSTANT && iter % 2) cv = pattern(dt, 0, NULL, (unsigned)iter + 7);
        check_pad_ref(t, pads, mode, cv);
        tx_tensor_free(cv);
        tx_tensor_free(t);
    }
    /* Outputs of 1 MiB and more are split over the threads along the outermost dim (CONSTANT,
     * REFLECT, SYMMETRIC), from 8 MiB with streaming stores: every mode at 1 and 3 threads. */
    static const struct {
        size_t r;
        int64_t d[3], pads[6];
        tx_dtype dt;
    } big[] = {
        {2, {700, 500}, {3, 5, 7, 2}, TX_FLOAT32},            /* ~1.4 MB */
        {3, {30, 300, 257}, {2, 1, 0, 0, 4, 9}, TX_FLOAT32},  /* ~9.6 MB, an unpadded middle dim */
        {2, {300, 200}, {17, 40, 1, 3}, TX_COMPLEX128},       /* ~1.2 MB, wide elements */
    };
    for (size_t c = 0; c < sizeof big / sizeof *big; c++) {
        tx_tensor *t = pattern(big[c].dt, big[c].r, big[c].d, (unsigned)c + 77);
        tx_tensor *cv = pattern(big[c].dt, 0, NULL, (unsigned)c + 78);
        for (int mode = 0; mode < 5; mode++) {
            for (int th = 1; th <= 3; th += 2) {
                tx_set_num_threads(th);
                check_pad_ref(t, big[c].pads, (tx_pad_mode)mode, mode == TX_PAD_CONSTANT && th == 3 ? cv : NULL);
            }
        }
        tx_tensor_free(cv);
        tx_tensor_free(t);
    }
    tx_set_num_threads(0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pad_page_examples),
        cmocka_unit_test(test_pad_errors),
        cmocka_unit_test(test_pad_strings),
        cmocka_unit_test(test_pad_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
