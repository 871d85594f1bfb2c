/* SPDX-License-Identifier: Apache-2.0 */
/* string_layouts.c -- string tensors to and from the string layouts of other runtimes:
 *  - TensorFlow's TF_STRING tensor data, an array of 24-byte TF_TString records
 *    (tensorflow/tsl/platform/ctstring_internal.h): the type is in the low 2 bits of byte 0 on
 *    every host; SMALL keeps its size above the type in byte 0 and up to 22 bytes inline, OFFSET a
 *    little-endian uint32 size << 2 | type and a little-endian uint32 offset from the record's own
 *    address (the same bytes on every host), LARGE and VIEW a host-order size_t size word and a
 *    pointer (the word's layout depends on the host's byte order: io/tstring_word.h);
 *  - ONNX Runtime's GetStringTensorContent / FillStringTensor form: one byte buffer and one
 *    size_t start offset per element.
 * Every reader validates every record or offset before it reads a byte, and copies the bytes once
 * into one storage owned by the new tensor.  NUL bytes are ordinary bytes everywhere. */
#include "core/internal.h"

#include "core/byteorder.h"
#include "io/tstring_word.h"

#include <inttypes.h>

#define TSTR_BYTES 24
#define TSTR_SMALL_CAP 22
enum { TSTR_SMALL = 0, TSTR_LARGE = 1, TSTR_OFFSET = 2, TSTR_VIEW = 3 };

static const char *const tstr_names[4] = {"SMALL", "LARGE", "OFFSET", "VIEW"};

/* The bytes and size of record i (validated): *src points into `base` or, for LARGE/VIEW, to the
 * record's pointer. */
static tx_status tstr_read(const char *op, const unsigned char *base, size_t size, int64_t i,
                           int allow_pointers, const char **src, uint64_t *len) {
    const unsigned char *r = base + (size_t)i * TSTR_BYTES;
    int type = r[0] & 3;
    switch (type) {
    case TSTR_SMALL:
        *len = r[0] >> 2;
        TX_REQUIRE(*len <= TSTR_SMALL_CAP, TX_INVALID_ARGUMENT,
                   "%s: element %" PRId64 " is a SMALL string of size %" PRIu64
                   ", above the inline capacity of %d bytes", op, i, *len, TSTR_SMALL_CAP);
        *src = (const char *)r + 1;
        return TX_OK;
    case TSTR_OFFSET: {
        /* Size and offset are little-endian on every host (TF reads them through
         * TF_le32toh), so the type bits are in byte 0 there too. */
        uint64_t sz = tx__load_le32(r) >> 2, off = tx__load_le32(r + 4);
        uint64_t at = (uint64_t)i * TSTR_BYTES;
        TX_REQUIRE(off <= size - at && sz <= size - at - off, TX_INVALID_ARGUMENT,
                   "%s: element %" PRId64 " is an OFFSET string of %" PRIu64 " bytes at offset %"
                   PRIu64 " from its record (at byte %" PRIu64 "), past the end of the %zu-byte "
                   "buffer", op, i, sz, off, at, size);
        *len = sz;
        *src = (const char *)base + at + off;
        return TX_OK;
    }
    default: { /* LARGE and VIEW: a size_t size word, then (LARGE: capacity, then) a pointer */
        TX_REQUIRE(allow_pointers, TX_INVALID_ARGUMENT,
                   "%s: element %" PRId64 " is a %s string, which holds a pointer: only accepted "
                   "with allow_pointers, for TF_TString arrays of this process", op, i,
                   tstr_names[type]);
        size_t word;
        const char *ptr;
        memcpy(&word, r, sizeof word);
        memcpy(&ptr, r + (type == TSTR_LARGE ? 2 : 1) * sizeof(size_t), sizeof ptr);
        *len = tx__tstring_word_size(word, TX_HOST_LITTLE_ENDIAN);
        TX_REQUIRE(*len <= tx_max_tensor_bytes(), TX_INVALID_ARGUMENT,
                   "%s: element %" PRId64 " is a %s string of %" PRIu64 " bytes, above the "
                   "tensor size limit", op, i, tstr_names[type], *len);
        TX_REQUIRE(ptr != NULL || *len == 0, TX_INVALID_ARGUMENT,
                   "%s: element %" PRId64 " is a %s string of %" PRIu64 " bytes at NULL", op, i,
                   tstr_names[type], *len);
        *src = ptr;
        return TX_OK;
    }
    }
}

/* A new string tensor of shape dims whose element i is (src[i], len[i]), copied into one storage
 * of `total` bytes. */
typedef tx_status (*source_fn)(const void *ctx, int64_t i, const char **src, uint64_t *len);

static tx_status build_strings(const char *op, size_t rank, const int64_t *dims, uint64_t total,
                               source_fn source, const void *ctx, tx_tensor **out) {
    TX_REQUIRE(total <= tx_max_tensor_bytes(), TX_RESOURCE_EXHAUSTED,
               "%s: the strings hold %" PRIu64 " bytes, above the limit of %zu", op, total,
               tx_max_tensor_bytes());
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, TX_STRING, rank, dims, &t));
    char *bytes = NULL;
    tx_status st = total ? tx__string_storage(t, (size_t)total, &bytes) : TX_OK;
    tx_string *rec = (tx_string *)t->data;
    size_t pos = 0;
    for (int64_t i = 0; st == TX_OK && i < t->numel; i++) {
        const char *src = NULL;
        uint64_t len = 0;
        /* The caller validated every element, but reads it again here: an input that another
         * thread writes during the call fails this second check or the size check below. */
        st = source(ctx, i, &src, &len);
        if (st != TX_OK) break;
        if (len > total - pos) {
            st = tx__fail(TX_INVALID_ARGUMENT, "%s: element %" PRId64 " grew to %" PRIu64
                          " bytes after the input was validated (it changed during the call)",
                          op, i, len);
            break;
        }
        rec[i].size = len;
        rec[i].data = len ? bytes + pos : "";
        if (len) memcpy(bytes + pos, src, (size_t)len);
        pos += (size_t)len;
    }
    if (st != TX_OK) {
        tx_tensor_free(t);
        return st;
    }
    *out = t;
    return TX_OK;
}

typedef struct tstr_ctx {
    const unsigned char *base;
    size_t size;
    int allow_pointers;
} tstr_ctx;

static tx_status tstr_source(const void *ctx, int64_t i, const char **src, uint64_t *len) {
    const tstr_ctx *c = ctx;
    return tstr_read("string_tensor_from_tf", c->base, c->size, i, c->allow_pointers, src, len);
}

tx_status tx_string_tensor_from_tf(const void *records, size_t size, size_t rank,
                                   const int64_t *dims, int allow_pointers, tx_tensor **out) {
    static const char *op = "string_tensor_from_tf";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(rank <= TX_MAX_RANK && (rank == 0 || dims != NULL), TX_INVALID_ARGUMENT,
               "%s: rank %zu with %s dims", op, rank, dims ? "these" : "NULL");
    int64_t n;
    TX_TRY(tx__shape_numel(op, "dims", rank, dims, &n));
    TX_REQUIRE(records != NULL || size == 0, TX_INVALID_ARGUMENT, "%s: records is NULL", op);
    TX_REQUIRE((uint64_t)n <= size / TSTR_BYTES, TX_INVALID_ARGUMENT,
               "%s: %" PRId64 " elements need %" PRId64 " * %d bytes of records, got %zu bytes",
               op, n, n, TSTR_BYTES, size);
    uint64_t total = 0;
    for (int64_t i = 0; i < n; i++) {
        const char *src = NULL;
        uint64_t len = 0;
        TX_TRY(tstr_read(op, records, size, i, allow_pointers, &src, &len));
        TX_REQUIRE(len <= UINT64_MAX - total, TX_INVALID_ARGUMENT,
                   "%s: the string sizes overflow", op);
        total += len;
    }
    tstr_ctx c = {records, size, allow_pointers};
    return build_strings(op, rank, dims, total, tstr_source, &c, out);
}

tx_status tx_string_tensor_to_tf(const tx_tensor *data, tx_tstring_form form, tx_tensor **out) {
    static const char *op = "string_tensor_to_tf";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, data, "data");
    TX_REQUIRE(data->dtype == TX_STRING, TX_INVALID_ARGUMENT,
               "%s: data must be a string tensor, got %s", op, tx_dtype_name(data->dtype));
    TX_REQUIRE(form == TX_TSTRING_VIEW || form == TX_TSTRING_OFFSET, TX_INVALID_ARGUMENT,
               "%s: form %d is not TX_TSTRING_VIEW (0) or TX_TSTRING_OFFSET (1)", op, (int)form);
    const tx_string *s = (const tx_string *)data->data;
    const uint64_t n = (uint64_t)data->numel;
    uint64_t tail = 0; /* bytes of the strings that do not fit inline */
    for (uint64_t i = 0; i < n; i++)
        if (s[i].size > TSTR_SMALL_CAP) {
            TX_REQUIRE(s[i].size <= tx_max_tensor_bytes() - tail, TX_RESOURCE_EXHAUSTED,
                       "%s: the strings exceed the tensor size limit", op);
            tail += s[i].size;
        }
    TX_REQUIRE(n <= (tx_max_tensor_bytes() - tail) / TSTR_BYTES, TX_RESOURCE_EXHAUSTED,
               "%s: %" PRIu64 " records and %" PRIu64 " bytes exceed the tensor size limit", op,
               n, tail);
    const uint64_t total = n * TSTR_BYTES + tail;
    /* OFFSET: the size field has 30 bits and the offset 32. */
    TX_REQUIRE(form != TX_TSTRING_OFFSET || total <= UINT32_MAX, TX_INVALID_ARGUMENT,
               "%s: %" PRIu64 " bytes of records and strings are too many for the OFFSET form's "
               "32-bit offsets", op, total);
    int64_t dims[1] = {(int64_t)total};
    tx_tensor *t;
    TX_TRY(tx__tensor_zeros(op, TX_UINT8, 1, dims, &t));
    unsigned char *base = (unsigned char *)t->data;
    uint64_t pos = n * TSTR_BYTES;
    for (uint64_t i = 0; i < n; i++) {
        unsigned char *r = base + i * TSTR_BYTES;
        const size_t len = (size_t)s[i].size;
        if (len <= TSTR_SMALL_CAP) { /* inline, NUL-terminated as TF keeps it */
            r[0] = (unsigned char)(len << 2 | TSTR_SMALL);
            if (len) memcpy(r + 1, s[i].data, len);
            continue;
        }
        memcpy(base + pos, s[i].data, len);
        if (form == TX_TSTRING_OFFSET) {
            tx__store_le32(r, (uint32_t)(len << 2 | TSTR_OFFSET));
            tx__store_le32(r + 4, (uint32_t)(pos - i * TSTR_BYTES));
        } else {
            size_t word = tx__tstring_word(len, TSTR_VIEW, TX_HOST_LITTLE_ENDIAN);
            const char *ptr = (const char *)base + pos;
            memcpy(r, &word, sizeof word);
            memcpy(r + sizeof word, &ptr, sizeof ptr);
        }
        pos += len;
    }
    *out = t;
    return TX_OK;
}

/* ---- ONNX Runtime: content bytes + size_t start offsets ---------------------------------------- */

static uint64_t offset_at(const tx_tensor *t, int64_t i) {
    return (uint64_t)tx__int_at(t->data, t->dtype, i); /* int64 or uint64: the bits */
}

typedef struct ort_ctx {
    const tx_tensor *content, *offsets;
} ort_ctx;

static tx_status ort_source(const void *ctx, int64_t i, const char **src, uint64_t *len) {
    const ort_ctx *c = ctx;
    uint64_t b = offset_at(c->offsets, i);
    uint64_t e = i + 1 < c->offsets->numel ? offset_at(c->offsets, i + 1)
                                           : (uint64_t)c->content->numel;
    TX_REQUIRE(b <= e && e <= (uint64_t)c->content->numel, TX_INVALID_ARGUMENT,
               "string_tensor_from_ort: offsets[%" PRId64 "] changed after it was validated "
               "(the input changed during the call)", i);
    *src = c->content->data + b;
    *len = e - b;
    return TX_OK;
}

tx_status tx_string_tensor_from_ort(const tx_tensor *content, const tx_tensor *offsets,
                                    tx_tensor **out) {
    static const char *op = "string_tensor_from_ort";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, content, "content");
    TX_REQUIRE_TENSOR(op, offsets, "offsets");
    TX_REQUIRE(content->dtype == TX_UINT8 && content->rank == 1, TX_INVALID_ARGUMENT,
               "%s: content must be a 1-D uint8 tensor, got %s of rank %zu", op,
               tx_dtype_name(content->dtype), content->rank);
    TX_REQUIRE(offsets->dtype == TX_UINT64 || offsets->dtype == TX_INT64, TX_INVALID_ARGUMENT,
               "%s: offsets must be uint64 (size_t) or int64, got %s", op,
               tx_dtype_name(offsets->dtype));
    const int64_t n = offsets->numel;
    const uint64_t len = (uint64_t)content->numel;
    TX_REQUIRE(n > 0 || len == 0, TX_INVALID_ARGUMENT,
               "%s: no elements, but content holds %" PRIu64 " bytes", op, len);
    uint64_t prev = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t o = offset_at(offsets, i);
        if (i == 0)
            TX_REQUIRE(o == 0, TX_INVALID_ARGUMENT,
                       "%s: offsets[0] = %" PRId64 " must be 0 (content starts with element 0)",
                       op, (int64_t)o);
        TX_REQUIRE(o >= prev, TX_INVALID_ARGUMENT,
                   "%s: offsets[%" PRId64 "] = %" PRId64 " is less than offsets[%" PRId64
                   "] = %" PRIu64 " (offsets must not decrease)", op, i, (int64_t)o, i - 1, prev);
        TX_REQUIRE(o <= len, TX_INVALID_ARGUMENT,
                   "%s: offsets[%" PRId64 "] = %" PRIu64 " is past the end of content (%" PRIu64
                   " bytes)", op, i, o, len);
        prev = o;
    }
    ort_ctx c = {content, offsets};
    return build_strings(op, offsets->rank, offsets->dims, len, ort_source, &c, out);
}

/* to_ort's outputs: the [total] content bytes (sized from the string lengths), then one uint64
 * offset per element. */
typedef struct {
    const tx_tensor *data;
    int64_t total;
} ort_out_t;

static void ort_out_spec(void *ctx, size_t i, tx__out_spec *s) {
    const ort_out_t *c = ctx;
    if (i == 0) {
        s->dtype = TX_UINT8;
        s->rank = 1;
        s->dims[0] = c->total;
        s->flags = TX_OUTPUT_DATA_DEPENDENT;
    } else {
        s->dtype = TX_UINT64;
        s->rank = c->data->rank;
        memcpy(s->dims, c->data->dims, c->data->rank * sizeof *s->dims);
    }
}

tx_status tx_string_tensor_to_ort(const tx_tensor *data, tx_tensor **outs) {
    static const char *op = "string_tensor_to_ort";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    outs[0] = outs[1] = NULL;
    TX_REQUIRE_TENSOR(op, data, "data");
    TX_REQUIRE(data->dtype == TX_STRING, TX_INVALID_ARGUMENT,
               "%s: data must be a string tensor, got %s", op, tx_dtype_name(data->dtype));
    const tx_string *s = (const tx_string *)data->data;
    uint64_t total = 0;
    for (int64_t i = 0; i < data->numel; i++) {
        TX_REQUIRE(s[i].size <= (uint64_t)INT64_MAX - total, TX_RESOURCE_EXHAUSTED,
                   "%s: the strings' sizes overflow", op);
        total += s[i].size;
    }
    ort_out_t spec_ctx = {data, (int64_t)total};
    tx_tensor *outv[2];
    TX_TRY(tx__tensor_alloc_n(op, 2, ort_out_spec, &spec_ctx, outv)); /* records both in a plan */
    tx_tensor *c = outv[0], *o = outv[1];
    uint64_t *off = (uint64_t *)o->data, pos = 0;
    for (int64_t i = 0; i < data->numel; i++) {
        off[i] = pos;
        if (s[i].size) memcpy(c->data + pos, s[i].data, (size_t)s[i].size);
        pos += s[i].size;
    }
    outs[0] = c;
    outs[1] = o;
    return TX_OK;
}
