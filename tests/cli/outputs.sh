#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# outputs.sh -- where a command's results go, whatever the names: `-o` through a symbolic link to
# the op's own mapped input replaces the file the link ends at (the input is never truncated, the
# link stays a link), a command's several outputs are replaced all or none, and a write to
# standard output that fails (printed results, info, --plan, help, --version) is an io_error.
source "$(dirname "$0")/lib.sh"
T=$TX_TMP
no_temp() { ! ls -a "$@" | grep -q '^\.tx-'; } # no temporary file left in the directories given

# ---- -o through a symbolic link to the op's own input ----
# A 16 MiB input is mapped in place and a view op's result is that mapping: opening the link's
# file with truncation (as the CLI did) cut the input under the op -- io_error, and a 4 KiB file
# where the 16 MiB input was.  The bytes wanted are the op's -o - output.
"$TX" one_hot indices=[0] depth=4194304 dtype=float32 -o "$T/ref.npy"
for op in "reshape tensor=IN shape=[-1]" "squeeze input=IN" "expand_dims input=IN dim=0" \
          "bitcast input=IN type=int32"; do
    cp "$T/ref.npy" "$T/in.npy"
    ln -sfn in.npy "$T/link.npy"
    # shellcheck disable=SC2086
    "$TX" ${op//IN/$T/ref.npy} -o - >"$T/want.npy"
    # shellcheck disable=SC2086
    "$TX" ${op//IN/$T/in.npy} -o "$T/link.npy" 2>"$T/err" && rc=0 || rc=$?
    check "link to its input: ${op%% *} succeeds" bash -c "[ $rc = 0 ] || { cat '$T/err'; false; }"
    check "link to its input: ${op%% *} replaced the input whole" cmp "$T/in.npy" "$T/want.npy"
    check "link to its input: ${op%% *} left the link a link" test -L "$T/link.npy"
    check "link to its input: ${op%% *} left no temporary file" no_temp "$T"
done
# A chain of links, relative to their own directories, to the input in another directory: the
# file replaced is the one at the end, through a temporary file in its directory.
mkdir -p "$T/data" "$T/links"
cp "$T/ref.npy" "$T/data/in.npy"
ln -sfn ../data/in.npy "$T/links/one.npy"
ln -sfn one.npy "$T/links/two.npy"
"$TX" reshape tensor="$T/ref.npy" shape=[4194304,1] -o - >"$T/want.npy"
check "link chain: reshape over its input" "$TX" reshape tensor="$T/data/in.npy" shape=[4194304,1] -o "$T/links/two.npy"
check "link chain: the input replaced whole" cmp "$T/data/in.npy" "$T/want.npy"
check "link chain: both links stay" test -L "$T/links/one.npy" -a -L "$T/links/two.npy"
check "link chain: no temporary file" no_temp "$T/data" "$T/links"
# An output made in its mapped file (the op's plan: new data of 1 MiB or more) through a link.
cp "$T/ref.npy" "$T/in.npy"
ln -sfn in.npy "$T/link.npy"
"$TX" reverse tensor="$T/ref.npy" axis=[1] -o - >"$T/want.npy"
check "link, mapped output: reverse over its input" env TENSORX_MAP_OUTPUT_MIN_BYTES=0 \
    "$TX" reverse tensor="$T/in.npy" axis=[1] -o "$T/link.npy"
check "link, mapped output: the input replaced whole" cmp "$T/in.npy" "$T/want.npy"
check "link, mapped output: the link stays" test -L "$T/link.npy"
# A link to nothing yet: the file is made where it points; a failure leaves nothing there.
ln -sfn data/new.npy "$T/dangling.npy"
check "dangling link: the file is made" "$TX" cast x=[1,2] dtype=int8 -o "$T/dangling.npy"
check "dangling link: at its target, the link kept" bash -c "[ -L '$T/dangling.npy' ] && '$TX' info '$T/data/new.npy' | grep -q 'array(\[1, 2\], dtype=int8)'"
ln -sfn data/none.npy "$T/dangling2.npy"
expect_fail "dangling link: op error" invalid_argument "perm" -- transpose a=[[1]] perm=[0,0] -o "$T/dangling2.npy"
check "dangling link: an error makes no file" test ! -e "$T/data/none.npy"
ln -sfn loop.npy "$T/loop.npy"
expect_fail "a loop of links" io_error "cannot write '$T/loop.npy': Too many levels of symbolic links" -- \
    cast x=[1] dtype=int8 -o "$T/loop.npy"
# A link to an open file, not a name (/dev/stdout is /proc/self/fd/1): written directly, into a
# pipe or a redirected file alike.
check "/dev/stdout into a pipe" bash -c "'$TX' cast x=[1,2] dtype=int8 -o /dev/stdout | '$TX' info - | grep -q 'array(\[1, 2\], dtype=int8)'"
check "/dev/stdout into a file" bash -c "'$TX' cast x=[3] dtype=int8 -o /dev/stdout >'$T/fd.npy' && '$TX' info '$T/fd.npy' | grep -q 'array(\[3\], dtype=int8)'"

# ---- several outputs: all replaced, or none ----
# Old contents first; a failure at any output must leave every one of them.
old() { for f in "$@"; do "$TX" cast x=[9] dtype=int8 -o "$T/$f"; cp "$T/$f" "$T/$f.old"; done; }
same() { for f in "$@"; do cmp -s "$T/$f" "$T/$f.old" || { echo "$f changed"; return 1; }; done; }
old a.npy c.npy
expect_fail "all or none: /dev/full in the middle" io_error "cannot write '/dev/full': No space left on device" -- \
    split value=[1,2,3,4,5,6] split_dim=0 num_split=3 -o "$T/a.npy" -o /dev/full -o "$T/c.npy"
check "all or none: /dev/full in the middle leaves the others" same a.npy c.npy
check "all or none: no temporary file after /dev/full" no_temp "$T"
# The last output fails to be written (the file-size limit, 100 KiB): the first ones stay as they
# were.  unique_with_counts of 200,000 elements: y and count small, idx 800,000 bytes.
"$TX" one_hot indices=[3] depth=200000 dtype=int32 -o "$T/wide.npy"
"$TX" reshape tensor="$T/wide.npy" shape=[-1] -o "$T/x.npy"
old y.npy idx.npy count.npy
(trap '' XFSZ; ulimit -f 100; exec "$TX" unique_with_counts x="$T/x.npy" \
    -o "$T/y.npy" -o "$T/idx.npy" -o "$T/count.npy") 2>"$T/err" && rc=0 || rc=$?
check "all or none: a short write fails" bash -c "[ $rc = 1 ] && grep -q \"io_error: cannot write '$T/idx.npy': File too large\" '$T/err' || { cat '$T/err'; false; }"
check "all or none: a short write leaves the others" same y.npy idx.npy count.npy
check "all or none: no temporary file after a short write" no_temp "$T"
# With {} in the name: one output's name is a directory.
old part0.npy part2.npy
mkdir "$T/part1.npy"
expect_fail "all or none: {} with a directory" io_error "cannot write '$T/part1.npy': Is a directory" -- \
    unpack value=[[1,2],[3,4],[5,6]] num=3 -o "$T/part{}.npy"
check "all or none: {} with a directory leaves the others" same part0.npy part2.npy
check "all or none: no temporary file after {}" no_temp "$T"
# A new name among them is not created either.
rm -rf "$T/part1.npy" "$T/c.npy"
expect_fail "all or none: a new file" io_error "No space left on device" -- \
    split value=[1,2,3,4] split_dim=0 num_split=2 -o "$T/c.npy" -o /dev/full
check "all or none: the new file is not made" test ! -e "$T/c.npy"
# Success: every output written, stdout too.
expect "all or none: success" "" -- dynamic_partition data=[10,20,30,40] partitions=[1,0,1,0] \
    num_partitions=2 -o "$T/p0.npy" -o "$T/p1.npy"
expect "all or none: first output" "array([20, 40], dtype=int32)" -- reshape tensor="$T/p0.npy" shape=[-1]
expect "all or none: second output" "array([10, 30], dtype=int32)" -- reshape tensor="$T/p1.npy" shape=[-1]
check "all or none: files and stdout" bash -c "'$TX' split value=[1,2,3,4] split_dim=0 num_split=2 -o - -o '$T/s1.npy' | '$TX' reshape tensor=- shape=[-1] | grep -qx 'array(\[1, 2\], dtype=int32)' && '$TX' info '$T/s1.npy' | grep -q 'array(\[3, 4\], dtype=int32)'"

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
