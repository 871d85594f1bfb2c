# SPDX-License-Identifier: Apache-2.0
"""DLPack through tensorx: results exported with tx_tensor_to_dlpack_versioned (read-only ones
flagged, not refused), producers imported with tx_tensor_from_dlpack(_versioned), NumPy and (when
python3-torch is installed) PyTorch on the other side; and string inputs wrapped without copying
their bytes (tx_tensor_wrap_strings)."""
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
    w = tx.from_dlpack(tx.dlpack(v))  # asks for max_version=(1, 0)
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
