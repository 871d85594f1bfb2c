/* SPDX-License-Identifier: Apache-2.0 */
/* save.c -- the CLI's results written as .npy files or to stdout, all or none (save.h).  Only
 * tensorx.h is used. */
#include "save.h"

#include "files.h"
#include "formats.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes t as .npy to fd, which is `path` ("-": stdout) for errors.  The library writes from the
 * tensor (no copy); a failed system call leaves its errno, reported as the CLI's io_error. */
static tx_status save_fd(int fd, const char *path, const tx_tensor *t) {
    bool is_stdout = strcmp(path, "-") == 0;
    errno = 0;
    tx_status st = tx_npy_save_fd(fd, t);
    int err = errno;
    /* write(2) from a mapped input whose file was truncated meanwhile: EFAULT, not SIGBUS. */
    if (st == TX_INVALID_ARGUMENT && err == EFAULT)
        return op_fail(OP_IO_ERROR, "cannot write %s%s%s: a mapped input file changed while it "
                       "was read (truncated?)", is_stdout ? "" : "'", is_stdout ? "stdout" : path,
                       is_stdout ? "" : "'");
    if (st == TX_INVALID_ARGUMENT) return op_fail_io("write", path, err ? err : EIO);
    return st;
}

/* The name of output i of op d in a named format's file. */
static void output_name(const op_def *d, size_t i, char *buf, size_t cap) {
    size_t n = 0;
    while (d && n < OP_MAX_OUTPUTS && d->outputs[n]) n++;
    if (d && !d->outputs_list && i < n) snprintf(buf, cap, "%s", d->outputs[i]);
    else snprintf(buf, cap, "%s_%zu", d && n ? d->outputs[0] : "output", i);
}

/* The suffix of fmt that ends path ("" if none). */
static const char *suffix_of(const file_format *fmt, const char *path) {
    size_t n = strlen(path);
    for (size_t k = 0; fmt->suffixes[k]; k++) {
        size_t b = strlen(fmt->suffixes[k]);
        if (n > b && strcmp(path + n - b, fmt->suffixes[k]) == 0) return fmt->suffixes[k];
    }
    return "";
}

/* Output i in format fmt (not .npy) at path: the library writes the file whole under f's
 * temporary name with path's suffix appended (the suffix decides, e.g., gzip for .idx.gz), which
 * is renamed to f's temporary name, renamed over path by the commit. */
static tx_status save_format(outfile *f, const op_def *d, size_t i, const file_format *fmt,
                             const char *path, const char *name, const tx_tensor *t) {
    if (!outfile_replaces(path))
        return op_fail(TX_INVALID_ARGUMENT, "-o %s: a %s output is written as a file, not to a "
                       "device or pipe", path, fmt->name);
    char own[256];
    if (fmt->named && !name) {
        output_name(d, i, own, sizeof own);
        name = own;
    }
    tx_status st = outfile_open(f, path);
    if (st == TX_OK) st = outfile_close(f);
    if (st == TX_OK && f->tmp == NULL)
        st = op_fail(TX_INVALID_ARGUMENT, "-o %s: a %s output needs a regular file", path,
                     fmt->name);
    if (st != TX_OK) return st;
    size_t cap = strlen(f->tmp) + strlen(suffix_of(fmt, path)) + 1;
    char *as = malloc(cap);
    if (!as) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    snprintf(as, cap, "%s%s", f->tmp, suffix_of(fmt, path));
    st = ff_save(fmt, as, 1, fmt->named ? &name : NULL, &t);
    if (st != TX_OK) { /* the message names the file given, not the temporary one */
        char msg[1024];
        const char *why = op_error(), *at = strstr(why, as);
        if (at) snprintf(msg, sizeof msg, "%.*s%s%s", (int)(at - why), why, path, at + strlen(as));
        else snprintf(msg, sizeof msg, "%s", why);
        st = op_fail(st, "%s", msg);
    } else {
        /* the mode outfile_open gave its temporary file (an existing file's own) */
        struct stat sb;
        if (stat(f->tmp, &sb) != 0 || chmod(as, sb.st_mode & 07777) != 0 ||
            rename(as, f->tmp) != 0) {
            st = op_fail_io("write", path, errno);
            unlink(as);
        }
    }
    free(as);
    return st;
}

/* Output i of save_all: a file under its temporary name (closed, not yet renamed), or
 * stdout. */
static tx_status save_one(outfile *f, const op_def *d, size_t i, const char *path,
                          const tx_tensor *t) {
    const file_format *fmt;
    char *file;
    const char *name;
    if (ff_split(path, &fmt, &file, &name) && (strcmp(fmt->name, "npy") != 0 || name)) {
        tx_status st = !file ? op_fail(TX_RESOURCE_EXHAUSTED, "out of memory")
                       : name && !fmt->named
                           ? op_fail(TX_INVALID_ARGUMENT, "-o %s: %s holds one tensor (format %s), "
                                     "not one named '%s'", path, file, fmt->name, name)
                           : save_format(f, d, i, fmt, file, name, t);
        free(file);
        return st;
    }
    free(file);
    if (strcmp(path, "-") == 0) {
        fflush(stdout); /* anything printed goes first */
        return save_fd(STDOUT_FILENO, path, t);
    }
    tx_status st = outfile_open(f, path);
    if (st == TX_OK) st = save_fd(f->fd, path, t);
    if (st == TX_OK) st = outfile_close(f); /* closed now: a command may have thousands */
    return st;
}

tx_status save_all(const op_def *d, size_t n, const char *const *paths, tx_tensor *const *t) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(paths[i], "-") == 0 && isatty(STDOUT_FILENO))
            return op_fail(TX_INVALID_ARGUMENT,
                           "-o -: refusing to write .npy data to a terminal (redirect or pipe it)");
    outfile *f = calloc(n ? n : 1, sizeof *f);
    if (f == NULL) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory for %zu output files", n);
    for (size_t i = 0; i < n; i++) f[i].fd = -1;
    /* The files that are replaced first, then what cannot be taken back (stdout, a device, a
     * FIFO): a failure of either leaves every file as it was. */
    tx_status st = TX_OK;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; st == TX_OK && i < n; i++)
            if (outfile_replaces(paths[i]) == (pass == 0))
                st = save_one(&f[i], d, i, paths[i], t[i]);
    if (st == TX_OK) st = outfile_commit_all(f, n);
    else
        for (size_t i = 0; i < n; i++) outfile_abort(&f[i]);
    free(f);
    return st;
}
