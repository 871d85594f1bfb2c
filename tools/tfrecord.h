/* SPDX-License-Identifier: Apache-2.0 */
/* tfrecord.h -- `tensorx tfrecord count|index|cat|parse FILE [compression=...] ...` (tools only). */
#ifndef TX_TOOLS_TFRECORD_H
#define TX_TOOLS_TFRECORD_H

#include "tensorx.h"

/* Runs the command on argv[0..argc) (the words after `tfrecord`); returns the exit status. */
int tfrecord_main(int argc, char **argv);
/* `tensorx tfrecord parse FILE ...` (tfrecord_parse.c) on argv[0..argc) (FILE first); failures go
 * through report (status, message), whose result is returned. */
/* compression=NAME: TF's compression_type names (GZIP, ZLIB; "" and NONE for none), else
 * OP_USAGE. */
tx_status tfrecord_parse_compression(const char *name, tx_tfrecord_compression *c);
int tfrecord_parse_main(int argc, char **argv, int (*report)(tx_status, const char *));

#endif
