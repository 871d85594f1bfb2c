/* SPDX-License-Identifier: Apache-2.0 */
/* crc32c.c -- CRC-32C with the ARMv8 CRC instructions (kernels/crc32c.h), 8 bytes per step;
 * built only when the compiler targets the CRC extension (kernels/crc32c.inc says why). */
#include "kernels/crc32c.h"

#if defined(__ARM_FEATURE_CRC32)
#include <arm_acle.h>
#include <string.h>

uint32_t tx__crc32c_armv8(uint32_t crc, const void *data, size_t n) {
    const unsigned char *p = data;
    uint32_t c = ~crc;
    for (; n > 0 && ((uintptr_t)p & 7) != 0; n--, p++) c = __crc32cb(c, *p);
    for (; n >= 8; n -= 8, p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c = __crc32cd(c, w);
    }
    for (; n > 0; n--, p++) c = __crc32cb(c, *p);
    return ~c;
}
#else
/* ISO C wants a declaration in every translation unit. */
typedef int tx__crc32c_armv8_absent;
#endif
