# SPDX-License-Identifier: Apache-2.0
"""TFRecord files (include/tensorx/tfrecord.h) against TensorFlow 2.21's own writer and reader:
tf.io.TFRecordWriter's files (none, ZLIB, GZIP) read by tensorx give the same records; tensorx's
files read by tf.data.TFRecordDataset give the same records (uncompressed: the same bytes; compressed:
the same bytes after decompression); and the same damaged files -- cut at every byte, a bit flipped
in every byte -- end the same way in both: the same records, then a clean end in both, or TF's
DataLossError where tensorx gives data_loss with the same "corrupted record at N" /
"truncated record at N".

The C library is reached through ctypes: TX_LIB names libtensorx.so, else the newest
build/*/libtensorx.so of this checkout is used.

    TX_LIB=build/dev/libtensorx.so /tmp/tfv/venv/bin/python -m pytest -q tests/tf/test_tfrecord.py
"""
import ctypes
import glob
import os
import random
import re
import subprocess
import zlib

import numpy as np
import pytest
import tensorflow as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPRESSIONS = {"": 0, "ZLIB": 1, "GZIP": 2}
OK, OUT_OF_RANGE, DATA_LOSS = 0, 11, 15


def _library():
    path = os.environ.get("TX_LIB")
    if not path:
        found = sorted(glob.glob(os.path.join(ROOT, "build", "*", "libtensorx.so")),
                       key=os.path.getmtime)
        if not found:
            pytest.skip("no libtensorx.so: set TX_LIB or build one under build/")
        path = found[-1]
    lib = ctypes.CDLL(path)
    lib.tx_last_error.restype = ctypes.c_char_p
    return lib


class TxString(ctypes.Structure):
    _fields_ = [("size", ctypes.c_uint64), ("data", ctypes.POINTER(ctypes.c_char))]


@pytest.fixture(scope="module")
def lib():
    return _library()


def tx_read(lib, path, comp):
    """(records, status, message) of reading path record by record."""
    reader = ctypes.c_void_p()
    st = lib.tx_tfrecord_open(path.encode(), COMPRESSIONS[comp], ctypes.byref(reader))
    assert st == OK, lib.tx_last_error()
    recs, rec = [], TxString()
    while True:
        st = lib.tx_tfrecord_next(reader, ctypes.byref(rec), None)
        if st != OK:
            break
        recs.append(ctypes.string_at(rec.data, rec.size) if rec.size else b"")
    msg = lib.tx_last_error().decode()
    lib.tx_tfrecord_close(reader)
    return recs, st, msg


def tx_write(lib, path, records, comp):
    n = len(records)
    ptrs = (ctypes.c_char_p * max(n, 1))(*records)
    lens = (ctypes.c_size_t * max(n, 1))(*[len(r) for r in records])
    dims = (ctypes.c_int64 * 1)(n)
    t = ctypes.c_void_p()
    assert lib.tx_tensor_new_strings(1, dims, ptrs, lens, ctypes.byref(t)) == OK
    st = lib.tx_tfrecord_write(path.encode(), t, COMPRESSIONS[comp])
    lib.tx_tensor_free(t)
    assert st == OK, lib.tx_last_error()


def tf_write(path, records, comp):
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(compression_type=comp)) as w:
        for r in records:
            w.write(r)


def tf_read(path, comp):
    """(records, None) or (records before the failure, the error's message)."""
    recs = []
    it = iter(tf.data.TFRecordDataset(path, compression_type=comp))
    while True:
        try:
            recs.append(next(it).numpy())
        except StopIteration:
            return recs, None
        except tf.errors.DataLossError as e:
            return recs, e.message


def random_records(rng, n):
    sizes = [0, 1, 7, 100, 4096, 1 << 20] + [rng.randrange(0, 3000) for _ in range(n)]
    return [rng.randbytes(s) for s in sizes]


def decompress(data, comp):
    return zlib.decompress(data, wbits={"": 0, "ZLIB": 15, "GZIP": 31}[comp]) if comp else data


@pytest.mark.parametrize("comp", list(COMPRESSIONS))
def test_tf_writes_tensorx_reads(lib, tmp_path, comp):
    records = random_records(random.Random(1), 50)
    path = str(tmp_path / "tf.rec")
    tf_write(path, records, comp)
    got, st, msg = tx_read(lib, path, comp)
    assert st == OUT_OF_RANGE and msg == "tfrecord: eof"
    assert got == records


@pytest.mark.parametrize("comp", list(COMPRESSIONS))
def test_tensorx_writes_tf_reads(lib, tmp_path, comp):
    records = random_records(random.Random(2), 50)
    ours, theirs = str(tmp_path / "tx.rec"), str(tmp_path / "tf.rec")
    tx_write(lib, ours, records, comp)
    recs, err = tf_read(ours, comp)
    assert err is None and recs == records
    tf_write(theirs, records, comp)
    with open(ours, "rb") as a, open(theirs, "rb") as b:
        assert decompress(a.read(), comp) == decompress(b.read(), comp)


def _outcomes_agree(lib, path, comp, what, records):
    tf_recs, tf_err = tf_read(path, comp)
    tx_recs, st, msg = tx_read(lib, path, comp)
    if tf_err is None:
        assert tx_recs == tf_recs, what
        assert st == OUT_OF_RANGE, f"{what}: TF ends cleanly, tensorx: {msg}"
        return
    assert st == DATA_LOSS, f"{what}: TF {tf_err!r}, tensorx {st} {msg!r}"
    m = re.search(r"(corrupted|truncated) record at \d+( \(Is this even a TFRecord file\?\))?", tf_err)
    if not comp:
        assert tx_recs == tf_recs, what
        assert m and m.group(0) in msg, f"{what}: TF {tf_err!r}, tensorx {msg!r}"
        return
    # Compressed: TF inflates ahead in 256 KiB blocks, so zlib's checksum at the stream's end may
    # fail before TF hands out a record, where tensorx inflates only what the next record needs and
    # meets the same damage later, or a record's checksum first.  Both fail; the records each
    # returned are the file's first ones; the message is TF's record verdict or zlib's.
    assert tx_recs == records[:len(tx_recs)] and tf_recs == records[:len(tf_recs)], what
    verdict = re.search(r"(corrupted|truncated) record at \d+|inflate\(\) failed with error -?\d+: "
                        r"[a-z ]+", msg)
    assert verdict, f"{what}: TF {tf_err!r}, tensorx {msg!r}"
    if m and len(tx_recs) == len(tf_recs):
        assert m.group(0) in msg, f"{what}: TF {tf_err!r}, tensorx {msg!r}"


@pytest.mark.parametrize("comp", list(COMPRESSIONS))
def test_damaged_files_end_the_same_way(lib, tmp_path, comp):
    records = [b"hello", b"", b"x" * 40, bytes(range(30))]
    path = str(tmp_path / "good.rec")
    tf_write(path, records, comp)
    with open(path, "rb") as f:
        good = f.read()
    bad = str(tmp_path / "bad.rec")
    for cut in range(len(good)):
        with open(bad, "wb") as f:
            f.write(good[:cut])
        _outcomes_agree(lib, bad, comp, f"cut at {cut}", records)
    for at in range(len(good)):
        b = bytearray(good)
        b[at] ^= 1 << (at % 8)
        with open(bad, "wb") as f:
            f.write(bytes(b))
        _outcomes_agree(lib, bad, comp, f"bit {at % 8} of byte {at} flipped", records)


def _cli():
    path = os.environ.get("TENSORX_CLI")
    if not path:
        found = sorted(glob.glob(os.path.join(ROOT, "build", "*", "tensorx")), key=os.path.getmtime)
        if not found:
            pytest.skip("no tensorx CLI: set TENSORX_CLI or build one under build/")
        path = found[-1]
    return path


def _random_example(rng, i):
    f = tf.train.Feature
    feats = {
        "id": f(int64_list=tf.train.Int64List(value=[rng.randrange(-2**63, 2**63)])),
        "xy": f(float_list=tf.train.FloatList(value=[rng.uniform(-1e30, 1e30) for _ in range(3)])),
        "image/raw": f(bytes_list=tf.train.BytesList(value=[rng.randbytes(8)])),
        "tags": f(int64_list=tf.train.Int64List(value=[rng.randrange(-9, 9) for _ in range(rng.randrange(0, 5))])),
        "scores": f(float_list=tf.train.FloatList(value=[rng.random() for _ in range(rng.randrange(0, 3))])),
    }
    if i % 3:  # "opt" often missing: its default fills in
        feats["opt"] = f(int64_list=tf.train.Int64List(value=[i, -i]))
    return tf.train.Example(features=tf.train.Features(feature=feats)).SerializeToString()


@pytest.mark.parametrize("comp", list(COMPRESSIONS))
def test_cli_parse_equals_tf_pipeline(tmp_path, comp):
    """`tensorx tfrecord parse` (batch by batch, streamed to .npy) against TF's pipeline on the
    whole file: TFRecordDataset, parse_example, decode_raw; every output np.save's bytes of TF's."""
    rng = random.Random(31 + len(comp))
    records = [_random_example(rng, i) for i in range(333)]
    path = str(tmp_path / "d.tfrecord")
    tf_write(path, records, comp)
    features = {"id": tf.io.FixedLenFeature([], tf.int64), "xy": tf.io.FixedLenFeature([3], tf.float32),
                "image/raw": tf.io.FixedLenFeature([], tf.string),
                "opt": tf.io.FixedLenFeature([2], tf.int64, default_value=[7, 8]),
                "tags": tf.io.VarLenFeature(tf.int64), "scores": tf.io.VarLenFeature(tf.float32)}
    ds = tf.data.TFRecordDataset(path, compression_type=comp).batch(len(records))
    parsed = tf.io.parse_example(next(iter(ds)), features)
    want = {"id": parsed["id"], "xy": parsed["xy"], "opt": parsed["opt"],
            "image_raw": tf.io.decode_raw(parsed["image/raw"], tf.float16, little_endian=False)}
    for k in ("tags", "scores"):
        want[k + ".indices"], want[k + ".values"] = parsed[k].indices, parsed[k].values
        want[k + ".dense_shape"] = parsed[k].dense_shape
    for batch in (1, 64, 1000):
        out = tmp_path / ("b%d" % batch)
        out.mkdir()
        r = subprocess.run([_cli(), "tfrecord", "parse", path, "compression=" + (comp or "NONE"),
                            "batch=%d" % batch, 'sparse_keys=["tags","scores"]', "sparse_types=int64,float32",
                            'dense_keys=["id","xy","image/raw","opt"]',
                            "dense_defaults=[]:int64,[]:float32,[]:string,[7,8]:int64",
                            "dense_shapes=[],[3],[],[2]", "decode=image/raw:float16",
                            "little_endian=false", "-o", str(out / "{}.npy")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        for name, t in want.items():
            expect = tmp_path / "want.npy"
            np.save(expect, t.numpy())
            assert (out / (name + ".npy")).read_bytes() == expect.read_bytes(), (batch, name)
