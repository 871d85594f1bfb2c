/* SPDX-License-Identifier: Apache-2.0 */
/* cast.c (AVX-512 F/BW/DQ/VL) -- the hot cast pairs of tf.cast / tf.saturate_cast
 * (kernels/cast.h) sixteen lanes at a time, the tail done with masked loads and stores (the
 * masked-off lanes are neither read nor written, so nothing outside the buffers is touched).  Same
 * bits as the scalar rules of scalar/convert.h: vcvtps2ph and vcvtph2ps are TF 2.21's own float16
 * conversions (NaNs quieted, payload kept at the top) and need no fix-up.  cvttps2dq, cvtdq2ps and cvtpd2ps agree with the scalar rules as they
 * are; saturate_cast's NaN (INT32_MIN after the conversion) keeps its low byte, 0, through the
 * truncating vpmovdb.  Streaming-store versions for large outputs; the head before their 64-byte
 * alignment runs the scalar rules through memcpy. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kernels/cast.h"

#define ALIGN 64
/* The streaming loops prefetch their input this far ahead, into L2 (the loads were where they
 * stalled: float32 -> bfloat16 took 1.6-2x memcpy's time for the same bytes without prefetch).
 * 8 KiB into L2 beat 2 KiB into L1 by 10-20% on the narrowing pairs (saturate_cast f32 -> u8:
 * 12.7 -> 9.2 ms for 64M elements on 2 threads in a side-by-side test), whose time is mostly the
 * reading. */
#define PF_DIST 8192
#define PF_HINT _MM_HINT_T1
/* The plain loops of the narrowing pairs prefetch 2 KiB ahead into L1 when they read at least
 * PF_PLAIN_MIN bytes, past this machine's 1 MiB L2: float32 -> float16 of 1M elements (4 MiB,
 * 2 threads) 2.87-3.04 -> 2.70-2.78 us.  In L1 the prefetches cost 5% (4096 elements). */
#define PF_PLAIN_DIST 2048
#define PF_PLAIN_MIN ((int64_t)1 << 20)

enum { PLAIN, STREAM, MASKED };

static inline __mmask16 lanes(int64_t k) { return k >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << k) - 1u); }

/* loads of 16 elements of 4, 2 and 1 bytes (masked: only the lanes in m) */
static inline __m512i ld32(const void *p, int mode, __mmask16 m) {
    return mode == MASKED ? _mm512_maskz_loadu_epi32(m, p) : _mm512_loadu_si512(p);
}
static inline __m256i ld16(const void *p, int mode, __mmask16 m) {
    return mode == MASKED ? _mm256_maskz_loadu_epi16(m, p) : _mm256_loadu_si256((const __m256i *)p);
}
static inline __m128i ld8(const void *p, int mode, __mmask16 m) {
    return mode == MASKED ? _mm_maskz_loadu_epi8(m, p) : _mm_loadu_si128((const __m128i *)p);
}

/* stores of 16 elements of 4, 2 and 1 bytes */
static inline void st32(void *p, __m512i v, int mode, __mmask16 m) {
    if (mode == MASKED) _mm512_mask_storeu_epi32(p, m, v);
    else if (mode == STREAM) _mm512_stream_si512((__m512i *)p, v);
    else _mm512_storeu_si512(p, v);
}
static inline void st16(void *p, __m256i v, int mode, __mmask16 m) {
    if (mode == MASKED) _mm256_mask_storeu_epi16(p, m, v);
    else if (mode == STREAM) _mm256_stream_si256((__m256i *)p, v);
    else _mm256_storeu_si256((__m256i *)p, v);
}
static inline void st8(void *p, __m128i v, int mode, __mmask16 m) {
    if (mode == MASKED) _mm_mask_storeu_epi8(p, m, v);
    else if (mode == STREAM) _mm_stream_si128((__m128i *)p, v);
    else _mm_storeu_si128((__m128i *)p, v);
}

/* ---- 16-lane bodies ---- */

static inline __m256i c_f32_f16(const void *s, int mode, __mmask16 m) {
    __m512 v = _mm512_castsi512_ps(ld32(s, mode, m));
    return _mm512_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
static inline void v_f32_f16(void *d, const void *s, int mode, __mmask16 m) {
    st16(d, c_f32_f16(s, mode, m), mode, m);
}

static inline void v_f16_f32(void *d, const void *s, int mode, __mmask16 m) {
    st32(d, _mm512_castps_si512(_mm512_cvtph_ps(ld16(s, mode, m))), mode, m);
}

/* bfloat16 bits of 16 floats in the low halves of 32-bit lanes: round to nearest even by adding
 * 0x7fff plus the lowest kept bit, NaN to sign | 0x7fc0. */
static inline __m512i c32_f32_bf16(const void *s, int mode, __mmask16 m) {
    __m512i x = ld32(s, mode, m);
    __m512i top = _mm512_srli_epi32(x, 16);
    __m512i bias = _mm512_add_epi32(_mm512_and_si512(top, _mm512_set1_epi32(1)),
                                    _mm512_set1_epi32(0x7fff));
    __m512i r = _mm512_srli_epi32(_mm512_add_epi32(x, bias), 16);
    __mmask16 nan = _mm512_cmpgt_epi32_mask(_mm512_and_si512(x, _mm512_set1_epi32(0x7fffffff)),
                                            _mm512_set1_epi32(0x7f800000));
    /* (top & 0x8000) | 0x7fc0 in one ternary-logic op: A ? B : C with A = 0x8000 */
    __m512i qnan = _mm512_ternarylogic_epi32(_mm512_set1_epi32(0x8000), top,
                                             _mm512_set1_epi32(0x7fc0), 0xCA);
    return _mm512_mask_mov_epi32(r, nan, qnan);
}
static inline __m256i c_f32_bf16(const void *s, int mode, __mmask16 m) {
    return _mm512_cvtepi32_epi16(c32_f32_bf16(s, mode, m));
}
static inline void v_f32_bf16(void *d, const void *s, int mode, __mmask16 m) {
    st16(d, c_f32_bf16(s, mode, m), mode, m);
}

static inline void v_bf16_f32(void *d, const void *s, int mode, __mmask16 m) {
    st32(d, _mm512_slli_epi32(_mm512_cvtepu16_epi32(ld16(s, mode, m)), 16), mode, m);
}

static inline void v_f32_i32(void *d, const void *s, int mode, __mmask16 m) {
    st32(d, _mm512_cvttps_epi32(_mm512_castsi512_ps(ld32(s, mode, m))), mode, m);
}

static inline void v_i32_f32(void *d, const void *s, int mode, __mmask16 m) {
    st32(d, _mm512_castps_si512(_mm512_cvtepi32_ps(ld32(s, mode, m))), mode, m);
}

static inline void v_f64_f32(void *d, const void *s, int mode, __mmask16 m) {
    const double *f = (const double *)s;
    __m512d a, b;
    if (mode == MASKED) {
        a = _mm512_maskz_loadu_pd((__mmask8)m, f);
        b = _mm512_maskz_loadu_pd((__mmask8)(m >> 8), f + 8);
    } else {
        a = _mm512_loadu_pd(f);
        b = _mm512_loadu_pd(f + 8);
    }
    __m512 r = _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(a)), _mm512_cvtpd_ps(b), 1);
    st32(d, _mm512_castps_si512(r), mode, m);
}

static inline void v_u8_f32(void *d, const void *s, int mode, __mmask16 m) {
    __m512 f = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(ld8(s, mode, m)));
    st32(d, _mm512_castps_si512(f), mode, m);
}

/* min(hi, v) / max(lo, v) return v when it is NaN (TF's clip lets NaN through); the conversion
 * then gives INT32_MIN, whose low byte (vpmovdb) and unsigned saturation (vpackus) are both 0. */
static inline __m512i c32_sat_f32_u8(const void *s, int mode, __mmask16 m) {
    __m512 v = _mm512_castsi512_ps(ld32(s, mode, m));
    v = _mm512_min_ps(_mm512_set1_ps(255.0f), v);
    v = _mm512_max_ps(_mm512_setzero_ps(), v);
    return _mm512_cvttps_epi32(v);
}
static inline __m128i c_sat_f32_u8(const void *s, int mode, __mmask16 m) {
    return _mm512_cvtepi32_epi8(c32_sat_f32_u8(s, mode, m));
}
static inline void v_sat_f32_u8(void *d, const void *s, int mode, __mmask16 m) {
    st8(d, c_sat_f32_u8(s, mode, m), mode, m);
}

/* float32 -> the OCP MX element formats and their scale, as the AVX2 file does it (see there):
 * the code of |x| rounded to nearest even with `mbits` mantissa bits and exponent `bias`, in
 * integer lanes; infinities and NaN give codes far above every maximum. */
static inline __m512i mx_code_16(__m512i ax, int mbits, int bias) {
    const __m512i one = _mm512_set1_epi32(1), zero = _mm512_setzero_si512();
    __m512i eb = _mm512_sub_epi32(_mm512_srli_epi32(ax, 23), _mm512_set1_epi32(127 - bias));
    __m512i below = _mm512_max_epi32(_mm512_sub_epi32(one, eb), zero);
    __m512i shift = _mm512_min_epu32(_mm512_add_epi32(below, _mm512_set1_epi32(23 - mbits)),
                                     _mm512_set1_epi32(31));
    __m512i mant = _mm512_ternarylogic_epi32(ax, _mm512_set1_epi32(0x7fffff),
                                             _mm512_set1_epi32(0x800000), 0xEA); /* A & B | C */
    __m512i lsb = _mm512_and_si512(_mm512_srlv_epi32(mant, shift), one);
    __m512i half = _mm512_srli_epi32(_mm512_sllv_epi32(one, shift), 1);
    __m512i up = _mm512_add_epi32(_mm512_sub_epi32(half, one), lsb);
    __m512i q = _mm512_srlv_epi32(_mm512_add_epi32(mant, up), shift);
    __m512i e = _mm512_slli_epi32(_mm512_max_epi32(_mm512_sub_epi32(eb, one), zero), mbits);
    return _mm512_add_epi32(e, q);
}

/* float8_e4m3fn: sign | code, every code past 0x7e (overflow, infinity, NaN) the NaN 0x7f. */
static inline __m512i c32_f32_e4m3fn(const void *s, int mode, __mmask16 m) {
    __m512i x = ld32(s, mode, m), ax = _mm512_and_si512(x, _mm512_set1_epi32(0x7fffffff));
    __m512i code = _mm512_min_epu32(mx_code_16(ax, 3, 7), _mm512_set1_epi32(0x7f));
    return _mm512_ternarylogic_epi32(_mm512_srli_epi32(x, 24), _mm512_set1_epi32(0x80), code, 0xEA);
}

/* float4_e2m1fn: sign (bit 3) | code saturated to 7; NaN the zero of the opposite sign.  The code
 * of |x| by float arithmetic instead of mx_code_16's: the codes step by 0.5 below 2, by 1 below 4
 * and by 2 from there, so it is |x| * 2, |x| or |x| / 2 (exact scalings) rounded to nearest even,
 * plus 0, 2 or 4: a code's parity is its rounded value's, so the ties go to the even code as the
 * rule says.  |x| is capped at 8 first (code 8, saturated; +inf too), which keeps the conversion
 * in range.  Half mx_code_16's instructions: the cast_pack tiles' time is this arithmetic. */
static inline __m512i c32_f32_e2m1fn(const void *s, int mode, __mmask16 m) {
    __m512i x = ld32(s, mode, m), ax = _mm512_and_si512(x, _mm512_set1_epi32(0x7fffffff));
    __m512i sign = _mm512_slli_epi32(_mm512_srli_epi32(x, 31), 3);
    __m512 f = _mm512_min_ps(_mm512_castsi512_ps(ax), _mm512_set1_ps(8.0f)); /* NaN: 8 */
    __mmask16 ge2 = _mm512_cmp_ps_mask(f, _mm512_set1_ps(2.0f), _CMP_GE_OQ);
    __mmask16 ge4 = _mm512_cmp_ps_mask(f, _mm512_set1_ps(4.0f), _CMP_GE_OQ);
    __m512 scale = _mm512_mask_mov_ps(_mm512_set1_ps(2.0f), ge2, _mm512_set1_ps(1.0f));
    scale = _mm512_mask_mov_ps(scale, ge4, _mm512_set1_ps(0.5f));
    __m512i q = _mm512_cvt_roundps_epi32(_mm512_mul_ps(f, scale),
                                         _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    q = _mm512_mask_add_epi32(q, ge2, q, _mm512_set1_epi32(2));
    q = _mm512_mask_add_epi32(q, ge4, q, _mm512_set1_epi32(2));
    __m512i code = _mm512_min_epi32(q, _mm512_set1_epi32(7));
    __mmask16 nan = _mm512_cmpgt_epi32_mask(ax, _mm512_set1_epi32(0x7f800000));
    return _mm512_mask_xor_epi32(_mm512_or_si512(code, sign), nan, sign, _mm512_set1_epi32(8));
}

/* float8_e8m0fnu: the biased exponent rounded up from a halfway mantissa; a subnormal is code 1
 * from 0.75 * 2^-126 up; zero, negatives, infinity and NaN are 0xff (the AVX2 file explains). */
static inline __m512i c32_f32_e8m0(const void *s, int mode, __mmask16 m) {
    __m512i x = ld32(s, mode, m);
    __mmask16 normal = _mm512_cmpgt_epi32_mask(x, _mm512_set1_epi32(0x7fffff));
    __m512i step = _mm512_mask_blend_epi32(normal, _mm512_set1_epi32(0x200000), _mm512_set1_epi32(0x400000));
    __m512i code = _mm512_srli_epi32(_mm512_add_epi32(x, step), 23);
    __mmask16 bad = _mm512_cmplt_epi32_mask(x, _mm512_set1_epi32(1)) |
                    _mm512_cmpgt_epi32_mask(x, _mm512_set1_epi32(0x7f7fffff));
    return _mm512_mask_mov_epi32(code, bad, _mm512_set1_epi32(0xff));
}

/* 16 codes to bytes, and whole 64-byte lines of them (the packs of line_sat_f32_u8 below). */
#define DEFINE_BYTES_16(NAME)                                                                    \
    static inline void v_##NAME(void *d, const void *s, int mode, __mmask16 m) {                 \
        st8(d, _mm512_cvtepi32_epi8(c32_##NAME(s, mode, m)), mode, m);                           \
    }                                                                                            \
    static inline __m512i line_##NAME(const char *s) {                                           \
        __m512i ab = _mm512_packus_epi32(c32_##NAME(s, PLAIN, 0xffff), c32_##NAME(s + 64, PLAIN, 0xffff)); \
        __m512i cd = _mm512_packus_epi32(c32_##NAME(s + 128, PLAIN, 0xffff), c32_##NAME(s + 192, PLAIN, 0xffff)); \
        const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15); \
        return _mm512_permutexvar_epi32(order, _mm512_packus_epi16(ab, cd));                     \
    }
DEFINE_BYTES_16(f32_e4m3fn)
DEFINE_BYTES_16(f32_e2m1fn)
DEFINE_BYTES_16(f32_e8m0)

/* The decodes of the MX formats, 16 bytes to 16 floats (exact, as convert.h's). */
/* float8_e4m3fn: the fields moved into float32's and rebiased (7 -> 127); a subnormal a * 2^-9 by
 * a conversion and an exact scaling; 0x7f / 0xff the quiet NaN of their sign. */
static inline __m512i c_e4m3fn_f32(__m512i b) {
    __m512i a = _mm512_and_si512(b, _mm512_set1_epi32(0x7f));
    __m512i sign = _mm512_slli_epi32(_mm512_srli_epi32(b, 7), 31);
    __m512i v = _mm512_add_epi32(_mm512_slli_epi32(a, 20), _mm512_set1_epi32(120 << 23));
    __m512i sub = _mm512_castps_si512(_mm512_mul_ps(_mm512_cvtepi32_ps(a), _mm512_set1_ps(0x1p-9f)));
    v = _mm512_mask_mov_epi32(v, _mm512_cmplt_epi32_mask(a, _mm512_set1_epi32(8)), sub);
    v = _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(a, _mm512_set1_epi32(0x7f)),
                              _mm512_set1_epi32(0x7fc00000));
    return _mm512_or_si512(v, sign);
}
/* float4_e2m1fn: its 8 magnitudes by a permute; any bit from the sign bit up makes it negative. */
static inline __m512i c_e2m1fn_f32(__m512i b) {
    const __m512i mags = _mm512_castps_si512(_mm512_setr_ps(0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f,
                                                            0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f));
    __m512i v = _mm512_permutexvar_epi32(_mm512_and_si512(b, _mm512_set1_epi32(7)), mags);
    __mmask16 neg = _mm512_cmpgt_epi32_mask(b, _mm512_set1_epi32(7));
    return _mm512_mask_or_epi32(v, neg, v, _mm512_set1_epi32((int)0x80000000u));
}
/* float8_e8m0fnu: 2^(b - 127) is b in float32's exponent field; 0 is 2^-127 (a subnormal), 0xff
 * the quiet NaN. */
static inline __m512i c_e8m0_f32(__m512i b) {
    __m512i v = _mm512_slli_epi32(b, 23);
    v = _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(b, _mm512_setzero_si512()),
                              _mm512_set1_epi32(0x00400000));
    return _mm512_mask_mov_epi32(v, _mm512_cmpeq_epi32_mask(b, _mm512_set1_epi32(0xff)),
                                 _mm512_set1_epi32(0x7fc00000));
}
#define DEFINE_DECODE_16(NAME)                                                                   \
    static inline void v_##NAME(void *d, const void *s, int mode, __mmask16 m) {                 \
        st32(d, c_##NAME(_mm512_cvtepu8_epi32(ld8(s, mode, m))), mode, m);                       \
    }
DEFINE_DECODE_16(e4m3fn_f32)
DEFINE_DECODE_16(e2m1fn_f32)
DEFINE_DECODE_16(e8m0_f32)

/* ---- whole 64-byte lines of a narrowing pair's output, for the streaming loop: 32 or 64 elements
 * converted, then one full-line streaming store (two 32-byte or four 16-byte streaming stores
 * per line measured 1.3-1.6x memcpy's time). */
static inline __m512i line_f32_f16(const char *s) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(c_f32_f16(s, PLAIN, 0xffff)),
                              c_f32_f16(s + 64, PLAIN, 0xffff), 1);
}
/* One pack of the two halves' 32-bit lanes (all <= 0xffff) and one qword permute to undo its
 * per-128-bit-lane interleave: 2 shuffles per line instead of 5 (two vpmovdw and an insert). */
static inline __m512i line_f32_bf16(const char *s) {
    __m512i p = _mm512_packus_epi32(c32_f32_bf16(s, PLAIN, 0xffff), c32_f32_bf16(s + 64, PLAIN, 0xffff));
    return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), p);
}
/* Two saturating packs (32 -> 16 -> 8 bits; every value is 0..255 by then) and one dword permute
 * to undo their per-128-bit-lane interleave: 4 shuffles per line instead of 11. */
static inline __m512i line_sat_f32_u8(const char *s) {
    __m512i ab = _mm512_packus_epi32(c32_sat_f32_u8(s, PLAIN, 0xffff), c32_sat_f32_u8(s + 64, PLAIN, 0xffff));
    __m512i cd = _mm512_packus_epi32(c32_sat_f32_u8(s + 128, PLAIN, 0xffff), c32_sat_f32_u8(s + 192, PLAIN, 0xffff));
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm512_permutexvar_epi32(order, _mm512_packus_epi16(ab, cd));
}

/* LINE: 1 when the pair has a line_NAME (outputs narrower than 4 bytes), which then writes whole
 * 64-byte lines of output in both modes: the plain mode's 16-element steps alone took 10% longer
 * in cache (float32 -> float4_e2m1fn, 0.122 -> 0.110 ns an element, the tiles of cast_pack). */
#define DEFINE_RUN(NAME, SIN, SOUT, LINE)                                                        \
    static inline void run_##NAME(void *dst, const void *src, int64_t n, bool nt) {              \
        char *d = (char *)dst;                                                                   \
        const char *s = (const char *)src;                                                       \
        int64_t i = 0;                                                                           \
        if (nt && (uintptr_t)d % (SOUT) != 0) nt = false;                                        \
        if (nt) {                                                                                \
            for (; i < n && (uintptr_t)(d + i * (SOUT)) % ALIGN != 0; i++)                       \
                tx__cast_one_##NAME(d + i * (SOUT), s + i * (SIN));                                \
            if (LINE)                                                                            \
                for (; n - i >= 64 / (SOUT); i += 64 / (SOUT)) {                                 \
                    for (int q = 0; q < (SIN) / (SOUT); q++)                                     \
                        _mm_prefetch(s + i * (SIN) + PF_DIST + 64 * q, PF_HINT);            \
                    _mm512_stream_si512((void *)(d + i * (SOUT)), LINE_OF(NAME, LINE)(s + i * (SIN))); \
                }                                                                                \
            for (; n - i >= 16; i += 16) {                                                       \
                for (int q = 0; q < (16 * (SIN) + 63) / 64; q++)                                 \
                    _mm_prefetch(s + i * (SIN) + PF_DIST + 64 * q, PF_HINT);                \
                v_##NAME(d + i * (SOUT), s + i * (SIN), STREAM, 0xffff);                         \
            }                                                                                    \
            _mm_sfence();                                                                        \
        } else {                                                                                 \
            if (LINE && n * (SIN) >= PF_PLAIN_MIN)                                               \
                for (; n - i >= 64 / (SOUT); i += 64 / (SOUT)) {                                 \
                    for (int q = 0; q < (SIN) / (SOUT); q++)                                     \
                        _mm_prefetch(s + i * (SIN) + PF_PLAIN_DIST + 64 * q, _MM_HINT_T0);       \
                    _mm512_storeu_si512((void *)(d + i * (SOUT)), LINE_OF(NAME, LINE)(s + i * (SIN))); \
                }                                                                                \
            if (LINE)                                                                            \
                for (; n - i >= 64 / (SOUT); i += 64 / (SOUT))                                   \
                    _mm512_storeu_si512((void *)(d + i * (SOUT)), LINE_OF(NAME, LINE)(s + i * (SIN))); \
            for (; n - i >= 16; i += 16) v_##NAME(d + i * (SOUT), s + i * (SIN), PLAIN, 0xffff); \
        }                                                                                        \
        if (i < n) v_##NAME(d + i * (SOUT), s + i * (SIN), MASKED, lanes(n - i));                \
    }

/* The two exported kernels of a pair, both running RUN. */
#define DEFINE_EXPORTS(NAME, RUN)                                                                \
    void tx__cast_##NAME##_avx512(void *dst, const void *src, int64_t n) {                         \
        RUN(dst, src, n, false);                                                                 \
    }                                                                                            \
    void tx__cast_stream_##NAME##_avx512(void *dst, const void *src, int64_t n) {                  \
        RUN(dst, src, n, true);                                                                  \
    }
#define DEFINE_CAST(NAME, SIN, SOUT, LINE)                                                       \
    DEFINE_RUN(NAME, SIN, SOUT, LINE)                                                            \
    DEFINE_EXPORTS(NAME, run_##NAME)

/* line_NAME for the narrowing pairs, a never-called stand-in for the others */
static inline __m512i no_line(const char *s) {
    (void)s;
    return _mm512_setzero_si512();
}
#define LINE_OF(NAME, LINE) LINE_OF_##LINE(NAME)
#define LINE_OF_1(NAME) line_##NAME
#define LINE_OF_0(NAME) no_line

DEFINE_CAST(f32_f16, 4, 2, 1)
DEFINE_CAST(f16_f32, 2, 4, 0)
DEFINE_RUN(f32_bf16, 4, 2, 1)
DEFINE_CAST(bf16_f32, 2, 4, 0)

/* float32 -> bfloat16 at the AVX512_BF16 level (Cooper Lake, Sapphire Rapids, Zen 4):
 * vcvtne2ps2bf16 converts 32 floats in one instruction, rounding to nearest even as TF does; but
 * it flushes denormal inputs to signed zero and keeps a NaN's payload, so a line holding either
 * (one vfpclassps per 16 floats) goes through the integer path above.  The in-cache cast of
 * [1, 4096] took twice the float16 cast's time with the integer path alone. */
#define NAN_OR_DENORMAL 0xA1 /* vfpclassps: QNaN | denormal | SNaN */
__attribute__((target("avx512bf16"))) static void run_f32_bf16_ne(void *dst, const void *src,
                                                                   int64_t n, bool nt) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    int64_t i = 0;
    if (nt && (uintptr_t)d % 2 != 0) nt = false;
    if (nt)
        for (; i < n && (uintptr_t)(d + i * 2) % ALIGN != 0; i++) tx__cast_one_f32_bf16(d + i * 2, s + i * 4);
    for (; n - i >= 32; i += 32) {
        const char *p = s + i * 4;
        if (nt) {
            _mm_prefetch(p + PF_DIST, PF_HINT);
            _mm_prefetch(p + PF_DIST + 64, PF_HINT);
        }
        __m512 a = _mm512_loadu_ps((const float *)p), b = _mm512_loadu_ps((const float *)(p + 64));
        __m512i v;
        if ((_mm512_fpclass_ps_mask(a, NAN_OR_DENORMAL) | _mm512_fpclass_ps_mask(b, NAN_OR_DENORMAL)) != 0)
            v = line_f32_bf16(p);
        else
            v = (__m512i)_mm512_cvtne2ps_pbh(b, a); /* a's 16 in the low half */
        if (nt) _mm512_stream_si512((void *)(d + i * 2), v);
        else _mm512_storeu_si512((void *)(d + i * 2), v);
    }
    if (nt) _mm_sfence();
    if (i < n) run_f32_bf16(d + i * 2, s + i * 4, n - i, false);
}

DEFINE_EXPORTS(f32_bf16, run_f32_bf16)
/* The AVX512_BF16 level's kernels (kernels/cast.inc): dispatch puts them in place of the two above
 * where the CPU has the instruction. */
__attribute__((target("avx512bf16"))) void tx__cast_f32_bf16_avx512bf16(void *dst, const void *src,
                                                                         int64_t n) {
    run_f32_bf16_ne(dst, src, n, false);
}
__attribute__((target("avx512bf16"))) void tx__cast_stream_f32_bf16_avx512bf16(void *dst,
                                                                                const void *src,
                                                                                int64_t n) {
    run_f32_bf16_ne(dst, src, n, true);
}
DEFINE_CAST(f32_i32, 4, 4, 0)
DEFINE_CAST(i32_f32, 4, 4, 0)
DEFINE_CAST(f64_f32, 8, 4, 0)
DEFINE_CAST(u8_f32, 1, 4, 0)
DEFINE_CAST(sat_f32_u8, 4, 1, 1)
DEFINE_CAST(f32_e4m3fn, 4, 1, 1)
DEFINE_CAST(f32_e2m1fn, 4, 1, 1)
DEFINE_CAST(f32_e8m0, 4, 1, 1)
DEFINE_CAST(e4m3fn_f32, 1, 4, 0)
DEFINE_CAST(e2m1fn_f32, 1, 4, 0)
DEFINE_CAST(e8m0_f32, 1, 4, 0)
