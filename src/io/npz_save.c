/* SPDX-License-Identifier: Apache-2.0 */
/* npz_save.c -- writing NumPy .npz files (tx_npz_save, tx_npz_save_buffer) with the bytes
 * np.savez and np.savez_compressed write through Python's zipfile: for each member a local header
 * (zipfile's defaults: version 20, date 1980-01-01, and the ZIP64 extra field NumPy forces), the
 * member's .npy (tx_npy_save's bytes), stored or raw-deflated; then the central directory
 * (permissions 0600, creator Unix) and the end records, ZIP64's where zipfile writes them (past
 * its limit of 2^31 - 1 bytes or 65535 members). */
#include "io/file_replace.h"
#include "io/json.h"
#include "io/mmap_internal.h"
#include "io/zstream.h"

#include <errno.h>
#include <stdio.h>

/* zipfile's thresholds: ZIP64_LIMIT and ZIP_FILECOUNT_LIMIT. */
#define ZIP64_LIMIT ((1ull << 31) - 1)
#define FILECOUNT_LIMIT 0xFFFFu

/* A growable byte buffer (a deflated member, or tx_npz_save_buffer's file). */
typedef struct {
    unsigned char *p;
    size_t n, cap;
    const char *op;
} growbuf;

static tx_status grow_put(growbuf *g, const void *p, size_t n) {
    if (n > g->cap - g->n) {
        size_t cap = g->cap ? g->cap : 4096;
        while (cap - g->n < n) {
            TX_REQUIRE(cap <= SIZE_MAX / 2, TX_RESOURCE_EXHAUSTED,
                       "%s: the file's size passes size_t", g->op);
            cap *= 2;
        }
        unsigned char *q = tx__alloc(cap, g->op);
        if (q == NULL) return TX_RESOURCE_EXHAUSTED;
        if (g->n) memcpy(q, g->p, g->n);
        tx__free(g->p, g->cap);
        g->p = q;
        g->cap = cap;
    }
    if (n) memcpy(g->p + g->n, p, n);
    g->n += n;
    return TX_OK;
}

static tx_status grow_write(void *ctx, const void *p, size_t n) { return grow_put(ctx, p, n); }

static void grow_free(growbuf *g) {
    tx__free(g->p, g->cap);
    g->p = NULL;
    g->n = g->cap = 0;
}

/* Where the file goes: a descriptor (fd >= 0) or a growable buffer; pos counts the bytes. */
typedef struct {
    const char *op, *name;
    int fd;
    growbuf buf;
    uint64_t pos;
} npz_out;

static tx_status out_put(npz_out *o, const void *p, size_t n) {
    tx_status st =
        o->fd >= 0 ? tx__write_all(o->op, o->fd, o->name, p, n) : grow_put(&o->buf, p, n);
    if (st == TX_OK) o->pos += n;
    return st;
}

/* What the central directory says of a member. */
typedef struct {
    const char *name; /* without ".npy" */
    uint16_t flags, method;
    uint32_t crc;
    uint64_t csize, usize, offset;
} npz_entry;

/* A member's .npy: head (a header, or the whole file for tensors tx_npy_save converts) then
 * body (the tensor's own bytes, or nothing). */
typedef struct {
    char header[TX_NPY_HEADER_MAX];
    void *whole;
    size_t whole_size;
    const void *head, *body;
    size_t head_n, body_n;
} npy_bytes;

static tx_status npy_bytes_of(const tx_tensor *t, npy_bytes *b) {
    memset(b, 0, sizeof *b);
    size_t unit = tx_dtype_kind_of(t->dtype) == TX_KIND_COMPLEX ? tx_dtype_size(t->dtype) / 2
                                                                 : tx_dtype_size(t->dtype);
    if (t->dtype == TX_STRING || (!TX_HOST_LITTLE_ENDIAN && unit > 1)) {
        TX_TRY(tx_npy_save_buffer(t, &b->whole, &b->whole_size));
        b->head = b->whole;
        b->head_n = b->whole_size;
        return TX_OK;
    }
    TX_TRY(tx_npy_write_header(t->dtype, t->rank, t->dims, b->header, sizeof b->header,
                               &b->head_n));
    b->head = b->header;
    b->body = t->data;
    b->body_n = t->nbytes;
    return TX_OK;
}

static void store16(unsigned char *p, unsigned v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
}
static void store32(unsigned char *p, uint32_t v) {
    store16(p, v & 0xFFFF);
    store16(p + 2, v >> 16);
}
static void store64(unsigned char *p, uint64_t v) {
    store32(p, (uint32_t)v);
    store32(p + 4, (uint32_t)(v >> 32));
}

/* dosdate of 1980-01-01 (zipfile's ZipInfo default); dostime 0. */
#define DOS_DATE ((0u << 9) | (1u << 5) | 1u)

/* The local header of e (zipfile's FileHeader(zip64=True)) and its name. */
static tx_status put_local(npz_out *o, const npz_entry *e) {
    bool large = e->usize > ZIP64_LIMIT || e->csize > ZIP64_LIMIT;
    size_t nlen = strlen(e->name) + 4;
    unsigned char h[30];
    store32(h, 0x04034b50u);
    h[4] = large ? 45 : 20;
    h[5] = 0;
    store16(h + 6, e->flags);
    store16(h + 8, e->method);
    store16(h + 10, 0);
    store16(h + 12, DOS_DATE);
    store32(h + 14, e->crc);
    store32(h + 18, large ? 0xFFFFFFFFu : (uint32_t)e->csize);
    store32(h + 22, large ? 0xFFFFFFFFu : (uint32_t)e->usize);
    store16(h + 26, (unsigned)nlen);
    store16(h + 28, 20);
    unsigned char x[20];
    store16(x, 1);
    store16(x + 2, 16);
    store64(x + 4, e->usize);
    store64(x + 12, e->csize);
    TX_TRY(out_put(o, h, sizeof h));
    TX_TRY(out_put(o, e->name, nlen - 4));
    TX_TRY(out_put(o, ".npy", 4));
    return out_put(o, x, sizeof x);
}

/* The central directory entry of e (zipfile's _write_end_record). */
static tx_status put_central(npz_out *o, const npz_entry *e) {
    uint64_t extra[3];
    size_t nx = 0;
    bool large = e->usize > ZIP64_LIMIT || e->csize > ZIP64_LIMIT;
    if (large) {
        extra[nx++] = e->usize;
        extra[nx++] = e->csize;
    }
    if (e->offset > ZIP64_LIMIT) extra[nx++] = e->offset;
    size_t nlen = strlen(e->name) + 4;
    unsigned char c[46];
    store32(c, 0x02014b50u);
    c[4] = nx ? 45 : 20; /* create_version */
    c[5] = 3;            /* create_system: Unix */
    c[6] = nx ? 45 : 20; /* extract_version */
    c[7] = 0;
    store16(c + 8, e->flags);
    store16(c + 10, e->method);
    store16(c + 12, 0);
    store16(c + 14, DOS_DATE);
    store32(c + 16, e->crc);
    store32(c + 20, large ? 0xFFFFFFFFu : (uint32_t)e->csize);
    store32(c + 24, large ? 0xFFFFFFFFu : (uint32_t)e->usize);
    store16(c + 28, (unsigned)nlen);
    store16(c + 30, nx ? (unsigned)(4 + 8 * nx) : 0);
    store16(c + 32, 0);
    store16(c + 34, 0);
    store16(c + 36, 0);
    store32(c + 38, 0600u << 16); /* external_attr: ?rw------- */
    store32(c + 42, e->offset > ZIP64_LIMIT ? 0xFFFFFFFFu : (uint32_t)e->offset);
    TX_TRY(out_put(o, c, sizeof c));
    TX_TRY(out_put(o, e->name, nlen - 4));
    TX_TRY(out_put(o, ".npy", 4));
    if (nx == 0) return TX_OK;
    unsigned char x[4 + 24];
    store16(x, 1);
    store16(x + 2, (unsigned)(8 * nx));
    for (size_t k = 0; k < nx; k++) store64(x + 4 + 8 * k, extra[k]);
    return out_put(o, x, 4 + 8 * nx);
}

/* The end records after the central directory [cd_offset, o->pos) of count entries. */
static tx_status put_end(npz_out *o, uint64_t count, uint64_t cd_offset) {
    uint64_t cd_size = o->pos - cd_offset;
    if (count > FILECOUNT_LIMIT || cd_offset > ZIP64_LIMIT || cd_size > ZIP64_LIMIT) {
        unsigned char r[56 + 20];
        store32(r, 0x06064b50u);
        store64(r + 4, 44);
        store16(r + 12, 45);
        store16(r + 14, 45);
        store32(r + 16, 0);
        store32(r + 20, 0);
        store64(r + 24, count);
        store64(r + 32, count);
        store64(r + 40, cd_size);
        store64(r + 48, cd_offset);
        store32(r + 56, 0x07064b50u);
        store32(r + 60, 0);
        store64(r + 64, o->pos);
        store32(r + 72, 1);
        TX_TRY(out_put(o, r, sizeof r));
    }
    unsigned char e[22];
    store32(e, 0x06054b50u);
    store16(e + 4, 0);
    store16(e + 6, 0);
    store16(e + 8, count > FILECOUNT_LIMIT ? FILECOUNT_LIMIT : (unsigned)count);
    store16(e + 10, count > FILECOUNT_LIMIT ? FILECOUNT_LIMIT : (unsigned)count);
    store32(e + 12, cd_size > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)cd_size);
    store32(e + 16, cd_offset > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)cd_offset);
    store16(e + 20, 0);
    return out_put(o, e, sizeof e);
}

/* One member: its .npy's CRC-32 and sizes, the local header, the data (deflated into memory
 * first when compressed: the header precedes the data and holds their size). */
static tx_status put_member(npz_out *o, const tx_tensor *t, bool compressed, npz_entry *e) {
    npy_bytes b;
    TX_TRY(npy_bytes_of(t, &b));
    e->offset = o->pos;
    e->method = compressed ? 8 : 0;
    e->crc = tx__crc32(tx__crc32(0, b.head, b.head_n), b.body, b.body_n);
    e->usize = (uint64_t)b.head_n + b.body_n;
    growbuf z = {.op = o->op};
    tx_status st = TX_OK;
    if (compressed) {
        tx__zsink *k;
        st = tx__zsink_open(o->op, TX__Z_RAW, grow_write, &z, &k);
        if (st == TX_OK) st = tx__zsink_write(k, b.head, b.head_n);
        if (st == TX_OK) st = tx__zsink_write(k, b.body, b.body_n);
        if (st == TX_OK) st = tx__zsink_finish(k);
        tx__zsink_close(k);
        e->csize = z.n;
    } else {
        e->csize = e->usize;
    }
    if (st == TX_OK) st = put_local(o, e);
    if (st == TX_OK && compressed) st = out_put(o, z.p, z.n);
    if (st == TX_OK && !compressed) st = out_put(o, b.head, b.head_n);
    if (st == TX_OK && !compressed) st = out_put(o, b.body, b.body_n);
    int err = errno;
    grow_free(&z);
    tx__free(b.whole, b.whole_size);
    errno = err;
    return st;
}

typedef struct {
    size_t count;
    const char *const *names;
    const tx_tensor *const *tensors;
    bool compressed;
    npz_entry *entries;
} npz_job;

static tx_status put_file(npz_out *o, const npz_job *j) {
    for (size_t i = 0; i < j->count; i++)
        TX_TRY(put_member(o, j->tensors[i], j->compressed, &j->entries[i]));
    uint64_t cd_offset = o->pos;
    for (size_t i = 0; i < j->count; i++) TX_TRY(put_central(o, &j->entries[i]));
    return put_end(o, j->count, cd_offset);
}

/* The arguments' rules; fills the entries' names and flags. */
static tx_status check_args(const char *op, const npz_job *j) {
    TX_REQUIRE(j->count == 0 || (j->names != NULL && j->tensors != NULL), TX_INVALID_ARGUMENT,
               "%s: names or tensors is NULL with count %zu", op, j->count);
    for (size_t i = 0; i < j->count; i++) {
        const char *n = j->names[i];
        TX_REQUIRE(n != NULL && j->tensors[i] != NULL, TX_INVALID_ARGUMENT,
                   "%s: %s[%zu] is NULL", op, n == NULL ? "names" : "tensors", i);
        size_t len = strlen(n), bad;
        TX_REQUIRE(len <= 0xFFFF - 4, TX_INVALID_ARGUMENT,
                   "%s: names[%zu] is %zu bytes long; a ZIP member name (with \".npy\") holds "
                   "65535 at most", op, i, len);
        TX_REQUIRE(tx__utf8_valid((const unsigned char *)n, len, &bad), TX_INVALID_ARGUMENT,
                   "%s: names[%zu] is not valid UTF-8 (at byte %zu)", op, i, bad);
        for (size_t k = 0; k < i; k++)
            TX_REQUIRE(strcmp(j->names[k], n) != 0, TX_INVALID_ARGUMENT,
                       "%s: names[%zu] and names[%zu] are both \"%s\"", op, k, i, n);
        bool ascii = true;
        for (size_t k = 0; k < len; k++) ascii = ascii && (unsigned char)n[k] < 0x80;
        j->entries[i].name = n;
        j->entries[i].flags = ascii ? 0 : 0x800; /* zipfile flags UTF-8 names */
    }
    return TX_OK;
}

/* Checks the arguments into a new entry array (*entries, count long). */
static tx_status start_job(const char *op, npz_job *j) {
    j->entries = NULL;
    if (j->count) {
        TX_REQUIRE(j->count <= SIZE_MAX / sizeof *j->entries, TX_RESOURCE_EXHAUSTED,
                   "%s: count %zu is too large", op, j->count);
        j->entries = tx__alloc(j->count * sizeof *j->entries, op);
        if (j->entries == NULL) return TX_RESOURCE_EXHAUSTED;
        memset(j->entries, 0, j->count * sizeof *j->entries);
    }
    tx_status st = check_args(op, j);
    if (st != TX_OK) {
        tx__free(j->entries, j->count * sizeof *j->entries);
        j->entries = NULL;
    }
    return st;
}

tx_status tx_npz_save_buffer(size_t count, const char *const *names,
                             const tx_tensor *const *tensors, int compressed, void **data,
                             size_t *size) {
    static const char *op = "npz_save_buffer";
    TX_REQUIRE(data != NULL && size != NULL, TX_INVALID_ARGUMENT, "%s: data or size is NULL", op);
    *data = NULL;
    *size = 0;
    npz_job j = {count, names, tensors, compressed != 0, NULL};
    TX_TRY(start_job(op, &j));
    npz_out o = {.op = op, .name = "the buffer", .fd = -1, .buf = {.op = op}};
    tx_status st = put_file(&o, &j);
    tx__free(j.entries, count * sizeof *j.entries);
    if (st != TX_OK) {
        grow_free(&o.buf);
        return st;
    }
    /* The caller frees exactly size bytes (never 0: the end record alone is 22). */
    unsigned char *exact = o.buf.n == o.buf.cap ? o.buf.p : tx__alloc(o.buf.n, op);
    if (exact == NULL) {
        grow_free(&o.buf);
        return TX_RESOURCE_EXHAUSTED;
    }
    if (exact != o.buf.p) {
        memcpy(exact, o.buf.p, o.buf.n);
        grow_free(&o.buf);
    }
    *data = exact;
    *size = (size_t)o.pos;
    return TX_OK;
}

typedef struct {
    const char *op;
    const npz_job *j;
} fill_ctx;

static tx_status fill_file(int fd, const char *name, void *ctx) {
    const fill_ctx *c = ctx;
    npz_out o = {.op = c->op, .name = name, .fd = fd};
    return put_file(&o, c->j);
}

tx_status tx_npz_save(const char *path, size_t count, const char *const *names,
                      const tx_tensor *const *tensors, int compressed) {
    static const char *op = "npz_save";
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", op);
    npz_job j = {count, names, tensors, compressed != 0, NULL};
    TX_TRY(start_job(op, &j));
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    fill_ctx c = {op, &j};
    tx_status st = tx__file_replace(op, path, name, ".npz", fill_file, &c);
    int err = errno;
    tx__free(j.entries, count * sizeof *j.entries);
    errno = err;
    return st;
}
