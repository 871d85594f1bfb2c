/* SPDX-License-Identifier: Apache-2.0 */
/* pack.c (AVX2) -- the 2- and 4-bit pack and unpack kernels of kernels/pack.h: the loops of
 * kernels/scalar/pack_tmpl.h in the AVX2 build (256-bit vectors). */
#include "kernels/pack.h"

#define PK_PACK tx__subbyte_pack_avx2
#define PK_UNPACK tx__subbyte_unpack_avx2
#include "kernels/scalar/pack_tmpl.h"
