# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for slicing and joining: slice, strided_slice, split (TF's Split and SplitV),
unpack, tile, pad (TF's Pad, PadV2 and MirrorPad)."""
import numpy as np
import tensorflow as tf
from oracle import ALL, CARRIERS, FLOATS, INTS, Case, difference, op

R = tf.raw_ops
HIGH_RANK = ("high ranks: TF 2.21's CPU kernels refuse Slice and StridedSlice above rank 8 (unless "
             "the slice is trivial), Pad above rank 8 and MirrorPad above rank 5 (unimplemented, "
             "even with nothing padded); tensorx takes any rank up to 254, its kernels being "
             "rank-generic (docs/slicing.md)")


def _high_rank(case, want, got):
    """TF's kernel refuses the input's rank (it unrolls ranks up to 8, MirrorPad up to 5);
    tensorx computes the result."""
    return want[0] == "error" and want[1] == "unimplemented" and got[0] == "ok" and \
        ("Unhandled input dimensions" in want[2] or "inputs rank not in" in want[2])


for _name in ("slice", "strided_slice", "pad"):
    difference(_name, HIGH_RANK)(_high_rank)
SHAPES = [(), (3,), (2, 3), (2, 1, 3), (1, 2, 2, 1), (2, 1, 2, 1, 2), (1, 2, 1, 2, 1, 2)]
HIGH = (1, 2, 1, 2, 1, 2, 1, 2, 1)  # rank 9: above the ranks TF's Slice/Pad kernels unroll


def _zeros(rank, d=2):
    return [tuple(0 if i == k else d for i in range(rank)) for k in range(rank)]


def _v(vals, dt="int32"):
    return np.array(vals, dt).reshape(-1) if not isinstance(vals, np.ndarray) else vals


# ---- slice ---------------------------------------------------------------------------------------
@op("slice", tf=lambda input_, begin, size: R.Slice(input=input_, begin=begin, size=size),
    tf_name="Slice", moves_bits=True)
def slice_(g):
    def case(x, b, s, dt="int32", note=""):
        return Case({"input_": x, "begin": _v(b, dt), "size": _v(s, dt)}, note=note)
    for dt in ALL:
        yield case(g.array(dt, (3, 4)), [1, 1], [2, -1])
    for shape in SHAPES:
        r = len(shape)
        yield case(g.array("int32", shape), [0] * r, [-1] * r, "int64")
        yield case(g.array("float32", shape), [d // 2 for d in shape], [(d + 1) // 2 for d in shape])
    for shape in _zeros(3):
        yield case(g.array("string", shape), [0, 1, 0] if shape[1] else [0, 0, 1],
                   [-1, 1, 1] if shape[1] else [1, -1, 1])
    x = g.array("int16", (3, 4))
    for b, s in [([0, 4], [3, 0]), ([3, 0], [0, -1]), ([2, 1], [1, 3])]:
        yield case(x, b, s)
    for b, s, why in [([0, 5], [1, 0], "begin > dim"), ([-1, 0], [1, 1], "negative begin"),
                      ([1, 1], [3, 1], "size too big"), ([0, 0], [1, -2], "size -2"),
                      ([0, 0], [4, 4], "size too big"), ([0], [1], "short begin"),
                      ([0, 0, 0], [1, 1, 1], "long begin"), ([0, 0], [1], "size shorter")]:
        yield case(x, b, s, note=why)
    z = g.array("int16", (2, 0))
    for b, s in [([0, 0], [1, 0]), ([0, 0], [2, -1]), ([0, 1], [1, 0]), ([0, 0], [1, 1]),
                 ([0, 0], [1, -2])]:
        yield case(z, b, s, note="zero dim")
    yield case(x, np.array([[0, 0]], np.int32), np.array([[1, 1]], np.int32), note="2-D begin")
    yield Case({"input_": x, "begin": _v([0, 0], "int32"), "size": _v([1, 1], "int64")},
               note="mixed index dtypes")
    yield case(x, [0, 0], [1, 1], "int16", note="int16 index")
    yield case(x, [0], [1], "float32", note="float index, short: dtype first")
    yield Case({"input_": x, "begin": _v([0, 0], "int32"), "size": _v([1, 1], "float32")},
               note="float size")
    yield case(g.array("uint8", ()), [], [], "int64")
    yield case(g.array("int32", (2, 2)), [2 ** 31 - 1, 0], [1, 1], note="huge begin")
    yield case(g.array("int32", (2, 2)), [1, 0], [2 ** 31 - 1, 1], note="huge size")
    hx = g.array("int8", HIGH)
    yield case(hx, [0] * 9, [-1] * 9, note="rank 9, whole")
    yield case(hx, [0, 1] + [0] * 7, [1, 1] + [-1] * 7, note="rank 9, a block")
    yield case(hx, [0, 1, 0, 1, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 2, 1, 1, 1], note="rank 9")
    while True:
        shape = g.shape(g.choice([1, 2, 3, 4]), max_dim=5, zero=0.1)
        b = [int(g.rng.integers(-1, d + 2)) for d in shape]
        s = [int(g.rng.integers(-2, max(1, d - bb) + 2)) if g.rng.random() < 0.1 else
             (-1 if g.rng.random() < 0.2 else int(g.rng.integers(0, max(0, d - bb) + 1)))
             for d, bb in zip(shape, b)]
        if g.rng.random() < 0.7:
            b = [min(max(bb, 0), d) for bb, d in zip(b, shape)]
        yield case(g.array(g.choice(ALL), shape), b, s, g.choice(["int32", "int64"]))


# ---- strided_slice -------------------------------------------------------------------------------
MASKS = ["begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask"]


@op("strided_slice", tf=lambda input_, begin, end, strides, **m:
    R.StridedSlice(input=input_, begin=begin, end=end, strides=strides, **m),
    tf_name="StridedSlice", moves_bits=True)
def strided_slice(g):
    def case(x, b, e, s, dt="int32", note="", **masks):
        attrs = {k: int(masks.get(k, 0)) for k in MASKS}
        return Case({"input_": x, "begin": _v(b, dt), "end": _v(e, dt), "strides": _v(s, dt)},
                    attrs, note=note)
    for dt in ALL:
        yield case(g.array(dt, (3, 4)), [1, 0], [3, 4], [1, 2])
    x = g.array("int32", (3, 4))
    for mask in MASKS:  # each mask, each bit pattern over two specs
        for bits in range(1, 4):
            yield case(x, [1, -1], [-1, 0], [1, -1], **{mask: bits})
    for m1, m2 in [("ellipsis_mask", "new_axis_mask"), ("new_axis_mask", "shrink_axis_mask"),
                   ("ellipsis_mask", "shrink_axis_mask"), ("begin_mask", "shrink_axis_mask"),
                   ("end_mask", "shrink_axis_mask"), ("begin_mask", "end_mask")]:
        yield case(x, [1, 2], [2, 3], [1, 1], note="overlapping bits", **{m1: 1, m2: 1})
    x4 = g.array("int64", (2, 3, 4, 5))
    yield case(x4, [0, 0, 1, 1], [0, 0, 2, 4], [1, 1, 1, 2], "int64", note="ellipsis + new + shrink",
               new_axis_mask=1, ellipsis_mask=2, shrink_axis_mask=4)
    yield case(x4, [1, 0, 0, -1], [2, 0, 0, -4], [1, 1, 1, -1], note="shrink, ..., new, range",
               shrink_axis_mask=1, ellipsis_mask=2, new_axis_mask=4)
    yield case(x4, [0, 0, 0], [0, 0, 0], [1, 1, 1], note="new axes after the ellipsis",
               ellipsis_mask=1, new_axis_mask=6)
    yield case(x4, [0, 0, 0], [0, 0, 0], [1, 1, 1], note="new axes only", new_axis_mask=7)
    yield case(x4, [-1, 0, 0, 0, 0], [0, 0, 0, 0, 2], [1, 1, 1, 1, 1], note="5 specs, 4 dims",
               shrink_axis_mask=1, begin_mask=30, end_mask=14)
    yield case(x4, [0] * 5, [1] * 5, [1] * 5, note="5 specs on 4 dims")
    x5 = g.array("uint8", (7,))
    for b, e, s in [([10], [-10], [-1]), ([-10], [10], [2]), ([6], [0], [-3]), ([-1], [-8], [-2]),
                    ([0], [7], [7]), ([0], [7], [100]), ([3], [3], [1]), ([5], [2], [1]),
                    ([2], [5], [-1]), ([-100], [100], [-1]), ([2 ** 31 - 1], [-2 ** 31], [-1])]:
        yield case(x5, b, e, s, note="clamping")
    for b, why in [([7], "shrink past the end"), ([-8], "shrink before the start"), ([-7], "")]:
        yield case(x5, b, [0], [1], note=why, shrink_axis_mask=1)
    yield case(x5, [1], [2], [-1], note="shrink, negative stride", shrink_axis_mask=1)
    yield case(x5, [1], [2], [2], note="shrink, stride 2", shrink_axis_mask=1)
    yield case(x5, [1], [2], [0], note="stride 0")
    yield case(x4, [0, 0], [1, 1], [1, 0], note="stride 0 after ...", ellipsis_mask=1)
    yield case(x, [0, 0], [1, 1], [1, 1], note="two ellipses", ellipsis_mask=3)
    yield case(x, [0, 0, 0], [1, 1, 1], [1, 1, 1], note="3 specs, 2 dims")
    yield case(x, [0, 0], [1], [1, 1], note="end shorter")
    yield case(x, np.array([[0, 0]]), np.array([[1, 1]]), np.array([[1, 1]]), note="2-D begin")
    yield Case({"input_": x, "begin": _v([0], "int32"), "end": _v([1], "int64"),
                "strides": _v([1], "int32")}, {k: 0 for k in MASKS}, note="mixed index dtypes")
    yield case(x, [0] * 32, [1] * 32, [1] * 32, note="32 specs", ellipsis_mask=1)
    yield case(x, [0] * 31, [1] * 31, [1] * 31, note="31 specs", ellipsis_mask=1,
               new_axis_mask=(1 << 31) - 4)
    yield case(x, [1, 0], [3, 4], [1, -1], "int16", note="int16 index", end_mask=2, begin_mask=2)
    yield case(x, [0], [1, 1], [1, 1, 1], "uint16", note="uint16 index, lengths differ: dtype first")
    yield Case({"input_": x, "begin": _v([0], "int32"), "end": _v([1], "int32"),
                "strides": _v([1], "float32")}, {k: 0 for k in MASKS}, note="float strides")
    yield case(x, [1, 0], [3, 4], [1, 1], "int64", begin_mask=-1, end_mask=-1,
               note="all mask bits set")
    s0 = g.array("float64", ())
    yield case(s0, [], [], [], note="scalar, no specs")
    yield case(s0, [0], [1], [1], note="slicing a scalar")
    yield case(s0, [0], [0], [1], note="new axis on a scalar", new_axis_mask=1)
    yield case(s0, [0], [0], [1], note="ellipsis on a scalar", ellipsis_mask=1)
    for shape in SHAPES[1:]:
        r = len(shape)
        yield case(g.array("float16", shape), [1] * r, [-1] * r, [-1] * r, "int64")
    for shape in _zeros(3):
        yield case(g.array("string", shape), [0, 0, -1], [2, 2, -3], [1, 2, -1])
    hx = g.array("int8", HIGH)
    yield case(hx, [0, 1], [1, 2], [1, 1], note="rank 9, a block")
    yield case(hx, [0] * 9, [1, 2, 1, 2, 1, 2, 1, 2, 1], [1, 1, 1, 1, 1, 1, 1, 1, -1], note="rank 9")
    yield case(hx, [0], [0], [1], note="rank 9, whole", ellipsis_mask=1)
    while True:
        shape = g.shape(g.choice([0, 1, 2, 3, 4]), max_dim=5, zero=0.1)
        r = len(shape)
        n = int(g.rng.integers(0, r + 2))
        dims = [shape[i] if i < r else 3 for i in range(n)]
        b = [int(g.rng.integers(-d - 2, d + 3)) for d in dims]
        e = [int(g.rng.integers(-d - 2, d + 3)) for d in dims]
        s = [int(g.choice([1, 1, 2, 3, -1, -1, -2, -3, 0] if g.rng.random() < 0.1 else
                          [1, 1, 2, 3, -1, -1, -2, -3])) for _ in dims]
        masks = {k: int(g.rng.integers(0, 1 << n)) if n and g.rng.random() < 0.4 else 0
                 for k in MASKS}
        if masks["ellipsis_mask"] and g.rng.random() < 0.9:  # mostly one ellipsis
            m = masks["ellipsis_mask"]
            masks["ellipsis_mask"] = m & -m
        if masks["shrink_axis_mask"] and g.rng.random() < 0.7:  # mostly valid shrinks
            for i in range(n):
                if masks["shrink_axis_mask"] >> i & 1:
                    s[i] = 1
                    b[i] = int(g.rng.integers(-dims[i], dims[i])) if dims[i] else 0
        yield case(g.array(g.choice(ALL), shape), b, e, s, g.choice(["int16", "int32", "int64"]),
                   **masks)


# ---- split ---------------------------------------------------------------------------------------
def _tf_split(value, split_dim, num_split=None, size_splits=None):
    if size_splits is not None:
        return R.SplitV(value=value, size_splits=tf.constant(size_splits, tf.int64),
                        axis=split_dim, num_split=len(size_splits))
    return R.Split(axis=split_dim, value=value, num_split=num_split)


@op("split", tf=_tf_split, tf_name="Split/SplitV", moves_bits=True)
def split(g):
    for dt in ALL:
        yield Case({"value": g.array(dt, (4, 3))}, {"split_dim": 0, "num_split": 2})
    for shape in SHAPES[1:]:
        r = len(shape)
        yield Case({"value": g.array("int32", shape)}, {"split_dim": r - 1, "num_split": shape[-1]})
        yield Case({"value": g.array("float32", shape)}, {"split_dim": -r, "num_split": 1})
    x = g.array("int16", (2, 6))
    for dim, n, why in [(1, 3, ""), (-1, 6, ""), (1, 4, "does not divide"), (2, 1, "dim 2"),
                        (-3, 1, "dim -3"), (1, 0, "num_split 0"), (1, -1, "num_split -1"),
                        (0, 3, "does not divide"), (1, 7, "more parts than elements")]:
        yield Case({"value": x}, {"split_dim": dim, "num_split": n}, note=why)
    yield Case({"value": g.array("int8", ())}, {"split_dim": 0, "num_split": 1}, note="scalar")
    for shape in _zeros(3, 3):
        yield Case({"value": g.array("string", shape)}, {"split_dim": 1, "num_split": 3})
    for sizes, why in [([1, -1, 2], ""), ([6], ""), ([0, 6], ""), ([-1], "one -1 alone"),
                       ([-1, 0], ""), ([2, 2, 2], ""), ([1, 0, 5, 0], ""), ([5], "sum below"),
                       ([7], "sum above"), ([4, 3], "sum above"), ([3, 4, -1], "sum above"),
                       ([-1, -1], "two -1"), ([1, -2, 7], "-2"), ([-1, 6], ""),
                       ([1, -1, 5], "-1 takes 0"), ([], "no sizes"), ([-2], "-2 alone")]:
        yield Case({"value": x}, {"split_dim": 1, "size_splits": sizes}, note=why)
    yield Case({"value": x}, {"split_dim": 2, "size_splits": [1, 5]}, note="dim 2")
    yield Case({"value": x}, {"split_dim": -2, "size_splits": [1, -1]})
    z = g.array("float64", (2, 0))
    for sizes in [[0], [-1], [0, 0, -1], [0, -1, 0], [1, -1]]:
        yield Case({"value": z}, {"split_dim": 1, "size_splits": sizes}, note="zero dim")
    yield Case({"value": g.array("int8", ())}, {"split_dim": 0, "size_splits": [1]}, note="scalar")
    while True:
        shape = g.shape(g.choice([1, 2, 3, 4]), max_dim=6, zero=0.1)
        r = len(shape)
        dim = int(g.rng.integers(-r - 1, r + 1))
        d = shape[dim] if -r <= dim < r else 3
        x = g.array(g.choice(ALL), shape)
        if g.rng.random() < 0.5:
            divs = [k for k in range(1, 7) if d % k == 0] if d else [1, 2, 3]
            n = g.choice(divs) if g.rng.random() < 0.85 else int(g.rng.integers(0, 5))
            yield Case({"value": x}, {"split_dim": dim, "num_split": int(n)})
        else:
            k = int(g.rng.integers(1, 5))
            cuts = sorted(int(c) for c in g.rng.integers(0, d + 1, k - 1))
            sizes = [b - a for a, b in zip([0] + cuts, cuts + [d])]
            if g.rng.random() < 0.4:
                sizes[int(g.rng.integers(k))] = -1
            if g.rng.random() < 0.1:
                sizes[int(g.rng.integers(k))] += int(g.choice([-1, 1]))
            yield Case({"value": x}, {"split_dim": dim, "size_splits": sizes})


# ---- unpack --------------------------------------------------------------------------------------
@difference("unpack", "unpack with num=0: TF 2.21 run eagerly returns no tensors without running "
            "Unpack's kernel, so nothing is checked (axis, rank, value.shape[axis]; tf.function "
            "refuses the same call in shape inference); tensorx checks num against "
            "value.shape[axis] as the kernel does")
def _unpack_num0(case, want, got):
    return case.attrs.get("num") == 0 and want[0] == "ok" and not want[1] and \
        got[0] == "error" and got[1] == "invalid_argument"



def _tf_unpack(value, num=None, axis=0):
    if num is None:  # Python's num=None: tf.unstack infers it from the shape
        return tf.unstack(value, axis=axis)
    return R.Unpack(value=value, num=num, axis=axis)


@op("unpack", tf=_tf_unpack, tf_name="Unpack", moves_bits=True)
def unpack(g):
    for dt in ALL:
        yield Case({"value": g.array(dt, (3, 2))}, {"axis": 0})
    for shape in SHAPES[1:]:
        r = len(shape)
        yield Case({"value": g.array("int32", shape)}, {"axis": r - 1})
        yield Case({"value": g.array("float32", shape)}, {"axis": -r, "num": shape[0]})
    x = g.array("int16", (2, 3))
    for attrs, why in [({"axis": 1, "num": 3}, ""), ({"axis": -1, "num": 3}, ""),
                       ({"axis": 1, "num": 2}, "wrong num"), ({"axis": 0, "num": 3}, "wrong num"),
                       ({"axis": 0, "num": 0}, "num 0"), ({"axis": 0, "num": -1}, "num -1"),
                       ({"axis": 2}, "axis 2"), ({"axis": -3}, "axis -3"),
                       ({"axis": 2, "num": 2}, "axis 2"), ({"axis": 5, "num": 1}, "axis 5")]:
        yield Case({"value": x}, attrs, note=why)
    s = g.array("int8", ())
    yield Case({"value": s}, {"axis": 0}, note="scalar")
    yield Case({"value": s}, {"axis": 0, "num": 1}, note="scalar")
    yield Case({"value": s}, {"axis": 0, "num": 0}, note="scalar")
    for shape in _zeros(3):
        for axis in (0, 1, 2):
            yield Case({"value": g.array("string", shape)}, {"axis": axis})
    yield Case({"value": g.array("string", (2, 0))}, {"axis": 1, "num": 0})
    yield Case({"value": g.array("string", (2, 0))}, {"axis": 1, "num": 1}, note="wrong num")
    while True:
        shape = g.shape(g.choice([1, 2, 3, 4]), zero=0.1)
        r = len(shape)
        axis = int(g.rng.integers(-r - 1, r + 1))
        attrs = {"axis": axis}
        if g.rng.random() < 0.5:
            d = shape[axis] if -r <= axis < r else 1
            attrs["num"] = d if g.rng.random() < 0.8 else int(g.rng.integers(0, 5))
        yield Case({"value": g.array(g.choice(ALL), shape)}, attrs)


# ---- tile ----------------------------------------------------------------------------------------
def _tf_tile(input, multiples):
    """TF 2.21's Tile is registered for every dtype but its kernel refuses some (uint16, int4,
    float8, the quantized types: "TileOp : The input data type is not supported"); that is
    reported as the frame's "no kernel" (NotFoundError), so the case is compared through its
    carrier (oracle.carrier) or counted as dtype coverage, as for an unregistered kernel."""
    try:
        return R.Tile(input=input, multiples=multiples)
    except tf.errors.UnimplementedError as e:
        if "input data type is not supported" not in str(e):
            raise
        raise tf.errors.NotFoundError(None, None, f"No registered Tile kernel for {input.dtype.name} "
                                      f"(TF: {str(e).split('}} ')[-1]})") from None


@op("tile", tf=_tf_tile, tf_name="Tile", moves_bits=True)
def tile(g):
    def case(x, m, dt="int32", note=""):
        return Case({"input": x, "multiples": _v(m, dt)}, note=note)
    for dt in ALL:
        yield case(g.array(dt, (2, 3)), [2, 1])
    for shape in SHAPES:
        r = len(shape)
        yield case(g.array("int32", shape), [2] * r, "int64")
        yield case(g.array("uint8", shape), [(i % 3) for i in range(r)])
    for shape in _zeros(3):
        yield case(g.array("string", shape), [2, 3, 1])
    x = g.array("float32", (2, 3))
    for m, why in [([0, 0], ""), ([0, 3], ""), ([3, 0], ""), ([1, 1], ""), ([2, -1], "negative"),
                   ([2], "short"), ([1, 1, 1], "long")]:
        yield case(x, m, note=why)
    yield case(x, np.array([[2, 2]], np.int32), note="2-D multiples")
    yield case(x, np.array([2.0, 2.0], np.float32), note="float multiples")
    yield case(x, [2, 2], "int16", note="int16 multiples")
    yield case(x, [2, 2, 2], "float32", note="float multiples, long: dtype first")
    yield case(g.array("int8", (3,)), np.array(2, np.int32), note="scalar multiples, 1-D input")
    yield case(g.array("int8", (3,)), np.array(2, np.int64), note="scalar multiples, 1-D input")
    yield case(g.array("int8", ()), np.array(2, np.int32), note="scalar multiples, scalar")
    yield case(g.array("int8", ()), [], note="scalar")
    yield case(g.array("int8", (0, 2)), [2 ** 40, 2 ** 20], "int64", note="big multiples, empty")
    yield case(g.array("int8", (1, 0)), [2 ** 31 - 1, 5], note="big multiples, empty")
    while True:
        shape = g.shape(g.choice([0, 1, 2, 3, 4]), max_dim=3, zero=0.1)
        r = len(shape)
        m = [int(g.rng.integers(0, 4)) for _ in range(r)]
        if g.rng.random() < 0.05 and r:
            m[int(g.rng.integers(r))] = -1
        yield case(g.array(g.choice(ALL), shape), m, g.choice(["int32", "int64"]))


# ---- pad -----------------------------------------------------------------------------------------
def _scalar(text, dtype):
    if dtype == tf.string:
        return tf.constant(text.encode(), tf.string)
    if dtype == tf.bool:
        return tf.constant(text.lower() == "true", tf.bool)
    if dtype.is_integer:
        return tf.constant(int(text), dtype)
    return tf.constant(float(text), dtype)


def _tf_pad(tensor, paddings, mode="CONSTANT", constant_values=None):
    mode = mode.upper()  # tf.pad upper-cases the mode
    if mode == "CONSTANT":
        if constant_values is None:
            return R.Pad(input=tensor, paddings=paddings)
        return R.PadV2(input=tensor, paddings=paddings,
                       constant_values=_scalar(constant_values, tensor.dtype))
    return R.MirrorPad(input=tensor, paddings=paddings, mode=mode)


@op("pad", tf=_tf_pad, tf_name="Pad/PadV2/MirrorPad", moves_bits=True)
def pad(g):
    def case(x, p, dt="int32", note="", **attrs):
        pp = np.array(p, dt).reshape(-1, 2) if not isinstance(p, np.ndarray) else p
        return Case({"tensor": x, "paddings": pp}, attrs, note=note)
    for dt in ALL:
        yield case(g.array(dt, (2, 3)), [[1, 0], [0, 2]])
    values = {"bool": "true", "int8": "-3", "uint8": "200", "int16": "-300", "uint16": "65535",
              "int32": "-7", "uint32": "4000000000", "int64": "-9000000000000",
              "uint64": "18000000000000000000", "float16": "2.5", "bfloat16": "-0.5",
              "float32": "nan", "float64": "-inf", "string": "pad"}
    for dt, text in values.items():
        yield case(g.array(dt, (2, 2)), [[1, 1], [0, 1]], constant_values=text)
    yield case(g.array("float32", (2,)), [[1, 1]], constant_values="-0.0")
    yield case(g.array("string", (1,)), [[1, 0]], constant_values="")
    x = g.array("int32", (2, 3))
    for mode in ["REFLECT", "SYMMETRIC"]:
        for p in [[[1, 1], [2, 2]], [[0, 0], [0, 0]], [[1, 0], [0, 2]]]:
            yield case(x, p, mode=mode)
    yield case(x, [[2, 0], [0, 0]], mode="REFLECT", note="REFLECT limit")
    yield case(x, [[0, 0], [0, 3]], mode="REFLECT", note="REFLECT limit")
    yield case(x, [[2, 2], [3, 3]], mode="SYMMETRIC")
    yield case(x, [[3, 0], [0, 0]], mode="SYMMETRIC", note="SYMMETRIC limit")
    yield case(x, [[0, 0], [0, 4]], mode="SYMMETRIC", note="SYMMETRIC limit")
    for mode in ["constant", "reflect", "Symmetric"]:
        yield case(x, [[1, 0], [1, 0]], mode=mode, note="lower case")
    yield case(x, [[1, 0], [1, 0]], mode="FOO", note="unknown mode")
    yield case(x, np.array([1, 1], np.float32), mode="REFLECT", note="float 1-D paddings: dtype first")
    yield case(x, [[1, 0], [1, 0]], mode="REFLECT", constant_values="5", note="ignored value")
    for mode in ["CONSTANT", "REFLECT", "SYMMETRIC"]:
        yield case(x, [[-1, 0], [0, 0]], mode=mode, note="negative padding")
        yield case(x, [[0, 0], [0, -1]], "int64", mode=mode, note="negative padding")
        yield case(g.array("int8", (2, 0)), [[1, 1], [0, 0]], mode=mode, note="zero dim")
        yield case(g.array("int8", (2, 0)), [[0, 0], [1, 0]], mode=mode, note="zero dim")
        yield case(g.array("int8", ()), np.zeros((0, 2), np.int32), mode=mode, note="scalar")
        yield case(x, [[1, 1]], mode=mode, note="short paddings")
        yield case(x, np.array([1, 1, 1, 1], np.int32), mode=mode, note="1-D paddings")
        yield case(x, np.array([[1, 1, 1], [1, 1, 1]], np.int32), mode=mode, note="3 columns")
        yield case(x, np.array([[1, 1], [1, 1]], np.float32), mode=mode, note="float paddings")
        yield case(x, np.array([[1, 1], [1, 1]], np.int16), mode=mode, note="int16 paddings")
    for shape in SHAPES[1:]:
        r = len(shape)
        yield case(g.array("float64", shape), [[1, 0]] * r, "int64", mode="SYMMETRIC")
        yield case(g.array("uint16", shape), [[0, 1]] * r, constant_values="9")
    for shape in _zeros(3):
        yield case(g.array("string", shape), [[1, 0], [0, 1], [1, 1]], constant_values="s")
    hx = g.array("int8", HIGH)
    yield case(hx, [[0, 0]] * 8 + [[1, 1]], note="rank 9")
    yield case(hx, [[0, 0]] * 8 + [[0, 0]], note="rank 9, nothing padded")
    h6 = g.array("int8", (2, 1, 2, 1, 2, 2))
    yield case(h6, [[1, 1]] + [[0, 0]] * 5, mode="REFLECT", note="rank 6")
    yield case(h6, [[0, 0]] * 6, mode="SYMMETRIC", note="rank 6, nothing padded")
    while True:
        shape = g.shape(g.choice([0, 1, 2, 3, 4]), max_dim=4, zero=0.1)
        dt = g.choice(ALL)
        mode = g.choice(["CONSTANT", "CONSTANT", "REFLECT", "SYMMETRIC"])
        lim = {"CONSTANT": 3}
        p = [[int(g.rng.integers(0, lim.get(mode, max(d - (mode == "REFLECT"), 0)) + 1))
              for _ in range(2)] for d in shape]
        if g.rng.random() < 0.05 and shape:
            p[int(g.rng.integers(len(shape)))][int(g.rng.integers(2))] += int(g.choice([-2, 1]))
        attrs = {"mode": mode}
        if mode == "CONSTANT" and dt not in CARRIERS and g.rng.random() < 0.5:
            if dt in INTS or dt in FLOATS:
                attrs["constant_values"] = str(int(g.rng.integers(0, 100)))
            elif dt in values:
                attrs["constant_values"] = values[dt]
        yield case(g.array(dt, shape), np.array(p, g.choice(["int32", "int64"])).reshape(-1, 2),
                   **attrs)
