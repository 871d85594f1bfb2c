# SPDX-License-Identifier: Apache-2.0
"""From TFRecord files to arrays (docs/python.md, "From TFRecord files to arrays"): TF's
feature specs (FixedLenFeature, VarLenFeature), parse_features -- tf.io.parse_example's dict form
over the raw-op style tensorx.parse_example -- and tfrecord_batches, which reads a file a batch
at a time, parses each batch and decodes raw bytes features with tensorx.decode_raw."""
import math
import numbers
import os
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

import numpy as np

import tensorx as tx

from ._files import TFRecordReader, _compression


class FixedLenFeature(NamedTuple):
    """tf.io.FixedLenFeature: a feature with `shape` values of `dtype` (float32, int64 or string,
    as a name, a NumPy dtype, or bytes / np.bytes_ for string) in every record; records without it
    take `default_value` (reshaped to `shape`), or fail when it is None (a required feature)."""
    shape: Any
    dtype: Any
    default_value: Any = None


class VarLenFeature(NamedTuple):
    """tf.io.VarLenFeature: a feature with any number of values of `dtype` in a record, parsed
    into a SparseTensorValue."""
    dtype: Any


class SparseTensorValue(NamedTuple):
    """A VarLenFeature's values: the parts of TF's SparseTensor (tf.compat.v1.SparseTensorValue)
    as NumPy arrays."""
    indices: Any
    values: Any
    dense_shape: Any


_DTYPES = ("float32", "int64", "string")
_NUMPY = {"float32": np.float32, "int64": np.int64, "string": object}
_NUMPY_KINDS = {"float32": "iuf", "int64": "iu"}  # the values a numeric default may hold


def _dtype(key: str, feature: Any) -> str:
    try:
        name = tx.dtype_name(feature.dtype)
    except (TypeError, ValueError) as e:
        raise TypeError(f"feature {key!r}: dtype {feature.dtype!r} is not a dtype ({e})") from None
    if name not in _DTYPES:
        raise ValueError(f"feature {key!r}: dtype {name} is not one of float32, int64, string")
    return name


def _shape(key: str, shape: Any) -> tuple[int, ...]:
    if shape is None:
        raise ValueError(f"feature {key!r}: missing shape (a FixedLenFeature needs one)")
    dims = (shape,) if isinstance(shape, numbers.Integral) else shape
    try:
        dims = tuple(dims)
    except TypeError:
        raise TypeError(f"feature {key!r}: shape {shape!r} is not a list of ints") from None
    for d in dims:
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, numbers.Integral):
            raise TypeError(f"feature {key!r}: shape {shape!r}: every dim must be a known int "
                            f"(got {d!r})")
        if d < 0:
            raise ValueError(f"feature {key!r}: shape {list(dims)} has a negative dim")
    return tuple(int(d) for d in dims)


def _default(key: str, dtype: str, shape: tuple[int, ...], value: Any) -> np.ndarray:
    """The op's dense_defaults entry: empty when there is no default (a required feature), else
    the value in the feature's dtype reshaped to its shape, as TF's convert_to_tensor and
    reshape do."""
    if value is None:
        return np.empty(0, dtype=_NUMPY[dtype])
    a = np.asarray(value, dtype=object if dtype == "string" else None)
    if dtype == "string":
        if not all(isinstance(e, (bytes, str)) for e in a.flat):
            raise TypeError(f"feature {key!r}: default_value of a string feature holds "
                            "something other than bytes and str")
        a = np.array([e.encode() if isinstance(e, str) else e for e in a.flat], dtype=object)
    elif a.dtype.kind not in _NUMPY_KINDS[dtype]:
        raise TypeError(f"feature {key!r}: default_value of dtype {a.dtype} for a {dtype} "
                        "feature")
    size = math.prod(shape)
    if a.size != size:
        raise tx.InvalidArgumentError(f"feature {key!r}: default_value has {a.size} values, "
                                      f"shape {list(shape)} holds {size}")
    return a.astype(_NUMPY[dtype]).reshape(shape)


class _Spec:
    """A dict of feature specs checked once and laid out as tensorx.parse_example's arguments,
    keys sorted as TF sorts them (so the first failing feature is TF's)."""

    def __init__(self, features: Any, what: str) -> None:
        if not isinstance(features, Mapping):
            raise TypeError(f"{what}: features must be a dict of FixedLenFeature and "
                            f"VarLenFeature, got {type(features).__name__}")
        if not features:
            raise ValueError(f"{what}: features cannot be empty")
        for key in features:
            if not isinstance(key, str):
                raise TypeError(f"{what}: feature keys are str, got {key!r}")
        self.sparse, self.dense = [], []  # keys
        self.sparse_types, self.defaults, self.shapes = [], [], []
        self.dtypes = {}
        for key in sorted(features):
            f = features[key]
            # by the fields, so TF's own tf.io.FixedLenFeature and VarLenFeature are taken too
            fields = getattr(f, "_fields", None) if isinstance(f, tuple) else None
            if fields == VarLenFeature._fields:
                self.sparse.append(key)
                self.sparse_types.append(_dtype(key, f))
                self.dtypes[key] = self.sparse_types[-1]
            elif fields == FixedLenFeature._fields:
                dtype, shape = _dtype(key, f), _shape(key, f.shape)
                self.dense.append(key)
                self.defaults.append(_default(key, dtype, shape, f.default_value))
                self.shapes.append(np.asarray(shape, dtype=np.int64))
                self.dtypes[key] = dtype
            else:
                raise TypeError(f"{what}: feature {key!r} is a {type(f).__name__}, not a "
                                "FixedLenFeature or a VarLenFeature")
        self._keys = (np.asarray(self.sparse, dtype=object), np.asarray(self.dense, dtype=object))

    def parse(self, serialized: Any, names: Any = None) -> dict[str, Any]:
        outs = tx.parse_example(serialized, names, self._keys[0], self._keys[1],
                                ",".join(self.sparse_types), self.defaults, self.shapes)
        n = len(self.sparse)
        got: dict[str, Any] = {k: SparseTensorValue(outs[i], outs[n + i], outs[2 * n + i])
                               for i, k in enumerate(self.sparse)}
        got.update(zip(self.dense, outs[3 * n:]))
        return got

    def decoder(self, decode: Any, what: str) -> dict[str, tuple[str, bool]]:
        """{key: (out_type, little_endian)} from decode ({key: dtype} or {key: (dtype,
        little_endian)}), each key a string FixedLenFeature."""
        if decode is None:
            return {}
        if not isinstance(decode, Mapping):
            raise TypeError(f"{what}: decode must be a dict {{key: dtype}} or {{key: (dtype, "
                            f"little_endian)}}, got {type(decode).__name__}")
        out = {}
        for key, how in decode.items():
            if key not in self.dense or self.dtypes[key] != "string":
                raise ValueError(f"{what}: decode[{key!r}]: decode_raw takes a string "
                                 "FixedLenFeature of `features`, which this key is not")
            if isinstance(how, tuple) and len(how) != 2:
                raise ValueError(f"{what}: decode[{key!r}] is {how!r}: give a dtype or a "
                                 "(dtype, little_endian) pair")
            dtype, little = how if isinstance(how, tuple) else (how, True)
            name = tx.dtype_name(dtype)
            tx.plan(tx.decode_raw, b"", name, little)  # tensorx's error for a bad out_type
            out[key] = (name, bool(little))
        return out


def parse_features(serialized: Any, features: Any, example_names: Any = None) -> dict[str, Any]:
    """tf.io.parse_example: the features of serialized tf.train.Example records (a list or 1-D
    array of bytes-like records, e.g. TFRecordReader's memoryviews) as a dict, per key of
    `features` ({key: FixedLenFeature or VarLenFeature}, tensorx's or TensorFlow's): a
    FixedLenFeature's values as an array of shape [records] + shape, a VarLenFeature's as a
    SparseTensorValue (indices int64 [N, 2], values [N], dense_shape int64 [2]).  One record (a
    scalar: bytes, a memoryview) is tf.io.parse_single_example: no records dimension (indices
    [N, 1], dense_shape [1]).  Parsing errors are TF's (tensorx.parse_example's); a bad spec
    raises TypeError or ValueError naming the feature."""
    return _Spec(features, "parse_features").parse(serialized, example_names)


def _records(records: list[Any]) -> np.ndarray:
    """A 1-D string tensor of the reader's records (memoryviews used in place), empty too."""
    return np.fromiter(records, dtype=object, count=len(records))


def _decode(parsed: dict[str, Any], decoder: dict[str, tuple[str, bool]]) -> dict[str, Any]:
    for key, (dtype, little) in decoder.items():
        parsed[key] = tx.decode_raw(parsed[key], dtype, little)
    return parsed


def tfrecord_batches(path: Any, features: Any, batch_size: int, compression: str | None = None,
                     decode: Any = None, drop_remainder: bool = False) -> Iterator[dict[str, Any]]:
    """The records of the TFRecord file at path, batch_size at a time, each batch parsed by
    parse_features (a dict per batch) and each key of `decode` ({key: dtype} or {key: (dtype,
    little_endian)}; a string FixedLenFeature) decoded by tensorx.decode_raw, which adds a last
    dim.  An uncompressed file's records are parsed from the mapped file (no copy); memory holds
    one batch.  The last batch may be short, unless drop_remainder.  The features, decode and
    batch_size are checked, and the file opened, here; its records are read batch by batch."""
    spec = _Spec(features, "tfrecord_batches")
    decoder = spec.decoder(decode, "tfrecord_batches")
    if isinstance(batch_size, (bool, np.bool_)) or not isinstance(batch_size, numbers.Integral):
        raise TypeError(f"tfrecord_batches: batch_size must be an int, got {batch_size!r}")
    if batch_size < 1:
        raise ValueError(f"tfrecord_batches: batch_size must be at least 1, got {batch_size}")
    reader = TFRecordReader(path, compression)  # opened here: a missing file fails now
    return _batches(reader, spec, decoder, int(batch_size), drop_remainder)


def _batches(reader: TFRecordReader, spec: _Spec, decoder: dict[str, tuple[str, bool]],
             batch_size: int, drop_remainder: bool) -> Iterator[dict[str, Any]]:
    with reader:
        while True:
            records = reader.read(batch_size)
            if not records or (drop_remainder and len(records) < batch_size):
                return
            yield _decode(spec.parse(_records(records)), decoder)



# ---- tensorx.dask.from_tfrecord's chunks and tasks (no Dask needed here) ----------------------
_Chunk = tuple[str, int, int, int]  # path, offset of the first record, records, records before


def _chunks(spec: _Spec, decoder: dict[str, tuple[str, bool]], paths: Any,
            compression: str | None, records_per_chunk: Any
            ) -> tuple[list[_Chunk], dict[str, tuple[int, int]]]:
    """The chunks of the files (each file's records counted by its index: the headers, read
    through a compressed file's stream) and each decoded key's (last dim, bytes per string)
    from the first record of all the files (its decode_raw error raised here)."""
    what = "from_tfrecord"
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ValueError(f"{what}: no files")
    if records_per_chunk is not None:
        if isinstance(records_per_chunk, (bool, np.bool_)) or \
                not isinstance(records_per_chunk, numbers.Integral) or records_per_chunk < 1:
            raise ValueError(f"{what}: records_per_chunk must be an int of at least 1, got "
                             f"{records_per_chunk!r}")
        if _compression(compression, what):
            raise ValueError(f"{what}: records_per_chunk needs uncompressed files (a compressed "
                             "file is read from its start: one chunk per file)")
    chunks: list[_Chunk] = []
    first: list[bytes] = []  # the first record of all the files
    total = 0
    for p in paths:
        with TFRecordReader(p, compression) as r:
            index = r.index()
            if not first and len(index):
                first = [bytes(r.read(1)[0])]
        step = int(records_per_chunk or max(len(index), 1))
        for k in range(0, max(len(index), 1), step):  # an empty file: one empty chunk
            n = min(step, len(index) - k)
            chunks.append((p, int(index[k]) if n else 0, n, total))
            total += n
    widths = {}
    if decoder:
        sample = spec.parse(np.array(first, dtype=object))
        for key, (dtype, little) in decoder.items():
            out = tx.decode_raw(sample[key], dtype, little)
            size = len(sample[key].reshape(-1)[0]) if sample[key].size else 0
            widths[key] = (int(out.shape[-1]), size)
    return chunks, widths


def _parse_chunk(spec: _Spec, decoder: dict[str, tuple[str, bool]],
                 widths: dict[str, tuple[int, int]], compression: str | None, path: str,
                 offset: int, count: int, first: int) -> dict[str, Any]:
    """One task of from_tfrecord: `count` records of `path` from byte `offset` (record `first`
    of all the files) parsed once for every feature: {key: array}, a VarLenFeature's a list of
    each record's values.  Arrays and bytes only: the result may go to another process."""
    with TFRecordReader(path, compression) as r:
        r.seek(offset)
        records = r.read(count) if count else []
        if len(records) < count:
            r.read(1)  # a damaged record: its DataLossError
            raise tx.DataLossError(f"from_tfrecord: {path}: {len(records)} records from offset "
                                   f"{offset} where the graph counted {count} (the file changed)")
    got = spec.parse(_records(records))
    for key, (dtype, little) in decoder.items():
        strings = got[key]
        per_record, size = math.prod(strings.shape[1:]), widths[key][1]
        lens = np.fromiter(map(len, strings.reshape(-1)), np.int64, count=strings.size)
        bad = np.flatnonzero(lens != size)
        if bad.size:  # tx_decode_raw's message, as for one call on every record of all files
            i = int(bad[0])
            raise tx.InvalidArgumentError(
                f"decode_raw: DecodeRaw requires input strings to all be the same size, but "
                f"element {first * per_record + i} has size {lens[i]} != {size} (give "
                "fixed_length to pad or truncate)")
        got[key] = tx.decode_raw(strings, dtype, little).reshape(
            strings.shape + (widths[key][0],))  # an empty chunk's last dim too
    for key in spec.sparse:
        indices, values, _shape = got[key]
        ends = np.cumsum(np.bincount(indices[:, 0], minlength=count))
        got[key] = np.split(values, ends[:-1]) if count else []
    return got

__all__ = ["FixedLenFeature", "VarLenFeature", "SparseTensorValue", "parse_features",
           "tfrecord_batches"]
