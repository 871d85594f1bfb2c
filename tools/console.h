/* SPDX-License-Identifier: Apache-2.0 */
/* console.h -- where the tools print (tools only): the CLI, the conformance runner, the streaming
 * path and the progress bar all write through these, and the argument fuzzer redirects them. */
#ifndef TX_TOOLS_CONSOLE_H
#define TX_TOOLS_CONSOLE_H

#include <stdio.h>

/* Where the tool prints: results, plans, help and version to `out`, diagnostics ("tensorx: ...")
 * and the progress bar to `err` (drawn only when err is a terminal).  NULL: stdout / stderr (the
 * default).  .npy data for `-o -` goes to file descriptor 1 whatever `out` is. */
void cli_set_streams(FILE *out, FILE *err);
FILE *cli_out(void);
FILE *cli_err(void);

#endif
