# SPDX-License-Identifier: Apache-2.0
"""fuzz_python_values: what fuzz/fuzz_python.py makes of an input's bytes: the byte reader, the
value generators of each parameter kind and the mutations of an example's arguments."""
import array
import math
import warnings

import numpy as np

from fuzz_python_objects import (
    ArrayNotArray, ArrayOldSignature, ArrayRaises, ArrayWrap, BoolRaises, DLPack, FloatRaises,
    HarnessError, Index, IndexClears, IndexNotInt, IndexRaises, IntSub, Interface, ListSub, Named,
    Seq, StrSub, SubArray)

tx = None  # the tensorx package, set by fuzz_python's _init_tables


# ---- the byte reader -------------------------------------------------------------------------
class Reader:
    """Reads the input; past its end every read is 0 (so the shortest inputs are the plainest
    calls, and a mutation that widens a value does not shift everything after it to garbage)."""

    def __init__(self, data):
        self.d = bytes(data)
        self.i = 0

    def byte(self):
        if self.i >= len(self.d):
            return 0
        b = self.d[self.i]
        self.i += 1
        return b

    def below(self, n):
        if n <= 256:
            return self.byte() % n
        return (self.byte() | self.byte() << 8 | self.byte() << 16) % n

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def raw(self, n):
        chunk = self.d[self.i:self.i + n]
        self.i += len(chunk)
        return chunk + bytes(n - len(chunk))

    def chance(self, k):
        """True with probability 1/k (a byte read)."""
        return self.byte() % k == k - 1


# ---- value generators ------------------------------------------------------------------------
EDGE_INTS = [0, 1, -1, 2, 3, 7, 2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**32, 2**40, 2**62,
             2**63 - 1, 2**63, -2**63, -2**63 - 1, 2**64, 2**64 - 1, 2**100, -2**100, 254, 255,
             256, 65535, 65536, -129]
EDGE_FLOATS = [0.0, -0.0, 0.5, 1.5, -2.5, float("nan"), float("inf"), float("-inf"), 1e10,
               -1e10, 3.4e38, 3.5e38, 1e-45, 65504.0, 65520.0, 2.0**63, 2.0**64, -2.0**63, 1e308]
WORDS = ["CONSTANT", "REFLECT", "SYMMETRIC", "EDGE", "WRAP", "constant", "reflect", "error", "zero",
         "clamp", "wrap", "NHWC", "NCHW", "DCR", "CRD", "SAME", "VALID", "xy", "ij", "default",
         "saturate", "checked", "0", "1", "-1", "1.5", "nan", "inf", "-inf", "true", "false",
         "on", "off", "", " ", "1e400", "0x10", "\x00", "a\x00b", "\udc80", "\u00e9",
         "9" * 40, "[]", "[1,2]"]
DTYPE_SPELLINGS = ["half", "float", "double", "tf.float32", "tf.int64", "tf.string", "int", "f4",
                   "<i2", ">f8", "bool_", "str", "bytes", "object", "", " float32", "FLOAT32",
                   "float32\x00", "\udc80", "invalid", "uint4", "int4", "qint8", "quint16",
                   "float8_e4m3fn", "float8_e5m2", "bfloat16", "complex64", "complex128",
                   "float8_e4m3fnuz", "float8_e8m0fnu", "float4_e2m1fn", "float6_e3m2fn", "int2",
                   "uint2",
                   "string", "bool", "float16", "uint64", "int8"]
SHAPES_HUGE = [(2**40, 0), (0, 2**62), (2**31, 2**31, 0), (0,), (1, 0, 3)]

# (int32 first: a zero byte picks the plainest value, and every op takes int32 somewhere)
NP_DTYPES = [np.dtype(t) for t in (
    np.int32, np.float32, np.int64, np.uint8, np.bool_, np.int8, np.int16, np.uint16, np.uint32,
    np.uint64, np.float16, np.float64, np.complex64, np.complex128)]
INT_DTYPES = [np.dtype(t) for t in (np.int32, np.int64, np.uint8, np.int8, np.int16, np.uint16,
                                    np.uint32, np.uint64)]
SMALL = [0, 1, 2, 3, -1, -2, 4, 5, 6]  # small ints, 0 first
ODD_DTYPES = [np.dtype(t) for t in (
    "S3", "S1", "U2", object, "M8[s]", "m8[ns]", "V4", ">i4", ">f8", ">c8", "<u2", "longdouble",
    [("bfloat16", "<u2")], [("int4", "i1")], [("qint8", "i1")], [("float8_e5m2", "u1")],
    [("float4_e2m1fn", "u1")], [("int2", "i1")],
    [("a", "<u2"), ("b", "u1")], [("bfloat16", ">u2")], [("x", "<f4", (2,))])]
if hasattr(np, "dtypes") and hasattr(np.dtypes, "StringDType"):  # NumPy 2
    ODD_DTYPES += [np.dtypes.StringDType(), np.dtypes.StringDType(na_object=None)]
try:
    import ml_dtypes

    ODD_DTYPES += [np.dtype(getattr(ml_dtypes, n)) for n in
                   ("bfloat16", "float8_e5m2", "float8_e4m3fn", "int4", "uint4",
                    "float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "int2", "uint2",
                    "float4_e2m1fn", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn")
                   if hasattr(ml_dtypes, n)]
except ImportError:
    ml_dtypes = None

TX_NAMES = []  # tensorx's dtype names, set by fuzz_python's _init_tables


class Ctx:
    """What a call's arguments allow besides the rule (a DLPack producer: BufferError)."""

    def __init__(self):
        self.allow = set()


def gen_int(r, ctx):
    k = r.below(24)
    if k < 10:
        return r.choice(SMALL)
    if k < 14:
        return r.choice(EDGE_INTS)
    if k == 14:
        return int.from_bytes(r.raw(8), "little", signed=True)
    if k == 15:
        v = r.choice(SMALL)
        t = r.choice(INT_DTYPES)
        return np.array(v % 2**64, dtype=np.uint64).astype(t)[()]
    if k == 16:
        return Index(r.choice(EDGE_INTS + [0, 1, 2, -1]))
    if k == 17:
        return True if r.byte() & 1 else False
    if k == 18:
        return r.choice([IndexRaises(), IndexNotInt(), IntSub(3)])
    if k == 19:
        return IndexClears(r.below(4))  # a list made by gen_list gives it its holder
    if k == 20:
        return r.choice(EDGE_FLOATS)
    if k == 21:
        return r.choice([None, "1", b"1", [1], (), np.array(1), np.array([1, 2]), 1j])
    if k == 22:
        return np.float32(r.below(4))
    return np.int64(r.choice(EDGE_INTS[:14]) if r.byte() & 1 else r.below(5))


def gen_float(r):
    k = r.below(4)
    if k == 0:
        return r.choice(EDGE_FLOATS)
    if k == 1:
        return (r.below(128) - 64) / 4
    return np.frombuffer(r.raw(8), np.float64)[0].item()


def gen_scalar(r, ctx):
    k = r.below(10)
    if k < 3:
        return gen_int(r, ctx)
    if k < 5:
        return gen_float(r)
    if k == 5:
        return bool(r.byte() & 1)
    if k == 6:
        return complex(gen_float(r), gen_float(r))
    if k == 7:
        return gen_bytes(r)
    if k == 8:
        return gen_text(r)
    return r.choice([None, np.float16(1.5), np.uint64(2**64 - 1), np.complex64(1j), np.bool_(1),
                     np.str_("ab"), np.bytes_(b"a\x00"), np.datetime64(1, "s"), object()])


def gen_bytes(r):
    n = r.below(12)
    return r.raw(n)


def gen_text(r):
    k = r.below(4)
    if k < 2:
        return r.choice(WORDS)
    if k == 2:
        return gen_bytes(r).decode("latin-1")
    return StrSub(r.choice(WORDS))


def gen_shape(r):
    if r.chance(16):
        return r.choice(SHAPES_HUGE)
    rank = r.below(5)
    return tuple(r.below(5) for _ in range(rank))


def gen_ndarray(r, ctx, dtype=None, shape=None):
    if dtype is None:
        dtype = r.choice(NP_DTYPES) if r.below(4) < 3 else r.choice(ODD_DTYPES)
    if shape is None:
        shape = gen_shape(r)
    try:
        np.empty(shape, dtype)
    except ValueError:  # NumPy's own limit ("array is too big") on an empty array's dims
        shape = (0,)
    n = math.prod(shape)
    fill = r.below(4)
    if dtype.kind in "SUOT":  # (T: NumPy 2's StringDType)
        items = [gen_bytes(r) if dtype.kind not in "UT" else gen_text(r) for _ in range(min(n, 8))]
        if dtype.kind == "O" and r.chance(4):
            items = [gen_scalar(r, ctx) for _ in range(min(n, 8))]
        a = np.empty(n, dtype=dtype)
        for k in range(n):
            try:
                a[k] = items[k % len(items)] if items else b""
            except (TypeError, ValueError, UnicodeError):
                a[k] = b"" if dtype.kind not in "UT" else ""
        return _layout(r, a.reshape(shape), ctx)
    if fill == 0:  # raw bytes (bools that are not 0/1, NaN payloads, any int)
        a = np.frombuffer(r.raw(n * dtype.itemsize), dtype=dtype).copy()
    elif fill == 1:  # small numbers (quarters for floats)
        vals = [(r.below(128) - 64) / 4 if dtype.kind in "fc" else r.choice(SMALL)
                for _ in range(min(n, 16))]
        a = np.zeros(n, dtype=dtype)
        if vals and dtype.kind in "biufc":
            src = np.array([vals[k % len(vals)] for k in range(n)])
            with np.errstate(all="ignore"):
                a[...] = src.astype(dtype) if dtype.kind != "b" else src != 0
    elif fill == 2:  # 0, 1, 2, ...
        a = np.zeros(n, dtype=dtype)
        if dtype.kind in "biufc":
            with np.errstate(all="ignore"):
                a[...] = np.arange(n).astype(dtype)
    else:  # one value
        a = np.frombuffer(r.raw(dtype.itemsize) * n, dtype=dtype).copy() if n else \
            np.zeros(0, dtype)
    return _layout(r, a.reshape(shape), ctx)


def _layout(r, a, ctx):
    k = r.below(16)
    if k < 7 or a.size == 0:
        return a
    if k == 7 and a.ndim:  # strided: every other element of a doubled array
        b = np.repeat(a, 2, axis=-1)
        return b[..., ::2]
    if k == 8 and a.ndim >= 2:
        return np.asfortranarray(a)
    if k == 9 and a.ndim:
        return a[::-1]
    if k == 10 and a.dtype.kind in "iufc" and a.dtype.itemsize > 1:
        return a.astype(a.dtype.newbyteorder())
    if k == 11 and not a.dtype.hasobject:  # misaligned
        buf = bytearray(a.nbytes + 1)
        m = np.frombuffer(buf, dtype=a.dtype, offset=1, count=a.size).reshape(a.shape)
        m[...] = a
        return m
    if k == 12:
        a.setflags(write=False)
        return a
    if k == 13 and a.ndim:  # zero strides
        return np.broadcast_to(a[..., :1], a.shape)
    if k == 14:
        return a.view(SubArray)
    if k == 15:
        return np.ma.masked_array(a, mask=False)
    return a


def gen_nested(r, ctx, depth=0):
    """A nested list (maybe ragged) of one element type."""
    shape = gen_shape(r)[:3]
    if any(d > 6 for d in shape):
        shape = (2,)
    kind = r.below(8)

    def elem():
        if kind == 0:
            return r.choice(SMALL)
        if kind == 1:
            return (r.below(64) - 32) / 4
        if kind == 2:
            return bool(r.byte() & 1)
        if kind == 3:
            return gen_bytes(r)
        if kind == 4:
            return gen_text(r)
        if kind == 5:
            return r.choice(EDGE_INTS)
        if kind == 6:
            return gen_scalar(r, ctx)
        return r.choice([1, 2.5, b"x", "y", None, [1], Index(1)])

    def build(dims):
        if not dims:
            return elem()
        n = dims[0]
        if r.chance(12):  # ragged
            n += 1
        return [build(dims[1:]) for _ in range(n)]

    v = build(shape)
    if r.chance(8) and isinstance(v, list):
        v = tuple(v)
    return v


def gen_buffer(r, ctx):
    k = r.below(7)
    data = gen_bytes(r)
    if k == 0:
        return bytearray(data)
    if k == 1:
        return memoryview(data)
    if k == 2:
        return memoryview(bytearray(data))[::2]
    if k == 3:
        return array.array("i", [r.choice(SMALL) for _ in range(r.below(5))])
    if k == 4:
        return memoryview(array.array("d", [gen_float(r) for _ in range(r.below(4))]))
    if k == 5:
        n = len(data) // 4 * 4
        return memoryview(data[:n]).cast("B", (n // 4, 4)) if n else memoryview(b"")
    return data


def gen_wrapped(r, ctx):
    k = r.below(9)
    if k == 0:
        return ArrayWrap(gen_ndarray(r, ctx))
    if k == 1:
        return ArrayRaises()
    if k == 2:
        return ArrayNotArray(r.choice([None, [1, 2], "x", 3, object()]))
    if k == 3:
        return ArrayOldSignature(gen_ndarray(r, ctx))
    if k == 4:
        shape = gen_shape(r)[:2]
        typestr = r.choice(["<i4", "<f4", "|u1", "<f2", "|b1", ">i8", "<c8", "|S2", "<i9", "xx"])
        return Interface(gen_bytes(r), typestr, shape)
    if k in (5, 6):
        a = gen_ndarray(r, ctx, dtype=r.choice(NP_DTYPES))
        how = r.below(6)
        ctx.allow.add(BufferError)
        return DLPack(np.ascontiguousarray(a) if r.byte() & 1 else a, how)
    if k == 7:
        return Seq([gen_scalar(r, ctx) for _ in range(r.below(4))], r.below(7))
    ctx.allow.add(BufferError)  # tensorx's own export refuses some arrays
    return tx.dlpack(gen_ndarray(r, ctx, dtype=r.choice(NP_DTYPES)))


def gen_tensor(r, ctx):
    k = r.below(16)
    if k < 6:
        return gen_ndarray(r, ctx)
    if k < 9:
        return gen_nested(r, ctx)
    if k < 11:
        return gen_scalar(r, ctx)
    if k < 13:
        return gen_buffer(r, ctx)
    return gen_wrapped(r, ctx)


def gen_list(r, ctx, item):
    """A list argument: a list (maybe holding an IndexClears), tuple, generator, misbehaving
    sequence or something that is not a list."""
    items = [item(r, ctx) for _ in range(r.below(6))]
    k = r.below(16)
    if k < 8:
        for it in items:
            if isinstance(it, IndexClears):
                it.holder = items
        return items
    if k < 10:
        return tuple(items)
    if k == 10:
        return (x for x in items)
    if k == 11:
        return Seq(items, r.below(7))
    if k == 12:
        return ListSub(items)
    if k == 13:
        return r.choice([range(r.below(4)), {1: 2}, {0, 1}, "ab", b"\x00\x01", iter(items)])
    if k == 14:  # (through int64: NumPy 2 refuses -1 as a uint16 outright)
        return np.array([r.choice(SMALL) for _ in range(r.below(4))], dtype=np.int64).astype(
            r.choice(NP_DTYPES)).reshape(r.choice([(-1,), (-1, 1)]))
    return item(r, ctx)  # one item where a list goes


def gen_dtype(r, ctx):
    k = r.below(12)
    if k < 4:
        return r.choice(TX_NAMES)
    if k < 6:
        return r.choice(DTYPE_SPELLINGS)
    if k == 6:
        return r.choice(TX_NAMES + DTYPE_SPELLINGS).encode("utf-8", "surrogatepass")
    if k == 7:
        return r.choice(NP_DTYPES + ODD_DTYPES)
    if k == 8:
        return r.choice([int, float, bool, complex, str, bytes, object, np.float16, np.bool_,
                         np.str_, np.void, np.generic, np.number, np.int8, np.uint64,
                         np.complex64, np.datetime64])
    if k == 9:
        return Named(r.choice(TX_NAMES + DTYPE_SPELLINGS + [5, None, HarnessError("name")]))
    if k == 10:
        return gen_text(r)
    return r.choice([None, 5, 1.5, [np.float32], b"\xff", (np.int8,), np.array("float32")])


def gen_bool(r, ctx):
    k = r.below(8)
    if k < 5:
        return bool(k & 1)
    if k == 5:
        return np.bool_(r.byte() & 1)
    return r.choice([1, 0, "true", None, BoolRaises(), np.array(True), np.int8(1), 1.0])


def gen_string(r, ctx):
    k = r.below(8)
    if k < 4:
        return r.choice(WORDS)
    if k == 4:
        return gen_text(r)
    if k == 5:
        return gen_bytes(r)
    if k == 6:
        return gen_scalar(r, ctx)
    return r.choice([np.array(1.5), np.array(["a"]), FloatRaises(), np.float16(2), np.int8(-1),
                     np.complex64(1), [1]])


def gen_int_list(r, ctx):
    return gen_list(r, ctx, gen_int)


def gen_tensor_list(r, ctx):
    return gen_list(r, ctx, gen_tensor)


KIND_GEN = {"tensor": gen_tensor, "tensor_list": gen_tensor_list, "int": gen_int,
            "bool": gen_bool, "string": gen_string, "dtype": gen_dtype, "int_list": gen_int_list}


def gen_other_kind(r, ctx):
    return r.choice(list(KIND_GEN.values()))(r, ctx)


# ---- mutating an example's argument ----------------------------------------------------------
def edge_list(r, v):
    """v (nested lists of numbers) with one number replaced by an edge value."""
    if isinstance(v, list) and v:
        k = r.below(len(v))
        v = list(v)
        v[k] = edge_list(r, v[k])
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return r.choice(EDGE_INTS + EDGE_FLOATS)
    return v


def mutate(r, ctx, v, kind):
    m = r.below(32)
    if m < 16:
        return v
    if m == 16 or m == 17:  # an ndarray of another dtype / layout
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                a = np.array(v)
                dt = r.choice(NP_DTYPES + ODD_DTYPES) if m == 16 else a.dtype
                # (NumPy 1.24 crashes casting strings to datetime64: np.array([b"1"]).astype("M8[s]"))
                if a.dtype.kind in "SUO" and dt.kind in "Mm":
                    dt = a.dtype
                if a.dtype != dt:
                    a = a.astype(dt)
        except (TypeError, ValueError, OverflowError):
            return v
        return _layout(r, a, ctx)
    if m == 18:
        return tuple(v) if isinstance(v, list) else v
    if m == 19:
        return (x for x in v) if isinstance(v, (list, tuple)) else v
    if m == 20:
        return Seq(v, r.below(7)) if isinstance(v, (list, tuple)) else v
    if m == 21:
        if isinstance(v, (str, bytes)):
            return bytearray(v if isinstance(v, bytes) else v.encode("utf-8", "surrogatepass"))
        try:
            return ArrayWrap(np.asarray(v))
        except (TypeError, ValueError, OverflowError):  # ragged, or not numbers
            return v
    if m == 22:
        try:
            a = np.ascontiguousarray(np.asarray(v))
        except (TypeError, ValueError):
            return v
        if a.dtype.kind in "biufc":
            ctx.allow.add(BufferError)
            return DLPack(a, r.below(6))
        return memoryview(a) if a.dtype.kind == "S" else v
    if m == 23 or m == 24:
        return edge_list(r, v)
    if m == 25:
        if isinstance(v, list) and v and all(isinstance(x, int) for x in v):
            v = list(v)
            k = r.below(len(v))
            w = [IndexClears(v[k]), Index(v[k]), IndexRaises(), IntSub(v[k])][r.below(4)]
            if isinstance(w, IndexClears):
                w.holder = v
            v[k] = w
        return v
    if m < 29:
        return KIND_GEN[kind](r, ctx)
    if m == 29:
        return gen_other_kind(r, ctx)
    if m == 30:
        return None
    if isinstance(v, np.ndarray) and v.ndim:  # a slice of it
        return v[: r.below(v.shape[0] + 1)]
    return v


