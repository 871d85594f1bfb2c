/* SPDX-License-Identifier: Apache-2.0 */
/* cast_swap.c -- the byte-reversing copy that tf.io.decode_raw (src/ops/decode.c) uses when the
 * data's byte order differs from the host's: each element of 2, 4 or 8 bytes is reversed on the
 * way from the input string to the output (complex types are passed as their parts).  The
 * per-width functions are the portable entries of the dispatch table (kernels/cast.h) and the
 * tails of the SIMD versions; both pointers may have any alignment, and may be equal (an in-place
 * swap: exec/byteswap.h). */
#include "core/byteorder.h"
#include "kernels/scalar/convert.h"
#include "kernels/cast.h"

void tx__swap_copy(void *dst, const void *src, int64_t n, size_t width) {
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    switch (width) {
    case 2:
        for (int64_t i = 0; i < n; i++, d += 2, s += 2) {
            uint16_t v;
            memcpy(&v, s, 2);
            v = tx__bswap16(v);
            memcpy(d, &v, 2);
        }
        break;
    case 4:
        for (int64_t i = 0; i < n; i++, d += 4, s += 4) {
            uint32_t v;
            memcpy(&v, s, 4);
            v = tx__bswap32(v);
            memcpy(d, &v, 4);
        }
        break;
    case 8:
        for (int64_t i = 0; i < n; i++, d += 8, s += 8) {
            uint64_t v;
            memcpy(&v, s, 8);
            v = tx__bswap64(v);
            memcpy(d, &v, 8);
        }
        break;
    default:
        for (int64_t i = 0; i < n; i++, d += width, s += width)
            for (size_t k = 0; k < width; k++) d[k] = s[width - 1 - k];
        break;
    }
}

void tx__byteswap_w2_scalar(void *dst, const void *src, int64_t n) { tx__swap_copy(dst, src, n, 2); }
void tx__byteswap_w4_scalar(void *dst, const void *src, int64_t n) { tx__swap_copy(dst, src, n, 4); }
void tx__byteswap_w8_scalar(void *dst, const void *src, int64_t n) { tx__swap_copy(dst, src, n, 8); }
