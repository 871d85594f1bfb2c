# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for the casting family.

cast: every pair of NumPy's numeric dtypes (astype) on random arrays (ranks 0-6, zero-size dims,
special values).  NumPy agrees with TF wherever C defines the conversion; where it does not (float
-> integer for NaN and out-of-range values) only in-range elements are compared with astype, and
every element is compared with a model of TF's x86-64 results.  TF-specific rules are modelled
explicitly: complex -> bool looks at the real part only, float64/complex -> float16 rounds through
float32.  bfloat16 (not in NumPy) is checked against a bit-level round-to-nearest-even model.
bitcast: ndarray.view with TF's shape rules.  decode_raw: np.frombuffer with '<' and '>' byte
order, with and without fixed_length.  saturate_cast: TF's Python algorithm (np.clip in the input
type) with exact bound comparisons.  string_to_number: repr() of random numbers.
"""
import warnings

import numpy as np
import txoracle as tx

warnings.simplefilter("ignore")
rng = np.random.default_rng(2024)
c = tx.Counter()

NUMERIC = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
           np.float16, np.float32, np.float64, np.complex64, np.complex128]
NAMES = {np.dtype(t): np.dtype(t).name for t in NUMERIC}
NAMES[np.dtype(np.bool_)] = "bool"
SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 127.0, 128.0, 255.0, 256.0, -129.0, 300.7,
           32767.0, 65504.0, 65519.0, 65520.0, 2.0 ** 31 - 1, 2.0 ** 31, -2.0 ** 31, 2.0 ** 32, 2.0 ** 63,
           -2.0 ** 63, 2.0 ** 64, 1e20, -1e20, 1e300, np.nan, np.inf, -np.inf, 1e-40, 6e-8, 3e-8]


def rand_shape(max_rank=6):
    r = int(rng.integers(0, max_rank + 1))
    return tuple(int(d) for d in rng.choice([0, 1, 2, 3, 4, 5], size=r, p=[0.05, 0.25, 0.25, 0.2, 0.15, 0.1]))


def rand_array(shape, dt):
    dt = np.dtype(dt)
    n = int(np.prod(shape))
    if dt.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dt)
        small = rng.integers(-300, 300, size=n).astype(dt)
        return np.where(rng.random(n) < 0.5, a, small).reshape(shape)
    if dt.kind == "f":
        with np.errstate(all="ignore"):
            a = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 12, size=n)).astype(dt)
            sp = np.array(SPECIAL)[rng.integers(0, len(SPECIAL), size=n)].astype(dt)
        return np.where(rng.random(n) < 0.3, sp, a).reshape(shape)
    re = rand_array(shape, np.float64 if dt == np.complex128 else np.float32)
    im = rand_array(shape, np.float64 if dt == np.complex128 else np.float32)
    return (re + 1j * im.astype(re.dtype)).astype(dt)


def cvtt(x, bits):
    """x86-64 cvttsd2si: truncation; INT_MIN of the width for NaN and out of range."""
    lim = 2.0 ** (bits - 1)
    ok = np.isfinite(x) & (x >= -lim) & (x < lim)
    return np.where(ok, np.trunc(np.where(ok, x, 0)), -lim).astype(np.int64)


def tf_float_to_int(x, to):
    """TF's float -> integer cast on x86-64 (see src/kernels/scalar/convert.h)."""
    x = x.astype(np.float64)
    to = np.dtype(to)
    if to.itemsize <= 2 or to == np.int32:
        return cvtt(x, 32).astype(to)
    if to in (np.dtype(np.uint32), np.dtype(np.int64)):
        return cvtt(x, 64).astype(to)
    big = (x >= 2.0 ** 63) & (x < 2.0 ** 64)
    hi = (np.where(big, x, 2.0 ** 63) - 2.0 ** 63).astype(np.uint64) + np.uint64(2 ** 63)
    return np.where(big, hi, cvtt(x, 64).view(np.uint64))


def tf_cast(a, to):
    """The result TF gives, built from NumPy where NumPy is defined."""
    to = np.dtype(to)
    src = a.dtype
    if src.kind == "c" and to.kind != "c":
        a = a.real  # TF keeps the real part, for bool too
        src = a.dtype
    if to == np.float16 and src.kind in "fc" and src != np.float16:
        return a.astype(np.complex64 if src.kind == "c" else np.float32).astype(to)
    if src.kind == "f" and to.kind in "iu":
        return tf_float_to_int(a, to)
    return a.astype(to)


def in_range(a, to):
    to = np.dtype(to)
    x = (a.real if a.dtype.kind == "c" else a).astype(np.float64)
    info = np.iinfo(to)
    with np.errstate(all="ignore"):
        t = np.trunc(x)
        return np.isfinite(x) & (t >= float(info.min)) & (t <= float(info.max)) & (np.abs(t) < 2.0 ** 63)


def cast_pair(src, dst):
    a = rand_array(rand_shape(), src)
    got = tx.run("cast", x=a, dtype=NAMES[np.dtype(dst)])
    want = tf_cast(a, dst)
    tx.assert_same(got, want, "cast %s -> %s %s" % (np.dtype(src), np.dtype(dst), a.shape))
    if np.dtype(src).kind in "fc" and np.dtype(dst).kind in "iu" and a.size:
        # NumPy's own astype wherever C defines the conversion
        m = in_range(a, dst)
        with np.errstate(all="ignore"):
            np_want = (a.real if a.dtype.kind == "c" else a).astype(dst)
        tx.assert_same(got[m], np_want[m], "astype in range %s -> %s" % (np.dtype(src), np.dtype(dst)))


for src in NUMERIC:
    for dst in NUMERIC:
        c.check("cast %s->%s" % (np.dtype(src), np.dtype(dst)), lambda: cast_pair(src, dst))


# ---- bfloat16 (tensorx writes it as a one-field structured dtype) ----
BF16 = np.dtype([("bfloat16", "<u2")])


def bf16_bits(f32):
    b = np.asarray(f32, np.float32).view(np.uint32).astype(np.int64)
    r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f32)
    return np.where(nan, (((b >> 16) & 0x8000) | 0x7FC0).astype(np.uint16), r)


def bf16_case(src):
    a = rand_array(rand_shape(), src)
    got = tx.run("cast", x=a, dtype="bfloat16")
    assert got.dtype == BF16, got.dtype
    base = a.real if a.dtype.kind == "c" else a
    want = bf16_bits(base.astype(np.float32))
    if not np.array_equal(got["bfloat16"], want):
        raise AssertionError("cast %s -> bfloat16 differs" % np.dtype(src))
    back = tx.run("cast", x=got, dtype="float32")  # exact: the bits shifted left 16
    if back.tobytes() != np.left_shift(np.asarray(want, np.uint32), np.uint32(16)).astype(np.uint32).tobytes():
        raise AssertionError("bfloat16 -> float32 differs")


for src in NUMERIC:
    c.check("bf16 %s" % np.dtype(src), lambda: bf16_case(src))


# ---- bitcast: ndarray.view ----
VIEWABLE = [t for t in NUMERIC if t is not np.bool_]


def bitcast_pair(src, dst):
    si, di = np.dtype(src).itemsize, np.dtype(dst).itemsize
    shape = list(rand_shape(5))
    if si < di:
        shape.append(di // si)
    a = rand_array(tuple(shape), src)
    if si > di:
        want = tx.host_view(a.reshape(a.shape + (1,)), dst)
    elif si < di:
        want = tx.host_view(a, dst).reshape(a.shape[:-1])
    else:
        want = tx.host_view(a, dst)
    got = tx.run("bitcast", input=a, type=NAMES[np.dtype(dst)])
    if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
        raise AssertionError("bitcast %s%s -> %s: got %s%s" % (a.dtype, a.shape, np.dtype(dst), got.dtype, got.shape))


for i, src in enumerate(VIEWABLE):
    for j, dst in enumerate(VIEWABLE):
        if (i + j) % 2 == 0 or np.dtype(src).itemsize != np.dtype(dst).itemsize:
            c.check("bitcast %s->%s" % (np.dtype(src), np.dtype(dst)), lambda: bitcast_pair(src, dst))


def bitcast_error():
    a = np.ones((3,), np.float32)
    assert "Cannot bitcast from float32 to complex128: shape [3]" in tx.fails("bitcast", input=a, type="complex128")


c.check("bitcast error", bitcast_error)


# ---- decode_raw: np.frombuffer with explicit byte order ----
DECODE = [np.float16, np.float32, np.float64, np.int32, np.uint16, np.uint8, np.int16, np.int8, np.int64,
          np.complex64, np.complex128, np.bool_, np.uint32, np.uint64]  # uint32/64: tensorx extension


def rand_bytes(n):
    b = bytearray(rng.integers(0, 256, size=n, dtype=np.uint8).tobytes())
    if n:
        b[-1] = int(rng.integers(1, 256))  # .npy 'S' strips trailing NULs: keep the last byte non-zero
    return bytes(b)


def decode_case(t, little, fixed):
    dt = np.dtype(t)
    shape = rand_shape(3)
    n = int(np.prod(shape))
    order = "<" if little else ">"
    if fixed is None:
        count = int(rng.integers(1, 5))
        strs = [rand_bytes(count * dt.itemsize) for _ in range(n)]
        rows = strs
        width = count if n else 0  # TF: an empty input gets a last dim of 0
    else:
        width = int(rng.integers(1, 5))
        fl = width * dt.itemsize
        strs = [rand_bytes(int(rng.integers(1, fl + 6))) for _ in range(n)]
        rows = [s[:fl] + b"\0" * max(0, fl - len(s)) for s in strs]
    arr = np.array(strs, dtype="S%d" % max(1, max([len(s) for s in strs] or [1]))).reshape(shape)
    kw = {"input_bytes": arr, "out_type": NAMES[dt], "little_endian": little}
    if fixed is not None:
        kw["fixed_length"] = width * dt.itemsize
    got = tx.run("decode_raw", **kw)
    buf = b"".join(rows)
    if dt == np.bool_:
        want = (np.frombuffer(buf, np.uint8) != 0).reshape(shape + (width,))
    else:
        want = np.frombuffer(buf, dt.newbyteorder(order)).astype(dt).reshape(shape + (width,))
    if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
        raise AssertionError("decode_raw %s %s fixed=%s %s: got %s%s" % (dt, order, fixed, shape, got.dtype, got.shape))


for t in DECODE:
    for little in (True, False):
        c.check("decode_raw %s %s" % (np.dtype(t), little), lambda: decode_case(t, little, None))
        if t not in (np.complex64, np.complex128, np.bool_):
            c.check("decode_raw fixed %s %s" % (np.dtype(t), little), lambda: decode_case(t, little, True))


def decode_scalar_file():
    data = rng.integers(0, 256, size=64, dtype=np.uint8).tobytes()
    p = tx._path(np.zeros(1))[:-4] + ".bin"
    with open(p, "wb") as f:
        f.write(data)
    for order, le in (("<", True), (">", False)):
        got = tx.run("decode_raw", input_bytes="@" + p, out_type="float64", little_endian=le)
        want = np.frombuffer(data, np.dtype("f8").newbyteorder(order)).astype(np.float64)
        if got.tobytes() != want.tobytes():
            raise AssertionError("decode_raw @file %s" % order)


c.check("decode_raw @file", decode_scalar_file)


# ---- encode_raw: each last-dim row's tobytes() in the chosen order (ndarray.astype('>...')) ----
def encode_case(t, little):
    dt = np.dtype(t)
    shape = rand_shape(3) + (int(rng.integers(0, 4)),)
    raw = rng.integers(0, 256, size=int(np.prod(shape)) * dt.itemsize, dtype=np.uint8)
    x = (raw & 1).astype(np.bool_).reshape(shape) if dt == np.bool_ else raw.view(dt).reshape(shape)
    got = tx.run("encode_raw", x=x, little_endian=little)
    order = "<" if little else ">"
    rows = x.reshape(int(np.prod(shape[:-1])), shape[-1]).astype(dt.newbyteorder(order))
    want = [r.tobytes().rstrip(b"\0") for r in rows]  # .npy 'S' drops trailing NULs
    if got.shape != shape[:-1] or [g for g in got.reshape(-1).tolist()] != want:
        raise AssertionError("encode_raw %s %s %s: got %s" % (dt, order, shape, got.shape))
    if shape[-1] and dt.kind not in "cb":  # and back (fixed_length restores the stripped NULs)
        back = tx.run("decode_raw", input_bytes=got, out_type=NAMES[dt], little_endian=little,
                      fixed_length=shape[-1] * dt.itemsize)
        tx.assert_same(back, x, "decode_raw(encode_raw(x))")


for t in NUMERIC:
    for little in (True, False):
        c.check("encode_raw %s %s" % (np.dtype(t), little), lambda: encode_case(t, little))


# ---- saturate_cast: TF's wrapper (clip in the input type), exact comparisons ----
SAT = [t for t in NUMERIC if t is not np.bool_]


def limits(dt):
    dt = np.dtype(dt)
    if dt.kind == "c":
        dt = np.dtype(np.float32 if dt == np.complex64 else np.float64)
    if dt.kind in "iu":
        i = np.iinfo(dt)
        return dt, int(i.min), int(i.max)
    f = np.finfo(dt)
    return dt, float(f.min), float(f.max)


def toward_zero(v, dt):
    return np.nextafter(dt.type(v), dt.type(0), dtype=dt)


def sat_model(a, to):
    to = np.dtype(to)
    if a.dtype.kind == "c" and to.kind == "c":
        rt, rmin, rmax = limits(a.dtype)
        _, omin, omax = limits(to)
        if rmin < omin or rmax > omax:
            a = np.clip(a.real, omin, omax) + 1j * np.clip(a.imag, omin, omax)
            a = a.astype(np.dtype(np.complex128 if rt == np.float64 else np.complex64))
        return tf_cast(a, to)
    if a.dtype.kind == "c":
        a = a.real
    rt, rmin, rmax = limits(a.dtype)
    _, omin, omax = limits(to)
    # TF 2.21 decides: a real input is clipped always (forward_compatible(2024, 11, 1) has passed),
    # so a float's infinities become its finite extremes even into a wider type; an integer
    # input's clip to its own range changes nothing.
    if rt.kind == "f" or rmin < omin or rmax > omax:
        lo = rt.type(max(rmin, omin))
        if float(lo) < omin:  # Python compares int and float exactly
            lo = toward_zero(lo, rt)
        hi = rt.type(min(rmax, omax))
        if (int(hi) if np.isfinite(hi) else hi) > omax:
            hi = toward_zero(hi, rt)
        with np.errstate(all="ignore"):
            a = np.where(np.isnan(a), a, np.minimum(np.maximum(a, lo), hi)).astype(rt) if rt.kind == "f" else np.clip(a, lo, hi)
    return tf_cast(a, to)


def sat_pair(src, dst):
    a = rand_array(rand_shape(4), src)
    got = tx.run("saturate_cast", value=a, dtype=NAMES[np.dtype(dst)])
    tx.assert_same(got, sat_model(a, dst), "saturate_cast %s -> %s" % (np.dtype(src), np.dtype(dst)))


for i, src in enumerate(SAT):
    for j, dst in enumerate(SAT):
        if (i * 7 + j) % 3 == 0 or np.dtype(src).kind != np.dtype(dst).kind:
            c.check("saturate %s->%s" % (np.dtype(src), np.dtype(dst)), lambda: sat_pair(src, dst))


# ---- string_to_number ----
def s2n_case(kind):
    n = int(rng.integers(1, 40))
    if kind == "float32":
        v = rand_array((n,), np.float32)
        v = v[np.isfinite(v)]
        strs = [("  " if k % 3 == 0 else "") + repr(float(x)) for k, x in enumerate(v)]
        strs = [s for s in strs if len(s) < 32]
        want = np.array([np.float32(float(s)) for s in strs], np.float32)
    elif kind == "float64":
        v = rand_array((n,), np.float64)
        v = v[np.isfinite(v)]
        strs = [repr(float(x)) + (" " if k % 4 == 0 else "") for k, x in enumerate(v)]
        strs = [s for s in strs if len(s) < 32]
        want = np.array([float(s) for s in strs], np.float64)
    else:
        dt = np.dtype(kind)
        v = rand_array((n,), dt)
        strs = [(" " if k % 5 == 0 else "") + str(int(x)) for k, x in enumerate(v)]
        want = v
    arr = np.array([s.encode() for s in strs], dtype="S40") if strs else np.zeros((0,), "S1")
    got = tx.run("string_to_number", string_tensor=arr, out_type=kind)
    tx.assert_same(got, want.astype(kind), "string_to_number %s" % kind)


for kind in ("float32", "float64", "int32", "int64"):
    for k in range(3):
        c.check("string_to_number %s %d" % (kind, k), lambda: s2n_case(kind))


def s2n_errors():
    bad = np.array([b"1", b"2147483648"])
    assert "could not correctly convert string: 2147483648" in tx.fails("string_to_number", string_tensor=bad, out_type="int32")
    # TF 2.21 decides: "infinity" parses (absl::SimpleAtof); an all-whitespace string fails
    assert "could not correctly convert" in tx.fails("string_to_number", string_tensor=np.array([b"  "]))


c.check("string_to_number errors", s2n_errors)


# ---- string_tensor_pack / unpack round trip ----
def pack_case():
    shape = rand_shape(4)
    n = int(np.prod(shape))
    strs = [rand_bytes(int(rng.integers(0, 6))) for _ in range(n)]
    arr = np.array(strs, dtype="S8").reshape(shape) if n else np.zeros(shape, "S1")
    b, e, s = tx.run("string_tensor_unpack", data=arr, outputs=3)
    lens = np.array([len(x) for x in arr.reshape(-1)], np.int32).reshape(shape)
    ends = np.cumsum(lens.reshape(-1), dtype=np.int64).astype(np.int32).reshape(shape)
    tx.assert_same(e, ends, "unpack ends")
    tx.assert_same(b, (ends - lens).astype(np.int32), "unpack begins")
    tx.assert_same(s, np.frombuffer(b"".join(arr.reshape(-1).tolist()), np.uint8), "unpack symbols")
    back = tx.run("string_tensor_pack", begins=b.astype(np.int64), ends=e.astype(np.int64), symbols=s)
    tx.assert_same(back.astype(arr.dtype), arr, "pack(unpack(x))")


for k in range(12):
    c.check("pack %d" % k, pack_case)

# ---- string layouts: ONNX Runtime content + offsets, TF_TString records built with struct ----
import struct


def tstring_records(strs):
    """The OFFSET-form TF_TString records of strs, written here independently."""
    n = len(strs)
    recs, tail = b"", b""
    for i, s in enumerate(strs):
        if len(s) <= 22:
            recs += bytes([len(s) << 2]) + s + bytes(23 - len(s))
        else:
            at = 24 * n + len(tail)
            recs += struct.pack("<III", len(s) << 2 | 2, at - 24 * i, 0) + bytes(12)
            tail += s
    return recs + tail


def layout_case():
    shape = rand_shape(3)
    n = int(np.prod(shape))
    strs = [rand_bytes(int(rng.choice([0, 1, 5, 22, 23, 40]))) for _ in range(n)]
    arr = np.array(strs, dtype="S48").reshape(shape) if n else np.zeros(shape, "S1")
    content, offsets = tx.run("string_tensor_to_ort", data=arr, outputs=2)
    lens = [len(x) for x in arr.reshape(-1).tolist()]
    tx.assert_same(content, np.frombuffer(b"".join(arr.reshape(-1).tolist()), np.uint8), "ort content")
    tx.assert_same(offsets, (np.cumsum([0] + lens[:-1]) if n else np.zeros(0)).astype(np.uint64).reshape(shape), "ort offsets")
    back = tx.run("string_tensor_from_ort", content=content, offsets=offsets)
    tx.assert_same(back.astype(arr.dtype), arr, "from_ort(to_ort(x))")
    recs = tx.run("string_tensor_to_tf", data=arr)
    want = np.frombuffer(tstring_records(arr.reshape(-1).tolist()), np.uint8)
    tx.assert_same(recs, want, "TF_TString records")
    back = tx.run("string_tensor_from_tf", records=recs, shape="[" + ",".join(str(d) for d in shape) + "]")
    tx.assert_same(back.astype(arr.dtype), arr, "from_tf(to_tf(x))")


for k in range(12):
    c.check("string layouts %d" % k, layout_case)


c.finish()
