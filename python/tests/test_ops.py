# SPDX-License-Identifier: Apache-2.0
"""Every op of the table is a function with TF's signature; a sample of each family against
NumPy."""
import inspect

import numpy as np
import pytest
import tensorx as tx
from examples import EXAMPLES
from tensorx import _tensorx


def test_every_op_is_a_function_with_the_tables_parameters():
    table = _tensorx.ops()
    assert len(table) == len(tx.OPS) >= 50
    # the ops with one output add NumPy's out= (test_out.py)
    single = {n for n, outs, is_list in _tensorx.outputs() if not is_list and len(outs) == 1}
    for name, _summary, params in table:
        fn = getattr(tx, name)
        assert fn is tx.OPS[name] and fn.__doc__
        assert [p for p in inspect.signature(fn).parameters] == \
            [p[0] for p in params] + (["out"] if name in single else [])


def test_signatures_follow_tensorflow():
    sig = lambda f: str(inspect.signature(f))  # noqa: E731
    assert sig(tx.cast) == \
        "(x, dtype, mode='default', exact_float=False, saturate=True, round_mode='up', *, out=None)"
    assert sig(tx.decode_raw) == \
        "(input_bytes, out_type, little_endian=True, fixed_length=None, *, out=None)"
    assert sig(tx.strided_slice).startswith("(input_, begin, end, strides, begin_mask=0, ")
    assert sig(tx.string_tensor_pack) == "(begins, ends, symbols, *, out=None)"
    assert sig(tx.squeeze) == "(input, squeeze_dims=(), *, out=None)"
    assert sig(tx.one_hot).startswith("(indices, depth, on_value=None, off_value=None, axis=-1")


def test_every_op_has_an_example():
    assert {e[0] for e in EXAMPLES} == set(tx.OPS)


@pytest.mark.parametrize("op,args,kwargs", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_op_runs_and_its_plan_agrees(op, args, kwargs):
    out = getattr(tx, op)(*args, **kwargs)
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    plan = tx.plan(op, *args, **kwargs)
    assert len(plan) == len(outs)
    for p, o in zip(plan, outs):
        assert isinstance(o, np.ndarray)
        assert p.dtype == tx.dtype_name(o.dtype) or (p.dtype == "string" and o.dtype == object)
        if p.upper_bound:
            assert all(a >= b for a, b in zip(p.shape, o.shape))
        else:
            assert p.shape == o.shape


def eq(a, b):
    np.testing.assert_array_equal(a, b)
    assert a.dtype == np.asarray(b).dtype, (a.dtype, np.asarray(b).dtype)


rng = np.random.default_rng(7)


# ---- casting ----
def test_cast_matches_numpy_where_both_define_it():
    x = rng.standard_normal(1000).astype(np.float32) * 100
    eq(tx.cast(x, "float16"), x.astype(np.float16))
    eq(tx.cast(x, np.float64), x.astype(np.float64))
    eq(tx.cast(x, "int32"), np.trunc(x).astype(np.int32))
    eq(tx.cast(x.astype(np.int64), "int8"), x.astype(np.int64).astype(np.int8))  # wraps
    eq(tx.cast(np.array([0, 2, 0], np.int32), bool), np.array([False, True, False]))


def test_cast_modes_and_saturate_cast():
    x = np.array([-300.5, 3.7, 1e10, np.nan], np.float32)
    eq(tx.cast(x, "int8", mode="saturate"), np.array([-128, 3, 127, 0], np.int8))
    eq(tx.saturate_cast(x[:3], "uint8"), np.array([0, 3, 255], np.uint8))
    with pytest.raises(tx.InvalidArgumentError):
        tx.cast(x, "int8", mode="checked")


def test_bitcast_is_numpy_view():
    x = rng.integers(0, 2**31, 12, dtype=np.int32)
    eq(tx.bitcast(x, np.uint8), x.view(np.uint8).reshape(12, 4))
    eq(tx.bitcast(x.view(np.uint16).reshape(12, 2), "int32"), x)


def test_decode_raw_and_encode_raw():
    data = rng.integers(-2**15, 2**15, (3, 5), dtype=np.int16)
    rows = [r.astype(">i2").tobytes() for r in data]
    eq(tx.decode_raw(np.array(rows, dtype=object), np.int16, little_endian=False), data)
    eq(tx.decode_raw(rows[0], "int16", little_endian=False), data[0])
    enc = tx.encode_raw(data, little_endian=False)
    assert enc.dtype == object and list(enc) == rows
    padded = tx.decode_raw([b"\x01\x00\x02", b"\x03"], np.uint8, fixed_length=4)
    eq(padded, np.array([[1, 0, 2, 0], [3, 0, 0, 0]], np.uint8))


def test_string_to_number():
    eq(tx.string_to_number([b"1.5", b"-2"]), np.array([1.5, -2], np.float32))
    eq(tx.string_to_number(np.array([b"7", b"-9"]), out_type=np.int64), np.array([7, -9]))


def test_string_tensor_pack_unpack_round_trip():
    s = np.array([[b"Intel", b""], [b"Open\x00VINO", b"x"]], dtype=object)
    u = tx.string_tensor_unpack(s)
    assert u.symbols.tobytes() == b"IntelOpen\x00VINOx"
    back = tx.string_tensor_pack(u.begins, u.ends, u.symbols)
    assert back.dtype == object and back.tolist() == s.tolist()


# ---- shapes ----
def test_shapes():
    x = np.zeros((2, 1, 3), np.float32)
    eq(tx.shape(x), np.array([2, 1, 3], np.int32))
    eq(tx.shape(x, out_type=np.int64), np.array([2, 1, 3], np.int64))
    eq(tx.size(x), np.array(6, np.int32))
    eq(tx.rank(x), np.array(3, np.int32))
    assert tx.squeeze(x).shape == (2, 3)
    assert tx.expand_dims(x, 0).shape == (1, 2, 1, 3)
    assert [a.tolist() for a in tx.shape_n([x, np.zeros(2, np.float32)])] == [[2, 1, 3], [2]]


def test_reshape_is_a_view_of_the_input():
    x = np.arange(12, dtype=np.float64)
    y = tx.reshape(x, [3, -1])
    eq(y, x.reshape(3, 4))
    assert np.shares_memory(x, y)
    x[0] = 42
    assert y[0, 0] == 42


# ---- slicing ----
def test_slicing():
    x = rng.integers(0, 100, (4, 5, 6), dtype=np.int32)
    eq(tx.slice(x, [1, 0, 2], [2, -1, 3]), x[1:3, :, 2:5])
    eq(tx.strided_slice(x, [3, 0, 1], [0, 5, 6], [-1, 2, 2]), x[3:0:-1, 0:5:2, 1:6:2])
    eq(tx.strided_slice(x, [1, 0, 0], [2, 0, 0], [1, 1, 1], begin_mask=6, end_mask=6,
                        shrink_axis_mask=1), x[1])
    eq(tx.strided_slice(x, [0, 2], [0, 4], [1, 1], ellipsis_mask=1), x[..., 2:4])
    parts = tx.split(x, 2, num_split=3)
    assert isinstance(parts, list) and len(parts) == 3
    for a, b in zip(parts, np.split(x, 3, axis=2)):
        eq(a, b)
    for a, b in zip(tx.split(x, 1, size_splits=[1, -1, 2]), np.split(x, [1, 3], axis=1)):
        eq(a, b)
    for k, a in enumerate(tx.unpack(x, axis=1)):
        eq(a, x[:, k])
    eq(tx.tile(x, [2, 1, 3]), np.tile(x, (2, 1, 3)))


@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad(mode):
    x = rng.standard_normal((3, 4)).astype(np.float32)
    p = [[1, 2], [2, 1]]
    want = np.pad(x, p, mode={"CONSTANT": "constant", "REFLECT": "reflect",
                              "SYMMETRIC": "symmetric"}[mode])
    eq(tx.pad(x, p, mode=mode), want)
    if mode == "CONSTANT":
        eq(tx.pad(x, p, constant_values=2.5), np.pad(x, p, constant_values=2.5))


# ---- reordering ----
def test_reorder():
    a, b = rng.standard_normal((2, 3)), rng.standard_normal((4, 3))
    eq(tx.concat([a, b], 0), np.concatenate([a, b]))
    eq(tx.concat((a.T, b.T), concat_dim=-1), np.concatenate([a.T, b.T], axis=1))
    eq(tx.pack([a, a * 2], axis=1), np.stack([a, a * 2], axis=1))
    eq(tx.reverse(b, axis=[0, 1]), b[::-1, ::-1])
    eq(tx.reverse(b, dims=[True, False]), b[::-1])
    x = rng.integers(0, 9, (2, 3, 4), dtype=np.int16)
    eq(tx.transpose(x), x.transpose())
    eq(tx.transpose(x, [1, 0, 2]), x.transpose(1, 0, 2))
    c = (rng.standard_normal(4) + 1j * rng.standard_normal(4)).astype(np.complex64).reshape(2, 2)
    eq(tx.transpose(c, conjugate=True), c.conj().T)
    for got, want in zip(tx.meshgrid([np.arange(3), np.arange(4)]),
                         np.meshgrid(np.arange(3), np.arange(4))):
        eq(got, want)
    for got, want in zip(tx.meshgrid([[1, 2], [3, 4, 5]], indexing="ij"),
                         np.meshgrid(np.int32([1, 2]), np.int32([3, 4, 5]), indexing="ij")):
        eq(got, want)
    r = tx.reverse_sequence(x, [1, 3], seq_dim=2, batch_dim=0)
    want = x.copy()
    want[0, :, :1] = x[0, :, :1][:, ::-1]
    want[1, :, :3] = x[1, :, :3][:, ::-1]
    eq(r, want)


# ---- space, batch, depth ----
def test_space_to_depth_and_back():
    x = rng.integers(0, 255, (2, 4, 6, 3), dtype=np.uint8)
    want = x.reshape(2, 2, 2, 3, 2, 3).transpose(0, 1, 3, 2, 4, 5).reshape(2, 2, 3, 12)
    y = tx.space_to_depth(x, 2)
    eq(y, want)
    eq(tx.depth_to_space(y, 2), x)
    nchw = x.transpose(0, 3, 1, 2).copy()
    eq(tx.space_to_depth(nchw, 2, data_format="NCHW"), want.transpose(0, 3, 1, 2))


def test_space_to_batch_round_trip():
    x = rng.standard_normal((2, 4, 6, 3)).astype(np.float32)
    y = tx.space_to_batch_nd(x, [2, 3], [[0, 0], [0, 0]])
    assert y.shape == (12, 2, 2, 3)
    eq(y[0], x[0, ::2, ::3])
    eq(tx.batch_to_space_nd(y, [2, 3], [[0, 0], [0, 0]]), x)
    z = tx.space_to_batch(x, [[0, 0], [1, 1]], 2)
    eq(tx.batch_to_space(z, [[0, 0], [1, 1]], 2), x)
    pads, crops = tx.required_space_to_batch_paddings([4, 5], [2, 3])
    eq(pads, np.array([[0, 0], [0, 1]], np.int32))
    eq(crops, np.array([[0, 0], [0, 1]], np.int32))


def test_extract_image_patches():
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    p = tx.extract_image_patches(x, [1, 2, 2, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID")
    assert p.shape == (1, 2, 2, 4)
    eq(p[0, 1, 0], np.array([8, 9, 12, 13], np.float32))


# ---- gathering ----
def test_gathering():
    params = rng.standard_normal((5, 3))
    idx = np.array([[4, 0], [2, 2]])
    eq(tx.gather(params, idx), np.take(params, idx, axis=0))
    eq(tx.gather(params, [2, 0], axis=1), params[:, [2, 0]])
    eq(tx.gather(params, [7, -1], oob="zero"), np.zeros((2, 3)))
    eq(tx.gather(params, [7, -1], oob="clamp"), params[[4, 0]])
    eq(tx.gather_nd(params, [[1, 2], [4, 0]]), params[[1, 4], [2, 0]])
    mask = params[:, 0] > 0
    eq(tx.boolean_mask(params, mask), params[mask])
    eq(tx.one_hot([0, 2, 1], 3), np.eye(3, dtype=np.float32)[[0, 2, 1]])
    eq(tx.one_hot([0, 5], 3, on_value=7, off_value=-1), np.array([[7, -1, -1], [-1, -1, -1]],
                                                                np.int32))
    eq(tx.sequence_mask([1, 3]), np.array([[True, False, False], [True, True, True]]))
    eq(tx.sequence_mask([1, 2], maxlen=3, dtype=np.float32), np.float32([[1, 0, 0], [1, 1, 0]]))


def test_unique_with_counts_is_a_named_tuple():
    x = rng.integers(0, 10, 100, dtype=np.int64)
    r = tx.unique_with_counts(x)
    assert r._fields == ("y", "idx", "count")
    y, idx, count = r
    first = sorted(np.unique(x, return_index=True)[1])
    eq(y, x[first])
    eq(y[idx], x)
    eq(count, np.array([(x == v).sum() for v in y], np.int32))
    assert tx.unique_with_counts(x, out_idx=np.int64).idx.dtype == np.int64


def test_dynamic_partition_and_stitch():
    data = rng.standard_normal((6, 2))
    parts = np.array([1, 0, 2, 1, 0, 0], np.int32)
    got = tx.dynamic_partition(data, parts, 3)
    for k in range(3):
        eq(got[k], data[parts == k])
    idx = [np.flatnonzero(parts == k).astype(np.int32) for k in range(3)]
    eq(tx.dynamic_stitch(idx, got), data)


def test_strings_in_and_out():
    s = np.array([b"ab", b"c", b""], dtype="S2")
    y = tx.reverse(s, axis=[0])
    assert y.dtype == object and y.tolist() == [b"", b"c", b"ab"]
    assert tx.reverse(np.array(["é", "x"]), axis=[0]).tolist() == [b"x", "é".encode()]
    assert tx.gather(np.array([b"a\x00", b"b"], dtype=object), [0]).tolist() == [b"a\x00"]
