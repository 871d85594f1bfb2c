/* SPDX-License-Identifier: Apache-2.0 */
/* stream.h -- the CLI's handling of big inputs and outputs: streaming the ops that have a stream
 * hook (opreg.h: decode_raw, cast, bitcast) over memory-mapped windows of files larger than
 * memory, .npy output to a file or stdout ("-"), and the progress bar shown on a terminal for long
 * work (tools only). */
#ifndef TX_TOOLS_STREAM_H
#define TX_TOOLS_STREAM_H

#include "opreg.h"

#include <stdbool.h>
#include <stdint.h>

/* Runs `d` with argv (the op's arguments) in streaming mode when it can: d has a stream hook that
 * accepts the call (decode_raw with input_bytes=@FILE and no fixed_length, cast x=FILE.npy in
 * default or saturate mode, bitcast input=FILE.npy), one -o, and an input file of at least
 * TENSORX_STREAM_MIN_BYTES bytes (default 64 MiB).  Returns false when it did not take the
 * command (the normal path then runs it and reports any error); otherwise *rc is the exit code
 * and any error has been printed. */
bool stream_run(const op_def *d, int argc, char **argv, int *rc);

/* Loads a .npy for reading a few elements (tensorx info): a file of at least
 * TENSORX_STREAM_MIN_BYTES that is numeric, C-order and in host byte order is memory-mapped
 * instead of read, so only the pages looked at are read; anything else goes to tx_npy_load. */
tx_status stream_load_npy(const char *path, tx_tensor **out);

/* Writes t[i] as .npy to paths[i] for i < n, all or none.  A file is written under a temporary
 * name in its directory (files.h outfile: symbolic links followed, so an input being read is never
 * truncated) and renamed over it at the end; "-" is stdout (tx_npy_save_fd; refused when stdout
 * is a terminal).  Every file is written first, then stdout, devices and FIFOs, and only then are
 * the files renamed (outfile_commit_all): after a failure none is, and no temporary file is left.
 * Failed writes are OP_IO_ERROR with the system's reason. */
tx_status stream_save_all(size_t n, const char *const *paths, tx_tensor *const *t);

/* Progress on stderr, drawn only when stderr is a terminal and the work has lasted more than a
 * second (TENSORX_PROGRESS_DELAY=seconds changes the delay; TENSORX_NO_PROGRESS=1 turns it off).
 * total = 0: unknown amount (an activity bar with the elapsed time).  progress_stop clears the
 * line; call it before printing anything else. */
void progress_start(const char *label, uint64_t total);
void progress_set(uint64_t done);
void progress_stop(void);

#endif
