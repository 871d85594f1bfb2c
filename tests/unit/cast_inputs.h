/* SPDX-License-Identifier: Apache-2.0 */
/* cast_inputs.h -- inputs for the cast tests (tests/kernels/checkasm_cast.c, test_levels.c): bit
 * patterns of each source type, half random, half the special values of the cast rules (NaNs of
 * every payload and sign, +-inf, +-0, subnormals, rounding ties and their neighbours, range
 * edges).  The includer defines uint64_t rnd(void). */
#ifndef TX_TESTS_CAST_INPUTS_H
#define TX_TESTS_CAST_INPUTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static const uint32_t f32_special[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000,                         /* +-0, +-inf */
    0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff, /* NaNs */
    0x7fa00000, 0x7f802000, 0x7f801fff, 0x7fc01000, 0xffbfffff, 0x7f800100, 0xff80e000,
    0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00400000, 0x00800000, /* subnormals */
    0x477fe000, 0x477fefff, 0x477ff000, 0x477ff001, 0x477fffff, 0x47800000, /* f16 max / overflow */
    0x38800000, 0x387fffff, 0x387fe000, 0x387ff000, 0x33000000, 0x33000001, /* f16 subnormal edge */
    0x32ffffff, 0x33800000, 0x33c00000, 0x34000000, 0xb3000000, 0xb3000001,
    0x3f808000, 0x3f818000, 0x3f807fff, 0x3f808001, 0x7f7f8000, 0x7f7fffff, /* bf16 ties / max */
    0xff7f8000, 0x00008000, 0x00018000, 0x80008000,
    0x4f000000, 0xcf000000, 0x4effffff, 0xcf000001, 0x4f800000, 0x5f000000, /* int32 range */
    0x3f000000, 0xbf000000, 0x3f7fffff, 0xbf7fffff, 0x437f0000, 0x437f8000, /* 0.5, 255, 255.5 */
    0x43800000, 0x437fffff, 0xbf800000, 0xc3000000, 0x3f800000, 0x42c80000,
};

static const uint64_t f64_special[] = {
    0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0xfff0000000000000,
    0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000000001,
    0x7ff0000020000000, 0x7ff000001fffffff, 0x7ff4000000000000, 0x7fffffffffffffff,
    0x0000000000000001, 0x800fffffffffffff, 0x36a0000000000000, 0x36a0000000000001, /* f32 denorm */
    0x3690000000000000, 0x369fffffffffffff, 0x380fffffe0000000, 0x380ffffff0000000,
    0x47efffffe0000000, 0x47efffffefffffff, 0x47effffff0000000, 0x47f0000000000000, /* f32 max */
    0xc7effffff0000000, 0x3ff0000010000000, 0x3ff0000030000000, 0x3ff000000fffffff,
    0x3ff0000010000001, 0xbff0000010000000, 0x4160000000000000, 0x41dfffffffc00000,
};

static const uint32_t i32_special[] = {0x80000000, 0x7fffffff, 0, 1, 0xffffffff, 16777216,
                                       16777217, 16777219, 0xfeffffff, 0xff000001, 0x7fffffc0,
                                       0x7fffffbf, 0x80000040, 33554435};

/* float32 bits: half random, half special values or values near rounding boundaries. */
static inline uint32_t gen_f32(void) {
    uint64_t r = rnd();
    switch (r % 6) {
    case 0: return f32_special[(r >> 8) % (sizeof f32_special / sizeof *f32_special)];
    case 1: { /* random sign and exponent, a tie pattern in the low bits */
        static const uint32_t low[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff,
                                       0x2000, 0x3000, 0x7fff, 0x8000, 0x8001, 0xffff};
        return ((uint32_t)(r >> 32) & 0xffff0000u) | low[(r >> 8) % 12];
    }
    case 2: /* exponents around the float16 range, random mantissa */
        return (uint32_t)((r >> 40) & 0x80000000u) | (uint32_t)((100 + (r >> 16) % 45) << 23) |
               (uint32_t)((r >> 20) & 0x7fffffu);
    case 3: /* exponents around the int32 / uint8 ranges */
        return (uint32_t)((r >> 40) & 0x80000000u) | (uint32_t)((120 + (r >> 16) % 40) << 23) |
               (uint32_t)((r >> 20) & 0x7fffffu);
    default: return (uint32_t)(r >> 16);
    }
}

static inline uint64_t gen_f64(void) {
    uint64_t r = rnd();
    switch (r % 5) {
    case 0: return f64_special[(r >> 8) % (sizeof f64_special / sizeof *f64_special)];
    case 1: { /* exponents across the float32 range and its edges, low bits near the tie */
        static const uint64_t low[] = {0, 1, 0x0fffffff, 0x10000000, 0x10000001, 0x1fffffff};
        uint64_t e = 1023 - 160 + (r >> 8) % 300;
        return ((r << 1) & 0x8000000000000000ull) | (e << 52) |
               ((rnd() & 0xfffffe0000000ull) | low[(r >> 20) % 6]);
    }
    case 2: return rnd() | 0x7ff0000000000000ull; /* NaN or inf, random payload and sign */
    default: return rnd();
    }
}

static inline uint32_t gen_i32(void) {
    uint64_t r = rnd();
    if (r % 4 == 0) return i32_special[(r >> 8) % (sizeof i32_special / sizeof *i32_special)];
    if (r % 4 == 1) return (uint32_t)(r >> 20) >> ((r >> 8) % 32); /* all magnitudes */
    return (uint32_t)(r >> 16);
}

static inline uint16_t gen_h16(void) {
    static const uint16_t sp[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7c01, 0xfc01, 0x7dff, 0x7e00,
                                  0xfe00, 0x7fff, 0xffff, 0x0001, 0x03ff, 0x8001, 0x0400, 0x7bff,
                                  0x7f80, 0xff80, 0x7f81, 0x7fc0, 0x7fbf, 0x0080, 0x007f};
    uint64_t r = rnd();
    return r % 4 == 0 ? sp[(r >> 8) % (sizeof sp / sizeof *sp)] : (uint16_t)(r >> 24);
}

/* Fills n elements of the input of a kernel. */
typedef enum { IN_F32, IN_F64, IN_I32, IN_H16, IN_U8 } in_kind;

static inline void fill_input(unsigned char *p, in_kind kind, size_t n, size_t width) {
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case IN_F32: { uint32_t v = gen_f32(); memcpy(p + 4 * i, &v, 4); break; }
        case IN_F64: { uint64_t v = gen_f64(); memcpy(p + 8 * i, &v, 8); break; }
        case IN_I32: { uint32_t v = gen_i32(); memcpy(p + 4 * i, &v, 4); break; }
        case IN_H16: { uint16_t v = gen_h16(); memcpy(p + 2 * i, &v, 2); break; }
        case IN_U8:
            for (size_t k = 0; k < width; k++) p[width * i + k] = (unsigned char)(rnd() >> 24);
            break;
        }
    }
}

#endif
