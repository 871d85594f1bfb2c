#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# make_seeds.sh BUILD_DIR -- regenerates the seed corpora in fuzz/corpora/ from a build (any build
# type with tests; the corpora do not depend on it):
#   ops/   every call of tests/unit/op_examples.h (fuzz_mkseed --examples) and of the CLI golden
#          tests (tests/cli/*.sh run with TX pointing at fuzz_mkseed), in opcodec.h's encoding
#   ops_diff/  every call of tests/unit/op_examples.h unscaled and scaled up (opcodec.h's flags),
#          and each op's first call with every dtype attribute value; the differential fuzzer also
#          reads ops/
#   args/  the argument texts of those calls, plus a few JSON documents and whole command lines
#          for the CLI (cli-*)
#   npy/   .npy files made by NumPy (every dtype, orders, versions) and broken ones
#   decode/, string_pack/, string_layout/, dlpack/  hand-made inputs in those targets' layouts
# Files named crash-* (reproducers of crashes found by fuzzing) are kept; everything else is
# remade.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=$(cd "${1:?usage: fuzz/make_seeds.sh BUILD_DIR}" && pwd)
mk=$build/tests/fuzz/fuzz_mkseed
corp=$here/corpora
for t in ops ops_diff args npy decode string_pack string_layout dlpack; do
  mkdir -p "$corp/$t"
  find "$corp/$t" -type f ! -name 'crash-*' -delete
done

FZ_OPS_DIFF_DIR=$corp/ops_diff FZ_OPS_DIR=$corp/ops FZ_ARGS_DIR=$corp/args "$mk" --examples </dev/null
export FZ_OPS_DIR=$corp/ops FZ_ARGS_DIR=$corp/args
for t in "$root"/tests/cli/*.sh; do
  [ "$(basename "$t")" = lib.sh ] && continue
  TX=$mk bash "$t" </dev/null >/dev/null 2>&1 || true
done

# args: whole command lines through the CLI (mode 9): cli-NAME, named by what they do.
cli() { FZ_ARGS_DIR=$corp/args "$mk" --cli "$@"; }
cli plan tile 'input=[[1,2],[3,4]]' 'multiples=[2,1]' --plan
cli plan-json reshape 'tensor=[1,2,3,4,5,6]' 'shape=[3,2]' --plan=json
cli print-outputs split 'value=[[1,2,3,4],[5,6,7,8]]' split_dim=1 num_split=2
cli output-over-max-bytes tile 'input=[1,2,3,4]' 'multiples=[1000]' -o out.npy --max-bytes 1K
cli output-count-mismatch split 'value=[1,2,3,4]' split_dim=0 num_split=2 -o a.npy
cli usage-unknown-argument tile 'input=[1]' 'multiplez=[2]'
cli usage-max-bytes-not-a-size tile 'input=[1]' 'multiples=[2]' --max-bytes=lots
cli help-op pad --help
cli scalar-for-vector-hint reshape 'tensor=[1,2,3,4]' shape=4 -o -

/usr/bin/python3 - "$corp" <<'EOF'
import io, os, struct, sys
import numpy as np
corp = sys.argv[1]

def put(sub, name, data):
    with open(os.path.join(corp, sub, name), 'wb') as f:
        f.write(data)

def npy(a, version=None):
    b = io.BytesIO()
    if version:
        np.lib.format.write_array(b, a, version=version)
    else:
        np.save(b, a)
    return b.getvalue()

arrays = {
    'f32': np.arange(6, dtype='<f4').reshape(2, 3),
    'f64-fortran': np.asfortranarray(np.arange(6, dtype='<f8').reshape(2, 3)),
    'i64-scalar': np.array(-7, dtype='<i8'),
    'u8-empty': np.zeros((0, 3), dtype='u1'),
    'bool': np.array([[True, False], [False, True]]),
    'c64': np.array([1 + 2j, -3.5j], dtype='<c8'),
    'c128-be': np.array([1 + 2j], dtype='>c16'),
    'f16': np.array([1.5, -0.0, np.inf, np.nan], dtype='<f2'),
    'i32-be': np.array([1, -2, 3], dtype='>i4'),
    'u16-3d': np.arange(24, dtype='<u2').reshape(2, 3, 4),
    'u64-fortran-be': np.asfortranarray(np.arange(6, dtype='>u8').reshape(3, 2)),
    'i8': np.array([-128, 0, 127], dtype='i1'),
    'bytes': np.array([b'Intel', b'', b'Open\x00VINO'], dtype='S9'),
    'unicode': np.array([['a', '\u00e9'], ['\U0001f600', '']], dtype='<U2'),
    'unicode-be': np.array(['xyz'], dtype='>U3'),
    'bf16-struct': np.array([0x3f80, 0xc000], dtype='<u2').view([('bfloat16', '<u2')]),
    'qint8-struct': np.array([1, -1], dtype='i1').view([('qint8', '|i1')]),
    'rank6-zero': np.zeros((1, 2, 0, 1, 3, 1), dtype='<i2'),
}
for name, a in arrays.items():
    put('npy', name + '.npy', npy(a))
put('npy', 'v2-f32.npy', npy(np.arange(3, dtype='<f4'), version=(2, 0)))
v3 = npy(np.array(['\u00e9t\u00e9'], dtype='<U3'), version=(3, 0))
put('npy', 'v3-unicode.npy', v3)
good = npy(np.arange(4, dtype='<i4'))
put('npy', 'bad-truncated.npy', good[:-3])
put('npy', 'bad-magic.npy', b'\x93NUMPX' + good[6:])
put('npy', 'bad-header-len.npy', good[:8] + b'\xff\xff' + good[10:])
put('npy', 'bad-shape-lies.npy', good.replace(b'(4,)', b'(9,)'))
put('npy', 'bad-huge-shape.npy', good.replace(b"(4,)", b"(4611686018427387904, 4)"))
put('npy', 'bad-negative-dim.npy', good.replace(b"(4,)", b"(-4,)"))
put('npy', 'bad-descr.npy', good.replace(b"'<i4'", b"'<i3'"))
put('npy', 'bad-object.npy', good.replace(b"'<i4'", b"'|O8'"))
put('npy', 'empty.npy', b'')

# args: JSON documents (kind byte 7, then a padding byte).
for i, doc in enumerate([
        b'{"op": "tile", "args": {"input": {"dtype": "int32", "shape": [2], "data": [1, 2]}, "multiples": [2]}}',
        b'[1, -2.5e300, "a\\u00e9\\ud83d\\ude00", true, false, null, {"k": [[], {}]}]',
        b'{"x": "\\u0000\\n\\t", "y": 1e999, "z": -0}',
        b'[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]']):
    put('args', 'json-%d' % i, b'\x07\x00' + doc)

# decode: out_type index, flags, [fixed_length], then length-prefixed strings.
def strings(*ss):
    return b''.join(bytes([len(s)]) + s for s in ss)
put('decode', 'i32-le', bytes([2, 0b00000011 & 1 | (1 << 5)]) + strings(b'\x01\x00\x00\x00\xff\xff\xff\xff', b'abcdefgh'))
put('decode', 'f16-be', bytes([18, 0 | (1 << 5)]) + strings(b'\x3c\x00\xc0\x00'))
put('decode', 'c64-matrix', bytes([7, 1 | (2 << 5)]) + strings(b'A' * 8, b'B' * 8, b'C' * 8, b'D' * 8))
put('decode', 'fixed-padded', bytes([8, 1 | 2 | (1 << 5)]) + bytes([0x70 + 8]) + strings(b'abc', b'', b'0123456789'))
put('decode', 'fixed-bad', bytes([3, 2 | (1 << 5)]) + bytes([0x70 - 3]) + strings(b'abc'))
put('decode', 'unequal', bytes([4, 1 | (1 << 5)]) + strings(b'ab', b'abcd'))
put('decode', 'numbers-f32', bytes([3, 1 | (0 << 2) | (1 << 5)]) + strings(b'1.5', b' -inf ', b'0x1F', b'nan', b'1e40', b'abc'))
put('decode', 'numbers-i64', bytes([3, 1 | (3 << 2) | (1 << 5)]) + strings(b'9223372036854775807', b'-9223372036854775808', b' 12 '))
put('decode', 'numbers-i32-overflow', bytes([3, 1 | (2 << 2) | (1 << 5)]) + strings(b'2147483648'))
put('decode', 'numbers-f64-long', bytes([3, 1 | (1 << 2) | (1 << 5)]) + strings(b'1' * 40, b'0.' + b'0' * 30 + b'1'))
put('decode', 'scalar-bool', bytes([9, 1]) + strings(b'\x00\x01\x02'))
put('decode', 'zero-size', bytes([0, 1 | (3 << 5)]) + strings(b'abcd'))
put('decode', 'bf16', bytes([13, 1 | (1 << 5)]) + strings(b'\x80\x3f'))

# string_pack: flags, n, begins, ends (fz_int: one byte v + 0x70), symbols.
def ints(*vs):
    return bytes(v + 0x70 for v in vs)
put('string_pack', 'intel', bytes([0, 2]) + ints(0, 5) + ints(5, 13) + b'IntelOpenVINO')
put('string_pack', 'i64-matrix', bytes([1 | (1 << 2), 4]) + ints(0, 1, 2, 2) + ints(1, 2, 2, 4) + b'ABCD')
put('string_pack', 'scalar', bytes([2 << 2, 1]) + ints(1) + ints(3) + b'xyz')
put('string_pack', 'overlap-empty', bytes([0, 3]) + ints(0, 0, 3) + ints(4, 0, 4) + b'abcd')
put('string_pack', 'end-past', bytes([0, 1]) + ints(0) + ints(9) + b'abc')
put('string_pack', 'negative-begin', bytes([0, 1]) + ints(-1) + ints(1) + b'abc')
put('string_pack', 'begin-after-end', bytes([0, 1]) + ints(2) + ints(1) + b'abc')
put('string_pack', 'mixed-dtypes', bytes([2, 1]) + ints(0) + ints(1) + b'a')
put('string_pack', 'shape-mismatch', bytes([3 << 2, 2]) + ints(0, 1) + ints(1, 2, 3) + b'abc')
put('string_pack', 'symbols-int8', bytes([16, 1]) + ints(0) + ints(1) + b'a')
put('string_pack', 'symbols-2d', bytes([32, 1]) + ints(0) + ints(1) + b'a')
put('string_pack', 'huge-end', bytes([1, 1]) + ints(0) + bytes([0xE3]) + b'a')

# string_layout: flags (bit 0 ORT, bit 1 int64 offsets / VIEW round trip, bits 2-3 shape), n,
# then TF_TString records (24 bytes each) and their OFFSET bytes, or ORT offsets (fz_int) and content.
import struct
def small(b):
    return bytes([len(b) << 2]) + b + bytes(23 - len(b))
def offset_rec(size, off):
    return struct.pack('<III', size << 2 | 2, off, 0) + bytes(12)
long = b'0123456789abcdefghijklmnopqrstuvwxyz'
put('string_layout', 'tf-small-offset', bytes([0, 2]) + small(b'hi') + offset_rec(len(long), 24) + long)
put('string_layout', 'tf-nul-bytes', bytes([2, 3]) + small(b'\0') + small(b'') + small(b'a\0b' * 5))
put('string_layout', 'tf-matrix', bytes([1 << 2, 4]) + small(b'a') + small(b'bc') + offset_rec(3, 48) + small(b'') + b'xyz')
put('string_layout', 'tf-scalar-22', bytes([2 << 2, 0]) + small(b'x' * 22))
put('string_layout', 'tf-small-23', bytes([0, 1]) + bytes([23 << 2]) + bytes(23))
put('string_layout', 'tf-offset-past', bytes([0, 1]) + offset_rec(10, 24) + b'short')
put('string_layout', 'tf-offset-wrap', bytes([0, 1]) + offset_rec(1, 0xffffffff))
put('string_layout', 'tf-view-pointer', bytes([0, 1]) + struct.pack('<QQ', 5 << 2 | 3, 0x1000) + bytes(8))
put('string_layout', 'tf-large-pointer', bytes([0, 1]) + struct.pack('<QQQ', 5 << 2 | 1, 16, 0x1000))
put('string_layout', 'tf-short', bytes([0, 3]) + small(b'a'))
put('string_layout', 'tf-fewer-elements', bytes([3 << 2, 2]) + small(b'a') + small(b'b'))
put('string_layout', 'ort-basic', bytes([1, 3]) + ints(0, 2, 2) + b'abcde')
put('string_layout', 'ort-int64-matrix', bytes([1 | 2 | (1 << 2), 4]) + ints(0, 1, 1, 3) + b'a\0cd')
put('string_layout', 'ort-scalar', bytes([1 | (2 << 2), 0]) + ints(0) + b'whole')
put('string_layout', 'ort-first-not-zero', bytes([1, 2]) + ints(1, 2) + b'abc')
put('string_layout', 'ort-decreasing', bytes([1, 3]) + ints(0, 3, 2) + b'abcd')
put('string_layout', 'ort-past', bytes([1, 2]) + ints(0, 9) + b'abc')
put('string_layout', 'ort-negative', bytes([1 | 2, 2]) + ints(0, -1) + b'abc')
put('string_layout', 'ort-huge', bytes([1, 2]) + bytes([0x70, 0xE3]) + b'abc')
put('string_layout', 'ort-empty', bytes([1, 0]))

# dlpack: ndim, type index, flags, extra offset, shape (fz_dim), strides (fz_int), memory bytes.
def dims(*vs):
    return bytes(vs)
mem = bytes(range(1, 200))
put('dlpack', 'f32-2x3-rowmajor', bytes([2, 10, 2, 0]) + dims(2, 3) + ints(0, 0) + mem)
put('dlpack', 'f32-2x3-strides', bytes([2, 10, 0, 0]) + dims(2, 3) + ints(3, 1) + mem)
put('dlpack', 'i16-transposed', bytes([2, 2, 0, 4]) + dims(3, 2) + ints(1, 3) + mem)
put('dlpack', 'u8-negative-strides', bytes([2, 5, 0, 0]) + dims(2, 4) + ints(-4, -1) + mem)
put('dlpack', 'i64-broadcast-zero-stride', bytes([2, 4, 0, 0]) + dims(3, 2) + ints(0, 1) + mem)
put('dlpack', 'bool-nonbinary', bytes([1, 0, 2, 0]) + dims(5) + ints(0) + bytes([0, 1, 2, 255, 1]))
put('dlpack', 'c128-misaligned', bytes([1, 14, 64, 1]) + dims(2) + ints(1) + mem)
put('dlpack', 'f16-scalar', bytes([0, 9, 0, 0]) + mem)
put('dlpack', 'zero-size-huge-strides', bytes([3, 3, 0, 0]) + dims(4, 0, 7) + bytes([0xE3, 0xE2, 0xE0]))
put('dlpack', 'overflowing-strides', bytes([2, 11, 0, 0]) + dims(3, 2) + bytes([0xE3]) + ints(1) + mem)
put('dlpack', 'ndim-255', bytes([0xF1, 10, 0, 0]))
put('dlpack', 'ndim-negative', bytes([0xF0, 10, 0, 0]))
put('dlpack', 'gpu', bytes([1, 10, 16, 0]) + dims(2) + ints(1) + mem)
put('dlpack', 'lanes-2', bytes([1, 10, 8, 0]) + dims(2) + ints(1) + mem)
put('dlpack', 'null-data', bytes([1, 10, 4, 0]) + dims(2) + ints(1))
put('dlpack', 'null-shape', bytes([1, 10, 1, 0]) + dims(2) + ints(1))
put('dlpack', 'unknown-type', bytes([1, 15, 0, 0]) + dims(2) + ints(1) + mem)
put('dlpack', 'bf16-no-deleter', bytes([1, 12, 32 | 2, 0]) + dims(3) + ints(0) + mem)
# flag 128: a DLManagedTensorVersioned marked read-only (in place, copied, bool fixed up, refused)
put('dlpack', 'read-only-f32-2x3-rowmajor', bytes([2, 10, 128 | 2, 0]) + dims(2, 3) + ints(0, 0) + mem)
put('dlpack', 'read-only-i16-transposed', bytes([2, 2, 128, 4]) + dims(3, 2) + ints(1, 3) + mem)
put('dlpack', 'read-only-bool-nonbinary', bytes([1, 0, 128 | 2, 0]) + dims(5) + ints(0) + bytes([0, 1, 2, 255, 1]))
put('dlpack', 'read-only-gpu', bytes([1, 10, 128 | 16, 0]) + dims(2) + ints(1) + mem)
put('dlpack', 'read-only-no-deleter', bytes([1, 12, 128 | 32 | 2, 0]) + dims(3) + ints(0) + mem)
# DLPack 1.1's types (indices 21-26): float8_e5m2, and the sub-byte ones packed in the
# unversioned struct (odd counts, transposed, backwards, broadcast) and padded in the versioned one
put('dlpack', 'f8e5m2-rowmajor', bytes([1, 21, 2, 0]) + dims(5) + ints(0) + mem)
put('dlpack', 'f4-packed-odd', bytes([1, 22, 2, 0]) + dims(7) + ints(0) + mem)
put('dlpack', 'i2-packed-transposed', bytes([2, 26, 0, 0]) + dims(3, 5) + ints(1, 3) + mem)
put('dlpack', 'f6-packed-negative-strides', bytes([1, 25, 0, 1]) + dims(5) + ints(-1) + mem)
put('dlpack', 'u2-packed-broadcast', bytes([2, 24, 0, 0]) + dims(3, 4) + ints(0, 1) + mem)
put('dlpack', 'i4-padded-upper-bits', bytes([2, 23, 128 | 2, 0]) + dims(2, 3) + ints(0, 0) + bytes([0xF1, 2, 3, 4, 5, 6]))
put('dlpack', 'f4-padded-transposed', bytes([2, 22, 128, 0]) + dims(3, 2) + ints(1, 3) + mem)
EOF
for t in ops ops_diff args npy decode string_pack string_layout dlpack; do
  printf '%s: %s files\n' "$t" "$(find "$corp/$t" -type f | wc -l)"
done
