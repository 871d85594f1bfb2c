# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for the slicing family: strided_slice vs Python slicing with random begin/end/steps,
ints (shrink), Ellipsis and None (new axis); slice vs a[b:b+s]; np.pad in constant, reflect and
symmetric modes, and the ONNX presets EDGE / WRAP vs np.pad's 'edge' / 'wrap'; np.split and np.split at the cumulative sizes (split's size_splits form, with -1);
np.tile; unpack vs indexing.  Random shapes up to rank 6 with zero-size dims, every dtype NumPy
has (bool, ints, uints, float16/32/64, complex64/128, 'S' byte strings).  TF's rules where NumPy
differs (REFLECT on an empty dim, a lone -1 in size_splits) are checked as errors.  ONNX Split-18's
uneven num_outputs (uneven=true: parts of ceil(d / k), the last smaller) vs np.split at multiples of
that chunk."""
import numpy as np
import txoracle as tx

rng = np.random.default_rng(2024)
c = tx.Counter()
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128, "S"]


def rand_shape(max_rank=6, zero=True, lo=0):
    r = int(rng.integers(lo, max_rank + 1))
    choices = [0, 1, 2, 3, 4] if zero else [1, 2, 3, 4]
    return tuple(int(d) for d in rng.choice(choices, size=r, p=[0.1, 0.2, 0.3, 0.2, 0.2] if zero else None))


def arr(shape, dt):
    if dt == "S":
        n = int(np.prod(shape))
        words = [b"", b"a", b"bc", b"xyz", b"\x01\xff", b"long string 123"]
        return np.array([words[int(i)] for i in rng.integers(0, len(words), size=n)], dtype="S15").reshape(shape)
    if dt == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    x = rng.standard_normal(shape) * 100
    if np.issubdtype(dt, np.complexfloating):
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dt)


def same(got, want, what):
    want = np.asarray(want)
    if want.dtype.kind == "S":
        got = np.asarray(got)
        if got.dtype.kind != "S" or got.shape != want.shape or got.tolist() != want.tolist():
            raise AssertionError("%s: got %r, want %r" % (what, got, want))
        return
    tx.assert_same(got, want, what)


def pick_dtype(i):
    return DTYPES[i % len(DTYPES)]


# ---- strided_slice vs Python slicing ------------------------------------------------------------

def rand_index(shape):
    """A random index tuple for an array of `shape` that NumPy accepts, and TF's encoding of it."""
    items = []
    dims = list(shape)
    use_ellipsis = rng.random() < 0.4
    n_real = int(rng.integers(0, len(dims) + 1))
    # Which real dims the explicit specs cover: a prefix, and with an ellipsis also a suffix.
    if use_ellipsis:
        k = int(rng.integers(0, n_real + 1))
        covered = dims[:k] + ["..."] + dims[len(dims) - (n_real - k):] if n_real - k else dims[:k] + ["..."]
    else:
        covered = dims[:n_real]
    for d in covered:
        while rng.random() < 0.15:
            items.append(None)
        if d == "...":
            items.append(Ellipsis)
            continue
        if d > 0 and rng.random() < 0.25:
            items.append(int(rng.integers(-d, d)))
            continue
        def bound():
            if rng.random() < 0.25:
                return None
            return int(rng.integers(-d - 3, d + 4))
        step = None if rng.random() < 0.3 else int(rng.choice([-3, -2, -1, 1, 2, 3, 5]))
        items.append(slice(bound(), bound(), step))
    if rng.random() < 0.2:
        items.append(None)
    begin, end, strides = [], [], []
    masks = dict(begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0)
    for i, it in enumerate(items):
        b, e, s = 0, 0, 1
        if it is Ellipsis:
            masks["ellipsis_mask"] |= 1 << i
        elif it is None:
            masks["new_axis_mask"] |= 1 << i
        elif isinstance(it, int):
            b, e = it, it + 1
            masks["shrink_axis_mask"] |= 1 << i
        else:
            if it.start is None:
                masks["begin_mask"] |= 1 << i
            else:
                b = it.start
            if it.stop is None:
                masks["end_mask"] |= 1 << i
            else:
                e = it.stop
            s = 1 if it.step is None else it.step
        begin.append(b)
        end.append(e)
        strides.append(s)
    return tuple(items), begin, end, strides, masks


def literal(v, dt="int32"):
    return np.array(v, dtype=dt).reshape(len(v))


for i in range(260):
    shape = rand_shape()
    dt = pick_dtype(i)
    a = arr(shape, dt)
    idx, b, e, s, masks = rand_index(shape)
    if len(b) >= 32:
        continue
    # StridedSlice's Index is {int16, int32, int64} (tensorflow/core/ops/array_ops.cc; the CPU
    # kernel reads all three in util/strided_slice_op.cc).
    index_dt = ["int64", "int32", "int16"][i % 3]

    def strided_case():
        got = tx.run("strided_slice", input_=a, begin=literal(b, index_dt), end=literal(e, index_dt),
                     strides=literal(s, index_dt), **masks)
        same(got, a[idx], "strided_slice %s[%s]" % (shape, idx))

    c.check("strided_slice%d" % i, strided_case)


def strided_errors():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    assert "strides[1] must be non-zero" in tx.fails("strided_slice", input_=a, begin=literal([0, 0]),
                                                     end=literal([1, 1]), strides=literal([1, 0]))
    assert "out of bounds" in tx.fails("strided_slice", input_=a, begin=literal([2]), end=literal([3]),
                                       strides=literal([1]), shrink_axis_mask=1)
    assert "multiple ellipses" in tx.fails("strided_slice", input_=a, begin=literal([0, 0]), end=literal([0, 0]),
                                           strides=literal([1, 1]), ellipsis_mask=3)


c.check("strided_errors", strided_errors)

# ---- slice vs a[b:b+s] ----------------------------------------------------------------------------

for i in range(120):
    shape = rand_shape()
    dt = pick_dtype(i + 3)
    a = arr(shape, dt)
    b = [int(rng.integers(0, d + 1)) if d else 0 for d in shape]
    sz = [int(rng.integers(0, d - bb + 1)) if rng.random() < 0.7 else -1 for d, bb in zip(shape, b)]
    want = a[tuple(slice(bb, d if ss == -1 else bb + ss) for bb, ss, d in zip(b, sz, shape))]
    index_dt = "int64" if i % 2 else "int32"

    def slice_case():
        got = tx.run("slice", input_=a, begin=literal(b, index_dt), size=literal(sz, index_dt))
        same(got, want, "slice %s begin %s size %s" % (shape, b, sz))

    c.check("slice%d" % i, slice_case)

# ---- pad vs np.pad --------------------------------------------------------------------------------

CONSTANTS = {np.bool_: ("1", True), np.float16: ("2.5", 2.5), "S": ("zz", b"zz")}
for i in range(300):
    mode = ["CONSTANT", "REFLECT", "SYMMETRIC"][i % 3]
    dt = pick_dtype(i // 3)
    shape = rand_shape(zero=mode != "REFLECT" or rng.random() < 0.1)
    a = arr(shape, dt)
    pads = []
    for d in shape:
        lim = 3 if mode == "CONSTANT" else (d - 1 if mode == "REFLECT" else d)
        pads.append([int(rng.integers(0, max(lim, 0) + 1)) if rng.random() < 0.8 else 0 for _ in range(2)])
    paddings = np.array(pads, dtype=np.int64 if i % 2 else np.int32).reshape(len(shape), 2)
    kwargs = {}
    np_kwargs = {}
    if mode == "CONSTANT":
        if dt == "S":
            np_kwargs["constant_values"] = b""
        if rng.random() < 0.5:
            text, value = CONSTANTS.get(dt, ("7", 7))
            kwargs["constant_values"] = text
            np_kwargs["constant_values"] = value

    def pad_case():
        if mode == "REFLECT" and 0 in shape:
            # TF's MirrorPad requires paddings < D, so an empty dim is refused even without
            # padding; NumPy accepts it.
            assert "not less than 0" in tx.fails("pad", tensor=a, paddings=paddings, mode=mode)
            return
        got = tx.run("pad", tensor=a, paddings=paddings, mode=mode, **kwargs)
        want = np.pad(a, [tuple(p) for p in pads], mode=mode.lower(), **np_kwargs) if shape else a.copy()
        same(got, want, "pad %s %s %s %s" % (mode, shape, pads, dt))

    c.check("pad%d" % i, pad_case)


def pad_errors():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert "less than the dimension size" in tx.fails("pad", tensor=a, paddings=np.array([[0, 0], [3, 0]]), mode="REFLECT")
    assert "no greater than the dimension size" in tx.fails("pad", tensor=a, paddings=np.array([[3, 0], [0, 0]]), mode="SYMMETRIC")
    assert "non-negative" in tx.fails("pad", tensor=a, paddings=np.array([[0, -1], [0, 0]]))
    # TF 2.21 decides: an unknown mode is an invalid argument (MirrorPad's mode attr, tf.pad)
    assert "invalid_argument" in tx.fails("pad", tensor=a, paddings=np.array([[0, 0], [0, 0]]), mode="TORUS")


c.check("pad_errors", pad_errors)

# ---- split (num_split and size_splits) vs np.split ------------------------------------------------

for i in range(150):
    shape = rand_shape(lo=1)
    dt = pick_dtype(i + 5)
    a = arr(shape, dt)
    axis = int(rng.integers(-len(shape), len(shape)))
    d = shape[axis]

    def split_num_case():
        divisors = [n for n in range(1, max(d, 4) + 1) if d % n == 0]
        n = int(rng.choice(divisors))
        got = tx.run("split", value=a, split_dim=axis, num_split=n, outputs=n)
        if n == 1:
            got = [got]
        want = np.split(a, n, axis=axis)
        for k in range(n):
            same(got[k], want[k], "split %s axis %d into %d, part %d" % (shape, axis, n, k))

    def split_sizes_case():
        n = int(rng.integers(2, 5))
        cuts = sorted(int(x) for x in rng.integers(0, d + 1, size=n - 1))
        sizes = [b - a_ for a_, b in zip([0] + cuts, cuts + [d])]
        given = list(sizes)
        if rng.random() < 0.5:
            given[int(rng.integers(0, n))] = -1
        got = tx.run("split", value=a, split_dim=axis, size_splits=given, outputs=n)
        want = np.split(a, cuts, axis=axis)
        for k in range(n):
            same(got[k], want[k], "split %s axis %d sizes %s, part %d" % (shape, axis, given, k))

    def unpack_case():
        inferred = rng.random() < 0.5
        kw = {} if inferred else {"num": d}
        got = tx.run("unpack", value=a, axis=axis, outputs=d, **kw) if d else []
        if d == 1:
            got = [got]
        ax = axis % len(shape)
        for k in range(d):
            same(got[k], a[(slice(None),) * ax + (k,)], "unpack %s axis %d, part %d" % (shape, axis, k))

    c.check("split_num%d" % i, split_num_case)
    c.check("split_sizes%d" % i, split_sizes_case)
    if d <= 4:
        c.check("unpack%d" % i, unpack_case)


def split_errors():
    a = np.arange(6, dtype=np.int16)
    assert "evenly divide" in tx.fails("split", value=a, split_dim=0, num_split=4)
    # tf.split(x, [-1]) is refused by TF's SplitV (one output must be the whole dim).
    assert "only one output" in tx.fails("split", value=a, split_dim=0, size_splits=[-1])
    assert "only have one -1" in tx.fails("split", value=a, split_dim=0, size_splits=[-1, -1], outputs=2)
    assert "must equal num 5" in tx.fails("unpack", value=a, num=5, outputs=5)


c.check("split_errors", split_errors)

# ---- tile vs np.tile ------------------------------------------------------------------------------

for i in range(150):
    shape = rand_shape(max_rank=5)
    dt = pick_dtype(i + 7)
    a = arr(shape, dt)
    reps = [int(rng.choice([0, 1, 1, 2, 3])) if rng.random() < 0.9 else int(rng.integers(5, 40)) for _ in shape]
    mult = np.array(reps, dtype=np.int64 if i % 2 else np.int32).reshape(len(shape))

    def tile_case():
        got = tx.run("tile", input=a, multiples=mult)
        same(got, np.tile(a, reps) if shape else a.copy(), "tile %s by %s" % (shape, reps))

    c.check("tile%d" % i, tile_case)

# ---- ONNX presets: pad EDGE / WRAP vs np.pad, uneven split vs np.split ---------------------------

for i in range(120):
    mode = ["EDGE", "WRAP"][i % 2]
    dt = pick_dtype(i // 2)
    shape = rand_shape()
    a = arr(shape, dt)
    pads = []
    for d in shape:
        # WRAP may go past the dim (np.pad repeats it); an empty dim cannot be padded.
        lim = 0 if d == 0 else (2 * d + 1 if mode == "WRAP" else 4)
        pads.append([int(rng.integers(0, lim + 1)) if rng.random() < 0.8 else 0 for _ in range(2)])
    bad = [k for k, d in enumerate(shape) if d == 0]
    if bad and rng.random() < 0.3:
        pads[bad[0]][int(rng.integers(0, 2))] = int(rng.integers(1, 3))
    paddings = np.array(pads, dtype=np.int64 if i % 4 < 2 else np.int32).reshape(len(shape), 2)

    def preset_pad_case():
        if any(d == 0 and (p[0] or p[1]) for d, p in zip(shape, pads)):
            # np.pad: "can't extend empty axis ... using modes other than 'constant' or 'empty'".
            assert "cannot pad dim" in tx.fails("pad", tensor=a, paddings=paddings, mode=mode)
            return
        got = tx.run("pad", tensor=a, paddings=paddings, mode=mode.lower() if i % 3 == 0 else mode)
        want = np.pad(a, [tuple(p) for p in pads], mode=mode.lower()) if shape else a.copy()
        if mode == "WRAP" and shape and any(p[0] > d or p[1] > d for d, p in zip(shape, pads)):
            # ONNX's torus: out[j] = in[(j - before) mod d].  NumPy < 1.25 pads wrap in rounds and
            # breaks the period when a padding exceeds the dim, so the model is the index rule.
            want = a[np.ix_(*[np.arange(-p[0], d + p[1]) % d for d, p in zip(shape, pads)])]
        same(got, want, "pad %s %s %s %s" % (mode, shape, pads, dt))

    c.check("pad_%s%d" % (mode.lower(), i), preset_pad_case)

for i in range(80):
    shape = rand_shape(lo=1)
    dt = pick_dtype(i + 3)
    a = arr(shape, dt)
    axis = int(rng.integers(-len(shape), len(shape)))
    d = shape[axis]
    k = int(rng.integers(1, d + 3))
    chunk = -(-d // k)

    def uneven_case():
        if (k - 1) * chunk > d:
            assert "leaves nothing for the last part" in tx.fails("split", value=a, split_dim=axis, num_split=k, uneven=True)
            return
        got = tx.run("split", value=a, split_dim=axis, num_split=k, uneven=True, outputs=k)
        if k == 1:
            got = [got]
        want = np.split(a, [chunk * j for j in range(1, k)], axis=axis)
        for j in range(k):
            same(got[j], want[j], "split uneven %s axis %d into %d, part %d" % (shape, axis, k, j))

    c.check("split_uneven%d" % i, uneven_case)

c.finish()
