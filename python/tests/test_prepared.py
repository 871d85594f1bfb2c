# SPDX-License-Identifier: Apache-2.0
"""tensorx.prepare / PreparedOp: a prepared call runs with the op function's bits, into new
arrays or into out=, for every op whose prepared form exists (docs/prepared.md's table), and
refuses what it cannot run in place."""
import gc
import inspect
import os
import re
import threading

import numpy as np
import pytest
import tensorx as tx
from conftest import ROOT
from examples import EXAMPLES


def _prepared_ops():
    """The ops docs/prepared.md's table lists (checked against the op spec by repo.op_spec)."""
    with open(os.path.join(ROOT, "docs", "prepared.md"), encoding="utf-8") as f:
        text = f.read().split("\n## Ops", 1)[1]
    return {m.group(1) for m in re.finditer(r"^\| (\w+) \|", text, re.M)} - {"op"}


PREPARED = _prepared_ops()


def _same(a, b):
    """Bit for bit: dtype, shape and bytes."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def _data_inputs(op, args, kwargs, specs):
    """The arrays of the call's data inputs, as the package converts them, in the prepared op's
    order (one argument per data input, a list for a tensor list)."""
    bound = inspect.signature(tx.OPS[op]).bind(*args, **kwargs).arguments
    data, lists = [], {}
    for s in specs:
        m = re.fullmatch(r"(\w+)\[(\d+)\]", s.name)
        if m:
            if m.group(1) not in lists:
                lists[m.group(1)] = []
                data.append(lists[m.group(1)])
            lists[m.group(1)].append(tx._tensor(bound[m.group(1)][int(m.group(2))]))
        else:
            data.append(tx._tensor(bound[s.name]))
    return data


def _outs(result):
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _strings(op, args, kwargs, results):
    """Whether the call has a string tensor among its tensor arguments or its results."""
    kinds = {name: [p[1] for p in params] for name, _s, params in tx._tensorx.ops()}[op]
    bound = inspect.signature(tx.OPS[op]).bind(*args, **kwargs).arguments
    tensors = []
    for kind, name in zip(kinds, inspect.signature(tx.OPS[op]).parameters):
        if name in bound and bound[name] is not None and kind in ("tensor", "tensor_list"):
            tensors += [tx._tensor(v) for v in (bound[name] if kind == "tensor_list"
                                               else [bound[name]])]
    return any(t.dtype.kind in "SOUT" for t in tensors + _outs(results))


def test_the_table_names_ops_of_the_package():
    assert {"slice", "transpose"} <= PREPARED <= set(tx.OPS)


@pytest.mark.parametrize("op,args,kwargs", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_example_prepares_and_runs_as_the_call(op, args, kwargs):
    want = tx.OPS[op](*args, **kwargs)
    if op not in PREPARED:
        with pytest.raises(tx.UnimplementedError, match=rf"^{op}: has no prepared form yet"):
            tx.prepare(op, *args, **kwargs)
        return
    if _strings(op, args, kwargs, want):
        with pytest.raises(tx.UnimplementedError, match=rf"^{op}: .*fixed-size dtypes"):
            tx.prepare(op, *args, **kwargs)
        return
    p = tx.prepare(op, *args, **kwargs)
    assert p.name == op
    data = _data_inputs(op, args, kwargs, p.inputs)
    got = p(*data)
    assert type(got) is type(want) or isinstance(want, list) and isinstance(got, tuple)
    assert len(_outs(got)) == len(_outs(want)) == len(p.outputs)
    for g, w, spec in zip(_outs(got), _outs(want), p.outputs):
        _same(g, w)
        assert (spec.dtype, spec.shape) == (w.dtype, w.shape)
    outs = [np.empty(s.shape, s.dtype) for s in p.outputs]
    again = p(*data, out=tuple(outs))
    for o, g, w in zip(outs, _outs(again), _outs(want)):
        assert g is o
        _same(o, w)


SHAPES = [(0,), (1,), (7,), (3, 0), (5, 7), (3, 4, 5), (2, 3, 4, 5), (64, 65)]
DTYPES = [np.float32, np.int8, np.uint16, np.float16, np.complex64, np.float64, np.bool_]


def _random(rng, shape, dtype):
    bits = rng.integers(0, 256, size=int(np.prod(shape)) * np.dtype(dtype).itemsize,
                        dtype=np.uint8)
    a = bits.view(dtype).reshape(shape)
    return a != 0 if dtype == np.bool_ else a  # TensorFlow's bools are the bytes 0 and 1


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_transpose_and_slice_equal_the_calls(shape, dtype):
    rng = np.random.default_rng(len(shape) * 100 + np.dtype(dtype).itemsize)
    x = _random(rng, shape, dtype)
    perm = list(range(len(shape)))[::-1]
    begin = [d // 3 for d in shape]
    size = [-1 if k % 2 else d - d // 3 - d // 4 for k, d in enumerate(shape)]
    for op, attrs in (("transpose", {"perm": perm}), ("slice", {"begin": begin, "size": size})):
        p = tx.prepare(op, x, **attrs)
        want = tx.OPS[op](x, **attrs)
        (spec,) = p.inputs
        assert (spec.dtype, spec.shape) == (x.dtype, x.shape)
        assert (p.outputs[0].dtype, p.outputs[0].shape) == (want.dtype, want.shape)
        _same(p(x), want)
        y = np.empty_like(want)
        for _ in range(3):  # the same out every time: written, and returned itself
            x2 = _random(rng, shape, dtype)
            r = p(x2, out=y)
            assert r is y and id(r) == id(y)
            _same(y, tx.OPS[op](x2, **attrs))
        assert p.run(x2, out=(y,)) is y


@pytest.mark.parametrize("name", ["bfloat16", "float8_e4m3fn", "int4"])
def test_dtypes_numpy_lacks_equal_the_calls(name):
    """ml_dtypes' arrays (where it is installed) and the structured form, either way."""
    storage = tx._STORAGE[name]  # the structured form's field type
    bits = np.random.default_rng(3).integers(0, 8, size=(6, 5)).astype(storage)
    structured = bits.view([(name, storage)])
    x = bits.view(tx._numpy_dtype(name))  # ml_dtypes' type, else the structured form
    p = tx.prepare(tx.transpose, x, [1, 0])
    assert p.inputs[0].dtype == x.dtype
    for a in (x, structured):
        _same(p(a), tx.transpose(a, [1, 0]))


def test_prepare_takes_the_functions_arguments():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    for p in (tx.prepare(tx.transpose, x, [1, 0]), tx.prepare("transpose", x, perm=(1, 0)),
              tx.prepare(tx.transpose, a=x, perm=np.array([1, 0]))):
        _same(p(x), x.T)
    c = (np.arange(6) + 1j * np.arange(6)).astype(np.complex64).reshape(2, 3)
    _same(tx.prepare("transpose", c, [1, 0], conjugate=True)(c), tx.transpose(c, [1, 0], True))
    with pytest.raises(TypeError):
        tx.prepare(tx.transpose, x, [1, 0], bogus=1)
    with pytest.raises(ValueError, match="not a tensorx op"):
        tx.prepare(len, x)


def test_prepare_raises_what_the_call_raises():
    x = np.zeros((2, 3), np.float32)
    with pytest.raises(tx.InvalidArgumentError) as call:
        tx.transpose(x, [0, 0])
    with pytest.raises(tx.InvalidArgumentError) as prep:
        tx.prepare(tx.transpose, x, [0, 0])
    assert str(prep.value) == str(call.value)


def test_ops_and_dtypes_without_a_prepared_form():
    with pytest.raises(tx.UnimplementedError, match="boolean_mask: has no prepared form yet"):
        tx.prepare(tx.boolean_mask, [1, 2, 3], [True, False, True])
    with pytest.raises(tx.UnimplementedError, match="transpose: .*fixed-size dtypes"):
        tx.prepare(tx.transpose, np.array([[b"a", b"bc"]], dtype=object), [1, 0])


@pytest.fixture
def prepared():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    return tx.prepare(tx.transpose, x, [1, 0]), x


def test_inputs_are_checked(prepared):
    p, x = prepared
    with pytest.raises(ValueError, match=r"transpose: input a: dtype dtype\('float64'\), "
                       r"prepared for dtype\('float32'\)"):
        p(x.astype(np.float64))
    with pytest.raises(ValueError, match=r"transpose: input a: shape \(4, 3\), prepared for "
                       r"\(3, 4\)"):
        p(np.zeros((4, 3), np.float32))
    with pytest.raises(ValueError, match="input a: the array is not C-contiguous"):
        p(np.zeros((4, 3), np.float32).T)
    with pytest.raises(ValueError, match="input a: dtype"):
        p(x.astype(x.dtype.newbyteorder()))  # another byte order is another dtype
    with pytest.raises(TypeError, match="input a: expected an ndarray, got list"):
        p(x.tolist())
    with pytest.raises(TypeError, match=r"takes 1 data inputs \('a',\), got 2"):
        p(x, x)
    with pytest.raises(TypeError, match="unexpected keyword argument 'a'"):
        p(a=x)
    b = tx.prepare(tx.transpose, np.zeros((2, 2), bool), [1, 0])
    with pytest.raises(ValueError, match="bytes other than 0 and 1"):
        b(np.array([[0, 1], [2, 1]], np.uint8).view(bool))


def test_out_is_checked(prepared):
    p, x = prepared
    for bad, rule in ((np.empty((4, 3), np.float64), "dtype"), (np.empty((3, 4), np.float32),
                      r"shape \(3, 4\), prepared for \(4, 3\)"),
                      (np.empty((3, 4), np.float32).T, "the array is not C-contiguous"),
                      (np.empty((4, 6), np.float32)[:, ::2], "the array is not C-cont")):
        with pytest.raises(ValueError, match="transpose: out y: " + rule):
            p(x, out=bad)
    ro = np.empty((4, 3), np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out y: the array is read-only"):
        p(x, out=ro)
    with pytest.raises(ValueError, match=r"out: 2 arrays, the op makes 1 outputs"):
        p(x, out=(np.empty((4, 3), np.float32),) * 2)
    with pytest.raises(TypeError, match="out y: expected an ndarray"):
        p(x, out=[[0.0] * 3] * 4)


def test_out_may_not_share_an_inputs_memory_unless_in_place_says_so(prepared):
    p, _ = prepared
    buf = np.zeros(12, np.float32)
    assert p.in_place(0, 0) is False
    with pytest.raises(ValueError, match="out y shares memory with input a"):
        p(buf.reshape(3, 4), out=buf.reshape(4, 3))
    with pytest.raises(IndexError):
        p.in_place(1, 0)


def test_descriptions(prepared):
    p, _ = prepared
    assert isinstance(p, tx.PreparedOp)
    (a,), (y,) = p.inputs, p.outputs
    assert isinstance(a, tx.TensorSpec)
    assert tuple(a) == ("a", np.dtype(np.float32), (3, 4)) and a.name == "a"
    assert (y.name, y.dtype, y.shape) == ("y", np.dtype(np.float32), (4, 3))
    assert "transpose" in repr(p)
    with pytest.raises(TypeError):
        tx.PreparedOp()


def test_runs_outlive_the_prepare_arguments():
    x = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    perm = np.array([2, 0, 1], np.int32)
    p = tx.prepare(tx.transpose, x, perm)
    want = tx.transpose(x, perm)
    del x, perm
    gc.collect()
    _same(p(np.arange(24, dtype=np.int16).reshape(2, 3, 4)), want)
    q = p
    del p
    gc.collect()
    _same(q(np.arange(24, dtype=np.int16).reshape(2, 3, 4)), want)


def test_one_prepared_op_runs_on_many_threads():
    p = tx.prepare(tx.transpose, np.zeros((64, 48), np.float32), [1, 0])
    errors = []

    def work(seed):
        rng = np.random.default_rng(seed)
        y = np.empty((48, 64), np.float32)
        for _ in range(50):
            x = rng.standard_normal((64, 48)).astype(np.float32)
            if p(x, out=y) is not y or y.tobytes() != x.T.tobytes():
                errors.append(seed)

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def _raises_as_the_call(call, run):
    """run() raises the error call() raises, with its message."""
    with pytest.raises(tx.Error) as want:
        call()
    with pytest.raises(type(want.value)) as got:
        run()
    assert str(got.value) == str(want.value)


def test_runs_read_and_check_a_data_inputs_values():
    """reverse_sequence's seq_lengths, sequence_mask's lengths (with maxlen) and
    required_space_to_batch_paddings' input_shape are read by each run: prepared over values the
    call refuses, run on others as the call; on values the call refuses a run raises its error."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 6, 3)).astype(np.float32)
    p = tx.prepare(tx.reverse_sequence, x, np.full(4, -1, np.int64), seq_dim=1)
    for _ in range(3):
        x2, lens = rng.standard_normal((4, 6, 3)).astype(np.float32), rng.integers(0, 7, 4)
        _same(p(x2, lens), tx.reverse_sequence(x2, lens, seq_dim=1))
    bad = np.array([1, 2, 7, -1])
    _raises_as_the_call(lambda: tx.reverse_sequence(x, bad, seq_dim=1), lambda: p(x, bad))

    lengths = np.full((3, 5), 99, np.int32)
    p = tx.prepare(tx.sequence_mask, lengths, maxlen=6, dtype=np.float32)
    for _ in range(3):
        l2 = rng.integers(-3, 10, (3, 5)).astype(np.int32)
        _same(p(l2), tx.sequence_mask(l2, maxlen=6, dtype=np.float32))
    with pytest.raises(tx.UnimplementedError, match="^sequence_mask: without maxlen the "
                       "output's shape depends on the values of lengths"):
        tx.prepare(tx.sequence_mask, lengths)

    base = np.array([[1, 0], [0, 1]], np.int64)
    block = np.array([2, 3], np.int64)
    p = tx.prepare(tx.required_space_to_batch_paddings, np.full(2, -1, np.int64), block,
                   base_paddings=base)
    for shape in ([4, 5], [0, 0], [7, 11]):
        s = np.array(shape, np.int64)
        got, want = p(s), tx.required_space_to_batch_paddings(s, block, base_paddings=base)
        assert len(got) == len(want) == 2
        for g, w in zip(got, want):
            _same(g, w)
    s = np.array([4, -5], np.int64)
    _raises_as_the_call(lambda: tx.required_space_to_batch_paddings(s, block, base_paddings=base),
                        lambda: p(s))


def test_shape_ops_meshgrid_and_bitcast():
    """shape, size, rank and shape_n read no data, only the prepared shapes; meshgrid and
    bitcast as the calls, bitcast in place; more than 16 outputs have no prepared form."""
    a, b = np.zeros((3, 0, 4), np.float32), np.ones((2, 5), np.float32)
    for op, kw in ((tx.shape, {}), (tx.size, {"out_type": "int64"}), (tx.rank, {})):
        for x in (a, b):
            _same(tx.prepare(op, x, **kw)(x), op(x, **kw))
    p = tx.prepare(tx.shape_n, [a, b, a], out_type=np.int64)
    for g, w in zip(p([a, b, a]), tx.shape_n([a, b, a], out_type=np.int64), strict=True):
        _same(g, w)
    with pytest.raises(ValueError, match="shape"):
        p([b, b, a])  # prepared for other shapes

    args = [np.arange(4, dtype=np.int16), np.arange(3, dtype=np.int16) * 7]
    for indexing in ("xy", "ij"):
        p = tx.prepare(tx.meshgrid, args, indexing=indexing)
        for g, w in zip(p(args), tx.meshgrid(args, indexing=indexing), strict=True):
            _same(g, w)
    with pytest.raises(tx.UnimplementedError, match="^meshgrid: the call makes 17 outputs; a "
                       "prepared op makes at most 16"):
        tx.prepare(tx.meshgrid, [np.ones(1)] * 17)

    x = np.arange(6, dtype=np.int32) * 1000003
    p = tx.prepare(tx.bitcast, x, np.uint8)
    want = tx.bitcast(x, np.uint8)
    _same(p(x), want)
    assert p.in_place(0, 0)
    y = x.view(np.uint8).reshape(6, 4)  # the input's own memory
    assert p(x, out=y) is y
    _same(y, want)
