/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/ops_shaping.h -- shapes, slicing, joining and reordering, and the out-of-range policy.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/ops_shaping.h"
#endif
#ifndef TENSORX_OPS_SHAPING_H
#define TENSORX_OPS_SHAPING_H

/* ---- Shapes and shaping ----------------------------------------------------------------------
 * Implemented in src/ops/shapes.c. */

/* tf.shape: 1-D tensor of input's dims.  out_type is TX_INT32 or TX_INT64.
 * Errors: unimplemented (another out_type, checked first: TF 2.21's op definition);
 * invalid_argument (a dim that does not fit int32).
 * Prepared: data input input, whose data a run never reads (its pointer may be any, NULL when it
 * has no elements); output strides not taken. */
TX_API tx_status tx_shape(const tx_tensor *input, tx_dtype out_type, tx_tensor **out);

/* tf.shape_n: outs[i] = shape(inputs[i]) for i < n, of dtype out_type (TX_INT32 or TX_INT64).
 * outs must have room for n handles; every input has the dtype of inputs[0] (ShapeN's one T).  On
 * failure every outs[i] is NULL.
 * Errors as tx_shape; invalid_argument if n == 0, an input is NULL or its dtype differs from
 * inputs[0]'s (naming the input and both dtypes).
 * Prepared: data inputs input, one per tensor, whose data a run never reads; up to
 * TX_OP_MAX_OUTPUTS inputs of at most 512 dims in all (more are unimplemented); output strides
 * not taken. */
TX_API tx_status tx_shape_n(const tx_tensor *const *inputs, size_t n, tx_dtype out_type,
                            tx_tensor **outs);

/* tf.size: a scalar of out_type (TX_INT32 or TX_INT64) holding input's number of elements.
 * Errors as tx_shape (a count that does not fit int32 for TX_INT32).
 * Prepared: as tx_shape. */
TX_API tx_status tx_size(const tx_tensor *input, tx_dtype out_type, tx_tensor **out);

/* tf.rank: an int32 scalar holding input's rank.
 * Errors: invalid_argument (input or out NULL); resource_exhausted.
 * Prepared: as tx_shape. */
TX_API tx_status tx_rank(const tx_tensor *input, tx_tensor **out);

/* tf.reshape: a view of `tensor` with the shape given by the 1-D int32/int64 `shape` tensor.  At
 * most one entry may be -1 (inferred); [] reshapes a 1-element tensor to a scalar; a scalar shape
 * is a one-entry vector, as TF 2.21's kernel takes it.  shape has at most TX_RESHAPE_MAX_RANK
 * (253) entries, one fewer than TX_MAX_RANK, as in TF's kernel.
 * Errors: unimplemented (shape not int32/int64, checked first: TF 2.21's op definition);
 * invalid_argument (shape of rank > 1; more than TX_RESHAPE_MAX_RANK
 * entries ("too many dimensions: must be < 254, but received 254"); an entry < -1, more than
 * one -1, element counts that differ, a -1 that cannot be inferred).
 * Prepared: data input tensor (a copy of its bytes); output strides taken; may run in place
 * with a contiguous output (then it copies nothing). */
TX_API tx_status tx_reshape(const tx_tensor *tensor, const tx_tensor *shape, tx_tensor **out);

/* tf.squeeze: a view of input without size-1 dims.  With n_dims == 0 every size-1 dim goes;
 * otherwise only the n_dims dims listed in squeeze_dims (negative counts from the end), each of
 * which must be 1.
 * Errors: invalid_argument (input or out NULL; squeeze_dims NULL with n_dims > 0; a dim out of
 * [-rank, rank), a listed dim whose size is not 1).
 * Prepared: data input input (a copy of its bytes); output strides taken; may run in place
 * with a contiguous output (then it copies nothing). */
TX_API tx_status tx_squeeze(const tx_tensor *input, const int64_t *squeeze_dims, size_t n_dims,
                            tx_tensor **out);

/* tf.expand_dims: a view of input with a size-1 dim inserted at `dim`, -1-rank <= dim <= rank
 * (negative counts from the end: -1 appends).  Errors: invalid_argument (input or out NULL; dim
 * out of range, rank would exceed TX_MAX_RANK).
 * Prepared: data input input (a copy of its bytes); output strides taken; may run in place
 * with a contiguous output (then it copies nothing). */
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
 * message names i and the values); resource_exhausted (allocation).
 * Prepared: data input input_; output strides taken. */
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
 * resource_exhausted (allocation).
 * Prepared: data input input_; output strides taken. */
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
 * num_split < 1 or > INT32_MAX; num_split not dividing value.shape[split_dim]); resource_exhausted.
 * Prepared (as tx_split_v, tx_split_uneven): data input value, up to TX_OP_MAX_OUTPUTS parts;
 * output strides not taken. */
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
 * num != value.shape[axis]); resource_exhausted.
 * Prepared: data input value, up to TX_OP_MAX_OUTPUTS parts; output strides not taken. */
TX_API tx_status tx_unpack(const tx_tensor *value, int64_t num, int64_t axis, tx_tensor **outs);

/* tf.tile (src/ops/pad_tile.c): `input` repeated multiples[i] times along dim i.  multiples is a
 * 1-D int32 or int64 tensor with one entry per dim (a scalar is refused, even for a 1-D input, as
 * TF 2.21's kernel refuses it); a scalar input with multiples [] is returned as a copy.
 * Errors: unimplemented (multiples not int32/int64, checked first: TF 2.21's op definition);
 * invalid_argument (NULL arguments; multiples not 1-D or with a
 * length other than rank(input); a negative multiple; an output dim or element count overflowing
 * int64, as TF's TensorShape); resource_exhausted (the output exceeds the byte limit or
 * allocation fails).
 * Prepared: data input input; output strides not taken. */
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
 * int64; mode not a tx_pad_mode); resource_exhausted.
 * Prepared: data input tensor (constant_values is fixed at prepare time); output strides not
 * taken. */
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
 * resource_exhausted (output too large, allocation failed).
 * Prepared: data inputs values, one per tensor (at most 512: more are unimplemented); output
 * strides not taken. */
TX_API tx_status tx_concat(const tx_tensor *const *values, size_t n, int64_t concat_dim,
                           tx_tensor **out);

/* tf.pack / tf.stack: n tensors of equal shape [D0..D(R-1)] and dtype become one tensor of rank
 * R+1 with n inserted at `axis`, -(R+1) <= axis < R+1 (negative counts from the end: -1 appends).
 * Errors: invalid_argument (values NULL or n == 0; values[i] NULL; axis out of range; values[i]'s
 * dtype or shape differs from values[0]'s, naming i; rank R+1 > TX_MAX_RANK), resource_exhausted.
 * Prepared: data inputs values, one per tensor (at most 512: more are unimplemented); output
 * strides not taken. */
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
 * resource_exhausted.
 * Prepared: data inputs args, one per tensor, up to TX_OP_MAX_OUTPUTS (not strings); output
 * strides not taken. */
TX_API tx_status tx_meshgrid(const tx_tensor *const *args, size_t n,
                             tx_meshgrid_indexing indexing, tx_tensor **outs);

/* tf.reverse as on TensorFlow's page (the legacy Reverse op): reverses every dim i of `tensor`
 * for which the bool vector dims[i] is true; len(dims) must equal the rank.  As TensorFlow's
 * kernel does, a scalar tensor is returned (copied) whatever dims holds, as long as it is bool,
 * and a tensor whose first dim is 0 is refused before dims is looked at.
 * Errors: invalid_argument (NULL; dims not bool; tensor.dims[0] == 0 ("Invalid input first
 * dimension. Found 0."); dims not 1-D; len(dims) != rank), unimplemented (rank > 8, TensorFlow's
 * limit for reverse), resource_exhausted.
 * Prepared: data input tensor (dims is fixed at prepare time); output strides taken. */
TX_API tx_status tx_reverse(const tx_tensor *tensor, const tx_tensor *dims, tx_tensor **out);

/* Current tf.reverse (ReverseV2): reverses the dims listed in axis[0..n_axis), each in
 * [-rank, rank) (negative counts from the end); an empty list copies.  A scalar tensor or a tensor
 * with no elements (of any rank) is returned (copied) whatever axis holds: TensorFlow's kernel
 * returns them before reading axis.
 * Errors: invalid_argument (axis NULL with n_axis > 0; an axis out of range, naming its index; an
 * axis listed twice, also as a negative alias), unimplemented (rank > 8), resource_exhausted.
 * Prepared: data input tensor; output strides taken. */
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
 * resource_exhausted.
 * Prepared: data inputs input and seq_lengths; each run checks the lengths and then the rank, in
 * TensorFlow's order, failing as the call does; output strides not taken. */
TX_API tx_status tx_reverse_sequence(const tx_tensor *input, const tx_tensor *seq_lengths,
                                     int64_t seq_dim, int64_t batch_dim, tx_tensor **out);

/* tf.transpose: out.dims[i] = a.dims[perm[i]] and out[i_0..] = a[j_0..] with i_s = j_perm[s].
 * perm is a 1-D int32/int64 tensor holding a permutation of [0, rank); as in TensorFlow's kernel,
 * an entry may be negative (rank is added once) and int64 entries are narrowed to int32 first.
 * perm == NULL means the reversed order (rank-1, ..., 0), tf.transpose's default.  A non-zero
 * `conjugate` negates the imaginary part of complex64/complex128 values (tf.transpose with
 * conjugate=True, i.e. ConjugateTranspose); for other dtypes it changes nothing.
 * Errors: invalid_argument (NULL a; perm not int32/int64 or not 1-D; len(perm) != rank; an entry
 * out of range, naming its index; a repeated entry, naming the missing dim), resource_exhausted.
 * Prepared: data input a; output strides taken (not by a conjugating complex transpose). */
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

#endif /* TENSORX_OPS_SHAPING_H */
