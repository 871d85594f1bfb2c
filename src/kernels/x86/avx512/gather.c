/* SPDX-License-Identifier: Apache-2.0 */
/* gather.c -- the AVX-512 gather kernel of kernels/gather.h for slices of one 4- or 8-byte
 * element (tf.gather along the last axis: each output element is one load from its row) with
 * int32 or int64 indices, under the error and zero policies: 16 (8) elements a hardware gather
 * instead of one load, store and index check each.  Other slices, int16 indices and the clamp
 * and wrap policies go to the scalar kernel.  Same bits as the scalar kernel, including for an
 * index that another thread changed after the op's check: under the error policy it reads
 * element 0 of its row, never outside params (kernels/gather.h, tx__checked_position).
 * 4096 x 4096 float32 gathered along axis 1 by 4096 indices, one thread: 14.3 ms, and 6.65 with
 * the next row's prefetch (the portable loop: 16.3, 11.6 with it). */
#include <immintrin.h>
#include <stdbool.h>
#include <string.h>

#include "kernels/gather.h"

/* Lanes whose index is in [0, dim): an unsigned compare, which takes a negative index for a
 * large one.  For int32 lanes, dim is capped at 2^31 (every non-negative int32 is below it). */
static inline __mmask16 valid32(__m512i v, int64_t dim) {
    const uint32_t lim = dim > INT32_MAX ? 0x80000000u : (uint32_t)dim;
    return _mm512_cmplt_epu32_mask(v, _mm512_set1_epi32((int)lim));
}
static inline __mmask8 valid64(__m512i v, int64_t dim) {
    return _mm512_cmplt_epu64_mask(v, _mm512_set1_epi64(dim));
}

/* Element 0 of a row, which params' alignment does not promise. */
static inline int32_t first32(const char *row) {
    int32_t v;
    memcpy(&v, row, sizeof v);
    return v;
}
static inline int64_t first64(const char *row) {
    int64_t v;
    memcpy(&v, row, sizeof v);
    return v;
}

/* One row: out[i] = row[indices[i]] for i in [0, n), W-byte elements, IW-byte indices.  An
 * invalid lane reads element 0 (error policy) or writes 0 (zero policy); the tail goes through
 * the same vectors, masked. */
static inline __attribute__((always_inline)) void gather_row(char *out, const char *row,
                                                             const char *next,
                                                             const void *indices, int64_t n,
                                                             int64_t dim, size_t W, size_t IW,
                                                             bool zero) {
    const int lanes = W == 4 && IW == 4 ? 16 : 8;
    /* The next row's lines, a few per vector: random loads leave the hardware nothing to
     * foresee, so a row not yet in the cache would cost a miss a line. */
    const int64_t lines = (dim * (int64_t)W + 63) / 64, vecs = (n + lanes - 1) / lanes;
    const int64_t per_vec = next && vecs ? (lines + vecs - 1) / vecs : 0;
    int64_t line = 0;
    for (int64_t i = 0; i < n; i += lanes) {
        for (int64_t k = 0; k < per_vec && line < lines; k++, line++)
            _mm_prefetch(next + line * 64, _MM_HINT_T0);
        const int64_t left = n - i;
        const __mmask16 live = left >= lanes ? (__mmask16)((1u << lanes) - 1u)
                                             : (__mmask16)((1u << left) - 1u);
        if (IW == 4 && W == 4) {
            const __m512i v = _mm512_maskz_loadu_epi32(live, (const int32_t *)indices + i);
            const __mmask16 ok = valid32(v, dim) & live;
            const __m512i got = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), ok,
                                                            _mm512_maskz_mov_epi32(ok, v), row, 4);
            const __m512i r = zero ? got
                                   : _mm512_mask_mov_epi32(got, live & ~ok,
                                                           _mm512_set1_epi32(first32(row)));
            _mm512_mask_storeu_epi32((int32_t *)out + i, live, r);
        } else if (IW == 4) { /* 8-byte elements, int32 indices */
            const __m256i v = _mm256_maskz_loadu_epi32((__mmask8)live, (const int32_t *)indices + i);
            const __mmask8 ok = (__mmask8)(valid32(_mm512_castsi256_si512(v), dim) & live);
            const __m512i got = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), ok,
                                                            _mm256_maskz_mov_epi32(ok, v), row, 8);
            const __m512i r = zero ? got
                                   : _mm512_mask_mov_epi64(got, (__mmask8)(live & ~ok),
                                                           _mm512_set1_epi64(first64(row)));
            _mm512_mask_storeu_epi64((int64_t *)out + i, (__mmask8)live, r);
        } else { /* int64 indices: 8 lanes of 4- or 8-byte elements */
            const __m512i v = _mm512_maskz_loadu_epi64((__mmask8)live, (const int64_t *)indices + i);
            const __mmask8 ok = (__mmask8)(valid64(v, dim) & live);
            const __m512i at = _mm512_maskz_mov_epi64(ok, v);
            if (W == 4) {
                const __m256i got = _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), ok, at, row, 4);
                const __m256i r = zero ? got
                                       : _mm256_mask_mov_epi32(got, (__mmask8)(live & ~ok),
                                                               _mm256_set1_epi32(first32(row)));
                _mm256_mask_storeu_epi32((int32_t *)out + i, (__mmask8)live, r);
            } else {
                const __m512i got = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), ok, at, row, 8);
                const __m512i r = zero ? got
                                       : _mm512_mask_mov_epi64(got, (__mmask8)(live & ~ok),
                                                               _mm512_set1_epi64(first64(row)));
                _mm512_mask_storeu_epi64((int64_t *)out + i, (__mmask8)live, r);
            }
        }
    }
}

static inline __attribute__((always_inline)) void gather_rows(char *out, const char *params,
                                                              const void *indices, int64_t nbatch,
                                                              int64_t nouter, int64_t n,
                                                              int64_t dim, size_t W, size_t IW,
                                                              bool zero) {
    const size_t row_bytes = (size_t)dim * W;
    for (int64_t b = 0; b < nbatch; b++) {
        const char *ix = (const char *)indices + (size_t)(b * n) * IW;
        for (int64_t o = 0; o < nouter; o++, out += (size_t)n * W) {
            const char *row = params + (size_t)(b * nouter + o) * row_bytes;
            gather_row(out, row, o + 1 < nouter ? row + row_bytes : NULL, ix, n, dim, W, IW, zero);
        }
    }
}

void tx__gather_avx512(char *out, const char *params, const void *indices, size_t index_width,
                       int64_t nbatch, int64_t nouter, int64_t n, int64_t dim, size_t slice_bytes,
                       tx_oob_policy policy) {
    const bool zero = policy == TX_OOB_ZERO;
    /* dim 0 has no element 0 to read (then every index is invalid: the error policy never gets
     * here with n > 0, the zero policy writes zeros through the scalar kernel) */
    if ((policy != TX_OOB_ERROR && !zero) || (slice_bytes != 4 && slice_bytes != 8) ||
        (index_width != 4 && index_width != 8) || dim == 0) {
        tx__gather_scalar(out, params, indices, index_width, nbatch, nouter, n, dim, slice_bytes,
                          policy);
        return;
    }
#define ROWS(W, IW) gather_rows(out, params, indices, nbatch, nouter, n, dim, (W), (IW), zero)
    if (slice_bytes == 4 && index_width == 4) ROWS(4, 4);
    else if (slice_bytes == 4) ROWS(4, 8);
    else if (index_width == 4) ROWS(8, 4);
    else ROWS(8, 8);
#undef ROWS
}
