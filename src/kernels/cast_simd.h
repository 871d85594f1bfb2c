/* SPDX-License-Identifier: Apache-2.0 */
/* cast_simd.h -- the hot cast pairs of tf.cast / tf.saturate_cast and the byte-reversing copies of
 * tf.io.decode_raw, as per-level kernel tables that the CPU dispatch (src/dispatch/) installs:
 * the portable kernels of src/kernels/scalar/cast*.c, then the AVX2 (+F16C) ones of
 * src/kernels/x86/avx2/cast.c and the AVX-512 ones of src/kernels/x86/avx512/cast.c.  Every entry
 * gives exactly the bits of the scalar rules in scalar/convert.h (the SIMD kernels fix up the lanes
 * where an instruction's result differs, e.g. F16C's NaN payloads), reads and writes nothing
 * outside [src, src + n) and [dst, dst + n), and takes pointers of any alignment (the SIMD
 * kernels load and store unaligned and do their scalar heads and tails through memcpy). */
#ifndef TX_KERNELS_CAST_SIMD_H
#define TX_KERNELS_CAST_SIMD_H

#include "kernels/scalar/convert.h"

/* The pairs with a SIMD kernel.  TX__CP_SAT_F32_U8 is tf.saturate_cast float32 -> uint8 in one
 * pass (clamp to [0, 255] as TF's clip does, NaN passing through, then the cast). */
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
    TX__CP_COUNT
} tx__cast_pair;

/* Element widths of the byte-reversing copies: 2, 4, 8 bytes -> 0, 1, 2. */
#define TX__SWAP_WIDTHS 3

/* One level's kernels.  The *_nt entries use streaming (non-temporal) stores where the level has
 * them: for outputs too large to stay in the caches, where they save the read-for-ownership of
 * every destination line.  They give the same bits as the plain entries. */
typedef struct tx__cast_simd {
    tx__cast_fn cast[TX__CP_COUNT];
    tx__cast_fn cast_nt[TX__CP_COUNT];
    tx__cast_fn swap[TX__SWAP_WIDTHS];    /* dst = src with each element's bytes reversed */
    tx__cast_fn swap_nt[TX__SWAP_WIDTHS];
} tx__cast_simd;


/* The plain-cast pair for (from, to), quantized types as their storage; -1 if it has no entry. */
static inline int tx__cast_pair_of(tx_dtype from, tx_dtype to) {
    if (from == TX_QINT32) from = TX_INT32;
    if (from == TX_QUINT8) from = TX_UINT8;
    if (to == TX_QINT32) to = TX_INT32;
    switch (from) {
    case TX_FLOAT32:
        return to == TX_FLOAT16 ? TX__CP_F32_F16 : to == TX_BFLOAT16 ? TX__CP_F32_BF16
             : to == TX_INT32   ? TX__CP_F32_I32 : -1;
    case TX_FLOAT16: return to == TX_FLOAT32 ? TX__CP_F16_F32 : -1;
    case TX_BFLOAT16: return to == TX_FLOAT32 ? TX__CP_BF16_F32 : -1;
    case TX_INT32: return to == TX_FLOAT32 ? TX__CP_I32_F32 : -1;
    case TX_FLOAT64: return to == TX_FLOAT32 ? TX__CP_F64_F32 : -1;
    case TX_UINT8: return to == TX_FLOAT32 ? TX__CP_U8_F32 : -1;
    default: return -1;
    }
}

/* Index of a swap width (2, 4, 8) in tx__cast_simd.swap; -1 otherwise. */
static inline int tx__swap_index(size_t width) {
    return width == 2 ? 0 : width == 4 ? 1 : width == 8 ? 2 : -1;
}

/* The tables: scalar (src/kernels/scalar/cast.c) always; the x86 ones only in builds with
 * TX_HAVE_X86_SIMD, to be used only when the CPU has the level. */
TX_HIDDEN extern const tx__cast_simd tx__cast_simd_scalar;
#ifdef TX_HAVE_X86_SIMD
TX_HIDDEN extern const tx__cast_simd tx__cast_simd_avx2;
TX_HIDDEN extern const tx__cast_simd tx__cast_simd_avx512;
#endif

/* saturate_cast float32 -> uint8 of one value: saturate_cast's clamp to [0, 255] (TF's
 * clip_by_value: min(v, hi) then max(., lo), with the comparisons letting NaN through), then the
 * float -> uint8 rule (NaN converts through INT32_MIN to 0). */
static inline uint8_t tx__saturate_f32_u8_one(float v) {
    v = 255.0f < v ? 255.0f : v;
    v = v < 0.0f ? 0.0f : v;
    return (uint8_t)tx__cvtt_i32(v);
}

/* The portable saturate_cast float32 -> uint8 and byte-reversing copies (the scalar entries,
 * also the SIMD kernels' tails).  The swaps take pointers of any alignment. */
TX_HIDDEN void tx__saturate_f32_u8_scalar(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap2_scalar(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap4_scalar(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap8_scalar(void *dst, const void *src, int64_t n);

#ifdef TX_HAVE_X86_SIMD
/* src/kernels/x86/{avx2,avx512}/byteswap.c */
TX_HIDDEN void tx__swap2_avx2(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap4_avx2(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap8_avx2(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap2_avx2_nt(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap4_avx2_nt(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap8_avx2_nt(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap2_avx512(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap4_avx512(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap8_avx512(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap2_avx512_nt(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap4_avx512_nt(void *dst, const void *src, int64_t n);
TX_HIDDEN void tx__swap8_avx512_nt(void *dst, const void *src, int64_t n);
#endif

#endif
