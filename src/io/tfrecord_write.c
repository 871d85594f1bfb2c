/* SPDX-License-Identifier: Apache-2.0 */
/* tfrecord_write.c -- writing TFRecord files (tensorx/tfrecord.h): each element of a string
 * tensor framed as tensorflow/core/lib/io/record_writer.cc frames it, into a file replaced whole
 * (file_replace.c) or a buffer, optionally through zstream.c's compressor. */
#include "io/file_replace.h"
#include "io/mmap_internal.h"
#include "io/tfrecord_internal.h"
#include "io/zstream.h"

#include <errno.h>
#include <stdio.h>

static const char *const OP = "tfrecord";

/* Where the framed bytes go: a file descriptor or a growing buffer, maybe through a compressor. */
typedef struct {
    int fd;                /* -1: the buffer */
    const char *name;
    unsigned char *buf;
    size_t n, cap;
    tx__zsink *z;
} sink;

static tx_status to_buffer(sink *k, const void *p, size_t n) {
    if (n > k->cap - k->n) {
        size_t cap = k->cap ? k->cap : 4096;
        while (cap - k->n < n) {
            TX_REQUIRE(cap <= SIZE_MAX / 2, TX_RESOURCE_EXHAUSTED,
                       "%s: the file does not fit in memory", OP);
            cap *= 2;
        }
        unsigned char *q = tx__alloc(cap, "tfrecord: file buffer");
        if (q == NULL) return TX_RESOURCE_EXHAUSTED;
        if (k->n) memcpy(q, k->buf, k->n);
        tx__free(k->buf, k->cap);
        k->buf = q;
        k->cap = cap;
    }
    memcpy(k->buf + k->n, p, n);
    k->n += n;
    return TX_OK;
}

/* The bytes as they go out (compressed, when they are). */
static tx_status raw_write(void *ctx, const void *p, size_t n) {
    sink *k = ctx;
    if (k->fd < 0) return to_buffer(k, p, n);
    return tx__write_all(OP, k->fd, k->name, p, n);
}

static tx_status put(sink *k, const void *p, size_t n) {
    if (n == 0) return TX_OK;
    return k->z ? tx__zsink_write(k->z, p, n) : raw_write(k, p, n);
}

static void store_le32(unsigned char *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* Every record of t, framed, then the compressor's end. */
static tx_status write_records(sink *k, const tx_tensor *t, tx_tfrecord_compression c) {
    if (c != TX_TFRECORD_NONE)
        TX_TRY(tx__zsink_open(OP, c == TX_TFRECORD_GZIP ? TX__Z_GZIP : TX__Z_ZLIB, raw_write, k,
                              &k->z));
    const tx_string *rec = (const tx_string *)(const void *)t->data;
    for (int64_t i = 0; i < t->numel; i++) {
        const tx_string s = rec[i];
        unsigned char h[TX_TFRECORD_HEADER], f[TX_TFRECORD_FOOTER];
        store_le32(h, (uint32_t)s.size);
        store_le32(h + 4, (uint32_t)(s.size >> 32));
        store_le32(h + 8, tx__tfrecord_crc(h, 8));
        store_le32(f, tx__tfrecord_crc(s.data, (size_t)s.size));
        TX_TRY(put(k, h, sizeof h));
        TX_TRY(put(k, s.data, (size_t)s.size));
        TX_TRY(put(k, f, sizeof f));
    }
    return k->z ? tx__zsink_finish(k->z) : TX_OK;
}

static tx_status check_args(const tx_tensor *records, tx_tfrecord_compression c) {
    TX_REQUIRE_TENSOR(OP, records, "records");
    TX_REQUIRE(records->dtype == TX_STRING, TX_INVALID_ARGUMENT,
               "%s: records is %s, not a string tensor", OP, tx_dtype_name(records->dtype));
    TX_REQUIRE(c == TX_TFRECORD_NONE || c == TX_TFRECORD_ZLIB || c == TX_TFRECORD_GZIP,
               TX_INVALID_ARGUMENT, "%s: compression %d is not NONE (0), ZLIB (1) or GZIP (2)",
               OP, (int)c);
    return TX_OK;
}

tx_status tx_tfrecord_write_buffer(const tx_tensor *records, tx_tfrecord_compression compression,
                                   void **data, size_t *size) {
    TX_REQUIRE(data != NULL && size != NULL, TX_INVALID_ARGUMENT, "%s: data or size is NULL", OP);
    *data = NULL;
    *size = 0;
    TX_TRY(check_args(records, compression));
    sink k = {.fd = -1, .name = "buffer"};
    tx_status st = write_records(&k, records, compression);
    tx__zsink_close(k.z);
    if (st != TX_OK) {
        tx__free(k.buf, k.cap);
        return st;
    }
    /* tx_buffer_free takes the exact size: hand out a buffer of exactly n bytes */
    if (k.n != k.cap) {
        unsigned char *exact = k.n ? tx__alloc(k.n, "tfrecord: file buffer") : NULL;
        if (k.n && exact == NULL) {
            tx__free(k.buf, k.cap);
            return TX_RESOURCE_EXHAUSTED;
        }
        if (k.n) memcpy(exact, k.buf, k.n);
        tx__free(k.buf, k.cap);
        k.buf = exact;
    }
    *data = k.buf;
    *size = k.n;
    return TX_OK;
}

typedef struct {
    const tx_tensor *records;
    tx_tfrecord_compression compression;
} file_job;

static tx_status fill_file(int fd, const char *name, void *ctx) {
    const file_job *j = ctx;
    sink k = {.fd = fd, .name = name};
    tx_status st = write_records(&k, j->records, j->compression);
    const int err = errno;
    tx__zsink_close(k.z);
    errno = err;
    return st;
}

tx_status tx_tfrecord_write(const char *path, const tx_tensor *records,
                            tx_tfrecord_compression compression) {
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", OP);
    TX_TRY(check_args(records, compression));
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    file_job j = {records, compression};
    return tx__file_replace(OP, path, name, ".tfrecord", fill_file, &j);
}
