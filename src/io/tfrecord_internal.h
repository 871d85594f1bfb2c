/* SPDX-License-Identifier: Apache-2.0 */
/* tfrecord_internal.h -- what the TFRecord reader (tfrecord.c) and writer (tfrecord_write.c)
 * share: the framing's sizes and the masked CRC-32C. */
#ifndef TX_IO_TFRECORD_INTERNAL_H
#define TX_IO_TFRECORD_INTERNAL_H

#include "core/internal.h"
#include "dispatch/dispatch.h"

/* A record: length (8) and its checksum (4), the data, the data's checksum (4). */
#define TX_TFRECORD_HEADER 12
#define TX_TFRECORD_FOOTER 4

/* TF's masked CRC-32C of n bytes (crc32c::Mask(crc32c::Value(p, n))): the mask keeps a CRC of
 * bytes that hold CRCs from being a CRC of those bytes. */
static inline uint32_t tx__tfrecord_crc(const void *p, size_t n) {
    const uint32_t c = tx__kernels_get()->crc32c(0, p, n);
    return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

static inline uint32_t tx__load_le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t tx__load_le64(const unsigned char *p) {
    return (uint64_t)tx__load_le32(p) | (uint64_t)tx__load_le32(p + 4) << 32;
}

#endif
