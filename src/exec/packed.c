/* SPDX-License-Identifier: Apache-2.0 */
/* packed.c -- the packed interchange form of the sub-byte dtypes (value bits 2, 4 or 6): element i
 * in bits [i * bits, (i + 1) * bits) of the bytes read as one little-endian bit string, as ONNX
 * (int4, uint4, float4e2m1, int2, uint2, float6), DLPack 1.1 (its packed default) and
 * safetensors (F4, F6) store them; the bits after the last element, all in the last byte, are 0.
 * tensorx itself holds these dtypes one element per byte (core/tensor.c).  The 2- and 4-bit loops
 * are the dispatched kernels of kernels/pack.h, the 6-bit ones go an element at a time here, and
 * ranges of two grains or more are split over the thread pool. */
#include "exec/packed.h"

#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "exec/pool.h"

#define GROUP TX__PACK_GROUP

/* ---- the loops ---- */

void tx__pack_bits_generic(tx_dtype dtype, int64_t numel, const uint8_t *p, uint8_t *o) {
    const unsigned bits = tx__dtype(dtype)->value_bits, mask = (1u << bits) - 1u;
    /* Each byte's field as every reader reads it (wrapped memory may hold upper bits). */
    uint8_t field[256];
    for (unsigned b = 0; b < 256; b++) field[b] = (uint8_t)(tx__subbyte_value(dtype, b) & mask);
    for (int64_t g = 0; g * GROUP < numel; g++) {
        int64_t n = numel - g * GROUP < GROUP ? numel - g * GROUP : GROUP;
        uint32_t v = 0;
        for (int64_t j = 0; j < n; j++) v |= (uint32_t)field[p[g * GROUP + j]] << (j * bits);
        size_t len = ((size_t)n * bits + 7) / 8;
        for (size_t k = 0; k < len; k++) o[(size_t)g * (bits / 2) + k] = (uint8_t)(v >> (8 * k));
    }
}

/* A field holds the value bits only, which tx__subbyte_value stores as the constructors do (an
 * integer's low bits, a float's sign bit). */
void tx__unpack_bits_generic(tx_dtype dtype, int64_t numel, const uint8_t *b, uint8_t *p) {
    const unsigned bits = tx__dtype(dtype)->value_bits, mask = (1u << bits) - 1u;
    uint8_t stored[64];
    for (unsigned f = 0; f <= mask; f++) stored[f] = tx__subbyte_value(dtype, f);
    for (int64_t g = 0; g * GROUP < numel; g++) {
        int64_t n = numel - g * GROUP < GROUP ? numel - g * GROUP : GROUP;
        size_t len = ((size_t)n * bits + 7) / 8;
        uint32_t v = 0;
        for (size_t k = 0; k < len; k++) v |= (uint32_t)b[(size_t)g * (bits / 2) + k] << (8 * k);
        for (int64_t j = 0; j < n; j++) p[g * GROUP + j] = stored[(v >> (j * bits)) & mask];
    }
}

void tx__pack_bits_serial(tx_dtype dtype, int64_t numel, const uint8_t *p, uint8_t *o) {
    const tx__dtype_info *d = tx__dtype(dtype);
    if (d->value_bits == 6) tx__pack_bits_generic(dtype, numel, p, o);
    else tx__kernels_get()->subbyte_pack(d->value_bits, d->kind == TX_KIND_FLOAT, numel, p, o);
}

static void unpack_bits_serial(tx_dtype dtype, int64_t numel, const uint8_t *b, uint8_t *p) {
    const unsigned bits = tx__dtype(dtype)->value_bits;
    if (bits == 6) tx__unpack_bits_generic(dtype, numel, b, p);
    else tx__kernels_get()->subbyte_unpack(bits, numel, b, p);
}

/* ---- the split: pieces of whole groups, so that each writes bytes of its own ---- */

typedef struct bits_job {
    tx_dtype dtype;
    size_t group_bytes; /* bits / 2 */
    const uint8_t *from;
    uint8_t *to;
} bits_job;

static void pack_piece(void *ctx, int64_t begin, int64_t end) {
    const bits_job *j = ctx;
    tx__pack_bits_serial(j->dtype, end - begin, j->from + begin,
                         j->to + (size_t)(begin / GROUP) * j->group_bytes);
}

static void unpack_piece(void *ctx, int64_t begin, int64_t end) {
    const bits_job *j = ctx;
    unpack_bits_serial(j->dtype, end - begin, j->from + (size_t)(begin / GROUP) * j->group_bytes,
                       j->to + begin);
}

/* A grain of TX_GRAIN_BYTES elements: the one-per-byte side's bytes, a multiple of GROUP. */
void tx__pack_bits(tx_dtype dtype, int64_t numel, const uint8_t *p, uint8_t *o) {
    bits_job j = {dtype, tx__dtype(dtype)->value_bits / 2, p, o};
    tx__parallel_for(numel, TX_GRAIN_BYTES, pack_piece, &j);
}

void tx__unpack_bits(tx_dtype dtype, int64_t numel, const uint8_t *b, uint8_t *p) {
    bits_job j = {dtype, tx__dtype(dtype)->value_bits / 2, b, p};
    tx__parallel_for(numel, TX_GRAIN_BYTES, unpack_piece, &j);
}

/* ---- the rules and the constructors ---- */

size_t tx__packed_size(unsigned bits, int64_t numel) {
    size_t groups = (size_t)(numel / GROUP), rest = (size_t)(numel % GROUP);
    return groups * (bits / 2) + (rest * bits + 7) / 8;
}

tx_status tx__check_packable(const char *op, const char *arg, tx_dtype dtype) {
    const tx__dtype_info *d = tx__dtype(dtype);
    TX_REQUIRE(d != NULL, TX_INVALID_ARGUMENT, "%s: %s: unknown dtype %d", op, arg, (int)dtype);
    TX_REQUIRE(d->value_bits == 2 || d->value_bits == 4 || d->value_bits == 6, TX_INVALID_ARGUMENT,
               "%s: %s must be a sub-byte dtype (value bits 2, 4 or 6), got %s (%u bits)", op, arg,
               d->name, (unsigned)d->value_bits);
    return TX_OK;
}

/* The bits after the last element pad the last byte and are 0 in the packed form; anything else
 * usually means the shape and the bytes disagree. */
tx_status tx__check_pad_bits(const char *op, tx_dtype dtype, int64_t numel, const uint8_t *data,
                             size_t nbytes) {
    const unsigned bits = tx__dtype(dtype)->value_bits;
    const unsigned used = (unsigned)((size_t)(numel % GROUP) * bits % 8);
    const uint8_t last = nbytes ? data[nbytes - 1] : 0;
    TX_REQUIRE(used == 0 || (last >> used) == 0, TX_INVALID_ARGUMENT,
               "%s: the bits above bit %u of the last byte (byte %zu, 0x%02x) pad %lld elements of "
               "%u bits and must be 0", op, used - 1, nbytes - 1, (unsigned)last, (long long)numel,
               bits);
    return TX_OK;
}

tx_status tx__packed_layout(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                            size_t nbytes, int64_t *numel) {
    TX_TRY(tx__check_packable(op, "dtype", dtype));
    TX_TRY(tx__check_output(op, dtype, rank, dims, numel));
    const unsigned bits = tx__dtype(dtype)->value_bits;
    const size_t need = tx__packed_size(bits, *numel);
    TX_REQUIRE(nbytes == need, TX_INVALID_ARGUMENT,
               "%s: nbytes is %zu, %lld %s elements packed at %u bits need %zu (ceil(%lld * %u / 8))",
               op, nbytes, (long long)*numel, tx_dtype_name(dtype), bits, need, (long long)*numel,
               bits);
    return TX_OK;
}

tx_status tx__from_packed(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                          const void *data, size_t nbytes, tx_tensor **out) {
    *out = NULL;
    int64_t numel = 0;
    TX_TRY(tx__packed_layout(op, dtype, rank, dims, nbytes, &numel));
    TX_REQUIRE(nbytes == 0 || data != NULL, TX_INVALID_ARGUMENT, "%s: data is NULL", op);
    TX_TRY(tx__check_pad_bits(op, dtype, numel, data, nbytes));
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, dtype, rank, dims, &t));
    tx__unpack_bits(dtype, numel, data, (uint8_t *)t->data);
    *out = t;
    return TX_OK;
}

static tx_status pack_into(const char *op, const tx_tensor *t, void *buf, size_t cap,
                           size_t *written) {
    TX_REQUIRE(written != NULL, TX_INVALID_ARGUMENT, "%s: written is NULL", op);
    *written = 0;
    TX_REQUIRE_TENSOR(op, t, "t");
    TX_TRY(tx__check_packable(op, "t", t->dtype));
    const size_t need = tx__packed_size(tx__dtype(t->dtype)->value_bits, t->numel);
    if (buf == NULL && cap == 0) { /* size query */
        *written = need;
        return TX_OK;
    }
    TX_REQUIRE(buf != NULL, TX_INVALID_ARGUMENT, "%s: buf is NULL but cap is %zu", op, cap);
    TX_REQUIRE(cap >= need, TX_INVALID_ARGUMENT, "%s: cap is %zu, the packed form needs %zu bytes",
               op, cap, need);
    tx__pack_bits(t->dtype, t->numel, (const uint8_t *)t->data, buf);
    *written = need;
    return TX_OK;
}

/* ---- public API ---- */

tx_status tx_tensor_from_packed(tx_dtype dtype, size_t rank, const int64_t *dims, const void *data,
                                size_t nbytes, tx_tensor **out) {
    TX_REQUIRE_OUT("tensor_from_packed", out);
    return tx__from_packed("tensor_from_packed", dtype, rank, dims, data, nbytes, out);
}

tx_status tx_tensor_pack(const tx_tensor *t, void *buf, size_t cap, size_t *written) {
    return pack_into("tensor_pack", t, buf, cap, written);
}

/* The 0.2 int4 forms: the same rules, for int4 and uint4 only. */
tx_status tx_tensor_from_packed_int4(tx_dtype dtype, size_t rank, const int64_t *dims,
                                     const void *data, size_t nbytes, tx_tensor **out) {
    static const char *op = "tensor_from_packed_int4";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(dtype == TX_INT4 || dtype == TX_UINT4, TX_INVALID_ARGUMENT,
               "%s: dtype must be int4 or uint4, got %s", op, tx_dtype_name(dtype));
    return tx__from_packed(op, dtype, rank, dims, data, nbytes, out);
}

tx_status tx_tensor_pack_int4(const tx_tensor *t, void *buf, size_t cap, size_t *written) {
    static const char *op = "tensor_pack_int4";
    TX_REQUIRE(written != NULL, TX_INVALID_ARGUMENT, "%s: written is NULL", op);
    *written = 0;
    TX_REQUIRE_TENSOR(op, t, "t");
    TX_REQUIRE(t->dtype == TX_INT4 || t->dtype == TX_UINT4, TX_INVALID_ARGUMENT,
               "%s: t must be int4 or uint4, got %s", op, tx_dtype_name(t->dtype));
    return pack_into(op, t, buf, cap, written);
}
