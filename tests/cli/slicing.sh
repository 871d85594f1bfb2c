#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for the slicing family: the examples of slice, strided_slice, split,
# unpack, tile and pad on TF's Tensor Transformations page ("Slicing and Joining"), with TF's real
# result where the page is wrong, and the CLI's handling of these ops' arguments and errors.
. "$(dirname "$0")/lib.sh"

T='[[[1,1,1],[2,2,2]],[[3,3,3],[4,4,4]],[[5,5,5],[6,6,6]]]'

# ---- slice
expect slice_1 "array([[[3, 3, 3]]], dtype=int32)" -- slice input_="$T" begin=1,0,0 size=1,1,3
expect slice_2 "array([[[3, 3, 3],
        [4, 4, 4]]], dtype=int32)" -- slice input_="$T" begin=1,0,0 size=1,2,3
expect slice_3 "array([[[3, 3, 3]],

       [[5, 5, 5]]], dtype=int32)" -- slice input_="$T" begin=1,0,0 size=2,1,3
expect slice_rest "array([[[4, 4]],

       [[6, 6]]], dtype=int32)" -- slice input_="$T" begin=[1,1,1] size=[-1,-1,-1]
expect slice_int64 "array([[[5, 5, 5],
        [6, 6, 6]]], dtype=int32)" -- slice input_="$T" begin=[2,0,0]:int64 size=[1,-1,-1]:int64
expect slice_empty "array([], shape=(0, 2, 3), dtype=int32)" -- slice input_="$T" begin=3,0,0 size=0,-1,-1
expect slice_strings "array([b'b', b'c'], dtype=string)" -- slice input_='["a","b","c"]' begin=[1] size=[-1]
expect_fail slice_begin invalid_argument "expected begin[1] in [0, 2], but got 3" -- slice input_="$T" begin=0,3,0 size=1,1,1
expect_fail slice_size invalid_argument "expected size[2] in [0, 2]" -- slice input_="$T" begin=0,0,1 size=1,1,3
expect_fail slice_len invalid_argument "1-D tensors of size 3" -- slice input_="$T" begin=0,0 size=1,1
# A dtype the TF op definition does not list is unimplemented, checked first (TF 2.21 decides).
expect_fail slice_dtype unimplemented "begin must be int32 or int64, got float32" -- slice input_="$T" begin=[1.5] size=1,1,1
expect_fail ss_dtype unimplemented "begin must be int16, int32 or int64, got uint16" -- strided_slice input_=[1,2,3] 'begin=[0]:uint16' end=[2] strides=[1]
# ... but Index comes from begin: another dtype for size, end or strides is a mismatch (TF 2.21 decides)
expect_fail ss_strides_dtype invalid_argument "got int32, int32, uint16" -- strided_slice input_=[1,2,3] begin=[0] end=[2] 'strides=[1]:uint16'
expect_fail tile_dtype unimplemented "multiples must be int32 or int64, got float32" -- tile input=[1,2] multiples=[2.0,1.0]
expect_fail pad_dtype unimplemented "paddings must be int32 or int64, got int16" -- pad tensor=[1,2] 'paddings=[1,1]:int16'

# ---- strided_slice: the page's three examples (written there as tf.slice with four arguments)
expect ss_1 "array([[[3, 3, 3]]], dtype=int32)" -- strided_slice input_="$T" begin=1,0,0 end=2,1,3 strides=1,1,1
expect ss_2 "array([[[3, 3, 3],
        [4, 4, 4]]], dtype=int32)" -- strided_slice input_="$T" begin=1,0,0 end=2,2,3 strides=1,1,1
# The page says [[[4, 4, 4], [3, 3, 3]]] here, but end -1 in a dim of size 2 is index 1, so 1:1:-1
# is empty and TF returns shape (1, 0, 3).  TF's later docs get the page's result from
# begin [1, -1, 0], end [2, -3, 3].
expect ss_3_tf "array([], shape=(1, 0, 3), dtype=int32)" -- strided_slice input_="$T" begin=1,1,0 end=2,-1,3 strides=1,-1,1
expect ss_3_page_result "array([[[4, 4, 4],
        [3, 3, 3]]], dtype=int32)" -- strided_slice input_="$T" begin=1,-1,0 end=2,-3,3 strides=1,-1,1
# foo[::-1] reverses; foo[1:,1:]-style masks; foo[-1] shrinks; foo[:, tf.newaxis]; foo[..., tf.newaxis].
expect ss_reverse "array([8, 7, 6, 5, 4, 3, 2, 1], dtype=int32)" -- strided_slice input_=[1,2,3,4,5,6,7,8] begin=[0] end=[0] strides=[-1] begin_mask=1 end_mask=1
expect ss_masks "array([[5, 6]], dtype=int32)" -- strided_slice input_=[[1,2,3],[4,5,6]] begin=1,1 end=0,0 strides=1,1 end_mask=3
# StridedSlice's Index is {int16, int32, int64} (array_ops.cc; no Index constraint on the CPU kernel)
expect ss_int16 "array([1, 4, 7], dtype=int32)" -- strided_slice input_=[1,2,3,4,5,6,7,8] 'begin=[-32768]:int16' 'end=[32767]:int16' 'strides=[3]:int16'
expect_fail ss_mixed_index invalid_argument "begin, end and strides must have the same dtype (TF's Index), got int16, int16, int32" -- strided_slice input_=[1,2,3] 'begin=[0]:int16' 'end=[2]:int16' strides=[1]
expect ss_shrink "array([4, 5, 6], dtype=int32)" -- strided_slice input_=[[1,2,3],[4,5,6]] begin=[-1] end=[0] strides=[1] shrink_axis_mask=1
expect ss_newaxis "array([[[1, 2, 3]],

       [[4, 5, 6]]], dtype=int32)" -- strided_slice input_=[[1,2,3],[4,5,6]] begin=0,0 end=0,0 strides=1,1 begin_mask=1 end_mask=1 new_axis_mask=2
expect ss_ellipsis_newaxis "array([[[1],
        [2]]], dtype=int32)" -- strided_slice input_=[[1,2]] begin=0,0 end=0,0 strides=1,1 ellipsis_mask=1 new_axis_mask=2
expect ss_clamp "array([2, 3], dtype=int32)" -- strided_slice input_=[1,2,3] begin=[1] end=[100] strides=[1]
expect_fail ss_stride0 invalid_argument "strides[0] must be non-zero" -- strided_slice input_=[1,2,3] begin=[0] end=[1] strides=[0]
expect_fail ss_shrink_oob invalid_argument "slice index 3 of dimension 0 out of bounds" -- strided_slice input_=[1,2,3] begin=[3] end=[4] strides=[1] shrink_axis_mask=1
expect_fail ss_ellipses invalid_argument "multiple ellipses" -- strided_slice input_=[1,2,3] begin=0,0 end=1,1 strides=1,1 ellipsis_mask=3
expect_fail ss_scalar invalid_argument "attempting to slice scalar input" -- strided_slice input_=7 begin=[0] end=[1] strides=[1]
expect_fail ss_mask_range invalid_argument "out of range for an int32" -- strided_slice input_=[1] begin=[0] end=[1] strides=[1] begin_mask=4294967296

# ---- split: the page's [5, 30] example split into 3 along dim 1 gives [5, 10] parts.
"$TX" reshape tensor="$(python3 -c 'print("["+",".join(str(i) for i in range(150))+"]")')" shape=5,30 -o "$TX_TMP/v530.npy"
"$TX" split value="$TX_TMP/v530.npy" split_dim=1 num_split=3 -o "$TX_TMP/s0.npy" -o "$TX_TMP/s1.npy" -o "$TX_TMP/s2.npy"
expect split_shape0 "array([5, 10], dtype=int32)" -- shape input="$TX_TMP/s0.npy"
expect split_shape2 "array([5, 10], dtype=int32)" -- shape input="$TX_TMP/s2.npy"
expect split_row "array([[20, 21, 22, 23, 24, 25, 26, 27, 28, 29]], dtype=int32)" -- slice input_="$TX_TMP/s2.npy" begin=0,0 size=1,-1
expect split_num "array([[1, 2]], dtype=int32)
array([[3, 4]], dtype=int32)" -- split value=[[1,2],[3,4]] split_dim=0 num_split=2
expect split_sizes "array([[1],
       [3]], dtype=int32)
array([], shape=(2, 0), dtype=int32)
array([[2],
       [4]], dtype=int32)" -- split value=[[1,2],[3,4]] split_dim=-1 size_splits=1,0,-1
expect_fail split_divide invalid_argument "should evenly divide the split dimension" -- split value=[1,2,3] split_dim=0 num_split=2
expect_fail split_lone_m1 invalid_argument "if there is only one output" -- split value=[1,2,3] split_dim=0 size_splits=[-1]
expect_fail split_both invalid_argument "exactly one of num_split and size_splits" -- split value=[1,2] split_dim=0 num_split=2 size_splits=1,1
expect_fail split_dim invalid_argument "but got 1" -- split value=[1,2] split_dim=1 num_split=2

# ---- unpack: the note's tf.unpack(t, axis=axis) for a [2, 3] tensor.
expect unpack_0 "array([1, 2, 3], dtype=int32)
array([4, 5, 6], dtype=int32)" -- unpack value=[[1,2,3],[4,5,6]]
expect unpack_1 "array([1, 4], dtype=int32)
array([2, 5], dtype=int32)
array([3, 6], dtype=int32)" -- unpack value=[[1,2,3],[4,5,6]] axis=-1 num=3
expect_fail unpack_num invalid_argument "input shape axis 0 must equal num 3, got shape [2,3]" -- unpack value=[[1,2,3],[4,5,6]] num=3
# TF's Unpack attr is `num: int >= 0` (tensorflow/core/ops/array_ops.cc); absent num infers it.
expect_fail unpack_num_negative invalid_argument "unpack: num must be >= 0, got -1" -- unpack value=[[1,2,3],[4,5,6]] num=-1
expect_fail unpack_num_negative_2 invalid_argument "unpack: num must be >= 0, got -2" -- unpack value=[[1,2,3],[4,5,6]] num=-2
expect unpack_num_zero "" -- unpack 'value=[[],[]]' axis=1 num=0
expect_fail unpack_axis invalid_argument "axis = 2 not in [-2, 2)" -- unpack value=[[1,2,3],[4,5,6]] axis=2

# ---- tile: tiling [a b c d] by [2] produces [a b c d a b c d].
expect tile_page_example "array([b'a', b'b', b'c', b'd', b'a', b'b', b'c', b'd'], dtype=string)" -- tile input='["a","b","c","d"]' multiples=[2]
expect tile_2d "array([[1, 2, 1, 2],
       [3, 4, 3, 4],
       [1, 2, 1, 2],
       [3, 4, 3, 4]], dtype=int32)" -- tile input=[[1,2],[3,4]] multiples=2,2
expect tile_zero "array([], shape=(0, 2), dtype=float32)" -- tile input=[[1.5,2]] multiples=[0,1]:int64
expect_fail tile_len invalid_argument "vector of length 2" -- tile input=[[1,2]] multiples=2
expect_fail tile_neg invalid_argument "expected multiples[0] >= 0, but got -1" -- tile input=[1] multiples=[-1]
# TF 2.21 decides: a one-element scalar multiples is refused (TileOp: "Expected multiples to be 1-D")
expect_fail tile_scalar_m invalid_argument "vector of length 1 (the rank of input) but got 1 entries (rank 0)" -- tile input=[1,2] multiples=2:int64
expect_fail tile_overflow invalid_argument "overflows int64" -- tile input=[1,2] multiples=[4611686018427387904]

# ---- pad: 't' is [[1, 2, 3], [4, 5, 6]], 'paddings' is [[1, 1], [2, 2]].
P='[[1,1],[2,2]]'
expect pad_constant "array([[0, 0, 0, 0, 0, 0, 0],
       [0, 0, 1, 2, 3, 0, 0],
       [0, 0, 4, 5, 6, 0, 0],
       [0, 0, 0, 0, 0, 0, 0]], dtype=int32)" -- pad tensor=[[1,2,3],[4,5,6]] paddings="$P" mode=CONSTANT
expect pad_reflect "array([[6, 5, 4, 5, 6, 5, 4],
       [3, 2, 1, 2, 3, 2, 1],
       [6, 5, 4, 5, 6, 5, 4],
       [3, 2, 1, 2, 3, 2, 1]], dtype=int32)" -- pad tensor=[[1,2,3],[4,5,6]] paddings="$P" mode=REFLECT
expect pad_symmetric "array([[2, 1, 1, 2, 3, 3, 2],
       [2, 1, 1, 2, 3, 3, 2],
       [5, 4, 4, 5, 6, 6, 5],
       [5, 4, 4, 5, 6, 6, 5]], dtype=int32)" -- pad tensor=[[1,2,3],[4,5,6]] paddings="$P" mode=SYMMETRIC
expect pad_default_mode "array([0, 1, 0], dtype=int32)" -- pad tensor=[1] paddings=[[1,1]]
expect pad_lower_mode "array([2, 1, 2], dtype=int32)" -- pad tensor=[1,2] paddings=[[1,0]] mode=reflect
expect pad_constant_values "array([[1.5, 1.5, 1.5],
       [1.5, 7.0, 1.5],
       [1.5, 1.5, 1.5]], dtype=float32)" -- pad tensor=[[7.0]] paddings=[[1,1],[1,1]]:int64 constant_values=1.5
expect pad_strings "array([b'', b'x', b'-', b'-'], dtype=string)" -- pad tensor='["",  "x"]' paddings=[[0,2]] constant_values=-
expect pad_strings_quoted "array([b'a\\x00', b'q'], dtype=string)" -- pad tensor='["q"]' paddings=[[1,0]] constant_values='"a\x00"'
expect pad_strings_default "array([b'', b'q'], dtype=string)" -- pad tensor='["q"]' paddings=[[1,0]]
# A quoted constant_values is a literal, never a file, even ending in .npy (fuzz_ops found the
# unterminated one read as the path '"a.npy': an io_error no op can give).
expect pad_strings_quoted_npy "array([b'a.npy', b'q'], dtype=string)" -- pad tensor='["q"]' paddings=[[1,0]] constant_values='"a.npy"'
expect_fail pad_strings_quoted_unterminated invalid_argument "unterminated string literal" -- pad tensor='["q"]' paddings=[[1,0]] constant_values='"a.npy'
expect_fail pad_mode invalid_argument "mode 'BOGUS' is not one of CONSTANT, REFLECT, SYMMETRIC, EDGE, WRAP" -- pad tensor=[1,2] paddings=[[1,1]] mode=BOGUS
# ONNX presets: pad modes EDGE and WRAP (ONNX Pad 'edge' / 'wrap', np.pad's modes).
expect pad_edge "array([[1, 1, 1, 2, 3, 3, 3],
       [1, 1, 1, 2, 3, 3, 3],
       [4, 4, 4, 5, 6, 6, 6],
       [4, 4, 4, 5, 6, 6, 6]], dtype=int32)" -- pad tensor=[[1,2,3],[4,5,6]] paddings="$P" mode=EDGE
expect pad_wrap "array([[5, 6, 4, 5, 6, 4, 5],
       [2, 3, 1, 2, 3, 1, 2],
       [5, 6, 4, 5, 6, 4, 5],
       [2, 3, 1, 2, 3, 1, 2]], dtype=int32)" -- pad tensor=[[1,2,3],[4,5,6]] paddings="$P" mode=wrap
expect pad_wrap_past_dim "array([b'b', b'a', b'b', b'a', b'b', b'a'], dtype=string)" -- pad tensor='["a","b"]' paddings=[[3,1]] mode=WRAP
expect pad_edge_ignores_cv "array([1, 1, 2, 2], dtype=int32)" -- pad tensor=[1,2] paddings=[[1,1]] mode=EDGE constant_values=9
expect_fail pad_edge_empty invalid_argument "EDGE cannot pad dim 0 of size 0" -- pad tensor=[]:int32 paddings=[[1,0]] mode=EDGE
# ONNX Split-18 uneven num_outputs: parts of ceil(7 / 4) = 2, the last smaller.
expect split_uneven "array([1, 2], dtype=int32)
array([3, 4], dtype=int32)
array([5, 6], dtype=int32)
array([7], dtype=int32)" -- split value=[1,2,3,4,5,6,7] split_dim=0 num_split=4 uneven=true
expect split_uneven_2d "array([[1.0, 2.0, 3.0],
       [9.0, 10.0, 11.0]], dtype=float32)
array([[4.0, 5.0, 6.0],
       [12.0, 13.0, 14.0]], dtype=float32)
array([[7.0, 8.0],
       [15.0, 16.0]], dtype=float32)" -- split value=[[1.,2,3,4,5,6,7,8],[9,10,11,12,13,14,15,16]] split_dim=1 num_split=3 uneven=true
expect split_uneven_empty_last "array([1], dtype=int32)
array([2], dtype=int32)
array([], dtype=int32)" -- split value=[1,2] split_dim=0 num_split=3 uneven=true
expect_fail split_uneven_too_many invalid_argument "leaves nothing for the last part" -- split value=[1,2,3,4,5,6,7] split_dim=0 num_split=5 uneven=true
expect_fail split_uneven_default invalid_argument "evenly divide" -- split value=[1,2,3,4,5,6,7] split_dim=0 num_split=4
expect_fail split_uneven_sizes invalid_argument "applies to num_split" -- split value=[1,2,3] split_dim=0 size_splits=1,2 uneven=true
expect_fail pad_negative invalid_argument "paddings must be non-negative" -- pad tensor=[1,2] paddings=[[-1,1]]
expect_fail pad_reflect_limit invalid_argument "REFLECT paddings must be less than the dimension size: 2, 0 not less than 2" -- pad tensor=[1,2] paddings=[[2,0]] mode=REFLECT
expect_fail pad_symmetric_limit invalid_argument "no greater than the dimension size: 0, 3 greater than 2" -- pad tensor=[1,2] paddings=[[0,3]] mode=SYMMETRIC
expect_fail pad_shape invalid_argument "paddings must be a matrix with 2 columns" -- pad tensor=[1,2] paddings=[1,1]
expect_fail pad_cv_type invalid_argument "not a valid int32 value" -- pad tensor=[1,2] paddings=[[1,1]] constant_values=1.5
# An empty value whose unpacked axis is 2^29 long (found by fuzz_ops): 2^29 empty outputs would
# take over 100 GB of tensor headers, so the CLI counts every output against --max-bytes.
npy_header "$TX_TMP/unpack_huge.npy" '(536870912, 0)'
expect_fail unpack_huge_empty_axis resource_exhausted '536870912 outputs need about' -- unpack value="$TX_TMP/unpack_huge.npy" axis=0
expect_fail unpack_huge_empty_axis_plan resource_exhausted 'over the byte limit 2097152 (--max-bytes)' -- unpack value="$TX_TMP/unpack_huge.npy" axis=0 --plan --max-bytes=2M
npy_header "$TX_TMP/unpack_some.npy" '(3, 0)'
expect unpack_empty_rows "array([], dtype=float32)
array([], dtype=float32)
array([], dtype=float32)" -- unpack value="$TX_TMP/unpack_some.npy" axis=0

finish
