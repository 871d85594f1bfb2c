/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_dlpack.c -- DLPack import (tx_tensor_from_dlpack and, for DLPack 1.x's versioned struct
 * marked read-only, tx_tensor_from_dlpack_versioned; src/io/dlpack.c) on producer tensors
 * decoded from the input: any ndim (negative and above TX_MAX_RANK included), dtype codes and bit
 * widths (valid or not), lanes, device, NULL shape / strides / data / deleter, any shape and
 * element strides (negative, zero, huge), byte offsets and misaligned data.  Input:
 *   u8 ndim: < 0xF0: ndim % 7; 0xF0 -1, 0xF1 255, 0xF2 254, else 300
 *   u8 dtype (index into `types`, invalid pairs included)
 *   u8 flags: bit 0 shape NULL, 1 strides NULL, 2 data NULL, 3 lanes 2, 4 a GPU device,
 *             5 no deleter, 6 data one byte off alignment, 7 a DLManagedTensorVersioned with
 *             DLPACK_FLAG_BITMASK_READ_ONLY and DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED
 *             instead of a DLManagedTensor (so sub-byte types are padded there, packed in the
 *             unversioned struct)
 *   u8 extra byte offset; ndim x fz_dim shape; ndim x fz_int strides; the rest fills the memory.
 * The memory a tensor needs is computed here from shape and strides and allocated exactly (at most
 * 1 MiB), so ASan sees any read outside it.  A layout whose byte extent overflows int64 cannot
 * exist and must be refused (then the buffer is 1 byte: a read would be caught); a packed sub-byte
 * layout's extent is counted in bits.  Checks: an accepted tensor holds the producer's elements
 * (bools normalised to 0/1, padded sub-byte bytes as ml_dtypes reads them, packed ones read bit by
 * bit); the deleter runs exactly
 * once (before return when the data were copied, at the last free otherwise) and never on failure;
 * export (tx_tensor_to_dlpack) and re-import give the same tensor back; a read-only import is
 * read-only, refused by tx_tensor_to_dlpack and exported read-only by the versioned export. */
#include "fuzz.h"

#include "tensorx_dlpack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

/* valid: a tensorx dtype has it.  New entries go at the end, so that the seeds keep their types. */
static const struct {
    uint8_t code, bits;
    bool valid;
} types[] = {
    {6, 8, 1},          {kDLInt, 8, 1},     {kDLInt, 16, 1},    {kDLInt, 32, 1},
    {kDLInt, 64, 1},    {kDLUInt, 8, 1},    {kDLUInt, 16, 1},   {kDLUInt, 32, 1},
    {kDLUInt, 64, 1},   {kDLFloat, 16, 1},  {kDLFloat, 32, 1},  {kDLFloat, 64, 1},
    {kDLBfloat, 16, 1}, {kDLComplex, 64, 1}, {kDLComplex, 128, 1},
    {kDLInt, 24, 0},    {kDLFloat, 8, 0},   {kDLOpaqueHandle, 64, 0}, {kDLBfloat, 32, 0},
    {7, 8, 0} /* float8_e3m4 */, {kDLComplex, 32, 0},
    {12, 8, 1} /* float8_e5m2 */, {17, 4, 1} /* float4_e2m1fn */, {kDLInt, 4, 1},
    {kDLUInt, 2, 1},    {16, 6, 1} /* float6_e3m2fn */, {kDLInt, 2, 1},
};
#define NTYPES (sizeof types / sizeof types[0])

static int deleted;
static void deleter(DLManagedTensor *m) {
    (void)m;
    deleted++;
}
static void deleter_versioned(DLManagedTensorVersioned *m) {
    (void)m;
    deleted++;
}

/* Exports x through the API that takes it (the versioned one, checking the flag, for a read-only
 * x, which the unversioned one must refuse) and imports it back the same way. */
static tx_status round_trip(const tx_tensor *x, bool sub, tx_tensor **y) {
    if (tx_tensor_is_writable(x) || sub) { /* sub-byte: a packed copy, read-only or not */
        DLManagedTensor *e = NULL;
        if (tx_tensor_to_dlpack(x, &e) != TX_OK) fz_die("to_dlpack of an imported tensor: %s", tx_last_error());
        DLManagedTensor copy = *e;
        tx_status st = tx_tensor_from_dlpack(e, y);
        if (st != TX_OK) copy.deleter(e);
        return st;
    }
    DLManagedTensor *refused = NULL;
    if (tx_tensor_to_dlpack(x, &refused) != TX_INVALID_ARGUMENT || refused)
        fz_die("to_dlpack exported a read-only tensor");
    DLManagedTensorVersioned *v = NULL;
    if (tx_tensor_to_dlpack_versioned(x, &v) != TX_OK) fz_die("to_dlpack_versioned: %s", tx_last_error());
    if (v->flags != (DLPACK_FLAG_BITMASK_READ_ONLY | (sub ? DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED : 0))) fz_die("to_dlpack_versioned: flags %llu for a read-only tensor", (unsigned long long)v->flags);
    DLManagedTensorVersioned copy = *v;
    tx_status st = tx_tensor_from_dlpack_versioned(v, y);
    if (st != TX_OK) copy.deleter(v);
    else if (tx_tensor_is_writable(*y)) fz_die("a read-only export came back writable");
    return st;
}

static size_t type_bytes(size_t t) { return types[t].valid ? (types[t].bits + 7u) / 8u : 1; }

/* The byte tensorx holds for padded sub-byte byte b of type t (written from the formats): an
 * integer's value bits; a float's magnitude bits and its sign bit, set when any bit at or above
 * it is. */
static unsigned char padded_value(size_t t, unsigned char b) {
    unsigned bits = types[t].bits;
    if (types[t].code <= kDLUInt) return (unsigned char)(b & ((1u << bits) - 1u));
    unsigned sign = 1u << (bits - 1u);
    return (unsigned char)((b & (sign - 1u)) | (b >= sign ? sign : 0u));
}

/* The packed element at bit position p (>= 0) of base, bit by bit, least significant first. */
static unsigned char packed_value(const unsigned char *base, int64_t p, unsigned bits) {
    unsigned v = 0;
    for (unsigned b = 0; b < bits; b++)
        v |= (unsigned)((base[(p + b) / 8] >> ((p + b) % 8)) & 1u) << b;
    return (unsigned char)v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    fz_in in = {data, size};
    uint8_t nsel = fz_u8(&in);
    int ndim = nsel < 0xF0 ? nsel % 7 : nsel == 0xF0 ? -1 : nsel == 0xF1 ? 255 : nsel == 0xF2 ? 254 : 300;
    size_t t = fz_u8(&in) % NTYPES;
    uint8_t flags = fz_u8(&in);
    uint64_t extra = fz_u8(&in);
    size_t es = type_bytes(t);
    size_t nd = ndim > 0 && ndim <= TX_MAX_RANK ? (size_t)ndim : 0;
    int64_t *shape = calloc(nd + 1, sizeof *shape), *strides = calloc(nd + 1, sizeof *strides);
    if (!shape || !strides) fz_die("out of memory");
    for (size_t i = 0; i < nd; i++) shape[i] = fz_dim(&in);
    for (size_t i = 0; i < nd; i++) strides[i] = fz_int(&in);

    /* The layout's extent in elements, [lo, hi], when strides are given (else row-major). */
    bool neg = false, zero = false, ovf = false;
    int64_t numel = 1, lo = 0, hi = 0, row = 1;
    for (size_t i = nd; i-- > 0;) {
        if (shape[i] < 0) neg = true;
        else if (shape[i] == 0) zero = true;
        else if (!ovf && __builtin_mul_overflow(numel, shape[i], &numel)) ovf = true;
    }
    /* [0, 7, 2^63 - 1] holds no element: whether its partial products may overflow is a matter of
     * order (TF multiplies left to right), so either answer is taken. */
    bool either = zero && ovf && !neg;
    if (zero) ovf = false;
    bool strided = !(flags & 2);
    for (size_t i = nd; !neg && !zero && !ovf && i-- > 0;) {
        int64_t s = strided ? strides[i] : row, span;
        if (!strided && __builtin_mul_overflow(row, shape[i], &row)) ovf = true;
        if (__builtin_mul_overflow(s, shape[i] - 1, &span) || __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi))
            ovf = true;
    }
    /* The byte extent: the reach (hi - lo) * es plus the last element.  Memory whose size passes
     * int64 cannot exist, so a layout with such an extent must be refused.  A packed sub-byte type
     * (the unversioned struct's) counts bits: element 0 starts at bit 0 of data + byte_offset, so
     * `lead` bytes before it hold the elements at negative offsets. */
    bool versioned = flags & 128;
    unsigned bits = types[t].bits;
    bool sub = types[t].valid && bits < 8, pack = sub && !versioned;
    int64_t reach = 0, bytes = 0, lead = 0;
    if (!neg && !zero && !ovf && !pack &&
        (__builtin_sub_overflow(hi, lo, &reach) ||
         __builtin_mul_overflow(reach, (int64_t)es, &reach) ||
         __builtin_add_overflow(reach, (int64_t)es, &bytes)))
        ovf = true;
    if (!neg && !zero && !ovf && pack) {
        if (__builtin_sub_overflow(hi, lo, &reach) ||
            __builtin_mul_overflow(reach, (int64_t)bits, &reach) ||
            __builtin_add_overflow(reach, (int64_t)bits, &reach))
            ovf = true;
        else { /* -lo * bits and hi * bits + bits are at most reach */
            lead = (-lo * (int64_t)bits + 7) / 8;
            bytes = lead + (hi * (int64_t)bits + (int64_t)bits + 7) / 8;
        }
    }
    if (!neg && !ovf && !zero && bytes > ((int64_t)1 << 20)) {
        /* Fits int64 but is larger than this fuzzer lends: nothing to test. */
        free(shape);
        free(strides);
        return 0;
    }
    bool exists = !neg && !ovf;
    bool misalign = flags & 64;
    size_t cap = exists && !zero ? (size_t)(extra + (uint64_t)bytes + misalign) : 1;
    unsigned char *mem = malloc(cap);
    if (!mem) fz_die("out of memory");
    const uint8_t *fill;
    size_t got = fz_bytes(&in, in.n, &fill);
    for (size_t i = 0; i < cap; i++) mem[i] = got ? fill[i % got] : (unsigned char)i;

    DLManagedTensor m;
    memset(&m, 0, sizeof m);
    m.dl_tensor.data = (flags & 4) ? NULL : mem + misalign;
    m.dl_tensor.device.device_type = (flags & 16) ? kDLCUDA : kDLCPU;
    m.dl_tensor.ndim = ndim;
    m.dl_tensor.dtype.code = types[t].code;
    m.dl_tensor.dtype.bits = types[t].bits;
    m.dl_tensor.dtype.lanes = (flags & 8) ? 2 : 1;
    m.dl_tensor.shape = (flags & 1) ? NULL : shape;
    m.dl_tensor.strides = strided ? strides : NULL;
    /* The first element sits `extra` bytes into the buffer; lo <= 0 steps back from it (negated
     * unsigned: lo may be INT64_MIN when the layout overflows, and the offset is unused then). */
    m.dl_tensor.byte_offset = pack ? extra + (uint64_t)lead : extra + (0 - (uint64_t)lo) * es;
    m.deleter = (flags & 32) ? NULL : deleter;
    DLManagedTensorVersioned vm;
    memset(&vm, 0, sizeof vm);
    vm.version.major = 1;
    vm.flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
    vm.dl_tensor = m.dl_tensor;
    vm.deleter = (flags & 32) ? NULL : deleter_versioned;
    deleted = 0;

    long live = fz_alloc_live();
    tx_tensor *x = NULL;
    tx_status st = versioned ? tx_tensor_from_dlpack_versioned(&vm, &x) : tx_tensor_from_dlpack(&m, &x);
    if (getenv("FZ_VERBOSE")) fprintf(stderr, "  from_dlpack: %s %s\n", tx_status_name(st), st ? tx_last_error() : "");
    bool valid = types[t].valid && ndim >= 0 && ndim <= TX_MAX_RANK && !(flags & 8) && !(flags & 16) &&
                 (nd == 0 || !(flags & 1)) && !neg && !ovf && (!(flags & 4) || zero);
    if (st != TX_OK) {
        fz_check_failure(st, "from_dlpack", tx_last_error());
        if (x) fz_die("from_dlpack failed but set *out");
        if (deleted) fz_die("from_dlpack failed but called the deleter");
        if (valid && !either && st != TX_RESOURCE_EXHAUSTED)
            fz_die("from_dlpack refused a valid tensor: %s", tx_last_error());
    } else {
        if (!valid) fz_die("from_dlpack accepted an invalid tensor (flags %u, ndim %d, type %zu)", flags, ndim, t);
        if (ovf) fz_die("from_dlpack accepted a layout whose extent overflows");
        fz_check_tensor(x, "from_dlpack");
        if ((tx_tensor_is_writable(x) != 0) == versioned)
            fz_die("from_dlpack: writable %d for a %s import", tx_tensor_is_writable(x), versioned ? "read-only" : "writable");
        /* Element i (row-major) against the producer's memory (offsets and products bounded:
         * an accepted layout's extent is at most the 1 MiB lent). */
        const unsigned char *base = mem + misalign + extra;
        const unsigned char *o = tx_tensor_data_const(x);
        int64_t idx[TX_MAX_RANK] = {0};
        for (int64_t i = 0; i < tx_tensor_numel(x); i++) {
            int64_t off = -lo, r = 1;
            for (size_t d = nd; d-- > 0;) {
                off += idx[d] * (strided ? strides[d] : r);
                r *= shape[d];
            }
            if (pack) { /* off counts from the lowest element, lo from element 0 */
                if (o[i] != packed_value(base, lead * 8 + (off + lo) * (int64_t)bits, bits))
                    fz_die("from_dlpack: packed element %lld differs", (long long)i);
            } else {
                const unsigned char *src = base + off * (int64_t)es;
                for (size_t b = 0; b < es; b++) {
                    unsigned char want = types[t].code == 6 ? src[b] != 0 : sub ? padded_value(t, src[b]) : src[b];
                    if (o[(size_t)i * es + b] != want) fz_die("from_dlpack: element %lld byte %zu differs", (long long)i, b);
                }
            }
            for (size_t d = nd; d-- > 0;) {
                if (++idx[d] < shape[d]) break;
                idx[d] = 0;
            }
        }
        /* Export and import again. */
        tx_tensor *y = NULL;
        if (round_trip(x, sub, &y) != TX_OK) fz_die("from_dlpack(to_dlpack(x)): %s", tx_last_error());
        if (tx_tensor_nbytes(y) != tx_tensor_nbytes(x) || memcmp(tx_tensor_data_const(y), tx_tensor_data_const(x), tx_tensor_nbytes(x)))
            fz_die("from_dlpack(to_dlpack(x)) differs from x");
        tx_tensor_free(x);
        if (deleted > 1) fz_die("deleter called %d times", deleted);
        fz_check_tensor(y, "from_dlpack(to_dlpack(x)) after x was freed");
        tx_tensor_free(y);
        if (!(flags & 32) && deleted != 1) fz_die("deleter called %d times after the last free", deleted);
    }
    if (fz_alloc_live() != live) fz_die("dlpack import leaked %ld block(s)", fz_alloc_live() - live);
    free(mem);
    free(shape);
    free(strides);
    return 0;
}
