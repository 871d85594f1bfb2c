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
 *  - Memory.  Every allocation goes through the allocator set with tx_set_allocator() (default:
 *    aligned malloc).  Allocation failure returns TX_RESOURCE_EXHAUSTED.  A tensor whose byte size
 *    overflows size_t or exceeds tx_set_max_tensor_bytes() is refused before any allocation.
 *
 *  - Byte order.  Tensor data are in host byte order (tensorx is built and tested little-endian on
 *    x86-64; TX_HOST_LITTLE_ENDIAN says which order a build uses).
 *
 *  - Thread safety.  Ops may run concurrently on different tensors and on the same input tensors.
 *    tx_set_allocator() and tx_set_max_tensor_bytes() must be called before other threads use the
 *    library.
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
#define TX_VERSION_MAJOR 0
#define TX_VERSION_MINOR 1
#define TX_VERSION_PATCH 0
#define TX_VERSION_NUMBER (TX_VERSION_MAJOR * 10000 + TX_VERSION_MINOR * 100 + TX_VERSION_PATCH)

#if defined(_WIN32) && defined(TX_SHARED_BUILD)
#define TX_API __declspec(dllexport)
#elif defined(__GNUC__)
#define TX_API __attribute__((visibility("default")))
#else
#define TX_API
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define TX_HOST_LITTLE_ENDIAN 0
#else
#define TX_HOST_LITTLE_ENDIAN 1
#endif

TX_API unsigned tx_version_number(void);      /* TX_VERSION_NUMBER of the library linked */
TX_API const char *tx_version_string(void);   /* "0.1.0" */

/* ------------------------------------------------------------------------------------------------
 * Status
 * --------------------------------------------------------------------------------------------- */
/* Status codes; the values are TensorFlow's canonical error codes (absl::StatusCode). */
typedef enum tx_status {
    TX_OK = 0,
    TX_INVALID_ARGUMENT = 3,
    TX_RESOURCE_EXHAUSTED = 8,
    TX_OUT_OF_RANGE = 11,
    TX_UNIMPLEMENTED = 12,
    TX_INTERNAL = 13
} tx_status;

/* "ok", "invalid_argument", "resource_exhausted", "out_of_range", "unimplemented", "internal";
 * "unknown" for any other value.  Never NULL. */
TX_API const char *tx_status_name(tx_status s);

/* This thread's message for the last failed call; "" if none failed since the last
 * tx_clear_error().  Valid until the next tensorx call on this thread.  Never NULL. */
TX_API const char *tx_last_error(void);
TX_API void tx_clear_error(void);

/* ------------------------------------------------------------------------------------------------
 * Data types
 * --------------------------------------------------------------------------------------------- */
/* The values are TensorFlow's DataType numbers (tensorflow/core/framework/types.proto) and are never
 * renumbered. */
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
    TX_UINT64 = 23
} tx_dtype;

typedef enum tx_dtype_kind {
    TX_KIND_BOOL,
    TX_KIND_SIGNED,    /* int8 .. int64 */
    TX_KIND_UNSIGNED,  /* uint8 .. uint64 */
    TX_KIND_FLOAT,     /* float16, bfloat16, float32, float64 */
    TX_KIND_COMPLEX,   /* complex64, complex128 */
    TX_KIND_QUANTIZED, /* qint8, quint8, qint16, quint16, qint32: integer storage */
    TX_KIND_STRING
} tx_dtype_kind;

/* Canonical name ("float32", "bfloat16", "string"); "invalid" for an unknown value. */
TX_API const char *tx_dtype_name(tx_dtype t);
/* Element size in bytes; 0 for an unknown dtype.  A string element is a 16-byte tx_string. */
TX_API size_t tx_dtype_size(tx_dtype t);
TX_API tx_dtype_kind tx_dtype_kind_of(tx_dtype t);
/* Parses a canonical name or a TensorFlow alias ("half", "float", "double", "tf.float32",
 * "DT_FLOAT").  Returns TX_INVALID_DTYPE (and sets the message) for an unknown name. */
TX_API tx_dtype tx_dtype_from_name(const char *name);

/* One element of a string tensor: `size` bytes at `data`, which may hold any byte, NUL included,
 * and is not NUL-terminated.  The bytes are immutable and owned by the tensor. */
typedef struct tx_string {
    uint64_t size;
    const char *data;
} tx_string;

/* ------------------------------------------------------------------------------------------------
 * Tensors
 * --------------------------------------------------------------------------------------------- */
/* TensorFlow's TensorShape::MaxDimensions(). */
#define TX_MAX_RANK 254

/* A dense, row-major tensor handle; reference counted storage, so views share data. */
typedef struct tx_tensor tx_tensor;

/* New zero-filled tensor (string elements are empty strings).  dims may be NULL when rank is 0.
 * Errors: invalid_argument (unknown dtype, rank > TX_MAX_RANK, a negative dim), resource_exhausted
 * (byte size overflows or exceeds the limit, or allocation failed). */
TX_API tx_status tx_tensor_new(tx_dtype dtype, size_t rank, const int64_t *dims, tx_tensor **out);

/* New tensor holding a copy of `nbytes` bytes of row-major data; nbytes must equal the tensor's
 * byte size.  Not for strings (use tx_tensor_new_strings). */
TX_API tx_status tx_tensor_from_data(tx_dtype dtype, size_t rank, const int64_t *dims,
                                     const void *data, size_t nbytes, tx_tensor **out);

/* New string tensor; element i holds a copy of lengths[i] bytes at strings[i] (NUL allowed). */
TX_API tx_status tx_tensor_new_strings(size_t rank, const int64_t *dims,
                                       const char *const *strings, const size_t *lengths,
                                       tx_tensor **out);

/* Wraps caller memory without copying.  `release(data, release_ctx)` is called exactly once, when
 * the last tensor or view sharing the memory is freed; it is not called if this call fails (the
 * caller still owns data then).  release may be NULL.  data must be aligned for the dtype and hold
 * the tensor's byte size.  Strings cannot be wrapped (unimplemented). */
typedef void (*tx_release_fn)(void *data, void *release_ctx);
TX_API tx_status tx_tensor_wrap(tx_dtype dtype, size_t rank, const int64_t *dims, void *data,
                                size_t nbytes, tx_release_fn release, void *release_ctx,
                                tx_tensor **out);

/* Releases the handle; the buffer goes when its last handle goes.  NULL is a no-op. */
TX_API void tx_tensor_free(tx_tensor *t);
/* A new handle on the same buffer, shape and dtype (cheap; no copy). */
TX_API tx_status tx_tensor_ref(const tx_tensor *t, tx_tensor **out);
/* A deep copy with its own buffer. */
TX_API tx_status tx_tensor_copy(const tx_tensor *t, tx_tensor **out);

TX_API tx_dtype tx_tensor_dtype(const tx_tensor *t);
TX_API size_t tx_tensor_rank(const tx_tensor *t);
TX_API const int64_t *tx_tensor_dims(const tx_tensor *t);   /* rank entries; valid while t lives */
TX_API int64_t tx_tensor_dim(const tx_tensor *t, size_t i); /* -1 if i >= rank */
TX_API int64_t tx_tensor_numel(const tx_tensor *t);         /* product of dims; 1 for a scalar */
TX_API size_t tx_tensor_nbytes(const tx_tensor *t);         /* numel * dtype size */
/* Row-major element data (tx_string records for strings).  Never NULL, even for 0 elements. */
TX_API void *tx_tensor_data(const tx_tensor *t);
/* Element i of a string tensor (NULL if t is not a string tensor or i is out of range). */
TX_API const tx_string *tx_tensor_string(const tx_tensor *t, int64_t i);
/* Non-zero when a and b share one buffer (a view relation). */
TX_API int tx_tensor_shares_buffer(const tx_tensor *a, const tx_tensor *b);

/* Reads a numeric scalar or element i of an integer tensor as int64 (bool, ints, uints that fit).
 * Errors: invalid_argument for a non-integer dtype or i out of range; out_of_range for a uint64
 * above INT64_MAX. */
TX_API tx_status tx_tensor_get_int(const tx_tensor *t, int64_t i, int64_t *value);

/* ------------------------------------------------------------------------------------------------
 * Memory
 * --------------------------------------------------------------------------------------------- */
typedef struct tx_allocator {
    /* Returns `size` bytes aligned to `alignment` (a power of two <= 4096), or NULL. */
    void *(*alloc)(size_t size, size_t alignment, void *ctx);
    /* Frees what alloc returned; `size` is the size that was asked for. */
    void (*free)(void *ptr, size_t size, void *ctx);
    void *ctx;
} tx_allocator;

/* Replaces the allocator; NULL restores the default.  Call while no tensor from the previous
 * allocator is alive, and before other threads use the library. */
TX_API void tx_set_allocator(const tx_allocator *allocator);
/* Largest tensor buffer the library will allocate, in bytes (default: SIZE_MAX / 2).  Larger
 * requests fail with resource_exhausted before any allocation.  0 restores the default. */
TX_API void tx_set_max_tensor_bytes(size_t max_bytes);
TX_API size_t tx_max_tensor_bytes(void);

/* ------------------------------------------------------------------------------------------------
 * .npy files (numpy format 1.0, 2.0, 3.0)
 *
 * Reading takes every numeric dtype numpy has, little- or big-endian (converted to host order),
 * C or Fortran order (converted to row-major), zero-size and scalar arrays, 'S' byte strings and
 * 'U' unicode (converted to UTF-8).  numpy has no bfloat16 or quantized types: tensorx writes them
 * as a one-field structured dtype whose field name is the tensorx dtype name, e.g.
 * [('bfloat16', '<u2')] or [('qint8', '|i1')], which numpy reads as a record array and tensorx reads
 * back as the original dtype.  String tensors are written as 'S<maxlen>'; numpy (and this reader)
 * strip trailing NUL bytes of 'S' elements, so strings that end in NUL do not round-trip.
 * Malformed, truncated or lying headers and data give invalid_argument, never a read past the
 * buffer.
 * --------------------------------------------------------------------------------------------- */
TX_API tx_status tx_npy_load(const char *path, tx_tensor **out);
TX_API tx_status tx_npy_load_buffer(const void *data, size_t size, tx_tensor **out);
TX_API tx_status tx_npy_save(const char *path, const tx_tensor *t);
/* Serialises to a new buffer allocated with the library allocator; free it with tx_buffer_free. */
TX_API tx_status tx_npy_save_buffer(const tx_tensor *t, void **data, size_t *size);
TX_API void tx_buffer_free(void *data, size_t size);

/* ================================================================================================
 * Operations, in the order of TensorFlow's Tensor Transformations page.
 *
 * Mapping rule: what TensorFlow calls an input is a `const tx_tensor *`; what it calls an attribute
 * is a plain C argument.  Integer-list inputs (shape, begin, perm, ...) are int32 or int64 tensors.
 * ============================================================================================== */

/* ---- Casting ---------------------------------------------------------------------------------
 * Implemented in src/ops/cast.c, src/ops/decode.c, src/ops/string_pack.c. */
/* TX_SECTION_CASTING_BEGIN */
/* TX_SECTION_CASTING_END */

/* ---- Shapes and shaping ----------------------------------------------------------------------
 * Implemented in src/ops/shapes.c. */

/* tf.shape: 1-D tensor of input's dims.  out_type is TX_INT32 or TX_INT64.
 * Errors: invalid_argument (other out_type; a dim that does not fit int32). */
TX_API tx_status tx_shape(const tx_tensor *input, tx_dtype out_type, tx_tensor **out);

/* tf.shape_n: outs[i] = shape(inputs[i]) for i < n.  outs must have room for n handles.  On
 * failure every outs[i] is NULL.  Errors as tx_shape; invalid_argument if n == 0. */
TX_API tx_status tx_shape_n(const tx_tensor *const *inputs, size_t n, tx_dtype out_type,
                            tx_tensor **outs);

/* tf.size: scalar number of elements.  Errors as tx_shape. */
TX_API tx_status tx_size(const tx_tensor *input, tx_dtype out_type, tx_tensor **out);

/* tf.rank: int32 scalar. */
TX_API tx_status tx_rank(const tx_tensor *input, tx_tensor **out);

/* tf.reshape: a view of `tensor` with the shape given by the 1-D int32/int64 `shape` tensor.  At
 * most one entry may be -1 (inferred); [] reshapes a 1-element tensor to a scalar.
 * Errors: invalid_argument (shape not 1-D integer, an entry < -1, more than one -1, element counts
 * that differ, a -1 that cannot be inferred, rank > TX_MAX_RANK). */
TX_API tx_status tx_reshape(const tx_tensor *tensor, const tx_tensor *shape, tx_tensor **out);

/* tf.squeeze: a view without size-1 dims.  With n_dims == 0 every size-1 dim goes; otherwise only
 * the listed dims (negative counts from the end), each of which must be 1.
 * Errors: invalid_argument (a dim out of [-rank, rank), a listed dim whose size is not 1). */
TX_API tx_status tx_squeeze(const tx_tensor *input, const int64_t *squeeze_dims, size_t n_dims,
                            tx_tensor **out);

/* tf.expand_dims: a view with a size-1 dim inserted at `dim`, -1-rank <= dim <= rank (negative
 * counts from the end: -1 appends).  Errors: invalid_argument (dim out of range, rank would exceed
 * TX_MAX_RANK). */
TX_API tx_status tx_expand_dims(const tx_tensor *input, int64_t dim, tx_tensor **out);

/* TX_SECTION_SHAPES_END */

/* ---- Slicing and joining ---------------------------------------------------------------------
 * Implemented in src/ops/slice.c, strided_slice.c, split.c, pad_tile.c (SLICING section) and
 * src/ops/concat.c, reorder.c (REORDER section). */
/* TX_SECTION_SLICING_BEGIN */
/* TX_SECTION_SLICING_END */
/* TX_SECTION_REORDER_BEGIN */
/* TX_SECTION_REORDER_END */

/* ---- Space, batch and depth ------------------------------------------------------------------
 * Implemented in src/ops/spatial.c. */
/* TX_SECTION_SPATIAL_BEGIN */
/* TX_SECTION_SPATIAL_END */

/* ---- Gathering, partitioning, masking and encoding -------------------------------------------
 * Implemented in src/ops/gather.c. */
/* TX_SECTION_GATHER_BEGIN */
/* TX_SECTION_GATHER_END */

#ifdef __cplusplus
}
#endif
#endif /* TENSORX_H */
