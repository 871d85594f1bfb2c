/* SPDX-License-Identifier: Apache-2.0 */
/* byteswap.c (AVX-512 BW) -- the byte-reversing copies of tf.io.decode_raw for data whose byte
 * order is not the host's (kernels/cast.h): 2-, 4- or 8-byte elements reversed with one
 * vpshufb per 64 bytes; the tail with byte-masked loads and stores (nothing outside the buffers
 * is touched); streaming-store versions with a scalar head up to the 64-byte alignment. */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "kernels/cast.h"

static inline void swap_run(void *dst, const void *src, int64_t n, size_t w, __m512i shuf,
                            tx__cast_fn scalar, bool nt) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    int64_t i = 0, per = (int64_t)(64 / w);
    if (nt && (uintptr_t)d % w != 0) nt = false;
    if (nt) {
        int64_t head = (int64_t)((-(uintptr_t)d & 63) / w);
        if (head > n) head = n;
        scalar(d, s, head);
        for (i = head; n - i >= per; i += per) {
            __m512i v = _mm512_loadu_si512(s + (size_t)i * w);
            _mm512_stream_si512((__m512i *)(d + (size_t)i * w), _mm512_shuffle_epi8(v, shuf));
        }
        _mm_sfence();
    } else {
        for (; n - i >= per; i += per) {
            __m512i v = _mm512_loadu_si512(s + (size_t)i * w);
            _mm512_storeu_si512(d + (size_t)i * w, _mm512_shuffle_epi8(v, shuf));
        }
    }
    if (i < n) {
        __mmask64 m = ((__mmask64)1 << ((size_t)(n - i) * w)) - 1; /* fewer than 64 bytes */
        __m512i v = _mm512_maskz_loadu_epi8(m, s + (size_t)i * w);
        _mm512_mask_storeu_epi8(d + (size_t)i * w, m, _mm512_shuffle_epi8(v, shuf));
    }
}

/* vpshufb reorders within each 128-bit lane: the same byte pattern in all four lanes. */
#define LANE2 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14
#define LANE4 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
#define LANE8 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8
#define SHUF(L) _mm512_broadcast_i32x4(_mm_setr_epi8(L))

void tx__byteswap_w2_avx512(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 2, SHUF(LANE2), tx__byteswap_w2_scalar, false);
}
void tx__byteswap_w4_avx512(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 4, SHUF(LANE4), tx__byteswap_w4_scalar, false);
}
void tx__byteswap_w8_avx512(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 8, SHUF(LANE8), tx__byteswap_w8_scalar, false);
}
void tx__byteswap_stream_w2_avx512(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 2, SHUF(LANE2), tx__byteswap_w2_scalar, true);
}
void tx__byteswap_stream_w4_avx512(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 4, SHUF(LANE4), tx__byteswap_w4_scalar, true);
}
void tx__byteswap_stream_w8_avx512(void *d, const void *s, int64_t n) {
    swap_run(d, s, n, 8, SHUF(LANE8), tx__byteswap_w8_scalar, true);
}
