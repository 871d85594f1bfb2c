/* SPDX-License-Identifier: Apache-2.0 */
/* convert.h -- TensorFlow's conversion rule for every scalar conversion that tf.cast,
 * tf.saturate_cast and the to_* ops perform, as static inline functions, plus the type of the cast
 * kernel table (cast.c).  Every cast path -- the scalar loops here and any SIMD kernel that
 * overrides a (from, to) entry later -- calls these for its elements or tails, so all paths give
 * the same bits.  The rules are those of TF's CPU kernel (Eigen's scalar_cast_op and TF's complex
 * specialisations in tensorflow/core/kernels/cast_op.h) as built for x86-64:
 *
 *  - integer -> integer: two's complement wrap (keep the low bits).
 *  - anything -> bool: x != 0; NaN is true; complex: real part != 0 (TF drops the imaginary part).
 *  - integer/float -> float16 or bfloat16: through float32 (Eigen's half(T) and bfloat16(T) do
 *    static_cast<float> first), then round to nearest even.  float16: overflow (|x| >= 65520) is
 *    infinity; a NaN is quieted with the top of its payload kept, sign|0x7e00|(mantissa >> 13),
 *    as the F16C / aarch64 FCVT instructions TF 2.21 runs do (float64 and bfloat16 NaNs pass
 *    through float32 first).  float16 -> float32 quiets a NaN (bit 22 set), payload shifted.
 *    bfloat16: NaN is sign|0x7fc0 (Eigen's canonical qNaN); float32 subnormals are kept.
 *    Subnormals are converted exactly everywhere (TF's CPU kernels flush them: a deliberate
 *    difference, docs/casting.md).
 *  - float -> integer: truncation toward zero, and for NaN or out-of-range values what the x86-64
 *    truncating conversions return, as clang emits them for static_cast:
 *      int8/uint8/int16/uint16/int32: cvttsd2si to 32 bits (INT32_MIN when NaN or outside
 *        [-2^31, 2^31)), then the low bits.  E.g. 300.0 -> int8 44, -1.0 -> uint8 255,
 *        NaN -> int32 -2147483648, 1e10 -> int16 0.
 *      uint32/int64: cvttsd2si to 64 bits (INT64_MIN when NaN or outside [-2^63, 2^63)), then the
 *        low bits.  E.g. -1.0 -> uint32 4294967295, NaN -> uint32 0, inf -> int64 INT64_MIN.
 *      uint64: values in [2^63, 2^64) convert exactly; everything else goes through the 64-bit
 *        signed conversion, so -2.0 -> 2^64-2 and NaN, +-inf, x >= 2^64, x <= -2^63 -> 2^63.
 *    float16/bfloat16/float32 sources convert through their exact double value (the truncating
 *    conversion of a float and of its double are the same instruction result).
 *  - complex -> real: the real part, converted as above; real -> complex: imaginary part 0.
 *  - -> int4 / uint4: ml_dtypes' intN(T) constructor, static_cast<int8_t / uint8_t> and then the
 *    low 4 bits: integers wrap modulo 16 (TF 2.21 casts only integers and quantized types to and
 *    from int4 / uint4; src/ops/cast.c refuses the rest).  The byte written holds the value in
 *    its low 4 bits and zeros above (int4 -6 is 0x0a), as TF 2.21 and ml_dtypes store it; a byte
 *    read keeps only its low 4 bits, sign-extended from bit 3 for int4.
 *
 * Nothing here invokes undefined behaviour: every float -> integer conversion is range-checked
 * before the C conversion.  Integer narrowing to a signed type relies on GCC/Clang's documented
 * modulo behaviour (implementation-defined in ISO C, not undefined). */
#ifndef TX_KERNELS_SCALAR_CONVERT_H
#define TX_KERNELS_SCALAR_CONVERT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/internal.h"

/* ---- float16 / bfloat16 bit conversions (exact, portable) ---- */

static inline float tx__bits_to_f32(uint32_t x) {
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

static inline uint32_t tx__f32_to_bits(float f) {
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

/* float16 -> float32: exact for every number; a NaN keeps its payload shifted into the top of
 * float32's and is quieted (bit 22 set), as vcvtph2ps (F16C) and FCVT (aarch64) do -- TF 2.21
 * decides: 0x7d00 -> 0x7fe00000, 0x7c01 -> 0x7fc02000. */
static inline float tx__f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0x1f) return tx__bits_to_f32(sign | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0u));
    if (e != 0) return tx__bits_to_f32(sign | ((e + 112u) << 23) | (m << 13));
    if (m == 0) return tx__bits_to_f32(sign);
    /* Subnormal half m * 2^-24: normalise so the leading 1 becomes the implicit bit. */
    uint32_t be = 113; /* biased float exponent of 2^-14 */
    while (!(m & 0x400u)) {
        m <<= 1;
        be--;
    }
    return tx__bits_to_f32(sign | (be << 23) | ((m & 0x3ffu) << 13));
}

/* float32 -> float16, round to nearest even: |x| >= 65520 becomes infinity, values below half
 * the smallest subnormal become +-0, and a NaN is sign|0x7e00|(mantissa >> 13) -- quieted, the top
 * of its payload kept -- as vcvtps2ph (F16C) and FCVT (aarch64) do: TF 2.21 decides (0x7fa00123
 * -> 0x7f00, 0xffc0abcd -> 0xfe05). */
static inline uint16_t tx__f32_to_f16(float f) {
    uint32_t x = tx__f32_to_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((ax & 0x7fffffu) >> 13));
    if (ax >= 0x47800000u) return (uint16_t)(sign | 0x7c00u); /* >= 65536 or inf */
    if (ax >= 0x38800000u) { /* a normal half after rounding (or the carry into infinity) */
        uint32_t r = ax - 0x38000000u; /* rebias the exponent from 127 to 15 */
        r += 0x0fffu + ((r >> 13) & 1u);
        return (uint16_t)(sign | (r >> 13));
    }
    uint32_t e = ax >> 23;
    if (e < 102) return sign; /* below 2^-25: rounds to zero */
    /* Subnormal half: the value in units of 2^-24 is mant >> (126 - e), rounded to even. */
    uint32_t mant = (ax & 0x7fffffu) | 0x800000u, shift = 126 - e; /* 14..24 */
    uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) q++;
    return (uint16_t)(sign | q); /* a carry to 0x400 is the smallest normal, correctly encoded */
}

static inline float tx__bf16_to_f32(uint16_t h) { return tx__bits_to_f32((uint32_t)h << 16); }

/* float32 -> bfloat16, round to nearest even; NaN becomes sign|0x7fc0 (Eigen). */
static inline uint16_t tx__f32_to_bf16(float f) {
    uint32_t x = tx__f32_to_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((x >> 16) & 0x8000u) | 0x7fc0u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

/* ---- float8 (ml_dtypes' float8_e5m2 and float8_e4m3fn, which TF uses) ----
 * Decoding is exact.  Encoding rounds the exact value to nearest even, as ml_dtypes'
 * ConvertImpl does from float, double, half and bfloat16 (integers go through float first, which
 * cannot change a result: every integer above 2^24 overflows both formats).  Subnormals are
 * produced; -0 stays -0.  NaN keeps its sign (e5m2: sign|0x7e, e4m3fn: sign|0x7f).  A finite value
 * beyond the largest finite one after rounding (e5m2: |x| >= 61440, e4m3fn: |x| > 464) and an
 * infinity become e5m2's infinity sign|0x7c, or e4m3fn's NaN sign|0x7f (it has no infinity). */

static inline float tx__e5m2_to_f32(uint8_t b) {
    uint32_t sign = (uint32_t)(b & 0x80u) << 24, a = b & 0x7fu;
    if (a > 0x7cu) return tx__bits_to_f32(sign | 0x7fc00000u); /* quiet NaN, as ml_dtypes */
    if (a == 0x7cu) return tx__bits_to_f32(sign | 0x7f800000u);
    if (a < 4u) { /* subnormal: a * 2^-16 */
        float v = (float)a * 0x1p-16f;
        return sign ? -v : v;
    }
    return tx__bits_to_f32(sign | (((a >> 2) + 112u) << 23) | ((a & 3u) << 21));
}

static inline float tx__e4m3fn_to_f32(uint8_t b) {
    uint32_t sign = (uint32_t)(b & 0x80u) << 24, a = b & 0x7fu;
    if (a == 0x7fu) return tx__bits_to_f32(sign | 0x7fc00000u);
    if (a < 8u) { /* subnormal: a * 2^-9 */
        float v = (float)a * 0x1p-9f;
        return sign ? -v : v;
    }
    return tx__bits_to_f32(sign | (((a >> 3) + 120u) << 23) | ((a & 7u) << 20));
}

/* |x| rounded to nearest even in a format with `mbits` mantissa bits and exponent `bias`, with
 * subnormals below the smallest normal exponent 1 - bias: the code of the magnitude, (biased
 * exponent << mbits) + mantissa, which may pass the format's largest code (the caller's overflow
 * rule decides).  ax: the bits of a finite |x| as a double. */
static inline int64_t tx__round_to_code(uint64_t ax, int mbits, int bias) {
    int e = (int)(ax >> 52) - 1023, emin = 1 - bias;
    if (e < emin - mbits - 1) return 0; /* below half the smallest subnormal; double subnormals */
    uint64_t mant = (ax & 0xfffffffffffffull) | (1ull << 52);
    int shift = 52 - mbits + (e < emin ? emin - e : 0); /* at most 53 */
    uint64_t q = mant >> shift, rem = mant & ((1ull << shift) - 1u), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (q & 1u))) q++;
    /* q keeps the implicit bit of a normal result, so a rounding carry moves into the exponent;
     * a subnormal that rounds up to 2^mbits is the smallest normal's code. */
    if (e < emin) return (int64_t)q;
    return ((int64_t)(e + bias) << mbits) + (int64_t)q - ((int64_t)1 << mbits);
}

static inline uint64_t tx__f64_bits(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

/* x rounded to nearest even in a float8 format with `mbits` mantissa bits and exponent `bias`;
 * codes above `maxcode` (the largest finite) and infinities give `over`, NaN gives `nan`. */
static inline uint8_t tx__f64_to_f8(double x, int mbits, int bias, unsigned maxcode, unsigned nan,
                                    unsigned over) {
    uint64_t bits = tx__f64_bits(x), ax = bits & 0x7fffffffffffffffull;
    uint8_t sign = (uint8_t)((bits >> 56) & 0x80u);
    if (ax >= 0x7ff0000000000000ull)
        return (uint8_t)(sign | (ax > 0x7ff0000000000000ull ? nan : over));
    int64_t code = tx__round_to_code(ax, mbits, bias);
    return (uint8_t)(sign | (code > (int64_t)maxcode ? over : (unsigned)code));
}

static inline uint8_t tx__f64_to_e5m2(double x) { return tx__f64_to_f8(x, 2, 15, 0x7bu, 0x7eu, 0x7cu); }
static inline uint8_t tx__f64_to_e4m3fn(double x) { return tx__f64_to_f8(x, 3, 7, 0x7eu, 0x7fu, 0x7fu); }

/* float16 -> float8_e5m2 as ml_dtypes special-cases it: the same rounding, but a NaN keeps the
 * top bits of its payload (sign, exponent, two payload bits, quiet bit set). */
static inline uint8_t tx__f16_to_e5m2(uint16_t h) {
    if ((h & 0x7fffu) > 0x7c00u) return (uint8_t)((h >> 8) | 0x02u);
    return tx__f64_to_e5m2(tx__f16_to_f32(h));
}


/* ---- the other small floats: float8 FNUZ, float6, float4, float8_e8m0fnu ----
 * ml_dtypes' rules (TF 2.21 has DataTypes for the FNUZ types and float4 but no Cast kernel for
 * them); tests/oracle checks every code and every float32 against ml_dtypes.  Decoding is exact.
 * Encoding rounds the exact value to nearest even (integers go through float first, as float8's).
 *  - FNUZ (float8_e4m3fnuz bias 8, float8_e4m3b11fnuz bias 11, float8_e5m2fnuz bias 16): 0x80 is
 *    the one NaN (it reads as a negative quiet NaN); NaN, infinities and results beyond the
 *    largest code (0x7f) give 0x80; a result of zero has no sign.
 *  - float6_e2m3fn, float6_e3m2fn, float4_e2m1fn (OCP MX, no NaN or infinity): results beyond the
 *    largest magnitude and infinities saturate to it; NaN becomes the zero of the opposite sign.
 *    A byte is read as ml_dtypes reads it: any bit at or above the sign bit makes it negative.
 *  - float8_e8m0fnu (OCP MX scale, 2^(code - 127)): NaN, zero, negatives and +inf give 0xff (NaN);
 *    the exponent rounds up from a halfway mantissa; above 2^127 is NaN, below 2^-127 is 2^-127. */

/* 2^k as a float, for k in [-126, 127]. */
static inline float tx__pow2f(int k) { return tx__bits_to_f32((uint32_t)(127 + k) << 23); }

/* The value of a code magnitude (exponent and mantissa fields) of a format with `mbits` mantissa
 * bits and exponent `bias`. */
static inline float tx__code_value(unsigned mag, int mbits, int bias) {
    unsigned e = mag >> mbits, m = mag & ((1u << mbits) - 1u);
    if (e == 0) return (float)m * tx__pow2f(1 - bias - mbits);
    return (float)((1u << mbits) | m) * tx__pow2f((int)e - bias - mbits);
}

static inline float tx__fnuz_to_f32(uint8_t b, int mbits, int bias) {
    if (b == 0x80u) return tx__bits_to_f32(0xffc00000u);
    float v = tx__code_value(b & 0x7fu, mbits, bias);
    return (b & 0x80u) ? -v : v;
}

static inline uint8_t tx__f64_to_fnuz(double x, int mbits, int bias) {
    uint64_t bits = tx__f64_bits(x), ax = bits & 0x7fffffffffffffffull;
    if (ax >= 0x7ff0000000000000ull) return 0x80u;
    int64_t code = tx__round_to_code(ax, mbits, bias);
    if (code > 0x7f) return 0x80u;
    return code == 0 ? 0u : (uint8_t)(((bits >> 56) & 0x80u) | (unsigned)code);
}

/* float6 / float4: `bits` value bits (sign, exponent, mantissa) in the low bits of a byte. */
static inline float tx__mx_to_f32(uint8_t b, int bits, int mbits, int bias) {
    float v = tx__code_value(b & ((1u << (bits - 1)) - 1u), mbits, bias);
    return (b >> (bits - 1)) ? -v : v;
}

static inline uint8_t tx__f64_to_mx(double x, int bits, int mbits, int bias) {
    uint64_t xb = tx__f64_bits(x), ax = xb & 0x7fffffffffffffffull;
    unsigned sbit = 1u << (bits - 1), maxcode = sbit - 1u, sign = (xb >> 63) ? sbit : 0u;
    if (ax > 0x7ff0000000000000ull) return (uint8_t)(sign ^ sbit);
    if (ax == 0x7ff0000000000000ull) return (uint8_t)(sign | maxcode);
    int64_t code = tx__round_to_code(ax, mbits, bias);
    return (uint8_t)(sign | (code > (int64_t)maxcode ? maxcode : (unsigned)code));
}

static inline float tx__e8m0_to_f32(uint8_t b) {
    if (b == 0xffu) return tx__bits_to_f32(0x7fc00000u);
    return b ? tx__bits_to_f32((uint32_t)b << 23) : tx__bits_to_f32(0x00400000u); /* 2^-127 */
}

static inline uint8_t tx__f64_to_e8m0(double x) {
    uint64_t bits = tx__f64_bits(x);
    if ((bits >> 63) || bits == 0 || bits >= 0x7ff0000000000000ull) return 0xffu;
    if ((bits >> 52) == 0) return 0u; /* a double subnormal: below 2^-127 */
    int e = (int)(bits >> 52) - 1023 + (int)((bits >> 51) & 1u); /* a halfway mantissa rounds up */
    return e < -127 ? 0u : e > 127 ? 0xffu : (uint8_t)(e + 127);
}

/* ---- ONNX Cast's rules (tx_cast_in_mode's TX_CAST_ONNX; loops in cast_onnx.c) ---- */

/* ONNX's round_mode for float8_e8m0fnu targets. */
enum { TX__ROUND_UP = 0, TX__ROUND_DOWN = 1, TX__ROUND_NEAREST = 2 };

/* ONNX Cast of the float32 x to float8_e8m0fnu, as ONNX Runtime's CPU provider converts (the
 * spec's table, with negatives, which it leaves unspecified, below the range): NaN gives NaN;
 * x above 2^127 (+inf too) gives 2^127, x below 2^-127 (zero, negatives, -inf) 2^-127, or NaN
 * for both without saturate; otherwise 2^floor(log2 x) plus one step when `round` says: up for
 * any fraction, nearest for a fraction of at least one half (ties up), down never. */
static inline uint8_t tx__onnx_e8m0(float x, bool saturate, int round) {
    uint32_t b = tx__f32_to_bits(x), e = b >> 23, m = b & 0x7fffffu;
    if ((b & 0x7fffffffu) > 0x7f800000u) return 0xffu;
    if ((b >> 31) || b < 0x00400000u) return saturate ? 0x00u : 0xffu;
    if (b > 0x7f000000u) return saturate ? 0xfeu : 0xffu;
    if (e == 0) m = (b - 0x00400000u) << 1; /* a subnormal in [2^-127, 2^-126): its fraction */
    unsigned up = round == TX__ROUND_DOWN ? 0u : round == TX__ROUND_NEAREST ? m >= 0x400000u : m != 0;
    return (uint8_t)(e + up);
}

/* ONNX Cast saturate=1 into a float8 format whose largest finite value is max: +-inf and values
 * beyond it become +-max before rounding; NaN passes (both comparisons are false). */
static inline double tx__clamp_abs(double x, double max) { return x > max ? max : x < -max ? -max : x; }

/* ONNX Cast of a float to int4 / uint4 / int2 / uint2 (onnx docs, technical/int4.md, int2.md):
 * round to nearest, ties to even, then clamp to [lo, hi]; NaN gives 0.  Exact and independent
 * of the floating-point environment: the clamped value is small. */
static inline int64_t tx__onnx_round_clamp(double x, double lo, double hi) {
    if (!(x == x)) return 0;
    x = x < lo ? lo : x > hi ? hi : x;
    double r = floor(x), d = x - r;
    if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0)) r += 1.0;
    return (int64_t)r;
}

/* n elements of an ONNX Cast preset: src holds the values as float64, or as float32 for a
 * float8_e8m0fnu target (ONNX converts through float32); dst is `to`, one of the preset's
 * targets (float8_e4m3fn, float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz with saturate=1,
 * float8_e8m0fnu, int4, uint4, int2, uint2). */
TX_HIDDEN void tx__onnx_convert(tx_dtype to, bool saturate, int round, void *dst, const void *src,
                                int64_t n);

#define TX__E4M3FNUZ 3, 8 /* mantissa bits, bias */
#define TX__E4M3B11FNUZ 3, 11
#define TX__E5M2FNUZ 2, 16
#define TX__E2M1FN 4, 1, 1 /* value bits, mantissa bits, bias */
#define TX__E2M3FN 6, 3, 1
#define TX__E3M2FN 6, 2, 3

/* ---- float -> integer, x86-64 semantics without undefined behaviour ---- */

/* cvttsd2si with a 32-bit destination: truncation, INT32_MIN for NaN and out of range. */
static inline int32_t tx__cvtt_i32(double x) {
    if (x >= -2147483648.0 && x < 2147483648.0) return (int32_t)x;
    return INT32_MIN;
}

/* cvttsd2si with a 64-bit destination: truncation, INT64_MIN for NaN and out of range. */
static inline int64_t tx__cvtt_i64(double x) {
    if (x >= -0x1p63 && x < 0x1p63) return (int64_t)x;
    return INT64_MIN;
}

/* static_cast<uint64_t>(double) as clang compiles it for x86-64 (two cvttsd2si, sign-selected). */
static inline uint64_t tx__cvtt_u64(double x) {
    if (x >= 0x1p63 && x < 0x1p64) return (uint64_t)x;
    return (uint64_t)tx__cvtt_i64(x);
}

/* ---- int4 / uint4 and int2 / uint2 (one per byte: the value in the low bits, as TF 2.21 and
 * ml_dtypes hold them) ---- */

/* The byte an int4 / uint4 conversion writes: v's low 4 bits, zeros above (the wrap modulo 16
 * every conversion to them applies; TF 2.21 decides: int4 -6 is the byte 0x0a, not 0xfa). */
static inline int8_t tx__wrap_i4(uint64_t v) { return (int8_t)(v & 0xFu); }
static inline uint8_t tx__wrap_u4(uint64_t v) { return (uint8_t)(v & 0xFu); }
/* The value of an int4 / uint4 byte: its low 4 bits (sign-extended from bit 3 for int4); the
 * upper 4 bits are ignored, whatever they hold (a TF tensor may carry any). */
static inline int8_t tx__i4_value(uint8_t b) { return (int8_t)((int)((b & 0xFu) ^ 8u) - 8); }
static inline uint8_t tx__u4_value(uint8_t b) { return (uint8_t)(b & 0xFu); }

/* int2 / uint2 follow int4's rules with 2 bits (TF 2.21 has their DataTypes but no Cast kernel;
 * int4's TF rule is the one TF's would be): conversions wrap modulo 4, readers use the low 2
 * bits. */
static inline int8_t tx__wrap_i2(uint64_t v) { return (int8_t)(v & 0x3u); }
static inline uint8_t tx__wrap_u2(uint64_t v) { return (uint8_t)(v & 0x3u); }
static inline int8_t tx__i2_value(uint8_t b) { return (int8_t)((int)((b & 0x3u) ^ 2u) - 2); }
static inline uint8_t tx__u2_value(uint8_t b) { return (uint8_t)(b & 0x3u); }

/* ---- the cast kernel table ---- */

/* Converts n contiguous elements; src and dst do not overlap. */
typedef void (*tx__cast_fn)(void *dst, const void *src, int64_t n);

/* Table size: one entry per TF DataType number. */
#define TX__CAST_IDS TX__DTYPE_ID_LIMIT

/* The portable (from, to) kernel for two dtypes, NULL when the pair has no conversion (string).
 * Quantized types convert as their integer storage.  Ops reach it through tx__cast_select
 * (dispatch/dispatch.h), which takes the CPU level's kernel instead for the hot pairs. */
TX_HIDDEN tx__cast_fn tx__cast_kernel(tx_dtype from, tx_dtype to);

/* ---- clamping for saturate_cast (cast_clamp.c) ---- */

/* Bounds in the element type being clamped: ilo/ihi for integer types, flo/fhi (values that the
 * type represents exactly) for float16, bfloat16, float32 and float64. */
typedef struct tx__clamp_bounds {
    int64_t ilo;
    uint64_t ihi;
    double flo, fhi;
} tx__clamp_bounds;

/* v = max(min(v, hi), lo) for n contiguous elements of the real dtype `type`, in place, with
 * std::min/std::max's comparisons as TF's ClipByValue uses them, so NaN passes through. */
TX_HIDDEN void tx__clamp_real(tx_dtype type, void *data, int64_t n, const tx__clamp_bounds *b);

/* ---- byte order (cast_swap.c), for decode_raw ---- */

/* Copies n elements of `width` bytes (2, 4 or 8) from src to dst, reversing each element's bytes. */
TX_HIDDEN void tx__swap_copy(void *dst, const void *src, int64_t n, size_t width);

#endif
