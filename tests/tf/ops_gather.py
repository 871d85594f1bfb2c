# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for gathering and encoding: gather (GatherV2), gather_nd (GatherNd),
unique_with_counts (UniqueWithCounts), dynamic_partition (DynamicPartition), dynamic_stitch
(DynamicStitch), boolean_mask (tf.boolean_mask, Python-level in TF), one_hot (OneHot; TF's
tf.one_hot where no dtype is given, for its inference of the dtype from on_value/off_value) and
sequence_mask (tf.sequence_mask, Python-level in TF).

tensorx's `oob` attributes stay at their default ('error', TF's behaviour) and unique_with_counts'
`sorted` at False (TF's first-occurrence order)."""
import numpy as np
import tensorflow as tf
from oracle import ALL, INTS, FLOATS, Case, TF_DTYPES, TF_NAMES, difference, dtype_of, np_dtype, op

R = tf.raw_ops


def _a(values, dtype):
    """A fixed array (hand-picked cases)."""
    if dtype == "string":
        return np.array([v.encode() if isinstance(v, str) else v for v in np.ravel(values)],
                        dtype=object).reshape(np.shape(values))
    return np.array(values, dtype=dtype)


def _float_bits(bits, dtype):
    """An array of `dtype` (a float of 16, 32 or 64 bits) from its bit patterns."""
    width = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32,
             "float64": np.uint64}[dtype]
    return np.array(bits, dtype=width).view(np_dtype(dtype))


# ---- gather ---------------------------------------------------------------------------------------
def _gather_tf(params, indices, axis=None, batch_dims=0):
    return R.GatherV2(params=params, indices=indices,
                      axis=batch_dims if axis is None else axis, batch_dims=batch_dims)


@op("gather", tf=_gather_tf, tf_name="GatherV2", moves_bits=True)
def gather(g):
    for dt in ALL:  # every dtype once, a plain case
        yield Case({"params": g.array(dt, (3, 2)), "indices": g.ints(0, 2, (4,))}, {"axis": 0})
    f32 = "float32"
    # ranks 0-6 of params, axis at the end
    for rank in range(0, 7):
        shape = tuple(2 + (i % 2) for i in range(rank))
        dim = shape[-1] if rank else 1
        yield Case({"params": g.array(f32, shape), "indices": g.ints(0, dim - 1, (2,))},
                   {"axis": -1}, note=f"rank {rank}")
    # a zero-size dim in every position of params, axis 0..2
    for zero in range(3):
        for axis in range(3):
            shape = tuple(0 if i == zero else 3 for i in range(3))
            dim = shape[axis]
            ind = g.ints(0, max(dim - 1, 0), (2,)) if dim else _a([0, 5], "int32")
            yield Case({"params": g.array(f32, shape), "indices": ind}, {"axis": axis},
                       note="zero dim")
    # empty indices (any values pass), empty params with empty indices
    yield Case({"params": g.array(f32, (3, 2)), "indices": _a(np.zeros((0, 2)), "int32")})
    yield Case({"params": g.array(f32, (0, 2)), "indices": _a(np.zeros((0,)), "int64")})
    yield Case({"params": g.array(f32, (0,)), "indices": _a([], "int32")})
    yield Case({"params": g.array(f32, (0,)), "indices": _a([0], "int32")}, note="empty params")
    # out-of-range indices, both directions, each index dtype
    for it in ["int16", "int32", "int64"]:
        yield Case({"params": g.array(f32, (3, 2)), "indices": _a([0, 3], it)})
        yield Case({"params": g.array(f32, (3, 2)), "indices": _a([[0, 1], [-1, 2]], it)})
        yield Case({"params": g.array(f32, (2, 3)), "indices": _a([2, 1], it)}, {"axis": 1})
    yield Case({"params": g.array(f32, (3,)), "indices": _a([2**31 - 1], "int32")})
    yield Case({"params": g.array(f32, (3,)), "indices": _a([-2**31], "int32")})
    yield Case({"params": g.array(f32, (3,)), "indices": _a([2**40], "int64")})
    yield Case({"params": g.array(f32, (3,)), "indices": _a([-2**63], "int64")})
    # an axis longer than int16 indices reach (an empty params keeps it small)
    yield Case({"params": g.array(f32, (0, 40000)), "indices": _a([0], "int16")}, {"axis": 1},
               note="dim above int16 max")
    yield Case({"params": g.array(f32, (0, 40000)), "indices": _a([0], "int32")}, {"axis": 1})
    # indices of a dtype TF does not take
    for it in ["uint8", "int8", "uint16", "uint32", "uint64", "float32", "bool"]:
        yield Case({"params": g.array(f32, (3,)), "indices": _a([1, 0], it)}, note="bad index type")
    # scalar indices, 0-D output rank
    yield Case({"params": g.array(f32, (3,)), "indices": _a(2, "int32")})
    yield Case({"params": g.array(f32, (3, 2)), "indices": _a(1, "int64")}, {"axis": 1})
    # axis: negative, out of range both ways; absent (= batch_dims)
    for axis in [-2, -3, 2, 3]:
        yield Case({"params": g.array(f32, (2, 3)), "indices": _a([1], "int32")}, {"axis": axis})
    yield Case({"params": g.array(f32, (2, 3)), "indices": _a([[1, 0], [2, 2]], "int32")},
               {"batch_dims": 1})
    # batch_dims: 1, negative, equal to rank(indices), out of range, above axis, unequal batch dims
    p = g.array(f32, (2, 3, 2))
    yield Case({"params": p, "indices": _a([[0, 2], [1, 1]], "int32")},
               {"axis": 1, "batch_dims": 1})
    yield Case({"params": p, "indices": _a([[0, 2], [1, 1]], "int64")},
               {"axis": 1, "batch_dims": -1})
    yield Case({"params": p, "indices": _a([[0, 1], [1, 0]], "int32")},
               {"axis": 2, "batch_dims": 2})
    yield Case({"params": p, "indices": _a([[0, 1], [1, 0]], "int32")},
               {"axis": 2, "batch_dims": -2})
    yield Case({"params": p, "indices": _a([1, 0], "int32")}, {"axis": 1, "batch_dims": 1},
               note="batch_dims = rank(indices)")
    yield Case({"params": p, "indices": _a([1, 0], "int32")}, {"axis": 1, "batch_dims": -1})
    yield Case({"params": p, "indices": _a([1, 0], "int32")}, {"axis": 1, "batch_dims": 2},
               note="batch_dims > rank(indices)")
    yield Case({"params": p, "indices": _a([1, 0], "int32")}, {"axis": 1, "batch_dims": -2},
               note="batch_dims < -rank(indices)")
    yield Case({"params": p, "indices": _a([[0, 1], [1, 0]], "int32")},
               {"axis": 0, "batch_dims": 1},
               note="axis < batch_dims")
    yield Case({"params": p, "indices": _a([[0, 1], [1, 0]], "int32")},
               {"axis": -3, "batch_dims": 1})
    yield Case({"params": p, "indices": _a([[[0]], [[1]]], "int32")}, {"axis": 2, "batch_dims": 3},
               note="batch_dims = rank(params)")
    yield Case({"params": p, "indices": _a([[0, 1], [1, 0], [0, 0]], "int32")},
               {"axis": 1, "batch_dims": 1}, note="unequal batch dims")
    yield Case({"params": p, "indices": _a([[0, 1], [3, 0]], "int32")},
               {"axis": 1, "batch_dims": 1})
    yield Case({"params": p, "indices": _a([[0, 1], [1, 0]], "int32")},
               {"axis": -1, "batch_dims": 1})
    yield Case({"params": g.array(f32, (2, 0, 3)), "indices": _a(np.zeros((2, 0)), "int32")},
               {"axis": 1, "batch_dims": 1})
    yield Case({"params": g.array(f32, (0, 3)), "indices": _a(np.zeros((0, 2)), "int32")},
               {"axis": 1, "batch_dims": 1})
    yield Case({"params": g.array("string", (2, 3, 1)), "indices": _a([[2], [0]], "int64")},
               {"axis": 1, "batch_dims": 1})
    while True:
        shape = g.shape(g.choice([1, 1, 2, 3, 4]))
        rank = len(shape)
        axis = int(g.rng.integers(-rank - 1, rank + 1))
        dim = shape[axis] if -rank <= axis < rank else 1
        idx_shape = g.shape(g.choice([0, 1, 2]))
        bd = int(g.rng.integers(0, 2)) if rank > 1 and len(idx_shape) > 0 else 0
        if bd and g.rng.random() < 0.8:
            idx_shape = (shape[0],) + idx_shape[1:]
            axis = max(axis, 1) if axis >= 0 else axis
        lo, hi = (-1, dim) if g.rng.random() < 0.1 else (0, max(dim - 1, 0))
        indices = g.ints(lo, hi, idx_shape, g.choice(["int32", "int64"]))
        yield Case({"params": g.array(g.choice(ALL), shape), "indices": indices},
                   {"axis": axis, "batch_dims": bd})


# ---- gather_nd ------------------------------------------------------------------------------------
@difference("gather_nd", "gather_nd: TF's CPU kernel refuses an index depth indices.shape[-1] "
            "above 7 (invalid_argument, 'Only indices.shape[-1] values between 1 and 7 are "
            "currently supported'); tensorx gathers any depth up to rank(params): the limit is the count of "
            "TF's template instantiations, not a rule of the op")
def _gather_nd_depth(case, want, got):
    ind = case.inputs["indices"]
    return ind.ndim >= 1 and ind.shape[-1] > 7 and want[0] == "error" and \
        "between 1 and 7" in want[2] and got[0] == "ok"


@op("gather_nd", tf=lambda params, indices: R.GatherNd(params=params, indices=indices),
    tf_name="GatherNd", moves_bits=True)
def gather_nd(g):
    for dt in ALL:
        yield Case({"params": g.array(dt, (3, 2)), "indices": g.ints(0, 1, (4, 2))})
    f32 = "float32"
    # ranks 1-6 of params, K from 0 to the rank
    for rank in range(1, 7):
        shape = tuple(2 + (i % 2) for i in range(rank))
        for k in sorted({0, 1, rank // 2, rank}):
            ind = np.stack([g.ints(0, shape[j] - 1, (3,)) for j in range(k)], -1) if k else \
                np.zeros((3, 0), np.int32)
            yield Case({"params": g.array(f32, shape), "indices": ind.astype("int32")},
                       note=f"rank {rank} K {k}")
    # rank-1 indices (one vector), deeper batch shapes, scalar params / indices
    yield Case({"params": g.array(f32, (2, 3)), "indices": _a([1, 2], "int64")})
    yield Case({"params": g.array(f32, (2, 3)), "indices": _a([1], "int32")})
    yield Case({"params": g.array(f32, (2, 3)), "indices": _a([[[1], [0]], [[0], [0]]], "int32")})
    yield Case({"params": g.array(f32, ()), "indices": _a([0], "int32")}, note="scalar params")
    yield Case({"params": g.array(f32, ()), "indices": _a(np.zeros((1, 0)), "int32")})
    yield Case({"params": g.array(f32, (3,)), "indices": _a(1, "int32")}, note="scalar indices")
    yield Case({"params": g.array(f32, (2, 3)), "indices": _a([[0, 1, 0]], "int32")},
               note="K > rank")
    # out of range, both directions, each index dtype, each component
    for it in ["int16", "int32", "int64"]:
        yield Case({"params": g.array(f32, (2, 3)), "indices": _a([[0, 0], [2, 0]], it)})
        yield Case({"params": g.array(f32, (2, 3)), "indices": _a([[0, 3], [1, 2]], it)})
        yield Case({"params": g.array(f32, (2, 3)), "indices": _a([[[0], [-1]]], it)})
    yield Case({"params": g.array(f32, (3,)), "indices": _a([[2**31 - 1]], "int32")})
    yield Case({"params": g.array(f32, (3,)), "indices": _a([[-2**63]], "int64")})
    for it in ["uint8", "int8", "uint32", "float32"]:
        yield Case({"params": g.array(f32, (3,)), "indices": _a([[1]], it)}, note="bad index type")
    # empty params / indices
    yield Case({"params": g.array(f32, (0, 3)), "indices": _a(np.zeros((0, 1)), "int32")})
    yield Case({"params": g.array(f32, (0, 3)), "indices": _a([[0]], "int32")}, note="empty params")
    yield Case({"params": g.array(f32, (0, 3)), "indices": _a(np.zeros((2, 0)), "int32")})
    yield Case({"params": g.array(f32, (2, 0)), "indices": _a([[1]], "int32")})
    yield Case({"params": g.array(f32, (2, 0)), "indices": _a([[1, 0]], "int32")})
    yield Case({"params": g.array(f32, (3, 2)), "indices": _a(np.zeros((0, 2)), "int64")})
    yield Case({"params": g.array(f32, (3, 2)), "indices": _a(np.zeros((2, 0, 1)), "int64")})
    yield Case({"params": g.array(f32, (3, 0, 2)), "indices": _a([[2]], "int32")})
    # a slice or params larger than int16 indexing reaches (empty params keep it small)
    yield Case({"params": g.array(f32, (0, 40000)), "indices": _a([[0]], "int16")},
               note="slice above int16 max")
    yield Case({"params": g.array(f32, (0, 40000)), "indices": _a(np.zeros((0, 1)), "int16")})
    yield Case({"params": g.array(f32, (0, 40000)), "indices": _a([[0]], "int32")})
    # K of 7 (TF's largest) and 8
    yield Case({"params": g.array(f32, (1,) * 7 + (2,)), "indices": _a([[0] * 7], "int32")})
    yield Case({"params": g.array(f32, (1,) * 7 + (2,)), "indices": _a([[0] * 7 + [1]], "int32")},
               note="K = 8")
    yield Case({"params": g.array("string", (2, 2)), "indices": _a([[[1]], [[0]]], "int32")})
    while True:
        shape = g.shape(g.choice([1, 2, 3, 4]), zero=0.05)
        rank = len(shape)
        k = int(g.rng.integers(0, rank + 1))
        bshape = g.shape(g.choice([0, 1, 2]), zero=0.05)
        cols = [g.ints(-1 if g.rng.random() < 0.05 else 0, max(shape[j] - 1, 0), bshape,
                       "int64") for j in range(k)]
        ind = np.stack(cols, -1) if k else np.zeros(bshape + (0,), np.int64)
        yield Case({"params": g.array(g.choice(ALL), shape),
                    "indices": ind.astype(g.choice(["int32", "int64"]))})


# ---- unique_with_counts ---------------------------------------------------------------------------
UNIQUE_DTYPES = ["bool"] + INTS + FLOATS + ["string"]  # TF's UniqueWithCounts kernels


@op("unique_with_counts", tf=lambda x, out_idx="int32":
    R.UniqueWithCounts(x=x, out_idx=TF_DTYPES[out_idx]), tf_name="UniqueWithCounts")
def unique_with_counts(g):
    for dt in ALL:
        yield Case({"x": g.array(dt, (7,), "small")})
    for dt in UNIQUE_DTYPES:  # repeats of every dtype TF takes, int64 indices
        x = g.array(dt, (3,), "small")
        yield Case({"x": x[[0, 1, 0, 2, 1, 0]]}, {"out_idx": "int64"})
    # -0.0 and 0.0, NaNs (several payloads), infinities
    for dt in FLOATS:
        yield Case({"x": _a([0.0, -0.0, 1.0, -0.0, 0.0], dt)}, note="signed zeros")
        yield Case({"x": _a([-0.0, 0.0, -0.0], dt)}, {"out_idx": "int64"}, note="signed zeros")
    nans = {"float16": [0x7e00, 0xfe00, 0x7c01, 0x7e00, 0x3c00, 0x7c00, 0x7c00],
            "bfloat16": [0x7fc0, 0xffc0, 0x7f81, 0x7fc0, 0x3f80, 0x7f80, 0x7f80],
            "float32": [0x7fc00000, 0xffc00000, 0x7f800001, 0x7fc00000, 0x3f800000, 0x7f800000,
                        0x7f800000],
            "float64": [0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001,
                        0x7ff8000000000000, 0x3ff0000000000000, 0x7ff0000000000000,
                        0x7ff0000000000000]}
    for dt in FLOATS:
        yield Case({"x": _float_bits(nans[dt], dt)}, note="NaN keys")
    for dt in ["complex64", "complex128"]:
        yield Case({"x": _a([0j, complex(-0.0, 0.0), complex(np.nan, 0), 1j, 1j], dt)})
    # strings: empty, prefixes, embedded NULs, repeats
    yield Case({"x": _a(["", "a", "", "ab", "a\x00", "a", "ab", "b"], "string")})
    yield Case({"x": _a(["same"] * 5, "string")}, {"out_idx": "int64"})
    # bool, integer extremes
    yield Case({"x": _a([True, False, True, True], "bool")})
    yield Case({"x": _a([-2**63, 2**63 - 1, -2**63, 0], "int64")})
    yield Case({"x": _a([2**64 - 1, 0, 2**64 - 1], "uint64")})
    # empty, one element, wrong ranks, bad out_idx
    yield Case({"x": _a([], "float32")})
    yield Case({"x": _a([], "string")}, {"out_idx": "int64"})
    yield Case({"x": _a([5], "int32")})
    yield Case({"x": _a(3, "int32")}, note="scalar x")
    yield Case({"x": _a([[1, 2], [2, 1]], "int32")}, note="2-D x")
    yield Case({"x": _a(np.zeros((0, 2)), "int32")}, note="2-D empty x")
    for bad in ["int16", "uint32", "float32"]:
        yield Case({"x": _a([1, 2, 1], "int32")}, {"out_idx": bad}, note="bad out_idx")
    while True:
        dt = g.choice(UNIQUE_DTYPES if g.rng.random() < 0.9 else ALL)
        n = int(g.rng.integers(0, 40))
        kind = "bits" if g.rng.random() < 0.3 else "small"
        base = g.array(dt, (max(n // 3, 1),), kind)
        x = base[g.rng.integers(0, len(base), n)] if n else base[:0]
        yield Case({"x": x}, {"out_idx": g.choice(["int32", "int64"])})


# ---- dynamic_partition ----------------------------------------------------------------------------
@op("dynamic_partition", tf=lambda data, partitions, num_partitions:
    R.DynamicPartition(data=data, partitions=partitions, num_partitions=num_partitions),
    tf_name="DynamicPartition", moves_bits=True)
def dynamic_partition(g):
    for dt in ALL:
        yield Case({"data": g.array(dt, (5, 2)), "partitions": g.ints(0, 2, (5,))},
                   {"num_partitions": 3})
    f32 = "float32"
    # ranks 0-6 of data, partitions of every prefix rank
    for rank in range(0, 7):
        shape = tuple(2 + (i % 2) for i in range(rank))
        for prank in sorted({0, rank // 2, rank}):
            yield Case({"data": g.array(f32, shape), "partitions": g.ints(0, 2, shape[:prank])},
                       {"num_partitions": 3}, note=f"rank {rank} partitions rank {prank}")
    # zero-size dims in every position
    for zero in range(3):
        shape = tuple(0 if i == zero else 2 for i in range(3))
        yield Case({"data": g.array(f32, shape), "partitions": g.ints(0, 1, shape[:2])},
                   {"num_partitions": 2})
    # num_partitions 1, unused partitions, ids out of range both ways
    yield Case({"data": g.array(f32, (4,)), "partitions": _a([0, 0, 0, 0], "int32")},
               {"num_partitions": 1})
    yield Case({"data": g.array(f32, (4,)), "partitions": _a([3, 0, 3, 0], "int32")},
               {"num_partitions": 5})
    yield Case({"data": g.array(f32, (4,)), "partitions": _a([0, 2, 1, 0], "int32")},
               {"num_partitions": 2}, note="id = num_partitions")
    yield Case({"data": g.array(f32, (2, 2)), "partitions": _a([[0, 1], [-1, 0]], "int32")},
               {"num_partitions": 2}, note="negative id")
    yield Case({"data": g.array(f32, (2, 2)), "partitions": _a([[0, 1], [2**31 - 1, 0]], "int32")},
               {"num_partitions": 2})
    yield Case({"data": g.array(f32, ()), "partitions": _a(1, "int32")}, {"num_partitions": 2})
    yield Case({"data": g.array(f32, ()), "partitions": _a(2, "int32")}, {"num_partitions": 2})
    # shape rules, bad num_partitions, bad partitions dtype
    yield Case({"data": g.array(f32, (4, 2)), "partitions": _a([0, 1, 0], "int32")},
               {"num_partitions": 2}, note="not a prefix")
    yield Case({"data": g.array(f32, (4,)), "partitions": _a([[0, 1, 0, 1]], "int32")},
               {"num_partitions": 2}, note="partitions of higher rank")
    yield Case({"data": g.array(f32, (2, 3)), "partitions": _a([[0, 1], [1, 0]], "int32")},
               {"num_partitions": 2}, note="second dim differs")
    yield Case({"data": g.array(f32, (4,)), "partitions": _a([0, 0, 0, 0], "int32")},
               {"num_partitions": 0})
    yield Case({"data": g.array(f32, (4,)), "partitions": _a([0, 0, 0, 0], "int32")},
               {"num_partitions": -1})
    for pt in ["int64", "uint8", "int16"]:
        yield Case({"data": g.array(f32, (3,)), "partitions": _a([0, 1, 0], pt)},
                   {"num_partitions": 2}, note="bad partitions dtype")
    yield Case({"data": g.array("string", (4, 2)), "partitions": _a([1, 0, 1, 1], "int32")},
               {"num_partitions": 2})
    while True:
        shape = g.shape(g.choice([0, 1, 2, 3]))
        prank = int(g.rng.integers(0, len(shape) + 1))
        n = int(g.rng.integers(1, 5))
        lo = -1 if g.rng.random() < 0.03 else 0
        hi = n if g.rng.random() < 0.03 else n - 1
        yield Case({"data": g.array(g.choice(ALL), shape),
                    "partitions": g.ints(lo, hi, shape[:prank])}, {"num_partitions": n})


# ---- dynamic_stitch -------------------------------------------------------------------------------
@op("dynamic_stitch", tf=lambda indices, data: R.DynamicStitch(indices=indices, data=data),
    tf_name="DynamicStitch", moves_bits=True)
def dynamic_stitch(g):
    for dt in ALL:
        yield Case({"indices": [_a([0, 2], "int32"), _a([1, 3], "int32")],
                    "data": [g.array(dt, (2, 2)), g.array(dt, (2, 2))]})
    f32 = "float32"
    # duplicates: the later entry wins, within a tensor and across tensors
    yield Case({"indices": [_a([0, 1, 0], "int32"), _a([1, 2], "int32")],
                "data": [_a([1, 2, 3], f32), _a([4, 5], f32)]}, note="later wins")
    yield Case({"indices": [_a([2, 2, 2], "int32")], "data": [_a([1, 2, 3], "int64")]})
    # scalar indices, 2-D indices, extra dims, the TF docs' example
    yield Case({"indices": [_a(6, "int32"), _a([4, 1], "int32"), _a([[5, 2], [0, 3]], "int32")],
                "data": [g.array(f32, (2,)), g.array(f32, (2, 2)), g.array(f32, (2, 2, 2))]})
    yield Case({"indices": [_a(0, "int32")], "data": [g.array(f32, ())]})
    yield Case({"indices": [_a([[0, 1], [2, 3]], "int32")], "data": [g.array(f32, (2, 2, 1, 2))]})
    for rank in range(0, 5):  # data of rank 1..6 behind 1-D and 2-D indices
        extra = tuple(2 for _ in range(rank))
        yield Case({"indices": [_a([1, 0], "int32"), _a([[2]], "int32")],
                    "data": [g.array(f32, (2,) + extra), g.array(f32, (1, 1) + extra)]})
    # zero-size: empty indices, empty slices, all-empty
    yield Case({"indices": [_a([], "int32")], "data": [g.array(f32, (0, 3))]})
    yield Case({"indices": [_a([], "int32"), _a([1, 0], "int32")],
                "data": [g.array(f32, (0, 3)), g.array(f32, (2, 3))]})
    yield Case({"indices": [_a([1, 0], "int32")], "data": [g.array(f32, (2, 0))]})
    yield Case({"indices": [_a(np.zeros((2, 0)), "int32")], "data": [g.array(f32, (2, 0, 2))]})
    # negative and gap indices
    yield Case({"indices": [_a([0, -1], "int32")], "data": [_a([1, 2], f32)]}, note="negative")
    yield Case({"indices": [_a([-1, -2], "int32")], "data": [_a([1, 2], f32)]}, note="all negative")
    yield Case({"indices": [_a([1, -2], "int32")], "data": [g.array(f32, (2, 0))]},
               note="negative, empty slices")
    yield Case({"indices": [_a([], "int32"), _a([-1], "int32")],
                "data": [g.array(f32, (0, 2)), g.array(f32, (1, 2))]}, note="negative, no rows")
    yield Case({"indices": [_a([3, 0], "int32")], "data": [_a([1, 2], f32)]}, note="gap rows")
    yield Case({"indices": [_a([2**31 - 2], "int32")], "data": [g.array(f32, (1, 0))]},
               note="INT32_MAX rows of nothing")
    yield Case({"indices": [_a([2**31 - 1], "int32")], "data": [g.array(f32, (1, 0))]},
               note="INT32_MAX + 1 rows")
    yield Case({"indices": [_a([3, 0], "int32")], "data": [_a(["a", "b"], "string")]},
               note="gap rows")
    # shape and dtype rules
    yield Case({"indices": [_a([0, 1], "int32")], "data": [g.array(f32, (3,))]},
               note="data not indices.shape + C")
    yield Case({"indices": [_a([0, 1], "int32"), _a([2], "int32")],
                "data": [g.array(f32, (2, 2)), g.array(f32, (1, 3))]}, note="different C")
    yield Case({"indices": [_a([0, 1], "int32"), _a([2], "int32")],
                "data": [g.array(f32, (2,)), g.array("float64", (1,))]}, note="different dtypes")
    yield Case({"indices": [_a([0, 1], "int32"), _a([2], "int32")],
                "data": [g.array(f32, (2,))]}, note="fewer data")
    yield Case({"indices": [_a([0, 1], "int64")], "data": [g.array(f32, (2,))]},
               note="int64 indices")
    yield Case({"indices": [_a([0, 1], "int16")], "data": [g.array(f32, (2,))]},
               note="int16 indices")
    yield Case({"indices": [_a([0, 1], "int32"), _a([1], "int64")],
                "data": [g.array(f32, (2,)), g.array(f32, (1,))]})
    yield Case({"indices": [_a([1, 0], "int32")], "data": [g.array("string", (2, 2))]})
    while True:
        n = int(g.rng.integers(1, 4))
        dt = g.choice(ALL)
        extra = g.shape(g.choice([0, 0, 1, 2]), max_dim=3)
        top = int(g.rng.integers(0, 8))
        inds, data = [], []
        for _ in range(n):
            ishape = g.shape(g.choice([0, 1, 1, 2]), max_dim=4)
            inds.append(g.ints(-1 if g.rng.random() < 0.02 else 0, top, ishape))
            data.append(g.array(dt, ishape + extra))
        yield Case({"indices": inds, "data": data})


# ---- boolean_mask ---------------------------------------------------------------------------------
@op("boolean_mask", tf=lambda tensor, mask, axis=0: tf.boolean_mask(tensor, mask, axis=axis),
    tf_name="boolean_mask", moves_bits=True)
def boolean_mask(g):
    for dt in ALL:
        yield Case({"tensor": g.array(dt, (4, 2)), "mask": _a([True, False, True, True], "bool")})
    f32 = "float32"
    # tensors of rank 1-6, masks of rank 1..rank at axis 0 and the last possible axis
    for rank in range(1, 7):
        shape = tuple(2 + (i % 2) for i in range(rank))
        for k in sorted({1, rank}):
            for axis in sorted({0, rank - k}):
                yield Case({"tensor": g.array(f32, shape),
                            "mask": g.array("bool", shape[axis:axis + k])},
                           {"axis": axis}, note=f"rank {rank} K {k} axis {axis}")
    # negative axes (TF's Python slicing rule), axis out of range
    t = g.array(f32, (2, 3, 2))
    for axis, mshape in [(-1, (2,)), (-2, (3,)), (-3, (2,)), (-3, (2, 3)), (-2, (3, 2)), (-4, (2,)),
                         (3, (2,)), (2, (2, 2))]:
        yield Case({"tensor": t, "mask": g.array("bool", mshape)}, {"axis": axis},
                   note=f"axis {axis}")
    # all true, all false, zero-size dims in every position
    yield Case({"tensor": g.array(f32, (3, 2)), "mask": _a([True] * 3, "bool")})
    yield Case({"tensor": g.array(f32, (3, 2)), "mask": _a([False] * 3, "bool")})
    for zero in range(3):
        shape = tuple(0 if i == zero else 2 for i in range(3))
        yield Case({"tensor": g.array(f32, shape), "mask": g.array("bool", shape[1:3])},
                   {"axis": 1})
        yield Case({"tensor": g.array(f32, shape), "mask": g.array("bool", shape[:1])})
    # errors: scalar mask, mismatched shapes, non-bool masks, scalar tensor
    yield Case({"tensor": g.array(f32, (3,)), "mask": _a(True, "bool")}, note="scalar mask")
    yield Case({"tensor": g.array(f32, ()), "mask": _a([True], "bool")}, note="scalar tensor")
    yield Case({"tensor": g.array(f32, (3, 2)), "mask": _a([True, False], "bool")}, note="mismatch")
    yield Case({"tensor": g.array(f32, (3, 2)), "mask": g.array("bool", (3, 2, 1))},
               note="K > rank")
    # number masks (TF's Where: nonzero counts; -0.0 is zero, NaN is not), and refused ones
    for mt in ["int8", "uint8", "int32", "uint64", "bfloat16", "float64", "complex64"]:
        yield Case({"tensor": g.array(f32, (3,)), "mask": _a([1, 0, 2], mt)}, note="number mask")
    yield Case({"tensor": g.array(f32, (4,)), "mask": _float_bits([0x80000000, 0x7fc00000, 0,
                                                                   0x00000001], "float32")})
    yield Case({"tensor": g.array(f32, (3,)), "mask": _a([complex(-0.0, 0.0), complex(0, -0.0),
                                                          complex(0, 1e-30)], "complex128")})
    for mt in ["float16", "float8_e5m2", "int4", "qint8", "string", "float8_e4m3fnuz", "int2"]:
        yield Case({"tensor": g.array(f32, (3,)), "mask": g.array(mt, (3,), "small")},
                   note=f"{mt} mask")
    # a negative axis with K > 1: TF gathers along dim rank + axis - (K - 1) after its reshape
    t4 = g.array(f32, (2, 3, 2, 2))
    yield Case({"tensor": t4, "mask": _a([[1, 1], [0, 0], [0, 0]], "bool")}, {"axis": -3})
    yield Case({"tensor": t4, "mask": _a([[0, 1], [0, 0], [0, 0]], "bool")}, {"axis": -3})
    yield Case({"tensor": t4, "mask": _a([[0, 0], [1, 0], [0, 0]], "bool")}, {"axis": -3},
               note="true position past the gathered dim")
    yield Case({"tensor": t4, "mask": _a([[0, 0], [0, 0], [0, 0]], "bool")}, {"axis": -3})
    yield Case({"tensor": t4, "mask": _a([[1, 0, 1], [0, 0, 0]], "bool")}, {"axis": -4})
    yield Case({"tensor": g.array(f32, (3, 2, 2, 2)), "mask": g.array("bool", (2, 2, 2))},
               {"axis": -3}, note="gather axis below 0")
    yield Case({"tensor": g.array(f32, (4, 1, 2, 3, 2)), "mask": _a([[[1, 0], [0, 1], [0, 0]]] * 2,
                                                                   "bool")}, {"axis": -4})
    yield Case({"tensor": g.array(f32, (4, 0, 3, 2)), "mask": _a([[1, 1], [1, 0], [0, 0]], "bool")},
               {"axis": -2}, note="empty result, positions unchecked")
    yield Case({"tensor": g.array("string", (3, 2)), "mask": g.array("bool", (3, 2))})
    while True:
        shape = g.shape(g.choice([1, 2, 3, 4]))
        rank = len(shape)
        k = int(g.rng.integers(1, rank + 1))
        axis = int(g.rng.integers(0, rank - k + 1))
        if g.rng.random() < 0.2:
            axis -= rank
        mt = "bool" if g.rng.random() < 0.8 else g.choice(["int32", "uint8", "float32", "float64",
                                                            "bfloat16", "complex64"])
        mshape = shape[axis % rank if axis < 0 else axis:][:k]
        yield Case({"tensor": g.array(g.choice(ALL), shape),
                    "mask": g.array(mt, mshape, g.choice(["small", "bits"]))}, {"axis": axis})


# ---- one_hot --------------------------------------------------------------------------------------
def _value(v, t):
    """on_value / off_value as a scalar tf.Tensor of dtype `t` (the raw op takes tensors; tensorx
    parses the attribute's text in the dtype, so the Python number is given in its kind)."""
    if t == tf.string:
        return tf.constant(v, t)
    if t.is_quantized:
        return tf.bitcast(tf.constant(int(v), {tf.qint8: tf.int8, tf.quint8: tf.uint8,
                                               tf.qint16: tf.int16, tf.quint16: tf.uint16,
                                               tf.qint32: tf.int32}[t]), t)
    if t.is_bool:
        v = _parse(v) if isinstance(v, str) else bool(v)
    elif t.is_floating or t.is_complex:
        # through NumPy: TF's eager cache of Python scalars keys -0.0 and 0.0 as one value
        return tf.constant(np.array(complex(v) if t.is_complex else float(v),
                                    np_dtype(TF_NAMES[t])), t)
    return tf.constant(_parse(v), t)


def _out_of_range(v, dtype):
    if dtype is None or not isinstance(v, int) or isinstance(v, bool) or dtype not in INTS:
        return False
    info = np.iinfo(dtype)
    return not info.min <= v <= info.max


@difference("one_hot", "one_hot: an integer on_value/off_value outside the dtype's range (300 for "
            "uint8): TF's Python conversion wraps it modulo 2^bits (44); tensorx refuses it "
            "(invalid_argument): attribute values are parsed exactly in their dtype, never wrapped")
def _one_hot_value_range(case, want, got):
    dt = case.attrs.get("dtype")
    return want[0] == "ok" and got[0] == "error" and got[1] == "invalid_argument" and \
        any(_out_of_range(case.attrs.get(k), dt) for k in ("on_value", "off_value"))


def _parse(v):
    """An attribute's value as the Python scalar tensorx reads from its text (the CLI's rule: true
    / false, an integer, a float, else a string)."""
    if not isinstance(v, str):
        return v
    if v in ("true", "True", "false", "False"):
        return v in ("true", "True")
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v


def _one_hot_tf(indices, depth, on_value=None, off_value=None, axis=-1, dtype=None):
    if dtype is None:  # tf.one_hot's inference of the dtype from on_value / off_value
        return tf.one_hot(indices, depth, on_value=_parse(on_value), off_value=_parse(off_value),
                          axis=axis)
    t = TF_DTYPES[dtype]
    on = _value(1 if on_value is None else on_value, t)
    off = _value(0 if off_value is None else off_value, t)
    return R.OneHot(indices=indices, depth=depth, on_value=on, off_value=off, axis=axis)


@op("one_hot", tf=_one_hot_tf, tf_name="OneHot")
def one_hot(g):
    values = {"bool": (True, False), "string": ("on", "off")}
    for dt in ALL:  # every output dtype
        on, off = values.get(dt, (3, -2) if not dt.startswith("u") and not dt.startswith("qu")
                             and dt != "bool" else (3, 2))
        yield Case({"indices": _a([0, 2, -1, 1], "int32")},
                   {"depth": 3, "on_value": on, "off_value": off, "dtype": dt})
    # every index dtype (TF takes uint8, int8, int32, int64), out of range both ways
    for it in ["uint8", "int8", "int32", "int64", "int16", "uint16", "uint32", "uint64"]:
        lo = 0 if it.startswith("u") else -3
        yield Case({"indices": _a([lo, 1, 3, 4], it)}, {"depth": 4, "dtype": "float32"},
                   note=f"indices {it}")
    yield Case({"indices": _a([2**31 - 1, -2**31, 0], "int32")}, {"depth": 3, "dtype": "int32"})
    yield Case({"indices": _a([2**40, -2**63, 2], "int64")}, {"depth": 3, "dtype": "int32"})
    yield Case({"indices": _a([255, 0], "uint8")}, {"depth": 300, "dtype": "uint8"})
    # wide rows whose off value is one repeated byte: filled, then the on values set
    for axis in (-1, 0, 1):
        yield Case({"indices": g.ints(-5, 1005, (7, 5))}, {"depth": 1000, "axis": axis,
                                                         "dtype": "float32"},
                   note=f"depth 1000 axis {axis}")
    yield Case({"indices": g.ints(-3, 70, (40,))},
               {"depth": 64, "on_value": 7, "off_value": -1, "dtype": "int32"}, note="off -1")
    # axis: -1, 0..rank, out of range; ranks 0-5 of indices
    for rank in range(0, 6):
        shape = tuple(2 + (i % 2) for i in range(rank))
        for axis in sorted({-1, 0, rank // 2, rank}):
            yield Case({"indices": g.ints(-1, 3, shape)}, {"depth": 3, "axis": axis,
                                                           "dtype": "int8"},
                       note=f"rank {rank} axis {axis}")
    for axis in [-2, 2, 3]:
        yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "axis": axis, "dtype": "int32"},
                   note=f"axis {axis}")
    # depth 0, negative, large; zero-size indices
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 0, "dtype": "float32"})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 0, "axis": 0, "dtype": "float32"})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": -1, "dtype": "float32"},
               note="depth < 0")
    yield Case({"indices": _a([], "int32")}, {"depth": -1, "dtype": "float32"}, note="depth < 0")
    yield Case({"indices": _a(np.zeros((2, 0)), "int64")}, {"depth": 3, "dtype": "float64"})
    yield Case({"indices": _a(np.zeros((0, 2)), "int64")},
               {"depth": 3, "axis": 1, "dtype": "int64"})
    yield Case({"indices": _a([5], "int32")}, {"depth": 70, "dtype": "bool"})
    yield Case({"indices": _a([], "int32")}, {"depth": 2**31, "dtype": "int8"}, note="depth 2^31")
    yield Case({"indices": _a([], "int32")}, {"depth": 2**31 - 1, "dtype": "int8"})
    # on / off values: defaults, NaN, -0.0, infinities, one of them absent; dtype inferred
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "dtype": "int64"})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "dtype": "bool"})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "on_value": 5})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "off_value": "2.5"})
    yield Case({"indices": _a([0, 1], "int32")},
               {"depth": 2, "on_value": "1.5", "off_value": "-0.5"})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "on_value": True, "off_value": False})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "on_value": 2**40, "off_value": 0},
               note="int64 on_value, int32 off_value")
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "on_value": "x", "off_value": "y"})
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "on_value": 1, "off_value": "0.5"},
               note="int and float")
    for dt in FLOATS:
        yield Case({"indices": _a([0, 1, 7], "int32")},
                   {"depth": 2, "on_value": "nan", "off_value": "-0.0", "dtype": dt})
        yield Case({"indices": _a([1], "int64")},
                   {"depth": 3, "on_value": "-inf", "off_value": "inf", "dtype": dt})
    yield Case({"indices": _a([0], "int32")}, {"depth": 2, "on_value": 300, "dtype": "uint8"},
               note="on_value out of the dtype's range")
    yield Case({"indices": _a([0], "int32")}, {"depth": 2, "on_value": "1.5", "dtype": "int32"},
               note="fractional on_value for an int dtype")
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "dtype": "string"},
               note="string without values")
    yield Case({"indices": _a([0, 1], "int32")}, {"depth": 2, "on_value": "a", "dtype": "string"})
    while True:
        shape = g.shape(g.choice([0, 1, 2, 3]))
        depth = int(g.rng.integers(0, 6))
        axis = int(g.rng.integers(-1, len(shape) + 1))
        dt = g.choice(["float32", "int32", "int64", "float64", "bool", "int8", "uint8", "float16"])
        on, off = (True, False) if dt == "bool" else (int(g.rng.integers(0, 9)),
                                                      int(g.rng.integers(0, 9)))
        it = g.choice(["uint8", "int8", "int32", "int64"])
        yield Case({"indices": g.ints(0 if it == "uint8" else -1, depth, shape, it)},
                   {"depth": depth, "on_value": on, "off_value": off, "axis": axis, "dtype": dt})


# ---- sequence_mask --------------------------------------------------------------------------------
@difference("sequence_mask", "sequence_mask: float lengths or maxlen: TF's Python runs them "
            "through Range, Cast and Less and returns a mask; tensorx keeps the documented "
            "contract (integer lengths, an int32/int64 maxlen) and refuses them (unimplemented)")
def _sequence_mask_float(case, want, got):
    kinds = [dtype_of(v) for v in case.inputs.values()]
    return want[0] == "ok" and got[0] == "error" and any(k in FLOATS for k in kinds)


@difference("sequence_mask", "sequence_mask without maxlen: TF computes range(max(lengths)) in "
            "lengths' dtype, and its Range has CPU kernels for int32, int64 and floats only (uint8 "
            "is not in its list; int8, int16, uint16, uint32, uint64 have no kernel): TF fails "
            "(unimplemented); tensorx takes lengths of every integer dtype")
def _sequence_mask_range_dtype(case, want, got):
    return "maxlen" not in case.inputs and want[0] == "error" and "Tidx" in want[2] and \
        got[0] == "ok"


def _sequence_mask_tf(lengths, maxlen=None, dtype="bool"):
    return tf.sequence_mask(lengths, maxlen, dtype=TF_DTYPES[dtype])


@op("sequence_mask", tf=_sequence_mask_tf, tf_name="sequence_mask")
def sequence_mask(g):
    for dt in ALL:  # every output dtype
        yield Case({"lengths": _a([0, 2, 3], "int32")}, {"dtype": dt})
    for it in INTS + ["int4", "uint4", "bool", "float32", "float16", "string", "int2", "uint2"]:
        vals = [1, 0, 3] if it != "string" else ["1", "0", "3"]
        sub_byte = it in ("int4", "uint4", "int2", "uint2")
        yield Case({"lengths": _a(vals, it) if not sub_byte else g.array(it, (3,))},
                   note=f"lengths {it}")
    # maxlen: absent, given (int32 / int64), 0, smaller and larger than max(lengths), negative
    lengths = _a([[1, 4], [0, 2]], "int32")
    for m, mt in [(0, "int32"), (2, "int32"), (6, "int64"), (-1, "int32"), (-3, "int64")]:
        yield Case({"lengths": lengths, "maxlen": _a(m, mt)}, note=f"maxlen {m}")
    yield Case({"lengths": lengths, "maxlen": _a([3], "int32")}, note="maxlen not scalar")
    for mt in ["int16", "uint8", "float32"]:
        yield Case({"lengths": lengths, "maxlen": _a(3, mt)}, note=f"maxlen {mt}")
    # negative lengths, every length below 0, lengths above maxlen, wrapping casts
    yield Case({"lengths": _a([-2, 3, 1], "int64")})
    yield Case({"lengths": _a([-2, -3], "int32")}, note="max(lengths) < 0")
    yield Case({"lengths": _a([2**32 + 2, 1], "int64"), "maxlen": _a(4, "int32")}, note="wraps")
    yield Case({"lengths": _a([2**63, 1], "uint64"), "maxlen": _a(3, "int64")})
    yield Case({"lengths": _a([2**32 - 1, 1], "uint32"), "maxlen": _a(3, "int32")})
    yield Case({"lengths": _a([5, 1], "int8"), "maxlen": _a(3, "int64")})
    for it in ["int4", "uint4", "int2", "uint2"]:
        yield Case({"lengths": g.array(it, (2, 2)), "maxlen": _a(4, "int32")},
                   note=f"{it} + maxlen")
    for dt in ["float8_e5m2", "int4", "qint32", "complex128", "float4_e2m1fn", "uint2"]:
        yield Case({"lengths": _a([1, 0], "int32"), "maxlen": _a(2, "int64")}, {"dtype": dt})
    # ranks 0-5 of lengths, zero-size dims
    for rank in range(0, 6):
        shape = tuple(2 + (i % 2) for i in range(rank))
        yield Case({"lengths": g.ints(0, 4, shape)}, {"dtype": "float32"}, note=f"rank {rank}")
    yield Case({"lengths": _a([], "int32")})
    yield Case({"lengths": _a(np.zeros((2, 0)), "int64"), "maxlen": _a(2, "int64")})
    yield Case({"lengths": _a([0, 0], "int32")})
    yield Case({"lengths": _a([1, 2], "int32"), "maxlen": _a(0, "int64")}, {"dtype": "int64"})
    while True:
        shape = g.shape(g.choice([0, 1, 2, 3]))
        given = g.rng.random() < 0.5
        lt = g.choice(["int32", "int64", "uint8", "int16", "int8"] if given else ["int32", "int64"])
        inputs = {"lengths": g.ints(-1 if not lt.startswith("u") else 0, 6, shape, lt)}
        if given:
            inputs["maxlen"] = np.array(g.ints(0, 6), dtype=g.choice(["int32", "int64"]))
        yield Case(inputs, {"dtype": g.choice(["bool", "float32", "int32", "uint8", "float64"])})
