# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for the gather family: gather (np.take; batch_dims by looping over the batch),
gather_nd (fancy indexing), unique_with_counts (a Python first-occurrence unique with TF's
equality: -0.0 == 0.0 for float32/64, float16 by bit pattern, every NaN distinct),
dynamic_partition (boolean indexing per partition), dynamic_stitch (a Python merge loop, unnamed
rows zero), boolean_mask (boolean indexing at an axis), one_hot (an eye-like comparison with
arange) and sequence_mask (arange compared with the lengths), over random shapes with zero-size
dims, ranks up to 6 and every relevant dtype; plus out-of-range indices that must fail cleanly,
and the out-of-range policies zero/clamp/wrap of gather, gather_nd, one_hot and dynamic_stitch
against np.take / np.ravel_multi_index modes and masks."""
import math

import numpy as np
import txoracle as tx

rng = np.random.default_rng(2024)
c = tx.Counter()

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128, "S"]
# GatherV2 and GatherNd take Tindices {int16, int32, int64} (tensorflow/core/ops/array_ops.cc) and
# register CPU kernels for each (gather_op.cc, gather_nd_op.cc).
INDEX_DTYPES = [np.int32, np.int64, np.int16]


def same(got, want, what):
    """tx.assert_same, except that byte strings compare by value (tensorx writes 'S<longest>')."""
    if np.asarray(want).dtype.kind == "S":
        got, want = np.asarray(got), np.asarray(want)
        if got.dtype.kind != "S" or got.shape != want.shape or got.tolist() != want.tolist():
            raise AssertionError("%s: got %r, want %r" % (what, got, want))
        return
    tx.assert_same(got, want, what)


def rand_shape(min_rank=0, max_rank=6, dims=(0, 1, 2, 3, 4)):
    r = int(rng.integers(min_rank, max_rank + 1))
    return tuple(int(d) for d in rng.choice(dims, size=r))


def arr(shape, dt):
    """Random data; floats include -0.0, inf and NaN; strings are short ASCII words."""
    if dt == "S":
        words = [b"", b"a", b"bb", b"Intel", b"x y", b"\x01\xff", b"OpenVINO"]
        flat = [words[int(i)] for i in rng.integers(0, len(words), int(np.prod(shape, dtype=np.int64)))]
        return np.array(flat, dtype="S8").reshape(shape) if flat else np.zeros(shape, dtype="S1")
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    if dt.kind == "f":
        a = (rng.standard_normal(shape) * 10).astype(dt)
        flat = a.reshape(-1)
        for special in (-0.0, np.inf, np.nan):
            if flat.size and rng.random() < 0.5:
                flat[int(rng.integers(0, flat.size))] = special
        return a
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)


def pool_arr(n, dt):
    """A 1-D array with many repeats (for unique)."""
    pool = arr((max(1, n // 3 + 1),), dt)
    if np.dtype(pool.dtype).kind == "f" and pool.size > 2:
        pool[0], pool[1] = -0.0, 0.0
    return pool[rng.integers(0, pool.size, n)] if n else pool[:0]


# ---- gather ---------------------------------------------------------------------------------------

def ref_gather(params, indices, axis, bd):
    if bd == 0:
        return np.take(params, indices, axis=axis)
    bshape = params.shape[:bd]
    B = int(np.prod(bshape, dtype=np.int64))
    p = params.reshape((B,) + params.shape[bd:])
    i = indices.reshape((B,) + indices.shape[bd:])
    out_shape = params.shape[:axis] + indices.shape[bd:] + params.shape[axis + 1:]
    if B == 0:
        return np.zeros(out_shape, dtype=params.dtype)
    parts = [np.take(p[b], i[b], axis=axis - bd) for b in range(B)]
    return np.stack(parts).reshape(out_shape)


for it in range(70):
    dt = DTYPES[it % len(DTYPES)]
    shape = rand_shape(1, 5)
    params = arr(shape, dt)
    r = len(shape)
    axis = int(rng.integers(0, r))
    bd = int(rng.integers(0, axis + 1)) if rng.random() < 0.4 else 0
    extra = rand_shape(0, 3 if r + 3 <= 8 else 1, dims=(0, 1, 2, 3))
    ishape = shape[:bd] + extra
    dim = shape[axis]
    idt = INDEX_DTYPES[it % 3]
    indices = rng.integers(0, max(dim, 1), ishape).astype(idt)
    out_empty = int(np.prod(shape[:axis] + ishape[bd:] + shape[axis + 1:], dtype=np.int64)) == 0
    if dim == 0 and not out_empty:
        continue  # no valid index exists; the error path is tested below
    ax = axis - r if rng.random() < 0.5 else axis

    def gather_case():
        want = ref_gather(params, indices, axis, bd) if not out_empty or dim else \
            np.zeros(shape[:axis] + ishape[bd:] + shape[axis + 1:], params.dtype)
        kw = dict(params=params, indices=indices, axis=ax)
        if bd:
            kw["batch_dims"] = bd
        same(tx.run("gather", **kw), want, "gather %s axis=%d bd=%d idx%s" % (shape, ax, bd, ishape))

    c.check("gather%d" % it, gather_case)

    def gather_bad_case():
        bad = indices.copy()
        if bad.size == 0:
            return
        bad.reshape(-1)[int(rng.integers(0, bad.size))] = [-1, dim, 1 << 40][it % 3] if idt == np.int64 else [-1, dim][it % 2]
        if out_empty:
            tx.run("gather", params=params, indices=bad, axis=ax, batch_dims=bd)  # TF checks nothing
        else:
            assert "is not in [0, %d)" % dim in tx.fails("gather", params=params, indices=bad, axis=ax, batch_dims=bd)

    c.check("gather_bad%d" % it, gather_bad_case)


# ---- gather_nd ------------------------------------------------------------------------------------

for it in range(50):
    dt = DTYPES[(it * 7) % len(DTYPES)]
    shape = rand_shape(1, 5, dims=(1, 2, 3, 4) if it % 5 else (0, 1, 2, 3))
    params = arr(shape, dt)
    k = int(rng.integers(0, len(shape) + 1))
    batch = rand_shape(0, 2, dims=(0, 1, 2, 3))
    idt = INDEX_DTYPES[it % 3]
    n = int(np.prod(batch, dtype=np.int64))
    cols = [rng.integers(0, max(shape[j], 1), batch) for j in range(k)]
    indices = (np.stack(cols, axis=-1) if k else np.zeros(batch + (0,), np.int64)).astype(idt)

    def nd_case():
        if n > 0 and params.size == 0:
            assert "params is empty" in tx.fails("gather_nd", params=params, indices=indices)
            return
        if k == 0:
            want = np.broadcast_to(params, batch + shape).copy()
        else:
            want = params[tuple(indices[..., j] for j in range(k))]
        same(tx.run("gather_nd", params=params, indices=indices), want,
                       "gather_nd %s indices %s" % (shape, indices.shape))
        if n > 0 and k > 0:
            bad = indices.copy()
            j = int(rng.integers(0, k))
            bad.reshape(-1, k)[int(rng.integers(0, n)), j] = shape[j] if it % 2 else -1
            assert "does not index into param shape" in tx.fails("gather_nd", params=params, indices=bad)

    c.check("gather_nd%d" % it, nd_case)


# ---- unique_with_counts ---------------------------------------------------------------------------

def ref_unique(x):
    kind = x.dtype.kind
    keys = {}
    first, idx = [], []
    for i, v in enumerate(x.tolist()):
        if kind == "f" and math.isnan(v):
            key = ("nan", i)  # NaN != NaN: never matches
        elif x.dtype == np.float16:
            key = int(x[i:i + 1].view(np.uint16)[0])  # TF hashes Eigen::half by bit pattern
        else:
            key = v  # Python: -0.0 == 0.0 and hash alike, as TF's std::hash<float>
        if key not in keys:
            keys[key] = len(first)
            first.append(i)
        idx.append(keys[key])
    y = x[np.array(first, dtype=np.int64)] if first else x[:0]
    count = np.bincount(np.array(idx, dtype=np.int64), minlength=len(first)) if idx else np.zeros(0, np.int64)
    return y, np.array(idx, dtype=np.int64), count


UNIQUE_DTYPES = [d for d in DTYPES if d not in (np.complex64, np.complex128)]
for it in range(45):
    dt = UNIQUE_DTYPES[it % len(UNIQUE_DTYPES)]
    x = pool_arr(int(rng.choice([0, 1, 5, 40, 300])), dt)
    oi = ["int32", "int64"][it % 2]

    def unique_case():
        y, idx, count = tx.run("unique_with_counts", x=x, out_idx=oi, outputs=3)
        wy, widx, wcount = ref_unique(x)
        same(y, wy, "unique y %s" % x.dtype)
        same(idx, widx.astype(oi), "unique idx")
        same(count, wcount.astype(oi), "unique count")

    c.check("unique%d" % it, unique_case)


# ---- dynamic_partition ----------------------------------------------------------------------------

for it in range(40):
    dt = DTYPES[(it * 3) % len(DTYPES)]
    shape = rand_shape(0, 5)
    data = arr(shape, dt)
    prank = int(rng.integers(0, len(shape) + 1))
    num = int(rng.integers(1, 5))
    parts = rng.integers(0, num, shape[:prank]).astype(np.int32)

    def partition_case():
        outs = tx.run("dynamic_partition", data=data, partitions=parts, num_partitions=num, outputs=num)
        outs = outs if num > 1 else [outs]
        for i in range(num):
            same(outs[i], data[parts == i], "dynamic_partition %s/%d part %d" % (shape, prank, i))
        if parts.size:
            bad = parts.copy()
            bad.reshape(-1)[int(rng.integers(0, bad.size))] = num if it % 2 else -1
            assert "is not in [0, %d)" % num in tx.fails("dynamic_partition", data=data, partitions=bad,
                                                         num_partitions=num, outputs=num)

    c.check("dynamic_partition%d" % it, partition_case)


# ---- dynamic_stitch -------------------------------------------------------------------------------

for it in range(40):
    dt = DTYPES[(it * 5) % len(DTYPES)]
    const = rand_shape(0, 3)
    rows = int(rng.integers(0, 8))
    m = int(rng.integers(1, 4))
    ind, dat = [], []
    for _ in range(m):
        ishape = rand_shape(0, 2, dims=(0, 1, 2, 3))
        ind.append(np.asarray(rng.integers(0, max(rows, 1), ishape).astype(np.int32) if rows
                              else np.full(ishape, -1, np.int32)))
        dat.append(np.asarray(arr(ishape + const, dt)))

    def stitch_case():
        flat_i = [a.reshape(-1) for a in ind]
        if any(a.size and int(a.min()) < 0 for a in flat_i):
            # TF 2.21 decides: a negative index fails even when the merge has no rows
            assert "is not in [0, " in tx.fails("dynamic_stitch", indices=ind, data=dat)
            return
        mx = max([int(a.max()) for a in flat_i if a.size] + [-1])
        want = np.zeros((mx + 1,) + const, dtype="S8" if dt == "S" else dat[0].dtype)
        for a, d in zip(flat_i, dat):
            d2 = d.reshape((a.size,) + const)
            for j, v in enumerate(a.tolist()):
                if mx >= 0:
                    want[v] = d2[j]
        got = tx.run("dynamic_stitch", indices=ind, data=dat)
        same(got, want, "dynamic_stitch m=%d const=%s" % (m, const))

    c.check("dynamic_stitch%d" % it, stitch_case)


# ---- boolean_mask ---------------------------------------------------------------------------------

for it in range(50):
    dt = DTYPES[(it * 11) % len(DTYPES)]
    shape = rand_shape(1, 6)
    t = arr(shape, dt)
    r = len(shape)
    axis = int(rng.integers(0, r))
    k = int(rng.integers(1, r - axis + 1))
    mask = rng.random(shape[axis:axis + k]) < 0.5

    def mask_case():
        want = t[(slice(None),) * axis + (mask,)]
        same(tx.run("boolean_mask", tensor=t, mask=mask, axis=axis), want,
                       "boolean_mask %s axis=%d mask %s" % (shape, axis, mask.shape))
        if axis + k < r and k == 1:  # TF's Python slicing accepts the negative axis only then
            same(tx.run("boolean_mask", tensor=t, mask=mask, axis=axis - r), want, "negative axis")
        elif axis + k < r:
            # TF 2.21 decides K > 1: its Python reshapes to rank r - k + 1 and gathers with the
            # same negative axis there, i.e. along dim q = axis - (k - 1), the true entries' flat
            # positions as indices
            q = axis - (k - 1)
            if q < 0:
                assert "Shape must be at least rank" in tx.fails("boolean_mask", tensor=t, mask=mask,
                                                                 axis=axis - r)
                return
            rs = t.reshape(tuple(shape[:axis]) + (mask.size,) + tuple(shape[axis + k:]))
            idx = np.flatnonzero(mask)
            out_shape = rs.shape[:q] + (idx.size,) + rs.shape[q + 1:]
            if np.prod(out_shape) and (idx >= shape[q]).any():
                assert "is not in [0, " in tx.fails("boolean_mask", tensor=t, mask=mask,
                                                    axis=axis - r)
                return
            want2 = np.take(rs, idx, axis=q) if np.prod(out_shape) else \
                np.zeros(out_shape, dtype=t.dtype)
            same(tx.run("boolean_mask", tensor=t, mask=mask, axis=axis - r), want2,
                 "negative axis, K > 1")
        else:
            assert "does not match" in tx.fails("boolean_mask", tensor=t, mask=mask, axis=axis - r)

    c.check("boolean_mask%d" % it, mask_case)


# ---- one_hot --------------------------------------------------------------------------------------

ONE_HOT_VALUES = {"bool": ("true", "false", True, False), "f": ("2.5", "-1.5", 2.5, -1.5),
                  "i": ("3", "-2", 3, -2), "u": ("3", "1", 3, 1), "c": ("2.5", "-1.5", 2.5, -1.5)}
for it in range(50):
    dt = np.dtype([np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64, np.float16,
                   np.float32, np.float64, np.complex64][it % 12])
    ishape = rand_shape(0, 4, dims=(0, 1, 2, 3))
    depth = int(rng.integers(0, 6))
    idt = [np.int32, np.int64, np.uint8, np.int8][it % 4]
    lo = 0 if idt == np.uint8 else -2
    indices = rng.integers(lo, depth + 3, ishape).astype(idt)
    axis = -1 if it % 3 == 0 else int(rng.integers(0, len(ishape) + 1))
    on_t, off_t, on, off = ONE_HOT_VALUES["bool" if dt.kind == "b" else dt.kind]

    def one_hot_case():
        hit = indices.astype(np.int64)[..., None] == np.arange(depth)
        want = np.where(hit, np.array(on, dtype=dt), np.array(off, dtype=dt)).astype(dt)
        want = np.moveaxis(want, -1, axis if axis >= 0 else len(ishape))
        got = tx.run("one_hot", indices=indices, depth=depth, on_value=on_t, off_value=off_t, axis=axis,
                     dtype=dt.name)
        same(got, want, "one_hot %s depth=%d axis=%d %s" % (ishape, depth, axis, dt))

    c.check("one_hot%d" % it, one_hot_case)


# ---- sequence_mask --------------------------------------------------------------------------------

for it in range(40):
    lshape = rand_shape(0, 3, dims=(0, 1, 2, 3, 4))
    ldt = [np.int32, np.int64, np.int8, np.uint16][it % 4]
    lo = 0 if ldt == np.uint16 else -2
    lengths = rng.integers(lo, 8, lshape).astype(ldt)
    maxlen = None if it % 3 == 0 else int(rng.integers(0, 9))
    dt = np.dtype([np.bool_, np.float32, np.int32, np.float16, np.uint8, np.complex64, np.int64, np.float64][it % 8])

    def seq_case():
        m = maxlen if maxlen is not None else max([0] + [int(v) for v in lengths.reshape(-1)])
        want = (np.arange(m) < lengths.astype(np.int64)[..., None]).astype(dt)
        kw = dict(lengths=lengths, dtype=dt.name)
        if maxlen is not None:
            kw["maxlen"] = maxlen
        same(tx.run("sequence_mask", **kw), want, "sequence_mask %s maxlen=%s %s" % (lshape, maxlen, dt))

    c.check("sequence_mask%d" % it, seq_case)


# ---- out-of-range policies (oob=zero|clamp|wrap) -----------------------------------------------------
# The NumPy model: clamp is np.take(mode='clip') / np.ravel_multi_index(mode='clip'), wrap is
# mode='wrap' (Python's modulo for negatives), zero takes a safe index and then zeroes the slices
# of out-of-range indices through a mask.  Indices run well outside [0, dim) and include extremes.

POLICIES = ["zero", "clamp", "wrap"]


def wild_indices(shape, dim, idt):
    lim = 2 * dim + 3
    v = rng.integers(-lim, lim + 1, shape).astype(np.int64)
    info = np.iinfo(idt)
    flat = v.reshape(-1)
    for _ in range(2):
        if flat.size and rng.random() < 0.5:
            big = min(1 << 30, info.max)  # int16 indices: its own extremes
            flat[int(rng.integers(0, flat.size))] = [info.min, info.max, -big, big][int(rng.integers(0, 4))]
    return v.astype(idt)


def zeros_like_out(shape, dtype):
    return np.zeros(shape, dtype=dtype)


def take_policy(p, idx, axis, pol):
    """np.take along axis under an oob policy (dim > 0)."""
    dim = p.shape[axis]
    if pol == "clamp":
        return np.take(p, idx.astype(np.int64), axis=axis, mode="clip")
    if pol == "wrap":
        # np.take's mode='wrap', with the modulo taken first: NumPy wraps by repeated
        # subtraction, which never ends for indices near 2^63.
        return np.take(p, np.mod(idx.astype(np.int64), dim), axis=axis, mode="wrap")
    ok = (idx >= 0) & (idx < dim)
    res = np.take(p, np.where(ok, idx, 0).astype(np.int64), axis=axis)
    mask = ok.reshape((1,) * axis + idx.shape + (1,) * (p.ndim - axis - 1))
    return np.where(mask, res, np.zeros((), dtype=p.dtype))


def ref_gather_oob(params, indices, axis, bd, pol):
    out_shape = params.shape[:axis] + indices.shape[bd:] + params.shape[axis + 1:]
    if int(np.prod(out_shape, dtype=np.int64)) == 0:
        return np.zeros(out_shape, params.dtype)
    if params.shape[axis] == 0:
        return None if pol != "zero" else np.zeros(out_shape, params.dtype)
    if bd == 0:
        return take_policy(params, indices, axis, pol)
    B = int(np.prod(params.shape[:bd], dtype=np.int64))
    p = params.reshape((B,) + params.shape[bd:])
    i = indices.reshape((B,) + indices.shape[bd:])
    parts = [take_policy(p[b], i[b], axis - bd, pol) for b in range(B)]
    return np.stack(parts).reshape(out_shape)


for it in range(90):
    dt = DTYPES[(it * 3) % len(DTYPES)]
    pol = POLICIES[it % 3]
    shape = rand_shape(1, 5, dims=(0, 1, 2, 3, 4) if it % 4 == 0 else (1, 2, 3, 4))
    params = arr(shape, dt)
    r = len(shape)
    axis = int(rng.integers(0, r))
    bd = int(rng.integers(0, axis + 1)) if rng.random() < 0.3 else 0
    extra = rand_shape(0, 3 if r + 3 <= 8 else 1, dims=(0, 1, 2, 3))
    ishape = shape[:bd] + extra
    idt = INDEX_DTYPES[(it // 3) % 3]
    indices = wild_indices(ishape, shape[axis], idt)
    ax = axis - r if rng.random() < 0.5 else axis

    def gather_oob_case():
        want = ref_gather_oob(params, indices, axis, bd, pol)
        kw = dict(params=params, indices=indices, axis=ax, oob=pol)
        if bd:
            kw["batch_dims"] = bd
        what = "gather oob=%s %s axis=%d bd=%d idx%s %s" % (pol, shape, ax, bd, ishape, dt)
        if want is None:
            assert "needs params.shape[%d] > 0" % axis in tx.fails("gather", **kw), what
        else:
            same(tx.run("gather", **kw), want, what)

    c.check("gather_oob%d" % it, gather_oob_case)


def ref_gather_nd_oob(params, indices, pol):
    k = indices.shape[-1]
    batch = indices.shape[:-1]
    shape = params.shape
    out_shape = batch + shape[k:]
    if int(np.prod(out_shape, dtype=np.int64)) == 0:
        return np.zeros(out_shape, params.dtype)
    if any(d == 0 for d in shape[:k]):
        return None if pol != "zero" else np.zeros(out_shape, params.dtype)
    flatp = params.reshape((int(np.prod(shape[:k], dtype=np.int64)),) + shape[k:])
    cols = [indices[..., j].astype(np.int64).reshape(-1) for j in range(k)]
    n = int(np.prod(batch, dtype=np.int64))
    if k == 0:
        return np.broadcast_to(params, out_shape).copy()
    if pol == "wrap":  # np.ravel_multi_index(mode='wrap'), modulo first (see take_policy)
        cols = [np.mod(cols[j], shape[j]) for j in range(k)]
    if pol in ("clamp", "wrap"):
        flat = np.ravel_multi_index(tuple(cols), shape[:k], mode="clip" if pol == "clamp" else "wrap")
        return flatp[flat].reshape(out_shape)
    ok = np.ones(n, bool)
    for j in range(k):
        ok &= (cols[j] >= 0) & (cols[j] < shape[j])
    safe = tuple(np.where(ok, cols[j], 0) for j in range(k))
    res = flatp[np.ravel_multi_index(safe, shape[:k])]
    res = np.where(ok.reshape((n,) + (1,) * (len(shape) - k)), res, np.zeros((), params.dtype))
    return res.reshape(out_shape)


for it in range(60):
    dt = DTYPES[(it * 5) % len(DTYPES)]
    pol = POLICIES[it % 3]
    shape = rand_shape(1, 5, dims=(1, 2, 3, 4) if it % 5 else (0, 1, 2, 3))
    params = arr(shape, dt)
    k = int(rng.integers(0, len(shape) + 1))
    batch = rand_shape(0, 2, dims=(0, 1, 2, 3))
    idt = INDEX_DTYPES[(it // 3) % 3]
    cols = [wild_indices(batch, shape[j], idt) for j in range(k)]
    indices = (np.stack(cols, axis=-1) if k else np.zeros(batch + (0,), np.int64)).astype(idt)

    def nd_oob_case():
        want = ref_gather_nd_oob(params, indices, pol)
        what = "gather_nd oob=%s %s idx%s %s" % (pol, shape, indices.shape, dt)
        if want is None:
            assert "needs the indexed dims of params to be non-empty" in \
                tx.fails("gather_nd", params=params, indices=indices, oob=pol), what
        else:
            same(tx.run("gather_nd", params=params, indices=indices, oob=pol), want, what)

    c.check("gather_nd_oob%d" % it, nd_oob_case)


for it in range(45):
    pol = ["error", "zero", "clamp", "wrap"][it % 4]
    ishape = rand_shape(0, 3, dims=(0, 1, 2, 3))
    depth = int(rng.integers(0, 6))
    idt = [np.int32, np.int64, np.uint8, np.int8][(it // 4) % 4]
    indices = wild_indices(ishape, max(depth, 1), idt) if idt != np.uint8 else \
        rng.integers(0, 256, ishape).astype(np.uint8)
    axis = -1 if it % 3 == 0 else int(rng.integers(0, len(ishape) + 1))
    dt = np.dtype([np.float32, np.int32, np.bool_, np.float64][it % 4])

    def one_hot_oob_case():
        v = indices.astype(np.int64)
        if depth > 0 and pol == "clamp":
            v = np.clip(v, 0, depth - 1)
        elif depth > 0 and pol == "wrap":
            v = np.mod(v, depth)
        want = (v[..., None] == np.arange(depth)).astype(dt)
        want = np.moveaxis(want, -1, axis if axis >= 0 else len(ishape))
        got = tx.run("one_hot", indices=indices, depth=depth, axis=axis, dtype=dt.name, oob=pol)
        same(got, want, "one_hot oob=%s %s %s depth=%d axis=%d" % (pol, ishape, indices.dtype, depth, axis))

    c.check("one_hot_oob%d" % it, one_hot_oob_case)


for it in range(45):
    dt = DTYPES[(it * 7) % len(DTYPES)]
    pol = POLICIES[it % 3]
    const = rand_shape(0, 3)
    rows = int(rng.integers(0, 8))
    m = int(rng.integers(1, 4))
    ind, dat = [], []
    for _ in range(m):
        ishape = rand_shape(0, 2, dims=(0, 1, 2, 3))
        v = rng.integers(-2 * rows - 3, max(rows, 1), ishape).astype(np.int64)
        if v.size and rng.random() < 0.3:
            v.reshape(-1)[0] = np.iinfo(np.int32).min
        ind.append(np.asarray(v.astype(np.int32)))
        dat.append(np.asarray(arr(ishape + const, dt)))

    def stitch_oob_case():
        flat_i = [a.reshape(-1) for a in ind]
        mx = max([int(a.max()) for a in flat_i if a.size] + [-1])
        nrows = mx + 1
        want = np.zeros((nrows,) + const, dtype="S8" if dt == "S" else dat[0].dtype)
        for a, d in zip(flat_i, dat):
            d2 = d.reshape((a.size,) + const)
            for j, r in enumerate(a.tolist()):
                if nrows == 0:
                    continue
                if r < 0:
                    if pol == "zero":
                        continue
                    r = 0 if pol == "clamp" else r % nrows
                want[r] = d2[j]
        got = tx.run("dynamic_stitch", indices=ind, data=dat, oob=pol)
        same(got, want, "dynamic_stitch oob=%s m=%d const=%s %s" % (pol, m, const, dt))

    c.check("dynamic_stitch_oob%d" % it, stitch_oob_case)


# ---- int16 index limits ---------------------------------------------------------------------------
# GatherOp refuses params.shape[axis] above the index type's maximum; DoGatherNd (gather_nd_op.h)
# refuses params.NumElements() and the slice size above it.  With int16 that is 32767.
def int16_limits():
    p = np.arange(32767, dtype=np.int32) % 1000
    same(tx.run("gather", params=p, indices=np.array([32766, 0, 5], np.int16)), p[[32766, 0, 5]], "int16 top")
    p2 = np.zeros((2, 32768), np.int8)
    assert "params.shape[1] = 32768 is too large for int16 indexing" in \
        tx.fails("gather", params=p2, indices=np.array([0], np.int16), axis=1)
    same(tx.run("gather", params=p2, indices=np.array([1], np.int16)), p2[[1]], "int16 other axis")
    same(tx.run("gather", params=p2, indices=np.array([1], np.int32), axis=1), p2[:, [1]], "int32 same axis")
    assert "too many for int16 indexing" in tx.fails("gather_nd", params=p2, indices=np.array([[1]], np.int16))
    e = np.zeros((0, 40000), np.int8)
    assert "slice size 40000 is too large for int16 indexing" in \
        tx.fails("gather_nd", params=e, indices=np.zeros((0, 1), np.int16))


c.check("int16_limits", int16_limits)

c.finish()
