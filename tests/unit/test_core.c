/* SPDX-License-Identifier: Apache-2.0 */
/* test_core.c -- the core: dtype table and names, tensor creation and limits, wrapping caller
 * memory, views sharing buffers, string storage lifetime, errors, allocation failure. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"

static void test_dtype_table(void **state) {
    (void)state;
    /* TF's DataType numbers are pinned. */
    assert_int_equal(TX_FLOAT32, 1);
    assert_int_equal(TX_BFLOAT16, 14);
    assert_int_equal(TX_FLOAT16, 19);
    assert_int_equal(TX_UINT64, 23);
    static const struct { const char *name; tx_dtype id; size_t size; tx_dtype_kind kind; } want[] = {
        {"bool", TX_BOOL, 1, TX_KIND_BOOL},          {"int8", TX_INT8, 1, TX_KIND_SIGNED},
        {"uint8", TX_UINT8, 1, TX_KIND_UNSIGNED},    {"int16", TX_INT16, 2, TX_KIND_SIGNED},
        {"uint16", TX_UINT16, 2, TX_KIND_UNSIGNED},  {"int32", TX_INT32, 4, TX_KIND_SIGNED},
        {"uint32", TX_UINT32, 4, TX_KIND_UNSIGNED},  {"int64", TX_INT64, 8, TX_KIND_SIGNED},
        {"uint64", TX_UINT64, 8, TX_KIND_UNSIGNED},  {"float16", TX_FLOAT16, 2, TX_KIND_FLOAT},
        {"bfloat16", TX_BFLOAT16, 2, TX_KIND_FLOAT}, {"float32", TX_FLOAT32, 4, TX_KIND_FLOAT},
        {"float64", TX_FLOAT64, 8, TX_KIND_FLOAT},   {"complex64", TX_COMPLEX64, 8, TX_KIND_COMPLEX},
        {"complex128", TX_COMPLEX128, 16, TX_KIND_COMPLEX}, {"qint8", TX_QINT8, 1, TX_KIND_QUANTIZED},
        {"quint8", TX_QUINT8, 1, TX_KIND_QUANTIZED}, {"qint16", TX_QINT16, 2, TX_KIND_QUANTIZED},
        {"quint16", TX_QUINT16, 2, TX_KIND_QUANTIZED}, {"qint32", TX_QINT32, 4, TX_KIND_QUANTIZED},
        {"float8_e5m2", TX_FLOAT8_E5M2, 1, TX_KIND_FLOAT},
        {"float8_e4m3fn", TX_FLOAT8_E4M3FN, 1, TX_KIND_FLOAT},
        {"int4", TX_INT4, 1, TX_KIND_SIGNED}, {"uint4", TX_UINT4, 1, TX_KIND_UNSIGNED},
        {"float8_e4m3fnuz", TX_FLOAT8_E4M3FNUZ, 1, TX_KIND_FLOAT},
        {"float8_e4m3b11fnuz", TX_FLOAT8_E4M3B11FNUZ, 1, TX_KIND_FLOAT},
        {"float8_e5m2fnuz", TX_FLOAT8_E5M2FNUZ, 1, TX_KIND_FLOAT},
        {"int2", TX_INT2, 1, TX_KIND_SIGNED}, {"uint2", TX_UINT2, 1, TX_KIND_UNSIGNED},
        {"float4_e2m1fn", TX_FLOAT4_E2M1FN, 1, TX_KIND_FLOAT},
        {"float8_e8m0fnu", TX_FLOAT8_E8M0FNU, 1, TX_KIND_FLOAT},
        {"float6_e2m3fn", TX_FLOAT6_E2M3FN, 1, TX_KIND_FLOAT},
        {"float6_e3m2fn", TX_FLOAT6_E3M2FN, 1, TX_KIND_FLOAT},
        {"string", TX_STRING, 16, TX_KIND_STRING},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(tx_dtype_from_name(want[i].name), want[i].id);
        assert_string_equal(tx_dtype_name(want[i].id), want[i].name);
        assert_int_equal(tx_dtype_size(want[i].id), want[i].size);
        assert_int_equal(tx_dtype_kind_of(want[i].id), want[i].kind);
    }
    assert_int_equal(tx__dtype_count(), sizeof want / sizeof want[0]);
    assert_int_equal(tx_dtype_from_name("half"), TX_FLOAT16);
    assert_int_equal(tx_dtype_from_name("float"), TX_FLOAT32);
    assert_int_equal(tx_dtype_from_name("double"), TX_FLOAT64);
    assert_int_equal(tx_dtype_from_name("tf.int64"), TX_INT64);
    assert_int_equal(tx_dtype_from_name("DT_BFLOAT16"), TX_BFLOAT16);
    assert_int_equal(tx_dtype_from_name("float128"), TX_INVALID_DTYPE);
    assert_non_null(strstr(tx_last_error(), "float128"));
    assert_int_equal(tx_dtype_from_name(NULL), TX_INVALID_DTYPE);
    assert_string_equal(tx_dtype_name((tx_dtype)99), "invalid");
    assert_int_equal(tx_dtype_size((tx_dtype)20), 0);
    /* An unknown dtype has a kind of its own, which no dtype has. */
    assert_int_equal(tx_dtype_kind_of(TX_INVALID_DTYPE), TX_KIND_INVALID);
    assert_int_equal(tx_dtype_kind_of((tx_dtype)20), TX_KIND_INVALID);
    assert_int_equal(tx_dtype_kind_of((tx_dtype)-1), TX_KIND_INVALID);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) assert_int_not_equal(want[i].kind, TX_KIND_INVALID);
}

static void test_status_names(void **state) {
    (void)state;
    assert_int_equal(TX_INVALID_ARGUMENT, 3);
    assert_int_equal(TX_RESOURCE_EXHAUSTED, 8);
    assert_int_equal(TX_OUT_OF_RANGE, 11);
    assert_int_equal(TX_UNIMPLEMENTED, 12);
    assert_int_equal(TX_INTERNAL, 13);
    assert_string_equal(tx_status_name(TX_OK), "ok");
    assert_string_equal(tx_status_name(TX_OUT_OF_RANGE), "out_of_range");
    assert_string_equal(tx_status_name((tx_status)77), "unknown");
    tx_clear_error();
    assert_string_equal(tx_last_error(), "");
    char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", TX_VERSION_MAJOR, TX_VERSION_MINOR, TX_VERSION_PATCH);
    assert_string_equal(tx_version_string(), version);
    assert_int_equal(tx_version_number(), TX_VERSION_NUMBER);
}

static void test_tensor_new(void **state) {
    (void)state;
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 2, TU_DIMS(2, 3), &t), TX_OK);
    tu_assert_shape(t, TX_FLOAT32, 2, TU_DIMS(2, 3));
    assert_int_equal(tx_tensor_numel(t), 6);
    assert_int_equal(tx_tensor_nbytes(t), 24);
    assert_int_equal(tx_tensor_dim(t, 1), 3);
    assert_int_equal(tx_tensor_dim(t, 2), -1);
    tu_assert_values(t, TU_VALS(0, 0, 0, 0, 0, 0));
    assert_int_equal((uintptr_t)tx_tensor_data(t) % 64, 0);
    tx_tensor_free(t);
    /* Scalars and zero-size dims. */
    assert_int_equal(tx_tensor_new(TX_INT8, 0, NULL, &t), TX_OK);
    assert_int_equal(tx_tensor_numel(t), 1);
    tx_tensor_free(t);
    assert_int_equal(tx_tensor_new(TX_INT8, 3, TU_DIMS(4, 0, 5), &t), TX_OK);
    assert_int_equal(tx_tensor_numel(t), 0);
    assert_non_null(tx_tensor_data(t));
    tx_tensor_free(t);
    /* Rank limit: TF's 254. */
    int64_t dims[TX_MAX_RANK + 1];
    for (int i = 0; i <= TX_MAX_RANK; i++) dims[i] = 1;
    assert_int_equal(tx_tensor_new(TX_INT8, TX_MAX_RANK, dims, &t), TX_OK);
    tx_tensor_free(t);
    tu_assert_error(tx_tensor_new(TX_INT8, TX_MAX_RANK + 1, dims, &t), TX_INVALID_ARGUMENT, "rank 255");
    assert_null(t);
    tu_assert_error(tx_tensor_new(TX_INT8, 2, TU_DIMS(2, -1), &t), TX_INVALID_ARGUMENT, "negative dimension -1");
    tu_assert_error(tx_tensor_new((tx_dtype)20, 1, TU_DIMS(2), &t), TX_INVALID_ARGUMENT, "unknown dtype");
    /* Overflowing shapes are refused before allocation. */
    tu_assert_error(tx_tensor_new(TX_INT8, 3, TU_DIMS(1LL << 40, 1LL << 40, 1LL << 40), &t),
                    TX_RESOURCE_EXHAUSTED, "overflows");
    tu_assert_error(tx_tensor_new(TX_INT64, 1, TU_DIMS(1LL << 62), &t), TX_RESOURCE_EXHAUSTED, "overflow");
    /* A zero dim after an overflowing product is an empty tensor, as in TF. */
    assert_int_equal(tx_tensor_new(TX_INT8, 3, TU_DIMS(1LL << 40, 1LL << 40, 0), &t), TX_OK);
    assert_int_equal(tx_tensor_numel(t), 0);
    tx_tensor_free(t);
    tx_tensor_free(NULL);
}

static void test_byte_limit(void **state) {
    (void)state;
    tx_tensor *t = NULL;
    tx_set_max_tensor_bytes(1000);
    assert_int_equal(tx_max_tensor_bytes(), 1000);
    tu_assert_error(tx_tensor_new(TX_FLOAT32, 1, TU_DIMS(251), &t), TX_RESOURCE_EXHAUSTED, "exceeds the limit");
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 1, TU_DIMS(250), &t), TX_OK);
    tx_tensor_free(t);
    tx_set_max_tensor_bytes(0);
    assert_true(tx_max_tensor_bytes() > 1000);
    /* A limit above the default SIZE_MAX / 2 (no object is larger) acts as the default: 2^61 - 1
     * int64 elements, 2^64 - 8 bytes, are refused before any allocation (a buffer's header plus
     * that size would wrap round to a few bytes of size_t). */
    tx_set_max_tensor_bytes(SIZE_MAX);
    assert_int_equal(tx_max_tensor_bytes(), SIZE_MAX / 2);
    tu_assert_error(tx_tensor_new(TX_INT64, 1, TU_DIMS((1LL << 61) - 1), &t), TX_RESOURCE_EXHAUSTED,
                    "exceeds the limit");
    assert_null(t);
    tx_set_max_tensor_bytes(0);
    assert_int_equal(tx_max_tensor_bytes(), SIZE_MAX / 2);
}

static void test_from_data(void **state) {
    (void)state;
    int16_t v[3] = {1, -2, 3};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT16, 1, TU_DIMS(3), v, sizeof v, &t), TX_OK);
    v[0] = 9; /* a copy */
    tu_assert_values(t, TU_VALS(1, -2, 3));
    int64_t x;
    assert_int_equal(tx_tensor_get_int(t, 1, &x), TX_OK);
    assert_int_equal(x, -2);
    tu_assert_error(tx_tensor_get_int(t, 3, &x), TX_INVALID_ARGUMENT, "index 3");
    tx_tensor_free(t);
    tu_assert_error(tx_tensor_from_data(TX_INT16, 1, TU_DIMS(3), v, 5, &t), TX_INVALID_ARGUMENT, "nbytes is 5");
    assert_null(t);
    tu_assert_error(tx_tensor_from_data(TX_STRING, 1, TU_DIMS(1), v, 16, &t), TX_INVALID_ARGUMENT, "string");
    uint64_t big = UINT64_MAX;
    assert_int_equal(tx_tensor_from_data(TX_UINT64, 0, NULL, &big, 8, &t), TX_OK);
    tu_assert_error(tx_tensor_get_int(t, 0, &x), TX_OUT_OF_RANGE, "exceeds int64");
    tx_tensor_free(t);
}

static int released;
static void on_release(void *data, void *ctx) {
    assert_ptr_equal(data, ctx);
    released++;
}

static void test_wrap(void **state) {
    (void)state;
    float *mem = malloc(6 * sizeof *mem);
    for (int i = 0; i < 6; i++) mem[i] = (float)i;
    tx_tensor *t = NULL, *v = NULL;
    released = 0;
    assert_int_equal(tx_tensor_wrap(TX_FLOAT32, 2, TU_DIMS(2, 3), mem, 24, on_release, mem, &t), TX_OK);
    assert_ptr_equal(tx_tensor_data(t), mem);
    int64_t s6[1] = {6};
    tx_tensor *shape = tu_i64(1, s6);
    assert_int_equal(tx_reshape(t, shape, &v), TX_OK);
    tx_tensor_free(shape);
    tx_tensor_free(t);
    assert_int_equal(released, 0); /* the view keeps the memory */
    tu_assert_values(v, TU_VALS(0, 1, 2, 3, 4, 5));
    tx_tensor_free(v);
    assert_int_equal(released, 1);
    free(mem);
    /* A failed wrap does not call release. */
    float one;
    tu_assert_error(tx_tensor_wrap(TX_FLOAT32, 1, TU_DIMS(2), &one, 4, on_release, &one, &t), TX_INVALID_ARGUMENT, "nbytes");
    tu_assert_error(tx_tensor_wrap(TX_FLOAT32, 0, NULL, (char *)&one + 1, 4, on_release, &one, &t), TX_INVALID_ARGUMENT, "aligned");
    tu_assert_error(tx_tensor_wrap(TX_STRING, 0, NULL, &one, 16, NULL, NULL, &t), TX_UNIMPLEMENTED, "string");
    assert_int_equal(released, 1);
    /* release may be NULL. */
    assert_int_equal(tx_tensor_wrap(TX_FLOAT32, 0, NULL, &one, 4, NULL, NULL, &t), TX_OK);
    tx_tensor_free(t);
}

static void test_strings(void **state) {
    (void)state;
    const char *vals[] = {"ab", "", "c\0d"};
    size_t lens[] = {2, 0, 3};
    tx_tensor *t = NULL, *c = NULL, *r = NULL;
    assert_int_equal(tx_tensor_new_strings(1, TU_DIMS(3), vals, lens, &t), TX_OK);
    const tx_string *s = tx_tensor_string(t, 2);
    assert_int_equal(s->size, 3);
    assert_memory_equal(s->data, "c\0d", 3); /* embedded NUL kept */
    assert_int_equal(tx_tensor_string(t, 1)->size, 0);
    assert_null(tx_tensor_string(t, 3));
    assert_int_equal(tx_tensor_copy(t, &c), TX_OK);
    assert_int_equal(tx_tensor_ref(t, &r), TX_OK);
    assert_true(tx_tensor_shares_buffer(t, r));
    assert_false(tx_tensor_shares_buffer(t, c));
    tx_tensor_free(t); /* the copy and the ref keep the bytes alive (ASan checks this) */
    assert_memory_equal(tx_tensor_string(c, 0)->data, "ab", 2);
    assert_memory_equal(tx_tensor_string(r, 2)->data, "c\0d", 3);
    tx_tensor_free(r);
    assert_memory_equal(tx_tensor_string(c, 2)->data, "c\0d", 3);
    tx_tensor_free(c);
    /* New string tensors start as empty strings. */
    assert_int_equal(tx_tensor_new(TX_STRING, 1, TU_DIMS(2), &t), TX_OK);
    assert_int_equal(tx_tensor_string(t, 1)->size, 0);
    tx_tensor_free(t);
}

static void test_null_arguments(void **state) {
    (void)state;
    tx_tensor *t = NULL;
    tu_assert_error(tx_tensor_new(TX_FLOAT32, 1, NULL, &t), TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_tensor_new(TX_FLOAT32, 0, NULL, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_tensor_ref(NULL, &t), TX_INVALID_ARGUMENT, "is NULL");
    tu_assert_error(tx_tensor_copy(NULL, &t), TX_INVALID_ARGUMENT, "is NULL");
    assert_int_equal(tx_tensor_rank(NULL), 0);
    assert_null(tx_tensor_data(NULL));
    /* The string constructor's arrays and get_int's result pointer. */
    const size_t lens[2] = {2, 0};
    const char *vals[2] = {"ab", NULL};
    tu_assert_error(tx_tensor_new_strings(1, TU_DIMS(2), vals, NULL, &t), TX_INVALID_ARGUMENT,
                    "tensor_new_strings: lengths is NULL");
    tu_assert_error(tx_tensor_new_strings(1, TU_DIMS(2), NULL, lens, &t), TX_INVALID_ARGUMENT,
                    "strings is NULL, but lengths[0] is 2");
    assert_null(t);
    assert_int_equal(tx_tensor_new_strings(1, TU_DIMS(0), NULL, NULL, &t), TX_OK); /* no elements */
    tx_tensor_free(t);
    const size_t zero[2] = {0, 0};
    assert_int_equal(tx_tensor_new_strings(1, TU_DIMS(2), NULL, zero, &t), TX_OK); /* empty strings */
    assert_int_equal(tx_tensor_string(t, 1)->size, 0);
    tx_tensor_free(t);
    assert_int_equal(tx_tensor_new_strings(1, TU_DIMS(2), vals, lens, &t), TX_OK);
    tx_tensor_free(t);
    t = tu_tensor(TX_INT32, 0, NULL, TU_VALS(5));
    tu_assert_error(tx_tensor_get_int(t, 0, NULL), TX_INVALID_ARGUMENT, "tensor_get_int: value is NULL");
    tx_tensor_free(t);
}

/* Every core constructor under allocation failure: resource_exhausted, no leak, then success. */
static void test_alloc_failure(void **state) {
    (void)state;
    tu_alloc_install();
    for (int which = 0; which < 4; which++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *t = NULL, *u = NULL;
            tx_status st;
            const char *vals[] = {"ab", "cd"};
            size_t lens[] = {2, 2};
            switch (which) {
            case 0: st = tx_tensor_new(TX_INT32, 1, TU_DIMS(4), &t); break;
            case 1: st = tx_tensor_new_strings(1, TU_DIMS(2), vals, lens, &t); break;
            case 2: {
                static float mem[2];
                st = tx_tensor_wrap(TX_FLOAT32, 1, TU_DIMS(2), mem, 8, NULL, NULL, &t);
                break;
            }
            default:
                tu_alloc_fail_at(0);
                assert_int_equal(tx_tensor_new_strings(1, TU_DIMS(2), vals, lens, &u), TX_OK);
                tu_alloc_fail_at(k);
                st = tx_tensor_copy(u, &t);
                break;
            }
            tx_tensor_free(u);
            if (st == TX_OK) {
                tx_tensor_free(t);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(t);
            assert_int_equal(tu_alloc_live(), 0);
        }
    }
    tu_alloc_uninstall();
}

/* The grow-safe struct mechanism with two layouts of one struct, as a release that appends a
 * member makes them: a caller built with the old, smaller layout gets its members filled and
 * nothing past its end; an unknown size is refused naming the argument. */
typedef struct old_layout { size_t struct_size; int64_t a; } old_layout;
typedef struct new_layout { size_t struct_size; int64_t a; int64_t appended; } new_layout;

static void test_grow_safe_structs(void **state) {
    (void)state;
    const size_t known[] = {sizeof(old_layout), sizeof(new_layout)};
    const new_layout full = {sizeof full, 7, 8};
    struct { old_layout s; int64_t guard; } old = {{sizeof(old_layout), 0}, -1};
    assert_int_equal(tx__check_struct_size("op", "s->struct_size", old.s.struct_size, known, 2,
                                           "layout", "LAYOUT_INIT"), TX_OK);
    tx__fill_struct(&old.s, old.s.struct_size, &full);
    assert_int_equal(old.s.struct_size, sizeof(old_layout));
    assert_int_equal(old.s.a, 7);
    assert_int_equal(old.guard, -1); /* the caller's struct ends before the appended member */
    new_layout now = {sizeof now, 0, 0};
    assert_int_equal(tx__check_struct_size("op", "s->struct_size", now.struct_size, known, 2,
                                           "layout", "LAYOUT_INIT"), TX_OK);
    tx__fill_struct(&now, now.struct_size, &full);
    assert_int_equal(now.a, 7);
    assert_int_equal(now.appended, 8);
    tu_assert_error(tx__check_struct_size("op", "s->struct_size", 12, known, 2, "layout", "LAYOUT_INIT"),
                    TX_INVALID_ARGUMENT, "op: s->struct_size is 12, not the size of a layout this library knows");
    char want[128];
    snprintf(want, sizeof want, "(%zu, %zu); make it with LAYOUT_INIT", sizeof(old_layout), sizeof(new_layout));
    assert_non_null(strstr(tx_last_error(), want));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dtype_table),  cmocka_unit_test(test_status_names),
        cmocka_unit_test(test_tensor_new),   cmocka_unit_test(test_byte_limit),
        cmocka_unit_test(test_from_data),    cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_strings),      cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_alloc_failure), cmocka_unit_test(test_grow_safe_structs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
