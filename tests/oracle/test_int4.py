# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for int4 / uint4 (one element per byte; .npy as [('int4', '|i1')] / [('uint4', '|u1')]).

Model: TF (ml_dtypes' intN) converts to the 8-bit underlying type and keeps the low 4 bits, so a
cast to int4 is NumPy's int64 value wrapped modulo 16, stored as the low nibble with zeros above
(TF 2.21 decides: int4 -6 is the byte 0x0a); a cast from int4 is the same value as int8.  Inputs
read only each byte's low nibble.  Floats are drawn inside int32's range and without NaN, where NumPy's
truncation and x86's agree.  Data movement on int4 must equal the same op on int8.
"""
import warnings

import numpy as np
import txoracle as tx

warnings.simplefilter("ignore")
rng = np.random.default_rng(29)
c = tx.Counter()
FIELD = {"int4": ("int4", "i1"), "uint4": ("uint4", "u1")}


def wrap(v, name):
    """The bytes tensorx (and TF 2.21) store for values v: the low nibble, zeros above."""
    low = np.asarray(v, np.int64) & 15
    return low.astype(np.int8 if name == "int4" else np.uint8)


def as4(values, name):
    """A NumPy record array in tensorx's .npy layout for the 4-bit dtype."""
    f, st = FIELD[name]
    return np.asarray(values, st).view([(f, st)])


def plain(rec, name):
    if rec.dtype.names != (name,):
        raise AssertionError("descr %s, want field %s" % (rec.dtype, name))
    return rec[name].copy()


for name in ("int4", "uint4"):
    ints = rng.integers(-(2**40), 2**40, size=300)
    for src in (np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64):
        x = ints.astype(src)
        c.check("%s from %s" % (name, np.dtype(src)), lambda: tx.assert_same(
            plain(tx.run("cast", x=x, dtype=name), name), wrap(x.astype(np.int64), name), "cast"))
    for src in (np.float32, np.float64):
        f = (rng.standard_normal(300) * 10.0 ** rng.integers(0, 9, 300)).astype(src)
        c.check("%s from %s" % (name, np.dtype(src)), lambda: tx.assert_same(
            plain(tx.run("cast", x=f, dtype=name), name), wrap(np.trunc(f).astype(np.int64), name), "cast"))
    vals = np.arange(-8, 8) if name == "int4" else np.arange(16)
    rec = as4(vals, name)
    for dst in (np.int8, np.uint8, np.int32, np.uint64, np.float16, np.float32, np.float64, np.complex64, np.bool_):
        c.check("%s to %s" % (name, np.dtype(dst)), lambda: tx.assert_same(
            tx.run("cast", x=rec, dtype=np.dtype(dst).name), vals.astype(dst), "cast"))
    # saturate: clip to the 4-bit range, then convert.
    lo, hi = (-8, 7) if name == "int4" else (0, 15)
    s = rng.integers(-100, 100, size=200).astype(np.int32)
    c.check("%s saturate" % name, lambda: tx.assert_same(
        plain(tx.run("saturate_cast", value=s, dtype=name), name), wrap(np.clip(s, lo, hi), name), "saturate"))
    # data movement equals the same op on int8 storage (inputs written sign-extended, as tensorx
    # before 0.4 wrote them, read as their nibbles; results are nibbles).
    signed = rng.integers(lo, hi + 1, size=(3, 4, 5)).astype(np.int8 if name == "int4" else np.uint8)
    r4 = as4(signed, name)
    base = wrap(signed, name)
    c.check("%s transpose" % name, lambda: tx.assert_same(
        plain(tx.run("transpose", a=r4, perm=[2, 0, 1]), name), base.transpose(2, 0, 1), "transpose"))
    c.check("%s strided_slice" % name, lambda: tx.assert_same(
        plain(tx.run("strided_slice", input_=r4, begin=[2, 0, 1], end=[0, 4, 5], strides=[-1, 2, 2]), name),
        base[2:0:-1, 0:4:2, 1:5:2], "strided_slice"))
    c.check("%s concat" % name, lambda: tx.assert_same(
        plain(tx.run("concat", values=[r4, r4], concat_dim=2), name), np.concatenate([base, base], 2), "concat"))
    c.check("%s gather" % name, lambda: tx.assert_same(
        plain(tx.run("gather", params=r4, indices=[3, 0, 3], axis=1), name), base[:, [3, 0, 3]], "gather"))
    c.check("%s tile" % name, lambda: tx.assert_same(
        plain(tx.run("tile", input=r4, multiples=[1, 2, 1]), name), np.tile(base, (1, 2, 1)), "tile"))
    # .npy written by NumPy: stray high bits are dropped, as ml_dtypes ignores them.
    raw = np.array([0x0F, 0x17, 0xF8, 0x00], np.int8 if name == "int4" else np.uint8)
    low = raw.astype(np.int64) & 15
    want = ((low ^ 8) - 8) if name == "int4" else low
    c.check("%s npy low nibble" % name, lambda: tx.assert_same(
        tx.run("cast", x=as4(raw, name), dtype="int32"), want.astype(np.int32), "npy"))

c.finish()
