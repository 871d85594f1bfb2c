/* SPDX-License-Identifier: Apache-2.0 */
/* crc32c.h -- CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum of TFRecord
 * framing (src/io/tfrecord.c).  The portable kernel is src/kernels/scalar/crc32c.c (slicing by
 * 8); x86-64 uses the SSE4.2 crc32 instruction (src/kernels/x86/avx2/crc32c.c: every CPU of the
 * AVX2 level has SSE4.2), aarch64 the ARMv8 CRC instructions when the compiler targets them
 * (src/kernels/arm/neon/crc32c.c). */
#ifndef TX_KERNELS_CRC32C_H
#define TX_KERNELS_CRC32C_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"

/* Extends crc, the CRC-32C of some bytes (0 for none), by the n bytes at data (any alignment;
 * data may be NULL when n is 0) and returns the CRC-32C of the whole: TF's crc32c::Extend. */
typedef uint32_t tx__crc32c_ft(uint32_t crc, const void *data, size_t n);
typedef tx__crc32c_ft *tx__crc32c_fn;

/* The kernels, one line each in kernels/crc32c.inc. */
#define TX__KERNEL(level, slot, width, fn) TX_HIDDEN tx__##slot##_ft fn;
#include "kernels/crc32c.inc"
#undef TX__KERNEL

#endif
