/* SPDX-License-Identifier: Apache-2.0 */
/* cast.c (NEON) -- the hot cast pairs of tf.cast / tf.saturate_cast (kernels/cast.h) with Arm64's
 * Advanced SIMD: float32 <-> float16, float32 <-> bfloat16, float32 <-> int32, float64 -> float32,
 * uint8 -> float32, saturate_cast float32 -> uint8 and float32 -> float8_e4m3fn / float4_e2m1fn /
 * float8_e8m0fnu, eight lanes per step (sixteen for the ones to bytes).  Each gives the bits of
 * the scalar rules in scalar/convert.h:
 *  - float32 -> float16 (FCVTN): rounds to nearest even (FPCR's default mode), overflows to
 *    infinity and makes float16 subnormals as the rule does; a NaN is quieted with the top of
 *    its payload kept (sign|0x7e00|payload>>13), the rule's (and TF 2.21's F16C) result.
 *  - float16 -> float32 (FCVTL): exact, subnormals included; a NaN is quieted (bit 22 set), its
 *    payload shifted, as the rule does.
 *  - float32 -> bfloat16: rounded to nearest even in integer lanes with the rule's NaN
 *    (sign|0x7fc0); bfloat16 -> float32 is a shift.  (The BFCVTN instruction is not in the
 *    ARMv8.0 base, and it would keep NaN payloads.)
 *  - float32 -> int32 (FCVTZS): truncates, but saturates out-of-range values and gives 0 for NaN,
 *    where the rule (x86-64's cvttss2si) gives INT32_MIN: the lanes outside [-2^31, 2^31), NaN
 *    included, are set to INT32_MIN.
 *  - int32 -> float32 (SCVTF), float64 -> float32 (FCVTN): round to nearest even like the C
 *    conversions the scalar rules use; a float64 NaN loses the low bits of its payload and is
 *    quieted by the vector and the scalar instruction alike.  uint8 -> float32 is exact.
 *  - saturate_cast float32 -> uint8: FCVTZU truncates, gives 0 for NaN and negative values and
 *    saturates large ones; the saturating narrows then clamp to 255.  That is the rule's
 *    clamp-then-convert for every input (NaN -> 0, -0.0 and -inf -> 0, 255.9 and +inf -> 255).
 * Denormals: Linux runs user code with FPCR.FZ off, so no instruction here flushes them.
 * NEON has no streaming stores worth using (STNP is only a hint), so the cast_stream slots list
 * these same kernels.  Tails run the scalar rules element by element (memcpy: any alignment);
 * nothing outside the buffers is read or written. */
#include <arm_neon.h>
#include <stdint.h>

#include "kernels/cast.h"

/* Loads and stores of 8 or 16 bytes at any alignment: through byte pointers (LD1/ST1 of bytes
 * need no alignment), the lanes reinterpreted, which is the memory order on little-endian
 * aarch64 (cmake/isa.cmake builds this file for no other target). */
static inline uint8x16_t ld16(const void *p) { return vld1q_u8((const uint8_t *)p); }
static inline uint8x8_t ld8(const void *p) { return vld1_u8((const uint8_t *)p); }
static inline void st16(void *p, uint8x16_t v) { vst1q_u8((uint8_t *)p, v); }

/* ---- vector bodies: 8 elements from s to d (16 for the ones to bytes) ---- */

/* float32 -> float16, 4 lanes: FCVTN. */
static inline uint16x4_t f32_f16_4(const void *s) {
    return vreinterpret_u16_f16(vcvt_f16_f32(vreinterpretq_f32_u8(ld16(s))));
}

static inline void v_f32_f16(void *d, const void *s) {
    const char *p = (const char *)s;
    st16(d, vreinterpretq_u8_u16(vcombine_u16(f32_f16_4(p), f32_f16_4(p + 16))));
}

/* float16 -> float32, 4 lanes: FCVTL. */
static inline uint32x4_t f16_f32_4(uint16x4_t h) {
    return vreinterpretq_u32_f32(vcvt_f32_f16(vreinterpret_f16_u16(h)));
}

static inline void v_f16_f32(void *d, const void *s) {
    uint16x8_t h = vreinterpretq_u16_u8(ld16(s));
    char *q = (char *)d;
    st16(q, vreinterpretq_u8_u32(f16_f32_4(vget_low_u16(h))));
    st16(q + 16, vreinterpretq_u8_u32(f16_f32_4(vget_high_u16(h))));
}

/* float32 bits -> bfloat16, 4 lanes: x + 0x7fff + (bit 16 of x), top half; NaN -> sign|0x7fc0. */
static inline uint16x4_t f32_bf16_4(const void *s) {
    uint32x4_t x = vreinterpretq_u32_u8(ld16(s));
    uint32x4_t bias = vaddq_u32(vandq_u32(vshrq_n_u32(x, 16), vdupq_n_u32(1)),
                                vdupq_n_u32(0x7fff));
    uint16x4_t r = vshrn_n_u32(vaddq_u32(x, bias), 16);
    uint16x4_t nan = vmovn_u32(vcgtq_u32(vandq_u32(x, vdupq_n_u32(0x7fffffff)),
                                         vdupq_n_u32(0x7f800000)));
    uint16x4_t qnan = vorr_u16(vand_u16(vshrn_n_u32(x, 16), vdup_n_u16(0x8000)),
                               vdup_n_u16(0x7fc0));
    return vbsl_u16(nan, qnan, r);
}

static inline void v_f32_bf16(void *d, const void *s) {
    const char *p = (const char *)s;
    st16(d, vreinterpretq_u8_u16(vcombine_u16(f32_bf16_4(p), f32_bf16_4(p + 16))));
}

static inline void v_bf16_f32(void *d, const void *s) {
    uint16x8_t h = vreinterpretq_u16_u8(ld16(s));
    char *q = (char *)d;
    st16(q, vreinterpretq_u8_u32(vshll_n_u16(vget_low_u16(h), 16)));
    st16(q + 16, vreinterpretq_u8_u32(vshll_n_u16(vget_high_u16(h), 16)));
}

/* float32 -> int32, 4 lanes: FCVTZS, and INT32_MIN where x is not in [-2^31, 2^31) (NaN fails
 * both comparisons). */
static inline int32x4_t f32_i32_4(const void *s) {
    float32x4_t x = vreinterpretq_f32_u8(ld16(s));
    uint32x4_t in = vandq_u32(vcgeq_f32(x, vdupq_n_f32(-2147483648.0f)),
                              vcltq_f32(x, vdupq_n_f32(2147483648.0f)));
    return vbslq_s32(in, vcvtq_s32_f32(x), vdupq_n_s32(INT32_MIN));
}

static inline void v_f32_i32(void *d, const void *s) {
    const char *p = (const char *)s;
    char *q = (char *)d;
    st16(q, vreinterpretq_u8_s32(f32_i32_4(p)));
    st16(q + 16, vreinterpretq_u8_s32(f32_i32_4(p + 16)));
}

static inline void v_i32_f32(void *d, const void *s) {
    const char *p = (const char *)s;
    char *q = (char *)d;
    st16(q, vreinterpretq_u8_f32(vcvtq_f32_s32(vreinterpretq_s32_u8(ld16(p)))));
    st16(q + 16, vreinterpretq_u8_f32(vcvtq_f32_s32(vreinterpretq_s32_u8(ld16(p + 16)))));
}

/* float64 -> float32, 4 lanes from 32 bytes. */
static inline float32x4_t f64_f32_4(const char *p) {
    float32x2_t lo = vcvt_f32_f64(vreinterpretq_f64_u8(ld16(p)));
    float32x2_t hi = vcvt_f32_f64(vreinterpretq_f64_u8(ld16(p + 16)));
    return vcombine_f32(lo, hi);
}

static inline void v_f64_f32(void *d, const void *s) {
    const char *p = (const char *)s;
    char *q = (char *)d;
    st16(q, vreinterpretq_u8_f32(f64_f32_4(p)));
    st16(q + 16, vreinterpretq_u8_f32(f64_f32_4(p + 32)));
}

static inline void v_u8_f32(void *d, const void *s) {
    uint16x8_t w = vmovl_u8(ld8(s));
    char *q = (char *)d;
    st16(q, vreinterpretq_u8_f32(vcvtq_f32_u32(vmovl_u16(vget_low_u16(w)))));
    st16(q + 16, vreinterpretq_u8_f32(vcvtq_f32_u32(vmovl_u16(vget_high_u16(w)))));
}

/* saturate_cast float32 -> uint8, 8 lanes: FCVTZU (NaN and negatives -> 0), then two saturating
 * narrows (anything above 255 -> 255). */
static inline uint8x8_t sat_8(const char *p) {
    uint16x4_t lo = vqmovn_u32(vcvtq_u32_f32(vreinterpretq_f32_u8(ld16(p))));
    uint16x4_t hi = vqmovn_u32(vcvtq_u32_f32(vreinterpretq_f32_u8(ld16(p + 16))));
    return vqmovn_u16(vcombine_u16(lo, hi));
}

static inline void v_sat_f32_u8(void *d, const void *s) {
    const char *p = (const char *)s;
    st16(d, vcombine_u8(sat_8(p), sat_8(p + 32)));
}

/* float32 -> the OCP MX element formats and their scale, 4 lanes of codes, in integer lanes as
 * the x86 kernels do it (x86/avx2/cast.c explains): the code of |x| rounded to nearest even with
 * `mbits` mantissa bits and exponent `bias`; USHL by a negative count shifts right. */
static inline uint32x4_t mx_code_4(uint32x4_t ax, int mbits, int bias) {
    const int32x4_t one = vdupq_n_s32(1), zero = vdupq_n_s32(0);
    int32x4_t eb = vsubq_s32(vreinterpretq_s32_u32(vshrq_n_u32(ax, 23)), vdupq_n_s32(127 - bias));
    int32x4_t shift = vminq_s32(vaddq_s32(vmaxq_s32(vsubq_s32(one, eb), zero), vdupq_n_s32(23 - mbits)),
                                vdupq_n_s32(31));
    uint32x4_t mant = vorrq_u32(vandq_u32(ax, vdupq_n_u32(0x7fffff)), vdupq_n_u32(0x800000));
    int32x4_t right = vnegq_s32(shift);
    uint32x4_t lsb = vandq_u32(vshlq_u32(mant, right), vdupq_n_u32(1));
    uint32x4_t half_m1 = vsubq_u32(vshlq_u32(vdupq_n_u32(1), vsubq_s32(shift, one)), vdupq_n_u32(1));
    uint32x4_t q = vshlq_u32(vaddq_u32(mant, vaddq_u32(half_m1, lsb)), right);
    uint32x4_t e = vreinterpretq_u32_s32(vmaxq_s32(vsubq_s32(eb, one), zero));
    return vaddq_u32(vshlq_u32(e, vdupq_n_s32(mbits)), q);
}

/* float8_e4m3fn: sign | code, every code past 0x7e (overflow, infinity, NaN) the NaN 0x7f. */
static inline uint32x4_t f32_e4m3fn_4(const char *p) {
    uint32x4_t x = vreinterpretq_u32_u8(ld16(p)), ax = vandq_u32(x, vdupq_n_u32(0x7fffffff));
    uint32x4_t code = vminq_u32(mx_code_4(ax, 3, 7), vdupq_n_u32(0x7f));
    return vorrq_u32(code, vandq_u32(vshrq_n_u32(x, 24), vdupq_n_u32(0x80)));
}

/* float4_e2m1fn: sign (bit 3) | code saturated to 7; NaN the zero of the opposite sign. */
static inline uint32x4_t f32_e2m1fn_4(const char *p) {
    uint32x4_t x = vreinterpretq_u32_u8(ld16(p)), ax = vandq_u32(x, vdupq_n_u32(0x7fffffff));
    uint32x4_t sign = vshlq_n_u32(vshrq_n_u32(x, 31), 3);
    uint32x4_t code = vminq_u32(mx_code_4(ax, 1, 1), vdupq_n_u32(7));
    uint32x4_t nan = vcgtq_u32(ax, vdupq_n_u32(0x7f800000));
    return vbslq_u32(nan, veorq_u32(sign, vdupq_n_u32(8)), vorrq_u32(code, sign));
}

/* float8_e8m0fnu: the biased exponent rounded up from a halfway mantissa; a subnormal is code 1
 * from 0.75 * 2^-126 up; zero, negatives, infinity and NaN are 0xff. */
static inline uint32x4_t f32_e8m0_4(const char *p) {
    int32x4_t x = vreinterpretq_s32_u8(ld16(p));
    uint32x4_t normal = vcgtq_s32(x, vdupq_n_s32(0x7fffff));
    uint32x4_t step = vbslq_u32(normal, vdupq_n_u32(0x400000), vdupq_n_u32(0x200000));
    uint32x4_t code = vshrq_n_u32(vaddq_u32(vreinterpretq_u32_s32(x), step), 23);
    uint32x4_t bad = vorrq_u32(vcltq_s32(x, vdupq_n_s32(1)), vcgtq_s32(x, vdupq_n_s32(0x7f7fffff)));
    return vorrq_u32(code, vandq_u32(bad, vdupq_n_u32(0xff)));
}

/* 16 codes (each 0..255 in a 32-bit lane) narrowed to 16 bytes. */
#define DEFINE_BYTES_16(NAME)                                                                    \
    static inline void v_##NAME(void *d, const void *s) {                                        \
        const char *p = (const char *)s;                                                         \
        uint16x8_t ab = vcombine_u16(vmovn_u32(NAME##_4(p)), vmovn_u32(NAME##_4(p + 16)));       \
        uint16x8_t cd = vcombine_u16(vmovn_u32(NAME##_4(p + 32)), vmovn_u32(NAME##_4(p + 48)));  \
        st16(d, vcombine_u8(vmovn_u16(ab), vmovn_u16(cd)));                                      \
    }
DEFINE_BYTES_16(f32_e4m3fn)
DEFINE_BYTES_16(f32_e2m1fn)
DEFINE_BYTES_16(f32_e8m0)

/* The decodes of the MX formats, 4 bytes (widened to 32-bit lanes) to 4 floats, as the x86
 * kernels do them (x86/avx512/cast.c); TBL is 8-bit, so float4 takes compares and selects. */
static inline uint32x4_t e4m3fn_f32_4(uint32x4_t b) {
    uint32x4_t a = vandq_u32(b, vdupq_n_u32(0x7f));
    uint32x4_t sign = vshlq_n_u32(vshrq_n_u32(b, 7), 31);
    uint32x4_t v = vaddq_u32(vshlq_n_u32(a, 20), vdupq_n_u32(120u << 23));
    uint32x4_t sub = vreinterpretq_u32_f32(vmulq_f32(vcvtq_f32_u32(a), vdupq_n_f32(0x1p-9f)));
    v = vbslq_u32(vcltq_u32(a, vdupq_n_u32(8)), sub, v);
    v = vbslq_u32(vceqq_u32(a, vdupq_n_u32(0x7f)), vdupq_n_u32(0x7fc00000), v);
    return vorrq_u32(v, sign);
}
/* float4_e2m1fn: magnitude m (0..7) is m * 0.5 below 4 (0, 0.5, 1, 1.5), else 2^(m/2 - 1) * (1 +
 * (m & 1) / 2); computed exactly as a float32's fields: exponent 126 + (m >> 1), mantissa bit 22
 * from m & 1, for m >= 2; m = 1 is 0.5 and m = 0 is 0. */
static inline uint32x4_t e2m1fn_f32_4(uint32x4_t b) {
    uint32x4_t m = vandq_u32(b, vdupq_n_u32(7));
    uint32x4_t v = vaddq_u32(vshlq_n_u32(vshrq_n_u32(m, 1), 23),
                             vshlq_n_u32(vandq_u32(m, vdupq_n_u32(1)), 22));
    v = vaddq_u32(v, vdupq_n_u32(126u << 23));
    v = vbslq_u32(vceqq_u32(m, vdupq_n_u32(1)), vdupq_n_u32(0x3f000000), v);
    v = vbslq_u32(vceqq_u32(m, vdupq_n_u32(0)), vdupq_n_u32(0), v);
    return vorrq_u32(v, vandq_u32(vcgtq_u32(b, vdupq_n_u32(7)), vdupq_n_u32(0x80000000u)));
}
static inline uint32x4_t e8m0_f32_4(uint32x4_t b) {
    uint32x4_t v = vshlq_n_u32(b, 23);
    v = vbslq_u32(vceqq_u32(b, vdupq_n_u32(0)), vdupq_n_u32(0x00400000), v);
    return vbslq_u32(vceqq_u32(b, vdupq_n_u32(0xff)), vdupq_n_u32(0x7fc00000), v);
}
/* 8 bytes to 8 floats. */
#define DEFINE_DECODE_8(NAME)                                                                    \
    static inline void v_##NAME(void *d, const void *s) {                                        \
        uint16x8_t w = vmovl_u8(ld8(s));                                                         \
        char *q = (char *)d;                                                                     \
        st16(q, vreinterpretq_u8_u32(NAME##_4(vmovl_u16(vget_low_u16(w)))));                     \
        st16(q + 16, vreinterpretq_u8_u32(NAME##_4(vmovl_u16(vget_high_u16(w)))));              \
    }
DEFINE_DECODE_8(e4m3fn_f32)
DEFINE_DECODE_8(e2m1fn_f32)
DEFINE_DECODE_8(e8m0_f32)

/* The kernel: the vector body STEP elements at a time, then the tail element by element by the
 * scalar rules (tx__cast_one_<pair>, kernels/cast.h). */
#define DEFINE_CAST(NAME, SIN, SOUT, STEP)                                                       \
    void tx__cast_##NAME##_neon(void *dst, const void *src, int64_t n) {                         \
        char *d = (char *)dst;                                                                   \
        const char *s = (const char *)src;                                                       \
        int64_t i = 0;                                                                           \
        for (; n - i >= (STEP); i += (STEP)) v_##NAME(d + i * (SOUT), s + i * (SIN));            \
        for (; i < n; i++) tx__cast_one_##NAME(d + i * (SOUT), s + i * (SIN));                   \
    }

DEFINE_CAST(f32_f16, 4, 2, 8)
DEFINE_CAST(f16_f32, 2, 4, 8)
DEFINE_CAST(f32_bf16, 4, 2, 8)
DEFINE_CAST(bf16_f32, 2, 4, 8)
DEFINE_CAST(f32_i32, 4, 4, 8)
DEFINE_CAST(i32_f32, 4, 4, 8)
DEFINE_CAST(f64_f32, 8, 4, 8)
DEFINE_CAST(u8_f32, 1, 4, 8)
DEFINE_CAST(sat_f32_u8, 4, 1, 16)
DEFINE_CAST(f32_e4m3fn, 4, 1, 16)
DEFINE_CAST(f32_e2m1fn, 4, 1, 16)
DEFINE_CAST(f32_e8m0, 4, 1, 16)
DEFINE_CAST(e4m3fn_f32, 1, 4, 8)
DEFINE_CAST(e2m1fn_f32, 1, 4, 8)
DEFINE_CAST(e8m0_f32, 1, 4, 8)
