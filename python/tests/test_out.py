# SPDX-License-Identifier: Apache-2.0
"""NumPy's out= on every op with one output (the op spec's outputs: neither a named tuple nor a
list): the result is written into `out`, which is returned; `out` must be a writeable, C-contiguous
ndarray of the result's dtype and shape exactly, or the call raises NumPy's category of error
(TypeError for a non-array or another dtype, ValueError for another shape or a read-only array)
and leaves `out` as it was.  The ops come from the op spec and their calls from examples.py."""
import inspect
import mmap

import numpy as np
import pytest

import tensorx as tx
from examples import EXAMPLES
from tensorx import _tensorx

SINGLE = {name for name, outs, is_list in _tensorx.outputs() if not is_list and len(outs) == 1}
ONE = [e for e in EXAMPLES if e[0] in SINGLE]
SEVERAL = [e for e in EXAMPLES if e[0] not in SINGLE]
StringDType = getattr(getattr(np, "dtypes", None), "StringDType", None)


def _ids(examples):
    return [f"{e[0]}-{k}" for k, e in enumerate(examples)]


def _same(a, b):
    """Bit for bit (NaN payloads and -0.0 count), or element for element for object arrays."""
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype.hasobject:
        assert [type(e) for e in a.ravel()] == [type(e) for e in b.ravel()]
        assert a.tolist() == b.tolist()
    else:
        assert a.tobytes() == b.tobytes()


def _filled(shape, dtype):
    """An array of `dtype` whose bytes are not a result's: 0xA5 everywhere, or b"junk" objects."""
    a = np.empty(shape, dtype)
    if a.dtype.hasobject:
        a[...] = b"junk"
    else:
        a.reshape(-1).view(np.uint8)[:] = 0xA5
    return a


def _other_dtype(d):
    return np.dtype(np.float64) if d != np.float64 else np.dtype(np.float32)


def test_exactly_the_single_output_ops_take_out():
    assert SINGLE and len(SINGLE) < len(tx.OPS)
    for name, fn in tx.OPS.items():
        params = inspect.signature(fn).parameters
        if name in SINGLE:
            p = params["out"]
            assert p.kind == p.KEYWORD_ONLY and p.default is None and list(params)[-1] == "out"
            assert "out (ndarray" in fn.__doc__
        else:
            assert "out" not in params, name


def test_every_single_output_op_has_an_example():
    assert {e[0] for e in ONE} == SINGLE


@pytest.mark.parametrize("op,args,kwargs", ONE, ids=_ids(ONE))
def test_every_single_output_op_writes_into_out(op, args, kwargs):
    fn = getattr(tx, op)
    ref = fn(*args, **kwargs)
    out = _filled(ref.shape, ref.dtype)
    r = fn(*args, **kwargs, out=out)
    assert r is out
    _same(out, ref)
    assert not np.shares_memory(out, ref)


@pytest.mark.parametrize("op,args,kwargs", ONE, ids=_ids(ONE))
def test_every_single_output_op_refuses_another_dtype_or_shape(op, args, kwargs):
    fn = getattr(tx, op)
    ref = fn(*args, **kwargs)
    wrong = _filled(ref.shape, _other_dtype(ref.dtype))
    before = wrong.copy()
    with pytest.raises(TypeError) as e:
        fn(*args, **kwargs, out=wrong)
    assert f"{op}: out: dtype {wrong.dtype} is not the result's dtype {ref.dtype}" in str(e.value)
    _same(wrong, before)
    wrong = _filled(ref.shape + (1,), ref.dtype)
    before = wrong.copy()
    with pytest.raises(ValueError) as e:
        fn(*args, **kwargs, out=wrong)
    assert f"shape {wrong.shape} is not the result's shape {ref.shape}" in str(e.value)
    _same(wrong, before)


@pytest.mark.parametrize("op,args,kwargs", SEVERAL, ids=_ids(SEVERAL))
def test_ops_with_several_outputs_take_no_out(op, args, kwargs):
    with pytest.raises(TypeError, match="out"):
        getattr(tx, op)(*args, **kwargs, out=np.empty(1))


def test_plan_takes_the_ops_parameters_without_out():
    with pytest.raises(TypeError, match="out"):
        tx.plan(tx.tile, [1, 2], [2], out=np.empty(4, np.int32))


X = np.arange(6, dtype=np.int32).reshape(2, 3)


@pytest.mark.parametrize("out", [[0] * 6, memoryview(bytearray(24)).cast("i", (2, 3)),
                                 bytearray(24), 5, "out"],
                         ids=["list", "memoryview", "bytearray", "int", "str"])
def test_out_must_be_an_ndarray(out):
    with pytest.raises(TypeError, match=r"reverse: out: must be a numpy\.ndarray, got"):
        tx.reverse(X, axis=[1], out=out)


def _read_only(shape, dtype):
    a = np.zeros(shape, dtype)
    a.flags.writeable = False
    return a


@pytest.mark.parametrize("make_out", [
    lambda: [0] * 6, lambda: memoryview(bytearray(24)).cast("i", (2, 3)),
    lambda: _read_only((2, 3), np.int32), lambda: np.zeros((2, 3), np.int64),
    lambda: np.zeros((2, 3), ">i4"), lambda: np.zeros((3, 2), np.int32),
    lambda: np.zeros((2, 1), np.int32), lambda: np.zeros((), np.int32),
], ids=["list", "memoryview", "read-only", "int64", "big-endian", "shape", "broadcast", "0-d"])
def test_errors_are_the_class_numpy_raises_for_the_same_out(make_out):
    """NumPy's ufunc with casting='no' (exact dtype, as tensorx's out=) is the oracle for the
    error's class: TypeError for a non-array or another dtype, ValueError for the rest."""
    with pytest.raises((TypeError, ValueError)) as numpy_error:
        np.negative(X, out=make_out(), casting="no")
    with pytest.raises((TypeError, ValueError)) as tensorx_error:
        tx.reverse(X, axis=[1], out=make_out())
    expected = TypeError if isinstance(numpy_error.value, TypeError) else ValueError
    assert isinstance(tensorx_error.value, expected), (numpy_error.value, tensorx_error.value)


def test_a_read_only_out_is_refused_and_left_alone():
    out = np.zeros((2, 3), np.int32)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="reverse: out: the array is read-only"):
        tx.reverse(X, axis=[1], out=out)
    assert not out.any()


def test_a_read_only_file_mapping_is_refused(tmp_path):
    path = tmp_path / "out.bin"
    path.write_bytes(bytes(24))
    ro = np.memmap(path, np.int32, "r", shape=(2, 3))
    with pytest.raises(ValueError, match="read-only"):
        tx.reverse(X, axis=[1], out=ro)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        view = np.frombuffer(m, np.int32).reshape(2, 3)
        with pytest.raises(ValueError, match="read-only"):
            tx.reverse(X, axis=[1], out=view)
        del view
    assert path.read_bytes() == bytes(24)


def test_a_writable_file_mapping_receives_the_result(tmp_path):
    path = tmp_path / "out.bin"
    path.write_bytes(bytes(24))
    out = np.memmap(path, np.int32, "r+", shape=(2, 3))
    assert tx.reverse(X, axis=[1], out=out) is out
    out.flush()
    del out
    assert np.fromfile(path, np.int32).tolist() == [2, 1, 0, 5, 4, 3]


@pytest.mark.parametrize("layout", ["strided", "fortran", "reversed"])
def test_a_non_contiguous_out_is_refused(layout):
    out = {"strided": lambda: np.zeros((2, 6), np.int32)[:, ::2],
           "fortran": lambda: np.zeros((2, 3), np.int32, order="F"),
           "reversed": lambda: np.zeros((2, 3), np.int32)[:, ::-1]}[layout]()
    with pytest.raises(ValueError, match=r"reverse: out: the array must be C-contiguous "
                                         r"\(shape \(2, 3\), strides"):
        tx.reverse(X, axis=[1], out=out)
    assert not out.any()


def test_a_misaligned_contiguous_out_is_written():
    out = np.zeros(6 * 4 + 1, np.uint8)[1:].view(np.int32).reshape(2, 3)
    assert not out.flags.aligned and out.flags.c_contiguous
    assert tx.reverse(X, axis=[1], out=out) is out
    assert out.tolist() == [[2, 1, 0], [5, 4, 3]]


def test_dtypes_must_match_exactly():
    """No cast, not even a safe one or a change of byte order, as np.copyto(casting='no')."""
    for d in (np.int64, np.float32, np.dtype(">i4"), np.uint32):
        out = np.zeros((2, 3), d)
        with pytest.raises(TypeError, match="is not the result's dtype int32"):
            tx.reverse(X, axis=[1], out=out)
        assert not out.any()
        with pytest.raises(TypeError):  # NumPy's own rule agrees
            np.copyto(out, X, casting="no")


def test_shapes_must_match_exactly():
    """No broadcast and no reshape: the same elements in another shape are refused too."""
    for shape in ((6,), (3, 2), (1, 2, 3), (2, 1), ()):
        out = np.zeros(shape, np.int32)
        with pytest.raises(ValueError, match=r"is not the result's shape \(2, 3\)"):
            tx.reverse(X, axis=[1], out=out)
        assert not out.any()


@pytest.mark.parametrize("call", [
    lambda out: tx.reverse(X, axis=[5], out=out),
    lambda out: tx.gather(X, [7], out=out),
    lambda out: tx.cast([1e10, 1.0], "int32", mode="checked", out=out),
    lambda out: tx.reverse(X, axis=[1], bad_keyword=1, out=out),
], ids=["axis", "index", "cast", "keyword"])
def test_a_failing_op_leaves_out_alone(call):
    out = np.full((2, 3), 77, np.int32)
    with pytest.raises((tx.Error, TypeError)):
        call(out)
    assert (out == 77).all()


def test_out_may_be_the_input():
    """As NumPy's ufuncs do: the result as if computed before out is written."""
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    cases = [(lambda a: tx.reverse(a, axis=[0, 1], out=a), lambda a: a[::-1, ::-1]),
             (lambda a: tx.transpose(a.reshape(2, 2, 3), perm=[0, 2, 1], out=a.reshape(2, 3, 2)),
              lambda a: a.reshape(2, 2, 3).transpose(0, 2, 1)),
             (lambda a: tx.reshape(a, [3, 4], out=a), lambda a: a),
             (lambda a: tx.tile(a[:1], [3, 1], out=a), lambda a: np.tile(a[:1], (3, 1)))]
    for call, numpy_op in cases:
        a = np.arange(12, dtype=np.float32).reshape(3, 4)
        expected = numpy_op(a.copy()).copy()
        r = call(a)
        assert np.shares_memory(r, a)
        assert a.reshape(expected.shape).tobytes() == expected.tobytes()


@pytest.mark.parametrize("shift", [1, -1, 3, -3])
def test_out_may_overlap_the_input(shift):
    """`out` a shifted window of the input's buffer, for a copying op (reverse) and for a view
    (reshape's result is the input's memory, so the copy into out overlaps its source)."""
    for op in (lambda x, out: tx.reverse(x, axis=[0], out=out),
               lambda x, out: tx.reshape(x, [x.size], out=out),
               lambda x, out: tx.strided_slice(x, [0], [x.size], [1], out=out)):
        buf = np.arange(40, dtype=np.int64)
        src, dst = (buf[:30], buf[shift:shift + 30]) if shift > 0 else \
            (buf[-shift:30 - shift], buf[:30])
        expected = op(src.copy(), None)
        untouched = np.setdiff1d(np.arange(40), np.arange(40)[shift:shift + 30] if shift > 0
                                 else np.arange(30))
        assert op(src, dst) is dst
        assert dst.tolist() == expected.tolist()
        assert buf[untouched].tolist() == untouched.tolist()


def test_an_ndarray_subclass_is_written_and_returned():
    class Tagged(np.ndarray):
        pass

    out = np.zeros((2, 3), np.int32).view(Tagged)
    r = tx.reverse(X, axis=[1], out=out)
    assert r is out and type(r) is Tagged
    assert np.asarray(out).tolist() == [[2, 1, 0], [5, 4, 3]]
    # written as an ndarray, as a ufunc's out= is: the subclass's __setitem__ is not called
    masked = np.ma.masked_array(np.zeros((2, 3), np.int32), mask=[[1, 0, 0], [0, 0, 1]])
    assert tx.reverse(X, axis=[1], out=masked) is masked
    assert masked.data.tolist() == [[2, 1, 0], [5, 4, 3]]
    assert masked.mask.tolist() == [[True, False, False], [False, False, True]]


@pytest.mark.parametrize("dtype,bits", [(np.float16, [0x7C01, 0xFE55, 0x8000]),
                                        (np.float32, [0x7F800001, 0xFFC12345, 0x80000000]),
                                        (np.float64, [0x7FF0000000000001, 0xFFF8000000ABCDEF,
                                                      1 << 63])])
def test_nan_payloads_and_negative_zero_are_copied_bit_for_bit(dtype, bits):
    uint = np.dtype(f"u{np.dtype(dtype).itemsize}")
    x = np.array(bits, uint).view(dtype)
    out = _filled(3, dtype)
    assert tx.reverse(x, axis=[0], out=out) is out
    assert out.view(uint).tolist() == bits[::-1]


def test_a_0d_out():
    out = np.array(-1, np.int32)
    assert tx.rank(X, out=out) is out and out.shape == () and out[()] == 2
    assert tx.reshape([7.5], [], out=np.empty((), np.float32))[()] == 7.5
    with pytest.raises(ValueError, match=r"shape \(\) is not the result's shape \(1,\)"):
        tx.reshape(np.float32(7.5), [1], out=np.empty((), np.float32))


def test_an_empty_result():
    x = np.zeros((0, 3), np.float32)
    out = np.empty((3, 0), np.float32)
    assert tx.transpose(x, out=out) is out
    assert tx.tile(np.float32([1, 2]), [0], out=np.empty(0, np.float32)).shape == (0,)
    with pytest.raises(ValueError, match=r"shape \(0, 3\) is not the result's shape \(3, 0\)"):
        tx.transpose(x, out=np.empty((0, 3), np.float32))


STRINGS = np.array([b"ab", b"", b"cde\x00"], dtype=object)


def test_string_results_go_into_an_object_array():
    ref = tx.reverse(STRINGS, axis=[0])
    out = _filled(3, object)
    assert tx.reverse(STRINGS, axis=[0], out=out) is out
    _same(out, ref)
    assert out.tolist() == [b"cde\x00", b"", b"ab"]


@pytest.mark.parametrize("dtype", ["S4", "U4", np.uint8])
def test_string_results_refuse_other_arrays(dtype):
    out = np.zeros(3, dtype)
    with pytest.raises(TypeError, match=r"is not the result's dtype object"):
        tx.reverse(STRINGS, axis=[0], out=out)
    assert out.tobytes() == bytes(out.nbytes)


@pytest.mark.skipif(StringDType is None, reason="StringDType is NumPy 2's")
def test_string_results_of_stringdtype_go_into_a_stringdtype_array():
    with tx.string_dtype("T"):
        ref = tx.reverse(STRINGS, axis=[0])
        out = np.array(["x", "y", "z"], dtype=StringDType())
        assert tx.reverse(STRINGS, axis=[0], out=out) is out
        assert out.tolist() == ref.tolist() == ["cde\x00", "", "ab"]
        obj = _filled(3, object)
        with pytest.raises(TypeError, match="is not the result's dtype"):
            tx.reverse(STRINGS, axis=[0], out=obj)
        assert obj.tolist() == [b"junk"] * 3
