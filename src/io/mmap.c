/* SPDX-License-Identifier: Apache-2.0 */
/* mmap.c -- tensors over memory the library did not allocate: string tensors whose elements
 * point into caller-owned bytes (tx_tensor_wrap_strings) and windows of files mapped into memory
 * (tx_file_map, tx_file_map_string).  They serve files larger than memory: the CLI maps one window
 * at a time and feeds it to decode_raw, cast or bitcast, so nothing holds the whole file.  The
 * byte storage of a wrapped string tensor is a "wrapped" buffer in the tensor's storage list, so
 * data-movement ops keep it alive exactly as they keep any string storage alive.  Mapped windows
 * are read-only tensors: the file is opened O_RDONLY and every window ends up PROT_READ. */
#include "core/internal.h"
#include "exec/byteswap.h"
#include "io/mmap_internal.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#define TX_HAVE_MMAP 1
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#define TX_HAVE_MMAP 0
#endif

/* Re-fails with `op: ` in front of the current message (copied first: tx__fail writes the same
 * thread-local buffer it would read). */
static tx_status prefixed(tx_status st, const char *op) {
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s", tx_last_error());
    return tx__fail(st, "%s: %s", op, tmp);
}

/* ---- strings over external bytes ------------------------------------------------------------- */

static bool inside(const tx_string *s, const char *bytes, size_t nbytes) {
    if (s->size == 0) return true;
    uintptr_t lo = (uintptr_t)bytes, p = (uintptr_t)s->data;
    return s->data != NULL && s->size <= nbytes && p >= lo && p - lo <= nbytes - (size_t)s->size;
}

tx_status tx_tensor_wrap_strings(size_t rank, const int64_t *dims, const tx_string *strings,
                                 void *bytes, size_t nbytes, tx_release_fn release,
                                 void *release_ctx, tx_tensor **out) {
    static const char *op = "tensor_wrap_strings";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE(rank <= TX_MAX_RANK, TX_INVALID_ARGUMENT, "%s: rank %zu exceeds the maximum of %d",
               op, rank, TX_MAX_RANK);
    TX_REQUIRE(rank == 0 || dims != NULL, TX_INVALID_ARGUMENT, "%s: dims is NULL", op);
    int64_t numel;
    TX_TRY(tx__shape_numel(op, "dims", rank, dims, &numel));
    TX_REQUIRE(numel == 0 || strings != NULL, TX_INVALID_ARGUMENT, "%s: strings is NULL", op);
    TX_REQUIRE(nbytes == 0 || bytes != NULL, TX_INVALID_ARGUMENT,
               "%s: bytes is NULL with nbytes %zu", op, nbytes);
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, TX_STRING, rank, dims, &t));
    /* The records are copied first and the copies checked: the caller's records may change
     * during the call (another thread), the tensor's own cannot. */
    tx_string *rec = (tx_string *)t->data;
    for (int64_t i = 0; i < numel; i++) {
        rec[i] = strings[i];
        if (!inside(&rec[i], bytes, nbytes)) {
            const unsigned long long size = rec[i].size;
            tx_tensor_free(t);
            return tx__fail(TX_INVALID_ARGUMENT,
                            "%s: strings[%lld] (%llu bytes) is not inside the %zu bytes given",
                            op, (long long)i, size, nbytes);
        }
        if (rec[i].size == 0) rec[i].data = "";
    }
    tx__buffer *storage = tx__alloc_header(sizeof *storage, op);
    tx__buffer **deps = storage ? tx__alloc_header(sizeof *deps, op) : NULL;
    if (deps == NULL) { /* release is not called: the caller keeps the bytes */
        tx__free(storage, sizeof *storage);
        tx_tensor_free(t);
        return TX_RESOURCE_EXHAUSTED;
    }
    memset(storage, 0, sizeof *storage);
    atomic_init(&storage->refcount, 1);
    storage->data = bytes;
    storage->size = nbytes;
    storage->wrapped = true;
    storage->release = release;
    storage->release_ctx = release_ctx;
    /* A fresh tensor has no storages yet; this one becomes its only one. */
    deps[0] = storage;
    t->buf->deps = deps;
    t->buf->ndeps = 1;
    *out = t;
    return TX_OK;
}

/* ---- mapped file windows ---------------------------------------------------------------------- */

#if TX_HAVE_MMAP
typedef struct {
    void *base;
    size_t len;
} map_ctx;

static void unmap(void *data, void *ctx) {
    (void)data;
    map_ctx *m = ctx;
    if (m->len) munmap(m->base, m->len);
    tx__free(m, sizeof *m);
}

/* An empty window maps nothing: its tensors point here (aligned for every dtype, never written). */
static _Alignas(16) char empty_window[16];

/* Maps [offset, offset + length) of the open file fd (the caller checked that the file holds
 * them); *ptr is the first byte, *ctx the unmapping context (to pass to unmap).  `writable` gives
 * a private copy-on-write mapping the caller may change.  `name` names the file in messages.
 * *refused says that mmap itself failed (as opposed to an allocation). */
static tx_status map_fd_window(const char *op, const char *name, int fd, uint64_t offset,
                               uint64_t length, bool writable, char **ptr, map_ctx **ctx,
                               bool *refused) {
    *ptr = NULL;
    *ctx = NULL;
    *refused = false;
    map_ctx *m = tx__alloc_header(sizeof *m, op);
    if (m == NULL) return TX_RESOURCE_EXHAUSTED;
    m->base = NULL;
    m->len = 0;
    if (length == 0) {
        *ptr = empty_window;
        *ctx = m;
        return TX_OK;
    }
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t start = offset - offset % page, delta = offset - start;
    if (length > SIZE_MAX - delta || start > (uint64_t)INT64_MAX) {
        tx__free(m, sizeof *m);
        *refused = true;
        return tx__fail(TX_RESOURCE_EXHAUSTED, "%s: %llu bytes do not fit the address space", op,
                        (unsigned long long)length);
    }
    size_t len = (size_t)(delta + length);
    void *base = mmap(NULL, len, PROT_READ | (writable ? PROT_WRITE : 0), MAP_PRIVATE, fd,
                      (off_t)start);
    if (base == MAP_FAILED) {
        int err = errno;
        tx__free(m, sizeof *m);
        *refused = true;
        return tx__fail(err == ENOMEM ? TX_RESOURCE_EXHAUSTED : TX_INVALID_ARGUMENT,
                        "%s: cannot map %zu bytes of %s: %s", op, len, name, strerror(err));
    }
    m->base = base;
    m->len = len;
    *ptr = (char *)base + delta;
    *ctx = m;
    return TX_OK;
}

/* Opens the file at path and maps [offset, offset + length) of it (see map_fd_window). */
static tx_status map_window(const char *op, const char *path, uint64_t offset, uint64_t length,
                            bool writable, char **ptr, map_ctx **ctx) {
    *ptr = NULL;
    *ctx = NULL;
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", op);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    TX_REQUIRE(fd >= 0, TX_INVALID_ARGUMENT, "%s: cannot open '%s': %s", op, path, strerror(errno));
    struct stat sb;
    tx_status st = TX_OK;
    if (fstat(fd, &sb) != 0)
        st = tx__fail(TX_INVALID_ARGUMENT, "%s: cannot stat '%s': %s", op, path, strerror(errno));
    else if (!S_ISREG(sb.st_mode))
        st = tx__fail(TX_INVALID_ARGUMENT, "%s: '%s' is not a regular file", op, path);
    else if (offset > (uint64_t)sb.st_size || length > (uint64_t)sb.st_size - offset)
        st = tx__fail(TX_INVALID_ARGUMENT,
                      "%s: bytes [%llu, %llu + %llu) extend past the end of '%s' (%llu bytes)", op,
                      (unsigned long long)offset, (unsigned long long)offset,
                      (unsigned long long)length, path, (unsigned long long)sb.st_size);
    if (st == TX_OK) {
        char name[TX_FILE_NAME_CAP];
        bool refused;
        snprintf(name, sizeof name, "'%s'", path);
        st = map_fd_window(op, name, fd, offset, length, writable, ptr, ctx, &refused);
    }
    close(fd); /* the mapping keeps the file */
    return st;
}

/* The tensor over a mapped window p (ctx from map_*window, consumed: unmapped on failure), with
 * the fix-ups a private mapping allows: `swap` reverses each element (each part of a complex);
 * bool bytes other than 0 and 1 become 1 and 4-bit bytes keep their low nibble, writing only
 * the bytes that change so that only their pages get copied.  `writable` keeps the mapping
 * writable (copy-on-write) and the tensor writable; otherwise both are read-only. */
static tx_status wrap_window(const char *op, char *p, map_ctx *ctx, tx_dtype dtype, size_t rank,
                             const int64_t *dims, bool swap, bool writable, tx_tensor **out) {
    size_t size = tx_dtype_size(dtype);
    size_t nbytes = ctx->len ? ctx->len - (size_t)(p - (char *)ctx->base) : 0;
    bool fix = dtype == TX_BOOL || tx__is_subbyte(dtype);
    size_t unit = tx_dtype_kind_of(dtype) == TX_KIND_COMPLEX ? size / 2 : size; /* complex: parts */
    if (swap)
        tx__swap_units(p, nbytes / unit, unit);
    if (dtype == TX_BOOL)
        for (size_t i = 0; i < nbytes; i++)
            if ((unsigned char)p[i] > 1) p[i] = 1;
    if (tx__is_subbyte(dtype)) /* the low bits are the value (as ml_dtypes reads it) */
        tx__normalise_subbyte(dtype, p, (int64_t)nbytes);
    /* A read-only window's fixed-up private copy is made read-only again, so a stray write faults
     * the same way whatever the file held.  (A failure here leaves it writable: harmless, as the
     * copy is private and the tensor is marked read-only anyway.) */
    if (!writable && ctx->len && (swap || fix)) (void)mprotect(ctx->base, ctx->len, PROT_READ);
    tx_status st = tx_tensor_wrap(dtype, rank, dims, p, nbytes, unmap, ctx, out);
    if (st != TX_OK) {
        unmap(p, ctx);
        return prefixed(st, op);
    }
    (*out)->read_only = !writable; /* a read-only mapping is PROT_READ: a write would fault */
    return TX_OK;
}
#endif

tx_status tx_file_map(const char *path, uint64_t offset, tx_dtype dtype, size_t rank,
                      const int64_t *dims, int byte_swapped, tx_tensor **out) {
    static const char *op = "file_map";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    const tx__dtype_info *info = tx__dtype(dtype);
    TX_REQUIRE(info != NULL, TX_INVALID_ARGUMENT, "%s: unknown dtype %d", op, (int)dtype);
    TX_REQUIRE(dtype != TX_STRING, TX_INVALID_ARGUMENT,
               "%s: string tensors are mapped with tx_file_map_string", op);
    TX_REQUIRE(rank <= TX_MAX_RANK, TX_INVALID_ARGUMENT, "%s: rank %zu exceeds the maximum of %d",
               op, rank, TX_MAX_RANK);
    TX_REQUIRE(rank == 0 || dims != NULL, TX_INVALID_ARGUMENT, "%s: dims is NULL", op);
    int64_t numel;
    TX_TRY(tx__shape_numel(op, "dims", rank, dims, &numel));
    uint64_t nbytes;
    TX_REQUIRE(!__builtin_mul_overflow((uint64_t)numel, (uint64_t)info->size, &nbytes),
               TX_RESOURCE_EXHAUSTED, "%s: %lld elements of %s overflow the byte count", op,
               (long long)numel, info->name);
    size_t align = info->size > 8 ? 8 : info->size;
    TX_REQUIRE(offset % align == 0, TX_INVALID_ARGUMENT,
               "%s: offset %llu is not a multiple of %zu, the alignment of %s", op,
               (unsigned long long)offset, align, info->name);
#if TX_HAVE_MMAP
    char *p;
    map_ctx *ctx;
    bool fix = dtype == TX_BOOL || tx__is_subbyte(dtype), swap = byte_swapped && info->size > 1;
    TX_TRY(map_window(op, path, offset, nbytes, swap || fix, &p, &ctx));
    return wrap_window(op, p, ctx, dtype, rank, dims, swap, false, out);
#else
    (void)path;
    (void)byte_swapped;
    return tx__fail(TX_UNIMPLEMENTED, "%s: this platform has no mmap", op);
#endif
}

tx_status tx__copy_whole_buffer(const char *op, const void *data, size_t size, tx_tensor **out) {
    TX_REQUIRE(data != NULL || size == 0, TX_INVALID_ARGUMENT, "%s: data is NULL with size %zu",
               op, size);
    TX_REQUIRE(size <= INT64_MAX, TX_RESOURCE_EXHAUSTED, "%s: size %zu passes int64", op, size);
    int64_t n = (int64_t)size;
    TX_TRY(tx__tensor_alloc(op, TX_UINT8, 1, &n, out));
    if (size) memcpy((*out)->data, data, size);
    (*out)->read_only = true;
    return TX_OK;
}

tx_status tx__map_whole_file(const char *op, const char *path, tx_tensor **out) {
    *out = NULL;
#if TX_HAVE_MMAP
    struct stat sb;
    TX_REQUIRE(stat(path, &sb) == 0, TX_INVALID_ARGUMENT, "%s: cannot open '%s': %s", op, path,
               strerror(errno));
    TX_REQUIRE(S_ISREG(sb.st_mode), TX_INVALID_ARGUMENT, "%s: '%s' is not a regular file", op,
               path);
    const int64_t n = (int64_t)sb.st_size;
    const tx_status st = tx_file_map(path, 0, TX_UINT8, 1, &n, 0, out);
    return st == TX_OK ? TX_OK : prefixed(st, op);
#else
    (void)path;
    return tx__fail(TX_UNIMPLEMENTED, "%s: this platform has no mmap", op);
#endif
}

tx_status tx__map_cow(const char *op, const char *name, int fd, uint64_t offset, tx_dtype dtype,
                      size_t rank, const int64_t *dims, bool *refused, tx_tensor **out) {
    *out = NULL;
    *refused = true;
#if TX_HAVE_MMAP
    int64_t numel;
    TX_TRY(tx__shape_numel(op, "shape", rank, dims, &numel));
    uint64_t nbytes; /* the caller checked that the file holds them */
    TX_REQUIRE(!__builtin_mul_overflow((uint64_t)numel, (uint64_t)tx_dtype_size(dtype), &nbytes),
               TX_INTERNAL, "%s: byte count overflows", op);
    char *p;
    map_ctx *ctx;
    TX_TRY(map_fd_window(op, name, fd, offset, nbytes, true, &p, &ctx, refused));
    return wrap_window(op, p, ctx, dtype, rank, dims, false, true, out);
#else
    (void)name;
    (void)fd;
    (void)offset;
    (void)dtype;
    (void)rank;
    (void)dims;
    return tx__fail(TX_UNIMPLEMENTED, "%s: this platform has no mmap", op);
#endif
}

tx_status tx_file_map_string(const char *path, uint64_t offset, uint64_t length, tx_tensor **out) {
    static const char *op = "file_map_string";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
#if TX_HAVE_MMAP
    char *p;
    map_ctx *ctx;
    TX_TRY(map_window(op, path, offset, length, false, &p, &ctx));
    tx_string rec = {length, p};
    tx_status st = tx_tensor_wrap_strings(0, NULL, &rec, p, (size_t)length, unmap, ctx, out);
    if (st != TX_OK) {
        unmap(p, ctx);
        return prefixed(st, op);
    }
    (*out)->read_only = true; /* as tx_file_map's: everything mapped is read-only */
    return TX_OK;
#else
    (void)path;
    (void)offset;
    (void)length;
    return tx__fail(TX_UNIMPLEMENTED, "%s: this platform has no mmap", op);
#endif
}
