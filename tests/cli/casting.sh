#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for the casting family: every example of the documentation pages of
# tf.io.decode_raw, tf.bitcast (in English and in Hindi), OpenVINO's StringTensorPack and the
# Casting section of TF's Tensor Transformations page, with TF's results, plus errors.
. "$(dirname "$0")/lib.sh"

# ---- tf.io.decode_raw ----
expect dr_1 "array([49], dtype=uint8)" -- decode_raw input_bytes='"1"' out_type=uint8
expect dr_1_2 "array([49, 44, 50], dtype=uint8)" -- decode_raw input_bytes='"1,2"' out_type=uint8
expect dr_rank2 "array([[49],
       [50]], dtype=uint8)" -- decode_raw input_bytes='["1","2"]' out_type=uint8
expect dr_rank3 "array([[[49]],

       [[50]]], dtype=uint8)" -- decode_raw input_bytes='[["1"],["2"]]' out_type=uint8
expect dr_123 "array([49, 50, 51], dtype=uint8)" -- decode_raw input_bytes='"123"' out_type=uint8
expect dr_1234 "array([49, 50, 51, 52], dtype=uint8)" -- decode_raw input_bytes='"1234"' out_type=uint8
expect dr_u16_12 "array([12849], dtype=uint16)" -- decode_raw input_bytes='"12"' out_type=uint16
expect dr_u16_1234 "array([12849, 13363], dtype=uint16)" -- decode_raw input_bytes='"1234"' out_type=uint16
expect dr_i64 "array([4050765991979987505], dtype=int64)" -- decode_raw input_bytes='"12345678"' out_type=int64
expect dr_i64_2 "array([4050765991979987505, 3544952156018063160], dtype=int64)" -- \
    decode_raw input_bytes='"1234567887654321"' out_type=int64
expect dr_le "array([2826], dtype=int16)" -- decode_raw input_bytes='"\x0a\x0b"' out_type=int16
expect dr_be "array([2571], dtype=int16)" -- decode_raw input_bytes='"\x0a\x0b"' out_type=int16 little_endian=false
expect dr_fixed_pad "array([[[49, 0, 0, 0]],

       [[50, 51, 0, 0]]], dtype=uint8)" -- decode_raw input_bytes='[["1"],["23"]]' out_type=uint8 fixed_length=4
expect dr_fixed_multi "array([[12849, 12849]], dtype=uint16)" -- decode_raw input_bytes='["1212"]' out_type=uint16 fixed_length=4
expect dr_fixed_trunc "array([513], dtype=uint16)" -- \
    decode_raw input_bytes='"\x01\x02\x03\x04"' out_type=uint16 fixed_length=2
expect dr_fixed_trunc_be "array([258], dtype=uint16)" -- \
    decode_raw input_bytes='"\x01\x02\x03\x04"' out_type=uint16 fixed_length=2 little_endian=false
X16="array([[12849, 13363, 13877, 14391],
       [14136, 13622, 13108, 12594]], dtype=int16)"
expect dr_same_len "$X16" -- decode_raw input_bytes='["12345678","87654321"]' out_type=int16
expect dr_same_len_fixed "$X16" -- decode_raw input_bytes='["12345678","87654321"]' out_type=int16 fixed_length=8
# raw bytes from a file, big-endian float32, complex parts swapped separately, zero-padding
printf '\x3f\x80\x00\x00\xc0\x00\x00\x00' >"$TX_TMP/be.bin"
expect dr_file_be "array([1.0, -2.0], dtype=float32)" -- decode_raw input_bytes=@"$TX_TMP/be.bin" out_type=float32 little_endian=false
expect dr_c64_be "array([(1-2j)], dtype=complex64)" -- decode_raw input_bytes=@"$TX_TMP/be.bin" out_type=complex64 little_endian=false
expect dr_pad_be "array([[258, 768, 0]], dtype=uint16)" -- \
    decode_raw input_bytes='["\x01\x02\x03"]' out_type=uint16 fixed_length=6 little_endian=false
expect dr_empty "array([], shape=(2, 0), dtype=float32)" -- decode_raw input_bytes='["",""]' out_type=float32
expect_fail dr_sizes invalid_argument "requires input strings to all be the same size, but element 1 has size 2 != 1" -- \
    decode_raw input_bytes='["1","23"]' out_type=uint8
expect_fail dr_multiple invalid_argument "Input to DecodeRaw has length 3 that is not a multiple of 2" -- \
    decode_raw input_bytes='"123"' out_type=uint16
expect_fail dr_fixed_multiple invalid_argument "fixed_length (3) must be a multiple of the size of out_type (2)" -- \
    decode_raw input_bytes='"1234"' out_type=uint16 fixed_length=3
expect_fail dr_fixed_zero invalid_argument "fixed_length (0) must be greater than zero" -- \
    decode_raw input_bytes='"1234"' out_type=uint16 fixed_length=0
expect_fail dr_type unimplemented "out_type qint32 is not supported" -- decode_raw input_bytes='"1234"' out_type=qint32
expect dr_uint32 "array([67305985], dtype=uint32)" -- decode_raw input_bytes='"\x01\x02\x03\x04"' out_type=uint32
expect dr_uint64_be "array([72623859790382856], dtype=uint64)" -- \
    decode_raw input_bytes='"\x01\x02\x03\x04\x05\x06\x07\x08"' out_type=uint64 little_endian=false

# ---- encode_raw (tensorx extension, decode_raw's inverse) ----
expect er_int16 "array([b'\x01\x00\x02\x00', b'\x03\x00\x04\x00'], dtype=string)" -- encode_raw x='[[1,2],[3,4]]:int16'
expect er_be "array(b'\x00\x01\x00\x02', dtype=string)" -- encode_raw x='[1,2]:int16' little_endian=false
expect er_to_npy "" -- encode_raw x='[[1.5,-2,3.25]]' -o "$TX_TMP/er.npy"
expect er_round_trip "array([[1.5, -2.0, 3.25]], dtype=float32)" -- decode_raw input_bytes="$TX_TMP/er.npy" out_type=float32
expect_fail er_string invalid_argument "x must be a numeric or bool tensor, got string" -- encode_raw x='["ab"]'
expect_fail er_scalar invalid_argument "x must have rank >= 1" -- encode_raw x=5
expect_fail dr_not_string invalid_argument "input_bytes must be a string tensor" -- decode_raw input_bytes=[1,2] out_type=uint8

# ---- tf.bitcast ----
expect_fail bc_complex invalid_argument "Cannot bitcast from float32 to complex128: shape [3]" -- \
    bitcast input='[1.,2.,3.]' type=complex128
expect cast_complex "array([(1+0j), (2+0j), (3+0j)], dtype=complex128)" -- cast x='[1.,2.,3.]' dtype=complex128
expect bc_uint32 "array([255, 255, 255, 255], dtype=uint8)" -- bitcast input=4294967295:uint32 type=uint8
expect eq_cast "array([0.0, 1.0, 1.0], dtype=float32)" -- cast x='[false,true,true]' dtype=float32
# bitcast reinterprets the host's bytes: TF's own example is little-endian; on a big-endian host
# each float's bytes and each int32's come the other way round.
if [ "$TX_BYTE_ORDER" = little ]; then
    expect bc_equality "array([[0, 0, 0, 0],
       [0, 0, 128, 63],
       [0, 0, 128, 63]], dtype=uint8)" -- bitcast input='[0.,1.,1.]' type=uint8
    expect bc_larger "array([67305985, 134678021], dtype=int32)" -- bitcast input='[[1,2,3,4],[5,6,7,8]]:int8' type=int32
else
    expect bc_equality "array([[0, 0, 0, 0],
       [63, 128, 0, 0],
       [63, 128, 0, 0]], dtype=uint8)" -- bitcast input='[0.,1.,1.]' type=uint8
    expect bc_larger "array([16909060, 84281096], dtype=int32)" -- bitcast input='[[1,2,3,4],[5,6,7,8]]:int8' type=int32
fi
expect bc_same "array([1065353216], dtype=int32)" -- bitcast input=[1.0] type=int32
expect_fail bc_last_dim invalid_argument "Cannot bitcast from int8 to int32: shape [1,1]" -- bitcast input='[[1]]:int8' type=int32
expect_fail bc_bool unimplemented "input dtype bool cannot be bitcast" -- bitcast input=[true] type=uint8

# ---- Casting ----
expect cast_page_example "array([1, 2], dtype=int32)" -- cast x=[1.8,2.2] dtype=int32
expect cast_tf_int "array([1, -1, -2147483648, -2147483648, -2147483648], dtype=int32)" -- \
    cast x='[1.9,-1.9,nan,inf,3e9]' dtype=int32
expect cast_int8_wrap "array([44, 127, 0, -1], dtype=int8)" -- cast x='[300.0,-129.0,nan,255.5]' dtype=int8
expect cast_uint8_neg "array([255, 254], dtype=uint8)" -- cast x='[-1.0,-2.5]' dtype=uint8
expect cast_f16 "array([65500.0, inf, 1.0, nan], dtype=float16)" -- cast x='[65504,65520,1.0004,nan]' dtype=float16
expect cast_bool "array([False, True, True], dtype=bool)" -- cast x='[0.0,nan,-2]' dtype=bool
expect_fail cast_string unimplemented "Cast string to float32 is not supported" -- cast x='["1.5"]' dtype=float32
expect to_double "array([1.5, 2.0], dtype=float64)" -- to_double x='[1.5,2]:float32'
expect to_float "array(3.14, dtype=float32)" -- to_float x=3.14:float64
expect to_bfloat16 "array([3.14, 1.0], dtype=bfloat16)" -- to_bfloat16 x='[3.14,1]'
expect to_int32 "array([3, -3], dtype=int32)" -- to_int32 x='[3.9,-3.9]:float64'
expect to_int64 "array([1, 2], dtype=int64)" -- to_int64 x='[1,2]:int32'
expect sat_int32 "array([-2147483648, 300, 2147483520], dtype=int32)" -- saturate_cast value='[-1e10,300,3e9]' dtype=int32
expect sat_uint8 "array([0, 200, 255], dtype=uint8)" -- saturate_cast value='[-5,200.5,1e9]' dtype=uint8
expect sat_f32 "array([3.4028235e+38, -3.4028235e+38, 1.0], dtype=float32)" -- \
    saturate_cast value='[inf,-1e300,1]:float64' dtype=float32
expect_fail sat_bool unimplemented "dtype bool has no min/max" -- saturate_cast value=[1.0] dtype=bool
# TF 2.21 decides: a real input is clamped even into a wider type (its forward-compatibility date
# has passed), so float16 +-inf becomes +-65504 in float32 and float32 inf FLT_MAX in float32.
expect sat_f16_wider "array([65504.0, -65504.0, 1.0], dtype=float32)" -- \
    saturate_cast value='[inf,-inf,1]:float16' dtype=float32
expect sat_same "array([3.4028235e+38, nan], dtype=float32)" -- saturate_cast value='[inf,nan]' dtype=float32
# string_to_number: "int32 overflow results in an error while float overflow results in a rounded value"
expect s2n_float "array([0.0, 3.0, -1.0, 1.12, 15.0, -10.5, 3.40282e+38, inf, -inf, nan, inf], dtype=float32)" -- \
    string_to_number string_tensor='["0","3","-1","1.12","0xF","   -10.5","3.40282e+38","3.40283e+38","-3.40283e+38","NAN","INF"]'
expect s2n_double "array([3.40283e+38, -10.5], dtype=float64)" -- \
    string_to_number string_tensor='["3.40283e+38"," -10.5"]' out_type=float64
expect s2n_int32 "array([-2147483648, 2147483647, -10], dtype=int32)" -- \
    string_to_number string_tensor='["-2147483648","2147483647","    -10"]' out_type=int32
expect s2n_int64 "array([2147483648], dtype=int64)" -- string_to_number string_tensor='["2147483648"]' out_type=int64
expect_fail s2n_overflow invalid_argument "could not correctly convert string: 2147483648" -- \
    string_to_number string_tensor='["1","2147483648"]' out_type=int32
expect_fail s2n_junk invalid_argument "could not correctly convert string: 10foobar" -- \
    string_to_number string_tensor='["10foobar"]'
expect s2n_uint64 "array([18446744073709551615, 7], dtype=uint64)" -- \
    string_to_number string_tensor='["18446744073709551615"," +7"]' out_type=uint64
expect s2n_uint32 "array([4294967295], dtype=uint32)" -- string_to_number string_tensor='["4294967295"]' out_type=uint32
expect_fail s2n_uint_neg invalid_argument "could not correctly convert string: -0" -- \
    string_to_number string_tensor='["-0"]' out_type=uint32
expect_fail s2n_type unimplemented "out_type int16 is not supported" -- string_to_number string_tensor='["1"]' out_type=int16

# ---- OpenVINO StringTensorPack ----
expect pack_1 "array([b'Intel', b'OpenVINO'], dtype=string)" -- \
    string_tensor_pack begins=[0,5]:int64 ends=[5,13]:int64 symbols='"IntelOpenVINO"'
expect pack_2 "array([b'OMZ', b'', b'GenAI', b' ', b'2024'], dtype=string)" -- \
    string_tensor_pack begins=[0,3,3,8,9]:int64 ends=[3,3,8,9,13]:int64 symbols='"OMZGenAI 2024"'
expect pack_3 "array([b'1', b'9'], dtype=string)" -- \
    string_tensor_pack begins=[0,8]:int64 ends=[1,9]:int64 symbols='"123456789"'
expect pack_4 "array([[b'Intel', b'OpenVINO'],
       [b'OMZ', b'GenAI']], dtype=string)" -- \
    string_tensor_pack begins='[[0,5],[13,16]]:int64' ends='[[5,13],[16,21]]:int64' symbols='"IntelOpenVINOOMZGenAI"'
expect pack_uint8 "array([b'Int', b'l'], dtype=string)" -- \
    string_tensor_pack begins=[0,4]:int32 ends=[3,5]:int32 symbols=[73,110,116,101,108]:uint8
expect unpack "array([[0, 5],
       [13, 16]], dtype=int32)
array([[5, 13],
       [16, 21]], dtype=int32)
array([73, 110, 116, 101, 108, 79, 112, 101, 110, 86, 73, 78, 79, 79, 77, 90, 71, 101, 110, 65, 73], dtype=uint8)" -- \
    string_tensor_unpack data='[["Intel","OpenVINO"],["OMZ","GenAI"]]'
expect_fail pack_past_end invalid_argument "ends[1] = 14 is past the end of symbols (13 bytes)" -- \
    string_tensor_pack begins=[0,5]:int64 ends=[5,14]:int64 symbols='"IntelOpenVINO"'
expect_fail pack_negative invalid_argument "begins[0] = -1 is negative" -- \
    string_tensor_pack begins=[-1,5]:int64 ends=[5,13]:int64 symbols='"IntelOpenVINO"'
expect_fail pack_reversed invalid_argument "ends[0] = 2 is less than begins[0] = 5" -- \
    string_tensor_pack begins=[5]:int64 ends=[2]:int64 symbols='"IntelOpenVINO"'
expect_fail pack_shapes invalid_argument "begins shape [2] and ends shape [1] differ" -- \
    string_tensor_pack begins=[0,5]:int64 ends=[5]:int64 symbols='"IntelOpenVINO"'
expect_fail pack_types invalid_argument "got int64 and int32" -- \
    string_tensor_pack begins=[0]:int64 ends=[5]:int32 symbols='"IntelOpenVINO"'

# ---- string layouts: TF_TString records (OFFSET form on the CLI) and ONNX Runtime's ----
expect tf_records "array([8, 104, 105, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], dtype=uint8)" -- \
    string_tensor_to_tf data='"hi"'
expect tf_to_npy "" -- string_tensor_to_tf data='["a\x00b","","0123456789abcdefghijklmnop"]' -o "$TX_TMP/tf.npy"
expect tf_round_trip "array([b'a\x00b', b'', b'0123456789abcdefghijklmnop'], dtype=string)" -- \
    string_tensor_from_tf records="$TX_TMP/tf.npy" shape=[3]
expect_fail tf_short invalid_argument "2 elements need 2 * 24 bytes of records, got 24 bytes" -- \
    string_tensor_from_tf records='[8,104,105,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]:uint8' shape=[2]
expect_fail tf_view invalid_argument "element 0 is a VIEW string, which holds a pointer" -- \
    string_tensor_from_tf records='[7,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]:uint8' shape=[1]
expect_fail tf_records_dtype invalid_argument "records must be 1-D uint8 or a string scalar, got int32" -- \
    string_tensor_from_tf records='[1,2]' shape=[1]
expect ort_to "array([97, 98, 99, 100, 101], dtype=uint8)
array([[0, 2],
       [2, 3]], dtype=uint64)" -- string_tensor_to_ort data='[["ab",""],["c","de"]]'
expect ort_from "array([[b'ab', b''],
       [b'c', b'de']], dtype=string)" -- string_tensor_from_ort content='"abcde"' offsets='[[0,2],[2,3]]:uint64'
expect_fail ort_decreasing invalid_argument "offsets[2] = 2 is less than offsets[1] = 3" -- \
    string_tensor_from_ort content='"abcde"' offsets='[0,3,2]:int64'
expect_fail ort_past invalid_argument "offsets[1] = 9 is past the end of content (5 bytes)" -- \
    string_tensor_from_ort content='"abcde"' offsets='[0,9]:uint64'
# ---- cast modes (tx_cast_in_mode): default, saturate, checked ----
expect mode_default "array([44, 127, 0, -1], dtype=int8)" -- cast x='[300.0,-129.0,nan,255.5]' dtype=int8 mode=default
expect mode_saturate "array([-2147483648, 300, 2147483520], dtype=int32)" -- cast x='[-1e10,300,3e9]' dtype=int32 mode=saturate
expect mode_checked_ok "array([1, -2, 3], dtype=int8)" -- cast x='[1.0,-2.0,3.0]' dtype=int8 mode=checked
expect mode_checked_f16 "array([0.5, 0.25], dtype=float16)" -- cast x='[0.5,0.25]' dtype=float16 mode=checked exact_float=true
expect mode_checked_round "array([0.1, 1.0], dtype=float16)" -- cast x='[0.1,1]' dtype=float16 mode=checked
expect_fail mode_checked_frac invalid_argument \
    "cast: element 1 (index [1]) is 2.5 (float32), which int32 cannot hold exactly: not an integer" -- \
    cast x='[1.0,2.5,nan]' dtype=int32 mode=checked
expect_fail mode_checked_nan invalid_argument "element 0 (index [0]) is nan (float64), which int64 cannot hold exactly: NaN" -- \
    cast x='[nan]:float64' dtype=int64 mode=checked
expect_fail mode_checked_range invalid_argument "element 3 (index [1,1]) is 300 (int32), which uint8 cannot hold exactly: out of range" -- \
    cast x='[[1,2],[3,300]]' dtype=uint8 mode=checked
expect_fail mode_checked_inf invalid_argument "is inf (float32), which int16 cannot hold exactly: infinity" -- \
    cast x='[inf]' dtype=int16 mode=checked
expect_fail mode_checked_overflow invalid_argument "is 70000 (float32), which float16 cannot hold exactly: out of range" -- \
    cast x='[70000.0]' dtype=float16 mode=checked
expect_fail mode_checked_exact invalid_argument "is 0.100000001 (float32), which float16 cannot hold exactly: would round" -- \
    cast x='[0.5,0.1]' dtype=float16 mode=checked exact_float=true
expect_fail mode_bad invalid_argument "cast: mode 'bogus' is not default, saturate, checked or onnx" -- cast x='[1]' dtype=int8 mode=bogus
expect_fail mode_flag invalid_argument "TX_CAST_EXACT_FLOAT needs mode TX_CAST_CHECKED" -- cast x='[1]' dtype=int8 exact_float=true
# ---- mode=onnx: ONNX Cast-25's presets (saturate, round_mode) ----
expect onnx_f8 "array([448.0, -448.0, 448.0, nan, -0.0], dtype=float8_e4m3fn)" -- \
    cast x='[500.0,-inf,inf,nan,-0.0]' dtype=float8_e4m3fn mode=onnx
expect onnx_f8_nosat "array([inf, -inf, 57344.0], dtype=float8_e5m2)" -- \
    cast x='[1e6,-inf,57344]' dtype=float8_e5m2 mode=onnx saturate=false
expect onnx_e8m0_up "array([0.125, 2.0, 1.7014118346046923e+38, 5.877471754111438e-39], dtype=float8_e8m0fnu)" -- \
    cast x='[0.124,1.1,inf,0]' dtype=float8_e8m0fnu mode=onnx
expect onnx_e8m0_nearest "array([1.0, 2.0, nan, nan], dtype=float8_e8m0fnu)" -- \
    cast x='[1.1,1.5,inf,0]' dtype=float8_e8m0fnu mode=onnx round_mode=nearest saturate=false
expect onnx_e8m0_down "array([0.0625, 1.0], dtype=float8_e8m0fnu)" -- \
    cast x='[0.124,1.9]' dtype=float8_e8m0fnu mode=onnx round_mode=down
expect onnx_int4 "array([0, 2, 2, -2, 7, -8, 0], dtype=int4)" -- cast x='[0.5,1.5,2.5,-2.5,7.5,-100,nan]' dtype=int4 mode=onnx
expect onnx_int4_ints "array([-7, 7], dtype=int4)" -- cast x='[9,-9]' dtype=int4 mode=onnx
expect onnx_uint2 "array([0, 2, 3, 0], dtype=uint2)" -- cast x='[-0.5,1.5,9,-3]' dtype=uint2 mode=onnx
expect_fail onnx_flag invalid_argument "the TX_CAST_ONNX_* flags need mode TX_CAST_ONNX" -- cast x='[1]' dtype=int4 saturate=false
expect_fail onnx_round_bad invalid_argument "cast: round_mode 'sideways' is not up, down or nearest" -- \
    cast x='[1]' dtype=float8_e8m0fnu mode=onnx round_mode=sideways
# ---- float8_e5m2 / float8_e4m3fn (ml_dtypes' rules; values print exactly) ----
expect f8_e4m3 "array([0.1015625, 1.0, 448.0, 448.0, nan, nan, nan, -0.0, 0.001953125], dtype=float8_e4m3fn)" -- \
    cast x='[0.1,1,448,464,465,-500,inf,-0.0,0.001953125]' dtype=float8_e4m3fn
expect f8_e5m2 "array([0.09375, 1.0, 57344.0, inf, nan, -inf, 1.52587890625e-05], dtype=float8_e5m2)" -- \
    cast x='[0.1,1,57344,61440,nan,-inf,1e-5]' dtype=float8_e5m2
expect f8_literal "array([0.1015625, 448.0, nan], dtype=float32)" -- cast x='[0.1,448,500]:float8_e4m3fn' dtype=float32
expect f8_saturate "array([448.0, -448.0, 448.0, nan], dtype=float8_e4m3fn)" -- \
    cast x='[500.0,-1e6,inf,nan]' dtype=float8_e4m3fn mode=saturate
expect f8_saturate_e5m2 "array([57344.0, -57344.0], dtype=float8_e5m2)" -- saturate_cast value='[1e6,-inf]' dtype=float8_e5m2
expect f8_bitcast "array([1.0, 448.0, nan, nan], dtype=float8_e4m3fn)" -- bitcast input='[56,126,127,255]:uint8' type=float8_e4m3fn
expect f8_transpose "array([[1.0, 3.0],
       [2.0, 4.0]], dtype=float8_e5m2)" -- transpose a='[[1,2],[3,4]]:float8_e5m2' perm=[1,0]
expect f8_to_int "array([1, -3, -2147483648], dtype=int32)" -- cast x='[1.5,-3.5,nan]:float8_e4m3fn' dtype=int32
expect_fail f8_checked invalid_argument "is 500 (float32), which float8_e4m3fn cannot hold exactly: out of range" -- \
    cast x='[1.0,500.0]' dtype=float8_e4m3fn mode=checked
expect_fail f8_unique unimplemented "dtype float8_e5m2 is not supported" -- unique_with_counts x='[1,2]:float8_e5m2'
expect_fail mode_saturate_bool unimplemented "dtype bool has no min/max" -- cast x='[1]' dtype=bool mode=saturate
# ---- int4 / uint4 (one element per byte; casts wrap modulo 16 like ml_dtypes' intN) ----
expect i4_cast "array([7, -8, -8, -1, -4, 0, -1], dtype=int4)" -- cast x='[7.9,-8.9,8,15,300,nan,-1]' dtype=int4
expect u4_cast "array([7, 8, 8, 15, 12, 0, 15], dtype=uint4)" -- cast x='[7.9,-8.9,8,15,300,nan,-1]' dtype=uint4
expect i4_literal "array([-8.0, -1.0, 0.0, 7.0], dtype=float32)" -- cast x='[-8,-1,0,7]:int4' dtype=float32
expect i4_to_u4 "array([8, 15, 0, 7], dtype=uint4)" -- cast x='[-8,-1,0,7]:int4' dtype=uint4
expect i4_saturate "array([7, -8, 7], dtype=int4)" -- cast x='[100,-100,7.5]' dtype=int4 mode=saturate
expect u4_saturate "array([0, 0, 0, 7], dtype=uint4)" -- saturate_cast value='[-8,-1,0,7]:int4' dtype=uint4
expect i4_transpose "array([[1, 3],
       [-2, -8]], dtype=int4)" -- transpose a='[[1,-2],[3,-8]]:int4' perm=[1,0]
expect i4_gather "array([-8, 1], dtype=int4)" -- gather params='[1,-2,3,-8]:int4' indices='[3,0]'
expect_fail i4_checked invalid_argument "is 300 (int32), which int4 cannot hold exactly: out of range" -- \
    cast x='[300,-1]' dtype=int4 mode=checked
expect_fail i4_literal_range invalid_argument "'8' is not a valid int4 value" -- cast x='[8]:int4' dtype=int8
expect_fail i4_bitcast unimplemented "the sub-byte types are not supported" -- bitcast input='[1]:int4' type=int8
expect_fail u4_unique unimplemented "dtype uint4 is not supported" -- unique_with_counts x='[1,2]:uint4'

finish
