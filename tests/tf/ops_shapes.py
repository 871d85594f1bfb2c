# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for shapes and shaping: shape, shape_n, size, rank, reshape, squeeze,
expand_dims (TF's raw ops Shape, ShapeN, Size, Rank, Reshape, Squeeze, ExpandDims)."""
import numpy as np
import tensorflow as tf
from oracle import ALL, TF_DTYPES, Case, op

R = tf.raw_ops
BIG = 3000000000  # a dim above INT32_MAX; with a 0 dim beside it the tensor holds nothing
RANKS = [(), (1,), (2, 3), (1, 2, 1), (2, 1, 2, 1), (1, 1, 1, 1, 1), (2, 1, 1, 2, 1, 1)]


def _zeros(rank):
    """Shapes of `rank` with a 0 in each position in turn."""
    return [tuple(0 if i == k else 2 for i in range(rank)) for k in range(rank)]


def _out_type(f):
    return lambda out_type="int32", **kw: f(out_type=TF_DTYPES.get(out_type, out_type), **kw)


def _shape_cases(g, one_input, with_out_type=True):
    """The cases shape, size and rank share: every dtype, ranks 0-6, zero dims everywhere, a dim
    above INT32_MAX beside a 0, both out_types and a refused one, then random shapes."""
    ot = (lambda t: {"out_type": t}) if with_out_type else (lambda t: {})
    for dt in ALL:
        yield Case(one_input(g.array(dt, (2, 3))), ot("int32"))
    for shape in RANKS:
        yield Case(one_input(g.array("float32", shape)), ot("int32"))
        yield Case(one_input(g.array("int8", shape)), ot("int64"))
    for rank in range(1, 7):
        for shape in _zeros(rank):
            yield Case(one_input(g.array("string", shape)), ot("int64" if rank % 2 else "int32"))
    yield Case(one_input(np.empty((BIG, 0), np.float32)), ot("int32"), note="dim > INT32_MAX")
    yield Case(one_input(np.empty((0, BIG), np.float32)), ot("int64"), note="dim > INT32_MAX")
    if with_out_type:
        for bad in ["float32", "int16", "uint32", "bool", "string"]:
            yield Case(one_input(g.array("int32", (2,))), {"out_type": bad}, note="bad out_type")
    while True:
        yield Case(one_input(g.array(g.choice(ALL), g.shape(zero=0.2))),
                   ot(g.choice(["int32", "int64"])))


@op("shape", tf=_out_type(lambda input, out_type: R.Shape(input=input, out_type=out_type)),
    tf_name="Shape", moves_bits=True)
def shape(g):
    yield from _shape_cases(g, lambda a: {"input": a})


@op("size", tf=_out_type(lambda input, out_type: R.Size(input=input, out_type=out_type)),
    tf_name="Size", moves_bits=True)
def size(g):
    yield from _shape_cases(g, lambda a: {"input": a})


@op("rank", tf=lambda input: R.Rank(input=input), tf_name="Rank", moves_bits=True)
def rank(g):
    yield from _shape_cases(g, lambda a: {"input": a}, with_out_type=False)


@op("shape_n", tf=_out_type(lambda input, out_type: R.ShapeN(input=input, out_type=out_type)),
    tf_name="ShapeN", moves_bits=True)
def shape_n(g):
    for dt in ALL:
        yield Case({"input": [g.array(dt, (2, 3)), g.array(dt, ())]}, {"out_type": "int32"})
    for k in range(1, 5):
        yield Case({"input": [g.array("int16", s) for s in RANKS[k - 1:k + 2]]},
                   {"out_type": "int64"})
    yield Case({"input": [g.array("bool", s) for s in _zeros(4)]}, {"out_type": "int32"})
    yield Case({"input": [np.empty((BIG, 0), np.int8)]}, {"out_type": "int32"},
               note="dim > INT32_MAX")
    yield Case({"input": [np.empty((2, 1), np.int8), np.empty((BIG, 0), np.int8)]},
               {"out_type": "int64"})
    yield Case({"input": []}, {"out_type": "int32"}, note="no inputs: N >= 1")
    yield Case({"input": [g.array("int32", (2,)), g.array("float32", (2,))]},
               {"out_type": "int32"}, note="mixed dtypes: one T")
    yield Case({"input": [g.array("string", (1,)), g.array("string", (0, 2))]},
               {"out_type": "int64"})
    for bad in ["float32", "int8"]:
        yield Case({"input": [g.array("int32", (2,))]}, {"out_type": bad}, note="bad out_type")
    while True:
        dt = g.choice(ALL)
        n = int(g.rng.integers(1, 4))
        yield Case({"input": [g.array(dt, g.shape(zero=0.2)) for _ in range(n)]},
                   {"out_type": g.choice(["int32", "int64"])})


@op("reshape", tf=lambda tensor, shape: R.Reshape(tensor=tensor, shape=shape), tf_name="Reshape",
    moves_bits=True)
def reshape(g):
    def case(x, s, dt="int32", note=""):
        return Case({"tensor": x, "shape": np.array(s, dt).reshape(-1) if not isinstance(s, np.ndarray)
                     else s}, note=note)
    for dt in ALL:
        yield case(g.array(dt, (2, 3)), [3, -1])
    x6 = g.array("float32", (6,))
    for s in [[2, 3], [-1, 2], [3, -1], [1, 6, 1], [1, 1, 1, 1, 1, 6], [6, 1, 1, 1, 1, 1]]:
        yield case(x6, s, "int64")
    yield case(g.array("int8", (1,)), [])
    yield case(g.array("int8", ()), [1, 1, 1])
    yield case(g.array("int8", ()), [-1])
    yield case(g.array("int8", (1, 1)), [])
    yield case(g.array("int8", (2,)), [], note="2 elements to a scalar")
    # TF's zero rules: zeros are left out of the product the -1 divides
    z = g.array("int16", (2, 0))
    for s in [[-1, 0], [0, -1], [0], [0, 5], [5, 0, -1], [-1], [0, 0, -1], [3, 0], [-1, 3]]:
        yield case(z, s)
    yield case(g.array("int16", (1, 0)), [0, -1])
    yield case(g.array("int16", (0, 3)), [-1, 0, 3])
    yield case(g.array("int16", (4,)), [0, -1], note="0 in shape, non-empty input")
    # errors
    yield case(x6, [3, -1, -1], note="two -1")
    yield case(x6, [3, -2], note="negative entry")
    yield case(x6, [4, -1], note="-1 not inferable")
    yield case(x6, [4, 2], note="counts differ")
    yield case(x6, [7], note="counts differ")
    yield case(x6, np.array([[2, 3]], np.int32), note="shape not 1-D")
    yield case(x6, np.array(6, np.int32), note="shape a scalar")
    yield case(x6, np.array([2.0, 3.0], np.float32), note="shape float")
    yield case(x6, np.array([2, 3], np.int16), note="shape int16")
    yield case(x6, np.array([[2.0, 3.0]], np.float32), note="shape float and 2-D: dtype first")
    yield case(g.array("int8", (0,)), [4294967296, 4294967296, 0], "int64", note="overflow")
    yield case(g.array("int8", (0,)), [4294967296, 4294967296, -1], "int64", note="overflow")
    yield case(g.array("int8", (0,)), [BIG, 0], "int64")
    yield case(g.array("int8", (0,)), [BIG, -1], "int64")
    yield case(g.array("int8", ()), [1] * 64, note="64 entries: NumPy's most")
    yield case(g.array("int8", ()), [1] * 254, note="254 entries: too many")
    yield case(g.array("int8", ()), [1] * 255, note="255 entries: too many")
    while True:
        dt = g.choice(ALL)
        shp = g.shape(zero=0.15)
        x = g.array(dt, shp)
        n = int(np.prod(shp, dtype=np.int64))
        if g.rng.random() < 0.7:  # a permuted factorisation of the size
            dims = [d for d in shp if d != 1]
            g.rng.shuffle(dims)
            if n > 0 and g.rng.random() < 0.3:
                dims = [n]
            if dims and g.rng.random() < 0.4:
                dims[int(g.rng.integers(len(dims)))] = -1
            for _ in range(int(g.rng.integers(0, 3))):
                dims.insert(int(g.rng.integers(len(dims) + 1)), 1)
        else:
            dims = [int(v) for v in g.rng.integers(-2, 5, int(g.rng.integers(0, 5)))]
        yield case(x, dims, g.choice(["int32", "int64"]))


@op("squeeze", tf=lambda input, squeeze_dims=(): R.Squeeze(input=input, axis=list(squeeze_dims)),
    tf_name="Squeeze", moves_bits=True)
def squeeze(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (1, 3, 1))}, {"squeeze_dims": []})
    for shape in RANKS:
        yield Case({"input": g.array("int32", shape)}, {"squeeze_dims": []})
    x = g.array("float64", (1, 2, 1, 0, 1))
    for dims in [[0], [-1], [2], [-3], [0, 2], [0, -5], [0, 0], [2, -3, 4], [4, 0, 2], [-5, -3, -1]]:
        yield Case({"input": x}, {"squeeze_dims": dims})
    for dims in [[1], [3], [5], [-6], [0, 5], [100], [-100]]:
        yield Case({"input": x}, {"squeeze_dims": dims}, note="error")
    yield Case({"input": g.array("int8", ())}, {"squeeze_dims": []})
    yield Case({"input": g.array("int8", ())}, {"squeeze_dims": [0]}, note="scalar")
    yield Case({"input": g.array("int8", ())}, {"squeeze_dims": [-1]}, note="scalar")
    yield Case({"input": g.array("string", (0, 1))}, {"squeeze_dims": []})
    yield Case({"input": g.array("string", (1, 1, 1, 1, 1, 1))}, {"squeeze_dims": [1, 3, -1]})
    while True:
        shp = g.shape(zero=0.1, max_dim=2)
        rank = len(shp)
        k = int(g.rng.integers(0, rank + 1))
        dims = [int(v) for v in g.rng.integers(-rank - 1, rank + 1, k)] if rank else []
        yield Case({"input": g.array(g.choice(ALL), shp)}, {"squeeze_dims": dims})


@op("expand_dims", tf=lambda input, dim: R.ExpandDims(input=input, axis=dim),
    tf_name="ExpandDims", moves_bits=True)
def expand_dims(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (2, 3))}, {"dim": 1})
    for shape in RANKS:
        r = len(shape)
        for dim in sorted({0, r, -1, -1 - r, r // 2}):
            yield Case({"input": g.array("uint16", shape)}, {"dim": dim})
    for shape in _zeros(3):
        yield Case({"input": g.array("string", shape)}, {"dim": -2})
    for shape, dim in [((), 1), ((), -2), ((2, 3), 3), ((2, 3), -4), ((2,), 100), ((2,), -100)]:
        yield Case({"input": g.array("int8", shape)}, {"dim": dim}, note="out of range")
    # (ranks above 64 cannot pass through NumPy: TF's 254-dim limit is a unit test's)
    yield Case({"input": np.empty((1,) * 63, np.int8)}, {"dim": 0}, note="rank 64 result")
    while True:
        shp = g.shape(zero=0.1)
        r = len(shp)
        yield Case({"input": g.array(g.choice(ALL), shp)}, {"dim": int(g.rng.integers(-r - 2, r + 2))})
