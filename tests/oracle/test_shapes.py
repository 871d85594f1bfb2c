# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for the shapes group: reshape (with -1), squeeze (all / listed, negative dims),
expand_dims, shape, size, rank over random shapes (incl. zero-size dims) and dtypes."""
import numpy as np
import txoracle as tx

rng = np.random.default_rng(7)
c = tx.Counter()
DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32, np.float64, np.complex64]


def rand_shape(max_rank=6):
    r = int(rng.integers(0, max_rank + 1))
    return tuple(int(d) for d in rng.choice([0, 1, 1, 2, 3, 4], size=r))


def arr(shape, dt):
    return (rng.standard_normal(shape) * 50).astype(dt)


for i in range(60):
    shape = rand_shape()
    dt = DTYPES[i % len(DTYPES)]
    a = arr(shape, dt)

    def reshape_case():
        perm = list(rng.permutation(len(shape))) if shape else []
        target = [shape[p] for p in perm]
        if target and all(d != 0 for d in target) and rng.random() < 0.7:
            target[int(rng.integers(0, len(target)))] = -1
        got = tx.run("reshape", tensor=a, shape=target)
        tx.assert_same(got, a.reshape(target), "reshape %s -> %s" % (shape, target))

    def squeeze_case():
        tx.assert_same(tx.run("squeeze", input=a), np.squeeze(a), "squeeze %s" % (shape,))
        ones = [d for d, n in enumerate(shape) if n == 1]
        if ones:
            pick = [d - len(shape) if rng.random() < 0.5 else d for d in ones[: int(rng.integers(1, len(ones) + 1))]]
            tx.assert_same(tx.run("squeeze", input=a, squeeze_dims=pick), np.squeeze(a, axis=tuple(pick)),
                           "squeeze %s %s" % (shape, pick))

    def expand_case():
        d = int(rng.integers(-len(shape) - 1, len(shape) + 1))
        tx.assert_same(tx.run("expand_dims", input=a, dim=d), np.expand_dims(a, d), "expand_dims %s %d" % (shape, d))

    def shape_case():
        tx.assert_same(tx.run("shape", input=a), np.array(shape, dtype=np.int32).reshape(len(shape)), "shape")
        tx.assert_same(tx.run("shape", input=a, out_type="int64"), np.array(shape, dtype=np.int64).reshape(len(shape)), "shape64")
        tx.assert_same(tx.run("size", input=a), np.array(a.size, dtype=np.int32), "size")
        tx.assert_same(tx.run("rank", input=a), np.array(a.ndim, dtype=np.int32), "rank")

    c.check("reshape%d" % i, reshape_case)
    c.check("squeeze%d" % i, squeeze_case)
    c.check("expand%d" % i, expand_case)
    c.check("shape%d" % i, shape_case)


def errors():
    a = np.zeros((2, 3), np.float32)
    assert "more than one -1" in tx.fails("reshape", tensor=a, shape=[3, -1, -1])
    # TF's testReshapeWithManyDims: [[1]] to an int64 shape of 254 ones is "too many dimensions"
    # (ReshapeOp in tensorflow/core/kernels/reshape_op.h wants fewer than 254 entries).
    one = np.ones((1, 1), np.int32)
    assert "too many dimensions: must be < 254, but received 254" in \
        tx.fails("reshape", tensor=one, shape=np.ones(254, np.int64))
    # (253 entries succeed: NumPy cannot hold that rank, so the unit and CLI tests check it.)
    assert "cannot squeeze dim 0" in tx.fails("squeeze", input=a, squeeze_dims=[0])
    assert "out of range" in tx.fails("expand_dims", input=a, dim=3)


c.check("errors", errors)
c.finish()
