#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# usage.sh -- the CLI as a Unix tool: usage errors exit 2 and say "usage:" (with the nearest op,
# argument or option), operation and file failures exit 1; help OP; info -; file errors with the
# system's reason; empty stdin in a pipe; the tensor cap (--max-bytes, TENSORX_MAX_BYTES, the
# default); the hint for a scalar given where a vector is needed.
source "$(dirname "$0")/lib.sh"

# expect_no NAME FRAGMENT -- ARGS...: fails (any status), and stderr lacks FRAGMENT
expect_no() {
    local name=$1 fragment=$2
    shift 3
    if "$TX" "$@" >/dev/null 2>"$TX_TMP/err" || grep -qF -- "$fragment" "$TX_TMP/err"; then
        TX_FAILED=$((TX_FAILED + 1))
        printf 'FAIL %s: want a failure without "%s"\n--- stderr\n%s\n' "$name" "$fragment" "$(cat "$TX_TMP/err")"
    else
        TX_PASSED=$((TX_PASSED + 1))
    fi
}

# ---- usage errors: exit 2, "usage:", the nearest name ----
expect_fail unknown_op usage "unknown op or command 'reshap'; did you mean 'reshape'?" -- reshap tensor=[1] shape=[1]
expect_fail unknown_op_swap usage "did you mean 'transpose'?" -- tranpsose a=[1]
expect_fail unknown_op_case usage "did you mean 'one_hot'?" -- One_Hot indices=[1] depth=2
expect_fail unknown_op_far usage "unknown op or command 'frobnicate'" -- frobnicate
expect_no unknown_op_far_no_hint "did you mean" -- frobnicate
expect_fail unknown_option_first usage "unknown op or command '--frobnicate'" -- --frobnicate
expect_fail unknown_arg usage "unknown argument 'shap'; did you mean 'shape'?" -- reshape tensor=[1] shap=[1]
expect_fail unknown_arg_prefix usage "unknown argument 'out'; did you mean 'out_type'?" -- shape input=[1] out=int64
expect_fail unknown_arg_far usage "unknown argument 'zzzz' (tensorx reshape --help lists them)" -- reshape tensor=[1] shape=[1] zzzz=1
expect_no unknown_arg_far_no_hint "did you mean" -- reshape tensor=[1] shape=[1] zzzz=1
expect_fail malformed usage "expected name=value, got 'shape'" -- reshape tensor=[1] shape
expect_fail malformed_no_name usage "expected name=value, got '=[1]'" -- reshape tensor=[1] =[1]
expect_fail missing_arg usage "missing required argument 'shape'" -- reshape tensor=[1]
expect_fail twice usage "argument 'shape' given twice" -- reshape tensor=[1] shape=[1] shape=[1]
expect_fail bad_option usage "unknown option '--plna'; did you mean '--plan'?" -- reshape tensor=[1] shape=[1] --plna
expect_fail o_without_file usage "-o needs a file name" -- reshape tensor=[1] shape=[1] -o
expect_fail o_count usage "2 -o given for 1 outputs" -- reshape tensor=[1] shape=[1] -o "$TX_TMP/a.npy" -o "$TX_TMP/b.npy"
expect_fail info_args usage "tensorx info FILE|- takes one file" -- info
expect_fail help_unknown usage "did you mean 'gather_nd'?" -- help gathr_nd
expect_fail conform_option usage "unknown option '--bogus'" -- conform --bogus
expect_fail conform_nothing usage "tensorx conform [--plan] [--prepared] FILE.json|DIR" -- conform --plan --prepared
check "no command: exit 2 with the usage" bash -c "'$TX' >/dev/null 2>'$TX_TMP/u.err'; [ \$? -eq 2 ] && grep -q '^usage:' '$TX_TMP/u.err'"
# A value that does not parse is the op's argument error, not usage: exit 1.
expect_fail bad_value invalid_argument "argument 'axis': axis: 'x' is not an integer" -- gather params=[1] indices=[0] axis=x

# ---- help OP is OP --help ----
"$TX" help | sed -n '/^ops:/,$p' | awk 'NR > 1 {print $1}' >"$TX_TMP/ops"
check "help lists ops" test "$(wc -l <"$TX_TMP/ops")" -ge 50
while read -r op; do
    "$TX" help "$op" >"$TX_TMP/h1" 2>&1 && "$TX" "$op" --help >"$TX_TMP/h2" 2>&1 &&
        cmp -s "$TX_TMP/h1" "$TX_TMP/h2" && grep -q "^tensorx $op -- " "$TX_TMP/h1" ||
        { echo "FAIL help $op differs from $op --help"; TX_FAILED=$((TX_FAILED + 1)); continue; }
    TX_PASSED=$((TX_PASSED + 1))
done <"$TX_TMP/ops"
expect "--help beats a bad argument" "$("$TX" reshape --help)" -- reshape bogus --help

# ---- info - ----
INFO='dtype: int32
shape: [3, 2]
size: 6 elements, 24 bytes
array([[1, 4],
       [2, 5],
       [3, 6]], dtype=int32)'
check "info - from a pipe" bash -c "[ \"\$('$TX' transpose a=[[1,2,3],[4,5,6]] -o - | '$TX' info -)\" = \"\$1\" ]" _ "$INFO"
"$TX" transpose a=[[1,2,3],[4,5,6]] -o "$TX_TMP/t.npy"
expect "info FILE" "$INFO" -- info "$TX_TMP/t.npy"

# ---- file errors: io_error, exit 1, the system's reason ----
if [ -w /dev/full ]; then
    expect_fail dev_full io_error "cannot write '/dev/full': No space left on device" -- cast x=[1,2] dtype=int8 -o /dev/full
    check "/dev/full is left alone" test -c /dev/full
fi
expect_fail write_into_missing_dir io_error "cannot write '$TX_TMP/no/x.npy': No such file or directory" -- cast x=[1] dtype=int8 -o "$TX_TMP/no/x.npy"
expect_fail write_to_dir io_error "cannot write '$TX_TMP': Is a directory" -- cast x=[1] dtype=int8 -o "$TX_TMP"
mkdir "$TX_TMP/dir.npy"
expect_fail read_dir_info io_error "cannot read '$TX_TMP': Is a directory" -- info "$TX_TMP"
expect_fail read_dir_arg io_error "argument 'a': cannot read '$TX_TMP/dir.npy': Is a directory" -- transpose a="$TX_TMP/dir.npy"
expect_fail read_dir_raw io_error "cannot read '$TX_TMP': Is a directory" -- decode_raw input_bytes=@"$TX_TMP" out_type=uint8
expect_fail missing_file io_error "cannot read '$TX_TMP/nope.npy': No such file or directory" -- transpose a="$TX_TMP/nope.npy"
expect_fail missing_file_info io_error "cannot read '$TX_TMP/nope.npy': No such file or directory" -- info "$TX_TMP/nope.npy"
expect_fail missing_raw io_error "cannot read '$TX_TMP/nope.bin': No such file or directory" -- decode_raw input_bytes=@"$TX_TMP/nope.bin" out_type=uint8
check "a file error is not invalid_argument" bash -c "! '$TX' info '$TX_TMP/nope.npy' 2>&1 | grep -q invalid_argument"
# A malformed .npy is the data's fault: invalid_argument, as before.
printf 'not numpy' >"$TX_TMP/bad.npy"
expect_fail bad_npy invalid_argument "not a .npy file" -- info "$TX_TMP/bad.npy"

# ---- empty stdin: the previous stage failed ----
expect_fail empty_stdin io_error "no input on stdin (did the previous command fail?)" -- transpose a=- </dev/null
expect_fail empty_stdin_info io_error "no input on stdin (did the previous command fail?)" -- info - </dev/null
check "a failed first stage" bash -c "'$TX' reshape tensor=[1,2] shape=[3] -o - 2>/dev/null | '$TX' transpose a=- 2>'$TX_TMP/p.err'; [ \$? -eq 1 ] && grep -q 'no input on stdin (did the previous command fail?)' '$TX_TMP/p.err'"
# decode_raw's @- takes the bytes as they are: empty stdin is an empty string.
expect "@- empty is an empty string" "array([], dtype=uint8)" -- decode_raw input_bytes=@- out_type=uint8 </dev/null

# ---- the tensor cap ----
# one_hot's output here is [2, 2147483647] float32, 17179869176 bytes: refused before allocating,
# naming its size and the cap.  Under a 1 GiB address-space limit an allocation attempt would fail
# differently ("out of memory"), so these also show that nothing was allocated.
HUGE="tensor of 17179869176 bytes exceeds the limit of 1073741824 bytes"
expect_fail cap_option resource_exhausted "$HUGE" -- one_hot indices=[1,2] depth=2147483647 --max-bytes 1G
expect_fail cap_option_eq resource_exhausted "$HUGE" -- --max-bytes=1073741824 one_hot indices=[1,2] depth=2147483647
TENSORX_MAX_BYTES=1G expect_fail cap_env resource_exhausted "$HUGE" -- one_hot indices=[1,2] depth=2147483647
TENSORX_MAX_BYTES=1G expect_fail cap_option_beats_env resource_exhausted "limit of 67108864 bytes" -- one_hot indices=[1,2] depth=2147483647 --max-bytes 64M
expect_fail cap_names_its_flags resource_exhausted "(the cap: --max-bytes or TENSORX_MAX_BYTES)" -- one_hot indices=[1,2] depth=2147483647 --max-bytes 64MiB
expect_fail cap_plan resource_exhausted "$HUGE" -- one_hot indices=[1,2] depth=2147483647 --max-bytes 1G --plan
expect_fail cap_literal resource_exhausted "exceeds the limit of 8 bytes" -- reshape tensor=[1,2,3] shape=[3] --max-bytes 8
expect "cap: a tensor at the cap" "array([1, 2], dtype=int32)" -- reshape tensor=[1,2] shape=[2] --max-bytes 8
expect "cap: 0 lifts it" "output 0: float32 [2, 2147483647], 4294967294 elements, 17179869176 bytes
new bytes: 17179869176" -- one_hot indices=[1,2] depth=2147483647 --max-bytes 0 --plan
expect_fail cap_bad_option usage "--max-bytes: '12x' is not a byte count" -- one_hot indices=[1] depth=2 --max-bytes 12x
expect_fail cap_no_value usage "--max-bytes needs a size" -- one_hot indices=[1] depth=2 --max-bytes
TENSORX_MAX_BYTES=lots expect_fail cap_bad_env usage "TENSORX_MAX_BYTES: 'lots' is not a byte count" -- one_hot indices=[1] depth=2
check "cap: a file named --max-bytes after -o is a file" bash -c "cd '$TX_TMP' && '$TX' cast x=[1] dtype=int8 -o --max-bytes && test -s ./--max-bytes"
# Streaming keeps its windows and their results within the cap (int8 -> complex128 grows 16x).
head -c 3000 /dev/urandom >"$TX_TMP/r3000.bin"
"$TX" decode_raw input_bytes=@"$TX_TMP/r3000.bin" out_type=int8 -o "$TX_TMP/s8.npy"
"$TX" cast x="$TX_TMP/s8.npy" dtype=complex128 -o "$TX_TMP/c_whole.npy"
check "cap: streaming within a 1K cap" bash -c "TENSORX_STREAM_MIN_BYTES=0 '$TX' cast x='$TX_TMP/s8.npy' dtype=complex128 -o '$TX_TMP/c_stream.npy' --max-bytes 1K && cmp '$TX_TMP/c_whole.npy' '$TX_TMP/c_stream.npy'"
check "cap: decode_raw streaming within a 100-byte cap" bash -c "TENSORX_STREAM_MIN_BYTES=0 '$TX' decode_raw input_bytes=@'$TX_TMP/r3000.bin' out_type=int32 -o '$TX_TMP/d_stream.npy' --max-bytes 100 && '$TX' decode_raw input_bytes=@'$TX_TMP/r3000.bin' out_type=int32 -o '$TX_TMP/d_whole.npy' && cmp '$TX_TMP/d_whole.npy' '$TX_TMP/d_stream.npy'"
expect_fail cap_not_streamed resource_exhausted "npy: tensor of 3000 bytes exceeds the limit of 1024 bytes" -- cast x="$TX_TMP/s8.npy" dtype=complex128 -o "$TX_TMP/x.npy" --max-bytes 1K
check "cap: info maps a big file whatever the cap" bash -c "TENSORX_STREAM_MIN_BYTES=0 '$TX' info '$TX_TMP/s8.npy' --max-bytes 100 | grep -qx 'size: 3000 elements, 3000 bytes'"
# The default: half of physical memory (getconf reads what sysconf reads).
half=$(( $(getconf _PHYS_PAGES) / 2 * $(getconf PAGE_SIZE) ))
depth=$(( half / 128 + 1 )) # 16 float64 rows of `depth`: just over the default cap
if [ "$depth" -le 2147483647 ]; then
    expect_fail cap_default resource_exhausted "exceeds the limit of $half bytes" -- \
        one_hot indices=[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0] depth=$depth dtype=float64 --plan
fi
LIMIT_KB=1048576
if bash -c "ulimit -v $LIMIT_KB; \"\$0\" --version; exit \$?" "$TX" >/dev/null 2>&1; then
    hows=("--max-bytes 1G" "TENSORX_MAX_BYTES=1G")
    [ "$half" -lt 17179869176 ] && hows+=(default) # the default cap refuses it on this machine too
    for how in "${hows[@]}"; do
        case $how in
        --*) cmd="'$TX' one_hot indices=[1,2] depth=2147483647 $how" ;;
        TENSORX*) cmd="$how '$TX' one_hot indices=[1,2] depth=2147483647" ;;
        *) cmd="'$TX' one_hot indices=[1,2] depth=2147483647" ;;
        esac
        check "ulimit 1 GiB: one_hot refused before allocating ($how)" bash -c "
            (ulimit -v $LIMIT_KB; eval \"\$1\") >/dev/null 2>'$TX_TMP/cap.err'
            rc=\$?; cat '$TX_TMP/cap.err'
            [ \$rc -eq 1 ] && grep -q 'resource_exhausted: one_hot: tensor of 17179869176 bytes exceeds the limit of' '$TX_TMP/cap.err'" _ "$cmd"
    done
else
    echo "note: ulimit -v checks skipped (this build cannot start under ulimit -v: sanitizers)"
fi

# ---- a scalar where a vector is needed: TF's error stays, the message shows the vector ----
# (TF 2.21 decides: Reshape takes a scalar shape as a one-entry vector, Tile refuses a scalar multiples)
expect_fail vec_tile1 invalid_argument "tile: expected multiples argument to be a vector of length 1 (the rank of input) but got 1 entries (rank 0) (write multiples=[2] for a vector)" -- tile input=[1,2,3,4] multiples=2
expect_fail vec_dtype invalid_argument "(write multiples=[2]:int64 for a vector)" -- tile input=[1,2,3,4] multiples=2:int64
expect_fail vec_perm invalid_argument "(write perm=[0] for a vector)" -- transpose a=[1,2] perm=0
expect_fail vec_slice invalid_argument "(write begin=[1] size=[1] for vectors)" -- slice input_=[1,2] begin=1 size=1
expect_fail vec_strided invalid_argument "(write begin=[0] end=[1] strides=[1] for vectors)" -- strided_slice input_=[1,2] begin=0 end=1 strides=1
expect_fail vec_tile invalid_argument "(write multiples=[2] for a vector)" -- tile input=[[1,2]] multiples=2
expect_fail vec_block_shape invalid_argument "(write block_shape=[1] for a vector)" -- space_to_batch_nd input=[[[1]]] block_shape=1 paddings=[[0,0]]
expect_fail vec_seq_lengths invalid_argument "(write seq_lengths=[1] for a vector)" -- reverse_sequence input=[[1,2]] seq_lengths=1 seq_dim=1
expect_fail vec_plan invalid_argument "(write multiples=[2] for a vector)" -- tile input=[1,2,3,4] multiples=2 --plan
# No hint where a vector would not do (a matrix, a 4-D image), or where the rank was not the fault.
expect_no vec_not_matrix "for a vector" -- pad tensor=[1,2] paddings=1
expect_no vec_not_4d "for a vector" -- extract_image_patches images=5 ksizes=1,1,1,1 strides=1,1,1,1 rates=1,1,1,1 padding=VALID
expect_no vec_not_bracketed "for a vector" -- reshape tensor=[1,2,3] shape=[4]
expect_no vec_other_error "for a vector" -- one_hot indices=5 depth=-1
finish
