/* SPDX-License-Identifier: Apache-2.0 */
/* cast.c (AVX2 + F16C) -- the hot cast pairs of tf.cast / tf.saturate_cast (kernels/cast.h):
 * float32 <-> float16, float32 <-> bfloat16, float32 <-> int32, float64 -> float32, uint8 ->
 * float32, saturate_cast float32 -> uint8 and float32 -> float8_e4m3fn / float4_e2m1fn /
 * float8_e8m0fnu, eight or more lanes at a time, with plain and
 * streaming stores.  Each gives the bits of the scalar rules in scalar/convert.h; where an
 * instruction disagrees with TF's rule the lanes are patched.  vcvtps2ph (sign|0x7e00|payload>>13
 * for a NaN) and vcvtph2ps (a NaN quieted, its payload shifted) are TF 2.21's own conversions and
 * need no patch.
 * cvttps2dq (INT32_MIN for NaN and out of range), cvtdq2ps, cvtpd2ps (MXCSR rounding, like the
 * scalar conversions the compiler emits) already agree with the scalar rules.  bfloat16 rounding
 * is done in integer lanes: the AVX-512 BF16 instruction flushes subnormals and keeps NaN
 * payloads, which TF does not.  Tails and the head before a streaming-store alignment run the
 * scalar rules element by element; nothing outside the buffers is read or written. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cast.h"

#define ALIGN 32 /* streaming stores need 32-byte aligned destinations */

static inline void store256(void *p, __m256i v, bool nt) {
    if (nt) _mm256_stream_si256((__m256i *)p, v);
    else _mm256_storeu_si256((__m256i *)p, v);
}

static inline __m256i load256(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
static inline __m128i load128(const void *p) { return _mm_loadu_si128((const __m128i *)p); }

/* ---- vector bodies: STEP elements from s to d (d is 32-byte aligned when nt) ---- */

/* float32 -> float16, 16 lanes. */
static inline void v_f32_f16(void *d, const void *s, bool nt) {
    const float *f = (const float *)s;
    __m128i lo = _mm256_cvtps_ph(_mm256_loadu_ps(f), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m128i hi = _mm256_cvtps_ph(_mm256_loadu_ps(f + 8), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    store256(d, _mm256_set_m128i(hi, lo), nt);
}

/* float16 -> float32, 8 lanes. */
static inline __m256i f16_f32_8(__m128i h) { return _mm256_castps_si256(_mm256_cvtph_ps(h)); }

static inline void v_f16_f32(void *d, const void *s, bool nt) {
    const char *p = (const char *)s;
    char *q = (char *)d;
    store256(q, f16_f32_8(load128(p)), nt);
    store256(q + 32, f16_f32_8(load128(p + 16)), nt);
}

/* float32 bits -> bfloat16 in the low half of each 32-bit lane, 8 lanes. */
static inline __m256i f32_bf16_8(__m256i x) {
    __m256i top = _mm256_srli_epi32(x, 16);
    __m256i bias = _mm256_add_epi32(_mm256_and_si256(top, _mm256_set1_epi32(1)),
                                    _mm256_set1_epi32(0x7fff));
    __m256i r = _mm256_srli_epi32(_mm256_add_epi32(x, bias), 16);
    __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff)),
                                     _mm256_set1_epi32(0x7f800000));
    __m256i qnan = _mm256_or_si256(_mm256_and_si256(top, _mm256_set1_epi32(0x8000)),
                                   _mm256_set1_epi32(0x7fc0));
    return _mm256_blendv_epi8(r, qnan, nan);
}

static inline void v_f32_bf16(void *d, const void *s, bool nt) {
    const char *p = (const char *)s;
    __m256i a = f32_bf16_8(load256(p)), b = f32_bf16_8(load256(p + 32));
    /* values are 0..0xffff, so the saturating pack is exact; it interleaves 128-bit lanes */
    __m256i r = _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8);
    store256(d, r, nt);
}

static inline void v_bf16_f32(void *d, const void *s, bool nt) {
    const char *p = (const char *)s;
    char *q = (char *)d;
    store256(q, _mm256_slli_epi32(_mm256_cvtepu16_epi32(load128(p)), 16), nt);
    store256(q + 32, _mm256_slli_epi32(_mm256_cvtepu16_epi32(load128(p + 16)), 16), nt);
}

static inline void v_f32_i32(void *d, const void *s, bool nt) {
    const float *f = (const float *)s;
    char *q = (char *)d;
    store256(q, _mm256_cvttps_epi32(_mm256_loadu_ps(f)), nt);
    store256(q + 32, _mm256_cvttps_epi32(_mm256_loadu_ps(f + 8)), nt);
}

static inline void v_i32_f32(void *d, const void *s, bool nt) {
    const char *p = (const char *)s;
    char *q = (char *)d;
    store256(q, _mm256_castps_si256(_mm256_cvtepi32_ps(load256(p))), nt);
    store256(q + 32, _mm256_castps_si256(_mm256_cvtepi32_ps(load256(p + 32))), nt);
}

/* float64 -> float32, 16 lanes. */
static inline void v_f64_f32(void *d, const void *s, bool nt) {
    const double *f = (const double *)s;
    char *q = (char *)d;
    __m256 a = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_loadu_pd(f + 4)),
                               _mm256_cvtpd_ps(_mm256_loadu_pd(f)));
    __m256 b = _mm256_set_m128(_mm256_cvtpd_ps(_mm256_loadu_pd(f + 12)),
                               _mm256_cvtpd_ps(_mm256_loadu_pd(f + 8)));
    store256(q, _mm256_castps_si256(a), nt);
    store256(q + 32, _mm256_castps_si256(b), nt);
}

/* uint8 -> float32, 16 lanes. */
static inline void v_u8_f32(void *d, const void *s, bool nt) {
    const char *p = (const char *)s;
    char *q = (char *)d;
    __m128i b = load128(p);
    __m256 lo = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b));
    __m256 hi = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(b, 8)));
    store256(q, _mm256_castps_si256(lo), nt);
    store256(q + 32, _mm256_castps_si256(hi), nt);
}

/* saturate_cast float32 -> uint8, 32 lanes.  min(hi, v) and max(lo, v) return their second
 * operand when either is NaN, as TF's clip does; cvttps2dq then gives INT32_MIN, which the
 * saturating packs turn into 0 -- the low byte the scalar rule keeps. */
static inline __m256i sat_8(const float *f) {
    __m256 v = _mm256_loadu_ps(f);
    v = _mm256_min_ps(_mm256_set1_ps(255.0f), v);
    v = _mm256_max_ps(_mm256_setzero_ps(), v);
    return _mm256_cvttps_epi32(v);
}

static inline void v_sat_f32_u8(void *d, const void *s, bool nt) {
    const float *f = (const float *)s;
    __m256i ab = _mm256_packus_epi32(sat_8(f), sat_8(f + 8));
    __m256i cd = _mm256_packus_epi32(sat_8(f + 16), sat_8(f + 24));
    __m256i r = _mm256_packus_epi16(ab, cd);
    r = _mm256_permutevar8x32_epi32(r, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    store256(d, r, nt);
}

/* float32 -> the OCP MX element formats and their scale, 8 lanes of codes in 32-bit lanes, in
 * integer lanes (bit-exact with convert.h's rounding from the double, which is exact for a
 * float): |x| rounded to nearest even at the format's precision, `mbits` mantissa bits and
 * exponent `bias`.  shift = mantissa bits dropped (more below the smallest normal, capped at 31,
 * where everything rounds to 0); q keeps the implicit bit, so a carry moves into the exponent and a
 * subnormal that rounds up becomes the smallest normal.  Infinities and NaN give codes far above
 * every maximum. */
static inline __m256i mx_code_8(__m256i ax, int mbits, int bias) {
    const __m256i one = _mm256_set1_epi32(1), zero = _mm256_setzero_si256();
    __m256i eb = _mm256_sub_epi32(_mm256_srli_epi32(ax, 23), _mm256_set1_epi32(127 - bias));
    __m256i below = _mm256_max_epi32(_mm256_sub_epi32(one, eb), zero);
    __m256i shift = _mm256_min_epu32(_mm256_add_epi32(below, _mm256_set1_epi32(23 - mbits)),
                                     _mm256_set1_epi32(31));
    __m256i mant = _mm256_or_si256(_mm256_and_si256(ax, _mm256_set1_epi32(0x7fffff)),
                                   _mm256_set1_epi32(0x800000));
    __m256i lsb = _mm256_and_si256(_mm256_srlv_epi32(mant, shift), one);
    __m256i half = _mm256_srli_epi32(_mm256_sllv_epi32(one, shift), 1);
    __m256i up = _mm256_add_epi32(_mm256_sub_epi32(half, one), lsb);
    __m256i q = _mm256_srlv_epi32(_mm256_add_epi32(mant, up), shift);
    __m256i e = _mm256_slli_epi32(_mm256_max_epi32(_mm256_sub_epi32(eb, one), zero), mbits);
    return _mm256_add_epi32(e, q);
}

/* float8_e4m3fn: sign | code, every code past 0x7e (overflow, infinity, NaN) the NaN 0x7f. */
static inline __m256i f32_e4m3fn_8(const float *f) {
    __m256i x = load256(f), ax = _mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff));
    __m256i code = _mm256_min_epu32(mx_code_8(ax, 3, 7), _mm256_set1_epi32(0x7f));
    return _mm256_or_si256(code, _mm256_and_si256(_mm256_srli_epi32(x, 24), _mm256_set1_epi32(0x80)));
}

/* float4_e2m1fn: sign (bit 3) | code saturated to 7; NaN the zero of the opposite sign. */
static inline __m256i f32_e2m1fn_8(const float *f) {
    __m256i x = load256(f), ax = _mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff));
    __m256i sign = _mm256_slli_epi32(_mm256_srli_epi32(x, 31), 3);
    __m256i code = _mm256_min_epu32(mx_code_8(ax, 1, 1), _mm256_set1_epi32(7));
    __m256i nan = _mm256_cmpgt_epi32(ax, _mm256_set1_epi32(0x7f800000));
    __m256i nan_code = _mm256_xor_si256(sign, _mm256_set1_epi32(8));
    return _mm256_blendv_epi8(_mm256_or_si256(code, sign), nan_code, nan);
}

/* float8_e8m0fnu: the biased exponent, rounded up from a halfway mantissa (adding half an
 * exponent step carries into it); a float32 subnormal is 2^-127 (code 1) from 0.75 * 2^-126 up,
 * else code 0.  Zero, negatives (-0 too), infinity and NaN are the NaN 0xff; so is a carry past
 * 2^127, which gives 0xff by itself. */
static inline __m256i f32_e8m0_8(const float *f) {
    __m256i x = load256(f);
    __m256i normal = _mm256_cmpgt_epi32(x, _mm256_set1_epi32(0x7fffff));
    __m256i step = _mm256_blendv_epi8(_mm256_set1_epi32(0x200000), _mm256_set1_epi32(0x400000), normal);
    __m256i code = _mm256_srli_epi32(_mm256_add_epi32(x, step), 23);
    __m256i bad = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(1), x),
                                  _mm256_cmpgt_epi32(x, _mm256_set1_epi32(0x7f7fffff)));
    return _mm256_or_si256(code, _mm256_and_si256(bad, _mm256_set1_epi32(0xff)));
}

/* 32 codes (each 0..255 in a 32-bit lane) to 32 bytes: two saturating packs and a dword permute
 * to undo their per-128-bit-lane interleave. */
#define DEFINE_BYTES_32(NAME)                                                                    \
    static inline void v_##NAME(void *d, const void *s, bool nt) {                               \
        const float *f = (const float *)s;                                                       \
        __m256i ab = _mm256_packus_epi32(NAME##_8(f), NAME##_8(f + 8));                          \
        __m256i cd = _mm256_packus_epi32(NAME##_8(f + 16), NAME##_8(f + 24));                    \
        __m256i r = _mm256_packus_epi16(ab, cd);                                                 \
        store256(d, _mm256_permutevar8x32_epi32(r, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)), nt); \
    }
DEFINE_BYTES_32(f32_e4m3fn)
DEFINE_BYTES_32(f32_e2m1fn)
DEFINE_BYTES_32(f32_e8m0)

/* The decodes of the MX formats, 8 bytes (zero-extended to 32-bit lanes) to 8 floats, as the
 * AVX-512 file does them (see there). */
static inline __m256i e4m3fn_f32_8(__m256i b) {
    __m256i a = _mm256_and_si256(b, _mm256_set1_epi32(0x7f));
    __m256i sign = _mm256_slli_epi32(_mm256_srli_epi32(b, 7), 31);
    __m256i v = _mm256_add_epi32(_mm256_slli_epi32(a, 20), _mm256_set1_epi32(120 << 23));
    __m256i sub = _mm256_castps_si256(_mm256_mul_ps(_mm256_cvtepi32_ps(a), _mm256_set1_ps(0x1p-9f)));
    v = _mm256_blendv_epi8(v, sub, _mm256_cmpgt_epi32(_mm256_set1_epi32(8), a));
    __m256i nan = _mm256_cmpeq_epi32(a, _mm256_set1_epi32(0x7f));
    v = _mm256_blendv_epi8(v, _mm256_set1_epi32(0x7fc00000), nan);
    return _mm256_or_si256(v, sign);
}
static inline __m256i e2m1fn_f32_8(__m256i b) {
    const __m256i mags = _mm256_castps_si256(_mm256_setr_ps(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f));
    __m256i v = _mm256_permutevar8x32_epi32(mags, _mm256_and_si256(b, _mm256_set1_epi32(7)));
    __m256i neg = _mm256_cmpgt_epi32(b, _mm256_set1_epi32(7));
    return _mm256_or_si256(v, _mm256_and_si256(neg, _mm256_set1_epi32((int)0x80000000u)));
}
static inline __m256i e8m0_f32_8(__m256i b) {
    __m256i v = _mm256_slli_epi32(b, 23);
    v = _mm256_blendv_epi8(v, _mm256_set1_epi32(0x00400000), _mm256_cmpeq_epi32(b, _mm256_setzero_si256()));
    __m256i nan = _mm256_cmpeq_epi32(b, _mm256_set1_epi32(0xff));
    return _mm256_blendv_epi8(v, _mm256_set1_epi32(0x7fc00000), nan);
}
/* 16 bytes to 16 floats. */
#define DEFINE_DECODE_16(NAME)                                                                   \
    static inline void v_##NAME(void *d, const void *s, bool nt) {                               \
        __m128i b = load128(s);                                                                  \
        char *q = (char *)d;                                                                     \
        store256(q, NAME##_8(_mm256_cvtepu8_epi32(b)), nt);                                      \
        store256(q + 32, NAME##_8(_mm256_cvtepu8_epi32(_mm_srli_si128(b, 8))), nt);              \
    }
DEFINE_DECODE_16(e4m3fn_f32)
DEFINE_DECODE_16(e2m1fn_f32)
DEFINE_DECODE_16(e8m0_f32)

/* The loop around a vector body: a scalar head up to the streaming-store alignment (only when the
 * destination is element-aligned; otherwise plain stores), the vector body, a scalar tail. */
/* The streaming loop prefetches its input this far ahead, into L2 (see the AVX-512 file). */
#define PF_DIST 8192
#define PF_HINT _MM_HINT_T1

#define DEFINE_CAST(NAME, SIN, SOUT, STEP)                                                       \
    static inline void run_##NAME(void *dst, const void *src, int64_t n, bool nt) {              \
        char *d = (char *)dst;                                                                   \
        const char *s = (const char *)src;                                                       \
        int64_t i = 0;                                                                           \
        if (nt && (uintptr_t)d % (SOUT) != 0) nt = false;                                        \
        if (nt)                                                                                  \
            for (; i < n && (uintptr_t)(d + i * (SOUT)) % ALIGN != 0; i++)                       \
                tx__cast_one_##NAME(d + i * (SOUT), s + i * (SIN));                                \
        if (nt)                                                                                  \
            for (; n - i >= (STEP); i += (STEP)) {                                               \
                for (int q = 0; q < ((STEP) * (SIN) + 63) / 64; q++)                             \
                    _mm_prefetch(s + i * (SIN) + PF_DIST + 64 * q, PF_HINT);                \
                v_##NAME(d + i * (SOUT), s + i * (SIN), true);                                   \
            }                                                                                    \
        else                                                                                     \
            for (; n - i >= (STEP); i += (STEP)) v_##NAME(d + i * (SOUT), s + i * (SIN), false); \
        for (; i < n; i++) tx__cast_one_##NAME(d + i * (SOUT), s + i * (SIN));                     \
        if (nt) _mm_sfence();                                                                    \
    }                                                                                            \
    void tx__cast_##NAME##_avx2(void *dst, const void *src, int64_t n) {                         \
        run_##NAME(dst, src, n, false);                                                          \
    }                                                                                            \
    void tx__cast_stream_##NAME##_avx2(void *dst, const void *src, int64_t n) {                  \
        run_##NAME(dst, src, n, true);                                                           \
    }

DEFINE_CAST(f32_f16, 4, 2, 16)
DEFINE_CAST(f16_f32, 2, 4, 16)
DEFINE_CAST(f32_bf16, 4, 2, 16)
DEFINE_CAST(bf16_f32, 2, 4, 16)
DEFINE_CAST(f32_i32, 4, 4, 16)
DEFINE_CAST(i32_f32, 4, 4, 16)
DEFINE_CAST(f64_f32, 8, 4, 16)
DEFINE_CAST(u8_f32, 1, 4, 16)
DEFINE_CAST(sat_f32_u8, 4, 1, 32)
DEFINE_CAST(f32_e4m3fn, 4, 1, 32)
DEFINE_CAST(f32_e2m1fn, 4, 1, 32)
DEFINE_CAST(f32_e8m0, 4, 1, 32)
DEFINE_CAST(e4m3fn_f32, 1, 4, 16)
DEFINE_CAST(e2m1fn_f32, 1, 4, 16)
DEFINE_CAST(e8m0_f32, 1, 4, 16)
