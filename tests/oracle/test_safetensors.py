# SPDX-License-Identifier: Apache-2.0
"""test_safetensors -- tensorx's safetensors reader and writer against the `safetensors` package
(the Hugging Face reference implementation, from the package index), through ctypes on
libtensorx.so beside $TX.

1. Writing: tx_safetensors_save_buffer gives the very bytes of safetensors.serialize (TensorSpec)
   and safetensors.numpy.save for the same tensors: every dtype both have, random shapes (rank
   0..4, zero-size dims), names with quotes, backslashes, control characters and non-ASCII, with
   no and one metadata entry; with several entries (the package writes them in its hash map's
   varying order) the headers are equal as JSON and the rest byte for byte.
2. Reading: files the package writes open in tensorx with the same names, dtypes, shapes and
   bytes (F4 unpacked); tx_safetensors_save's files load in the package unchanged.
3. Hostile files: valid files with one header byte changed, cut at random points, or with
   handmade lying lengths and overlapping, gapped, unsorted ranges: tensorx accepts exactly what
   the package accepts, except the three cases tensorx refuses on purpose (a name or key twice, a
   NUL in a string, an entry that is an array), which are checked to be those.
Exits 77 (skipped) when the interpreter lacks safetensors or libtensorx.so cannot be loaded
(static and sanitizer builds); ctest runs it with TX_SAFETENSORS_PYTHON (a CMake cache variable:
an interpreter with safetensors, numpy and ml_dtypes, e.g. scripts/install-python.sh --index's
venv).
"""
import ctypes
import json
import os
import random
import struct
import sys
import tempfile

try:
    import numpy as np
    import safetensors
    import safetensors.numpy as stnp
except ImportError as e:
    print("skipped: %s lacks %s (pip install safetensors numpy; point the CMake cache variable "
          "TX_SAFETENSORS_PYTHON at an interpreter that has them)" % (sys.executable, e.name))
    sys.exit(77)
try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import txoracle as tx  # noqa: E402

lib = tx.load_library()
P = ctypes.c_void_p
PP = ctypes.POINTER(P)
lib.tx_tensor_from_data.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int64), P,
                                    ctypes.c_size_t, PP]
lib.tx_tensor_dtype.argtypes = [P]
lib.tx_tensor_rank.argtypes = [P]
lib.tx_tensor_rank.restype = ctypes.c_size_t
lib.tx_tensor_dims.argtypes = [P]
lib.tx_tensor_dims.restype = ctypes.POINTER(ctypes.c_int64)
lib.tx_tensor_nbytes.argtypes = [P]
lib.tx_tensor_nbytes.restype = ctypes.c_size_t
lib.tx_tensor_data_const.argtypes = [P]
lib.tx_tensor_data_const.restype = P
lib.tx_dtype_from_name.argtypes = [ctypes.c_char_p]
lib.tx_dtype_name.argtypes = [ctypes.c_int]
lib.tx_dtype_name.restype = ctypes.c_char_p
lib.tx_buffer_free.argtypes = [P, ctypes.c_size_t]
CHARPP = ctypes.POINTER(ctypes.c_char_p)
lib.tx_safetensors_save_buffer.argtypes = [ctypes.c_size_t, CHARPP, PP, ctypes.c_size_t, CHARPP, PP,
                                           ctypes.POINTER(ctypes.c_size_t)]
lib.tx_safetensors_save.argtypes = [ctypes.c_char_p, ctypes.c_size_t, CHARPP, PP, ctypes.c_size_t,
                                    CHARPP]
lib.tx_safetensors_open_buffer.argtypes = [ctypes.c_char_p, ctypes.c_size_t, PP]
lib.tx_safetensors_open.argtypes = [ctypes.c_char_p, PP]
lib.tx_safetensors_close.argtypes = [P]
lib.tx_safetensors_count.argtypes = [P]
lib.tx_safetensors_count.restype = ctypes.c_size_t
lib.tx_safetensors_name.argtypes = [P, ctypes.c_size_t]
lib.tx_safetensors_name.restype = ctypes.c_char_p
lib.tx_safetensors_metadata_count.argtypes = [P]
lib.tx_safetensors_metadata_count.restype = ctypes.c_size_t
lib.tx_safetensors_metadata_key.argtypes = [P, ctypes.c_size_t]
lib.tx_safetensors_metadata_key.restype = ctypes.c_char_p
lib.tx_safetensors_metadata_value.argtypes = [P, ctypes.c_size_t]
lib.tx_safetensors_metadata_value.restype = ctypes.c_char_p
lib.tx_safetensors_get.argtypes = [P, ctypes.c_char_p, PP]

rng = np.random.default_rng(20261206)
random.seed(41)
C = tx.Counter()
tmp = tempfile.TemporaryDirectory()

# (package TensorSpec dtype, safetensors name, tensorx dtype, numpy dtype of one element's bytes)
DTYPES = [("bool", "BOOL", "bool", np.uint8), ("int8", "I8", "int8", np.int8),
          ("uint8", "U8", "uint8", np.uint8), ("int16", "I16", "int16", np.int16),
          ("uint16", "U16", "uint16", np.uint16), ("int32", "I32", "int32", np.int32),
          ("uint32", "U32", "uint32", np.uint32), ("int64", "I64", "int64", np.int64),
          ("uint64", "U64", "uint64", np.uint64), ("float16", "F16", "float16", np.uint16),
          ("float32", "F32", "float32", np.uint32), ("float64", "F64", "float64", np.uint64),
          ("bfloat16", "BF16", "bfloat16", np.uint16), ("complex64", "C64", "complex64", np.uint64),
          ("float8_e4m3fn", "F8_E4M3", "float8_e4m3fn", np.uint8),
          ("float8_e4m3fnuz", "F8_E4M3FNUZ", "float8_e4m3fnuz", np.uint8),
          ("float8_e5m2", "F8_E5M2", "float8_e5m2", np.uint8),
          ("float8_e5m2fnuz", "F8_E5M2FNUZ", "float8_e5m2fnuz", np.uint8),
          ("float8_e8m0fnu", "F8_E8M0", "float8_e8m0fnu", np.uint8),
          ("float4_e2m1fn_x2", "F4", "float4_e2m1fn", np.uint8)]
NAMES = ["w", "bias", "layer.0.weight", 'q"uote', "back\\slash", "tab\there", "ctl\x01\x1f", "é≈ü",
         "emoji\U0001F600", "/slash", "a" * 70, "Z", "_", "0"]


def element_bytes(dt, n):
    """n random elements of tensorx dtype dt as tensorx holds them (one byte per sub-byte element)."""
    if dt == "bool":
        return rng.integers(0, 2, n, dtype=np.uint8)
    if dt == "float4_e2m1fn":
        return rng.integers(0, 16, n, dtype=np.uint8)
    info = [d for d in DTYPES if d[2] == dt][0]
    return rng.integers(0, 256, n * np.dtype(info[3]).itemsize, dtype=np.uint8)


def pack4(b):
    """F4's file bytes: element i in bits [4i, 4i + 4) (the format's packing)."""
    b = b.astype(np.uint8)
    return (b[0::2] | (b[1::2] << 4)).astype(np.uint8)


class TxTensor:
    def __init__(self, dt, shape, elems):
        self.dt, self.shape, self.elems = dt, shape, elems
        dims = (ctypes.c_int64 * max(1, len(shape)))(*shape)
        self.h = P()
        code = lib.tx_dtype_from_name(dt.encode())
        st = lib.tx_tensor_from_data(code, len(shape), dims, elems.ctypes.data, elems.nbytes,
                                     ctypes.byref(self.h))
        assert st == 0, lib.tx_last_error()

    def file_bytes(self):
        return pack4(self.elems).tobytes() if self.dt == "float4_e2m1fn" else self.elems.tobytes()

    def __del__(self):
        lib.tx_tensor_free(self.h)


def random_shape(dt):
    rank = random.randint(0, 4)
    shape = [random.choice([0, 1, 2, 3, 5]) for _ in range(rank)]
    if dt == "float4_e2m1fn":
        shape = shape + [2 * random.randint(0, 3)]  # whole bytes
    return shape


def tx_save_buffer(names, tensors, meta):
    n = len(names)
    cnames = (ctypes.c_char_p * max(1, n))(*[s.encode() for s in names])
    ts = (P * max(1, n))(*[t.h for t in tensors])
    flat = [s.encode() for kv in meta for s in kv]
    cmeta = (ctypes.c_char_p * max(1, len(flat)))(*flat)
    data, size = P(), ctypes.c_size_t()
    st = lib.tx_safetensors_save_buffer(n, cnames, ts, len(meta), cmeta, ctypes.byref(data),
                                        ctypes.byref(size))
    if st != 0:
        return st, lib.tx_last_error().decode()
    out = ctypes.string_at(data, size.value)
    lib.tx_buffer_free(data, size.value)
    return 0, out


def package_serialize(names, tensors, meta):
    keep = []
    specs = {}
    for name, t in zip(names, tensors):
        raw = np.frombuffer(t.file_bytes(), dtype=np.uint8).copy()
        keep.append(raw)
        pkg = [d[0] for d in DTYPES if d[2] == t.dt][0]
        shape = list(t.shape)
        if t.dt == "float4_e2m1fn" and shape:
            shape[-1] //= 2  # TensorSpec takes F4's storage shape (it doubles the last dim)
        specs[name] = safetensors.TensorSpec(dtype=pkg, shape=shape, data_ptr=raw.ctypes.data,
                                             data_len=raw.nbytes)
    return safetensors.serialize(specs, metadata=dict(meta) if meta else None)


def random_set(k):
    names = random.sample(NAMES, k)
    dts = [random.choice(DTYPES)[2] for _ in names]
    tensors = []
    for dt in dts:
        if dt == "float4_e2m1fn" and random.random() < 0.3:
            shape = []
            shape = [2]
        else:
            shape = random_shape(dt)
        n = int(np.prod(shape)) if shape else 1
        tensors.append(TxTensor(dt, shape, element_bytes(dt, n)))
    return names, tensors


def split_file(b):
    n = struct.unpack("<Q", b[:8])[0]
    return json.loads(b[8:8 + n]), b[8 + n:], n


# ---- 1. writing ----
def check_write(k, nmeta):
    names, tensors = random_set(k)
    meta = [("k%d" % i, random.choice(["v", "", "é\n\"x", "format pt"])) for i in range(nmeta)]
    st, ours = tx_save_buffer(names, tensors, meta)
    assert st == 0, ours
    theirs = package_serialize(names, tensors, meta)
    if nmeta <= 1:
        assert ours == theirs, "bytes differ:\n%r\n%r" % (ours[:300], theirs[:300])
    else:
        ho, do, no = split_file(ours)
        ht, dt, nt = split_file(theirs)
        assert (ho, do, no) == (ht, dt, nt), "headers or data differ"


for i in range(300):
    k = random.randint(0, 6)
    nmeta = random.choice([0, 0, 1, 1, 3])
    C.check("write %d (%d tensors, %d metadata)" % (i, k, nmeta), lambda: check_write(k, nmeta))


def check_numpy_save():
    arrays = {"a": rng.standard_normal((3, 4)).astype(np.float32), "b": np.arange(5, dtype=np.int64),
              "c": np.array(True), "d": np.zeros((0, 2), np.float16),
              "e": (rng.standard_normal(3) + 1j).astype(np.complex64)}
    meta = {"format": "np"}
    ts = [TxTensor({np.dtype(bool): "bool"}.get(a.dtype, a.dtype.name), list(a.shape),
                   np.frombuffer(np.ascontiguousarray(a).tobytes(), np.uint8)) for a in arrays.values()]
    st, ours = tx_save_buffer(list(arrays), ts, list(meta.items()))
    assert st == 0, ours
    assert ours == stnp.save(arrays, metadata=meta), "safetensors.numpy.save wrote other bytes"


C.check("numpy.save", check_numpy_save)


# ---- 2. reading ----
def tx_open(b):
    h = P()
    st = lib.tx_safetensors_open_buffer(b, len(b), ctypes.byref(h))
    return st, (h if st == 0 else lib.tx_last_error().decode())


def tx_read_all(h):
    out = {}
    for i in range(lib.tx_safetensors_count(h)):
        name = lib.tx_safetensors_name(h, i)
        t = P()
        assert lib.tx_safetensors_get(h, name, ctypes.byref(t)) == 0, lib.tx_last_error()
        rank = lib.tx_tensor_rank(t)
        dims = [lib.tx_tensor_dims(t)[j] for j in range(rank)]
        data = ctypes.string_at(lib.tx_tensor_data_const(t), lib.tx_tensor_nbytes(t))
        out[name.decode()] = (lib.tx_dtype_name(lib.tx_tensor_dtype(t)).decode(), dims, data)
        lib.tx_tensor_free(t)
    meta = {lib.tx_safetensors_metadata_key(h, i).decode(): lib.tx_safetensors_metadata_value(h, i).decode()
            for i in range(lib.tx_safetensors_metadata_count(h))}
    return out, meta


def check_read(k, nmeta):
    names, tensors = random_set(k)
    meta = [("m%d" % i, "v%d" % i) for i in range(nmeta)]
    b = package_serialize(names, tensors, meta)
    st, h = tx_open(b)
    assert st == 0, h
    got, gmeta = tx_read_all(h)
    lib.tx_safetensors_close(h)
    assert gmeta == dict(meta), gmeta
    assert sorted(got) == sorted(names), (sorted(got), sorted(names))
    for name, t in zip(names, tensors):
        assert got[name] == (t.dt, t.shape, t.elems.tobytes()), "tensor %r differs" % name
    # The same through a file, and the package reads tensorx's file.
    path = os.path.join(tmp.name, "r.safetensors")
    cn = (ctypes.c_char_p * max(1, k))(*[s.encode() for s in names])
    ts = (P * max(1, k))(*[t.h for t in tensors])
    flat = [s.encode() for kv in meta for s in kv]
    st = lib.tx_safetensors_save(path.encode(), k, cn, ts, nmeta,
                                 (ctypes.c_char_p * max(1, len(flat)))(*flat))
    assert st == 0, lib.tx_last_error()
    back = dict(safetensors.deserialize(open(path, "rb").read()))
    for name, t in zip(names, tensors):
        assert bytes(back[name]["data"]) == t.file_bytes() and list(back[name]["shape"]) == t.shape
    h = P()
    assert lib.tx_safetensors_open(path.encode(), ctypes.byref(h)) == 0, lib.tx_last_error()
    got2, _ = tx_read_all(h)
    lib.tx_safetensors_close(h)
    assert got2 == got


for i in range(150):
    k = random.randint(0, 6)
    C.check("read %d" % i, lambda: check_read(k, random.choice([0, 1, 2])))


# ---- 3. hostile files: accept exactly what the package accepts ----
ON_PURPOSE = ("appears twice", "NUL character", "must be an object with dtype")


def package_accepts(b):
    try:
        safetensors.deserialize(b)
        return True, ""
    except Exception as e:  # SafetensorError, and the bindings' own for odd dtypes
        return False, str(e)


def check_same_verdict(b, what):
    ok, why = package_accepts(b)
    st, h = tx_open(b)
    if st == 0:
        lib.tx_safetensors_close(h)
        assert ok, "%s: tensorx accepted what the package refuses (%s): %r" % (what, why, b[:200])
    else:
        assert st == 3, "%s: status %d (%s)" % (what, st, h)
        assert not ok or any(s in h for s in ON_PURPOSE), \
            "%s: tensorx refused (%s) what the package accepts: %r" % (what, h, b[:200])


def header_file(header, data):
    hb = header.encode() if isinstance(header, str) else header
    return struct.pack("<Q", len(hb)) + hb + data


base_names, base_tensors = random_set(4)
valid = package_serialize(base_names, base_tensors, [("format", "pt")])
n0 = struct.unpack("<Q", valid[:8])[0]
for i in range(600):
    b = bytearray(valid)
    pos = random.randrange(0, 8 + n0)
    b[pos] = random.choice([random.randrange(256), ord(" "), ord("0"), ord("9"), ord(","), ord("]"),
                            ord("}"), ord('"'), ord("\\"), 0])
    C.check("mutated byte %d" % pos, lambda: check_same_verdict(bytes(b), "byte %d" % pos))
for cut in sorted(random.sample(range(len(valid)), min(200, len(valid)))):
    C.check("cut at %d" % cut, lambda: check_same_verdict(valid[:cut], "cut at %d" % cut))

E = '{"dtype":"U8","shape":[%d],"data_offsets":[%d,%d]}'
HANDMADE = {
    "ok": (header_file('{"a":%s,"b":%s}' % (E % (2, 0, 2), E % (1, 2, 3)), b"abc")),
    "unsorted in JSON": header_file('{"b":%s,"a":%s}' % (E % (1, 2, 3), E % (2, 0, 2)), b"abc"),
    "overlap": header_file('{"a":%s,"b":%s}' % (E % (2, 0, 2), E % (2, 1, 3)), b"abc"),
    "gap": header_file('{"a":%s,"b":%s}' % (E % (1, 0, 1), E % (1, 2, 3)), b"abc"),
    "not from 0": header_file('{"a":%s}' % (E % (2, 1, 3)), b"abc"),
    "end before begin": header_file('{"a":%s}' % (E % (0, 3, 0)), b"abc"),
    "short data": header_file('{"a":%s}' % (E % (3, 0, 3)), b"ab"),
    "long data": header_file('{"a":%s}' % (E % (3, 0, 3)), b"abcd"),
    "shape mismatch": header_file('{"a":%s}' % (E % (2, 0, 3)), b"abc"),
    "huge dims": header_file('{"a":{"dtype":"U8","shape":[4294967296,4294967296,4294967296],'
                             '"data_offsets":[0,0]}}', b""),
    "dims past u64": header_file('{"a":{"dtype":"U8","shape":[18446744073709551616],'
                                 '"data_offsets":[0,0]}}', b""),
    "zero dim after huge": header_file('{"a":{"dtype":"F32","shape":[0,9223372036854775807],'
                                       '"data_offsets":[0,0]}}', b""),
    "F4 odd": header_file('{"a":{"dtype":"F4","shape":[3],"data_offsets":[0,2]}}', b"ab"),
    "F6 four": header_file('{"a":{"dtype":"F6_E2M3","shape":[4],"data_offsets":[0,3]}}', b"abc"),
    "unknown dtype": header_file('{"a":{"dtype":"I4","shape":[2],"data_offsets":[0,1]}}', b"a"),
    "unknown member": header_file('{"a":{"dtype":"U8","shape":[1],"x":[{}],"data_offsets":[0,1]}}', b"a"),
    "duplicate name": header_file('{"a":%s,"a":%s}' % (E % (1, 0, 1), E % (1, 0, 1)), b"a"),
    "duplicate key": header_file('{"__metadata__":{"k":"1","k":"2"},"a":%s}' % (E % (1, 0, 1)), b"a"),
    "metadata null": header_file('{"__metadata__":null,"a":%s}' % (E % (1, 0, 1)), b"a"),
    "metadata number": header_file('{"__metadata__":{"k":1},"a":%s}' % (E % (1, 0, 1)), b"a"),
    "metadata twice": header_file('{"__metadata__":{},"__metadata__":{}}', b""),
    "empty header": header_file("", b""),
    "empty object": header_file("{}", b""),
    "padded header": header_file('{}      ', b""),
    "NUL padding": header_file('{}\0\0\0\0\0\0', b""),
    "array": header_file("[]", b""),
    "trailing comma": header_file('{"a":%s,}' % (E % (1, 0, 1)), b"a"),
    "leading zero": header_file('{"a":{"dtype":"U8","shape":[01],"data_offsets":[0,1]}}', b"a"),
    "float dim": header_file('{"a":{"dtype":"U8","shape":[1.0],"data_offsets":[0,1]}}', b"a"),
    "negative zero": header_file('{"a":{"dtype":"U8","shape":[-0],"data_offsets":[0,0]}}', b""),
    "three offsets": header_file('{"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1,1]}}', b"a"),
    "lone surrogate": header_file('{"a\\ud800":%s}' % (E % (1, 0, 1)), b"a"),
    "surrogate pair": header_file('{"a\\ud83d\\ude00":%s}' % (E % (1, 0, 1)), b"a"),
    "NUL escape": header_file('{"a\\u0000":%s}' % (E % (1, 0, 1)), b"a"),
    "raw control": header_file('{"a\x01":%s}' % (E % (1, 0, 1)), b"a"),
    "bad UTF-8": header_file(b'{"a\xff":' + (E % (1, 0, 1)).encode() + b"}", b"a"),
    "overlong UTF-8": header_file(b'{"a\xc0\xaf":' + (E % (1, 0, 1)).encode() + b"}", b"a"),
    "deep": header_file('{"a":%s,"x":' % (E % (1, 0, 1)) + "[" * 200 + "]" * 200 + "}", b"a"),
    "entry as array": header_file('{"a":["U8",[1],[0,1]]}', b"a"),
    "lying length": struct.pack("<Q", 1000) + b"{}",
    "length past u64 file": struct.pack("<Q", 2 ** 64 - 1) + b"{}",
    "length over limit": struct.pack("<Q", 100000001) + b"{}",
    "7 bytes": b"\x02\0\0\0\0\0\0",
}
for what, b in HANDMADE.items():
    C.check("handmade: " + what, lambda: check_same_verdict(b, what))


def check_handmade_values():
    # F6 (which TensorSpec cannot write): four elements in three bytes, least significant first.
    vals = [0b000001, 0b100000, 0b111111, 0b010101]
    bits = sum(v << (6 * i) for i, v in enumerate(vals))
    b = header_file('{"a":{"dtype":"F6_E2M3","shape":[4],"data_offsets":[0,3]}}', bits.to_bytes(3, "little"))
    ok, why = package_accepts(b)
    assert ok, why
    st, h = tx_open(b)
    assert st == 0, h
    got, _ = tx_read_all(h)
    lib.tx_safetensors_close(h)
    assert got["a"] == ("float6_e2m3fn", [4], bytes(vals)), got
    # bool bytes other than 0 and 1 are true (NumPy's bool view of them is too).
    b = header_file('{"a":{"dtype":"BOOL","shape":[3],"data_offsets":[0,3]}}', b"\x00\x02\xff")
    st, h = tx_open(b)
    got, _ = tx_read_all(h)
    lib.tx_safetensors_close(h)
    assert got["a"] == ("bool", [3], b"\x00\x01\x01"), got


C.check("handmade values", check_handmade_values)
C.finish()
