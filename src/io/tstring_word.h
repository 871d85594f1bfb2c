/* SPDX-License-Identifier: Apache-2.0 */
/* tstring_word.h -- the size word of TF_TString's LARGE and VIEW records (string_layouts.c), for a
 * host of either byte order: a size_t in host order whose first byte in memory holds the record
 * type in its low 2 bits, as TF's TF_TString_ToInternalSizeT / ToActualSizeT
 * (tensorflow/tsl/platform/ctstring_internal.h) keep it.
 *   little-endian: size << 2 | type (the first byte is the low one);
 *   big-endian: the first byte is the top one, so the size stays in the low bytes and only its
 *   top byte moves up 2 bits to make room for the type in that byte's low bits.
 * Sizes below 2^(bits - 10) (every real one) read back exactly, with their type, on both. */
#ifndef TX_TSTRING_WORD_H
#define TX_TSTRING_WORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TX__TSTR_TOP_BYTE (~(SIZE_MAX >> 8))

static inline size_t tx__tstring_word(size_t size, unsigned type, bool little) {
    if (little) return size << 2 | type;
    return (TX__TSTR_TOP_BYTE & size << 2) | (~TX__TSTR_TOP_BYTE & size) |
           (size_t)type << (8 * (sizeof(size_t) - 1));
}

static inline size_t tx__tstring_word_size(size_t word, bool little) {
    if (little) return word >> 2;
    return (word & TX__TSTR_TOP_BYTE << 2) >> 2 | (word & ~TX__TSTR_TOP_BYTE);
}

#endif
