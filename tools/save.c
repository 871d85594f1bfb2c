/* SPDX-License-Identifier: Apache-2.0 */
/* save.c -- the CLI's results written as .npy files or to stdout, all or none (save.h).  Only
 * tensorx.h is used. */
#include "save.h"

#include "files.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Output i of save_all: a file under its temporary name (closed, not yet renamed), or
 * stdout. */
static tx_status save_one(outfile *f, const char *path, const tx_tensor *t) {
    if (strcmp(path, "-") == 0) {
        fflush(stdout); /* anything printed goes first */
        return save_fd(STDOUT_FILENO, path, t);
    }
    tx_status st = outfile_open(f, path);
    if (st == TX_OK) st = save_fd(f->fd, path, t);
    if (st == TX_OK) st = outfile_close(f); /* closed now: a command may have thousands */
    return st;
}

tx_status save_all(size_t n, const char *const *paths, tx_tensor *const *t) {
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
            if (outfile_replaces(paths[i]) == (pass == 0)) st = save_one(&f[i], paths[i], t[i]);
    if (st == TX_OK) st = outfile_commit_all(f, n);
    else
        for (size_t i = 0; i < n; i++) outfile_abort(&f[i]);
    free(f);
    return st;
}
