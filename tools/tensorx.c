/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx.c -- the command-line tool's main: everything else is tools/cli.c (cli_main), which the
 * argument fuzzer (fuzz/fuzz_args.c) also runs. */
#include "cli.h"

int main(int argc, char **argv) { return cli_main(argc, argv); }
