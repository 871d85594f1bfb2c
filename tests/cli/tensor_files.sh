#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tensor_files.sh -- tensor arguments read from the files of the frontend's format table
# (frontend/formats.c): FILE.safetensors[:NAME], FILE.npz[:NAME], FILE.idx, FILE.idx.gz and MNIST's -ubyte names,
# FILE.tfrecord[.gz], with paths and names holding ':' and '.', in tensor lists, and every error
# naming the file, the tensor and the rule; -o in those formats (all or none); `tensorx tfrecord`.
# The input files are written here from the formats' definitions (not by tensorx).
source "$(dirname "$0")/lib.sh"
T=$TX_TMP
/usr/bin/python3 - "$T" <<'PY'
import gzip, json, os, struct, sys
d = sys.argv[1]
def st(path, tensors):
    hdr, data = {}, b""
    for name, (dt, shape, raw) in tensors.items():
        hdr[name] = {"dtype": dt, "shape": shape, "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    h = json.dumps(hdr, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    open(os.path.join(d, path), "wb").write(struct.pack("<Q", len(h)) + h + data)
st("m.safetensors", {"w": ("F32", [2, 2], struct.pack("<4f", 1, 2, 3, 4)),
                     "b": ("I32", [3], struct.pack("<3i", 5, 6, 7)),
                     "layer.0:bias": ("I32", [2], struct.pack("<2i", -1, 1))})
os.makedirs(os.path.join(d, "a:b"))
st("a:b/one.safetensors", {"x": ("U8", [3], bytes([9, 8, 7]))})
open(os.path.join(d, "bad.safetensors"), "wb").write(struct.pack("<Q", 4) + b"{}xx")
idx = lambda code, dims, raw: bytes([0, 0, code, len(dims)]) + struct.pack(">%dI" % len(dims), *dims) + raw
open(os.path.join(d, "img.idx"), "wb").write(idx(8, [2, 3], bytes(range(6))))
open(os.path.join(d, "f.idx.gz"), "wb").write(gzip.compress(idx(0x0D, [2], struct.pack(">2f", 1.5, -2))))
open(os.path.join(d, "t10k-labels-idx1-ubyte"), "wb").write(idx(8, [3], bytes([7, 2, 1])))
open(os.path.join(d, "cut.idx"), "wb").write(idx(8, [5], b"ab"))
def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF
def masked(data):
    c = crc32c(data)
    return struct.pack("<I", (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF)
def record(data):
    n = struct.pack("<Q", len(data))
    return n + masked(n) + data + masked(data)
recs = b"".join(record(r) for r in (b"", b"a", b"hello world"))
open(os.path.join(d, "r.tfrecord"), "wb").write(recs)
open(os.path.join(d, "r.tfrecord.gz"), "wb").write(gzip.compress(recs))
open(os.path.join(d, "gz.bin"), "wb").write(gzip.compress(recs))
bad = bytearray(recs)
bad[-1] ^= 1
open(os.path.join(d, "bad.tfrecord"), "wb").write(bytes(bad))
import numpy as np
np.savez(os.path.join(d, "a.npz"), x=np.arange(6, dtype=np.float32).reshape(2, 3),
         y=np.array([1, 2], dtype=np.int64))
np.savez_compressed(os.path.join(d, "c.npz"), x=np.arange(4, dtype=np.int16))
PY

# A check of a compressed file: run with zlib; without it (a cross build with no target zlib, or
# TX_WITH_ZLIB=OFF) such input is refused, which npy_files.sh checks.
zlib_only() { if [ "$TX_ZLIB" = 1 ]; then "$@"; fi; }

# ---- safetensors ----
expect "a named tensor" $'array([[1.0, 3.0],\n       [2.0, 4.0]], dtype=float32)' -- \
    transpose a="$T/m.safetensors:w" perm=1,0
expect "a name holding ':' and '.'" $'array([[-1],\n       [1]], dtype=int32)' -- \
    reshape tensor="$T/m.safetensors:layer.0:bias" shape=2,1
expect "a path holding ':', its only tensor" 'array([[9, 8, 7]], dtype=uint8)' -- \
    reshape tensor="$T/a:b/one.safetensors" shape=1,3
expect "a path holding ':', a name" 'array([7, 8, 9], dtype=uint8)' -- \
    reverse tensor="$T/a:b/one.safetensors:x" axis=[0]
expect "a tensor list" 'array([5, 6, 7, -1, 1], dtype=int32)' -- \
    concat values="$T/m.safetensors:b,$T/m.safetensors:layer.0:bias" concat_dim=0
expect "a string literal is not a file" "array([[b'x.safetensors:w']], dtype=string)" -- \
    reshape tensor='["x.safetensors:w"]' shape=1,1
expect "plan" $'output 0: float32 [2, 2], 4 elements, 16 bytes\nnew bytes: 16' -- \
    transpose a="$T/m.safetensors:w" perm=0,1 --plan
expect_fail "no such tensor" invalid_argument \
    "argument 'a': no tensor 'zz' in $T/m.safetensors; it has: w, b, layer.0:bias" -- \
    transpose a="$T/m.safetensors:zz" perm=1,0
expect_fail "no name for several tensors" invalid_argument \
    "$T/m.safetensors holds 3 tensors: name one as $T/m.safetensors:NAME (it has: w, b, layer.0:bias)" -- \
    transpose a="$T/m.safetensors" perm=1,0
expect_fail "a missing file" io_error "cannot read '$T/no.safetensors': No such file or directory" -- \
    transpose a="$T/no.safetensors:w" perm=1,0
expect_fail "a broken header names the file" invalid_argument "$T/bad.safetensors" -- \
    transpose a="$T/bad.safetensors:w" perm=1,0
expect_fail "a literal is checked before the file is read" invalid_argument "argument 'perm'" -- \
    transpose a="$T/no.safetensors:w" perm=x

# ---- IDX ----
expect "IDX" $'array([[0, 3],\n       [1, 4],\n       [2, 5]], dtype=uint8)' -- \
    transpose a="$T/img.idx" perm=1,0
zlib_only expect "gzip'd IDX" 'array([-2.0, 1.5], dtype=float32)' -- reverse tensor="$T/f.idx.gz" axis=[0]
expect "MNIST's file name" 'array([7, 2, 1], dtype=int32)' -- cast x="$T/t10k-labels-idx1-ubyte" dtype=int32
expect_fail "a name for a one-tensor file" invalid_argument \
    "$T/img.idx holds one tensor (format idx), not one named 'x' (drop ':x')" -- \
    reshape tensor="$T/img.idx:x" shape=6
expect_fail "a truncated IDX file" data_loss "truncated" -- reshape tensor="$T/cut.idx" shape=5

# ---- .npz ----
expect "an array of np.savez's file" $'array([[0.0, 3.0],\n       [1.0, 4.0],\n       [2.0, 5.0]], dtype=float32)' -- \
    transpose a="$T/a.npz:x" perm=1,0
zlib_only expect "np.savez_compressed's file" 'array([3, 2, 1, 0], dtype=int16)' -- reverse tensor="$T/c.npz" axis=[0]
expect_fail "no name for several arrays" invalid_argument "a.npz holds 2 tensors: name one as" -- \
    transpose a="$T/a.npz" perm=1,0
"$TX" transpose a="$T/a.npz:x" perm=1,0 -o "$T/t.npz"
check "-o FILE.npz (named after the op's output) is read by np.load" /usr/bin/python3 -c \
    "import numpy as np; f = np.load('$T/t.npz'); assert f['y'].tolist() == [[0, 3], [1, 4], [2, 5]], dict(f)"

# ---- TFRecord files as string tensors ----
expect "a TFRecord file's records" "array([b'', b'a', b'hello world'], dtype=string)" -- \
    reshape tensor="$T/r.tfrecord" shape=-1
zlib_only expect "gzip'd" $'array([0, 0, 1], dtype=int32)\narray([0, 1, 12], dtype=int32)\narray([97, 104, 101, 108, 108, 111, 32, 119, 111, 114, 108, 100], dtype=uint8)' -- \
    string_tensor_unpack data="$T/r.tfrecord.gz"
expect_fail "a damaged record" data_loss "corrupted record at 45" -- reshape tensor="$T/bad.tfrecord" shape=-1

# ---- -o in the table's formats ----
"$TX" unique_with_counts x=[3,1,3,2] -o "$T/u1.safetensors" -o "$T/u2.safetensors:the idx" -o "$T/u3.npy"
expect "-o FILE.safetensors: named after the op's output" 'array([3, 1, 2], dtype=int32)' -- \
    reshape tensor="$T/u1.safetensors:y" shape=-1
expect "-o FILE.safetensors:NAME" 'array([0, 1, 0, 2], dtype=int32)' -- \
    reshape tensor="$T/u2.safetensors:the idx" shape=-1
if [ "$TX_ZLIB" = 1 ]; then
    "$TX" transpose a="$T/img.idx" perm=1,0 -o "$T/t.idx.gz"
    check "-o FILE.idx.gz is gzip'd IDX" bash -c "gzip -dc '$T/t.idx.gz' | od -An -tx1 | head -1 | grep -q '00 00 08 02 00 00 00 03 00 00 00 02'"
    expect "and reads back" $'array([[0, 1, 2],\n       [3, 4, 5]], dtype=uint8)' -- transpose a="$T/t.idx.gz" perm=1,0
fi
cp "$T/r.tfrecord" "$T/copy.tfrecord"
chmod 0640 "$T/copy.tfrecord"
"$TX" reshape tensor="$T/r.tfrecord" shape=-1 -o "$T/copy.tfrecord"
check "-o over a file keeps its permissions" test "$(stat -c %a "$T/copy.tfrecord")" = 640
check "-o FILE.tfrecord: the records' bytes" cmp "$T/copy.tfrecord" "$T/r.tfrecord"
cp "$T/u3.npy" "$T/keep.idx"
expect_fail "a dtype IDX lacks, naming the file given" invalid_argument \
    "$T/keep2.idx: idx_save: tensor: dtype int64 has no IDX type code" -- cast x=[1] dtype=int64 -o "$T/keep2.idx"
expect_fail "all or none" invalid_argument "int64 has no IDX type code" -- \
    split value=[1,2,3,4]:int64 split_dim=0 num_split=2 -o "$T/new.safetensors" -o "$T/keep.idx"
check "the file before the failure is not made, the one after kept" \
    bash -c "[ ! -e '$T/new.safetensors' ] && cmp '$T/keep.idx' '$T/u3.npy' && ! ls -A '$T' | grep -q '^\.tx-'"
expect_fail "-o a name for a one-tensor format" invalid_argument "holds one tensor (format idx), not one named 'w'" -- \
    reshape tensor=[1] shape=1 -o "$T/x.idx:w"
expect_fail "-o a name for .npy" invalid_argument "holds one tensor (format npy), not one named 'w'" -- \
    reshape tensor=[1] shape=1 -o "$T/x.npy:w"
mkfifo "$T/fifo.idx"
expect_fail "-o a FIFO in a file format" invalid_argument "written as a file, not to a device or pipe" -- \
    reshape tensor=[1] shape=1 -o "$T/fifo.idx"

# ---- tensorx tfrecord ----
expect "count" 3 -- tfrecord count "$T/r.tfrecord"
zlib_only expect "index, gzip from the name" 'array([0, 16, 33], dtype=int64)' -- tfrecord index "$T/r.tfrecord.gz"
zlib_only expect "cat with compression=" "array([b'', b'a', b'hello world'], dtype=string)" -- \
    tfrecord cat "$T/gz.bin" compression=GZIP
"$TX" tfrecord cat "$T/r.tfrecord" -o "$T/recs.npy"
check "cat -o FILE.npy" /usr/bin/python3 -c "import numpy as np; assert np.load('$T/recs.npy').tolist() == [b'', b'a', b'hello world']"
"$TX" tfrecord index "$T/r.tfrecord" -o "$T/offsets.npy"
expect "index -o" 'array([0, 16, 33], dtype=int64)' -- reshape tensor="$T/offsets.npy" shape=-1
expect_fail "count verifies every checksum" data_loss "$T/bad.tfrecord': corrupted record at 45" -- \
    tfrecord count "$T/bad.tfrecord"
expect_fail "count: a compressed file read as plain" data_loss "(Is this even a TFRecord file?)" -- \
    tfrecord count "$T/gz.bin"
expect_fail "a missing file" io_error "cannot read '$T/no.tfrecord'" -- tfrecord count "$T/no.tfrecord"
expect_fail "an unknown compression" usage "compression='LZ4' is not one of GZIP, ZLIB, NONE" -- \
    tfrecord count "$T/r.tfrecord" compression=LZ4
expect_fail "an unknown subcommand" usage "unknown tfrecord command 'list'" -- tfrecord list "$T/r.tfrecord"
expect_fail "no file" usage "usage: tensorx tfrecord" -- tfrecord count
finish
