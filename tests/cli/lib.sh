# SPDX-License-Identifier: Apache-2.0
# lib.sh -- helpers for the CLI golden tests.  A test script sources this, calls the checks, and
# ends with `finish`.  $TX is the tensorx binary (ctest sets it).
#   expect NAME EXPECTED_STDOUT -- ARGS...     stdout must equal EXPECTED_STDOUT, exit 0
#   expect_fail NAME STATUS FRAGMENT -- ARGS...  exit 1 (exit 2 when STATUS is "usage"), stderr has
#                                                "STATUS: " and FRAGMENT
#   check NAME COMMAND...                      the command (any program) must succeed
# $TX_BYTE_ORDER is the CLI's host byte order, for results that depend on it (bitcast).
# $TX_ZLIB is 1 when the CLI was built with zlib (compressed files), 0 when not.
set -u
: "${TX:?TX must point at the tensorx binary}"
# The byte order of the host the CLI runs on (little or big): the cross builds run it under an
# emulator and say so (tests/cross.cmake); natively it is this shell's host's.
TX_BYTE_ORDER=${TX_TARGET_BYTE_ORDER:-$([ "$(printf '\001\000' | od -An -tu2 | tr -d ' ')" = 1 ] &&
    echo little || echo big)}
TX_PASSED=0
TX_FAILED=0
TX_TMP=$(mktemp -d)
trap 'rm -rf "$TX_TMP"' EXIT
# Whether the CLI reads gzip: a build without zlib (TX_WITH_ZLIB=OFF, or a cross build with no
# target zlib) says so for any compressed input.
printf 'x' | gzip >"$TX_TMP/zlib_probe.gz"
TX_ZLIB=1
"$TX" decode_raw input_bytes=@"$TX_TMP/zlib_probe.gz" out_type=uint8 2>&1 | grep -q "built without zlib" &&
    TX_ZLIB=0

# A .npy of a hostile shape: a version 1.0 float32 header, padded to 64 bytes, and no data (the
# shape must have a 0 for the file to be complete).
npy_header() { # FILE SHAPE
    local dict="{'descr': '<f4', 'fortran_order': False, 'shape': $2, }"
    local len=$(( (10 + ${#dict} + 1 + 63) / 64 * 64 - 10 ))
    { printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $((len % 256)))\\x$(printf %02x $((len / 256)))";
      printf '%s' "$dict"; printf "%$((len - ${#dict} - 1))s\n" ''; } >"$1"
}

expect() {
    local name=$1 want=$2
    shift 3
    local got rc
    got=$("$TX" "$@" 2>"$TX_TMP/err") && rc=0 || rc=$?
    if [ "$rc" -ne 0 ] || [ "$got" != "$want" ]; then
        TX_FAILED=$((TX_FAILED + 1))
        printf 'FAIL %s (exit %s)\n--- want\n%s\n--- got\n%s\n--- stderr\n%s\n' "$name" "$rc" "$want" "$got" "$(cat "$TX_TMP/err")"
    else
        TX_PASSED=$((TX_PASSED + 1))
    fi
}

expect_fail() {
    local name=$1 status=$2 fragment=$3
    shift 4
    local rc want_rc=1
    [ "$status" = usage ] && want_rc=2
    "$TX" "$@" >"$TX_TMP/out" 2>"$TX_TMP/err" && rc=0 || rc=$?
    if [ "$rc" -ne "$want_rc" ] || ! grep -qF -- "$status: " "$TX_TMP/err" || ! grep -qF -- "$fragment" "$TX_TMP/err"; then
        TX_FAILED=$((TX_FAILED + 1))
        printf 'FAIL %s (exit %s, want %s): want %s with "%s"\n--- stderr\n%s\n' "$name" "$rc" "$want_rc" "$status" "$fragment" "$(cat "$TX_TMP/err")"
    else
        TX_PASSED=$((TX_PASSED + 1))
    fi
}

check() { # NAME COMMAND...: the command must succeed
    local name=$1
    shift
    if "$@" >"$TX_TMP/check.out" 2>&1; then
        TX_PASSED=$((TX_PASSED + 1))
    else
        TX_FAILED=$((TX_FAILED + 1))
        printf 'FAIL %s\n%s\n' "$name" "$(cat "$TX_TMP/check.out")"
    fi
}

finish() {
    echo "$TX_PASSED passed, $TX_FAILED failed"
    [ "$TX_FAILED" -eq 0 ]
}
