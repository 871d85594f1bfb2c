/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h -- the tensorx command-line tool as a function (tools only): tools/tensorx.c's main calls
 * cli_main, and the argument fuzzer (fuzz/fuzz_args.c) runs whole command lines through it. */
#ifndef TX_TOOLS_CLI_H
#define TX_TOOLS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Runs `tensorx argv[1] ...` (argv[argc] must be NULL; argv's words may be reordered: --max-bytes
 * and its value are taken out) and returns the exit status: 0 success, 1 the operation or a file
 * failed, 2 a command line the tool cannot take (usage).  Never exits, except from the SIGBUS
 * handler (files.h: a mapped file that shrinks; status 1).  Sets the tensor cap
 * (tx_set_max_tensor_bytes) and, for an op, installs the CLI's allocator (files.h: mapout_install)
 * and the SIGBUS handler (fault_install), and leaves them in place: they are the process's. */
int cli_main(int argc, char **argv);

/* Where the tool prints: results, plans, help and version to `out`, diagnostics ("tensorx: ...")
 * and the progress bar to `err` (drawn only when err is a terminal).  NULL: stdout / stderr (the
 * default).  .npy data for `-o -` goes to file descriptor 1 whatever `out` is. */
void cli_set_streams(FILE *out, FILE *err);
FILE *cli_out(void);
FILE *cli_err(void);

/* The CLI's byte counts (--max-bytes, TENSORX_MAX_BYTES): digits, optionally K, M, G or T (powers
 * of 1024; "Ki", "KiB", "KB" too).  false when text is not one or it overflows size_t. */
bool cli_parse_size(const char *text, size_t *out);

#endif
