# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for OpenVINO's string tensor ops: string_tensor_pack (StringTensorPack-15) and
string_tensor_unpack (StringTensorUnpack-15).  TensorFlow has neither op, so the reference is
OpenVINO 2026.4's CPU plugin: each case is built into an ov.Model of opset15 ops over Parameters of
the inputs' exact element types and static shapes, compiled with core.compile_model(model, "CPU")
and run on the inputs as NumPy arrays; the outputs come back as tf.Tensors, so the frame compares
them as it compares TF's.

How the outcomes are read, losslessly:
- OpenVINO's Python API reads and writes string tensors through NumPy's fixed-width bytes ('S'),
  which drops trailing NUL bytes.  So a string output is never read directly: the model appends
  StringTensorUnpack to StringTensorPack and the strings are rebuilt from its numeric outputs; and
  string_tensor_unpack's input enters the model as the (begins, ends, symbols) of its bytes through
  StringTensorPack (the CPU plugin keeps both nodes: the unpacked offsets are recomputed, not passed
  through, which the non-compact ranges of the pack cases show).
- OpenVINO's model validation (node construction: element types, ranks, shapes) raises
  RuntimeError ("Check '...' failed at src/core/...") before anything runs: mapped to
  tf.errors.InvalidArgumentError, as those are checks on the arguments.
- A dtype OpenVINO has no element type for (complex64, complex128, the quantized types) cannot
  enter a model; since both nodes accept only u8 symbols, i32/i64 begins and ends and string data,
  such an input would be refused whatever its type, so it is raised as
  tf.errors.InvalidArgumentError too (an inference, said in the message) and tensorx must refuse it
  with invalid_argument as well.
- The CPU plugin's StringTensorPack checks no range (std::string::assign(symbols + begin,
  symbols + end) for each string): a negative begin or an end past the symbols reads outside the
  buffer and an end before its begin is an invalid iterator range (libstdc++ happens to throw
  length_error).  Such cases are not run (no out-of-bounds read in the test process): OpenVINO's
  outcome is the marker error OpenVINOUndefined, and the deliberate difference below checks that
  tensorx refuses them with invalid_argument.
"""
import numpy as np
import openvino as ov
import openvino.opset15 as ovops
import tensorflow as tf
from oracle import ALL, TF_NAMES, Case, difference, op
from oracle import string_array as _str

_CORE = ov.Core()
_OV_TYPES = {
    "bool": ov.Type.boolean, "int8": ov.Type.i8, "uint8": ov.Type.u8, "int16": ov.Type.i16,
    "uint16": ov.Type.u16, "int32": ov.Type.i32, "uint32": ov.Type.u32, "int64": ov.Type.i64,
    "uint64": ov.Type.u64, "float16": ov.Type.f16, "bfloat16": ov.Type.bf16,
    "float32": ov.Type.f32, "float64": ov.Type.f64, "float8_e5m2": ov.Type.f8e5m2,
    "float8_e4m3fn": ov.Type.f8e4m3, "int4": ov.Type.i4, "uint4": ov.Type.u4,
    "string": ov.Type.string,
}
_MARK = "OpenVINO does not define it"


class OpenVINOUndefined(Exception):
    """A case OpenVINO's CPU plugin does not define (an out-of-bounds read): not run."""


def _ov_type(t):
    name = TF_NAMES[t.dtype]
    if name not in _OV_TYPES:  # no OpenVINO type; neither node accepts any type outside _OV_TYPES
        raise tf.errors.InvalidArgumentError(None, None, f"OpenVINO has no element type for {name}"
                                             " (the op takes u8, i32, i64 or string there)")
    return _OV_TYPES[name]


def _param(t):
    return ovops.parameter(list(t.shape), _ov_type(t))


def _model(outputs, params):
    try:
        return ov.Model(outputs, params)
    except RuntimeError as e:
        raise tf.errors.InvalidArgumentError(None, None, str(e).split("\n")[0]) from e


def _node(make, *params):
    try:
        return make(*params)
    except RuntimeError as e:  # OpenVINO's validation of the node (types, ranks, shapes)
        raise tf.errors.InvalidArgumentError(None, None, " ".join(str(e).split("\n")[:4])) from e


def _run(params, outputs, arrays):
    compiled = _CORE.compile_model(_model(outputs, params), "CPU")
    r = compiled([np.array(a, order="C") for a in arrays])  # 0-d stays 0-d
    return [np.array(r[i]) for i in range(len(outputs))]


def _strings(begins, ends, symbols):
    raw = symbols.tobytes()
    flat = [raw[b:e] for b, e in zip(begins.ravel().tolist(), ends.ravel().tolist())]
    if not flat:
        return tf.zeros(begins.shape, tf.string)
    return tf.constant(np.array(flat, dtype=object).reshape(begins.shape), tf.string)


def _undefined_ranges(begins, ends, nsym):
    b, e = begins.astype(np.int64).ravel(), ends.astype(np.int64).ravel()
    return bool(np.any(b < 0) or np.any(e < b) or np.any(e > nsym))


def ov_pack(begins, ends, symbols):
    """OpenVINO's StringTensorPack-15 on the CPU plugin (read back through StringTensorUnpack)."""
    params = [_param(begins), _param(ends), _param(symbols)]
    node = _node(ovops.string_tensor_pack, *params)
    b, e, s = begins.numpy(), ends.numpy(), symbols.numpy()
    if _undefined_ranges(b, e, s.size):
        raise OpenVINOUndefined(f"{_MARK}: a range outside [0, {s.size}] or reversed")
    ob, oe, osym = _run(params, ovops.string_tensor_unpack(node).outputs(), [b, e, s])
    return _strings(ob, oe, osym)


def ov_unpack(data):
    """OpenVINO's StringTensorUnpack-15 on the CPU plugin, its input made by StringTensorPack."""
    if data.dtype != tf.string:  # the node's validation, on a Parameter of data's element type
        _node(ovops.string_tensor_unpack, _param(data))
        raise AssertionError("OpenVINO accepted a non-string input to StringTensorUnpack")
    items = [bytes(x) for x in np.asarray(data.numpy(), dtype=object).ravel().tolist()]
    lens = np.array([len(x) for x in items], np.int64)
    ends = np.cumsum(lens).astype(np.int32).reshape(data.shape)
    begins = (ends.ravel() - lens).astype(np.int32).reshape(data.shape)
    symbols = np.frombuffer(b"".join(items), np.uint8).copy()
    params = [ovops.parameter(list(a.shape), ov.Type(a.dtype)) for a in (begins, ends, symbols)]
    outs = ovops.string_tensor_unpack(ovops.string_tensor_pack(*params)).outputs()
    return [tf.constant(a) for a in _run(params, outs, [begins, ends, symbols])]


@difference("string_tensor_pack",
            "string_tensor_pack, a range with begin < 0, end < begin or end > len(symbols): "
            "OpenVINO 2026.4's CPU plugin checks none (it reads outside symbols, undefined; "
            "end < begin happens to throw libstdc++'s length_error); tensorx: invalid_argument "
            "naming the index and the rule, before reading a byte; why: the spec requires "
            "0 <= begin <= end <= len(symbols) and an out-of-bounds read is no behaviour to copy")
def _pack_ranges(case, want, got):
    return want[0] == "error" and want[1] == "unknown:OpenVINOUndefined" and \
        got[0] == "error" and got[1] == "invalid_argument"


# ---- string_tensor_pack --------------------------------------------------------------------------
def _sym(text):
    return np.frombuffer(text, np.uint8).copy()


def _idx(values, dtype="int64", shape=None):
    a = np.array(values, dtype=dtype)
    return a.reshape(shape) if shape is not None else a


def _pack_case(b, e, s, note, dtype="int64"):
    return Case({"begins": _idx(b, dtype), "ends": _idx(e, dtype), "symbols": s}, note=note)


def _ranges(g, n, nsym, valid=True):
    """n random [begin, end) ranges over nsym bytes (any order, overlapping, empty)."""
    b = g.rng.integers(0, nsym + 1, n) if nsym else np.zeros(n, np.int64)
    e = b + g.rng.integers(0, nsym - b + 1) if nsym else np.zeros(n, np.int64)
    if not valid and n:
        k = int(g.rng.integers(n))
        kind = g.choice(["neg", "rev", "past"])
        if kind == "neg":
            b[k] = -int(g.rng.integers(1, 4))
        elif kind == "rev":
            b[k], e[k] = e[k] + 1, b[k]
        else:
            e[k] = nsym + int(g.rng.integers(1, 4))
    return b, e


@op("string_tensor_pack", tf=ov_pack, tf_name="StringTensorPack-15 (OpenVINO)")
def string_tensor_pack(g):
    ov_text = _sym(b"IntelOpenVINO")
    for dt in ALL:  # every dtype once as symbols (only uint8 is valid)
        s = g.array(dt, (13,), "small") if dt != "uint8" else ov_text
        yield Case({"begins": _idx([0, 5]), "ends": _idx([5, 13]), "symbols": s}, note=dt)
    for dt in ALL:  # every dtype once as begins and ends (only int32 and int64 are valid)
        if dt in ("int32", "int64"):
            continue
        yield Case({"begins": g.array(dt, (2,), "small"), "ends": g.array(dt, (2,), "small"),
                    "symbols": ov_text}, note=dt)
    # the spec's examples, int32 and int64
    for dt in ("int32", "int64"):
        yield _pack_case([0, 5], [5, 13], ov_text, "example 1", dt)
        yield _pack_case([0, 3, 3, 8, 9], [3, 3, 8, 9, 13], _sym(b"OMZGenAI 2024"), "example 2", dt)
        yield _pack_case([0, 8], [1, 9], _sym(b"123456789"), "example 3: skipped bytes", dt)
    yield Case({"begins": _idx([[0, 5], [13, 16]]), "ends": _idx([[5, 13], [16, 21]]),
                "symbols": _sym(b"IntelOpenVINOOMZGenAI")}, note="example 4: 2-D")
    # ranks 0-6
    for rank in range(7):
        shape = (2,) * rank if rank < 4 else (1, 2, 1, 2, 1, 1)[:rank]
        n = int(np.prod(shape, dtype=np.int64))
        b, e = _ranges(g, n, 13)
        yield Case({"begins": b.reshape(shape), "ends": e.reshape(shape), "symbols": ov_text},
                   note=f"rank {rank}")
    # zero-size dims in every position, and empty symbols
    for shape in [(0,), (0, 2), (2, 0), (1, 0, 3), (2, 3, 0), (0, 1, 1, 1, 1, 1)]:
        yield Case({"begins": np.zeros(shape, np.int64), "ends": np.zeros(shape, np.int64),
                    "symbols": ov_text}, note=f"empty {shape}")
    yield _pack_case([], [], _sym(b""), "empty begins, empty symbols")
    yield _pack_case([0, 0, 0], [0, 0, 0], _sym(b""), "empty strings of empty symbols")
    yield _pack_case([3, 3], [3, 3], ov_text, "empty strings mid-symbols")
    yield _pack_case([13], [13], ov_text, "an empty string at the end of symbols")
    yield Case({"begins": np.array(0, np.int32), "ends": np.array(13, np.int32),
                "symbols": ov_text}, note="scalar int32, all symbols")
    # overlapping, repeated, unordered ranges; NUL and non-UTF-8 bytes
    yield _pack_case([5, 0, 2, 0, 5], [13, 5, 9, 13, 13], ov_text,
                     "overlapping, unordered, repeated")
    yield _pack_case([0, 1, 3, 0], [1, 3, 6, 6], _sym(b"\0\xff\xfe\0\x80\0"), "NUL, non-UTF-8")
    yield _pack_case([1, 0], [6, 6], _sym(b"\0\xc3\xa9\0\0\0"), "trailing NULs")
    # inputs as NumPy lays them out otherwise: strided views, big-endian indices
    yield Case({"begins": _idx([0, 9, 5, 9])[::2], "ends": _idx([5, 9, 13, 9])[::2],
                "symbols": _sym(b"xIxnxtxexlxOxpxexnxVxIxNxOx")[1::2]}, note="strided views")
    yield Case({"begins": _idx([0, 5], ">i8"), "ends": _idx([5, 13], ">i8"), "symbols": ov_text},
               note="big-endian int64")
    yield Case({"begins": _idx([[0, 5]], ">i4").T, "ends": _idx([[5, 13]], ">i4").T,
                "symbols": ov_text}, note="big-endian int32, transposed")
    # ranges OpenVINO does not define
    for dt in ("int32", "int64"):
        yield _pack_case([0, 5], [5, 14], ov_text, "end one past symbols", dt)
        yield _pack_case([-1, 5], [5, 13], ov_text, "negative begin", dt)
        yield _pack_case([6, 5], [5, 13], ov_text, "begin > end", dt)
    yield _pack_case([0], [1], _sym(b""), "a range into empty symbols")
    yield _pack_case([-3], [-1], ov_text, "negative begin and end")
    yield _pack_case([0, 2**40], [5, 2**40 + 1], ov_text, "begin far past symbols")
    yield _pack_case([0, 1], [2**31 - 1, 2], ov_text, "end INT32_MAX", "int32")
    yield _pack_case([-2**31], [0], ov_text, "begin INT32_MIN", "int32")
    yield _pack_case([-2**63], [0], ov_text, "begin INT64_MIN")
    # validation errors
    yield Case({"begins": _idx([0, 5], "int32"), "ends": _idx([5, 13]), "symbols": ov_text},
               note="int32 begins, int64 ends")
    yield Case({"begins": _idx([0, 5]), "ends": _idx([5, 13], "int32"), "symbols": ov_text},
               note="int64 begins, int32 ends")
    yield Case({"begins": _idx([0, 5]), "ends": _idx([5, 13, 13]), "symbols": ov_text},
               note="shapes differ")
    yield Case({"begins": _idx([[0, 5]]), "ends": _idx([5, 13]), "symbols": ov_text},
               note="ranks differ")
    yield Case({"begins": _idx([0]), "ends": _idx([0]), "symbols": np.zeros((0,), np.int8)},
               note="empty int8 symbols")
    yield Case({"begins": np.zeros((0,), np.int64), "ends": np.zeros((0,), np.int64),
                "symbols": np.zeros((0,), np.int8)}, note="empty, int8 symbols")
    yield Case({"begins": _idx([0]), "ends": _idx([1]), "symbols": ov_text.reshape(1, 13)},
               note="2-D symbols")
    yield Case({"begins": _idx([0]), "ends": _idx([1]), "symbols": np.array(65, np.uint8)},
               note="scalar symbols")
    yield Case({"begins": _idx([0]), "ends": _idx([1]), "symbols": ov_text.reshape(13, 1, 1)},
               note="3-D symbols")
    yield Case({"begins": np.zeros((0,), np.int64), "ends": np.zeros((0,), np.int64),
                "symbols": np.zeros((0, 2), np.uint8)}, note="empty begins, 2-D symbols")
    while True:
        shape = g.shape(max_dim=3)
        n = int(np.prod(shape, dtype=np.int64))
        nsym = int(g.rng.integers(0, 40))
        b, e = _ranges(g, n, nsym, valid=g.rng.random() < 0.85)
        dt = g.choice(["int32", "int64"])
        yield Case({"begins": b.astype(dt).reshape(shape), "ends": e.astype(dt).reshape(shape),
                    "symbols": g.array("uint8", (nsym,))})


# ---- string_tensor_unpack ------------------------------------------------------------------------
@op("string_tensor_unpack", tf=ov_unpack, tf_name="StringTensorUnpack-15 (OpenVINO)")
def string_tensor_unpack(g):
    for dt in ALL:  # every dtype once (only string is valid)
        yield Case({"data": g.array(dt, (2, 3), "small")}, note=dt)
    yield Case({"data": _str([b"Intel", b"OpenVINO"])}, note="spec example 1")
    yield Case({"data": _str([b"OMZ", b"", b"GenAI", b" ", b"2024"])}, note="spec example 2")
    yield Case({"data": _str([b"Intel", b"OpenVINO", b"OMZ", b"GenAI"], (2, 2))}, note="2-D")
    for rank in range(7):  # ranks 0-6
        shape = (2,) * rank if rank < 4 else (1, 2, 1, 2, 1, 1)[:rank]
        yield Case({"data": g.array("string", shape)}, note=f"rank {rank}")
    for shape in [(0,), (0, 2), (2, 0), (1, 0, 3), (2, 3, 0), (0, 1, 1, 1, 1, 1)]:
        yield Case({"data": _str([], shape)}, note=f"empty {shape}")
    yield Case({"data": _str([b""])}, note="one empty string")
    yield Case({"data": _str([b""], ())}, note="scalar empty string")
    yield Case({"data": _str([b"", b"", b""])}, note="empty strings")
    yield Case({"data": _str([b"a\0", b"\0\0", b"", b"x\xffy\0z", b"\0"])}, note="NULs")
    yield Case({"data": _str([b"\xff\xfe", b"\xc3\xa9", b"\xc3", b"\x80abc", b"\xed\xa0\x80"])},
               note="non-UTF-8 and UTF-8")
    yield Case({"data": _str([bytes(range(256)), b"tail\0"])}, note="every byte value")
    yield Case({"data": _str([b"same"] * 6, (3, 2))}, note="repeated strings")
    yield Case({"data": _str([b"x" * 300, b"", b"y" * 200])}, note="long strings")
    yield Case({"data": _str([b"ab", b"", b"c\0", b"d"], (2, 2))[::-1, ::-1]}, note="strided view")
    yield Case({"data": _str([b"ab", b"c\0", b"de", b""], (2, 2)).T}, note="transposed")
    while True:
        yield Case({"data": g.array("string", g.shape(max_dim=3))})
