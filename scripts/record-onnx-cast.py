# SPDX-License-Identifier: Apache-2.0
"""Records tests/conformance/onnx_presets_cast.json: ONNX Cast-25's presets (cast mode=onnx)
with their expected outputs taken from ONNX itself.

    python scripts/record-onnx-cast.py [OUT]      # needs onnx, onnxruntime, ml_dtypes, numpy

The inputs are those of ONNX's own Cast test generator (onnx/backend/test/case/node/cast.py:
export, export_saturate_false, export_e8m0) plus each rule's edges (ties, the largest finite
value and just past it, infinities, NaN, -0, subnormals).  The expected outputs come from
- ONNX Runtime's CPU provider (float8 saturate=1, saturate=0 into the FNUZ types, every
  float8_e8m0fnu case, integer sources into int4 / uint4 / int2 / uint2), read back through an
  exact Cast to float32 / int32;
- onnx.reference for saturate=0 into float8_e4m3fn and float8_e5m2, whose overflow ONNX Runtime
  gets wrong against the spec's table (docs/casting.md, "Cast modes");
- the rule of ONNX's technical notes int4.md / int2.md (round to nearest even, then saturate) for
  float sources into the 4- and 2-bit integers, which neither implements (ONNX Runtime rounds
  half away from zero and wraps; onnx.reference truncates): np.clip(np.rint(x)), as ONNX's own
  float32_to_4bit_unpacked computed it."""
import json
import sys

import ml_dtypes as ml
import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as TP, helper
from onnx.reference import ReferenceEvaluator

F8 = {"float8_e4m3fn": TP.FLOAT8E4M3FN, "float8_e4m3fnuz": TP.FLOAT8E4M3FNUZ,
      "float8_e5m2": TP.FLOAT8E5M2, "float8_e5m2fnuz": TP.FLOAT8E5M2FNUZ}
INTN = {"int4": (TP.INT4, -8, 7), "uint4": (TP.UINT4, 0, 15), "int2": (TP.INT2, -2, 1),
        "uint2": (TP.UINT2, 0, 3)}
SRC = {np.dtype(np.float32): TP.FLOAT, np.dtype(np.float16): TP.FLOAT16,
       np.dtype(np.int32): TP.INT32}

# onnx/backend/test/case/node/cast.py's float8 inputs
ONNX_F8_INPUTS = ["0.47892547", "0.48033667", "0.49968487", "0.81910545", "0.47031248",
                  "0.7229038", "1000000", "1e-7", "NaN", "INF", "+INF", "-INF", "-0.0000001",
                  "0.0000001", "-1000000"]
ONNX_E8M0_INPUTS = ["0.0", "0.124", "0.25", "0.5", "1.1", "2.0", "4.0", "8.0"]


def model(src, to, after, **attrs):
    nodes = [helper.make_node("Cast", ["X"], ["M" if after else "Y"], to=to, **attrs)]
    if after:
        nodes.append(helper.make_node("Cast", ["M"], ["Y"], to=after))
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("X", src, [None])],
                          [helper.make_tensor_value_info("Y", after or to, [None])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 25)], ir_version=11)


def runtime(x, to, after, **attrs):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    m = model(SRC[x.dtype], to, after, **attrs)
    return ort.InferenceSession(m.SerializeToString(), so,
                                providers=["CPUExecutionProvider"]).run(None, {"X": x})[0]


def reference(x, to, **attrs):
    return ReferenceEvaluator(model(SRC[x.dtype], to, None, **attrs)).run(None, {"X": x})[0]


def tensor(a):
    a = np.ascontiguousarray(a)
    raw = a.tobytes() if a.dtype.itemsize == 1 else a.astype(a.dtype.newbyteorder("<")).tobytes()
    return {"dtype": a.dtype.name, "shape": list(a.shape), "hex": raw.hex()}


def codes_of(values, dtype):
    """float32 values that dtype holds exactly -> its codes (NaN -> the format's NaN)."""
    return np.asarray(values, np.float32).astype(dtype)


def case(name, x, dtype, want, source, saturate=1, round_mode="up"):
    attrs = {"dtype": dtype.name, "mode": "onnx"}
    if not saturate:
        attrs["saturate"] = False
    if round_mode != "up":
        attrs["round_mode"] = round_mode
    desc = "Cast saturate=%d" % saturate + (" round_mode=%s" % round_mode if dtype == ml.float8_e8m0fnu else "")
    return {"name": "cast/onnx_%s" % name, "op": "cast", "inputs": {"x": tensor(x)}, "attrs": attrs,
            "expect": [tensor(want)], "note": "ONNX %s to %s; expected from %s" % (desc, dtype.name, source)}


def float8_cases():
    edges = {"float8_e4m3fn": [448, 464, 465, -480, 1.0625, 1.1875, 2.0 ** -9, 2.0 ** -10, 3 * 2.0 ** -10, -0.0],
             "float8_e5m2": [57344, 61439, 61440, -65536, 1.125, 2.0 ** -16, 2.0 ** -17, -0.0],
             "float8_e4m3fnuz": [240, 247, 248, -256, 1.0625, 2.0 ** -10, -2.0 ** -11, -0.0],
             "float8_e5m2fnuz": [57344, 61439, 61440, -65536, 1.125, 2.0 ** -17, -2.0 ** -18, -0.0]}
    out = []
    for name, to in sorted(F8.items()):
        t = np.dtype(getattr(ml, name))
        x32 = np.concatenate([np.array(ONNX_F8_INPUTS, np.float32), np.float32(edges[name])])
        for src in (x32, x32.astype(np.float16)):
            for sat in (1, 0):
                if sat == 0 and name in ("float8_e4m3fn", "float8_e5m2"):
                    want, source = np.asarray(reference(src, to, saturate=sat)), "onnx.reference"
                else:
                    want = codes_of(runtime(src, to, TP.FLOAT, saturate=sat), t)
                    source = "ONNX Runtime %s" % ort.__version__
                tag = "%s%s_to_%s" % ("" if sat else "no_saturate_", src.dtype.name, name)
                out.append(case(tag, src, t, want, source, sat))
    return out


def e8m0_cases():
    t = np.dtype(ml.float8_e8m0fnu)
    bits = np.array([0x00400000, 0x00400001, 0x00600000, 0x003FFFFF, 0x7F000000, 0x7F000001,
                     0x3FC00000, 0x3FBFFFFF, 0x40400000], np.uint32).view(np.float32)
    x = np.concatenate([np.array(ONNX_E8M0_INPUTS, np.float32), bits,
                        np.float32([np.inf, np.nan, -0.0, -1.0, -np.inf, 0.75])])
    out = []
    for mode in ("up", "down", "nearest"):
        for sat in (1, 0):
            want = codes_of(runtime(x, TP.FLOAT8E8M0, TP.FLOAT, saturate=sat, round_mode=mode), t)
            out.append(case("%sfloat32_to_float8_e8m0fnu_%s" % ("" if sat else "no_saturate_", mode),
                            x, t, want, "ONNX Runtime %s" % ort.__version__, sat, mode))
    return out


def intn_cases():
    out = []
    x = np.concatenate([np.arange(-9, 16), np.arange(-9, 16) + 0.5,
                        [0.49, -0.51, np.nan, np.inf, -np.inf, -0.0, 1e-45, 100]]).astype(np.float32)
    ints = np.arange(-20, 20, dtype=np.int32)
    for name, (to, lo, hi) in sorted(INTN.items()):
        t = np.dtype(getattr(ml, name))
        want = np.where(np.isnan(x), 0, np.clip(np.rint(x), lo, hi)).astype(np.int8).astype(t)
        out.append(case("float32_to_%s" % name, x, t, want,
                        "ONNX's rule (technical/int4.md, int2.md: round to nearest even, then "
                        "saturate; NaN gives 0) as np.clip(np.rint(x))"))
        want = runtime(ints, to, TP.INT32).astype(np.int8).astype(t)
        out.append(case("int32_to_%s" % name, ints, t, want, "ONNX Runtime %s (integers wrap)" % ort.__version__))
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tests/conformance/onnx_presets_cast.json"
    suite = {"suite": "onnx_presets_cast",
             "source": "ONNX Cast-25's presets, cast mode=onnx (saturate, round_mode): recorded by "
                       "scripts/record-onnx-cast.py with onnx %s and onnxruntime %s; each case's "
                       "note names its oracle." % (onnx.__version__, ort.__version__),
             "cases": float8_cases() + e8m0_cases() + intn_cases()}
    with open(path, "w") as f:
        json.dump(suite, f, indent=1)
        f.write("\n")
    print("wrote %d cases to %s" % (len(suite["cases"]), path))


if __name__ == "__main__":
    main()
