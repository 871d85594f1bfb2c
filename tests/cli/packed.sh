#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for pack_subbyte / unpack_subbyte, the packed form of the sub-byte dtypes: element
# i in bits [i * bits, (i + 1) * bits) of the little-endian bit string, the last byte's unused bits
# 0.  Every sub-byte dtype, odd counts and shapes, round trips through files, plans, errors; and
# cast_pack, which must give pack_subbyte's bytes of cast.
. "$(dirname "$0")/lib.sh"

# int4 -8, -1, 7 are the codes 0x8, 0xf, 0x7: 0xf8 = 248, then 0x07 with a zero pad nibble.
expect ps_int4 "array([248, 7], dtype=uint8)" -- pack_subbyte x='[-8,-1,7]:int4'
expect ps_uint4_2d "array([33, 67, 101], dtype=uint8)" -- pack_subbyte x='[[1,2,3],[4,5,6]]:uint4'
# uint2 1, 2, 3, 0 | 1: 0b00111001 = 57, then 1.
expect ps_uint2 "array([57, 1], dtype=uint8)" -- pack_subbyte x='[1,2,3,0,1]:uint2'
# int2 -2, -1, 0, 1 | -2 are the codes 2, 3, 0, 1 | 2: 0b01001110 = 78, then 2.
expect ps_int2 "array([78, 2], dtype=uint8)" -- pack_subbyte x='[-2,-1,0,1,-2]:int2'
# float4_e2m1fn 1.0, 6.0 | -0.5 are the codes 0x2, 0x7 | 0x9.
expect ps_f4 "array([114, 9], dtype=uint8)" -- pack_subbyte x='[1,6,-0.5]:float4_e2m1fn'
# float6_e2m3fn 1.0, -0.5, 7.5 are 8, 36, 31: 8 | 36 << 6 | 31 << 12 = 0x1f908 in 18 bits.
expect ps_f6_e2m3 "array([8, 249, 1], dtype=uint8)" -- pack_subbyte x='[1,-0.5,7.5]:float6_e2m3fn'
# float6_e3m2fn 1.0, 28.0, -0.0625 are 12, 31, 33: 0x217cc.
expect ps_f6_e3m2 "array([204, 23, 2], dtype=uint8)" -- pack_subbyte x='[1,28,-0.0625]:float6_e3m2fn'
expect ps_scalar "array([3], dtype=uint8)" -- pack_subbyte x='3:uint2'
expect ps_empty "array([], dtype=uint8)" -- pack_subbyte x='[]:int4'

expect us_int4 "array([-8, -1, 7], dtype=int4)" -- unpack_subbyte packed='[248,7]:uint8' dtype=int4 shape=[3]
expect us_uint4_2d "array([[1, 2, 3],
       [4, 5, 6]], dtype=uint4)" -- unpack_subbyte packed='[33,67,101]:uint8' dtype=uint4 shape=[2,3]
expect us_uint2 "array([1, 2, 3, 0, 1], dtype=uint2)" -- unpack_subbyte packed='[57,1]:uint8' dtype=uint2 shape=[5]
expect us_int2 "array([-2, -1, 0, 1, -2], dtype=int2)" -- unpack_subbyte packed='[78,2]:uint8' dtype=int2 shape=[5]
expect us_f4 "array([1.0, 6.0, -0.5], dtype=float4_e2m1fn)" -- unpack_subbyte packed='[114,9]:uint8' dtype=float4_e2m1fn shape=[3]
expect us_f6 "array([1.0, -0.5, 7.5], dtype=float6_e2m3fn)" -- unpack_subbyte packed='[8,249,1]:uint8' dtype=float6_e2m3fn shape=[3]
expect us_scalar "array(3, dtype=uint2)" -- unpack_subbyte packed='[3]:uint8' dtype=uint2 shape=[]
expect us_empty "array([], shape=(0, 3), dtype=int4)" -- unpack_subbyte packed='[]' dtype=int4 shape=[0,3]
# packed given as a string's bytes: "\x21\x03" is uint4 1, 2, 3.
expect us_string "array([1, 2, 3], dtype=uint4)" -- unpack_subbyte packed='"\x21\x03"' dtype=uint4 shape=[3]

# Round trip through files, 3x35 = 105 elements (odd) of each dtype.
for dt in int4 uint4 int2 uint2 float4_e2m1fn float6_e2m3fn float6_e3m2fn; do
    "$TX" cast x="[[$(seq -s, 0 34)],[$(seq -s, 35 69)],[$(seq -s, 70 104)]]:int32" dtype="$dt" -o "$TX_TMP/x_$dt.npy"
    "$TX" pack_subbyte x="$TX_TMP/x_$dt.npy" -o "$TX_TMP/p_$dt.npy"
    "$TX" unpack_subbyte packed="$TX_TMP/p_$dt.npy" dtype="$dt" shape=[3,35] -o "$TX_TMP/y_$dt.npy"
    check "file_rt_$dt" cmp "$TX_TMP/x_$dt.npy" "$TX_TMP/y_$dt.npy"
done

# cast_pack: float32 0.25, -3.5, 7 | 1, -0.5 are the float4 codes 0x0 (a tie to even), 0xe (-4),
# 0x7 (6, saturated) | 0x2, 0x9; int32 1, -2, 9, 300, -129 are int4 1, -2, -7, -4, -1.
expect cp_f4 "array([224, 39, 9], dtype=uint8)" -- cast_pack x='[0.25,-3.5,7,1,-0.5]' dtype=float4_e2m1fn
expect cp_int4 "array([225, 201, 15], dtype=uint8)" -- cast_pack x='[1,-2,9,300,-129]:int32' dtype=int4
expect cp_empty "array([], dtype=uint8)" -- cast_pack x='[]' dtype=uint2
# Every sub-byte dtype, from the 3x35 int32 tensor and from float64 specials: pack_subbyte's bytes.
for dt in int4 uint4 int2 uint2 float4_e2m1fn float6_e2m3fn float6_e3m2fn; do
    "$TX" cast_pack x="[[$(seq -s, 0 34)],[$(seq -s, 35 69)],[$(seq -s, 70 104)]]:int32" dtype="$dt" -o "$TX_TMP/cp_$dt.npy"
    check "cast_pack_$dt" cmp "$TX_TMP/p_$dt.npy" "$TX_TMP/cp_$dt.npy"
    specials="[nan,-nan,inf,-inf,0,-0.0,1e30,-1e30,1e-30,6.5,-7,0.25,0.75,2.5,-300]:float64"
    "$TX" cast x="$specials" dtype="$dt" -o "$TX_TMP/s_$dt.npy"
    "$TX" pack_subbyte x="$TX_TMP/s_$dt.npy" -o "$TX_TMP/sp_$dt.npy"
    "$TX" cast_pack x="$specials" dtype="$dt" -o "$TX_TMP/scp_$dt.npy"
    check "cast_pack_specials_$dt" cmp "$TX_TMP/sp_$dt.npy" "$TX_TMP/scp_$dt.npy"
done

expect plan_pack "output 0: uint8 [79], 79 elements, 79 bytes
new bytes: 79" -- pack_subbyte x="$TX_TMP/x_float6_e3m2fn.npy" --plan
expect plan_unpack "output 0: int2 [4, 7], 28 elements, 28 bytes
new bytes: 28" -- unpack_subbyte packed='[0,0,0,0,0,0,0]:uint8' dtype=int2 shape=[4,7] --plan

expect_fail us_nbytes invalid_argument "unpack_subbyte: nbytes is 2, 7 uint4 elements packed at 4 bits need 4 (ceil(7 * 4 / 8))" -- \
    unpack_subbyte packed='[1,2]:uint8' dtype=uint4 shape=[7]
expect_fail us_pad invalid_argument "the bits above bit 1 of the last byte (byte 1, 0x05) pad 5 elements of 2 bits and must be 0" -- \
    unpack_subbyte packed='[57,5]:uint8' dtype=uint2 shape=[5]
expect_fail us_pad_f6 invalid_argument "the bits above bit 1 of the last byte (byte 2, 0x05)" -- \
    unpack_subbyte packed='[8,249,5]:uint8' dtype=float6_e2m3fn shape=[3]
expect_fail us_dtype invalid_argument "unpack_subbyte: dtype must be a sub-byte dtype (value bits 2, 4 or 6), got int8 (8 bits)" -- \
    unpack_subbyte packed='[1]:uint8' dtype=int8 shape=[1]
expect_fail us_packed invalid_argument "unpack_subbyte: packed must be a 1-D uint8 tensor, got int32 of rank 1" -- \
    unpack_subbyte packed='[1,2]:int32' dtype=int4 shape=[4]
expect_fail us_huge resource_exhausted "unpack_subbyte:" -- \
    unpack_subbyte packed='[1]:uint8' dtype=int4 shape=[1099511627776,1099511627776]
expect_fail us_huge_plan resource_exhausted "unpack_subbyte:" -- \
    unpack_subbyte packed='[1]:uint8' dtype=int4 shape=[1099511627776,1099511627776] --plan
expect_fail ps_dtype invalid_argument "pack_subbyte: x must be a sub-byte dtype (value bits 2, 4 or 6), got float8_e4m3fn (8 bits)" -- \
    pack_subbyte x='[1]:float8_e4m3fn'
expect_fail ps_missing usage "x" -- pack_subbyte
expect plan_cast_pack "output 0: uint8 [53], 53 elements, 53 bytes
new bytes: 53" -- cast_pack x="$TX_TMP/x_int4.npy" dtype=float4_e2m1fn --plan
expect_fail cp_dtype invalid_argument "cast_pack: dtype must be a sub-byte dtype (value bits 2, 4 or 6), got float32 (32 bits)" -- \
    cast_pack x='[1]' dtype=float32
expect_fail cp_string unimplemented "cast_pack: Cast string to int4 is not supported" -- \
    cast_pack x='["1"]' dtype=int4
expect_fail cp_missing usage "dtype" -- cast_pack x='[1]'
finish
