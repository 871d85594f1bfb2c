/* SPDX-License-Identifier: Apache-2.0 */
/* conform.h -- the conformance runner (tools only). */
#ifndef TX_TOOLS_CONFORM_H
#define TX_TOOLS_CONFORM_H

/* Runs every suite file (or every *.json under a directory) named in paths.  Prints one line per
 * failing case and the closing line "N passed, N failed[, N skipped]".  Returns the exit code.
 * With --plan first, every case is also sized in plan mode and must agree with its run. */
int conform_main(int argc, char **argv);

#endif
