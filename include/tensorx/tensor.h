/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/tensor.h -- data types, tensors and memory.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/tensor.h"
#endif
#ifndef TENSORX_TENSOR_H
#define TENSORX_TENSOR_H

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
    TX_FLOAT8_E4M3FNUZ = 26,    /* 4 exponent (bias 8), 3 mantissa bits; one NaN (0x80), no -0 or inf */
    TX_FLOAT8_E4M3B11FNUZ = 27, /* as float8_e4m3fnuz with exponent bias 11 */
    TX_FLOAT8_E5M2FNUZ = 28,    /* 5 exponent (bias 16), 2 mantissa bits; one NaN (0x80), no -0 or inf */
    TX_INT4 = 29,  /* 4-bit signed integer -8..7, one per byte (see tx_tensor_from_packed) */
    TX_UINT4 = 30, /* 4-bit unsigned integer 0..15, one per byte */
    TX_INT2 = 31,  /* 2-bit signed integer -2..1, one per byte */
    TX_UINT2 = 32, /* 2-bit unsigned integer 0..3, one per byte */
    TX_FLOAT4_E2M1FN = 33, /* OCP MX FP4: 2 exponent, 1 mantissa bit, +-6 at most, no NaN or inf;
                              one per byte (packed forms: tx_tensor_from_packed) */
    /* Types TF 2.21 lacks: values outside TF's DataType numbers (0-33, and 101 on). */
    TX_FLOAT8_E8M0FNU = 64, /* OCP MX scale: 8 exponent bits, no sign or mantissa; 2^-127..2^127,
                               one NaN (0xff), no zero */
    TX_FLOAT6_E2M3FN = 65,  /* OCP MX FP6: 2 exponent, 3 mantissa bits, +-7.5 at most, no NaN or
                               inf; one per byte */
    TX_FLOAT6_E3M2FN = 66   /* OCP MX FP6: 3 exponent, 2 mantissa bits, +-28 at most; one per byte */
} tx_dtype;

/* The family a dtype belongs to, for code that branches on the kind of a dtype rather than on each
 * dtype (tx_dtype_kind_of).  TX_KIND_INVALID is the kind of no dtype: an unknown value. */
typedef enum tx_dtype_kind {
    TX_KIND_INVALID = -1, /* not a dtype (TX_INVALID_DTYPE or a value outside tx_dtype) */
    TX_KIND_BOOL = 0,
    TX_KIND_SIGNED,    /* int8 .. int64, int4, int2 */
    TX_KIND_UNSIGNED,  /* uint8 .. uint64, uint4, uint2 */
    TX_KIND_FLOAT,     /* float16, bfloat16, float32, float64, and the float8, float6, float4 types */
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

/* The sub-byte dtypes (int4, uint4, int2, uint2, float4_e2m1fn, float6_e2m3fn, float6_e3m2fn).
 * tensorx stores them one element per byte, as TensorFlow and ml_dtypes do (the value in the low
 * bits, zeros above in every byte tensorx writes: int4 -6 is 0x0A; readers ignore an integer's
 * upper bits), so every element is addressable and every data-movement op works on them unchanged.
 * The packed interchange form of ONNX (int4, uint4, float4e2m1, int2, uint2, float6), DLPack 1.1 (its
 * default for sub-byte types) and safetensors (F4, F6_E2M3, F6_E3M2) holds 8 / bits elements per
 * byte, little bit-endian: element i is bits [i * bits, (i + 1) * bits) of the bytes read as one
 * little-endian bit string (for 4 bits: element 2k in the low nibble of byte k), and the bits after
 * the last element, in the last byte, are 0.  A float6 element may straddle two bytes (DLPack's
 * and ONNX's rule; safetensors stores F6 only in counts that fill whole bytes).
 * tx_tensor_from_packed: a new tensor of dtype and shape dims[0..rank) from the packed bytes at
 * data (which stay the caller's).  dtype: a sub-byte dtype (value bits 2, 4 or 6).  nbytes:
 * exactly ceil(numel * bits / 8).  The elements are stored as tx_tensor_from_data stores them.
 * Errors: invalid_argument (out NULL; another dtype; a bad rank or dims as tx_tensor_new; wrong
 * nbytes; data NULL with nbytes > 0; a nonzero padding bit: it usually means the shape and the
 * bytes disagree, and the message names the byte); resource_exhausted.  On failure *out is NULL.
 * Since 0.3. */
TX_API tx_status tx_tensor_from_packed(tx_dtype dtype, size_t rank, const int64_t *dims,
                                       const void *data, size_t nbytes, tx_tensor **out);
/* tx_tensor_pack: writes t's ceil(numel * bits / 8) packed bytes to buf (padding bits 0) and their
 * count to *written.  With buf NULL and cap 0 it only sets *written (a size query).  t stays owned
 * by the caller; each element is read as every reader reads it (an integer's low bits).
 * Errors: invalid_argument (written or t NULL, t not of a sub-byte dtype, buf NULL with cap > 0,
 * cap too small: *written is 0 then and nothing is written).  Since 0.3. */
TX_API tx_status tx_tensor_pack(const tx_tensor *t, void *buf, size_t cap, size_t *written);
/* tx_tensor_from_packed_int4: tx_tensor_from_packed for int4 and uint4 only (the 0.2 form).
 * dtype: TX_INT4 or TX_UINT4; rank, dims, data, nbytes, out: as tx_tensor_from_packed.
 * Errors: invalid_argument (another dtype, or as tx_tensor_from_packed); resource_exhausted.
 * On failure *out is NULL.  Since 0.2. */
TX_API tx_status tx_tensor_from_packed_int4(tx_dtype dtype, size_t rank, const int64_t *dims,
                                            const void *data, size_t nbytes, tx_tensor **out);
/* tx_tensor_pack_int4: tx_tensor_pack for int4 and uint4 only (the 0.2 form).  t: int4 or
 * uint4; buf, cap, written: as tx_tensor_pack.
 * Errors: invalid_argument (t not int4/uint4, or as tx_tensor_pack).  Since 0.2. */
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

#endif /* TENSORX_TENSOR_H */
