/* SPDX-License-Identifier: Apache-2.0 */
/* pack_tmpl.h -- the 2- and 4-bit pack and unpack kernels of kernels/pack.h, written once as C the
 * compiler vectorises, included by each level's pack.c, which compiles them with its flags.  No
 * include guard: every inclusion defines one pair of kernels.  The includer defines
 *     PK_PACK    the pack kernel's name (a tx__subbyte_pack_ft), e.g. tx__subbyte_pack_avx2
 *     PK_UNPACK  the unpack kernel's name (a tx__subbyte_unpack_ft)
 * and this file #undefs them at its end.  (The static helpers have the same names in every
 * inclusion: one inclusion per file.) */

/* The field of stored byte b: tx__subbyte_value's rule as arithmetic the compiler vectorises (an
 * integer's low bits; a float's bits below the sign, and the sign when any bit at or above it is
 * set).  checkasm holds it to a loop written from the rule, the unit tests to tx__subbyte_value. */
static inline unsigned field_of(unsigned b, unsigned bits, bool is_float) {
    const unsigned sign = 1u << (bits - 1);
    return is_float ? (b & (sign - 1u)) | (b >= sign ? sign : 0u) : b & ((1u << bits) - 1u);
}

/* Two elements per byte, the first in the low nibble.  is_float is a constant in each call below,
 * so that each rule gets a loop of its own. */
static inline void pack4(bool is_float, int64_t numel, const uint8_t *restrict p,
                         uint8_t *restrict o) {
    const int64_t pairs = numel / 2;
    for (int64_t k = 0; k < pairs; k++)
        o[k] = (uint8_t)(field_of(p[2 * k], 4, is_float) |
                         field_of(p[2 * k + 1], 4, is_float) << 4);
    if (numel & 1) o[pairs] = (uint8_t)field_of(p[numel - 1], 4, is_float);
}

/* Four elements per byte (no 2-bit float exists, but the rule would hold for one). */
static inline void pack2(bool is_float, int64_t numel, const uint8_t *restrict p,
                         uint8_t *restrict o) {
    const int64_t quads = numel / 4;
    for (int64_t k = 0; k < quads; k++)
        o[k] = (uint8_t)(field_of(p[4 * k], 2, is_float) |
                         field_of(p[4 * k + 1], 2, is_float) << 2 |
                         field_of(p[4 * k + 2], 2, is_float) << 4 |
                         field_of(p[4 * k + 3], 2, is_float) << 6);
    if (numel % 4) {
        unsigned v = 0;
        for (int64_t j = 0; j < numel % 4; j++)
            v |= field_of(p[4 * quads + j], 2, is_float) << (2 * j);
        o[quads] = (uint8_t)v;
    }
}

static inline void unpack4(int64_t numel, const uint8_t *restrict b, uint8_t *restrict p) {
    const int64_t pairs = numel / 2;
    for (int64_t k = 0; k < pairs; k++) {
        p[2 * k] = b[k] & 15u;
        p[2 * k + 1] = (uint8_t)(b[k] >> 4);
    }
    if (numel & 1) p[numel - 1] = b[pairs] & 15u;
}

static inline void unpack2(int64_t numel, const uint8_t *restrict b, uint8_t *restrict p) {
    const int64_t quads = numel / 4;
    for (int64_t k = 0; k < quads; k++)
        for (int j = 0; j < 4; j++) p[4 * k + j] = (uint8_t)(b[k] >> (2 * j) & 3u);
    for (int64_t j = 0; j < numel % 4; j++) p[4 * quads + j] = (uint8_t)(b[quads] >> (2 * j) & 3u);
}

void PK_PACK(unsigned bits, bool is_float, int64_t numel, const uint8_t *p, uint8_t *o) {
    if (bits == 4) is_float ? pack4(true, numel, p, o) : pack4(false, numel, p, o);
    else is_float ? pack2(true, numel, p, o) : pack2(false, numel, p, o);
}

void PK_UNPACK(unsigned bits, int64_t numel, const uint8_t *b, uint8_t *p) {
    if (bits == 4) unpack4(numel, b, p);
    else unpack2(numel, b, p);
}

#undef PK_PACK
#undef PK_UNPACK
