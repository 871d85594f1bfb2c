/* SPDX-License-Identifier: Apache-2.0 */
/* byteswap.c (NEON) -- the byte-reversing copies of tf.io.decode_raw / encode_raw for data whose
 * byte order is not the host's (kernels/cast.h): every 2-, 4- or 8-byte element of a 16-byte
 * vector is reversed with one REV16 / REV32 / REV64 (complex types come here as their parts).
 * Any alignment (byte loads and stores); the last elements short of a vector go through the
 * scalar swap, so nothing outside the buffers is touched.  NEON has no streaming stores worth
 * using (STNP is only a hint), so the byteswap_stream slots list these same kernels. */
#include <arm_neon.h>
#include <stdint.h>

#include "kernels/cast.h"

#define DEFINE_SWAP(W, REV)                                                                      \
    void tx__byteswap_w##W##_neon(void *dst, const void *src, int64_t n) {                       \
        uint8_t *d = (uint8_t *)dst;                                                             \
        const uint8_t *s = (const uint8_t *)src;                                                 \
        int64_t i = 0;                                                                           \
        for (; n - i >= 32 / (W); i += 32 / (W)) { /* 32 bytes per step */                      \
            uint8x16_t a = vld1q_u8(s + (size_t)i * (W)), b = vld1q_u8(s + (size_t)i * (W) + 16); \
            vst1q_u8(d + (size_t)i * (W), REV(a));                                               \
            vst1q_u8(d + (size_t)i * (W) + 16, REV(b));                                          \
        }                                                                                        \
        tx__byteswap_w##W##_scalar(d + (size_t)i * (W), s + (size_t)i * (W), n - i);             \
    }

DEFINE_SWAP(2, vrev16q_u8)
DEFINE_SWAP(4, vrev32q_u8)
DEFINE_SWAP(8, vrev64q_u8)
