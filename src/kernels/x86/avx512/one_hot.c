/* SPDX-License-Identifier: Apache-2.0 */
/* one_hot.c -- the AVX-512 (F/BW) one_hot kernel of kernels/gather.h for the usual layout: the new
 * axis last (suffix 1) and elements of 1, 2, 4 or 8 bytes; other layouts go to the scalar kernel.
 * The output is seen as one flat run of elements, written a 64-byte line at a time: a line is
 * the off value everywhere, blended with the on value where the rows' on-positions fall (a
 * running "next on-position" walks the indices, so a line costs no division whatever the depth).
 * A piece of TX_STREAM_MIN_BYTES or more in memory written before is written with streaming
 * stores: one_hot only writes, and ordinary stores read every line before writing it (1M x 1000
 * float32 into touched memory: 274 ms with the scalar loop, 1.58x memcpy's time for the same
 * bytes; 85-95 ms streamed).  Fresh pages (an output too large for the allocator's cache) keep
 * ordinary stores: the kernel zeroes a page through the caches as it maps it, and streaming over
 * lines still in the cache ran 2x slower (386 -> 720 ms).  Same bits as the scalar kernel. */
#include <immintrin.h>
#include <stdbool.h>
#include <string.h>

#include "core/tuning.h"
#include "kernels/gather.h"

#define LINE 64

/* The rows' on-positions in order, as flat element numbers (INT64_MAX after the last). */
typedef struct {
    const void *ix;
    tx_dtype ti;
    tx_oob_policy policy;
    int64_t row, rows, depth;
} walk;

static inline int64_t next_on(walk *w) {
    while (w->row < w->rows) {
        const int64_t r = w->row++;
        const int64_t v = tx__oob_position(tx__one_hot_index(w->ix, w->ti, r), w->depth, w->policy);
        if ((uint64_t)v < (uint64_t)w->depth) return r * w->depth + v;
    }
    return INT64_MAX;
}

/* The line whose bit k of `on` selects the on value for element k, of W-byte elements. */
static inline __m512i line_of(uint64_t on, __m512i offv, __m512i onv, size_t W) {
    switch (W) {
    case 1: return _mm512_mask_blend_epi8((__mmask64)on, offv, onv);
    case 2: return _mm512_mask_blend_epi16((__mmask32)on, offv, onv);
    case 4: return _mm512_mask_blend_epi32((__mmask16)on, offv, onv);
    default: return _mm512_mask_blend_epi64((__mmask8)on, offv, onv);
    }
}

/* One element, for the partial lines at either end. */
static inline int64_t put_one(char *o, int64_t e, int64_t on_at, walk *w, const unsigned char *on,
                              const unsigned char *off, size_t W) {
    if (e == on_at) {
        memcpy(o, on, W);
        return next_on(w);
    }
    memcpy(o, off, W);
    return on_at;
}

static inline void one_hot_lines(char *out, walk *w, const unsigned char *on,
                                 const unsigned char *off, size_t W, bool stream) {
    const int64_t total = w->rows * w->depth, per_line = LINE / (int64_t)W;
    __m512i offv, onv;
    unsigned char pat[LINE] = {0}; /* filled below; gcc -O1 cannot tell per_line * W == LINE */
    for (int64_t k = 0; k < per_line; k++) memcpy(pat + k * (int64_t)W, off, W);
    offv = _mm512_loadu_si512(pat);
    for (int64_t k = 0; k < per_line; k++) memcpy(pat + k * (int64_t)W, on, W);
    onv = _mm512_loadu_si512(pat);
    int64_t at = next_on(w), e = 0;
    /* the head, up to a line boundary (out is aligned to W: the element counts are whole) */
    int64_t head = (int64_t)((LINE - (uintptr_t)out % LINE) % LINE) / (int64_t)W;
    for (; e < head && e < total; e++) at = put_one(out + e * (int64_t)W, e, at, w, on, off, W);
    for (; total - e >= per_line; e += per_line) {
        uint64_t bits = 0;
        for (; at < e + per_line; at = next_on(w)) bits |= (uint64_t)1 << (at - e);
        __m512i v = line_of(bits, offv, onv, W);
        if (stream) _mm512_stream_si512((void *)(out + e * (int64_t)W), v);
        else _mm512_store_si512((void *)(out + e * (int64_t)W), v);
    }
    for (; e < total; e++) at = put_one(out + e * (int64_t)W, e, at, w, on, off, W);
    if (stream) _mm_sfence();
}

void tx__one_hot_avx512(char *out, const void *indices, tx_dtype ti, int64_t prefix, int64_t depth,
                        int64_t suffix, const void *on, const void *off, size_t width,
                        tx_oob_policy policy) {
    if (suffix != 1 || depth == 0 || !(width == 1 || width == 2 || width == 4 || width == 8) ||
        (uintptr_t)out % width != 0) {
        tx__one_hot_scalar(out, indices, ti, prefix, depth, suffix, on, off, width, policy);
        return;
    }
    walk w = {indices, ti, policy, 0, prefix, depth};
    /* The middle of the piece tells whether its memory was written before: the first page may
     * hold the tensor's header, and with transparent huge pages a fault maps 2 MiB around it. */
    const uint64_t bytes = (uint64_t)prefix * (uint64_t)depth * width;
    const bool stream =
        bytes >= (uint64_t)tx__stream_min_bytes && tx__page_resident(out + bytes / 2);
    switch (width) { /* the width a constant in each copy of the loop */
    case 1: one_hot_lines(out, &w, on, off, 1, stream); break;
    case 2: one_hot_lines(out, &w, on, off, 2, stream); break;
    case 4: one_hot_lines(out, &w, on, off, 4, stream); break;
    default: one_hot_lines(out, &w, on, off, 8, stream); break;
    }
}
