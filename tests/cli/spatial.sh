#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for the space/batch/depth family and extract_image_patches: every example of
# TF's Tensor Transformations page with the values TF really computes -- several of the
# page's examples are garbled, see the comments -- plus TF's extract_image_patches test vectors and
# the CLI's handling of data_format / padding strings and errors.
. "$(dirname "$0")/lib.sh"

# expect_compact NAME WANT -- ARGS: like expect, but blanks and newlines are removed from both
# sides first, so the check is on values, shape and dtype, not on column alignment.
expect_compact() {
    local name=$1 want=$2
    shift 3
    local got rc
    got=$("$TX" "$@" 2>"$TX_TMP/err") && rc=0 || rc=$?
    if [ "$rc" -ne 0 ] || [ "$(printf '%s' "$got" | tr -d ' \n')" != "$(printf '%s' "$want" | tr -d ' \n')" ]; then
        TX_FAILED=$((TX_FAILED + 1))
        printf 'FAIL %s (exit %s)\n--- want\n%s\n--- got\n%s\n--- stderr\n%s\n' "$name" "$rc" "$want" "$got" "$(cat "$TX_TMP/err")"
    else
        TX_PASSED=$((TX_PASSED + 1))
    fi
}

Z2='[[0,0],[0,0]]'
X1='[[[[1],[2]],[[3],[4]]]]'
X2='[[[[1,2,3],[4,5,6]],[[7,8,9],[10,11,12]]]]'
X3='[[[[1],[2],[3],[4]],[[5],[6],[7],[8]],[[9],[10],[11],[12]],[[13],[14],[15],[16]]]]'
X4='[[[[1],[2],[3],[4]],[[5],[6],[7],[8]]],[[[9],[10],[11],[12]],[[13],[14],[15],[16]]]]'

# ---- space_to_batch_nd, examples (1)-(4) -------------------------------------------------------
S1="array([[[[1]]],


       [[[2]]],


       [[[3]]],


       [[[4]]]], dtype=int32)"
expect s2bnd_1 "$S1" -- space_to_batch_nd input="$X1" block_shape=[2,2] paddings="$Z2"
S2="array([[[[1,2,3]]],[[[4,5,6]]],[[[7,8,9]]],[[[10,11,12]]]],dtype=int32)"
expect_compact s2bnd_2 "$S2" -- space_to_batch_nd input="$X2" block_shape=[2,2] paddings="$Z2"
# (3): the page shows a first batch of [[1],[3]],[[5],[7]]; TF takes rows dy, dy+2 and columns
# dx, dx+2 for block offset (dy, dx).
S3="array([[[[1],[3]],[[9],[11]]],[[[2],[4]],[[10],[12]]],[[[5],[7]],[[13],[15]]],[[[6],[8]],[[14],[16]]]],dtype=int32)"
expect_compact s2bnd_3 "$S3" -- space_to_batch_nd input="$X3" block_shape=[2,2] paddings="$Z2"
# (4): the page's values are right (its brackets are not).
S4="array([[[[0],[1],[3]]],[[[0],[9],[11]]],[[[0],[2],[4]]],[[[0],[10],[12]]],
           [[[0],[5],[7]]],[[[0],[13],[15]]],[[[0],[6],[8]]],[[[0],[14],[16]]]],dtype=int32)"
expect_compact s2bnd_4 "$S4" -- space_to_batch_nd input="$X4" block_shape=[2,2] paddings='[[0,0],[2,0]]'
expect_compact s2bnd_4_int64 "$S4" -- space_to_batch_nd input="$X4" block_shape='[2,2]:int64' paddings='[[0,0],[2,0]]:int64'

# ---- space_to_batch (legacy), examples (1)-(4) ---------------------------------------------------
expect s2b_1 "$S1" -- space_to_batch input="$X1" paddings="$Z2" block_size=2
expect_compact s2b_2 "$S2" -- space_to_batch input="$X2" paddings="$Z2" block_size=2
expect_compact s2b_3 "$S3" -- space_to_batch input="$X3" paddings="$Z2" block_size=2
S4L="array([[[[1],[3]]],[[[9],[11]]],[[[2],[4]]],[[[10],[12]]],[[[5],[7]]],[[[13],[15]]],[[[6],[8]]],[[[14],[16]]]],dtype=int32)"
expect_compact s2b_4 "$S4L" -- space_to_batch input="$X4" paddings="$Z2" block_size=2

# ---- batch_to_space_nd, examples (1)-(4) ---------------------------------------------------------
B1='[[[[1]]],[[[2]]],[[[3]]],[[[4]]]]'
O1="array([[[[1],
         [2]],

        [[3],
         [4]]]], dtype=int32)"
expect b2snd_1 "$O1" -- batch_to_space_nd input="$B1" block_shape=[2,2] crops="$Z2"
B2='[[[[1,2,3]]],[[[4,5,6]]],[[[7,8,9]]],[[[10,11,12]]]]'
O2="array([[[[1,2,3],[4,5,6]],[[7,8,9],[10,11,12]]]],dtype=int32)"
expect_compact b2snd_2 "$O2" -- batch_to_space_nd input="$B2" block_shape=[2,2] crops="$Z2"
# (3): the page's input is space_to_batch's garbled output; TF's real space_to_batch output gives
# 1..16 back.  With the page's literal input TF's row 2 is 5, 10, 7, 12.
O16="array([[[[1],[2],[3],[4]],[[5],[6],[7],[8]],[[9],[10],[11],[12]],[[13],[14],[15],[16]]]],dtype=int32)"
expect_compact b2snd_3 "$O16" -- batch_to_space_nd input='[[[[1],[3]],[[9],[11]]],[[[2],[4]],[[10],[12]]],[[[5],[7]],[[13],[15]]],[[[6],[8]],[[14],[16]]]]' block_shape=[2,2] crops="$Z2"
expect_compact b2snd_3_page_input "array([[[[1],[2],[3],[4]],[[5],[6],[7],[8]],[[5],[10],[7],[12]],[[13],[14],[15],[16]]]],dtype=int32)" -- batch_to_space_nd input='[[[[1],[3]],[[5],[7]]],[[[2],[4]],[[10],[12]]],[[[5],[7]],[[13],[15]]],[[[6],[8]],[[14],[16]]]]' block_shape=[2,2] crops="$Z2"
# (4) with crops [[0, 0], [2, 0]]
O4="array([[[[1],[2],[3],[4]],[[5],[6],[7],[8]]],[[[9],[10],[11],[12]],[[13],[14],[15],[16]]]],dtype=int32)"
expect_compact b2snd_4 "$O4" -- batch_to_space_nd input='[[[[0],[1],[3]]],[[[0],[9],[11]]],[[[0],[2],[4]]],[[[0],[10],[12]]],[[[0],[5],[7]]],[[[0],[13],[15]]],[[[0],[6],[8]]],[[[0],[14],[16]]]]' block_shape=[2,2] crops='[[0,0],[2,0]]'

# ---- batch_to_space (legacy), examples (1)-(4) ---------------------------------------------------
expect b2s_1 "$O1" -- batch_to_space input="$B1" crops="$Z2" block_size=2
expect_compact b2s_2 "$O2" -- batch_to_space input="$B2" crops="$Z2" block_size=2
expect_compact b2s_3 "$O16" -- batch_to_space input='[[[[1],[3]],[[9],[11]]],[[[2],[4]],[[10],[12]]],[[[5],[7]],[[13],[15]]],[[[6],[8]],[[14],[16]]]]' crops="$Z2" block_size=2
# (4): the page prints an unrelated tensor as the output; TF inverts space_to_batch example (4).
expect_compact b2s_4 "$O4" -- batch_to_space input='[[[[1],[3]]],[[[9],[11]]],[[[2],[4]]],[[[10],[12]]],[[[5],[7]]],[[[13],[15]]],[[[6],[8]]],[[[14],[16]]]]' crops="$Z2" block_size=2

# ---- required_space_to_batch_paddings ----------------------------------------------------------
expect req_paddings "array([[1, 0],
       [0, 2]], dtype=int32)
array([[0, 0],
       [0, 2]], dtype=int32)" -- required_space_to_batch_paddings input_shape=[5,4] block_shape=[2,3] base_paddings='[[1,0],[0,0]]'
expect req_paddings_nobase "array([[0, 1],
       [0, 2]], dtype=int32)
array([[0, 1],
       [0, 2]], dtype=int32)" -- required_space_to_batch_paddings input_shape=[5,4] block_shape=[2,3]

# ---- space_to_depth / depth_to_space -----------------------------------------------------------
# (the page prints the first result with five brackets; it is [1, 1, 1, 4])
expect s2d_1 "array([[[[1, 2, 3, 4]]]], dtype=int32)" -- space_to_depth input="$X1" block_size=2
expect_compact s2d_2 "array([[[[1,2,3,4,5,6,7,8,9,10,11,12]]]],dtype=int32)" -- space_to_depth input="$X2" block_size=2
D3='[[[[1],[2],[5],[6]],[[3],[4],[7],[8]],[[9],[10],[13],[14]],[[11],[12],[15],[16]]]]'
expect_compact s2d_3 "array([[[[1,2,3,4],[5,6,7,8]],[[9,10,11,12],[13,14,15,16]]]],dtype=int32)" -- space_to_depth input="$D3" block_size=2
expect d2s_1 "$O1" -- depth_to_space input='[[[[1,2,3,4]]]]' block_size=2
expect_compact d2s_2 "array([[[[1,2,3],[4,5,6]],[[7,8,9],[10,11,12]]]],dtype=int32)" -- depth_to_space input='[[[[1,2,3,4,5,6,7,8,9,10,11,12]]]]' block_size=2
expect_compact d2s_3 "array($D3,dtype=int32)" -- depth_to_space input='[[[[1,2,3,4],[5,6,7,8]],[[9,10,11,12],[13,14,15,16]]]]' block_size=2
# NCHW: [1, 4, 1, 1] -> [1, 1, 2, 2]
expect d2s_nchw "array([[[[1, 2],
         [3, 4]]]], dtype=int32)" -- depth_to_space input='[[[[1]],[[2]],[[3]],[[4]]]]' block_size=2 data_format=NCHW
expect s2d_nchw "array([[[[1]],

        [[2]],

        [[3]],

        [[4]]]], dtype=int32)" -- space_to_depth input='[[[[1,2],[3,4]]]]' block_size=2 data_format=NCHW
expect s2d_strings "array([[[[b'a', b'bb', b'c', b'dd']]]], dtype=string)" -- space_to_depth input='[[[["a"],["bb"]],[["c"],["dd"]]]]' block_size=2

# ---- extract_image_patches (TF's test vectors) -------------------------------------------------
expect patches_valid "array([[[[1, 2, 3, 4]]]], dtype=int32)" -- extract_image_patches images="$X1" ksizes=[1,2,2,1] strides=[1,1,1,1] rates=[1,1,1,1] padding=VALID
expect patches_same "array([[[[1, 2, 3, 4],
         [2, 0, 4, 0]],

        [[3, 4, 0, 0],
         [4, 0, 0, 0]]]], dtype=int32)" -- extract_image_patches images="$X1" ksizes=[1,2,2,1] strides=[1,1,1,1] rates=[1,1,1,1] padding=SAME
expect_compact patches_rate2 "array([[[[0.0,2.0,8.0,10.0],[1.0,3.0,9.0,11.0]],[[4.0,6.0,12.0,14.0],[5.0,7.0,13.0,15.0]]]],dtype=float32)" -- extract_image_patches images='[[[[0.0],[1],[2],[3]],[[4],[5],[6],[7]],[[8],[9],[10],[11]],[[12],[13],[14],[15]]]]' ksizes=[1,2,2,1] strides=[1,1,1,1] rates=[1,2,2,1] padding=VALID

# ---- errors --------------------------------------------------------------------------------------
expect_fail s2bnd_not_divisible invalid_argument "is not divisible by block_shape[0] = 3" -- space_to_batch_nd input="$X3" block_shape=[3,2] paddings="$Z2"
expect_fail s2bnd_negative_pad invalid_argument "paddings[0] = [-1, 1] must be non-negative" -- space_to_batch_nd input="$X3" block_shape=[2,2] paddings='[[-1,1],[0,0]]'
expect_fail s2bnd_block0 invalid_argument "block_shape[0] = 0 must be >= 1" -- space_to_batch_nd input="$X3" block_shape=[0,2] paddings="$Z2"
expect_fail s2bnd_pad_shape invalid_argument "paddings must have shape [2, 2], got [1,2]" -- space_to_batch_nd input="$X3" block_shape=[2,2] paddings='[[0,0]]'
expect_fail b2snd_batch invalid_argument "input batch 1 is not divisible by the product of block_shape 4" -- batch_to_space_nd input="$X3" block_shape=[2,2] crops="$Z2"
expect_fail b2snd_crops invalid_argument "crops[0] = [2, 1] are larger than spatial dim 0" -- batch_to_space_nd input="$B1" block_shape=[2,2] crops='[[2,1],[0,0]]'
expect_fail s2b_block1 invalid_argument "block_size must be > 1, got 1" -- space_to_batch input="$X1" paddings="$Z2" block_size=1
expect_fail b2s_rank invalid_argument "input must be 4-D, got rank 3" -- batch_to_space input='[[[1]]]' crops="$Z2" block_size=2
expect_fail req_block0 invalid_argument "block_shape entry 0 = 0" -- required_space_to_batch_paddings input_shape=[4] block_shape=[0]
expect_fail s2d_divisible invalid_argument "height 2 and width 2 must be divisible by block_size 3" -- space_to_depth input="$X1" block_size=3
expect_fail d2s_divisible invalid_argument "depth 3 must be divisible by block_size * block_size = 2 * 2" -- depth_to_space input="$X2" block_size=2
expect_fail s2d_format invalid_argument "data_format 'NCWH' is not NHWC, NCHW or NCHW_VECT_C" -- space_to_depth input="$X1" block_size=2 data_format=NCWH
expect_fail d2s_vect_c unimplemented "NCHW_VECT_C is not supported" -- depth_to_space input="$X1" block_size=2 data_format=NCHW_VECT_C
expect_fail patches_padding invalid_argument "padding 'FULL' is not SAME or VALID" -- extract_image_patches images="$X1" ksizes=[1,2,2,1] strides=[1,1,1,1] rates=[1,1,1,1] padding=FULL
expect_fail patches_batch_ksize unimplemented "only [1, rows, cols, 1] is supported" -- extract_image_patches images="$X1" ksizes=[2,2,2,1] strides=[1,1,1,1] rates=[1,1,1,1] padding=VALID
expect_fail patches_stride0 out_of_range "strides = [1, 0, 1, 1] is out of range" -- extract_image_patches images="$X1" ksizes=[1,2,2,1] strides=[1,0,1,1] rates=[1,1,1,1] padding=VALID
expect_fail patches_negative invalid_argument "computed output size would be negative" -- extract_image_patches images="$X1" ksizes=[1,4,1,1] strides=[1,1,1,1] rates=[1,1,1,1] padding=VALID

# ONNX preset: depth_to_space mode=CRD, out[y*bs+dy, x*bs+dx, k] = in[y, x, k*bs*bs + dy*bs + dx].
expect_compact d2s_crd "array([[[[1,5],[2,6]],[[3,7],[4,8]]]],dtype=int32)" -- depth_to_space input='[[[[1,2,3,4,5,6,7,8]]]]' block_size=2 mode=CRD
expect_compact d2s_dcr "array([[[[1,2],[3,4]],[[5,6],[7,8]]]],dtype=int32)" -- depth_to_space input='[[[[1,2,3,4,5,6,7,8]]]]' block_size=2 mode=DCR
expect_compact d2s_crd_nchw "array([[[[1,2],[3,4]],[[5,6],[7,8]]]],dtype=int32)" -- depth_to_space input='[[[[1]],[[2]],[[3]],[[4]],[[5]],[[6]],[[7]],[[8]]]]' block_size=2 data_format=NCHW mode=CRD
expect_fail d2s_mode invalid_argument "mode 'XYZ' is not DCR or CRD" -- depth_to_space input='[[[[1,2,3,4]]]]' block_size=2 mode=XYZ

# ---- batch_to_space crops policies (oob=; the expanded dim below is 1 4 2 5 3 6) ----
expect b2s_oob_wrap "array([[3, 6, 1]], dtype=int32)" -- batch_to_space_nd input='[[1,2,3],[4,5,6]]' block_shape=[2] crops='[[-2,5]]' oob=wrap
expect b2s_oob_zero "array([[3, 6, 0, 0, 0]], dtype=int32)" -- batch_to_space_nd input='[[1,2,3],[4,5,6]]' block_shape=[2] crops='[[4,-3]]' oob=zero
expect b2s_oob_clamp "array([[3, 6, 6, 6, 6]], dtype=int32)" -- batch_to_space_nd input='[[1,2,3],[4,5,6]]' block_shape=[2] crops='[[4,-3]]' oob=CLAMP
expect b2s_oob_beyond "array([], shape=(1, 0), dtype=int32)" -- batch_to_space_nd input='[[1,2,3],[4,5,6]]' block_shape=[2] crops='[[5,4]]' oob=zero
expect_compact b2s_oob_legacy "array([[[[2]],[[4]],[[4]]]],dtype=int32)" -- batch_to_space input='[[[[1]]],[[[2]]],[[[3]]],[[[4]]]]' crops='[[0,-1],[1,0]]' block_size=2 oob=clamp
expect_fail b2s_oob_error invalid_argument "crops[0] = [4, -3] must be non-negative" -- batch_to_space_nd input='[[1,2,3],[4,5,6]]' block_shape=[2] crops='[[4,-3]]'
expect_fail b2s_oob_bad invalid_argument "oob 'edge' is not one of error, zero, clamp, wrap" -- batch_to_space_nd input='[[1,2,3],[4,5,6]]' block_shape=[2] crops='[[0,0]]' oob=edge
expect_fail b2s_oob_empty invalid_argument "oob=wrap has nothing to take" -- batch_to_space_nd input='[[],[]]' block_shape=[2] crops='[[-1,-1]]' oob=wrap
finish
