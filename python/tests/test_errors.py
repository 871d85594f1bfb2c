# SPDX-License-Identifier: Apache-2.0
"""tensorx's statuses as Python exceptions carrying its messages; bad Python input as TypeError or
ValueError, never a crash; Python values no tensor holds; the tensor cap."""
import os
import sys

import numpy as np
import pytest
import tensorx as tx

X = np.arange(6, dtype=np.float32)
IMG = np.zeros((1, 3, 3, 1), np.float32)


def test_hierarchy():
    for cls, base in [(tx.InvalidArgumentError, ValueError), (tx.OutOfRangeError, IndexError),
                      (tx.ResourceExhaustedError, MemoryError),
                      (tx.UnimplementedError, NotImplementedError),
                      (tx.InternalError, RuntimeError), (tx.DataLossError, OSError)]:
        assert issubclass(cls, tx.Error) and issubclass(cls, base)
    assert issubclass(tx.Error, Exception)


def test_exception_classes_cover_the_librarys_status_list():
    # The extension takes the codes from the library's TX_STATUS_LIST by name: every error status
    # there needs its class, and a name the list lacks is refused (nothing is changed).
    from tensorx import _tensorx as C
    names = {c.status for c in tx._ERRORS.values()}
    assert names == {"invalid_argument", "resource_exhausted", "out_of_range", "unimplemented",
                     "internal", "data_loss"}
    less = dict(tx._ERRORS)
    del less["out_of_range"]
    with pytest.raises(ValueError, match="no exception for out_of_range"):
        C._register(tx._ABSENT, less, list(tx._OUT), dict(tx._IN))
    with pytest.raises(ValueError, match="a status tensorx does not have"):
        C._register(tx._ABSENT, {**tx._ERRORS, "cancelled": tx.Error}, list(tx._OUT),
                    dict(tx._IN))
    with pytest.raises(tx.OutOfRangeError):
        tx.extract_image_patches(IMG, [1, 2, 2, 1], [1, 0, 1, 1], [1, 1, 1, 1], "VALID")


@pytest.mark.parametrize("cls,message,call", [
    (tx.InvalidArgumentError, "reshape: cannot infer the -1 in shape [4,-1]",
     lambda: tx.reshape(X, [4, -1])),
    (tx.InvalidArgumentError, "gather:", lambda: tx.gather(X, [6])),
    (tx.OutOfRangeError, "strides = [1, 0, 1, 1] is out of range",
     lambda: tx.extract_image_patches(IMG, [1, 2, 2, 1], [1, 0, 1, 1], [1, 1, 1, 1], "VALID")),
    (tx.ResourceExhaustedError, "tile: 4611686018427387904 elements of float32 overflow size_t",
     lambda: tx.tile([1.0], [4611686018427387904])),
    (tx.UnimplementedError, "Cast string to float", lambda: tx.cast([b"1"], "float32")),
    (tx.InvalidArgumentError, "oob 'sideways' is not one of error, zero, clamp, wrap",
     lambda: tx.gather(X, [0], oob="sideways")),
    (tx.InvalidArgumentError, "unknown dtype 'float33'", lambda: tx.cast(X, "float33")),
    (tx.InvalidArgumentError, "mode 'fast' is not default, saturate, checked or onnx",
     lambda: tx.cast(X, "int8", mode="fast")),
])
def test_statuses_raise_their_exception_with_tensorxs_message(cls, message, call):
    with pytest.raises(cls) as e:
        call()
    assert message in str(e.value)


def test_plan_predicts_the_error():
    with pytest.raises(tx.ResourceExhaustedError, match="overflow size_t"):
        tx.plan(tx.tile, [1.0], [4611686018427387904])
    with pytest.raises(tx.OutOfRangeError):
        tx.plan(tx.extract_image_patches, IMG, [1, 2, 2, 1], [1, 0, 1, 1], [1, 1, 1, 1], "VALID")


@pytest.mark.parametrize("exc,call", [
    (TypeError, lambda: tx.reshape(None, [2])),                 # None tensor
    (TypeError, lambda: tx.reshape(X, None)),
    (TypeError, lambda: tx.cast(X)),                            # missing argument
    (TypeError, lambda: tx.cast(X, "int8", bogus=1)),           # unknown argument
    (TypeError, lambda: tx.cast(X, "int8", "default", False, 5)),  # too many
    (TypeError, lambda: tx.cast(X, "int8", mode=None)),         # None for an attribute
    (TypeError, lambda: tx.cast(X, ["int8"])),                  # unhashable dtype
    (TypeError, lambda: tx.cast(X, {})),
    (TypeError, lambda: tx.cast(X, 3.5)),
    (TypeError, lambda: tx.expand_dims(X, 1.5)),                # float for int
    (TypeError, lambda: tx.expand_dims(X, [1])),                # list for int
    (TypeError, lambda: tx.expand_dims(X, {1: 2})),             # unhashable
    (TypeError, lambda: tx.encode_raw(X, little_endian="yes")),  # str for bool
    (TypeError, lambda: tx.squeeze(X, squeeze_dims=[1.5])),
    (TypeError, lambda: tx.squeeze(X, squeeze_dims=object())),
    (TypeError, lambda: tx.concat(X, 0)),                       # a tensor for a list
    (TypeError, lambda: tx.concat([X, None], 0)),
    # found by fuzz/fuzz_python.py: a 2-D memoryview for a list raised NotImplementedError, a
    # 2-D int array for an int list built its tolist() (2**40 empty lists), "," SyntaxError
    (TypeError, lambda: tx.concat(memoryview(b"abcd").cast("B", (2, 2)), 0)),
    (TypeError, lambda: tx.concat(bytearray(b"ab"), 0)),
    (TypeError, lambda: tx.squeeze(X, squeeze_dims=np.empty((2**40, 0), np.int8))),
    (TypeError, lambda: tx.squeeze(X, squeeze_dims=np.zeros((1, 1), np.int32))),
    (TypeError, lambda: tx.squeeze(X, squeeze_dims=memoryview(b"abcd").cast("B", (2, 2)))),
    (TypeError, lambda: tx.plan("squeeze", X, squeeze_dims=memoryview(b"ab").cast("B", (1, 2)))),
    (TypeError, lambda: tx.squeeze(X, squeeze_dims=np.ma.array(np.zeros((1, 1), np.int32)))),
    (tx.InvalidArgumentError, lambda: tx.cast(X, ",")),
    (TypeError, lambda: tx.cast(X, "i4,i4")),  # NumPy's structured dtype: none of ours
    (TypeError, lambda: tx.reshape(np.array([1, b"a"], dtype=object), [2])),
    (TypeError, lambda: tx.reshape(np.zeros(2, np.longdouble), [2])),
    (TypeError, lambda: tx.reshape(object(), [1])),
    (TypeError, lambda: tx.pad(X, [[1, 1]], constant_values=[1])),
    (ValueError, lambda: tx.expand_dims(X, 2**64)),
    (ValueError, lambda: tx.gather(X, [0], oob="err\0or")),
    (ValueError, lambda: tx.reshape([[1, 2], [3]], [3])),       # ragged list
])
def test_bad_python_input_is_type_or_value_error(exc, call):
    with pytest.raises(exc):
        call()


# ---- Python values no tensor holds ---------------------------------------------------------------
@pytest.mark.parametrize("exc,words,call", [
    (ValueError, ["cast: x: element 0 (18446744073709551616) does not fit in 64 bits"],
     lambda: tx.cast([2**64], "float32")),
    (ValueError, ["element 1 (-9223372036854775809)", "64 bits"],
     lambda: tx.cast([1, -2**63 - 1], "float32")),
    (TypeError, ["cast: x: element 1 is None", "numbers and bools, or bytes and str"],
     lambda: tx.cast([1, None], "float32")),
    (TypeError, ["element [1][0] is None"], lambda: tx.reshape([[1], [None]], [2])),
    (TypeError, ["element 1 is dict"], lambda: tx.reshape([1.5, {}], [2])),
    (TypeError, ["string tensor's elements must be bytes or str; element 1 is int"],
     lambda: tx.reshape([b"a", 1], [2])),
])
def test_python_values_name_the_element_and_the_rule(exc, words, call):
    with pytest.raises(exc) as e:
        call()
    assert type(e.value) is exc  # the documented classes, not a tensorx status
    for w in words:
        assert w in str(e.value)


# ---- the tensor cap --------------------------------------------------------------------------------
@pytest.fixture
def cap():
    before = tx.get_max_bytes()
    yield
    tx.set_max_bytes(before)


def test_the_cap_is_the_clis(cap):
    import subprocess
    env = {k: v for k, v in os.environ.items() if k != "TENSORX_MAX_BYTES"}
    half = os.sysconf("SC_PHYS_PAGES") // 2 * os.sysconf("SC_PAGE_SIZE")
    r = subprocess.run([sys.executable, "-c", "import tensorx as tx; print(tx.get_max_bytes())"],
                       env=env, capture_output=True, text=True)
    assert r.returncode == 0 and int(r.stdout) == half, r.stderr  # --max-bytes' default
    tx.set_max_bytes(half)  # whatever $TENSORX_MAX_BYTES this process was given
    with pytest.raises(tx.ResourceExhaustedError) as e:
        tx.one_hot([1, 2], 2**31 - 1)  # 16 GiB: refused before allocating, as the CLI refuses it
    assert str(e.value).startswith(f"one_hot: tensor of 17179869176 bytes exceeds the limit of "
                                   f"{tx.get_max_bytes()} bytes (the cap: ")
    assert "TENSORX_MAX_BYTES" in str(e.value) and isinstance(e.value, MemoryError)
    cli = os.environ.get("TENSORX_CLI", "")
    if cli and os.access(cli, os.X_OK):
        r = subprocess.run([cli, "one_hot", "indices=[1,2]", f"depth={2**31 - 1}",
                            f"--max-bytes={tx.get_max_bytes()}"], capture_output=True, text=True)
        assert r.returncode == 1
        assert str(e.value).split(" (the cap")[0] in r.stderr  # the same message


def test_the_cap_can_be_set(cap):
    before = tx.get_max_bytes()
    assert tx.set_max_bytes("64K") == before and tx.get_max_bytes() == 64 << 10
    tx.tile(np.zeros(1024, np.int8), [64])  # 64 KiB: at the cap
    with pytest.raises(tx.ResourceExhaustedError, match="exceeds the limit of 65536 bytes"):
        tx.tile(np.zeros(1024, np.int8), [65])
    with pytest.raises(tx.ResourceExhaustedError, match="65536"):
        tx.plan(tx.tile, np.zeros(1024, np.int8), [65])  # the plan says it too
    assert tx.set_max_bytes(1 << 20) == 64 << 10  # returns the cap before
    tx.tile(np.zeros(1024, np.int8), [65])
    tx.set_max_bytes(0)  # lifted: the library's own limit
    assert tx.get_max_bytes() == sys.maxsize  # SIZE_MAX / 2
    for bad, exc in [("lots", ValueError), (-1, ValueError), (1.5, TypeError), (True, TypeError)]:
        with pytest.raises(exc):
            tx.set_max_bytes(bad)
    with pytest.raises(ValueError, match="set_max_bytes: 'lots' is not a byte count"):
        tx.set_max_bytes("lots")


@pytest.mark.parametrize("value,want", [("1M", "1048576"), ("4096", "4096"), ("", None)])
def test_tensorx_max_bytes_is_read_at_import(value, want):
    import subprocess
    code = ("import tensorx as tx; print(tx.get_max_bytes())\n"
            "try:\n    tx.tile([1.0], [300000])\nexcept tx.ResourceExhaustedError as e:\n"
            "    print(e)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       env=dict(os.environ, TENSORX_MAX_BYTES=value))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    if want is None:  # empty: the default, as the CLI
        assert int(lines[0]) > 1 << 20 and len(lines) == 1
    else:
        assert lines[0] == want and "exceeds the limit of " + want in lines[1]


def test_a_bad_tensorx_max_bytes_is_the_clis_error():
    import subprocess
    r = subprocess.run([sys.executable, "-c", "import tensorx"], capture_output=True, text=True,
                       env=dict(os.environ, TENSORX_MAX_BYTES="lots"))
    assert r.returncode != 0
    assert "ValueError: TENSORX_MAX_BYTES: 'lots' is not a byte count (e.g. 1073741824, 64M, 2G)" \
        in r.stderr


# ---- decode_raw's messages ---------------------------------------------------------------------
def test_decode_raw_says_when_an_s_array_dropped_nul_bytes():
    s = np.array([b"\x01\x00", b"\x02\x03"])  # NumPy reads element 0 as b"\x01"
    with pytest.raises(tx.InvalidArgumentError) as e:
        tx.decode_raw(s, "uint8")
    assert "same size" in str(e.value) and "NumPy 'S' array" in str(e.value)
    assert "trailing NULs" in str(e.value)
    with pytest.raises(tx.InvalidArgumentError) as e:
        tx.decode_raw(np.array([b"\x01\x01\x01", b"\x02\x03"], dtype=object), "uint16")
    assert "'S' array" not in str(e.value)  # bytes objects keep every byte: no such hint
    assert tx.decode_raw([b"\x01\x00", b"\x02\x03"], "uint8").tolist() == [[1, 0], [2, 3]]
