/* SPDX-License-Identifier: Apache-2.0 */
/* file_replace.h -- writing a file whole or not at all (file_replace.c), for every writer of
 * files (.npy, TFRecord). */
#ifndef TX_IO_FILE_REPLACE_H
#define TX_IO_FILE_REPLACE_H

#include "core/internal.h"

/* Writes the contents of a file to the open descriptor fd ("name" names the file in messages);
 * returns TX_OK or a failure it reported, with errno kept for a system error. */
typedef tx_status tx__file_fill_fn(int fd, const char *name, void *ctx);

/* Writes the file at path with fill(fd, name, ctx): when path is a regular file (or a link to
 * one: the file it ends at) or names none, into a new temporary file beside it
 * (".tx-save-PID-N<suffix>.tmp"), renamed over path once written and closed, so that after a
 * failure path is as it was and the temporary file is gone (a replaced file keeps its
 * permission bits); a directory is refused; anything else (a device, a FIFO) is opened and
 * written directly.  Messages start with `op: ` and name the file as `name`.  Errors:
 * invalid_argument (the file cannot be created, written, closed or renamed, with the system's
 * reason, errno kept); those of fill; resource_exhausted.  unimplemented without POSIX files. */
TX_HIDDEN tx_status tx__file_replace(const char *op, const char *path, const char *name,
                                     const char *suffix, tx__file_fill_fn *fill, void *ctx);

/* Writes all n bytes at p to fd, in pieces of at most 1 GiB, again after EINTR.  Errors:
 * invalid_argument "OP: cannot write NAME: REASON" (a write error, or a write of nothing), with
 * errno kept; unimplemented without POSIX files. */
TX_HIDDEN tx_status tx__write_all(const char *op, int fd, const char *name, const void *p,
                                  size_t n);

#endif
