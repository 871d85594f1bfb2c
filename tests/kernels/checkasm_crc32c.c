/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm_crc32c.c -- checkasm's checks and benchmark of the CRC-32C kernels
 * (kernels/crc32c.h) against a bit-at-a-time loop over the polynomial. */
#include "checkasm.h"

#include <stdio.h>
#include <stdlib.h>

/* The definition, one bit at a time. */
static uint32_t naive_crc32c(uint32_t crc, const unsigned char *p, size_t n) {
    uint32_t c = ~crc;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int b = 0; b < 8; b++) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1)));
    }
    return ~c;
}

static bool crc_case(tx__crc32c_fn fn, size_t n, size_t off, uint32_t seed) {
    unsigned char *block;
    const unsigned char *src = source(n, off, &block); /* ends where the block ends */
    const uint32_t want = naive_crc32c(seed, src, n), got = fn(seed, src, n);
    checks++;
    bool ok = got == want;
    if (!ok) fail("n=%zu off=%zu seed=%08x: got %08x, want %08x", n, off, seed, got, want);
    free(block);
    return ok;
}

/* Every length to 300 at every start offset mod 16, from a zero and a random running CRC; then
 * longer lengths; then a buffer split at every point must equal the whole (Extend). */
void check_crc32c(const kernel *k) {
    tx__crc32c_fn fn = (tx__crc32c_fn)k->fn;
    for (size_t n = 0; n <= 300; n++)
        for (size_t off = 0; off < 16; off++)
            if (!crc_case(fn, n, off, 0) || !crc_case(fn, n, off, (uint32_t)rnd())) return;
    for (size_t n = 301; n < 70000; n = n * 3 + 7)
        if (!crc_case(fn, n, n % 8, (uint32_t)rnd())) return;
    unsigned char buf[100];
    fill_random(buf, sizeof buf);
    const uint32_t whole = fn(0, buf, sizeof buf);
    for (size_t cut = 0; cut <= sizeof buf; cut++) {
        checks++;
        if (fn(fn(0, buf, cut), buf + cut, sizeof buf - cut) != whole) {
            fail("extending at %zu differs from the whole", cut);
            return;
        }
    }
    checks++;
    if (fn(0, NULL, 0) != 0) fail("the CRC of no bytes is not 0");
}

typedef struct crc_args {
    tx__crc32c_fn fn;
    const unsigned char *p;
    size_t n;
    uint32_t sink;
} crc_args;

static void run_crc(void *p) {
    crc_args *a = p;
    a->sink ^= a->fn(a->sink, a->p, a->n);
}

void bench_crc32c(const kernel *k) {
    for (size_t b = 0; b < NBENCH; b++) {
        unsigned char *block;
        crc_args a = {(tx__crc32c_fn)k->fn, source(BENCH_BYTES[b], 0, &block), BENCH_BYTES[b], 0};
        char size[32];
        size_name(size, sizeof size, BENCH_BYTES[b]);
        bench_row(k, size, (double)a.n, run_crc, &a);
        free(block);
    }
}
