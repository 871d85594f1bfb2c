/* SPDX-License-Identifier: Apache-2.0 */
/* pack.c (portable) -- the 2- and 4-bit pack and unpack kernels of kernels/pack.h: the loops of
 * kernels/scalar/pack_tmpl.h in the portable build (SSE2 vectors on x86-64, Advanced SIMD on
 * aarch64). */
#include "kernels/pack.h"

#define PK_PACK tx__subbyte_pack_scalar
#define PK_UNPACK tx__subbyte_unpack_scalar
#include "kernels/scalar/pack_tmpl.h"
