# SPDX-License-Identifier: Apache-2.0
"""Python and the CLI agree: every case of every conformance suite (the calls test_conformance.py
makes) is run through the tensorx functions and through the `tensorx` command, with the same input
tensors (saved as .npy files) and attributes (in the CLI's spelling), and the outputs are compared
bit for bit: dtype, shape and bytes (`-o out.npy`, read back raw).  The CLI is $TENSORX_CLI
(scripts/test.sh sets it to build/release/tensorx); without it the tests skip.  Cases whose
string inputs a .npy cannot hold ('S' drops trailing NULs) or that expect an error are left out
(the error cases are compared with the suites' statuses by test_conformance.py and `tensorx
conform`), and so are seven in eight of TF's recorded cases (sampled())."""
import os
import subprocess
import zlib

import numpy as np
import pytest
import tensorx as tx
from test_conformance import CASES, HOST, attr, numpy_rank_limit, tensor

CLI = os.environ.get("TENSORX_CLI", "")
pytestmark = pytest.mark.skipif(
    not (CLI and os.access(CLI, os.X_OK)),
    reason="set TENSORX_CLI to the tensorx command (scripts/test.sh: build/release/tensorx)")


def cli_text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ",".join(cli_text(x) for x in v) + "]"
    return str(v)


def savable(a):
    """`a` as an array np.save writes without pickling (strings as 'S'), or None."""
    if a.dtype != object:
        return a
    items = a.ravel().tolist()
    if any(b.endswith(b"\0") for b in items):
        return None
    return np.array(items, dtype="S" + str(max([len(b) for b in items] + [1]))).reshape(a.shape)


# The storage of ml_dtypes' types in tensorx's .npy convention (the package's table of them).
ML_STORAGE = {name: np.dtype(tx._STORAGE[name]).newbyteorder("<").str for name in tx._ML_NAMES}


def npy_form(a):
    """`a` as np.save should write it for the CLI: an ml_dtypes array (bfloat16, float8, int4, ...) in
    tensorx's .npy convention, the structured dtype of its bits (np.save would write '<V2')."""
    if a.dtype.names or a.dtype.kind in "OS":
        return a
    name = tx.dtype_name(a.dtype)
    return a.view([(name, ML_STORAGE[name])]) if name in ML_STORAGE else a


def read_npy(path):
    """dtype, shape and the raw data bytes of a .npy file."""
    with open(path, "rb") as f:
        version = np.lib.format.read_magic(f)
        read = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                else np.lib.format.read_array_header_2_0)  # public in NumPy 1.x and 2.x
        shape, fortran, dtype = read(f)
        assert not fortran
        return dtype, shape, f.read()


def same_as_cli(got, path):
    dtype, shape, raw = read_npy(path)
    assert shape == got.shape, f"CLI shape {shape}, Python {got.shape}"
    if got.dtype == object:  # Python: bytes objects; the .npy: 'S' padded with NULs
        assert dtype.kind == "S", f"CLI dtype {dtype} for strings"
        k = dtype.itemsize
        assert len(raw) == got.size * k, "a different number of bytes"
        cli = [raw[i * k:(i + 1) * k] for i in range(got.size)]
        py = got.ravel().tolist()
        assert all(len(b) <= k for b in py) and [b.ljust(k, b"\0") for b in py] == cli
        return
    if got.dtype != dtype and dtype.names:  # ml_dtypes in Python, the .npy convention in files
        assert tx.dtype_name(got.dtype) == tx.dtype_name(dtype), f"CLI {dtype}, Python {got.dtype}"
    else:
        assert dtype == got.dtype, f"CLI dtype {dtype}, Python {got.dtype}"
    assert raw == got.tobytes(), "different bytes"


def sampled(param):
    """Every case of the hand-made and ONNX suites; one in 8 of the thousands TF recorded
    (tests/conformance/tf/, chosen by a hash of the name), whose every call `tensorx conform`
    makes through the CLI's op table anyway."""
    if "tests/conformance/tf/" not in param.id:
        return True
    return zlib.crc32(param.values[0]["name"].encode()) % 8 == 0


@pytest.mark.parametrize("case", [c for c in CASES if "expect_error" not in c.values[0] and
                                  sampled(c) and not numpy_rank_limit(c.values[0])])
def test_python_equals_cli(case, tmp_path):
    order = case.get("byte_order")
    if order and order != HOST:
        pytest.skip(f"expects a {order}-endian host")
    argv, kwargs = [CLI, case["op"]], {}
    for k, (name, v) in enumerate(case.get("inputs", {}).items()):
        arrays = [savable(tensor(t)) for t in v] if isinstance(v, list) else [savable(tensor(v))]
        if any(a is None for a in arrays):
            pytest.skip("a string input with trailing NULs, which a .npy cannot hold")
        paths = []
        for j, a in enumerate(arrays):
            paths.append(str(tmp_path / f"in{k}_{j}.npy"))
            np.save(paths[-1], npy_form(a), allow_pickle=False)
        argv.append(f"{name}={','.join(paths)}")
        kwargs[name] = arrays if isinstance(v, list) else arrays[0]
    for name, v in case.get("attrs", {}).items():
        argv.append(f"{name}={cli_text(v)}")
        kwargs[name] = attr(v)
    out = tx.OPS[case["op"]](**kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    if not outs:
        pytest.skip("no outputs to compare")
    argv += ["-o", str(tmp_path / ("out.npy" if len(outs) == 1 else "out{}.npy"))]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, f"{' '.join(argv)}: {r.stderr}"
    for i, got in enumerate(outs):
        same_as_cli(got, tmp_path / ("out.npy" if len(outs) == 1 else f"out{i}.npy"))
