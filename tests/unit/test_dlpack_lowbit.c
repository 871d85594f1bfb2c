/* SPDX-License-Identifier: Apache-2.0 */
/* test_dlpack_lowbit.c -- DLPack 1.1 for the float8, float6, float4, int4 and int2 dtypes: every one
 * both ways through both forms with DLPack 1.1's codes and bits; the sub-byte ones padded (one per
 * byte, DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) in the versioned form and packed (DLPack's
 * default) in the unversioned one, odd counts included; packed imports with byte offsets and
 * strides (transposed, negative, zero); padded imports used in place when their bytes are the
 * ones tensorx holds and copied (never rewritten, read-only or not) when they are not; the
 * descriptors DLPack forbids, refused.  The packed layout is checked against a bit-by-bit packer
 * written from dlpack.h's rule ((D >> (i * bits)) & mask is element i) and, for int4 / uint4,
 * against tx_tensor_pack_int4. */
#define TX_EXPERIMENTAL_API /* tx_dtype_info_of */
#include "dlpack_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if TX_HAVE_DLPACK

/* DLPack 1.1's DLDataTypeCode values (dmlc/dlpack include/dlpack/dlpack.h, v1.1), as numbers. */
static const struct {
    tx_dtype dtype;
    uint8_t code, bits;
} low_types[] = {
    {TX_FLOAT8_E4M3B11FNUZ, 9, 8}, {TX_FLOAT8_E4M3FN, 10, 8}, {TX_FLOAT8_E4M3FNUZ, 11, 8},
    {TX_FLOAT8_E5M2, 12, 8},       {TX_FLOAT8_E5M2FNUZ, 13, 8}, {TX_FLOAT8_E8M0FNU, 14, 8},
    {TX_FLOAT6_E2M3FN, 15, 6},     {TX_FLOAT6_E3M2FN, 16, 6},  {TX_FLOAT4_E2M1FN, 17, 4},
    {TX_INT4, 0, 4},               {TX_UINT4, 1, 4},           {TX_INT2, 0, 2},
    {TX_UINT2, 1, 2},
};
#define NLOW (sizeof low_types / sizeof low_types[0])

#define PADDED DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED

/* dlpack.h's packed layout, one bit at a time: bit b of element i is bit (i * bits + b) of the
 * bytes, least significant first.  Bits no element covers are 0. */
static void ref_pack(const unsigned char *vals, size_t n, unsigned bits, unsigned char *out,
                     size_t cap) {
    memset(out, 0, cap);
    for (size_t i = 0; i < n; i++)
        for (unsigned b = 0; b < bits; b++)
            if ((vals[i] >> b) & 1u) out[(i * bits + b) / 8] |= (unsigned char)(1u << ((i * bits + b) % 8));
}

static size_t packed_bytes(size_t n, unsigned bits) { return (n * bits + 7) / 8; }

/* Counts the calls of an export's deleter (unversioned form). */
static int export_deletes;
static void (*export_real_deleter)(DLManagedTensor *);
static void counting_deleter(DLManagedTensor *self) {
    export_deletes++;
    export_real_deleter(self);
}

/* ---- every dtype, both forms ---- */

static void check_versioned(tx_tensor *t, tx_dtype dt, uint8_t code, uint8_t bits,
                            const unsigned char *vals, size_t n) {
    DLManagedTensorVersioned *v = NULL;
    assert_int_equal(tx_tensor_to_dlpack_versioned(t, &v), TX_OK);
    assert_int_equal(v->version.major, 1);
    assert_int_equal(v->version.minor, 1); /* DLPack 1.1's codes / flag */
    assert_int_equal(v->flags, bits < 8 ? PADDED : 0);
    assert_ptr_equal(v->dl_tensor.data, tx_tensor_data(t)); /* one per byte: no copy */
    assert_int_equal(v->dl_tensor.dtype.code, code);
    assert_int_equal(v->dl_tensor.dtype.bits, bits);
    assert_int_equal(v->dl_tensor.dtype.lanes, 1);
    assert_int_equal(v->dl_tensor.ndim, 1);
    assert_int_equal(v->dl_tensor.shape[0], (int64_t)n);
    assert_int_equal(v->dl_tensor.strides[0], 1);
    tx_tensor *back = NULL;
    assert_int_equal(tx_tensor_from_dlpack_versioned(v, &back), TX_OK);
    assert_ptr_equal(tx_tensor_data(back), tx_tensor_data(t)); /* in place again */
    tu_assert_shape(back, dt, 1, TU_DIMS((int64_t)n));
    assert_memory_equal(tx_tensor_data(back), vals, n);
    tx_tensor_free(back);
}

static void check_unversioned(tx_tensor *t, tx_dtype dt, uint8_t code, uint8_t bits,
                              const unsigned char *vals, size_t n) {
    DLManagedTensor *m = NULL;
    assert_int_equal(tx_tensor_to_dlpack(t, &m), TX_OK);
    assert_int_equal(m->dl_tensor.dtype.code, code);
    assert_int_equal(m->dl_tensor.dtype.bits, bits);
    assert_int_equal(m->dl_tensor.shape[0], (int64_t)n);
    if (bits == 8) {
        assert_ptr_equal(m->dl_tensor.data, tx_tensor_data(t));
    } else { /* a packed copy: DLPack's default, the only layout this form can say */
        assert_ptr_not_equal(m->dl_tensor.data, tx_tensor_data(t));
        unsigned char want[600];
        size_t nb = packed_bytes(n, bits);
        ref_pack(vals, n, bits, want, sizeof want);
        assert_memory_equal(m->dl_tensor.data, want, nb);
        if (dt == TX_INT4 || dt == TX_UINT4) {
            unsigned char lib[600];
            size_t w = 0;
            assert_int_equal(tx_tensor_pack_int4(t, lib, sizeof lib, &w), TX_OK);
            assert_int_equal(w, nb);
            assert_memory_equal(m->dl_tensor.data, lib, nb);
        }
    }
    export_deletes = 0;
    export_real_deleter = m->deleter;
    m->deleter = counting_deleter;
    tx_tensor *back = NULL;
    assert_int_equal(tx_tensor_from_dlpack(m, &back), TX_OK);
    assert_int_equal(export_deletes, bits == 8 ? 0 : 1); /* unpacked: released at once */
    tu_assert_shape(back, dt, 1, TU_DIMS((int64_t)n));
    assert_memory_equal(tx_tensor_data(back), vals, n);
    tu_assert_writable(back);
    tx_tensor_free(back);
    assert_int_equal(export_deletes, 1);
}

static void test_every_dtype_both_forms(void **state) {
    (void)state;
    for (size_t k = 0; k < NLOW; k++) {
        tx_dtype dt = low_types[k].dtype;
        unsigned bits = low_types[k].bits;
        const tx_dtype_info *info = tx_dtype_info_of(dt);
        assert_int_equal(info->dlpack_code, low_types[k].code);
        assert_int_equal(info->dlpack_bits, bits);
        /* Every code of the type, then again from 1, to an odd count; and one element. */
        size_t counts[2] = {2u * (1u << bits) + 1u, 1};
        for (int c = 0; c < 2; c++) {
            size_t n = counts[c] > 513 ? 513 : counts[c];
            unsigned char vals[513];
            for (size_t i = 0; i < n; i++) vals[i] = (unsigned char)((i + (i >> bits)) % (1u << bits));
            tx_tensor *t = NULL;
            assert_int_equal(tx_tensor_from_data(dt, 1, TU_DIMS((int64_t)n), vals, n, &t), TX_OK);
            check_versioned(t, dt, low_types[k].code, (uint8_t)bits, vals, n);
            check_unversioned(t, dt, low_types[k].code, (uint8_t)bits, vals, n);
            tx_tensor_free(t);
        }
    }
}

/* Empty tensors: the packed export has no bytes, and comes back empty. */
static void test_empty(void **state) {
    (void)state;
    tx_tensor *t = NULL, *back = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT4_E2M1FN, 2, TU_DIMS(0, 3), &t), TX_OK);
    DLManagedTensor *m = NULL;
    assert_int_equal(tx_tensor_to_dlpack(t, &m), TX_OK);
    assert_int_equal(m->dl_tensor.shape[0], 0);
    assert_int_equal(tx_tensor_from_dlpack(m, &back), TX_OK);
    tu_assert_shape(back, TX_FLOAT4_E2M1FN, 2, TU_DIMS(0, 3));
    tx_tensor_free(back);
    tx_tensor_free(t);
    /* A producer of no elements may give no memory: data NULL and any byte_offset. */
    int deleted = 0;
    producer *p = make_producer(kDLFloat4_e2m1fn, 4, 2, TU_DIMS(4, 0), NULL, 0, 0, &deleted);
    p->m.dl_tensor.data = NULL;
    p->m.dl_tensor.byte_offset = 3;
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &back), TX_OK);
    tu_assert_shape(back, TX_FLOAT4_E2M1FN, 2, TU_DIMS(4, 0));
    assert_int_equal(deleted, 1);
    tx_tensor_free(back);
}

/* ---- packed imports: byte offsets and strides ---- */

/* A producer of `n` `bits`-bit elements vals[] packed at block + offset, the bytes around them
 * (the pad bits of the last byte included) all ones, as a producer may leave them. */
static producer *packed_producer(uint8_t code, unsigned bits, const unsigned char *vals, size_t n,
                                 size_t offset, int *deleted) {
    size_t nb = packed_bytes(n, bits);
    producer *p = make_producer(code, (uint8_t)bits, 1, TU_DIMS((int64_t)n), NULL, offset + nb + 2,
                                offset, deleted);
    unsigned char *b = p->block;
    memset(b, 0xFF, offset + nb + 2);
    ref_pack(vals, n, bits, b + offset, nb);
    if ((n * bits) % 8) b[offset + nb - 1] |= (unsigned char)(0xFFu << ((n * bits) % 8));
    return p;
}

static void test_packed_import_layouts(void **state) {
    (void)state;
    static const struct {
        tx_dtype dt;
        uint8_t code, bits;
        size_t reversible; /* a count whose last element starts on a byte boundary */
    } cases[] = {{TX_INT2, 0, 2, 13},          {TX_UINT2, 1, 2, 13}, {TX_INT4, 0, 4, 15},
                 {TX_FLOAT4_E2M1FN, 17, 4, 15}, {TX_FLOAT6_E3M2FN, 16, 6, 9},
                 {TX_FLOAT6_E2M3FN, 15, 6, 9}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        unsigned bits = cases[k].bits, mask = (1u << bits) - 1u;
        unsigned char vals[15], want[15];
        for (size_t i = 0; i < 15; i++) vals[i] = (unsigned char)((i * 7 + 3) & mask);
        int deleted = 0;
        tx_tensor *t = NULL;
        /* Row-major 3x5 at byte offset 3, ones in the pad bits. */
        producer *p = packed_producer(cases[k].code, bits, vals, 15, 3, &deleted);
        p->m.dl_tensor.ndim = 2;
        p->shape[0] = 3;
        p->shape[1] = 5;
        assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
        assert_int_equal(deleted, 1); /* unpacked into a new tensor */
        tu_assert_shape(t, cases[k].dt, 2, TU_DIMS(3, 5));
        assert_memory_equal(tx_tensor_data(t), vals, 15);
        tx_tensor_free(t);
        /* The transpose: shape [5, 3], strides [1, 5] (elements). */
        deleted = 0;
        p = packed_producer(cases[k].code, bits, vals, 15, 0, &deleted);
        p->m.dl_tensor.ndim = 2;
        p->shape[0] = 5;
        p->shape[1] = 3;
        p->strides[0] = 1;
        p->strides[1] = 5;
        p->m.dl_tensor.strides = p->strides;
        assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
        for (size_t r = 0; r < 5; r++)
            for (size_t c = 0; c < 3; c++) want[r * 3 + c] = vals[c * 5 + r];
        assert_memory_equal(tx_tensor_data(t), want, 15);
        tx_tensor_free(t);
        /* Backwards: stride -1 from the last element, which starts on a byte boundary. */
        size_t n = cases[k].reversible;
        deleted = 0;
        p = packed_producer(cases[k].code, bits, vals, n, 1, &deleted);
        p->m.dl_tensor.byte_offset = 1 + (n - 1) * bits / 8;
        p->strides[0] = -1;
        p->m.dl_tensor.strides = p->strides;
        assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
        for (size_t i = 0; i < n; i++) want[i] = vals[n - 1 - i];
        assert_memory_equal(tx_tensor_data(t), want, n);
        tx_tensor_free(t);
        /* Broadcast: shape [3, 5], strides [0, 1]. */
        deleted = 0;
        p = packed_producer(cases[k].code, bits, vals, 5, 0, &deleted);
        p->m.dl_tensor.ndim = 2;
        p->shape[0] = 3;
        p->shape[1] = 5;
        p->strides[0] = 0;
        p->strides[1] = 1;
        p->m.dl_tensor.strides = p->strides;
        assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
        for (size_t i = 0; i < 15; i++) want[i] = vals[i % 5];
        assert_memory_equal(tx_tensor_data(t), want, 15);
        tx_tensor_free(t);
        assert_int_equal(deleted, 1);
        /* A versioned producer without the padded flag is packed too. */
        deleted = 0;
        vproducer *v = make_vproducer(cases[k].code, (uint8_t)bits, 1, TU_DIMS(15), NULL,
                                      packed_bytes(15, bits), 0, DLPACK_FLAG_BITMASK_READ_ONLY,
                                      &deleted);
        ref_pack(vals, 15, bits, v->block, packed_bytes(15, bits));
        assert_int_equal(tx_tensor_from_dlpack_versioned(&v->m, &t), TX_OK);
        assert_int_equal(deleted, 1);
        assert_memory_equal(tx_tensor_data_const(t), vals, 15);
        assert_false(tx_tensor_is_writable(t)); /* the producer said read-only: so is the copy */
        tx_tensor_free(t);
    }
}

/* ---- padded imports ---- */

static void test_padded_import(void **state) {
    (void)state;
    for (size_t k = 0; k < NLOW; k++) {
        tx_dtype dt = low_types[k].dtype;
        unsigned bits = low_types[k].bits;
        for (int ro = 0; ro < 2; ro++) {
            uint64_t flags = PADDED | (ro ? DLPACK_FLAG_BITMASK_READ_ONLY : 0);
            /* Bytes tensorx holds: used in place. */
            int deleted = 0;
            vproducer *p = make_vproducer(low_types[k].code, (uint8_t)bits, 2, TU_DIMS(2, 5), NULL,
                                          10, 0, flags, &deleted);
            unsigned char *b = p->block;
            for (int i = 0; i < 10; i++) b[i] = tu_canonical_byte(dt, (unsigned char)(37 * i + 5));
            tx_tensor *t = NULL;
            assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
            assert_ptr_equal(tx_tensor_data_const(t), p->block);
            assert_int_equal(tx_tensor_is_writable(t), !ro);
            tx_tensor_free(t);
            assert_int_equal(deleted, 1);
            /* Any other bytes (0, 1, ..., 255, some with upper bits set): a normalised copy; the
             * producer's bytes stay as they were. */
            deleted = 0;
            p = make_vproducer(low_types[k].code, (uint8_t)bits, 1, TU_DIMS(256), NULL, 256, 0,
                               flags, &deleted);
            b = p->block;
            for (int i = 0; i < 256; i++) b[i] = (unsigned char)(255 - i);
            unsigned char before[256], want[256];
            memcpy(before, b, 256);
            for (int i = 0; i < 256; i++) want[i] = tu_canonical_byte(dt, before[i]);
            p->m.deleter = NULL; /* keep the block to look at */
            assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
            assert_memory_equal(b, before, 256);
            assert_memory_equal(tx_tensor_data_const(t), want, 256);
            if (bits < 8) assert_ptr_not_equal(tx_tensor_data_const(t), b);
            assert_int_equal(tx_tensor_is_writable(t), !ro);
            tx_tensor_free(t);
            free(p->block);
            free(p);
            /* Strided (reversed): copied and normalised too. */
            deleted = 0;
            p = make_vproducer(low_types[k].code, (uint8_t)bits, 1, TU_DIMS(4), TU_DIMS(-1), 4, 3,
                               flags, &deleted);
            b = p->block;
            memcpy(b, "\xF1\x02\xE3\x84", 4);
            assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
            assert_int_equal(deleted, 1);
            const unsigned char *o = tx_tensor_data_const(t);
            for (int i = 0; i < 4; i++)
                assert_int_equal(o[i], tu_canonical_byte(dt, (unsigned char)"\xF1\x02\xE3\x84"[3 - i]));
            tx_tensor_free(t);
        }
    }
}

/* ---- read-only tensors leave through both forms ---- */

static void test_read_only_exports(void **state) {
    (void)state;
    for (size_t k = 0; k < NLOW; k++) {
        tx_dtype dt = low_types[k].dtype;
        unsigned bits = low_types[k].bits;
        int deleted = 0;
        vproducer *p = make_vproducer(low_types[k].code, (uint8_t)bits, 1, TU_DIMS(5), NULL, 5, 0,
                                      PADDED | DLPACK_FLAG_BITMASK_READ_ONLY, &deleted);
        unsigned char vals[5];
        for (int i = 0; i < 5; i++) vals[i] = ((unsigned char *)p->block)[i] = (unsigned char)((i + 1) % (1 << bits));
        tx_tensor *t = NULL, *back = NULL;
        assert_int_equal(tx_tensor_from_dlpack_versioned(&p->m, &t), TX_OK);
        assert_false(tx_tensor_is_writable(t));
        DLManagedTensorVersioned *v = NULL;
        assert_int_equal(tx_tensor_to_dlpack_versioned(t, &v), TX_OK);
        assert_int_equal(v->flags, DLPACK_FLAG_BITMASK_READ_ONLY | (bits < 8 ? PADDED : 0));
        v->deleter(v);
        DLManagedTensor *m = NULL;
        if (bits == 8) { /* in place: refused, as for every 8-bit dtype */
            tu_assert_error(tx_tensor_to_dlpack(t, &m), TX_INVALID_ARGUMENT, "t is read-only");
            assert_null(m);
        } else { /* a packed copy, the consumer's own */
            assert_int_equal(tx_tensor_to_dlpack(t, &m), TX_OK);
            unsigned char want[8];
            ref_pack(vals, 5, bits, want, sizeof want);
            assert_memory_equal(m->dl_tensor.data, want, packed_bytes(5, bits));
            assert_int_equal(tx_tensor_from_dlpack(m, &back), TX_OK);
            tu_assert_writable(back);
            assert_memory_equal(tx_tensor_data(back), vals, 5);
            tx_tensor_free(back);
        }
        tx_tensor_free(t);
        assert_int_equal(deleted, 1);
        (void)dt;
    }
}

/* Wrapped bytes may carry upper bits: the packed export takes each element's value. */
static void test_packed_export_of_wrapped_bytes(void **state) {
    (void)state;
    static unsigned char raw[3] = {0xF3, 0x1E, 0x80};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_wrap(TX_FLOAT4_E2M1FN, 1, TU_DIMS(3), raw, 3, NULL, NULL, &t), TX_OK);
    DLManagedTensor *m = NULL;
    assert_int_equal(tx_tensor_to_dlpack(t, &m), TX_OK);
    unsigned char vals[3], want[2];
    for (int i = 0; i < 3; i++) vals[i] = tu_canonical_byte(TX_FLOAT4_E2M1FN, raw[i]);
    ref_pack(vals, 3, 4, want, 2);
    assert_memory_equal(m->dl_tensor.data, want, 2);
    m->deleter(m);
    tx_tensor_free(t);
}

/* ---- descriptors DLPack forbids, and types tensorx lacks ---- */

static void test_errors(void **state) {
    (void)state;
    int deleted = 0;
    tx_tensor *t = (tx_tensor *)1;
    producer *p = make_producer(12, 8, 1, TU_DIMS(4), NULL, 4, 0, &deleted);
    DLTensor *dl = &p->m.dl_tensor;
    static const struct {
        uint8_t code, bits;
        tx_status st;
        const char *msg;
    } bad[] = {
        {10, 16, TX_INVALID_ARGUMENT, "dtype.bits is 16, but DLPack's code 10 has 8 bits"},
        {17, 8, TX_INVALID_ARGUMENT, "dtype.bits is 8, but DLPack's code 17 has 4 bits"},
        {15, 4, TX_INVALID_ARGUMENT, "dtype.bits is 4, but DLPack's code 15 has 6 bits"},
        {14, 0, TX_INVALID_ARGUMENT, "dtype.bits is 0"},
        {0, 0, TX_INVALID_ARGUMENT, "dtype.bits is 0"},
        {7, 8, TX_UNIMPLEMENTED, "{code 7, bits 8} has no tensorx dtype"}, /* float8_e3m4 */
        {8, 8, TX_UNIMPLEMENTED, "{code 8, bits 8} has no tensorx dtype"}, /* float8_e4m3 */
        {0, 3, TX_UNIMPLEMENTED, "{code 0, bits 3} has no tensorx dtype"},
        {2, 4, TX_UNIMPLEMENTED, "{code 2, bits 4} has no tensorx dtype"},
        {18, 8, TX_UNIMPLEMENTED, "{code 18, bits 8} has no tensorx dtype"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        dl->dtype.code = bad[k].code;
        dl->dtype.bits = bad[k].bits;
        tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), bad[k].st, bad[k].msg);
        assert_null(t);
    }
    dl->dtype.code = 17;
    dl->dtype.bits = 4;
    dl->dtype.lanes = 2;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "dtype has 2 lanes");
    dl->dtype.lanes = 1;
    /* Packed strides whose bit offsets pass int64, and an overflowing span. */
    dl->strides = p->strides;
    p->shape[0] = 2;
    p->strides[0] = INT64_MAX / 4;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT,
                    "the strides reach past int64 bit offsets");
    p->strides[0] = INT64_MIN;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT,
                    "strides[0] = -9223372036854775808 overflows a bit offset");
    p->shape[0] = 3;
    p->strides[0] = INT64_MAX / 2 + 1;
    tu_assert_error(tx_tensor_from_dlpack(&p->m, &t), TX_INVALID_ARGUMENT, "overflows a bit offset");
    assert_null(t);
    assert_int_equal(deleted, 0); /* never called on failure */
    /* A valid packed layout after all that. */
    p->strides[0] = 1;
    memcpy(p->block, "\x21\x43", 2);
    assert_int_equal(tx_tensor_from_dlpack(&p->m, &t), TX_OK);
    assert_memory_equal(tx_tensor_data(t), "\x01\x02\x03", 3);
    assert_int_equal(deleted, 1);
    tx_tensor_free(t);
}

/* Allocation failure in the packed import and the packed export: resource_exhausted, nothing
 * leaked, the producer's deleter not called. */
static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *src = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT2, 1, TU_DIMS(5), "\x01\x02\x03\x00\x01", 5, &src),
                     TX_OK);
    tu_alloc_install();
    for (int mode = 0; mode < 2; mode++) {
        for (long k = 1;; k++) {
            int deleted = 0;
            producer *p = mode == 0 ? make_producer(0, 2, 1, TU_DIMS(5), NULL, 2, 0, &deleted) : NULL;
            tu_alloc_fail_at(k);
            tx_tensor *t = NULL;
            DLManagedTensor *m = NULL;
            tx_status st = mode == 0 ? tx_tensor_from_dlpack(&p->m, &t) : tx_tensor_to_dlpack(src, &m);
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

#endif /* TX_HAVE_DLPACK */

int main(void) {
#if TX_HAVE_DLPACK
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_dtype_both_forms),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_packed_import_layouts),
        cmocka_unit_test(test_padded_import),
        cmocka_unit_test(test_read_only_exports),
        cmocka_unit_test(test_packed_export_of_wrapped_bytes),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#else
    return 0;
#endif
}
