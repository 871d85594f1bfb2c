# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for parse_example (TF's raw op ParseExampleV2, what tf.io.parse_example runs)
and parse_single_example (the raw op ParseSingleExample, the kernel of
tf.io.parse_single_example).  The records are serialized tf.train.Example protos written here
byte by byte, so that every encoding TF's fast parser reads can be drawn: packed and unpacked
float and int64 lists, empty lists and empty Features, repeated keys (within one Features message
and across concatenated Examples), map entries with the value before the key, unknown fields of
the Example of every wire type, features the call does not ask for, values of the wrong kind or
count, and damaged records (cut, a byte changed, junk appended, a length that lies).

The features are tensorx's parallel lists: sparse_keys with sparse_types (dtype names separated by
commas), dense_keys with dense_defaults (a tensor per key; empty: required) and dense_shapes (a
1-D int64 tensor per key).  The raw ops take the same lists.
"""
import struct

import numpy as np
import tensorflow as tf
from oracle import TF_DTYPES, Case, difference, op
from oracle import string_array as _str

KINDS = ["float32", "int64", "string"]
KEYS = [b"a", b"b", b"image/encoded", b"label", b"", b"k\x00ey", b"x" * 40]


# ---- the wire format -------------------------------------------------------------------------------
def _varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def _field(tag, payload):
    return bytes([tag]) + _varint(len(payload)) + payload


def _feature(kind, values, g, packed=None):
    """A Feature message of `kind` holding `values` (None: an empty Feature, no kind)."""
    if kind is None:
        return b""
    if packed is None:
        packed = bool(g.rng.integers(2))
    if kind == "string":
        body = b"".join(_field(0x0A, v) for v in values)
        return _field(0x0A, body)
    if kind == "float32":
        raw = [struct.pack("<f", v) if isinstance(v, float) else v for v in values]
        body = _field(0x0A, b"".join(raw)) if packed and values else \
            b"".join(b"\x0d" + r for r in raw)
        return _field(0x12, body)
    raw = [_varint(int(v)) for v in values]
    body = _field(0x0A, b"".join(raw)) if packed and values else b"".join(b"\x08" + r for r in raw)
    return _field(0x1A, body)


def _entry(key, feature, g):
    k, v = _field(0x0A, key), _field(0x12, feature)
    return _field(0x0A, v + k if g.rng.random() < 0.1 else k + v)


def _unknown_field(g):
    wire = g.choice([0, 1, 2, 5])
    tag = bytes([(int(g.rng.integers(2, 15)) << 3) | wire])
    if wire == 0:
        return tag + _varint(int(g.rng.integers(0, 1 << 62)))
    if wire == 1:
        return tag + bytes(g.rng.integers(0, 256, 8, dtype=np.uint8))
    if wire == 5:
        return tag + bytes(g.rng.integers(0, 256, 4, dtype=np.uint8))
    return tag + _varint(3) + b"abc"


# ---- values ---------------------------------------------------------------------------------------------
def _values(kind, n, g):
    if kind == "string":
        return [bytes(g.rng.integers(0, 256, int(g.rng.integers(0, 6)), dtype=np.uint8))
                for _ in range(n)]
    if kind == "float32":
        # raw bits: NaN payloads, infinities and subnormals included
        return [struct.pack("<I", int(x)) for x in g.rng.integers(0, 1 << 32, n, dtype=np.uint64)]
    pick = g.rng.integers(0, 3, n)
    big = g.rng.integers(-(1 << 63), (1 << 63) - 1, n, dtype=np.int64, endpoint=True)
    small = g.rng.integers(-300, 300, n)
    return [int(b) if p == 0 else int(s) for p, b, s in zip(pick, big, small)]


def _default(kind, shape, g):
    n = int(np.prod(shape)) if shape else 1
    if g.rng.random() < 0.4:  # required
        return _str([]) if kind == "string" else np.zeros(0, kind)
    if kind == "string":
        return _str(_values("string", n, g), shape if shape else ())
    if kind == "float32":
        return np.frombuffer(b"".join(_values(kind, n, g)), np.float32).reshape(shape)
    return np.array(_values(kind, n, g), np.int64).reshape(shape)


class _Config:
    def __init__(self, g):
        keys = [KEYS[i] for i in g.rng.permutation(len(KEYS))]
        ns, nd = int(g.rng.integers(0, 3)), int(g.rng.integers(0, 3))
        self.sparse = [(keys[i], g.choice(KINDS)) for i in range(ns)]
        self.dense = []
        for i in range(ns, ns + nd):
            kind = g.choice(KINDS)
            shape = tuple(int(d) for d in g.rng.integers(0, 4, int(g.rng.integers(0, 3))))
            self.dense.append((keys[i], kind, shape, _default(kind, shape, g)))
        self.others = keys[ns + nd:]


def _record(cfg, g):
    """One serialized Example for cfg: mostly right, sometimes broken on purpose."""
    bad = g.rng.random() < 0.3
    entries = []
    for key, kind, shape, _ in cfg.dense:
        if g.rng.random() < 0.2:
            continue
        n = int(np.prod(shape)) if shape else 1
        if bad and g.rng.random() < 0.3:
            n = int(g.rng.integers(0, 5))
        k = g.choice(KINDS) if bad and g.rng.random() < 0.3 else kind
        entries.append((key, _feature(k, _values(k, n, g), g)))
    for key, kind in cfg.sparse:
        if g.rng.random() < 0.2:
            continue
        k = g.choice(KINDS) if bad and g.rng.random() < 0.3 else kind
        if g.rng.random() < 0.1:
            entries.append((key, b""))  # an empty Feature
        else:
            entries.append((key, _feature(k, _values(k, int(g.rng.integers(0, 5)), g), g)))
    for key in cfg.others[:int(g.rng.integers(0, 3))]:
        k = g.choice(KINDS)
        entries.append((key, _feature(k, _values(k, 2, g), g)))
    if entries and g.rng.random() < 0.2:  # a repeated key: the copy is met first or last
        key, feat = entries[int(g.rng.integers(len(entries)))]
        entries.insert(int(g.rng.integers(len(entries) + 1)), (key, g.choice([feat, b""])))
    g.rng.shuffle(entries)
    parts = [[]]
    for e in entries:
        if g.rng.random() < 0.1:
            parts.append([])  # a second Features message: concatenated Examples
        parts[-1].append(_entry(e[0], e[1], g))
    rec = b""
    for p in parts:
        if g.rng.random() < 0.15:
            rec += _unknown_field(g)
        rec += _field(0x0A, b"".join(p))
    if bad and g.rng.random() < 0.5 and rec:
        how = int(g.rng.integers(4))
        at = int(g.rng.integers(len(rec)))
        if how == 0:
            rec = rec[:at]
        elif how == 1:
            rec = rec[:at] + bytes([int(g.rng.integers(256))]) + rec[at + 1:]
        elif how == 2:
            rec += bytes(g.rng.integers(0, 256, 3, dtype=np.uint8))
        else:
            rec = rec[:at] + b"\xe8\x07" + rec[at:]  # a length of 1000 (TF allocates it first)
    return rec


def _inputs(cfg, serialized):
    return {
        "serialized": serialized,
        "sparse_keys": _str([k for k, _ in cfg.sparse]),
        "dense_keys": _str([d[0] for d in cfg.dense]),
        "dense_defaults": [d[3] for d in cfg.dense],
        "dense_shapes": [np.array(d[2], np.int64) for d in cfg.dense],
    }


def _attrs(cfg):
    return {"sparse_types": ",".join(k for _, k in cfg.sparse)}


# ---- what TF 2.21 does not define -----------------------------------------------------------------------
class TFUndefined(Exception):
    """A case TF's kernel does not define (it writes out of bounds): not run."""


def _read_varint(b, i, end):
    v, shift = 0, 0
    for _ in range(10):
        if i >= end:
            return None, i
        c = b[i]
        i += 1
        v |= (c & 0x7F) << shift
        shift += 7
        if not c & 0x80:
            return v & ((1 << 64) - 1), i
    return None, i


def _map_entries(rec):
    """The (key, value) entries of the Example's feature maps, or None where the walk stops: only
    what _unpacked_overflow needs (records TF cannot parse never reach a feature)."""
    out, i, end = [], 0, len(rec)
    while i < end:
        if rec[i] != 0x0A:  # an unknown field, skipped as TF skips it
            tag, i = _read_varint(rec, i, end)
            if tag is None or tag & 7 not in (0, 1, 2, 5):
                return None
            if tag & 7 in (0, 2):
                n, i = _read_varint(rec, i, end)
                if n is None:
                    return None
            i += {0: 0, 1: 8, 2: n if tag & 7 == 2 and n < 1 << 31 else 0, 5: 4}[tag & 7]
            if i > end and tag & 7 in (1, 5):
                return None
            i = min(i, end)
            continue
        n, i = _read_varint(rec, i + 1, end)
        if n is None:
            return None
        fend = min(end, i + n)
        while i < fend:
            if rec[i] != 0x0A:
                return None
            n, i = _read_varint(rec, i + 1, fend)
            if n is None:
                return None
            eend, key, val = min(fend, i + n), b"", b""
            for _ in range(2):
                if i >= eend:
                    return None
                tag = rec[i]
                n, i = _read_varint(rec, i + 1, eend)
                if n is None or i + n > eend or tag not in (0x0A, 0x12):
                    return None
                if tag == 0x0A:
                    key = rec[i:i + n]
                else:
                    val = rec[i:i + n]
                i += n
            out.append((key, val))
    return out


def _unpacked_overflow(rec, key, numel):
    """Whether the entry TF's parser takes for dense float feature `key` is an unpacked float list
    of more than numel values: TF 2.21 sizes its slice for numel values and writes the others past
    it (example_proto_fast_parsing.cc, ParseFloatList's non-packed branch)."""
    entries = _map_entries(rec) or []
    for k, v in reversed(entries):
        if k != key or not v or v[0] not in (0x0A, 0x12, 0x1A):
            continue
        if v[0] != 0x12:
            return False
        n, i = _read_varint(v, 1, len(v))
        return n is not None and i < len(v) and v[i] == 0x0D and min(n, len(v) - i) // 5 > numel
    return False


def _check_defined(serialized, dense_keys, dense_defaults, dense_shapes):
    recs = [bytes(r) for r in np.asarray(serialized.numpy(), dtype=object).ravel().tolist()]
    for key, d, s in zip(dense_keys.numpy().tolist(), dense_defaults, dense_shapes):
        if d.dtype != tf.float32:
            continue
        numel = int(np.prod(s.numpy())) if s.shape[0] else 1
        if any(_unpacked_overflow(r, bytes(key), numel) for r in recs):
            raise TFUndefined("TF 2.21 writes past the feature's values (not run)")


UNPACKED_FLOATS_ROW = (
    "parse_example, parse_single_example: an unpacked float list (each value tagged) with more "
    "values than a FixedLenFeature holds: TF 2.21 writes the extra values past the feature's slot, "
    "out of bounds (a crash, or another record's values damaged before the error); tensorx: "
    "invalid_argument, TF's count error (\"Number of float values != expected\"), as for a "
    "packed list; why: an out-of-bounds write is no behaviour to copy")


@difference("parse_example", UNPACKED_FLOATS_ROW)
@difference("parse_single_example", UNPACKED_FLOATS_ROW)
def _unpacked_floats(case, want, got):
    return want[0] == "error" and want[1] == "unknown:TFUndefined" and \
        got[0] == "error" and got[1] == "invalid_argument"


# ---- TF's calls ---------------------------------------------------------------------------------------
def _tf_args(sparse_keys, dense_keys, sparse_types, dense_defaults, dense_shapes):
    types = [TF_DTYPES[n] for n in sparse_types.split(",") if n]
    shapes = [[int(d) for d in s.numpy()] for s in dense_shapes]
    return types, shapes, list(dense_defaults)


def _outputs(indices, values, shapes, dense):
    return list(indices) + list(values) + list(shapes) + list(dense)


def tf_parse_example(serialized, sparse_keys, dense_keys, sparse_types="", dense_defaults=(),
                     dense_shapes=(), names=None):
    types, shapes, defaults = _tf_args(sparse_keys, dense_keys, sparse_types, dense_defaults,
                                       dense_shapes)
    _check_defined(serialized, dense_keys, dense_defaults, dense_shapes)
    r = tf.raw_ops.ParseExampleV2(
        serialized=serialized, names=names if names is not None else tf.zeros([0], tf.string),
        sparse_keys=sparse_keys, dense_keys=dense_keys, ragged_keys=tf.zeros([0], tf.string),
        dense_defaults=defaults, num_sparse=len(types), sparse_types=types,
        ragged_value_types=[], ragged_split_types=[], dense_shapes=shapes)
    return _outputs(r.sparse_indices, r.sparse_values, r.sparse_shapes, r.dense_values)


def tf_parse_single_example(serialized, sparse_keys, dense_keys, sparse_types="",
                            dense_defaults=(), dense_shapes=()):
    types, shapes, defaults = _tf_args(sparse_keys, dense_keys, sparse_types, dense_defaults,
                                       dense_shapes)
    _check_defined(serialized, dense_keys, dense_defaults, dense_shapes)
    r = tf.raw_ops.ParseSingleExample(
        serialized=serialized, dense_defaults=defaults, num_sparse=len(types),
        sparse_keys=[bytes(k) for k in sparse_keys.numpy().tolist()],
        dense_keys=[bytes(k) for k in dense_keys.numpy().tolist()], sparse_types=types,
        dense_shapes=shapes)
    return _outputs(r.sparse_indices, r.sparse_values, r.sparse_shapes, r.dense_values)


# ---- the cases -----------------------------------------------------------------------------------------
@op("parse_example", tf=tf_parse_example, tf_name="ParseExampleV2")
def gen_parse_example(g):
    cfg = _Config(g)
    yield Case(_inputs(cfg, _str([])), _attrs(cfg), note="no records")
    while True:
        cfg = _Config(g)
        if g.rng.random() < 0.15:
            yield Case(_inputs(cfg, _str([_record(cfg, g)], ())), _attrs(cfg), note="a scalar")
            continue
        recs = [_record(cfg, g) for _ in range(int(g.rng.integers(1, 5)))]
        inputs = _inputs(cfg, _str(recs))
        if g.rng.random() < 0.2:
            inputs["names"] = _str([b"rec%d" % i for i in range(len(recs))])
        yield Case(inputs, _attrs(cfg))


@op("parse_single_example", tf=tf_parse_single_example, tf_name="ParseSingleExample")
def gen_parse_single_example(g):
    while True:
        cfg = _Config(g)
        yield Case(_inputs(cfg, _str([_record(cfg, g)], ())), _attrs(cfg))
