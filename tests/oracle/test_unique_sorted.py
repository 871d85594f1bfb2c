# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for unique_with_counts sorted=true (the ONNX Unique sorted=1 preset):
against np.unique(x, return_index=True, return_inverse=True, return_counts=True), which ONNX's
reference uses (a stable sort, so -0.0/0.0 keep the first seen; NaNs one value, last).  Random
1-D inputs with many repeats over ints, uints, bool, float16/32/64 (with NaN, +-0.0, +-inf) and
byte strings, both out_idx dtypes, sizes 0..300."""
import numpy as np
import txoracle as tx

rng = np.random.default_rng(77)
c = tx.Counter()
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, "S"]


def rand_x(dt, n):
    if dt == "S":
        words = [b"", b"a", b"ab", b"b", b"B", b"\x01\xff", b"abc"]
        return np.array([words[int(i)] for i in rng.integers(0, len(words), size=n)], dtype="S3")
    if dt == np.bool_:
        return rng.random(n) < 0.5
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        pool = rng.integers(info.min, info.max, size=8, dtype=dt, endpoint=True)
        pool[:2] = [info.min, info.max]
        return pool[rng.integers(0, len(pool), size=n)]
    pool = np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 1e-3, 7.0], dtype=dt)
    return pool[rng.integers(0, len(pool), size=n)]


for i in range(200):
    dt = DTYPES[i % len(DTYPES)]
    n = int(rng.choice([0, 1, 2, 5, 17, 300]))
    x = rand_x(dt, n)
    out_idx = "int64" if i % 2 else "int32"

    def case():
        y, idx, cnt = tx.run("unique_with_counts", x=x, out_idx=out_idx, sorted=True, outputs=3)
        wy, _, winv, wcnt = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
        if x.dtype.kind == "S":
            assert y.tolist() == wy.tolist(), (y, wy)
        else:
            tx.assert_same(y, wy, "y %s %d" % (x.dtype, n))
        tx.assert_same(idx, winv.reshape(-1).astype(out_idx), "idx %s %d" % (x.dtype, n))
        tx.assert_same(cnt, wcnt.astype(out_idx), "count %s %d" % (x.dtype, n))

    c.check("unique_sorted%d" % i, case)

c.finish()
