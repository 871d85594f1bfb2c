/* SPDX-License-Identifier: Apache-2.0 */
/* crc32c.c -- CRC-32C with SSE4.2's crc32 instruction (kernels/crc32c.h), 8 bytes per step.
 * Compiled with the AVX2 level's flags, which include SSE4.2. */
#include "kernels/crc32c.h"

#include <nmmintrin.h>
#include <string.h>

uint32_t tx__crc32c_sse42(uint32_t crc, const void *data, size_t n) {
    const unsigned char *p = data;
    uint64_t c = ~crc;
    for (; n > 0 && ((uintptr_t)p & 7) != 0; n--, p++) c = _mm_crc32_u8((uint32_t)c, *p);
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c = _mm_crc32_u64(c, w);
    }
    for (; n > 0; n--, p++) c = _mm_crc32_u8((uint32_t)c, *p);
    return ~(uint32_t)c;
}
