/* SPDX-License-Identifier: Apache-2.0 */
/* test_dlpack.c -- DLPack import/export: every dtype DLPack can express round-trips without a copy;
 * strided, unaligned, empty and odd-bool imports copy; the deleter runs exactly once, never on
 * failure.  In a build without DLPack (TX_WITH_DLPACK) the DLPack tests give way to one that
 * checks the functions return unimplemented, naming the option, and leave the producer's tensor
 * alone.  DLPack 1.x's versioned struct and read-only flag are in test_dlpack_versioned.c. */
#include "dlpack_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if TX_HAVE_DLPACK

/* ---- round trip of every expressible dtype ---- */

static const struct {
    tx_dtype dtype;
    uint8_t code, bits;
} all_types[] = {
    {TX_BOOL, 6, 8},         {TX_INT8, kDLInt, 8},         {TX_INT16, kDLInt, 16},
    {TX_INT32, kDLInt, 32},  {TX_INT64, kDLInt, 64},       {TX_UINT8, kDLUInt, 8},
    {TX_UINT16, kDLUInt, 16}, {TX_UINT32, kDLUInt, 32},    {TX_UINT64, kDLUInt, 64},
    {TX_FLOAT16, kDLFloat, 16}, {TX_FLOAT32, kDLFloat, 32}, {TX_FLOAT64, kDLFloat, 64},
    {TX_BFLOAT16, kDLBfloat, 16}, {TX_COMPLEX64, kDLComplex, 64},
    {TX_COMPLEX128, kDLComplex, 128},
};

/* Wraps an export's deleter to count its calls. */
static int export_deletes;
static void (*export_real_deleter)(DLManagedTensor *);
static void counting_deleter(DLManagedTensor *self) {
    export_deletes++;
    export_real_deleter(self);
}

static void test_round_trip_every_dtype(void **state) {
    (void)state;
    for (size_t k = 0; k < sizeof all_types / sizeof all_types[0]; k++) {
        tx_dtype dt = all_types[k].dtype;
        const int64_t dims[3] = {2, 3, 4};
        size_t nbytes = 24 * tx_dtype_size(dt);
        unsigned char bytes[24 * 16];
        for (size_t i = 0; i < nbytes; i++) bytes[i] = (unsigned char)(dt == TX_BOOL ? i % 2 : i * 7 + k);
        tx_tensor *t = NULL;
        assert_int_equal(tx_tensor_from_data(dt, 3, dims, bytes, nbytes, &t), TX_OK);
        struct DLManagedTensor *m = NULL;
        assert_int_equal(tx_tensor_to_dlpack(t, &m), TX_OK);
        const DLTensor *dl = &m->dl_tensor;
        assert_ptr_equal(dl->data, tx_tensor_data(t));
        assert_int_equal(dl->device.device_type, kDLCPU);
        assert_int_equal(dl->ndim, 3);
        assert_int_equal(dl->dtype.code, all_types[k].code);
        assert_int_equal(dl->dtype.bits, all_types[k].bits);
        assert_int_equal(dl->dtype.lanes, 1);
        assert_int_equal(dl->byte_offset, 0);
        assert_int_equal(dl->shape[0], 2);
        assert_int_equal(dl->shape[2], 4);
        assert_non_null(dl->strides);
        assert_int_equal(dl->strides[0], 12);
        assert_int_equal(dl->strides[1], 4);
        assert_int_equal(dl->strides[2], 1);
        void *data = tx_tensor_data(t);
        tx_tensor_free(t); /* the export keeps the buffer alive */
        export_deletes = 0;
        export_real_deleter = m->deleter;
        m->deleter = counting_deleter;
        tx_tensor *back = NULL;
        assert_int_equal(tx_tensor_from_dlpack(m, &back), TX_OK);
        assert_int_equal(export_deletes, 0);
        assert_ptr_equal(tx_tensor_data(back), data); /* no copy */
        tu_assert_shape(back, dt, 3, dims);
        assert_memory_equal(tx_tensor_data(back), bytes, nbytes);
        tx_tensor *view = NULL;
        assert_int_equal(tx_tensor_ref(back, &view), TX_OK);
        tx_tensor_free(back);
        assert_int_equal(export_deletes, 0);
        tx_tensor_free(view);
        assert_int_equal(export_deletes, 1);
    }
}

static void test_export_scalar_and_empty(void **state) {
    (void)state;
    tx_tensor *s = tu_tensor(TX_FLOAT64, 0, NULL, TU_VALS(2.5));
    struct DLManagedTensor *m = NULL;
    assert_int_equal(tx_tensor_to_dlpack(s, &m), TX_OK);
    assert_int_equal(m->dl_tensor.ndim, 0);
    assert_true(*(double *)m->dl_tensor.data == 2.5);
    m->deleter(m);
    tx_tensor_free(s);
    tx_tensor *e = NULL;
    assert_int_equal(tx_tensor_new(TX_INT32, 2, TU_DIMS(0, 5), &e), TX_OK);
    assert_int_equal(tx_tensor_to_dlpack(e, &m), TX_OK);
    assert_int_equal(m->dl_tensor.shape[0], 0);
    assert_int_equal(m->dl_tensor.strides[0], 5);
    assert_int_equal(m->dl_tensor.strides[1], 1);
    tx_tensor *back = NULL;
    assert_int_equal(tx_tensor_from_dlpack(m, &back), TX_OK); /* copies; deleter already ran */
    tu_assert_shape(back, TX_INT32, 2, TU_DIMS(0, 5));
    tx_tensor_free(back);
    tx_tensor_free(e);
}

/* ---- import from a foreign producer ---- */

static void test_import_zero_copy_and_views(void **state) {
    (void)state;
    int deleted = 0;
    producer *p = make_producer(kDLInt, 16, 2, TU_DIMS(3, 4), NULL, 64, 8, &deleted);
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    assert_ptr_equal(tx_tensor_data(t), (char *)p->block + 8); /* byte_offset honoured */
    tu_assert_shape(t, TX_INT16, 2, TU_DIMS(3, 4));
    const int16_t *v = tx_tensor_data(t);
    assert_int_equal(v[0], mem16(8, 9));
    tx_tensor *shape = tu_i64(1, TU_DIMS(12)), *flat = NULL;
    assert_int_equal(tx_reshape(t, shape, &flat), TX_OK);
    assert_true(tx_tensor_shares_buffer(t, flat));
    tx_tensor_free(t);
    assert_int_equal(deleted, 0);
    tx_tensor_free(flat);
    assert_int_equal(deleted, 1);
    tx_tensor_free(shape);

    /* Row-major strides given explicitly, with odd strides on size-1 dims: still zero-copy. */
    deleted = 0;
    p = make_producer(kDLFloat, 32, 3, TU_DIMS(2, 1, 3), TU_DIMS(3, 99, 1), 24, 0, &deleted);
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    assert_ptr_equal(tx_tensor_data(t), p->block);
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);

    /* A NULL deleter is fine. */
    deleted = 0;
    p = make_producer(kDLUInt, 8, 1, TU_DIMS(4), NULL, 4, 0, &deleted);
    p->m.deleter = NULL;
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    tx_tensor_free(t);
    assert_int_equal(deleted, 0);
    free(p->block);
    free(p);
}

static void test_import_copies(void **state) {
    (void)state;
    int deleted = 0;
    /* A transposed 2x3 view of a 3x2 int32 matrix [[0,1],[2,3],[4,5]] (elements 0..5). */
    producer *p = make_producer(kDLInt, 32, 2, TU_DIMS(2, 3), TU_DIMS(1, 2), 24, 0, &deleted);
    int32_t *blk = p->block;
    for (int i = 0; i < 6; i++) blk[i] = i;
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    assert_int_equal(deleted, 1); /* copied: the producer is released at once */
    tu_assert_values(t, TU_VALS(0, 2, 4, 1, 3, 5));
    tx_tensor_free(t);

    /* Negative strides: data points at the last element, walking backwards. */
    deleted = 0;
    p = make_producer(kDLInt, 32, 1, TU_DIMS(4), TU_DIMS(-1), 16, 12, &deleted);
    blk = p->block;
    for (int i = 0; i < 4; i++) blk[i] = 10 * i;
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    tu_assert_values(t, TU_VALS(30, 20, 10, 0));
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);

    /* Zero strides broadcast one row. */
    deleted = 0;
    p = make_producer(kDLUInt, 8, 2, TU_DIMS(3, 2), TU_DIMS(0, 1), 2, 0, &deleted);
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    tu_assert_values(t, TU_VALS(0, 1, 0, 1, 0, 1));
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);

    /* Unaligned float32 data are copied. */
    deleted = 0;
    p = make_producer(kDLFloat, 32, 1, TU_DIMS(2), NULL, 16, 1, &deleted);
    uintptr_t unaligned = (uintptr_t)p->block + 1;
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    assert_int_not_equal((uintptr_t)tx_tensor_data(t), unaligned);
    assert_memory_equal(tx_tensor_data(t), "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);

    /* Zero elements with a NULL data pointer. */
    deleted = 0;
    p = make_producer(kDLFloat, 64, 2, TU_DIMS(0, 3), NULL, 0, 0, &deleted);
    p->m.dl_tensor.data = NULL;
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    tu_assert_shape(t, TX_FLOAT64, 2, TU_DIMS(0, 3));
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);

    /* The stride of a size-1 dim is never used, so any value is taken (a fuzzer found a huge one
     * refused as overflowing: fuzz/corpora/dlpack/crash-size1-dim-huge-stride).  [1, 3] with
     * strides [INT64_MAX, 2]: elements 0, 2, 4. */
    deleted = 0;
    p = make_producer(kDLInt, 16, 2, TU_DIMS(1, 3), TU_DIMS(INT64_MAX, 2), 10, 0, &deleted);
    int16_t *h = p->block;
    for (int i = 0; i < 5; i++) h[i] = (int16_t)(7 * i);
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    tu_assert_values(t, TU_VALS(0, 14, 28));
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);

    /* Bool bytes other than 0/1 become 1 in a copy. */
    deleted = 0;
    p = make_producer(6, 8, 1, TU_DIMS(4), NULL, 4, 0, &deleted);
    memcpy(p->block, (const unsigned char[]){0, 1, 2, 255}, 4);
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    assert_int_equal(deleted, 1);
    assert_memory_equal(tx_tensor_data(t), "\x00\x01\x01\x01", 4);
    tx_tensor_free(t);
}

static void test_import_errors(void **state) {
    (void)state;
    int deleted = 0;
    tx_tensor *t = (tx_tensor *)1;
    tu_assert_error(tx_tensor_from_dlpack(NULL, &t), TX_INVALID_ARGUMENT, "managed is NULL");
    assert_null(t);
    producer *p = make_producer(kDLFloat, 32, 2, TU_DIMS(2, 2), NULL, 16, 0, &deleted);
    tu_assert_error(tx_tensor_from_dlpack(&p->m, NULL), TX_INVALID_ARGUMENT, "out is NULL");

    p->m.dl_tensor.device.device_type = kDLCUDA;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_UNIMPLEMENTED, "device type 2");
    p->m.dl_tensor.device.device_type = kDLCPU;
    p->m.dl_tensor.dtype.lanes = 4;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "4 lanes");
    p->m.dl_tensor.dtype.lanes = 1;
    p->m.dl_tensor.dtype.code = kDLOpaqueHandle;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_UNIMPLEMENTED, "{code 3, bits 32}");
    p->m.dl_tensor.dtype.code = kDLFloat;
    p->m.dl_tensor.dtype.bits = 8;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_UNIMPLEMENTED, "{code 2, bits 8}");
    p->m.dl_tensor.dtype.bits = 32;
    p->m.dl_tensor.ndim = -1;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "ndim -1");
    p->m.dl_tensor.ndim = TX_MAX_RANK + 1;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "ndim 255");
    p->m.dl_tensor.ndim = 2;
    p->m.dl_tensor.shape = NULL;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "shape is NULL");
    p->m.dl_tensor.shape = p->shape;
    p->shape[1] = -2;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "negative dimension -2");
    p->shape[0] = p->shape[1] = (int64_t)1 << 40;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_RESOURCE_EXHAUSTED, "overflows int64");
    p->shape[0] = p->shape[1] = 2;
    p->m.dl_tensor.data = NULL;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "data is NULL");
    p->m.dl_tensor.data = p->block;
    p->m.dl_tensor.strides = p->strides;
    p->strides[0] = INT64_MAX / 2;
    p->strides[1] = 1;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "overflows a byte offset");
    assert_null(t);
    assert_int_equal(deleted, 0); /* never called on failure: the caller still owns it */
    p->m.deleter(&p->m);
    assert_int_equal(deleted, 1);

    /* Export refuses dtypes DLPack cannot express. */
    struct DLManagedTensor *m = (struct DLManagedTensor *)1;
    const char *strs[1] = {"a"};
    tx_tensor *s = tu_strings(1, TU_DIMS(1), strs);
    tu_assert_error(tx_tensor_to_dlpack(s, &m), TX_UNIMPLEMENTED, "string has no DLPack dtype");
    assert_null(m);
    tx_tensor_free(s);
    tx_tensor *q = NULL;
    assert_int_equal(tx_tensor_new(TX_QINT8, 1, TU_DIMS(2), &q), TX_OK);
    tu_assert_error(tx_tensor_to_dlpack(q, &m), TX_UNIMPLEMENTED, "qint8 has no DLPack dtype");
    tx_tensor_free(q);
    tu_assert_error(tx_tensor_to_dlpack(NULL, &m), TX_INVALID_ARGUMENT, "t is NULL");
    tu_assert_error(tx_tensor_to_dlpack(NULL, NULL), TX_INVALID_ARGUMENT, "out is NULL");
}

/* A strided layout whose byte offsets fit int64 but whose extent (the span plus the last element)
 * does not cannot describe memory, and is refused before any copy: [28, 2] uint8 with element
 * strides [0, -(2^63 - 1)] (found by fuzz_dlpack; the copy planner then multiplied 2 * -(2^63 - 1)
 * when it looked for dims to merge), and [2] with stride 2^63 - 1.  The deleter is not called.
 * Without the check, UBSan builds fail on the planner's overflow. */
static void test_import_extent_past_int64(void **state) {
    (void)state;
    int deleted = 0;
    tx_tensor *t = (tx_tensor *)1;
    producer *p =
        make_producer(kDLUInt, 8, 2, TU_DIMS(28, 2), TU_DIMS(0, -INT64_MAX), 1, 0, &deleted);
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT,
                    "past int64 byte offsets");
    assert_null(t);
    assert_int_equal(deleted, 0);
    p->m.dl_tensor.ndim = 1;
    p->shape[0] = 2;
    p->strides[0] = INT64_MAX;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT,
                    "past int64 byte offsets");
    assert_int_equal(deleted, 0);
    p->m.deleter(&p->m);
    assert_int_equal(deleted, 1);
}

/* A layout refused for its strides is refused before the first element's address, data +
 * byte_offset, is formed: such a producer's byte_offset may point anywhere (here 2^63 bytes past a
 * 1-byte block, from a stride of INT64_MIN, as fuzz_dlpack lays it out).  UBSan builds fail on the
 * pointer overflow otherwise. */
static void test_import_refused_before_offset(void **state) {
    (void)state;
    int deleted = 0;
    tx_tensor *t = (tx_tensor *)1;
    producer *p = make_producer(kDLUInt, 8, 1, TU_DIMS(2), TU_DIMS(INT64_MIN), 1, 0, &deleted);
    p->m.dl_tensor.byte_offset = UINT64_C(1) << 63;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT,
                    "strides[0] = -9223372036854775808 overflows a byte offset");
    assert_null(t);
    assert_int_equal(deleted, 0);
    p->m.deleter(&p->m);
    assert_int_equal(deleted, 1);
}

static void test_dlpack_alloc_failure(void **state) {
    (void)state;
    tx_tensor *src = tu_tensor(TX_INT32, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6));
    tu_alloc_install();
    for (int mode = 0; mode < 3; mode++) {
        for (long k = 1;; k++) {
            int deleted = 0;
            producer *p = mode == 0 ? make_producer(kDLInt, 32, 2, TU_DIMS(2, 3), NULL, 24, 0, &deleted)
                        : mode == 1 ? make_producer(kDLInt, 32, 2, TU_DIMS(2, 3), TU_DIMS(1, 2), 24, 0, &deleted)
                                    : NULL;
            tu_alloc_fail_at(k);
            tx_tensor *t = NULL;
            struct DLManagedTensor *m = NULL;
            tx_status st = mode < 2 ? tx_tensor_from_dlpack(&p->m, &t) : tx_tensor_to_dlpack(src, &m);
            tu_alloc_fail_at(0);
            if (st == TX_OK) {
                tx_tensor_free(t);
                if (m) m->deleter(m);
                if (p) assert_int_equal(deleted, 1);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(t);
            assert_null(m);
            assert_int_equal(tu_alloc_live(), 0);
            if (p) {
                assert_int_equal(deleted, 0);
                p->m.deleter(&p->m);
            }
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(src);
}

#else /* a build without DLPack */

static void test_dlpack_not_built(void **state) {
    (void)state;
    /* Any pointer will do: the library must not read it (no header says what it points to). */
    int producer = 7;
    struct DLManagedTensor *managed = (struct DLManagedTensor *)(void *)&producer;
    tx_tensor *t = (tx_tensor *)1;
    tu_assert_error(tx_tensor_from_dlpack(managed, &t), TX_UNIMPLEMENTED,
                    "from_dlpack: tensorx was built without DLPack (CMake option TX_WITH_DLPACK)");
    assert_null(t);
    assert_int_equal(producer, 7);
    tx_tensor *x = tu_tensor(TX_FLOAT32, 1, TU_DIMS(2), TU_VALS(1, 2));
    struct DLManagedTensor *m = (struct DLManagedTensor *)1;
    tu_assert_error(tx_tensor_to_dlpack(x, &m), TX_UNIMPLEMENTED,
                    "to_dlpack: tensorx was built without DLPack (CMake option TX_WITH_DLPACK)");
    assert_null(m);
    tu_assert_error(tx_tensor_to_dlpack(x, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    struct DLManagedTensorVersioned *vmanaged = (struct DLManagedTensorVersioned *)(void *)&producer;
    tu_assert_error(tx_tensor_from_dlpack_versioned(vmanaged, &t), TX_UNIMPLEMENTED,
                    "from_dlpack_versioned: tensorx was built without DLPack (CMake option "
                    "TX_WITH_DLPACK)");
    assert_null(t);
    assert_int_equal(producer, 7);
    struct DLManagedTensorVersioned *v = (struct DLManagedTensorVersioned *)1;
    tu_assert_error(tx_tensor_to_dlpack_versioned(x, &v), TX_UNIMPLEMENTED,
                    "to_dlpack_versioned: tensorx was built without DLPack (CMake option "
                    "TX_WITH_DLPACK)");
    assert_null(v);
    tx_tensor_free(x);
}

#endif /* TX_HAVE_DLPACK */

int main(void) {
    const struct CMUnitTest tests[] = {
#if TX_HAVE_DLPACK
        cmocka_unit_test(test_round_trip_every_dtype),
        cmocka_unit_test(test_export_scalar_and_empty),
        cmocka_unit_test(test_import_zero_copy_and_views),
        cmocka_unit_test(test_import_copies),
        cmocka_unit_test(test_import_errors),
        cmocka_unit_test(test_import_extent_past_int64),
        cmocka_unit_test(test_import_refused_before_offset),
        cmocka_unit_test(test_dlpack_alloc_failure),
#else
        cmocka_unit_test(test_dlpack_not_built),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
