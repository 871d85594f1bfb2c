/* SPDX-License-Identifier: Apache-2.0 */
/* test_dlpack.c -- the library's interop parts: DLPack import/export (every dtype DLPack
 * can express round-trips without a copy; strided, unaligned, empty and odd-bool imports copy;
 * the deleter runs exactly once, never on failure), DLPack 1.x's versioned struct and its
 * read-only flag (read-only imports, exports of read-only tensors), string tensors over caller
 * bytes, mapped file windows, and the streaming .npy header helpers (byte-identical to
 * tx_npy_save's headers).  In a build without DLPack (TX_WITH_DLPACK) the DLPack tests give way to
 * one that checks the functions return unimplemented, naming the option, and leave the producer's
 * tensor alone. */
#include "testutil.h"

#if TX_HAVE_DLPACK
#include "tensorx_dlpack.h"
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if TX_HAVE_DLPACK

/* ---- a test producer: a DLManagedTensor over a malloc'd block, counting deleter calls ---- */

typedef struct {
    DLManagedTensor m;
    int64_t shape[8], strides[8];
    void *block;
    int *deleted;
} producer;

static void producer_delete(DLManagedTensor *self) {
    producer *p = self->manager_ctx;
    (*p->deleted)++;
    free(p->block);
    free(p);
}

/* A CPU tensor of `bits`-bit elements with code `code`; data = block + offset; strides may be
 * NULL.  The block holds `block_bytes` bytes filled with 0, 1, 2, ... */
/* The int16 whose bytes in memory are first, second (the host reads them in its own order). */
static int16_t mem16(unsigned char first, unsigned char second) {
    const unsigned char b[2] = {first, second};
    int16_t v;
    memcpy(&v, b, 2);
    return v;
}

static producer *make_producer(uint8_t code, uint8_t bits, int ndim, const int64_t *shape,
                               const int64_t *strides, size_t block_bytes, size_t offset,
                               int *deleted) {
    producer *p = calloc(1, sizeof *p);
    assert_non_null(p);
    p->block = malloc(block_bytes ? block_bytes : 1);
    assert_non_null(p->block);
    for (size_t i = 0; i < block_bytes; i++) ((unsigned char *)p->block)[i] = (unsigned char)i;
    p->deleted = deleted;
    for (int d = 0; d < ndim; d++) {
        p->shape[d] = shape[d];
        if (strides) p->strides[d] = strides[d];
    }
    DLTensor *t = &p->m.dl_tensor;
    t->data = p->block;
    t->byte_offset = offset;
    t->device.device_type = kDLCPU;
    t->ndim = ndim;
    t->dtype.code = code;
    t->dtype.bits = bits;
    t->dtype.lanes = 1;
    t->shape = p->shape;
    t->strides = strides ? p->strides : NULL;
    p->m.manager_ctx = p;
    p->m.deleter = producer_delete;
    return p;
}

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

/* ---- strings over caller bytes ---- */

static int released;
static void *released_ptr;
static void count_release(void *data, void *ctx) {
    released++;
    released_ptr = data;
    assert_ptr_equal(ctx, &released);
}

static void test_wrap_strings(void **state) {
    (void)state;
    static char bytes[] = "IntelOpenVINO";
    const tx_string recs[4] = {{5, bytes}, {8, bytes + 5}, {0, NULL}, {13, bytes}};
    tx_tensor *t = NULL, *c = NULL;
    released = 0;
    assert_int_equal(tx_tensor_wrap_strings(2, TU_DIMS(2, 2), recs, bytes, 13, count_release,
                                            &released, &t), TX_OK);
    tu_assert_shape(t, TX_STRING, 2, TU_DIMS(2, 2));
    assert_ptr_equal(tx_tensor_string(t, 1)->data, bytes + 5); /* no copy */
    assert_int_equal(tx_tensor_string(t, 2)->size, 0);
    assert_non_null(tx_tensor_string(t, 2)->data);
    assert_int_equal(tx_tensor_copy(t, &c), TX_OK); /* a copy of the records shares the bytes */
    tx_tensor_free(t);
    assert_int_equal(released, 0);
    assert_memory_equal(tx_tensor_string(c, 3)->data, "IntelOpenVINO", 13);
    tx_tensor_free(c);
    assert_int_equal(released, 1);
    assert_ptr_equal(released_ptr, bytes);

    /* A scalar, and a NULL release. */
    const tx_string one = {3, bytes + 2};
    assert_int_equal(tx_tensor_wrap_strings(0, NULL, &one, bytes, 13, NULL, NULL, &t), TX_OK);
    assert_int_equal(tx_tensor_numel(t), 1);
    tx_tensor_free(t);

    /* Errors: release never runs. */
    released = 0;
    const tx_string out_of_range[2] = {{2, bytes}, {3, bytes + 11}};
    tu_assert_error(tx_tensor_wrap_strings(1, TU_DIMS(2), out_of_range, bytes, 13, count_release,
                                           &released, &t),
                    TX_INVALID_ARGUMENT, "strings[1] (3 bytes) is not inside the 13 bytes");
    assert_null(t);
    const tx_string before[1] = {{1, bytes}}; /* one byte before the range given */
    assert_int_equal(tx_tensor_wrap_strings(1, TU_DIMS(1), before, bytes + 1, 12, NULL, NULL, &t),
                     TX_INVALID_ARGUMENT);
    tu_assert_error(tx_tensor_wrap_strings(1, TU_DIMS(1), recs, NULL, 13, NULL, NULL, &t),
                    TX_INVALID_ARGUMENT, "bytes is NULL");
    tu_assert_error(tx_tensor_wrap_strings(1, TU_DIMS(1), NULL, bytes, 13, NULL, NULL, &t),
                    TX_INVALID_ARGUMENT, "strings is NULL");
    tu_assert_error(tx_tensor_wrap_strings(1, TU_DIMS(-1), recs, bytes, 13, NULL, NULL, &t),
                    TX_INVALID_ARGUMENT, "negative dimension");
    tu_assert_error(tx_tensor_wrap_strings(1, NULL, recs, bytes, 13, NULL, NULL, &t),
                    TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_tensor_wrap_strings(TX_MAX_RANK + 1, TU_DIMS(1), recs, bytes, 13, NULL,
                                           NULL, &t),
                    TX_INVALID_ARGUMENT, "exceeds the maximum");
    tu_assert_error(tx_tensor_wrap_strings(0, NULL, recs, bytes, 13, NULL, NULL, NULL),
                    TX_INVALID_ARGUMENT, "out is NULL");
    assert_int_equal(released, 0);

    /* Allocation failure: nothing leaks, release is not called. */
    tu_alloc_install();
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        tx_status st = tx_tensor_wrap_strings(2, TU_DIMS(2, 2), recs, bytes, 13, count_release,
                                              &released, &t);
        tu_alloc_fail_at(0);
        if (st == TX_OK) {
            tx_tensor_free(t);
            assert_int_equal(released, 1);
            assert_int_equal(tu_alloc_live(), 0);
            break;
        }
        assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        assert_null(t);
        assert_int_equal(released, 0);
        assert_int_equal(tu_alloc_live(), 0);
    }
    tu_alloc_uninstall();
}

/* ---- mapped file windows ---- */

static char *temp_file(const void *data, size_t n) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/tx_dlpack_test_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, n), (ssize_t)n);
    close(fd);
    return path;
}

static void test_file_map(void **state) {
    (void)state;
    unsigned char data[64];
    for (int i = 0; i < 64; i++) data[i] = (unsigned char)i;
    char *path = temp_file(data, sizeof data);
    tx_tensor *t = NULL;
    /* int16 [2,3] at byte 8 */
    assert_int_equal(tx_file_map(path, 8, TX_INT16, 2, TU_DIMS(2, 3), 0, &t), TX_OK);
    tu_assert_shape(t, TX_INT16, 2, TU_DIMS(2, 3));
    const int16_t *v = tx_tensor_data_const(t);
    assert_int_equal(v[0], mem16(8, 9));
    assert_int_equal(v[5], mem16(18, 19));
    tx_tensor_free(t);
    /* the same bytes swapped */
    assert_int_equal(tx_file_map(path, 8, TX_INT16, 2, TU_DIMS(2, 3), 1, &t), TX_OK);
    v = tx_tensor_data_const(t);
    assert_int_equal(v[0], mem16(9, 8));
    tx_tensor_free(t);
    /* complex64 swaps each part */
    assert_int_equal(tx_file_map(path, 0, TX_COMPLEX64, 1, TU_DIMS(1), 1, &t), TX_OK);
    assert_memory_equal(tx_tensor_data_const(t), "\x03\x02\x01\x00\x07\x06\x05\x04", 8);
    tx_tensor_free(t);
    /* bool bytes > 1 read as 1; the file is untouched */
    assert_int_equal(tx_file_map(path, 0, TX_BOOL, 1, TU_DIMS(4), 0, &t), TX_OK);
    assert_memory_equal(tx_tensor_data_const(t), "\x00\x01\x01\x01", 4);
    tx_tensor_free(t);
    FILE *f = fopen(path, "rb");
    unsigned char back[64];
    assert_int_equal(fread(back, 1, 64, f), 64);
    fclose(f);
    assert_memory_equal(back, data, 64);
    /* a window that ends exactly at the end, an empty one, a scalar string */
    assert_int_equal(tx_file_map(path, 56, TX_FLOAT64, 0, NULL, 0, &t), TX_OK);
    tx_tensor_free(t);
    assert_int_equal(tx_file_map(path, 64, TX_FLOAT32, 1, TU_DIMS(0), 0, &t), TX_OK);
    tx_tensor_free(t);
    assert_int_equal(tx_file_map_string(path, 60, 4, &t), TX_OK);
    assert_int_equal(tx_tensor_rank(t), 0);
    assert_int_equal(tx_tensor_string(t, 0)->size, 4);
    assert_memory_equal(tx_tensor_string(t, 0)->data, data + 60, 4);
    tx_tensor *c = NULL;
    assert_int_equal(tx_tensor_copy(t, &c), TX_OK);
    tx_tensor_free(t); /* the copy keeps the mapping */
    assert_memory_equal(tx_tensor_string(c, 0)->data, data + 60, 4);
    tx_tensor_free(c);
    assert_int_equal(tx_file_map_string(path, 64, 0, &t), TX_OK);
    assert_int_equal(tx_tensor_string(t, 0)->size, 0);
    tx_tensor_free(t);

    /* errors */
    tu_assert_error(tx_file_map(path, 60, TX_INT32, 1, TU_DIMS(2), 0, &t), TX_INVALID_ARGUMENT,
                    "extend past the end");
    assert_null(t);
    tu_assert_error(tx_file_map(path, 2, TX_INT32, 1, TU_DIMS(2), 0, &t), TX_INVALID_ARGUMENT,
                    "offset 2 is not a multiple of 4");
    tu_assert_error(tx_file_map(path, 0, TX_STRING, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "tx_file_map_string");
    tu_assert_error(tx_file_map(path, 0, (tx_dtype)99, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "unknown dtype 99");
    tu_assert_error(tx_file_map(path, 0, TX_INT8, 1, TU_DIMS(-3), 0, &t), TX_INVALID_ARGUMENT,
                    "negative dimension");
    tu_assert_error(tx_file_map(path, 0, TX_INT8, 1, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "dims is NULL");
    tu_assert_error(tx_file_map("/nonexistent/x", 0, TX_INT8, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "cannot open '/nonexistent/x'");
    tu_assert_error(tx_file_map("/tmp", 0, TX_INT8, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "not a regular file");
    tu_assert_error(tx_file_map(NULL, 0, TX_INT8, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "path is NULL");
    tu_assert_error(tx_file_map_string(path, 65, 0, &t), TX_INVALID_ARGUMENT, "extend past the end");
    tu_assert_error(tx_file_map_string(path, 1, UINT64_MAX, &t), TX_INVALID_ARGUMENT,
                    "extend past the end");

    /* allocation failure sweep over both */
    tu_alloc_install();
    for (int mode = 0; mode < 2; mode++)
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_status st = mode ? tx_file_map_string(path, 3, 20, &t)
                                : tx_file_map(path, 16, TX_FLOAT32, 1, TU_DIMS(4), 1, &t);
            tu_alloc_fail_at(0);
            if (st == TX_OK) {
                tx_tensor_free(t);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(t);
            assert_int_equal(tu_alloc_live(), 0);
        }
    tu_alloc_uninstall();
    unlink(path);
}

/* ---- streaming .npy headers ---- */

static void test_npy_write_header_matches_save(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_BOOL,    TX_INT8,     TX_UINT8,    TX_INT16,     TX_UINT16,
                                   TX_INT32,   TX_UINT32,   TX_INT64,    TX_UINT64,    TX_FLOAT16,
                                   TX_BFLOAT16, TX_FLOAT32, TX_FLOAT64,  TX_COMPLEX64, TX_COMPLEX128,
                                   TX_QINT8,   TX_QUINT8,   TX_QINT16,   TX_QUINT16,   TX_QINT32};
    static int64_t many[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) many[i] = 1;
    const struct {
        size_t rank;
        const int64_t *dims;
    } shapes[] = {{0, NULL}, {1, TU_DIMS(0)}, {1, TU_DIMS(7)}, {3, TU_DIMS(2, 0, 3)},
                  {4, TU_DIMS(1, 2, 3, 4)}, {TX_MAX_RANK, many}};
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            tx_tensor *t = NULL;
            assert_int_equal(tx_tensor_new(dts[i], shapes[s].rank, shapes[s].dims, &t), TX_OK);
            void *buf;
            size_t size;
            assert_int_equal(tx_npy_save_buffer(t, &buf, &size), TX_OK);
            unsigned char hdr[TX_NPY_HEADER_MAX];
            size_t len = 0;
            assert_int_equal(tx_npy_write_header(dts[i], shapes[s].rank, shapes[s].dims, hdr,
                                                 sizeof hdr, &len), TX_OK);
            assert_int_equal(len % 64, 0);
            assert_int_equal(len + tx_tensor_nbytes(t), size);
            assert_memory_equal(hdr, buf, len);
            tx_buffer_free(buf, size);
            tx_tensor_free(t);
        }
    /* A large shape needs the 2.0 format only past 65535 bytes, which rank <= 254 never reaches;
     * the biggest header still fits TX_NPY_HEADER_MAX. */
    static int64_t big[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) big[i] = INT64_MAX;
    unsigned char hdr[TX_NPY_HEADER_MAX];
    size_t len = 0;
    assert_int_equal(tx_npy_write_header(TX_INT8, TX_MAX_RANK, big, hdr, sizeof hdr, &len), TX_OK);
    tu_assert_error(tx_npy_write_header(TX_INT8, 1, TU_DIMS(3), hdr, 63, &len), TX_INVALID_ARGUMENT,
                    "cap is 63");
    tu_assert_error(tx_npy_write_header(TX_STRING, 1, TU_DIMS(3), hdr, sizeof hdr, &len),
                    TX_UNIMPLEMENTED, "string");
    tu_assert_error(tx_npy_write_header((tx_dtype)42, 0, NULL, hdr, sizeof hdr, &len),
                    TX_INVALID_ARGUMENT, "unknown dtype 42");
    tu_assert_error(tx_npy_write_header(TX_INT8, 1, TU_DIMS(-1), hdr, sizeof hdr, &len),
                    TX_INVALID_ARGUMENT, "dims[0] = -1 is negative");
    tu_assert_error(tx_npy_write_header(TX_INT8, 1, NULL, hdr, sizeof hdr, &len),
                    TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_npy_write_header(TX_INT8, TX_MAX_RANK + 1, big, hdr, sizeof hdr, &len),
                    TX_INVALID_ARGUMENT, "exceeds the maximum");
    tu_assert_error(tx_npy_write_header(TX_INT8, 0, NULL, NULL, 0, &len), TX_INVALID_ARGUMENT,
                    "buf or len is NULL");
}

static char *temp_text_npy(const char *header_text, size_t data_bytes) {
    /* version 1.0 with the given dict text, padded to 64, then data_bytes of 0xAB */
    unsigned char buf[4096];
    size_t n = strlen(header_text), total = (10 + n + 1 + 63) / 64 * 64;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)((total - 10) & 0xFF);
    buf[9] = (unsigned char)((total - 10) >> 8);
    memcpy(buf + 10, header_text, n);
    memset(buf + 10 + n, ' ', total - 11 - n);
    buf[total - 1] = '\n';
    memset(buf + total, 0xAB, data_bytes);
    return temp_file(buf, total + data_bytes);
}

static void test_npy_read_info(void **state) {
    (void)state;
    int64_t dims[TX_MAX_RANK];
    tx_npy_info info = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    /* Files written by tx_npy_save read back with their dtype and shape. */
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(TX_BFLOAT16, 3, TU_DIMS(2, 3, 5), &t), TX_OK);
    char *path = temp_file("", 0);
    assert_int_equal(tx_npy_save(path, t), TX_OK);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.dtype, TX_BFLOAT16);
    assert_int_equal(info.rank, 3);
    assert_int_equal(info.dims[2], 5);
    assert_int_equal(info.item_size, 2);
    assert_int_equal(info.data_offset, 128);
    assert_int_equal(info.data_size, 60);
    assert_int_equal(info.fortran_order, 0);
    assert_int_equal(info.byte_swapped, !TX_HOST_LITTLE_ENDIAN); /* saved little-endian */
    unlink(path);
    tx_tensor_free(t);

    path = temp_text_npy("{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }", 24);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.dtype, TX_INT32);
    assert_int_equal(info.byte_swapped, TX_HOST_LITTLE_ENDIAN); /* '>i4' */
    assert_int_equal(info.fortran_order, 1);
    assert_int_equal(info.data_offset, 128);
    unlink(path);
    path = temp_text_npy("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", 24);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.dtype, TX_STRING);
    assert_int_equal(info.string_kind, 'U');
    assert_int_equal(info.item_size, 12);
    unlink(path);
    path = temp_text_npy("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", 1);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.dtype, TX_BOOL);
    assert_int_equal(info.rank, 0);
    unlink(path);

    /* Hostile or wrong files: every one is invalid_argument, and loads fail the same way. */
    static const struct {
        const char *text;
        size_t data;
        const char *fragment;
    } bad[] = {
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 7, "need 8 data bytes, the file has 7"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 9, "need 8 data bytes, the file has 9"},
        {"{'descr': '<i4', 'fortran_order': False}", 0, "descr, fortran_order and shape are required"},
        {"{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': ()}", 4, "repeated key 'descr'"},
        {"{'descr': 'i4', 'fortran_order': False, 'shape': ()}", 4, "no byte-order character"},
        {"{'descr': '<q7', 'fortran_order': False, 'shape': ()}", 4, "descr '<q7' is not supported"},
        {"{'descr': '<i', 'fortran_order': False, 'shape': ()}", 4, "no valid item size"},
        {"{'descr': [('x', '<u2')], 'fortran_order': False, 'shape': ()}", 2, "field 'x' is not supported"},
        {"{'descr': [('bfloat16', '<f2')], 'fortran_order': False, 'shape': ()}", 2, "must be stored as i2 or u2"},
        {"{'descr': '<i4', 'fortran_order': Maybe, 'shape': ()}", 4, "fortran_order must be True or False"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (-1,)}", 0, "non-negative integers"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999, 99999999999)}", 0, "overflows int64"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': ()} x", 4, "trailing characters"},
        {"['descr']", 4, "expected '{'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        path = temp_text_npy(bad[i].text, bad[i].data);
        tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, bad[i].fragment);
        assert_int_equal(info.rank, 0);
        assert_int_equal(tx_npy_load(path, &t), TX_INVALID_ARGUMENT);
        unlink(path);
    }
    path = temp_file("\x93NUMPY\x01\x00\xff\x7f{", 11);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, "header claims 32767 bytes");
    unlink(path);
    path = temp_file("\x93NUMPX\x01\x00\x00\x00", 10);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, "not a .npy file");
    unlink(path);
    path = temp_file("\x93NUMPY\x04\x00\x00\x00", 10);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, "unsupported format version 4.0");
    unlink(path);
    path = temp_file("\x93NUMPY\x02\x00\x00\x00", 10);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, "truncated header length");
    unlink(path);
    tu_assert_error(tx_npy_read_info("/nonexistent.npy", &info), TX_INVALID_ARGUMENT, "cannot open");
    tu_assert_error(tx_npy_read_info(NULL, &info), TX_INVALID_ARGUMENT, "path or info is NULL");

    /* allocation failure */
    assert_int_equal(tx_tensor_new(TX_INT8, 1, TU_DIMS(3), &t), TX_OK);
    path = temp_file("", 0);
    assert_int_equal(tx_npy_save(path, t), TX_OK);
    tx_tensor_free(t);
    tu_alloc_install();
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        tx_status st = tx_npy_read_info(path, &info);
        tu_alloc_fail_at(0);
        assert_int_equal(tu_alloc_live(), 0);
        if (st == TX_OK) break;
        assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
    }
    tu_alloc_uninstall();
    unlink(path);
}

/* decode_raw (the casting family's op) on a mapped window: the streaming CLI's building block. */
static void test_decode_mapped_window(void **state) {
    (void)state;
    const unsigned char be[8] = {0x01, 0x02, 0xff, 0xfe, 0x00, 0x7f, 0x80, 0x00};
    char *path = temp_file(be, sizeof be);
    tx_tensor *s = NULL, *out = NULL;
    assert_int_equal(tx_file_map_string(path, 2, 6, &s), TX_OK);
    assert_int_equal(tx_decode_raw(s, TX_INT16, 0, NULL, &out), TX_OK);
    tx_tensor_free(s);
    tu_assert_shape(out, TX_INT16, 1, TU_DIMS(3));
    tu_assert_values(out, TU_VALS(-2, 127, -32768));
    tx_tensor_free(out);
    unlink(path);
}


/* ---- DLPack 1.x: the versioned struct and read-only memory ---- */

#if TX_HAVE_DLPACK
/* A versioned producer: make_producer's tensor in a DLManagedTensorVersioned with `flags`. */
typedef struct {
    DLManagedTensorVersioned m;
    int64_t shape[8], strides[8];
    void *block;
    int *deleted;
} vproducer;

static void vproducer_delete(DLManagedTensorVersioned *self) {
    vproducer *p = self->manager_ctx;
    (*p->deleted)++;
    free(p->block);
    free(p);
}

static vproducer *make_vproducer(uint8_t code, uint8_t bits, int ndim, const int64_t *shape,
                                 const int64_t *strides, size_t block_bytes, size_t offset,
                                 uint64_t flags, int *deleted) {
    producer *u = make_producer(code, bits, ndim, shape, strides, block_bytes, offset, deleted);
    vproducer *p = calloc(1, sizeof *p);
    assert_non_null(p);
    memcpy(p->shape, u->shape, sizeof p->shape);
    memcpy(p->strides, u->strides, sizeof p->strides);
    p->block = u->block;
    p->deleted = deleted;
    p->m.version.major = 1;
    p->m.version.minor = 0;
    p->m.flags = flags;
    p->m.dl_tensor = u->m.dl_tensor;
    p->m.dl_tensor.shape = p->shape;
    p->m.dl_tensor.strides = strides ? p->strides : NULL;
    p->m.manager_ctx = p;
    p->m.deleter = vproducer_delete;
    free(u);
    return p;
}

/* t cannot leave through the unversioned export (its consumer could write); the versioned export
 * gives the same bytes with DLPACK_FLAG_BITMASK_READ_ONLY. */
static void assert_export_read_only(const tx_tensor *t) {
    struct DLManagedTensor *m = (struct DLManagedTensor *)&m; /* must come back NULL */
    tu_assert_error(tx_tensor_to_dlpack(t, &m), TX_INVALID_ARGUMENT, "to_dlpack: t is read-only");
    assert_null(m);
    DLManagedTensorVersioned *v = NULL;
    assert_int_equal(tx_tensor_to_dlpack_versioned(t, &v), TX_OK);
    assert_int_equal(v->version.major, 1);
    assert_int_equal(v->version.minor, 0);
    assert_int_equal(v->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
    assert_ptr_equal(v->dl_tensor.data, tx_tensor_data_const(t));
    /* Imported back, it is still read-only. */
    tx_tensor *back = NULL;
    assert_int_equal(tx_tensor_from_dlpack_versioned(v, &back), TX_OK);
    assert_ptr_equal(tx_tensor_data_const(back), tx_tensor_data_const(t));
    assert_false(tx_tensor_is_writable(back));
    tx_tensor_free(back); /* calls v's deleter */
    /* A copy is writable and leaves through either export. */
    tx_tensor *c = NULL;
    assert_int_equal(tx_tensor_copy(t, &c), TX_OK);
    assert_int_equal(tx_tensor_to_dlpack(c, &m), TX_OK);
    m->deleter(m);
    assert_int_equal(tx_tensor_to_dlpack_versioned(c, &v), TX_OK);
    assert_int_equal(v->flags, 0);
    v->deleter(v);
    tx_tensor_free(c);
}

static void test_versioned_import_read_only(void **state) {
    (void)state;
    int deleted = 0;
    /* Row-major: used in place, read-only, and so are its views. */
    vproducer *p = make_vproducer(kDLInt, 16, 2, TU_DIMS(3, 4), NULL, 64, 8,
                                  DLPACK_FLAG_BITMASK_READ_ONLY, &deleted);
    tx_tensor *t = NULL, *flat = NULL, *shape = tu_i64(1, TU_DIMS(12));
    assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
    assert_ptr_equal(tx_tensor_data_const(t), (char *)p->block + 8);
    tu_assert_shape(t, TX_INT16, 2, TU_DIMS(3, 4));
    tu_assert_read_only(t);
    assert_export_read_only(t);
    assert_int_equal(tx_reshape(t, shape, &flat), TX_OK);
    assert_export_read_only(flat);
    /* The versioned export holds the producer's memory like any view. */
    DLManagedTensorVersioned *v = NULL;
    assert_int_equal(tx_tensor_to_dlpack_versioned(flat, &v), TX_OK);
    tx_tensor_free(t);
    tx_tensor_free(flat);
    assert_int_equal(deleted, 0);
    v->deleter(v);
    assert_int_equal(deleted, 1);
    tx_tensor_free(shape);

    /* Copied (transposed strides): the copy is read-only too, whatever the layout. */
    deleted = 0;
    p = make_vproducer(kDLInt, 32, 2, TU_DIMS(2, 3), TU_DIMS(1, 2), 24, 0,
                       DLPACK_FLAG_BITMASK_READ_ONLY, &deleted);
    int32_t *blk = p->block;
    for (int i = 0; i < 6; i++) blk[i] = i;
    assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
    assert_int_equal(deleted, 1);
    tu_assert_values(t, TU_VALS(0, 2, 4, 1, 3, 5));
    tu_assert_read_only(t);
    tx_tensor_free(t);

    /* Without the flag (IS_COPIED alone says nothing about writing), and through the
     * unversioned struct, which cannot carry it: writable, in place. */
    uint64_t writable_flags[2] = {0, DLPACK_FLAG_BITMASK_IS_COPIED};
    for (int k = 0; k < 2; k++) {
        deleted = 0;
        p = make_vproducer(kDLFloat, 32, 1, TU_DIMS(4), NULL, 16, 0, writable_flags[k], &deleted);
        assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
        tu_assert_writable(t);
        assert_ptr_equal(tx_tensor_data(t), p->block);
        tx_tensor_free(t);
        assert_int_equal(deleted, 1);
    }
    deleted = 0;
    producer *u = make_producer(kDLFloat, 32, 1, TU_DIMS(4), NULL, 16, 0, &deleted);
    assert_int_equal(tx_tensor_from_dlpack(&u->m, &t), TX_OK);
    tu_assert_writable(t);
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);
}

static void test_versioned_import_errors(void **state) {
    (void)state;
    int deleted = 0;
    tx_tensor *t = NULL;
    tu_assert_error(tx_tensor_from_dlpack_versioned(NULL, &t), TX_INVALID_ARGUMENT,
                    "from_dlpack_versioned: managed is NULL");
    vproducer *p = make_vproducer(kDLInt, 8, 1, TU_DIMS(4), NULL, 4, 0, 0, &deleted);
    tu_assert_error(tx_tensor_from_dlpack_versioned(&p->m, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    /* Another major version is another layout: refused, and the deleter stays the caller's. */
    const uint32_t majors[2] = {0, 2};
    for (int k = 0; k < 2; k++) {
        p->m.version.major = majors[k];
        t = (tx_tensor *)&t;
        tu_assert_error(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_UNIMPLEMENTED,
                        "DLPack major version");
        assert_null(t);
        assert_int_equal(deleted, 0);
    }
    /* The DLTensor checks are tx_tensor_from_dlpack's, named after this function. */
    p->m.version.major = 1;
    p->m.version.minor = 7; /* a later minor version keeps the layout */
    p->m.dl_tensor.device.device_type = kDLCUDA;
    tu_assert_error(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_UNIMPLEMENTED,
                    "from_dlpack_versioned: device type 2 is not the CPU");
    p->m.dl_tensor.device.device_type = kDLCPU;
    p->m.dl_tensor.dtype.lanes = 4;
    tu_assert_error(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_INVALID_ARGUMENT,
                    "from_dlpack_versioned: dtype has 4 lanes");
    assert_int_equal(deleted, 0);
    p->m.dl_tensor.dtype.lanes = 1;
    assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
    tx_tensor_free(t);
    assert_int_equal(deleted, 1);
}

static void test_versioned_export(void **state) {
    (void)state;
    tx_tensor *x = tu_tensor(TX_FLOAT64, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6)), *back = NULL;
    DLManagedTensorVersioned *v = NULL;
    assert_int_equal(tx_tensor_to_dlpack_versioned(x, &v), TX_OK);
    assert_int_equal(v->version.major, 1);
    assert_int_equal(v->version.minor, 0);
    assert_int_equal(v->flags, 0); /* writable */
    const DLTensor *dl = &v->dl_tensor;
    assert_ptr_equal(dl->data, tx_tensor_data(x));
    assert_int_equal(dl->device.device_type, kDLCPU);
    assert_int_equal(dl->dtype.code, kDLFloat);
    assert_int_equal(dl->dtype.bits, 64);
    assert_int_equal(dl->ndim, 2);
    assert_int_equal(dl->shape[1], 3);
    assert_int_equal(dl->strides[0], 3);
    assert_int_equal(dl->strides[1], 1);
    void *data = tx_tensor_data(x);
    tx_tensor_free(x); /* the export keeps the buffer */
    assert_int_equal(tx_tensor_from_dlpack_versioned(v, &back), TX_OK);
    assert_ptr_equal(tx_tensor_data(back), data); /* a round trip without a copy, still writable */
    tu_assert_values(back, TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor_free(back);
    /* Errors. */
    tx_tensor *s = tu_strings(1, TU_DIMS(1), (const char *const[]){"a"});
    v = (DLManagedTensorVersioned *)&v;
    tu_assert_error(tx_tensor_to_dlpack_versioned(s, &v), TX_UNIMPLEMENTED,
                    "to_dlpack_versioned: string has no DLPack dtype");
    assert_null(v);
    tu_assert_error(tx_tensor_to_dlpack_versioned(NULL, &v), TX_INVALID_ARGUMENT,
                    "to_dlpack_versioned: t is NULL");
    tu_assert_error(tx_tensor_to_dlpack_versioned(s, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tx_tensor_free(s);
}

/* Every read-only tensor the library makes: a mapped window and its views, a mapped string and
 * unpack's view of its bytes.  None leaves through the unversioned export. */
static void test_read_only_export_refused(void **state) {
    (void)state;
    unsigned char data[32];
    for (int i = 0; i < 32; i++) data[i] = (unsigned char)(3 * i);
    char *path = temp_file(data, sizeof data);
    tx_tensor *t = NULL, *v = NULL, *parts[3] = {NULL, NULL, NULL};
    for (int swapped = 0; swapped < 2; swapped++) {
        assert_int_equal(tx_file_map(path, 4, TX_INT32, 2, TU_DIMS(2, 3), swapped, &t), TX_OK);
        assert_export_read_only(t);
        assert_int_equal(tx_bitcast(t, TX_UINT16, &v), TX_OK);
        assert_export_read_only(v);
        tx_tensor_free(v);
        assert_int_equal(tx_squeeze(t, NULL, 0, &v), TX_OK);
        assert_export_read_only(v);
        tx_tensor_free(v);
        assert_int_equal(tx_expand_dims(t, -1, &v), TX_OK);
        assert_export_read_only(v);
        tx_tensor_free(v);
        assert_int_equal(tx_tensor_ref(t, &v), TX_OK);
        assert_export_read_only(v);
        tx_tensor_free(v);
        tx_tensor_free(t);
    }
    assert_int_equal(tx_file_map_string(path, 0, 32, &t), TX_OK);
    assert_int_equal(tx_string_tensor_unpack(t, parts), TX_OK);
    assert_export_read_only(parts[2]);
    for (int i = 0; i < 3; i++) tx_tensor_free(parts[i]);
    tx_tensor_free(t);
    unlink(path);
}

/* Allocation failure in the versioned import and export: resource_exhausted, nothing leaked,
 * the producer's deleter not called. */
static void test_versioned_alloc_failure(void **state) {
    (void)state;
    tx_tensor *src = tu_tensor(TX_INT32, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6));
    tu_alloc_install();
    for (int mode = 0; mode < 3; mode++) {
        for (long k = 1;; k++) {
            int deleted = 0;
            vproducer *p = mode == 0 ? make_vproducer(kDLInt, 32, 2, TU_DIMS(2, 3), NULL, 24, 0,
                                                      DLPACK_FLAG_BITMASK_READ_ONLY, &deleted)
                         : mode == 1 ? make_vproducer(kDLInt, 32, 2, TU_DIMS(2, 3), TU_DIMS(1, 2), 24,
                                                      0, DLPACK_FLAG_BITMASK_READ_ONLY, &deleted)
                                     : NULL;
            tu_alloc_fail_at(k);
            tx_tensor *t = NULL;
            DLManagedTensorVersioned *m = NULL;
            tx_status st = mode < 2 ? tx_tensor_from_dlpack_versioned(&p->m, &t)
                                    : tx_tensor_to_dlpack_versioned(src, &m);
            tu_alloc_fail_at(0);
            if (st == TX_OK) {
                if (t) assert_false(tx_tensor_is_writable(t));
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
        cmocka_unit_test(test_wrap_strings),
        cmocka_unit_test(test_file_map),
        cmocka_unit_test(test_npy_write_header_matches_save),
        cmocka_unit_test(test_npy_read_info),
        cmocka_unit_test(test_decode_mapped_window),
#if TX_HAVE_DLPACK
        cmocka_unit_test(test_versioned_import_read_only),
        cmocka_unit_test(test_versioned_import_errors),
        cmocka_unit_test(test_versioned_export),
        cmocka_unit_test(test_read_only_export_refused),
        cmocka_unit_test(test_versioned_alloc_failure),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
