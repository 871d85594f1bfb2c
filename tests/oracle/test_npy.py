# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for .npy I/O: numpy writes every dtype/order/version/byte order it can, tensorx
reads it (`tensorx reshape` to a copy-free identity and back out), numpy reads what tensorx wrote;
and the printed preview of `tensorx info` agrees with numpy's shape and dtype."""
import os
import subprocess
import tempfile

import numpy as np
import txoracle as tx

rng = np.random.default_rng(1234)
c = tx.Counter()
tmp = tempfile.mkdtemp()

DTYPES = ["?", "i1", "u1", "<i2", ">i2", "<u2", ">u2", "<i4", ">i4", "<u4", "<i8", ">i8", "<u8", ">u8",
          "<f2", ">f2", "<f4", ">f4", "<f8", ">f8", "<c8", ">c8", "<c16", ">c16"]


def random_array(dt, shape):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, shape).astype(dt)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, shape, dtype=dt.newbyteorder("="), endpoint=True).astype(dt)
    if dt.kind == "f":
        a = rng.standard_normal(shape).astype(dt)
        if a.size:
            a.reshape(-1)[0] = np.inf
        return a
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dt)


def roundtrip(arr, version=None, name="x"):
    src = os.path.join(tmp, name + ".npy")
    with open(src, "wb") as f:
        np.lib.format.write_array(f, arr, version=version, allow_pickle=False)
    shape = list(arr.shape)
    out = tx.run("reshape", tensor=src, shape=shape if shape else [])
    return out


def check_dtype(dt, shape, order, version):
    a = random_array(dt, shape)
    if order == "F":
        a = np.asfortranarray(a)
    got = roundtrip(a, version)
    want = a.astype(a.dtype.newbyteorder("=")) if a.dtype.byteorder == ">" else a
    tx.assert_same(got, want.copy(order="C"), "%s %s %s v%s" % (dt, shape, order, version))


for dt in DTYPES:
    for shape in [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4, 5)]:
        for order in "CF":
            for version in [(1, 0), (2, 0), (3, 0)]:
                c.check("%s%s%s%s" % (dt, shape, order, version), lambda: check_dtype(dt, shape, order, version))

# Strings: 'S' keeps bytes (numpy strips trailing NULs on both sides), 'U' becomes UTF-8 bytes.
def check_strings():
    s = np.array([b"Intel", b"", b"Open\x00VINO", b"\xff\x01"], dtype="S")
    tx.assert_same(roundtrip(s), s, "S strings")
    u = np.array([["h\u00e9llo", "\u20ac"], ["\U0001F600", ""]], dtype="U")
    want = np.array([[x.encode("utf-8") for x in row] for row in u], dtype="S")
    tx.assert_same(roundtrip(u), want, "U strings")
    u_f = np.asfortranarray(u)
    tx.assert_same(roundtrip(u_f), want, "U strings fortran")


c.check("strings", check_strings)


# bfloat16 / quantized: tensorx writes a one-field structured dtype that numpy can read.
def check_structured():
    x = tx.run("reshape", tensor="[1,2,3]:bfloat16", shape=[3])
    assert x.dtype.names == ("bfloat16",), x.dtype
    assert x["bfloat16"].tolist() == [0x3F80, 0x4000, 0x4040], x["bfloat16"].tolist()
    q = tx.run("reshape", tensor="[-1,2]:qint8", shape=[2])
    assert q.dtype.names == ("qint8",) and q["qint8"].tolist() == [-1, 2]


c.check("structured", check_structured)


def check_info():
    p = os.path.join(tmp, "info.npy")
    np.save(p, np.arange(6, dtype=np.int16).reshape(2, 3))
    r = subprocess.run([tx.TX, "info", p], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "dtype: int16" in r.stdout and "shape: [2, 3]" in r.stdout and "6 elements, 12 bytes" in r.stdout, r.stdout
    assert "array([[0, 1, 2],\n       [3, 4, 5]], dtype=int16)" in r.stdout, r.stdout
    bad = os.path.join(tmp, "bad.npy")
    with open(bad, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00\x10\x00{'descr': '<i4'")
    r = subprocess.run([tx.TX, "info", bad], capture_output=True, text=True)
    assert r.returncode != 0 and "invalid_argument" in r.stderr, r.stderr


c.check("info", check_info)


# tensorx writes np.save's very bytes: the header's spare room for the first dim to grow
# (numpy's GROWTH_AXIS_MAX_DIGITS) and its padding, even when the header ends on 64 bytes.
def check_same_bytes():
    shapes = [(), (0,), (7,), (3, 4), (10**6, 0), (12345678901, 0, 2)]
    shapes += [(1,) * k for k in range(1, 33)] + [(2, 1) + (0,) * k for k in range(30)]
    for k, shape in enumerate(shapes):
        a = np.zeros(shape, dtype=np.int16)
        src, out = os.path.join(tmp, "same%d.npy" % k), os.path.join(tmp, "same%d.out.npy" % k)
        np.save(src, a)
        r = subprocess.run([tx.TX, "reshape", "tensor=" + src, "shape=" + (",".join(map(str, shape)) or "[]"),
                            "-o", out], capture_output=True, text=True)
        assert r.returncode == 0, (shape, r.stderr)
        with open(src, "rb") as f, open(out, "rb") as g:
            want, got = f.read(), g.read()
        assert got == want, (shape, got[:200], want[:200])


c.check("np.save bytes", check_same_bytes)
c.finish()
