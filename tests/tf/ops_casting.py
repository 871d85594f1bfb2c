# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for casting: cast (every pair of dtypes, values from every bit pattern: NaN
payloads, signed zeros, subnormals, infinities, out-of-range values), saturate_cast, bitcast,
to_double / to_float / to_bfloat16 / to_int32 / to_int64, decode_raw (DecodeRaw, and
DecodePaddedRaw for fixed_length) and string_to_number."""
import numpy as np
import tensorflow as tf
from oracle import ALL, COMPLEX, FLOAT8, FLOATS, INT2, INT4, INTS, LOWBIT, LOWBIT_FLOATS, NUMERIC, \
    QUANTIZED, Case, TF_DTYPES, dtype_of, np_dtype, op
from oracle import string_array as _strings

R = tf.raw_ops
REAL_FLOATS = FLOATS + FLOAT8 + LOWBIT_FLOATS
TARGETS = ["bool"] + INTS + FLOATS + COMPLEX + FLOAT8 + INT4 + LOWBIT  # every numeric cast target

# Special float values: signed zeros, NaNs with payloads, infinities, subnormals, halves, the
# integer types' edges and just past them.
SPECIAL = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 7.9, -8.9, 15.5, 16.0, 127.5, 128.0, -129.0,
           255.9, 256.0, 300.0, -300.0, 32767.5, 32768.0, -32769.0, 65535.0, 65536.0, 1e5,
           2.0**31 - 1, 2.0**31, -2.0**31, -2.0**31 - 1, 2.0**32, 4294967295.0, -1e10, 1e10,
           2.0**53 + 1, 2.0**63, -2.0**63, 2.0**64, -2.0**64, 1e30, -1e30, 3.4e38, 1e300,
           float("inf"), float("-inf"), 5e-324, 1e-310, 1e-40, 1e-8, 65504.0, 65520.0, 448.0,
           464.0, 57344.0, 61440.0]
NAN_BITS64 = [0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x7ff4000000000123,
              0xfffc00000000abcd, 0x7fffffffffffffff]
NAN_BITS32 = [0x7fc00000, 0xffc00000, 0x7f800001, 0x7fa00123, 0xffc0abcd, 0x7fffffff]
NAN_BITS16 = [0x7e00, 0xfe00, 0x7c01, 0x7d23, 0xffff]


def specials(dt):
    """An array of dtype dt (a float or complex type) holding SPECIAL and NaN payloads."""
    f64 = np.array(SPECIAL, np.float64)
    if dt == "float64":
        return np.concatenate([f64, np.array(NAN_BITS64, np.uint64).view(np.float64)])
    if dt == "float32":
        with np.errstate(over="ignore"):
            return np.concatenate([f64.astype(np.float32),
                                   np.array(NAN_BITS32, np.uint32).view(np.float32)])
    if dt in ("float16", "bfloat16"):
        with np.errstate(over="ignore"):
            a = f64.astype(np.float32).astype(np_dtype(dt))
        nans = np.array(NAN_BITS16 if dt == "float16" else [0x7fc0, 0xffc0, 0x7f81, 0x7fa3, 0xffff],
                        np.uint16).view(np_dtype(dt))
        return np.concatenate([a, nans])
    if dt in FLOAT8 + LOWBIT_FLOATS:  # every bit pattern (float4: its 16)
        return np.arange(16 if dt == "float4_e2m1fn" else 256, dtype=np.uint8).view(np_dtype(dt))
    part = specials("float32" if dt == "complex64" else "float64")
    return _complex(part, np.roll(part, 7), np_dtype(dt))


def _complex(re, im, dt):
    out = np.empty(len(re), dt)
    out.real, out.imag = re, im
    return out


def int_edges(dt):
    """The edges of integer dtype dt and values around them."""
    if dt in INT4 + INT2:  # every code
        return np.arange(16 if dt in INT4 else 4, dtype=np.uint8).view(np_dtype(dt))
    if dt in QUANTIZED:
        base = np_dtype(dt).fields[dt][0]
        info = np.iinfo(base)
        v = np.array([info.min, info.min + 1, -1 if info.min else 1, 0, 1, 7, 8, 15, 16, 127, 128,
                      255, 256, info.max - 1, info.max], np.int64)
        return v.astype(base).view(np_dtype(dt))
    info = np.iinfo(dt)
    v = [info.min, info.min + 1, 0, 1, 2, 7, 8, 9, 15, 16, 17, 127, 128, 255, 256, 32767, 32768,
         65535, 65536, 2**24 + 1, 2**31 - 1, 2**31, 2**32 - 1, 2**53 + 1, 2**63 - 1, info.max - 1,
         info.max, -1, -8, -9, -128, -129, -2**31, -2**31 - 1, -2**53 - 1]
    v = [x for x in v if info.min <= x <= info.max]
    return np.array(v, dtype=object).astype(dt)


def edges(dt, g):
    """A vector of interesting values of dtype dt."""
    if dt in REAL_FLOATS + COMPLEX:
        return specials(dt)
    if dt == "bool":
        return np.array([True, False, True])
    if dt == "string":
        return np.array([b"1", b"-2.5", b"nan"], dtype=object)
    return int_edges(dt)


# ---- cast -----------------------------------------------------------------------------------------
@op("cast", tf=lambda x, dtype: R.Cast(x=x, DstT=TF_DTYPES[dtype], Truncate=False), tf_name="Cast")
def cast(g):
    for i, dt in enumerate(ALL):  # every dtype once, a plain case
        yield Case({"x": g.array(dt, (2, 3), "small")}, {"dtype": TARGETS[i % len(TARGETS)]})
    # Every float and complex source's special values (NaN payloads, signed zeros, subnormals,
    # infinities, out-of-range) to every target.
    for src in ["float32", "float64"]:
        for dst in TARGETS + ["qint8", "quint16", "qint32"]:
            yield Case({"x": specials(src)}, {"dtype": dst}, note=f"{src} specials -> {dst}")
    for src in ["float16", "bfloat16"]:
        for dst in ["bool", "int8", "uint16", "int32", "uint32", "int64", "uint64", "float16",
                    "bfloat16", "float32", "float8_e5m2", "float8_e4m3fn", "complex64"] + LOWBIT:
            if src != dst:
                yield Case({"x": specials(src)}, {"dtype": dst}, note=f"{src} specials -> {dst}")
    for src in REAL_FLOATS[len(FLOATS):]:  # every bit pattern of the float8 and float4 types
        for dst in ["bool", "int8", "uint8", "int32", "uint64", "float16", "bfloat16", "float32",
                    "float64", "complex128", "qint8", "int4"] + INT2 + \
                [f for f in REAL_FLOATS[len(FLOATS):] if f != src]:
            yield Case({"x": specials(src)}, {"dtype": dst}, note=f"{src} bits -> {dst}")
    for src in COMPLEX:
        for dst in ["bool", "int32", "uint64", "float16", "float32", "float64", "float8_e5m2",
                    "float8_e5m2fnuz", "int2"] + [c for c in COMPLEX if c != src]:
            yield Case({"x": specials(src)}, {"dtype": dst}, note=f"{src} specials -> {dst}")
    # Integer edges to every target (int4 sources with every byte: the upper bits ignored).
    for src in ["int64", "uint64", "int8", "int4", "uint4", "qint32", "bool"] + INT2:
        for dst in TARGETS:
            if dst != src:
                yield Case({"x": edges(src, g)}, {"dtype": dst}, note=f"{src} edges -> {dst}")
    # Ranks 0-6 and zero-size dims; strings.
    for shape in [(), (1,), (0,), (2, 0), (0, 3), (1, 1, 1, 1, 1, 1), (2, 1, 2, 1, 2, 0)]:
        yield Case({"x": g.array("float32", shape)}, {"dtype": "int32"}, note=f"shape {shape}")
    yield Case({"x": g.array("string", (2,))}, {"dtype": "string"}, note="string -> string")
    yield Case({"x": g.array("string", (2,))}, {"dtype": "int32"}, note="string -> int32")
    yield Case({"x": g.array("int32", (2,))}, {"dtype": "string"}, note="int32 -> string")
    while True:
        src = g.choice(ALL)
        dst = g.choice(ALL)
        kind = g.choice(["bits", "small"])
        x = g.array(src, g.shape(g.choice([0, 1, 1, 2, 3])), kind) if g.rng.random() < 0.7 else \
            edges(src, g)
        yield Case({"x": x}, {"dtype": dst})


# ---- the to_* ops ---------------------------------------------------------------------------------
def _to(name, target):
    @op(name, tf=lambda x: R.Cast(x=x, DstT=TF_DTYPES[target]), tf_name="Cast")
    def gen(g):
        for dt in ALL:
            yield Case({"x": g.array(dt, (2, 2), "small")})
        for dt in NUMERIC:
            yield Case({"x": edges(dt, g)}, note=f"{dt} edges")
        yield Case({"x": g.array("float32", ())}, note="rank 0")
        yield Case({"x": g.array("float64", (1, 0, 2, 1, 1, 1))}, note="rank 6, zero-size")
        while True:
            yield Case({"x": g.array(g.choice(ALL), g.shape(g.choice([0, 1, 2, 3])))})
    return gen


to_double = _to("to_double", "float64")
to_float = _to("to_float", "float32")
to_bfloat16 = _to("to_bfloat16", "bfloat16")
to_int32 = _to("to_int32", "int32")
to_int64 = _to("to_int64", "int64")


# ---- saturate_cast --------------------------------------------------------------------------------
def _saturate_tf(value, dtype):
    """tf.dtypes.saturate_cast, TF 2.21's Python function (no raw op).  For a dtype without min/max
    (bool, the quantized types, string) it raises TypeError "Cannot find minimum value of ...":
    that is "a dtype the op does not take", unimplemented in tensorx's terms (the frame would count
    a bare TypeError invalid_argument), so it is re-raised as TF's UnimplementedError."""
    try:
        return tf.dtypes.saturate_cast(value, TF_DTYPES[dtype])
    except TypeError as e:
        if "Cannot find minimum value" in str(e) or "Cannot find maximum value" in str(e):
            raise tf.errors.UnimplementedError(None, None, str(e)) from e
        raise


@op("saturate_cast", tf=_saturate_tf)
def saturate_cast(g):
    for i, dt in enumerate(ALL):
        yield Case({"value": g.array(dt, (2, 3), "small")}, {"dtype": TARGETS[(i + 3) % len(TARGETS)]})
    # Float and complex specials (infinities, NaN payloads, out-of-range values) to narrower,
    # wider and the same types: TF 2.21 clamps every real input, with its nudged bounds.
    for src, dsts in [("float32", ["int8", "uint8", "int32", "uint32", "int64", "uint64", "float16",
                                   "bfloat16", "float32", "float64", "complex64"]),
                      ("float64", ["int32", "int64", "uint64", "float32", "float64", "complex128"]),
                      ("float16", ["int32", "uint16", "float16", "bfloat16", "float32"]),
                      ("bfloat16", ["uint8", "int64", "float16", "float32"]),
                      ("complex64", ["int32", "uint64", "float16", "complex64", "complex128"]),
                      ("complex128", ["float32", "complex64"])]:
        for dst in dsts:
            yield Case({"value": specials(src)}, {"dtype": dst}, note=f"{src} -> {dst}")
    # Integer edges: narrower, wider, signedness changes, to floats and the 4-bit types.
    for src, dsts in [("int64", ["int8", "uint64", "int64", "float16", "float32", "int4"]),
                      ("uint64", ["int64", "uint8", "float16"]), ("int8", ["uint8", "uint4"]),
                      ("uint32", ["int32", "float16"]), ("uint16", ["int16"]),
                      ("int32", ["uint16", "bfloat16", "float8_e4m3fn"]), ("int4", ["int8"]),
                      ("uint4", ["int4"])]:
        for dst in dsts:
            yield Case({"value": edges(src, g)}, {"dtype": dst}, note=f"{src} -> {dst}")
    # Dtypes without min/max (TF raises TypeError: unimplemented) and the float8 types.
    for src, dst in [("bool", "int32"), ("int32", "bool"), ("qint8", "int8"), ("int32", "quint8"),
                     ("string", "int32"), ("float32", "string"), ("float8_e5m2", "float32"),
                     ("float32", "float8_e4m3fn")] + \
            [(src, dst) for src in ["float32", "float64", "int64", "int8"] for dst in LOWBIT] + \
            [(src, dst) for src in LOWBIT for dst in ["int8", "uint8", "float16", "int2", "uint2",
                                                      "float4_e2m1fn", "float8_e4m3b11fnuz"]]:
        yield Case({"value": edges(src, g)}, {"dtype": dst}, note=f"{src} -> {dst}")
    # Ranks 0-6 and zero-size dims in every position.
    for shape in [(), (1, 1, 1, 1, 1, 2), (0,), (0, 3), (3, 0), (1, 0, 2, 1, 1, 1)]:
        yield Case({"value": g.array("float32", shape)}, {"dtype": "int8"}, note=f"shape {shape}")
    while True:
        src, dst = g.choice(ALL), g.choice(ALL)
        x = g.array(src, g.shape(g.choice([0, 1, 2]))) if g.rng.random() < 0.7 else edges(src, g)
        yield Case({"value": x}, {"dtype": dst})


# ---- bitcast --------------------------------------------------------------------------------------
BITCASTABLE = [d for d in NUMERIC if d not in ["bool", "float4_e2m1fn"] + INT4 + INT2]  # bytes


def _bitcast_case(x, type_, note=""):
    a, b = np_dtype(_name(x)).itemsize, np_dtype(type_).itemsize
    complexes = _name(x) in COMPLEX or type_ in COMPLEX
    little = a != b or (complexes and not (_name(x) in COMPLEX and type_ in COMPLEX))
    return Case({"input": x}, {"type": type_}, note=note, byte_order="little" if little else "")


def _name(a):
    return dtype_of(a)


@op("bitcast", tf=lambda input, type: R.Bitcast(input=input, type=TF_DTYPES[type]),
    tf_name="Bitcast")
def bitcast(g):
    same = {1: "uint8", 2: "int16", 4: "float32", 8: "int64", 16: "complex128"}
    for dt in ALL:
        size = np_dtype(dt).itemsize if dt != "string" else 8
        yield _bitcast_case(g.array(dt, (2, 2)), same[size] if dt != same[size] else "int8"
                            if size == 1 else same[size])
    for src in BITCASTABLE:  # to every width: a dim added, removed, or the same shape
        for dst in ["int8", "uint16", "float32", "float64", "complex128"]:
            if src == dst:
                continue
            a, b = np_dtype(src).itemsize, np_dtype(dst).itemsize
            shape = (2, b // a) if b > a else (3,)
            yield _bitcast_case(g.array(src, shape), dst, f"{src} -> {dst}")
    for dst in ["bool", "int4", "uint4", "string", "float4_e2m1fn"] + INT2:
        yield _bitcast_case(g.array("int8", (2,)), dst, f"int8 -> {dst}")
    for src in ["int4", "float4_e2m1fn"] + INT2:
        yield _bitcast_case(g.array(src, (2,)), "int8", f"{src} -> int8")
    yield _bitcast_case(g.array("int8", (4, 3)), "int32", "last dim 3, not 4")
    yield _bitcast_case(g.array("int8", ()), "int32", "rank 0 to wider")
    yield _bitcast_case(g.array("int32", ()), "int8", "rank 0 to narrower")
    yield _bitcast_case(g.array("int8", (0, 4)), "int32", "zero-size")
    yield _bitcast_case(g.array("int8", (4, 0)), "int32", "zero last dim")
    yield _bitcast_case(g.array("int32", (1, 1, 1, 1, 1, 2)), "int8", "rank 6 -> 7")
    yield _bitcast_case(g.array("int64", (1, 1, 1, 1, 1, 1, 1, 2)), "int16", "rank 8 -> 9")
    yield _bitcast_case(g.array("float64", specials("float64").shape), "uint64", "NaN payloads")
    yield Case({"input": specials("float64")}, {"type": "int64"}, note="NaN payloads kept")
    while True:
        src, dst = g.choice(BITCASTABLE), g.choice(BITCASTABLE)
        a, b = np_dtype(src).itemsize, np_dtype(dst).itemsize
        shape = list(g.shape(g.choice([0, 1, 2, 3])))
        if b > a and g.rng.random() < 0.8:
            shape.append(b // a)
        yield _bitcast_case(g.array(src, shape), dst)


# ---- decode_raw -----------------------------------------------------------------------------------
DECODE_TYPES = ["float16", "bfloat16", "float32", "float64", "int8", "uint8", "int16", "uint16",
                "int32", "uint32", "int64", "uint64", "complex64", "complex128", "bool"]


def _decode_tf(input_bytes, out_type, little_endian=True, fixed_length=None):
    if fixed_length is None:
        return R.DecodeRaw(bytes=input_bytes, out_type=TF_DTYPES[out_type],
                           little_endian=little_endian)
    return R.DecodePaddedRaw(input_bytes=input_bytes, fixed_length=fixed_length,
                             out_type=TF_DTYPES[out_type], little_endian=little_endian)


@op("decode_raw", tf=_decode_tf, tf_name="DecodeRaw")
def decode_raw(g):
    for dt in ALL:
        size = np_dtype(dt).itemsize if dt != "string" else 1
        b = g.rng.bytes(4 * size)
        yield Case({"input_bytes": _strings([b, b[::-1]])}, {"out_type": dt})
    for dt in DECODE_TYPES:
        size = np_dtype(dt).itemsize
        for le in (True, False):
            yield Case({"input_bytes": _strings([g.rng.bytes(2 * size), g.rng.bytes(2 * size)])},
                       {"out_type": dt, "little_endian": le}, note=f"{dt} le={le}")
    yield Case({"input_bytes": _strings([b"abcd", b"ab"])}, {"out_type": "int16"},
               note="sizes differ")
    yield Case({"input_bytes": _strings([b"abc"])}, {"out_type": "int16"}, note="odd size")
    yield Case({"input_bytes": _strings([b"", b""])}, {"out_type": "int32"}, note="empty strings")
    yield Case({"input_bytes": _strings([])}, {"out_type": "int32"}, note="no strings")
    yield Case({"input_bytes": _strings([b"abcd"], ())}, {"out_type": "int16"}, note="rank 0")
    yield Case({"input_bytes": _strings([b"abcd"] * 2, (1, 1, 1, 1, 1, 2))}, {"out_type": "int8"},
               note="rank 6")
    yield Case({"input_bytes": _strings([b"ab"] * 0, (2, 0))}, {"out_type": "int8"},
               note="zero-size")
    yield Case({"input_bytes": g.array("int32", (2,))}, {"out_type": "int8"}, note="not strings")
    for fl in [0, 1, 2, 3, 4, 8, -1]:
        for dt in ["int8", "int16", "float32"]:
            yield Case({"input_bytes": _strings([b"", b"abcdefg", b"xyz"])},
                       {"out_type": dt, "fixed_length": fl, "little_endian": fl % 2 == 0},
                       note=f"fixed_length {fl}")
    yield Case({"input_bytes": _strings([b"abcdefgh", b"xy"])},
               {"out_type": "float64", "fixed_length": 8}, note="padded float64")
    yield Case({"input_bytes": _strings([b"abcdefgh"])}, {"out_type": "bool", "fixed_length": 2},
               note="padded bool")
    while True:
        dt = g.choice(DECODE_TYPES)
        size = np_dtype(dt).itemsize
        shape = g.shape(g.choice([0, 1, 2]))
        n = int(np.prod(shape, dtype=np.int64))
        if g.rng.random() < 0.3:
            fl = int(g.rng.integers(0, 4)) * size
            items = [g.rng.bytes(int(g.rng.integers(0, 3 * size + 1))) for _ in range(n)]
            yield Case({"input_bytes": _strings(items, shape)},
                       {"out_type": dt, "fixed_length": fl, "little_endian": bool(g.rng.random() < 0.5)})
        else:
            k = int(g.rng.integers(0, 4)) * size
            items = [g.rng.bytes(k) for _ in range(n)]
            yield Case({"input_bytes": _strings(items, shape)},
                       {"out_type": dt, "little_endian": bool(g.rng.random() < 0.5)})


# ---- string_to_number -----------------------------------------------------------------------------
NUMBER_TEXTS = [b"0", b"-0", b"1", b"-1", b"+1", b"1.5", b"-1.5", b"1e3", b"1E3", b"1e-3", b".5",
                b"5.", b"0x10", b"0X1f", b"010", b" 12", b"12 ", b"\t7\n", b"", b" ", b"abc", b"1a",
                b"1,5", b"nan", b"NaN", b"-nan", b"inf", b"-inf", b"+inf", b"Infinity", b"INF",
                b"-Infinity", b"infinity", b"1e39", b"-1e39", b"1e309", b"1e-46", b"1e-400",
                b"3.4028235e38", b"3.4028236e38", b"2147483647", b"2147483648", b"-2147483648",
                b"-2147483649", b"9223372036854775807", b"9223372036854775808",
                b"-9223372036854775808", b"-9223372036854775809", b"99999999999999999999",
                b"1.0", b"1e2", b"0.1", b"0x", b"--1", b"+-1", b"1_000", b"\xff", b"1\x00",
                b"0b101", b"1.7976931348623157e308", b"4.9e-324", b"0x1p3", b"1e", b"e1"]


@op("string_to_number", tf=lambda string_tensor, out_type="float32":
    R.StringToNumber(string_tensor=string_tensor, out_type=TF_DTYPES[out_type]),
    tf_name="StringToNumber")
def string_to_number(g):
    for dt in ALL:
        yield Case({"string_tensor": _strings([b"1", b"-2", b"3"])}, {"out_type": dt})
    # One string a case (an error names no other element): the float grammar in float64, float32's
    # own range, the integer types' edges; the random stream mixes every text with every type.
    int_edges_ = set(NUMBER_TEXTS[40:49])
    for t in NUMBER_TEXTS:
        if t not in int_edges_ and t not in (b"1E3", b"0X1f", b"+inf", b"INF", b"-Infinity",
                                             b"1e2", b"1.0", b"-1e39", b"1e39", b"1e-46"):
            yield Case({"string_tensor": _strings([t, b"7"])}, {"out_type": "float64"},
                       note=f"{t!r} -> float64")
    per_type = {
        "float32": [b"1e39", b"-1e39", b"3.4028235e38", b"3.4028236e38", b"1e-46", b"0.1",
                    b"-nan", b"1.000000059604644775390625"],
        "int32": [b"2147483647", b"2147483648", b"-2147483648", b"-2147483649", b"+1", b" 12",
                  b"1.0", b"0x10", b"", b"1e2"],
        "int64": [b"9223372036854775807", b"9223372036854775808", b"-9223372036854775808",
                  b"-9223372036854775809", b"99999999999999999999", b"-0"],
        # TF 2.21's safe_strtou32 / safe_strtou64: no '-', "-0" too; the full unsigned range
        "uint32": [b"-0", b"-1", b" +7 ", b"4294967295", b"4294967296", b"0x10", b"1.5"],
        "uint64": [b"0", b"18446744073709551615", b"18446744073709551616", b"-0", b"1e3",
                   b"99999999999999999999"]}
    for dt, texts in per_type.items():
        for t in texts:
            yield Case({"string_tensor": _strings([t, b"7"])}, {"out_type": dt},
                       note=f"{t!r} -> {dt}")
    yield Case({"string_tensor": _strings([b"1.5"], ())}, {}, note="rank 0, default out_type")
    yield Case({"string_tensor": _strings([b"2"] * 2, (1, 1, 1, 1, 2, 1))}, {"out_type": "int32"},
               note="rank 6")
    yield Case({"string_tensor": _strings([], (0, 3))}, {"out_type": "int64"}, note="zero-size")
    yield Case({"string_tensor": g.array("int32", (2,))}, {"out_type": "int32"},
               note="not strings")
    while True:
        dt = g.choice(["float32", "float64", "int32", "int64", "uint32", "uint64"])
        shape = g.shape(g.choice([0, 1, 2]))
        n = int(np.prod(shape, dtype=np.int64))
        items = []
        for _ in range(n):
            r = g.rng.random()
            if r < 0.5:
                v = g.rng.integers(-2**40, 2**40) if "int" in dt else \
                    g.rng.standard_normal() * 10.0 ** int(g.rng.integers(-40, 40))
                items.append(repr(v.item() if hasattr(v, "item") else v).encode())
            else:
                items.append(g.choice(NUMBER_TEXTS[:20] if r < 0.9 else NUMBER_TEXTS))
        yield Case({"string_tensor": _strings(items, shape)}, {"out_type": dt})


# ---- deliberate differences -----------------------------------------------------------------------
import ml_dtypes  # noqa: E402
from oracle import difference  # noqa: E402

_INT_TARGETS = INTS + QUANTIZED + INT4 + INT2
_FLOATISH = FLOATS + FLOAT8 + COMPLEX
LOWBIT_SET = set(LOWBIT)


def _io(case):
    """(input array, target dtype name) of a cast / saturate_cast / to_* case."""
    x = case.inputs.get("x", case.inputs.get("value"))
    target = case.attrs.get("dtype")
    return x, target


def _parts(a):
    """An array's values as float64 pairs (real, imaginary) per element, exact."""
    name = dtype_of(a)
    flat = np.asarray(a).reshape(-1)
    if name in COMPLEX:
        return np.stack([flat.real.astype(np.float64), flat.imag.astype(np.float64)], 1)
    if name in QUANTIZED:
        flat = flat.view(np_dtype(name).fields[name][0])
    with np.errstate(all="ignore"):
        re = flat.astype(np.float64)
    return np.stack([re, np.zeros_like(re)], 1)


def _differing(want, got, k_parts=1):
    """Indices of the output elements whose bytes differ (one output)."""
    a, b = want[1][0], got[1][0]
    dt = np_dtype(a.dtype)
    x = np.frombuffer(a.data, np.uint8).reshape(-1, dt.itemsize)
    y = np.frombuffer(b.data, np.uint8).reshape(-1, dt.itemsize)
    return np.nonzero((x != y).any(1))[0]


def _both_ok(want, got):
    return want[0] == got[0] == "ok" and len(want[1]) == len(got[1]) == 1 and \
        want[1][0].dtype == got[1][0].dtype and tuple(want[1][0].shape) == tuple(got[1][0].shape)


def _target_range(name):
    if name in INT4 + INT2:
        return {"int4": (-8, 7), "uint4": (0, 15), "int2": (-2, 1), "uint2": (0, 3)}[name]
    info = np.iinfo(np_dtype(name).fields[name][0] if name in QUANTIZED else name)
    return info.min, info.max


OUT_OF_RANGE_ROW = (
    "float -> integer casts of NaN, +-inf and out-of-range values: TF 2.21's x86-64 results depend "
    "on the element's position in the tensor (its vector loop and scalar tail convert differently; "
    "C leaves them undefined); tensorx gives the scalar cvttsd2si results everywhere "
    "(docs/casting.md)")


def _out_of_range(case, want, got):
    """Every differing element converts a NaN, an infinity or a value whose truncation is outside
    the integer target's range (saturate_cast: NaN only, as its clip lets NaN through)."""
    x, target = _io(case)
    target = target or {"to_int32": "int32", "to_int64": "int64"}.get(case.note, target)
    if x is None or dtype_of(x) not in _FLOATISH or not _both_ok(want, got):
        return False
    target = want[1][0].dtype
    if target not in _INT_TARGETS:
        return False
    k = _differing(want, got)
    re = _parts(x)[k, 0]
    lo, hi = _target_range(target)
    with np.errstate(all="ignore"):
        t = np.trunc(re)
        bad = np.isnan(re) if "value" in case.inputs else \
            ~np.isfinite(re) | (t < lo) | (t > hi)
    return len(k) > 0 and bool(bad.all())


for _op in ["cast", "to_int32", "to_int64"]:
    difference(_op, OUT_OF_RANGE_ROW)(_out_of_range)
difference("saturate_cast", "saturate_cast of a NaN to an integer type: TF 2.21's clip lets NaN "
           "through and its cast then gives a position-dependent result (as for cast); tensorx "
           "gives the scalar cvttsd2si result (docs/casting.md)")(_out_of_range)

SUBNORMAL_ROW = (
    "float32/float64 subnormals in casts: TF 2.21's CPU kernels run with flush-to-zero and "
    "denormals-are-zero (set by its thread pools on x86-64 and aarch64, not on other hosts), so a "
    "subnormal input casts as a zero of its sign and a subnormal result becomes zero; tensorx "
    "converts exactly, as IEEE 754, C, NumPy and ml_dtypes do, on every host (docs/casting.md)")

_TINY_IN = {"float32": 2.0**-126, "complex64": 2.0**-126, "bfloat16": 2.0**-126,
            "float64": 2.0**-1022, "complex128": 2.0**-1022}
_TINY_OUT = {"float32": 2.0**-126, "complex64": 2.0**-126, "bfloat16": 2.0**-126,
             "float64": 2.0**-1022, "complex128": 2.0**-1022}


def _out_parts(out):
    a = np.frombuffer(out.data, np_dtype(out.dtype))
    if out.dtype in QUANTIZED:
        a = a.view(np_dtype(out.dtype).fields[out.dtype][0])
    if out.dtype in COMPLEX:
        return np.stack([a.real.astype(np.float64), a.imag.astype(np.float64)], 1)
    with np.errstate(all="ignore"):
        re = a.astype(np.float64)
    return np.stack([re, np.zeros_like(re)], 1)


def _subnormal(case, want, got):
    """Every differing part of every differing element is a zero in TF where the input part is
    subnormal in its dtype or its exact value is subnormal in the target's."""
    x, _ = _io(case)
    if x is None or not _both_ok(want, got):
        return False
    src, dst = dtype_of(x), want[1][0].dtype
    if src not in _TINY_IN and dst not in _TINY_OUT:
        return False
    k = _differing(want, got)
    if not len(k):
        return False
    xin, w, g = _parts(x)[k], _out_parts(want[1][0])[k], _out_parts(got[1][0])[k]
    if src in COMPLEX and dst not in COMPLEX:
        xin[:, 1] = 0
    ax = np.abs(xin)
    tiny_in = (ax > 0) & (ax < _TINY_IN.get(src, 0.0))
    tiny_out = (ax > 0) & (ax < _TINY_OUT.get(dst, 0.0))
    with np.errstate(all="ignore"):
        differs = (w != g) & ~(np.isnan(w) & np.isnan(g))
    ok = ~differs | ((w == 0) & (tiny_in | tiny_out))
    # a bool or integer target: the element is 0 / false in TF and the input subnormal
    return bool(ok.all())


for _op in ["cast", "saturate_cast", "to_double", "to_float", "to_bfloat16", "to_int32", "to_int64"]:
    difference(_op, SUBNORMAL_ROW)(_subnormal)


BF16_NAN_ROW = (
    "float32/float64 -> bfloat16 of a negative NaN: TF 2.21 gives 0x7fc0 or 0xffc0 depending on the "
    "element's position in the tensor (its vector loop drops the sign, the scalar tail keeps it); "
    "tensorx always keeps the sign, sign|0x7fc0 (docs/casting.md)")


def _bf16_nan_sign(case, want, got):
    x, _ = _io(case)
    if x is None or not _both_ok(want, got) or want[1][0].dtype != "bfloat16":
        return False
    k = _differing(want, got)
    w = np.frombuffer(want[1][0].data, np.uint16)[k]
    g = np.frombuffer(got[1][0].data, np.uint16)[k]
    return len(k) > 0 and bool(np.isnan(_parts(x)[k, 0]).all() and
                               ((w & 0x7fff) == 0x7fc0).all() and (g ^ w == 0x8000).all())


for _op in ["cast", "saturate_cast", "to_bfloat16"]:
    difference(_op, BF16_NAN_ROW)(_bf16_nan_sign)


PAIRS_ROW = (
    "cast pairs TF 2.21 does not implement (Unimplemented 'Cast X to Y is not supported'): int4 / "
    "uint4 to or from bool, the floats, complex and float8; bool, every integer, quantized and "
    "complex type to float8; every pair with float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2fnuz, "
    "int2, uint2 or float4_e2m1fn (TF casts them only to themselves); tensorx converts them with "
    "ml_dtypes' rules (the library TF's low-bit dtypes come from), as the cast table of "
    "docs/casting.md says, except float -> integer, which is TF's rule for every float type (a "
    "low-bit float through float32; NaN and out-of-range values as TF's scalar conversion gives "
    "them, where ml_dtypes gives 0), and float -> int2 / uint2, which is TF's int4 rule (float -> "
    "int8, then the low 2 bits); saturate_cast clamps to the target's range first")


def _ml_dtypes_astype(x, target):
    """ml_dtypes' astype of x to target (None where it has no such conversion to compare)."""
    src = dtype_of(x)
    if src in QUANTIZED or target in QUANTIZED or src in COMPLEX or target in COMPLEX:
        return None
    mt = {"int4": ml_dtypes.int4, "uint4": ml_dtypes.uint4, "float8_e5m2": ml_dtypes.float8_e5m2,
          "float8_e4m3fn": ml_dtypes.float8_e4m3fn, "bfloat16": ml_dtypes.bfloat16}.get(target, target)
    xs = x
    if src in INT4:
        xs = x.astype(np.int8 if src == "int4" else np.uint8)
    try:
        with np.errstate(all="ignore"):
            return np.asarray(xs).astype(mt)
    except (TypeError, ValueError):
        return None


def _unimplemented_pair(case, want, got):
    x, target = _io(case)
    if x is None or want[0] != "error" or got[0] != "ok" or \
            "is not supported" not in want[2] or "Cast " not in want[2]:
        return False
    src = dtype_of(x)
    target = target or got[1][0].dtype
    if src in LOWBIT or target in LOWBIT:
        return False  # ops_lowbit.py checks them
    low = (src in INT4) != (target in INT4) or (target in FLOAT8 and src not in FLOATS + FLOAT8)
    if not low:
        return False
    if src in FLOATS + FLOAT8 + COMPLEX and target in INT4:
        return True  # float -> int4 is C-undefined outside the range; ml_dtypes differs there
    ref = _ml_dtypes_astype(x, target)
    if ref is None:
        return True
    return np.ascontiguousarray(ref).tobytes() == got[1][0].data


for _op in ["cast", "saturate_cast", "to_double", "to_float", "to_bfloat16"]:
    difference(_op, PAIRS_ROW)(_unimplemented_pair)


EXTENSION_ROW = (
    "dtypes TF 2.21's op definition does not list (eager InvalidArgumentError 'not in the list of "
    "allowed values'): bitcast of float8_e5m2, float8_e4m3fn and the three float8 FNUZ types; "
    "saturate_cast of int4, uint4, float8 and the types of DataType 26-28 and 31-33 "
    "(float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2fnuz, int2, uint2, float4_e2m1fn); "
    "decode_raw to uint32, uint64 and the 8-bit float types (saturate_cast of the low-bit types "
    "to or from some types fails earlier, in TF's Python: 'expected number, got ml_dtypes...', a "
    "TF bug); tensorx takes them (the bytes moved as for every other dtype of the width, "
    "saturate_cast clamping to the dtype's range) and checks the other arguments as for any "
    "dtype; it refuses bitcast of the sub-byte types and decode_raw to them (unimplemented: raw "
    "data holds them packed)")


def _extension(case, want, got):
    x = _io(case)[0]
    if x is not None and dtype_of(x) != "string" and LOWBIT_SET & {dtype_of(x), _io(case)[1]}:
        return False  # saturate_cast of the low-bit types: ops_lowbit.py checks them
    if want[0] == "error" and "expected number, got ml_dtypes" in want[2]:
        x, target = _io(case)  # TF's saturate_cast: np.maximum of ml_dtypes' min/max fails
        return x is not None and (dtype_of(x) in INT4 + FLOAT8 or target in INT4 + FLOAT8)
    if want[0] != "error" or "not in the list of allowed values" not in want[2]:
        return False
    m = want[2]
    if "input_bytes" in case.inputs:  # decode_raw (its 8-bit float types: ops_lowbit.py checks them)
        return any(f"of {d} is not" in m for d in ["uint32", "uint64"]) or (
            got[0] == "error" and any(f"of {d} is not" in m for d in INT4 + INT2 + ["float4_e2m1fn"]))
    return any(f"of {d} is not" in m for d in FLOAT8 + INT4 + ["uint32", "uint64"])


for _op in ["bitcast", "saturate_cast", "decode_raw"]:
    difference(_op, EXTENSION_ROW)(_extension)


@difference("decode_raw", "decode_raw to bool: TF 2.21 copies each raw byte into the bool tensor "
            "(a byte other than 0 and 1 is not a valid C++ bool, undefined behaviour for every later "
            "op); tensorx stores 1 for every nonzero byte")
def _decode_bool(case, want, got):
    if not _both_ok(want, got) or want[1][0].dtype != "bool":
        return False
    w = np.frombuffer(want[1][0].data, np.uint8)
    g = np.frombuffer(got[1][0].data, np.uint8)
    return bool(np.array_equal(w != 0, g.astype(bool)) and np.isin(g, [0, 1]).all())


SAT_INT64_ROW = (
    "saturate_cast of int64 to int64, uint64, bfloat16, float32, float64, complex64 or complex128: "
    "TF 2.21 computes the upper clip bound as np.int64(2.0**63), a conversion NumPy leaves to the "
    "platform (INT64_MIN on x86-64, so every element becomes INT64_MIN or 0 there; INT64_MAX on "
    "aarch64, no clamp); tensorx gives the aarch64 result: only the lower bound applies (0 for "
    "uint64) (docs/casting.md)")
_INT64_WIDE = ["int64", "uint64", "bfloat16", "float32", "float64", "complex64", "complex128"]


@difference("saturate_cast", SAT_INT64_ROW)
def _sat_int64_bound(case, want, got):
    """tensorx's result is TF's Cast of the values clipped only at TF's lower bound, which is
    defined (0 for uint64, else INT64_MIN): TF's result on aarch64."""
    x, target = _io(case)
    if x is None or dtype_of(x) != "int64" or target not in _INT64_WIDE or not _both_ok(want, got):
        return False
    lo = 0 if target == "uint64" else np.iinfo(np.int64).min
    plain = R.Cast(x=tf.constant(np.maximum(x, lo)), DstT=TF_DTYPES[target]).numpy()
    return np.ascontiguousarray(plain).tobytes() == got[1][0].data


SAT_TOP_ROW = (
    "saturate_cast of a float or complex value >= 2^63 (or +inf) to int64, or >= 2^64 to uint64: "
    "TF 2.21 compares its rounded clip bound with the target's maximum in float64, keeps 2^63 "
    "(2^64) as the bound, and the cast of that bound is undefined in C (x86-64: 0x8000000000000000 "
    "for both; aarch64 saturates); tensorx moves the bound one step toward zero, as TF's own nudge "
    "intends, so the result is the largest value of the input type below 2^63 (2^64) "
    "(docs/casting.md)")


@difference("saturate_cast", SAT_TOP_ROW)
def _sat_top(case, want, got):
    x, target = _io(case)
    if x is None or dtype_of(x) not in _FLOATISH or target not in ("int64", "uint64") or \
            not _both_ok(want, got):
        return False
    k = _differing(want, got)
    re = _parts(x)[k, 0]
    top = 2.0**63 if target == "int64" else 2.0**64
    with np.errstate(all="ignore"):
        return len(k) > 0 and bool(((re >= top) | np.isnan(re)).all()) and bool((re >= top).any())


def _sat_float8_pair(case, want, got):
    """saturate_cast of an integer to float8: TF 2.21 clips (to the float8's finite range, in the
    input's type) and then fails in Cast (no such pair); tensorx's result is ml_dtypes' conversion
    of the clipped values."""
    x, target = _io(case)
    if x is None or want[0] != "error" or got[0] != "ok" or target not in FLOAT8 or \
            "is not supported" not in want[2] or dtype_of(x) not in INTS:
        return False
    m = float(ml_dtypes.finfo(np_dtype(target)).max)
    clipped = np.clip(x.astype(np.float64), -m, m)
    return np.ascontiguousarray(clipped.astype(np_dtype(target))).tobytes() == got[1][0].data


difference("saturate_cast", PAIRS_ROW)(_sat_float8_pair)
