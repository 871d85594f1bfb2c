/* SPDX-License-Identifier: Apache-2.0 */
/* example_proto.h -- a tiny writer of protocol buffer bytes for the tests of parse_example: enough
 * to build tf.train.Example records by hand, in every encoding TF reads (packed and unpacked
 * lists, unknown fields, repeated keys), and broken ones.  Test code only: the library reads. */
#ifndef TX_TEST_EXAMPLE_PROTO_H
#define TX_TEST_EXAMPLE_PROTO_H

#include <stdint.h>
#include <string.h>

typedef struct pb {
    unsigned char b[8192];
    size_t n;
} pb;

static inline void pb_byte(pb *p, unsigned v) { p->b[p->n++] = (unsigned char)v; }
static inline void pb_raw(pb *p, const void *d, size_t n) {
    memcpy(p->b + p->n, d, n);
    p->n += n;
}
static inline void pb_varint(pb *p, uint64_t v) {
    while (v >= 0x80) {
        pb_byte(p, (unsigned)(v & 0x7f) | 0x80);
        v >>= 7;
    }
    pb_byte(p, (unsigned)v);
}
static inline void pb_fixed32(pb *p, uint32_t v) {
    for (int i = 0; i < 4; i++) pb_byte(p, (v >> (8 * i)) & 0xff);
}
/* A length-delimited field: the one-byte tag, the length, the bytes. */
static inline void pb_field(pb *p, unsigned tag, const void *d, size_t n) {
    pb_byte(p, tag);
    pb_varint(p, n);
    pb_raw(p, d, n);
}
static inline void pb_sub(pb *p, unsigned tag, const pb *sub) { pb_field(p, tag, sub->b, sub->n); }

/* Features of each kind: *f receives the Feature message. */
static inline void feat_bytes(pb *f, size_t n, const char *const *v) {
    pb list = {.n = 0};
    for (size_t i = 0; i < n; i++) pb_field(&list, 0x0a, v[i], strlen(v[i]));
    f->n = 0;
    pb_sub(f, 0x0a, &list);
}
static inline void feat_floats(pb *f, size_t n, const float *v, int packed) {
    pb list = {.n = 0}, vals = {.n = 0};
    for (size_t i = 0; i < n; i++) {
        uint32_t u;
        memcpy(&u, &v[i], 4);
        if (!packed) pb_byte(&list, 0x0d);
        pb_fixed32(packed ? &vals : &list, u);
    }
    if (packed) pb_sub(&list, 0x0a, &vals);
    f->n = 0;
    pb_sub(f, 0x12, &list);
}
static inline void feat_int64s(pb *f, size_t n, const int64_t *v, int packed) {
    pb list = {.n = 0}, vals = {.n = 0};
    for (size_t i = 0; i < n; i++) {
        if (!packed) pb_byte(&list, 0x08);
        pb_varint(packed ? &vals : &list, (uint64_t)v[i]);
    }
    if (packed) pb_sub(&list, 0x0a, &vals);
    f->n = 0;
    pb_sub(f, 0x1a, &list);
}
/* A map entry key -> feature appended to the Features message *fs. */
static inline void pb_entry(pb *fs, const char *key, const pb *feature) {
    pb e = {.n = 0};
    pb_field(&e, 0x0a, key, strlen(key));
    pb_sub(&e, 0x12, feature);
    pb_sub(fs, 0x0a, &e);
}
/* The Example holding the Features message fs, appended to *ex. */
static inline void pb_example(pb *ex, const pb *fs) { pb_sub(ex, 0x0a, fs); }

#endif
