/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/ops_spatial.h -- space, batch and depth.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/ops_spatial.h"
#endif
#ifndef TENSORX_OPS_SPATIAL_H
#define TENSORX_OPS_SPATIAL_H

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
 * resource_exhausted (the output is too large or allocation failed).
 * Prepared: data input input; output strides not taken. */
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
 * resource_exhausted.
 * Prepared: data input input; output strides not taken. */
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
 * spatial dim whose full size is 0).  Since 0.2 (as tx_batch_to_space_nd_ex).
 * Prepared: data input input; output strides not taken. */
TX_API tx_status tx_batch_to_space_nd_oob(const tx_tensor *input, const tx_tensor *block_shape,
                                          const tx_tensor *crops, tx_oob_policy oob,
                                          tx_tensor **out);

/* tf.space_to_batch (legacy 4-D form): space_to_batch_nd with block_shape = [block_size,
 * block_size] on a 4-D [batch, height, width, depth] input; paddings is [2, 2].
 * Errors: invalid_argument (block_size < 2, input rank != 4, and those of space_to_batch_nd).
 * Prepared: data input input; output strides not taken. */
TX_API tx_status tx_space_to_batch(const tx_tensor *input, const tx_tensor *paddings,
                                   int64_t block_size, tx_tensor **out);

/* tf.batch_to_space (legacy 4-D form): batch_to_space_nd with block_shape = [block_size,
 * block_size] on a 4-D input; crops is [2, 2].
 * Errors: invalid_argument (block_size < 2, input rank != 4, and those of batch_to_space_nd).
 * Prepared: data input input; output strides not taken. */
TX_API tx_status tx_batch_to_space(const tx_tensor *input, const tx_tensor *crops,
                                   int64_t block_size, tx_tensor **out);
/* tx_batch_to_space of input, crops and block_size with an out-of-range policy oob for the crops,
 * as tx_batch_to_space_nd_oob applies it.
 * Errors: those of tx_batch_to_space_nd_oob, and invalid_argument (block_size < 2, input rank
 * != 4).  Since 0.2 (as tx_batch_to_space_ex).
 * Prepared: data input input; output strides not taken. */
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
 * < 1; a value or result that does not fit int32; block_shape's and base_paddings' values are
 * checked before input_shape's); resource_exhausted.  On failure both outs are NULL.
 * Implemented in src/ops/space_paddings.c.
 * Prepared: data input input_shape (block_shape and base_paddings are fixed at prepare time, M at
 * most TX_MAX_RANK); each run checks input_shape's values and the results, failing as the call
 * does; output strides not taken. */
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
 * resource_exhausted.
 * Prepared: data input input; output strides taken. */
TX_API tx_status tx_space_to_depth(const tx_tensor *input, int64_t block_size,
                                   tx_data_format data_format, tx_tensor **out);

/* tf.depth_to_space: the inverse of space_to_depth (TF's "DCR" order).  NHWC: [n, h, w, c] ->
 * [n, h * bs, w * bs, c / (bs * bs)] with out[n, y * bs + dy, x * bs + dx, k] =
 * in[n, y, x, (dy * bs + dx) * (c / (bs * bs)) + k]; NCHW likewise on [n, c, h, w].
 * Errors: invalid_argument (block_size < 2; an unknown data_format; input rank != 4; depth not
 * divisible by block_size * block_size; overflow); unimplemented (TX_FORMAT_NCHW_VECT_C);
 * resource_exhausted.
 * Prepared: data input input; output strides taken. */
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
 * tx_depth_mode.  Since 0.2 (as tx_depth_to_space_ex).
 * Prepared: data input input; output strides taken. */
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
 * resource_exhausted.
 * Prepared: data input images; output strides not taken. */
TX_API tx_status tx_extract_image_patches(const tx_tensor *images, const int64_t *ksizes,
                                          size_t n_ksizes, const int64_t *strides,
                                          size_t n_strides, const int64_t *rates, size_t n_rates,
                                          tx_padding padding, tx_tensor **out);
/* TX_SECTION_SPATIAL_END */

#endif /* TENSORX_OPS_SPATIAL_H */
