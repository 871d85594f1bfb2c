/* SPDX-License-Identifier: Apache-2.0 */
/* proto_wire.h -- a reader of the protocol buffer wire format over bytes in memory, with the
 * limits of protobuf's CodedInputStream: varints (at most 10 bytes; the bits past 64, or past 32
 * for a 32-bit read, are dropped, as protobuf drops them), fixed 32- and 64-bit little-endian
 * values, length-delimited fields and nested limits.  Every read is checked against the current
 * limit, which never lies past the bytes: nothing is read out of bounds, whatever the input.
 * Used by the Example parser (src/io/example.c) and the TensorProto parser
 * (src/io/tensor_proto.c).  The reader only reads: nothing is allocated.
 * The writer (tx__pw_out, below) writes into a buffer the caller sized with the tx__pw_*_size
 * functions, so that a message is allocated once; it never writes past the buffer's end. */
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
/* Skips an unknown field whose tag was read, as protobuf's full parser does: groups too (the
 * fields up to the end-group tag of the same field number, nested at most `depth` deep); false
 * for wire types 6 and 7, a stray end-group tag and whatever is cut short. */
bool tx__pw_skip_unknown(tx__pw *r, uint32_t tag, int depth);

/* ---- the writer ---- */
typedef struct tx__pw_out {
    uint8_t *p;   /* the next byte to write */
    uint8_t *end; /* the buffer's end */
    bool overflow; /* a write did not fit (it wrote nothing); the sizes were wrong */
} tx__pw_out;

static inline tx__pw_out tx__pw_writer(void *buf, size_t size) {
    tx__pw_out w = {(uint8_t *)buf, (uint8_t *)buf + size, false};
    return w;
}
/* The bytes of v as a varint (1..10). */
size_t tx__pw_varint_size(uint64_t v);
/* The bytes of field `field`'s tag. */
static inline size_t tx__pw_tag_size(uint32_t field) {
    return tx__pw_varint_size((uint64_t)field << 3);
}
/* The bytes of a length-delimited field of n bytes: tag, length, bytes. */
static inline size_t tx__pw_len_size(uint32_t field, uint64_t n) {
    return tx__pw_tag_size(field) + tx__pw_varint_size(n) + (size_t)n;
}
void tx__pw_put_varint(tx__pw_out *w, uint64_t v);
void tx__pw_put_tag(tx__pw_out *w, uint32_t field, unsigned wire);
/* Tag and length of a length-delimited field whose n bytes the caller writes next. */
void tx__pw_put_len(tx__pw_out *w, uint32_t field, uint64_t n);
/* n raw bytes. */
void tx__pw_put_raw(tx__pw_out *w, const void *b, size_t n);
/* A length-delimited field: tag, length and the n bytes at b. */
void tx__pw_put_bytes(tx__pw_out *w, uint32_t field, const void *b, size_t n);

#endif
