/* SPDX-License-Identifier: Apache-2.0 */
/* cast_swap.c -- the byte-reversing copy that tf.io.decode_raw (src/ops/decode.c) uses when the
 * data's byte order differs from the host's: each element of 2, 4 or 8 bytes is reversed on the
 * way from the input string to the output (complex types are passed as their parts).  The
 * per-width functions are the portable entries of the dispatch table (kernels/cast.h) and the
 * tails of the SIMD versions; both pointers may have any alignment. */
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
            v = (uint16_t)((v >> 8) | (v << 8));
            memcpy(d, &v, 2);
        }
        break;
    case 4:
        for (int64_t i = 0; i < n; i++, d += 4, s += 4) {
            uint32_t v;
            memcpy(&v, s, 4);
            v = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
            memcpy(d, &v, 4);
        }
        break;
    case 8:
        for (int64_t i = 0; i < n; i++, d += 8, s += 8) {
            uint64_t v;
            memcpy(&v, s, 8);
            v = ((v & 0x00000000ffffffffull) << 32) | ((v & 0xffffffff00000000ull) >> 32);
            v = ((v & 0x0000ffff0000ffffull) << 16) | ((v & 0xffff0000ffff0000ull) >> 16);
            v = ((v & 0x00ff00ff00ff00ffull) << 8) | ((v & 0xff00ff00ff00ff00ull) >> 8);
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
