/* SPDX-License-Identifier: Apache-2.0 */
/* cast.h -- the cast family: the hot cast pairs of tf.cast / tf.saturate_cast and the
 * byte-reversing copies of tf.io.decode_raw, one line per kernel in kernels/cast.inc, which the CPU
 * dispatch (src/dispatch/) puts in its tables: the portable kernels of src/kernels/scalar/cast*.c,
 * then the AVX2 (+F16C) ones of src/kernels/x86/avx2/ and the AVX-512 ones of
 * src/kernels/x86/avx512/ (x86-64), or the NEON ones of src/kernels/arm/neon/ (aarch64).  Every
 * kernel gives exactly the bits of the scalar rules in scalar/convert.h (the SIMD kernels fix up
 * the lanes where an instruction's result differs, e.g. F16C's NaN payloads) and reads and writes
 * nothing outside [src, src + n) and [dst, dst + n).  The cast slots take src and dst aligned for
 * their element types (tensor data always are; the portable kernels read and write through typed
 * pointers, the SIMD ones would take any alignment); the byte swaps take any alignment
 * (decode_raw's input is raw bytes). */
#ifndef TX_KERNELS_CAST_H
#define TX_KERNELS_CAST_H

#include <string.h>

#include "kernels/scalar/convert.h"

/* The pairs with a SIMD kernel.  TX__CP_SAT_F32_U8 is tf.saturate_cast float32 -> uint8 in one
 * pass (clamp to [0, 255] as TF's clip does, NaN passing through, then the cast).  The float32 ->
 * float8_e4m3fn / float4_e2m1fn (one per byte) / float8_e8m0fnu pairs quantize to the OCP MX
 * formats (elements and their E8M0 scales), the reverse pairs decode them. */
typedef enum tx__cast_pair {
    TX__CP_F32_F16,
    TX__CP_F16_F32,
    TX__CP_F32_BF16,
    TX__CP_BF16_F32,
    TX__CP_F32_I32,
    TX__CP_I32_F32,
    TX__CP_F64_F32,
    TX__CP_U8_F32,
    TX__CP_SAT_F32_U8,
    TX__CP_F32_E4M3FN,
    TX__CP_F32_E2M1FN,
    TX__CP_F32_E8M0,
    TX__CP_E4M3FN_F32,
    TX__CP_E2M1FN_F32,
    TX__CP_E8M0_F32,
    TX__CP_COUNT
} tx__cast_pair;

/* Element widths of the byte-reversing copies: 2, 4, 8 bytes -> 0, 1, 2. */
#define TX__SWAP_WIDTHS 3

/* The slots (kernels/cast.inc): `cast` converts n elements of a pair (dst = the pair's rule applied
 * to src), `byteswap` copies n elements of 2, 4 or 8 bytes with each element's bytes reversed
 * (dst may be src: exec/byteswap.h swaps whole buffers in place with it).
 * The `_stream` slots give the same bits with streaming (non-temporal) stores where the level has
 * them: for outputs too large to stay in the caches, where they save the read-for-ownership of
 * every destination line. */
typedef void tx__cast_ft(void *dst, const void *src, int64_t n);
typedef tx__cast_ft tx__cast_stream_ft;
typedef tx__cast_ft tx__byteswap_ft;
typedef tx__cast_ft tx__byteswap_stream_ft;

/* The plain-cast pair for (from, to), quantized types as their storage; -1 if it has no entry. */
static inline int tx__cast_pair_of(tx_dtype from, tx_dtype to) {
    if (from == TX_QINT32) from = TX_INT32;
    if (from == TX_QUINT8) from = TX_UINT8;
    if (to == TX_QINT32) to = TX_INT32;
    switch (from) {
    case TX_FLOAT32:
        return to == TX_FLOAT16 ? TX__CP_F32_F16 : to == TX_BFLOAT16 ? TX__CP_F32_BF16
             : to == TX_INT32   ? TX__CP_F32_I32 : to == TX_FLOAT8_E4M3FN ? TX__CP_F32_E4M3FN
             : to == TX_FLOAT4_E2M1FN ? TX__CP_F32_E2M1FN : to == TX_FLOAT8_E8M0FNU ? TX__CP_F32_E8M0
             : -1;
    case TX_FLOAT16: return to == TX_FLOAT32 ? TX__CP_F16_F32 : -1;
    case TX_BFLOAT16: return to == TX_FLOAT32 ? TX__CP_BF16_F32 : -1;
    case TX_INT32: return to == TX_FLOAT32 ? TX__CP_I32_F32 : -1;
    case TX_FLOAT64: return to == TX_FLOAT32 ? TX__CP_F64_F32 : -1;
    case TX_UINT8: return to == TX_FLOAT32 ? TX__CP_U8_F32 : -1;
    case TX_FLOAT8_E4M3FN: return to == TX_FLOAT32 ? TX__CP_E4M3FN_F32 : -1;
    case TX_FLOAT4_E2M1FN: return to == TX_FLOAT32 ? TX__CP_E2M1FN_F32 : -1;
    case TX_FLOAT8_E8M0FNU: return to == TX_FLOAT32 ? TX__CP_E8M0_F32 : -1;
    default: return -1;
    }
}

/* Index of a swap width (2, 4, 8) in the byteswap slots; -1 otherwise. */
static inline int tx__swap_index(size_t width) {
    return width == 2 ? 0 : width == 4 ? 1 : width == 8 ? 2 : -1;
}

/* saturate_cast float32 -> uint8 of one value: saturate_cast's clamp to [0, 255] (TF's
 * clip_by_value: min(v, hi) then max(., lo), with the comparisons letting NaN through), then the
 * float -> uint8 rule (NaN converts through INT32_MIN to 0). */
static inline uint8_t tx__saturate_f32_u8_one(float v) {
    v = 255.0f < v ? 255.0f : v;
    v = v < 0.0f ? 0.0f : v;
    return (uint8_t)tx__cvtt_i32(v);
}

/* One element of each pair by the rules of scalar/convert.h, through memcpy (any alignment):
 * the SIMD kernels' heads and tails, and the reference the kernel tests compare with. */
#define TX__CAST_ONE(NAME, TIN, TOUT, EXPR)                                                      \
    static inline void tx__cast_one_##NAME(void *d, const void *s) {                             \
        TIN x;                                                                                   \
        memcpy(&x, s, sizeof x);                                                                 \
        TOUT y = EXPR;                                                                           \
        memcpy(d, &y, sizeof y);                                                                 \
    }
TX__CAST_ONE(f32_f16, float, uint16_t, tx__f32_to_f16(x))
TX__CAST_ONE(f16_f32, uint16_t, float, tx__f16_to_f32(x))
TX__CAST_ONE(f32_bf16, float, uint16_t, tx__f32_to_bf16(x))
TX__CAST_ONE(bf16_f32, uint16_t, float, tx__bf16_to_f32(x))
TX__CAST_ONE(f32_i32, float, int32_t, tx__cvtt_i32(x))
TX__CAST_ONE(i32_f32, int32_t, float, (float)x)
TX__CAST_ONE(f64_f32, double, float, (float)x)
TX__CAST_ONE(u8_f32, uint8_t, float, (float)x)
TX__CAST_ONE(sat_f32_u8, float, uint8_t, tx__saturate_f32_u8_one(x))
TX__CAST_ONE(f32_e4m3fn, float, uint8_t, tx__f64_to_e4m3fn(x))
TX__CAST_ONE(f32_e2m1fn, float, uint8_t, tx__f64_to_mx(x, TX__E2M1FN))
TX__CAST_ONE(f32_e8m0, float, uint8_t, tx__f64_to_e8m0(x))
TX__CAST_ONE(e4m3fn_f32, uint8_t, float, tx__e4m3fn_to_f32(x))
TX__CAST_ONE(e2m1fn_f32, uint8_t, float, tx__mx_to_f32(x, TX__E2M1FN))
TX__CAST_ONE(e8m0_f32, uint8_t, float, tx__e8m0_to_f32(x))
#undef TX__CAST_ONE

/* The kernels: one line each in kernels/cast.inc.  The portable saturate_cast and byte swaps are
 * also the SIMD kernels' tails; the swaps take pointers of any alignment. */
#define TX__KERNEL(level, slot, key, fn) TX_HIDDEN tx__##slot##_ft fn;
#include "kernels/cast.inc"
#undef TX__KERNEL

#endif
