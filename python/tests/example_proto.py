# SPDX-License-Identifier: Apache-2.0
"""Serialized tf.train.Example records written here from the proto definitions (example.proto,
feature.proto), not by tensorx: for the tests of parse_features, tfrecord_batches and
tensorx.dask.from_tfrecord."""
import struct


def _varint(n):
    n &= (1 << 64) - 1  # a negative int64 is ten bytes
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _len_field(number, payload):
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _feature(kind, values):
    if kind == "bytes":  # BytesList { repeated bytes value = 1; }
        body = b"".join(_len_field(1, v) for v in values)
        return _len_field(1, body)
    if kind == "float":  # FloatList { repeated float value = 1 [packed = true]; }
        return _len_field(2, _len_field(1, struct.pack(f"<{len(values)}f", *values)))
    if kind == "int64":  # Int64List { repeated int64 value = 1 [packed = true]; }
        return _len_field(3, _len_field(1, b"".join(_varint(v) for v in values)))
    raise ValueError(kind)


def example(features):
    """An Example of {key: (kind, values)}, kind "bytes", "float" or "int64"."""
    entries = b"".join(_len_field(1, _len_field(1, k.encode()) + _len_field(2, _feature(*kv)))
                       for k, kv in features.items())
    return _len_field(1, entries)
