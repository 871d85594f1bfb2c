/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/safetensors.h -- safetensors files.  One part of the public header: include
 * <tensorx.h>, which includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/safetensors.h"
#endif
#ifndef TENSORX_SAFETENSORS_H
#define TENSORX_SAFETENSORS_H

/* ------------------------------------------------------------------------------------------------
 * safetensors files (https://github.com/huggingface/safetensors)
 * Implemented in src/io/safetensors.c (reading), src/io/safetensors_save.c (writing) and
 * src/io/json.c (the header's JSON).  See docs/interop.md.
 *
 * The format: an 8-byte little-endian header length N, N bytes of UTF-8 JSON -- an object whose
 * members are tensor name -> {"dtype": NAME, "shape": [dims], "data_offsets": [begin, end]}
 * (offsets into the bytes after the header) and an optional "__metadata__": {string: string} --
 * then the tensors' little-endian, row-major bytes.  Reading checks what the safetensors package
 * checks (the `safetensors` crate's read_metadata): N at most 100,000,000 and inside the file;
 * strict JSON (serde_json's rules: no trailing commas or characters, no leading zeros, no raw
 * control characters or lone surrogates in strings, valid UTF-8, nesting at most 128); every
 * entry with a known dtype, a shape of non-negative integers (rank at most TX_MAX_RANK) and two
 * offsets; the ranges, sorted by offset, following each other from 0 with no gap or overlap; each
 * range exactly the bytes of its shape (whole bytes for F4 and F6); the last range ending at the
 * end of the file.  Members of an entry other than those three are ignored, as the package
 * ignores them.  tensorx is stricter in three ways: a tensor name or metadata key that appears
 * twice is refused (the package keeps the last), and so is a name, key or value holding a NUL
 * character (C strings cannot hold one), and an entry written as an array instead of an object.
 *
 * dtypes (safetensors name <-> tensorx dtype): BOOL bool, U8 uint8, I8 int8, U16 uint16, I16
 * int16, U32 uint32, I32 int32, U64 uint64, I64 int64, F16 float16, BF16 bfloat16, F32 float32,
 * F64 float64, C64 complex64, F8_E5M2 float8_e5m2, F8_E4M3 float8_e4m3fn, F8_E8M0
 * float8_e8m0fnu, F8_E4M3FNUZ float8_e4m3fnuz, F8_E5M2FNUZ float8_e5m2fnuz, F6_E2M3
 * float6_e2m3fn, F6_E3M2 float6_e3m2fn, F4 float4_e2m1fn.  F6 and F4 are packed in the file
 * (element i in bits [i * bits, (i + 1) * bits), least significant first, as tx_pack_subbyte
 * packs them); tensorx holds one element per byte.  The other tensorx dtypes (complex128, int4,
 * uint4, int2, uint2, float8_e4m3b11fnuz, the quantized types, string) have no safetensors dtype.
 * --------------------------------------------------------------------------------------------- */

/* An open safetensors file: its checked header and its bytes (opaque; tx_safetensors_close). */
typedef struct tx_safetensors tx_safetensors;

/* Opens the safetensors file at path: maps the whole file read-only (no read of the data) and
 * checks its header entirely (see above); nothing is handed out from a file that breaks a rule.
 * *out, owned by the caller, is closed with tx_safetensors_close.  As with tx_file_map, later
 * changes to the file may show through its tensors, and reading a page that a truncation of the
 * file removed raises SIGBUS.
 * Errors: invalid_argument (path or out NULL; the file cannot be opened, is not a regular file or
 * cannot be mapped, with the system's reason; a header that breaks a rule, naming the tensor,
 * the field and the rule, e.g. "tensor \"w\": data_offsets [8, 16] overlap: ...");
 * resource_exhausted (allocation failed; mmap found no memory); unimplemented (a platform without
 * mmap).  Since 0.3. */
TX_API tx_status tx_safetensors_open(const char *path, tx_safetensors **out);

/* tx_safetensors_open over the size bytes at data, which are copied once (data stays the
 * caller's and may be freed at once); *out as tx_safetensors_open's.
 * Errors: those of tx_safetensors_open (messages name "the buffer"); invalid_argument for data
 * NULL with size > 0.  Since 0.3. */
TX_API tx_status tx_safetensors_open_buffer(const void *data, size_t size, tx_safetensors **out);

/* Closes file (NULL is a no-op).  Tensors taken from it stay valid: each keeps the file's bytes
 * (the mapping) alive until the last of them is freed.  Since 0.3. */
TX_API void tx_safetensors_close(tx_safetensors *file);

/* tx_safetensors_count returns the number of tensors in file (0 for NULL);
 * tx_safetensors_name returns the name of tensor i (0 <= i < count), in the file's order (by
 * data offset), or NULL for a file NULL or i out of range.  The name is owned by file and valid
 * until it is closed.  Since 0.3. */
TX_API size_t tx_safetensors_count(const tx_safetensors *file);
TX_API const char *tx_safetensors_name(const tx_safetensors *file, size_t i);

/* tx_safetensors_metadata_count returns the number of "__metadata__" entries of file (0 for NULL
 * or none); tx_safetensors_metadata_key and tx_safetensors_metadata_value return entry i's key
 * and value (in the header's order), or NULL for a file NULL or i out of range.  The strings are
 * owned by file and valid until it is closed.  Since 0.3. */
TX_API size_t tx_safetensors_metadata_count(const tx_safetensors *file);
TX_API const char *tx_safetensors_metadata_key(const tx_safetensors *file, size_t i);
TX_API const char *tx_safetensors_metadata_value(const tx_safetensors *file, size_t i);

/* The tensor `name` of file as a new read-only tensor (tx_tensor_data_const reads it;
 * tx_tensor_copy gives a writable one): a view of the file's bytes without a copy when they can
 * be used in place (aligned for the dtype -- files the package writes always are --, on a
 * little-endian host or for 1-byte dtypes, and bool bytes all 0 or 1); otherwise a copy in host
 * byte order with bool bytes made 0 or 1; F4 and F6 are unpacked into a new tensor.
 * Errors: invalid_argument (file, name or out NULL; no tensor of that name); resource_exhausted
 * (allocation failed; the tensor exceeds tx_set_max_tensor_bytes()).  Since 0.3. */
TX_API tx_status tx_safetensors_get(const tx_safetensors *file, const char *name, tx_tensor **out);

/* Writes the count tensors tensors[i] named names[i] as a safetensors file at path, with
 * metadata_count "__metadata__" entries given as metadata[2 * k] (key) and metadata[2 * k + 1]
 * (value), none when metadata_count is 0.  The bytes are those of the safetensors package's
 * serialize / save_file for the same tensors and metadata: tensors ordered by dtype (U64, I64,
 * F64, C64, F32, ... BOOL: the package's order) and then by name (bytewise), the header as
 * compact JSON padded with spaces to a multiple of 8 bytes; metadata entries keep the order
 * given (the package writes them in its hash map's order, which varies from run to run when there
 * are two or more).  The file is replaced as tx_npy_save replaces one: whole (through a temporary
 * file renamed over path) or not at all.  Names and metadata are C strings of valid UTF-8; the
 * tensors are read, never written, and may be freed after the call.
 * Errors: invalid_argument (path NULL; names or tensors NULL with count > 0; metadata NULL with
 * metadata_count > 0; a NULL name, tensor, key or value; a string that is not valid UTF-8; a
 * name "__metadata__"; a name or metadata key given twice; F4 or F6 elements that do not fill
 * whole bytes; a header beyond 100,000,000 bytes; the file cannot be created, written or renamed,
 * with the system's reason, errno kept); unimplemented (a dtype safetensors lacks, see above; a
 * platform without file descriptors); resource_exhausted (allocation failed).  Since 0.3. */
TX_API tx_status tx_safetensors_save(const char *path, size_t count, const char *const *names,
                                     const tx_tensor *const *tensors, size_t metadata_count,
                                     const char *const *metadata);

/* tx_safetensors_save of count, names, tensors, metadata_count and metadata (the same rules) into
 * a new buffer allocated with the library allocator: *data receives it and *size its length; the
 * caller owns it and frees it with tx_buffer_free(data, size).
 * Errors: those of tx_safetensors_save without the file's; invalid_argument (data or size NULL);
 * resource_exhausted (the file's size passes size_t).  On failure *data is NULL and *size 0.
 * Since 0.3. */
TX_API tx_status tx_safetensors_save_buffer(size_t count, const char *const *names,
                                            const tx_tensor *const *tensors,
                                            size_t metadata_count, const char *const *metadata,
                                            void **data, size_t *size);

#endif /* TENSORX_SAFETENSORS_H */
