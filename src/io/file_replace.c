/* SPDX-License-Identifier: Apache-2.0 */
/* file_replace.c -- files written whole or not at all (file_replace.h): a temporary file beside
 * the target, renamed over it at the end. */
#define _DEFAULT_SOURCE 1 /* realpath */
#include "io/file_replace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where the file goes: a temporary file beside path, renamed over it at the end, when path is a
 * regular file (or a link to one: the file it ends at) or names none; path itself otherwise (a
 * device, a FIFO, a link to one). */
tx_status tx__file_replace(const char *op, const char *path, const char *name,
                           const char *suffix, tx__file_fill_fn *fill, void *ctx) {
    struct stat sb, to;
    bool exists = lstat(path, &sb) == 0, in_place = exists && !S_ISREG(sb.st_mode);
    /* A link to a regular file: that file is replaced through a temporary one beside it, like
     * any regular file (opening the link with O_TRUNC would empty a file that may be the very
     * input being saved, still mapped). */
    char *real = exists && S_ISLNK(sb.st_mode) && stat(path, &to) == 0 && S_ISREG(to.st_mode)
                     ? realpath(path, NULL)
                     : NULL;
    if (real != NULL) {
        tx_status st = tx__file_replace(op, real, name, suffix, fill, ctx);
        free(real);
        return st;
    }
    if (in_place && S_ISDIR(sb.st_mode)) {
        tx__fail(TX_INVALID_ARGUMENT, "%s: cannot write %s: %s", op, name, strerror(EISDIR));
        errno = EISDIR;
        return TX_INVALID_ARGUMENT;
    }
    char *tmp = NULL;
    size_t tmp_cap = 0;
    int fd;
    if (in_place) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    } else {
        /* Beside path, so the rename stays in one file system; a short name, so it fits. */
        static _Atomic unsigned serial;
        const char *slash = strrchr(path, '/');
        size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
        tmp_cap = dir + 64;
        tmp = tx__alloc(tmp_cap, "temporary file name");
        if (tmp == NULL) return TX_RESOURCE_EXHAUSTED;
        fd = -1;
        errno = EEXIST;
        for (int tries = 0; fd < 0 && errno == EEXIST && tries < 100; tries++) {
            snprintf(tmp, tmp_cap, "%.*s.tx-save-%ld-%u%.16s.tmp", (int)dir, path, (long)getpid(),
                     atomic_fetch_add(&serial, 1), suffix);
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        }
        /* A replaced file keeps its permissions (umask applies to a new one). */
        if (fd >= 0 && exists) (void)fchmod(fd, sb.st_mode & 07777);
    }
    if (fd < 0) {
        int err = errno;
        tx__free(tmp, tmp_cap);
        tx__fail(TX_INVALID_ARGUMENT, "%s: cannot create %s: %s", op, name, strerror(err));
        errno = err;
        return TX_INVALID_ARGUMENT;
    }
    tx_status st = fill(fd, name, ctx);
    int err = errno;
    if (close(fd) != 0 && st == TX_OK) {
        err = errno;
        st = tx__fail(TX_INVALID_ARGUMENT, "%s: cannot write %s: %s", op, name, strerror(err));
    }
    if (st == TX_OK && tmp && rename(tmp, path) != 0) {
        err = errno;
        st = tx__fail(TX_INVALID_ARGUMENT, "%s: cannot write %s: %s", op, name, strerror(err));
    }
    if (st != TX_OK && tmp) unlink(tmp);
    tx__free(tmp, tmp_cap);
    errno = err;
    return st;
}

tx_status tx__write_all(const char *op, int fd, const char *name, const void *p, size_t n) {
    const char *c = p;
    while (n) {
        const ssize_t w = write(fd, c, n < ((size_t)1 << 30) ? n : ((size_t)1 << 30));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            const int err = w < 0 ? errno : EIO;
            tx__fail(TX_INVALID_ARGUMENT, "%s: cannot write %s: %s", op, name, strerror(err));
            errno = err;
            return TX_INVALID_ARGUMENT;
        }
        c += w;
        n -= (size_t)w;
    }
    return TX_OK;
}

#else

tx_status tx__write_all(const char *op, int fd, const char *name, const void *p, size_t n) {
    (void)fd, (void)name, (void)p, (void)n;
    return tx__fail(TX_UNIMPLEMENTED, "%s: this platform has no file descriptors", op);
}

tx_status tx__file_replace(const char *op, const char *path, const char *name,
                           const char *suffix, tx__file_fill_fn *fill, void *ctx) {
    (void)path, (void)name, (void)suffix, (void)fill, (void)ctx;
    return tx__fail(TX_UNIMPLEMENTED, "%s: this platform has no file descriptors", op);
}

#endif
