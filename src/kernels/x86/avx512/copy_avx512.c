/* SPDX-License-Identifier: Apache-2.0 */
/* copy_avx512.c -- AVX-512 kernels of the generic copy (kernels/copy.h): the bulk copy with 64-byte
 * streaming stores and reversed runs with one full-register permute.  Serves the same ops as
 * copy_avx2.c, with the same bits as the scalar kernels. */
#include <immintrin.h>
#include <string.h>

#include "kernels/copy.h"

#define PAGE 4096

/* One line with one streaming store. */
static inline void stream_line(char *d, const char *s) {
    _mm512_stream_si512((void *)d, _mm512_loadu_si512(s));
}

#include "kernels/x86/copy_runs_x86.h"

/* Blocks whose destination is skewed against their source (their addresses differ by other
 * than a multiple of 64) and of this many bytes or more, up to SKEWED_MAX, take a vector loop;
 * others memcpy.  The C library moves blocks of a few KiB with the string move (rep movsb),
 * which runs well below a vector loop's speed when the two are skewed: pad's rows, 4 bytes into
 * a line, 2048 rows of 8 KiB at two threads 630 -> 360 us, 512 rows of 2 KiB 22.9 -> 21.7 us;
 * level when they are not.  Past SKEWED_MAX memcpy keeps its own strategy for large blocks. */
#define SKEWED_MIN 512
#define SKEWED_MAX ((size_t)1 << 20)

/* Ordinary stores: the first line unaligned, then aligned lines, the last line unaligned (each
 * end overlapping the lines before it). */
void tx__bulk_copy_plain_avx512(void *dst, const void *src, size_t n) {
    char *d = dst;
    const char *s = src;
    if (n < SKEWED_MIN || n >= SKEWED_MAX || ((uintptr_t)d - (uintptr_t)s) % 64 == 0) {
        memcpy(d, s, n);
        return;
    }
    _mm512_storeu_si512(d, _mm512_loadu_si512(s));
    size_t o = 64 - ((uintptr_t)d & 63);
    for (; o + 256 <= n; o += 256) {
        __m512i a = _mm512_loadu_si512(s + o), b = _mm512_loadu_si512(s + o + 64),
                c = _mm512_loadu_si512(s + o + 128), e = _mm512_loadu_si512(s + o + 192);
        _mm512_store_si512(d + o, a);
        _mm512_store_si512(d + o + 64, b);
        _mm512_store_si512(d + o + 128, c);
        _mm512_store_si512(d + o + 192, e);
    }
    for (; o + 64 <= n; o += 64) _mm512_store_si512(d + o, _mm512_loadu_si512(s + o));
    _mm512_storeu_si512(d + n - 64, _mm512_loadu_si512(s + n - 64));
}

/* Strided runs with ordinary stores: as copy_avx2.c's, with 64-byte vectors (the last one
 * overlapping the one before it) for runs of 64 bytes and more; long runs as blocks. */
void tx__copy_runs_avx512(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss,
                          size_t width) {
    if (width >= TX_RUNS_VECTOR_MAX) {
        for (int64_t k = 0; k < n; k++)
            tx__bulk_copy_plain_avx512(dst + k * ds, src + k * ss, width);
        return;
    }
    if (width < 64) {
        tx__copy_runs_avx2(dst, src, n, ds, ss, width);
        return;
    }
    for (int64_t k = 0; k < n; k++) {
        char *d = dst + k * ds;
        const char *s = src + k * ss;
        size_t o = 0;
        for (; o + 64 < width; o += 64) _mm512_storeu_si512(d + o, _mm512_loadu_si512(s + o));
        o = width - 64;
        _mm512_storeu_si512(d + o, _mm512_loadu_si512(s + o));
    }
}

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
    for (; n >= 64; n -= 64, d += 64, s += 64) stream_line(d, s);
    _mm_sfence();
    memcpy(d, s, n);
}

/* Strided runs with streaming stores: the shared driver (x86/copy_runs_x86.h). */
void tx__copy_runs_stream_avx512(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss,
                                 size_t width) {
    copy_runs_stream_x86(dst, src, n, ds, ss, width, tx__bulk_copy_avx512);
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
