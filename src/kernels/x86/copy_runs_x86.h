/* SPDX-License-Identifier: Apache-2.0 */
/* copy_runs_x86.h -- the driver of copy_runs_stream (kernels/copy.h) that the AVX2 and AVX-512
 * levels share, included by x86/avx2/copy_avx2.c and x86/avx512/copy_avx512.c after each defines
 * stream_line(d, s): one 64-byte line from s (any alignment) to d (line-aligned) with streaming
 * stores.  Each run: the partial line before the first 64-byte boundary and after the last with
 * memcpy, the whole lines between with stream_line (a line is never left half-written in a
 * write-combining buffer); runs of two pages or more take the level's bulk copy. */
#ifndef TX_KERNELS_X86_COPY_RUNS_X86_H
#define TX_KERNELS_X86_COPY_RUNS_X86_H

#include <stdint.h>
#include <string.h>

/* Runs of two pages or more go to the bulk copy. */
#define TX_RUNS_PAGE 4096
/* copy_runs (ordinary stores) moves runs shorter than this with vectors in registers and longer
 * ones as blocks (memcpy; at the AVX-512 level its bulk copy, which stores aligned lines itself
 * where memcpy's string move would be slow), whose aligned wide stores were faster from 512
 * bytes on for runs that start off a line (pad's rows); under it, the call per run cost more. */
#define TX_RUNS_VECTOR_MAX 1024

static inline void copy_runs_stream_x86(char *dst, const char *src, int64_t n, int64_t ds,
                                        int64_t ss, size_t width,
                                        void (*bulk)(void *, const void *, size_t)) {
    /* Whole lines only (every run starts on a line and is a number of lines, as depth_to_space's
     * 128-byte runs are): no per-run head or tail to work out (1M runs of 128 bytes: 11 -> 8 ms). */
    if (width % 64 == 0 && width < 2 * TX_RUNS_PAGE && ds % 64 == 0 && (uintptr_t)dst % 64 == 0) {
        for (int64_t k = 0; k < n; k++)
            for (size_t o = 0; o < width; o += 64) stream_line(dst + k * ds + o, src + k * ss + o);
        _mm_sfence();
        return;
    }
    for (int64_t k = 0; k < n; k++) {
        char *d = dst + k * ds;
        const char *s = src + k * ss;
        size_t m = width, head = (size_t)(-(uintptr_t)d & 63);
        if (m >= 2 * TX_RUNS_PAGE) {
            bulk(d, s, m);
            continue;
        }
        if (head >= m) {
            memcpy(d, s, m);
            continue;
        }
        if (head) memcpy(d, s, head);
        d += head;
        s += head;
        m -= head;
        for (; m >= 64; m -= 64, d += 64, s += 64) stream_line(d, s);
        if (m) memcpy(d, s, m);
    }
    _mm_sfence();
}

#endif
