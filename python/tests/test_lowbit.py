# SPDX-License-Identifier: Apache-2.0
"""The low-bit dtypes of 2026 (float8 FNUZ, float8_e8m0fnu, float6, float4, int2, uint2) against
ml_dtypes, their reference (TF 2.21 has DataTypes for some of them but no Cast kernel for any).

Checked bit for bit: every code of each type (every byte, canonical or not) cast to every wider
float type and to bool; a sample of float32 bit patterns (every pattern whose low 16 bits are
one of a few values, so every exponent and sign, plus random ones and the midpoints between
neighbouring codes and one ulp either side), every float16 and bfloat16 code, float64 values and
integers cast to each type.  The whole float32 range is scripts/lowbit-exhaustive.py's (its
figures are in docs/casting.md).  Where tensorx differs from ml_dtypes on purpose (float ->
integer out of range follows TF's rule, as for every float type; int2/uint2 wrap as TF's int4
does) the test checks tensorx's rule instead.  Then every data-movement op against NumPy's own
on the ml_dtypes arrays, .npy both ways, and the CLI's literals."""
import os
import subprocess
import sys

import numpy as np
import pytest
import tensorx as tx

ml = pytest.importorskip("ml_dtypes")
# NumPy's and ml_dtypes' "invalid value encountered in cast" / "overflow encountered in cast"
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

FLOATS = ["float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
          "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn"]
INTS = ["int2", "uint2"]
NEW = FLOATS + INTS
WIDER = [np.float16, ml.bfloat16, np.float32, np.float64]


def bits(a):
    a = np.ascontiguousarray(a)
    return a.view(np.dtype("u%d" % a.dtype.itemsize))


def same_bits(ref, got, what):
    got = np.asarray(got)
    assert got.dtype == ref.dtype, what
    bad = np.nonzero(bits(ref).ravel() != bits(got).ravel())[0]
    assert len(bad) == 0, "%s: %d differ, first at %d: ml_dtypes %#x, tensorx %#x" % (
        what, len(bad), bad[0], bits(ref).ravel()[bad[0]], bits(got).ravel()[bad[0]])


def codes(name):
    return np.arange(256, dtype=np.uint8).view(np.dtype(getattr(ml, name)))


def float32_sample():
    rng = np.random.default_rng(38)
    hi = np.arange(1 << 16, dtype=np.uint32) << 16
    low = np.array([0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF], np.uint32)
    x = (hi[:, None] | low[None, :]).ravel()
    rand = rng.integers(0, 1 << 32, 1 << 20, dtype=np.uint64).astype(np.uint32)
    return np.concatenate([x, rand]).view(np.float32)


def midpoints(name):
    """The values halfway between neighbouring finite codes, and one float32 ulp either side."""
    v = codes(name).astype(np.float64)
    v = np.unique(v[np.isfinite(v)])
    mid = ((v[:-1] + v[1:]) / 2).astype(np.float32)
    both = np.concatenate([mid, -mid, v.astype(np.float32)])
    return np.concatenate([both, np.nextafter(both, np.float32(np.inf)),
                           np.nextafter(both, np.float32(-np.inf))])


@pytest.mark.parametrize("name", NEW)
def test_every_code_to_every_wider_float(name):
    for dst in WIDER + [np.bool_]:
        same_bits(codes(name).astype(dst), tx.cast(codes(name), np.dtype(dst)),
                  "%s -> %s" % (name, np.dtype(dst).name))


@pytest.mark.parametrize("name", FLOATS)
def test_floats_to_each_type(name):
    t = np.dtype(getattr(ml, name))
    x = float32_sample()
    for src in (x, midpoints(name), x.astype(np.float64), midpoints(name).astype(np.float64),
                np.arange(1 << 16, dtype=np.uint16).view(np.float16),
                np.arange(1 << 16, dtype=np.uint16).view(ml.bfloat16),
                np.arange(-70000, 70000, dtype=np.int32), np.arange(-300, 300, dtype=np.int64),
                np.arange(256, dtype=np.uint8)):
        same_bits(src.astype(t), tx.cast(src, t), "%s -> %s" % (src.dtype.name, name))


@pytest.mark.parametrize("name", INTS)
def test_int2_follows_tf_int4_rule(name):
    t = np.dtype(getattr(ml, name))
    ints = np.arange(-70000, 70000, dtype=np.int32)
    same_bits(ints.astype(t), tx.cast(ints, t), "int32 -> " + name)  # both wrap modulo 4
    x = float32_sample()
    got = bits(np.asarray(tx.cast(x, t)))
    # TF's rule for int4 (float -> int8 as x86 truncates it, then the low bits) with 2 bits
    with np.errstate(all="ignore"):
        trunc = np.where(np.isfinite(x) & (np.abs(x) < 2.0 ** 31), np.trunc(x), -(2.0 ** 31))
    want = (trunc.astype(np.int64) & 3).astype(np.uint8)
    assert np.array_equal(got, want)
    inside = np.isfinite(x) & ((x > -3) & (x < 2) if name == "int2" else (x > -1) & (x < 4))
    same_bits(x[inside].astype(t), got[inside].view(t), "float32 in range -> " + name)


@pytest.mark.parametrize("name", FLOATS)
def test_saturate_cast_clamps_to_the_range(name):
    t = np.dtype(getattr(ml, name))
    big = ml.finfo(t).max
    least = ml.finfo(t).min  # -max, but E8M0's least value 2^-127 (it has no sign)
    x = np.array([3e38, -3e38, np.inf, -np.inf, 2.0, -2.0], np.float32)
    got = np.asarray(tx.saturate_cast(x, t)).astype(np.float64)
    assert got[0] == big and got[2] == big and got[1] == least and got[3] == least
    assert got[4] == np.float64(np.float32(2.0).astype(t))


@pytest.mark.parametrize("name", FLOATS)
def test_checked_mode_fails_where_the_value_changes(name):
    """Checked mode takes rounding and refuses what is not a rounding: NaN where the type has none,
    infinities it saturates or turns into NaN, magnitudes past the overflow threshold (the
    largest finite value plus half its step), and E8M0's zero and negatives."""
    t = np.dtype(getattr(ml, name))
    fin = ml.finfo(t)
    v = codes(name).astype(np.float64)
    v = np.unique(v[np.isfinite(v) & (v > 0)])
    top, below = v[-1], v[-2]
    # half the step above the largest value, where rounding goes past it (E8M0's next power of two
    # would be 2 * top; in the others the step above the top equals the one below it)
    limit = top * 1.5 if name == "float8_e8m0fnu" else top + (top - below) / 2
    ok = np.array([top, np.nextafter(limit, 0), 1.0, fin.smallest_subnormal
                   if name != "float8_e8m0fnu" else fin.tiny], np.float64)
    got = np.asarray(tx.cast(ok, t, mode="checked"))
    same_bits(ok.astype(t), got, name + " checked, representable or rounding")
    has_nan = name.startswith("float8")
    bad = [limit, -limit if name != "float8_e8m0fnu" else -1.0, np.inf]
    bad += [] if has_nan else [np.nan]
    bad += [0.0] if name == "float8_e8m0fnu" else []
    for x in bad:
        with pytest.raises(tx.InvalidArgumentError, match="cannot hold exactly"):
            tx.cast(np.array([1.0, x]), t, mode="checked")
    if has_nan:
        assert np.isnan(np.asarray(tx.cast(np.array([np.nan]), t, mode="checked")).astype(np.float32)).all()


@pytest.mark.parametrize("name", NEW)
def test_data_movement_ops_against_numpy(name):
    t = np.dtype(getattr(ml, name))
    rng = np.random.default_rng(7)
    b = rng.integers(0, 256, (3, 4, 5), dtype=np.uint8).view(t)
    b = b.astype(np.float32).astype(t)  # canonical bytes, as tensorx holds them
    checks = {
        "transpose": (tx.transpose(b, [2, 0, 1]), np.transpose(b, (2, 0, 1))),
        "concat": (tx.concat([b, b[:1]], 0), np.concatenate([b, b[:1]], 0)),
        "pack": (tx.pack([b, b], axis=1), np.stack([b, b], 1)),
        "reverse": (tx.reverse(b, axis=[1]), b[:, ::-1]),
        "tile": (tx.tile(b, [1, 2, 1]), np.tile(b, (1, 2, 1))),
        "pad": (tx.pad(b, [[1, 0], [0, 2], [0, 0]]),
                np.pad(b.view(np.uint8), ((1, 0), (0, 2), (0, 0))).view(t)),
        "slice": (tx.slice(b, [1, 1, 0], [2, 2, 3]), b[1:3, 1:3, 0:3]),
        "strided_slice": (tx.strided_slice(b, [0, 3, 0], [3, 0, 5], [2, -1, 2]), b[0:3:2, 3:0:-1, 0:5:2]),
        "gather": (tx.gather(b, [2, 0], axis=1), np.take(b, [2, 0], 1)),
        "gather_nd": (tx.gather_nd(b, [[0, 1], [2, 3]]), b[[0, 2], [1, 3]]),
        "boolean_mask": (tx.boolean_mask(b, [True, False, True]), b[[0, 2]]),
        "reshape": (tx.reshape(b, [5, 12]), b.reshape(5, 12)),
        "space_to_depth": (tx.space_to_depth(b[None, :2, :4, :], 2),
                           b[None, :2, :4, :].reshape(1, 1, 2, 2, 2, 5).transpose(0, 1, 3, 2, 4, 5)
                           .reshape(1, 1, 2, 20)),
    }
    for op, (got, want) in checks.items():
        same_bits(np.ascontiguousarray(want), got, "%s of %s" % (op, name))
    parts = tx.split(b, 2, num_split=5)
    for k in range(5):
        same_bits(np.ascontiguousarray(b[:, :, k:k + 1]), parts[k], "split of " + name)


@pytest.mark.parametrize("name", NEW)
def test_arrays_in_and_out_without_copies(name):
    t = np.dtype(getattr(ml, name))
    a = np.arange(24, dtype=np.uint8).view(t).astype(np.float32).astype(t)
    v = tx.reshape(a, [4, 6])  # a view op: the result is the caller's buffer
    assert np.asarray(v).dtype == t and np.shares_memory(np.asarray(v), a)


def cli():
    """The package's own CLI, beside this interpreter (or $TENSORX_CLI, as test_cli.py takes it)."""
    return os.environ.get("TENSORX_CLI") or os.path.join(os.path.dirname(sys.executable), "tensorx")


@pytest.mark.parametrize("name", NEW)
def test_npy_round_trip_and_ml_dtypes_view(name, tmp_path):
    t = np.dtype(getattr(ml, name))
    a = np.arange(256, dtype=np.uint8).view(t).astype(np.float32).astype(t).reshape(16, 16)
    src, out = str(tmp_path / "a.npy"), str(tmp_path / "b.npy")
    # In: tensorx's structured convention, as NumPy writes it; out: the library's writer (the CLI's
    # -o), read back by NumPy as a record array of the bits named after the dtype.
    np.save(src, a.view(np.dtype([(name, np.int8 if name == "int2" else np.uint8)])))
    subprocess.run([cli(), "reshape", "tensor=" + src, "shape=256", "-o", out], check=True)
    rec = np.load(out)
    assert rec.dtype.names == (name,) and rec.shape == (256,)
    same_bits(a.ravel(), rec[name].view(t), name + " .npy through the library")


def test_cli_literals_and_printing():
    out = subprocess.run([cli(), "cast", "x=[1.5,-7,1e9,nan,0.3]:float32", "dtype=float8_e4m3fnuz"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "array([1.5, -7.0, nan, nan, 0.3125], dtype=float8_e4m3fnuz)"
    for name in NEW:
        vals = np.asarray(codes(name).astype(np.float64)[:32])
        text = (lambda v: str(int(v))) if name in INTS else (lambda v: repr(float(v)))
        lit = "[" + ",".join(text(v) for v in vals) + "]:" + name
        out = subprocess.run([cli(), "cast", "x=" + lit, "dtype=float64"], capture_output=True,
                             text=True, check=True).stdout
        got = np.array(eval(out.replace("array(", "(").replace("nan", "float('nan')")
                            .replace("inf", "float('inf')").split(", dtype")[0] + ")"))
        ok = (got == vals) | (np.isnan(got) & np.isnan(vals))
        assert ok.all(), name
