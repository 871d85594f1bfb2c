#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for the reorder group: the examples of meshgrid, concat, pack,
# reverse_sequence, reverse and transpose on TF's Tensor Transformations page, with TensorFlow's
# results where the page is wrong, plus the CLI's argument handling and error reports.
. "$(dirname "$0")/lib.sh"

# ---- meshgrid: x = [1, 2, 3], y = [4, 5, 6] ----
# The page prints X = [[1,1,1],[2,2,2],[3,3,3]], Y = [[4,5,6],...] for meshgrid(x, y) while calling
# 'xy' the default: those are the 'ij' results.  TensorFlow's default 'xy' gives the transposes.
expect meshgrid_xy_default "array([[1, 2, 3],
       [1, 2, 3],
       [1, 2, 3]], dtype=int32)
array([[4, 4, 4],
       [5, 5, 5],
       [6, 6, 6]], dtype=int32)" -- meshgrid args=[1,2,3],[4,5,6]
expect meshgrid_ij "array([[1, 1, 1],
       [2, 2, 2],
       [3, 3, 3]], dtype=int32)
array([[4, 5, 6],
       [4, 5, 6],
       [4, 5, 6]], dtype=int32)" -- meshgrid args=[1,2,3],[4,5,6] indexing=ij
expect meshgrid_strings "array([[b'a', b'bc']], dtype=string)
array([[b'x', b'x']], dtype=string)" -- meshgrid args='["a","bc"],["x"]'
"$TX" meshgrid args=[1,2,3],[4,5] -o "$TX_TMP/mg{}.npy"
expect meshgrid_out1_shape "array([2, 3], dtype=int32)" -- shape input="$TX_TMP/mg1.npy"
expect_fail meshgrid_indexing invalid_argument "indexing must be 'xy' or 'ij', got 'yx'" -- meshgrid args=[1],[2] indexing=yx
expect_fail meshgrid_dtypes invalid_argument "args[1] has dtype float32 but args[0] has dtype int32" -- meshgrid args=[1],[2.5]

# ---- concat: t1 = [[1, 2, 3], [4, 5, 6]], t2 = [[7, 8, 9], [10, 11, 12]] ----
T1='[[1,2,3],[4,5,6]]'
T2='[[7,8,9],[10,11,12]]'
expect concat_0 "array([[1, 2, 3],
       [4, 5, 6],
       [7, 8, 9],
       [10, 11, 12]], dtype=int32)" -- concat values="$T1,$T2" concat_dim=0
expect concat_1 "array([[1, 2, 3, 7, 8, 9],
       [4, 5, 6, 10, 11, 12]], dtype=int32)" -- concat values="$T1,$T2" concat_dim=1
expect concat_neg "array([[1, 2, 3, 7, 8, 9],
       [4, 5, 6, 10, 11, 12]], dtype=int32)" -- concat values="$T1,$T2" concat_dim=-1
"$TX" concat values="$T1,$T2" concat_dim=0 -o "$TX_TMP/c0.npy"
"$TX" concat values="$T1,$T2" concat_dim=1 -o "$TX_TMP/c1.npy"
expect concat_shape_0 "array([4, 3], dtype=int32)" -- shape input="$TX_TMP/c0.npy"
expect concat_shape_1 "array([2, 6], dtype=int32)" -- shape input="$TX_TMP/c1.npy"
expect concat_one_value "array([1, 2], dtype=int32)" -- concat values=[1,2] concat_dim=7
expect_fail concat_dim_range invalid_argument "concat_dim 2 is out of range [-2, 2)" -- concat values="$T1,$T2" concat_dim=2
expect_fail concat_mismatch invalid_argument "values[2] differs from values[0] in dimension 1" -- concat values="$T1,$T2,[[1,2]]" concat_dim=0
expect_fail concat_rank invalid_argument "values[1] has rank 1 but values[0] has rank 2" -- concat values="$T1,[1,2]" concat_dim=0
expect_fail concat_dtype invalid_argument "values[1] has dtype float32 but values[0] has dtype int32" -- concat values="$T1,[[1.5,2,3]]" concat_dim=0
expect_fail concat_scalars invalid_argument "scalars cannot be concatenated" -- concat values=1,2 concat_dim=0

# ---- pack: x = [1, 4], y = [2, 5], z = [3, 6] ----
expect pack_0 "array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int32)" -- pack values=[1,4],[2,5],[3,6]
expect pack_1 "array([[1, 2, 3],
       [4, 5, 6]], dtype=int32)" -- pack values=[1,4],[2,5],[3,6] axis=1
expect pack_neg "array([[1, 2, 3],
       [4, 5, 6]], dtype=int32)" -- pack values=[1,4],[2,5],[3,6] axis=-1
expect_fail pack_axis invalid_argument "axis 2 is out of range [-2, 2)" -- pack values=[1,4],[2,5] axis=2
expect_fail pack_shapes invalid_argument "values[0].shape = [2] != values[1].shape = [3]" -- pack values=[1,4],[2,5,6]

# ---- reverse_sequence: batch_dim = 0, seq_dim = 1, input.dims = (4, 8), seq_lengths = [7, 2, 3, 5] ----
RS='[[0,1,2,3,4,5,6,7],[10,11,12,13,14,15,16,17],[20,21,22,23,24,25,26,27],[30,31,32,33,34,35,36,37]]'
expect reverse_sequence_b0_s1 "array([[6, 5, 4, 3, 2, 1, 0, 7],
       [11, 10, 12, 13, 14, 15, 16, 17],
       [22, 21, 20, 23, 24, 25, 26, 27],
       [34, 33, 32, 31, 30, 35, 36, 37]], dtype=int32)" -- reverse_sequence input="$RS" seq_lengths=7,2,3,5 seq_dim=1
# batch_dim = 2, seq_dim = 0, input.dims = (8, 1, 4): the same rows, transposed, with a middle dim.
"$TX" transpose a="$RS" -o "$TX_TMP/rs_t.npy"
"$TX" reshape tensor="$TX_TMP/rs_t.npy" shape=8,1,4 -o "$TX_TMP/rs3.npy"
"$TX" reverse_sequence input="$TX_TMP/rs3.npy" seq_lengths=[7,2,3,5]:int64 seq_dim=0 batch_dim=2 -o "$TX_TMP/rs3_out.npy"
expect reverse_sequence_b2_s0 "array([[6, 11, 22, 34],
       [5, 10, 21, 33],
       [4, 12, 20, 32],
       [3, 13, 23, 31],
       [2, 14, 24, 30],
       [1, 15, 25, 35],
       [0, 16, 26, 36],
       [7, 17, 27, 37]], dtype=int32)" -- reshape tensor="$TX_TMP/rs3_out.npy" shape=8,4
expect reverse_sequence_full_length "array([[3, 2, 1]], dtype=int32)" -- reverse_sequence input=[[1,2,3]] seq_lengths=[3] seq_dim=1
expect_fail reverse_sequence_long invalid_argument "seq_lengths[0] = 9 is above input.dims[seq_dim=1] = 8" -- reverse_sequence input="$RS" seq_lengths=9,2,3,5 seq_dim=1
expect_fail reverse_sequence_negative invalid_argument "seq_lengths[1] = -2 is negative" -- reverse_sequence input="$RS" seq_lengths=7,-2,3,5 seq_dim=1
expect_fail reverse_sequence_count invalid_argument "seq_lengths has 3 values, input.dims[batch_dim=0] is 4" -- reverse_sequence input="$RS" seq_lengths=7,2,3 seq_dim=1
expect_fail reverse_sequence_same_dim invalid_argument "batch_dim and seq_dim must differ" -- reverse_sequence input="$RS" seq_lengths=7,2,3,5 seq_dim=0

# ---- reverse: 't' is [[[[0..3], [4..7], [8..11]], [[12..15], [16..19], [20..23]]]], shape [1, 2, 3, 4] ----
RT='[[[[0,1,2,3],[4,5,6,7],[8,9,10,11]],[[12,13,14,15],[16,17,18,19],[20,21,22,23]]]]'
R_LAST="array([[[[3, 2, 1, 0],
         [7, 6, 5, 4],
         [11, 10, 9, 8]],

        [[15, 14, 13, 12],
         [19, 18, 17, 16],
         [23, 22, 21, 20]]]], dtype=int32)"
R_DIM1="array([[[[12, 13, 14, 15],
         [16, 17, 18, 19],
         [20, 21, 22, 23]],

        [[0, 1, 2, 3],
         [4, 5, 6, 7],
         [8, 9, 10, 11]]]], dtype=int32)"
R_DIM2="array([[[[8, 9, 10, 11],
         [4, 5, 6, 7],
         [0, 1, 2, 3]],

        [[20, 21, 22, 23],
         [16, 17, 18, 19],
         [12, 13, 14, 15]]]], dtype=int32)"
expect reverse_dims_3 "$R_LAST" -- reverse tensor="$RT" dims=[false,false,false,true]
expect reverse_dims_1 "$R_DIM1" -- reverse tensor="$RT" dims=[false,true,false,false]
expect reverse_dims_2 "$R_DIM2" -- reverse tensor="$RT" dims=[false,false,true,false]
expect reverse_axis_3 "$R_LAST" -- reverse tensor="$RT" axis=[3]
expect reverse_axis_m3 "$R_DIM1" -- reverse tensor="$RT" axis=-3
expect reverse_axis_m2 "$R_DIM2" -- reverse tensor="$RT" axis=[-2]
expect reverse_strings "array([b'c', b'', b'ab'], dtype=string)" -- reverse tensor='["ab","","c"]' axis=0
expect_fail reverse_both invalid_argument "exactly one of dims" -- reverse tensor=[1,2] dims=[true] axis=0
expect_fail reverse_neither invalid_argument "exactly one of dims" -- reverse tensor=[1,2]
expect_fail reverse_dims_count invalid_argument "dims has 2 values but tensor has rank 4" -- reverse tensor="$RT" dims=[true,false]
expect_fail reverse_dims_dtype invalid_argument "dims must be bool, got int32" -- reverse tensor="$RT" dims=[1,0,0,0]
expect_fail reverse_axis_twice invalid_argument "axis 3 is specified more than once (axis[1] = -1)" -- reverse tensor="$RT" axis=3,-1
expect_fail reverse_axis_range invalid_argument "axis[0] = 4 is out of range [-4, 4)" -- reverse tensor="$RT" axis=4
# ReverseV2Op (tensorflow/core/kernels/reverse_op.cc) returns an input with no elements before it
# reads axis; ReverseOp (same file) refuses a first dimension of 0 before it reads dims.
expect reverse_axis_empty_tensor "array([], dtype=float32)" -- reverse 'tensor=[]' 'axis=[0,0]'
expect reverse_axis_empty_range "array([], shape=(2, 0), dtype=float32)" -- reverse 'tensor=[[],[]]' axis=5,-7
expect_fail reverse_dims_empty_first invalid_argument "Invalid input first dimension. Found 0." -- reverse 'tensor=[]' dims=[true]
expect reverse_dims_empty_inner "array([], shape=(2, 0), dtype=float32)" -- reverse 'tensor=[[],[]]' dims=[true,true]

# ---- transpose: 'x' is [[1 2 3] [4 5 6]] ----
X_T="array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int32)"
expect transpose_default "$X_T" -- transpose a=[[1,2,3],[4,5,6]]
expect transpose_perm "$X_T" -- transpose a=[[1,2,3],[4,5,6]] perm=1,0
expect transpose_perm_int64 "$X_T" -- transpose a=[[1,2,3],[4,5,6]] perm=[1,0]:int64
expect transpose_021 "array([[[1, 4],
        [2, 5],
        [3, 6]],

       [[7, 10],
        [8, 11],
        [9, 12]]], dtype=int32)" -- transpose a='[[[1,2,3],[4,5,6]],[[7,8,9],[10,11,12]]]' perm=0,2,1
expect transpose_conjugate_real "array([[1.5],
       [-2.0]], dtype=float32)" -- transpose a=[[1.5,-2]] conjugate=true
expect_fail transpose_not_perm invalid_argument "perm [0,0] is not a permutation of [0, 2): 1 is missing" -- transpose a=[[1,2],[3,4]] perm=0,0
expect_fail transpose_perm_len invalid_argument "perm has 3 entries but a has rank 2" -- transpose a=[[1,2],[3,4]] perm=0,1,2
expect_fail transpose_perm_range invalid_argument "perm[1] = 2 is out of range [-2, 2)" -- transpose a=[[1,2],[3,4]] perm=0,2

finish
