/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tensorx.h -- the one public header of tensorx.
 *
 * tensorx implements TensorFlow's "Tensor Transformations" (casting, bitcasting, raw decoding, string
 * tensors, shapes, slicing and joining, reordering, space/batch/depth, gathering and encoding) and
 * OpenVINO's StringTensorPack/Unpack in C11, bit-exact with TensorFlow's CPU kernels.
 *
 * Conventions that hold for every function below:
 *
 *  - Status.  Every fallible call returns a tx_status.  TX_OK is 0; the other values equal
 *    TensorFlow's canonical error codes.  On failure tx_last_error() returns a message naming the
 *    operation, the argument and the rule it broke, e.g. "reshape: shape [3,-1,-1] has more than
 *    one -1".  The message is kept per thread.  The library never aborts, exits or prints.
 *
 *  - Inputs are borrowed.  A `const tx_tensor *` argument is only read during the call; the library
 *    keeps no pointer to the handle afterwards (an output that is a view holds its own reference to
 *    the shared buffer, so the input handle may be freed first).
 *
 *  - Outputs.  An op writes each result through a `tx_tensor **out`.  On TX_OK the caller owns
 *    `*out` and releases it with tx_tensor_free(), whether it is a new tensor or a view.  On failure
 *    `*out` is set to NULL and nothing leaks.  Ops never read `*out` on entry.
 *
 *  - Views.  reshape, squeeze, expand_dims and bitcast return views: new handles on the input's
 *    buffer, with no copy.  Every other op returns a tensor with its own buffer.  Tensor contents are
 *    treated as immutable by the library; a caller that writes through tx_tensor_data() into a
 *    buffer shared by views changes every view.
 *
 *  - Read-only tensors.  A tensor may be written (through tx_tensor_data(), or by a DLPack consumer
 *    of tx_tensor_to_dlpack()) only when tx_tensor_is_writable() says so.  Read-only are: windows
 *    of files from tx_file_map / tx_file_map_string (mapped without write permission: a write
 *    would fault), DLPack imports that the producer marks read-only
 *    (tx_tensor_from_dlpack_versioned with DLPACK_FLAG_BITMASK_READ_ONLY), the bytes view that
 *    tx_string_tensor_unpack may return, and every view or tx_tensor_ref() of a read-only tensor.
 *    Every other tensor is writable, op outputs and tx_tensor_copy() of a read-only tensor
 *    included.  Reading works the same for all: tx_tensor_data_const().  The library refuses to
 *    hand out a read-only tensor's memory for writing (invalid_argument, naming the argument);
 *    ops only read their inputs, so any tensor may be an op's input.
 *
 *  - Structs the library fills.  A struct that the caller allocates and the library fills
 *    (tx_plan and its tx_output_info entries, tx_npy_info, tx_alloc_stats) begins with
 *    `size_t struct_size`, the sizeof of the struct the caller was compiled with, set by its
 *    TX_..._INIT initialiser.  Later versions only append members, so the library fills the
 *    members that the caller's struct has and leaves the rest out: a program built against an
 *    older header keeps working.  A struct_size that is not the size of a layout the library knows
 *    (0 because the struct was not initialised, or a newer header's) is invalid_argument, naming
 *    the struct and the initialiser to use.
 *
 *  - Memory.  Every allocation goes through the allocator set with tx_set_allocator() (default:
 *    aligned malloc).  Allocation failure returns TX_RESOURCE_EXHAUSTED.  A tensor whose byte size
 *    overflows size_t or exceeds tx_set_max_tensor_bytes() is refused before any allocation.
 *
 *  - Sizing.  Any op call can be sized before it runs -- each output's dtype, shape and bytes, or
 *    the call's exact error -- without allocating: TX_PLAN(&plan, call), see "Size before run".
 *
 *  - Byte order.  Tensor data are in host byte order; TX_HOST_LITTLE_ENDIAN says which order a
 *    build uses.  Only bitcast between widths gives host-dependent results (as in TF); decode_raw
 *    and encode_raw take an explicit order, .npy files carry theirs.  Tested on little-endian
 *    x86-64 and aarch64 and on big-endian s390x (docs/platforms.md).
 *
 *  - Thread safety.  Ops may run concurrently on different tensors and on the same input tensors.
 *    tx_set_allocator() and tx_set_max_tensor_bytes() must be called before other threads use the
 *    library.
 *
 * How each declaration is documented (the template; tests/repo/header_docs.py checks the parts it
 * can and fails the build's tests on a declaration without them):
 *  - A block comment directly above the declaration says what it does (for an op: the TensorFlow
 *    op it implements and its rule).  One block may document a group of declarations written
 *    without a blank line between them; it then names each of them.
 *  - Functions: the block names every parameter and says what it must be (NULL or not, dtype,
 *    shape, range); `out` / `outs` (tx_tensor **) follow "Outputs" above unless the block says
 *    otherwise.  A function returning tx_status lists, after "Errors", each status it returns with
 *    the rule that triggers it (or "Errors: those of tx_x" and the differences).  Any other
 *    non-void function says what it returns ("Returns ..."), also for arguments it cannot use.
 *  - Ownership: the block says who owns each pointer that goes in or comes out and how long it
 *    stays valid, where the conventions above do not say it already; a returned pointer always
 *    says it.
 *  - Types: a struct's members each have their own comment or are named in its block; an enum's
 *    block says what it selects (its constants have comments where their names do not say it).
 *    A macro that is API says what it gives and names its parameters.
 *  - Optional: the file that implements it and "Since X.Y", the release that added it (the test
 *    repo.version checks those against the version).
 */
#ifndef TENSORX_H
#define TENSORX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------------
 * Version and export
 * --------------------------------------------------------------------------------------------- */
/* The version of this header: TX_VERSION_MAJOR.TX_VERSION_MINOR.TX_VERSION_PATCH, and
 * TX_VERSION_NUMBER = major * 10000 + minor * 100 + patch (300 for 0.3.0).  The build reads the
 * version from here; compare it with tx_version_number() to check the library a program runs
 * with. */
#define TX_VERSION_MAJOR 0
#define TX_VERSION_MINOR 3
#define TX_VERSION_PATCH 0
#define TX_VERSION_NUMBER (TX_VERSION_MAJOR * 10000 + TX_VERSION_MINOR * 100 + TX_VERSION_PATCH)

/* TX_API marks every function of the library's ABI.  On Windows it is __declspec(dllexport) while
 * the DLL itself is built (TX_BUILDING_SHARED_LIBRARY, which tensorx's build defines),
 * __declspec(dllimport) in a program that uses the DLL, and nothing when TX_STATIC is defined: a
 * program linking the static library must define TX_STATIC (the CMake package's static
 * tensorx::tensorx and `pkg-config --static --cflags tensorx` do).  Elsewhere it gives the symbol
 * default visibility, since the library is built with hidden visibility. */
#if defined(_WIN32) || defined(__CYGWIN__)
#if defined(TX_STATIC)
#define TX_API
#elif defined(TX_BUILDING_SHARED_LIBRARY)
#define TX_API __declspec(dllexport)
#else
#define TX_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define TX_API __attribute__((visibility("default")))
#else
#define TX_API
#endif

/* TX_HOST_LITTLE_ENDIAN: 1 when the compiler targets a little-endian host, 0 for a big-endian one
 * (from __BYTE_ORDER__; 1 where the compiler does not say).  Tensor data are in this order. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TX_HOST_LITTLE_ENDIAN 0
#else
#define TX_HOST_LITTLE_ENDIAN 1
#endif

/* tx_version_number returns TX_VERSION_NUMBER of the library the program runs with (which may
 * differ from the header's), and tx_version_string returns its "major.minor.patch", a static
 * string valid for the life of the program. */
TX_API unsigned tx_version_number(void);      /* TX_VERSION_NUMBER of the library linked */
TX_API const char *tx_version_string(void);   /* "0.3.0" */

/* ------------------------------------------------------------------------------------------------
 * Status
 * --------------------------------------------------------------------------------------------- */
/* The statuses, one X(NAME, code, name) each: TX_STATUS_LIST(X) expands X for every status, in
 * code order, so that the tx_status enum (TX_<NAME> = code), tx_status_name() (name) and every
 * binding's table (the CLI's status names, the Python package's exception classes) come from this
 * one list.  The codes are TensorFlow's canonical error codes (absl::StatusCode), so mapping to
 * TF is the identity.  A frontend's own statuses (the CLI's usage and io_error) take codes of
 * 1000 and above, none of these; tests/unit/test_status.c checks that no two codes collide.
 *   OK                  the call succeeded
 *   INVALID_ARGUMENT    an argument breaks the op's rule (the message says which)
 *   RESOURCE_EXHAUSTED  allocation failed, or a size passes size_t or the tensor limit
 *   OUT_OF_RANGE        where TF says OUT_OF_RANGE (extract_image_patches' sizes)
 *   UNIMPLEMENTED       a dtype or mode the op does not take (as in TF)
 *   INTERNAL            a library bug, or a call plan mode cannot size
 * Since 0.3. */
#define TX_STATUS_LIST(X)                          \
    X(OK, 0, "ok")                                 \
    X(INVALID_ARGUMENT, 3, "invalid_argument")     \
    X(RESOURCE_EXHAUSTED, 8, "resource_exhausted") \
    X(OUT_OF_RANGE, 11, "out_of_range")            \
    X(UNIMPLEMENTED, 12, "unimplemented")          \
    X(INTERNAL, 13, "internal")
/* TX__STATUS_ENUMERATOR(NAME, code, name) is the enumerator TX_<NAME> = code of TX_STATUS_LIST's
 * entry (name unused). */
#define TX__STATUS_ENUMERATOR(NAME, code, name) TX_##NAME = code,
/* The result of every fallible call: TX_OK, TX_INVALID_ARGUMENT, TX_RESOURCE_EXHAUSTED,
 * TX_OUT_OF_RANGE, TX_UNIMPLEMENTED, TX_INTERNAL, as TX_STATUS_LIST describes them. */
typedef enum tx_status { TX_STATUS_LIST(TX__STATUS_ENUMERATOR) } tx_status;

/* Returns the name of status s: "ok", "invalid_argument", "resource_exhausted", "out_of_range",
 * "unimplemented", "internal"; "unknown" for any other value.  Never NULL; a static string, valid
 * for the life of the program. */
TX_API const char *tx_status_name(tx_status s);

/* tx_last_error returns this thread's message for the last failed call; "" if none failed since
 * the last tx_clear_error().  The string is owned by the library and valid until the next tensorx
 * call on this thread; never NULL.  tx_clear_error empties this thread's message. */
TX_API const char *tx_last_error(void);
TX_API void tx_clear_error(void);

/* ------------------------------------------------------------------------------------------------
 * Data types
 * --------------------------------------------------------------------------------------------- */
/* The element type of a tensor.  The values are TensorFlow's DataType numbers
 * (tensorflow/core/framework/types.proto) and are never renumbered; tx_dtype_name() gives each
 * constant's name (TX_FLOAT32 is "float32"). */
typedef enum tx_dtype {
    TX_INVALID_DTYPE = 0,
    TX_FLOAT32 = 1,
    TX_FLOAT64 = 2,
    TX_INT32 = 3,
    TX_UINT8 = 4,
    TX_INT16 = 5,
    TX_INT8 = 6,
    TX_STRING = 7,
    TX_COMPLEX64 = 8,
    TX_INT64 = 9,
    TX_BOOL = 10,
    TX_QINT8 = 11,
    TX_QUINT8 = 12,
    TX_QINT32 = 13,
    TX_BFLOAT16 = 14,
    TX_QINT16 = 15,
    TX_QUINT16 = 16,
    TX_UINT16 = 17,
    TX_COMPLEX128 = 18,
    TX_FLOAT16 = 19,
    TX_UINT32 = 22,
    TX_UINT64 = 23,
    TX_FLOAT8_E5M2 = 24,  /* ml_dtypes' float8_e5m2: 1 sign, 5 exponent, 2 mantissa bits, IEEE-like */
    TX_FLOAT8_E4M3FN = 25, /* ml_dtypes' float8_e4m3fn: 4 exponent, 3 mantissa bits, no inf */
    TX_INT4 = 29,  /* 4-bit signed integer -8..7, one per byte (see tx_tensor_from_packed_int4) */
    TX_UINT4 = 30  /* 4-bit unsigned integer 0..15, one per byte */
} tx_dtype;

/* The family a dtype belongs to, for code that branches on the kind of a dtype rather than on each
 * dtype (tx_dtype_kind_of).  TX_KIND_INVALID is the kind of no dtype: an unknown value. */
typedef enum tx_dtype_kind {
    TX_KIND_INVALID = -1, /* not a dtype (TX_INVALID_DTYPE or a value outside tx_dtype) */
    TX_KIND_BOOL = 0,
    TX_KIND_SIGNED,    /* int8 .. int64, int4 */
    TX_KIND_UNSIGNED,  /* uint8 .. uint64, uint4 */
    TX_KIND_FLOAT,     /* float16, bfloat16, float32, float64, float8_e5m2, float8_e4m3fn */
    TX_KIND_COMPLEX,   /* complex64, complex128 */
    TX_KIND_QUANTIZED, /* qint8, quint8, qint16, quint16, qint32: integer storage */
    TX_KIND_STRING
} tx_dtype_kind;

/* Returns the canonical name of dtype t ("float32", "bfloat16", "string"); "invalid" for an
 * unknown value.  Never NULL; a static string, valid for the life of the program. */
TX_API const char *tx_dtype_name(tx_dtype t);
/* Returns the element size of dtype t in bytes; 0 for an unknown dtype.  A string element is a
 * 16-byte tx_string. */
TX_API size_t tx_dtype_size(tx_dtype t);
/* The kind of dtype t: TX_KIND_SIGNED for int32, TX_KIND_FLOAT for bfloat16, TX_KIND_STRING for
 * string, and so on (the list at tx_dtype_kind).  Returns TX_KIND_INVALID for TX_INVALID_DTYPE and
 * for any value that is not a dtype; it never fails and sets no message.  Since 0.1 (an unknown
 * dtype gave TX_KIND_BOOL before 0.3). */
TX_API tx_dtype_kind tx_dtype_kind_of(tx_dtype t);
/* Parses name, a canonical name or a TensorFlow alias ("half", "float", "double", "tf.float32",
 * "DT_FLOAT"), and returns its dtype.  Returns TX_INVALID_DTYPE (and sets the message) for an
 * unknown name or NULL. */
TX_API tx_dtype tx_dtype_from_name(const char *name);

/* One element of a string tensor: `size` bytes at `data`, which may hold any byte, NUL included,
 * and is not NUL-terminated.  The bytes are immutable and owned by the tensor (valid while a tensor
 * sharing them lives). */
typedef struct tx_string {
    uint64_t size;
    const char *data;
} tx_string;

/* ------------------------------------------------------------------------------------------------
 * Tensors
 * --------------------------------------------------------------------------------------------- */
/* TensorFlow's TensorShape::MaxDimensions(): the largest rank of any tensor. */
#define TX_MAX_RANK 254
/* The largest rank tx_reshape produces: TF's Reshape kernel takes a shape of fewer than
 * MaxDimensions() entries (reshape_op.h, "too many dimensions: must be < 254").  tf.meshgrid and
 * tf.boolean_mask are built on reshape in TF's Python, so their results share this limit. */
#define TX_RESHAPE_MAX_RANK (TX_MAX_RANK - 1)

/* A dense, row-major tensor handle, opaque: made by the tx_tensor_* constructors and the ops,
 * released with tx_tensor_free().  Its storage is reference counted, so views share data. */
typedef struct tx_tensor tx_tensor;

/* New zero-filled tensor of dtype and shape dims[0..rank) (string elements are empty strings).
 * dims may be NULL when rank is 0.
 * Errors: invalid_argument (out NULL; unknown dtype, rank > TX_MAX_RANK, dims NULL with rank > 0,
 * a negative dim), resource_exhausted (byte size overflows or exceeds the limit, or allocation
 * failed). */
TX_API tx_status tx_tensor_new(tx_dtype dtype, size_t rank, const int64_t *dims, tx_tensor **out);

/* New tensor of dtype and shape dims[0..rank) holding a copy of `nbytes` bytes of row-major data;
 * nbytes must equal the tensor's byte size.  Not for strings (use tx_tensor_new_strings).  int4 /
 * uint4 data is one element per byte and only each byte's low 4 bits count (as in ml_dtypes and
 * TF 2.21): the copy keeps them with zeros above, so 0xFF becomes 0x0F (int4 -1, uint4 15).  bool bytes
 * other than 0 become 1 (TF reads any non-zero byte as true).  data stays the caller's.
 * Errors: invalid_argument (out NULL; string or unknown dtype; a bad rank or dims as
 * tx_tensor_new; nbytes other than the byte size; data NULL with nbytes > 0); resource_exhausted.
 */
TX_API tx_status tx_tensor_from_data(tx_dtype dtype, size_t rank, const int64_t *dims,
                                     const void *data, size_t nbytes, tx_tensor **out);

/* int4 and uint4.  tensorx stores them one element per byte, as TensorFlow and ml_dtypes do
 * (the value in the low 4 bits, zeros above in every byte tensorx writes: int4 -6 is 0x0A; readers
 * ignore the upper 4 bits), so every element is addressable and every
 * data-movement op works on them unchanged.  The packed interchange form of ONNX and ONNX Runtime
 * holds two per byte: element 2k in the low nibble of byte k, element 2k+1 in the high nibble, and
 * an odd count leaves the last high nibble 0.
 * tx_tensor_from_packed_int4: a new tensor of shape dims[0..rank) from ceil(numel/2) packed bytes
 * at data (which stay the caller's).  dtype: TX_INT4 or TX_UINT4.  nbytes: exactly ceil(numel/2).
 * Errors: invalid_argument (another dtype, bad shape, wrong nbytes, data NULL with nbytes > 0, a
 * nonzero pad nibble: it usually means the shape and the bytes disagree); resource_exhausted.
 * On failure *out is NULL.  Since 0.2. */
TX_API tx_status tx_tensor_from_packed_int4(tx_dtype dtype, size_t rank, const int64_t *dims,
                                            const void *data, size_t nbytes, tx_tensor **out);
/* tx_tensor_pack_int4: writes t's ceil(numel/2) packed bytes to buf and their count to *written.
 * With buf NULL and cap 0 it only sets *written (a size query).  t stays owned by the caller.
 * Errors: invalid_argument (written or t NULL, t not int4/uint4, buf NULL with cap > 0, cap too
 * small: *written is 0 then and nothing is written).  Since 0.2. */
TX_API tx_status tx_tensor_pack_int4(const tx_tensor *t, void *buf, size_t cap, size_t *written);

/* New string tensor of shape dims[0..rank); element i holds a copy of lengths[i] bytes at
 * strings[i] (NUL allowed; strings[i] may be NULL when lengths[i] is 0).  strings and lengths have
 * numel entries and stay the caller's.
 * Errors: invalid_argument (out NULL; a bad rank or dims as tx_tensor_new; lengths NULL with
 * elements; strings or strings[i] NULL with lengths[i] > 0, naming i); resource_exhausted (the
 * total length overflows size_t, or allocation failed). */
TX_API tx_status tx_tensor_new_strings(size_t rank, const int64_t *dims,
                                       const char *const *strings, const size_t *lengths,
                                       tx_tensor **out);

/* tx_tensor_wrap: a tensor of dtype and shape dims[0..rank) on caller memory, without copying.
 * `release(data, release_ctx)` (a tx_release_fn) is called exactly once, when the last tensor or
 * view sharing the memory is freed, from the thread that frees it; it is not called if this call
 * fails (the caller still owns data then).  release may be NULL.  data must be aligned for the
 * dtype and hold exactly nbytes, the tensor's byte size.  int4 / uint4 memory is taken as it is:
 * every op reads only each byte's low 4 bits, as TF does.  bool memory is not rewritten either:
 * every op reads a non-zero bool byte as true, as TF does.  Memory that the caller (or another
 * thread) changes while an op reads it gives that op wrong values or an error, never an access
 * outside the tensors (docs/reliability.md, "Inputs that change while an op runs").
 * Errors: invalid_argument (out NULL; a bad rank or dims as tx_tensor_new; nbytes other than the
 * byte size; data NULL or misaligned);
 * unimplemented (string dtype: strings are wrapped with tx_tensor_wrap_strings);
 * resource_exhausted. */
typedef void (*tx_release_fn)(void *data, void *release_ctx);
TX_API tx_status tx_tensor_wrap(tx_dtype dtype, size_t rank, const int64_t *dims, void *data,
                                size_t nbytes, tx_release_fn release, void *release_ctx,
                                tx_tensor **out);

/* Releases the handle t; the buffer goes when its last handle goes.  NULL is a no-op. */
TX_API void tx_tensor_free(tx_tensor *t);
/* A new handle on t's buffer, shape and dtype (cheap; no copy); read-only when t is.
 * Errors: invalid_argument (t or out NULL); resource_exhausted. */
TX_API tx_status tx_tensor_ref(const tx_tensor *t, tx_tensor **out);
/* A deep copy of t with its own buffer, always writable (the way to modify a read-only tensor's
 * data).  A string copy shares t's string bytes, which are immutable.
 * Errors: invalid_argument (t or out NULL); resource_exhausted. */
TX_API tx_status tx_tensor_copy(const tx_tensor *t, tx_tensor **out);

/* Accessors of tensor t; none fails or sets a message.
 * tx_tensor_dtype returns its dtype (TX_INVALID_DTYPE for NULL); tx_tensor_rank its rank (0 for
 * NULL); tx_tensor_dims its rank dims, owned by t and valid while t lives (NULL for NULL);
 * tx_tensor_dim returns dim i, or -1 if i >= rank; tx_tensor_numel the product of the dims (1 for
 * a scalar; 0 for NULL); tx_tensor_nbytes numel * dtype size (0 for NULL). */
TX_API tx_dtype tx_tensor_dtype(const tx_tensor *t);
TX_API size_t tx_tensor_rank(const tx_tensor *t);
TX_API const int64_t *tx_tensor_dims(const tx_tensor *t);
TX_API int64_t tx_tensor_dim(const tx_tensor *t, size_t i);
TX_API int64_t tx_tensor_numel(const tx_tensor *t);
TX_API size_t tx_tensor_nbytes(const tx_tensor *t);
/* Returns t's row-major element data (tx_string records for strings), for reading: owned by t and
 * valid while a tensor sharing its buffer lives.  Never NULL for a non-NULL t, even with 0
 * elements (NULL for NULL); works for every tensor, read-only or not.  Since 0.2. */
TX_API const void *tx_tensor_data_const(const tx_tensor *t);
/* Returns non-zero when t's data may be written through tx_tensor_data() (see "Read-only
 * tensors" at the top); 0 for a read-only tensor and for NULL.  Since 0.2. */
TX_API int tx_tensor_is_writable(const tx_tensor *t);
/* Returns t's row-major element data, for writing (or reading): owned by t and valid while a
 * tensor sharing its buffer lives.  Returns NULL, with tx_last_error() set
 * ("tensor_data: t is read-only ..."; invalid_argument), when t is read-only or NULL; never NULL
 * otherwise, even with 0 elements.  A read-only tensor's memory may be a mapping without write
 * permission or a producer's memory that must not change, so handing out a pointer that C lets
 * one write through would turn a mistake into a crash far from its cause, or into silent
 * corruption; NULL fails at once, at the call that made the mistake.  Read with
 * tx_tensor_data_const(), which never fails; to modify a read-only tensor, write into
 * tx_tensor_copy() of it.  t is not const: writing through a tensor needs a handle one may
 * modify (before 0.3 it was const, so a `const tx_tensor *` gave a writable pointer). */
TX_API void *tx_tensor_data(tx_tensor *t);
/* Returns element i of the string tensor t, a record owned by t and valid while t lives; NULL if t
 * is NULL, not a string tensor, or i is out of [0, numel). */
TX_API const tx_string *tx_tensor_string(const tx_tensor *t, int64_t i);
/* Returns non-zero when tensors a and b share one buffer (a view relation); 0 if either is NULL. */
TX_API int tx_tensor_shares_buffer(const tx_tensor *a, const tx_tensor *b);

/* Reads element i (row-major; 0 for a scalar) of t, of an integer dtype (bool, signed and
 * unsigned integers, quantized, int4 / uint4), into *value as int64.
 * Errors: invalid_argument (t or value NULL; a dtype that is not an integer; i out of
 * [0, numel)); out_of_range (a uint64 above INT64_MAX). */
TX_API tx_status tx_tensor_get_int(const tx_tensor *t, int64_t i, int64_t *value);

/* ------------------------------------------------------------------------------------------------
 * Memory
 * --------------------------------------------------------------------------------------------- */
/* A replacement allocator for every tensor buffer and internal allocation (tx_set_allocator).
 * The library copies the struct; ctx is passed to both functions unchanged. */
typedef struct tx_allocator {
    /* Returns `size` bytes aligned to `alignment` (a power of two <= 4096), or NULL. */
    void *(*alloc)(size_t size, size_t alignment, void *ctx);
    /* Frees what alloc returned; `size` is the size that was asked for. */
    void (*free)(void *ptr, size_t size, void *ctx);
    void *ctx; /* the caller's, for alloc and free */
} tx_allocator;

/* Replaces the allocator with a copy of *allocator; NULL restores the default.  Call while no
 * tensor from the previous allocator is alive, and before other threads use the library. */
TX_API void tx_set_allocator(const tx_allocator *allocator);
/* tx_set_max_tensor_bytes sets max_bytes, the largest tensor buffer the library will allocate
 * (default: SIZE_MAX / 2); larger requests fail with resource_exhausted before any allocation,
 * and 0 restores the default.  tx_max_tensor_bytes returns the limit in force. */
TX_API void tx_set_max_tensor_bytes(size_t max_bytes);
TX_API size_t tx_max_tensor_bytes(void);

/* ------------------------------------------------------------------------------------------------
 * Size before run
 *
 * Any op call can be sized without running it: between tx_plan_enter() and tx_plan_leave() the
 * calling thread is in plan mode, where an op validates its arguments exactly as it does when it
 * runs (same checks, same order, same status and message) and then, instead of allocating its
 * outputs, records each output's dtype, shape and byte size (overflow-checked) in the plan and
 * returns.  Plan mode allocates nothing, writes no *out (they stay NULL) and reads only what
 * validation reads (shapes, and the values of index-like inputs that decide errors or shapes).
 * The op uses the same code path in both modes, so a plan can never disagree with a run.
 *
 *     tx_output_info info[4];
 *     int64_t dims[16];
 *     tx_plan plan = TX_PLAN_INIT(info, 4, dims, 16);
 *     tx_status st = TX_PLAN(&plan, tx_tile(x, multiples, &y));   // y stays NULL
 *     // st: TX_OK and plan.count outputs (info[0].dims points into dims), or the error
 *     // tx_tile would return (message included)
 *
 * Output shapes that depend on input values: boolean_mask, dynamic_stitch, sequence_mask without
 * maxlen, decode_raw without fixed_length, string_tensor_pack's bytes and string_tensor_unpack's
 * symbols are exact (the values are read, as the op reads them) and flagged
 * TX_OUTPUT_DATA_DEPENDENT; unique_with_counts (y, count) and dynamic_partition record upper bounds
 * (the input's length), flagged TX_OUTPUT_UPPER_BOUND.  See docs/sizes.md.
 * --------------------------------------------------------------------------------------------- */
/* The bits of tx_output_info.flags: TX_OUTPUT_VIEW, TX_OUTPUT_DATA_DEPENDENT and
 * TX_OUTPUT_UPPER_BOUND, each described beside it. */
#define TX_OUTPUT_VIEW 1u           /* a view of an input's buffer: needs no new data bytes */
#define TX_OUTPUT_DATA_DEPENDENT 2u /* the shape was computed from input values, not only shapes */
#define TX_OUTPUT_UPPER_BOUND 4u    /* dims, numel and nbytes are upper bounds of the real ones */

/* One output of a planned call (see "Structs the library fills" at the top). */
typedef struct tx_output_info {
    size_t struct_size;  /* set by the library to the plan's output_size */
    tx_dtype dtype;      /* the output's dtype */
    size_t rank;         /* the output's rank */
    const int64_t *dims; /* the output's rank dims, in the plan's dims storage; NULL when rank is
                          * 0 or they did not fit (plan->dims_count > plan->dims_capacity) */
    int64_t numel;       /* the output's element count */
    size_t nbytes;       /* numel * dtype size: tx_tensor_nbytes() of the output (16 per string) */
    size_t string_bytes; /* new storage for string bytes besides nbytes (0 when the output's
                          * strings share the inputs' storage, as data-movement ops do) */
    unsigned flags;      /* TX_OUTPUT_* */
} tx_output_info;

/* The caller's record of one op call: `outputs` holds `capacity` entries of output_size bytes
 * each; the op sets `count` to its number of outputs and fills the first min(count, capacity)
 * entries.  The outputs' dims go one after another into `dims`, which holds `dims_capacity`
 * entries; the op sets `dims_count` to the sum of all its outputs' ranks.  Both counts are the
 * full ones even past the room given (a split into more parts than capacity, or outputs with
 * more dims than dims_capacity), so the caller can retry with more room; the storage is the
 * caller's, so plans on different threads share nothing.  Initialise it with TX_PLAN_INIT. */
typedef struct tx_plan {
    size_t struct_size;      /* sizeof(tx_plan) */
    size_t output_size;      /* sizeof(tx_output_info): the size of each entry of outputs */
    tx_output_info *outputs; /* capacity entries, or NULL with capacity 0 (count only) */
    size_t capacity;         /* the number of entries outputs has room for */
    size_t count;            /* set by the library */
    int64_t *dims;           /* dims_capacity entries for the outputs' dims, or NULL with 0 */
    size_t dims_capacity;    /* the number of entries dims has room for */
    size_t dims_count;       /* set by the library: the dims all outputs have */
} tx_plan;
/* An initialiser for a tx_plan recording into outputs[0..capacity) and dims[0..dims_capacity):
 * tx_plan p = TX_PLAN_INIT(info, 4, dims, 16); sets struct_size and output_size to this
 * header's sizes, count and dims_count to 0.  Since 0.3. */
#define TX_PLAN_INIT(outputs, capacity, dims, dims_capacity)                      \
    { sizeof(tx_plan), sizeof(tx_output_info), (outputs), (capacity), 0, (dims), \
      (dims_capacity), 0 }

/* Puts the calling thread in plan mode for the next op call, recording into `plan` (count and
 * dims_count are reset to 0).  Plan mode does not nest; NULL leaves plan mode.  The allocator is
 * never called in plan mode. */
TX_API void tx_plan_enter(tx_plan *plan);
/* Leaves plan mode and turns op_result, the status of the op call made in plan mode, into the
 * plan's: TX_OK when the op's arguments are
 * valid (plan->count outputs recorded, possibly 0), else the op's own error status, with its
 * message in tx_last_error() and plan->count and dims_count 0.  A plan whose struct_size or
 * output_size this library does not know (not made with TX_PLAN_INIT) gives invalid_argument
 * ("plan: plan->struct_size is 0 ...") whatever the op did; the library wrote nothing into it,
 * and the op still ran in plan mode (nothing allocated).  Errors that only running can meet
 * (allocation failure, or a limit met by an upper-bound output's real size) are not predicted.
 * A NULL plan returns op_result unchanged.
 * Errors: the op's own; invalid_argument for an unknown struct_size or output_size. */
TX_API tx_status tx_plan_leave(tx_plan *plan, tx_status op_result);
/* Sizes one op call: TX_PLAN(&plan, tx_tile(x, m, &y)) runs the validation of the call in plan
 * mode and evaluates to tx_plan_leave's status.  The call's outputs stay NULL. */
#define TX_PLAN(plan, call) (tx_plan_enter(plan), tx_plan_leave((plan), (call)))

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

/* ================================================================================================
 * Operations, in the order of TensorFlow's Tensor Transformations page.
 *
 * Mapping rule: what TensorFlow calls an input is a `const tx_tensor *`; what it calls an attribute
 * is a plain C argument.  Integer-list inputs (shape, begin, perm, ...) are int32 or int64 tensors.
 *
 * Name suffixes, each with one meaning:
 *  - `_oob`: the op with one more argument, a tx_oob_policy for out-of-range indices, before the
 *    outputs (tx_gather_oob, tx_gather_nd_oob, tx_one_hot_oob, tx_dynamic_stitch_oob,
 *    tx_batch_to_space_nd_oob, tx_batch_to_space_oob); TX_OOB_ERROR gives the plain op.
 *  - `_in_mode`: the op with one more argument, a mode enum that picks the op's rule, before the
 *    outputs; mode 0 gives the plain op (tx_cast_in_mode with tx_cast_mode and its flags,
 *    tx_depth_to_space_in_mode with tx_depth_mode, tx_unique_with_counts_in_mode with
 *    tx_unique_mode).
 *  - `_v2`, `_nd`, `_n`: TensorFlow's own op names (ReverseV2, GatherNd, ShapeN).
 * Before 0.3 all of the first two were `_ex`, which meant either; the old names remain as
 * deprecated macros for 0.3 only (end of the stable section).
 * ============================================================================================== */

/* ---- Casting ---------------------------------------------------------------------------------
 * Implemented in src/ops/cast.c, src/ops/decode.c, src/ops/string_pack.c. */
/* TX_SECTION_CASTING_BEGIN */

/* tf.cast: a new tensor of `dtype` with x's shape, each element converted by TF's CPU rule (see
 * docs/casting.md for the full table): float -> integer truncates toward zero; NaN and values out
 * of the target's range give the x86-64 result TF gives (e.g. NaN -> int32 is INT32_MIN,
 * 300.0 -> int8 is 44, -1.0 -> uint8 is 255); integer -> integer wraps; x -> bool is x != 0 (NaN
 * is true); complex -> real keeps the real part; real -> complex sets the imaginary part to 0;
 * -> float16 / bfloat16 go through float32 and round to nearest even, keeping NaN a NaN and
 * overflowing to infinity.  float8_e5m2 / float8_e4m3fn follow ml_dtypes (round to nearest even
 * from the exact value; e4m3fn has no infinity, so overflow and inf give NaN; docs/casting.md).
 * -> int4 / uint4 keeps the low 4 bits of the int8 conversion (ml_dtypes' rule: 9 -> int4 is -7,
 * 7.9 -> 7, -1.0 -> uint4 15).
 * Quantized dtypes convert as their integer storage.  A cast to the same
 * dtype is a copy (strings included).
 * x: any tensor.  dtype: any dtype.
 * Errors: invalid_argument (x NULL, unknown dtype); unimplemented (a cast from or to string
 * between different dtypes, "cast: Cast string to float32 is not supported");
 * resource_exhausted.  Always a new buffer.  Implemented in src/ops/cast.c.  Since 0.1. */
TX_API tx_status tx_cast(const tx_tensor *x, tx_dtype dtype, tx_tensor **out);

/* tf.saturate_cast: tf.cast after clamping each value, in x's own type, to the range of `dtype`
 * as TF's Python wrapper does: the bounds are max(in.min, out.min) and min(in.max, out.max)
 * rounded to the input type, each moved one step toward zero if rounding put it outside the
 * output's range (float32 -> int32 clamps to [-2^31, 2147483520]).  Complex -> complex clamps the
 * real and imaginary parts separately (only when the output's part type is narrower); complex ->
 * real keeps the real part and clamps it.  A real input is clamped always, as TF 2.21 does, so a
 * float's infinities become its finite extremes even into a wider type (float16 inf -> 65504 in
 * float32); NaN passes the clamp and converts as tf.cast converts it.  TF compares the rounded upper bound with the output's
 * max in float64, which lets 2^63 through for int64/uint64 targets (and then wraps); tensorx
 * compares exactly, so nothing wraps (float32 -> int64 clamps to 2^63 - 2^39).
 * value: a numeric tensor.  dtype: a numeric dtype.
 * Errors: invalid_argument (value NULL, unknown dtype); unimplemented (bool, string or quantized
 * input or output: TF's dtypes have no min/max for them); resource_exhausted.  Always a new
 * buffer.  Implemented in src/ops/cast.c.  Since 0.1. */
TX_API tx_status tx_saturate_cast(const tx_tensor *value, tx_dtype dtype, tx_tensor **out);

/* How tx_cast_in_mode converts (see docs/casting.md, "Cast modes"). */
typedef enum tx_cast_mode {
    TX_CAST_DEFAULT = 0,  /* tx_cast: TF's bits */
    TX_CAST_SATURATE = 1, /* tx_saturate_cast's rules */
    TX_CAST_CHECKED = 2   /* tx_cast's bits, or an error if any element does not convert exactly */
} tx_cast_mode;

/* tx_cast_in_mode flags.  TX_CAST_EXACT_FLOAT (TX_CAST_CHECKED only): a float or complex target
 * must also hold every value without rounding (float32 0.1 -> float16 fails; NaN stays
 * accepted). */
#define TX_CAST_EXACT_FLOAT 1u

/* tx_cast of x to dtype with a mode and its flags.  TX_CAST_DEFAULT is tx_cast and
 * TX_CAST_SATURATE is tx_saturate_cast (their errors included).  TX_CAST_CHECKED gives tx_cast's
 * result when every element converts exactly, and otherwise fails naming the FIRST element that
 * does not (flat index, multi-index, value) and why.  An element converts exactly when the result
 * equals the value:
 *  - integer, bool or quantized target: NaN, +-infinity, a fractional value and a value outside
 *    the target's range fail (bool holds 0 and 1 only);
 *  - float or complex target: a finite value that overflows (to infinity, or to NaN for a type
 *    without infinity) fails; NaN and infinities that the target holds pass; with
 *    TX_CAST_EXACT_FLOAT a value that would round fails too;
 *  - complex -> non-complex: a nonzero (or NaN) imaginary part fails, since the cast drops it.
 * The check is a separate pass after the plain cast, so TX_CAST_DEFAULT stays as fast as tx_cast.
 * Errors: as tx_cast (or tx_saturate_cast); invalid_argument (unknown mode or flags, flags with a
 * mode other than TX_CAST_CHECKED, "cast: element 2 (index [1,0]) is 300 (int32), which int8
 * cannot hold exactly: out of range").  Always a new buffer.  Implemented in src/ops/cast.c.
 * Since 0.2 (as tx_cast_ex). */
TX_API tx_status tx_cast_in_mode(const tx_tensor *x, tx_dtype dtype, tx_cast_mode mode,
                                 unsigned flags, tx_tensor **out);

/* tf.to_double, tf.to_float, tf.to_bfloat16, tf.to_int32, tf.to_int64: tx_to_double,
 * tx_to_float, tx_to_bfloat16, tx_to_int32 and tx_to_int64 are tx_cast of x to float64, float32,
 * bfloat16, int32 and int64.  Errors as tx_cast.  Implemented in src/ops/cast.c. */
TX_API tx_status tx_to_double(const tx_tensor *x, tx_tensor **out);
TX_API tx_status tx_to_float(const tx_tensor *x, tx_tensor **out);
TX_API tx_status tx_to_bfloat16(const tx_tensor *x, tx_tensor **out);
TX_API tx_status tx_to_int32(const tx_tensor *x, tx_tensor **out);
TX_API tx_status tx_to_int64(const tx_tensor *x, tx_tensor **out);

/* tf.bitcast: a VIEW of input's buffer as dtype `type` (no copy; tx_tensor_shares_buffer() is
 * true).  Equal sizes keep the shape; a larger input type appends a dim of
 * sizeof(input)/sizeof(type) ([3] float32 -> uint8 is [3, 4]); a smaller input type requires the
 * last dim to equal sizeof(type)/sizeof(input) and removes it.  The bytes are reinterpreted in the
 * host's order, as TF does: between widths the result depends on TX_HOST_LITTLE_ENDIAN (int32 1
 * as uint8 is [1, 0, 0, 0] little-endian, [0, 0, 0, 1] big-endian); equal widths keep each
 * value's bits, and complex parts keep their order (real first), on every host.
 * input, type: any numeric dtype except bool, int4 and uint4 (quantized, uint32 and uint64
 * included; TF's Bitcast type list has no 4-bit types).
 * Errors: invalid_argument (input NULL, unknown type, "bitcast: cannot bitcast from float32 to
 * complex128: shape [3] ...", rank would exceed TX_MAX_RANK); unimplemented (bool, string, int4
 * or uint4 input or type).  Implemented in src/ops/cast.c.  Since 0.1. */
TX_API tx_status tx_bitcast(const tx_tensor *input, tx_dtype type, tx_tensor **out);

/* tf.io.decode_raw (and, with fixed_length, TF's DecodePaddedRaw): each string of input_bytes
 * becomes a row of numbers of out_type, so the result has shape input.shape + [n].
 * out_type: float16, float32, float64, int32, uint16, uint8, int16, int8, int64, complex64,
 * complex128, bool, bfloat16 (TF's list); with fixed_length TF's DecodePaddedRaw list, which
 * lacks complex64, complex128 and bool.  Both forms also take uint32 and uint64, which TF's op
 * definitions reject (a tensorx extension, since 0.2).  A decoded bool is 1 for every non-zero byte.
 * little_endian: non-zero if the bytes are little-endian; they are converted to host order
 * (each element reversed when the orders differ; complex types reverse each part separately).
 * fixed_length: NULL for none: every string must then have the same length, a multiple of the
 * type size, and n = length / size (an empty tensor or empty strings give n = 0).  Otherwise
 * *fixed_length must be a positive multiple of the type size; each string is truncated or
 * zero-padded to it before the byte-order conversion, and n = *fixed_length / size.  (TF's own
 * big-endian padded path reads past a short string; tensorx pads with zeros.)
 * Errors: invalid_argument (input_bytes NULL or not string, lengths that differ without
 * fixed_length, a length or fixed_length that is not a multiple of the type size, fixed_length
 * <= 0); unimplemented (an out_type outside the list); resource_exhausted.  New buffer, one copy
 * of the bytes.  Implemented in src/ops/decode.c.  Since 0.1. */
TX_API tx_status tx_decode_raw(const tx_tensor *input_bytes, tx_dtype out_type, int little_endian,
                               const int64_t *fixed_length, tx_tensor **out);

/* encode_raw, the inverse of tx_decode_raw (a tensorx extension; TF has no such op): a string
 * tensor of shape x.shape[:-1] whose element i holds the bytes of row i of x's last dim, each
 * element written in the chosen byte order (little_endian non-zero: little-endian), so that
 * tx_decode_raw(out, dtype(x), little_endian, NULL) gives x back (bit for bit, NaN payloads
 * included) for every dtype decode_raw takes.  x: any dtype but string, rank >= 1 (a scalar has
 * no row; reshape it to [1]).  Complex elements reverse each part separately, as decode_raw does;
 * a bool element is one byte, 0 or 1; quantized dtypes are written as their integer storage.  A
 * last dim of 0 gives empty strings.
 * Errors: invalid_argument (x NULL, string or rank 0); resource_exhausted.  New tensor; the
 * strings share one buffer holding the bytes in row-major order.  Implemented in
 * src/ops/decode.c.  Since 0.2. */
TX_API tx_status tx_encode_raw(const tx_tensor *x, int little_endian, tx_tensor **out);

/* tf.strings.to_number / tf.string_to_number: parses each string as out_type (float32, float64,
 * int32, int64, uint32 or uint64), same shape, as TF 2.21 parses (docs/casting.md has the
 * grammar).  Floats: surrounding whitespace, an optional sign, decimal digits with '.' and an
 * exponent, hexadecimal "0x1F" (with a binary exponent "0x1p3"), "inf", "infinity" and "nan" in
 * any case, correctly rounded at any length (overflow gives +-inf, underflow 0).  Integers:
 * surrounding whitespace, an optional '+' or '-' (unsigned types: no '-'), decimal digits only,
 * and overflow is an error.
 * Errors: invalid_argument (string_tensor NULL or not string; a string that does not parse,
 * naming it and its index: "string_to_number: StringToNumberOp could not correctly convert
 * string: 10foobar ..."); unimplemented (another out_type); resource_exhausted.  New buffer.
 * Implemented in src/ops/decode.c.  Since 0.1. */
TX_API tx_status tx_string_to_number(const tx_tensor *string_tensor, tx_dtype out_type,
                                     tx_tensor **out);

/* OpenVINO StringTensorPack-15: output[i] = symbols[begins[i] : ends[i]] (a [begin, end) range of
 * bytes), with the shape of begins.  begins, ends: int32 or int64 (the same dtype), of equal
 * shapes, any rank.  symbols: 1-D uint8.  Ranges may overlap, skip bytes or be empty.
 * Errors: invalid_argument (NULL input, index dtypes, shapes that differ, symbols not 1-D uint8,
 * a negative begin, begin > end, an end past the symbols); resource_exhausted.  New tensor; the
 * strings share one copy of the referenced symbol bytes.  Implemented in src/ops/string_pack.c. */
TX_API tx_status tx_string_tensor_pack(const tx_tensor *begins, const tx_tensor *ends,
                                       const tx_tensor *symbols, tx_tensor **out);

/* OpenVINO StringTensorUnpack-15: the inverse of pack, in compact form.  outs must have room for
 * three handles: outs[0] begins and outs[1] ends (int32, data's shape), outs[2] symbols (1-D
 * uint8, every string's bytes concatenated in row-major order), so that
 * tx_string_tensor_pack(outs[0], outs[1], outs[2]) gives data back.  When data's strings already
 * lie back to back in element order in one byte storage (tensors from tx_tensor_new_strings,
 * tx_encode_raw, string_tensor_pack of compact ranges, a mapped file, ...), outs[2] is a view of
 * that storage, not a copy: its data pointer is the first string's bytes, and it keeps them
 * alive after data is freed.  That view is read-only (string bytes are immutable, and may be a
 * read-only file mapping): read it with tx_tensor_data_const().  Otherwise the bytes are copied
 * into a writable tensor.
 * Errors: invalid_argument (data NULL or not string, total bytes beyond INT32_MAX);
 * resource_exhausted.  On failure every outs[i] is NULL.  Implemented in src/ops/string_pack.c. */
TX_API tx_status tx_string_tensor_unpack(const tx_tensor *data, tx_tensor **outs);

/* TX_SECTION_CASTING_END */

/* ---- Shapes and shaping ----------------------------------------------------------------------
 * Implemented in src/ops/shapes.c. */

/* tf.shape: 1-D tensor of input's dims.  out_type is TX_INT32 or TX_INT64.
 * Errors: unimplemented (another out_type, checked first: TF 2.21's op definition);
 * invalid_argument (a dim that does not fit int32). */
TX_API tx_status tx_shape(const tx_tensor *input, tx_dtype out_type, tx_tensor **out);

/* tf.shape_n: outs[i] = shape(inputs[i]) for i < n, of dtype out_type (TX_INT32 or TX_INT64).
 * outs must have room for n handles; every input has the dtype of inputs[0] (ShapeN's one T).  On
 * failure every outs[i] is NULL.
 * Errors as tx_shape; invalid_argument if n == 0, an input is NULL or its dtype differs from
 * inputs[0]'s (naming the input and both dtypes). */
TX_API tx_status tx_shape_n(const tx_tensor *const *inputs, size_t n, tx_dtype out_type,
                            tx_tensor **outs);

/* tf.size: a scalar of out_type (TX_INT32 or TX_INT64) holding input's number of elements.
 * Errors as tx_shape (a count that does not fit int32 for TX_INT32). */
TX_API tx_status tx_size(const tx_tensor *input, tx_dtype out_type, tx_tensor **out);

/* tf.rank: an int32 scalar holding input's rank.
 * Errors: invalid_argument (input or out NULL); resource_exhausted. */
TX_API tx_status tx_rank(const tx_tensor *input, tx_tensor **out);

/* tf.reshape: a view of `tensor` with the shape given by the 1-D int32/int64 `shape` tensor.  At
 * most one entry may be -1 (inferred); [] reshapes a 1-element tensor to a scalar; a scalar shape
 * is a one-entry vector, as TF 2.21's kernel takes it.  shape has at most TX_RESHAPE_MAX_RANK
 * (253) entries, one fewer than TX_MAX_RANK, as in TF's kernel.
 * Errors: unimplemented (shape not int32/int64, checked first: TF 2.21's op definition);
 * invalid_argument (shape of rank > 1; more than TX_RESHAPE_MAX_RANK
 * entries ("too many dimensions: must be < 254, but received 254"); an entry < -1, more than
 * one -1, element counts that differ, a -1 that cannot be inferred). */
TX_API tx_status tx_reshape(const tx_tensor *tensor, const tx_tensor *shape, tx_tensor **out);

/* tf.squeeze: a view of input without size-1 dims.  With n_dims == 0 every size-1 dim goes;
 * otherwise only the n_dims dims listed in squeeze_dims (negative counts from the end), each of
 * which must be 1.
 * Errors: invalid_argument (input or out NULL; squeeze_dims NULL with n_dims > 0; a dim out of
 * [-rank, rank), a listed dim whose size is not 1). */
TX_API tx_status tx_squeeze(const tx_tensor *input, const int64_t *squeeze_dims, size_t n_dims,
                            tx_tensor **out);

/* tf.expand_dims: a view of input with a size-1 dim inserted at `dim`, -1-rank <= dim <= rank
 * (negative counts from the end: -1 appends).  Errors: invalid_argument (input or out NULL; dim
 * out of range, rank would exceed TX_MAX_RANK). */
TX_API tx_status tx_expand_dims(const tx_tensor *input, int64_t dim, tx_tensor **out);

/* TX_SECTION_SHAPES_END */

/* ---- Slicing and joining ---------------------------------------------------------------------
 * Implemented in src/ops/slice.c, strided_slice.c, split.c, pad_tile.c (SLICING section) and
 * src/ops/concat.c, reorder.c (REORDER section). */
/* TX_SECTION_SLICING_BEGIN */
/* Every op in this section copies: the output has its own buffer (string outputs keep the input's
 * string bytes alive).  Every dtype is taken, strings included.  Unlike TF's CPU kernels, which
 * refuse some inputs of rank > 8 (pad: > 8, REFLECT/SYMMETRIC pad: > 5) as unimplemented, these
 * ops take any rank up to TX_MAX_RANK.  Details and examples: docs/slicing.md. */

/* tf.slice (src/ops/slice.c): the block of `input_` that starts at `begin` and has `size` elements
 * per dim.  begin and size are 1-D int32 or int64 tensors (the same dtype) with one entry per dim
 * of input_; size[i] == -1 means "to the end of dim i".
 * Errors: unimplemented (begin not int32/int64, checked first: TF 2.21 takes Index from begin);
 * invalid_argument (a NULL argument; size of another dtype than begin's; begin/size not 1-D with
 * rank(input_) entries; for a dim of size D_i > 0 unless 0 <= begin[i] <= D_i and
 * 0 <= size[i] <= D_i - begin[i]; for D_i == 0 unless begin[i] == 0 and size[i] is 0 or -1 -- the
 * message names i and the values); resource_exhausted (allocation). */
TX_API tx_status tx_slice(const tx_tensor *input_, const tx_tensor *begin, const tx_tensor *size,
                          tx_tensor **out);

/* tf.strided_slice (src/ops/strided_slice.c): NumPy-style input_[spec0, ..., specN-1].  begin,
 * end and strides are 1-D int32 or int64 tensors (the same dtype) of one length n < 32; spec i is
 * begin[i]:end[i]:strides[i] modified by bit i of the masks:
 *   begin_mask / end_mask: ignore begin[i] / end[i] and take the fullest range in that direction;
 *   ellipsis_mask: spec i is "..." (at most one bit); an ellipsis is implied after the last spec;
 *   new_axis_mask: spec i inserts a size-1 dim (tf.newaxis); ellipsis wins over new_axis;
 *   shrink_axis_mask: spec i is the single index begin[i] (negative counts from the end) and its
 *     dim is removed; new_axis wins over shrink.
 * Out-of-range begin/end are clamped as in Python slicing; negative values count from the end.
 * begin, end and strides are int16, int32 or int64 (TF's Index), all three of one dtype.
 * Errors: unimplemented (begin not int16/int32/int64, checked first: TF 2.21 takes Index from
 * begin); invalid_argument (a NULL argument; end/strides of another dtype than begin's;
 * begin/end/strides not 1-D, of different lengths, or n >= 32; more than one ellipsis bit; more non-ellipsis,
 * non-new-axis specs than input dims ("Attempting to slice scalar input" for a scalar); strides[i] == 0 (i counts input dims);
 * shrink with a stride <= 0; a shrink index out of [-D, D); a result above TX_MAX_RANK);
 * resource_exhausted (allocation). */
TX_API tx_status tx_strided_slice(const tx_tensor *input_, const tx_tensor *begin,
                                  const tx_tensor *end, const tx_tensor *strides,
                                  int32_t begin_mask, int32_t end_mask, int32_t ellipsis_mask,
                                  int32_t new_axis_mask, int32_t shrink_axis_mask,
                                  tx_tensor **out);

/* tf.split with an integer num_or_size_splits (TF op Split; src/ops/split.c): cuts `value` along
 * split_dim (negative counts from the end) into num_split equal parts, outs[0..num_split).  outs
 * must have room for num_split handles.  When split_dim or num_split is rejected, outs is not
 * written (so a wrong num_split never makes the library write past the caller's array); on any
 * later failure every outs[i] is NULL.
 * Errors: invalid_argument (NULL value/outs; split_dim out of [-R, R), so any split of a scalar;
 * num_split < 1 or > INT32_MAX; num_split not dividing value.shape[split_dim]); resource_exhausted. */
TX_API tx_status tx_split(const tx_tensor *value, int64_t split_dim, int64_t num_split,
                          tx_tensor **outs);

/* tf.split with a list num_or_size_splits (TF op SplitV; src/ops/split.c): n parts along
 * split_dim, part i of size_splits[i]; at most one entry may be -1 and takes the rest.  outs must
 * have room for n handles; on failure every one of them is NULL.
 * Errors: invalid_argument (NULL arguments; n == 0 or n > INT32_MAX; split_dim out of [-R, R);
 * with n == 1, size_splits[0] != value.shape[split_dim] -- TF's rule, so [-1] alone is refused;
 * two -1 entries; the other entries not summing to the dim exactly (no -1) or summing above it
 * (with a -1); a negative entry other than the one -1); resource_exhausted. */
TX_API tx_status tx_split_v(const tx_tensor *value, const int64_t *size_splits, size_t n,
                            int64_t split_dim, tx_tensor **outs);

/* ONNX Split (opset 18) with num_outputs (src/ops/split.c), the ONNX preset of tx_split: cuts
 * `value` along split_dim into num_split parts of ceil(D / num_split) entries each, except the
 * last, which takes the rest and so may be smaller (even 0): D = 7, num_split = 4 -> 2, 2, 2, 1.
 * When num_split divides D this is tx_split.  outs must have room for num_split handles; when
 * split_dim or num_split is rejected outs is not written; on any later failure every outs[i] is
 * NULL.
 * Errors: invalid_argument (NULL value/outs; split_dim out of [-R, R); num_split < 1 or
 * > INT32_MAX; (num_split - 1) * ceil(D / num_split) > D, which leaves no entries for the last
 * part, e.g. D = 7 and num_split = 5); resource_exhausted. */
TX_API tx_status tx_split_uneven(const tx_tensor *value, int64_t split_dim, int64_t num_split,
                                 tx_tensor **outs);

/* num argument of tx_unpack: take the count from value.shape[axis] (Python's num=None). */
#define TX_UNPACK_INFER_NUM (-1)

/* tf.unpack / tf.unstack (TF op Unpack; src/ops/split.c): outs[i] = value[..., i, ...] along axis
 * (negative counts from the end), each of rank R-1.  num is the expected count or
 * TX_UNPACK_INFER_NUM.  outs must have room for num handles (value.shape[axis] when inferred).
 * When an argument is rejected outs is not written; on any later failure every outs[i] is NULL.
 * Errors: invalid_argument (NULL value/outs; num < -1; a scalar value; axis out of [-R, R);
 * num != value.shape[axis]); resource_exhausted. */
TX_API tx_status tx_unpack(const tx_tensor *value, int64_t num, int64_t axis, tx_tensor **outs);

/* tf.tile (src/ops/pad_tile.c): `input` repeated multiples[i] times along dim i.  multiples is a
 * 1-D int32 or int64 tensor with one entry per dim (a scalar is refused, even for a 1-D input, as
 * TF 2.21's kernel refuses it); a scalar input with multiples [] is returned as a copy.
 * Errors: unimplemented (multiples not int32/int64, checked first: TF 2.21's op definition);
 * invalid_argument (NULL arguments; multiples not 1-D or with a
 * length other than rank(input); a negative multiple; an output dim or element count overflowing
 * int64, as TF's TensorShape); resource_exhausted (the output exceeds the byte limit or
 * allocation fails). */
TX_API tx_status tx_tile(const tx_tensor *input, const tx_tensor *multiples, tx_tensor **out);

/* Modes of tx_pad (tf.pad's mode strings "CONSTANT", "REFLECT", "SYMMETRIC"). */
typedef enum tx_pad_mode {
    TX_PAD_CONSTANT = 0,  /* pad with constant_values */
    TX_PAD_REFLECT = 1,   /* mirror without the edge: [1,2,3] padded by 2 -> [3,2,1,2,3,2,1] */
    TX_PAD_SYMMETRIC = 2, /* mirror with the edge:    [1,2,3] padded by 2 -> [2,1,1,2,3,3,2] */
    /* ONNX Pad presets (no TF twin; NumPy's np.pad modes of the same names): */
    TX_PAD_EDGE = 3,      /* repeat the border element: [1,2,3] padded by 2 -> [1,1,1,2,3,3,3] */
    TX_PAD_WRAP = 4       /* wrap around (a torus):     [1,2,3] padded by 2 -> [2,3,1,2,3,1,2] */
} tx_pad_mode;

/* tf.pad (TF ops Pad, PadV2, MirrorPad; src/ops/pad_tile.c): adds paddings[i][0] elements before
 * and paddings[i][1] after dim i.  paddings is an int32 or int64 tensor of shape [rank, 2].
 * constant_values (CONSTANT only; ignored by the other modes, as in TF) is a scalar of the
 * tensor's dtype, or NULL for zero (the empty string for strings).
 * TX_PAD_EDGE and TX_PAD_WRAP are ONNX Pad's (opset 19) 'edge' and 'wrap' modes: out[j] =
 * in[clamp(j - before, 0, D-1)] and in[(j - before) mod D].  A padding may exceed D (wrap repeats
 * the dim periodically, as np.pad), but a dim of size 0 cannot be padded in these modes (np.pad's
 * rule); ONNX's negative pads (cropping) are not taken.
 * Errors: unimplemented (paddings not int32/int64, checked first: TF 2.21's op definition);
 * invalid_argument (NULL tensor/paddings/out; paddings not a [rank, 2] matrix; a negative padding; REFLECT with a padding > D-1 (so any REFLECT of a dim of size 0),
 * SYMMETRIC with a padding > D; EDGE/WRAP with a nonzero padding of a dim of size 0;
 * constant_values not a scalar of the tensor's dtype; an output dim or element count overflowing
 * int64; mode not a tx_pad_mode); resource_exhausted. */
TX_API tx_status tx_pad(const tx_tensor *tensor, const tx_tensor *paddings, tx_pad_mode mode,
                        const tx_tensor *constant_values, tx_tensor **out);
/* TX_SECTION_SLICING_END */
/* TX_SECTION_REORDER_BEGIN */
/* Joining and reordering: concat, pack, meshgrid (src/ops/concat.c) and reverse, reverse_v2,
 * reverse_sequence, transpose (src/ops/reorder.c).  Every op here copies into a new buffer (never
 * a view) and moves elements of any dtype, strings included, without arithmetic, except where a
 * doc block says otherwise (meshgrid's complex values, transpose's conjugate).
 *
 * concat_dim, pack's axis and reverse_v2's axis are plain integers: TensorFlow's Python API takes
 * them as Python ints, and tests/conformance/FORMAT.md lists them as attributes. */

/* tf.concat (ConcatV2): joins values[0..n) along concat_dim, in [-rank, rank) of values[0]
 * (negative counts from the end).  The inputs must share dtype and rank and have equal dims except
 * along concat_dim; zero-size inputs are allowed and contribute nothing.  As in tf.concat, a
 * single value (n == 1) is returned as a copy without looking at concat_dim.
 * Errors: invalid_argument (values NULL or n == 0; values[i] NULL; concat_dim out of range or
 * values[0] a scalar; values[i]'s dtype or rank differs from values[0]'s; a dim other than
 * concat_dim differs -- each message names the offending index i; the joined dim overflows),
 * resource_exhausted (output too large, allocation failed). */
TX_API tx_status tx_concat(const tx_tensor *const *values, size_t n, int64_t concat_dim,
                           tx_tensor **out);

/* tf.pack / tf.stack: n tensors of equal shape [D0..D(R-1)] and dtype become one tensor of rank
 * R+1 with n inserted at `axis`, -(R+1) <= axis < R+1 (negative counts from the end: -1 appends).
 * Errors: invalid_argument (values NULL or n == 0; values[i] NULL; axis out of range; values[i]'s
 * dtype or shape differs from values[0]'s, naming i; rank R+1 > TX_MAX_RANK), resource_exhausted. */
TX_API tx_status tx_pack(const tx_tensor *const *values, size_t n, int64_t axis, tx_tensor **out);

/* meshgrid's `indexing`: "xy" (Cartesian, TensorFlow's default) or "ij" (matrix). */
typedef enum tx_meshgrid_indexing { TX_MESHGRID_XY = 0, TX_MESHGRID_IJ = 1 } tx_meshgrid_indexing;

/* tf.meshgrid: N = n coordinate tensors give N outputs of rank N.  Each args[i] is flattened to
 * 1-D (as tf.meshgrid does with any rank) of length s_i.  With TX_MESHGRID_IJ every output has
 * shape [s_0, ..., s_(N-1)] and outs[i][..., k_i, ...] = args[i][k_i]; with TX_MESHGRID_XY (and
 * N >= 2) the first two dims are swapped: shape [s_1, s_0, s_2, ...].  All args must share one
 * dtype, any dtype including string and bool.  TensorFlow builds the outputs as args[i] * ones,
 * so for complex dtypes each value is multiplied by (1+0i) with the plain complex product
 * (re - im*0, re*0 + im), which is the identity except for signed zeros and non-finite parts;
 * other dtypes are copied bit for bit.  outs must have room for n handles; n == 0 gives no
 * outputs.  On failure every outs[i] is NULL.
 * Errors: invalid_argument (args NULL with n > 0; args[i] NULL; dtype differs from args[0]'s,
 * naming i; unknown indexing; n > TX_RESHAPE_MAX_RANK: TF reshapes each arg to rank n),
 * resource_exhausted. */
TX_API tx_status tx_meshgrid(const tx_tensor *const *args, size_t n,
                             tx_meshgrid_indexing indexing, tx_tensor **outs);

/* tf.reverse as on TensorFlow's page (the legacy Reverse op): reverses every dim i of `tensor`
 * for which the bool vector dims[i] is true; len(dims) must equal the rank.  As TensorFlow's
 * kernel does, a scalar tensor is returned (copied) whatever dims holds, as long as it is bool,
 * and a tensor whose first dim is 0 is refused before dims is looked at.
 * Errors: invalid_argument (NULL; dims not bool; tensor.dims[0] == 0 ("Invalid input first
 * dimension. Found 0."); dims not 1-D; len(dims) != rank), unimplemented (rank > 8, TensorFlow's
 * limit for reverse), resource_exhausted. */
TX_API tx_status tx_reverse(const tx_tensor *tensor, const tx_tensor *dims, tx_tensor **out);

/* Current tf.reverse (ReverseV2): reverses the dims listed in axis[0..n_axis), each in
 * [-rank, rank) (negative counts from the end); an empty list copies.  A scalar tensor or a tensor
 * with no elements (of any rank) is returned (copied) whatever axis holds: TensorFlow's kernel
 * returns them before reading axis.
 * Errors: invalid_argument (axis NULL with n_axis > 0; an axis out of range, naming its index; an
 * axis listed twice, also as a negative alias), unimplemented (rank > 8), resource_exhausted. */
TX_API tx_status tx_reverse_v2(const tx_tensor *tensor, const int64_t *axis, size_t n_axis,
                               tx_tensor **out);

/* tf.reverse_sequence: for each index b of dim batch_dim, reverses the first seq_lengths[b]
 * elements along dim seq_dim and copies the rest.  seq_lengths is a 1-D int32/int64 tensor of
 * length input.dims[batch_dim] with 0 <= seq_lengths[b] <= input.dims[seq_dim] (TensorFlow
 * accepts equality, although its page says "<").  seq_dim and batch_dim are >= 0 (no negative
 * counting in TensorFlow's kernel), below the rank, and differ.  TensorFlow's CPU kernel handles
 * inputs of rank 2 to 5 only; other ranks are an error here as there.
 * Errors: invalid_argument (NULL; seq_lengths not int32/int64 or not 1-D; seq_dim or batch_dim
 * negative or >= rank; seq_dim == batch_dim; len(seq_lengths) != input.dims[batch_dim]; a length
 * negative or above input.dims[seq_dim], naming its index; rank not in [2, 5]),
 * resource_exhausted. */
TX_API tx_status tx_reverse_sequence(const tx_tensor *input, const tx_tensor *seq_lengths,
                                     int64_t seq_dim, int64_t batch_dim, tx_tensor **out);

/* tf.transpose: out.dims[i] = a.dims[perm[i]] and out[i_0..] = a[j_0..] with i_s = j_perm[s].
 * perm is a 1-D int32/int64 tensor holding a permutation of [0, rank); as in TensorFlow's kernel,
 * an entry may be negative (rank is added once) and int64 entries are narrowed to int32 first.
 * perm == NULL means the reversed order (rank-1, ..., 0), tf.transpose's default.  A non-zero
 * `conjugate` negates the imaginary part of complex64/complex128 values (tf.transpose with
 * conjugate=True, i.e. ConjugateTranspose); for other dtypes it changes nothing.
 * Errors: invalid_argument (NULL a; perm not int32/int64 or not 1-D; len(perm) != rank; an entry
 * out of range, naming its index; a repeated entry, naming the missing dim), resource_exhausted. */
TX_API tx_status tx_transpose(const tx_tensor *a, const tx_tensor *perm, int conjugate,
                              tx_tensor **out);
/* TX_SECTION_REORDER_END */

/* Out-of-range index policy of gather, gather_nd, one_hot and dynamic_stitch, and of
 * batch_to_space(_nd)'s crops (the `_oob` forms; the plain forms use TX_OOB_ERROR).  Crops: see
 * tx_batch_to_space_nd_oob.  Results are the same on every machine.  Per op:
 *  - TX_OOB_ERROR: TensorFlow's CPU kernels.  gather, gather_nd and dynamic_stitch fail naming the
 *    index and its position; one_hot gives an all-off row (TF's behaviour, not an error).
 *  - TX_OOB_ZERO (TF's GPU kernels, OpenVINO): an out-of-range index yields zeros (empty strings)
 *    for its slice; a gather_nd index vector with any component out of range yields a zero slice;
 *    one_hot gives an all-off row; dynamic_stitch drops the entry (its data slice is not written).
 *  - TX_OOB_CLAMP (XLA): the index is clamped into [0, dim - 1] (gather_nd per component; one_hot
 *    into [0, depth - 1]; dynamic_stitch: a negative index goes to row 0).
 *  - TX_OOB_WRAP (NumPy's take(mode='wrap')): the index is taken modulo dim with a non-negative
 *    result, so -1 is dim - 1 (gather_nd per component; one_hot modulo depth; dynamic_stitch
 *    modulo the row count max(indices) + 1).
 * dynamic_stitch's output always has max(indices) + 1 rows, so only negative indices are out of
 * range there.  Under clamp and wrap an index into a dim of size 0 has no valid target: that is an
 * invalid_argument error when the output is non-empty (one_hot's depth 0 and dynamic_stitch's 0
 * rows always give empty outputs, so never fail). */
typedef enum tx_oob_policy {
    TX_OOB_ERROR = 0,
    TX_OOB_ZERO = 1,
    TX_OOB_CLAMP = 2,
    TX_OOB_WRAP = 3
} tx_oob_policy;

/* ---- Space, batch and depth ------------------------------------------------------------------
 * Implemented in src/ops/spatial.c. */
/* TX_SECTION_SPATIAL_BEGIN */
/* Every op of this section moves data only: it takes every dtype (strings included; a string
 * output shares the input's byte storage) and returns a new tensor with its own buffer.  Padding
 * cells are zero (empty strings for a string tensor).  block_shape, paddings and crops are int32
 * or int64 tensors (their dtypes may differ).  See docs/spatial.md for worked examples. */

/* Layout of a 4-D image tensor (the values are TensorFlow's TensorFormat numbers). */
typedef enum tx_data_format {
    TX_FORMAT_NHWC = 0,       /* [batch, height, width, depth] (TF's default) */
    TX_FORMAT_NCHW = 1,       /* [batch, depth, height, width] */
    TX_FORMAT_NCHW_VECT_C = 2 /* TF's int8x4 GPU layout: not supported (unimplemented) */
} tx_data_format;

/* Window padding of extract_image_patches (the values are TensorFlow's Padding numbers). */
typedef enum tx_padding {
    TX_PADDING_VALID = 1, /* windows lie inside the image */
    TX_PADDING_SAME = 2   /* ceil(in / stride) windows; the image is zero-padded, the extra cell
                             of an odd padding going at the end */
} tx_padding;

/* tf.space_to_batch_nd: zero-pads spatial dims 1..M of `input` ([batch] + spatial_shape[M] +
 * remaining_shape) by `paddings` ([M, 2]: pad_start, pad_end), cuts each padded dim i into
 * blocks of block_shape[i] and moves the position inside the block into the batch dim.  Output
 * shape [batch * prod(block_shape), padded[0] / block_shape[0], ..., padded[M-1] /
 * block_shape[M-1]] + remaining_shape; output batch index = block_offset_index * batch + b, the
 * block offsets taken in row-major order.  Any M >= 0 (M = 0 copies the input).
 * Errors: invalid_argument (block_shape not a 1-D int32/int64 tensor; input rank < 1 + M;
 * paddings not an int32/int64 tensor of shape [M, 2]; a block_shape entry < 1; a negative
 * padding; a padded size not divisible by its block; a shape computation that overflows int64);
 * resource_exhausted (the output is too large or allocation failed). */
TX_API tx_status tx_space_to_batch_nd(const tx_tensor *input, const tx_tensor *block_shape,
                                      const tx_tensor *paddings, tx_tensor **out);

/* tf.batch_to_space_nd: the inverse of space_to_batch_nd.  `input` is [batch] + spatial_shape[M]
 * + remaining_shape; the batch dim is split into block_shape + [batch / prod(block_shape)],
 * interleaved back into the spatial dims and then cropped by `crops` ([M, 2]: crop_start,
 * crop_end).  Output shape [batch / prod(block_shape), spatial[i] * block_shape[i] - crop_start[i]
 * - crop_end[i] ...] + remaining_shape.
 * Errors: invalid_argument (block_shape not 1-D int32/int64; input rank < 1 + M; crops not
 * int32/int64 of shape [M, 2]; a block_shape entry < 1; batch not divisible by
 * prod(block_shape); a negative crop; crops larger than spatial[i] * block_shape[i]; overflow);
 * resource_exhausted. */
TX_API tx_status tx_batch_to_space_nd(const tx_tensor *input, const tx_tensor *block_shape,
                                      const tx_tensor *crops, tx_tensor **out);

/* tx_batch_to_space_nd of input, block_shape and crops with an out-of-range policy oob for the
 * crops (tx_oob_policy, declared with the gather family).  Output position j of spatial dim i
 * reads position p = j + crop_start[i] of the block-expanded dim, of size
 * full = spatial[i] * block_shape[i].  TX_OOB_ERROR is TF's rule (tx_batch_to_space_nd): crops
 * non-negative with crop_start + crop_end <= full.  Under the other policies crops may be any
 * values (negative ones extend the dim); the output dim is max(0, full - crop_start - crop_end)
 * (crops beyond the dim give an empty output) and a p outside [0, full) reads: TX_OOB_ZERO a zero
 * cell (empty string); TX_OOB_CLAMP position clamp(p, 0, full - 1) (edge cells repeated);
 * TX_OOB_WRAP position p mod full (non-negative).  Crops inside TF's rule give TF's result under
 * every policy.
 * Errors: those of tx_batch_to_space_nd except the crop rules; invalid_argument (an unknown
 * policy; a dim size that overflows int64; under clamp or wrap, a non-empty output with a
 * spatial dim whose full size is 0).  Since 0.2 (as tx_batch_to_space_nd_ex). */
TX_API tx_status tx_batch_to_space_nd_oob(const tx_tensor *input, const tx_tensor *block_shape,
                                          const tx_tensor *crops, tx_oob_policy oob,
                                          tx_tensor **out);

/* tf.space_to_batch (legacy 4-D form): space_to_batch_nd with block_shape = [block_size,
 * block_size] on a 4-D [batch, height, width, depth] input; paddings is [2, 2].
 * Errors: invalid_argument (block_size < 2, input rank != 4, and those of space_to_batch_nd). */
TX_API tx_status tx_space_to_batch(const tx_tensor *input, const tx_tensor *paddings,
                                   int64_t block_size, tx_tensor **out);

/* tf.batch_to_space (legacy 4-D form): batch_to_space_nd with block_shape = [block_size,
 * block_size] on a 4-D input; crops is [2, 2].
 * Errors: invalid_argument (block_size < 2, input rank != 4, and those of batch_to_space_nd). */
TX_API tx_status tx_batch_to_space(const tx_tensor *input, const tx_tensor *crops,
                                   int64_t block_size, tx_tensor **out);
/* tx_batch_to_space of input, crops and block_size with an out-of-range policy oob for the crops,
 * as tx_batch_to_space_nd_oob applies it.
 * Errors: those of tx_batch_to_space_nd_oob, and invalid_argument (block_size < 2, input rank
 * != 4).  Since 0.2 (as tx_batch_to_space_ex). */
TX_API tx_status tx_batch_to_space_oob(const tx_tensor *input, const tx_tensor *crops,
                                       int64_t block_size, tx_oob_policy oob, tx_tensor **out);

/* tf.required_space_to_batch_paddings: the paddings that make block_shape divide input_shape,
 * and the crops that undo the extra part.  input_shape is [M], block_shape [M] and base_paddings
 * [M, 2] (NULL means zeros); all int32 or int64.  outs must have room for 2 handles: outs[0] =
 * paddings, outs[1] = crops, both int32 [M, 2] as in TF:
 *   paddings[i] = [base[i][0], base[i][1] + extra[i]],  crops[i] = [0, extra[i]],
 *   extra[i] = (-(input_shape[i] + base[i][0] + base[i][1])) mod block_shape[i].
 * With M == 0 both are [0, 2] and input_shape / base_paddings shapes are not checked (as in TF).
 * Errors: invalid_argument (a non-integer dtype; block_shape not 1-D; input_shape not [M];
 * base_paddings not [M, 2]; a negative input_shape or base_paddings entry; a block_shape entry
 * < 1; a value or result that does not fit int32); resource_exhausted.  On failure both outs are
 * NULL. */
TX_API tx_status tx_required_space_to_batch_paddings(const tx_tensor *input_shape,
                                                     const tx_tensor *block_shape,
                                                     const tx_tensor *base_paddings,
                                                     tx_tensor **outs);

/* tf.space_to_depth: moves block_size x block_size spatial blocks into depth.  NHWC: [n, h, w, c]
 * -> [n, h / bs, w / bs, c * bs * bs] with out[n, y, x, (dy * bs + dx) * c + k] =
 * in[n, y * bs + dy, x * bs + dx, k] (TF's order); NCHW: the same on [n, c, h, w] ->
 * [n, c * bs * bs, h / bs, w / bs].
 * Errors: invalid_argument (block_size < 2; an unknown data_format; input rank != 4; height or
 * width not divisible by block_size; overflow); unimplemented (TX_FORMAT_NCHW_VECT_C);
 * resource_exhausted. */
TX_API tx_status tx_space_to_depth(const tx_tensor *input, int64_t block_size,
                                   tx_data_format data_format, tx_tensor **out);

/* tf.depth_to_space: the inverse of space_to_depth (TF's "DCR" order).  NHWC: [n, h, w, c] ->
 * [n, h * bs, w * bs, c / (bs * bs)] with out[n, y * bs + dy, x * bs + dx, k] =
 * in[n, y, x, (dy * bs + dx) * (c / (bs * bs)) + k]; NCHW likewise on [n, c, h, w].
 * Errors: invalid_argument (block_size < 2; an unknown data_format; input rank != 4; depth not
 * divisible by block_size * block_size; overflow); unimplemented (TX_FORMAT_NCHW_VECT_C);
 * resource_exhausted. */
TX_API tx_status tx_depth_to_space(const tx_tensor *input, int64_t block_size,
                                   tx_data_format data_format, tx_tensor **out);

/* Orders of the depth entries of tx_depth_to_space_in_mode (ONNX DepthToSpace's mode
 * attribute). */
typedef enum tx_depth_mode {
    TX_DEPTH_DCR = 0, /* depth-column-row: channel (dy * bs + dx) * oc + k (TF's only order) */
    TX_DEPTH_CRD = 1  /* column-row-depth: channel k * bs * bs + dy * bs + dx (ONNX mode CRD) */
} tx_depth_mode;

/* tx_depth_to_space of input, block_size and data_format with a choice of depth order:
 * TX_DEPTH_DCR is tx_depth_to_space; TX_DEPTH_CRD is the ONNX preset,
 * out[n, y * bs + dy, x * bs + dx, k] = in[n, y, x, k * bs * bs + dy * bs + dx] (NHWC; NCHW
 * likewise on [n, c, h, w], which is ONNX's own layout).
 * Errors: those of tx_depth_to_space, and invalid_argument for a mode that is not a
 * tx_depth_mode.  Since 0.2 (as tx_depth_to_space_ex). */
TX_API tx_status tx_depth_to_space_in_mode(const tx_tensor *input, int64_t block_size,
                                           tx_data_format data_format, tx_depth_mode mode,
                                           tx_tensor **out);

/* tf.image.extract_patches / tf.extract_image_patches: `images` [b, rows, cols, depth];
 * ksizes = [1, kr, kc, 1], strides = [1, sr, sc, 1], rates = [1, rr, rc, 1], of n_ksizes,
 * n_strides and n_rates entries (each must be 4).  With effective kernel sizes
 * kr' = (kr - 1) * rr + 1 (and kc'), the output is [b, out_rows, out_cols, kr * kc * depth] where
 * out = (in - k' + s) / s (VALID, C division) or ceil(in / s) (SAME, padded by
 * max(0, (out - 1) * s + k' - in), half of it, rounded down, in front);
 * out[b, r, c, (i * kc + j) * depth + d] = image[b, r * sr + i * rr - pad_top,
 * c * sc + j * rc - pad_left, d], zero outside the image.
 * Errors: invalid_argument (images rank != 4; a list without 4 entries or with an entry that
 * does not fit int32; an unknown padding; a negative output size, as TF); unimplemented (first or
 * last entry of a list != 1, as TF's kernel); out_of_range (a spatial entry < 1, as TF's kernel);
 * resource_exhausted. */
TX_API tx_status tx_extract_image_patches(const tx_tensor *images, const int64_t *ksizes,
                                          size_t n_ksizes, const int64_t *strides,
                                          size_t n_strides, const int64_t *rates, size_t n_rates,
                                          tx_padding padding, tx_tensor **out);
/* TX_SECTION_SPATIAL_END */

/* ---- Gathering, partitioning, masking and encoding -------------------------------------------
 * Implemented in src/ops/gather.c. */
/* TX_SECTION_GATHER_BEGIN */

/* Every op of this section returns new tensors with their own buffers.  The data-movement ops
 * (gather, gather_nd, dynamic_partition, dynamic_stitch, boolean_mask) take every dtype; string
 * outputs share the inputs' byte storages.  Index positions in messages are written as TF does,
 * e.g. "gather: indices[1,0] = 7 is not in [0, 3)".  See docs/gather.md for worked examples. */

/* tf.gather (GatherV2): slices of `params` along `axis` picked by `indices` (int16, int32 or
 * int64, TF's Tindices; any rank).  Output shape
 * params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis+1:].
 * axis counts from the end when negative; batch_dims (negative: counts from the end of indices'
 * dims) leading dims of params and indices are batch dims that must be equal and are walked in
 * step.  TF's Python wrapper uses axis = batch_dims when no axis is given; pass that yourself.
 * An index is checked only when the output is non-empty (as in TF, a zero-size result checks
 * nothing).
 * Errors: invalid_argument (a NULL input; params rank below axis+1 or -axis; batch_dims outside [-rank(indices), rank(indices)], not below rank(params) or above
 * axis; unequal batch dims; params.shape[axis] above the index dtype's maximum (INT16_MAX,
 * INT32_MAX); an index outside [0, params.shape[axis]), named with its position; an output rank
 * above TX_MAX_RANK); unimplemented (indices not int16/int32/int64, a dtype GatherV2 does not
 * list); resource_exhausted (the output is too large, or allocation failed). */
TX_API tx_status tx_gather(const tx_tensor *params, const tx_tensor *indices, int64_t axis,
                           int64_t batch_dims, tx_tensor **out);

/* tx_gather of params, indices, axis and batch_dims with an out-of-range policy `oob` (see
 * tx_oob_policy); tx_gather(...) is tx_gather_oob(..., TX_OOB_ERROR, out).  Under zero, clamp and
 * wrap no index is an error, except that clamp and wrap fail when params.shape[axis] is 0 and the
 * output is non-empty.
 * Errors: those of tx_gather (the out-of-range one only under TX_OOB_ERROR); invalid_argument for
 * an unknown policy or clamp/wrap into an empty axis.  Since 0.2 (as tx_gather_ex). */
TX_API tx_status tx_gather_oob(const tx_tensor *params, const tx_tensor *indices, int64_t axis,
                               int64_t batch_dims, tx_oob_policy oob, tx_tensor **out);

/* tf.gather_nd: `indices` (int16/int32/int64, rank >= 1) is [d_0, ..., d_{N-1}, K] with
 * K <= rank(params); each innermost K-vector indexes params' first K dims and picks an element
 * (K = rank) or a slice.
 * Output shape indices.shape[:-1] + params.shape[K:].  K = 0 picks the whole of params.
 * Errors: invalid_argument (a NULL input; params a scalar; indices a scalar; K > rank(params); more than INT32_MAX index vectors; params' element count or
 * the slice size (product of params.shape[K:]) above the index dtype's maximum (INT16_MAX,
 * INT32_MAX); a non-empty result from an empty params; an index vector out of bounds,
 * named with its position and values); unimplemented (indices not int16/int32/int64);
 * resource_exhausted. */
TX_API tx_status tx_gather_nd(const tx_tensor *params, const tx_tensor *indices, tx_tensor **out);

/* tx_gather_nd of params and indices with an out-of-range policy `oob` (see tx_oob_policy),
 * applied to each component of an index vector against its dim of params (zero: any component out
 * of range zeroes the whole slice).  Under zero, clamp and wrap an empty params is no error by
 * itself: zero gives zeros; clamp and wrap fail only when the output is non-empty (some indexed dim
 * is 0, so no valid index exists).
 * Errors: those of tx_gather_nd (the out-of-range and empty-params ones only under TX_OOB_ERROR);
 * invalid_argument for an unknown policy or clamp/wrap into an empty dim.  Since 0.2 (as
 * tx_gather_nd_ex). */
TX_API tx_status tx_gather_nd_oob(const tx_tensor *params, const tx_tensor *indices,
                                  tx_oob_policy oob, tx_tensor **out);

/* tf.unique_with_counts: the distinct elements of the 1-D `x` in order of first occurrence.
 * outs must have room for 3 handles: outs[0] = y (x's dtype), outs[1] = idx (x's length; y[idx[i]]
 * == x[i]), outs[2] = count (y's length); idx and count are of type out_idx (TX_INT32 or TX_INT64).
 * Expected O(n) time (a hash table).  Equality follows TF's CPU kernel: integers, bool and strings
 * by value (bytes); float32/float64 by ==, so -0.0 and 0.0 are one value (the first seen is kept)
 * and every NaN is distinct; float16/bfloat16 by bit pattern, so -0.0 and 0.0 stay distinct, and
 * every NaN is distinct.  On failure every outs[i] is NULL.
 * Errors: invalid_argument (NULL x or outs; x not 1-D; more than INT32_MAX elements);
 * unimplemented (out_idx not int32/int64; complex, quantized, float8, int4 and uint4 dtypes,
 * which TF's kernel does not take); resource_exhausted. */
TX_API tx_status tx_unique_with_counts(const tx_tensor *x, tx_dtype out_idx, tx_tensor **outs);

/* tf.dynamic_partition: `partitions` (int32, any shape that prefixes data's shape) sends each slice
 * data[js, ...] to outs[partitions[js]], in row-major order of js.  outs must have room for
 * num_partitions handles; outs[i] has shape [count of i in partitions] + data.shape[rank(partitions):]
 * (possibly empty).  On failure every outs[i] is NULL.
 * Errors: invalid_argument (a NULL argument; partitions not int32; num_partitions < 1 or above
 * INT32_MAX; data.shape not starting with partitions.shape; a partition id outside
 * [0, num_partitions), named with its position); resource_exhausted. */
TX_API tx_status tx_dynamic_partition(const tx_tensor *data, const tx_tensor *partitions,
                                      int64_t num_partitions, tx_tensor **outs);

/* tf.dynamic_stitch: merged[indices[m][i...], ...] = data[m][i..., ...].  indices[m] (int32) and
 * data[m] (one dtype for all m) come in n pairs (n_indices == n_data >= 1); data[m].shape must be
 * indices[m].shape + C with the same C for every m.  Output shape [max(indices) + 1] + C.  Entries
 * are merged in order, so a later (m, i) wins over an earlier one.  Rows that no index names are
 * zero (empty strings for a string tensor), as TF 2.21 gives them.  As in TF 2.21, every negative
 * index is an error, even when the output has no rows (all indices negative) or no elements.
 * Errors: invalid_argument (a NULL argument; n_indices != n_data or 0; indices not int32; data
 * dtypes that differ; a shape rule broken; a negative index, named with its position; an index of
 * INT32_MAX, whose row count overflows TF's int); resource_exhausted. */
TX_API tx_status tx_dynamic_stitch(const tx_tensor *const *indices, size_t n_indices,
                                   const tx_tensor *const *data, size_t n_data, tx_tensor **out);

/* tx_dynamic_stitch of indices[0..n_indices) and data[0..n_data) with an out-of-range policy
 * `oob` for negative indices (see tx_oob_policy):
 * zero drops the entry, clamp sends it to row 0, wrap to row index mod (max(indices) + 1); entries
 * still merge in order, later winning.  An index of INT32_MAX is an error under every policy (it
 * is a row-count limit, not an out-of-range index).
 * Errors: those of tx_dynamic_stitch (the negative-index one only under TX_OOB_ERROR);
 * invalid_argument for an unknown policy.  Since 0.2 (as tx_dynamic_stitch_ex). */
TX_API tx_status tx_dynamic_stitch_oob(const tx_tensor *const *indices, size_t n_indices,
                                       const tx_tensor *const *data, size_t n_data,
                                       tx_oob_policy oob, tx_tensor **out);

/* tf.boolean_mask: keeps the slices of `tensor` whose entry in the K-D `mask` is true; mask's
 * shape must equal tensor.shape[axis:axis+K].  Output shape tensor.shape[:axis] + [number of true
 * entries] + tensor.shape[axis+K:], the kept entries in row-major order of the mask.  A negative
 * axis counts from the end, with TF's Python slicing rule: tensor.shape[axis:axis+K] is empty
 * unless axis + K < 0, so e.g. axis = -1 with a 1-D mask is an error, as in TF.  With a negative
 * axis and K > 1, TF 2.21's Python gathers with that axis after reshaping tensor to rank
 * rank - K + 1, i.e. along dim q = rank + axis - (K - 1), the true entries' flat positions as
 * indices: tensorx does the same (output tensor.shape[:q] + [count] + tensor.shape[q+1:rank+axis] +
 * [numel(mask)] + the rest; a position >= tensor.shape[q] or q < 0 is an error).
 * mask is bool (a byte other than 0 counts as true) or a number type TF's Where takes (int8 to
 * uint64, bfloat16, float32, float64, complex64, complex128), whose nonzero entries count as true
 * (-0.0 is zero, NaN is not; float32/float64 subnormals are zero, as TF's CPU flushes them).
 * The result's rank (rank(tensor) - K + 1) is at most TX_RESHAPE_MAX_RANK: TF reshapes tensor to
 * that rank first.
 * Errors: invalid_argument (a NULL input; mask a scalar; shape mismatch, including an axis out of
 * range; a result rank above TX_RESHAPE_MAX_RANK; with a negative axis and K > 1, q < 0 or a
 * true position >= tensor.shape[q]); unimplemented (a float16 or quantized mask, which TF's CPU
 * Where has no kernel for; a float8, int4, uint4 or string mask, which it does not list);
 * resource_exhausted. */
TX_API tx_status tx_boolean_mask(const tx_tensor *tensor, const tx_tensor *mask, int64_t axis,
                                 tx_tensor **out);

/* tf.one_hot: output[..., j, ...] = on_value where indices[...] == j, else off_value.  `indices`
 * is uint8, int8, int32 or int64 of any rank N; the new dim of size depth goes at `axis` (-1 =
 * last, else 0..N).  A negative or >= depth index gives an all-off row.  on_value and off_value
 * are scalar (rank-0) tensors of dtype `dtype` (any dtype, strings included); NULL means 1 and 0
 * of `dtype` respectively, which a string dtype cannot use (TF needs both values then).  Each
 * output element is written once.
 * Errors: invalid_argument (NULL indices; depth < 0 or > INT32_MAX;
 * axis not -1 and not in [0, N]; on/off not scalar, or of a dtype other than `dtype`; a NULL
 * on/off value for string; unknown dtype); unimplemented (indices of another dtype);
 * resource_exhausted. */
TX_API tx_status tx_one_hot(const tx_tensor *indices, int64_t depth, const tx_tensor *on_value,
                            const tx_tensor *off_value, int64_t axis, tx_dtype dtype,
                            tx_tensor **out);

/* tx_one_hot of indices, depth, on_value, off_value, axis and dtype with an out-of-range policy
 * `oob` for indices outside [0, depth) (see tx_oob_policy): error (TF's behaviour) and zero give an
 * all-off row; clamp puts the on value at the clamped position (0 or depth - 1); wrap at index mod
 * depth (-1 -> depth - 1).  depth 0 gives an empty output under every policy.
 * Errors: those of tx_one_hot; invalid_argument for an unknown policy.  Since 0.2 (as
 * tx_one_hot_ex). */
TX_API tx_status tx_one_hot_oob(const tx_tensor *indices, int64_t depth, const tx_tensor *on_value,
                                const tx_tensor *off_value, int64_t axis, tx_dtype dtype,
                                tx_oob_policy oob, tx_tensor **out);

/* tf.sequence_mask: output[i..., j] = j < lengths[i...] for j < maxlen, cast to `dtype` (bool
 * true/false, or 1/0 of any numeric dtype).  `lengths` is any integer dtype and rank; the output
 * has lengths' shape + [maxlen].  maxlen is an int32/int64 scalar tensor, or NULL for
 * max(max(lengths), 0).  As in TF, lengths are cast to maxlen's dtype before the comparison (an
 * int64 length with an int32 maxlen wraps to 32 bits; a uint64 length above INT64_MAX wraps to a
 * negative int64).  int4 / uint4 lengths need maxlen (TF's Max does not take them).
 * Errors: invalid_argument (NULL lengths; maxlen not a scalar; maxlen < 0, which TF's Range
 * rejects; unknown dtype); unimplemented (lengths not an integer dtype; int4 / uint4 lengths
 * without maxlen; maxlen not int32/int64; dtype string, float8_e5m2, float8_e4m3fn, int4 or
 * uint4, which TF cannot cast bool to); resource_exhausted. */
TX_API tx_status tx_sequence_mask(const tx_tensor *lengths, const tx_tensor *maxlen, tx_dtype dtype,
                                  tx_tensor **out);

/* The order of unique_with_counts' y (tx_unique_with_counts_in_mode). */
typedef enum tx_unique_mode {
    TX_UNIQUE_FIRST_SEEN = 0, /* TF's rule, tx_unique_with_counts: y in order of first occurrence */
    TX_UNIQUE_SORTED = 1      /* ONNX Unique's sorted=1: y ascending, np.unique's comparisons */
} tx_unique_mode;

/* tx_unique_with_counts of x with index type out_idx and a choice of order (src/ops/unique.c).
 * TX_UNIQUE_FIRST_SEEN is tx_unique_with_counts.  TX_UNIQUE_SORTED is ONNX Unique's sorted=1 rule:
 * y holds the distinct values in ascending order, idx maps each x[i] to its place in that sorted y,
 * count as before.  Values compare as NumPy's np.unique (which ONNX's reference uses): numbers by
 * value, so -0.0 == 0.0 for every float dtype (y keeps the first seen), all NaNs are ONE value
 * sorted last (y keeps the first NaN's bits); bool and integers by value; strings by bytes,
 * lexicographically (a prefix first).  O(n log n).  outs must have room for 3 handles, as for
 * tx_unique_with_counts.
 * Errors: those of tx_unique_with_counts; invalid_argument for a mode that is not a
 * tx_unique_mode.  Since 0.3 (0.2 had tx_unique_with_counts_ex with an int `sorted`). */
TX_API tx_status tx_unique_with_counts_in_mode(const tx_tensor *x, tx_dtype out_idx,
                                               tx_unique_mode mode, tx_tensor **outs);
/* TX_SECTION_GATHER_END */

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
 * Strings and the quantized dtypes have no DLPack type (unimplemented). */
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
 * Errors: invalid_argument (managed or out NULL; ndim < 0 or > TX_MAX_RANK; shape NULL with
 * ndim > 0; a negative dim; data NULL with elements; lanes != 1; for the strided copy, a byte
 * offset that overflows int64); unimplemented (device other than kDLCPU; a dtype outside the
 * table above); resource_exhausted (an element count that overflows int64; allocation failed;
 * the copy exceeds the tensor size limit).
 * The tensor is writable: DLPack's unversioned struct has no read-only flag, so its producer has
 * not said otherwise (use tx_tensor_from_dlpack_versioned for memory that must not change).
 * Since 0.1. */
TX_API tx_status tx_tensor_from_dlpack(struct DLManagedTensor *managed, tx_tensor **out);

/* tx_tensor_from_dlpack for DLPack 1.x's DLManagedTensorVersioned: the same rules (ownership,
 * deleter, copies, errors; messages start "from_dlpack_versioned: "), and when managed->flags has
 * DLPACK_FLAG_BITMASK_READ_ONLY the tensor and its views are read-only (tx_tensor_is_writable is
 * 0), whether its data are managed's or a copy.  Other flags are ignored (IS_COPIED only says the
 * producer made a copy).
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
 * Errors: invalid_argument (t or out NULL; t read-only, "to_dlpack: t is read-only and a
 * DLManagedTensor cannot say so ...": use tx_tensor_to_dlpack_versioned, or export
 * tx_tensor_copy(t)); unimplemented (string, quantized, float8, int4 or uint4 dtype: the DLPack
 * header tensorx builds against has no float8 codes, and DLPack's 4-bit integers are packed
 * while tensorx's are one per byte); resource_exhausted (allocation failed).  On failure *out is
 * NULL.  Since 0.1 (read-only tensors refused since 0.2). */
TX_API tx_status tx_tensor_to_dlpack(const tx_tensor *t, struct DLManagedTensor **out);

/* tx_tensor_to_dlpack as DLPack 1.x's DLManagedTensorVersioned: version {1, 0}, flags
 * DLPACK_FLAG_BITMASK_READ_ONLY when t is read-only (the consumer must not write then), else 0;
 * the rest as tx_tensor_to_dlpack (the consumer calls (*out)->deleter(*out) once).  Read-only
 * tensors are exported too, without a copy.
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
 * a multiple of 64.
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

/* ---- Runtime: threads, CPU dispatch, allocation cache -----------------------------------------
 * Implemented in src/exec/pool.c, src/dispatch/cpu.c, src/dispatch/dispatch.c and
 * src/core/alloc.c.  Measurements and policies: docs/performance.md. */
/* TX_SECTION_RUNTIME_BEGIN */
/* Stable here: the thread count (a portable knob whose only effect is speed: results are
 * bit-identical for every count), tx_shutdown and the default allocator (part of the allocator
 * contract).  The CPU level mask and the allocation cache's size and counters are tuning and
 * introspection of this implementation: they are in the experimental section at the end. */

/* Sets how many threads an op may use for its large parts (the calling thread included).
 * n >= 1: that many (1 = the calling thread only; no thread is ever created), capped at 64 (the
 * experimental TX_MAX_THREADS).  n <= 0: the default, which is TENSORX_NUM_THREADS when the
 * environment holds a positive integer there, else the number of CPUs the process may run on
 * (its affinity mask on Linux, e.g. under taskset or a cpuset; elsewhere the online CPUs), at
 * most 16.
 * Results are bit-identical for every thread count: work is split statically and every output
 * element is computed by exactly one thread, in the same way.  The worker threads are created on
 * first use; if that fails, ops run on the calling thread.  The call waits for a parallel section
 * running on another thread to end.  Ops may be called from several user threads at once: a call
 * that finds the pool busy runs its work on its own thread. */
TX_API void tx_set_num_threads(int n);
/* Returns the thread count in use (after the default and the cap are applied); always >= 1. */
TX_API int tx_num_threads(void);

/* Joins the worker threads and returns the default allocator's cached blocks to the operating
 * system.  The library stays usable afterwards (the pool is re-created on demand).
 * Why: an op on large data starts worker threads (tx_set_num_threads) that then wait for work
 * until the process ends, and freed large blocks stay in the allocator's cache for reuse.
 * Neither is a leak, but both hold memory: the threads' stacks and thread-local storage, the
 * cached blocks.  A leak checker run at exit (valgrind, LeakSanitizer) therefore reports the
 * threads' memory as "possibly lost" and the cache as still reachable; after tx_shutdown() there
 * is nothing left to report.
 * When: at the end of main() (after freeing your tensors; the examples do), before unloading a
 * dlopen()ed libtensorx, or when a long-lived process wants the memory back.  Call it while no
 * other thread is inside a tensorx call.  Tensors stay valid across it. */
TX_API void tx_shutdown(void);

/* Returns the default allocator (aligned memory; large blocks are mapped with transparent huge
 * pages where the OS allows, and recently freed large blocks are kept in a bounded cache and
 * reused).  A custom allocator may hand requests it does not serve to it; such an allocator may
 * also free blocks that the default allocator made.  Never NULL; a static struct, valid for the
 * life of the program. */
TX_API const tx_allocator *tx_default_allocator(void);

/* TX_SECTION_RUNTIME_END */

/* ---- Deprecated names ------------------------------------------------------------------------ */
/* The `_ex` names of 0.2, each the function it was renamed to (see "Name suffixes" above the
 * operations): tx_cast_ex is tx_cast_in_mode, tx_depth_to_space_ex is tx_depth_to_space_in_mode,
 * tx_gather_ex, tx_gather_nd_ex, tx_one_hot_ex, tx_dynamic_stitch_ex, tx_batch_to_space_nd_ex and
 * tx_batch_to_space_ex are the `_oob` functions, and tx_unique_with_counts_ex(x, out_idx, sorted,
 * outs) is tx_unique_with_counts_in_mode with TX_UNIQUE_SORTED for a non-zero `sorted`, else
 * TX_UNIQUE_FIRST_SEEN (0.2's rule).  They are macros, so old source compiles unchanged; they go
 * in 0.4.  Define TX_NO_DEPRECATED to check that a program no longer uses them.  Since 0.3. */
#ifndef TX_NO_DEPRECATED
#define tx_cast_ex tx_cast_in_mode
#define tx_depth_to_space_ex tx_depth_to_space_in_mode
#define tx_gather_ex tx_gather_oob
#define tx_gather_nd_ex tx_gather_nd_oob
#define tx_one_hot_ex tx_one_hot_oob
#define tx_dynamic_stitch_ex tx_dynamic_stitch_oob
#define tx_batch_to_space_nd_ex tx_batch_to_space_nd_oob
#define tx_batch_to_space_ex tx_batch_to_space_oob
#define tx_unique_with_counts_ex(x, out_idx, sorted, outs)                                        \
    tx_unique_with_counts_in_mode((x), (out_idx),                                               \
                                  (sorted) ? TX_UNIQUE_SORTED : TX_UNIQUE_FIRST_SEEN, (outs))
#endif

#ifdef __cplusplus
}
#endif
#endif /* TENSORX_H */

/* ================================================================================================
 * Experimental API
 *
 * Declared only when the including file defines TX_EXPERIMENTAL_API before including tensorx.h
 * (as zstd's ZSTD_STATIC_LINKING_ONLY).  What "experimental" promises: these declarations may
 * change or go away in any minor version, before and after 1.0, and are not part of the SONAME
 * promise: a program that uses them must be rebuilt against, and run with, the tensorx version
 * whose header it was compiled with.  The symbols are exported by the library as every other.
 * What is here and why:
 *  - TX_MAX_THREADS: the thread pool's cap, a property of this implementation that may grow.
 *  - CPU levels (tx_isa_level, tx_cpu_*, tx_set_cpu_mask): the levels are x86-64 bundles and
 *    Arm64's Advanced SIMD as this version's kernels use them; later instruction sets will change
 *    the enum.  Every level gives the same bits, so they are for tests and tuning only.
 *  - The allocation cache (tx_set_alloc_cache_bytes, tx_alloc_cache_bytes, tx_alloc_stats): the
 *    cache is a policy of the default allocator, which may change or disappear.
 *  - The dtype table (tx_dtype_info_of): its columns grow as bindings need them.
 * The stable tx_plan (size before run) is not here: it is a sizing API, not tuning, and its
 * structs are grow-safe.
 * ============================================================================================== */
#if defined(TX_EXPERIMENTAL_API) && !defined(TENSORX_H_EXPERIMENTAL)
#define TENSORX_H_EXPERIMENTAL

#ifdef __cplusplus
extern "C" {
#endif

/* Largest thread count tx_set_num_threads() takes (larger values are capped to it). */
#define TX_MAX_THREADS 64

/* CPU instruction-set levels, as bundles: AVX2 = AVX2 + FMA + F16C + BMI2 (x86-64-v3);
 * AVX512 = AVX-512 F + BW + DQ + VL (x86-64-v4); AVX512_BF16 = AVX512 + AVX512_BF16;
 * NEON = Arm64's Advanced SIMD (baseline on aarch64).  The values are ordered for the cap of
 * tx_set_cpu_mask: a CPU has scalar and the levels of its own architecture up to its best one
 * (x86-64: AVX2, AVX512, AVX512_BF16; aarch64: NEON), and the kernels use the highest of those at
 * or below the cap's value, so a cap of an x86-64 level below TX_ISA_NEON means scalar on aarch64,
 * TX_ISA_NEON on x86-64 means AVX512 (without BF16), and TX_ISA_AVX512_BF16 means no cap on
 * either. */
typedef enum tx_isa_level {
    TX_ISA_SCALAR = 0, /* portable C only */
    TX_ISA_AVX2 = 1,
    TX_ISA_AVX512 = 2,
    TX_ISA_NEON = 3,       /* Arm64 Advanced SIMD.  Since 0.3. */
    TX_ISA_AVX512_BF16 = 4 /* Since 0.3. */
} tx_isa_level;

/* Returns the best level this CPU and operating system support (x86-64: cpuid and xgetbv;
 * aarch64: TX_ISA_NEON; TX_ISA_SCALAR on other architectures or in a TX_ENABLE_SIMD=OFF
 * build). */
TX_API tx_isa_level tx_cpu_detected_level(void);
/* Returns the level the kernels use: the highest level the CPU has at or below the mask's cap. */
TX_API tx_isa_level tx_cpu_level(void);
/* Caps the kernel level at `max_level` (TX_ISA_SCALAR forces the portable kernels) and returns the
 * level now in use: the highest level the CPU has at or below the cap.  Every level gives the
 * same bits.  The initial cap comes from the environment variable
 * TENSORX_CPU=scalar|avx2|avx512|avx512_bf16|neon (read once; another value is ignored), else no
 * cap.  A value of TX_ISA_AVX512_BF16 or above removes the cap.  Ops already running keep the
 * kernels they chose. */
TX_API tx_isa_level tx_set_cpu_mask(tx_isa_level max_level);
/* Returns the name of level: "scalar", "avx2", "avx512", "neon", "avx512_bf16"; "unknown" for
 * another value.  Never NULL; a static string, valid for the life of the program. */
TX_API const char *tx_isa_level_name(tx_isa_level level);
/* The kernels the level in use runs, one entry of the dispatch table per call: index 0, 1, ...
 * Sets *slot to the kind of kernel ("bulk_copy", "transpose2d", "cast") and *key to the entry
 * within it ("" for a slot of one kernel, else the element width in bytes, "4", or the cast pair,
 * "F32_BF16"), and returns the kernel's name ("tx__transpose2d_w4_avx512").  Past the last entry,
 * returns NULL and leaves *slot and *key as they were.  slot and key may be NULL; the strings are
 * static.  For tests and tuning (tensorx info --cpu prints them).  Since 0.3. */
TX_API const char *tx_cpu_kernel_name(size_t index, const char **slot, const char **key);

/* tx_set_alloc_cache_bytes sets max_bytes, the most bytes the default allocator keeps in its
 * cache of freed large blocks (default: 1 GiB, or a sixteenth of the physical memory if that is
 * less); 0 disables the cache, and lowering it returns blocks to the OS at once.
 * tx_alloc_cache_bytes returns the bound in force.  Thread-safe.  Custom allocators never use the
 * cache. */
TX_API void tx_set_alloc_cache_bytes(size_t max_bytes);
TX_API size_t tx_alloc_cache_bytes(void);

/* Counters of the default allocator's large-block path, since the process started. */
typedef struct tx_alloc_stats {
    size_t struct_size;    /* sizeof(tx_alloc_stats) */
    size_t cached_bytes;   /* bytes now held in the cache */
    size_t cached_blocks;  /* blocks now held in the cache */
    uint64_t large_allocs; /* large-block requests */
    uint64_t cache_hits;   /* of them, served from the cache */
} tx_alloc_stats;
/* The initialiser of a tx_alloc_stats: tx_alloc_stats st = TX_ALLOC_STATS_INIT;  Since 0.3. */
#define TX_ALLOC_STATS_INIT { sizeof(tx_alloc_stats), 0, 0, 0, 0 }
/* Fills *stats.  Errors: invalid_argument (stats NULL, or stats->struct_size not a known size:
 * stats not made with TX_ALLOC_STATS_INIT).  Since 0.3 (it returned void before). */
TX_API tx_status tx_alloc_stats_get(tx_alloc_stats *stats);

/* How the CLI prints an element of a dtype (tx_dtype_info's print).  A real, or each part of a
 * complex, prints with the fewest digits that read back as the same value of the float type the
 * format names; float8 uses TX_PRINT_FLOAT64, the digits of its exact value.  Since 0.3. */
typedef enum tx_print_format {
    TX_PRINT_BOOL = 0,  /* True / False */
    TX_PRINT_INT,       /* signed decimal */
    TX_PRINT_UINT,      /* unsigned decimal */
    TX_PRINT_FLOAT16,   /* shortest round trip through float16 */
    TX_PRINT_BFLOAT16,  /* through bfloat16 */
    TX_PRINT_FLOAT32,   /* through float32 */
    TX_PRINT_FLOAT64,   /* through float64 */
    TX_PRINT_BYTES      /* a Python bytes literal, b'...' */
} tx_print_format;

/* The facts of one dtype: a row of tensorx's dtype table (src/core/dtypes.def), for bindings and
 * tools that map tensorx's dtypes to other systems'.  Since 0.3. */
typedef struct tx_dtype_info {
    tx_dtype id;              /* the dtype */
    const char *name;         /* tx_dtype_name(id) */
    size_t size;              /* tx_dtype_size(id) */
    tx_dtype_kind kind;       /* tx_dtype_kind_of(id) */
    const char *npy_descr;    /* little-endian NumPy descr ("<f4"); NULL: NumPy lacks the type */
    const char *numpy_name;   /* NumPy's or ml_dtypes' name ("bfloat16"); NULL: neither has it */
    tx_dtype storage;         /* the integer dtype of the same storage (TX_UINT16 for bfloat16,
                                 TX_INT8 for qint8 and int4); id itself for float32, float64,
                                 complex and string */
    int64_t min;              /* an integer type's least value (TF's DType.min); else 0 */
    uint64_t max;             /* an integer type's largest value; else 0 */
    double max_finite;        /* a float type's largest finite value (min is -max_finite); else 0 */
    uint8_t dlpack_code;      /* DLPack's DLDataTypeCode (kDLInt 0 ... kDLBool 6) */
    uint8_t dlpack_bits;      /* DLPack's bits; 0 when DLPack has no such type */
    tx_print_format print;    /* how the CLI prints an element */
    int tf_datatype;          /* TensorFlow's DataType number: id */
    int onnx_datatype;        /* ONNX's TensorProto.DataType number; 0 (UNDEFINED) for none */
} tx_dtype_info;

/* Returns the row of dtype t, or NULL for a value that is no dtype.  The row is static, valid for
 * the life of the program.  Members may be added at the end.  Since 0.3. */
TX_API const tx_dtype_info *tx_dtype_info_of(tx_dtype t);

#ifdef __cplusplus
}
#endif
#endif /* TX_EXPERIMENTAL_API */
