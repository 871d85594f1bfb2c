#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for the gather family: the examples of TF's Tensor Transformations page
# (gather .. sequence_mask) with TensorFlow's results where the page is wrong, and the main
# errors.
. "$(dirname "$0")/lib.sh"

# gather: scalar, vector and matrix indices (output[i, ..., j, :] = params[indices[i, ..., j], :])
expect gather_scalar 'array([5, 6], dtype=int32)' -- gather 'params=[[1,2],[3,4],[5,6]]' indices=2
expect gather_vector 'array([[5, 6],
       [1, 2]], dtype=int32)' -- gather 'params=[[1,2],[3,4],[5,6]]' 'indices=[2,0]'
expect gather_permutation 'array([[3, 4],
       [5, 6],
       [1, 2]], dtype=int32)' -- gather 'params=[[1,2],[3,4],[5,6]]' 'indices=[1,2,0]'
expect gather_matrix 'array([[[1, 2],
        [3, 4]],

       [[5, 6],
        [5, 6]]], dtype=int32)' -- gather 'params=[[1,2],[3,4],[5,6]]' 'indices=[[0,1],[2,2]]'
expect gather_axis1 'array([[3, 1],
       [6, 4]], dtype=int32)' -- gather 'params=[[1,2,3],[4,5,6]]' 'indices=[2,0]' axis=1
expect gather_axis_neg 'array([[3, 1],
       [6, 4]], dtype=int32)' -- gather 'params=[[1,2,3],[4,5,6]]' 'indices=[2,0]' axis=-1
# batch_dims=1 without axis: TF's Python takes axis = batch_dims
expect gather_batch_dims 'array([[1, 2],
       [6, 4]], dtype=int32)' -- gather 'params=[[1,2,3],[4,5,6]]' 'indices=[[0,1],[2,0]]' batch_dims=1
expect gather_strings "array([b'TF', b'Intel'], dtype=string)" -- gather 'params=["Intel","OpenVINO","TF"]' 'indices=[2,0]'
# gather_nd: the page's examples (its batched outputs are missing brackets; these are TF's)
expect gather_nd_simple "array([b'a', b'd'], dtype=string)" -- gather_nd 'params=[["a","b"],["c","d"]]' 'indices=[[0,0],[1,1]]'
expect gather_nd_slice "array([[b'c', b'd'],
       [b'a', b'b']], dtype=string)" -- gather_nd 'params=[["a","b"],["c","d"]]' 'indices=[[1],[0]]'
expect gather_nd_3t "array([[[b'a1', b'b1'],
        [b'c1', b'd1']]], dtype=string)" -- gather_nd 'params=[[["a0","b0"],["c0","d0"]],[["a1","b1"],["c1","d1"]]]' 'indices=[[1]]'
expect gather_nd_3t_pairs "array([[b'c0', b'd0'],
       [b'a1', b'b1']], dtype=string)" -- gather_nd 'params=[[["a0","b0"],["c0","d0"]],[["a1","b1"],["c1","d1"]]]' 'indices=[[0,1],[1,0]]'
expect gather_nd_3t_triples "array([b'b0', b'b1'], dtype=string)" -- gather_nd 'params=[[["a0","b0"],["c0","d0"]],[["a1","b1"],["c1","d1"]]]' 'indices=[[0,0,1],[1,0,1]]'
expect gather_nd_batched "array([[b'a'],
       [b'b']], dtype=string)" -- gather_nd 'params=[["a","b"],["c","d"]]' 'indices=[[[0,0]],[[0,1]]]'
expect gather_nd_batched_slice "array([[[b'c', b'd']],

       [[b'a', b'b']]], dtype=string)" -- gather_nd 'params=[["a","b"],["c","d"]]' 'indices=[[[1]],[[0]]]'
expect gather_nd_batched_3t "array([[[[b'a1', b'b1'],
         [b'c1', b'd1']]],


       [[[b'a0', b'b0'],
         [b'c0', b'd0']]]], dtype=string)" -- gather_nd 'params=[[["a0","b0"],["c0","d0"]],[["a1","b1"],["c1","d1"]]]' 'indices=[[[1]],[[0]]]'
expect gather_nd_batched_pairs "array([[[b'c0', b'd0'],
        [b'a1', b'b1']],

       [[b'a0', b'b0'],
        [b'c1', b'd1']]], dtype=string)" -- gather_nd 'params=[[["a0","b0"],["c0","d0"]],[["a1","b1"],["c1","d1"]]]' 'indices=[[[0,1],[1,0]],[[0,0],[1,1]]]'
expect gather_nd_batched_triples "array([[b'b0', b'b1'],
       [b'd0', b'c1']], dtype=string)" -- gather_nd 'params=[[["a0","b0"],["c0","d0"]],[["a1","b1"],["c1","d1"]]]' 'indices=[[[0,0,1],[1,0,1]],[[0,1,1],[1,1,0]]]'
# unique_with_counts: y in order of first occurrence, idx, count
expect unique 'array([1, 2, 4, 7, 8], dtype=int32)
array([0, 0, 1, 2, 2, 2, 3, 4, 4], dtype=int32)
array([2, 1, 3, 1, 2], dtype=int32)' -- unique_with_counts 'x=[1,1,2,4,4,4,7,8,8]'
expect unique_zero_signs 'array([3.5, -0.0], dtype=float32)
array([0, 1, 1, 0], dtype=int64)
array([2, 2], dtype=int64)' -- unique_with_counts 'x=[3.5,-0.0,0.0,3.5]' out_idx=int64
expect unique_strings "array([b'b', b'a'], dtype=string)
array([0, 1, 0], dtype=int32)
array([2, 1], dtype=int32)" -- unique_with_counts 'x=["b","a","b"]'
# dynamic_partition: the page's scalar example; its vector example has 6 partitions for 5 values,
# which TF rejects, so the vector case uses TF's own [0, 0, 1, 1, 0]
expect partition_scalar 'array([], shape=(0, 2), dtype=int32)
array([[10, 20]], dtype=int32)' -- dynamic_partition 'data=[10,20]' partitions=1 num_partitions=2
expect partition_vector 'array([10, 20, 50], dtype=int32)
array([30, 40], dtype=int32)' -- dynamic_partition 'data=[10,20,30,40,50]' 'partitions=[0,0,1,1,0]' num_partitions=2
# dynamic_stitch: the page's example (7 rows: max(indices) + 1); later entries win; unnamed rows are 0
expect stitch 'array([[1, 2],
       [11, 12],
       [21, 22],
       [31, 32],
       [41, 42],
       [51, 52],
       [61, 62]], dtype=int32)' -- dynamic_stitch 'indices=6,[4,1],[[5,2],[0,3]]' 'data=[61,62],[[41,42],[11,12]],[[[51,52],[21,22]],[[1,2],[31,32]]]'
expect stitch_later_wins 'array([1.5, 9.5], dtype=float32)' -- dynamic_stitch 'indices=[0,1],[1]' 'data=[1.5,2.5],[9.5]'
expect stitch_zero_fill 'array([7, 0, 0, 8], dtype=int32)' -- dynamic_stitch 'indices=[0,3]' 'data=[7,8]'
# boolean_mask: the page's examples, a 2-D mask and axis=1
expect mask_1d 'array([0, 2], dtype=int32)' -- boolean_mask 'tensor=[0,1,2,3]' 'mask=[true,false,true,false]'
expect mask_2d 'array([[1, 2],
       [5, 6]], dtype=int32)' -- boolean_mask 'tensor=[[1,2],[3,4],[5,6]]' 'mask=[true,false,true]'
expect mask_kd 'array([1, 4, 5, 6], dtype=int32)' -- boolean_mask 'tensor=[[1,2],[3,4],[5,6]]' 'mask=[[true,false],[false,true],[true,true]]'
expect mask_axis1 'array([[2, 3],
       [5, 6]], dtype=int32)' -- boolean_mask 'tensor=[[1,2,3],[4,5,6]]' 'mask=[false,true,true]' axis=1
# one_hot: the page's three examples, axis 0, integer and string values
expect one_hot_on5 'array([[5.0, 0.0, 0.0],
       [0.0, 0.0, 5.0],
       [0.0, 0.0, 0.0],
       [0.0, 5.0, 0.0]], dtype=float32)' -- one_hot 'indices=[0,2,-1,1]' depth=3 on_value=5.0 off_value=0.0 axis=-1
expect one_hot_matrix 'array([[[1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0]],

       [[0.0, 1.0, 0.0],
        [0.0, 0.0, 0.0]]], dtype=float32)' -- one_hot 'indices=[[0,2],[1,-1]]' depth=3 on_value=1.0 off_value=0.0 axis=-1
expect one_hot_default 'array([[1.0, 0.0, 0.0],
       [0.0, 1.0, 0.0],
       [0.0, 0.0, 1.0]], dtype=float32)' -- one_hot 'indices=[0,1,2]' depth=3
expect one_hot_axis0 'array([[1.0, 0.0, 0.0, 0.0],
       [0.0, 0.0, 0.0, 1.0],
       [0.0, 1.0, 0.0, 0.0]], dtype=float32)' -- one_hot 'indices=[0,2,-1,1]' depth=3 axis=0
expect one_hot_int 'array([[-1, 7],
       [7, -1]], dtype=int32)' -- one_hot 'indices=[1,0]' depth=2 on_value=7 off_value=-1
expect one_hot_strings "array([[b'no', b'yes'],
       [b'yes', b'no']], dtype=string)" -- one_hot 'indices=[1,0]' depth=2 on_value=yes off_value=no dtype=string
expect one_hot_bool 'array([[False, True],
       [True, False]], dtype=bool)' -- one_hot 'indices=[1,0]' depth=2 dtype=bool
# sequence_mask: the page's example, maxlen absent, 2-D lengths cast to float32
expect sequence_mask 'array([[True, False, False, False, False],
       [True, True, True, False, False],
       [True, True, False, False, False]], dtype=bool)' -- sequence_mask 'lengths=[1,3,2]' maxlen=5
expect sequence_mask_default 'array([[True, False, False],
       [True, True, True],
       [True, True, False]], dtype=bool)' -- sequence_mask 'lengths=[1,3,2]'
expect sequence_mask_float 'array([[[1.0, 0.0],
        [0.0, 0.0]],

       [[1.0, 1.0],
        [1.0, 1.0]]], dtype=float32)' -- sequence_mask 'lengths=[[1,0],[2,2]]' maxlen=2 dtype=float32

# int16 indices: GatherV2 and GatherNd take Tindices {int16, int32, int64} (tensorflow/core/ops/
# array_ops.cc) with CPU kernels for int16 (gather_op.cc REGISTER_GATHER_CPU, gather_nd_op.cc
# REGISTER_GATHER_ND_CPU); params.shape[axis] (gather) and params' size (gather_nd) must fit int16.
expect gather_int16 'array([[5, 6],
       [1, 2]], dtype=int32)' -- gather 'params=[[1,2],[3,4],[5,6]]' 'indices=[2,0]:int16'
expect gather_int16_batch_dims 'array([[1, 2],
       [6, 4]], dtype=int32)' -- gather 'params=[[1,2,3],[4,5,6]]' 'indices=[[0,1],[2,0]]:int16' batch_dims=1
expect gather_int16_oob_zero 'array([0, 0, 0, 2], dtype=int32)' -- gather 'params=[1,2,3]' 'indices=[-32768,32767,-1,1]:int16' oob=zero
expect gather_int16_oob_clamp 'array([1, 3, 1, 3], dtype=int32)' -- gather 'params=[1,2,3]' 'indices=[-32768,32767,-1,3]:int16' oob=clamp
expect gather_int16_oob_wrap 'array([2, 2, 3, 1], dtype=int32)' -- gather 'params=[1,2,3]' 'indices=[-32768,32767,-1,3]:int16' oob=wrap
expect_fail gather_int16_bad invalid_argument 'indices[0,1] = -32768 is not in [0, 3)' -- gather 'params=[1,2,3]' 'indices=[[0,-32768]]:int16'
expect gather_nd_int16 "array([b'a', b'd'], dtype=string)" -- gather_nd 'params=[["a","b"],["c","d"]]' 'indices=[[0,0],[1,1]]:int16'
expect gather_nd_int16_oob_wrap 'array([4], dtype=int32)' -- gather_nd 'params=[[1,2],[3,4]]' 'indices=[[-1,5]]:int16' oob=wrap
expect_fail gather_nd_int16_bad invalid_argument 'indices[0] = [1, -2] does not index into param shape [2,2]' -- gather_nd 'params=[[1,2],[3,4]]' 'indices=[[1,-2]]:int16'
expect_fail gather_index_dtype unimplemented 'indices must be int16, int32 or int64, got float32' -- gather 'params=[1,2,3]' 'indices=[0,1.5]'
expect_fail gather_index_uint16 unimplemented 'indices must be int16, int32 or int64, got uint16' -- gather_nd 'params=[1,2,3]' 'indices=[[0]]:uint16'

# errors: status and message
expect_fail gather_bad_index invalid_argument 'indices[1] = 3 is not in [0, 3)' -- gather 'params=[[1,2],[3,4],[5,6]]' 'indices=[0,3]'
expect_fail gather_negative_index invalid_argument 'indices[0,1] = -1 is not in [0, 3)' -- gather 'params=[1,2,3]' 'indices=[[0,-1]]'
expect_fail gather_axis_range invalid_argument 'axis 2 needs params of rank at least 3, got rank 2' -- gather 'params=[[1,2],[3,4]]' indices=0 axis=2
expect_fail gather_nd_bad invalid_argument 'indices[1] = [1, 2] does not index into param shape [2,2]' -- gather_nd 'params=[[1,2],[3,4]]' 'indices=[[0,0],[1,2]]'
expect_fail unique_2d invalid_argument 'x must be 1-D' -- unique_with_counts 'x=[[1,2]]'
expect_fail partition_page_vector invalid_argument 'data.shape must start with partitions.shape' -- dynamic_partition 'data=[10,20,30,40,50]' 'partitions=[0,0,1,1,0,1]' num_partitions=2
expect_fail partition_bad_id invalid_argument 'partitions[2] = 3 is not in [0, 2)' -- dynamic_partition 'data=[10,20,30]' 'partitions=[0,1,3]' num_partitions=2
expect_fail stitch_negative invalid_argument 'indices[1][0] = -2 is not in [0, 2)' -- dynamic_stitch 'indices=[1],[-2]' 'data=[1],[2]'
expect_fail mask_scalar invalid_argument 'mask cannot be a scalar' -- boolean_mask 'tensor=[1,2]' mask=true
expect_fail mask_shape invalid_argument 'mask shape [3] does not match tensor.shape[0:1]' -- boolean_mask 'tensor=[1,2]' 'mask=[true,false,true]'
expect_fail one_hot_axis invalid_argument 'axis must be -1 or in [0, 1], got -2' -- one_hot 'indices=[1,0]' depth=2 axis=-2
expect_fail one_hot_string_default invalid_argument 'on_value must be given for a string dtype' -- one_hot 'indices=[1,0]' depth=2 dtype=string
expect_fail one_hot_mixed_values invalid_argument 'on_value (int32) and off_value (float32) have different dtypes' -- one_hot 'indices=[1,0]' depth=2 on_value=1 off_value=0.5
expect_fail sequence_mask_negative invalid_argument 'maxlen -1 is negative' -- sequence_mask 'lengths=[1]' maxlen=-1
expect_fail sequence_mask_string unimplemented 'dtype string is not supported' -- sequence_mask 'lengths=[1]' dtype=string

# out-of-range policies (oob=): zero (TF GPU / OpenVINO), clamp (XLA), wrap (NumPy's take mode='wrap')
expect gather_oob_zero 'array([[5, 6],
       [0, 0],
       [0, 0]], dtype=int32)' -- gather 'params=[[1,2],[3,4],[5,6]]' 'indices=[2,-1,3]' oob=zero
expect gather_oob_zero_strings "array([b'TF', b'', b''], dtype=string)" -- gather 'params=["Intel","OpenVINO","TF"]' 'indices=[2,3,-9]' oob=zero
expect gather_oob_clamp 'array([1, 3, 3, 1], dtype=int32)' -- gather 'params=[1,2,3]' 'indices=[-1,3,7,0]' oob=clamp
expect gather_oob_wrap 'array([3, 1, 2, 1], dtype=int32)' -- gather 'params=[1,2,3]' 'indices=[-1,3,7,0]' oob=wrap
expect gather_oob_wrap_int64 'array([10, 70], dtype=int32)' -- gather 'params=[10,20,30,40,50,60,70]' 'indices=[9223372036854775807,-9223372036854775808]' oob=wrap
expect gather_oob_zero_axis1 'array([[0, 1],
       [0, 4]], dtype=int32)' -- gather 'params=[[1,2,3],[4,5,6]]' 'indices=[3,0]' axis=1 oob=zero
expect gather_oob_zero_empty 'array([0.0, 0.0], dtype=float32)' -- gather 'params=[]:float32' 'indices=[0,-1]' oob=zero
expect gather_nd_oob_zero "array([b'a', b'', b''], dtype=string)" -- gather_nd 'params=[["a","b"],["c","d"]]' 'indices=[[0,0],[1,2],[-1,1]]' oob=zero
expect gather_nd_oob_zero_rows 'array([[0, 0],
       [3, 4]], dtype=int32)' -- gather_nd 'params=[[1,2],[3,4]]' 'indices=[[2],[1]]' oob=zero
expect gather_nd_oob_clamp "array([b'b', b'c'], dtype=string)" -- gather_nd 'params=[["a","b"],["c","d"]]' 'indices=[[0,5],[9,-3]]' oob=clamp
expect gather_nd_oob_wrap "array([b'b', b'd'], dtype=string)" -- gather_nd 'params=[["a","b"],["c","d"]]' 'indices=[[0,5],[-1,-3]]' oob=wrap
expect one_hot_oob_zero 'array([[1.0, 0.0, 0.0],
       [0.0, 0.0, 0.0],
       [0.0, 0.0, 0.0]], dtype=float32)' -- one_hot 'indices=[0,-1,5]' depth=3 oob=zero
expect one_hot_oob_clamp 'array([[1, 0, 0],
       [1, 0, 0],
       [0, 0, 1]], dtype=int32)' -- one_hot 'indices=[0,-1,5]' depth=3 dtype=int32 oob=clamp
expect one_hot_oob_wrap 'array([[1, 0, 0],
       [0, 0, 1],
       [0, 0, 1]], dtype=int32)' -- one_hot 'indices=[0,-1,5]' depth=3 dtype=int32 oob=wrap
expect stitch_oob_zero 'array([3, 1], dtype=int32)' -- dynamic_stitch 'indices=[1],[-1,0]' 'data=[1],[2,3]' oob=zero
expect stitch_oob_clamp 'array([3, 1], dtype=int32)' -- dynamic_stitch 'indices=[1],[-1,0]' 'data=[1],[2,3]' oob=clamp
expect stitch_oob_wrap 'array([3, 2], dtype=int32)' -- dynamic_stitch 'indices=[1],[-1,0]' 'data=[1],[2,3]' oob=wrap
expect stitch_oob_zero_strings "array([b'z', b'x'], dtype=string)" -- dynamic_stitch 'indices=[1],[-1,0]' 'data=["x"],["y","z"]' oob=zero
expect_fail gather_oob_error_default invalid_argument 'indices[1] = -1 is not in [0, 3)' -- gather 'params=[1,2,3]' 'indices=[0,-1]' oob=error
expect_fail gather_oob_unknown invalid_argument "oob 'nearest' is not one of error, zero, clamp, wrap" -- gather 'params=[1,2,3]' 'indices=[0]' oob=nearest
expect_fail gather_oob_wrap_empty invalid_argument 'oob=wrap needs params.shape[0] > 0, got 0 (no valid index)' -- gather 'params=[]:float32' 'indices=[0]' oob=wrap
expect_fail gather_nd_oob_clamp_empty invalid_argument 'oob=clamp needs the indexed dims of params to be non-empty' -- gather_nd 'params=[]:float32' 'indices=[[0]]' oob=clamp

# An empty params whose dims after the indexed one multiply past int64 (found by fuzz_ops): the
# .npy header alone (no data: zero elements) says shape (1, 144684735107497983, 4572, 0).
npy_header "$TX_TMP/empty_huge.npy" '(1, 144684735107497983, 4572, 0)'
expect_fail gather_nd_empty_huge_dims invalid_argument 'requested 1 entries, but params is empty (shape [1,144684735107497983,4572,0])' -- gather_nd params="$TX_TMP/empty_huge.npy" 'indices=[[0]]'
expect gather_nd_empty_huge_dims_zero 'array([], shape=(1, 144684735107497983, 4572, 0), dtype=float32)' -- gather_nd params="$TX_TMP/empty_huge.npy" 'indices=[[0]]' oob=zero

finish
