/* SPDX-License-Identifier: Apache-2.0 */
/* tensor.c -- tensor handles and reference-counted buffers: creation, wrapping of caller memory,
 * views (which share a buffer), and the byte storages that string records point into. */
#include "core/internal.h"

#include <stdlib.h>

/* A buffer made by the library holds its header and its data in one allocation; the data start
 * TX_ALIGNMENT bytes in, so they keep the allocator's alignment. */
#define HEADER_BYTES TX_ALIGNMENT
_Static_assert(sizeof(tx__buffer) <= HEADER_BYTES, "buffer header must fit its slot");

static tx__buffer *buffer_new(size_t size, const char *op) {
    if (size > tx_max_tensor_bytes()) {
        tx__fail(TX_RESOURCE_EXHAUSTED, "%s: %zu bytes exceed the limit of %zu bytes", op, size,
                 tx_max_tensor_bytes());
        return NULL;
    }
    char *mem = tx__alloc(HEADER_BYTES + size, op);
    if (mem == NULL) return NULL;
    tx__buffer *b = (tx__buffer *)mem;
    memset(b, 0, sizeof *b);
    atomic_init(&b->refcount, 1);
    b->data = mem + HEADER_BYTES;
    b->size = size;
    return b;
}

void tx__buffer_retain(tx__buffer *b) { atomic_fetch_add_explicit(&b->refcount, 1, memory_order_relaxed); }

void tx__buffer_release(tx__buffer *b) {
    if (b == NULL) return;
    if (atomic_fetch_sub_explicit(&b->refcount, 1, memory_order_acq_rel) != 1) return;
    for (size_t i = 0; i < b->ndeps; i++) tx__buffer_release(b->deps[i]);
    tx__free(b->deps, b->ndeps * sizeof *b->deps);
    if (b->wrapped) {
        if (b->release) b->release(b->data, b->release_ctx);
        tx__free(b, sizeof *b);
    } else {
        tx__free(b, HEADER_BYTES + b->size);
    }
}

/* Validates dtype, rank and dims; computes numel and byte size with overflow checks. */
static tx_status check_layout(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                              int64_t *numel, size_t *nbytes) {
    const tx__dtype_info *d = tx__dtype(dtype);
    TX_REQUIRE(d != NULL, TX_INVALID_ARGUMENT, "%s: unknown dtype %d", op, (int)dtype);
    TX_REQUIRE(rank <= TX_MAX_RANK, TX_INVALID_ARGUMENT, "%s: rank %zu exceeds the maximum of %d",
               op, rank, TX_MAX_RANK);
    TX_REQUIRE(rank == 0 || dims != NULL, TX_INVALID_ARGUMENT, "%s: dims is NULL", op);
    TX_TRY(tx__shape_numel(op, "shape", rank, dims, numel));
    size_t bytes;
    TX_REQUIRE((uint64_t)*numel <= SIZE_MAX && !__builtin_mul_overflow((size_t)*numel, d->size, &bytes),
               TX_RESOURCE_EXHAUSTED, "%s: %lld elements of %s overflow size_t", op,
               (long long)*numel, d->name);
    TX_REQUIRE(bytes <= tx_max_tensor_bytes(), TX_RESOURCE_EXHAUSTED,
               "%s: tensor of %zu bytes exceeds the limit of %zu bytes", op, bytes,
               tx_max_tensor_bytes());
    *nbytes = bytes;
    return TX_OK;
}

static tx_tensor *handle_new(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                             int64_t numel, size_t nbytes) {
    tx_tensor *t = tx__alloc_header(sizeof *t + rank * sizeof(int64_t), op);
    if (t == NULL) return NULL;
    t->dtype = dtype;
    t->rank = rank;
    t->numel = numel;
    t->nbytes = nbytes;
    t->buf = NULL;
    t->data = NULL;
    t->read_only = false;
    if (rank) memcpy(t->dims, dims, rank * sizeof(int64_t));
    return t;
}

tx_status tx__check_output(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                           int64_t *numel) {
    size_t nbytes;
    return check_layout(op, dtype, rank, dims, numel, &nbytes);
}

tx_status tx__tensor_alloc_flags(const char *op, tx_dtype dtype, size_t rank,
                                 const int64_t *dims, unsigned plan_flags, tx_tensor **out) {
    *out = NULL;
    int64_t numel = 0;
    size_t nbytes = 0;
    TX_TRY(check_layout(op, dtype, rank, dims, &numel, &nbytes));
    if (TX_UNLIKELY(tx__planning())) {
        tx__plan_record(op, dtype, rank, dims, numel, nbytes, 0, plan_flags);
        return TX__PLANNED;
    }
    tx_tensor *t = handle_new(op, dtype, rank, dims, numel, nbytes);
    if (t == NULL) return TX_RESOURCE_EXHAUSTED;
    t->buf = buffer_new(nbytes, op);
    if (t->buf == NULL) {
        tx__free(t, sizeof *t + rank * sizeof(int64_t));
        return TX_RESOURCE_EXHAUSTED;
    }
    t->data = t->buf->data;
    /* String records must always be valid: start as empty strings. */
    if (dtype == TX_STRING) memset(t->data, 0, nbytes);
    *out = t;
    return TX_OK;
}

tx_status tx__tensor_alloc(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                           tx_tensor **out) {
    return tx__tensor_alloc_flags(op, dtype, rank, dims, 0, out);
}

/* Upper bounds are input sizes; only the arithmetic is checked (the limit applies to the real,
 * smaller output when the op runs). */
static tx_status record_bound(const char *op, const tx__out_spec *s) {
    const tx__dtype_info *d = tx__dtype(s->dtype);
    TX_REQUIRE(d != NULL, TX_INTERNAL, "%s: unknown dtype %d", op, (int)s->dtype);
    int64_t numel;
    TX_TRY(tx__shape_numel(op, "shape", s->rank, s->dims, &numel));
    size_t nbytes;
    TX_REQUIRE((uint64_t)numel <= SIZE_MAX && !__builtin_mul_overflow((size_t)numel, d->size, &nbytes),
               TX_RESOURCE_EXHAUSTED, "%s: %lld elements of %s overflow size_t", op,
               (long long)numel, d->name);
    tx__plan_record(op, s->dtype, s->rank, s->dims, numel, nbytes, 0, s->flags);
    return TX_OK;
}

tx_status tx__tensor_alloc_n(const char *op, size_t n, tx__spec_fn spec, void *ctx,
                             tx_tensor **outs) {
    for (size_t i = 0; i < n; i++) outs[i] = NULL;
    int64_t dims[TX_MAX_RANK + 1];
    for (size_t i = 0; i < n; i++) {
        tx__out_spec s = {TX_INVALID_DTYPE, 0, dims, 0};
        spec(ctx, i, &s);
        tx_status st;
        if (tx__planning() && (s.flags & TX_OUTPUT_UPPER_BOUND)) {
            st = record_bound(op, &s);
            if (st == TX_OK) continue;
        } else {
            st = tx__tensor_alloc_flags(op, s.dtype, s.rank, s.dims, s.flags, &outs[i]);
            if (st == TX__PLANNED) continue; /* recorded: go on to the next output */
        }
        if (st != TX_OK) {
            tx__free_all(outs, i);
            return st;
        }
    }
    return tx__planning() ? TX__PLANNED : TX_OK;
}

tx_status tx__plan_bounds(const char *op, size_t n, tx__spec_fn spec, void *ctx,
                          tx_tensor **outs) {
    if (TX_LIKELY(!tx__planning())) return TX_OK;
    return tx__tensor_alloc_n(op, n, spec, ctx, outs);
}

tx_status tx__string_tensor_alloc(const char *op, size_t rank, const int64_t *dims,
                                  size_t string_bytes, unsigned plan_flags, char **bytes,
                                  tx_tensor **out) {
    *bytes = NULL;
    *out = NULL;
    if (TX_UNLIKELY(tx__planning())) {
        int64_t numel = 0;
        size_t nbytes = 0;
        TX_TRY(check_layout(op, TX_STRING, rank, dims, &numel, &nbytes));
        TX_REQUIRE(string_bytes <= tx_max_tensor_bytes(), TX_RESOURCE_EXHAUSTED,
                   "string storage: %zu bytes exceed the limit of %zu bytes", string_bytes,
                   tx_max_tensor_bytes());
        tx__plan_record(op, TX_STRING, rank, dims, numel, nbytes, string_bytes, plan_flags);
        return TX__PLANNED;
    }
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, TX_STRING, rank, dims, &t));
    if (string_bytes) {
        tx_status st = tx__string_storage(t, string_bytes, bytes);
        if (st != TX_OK) {
            tx_tensor_free(t);
            return st;
        }
    }
    *out = t;
    return TX_OK;
}

tx_status tx__tensor_zeros(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                           tx_tensor **out) {
    TX_TRY(tx__tensor_alloc(op, dtype, rank, dims, out));
    memset((*out)->data, 0, (*out)->nbytes);
    return TX_OK;
}

tx_status tx__tensor_view(const char *op, const tx_tensor *t, tx_dtype dtype, size_t rank,
                          const int64_t *dims, tx_tensor **out) {
    *out = NULL;
    int64_t numel = 0;
    size_t nbytes = 0;
    TX_TRY(check_layout(op, dtype, rank, dims, &numel, &nbytes));
    if (nbytes != t->nbytes)
        return tx__fail(TX_INTERNAL, "%s: view of %zu bytes on a buffer of %zu bytes", op, nbytes,
                        t->nbytes);
    if (TX_UNLIKELY(tx__planning())) {
        tx__plan_record(op, dtype, rank, dims, numel, nbytes, 0, TX_OUTPUT_VIEW);
        return TX__PLANNED;
    }
    tx_tensor *v = handle_new(op, dtype, rank, dims, numel, nbytes);
    if (v == NULL) return TX_RESOURCE_EXHAUSTED;
    tx__buffer_retain(t->buf);
    v->buf = t->buf;
    v->data = t->data;
    v->read_only = t->read_only;
    *out = v;
    return TX_OK;
}

tx_status tx__buffer_view(const char *op, tx__buffer *b, char *data, tx_dtype dtype, size_t rank,
                          const int64_t *dims, tx_tensor **out) {
    *out = NULL;
    int64_t numel = 0;
    size_t nbytes = 0;
    TX_TRY(check_layout(op, dtype, rank, dims, &numel, &nbytes));
    assert((uintptr_t)data >= (uintptr_t)b->data &&
           (uintptr_t)data - (uintptr_t)b->data + nbytes <= b->size);
    tx_tensor *v = handle_new(op, dtype, rank, dims, numel, nbytes);
    if (v == NULL) return TX_RESOURCE_EXHAUSTED;
    tx__buffer_retain(b);
    v->buf = b;
    v->data = data;
    v->read_only = true; /* shared bytes: string storage, a read-only mapping */
    *out = v;
    return TX_OK;
}

tx_status tx__bytes_view(const char *op, tx__buffer *b, char *data, int64_t n, tx_tensor **out) {
    return tx__buffer_view(op, b, data, TX_UINT8, 1, &n, out);
}

static bool has_dep(const tx__buffer *b, const tx__buffer *dep) {
    for (size_t i = 0; i < b->ndeps; i++)
        if (b->deps[i] == dep) return true;
    return false;
}

/* Appends `extra` storages to b->deps (retaining each); all-or-nothing on allocation failure. */
static tx_status add_deps(tx__buffer *b, tx__buffer *const *extra, size_t n) {
    size_t fresh = 0;
    for (size_t i = 0; i < n; i++) fresh += !has_dep(b, extra[i]);
    if (fresh == 0) return TX_OK;
    tx__buffer **deps = tx__alloc((b->ndeps + fresh) * sizeof *deps, "string storage list");
    if (deps == NULL) return TX_RESOURCE_EXHAUSTED;
    if (b->ndeps) memcpy(deps, b->deps, b->ndeps * sizeof *deps);
    size_t k = b->ndeps;
    for (size_t i = 0; i < n; i++) {
        if (has_dep(b, extra[i])) continue;
        bool dup = false; /* the same storage listed twice in `extra` */
        for (size_t j = b->ndeps; j < k; j++) dup |= deps[j] == extra[i];
        if (dup) continue;
        tx__buffer_retain(extra[i]);
        deps[k++] = extra[i];
    }
    tx__free(b->deps, b->ndeps * sizeof *b->deps);
    b->deps = deps;
    b->ndeps = k;
    return TX_OK;
}

tx_status tx__share_strings(tx_tensor *dst, const tx_tensor *src) {
    if (dst->dtype != TX_STRING || src->dtype != TX_STRING || dst->buf == src->buf) return TX_OK;
    return add_deps(dst->buf, src->buf->deps, src->buf->ndeps);
}

tx_status tx__string_storage(tx_tensor *dst, size_t size, char **bytes) {
    *bytes = NULL;
    tx__buffer *s = buffer_new(size, "string storage");
    if (s == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = add_deps(dst->buf, &s, 1);
    tx__buffer_release(s); /* dst's reference (if added) keeps it alive */
    if (st != TX_OK) return st;
    *bytes = s->data;
    return TX_OK;
}

void tx__free_all(tx_tensor **ts, size_t n) {
    for (size_t i = 0; i < n; i++) {
        tx_tensor_free(ts[i]);
        ts[i] = NULL;
    }
}

/* ---- public API ---- */

tx_status tx_tensor_new(tx_dtype dtype, size_t rank, const int64_t *dims, tx_tensor **out) {
    TX_REQUIRE_OUT("tensor_new", out);
    return tx__tensor_zeros("tensor_new", dtype, rank, dims, out);
}

tx_status tx_tensor_from_data(tx_dtype dtype, size_t rank, const int64_t *dims, const void *data,
                              size_t nbytes, tx_tensor **out) {
    TX_REQUIRE_OUT("tensor_from_data", out);
    *out = NULL;
    TX_REQUIRE(dtype != TX_STRING, TX_INVALID_ARGUMENT,
               "tensor_from_data: string tensors are made with tx_tensor_new_strings");
    int64_t numel = 0;
    size_t want = 0;
    TX_TRY(check_layout("tensor_from_data", dtype, rank, dims, &numel, &want));
    TX_REQUIRE(nbytes == want, TX_INVALID_ARGUMENT,
               "tensor_from_data: nbytes is %zu, the shape needs %zu", nbytes, want);
    TX_REQUIRE(nbytes == 0 || data != NULL, TX_INVALID_ARGUMENT, "tensor_from_data: data is NULL");
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc("tensor_from_data", dtype, rank, dims, &t));
    if (nbytes) memcpy(t->data, data, nbytes);
    if (tx__is_subbyte(dtype)) tx__normalise_subbyte(dtype, t->data, t->numel);
    if (dtype == TX_BOOL) tx__normalise_bool(t->data, t->numel);
    *out = t;
    return TX_OK;
}

/* TF reads any non-zero bool byte as true: tensors that tensorx makes hold 0 and 1 only. */
void tx__normalise_bool(char *p, int64_t n) {
    for (int64_t i = 0; i < n; i++) p[i] = p[i] != 0;
}

/* ---- the sub-byte dtypes ---- */

/* The byte tensorx stores for the low bits `b` of a byte of sub-byte dtype t: an integer's low
 * value bits, zeros above, as TF 2.21 and ml_dtypes store it (TF 2.21 decides: int4 -6 is 0x0a); a
 * float's magnitude bits and its sign bit, set when any bit at or above it is. */
uint8_t tx__subbyte_value(tx_dtype t, unsigned b) {
    const tx__dtype_info *d = tx__dtype(t);
    unsigned bits = d->value_bits, low = (1u << bits) - 1u;
    if (d->kind != TX_KIND_FLOAT) return (uint8_t)(b & low);
    unsigned sign = 1u << (bits - 1);
    return (uint8_t)((b & (sign - 1u)) | ((b & 0xffu) >= sign ? sign : 0u));
}

bool tx__normalise_subbyte(tx_dtype t, char *p, int64_t n) {
    bool changed = false;
    for (int64_t i = 0; i < n; i++) {
        uint8_t v = tx__subbyte_value(t, (uint8_t)p[i]);
        if ((uint8_t)p[i] != v) p[i] = (char)v, changed = true;
    }
    return changed;
}

tx_status tx_tensor_new_strings(size_t rank, const int64_t *dims, const char *const *strings,
                                const size_t *lengths, tx_tensor **out) {
    static const char *op = "tensor_new_strings";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    int64_t numel = 0;
    size_t nbytes = 0, total = 0;
    TX_TRY(check_layout(op, TX_STRING, rank, dims, &numel, &nbytes));
    TX_REQUIRE(numel == 0 || lengths != NULL, TX_INVALID_ARGUMENT, "%s: lengths is NULL", op);
    for (int64_t i = 0; i < numel; i++) {
        TX_REQUIRE(!lengths[i] || strings != NULL, TX_INVALID_ARGUMENT,
                   "%s: strings is NULL, but lengths[%lld] is %zu", op, (long long)i, lengths[i]);
        TX_REQUIRE(!lengths[i] || strings[i] != NULL, TX_INVALID_ARGUMENT, "%s: strings[%lld] is NULL",
                   op, (long long)i);
        TX_REQUIRE(!__builtin_add_overflow(total, lengths[i], &total), TX_RESOURCE_EXHAUSTED,
                   "%s: total string bytes overflow size_t", op);
    }
    tx_tensor *t;
    char *bytes = NULL;
    TX_TRY(tx__string_tensor_alloc(op, rank, dims, total, 0, &bytes, &t));
    tx_string *rec = (tx_string *)t->data;
    size_t pos = 0;
    for (int64_t i = 0; i < t->numel; i++) {
        /* Read once and bounded: lengths that the caller's other threads grow after the sum
         * above must not write past the storage. */
        const size_t len = lengths[i];
        const char *src = strings ? strings[i] : NULL;
        if (len > total - pos || (len && src == NULL)) {
            tx_tensor_free(t);
            return tx__fail(TX_INVALID_ARGUMENT, "%s: lengths[%lld] or strings[%lld] changed "
                            "during the call", op, (long long)i, (long long)i);
        }
        rec[i].size = len;
        rec[i].data = len ? bytes + pos : "";
        if (len) memcpy(bytes + pos, src, len);
        pos += len;
    }
    *out = t;
    return TX_OK;
}

tx_status tx_tensor_wrap(tx_dtype dtype, size_t rank, const int64_t *dims, void *data,
                         size_t nbytes, tx_release_fn release, void *release_ctx, tx_tensor **out) {
    static const char *op = "tensor_wrap";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(dtype != TX_STRING, TX_UNIMPLEMENTED, "%s: string tensors cannot wrap memory", op);
    int64_t numel = 0;
    size_t want = 0;
    TX_TRY(check_layout(op, dtype, rank, dims, &numel, &want));
    TX_REQUIRE(nbytes == want, TX_INVALID_ARGUMENT, "%s: nbytes is %zu, the shape needs %zu", op,
               nbytes, want);
    TX_REQUIRE(data != NULL, TX_INVALID_ARGUMENT, "%s: data is NULL", op);
    size_t align = tx_dtype_size(dtype) > 8 ? 8 : tx_dtype_size(dtype);
    TX_REQUIRE(((uintptr_t)data % align) == 0, TX_INVALID_ARGUMENT,
               "%s: data is not aligned to %zu bytes for %s", op, align, tx_dtype_name(dtype));
    /* int4 / uint4 bytes are taken as they are: every reader uses only the low 4 bits, as TF
     * 2.21 and ml_dtypes do (a TF tensor may carry any upper bits). */
    tx__buffer *b = tx__alloc_header(sizeof *b, op);
    if (b == NULL) return TX_RESOURCE_EXHAUSTED;
    memset(b, 0, sizeof *b);
    atomic_init(&b->refcount, 1);
    b->data = data;
    b->size = nbytes;
    b->wrapped = true;
    b->release = release;
    b->release_ctx = release_ctx;
    tx_tensor *t = handle_new(op, dtype, rank, dims, numel, nbytes);
    if (t == NULL) {
        tx__free(b, sizeof *b); /* release is not called: the caller keeps data */
        return TX_RESOURCE_EXHAUSTED;
    }
    t->buf = b;
    t->data = data;
    *out = t;
    return TX_OK;
}

void tx_tensor_free(tx_tensor *t) {
    if (t == NULL) return;
    tx__buffer_release(t->buf);
    tx__free(t, sizeof *t + t->rank * sizeof(int64_t));
}

tx_status tx_tensor_ref(const tx_tensor *t, tx_tensor **out) {
    TX_REQUIRE_OUT("tensor_ref", out);
    *out = NULL;
    TX_REQUIRE_TENSOR("tensor_ref", t, "t");
    return tx__tensor_view("tensor_ref", t, t->dtype, t->rank, t->dims, out);
}

tx_dtype tx_tensor_dtype(const tx_tensor *t) { return t ? t->dtype : TX_INVALID_DTYPE; }
size_t tx_tensor_rank(const tx_tensor *t) { return t ? t->rank : 0; }
const int64_t *tx_tensor_dims(const tx_tensor *t) { return t ? t->dims : NULL; }
int64_t tx_tensor_dim(const tx_tensor *t, size_t i) { return t && i < t->rank ? t->dims[i] : -1; }
int64_t tx_tensor_numel(const tx_tensor *t) { return t ? t->numel : 0; }
size_t tx_tensor_nbytes(const tx_tensor *t) { return t ? t->nbytes : 0; }

void *tx_tensor_data(tx_tensor *t) {
    static const char *op = "tensor_data";
    if (t == NULL) {
        tx__fail(TX_INVALID_ARGUMENT, "%s: t is NULL", op);
        return NULL;
    }
    if (t->read_only) {
        tx__fail(TX_INVALID_ARGUMENT,
                 "%s: t is read-only (a file mapping, a DLPack import marked read-only, string "
                 "bytes, or a view of one); read it through tx_tensor_data_const, or write into a "
                 "copy from tx_tensor_copy", op);
        return NULL;
    }
    return t->data;
}

const void *tx_tensor_data_const(const tx_tensor *t) { return t ? t->data : NULL; }
int tx_tensor_is_writable(const tx_tensor *t) { return t != NULL && !t->read_only; }

const tx_string *tx_tensor_string(const tx_tensor *t, int64_t i) {
    if (t == NULL || t->dtype != TX_STRING || i < 0 || i >= t->numel) return NULL;
    return (const tx_string *)t->data + i;
}

int tx_tensor_shares_buffer(const tx_tensor *a, const tx_tensor *b) {
    return a && b && a->buf == b->buf;
}

tx_status tx_tensor_get_int(const tx_tensor *t, int64_t i, int64_t *value) {
    static const char *op = "tensor_get_int";
    TX_REQUIRE_TENSOR(op, t, "t");
    TX_REQUIRE(value != NULL, TX_INVALID_ARGUMENT, "%s: value is NULL", op);
    TX_REQUIRE(i >= 0 && i < t->numel, TX_INVALID_ARGUMENT, "%s: index %lld out of [0, %lld)", op,
               (long long)i, (long long)t->numel);
    tx_dtype_kind k = tx_dtype_kind_of(t->dtype);
    TX_REQUIRE(k == TX_KIND_BOOL || tx__is_integer_kind(k), TX_INVALID_ARGUMENT,
               "%s: dtype %s is not an integer type", op, tx_dtype_name(t->dtype));
    int64_t v = tx__int_at(t->data, t->dtype, i);
    /* a type whose values pass int64 (uint64) reads those as negative */
    TX_REQUIRE(v >= 0 || tx__dtype(t->dtype)->max <= INT64_MAX, TX_OUT_OF_RANGE,
               "%s: uint64 value %llu exceeds int64", op, (unsigned long long)v);
    *value = v;
    return TX_OK;
}
