/* SPDX-License-Identifier: Apache-2.0 */
/* files.c -- output files written under a temporary name and outputs made in a mapped output
 * file (files.h).  Only tensorx.h is used. */
#define _GNU_SOURCE 1 /* fallocate */
#include "files.h"

#include "fault.h"
#include "formats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- output files ---------------------------------------------------------------------------- */

/* The symbolic links that path ends in, followed (those of its directories are followed by the
 * rename too): *out is the malloc'd name of the file they end at, which may not exist.  Returns 0
 * or an errno (ELOOP after 40 links, as the system counts). */
static int follow_links(const char *path, char **out) {
    char *cur = strdup(path);
    for (int hops = 0; cur; hops++) {
        struct stat sb;
        if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode)) {
            *out = cur;
            return 0;
        }
        char link[4096];
        ssize_t n = hops < 40 ? readlink(cur, link, sizeof link) : -1;
        int err = hops >= 40 ? ELOOP : n < 0 ? errno : (size_t)n == sizeof link ? ENAMETOOLONG : 0;
        if (err) {
            free(cur);
            return err;
        }
        /* A relative link is relative to the directory holding it. */
        const char *slash = strrchr(cur, '/');
        size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dir + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dir);
            memcpy(next + dir, link, (size_t)n);
            next[dir + (size_t)n] = '\0';
        }
        free(cur);
        cur = next;
    }
    return ENOMEM;
}

/* Where an output to `path` goes: *target (malloc'd) names the file to replace through a
 * temporary one -- path with its symbolic links followed -- or is NULL when path is written
 * directly: a device, a FIFO, or a link that the system resolves elsewhere than its text says
 * (/dev/stdout, /proc/self/fd/N name an open file, not a path).  *old is the replaced file's
 * status when it exists (*exists).  Returns 0 or an errno. */
static int out_target(const char *path, char **target, struct stat *old, bool *exists) {
    *target = NULL;
    *exists = false;
    struct stat via;
    bool any = stat(path, &via) == 0;
    if (any && S_ISDIR(via.st_mode)) return EISDIR;
    if (any && !S_ISREG(via.st_mode)) return 0;
    char *t;
    int err = follow_links(path, &t);
    if (err) return err;
    *exists = lstat(t, old) == 0;
    if (any != *exists || (any && (old->st_dev != via.st_dev || old->st_ino != via.st_ino))) {
        free(t); /* a link to an open file */
        return 0;
    }
    *target = t;
    return 0;
}

bool outfile_replaces(const char *path) {
    char *target = NULL;
    struct stat sb;
    bool exists;
    bool r = strcmp(path, "-") != 0 && out_target(path, &target, &sb, &exists) == 0 && target;
    free(target);
    return r;
}

/* Creates f->tmp beside f->target, so the rename stays in one file system; `old`: the file it
 * replaces, whose permissions it takes (NULL: a new file, made under the umask). */
static tx_status open_temp(outfile *f, const struct stat *old) {
    static unsigned serial;
    const char *slash = strrchr(f->target, '/');
    int dir = slash ? (int)(slash - f->target) + 1 : 0;
    size_t cap = (size_t)dir + 64;
    if ((f->tmp = malloc(cap)) == NULL) return op_fail_io("write", f->path, ENOMEM);
    errno = EEXIST;
    for (int tries = 0; f->fd < 0 && errno == EEXIST && tries < 100; tries++) {
        snprintf(f->tmp, cap, "%.*s.tx-out-%ld-%u.npy.tmp", dir, f->target, (long)getpid(), serial++);
        f->tmp_slot = fault_watch_temp(f->tmp); /* before it exists: a fault at any time removes it */
        f->fd = open(f->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (f->fd < 0) {
            int err = errno;
            fault_unwatch_temp(f->tmp_slot);
            f->tmp_slot = NULL;
            errno = err;
        }
    }
    if (f->fd < 0) {
        int err = errno;
        free(f->tmp);
        f->tmp = NULL;
        return op_fail_io("write", f->path, err);
    }
    if (old) (void)fchmod(f->fd, old->st_mode & 07777); /* a replaced file keeps its permissions */
    return TX_OK;
}

tx_status outfile_open(outfile *f, const char *path) {
    *f = (outfile){.fd = -1, .path = path};
    struct stat sb;
    bool exists;
    int err = out_target(path, &f->target, &sb, &exists);
    if (!err && f->target) return open_temp(f, exists ? &sb : NULL);
    if (!err) { /* a device, a FIFO, an open file: nothing to replace */
        f->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (f->fd < 0) err = errno;
    }
    return err ? op_fail_io("write", path, err) : TX_OK;
}

void outfile_abort(outfile *f) {
    if (f->fd >= 0) close(f->fd);
    f->fd = -1;
    if (f->tmp) unlink(f->tmp);
    fault_unwatch_temp(f->tmp_slot); /* before its name goes */
    f->tmp_slot = NULL;
    free(f->tmp);
    f->tmp = NULL;
    free(f->target);
    f->target = NULL;
}

tx_status outfile_close(outfile *f) {
    int bad = f->fd >= 0 && close(f->fd) != 0 ? errno : 0; /* NFS may report a full disk here */
    f->fd = -1;
    if (!bad) return TX_OK;
    outfile_abort(f);
    return op_fail_io("write", f->path, bad);
}

/* Renames f's temporary file over its target, then forgets both names. */
static int rename_over(outfile *f) {
    if (f->tmp && rename(f->tmp, f->target) != 0) return errno;
    fault_unwatch_temp(f->tmp_slot);
    f->tmp_slot = NULL;
    free(f->tmp);
    f->tmp = NULL;
    free(f->target);
    f->target = NULL;
    return 0;
}

tx_status outfile_commit_all(outfile *f, size_t n) {
    int err = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) { /* every one closed, even after a failure */
        if (f[i].fd >= 0 && close(f[i].fd) != 0 && !err) err = errno, bad = i;
        f[i].fd = -1;
    }
    /* Renamed only when every file is complete: all are replaced, or none. */
    for (size_t i = 0; !err && i < n; i++)
        if ((err = rename_over(&f[i])) != 0) bad = i;
    if (!err) return TX_OK;
    for (size_t i = 0; i < n; i++) outfile_abort(&f[i]);
    return op_fail_io("write", f[bad].path, err);
}

tx_status outfile_commit(outfile *f) { return outfile_commit_all(f, 1); }

/* ---- outputs made in a mapped output file ---------------------------------------------------- */

/* One armed request at a time: the op's output buffer, which the library asks for as its header
 * (64 bytes) and its data in one block.  The block is handed out on the first request of exactly
 * that size; if it comes back (a scratch buffer of the same size), it may be handed out again.
 * mapout_end checks that the output's data are the file's. */
static struct {
    _Atomic(unsigned char *) base; /* NULL: nothing armed */
    size_t size;
    _Atomic int taken;
} armed;

/* What every other request goes to: the library's default allocator unless mapout_set_base
 * named another (the argument fuzzer's checking allocator). */
static tx_allocator base;
static bool base_set;

static const tx_allocator *base_allocator(void) { return base_set ? &base : tx_default_allocator(); }

static void *cli_alloc(size_t size, size_t alignment, void *ctx) {
    (void)ctx;
    unsigned char *b = atomic_load(&armed.base);
    int expect = 0;
    if (b && size == armed.size && ((uintptr_t)b & (alignment - 1)) == 0 &&
        atomic_compare_exchange_strong(&armed.taken, &expect, 1))
        return b;
    const tx_allocator *d = base_allocator();
    return d->alloc(size, alignment, d->ctx);
}

static void cli_free(void *p, size_t size, void *ctx) {
    (void)ctx;
    unsigned char *b = atomic_load(&armed.base);
    if (b && (unsigned char *)p == b) {
        atomic_store(&armed.taken, 0);
        return;
    }
    const tx_allocator *d = base_allocator();
    d->free(p, size, d->ctx);
}

void mapout_set_base(const tx_allocator *a) {
    base_set = a != NULL;
    if (a) base = *a;
}

void mapout_install(void) {
    const tx_allocator a = {cli_alloc, cli_free, NULL};
    tx_set_allocator(&a);
}

/* The library's buffer header before the data (TX_ALIGNMENT in the library; a .npy header is a
 * multiple of 64 bytes, so the data of a mapped file are 64-byte aligned). */
#define BUFFER_HEADER 64

uint64_t env_bytes(const char *name, uint64_t def) {
    const char *s = getenv(name);
    if (s == NULL || *s == '\0') return def;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return *end == '\0' ? (uint64_t)v : def;
}

bool outfile_is_npy(const char *path) {
    const file_format *fmt;
    char *p;
    const char *name;
    bool other = ff_split(path, &fmt, &p, &name) && (strcmp(fmt->name, "npy") != 0 || name);
    free(p);
    return !other;
}

uint64_t mapout_min_bytes(void) { return env_bytes("TENSORX_MAP_OUTPUT_MIN_BYTES", 1u << 20); }

bool mapout_begin(mapout *m, const op_def *d, const op_args *a, const char *path, tx_status *st) {
    op_plan_result r;
    memset(m, 0, sizeof *m);
    m->slot = -1;
    *st = TX_OK;
    if (strstr(path, "{}") || !outfile_is_npy(path) || !outfile_replaces(path)) return false;
    op_plan_run(d, a, &r);
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    const tx_output_info *o = &r.info[0];
    unsigned char hdr[TX_NPY_HEADER_MAX];
    /* A data-dependent size is exact unless flagged an upper bound (decode_raw's length). */
    bool mappable = r.st == TX_OK && r.plan.count == 1 &&
                    !(o->flags & (TX_OUTPUT_VIEW | TX_OUTPUT_UPPER_BOUND)) && o->dtype != TX_STRING &&
                    (TX_HOST_LITTLE_ENDIAN || tx_dtype_size(o->dtype) <= 1) && o->nbytes != 0 &&
                    o->nbytes >= mapout_min_bytes() &&
                    tx_npy_write_header(o->dtype, o->rank, o->dims, hdr, sizeof hdr, &m->hlen) == TX_OK &&
                    m->hlen >= BUFFER_HEADER && m->hlen % BUFFER_HEADER == 0 &&
                    o->nbytes <= SIZE_MAX - m->hlen;
    op_plan_result_clear(&r);
    if (!mappable) return false;
    m->nbytes = o->nbytes;
    m->map_len = m->hlen + o->nbytes;
    if ((*st = outfile_open(&m->f, path)) != TX_OK) return true;
    /* Blocks reserved up front: a full disk is an error here, not a SIGBUS while the op writes. */
    int err = fallocate(m->f.fd, 0, 0, (off_t)m->map_len) == 0 ? 0 : errno;
    if (err == EOPNOTSUPP || err == ENOSYS || err == EINVAL)
        err = ftruncate(m->f.fd, (off_t)m->map_len) == 0 ? 0 : errno;
    if (!err) {
        void *p = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, m->f.fd, 0);
        if (p == MAP_FAILED) { /* no mapping: the ordinary path writes the file */
            outfile_abort(&m->f);
            return false;
        }
        m->map = p;
    }
    if (err) {
        outfile_abort(&m->f);
        *st = op_fail_io("write", path, err);
        return true;
    }
    m->slot = fault_watch(m->map, m->map_len, path, true);
    armed.size = BUFFER_HEADER + m->nbytes;
    atomic_store(&armed.taken, 0);
    atomic_store(&armed.base, m->map + m->hlen - BUFFER_HEADER);
    m->active = true;
    return true;
}

tx_status mapout_end(mapout *m, tx_status st, op_outputs *o, bool *made) {
    *made = false;
    if (!m->active) return st;
    m->active = false;
    bool ours = st == TX_OK && o->n == 1 && o->t[0] &&
                (const unsigned char *)tx_tensor_data_const(o->t[0]) == m->map + m->hlen &&
                tx_tensor_nbytes(o->t[0]) == m->nbytes;
    unsigned char hdr[TX_NPY_HEADER_MAX];
    size_t hlen = 0;
    if (ours)
        ours = tx_npy_write_header(tx_tensor_dtype(o->t[0]), tx_tensor_rank(o->t[0]),
                                   tx_tensor_dims(o->t[0]), hdr, sizeof hdr, &hlen) == TX_OK &&
               hlen == m->hlen;
    /* The output goes first (its buffer header sits in the file's header bytes, and it must go
     * back to cli_free as the armed block), then the header is written over it. */
    if (ours) op_outputs_clear(o);
    bool held = atomic_load(&armed.taken) != 0; /* by a tensor still alive: keep it mapped */
    if (!held) atomic_store(&armed.base, NULL);
    if (ours) memcpy(m->map, hdr, hlen);
    if (!held) munmap(m->map, m->map_len);
    fault_unwatch(m->slot);
    if (!ours) {
        outfile_abort(&m->f);
        return st;
    }
    *made = true;
    return outfile_commit(&m->f);
}

/* ---- writing ---- */

tx_status fd_write_all(int fd, const char *path, const void *data, size_t n) {
    const unsigned char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n < ((size_t)1 << 30) ? n : (size_t)1 << 30);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return op_fail_io("write", path, w < 0 ? errno : EIO);
        p += w;
        n -= (size_t)w;
    }
    return TX_OK;
}

tx_status fd_write_npy_data(int fd, const char *path, const void *data, size_t n, tx_dtype dt) {
    size_t unit = tx_dtype_size(dt) / (dt == TX_COMPLEX64 || dt == TX_COMPLEX128 ? 2 : 1);
    if (TX_HOST_LITTLE_ENDIAN || unit < 2) return fd_write_all(fd, path, data, n);
    unsigned char buf[1 << 16];
    const unsigned char *p = data;
    tx_status st = TX_OK;
    for (size_t done = 0; st == TX_OK && done < n;) {
        size_t len = n - done < sizeof buf ? n - done : sizeof buf; /* a multiple of unit */
        for (size_t k = 0; k < len; k += unit)
            for (size_t b = 0; b < unit; b++) buf[k + b] = p[done + k + unit - 1 - b];
        st = fd_write_all(fd, path, buf, len);
        done += len;
    }
    return st;
}

tx_status fd_pwrite_all(int fd, const char *path, const void *data, size_t n, uint64_t offset) {
    const unsigned char *p = data;
    while (n) {
        ssize_t w = pwrite(fd, p, n < ((size_t)1 << 30) ? n : (size_t)1 << 30, (off_t)offset);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return op_fail_io("write", path, w < 0 ? errno : EIO);
        p += w;
        n -= (size_t)w;
        offset += (uint64_t)w;
    }
    return TX_OK;
}
