/* SPDX-License-Identifier: Apache-2.0 */
/* test_cast_pack.c -- cast_pack (src/ops/pack_subbyte.c) against its definition, pack_subbyte of
 * cast, byte for byte: every sub-byte target from every dtype tx_cast reads, counts around the
 * packing group, the op's tile and its grain, the float specials (NaN, inf, saturation, ties,
 * subnormals), random bytes, several threads with every range split; its errors, its plan and
 * allocation failure. */
#define TX_EXPERIMENTAL_API /* tx_dtype_info_of, tx_set_num_threads */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The dtypes with value bits below 8, and every other non-string dtype as a source. */
static size_t dtypes_where(bool subbyte, tx_dtype *out) {
    size_t n = 0;
    for (int id = 0; id < 128; id++) {
        const tx_dtype_info *d = tx_dtype_info_of((tx_dtype)id);
        if (d != NULL && d->id != TX_STRING && (d->value_bits < 8) == subbyte) out[n++] = d->id;
    }
    return n;
}

/* Values that meet every float rule of the casts: NaNs of both signs, infinities, zeros, the
 * largest float4 / float6 values and beyond them, ties between codes, subnormals, integers out of
 * the small types' ranges. */
static const double SPECIALS[] = {
    NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 6.0, -6.0, 7.0, -7.0, 5.0, -5.0, 0.25, -0.25,
    0.75, 1.25, 2.5, 3.5, 1e30, -1e30, 1e-30, -1e-30, 1e-45, 7.5, 7.75, 28.0, 32.0, -32.0,
    0.0625, 0.03125, 9.0, -9.0, 300.0, -129.0, 1.5, -1.5, 65504.0, 1e10, -1e10, 0.5,
};
#define NSPECIALS (sizeof SPECIALS / sizeof SPECIALS[0])

/* n elements of `from`: the specials first (converted by tx_cast from float64, so each dtype holds
 * its own nearest), then random bytes, or for a float32 source random values near the codes. */
static tx_tensor *input(tx_dtype from, int64_t n) {
    tx_tensor *x = NULL;
    assert_int_equal(tx_tensor_new(from, 1, &n, &x), TX_OK);
    unsigned char *b = tx_tensor_data(x);
    const size_t size = tx_dtype_size(from);
    for (size_t i = 0; i < (size_t)n * size; i++) b[i] = (unsigned char)rand();
    if (from == TX_FLOAT32)
        for (int64_t i = 0; i < n; i++) ((float *)b)[i] = (float)(rand() % 4001 - 2000) / 256.0f;
    const int64_t k = n < (int64_t)NSPECIALS ? n : (int64_t)NSPECIALS;
    if (k > 0 && tx_dtype_kind_of(from) != TX_KIND_QUANTIZED) {
        tx_tensor *s = tu_tensor(TX_FLOAT64, 1, &k, SPECIALS), *c = NULL;
        assert_int_equal(tx_cast(s, from, &c), TX_OK);
        memcpy(b, tx_tensor_data_const(c), (size_t)k * size);
        tx_tensor_free(c);
        tx_tensor_free(s);
    }
    return x;
}

/* cast_pack(x, to) is pack_subbyte(cast(x, to)), shape and bytes. */
static void check(const tx_tensor *x, tx_dtype to) {
    tx_tensor *c = NULL, *want = NULL, *got = NULL;
    assert_int_equal(tx_cast(x, to, &c), TX_OK);
    assert_int_equal(tx_pack_subbyte(c, &want), TX_OK);
    if (tx_cast_pack(x, to, &got) != TX_OK)
        fail_msg("cast_pack %s -> %s: %s", tx_dtype_name(tx_tensor_dtype(x)), tx_dtype_name(to),
                 tx_last_error());
    const size_t n = tx_tensor_nbytes(want);
    tu_assert_shape(got, TX_UINT8, 1, TU_DIMS((int64_t)n));
    if (n && memcmp(tx_tensor_data_const(got), tx_tensor_data_const(want), n) != 0) {
        const unsigned char *g = tx_tensor_data_const(got), *w = tx_tensor_data_const(want);
        size_t i = 0;
        while (g[i] == w[i]) i++;
        fail_msg("cast_pack %s -> %s of %lld: byte %zu is 0x%02x, cast + pack_subbyte 0x%02x",
                 tx_dtype_name(tx_tensor_dtype(x)), tx_dtype_name(to),
                 (long long)tx_tensor_numel(x), i, g[i], w[i]);
    }
    tx_tensor_free(got);
    tx_tensor_free(want);
    tx_tensor_free(c);
}

/* Counts around the group of 4, the tile (TX_CAST_PACK_TILE, 4096) and a float32 grain (16384). */
static const int64_t COUNTS[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 17, 40, 41, 4095, 4096, 4097, 4099,
                                 8193, 16383, 16384, 16385, 32768 + 4097, 3 * 16384 + 4103};

/* Every target from float32 at every count. */
static void test_float32_counts(void **state) {
    (void)state;
    tx_dtype to[16];
    size_t nt = dtypes_where(true, to);
    assert_int_equal(nt, 7);
    srand(11);
    for (size_t c = 0; c < sizeof COUNTS / sizeof COUNTS[0]; c++) {
        tx_tensor *x = input(TX_FLOAT32, COUNTS[c]);
        for (size_t t = 0; t < nt; t++) check(x, to[t]);
        tx_tensor_free(x);
    }
}

/* Every target from every source dtype (sub-byte ones included), at counts that cross a tile. */
static void test_every_source(void **state) {
    (void)state;
    tx_dtype to[16], from[64], sub[16];
    size_t nt = dtypes_where(true, to), nf = dtypes_where(false, from);
    size_t ns = dtypes_where(true, sub);
    memcpy(from + nf, sub, ns * sizeof *sub);
    nf += ns;
    srand(12);
    const int64_t counts[] = {0, 1, 5, 43, 4096 + 3};
    for (size_t f = 0; f < nf; f++)
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            tx_tensor *x = input(from[f], counts[c]);
            for (size_t t = 0; t < nt; t++) check(x, to[t]);
            tx_tensor_free(x);
        }
}

/* The shape is not kept: a scalar and an n-d input pack as their flat elements. */
static void test_shapes(void **state) {
    (void)state;
    tx_tensor *s = tu_tensor(TX_FLOAT32, 0, NULL, TU_VALS(-3.0)), *o = NULL;
    assert_int_equal(tx_cast_pack(s, TX_FLOAT4_E2M1FN, &o), TX_OK);
    tu_assert_shape(o, TX_UINT8, 1, TU_DIMS(1));
    assert_int_equal(((const uint8_t *)tx_tensor_data_const(o))[0], 0x0d); /* -3: sign | code 5 */
    tx_tensor_free(o);
    tx_tensor *m = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 3), TU_VALS(0.25, -3.5, 7, 1, 6, -0.5));
    assert_int_equal(tx_cast_pack(m, TX_FLOAT4_E2M1FN, &o), TX_OK);
    tu_assert_shape(o, TX_UINT8, 1, TU_DIMS(3));
    /* codes 0 (0.25 ties to 0), 0xe (-4), 7 (6, saturated), 2 (1), 7 (6), 9 (-0.5) */
    assert_memory_equal(tx_tensor_data_const(o), ((const uint8_t[]){0xe0, 0x27, 0x97}), 3);
    tx_tensor_free(o);
    tx_tensor *e = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT64, 3, TU_DIMS(4, 0, 2), &e), TX_OK);
    assert_int_equal(tx_cast_pack(e, TX_INT2, &o), TX_OK);
    tu_assert_shape(o, TX_UINT8, 1, TU_DIMS(0));
    tx_tensor_free(o);
    tx_tensor_free(e);
    tx_tensor_free(m);
    tx_tensor_free(s);
}

/* Several threads, every range of two grains or more split (TENSORX_THREAD_POLICY=split, set in
 * main): the bytes of one thread. */
static void test_threads(void **state) {
    (void)state;
    tx_dtype to[16];
    size_t nt = dtypes_where(true, to);
    srand(13);
    const tx_dtype from[] = {TX_FLOAT32, TX_FLOAT64, TX_COMPLEX128, TX_UINT8, TX_BFLOAT16};
    for (size_t f = 0; f < sizeof from / sizeof from[0]; f++) {
        tx_tensor *x = input(from[f], 5 * 16384 + 4101);
        for (size_t t = 0; t < nt; t++) {
            tx_set_num_threads(1);
            tx_tensor *one = NULL;
            assert_int_equal(tx_cast_pack(x, to[t], &one), TX_OK);
            for (int th = 2; th <= 4; th++) {
                tx_set_num_threads(th);
                tx_tensor *many = NULL;
                assert_int_equal(tx_cast_pack(x, to[t], &many), TX_OK);
                assert_memory_equal(tx_tensor_data_const(many), tx_tensor_data_const(one),
                                    tx_tensor_nbytes(one));
                tx_tensor_free(many);
                check(x, to[t]); /* cast and pack_subbyte split too */
            }
            tx_tensor_free(one);
        }
        tx_tensor_free(x);
    }
    tx_set_num_threads(0);
}

static void test_errors(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(3), TU_VALS(1, 2, 3)), *o = NULL;
    tu_assert_error(tx_cast_pack(NULL, TX_INT4, &o), TX_INVALID_ARGUMENT, "cast_pack: x is NULL");
    tu_assert_error(tx_cast_pack(x, TX_INT4, NULL), TX_INVALID_ARGUMENT, "cast_pack: out is NULL");
    tu_assert_error(tx_cast_pack(x, (tx_dtype)200, &o), TX_INVALID_ARGUMENT,
                    "cast_pack: dtype: unknown dtype 200");
    const tx_dtype whole[] = {TX_FLOAT32, TX_INT8, TX_UINT8, TX_BOOL, TX_FLOAT8_E4M3FN, TX_STRING};
    for (size_t k = 0; k < sizeof whole / sizeof whole[0]; k++)
        tu_assert_error(tx_cast_pack(x, whole[k], &o), TX_INVALID_ARGUMENT,
                        "cast_pack: dtype must be a sub-byte dtype (value bits 2, 4 or 6), got");
    tx_tensor *s = tu_strings(1, TU_DIMS(2), (const char *const[]){"1", "2"});
    tu_assert_error(tx_cast_pack(s, TX_INT4, &o), TX_UNIMPLEMENTED,
                    "cast_pack: Cast string to int4 is not supported");
    assert_null(o);
    tx_tensor_free(s);
    tx_tensor_free(x);
}

/* The plan: a 1-D uint8 output of ceil(numel * bits / 8) bytes, nothing run. */
static void test_plan(void **state) {
    (void)state;
    tx_output_info info[2];
    int64_t dims[8];
    tx_plan plan = TX_PLAN_INIT(info, 2, dims, 8);
    tx_tensor *x = NULL, *y = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT64, 2, TU_DIMS(3, 3), &x), TX_OK);
    assert_int_equal(TX_PLAN(&plan, tx_cast_pack(x, TX_FLOAT6_E3M2FN, &y)), TX_OK);
    assert_null(y);
    assert_int_equal(plan.count, 1);
    assert_int_equal(info[0].dtype, TX_UINT8);
    assert_int_equal(info[0].rank, 1);
    assert_int_equal(info[0].dims[0], 7); /* ceil(9 * 6 / 8) */
    assert_int_equal(info[0].nbytes, 7);
    assert_int_equal(TX_PLAN(&plan, tx_cast_pack(x, TX_UINT2, &y)), TX_OK);
    assert_int_equal(info[0].dims[0], 3);
    tu_assert_error(TX_PLAN(&plan, tx_cast_pack(x, TX_INT8, &y)), TX_INVALID_ARGUMENT, "cast_pack");
    tx_tensor_free(x);
}

/* Allocation failure: resource_exhausted and nothing left allocated, at each allocation. */
static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(5), TU_VALS(1, 2, 3, 0, -1));
    tu_alloc_install();
    for (long k = 1;; k++) {
        tx_tensor *o = NULL;
        tu_alloc_fail_at(k);
        tx_status st = tx_cast_pack(x, TX_INT4, &o);
        tu_alloc_fail_at(0);
        tx_tensor *const none[3] = {NULL, NULL, NULL};
        if (tu_alloc_sweep_step(st, o, none)) break;
    }
    tu_alloc_uninstall();
    tx_tensor_free(x);
}

int main(void) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float32_counts),
        cmocka_unit_test(test_every_source),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
