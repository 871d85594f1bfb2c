# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for space, batch and depth, and image patches: space_to_batch_nd
(SpaceToBatchND), space_to_batch (SpaceToBatch), required_space_to_batch_paddings
(tf.required_space_to_batch_paddings, Python-level), batch_to_space_nd (BatchToSpaceND),
batch_to_space (BatchToSpace), space_to_depth (SpaceToDepth), depth_to_space (DepthToSpace) and
extract_image_patches (ExtractImagePatches).  tensorx's extensions beyond TF (batch_to_space's
`oob` policies, depth_to_space's mode CRD) have no TF counterpart and are not run here."""
import numpy as np
import tensorflow as tf
import oracle
from oracle import ALL, Case, difference, op
from ops_reorder import beyond_tf_op_dtypes

R = tf.raw_ops


def _i(v, dt="int32"):
    return np.array(v, dtype=dt)


def _pads(g, m, hi=2):
    return g.ints(0, hi, (m, 2), g.choice(["int32", "int64"]))


# ---- space_to_batch_nd ----------------------------------------------------------------------------
@op("space_to_batch_nd", tf=lambda input, block_shape, paddings:
    R.SpaceToBatchND(input=input, block_shape=block_shape, paddings=paddings),
    tf_name="SpaceToBatchND", moves_bits=True)
def space_to_batch_nd(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (1, 4, 2, 1)), "block_shape": _i([2, 2]),
                    "paddings": _i([[0, 0], [1, 1]])})
    f = "int32"
    # the page's examples (1)-(4)
    yield Case({"input": np.arange(1, 5, dtype=np.int32).reshape(1, 2, 2, 1),
                "block_shape": _i([2, 2]), "paddings": _i([[0, 0], [0, 0]])}, note="page (1)")
    yield Case({"input": np.arange(1, 13, dtype=np.int32).reshape(1, 2, 2, 3),
                "block_shape": _i([2, 2]), "paddings": _i([[0, 0], [0, 0]])}, note="page (2)")
    yield Case({"input": np.arange(1, 17, dtype=np.int32).reshape(1, 4, 4, 1),
                "block_shape": _i([2, 2]), "paddings": _i([[0, 0], [0, 0]])}, note="page (3)")
    yield Case({"input": np.arange(1, 17, dtype=np.int32).reshape(2, 2, 4, 1),
                "block_shape": _i([2, 2]), "paddings": _i([[0, 0], [2, 0]])}, note="page (4)")
    for m in range(0, 6):  # M spatial dims, ranks up to 6 (M = 5: TF's limit of 4 non-foldable)
        shape = (2,) + (2,) * m
        yield Case({"input": g.array(f, shape), "block_shape": _i([2] * m, "int64"),
                    "paddings": _i([[0, 0]] * m, "int64").reshape(m, 2)}, note=f"M={m}")
    yield Case({"input": g.array(f, (1, 2, 2, 2, 2, 2)), "block_shape": _i([1, 2, 2, 2, 1]),
                "paddings": _i([[0, 0], [0, 0], [0, 0], [0, 0], [0, 0]])},
               note="M=5, outer dims foldable")
    yield Case({"input": g.array(f, (1, 3, 3, 2)), "block_shape": _i([1, 2]),
                "paddings": _i([[0, 1], [1, 0]])}, note="block 1 with padding")
    yield Case({"input": g.array(f, (2, 3)), "block_shape": _i([3]), "paddings": _i([[1, 2]])})
    for pos in range(4):
        shape = [2, 2, 4, 2]
        shape[pos] = 0
        yield Case({"input": g.array(f, shape), "block_shape": _i([2, 2]),
                    "paddings": _i([[0, 0], [0, 0]])}, note="zero dim")
    yield Case({"input": g.array(f, (1, 0, 2)), "block_shape": _i([2]),
                "paddings": _i([[1, 1]])}, note="zero dim padded")
    yield Case({"input": g.array(f, (1, 2, 2)), "block_shape": _i([0]),
                "paddings": _i([[0, 0]])}, note="block 0")
    yield Case({"input": g.array(f, (1, 2, 2)), "block_shape": _i([-2]),
                "paddings": _i([[0, 0]])}, note="block negative")
    yield Case({"input": g.array(f, (1, 4, 4)), "block_shape": _i([-2, -2]),
                "paddings": _i([[0, 0], [0, 0]])}, note="negative blocks, positive product")
    yield Case({"input": g.array(f, (1, 3, 2)), "block_shape": _i([2]),
                "paddings": _i([[0, 0]])}, note="not divisible")
    yield Case({"input": g.array(f, (1, 2, 2)), "block_shape": _i([2]),
                "paddings": _i([[-1, 1]])}, note="negative padding")
    yield Case({"input": g.array(f, (1, 2, 2)), "block_shape": _i([2]),
                "paddings": _i([[0, 0], [0, 0]])}, note="paddings [2, 2] for M=1")
    yield Case({"input": g.array(f, (1, 2, 2)), "block_shape": _i([2]),
                "paddings": _i([0, 0])}, note="paddings 1-D")
    yield Case({"input": g.array(f, (1, 2, 2)), "block_shape": _i([[2]]),
                "paddings": _i([[0, 0]])}, note="block_shape 2-D")
    yield Case({"input": g.array(f, (1, 2, 2)), "block_shape": _i(2),
                "paddings": _i([[0, 0]])}, note="block_shape 0-D")
    yield Case({"input": g.array(f, (1, 2)), "block_shape": _i([2, 1]),
                "paddings": _i([[0, 0], [0, 0]])}, note="rank < 1 + M")
    yield Case({"input": g.array(f, ()), "block_shape": _i([], "int32"),
                "paddings": _i([], "int32").reshape(0, 2)}, note="rank 0, M=0")
    yield Case({"input": g.array(f, (2, 2)), "block_shape": _i([2], "float32"),
                "paddings": _i([[0, 0]])}, note="block_shape float")
    yield Case({"input": g.array(f, (2, 2)), "block_shape": _i([2], "int16"),
                "paddings": _i([[0, 0]])}, note="block_shape int16")
    yield Case({"input": g.array(f, (2, 2)), "block_shape": _i([2]),
                "paddings": _i([[0, 0]], "int16")}, note="paddings int16")
    yield Case({"input": g.array(f, (2, 2)), "block_shape": _i([2], "int64"),
                "paddings": _i([[0, 0]], "int32")}, note="mixed int dtypes")
    yield Case({"input": g.array(f, (1, 2)), "block_shape": _i([2**62, 2**62], "int64"),
                "paddings": _i([[0, 0], [0, 0]])}, note="block product overflows")
    yield Case({"input": g.array(f, (1, 2)), "block_shape": _i([2**40], "int64"),
                "paddings": _i([[0, 2**40 - 2]], "int64")}, note="huge padding")
    yield Case({"input": g.array(f, (1, 2)), "block_shape": _i([2], "int64"),
                "paddings": _i([[2**62, 2**62]], "int64")}, note="padded size overflows")
    yield Case({"input": g.array("string", (1, 2, 2)), "block_shape": _i([2]),
                "paddings": _i([[1, 1]])}, note="strings padded")
    while True:
        m = int(g.rng.integers(0, 4))
        block = [int(v) for v in g.rng.integers(1, 4, m)]
        pads = g.rng.integers(0, 3, (m, 2))
        spatial = []
        for i in range(m):
            n = int(g.rng.integers(0, 3)) * block[i] - int(pads[i].sum())
            if n < 0:
                pads[i] = 0
                n = int(g.rng.integers(0, 3)) * block[i]
            spatial.append(n if g.rng.random() > 0.05 else n + 1)
        shape = [int(g.rng.integers(0, 3))] + spatial + list(g.shape(g.choice([0, 1, 2]), 3))
        yield Case({"input": g.array(g.choice(ALL), shape),
                    "block_shape": _i(block, g.choice(["int32", "int64"])),
                    "paddings": pads.astype(g.choice(["int32", "int64"])).reshape(m, 2)})


def _non_foldable_m(case):
    """The number of spatial dims left after TF folds leading and trailing block-1 unpadded ones."""
    block = np.asarray(case.inputs["block_shape"]).reshape(-1).tolist()
    pads = np.asarray(case.inputs.get("paddings", case.inputs.get("crops"))).reshape(-1, 2).tolist()
    keep = [b != 1 or p != [0, 0] for b, p in zip(block, pads)]
    if not any(keep):
        return 0
    return len(keep) - keep.index(True) - keep[::-1].index(True)


S2B_ROW = ("space_to_batch_nd / batch_to_space_nd with more than 4 spatial dims left after folding "
           "the outer block-1 unpadded ones: TF 2.21's CPU kernel refuses them (invalid_argument: "
           "\"Maximum number of non-combined block dimensions is 5 but must not exceed 4\", its "
           "templates stop at 4); tensorx runs any number (the same arithmetic, a documented "
           "extension)")


@difference("space_to_batch_nd", S2B_ROW)
def _s2b_many_dims(case, want, got):
    return want[0] == "error" and "non-combined block dimensions" in want[2] and \
        got[0] == "ok" and _non_foldable_m(case) > 4


# ---- space_to_batch -------------------------------------------------------------------------------
@op("space_to_batch", tf=lambda input, paddings, block_size:
    R.SpaceToBatch(input=input, paddings=paddings, block_size=block_size),
    tf_name="SpaceToBatch", moves_bits=True)
def space_to_batch(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (1, 2, 4, 1)), "paddings": _i([[1, 1], [0, 0]])},
                   {"block_size": 2})
    f = "int32"
    yield Case({"input": np.arange(1, 17, dtype=np.int32).reshape(2, 2, 4, 1),
                "paddings": _i([[0, 0], [2, 0]])}, {"block_size": 2}, note="page (4)")
    yield Case({"input": np.arange(1, 17, dtype=np.int32).reshape(1, 4, 4, 1),
                "paddings": _i([[0, 0], [0, 0]], "int64")}, {"block_size": 2}, note="page (3)")
    for bs in (3, 1, 0, -2):
        yield Case({"input": g.array(f, (1, 3, 3, 1)), "paddings": _i([[0, 0], [0, 0]])},
                   {"block_size": bs}, note="block_size")
    for pos in range(4):
        shape = [1, 2, 2, 2]
        shape[pos] = 0
        yield Case({"input": g.array(f, shape), "paddings": _i([[0, 0], [0, 0]])},
                   {"block_size": 2}, note="zero dim")
    yield Case({"input": g.array(f, (1, 2, 2)), "paddings": _i([[0, 0], [0, 0]])},
               {"block_size": 2}, note="rank 3")
    yield Case({"input": g.array(f, (1, 2, 2, 1, 1)), "paddings": _i([[0, 0], [0, 0]])},
               {"block_size": 2}, note="rank 5")
    yield Case({"input": g.array(f, (1, 3, 2, 1)), "paddings": _i([[0, 0], [0, 0]])},
               {"block_size": 2}, note="not divisible")
    yield Case({"input": g.array(f, (1, 2, 2, 1)), "paddings": _i([[-1, 1], [0, 0]])},
               {"block_size": 2}, note="negative padding")
    yield Case({"input": g.array(f, (1, 2, 2, 1)), "paddings": _i([[0, 0]])},
               {"block_size": 2}, note="paddings [1, 2]")
    yield Case({"input": g.array(f, (1, 2, 2, 1)), "paddings": _i([[0, 0], [0, 0]], "float32")},
               {"block_size": 2}, note="paddings float")
    yield Case({"input": g.array(f, (1, 2, 2, 1)), "paddings": _i([[0, 0], [0, 0]])},
               {"block_size": 2**40}, note="huge block_size")
    while True:
        bs = int(g.rng.integers(2, 4))
        pads = g.rng.integers(0, 3, (2, 2))
        hw = [int(g.rng.integers(0, 3)) * bs - int(pads[i].sum()) for i in range(2)]
        for i in range(2):
            if hw[i] < 0:
                pads[i] = 0
                hw[i] = bs
        shape = [int(g.rng.integers(0, 3))] + hw + [int(g.rng.integers(0, 3))]
        yield Case({"input": g.array(g.choice(ALL), shape),
                    "paddings": pads.astype(g.choice(["int32", "int64"]))}, {"block_size": bs})


# ---- required_space_to_batch_paddings -------------------------------------------------------------
def _required(input_shape, block_shape, base_paddings=None):
    # given as NumPy arrays, as a user calls it: TF converts them to int32 (a tf.Tensor of int64
    # it refuses: "Tensor conversion requested dtype int32 for Tensor with dtype int64")
    def np_(t):
        return None if t is None else t.numpy()
    return list(tf.required_space_to_batch_paddings(np_(input_shape), np_(block_shape),
                                                    np_(base_paddings)))


@op("required_space_to_batch_paddings", tf=_required, tf_name="tf.required_space_to_batch_paddings")
def required_space_to_batch_paddings(g):
    for dt in ("int32", "int64"):
        yield Case({"input_shape": _i([5, 4], dt), "block_shape": _i([2, 3], dt),
                    "base_paddings": _i([[1, 0], [0, 0]], dt)})
    yield Case({"input_shape": _i([5, 4]), "block_shape": _i([2, 3])}, note="no base_paddings")
    yield Case({"input_shape": _i([5, 4]), "block_shape": _i([2, 3], "int64"),
                "base_paddings": _i([[1, 2], [3, 0]])}, note="mixed dtypes")
    yield Case({"input_shape": _i([], "int32"), "block_shape": _i([], "int32")}, note="M=0")
    yield Case({"input_shape": _i([3, 3], "int32"), "block_shape": _i([], "int32")},
               note="M=0, input_shape not checked")
    yield Case({"input_shape": _i([0, 7, 1]), "block_shape": _i([4, 4, 1])})
    yield Case({"input_shape": _i([6]), "block_shape": _i([3]), "base_paddings": _i([[3, 3]])})
    yield Case({"input_shape": _i([2**31 - 1]), "block_shape": _i([2])}, note="int32 overflow")
    yield Case({"input_shape": _i([5], "int64"), "block_shape": _i([2**32 + 2], "int64")},
               note="int64 block above int32")
    yield Case({"input_shape": _i([5]), "block_shape": _i([0])}, note="block 0")
    yield Case({"input_shape": _i([5]), "block_shape": _i([-2])}, note="block negative")
    yield Case({"input_shape": _i([-5]), "block_shape": _i([2])}, note="shape negative")
    yield Case({"input_shape": _i([5]), "block_shape": _i([2]), "base_paddings": _i([[-1, 0]])},
               note="base padding negative")
    yield Case({"input_shape": _i([5, 4]), "block_shape": _i([2])}, note="M differs")
    yield Case({"input_shape": _i([5]), "block_shape": _i([2]), "base_paddings": _i([1, 0])},
               note="base_paddings 1-D")
    yield Case({"input_shape": _i([5]), "block_shape": _i([[2]])}, note="block_shape 2-D")
    yield Case({"input_shape": _i(5), "block_shape": _i(2)}, note="0-D")
    yield Case({"input_shape": _i([5], "float32"), "block_shape": _i([2])}, note="float")
    yield Case({"input_shape": _i([5], "int16"), "block_shape": _i([2], "int16")}, note="int16")
    while True:
        m = int(g.rng.integers(0, 4))
        dt = g.choice(["int32", "int64"])
        inputs = {"input_shape": g.ints(0, 9, (m,), dt), "block_shape": g.ints(1, 4, (m,), dt)}
        if g.rng.random() < 0.5:
            inputs["base_paddings"] = g.ints(0, 3, (m, 2), g.choice(["int32", "int64"]))
        yield Case(inputs)


@difference("required_space_to_batch_paddings", "required_space_to_batch_paddings: TF does int32 "
            "arithmetic on any values (a negative shape or padding, a block <= 0 or a value above "
            "int32 wrap, divide by zero or give negative paddings); tensorx refuses them "
            "(invalid_argument)")
def _required_unchecked(case, want, got):
    if got[0] != "error" or got[1] != "invalid_argument":
        return False
    vals = [np.asarray(v).astype(np.int64) for v in case.inputs.values()
            if np.asarray(v).dtype.kind == "i"]
    return any(v.size and (v.min() < 0 or v.max() >= 2**31) for v in vals) or \
        (np.asarray(case.inputs["block_shape"]).size and
         np.asarray(case.inputs["block_shape"]).min() <= 0) or \
        _overflows_int32(case)


@difference("required_space_to_batch_paddings", "required_space_to_batch_paddings with an argument "
            "of a dtype other than int32/int64 (int8, int16, unsigned, floats holding integers): "
            "TF's Python function converts any array to int32; tensorx's op takes int32/int64 "
            "tensors, as every shape argument of tensorx (unimplemented: a dtype the op does not "
            "take)")
def _required_other_dtypes(case, want, got):
    return want[0] == "ok" and got[0] == "error" and got[1] == "unimplemented" and \
        "must be int32 or int64" in got[2] and \
        any(np.asarray(v).dtype not in (np.int32, np.int64) for v in case.inputs.values())


def _overflows_int32(case):
    try:
        shape = np.asarray(case.inputs["input_shape"]).astype(np.int64).reshape(-1)
        block = np.asarray(case.inputs["block_shape"]).astype(np.int64).reshape(-1)
        base = case.inputs.get("base_paddings")
        base = np.zeros((len(block), 2), np.int64) if base is None else \
            np.asarray(base).astype(np.int64).reshape(-1, 2)
        full = shape + base[:, 0] + base[:, 1]
        pad_end = base[:, 1] + (block - full % block) % block
        return bool((full + block > 2**31 - 1).any() or (pad_end > 2**31 - 1).any())
    except Exception:  # noqa: BLE001 (shapes that do not broadcast: not this row)
        return False


# ---- batch_to_space_nd ----------------------------------------------------------------------------
@op("batch_to_space_nd", tf=lambda input, block_shape, crops:
    R.BatchToSpaceND(input=input, block_shape=block_shape, crops=crops),
    tf_name="BatchToSpaceND", moves_bits=True)
def batch_to_space_nd(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (4, 1, 2, 1)), "block_shape": _i([2, 2]),
                    "crops": _i([[0, 0], [1, 1]])})
    f = "int32"
    yield Case({"input": np.arange(1, 5, dtype=np.int32).reshape(4, 1, 1, 1),
                "block_shape": _i([2, 2]), "crops": _i([[0, 0], [0, 0]])}, note="page (1)")
    yield Case({"input": np.arange(1, 13, dtype=np.int32).reshape(4, 1, 1, 3),
                "block_shape": _i([2, 2]), "crops": _i([[0, 0], [0, 0]])}, note="page (2)")
    yield Case({"input": np.array([1, 3, 9, 11, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16],
                                  np.int32).reshape(4, 2, 2, 1),
                "block_shape": _i([2, 2]), "crops": _i([[0, 0], [0, 0]])}, note="page (3), TF's")
    yield Case({"input": np.array([1, 3, 5, 7, 2, 4, 10, 12, 5, 7, 13, 15, 6, 8, 14, 16],
                                  np.int32).reshape(4, 2, 2, 1),
                "block_shape": _i([2, 2]), "crops": _i([[0, 0], [0, 0]])}, note="page (3) literal")
    yield Case({"input": np.arange(1, 17, dtype=np.int32).reshape(8, 1, 2, 1),
                "block_shape": _i([2, 2]), "crops": _i([[0, 0], [2, 0]])}, note="page (4)")
    for m in range(0, 6):
        shape = (2 ** m * 2,) + (2,) * m
        yield Case({"input": g.array(f, shape), "block_shape": _i([2] * m, "int64"),
                    "crops": _i([[0, 1]] * m, "int64").reshape(m, 2)}, note=f"M={m}")
    for pos in range(4):
        shape = [4, 2, 2, 2]
        shape[pos] = 0
        yield Case({"input": g.array(f, shape), "block_shape": _i([2, 2]),
                    "crops": _i([[0, 0], [0, 0]])}, note="zero dim")
    yield Case({"input": g.array(f, (2, 0, 2)), "block_shape": _i([2]),
                "crops": _i([[0, 0]])}, note="zero spatial")
    yield Case({"input": g.array(f, (2, 2, 2)), "block_shape": _i([2]),
                "crops": _i([[2, 2]])}, note="crops the whole dim")
    yield Case({"input": g.array(f, (2, 2, 2)), "block_shape": _i([2]),
                "crops": _i([[3, 2]])}, note="crops beyond the dim")
    yield Case({"input": g.array(f, (2, 2, 2)), "block_shape": _i([2]),
                "crops": _i([[-1, 0]])}, note="negative crop")
    yield Case({"input": g.array(f, (3, 2, 2)), "block_shape": _i([2]),
                "crops": _i([[0, 0]])}, note="batch not divisible")
    yield Case({"input": g.array(f, (2, 2, 2)), "block_shape": _i([0]),
                "crops": _i([[0, 0]])}, note="block 0")
    yield Case({"input": g.array(f, (4, 2, 2)), "block_shape": _i([-2, -2]),
                "crops": _i([[0, 0], [0, 0]])}, note="negative blocks, positive product")
    yield Case({"input": g.array(f, (2, 2, 2)), "block_shape": _i([2]),
                "crops": _i([0, 0])}, note="crops 1-D")
    yield Case({"input": g.array(f, (2, 2, 2)), "block_shape": _i([[2]]),
                "crops": _i([[0, 0]])}, note="block_shape 2-D")
    yield Case({"input": g.array(f, (2,)), "block_shape": _i([2]),
                "crops": _i([[0, 0]])}, note="rank < 1 + M")
    yield Case({"input": g.array(f, ()), "block_shape": _i([], "int32"),
                "crops": _i([], "int32").reshape(0, 2)}, note="rank 0, M=0")
    yield Case({"input": g.array(f, (2, 2)), "block_shape": _i([2], "float32"),
                "crops": _i([[0, 0]])}, note="block_shape float")
    yield Case({"input": g.array(f, (2, 2)), "block_shape": _i([2], "int64"),
                "crops": _i([[0, 1]], "int32")}, note="mixed int dtypes")
    yield Case({"input": g.array(f, (2, 2)), "block_shape": _i([2**62, 2**62], "int64"),
                "crops": _i([[0, 0], [0, 0]])}, note="block product overflows")
    yield Case({"input": g.array(f, (2, 2)), "block_shape": _i([2], "int64"),
                "crops": _i([[2**62, 2**62]], "int64")}, note="crops overflow")
    yield Case({"input": g.array(f, (1, 2, 2, 2, 2, 2)), "block_shape": _i([1, 1, 1, 1, 1]),
                "crops": _i([[0, 0]] * 5)}, note="M=5, all foldable")
    while True:
        m = int(g.rng.integers(0, 4))
        block = [int(v) for v in g.rng.integers(1, 4, m)]
        spatial = [int(v) for v in g.rng.integers(0, 3, m)]
        crops = np.array([[int(g.rng.integers(0, b * s + 1)) for _ in range(2)]
                          for b, s in zip(block, spatial)], dtype=np.int64).reshape(m, 2)
        for i in range(m):
            if crops[i].sum() > block[i] * spatial[i] and g.rng.random() > 0.05:
                crops[i, 1] = block[i] * spatial[i] - crops[i, 0]
        batch = int(np.prod(block, dtype=np.int64)) * int(g.rng.integers(0, 3))
        if g.rng.random() < 0.05:
            batch += 1
        shape = [batch] + spatial + list(g.shape(g.choice([0, 1, 2]), 3))
        yield Case({"input": g.array(g.choice(ALL), shape),
                    "block_shape": _i(block, g.choice(["int32", "int64"])),
                    "crops": crops.astype(g.choice(["int32", "int64"]))})


difference("batch_to_space_nd", S2B_ROW)(_s2b_many_dims)


# ---- batch_to_space -------------------------------------------------------------------------------
@op("batch_to_space", tf=lambda input, crops, block_size:
    R.BatchToSpace(input=input, crops=crops, block_size=block_size),
    tf_name="BatchToSpace", moves_bits=True)
def batch_to_space(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (4, 1, 2, 1)), "crops": _i([[0, 0], [1, 1]])},
                   {"block_size": 2})
    f = "int32"
    yield Case({"input": np.arange(1, 17, dtype=np.int32).reshape(8, 1, 2, 1),
                "crops": _i([[0, 0], [2, 0]])}, {"block_size": 2}, note="page (4)")
    yield Case({"input": np.arange(1, 17, dtype=np.int32).reshape(4, 2, 2, 1),
                "crops": _i([[0, 0], [0, 0]], "int64")}, {"block_size": 2}, note="page (3)")
    for bs in (3, 1, 0, -2):
        yield Case({"input": g.array(f, (9, 1, 1, 1)), "crops": _i([[0, 0], [0, 0]])},
                   {"block_size": bs}, note="block_size")
    for pos in range(4):
        shape = [4, 2, 2, 2]
        shape[pos] = 0
        yield Case({"input": g.array(f, shape), "crops": _i([[0, 0], [0, 0]])},
                   {"block_size": 2}, note="zero dim")
    yield Case({"input": g.array(f, (4, 2, 2)), "crops": _i([[0, 0], [0, 0]])},
               {"block_size": 2}, note="rank 3")
    yield Case({"input": g.array(f, (4, 1, 1, 1, 1)), "crops": _i([[0, 0], [0, 0]])},
               {"block_size": 2}, note="rank 5")
    yield Case({"input": g.array(f, (3, 1, 1, 1)), "crops": _i([[0, 0], [0, 0]])},
               {"block_size": 2}, note="batch not divisible")
    yield Case({"input": g.array(f, (4, 1, 1, 1)), "crops": _i([[-1, 1], [0, 0]])},
               {"block_size": 2}, note="negative crop")
    yield Case({"input": g.array(f, (4, 1, 1, 1)), "crops": _i([[2, 1], [0, 0]])},
               {"block_size": 2}, note="crops beyond")
    yield Case({"input": g.array(f, (4, 1, 1, 1)), "crops": _i([[0, 0]])},
               {"block_size": 2}, note="crops [1, 2]")
    yield Case({"input": g.array(f, (4, 1, 1, 1)), "crops": _i([[0, 0], [0, 0]])},
               {"block_size": 2**40}, note="huge block_size")
    while True:
        bs = int(g.rng.integers(2, 4))
        hw = [int(v) for v in g.rng.integers(0, 3, 2)]
        crops = np.array([[int(g.rng.integers(0, bs * s + 1)) for _ in range(2)] for s in hw])
        for i in range(2):
            if crops[i].sum() > bs * hw[i]:
                crops[i, 1] = bs * hw[i] - crops[i, 0]
        shape = [bs * bs * int(g.rng.integers(0, 3))] + hw + [int(g.rng.integers(0, 3))]
        yield Case({"input": g.array(g.choice(ALL), shape),
                    "crops": crops.astype(g.choice(["int32", "int64"]))}, {"block_size": bs})


# ---- space_to_depth / depth_to_space --------------------------------------------------------------
@op("space_to_depth", tf=lambda input, block_size, data_format="NHWC":
    R.SpaceToDepth(input=input, block_size=block_size, data_format=data_format),
    tf_name="SpaceToDepth", moves_bits=True)
def space_to_depth(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (1, 2, 4, 2))}, {"block_size": 2})
    f = "int32"
    yield Case({"input": np.arange(1, 13, dtype=np.int32).reshape(1, 2, 2, 3)}, {"block_size": 2},
               note="page")
    for fmt in ("NHWC", "NCHW"):
        for dt in ("int32", "float32", "qint8", "string"):
            yield Case({"input": g.array(dt, (2, 2, 4, 4))}, {"block_size": 2, "data_format": fmt})
    yield Case({"input": g.array(f, (1, 4, 4, 1))}, {"data_format": "NCHW_VECT_C",
                                                     "block_size": 2})
    yield Case({"input": g.array(f, (1, 4, 4, 1))}, {"data_format": "NWHC", "block_size": 2})
    for bs in (3, 1, 0, -1, 2**40):
        yield Case({"input": g.array(f, (1, 3, 3, 1))}, {"block_size": bs}, note="block_size")
    for pos in range(4):
        shape = [1, 2, 2, 2]
        shape[pos] = 0
        yield Case({"input": g.array(f, shape)}, {"block_size": 2}, note="zero dim")
    for shape in ((1, 3, 2, 1), (1, 2, 3, 1), (2, 2, 2), (1, 2, 2, 1, 1), ()):
        yield Case({"input": g.array(f, shape)}, {"block_size": 2})
    while True:
        bs = int(g.rng.integers(2, 4))
        shape = [int(g.rng.integers(0, 3)), bs * int(g.rng.integers(0, 3)),
                 bs * int(g.rng.integers(0, 3)), int(g.rng.integers(0, 3))]
        if g.rng.random() < 0.05:
            shape[1] += 1
        yield Case({"input": g.array(g.choice(ALL), shape)}, {"block_size": bs})


@op("depth_to_space", tf=lambda input, block_size, data_format="NHWC":
    R.DepthToSpace(input=input, block_size=block_size, data_format=data_format),
    tf_name="DepthToSpace", moves_bits=True)
def depth_to_space(g):
    for dt in ALL:
        yield Case({"input": g.array(dt, (1, 1, 2, 8))}, {"block_size": 2})
    f = "int32"
    yield Case({"input": np.arange(1, 17, dtype=np.int32).reshape(1, 2, 2, 4)}, {"block_size": 2},
               note="page")
    for fmt in ("NHWC", "NCHW"):
        for dt in ("int32", "float32", "qint8", "string"):
            yield Case({"input": g.array(dt, (2, 8, 2, 4))}, {"block_size": 2, "data_format": fmt})
    yield Case({"input": g.array(f, (1, 1, 1, 4))}, {"data_format": "NCHW_VECT_C",
                                                     "block_size": 2})
    yield Case({"input": g.array(f, (1, 1, 1, 4))}, {"data_format": "NWHC", "block_size": 2})
    for bs in (3, 1, 0, -1, 2**40):
        yield Case({"input": g.array(f, (1, 1, 1, 9))}, {"block_size": bs}, note="block_size")
    for pos in range(4):
        shape = [1, 2, 2, 4]
        shape[pos] = 0
        yield Case({"input": g.array(f, shape)}, {"block_size": 2}, note="zero dim")
    for shape in ((1, 1, 1, 6), (2, 2, 4), (1, 2, 2, 4, 1), ()):
        yield Case({"input": g.array(f, shape)}, {"block_size": 2})
    while True:
        bs = int(g.rng.integers(2, 4))
        shape = [int(g.rng.integers(0, 3)), int(g.rng.integers(0, 3)), int(g.rng.integers(0, 3)),
                 bs * bs * int(g.rng.integers(0, 3))]
        if g.rng.random() < 0.05:
            shape[3] += 1
        yield Case({"input": g.array(g.choice(ALL), shape)}, {"block_size": bs})


# ---- extract_image_patches ------------------------------------------------------------------------
@op("extract_image_patches", tf=lambda images, ksizes, strides, rates, padding:
    R.ExtractImagePatches(images=images, ksizes=ksizes, strides=strides, rates=rates,
                          padding=padding), tf_name="ExtractImagePatches", moves_bits=True)
def extract_image_patches(g):
    one = [1, 1, 1, 1]
    for dt in ALL:
        yield Case({"images": g.array(dt, (1, 3, 3, 2))},
                   {"ksizes": [1, 2, 2, 1], "strides": one, "rates": one, "padding": "SAME"})
    f = "float32"
    yield Case({"images": np.arange(1, 5, dtype=np.int32).reshape(1, 2, 2, 1)},
               {"ksizes": [1, 2, 2, 1], "strides": one, "rates": one, "padding": "VALID"},
               note="CLI example")
    yield Case({"images": np.arange(1, 5, dtype=np.float32).reshape(1, 2, 2, 1)},
               {"ksizes": [1, 2, 2, 1], "strides": one, "rates": one, "padding": "SAME"},
               note="docs example")
    for pad in ("VALID", "SAME"):
        for k, s, r in (([1, 3, 3, 1], [1, 5, 5, 1], [1, 1, 1, 1]),
                        ([1, 2, 2, 1], [1, 3, 3, 1], [1, 2, 2, 1]),
                        ([1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 3, 1]),
                        ([1, 1, 1, 1], [1, 2, 3, 1], [1, 1, 1, 1]),
                        ([1, 4, 4, 1], [1, 7, 7, 1], [1, 2, 2, 1])):
            yield Case({"images": g.array(f, (2, 10, 10, 2))},
                       {"ksizes": k, "strides": s, "rates": r, "padding": pad})
        yield Case({"images": g.array(f, (1, 3, 3, 1))},
                   {"ksizes": [1, 5, 1, 1], "strides": [1, 3, 1, 1], "rates": one, "padding": pad},
                   note="window above the image, stride 3")
        yield Case({"images": g.array(f, (1, 3, 3, 1))},
                   {"ksizes": [1, 5, 1, 1], "strides": one, "rates": one, "padding": pad},
                   note="window above the image, stride 1")
        for pos in range(4):
            shape = [1, 3, 3, 2]
            shape[pos] = 0
            yield Case({"images": g.array(f, shape)},
                       {"ksizes": [1, 2, 2, 1], "strides": one, "rates": one, "padding": pad},
                       note="zero dim")
    bad = [("ksizes", [1, 2, 2, 2]), ("ksizes", [2, 2, 2, 1]), ("strides", [2, 1, 1, 1]),
           ("strides", [1, 1, 1, 2]), ("rates", [1, 1, 1, 2]), ("rates", [2, 1, 1, 1]),
           ("ksizes", [1, 0, 2, 1]), ("strides", [1, 0, 1, 1]), ("rates", [1, 1, 0, 1]),
           ("ksizes", [1, -1, 2, 1]), ("strides", [1, 1, -2, 1]), ("rates", [1, -1, 1, 1]),
           ("ksizes", [1, 2, 2]), ("strides", [1, 1, 1, 1, 1]), ("rates", []),
           ("ksizes", [1, 2**31, 1, 1]), ("strides", [1, 2**40, 1, 1])]
    for name, v in bad:
        attrs = {"ksizes": [1, 2, 2, 1], "strides": one, "rates": one, "padding": "VALID"}
        attrs[name] = v
        yield Case({"images": g.array(f, (1, 3, 3, 1))}, attrs, note=f"bad {name}")
    for pad in ("EXPLICIT", "same"):
        yield Case({"images": g.array(f, (1, 3, 3, 1))},
                   {"ksizes": [1, 2, 2, 1], "strides": one, "rates": one, "padding": pad})
    for shape in ((3, 3, 1), (1, 3, 3, 1, 1), ()):
        yield Case({"images": g.array(f, shape)},
                   {"ksizes": [1, 2, 2, 1], "strides": one, "rates": one, "padding": "VALID"})
    while True:
        shape = [int(g.rng.integers(0, 3)), int(g.rng.integers(0, 6)), int(g.rng.integers(0, 6)),
                 int(g.rng.integers(0, 3))]
        k = [1, int(g.rng.integers(1, 4)), int(g.rng.integers(1, 4)), 1]
        s = [1, int(g.rng.integers(1, 4)), int(g.rng.integers(1, 4)), 1]
        r = [1, int(g.rng.integers(1, 3)), int(g.rng.integers(1, 3)), 1]
        yield Case({"images": g.array(g.choice(ALL), shape)},
                   {"ksizes": k, "strides": s, "rates": r, "padding": g.choice(["VALID", "SAME"])})


def _nchw_via_nhwc(case, got, op_name):
    """Whether tensorx's NCHW result equals TF's NHWC kernel run on the input transposed to NHWC,
    transposed back (what TF's GPU kernel computes for NCHW)."""
    x = case.inputs["input"]
    if got[0] != "ok" or x.ndim != 4:
        return False
    tf_op = {"space_to_depth": R.SpaceToDepth, "depth_to_space": R.DepthToSpace}[op_name]
    nhwc = np.ascontiguousarray(np.transpose(x, (0, 2, 3, 1)))
    name = oracle.dtype_of(x)
    carried = nhwc.view(oracle.CARRIERS[name]) if name in oracle.CARRIERS else nhwc
    try:
        with tf.device("/CPU:0"):
            y = tf_op(input=oracle.to_tf(carried), block_size=case.attrs["block_size"],
                      data_format="NHWC")
    except Exception:  # noqa: BLE001 (TF refuses the NHWC case too: not this row)
        return False
    y = np.transpose(y.numpy(), (0, 3, 1, 2))
    want = oracle.Out.of_numpy(np.ascontiguousarray(y), oracle.dtype_of(y))
    g = got[1][0]
    return tuple(want.shape) == tuple(g.shape) and want.data == g.data


NCHW_ROW = ("space_to_depth / depth_to_space with data_format NCHW: TF 2.21 registers no CPU "
            "kernel for it (NotFoundError, unimplemented; NCHW runs on GPUs only); tensorx "
            "computes what TF's GPU kernel does (checked here as TF's NHWC kernel on the "
            "transposed input)")
for _name in ("space_to_depth", "depth_to_space"):
    difference(_name, NCHW_ROW)(
        lambda case, want, got, _n=_name: case.attrs.get("data_format") == "NCHW" and
        want[0] == "error" and want[1] == "unimplemented" and _nchw_via_nhwc(case, got, _n))


@difference("extract_image_patches", "extract_image_patches with ksizes, strides or rates longer "
            "than 4: TF 2.21's eager kernel reads the first 4 entries and ignores the rest, while "
            "its shape function (graph mode, tf.function) refuses them (\"requires the stride "
            "attribute to contain 4 values\"); tensorx refuses them (invalid_argument), as TF's "
            "graph mode and its documentation do")
def _patches_long_lists(case, want, got):
    return want[0] == "ok" and got[0] == "error" and got[1] == "invalid_argument" and \
        any(len(case.attrs[k]) > 4 for k in ("ksizes", "strides", "rates"))


for _name in ("space_to_batch_nd", "space_to_batch", "batch_to_space_nd", "batch_to_space",
              "space_to_depth", "depth_to_space", "extract_image_patches"):
    beyond_tf_op_dtypes(_name)
