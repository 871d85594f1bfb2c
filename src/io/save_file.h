/* SPDX-License-Identifier: Apache-2.0 */
/* save_file.h -- how the savers (.npy, safetensors) replace a file whole or not at all. */
#ifndef TX_IO_SAVE_FILE_H
#define TX_IO_SAVE_FILE_H

#include "core/internal.h"

#if defined(__unix__) || defined(__APPLE__)
/* Writes a whole file to fd (named `name` in messages, e.g. "'path'"); a failure sets the
 * message and keeps errno. */
typedef tx_status (*tx__file_writer)(int fd, const char *name, void *ctx);

/* Writes path through `write`: into a new temporary file beside it (".tx-save-PID-N<suffix>"),
 * renamed over path once written and closed, when path is a regular file (or a link to one: the
 * file it ends at, never emptied first) or names none; a replaced file keeps its permission bits;
 * after a failure the temporary file is removed and path is as it was.  Any other path (a device,
 * a FIFO, a link to one) is opened and written directly.  Errors name `op` and `name`:
 * invalid_argument (a directory; cannot create, write, close or rename, with errno kept);
 * resource_exhausted; and those of write. */
TX_HIDDEN tx_status tx__save_file(const char *op, const char *path, const char *name,
                                  const char *suffix, tx__file_writer write, void *ctx);
#endif

#endif
