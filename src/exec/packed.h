/* SPDX-License-Identifier: Apache-2.0 */
/* packed.h -- the packed interchange form of the sub-byte dtypes (exec/packed.c): its rules (which
 * dtypes pack, its size, its padding bits), the loops between it and tensorx's one element per
 * byte, large ranges split over the thread pool, and the constructor of a tensor from it.  Used by
 * pack_subbyte, unpack_subbyte and cast_pack (ops/pack_subbyte.c), tx_tensor_pack /
 * tx_tensor_from_packed (packed.c) and the safetensors and DLPack readers and writers (io/). */
#ifndef TX_EXEC_PACKED_H
#define TX_EXEC_PACKED_H

#include <stdint.h>

#include "core/internal.h"

/* Four elements of any packable width fill whole bytes (4 * bits / 8 = bits / 2): a range that
 * starts at a multiple of TX__PACK_GROUP elements starts on a byte of the packed form. */
#define TX__PACK_GROUP 4

/* OK when dtype packs (value bits 2, 4 or 6); else invalid_argument naming op and arg. */
TX_HIDDEN tx_status tx__check_packable(const char *op, const char *arg, tx_dtype dtype);
/* ceil(numel * bits / 8), without overflow for any numel >= 0 and bits 2, 4 or 6. */
TX_HIDDEN size_t tx__packed_size(unsigned bits, int64_t numel);
/* Writes the tx__packed_size bytes of numel elements of a packable dtype at p to o, the padding
 * bits 0; a large range is split over the thread pool. */
TX_HIDDEN void tx__pack_bits(tx_dtype dtype, int64_t numel, const uint8_t *p, uint8_t *o);
/* The inverse: numel elements from their packed bytes b into p, one per byte. */
TX_HIDDEN void tx__unpack_bits(tx_dtype dtype, int64_t numel, const uint8_t *b, uint8_t *p);
/* tx__pack_bits on the calling thread (the loop of one piece of a split, or of one tile). */
TX_HIDDEN void tx__pack_bits_serial(tx_dtype dtype, int64_t numel, const uint8_t *p, uint8_t *o);
/* The loops for any width, an element at a time through tables built from tx__subbyte_value: the
 * 6-bit types' loops, and the reference the tests compare the 2- and 4-bit loops with. */
TX_HIDDEN void tx__pack_bits_generic(tx_dtype dtype, int64_t numel, const uint8_t *p, uint8_t *o);
TX_HIDDEN void tx__unpack_bits_generic(tx_dtype dtype, int64_t numel, const uint8_t *b,
                                       uint8_t *p);
/* Checks a packed form's layout: dtype packable, the shape an output's, nbytes exactly
 * tx__packed_size; *numel receives the element count.  Errors name op. */
TX_HIDDEN tx_status tx__packed_layout(const char *op, tx_dtype dtype, size_t rank,
                                      const int64_t *dims, size_t nbytes, int64_t *numel);
/* Checks that the padding bits after numel elements in the last of nbytes bytes are 0. */
TX_HIDDEN tx_status tx__check_pad_bits(const char *op, tx_dtype dtype, int64_t numel,
                                       const uint8_t *data, size_t nbytes);
/* A new tensor of dtype and shape from exactly tx__packed_size bytes at data, whose padding bits
 * must be 0; errors name op.  *out is NULL on failure. */
TX_HIDDEN tx_status tx__from_packed(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                                    const void *data, size_t nbytes, tx_tensor **out);

#endif
