# SPDX-License-Identifier: Apache-2.0
"""What a NumPy user types and gets: the dtypes NumPy lacks as ml_dtypes arrays (the
real package, where it is installed) or the structured fallback with its one-line hint; NumPy 2's
StringDType in and out of every op that takes strings; NumPy's dtype spellings.  The suite runs
under Debian's NumPy 1.24 and a NumPy 2 environment; the tests that need what one lacks skip
there with the reason."""
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest
import tensorx as tx
from examples import EXAMPLES

try:
    import ml_dtypes
except ImportError:  # not a Debian package: the NumPy 2 environment has it
    ml_dtypes = None
needs_ml_dtypes = pytest.mark.skipif(
    ml_dtypes is None, reason="ml_dtypes is not installed (pip install ml_dtypes; Debian has no "
    "package): the structured fallback is tested instead")
StringDType = getattr(getattr(np, "dtypes", None), "StringDType", None)
needs_string_dtype = pytest.mark.skipif(
    StringDType is None, reason=f"StringDType is NumPy 2's; this is NumPy {np.__version__}")

ML_NAMES = ("bfloat16", "float8_e5m2", "float8_e4m3fn", "int4", "uint4")
# values each of those holds exactly
ML_VALUES = {"bfloat16": [1.0, -2.5, 3.09375, 0.0], "float8_e5m2": [1.0, -2.5, 3.0, 0.0],
             "float8_e4m3fn": [1.0, -2.5, 3.25, 0.0], "int4": [7, -8, 3, 0],
             "uint4": [15, 0, 3, 9]}


# ---- ml_dtypes: the real package ---------------------------------------------------------------
@needs_ml_dtypes
@pytest.mark.parametrize("name", ML_NAMES)
def test_results_are_ml_dtypes_arrays(name):
    want = np.dtype(getattr(ml_dtypes, name))
    x = np.array(ML_VALUES[name], np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tx.StructuredDtypeWarning)  # no hint with ml_dtypes
        y = tx.cast(x, name)
    assert y.dtype == want and not y.dtype.names
    assert y.tolist() == x.astype(want).tolist() == [want.type(v) for v in ML_VALUES[name]]
    assert (y.astype(np.float32) == x).all()
    assert tx.dtype_name(y.dtype) == name == tx.dtype_name(getattr(ml_dtypes, name))


@needs_ml_dtypes
@pytest.mark.parametrize("name", ML_NAMES)
def test_ml_dtypes_inputs_are_used_without_a_copy(name):
    a = np.array(ML_VALUES[name], np.float32).astype(getattr(ml_dtypes, name))
    v = tx.reshape(a, [2, 2])  # a view: tensorx wrapped a's memory
    assert v.dtype == a.dtype and np.shares_memory(v, a)
    np.testing.assert_array_equal(tx.cast(a, "float32"), np.float32(ML_VALUES[name]))
    np.testing.assert_array_equal(tx.reverse(a, axis=[0]), a[::-1])


@needs_ml_dtypes
def test_ml_dtypes_int4_bytes_are_read_as_ml_dtypes_reads_them():
    # TF 2.21 decides: a 4-bit value is stored in the low 4 bits of its byte with zeros above, as
    # ml_dtypes stores it, and only those bits are read.  Every ml_dtypes int4 array is used in
    # place, and tensorx's results hold the bytes ml_dtypes and TF write.
    a = np.array([7, -8, -1, 3], np.float32).astype(ml_dtypes.int4)
    raw = a.view(np.uint8).copy()
    assert raw.tolist() == [7, 8, 15, 3]  # what ml_dtypes writes
    assert tx.cast(a, "float32").tolist() == [7, -8, -1, 3]
    r = tx.reshape(a, [2, 2])
    assert r.dtype == ml_dtypes.int4 and r.ravel().tolist() == a.tolist()
    assert np.shares_memory(r, a) and (a.view(np.uint8) == raw).all()
    assert tx.cast(np.int32([-6, -1, 7]), "int4").view(np.uint8).tolist() == [0x0A, 0x0F, 0x07]
    # Upper bits (a bitcast in TF, a view here) are kept by data movement and ignored by casts.
    h = np.array([0xFA, 0x1A], np.uint8).view(ml_dtypes.int4)
    assert tx.cast(h, "int32").tolist() == [-6, -6] == h.astype(np.int32).tolist()
    assert tx.reshape(h, [2]).view(np.uint8).tolist() == [0xFA, 0x1A]
    assert tx.cast(h, "uint4").view(np.uint8).tolist() == [0x0A, 0x0A]
    u = np.array([0xFF, 0x1F], np.uint8).view(ml_dtypes.uint4)  # ml_dtypes reads 15, 15
    assert tx.cast(u, "int32").tolist() == [15, 15] == u.astype(np.int32).tolist()
    p = np.array([7, 0, 3], np.float32).astype(ml_dtypes.int4)
    assert np.shares_memory(tx.reshape(p, [3]), p)
    y = tx.cast(np.float32([-8, -1]), "int4")  # tensorx's bytes, which ml_dtypes reads right
    assert y.tolist() == [-8, -1] and (y + np.array(1, ml_dtypes.int4)).tolist() == [-7, 0]


@needs_ml_dtypes
def test_the_readmes_bfloat16_example_is_a_real_bfloat16_array():
    x = np.arange(6, dtype=np.float32)
    y = tx.cast(x, "bfloat16")  # README.md's line
    assert y.dtype == ml_dtypes.bfloat16 and not y.dtype.names
    assert "bfloat16" in repr(y) and "[(" not in repr(y)  # not the structured fallback's
    z = y + 1  # arithmetic, which the structured fallback has not
    assert z.dtype == ml_dtypes.bfloat16 and z.astype(np.float32).tolist() == [1, 2, 3, 4, 5, 6]


HINT_CHECK = """
import sys, warnings
sys.modules["ml_dtypes"] = None  # as if it were not installed
import numpy as np, tensorx as tx
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    a = tx.cast(np.float32([1.0, 2.0]), "bfloat16")
    b = tx.cast(np.float32([1.0]), "float8_e4m3fn")
    q = tx.cast(np.int8([1]), "qint8")  # never an ml_dtypes dtype: no hint for it
hints = [x for x in w if issubclass(x.category, tx.StructuredDtypeWarning)]
assert len(hints) == 1, [str(x.message) for x in w]
assert a.dtype == np.dtype([("bfloat16", "<u2")]) and a["bfloat16"].tolist() == [0x3F80, 0x4000]
print(hints[0].message)
"""


def test_without_ml_dtypes_the_structured_fallback_says_once_what_to_install():
    r = subprocess.run([sys.executable, "-c", HINT_CHECK], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "install ml_dtypes for bfloat16 arithmetic" in r.stdout, r.stdout


# ---- StringDType ---------------------------------------------------------------------------------
def with_string_dtype(v, dt):
    """v with each string tensor (bytes, an 'S' or object array of bytes, a list of bytes) as an
    array of dt; the rest as it is."""
    if isinstance(v, bytes):
        return np.array(v.decode(), dtype=dt)
    if isinstance(v, np.ndarray) and (v.dtype.kind == "S" or (v.dtype == object and v.size and
                                                              isinstance(v.flat[0], bytes))):
        return np.array([b.decode() for b in v.ravel().tolist()], dtype=dt).reshape(v.shape)
    if isinstance(v, list) and v and all(isinstance(e, bytes) for e in v):
        return np.array([e.decode() for e in v], dtype=dt)
    return v


def texts(a):
    return [e if isinstance(e, str) else e.decode() for e in np.asarray(a).ravel().tolist()]


def has_text_strings(example):
    """Whether the example has string tensors, all of them UTF-8 text (serialized records, such
    as parse_example's, are bytes that no str array can hold)."""
    try:
        return any(with_string_dtype(v, object) is not v for v in example[1])
    except UnicodeDecodeError:
        return False


STRING_EXAMPLES = [e for e in EXAMPLES if has_text_strings(e)]


def test_the_string_examples_are_the_string_ops():
    assert {e[0] for e in STRING_EXAMPLES} >= {
        "string_to_number", "decode_raw", "string_tensor_unpack", "string_tensor_to_tf",
        "string_tensor_to_ort", "gather_nd"}


@needs_string_dtype
@pytest.mark.parametrize("op,args,kwargs", STRING_EXAMPLES, ids=[e[0] for e in STRING_EXAMPLES])
def test_every_op_that_takes_strings_takes_string_dtype(op, args, kwargs):
    dt = StringDType()
    want = getattr(tx, op)(*args, **kwargs)
    got = getattr(tx, op)(*[with_string_dtype(v, dt) for v in args], **kwargs)
    want = list(want) if isinstance(want, (list, tuple)) else [want]
    got = list(got) if isinstance(got, (list, tuple)) else [got]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        if w.dtype == object:  # a string result: StringDType in, StringDType out, as np.strings
            assert g.dtype == dt and g.shape == w.shape and texts(g) == texts(w)
        else:
            assert g.dtype == w.dtype
            np.testing.assert_array_equal(g, w)


@needs_string_dtype
def test_string_results_as_string_dtype_on_request():
    s = [b"ab", "c\u00e9".encode()]
    assert tx.reshape(s, [2]).dtype == object  # the default: bytes
    with tx.string_dtype("T"):
        r = tx.reshape(s, [2, 1])
        assert r.dtype == StringDType() and r.tolist() == [["ab"], ["c\u00e9"]]
        u = tx.string_tensor_unpack(np.array(["xy"], dtype="T"))  # numeric results stay
        assert u.symbols.dtype == np.uint8
        with tx.string_dtype(object):  # nested: bytes again, even from a StringDType input
            o = tx.reshape(np.array(["ab"], dtype="T"), [1])
            assert o.dtype == object and o.tolist() == [b"ab"]
        assert tx.get_string_dtype() == StringDType()
    assert tx.get_string_dtype() is None
    before = tx.set_string_dtype(StringDType)  # the class, an instance, "T" or np.dtype("T")
    try:
        assert before is None and tx.one_hot([0, 1], 2, on_value="y", off_value="n",
                                             dtype="string").dtype == StringDType()
    finally:
        tx.set_string_dtype(before)
    na = StringDType(na_object=None)
    assert tx.reshape(np.array(["a", "b"], dtype=na), [2]).dtype == na  # the input's dtype kept


@needs_string_dtype
def test_string_dtype_setting_is_per_thread_and_checked():
    seen = []
    with tx.string_dtype("T"):
        t = threading.Thread(target=lambda: seen.append(tx.reshape([b"a"], [1]).dtype))
        t.start()
        t.join()
    assert seen == [np.dtype(object)]  # a context variable, as NumPy's errstate
    with tx.string_dtype("T"), pytest.raises(ValueError, match="not UTF-8"):
        tx.reshape([b"\xff"], [1])
    with pytest.raises(TypeError, match="StringDType"):
        tx.set_string_dtype("S")
    with pytest.raises(TypeError, match="element 1 is NoneType"):
        tx.reshape(np.array(["a", None], dtype=StringDType(na_object=None)), [2])


@pytest.mark.skipif(StringDType is not None, reason="NumPy 2 has StringDType")
def test_string_dtype_on_numpy_1_says_it_needs_numpy_2():
    with pytest.raises(TypeError, match="needs NumPy 2"):
        tx.set_string_dtype("T")
    with tx.string_dtype(object):
        assert tx.reshape([b"a"], [1]).dtype == object


# ---- dtype spellings -----------------------------------------------------------------------------
@pytest.mark.parametrize("spelling,want", [
    ("f4", np.float32), ("<i2", np.int16), ("int", np.dtype(int)), ("i4", np.int32),
    ("u2", np.uint16), ("f8", np.float64), ("e", np.float16), ("?", np.bool_),
    ("c8", np.complex64), (np.dtype("f4"), np.float32), (np.float32, np.float32),
    (np.dtype("<u4"), np.uint32), (">i2", np.int16), (b"f4", np.float32),
    ("half", np.float16), ("tf.float32", np.float32), ("float", np.float32),  # the table's
    ("Float64", np.float64),
])
def test_numpy_dtype_spellings(spelling, want):
    y = tx.cast([1, 2], spelling)
    assert y.dtype == np.dtype(want) and y.tolist() == np.array([1, 2]).astype(want).tolist()
    assert tx.cast([3], tx.dtype_name(spelling)).dtype == np.dtype(want)


def test_unknown_and_ambiguous_dtype_names_say_what_to_write():
    with pytest.raises(tx.InvalidArgumentError, match=r"unknown dtype 'float33' \(did you mean "
                       r"'float32'\?\)"):
        tx.cast([1], "float33")
    with pytest.raises(tx.InvalidArgumentError, match="did you mean 'bfloat16'"):
        tx.cast([1], "bfloat61")
    with pytest.raises(tx.InvalidArgumentError, match="tensorx's names: bfloat16, bool"):
        tx.cast([1], "xyzzy")
    with pytest.raises(tx.InvalidArgumentError, match="ambiguous: the CLI's int8, NumPy's int64"):
        tx.cast([1], "i8")
    with pytest.raises(tx.InvalidArgumentError, match="did you mean"):
        tx.dtype_name("flaot32")
    with pytest.raises(TypeError):
        tx.cast([1], "V8")  # NumPy reads it; tensorx has no such dtype
    assert tx.dtype_name("f4") == "float32" and tx.dtype_name("half") == "half"


# ---- the build ---------------------------------------------------------------------------------
def test_the_extension_uses_no_deprecated_numpy_api():
    folder = os.path.join(os.path.dirname(__file__), "..", "tensorx")
    src = "".join(open(os.path.join(folder, f)).read() for f in sorted(os.listdir(folder))
                  if f.startswith("_tensorx") and f.endswith((".c", ".h")))
    assert "#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION" in src
    assert "#define NPY_TARGET_VERSION NPY_1_23_API_VERSION" in src
    assert "->elsize" not in src.replace("((descr)->elsize)", "")
