/* SPDX-License-Identifier: Apache-2.0 */
/* cast_clamp.c -- the clamping loops of tf.saturate_cast (src/ops/cast.c): each real dtype is
 * clamped in place to [lo, hi] before the ordinary cast kernel runs.  The comparisons are
 * std::min(v, hi) then std::max(., lo), as in TF's ClipByValue, so a NaN element stays NaN. */
#include "kernels/scalar/convert.h"
#include "kernels/cast.h"

#define CLAMP_INT(T, lo_, hi_)                                                                   \
    do {                                                                                         \
        T *p = (T *)data, lo = (T)(lo_), hi = (T)(hi_);                                          \
        for (int64_t i = 0; i < n; i++) {                                                        \
            T v = p[i];                                                                          \
            v = hi < v ? hi : v;                                                                 \
            p[i] = v < lo ? lo : v;                                                              \
        }                                                                                        \
    } while (0)

#define CLAMP_FLOAT(T)                                                                           \
    do {                                                                                         \
        T *p = (T *)data, lo = (T)b->flo, hi = (T)b->fhi;                                        \
        for (int64_t i = 0; i < n; i++) {                                                        \
            T v = p[i];                                                                          \
            v = hi < v ? hi : v;                                                                 \
            p[i] = v < lo ? lo : v;                                                              \
        }                                                                                        \
    } while (0)

/* int4 / uint4 / int2 / uint2: the value of each byte's low bits; a clamped byte gets the bound's
 * low bits. */
#define CLAMP_SUBBYTE(VALUE, WRAP)                                                               \
    do {                                                                                         \
        uint8_t *p = (uint8_t *)data;                                                            \
        for (int64_t i = 0; i < n; i++) {                                                        \
            int v = VALUE(p[i]);                                                                 \
            if ((int64_t)v > (int64_t)b->ihi) p[i] = (uint8_t)WRAP((uint64_t)b->ihi);            \
            else if ((int64_t)v < b->ilo) p[i] = (uint8_t)WRAP((uint64_t)b->ilo);                \
        }                                                                                        \
    } while (0)

/* float16 / bfloat16 / float8 / float6 / float4: compare as float, store the bound's bits. */
#define CLAMP_HALF(T, TO_F32, FROM_F32)                                                          \
    do {                                                                                         \
        T *p = (T *)data;                                                                        \
        float lo = (float)b->flo, hi = (float)b->fhi;                                            \
        T lo_bits = FROM_F32(lo), hi_bits = FROM_F32(hi);                                        \
        for (int64_t i = 0; i < n; i++) {                                                        \
            float v = TO_F32(p[i]);                                                              \
            if (hi < v) p[i] = hi_bits;                                                          \
            else if (v < lo) p[i] = lo_bits;                                                     \
        }                                                                                        \
    } while (0)

/* The one-byte formats whose converters take the format's parameters (convert.h). */
#define CLAMP_SMALL(TO_F32, FROM_F64, ...)                                                       \
    do {                                                                                         \
        uint8_t *p = (uint8_t *)data;                                                            \
        float lo = (float)b->flo, hi = (float)b->fhi;                                            \
        uint8_t lo_bits = FROM_F64(lo, __VA_ARGS__), hi_bits = FROM_F64(hi, __VA_ARGS__);        \
        for (int64_t i = 0; i < n; i++) {                                                        \
            float v = TO_F32(p[i], __VA_ARGS__);                                                 \
            if (hi < v) p[i] = hi_bits;                                                          \
            else if (v < lo) p[i] = lo_bits;                                                     \
        }                                                                                        \
    } while (0)

void tx__clamp_real(tx_dtype type, void *data, int64_t n, const tx__clamp_bounds *b) {
    switch (type) {
    case TX_INT8: CLAMP_INT(int8_t, b->ilo, b->ihi); break;
    case TX_UINT8: CLAMP_INT(uint8_t, b->ilo, b->ihi); break;
    case TX_INT4: CLAMP_SUBBYTE(tx__i4_value, tx__wrap_i4); break;
    case TX_UINT4: CLAMP_SUBBYTE(tx__u4_value, tx__wrap_u4); break;
    case TX_INT2: CLAMP_SUBBYTE(tx__i2_value, tx__wrap_i2); break;
    case TX_UINT2: CLAMP_SUBBYTE(tx__u2_value, tx__wrap_u2); break;
    case TX_INT16: CLAMP_INT(int16_t, b->ilo, b->ihi); break;
    case TX_UINT16: CLAMP_INT(uint16_t, b->ilo, b->ihi); break;
    case TX_INT32: CLAMP_INT(int32_t, b->ilo, b->ihi); break;
    case TX_UINT32: CLAMP_INT(uint32_t, b->ilo, b->ihi); break;
    case TX_INT64: CLAMP_INT(int64_t, b->ilo, b->ihi); break;
    case TX_UINT64: CLAMP_INT(uint64_t, b->ilo, b->ihi); break;
    case TX_FLOAT16: CLAMP_HALF(uint16_t, tx__f16_to_f32, tx__f32_to_f16); break;
    case TX_BFLOAT16: CLAMP_HALF(uint16_t, tx__bf16_to_f32, tx__f32_to_bf16); break;
    case TX_FLOAT8_E5M2: CLAMP_HALF(uint8_t, tx__e5m2_to_f32, tx__f64_to_e5m2); break;
    case TX_FLOAT8_E4M3FN: CLAMP_HALF(uint8_t, tx__e4m3fn_to_f32, tx__f64_to_e4m3fn); break;
    case TX_FLOAT8_E4M3FNUZ: CLAMP_SMALL(tx__fnuz_to_f32, tx__f64_to_fnuz, TX__E4M3FNUZ); break;
    case TX_FLOAT8_E4M3B11FNUZ:
        CLAMP_SMALL(tx__fnuz_to_f32, tx__f64_to_fnuz, TX__E4M3B11FNUZ);
        break;
    case TX_FLOAT8_E5M2FNUZ: CLAMP_SMALL(tx__fnuz_to_f32, tx__f64_to_fnuz, TX__E5M2FNUZ); break;
    case TX_FLOAT4_E2M1FN: CLAMP_SMALL(tx__mx_to_f32, tx__f64_to_mx, TX__E2M1FN); break;
    case TX_FLOAT6_E2M3FN: CLAMP_SMALL(tx__mx_to_f32, tx__f64_to_mx, TX__E2M3FN); break;
    case TX_FLOAT6_E3M2FN: CLAMP_SMALL(tx__mx_to_f32, tx__f64_to_mx, TX__E3M2FN); break;
    case TX_FLOAT8_E8M0FNU: CLAMP_HALF(uint8_t, tx__e8m0_to_f32, tx__f64_to_e8m0); break;
    case TX_FLOAT32: CLAMP_FLOAT(float); break;
    case TX_FLOAT64: CLAMP_FLOAT(double); break;
    default: assert(!"tx__clamp_real: not a real dtype"); break;
    }
}

/* saturate_cast float32 -> uint8 in one pass: the clamp above with the bounds [0, 255] that
 * saturate_cast computes for this pair, then the cast (tx__saturate_f32_u8_one). */
void tx__cast_sat_f32_u8_scalar(void *dst, const void *src, int64_t n) {
    const float *s = (const float *)src;
    uint8_t *d = (uint8_t *)dst;
    for (int64_t i = 0; i < n; i++) d[i] = tx__saturate_f32_u8_one(s[i]);
}
