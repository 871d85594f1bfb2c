/* SPDX-License-Identifier: Apache-2.0 */
/* tfrecord.h -- `tensorx tfrecord count|index|cat FILE [compression=...] [-o OUT]` (tools only). */
#ifndef TX_TOOLS_TFRECORD_H
#define TX_TOOLS_TFRECORD_H

/* Runs the command on argv[0..argc) (the words after `tfrecord`); returns the exit status. */
int tfrecord_main(int argc, char **argv);

#endif
