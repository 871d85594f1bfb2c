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
    assert codes == sorted(codes) and len(codes) == 25
    for name, row in ROWS.items():
        assert tx._C.dtype_name(row["code"]) == name and row["tf_datatype"] == row["code"]


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


def test_storage_of_the_types_numpy_lacks():
    # The types NumPy lacks are those of the structured convention, stored as these integers.
    assert tx._STORAGE == {"bfloat16": np.uint16, "float8_e5m2": np.uint8,
                           "float8_e4m3fn": np.uint8, "int4": np.int8, "uint4": np.uint8,
                           "qint8": np.int8, "quint8": np.uint8, "qint16": np.int16,
                           "quint16": np.uint16, "qint32": np.int32}
    assert tx._ML_NAMES == ("bfloat16", "float8_e5m2", "float8_e4m3fn", "int4", "uint4")
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
        assert getattr(tf, name).as_datatype_enum == row["tf_datatype"], name


def test_onnx_tensorproto_numbers():
    onnx = pytest.importorskip("onnx")
    spelled = {"float32": "FLOAT", "float64": "DOUBLE", "float8_e5m2": "FLOAT8E5M2",
               "float8_e4m3fn": "FLOAT8E4M3FN"}
    for name, row in ROWS.items():
        if row["onnx_datatype"]:
            want = spelled.get(name, name.upper())
            assert getattr(onnx.TensorProto, want) == row["onnx_datatype"], name
