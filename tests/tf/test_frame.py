# SPDX-License-Identifier: Apache-2.0
"""The oracle's frame can fail: agree() reports every kind of difference it claims to see (dtype,
shape, bytes, NaN payload, error category, output count) on hand-made outcomes and accepts only
what it should (any NaN payload under nan="any"); a reproducer line re-runs the very case it names
(cases() is a pure function of the seed); carrier() views int4, float8 and quantized inputs as
their integer carriers.  Runs under the oracle's venv (TensorFlow and tensorx importable), in a
few seconds: only the reproducer and carrier tests run a TF op, one each.

    build/h-NAME/venv/bin/python -m pytest -q tests/tf/test_frame.py
"""
import contextlib
import io
import os
import re
import shlex
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402
from oracle import Case, Out, agree  # noqa: E402

oracle.load_families()


def ok(*outs):
    return ("ok", list(outs))


def f32(*bits):
    return Out("float32", (len(bits),), np.array(bits, np.uint32).tobytes())


QNAN, QNAN_PAYLOAD, NEG_QNAN, ONE = 0x7FC00000, 0x7FC00001, 0xFFC00000, 0x3F800000


# ---- agree ---------------------------------------------------------------------------------------
def test_agree_accepts_equal_outcomes():
    case = Case({})
    assert agree(case, ok(f32(ONE, QNAN)), ok(f32(ONE, QNAN))) is None
    assert agree(case, ("error", "invalid_argument", "a", "E"),
                 ("error", "invalid_argument", "b", "F")) is None
    assert agree(case, ok(), ok()) is None


def test_agree_reports_dtype():
    why = agree(Case({}), ok(Out("int32", (1,), b"\0" * 4)), ok(Out("uint32", (1,), b"\0" * 4)))
    assert why == "output 0: dtype uint32, TF int32"


def test_agree_reports_shape():
    why = agree(Case({}), ok(Out("int8", (2, 1), b"ab")), ok(Out("int8", (1, 2), b"ab")))
    assert why == "output 0: shape (1, 2), TF (2, 1)"
    # a scalar and a one-element vector hold the same bytes but differ
    assert agree(Case({}), ok(Out("int8", (), b"a")), ok(Out("int8", (1,), b"a"))) is not None


def test_agree_reports_bytes():
    why = agree(Case({}), ok(f32(ONE, ONE)), ok(f32(ONE, 0x3F800001)))
    assert why.startswith("output 0: element 1:") and "0x3f800001" in why and "0x3f800000" in why
    # negative zero is not zero
    assert agree(Case({}), ok(f32(0)), ok(f32(0x80000000))) is not None


def test_agree_reports_strings():
    a, b = Out("string", (2,), [b"ab", b"c\0"]), Out("string", (2,), [b"ab", b"c"])
    why = agree(Case({}), ok(a), ok(b))
    assert why == "output 0: element 1: b'c', TF b'c\\x00'"


def test_agree_reports_output_count_and_position():
    assert agree(Case({}), ok(f32(ONE)), ok(f32(ONE), f32(ONE))) == "2 outputs, TF 1"
    why = agree(Case({}), ok(f32(ONE), f32(ONE)), ok(f32(ONE), f32(0)))
    assert why.startswith("output 1:")


def test_agree_nan_bits_sees_payload_and_sign():
    for other in (QNAN_PAYLOAD, NEG_QNAN):
        assert agree(Case({}, nan="bits"), ok(f32(ONE, QNAN)), ok(f32(ONE, other))) is not None


def test_agree_nan_any_accepts_any_nan_only_where_nan():
    case = Case({}, nan="any")
    assert agree(case, ok(f32(ONE, QNAN)), ok(f32(ONE, QNAN_PAYLOAD))) is None
    assert agree(case, ok(f32(ONE, QNAN)), ok(f32(ONE, NEG_QNAN))) is None
    # a NaN against a number, and a different non-NaN element, still differ
    assert agree(case, ok(f32(ONE, QNAN)), ok(f32(ONE, ONE))) is not None
    assert agree(case, ok(f32(ONE, QNAN)), ok(f32(0, QNAN_PAYLOAD))) is not None
    # complex: the real and imaginary parts are NaN-checked separately
    c64 = lambda *bits: Out("complex64", (len(bits) // 2,), np.array(bits, np.uint32).tobytes())
    assert agree(case, ok(c64(ONE, QNAN)), ok(c64(ONE, QNAN_PAYLOAD))) is None
    assert agree(case, ok(c64(ONE, QNAN)), ok(c64(QNAN, QNAN))) is not None
    # integers are not floats: nan="any" changes nothing
    i32 = lambda v: Out("int32", (1,), np.array([v], np.uint32).tobytes())
    assert agree(case, ok(i32(QNAN)), ok(i32(QNAN_PAYLOAD))) is not None


def test_agree_nan_any_half_widths():
    case = Case({}, nan="any")
    for dt, nan, other in [("float16", 0x7E00, 0x7E01), ("bfloat16", 0x7FC0, 0xFFC1)]:
        mk = lambda v: Out(dt, (1,), np.array([v], np.uint16).tobytes())  # noqa: B023
        assert agree(case, ok(mk(nan)), ok(mk(other))) is None
        assert agree(Case({}), ok(mk(nan)), ok(mk(other))) is not None


def test_agree_reports_error_category_and_one_sided_errors():
    inv, oor = ("error", "invalid_argument", "m", "E"), ("error", "out_of_range", "m", "E")
    assert agree(Case({}), inv, oor) == "error category: TF invalid_argument, tensorx out_of_range"
    assert agree(Case({}), inv, ok(f32(ONE))).startswith("TF fails (invalid_argument")
    assert agree(Case({}), ok(f32(ONE)), oor).startswith("tensorx fails (out_of_range")


def test_error_categories_of_exceptions():
    import tensorflow as tf
    import tensorx as tx
    cat = oracle._category
    assert cat(tf.errors.InvalidArgumentError(None, None, "x"), oracle.TF_ERRORS) == \
        "invalid_argument"
    assert cat(tf.errors.OutOfRangeError(None, None, "x"), oracle.TF_ERRORS) == "out_of_range"
    assert cat(tf.errors.NotFoundError(None, None, "x"), oracle.TF_ERRORS) == "unimplemented"
    assert cat(TypeError("Value passed to parameter 'x' has DataType int4 not in list of "
                         "allowed values"), oracle.TF_ERRORS) == "unimplemented"
    assert cat(ValueError("shapes"), oracle.TF_ERRORS) == "invalid_argument"
    assert cat(RuntimeError("x"), oracle.TF_ERRORS) is None
    with pytest.raises(tx.InvalidArgumentError) as e:
        tx.OPS["gather"](np.zeros((2,), np.int8), np.array([5], np.int32))
    assert cat(e.value, oracle.TX_ERRORS) == "invalid_argument"


def test_beyond_tf_kernels_matches_no_kernel_only():
    nk = ("error", "unimplemented", "Could not find device for node: {{node GatherV2}}",
          "NotFoundError")
    assert oracle.no_kernel(nk)
    assert oracle.documented("gather", Case({}), nk, ok()) is not None
    inv = ("error", "invalid_argument", "indices[0] = 5 is not in [0, 2)", "InvalidArgumentError")
    assert not oracle.no_kernel(inv)
    assert oracle.documented("gather", Case({}), inv, ok()) is None


# ---- cases and reproducers -----------------------------------------------------------------------
def _same_value(a, b):
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(_same_value, a, b))
    return a.dtype == b.dtype and a.shape == b.shape and \
        (a.tolist() == b.tolist() if a.dtype == object else a.tobytes() == b.tobytes())


def _same_case(a, b):
    return a.attrs == b.attrs and a.nan == b.nan and a.inputs.keys() == b.inputs.keys() and \
        all(_same_value(a.inputs[k], b.inputs[k]) for k in a.inputs)


@pytest.mark.parametrize("name", sorted(oracle.OPS))
def test_cases_are_a_function_of_the_seed(name):
    one, two = oracle.cases(name, 7, 60), oracle.cases(name, 7, 60)
    assert len(one) == len(two) == 60
    assert all(_same_case(a, b) for a, b in zip(one, two))
    # the random stream depends on the seed (the edge cases before it may not)
    assert not all(_same_case(a, b) for a, b in zip(oracle.cases(name, 7, 300),
                                                     oracle.cases(name, 8, 300)))


def test_reproducer_reruns_the_same_case():
    name, seed, index = "gather", 5, 40
    case = oracle.cases(name, seed, index + 1)[index]
    line = oracle.reproducer(name, seed, index, case)
    argv = shlex.split(line.split("#")[0])
    assert argv[:2] == ["python3", "tests/tf/oracle.py"]
    args = dict(zip(argv[2::2], argv[3::2]))
    assert args == {"--op": name, "--seed": str(seed), "--case": str(index)}
    again = oracle.cases(args["--op"], int(args["--seed"]), int(args["--case"]) + 1)[-1]
    assert _same_case(case, again)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):  # the CLI path: one TF run and one tensorx run
        assert oracle.main(argv[2:]) == 0
    printed = out.getvalue().splitlines()
    assert printed[0] == line
    assert re.match(r"  TF: \('(ok|error)'", next(p for p in printed if p.startswith("  TF:")))


# ---- carriers ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["int4", "uint4", "float8_e5m2", "float8_e4m3fn", "qint8",
                                   "quint8", "qint16", "quint16", "qint32"] + oracle.LOWBIT)
def test_carried_views_the_same_bits(dtype):
    a = oracle.Gen(1, "carrier").array(dtype, (2, 3))
    c = oracle._carried(a)
    assert c.dtype == np.dtype(oracle.CARRIERS[dtype]) and c.shape == a.shape
    assert c.tobytes() == a.tobytes()
    assert oracle.dtype_of(oracle._carried(np.zeros(2, np.float32))) == "float32"  # not carried
    both = oracle._carried([a, a])
    assert [oracle.dtype_of(e) for e in both] == [np.dtype(oracle.CARRIERS[dtype]).name] * 2


def test_carrier_runs_tf_on_the_carrier_and_names_tensorx_dtype():
    spec = oracle.OPS["gather"]
    params = np.array([0x38, 0x40, 0x48, 0xFF], np.uint8).view(oracle.np_dtype("float8_e4m3fn"))
    case = Case({"params": params, "indices": np.array([3, 0, 3], np.int32)}, {"axis": 0})
    got = oracle.run_tx("gather", case)
    want = oracle.carrier(spec, case, got)
    assert want[0] == "ok" and want[1][0].dtype == "float8_e4m3fn"
    assert want[1][0].data == params[[3, 0, 3]].tobytes()
    assert agree(case, want, got) is None
    # a wrong tensorx result is seen through the carrier
    bad = ("ok", [Out("float8_e4m3fn", (3,), params[[0, 0, 3]].tobytes())])
    assert agree(case, want, bad).startswith("output 0: element 0:")
    # no carried dtype, or an op that does arithmetic: no carrier run
    plain = Case({"params": np.arange(4, dtype=np.int8), "indices": np.array([1], np.int32)})
    assert oracle.carrier(spec, plain, oracle.run_tx("gather", plain)) is None
    assert oracle.carrier(oracle.Spec("x", None, None, "", False), case, got) is None


# ---- the low-bit dtypes' rules -------------------------------------------------------------------
def _lowbit(name):
    return np.dtype(oracle.np_dtype(name))


@pytest.mark.parametrize("name,inputs,attrs", [
    ("cast", {"x": np.array([3.0, -2.5, np.nan, 1e10, -0.0], np.float32)}, {"dtype": "int2"}),
    ("cast", {"x": np.array([3.0, 0.5, np.nan, 300.0], np.float32)}, {"dtype": "float8_e4m3fnuz"}),
    ("cast", {"x": np.arange(256, dtype=np.uint8).view(_lowbit("float8_e5m2fnuz"))},
     {"dtype": "int32"}),
    ("to_float", {"x": np.arange(16, dtype=np.uint8).view(_lowbit("float4_e2m1fn"))}, {}),
    ("saturate_cast", {"value": np.array([-1e9, 7.0, np.nan, 1e9], np.float32)},
     {"dtype": "float4_e2m1fn"}),
    ("bitcast", {"input": np.array([[1, 2], [3, 0x80]], np.uint8).view(_lowbit("float8_e4m3fnuz"))},
     {"type": "int16"}),
    ("one_hot", {"indices": np.array([0, 2, -1], np.int32)},
     {"depth": 3, "on_value": 1, "off_value": -1, "dtype": "int2"}),
    ("sequence_mask", {"lengths": np.array([2, 0, 1], np.uint8).view(_lowbit("uint2")),
                       "maxlen": np.array(3, np.int32)}, {})])
def test_lowbit_rules_take_tensorx_right_result_only(name, inputs, attrs):
    """TF refuses the case; a rule documents tensorx's result, and no other result."""
    case = Case(inputs, attrs)
    want, got = oracle.run_tf(oracle.OPS[name], case), oracle.run_tx(name, case)
    assert want[0] == "error" and got[0] == "ok"
    assert oracle.documented(name, case, want, got) is not None
    out = got[1][0]
    flipped = bytearray(out.data)
    flipped[0] ^= 1
    bad = ("ok", [Out(out.dtype, out.shape, bytes(flipped))])
    assert oracle.documented(name, case, want, bad) is None
