#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for the shapes group: the examples of TF's Tensor Transformations
# page ("Shapes and Shaping") and the CLI's argument handling.
. "$(dirname "$0")/lib.sh"

T='[[[1,1,1],[2,2,2]],[[3,3,3],[4,4,4]]]'
expect shape "array([2, 2, 3], dtype=int32)" -- shape input="$T"
expect shape_int64 "array([2, 2, 3], dtype=int64)" -- shape input="$T" out_type=int64
expect size "array(12, dtype=int32)" -- size input="$T"
expect rank "array(3, dtype=int32)" -- rank input="$T"
expect shape_n "array([2, 2, 3], dtype=int32)
array([], dtype=int32)" -- shape_n input="$T",5
# ShapeN's inputs are `N * T` (tensorflow/core/ops/array_ops.cc): one dtype for all.
expect_fail shape_n_mixed_dtypes invalid_argument "input[1] has dtype float32 but input[0] has dtype int32" -- shape_n input=[1,2],[1.5]

expect reshape_3x3 "array([[1, 2, 3],
       [4, 5, 6],
       [7, 8, 9]], dtype=int32)" -- reshape tensor=[1,2,3,4,5,6,7,8,9] shape=3,3
expect reshape_2x4 "array([[1, 1, 2, 2],
       [3, 3, 4, 4]], dtype=int32)" -- reshape tensor='[[[1,1],[2,2]],[[3,3],[4,4]]]' shape=2,4
T3='[[[1,1,1],[2,2,2]],[[3,3,3],[4,4,4]],[[5,5,5],[6,6,6]]]'
expect reshape_flat "array([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6], dtype=int32)" -- reshape tensor="$T3" shape=[-1]
expect reshape_2_m1 "array([[1, 1, 1, 2, 2, 2, 3, 3, 3],
       [4, 4, 4, 5, 5, 5, 6, 6, 6]], dtype=int32)" -- reshape tensor="$T3" shape=2,-1
expect reshape_m1_9 "array([[1, 1, 1, 2, 2, 2, 3, 3, 3],
       [4, 4, 4, 5, 5, 5, 6, 6, 6]], dtype=int32)" -- reshape tensor="$T3" shape=-1,9
expect reshape_2_m1_3 "array([[[1, 1, 1],
        [2, 2, 2],
        [3, 3, 3]],

       [[4, 4, 4],
        [5, 5, 5],
        [6, 6, 6]]], dtype=int32)" -- reshape tensor="$T3" shape=2,-1,3
expect reshape_scalar "array(7, dtype=int32)" -- reshape tensor=[7] shape=[]
# TF 2.21 decides: a scalar shape is a one-entry vector (ReshapeOp's legacy scalar)
expect reshape_scalar_shape "array([1, 2, 3, 4], dtype=int32)" -- reshape tensor=[[1,2],[3,4]] shape=4
expect_fail reshape_two_m1 invalid_argument "shape [3,-1,-1] has more than one -1" -- reshape tensor=[1,2,3] shape=3,-1,-1
# A dtype the TF op definition does not list is unimplemented, checked first (TF 2.21 decides).
expect_fail reshape_shape_dtype unimplemented "shape must be int32 or int64, got float32" -- reshape tensor=[1,2,3] 'shape=[[3.0]]'
expect_fail shape_out_type unimplemented "out_type must be int32 or int64, got int16" -- shape input=[1,2] out_type=int16

"$TX" reshape tensor=[1,2,3,4,5,6] shape=1,2,1,3,1,1 -o "$TX_TMP/t6.npy"
"$TX" squeeze input="$TX_TMP/t6.npy" -o "$TX_TMP/sq.npy"
expect squeeze_all_shape "array([2, 3], dtype=int32)" -- shape input="$TX_TMP/sq.npy"
"$TX" squeeze input="$TX_TMP/t6.npy" squeeze_dims=2,4 -o "$TX_TMP/sq24.npy"
expect squeeze_dims_shape "array([1, 2, 3, 1], dtype=int32)" -- shape input="$TX_TMP/sq24.npy"
expect_fail squeeze_not_one invalid_argument "cannot squeeze dim 1: its size is 2, not 1" -- squeeze input="$TX_TMP/t6.npy" squeeze_dims=[1]

expect expand_0 "array([[1, 2]], dtype=int32)" -- expand_dims input=[1,2] dim=0
expect expand_1 "array([[1],
       [2]], dtype=int32)" -- expand_dims input=[1,2] dim=1
expect expand_m1 "array([[1],
       [2]], dtype=int32)" -- expand_dims input=[1,2] dim=-1
expect_fail expand_range invalid_argument "dim 2 is out of range [-2, 1]" -- expand_dims input=[1,2] dim=2

# Argument handling.
expect_fail missing_arg usage "missing required argument 'shape'" -- reshape tensor=[1]
expect_fail unknown_arg usage "unknown argument 'bogus'" -- reshape tensor=[1] shape=1 bogus=2
expect_fail bad_literal invalid_argument "not rectangular" -- shape input=[[1,2],[3]]
expect_fail bad_dtype invalid_argument "unknown dtype" -- shape input=[1]:float128
expect literal_float "array([1.5, nan, -inf], dtype=float32)" -- reshape tensor=[1.5,nan,-inf] shape=[3]
expect literal_string "array([b'ab', b'c\\x00d'], dtype=string)" -- reshape tensor='["ab","c\x00d"]' shape=[2]
expect literal_bool "array([True, False], dtype=bool)" -- reshape tensor=[true,false] shape=[2]
# float16 65504 prints as 65500.0, the shortest decimal that reads back as it (numpy does the same).
expect literal_f16 "array([0.1, 65500.0, inf], dtype=float16)" -- reshape tensor=[0.1,65504,1e6]:float16 shape=[3]
expect literal_complex_print "array([(1+0j), (2.5+0j)], dtype=complex64)" -- reshape tensor=[1,2.5]:complex64 shape=[2]
expect literal_int64 "array([1, 5000000000], dtype=int64)" -- reshape tensor=[1,5000000000] shape=[2]
expect_fail int_range invalid_argument "'300' is not a valid int8 value" -- reshape tensor=[300]:int8 shape=[1]
"$TX" reshape tensor=[1,2,3,4] shape=2,2 -o "$TX_TMP/o.npy"
expect npy_out "array([[1, 2],
       [3, 4]], dtype=int32)" -- reshape tensor="$TX_TMP/o.npy" shape=2,2
"$TX" shape_n input=[1,2],[[1]] -o "$TX_TMP/s{}.npy"
expect outputs_braces "array([1, 1], dtype=int32)" -- reshape tensor="$TX_TMP/s1.npy" shape=[2]
printf 'ab' > "$TX_TMP/raw.bin"
expect raw_file "array(b'ab', dtype=string)" -- reshape tensor=@"$TX_TMP/raw.bin" shape=[]
expect summarized "array([0.0, 0.0, 0.0, ..., 0.0, 0.0, 0.0], dtype=float32)" -- reshape tensor="$(python3 -c 'print("["+",".join(["0"]*1001)+"]:float32")')" shape=[1001]
# Rank limits: TF's testReshapeWithManyDims reshapes [[1]] to an int64 shape of 254 ones and wants
# "too many dimensions" (ReshapeOp, tensorflow/core/kernels/reshape_op.h: fewer than
# TensorShape::MaxDimensions() = 254 entries); other ops reach rank 254 (expand_dims here), and
# tf.meshgrid / tf.boolean_mask, built on reshape, stop at 253.
ones() { local s=1 i; for ((i = 1; i < $1; i++)); do s="$s,1"; done; printf '[%s]' "$s"; }
expect_fail reshape_many_dims invalid_argument "reshape: shape has too many dimensions: must be < 254, but received 254" -- reshape 'tensor=[[1]]' "shape=$(ones 254):int64"
"$TX" reshape 'tensor=[[1]]' "shape=$(ones 253)" -o "$TX_TMP/r253.npy"
expect reshape_rank_253 "array(253, dtype=int32)" -- rank input="$TX_TMP/r253.npy"
"$TX" expand_dims input="$TX_TMP/r253.npy" dim=0 -o "$TX_TMP/r254.npy"
expect expand_dims_rank_254 "array(254, dtype=int32)" -- rank input="$TX_TMP/r254.npy"
expect_fail expand_dims_rank_255 invalid_argument "maximum rank 254" -- expand_dims input="$TX_TMP/r254.npy" dim=0
expect_fail reshape_rank_254_input invalid_argument "must be < 254, but received 254" -- reshape tensor="$TX_TMP/r254.npy" "shape=$(ones 254)"
expect_fail boolean_mask_rank_254 invalid_argument "boolean_mask: the result would have rank 254: too many dimensions: must be < 254" -- boolean_mask tensor="$TX_TMP/r254.npy" 'mask=[true]'
expect boolean_mask_rank_253 "array(253, dtype=int32)" -- rank input="$("$TX" boolean_mask tensor="$TX_TMP/r254.npy" 'mask=[[true]]' -o "$TX_TMP/m253.npy" && echo "$TX_TMP/m253.npy")"
meshgrid_args() { local s='[1]' i; for ((i = 1; i < $1; i++)); do s="$s,[1]"; done; printf '%s' "$s"; }
expect_fail meshgrid_254_args invalid_argument "meshgrid: 254 args would give outputs of rank 254: too many dimensions: must be < 254" -- meshgrid args="$(meshgrid_args 254)"
"$TX" meshgrid args="$(meshgrid_args 253)" indexing=ij -o "$TX_TMP/mg{}.npy"
expect meshgrid_253_args "array(253, dtype=int32)" -- rank input="$TX_TMP/mg252.npy"
expect_fail unknown_op usage "unknown op or command 'frobnicate'" -- frobnicate
finish
