/* SPDX-License-Identifier: Apache-2.0 */
/* pack.c (AVX-512) -- the 2- and 4-bit pack and unpack kernels of kernels/pack.h: the loops of
 * kernels/scalar/pack_tmpl.h in the AVX-512 build (512-bit vectors, byte shuffles of AVX512BW). */
#include "kernels/pack.h"

#define PK_PACK tx__subbyte_pack_avx512
#define PK_UNPACK tx__subbyte_unpack_avx512
#include "kernels/scalar/pack_tmpl.h"
