/* SPDX-License-Identifier: Apache-2.0 */
/* npy_internal.h -- the .npy header grammar and layout (npy_header.c) shared by npy_load.c and
 * npy_save.c (whole files) and npy_stream.c (headers alone, for streaming): one parser, one
 * writer. */
#ifndef TX_IO_NPY_INTERNAL_H
#define TX_IO_NPY_INTERNAL_H

#include "core/internal.h"

/* Checks the magic and version of the first `have` bytes of a file of `file_size` bytes and reads
 * where the header text starts and how long it is (which must fit in the file). */
TX_HIDDEN tx_status tx__npy_prefix(const unsigned char *b, size_t have, uint64_t file_size,
                                   size_t *hstart, uint64_t *hlen);
/* Parses a whole header (b holds at least its `have` >= prefix + text bytes) of a file of
 * `file_size` bytes into info, whose dims must have room for TX_MAX_RANK entries, and checks
 * that exactly data_size bytes follow it. */
TX_HIDDEN tx_status tx__npy_parse(const unsigned char *b, size_t have, uint64_t file_size,
                                  tx_npy_info *info);
/* tx__npy_parse without its last check: the header of b[0, have) (prefix checked against
 * file_size) into info, data_offset and data_size included, however many bytes follow. */
TX_HIDDEN tx_status tx__npy_parse_header(const unsigned char *b, size_t have, uint64_t file_size,
                                         tx_npy_info *info);
/* The rule every loader applies: exactly data_size bytes follow the header (the file has
 * `have`). */
TX_HIDDEN tx_status tx__npy_wrong_size(const tx_npy_info *info, uint64_t have);
/* Writes the whole header (magic, version, length, dict, padding) for a tensor of dtype/dims;
 * string_item is the 'S' item size for strings.  *len is a multiple of 64. */
TX_HIDDEN tx_status tx__npy_header(tx_dtype dtype, size_t rank, const int64_t *dims,
                                   size_t string_item, char *buf, size_t cap, size_t *len);


/* Files are read and written through POSIX file descriptors where there are some. */
#if defined(__unix__) || defined(__APPLE__)
#define TX_NPY_POSIX 1
#else
#define TX_NPY_POSIX 0
#endif

/* Larger reads and writes are split (Linux moves at most 2 GiB - 4 KiB per call). */
#define TX__NPY_IO_CHUNK ((size_t)1 << 30)

/* How tx__npy_load_fd reads (flags, or-ed). */
enum {
    TX__NPY_EMPTY_IS_EOF = 1u, /* an input with no byte at all is out_of_range (tx_npy_load_fd) */
    TX__NPY_MAP = 2u,          /* map data that can be used in place, however small (tests) */
    TX__NPY_READ = 4u,         /* never map: read into a new tensor (tests) */
    TX__NPY_AS_STREAM = 8u,    /* read a regular file front to back once, as a pipe (tests) */
};
/* tx_npy_load and tx_npy_load_fd: the .npy at fd's position; `name` names the file in
 * messages (NULL: "fd N"). */
TX_HIDDEN tx_status tx__npy_load_fd(int fd, const char *name, unsigned flags, tx_tensor **out);

/* The .npy in the decompressed stream z (zstream.h), read front to back once as a pipe is, with
 * tx_npy_load_fd's rules: the stream must end where the data end (else data_loss when it stops
 * early, invalid_argument when bytes follow).  `name` names the file in messages.  The gzip'd
 * and zlib'd .npy loaders and the .npz reader's deflated members use it. */
struct tx__zsource;
TX_HIDDEN tx_status tx__npy_load_z(struct tx__zsource *z, const char *name, tx_tensor **out);

#endif
