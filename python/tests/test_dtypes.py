# SPDX-License-Identifier: Apache-2.0
"""The dtype table the extension exports from the C library's one dtype list (dtypes.def): its
columns against NumPy and ml_dtypes (and TensorFlow and ONNX where installed), and the package's
NumPy mapping generated from it."""
import numpy as np
import pytest
import tensorx as tx

ROWS = {row["name"]: row for row in tx._C.dtype_table()}


def test_the_table_is_every_dtype_in_code_order():
    codes = [row["code"] for row in tx._C.dtype_table()]
    assert codes == sorted(codes) and len(codes) == 34
    for name, row in ROWS.items():
        assert tx._C.dtype_name(row["code"]) == name
        # TF's DataType number, or 0 for the three types TF 2.21 lacks (codes 64 on, outside TF's)
        assert row["tf_datatype"] == row["code"] or (row["tf_datatype"] == 0 and row["code"] >= 64)
    assert {n for n, r in ROWS.items() if r["tf_datatype"] == 0} == {
        "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn"}


def test_value_bits():
    sub = {n: r["value_bits"] for n, r in ROWS.items() if r["value_bits"] != 8 * r["size"]}
    assert sub == {"int4": 4, "uint4": 4, "int2": 2, "uint2": 2, "float4_e2m1fn": 4,
                   "float6_e2m3fn": 6, "float6_e3m2fn": 6}
    ml = pytest.importorskip("ml_dtypes")
    for name, bits in sub.items():
        info = ml.finfo(name) if ROWS[name]["kind"] == "float" else ml.iinfo(name)
        assert info.bits == bits, name


def test_numpy_columns_are_numpy_types():
    for name, row in ROWS.items():
        if row["npy_descr"] is not None:
            d = np.dtype(row["npy_descr"])
            assert d.itemsize == row["size"] and np.dtype(row["numpy_name"]) == d, name
            assert d.kind == {"bool": "b", "signed": "i", "unsigned": "u", "float": "f",
                              "complex": "c"}[row["kind"]], name


def test_ranges_are_numpy_and_ml_dtypes_ranges():
    ml = pytest.importorskip("ml_dtypes")
    for name, row in ROWS.items():
        if row["kind"] in ("signed", "unsigned") and row["numpy_name"]:
            info = ml.iinfo(row["numpy_name"])
            assert (row["min"], row["max"]) == (info.min, info.max), name
        elif row["kind"] == "float":
            assert row["max_finite"] == float(ml.finfo(row["numpy_name"]).max), name
            assert row["min_finite"] == float(ml.finfo(row["numpy_name"]).min), name
    # every ml_dtypes type of the 2026 table is a tensorx dtype under ml_dtypes' name
    for name in ("float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "int2", "uint2",
                 "float4_e2m1fn", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn"):
        assert ROWS[name]["numpy_name"] == name and hasattr(ml, name), name


def test_storage_of_the_types_numpy_lacks():
    # The types NumPy lacks are those of the structured convention, stored as these integers.
    assert tx._STORAGE == {"bfloat16": np.uint16, "float8_e5m2": np.uint8,
                           "float8_e4m3fn": np.uint8, "int4": np.int8, "uint4": np.uint8,
                           "qint8": np.int8, "quint8": np.uint8, "qint16": np.int16,
                           "quint16": np.uint16, "qint32": np.int32, "float8_e4m3fnuz": np.uint8,
                           "float8_e4m3b11fnuz": np.uint8, "float8_e5m2fnuz": np.uint8,
                           "int2": np.int8, "uint2": np.uint8, "float4_e2m1fn": np.uint8,
                           "float8_e8m0fnu": np.uint8, "float6_e2m3fn": np.uint8,
                           "float6_e3m2fn": np.uint8}
    assert tx._ML_NAMES == ("bfloat16", "float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
                            "float8_e4m3b11fnuz", "float8_e5m2fnuz", "int4", "uint4", "int2",
                            "uint2", "float4_e2m1fn", "float8_e8m0fnu", "float6_e2m3fn",
                            "float6_e3m2fn")
    for name, storage in tx._STORAGE.items():
        assert np.dtype(storage).itemsize == ROWS[name]["size"], name


def test_ml_dtypes_names_and_sizes():
    ml = pytest.importorskip("ml_dtypes")
    for name in tx._ML_NAMES:
        row = ROWS[name]
        assert np.dtype(getattr(ml, row["numpy_name"])).itemsize == row["size"], name


def test_tensorflow_datatype_numbers():
    tf = pytest.importorskip("tensorflow")
    for name, row in ROWS.items():
        if row["tf_datatype"]:  # TF 2.21 names int2, uint2, float4 and the FNUZ types only by number
            assert tf.dtypes.as_dtype(row["tf_datatype"]).name == name, name


def test_onnx_tensorproto_numbers():
    onnx = pytest.importorskip("onnx")
    spelled = {"float32": "FLOAT", "float64": "DOUBLE", "float8_e5m2": "FLOAT8E5M2",
               "float8_e4m3fn": "FLOAT8E4M3FN", "float8_e4m3fnuz": "FLOAT8E4M3FNUZ",
               "float8_e5m2fnuz": "FLOAT8E5M2FNUZ", "float4_e2m1fn": "FLOAT4E2M1",
               "float8_e8m0fnu": "FLOAT8E8M0", "float6_e2m3fn": "FLOAT6E2M3",
               "float6_e3m2fn": "FLOAT6E3M2"}
    for name, row in ROWS.items():
        if row["onnx_datatype"]:
            want = spelled.get(name, name.upper())
            assert getattr(onnx.TensorProto, want) == row["onnx_datatype"], name
