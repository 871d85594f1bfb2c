/* copy_avx512.c -- AVX-512 kernels of the generic copy (kernels/copy.h): the bulk copy with 64-byte
 * streaming stores and reversed runs with one full-register permute.  Serves the same ops as
 * copy_avx2.c, with the same bits as the scalar kernels. */
#include <immintrin.h>
#include <string.h>

#include "kernels/copy.h"

#define PAGE 4096

/* Four pages at a time, as in copy_avx2.c. */
void tx__bulk_copy_avx512(void *dst, const void *src, size_t n) {
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
            __m512i a = _mm512_loadu_si512(s + o);
            __m512i b = _mm512_loadu_si512(s + PAGE + o);
            __m512i c = _mm512_loadu_si512(s + 2 * PAGE + o);
            __m512i e = _mm512_loadu_si512(s + 3 * PAGE + o);
            _mm512_stream_si512((void *)(d + o), a);
            _mm512_stream_si512((void *)(d + PAGE + o), b);
            _mm512_stream_si512((void *)(d + 2 * PAGE + o), c);
            _mm512_stream_si512((void *)(d + 3 * PAGE + o), e);
        }
    }
    for (; n >= 64; n -= 64, d += 64, s += 64) _mm512_stream_si512((void *)d, _mm512_loadu_si512(s));
    _mm_sfence();
    memcpy(d, s, n);
}

/* Each run: the partial line before the first 64-byte boundary and after the last with memcpy,
 * the whole lines between with one streaming store each (a line is never left half-written in a
 * write-combining buffer).  Runs of two pages or more take the bulk copy. */
void tx__copy_runs_stream_avx512(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss,
                                 size_t width) {
    /* Whole lines only (every run starts on a line and is a number of lines, as depth_to_space's
     * 128-byte runs are): no per-run head or tail to work out (1M runs of 128 bytes: 11 -> 8 ms). */
    if (width % 64 == 0 && width < 2 * PAGE && ds % 64 == 0 && (uintptr_t)dst % 64 == 0) {
        for (int64_t k = 0; k < n; k++) {
            char *d = dst + k * ds;
            const char *s = src + k * ss;
            for (size_t o = 0; o < width; o += 64) {
                _mm512_stream_si512((void *)(d + o), _mm512_loadu_si512(s + o));
            }
        }
        _mm_sfence();
        return;
    }
    for (int64_t k = 0; k < n; k++) {
        char *d = dst + k * ds;
        const char *s = src + k * ss;
        size_t m = width, head = (size_t)(-(uintptr_t)d & 63);
        if (m >= 2 * PAGE) {
            tx__bulk_copy_avx512(d, s, m);
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
        for (; m >= 64; m -= 64, d += 64, s += 64) _mm512_stream_si512((void *)d, _mm512_loadu_si512(s));
        if (m) memcpy(d, s, m);
    }
    _mm_sfence();
}

#define REVERSE_BODY(W, PERMUTE)                                                                 \
    const int64_t per = 64 / (W);                                                                \
    int64_t k = 0;                                                                               \
    for (; k + per <= n; k += per) {                                                             \
        __m512i v = _mm512_loadu_si512(src - (k + per - 1) * (W));                               \
        _mm512_storeu_si512(dst + k * (W), PERMUTE(v));                                          \
    }                                                                                            \
    for (; k < n; k++) memcpy(dst + k * (W), src - k * (W), (W));

static inline __m512i rev_bytes(__m512i v) {
    const __m512i m = _mm512_set_epi64(0x0001020304050607, 0x08090a0b0c0d0e0f, 0x0001020304050607,
                                       0x08090a0b0c0d0e0f, 0x0001020304050607, 0x08090a0b0c0d0e0f,
                                       0x0001020304050607, 0x08090a0b0c0d0e0f);
    return _mm512_shuffle_i64x2(_mm512_shuffle_epi8(v, m), _mm512_shuffle_epi8(v, m), 0x1B);
}
static inline __m512i rev_u16(__m512i v) {
    const __m512i idx = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                         17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31);
    return _mm512_permutexvar_epi16(idx, v);
}
static inline __m512i rev_u32(__m512i v) {
    const __m512i idx = _mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    return _mm512_permutexvar_epi32(idx, v);
}
static inline __m512i rev_u64(__m512i v) {
    return _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), v);
}

#define REVERSE_STREAM_BODY(W, PERMUTE)                                                          \
    const int64_t per = 64 / (W);                                                                \
    int64_t k = 0;                                                                               \
    if ((uintptr_t)dst % (W) == 0) {                                                             \
        for (; k < n && ((uintptr_t)(dst + k * (W)) & 63) != 0; k++)                             \
            memcpy(dst + k * (W), src - k * (W), (W));                                           \
        for (; k + per <= n; k += per) {                                                         \
            __m512i v = _mm512_loadu_si512(src - (k + per - 1) * (W));                           \
            _mm512_stream_si512((void *)(dst + k * (W)), PERMUTE(v));                            \
        }                                                                                        \
        _mm_sfence();                                                                            \
    }                                                                                            \
    for (; k + per <= n; k += per) {                                                             \
        __m512i v = _mm512_loadu_si512(src - (k + per - 1) * (W));                               \
        _mm512_storeu_si512(dst + k * (W), PERMUTE(v));                                          \
    }                                                                                            \
    for (; k < n; k++) memcpy(dst + k * (W), src - k * (W), (W));

void tx__copy_reversed_stream_w1_avx512(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(1, rev_bytes) }
void tx__copy_reversed_stream_w2_avx512(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(2, rev_u16) }
void tx__copy_reversed_stream_w4_avx512(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(4, rev_u32) }
void tx__copy_reversed_stream_w8_avx512(char *dst, const char *src, int64_t n) { REVERSE_STREAM_BODY(8, rev_u64) }

void tx__copy_reversed_w1_avx512(char *dst, const char *src, int64_t n) { REVERSE_BODY(1, rev_bytes) }
void tx__copy_reversed_w2_avx512(char *dst, const char *src, int64_t n) { REVERSE_BODY(2, rev_u16) }
void tx__copy_reversed_w4_avx512(char *dst, const char *src, int64_t n) { REVERSE_BODY(4, rev_u32) }
void tx__copy_reversed_w8_avx512(char *dst, const char *src, int64_t n) { REVERSE_BODY(8, rev_u64) }
