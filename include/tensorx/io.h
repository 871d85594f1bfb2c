/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/io.h -- .npy files and interoperability.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/io.h"
#endif
#ifndef TENSORX_IO_H
#define TENSORX_IO_H

/* ------------------------------------------------------------------------------------------------
 * .npy files (numpy format 1.0, 2.0, 3.0)
 *
 * Reading takes every numeric dtype numpy has, little- or big-endian (converted to host order),
 * C or Fortran order (converted to row-major), zero-size and scalar arrays, 'S' byte strings and
 * 'U' unicode (converted to UTF-8).  numpy has no bfloat16, float8 or quantized types: tensorx
 * writes them as a one-field structured dtype whose field name is the tensorx dtype name, e.g.
 * [('bfloat16', '<u2')], [('float8_e4m3fn', '|u1')], [('int4', '|i1')] (one element per byte;
 * reading keeps each byte's low 4 bits) or [('qint8', '|i1')], which numpy reads as a
 * record array (.view(ml_dtypes.float8_e4m3fn) gives ml_dtypes' array) and tensorx reads back as
 * the original dtype.  String tensors are written as 'S<maxlen>'; numpy (and this reader)
 * strip trailing NUL bytes of 'S' elements, so strings that end in NUL do not round-trip.
 * Malformed, truncated or lying headers and data give invalid_argument, never a read past the
 * buffer.
 * Compressed input: a file, descriptor or buffer that starts with gzip's magic (1f 8b) or a zlib
 * header (a .npy starts with 93 'NUMPY', so neither is ambiguous) is decompressed as it is read
 * (src/io/zstream.c), front to back once, as a pipe is read: the header, then the data straight
 * into the tensor; memory is the tensor, zlib's window and a 64 KiB input buffer (a file is read,
 * never mapped).  Corrupt compressed data, or a stream that stops before its end, gives data_loss;
 * decompressed bytes after the data invalid_argument.  It needs zlib (CMake option TX_WITH_ZLIB):
 * without it, unimplemented.
 * --------------------------------------------------------------------------------------------- */
/* tx_npy_load reads the .npy file at path into a new, writable tensor; tx_npy_load_buffer reads
 * the size bytes of a .npy file at data (which stay the caller's; the tensor has its own copy).
 * tx_npy_load maps the data of a regular file when they can be used in place (numeric, C order or
 * rank <= 1, host byte order or 1-byte units, aligned for the dtype; from 1 MiB up) instead of
 * reading them: a private copy-on-write mapping, so the load costs no copy and no memory until
 * pages are read, writes through tx_tensor_data() never reach the file, and a page is copied
 * only when written (bool and int4/uint4 bytes are normalised in place, copying only pages that
 * change).  The mapping goes when the last tensor or view sharing it is freed.  As with any
 * mapping, other processes' later changes to the file may show through pages not yet written,
 * and reading a page that a truncation of the file removed raises SIGBUS.  Any other file
 * (byte-swapped, Fortran order, strings, small, not a regular file, or mmap failing) is read
 * straight into the tensor: memory at most the tensor plus a window of 1 MiB (Fortran order and
 * strings are converted through it), the header's buffer aside.
 * Errors: invalid_argument (path, out, or data with size > 0, NULL; the file cannot be opened or
 * read, naming it and the system's reason, errno kept; a malformed, truncated, lying or
 * unsupported header or data, naming what is wrong -- the file must hold exactly the data the
 * header announces; a header longer than 16 MiB from a file); resource_exhausted (allocation
 * failed, or the tensor exceeds tx_set_max_tensor_bytes(), mapped or not). */
TX_API tx_status tx_npy_load(const char *path, tx_tensor **out);
TX_API tx_status tx_npy_load_buffer(const void *data, size_t size, tx_tensor **out);
/* Reads one .npy from the open file descriptor fd, from its current position to its end, into a
 * new, writable tensor, as tx_npy_load reads a file: a regular file is mapped or read with the
 * same rules; anything else (a pipe, a socket, a terminal) is read front to back once, header
 * first, then the data straight into the tensor (strings into storage of the data's size).
 * fd stays open and the caller's; its position afterwards is unspecified.  The input must end
 * where the data end: a stream is read to its end to check it.
 * Errors: those of tx_npy_load (messages name the file as "fd N"); invalid_argument for a
 * negative fd; out_of_range when the input holds no byte at all (an empty pipe: whatever should
 * have written it wrote nothing); unimplemented on a platform without POSIX file descriptors.
 * Since 0.3. */
TX_API tx_status tx_npy_load_fd(int fd, tx_tensor **out);
/* Writes tensor t as a .npy file at path, format 1.0 (2.0 for a header beyond 65535 bytes),
 * little-endian, from the tensor's own bytes: no copy of the data (string records and, on a
 * big-endian host, byte swaps go through a window of at most 1 MiB).  When path is a regular
 * file or names none, the data go to a new temporary file in the same directory that is renamed
 * over path only once everything is written and closed: after a failure path is as it was and
 * the temporary file is removed (a replaced file keeps its permission bits; other hard links to
 * it keep the old contents).  A symbolic link to a regular file is followed, and the file it ends
 * at is replaced so (never emptied first: it may be the input being saved, mapped).  Otherwise
 * -- a device such as /dev/stdout or /dev/full, a FIFO, a link to one -- path is opened for
 * writing and written directly, and a failure may leave part of the data there.  The data are not fsync'ed.
 * Errors: invalid_argument (path or t NULL; path is a directory; the file cannot be created,
 * written, closed or renamed, naming it with the system's reason, e.g. "No space left on
 * device", errno kept); resource_exhausted (allocation failed). */
TX_API tx_status tx_npy_save(const char *path, const tx_tensor *t);
/* Writes tensor t as tx_npy_save writes it (the same bytes, with no copy of the data) to the open
 * file descriptor fd at its position, e.g. a pipe or a socket; fd stays open and the caller's.
 * After a failure part of the file may have been written.
 * Errors: invalid_argument (fd negative; t NULL; a write fails, naming "fd N" and the system's
 * reason, errno kept); resource_exhausted (allocation failed); unimplemented on a platform
 * without POSIX file descriptors.  Since 0.3. */
TX_API tx_status tx_npy_save_fd(int fd, const tx_tensor *t);
/* tx_npy_save_buffer serialises tensor t as tx_npy_save writes it into a new buffer allocated with
 * the library allocator: *data receives it and *size its length, and the caller owns it and frees
 * it with tx_buffer_free(data, size), which takes exactly that pointer and size (NULL is a no-op).
 * Errors: invalid_argument (t, data or size NULL: *data is NULL and *size 0 then);
 * resource_exhausted (the file size overflows, or allocation failed). */
TX_API tx_status tx_npy_save_buffer(const tx_tensor *t, void **data, size_t *size);
TX_API void tx_buffer_free(void *data, size_t size);

/* ------------------------------------------------------------------------------------------------
 * Interoperability: DLPack, strings over external bytes, memory-mapped files, streaming .npy
 * Implemented in src/io/dlpack.c, src/io/mmap.c, src/io/npy_stream.c and src/io/string_layouts.c.
 * See docs/interop.md.
 * --------------------------------------------------------------------------------------------- */
/* TX_SECTION_INTEROP_BEGIN */

/* DLPack (https://dmlc.github.io/dlpack/).  Only pointers to DLManagedTensor and
 * DLManagedTensorVersioned appear here, so this header does not need <dlpack/dlpack.h>; include
 * that header yourself to look inside the structs.  tensorx is built against DLPack 0.6 (Debian's
 * libdlpack-dev); the unversioned DLManagedTensor has the same layout in every DLPack release up
 * to 1.x, which still accepts it.  DLPack 1.0's DLManagedTensorVersioned (version {1, x}, flags)
 * is taken and given by the _versioned functions whatever header tensorx was built with, since the
 * standard fixes its layout; a DLPack 0.x header lacks it, so a caller that makes or reads one
 * needs a DLPack >= 1.0 header, or tensorx_dlpack.h (installed beside this header), which is
 * <dlpack/dlpack.h> plus that struct when the header lacks it.
 *
 * Read-only memory: only the versioned struct can say that the data must not be written
 * (DLPACK_FLAG_BITMASK_READ_ONLY).  So: a versioned import with that flag gives a read-only
 * tensor; a versioned export of a read-only tensor sets it; an unversioned import is writable
 * (its producer could not mark it, and producers that keep read-only memory, such as NumPy,
 * refuse to hand it out that way); an unversioned export of a read-only tensor is refused, for the
 * same reason.
 *
 * A library built without the DLPack header (CMake option TX_WITH_DLPACK) has all four functions
 * below; they return TX_UNIMPLEMENTED ("... built without DLPack ...") and never touch `managed`.
 *
 * dtype mapping (lanes must be 1):
 *   bool                   <-> {code 6 (kDLBool, DLPack >= 0.8), bits 8}
 *   int8/16/32/64          <-> {kDLInt, 8/16/32/64}      uint8/16/32/64 <-> {kDLUInt, 8/16/32/64}
 *   float16/32/64          <-> {kDLFloat, 16/32/64}      bfloat16       <-> {kDLBfloat, 16}
 *   complex64/complex128   <-> {kDLComplex, 64/128}
 *   DLPack 1.1's codes (tensorx_dlpack.h defines them for older headers), bits 8:
 *   float8_e4m3b11fnuz 9, float8_e4m3fn 10, float8_e4m3fnuz 11, float8_e5m2 12,
 *   float8_e5m2fnuz 13, float8_e8m0fnu 14;  float6_e2m3fn / float6_e3m2fn <-> {15 / 16, bits 6};
 *   float4_e2m1fn <-> {17, bits 4};  int4 / uint4 <-> {kDLInt / kDLUInt, 4};
 *   int2 / uint2 <-> {kDLInt / kDLUInt, 2}
 * Strings and the quantized dtypes have no DLPack type (unimplemented), nor float8_e3m4 (7) and
 * float8_e4m3 (8), which tensorx lacks.
 *
 * Sub-byte dtypes (bits < 8: int4, uint4, int2, uint2, float4, float6).  DLPack packs them (element
 * i in bits [i * bits, (i + 1) * bits) of the bytes, least significant bit first) unless a
 * versioned tensor's flags have DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (one per byte, as
 * tensorx holds them).  So: the versioned export sets that flag and shares t's bytes; the
 * unversioned export, which has no flags, gives a packed copy (pad bits 0); an import with the
 * flag takes the bytes as one-byte elements (in place when they are the bytes tensorx holds: an
 * integer's value bits with zeros above, a float's as tx_tensor_from_data makes them; otherwise
 * a normalised copy, since tensorx never writes a producer's memory); an import without it (every
 * unversioned one) unpacks into a new tensor, with strides in elements and byte_offset in bytes
 * as DLPack defines them (pad bits ignored). */
struct DLManagedTensor;
struct DLManagedTensorVersioned;

/* Imports a DLPack tensor.  On TX_OK the library owns `managed`: *out is a tensor whose data are
 * managed's data (no copy) when they are row-major (strides NULL, or strides that equal the
 * row-major ones for every dim of size > 1) and aligned for the dtype; managed->deleter(managed)
 * is then called exactly once, when the last tensorx tensor or view sharing that buffer is freed
 * (from whichever thread frees it).  Otherwise (any other strides, including negative and zero
 * ones, unaligned data, or zero elements) the elements are copied into a new buffer and the deleter
 * is called before this function returns TX_OK.  A NULL deleter is allowed (nothing is called).
 * On failure the deleter is NOT called: `managed` still belongs to the caller, who must delete it.
 * The data address is data + byte_offset.  The library reads the memory, never writes it.
 * A sub-byte dtype is packed here (the struct has no padded flag): always unpacked into a new
 * tensor (see "Sub-byte dtypes" above).
 * Errors: invalid_argument (managed or out NULL; ndim < 0 or > TX_MAX_RANK; shape NULL with
 * ndim > 0; a negative dim; data NULL with elements; lanes != 1; dtype.bits 0, or other than a
 * float8 / float6 / float4 code's 8 / 6 / 4, "dtype.bits is ..."; for the strided copy, a byte
 * or bit offset that overflows int64); unimplemented (device other than kDLCPU; a dtype outside
 * the table above); resource_exhausted (an element count that overflows int64; allocation failed;
 * the copy exceeds the tensor size limit).
 * The tensor is writable: DLPack's unversioned struct has no read-only flag, so its producer has
 * not said otherwise (use tx_tensor_from_dlpack_versioned for memory that must not change).
 * Since 0.1. */
TX_API tx_status tx_tensor_from_dlpack(struct DLManagedTensor *managed, tx_tensor **out);

/* tx_tensor_from_dlpack for DLPack 1.x's DLManagedTensorVersioned: the same rules (ownership,
 * deleter, copies, errors; messages start "from_dlpack_versioned: "), and when managed->flags has
 * DLPACK_FLAG_BITMASK_READ_ONLY the tensor and its views are read-only (tx_tensor_is_writable is
 * 0), whether its data are managed's or a copy; DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED says a
 * sub-byte dtype is one per byte (without it, it is packed and unpacked into a new tensor).  Other
 * flags are ignored (IS_COPIED only says the producer made a copy).
 * Errors: those of tx_tensor_from_dlpack; unimplemented (version.major other than 1: another
 * layout, of which tensorx reads only version).  On failure the deleter is not called (DLPack
 * says it is safe to call for any version).  Since 0.2. */
TX_API tx_status tx_tensor_from_dlpack_versioned(struct DLManagedTensorVersioned *managed,
                                                 tx_tensor **out);

/* Exports `t` as a DLPack tensor without copying: data points at t's buffer, device is
 * {kDLCPU, 0}, byte_offset 0, shape and strides (row-major, in elements, never NULL) are owned
 * by the DLManagedTensor.  The export holds its own reference on t's buffer, so t may be freed
 * first; the consumer must call (*out)->deleter(*out) exactly once, which releases that reference
 * (the buffer goes when its last user goes).  tensorx treats tensor contents as immutable: a
 * consumer that writes through data changes every tensor sharing the buffer.
 * A sub-byte dtype (int4, uint4, int2, uint2, float4, float6) leaves packed, as this struct
 * must say it (it has no padded flag): data are a packed copy, which the consumer owns, so
 * read-only tensors of these dtypes are exported too.
 * Errors: invalid_argument (t or out NULL; t read-only (not sub-byte), "to_dlpack: t is read-only
 * and a DLManagedTensor cannot say so ...": use tx_tensor_to_dlpack_versioned, or export
 * tx_tensor_copy(t)); unimplemented (string or quantized dtype); resource_exhausted (allocation
 * failed).  On failure *out is NULL.  Since 0.1 (read-only tensors refused since 0.2; float8,
 * float6, float4, int4 and int2 dtypes since 0.3). */
TX_API tx_status tx_tensor_to_dlpack(const tx_tensor *t, struct DLManagedTensor **out);

/* tx_tensor_to_dlpack as DLPack 1.x's DLManagedTensorVersioned: version {1, 0}, or {1, 1} for
 * the dtypes that need DLPack 1.1 (float8, float6, float4, int4, uint4, int2, uint2); flags
 * DLPACK_FLAG_BITMASK_READ_ONLY when t is read-only (the consumer must not write then), and
 * DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED for a sub-byte dtype (bits are its value bits,
 * one element per byte); the rest as tx_tensor_to_dlpack (the consumer calls
 * (*out)->deleter(*out) once).  Every dtype with a DLPack type, read-only tensors included, is
 * exported without a copy.
 * Errors: invalid_argument (t or out NULL); unimplemented (the dtypes tx_tensor_to_dlpack
 * refuses); resource_exhausted.  On failure *out is NULL.  Since 0.2. */
TX_API tx_status tx_tensor_to_dlpack_versioned(const tx_tensor *t,
                                               struct DLManagedTensorVersioned **out);

/* A string tensor whose elements point into caller-owned bytes, without copying them: element i
 * is strings[i] (row-major, numel(dims) records), and every non-empty strings[i] must lie inside
 * [bytes, bytes + nbytes).  The records are copied (16 bytes each); the bytes are not.
 * release(bytes, release_ctx) is called exactly once, when the last tensor that refers to the
 * bytes is freed -- this includes outputs of data-movement ops (gather, transpose, ...), which
 * keep the bytes alive as they do for any string tensor.  It is not called if this call fails
 * (the caller still owns the bytes then).  release may be NULL.  The bytes must stay unchanged
 * while any such tensor lives.
 * Errors: invalid_argument (out NULL; rank > TX_MAX_RANK or a negative dim; dims NULL with
 * rank > 0; strings NULL with elements; bytes NULL with nbytes > 0; a non-empty string outside
 * the byte range, naming its index); resource_exhausted.  Since 0.1. */
TX_API tx_status tx_tensor_wrap_strings(size_t rank, const int64_t *dims, const tx_string *strings,
                                        void *bytes, size_t nbytes, tx_release_fn release,
                                        void *release_ctx, tx_tensor **out);

/* Memory-maps part of a file as a tensor, without reading it: the row-major elements of a tensor
 * of `dtype` and `dims` stored at byte `offset` of the file at `path` (any offset that suits the
 * dtype's alignment; pages are mapped around it).  The mapping is released when the last tensor
 * sharing it is freed, so mapping successive windows of a large file keeps memory bounded.
 * The data are taken in host byte order unless `byte_swapped` is non-zero, in which case each
 * element (each part of a complex) is reversed in a private copy-on-write mapping, which then
 * costs memory for the whole window.  bool bytes other than 0 and 1 are made 1 the same way, and
 * int4 / uint4 bytes keep only their low 4 bits (zeros above), as tx_tensor_from_data
 * does (only the pages holding such bytes are copied).  Later changes to the file may show through,
 * and, as with any mapping, reading a page that a truncation removed raises SIGBUS.
 * The tensor is read-only, and so are its views: the file is opened read-only and mapped without
 * write permission (the private copy of a fixed-up window too), so tx_tensor_data() returns NULL
 * and tx_tensor_to_dlpack() refuses it; read it with tx_tensor_data_const().
 * Errors: invalid_argument (path or out NULL; unknown or string dtype -- strings use
 * tx_file_map_string; rank > TX_MAX_RANK, dims NULL, a negative dim; an offset not a multiple of
 * the element alignment; not a regular file; the window extends past the end of the file; the
 * file cannot be opened or mapped, with the system's reason); resource_exhausted (mmap found no
 * memory or address space; allocation failed); unimplemented (a platform without mmap).
 * Since 0.1. */
TX_API tx_status tx_file_map(const char *path, uint64_t offset, tx_dtype dtype, size_t rank,
                             const int64_t *dims, int byte_swapped, tx_tensor **out);

/* Memory-maps `length` bytes of the file at `path` from byte `offset` as a scalar string tensor
 * (the input decode_raw takes), without reading or copying them.  Released as tx_file_map's, and
 * read-only as tx_file_map's.
 * Errors: invalid_argument (path or out NULL; not a regular file; the window extends past the
 * end of the file; the file cannot be opened or mapped); resource_exhausted (mmap found no memory
 * or address space; allocation failed); unimplemented (no mmap).  Since 0.1. */
TX_API tx_status tx_file_map_string(const char *path, uint64_t offset, uint64_t length,
                                    tx_tensor **out);

/* Reads the gzip'd or zlib'd file at `path` (recognised by its magic: gzip's 1f 8b, or a zlib
 * header) and gives its decompressed bytes as a new scalar string tensor (the input decode_raw
 * takes; the CLI's @FILE.gz and @FILE.zz).  Concatenated gzip members are read as one stream, as
 * gunzip reads them.  The file is mapped and inflated twice -- once to count the bytes, once into
 * storage of exactly that size -- so memory is the output and zlib's window.
 * Errors: invalid_argument (path or out NULL; the file cannot be opened or mapped, is not a
 * regular file, or starts with neither magic); data_loss (corrupt compressed data; a stream that
 * stops before its end); resource_exhausted (the bytes pass tx_max_tensor_bytes(); allocation
 * failed); unimplemented (a build without zlib, naming TX_WITH_ZLIB; no mmap).  Since 0.3. */
TX_API tx_status tx_file_read_decompressed(const char *path, tx_tensor **out);

/* What a .npy header says, for reading a file piecewise (e.g. through tx_file_map).  The shape
 * goes into the caller's `dims`.  Initialise it with TX_NPY_INFO_INIT (see "Structs the library
 * fills" at the top). */
typedef struct tx_npy_info {
    size_t struct_size;        /* sizeof(tx_npy_info) */
    tx_dtype dtype;            /* the tensor's dtype (TX_STRING for 'S' and 'U' files) */
    size_t rank;               /* the array's rank */
    int64_t *dims;             /* the caller's room for dims_capacity dims: receives the shape */
    size_t dims_capacity;      /* TX_MAX_RANK takes every file */
    int fortran_order;         /* non-zero: the file's data are column-major */
    int byte_swapped;          /* non-zero: the data are in the other byte order than the host's */
    char string_kind;          /* 'S' (bytes) or 'U' (UTF-32 code points) for strings; else 0 */
    size_t item_size;          /* bytes per element in the file */
    uint64_t data_offset;      /* where the data start: magic + lengths + header text */
    uint64_t data_size;        /* numel * item_size: the file holds exactly this many more bytes */
} tx_npy_info;
/* The initialiser of a tx_npy_info whose shape goes into dims[0..dims_capacity):
 * int64_t dims[TX_MAX_RANK]; tx_npy_info info = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
 * Since 0.3. */
#define TX_NPY_INFO_INIT(dims, dims_capacity) \
    { sizeof(tx_npy_info), TX_INVALID_DTYPE, 0, (dims), (dims_capacity), 0, 0, 0, 0, 0, 0 }

/* Reads and checks the header of the .npy file at `path` (format 1.0, 2.0, 3.0) without reading
 * its data: the header follows the rules tx_npy_load applies, and the file must hold exactly
 * data_size bytes after it.
 * Errors: invalid_argument (path or info NULL; info->struct_size not a known size, i.e. info not
 * made with TX_NPY_INFO_INIT; dims NULL with dims_capacity > 0; cannot open; a malformed, lying
 * or unsupported header, as tx_npy_load; a file size that does not match; a rank above
 * info->dims_capacity, when info->rank says the rank to make room for).  On failure the members
 * after struct_size other than dims and dims_capacity are zero (but that rank), except for a bad
 * struct_size, when nothing is written.  Since 0.1. */
TX_API tx_status tx_npy_read_info(const char *path, tx_npy_info *info);

/* Largest header tx_npy_write_header writes, in bytes. */
#define TX_NPY_HEADER_MAX 8192

/* Writes the .npy header that tx_npy_save writes for a tensor of `dtype` and `dims` (the same
 * bytes), so that a writer can stream the little-endian row-major data after it.  The header
 * (format 1.0; 2.0 when it needs more than 65535 bytes) goes into buf; *len receives its size,
 * a multiple of 64.  These are np.save's bytes, spare room included: dims[0] may grow to 21
 * digits and the header keeps its length, so a writer that learns the row count last rewrites
 * the header in place.
 * Errors: invalid_argument (buf or len NULL; unknown dtype; rank > TX_MAX_RANK; a negative dim;
 * cap smaller than the header); unimplemented (string dtype: its item size depends on the data).
 * Since 0.1. */
TX_API tx_status tx_npy_write_header(tx_dtype dtype, size_t rank, const int64_t *dims, void *buf,
                                     size_t cap, size_t *len);
/* String layouts of other runtimes (src/io/string_layouts.c; OpenVINO's begins/ends/symbols are
 * tx_string_tensor_pack / tx_string_tensor_unpack).  Every reader checks every record or offset
 * before it reads a byte and copies the bytes once into the new tensor (the input may be freed
 * afterwards); NUL is an ordinary byte in every layout.  See docs/interop.md. */

/* TensorFlow's TF_STRING tensor data: an array of 24-byte TF_TString records (TF 2.x,
 * tensorflow/tsl/platform/ctstring_internal.h), as TF_TensorData gives for a TF_STRING tensor.
 * The record type is in the low 2 bits of byte 0: SMALL (0: size = byte 0 >> 2, at most 22 bytes
 * inline from byte 1, NUL after them), LARGE (1: size_t size << 2 | 1, size_t capacity, char *),
 * OFFSET (2: uint32 little-endian size << 2 | 2, uint32 little-endian offset of the bytes from
 * the record's own first byte, uint32 unused), VIEW (3: size_t size << 2 | 3, const char *).
 * SMALL and OFFSET records are the same bytes on every host.  LARGE and VIEW size words are host
 * order, as TF keeps them: on a big-endian host the type sits in the low bits of the word's top
 * byte (its first byte) and the size in the bytes below, so such records never move between hosts
 * of different byte order (their pointers could not either). */
typedef enum tx_tstring_form {
    TX_TSTRING_VIEW = 0,  /* long strings as VIEW records pointing into the same buffer: for
                             handing to TF in this process (TF reads VIEW records correctly) */
    TX_TSTRING_OFFSET = 1 /* long strings as OFFSET records: position-independent, for files */
} tx_tstring_form;

/* Writes data's strings as TF_TString records: *out is a 1-D uint8 tensor holding numel(data)
 * records, then the bytes of every string longer than 22 bytes in element order (shorter strings
 * are SMALL records).  Its data are 64-byte aligned; VIEW pointers point into *out's own buffer,
 * so they stay valid while *out lives.  data's shape is not stored (pass it to the reader).
 * Errors: invalid_argument (data NULL or not string; an unknown form; OFFSET with more than
 * UINT32_MAX bytes in all); resource_exhausted.  Since 0.2. */
TX_API tx_status tx_string_tensor_to_tf(const tx_tensor *data, tx_tstring_form form,
                                        tx_tensor **out);

/* Reads `size` bytes at `records` as TF_TString records for a string tensor of shape dims (rank
 * entries): record i is element i; OFFSET bytes must lie inside [records, records + size).
 * LARGE and VIEW records hold pointers, which cannot be checked: they are refused unless
 * allow_pointers is non-zero, which the caller may set only for a TF_TString array of this
 * process whose pointers are valid (e.g. TF_TensorData of a live TF_STRING tensor).
 * Errors: invalid_argument (records NULL with size > 0; a bad rank or dims; size < 24 * numel; a
 * SMALL size above 22; an OFFSET range past the buffer; a pointer record without allow_pointers;
 * a NULL pointer with a non-zero size), naming the element; resource_exhausted.  Since 0.2. */
TX_API tx_status tx_string_tensor_from_tf(const void *records, size_t size, size_t rank,
                                          const int64_t *dims, int allow_pointers,
                                          tx_tensor **out);

/* ONNX Runtime's string tensor content (GetStringTensorContent / the bytes and offsets one fills a
 * tensor from): outs[0] = content, a 1-D uint8 tensor of every string's bytes in row-major order;
 * outs[1] = offsets, a uint64 (size_t) tensor of data's shape, offsets[i] = where element i
 * starts (element i ends where i + 1 starts; the last at the end of content).  outs must have room
 * for 2 handles; on failure both are NULL.
 * Errors: invalid_argument (data NULL or not string); resource_exhausted.  Since 0.2. */
TX_API tx_status tx_string_tensor_to_ort(const tx_tensor *data, tx_tensor **outs);

/* The inverse: a string tensor of offsets' shape from content (1-D uint8) and offsets (uint64 or
 * int64, any shape).  offsets[0] must be 0, offsets must not decrease and must not pass the end
 * of content; with no elements content must be empty.
 * Errors: invalid_argument (NULL inputs, dtypes, ranks, and those rules, naming the element);
 * resource_exhausted.  Since 0.2. */
TX_API tx_status tx_string_tensor_from_ort(const tx_tensor *content, const tx_tensor *offsets,
                                           tx_tensor **out);
/* TX_SECTION_INTEROP_END */

#endif /* TENSORX_IO_H */
