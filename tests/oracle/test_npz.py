# SPDX-License-Identifier: Apache-2.0
"""test_npz -- tensorx's .npz reader and writer, and its gzip'd / zlib'd .npy reading, against NumPy,
through ctypes on libtensorx.so beside $TX.

1. Reading: np.savez and np.savez_compressed files of many dtypes (bool, every int and float,
   complex, big-endian, Fortran order, 'S' and 'U' strings) and shapes (0-d, empty, up to rank 4)
   open with tx_npz_open and tx_npz_open_buffer; the names are np.load's `files`, and every array
   tx_npz_get gives (saved back with tx_npy_save_buffer) equals np.load's.
2. Writing: tx_npz_save (stored and compressed) of the same arrays writes the very bytes np.savez /
   np.savez_compressed write, and np.load reads them back equal; so too for 65,536 members, where
   zipfile writes the ZIP64 end records.
3. gzip'd and zlib'd .npy files (Python's gzip and zlib modules) load with tx_npy_load and
   tx_npy_load_buffer equal to the plain file.
Exits 77 (skipped) when libtensorx.so cannot be loaded (static and sanitizer builds).
"""
import ctypes
import gzip
import io
import os
import sys
import tempfile
import zlib

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import txoracle as tx  # noqa: E402

lib = tx.load_library()
P = ctypes.c_void_p
PP = ctypes.POINTER(P)
lib.tx_npz_open.argtypes = [ctypes.c_char_p, PP]
lib.tx_npz_open_buffer.argtypes = [ctypes.c_char_p, ctypes.c_size_t, PP]
lib.tx_npz_close.argtypes = [P]
lib.tx_npz_count.argtypes = [P]
lib.tx_npz_count.restype = ctypes.c_size_t
lib.tx_npz_name.argtypes = [P, ctypes.c_size_t]
lib.tx_npz_name.restype = ctypes.c_char_p
lib.tx_npz_get.argtypes = [P, ctypes.c_char_p, PP]
lib.tx_npz_save.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_char_p),
                            ctypes.POINTER(P), ctypes.c_int]
lib.tx_npy_load.argtypes = [ctypes.c_char_p, PP]
lib.tx_npy_load_buffer.argtypes = [ctypes.c_char_p, ctypes.c_size_t, PP]
lib.tx_npy_save_buffer.argtypes = [P, PP, ctypes.POINTER(ctypes.c_size_t)]
lib.tx_buffer_free.argtypes = [P, ctypes.c_size_t]

rng = np.random.default_rng(20261207)
C = tx.Counter()
tmp = tempfile.TemporaryDirectory()


def ok(st):
    assert st == 0, lib.tx_last_error().decode()


def to_numpy(h):
    """The array of tensor handle h (through tx_npy_save_buffer and np.load); frees h."""
    p, n = P(), ctypes.c_size_t()
    ok(lib.tx_npy_save_buffer(h, ctypes.byref(p), ctypes.byref(n)))
    b = ctypes.string_at(p, n.value)
    lib.tx_buffer_free(p, n)
    lib.tx_tensor_free(h)
    return np.load(io.BytesIO(b))


def from_numpy(a):
    """A tensor handle holding a (through np.save and tx_npy_load_buffer)."""
    f = io.BytesIO()
    np.save(f, a)
    b = f.getvalue()
    h = P()
    ok(lib.tx_npy_load_buffer(b, len(b), ctypes.byref(h)))
    return h


def same(got, want, what):
    """tensorx's reading of want: host order, row-major, 'U' as UTF-8 bytes."""
    if want.dtype.kind in "SU" and want.size == 0:
        assert got.dtype.kind == "S" and got.shape == want.shape, what
        return
    if want.dtype.kind == "U":
        want = np.char.encode(want, "utf-8")
    if want.dtype.kind == "S":
        assert got.shape == want.shape and got.tolist() == want.tolist(), what
        return
    want = np.array(want, dtype=want.dtype.newbyteorder("="), order="C")
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert got.tobytes() == want.tobytes(), what


def random_array(dt, shape):
    dt = np.dtype(dt)
    n = int(np.prod(shape)) if shape else 1
    if dt.kind == "b":
        return rng.integers(0, 2, n).astype(bool).reshape(shape)
    if dt.kind == "S":
        return np.array([bytes(rng.integers(97, 123, rng.integers(0, dt.itemsize + 1)).astype(np.uint8))
                         for _ in range(n)], dtype=dt).reshape(shape)
    if dt.kind == "U":
        return np.array(["".join(chr(c) for c in rng.integers(0x20, 0x3000, rng.integers(0, 4)))
                         for _ in range(n)], dtype=dt).reshape(shape)
    raw = rng.integers(0, 256, n * dt.itemsize, dtype=np.uint8)
    return raw.view(dt).reshape(shape)


DTYPES = ["?", "i1", "u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8", "<c8",
          "<c16", ">i4", ">f8", "S5", "U3"]
SHAPES = [(), (0,), (1,), (7,), (3, 0, 2), (2, 3), (2, 3, 4), (1, 2, 1, 3)]


def arrays():
    """Several dicts of arrays to save (np.savez keeps their order)."""
    out = []
    for dt in DTYPES:
        d = {}
        for k, shape in enumerate(SHAPES):
            d["a%d" % k] = random_array(dt, shape)
        d["fortran"] = np.asfortranarray(random_array(dt, (3, 4)))
        out.append((dt, d))
    out.append(("names", {"x": np.arange(3), "with space": np.ones(2), "ünï": np.zeros((2, 2)),
                          "dir/inner": np.array(5), "": np.arange(2)}))
    return out


def open_npz(path=None, data=None):
    f = P()
    if path:
        ok(lib.tx_npz_open(path.encode(), ctypes.byref(f)))
    else:
        ok(lib.tx_npz_open_buffer(data, len(data), ctypes.byref(f)))
    return f


def read_all(f):
    names = [lib.tx_npz_name(f, i).decode() for i in range(lib.tx_npz_count(f))]
    got = {}
    for n in names:
        h = P()
        ok(lib.tx_npz_get(f, n.encode(), ctypes.byref(h)))
        got[n] = to_numpy(h)
    lib.tx_npz_close(f)
    return names, got


def check_numpy_files():
    for dt, d in arrays():
        for save in (np.savez, np.savez_compressed):
            p = os.path.join(tmp.name, "np.npz")
            save(p, **d)
            want = np.load(p)
            with open(p, "rb") as fh:
                data = fh.read()
            for names, got in (read_all(open_npz(path=p)), read_all(open_npz(data=data))):
                assert names == want.files, (dt, names, want.files)
                for n in names:
                    same(got[n], want[n], "%s %s %s" % (dt, save.__name__, n))


def save_tx(path, d, compressed):
    names = (ctypes.c_char_p * len(d))(*[k.encode() for k in d])
    hs = [from_numpy(a) for a in d.values()]
    ts = (P * len(d))(*hs)
    st = lib.tx_npz_save(path.encode(), len(d), names, ts, compressed)
    for h in hs:
        lib.tx_tensor_free(h)
    ok(st)


def check_tensorx_files():
    for dt, d in arrays():
        # tensorx writes row-major, host-order data and 'S' strings: compare with what NumPy
        # writes for those arrays.
        d = {k: np.array(a, dtype=a.dtype.newbyteorder("="), order="C")
             for k, a in d.items() if a.dtype.kind != "U"}
        for compressed, save in ((0, np.savez), (1, np.savez_compressed)):
            p, q = os.path.join(tmp.name, "tx.npz"), os.path.join(tmp.name, "np.npz")
            save_tx(p, d, compressed)
            save(q, **d)
            with open(p, "rb") as fh, open(q, "rb") as fq:
                mine, theirs = fh.read(), fq.read()
            # strings: tensorx writes 'S<longest>' (see tx_npy_save), NumPy the array's itemsize
            assert mine == theirs or dt == "S5", (dt, save.__name__, len(mine), len(theirs))
            back = np.load(p)
            assert back.files == list(d), (back.files, list(d))
            for k, a in d.items():
                same(back[k], a, "%s %s %s" % (dt, save.__name__, k))


def check_zip64_end_records():
    """65,536 members: zipfile writes the ZIP64 end record and locator (its member count limit is
    65,535); tensorx reads NumPy's file and writes the same bytes."""
    d = {"m%d" % i: np.array(i % 256, dtype=np.uint8) for i in range(65536)}
    p, q = os.path.join(tmp.name, "tx64.npz"), os.path.join(tmp.name, "np64.npz")
    np.savez(q, **d)
    with open(q, "rb") as fh:
        theirs = fh.read()
    assert theirs[-22 - 20:-22 - 16] == b"PK\x06\x07", "no ZIP64 locator in NumPy's file"
    f = open_npz(path=q)
    assert lib.tx_npz_count(f) == 65536
    for name in ("m0", "m300", "m65535"):
        h = P()
        ok(lib.tx_npz_get(f, name.encode(), ctypes.byref(h)))
        same(to_numpy(h), d[name], name)
    lib.tx_npz_close(f)
    save_tx(p, d, 0)
    with open(p, "rb") as fh:
        assert fh.read() == theirs


def check_compressed_npy():
    for dt in DTYPES:
        for shape in SHAPES[:6]:
            a = random_array(dt, shape)
            f = io.BytesIO()
            np.save(f, a)
            plain = f.getvalue()
            for what, packed in (("gzip", gzip.compress(plain)), ("zlib", zlib.compress(plain))):
                p = os.path.join(tmp.name, "a.npy." + what)
                with open(p, "wb") as fh:
                    fh.write(packed)
                h = P()
                ok(lib.tx_npy_load(p.encode(), ctypes.byref(h)))
                same(to_numpy(h), a, "%s %s %s path" % (dt, shape, what))
                ok(lib.tx_npy_load_buffer(packed, len(packed), ctypes.byref(h)))
                same(to_numpy(h), a, "%s %s %s buffer" % (dt, shape, what))


C.check("files NumPy writes", check_numpy_files)
C.check("files tensorx writes", check_tensorx_files)
C.check("ZIP64 end records", check_zip64_end_records)
C.check("gzip'd and zlib'd .npy", check_compressed_npy)
C.finish()
