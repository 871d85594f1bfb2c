# SPDX-License-Identifier: Apache-2.0
"""The ops with one output are bound in C (the extension's op_function): every way of calling one
must do what its Python function (__wrapped__) does -- the same result, or the same error -- and it
must look like that function to inspect, pydoc and pickle."""
import inspect
import pickle
import pydoc

import numpy as np
import pytest
import tensorx as tx
from examples import EXAMPLES
from tensorx import _tensorx

SINGLE = {n for n, outs, is_list in _tensorx.outputs() if not is_list and len(outs) == 1}
ONE_OUTPUT = [e for e in EXAMPLES if e[0] in SINGLE]


def outcome(fn, args, kwargs):
    """("ok", dtype, shape, bytes) or ("error", type, message) of one call."""
    try:
        r = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001  (the error itself is the outcome compared)
        return ("error", type(e), str(e))
    r = np.asarray(r)
    return ("ok", r.dtype, r.shape, r.tobytes() if r.dtype != object else repr(r.tolist()))


def test_the_one_output_ops_are_bound_in_c_and_the_others_are_functions():
    assert len(SINGLE) >= 40
    for name, fn in tx.OPS.items():
        if name in SINGLE:
            assert type(fn).__name__ == "op_function", name
            assert inspect.isfunction(fn.__wrapped__) and fn.__wrapped__.__name__ == name
        else:
            assert inspect.isfunction(fn), name


@pytest.mark.parametrize("op,args,kwargs", ONE_OUTPUT, ids=[e[0] for e in ONE_OUTPUT])
def test_every_binding_equals_the_python_functions(op, args, kwargs):
    fn = tx.OPS[op]
    py = fn.__wrapped__
    want = outcome(py, args, kwargs)
    assert want[0] == "ok", want
    assert outcome(fn, args, kwargs) == want
    # the positional arguments by keyword, and every argument by keyword where it may be
    params = list(inspect.signature(py).parameters.values())
    named = {p.name: a for p, a in zip(params, args)}
    assert outcome(fn, (), {**named, **kwargs}) == want
    # the keyword arguments by position, where the signature lets them be
    pos = list(args)
    rest = dict(kwargs)
    for p in params[len(args):]:
        if p.kind != p.POSITIONAL_OR_KEYWORD:
            break
        pos.append(rest.pop(p.name, p.default))
    assert outcome(fn, tuple(pos), rest) == want


@pytest.mark.parametrize("call", [
    lambda f: f(),                                          # required missing
    lambda f: f(np.zeros(2, np.float32)),                   # the second required missing
    lambda f: f(np.zeros(2, np.float32), "int32", bogus=1),  # unknown keyword
    lambda f: f(np.zeros(2, np.float32), "int32", x=1),     # positional and keyword
    lambda f: f(np.zeros(2, np.float32), "int32", "default", False, True, "up", 7),  # too many
    lambda f: f(np.zeros(2, np.float32), "int32", **{"mode": "nope"}),  # a bad value (tensorx's)
    lambda f: f(np.zeros(2, np.float32), dtype="int32", out=np.zeros(3, np.int32)),  # bad out
    lambda f: f(np.zeros(2, np.float32), None),             # None for a required parameter
])
def test_bad_calls_raise_what_the_python_function_raises(call):
    got, want = outcome(call, (tx.cast,), {}), outcome(call, (tx.cast.__wrapped__,), {})
    assert got[0] == "error" and got == want


def test_out_is_written_and_returned():
    x = np.arange(6, dtype=np.float32)
    out = np.empty(6, np.float16)
    assert tx.cast(x, "float16", out=out) is out
    assert np.array_equal(out, x.astype(np.float16))
    assert tx.cast(x, "float16", out=None).dtype == np.float16


def test_it_looks_like_its_function():
    fn = tx.cast
    assert inspect.signature(fn) == inspect.signature(fn.__wrapped__)
    assert fn.__name__ == fn.__qualname__ == "cast" and fn.__module__ == "tensorx"
    assert fn.__doc__ == fn.__wrapped__.__doc__ and fn._tx_op == "cast"
    assert repr(fn) == repr(fn.__wrapped__)
    text = pydoc.render_doc(fn, renderer=pydoc.plaintext)
    assert "cast(x, dtype, mode='default'" in text and "tf.cast" in text
    assert pickle.loads(pickle.dumps(fn)) is fn

    class Holder:
        reverse = tx.reverse  # a class attribute binds as a function does
    h = Holder()
    x = np.arange(4, dtype=np.int32)
    with pytest.raises(Exception):
        h.reverse(x)  # the instance is the first argument, as for a function
    assert np.array_equal(Holder.reverse(x, axis=[0]), x[::-1])


def test_a_keyword_that_is_not_an_interned_string_still_binds():
    x = np.arange(4, dtype=np.int32)
    key = "".join(["ax", "is"])  # made at run time: not the interned name
    assert np.array_equal(tx.reverse(x, **{key: [0]}), x[::-1])
