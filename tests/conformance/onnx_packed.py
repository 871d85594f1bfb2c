# SPDX-License-Identifier: Apache-2.0
"""Writes onnx_packed.json beside this file: pack_subbyte / unpack_subbyte cases whose packed bytes
are ONNX's own packing (onnx.numpy_helper.from_array of an ml_dtypes array: a TensorProto's
raw_data) for every sub-byte dtype ONNX has (INT4, UINT4, FLOAT4E2M1, INT2, UINT2, FLOAT6E2M3,
FLOAT6E3M2), on odd counts and shapes, each checked to read back through numpy_helper.to_array;
plus the error cases of the element-count and padding rules; and cast_pack of each dtype's values
as float32 / int32 against the same packing.  Run with onnx >= 1.23, ml_dtypes
and NumPy:  python tests/conformance/onnx_packed.py"""
import json
import os

import ml_dtypes
import numpy as np
import onnx
from onnx import numpy_helper

DTYPES = ["int4", "uint4", "float4_e2m1fn", "int2", "uint2", "float6_e2m3fn", "float6_e3m2fn"]
BITS = {"int4": 4, "uint4": 4, "float4_e2m1fn": 4, "int2": 2, "uint2": 2, "float6_e2m3fn": 6,
        "float6_e3m2fn": 6}
SHAPES = [(), (0,), (1,), (3,), (5,), (7,), (2, 3), (3, 5, 7)]


def tensor(a, dtype):
    return {"dtype": dtype, "shape": list(a.shape), "hex": np.ascontiguousarray(a).tobytes().hex()}


def sample(name, shape, rng):
    """Every code of the dtype in turn (from a random start), as ml_dtypes holds its values."""
    t = np.dtype(getattr(ml_dtypes, name))
    codes = np.arange(1 << BITS[name], dtype=np.uint8)
    n = int(np.prod(shape, dtype=np.int64))
    c = np.roll(np.resize(codes, n), int(rng.integers(0, 64))) if n else codes[:0]
    if name in ("int4", "int2"):  # a code's value, which ml_dtypes stores in the low bits
        half = 1 << (BITS[name] - 1)
        return np.where(c >= half, c.astype(np.int16) - 2 * half, c).astype(t).reshape(shape)
    return c.view(t).reshape(shape)


def main():
    rng = np.random.default_rng(2026)
    cases = []
    for name in DTYPES:
        for shape in SHAPES:
            a = sample(name, shape, rng)
            proto = numpy_helper.from_array(a)
            packed = np.frombuffer(proto.raw_data, np.uint8)
            back = numpy_helper.to_array(proto)
            assert back.dtype == a.dtype and np.array_equal(back.view(np.uint8), a.view(np.uint8))
            tag = "%s_%s" % (name, "x".join(map(str, shape)) or "scalar")
            cases.append({"name": "pack_subbyte/onnx_%s" % tag, "op": "pack_subbyte",
                          "inputs": {"x": tensor(a, name)}, "attrs": {},
                          "expect": [tensor(packed, "uint8")]})
            cases.append({"name": "unpack_subbyte/onnx_%s" % tag, "op": "unpack_subbyte",
                          "inputs": {"packed": tensor(packed, "uint8")},
                          "attrs": {"dtype": name, "shape": list(shape)},
                          "expect": [tensor(a, name)]})
    # The element-count rule: exactly ceil(numel * bits / 8) bytes; the padding bits zero.
    for name in DTYPES:
        a = sample(name, (5,), rng)
        packed = np.frombuffer(numpy_helper.from_array(a).raw_data, np.uint8)
        for what, p in [("one_byte_short", packed[:-1]), ("one_byte_over", np.append(packed, 0)),
                        ("padding_bit", np.append(packed[:-1], packed[-1] | 0x80))]:
            cases.append({"name": "unpack_subbyte/%s_%s" % (what, name), "op": "unpack_subbyte",
                          "inputs": {"packed": tensor(p.astype(np.uint8), "uint8")},
                          "attrs": {"dtype": name, "shape": [5]}, "expect_error": "invalid_argument"})
    cases.append({"name": "unpack_subbyte/not_sub_byte", "op": "unpack_subbyte",
                  "inputs": {"packed": tensor(np.zeros(1, np.uint8), "uint8")},
                  "attrs": {"dtype": "int8", "shape": [1]}, "expect_error": "invalid_argument"})
    cases.append({"name": "pack_subbyte/not_sub_byte", "op": "pack_subbyte",
                  "inputs": {"x": tensor(np.zeros(3, np.float32), "float32")}, "attrs": {},
                  "expect_error": "invalid_argument"})
    # cast_pack: float32 / int32 values of each dtype (so the cast is exact) packed as ONNX packs
    # the dtype's array.
    for name in DTYPES:
        for shape in [(), (5,), (2, 3), (3, 5, 7)]:
            a = sample(name, shape, rng)
            packed = np.frombuffer(numpy_helper.from_array(a).raw_data, np.uint8)
            src = a.astype(np.int32 if name[0] in "iu" else np.float32)
            tag = "%s_%s_%s" % (src.dtype, name, "x".join(map(str, shape)) or "scalar")
            cases.append({"name": "cast_pack/onnx_%s" % tag, "op": "cast_pack",
                          "inputs": {"x": tensor(src, str(src.dtype))}, "attrs": {"dtype": name},
                          "expect": [tensor(packed, "uint8")]})
    cases.append({"name": "cast_pack/not_sub_byte", "op": "cast_pack",
                  "inputs": {"x": tensor(np.zeros(3, np.float32), "float32")},
                  "attrs": {"dtype": "int8"}, "expect_error": "invalid_argument"})
    suite = {"suite": "onnx_packed",
             "source": "ONNX %s's packing of sub-byte tensors (onnx.numpy_helper.from_array: TensorProto "
                       "raw_data, little bit-endian, zero padding), checked to read back with "
                       "numpy_helper.to_array; written by tests/conformance/onnx_packed.py" % onnx.__version__,
             "cases": cases}
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "onnx_packed.json")
    with open(out, "w") as f:
        json.dump(suite, f, indent=1)
        f.write("\n")
    print("%s: %d cases" % (out, len(cases)))


if __name__ == "__main__":
    main()
