# SPDX-License-Identifier: Apache-2.0
"""Every case of every suite in tests/conformance/ (tests/conformance/FORMAT.md) through the Python
functions, compared as `tensorx conform` compares: bit for bit, any NaN equal to any NaN.  Inputs
and expected tensors are built from the cases' hex and values (numbers parsed by the CLI's own
parser, tensorx._tensorx._from_text), attributes are passed as Python values."""
import glob
import json
import os
import sys

import numpy as np
import pytest
import tensorx as tx
from conftest import ROOT
from tensorx import _tensorx

SUITES = sorted(glob.glob(os.path.join(ROOT, "tests", "conformance", "**", "*.json"),
                          recursive=True))
CASES = []
for path in SUITES:
    with open(path) as f:
        suite = json.load(f, parse_float=str, parse_int=str)
    for case in suite["cases"]:
        CASES.append(pytest.param(case, id=f"{os.path.relpath(path, ROOT)}:{case['name']}"))

ERRORS = {"invalid_argument": tx.InvalidArgumentError, "out_of_range": tx.OutOfRangeError,
          "unimplemented": tx.UnimplementedError, "resource_exhausted": tx.ResourceExhaustedError}
HOST = sys.byteorder
# NumPy's array rank limit: 32 dims in NumPy 1.x, 64 in 2.x (TF's recorded reshape and squeeze
# cases go to 63 and 64; `tensorx conform` runs those through the C library on every NumPy).
NUMPY_MAX_DIMS = 64 if int(np.__version__.split(".")[0]) >= 2 else 32


def numpy_rank_limit(case):
    """The rank of a case's largest tensor when this NumPy cannot hold it, else None."""
    specs = [t for v in case.get("inputs", {}).values() for t in (v if isinstance(v, list)
                                                                  else [v])]
    specs += case.get("expect", [])
    rank = max((len(t["shape"]) for t in specs), default=0)
    return rank if rank > NUMPY_MAX_DIMS else None


def tensor(spec):
    dt, shape = spec["dtype"], [int(d) for d in spec["shape"]]
    if dt == "string":
        if "strings_hex" in spec:
            items = [bytes.fromhex(s) for s in spec["strings_hex"]]
        else:
            items = [s.encode() for s in spec["values"]]
        a = np.empty(len(items), dtype=object)
        a[:] = items
        return a.reshape(shape)
    if "hex" in spec:
        ref = np.dtype(tx._OUT[tx._CODES[tx.dtype_name(dt)]])
        raw = bytearray.fromhex(spec["hex"])
        unit = ref.itemsize // (2 if ref.kind == "c" else 1)
        if HOST == "big":  # the format's hex is little-endian per element (per part: complex)
            for i in range(0, len(raw), unit):
                raw[i:i + unit] = raw[i:i + unit][::-1]
        return np.frombuffer(bytes(raw), ref).reshape(shape).copy()
    vals = [v if isinstance(v, list) else v for v in spec["values"]]
    text = [[str(p).lower() if isinstance(p, bool) else str(p) for p in v] if isinstance(v, list)
            else (str(v).lower() if isinstance(v, bool) else str(v)) for v in vals]
    return _tensorx._from_text(dt, shape, text)


def attr(v):
    """A case's attribute as a Python value (the JSON was read with numbers as text)."""
    if isinstance(v, list):
        return [attr(x) for x in v]
    if isinstance(v, str):
        try:
            return int(v)
        except ValueError:
            pass
    return v


def same(got, want):
    assert got.shape == want.shape, f"shape {got.shape}, want {want.shape}"
    if want.dtype == object:
        assert got.dtype == object and got.tolist() == want.tolist()
        return
    assert got.dtype == want.dtype, f"dtype {got.dtype}, want {want.dtype}"
    if want.dtype.kind in "fc":
        g, w = got.ravel(), want.ravel()
        parts = [(g.real, w.real), (g.imag, w.imag)] if want.dtype.kind == "c" else [(g, w)]
        for a, b in parts:
            nan = np.isnan(a) & np.isnan(b)
            assert np.array_equal(a[~nan].view(np.uint8), b[~nan].view(np.uint8)) and \
                np.array_equal(np.isnan(a), np.isnan(b)), f"got {got}, want {want}"
        return
    if want.dtype.names and want.dtype.names[0] in ("bfloat16",):
        g, w = got[want.dtype.names[0]], want[want.dtype.names[0]]
        nan = ((g & 0x7FFF) > 0x7F80) & ((w & 0x7FFF) > 0x7F80)
        assert np.array_equal(g[~nan], w[~nan]), f"got {g}, want {w}"
        return
    assert got.tobytes() == want.tobytes(), f"got {got}, want {want}"


def test_suites_are_there():
    assert len(SUITES) >= 4 and len(CASES) >= 150


@pytest.mark.parametrize("case", CASES)
def test_case(case):
    order = case.get("byte_order")
    if order and order != HOST:
        pytest.skip(f"expects a {order}-endian host")
    rank = numpy_rank_limit(case)
    if rank:
        pytest.skip(f"a tensor of rank {rank}: NumPy {np.__version__} holds {NUMPY_MAX_DIMS} dims")
    fn = tx.OPS[case["op"]]
    kwargs = {}
    for name, v in case.get("inputs", {}).items():
        kwargs[name] = [tensor(t) for t in v] if isinstance(v, list) else tensor(v)
    for name, v in case.get("attrs", {}).items():
        kwargs[name] = attr(v)
    if "expect_error" in case:
        with pytest.raises(ERRORS[case["expect_error"]]):
            fn(**kwargs)
        with pytest.raises(ERRORS[case["expect_error"]]):
            tx.plan(fn, **kwargs)
        return
    out = fn(**kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    want = [tensor(t) for t in case["expect"]]
    assert len(outs) == len(want)
    for g, w in zip(outs, want):
        same(g, w)
