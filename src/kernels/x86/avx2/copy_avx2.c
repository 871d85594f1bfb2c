/* SPDX-License-Identifier: Apache-2.0 */
/* copy_avx2.c -- AVX2 kernels of the generic copy (kernels/copy.h), used by every data-movement op
 * that goes through tx__copy_nd (slice, strided_slice, reverse, pad, tile, concat, split,
 * space/depth ...): a bulk copy with streaming stores for large blocks and the reversed runs that
 * reverse and negative-stride slices produce.  Same bits as the scalar kernels. */
#include <immintrin.h>
#include <string.h>

#include "kernels/copy.h"

#define PAGE 4096

/* One line with two 32-byte streaming stores, back to back. */
static inline void stream_line(char *d, const char *s) {
    __m256i a = _mm256_loadu_si256((const __m256i *)s);
    __m256i b = _mm256_loadu_si256((const __m256i *)(s + 32));
    _mm256_stream_si256((__m256i *)d, a);
    _mm256_stream_si256((__m256i *)(d + 32), b);
}

#include "kernels/x86/copy_runs_x86.h"

/* Streaming stores over four pages at a time: the write-combining buffers then fill from four
 * DRAM pages in turn, which measured as fast as glibc's own large-copy loop at 256 MiB and 1.5x
 * faster than memcpy at 2-32 MiB, where memcpy still uses ordinary stores. */
void tx__bulk_copy_avx2(void *dst, const void *src, size_t n) {
    char *d = dst;
    const char *s = src;
    if (n < 2 * PAGE) {
        memcpy(d, s, n);
        return;
    }
    size_t head = (size_t)(-(uintptr_t)d & 63);
    memcpy(d, s, head);
    d += head;
    s += head;
    n -= head;
    for (; n >= 4 * PAGE; n -= 4 * PAGE, d += 4 * PAGE, s += 4 * PAGE) {
        for (size_t o = 0; o < PAGE; o += 64) {
            for (int k = 0; k < 4; k++) stream_line(d + k * PAGE + o, s + k * PAGE + o);
        }
    }
    for (; n >= 64; n -= 64, d += 64, s += 64) stream_line(d, s);
    _mm_sfence();
    memcpy(d, s, n);
}

/* Strided runs with ordinary stores: each run as 32-byte vectors, the last one overlapping the
 * one before it when the width is not a multiple of 32 (runs of 16-31 bytes as two 16-byte
 * halves, the same way).  A memcpy call per run cost more than the copy for depth_to_space's
 * 128-byte runs at small sizes; runs of TX_RUNS_VECTOR_MAX bytes and more go to memcpy. */
void tx__copy_runs_avx2(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss,
                        size_t width) {
    if (width < 16 || width >= TX_RUNS_VECTOR_MAX) {
        tx__copy_runs_scalar(dst, src, n, ds, ss, width);
        return;
    }
    if (width < 32) {
        for (int64_t k = 0; k < n; k++) {
            char *d = dst + k * ds;
            const char *s = src + k * ss;
            __m128i a = _mm_loadu_si128((const __m128i *)s);
            __m128i b = _mm_loadu_si128((const __m128i *)(s + width - 16));
            _mm_storeu_si128((__m128i *)d, a);
            _mm_storeu_si128((__m128i *)(d + width - 16), b);
        }
        return;
    }
    for (int64_t k = 0; k < n; k++) {
        char *d = dst + k * ds;
        const char *s = src + k * ss;
        size_t o = 0;
        for (; o + 32 < width; o += 32)
            _mm256_storeu_si256((__m256i *)(d + o), _mm256_loadu_si256((const __m256i *)(s + o)));
        o = width - 32;
        _mm256_storeu_si256((__m256i *)(d + o), _mm256_loadu_si256((const __m256i *)(s + o)));
    }
}

/* Strided runs with streaming stores: the shared driver (x86/copy_runs_x86.h). */
void tx__copy_runs_stream_avx2(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss,
                               size_t width) {
    copy_runs_stream_x86(dst, src, n, ds, ss, width, tx__bulk_copy_avx2);
}

/* Reversed runs: load the vector that ends at the element k places below src, reverse it in
 * registers, store it at dst + k.  The rest (< one vector) goes element by element. */
#define REVERSE_BODY(W, PERMUTE)                                                                 \
    const int64_t per = 32 / (W);                                                                \
    int64_t k = 0;                                                                               \
    for (; k + per <= n; k += per) {                                                             \
        __m256i v = _mm256_loadu_si256((const __m256i *)(src - (k + per - 1) * (W)));            \
        _mm256_storeu_si256((__m256i *)(dst + k * (W)), PERMUTE(v));                             \
    }                                                                                            \
    for (; k < n; k++) memcpy(dst + k * (W), src - k * (W), (W));

static inline __m256i rev_bytes(__m256i v) {
    const __m256i m = _mm256_setr_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14,
                                       13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, m), 0x4E);
}
static inline __m256i rev_u16(__m256i v) {
    const __m256i m = _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15,
                                       12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, m), 0x4E);
}
static inline __m256i rev_u32(__m256i v) {
    return _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0));
}
static inline __m256i rev_u64(__m256i v) { return _mm256_permute4x64_epi64(v, 0x1B); }
static inline __m256i rev_u128(__m256i v) { return _mm256_permute2x128_si256(v, v, 0x01); }

/* The streaming version: element by element until dst is 32-byte aligned (when the elements are
 * aligned at all), then whole vectors with streaming stores. */
#define REVERSE_STREAM_BODY(W, PERMUTE)                                                          \
    const int64_t per = 32 / (W);                                                                \
    int64_t k = 0;                                                                               \
    if ((uintptr_t)dst % (W) == 0) {                                                             \
        for (; k < n && ((uintptr_t)(dst + k * (W)) & 31) != 0; k++)                             \
            memcpy(dst + k * (W), src - k * (W), (W));                                           \
        for (; k + per <= n; k += per) {                                                         \
            __m256i v = _mm256_loadu_si256((const __m256i *)(src - (k + per - 1) * (W)));        \
            _mm256_stream_si256((__m256i *)(dst + k * (W)), PERMUTE(v));                         \
        }                                                                                        \
        _mm_sfence();                                                                            \
    }                                                                                            \
    for (; k + per <= n; k += per) {                                                             \
        __m256i v = _mm256_loadu_si256((const __m256i *)(src - (k + per - 1) * (W)));            \
        _mm256_storeu_si256((__m256i *)(dst + k * (W)), PERMUTE(v));                             \
    }                                                                                            \
    for (; k < n; k++) memcpy(dst + k * (W), src - k * (W), (W));

void tx__copy_reversed_w1_avx2(char *dst, const char *src, int64_t n) { REVERSE_BODY(1, rev_bytes) }
void tx__copy_reversed_w2_avx2(char *dst, const char *src, int64_t n) { REVERSE_BODY(2, rev_u16) }
void tx__copy_reversed_w4_avx2(char *dst, const char *src, int64_t n) { REVERSE_BODY(4, rev_u32) }
void tx__copy_reversed_w8_avx2(char *dst, const char *src, int64_t n) { REVERSE_BODY(8, rev_u64) }
void tx__copy_reversed_w16_avx2(char *dst, const char *src, int64_t n) { REVERSE_BODY(16, rev_u128) }
void tx__copy_reversed_stream_w1_avx2(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(1, rev_bytes) }
void tx__copy_reversed_stream_w2_avx2(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(2, rev_u16) }
void tx__copy_reversed_stream_w4_avx2(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(4, rev_u32) }
void tx__copy_reversed_stream_w8_avx2(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(8, rev_u64) }
void tx__copy_reversed_stream_w16_avx2(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(16, rev_u128) }
