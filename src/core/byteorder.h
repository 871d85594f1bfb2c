/* SPDX-License-Identifier: Apache-2.0 */
/* byteorder.h -- byte swaps, and loads and stores of words in an explicit byte order, for the
 * places where bytes of a defined order meet host-order values: .npy data and headers, TF_TString
 * records, the word-wise block transposes.  TX_HOST_LITTLE_ENDIAN (tensorx.h) is the one switch;
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

/* Reverses the bytes of each of the n units of `unit` bytes at p, in place. */
static inline void tx__swap_units(void *p, size_t n, size_t unit) {
    unsigned char *b = (unsigned char *)p;
    for (size_t k = 0; k < n; k++, b += unit)
        for (size_t i = 0, j = unit - 1; i < j; i++, j--) {
            unsigned char t = b[i];
            b[i] = b[j];
            b[j] = t;
        }
}

#endif
