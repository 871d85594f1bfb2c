/* SPDX-License-Identifier: Apache-2.0 */
/* test_cast_kernels.c -- checkasm-style tests of the SIMD cast and byte-swap kernels
 * (src/kernels/cast.h; serving tf.cast, tf.saturate_cast and tf.io.decode_raw): every entry
 * of every CPU level this machine has, plain and streaming-store, against the portable kernel, bit
 * for bit, on random bit patterns mixed with the special values of each rule (NaNs of every
 * payload and sign, +-inf, +-0, subnormals, rounding ties and their neighbours, integer range
 * edges); every count from 0 to past three iterations of the widest vector body plus longer runs;
 * sources flush against an inaccessible page on either side and at every misalignment;
 * destinations misaligned, prefilled with noise and fenced by guard bytes.  Also: the fused
 * saturate_cast kernel against the clamp + cast path it replaces, exhaustive 16-bit inputs, and
 * the public ops under tx_set_cpu_mask(TX_ISA_SCALAR) against the default level. */
#define _DEFAULT_SOURCE 1 /* mmap MAP_ANONYMOUS, mprotect */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "testutil.h"

#include "dispatch/cpu.h"
#include "dispatch/dispatch.h"
#include "kernels/cast.h"

#define GUARD 96
#define GUARD_BYTE 0x5A
#define MAX_ELEMS 4200
#define REGION (MAX_ELEMS * 8 + 256)

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* ---- inputs ---- */

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
static uint32_t gen_f32(void) {
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

static uint64_t gen_f64(void) {
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

static uint32_t gen_i32(void) {
    uint64_t r = rnd();
    if (r % 4 == 0) return i32_special[(r >> 8) % (sizeof i32_special / sizeof *i32_special)];
    if (r % 4 == 1) return (uint32_t)(r >> 20) >> ((r >> 8) % 32); /* all magnitudes */
    return (uint32_t)(r >> 16);
}

static uint16_t gen_h16(void) {
    static const uint16_t sp[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7c01, 0xfc01, 0x7dff, 0x7e00,
                                  0xfe00, 0x7fff, 0xffff, 0x0001, 0x03ff, 0x8001, 0x0400, 0x7bff,
                                  0x7f80, 0xff80, 0x7f81, 0x7fc0, 0x7fbf, 0x0080, 0x007f};
    uint64_t r = rnd();
    return r % 4 == 0 ? sp[(r >> 8) % (sizeof sp / sizeof *sp)] : (uint16_t)(r >> 24);
}

/* Fills n elements of the input of a kernel. */
typedef enum { IN_F32, IN_F64, IN_I32, IN_H16, IN_U8 } in_kind;

static void fill_input(unsigned char *p, in_kind kind, size_t n, size_t width) {
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

/* ---- the kernels under test ---- */

typedef struct kernel_case {
    const char *name;
    int pair;       /* TX__CP_*, or -1 for a swap */
    int swap_index; /* for swaps */
    size_t in_size, out_size;
    in_kind kind;
} kernel_case;

static const kernel_case cases[] = {
    {"f32->f16", TX__CP_F32_F16, 0, 4, 2, IN_F32},
    {"f16->f32", TX__CP_F16_F32, 0, 2, 4, IN_H16},
    {"f32->bf16", TX__CP_F32_BF16, 0, 4, 2, IN_F32},
    {"bf16->f32", TX__CP_BF16_F32, 0, 2, 4, IN_H16},
    {"f32->i32", TX__CP_F32_I32, 0, 4, 4, IN_F32},
    {"i32->f32", TX__CP_I32_F32, 0, 4, 4, IN_I32},
    {"f64->f32", TX__CP_F64_F32, 0, 8, 4, IN_F64},
    {"u8->f32", TX__CP_U8_F32, 0, 1, 4, IN_U8},
    {"saturate f32->u8", TX__CP_SAT_F32_U8, 0, 4, 1, IN_F32},
    {"swap2", -1, 0, 2, 2, IN_U8},
    {"swap4", -1, 1, 4, 4, IN_U8},
    {"swap8", -1, 2, 8, 8, IN_U8},
};
#define NCASES (sizeof cases / sizeof *cases)

static tx__cast_fn kernel_of(const tx__kernels *t, const kernel_case *c, bool nt) {
    if (c->pair >= 0) return nt ? t->cast_stream[c->pair] : t->cast[c->pair];
    return nt ? t->byteswap_stream[c->swap_index] : t->byteswap[c->swap_index];
}

/* A region with an inaccessible page on each side: a source flush against either end faults if a
 * kernel reads one byte outside it. */
static unsigned char *region_base;
static size_t region_len;

static unsigned char *region_open(void) {
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    region_len = (REGION + pg - 1) / pg * pg;
    unsigned char *m = mmap(NULL, region_len + 2 * pg, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    assert_int_equal(mprotect(m, pg, PROT_NONE), 0);
    assert_int_equal(mprotect(m + pg + region_len, pg, PROT_NONE), 0);
    region_base = m + pg;
    return m;
}

static void region_close(unsigned char *m) {
    munmap(m, region_len + 2 * (size_t)sysconf(_SC_PAGESIZE));
}

static long runs;

/* Runs `fn` on the n-element input `in` placed at `src` and compares with `want` (n * out bytes),
 * with the destination misaligned by dmis, noise in it and guard bytes around it. */
static void check_one(const kernel_case *c, tx__cast_fn fn, const char *level, bool nt,
                      const unsigned char *in, unsigned char *src, size_t n, size_t dmis,
                      const unsigned char *want) {
    size_t ib = n * c->in_size, ob = n * c->out_size;
    if (ib) memmove(src, in, ib);
    unsigned char *block = malloc(ob + 2 * GUARD + 64);
    assert_non_null(block);
    memset(block, GUARD_BYTE, ob + 2 * GUARD + 64);
    unsigned char *dst = block + GUARD + dmis;
    for (size_t i = 0; i < ob; i++) dst[i] = (unsigned char)rnd();
    fn(dst, src, (int64_t)n);
    runs++;
    if (ob && memcmp(dst, want, ob) != 0) {
        size_t i = 0;
        while (dst[i] == want[i]) i++;
        size_t e = i / c->out_size;
        fprintf(stderr, "%s %s%s n=%zu src=%p dst+%zu: element %zu differs; input bytes", c->name,
                level, nt ? " (streaming)" : "", n, (void *)src, dmis, e);
        for (size_t k = 0; k < c->in_size; k++) fprintf(stderr, " %02x", in[e * c->in_size + k]);
        fprintf(stderr, "; want");
        for (size_t k = 0; k < c->out_size; k++) fprintf(stderr, " %02x", want[e * c->out_size + k]);
        fprintf(stderr, " got");
        for (size_t k = 0; k < c->out_size; k++) fprintf(stderr, " %02x", dst[e * c->out_size + k]);
        fprintf(stderr, "\n");
        fail();
    }
    for (size_t i = 0; i < GUARD + dmis; i++) assert_int_equal(block[i], GUARD_BYTE);
    for (size_t i = GUARD + dmis + ob; i < ob + 2 * GUARD + 64; i++)
        assert_int_equal(block[i], GUARD_BYTE);
    free(block);
}

static void every_kernel_every_level(void **state) {
    (void)state;
    unsigned char *map = region_open();
    unsigned char *in = malloc(REGION), *aligned_in = aligned_alloc(64, REGION),
                  *want = aligned_alloc(64, REGION);
    assert_non_null(in);
    assert_non_null(aligned_in);
    assert_non_null(want);
    size_t counts[160];
    size_t nc = 0;
    for (size_t n = 0; n <= 100; n++) counts[nc++] = n; /* past 3 x 32 lanes of the widest body */
    const size_t more[] = {127, 128, 129, 191, 192, 193, 255, 256, 257, 511, 1000,
                           1023, 1024, 1025, 2047, 4096, 4099, MAX_ELEMS};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) counts[nc++] = more[i];
    tx_isa_level have = tx_cpu_detected_level();
    const tx__kernels *ref = tx__kernels_at(TX_ISA_SCALAR);
    int levels = 0;
    for (int lv = TX_ISA_AVX2; lv <= (int)have; lv++) {
        if (!tx__cpu_has((tx_isa_level)lv)) continue; /* x86-64 levels on aarch64 */
        const tx__kernels *K = tx__kernels_at((tx_isa_level)lv);
        assert_int_equal(K->level, lv);
        levels++;
        for (size_t ci = 0; ci < NCASES; ci++) {
            const kernel_case *c = &cases[ci];
            for (size_t k = 0; k < nc; k++) {
                size_t n = counts[k], ib = n * c->in_size, ob = n * c->out_size;
                fill_input(in, c->kind, n, c->in_size);
                memcpy(aligned_in, in, ib);
                /* the scalar reference, on aligned memory */
                kernel_of(ref, c, false)(want, aligned_in, (int64_t)n);
                for (int nt = 0; nt < 2; nt++) {
                    tx__cast_fn fn = kernel_of(K, c, nt);
                    assert_non_null(fn);
                    const char *ln = tx_isa_level_name((tx_isa_level)lv);
                    /* flush against the page before, flush against the page after */
                    check_one(c, fn, ln, nt, in, region_base, n, 0, want);
                    check_one(c, fn, ln, nt, in, region_base + region_len - ib, n, 0, want);
                    /* misaligned source and destination (element multiples and odd bytes) */
                    const size_t dm[] = {1, 33, c->out_size, 3 * c->out_size, 7 * c->out_size,
                                         13 * c->out_size + 1};
                    for (size_t m = 0; m < sizeof dm / sizeof *dm; m++) {
                        size_t smis = (m * 2 + 1) % 64 + (m % 2 ? c->in_size : 0);
                        check_one(c, fn, ln, nt, in, region_base + 64 + smis, n, dm[m] % 64, want);
                    }
                    (void)ob;
                }
            }
        }
    }
    if (levels == 0) fprintf(stderr, "note: no SIMD level on this CPU; only the scalar table ran\n");
    else fprintf(stderr, "%ld kernel runs at %d SIMD level(s)\n", runs, levels);
    free(in);
    free(aligned_in);
    free(want);
    region_close(map);
}

/* Long runs through the streaming-store kernels, from every destination offset in a 64-byte line
 * (the head before the stream alignment), against the scalar reference. */
static void streaming_heads_and_long_runs(void **state) {
    (void)state;
    const size_t n = 70001;
    tx_isa_level have = tx_cpu_detected_level();
    const tx__kernels *ref = tx__kernels_at(TX_ISA_SCALAR);
    unsigned char *in = malloc(n * 8), *want = malloc(n * 8), *got = malloc(n * 8 + 128);
    assert_non_null(in);
    assert_non_null(want);
    assert_non_null(got);
    for (size_t ci = 0; ci < NCASES; ci++) {
        const kernel_case *c = &cases[ci];
        fill_input(in, c->kind, n, c->in_size);
        kernel_of(ref, c, false)(want, in, (int64_t)n);
        for (int lv = TX_ISA_AVX2; lv <= (int)have; lv++) {
            if (!tx__cpu_has((tx_isa_level)lv)) continue; /* x86-64 levels on aarch64 */
            tx__cast_fn fn = kernel_of(tx__kernels_at((tx_isa_level)lv), c, true);
            for (size_t off = 0; off < 64; off += c->out_size) {
                size_t m = n - off % 7;
                memset(got, GUARD_BYTE, n * 8 + 128);
                fn(got + off, in, (int64_t)m);
                assert_memory_equal(got + off, want, m * c->out_size);
                for (size_t i = 0; i < off; i++) assert_int_equal(got[i], GUARD_BYTE);
                assert_int_equal(got[off + m * c->out_size], GUARD_BYTE);
            }
        }
    }
    free(in);
    free(want);
    free(got);
}

/* Every float16 and bfloat16 bit pattern through the widening kernels at every level, and the
 * narrowing ones on every float32 whose low 16 bits are one of the rounding-relevant patterns
 * (every sign, exponent and top mantissa bits). */
static void exhaustive_16_bit_patterns(void **state) {
    (void)state;
    const size_t n = 65536;
    static const uint16_t low[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x2001,
                                   0x3fff, 0x4000, 0x4001, 0x7fff, 0x8000, 0x8001, 0xffff, 0x5a5a};
    const size_t nl = sizeof low / sizeof *low;
    uint16_t *h = malloc(n * 2);
    uint32_t *f = malloc(n * nl * 4), *want = malloc(n * nl * 4), *got = malloc(n * nl * 4);
    assert_non_null(h);
    assert_non_null(f);
    assert_non_null(want);
    assert_non_null(got);
    for (size_t i = 0; i < n; i++) h[i] = (uint16_t)i;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < nl; k++) f[i * nl + k] = ((uint32_t)i << 16) | low[k];
    const tx__kernels *ref = tx__kernels_at(TX_ISA_SCALAR);
    const int widen[] = {TX__CP_F16_F32, TX__CP_BF16_F32};
    const int narrow[] = {TX__CP_F32_F16, TX__CP_F32_BF16, TX__CP_F32_I32, TX__CP_SAT_F32_U8};
    const size_t narrow_out[] = {2, 2, 4, 1};
    tx_isa_level have = tx_cpu_detected_level();
    for (int lv = TX_ISA_AVX2; lv <= (int)have; lv++) {
        if (!tx__cpu_has((tx_isa_level)lv)) continue; /* x86-64 levels on aarch64 */
        const tx__kernels *K = tx__kernels_at((tx_isa_level)lv);
        for (int w = 0; w < 2; w++) {
            ref->cast[widen[w]](want, h, (int64_t)n);
            K->cast[widen[w]](got, h, (int64_t)n);
            assert_memory_equal(got, want, n * 4);
            K->cast_stream[widen[w]](got, h, (int64_t)n);
            assert_memory_equal(got, want, n * 4);
        }
        for (int p = 0; p < 4; p++) {
            ref->cast[narrow[p]](want, f, (int64_t)(n * nl));
            K->cast[narrow[p]](got, f, (int64_t)(n * nl));
            assert_memory_equal(got, want, n * nl * narrow_out[p]);
            K->cast_stream[narrow[p]](got, f, (int64_t)(n * nl));
            assert_memory_equal(got, want, n * nl * narrow_out[p]);
        }
    }
    free(h);
    free(f);
    free(want);
    free(got);
}

/* The scalar rules themselves on NaN payloads, bfloat16 and the x86 integer codes, so a change
 * in convert.h that left TF 2.21's results would be caught. */
static void scalar_rules_on_nan_payloads(void **state) {
    (void)state;
    const tx__kernels *ref = tx__kernels_at(TX_ISA_SCALAR);
    const uint32_t f[] = {0x7f800001, 0xffc12345, 0x7fffffff, 0x7fa00000};
    uint16_t h[4], b[4];
    ref->cast[TX__CP_F32_F16](h, f, 4);
    ref->cast[TX__CP_F32_BF16](b, f, 4);
    /* TF 2.21 decides (F16C): sign | 0x7e00 | (mantissa >> 13) */
    const uint16_t hw[] = {0x7e00, 0xfe09, 0x7fff, 0x7f00};
    const uint16_t bw[] = {0x7fc0, 0xffc0, 0x7fc0, 0x7fc0}; /* Eigen: sign | 0x7fc0 */
    assert_memory_equal(h, hw, sizeof hw);
    assert_memory_equal(b, bw, sizeof bw);
    const uint16_t sn[] = {0x7c01, 0xfd55, 0x7e01};
    uint32_t w[3];
    ref->cast[TX__CP_F16_F32](w, sn, 3);
    assert_int_equal(w[0], 0x7fc02000); /* TF 2.21 decides (F16C): quieted, payload kept */
    assert_int_equal(w[1], 0xffeaa000);
    assert_int_equal(w[2], 0x7fc02000);
    const uint32_t big[] = {0x4f000000, 0xcf000001, 0x7fc00000, 0xcf000000};
    int32_t i[4];
    ref->cast[TX__CP_F32_I32](i, big, 4);
    assert_int_equal(i[0], INT32_MIN);
    assert_int_equal(i[1], INT32_MIN);
    assert_int_equal(i[2], INT32_MIN);
    assert_int_equal(i[3], INT32_MIN);
    const float s[] = {NAN, -NAN, -1.0f, 255.9f, 1e9f, -0.0f, INFINITY, -INFINITY};
    uint8_t u[8];
    ref->cast[TX__CP_SAT_F32_U8](u, s, 8);
    const uint8_t uw[] = {0, 0, 0, 255, 255, 0, 255, 0};
    assert_memory_equal(u, uw, 8);
}

/* The fused saturate_cast kernel against what saturate_cast did before it: clamp with the bounds
 * it computes for float32 -> uint8, then the ordinary cast. */
static void fused_saturate_matches_clamp_then_cast(void **state) {
    (void)state;
    const size_t n = 200000;
    float *v = malloc(n * 4);
    uint8_t *want = malloc(n), *got = malloc(n);
    assert_non_null(v);
    assert_non_null(want);
    assert_non_null(got);
    for (size_t i = 0; i < n; i++) {
        uint32_t b = gen_f32();
        memcpy(&v[i], &b, 4);
    }
    tx__cast_sat_f32_u8_scalar(got, v, (int64_t)n);
    tx__clamp_bounds b = {0, 0, 0.0, 255.0};
    tx__clamp_real(TX_FLOAT32, v, (int64_t)n, &b);
    tx__cast_kernel(TX_FLOAT32, TX_UINT8)(want, v, (int64_t)n);
    assert_memory_equal(got, want, n);
    free(v);
    free(want);
    free(got);
}

/* ---- the public ops: scalar level vs the default level ---- */

static tx_tensor *random_tensor(tx_dtype t, int64_t n) {
    size_t sz = tx_dtype_size(t);
    unsigned char *p = malloc((size_t)n * sz + 1);
    assert_non_null(p);
    in_kind kind = t == TX_FLOAT32 ? IN_F32 : t == TX_FLOAT64 ? IN_F64 : t == TX_INT32 ? IN_I32
                 : (t == TX_FLOAT16 || t == TX_BFLOAT16) ? IN_H16 : IN_U8;
    fill_input(p, kind, (size_t)n, sz);
    tx_tensor *x = NULL;
    assert_int_equal(tx_tensor_from_data(t, 1, &n, p, (size_t)n * sz, &x), TX_OK);
    free(p);
    return x;
}

typedef tx_status (*op_fn)(const tx_tensor *x, tx_dtype t, tx_tensor **out);

static void same_at_levels(op_fn op, const tx_tensor *x, tx_dtype to) {
    tx_isa_level have = tx_cpu_detected_level();
    tx_set_cpu_mask(TX_ISA_SCALAR);
    tx_tensor *ref = NULL;
    assert_int_equal(op(x, to, &ref), TX_OK);
    for (int lv = TX_ISA_AVX2; lv <= (int)have; lv++) {
        if (!tx__cpu_has((tx_isa_level)lv)) continue; /* x86-64 levels on aarch64 */
        assert_int_equal(tx_set_cpu_mask((tx_isa_level)lv), lv);
        for (int threads = 1; threads <= 2; threads++) {
            tx_set_num_threads(threads);
            tx_tensor *got = NULL;
            assert_int_equal(op(x, to, &got), TX_OK);
            assert_int_equal(tx_tensor_nbytes(got), tx_tensor_nbytes(ref));
            assert_memory_equal(tx_tensor_data(got), tx_tensor_data(ref), tx_tensor_nbytes(ref));
            tx_tensor_free(got);
        }
    }
    tx_set_num_threads(0);
    tx_set_cpu_mask((tx_isa_level)99);
    tx_tensor_free(ref);
}

static void public_casts_same_at_every_level(void **state) {
    (void)state;
    static const struct { tx_dtype from, to; } pairs[] = {
        {TX_FLOAT32, TX_FLOAT16}, {TX_FLOAT16, TX_FLOAT32}, {TX_FLOAT32, TX_BFLOAT16},
        {TX_BFLOAT16, TX_FLOAT32}, {TX_FLOAT32, TX_INT32}, {TX_INT32, TX_FLOAT32},
        {TX_FLOAT64, TX_FLOAT32}, {TX_UINT8, TX_FLOAT32}, {TX_FLOAT32, TX_QINT32},
        {TX_QUINT8, TX_FLOAT32}, {TX_QINT32, TX_FLOAT32}};
    /* small, and large enough to be split over the threads (the streaming kernels, which the op
     * takes from TX_STREAM_SEQ_MIN_BYTES, are checked against the scalar rules by checkasm) */
    const int64_t sizes[] = {1, 37, 100003, ((int64_t)9 << 20) / 2 + 13};
    for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++)
        for (size_t s = 0; s < 4; s++) {
            tx_tensor *x = random_tensor(pairs[p].from, sizes[s]);
            same_at_levels(tx_cast, x, pairs[p].to);
            if (pairs[p].from == TX_FLOAT32 && pairs[p].to == TX_FLOAT16) {
                tx_tensor *y = random_tensor(TX_FLOAT32, sizes[s] * 2 + 1);
                same_at_levels(tx_saturate_cast, y, TX_UINT8);
                tx_tensor_free(y);
            }
            tx_tensor_free(x);
        }
}

static tx_status decode_le(const tx_tensor *x, tx_dtype t, tx_tensor **out) {
    return tx_decode_raw(x, t, 1, NULL, out);
}
static tx_status decode_be(const tx_tensor *x, tx_dtype t, tx_tensor **out) {
    return tx_decode_raw(x, t, 0, NULL, out);
}
static int64_t fixed_len;
static tx_status decode_be_fixed(const tx_tensor *x, tx_dtype t, tx_tensor **out) {
    return tx_decode_raw(x, t, 0, &fixed_len, out);
}

/* A string tensor of `count` strings of `len` bytes (random), or of lengths varying around len. */
static tx_tensor *random_strings(int64_t count, size_t len, bool vary) {
    char **s = malloc((size_t)count * sizeof *s);
    size_t *l = malloc((size_t)count * sizeof *l);
    assert_non_null(s);
    assert_non_null(l);
    for (int64_t i = 0; i < count; i++) {
        l[i] = vary ? len - (size_t)(rnd() % (len / 2 + 1)) + (size_t)(rnd() % 9) : len;
        s[i] = malloc(l[i] + 1);
        assert_non_null(s[i]);
        for (size_t k = 0; k < l[i]; k++) s[i][k] = (char)rnd();
    }
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new_strings(1, &count, (const char *const *)s, l, &t), TX_OK);
    for (int64_t i = 0; i < count; i++) free(s[i]);
    free(s);
    free(l);
    return t;
}

static void public_decode_raw_same_at_every_level(void **state) {
    (void)state;
    const tx_dtype types[] = {TX_INT16, TX_UINT16, TX_FLOAT16, TX_BFLOAT16, TX_INT32, TX_FLOAT32,
                              TX_INT64, TX_FLOAT64, TX_COMPLEX64, TX_COMPLEX128, TX_BOOL, TX_UINT8};
    /* one long string (split between threads inside it), many records, one record */
    tx_tensor *one = random_strings(1, ((size_t)9 << 20) + 4096 * 16, false);
    tx_tensor *recs = random_strings(20001, 64, false);
    tx_tensor *odd = random_strings(3, 48, false);
    tx_tensor *var = random_strings(5003, 40, true);
    /* rows of 24 bytes: the 2-thread split falls inside a row, next to padding and partial
     * elements */
    tx_tensor *var24 = random_strings(30001, 20, true);
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        same_at_levels(decode_le, one, types[t]);
        same_at_levels(decode_be, one, types[t]);
        same_at_levels(decode_be, recs, types[t]);
        same_at_levels(decode_be, odd, types[t]);
        if (types[t] != TX_COMPLEX64 && types[t] != TX_COMPLEX128 && types[t] != TX_BOOL) {
            for (fixed_len = 8; fixed_len <= 64; fixed_len += 56) /* truncation and padding */
                same_at_levels(decode_be_fixed, var, types[t]);
            fixed_len = 24;
            same_at_levels(decode_be_fixed, var24, types[t]);
        }
    }
    /* fixed_length 24, data in the order that is not the host's (big-endian on x86-64): each
     * string zero-padded or cut to 24 bytes, then each element reversed (checked directly, at 2
     * threads so a piece boundary falls inside a row) */
    tx_set_num_threads(2);
    const size_t widths[] = {2, 4, 8};
    const tx_dtype wtypes[] = {TX_INT16, TX_INT32, TX_INT64};
    for (int w = 0; w < 3; w++) {
        tx_tensor *o = NULL;
        int64_t fl = 24;
        assert_int_equal(tx_decode_raw(var24, wtypes[w], !TX_HOST_LITTLE_ENDIAN, &fl, &o), TX_OK);
        const unsigned char *d = tx_tensor_data(o);
        for (int64_t r = 0; r < 30001; r++) {
            const tx_string *e = tx_tensor_string(var24, r);
            unsigned char row[24] = {0};
            memcpy(row, e->data, e->size < 24 ? e->size : 24);
            for (size_t k = 0; k < 24; k++)
                assert_int_equal(d[r * 24 + (int64_t)k],
                                 row[k / widths[w] * widths[w] + widths[w] - 1 - k % widths[w]]);
        }
        tx_tensor_free(o);
    }
    tx_set_num_threads(0);
    /* the big-endian result is the byte-reversed little-endian one, element by element */
    tx_tensor *le = NULL, *be = NULL;
    assert_int_equal(tx_decode_raw(one, TX_COMPLEX128, 1, NULL, &le), TX_OK);
    assert_int_equal(tx_decode_raw(one, TX_COMPLEX128, 0, NULL, &be), TX_OK);
    const unsigned char *a = tx_tensor_data(le), *b = tx_tensor_data(be);
    for (size_t i = 0; i < tx_tensor_nbytes(le); i += 8 * 4099)
        for (size_t k = 0; k < 8; k++) assert_int_equal(a[i + k], b[i + 7 - k]);
    tx_tensor_free(le);
    tx_tensor_free(be);
    tx_tensor_free(one);
    tx_tensor_free(recs);
    tx_tensor_free(odd);
    tx_tensor_free(var);
    tx_tensor_free(var24);
}

/* Run first.  Under TENSORX_CPU=scalar (the second ctest registration) the library starts at the
 * scalar level with the portable kernels installed, and the ops give the same bits as at the
 * detected level once the cap is lifted.  Without the variable the default is the detected level. */
static void env_level_then_default(void **state) {
    (void)state;
    const char *e = getenv("TENSORX_CPU");
    bool forced = e != NULL && strcmp(e, "scalar") == 0;
    assert_int_equal(tx_cpu_level(), forced ? TX_ISA_SCALAR : tx_cpu_detected_level());
    if (forced)
        assert_ptr_equal(tx__kernels_get()->cast[TX__CP_F32_F16], tx__cast_f32_f16_scalar);
    const tx_dtype from[] = {TX_FLOAT32, TX_FLOAT16, TX_FLOAT64, TX_UINT8};
    const tx_dtype to[] = {TX_FLOAT16, TX_FLOAT32, TX_FLOAT32, TX_FLOAT32};
    for (int p = 0; p < 4; p++) {
        tx_tensor *x = random_tensor(from[p], ((int64_t)5 << 20) + 3), *ref = NULL, *got = NULL;
        assert_int_equal(tx_cast(x, to[p], &ref), TX_OK); /* at the initial level */
        tx_set_cpu_mask((tx_isa_level)99);
        assert_int_equal(tx_cpu_level(), tx_cpu_detected_level());
        assert_int_equal(tx_cast(x, to[p], &got), TX_OK);
        assert_memory_equal(tx_tensor_data(got), tx_tensor_data(ref), tx_tensor_nbytes(ref));
        if (forced) tx_set_cpu_mask(TX_ISA_SCALAR);
        tx_tensor_free(x);
        tx_tensor_free(ref);
        tx_tensor_free(got);
    }
    tx_set_cpu_mask((tx_isa_level)99);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(env_level_then_default),
        cmocka_unit_test(scalar_rules_on_nan_payloads),
        cmocka_unit_test(fused_saturate_matches_clamp_then_cast),
        cmocka_unit_test(every_kernel_every_level),
        cmocka_unit_test(streaming_heads_and_long_runs),
        cmocka_unit_test(exhaustive_16_bit_patterns),
        cmocka_unit_test(public_casts_same_at_every_level),
        cmocka_unit_test(public_decode_raw_same_at_every_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
