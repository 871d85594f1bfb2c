/* SPDX-License-Identifier: Apache-2.0 */
/* pack.h -- the packed form's 2- and 4-bit loops (exec/packed.c: pack_subbyte, unpack_subbyte,
 * cast_pack, tx_tensor_pack, tx_tensor_from_packed, safetensors F4, DLPack): one element per byte
 * to 8 / bits elements per byte, element i in bits [i * bits, (i + 1) * bits) of the bytes read as
 * one little-endian bit string, and back.  The loops are portable C written once
 * (kernels/scalar/pack_tmpl.h) for the compiler to vectorise, compiled at each level with its
 * flags (kernels/pack.inc).  checkasm --bench, 16 KiB of float4 elements packed in cache: 0.71 us
 * portable (SSE2), 0.40 AVX2, 0.17 AVX-512; unpacked: 0.23, 0.13, 0.13. */
#ifndef TX_KERNELS_PACK_H
#define TX_KERNELS_PACK_H

#include <stdbool.h>
#include <stdint.h>

#include "core/internal.h"

/* Packs numel elements of `bits` (2 or 4) value bits from p, one per byte, into the
 * ceil(numel * bits / 8) bytes at o, the padding bits of the last byte 0.  Each byte's field is
 * tx__subbyte_value's reading of it: an integer's low bits (is_float false); a float's bits below
 * the sign, and the sign when any bit at or above it is set (is_float true).  p and o do not
 * overlap; any alignment. */
typedef void tx__subbyte_pack_ft(unsigned bits, bool is_float, int64_t numel, const uint8_t *p,
                                 uint8_t *o);
/* The inverse: numel fields of `bits` (2 or 4) from their packed bytes b into p, one per byte,
 * each byte the field itself (which is how tensorx stores every sub-byte dtype's field).  Reads
 * ceil(numel * bits / 8) bytes; b and p do not overlap; any alignment. */
typedef void tx__subbyte_unpack_ft(unsigned bits, int64_t numel, const uint8_t *b, uint8_t *p);

/* The kernels: one line each in kernels/pack.inc. */
#define TX__KERNEL(level, slot, key, fn) TX_HIDDEN tx__##slot##_ft fn;
#include "kernels/pack.inc"
#undef TX__KERNEL

#endif
