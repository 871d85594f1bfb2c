#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# stream.sh -- the CLI's pipes (- as input, -o - as output), streaming of decode_raw / cast /
# bitcast over files larger than the memory limit (ulimit -v), and the progress bar rule (shown on
# a terminal, never when stderr is not one).
source "$(dirname "$0")/lib.sh"
DATA=$(cd "$(dirname "$0")/../../examples/data" && pwd)
PY=/usr/bin/python3

# ---- pipes ----
SENSOR_T='array([[-1200, -800, -400, 0, 400, 800, 1200, 1600],
       [-1100, -700, -300, 100, 500, 900, 1300, 1700],
       [-1000, -600, -200, 200, 600, 1000, 1400, 1800],
       [-900, -500, -100, 300, 700, 1100, 1500, 1900]], dtype=int16)'
pipe3() {
    "$TX" decode_raw input_bytes=@"$DATA/sensor_be.bin" out_type=int16 little_endian=false -o - |
        "$TX" reshape tensor=- shape=8,4 -o - | "$TX" transpose a=- perm=1,0 "$@"
}
expect_pipe() { # NAME WANT COMMAND...
    local name=$1 want=$2 got
    shift 2
    got=$("$@" 2>"$TX_TMP/err")
    if [ "$got" = "$want" ]; then TX_PASSED=$((TX_PASSED + 1)); else
        TX_FAILED=$((TX_FAILED + 1))
        printf 'FAIL %s\n--- want\n%s\n--- got\n%s\n--- stderr\n%s\n' "$name" "$want" "$got" "$(cat "$TX_TMP/err")"
    fi
}
expect_pipe "pipe: decode_raw | reshape | transpose" "$SENSOR_T" pipe3
expect_pipe "pipe: streamed first stage" "$SENSOR_T" env TENSORX_STREAM_MIN_BYTES=0 TENSORX_CHUNK_BYTES=6 bash -c "$(declare -f pipe3); TX='$TX' DATA='$DATA' pipe3"
pipe3 -o "$TX_TMP/t.npy"
expect "pipe: -o FILE at the end" "$SENSOR_T" -- transpose a="$TX_TMP/t.npy" perm=0,1
# -o - and -o file give the same bytes; two outputs may both go to stdout.
"$TX" transpose a='[[1,2],[3,4]]' perm=1,0 -o - >"$TX_TMP/stdout.npy"
"$TX" transpose a='[[1,2],[3,4]]' perm=1,0 -o "$TX_TMP/file.npy"
check "-o - equals -o FILE" cmp "$TX_TMP/stdout.npy" "$TX_TMP/file.npy"
expect_pipe "split: two outputs on one stdout" "2" bash -c "'$TX' split value=[1,2,3,4] split_dim=0 num_split=2 -o - -o - | $PY -c 'import sys; print(sys.stdin.buffer.read().count(b\"\\x93NUMPY\"))'"
check "-o - to a closed stdout fails" bash -c "! '$TX' cast x=[1,2] dtype=int8 -o - >&- 2>'$TX_TMP/closed.err' && grep -q \"io_error: cannot write stdout: Bad file descriptor\" '$TX_TMP/closed.err'"
expect_fail "- with empty stdin" io_error "no input on stdin (did the previous command fail?)" -- transpose a=- </dev/null

# ---- streaming gives the bytes the normal path gives ----
printf '\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18' >"$TX_TMP/raw24.bin"
for args in "out_type=int16 little_endian=false" "out_type=float32" "out_type=complex64 little_endian=false" \
            "out_type=uint8" "out_type=bool" "out_type=bfloat16" "out_type=float64 little_endian=false"; do
    # shellcheck disable=SC2086
    TENSORX_STREAM_MIN_BYTES=999999999 "$TX" decode_raw input_bytes=@"$TX_TMP/raw24.bin" $args -o "$TX_TMP/n.npy"
    for chunk in 1 5 8 16 4096; do
        # shellcheck disable=SC2086
        TENSORX_STREAM_MIN_BYTES=0 TENSORX_CHUNK_BYTES=$chunk "$TX" decode_raw input_bytes=@"$TX_TMP/raw24.bin" $args -o "$TX_TMP/s.npy"
        check "stream decode_raw $args chunk $chunk" cmp "$TX_TMP/n.npy" "$TX_TMP/s.npy"
    done
done
"$TX" decode_raw input_bytes=@"$TX_TMP/raw24.bin" out_type=float32 -o "$TX_TMP/f.npy"
"$TX" reshape tensor="$TX_TMP/f.npy" shape=2,3 -o "$TX_TMP/f23.npy"
for op in "cast x=$TX_TMP/f23.npy dtype=int8" "cast x=$TX_TMP/f23.npy dtype=float16" \
          "cast x=$TX_TMP/f23.npy dtype=complex128" "bitcast input=$TX_TMP/f23.npy type=uint8" \
          "bitcast input=$TX_TMP/f23.npy type=int32" "cast x=$DATA/labels.npy dtype=bool" \
          "bitcast input=$DATA/images_nhwc.npy type=uint16" "bitcast input=$DATA/images_nhwc.npy type=int8" \
          "cast x=$TX_TMP/f23.npy dtype=int8 mode=saturate" "cast x=$DATA/labels.npy dtype=int8 mode=checked"; do
    # shellcheck disable=SC2086
    TENSORX_STREAM_MIN_BYTES=999999999 "$TX" $op -o "$TX_TMP/n.npy" 2>"$TX_TMP/n.err"
    for chunk in 1 7 64; do
        # shellcheck disable=SC2086
        TENSORX_STREAM_MIN_BYTES=0 TENSORX_CHUNK_BYTES=$chunk "$TX" $op -o "$TX_TMP/s.npy" 2>"$TX_TMP/s.err"
        check "stream $op chunk $chunk" cmp "$TX_TMP/n.npy" "$TX_TMP/s.npy"
    done
done
# images are [2,4,4,3] uint8: a bitcast to uint16 needs a last dim of 2 -- both paths refuse alike.
# The streamed path takes the result's shape and any error from the op itself (its plan): calls
# whose shape or error depends on the whole input give what the normal path gives -- exit status,
# message and bytes.  (A 1-D bitcast to a wider type, a scalar, an empty input, a short last
# element, int4 bytes the library normalises, an argument rule the op checks.)
"$TX" cast x='[1,2]' dtype=int32 -o "$TX_TMP/i2.npy"
"$TX" cast x='7.5' dtype=float64 -o "$TX_TMP/scalar.npy"
"$TX" cast x='[[1,-1],[2,-3]]' dtype=int4 -o "$TX_TMP/i4.npy"
: >"$TX_TMP/empty.bin"
both_paths() { # CHUNK OP...: rc, stderr and output of the normal and the streamed path
    local chunk=$1 rc
    shift
    rm -f "$TX_TMP/n.npy" "$TX_TMP/s.npy"
    TENSORX_STREAM_MIN_BYTES=999999999 "$TX" "$@" -o "$TX_TMP/n.npy" 2>"$TX_TMP/n.err" && rc=0 || rc=$?
    echo "$rc" >>"$TX_TMP/n.err"
    TENSORX_STREAM_MIN_BYTES=0 TENSORX_CHUNK_BYTES=$chunk "$TX" "$@" -o "$TX_TMP/s.npy" 2>"$TX_TMP/s.err" && rc=0 || rc=$?
    echo "$rc" >>"$TX_TMP/s.err"
    cmp "$TX_TMP/n.err" "$TX_TMP/s.err" && { [ ! -e "$TX_TMP/n.npy" ] || cmp "$TX_TMP/n.npy" "$TX_TMP/s.npy"; } &&
        { [ -e "$TX_TMP/n.npy" ] || [ ! -e "$TX_TMP/s.npy" ]; }
}
for op in "bitcast input=$TX_TMP/i2.npy type=int64" "bitcast input=$TX_TMP/i2.npy type=float64" \
          "bitcast input=$TX_TMP/scalar.npy type=int16" "cast x=$TX_TMP/scalar.npy dtype=int8" \
          "cast x=$TX_TMP/i4.npy dtype=float32" "bitcast input=$TX_TMP/i4.npy type=int8" \
          "cast x=$TX_TMP/f23.npy dtype=int8 mode=saturate exact_float=true" \
          "cast x=$TX_TMP/f23.npy dtype=int8 mode=nearest" \
          "decode_raw input_bytes=@$TX_TMP/empty.bin out_type=int32" \
          "decode_raw input_bytes=@$TX_TMP/raw24.bin out_type=complex128" \
          "decode_raw input_bytes=@$TX_TMP/raw24.bin out_type=int64 fixed_length=16"; do
    for chunk in 1 16 64; do
        # shellcheck disable=SC2086
        check "stream as in memory: $op chunk $chunk" both_paths $chunk $op
    done
done
"$TX" cast x='[1,2,3,4,5,300]' dtype=int32 -o "$TX_TMP/int6.npy"
export TENSORX_STREAM_MIN_BYTES=0 TENSORX_CHUNK_BYTES=5
printf 'abcdefg' >"$TX_TMP/seven.bin"
expect_fail "stream: odd length" invalid_argument "length 7 that is not a multiple of 2" -- decode_raw input_bytes=@"$TX_TMP/seven.bin" out_type=int16 -o "$TX_TMP/x.npy"
check "stream: no partial output left" test ! -e "$TX_TMP/x.npy"
expect_fail "stream: decode type" unimplemented "out_type qint8 is not supported" -- decode_raw input_bytes=@"$TX_TMP/seven.bin" out_type=qint8 -o "$TX_TMP/x.npy"
expect_fail "stream: cast to string" unimplemented "not supported" -- cast x="$DATA/labels.npy" dtype=string -o "$TX_TMP/x.npy"
expect_fail "stream: checked index is global" invalid_argument "element 5 (index [5]) is 300" -- cast x="$TX_TMP/int6.npy" dtype=int8 mode=checked -o "$TX_TMP/x.npy"
expect_fail "stream: bitcast bool" unimplemented "bool" -- bitcast input="$DATA/labels.npy" type=bool -o "$TX_TMP/x.npy"
expect_fail "stream: bitcast shape" invalid_argument "last dimension must be 2" -- bitcast input="$DATA/images_nhwc.npy" type=uint16 -o "$TX_TMP/x.npy"
expect_fail "stream: unwritable output" io_error "cannot write '/nonexistent/dir/x.npy': No such file or directory" -- cast x="$DATA/labels.npy" dtype=int8 -o /nonexistent/dir/x.npy
expect_fail "stream: bad argument" usage "unknown argument 'bogus'" -- cast x="$DATA/labels.npy" dtype=int8 bogus=1 -o "$TX_TMP/x.npy"
# info maps big files instead of reading them: the same report.
for f in "$DATA/images_nhwc.npy" "$DATA/labels.npy" "$TX_TMP/f23.npy"; do
    expect "info mapped $(basename "$f")" "$(TENSORX_STREAM_MIN_BYTES=999999999 "$TX" info "$f")" -- info "$f"
done
# Writing over the input: streaming would truncate the file it maps, so the normal path runs.
cp "$TX_TMP/f23.npy" "$TX_TMP/same.npy"
"$TX" cast x="$TX_TMP/same.npy" dtype=float64 -o "$TX_TMP/same.npy"
expect "stream: -o over the input" "$("$TX" cast x="$TX_TMP/f23.npy" dtype=float32)" -- cast x="$TX_TMP/same.npy" dtype=float32
check "stream: -o over the input (dtype)" bash -c "'$TX' info '$TX_TMP/same.npy' | grep -qx 'dtype: float64'"
unset TENSORX_STREAM_MIN_BYTES TENSORX_CHUNK_BYTES

# ---- files larger than the memory limit ----
# A 1 GiB file (sparse: fast to make) is decoded under a 256 MiB address-space limit, so nothing
# can hold it; the result streams through a pipe to a checker.  The normal path must fail under
# the same limit (the limit really bites).  Sanitizer builds reserve terabytes of address space
# and cannot run under ulimit -v: there the check is skipped, and the release build runs it.  So
# is it under an emulator (the cross builds' TX_TEST_EMULATOR), where the limit would measure
# qemu-user's own address space.
LIMIT_KB=262144
if [ -z "${TX_TEST_EMULATOR:-}" ] && bash -c "ulimit -v $LIMIT_KB; \"\$0\" --version; exit \$?" "$TX" >/dev/null 2>&1; then
    big=$TX_TMP/big.bin
    truncate -s 1G "$big"
    printf '\x12\x34' | dd of="$big" bs=1 seek=4000 conv=notrunc 2>/dev/null
    printf '\xab\xcd' | dd of="$big" bs=1 seek=$((1024 * 1024 * 1024 - 2)) conv=notrunc 2>/dev/null
    checker='
import sys, numpy as np
f = sys.stdin.buffer
ver = np.lib.format.read_magic(f)
shape, fortran, dt = np.lib.format._read_array_header(f, ver)
total, hits = 0, []
while True:
    b = f.read(1 << 24)
    if not b: break
    a = np.frombuffer(b, dtype=dt)
    hits += [(total + int(i), int(a[i]) if dt.kind != "f" else float(a[i])) for i in np.nonzero(a)[0]]
    total += len(a)
print(shape, dt, total, hits)'
    expect_pipe "ulimit: decode_raw 1 GiB under 256 MiB" \
        "(536870912,) int16 536870912 [(2000, 4660), (536870911, -21555)]" \
        bash -c "(ulimit -v $LIMIT_KB; exec '$TX' decode_raw input_bytes=@'$big' out_type=int16 little_endian=false -o -) | $PY -c '$checker'"
    check "ulimit: the normal path cannot" bash -c "! (ulimit -v $LIMIT_KB; TENSORX_STREAM_MIN_BYTES=99999999999 exec '$TX' decode_raw input_bytes=@'$big' out_type=int16 -o /dev/null) 2>/dev/null"
    $PY -c "
import numpy as np
a = np.lib.format.open_memmap('$TX_TMP/bigf.npy', mode='w+', dtype='>f4', shape=(1 << 18, 1 << 10))
a[5, 7] = 3.5; a[-1, -1] = -2.25; a.flush()"
    expect_pipe "ulimit: cast of a 1 GiB big-endian .npy" \
        "(262144, 1024) float16 268435456 [(5127, 3.5), (268435455, -2.25)]" \
        bash -c "(ulimit -v $LIMIT_KB; exec '$TX' cast x='$TX_TMP/bigf.npy' dtype=float16 -o -) | $PY -c '$checker'"
    expect_pipe "ulimit: bitcast of a 1 GiB .npy" \
        "(262144, 1024, 2) int16 536870912 [(10255, 16480), (536870911, -16368)]" \
        bash -c "(ulimit -v $LIMIT_KB; exec '$TX' bitcast input='$TX_TMP/bigf.npy' type=int16 -o -) | $PY -c '$checker'"
    rm -f "$big" "$TX_TMP/bigf.npy"
else
    echo "note: ulimit -v checks skipped (this build cannot run under ulimit -v: sanitizers or an emulator)"
fi

# ---- progress ----
export TENSORX_PROGRESS_DELAY=0
"$TX" transpose a='[[1,2],[3,4]]' perm=1,0 -o "$TX_TMP/p.npy" 2>"$TX_TMP/p.err"
check "progress: none when stderr is not a terminal" test ! -s "$TX_TMP/p.err"
TENSORX_STREAM_MIN_BYTES=0 "$TX" decode_raw input_bytes=@"$DATA/sensor_be.bin" out_type=int16 -o "$TX_TMP/p.npy" 2>"$TX_TMP/p.err"
check "progress: none when streaming to a non-terminal" test ! -s "$TX_TMP/p.err"
if command -v script >/dev/null; then
    script -qc "'$TX' transpose a='[[1,2],[3,4]]' perm=1,0 -o '$TX_TMP/p.npy'" /dev/null >"$TX_TMP/tty.out" 2>&1
    check "progress: a bar on a terminal" grep -q "tensorx transpose \[" "$TX_TMP/tty.out"
    TENSORX_STREAM_MIN_BYTES=0 script -qc "'$TX' decode_raw input_bytes=@'$DATA/sensor_be.bin' out_type=int16 -o '$TX_TMP/p.npy'" /dev/null >"$TX_TMP/tty.out" 2>&1
    check "progress: a percentage when streaming" grep -q "tensorx decode_raw \[.*%" "$TX_TMP/tty.out"
    TENSORX_NO_PROGRESS=1 script -qc "'$TX' transpose a='[[1,2],[3,4]]' perm=1,0 -o '$TX_TMP/p.npy'" /dev/null >"$TX_TMP/tty.out" 2>&1
    check "progress: TENSORX_NO_PROGRESS" test ! -s "$TX_TMP/tty.out"
    unset TENSORX_PROGRESS_DELAY
    script -qc "'$TX' transpose a='[[1,2],[3,4]]' perm=1,0 -o '$TX_TMP/p.npy'" /dev/null >"$TX_TMP/tty.out" 2>&1
    check "progress: none for work under a second" test ! -s "$TX_TMP/tty.out"
    script -qc "'$TX' cast x='[1,2]' dtype=int8 -o -" /dev/null >"$TX_TMP/tty.out" 2>&1
    check "-o - refuses a terminal" grep -q "refusing to write .npy data to a terminal" "$TX_TMP/tty.out"
fi
unset TENSORX_PROGRESS_DELAY

finish
