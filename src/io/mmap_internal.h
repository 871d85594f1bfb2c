/* SPDX-License-Identifier: Apache-2.0 */
/* mmap_internal.h -- the file mapper of mmap.c (tx_file_map's) for the .npy loader, which maps a
 * file's data as a writable copy-on-write tensor: one mapper for both. */
#ifndef TX_IO_MMAP_INTERNAL_H
#define TX_IO_MMAP_INTERNAL_H

#include "core/internal.h"

/* Room for a file's name in messages ("'path'" or "fd 3"); longer names are cut. */
#define TX_FILE_NAME_CAP 512

/* Maps the row-major elements of `dtype` and `dims` at byte `offset` of the open regular file fd
 * (which the caller checked holds them, at an offset aligned for the dtype) as a writable tensor
 * over a private copy-on-write mapping: writes never reach the file, and a page is copied only
 * when written.  bool and int4/uint4 bytes are normalised in place (only pages that change are
 * copied).  The mapping goes when the last tensor sharing it goes; fd may be closed at once.
 * `name` names the file in messages.  *refused is set when the system would not map (no mmap;
 * mmap failed): the caller may read the file instead.  Any other failure (allocation) is an error
 * to return. */
TX_HIDDEN tx_status tx__map_cow(const char *op, const char *name, int fd, uint64_t offset,
                                tx_dtype dtype, size_t rank, const int64_t *dims, bool *refused,
                                tx_tensor **out);

/* Maps the whole regular file at path as a read-only 1-D uint8 tensor (tx_file_map), for the
 * readers of whole files (safetensors, IDX).  Errors start with `op: `: invalid_argument (the file
 * cannot be opened or mapped, or is not a regular file, naming it and the system's reason);
 * resource_exhausted; unimplemented without mmap. */
TX_HIDDEN tx_status tx__map_whole_file(const char *op, const char *path, tx_tensor **out);

/* The same kind of tensor made of a caller's `size` bytes at data, copied (the readers'
 * *_open_buffer).  Errors start with `op: `: invalid_argument (data NULL with size > 0);
 * resource_exhausted. */
TX_HIDDEN tx_status tx__copy_whole_buffer(const char *op, const void *data, size_t size,
                                          tx_tensor **out);

#endif
