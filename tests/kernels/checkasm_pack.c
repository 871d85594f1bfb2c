/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm_pack.c -- checkasm's checks and benchmarks of the packed form's kernels
 * (kernels/pack.h) against loops written bit by bit from the rule: element i in bits
 * [i * bits, (i + 1) * bits) of the little-endian bit string; a byte's field an integer's low bits,
 * or a float's bits below the sign with the sign set when any bit at or above it is. */
#include "checkasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t packed_bytes(unsigned bits, size_t n) { return (n * bits + 7) / 8; }

static unsigned naive_field(unsigned char b, unsigned bits, bool is_float) {
    if (!is_float) return b & ((1u << bits) - 1u);
    unsigned sign = 1u << (bits - 1), field = b & (sign - 1u);
    for (unsigned bit = bits - 1; bit < 8; bit++)
        if (b >> bit & 1u) field |= sign;
    return field;
}

/* Bit b of element i to bit i * bits + b of o, every other bit of the packed bytes 0. */
static void naive_pack(unsigned bits, bool is_float, size_t n, const unsigned char *p,
                       unsigned char *o) {
    memset(o, 0, packed_bytes(bits, n));
    for (size_t i = 0; i < n; i++) {
        const unsigned f = naive_field(p[i], bits, is_float);
        for (unsigned b = 0; b < bits; b++)
            if (f >> b & 1u) o[(i * bits + b) / 8] |= (unsigned char)(1u << ((i * bits + b) % 8));
    }
}

static void naive_unpack(unsigned bits, size_t n, const unsigned char *src, unsigned char *p) {
    for (size_t i = 0; i < n; i++) {
        unsigned f = 0;
        for (unsigned b = 0; b < bits; b++)
            f |= (unsigned)(src[(i * bits + b) / 8] >> ((i * bits + b) % 8) & 1u) << b;
        p[i] = (unsigned char)f;
    }
}

static bool pack_case(tx__subbyte_pack_ft *fn, unsigned bits, bool is_float, size_t n, size_t off,
                      size_t mis) {
    unsigned char *block;
    const unsigned char *src = source(n, off, &block); /* random bytes: every byte value */
    dest d = dest_new(packed_bytes(bits, n), mis);
    naive_pack(bits, is_float, n, src, d.want);
    fn(bits, is_float, (int64_t)n, src, d.got);
    char what[96];
    snprintf(what, sizeof what, "bits=%u float=%d n=%zu off=%zu mis=%zu", bits, is_float, n, off,
             mis);
    bool ok = dest_check(&d, what);
    free(block);
    return ok;
}

static bool unpack_case(tx__subbyte_unpack_ft *fn, unsigned bits, size_t n, size_t off,
                        size_t mis) {
    unsigned char *block;
    const unsigned char *src = source(packed_bytes(bits, n), off, &block);
    dest d = dest_new(n, mis);
    naive_unpack(bits, n, src, d.want);
    fn(bits, (int64_t)n, src, d.got);
    char what[96];
    snprintf(what, sizeof what, "bits=%u n=%zu off=%zu mis=%zu", bits, n, off, mis);
    bool ok = dest_check(&d, what);
    free(block);
    return ok;
}

/* Every count to 300 (every tail of the widest vectors) at a few alignments, then longer ones. */
void check_subbyte_pack(const kernel *k) {
    tx__subbyte_pack_ft *fn = (tx__subbyte_pack_ft *)k->fn;
    for (unsigned bits = 2; bits <= 4; bits += 2)
        for (int is_float = 0; is_float < 2; is_float++) {
            for (size_t n = 0; n <= 300; n++)
                if (!pack_case(fn, bits, is_float, n, n % 5, n % 3 * 7)) return;
            for (size_t n = 301; n < 200000; n = n * 3 + 5)
                if (!pack_case(fn, bits, is_float, n, n % 16, n % 64)) return;
        }
}

void check_subbyte_unpack(const kernel *k) {
    tx__subbyte_unpack_ft *fn = (tx__subbyte_unpack_ft *)k->fn;
    for (unsigned bits = 2; bits <= 4; bits += 2) {
        for (size_t n = 0; n <= 300; n++)
            if (!unpack_case(fn, bits, n, n % 5, n % 3 * 7)) return;
        for (size_t n = 301; n < 200000; n = n * 3 + 5)
            if (!unpack_case(fn, bits, n, n % 16, n % 64)) return;
    }
}

typedef struct pack_args {
    const kernel *k;
    const unsigned char *src;
    unsigned char *dst;
    size_t n; /* elements (one byte each on the unpacked side) */
} pack_args;

static void run_pack(void *p) {
    pack_args *a = p;
    ((tx__subbyte_pack_ft *)a->k->fn)(4, true, (int64_t)a->n, a->src, a->dst);
}

static void run_unpack(void *p) {
    pack_args *a = p;
    ((tx__subbyte_unpack_ft *)a->k->fn)(4, (int64_t)a->n, a->src, a->dst);
}

/* float4 elements: BENCH_BYTES of them, one byte each, and half as many packed bytes. */
static void bench_both(const kernel *k, void (*run)(void *)) {
    for (size_t b = 0; b < NBENCH; b++) {
        const size_t n = BENCH_BYTES[b];
        unsigned char *block, *dst = xmalloc(n);
        pack_args a = {k, source(n, 0, &block), dst, n};
        char size[32];
        size_name(size, sizeof size, n);
        bench_row(k, size, 1.5 * (double)n, run, &a);
        free(block);
        free(dst);
    }
}

void bench_subbyte_pack(const kernel *k) { bench_both(k, run_pack); }
void bench_subbyte_unpack(const kernel *k) { bench_both(k, run_unpack); }
