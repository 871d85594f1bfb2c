/* SPDX-License-Identifier: Apache-2.0 */
/* byteswap.c (AVX2) -- the byte-reversing copies of tf.io.decode_raw for data whose byte order is
 * not the host's (kernels/cast.h): every 2-, 4- or 8-byte element is reversed with one
 * vpshufb per 32 bytes (complex types come here as their parts).  Plain and streaming-store
 * versions; any alignment; the head before the streaming alignment and the tail are done by the
 * scalar swap, so nothing outside the buffers is touched. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/cast.h"

static inline void swap_run(void *dst, const void *src, int64_t n, size_t w, __m256i shuf,
                            tx__cast_fn scalar, bool nt) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    int64_t i = 0, per = (int64_t)(64 / w); /* elements per iteration of 64 bytes */
    if (nt && (uintptr_t)d % w != 0) nt = false;
    if (nt) {
        int64_t head = (int64_t)((-(uintptr_t)d & 31) / w);
        if (head > n) head = n;
        scalar(d, s, head);
        i = head;
        for (; n - i >= per; i += per) {
            const char *p = s + (size_t)i * w;
            char *q = d + (size_t)i * w;
            __m256i a = _mm256_loadu_si256((const __m256i *)p);
            __m256i b = _mm256_loadu_si256((const __m256i *)(p + 32));
            _mm256_stream_si256((__m256i *)q, _mm256_shuffle_epi8(a, shuf));
            _mm256_stream_si256((__m256i *)(q + 32), _mm256_shuffle_epi8(b, shuf));
        }
        _mm_sfence();
    } else {
        for (; n - i >= per; i += per) {
            const char *p = s + (size_t)i * w;
            char *q = d + (size_t)i * w;
            __m256i a = _mm256_loadu_si256((const __m256i *)p);
            __m256i b = _mm256_loadu_si256((const __m256i *)(p + 32));
            _mm256_storeu_si256((__m256i *)q, _mm256_shuffle_epi8(a, shuf));
            _mm256_storeu_si256((__m256i *)(q + 32), _mm256_shuffle_epi8(b, shuf));
        }
    }
    scalar(d + (size_t)i * w, s + (size_t)i * w, n - i);
}

/* vpshufb reorders within each 128-bit lane: the same byte pattern in both lanes. */
#define SHUF2 _mm256_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14,              \
                               1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)
#define SHUF4 _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,              \
                               3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12)
#define SHUF8 _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,              \
                               7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8)

void tx__byteswap_w2_avx2(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 2, SHUF2, tx__byteswap_w2_scalar, false);
}
void tx__byteswap_w4_avx2(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 4, SHUF4, tx__byteswap_w4_scalar, false);
}
void tx__byteswap_w8_avx2(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 8, SHUF8, tx__byteswap_w8_scalar, false);
}
void tx__byteswap_stream_w2_avx2(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 2, SHUF2, tx__byteswap_w2_scalar, true);
}
void tx__byteswap_stream_w4_avx2(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 4, SHUF4, tx__byteswap_w4_scalar, true);
}
void tx__byteswap_stream_w8_avx2(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 8, SHUF8, tx__byteswap_w8_scalar, true);
}
