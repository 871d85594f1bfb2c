#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for size before run: `tensorx OP ... --plan[=json]` prints each output's dtype,
# shape and bytes (or the op's own error) without running the op.
. "$(dirname "$0")/lib.sh"

expect tile "output 0: int32 [4, 6], 24 elements, 96 bytes
new bytes: 96" -- tile input='[[1,2,3],[4,5,6]]' multiples=2,2 --plan
expect tile_json '{"op": "tile", "outputs": [{"dtype": "int32", "shape": [4, 6], "numel": 24, "nbytes": 96, "string_bytes": 0, "view": false, "upper_bound": false, "data_dependent": false}], "new_bytes": 96}' -- tile input='[[1,2,3],[4,5,6]]' multiples=2,2 --plan=json
expect_fail tile_overflow resource_exhausted "tile: 4611686018427387904 elements of float32 overflow size_t" -- tile input=[1.0] multiples=[4611686018427387904] --plan
expect_fail one_hot_depth invalid_argument "one_hot: depth 4611686018427387904 does not fit int32" -- one_hot indices=[0,1] depth=4611686018427387904 --plan
expect_fail sequence_mask_huge resource_exhausted "sequence_mask:" -- sequence_mask lengths=[1,2] maxlen=4611686018427387904:int64 dtype=float64 --plan
expect_fail pad_bad invalid_argument "pad:" -- pad tensor=[1,2] paddings=[[3,0]] mode=REFLECT --plan
expect reshape_view "output 0: int32 [2, 2], 4 elements, 16 bytes, view
new bytes: 0" -- reshape tensor=[1,2,3,4] shape=2,2 --plan
expect split_uneven "output 0: int32 [2], 2 elements, 8 bytes
output 1: int32 [2], 2 elements, 8 bytes
output 2: int32 [1], 1 elements, 4 bytes
new bytes: 20" -- split value=[1,2,3,4,5] split_dim=0 num_split=3 uneven=true --plan
expect unique_bound "output 0: float32 [4], at most 4 elements, 16 bytes, data-dependent
output 1: int32 [4], 4 elements, 16 bytes
output 2: int32 [4], at most 4 elements, 16 bytes, data-dependent
new bytes: 48" -- unique_with_counts x=[1.0,2.0,1.0,3.0] --plan
expect boolean_mask "output 0: float32 [2], 2 elements, 8 bytes, data-dependent
new bytes: 8" -- boolean_mask tensor=[1.0,2.0,3.0] mask=[true,false,true] --plan
expect string_pack "output 0: string [2], 2 elements, 32 bytes + 5 string bytes, data-dependent
new bytes: 37" -- string_tensor_pack begins=0,2 ends=2,5 symbols='"hello"' --plan
# The plan of a call with many outputs: the CLI asks again with room for all of them.
expect split_many "$(for i in $(seq 0 99); do echo "output $i: int8 [1], 1 elements, 1 bytes"; done; echo 'new bytes: 100')" -- split value="[$(seq -s, 1 100)]:int8" split_dim=0 num_split=100 --plan
finish
