/* SPDX-License-Identifier: Apache-2.0 */
/* byteorder.h -- byte swaps of words, and loads and stores of words in an explicit byte order,
 * for the places where bytes of a defined order meet host-order values: .npy headers, TF_TString
 * records, the word-wise block transposes, the portable byteswap kernels.  (Whole buffers are
 * swapped by exec/byteswap.h.)  TX_HOST_LITTLE_ENDIAN (tensorx.h) is the one switch;
 * on a little-endian host every *_le_* helper is a plain copy.  The swaps are written as shifts,
 * which compilers turn into one byte-reverse instruction. */
#ifndef TX_BYTEORDER_H
#define TX_BYTEORDER_H

#include "tensorx.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static inline uint16_t tx__bswap16(uint16_t v) { return (uint16_t)(v >> 8 | v << 8); }

static inline uint32_t tx__bswap32(uint32_t v) {
    return v >> 24 | (v >> 8 & 0xFF00u) | (v << 8 & 0xFF0000u) | v << 24;
}

static inline uint64_t tx__bswap64(uint64_t v) {
    return (uint64_t)tx__bswap32((uint32_t)v) << 32 | tx__bswap32((uint32_t)(v >> 32));
}

/* A word whose bytes are in little-endian order <-> the host's value (the same conversion both
 * ways). */
static inline uint32_t tx__le32_host(uint32_t v) {
    return TX_HOST_LITTLE_ENDIAN ? v : tx__bswap32(v);
}
static inline uint64_t tx__le64_host(uint64_t v) {
    return TX_HOST_LITTLE_ENDIAN ? v : tx__bswap64(v);
}

static inline uint32_t tx__load_le32(const void *p) {
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return tx__le32_host(v);
}
static inline void tx__store_le32(void *p, uint32_t v) {
    v = tx__le32_host(v);
    memcpy(p, &v, sizeof v);
}

#endif
