# SPDX-License-Identifier: Apache-2.0
"""test_stream -- streaming, pipes and DLPack against NumPy.

1. Streaming: decode_raw / cast / bitcast forced through the chunked path (TENSORX_STREAM_MIN_BYTES=0,
   random TENSORX_CHUNK_BYTES) must give the very bytes of the normal path, and NumPy's values where
   NumPy defines them (frombuffer with a byte order, view, lossless astype).  Inputs are random:
   every dtype, ranks 0..6 with zero-size dims, big-endian and Fortran-order files.
2. Pipes: chains of `-o -` and `a=-` equal the same ops through files.
3. DLPack with NumPy's own implementation (np.from_dlpack and ndarray.__dlpack__) through ctypes
   on libtensorx.so: zero-copy both ways, and the producer's memory lives exactly as long as the
   last tensorx view.  Skipped in sanitizer builds (an ASan library cannot load into python), in
   static builds (no libtensorx.so) and in builds without DLPack (TX_HAVE_DLPACK=0 from ctest).
"""
import ctypes
import gc
import os
import random
import subprocess
import sys
import tempfile
import weakref

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import txoracle as tx  # noqa: E402

TX = tx.TX
rng = np.random.default_rng(20240909)
random.seed(7)
C = tx.Counter()
tmp = tempfile.TemporaryDirectory()
_n = [0]


def path(ext=".npy"):
    _n[0] += 1
    return os.path.join(tmp.name, "f%d%s" % (_n[0], ext))


def cli(args, env=None, stdin=None):
    e = dict(os.environ)
    e.update(env or {})
    r = subprocess.run([TX] + args, capture_output=True, env=e, input=stdin)
    return r.returncode, r.stdout, r.stderr.decode(errors="replace")


NORMAL = {"TENSORX_STREAM_MIN_BYTES": str(1 << 60)}


def streamed():
    return {"TENSORX_STREAM_MIN_BYTES": "0", "TENSORX_CHUNK_BYTES": str(random.choice([1, 3, 8, 17, 64, 1000, 1 << 20]))}


def both(args):
    """Runs args (ending with -o OUT placeholder) normal and streamed; returns (bytes, bytes, rc, err)."""
    a, b = path(), path()
    rc1, _, e1 = cli(args + ["-o", a], NORMAL)
    env = streamed()
    rc2, _, e2 = cli(args + ["-o", b], env)
    if rc1 != rc2:
        raise AssertionError("normal rc %d (%s) vs streamed rc %d (%s), chunk %s" % (rc1, e1, rc2, e2, env))
    if rc1:
        if e1 != e2:
            raise AssertionError("errors differ:\n%s\n%s" % (e1, e2))
        return None, None, rc1, e1
    x, y = open(a, "rb").read(), open(b, "rb").read()
    if x != y:
        raise AssertionError("streamed bytes differ (chunk %s): %d vs %d bytes" % (env, len(x), len(y)))
    return np.load(a), np.load(b), 0, ""


NUMERIC = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
           "float16", "float32", "float64", "complex64", "complex128"]
DECODE = ["float16", "float32", "float64", "int32", "uint16", "uint8", "int16", "int8", "int64",
          "complex64", "complex128", "bool", "bfloat16"]


def random_shape():
    rank = random.randint(0, 6)
    dims = [random.choice([0, 1, 1, 2, 3, 4, 5]) if random.random() < 0.1 else random.randint(1, 5) for _ in range(rank)]
    return tuple(dims)


def random_array(dt, shape):
    n = int(np.prod(shape)) if shape else 1
    raw = rng.integers(0, 256, size=n * np.dtype(dt).itemsize, dtype=np.uint8).tobytes()
    a = np.frombuffer(raw, dtype=dt).reshape(shape).copy()
    if dt == "bool":
        a = rng.integers(0, 2, size=shape).astype(bool)
    return a


# ---- 1. decode_raw ----
for case in range(60):
    dt = random.choice(DECODE)
    item = 2 if dt == "bfloat16" else np.dtype(dt).itemsize
    n = random.choice([0, 1, 2, 7, 64, 1000])
    raw = rng.integers(0, 256, size=n * item, dtype=np.uint8).tobytes()
    if random.random() < 0.1 and item > 1:
        raw += b"x"  # not a multiple: both paths must fail alike
    f = path(".bin")
    open(f, "wb").write(raw)
    little = random.choice([True, False])

    def check(dt=dt, raw=raw, f=f, little=little, item=item):
        got, _, rc, err = both(["decode_raw", "input_bytes=@" + f, "out_type=" + dt,
                                "little_endian=" + ("true" if little else "false")])
        if len(raw) % item:
            if rc == 0 or "not a multiple" not in err:
                raise AssertionError("odd length accepted: %s" % err)
            return
        if rc:
            raise AssertionError(err)
        order = "<" if little else ">"
        if dt == "bfloat16":
            want = np.frombuffer(raw, dtype=order + "u2").astype(np.uint16)
            got = got.view(np.uint16)
        elif dt == "bool":
            want = np.frombuffer(raw, dtype=np.uint8) != 0
        else:
            want = np.frombuffer(raw, dtype=np.dtype(dt).newbyteorder(order)).astype(dt)
        tx.assert_same(got.reshape(-1), want, "decode_raw %s" % dt)

    C.check("decode_raw %s n=%d little=%s" % (dt, n, little), check)

# ---- cast and bitcast ----
for case in range(80):
    src = random.choice(NUMERIC)
    shape = random_shape()
    a = random_array(src, shape)
    layout = random.choice(["c", "c", "big", "fortran"])
    if layout == "big" and a.dtype.itemsize > 1:
        a = a.astype(a.dtype.newbyteorder(">"))
    if layout == "fortran":
        a = np.asfortranarray(a)
    f = path()
    np.save(f, a)
    to = random.choice(NUMERIC)

    def check_cast(a=a, f=f, to=to, src=src):
        got, _, rc, err = both(["cast", "x=" + f, "dtype=" + to])
        if rc:
            raise AssertionError(err)
        host = a.astype(a.dtype.newbyteorder("="))
        # NumPy's values equal TF's where NumPy calls the conversion safe (no wrap, no NaN or
        # out-of-range float to integer, where TF follows x86 and NumPy C).
        if np.can_cast(src, to, "safe"):
            tx.assert_same(got, host.astype(to), "cast %s->%s" % (src, to))
        elif got.shape != a.shape or got.dtype != np.dtype(to):
            raise AssertionError("cast %s->%s: got %s%s" % (src, to, got.dtype, got.shape))

    C.check("cast %s%s %s -> %s" % (src, shape, layout, to), check_cast)

    bto = random.choice([t for t in NUMERIC if t != "bool"])

    def check_bitcast(a=a, f=f, bto=bto, src=src):
        got, _, rc, err = both(["bitcast", "input=" + f, "type=" + bto])
        i, o = np.dtype(src).itemsize, np.dtype(bto).itemsize
        if src == "bool":
            if rc == 0 or "unimplemented" not in err:
                raise AssertionError("bitcast from bool accepted: %s" % err)
            return
        host = a.astype(a.dtype.newbyteorder("="), order="C")  # (ascontiguousarray makes 0-d 1-d)
        if o > i and (host.ndim == 0 or host.shape[-1] != o // i):
            if rc == 0 or "invalid_argument" not in err:
                raise AssertionError("bad bitcast shape accepted: %s" % err)
            return
        if rc:
            raise AssertionError(err)
        if o > i:
            want = tx.host_view(host, bto).reshape(host.shape[:-1])
        elif o < i:
            want = tx.host_view(host.reshape(host.shape + (1,)), bto)
        else:
            want = tx.host_view(host, bto)
        tx.assert_same(got, want, "bitcast %s->%s" % (src, bto))

    C.check("bitcast %s%s %s -> %s" % (src, shape, layout, bto), check_bitcast)

# Shapes that make a bitcast to a wider type valid, so that path streams too.
for case in range(20):
    src = random.choice(["int8", "uint8", "int16", "float16", "float32"])
    bto = random.choice([t for t in NUMERIC if t != "bool" and np.dtype(t).itemsize > np.dtype(src).itemsize])
    r = np.dtype(bto).itemsize // np.dtype(src).itemsize
    shape = random_shape()[:5] + (r,)
    a = random_array(src, shape)
    f = path()
    np.save(f, a)

    def check_wide(a=a, f=f, bto=bto):
        got, _, rc, err = both(["bitcast", "input=" + f, "type=" + bto])
        if rc:
            raise AssertionError(err)
        tx.assert_same(got, tx.host_view(a.copy(order="C"), bto).reshape(a.shape[:-1]), "bitcast wide")

    C.check("bitcast %s%s -> %s" % (src, shape, bto), check_wide)

# ---- 2. pipes ----
for case in range(15):
    shape = tuple(random.randint(1, 4) for _ in range(random.randint(2, 4)))
    a = random_array(random.choice(NUMERIC), shape)
    f = path()
    np.save(f, a)
    perm = list(range(len(shape)))
    random.shuffle(perm)
    permtxt = ",".join(map(str, perm))

    def check_pipe(a=a, f=f, permtxt=permtxt, perm=perm):
        p1 = subprocess.Popen([TX, "transpose", "a=" + f, "perm=" + permtxt, "-o", "-"], stdout=subprocess.PIPE)
        p2 = subprocess.Popen([TX, "reshape", "tensor=-", "shape=[-1]", "-o", "-"], stdin=p1.stdout, stdout=subprocess.PIPE)
        p1.stdout.close()
        out = p2.communicate()[0]
        if p1.wait() or p2.returncode:
            raise AssertionError("pipe failed")
        o = path()
        open(o, "wb").write(out)
        tx.assert_same(np.load(o), np.transpose(a, perm).reshape(-1), "pipe")

    C.check("pipe transpose | reshape %s" % (shape,), check_pipe)


# ---- 3. DLPack with NumPy ----
def load_lib():
    if os.environ.get("TX_HAVE_DLPACK", "1") == "0":
        print("note: DLPack/NumPy checks skipped: tensorx was built without DLPack (TX_WITH_DLPACK)")
        return None
    so = os.path.join(os.path.dirname(os.path.abspath(TX)), "libtensorx.so")
    # A sanitizer build's library aborts the process that loads it: try in a child first.
    probe = subprocess.run([sys.executable, "-c", "import ctypes, sys; ctypes.CDLL(sys.argv[1])", so],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        why = (probe.stderr.strip().splitlines() or ["?"])[-1][:120]
        print("note: DLPack/NumPy checks skipped: cannot load %s (%s)" % (so, why))
        return None
    return ctypes.CDLL(so)


lib = load_lib()
if lib is not None:
    P = ctypes.c_void_p
    lib.tx_tensor_from_data.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.POINTER(ctypes.c_int64), P, ctypes.c_size_t, ctypes.POINTER(P)]
    lib.tx_tensor_to_dlpack.argtypes = [P, ctypes.POINTER(P)]
    lib.tx_tensor_from_dlpack.argtypes = [P, ctypes.POINTER(P)]
    lib.tx_tensor_data.argtypes = [P]
    lib.tx_tensor_data.restype = P
    lib.tx_tensor_nbytes.argtypes = [P]
    lib.tx_tensor_nbytes.restype = ctypes.c_size_t
    lib.tx_tensor_rank.argtypes = [P]
    lib.tx_tensor_rank.restype = ctypes.c_size_t
    lib.tx_tensor_dims.argtypes = [P]
    lib.tx_tensor_dims.restype = ctypes.POINTER(ctypes.c_int64)
    lib.tx_tensor_dtype.argtypes = [P]
    lib.tx_tensor_free.argtypes = [P]
    lib.tx_dtype_from_name.argtypes = [ctypes.c_char_p]
    lib.tx_last_error.restype = ctypes.c_char_p
    api = ctypes.pythonapi
    api.PyCapsule_New.restype = ctypes.py_object
    api.PyCapsule_New.argtypes = [P, ctypes.c_char_p, P]
    api.PyCapsule_GetPointer.restype = P
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]

    class Exported:
        """What np.from_dlpack consumes: __dlpack__ returns a 'dltensor' capsule."""

        def __init__(self, managed):
            self.managed = managed

        def __dlpack__(self, stream=None):
            return api.PyCapsule_New(self.managed, b"dltensor", None)

        def __dlpack_device__(self):
            return (1, 0)

    DL_DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
                 "float16", "float32", "float64", "complex64", "complex128"]

    for dt in DL_DTYPES:
        shape = tuple(random.randint(1, 40) for _ in range(3)) + (1024,)  # > 128 KiB: mmap'd memory
        a = random_array(dt, shape)

        def to_numpy(a=a, dt=dt):
            t = P()
            dims = (ctypes.c_int64 * a.ndim)(*a.shape)
            code = lib.tx_dtype_from_name(dt.encode())
            assert lib.tx_tensor_from_data(code, a.ndim, dims, a.ctypes.data, a.nbytes, ctypes.byref(t)) == 0
            m = P()
            assert lib.tx_tensor_to_dlpack(t, ctypes.byref(m)) == 0, lib.tx_last_error()
            data = lib.tx_tensor_data(t)
            lib.tx_tensor_free(t)  # the export keeps the buffer
            b = np.from_dlpack(Exported(m))
            if b.ctypes.data != data:
                raise AssertionError("np.from_dlpack copied")
            tx.assert_same(b, a, "to numpy %s" % dt)
            del b  # numpy calls the deleter: the buffer goes (ASan-free builds cannot see it; no crash)
            gc.collect()

        def from_numpy(a=a, dt=dt):
            src = a.copy()
            alive = weakref.ref(src)
            cap = src.__dlpack__()
            managed = api.PyCapsule_GetPointer(cap, b"dltensor")
            t = P()
            st = lib.tx_tensor_from_dlpack(managed, ctypes.byref(t))
            if st != 0:
                raise AssertionError("from_dlpack: %s" % lib.tx_last_error())
            api.PyCapsule_SetName(cap, b"used_dltensor")
            if lib.tx_tensor_data(t) != src.ctypes.data:
                raise AssertionError("tx_tensor_from_dlpack copied")
            if lib.tx_dtype_from_name(dt.encode()) != lib.tx_tensor_dtype(t) or \
                    tuple(lib.tx_tensor_dims(t)[i] for i in range(lib.tx_tensor_rank(t))) != a.shape:
                raise AssertionError("dtype or shape differ")
            del src, cap
            gc.collect()
            if alive() is None:
                raise AssertionError("numpy's array died while tensorx still uses it")
            got = ctypes.string_at(lib.tx_tensor_data(t), lib.tx_tensor_nbytes(t))
            if got != a.tobytes():
                raise AssertionError("bytes differ")
            lib.tx_tensor_free(t)
            gc.collect()
            if alive() is not None:
                raise AssertionError("the deleter was not called when the last tensor went")

        C.check("dlpack tensorx -> numpy %s" % dt, to_numpy)
        C.check("dlpack numpy -> tensorx %s" % dt, from_numpy)

    def strided_from_numpy():
        a = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
        v = a.transpose(2, 0, 1)[::-1]  # negative and permuted strides: tensorx copies
        cap = v.__dlpack__()
        t = P()
        assert lib.tx_tensor_from_dlpack(api.PyCapsule_GetPointer(cap, b"dltensor"), ctypes.byref(t)) == 0
        api.PyCapsule_SetName(cap, b"used_dltensor")
        got = np.frombuffer(ctypes.string_at(lib.tx_tensor_data(t), lib.tx_tensor_nbytes(t)), dtype=np.int32)
        lib.tx_tensor_free(t)
        tx.assert_same(got.reshape(v.shape), v, "strided import")

    C.check("dlpack numpy strided view -> tensorx (copy)", strided_from_numpy)

C.finish()
