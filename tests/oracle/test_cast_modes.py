# SPDX-License-Identifier: Apache-2.0
"""NumPy-model oracle for cast's modes (tx_cast_in_mode through `tensorx cast ... mode=`).

checked: for every pair of NumPy's numeric dtypes, random arrays of exactly convertible values with
inexact ones (NaN, +-inf, fractions, out-of-range values, values that round) planted at random
places.  An independent model, with Python's exact integers and fractions, finds the first element
that does not convert exactly and why; tensorx must fail naming that element and reason, or, when
the model finds none, succeed with the default cast's bits.  Float targets are modelled with TF's
rounding (float16 through float32), with and without exact_float.
saturate: `cast mode=saturate` equals `saturate_cast` bit for bit on random arrays.
"""
import warnings
from fractions import Fraction

import numpy as np
import txoracle as tx

warnings.simplefilter("ignore")
rng = np.random.default_rng(7)
c = tx.Counter()

NUMERIC = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
           np.float16, np.float32, np.float64, np.complex64, np.complex128]
NAME = {np.dtype(t): ("bool" if t is np.bool_ else np.dtype(t).name) for t in NUMERIC}
BAD = [np.nan, np.inf, -np.inf, 0.5, -1.5, 2.75, -1.0, 2.0, 127.0, 128.0, 255.0, 256.0, -129.0, 65504.0,
       65520.0, 70000.0, 1e10, -3e9, 2.0 ** 31, 2.0 ** 63, 2.0 ** 64, 1e20, 1e300, 0.1, 1e-30, 1e-300,
       2.0 ** 24 + 1, 2.0 ** 53 + 2]


def int_range(dt):
    if dt.kind == "b":
        return 0, 1
    i = np.iinfo(dt)
    return int(i.min), int(i.max)


def real_of(dt):
    return np.dtype(np.float32) if dt == np.complex64 else np.dtype(np.float64) if dt == np.complex128 else dt


def round_float(v, src, dst):
    """The value TF's cast gives for the finite real v (a Python int or float) in float dtype dst."""
    if dst == np.float16:
        return float(np.float16(np.float32(v)))  # Eigen's half(T) goes through float32
    return float(dst.type(v))


def check_part(v, src, dst, exact_float):
    """Why the real part v (exact Python number of real dtype src) is inexact in real dtype dst."""
    isf = isinstance(v, float)
    if dst.kind in "biu":
        lo, hi = int_range(dst)
        if isf and v != v:
            return "NaN"
        if isf and v in (np.inf, -np.inf):
            return "infinity"
        if isf and v != int(v):
            return "not an integer"
        return None if lo <= int(v) <= hi else "out of range"
    if isf and (v != v or v in (np.inf, -np.inf)):
        return None
    r = round_float(v, src, dst)
    if r in (np.inf, -np.inf):
        return "out of range"
    if exact_float and Fraction(r) != Fraction(v):
        return "would round"
    return None


def py(x, dt):
    if dt.kind == "b":
        return int(bool(x))
    if dt.kind in "iu":
        return int(x)
    return float(x)


def model(x, dst, exact_float):
    src = x.dtype
    sr, dr = real_of(src), real_of(dst)
    for i, e in enumerate(x.reshape(-1)):
        why = check_part(py(e.real, sr), sr, dr, exact_float)
        if why is None and src.kind == "c":
            im = py(e.imag, sr)
            if dst.kind == "c":
                why = check_part(im, sr, dr, exact_float)
            elif im != 0:
                why = "nonzero imaginary part"
        if why:
            return i, why
    return None


def clean_values(src, dst, n):
    """Values every pair converts exactly: small integers inside both ranges."""
    lo, hi = -100, 100
    for dt in (real_of(src), real_of(dst)):
        if dt.kind in "biu":
            a, b = int_range(dt)
            lo, hi = max(lo, a), min(hi, b)
    return rng.integers(lo, hi + 1, size=n)


def make(src, dst, shape):
    n = int(np.prod(shape))
    v = clean_values(src, dst, n).astype(np.float64)
    if src.kind == "c":
        a = v.astype(src)
    else:
        a = v.astype(src)
    for _ in range(int(rng.integers(0, 4)) if n else 0):
        k = int(rng.integers(0, n))
        b = BAD[int(rng.integers(0, len(BAD)))]
        with np.errstate(all="ignore"):
            if src.kind == "c" and rng.random() < 0.4:
                a[k] = complex(a[k].real, b)
            elif src.kind in "fc":
                a[k] = b
            elif np.isfinite(b) and b == int(b):
                lo, hi = int_range(src)
                if lo <= int(b) <= hi:
                    a[k] = int(b)
            if src.kind == "f" and rng.random() < 0.2:  # a value only exact_float rejects
                a[k] = src.type(1) + src.type(np.finfo(src).eps)
    return a.reshape(shape)


def check_checked(x, dst, exact_float):
    want = model(x, dst, exact_float)
    kw = dict(x=x, dtype=NAME[dst], mode="checked")
    if exact_float:
        kw["exact_float"] = True
    if want is None:
        got = tx.run("cast", **kw)
        tx.assert_same(got, tx.run("cast", x=x, dtype=NAME[dst]), "checked == default")
    else:
        err = tx.fails("cast", **kw)
        i, why = want
        frag = "element %d (index " % i
        if frag not in err or ("cannot hold exactly: " + why) not in err:
            raise AssertionError("want element %d (%s), got %s" % (i, why, err.strip()))


for s in NUMERIC:
    for d in NUMERIC:
        src, dst = np.dtype(s), np.dtype(d)
        for trial in range(3):
            shape = tuple(int(k) for k in rng.integers(1 if trial else 0, 5, size=int(rng.integers(1, 3))))
            x = make(src, dst, shape)
            ef = trial > 0 and dst.kind in "fc"
            c.check("checked %s -> %s%s %s" % (src, dst, " exact" if ef else "", shape),
                    lambda: check_checked(x, dst, ef))

# Float targets: values that only round (exact_float decides) or overflow.
FLOATS = [np.float16, np.float32, np.float64, np.complex64, np.complex128]
for s in FLOATS:
    for d in FLOATS:
        src, dst = np.dtype(s), np.dtype(d)
        eps = float(np.finfo(real_of(src)).eps)
        for v in [0.1, 1.0 + eps, 2.0 ** -30, 2.0 ** -140, 65505.0, 1e39, 2.0 ** 24 + 1]:
            x = clean_values(src, dst, 6).astype(src)
            with np.errstate(all="ignore"):
                x[int(rng.integers(0, 6))] = v
            for ef in (False, True):
                c.check("float %s -> %s %r%s" % (src, dst, v, " exact" if ef else ""),
                        lambda: check_checked(x, dst, ef))

# A flat 1-D case with the bad element far in: the index must be the first one.
x = np.zeros(5000, np.float32)
x[4321] = 0.5
x[4999] = np.nan
c.check("first bad element", lambda: check_checked(x, np.dtype(np.int32), False))

SAT = [np.int8, np.uint8, np.int32, np.uint64, np.float16, np.float32, np.float64, np.complex64]
for s in SAT:
    for d in SAT:
        x = (rng.standard_normal(12) * 10.0 ** rng.integers(0, 12, size=12)).astype(np.float64)
        x[:3] = [np.nan, np.inf, -np.inf]
        with np.errstate(all="ignore"):
            x = x.astype(s) if np.dtype(s).kind in "fc" else np.clip(x, -1e18, 1e18).astype(s)
        c.check("saturate %s -> %s" % (np.dtype(s), np.dtype(d)), lambda: tx.assert_same(
            tx.run("cast", x=x, dtype=NAME[np.dtype(d)], mode="saturate"),
            tx.run("saturate_cast", value=x, dtype=NAME[np.dtype(d)]), "saturate mode"))

c.finish()
