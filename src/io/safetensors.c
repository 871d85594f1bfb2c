/* SPDX-License-Identifier: Apache-2.0 */
/* safetensors.c -- reading safetensors files (tx_safetensors_open, _get and the accessors): an
 * 8-byte little-endian header length N, N bytes of JSON, then the tensors' bytes.  The whole file
 * is mapped (or, from a buffer, copied once) as one read-only byte tensor; the header is checked
 * entirely at open, as the safetensors crate's SafeTensors::read_metadata checks it (and a little
 * stricter: duplicate names are refused), and each tensor is handed out as a view of those bytes
 * that keeps them alive. */
#include "exec/byteswap.h"
#include "exec/packed.h"
#include "io/json.h"
#include "io/mmap_internal.h"
#include "io/safetensors_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* The crate's Dtype enum, in its order (which the writer sorts by). */
static const tx__st_dtype st_dtypes[] = {
    {"BOOL", TX_BOOL, 8, 0},
    {"F4", TX_FLOAT4_E2M1FN, 4, 1},
    {"F6_E2M3", TX_FLOAT6_E2M3FN, 6, 2},
    {"F6_E3M2", TX_FLOAT6_E3M2FN, 6, 3},
    {"U8", TX_UINT8, 8, 4},
    {"I8", TX_INT8, 8, 5},
    {"F8_E5M2", TX_FLOAT8_E5M2, 8, 6},
    {"F8_E4M3", TX_FLOAT8_E4M3FN, 8, 7},
    {"F8_E8M0", TX_FLOAT8_E8M0FNU, 8, 8},
    {"F8_E4M3FNUZ", TX_FLOAT8_E4M3FNUZ, 8, 9},
    {"F8_E5M2FNUZ", TX_FLOAT8_E5M2FNUZ, 8, 10},
    {"I16", TX_INT16, 16, 11},
    {"U16", TX_UINT16, 16, 12},
    {"F16", TX_FLOAT16, 16, 13},
    {"BF16", TX_BFLOAT16, 16, 14},
    {"I32", TX_INT32, 32, 15},
    {"U32", TX_UINT32, 32, 16},
    {"F32", TX_FLOAT32, 32, 17},
    {"C64", TX_COMPLEX64, 64, 18},
    {"F64", TX_FLOAT64, 64, 19},
    {"I64", TX_INT64, 64, 20},
    {"U64", TX_UINT64, 64, 21},
};
#define ST_NDTYPES (sizeof st_dtypes / sizeof st_dtypes[0])

const tx__st_dtype *tx__st_dtype_by_name(const char *s, size_t len) {
    for (size_t i = 0; i < ST_NDTYPES; i++)
        if (strlen(st_dtypes[i].name) == len && memcmp(st_dtypes[i].name, s, len) == 0)
            return &st_dtypes[i];
    return NULL;
}

const tx__st_dtype *tx__st_dtype_of(tx_dtype dtype) {
    for (size_t i = 0; i < ST_NDTYPES; i++)
        if (st_dtypes[i].dtype == dtype) return &st_dtypes[i];
    return NULL;
}

typedef struct {
    const char *name;
    const tx__st_dtype *st;
    size_t rank;
    const int64_t *dims;
    uint64_t begin, end; /* in the byte buffer after the header */
} st_entry;

struct tx_safetensors {
    tx_tensor *file;     /* the file's bytes: 1-D uint8, read-only */
    char *data;          /* the byte buffer after the header */
    size_t count, nmeta;
    st_entry *entries;   /* in file order (by data_offsets) */
    size_t *by_name;     /* entry indices sorted by name */
    const char **meta;   /* nmeta (key, value) pairs, in the header's order */
    char *arena;         /* every name, key and value, NUL-terminated */
    int64_t *dims;       /* every shape */
    size_t arena_size, dims_size, meta_size, by_name_size, entries_size;
};

/* Everything the parse needs at hand, and the messages' prefix. */
typedef struct {
    const char *op, *name; /* name: "'path'" or "the buffer" */
    const char *text;      /* the header */
    const tx__json_token *tok;
    tx_safetensors *f;
    size_t arena_used, dims_used;
} st_parse;

static void close_file(tx_safetensors *f) {
    tx__free(f->entries, f->entries_size);
    tx__free(f->by_name, f->by_name_size);
    tx__free(f->meta, f->meta_size);
    tx__free(f->arena, f->arena_size);
    tx__free(f->dims, f->dims_size);
    tx_tensor_free(f->file);
    tx__free(f, sizeof *f);
}

void tx_safetensors_close(tx_safetensors *file) {
    if (file != NULL) close_file(file);
}

/* String token t decoded into the arena, NUL-terminated; C strings cannot hold a NUL. */
static tx_status arena_string(st_parse *p, const tx__json_token *t, const char *what,
                              const char **out) {
    char *s = p->f->arena + p->arena_used;
    size_t n = tx__json_string(p->text, t, s);
    TX_REQUIRE(memchr(s, '\0', n) == NULL, TX_INVALID_ARGUMENT,
               "%s: %s: %s \"%.*s...\" holds a NUL character, which tensorx names cannot hold",
               p->op, p->name, what, (int)strlen(s), s);
    s[n] = '\0';
    p->arena_used += n + 1;
    *out = s;
    return TX_OK;
}

static int by_string(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* No key twice (sorted apart from the pairs, which keep the header's order). */
static tx_status unique_keys(st_parse *p) {
    size_t n = p->f->nmeta;
    if (n < 2) return TX_OK;
    const char **keys = tx__calloc_array(n, sizeof *keys, "safetensors: metadata keys");
    if (keys == NULL) return TX_RESOURCE_EXHAUSTED;
    for (size_t i = 0; i < n; i++) keys[i] = p->f->meta[2 * i];
    qsort(keys, n, sizeof *keys, by_string);
    tx_status st = TX_OK;
    for (size_t i = 1; st == TX_OK && i < n; i++)
        if (strcmp(keys[i], keys[i - 1]) == 0)
            st = tx__fail(TX_INVALID_ARGUMENT, "%s: %s: __metadata__ key \"%s\" appears twice",
                          p->op, p->name, keys[i]);
    tx__free(keys, n * sizeof *keys);
    return st;
}

static tx_status read_metadata(st_parse *p, size_t v) {
    const tx__json_token *tok = p->tok;
    if (tok[v].kind == TX__JSON_NULL) return TX_OK; /* the crate's Option: no metadata */
    TX_REQUIRE(tok[v].kind == TX__JSON_OBJECT, TX_INVALID_ARGUMENT,
               "%s: %s: __metadata__ must be an object of strings (or null)", p->op, p->name);
    size_t m = v + 1;
    for (size_t i = 0; i < tok[v].count; i++, m = tok[m + 1].next) {
        const char **kv = p->f->meta + 2 * p->f->nmeta;
        TX_TRY(arena_string(p, &tok[m], "a __metadata__ key", &kv[0]));
        TX_REQUIRE(tok[m + 1].kind == TX__JSON_STRING, TX_INVALID_ARGUMENT,
                   "%s: %s: __metadata__ value of \"%s\" is not a string", p->op, p->name, kv[0]);
        TX_TRY(arena_string(p, &tok[m + 1], "a __metadata__ value", &kv[1]));
        p->f->nmeta++;
    }
    return unique_keys(p);
}

/* A shape: an array of at most TX_MAX_RANK dims in [0, INT64_MAX]. */
static tx_status read_shape(st_parse *p, st_entry *e, size_t v) {
    const tx__json_token *tok = p->tok;
    TX_REQUIRE(tok[v].kind == TX__JSON_ARRAY, TX_INVALID_ARGUMENT,
               "%s: %s: tensor \"%s\": shape must be an array of integers", p->op, p->name,
               e->name);
    TX_REQUIRE(tok[v].count <= TX_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: %s: tensor \"%s\": shape has %zu dims, more than TX_MAX_RANK (%d)", p->op,
               p->name, e->name, (size_t)tok[v].count, TX_MAX_RANK);
    int64_t *dims = p->f->dims + p->dims_used;
    for (size_t i = 0; i < tok[v].count; i++) {
        uint64_t d;
        TX_REQUIRE(tx__json_uint(p->text, &tok[v + 1 + i], &d) && d <= INT64_MAX,
                   TX_INVALID_ARGUMENT,
                   "%s: %s: tensor \"%s\": shape[%zu] is %.*s, not an integer in [0, 2^63)",
                   p->op, p->name, e->name, i, (int)(tok[v + 1 + i].end - tok[v + 1 + i].start),
                   p->text + tok[v + 1 + i].start);
        dims[i] = (int64_t)d;
    }
    e->rank = tok[v].count;
    e->dims = dims;
    p->dims_used += e->rank;
    return TX_OK;
}

static tx_status read_offsets(st_parse *p, st_entry *e, size_t v) {
    const tx__json_token *tok = p->tok;
    TX_REQUIRE(tok[v].kind == TX__JSON_ARRAY && tok[v].count == 2 &&
                   tx__json_uint(p->text, &tok[v + 1], &e->begin) &&
                   tx__json_uint(p->text, &tok[v + 2], &e->end),
               TX_INVALID_ARGUMENT,
               "%s: %s: tensor \"%s\": data_offsets must be [begin, end], two integers in "
               "[0, 2^64)", p->op, p->name, e->name);
    return TX_OK;
}

/* One tensor's entry: an object with dtype, shape and data_offsets (other members are ignored,
 * as the crate ignores them). */
static tx_status read_entry(st_parse *p, st_entry *e, size_t v) {
    const tx__json_token *tok = p->tok;
    TX_REQUIRE(tok[v].kind == TX__JSON_OBJECT, TX_INVALID_ARGUMENT,
               "%s: %s: tensor \"%s\" must be an object with dtype, shape and data_offsets",
               p->op, p->name, e->name);
    static const char *const field[3] = {"dtype", "shape", "data_offsets"};
    bool seen[3] = {false, false, false};
    size_t m = v + 1;
    for (size_t i = 0; i < tok[v].count; i++, m = tok[m + 1].next) {
        for (int k = 0; k < 3; k++) {
            if (!tx__json_string_is(p->text, &tok[m], field[k])) continue;
            TX_REQUIRE(!seen[k], TX_INVALID_ARGUMENT, "%s: %s: tensor \"%s\" has %s twice",
                       p->op, p->name, e->name, field[k]);
            seen[k] = true;
            if (k == 0) {
                const tx__json_token *d = &tok[m + 1];
                const size_t quoted = d->kind == TX__JSON_STRING; /* show the quotes */
                e->st = d->kind == TX__JSON_STRING
                            ? tx__st_dtype_by_name(p->text + d->start, d->end - d->start)
                            : NULL;
                TX_REQUIRE(e->st != NULL, TX_INVALID_ARGUMENT,
                           "%s: %s: tensor \"%s\": dtype %.*s is not a safetensors dtype (BOOL, "
                           "U8, I8, ..., F64, C64, F8_E4M3, F8_E5M2, F8_E8M0, F6_E2M3, F6_E3M2, "
                           "F4, ...)", p->op, p->name, e->name,
                           (int)(d->end - d->start + 2 * quoted), p->text + d->start - quoted);
            } else if (k == 1) {
                TX_TRY(read_shape(p, e, m + 1));
            } else {
                TX_TRY(read_offsets(p, e, m + 1));
            }
        }
    }
    for (int k = 0; k < 3; k++)
        TX_REQUIRE(seen[k], TX_INVALID_ARGUMENT, "%s: %s: tensor \"%s\" has no %s", p->op,
                   p->name, e->name, field[k]);
    return TX_OK;
}

static int by_offsets(const void *a, const void *b) {
    const st_entry *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return strcmp(x->name, y->name);
}

static _Thread_local const st_entry *sort_base; /* qsort has no context argument */
static int by_name(const void *a, const void *b) {
    return strcmp(sort_base[*(const size_t *)a].name, sort_base[*(const size_t *)b].name);
}

/* The byte count of e's elements; the crate's rules: no overflow, whole bytes. */
static tx_status entry_bytes(st_parse *p, const st_entry *e, uint64_t *bytes) {
    uint64_t numel = 1, bits;
    for (size_t i = 0; i < e->rank; i++)
        TX_REQUIRE(!__builtin_mul_overflow(numel, (uint64_t)e->dims[i], &numel),
                   TX_INVALID_ARGUMENT, "%s: %s: tensor \"%s\": the shape's element count "
                   "overflows 64 bits", p->op, p->name, e->name);
    TX_REQUIRE(!__builtin_mul_overflow(numel, (uint64_t)e->st->bits, &bits), TX_INVALID_ARGUMENT,
               "%s: %s: tensor \"%s\": %llu elements of %s overflow 64 bits", p->op, p->name,
               e->name, (unsigned long long)numel, e->st->name);
    TX_REQUIRE(bits % 8 == 0, TX_INVALID_ARGUMENT,
               "%s: %s: tensor \"%s\": %llu elements of %s (%u bits) do not fill whole bytes",
               p->op, p->name, e->name, (unsigned long long)numel, e->st->name, e->st->bits);
    *bytes = bits / 8;
    return TX_OK;
}

/* Each name once; the ranges must tile the byte buffer from 0 with no gap or overlap, each
 * exactly its tensor's bytes, and the buffer must end where the file does. */
static tx_status check_ranges(st_parse *p, uint64_t buffer_size) {
    tx_safetensors *f = p->f;
    qsort(f->entries, f->count, sizeof *f->entries, by_offsets);
    /* Names first: a name given twice would otherwise show as an overlap. */
    sort_base = f->entries;
    for (size_t i = 0; i < f->count; i++) f->by_name[i] = i;
    qsort(f->by_name, f->count, sizeof *f->by_name, by_name);
    for (size_t i = 1; i < f->count; i++)
        TX_REQUIRE(strcmp(f->entries[f->by_name[i]].name, f->entries[f->by_name[i - 1]].name) != 0,
                   TX_INVALID_ARGUMENT, "%s: %s: tensor \"%s\" appears twice", p->op, p->name,
                   f->entries[f->by_name[i]].name);
    uint64_t at = 0;
    for (size_t i = 0; i < f->count; i++) {
        const st_entry *e = &f->entries[i];
        TX_REQUIRE(e->begin == at, TX_INVALID_ARGUMENT,
                   "%s: %s: tensor \"%s\": data_offsets [%llu, %llu] %s: the tensors' ranges must "
                   "follow each other from 0 with no gap or overlap (the previous one ends at "
                   "%llu)", p->op, p->name, e->name, (unsigned long long)e->begin,
                   (unsigned long long)e->end, e->begin > at ? "leave a gap" : "overlap",
                   (unsigned long long)at);
        TX_REQUIRE(e->end >= e->begin, TX_INVALID_ARGUMENT,
                   "%s: %s: tensor \"%s\": data_offsets [%llu, %llu] end before they begin",
                   p->op, p->name, e->name, (unsigned long long)e->begin,
                   (unsigned long long)e->end);
        uint64_t bytes = 0;
        TX_TRY(entry_bytes(p, e, &bytes));
        TX_REQUIRE(e->end - e->begin == bytes, TX_INVALID_ARGUMENT,
                   "%s: %s: tensor \"%s\": data_offsets [%llu, %llu] hold %llu bytes, but its %s "
                   "shape needs %llu", p->op, p->name, e->name, (unsigned long long)e->begin,
                   (unsigned long long)e->end, (unsigned long long)(e->end - e->begin),
                   e->st->name, (unsigned long long)bytes);
        at = e->end;
    }
    TX_REQUIRE(at == buffer_size, TX_INVALID_ARGUMENT,
               "%s: %s: the tensors end at byte %llu of the data, but the file holds %llu bytes "
               "after the header: the data must end where the file does", p->op, p->name,
               (unsigned long long)at, (unsigned long long)buffer_size);
    return TX_OK;
}

/* Room for what the header holds: every decoded string fits its raw span plus a NUL; the dims
 * and metadata entries are counted (so a hostile header costs at most its tokens again). */
static tx_status alloc_parts(st_parse *p, size_t header_len, size_t ntok) {
    tx_safetensors *f = p->f;
    const tx__json_token *tok = p->tok;
    size_t dims = 0, meta = 0, m = 1;
    for (size_t i = 0; i < tok[0].count; i++, m = tok[m + 1].next) {
        if (tok[m + 1].kind != TX__JSON_OBJECT) continue;
        if (tx__json_string_is(p->text, &tok[m], "__metadata__")) meta += tok[m + 1].count;
        size_t c = m + 2;
        for (size_t k = 0; k < tok[m + 1].count; k++, c = tok[c + 1].next)
            if (tok[c + 1].kind == TX__JSON_ARRAY && tx__json_string_is(p->text, &tok[c], "shape"))
                dims += tok[c + 1].count;
    }
    f->arena_size = header_len + ntok;
    f->dims_size = (dims ? dims : 1) * sizeof *f->dims;
    f->entries_size = (tok[0].count ? tok[0].count : 1) * sizeof *f->entries;
    f->by_name_size = (tok[0].count ? tok[0].count : 1) * sizeof *f->by_name;
    f->meta_size = (meta ? 2 * meta : 1) * sizeof *f->meta;
    f->arena = tx__alloc(f->arena_size, "safetensors: names");
    f->dims = f->arena ? tx__alloc(f->dims_size, "safetensors: shapes") : NULL;
    f->entries = f->dims ? tx__alloc(f->entries_size, "safetensors: entries") : NULL;
    f->by_name = f->entries ? tx__alloc(f->by_name_size, "safetensors: names") : NULL;
    f->meta = f->by_name ? tx__alloc(f->meta_size, "safetensors: metadata") : NULL;
    return f->meta == NULL ? TX_RESOURCE_EXHAUSTED : TX_OK;
}

/* Parses and checks everything in f->file's bytes. */
static tx_status parse(st_parse *p) {
    tx_safetensors *f = p->f;
    const unsigned char *b = (const unsigned char *)f->file->data;
    const uint64_t size = (uint64_t)f->file->nbytes;
    TX_REQUIRE(size >= 8, TX_INVALID_ARGUMENT,
               "%s: %s: %llu bytes, fewer than the 8-byte header length that starts the format",
               p->op, p->name, (unsigned long long)size);
    uint64_t n = 0;
    for (int i = 7; i >= 0; i--) n = n << 8 | b[i];
    TX_REQUIRE(n <= TX__SAFETENSORS_MAX_HEADER, TX_INVALID_ARGUMENT,
               "%s: %s: header length %llu exceeds the format's limit of %u bytes", p->op,
               p->name, (unsigned long long)n, TX__SAFETENSORS_MAX_HEADER);
    TX_REQUIRE(n <= size - 8, TX_INVALID_ARGUMENT,
               "%s: %s: header length %llu passes the end of the file (%llu bytes after the "
               "length)", p->op, p->name, (unsigned long long)n, (unsigned long long)(size - 8));
    p->text = (const char *)b + 8;
    tx__json_token *tok;
    size_t ntok;
    char what[TX_FILE_NAME_CAP + 16];
    snprintf(what, sizeof what, "%s: header", p->name);
    TX_TRY(tx__json_parse(p->op, what, p->text, (size_t)n, &tok, &ntok));
    p->tok = tok;
    tx_status st = tok[0].kind == TX__JSON_OBJECT
                       ? alloc_parts(p, (size_t)n, ntok)
                       : tx__fail(TX_INVALID_ARGUMENT, "%s: %s: the header must be a JSON object",
                                  p->op, p->name);
    bool meta_seen = false;
    size_t m = 1;
    for (size_t i = 0; st == TX_OK && i < tok[0].count; i++, m = tok[m + 1].next) {
        if (tx__json_string_is(p->text, &tok[m], "__metadata__")) {
            st = meta_seen ? tx__fail(TX_INVALID_ARGUMENT, "%s: %s: __metadata__ appears twice",
                                      p->op, p->name)
                           : read_metadata(p, m + 1);
            meta_seen = true;
            continue;
        }
        st_entry *e = &f->entries[f->count];
        st = arena_string(p, &tok[m], "a tensor name", &e->name);
        if (st == TX_OK) st = read_entry(p, e, m + 1);
        if (st == TX_OK) f->count++;
    }
    if (st == TX_OK) st = check_ranges(p, size - 8 - n);
    tx__free(tok, ntok * sizeof *tok);
    f->data = f->file->data + 8 + n;
    return st;
}

/* Opens over `file` (consumed: freed on failure). */
static tx_status open_bytes(const char *op, const char *name, tx_tensor *file,
                            tx_safetensors **out) {
    tx_safetensors *f = tx__alloc_header(sizeof *f, op);
    if (f == NULL) {
        tx_tensor_free(file);
        return TX_RESOURCE_EXHAUSTED;
    }
    memset(f, 0, sizeof *f);
    f->file = file;
    st_parse p = {.op = op, .name = name, .f = f};
    tx_status st = parse(&p);
    if (st != TX_OK) {
        close_file(f);
        return st;
    }
    *out = f;
    return TX_OK;
}

tx_status tx_safetensors_open_buffer(const void *data, size_t size, tx_safetensors **out) {
    static const char *op = "safetensors_open_buffer";
    TX_REQUIRE(out != NULL, TX_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    tx_tensor *file;
    TX_TRY(tx__copy_whole_buffer(op, data, size, &file));
    return open_bytes(op, "the buffer", file, out);
}

tx_status tx_safetensors_open(const char *path, tx_safetensors **out) {
    static const char *op = "safetensors_open";
    TX_REQUIRE(out != NULL, TX_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", op);
    tx_tensor *file;
    TX_TRY(tx__map_whole_file(op, path, &file));
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    return open_bytes(op, name, file, out);
}

size_t tx_safetensors_count(const tx_safetensors *file) {
    return file ? file->count : 0;
}

const char *tx_safetensors_name(const tx_safetensors *file, size_t i) {
    return file && i < file->count ? file->entries[i].name : NULL;
}

size_t tx_safetensors_metadata_count(const tx_safetensors *file) {
    return file ? file->nmeta : 0;
}

const char *tx_safetensors_metadata_key(const tx_safetensors *file, size_t i) {
    return file && i < file->nmeta ? file->meta[2 * i] : NULL;
}

const char *tx_safetensors_metadata_value(const tx_safetensors *file, size_t i) {
    return file && i < file->nmeta ? file->meta[2 * i + 1] : NULL;
}

/* A new tensor holding e's bytes at p, as tensorx holds them: host byte order, bool bytes 0 or
 * 1.  For the bytes that cannot be used in place. */
static tx_status copy_entry(const char *op, const st_entry *e, const char *p, tx_tensor **out) {
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, e->st->dtype, e->rank, e->dims, &t));
    if (t->nbytes) memcpy(t->data, p, t->nbytes);
    size_t size = tx_dtype_size(e->st->dtype);
    size_t unit = tx_dtype_kind_of(e->st->dtype) == TX_KIND_COMPLEX ? size / 2 : size;
    if (!TX_HOST_LITTLE_ENDIAN && unit > 1) tx__swap_units(t->data, t->nbytes / unit, unit);
    if (e->st->dtype == TX_BOOL) tx__normalise_bool(t->data, t->numel);
    t->read_only = true;
    *out = t;
    return TX_OK;
}

static bool bool_canonical(const char *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)p[i] > 1) return false;
    return true;
}

tx_status tx_safetensors_get(const tx_safetensors *file, const char *name, tx_tensor **out) {
    static const char *op = "safetensors_get";
    TX_REQUIRE(out != NULL, TX_INVALID_ARGUMENT, "%s: out is NULL", op);
    *out = NULL;
    TX_REQUIRE(file != NULL, TX_INVALID_ARGUMENT, "%s: file is NULL", op);
    TX_REQUIRE(name != NULL, TX_INVALID_ARGUMENT, "%s: name is NULL", op);
    size_t lo = 0, hi = file->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(file->entries[file->by_name[mid]].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    TX_REQUIRE(lo < file->count && strcmp(file->entries[file->by_name[lo]].name, name) == 0,
               TX_INVALID_ARGUMENT, "%s: name \"%s\" is not a tensor of the file", op, name);
    const st_entry *e = &file->entries[file->by_name[lo]];
    char *p = file->data + e->begin;
    size_t nbytes = (size_t)(e->end - e->begin);
    if (e->st->bits < 8) { /* F4, F6: packed; tensorx holds one element per byte */
        TX_TRY(tx__from_packed(op, e->st->dtype, e->rank, e->dims, p, nbytes, out));
        (*out)->read_only = true;
        return TX_OK;
    }
    size_t size = tx_dtype_size(e->st->dtype), align = size > 8 ? 8 : size;
    bool in_place = ((uintptr_t)p % align) == 0 && (TX_HOST_LITTLE_ENDIAN || size == 1) &&
                    (e->st->dtype != TX_BOOL || bool_canonical(p, nbytes));
    if (!in_place) return copy_entry(op, e, p, out);
    return tx__buffer_view(op, file->file->buf, p, e->st->dtype, e->rank, e->dims, out);
}
