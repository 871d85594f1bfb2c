# SPDX-License-Identifier: Apache-2.0
"""Tensor files and TFRecord files (docs/python.md, "Files"): load and save through the C
library's readers and writers, chosen by the frontend's format table (frontend/formats.c: .npy,
.npz, safetensors, IDX, TFRecord), and TFRecord records read and written by tx_tfrecord_*."""
import collections.abc
import os
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from . import _tensorx as _C

# (name, suffixes, named) per row of the C table: a format added there is reachable here.
_FORMATS = {name: (suffixes, named) for name, suffixes, named in _C.file_formats()}
_COMPRESSION: dict[str | None, int] = {None: 0, "": 0, "ZLIB": 1, "GZIP": 2}


def _format_of(path: Any, format: str | None, what: str) -> str:
    if format is not None:
        if format not in _FORMATS:
            raise ValueError(f"{what}: format={format!r} is not one of {', '.join(_FORMATS)}")
        return format
    name = _C.file_format_of(path)
    if name is not None:
        return str(name)
    text = os.fsdecode(path)
    known = ", ".join(s for suffixes, _n in _FORMATS.values() for s in suffixes)
    raise ValueError(f"{what}: {text!r}: the format is not known from its name (endings: "
                     f"{known}); pass format= ({', '.join(_FORMATS)})")


def load(path: Any, name: str | None = None, *, format: str | None = None) -> Any:
    """The tensors of a file as NumPy arrays: a ``.npy``, an IDX file (``.idx``, ``.idx.gz``,
    MNIST's ``-ubyte`` / ``-ubyte.gz``), a safetensors or ``.npz`` file or a TFRecord file's
    records (an object array of bytes), chosen by the name's ending or ``format=`` ("npy", "npz",
    "safetensors", "idx", "tfrecord").  A safetensors or ``.npz`` file gives a dict of every
    tensor (in the file's order) without ``name``, or the one tensor ``name``.  The data are not
    copied where the format allows: a safetensors tensor, an aligned stored ``.npz`` member or an
    uncompressed uint8/int8 IDX file is a read-only array
    over the file's mapping, which it keeps alive; a ``.npy`` of 1 MiB or more in host byte order
    and C order is a private copy-on-write mapping (writable; writes never reach the file);
    other arrays are new and writable."""
    fmt = _format_of(path, format, "load")
    if name is None and _FORMATS[fmt][1]:
        return _C.file_names(path, fmt, True)
    return _C.file_load(path, fmt, name)


def save(path: Any, arrays: Any, *, format: str | None = None) -> None:
    """Writes arrays to the file at path, whose format is its name's ending or ``format=``: a
    mapping of names to arrays for safetensors and ``.npz`` (as np.savez), one array for ``.npy``
    and IDX (``.gz``:
    gzip'd), a string array's elements as TFRecord records.  The file is replaced whole or not at
    all."""
    fmt = _format_of(path, format, "save")
    if _FORMATS[fmt][1]:
        if not isinstance(arrays, collections.abc.Mapping):
            raise TypeError(f"save: a {fmt} file holds named tensors: pass a dict of arrays")
        names = tuple(arrays)
        for n in names:
            if not isinstance(n, str):
                raise TypeError(f"save: tensor names are str, got {type(n).__name__}")
        _C.file_save(path, fmt, names, tuple(np.asarray(a) for a in arrays.values()))
    else:
        if isinstance(arrays, collections.abc.Mapping):
            raise TypeError(f"save: a {fmt} file holds one tensor: pass one array")
        _C.file_save(path, fmt, None, (np.asarray(arrays),))


def _compression(value: str | None, what: str) -> int:
    key = value.upper() if isinstance(value, str) else value
    if key not in _COMPRESSION:
        raise ValueError(f"{what}: compression={value!r} is not one of '', 'ZLIB', 'GZIP'")
    return _COMPRESSION[key]


class TFRecordReader:
    """The records of a TFRecord file, in order: iterating yields each record's bytes -- a
    read-only memoryview of the mapped file (no copy) for an uncompressed file, which stays valid
    after the reader is closed, else bytes.  compression: None or '' , 'ZLIB', 'GZIP' (TF's
    compression_type).  Both checksums of every record are verified: a damaged record raises
    DataLossError (with TensorFlow's message) after the records before it."""

    _BATCH = 256

    def __init__(self, path: Any, compression: str | None = None) -> None:
        self._r = _C._TFRecordReader(path, _compression(compression, "TFRecordReader"))

    def __iter__(self) -> "TFRecordReader":
        return self

    def __next__(self) -> Any:
        recs = self.read(1)
        if not recs:
            raise StopIteration
        return recs[0]

    def records(self) -> Iterator[Any]:
        """A generator of the records, read in batches (faster than next())."""
        while True:
            recs = self._r.read(self._BATCH)
            if not recs:
                return
            yield from recs

    def read(self, max_records: int) -> list[Any]:
        """A list of up to max_records records, fewer at the end of the file, none after it."""
        return self._r.read(max_records)

    def index(self) -> Any:
        """The offset of every record (an int64 array), for seek(), sharding and shuffling."""
        return self._r.index()

    def seek(self, offset: int) -> None:
        """Moves to the record at offset (0, an offset index() gave, or the end)."""
        self._r.seek(offset)

    def close(self) -> None:
        self._r.close()

    @property
    def closed(self) -> bool:
        return self._r.closed

    def __enter__(self) -> "TFRecordReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def tfrecord_records(path: Any, compression: str | None = None) -> Iterator[Any]:
    """A generator of the records of the TFRecord file at path (TFRecordReader's records)."""
    with TFRecordReader(path, compression) as r:
        yield from r.records()


def tfrecord_write(path: Any, records: Iterable[Any], compression: str | None = None) -> None:
    """Writes records (bytes, or any bytes-like objects) as a TFRecord file at path, the bytes
    tf.io.TFRecordWriter writes with the same compression (None or '', 'ZLIB', 'GZIP').  The file
    is replaced whole or not at all."""
    code = _compression(compression, "tfrecord_write")
    items = list(records)
    arr = np.empty(len(items), dtype=object)
    for i, r in enumerate(items):
        arr[i] = r
    _C.tfrecord_write(path, arr, code)


__all__ = ["load", "save", "TFRecordReader", "tfrecord_records", "tfrecord_write"]
