#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for `tensorx conform`'s reading of a case's tensors (the suites themselves run
# as the ctest tests conformance and conformance.plan).
. "$(dirname "$0")/lib.sh"

# A string tensor's element count is 0 with a 0 dim, whatever the dims before it multiply to
# (2^40 * 2^40 passes int64); with no 0 such a shape cannot match the values given.
expect_fail_stdout() { # NAME EXPECTED_STDOUT ARGS...: exit 1 with exactly that stdout
    local name=$1 want=$2 got rc
    shift 2
    got=$("$TX" "$@" 2>"$TX_TMP/err") && rc=0 || rc=$?
    if [ "$rc" -ne 1 ] || [ "$got" != "$want" ]; then
        TX_FAILED=$((TX_FAILED + 1))
        printf 'FAIL %s (exit %s)\n--- want\n%s\n--- got\n%s\n--- stderr\n%s\n' "$name" "$rc" "$want" "$got" "$(cat "$TX_TMP/err")"
    else
        TX_PASSED=$((TX_PASSED + 1))
    fi
}
case_json() { # SHAPE VALUES
    printf '{"suite": "t", "cases": [{"name": "shape/strings", "op": "shape", "inputs": {"input": {"dtype": "string", "shape": %s, "values": %s}}, "attrs": {"out_type": "int64"}, "expect": [{"dtype": "int64", "shape": [3], "values": [1099511627776, 1099511627776, 0]}]}]}\n' "$1" "$2"
}
case_json '[1099511627776, 1099511627776, 0]' '[]' >"$TX_TMP/empty.json"
expect conform_empty_huge_strings '1 passed, 0 failed' -- conform "$TX_TMP/empty.json"
# conform reports a failing case on stdout and exits 1.
case_json '[1099511627776, 1099511627776, 0]' '["a"]' >"$TX_TMP/one.json"
expect_fail_stdout conform_empty_huge_strings_values 'FAIL shape/strings: invalid_argument: shape and value count differ
0 passed, 1 failed' conform "$TX_TMP/one.json"
case_json '[1099511627776, 1099511627776, 1]' '["a"]' >"$TX_TMP/huge.json"
expect_fail_stdout conform_huge_strings 'FAIL shape/strings: invalid_argument: shape and value count differ
0 passed, 1 failed' conform "$TX_TMP/huge.json"

finish
