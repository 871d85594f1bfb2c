/* SPDX-License-Identifier: Apache-2.0 */
/* test_packed.c -- the packed form of every sub-byte dtype (int4, uint4, int2, uint2,
 * float4_e2m1fn, float6_e2m3fn, float6_e3m2fn): tx_tensor_from_packed / tx_tensor_pack and the ops
 * pack_subbyte / unpack_subbyte against a bit-by-bit packing written from DLPack's rule (element i
 * is (D >> (i * bits)) & mask of the little-endian bit string D), on odd counts and shapes; every
 * padding bit refused; wrong sizes, other dtypes, NULLs, huge shapes; plans; allocation failure;
 * the vectorised 2- and 4-bit loops and the split over threads against the generic loops. */
#define TX_EXPERIMENTAL_API /* tx_dtype_info_of: the dtype table's value bits; tx_set_num_threads */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/packed.h"

/* The sub-byte dtypes, from the dtype table (value bits below 8). */
static size_t subbyte_dtypes(tx_dtype *out) {
    size_t n = 0;
    for (int id = 0; id < 128; id++) {
        const tx_dtype_info *d = tx_dtype_info_of((tx_dtype)id);
        if (d != NULL && d->value_bits < 8) out[n++] = (tx_dtype)id;
    }
    return n;
}

static unsigned bits_of(tx_dtype dt) { return tx_dtype_info_of(dt)->value_bits; }

/* The reference packing: bit b of element i is bit i * bits + b of the output. */
static size_t ref_pack(const uint8_t *v, int64_t n, unsigned bits, uint8_t *o) {
    size_t len = (size_t)(((uint64_t)n * bits + 7) / 8);
    memset(o, 0, len);
    for (int64_t i = 0; i < n; i++)
        for (unsigned b = 0; b < bits; b++)
            if (v[i] >> b & 1u) {
                uint64_t at = (uint64_t)i * bits + b;
                o[at / 8] |= (uint8_t)(1u << (at % 8));
            }
    return len;
}

/* n random elements of dt as tensorx holds them (canonical bytes). */
static void random_elements(tx_dtype dt, int64_t n, uint8_t *v) {
    for (int64_t i = 0; i < n; i++) v[i] = tu_canonical_byte(dt, (unsigned char)(rand() & 0xff));
}

static tx_tensor *from_data(tx_dtype dt, size_t rank, const int64_t *dims, const uint8_t *v, size_t n) {
    tx_tensor *t = NULL;
    if (tx_tensor_from_data(dt, rank, dims, v, n, &t) != TX_OK) fail_msg("from_data: %s", tx_last_error());
    return t;
}

/* Pack and unpack (API and ops) one tensor of shape dims against the reference. */
static void check_shape(tx_dtype dt, size_t rank, const int64_t *dims) {
    int64_t n = 1;
    for (size_t k = 0; k < rank; k++) n *= dims[k];
    uint8_t *v = malloc((size_t)n + 1), *want = malloc((size_t)n + 1), *got = malloc((size_t)n + 2);
    random_elements(dt, n, v);
    size_t len = ref_pack(v, n, bits_of(dt), want), written = 99;
    tx_tensor *x = from_data(dt, rank, dims, v, (size_t)n), *p = NULL, *back = NULL;
    assert_int_equal(tx_tensor_pack(x, NULL, 0, &written), TX_OK);
    assert_int_equal(written, len);
    memset(got, 0xAA, (size_t)n + 2);
    assert_int_equal(tx_tensor_pack(x, got, (size_t)n + 2, &written), TX_OK);
    assert_int_equal(written, len);
    assert_memory_equal(got, want, len);
    assert_int_equal(got[len], 0xAA); /* nothing past the packed size */
    /* The op: a 1-D uint8 of the same bytes. */
    assert_int_equal(tx_pack_subbyte(x, &p), TX_OK);
    tu_assert_shape(p, TX_UINT8, 1, TU_DIMS((int64_t)len));
    assert_memory_equal(tx_tensor_data_const(p), want, len);
    assert_int_equal(tx_unpack_subbyte(p, dt, rank, dims, &back), TX_OK);
    tu_assert_shape(back, dt, rank, dims);
    assert_memory_equal(tx_tensor_data_const(back), v, (size_t)n);
    tx_tensor_free(back);
    assert_int_equal(tx_tensor_from_packed(dt, rank, dims, want, len, &back), TX_OK);
    tu_assert_shape(back, dt, rank, dims);
    assert_memory_equal(tx_tensor_data_const(back), v, (size_t)n);
    tx_tensor_free(back);
    tx_tensor_free(p);
    tx_tensor_free(x);
    free(v), free(want), free(got);
}

static void test_round_trips(void **state) {
    (void)state;
    tx_dtype dts[16];
    size_t nd = subbyte_dtypes(dts);
    assert_int_equal(nd, 7);
    srand(7);
    for (size_t k = 0; k < nd; k++) {
        for (int64_t n = 0; n <= 17; n++) {
            check_shape(dts[k], 1, &n);
            check_shape(dts[k], 2, TU_DIMS(n, 3));
        }
        check_shape(dts[k], 0, NULL);
        check_shape(dts[k], 3, TU_DIMS(3, 5, 7));
        check_shape(dts[k], 4, TU_DIMS(2, 1, 9, 11));
        check_shape(dts[k], 2, TU_DIMS(0, 5));
    }
}

/* Every byte value unpacks to its fields (each as tensorx stores it) and packs back unchanged. */
static void test_every_byte(void **state) {
    (void)state;
    tx_dtype dts[16];
    size_t nd = subbyte_dtypes(dts);
    uint8_t all[3 * 256], again[3 * 256];
    for (size_t k = 0; k < nd; k++) {
        unsigned bits = bits_of(dts[k]);
        for (int i = 0; i < 3 * 256; i++) all[i] = (uint8_t)(i / 3 ^ i % 3 * 0x5a);
        int64_t n = 3 * 256 * 8 / bits; /* whole bytes: no padding */
        tx_tensor *t = NULL;
        assert_int_equal(tx_tensor_from_packed(dts[k], 1, &n, all, sizeof all, &t), TX_OK);
        const uint8_t *e = tx_tensor_data_const(t);
        for (int64_t i = 0; i < n; i++) {
            unsigned field = 0;
            for (unsigned b = 0; b < bits; b++) {
                uint64_t at = (uint64_t)i * bits + b;
                field |= (unsigned)(all[at / 8] >> (at % 8) & 1u) << b;
            }
            assert_int_equal(e[i], tu_canonical_byte(dts[k], (unsigned char)field));
        }
        size_t w = 0;
        assert_int_equal(tx_tensor_pack(t, again, sizeof again, &w), TX_OK);
        assert_int_equal(w, sizeof all);
        assert_memory_equal(again, all, sizeof all);
        tx_tensor_free(t);
    }
}

/* Wrapped memory may hold bits above the value: packing reads each byte as every reader does. */
static void test_pack_reads_like_readers(void **state) {
    (void)state;
    tx_dtype dts[16];
    size_t nd = subbyte_dtypes(dts);
    uint8_t raw[256], canon[256], a[256], b[256];
    for (int i = 0; i < 256; i++) raw[i] = (uint8_t)i;
    for (size_t k = 0; k < nd; k++) {
        tx_tensor *w = NULL, *c = NULL;
        assert_int_equal(tx_tensor_wrap(dts[k], 1, TU_DIMS(256), raw, 256, NULL, NULL, &w), TX_OK);
        for (int i = 0; i < 256; i++) canon[i] = tu_canonical_byte(dts[k], raw[i]);
        c = from_data(dts[k], 1, TU_DIMS(256), canon, 256);
        size_t na = 0, nb = 0;
        assert_int_equal(tx_tensor_pack(w, a, sizeof a, &na), TX_OK);
        assert_int_equal(tx_tensor_pack(c, b, sizeof b, &nb), TX_OK);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
        tx_tensor_free(w);
        tx_tensor_free(c);
    }
}

/* Each padding bit of the last byte, alone, is refused with the byte named. */
static void test_padding(void **state) {
    (void)state;
    tx_dtype dts[16];
    size_t nd = subbyte_dtypes(dts);
    uint8_t bytes[8] = {0};
    for (size_t k = 0; k < nd; k++) {
        unsigned bits = bits_of(dts[k]);
        for (int64_t n = 1; n <= 8; n++) {
            size_t len = (size_t)((n * bits + 7) / 8);
            unsigned used = (unsigned)(n * bits - (int64_t)(len - 1) * 8);
            for (unsigned b = used; b < 8; b++) {
                memset(bytes, 0, sizeof bytes);
                bytes[len - 1] = (uint8_t)(1u << b);
                tx_tensor *t = (tx_tensor *)bytes; /* must be reset to NULL */
                char frag[64];
                snprintf(frag, sizeof frag, "last byte (byte %zu, 0x%02x)", len - 1, 1u << b);
                tu_assert_error(tx_tensor_from_packed(dts[k], 1, &n, bytes, len, &t),
                                TX_INVALID_ARGUMENT, frag);
                assert_null(t);
                tx_tensor *p = from_data(TX_UINT8, 1, TU_DIMS((int64_t)len), bytes, len);
                tu_assert_error(tx_unpack_subbyte(p, dts[k], 1, &n, &t), TX_INVALID_ARGUMENT,
                                "unpack_subbyte: the bits above bit");
                tx_tensor_free(p);
            }
        }
    }
}

static void test_errors(void **state) {
    (void)state;
    const uint8_t b[4] = {0x21, 0x43, 0x65, 0x07};
    tx_tensor *t = NULL, *i8 = from_data(TX_INT8, 1, TU_DIMS(4), b, 4);
    int64_t n7 = 7;
    tu_assert_error(tx_tensor_from_packed(TX_INT4, 1, &n7, b, 3, &t), TX_INVALID_ARGUMENT,
                    "tensor_from_packed: nbytes is 3, 7 int4 elements packed at 4 bits need 4 (ceil(7 * 4 / 8))");
    tu_assert_error(tx_tensor_from_packed(TX_UINT2, 1, &n7, b, 3, &t), TX_INVALID_ARGUMENT, "need 2 (ceil(7 * 2 / 8))");
    tu_assert_error(tx_tensor_from_packed(TX_FLOAT6_E3M2FN, 1, &n7, b, 4, &t), TX_INVALID_ARGUMENT,
                    "need 6 (ceil(7 * 6 / 8))");
    tx_tensor *u = from_data(TX_UINT8, 1, TU_DIMS(4), b, 4);
    const tx_dtype others[] = {TX_INT8, TX_UINT8, TX_BOOL, TX_FLOAT8_E4M3FN, TX_FLOAT8_E8M0FNU, TX_STRING};
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
        tu_assert_error(tx_tensor_from_packed(others[k], 1, &n7, b, 4, &t), TX_INVALID_ARGUMENT,
                        "dtype must be a sub-byte dtype (value bits 2, 4 or 6), got");
        tu_assert_error(tx_unpack_subbyte(u, others[k], 1, &n7, &t), TX_INVALID_ARGUMENT,
                        "dtype must be a sub-byte dtype");
    }
    tu_assert_error(tx_tensor_from_packed((tx_dtype)200, 1, &n7, b, 4, &t), TX_INVALID_ARGUMENT, "unknown dtype 200");
    tu_assert_error(tx_tensor_from_packed(TX_INT4, 1, &n7, NULL, 4, &t), TX_INVALID_ARGUMENT, "data is NULL");
    tu_assert_error(tx_tensor_from_packed(TX_INT4, 1, &n7, b, 4, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_tensor_from_packed(TX_INT4, 1, NULL, b, 4, &t), TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_tensor_from_packed(TX_INT4, 1, TU_DIMS(-1), b, 0, &t), TX_INVALID_ARGUMENT, "");
    const int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40}, over[2] = {INT64_MAX, 4};
    tu_assert_error(tx_tensor_from_packed(TX_UINT2, 2, huge, b, 4, &t), TX_RESOURCE_EXHAUSTED, "");
    tu_assert_error(tx_tensor_from_packed(TX_UINT2, 2, over, b, 4, &t), TX_RESOURCE_EXHAUSTED, "");
    tu_assert_error(tx_tensor_from_packed(TX_UINT2, 300, huge, b, 4, &t), TX_INVALID_ARGUMENT, "rank 300");
    assert_null(t);
    /* pack */
    size_t w = 99;
    uint8_t buf[8];
    tu_assert_error(tx_tensor_pack(i8, buf, 8, &w), TX_INVALID_ARGUMENT,
                    "tensor_pack: t must be a sub-byte dtype (value bits 2, 4 or 6), got int8 (8 bits)");
    assert_int_equal(w, 0);
    tx_tensor *x = from_data(TX_INT2, 1, TU_DIMS(9), (const uint8_t[9]){0}, 9);
    tu_assert_error(tx_tensor_pack(x, buf, 2, &w), TX_INVALID_ARGUMENT, "cap is 2, the packed form needs 3");
    assert_int_equal(w, 0);
    tu_assert_error(tx_tensor_pack(x, NULL, 4, &w), TX_INVALID_ARGUMENT, "buf is NULL but cap is 4");
    tu_assert_error(tx_tensor_pack(x, buf, 8, NULL), TX_INVALID_ARGUMENT, "written is NULL");
    tu_assert_error(tx_tensor_pack(NULL, buf, 8, &w), TX_INVALID_ARGUMENT, "t is NULL");
    /* the int4 forms keep their dtype rule */
    tu_assert_error(tx_tensor_pack_int4(x, buf, 8, &w), TX_INVALID_ARGUMENT, "t must be int4 or uint4, got int2");
    tu_assert_error(tx_tensor_from_packed_int4(TX_INT2, 1, &n7, b, 2, &t), TX_INVALID_ARGUMENT,
                    "dtype must be int4 or uint4, got int2");
    /* ops */
    tu_assert_error(tx_pack_subbyte(NULL, &t), TX_INVALID_ARGUMENT, "pack_subbyte: x is NULL");
    tu_assert_error(tx_pack_subbyte(x, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_pack_subbyte(i8, &t), TX_INVALID_ARGUMENT, "pack_subbyte: x must be a sub-byte dtype");
    tu_assert_error(tx_unpack_subbyte(NULL, TX_INT4, 1, &n7, &t), TX_INVALID_ARGUMENT, "packed is NULL");
    tu_assert_error(tx_unpack_subbyte(i8, TX_INT4, 1, &n7, &t), TX_INVALID_ARGUMENT,
                    "unpack_subbyte: packed must be a 1-D uint8 tensor, got int8 of rank 1");
    tx_tensor *u2 = from_data(TX_UINT8, 2, TU_DIMS(2, 2), b, 4);
    tu_assert_error(tx_unpack_subbyte(u2, TX_INT4, 1, &n7, &t), TX_INVALID_ARGUMENT, "got uint8 of rank 2");
    tx_tensor_free(u2);
    tu_assert_error(tx_unpack_subbyte(u, TX_INT4, 2, huge, &t), TX_RESOURCE_EXHAUSTED, "unpack_subbyte");
    tu_assert_error(tx_unpack_subbyte(u, TX_INT4, 1, &n7, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_unpack_subbyte(u, TX_INT4, 1, NULL, &t), TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_unpack_subbyte(u, TX_UINT4, 1, TU_DIMS(9), &t), TX_INVALID_ARGUMENT,
                    "unpack_subbyte: nbytes is 4, 9 uint4 elements packed at 4 bits need 5 (ceil(9 * 4 / 8))");
    assert_null(t);
    tx_tensor_free(u);
    tx_tensor_free(x);
    tx_tensor_free(i8);
}

/* Plans: the outputs' dtype, shape and size, and a huge shape refused as the run refuses it. */
static void test_plan(void **state) {
    (void)state;
    tx_output_info info[2];
    int64_t dims[8];
    tx_plan plan = TX_PLAN_INIT(info, 2, dims, 8);
    tx_tensor *x = from_data(TX_FLOAT6_E2M3FN, 2, TU_DIMS(3, 3), (const uint8_t[9]){0}, 9), *y = NULL;
    assert_int_equal(TX_PLAN(&plan, tx_pack_subbyte(x, &y)), TX_OK);
    assert_null(y);
    assert_int_equal(plan.count, 1);
    assert_int_equal(info[0].dtype, TX_UINT8);
    assert_int_equal(info[0].rank, 1);
    assert_int_equal(info[0].dims[0], 7); /* ceil(9 * 6 / 8) */
    assert_int_equal(info[0].nbytes, 7);
    tx_tensor *p = from_data(TX_UINT8, 1, TU_DIMS(7), (const uint8_t[7]){0}, 7);
    assert_int_equal(TX_PLAN(&plan, tx_unpack_subbyte(p, TX_INT2, 2, TU_DIMS(4, 7), &y)), TX_OK);
    assert_null(y);
    assert_int_equal(info[0].dtype, TX_INT2);
    assert_int_equal(info[0].numel, 28);
    assert_int_equal(info[0].nbytes, 28);
    const int64_t huge[2] = {INT64_C(1) << 40, INT64_C(1) << 40};
    tu_assert_error(TX_PLAN(&plan, tx_unpack_subbyte(p, TX_INT2, 2, huge, &y)), TX_RESOURCE_EXHAUSTED,
                    "unpack_subbyte");
    assert_int_equal(plan.count, 0);
    tx_tensor_free(p);
    tx_tensor_free(x);
}

/* The loops each width takes (vectorised for 2 and 4 bits, split over the threads for large
 * ranges) give the generic loops' bytes: any byte values (wrapped memory may hold bits above the
 * value), every count up to a few groups past a vector, and counts of several grains on 1-3
 * threads, every range split (TENSORX_THREAD_POLICY=split, set in main).  Each output is written
 * over a canary, and nothing past its end may change. */
static void loops_case(tx_dtype dt, int64_t n, const uint8_t *in) {
    const size_t len = tx__packed_size(bits_of(dt), n);
    uint8_t *want = malloc(len + 1), *got = malloc(len + 1);
    uint8_t *back_want = malloc((size_t)n + 1), *back_got = malloc((size_t)n + 1);
    memset(want, 0x5c, len + 1);
    memset(got, 0x5c, len + 1);
    tx__pack_bits_generic(dt, n, in, want);
    tx__pack_bits(dt, n, in, got);
    assert_memory_equal(got, want, len + 1);
    memset(got, 0x5c, len + 1);
    tx__pack_bits_serial(dt, n, in, got);
    assert_memory_equal(got, want, len + 1);
    memset(back_want, 0xa3, (size_t)n + 1);
    memset(back_got, 0xa3, (size_t)n + 1);
    tx__unpack_bits_generic(dt, n, want, back_want);
    tx__unpack_bits(dt, n, want, back_got);
    assert_memory_equal(back_got, back_want, (size_t)n + 1);
    free(want), free(got), free(back_want), free(back_got);
}

static void test_loops_match_generic(void **state) {
    (void)state;
    tx_dtype dts[16];
    size_t nd = subbyte_dtypes(dts);
    const int64_t big = 3 * 65536 + 4 * 37 + 3; /* three grains of TX_GRAIN_BYTES and a bit */
    uint8_t *in = malloc((size_t)big);
    srand(5);
    for (int64_t i = 0; i < big; i++) in[i] = (uint8_t)(i < 256 ? i : rand());
    for (size_t k = 0; k < nd; k++) {
        for (int64_t n = 0; n <= 260; n++) loops_case(dts[k], n, in);
        for (int threads = 1; threads <= 3; threads++) {
            tx_set_num_threads(threads);
            loops_case(dts[k], big, in);
            loops_case(dts[k], 2 * 65536, in);
        }
        tx_set_num_threads(0);
    }
    free(in);
}

/* Allocation failure: resource_exhausted and nothing left allocated, at each allocation. */
static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *x = from_data(TX_UINT2, 1, TU_DIMS(5), (const uint8_t[5]){1, 2, 3, 0, 1}, 5);
    tx_tensor *p = from_data(TX_UINT8, 1, TU_DIMS(2), (const uint8_t[2]){0xe4, 0x01}, 2);
    tu_alloc_install();
    for (int which = 0; which < 3; which++) {
        for (long k = 1;; k++) {
            tx_tensor *o = NULL;
            tu_alloc_fail_at(k);
            tx_status st = which == 0 ? tx_pack_subbyte(x, &o)
                         : which == 1 ? tx_unpack_subbyte(p, TX_UINT2, 1, TU_DIMS(5), &o)
                                      : tx_tensor_from_packed(TX_INT2, 1, TU_DIMS(5), tx_tensor_data_const(p), 2, &o);
            tu_alloc_fail_at(0);
            tx_tensor *const none[3] = {NULL, NULL, NULL};
            if (tu_alloc_sweep_step(st, o, none)) break;
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(p);
    tx_tensor_free(x);
}

int main(void) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_every_byte),
        cmocka_unit_test(test_pack_reads_like_readers),
        cmocka_unit_test(test_padding),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_loops_match_generic),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
