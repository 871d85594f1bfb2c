/* SPDX-License-Identifier: Apache-2.0 */
/* dlpack.c -- DLPack import and export (tx_tensor_from_dlpack, tx_tensor_to_dlpack and their
 * DLPack 1.x _versioned forms), so tensors move between tensorx and PyTorch / NumPy / JAX style
 * code without copies.  Built against Debian's <dlpack/dlpack.h> (DLPack 0.6; the versioned struct
 * comes from tensorx_dlpack.h then); tensorx.h only forward-declares the structs.
 * An import wraps the producer's memory with tx_tensor_wrap's machinery, whose release callback
 * calls the producer's deleter once; an export hands out a managed tensor that holds a tensor
 * reference until the consumer calls its deleter.  Read-only tensors: a versioned import with
 * DLPACK_FLAG_BITMASK_READ_ONLY gives one, a versioned export sets the flag for one, and the
 * unversioned export, which cannot say so, refuses them (as NumPy does).  Sub-byte dtypes (int4,
 * uint4, int2, uint2, float4, float6), which tensorx holds one per byte: the versioned export
 * says so with DLPack 1.1's padded flag; the unversioned form, which has no flag and so means
 * DLPack's packed layout, carries a packed copy; imports take both layouts.  A build without the
 * DLPack header (TX_WITH_DLPACK) keeps all four functions, so the ABI is the same, and they return
 * unimplemented. */
#include "core/internal.h"

#if TX_HAVE_DLPACK
#include <stdio.h>

#include "tensorx_dlpack.h"

#include "exec/copy.h"
#include "exec/packed.h"

/* The DLPack code and bits of each dtype are columns of dtypes.def, written as numbers so that the
 * table needs no DLPack header; they must be the header's.  kDLBool (6) joined the enum in DLPack
 * 0.8 (Debian's header is 0.6); the specification fixes its value. */
_Static_assert(kDLInt == 0 && kDLUInt == 1 && kDLFloat == 2 && kDLBfloat == 4 && kDLComplex == 5,
               "dtypes.def: DLPack codes");
_Static_assert(kDLFloat8_e4m3b11fnuz == 9 && kDLFloat8_e4m3fn == 10 && kDLFloat8_e4m3fnuz == 11 &&
               kDLFloat8_e5m2 == 12 && kDLFloat8_e5m2fnuz == 13 && kDLFloat8_e8m0fnu == 14 &&
               kDLFloat6_e2m3fn == 15 && kDLFloat6_e3m2fn == 16 && kDLFloat4_e2m1fn == 17,
               "dtypes.def: DLPack 1.1 codes");

/* Re-fails with `op: ` in front of the current message (copied first: tx__fail writes the same
 * thread-local buffer it would read). */
static tx_status prefixed(tx_status st, const char *op) {
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", tx_last_error());
    return tx__fail(st, "%s: %s", op, tmp);
}

/* ---- import ------------------------------------------------------------------------------------- */

static void call_deleter(void *data, void *ctx) {
    (void)data;
    DLManagedTensor *m = ctx;
    if (m->deleter) m->deleter(m);
}

static void call_deleter_versioned(void *data, void *ctx) {
    (void)data;
    DLManagedTensorVersioned *m = ctx;
    if (m->deleter) m->deleter(m);
}

/* True when `strides` (elements) describe the row-major layout of dims; size-1 dims may carry any
 * stride (PyTorch exports arbitrary strides there) and zero-size tensors have no layout. */
static bool row_major(size_t rank, const int64_t *dims, const int64_t *strides, int64_t numel) {
    if (strides == NULL || numel == 0) return true;
    int64_t want = 1;
    for (size_t d = rank; d-- > 0;) {
        if (dims[d] != 1 && strides[d] != want) return false;
        if (d > 0) want *= dims[d]; /* bounded: a product of the dims, which divides numel > 0 */
    }
    return true;
}

/* Copies a strided (or unaligned, or empty) DLPack tensor into a new row-major tensor. */
static tx_status import_copy(const char *op, const DLTensor *dl, tx_dtype dtype, int64_t numel,
                             tx_tensor **out) {
    size_t rank = (size_t)dl->ndim;
    if (numel == 0) return tx__tensor_alloc(op, dtype, rank, dl->shape, out);
    size_t elem = tx_dtype_size(dtype);
    /* Allocating first bounds the byte size (<= the tensor limit), so the row-major strides below
     * cannot overflow. */
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, dtype, rank, dl->shape, &t));
    int64_t src_strides[TX_MAX_RANK], dst_strides[TX_MAX_RANK];
    tx__contiguous_strides(rank, dl->shape, elem, dst_strides);
    /* Every byte offset the copy forms must fit int64 (the memory itself is the producer's
     * promise): the sum of |stride| * (dim - 1) over the dims (the copy planner's precondition),
     * and with the last element's bytes the extent, for memory whose size passes int64 does not
     * exist. */
    int64_t reach = 0;
    for (size_t d = 0; d < rank; d++) {
        int64_t s = dl->strides ? dl->strides[d] : dst_strides[d] / (int64_t)elem, span;
        if (dl->shape[d] == 1) { /* the stride of a size-1 dim is never used: producers leave any */
            src_strides[d] = 0;
            continue;
        }
        bool ok = s != INT64_MIN && tx__mul_i64(s < 0 ? -s : s, (int64_t)elem, &src_strides[d]) &&
                  tx__mul_i64(src_strides[d], dl->shape[d] - 1, &span) &&
                  tx__add_i64(reach, span, &reach);
        if (!ok) {
            tx_tensor_free(t);
            return tx__fail(TX_INVALID_ARGUMENT, "%s: strides[%zu] = %lld overflows a byte offset",
                            op, d, (long long)s);
        }
        if (s < 0) src_strides[d] = -src_strides[d];
    }
    int64_t extent;
    if (!tx__add_i64(reach, (int64_t)elem, &extent)) {
        tx_tensor_free(t);
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: the strides reach past int64 byte offsets (a span of %lld bytes plus "
                        "a %zu-byte element)", op, (long long)reach, elem);
    }
    /* A valid layout: only now is the first element's address formed (a producer whose strides
     * were refused may have a byte_offset that points anywhere). */
    const char *src = (const char *)dl->data + dl->byte_offset;
    tx__copy_nd(t->data, src, rank, dl->shape, dst_strides, src_strides, elem);
    if (dtype == TX_BOOL) tx__normalise_bool(t->data, t->numel); /* 0 or 1, as TF's */
    if (tx__is_subbyte(dtype)) tx__normalise_subbyte(dtype, t->data, t->numel);
    *out = t;
    return TX_OK;
}

/* Whether the n bytes at p are the bytes tensorx holds for bool or a sub-byte dtype (true for any
 * other dtype).  Checked on a copy: the producer's memory is never written. */
static bool canonical(tx_dtype dtype, const char *p, int64_t n) {
    if (dtype != TX_BOOL && !tx__is_subbyte(dtype)) return true;
    char tmp[256];
    for (int64_t i = 0; i < n; i += (int64_t)sizeof tmp) {
        int64_t k = n - i < (int64_t)sizeof tmp ? n - i : (int64_t)sizeof tmp;
        memcpy(tmp, p + i, (size_t)k);
        if (dtype == TX_BOOL) {
            for (int64_t j = 0; j < k; j++)
                if ((unsigned char)tmp[j] > 1) return false;
        } else if (tx__normalise_subbyte(dtype, tmp, k)) {
            return false;
        }
    }
    return true;
}

/* ---- DLPack's packed sub-byte layout: element i in bits [i * bits, (i + 1) * bits) of the bytes,
 * counted from the least significant bit of the first byte ---- */

/* The `bits`-bit element at signed bit position p from base (p < 0: before it). */
static unsigned packed_at(const unsigned char *base, int64_t p, unsigned bits) {
    int64_t byte = p >= 0 ? p / 8 : -((7 - p) / 8); /* floor(p / 8) */
    unsigned shift = (unsigned)(p - byte * 8), v = base[byte] >> shift;
    if (shift + bits > 8) v |= (unsigned)base[byte + 1] << (8 - shift);
    return v & ((1u << bits) - 1u);
}

/* Unpacks a packed sub-byte DLPack tensor (any strides, in elements) into a new tensor. */
static tx_status import_packed(const char *op, const DLTensor *dl, tx_dtype dtype, int64_t numel,
                               tx_tensor **out) {
    size_t rank = (size_t)dl->ndim;
    unsigned bits = dl->dtype.bits;
    int64_t strides[TX_MAX_RANK], reach = 0, row = 1, bit_reach;
    for (size_t d = rank; d-- > 0;) {
        int64_t s = dl->strides ? dl->strides[d] : row, span = 0;
        if (numel > 0) row *= dl->shape[d]; /* bounded by numel */
        strides[d] = dl->shape[d] > 1 ? s : 0; /* a size-1 dim's stride is never used */
        bool ok = numel == 0 || (strides[d] != INT64_MIN &&
                  tx__mul_i64(strides[d] < 0 ? -strides[d] : strides[d], dl->shape[d] - 1, &span) &&
                  tx__add_i64(reach, span, &reach));
        TX_REQUIRE(ok, TX_INVALID_ARGUMENT, "%s: strides[%zu] = %lld overflows a bit offset", op, d,
                   (long long)s);
    }
    TX_REQUIRE(tx__mul_i64(reach, bits, &bit_reach) && tx__add_i64(bit_reach, bits, &bit_reach),
               TX_INVALID_ARGUMENT, "%s: the strides reach past int64 bit offsets (%lld elements "
               "of %u bits)", op, (long long)reach, bits);
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, dtype, rank, dl->shape, &t));
    *out = t;
    if (numel == 0) return TX_OK; /* data may be NULL: no pointer arithmetic on it */
    const unsigned char *base = (const unsigned char *)dl->data + dl->byte_offset;
    int64_t idx[TX_MAX_RANK] = {0}, off = 0; /* |off| <= reach */
    for (int64_t i = 0; i < numel; i++) {
        t->data[i] = (char)packed_at(base, off * (int64_t)bits, bits); /* canonical already */
        for (size_t d = rank; d-- > 0;) {
            if (++idx[d] < dl->shape[d]) {
                off += strides[d];
                break;
            }
            off -= strides[d] * (dl->shape[d] - 1);
            idx[d] = 0;
        }
    }
    return TX_OK;
}

/* The tensorx dtype of DLPack type `type`.  The float8 / float6 / float4 codes fix their bits, and
 * DLPack asks consumers to stop at any other width. */
static tx_status find_dtype(const char *op, DLDataType type, tx_dtype *out) {
    TX_REQUIRE(type.lanes == 1, TX_INVALID_ARGUMENT, "%s: dtype has %u lanes; only 1 is taken", op,
               (unsigned)type.lanes);
    TX_REQUIRE(type.bits != 0, TX_INVALID_ARGUMENT, "%s: dtype.bits is 0", op);
    unsigned fixed = type.code >= kDLFloat8_e3m4 && type.code <= kDLFloat8_e8m0fnu ? 8
                   : type.code == kDLFloat6_e2m3fn || type.code == kDLFloat6_e3m2fn ? 6
                   : type.code == kDLFloat4_e2m1fn                                  ? 4 : 0;
    TX_REQUIRE(fixed == 0 || type.bits == fixed, TX_INVALID_ARGUMENT,
               "%s: dtype.bits is %u, but DLPack's code %u has %u bits", op,
               (unsigned)type.bits, (unsigned)type.code, fixed);
    *out = TX_INVALID_DTYPE;
    for (size_t i = 0; i < tx__dtype_count(); i++) {
        const tx__dtype_info *d = tx__dtype_at(i);
        if (d->dlpack_bits && d->dlpack_code == type.code && d->dlpack_bits == type.bits)
            *out = d->id;
    }
    TX_REQUIRE(*out != TX_INVALID_DTYPE, TX_UNIMPLEMENTED,
               "%s: DLPack dtype {code %u, bits %u} has no tensorx dtype", op,
               (unsigned)type.code, (unsigned)type.bits);
    return TX_OK;
}

/* Checks `dl` and makes the tensor (in place or copied); see tx_tensor_from_dlpack's contract.
 * padded: a sub-byte type is held one per byte (the versioned struct's flag), else packed. */
static tx_status import_checked(const char *op, const DLTensor *dl, bool padded,
                                tx_release_fn release, void *managed, tx_tensor **out) {
    TX_REQUIRE(dl->device.device_type == kDLCPU, TX_UNIMPLEMENTED,
               "%s: device type %d is not the CPU (kDLCPU = 1)", op, (int)dl->device.device_type);
    TX_REQUIRE(dl->ndim >= 0 && dl->ndim <= TX_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: ndim %d is not in [0, %d]", op, dl->ndim, TX_MAX_RANK);
    size_t rank = (size_t)dl->ndim;
    TX_REQUIRE(rank == 0 || dl->shape != NULL, TX_INVALID_ARGUMENT, "%s: shape is NULL", op);
    tx_dtype dtype;
    TX_TRY(find_dtype(op, dl->dtype, &dtype));
    int64_t numel;
    TX_TRY(tx__shape_numel(op, "shape", rank, dl->shape, &numel));
    TX_REQUIRE(numel == 0 || dl->data != NULL, TX_INVALID_ARGUMENT,
               "%s: data is NULL for %lld elements", op, (long long)numel);
    if (tx__is_subbyte(dtype) && !padded) {
        TX_TRY(import_packed(op, dl, dtype, numel, out));
        release(NULL, managed);
        return TX_OK;
    }
    size_t elem = tx_dtype_size(dtype);
    size_t align = elem > 8 ? 8 : elem;
    bool aligned = ((uintptr_t)dl->data + (uintptr_t)dl->byte_offset) % align == 0;
    if (numel == 0 || !aligned || !row_major(rank, dl->shape, dl->strides, numel)) {
        TX_TRY(import_copy(op, dl, dtype, numel, out));
        release(NULL, managed); /* nothing refers to the producer's memory any more */
        return TX_OK;
    }
    const char *src = (const char *)dl->data + dl->byte_offset; /* numel * elem row-major bytes */
    size_t nbytes = (size_t)numel * elem; /* fits: tx__shape_numel bounded numel, wrap re-checks */
    if (!canonical(dtype, src, numel)) {
        /* Bytes tensorx would normalise (bool, sub-byte) are not rewritten in memory it does not
         * own, read-only or not: such a tensor is copied. */
        TX_TRY(import_copy(op, dl, dtype, numel, out));
        release(NULL, managed);
        return TX_OK;
    }
    /* tx_tensor_wrap takes a mutable pointer for its release callback; tensorx never writes. */
    tx_status st = tx_tensor_wrap(dtype, rank, dl->shape, (void *)(uintptr_t)src, nbytes,
                                  release, managed, out);
    if (st != TX_OK) return prefixed(st, op);
    return TX_OK;
}

/* The import of both managed-tensor forms: `dl` is managed's tensor and release(NULL, managed)
 * calls its deleter.  A read-only import gives a read-only tensor, even where the data are
 * copied, so that the rule does not depend on the layout. */
static tx_status import_dl(const char *op, const DLTensor *dl, bool read_only, bool padded,
                           tx_release_fn release, void *managed, tx_tensor **out) {
    TX_TRY(import_checked(op, dl, padded, release, managed, out));
    (*out)->read_only = read_only;
    return TX_OK;
}

tx_status tx_tensor_from_dlpack(struct DLManagedTensor *managed, tx_tensor **out) {
    static const char *op = "from_dlpack";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(managed != NULL, TX_INVALID_ARGUMENT, "%s: managed is NULL", op);
    /* The unversioned struct cannot mark memory read-only; producers that keep such memory
     * refuse to hand it out this way (NumPy does), so the import is writable. */
    /* Nor can it say that a sub-byte type is padded: it is packed, DLPack's default. */
    return import_dl(op, &managed->dl_tensor, false, false, call_deleter, managed, out);
}

tx_status tx_tensor_from_dlpack_versioned(struct DLManagedTensorVersioned *managed,
                                          tx_tensor **out) {
    static const char *op = "from_dlpack_versioned";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(managed != NULL, TX_INVALID_ARGUMENT, "%s: managed is NULL", op);
    /* Another major version has another layout: only version and the deleter may be touched. */
    TX_REQUIRE(managed->version.major == TX_DLPACK_VERSIONED_MAJOR, TX_UNIMPLEMENTED,
               "%s: DLPack major version %u is not %u, the layout tensorx reads", op,
               (unsigned)managed->version.major, TX_DLPACK_VERSIONED_MAJOR);
    bool read_only = (managed->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    bool padded = (managed->flags & DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED) != 0;
    return import_dl(op, &managed->dl_tensor, read_only, padded, call_deleter_versioned, managed,
                     out);
}

/* ---- export ------------------------------------------------------------------------------------- */

/* One allocation: the managed tensor (either form), the tensor reference and shape + strides. */
typedef struct {
    union {
        DLManagedTensor legacy;
        DLManagedTensorVersioned versioned;
    } m;
    tx_tensor *ref;
    size_t bytes;
    int64_t dims[]; /* shape (rank entries) then strides (rank entries) */
} export_block;

static void export_release(export_block *b) {
    tx_tensor_free(b->ref);
    tx__free(b, b->bytes);
}
static void export_deleter(DLManagedTensor *self) {
    if (self) export_release(self->manager_ctx);
}
static void export_deleter_versioned(DLManagedTensorVersioned *self) {
    if (self) export_release(self->manager_ctx);
}

/* Checks t and finds its DLPack dtype. */
static tx_status export_type(const char *op, const tx_tensor *t, const tx__dtype_info **ty) {
    TX_REQUIRE_TENSOR(op, t, "t");
    *ty = tx__dtype(t->dtype);
    TX_REQUIRE((*ty)->dlpack_bits != 0, TX_UNIMPLEMENTED, "%s: %s has no DLPack dtype", op,
               tx_dtype_name(t->dtype));
    return TX_OK;
}

/* The block of an export of t: a reference on mem's buffer (t's, or t's packed copy) and the
 * DLTensor `dl` (inside the block's managed tensor) describing t's row-major data there. */
static tx_status export_new(const char *op, const tx_tensor *t, const tx_tensor *mem,
                            const tx__dtype_info *ty, bool versioned, export_block **out) {
    *out = NULL;
    size_t bytes = sizeof(export_block) + 2 * t->rank * sizeof(int64_t);
    export_block *b = tx__alloc(bytes, op);
    if (b == NULL) return TX_RESOURCE_EXHAUSTED;
    memset(b, 0, sizeof *b);
    b->bytes = bytes;
    tx_status st = tx_tensor_ref(mem, &b->ref);
    if (st != TX_OK) {
        tx__free(b, bytes);
        return st;
    }
    int64_t *shape = b->dims, *strides = b->dims + t->rank;
    int64_t s = 1;
    for (size_t d = t->rank; d-- > 0;) {
        shape[d] = t->dims[d];
        strides[d] = s;
        /* Only a tensor with a 0-size dim can overflow here, and its strides are never used. */
        if (!tx__mul_i64(s, t->dims[d] ? t->dims[d] : 1, &s)) s = INT64_MAX;
    }
    DLTensor *dl = versioned ? &b->m.versioned.dl_tensor : &b->m.legacy.dl_tensor;
    dl->data = mem->data;
    dl->device.device_type = kDLCPU;
    dl->device.device_id = 0;
    dl->ndim = (int)t->rank;
    dl->dtype.code = ty->dlpack_code;
    dl->dtype.bits = ty->dlpack_bits;
    dl->dtype.lanes = 1;
    dl->shape = shape;
    dl->strides = strides;
    dl->byte_offset = 0;
    *out = b;
    return TX_OK;
}

/* The unversioned export of a sub-byte tensor: DLPack's packed layout (no flag can say padded),
 * in a copy, which its consumer owns and may write whether or not t is read-only. */
static tx_status export_packed(const char *op, const tx_tensor *t, const tx__dtype_info *ty,
                               struct DLManagedTensor **out) {
    /* numel is bounded by the size limit, so the size fits */
    int64_t nbytes = (int64_t)tx__packed_size(ty->value_bits, t->numel);
    tx_tensor *packed;
    TX_TRY(tx__tensor_alloc(op, TX_UINT8, 1, &nbytes, &packed));
    tx__pack_bits(t->dtype, t->numel, (const uint8_t *)t->data, (uint8_t *)packed->data); /* the layout of tx_tensor_pack, pad bits 0 */
    export_block *b;
    tx_status st = export_new(op, t, packed, ty, false, &b);
    tx_tensor_free(packed); /* the block holds its own reference */
    if (st != TX_OK) return st;
    b->m.legacy.manager_ctx = b;
    b->m.legacy.deleter = export_deleter;
    *out = &b->m.legacy;
    return TX_OK;
}

tx_status tx_tensor_to_dlpack(const tx_tensor *t, struct DLManagedTensor **out) {
    static const char *op = "to_dlpack";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    const tx__dtype_info *ty = NULL;
    TX_TRY(export_type(op, t, &ty));
    if (ty->value_bits < 8) return export_packed(op, t, ty, out);
    /* The unversioned struct has no read-only flag, so its consumer may write through data. */
    TX_REQUIRE(!t->read_only, TX_INVALID_ARGUMENT,
               "%s: t is read-only and a DLManagedTensor cannot say so (its consumer may write); "
               "export it with tx_tensor_to_dlpack_versioned, which marks it read-only, or export "
               "a copy from tx_tensor_copy", op);
    export_block *b;
    TX_TRY(export_new(op, t, t, ty, false, &b));
    b->m.legacy.manager_ctx = b;
    b->m.legacy.deleter = export_deleter;
    *out = &b->m.legacy;
    return TX_OK;
}

tx_status tx_tensor_to_dlpack_versioned(const tx_tensor *t,
                                        struct DLManagedTensorVersioned **out) {
    static const char *op = "to_dlpack_versioned";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    const tx__dtype_info *ty = NULL;
    TX_TRY(export_type(op, t, &ty));
    export_block *b;
    TX_TRY(export_new(op, t, t, ty, true, &b));
    DLManagedTensorVersioned *m = &b->m.versioned;
    bool padded = ty->value_bits < 8;
    m->version.major = TX_DLPACK_VERSIONED_MAJOR;
    /* 1.1 added the float8 / float6 / float4 codes and the padded flag; other dtypes are 1.0's. */
    m->version.minor = padded || ty->dlpack_code > 6 ? 1 : 0;
    m->flags = (t->read_only ? DLPACK_FLAG_BITMASK_READ_ONLY : 0) |
               (padded ? DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED : 0);
    m->manager_ctx = b;
    m->deleter = export_deleter_versioned;
    *out = m;
    return TX_OK;
}

#else

tx_status tx_tensor_from_dlpack(struct DLManagedTensor *managed, tx_tensor **out) {
    (void)managed; /* never touched: on failure it still belongs to the caller */
    TX_REQUIRE_OUT("from_dlpack", out);
    *out = NULL;
    return tx__fail(TX_UNIMPLEMENTED,
                    "from_dlpack: tensorx was built without DLPack (CMake option TX_WITH_DLPACK)");
}

tx_status tx_tensor_to_dlpack(const tx_tensor *t, struct DLManagedTensor **out) {
    (void)t;
    TX_REQUIRE_OUT("to_dlpack", out);
    *out = NULL;
    return tx__fail(TX_UNIMPLEMENTED,
                    "to_dlpack: tensorx was built without DLPack (CMake option TX_WITH_DLPACK)");
}

tx_status tx_tensor_from_dlpack_versioned(struct DLManagedTensorVersioned *managed,
                                          tx_tensor **out) {
    (void)managed; /* never touched: on failure it still belongs to the caller */
    TX_REQUIRE_OUT("from_dlpack_versioned", out);
    *out = NULL;
    return tx__fail(TX_UNIMPLEMENTED, "from_dlpack_versioned: tensorx was built without DLPack "
                    "(CMake option TX_WITH_DLPACK)");
}

tx_status tx_tensor_to_dlpack_versioned(const tx_tensor *t,
                                        struct DLManagedTensorVersioned **out) {
    (void)t;
    TX_REQUIRE_OUT("to_dlpack_versioned", out);
    *out = NULL;
    return tx__fail(TX_UNIMPLEMENTED, "to_dlpack_versioned: tensorx was built without DLPack "
                    "(CMake option TX_WITH_DLPACK)");
}

#endif /* TX_HAVE_DLPACK */
