/* SPDX-License-Identifier: Apache-2.0 */
/* string_pack.c -- OpenVINO's StringTensorPack-15 and StringTensorUnpack-15: between a string
 * tensor and its (begins, ends, symbols) form, where string i is the byte range
 * symbols[begins[i], ends[i]).  Pack validates every range before it reads a byte and keeps one
 * copy of the referenced part of symbols, shared by all output strings; unpack produces the
 * compact form (int32 offsets, strings concatenated in row-major order), as OpenVINO's reference
 * implementation does; when the strings already lie that way in one byte storage (a tensor made
 * by tx_tensor_new_strings, decode of a file, encode_raw, ...), symbols is a view of it. */
#include "core/internal.h"

#include <inttypes.h>

tx_status tx_string_tensor_pack(const tx_tensor *begins, const tx_tensor *ends,
                                const tx_tensor *symbols, tx_tensor **out) {
    static const char *op = "string_tensor_pack";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, begins, "begins");
    TX_REQUIRE_TENSOR(op, ends, "ends");
    TX_REQUIRE_TENSOR(op, symbols, "symbols");
    TX_REQUIRE((begins->dtype == TX_INT32 || begins->dtype == TX_INT64) &&
                   begins->dtype == ends->dtype,
               TX_INVALID_ARGUMENT,
               "%s: begins and ends must both be int32 or both be int64, got %s and %s", op,
               tx_dtype_name(begins->dtype), tx_dtype_name(ends->dtype));
    bool same_shape = begins->rank == ends->rank;
    for (size_t d = 0; same_shape && d < begins->rank; d++)
        same_shape = begins->dims[d] == ends->dims[d];
    if (!same_shape) {
        char a[TX_DIMS_STR_CAP], b[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT, "%s: begins shape %s and ends shape %s differ", op,
                        tx__format_dims(a, sizeof a, begins->rank, begins->dims),
                        tx__format_dims(b, sizeof b, ends->rank, ends->dims));
    }
    TX_REQUIRE(symbols->dtype == TX_UINT8 && symbols->rank == 1, TX_INVALID_ARGUMENT,
               "%s: symbols must be a 1-D uint8 tensor, got %s of rank %zu", op,
               tx_dtype_name(symbols->dtype), symbols->rank);
    const int64_t n = begins->numel, nsym = symbols->numel;
    int64_t lo = nsym, hi = 0; /* the byte span that non-empty strings use */
    for (int64_t i = 0; i < n; i++) {
        int64_t b = tx__index_at(begins, i), e = tx__index_at(ends, i);
        TX_REQUIRE(b >= 0, TX_INVALID_ARGUMENT, "%s: begins[%" PRId64 "] = %" PRId64 " is negative",
                   op, i, b);
        TX_REQUIRE(e >= b, TX_INVALID_ARGUMENT,
                   "%s: ends[%" PRId64 "] = %" PRId64 " is less than begins[%" PRId64 "] = %" PRId64,
                   op, i, e, i, b);
        TX_REQUIRE(e <= nsym, TX_INVALID_ARGUMENT,
                   "%s: ends[%" PRId64 "] = %" PRId64 " is past the end of symbols (%" PRId64
                   " bytes)", op, i, e, nsym);
        if (e > b) {
            if (b < lo) lo = b;
            if (e > hi) hi = e;
        }
    }
    tx_tensor *t;
    char *bytes = NULL;
    const size_t span = hi > lo ? (size_t)(hi - lo) : 0;
    TX_TRY(tx__string_tensor_alloc(op, begins->rank, begins->dims, span, TX_OUTPUT_DATA_DEPENDENT,
                                   &bytes, &t));
    if (span) memcpy(bytes, (const char *)symbols->data + lo, span);
    tx_string *rec = (tx_string *)t->data;
    for (int64_t i = 0; i < n; i++) {
        /* Read again, so checked again: a range that another thread changed after the checks
         * above and that leaves the copied span [lo, hi) becomes an empty string. */
        int64_t b = tx__index_at(begins, i), e = tx__index_at(ends, i);
        bool inside = b >= lo && e > b && e <= hi;
        rec[i].size = inside ? (uint64_t)(e - b) : 0;
        rec[i].data = inside ? bytes + (b - lo) : "";
    }
    *out = t;
    return TX_OK;
}

/* The byte storage of `data` in which its strings lie back to back in element order, with *start
 * at the first byte; NULL if there is none (no bytes, or the strings are scattered). */
static tx__buffer *compact_storage(const tx_tensor *data, uint64_t total, char **start) {
    const tx_string *s = (const tx_string *)data->data;
    int64_t first = 0;
    while (first < data->numel && s[first].size == 0) first++;
    if (total == 0 || first == data->numel) return NULL;
    const uintptr_t p = (uintptr_t)s[first].data;
    tx__buffer *b = NULL;
    for (size_t k = 0; k < data->buf->ndeps && b == NULL; k++) {
        tx__buffer *d = data->buf->deps[k];
        uintptr_t lo = (uintptr_t)d->data;
        if (p >= lo && p - lo < d->size && total <= d->size - (p - lo)) b = d;
    }
    uintptr_t at = p;
    for (int64_t i = first; b != NULL && i < data->numel; i++) {
        if (s[i].size == 0) continue;
        if ((uintptr_t)s[i].data != at) return NULL;
        at += (uintptr_t)s[i].size;
    }
    *start = (char *)p;
    return b;
}

/* begins and ends of data's shape, then the [total] bytes (known from the string lengths), a
 * view when the strings already lie back to back in one storage. */
typedef struct {
    const tx_tensor *data;
    int64_t total;
    bool view;
} unpack_t;

static void unpack_spec(void *ctx, size_t i, tx__out_spec *s) {
    const unpack_t *c = ctx;
    if (i < 2) {
        s->dtype = TX_INT32;
        s->rank = c->data->rank;
        memcpy(s->dims, c->data->dims, c->data->rank * sizeof *s->dims);
    } else {
        s->dtype = TX_UINT8;
        s->rank = 1;
        s->dims[0] = c->total;
        s->flags = TX_OUTPUT_DATA_DEPENDENT | (c->view ? TX_OUTPUT_VIEW : 0u);
    }
}

tx_status tx_string_tensor_unpack(const tx_tensor *data, tx_tensor **outs) {
    static const char *op = "string_tensor_unpack";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    outs[0] = outs[1] = outs[2] = NULL;
    TX_REQUIRE_TENSOR(op, data, "data");
    TX_REQUIRE(data->dtype == TX_STRING, TX_INVALID_ARGUMENT,
               "%s: data must be a string tensor, got %s", op, tx_dtype_name(data->dtype));
    const tx_string *s = (const tx_string *)data->data;
    uint64_t total = 0;
    for (int64_t i = 0; i < data->numel; i++) {
        TX_REQUIRE(s[i].size <= (uint64_t)INT32_MAX - total, TX_INVALID_ARGUMENT,
                   "%s: the strings hold more than %d bytes, beyond int32 offsets", op, INT32_MAX);
        total += s[i].size;
    }
    char *start = NULL;
    tx__buffer *storage = compact_storage(data, total, &start);
    unpack_t c = {data, (int64_t)total, storage != NULL};
    tx_tensor *o[3] = {NULL, NULL, NULL};
    /* A plan records all three outputs; a run allocates begins and ends and views the bytes. */
    size_t n_alloc = storage && !tx__planning() ? 2 : 3;
    TX_TRY(tx__tensor_alloc_n(op, n_alloc, unpack_spec, &c, o));
    if (n_alloc == 2) {
        tx_status st = tx__bytes_view(op, storage, start, (int64_t)total, &o[2]);
        if (st != TX_OK) {
            tx__free_all(o, 2);
            return st;
        }
    }
    tx_tensor *tb = o[0], *te = o[1], *ts = o[2];
    int32_t *b = (int32_t *)tb->data, *e = (int32_t *)te->data;
    char *sym = ts->data;
    int32_t offset = 0;
    for (int64_t i = 0; i < data->numel; i++) {
        b[i] = offset;
        if (s[i].size && !storage) memcpy(sym + offset, s[i].data, (size_t)s[i].size);
        offset += (int32_t)s[i].size;
        e[i] = offset;
    }
    outs[0] = tb;
    outs[1] = te;
    outs[2] = ts;
    return TX_OK;
}
