/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h -- the tensorx command-line tool as a function (tools only): tools/tensorx.c's main calls
 * cli_main, and the argument fuzzer (fuzz/fuzz_args.c) runs whole command lines through it. */
#ifndef TX_TOOLS_CLI_H
#define TX_TOOLS_CLI_H

/* Runs `tensorx argv[1] ...` (argv[argc] must be NULL; argv's words may be reordered: --max-bytes
 * and its value are taken out) and returns the exit status: 0 success, 1 the operation or a file
 * failed, 2 a command line the tool cannot take (usage).  Never exits, except from the SIGBUS
 * handler (fault.h: a mapped file that shrinks; status 1).  Sets the tensor cap
 * (tx_set_max_tensor_bytes) and, for an op, installs the CLI's allocator (files.h: mapout_install)
 * and the SIGBUS handler (fault_install), and leaves them in place: they are the process's. */
int cli_main(int argc, char **argv);

#endif
