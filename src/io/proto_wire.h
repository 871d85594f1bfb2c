/* SPDX-License-Identifier: Apache-2.0 */
/* proto_wire.h -- a reader of the protocol buffer wire format over bytes in memory, with the
 * limits of protobuf's CodedInputStream: varints (at most 10 bytes; the bits past 64, or past 32
 * for a 32-bit read, are dropped, as protobuf drops them), fixed 32- and 64-bit little-endian
 * values, length-delimited fields and nested limits.  Every read is checked against the current
 * limit, which never lies past the bytes: nothing is read out of bounds, whatever the input.
 * Used by the Example parser (src/io/example.c); generic, for any message (TensorProto
 * next).  The reader only reads: nothing is allocated. */
#ifndef TX_IO_PROTO_WIRE_H
#define TX_IO_PROTO_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Wire types: the low 3 bits of a tag. */
enum {
    TX__PW_VARINT = 0,
    TX__PW_FIXED64 = 1,
    TX__PW_LEN = 2,
    TX__PW_GROUP_START = 3,
    TX__PW_GROUP_END = 4,
    TX__PW_FIXED32 = 5
};

/* The one-byte tag of field `field` (1..15) with wire type `wire`. */
#define TX__PW_TAG(field, wire) ((uint8_t)(((field) << 3) | (wire)))

typedef struct tx__pw {
    const uint8_t *p;     /* the next byte */
    const uint8_t *limit; /* the end of what may be read now (the innermost limit) */
} tx__pw;

/* A reader of the `size` bytes at data, limited to them. */
static inline tx__pw tx__pw_reader(const void *data, size_t size) {
    const uint8_t *b = (const uint8_t *)data;
    tx__pw r = {b, b + size};
    return r;
}
/* Bytes left before the limit. */
static inline size_t tx__pw_left(const tx__pw *r) { return (size_t)(r->limit - r->p); }
static inline bool tx__pw_at_end(const tx__pw *r) { return r->p == r->limit; }
/* The next byte, or -1 at the limit (protobuf's PeekTag of a one-byte tag). */
static inline int tx__pw_peek(const tx__pw *r) { return r->p < r->limit ? *r->p : -1; }
/* Consumes the next byte if it is b (protobuf's ExpectTag of a one-byte tag). */
static inline bool tx__pw_expect(tx__pw *r, uint8_t b) {
    if (r->p < r->limit && *r->p == b) {
        r->p++;
        return true;
    }
    return false;
}

/* A varint of at most 10 bytes, all before the limit; false (nothing consumed) otherwise. */
bool tx__pw_varint64(tx__pw *r, uint64_t *v);
/* The low 32 bits of a varint64 (protobuf's ReadVarint32: lengths and tags). */
bool tx__pw_varint32(tx__pw *r, uint32_t *v);
/* Little-endian fixed-width values; false (nothing consumed) when fewer bytes are left. */
bool tx__pw_fixed32(tx__pw *r, uint32_t *v);
bool tx__pw_fixed64(tx__pw *r, uint64_t *v);
/* n bytes: *bytes points at them (inside the input); false when fewer are left. */
bool tx__pw_bytes(tx__pw *r, uint64_t n, const uint8_t **bytes);
/* Limits reading to the next n bytes, or leaves the limit as it is when n reaches past it (as
 * protobuf's PushLimit keeps the outer limit then).  Returns the old limit for tx__pw_pop. */
static inline const uint8_t *tx__pw_push(tx__pw *r, uint64_t n) {
    const uint8_t *old = r->limit;
    if (n < tx__pw_left(r)) r->limit = r->p + n;
    return old;
}
static inline void tx__pw_pop(tx__pw *r, const uint8_t *old) { r->limit = old; }
/* Skips the value of a field of wire type `wire` whose tag was read: a varint, 8 or 4 bytes, or
 * a length and that many bytes.  Groups and the unused wire types 6 and 7 are refused (false),
 * as TensorFlow's parsers refuse them. */
bool tx__pw_skip(tx__pw *r, unsigned wire);

#endif
