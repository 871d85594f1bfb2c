#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# outputs.sh -- where a command's results go: a write to standard output that fails (printed
# results, info, --plan, help, --version) is an io_error.
source "$(dirname "$0")/lib.sh"
T=$TX_TMP

# ---- standard output that cannot be written ----
# /dev/full (every write fails with ENOSPC) and a closed descriptor: exit 1 with one io_error
# line, the command's name in it when it is an op, info or conform.
stdout_fails() { # NAME WANT_LINE REDIRECT ARGS...
    local name=$1 want=$2 redirect=$3 rc
    shift 3
    case $redirect in
    full) "$TX" "$@" >/dev/full 2>"$T/err" && rc=0 || rc=$? ;;
    closed) "$TX" "$@" >&- 2>"$T/err" && rc=0 || rc=$? ;;
    esac
    check "stdout: $name" bash -c "[ $rc = 1 ] && [ \"\$(cat '$T/err')\" = \"$want\" ] || { echo 'exit $rc'; cat '$T/err'; false; }"
}
FULL="io_error: cannot write stdout: No space left on device"
if [ -w /dev/full ]; then
    stdout_fails "--version" "tensorx: $FULL" full --version
    stdout_fails "help" "tensorx: $FULL" full help
    stdout_fails "OP --help" "tensorx: reshape: $FULL" full reshape --help
    stdout_fails "help OP" "tensorx: $FULL" full help reshape
    stdout_fails "printed result" "tensorx: reshape: $FULL" full reshape tensor=[1,2,3,4] shape=[2,2]
    stdout_fails "a long printed result" "tensorx: one_hot: $FULL" full one_hot indices=[1,2,3] depth=30000 dtype=int8
    stdout_fails "--plan" "tensorx: reshape: $FULL" full reshape tensor=[1,2,3,4] shape=[2,2] --plan
    stdout_fails "--plan=json" "tensorx: reshape: $FULL" full reshape tensor=[1,2,3,4] shape=[2,2] --plan=json
    "$TX" cast x=[1,2] dtype=int8 -o "$T/small.npy"
    stdout_fails "info" "tensorx: info: $FULL" full info "$T/small.npy"
    stdout_fails "conform" "tensorx: conform: $FULL" full conform "$(dirname "$0")/../conformance/byte_order.json"
    # A command that failed keeps its own one line.
    check "stdout: an op error keeps its message" bash -c "! '$TX' reshape tensor=[1,2,3] shape=[2,2] >/dev/full 2>'$T/err' &&
        [ \"\$(wc -l <'$T/err')\" = 1 ] && grep -q 'invalid_argument' '$T/err'"
fi
stdout_fails "closed: --version" "tensorx: io_error: cannot write stdout: Bad file descriptor" closed --version
stdout_fails "closed: printed result" "tensorx: reshape: io_error: cannot write stdout: Bad file descriptor" closed \
    reshape tensor=[1,2,3,4] shape=[2,2]
# Nothing printed, nothing to fail: -o FILE with stdout closed or full.
check "stdout: -o FILE with stdout closed" bash -c "'$TX' cast x=[1] dtype=int8 -o '$T/q.npy' >&-"
check "stdout: /dev/null is fine" bash -c "'$TX' --version >/dev/null && '$TX' help >/dev/null"
finish
