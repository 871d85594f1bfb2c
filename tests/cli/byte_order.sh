#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# byte_order.sh -- results that must not depend on the host's byte order (decode_raw and
# encode_raw with an explicit order, .npy files) and the ones that must (bitcast between widths),
# and `tensorx conform`'s byte_order field: a case for the other order is skipped, never passed.
source "$(dirname "$0")/lib.sh"

# ---- explicit orders: the same values on every host ----
expect dr_le "array([[258, 772]], dtype=uint16)" -- decode_raw input_bytes='["\x02\x01\x04\x03"]' out_type=uint16
expect dr_be "array([[258, 772]], dtype=uint16)" -- decode_raw input_bytes='["\x01\x02\x03\x04"]' out_type=uint16 little_endian=false
expect dr_c64_be "array([[(1+2j)]], dtype=complex64)" -- \
    decode_raw input_bytes='["\x3f\x80\x00\x00\x40\x00\x00\x00"]' out_type=complex64 little_endian=false
expect er_be "array(b'\x01\x02\x03\x04', dtype=string)" -- encode_raw x='[258,772]:uint16' little_endian=false
expect er_le "array(b'\x02\x01\x04\x03', dtype=string)" -- encode_raw x='[258,772]:uint16'

# ---- .npy: written little-endian on every host, read back by value ----
"$TX" cast x='[258,-2]:int16' dtype=int16 -o "$TX_TMP/a.npy"
if [ "$(tail -c 4 "$TX_TMP/a.npy" | od -An -tx1 | tr -d ' \n')" = 0201feff ]; then
    TX_PASSED=$((TX_PASSED + 1))
else
    TX_FAILED=$((TX_FAILED + 1)); echo "FAIL npy data are not little-endian"
fi
grep -q "'<i2'" "$TX_TMP/a.npy" && TX_PASSED=$((TX_PASSED + 1)) || { TX_FAILED=$((TX_FAILED + 1)); echo "FAIL npy descr"; }
expect npy_values "array([258, -2], dtype=int16)" -- cast x="$TX_TMP/a.npy" dtype=int16

# ---- bitcast between widths: the host's bytes ----
if [ "$TX_BYTE_ORDER" = little ]; then
    expect bc_i32_u8 "array([1, 0, 0, 0], dtype=uint8)" -- bitcast input=1 type=uint8
else
    expect bc_i32_u8 "array([0, 0, 0, 1], dtype=uint8)" -- bitcast input=1 type=uint8
fi
expect bc_same_width "array([1065353216], dtype=int32)" -- bitcast input=[1.0] type=int32

# ---- conform: a case marked for the other byte order is skipped ----
other=big; [ "$TX_BYTE_ORDER" = big ] && other=little
cat >"$TX_TMP/suite.json" <<JSON
{"suite": "t", "cases": [
 {"name": "bitcast/this_host", "op": "bitcast", "byte_order": "$TX_BYTE_ORDER",
  "inputs": {"input": {"dtype": "int32", "shape": [], "values": [0]}}, "attrs": {"type": "uint8"},
  "expect": [{"dtype": "uint8", "shape": [4], "hex": "00000000"}]},
 {"name": "bitcast/other_host", "op": "bitcast", "byte_order": "$other",
  "inputs": {"input": {"dtype": "int32", "shape": [], "values": [0]}}, "attrs": {"type": "uint8"},
  "expect": [{"dtype": "uint8", "shape": [4], "hex": "ffffffff"}]}]}
JSON
expect conform_skip "SKIP bitcast/other_host: expects a $other-endian host, this one is $TX_BYTE_ORDER-endian
skipped cases for the other byte order: 1 (this host is $TX_BYTE_ORDER-endian)
1 passed, 0 failed, 1 skipped" -- conform "$TX_TMP/suite.json"
sed 's/"byte_order": "[a-z]*"/"byte_order": "middle"/' "$TX_TMP/suite.json" >"$TX_TMP/bad.json"
got=$("$TX" conform "$TX_TMP/bad.json") && rc=0 || rc=$?
if [ "$rc" -ne 0 ] && printf '%s\n' "$got" | grep -qF 'FAIL bitcast/this_host: harness: byte_order must be "little" or "big"'; then
    TX_PASSED=$((TX_PASSED + 1))
else
    TX_FAILED=$((TX_FAILED + 1)); printf 'FAIL conform_bad_order (exit %s)\n%s\n' "$rc" "$got"
fi
finish
