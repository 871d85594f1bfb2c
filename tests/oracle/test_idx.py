# SPDX-License-Identifier: Apache-2.0
"""test_idx -- tensorx's IDX reader and writer against files NumPy writes and reads, through
ctypes on libtensorx.so beside $TX.

1. Reading: files written with NumPy (the header with struct, the dims as `>u4`, the data as the
   big-endian dtype, row-major) for every IDX type code, random shapes of rank 0..4 (zero-size
   dims too) and special floats (NaN payloads, infinities, -0) load with tx_idx_load (plain, and
   gzip'd with Python's gzip module) and tx_idx_load_buffer to the same dtype, shape and values.
2. Writing: tx_idx_save's files parse in NumPy to the same array, and its .gz files gunzip to the
   plain file's bytes.
3. The MNIST layout: images [N, 28, 28] uint8 (magic 2051 as a big-endian int32) and labels [N]
   uint8 (magic 2049), as the MNIST files hold them.
Exits 77 (skipped) when libtensorx.so cannot be loaded (static and sanitizer builds).
"""
import ctypes
import gzip
import os
import struct
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import txoracle as tx  # noqa: E402

lib = tx.load_library()
P = ctypes.c_void_p
PP = ctypes.POINTER(P)
lib.tx_tensor_from_data.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int64),
                                    P, ctypes.c_size_t, PP]
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
lib.tx_idx_load.argtypes = [ctypes.c_char_p, PP]
lib.tx_idx_load_buffer.argtypes = [ctypes.c_char_p, ctypes.c_size_t, PP]
lib.tx_idx_save.argtypes = [ctypes.c_char_p, P]

rng = np.random.default_rng(20261206)
C = tx.Counter()
tmp = tempfile.TemporaryDirectory()

# (IDX type code, NumPy dtype, tensorx dtype)
TYPES = [(0x08, "u1", "uint8"), (0x09, "i1", "int8"), (0x0B, "i2", "int16"), (0x0C, "i4", "int32"),
         (0x0D, "f4", "float32"), (0x0E, "f8", "float64")]


def numpy_file(code, a):
    """The IDX file of a as NumPy writes it: dims as >u4, data big-endian, row-major."""
    head = struct.pack(">BBBB", 0, 0, code, a.ndim) + np.array(a.shape, dtype=">u4").tobytes()
    return head + np.array(a, dtype=a.dtype.newbyteorder(">"), order="C").tobytes()


def numpy_parse(b):
    """NumPy's reading of an IDX file: (type code, array)."""
    zero, code, rank = struct.unpack(">HBB", b[:4])
    assert zero == 0, b[:4]
    dims = np.frombuffer(b, dtype=">u4", count=rank, offset=4).astype(np.int64)
    dt = np.dtype(">" + [t[1] for t in TYPES if t[0] == code][0])
    return code, np.frombuffer(b, dtype=dt, offset=4 + 4 * rank).reshape(tuple(dims))


def random_array(np_dt, shape):
    n = int(np.prod(shape)) if shape else 1
    raw = rng.integers(0, 256, n * np.dtype(np_dt).itemsize, dtype=np.uint8)
    return raw.view(np_dt).reshape(shape)


def from_tensorx(h):
    """(dtype name, shape, host-order array) of tensor handle h; frees h."""
    dt = lib.tx_dtype_name(lib.tx_tensor_dtype(h)).decode()
    rank = lib.tx_tensor_rank(h)
    shape = tuple(lib.tx_tensor_dims(h)[i] for i in range(rank))
    n = lib.tx_tensor_nbytes(h)
    raw = ctypes.string_at(lib.tx_tensor_data_const(h), n) if n else b""
    lib.tx_tensor_free(h)
    np_dt = [t[1] for t in TYPES if t[2] == dt][0]
    return dt, shape, np.frombuffer(raw, dtype=np_dt).reshape(shape)


def load(path=None, data=None):
    h = P()
    st = lib.tx_idx_load(path.encode(), ctypes.byref(h)) if path else \
        lib.tx_idx_load_buffer(data, len(data), ctypes.byref(h))
    assert st == 0, lib.tx_last_error().decode()
    return from_tensorx(h)


def to_tensorx(a, tx_dt):
    a = np.array(a, dtype=a.dtype.newbyteorder("="), order="C")  # ascontiguousarray makes 0-d 1-d
    dims = (ctypes.c_int64 * max(a.ndim, 1))(*a.shape)
    h = P()
    b = a.tobytes()
    st = lib.tx_tensor_from_data(lib.tx_dtype_from_name(tx_dt.encode()), a.ndim, dims, b, len(b),
                                 ctypes.byref(h))
    assert st == 0, lib.tx_last_error().decode()
    return h


def same(got, a, tx_dt, what):
    dt, shape, arr = got
    assert dt == tx_dt, (what, dt, tx_dt)
    assert shape == a.shape, (what, shape, a.shape)
    assert arr.tobytes() == a.astype(a.dtype.newbyteorder("=")).tobytes(), what


def shapes():
    out = [(), (1,), (7,), (0,), (3, 0, 2)]
    for rank in range(1, 5):
        for _ in range(3):
            out.append(tuple(int(d) for d in rng.integers(1, 6, rank)))
    return out


def check_numpy_files():
    for code, np_dt, tx_dt in TYPES:
        for shape in shapes():
            a = random_array(np_dt, shape)
            f = numpy_file(code, a)
            p = os.path.join(tmp.name, "a.idx")
            with open(p, "wb") as fh:
                fh.write(f)
            same(load(path=p), a, tx_dt, "%s %s path" % (tx_dt, shape))
            same(load(data=f), a, tx_dt, "%s %s buffer" % (tx_dt, shape))
            with open(p + ".gz", "wb") as fh:
                fh.write(gzip.compress(f))
            same(load(path=p + ".gz"), a, tx_dt, "%s %s gzip" % (tx_dt, shape))


def check_special_floats():
    for code, np_dt, tx_dt, bits in [(0x0D, "f4", "float32", ["7fc00001", "ff800000", "80000000",
                                                                "7f800000", "00000001"]),
                                     (0x0E, "f8", "float64", ["7ff8000000000001", "fff0000000000000",
                                                              "8000000000000000"])]:
        a = np.array([int(b, 16) for b in bits], dtype="u%d" % np.dtype(np_dt).itemsize).view(np_dt)
        same(load(data=numpy_file(code, a)), a, tx_dt, tx_dt + " specials")


def check_tensorx_files():
    for code, np_dt, tx_dt in TYPES:
        for shape in shapes():
            a = random_array(np_dt, shape)
            h = to_tensorx(a, tx_dt)
            p = os.path.join(tmp.name, "b.idx")
            assert lib.tx_idx_save(p.encode(), h) == 0, lib.tx_last_error().decode()
            assert lib.tx_idx_save((p + ".gz").encode(), h) == 0, lib.tx_last_error().decode()
            lib.tx_tensor_free(h)
            with open(p, "rb") as fh:
                b = fh.read()
            assert b == numpy_file(code, a), (tx_dt, shape)
            got_code, arr = numpy_parse(b)
            assert got_code == code and arr.shape == a.shape, (tx_dt, shape)
            assert arr.tobytes() == a.astype(arr.dtype).tobytes(), (tx_dt, shape)
            with open(p + ".gz", "rb") as fh:
                assert gzip.decompress(fh.read()) == b, (tx_dt, shape, "gzip")


def check_mnist_layout():
    images = rng.integers(0, 256, (10, 28, 28), dtype=np.uint8)
    labels = rng.integers(0, 10, 10, dtype=np.uint8)
    for a, magic in [(images, 2051), (labels, 2049)]:
        f = numpy_file(0x08, a)
        assert struct.unpack(">i", f[:4])[0] == magic
        p = os.path.join(tmp.name, "mnist-%d-ubyte.gz" % magic)
        with open(p, "wb") as fh:
            fh.write(gzip.compress(f))
        same(load(path=p), a, "uint8", "mnist %d" % magic)
        with open(p[:-3], "wb") as fh:
            fh.write(f)
        same(load(path=p[:-3]), a, "uint8", "mnist %d plain" % magic)


C.check("files NumPy writes", check_numpy_files)
C.check("special floats", check_special_floats)
C.check("files tensorx writes", check_tensorx_files)
C.check("MNIST layout", check_mnist_layout)
C.finish()
