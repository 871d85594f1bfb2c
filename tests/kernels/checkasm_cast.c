/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm_cast.c -- checkasm's checks and benchmarks of the cast family (kernels/cast.h):
 * every hot cast pair against the scalar rules of one element, and the byte swaps against a
 * byte-by-byte reversal. */
#define _DEFAULT_SOURCE 1 /* mmap MAP_ANONYMOUS, mprotect */
#include "checkasm.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../unit/cast_inputs.h"

/* Each pair's rule (kernels/cast.h: the scalar rules of convert.h, one element), or a byte
 * reversal. */
typedef struct cast_rule {
    size_t in, out;
    void (*one)(void *d, const void *s); /* NULL: reverse the bytes */
} cast_rule;

static const cast_rule CAST_RULES[TX__CP_COUNT] = {
    [TX__CP_F32_F16] = {4, 2, tx__cast_one_f32_f16},
    [TX__CP_F16_F32] = {2, 4, tx__cast_one_f16_f32},
    [TX__CP_F32_BF16] = {4, 2, tx__cast_one_f32_bf16},
    [TX__CP_BF16_F32] = {2, 4, tx__cast_one_bf16_f32},
    [TX__CP_F32_I32] = {4, 4, tx__cast_one_f32_i32},
    [TX__CP_I32_F32] = {4, 4, tx__cast_one_i32_f32},
    [TX__CP_F64_F32] = {8, 4, tx__cast_one_f64_f32},
    [TX__CP_U8_F32] = {1, 4, tx__cast_one_u8_f32},
    [TX__CP_SAT_F32_U8] = {4, 1, tx__cast_one_sat_f32_u8},
    [TX__CP_F32_E4M3FN] = {4, 1, tx__cast_one_f32_e4m3fn},
    [TX__CP_F32_E2M1FN] = {4, 1, tx__cast_one_f32_e2m1fn},
    [TX__CP_F32_E8M0] = {4, 1, tx__cast_one_f32_e8m0},
    [TX__CP_E4M3FN_F32] = {1, 4, tx__cast_one_e4m3fn_f32},
    [TX__CP_E2M1FN_F32] = {1, 4, tx__cast_one_e2m1fn_f32},
    [TX__CP_E8M0_F32] = {1, 4, tx__cast_one_e8m0_f32},
};

static cast_rule rule_of(const kernel *k) {
    if (k->slot == TX__SLOT_byteswap || k->slot == TX__SLOT_byteswap_stream)
        return (cast_rule){k->key, k->key, NULL};
    return CAST_RULES[k->key];
}

/* Bit patterns where instructions and TF's rules part ways: signed zeros, infinities, quiet and
 * signalling NaNs with payloads, subnormals, the edges of each target's range and rounding ties. */
static const uint16_t SPECIAL16[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfd55,
                                     0x0001, 0x83ff, 0x7f80, 0x7f81, 0xff80, 0x7fc0, 0xffff};
static const uint32_t SPECIAL32[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc12345,
    0x7fffffff, 0x00000001, 0x807fffff, 0x4f000000, 0xcf000000, 0x4effffff, 0x437f0000,
    0x437f8000, 0x437f7fff, 0xbf000000, 0xbf800000, 0x477fe000, 0x477ff000, 0x477fefff,
    0x33000000, 0x33000001, 0x387fc000, 0x3f808000, 0x3f818000, 0x7f7fffff};
static const uint64_t SPECIAL64[] = {
    0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0x7ff0000000000001,
    0xfff8000000000123, 0x3810000000000000, 0x36a0000000000000, 0x47efffffe0000000,
    0x47effffff0000000, 0x47efffffefffffff, 0x3ff0000010000000, 0x3ff0000030000000,
    0x0000000000000001};

/* Random elements of `w` bytes with about one in four replaced by a special pattern. */
static void fill_cast_input(unsigned char *p, size_t n, size_t w) {
    fill_random(p, n * w);
    /* gaps of 1-7 elements: one in four on average, without a draw per element */
    for (size_t i = rnd() % 4; i < n; i += 1 + rnd() % 7) {
        const uint64_t r = rnd() >> 3;
        if (w == 2) memcpy(p + i * w, &SPECIAL16[r % (sizeof SPECIAL16 / 2)], 2);
        if (w == 4) memcpy(p + i * w, &SPECIAL32[r % (sizeof SPECIAL32 / 4)], 4);
        if (w == 8) memcpy(p + i * w, &SPECIAL64[r % (sizeof SPECIAL64 / 8)], 8);
    }
}

/* dst `mis` bytes past a line, src at another offset; both element-aligned for the cast slots
 * (tensor data always are: kernels/cast.h), any offset for the byte swaps. */
static bool cast_case(const kernel *k, cast_rule r, size_t n, size_t mis) {
    size_t smis = (mis * 7 + 5) % 64;
    if (r.one) smis -= smis % r.in;
    unsigned char *sblock = xmalloc(smis + n * r.in), *src = sblock + smis;
    fill_cast_input(src, n, r.in);
    dest d = dest_new(n * r.out, mis);
    for (size_t i = 0; i < n; i++) {
        if (r.one) r.one(d.want + i * r.out, src + i * r.in);
        else
            for (size_t b = 0; b < r.in; b++) d.want[i * r.out + b] = src[i * r.in + r.in - 1 - b];
    }
    ((tx__cast_fn)k->fn)(d.got, src, (int64_t)n);
    char what[96];
    snprintf(what, sizeof what, "n=%zu dst_mis=%zu src_mis=%zu", n, mis, smis);
    bool ok = dest_check(&d, what);
    free(sblock);
    return ok;
}

/* The input kind of each pair's source (cast_inputs.h); the byte swaps take random bytes. */
static in_kind kind_of(const kernel *k) {
    if (k->slot == TX__SLOT_byteswap || k->slot == TX__SLOT_byteswap_stream) return IN_U8;
    switch (k->key) {
    case TX__CP_F16_F32:
    case TX__CP_BF16_F32: return IN_H16;
    case TX__CP_I32_F32: return IN_I32;
    case TX__CP_F64_F32: return IN_F64;
    case TX__CP_U8_F32:
    case TX__CP_E4M3FN_F32:
    case TX__CP_E2M1FN_F32:
    case TX__CP_E8M0_F32: return IN_U8;
    default: return IN_F32;
    }
}

/* want[0, n) by the pair's rule (or the byte reversal), one element at a time. */
static void cast_naive(cast_rule r, unsigned char *want, const unsigned char *src, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (r.one) r.one(want + i * r.out, src + i * r.in);
        else
            for (size_t b = 0; b < r.in; b++) want[i * r.out + b] = src[i * r.in + r.in - 1 - b];
    }
}

/* One call with the source at `src` (n elements copied from `in`) and the destination dmis bytes
 * past a line, against `want`. */
static bool placed_case(const kernel *k, cast_rule r, const unsigned char *in, unsigned char *src,
                        size_t n, size_t dmis, const unsigned char *want, const char *where) {
    if (n) memmove(src, in, n * r.in);
    dest d = dest_new(n * r.out, dmis);
    if (n) memcpy(d.want, want, n * r.out);
    ((tx__cast_fn)k->fn)(d.got, src, (int64_t)n);
    char what[128];
    snprintf(what, sizeof what, "n=%zu source %s, dst_mis=%zu", n, where, dmis);
    return dest_check(&d, what);
}

/* Sources flush against an inaccessible page on either side (a read of one byte outside faults)
 * and at odd offsets, every count to past three iterations of the widest body and longer runs,
 * on the special inputs of cast_inputs.h.  The portable cast kernels read and write through typed
 * pointers: they get element-aligned offsets only (kernels/cast.h). */
static void check_against_pages(const kernel *k, cast_rule r) {
    enum { MAX_ELEMS = 4200 };
    const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    const size_t len = (MAX_ELEMS * 8 + 256 + pg - 1) / pg * pg;
    unsigned char *map = mmap(NULL, len + 2 * pg, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED || mprotect(map, pg, PROT_NONE) ||
        mprotect(map + pg + len, pg, PROT_NONE)) {
        fail("mmap or mprotect failed");
        return;
    }
    unsigned char *base = map + pg, *in = xmalloc(MAX_ELEMS * 8), *want = xmalloc(MAX_ELEMS * 8);
    const bool typed = r.one && k->level == TX_ISA_SCALAR;
    size_t counts[140], nc = 0;
    for (size_t n = 0; n <= 100; n++) counts[nc++] = n;
    const size_t more[] = {127, 128, 129, 191, 192, 193, 255, 256, 257, 511, 1000,
                           1023, 1024, 1025, 2047, 4096, 4099, MAX_ELEMS};
    for (size_t i = 0; i < COUNT_OF(more); i++) counts[nc++] = more[i];
    for (size_t c = 0; c < nc; c++) {
        const size_t n = counts[c], ib = n * r.in;
        fill_input(in, kind_of(k), n, r.in);
        cast_naive(r, want, in, n);
        if (!placed_case(k, r, in, base, n, 0, want, "after a page") ||
            !placed_case(k, r, in, base + len - ib, n, 0, want, "before a page"))
            break;
        const size_t dm[] = {1, 33, r.out, 3 * r.out, 7 * r.out, 13 * r.out + 1};
        bool ok = true;
        for (size_t m = 0; m < COUNT_OF(dm) && ok; m++) {
            size_t smis = (m * 2 + 1) % 64 + (m % 2 ? r.in : 0), dmis = dm[m] % 64;
            if (typed) {
                smis -= smis % r.in;
                dmis -= dmis % r.out;
            }
            ok = placed_case(k, r, in, base + 64 + smis, n, dmis, want, "misaligned");
        }
        if (!ok) break;
    }
    free(in);
    free(want);
    munmap(map, len + 2 * pg);
}

/* Long runs from every element offset in a 64-byte line (the streaming kernels' head before
 * their alignment). */
static void check_long_runs(const kernel *k, cast_rule r) {
    const size_t n = 70001;
    unsigned char *in = xmalloc(n * 8), *want = xmalloc(n * 8), *got = xmalloc(n * 8 + 128);
    fill_input(in, kind_of(k), n, r.in);
    cast_naive(r, want, in, n);
    for (size_t off = 0; off < 64; off += r.out) {
        const size_t m = n - off % 7;
        memset(got, GUARD_BYTE, n * 8 + 128);
        ((tx__cast_fn)k->fn)(got + off, in, (int64_t)m);
        checks++;
        bool guards = got[off + m * r.out] == GUARD_BYTE;
        for (size_t i = 0; i < off; i++) guards &= got[i] == GUARD_BYTE;
        if (memcmp(got + off, want, m * r.out) != 0 || !guards) {
            fail("n=%zu from byte %zu of a line: %s", m, off,
                 guards ? "wrong elements" : "a byte outside the destination written");
            break;
        }
    }
    free(in);
    free(want);
    free(got);
}

/* TX_CHECKASM_SAMPLE=N (N > 1; scripts/valgrind.sh sets 4): the two largest cast checks take a
 * sample under memcheck, where they were most of its run: the narrowings one low half in N of
 * the 16, the streaming-size count one placement of the two.  The other stages check them all. */
static size_t checkasm_sample(void) {
    static long n = -1;
    if (n < 0) {
        const char *e = getenv("TX_CHECKASM_SAMPLE");
        n = e ? strtol(e, NULL, 10) : 1;
        if (n < 1) n = 1;
    }
    return (size_t)n;
}

/* The float16 and bfloat16 widenings on every 16-bit pattern, the low-bit decodes on every byte,
 * the narrowings of float32 on every pattern of the top 16 bits with each rounding-relevant low
 * half. */
static void check_exhaustive_16_bits(const kernel *k, cast_rule r) {
    static const uint16_t low[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x2000, 0x2001,
                                   0x3fff, 0x4000, 0x4001, 0x7fff, 0x8000, 0x8001, 0xffff, 0x5a5a};
    const bool widen = k->key == TX__CP_F16_F32 || k->key == TX__CP_BF16_F32;
    const bool decode8 = k->key == TX__CP_E4M3FN_F32 || k->key == TX__CP_E2M1FN_F32 ||
                         k->key == TX__CP_E8M0_F32;
    const bool narrow = k->key == TX__CP_F32_F16 || k->key == TX__CP_F32_BF16 ||
                        k->key == TX__CP_F32_I32 || k->key == TX__CP_SAT_F32_U8 ||
                        k->key == TX__CP_F32_E4M3FN || k->key == TX__CP_F32_E2M1FN ||
                        k->key == TX__CP_F32_E8M0;
    if (!r.one || (!widen && !narrow && !decode8)) return;
    const size_t lows = (COUNT_OF(low) + checkasm_sample() - 1) / checkasm_sample();
    const size_t n = decode8 ? 256 : widen ? 65536 : 65536 * lows;
    /* The inputs and the naive results of a pair, made once and kept for each of its kernels (a
     * pair has one per level and slot): the naive loop is most of the cost under valgrind. */
    static unsigned char *inputs[TX__CP_COUNT], *results[TX__CP_COUNT];
    unsigned char *got = xmalloc(n * r.out);
    if (inputs[k->key] != NULL) {
        ((tx__cast_fn)k->fn)(got, inputs[k->key], (int64_t)n);
        checks++;
        if (memcmp(got, results[k->key], n * r.out) != 0) fail("a 16-bit pattern converts wrongly");
        free(got);
        return;
    }
    unsigned char *in = xmalloc(n * r.in), *want = xmalloc(n * r.out);
    for (size_t i = 0; i < n; i++) {
        if (decode8) {
            in[i] = (unsigned char)i;
        } else if (widen) {
            const uint16_t h = (uint16_t)i;
            memcpy(in + 2 * i, &h, 2);
        } else {
            const uint32_t f = ((uint32_t)(i / lows) << 16) | low[i % lows * checkasm_sample()];
            memcpy(in + 4 * i, &f, 4);
        }
    }
    cast_naive(r, want, in, n);
    inputs[k->key] = in;
    results[k->key] = want;
    ((tx__cast_fn)k->fn)(got, in, (int64_t)n);
    checks++;
    if (memcmp(got, want, n * r.out) != 0) fail("a 16-bit pattern converts wrongly");
    free(got);
}

/* TF 2.21's results on NaN payloads, bfloat16 and the x86 integer codes, fixed here so that a
 * change to the rules of convert.h (which the naive loops share) would be caught. */
static void check_known_values(const kernel *k) {
    static const uint32_t f[] = {0x7f800001, 0xffc12345, 0x7fffffff, 0x7fa00000};
    /* TF 2.21 decides (F16C): sign | 0x7e00 | (mantissa >> 13); bfloat16: Eigen's sign | 0x7fc0 */
    static const uint16_t hw[] = {0x7e00, 0xfe09, 0x7fff, 0x7f00};
    static const uint16_t bw[] = {0x7fc0, 0xffc0, 0x7fc0, 0x7fc0};
    static const uint16_t sn[] = {0x7c01, 0xfd55, 0x7e01};
    static const uint32_t snw[] = {0x7fc02000, 0xffeaa000, 0x7fc02000}; /* quieted, payload kept */
    static const uint32_t big[] = {0x4f000000, 0xcf000001, 0x7fc00000, 0xcf000000};
    static const int32_t bigw[] = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN};
    static const float s[] = {NAN, -NAN, -1.0f, 255.9f, 1e9f, -0.0f, INFINITY, -INFINITY};
    static const uint8_t sw[] = {0, 0, 0, 255, 255, 0, 255, 0};
    const void *src = NULL, *want = NULL;
    size_t n = 0, bytes = 0;
    switch (k->key) {
    case TX__CP_F32_F16: src = f, want = hw, n = 4, bytes = sizeof hw; break;
    case TX__CP_F32_BF16: src = f, want = bw, n = 4, bytes = sizeof bw; break;
    case TX__CP_F16_F32: src = sn, want = snw, n = 3, bytes = sizeof snw; break;
    case TX__CP_F32_I32: src = big, want = bigw, n = 4, bytes = sizeof bigw; break;
    case TX__CP_SAT_F32_U8: src = s, want = sw, n = 8, bytes = sizeof sw; break;
    default: return;
    }
    _Alignas(16) unsigned char got[32];
    ((tx__cast_fn)k->fn)(got, src, (int64_t)n);
    checks++;
    if (memcmp(got, want, bytes) != 0) fail("TF's result on a known input differs");
}

/* The fused saturate_cast kernel against the path it replaces: the clamp with the bounds
 * saturate_cast computes for float32 -> uint8, then the ordinary cast. */
static void check_fused_saturate(const kernel *k) {
    if (k->key != TX__CP_SAT_F32_U8) return;
    const size_t n = 200000;
    float *v = xmalloc(n * 4);
    uint8_t *want = xmalloc(n), *got = xmalloc(n);
    for (size_t i = 0; i < n; i++) {
        const uint32_t b = gen_f32();
        memcpy(&v[i], &b, 4);
    }
    ((tx__cast_fn)k->fn)(got, v, (int64_t)n);
    tx__clamp_bounds b = {0, 0, 0.0, 255.0};
    tx__clamp_real(TX_FLOAT32, v, (int64_t)n, &b);
    tx__cast_kernel(TX_FLOAT32, TX_UINT8)(want, v, (int64_t)n);
    checks++;
    if (memcmp(got, want, n) != 0) fail("differs from the clamp and the cast");
    free(v);
    free(want);
    free(got);
}

/* One count whose output reaches the streaming threshold (where the ops take the streaming
 * kernels), from two places in a line.  The input and its naive result are made once per pair
 * (or byte-swap width) and kept for the pair's other kernels: at 32 MiB of output the naive loop
 * made checkasm take 65 s in Release, 28 s with the cache (more under ASan and valgrind).
 * The kept blocks, about 1.6 GB for every pair, live to the end of the run. */
static void check_stream_size(const kernel *k, cast_rule r, size_t mis) {
    static unsigned char *inputs[TX__CP_COUNT + 17], *results[TX__CP_COUNT + 17];
    const bool swap = k->slot == TX__SLOT_byteswap || k->slot == TX__SLOT_byteswap_stream;
    const size_t n = (size_t)TX_STREAM_MIN_BYTES / r.out + 37, id = swap ? TX__CP_COUNT + r.in
                                                                         : (size_t)k->key;
    size_t smis = (mis * 7 + 5) % 64;
    if (r.one) smis -= smis % r.in;
    if (inputs[id] == NULL) {
        inputs[id] = xmalloc(smis + n * r.in);
        results[id] = xmalloc(n * r.out);
        fill_cast_input(inputs[id] + smis, n, r.in);
        cast_naive(r, results[id], inputs[id] + smis, n);
    }
    const size_t at[] = {mis, 0};
    for (size_t m = 0; m < (checkasm_sample() > 1 ? 1 : COUNT_OF(at)); m++) {
        dest d = dest_new(n * r.out, at[m]);
        memcpy(d.want, results[id], n * r.out);
        ((tx__cast_fn)k->fn)(d.got, inputs[id] + smis, (int64_t)n);
        char what[96];
        snprintf(what, sizeof what, "n=%zu dst_mis=%zu src_mis=%zu", n, at[m], smis);
        if (!dest_check(&d, what)) return;
    }
}

static void check_cast_family(const kernel *k) {
    const cast_rule r = rule_of(k);
    /* every count to 3 x 32 lanes and past, then around the streaming threshold's element count */
    size_t counts[200], nc = 0;
    for (size_t n = 0; n <= 140; n++) counts[nc++] = n;
    const size_t more[] = {255, 256, 257, 1000, 4097};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) counts[nc++] = more[i];
    /* on a line, multiples of the output width that leave dst off the vector boundary, and for
     * the byte swaps odd ones (elements off their alignment: no streaming) */
    const size_t miss[] = {0, r.out, 2 * r.out, 3 * r.out, 64 - r.out, r.one ? 5 * r.out : 1,
                           r.one ? 9 * r.out : 33};
    for (size_t ci = 0; ci < nc; ci++) {
        const size_t nm = counts[ci] > 5000 ? 2 : sizeof miss / sizeof *miss;
        for (size_t mi = 0; mi < nm; mi++)
            if (!cast_case(k, r, counts[ci], miss[mi])) return;
    }
    check_stream_size(k, r, miss[1]);
    check_against_pages(k, r);
    if (k->slot == TX__SLOT_cast_stream || k->slot == TX__SLOT_byteswap_stream)
        check_long_runs(k, r);
    if (k->slot == TX__SLOT_cast || k->slot == TX__SLOT_cast_stream) {
        check_exhaustive_16_bits(k, r);
        check_known_values(k);
        check_fused_saturate(k);
    }
}
void check_cast(const kernel *k) { check_cast_family(k); }
void check_cast_stream(const kernel *k) { check_cast_family(k); }
void check_byteswap(const kernel *k) { check_cast_family(k); }
void check_byteswap_stream(const kernel *k) { check_cast_family(k); }


typedef struct cast_args {
    const kernel *k;
    unsigned char *dst, *src;
    int64_t n;
} cast_args;

static void run_cast(void *p) {
    cast_args *a = p;
    ((tx__cast_fn)a->k->fn)(a->dst, a->src, a->n);
}

/* Outputs of each benchmark size (the rate counts input and output bytes). */
static void bench_cast_family(const kernel *k) {
    const cast_rule r = rule_of(k);
    for (size_t b = 0; b < NBENCH; b++) {
        const size_t n = BENCH_BYTES[b] / r.out;
        cast_args a = {k, xmalloc(n * r.out), xmalloc(n * r.in), (int64_t)n};
        fill_cast_input(a.src, n, r.in);
        memset(a.dst, 0, n * r.out);
        char size[48];
        size_name(size, sizeof size, BENCH_BYTES[b]);
        bench_row(k, size, (double)(n * (r.in + r.out)), run_cast, &a);
        free(a.dst);
        free(a.src);
    }
}
void bench_cast(const kernel *k) { bench_cast_family(k); }
void bench_cast_stream(const kernel *k) { bench_cast_family(k); }
void bench_byteswap(const kernel *k) { bench_cast_family(k); }
void bench_byteswap_stream(const kernel *k) { bench_cast_family(k); }
