/* SPDX-License-Identifier: Apache-2.0 */
/* cast.c -- the portable cast kernels: one loop per (from, to) pair of numeric dtypes, generated
 * by expanding the dtype list twice, and the table tx__cast_kernel() reads.  Serves tf.cast,
 * tf.saturate_cast and the to_* ops (src/ops/cast.c).  Each loop applies the scalar rule of
 * convert.h; quantized dtypes use the loops of their integer storage, as TF's Cast kernel does
 * (it bitcasts qint8 to int8 and so on).  A pair of equal dtypes is a plain copy, so no NaN payload
 * or stray bool byte is ever rewritten by an identity cast. */
#include "kernels/scalar/convert.h"
#include "kernels/cast.h"

/* The conversion rules, one set per rules tag of dtypes.def (its last column): how a value is
 * read from and written to each kind of storage.  The storage C types come from dtypes.def. */

/* How a source element is read: its value and its kind (I integer, F real floating, C complex).
 * A bool byte other than 0 reads as true. */
#define LD_BOOL(x) ((x) != 0)
#define LD_INT8(x) (x)
#define LD_UINT8(x) (x)
#define LD_INT16(x) (x)
#define LD_UINT16(x) (x)
#define LD_INT32(x) (x)
#define LD_UINT32(x) (x)
#define LD_INT64(x) (x)
#define LD_UINT64(x) (x)
#define LD_FLOAT16(x) tx__f16_to_f32(x)
#define LD_BFLOAT16(x) tx__bf16_to_f32(x)
#define LD_FLOAT32(x) (x)
#define LD_FLOAT64(x) (x)
#define LD_COMPLEX64(x) (x)
#define LD_COMPLEX128(x) (x)
#define LD_FLOAT8_E5M2(x) tx__e5m2_to_f32(x)
#define LD_FLOAT8_E4M3FN(x) tx__e4m3fn_to_f32(x)
/* Only the low nibble is the value (sign-extended for int4); the upper bits are ignored. */
#define LD_INT4(x) tx__i4_value((uint8_t)(x))
#define LD_UINT4(x) tx__u4_value((uint8_t)(x))
#define LD_INT2(x) tx__i2_value((uint8_t)(x))
#define LD_UINT2(x) tx__u2_value((uint8_t)(x))
#define LD_FLOAT8_E4M3FNUZ(x) tx__fnuz_to_f32(x, TX__E4M3FNUZ)
#define LD_FLOAT8_E4M3B11FNUZ(x) tx__fnuz_to_f32(x, TX__E4M3B11FNUZ)
#define LD_FLOAT8_E5M2FNUZ(x) tx__fnuz_to_f32(x, TX__E5M2FNUZ)
#define LD_FLOAT4_E2M1FN(x) tx__mx_to_f32(x, TX__E2M1FN)
#define LD_FLOAT6_E2M3FN(x) tx__mx_to_f32(x, TX__E2M3FN)
#define LD_FLOAT6_E3M2FN(x) tx__mx_to_f32(x, TX__E3M2FN)
#define LD_FLOAT8_E8M0FNU(x) tx__e8m0_to_f32(x)

#define KIND_BOOL I
#define KIND_INT8 I
#define KIND_UINT8 I
#define KIND_INT16 I
#define KIND_UINT16 I
#define KIND_INT32 I
#define KIND_UINT32 I
#define KIND_INT64 I
#define KIND_UINT64 I
#define KIND_FLOAT16 F
#define KIND_BFLOAT16 F
#define KIND_FLOAT32 F
#define KIND_FLOAT64 F
#define KIND_COMPLEX64 C
#define KIND_COMPLEX128 C
#define KIND_FLOAT8_E5M2 F
#define KIND_FLOAT8_E4M3FN F
#define KIND_INT4 I
#define KIND_UINT4 I
#define KIND_INT2 I
#define KIND_UINT2 I
#define KIND_FLOAT8_E4M3FNUZ F
#define KIND_FLOAT8_E4M3B11FNUZ F
#define KIND_FLOAT8_E5M2FNUZ F
#define KIND_FLOAT4_E2M1FN F
#define KIND_FLOAT6_E2M3FN F
#define KIND_FLOAT6_E3M2FN F
#define KIND_FLOAT8_E8M0FNU F

/* ---- integer values -> each target ---- */
#define CV_I_BOOL(v) ((uint8_t)((v) != 0))
#define CV_I_INT8(v) ((int8_t)(v))
#define CV_I_UINT8(v) ((uint8_t)(v))
#define CV_I_INT16(v) ((int16_t)(v))
#define CV_I_UINT16(v) ((uint16_t)(v))
#define CV_I_INT32(v) ((int32_t)(v))
#define CV_I_UINT32(v) ((uint32_t)(v))
#define CV_I_INT64(v) ((int64_t)(v))
#define CV_I_UINT64(v) ((uint64_t)(v))
#define CV_I_FLOAT16(v) tx__f32_to_f16((float)(v))
#define CV_I_BFLOAT16(v) tx__f32_to_bf16((float)(v))
#define CV_I_FLOAT32(v) ((float)(v))
#define CV_I_FLOAT64(v) ((double)(v))
#define CV_I_COMPLEX64(v) ((tx__c64){(float)(v), 0.0f})
#define CV_I_COMPLEX128(v) ((tx__c128){(double)(v), 0.0})
#define CV_I_FLOAT8_E5M2(v) tx__f64_to_e5m2((float)(v)) /* ml_dtypes: integers through float */
#define CV_I_FLOAT8_E4M3FN(v) tx__f64_to_e4m3fn((float)(v))
#define CV_I_INT4(v) tx__wrap_i4((uint64_t)(v))
#define CV_I_UINT4(v) tx__wrap_u4((uint64_t)(v))
#define CV_I_INT2(v) tx__wrap_i2((uint64_t)(v))
#define CV_I_UINT2(v) tx__wrap_u2((uint64_t)(v))
#define CV_I_FLOAT8_E4M3FNUZ(v) tx__f64_to_fnuz((float)(v), TX__E4M3FNUZ)
#define CV_I_FLOAT8_E4M3B11FNUZ(v) tx__f64_to_fnuz((float)(v), TX__E4M3B11FNUZ)
#define CV_I_FLOAT8_E5M2FNUZ(v) tx__f64_to_fnuz((float)(v), TX__E5M2FNUZ)
#define CV_I_FLOAT4_E2M1FN(v) tx__f64_to_mx((float)(v), TX__E2M1FN)
#define CV_I_FLOAT6_E2M3FN(v) tx__f64_to_mx((float)(v), TX__E2M3FN)
#define CV_I_FLOAT6_E3M2FN(v) tx__f64_to_mx((float)(v), TX__E3M2FN)
#define CV_I_FLOAT8_E8M0FNU(v) tx__f64_to_e8m0((float)(v))

/* ---- real floating values (float or double) -> each target ---- */
#define CV_F_BOOL(v) ((uint8_t)((v) != 0))
#define CV_F_INT8(v) ((int8_t)tx__cvtt_i32(v))
#define CV_F_UINT8(v) ((uint8_t)tx__cvtt_i32(v))
#define CV_F_INT16(v) ((int16_t)tx__cvtt_i32(v))
#define CV_F_UINT16(v) ((uint16_t)tx__cvtt_i32(v))
#define CV_F_INT32(v) (tx__cvtt_i32(v))
#define CV_F_UINT32(v) ((uint32_t)tx__cvtt_i64(v))
#define CV_F_INT64(v) (tx__cvtt_i64(v))
#define CV_F_UINT64(v) (tx__cvtt_u64(v))
#define CV_F_FLOAT16(v) tx__f32_to_f16((float)(v))
#define CV_F_BFLOAT16(v) tx__f32_to_bf16((float)(v))
#define CV_F_FLOAT32(v) ((float)(v))
#define CV_F_FLOAT64(v) ((double)(v))
#define CV_F_COMPLEX64(v) ((tx__c64){(float)(v), 0.0f})
#define CV_F_COMPLEX128(v) ((tx__c128){(double)(v), 0.0})
#define CV_F_FLOAT8_E5M2(v) tx__f64_to_e5m2(v) /* rounded once, from the exact value */
#define CV_F_FLOAT8_E4M3FN(v) tx__f64_to_e4m3fn(v)
#define CV_F_INT4(v) tx__wrap_i4((uint64_t)(int64_t)tx__cvtt_i32(v)) /* as float -> int8, wrapped */
#define CV_F_UINT4(v) tx__wrap_u4((uint64_t)(int64_t)tx__cvtt_i32(v))
#define CV_F_INT2(v) tx__wrap_i2((uint64_t)(int64_t)tx__cvtt_i32(v))
#define CV_F_UINT2(v) tx__wrap_u2((uint64_t)(int64_t)tx__cvtt_i32(v))
#define CV_F_FLOAT8_E4M3FNUZ(v) tx__f64_to_fnuz(v, TX__E4M3FNUZ)
#define CV_F_FLOAT8_E4M3B11FNUZ(v) tx__f64_to_fnuz(v, TX__E4M3B11FNUZ)
#define CV_F_FLOAT8_E5M2FNUZ(v) tx__f64_to_fnuz(v, TX__E5M2FNUZ)
#define CV_F_FLOAT4_E2M1FN(v) tx__f64_to_mx(v, TX__E2M1FN)
#define CV_F_FLOAT6_E2M3FN(v) tx__f64_to_mx(v, TX__E2M3FN)
#define CV_F_FLOAT6_E3M2FN(v) tx__f64_to_mx(v, TX__E3M2FN)
#define CV_F_FLOAT8_E8M0FNU(v) tx__f64_to_e8m0(v)

/* ---- complex values: the real part, except into complex ---- */
#define CV_C_BOOL(c) CV_F_BOOL((c).re)
#define CV_C_INT8(c) CV_F_INT8((c).re)
#define CV_C_UINT8(c) CV_F_UINT8((c).re)
#define CV_C_INT16(c) CV_F_INT16((c).re)
#define CV_C_UINT16(c) CV_F_UINT16((c).re)
#define CV_C_INT32(c) CV_F_INT32((c).re)
#define CV_C_UINT32(c) CV_F_UINT32((c).re)
#define CV_C_INT64(c) CV_F_INT64((c).re)
#define CV_C_UINT64(c) CV_F_UINT64((c).re)
#define CV_C_FLOAT16(c) CV_F_FLOAT16((c).re)
#define CV_C_BFLOAT16(c) CV_F_BFLOAT16((c).re)
#define CV_C_FLOAT32(c) CV_F_FLOAT32((c).re)
#define CV_C_FLOAT64(c) CV_F_FLOAT64((c).re)
#define CV_C_COMPLEX64(c) ((tx__c64){(float)(c).re, (float)(c).im})
#define CV_C_COMPLEX128(c) ((tx__c128){(double)(c).re, (double)(c).im})
#define CV_C_FLOAT8_E5M2(c) CV_F_FLOAT8_E5M2((c).re)
#define CV_C_FLOAT8_E4M3FN(c) CV_F_FLOAT8_E4M3FN((c).re)
#define CV_C_INT4(c) CV_F_INT4((c).re)
#define CV_C_UINT4(c) CV_F_UINT4((c).re)
#define CV_C_INT2(c) CV_F_INT2((c).re)
#define CV_C_UINT2(c) CV_F_UINT2((c).re)
#define CV_C_FLOAT8_E4M3FNUZ(c) CV_F_FLOAT8_E4M3FNUZ((c).re)
#define CV_C_FLOAT8_E4M3B11FNUZ(c) CV_F_FLOAT8_E4M3B11FNUZ((c).re)
#define CV_C_FLOAT8_E5M2FNUZ(c) CV_F_FLOAT8_E5M2FNUZ((c).re)
#define CV_C_FLOAT4_E2M1FN(c) CV_F_FLOAT4_E2M1FN((c).re)
#define CV_C_FLOAT6_E2M3FN(c) CV_F_FLOAT6_E2M3FN((c).re)
#define CV_C_FLOAT6_E3M2FN(c) CV_F_FLOAT6_E3M2FN((c).re)
#define CV_C_FLOAT8_E8M0FNU(c) CV_F_FLOAT8_E8M0FNU((c).re)

#define CONV(K, D, v) CONV_(K, D, v)
#define CONV_(K, D, v) CV_##K##_##D(v)

/* Every (source, target) pair of castable dtypes, generated from dtypes.def by expanding its list
 * once per source: F(S, source C type, source rules, D, target C type, target rules).  A macro
 * cannot expand inside itself, so a row leaves "DTYPES_IF_<kind> ()" behind, which names the
 * list only when EXPAND rescans the finished outer expansion; string (no numeric cast) names
 * EAT instead, as a source and as a target. */
#define EXPAND(...) __VA_ARGS__
#define UNPACK(...) __VA_ARGS__
#define EMPTY()
#define EAT(...)
#define DTYPES_IF_BOOL() TX__DTYPES
#define DTYPES_IF_SIGNED() TX__DTYPES
#define DTYPES_IF_UNSIGNED() TX__DTYPES
#define DTYPES_IF_FLOAT() TX__DTYPES
#define DTYPES_IF_COMPLEX() TX__DTYPES
#define DTYPES_IF_QUANTIZED() TX__DTYPES
#define DTYPES_IF_STRING() EAT
#define CELL_IF_BOOL(...) PAIR_CALL(__VA_ARGS__)
#define CELL_IF_SIGNED(...) PAIR_CALL(__VA_ARGS__)
#define CELL_IF_UNSIGNED(...) PAIR_CALL(__VA_ARGS__)
#define CELL_IF_FLOAT(...) PAIR_CALL(__VA_ARGS__)
#define CELL_IF_COMPLEX(...) PAIR_CALL(__VA_ARGS__)
#define CELL_IF_QUANTIZED(...) PAIR_CALL(__VA_ARGS__)
#define CELL_IF_STRING(...)
#define PAIR_CALL(F, S, cs, rs, D, cd, rd) F(S, cs, rs, D, cd, rd)
#define PAIR_CELL(src, D, name, cd, size, kind, descr, rd, ...)                                  \
    CELL_IF_##kind(UNPACK src, D, cd, rd)
#define PAIR_ROW(F, S, name, cs, size, kind, descr, rs, ...)                                     \
    DTYPES_IF_##kind EMPTY() ()(PAIR_CELL, (F, S, cs, rs))
#define PAIRS(F) EXPAND(TX__DTYPES(PAIR_ROW, F))

/* No restrict: a prepared cast between dtypes of one size may run in place (dst == src), and each
 * d[i] is written after s[i] is read (the compilers vectorize these loops all the same, behind an
 * overlap check). */
#define DEFINE_CAST(S, cs, rs, D, cd, rd)                                                        \
    static void cast_##S##_##D(void *dst, const void *src, int64_t n) {                          \
        const cs *s = (const cs *)src;                                                           \
        cd *d = (cd *)dst;                                                                       \
        for (int64_t i = 0; i < n; i++) d[i] = CONV(KIND_##rs, rd, LD_##rs(s[i]));               \
    }
PAIRS(DEFINE_CAST)
#undef DEFINE_CAST

#define ENTRY(S, cs, rs, D, cd, rd) [TX_##S][TX_##D] = cast_##S##_##D,
static const tx__cast_fn table[TX__CAST_IDS][TX__CAST_IDS] = {PAIRS(ENTRY)};
#undef ENTRY

/* Identity casts are copies, by element width (memmove: in place, dst is src). */
#define DEFINE_COPY(W)                                                                           \
    static void copy_w##W(void *dst, const void *src, int64_t n) {                               \
        if (n > 0) memmove(dst, src, (size_t)n * W);                                             \
    }
DEFINE_COPY(1)
DEFINE_COPY(2)
DEFINE_COPY(4)
DEFINE_COPY(8)
DEFINE_COPY(16)
#undef DEFINE_COPY

/* float16 -> float8_e5m2 keeps the top of a NaN's payload, as ml_dtypes and TF 2.21 do
 * (convert.h); float8_e5m2 -> float16 goes through float32 like every other pair (TF 2.21 decides:
 * every e5m2 NaN becomes sign|0x7e00, where ml_dtypes' shift would keep its payload). */
static void cast_f16_e5m2(void *dst, const void *src, int64_t n) {
    const uint16_t *restrict s = (const uint16_t *)src;
    uint8_t *restrict d = (uint8_t *)dst;
    for (int64_t i = 0; i < n; i++) d[i] = tx__f16_to_e5m2(s[i]);
}

tx__cast_fn tx__cast_kernel(tx_dtype from, tx_dtype to) {
    if ((unsigned)from >= TX__CAST_IDS || (unsigned)to >= TX__CAST_IDS) return NULL;
    if (from == TX_FLOAT16 && to == TX_FLOAT8_E5M2) return cast_f16_e5m2;
    tx__cast_fn fn = table[from][to];
    if (fn == NULL || from != to) return fn;
    switch (tx_dtype_size(from)) {
    case 1: return copy_w1;
    case 2: return copy_w2;
    case 4: return copy_w4;
    case 8: return copy_w8;
    default: return copy_w16;
    }
}

/* The portable kernels of the hot pairs (kernels/cast.inc): the loops above under the list's
 * names. */
void tx__cast_f32_f16_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT32_FLOAT16(dst, src, n);
}
void tx__cast_f16_f32_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT16_FLOAT32(dst, src, n);
}
void tx__cast_f32_bf16_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT32_BFLOAT16(dst, src, n);
}
void tx__cast_bf16_f32_scalar(void *dst, const void *src, int64_t n) {
    cast_BFLOAT16_FLOAT32(dst, src, n);
}
void tx__cast_f32_i32_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT32_INT32(dst, src, n);
}
void tx__cast_i32_f32_scalar(void *dst, const void *src, int64_t n) {
    cast_INT32_FLOAT32(dst, src, n);
}
void tx__cast_f64_f32_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT64_FLOAT32(dst, src, n);
}
void tx__cast_u8_f32_scalar(void *dst, const void *src, int64_t n) {
    cast_UINT8_FLOAT32(dst, src, n);
}
void tx__cast_f32_e4m3fn_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT32_FLOAT8_E4M3FN(dst, src, n);
}
void tx__cast_f32_e2m1fn_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT32_FLOAT4_E2M1FN(dst, src, n);
}
void tx__cast_f32_e8m0_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT32_FLOAT8_E8M0FNU(dst, src, n);
}
void tx__cast_e4m3fn_f32_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT8_E4M3FN_FLOAT32(dst, src, n);
}
void tx__cast_e2m1fn_f32_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT4_E2M1FN_FLOAT32(dst, src, n);
}
void tx__cast_e8m0_f32_scalar(void *dst, const void *src, int64_t n) {
    cast_FLOAT8_E8M0FNU_FLOAT32(dst, src, n);
}
