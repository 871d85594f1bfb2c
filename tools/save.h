/* SPDX-License-Identifier: Apache-2.0 */
/* save.h -- the CLI's results written as .npy to files or stdout, all or none (tools only). */
#ifndef TX_TOOLS_SAVE_H
#define TX_TOOLS_SAVE_H

#include "tensorx.h"

#include <stddef.h>

/* Writes t[i] as .npy to paths[i] for i < n, all or none.  A file is written under a temporary
 * name in its directory (files.h outfile: symbolic links followed, so an input being read is never
 * truncated) and renamed over it at the end; "-" is stdout (tx_npy_save_fd; refused when stdout
 * is a terminal).  Every file is written first, then stdout, devices and FIFOs, and only then are
 * the files renamed (outfile_commit_all): after a failure none is, and no temporary file is left.
 * Failed writes are OP_IO_ERROR with the system's reason. */
tx_status save_all(size_t n, const char *const *paths, tx_tensor *const *t);

#endif
