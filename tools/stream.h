/* SPDX-License-Identifier: Apache-2.0 */
/* stream.h -- the CLI's handling of big inputs: streaming the ops that have a stream hook
 * (opreg.h: decode_raw, cast, bitcast) over memory-mapped windows of files larger than memory,
 * and big .npy files mapped for a preview (tools only). */
#ifndef TX_TOOLS_STREAM_H
#define TX_TOOLS_STREAM_H

#include "opreg.h"

#include <stdbool.h>

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

#endif
