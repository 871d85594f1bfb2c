#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tensor_files.sh -- tensor arguments read from the files of the frontend's format table
# (frontend/formats.c): FILE.safetensors[:NAME], FILE.idx, FILE.idx.gz and MNIST's -ubyte names,
# with paths and names holding ':' and '.', in tensor lists, and every error naming the file, the
# tensor and the rule.  The files are written here from the formats' definitions (not by tensorx).
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
PY

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
expect "gzip'd IDX" 'array([-2.0, 1.5], dtype=float32)' -- reverse tensor="$T/f.idx.gz" axis=[0]
expect "MNIST's file name" 'array([7, 2, 1], dtype=int32)' -- cast x="$T/t10k-labels-idx1-ubyte" dtype=int32
expect_fail "a name for a one-tensor file" invalid_argument \
    "$T/img.idx holds one tensor (format idx), not one named 'x' (drop ':x')" -- \
    reshape tensor="$T/img.idx:x" shape=6
expect_fail "a truncated IDX file" data_loss "truncated" -- reshape tensor="$T/cut.idx" shape=5
finish
