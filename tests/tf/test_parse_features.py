# SPDX-License-Identifier: Apache-2.0
"""tensorx.parse_features against tf.io.parse_example and tf.io.parse_single_example given the
same dict of TF's own feature specs (tf.io.FixedLenFeature, tf.io.VarLenFeature), on the random
Examples of ops_parsing.py (packed and unpacked lists, repeated keys, unknown fields, damaged
records): the same keys, and for each the same dtype, shape and values (a VarLenFeature's
indices, values and dense_shape), or an error in both, TF's InvalidArgumentError and tensorx's
invalid_argument.  Cases TF 2.21 does not define (ops_parsing.TFUndefined) are not run.

    /work/tfvenv/bin/python -m pytest -q tests/tf/test_parse_features.py
"""
import os
import sys

import numpy as np
import pytest
import tensorflow as tf
import tensorx as tx

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ops_parsing as P  # noqa: E402
import oracle  # noqa: E402

TF_TYPES = {"float32": tf.float32, "int64": tf.int64, "string": tf.string}
CASES = 400


def _specs(cfg):
    feats = {}
    for key, kind in cfg.sparse:
        feats[key.decode("latin-1")] = tf.io.VarLenFeature(TF_TYPES[kind])
    for key, kind, shape, default in cfg.dense:
        feats[key.decode("latin-1")] = tf.io.FixedLenFeature(
            list(shape), TF_TYPES[kind], default if default.size else None)
    return feats


def _defined(cfg, records):
    try:
        P._check_defined(tf.constant(np.array(records, dtype=object)),
                         tf.constant(np.array([d[0] for d in cfg.dense] + [b""], object)[:-1]),
                         [tf.constant(d[3]) for d in cfg.dense],
                         [tf.constant(np.array(d[2], np.int64)) for d in cfg.dense])
    except P.TFUndefined:
        return False
    return True


def _outcome(parse, serialized, feats):
    try:
        got = parse(serialized, feats)
    except (tf.errors.InvalidArgumentError, tx.InvalidArgumentError):
        return "invalid_argument"
    except UnicodeDecodeError:  # TF's, for "Could not parse example input" with its raw bytes
        if parse is tx.parse_features:
            raise
        return "invalid_argument"
    out = {}
    for k, v in got.items():
        parts = (v.indices, v.values, v.dense_shape) if hasattr(v, "indices") else (v,)
        out[k] = [np.asarray(p) for p in parts]
    return out


def _same(want, got):
    if isinstance(want, str) or isinstance(got, str):
        return want == got
    if list(want) != list(got):
        return False
    for k in want:
        for a, b in zip(want[k], got[k]):
            if a.dtype.kind in "OS":  # TF's strings are bytes (dtype object), tensorx's too
                if b.dtype != object or a.shape != b.shape or a.tolist() != b.tolist():
                    return False
            elif a.dtype != b.dtype or a.shape != b.shape or a.tobytes() != b.tobytes():
                return False
    return True


@pytest.mark.parametrize("seed", [1, 2])
def test_parse_features_is_tf_parse_example(seed):
    g = oracle.Gen(seed, "parse_features")
    ran = errors = 0
    for case in range(CASES):
        cfg = P._Config(g)
        if not cfg.sparse and not cfg.dense:
            continue  # TF refuses no features in Python; tensorx too (a ValueError)
        single = g.rng.random() < 0.2
        records = [P._record(cfg, g) for _ in range(1 if single else int(g.rng.integers(1, 5)))]
        if not _defined(cfg, records):
            continue
        feats = _specs(cfg)
        if single:
            want = _outcome(tf.io.parse_single_example, records[0], feats)
            got = _outcome(tx.parse_features, records[0], feats)
        else:
            want = _outcome(tf.io.parse_example, records, feats)
            got = _outcome(tx.parse_features, records, feats)
        assert _same(want, got), f"seed {seed} case {case}: {feats}\n{records}\n{want}\n{got}"
        ran += 1
        errors += want == "invalid_argument"
    assert ran > CASES // 2 and 0 < errors < ran  # both outcomes were compared
