/* SPDX-License-Identifier: Apache-2.0 */
/* save.h -- the CLI's results written as .npy (or another format of frontend/formats.h) to files
 * or stdout, all or none (tools only). */
#ifndef TX_TOOLS_SAVE_H
#define TX_TOOLS_SAVE_H

#include "opreg.h"

#include <stddef.h>

/* Writes t[i] as .npy to paths[i] for i < n, all or none.  A file is written under a temporary
 * name in its directory (files.h outfile: symbolic links followed, so an input being read is never
 * truncated) and renamed over it at the end; "-" is stdout (tx_npy_save_fd; refused when stdout
 * is a terminal).  Every file is written first, then stdout, devices and FIFOs, and only then are
 * the files renamed (outfile_commit_all): after a failure none is, and no temporary file is left.
 * Failed writes are OP_IO_ERROR with the system's reason.
 * A path whose name ends in another format's suffix (FILE.safetensors[:NAME], FILE.idx[.gz]) is
 * written in that format by the library, to the temporary name, which is renamed as a .npy's;
 * a safetensors tensor is named NAME, else after op d's output (d NULL: "output_I").  Such a
 * format needs a file: a device or FIFO is refused. */
tx_status save_all(const op_def *d, size_t n, const char *const *paths, tx_tensor *const *t);

#endif
