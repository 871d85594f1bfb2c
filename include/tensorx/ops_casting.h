/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/ops_casting.h -- the Operations banner and the casting ops.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/ops_casting.h"
#endif
#ifndef TENSORX_OPS_CASTING_H
#define TENSORX_OPS_CASTING_H

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
 * Implemented in src/ops/cast.c, src/ops/decode.c, src/ops/string_pack.c, src/ops/pack_subbyte.c. */
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
 * resource_exhausted.  Always a new buffer.  Implemented in src/ops/cast.c.  Since 0.1.
 * Prepared: data input x (not strings); output strides taken; may run in place (a row-major
 * output) when dtype's element size is x's. */
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
 * buffer.  Implemented in src/ops/cast.c.  Since 0.1.
 * Prepared: data input value; output strides taken; may run in place (a row-major output) when
 * dtype's element size is value's. */
TX_API tx_status tx_saturate_cast(const tx_tensor *value, tx_dtype dtype, tx_tensor **out);

/* How tx_cast_in_mode converts (see docs/casting.md, "Cast modes"). */
typedef enum tx_cast_mode {
    TX_CAST_DEFAULT = 0,  /* tx_cast: TF's bits */
    TX_CAST_SATURATE = 1, /* tx_saturate_cast's rules */
    TX_CAST_CHECKED = 2,  /* tx_cast's bits, or an error if any element does not convert exactly */
    TX_CAST_ONNX = 3      /* ONNX Cast-25's rules (saturate=1, round_mode="up" unless flags say) */
} tx_cast_mode;

/* tx_cast_in_mode flags.  TX_CAST_EXACT_FLOAT (TX_CAST_CHECKED only): a float or complex target
 * must also hold every value without rounding (float32 0.1 -> float16 fails; NaN stays
 * accepted).  TX_CAST_ONNX_NO_SATURATE (TX_CAST_ONNX only): ONNX's saturate=0.
 * TX_CAST_ONNX_ROUND_DOWN, TX_CAST_ONNX_ROUND_NEAREST (TX_CAST_ONNX only, at most one): ONNX's
 * round_mode "down" and "nearest" for float8_e8m0fnu targets (neither: "up"). */
#define TX_CAST_EXACT_FLOAT 1u
#define TX_CAST_ONNX_NO_SATURATE 2u
#define TX_CAST_ONNX_ROUND_DOWN 4u
#define TX_CAST_ONNX_ROUND_NEAREST 8u

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
 * TX_CAST_ONNX is ONNX Cast (opset 25) as ONNX Runtime's CPU provider and the spec define it;
 * it differs from tx_cast only for these targets (docs/casting.md, "Cast modes"):
 *  - float8_e4m3fn, float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz: saturate=1 rounds to
 *    nearest even and clamps finite overflow and +-infinity to +-the largest finite value (NaN
 *    stays NaN); with TX_CAST_ONNX_NO_SATURATE the result is tx_cast's (overflow gives e5m2's
 *    infinity or the format's NaN).
 *  - float8_e8m0fnu: from the value as float32, the power of two at or below it (ROUND_DOWN), at
 *    or above it ("up"), or nearest with ties up (ROUND_NEAREST); a value above 2^127 or +inf
 *    gives 2^127, one below 2^-127 (zero and negatives included) gives 2^-127, and with
 *    TX_CAST_ONNX_NO_SATURATE both give NaN; NaN gives NaN.
 *  - int4, uint4, int2, uint2 from a float or complex value: rounded to nearest even, then
 *    clamped to the type's range (NaN gives 0); integer sources wrap as in tx_cast.
 * Errors: as tx_cast (or tx_saturate_cast); invalid_argument (unknown mode or flags, a flag with
 * a mode it does not belong to, both ROUND flags, "cast: element 2 (index [1,0]) is 300
 * (int32), which int8 cannot hold exactly: out of range").  Always a new buffer.  Implemented in src/ops/cast.c.
 * Since 0.2 (as tx_cast_ex).
 * Prepared: data input x (not strings); output strides taken; may run in place (a row-major
 * output) when dtype's element size is x's.  Not so in TX_CAST_CHECKED, whose runs write
 * row-major outputs, then check the values they converted and fail as the call does (a plan
 * checks the values it is given; a prepare does not read them). */
TX_API tx_status tx_cast_in_mode(const tx_tensor *x, tx_dtype dtype, tx_cast_mode mode,
                                 unsigned flags, tx_tensor **out);

/* tf.to_double, tf.to_float, tf.to_bfloat16, tf.to_int32, tf.to_int64: tx_to_double,
 * tx_to_float, tx_to_bfloat16, tx_to_int32 and tx_to_int64 are tx_cast of x to float64, float32,
 * bfloat16, int32 and int64.  Errors as tx_cast.  Implemented in src/ops/cast.c.
 * Prepared: as tx_cast. */
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
 * or uint4 input or type).  Implemented in src/ops/cast.c.  Since 0.1.
 * Prepared: data input input (a copy of its bytes); output strides taken; may run in place
 * (a row-major output). */
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

/* pack_subbyte (a tensorx extension; TF has no such op): the packed interchange form of x as a
 * new 1-D uint8 tensor of ceil(numel * bits / 8) bytes, the bytes tx_tensor_pack writes (element i
 * in bits [i * bits, (i + 1) * bits) of the little-endian bit string; the padding bits of the last
 * byte 0), as ONNX, DLPack 1.1 and safetensors store sub-byte tensors.  x: a tensor of a sub-byte
 * dtype (int4, uint4, int2, uint2, float4_e2m1fn, float6_e2m3fn, float6_e3m2fn), any shape (its
 * shape is not kept: unpack_subbyte takes it).
 * Errors: invalid_argument (x NULL, x not of a sub-byte dtype); resource_exhausted.  New buffer.
 * Prepared: data input x; output strides not taken.
 * Implemented in src/ops/pack_subbyte.c.  Since 0.3. */
TX_API tx_status tx_pack_subbyte(const tx_tensor *x, tx_tensor **out);

/* cast_pack (a tensorx extension; TF has no such op): x cast to the sub-byte dtype `dtype` and
 * packed, in one pass over memory: the bytes of tx_pack_subbyte(tx_cast(x, dtype)), a new 1-D
 * uint8 tensor of ceil(numel * bits / 8) bytes (element i in bits [i * bits, (i + 1) * bits),
 * the padding bits of the last byte 0), without the one-per-byte intermediate: what a writer of
 * FP4 / int4 checkpoints does.  Every element converts by tx_cast's rule (e.g. float32 ->
 * float4_e2m1fn: round to nearest even, +-inf and beyond +-6 saturate, NaN gives the zero of
 * the opposite sign; docs/casting.md).
 * x: any tensor tx_cast converts to dtype, any shape (not kept).  dtype: a sub-byte dtype (int4,
 * uint4, int2, uint2, float4_e2m1fn, float6_e2m3fn, float6_e3m2fn).
 * Errors: invalid_argument (x NULL, unknown dtype, dtype not sub-byte); unimplemented (x a string
 * tensor: "cast_pack: Cast string to int4 is not supported", as tx_cast); resource_exhausted.
 * New buffer.  Prepared: data input x (not strings); output strides not taken.
 * Implemented in src/ops/pack_subbyte.c.  Since 0.3. */
TX_API tx_status tx_cast_pack(const tx_tensor *x, tx_dtype dtype, tx_tensor **out);

/* unpack_subbyte (a tensorx extension; TF has no such op): the inverse of tx_pack_subbyte, a new
 * tensor of dtype and shape dims[0..rank), one element per byte as tensorx stores them, from the
 * packed bytes of packed (tx_tensor_from_packed's rules).  packed: a 1-D uint8 tensor of exactly
 * ceil(numel * bits / 8) bytes whose padding bits are 0.  dtype: a sub-byte dtype.  dims may be
 * NULL when rank is 0.
 * Errors: invalid_argument (packed NULL or not 1-D uint8, dtype not sub-byte, a bad rank or dims
 * as tx_tensor_new, a byte count other than the shape's, a nonzero padding bit, naming the byte);
 * resource_exhausted (the shape overflows or exceeds the limit, or allocation failed).  New
 * buffer.  Prepared: data input packed (its padding bits checked by each run); output strides
 * not taken.  Implemented in src/ops/pack_subbyte.c.  Since 0.3. */
TX_API tx_status tx_unpack_subbyte(const tx_tensor *packed, tx_dtype dtype, size_t rank,
                                   const int64_t *dims, tx_tensor **out);

/* TX_SECTION_CASTING_END */

#endif /* TENSORX_OPS_CASTING_H */
