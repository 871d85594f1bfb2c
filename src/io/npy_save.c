/* SPDX-License-Identifier: Apache-2.0 */
/* npy_save.c -- .npy writing to memory, file descriptors and files (replaced through a
 * temporary file).  The header is npy_header.c's. */
#define _DEFAULT_SOURCE 1 /* realpath */
#include "core/internal.h"
#include "core/byteorder.h"
#include "core/tuning.h"
#include "exec/byteswap.h"
#include "io/mmap_internal.h"
#include "io/file_replace.h"
#include "io/npy_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#if TX_NPY_POSIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* ---- saving to files -------------------------------------------------------------------------
 * The header, then the tensor's own bytes: contiguous data in large writes; conversions (string
 * records, byte swaps on a big-endian host) through a window of at most TX_NPY_WINDOW_BYTES. */

/* The 'S' item size tx_npy_save_buffer uses for a string tensor, and the data's byte count. */
static tx_status save_layout(const tx_tensor *t, size_t *item, size_t *body) {
    *item = tx_dtype_size(t->dtype);
    if (t->dtype == TX_STRING) { /* 'S<longest>', at least S1 as numpy writes */
        const tx_string *rec = (const tx_string *)t->data;
        *item = 1;
        for (int64_t i = 0; i < t->numel; i++)
            if (rec[i].size > *item) *item = (size_t)rec[i].size;
    }
    TX_REQUIRE(!__builtin_mul_overflow((size_t)t->numel, *item, body), TX_RESOURCE_EXHAUSTED,
               "npy: file size overflows");
    return TX_OK;
}

tx_status tx_npy_save_buffer(const tx_tensor *t, void **data, size_t *size) {
    static const char *op = "npy";
    TX_REQUIRE(data != NULL && size != NULL, TX_INVALID_ARGUMENT, "%s: data or size is NULL", op);
    *data = NULL;
    *size = 0;
    TX_REQUIRE_TENSOR(op, t, "tensor");
    size_t item, body;
    TX_TRY(save_layout(t, &item, &body));
    char hdr[TX_NPY_HEADER_MAX];
    size_t total_hdr = 0;
    TX_TRY(tx__npy_header(t->dtype, t->rank, t->dims, item, hdr, sizeof hdr, &total_hdr));
    TX_REQUIRE(body <= SIZE_MAX - total_hdr, TX_RESOURCE_EXHAUSTED, "%s: file size overflows", op);
    char *buf = tx__alloc(total_hdr + body, op);
    if (buf == NULL) return TX_RESOURCE_EXHAUSTED;
    memcpy(buf, hdr, total_hdr);
    char *dst = buf + total_hdr;
    if (t->dtype == TX_STRING) {
        const tx_string *rec = (const tx_string *)t->data;
        memset(dst, 0, body);
        for (int64_t i = 0; i < t->numel; i++)
            if (rec[i].size) memcpy(dst + (size_t)i * item, rec[i].data, (size_t)rec[i].size);
    } else if (body) {
        memcpy(dst, t->data, body);
        if (!TX_HOST_LITTLE_ENDIAN) { /* .npy data are little-endian, as the header says */
            size_t unit = tx_dtype_kind_of(t->dtype) == TX_KIND_COMPLEX ? item / 2 : item;
            if (unit > 1) tx__swap_units(dst, body / unit, unit);
        }
    }
    *data = buf;
    *size = total_hdr + body;
    return TX_OK;
}

#if TX_NPY_POSIX
typedef struct {
    int fd;
    const char *name;  /* "'path'" or "fd 3", for messages */
    char *win;         /* the conversion window (NULL when none is needed) */
    size_t cap, used;
} npy_sink;

static tx_status sink_write(npy_sink *k, const void *p, size_t n) {
    return tx__write_all("npy", k->fd, k->name, p, n);
}

static tx_status sink_flush(npy_sink *k) {
    tx_status st = sink_write(k, k->win, k->used);
    k->used = 0;
    return st;
}

/* n bytes through the window: p's bytes, or zeros when p is NULL. */
static tx_status sink_put(npy_sink *k, const char *p, size_t n) {
    while (n) {
        if (k->used == k->cap) TX_TRY(sink_flush(k));
        size_t m = n < k->cap - k->used ? n : k->cap - k->used;
        if (p) memcpy(k->win + k->used, p, m);
        else memset(k->win + k->used, 0, m);
        k->used += m;
        n -= m;
        if (p) p += m;
    }
    return TX_OK;
}

/* The whole .npy of t to k->fd at its position. */
static tx_status save_to(npy_sink *k, const tx_tensor *t) {
    size_t item, body, hlen;
    TX_TRY(save_layout(t, &item, &body));
    char hdr[TX_NPY_HEADER_MAX];
    TX_TRY(tx__npy_header(t->dtype, t->rank, t->dims, item, hdr, sizeof hdr, &hlen));
    size_t unit = tx_dtype_kind_of(t->dtype) == TX_KIND_COMPLEX ? item / 2 : item;
    bool convert = t->dtype == TX_STRING || (!TX_HOST_LITTLE_ENDIAN && unit > 1);
    if (!convert || body == 0) {
        TX_TRY(sink_write(k, hdr, hlen));
        return sink_write(k, t->data, body);
    }
    /* A multiple of the unit, so that no element's swap straddles two windows. */
    k->cap = body < TX_NPY_WINDOW_BYTES ? body : TX_NPY_WINDOW_BYTES;
    k->win = tx__alloc(k->cap, "npy: write window");
    if (k->win == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = sink_write(k, hdr, hlen);
    if (t->dtype == TX_STRING) {
        const tx_string *rec = (const tx_string *)t->data;
        for (int64_t i = 0; st == TX_OK && i < t->numel; i++) {
            st = sink_put(k, rec[i].data, (size_t)rec[i].size);
            if (st == TX_OK) st = sink_put(k, NULL, item - (size_t)rec[i].size);
        }
    } else { /* .npy data are little-endian, as the header says */
        for (size_t done = 0; st == TX_OK && done < body; done += k->used) {
            k->used = body - done < k->cap ? body - done : k->cap;
            memcpy(k->win, t->data + done, k->used);
            tx__swap_units(k->win, k->used / unit, unit);
            st = sink_write(k, k->win, k->used);
        }
        k->used = 0;
    }
    if (st == TX_OK) st = sink_flush(k);
    int err = errno;
    tx__free(k->win, k->cap);
    k->win = NULL;
    errno = err;
    return st;
}

tx_status tx_npy_save_fd(int fd, const tx_tensor *t) {
    TX_REQUIRE(fd >= 0, TX_INVALID_ARGUMENT, "npy: fd %d is not a file descriptor", fd);
    TX_REQUIRE_TENSOR("npy", t, "tensor");
    char name[32];
    snprintf(name, sizeof name, "fd %d", fd);
    npy_sink k = {.fd = fd, .name = name};
    return save_to(&k, t);
}

/* The .npy of t into a new file (tx__file_replace). */
static tx_status fill_npy(int fd, const char *name, void *ctx) {
    npy_sink k = {.fd = fd, .name = name};
    return save_to(&k, ctx);
}

static tx_status save_file(const char *path, const char *name, const tx_tensor *t) {
    return tx__file_replace("npy", path, name, ".npy", fill_npy, (void *)(uintptr_t)t);
}

tx_status tx_npy_save(const char *path, const tx_tensor *t) {
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "npy: path is NULL");
    TX_REQUIRE_TENSOR("npy", t, "tensor");
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    return save_file(path, name, t);
}

#else /* no POSIX I/O: the buffer, written with stdio */

tx_status tx_npy_save_fd(int fd, const tx_tensor *t) {
    (void)fd;
    (void)t;
    return tx__fail(TX_UNIMPLEMENTED, "npy: this platform has no file descriptors");
}

tx_status tx_npy_save(const char *path, const tx_tensor *t) {
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "npy: path is NULL");
    void *buf;
    size_t size;
    TX_TRY(tx_npy_save_buffer(t, &buf, &size));
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        tx__free(buf, size);
        return tx__fail(TX_INVALID_ARGUMENT, "npy: cannot create '%s': %s", path, strerror(errno));
    }
    size_t w = fwrite(buf, 1, size, f);
    int closed = fclose(f);
    tx__free(buf, size);
    TX_REQUIRE(w == size && closed == 0, TX_INVALID_ARGUMENT, "npy: cannot write '%s'", path);
    return TX_OK;
}
#endif
