/* SPDX-License-Identifier: Apache-2.0 */
/* tensor_proto.c -- TF's tf.io.parse_tensor and tf.io.serialize_tensor (the raw ops ParseTensor
 * and SerializeTensor): a tensor from a serialized TensorProto, and a tensor into one.
 * Parsing follows protobuf's full parser (ParseProtoUnlimited: fields in any order, the last of a
 * singular field wins, messages merge, repeated numbers packed or not, unknown fields and groups
 * skipped, UTF-8 checked in the one string field, Dim.name), then TF's Tensor::FromProto: a valid
 * shape, tensor_content as the raw little-endian elements when it is not empty, else the dtype's
 * typed field, whose last value fills the elements it lacks (none: zeros; more: the first n).
 * Serializing writes what TF's SerializeTensor writes: dtype, tensor_shape (a Dim of size 0
 * empty), then tensor_content (numbers; none when empty) or a string_val per element (strings).
 * The wire format is read and written by src/io/proto_wire.c. */
#include "core/byteorder.h"
#include "core/internal.h"
#include "exec/byteswap.h"
#include "io/json.h"
#include "io/proto_wire.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const OP_PARSE = "parse_tensor";
static const char *const OP_SERIALIZE = "serialize_tensor";

/* TensorProto's fields (tensor.proto). */
enum {
    F_DTYPE = 1, F_SHAPE = 2, F_CONTENT = 4, F_FLOAT = 5, F_DOUBLE = 6, F_INT = 7, F_STRING = 8,
    F_SCOMPLEX = 9, F_INT64 = 10, F_BOOL = 11, F_DCOMPLEX = 12, F_HALF = 13, F_UINT32 = 16,
    F_UINT64 = 17, F_FLOAT8 = 18, F_LIMIT = 19
};
/* TensorShapeProto's (tensor_shape.proto): dim, unknown_rank; Dim's: size, name. */
enum { F_SHAPE_DIM = 2, F_DIM_SIZE = 1, F_DIM_NAME = 2 };
/* TF's DataType numbers that tensorx has no dtype for, but TF parses. */
enum { DT_RESOURCE = 20, DT_VARIANT = 21 };
/* protobuf's default recursion limit: how deep groups and messages may nest (TF 2.21 parses 100
 * nested groups in an unknown field, not 101). */
#define RECURSION_LIMIT 100

/* The wire type of the values of a repeated number field (each may also come packed); 0xff for
 * the other fields. */
static unsigned value_wire(uint32_t field) {
    switch (field) {
    case F_FLOAT: case F_SCOMPLEX: return TX__PW_FIXED32;
    case F_DOUBLE: case F_DCOMPLEX: return TX__PW_FIXED64;
    case F_INT: case F_INT64: case F_BOOL: case F_HALF: case F_UINT32: case F_UINT64:
        return TX__PW_VARINT;
    default: return 0xff;
    }
}

/* What a parse found: the singular fields (the last of each), the shape's dims, and how many
 * values each repeated field holds. */
typedef struct proto {
    int32_t dtype;
    size_t rank;
    bool shape_bad; /* more than TX_MAX_RANK dims, or a dim below 0 */
    int64_t dims[TX_MAX_RANK];
    const uint8_t *content, *float8;
    size_t content_size, float8_size;
    int64_t count[F_LIMIT];
} proto;

/* A tag: a varint of at most 5 bytes, its low 32 bits (protobuf's ReadTag), field number > 0. */
static bool read_tag(tx__pw *r, uint32_t *tag) {
    const uint8_t *start = r->p;
    if (!tx__pw_varint32(r, tag) || r->p - start > 5 || (*tag >> 3) == 0) {
        r->p = start;
        return false;
    }
    return true;
}

/* The bytes of a length-delimited field whose tag was read. */
static bool read_len(tx__pw *r, const uint8_t **b, uint32_t *n) {
    uint32_t len;
    if (!tx__pw_varint32(r, &len) || len > INT32_MAX) return false;
    *n = len;
    return tx__pw_bytes(r, len, b);
}

static bool read_value(tx__pw *r, unsigned wire, uint64_t *v) {
    uint32_t u32;
    if (wire == TX__PW_VARINT) return tx__pw_varint64(r, v);
    if (wire == TX__PW_FIXED64) return tx__pw_fixed64(r, v);
    if (!tx__pw_fixed32(r, &u32)) return false;
    *v = u32;
    return true;
}

/* A proto3 string field's bytes (its tag read): UTF-8, or protobuf fails the parse. */
static bool read_utf8(tx__pw *r) {
    const uint8_t *s;
    uint32_t len;
    size_t bad;
    return read_len(r, &s, &len) && tx__utf8_valid(s, len, &bad);
}

/* The nested messages are parsed with `depth` levels left (protobuf's recursion limit: a
 * message or a group takes one).  p is NULL for a TensorProto inside a variant value, which is
 * only checked. */
static bool read_proto(proto *p, const uint8_t *b, size_t n, int depth);

static bool read_dim(proto *p, const uint8_t *b, size_t n, int depth) {
    tx__pw r = tx__pw_reader(b, n);
    int64_t size = 0;
    uint32_t tag;
    uint64_t v;
    while (!tx__pw_at_end(&r)) {
        if (!read_tag(&r, &tag)) return false;
        if (tag == TX__PW_TAG(F_DIM_SIZE, TX__PW_VARINT)) {
            if (!tx__pw_varint64(&r, &v)) return false;
            size = (int64_t)v;
        } else if (tag == TX__PW_TAG(F_DIM_NAME, TX__PW_LEN)) {
            if (!read_utf8(&r)) return false;
        } else if (!tx__pw_skip_unknown(&r, tag, depth)) {
            return false;
        }
    }
    if (!p) return true;
    if (p->rank == TX_MAX_RANK || size < 0) p->shape_bad = true;
    else p->dims[p->rank++] = size;
    return true;
}

/* A TensorShapeProto: dims (merged into p's), unknown_rank (which TF's TensorShape ignores). */
static bool read_shape(proto *p, const uint8_t *b, size_t n, int depth) {
    tx__pw r = tx__pw_reader(b, n);
    uint32_t tag, len;
    uint64_t v;
    const uint8_t *s;
    if (depth <= 0) return false;
    while (!tx__pw_at_end(&r)) {
        if (!read_tag(&r, &tag)) return false;
        if (tag == TX__PW_TAG(F_SHAPE_DIM, TX__PW_LEN)) {
            if (depth <= 1 || !read_len(&r, &s, &len) || !read_dim(p, s, len, depth - 2))
                return false;
        } else if (tag == TX__PW_TAG(3, TX__PW_VARINT)) {
            if (!tx__pw_varint64(&r, &v)) return false;
        } else if (!tx__pw_skip_unknown(&r, tag, depth - 1)) {
            return false;
        }
    }
    return true;
}

/* A message whose fields are strings (UTF-8: those in `strings`, a bit per field number),
 * shapes (the field `shape`, 0: none) or TensorProtos (the field `tensors`, 0: none); the rest
 * unknown.  ResourceHandleProto's dtypes_and_shapes entries are DtypeAndShape messages (shape 2);
 * its strings are fields 1, 2, 3, 5.  VariantTensorDataProto: type_name 1, tensors 3. */
static bool read_message(const uint8_t *b, size_t n, int depth, uint32_t strings, uint32_t shape,
                         uint32_t tensors, uint32_t entries) {
    tx__pw r = tx__pw_reader(b, n);
    uint32_t tag, len;
    const uint8_t *s;
    if (depth <= 0) return false;
    while (!tx__pw_at_end(&r)) {
        if (!read_tag(&r, &tag)) return false;
        const uint32_t f = tag >> 3;
        if ((tag & 7) != TX__PW_LEN || f > 31 ||
            !((strings >> f & 1) || f == shape || f == tensors || f == entries)) {
            if (!tx__pw_skip_unknown(&r, tag, depth - 1)) return false;
        } else if (strings >> f & 1) {
            if (!read_utf8(&r)) return false;
        } else if (!read_len(&r, &s, &len)) {
            return false;
        } else if (f == shape) {
            if (!read_shape(NULL, s, len, depth - 1)) return false;
        } else if (f == tensors) {
            if (!read_proto(NULL, s, len, depth - 1)) return false;
        } else if (!read_message(s, len, depth - 1, 0, 2, 0, 0)) { /* a DtypeAndShape */
            return false;
        }
    }
    return true;
}

/* A packed run of values of wire type `wire`: how many, all whole. */
static bool count_packed(const uint8_t *b, uint32_t n, unsigned wire, int64_t *count) {
    if (wire != TX__PW_VARINT) {
        const uint32_t w = wire == TX__PW_FIXED32 ? 4 : 8;
        if (n % w) return false;
        *count += n / w;
        return true;
    }
    tx__pw r = tx__pw_reader(b, n);
    uint64_t v;
    while (!tx__pw_at_end(&r)) {
        if (!tx__pw_varint64(&r, &v)) return false;
        (*count)++;
    }
    return true;
}

/* One field of a TensorProto, its tag read (p NULL: checked only). */
static bool read_field(proto *p, tx__pw *r, uint32_t tag, int depth) {
    const uint32_t field = tag >> 3;
    const unsigned wire = tag & 7, vw = field < F_LIMIT ? value_wire(field) : 0xff;
    int64_t ignored = 0;
    int64_t *count = p && vw != 0xff ? &p->count[field] : &ignored;
    uint64_t v;
    uint32_t len;
    const uint8_t *b;
    if (vw != 0xff && wire == vw) {
        (*count)++;
        return read_value(r, wire, &v);
    }
    if (wire != TX__PW_LEN) {
        if (tag != TX__PW_TAG(F_DTYPE, TX__PW_VARINT) && tag != TX__PW_TAG(3, TX__PW_VARINT))
            return tx__pw_skip_unknown(r, tag, depth);
        if (!tx__pw_varint64(r, &v)) return false;
        if (p && field == F_DTYPE) p->dtype = (int32_t)(uint32_t)v; /* an int32: the low bits */
        return true;
    }
    if (!read_len(r, &b, &len)) return false;
    if (vw != 0xff) return count_packed(b, len, vw, count);
    switch (field) {
    case F_SHAPE: return read_shape(p, b, len, depth);
    case F_CONTENT:
        if (p) p->content = b, p->content_size = len;
        return true;
    case F_FLOAT8:
        if (p) p->float8 = b, p->float8_size = len;
        return true;
    case F_STRING:
        if (p) p->count[F_STRING]++;
        return true;
    case 14: return read_message(b, len, depth, 1u << 1 | 1u << 2 | 1u << 3 | 1u << 5, 0, 0, 6);
    case 15: return read_message(b, len, depth, 1u << 1, 0, 3, 0);
    default: return true;
    }
}

/* protobuf's parse of a TensorProto; false where protobuf fails. */
static bool read_proto(proto *p, const uint8_t *b, size_t n, int depth) {
    if (p) memset(p, 0, sizeof *p);
    tx__pw r = tx__pw_reader(b, n);
    uint32_t tag;
    if (depth < 0) return false;
    while (!tx__pw_at_end(&r))
        if (!read_tag(&r, &tag) || !read_field(p, &r, tag, depth)) return false;
    return true;
}

/* ---- the values of a repeated field, in order (over a message read_proto accepted) ---------- */

typedef struct values {
    tx__pw r, packed;
    uint32_t field;
    unsigned wire;
} values;

static values values_of(const uint8_t *b, size_t n, uint32_t field) {
    values v = {tx__pw_reader(b, n), tx__pw_reader(b, 0), field, value_wire(field)};
    return v;
}

/* The next value of the field (a string_val's bytes through *s, *slen); false after the last. */
static bool next_value(values *v, uint64_t *x, const uint8_t **s, uint32_t *slen) {
    uint32_t tag;
    for (;;) {
        if (!tx__pw_at_end(&v->packed)) return read_value(&v->packed, v->wire, x);
        if (tx__pw_at_end(&v->r) || !read_tag(&v->r, &tag)) return false;
        if (tag >> 3 == v->field && (tag & 7) == v->wire) return read_value(&v->r, v->wire, x);
        if (tag >> 3 == v->field && (tag & 7) == TX__PW_LEN) {
            const uint8_t *b;
            uint32_t len;
            if (!read_len(&v->r, &b, &len)) return false;
            if (v->field == F_STRING) {
                *s = b;
                *slen = len;
                return true;
            }
            v->packed = tx__pw_reader(b, len);
        } else if (!tx__pw_skip_unknown(&v->r, tag, RECURSION_LIMIT)) {
            return false;
        }
    }
}

/* ---- from the proto to the tensor: TF's Tensor::FromProto ------------------------------------ */

/* The typed field TF reads a dtype's values from. */
static uint32_t field_of(tx_dtype t) {
    switch (t) {
    case TX_FLOAT32: return F_FLOAT;
    case TX_FLOAT64: return F_DOUBLE;
    case TX_INT64: return F_INT64;
    case TX_BOOL: return F_BOOL;
    case TX_FLOAT16: case TX_BFLOAT16: return F_HALF;
    case TX_UINT32: return F_UINT32;
    case TX_UINT64: return F_UINT64;
    case TX_COMPLEX64: return F_SCOMPLEX;
    case TX_COMPLEX128: return F_DCOMPLEX;
    case TX_STRING: return F_STRING;
    default: return tx__is_small_float(t) ? F_FLOAT8 : F_INT;
    }
}

/* TF's DataTypeString: tensorx's names, but for three. */
static const char *tf_name(tx_dtype t) {
    return t == TX_FLOAT32 ? "float" : t == TX_FLOAT64 ? "double" : t == TX_FLOAT16 ? "half"
                                                                      : tx_dtype_name(t);
}

/* The dtype of a DataType number, TX_INVALID_DTYPE for one TF lacks. */
static tx_dtype tf_dtype(int32_t d) {
    const tx__dtype_info *i = d > 0 ? tx__dtype((tx_dtype)d) : NULL;
    return i && i->tf_datatype == d ? (tx_dtype)d : TX_INVALID_DTYPE;
}

/* Checks that a string tensor_content holds n strings: n varint32 lengths, then exactly their
 * bytes (TF's DecodeStringList). */
static bool string_content_ok(const proto *p, int64_t n) {
    tx__pw r = tx__pw_reader(p->content, p->content_size);
    uint64_t total = 0;
    for (int64_t i = 0; i < n; i++) {
        uint32_t len;
        const uint8_t *start = r.p;
        if (!tx__pw_varint32(&r, &len) || r.p - start > 5) return false;
        total += len;
    }
    return total == tx__pw_left(&r);
}

static tx_status cannot_parse(const proto *p, const char *why) {
    char dims[TX_DIMS_STR_CAP];
    return tx__fail(TX_INVALID_ARGUMENT, "%s: Cannot parse tensor from proto: dtype %" PRId32
                    ", shape %s: %s", OP_PARSE, p->dtype,
                    tx__format_dims(dims, sizeof dims, p->rank, p->dims), why);
}

/* The checks of Tensor::FromProto, in its order, and the dtype check of ParseTensor.  *n
 * receives the element count. */
static tx_status check_proto(const proto *p, tx_dtype out_type, int64_t *n) {
    *n = 1;
    bool overflow = false;
    for (size_t i = 0; i < p->rank && !overflow; i++) overflow = !tx__mul_i64(*n, p->dims[i], n);
    if (p->shape_bad || overflow)
        return cannot_parse(p, p->shape_bad && p->rank == TX_MAX_RANK ? "more than 254 dims"
                               : overflow ? "the element count overflows" : "a dim below 0");
    const tx_dtype t = tf_dtype(p->dtype);
    if (t == TX_INVALID_DTYPE && p->dtype != DT_RESOURCE && p->dtype != DT_VARIANT)
        return cannot_parse(p, "not a DataType");
    if (t == TX_INVALID_DTYPE) /* TF makes the tensor, and then finds its dtype wrong */
        return tx__fail(TX_INVALID_ARGUMENT, "%s: Type mismatch between parsed tensor (%s) and "
                        "dtype (%s)", OP_PARSE, p->dtype == DT_RESOURCE ? "resource" : "variant",
                        tf_name(out_type));
    if (*n > 0 && p->content_size > 0) {
        const tx__dtype_info *d = tx__dtype(t);
        if (t == TX_STRING) {
            if (!string_content_ok(p, *n)) return cannot_parse(p, "bad string tensor_content");
        } else if ((uint64_t)p->content_size / d->size != (uint64_t)*n ||
                   p->content_size % d->size) {
            return cannot_parse(p, "tensor_content of another size");
        } else if (t == TX_BOOL) {
            for (size_t i = 0; i < p->content_size; i++)
                if (p->content[i] > 1) return cannot_parse(p, "a bool byte other than 0 and 1");
        }
    }
    TX_REQUIRE(t == out_type, TX_INVALID_ARGUMENT, "%s: Type mismatch between parsed tensor (%s) "
               "and dtype (%s)", OP_PARSE, tf_name(t), tf_name(out_type));
    return TX_OK;
}

/* Stores value x of a typed field as element unit i (of `unit` bytes) of data: the field's
 * number converted as TF's proto helpers convert it (C's conversion to the narrower type). */
static void store_unit(char *data, int64_t i, size_t unit, uint64_t x) {
    char *p = data + (size_t)i * unit;
    if (unit == 1) *(uint8_t *)p = (uint8_t)x;
    else if (unit == 2) { uint16_t v = (uint16_t)x; memcpy(p, &v, 2); }
    else if (unit == 4) { uint32_t v = (uint32_t)x; memcpy(p, &v, 4); }
    else memcpy(p, &x, 8);
}

/* Fills the n elements of out from the typed field: its values, the last repeated. */
static void fill_from_field(const proto *p, const uint8_t *msg, size_t size, tx_tensor *out) {
    const tx_dtype t = out->dtype;
    const size_t esize = tx__dtype(t)->size;
    const uint32_t field = field_of(t);
    const int64_t n = out->numel;
    const bool complex = field == F_SCOMPLEX || field == F_DCOMPLEX;
    char *data = out->data;
    int64_t have = field == F_FLOAT8 ? (int64_t)p->float8_size
                                     : p->count[field] / (complex ? 2 : 1);
    if (have > n) have = n;
    if (field == F_FLOAT8) {
        if (have) memcpy(data, p->float8, (size_t)have);
    } else if (field == F_STRING) {
        values v = values_of(msg, size, field);
        uint64_t x;
        const uint8_t *s = NULL;
        uint32_t len = 0;
        for (int64_t i = 0; i < have && next_value(&v, &x, &s, &len); i++)
            ((tx_string *)data)[i] = (tx_string){len, (const char *)s};
    } else {
        const int64_t units = have * (complex ? 2 : 1);
        const size_t unit = complex ? esize / 2 : esize;
        values v = values_of(msg, size, field);
        uint64_t x;
        for (int64_t i = 0; i < units && next_value(&v, &x, NULL, NULL); i++)
            store_unit(data, i, unit, field == F_BOOL ? x != 0 : x);
    }
    if (have == 0) {
        memset(data, 0, (size_t)n * esize);
        if (t == TX_STRING)
            for (int64_t i = 0; i < n; i++) ((tx_string *)data)[i] = (tx_string){0, ""};
        return;
    }
    for (int64_t i = have; i < n; i++) memcpy(data + i * esize, data + (have - 1) * esize, esize);
}

static void fill_from_content(const proto *p, tx_tensor *out) {
    const tx__dtype_info *d = tx__dtype(out->dtype);
    if (out->dtype == TX_STRING) {
        tx__pw r = tx__pw_reader(p->content, p->content_size);
        tx_string *rec = (tx_string *)out->data;
        for (int64_t i = 0; i < out->numel; i++) {
            uint32_t len = 0;
            tx__pw_varint32(&r, &len); /* checked by string_content_ok */
            rec[i].size = len;
        }
        const char *at = (const char *)r.p;
        for (int64_t i = 0; i < out->numel; i++) {
            rec[i].data = at;
            at += rec[i].size;
        }
        return;
    }
    memcpy(out->data, p->content, p->content_size);
    const size_t unit = d->kind == TX_KIND_COMPLEX ? d->size / 2 : d->size;
    if (!TX_HOST_LITTLE_ENDIAN) tx__swap_units(out->data, p->content_size / unit, unit);
}

tx_status tx_parse_tensor(const tx_tensor *serialized, tx_dtype out_type, tx_tensor **out) {
    TX_REQUIRE_OUT(OP_PARSE, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(OP_PARSE, serialized, "serialized");
    const tx__dtype_info *od = tx__dtype(out_type);
    TX_REQUIRE(od != NULL && od->tf_datatype != 0, TX_INVALID_ARGUMENT, "%s: out_type must be a "
               "TensorFlow dtype, got %s", OP_PARSE, od ? od->name : "an unknown dtype");
    TX_REQUIRE(serialized->dtype == TX_STRING, TX_INVALID_ARGUMENT, "%s: serialized must be a "
               "string tensor, got %s", OP_PARSE, tx_dtype_name(serialized->dtype));
    char dims[TX_DIMS_STR_CAP];
    TX_REQUIRE(serialized->rank == 0, TX_INVALID_ARGUMENT, "%s: Expected `serialized` to be a "
               "scalar, got shape: %s", OP_PARSE,
               tx__format_dims(dims, sizeof dims, serialized->rank, serialized->dims));
    const tx_string rec = *(const tx_string *)serialized->data;
    proto on_stack, *p = &on_stack;
    if (!read_proto(p, (const uint8_t *)rec.data, (size_t)rec.size, RECURSION_LIMIT)) {
        /* TF's message holds the whole input in base64 (cut where tx__fail's message ends) */
        static const char b64[] =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        char text[512];
        size_t at = 0;
        const uint8_t *b = (const uint8_t *)rec.data;
        for (uint64_t i = 0; i < rec.size && at + 5 < sizeof text; i += 3) {
            uint32_t v = (uint32_t)b[i] << 16;
            if (i + 1 < rec.size) v |= (uint32_t)b[i + 1] << 8;
            if (i + 2 < rec.size) v |= b[i + 2];
            text[at++] = b64[v >> 18 & 63];
            text[at++] = b64[v >> 12 & 63];
            text[at++] = i + 1 < rec.size ? b64[v >> 6 & 63] : '=';
            text[at++] = i + 2 < rec.size ? b64[v & 63] : '=';
        }
        text[at] = '\0';
        return tx__fail(TX_INVALID_ARGUMENT, "%s: Could not parse `serialized` as TensorProto, "
                        "base64: %s", OP_PARSE, text);
    }
    int64_t n;
    TX_TRY(check_proto(p, out_type, &n));
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(OP_PARSE, out_type, p->rank, p->dims, &t));
    if (n > 0 && p->content_size > 0) fill_from_content(p, t);
    else if (n > 0) fill_from_field(p, (const uint8_t *)rec.data, (size_t)rec.size, t);
    if (tx__is_subbyte(out_type)) tx__normalise_subbyte(out_type, t->data, t->numel);
    if (out_type == TX_STRING && n > 0) {
        tx_status s = tx__share_strings(t, serialized);
        if (s != TX_OK) {
            tx_tensor_free(t);
            return s;
        }
    }
    *out = t;
    return TX_OK;
}

/* ---- serialize_tensor ----------------------------------------------------------------------- */

/* The bytes of a Dim message of size `size` (proto3 leaves a size of 0 out). */
static size_t dim_size(int64_t size) {
    return size ? 1 + tx__pw_varint_size((uint64_t)size) : 0;
}

static size_t shape_size(const tx_tensor *t) {
    size_t n = 0;
    for (size_t i = 0; i < t->rank; i++) n += tx__pw_len_size(F_SHAPE_DIM, dim_size(t->dims[i]));
    return n;
}

tx_status tx_serialize_tensor(const tx_tensor *tensor, tx_tensor **out) {
    TX_REQUIRE_OUT(OP_SERIALIZE, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(OP_SERIALIZE, tensor, "tensor");
    const tx__dtype_info *d = tx__dtype(tensor->dtype);
    TX_REQUIRE(d->tf_datatype != 0, TX_INVALID_ARGUMENT, "%s: tensor is %s, which TensorFlow has "
               "no DataType for", OP_SERIALIZE, d->name);
    const bool strings = tensor->dtype == TX_STRING;
    const tx_string *rec = (const tx_string *)tensor->data;
    /* Sizes first: every term is bounded by the tensor's bytes, which fit in memory. */
    const size_t shape = shape_size(tensor);
    size_t total = 1 + tx__pw_varint_size((uint64_t)d->tf_datatype) +
                   tx__pw_len_size(F_SHAPE, shape);
    const size_t content = strings ? 0 : (size_t)tensor->numel * d->size;
    if (content) total += tx__pw_len_size(F_CONTENT, content);
    for (int64_t i = 0; strings && i < tensor->numel; i++) {
        TX_REQUIRE(rec[i].size <= INT32_MAX && total <= SIZE_MAX / 2, TX_INVALID_ARGUMENT,
                   "%s: tensor[%" PRId64 "] has %" PRIu64 " bytes; a TensorProto holds less "
                   "than 2 GiB", OP_SERIALIZE, i, rec[i].size);
        total += tx__pw_len_size(F_STRING, rec[i].size);
    }
    TX_REQUIRE(total <= INT32_MAX, TX_INVALID_ARGUMENT, "%s: the TensorProto would have %zu bytes;"
               " protobuf's limit is 2 GiB", OP_SERIALIZE, total);
    tx_tensor *t;
    char *bytes = NULL;
    TX_TRY(tx__string_tensor_alloc(OP_SERIALIZE, 0, NULL, total, 0, &bytes, &t));
    tx__pw_out w = tx__pw_writer(bytes, total);
    tx__pw_put_tag(&w, F_DTYPE, TX__PW_VARINT);
    tx__pw_put_varint(&w, (uint64_t)d->tf_datatype);
    tx__pw_put_len(&w, F_SHAPE, shape);
    for (size_t i = 0; i < tensor->rank; i++) {
        tx__pw_put_len(&w, F_SHAPE_DIM, dim_size(tensor->dims[i]));
        if (tensor->dims[i]) {
            tx__pw_put_tag(&w, F_DIM_SIZE, TX__PW_VARINT);
            tx__pw_put_varint(&w, (uint64_t)tensor->dims[i]);
        }
    }
    if (content) {
        tx__pw_put_len(&w, F_CONTENT, content);
        uint8_t *at = w.p;
        tx__pw_put_raw(&w, tensor->data, content);
        const size_t unit = d->kind == TX_KIND_COMPLEX ? d->size / 2 : d->size;
        if (!TX_HOST_LITTLE_ENDIAN && !w.overflow) tx__swap_units(at, content / unit, unit);
    }
    for (int64_t i = 0; strings && i < tensor->numel; i++)
        tx__pw_put_bytes(&w, F_STRING, rec[i].data, (size_t)rec[i].size);
    assert(!w.overflow && w.p == w.end);
    ((tx_string *)t->data)[0] = (tx_string){total, bytes};
    *out = t;
    return TX_OK;
}
