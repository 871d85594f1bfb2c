/* SPDX-License-Identifier: Apache-2.0 */
/* proto_wire.c -- the protocol buffer wire-format reader (proto_wire.h). */
#include "io/proto_wire.h"

bool tx__pw_varint64(tx__pw *r, uint64_t *v) {
    uint64_t x = 0;
    const uint8_t *q = r->p;
    for (unsigned i = 0; i < 10 && q < r->limit; i++) {
        uint8_t b = *q++;
        x |= (uint64_t)(b & 0x7f) << (7 * i); /* the 10th byte's bits past 64 drop out */
        if (!(b & 0x80)) {
            *v = x;
            r->p = q;
            return true;
        }
    }
    return false;
}

bool tx__pw_varint32(tx__pw *r, uint32_t *v) {
    uint64_t x;
    if (!tx__pw_varint64(r, &x)) return false;
    *v = (uint32_t)x;
    return true;
}

bool tx__pw_fixed32(tx__pw *r, uint32_t *v) {
    if (tx__pw_left(r) < 4) return false;
    const uint8_t *b = r->p;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    r->p += 4;
    return true;
}

bool tx__pw_fixed64(tx__pw *r, uint64_t *v) {
    uint32_t lo = 0, hi = 0;
    if (tx__pw_left(r) < 8) return false;
    tx__pw_fixed32(r, &lo);
    tx__pw_fixed32(r, &hi);
    *v = (uint64_t)hi << 32 | lo;
    return true;
}

bool tx__pw_bytes(tx__pw *r, uint64_t n, const uint8_t **bytes) {
    if (n > tx__pw_left(r)) return false;
    *bytes = r->p;
    r->p += n;
    return true;
}

bool tx__pw_skip(tx__pw *r, unsigned wire) {
    uint64_t u64;
    uint32_t u32;
    const uint8_t *b;
    switch (wire) {
    case TX__PW_VARINT: return tx__pw_varint64(r, &u64);
    case TX__PW_FIXED64: return tx__pw_fixed64(r, &u64);
    case TX__PW_FIXED32: return tx__pw_fixed32(r, &u32);
    case TX__PW_LEN: {
        const uint8_t *start = r->p;
        if (tx__pw_varint32(r, &u32) && tx__pw_bytes(r, u32, &b)) return true;
        r->p = start;
        return false;
    }
    default: return false;
    }
}
