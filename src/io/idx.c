/* SPDX-License-Identifier: Apache-2.0 */
/* idx.c -- IDX files (MNIST's format, include/tensorx/idx.h): reading from a mapped file or a
 * buffer, plain or gzip'd (through zstream.h, with memory bounded by the output), and writing to
 * a file (replaced whole, gzip'd for a ".gz" path) or a buffer.  Every length in the header is
 * checked against the bytes that remain before anything is allocated. */
#include "core/internal.h"
#include "exec/byteswap.h"
#include "io/file_replace.h"
#include "io/mmap_internal.h"
#include "io/zstream.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The IDX type codes and their dtypes. */
static const struct {
    unsigned char code;
    tx_dtype dtype;
} IDX_TYPES[] = {
    {0x08, TX_UINT8}, {0x09, TX_INT8},    {0x0B, TX_INT16},
    {0x0C, TX_INT32}, {0x0D, TX_FLOAT32}, {0x0E, TX_FLOAT64},
};
#define IDX_NTYPES (sizeof IDX_TYPES / sizeof IDX_TYPES[0])
#define IDX_TYPE_LIST                                                                          \
    "0x08 (uint8), 0x09 (int8), 0x0B (int16), 0x0C (int32), 0x0D (float32), 0x0E (float64)"
#define IDX_DTYPE_LIST "uint8, int8, int16, int32, float32 and float64"

/* The largest header: 4 bytes and a uint32 per dim. */
#define IDX_MAX_HEADER (4 + 4 * TX_MAX_RANK)

static uint32_t load_be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* A checked header. */
typedef struct {
    tx_dtype dtype;
    size_t rank;
    int64_t dims[TX_MAX_RANK];
    uint64_t nbytes; /* the data's */
} idx_header;

/* The first 4 bytes (got of them are there): magic, type code, rank. */
static tx_status check_start(const char *op, const char *name, const unsigned char *h, size_t got,
                             idx_header *hd) {
    TX_REQUIRE(got >= 4, TX_DATA_LOSS, "%s: %s: the header is cut short: %zu of its first 4 bytes",
               op, name, got);
    TX_REQUIRE(h[0] == 0 && h[1] == 0, TX_INVALID_ARGUMENT,
               "%s: %s: magic: bytes 0 and 1 must be 0, found 0x%02x 0x%02x (not an IDX file)",
               op, name, h[0], h[1]);
    size_t k = 0;
    while (k < IDX_NTYPES && IDX_TYPES[k].code != h[2]) k++;
    TX_REQUIRE(k < IDX_NTYPES, TX_INVALID_ARGUMENT,
               "%s: %s: type code (byte 2) 0x%02x is not one of " IDX_TYPE_LIST, op, name, h[2]);
    TX_REQUIRE(h[3] <= TX_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: %s: rank (byte 3) %u exceeds the maximum of %d", op, name, h[3], TX_MAX_RANK);
    hd->dtype = IDX_TYPES[k].dtype;
    hd->rank = h[3];
    return TX_OK;
}

/* The dims (got bytes of the 4 * rank after the first 4) and the data's byte count. */
static tx_status check_dims(const char *op, const char *name, const unsigned char *p, size_t got,
                            idx_header *hd) {
    TX_REQUIRE(got >= 4 * hd->rank, TX_DATA_LOSS,
               "%s: %s: the header is cut short: rank %zu needs %zu bytes of dims, %zu remain", op,
               name, hd->rank, 4 * hd->rank, got);
    uint64_t n = tx_dtype_size(hd->dtype);
    for (size_t i = 0; i < hd->rank; i++) {
        hd->dims[i] = load_be32(p + 4 * i);
        TX_REQUIRE(!__builtin_mul_overflow(n, (uint64_t)hd->dims[i], &n) && n <= INT64_MAX,
                   TX_INVALID_ARGUMENT,
                   "%s: %s: dims: the data's byte count overflows at dim %zu (%lld)", op, name, i,
                   (long long)hd->dims[i]);
    }
    hd->nbytes = n;
    return TX_OK;
}

/* The tensor of hd over the data at p (exactly hd->nbytes there).  `file` is the mapped file that
 * holds p, or NULL (p is the caller's): 1-byte data of a file is a view of it, the rest is copied
 * and put in host byte order. */
static tx_status make_tensor(const char *op, const idx_header *hd, const unsigned char *p,
                             tx_tensor *file, tx_tensor **out) {
    size_t size = tx_dtype_size(hd->dtype);
    if (file != NULL && size == 1)
        return tx__buffer_view(op, file->buf, (char *)(uintptr_t)p, hd->dtype, hd->rank, hd->dims,
                               out);
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, hd->dtype, hd->rank, hd->dims, &t));
    if (t->nbytes) memcpy(t->data, p, t->nbytes);
    if (TX_HOST_LITTLE_ENDIAN) tx__swap_units(t->data, t->nbytes / size, size);
    *out = t;
    return TX_OK;
}

/* Reads the IDX file in the n uncompressed bytes at p. */
static tx_status read_plain(const char *op, const char *name, const unsigned char *p, size_t n,
                            tx_tensor *file, tx_tensor **out) {
    idx_header hd;
    TX_TRY(check_start(op, name, p, n, &hd));
    TX_TRY(check_dims(op, name, p + 4, n - 4, &hd));
    size_t head = 4 + 4 * hd.rank, left = n - head;
    TX_REQUIRE(hd.nbytes <= left, TX_DATA_LOSS,
               "%s: %s: truncated: the dims announce %llu bytes of data, %zu remain", op, name,
               (unsigned long long)hd.nbytes, left);
    TX_REQUIRE(hd.nbytes == left, TX_INVALID_ARGUMENT,
               "%s: %s: %llu bytes follow the %llu bytes of data the dims announce", op, name,
               (unsigned long long)(left - hd.nbytes), (unsigned long long)hd.nbytes);
    return make_tensor(op, &hd, p + head, file, out);
}

/* Reads exactly n bytes of z into dst, or fails with data_loss (the stream is cut short). */
static tx_status z_exact(const char *op, const char *name, tx__zsource *z, void *dst, size_t n,
                         const char *what) {
    size_t got;
    TX_TRY(tx__zsource_read(z, dst, n, &got));
    TX_REQUIRE(got == n, TX_DATA_LOSS,
               "%s: %s: truncated: %s needs %zu bytes, the decompressed stream has %zu", op, name,
               what, n, got);
    return TX_OK;
}

/* Reads the IDX file in the gzip stream z: the header, then the data straight into the tensor
 * (no larger than tx_max_tensor_bytes(), checked before allocating), then the stream's end. */
static tx_status read_z(const char *op, const char *name, tx__zsource *z, tx_tensor **out) {
    unsigned char h[IDX_MAX_HEADER];
    size_t got;
    idx_header hd;
    TX_TRY(tx__zsource_read(z, h, 4, &got));
    TX_TRY(check_start(op, name, h, got, &hd));
    TX_TRY(tx__zsource_read(z, h + 4, 4 * hd.rank, &got));
    TX_TRY(check_dims(op, name, h + 4, got, &hd));
    size_t max = tx_max_tensor_bytes();
    TX_REQUIRE(hd.nbytes <= max, TX_RESOURCE_EXHAUSTED,
               "%s: %s: the dims announce %llu bytes of data, more than tx_max_tensor_bytes() "
               "(%zu)", op, name, (unsigned long long)hd.nbytes, max);
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, hd.dtype, hd.rank, hd.dims, &t));
    unsigned char extra;
    tx_status st = z_exact(op, name, z, t->data, t->nbytes, "the data the dims announce");
    if (st == TX_OK) st = tx__zsource_read(z, &extra, 1, &got);
    if (st == TX_OK && got != 0)
        st = tx__fail(TX_INVALID_ARGUMENT, "%s: %s: bytes follow the %zu bytes of data the dims "
                      "announce", op, name, t->nbytes);
    if (st == TX_OK && !tx__zsource_ended(z))
        st = tx__fail(TX_DATA_LOSS, "%s: %s: truncated: the gzip stream stops before its end",
                      op, name);
    if (st != TX_OK) {
        tx_tensor_free(t);
        return st;
    }
    size_t size = tx_dtype_size(hd.dtype);
    if (TX_HOST_LITTLE_ENDIAN) tx__swap_units(t->data, t->nbytes / size, size);
    *out = t;
    return TX_OK;
}

/* Reads the n bytes at p: gzip'd (they start with gzip's magic 1f 8b; an IDX file starts with
 * 00 00) or plain. */
static tx_status read_bytes(const char *op, const char *name, const unsigned char *p, size_t n,
                            tx_tensor *file, tx_tensor **out) {
    if (n < 2 || p[0] != 0x1f || p[1] != 0x8b) return read_plain(op, name, p, n, file, out);
    tx__zsource *z;
    TX_TRY(tx__zsource_open(op, name, TX__Z_GZIP, p, n, &z));
    tx_status st = read_z(op, name, z, out);
    tx__zsource_close(z);
    return st;
}

tx_status tx_idx_load_buffer(const void *data, size_t size, tx_tensor **out) {
    static const char *op = "idx_load_buffer";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(data != NULL || size == 0, TX_INVALID_ARGUMENT, "%s: data is NULL with size %zu",
               op, size);
    return read_bytes(op, "the buffer", data, size, NULL, out);
}

tx_status tx_idx_load(const char *path, tx_tensor **out) {
    static const char *op = "idx_load";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", op);
    tx_tensor *file;
    TX_TRY(tx__map_whole_file(op, path, &file));
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    const tx_status st =
        read_bytes(op, name, (const unsigned char *)file->data, file->nbytes, file, out);
    tx_tensor_free(file); /* a view keeps the mapping */
    return st;
}

/* ---- writing ---- */

/* Where written bytes go: a buffer (buf), a file descriptor, or a gzip sink over the descriptor. */
typedef struct {
    const char *op, *name;
    unsigned char *buf;
    size_t pos;
    int fd;
    tx__zsink *z;
    const tx_tensor *t; /* what tx_idx_save's fill_file writes */
} idx_sink;

static tx_status fd_put(void *ctx, const void *p, size_t n) {
    const idx_sink *k = ctx;
    return tx__write_all(k->op, k->fd, k->name, p, n);
}

static tx_status sink_put(idx_sink *k, const void *p, size_t n) {
    if (k->buf) {
        if (n) memcpy(k->buf + k->pos, p, n);
        k->pos += n;
        return TX_OK;
    }
    return k->z ? tx__zsink_write(k->z, p, n) : fd_put(k, p, n);
}

/* The header of t into h; returns its length. */
static size_t make_header(const tx_tensor *t, unsigned char *h) {
    size_t k = 0;
    while (IDX_TYPES[k].dtype != t->dtype) k++;
    h[0] = h[1] = 0;
    h[2] = IDX_TYPES[k].code;
    h[3] = (unsigned char)t->rank;
    for (size_t i = 0; i < t->rank; i++) store_be32(h + 4 + 4 * i, (uint32_t)t->dims[i]);
    return 4 + 4 * t->rank;
}

/* Checks that t can be an IDX file: a dtype with a type code, every dim a uint32. */
static tx_status check_tensor(const char *op, const tx_tensor *t) {
    TX_REQUIRE(t != NULL, TX_INVALID_ARGUMENT, "%s: tensor is NULL", op);
    size_t k = 0;
    while (k < IDX_NTYPES && IDX_TYPES[k].dtype != t->dtype) k++;
    TX_REQUIRE(k < IDX_NTYPES, TX_INVALID_ARGUMENT,
               "%s: tensor: dtype %s has no IDX type code (IDX holds " IDX_DTYPE_LIST ")", op,
               tx_dtype_name(t->dtype));
    for (size_t i = 0; i < t->rank; i++)
        TX_REQUIRE(t->dims[i] <= UINT32_MAX, TX_INVALID_ARGUMENT,
                   "%s: tensor: dim %zu (%lld) exceeds an IDX dim's maximum, 4294967295", op, i,
                   (long long)t->dims[i]);
    return TX_OK;
}

/* Writes t's header and data (big-endian, through a window on little-endian hosts). */
static tx_status put_file(idx_sink *k, const tx_tensor *t) {
    unsigned char h[IDX_MAX_HEADER];
    TX_TRY(sink_put(k, h, make_header(t, h)));
    size_t size = tx_dtype_size(t->dtype);
    if (!TX_HOST_LITTLE_ENDIAN || size == 1) return sink_put(k, t->data, t->nbytes);
    enum { WINDOW = 64 * 1024 };
    size_t cap = t->nbytes < WINDOW ? t->nbytes : WINDOW;
    char *win = tx__alloc(cap ? cap : 1, k->op);
    if (win == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = TX_OK;
    for (size_t done = 0; st == TX_OK && done < t->nbytes; done += cap) {
        size_t m = t->nbytes - done < cap ? t->nbytes - done : cap;
        memcpy(win, t->data + done, m);
        tx__swap_units(win, m / size, size);
        st = sink_put(k, win, m);
    }
    int err = errno;
    tx__free(win, cap ? cap : 1);
    errno = err;
    return st;
}

tx_status tx_idx_save_buffer(const tx_tensor *tensor, void **data, size_t *size) {
    static const char *op = "idx_save_buffer";
    TX_REQUIRE(data != NULL && size != NULL, TX_INVALID_ARGUMENT, "%s: data or size is NULL", op);
    *data = NULL;
    *size = 0;
    TX_TRY(check_tensor(op, tensor));
    size_t total = 4 + 4 * tensor->rank;
    TX_REQUIRE(tensor->nbytes <= SIZE_MAX - total, TX_RESOURCE_EXHAUSTED,
               "%s: the file's size passes size_t", op);
    total += tensor->nbytes;
    unsigned char *buf = tx__alloc(total, op);
    if (buf == NULL) return TX_RESOURCE_EXHAUSTED;
    idx_sink k = {op, "the buffer", buf, 0, -1, NULL, tensor};
    tx_status st = put_file(&k, tensor);
    if (st != TX_OK) {
        tx__free(buf, total);
        return st;
    }
    *data = buf;
    *size = total;
    return TX_OK;
}

static tx_status fill_file(int fd, const char *name, void *ctx) {
    idx_sink *k = ctx;
    k->fd = fd;
    k->name = name;
    tx_status st = put_file(k, k->t);
    return st == TX_OK && k->z ? tx__zsink_finish(k->z) : st;
}

static bool ends_with(const char *s, const char *tail) {
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

tx_status tx_idx_save(const char *path, const tx_tensor *tensor) {
    static const char *op = "idx_save";
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", op);
    TX_TRY(check_tensor(op, tensor));
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    idx_sink k = {op, name, NULL, 0, -1, NULL, tensor};
    if (ends_with(path, ".gz")) TX_TRY(tx__zsink_open(op, TX__Z_GZIP, fd_put, &k, &k.z));
    tx_status st = tx__file_replace(op, path, name, ends_with(path, ".gz") ? ".gz" : ".idx",
                                    fill_file, &k);
    int err = errno;
    tx__zsink_close(k.z);
    errno = err;
    return st;
}
