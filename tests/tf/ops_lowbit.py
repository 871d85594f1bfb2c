# SPDX-License-Identifier: Apache-2.0
"""The casting family's deliberate differences for the low-bit dtypes TF 2.21 declares but converts
nothing to or from (float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2fnuz, int2, uint2,
float4_e2m1fn: DataType 26-28 and 31-33; their cases are in ops_casting.py's generators).  TF
refuses their casts, saturate_cast and bitcast, so each result tensorx gives instead is
checked here against its reference, never taken as it is:
- cast and the to_* ops: ml_dtypes' astype, except float -> integer, which is TF's rule for every
  float type (TF's own Cast of the value, a low-bit float as float32, each element alone: TF's
  scalar conversion, the one tensorx gives for NaN and out-of-range values), and int2 / uint2 from a
  float, TF's int4 rule (TF's float -> int8, then the low 2 bits; ml_dtypes gives 0 out of range);
- saturate_cast: the same conversion of the values clamped to the target's range (the bounds
  rounded into the input's dtype toward the range, as TF's clip nudges them);
- bitcast of the 8-bit ones: TF's Bitcast of the same bytes as uint8 (tensorx refuses the sub-byte
  ones, as TF does; decode_raw takes the 8-bit float types and refuses the sub-byte ones, see
  ops_casting.py's extension row);
- one_hot and sequence_mask, where TF's Python fails in a Cast of int2 / uint2 it composes the op
  with: TF's op on the same values held in int8 / uint8."""
import re

import ml_dtypes
import numpy as np
import tensorflow as tf
from oracle import BEYOND_TF_ROW, COMPLEX, FLOAT8, FLOATS, INT2, INT4, INTS, LOWBIT, \
    LOWBIT_FLOATS, OPS, QUANTIZED, TF_DTYPES, Case, Out, agree, difference, dtype_of, np_dtype, \
    run_tf
from ops_casting import EXTENSION_ROW, PAIRS_ROW, _io, _target_range

R = tf.raw_ops
_FLOATY = FLOATS + FLOAT8 + LOWBIT_FLOATS + COMPLEX
_ML_FLOATS = FLOAT8 + LOWBIT_FLOATS  # ml_dtypes' float types: every value is one of 16 or 256 codes
_MASK = {"int4": 0xF, "uint4": 0xF, "int2": 0x3, "uint2": 0x3}  # the value bits of a byte


def _base(name):
    """The integer type a quantized type holds (the name itself otherwise)."""
    return np_dtype(name).fields[name][0].name if name in QUANTIZED else name


def _tf_each(x, target):
    """TF's Cast of every element of x alone (a one-element tensor runs TF's scalar conversion)."""
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty(flat.shape, np_dtype(target))
    seen = {}
    with tf.device("/CPU:0"):
        for i, v in enumerate(flat):
            key = flat[i:i + 1].tobytes()
            if key not in seen:
                seen[key] = R.Cast(x=tf.constant(flat[i:i + 1]), DstT=TF_DTYPES[target]).numpy()[0]
            out[i] = seen[key]
    return out.reshape(np.shape(x))


def _float_to_int(x, target):
    """TF's float -> integer rule for real floats x (a low-bit float through float32); a sub-byte
    target as TF's int4 rule: float -> int8, then the value bits."""
    if dtype_of(x) in _ML_FLOATS:
        x = x.astype(np.float32)
    if target in _MASK:
        low = _tf_each(x, "int8").view(np.uint8) & _MASK[target]
        return low.view(np_dtype(target))
    return _tf_each(x, target)


def reference_cast(x, target):
    """tensorx's cast of x (an array with a low-bit dtype on one side) to `target`, from the
    references the module docstring names; the bytes, or None where there is none."""
    src, dst = _base(dtype_of(x)), _base(target)
    if dtype_of(x) in QUANTIZED:
        x = x.view(np_dtype(src))
    if src in _FLOATY and dst in INTS + INT4 + INT2:
        return _float_to_int(x.real if src in COMPLEX else x, dst).tobytes()
    if src in COMPLEX:
        x = x.real  # the imaginary part is dropped, as TF's complex -> real casts drop it
    if dst in COMPLEX:
        x = x.astype(np.float64)  # exact for every real type that is not a 64-bit integer
    if src in INT4 + INT2:
        x = x.astype(np.int8 if src.startswith("int") else np.uint8)
    with np.errstate(all="ignore"):
        return np.ascontiguousarray(np.asarray(x).astype(np_dtype(dst))).tobytes()


def _bounds(src, dst):
    """saturate_cast's clamp of a `src` value to `dst`'s range: the range's ends, taken into src's
    values toward the inside where src cannot hold them (TF's nudge)."""
    if dst in INTS + INT4 + INT2:
        lo, hi = _target_range(dst)
    else:
        info = ml_dtypes.finfo(np_dtype(dst))
        lo, hi = float(info.min), float(info.max)
    if src in _ML_FLOATS:
        v = np.arange(16 if src == "float4_e2m1fn" else 256, dtype=np.uint8).view(np_dtype(src))
        v = v.astype(np.float64)
        v = v[np.isfinite(v)]
        lo, hi = v[v >= lo].min(), v[v <= hi].max()
    return lo, hi


def reference_saturate(x, target):
    src = dtype_of(x)
    if src in QUANTIZED or target in QUANTIZED or src == "bool" or target == "bool":
        return None
    real = x.real if src in COMPLEX else x
    lo, hi = _bounds(dtype_of(real), target)
    if dtype_of(real) in INTS + INT4 + INT2:
        wide = real.astype(np.uint64 if src == "uint64" else np.int64)
        lo, hi = max(int(np.ceil(lo)), int(np.iinfo(wide.dtype).min)), \
            min(int(np.floor(hi)), int(np.iinfo(wide.dtype).max))
        clamped = np.clip(wide, wide.dtype.type(lo), wide.dtype.type(hi))
    else:
        with np.errstate(all="ignore"):
            clamped = np.clip(real.astype(np.float64), lo, hi)
    with np.errstate(all="ignore"):
        return reference_cast(clamped.astype(real.dtype), target)


def _lowbit_case(case, got):
    """(input, target) of a cast-like case whose input or target is a low-bit dtype and that
    tensorx runs; None otherwise."""
    x, target = _io(case)
    if x is None or got[0] != "ok" or len(got[1]) != 1:
        return None
    target = target or got[1][0].dtype
    if dtype_of(x) not in LOWBIT and target not in LOWBIT:
        return None
    return x, target


def _cast_pair(case, want, got):
    """TF: "Cast X to Y is not supported"; tensorx: the reference conversion."""
    xt = _lowbit_case(case, got)
    if xt is None or want[0] != "error" or "is not supported" not in want[2]:
        return False
    return reference_cast(*xt) == got[1][0].data


for _op in ["cast", "to_double", "to_float", "to_bfloat16", "to_int32", "to_int64"]:
    difference(_op, PAIRS_ROW)(_cast_pair)


def _saturate(messages):
    def test(case, want, got):
        xt = _lowbit_case(case, got)
        if xt is None or want[0] != "error" or not any(m in want[2] for m in messages):
            return False
        return reference_saturate(*xt) == got[1][0].data
    return test


# To a low-bit type TF clamps and then fails in Cast; from one, its clamp's Maximum has no kernel
# for it, or TF's Python fails first computing the bounds from ml_dtypes' min and max.
difference("saturate_cast", PAIRS_ROW)(_saturate(["is not supported"]))
difference("saturate_cast", EXTENSION_ROW)(_saturate(["not in the list of allowed values",
                                                      "expected number, got ml_dtypes"]))


def _bitcast_bytes(case, want, got):
    """bitcast with a float8 type (FNUZ or not) on either side: TF's Bitcast with uint8 in its
    place gives tensorx's outcome (its shape and bytes, or the category of its error)."""
    x, t = case.inputs.get("input"), case.attrs.get("type")
    if x is None or want[0] != "error" or "not in the list of allowed values" not in want[2] or \
            not {dtype_of(x), t} & set(LOWBIT):
        return False
    carried = Case({"input": x.view(np.uint8) if dtype_of(x) in _ML_FLOATS else x},
                   {"type": "uint8" if t in _ML_FLOATS else t})
    again = run_tf(OPS["bitcast"], carried)
    if again[0] == "ok" and got[0] == "ok":  # the output named as tensorx's
        again = ("ok", [Out(got[1][0].dtype, again[1][0].shape, again[1][0].data)])
    return agree(case, again, got) is None


difference("bitcast", EXTENSION_ROW)(_bitcast_bytes)


def _decode_raw_bytes(case, want, got):
    """decode_raw to an 8-bit float type (tensorx's extension; TF's DecodeRaw lists none): TF's
    DecodeRaw to uint8 of the same bytes gives tensorx's outcome (shape and bytes, or error)."""
    t = case.attrs.get("out_type")
    if "input_bytes" not in case.inputs or t not in [d for d in _ML_FLOATS if d != "float4_e2m1fn"] \
            or want[0] != "error" or "not in the list of allowed values" not in want[2]:
        return False
    again = run_tf(OPS["decode_raw"], Case(case.inputs, {**case.attrs, "out_type": "uint8"}))
    if again[0] == "ok" and got[0] == "ok":  # the output named as tensorx's
        again = ("ok", [Out(got[1][0].dtype, again[1][0].shape, again[1][0].data)])
    return agree(case, again, got) is None


difference("decode_raw", EXTENSION_ROW)(_decode_raw_bytes)


# ---- ops TF's Python composes with a Cast of the low-bit type ------------------------------------
_WIDER = {"int2": "int8", "uint2": "uint8"}  # a type TF's Cast takes that holds every value


def _in_wider(case, want, got, name):
    """TF's Python fails in a Cast to or from int2 / uint2 inside the op (one_hot's on/off values,
    sequence_mask's lengths cast to maxlen's type): TF's op on the same values held in int8 / uint8
    gives tensorx's outcome."""
    m = re.search(r"Cast (\w+) to (\w+) is not supported", want[2]) if want[0] == "error" else None
    if not m or not {m.group(1), m.group(2)} & set(_WIDER):
        return False
    wider = Case({k: v.astype(_WIDER[dtype_of(v)]) if dtype_of(v) in _WIDER else v
                  for k, v in case.inputs.items()},
                 dict(case.attrs, **({"dtype": _WIDER[case.attrs["dtype"]]}
                                     if case.attrs.get("dtype") in _WIDER else {})))
    again = run_tf(OPS[name], wider)
    if again[0] == "ok" and got[0] == "ok" and len(again[1]) == len(got[1]):
        again = ("ok", [Out.of_numpy(np.frombuffer(w.data, np_dtype(w.dtype)).reshape(w.shape)
                                     .astype(np_dtype(g.dtype)), g.dtype)
                        if g.dtype in _WIDER else w for w, g in zip(again[1], got[1])])
    return agree(case, again, got) is None


for _op in ["one_hot", "sequence_mask"]:
    difference(_op, BEYOND_TF_ROW)(lambda case, want, got, _o=_op: _in_wider(case, want, got, _o))
