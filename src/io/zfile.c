/* SPDX-License-Identifier: Apache-2.0 */
/* zfile.c -- a gzip'd or zlib'd file's decompressed bytes as a scalar string tensor
 * (tx_file_read_decompressed: the CLI's @FILE.gz input to decode_raw).  The file is mapped and
 * inflated through zstream.h twice: once to count the bytes (nothing kept), once straight into
 * string storage of exactly that size, so memory is the output and zlib's window. */
#include "io/mmap_internal.h"
#include "io/zstream.h"

#include <stdio.h>

enum { SINK = 1 << 16 };

/* Inflates all of z into dst (or, when dst is NULL, into sink, SINK bytes, only to count them);
 * *n receives the count, which may not pass cap.  A stream that stops before its end is
 * data_loss. */
static tx_status inflate_all(const char *op, const char *name, tx__zsource *z, char *dst,
                             char *sink, uint64_t cap, uint64_t *n) {
    *n = 0;
    for (;;) {
        size_t want = dst ? (size_t)(cap - *n) : SINK, got;
        if (dst && want > ((size_t)1 << 30)) want = (size_t)1 << 30;
        if (dst && want == 0) break;
        TX_TRY(tx__zsource_read(z, dst ? dst + *n : sink, want, &got));
        *n += got;
        TX_REQUIRE(*n <= cap, TX_RESOURCE_EXHAUSTED,
                   "%s: %s decompresses to more than tx_max_tensor_bytes() (%llu bytes)", op,
                   name, (unsigned long long)cap);
        if (got < want) break;
    }
    TX_REQUIRE(tx__zsource_ended(z), TX_DATA_LOSS,
               "%s: %s: truncated: the compressed stream stops before its end", op, name);
    return TX_OK;
}

/* The decompressed bytes of the n bytes at p (gzip or zlib, by magic) as a scalar string. */
static tx_status read_bytes(const char *op, const char *name, const unsigned char *p, size_t n,
                            tx_tensor **out) {
    tx__zformat zf = tx__zformat_of(p, n);
    TX_REQUIRE(zf != 0, TX_INVALID_ARGUMENT,
               "%s: %s is neither gzip'd (magic 1f 8b) nor zlib'd (a zlib header)", op, name);
    tx__zsource *z;
    TX_TRY(tx__zsource_open(op, name, zf, p, n, &z));
    uint64_t size = 0, again;
    tx_tensor *t = NULL;
    char *bytes = NULL;
    char *sink = tx__alloc(SINK, op);
    tx_status st = sink ? inflate_all(op, name, z, NULL, sink, tx_max_tensor_bytes(), &size)
                        : TX_RESOURCE_EXHAUSTED;
    tx__free(sink, SINK);
    if (st == TX_OK) st = tx__zsource_rewind(z);
    if (st == TX_OK) st = tx__tensor_alloc(op, TX_STRING, 0, NULL, &t);
    if (st == TX_OK && size) st = tx__string_storage(t, (size_t)size, &bytes);
    tx__zsource_limit(z, size); /* the second pass ends, and sees the end marker, at size */
    if (st == TX_OK && size) st = inflate_all(op, name, z, bytes, NULL, size, &again);
    tx__zsource_close(z);
    if (st != TX_OK) {
        tx_tensor_free(t);
        return st;
    }
    tx_string *rec = (tx_string *)t->data;
    rec->data = size ? bytes : "";
    rec->size = size;
    *out = t;
    return TX_OK;
}

tx_status tx_file_read_decompressed(const char *path, tx_tensor **out) {
    static const char *op = "file_read_decompressed";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", op);
    tx_tensor *file;
    TX_TRY(tx__map_whole_file(op, path, &file));
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    tx_status st = read_bytes(op, name, (const unsigned char *)file->data, file->nbytes, out);
    tx_tensor_free(file);
    return st;
}
