# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for joining and reordering: meshgrid (tf.meshgrid, Python-level), concat
(ConcatV2; tf.concat for one value, which TF's Python returns as is), pack (Pack), reverse (Reverse
for the bool `dims` form, ReverseV2 for `axis`), reverse_sequence (ReverseSequence) and transpose
(Transpose, ConjugateTranspose for conjugate=True)."""
import numpy as np
import tensorflow as tf
import oracle
from oracle import ALL, COMPLEX, FLOATS, Case, difference, op

R = tf.raw_ops

# ---- dtypes TF's op definitions do not list --------------------------------------------------------
# The frame's no_kernel() sees TF's NotFoundError ("no kernel registered"); where the op's
# definition itself leaves a dtype out, TF raises InvalidArgumentError "Value for attr 'T' of int4
# is not in the list of allowed values" instead (and tf.meshgrid fails in its Cast or ones()
# first).  Those cases are the same row as the frame's _beyond_tf_kernels, checked the same way:
# through the carrier where the op moves bits.
_NO_OP_DTYPE = ("is not in the list of allowed values", "to EagerTensor of dtype string") + \
    tuple(f"to {d} is not supported" for d in oracle.FLOAT8 + oracle.LOWBIT)
BEYOND_TF = oracle.BEYOND_TF_ROW  # the frame's row: one rule, one row


def _case_dtypes(case):
    return {oracle.dtype_of(e) for v in case.inputs.values()
            for e in (v if isinstance(v, list) else [v])}


def beyond_tf_op_dtypes(name):
    """Registers, for op `name`, TF's refusal of a dtype its op definition does not list, when the
    case holds such a dtype and tensorx's outcome equals TF's on the carriers (if any)."""
    def test(case, want, got):
        if want[0] != "error" or not any(m in want[2] for m in _NO_OP_DTYPE):
            return False
        if not _case_dtypes(case) & (set(oracle.CARRIERS) | {"string"}):
            return False
        carried = oracle.carrier(oracle.OPS[name], case, got)
        return carried is None or oracle.agree(case, carried, got) is None
    difference(name, BEYOND_TF)(test)


def _ints(v, dtype=None):
    """A list of ints as a tf.Tensor of int32 (int64 when a value needs it, or `dtype`)."""
    a = np.asarray(v, dtype=np.int64).reshape(-1)
    if dtype is None:
        dtype = np.int32 if a.size == 0 or (a.min() >= -2**31 and a.max() < 2**31) else np.int64
    return tf.constant(a.astype(dtype))


# ---- meshgrid -------------------------------------------------------------------------------------
@op("meshgrid", tf=lambda args, indexing="xy": tf.meshgrid(*args, indexing=indexing),
    tf_name="tf.meshgrid", moves_bits=True)
def meshgrid(g):
    for dt in ALL:
        yield Case({"args": [g.array(dt, (3,)), g.array(dt, (2,))]}, {"indexing": "xy"})
    f = "float32"
    for ix in ("xy", "ij"):
        yield Case({"args": [g.array(f, (3,)), g.array(f, (2,)), g.array(f, (4,))]},
                   {"indexing": ix})
        yield Case({"args": [g.array(f, (2,))]}, {"indexing": ix}, note="one arg")
        yield Case({"args": []}, {"indexing": ix}, note="no args")
        yield Case({"args": [g.array(f, ()), g.array(f, (2,))]}, {"indexing": ix}, note="0-d arg")
        yield Case({"args": [g.array(f, (0,)), g.array(f, (2,))]}, {"indexing": ix}, note="empty")
        yield Case({"args": [g.array(f, (2,)), g.array(f, (0,))]}, {"indexing": ix}, note="empty")
        yield Case({"args": [g.array(f, (2, 2)), g.array(f, (1, 3))]}, {"indexing": ix},
                   note="args of rank 2 are flattened")
        yield Case({"args": [g.array(f, (1,)) for _ in range(6)]}, {"indexing": ix}, note="rank 6")
    for dt in COMPLEX:  # TF multiplies by ones: -0 real parts, infinities and NaNs
        for ix in ("xy", "ij"):
            yield Case({"args": [g.array(dt, (5,)), g.array(dt, (3,))]}, {"indexing": ix},
                       nan="any")
    yield Case({"args": [g.array("int32", (2,)), g.array("int64", (2,))]}, {"indexing": "xy"},
               note="dtypes differ")
    yield Case({"args": [g.array(f, (2,))]}, {"indexing": "yx"}, note="bad indexing")
    while True:
        n = int(g.rng.integers(0, 5))
        dt = g.choice(ALL)
        yield Case({"args": [g.array(dt, g.shape(g.choice([0, 1, 1, 1, 2]), max_dim=3))
                             for _ in range(n)]}, {"indexing": g.choice(["xy", "ij"])},
                   nan="any" if dt in COMPLEX else "bits")


_FLOAT_BITS = {"float16": (np.uint16, 10, 5), "bfloat16": (np.uint16, 7, 8),
               "float32": (np.uint32, 23, 8), "float64": (np.uint64, 52, 11)}


def _parts(out):
    """An output's float components as (name, unsigned ints): complex as its two float parts."""
    name = {"complex64": "float32", "complex128": "float64"}.get(out.dtype, out.dtype)
    if name not in _FLOAT_BITS:
        return None
    return name, np.frombuffer(out.data, _FLOAT_BITS[name][0])


def _only_ftz_or_nan(want, got):
    """Whether every element where TF's output differs from tensorx's is, in tensorx's output, a
    subnormal that TF made a zero of the same sign, or a NaN that TF left a NaN."""
    if want[0] != "ok" or got[0] != "ok" or len(want[1]) != len(got[1]):
        return False
    for w, g in zip(want[1], got[1]):
        pw, pg = _parts(w), _parts(g)
        if pw is None or w.shape != g.shape:
            if w != g:
                return False
            continue
        ut, mant, exp = _FLOAT_BITS[pw[0]]
        x, y = pw[1], pg[1]
        emask, sign = ut(((1 << exp) - 1) << mant), ut(1 << (mant + exp))
        mmask = ut((1 << mant) - 1)
        d = x != y
        cplx = w.dtype in COMPLEX  # (re, im) * (1, 0): a flushed part's zero takes either sign
        sub = ((y & emask) == 0) & ((y & mmask) != 0) & ((x & ~sign) == 0) & \
            (((x & sign) == (y & sign)) | cplx)
        nan = ((y & emask) == emask) & ((y & mmask) != 0) & ((x & emask) == emask) & \
            ((x & mmask) != 0)
        if not np.all(~d | sub | nan):
            return False
    return True


@difference("meshgrid", "meshgrid of floating values (real or complex): tf.meshgrid computes each "
            "output as x * ones, so on TF's CPU threads (which flush subnormals) a subnormal "
            "becomes a zero of its sign and a signalling NaN is quieted (a bfloat16 NaN loses its "
            "payload); tensorx copies the values bit for bit (meshgrid only moves data; subnormal "
            "flushing is a per-thread CPU mode)")
def _meshgrid_ftz(case, want, got):
    return _only_ftz_or_nan(want, got)


beyond_tf_op_dtypes("meshgrid")


# ---- concat ---------------------------------------------------------------------------------------
def _concat(values, concat_dim):
    if len(values) == 1:  # TF's Python returns the one value (ConcatV2 needs N >= 2)
        return tf.concat(values, concat_dim)
    return R.ConcatV2(values=values, axis=concat_dim)


@op("concat", tf=_concat, tf_name="ConcatV2", moves_bits=True)
def concat(g):
    for dt in ALL:
        yield Case({"values": [g.array(dt, (2, 3)), g.array(dt, (1, 3))]}, {"concat_dim": 0})
    f = "int32"
    for rank in range(1, 7):
        shape = (2,) * rank
        for d in (0, rank - 1, -1, -rank):
            yield Case({"values": [g.array(f, shape), g.array(f, shape), g.array(f, shape)]},
                       {"concat_dim": d}, note=f"rank {rank}")
    for pos in range(3):  # zero-size dims in every position
        shape = [2, 3, 2]
        shape[pos] = 0
        yield Case({"values": [g.array(f, shape), g.array(f, shape)]}, {"concat_dim": 1})
        yield Case({"values": [g.array(f, shape), g.array(f, shape)]}, {"concat_dim": pos})
    yield Case({"values": [g.array(f, (2, 0)), g.array(f, (2, 3))]}, {"concat_dim": 1})
    yield Case({"values": [g.array(f, (0, 3)), g.array(f, (2, 3))]}, {"concat_dim": 0})
    yield Case({"values": [g.array(f, (0, 3)), g.array(f, (0, 4))]}, {"concat_dim": 0},
               note="empty inputs differ in another dim")
    for d in (2, -3, 5, 2**31, -2**31 - 1):
        yield Case({"values": [g.array(f, (2, 3)), g.array(f, (2, 3))]}, {"concat_dim": d},
                   note="concat_dim out of range")
    for d in (0, 7, -9):
        yield Case({"values": [g.array(f, (2, 3))]}, {"concat_dim": d}, note="one value")
        yield Case({"values": [g.array(f, ())]}, {"concat_dim": d}, note="one scalar")
    yield Case({"values": [g.array(f, ()), g.array(f, ())]}, {"concat_dim": 0}, note="scalars")
    yield Case({"values": [g.array(f, ()), g.array(f, ())]}, {"concat_dim": -1}, note="scalars")
    yield Case({"values": []}, {"concat_dim": 0}, note="no values")
    yield Case({"values": [g.array(f, (2, 3)), g.array("int64", (2, 3))]}, {"concat_dim": 0})
    yield Case({"values": [g.array(f, (2, 3)), g.array(f, (2, 3, 1))]}, {"concat_dim": 0})
    yield Case({"values": [g.array(f, (2, 3)), g.array(f, (3,))]}, {"concat_dim": 0})
    yield Case({"values": [g.array(f, (2, 3)), g.array(f, (2, 4))]}, {"concat_dim": 0})
    yield Case({"values": [g.array(f, (2, 3)), g.array(f, (2, 4)), g.array(f, (2, 3))]},
               {"concat_dim": -2})
    yield Case({"values": [g.array(f, (2, 3)), g.array(f, ())]}, {"concat_dim": 0})
    yield Case({"values": [g.array(f, ()), g.array(f, (2, 3))]}, {"concat_dim": 0})
    yield Case({"values": [g.array("string", (2, 1)), g.array("string", (2, 2))]},
               {"concat_dim": 1})
    while True:
        rank = int(g.rng.integers(1, 5))
        shape = list(g.shape(rank, max_dim=3))
        d = int(g.rng.integers(-rank - 1, rank + 1))
        dt = g.choice(ALL)
        vals = []
        for _ in range(int(g.rng.integers(1, 5))):
            s = list(shape)
            if -rank <= d < rank:
                s[d] = int(g.rng.integers(0, 4))
            vals.append(g.array(dt, s))
        yield Case({"values": vals}, {"concat_dim": d})


# ---- pack -----------------------------------------------------------------------------------------
@op("pack", tf=lambda values, axis=0: R.Pack(values=values, axis=axis), tf_name="Pack",
    moves_bits=True)
def pack(g):
    for dt in ALL:
        yield Case({"values": [g.array(dt, (2,)), g.array(dt, (2,))]}, {"axis": 0})
    f = "float32"
    for rank in range(0, 6):
        shape = (2,) * rank
        for a in sorted({0, rank, -1, -rank - 1}):
            yield Case({"values": [g.array(f, shape) for _ in range(3)]}, {"axis": a},
                       note=f"rank {rank}")
    for pos in range(3):
        shape = [2, 3, 2]
        shape[pos] = 0
        yield Case({"values": [g.array(f, shape), g.array(f, shape)]}, {"axis": 1})
    yield Case({"values": [g.array(f, (2, 3))]}, {"axis": 1}, note="one value")
    yield Case({"values": [g.array(f, ())]}, {"axis": 0}, note="one scalar")
    for a in (3, -4, 100, 2**31):
        yield Case({"values": [g.array(f, (2, 3)), g.array(f, (2, 3))]}, {"axis": a},
                   note="axis out of range")
    yield Case({"values": [g.array(f, (2, 3)), g.array(f, (2, 4))]}, {"axis": 3},
               note="axis checked before shapes")
    yield Case({"values": []}, {"axis": 0}, note="no values")
    yield Case({"values": [g.array(f, (2,)), g.array("float64", (2,))]}, {"axis": 0})
    yield Case({"values": [g.array(f, (2,)), g.array(f, (3,))]}, {"axis": 0})
    yield Case({"values": [g.array(f, (2,)), g.array(f, (2, 1))]}, {"axis": 0})
    yield Case({"values": [g.array(f, (0,)), g.array(f, (0, 0))]}, {"axis": 0})
    yield Case({"values": [g.array(f, (1,) * 6) for _ in range(2)]}, {"axis": 6}, note="rank 7")
    while True:
        shape = g.shape(int(g.rng.integers(0, 5)), max_dim=3)
        a = int(g.rng.integers(-len(shape) - 2, len(shape) + 2))
        dt = g.choice(ALL)
        yield Case({"values": [g.array(dt, shape) for _ in range(int(g.rng.integers(1, 4)))]},
                   {"axis": a})


# ---- reverse --------------------------------------------------------------------------------------
def _reverse(tensor, dims=None, axis=None):
    if dims is not None:
        return R.Reverse(tensor=tensor, dims=dims)
    return R.ReverseV2(tensor=tensor, axis=_ints(axis))


@op("reverse", tf=_reverse, tf_name="Reverse/ReverseV2", moves_bits=True)
def reverse(g):
    for i, dt in enumerate(ALL):  # both forms, alternating
        if i % 2:
            yield Case({"tensor": g.array(dt, (2, 3)), "dims": np.array([True, False])})
        else:
            yield Case({"tensor": g.array(dt, (2, 3))}, {"axis": [1]})
    f = "int32"
    for rank in range(0, 7):
        shape = tuple(2 + (i % 2) for i in range(rank))
        dims = np.array([(i % 2 == 0) for i in range(rank)], dtype=bool)
        yield Case({"tensor": g.array(f, shape), "dims": dims}, note=f"rank {rank}")
        yield Case({"tensor": g.array(f, shape)}, {"axis": list(range(0, rank, 2))},
                   note=f"rank {rank}")
        yield Case({"tensor": g.array(f, shape)}, {"axis": [-1 - i for i in range(rank)]})
    yield Case({"tensor": g.array(f, (1,) * 8 + (2,)), "dims": np.ones(9, bool)}, note="rank 9")
    yield Case({"tensor": g.array(f, (1,) * 8 + (2,))}, {"axis": [8]}, note="rank 9")
    yield Case({"tensor": g.array(f, (1,) * 7 + (2,))}, {"axis": [7]}, note="rank 8")
    yield Case({"tensor": g.array(f, (1,) * 7 + (2,)), "dims": np.ones(8, bool)}, note="rank 8")
    for pos in range(3):
        shape = [2, 3, 2]
        shape[pos] = 0
        yield Case({"tensor": g.array(f, shape), "dims": np.array([True, True, False])},
                   note="zero dim (first: Reverse refuses)")
        yield Case({"tensor": g.array(f, shape)}, {"axis": [0, 1]})
    yield Case({"tensor": g.array(f, (0,))}, {"axis": [0, 0]}, note="empty: axis not read")
    yield Case({"tensor": g.array(f, (0, 2))}, {"axis": [5]}, note="empty: axis not read")
    yield Case({"tensor": g.array(f, (0, 2)), "dims": np.array([True])})
    yield Case({"tensor": g.array(f, ())}, {"axis": [0]}, note="scalar: axis not read")
    yield Case({"tensor": g.array(f, ()), "dims": np.array([True, False])}, note="scalar")
    yield Case({"tensor": g.array(f, ()), "dims": np.array([1, 0], np.int32)}, note="scalar")
    yield Case({"tensor": g.array(f, (2, 3))}, {"axis": [1, 1]}, note="repeated axis")
    yield Case({"tensor": g.array(f, (2, 3))}, {"axis": [1, -1]}, note="repeated axis")
    yield Case({"tensor": g.array(f, (2, 3))}, {"axis": []})
    yield Case({"tensor": g.array(f, (2, 3))}, {"axis": [2]})
    yield Case({"tensor": g.array(f, (2, 3))}, {"axis": [-3]})
    yield Case({"tensor": g.array(f, (2, 3))}, {"axis": [0, 1, 0]})
    yield Case({"tensor": g.array(f, (2, 3))}, {"axis": [2**33]})
    yield Case({"tensor": g.array(f, (2, 3)), "dims": np.array([1, 0], np.int32)})
    yield Case({"tensor": g.array(f, (2, 3)), "dims": np.array([True])})
    yield Case({"tensor": g.array(f, (2, 3)), "dims": np.array([True, False, True])})
    yield Case({"tensor": g.array(f, (2, 3)), "dims": np.array([[True, False]])})
    yield Case({"tensor": g.array(f, (2, 3)), "dims": np.array(True)})
    yield Case({"tensor": g.array(f, (2, 3)), "dims": np.array([False, False])})
    yield Case({"tensor": g.array(f, (2, 3)), "dims": np.array([True, True])})
    yield Case({"tensor": g.array(f, (2, 3)), "dims": np.array([2, 0], np.uint8).view(bool)},
               note="a bool byte other than 1")
    while True:
        shape = g.shape(int(g.rng.integers(0, 6)), max_dim=3)
        rank = len(shape)
        dt = g.choice(ALL)
        if g.rng.random() < 0.5:
            yield Case({"tensor": g.array(dt, shape), "dims": g.array("bool", (rank,))})
        else:
            axis = [int(a) for a in g.rng.integers(-rank - 1, rank + 1, int(g.rng.integers(0, 3)))]
            yield Case({"tensor": g.array(dt, shape)}, {"axis": axis})


# ---- reverse_sequence -----------------------------------------------------------------------------
@op("reverse_sequence", tf=lambda input, seq_lengths, seq_dim, batch_dim=0:
    R.ReverseSequence(input=input, seq_lengths=seq_lengths, seq_dim=seq_dim, batch_dim=batch_dim),
    tf_name="ReverseSequence", moves_bits=True)
def reverse_sequence(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (3, 4)), "seq_lengths": g.ints(0, 4, (3,))},
                   {"seq_dim": 1, "batch_dim": 0})
    f = "int32"
    for rank in range(1, 7):
        shape = tuple([3, 4] + [2] * (rank - 2))[:rank]
        lens = g.ints(0, 4, (3,), "int64")
        yield Case({"input": g.array(f, shape), "seq_lengths": lens},
                   {"seq_dim": 1, "batch_dim": 0}, note=f"rank {rank}")
        if rank >= 3:
            yield Case({"input": g.array(f, shape), "seq_lengths": g.ints(0, 2, (2,))},
                       {"seq_dim": rank - 1, "batch_dim": rank - 2}, note=f"rank {rank}")
    yield Case({"input": g.array(f, (3, 4, 2)), "seq_lengths": g.ints(0, 3, (4,))},
               {"seq_dim": 0, "batch_dim": 1}, note="seq_dim before batch_dim")
    yield Case({"input": g.array(f, (2, 3, 4)), "seq_lengths": g.ints(0, 2, (4,))},
               {"seq_dim": 0, "batch_dim": 2})
    yield Case({"input": g.array(f, (2, 3, 4)), "seq_lengths": g.ints(0, 4, (2,))},
               {"seq_dim": 2, "batch_dim": 0})
    yield Case({"input": g.array(f, ()), "seq_lengths": g.ints(0, 1, (1,))},
               {"seq_dim": 1, "batch_dim": 0}, note="rank 0")
    for lens in ([0, 4, 2], [-1, 0, 0], [5, 0, 0], [4, 4, 4], [0, 0, 0], [2**31 - 1, 0, 0]):
        for ldt in ("int32", "int64"):
            yield Case({"input": g.array(f, (3, 4)), "seq_lengths": np.array(lens, ldt)},
                       {"seq_dim": 1})
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": np.array([2**32 + 1, 0, 0])},
               {"seq_dim": 1}, note="int64 length above int32")
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": g.ints(0, 3, (3,))},
               {"seq_dim": 0, "batch_dim": 0}, note="seq_dim == batch_dim")
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": g.ints(0, 3, (3,))},
               {"seq_dim": -1, "batch_dim": 0}, note="negative seq_dim")
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": g.ints(0, 3, (4,))},
               {"seq_dim": 0, "batch_dim": -1}, note="negative batch_dim")
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": g.ints(0, 3, (3,))},
               {"seq_dim": 2, "batch_dim": 0})
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": g.ints(0, 3, (3,))},
               {"seq_dim": 1, "batch_dim": 2})
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": g.ints(0, 3, (2,))},
               {"seq_dim": 1}, note="length mismatch")
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": g.ints(0, 3, (3, 1))},
               {"seq_dim": 1}, note="lengths 2-D")
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": np.array(2, np.int32)},
               {"seq_dim": 1}, note="lengths 0-D")
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": np.array([1, 2, 3], np.float32)},
               {"seq_dim": 1}, note="lengths float")
    yield Case({"input": g.array(f, (3, 4)), "seq_lengths": np.array([1, 2, 3], np.int16)},
               {"seq_dim": 1}, note="lengths int16")
    for pos in range(3):
        shape = [3, 2, 4]
        shape[pos] = 0
        yield Case({"input": g.array(f, shape),
                    "seq_lengths": np.zeros(shape[0], np.int32)}, {"seq_dim": 2})
    yield Case({"input": g.array(f, (3, 0)), "seq_lengths": np.array([0, 1, 0], np.int32)},
               {"seq_dim": 1}, note="length above an empty seq dim")
    yield Case({"input": g.array(f, (1,) * 7), "seq_lengths": np.ones(1, np.int32)},
               {"seq_dim": 1}, note="rank 7")
    while True:
        rank = int(g.rng.integers(2, 6))
        shape = g.shape(rank, max_dim=4, zero=0.05)
        sd, bd = (int(v) for v in g.rng.choice(rank, 2, replace=False))
        lens = g.ints(-1 if g.rng.random() < 0.05 else 0, shape[sd] + (g.rng.random() < 0.05),
                      (shape[bd],), g.choice(["int32", "int64"]))
        yield Case({"input": g.array(g.choice(ALL), shape), "seq_lengths": lens},
                   {"seq_dim": sd, "batch_dim": bd})


# ---- transpose ------------------------------------------------------------------------------------
class TFAborts(Exception):
    """TF 2.21 would abort the process on this case (a CHECK failure), so it is not run."""


def _transpose(a, perm=None, conjugate=False):
    if conjugate and a.shape.rank == 0 and a.dtype in (tf.float32, tf.bfloat16):
        # oneDNN's ConjugateTranspose (float32, bfloat16) of a scalar: "Check failed:
        # dims_tf_order.size() > 0" in mkl_util.h, an abort of the whole process
        raise TFAborts("MklConjugateTransposeCpuOp aborts on a rank-0 input")
    if conjugate and a.shape.rank <= 1 and a.dtype == tf.string and tf.size(a) > 0:
        # ConjugateTranspose of strings of rank 0 or 1 copies with memcpy: "Check failed:
        # DataTypeCanUseMemcpy(dtype())" in tensor.cc, an abort
        raise TFAborts("ConjugateTransposeCpuOp aborts on strings of rank < 2")
    if perm is None:  # tf.transpose's default: the reversed order
        perm = _ints(list(range(a.shape.rank))[::-1])
    return (R.ConjugateTranspose if conjugate else R.Transpose)(x=a, perm=perm)


@op("transpose", tf=_transpose, tf_name="Transpose/ConjugateTranspose", moves_bits=True)
def transpose(g):
    for dt in ALL:
        yield Case({"a": g.array(dt, (2, 3)), "perm": np.array([1, 0], np.int32)})
    for dt in COMPLEX + ["float32", "int32"]:
        yield Case({"a": g.array(dt, (2, 3)), "perm": np.array([1, 0], np.int32)},
                   {"conjugate": True})
        yield Case({"a": g.array(dt, (3,))}, {"conjugate": True})
    f = "int16"
    for rank in range(0, 7):
        shape = tuple(2 + (i % 3) for i in range(rank))
        perm = np.roll(np.arange(rank), 1).astype(np.int64)
        yield Case({"a": g.array(f, shape), "perm": perm}, note=f"rank {rank}")
        yield Case({"a": g.array(f, shape)}, note=f"rank {rank}, perm absent")
    yield Case({"a": g.array("complex64", (2, 1, 3, 2))}, {"conjugate": True})
    for pos in range(3):
        shape = [2, 3, 2]
        shape[pos] = 0
        yield Case({"a": g.array(f, shape), "perm": np.array([2, 0, 1], np.int32)})
    for perm in ([-2, 0, -1], [-3, -2, -1], [0, 1, 3], [0, -4, 1], [0, 2, 0], [0, 1], [0, 1, 2, 3],
                 [2**32 + 1, 0, 2], [2**32, 1, 2], [-2**32 + 2, 0, 1], [2**31, 0, 1]):
        yield Case({"a": g.array(f, (2, 3, 4)), "perm": np.array(perm, np.int64)}, note="perm")
    yield Case({"a": g.array(f, (2, 3)), "perm": np.array([[1, 0]], np.int32)}, note="perm 2-D")
    yield Case({"a": g.array(f, (2, 3)), "perm": np.array([1, 0], np.float32)}, note="perm float")
    yield Case({"a": g.array(f, (2, 3)), "perm": np.array([1, 0], np.int16)}, note="perm int16")
    yield Case({"a": g.array(f, ()), "perm": np.array([], np.int32)}, note="scalar")
    yield Case({"a": g.array(f, ()), "perm": np.array(0, np.int32)}, note="scalar, 0-d perm")
    yield Case({"a": g.array(f, (3,)), "perm": np.array(0, np.int32)}, note="0-d perm")
    yield Case({"a": g.array("string", (2, 3, 1))}, {"conjugate": True})
    for dt, shape in (("float32", ()), ("bfloat16", ()), ("string", ()), ("string", (3,)),
                      ("string", (0,))):
        yield Case({"a": g.array(dt, shape)}, {"conjugate": True}, note="TF aborts (not run)")
    sub = np.array([0x0011, 0x8011, 0x7f81, 0x3f80, 0xffc1, 0x0001], np.uint16)
    for perm in ([0, 1], [1, 0]):  # oneDNN's identity path converts bfloat16 values
        yield Case({"a": sub.view(oracle.np_dtype("bfloat16")).reshape(2, 3),
                    "perm": np.array(perm, np.int32)}, {"conjugate": True}, note="subnormals")
    while True:
        shape = g.shape(int(g.rng.integers(0, 7)), max_dim=4)
        perm = g.rng.permutation(len(shape)).astype(g.choice([np.int32, np.int64]))
        if len(shape) and g.rng.random() < 0.2:
            perm = perm - len(shape) * (g.rng.random(len(shape)) < 0.5)
        dt = g.choice(ALL)
        kw = {"conjugate": bool(g.rng.random() < 0.3)}
        inputs = {"a": g.array(dt, shape)}
        if g.rng.random() < 0.9:
            inputs["perm"] = perm
        yield Case(inputs, kw)


@difference("transpose", "transpose with conjugate=True of a float32 or bfloat16 scalar, or of a "
            "non-empty string tensor of rank 0 or 1: TF 2.21's ConjugateTranspose aborts the "
            "process (CHECK failures in mkl_util.h, tensor.cc); tensorx returns the input's "
            "values, as TF does for the other dtypes and for Transpose")
def _transpose_scalar_aborts(case, want, got):
    a = case.inputs["a"]
    return want[0] == "error" and want[3] == "TFAborts" and got[0] == "ok" and \
        got[1][0] == oracle.Out.of_numpy(a, oracle.dtype_of(a))


@difference("transpose", "transpose of bfloat16 with conjugate=True and the identity permutation: "
            "TF 2.21's oneDNN ConjugateTranspose (x86 builds) converts the values, flushing "
            "subnormals to zeros of their sign and quieting signalling NaNs; tensorx moves the "
            "bits, as TF's Transpose and every other permutation do")
def _transpose_bf16_onednn(case, want, got):
    return oracle.dtype_of(case.inputs["a"]) == "bfloat16" and case.attrs.get("conjugate") and \
        _only_ftz_or_nan(want, got)


beyond_tf_op_dtypes("transpose")
beyond_tf_op_dtypes("concat")
beyond_tf_op_dtypes("pack")
beyond_tf_op_dtypes("reverse")
beyond_tf_op_dtypes("reverse_sequence")
