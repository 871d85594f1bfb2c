/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm_cast.c -- checkasm's checks and benchmarks of the cast family (kernels/cast.h):
 * every hot cast pair against the scalar rules of one element, and the byte swaps against a
 * byte-by-byte reversal. */
#include "checkasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
};

static cast_rule rule_of(const kernel *k) {
    if (k->slot == TX__SLOT_byteswap || k->slot == TX__SLOT_byteswap_stream) return (cast_rule){k->key, k->key, NULL};
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

void check_cast_family(const kernel *k) {
    const cast_rule r = rule_of(k);
    /* every count to 3 x 32 lanes and past, then around the streaming threshold's element count */
    size_t counts[200], nc = 0;
    for (size_t n = 0; n <= 140; n++) counts[nc++] = n;
    const size_t more[] = {255, 256, 257, 1000, 4097,
                           (size_t)TX_STREAM_MIN_BYTES / r.out + 37};
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
void bench_cast_family(const kernel *k) {
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
