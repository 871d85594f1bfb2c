/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/npz.h -- NumPy .npz files.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/npz.h"
#endif
#ifndef TENSORX_NPZ_H
#define TENSORX_NPZ_H

/* ------------------------------------------------------------------------------------------------
 * .npz files (np.savez, np.savez_compressed, np.load)
 * Implemented in src/io/npz.c (reading), src/io/npz_save.c (writing), src/io/zstream.c (deflate)
 * and the .npy code (src/io/npy_*.c) for the members.  See docs/interop.md.
 *
 * An .npz file is a ZIP archive whose members are .npy files; member "x.npy" holds array "x" (as
 * np.load names it).  Supported: members stored (method 0) or deflated (method 8), ZIP64 records
 * (end of central directory, its locator, and the extra fields NumPy writes for every member),
 * data descriptors (flag bit 3), a comment after the end record.  Not supported (unimplemented):
 * encryption, multi-disk archives, any other compression method.  Refused (invalid_argument or
 * data_loss, naming the file, the member and the rule): bytes before the first member that the
 * central directory does not account for (self-extracting archives), a central directory that
 * does not end where the end record starts, a central directory entry and its local header that
 * disagree (name, method, flags, CRC-32, sizes), a size, offset, name or extra field that points
 * outside the file or the central directory, members that overlap, a stored member whose sizes
 * differ, two members holding the same array name, a member name that is empty or holds a NUL.
 * A member's .npy bytes follow tx_npy_load's rules.  A deflated member must inflate to exactly
 * its declared size (never more is produced: a decompression bomb costs at most that) with the
 * declared CRC-32 (data_loss otherwise); stored members are not CRC-checked (their bytes are
 * handed out in place, unread).  Deflated members need zlib (CMake option TX_WITH_ZLIB): without
 * it, tx_npz_get of one gives unimplemented.
 * --------------------------------------------------------------------------------------------- */

/* An open .npz file: its checked directory and its bytes (opaque; tx_npz_close). */
typedef struct tx_npz tx_npz;

/* Opens the .npz file at path: maps the whole file read-only and checks its whole ZIP structure
 * (see above; the members' .npy headers are read by tx_npz_get).  *out, owned by the caller, is
 * closed with tx_npz_close.  As with tx_file_map, later changes to the file may show through its
 * tensors, and reading a page that a truncation of the file removed raises SIGBUS.
 * Errors: invalid_argument (path or out NULL; the file cannot be opened, is not a regular file or
 * cannot be mapped, with the system's reason; a ZIP structure that breaks a rule, naming the
 * member and the rule); data_loss (a member's header or data run past the central directory);
 * unimplemented (encryption, multi-disk, a method other than 0 and 8; a platform without mmap);
 * resource_exhausted (allocation failed).  Since 0.3. */
TX_API tx_status tx_npz_open(const char *path, tx_npz **out);

/* tx_npz_open over the size bytes at data, which are copied once (data stays the caller's and may
 * be freed at once); *out as tx_npz_open's.
 * Errors: those of tx_npz_open (messages name "the buffer"); invalid_argument for data NULL with
 * size > 0.  Since 0.3. */
TX_API tx_status tx_npz_open_buffer(const void *data, size_t size, tx_npz **out);

/* Closes file (NULL is a no-op).  Tensors taken from it stay valid: a view keeps the file's bytes
 * (the mapping) alive until the last of them is freed.  Since 0.3. */
TX_API void tx_npz_close(tx_npz *file);

/* tx_npz_count returns the number of members of file (0 for NULL); tx_npz_name returns member
 * i's array name (0 <= i < count: its name without ".npy", as np.load's `files` lists it), in the
 * central directory's order (np.savez's argument order), or NULL for a file NULL or i out of
 * range.  The name is owned by file and valid until it is closed.  Since 0.3. */
TX_API size_t tx_npz_count(const tx_npz *file);
TX_API const char *tx_npz_name(const tx_npz *file, size_t i);

/* The array `name` of file as a new read-only tensor (tx_tensor_copy gives a writable one).  A
 * stored member whose data can be used in place (numeric, C order or rank <= 1, host byte order
 * or 1-byte units, bools 0 or 1, aligned for the dtype in the file -- which depends on the member
 * name's length: np.savez aligns nothing, so 1-byte dtypes always are and others by chance) is a
 * view of the file's bytes without a copy; any other stored member is converted into a new tensor
 * as tx_npy_load_buffer converts it; a deflated member is inflated straight into a new tensor
 * (memory: the tensor and zlib's window).
 * Errors: invalid_argument (file, name or out NULL; no array of that name; the member's .npy is
 * malformed or does not fill the member exactly, naming the member); data_loss (corrupt deflate
 * data, a member that inflates to another size than declared, a CRC-32 mismatch);
 * unimplemented (a member whose name does not end in ".npy": np.load gives its raw bytes; a
 * deflated member without zlib); resource_exhausted (allocation failed; the tensor exceeds
 * tx_max_tensor_bytes()).  Since 0.3. */
TX_API tx_status tx_npz_get(const tx_npz *file, const char *name, tx_tensor **out);

/* Writes the count tensors tensors[i] as the .npz file at path, member names[i] + ".npy" holding
 * tensors[i] as tx_npy_save writes it: deflated (zlib's default level, as np.savez_compressed)
 * when compressed is non-zero, else stored (as np.savez).  The bytes are those np.savez /
 * np.savez_compressed write for the same arrays with Python's zipfile (3.8 to 3.12): every local
 * header with a ZIP64 extra field (NumPy forces it), the date 1980-01-01 00:00, permissions 0600,
 * UTF-8 names flagged as such, and the ZIP64 end records when the archive passes zipfile's
 * limits -- for every tensor whose .npy tx_npy_save writes as numpy.save writes that array (see
 * tx_npy_save; strings and tensorx-only dtypes differ).  A deflated member is compressed in
 * memory before it is written (its compressed size goes in the header before the data).  The
 * file is replaced as tx_npy_save replaces one: whole or not at all.
 * Errors: invalid_argument (path NULL; names or tensors NULL with count > 0; a NULL name or
 * tensor; a name that is not valid UTF-8 or is given twice (np.savez's keyword arguments
 * cannot repeat either); the file cannot
 * be created, written or renamed, with the system's reason, errno kept); unimplemented
 * (compressed without zlib); resource_exhausted (allocation failed).  Since 0.3. */
TX_API tx_status tx_npz_save(const char *path, size_t count, const char *const *names,
                             const tx_tensor *const *tensors, int compressed);

/* tx_npz_save of count, names, tensors and compressed (the same rules) into a new buffer
 * allocated with the library allocator: *data receives it and *size its length; the caller owns
 * it and frees it with tx_buffer_free(data, size).
 * Errors: those of tx_npz_save without the file's; invalid_argument (data or size NULL).  On
 * failure *data is NULL and *size 0.  Since 0.3. */
TX_API tx_status tx_npz_save_buffer(size_t count, const char *const *names,
                                    const tx_tensor *const *tensors, int compressed, void **data,
                                    size_t *size);

#endif /* TENSORX_NPZ_H */
