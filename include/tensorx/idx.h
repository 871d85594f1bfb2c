/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/idx.h -- IDX files (MNIST's format).  One part of the public header: include
 * <tensorx.h>, which includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/idx.h"
#endif
#ifndef TENSORX_IDX_H
#define TENSORX_IDX_H

/* ------------------------------------------------------------------------------------------------
 * IDX files (the format of the MNIST and Fashion-MNIST files, often gzip'd)
 * Implemented in src/io/idx.c (and src/io/zstream.c for gzip).  See docs/interop.md.
 *
 * An IDX file holds one tensor: two zero bytes (the magic), a type code byte, a rank byte, then
 * rank big-endian uint32 dims, then the elements, big-endian and row-major.  The type codes and
 * their dtypes: 0x08 uint8, 0x09 int8, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64; IDX
 * has no other.  Reading checks, before anything is allocated: the magic, a known type code, a
 * rank of at most TX_MAX_RANK, a byte count (the dims' product times the element size) that
 * does not overflow, and exactly that many bytes after the header.  A header or data cut short
 * gives data_loss ("truncated: ..."); a broken rule in the header, or bytes after the data,
 * invalid_argument, naming the field and the rule.
 * gzip: a file or buffer that starts with gzip's magic (1f 8b; an IDX file starts with 00 00) is
 * decompressed as it is read, straight into the tensor, with memory bounded by zlib's window and
 * the tensor, which may not exceed tx_max_tensor_bytes() (resource_exhausted, checked from the
 * header before the data is read).  Corrupt compressed data, or a stream that stops before its
 * end, gives data_loss.  gzip needs zlib (CMake option TX_WITH_ZLIB): without it, unimplemented.
 * --------------------------------------------------------------------------------------------- */

/* Reads the IDX file at path (plain or gzip'd, see above) into *out.  The file is mapped, not
 * read: a plain uint8 or int8 file's tensor is a read-only view of the mapping with no copy (it
 * keeps the mapping alive; as with tx_file_map, later changes to the file may show through, and
 * reading a page that a truncation removed raises SIGBUS); other dtypes and gzip'd files give a
 * new writable tensor in host byte order.
 * Errors: invalid_argument (path or out NULL; the file cannot be opened, is not a regular file
 * or cannot be mapped, with the system's reason; a header that breaks a rule; bytes after the
 * data); data_loss (cut short; corrupt gzip data); resource_exhausted (allocation failed; the
 * tensor exceeds tx_max_tensor_bytes()); unimplemented (gzip without zlib; no mmap).  Since 0.3. */
TX_API tx_status tx_idx_load(const char *path, tx_tensor **out);

/* tx_idx_load over the size bytes at data (plain or gzip'd), which stay the caller's: *out is
 * always a new writable tensor, and data may be freed at once.
 * Errors: those of tx_idx_load without the file's (messages name "the buffer");
 * invalid_argument also for data NULL with size > 0.  Since 0.3. */
TX_API tx_status tx_idx_load_buffer(const void *data, size_t size, tx_tensor **out);

/* Writes tensor as an IDX file at path, gzip'd when path ends in ".gz" (zlib's default level),
 * replaced as tx_npy_save replaces one: whole (through a temporary file renamed over path) or
 * not at all.  tensor is read, never written.
 * Errors: invalid_argument (path or tensor NULL; a dtype IDX lacks, naming it and the six IDX
 * has; a dim over 4294967295; the file cannot be created, written or renamed, with the system's
 * reason, errno kept); unimplemented (".gz" without zlib; a platform without file descriptors);
 * resource_exhausted (allocation failed).  Since 0.3. */
TX_API tx_status tx_idx_save(const char *path, const tx_tensor *tensor);

/* tx_idx_save of tensor (the same rules; never compressed) into a new buffer allocated with the
 * library allocator: *data receives it and *size its length; the caller owns it and frees it
 * with tx_buffer_free(data, size).
 * Errors: those of tx_idx_save without the file's; invalid_argument (data or size NULL);
 * resource_exhausted (allocation failed).  On failure *data is NULL and *size 0.  Since 0.3. */
TX_API tx_status tx_idx_save_buffer(const tx_tensor *tensor, void **data, size_t *size);

#endif /* TENSORX_IDX_H */
