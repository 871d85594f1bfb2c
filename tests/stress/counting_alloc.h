/* SPDX-License-Identifier: Apache-2.0 */
/* counting_alloc.h -- the counting allocator of the stress and race harnesses (tests/stress/,
 * tests/race/): a header before each block holds a magic word and the size asked for, so a free
 * with another size, or of a block twice, stops the run; live_blocks and live_bytes count what is
 * alive, which must be nothing after tx_shutdown().  The including file defines
 * `static void die(const char *what)` first. */
#ifndef TX_TESTS_COUNTING_ALLOC_H
#define TX_TESTS_COUNTING_ALLOC_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define COUNTED_HDR 64
#define COUNTED_MAGIC 0x57E55A110Cull

static atomic_long live_blocks, live_bytes;

static void *counted_alloc(size_t size, size_t align) {
    size_t off = align > COUNTED_HDR ? align : COUNTED_HDR;
    if (size > SIZE_MAX - off) return NULL;
    void *base = NULL;
    if (posix_memalign(&base, off, off + size)) return NULL;
    unsigned char *p = (unsigned char *)base + off;
    uint64_t h[3] = {COUNTED_MAGIC, size, off};
    memcpy(p - sizeof h, h, sizeof h);
    atomic_fetch_add(&live_blocks, 1);
    atomic_fetch_add(&live_bytes, (long)size);
    return p;
}

static void counted_free(void *ptr, size_t size, void *ctx) {
    (void)ctx;
    if (!ptr) return;
    unsigned char *p = ptr;
    uint64_t h[3];
    memcpy(h, p - sizeof h, sizeof h);
    if (h[0] != COUNTED_MAGIC) die("free of a block the allocator did not hand out, or a double free");
    if (h[1] != size) die("a block freed with another size than it was allocated with");
    h[0] = 0;
    memcpy(p - sizeof h, h, sizeof h);
    atomic_fetch_sub(&live_blocks, 1);
    atomic_fetch_sub(&live_bytes, (long)size);
    free(p - h[2]);
}

#endif
