/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/ops_gather.h -- gathering, partitioning, masking and encoding.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/ops_gather.h"
#endif
#ifndef TENSORX_OPS_GATHER_H
#define TENSORX_OPS_GATHER_H

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
 * list); resource_exhausted (the output is too large, or allocation failed).
 * Prepared: data inputs params and indices (not strings); each run checks its indices and fails
 * as the call does (the output then partly written). */
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
 * resource_exhausted.
 * Prepared: data inputs params and indices (not strings); each run checks its index vectors and
 * fails as the call does (the output then partly written). */
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
 * resource_exhausted.
 * Prepared: data input indices (on_value and off_value are read at prepare time; not for the
 * string dtype). */
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
 * uint4, which TF cannot cast bool to); resource_exhausted.
 * Prepared: with maxlen only (fixed at prepare time), data input lengths; output strides not
 * taken.  Without maxlen the output's shape depends on the lengths' values: unimplemented. */
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

#endif /* TENSORX_OPS_GATHER_H */
