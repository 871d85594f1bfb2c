# SPDX-License-Identifier: Apache-2.0
"""Inputs and outputs: zero-copy wrapping, copies of other layouts, lifetimes, read-only memory,
Python values and their TF dtypes, DLPack producers, dtypes NumPy lacks, plan."""
import gc
import os
import sys

import numpy as np
import pytest
import tensorx as tx


def test_output_owns_the_tensorx_buffer():
    y = tx.tile(np.arange(4, dtype=np.int32), [3])
    assert type(y) is np.ndarray and y.flags.c_contiguous and y.flags.writeable
    assert y.flags.owndata is False and type(y.base).__name__ == "PyCapsule"
    assert y.ctypes.data % 64 == 0
    y[0] = 9  # op outputs are writable
    assert y[0] == 9


def test_contiguous_input_is_not_copied_and_is_kept_alive():
    x = np.arange(1 << 16, dtype=np.float32)
    before = sys.getrefcount(x)
    y = tx.reshape(x, [256, -1])  # a view: tensorx holds x
    assert np.shares_memory(x, y) and sys.getrefcount(x) == before + 1
    addr = x.ctypes.data
    del x
    gc.collect()
    assert y.ctypes.data == addr and y[255, 255] == 65535
    z = tx.expand_dims(y, 0)
    del y
    assert z[0, 1, 0] == 256


def test_references_are_dropped_when_outputs_go():
    x = np.arange(10, dtype=np.int64)
    before = sys.getrefcount(x)
    y = tx.reshape(x, [2, 5])
    tx.transpose(x)  # a new buffer: x is released when the call ends
    assert sys.getrefcount(x) == before + 1
    del y
    assert sys.getrefcount(x) == before


@pytest.mark.parametrize("make", [
    lambda a: a[:, ::2],                        # strided
    lambda a: np.asfortranarray(a),             # Fortran order
    lambda a: a.astype(a.dtype.newbyteorder()),  # swapped byte order (same values)
    lambda a: np.frombuffer(b"\0" + a.tobytes(), a.dtype, offset=1).reshape(a.shape),  # misaligned
])
def test_other_layouts_are_copied_once_and_give_the_same_values(make):
    a = np.arange(24, dtype=np.int32).reshape(4, 6)
    b = make(a)
    np.testing.assert_array_equal(tx.transpose(b), np.ascontiguousarray(b).T)
    r = tx.reshape(b, [-1])
    np.testing.assert_array_equal(r, np.ascontiguousarray(b).ravel())
    assert r.dtype == np.int32 and r.dtype.isnative


def test_read_only_input_gives_read_only_views():
    buf = np.frombuffer(bytes(range(16)), np.uint8)
    assert not buf.flags.writeable
    v = tx.reshape(buf, [4, 4])
    assert np.shares_memory(v, buf) and not v.flags.writeable
    with pytest.raises(ValueError):
        v[0, 0] = 1
    c = tx.transpose(buf.reshape(4, 4))  # a new buffer: writable
    assert c.flags.writeable
    w = tx.reshape(np.arange(4), [2, 2])  # a view of a writable array: writable
    assert w.flags.writeable


def test_python_values_take_tensorflows_dtypes():
    assert tx.reshape(5, []).dtype == np.int32
    assert tx.reshape(2**40, []).dtype == np.int64
    assert tx.reshape([1.5, 2], [2]).dtype == np.float32
    assert tx.reshape(True, []).dtype == np.bool_
    assert tx.reshape(1j, []).dtype == np.complex128
    assert tx.reshape([[1, 2]], [2]).dtype == np.int32
    assert tx.reshape([], [0]).dtype == np.float32
    assert tx.reshape(np.float64(1), []).dtype == np.float64  # NumPy values keep theirs
    assert tx.tile([1, 2], np.array([2], np.int64)).tolist() == [1, 2, 1, 2]
    s = tx.reshape(b"ab\x00", [1])
    assert s.dtype == object and s.tolist() == [b"ab\x00"]
    assert tx.reshape("é", [1]).tolist() == ["é".encode()]
    assert tx.reshape([[b"a", b"b\x00"]], [2]).tolist() == [b"a", b"b\x00"]


class DLPackOnly:
    """A producer that offers nothing but the DLPack protocol."""

    def __init__(self, a):
        self.a = a

    def __dlpack__(self, stream=None):
        return self.a.__dlpack__()

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def test_dlpack_producers_are_used_without_a_copy():
    a = np.arange(6, dtype=np.int16)
    y = tx.reshape(DLPackOnly(a), [2, 3])
    assert np.shares_memory(a, y)
    np.testing.assert_array_equal(y, a.reshape(2, 3))


def test_dtypes_numpy_lacks_use_the_structured_convention_or_ml_dtypes():
    bf = tx.to_bfloat16(np.array([1.0, -2.5, 3.1], np.float32))
    if bf.dtype.names:  # no ml_dtypes: tensorx's .npy convention
        assert bf.dtype == np.dtype([("bfloat16", np.uint16)])
        assert bf["bfloat16"].tolist() == [0x3F80, 0xC020, 0x4046]
    else:
        assert bf.dtype.name == "bfloat16"
    back = tx.cast(bf, "float32")  # and back in: the same dtype is taken
    np.testing.assert_array_equal(back, np.float32([1.0, -2.5, 3.09375]))
    i4 = tx.cast(np.array([7.9, -8.9]), "int4")
    assert tx.dtype_name(i4.dtype) == "int4"
    assert tx.cast(i4, np.int8).tolist() == [7, -8]


# ml_dtypes is not a Debian package, so the tests here cannot import the real one.  A stand-in
# module of the same name, whose "dtypes" are structured dtypes of the same item sizes (distinct
# from tensorx's own convention), checks the plumbing of the ml_dtypes branch: outputs come out
# in its dtypes, its dtypes are taken back as inputs, and the quantized types (which ml_dtypes
# lacks) keep the structured convention.
ML_STANDIN = """
import numpy as np
for _name, _storage in (("bfloat16", "<u2"), ("float8_e5m2", "u1"), ("float8_e4m3fn", "u1"),
                        ("int4", "i1"), ("uint4", "u1")):
    globals()[_name] = np.dtype([("standin_" + _name, _storage)])
"""

ML_CHECK = """
import numpy as np, tensorx as tx, ml_dtypes
bf = tx.to_bfloat16(np.array([1.0, -2.5, 3.1], np.float32))
assert bf.dtype == ml_dtypes.bfloat16, bf.dtype
assert bf.view(np.uint16).tolist() == [0x3F80, 0xC020, 0x4046]
assert tx.cast(bf, "float32").tolist() == [1.0, -2.5, 3.09375]
assert tx.dtype_name(ml_dtypes.float8_e4m3fn) == "float8_e4m3fn"
i4 = tx.cast(np.array([7.9, -8.9]), "int4")
assert i4.dtype == ml_dtypes.int4 and tx.cast(i4, np.int8).tolist() == [7, -8]
# the structured convention is still taken as input
conv = np.array([0x3F80], np.uint16).view([("bfloat16", "<u2")])
assert tx.cast(conv, "float32").tolist() == [1.0]
q = tx.cast(np.array([3, -4], np.int8), "qint8")
assert q.dtype == np.dtype([("qint8", "i1")]), q.dtype
print("ok")
"""


def test_the_ml_dtypes_branch_with_a_stand_in_module(tmp_path):
    import subprocess
    (tmp_path / "ml_dtypes.py").write_text(ML_STANDIN)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(tmp_path)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    r = subprocess.run([sys.executable, "-c", ML_CHECK], env=env, capture_output=True,
                       text=True, cwd=str(tmp_path))
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr


def test_dtype_names():
    assert tx.dtype_name(np.float16) == "float16"
    assert tx.dtype_name("half") == "half"
    assert tx.dtype_name(np.dtype([("bfloat16", np.uint16)])) == "bfloat16"
    assert tx.dtype_name(bytes) == "string"
    with pytest.raises(TypeError):
        tx.dtype_name(np.dtype(np.longdouble))
    assert tx.cast(np.int32([1]), "half").dtype == np.float16  # TF's aliases


@pytest.fixture
def no_cap():
    """The tensor cap lifted (tx.set_max_bytes(0)) for a test that plans terabytes."""
    before = tx.set_max_bytes(0)
    yield
    tx.set_max_bytes(before)


def test_plan_sizes_without_running(no_cap):
    x = np.zeros((1000, 1000), np.float32)
    (info,) = tx.plan(tx.tile, x, [1000, 1000])
    assert info.dtype == "float32" and info.shape == (10**6, 10**6)
    assert info.nbytes == 4 * 10**12 and not info.view
    (v,) = tx.plan("reshape", x, [-1])
    assert v.view and v.shape == (10**6,)
    u = tx.plan(tx.unique_with_counts, [1, 1, 2])
    assert [i.upper_bound for i in u] == [True, False, True]
    with pytest.raises(tx.InvalidArgumentError, match="reshape"):
        tx.plan(tx.reshape, x, [7, -1])
    with pytest.raises(ValueError):
        tx.plan(print, x)


def test_results_export_dlpack_without_a_copy():
    y = tx.tile(np.arange(3, dtype=np.float32), [2])
    z = np.from_dlpack(y)  # NumPy's own __dlpack__ on the result: the tensorx buffer itself
    assert np.shares_memory(y, z)
    del y
    assert z.tolist() == [0, 1, 2, 0, 1, 2]


# ---- bytes-like inputs (buffer protocol) ---------------------------------------------------------
def test_decode_raw_takes_buffers_without_copying_them(tmp_path):
    import mmap
    import tracemalloc
    data = np.arange(1 << 20, dtype="<i4").tobytes()  # 4 MiB
    want = np.arange(1 << 20, dtype=np.int32)
    path = tmp_path / "raw.bin"
    path.write_bytes(data)
    with open(path, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    ba = bytearray(data)
    for buf in (ba, memoryview(ba), memoryview(data), mm, memoryview(mm)):
        tracemalloc.start()
        try:
            y = tx.decode_raw(buf, np.int32)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert y.dtype == np.int32 and np.array_equal(y, want), type(buf)
        assert peak < len(data) // 8, (type(buf), peak)  # no copy of the 4 MiB into Python
        del y
    rows = tx.decode_raw([bytearray(b"\x01\x00"), memoryview(b"\x02\x00")], "int16")
    assert rows.tolist() == [[1], [2]]
    del buf
    mm.close()  # no tensor holds it any more


def test_a_bytes_like_input_is_used_in_place_and_held():
    import mmap
    ba = bytearray(b"\x01\x02\x03\x04")
    u = tx.string_tensor_unpack(ba)  # symbols: a view of the string's bytes
    assert np.shares_memory(u.symbols, np.frombuffer(ba, np.uint8))
    ba[0] = 9
    assert u.symbols.tolist() == [9, 2, 3, 4] and not u.symbols.flags.writeable
    with pytest.raises(BufferError):
        ba.extend(b"x")  # tensorx holds an export: the memory cannot move under the view
    del u
    ba.extend(b"x")  # released with the last view
    mm = mmap.mmap(-1, 8)
    mm.write(b"\x05\x00\x06\x00\x07\x00\x08\x00")
    v = tx.string_tensor_unpack(mm).symbols
    with pytest.raises(BufferError):
        mm.close()
    assert v.tolist() == [5, 0, 6, 0, 7, 0, 8, 0]
    del v
    mm.close()
    # a strided memoryview of bytes is copied once, as bytes() reads it (fuzz_python found it
    # refused with BufferError)
    sv = memoryview(bytearray(b"abcd"))[::2]
    assert tx.string_tensor_unpack(sv).symbols.tolist() == list(b"ac")
    assert tx.gather([sv, b"xy"], [0]).tolist() == [b"ac"]
    # a memoryview of numbers is a numeric tensor, as np.asarray reads it
    f = np.arange(4, dtype=np.float32)
    r = tx.reshape(memoryview(f), [2, 2])
    assert r.dtype == np.float32 and r.tolist() == [[0, 1], [2, 3]]
