# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for the reorder group: concat (np.concatenate), pack (np.stack), meshgrid
(np.meshgrid, both indexings; complex values times (1+0j) as TensorFlow computes them), reverse with
an axis list and with a bool dims vector (np.flip), reverse_sequence (a per-batch flip) and
transpose (np.transpose, np.conj for conjugate=true), over random shapes up to rank 6 with
zero-size dims and every dtype numpy shares with tensorx, 'S' strings included.  Numeric data are
random bit patterns (NaNs and infinities included), so any byte moved wrong shows."""
import numpy as np
import txoracle as tx

rng = np.random.default_rng(20240604)
c = tx.Counter()
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128, "S"]


def rand_shape(rank, zero=True):
    choices = [0, 1, 2, 3, 4, 5] if zero and rng.random() < 0.3 else [1, 2, 3, 4, 5]
    return tuple(int(d) for d in rng.choice(choices, size=rank))


def arr(shape, dt):
    n = int(np.prod(shape, dtype=np.int64))
    if dt == "S":
        words = [bytes(rng.integers(97, 123, size=int(rng.integers(1, 6))).astype(np.uint8)) for _ in range(n)]
        return np.array(words, dtype="S5").reshape(shape)
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    raw = rng.integers(0, 256, size=n * dt.itemsize, dtype=np.uint8)
    return raw.view(dt).reshape(shape)


def same(got, want, what):
    """assert_same, with 'S' arrays compared by value: tensorx writes strings as 'S<longest>'."""
    want = np.array(want, order="C", copy=True)
    if want.dtype.kind == "S" and got.dtype.kind == "S":
        n = max(got.dtype.itemsize, want.dtype.itemsize, 1)
        got, want = got.astype("S%d" % n), want.astype("S%d" % n)
    tx.assert_same(got, want, what)


def name(dt):
    return "S" if dt == "S" else np.dtype(dt).name


# ---- concat ----
for i in range(70):
    dt = DTYPES[i % len(DTYPES)]
    r = int(rng.integers(1, 7))
    base = list(rand_shape(r))
    axis = int(rng.integers(-r, r))
    n = int(rng.integers(1, 5))
    vals = []
    for _ in range(n):
        s = list(base)
        s[axis] = int(rng.choice([0, 1, 2, 3]))
        vals.append(arr(tuple(s), dt))

    def concat_case(vals=vals, axis=axis, dt=dt):
        want = np.concatenate(vals, axis=axis)
        same(tx.run("concat", values=vals, concat_dim=axis), want,
                       "concat %s %s axis %d" % (name(dt), [v.shape for v in vals], axis))

    c.check("concat%d" % i, concat_case)

# ---- pack ----
for i in range(60):
    dt = DTYPES[(i * 7) % len(DTYPES)]
    r = int(rng.integers(0, 6))
    shape = rand_shape(r)
    n = int(rng.integers(1, 5))
    vals = [arr(shape, dt) for _ in range(n)]
    axis = int(rng.integers(-(r + 1), r + 1))

    def pack_case(vals=vals, axis=axis, dt=dt, shape=shape):
        same(tx.run("pack", values=vals, axis=axis), np.stack(vals, axis=axis),
                       "pack %s %d x %s axis %d" % (name(dt), len(vals), shape, axis))

    c.check("pack%d" % i, pack_case)

# ---- meshgrid ----
for i in range(60):
    dt = DTYPES[(i * 5) % len(DTYPES)]
    n = int(rng.integers(1, 5))
    args = []
    for _ in range(n):
        # Mostly 1-D; some of other ranks, which tf.meshgrid flattens.
        shape = (int(rng.integers(0, 5)),) if rng.random() < 0.8 else rand_shape(int(rng.integers(0, 3)), zero=False)
        args.append(arr(shape, dt))
    indexing = "xy" if i % 2 == 0 else "ij"

    def meshgrid_case(args=args, indexing=indexing, dt=dt):
        kw = {} if indexing == "xy" and rng.random() < 0.5 else {"indexing": indexing}
        got = tx.run("meshgrid", outputs=len(args), args=args, **kw)
        got = got if len(args) > 1 else [got]
        want = np.meshgrid(*[a.ravel() for a in args], indexing=indexing)
        for k, (g, w) in enumerate(zip(got, want)):
            if w.dtype.kind == "c":
                # TensorFlow builds the grids as x * ones: the complex product with (1+0j).
                with np.errstate(all="ignore"):
                    w = w * w.dtype.type(1 + 0j)
            same(g, w, "meshgrid %s %s %s out %d"
                           % (name(dt), indexing, [a.shape for a in args], k))

    c.check("meshgrid%d" % i, meshgrid_case)

# ---- reverse (axis list and bool dims) ----
for i in range(60):
    dt = DTYPES[(i * 3) % len(DTYPES)]
    r = int(rng.integers(1, 7))
    shape = rand_shape(r)
    a = arr(shape, dt)
    flip = [bool(rng.random() < 0.5) for _ in range(r)]
    axes = [d - r if rng.random() < 0.5 else d for d in range(r) if flip[d]]
    rng.shuffle(axes)

    def reverse_case(a=a, flip=flip, axes=axes, dt=dt):
        want = np.flip(a, axis=tuple(d for d in range(a.ndim) if flip[d]))
        what = "reverse %s %s flip %s" % (name(dt), a.shape, flip)
        if axes:
            same(tx.run("reverse", tensor=a, axis=[int(x) for x in axes]), want, what + " axis")
        if a.shape[0] == 0:
            # ReverseOp (tensorflow/core/kernels/reverse_op.cc) refuses an empty first dim.
            assert "Invalid input first dimension. Found 0." in tx.fails(
                "reverse", tensor=a, dims=np.array(flip, dtype=np.bool_)), what
        else:
            same(tx.run("reverse", tensor=a, dims=np.array(flip, dtype=np.bool_)), want, what + " dims")

    c.check("reverse%d" % i, reverse_case)

# ---- reverse_sequence ----
for i in range(50):
    dt = DTYPES[(i * 11) % len(DTYPES)]
    r = int(rng.integers(2, 6))
    shape = rand_shape(r)
    a = arr(shape, dt)
    bd, sd = [int(x) for x in rng.choice(r, size=2, replace=False)]
    lens = rng.integers(0, shape[sd] + 1, size=shape[bd]).astype(np.int64 if i % 2 else np.int32)

    def reverse_sequence_case(a=a, bd=bd, sd=sd, lens=lens, dt=dt):
        x = np.moveaxis(a, (bd, sd), (0, 1))
        y = x.copy()
        for b, n in enumerate(lens):
            y[b, :n] = x[b, :n][::-1]
        want = np.moveaxis(y, (0, 1), (bd, sd))
        got = tx.run("reverse_sequence", input=a, seq_lengths=lens, seq_dim=sd, batch_dim=bd)
        same(got, want, "reverse_sequence %s %s batch %d seq %d lens %s" % (name(dt), a.shape, bd, sd, list(lens)))

    c.check("reverse_sequence%d" % i, reverse_sequence_case)

# ---- transpose ----
for i in range(120):
    dt = DTYPES[(i * 13) % len(DTYPES)]
    r = int(rng.integers(0, 7))
    shape = rand_shape(r)
    if i % 10 == 0 and r >= 2:  # a larger plane, past the tiles of the 2-D kernels
        shape = shape[:-2] + (int(rng.integers(30, 140)), int(rng.integers(30, 140)))
        shape = tuple(min(d, 3) for d in shape[:-2]) + shape[-2:]
    a = arr(shape, dt)
    perm = [int(p) for p in rng.permutation(r)]
    mode = i % 4  # 0: default perm, 1: int32 perm, 2: int64 perm, 3: negative entries
    conj = bool(i % 3 == 0)

    def transpose_case(a=a, perm=perm, mode=mode, conj=conj, dt=dt):
        kw = {"conjugate": True} if conj else {}
        if mode == 0:
            got = tx.run("transpose", a=a, **kw)
            want = np.transpose(a)
        else:
            p = [x - a.ndim if mode == 3 and rng.random() < 0.5 else x for x in perm]
            pt = np.array(p, dtype=np.int64 if mode == 2 else np.int32).reshape(len(p))
            got = tx.run("transpose", a=a, perm=pt, **kw)
            want = np.transpose(a, perm)
        if conj and want.dtype.kind == "c":
            want = np.conj(want)
        same(got, want, "transpose %s %s perm %s mode %d conj %s"
                       % (name(dt), a.shape, perm, mode, conj))

    c.check("transpose%d" % i, transpose_case)


# ---- errors ----
def errors():
    a = np.zeros((2, 3), np.float32)
    assert "values[1] differs from values[0] in dimension 1" in tx.fails("concat", values=[a, np.zeros((2, 4), np.float32)], concat_dim=0)
    assert "values[1] has dtype float64" in tx.fails("concat", values=[a, np.zeros((2, 3))], concat_dim=0)
    assert "axis 3 is out of range [-3, 3)" in tx.fails("pack", values=[a, a], axis=3)
    assert "not a permutation" in tx.fails("transpose", a=a, perm=np.array([1, 1], np.int32))
    assert "specified more than once" in tx.fails("reverse", tensor=a, axis=[0, -2])
    assert "not implemented for rank > 8" in tx.fails("reverse", tensor=np.zeros((1,) * 9, np.int8), axis=[0])
    # ReverseV2Op (tensorflow/core/kernels/reverse_op.cc) returns an input with no elements before
    # it reads axis; ReverseOp refuses an empty first dim.
    empty = np.zeros((2, 0, 3), np.int16)
    same(tx.run("reverse", tensor=empty, axis=[5, 5, -9]), empty, "reverse of an empty tensor, bad axes")
    same(tx.run("reverse", tensor=np.zeros((1,) * 9 + (0,), np.int8), axis=[0]),
         np.zeros((1,) * 9 + (0,), np.int8), "reverse of an empty rank-10 tensor")
    assert "Invalid input first dimension. Found 0." in tx.fails(
        "reverse", tensor=np.zeros((0, 2), np.float32), dims=np.array([True, False]))
    assert "seq_lengths[1] = 4 is above" in tx.fails("reverse_sequence", input=a, seq_lengths=np.array([1, 4], np.int64), seq_dim=1)
    # TensorFlow's reverse_sequence kernel stops at rank 5.
    assert "ranks 2 to 5 only" in tx.fails("reverse_sequence", input=np.zeros((2, 2, 1, 1, 1, 1), np.int8),
                                           seq_lengths=np.array([1, 2], np.int32), seq_dim=1)
    assert "indexing must be 'xy' or 'ij'" in tx.fails("meshgrid", outputs=2, args=[a, a], indexing="ab")


c.check("errors", errors)
c.finish()
