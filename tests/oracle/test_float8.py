# SPDX-License-Identifier: Apache-2.0
"""Exact-model oracle for float8_e5m2 and float8_e4m3fn (ml_dtypes' rules, which TF uses).

ml_dtypes cannot be installed here, so the oracle is a model written from the formats'
definitions with Python's exact fractions (documented in docs/casting.md):
  - a code's value: sign, exponent field, mantissa field (bias 15 / 7; e5m2 codes 0x7c are +-inf
    and above are NaN; e4m3fn has no inf and 0x7f/0xff are NaN);
  - encoding: the nearest value on the grid of finite codes extended by one virtual step past the
    largest (so a tie at the top rounds to the even one of the two), ties to the even code; the
    virtual step, and infinities, give e5m2's inf or e4m3fn's NaN; NaN keeps its sign
    (e5m2 sign|0x7e, e4m3fn sign|0x7f); float16 NaN -> e5m2 keeps the top payload bits;
  - decoding to float32/float64: the exact value; NaN is the target's quiet NaN with the sign.
Inputs: every float16 and every bfloat16 code (exhaustive), float32 and float64 values at every
midpoint between neighbouring codes and one ulp either side, random float32 values, integers
-70000..70000; all 256 codes decoded to float64, float32, float16, bfloat16, int32 and bool; the
saturate mode; the .npy convention both ways; the CLI's literal parser.
"""
import math
import warnings
from fractions import Fraction as Fr

import numpy as np
import txoracle as tx

warnings.simplefilter("ignore")
rng = np.random.default_rng(8)
c = tx.Counter()

# name: (mantissa bits, bias, largest finite code, NaN code, overflow code)
FMT = {"float8_e5m2": (2, 15, 0x7B, 0x7E, 0x7C), "float8_e4m3fn": (3, 7, 0x7E, 0x7F, 0x7F)}


def grid_value(name, code):
    """Value of a positive code 0..maxcode+1 (maxcode+1 is the virtual step past the largest)."""
    m, bias = FMT[name][:2]
    e, f = code >> m, code & ((1 << m) - 1)
    if e == 0:
        return Fr(f, 1 << m) * Fr(2) ** (1 - bias)
    return (1 + Fr(f, 1 << m)) * Fr(2) ** (e - bias)


GRID = {n: [grid_value(n, k) for k in range(FMT[n][2] + 2)] for n in FMT}


def decode(name, code):
    a, neg = code & 0x7F, bool(code & 0x80)
    if name == "float8_e4m3fn" and a == 0x7F or name == "float8_e5m2" and a > 0x7C:
        return math.copysign(math.nan, -1.0 if neg else 1.0)
    if name == "float8_e5m2" and a == 0x7C:
        return -math.inf if neg else math.inf
    v = grid_value(name, a)
    return -float(v) if neg else float(v)  # float() is exact: every value is a float32


def encode(name, x):
    """x: a Python float (its exact value) -> the code."""
    maxcode, nan, over = FMT[name][2:]
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    if math.isnan(x):
        return sign | nan
    if math.isinf(x):
        return sign | over
    a, g = abs(Fr(x)), GRID[name]
    lo, hi = 0, len(g) - 1
    if a >= g[hi]:
        return sign | over
    while hi - lo > 1:  # g[lo] <= a < g[hi]
        mid = (lo + hi) // 2
        if g[mid] <= a:
            lo = mid
        else:
            hi = mid
    d_lo, d_hi = a - g[lo], g[hi] - a
    k = lo if d_lo < d_hi or (d_lo == d_hi and lo % 2 == 0) else hi
    return sign | (over if k > maxcode else k)


def codes_of(arr):
    return np.asarray(arr).view(np.uint8).reshape(-1)


def check_encode(name, x, want, what):
    got = codes_of(tx.run("cast", x=x, dtype=name))
    bad = np.nonzero(got != want)[0]
    if len(bad):
        i = bad[0]
        raise AssertionError("%s: %r -> 0x%02x, want 0x%02x (%d bad)"
                             % (what, x.reshape(-1)[i], got[i], want[i], len(bad)))


for name in FMT:
    maxcode = FMT[name][2]
    # float32 and float64 at every midpoint, one ulp either side, the values themselves.
    for ft in (np.float32, np.float64):
        vals = []
        for k in range(maxcode + 1):
            v, mid = GRID[name][k], (GRID[name][k] + GRID[name][k + 1]) / 2
            m = ft(float(mid))
            assert Fr(float(m)) == mid
            vals += [ft(float(v)), m, np.nextafter(m, ft(0)), np.nextafter(m, ft(np.inf))]
        vals += [ft(0.0), ft(1e-30), ft(np.inf), ft(np.nan), ft(3e38)]
        x = np.array(vals, dtype=ft)
        x = np.concatenate([x, -x])
        want = np.array([encode(name, float(v)) for v in x], np.uint8)
        c.check("%s from %s boundaries" % (name, np.dtype(ft)), lambda: check_encode(name, x, want, name))
    # the CLI's own literal parser (frontend/values.c, written apart from the library) on float64 text
    lit_vals = [v for v in x.tolist() if not math.isnan(v)]
    lit = "[" + ",".join(repr(v) for v in lit_vals) + "]:" + name
    want_lit = np.array([encode(name, v) for v in lit_vals], np.uint8)
    c.check("%s CLI literals" % name, lambda: tx.assert_same(
        codes_of(tx.run("cast", x=lit, dtype=name)), want_lit, "literal"))
    # random float32 over the whole range of the format and beyond
    x = (rng.choice([-1.0, 1.0], 20000) * 2.0 ** rng.uniform(-20, 18, 20000)).astype(np.float32)
    want = np.array([encode(name, float(v)) for v in x], np.uint8)
    c.check("%s from random float32" % name, lambda: check_encode(name, x, want, name))
    # every float16 code
    h = np.arange(65536, dtype=np.uint16)
    x = h.view(np.float16)
    want = np.array([encode(name, float(v)) for v in x], np.uint8)
    if name == "float8_e5m2":  # ml_dtypes keeps the top NaN payload bits from float16
        nan = np.isnan(x)
        want[nan] = ((h[nan] >> 8) | 2).astype(np.uint8)
    c.check("%s from every float16" % name, lambda: check_encode(name, x, want, name))
    # every bfloat16 code (bitcast from uint16 by tensorx; bfloat16 values are float32 << 16)
    bf = tx.run("bitcast", input=h, type="bfloat16")
    f32 = (h.astype(np.uint32) << 16).view(np.float32)
    want = np.array([encode(name, float(v)) for v in f32], np.uint8)
    c.check("%s from every bfloat16" % name, lambda: check_encode(name, bf, want, name))
    # integers (through float32 in ml_dtypes; exact here)
    x = np.arange(-70000, 70001, dtype=np.int32)
    want = np.array([encode(name, float(v)) for v in x], np.uint8)
    c.check("%s from int32" % name, lambda: check_encode(name, x, want, name))

    # all 256 codes decoded
    codes = np.arange(256, dtype=np.uint8)
    f8 = tx.run("bitcast", input=codes, type=name)
    vals = np.array([decode(name, int(k)) for k in codes])

    def check_decode():
        g64 = tx.run("cast", x=f8, dtype="float64")
        g32 = tx.run("cast", x=f8, dtype="float32")
        nan = np.isnan(vals)
        tx.assert_same(g64, vals, "float64")
        tx.assert_same(g32, vals.astype(np.float32), "float32")
        if not np.array_equal(np.signbit(g64[nan]), np.signbit(vals[nan])):
            raise AssertionError("NaN signs")
        q32 = np.where(np.signbit(vals[nan]), 0xFFC00000, 0x7FC00000).astype(np.uint32)
        if not np.array_equal(g32[nan].view(np.uint32), q32):
            raise AssertionError("float32 NaNs are not the quiet NaN with the sign")
        g16 = tx.run("cast", x=f8, dtype="float16").view(np.uint16)
        # TF 2.21 decides: float8 -> float16 goes through float32, every NaN is sign|0x7e00
        # (ml_dtypes' e5m2 -> float16 shift would keep the payload)
        w16 = vals.astype(np.float16).view(np.uint16).copy()
        w16[nan] = np.where(np.signbit(vals[nan]), 0xFE00, 0x7E00)
        if not np.array_equal(g16, w16):
            raise AssertionError("float16 bits")
        gbf = codes_of(tx.run("cast", x=f8, dtype="bfloat16")).view(np.uint16)
        wbf = (vals.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
        wbf[nan] = np.where(np.signbit(vals[nan]), 0xFFC0, 0x7FC0)
        if not np.array_equal(gbf, wbf):
            raise AssertionError("bfloat16 bits")
        gi = tx.run("cast", x=f8, dtype="int32")
        fin = np.isfinite(vals)
        wi = np.full(256, -2 ** 31, np.int64)
        wi[fin] = np.trunc(vals[fin])
        tx.assert_same(gi, wi.astype(np.int32), "int32")
        tx.assert_same(tx.run("cast", x=f8, dtype="bool"), (vals != 0) | nan, "bool")
    c.check("%s decode all codes" % name, check_decode)

    # saturate mode: clip to +-max in float32, then encode (NaN stays NaN)
    top = float(GRID[name][maxcode])
    x = np.array([0.5, 1e6, -1e6, np.inf, -np.inf, np.nan, top, top * 1.06, -top * 1.2], np.float32)
    want = np.array([encode(name, float(v) if math.isnan(v) else max(-top, min(top, float(v)))) for v in x],
                    np.uint8)
    c.check("%s saturate" % name, lambda: tx.assert_same(
        codes_of(tx.run("cast", x=x, dtype=name, mode="saturate")), want, "saturate"))

    # .npy: tensorx writes [(name, '|u1')]; a NumPy file in that layout loads as the dtype.
    def check_npy():
        got = tx.run("cast", x=np.array([1.0, -2.0], np.float32), dtype=name)
        if got.dtype.names != (name,) or got.dtype[0] != np.uint8:
            raise AssertionError("descr %s" % got.dtype)
        mine = np.array([encode(name, 0.5), encode(name, -448.0)], np.uint8).view([(name, "u1")])
        back = tx.run("cast", x=mine, dtype="float32")
        tx.assert_same(back, np.array([0.5, -448.0], np.float32), "loaded")
    c.check("%s npy" % name, check_npy)

c.finish()
