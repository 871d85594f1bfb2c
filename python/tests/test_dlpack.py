# SPDX-License-Identifier: Apache-2.0
"""DLPack through tensorx: results exported with tx_tensor_to_dlpack_versioned (read-only ones
flagged, not refused), producers imported with tx_tensor_from_dlpack(_versioned), NumPy and (when
python3-torch is installed) PyTorch on the other side; DLPack 1.1's low-bit types (ml_dtypes
arrays; JAX, when installed, on the other side for the types its DLPack takes); and string inputs
wrapped without copying their bytes (tx_tensor_wrap_strings)."""
import ctypes
import gc
import sys
import threading

import numpy as np
import pytest
import tensorx as tx

try:
    import torch
except ImportError:  # Debian's python3-torch is large: these tests skip without it
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch not installed (Debian: "
                                 "python3-torch); the NumPy and tensorx producers still run")


def read_only_result():
    buf = np.frombuffer(bytes(range(16)), np.uint8)
    v = tx.reshape(buf, [4, 4])
    assert not v.flags.writeable
    return buf, v


def test_read_only_result_exports_as_versioned_and_comes_back_read_only():
    buf, v = read_only_result()
    cap = tx.to_dlpack(v)
    assert 'dltensor_versioned"' in repr(cap)
    w = tx.from_dlpack(cap)
    assert not w.flags.writeable and np.shares_memory(w, buf) and w.shape == (4, 4)
    np.testing.assert_array_equal(w, v)
    assert 'used_dltensor_versioned"' in repr(cap)
    with pytest.raises(TypeError):
        tx.from_dlpack(cap)  # consumed once
    out = tx.expand_dims(w, 0)  # the read-only flag carries on through ops
    assert not out.flags.writeable and np.shares_memory(out, buf)


def test_read_only_through_the_producer_protocol():
    buf, v = read_only_result()
    w = tx.from_dlpack(tx.dlpack(v))  # asks for max_version=(1, 1)
    assert not w.flags.writeable and np.shares_memory(w, buf)
    r = tx.reshape(tx.dlpack(v), [16])  # a producer as an op input
    assert not r.flags.writeable and np.shares_memory(r, buf)


def numpy_asks_for_versioned():
    """Whether np.from_dlpack passes max_version (NumPy >= 2.1: DLPack 1.x) to a producer."""
    seen = {}

    class Probe:
        def __dlpack__(self, **kwargs):
            seen.update(kwargs)
            return np.arange(1).__dlpack__()

        def __dlpack_device__(self):
            return (1, 0)

    np.from_dlpack(Probe())
    return seen.get("max_version") is not None


def test_unversioned_export_refuses_read_only_unless_copied():
    buf, v = read_only_result()
    with pytest.raises(BufferError, match="read-only"):
        tx.to_dlpack(v, max_version=None)
    if numpy_asks_for_versioned():  # NumPy 2: the versioned struct, which says read-only
        n = np.from_dlpack(tx.dlpack(v))
        assert not n.flags.writeable and np.shares_memory(n, buf)
    else:
        with pytest.raises(BufferError, match="read-only"):
            np.from_dlpack(tx.dlpack(v))  # NumPy 1.24 asks for the unversioned struct
    c = tx.from_dlpack(tx.to_dlpack(v, max_version=None, copy=True))
    assert c.flags.writeable and not np.shares_memory(c, buf)
    np.testing.assert_array_equal(c, v)


def test_writable_results_export_without_a_copy():
    y = tx.tile(np.arange(4, dtype=np.float32), [2])
    n = np.from_dlpack(tx.dlpack(y))
    assert np.shares_memory(n, y)
    z = tx.from_dlpack(tx.dlpack(y))
    assert z.flags.writeable and np.shares_memory(z, y)
    z[0] = 7
    assert y[0] == 7
    # NumPy's own __dlpack__ works on writable results too
    assert np.shares_memory(np.from_dlpack(y), y)


def test_numpy_producers():
    x = np.arange(12, dtype=np.int16)
    r = tx.from_dlpack(x)  # NumPy 1.24 refuses max_version: its unversioned tensor
    assert np.shares_memory(r, x) and r.flags.writeable
    strided = x.reshape(3, 4)[:, ::2]
    np.testing.assert_array_equal(tx.from_dlpack(strided), strided)  # copied by tensorx


def test_copy_rules_and_references():
    x = np.arange(12, dtype=np.float32)
    before = sys.getrefcount(x)
    cap = tx.to_dlpack(x)  # wrapped: the capsule holds x
    assert sys.getrefcount(x) == before + 1
    del cap
    gc.collect()
    assert sys.getrefcount(x) == before
    strided = x.reshape(3, 4)[:, ::2]
    with pytest.raises(BufferError, match="copy"):
        tx.to_dlpack(strided, copy=False)
    np.testing.assert_array_equal(tx.from_dlpack(tx.to_dlpack(strided)), strided)
    y = tx.tile(x, [2])
    before = sys.getrefcount(y)
    cap = tx.to_dlpack(y)  # an op output: exported from its own tensor, y not held
    assert sys.getrefcount(y) == before
    del y
    gc.collect()
    assert tx.from_dlpack(cap)[13] == 1
    with pytest.raises(BufferError):
        tx.to_dlpack(np.array([b"a"], dtype=object))  # no DLPack dtype for strings


def test_deleters_run_on_other_threads():
    x = np.arange(1000, dtype=np.float64)
    before = sys.getrefcount(x)
    arrays = [tx.from_dlpack(tx.to_dlpack(x)) for _ in range(64)]
    assert sys.getrefcount(x) == before + 64

    def drop(k):
        for a in arrays[k::4]:
            assert a[999] == 999
        del arrays[k::4][:]

    threads = [threading.Thread(target=drop, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    arrays.clear()
    gc.collect()
    assert sys.getrefcount(x) == before


@needs_torch
def test_pytorch_round_trip():
    t = torch.arange(12, dtype=torch.float32)
    r = tx.reshape(t, [3, 4])  # torch as a producer (its unversioned struct): no copy
    assert r.ctypes.data == t.data_ptr() and r.flags.writeable
    back = torch.from_dlpack(tx.dlpack(tx.transpose(r)))  # tensorx as the producer
    assert torch.equal(back, t.reshape(3, 4).T)
    y = tx.tile(np.arange(3, dtype=np.int64), [2])
    ty = torch.from_dlpack(tx.dlpack(y))
    assert ty.data_ptr() == y.ctypes.data and ty.tolist() == [0, 1, 2, 0, 1, 2]
    bf = torch.tensor([1.5, -2.0, 3.25], dtype=torch.bfloat16)
    b = tx.reverse(bf, axis=[0])  # bfloat16, which np.from_dlpack refuses
    assert b.dtype.names == ("bfloat16",) or b.dtype.name == "bfloat16"
    assert torch.equal(torch.from_dlpack(tx.dlpack(b)), bf.flip(0))
    _, v = read_only_result()
    with pytest.raises(BufferError, match="read-only"):
        torch.from_dlpack(tx.dlpack(v))  # PyTorch 1.13 speaks only unversioned DLPack


# ---- DLPack 1.1: float8, float6, float4, int4, int2 -------------------------------------------
try:
    import ml_dtypes
except ImportError:  # Debian's route has no ml_dtypes: these tests skip without it
    ml_dtypes = None
try:
    import jax
    import jax.numpy as jnp
    jax.config.update("jax_platforms", "cpu")
except ImportError:  # JAX (jax + jaxlib from the package index) is optional
    jax = None
needs_ml_dtypes = pytest.mark.skipif(ml_dtypes is None, reason="ml_dtypes not installed")
needs_jax = pytest.mark.skipif(jax is None or ml_dtypes is None,
                               reason="JAX not installed (pip install jax)")

# ml_dtypes name -> (DLPack 1.1 code, bits), from dmlc/dlpack's dlpack.h (v1.1).
LOWBIT = {"float8_e4m3b11fnuz": (9, 8), "float8_e4m3fn": (10, 8), "float8_e4m3fnuz": (11, 8),
          "float8_e5m2": (12, 8), "float8_e5m2fnuz": (13, 8), "float8_e8m0fnu": (14, 8),
          "float6_e2m3fn": (15, 6), "float6_e3m2fn": (16, 6), "float4_e2m1fn": (17, 4),
          "int4": (0, 4), "uint4": (1, 4), "int2": (0, 2), "uint2": (1, 2)}
# The types JAX's DLPack takes both ways (JAX 0.10: int4 / uint4 / int2 / uint2 have "no DLPack
# equivalent", float6 arrays cannot be made, and a float4 DLPack import fails even for JAX's own
# capsule: "PjRt CPU buffers only support default layout"); float4 comes from JAX only.
JAX_BOTH_WAYS = ["float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",
                 "float8_e5m2fnuz", "float8_e8m0fnu"]
JAX_TO_TENSORX = JAX_BOTH_WAYS + ["float4_e2m1fn"]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32),
                ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p),
                ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


def capsule_header(cap):
    """(version, flags, DLTensor) of an unconsumed capsule (version and flags None when
    unversioned), read with ctypes: the capsule keeps its tensor."""
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    if 'dltensor_versioned"' in repr(cap):
        m = _DLManagedTensorVersioned.from_address(get(cap, b"dltensor_versioned"))
        return (m.major, m.minor), m.flags, m.dl_tensor
    return None, None, _DLTensor.from_address(get(cap, b"dltensor"))


def lowbit_array(name, n):
    """n elements of ml_dtypes' `name`: every code in turn (one per byte, as ml_dtypes holds them)."""
    bits = LOWBIT[name][1]
    return (np.arange(n, dtype=np.int64) % (1 << bits)).astype(np.uint8).view(getattr(ml_dtypes, name))


def packed(codes, bits):
    """DLPack's packed layout by NumPy: element i in bits [i * bits, (i + 1) * bits), LSB first."""
    b = np.unpackbits(codes.astype(np.uint8).reshape(-1, 1), axis=1, bitorder="little")[:, :bits]
    return np.packbits(b.ravel(), bitorder="little")


@needs_ml_dtypes
@pytest.mark.parametrize("name", sorted(LOWBIT))
def test_lowbit_versioned_capsules_are_padded_and_shared(name):
    code, bits = LOWBIT[name]
    x = lowbit_array(name, 2 * 256 + 1 if bits == 8 else 2 * (1 << bits) + 1)
    y = tx.reshape(x, [-1])
    cap = tx.to_dlpack(y)
    version, flags, dl = capsule_header(cap)
    assert version == (1, 1) and (dl.dtype.code, dl.dtype.bits, dl.dtype.lanes) == (code, bits, 1)
    assert flags == (4 if bits < 8 else 0)  # DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED
    assert dl.data == y.ctypes.data
    back = tx.from_dlpack(cap)
    assert back.dtype == x.dtype and np.shares_memory(back, y)
    np.testing.assert_array_equal(back.view(np.uint8), x.view(np.uint8))
    _, v = read_only_result()  # read-only too: flagged, shared
    ro = tx.bitcast(v, name) if bits == 8 else None
    if ro is not None:
        r = tx.from_dlpack(tx.dlpack(ro))
        assert not r.flags.writeable and np.shares_memory(r, v)


@needs_ml_dtypes
@pytest.mark.parametrize("name", sorted(LOWBIT))
def test_lowbit_unversioned_capsules(name):
    code, bits = LOWBIT[name]
    for n in (1, 7, 2 * (1 << min(bits, 6)) + 1):  # odd counts: the last byte padded
        x = lowbit_array(name, n)
        cap = tx.to_dlpack(x, max_version=None)
        version, _, dl = capsule_header(cap)
        assert version is None and (dl.dtype.code, dl.dtype.bits) == (code, bits)
        if bits < 8:  # DLPack's packed layout in a copy: the unversioned form has no padded flag
            assert dl.data != x.ctypes.data
            want = packed(x.view(np.uint8), bits)
            got = np.ctypeslib.as_array(ctypes.cast(dl.data, ctypes.POINTER(ctypes.c_uint8)),
                                        (len(want),))
            np.testing.assert_array_equal(got, want)
        else:
            assert dl.data == x.ctypes.data
        back = tx.from_dlpack(cap)  # packed in, unpacked
        assert back.dtype == x.dtype and back.flags.writeable
        np.testing.assert_array_equal(back.view(np.uint8), x.view(np.uint8))
        assert np.shares_memory(back, x) == (bits == 8)


@needs_ml_dtypes
def test_lowbit_read_only_sub_byte_leaves_unversioned_packed():
    x = lowbit_array("float4_e2m1fn", 5)
    x.flags.writeable = False
    back = tx.from_dlpack(tx.to_dlpack(x, max_version=None))  # a packed copy: the consumer's
    assert back.flags.writeable and not np.shares_memory(back, x)
    np.testing.assert_array_equal(back.view(np.uint8), x.view(np.uint8))
    e = lowbit_array("float8_e5m2", 5)
    e.flags.writeable = False
    with pytest.raises(BufferError, match="read-only"):
        tx.to_dlpack(e, max_version=None)  # in place, as every one-byte dtype


@needs_ml_dtypes
def test_lowbit_padded_bytes_tensorx_would_normalise_are_copied():
    raw = np.array([0xF3, 0x02, 0x41, 0xFF], dtype=np.uint8)  # upper bits set
    raw.flags.writeable = False
    x = raw.view(ml_dtypes.int2)
    back = tx.from_dlpack(tx.dlpack(x))  # versioned, padded, read-only
    assert not back.flags.writeable and not np.shares_memory(back, raw)
    np.testing.assert_array_equal(back.view(np.uint8), raw & 3)
    np.testing.assert_array_equal(raw, [0xF3, 0x02, 0x41, 0xFF])  # the producer's bytes kept
    np.testing.assert_array_equal(back.astype(np.int8), raw.view(ml_dtypes.int2).astype(np.int8))


@needs_jax
@pytest.mark.parametrize("name", JAX_TO_TENSORX)
def test_jax_to_tensorx(name):
    bits = LOWBIT[name][1]
    x = lowbit_array(name, 2 * (1 << bits) + 1).reshape(-1, 1)
    j = jnp.asarray(x)
    r = tx.from_dlpack(j)  # JAX gives the unversioned struct: float4 packed, unpacked here
    assert r.dtype == x.dtype and r.shape == x.shape
    np.testing.assert_array_equal(r.view(np.uint8), np.asarray(j).view(np.uint8))
    np.testing.assert_array_equal(r.view(np.uint8), x.view(np.uint8))
    t = tx.transpose(j)  # a JAX array as an op input
    np.testing.assert_array_equal(t.view(np.uint8), x.T.view(np.uint8))


@needs_jax
@pytest.mark.parametrize("name", JAX_BOTH_WAYS)
def test_tensorx_to_jax(name):
    x = lowbit_array(name, 257)
    y = tx.reverse(x, axis=[0])
    j = jnp.from_dlpack(tx.dlpack(y))
    assert j.dtype == x.dtype
    np.testing.assert_array_equal(np.asarray(j).view(np.uint8), x[::-1].view(np.uint8))


# ---- strings without copies -------------------------------------------------------------------
def bytes_address(b):
    return np.frombuffer(b, np.uint8).ctypes.data


def test_S_arrays_are_wrapped_in_place():
    s = np.array([b"Intel", b"OpenV"], dtype="S5")  # back to back: symbols is a view
    u = tx.string_tensor_unpack(s)
    assert np.shares_memory(u.symbols, s) and not u.symbols.flags.writeable
    assert u.symbols.tobytes() == b"IntelOpenV"
    before = sys.getrefcount(s)
    del s
    gc.collect()
    assert u.symbols.tobytes() == b"IntelOpenV"  # the tensor kept the array alive
    assert before >= 2


def test_object_arrays_point_at_each_bytes_object():
    b = b"abcdefgh" * 10
    o = np.array([b], dtype=object)
    before = sys.getrefcount(b)
    u = tx.string_tensor_unpack(o)
    assert u.symbols.ctypes.data == bytes_address(b)  # no copy of the bytes
    assert sys.getrefcount(b) == before + 1           # held by the tensor, not by o
    o[0] = b"zz"  # replacing the element does not free what the view reads
    gc.collect()
    assert u.symbols.tobytes() == b
    del u
    gc.collect()
    assert sys.getrefcount(b) == before - 1


@pytest.mark.parametrize("items", [
    [b"a\0", b"bc", b"", b"\0\0x"],
    ["x", "ünï", ""],
    [b"same"] * 5,
])
def test_wrapped_strings_give_the_copied_results(items):
    o = np.empty(len(items), dtype=object)
    o[:] = items
    want = [x.encode() if isinstance(x, str) else x for x in items]
    idx = list(range(len(items)))[::-1]
    assert tx.gather(o, idx).tolist() == [want[i] for i in idx]
    assert tx.reshape(o, [-1, 1]).ravel().tolist() == want
    s = np.array(want, dtype="S")  # 'S' drops trailing NULs, as NumPy reads it
    assert tx.gather(s, idx).tolist() == [s[i] for i in idx]
    strided = np.array([w for w in want for _ in "ab"], dtype="S")[::2]  # strided: one copy
    assert tx.gather(strided, idx).tolist() == [s[i] for i in idx]
