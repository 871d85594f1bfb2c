/* SPDX-License-Identifier: Apache-2.0 */
/* npy_internal.h -- the .npy header grammar and layout shared by npy.c (whole files) and
 * npy_stream.c (headers alone, for streaming): one parser, one writer. */
#ifndef TX_IO_NPY_INTERNAL_H
#define TX_IO_NPY_INTERNAL_H

#include "core/internal.h"

/* Checks the magic and version of the first `have` bytes of a file of `file_size` bytes and reads
 * where the header text starts and how long it is (which must fit in the file). */
TX_HIDDEN tx_status tx__npy_prefix(const unsigned char *b, size_t have, uint64_t file_size,
                                   size_t *hstart, uint64_t *hlen);
/* Parses a whole header (b holds at least its `have` >= prefix + text bytes) of a file of
 * `file_size` bytes into info, and checks that exactly data_size bytes follow it. */
TX_HIDDEN tx_status tx__npy_parse(const unsigned char *b, size_t have, uint64_t file_size,
                                  tx_npy_info *info);
/* Writes the whole header (magic, version, length, dict, padding) for a tensor of dtype/dims;
 * string_item is the 'S' item size for strings.  *len is a multiple of 64. */
TX_HIDDEN tx_status tx__npy_header(tx_dtype dtype, size_t rank, const int64_t *dims,
                                   size_t string_item, char *buf, size_t cap, size_t *len);

#endif
