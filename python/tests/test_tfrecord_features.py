# SPDX-License-Identifier: Apache-2.0
"""From TFRecord files to arrays: the feature specs (FixedLenFeature, VarLenFeature),
parse_features (tf.io.parse_example's dict form over tensorx.parse_example) and tfrecord_batches,
against Examples written from the proto definitions (example_proto.py): values, dtypes, shapes,
the last batch, decode_raw of bytes features, every spec error naming its feature, TF's parsing
errors, the records parsed in place (memoryviews of the mapped file) and memory held to a
batch."""
import tracemalloc

import numpy as np
import pytest
import tensorx as tx
from example_proto import example

F, V = tx.FixedLenFeature, tx.VarLenFeature

RECORDS = [
    example({"label": ("int64", [7]), "xy": ("float", [1.5, 2]), "tags": ("bytes", [b"a", b"bc"]),
             "ids": ("int64", [-1, 2**40, 3]), "pix": ("bytes", [bytes([1, 0, 2, 0])])}),
    example({"label": ("int64", [3]), "tags": ("bytes", []),
             "pix": ("bytes", [b"\xff\x00\x00\x01"])}),
    example({"label": ("int64", [-9]), "xy": ("float", [0.25, -4]), "tags": ("bytes", [b"z"]),
             "pix": ("bytes", [bytes(4)])}),
]
FEATURES = {"label": F([], np.int64), "xy": F([2], "float32", default_value=[0.5, 0]),
            "tags": V(bytes), "ids": V("int64"), "pix": F([], np.bytes_)}


def test_features_are_tfs_named_tuples():
    f = F([2, 3], "float32")
    assert f == (f.shape, f.dtype, f.default_value) == ([2, 3], "float32", None)
    assert F._fields == ("shape", "dtype", "default_value") and V._fields == ("dtype",)
    assert tx.SparseTensorValue._fields == ("indices", "values", "dense_shape")
    with pytest.raises(AttributeError):
        f.shape = [1]  # type: ignore[misc]


def test_specs_with_tfs_fields_are_taken():
    """TF's tf.io.FixedLenFeature and VarLenFeature are namedtuples of the same fields: a dict of
    them is taken as it is (here: look-alikes, without TF)."""
    import collections
    TFFixed = collections.namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"])
    TFVar = collections.namedtuple("VarLenFeature", ["dtype"])
    got = tx.parse_features(RECORDS, {"label": TFFixed([], "int64", None), "tags": TFVar(bytes)})
    want = tx.parse_features(RECORDS, {"label": F([], "int64"), "tags": V(bytes)})
    assert got["label"].tolist() == want["label"].tolist()
    assert got["tags"].values.tolist() == want["tags"].values.tolist()
    Other = collections.namedtuple("FixedLenSequenceFeature", ["shape", "dtype", "allow_missing",
                                                              "default_value"])
    with pytest.raises(TypeError, match="feature 'x' is a FixedLenSequenceFeature"):
        tx.parse_features(RECORDS, {"x": Other([], "int64", True, None)})


def test_parse_features_batch_values_dtypes_shapes():
    got = tx.parse_features(RECORDS, FEATURES)
    assert list(got) == ["ids", "tags", "label", "pix", "xy"]  # TF's: sparse, then dense, sorted
    assert got["label"].dtype == np.int64 and got["label"].tolist() == [7, 3, -9]
    assert got["xy"].dtype == np.float32 and got["xy"].shape == (3, 2)
    assert got["xy"].tolist() == [[1.5, 2], [0.5, 0], [0.25, -4]]  # the default for record 1
    assert got["pix"].dtype == object and got["pix"].tolist() == [
        bytes([1, 0, 2, 0]), b"\xff\x00\x00\x01", bytes(4)]
    tags = got["tags"]
    assert isinstance(tags, tx.SparseTensorValue)
    assert tags.indices.dtype == np.int64 and tags.indices.tolist() == [[0, 0], [0, 1], [2, 0]]
    assert tags.values.tolist() == [b"a", b"bc", b"z"] and tags.dense_shape.tolist() == [3, 2]
    ids = got["ids"]
    assert ids.values.dtype == np.int64 and ids.values.tolist() == [-1, 2**40, 3]
    assert ids.indices.tolist() == [[0, 0], [0, 1], [0, 2]] and ids.dense_shape.tolist() == [3, 3]


def test_parse_features_is_the_raw_ops_outputs():
    """The dict holds exactly tensorx.parse_example's outputs for the sorted keys."""
    got = tx.parse_features(RECORDS, FEATURES)
    raw = tx.parse_example(np.array(RECORDS, dtype=object), None, ["ids", "tags"],
                           ["label", "pix", "xy"], "int64,string",
                           [np.empty(0, np.int64), np.empty(0, object), np.array([0.5, 0], "f4")],
                           [[], [], [2]])
    flat = [got["ids"].indices, got["tags"].indices, got["ids"].values, got["tags"].values,
            got["ids"].dense_shape, got["tags"].dense_shape, got["label"], got["pix"], got["xy"]]
    assert len(raw) == len(flat)
    for a, b in zip(raw, flat):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tolist() == b.tolist()


def test_one_record_is_parse_single_example():
    batch = tx.parse_features(RECORDS[:1], FEATURES)
    for one in (RECORDS[0], memoryview(RECORDS[0]), np.array(RECORDS[0], dtype=object)):
        got = tx.parse_features(one, FEATURES)
        assert got["label"].shape == () and int(got["label"]) == 7
        assert got["xy"].shape == (2,) and got["xy"].tolist() == batch["xy"][0].tolist()
        assert got["tags"].indices.tolist() == [[0], [1]]  # no batch column
        assert got["tags"].dense_shape.tolist() == [2]
        assert got["ids"].values.tolist() == batch["ids"].values.tolist()


def test_dtype_spellings_and_defaults():
    recs = [example({}), example({"s": ("bytes", [b"q", b"r"])})]
    for dtype in ("string", bytes, np.bytes_, np.dtype("S1"), object):
        got = tx.parse_features(recs, {"s": F([2], dtype, default_value=["x", b"y"])})
        assert got["s"].tolist() == [[b"x", b"y"], [b"q", b"r"]]
    for dtype in ("int64", np.int64, np.dtype("<i8")):
        got = tx.parse_features(recs, {"n": F([1, 2], dtype, default_value=np.array([[4], [5]]))})
        assert got["n"].dtype == np.int64 and got["n"].shape == (2, 1, 2)  # reshaped, as TF does
        assert got["n"].tolist() == [[[4, 5]]] * 2
    got = tx.parse_features(recs, {"f": F(1, np.float32, default_value=0.1)})  # an int shape
    assert got["f"].dtype == np.float32 and got["f"].tolist() == [[np.float32(0.1)]] * 2


@pytest.mark.parametrize("features, error, match", [
    ([("a", F([], "int64"))], TypeError, "features must be a dict"),
    ({}, ValueError, "features cannot be empty"),
    ({b"a": F([], "int64")}, TypeError, "feature keys are str"),
    ({"a": ([], "int64")}, TypeError, "feature 'a' is a tuple, not a FixedLenFeature"),
    ({"a": F([], "float64")}, ValueError, "feature 'a': dtype float64 is not one of float32"),
    ({"a": V("int32")}, ValueError, "feature 'a': dtype int32 is not one of"),
    ({"a": V("no such")}, TypeError, "feature 'a': dtype 'no such' is not a dtype"),
    ({"a": F(None, "int64")}, ValueError, "feature 'a': missing shape"),
    ({"a": F([None, 2], "int64")}, TypeError, "feature 'a'.*every dim must be a known int"),
    ({"a": F("2", "int64")}, TypeError, "feature 'a'.*every dim must be a known int"),
    ({"a": F(object(), "int64")}, TypeError, "feature 'a': shape .* is not a list of ints"),
    ({"a": F([2, -1], "int64")}, ValueError, "feature 'a': shape \\[2, -1\\] has a negative dim"),
    ({"a": F([2], "int64", [1, 2, 3])}, tx.InvalidArgumentError,
     "feature 'a': default_value has 3 values, shape \\[2\\] holds 2"),
    ({"a": F([], "int64", 1.5)}, TypeError, "feature 'a': default_value of dtype float64"),
    ({"a": F([], "float32", "x")}, TypeError, "feature 'a': default_value of dtype <U1"),
    ({"a": F([], "string", 3)}, TypeError, "feature 'a': default_value of a string feature"),
])
def test_spec_errors_name_the_feature_and_the_rule(features, error, match):
    with pytest.raises(error, match=match):
        tx.parse_features(RECORDS, features)
    assert issubclass(error, (TypeError, ValueError))


def test_parsing_errors_are_tfs():
    with pytest.raises(tx.InvalidArgumentError, match=r"Name: <unknown>, Feature: ids \(data "
                       r"type: int64\) is required but could not be found"):
        tx.parse_features(RECORDS, {"ids": F([3], "int64")})
    with pytest.raises(tx.InvalidArgumentError, match=r"Name: second, Feature: xy .* is required"):
        tx.parse_features(RECORDS, {"xy": F([2], "float32")}, example_names=["first", "second",
                                                                              "third"])
    with pytest.raises(tx.InvalidArgumentError, match="Key: label, Index: 0.  Data types don't "
                       "match. Data type: int64 but expected type: float"):
        tx.parse_features(RECORDS, {"label": F([], "float32")})
    with pytest.raises(tx.InvalidArgumentError, match="Could not parse example input"):
        tx.parse_features([b"\x0b"], FEATURES)  # a group: not an Example
    with pytest.raises(tx.InvalidArgumentError, match=r"Key: ids, Index: 0.  Number of int64 "
                       r"values != expected.  Values size: 3 but output shape: \[2\]"):
        tx.parse_features(RECORDS[:1], {"ids": F([2], "int64")})


# ---- tfrecord_batches ------------------------------------------------------------------------

def _write(tmp_path, records, compression=None, name="r.tfrecord"):
    path = tmp_path / name
    tx.tfrecord_write(path, records, compression=compression)
    return path


def _rows(batch, key):
    return batch[key].tolist()


@pytest.mark.parametrize("compression", [None, "GZIP"])
def test_batches_concatenate_to_one_parse(tmp_path, compression):
    records = [RECORDS[i % 3] for i in range(10)]
    path = _write(tmp_path, records, compression)
    whole = tx.parse_features(records, FEATURES)
    batches = list(tx.tfrecord_batches(path, FEATURES, 4, compression=compression))
    assert [len(b["label"]) for b in batches] == [4, 4, 2]  # the short last batch too
    for key in ("label", "xy", "pix"):
        assert np.concatenate([b[key] for b in batches]).tolist() == whole[key].tolist()
        assert all(b[key].dtype == whole[key].dtype for b in batches)
    vals = np.concatenate([b["tags"].values for b in batches])
    assert vals.tolist() == whole["tags"].values.tolist()
    assert [b["tags"].dense_shape.tolist() for b in batches] == [[4, 2], [4, 2], [2, 2]]
    dropped = list(tx.tfrecord_batches(path, FEATURES, 4, compression=compression,
                                       drop_remainder=True))
    assert [len(b["label"]) for b in dropped] == [4, 4]
    assert list(tx.tfrecord_batches(path, FEATURES, 5, compression=compression,
                                    drop_remainder=True))[1]["label"].tolist() == \
        whole["label"][5:].tolist()  # an exact fit keeps its last batch
    assert list(tx.tfrecord_batches(_write(tmp_path, [], compression, "e.tfrecord"), FEATURES,
                                    3, compression=compression)) == []


def test_decode_raw_of_a_bytes_feature(tmp_path):
    path = _write(tmp_path, RECORDS)
    pix = [np.frombuffer(r, np.uint8) for r in tx.parse_features(RECORDS, FEATURES)["pix"]]
    (b,) = tx.tfrecord_batches(path, FEATURES, 8, decode={"pix": np.uint16})
    assert b["pix"].dtype == np.uint16 and b["pix"].shape == (3, 2)
    assert b["pix"].tolist() == [p.view("<u2").tolist() for p in pix]
    (b,) = tx.tfrecord_batches(path, FEATURES, 8, decode={"pix": ("int16", False)})
    assert b["pix"].dtype == np.int16 and b["pix"].tolist() == [p.view(">i2").tolist()
                                                                for p in pix]
    assert b["label"].tolist() == [7, 3, -9]  # the other features as parse_features gives them


def test_decode_errors(tmp_path):
    path = _write(tmp_path, RECORDS)
    for decode, match in [({"tags": "uint8"}, "decode\\['tags'\\]: decode_raw takes a string "
                           "FixedLenFeature"),
                          ({"label": "uint8"}, "decode\\['label'\\]"),
                          ({"nope": "uint8"}, "decode\\['nope'\\]")]:
        with pytest.raises(ValueError, match=match):
            tx.tfrecord_batches(path, FEATURES, 2, decode=decode)
    with pytest.raises(ValueError, match="decode\\['pix'\\] is \\('uint8',\\): give a dtype"):
        tx.tfrecord_batches(path, FEATURES, 2, decode={"pix": ("uint8",)})
    with pytest.raises(TypeError, match="decode must be a dict"):
        tx.tfrecord_batches(path, FEATURES, 2, decode=["pix"])
    with pytest.raises(tx.UnimplementedError):
        tx.tfrecord_batches(path, FEATURES, 2, decode={"pix": "string"})
    # TF's decode_raw rules, in the batch that breaks them
    with pytest.raises(tx.InvalidArgumentError, match="Input to DecodeRaw has length 4 that is "
                       "not a multiple of 8"):
        next(tx.tfrecord_batches(path, FEATURES, 2, decode={"pix": "float64"}))
    odd = _write(tmp_path, RECORDS[:2] + [example({"label": ("int64", [1]),
                                                   "pix": ("bytes", [b"abc"])})], name="odd")
    it = tx.tfrecord_batches(odd, FEATURES, 2, decode={"pix": "uint8"})
    assert next(it)["pix"].shape == (2, 4)
    assert next(it)["pix"].shape == (1, 3)  # each batch is its own decode_raw call
    with pytest.raises(tx.InvalidArgumentError, match="DecodeRaw requires input strings to all "
                       "be the same size, but element 2 has size 3 != 4"):
        next(tx.tfrecord_batches(odd, FEATURES, 3, decode={"pix": "uint8"}))


def test_batch_argument_errors(tmp_path):
    path = _write(tmp_path, RECORDS)
    with pytest.raises(ValueError, match="batch_size must be at least 1, got 0"):
        tx.tfrecord_batches(path, FEATURES, 0)
    with pytest.raises(TypeError, match="batch_size must be an int"):
        tx.tfrecord_batches(path, FEATURES, 2.0)
    with pytest.raises(ValueError, match="compression"):
        tx.tfrecord_batches(path, FEATURES, 2, compression="LZ4")
    with pytest.raises(tx.InvalidArgumentError, match="missing.tfrecord"):  # TFRecordReader's
        tx.tfrecord_batches(tmp_path / "missing.tfrecord", FEATURES, 2)
    with pytest.raises(ValueError, match="feature 'a'"):  # checked before the file is read
        tx.tfrecord_batches(tmp_path / "missing.tfrecord", {"a": F([-1], "int64")}, 2)


def test_a_damaged_record_raises_after_the_batches_before_it(tmp_path):
    path = _write(tmp_path, [RECORDS[0]] * 5)
    data = bytearray(path.read_bytes())
    data[-3] ^= 1  # the last record's data
    path.write_bytes(bytes(data))
    it = tx.tfrecord_batches(path, FEATURES, 2)
    assert next(it)["label"].tolist() == [7, 7] and next(it)["label"].tolist() == [7, 7]
    with pytest.raises(tx.DataLossError, match="corrupted record at"):
        next(it)


def test_records_are_parsed_in_place_from_the_mapping(tmp_path, monkeypatch):
    """The parse sees the reader's memoryviews of the mapped file (no copy of a record)."""
    path = _write(tmp_path, RECORDS * 3)
    seen = []
    parse = tx._features._Spec.parse

    def spy(self, serialized, names=None):
        seen.append(serialized)
        return parse(self, serialized, names)
    monkeypatch.setattr(tx._features._Spec, "parse", spy)
    assert len(list(tx.tfrecord_batches(path, FEATURES, 4))) == 3
    assert [len(s) for s in seen] == [4, 4, 1]
    for s in seen:
        assert all(isinstance(r, memoryview) and r.readonly for r in s)


def test_memory_is_one_batch(tmp_path):
    """8 MiB of records read 16 at a time: the bytes the Python heap holds stay near a batch's
    (64 KiB of string values plus their decoded copy), far below the file."""
    blob = {"pix": ("bytes", [bytes(range(256)) * 16]), "label": ("int64", [1])}
    path = _write(tmp_path, [example(blob)] * 2048)
    assert path.stat().st_size > 8 << 20
    feats = {"pix": F([], "string"), "label": F([], "int64")}
    tracemalloc.start()
    try:
        n = 0
        for b in tx.tfrecord_batches(path, feats, 16, decode={"pix": "uint8"}):
            n += int(b["pix"][:, 255].astype(np.int64).sum())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert n == 2048 * 255
    assert peak < 1 << 20, peak
