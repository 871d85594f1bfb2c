/* SPDX-License-Identifier: Apache-2.0 */
/* hash_probe.c -- the AVX-512 probe kernel of kernels/hash_probe.h: 16 keys per step, hashed with
 * one 32-bit multiply and their home slots fetched as 8-byte {key, id} pairs by two gathers.  The
 * lanes whose home slot holds another key probe on together (masked gathers) until each meets its
 * key or an empty slot; with a sparse table that second round is rare.  Same ids as the scalar
 * kernel, and it stops at the same key. */
#include <immintrin.h>

#include "kernels/hash_probe.h"

/* How far ahead of the keys being looked up x is prefetched, into L2 (as the streaming casts
 * do). */
#define PF_DIST 8192

/* Slot s's key and id for the 16 lanes of h (lanes outside `lanes` give key 0, id 0). */
static inline void gather_slots(const tx__slot32 *slots, __m512i h, __mmask16 lanes,
                                __m512i *key, __m512i *id) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const __m512i zero = _mm512_setzero_si512();
    __m512i lo = _mm512_mask_i32gather_epi64(zero, (__mmask8)lanes, _mm512_castsi512_si256(h),
                                             (const void *)slots, 8);
    __m512i hi = _mm512_mask_i32gather_epi64(zero, (__mmask8)(lanes >> 8),
                                             _mm512_extracti64x4_epi64(h, 1), (const void *)slots, 8);
    *key = _mm512_permutex2var_epi32(lo, even, hi);
    *id = _mm512_permutex2var_epi32(lo, odd, hi);
}

int64_t tx__probe32_avx512(const tx__slot32 *slots, unsigned bits, bool neg_zero,
                           const uint32_t *x, int64_t n, int32_t *ids) {
    /* the gathers take signed 32-bit slot indices: a table of 2^32 slots is the portable loop's */
    if (bits > 31) return tx__probe32_scalar(slots, bits, neg_zero, x, n, ids);
    const __m512i mul = _mm512_set1_epi32((int)0x9E3779B1u), one = _mm512_set1_epi32(1);
    const __m512i mask = _mm512_set1_epi32((int)((1u << bits) - 1));
    const __m512i neg0 = _mm512_set1_epi32(INT32_MIN), zero = _mm512_setzero_si512();
    const __m128i shift = _mm_cvtsi32_si128((int)(32 - bits));
    for (int64_t i = 0; i < n; i += 16) {
        /* x streams in from memory when it is large: without this prefetch the loads of x, not
         * the gathers, set the pace (a prefetch past the end of x does not fault). */
        _mm_prefetch((const char *)(x + i) + PF_DIST, _MM_HINT_T1);
        const __mmask16 live = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1);
        __m512i k = _mm512_maskz_loadu_epi32(live, x + i);
        if (neg_zero) k = _mm512_mask_mov_epi32(k, _mm512_cmpeq_epi32_mask(k, neg0), zero);
        __m512i h = _mm512_srl_epi32(_mm512_mullo_epi32(k, mul), shift);
        __m512i sk, sid;
        gather_slots(slots, h, live, &sk, &sid);
        __mmask16 empty = _mm512_mask_cmplt_epi32_mask(live, sid, zero);
        __mmask16 found = _mm512_mask_cmpeq_epi32_mask(live & ~empty, sk, k);
        __mmask16 missing = empty, todo = live & ~(found | empty);
        __m512i res = sid;
        while (todo) {
            h = _mm512_and_si512(_mm512_add_epi32(h, one), mask);
            gather_slots(slots, h, todo, &sk, &sid);
            empty = _mm512_mask_cmplt_epi32_mask(todo, sid, zero);
            found = _mm512_mask_cmpeq_epi32_mask(todo & ~empty, sk, k);
            res = _mm512_mask_mov_epi32(res, found, sid);
            missing |= empty;
            todo &= (__mmask16) ~(found | empty);
        }
        if (missing) {
            const unsigned first = (unsigned)__builtin_ctz(missing);
            _mm512_mask_storeu_epi32(ids + i, (__mmask16)((1u << first) - 1), res);
            return i + first;
        }
        _mm512_mask_storeu_epi32(ids + i, live, res);
    }
    return n;
}
