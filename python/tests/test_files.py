# SPDX-License-Identifier: Apache-2.0
"""tensorx.load / tensorx.save (.npy, safetensors, IDX through the C library's format table) and
the TFRecord reader and writer: round trips, zero-copy read-only arrays over the mappings that
outlive every handle, every error with its class and message, and the `safetensors` package's
files and readers where it is installed."""
import gc
import gzip
import struct
import zlib

import numpy as np
import pytest
import tensorx as tx


def _crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def _masked(data):
    c = _crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _record(data):
    """One TFRecord frame, written here from the format's definition (not by tensorx)."""
    n = struct.pack("<Q", len(data))
    return n + struct.pack("<I", _masked(n)) + data + struct.pack("<I", _masked(data))


# ---- load / save ---------------------------------------------------------------------------

def test_npy_round_trip_maps_copy_on_write(tmp_path):
    a = np.arange(1 << 20, dtype=np.float32).reshape(1024, 1024)  # 4 MiB: mapped
    p = tmp_path / "a.npy"
    tx.save(p, a)
    assert np.array_equal(np.load(p), a)  # NumPy reads what tensorx wrote
    b = tx.load(p)
    assert b.dtype == a.dtype and b.shape == a.shape and np.array_equal(a, b)
    assert not b.flags.owndata
    b[0, 0] = 7  # a private copy-on-write mapping: the file keeps its bytes
    assert np.load(p)[0, 0] == 0 and tx.load(p)[0, 0] == 0


def test_safetensors_dict_and_names(tmp_path):
    arrays = {"w": np.arange(6, dtype=np.int64).reshape(2, 3), "b": np.array([1.5, -2], np.float32),
              "mask": np.array([True, False, True])}
    p = tmp_path / "m.safetensors"
    tx.save(p, arrays)
    got = tx.load(p)
    assert isinstance(got, dict) and set(got) == set(arrays)
    for k, v in arrays.items():
        assert got[k].dtype == v.dtype and np.array_equal(got[k], v)
        assert not got[k].flags.writeable
    w = tx.load(str(p), "w")
    assert np.array_equal(w, arrays["w"])


def test_npz_with_numpy_both_ways(tmp_path):
    """.npz through the same table: np.savez's and np.savez_compressed's files read as a dict (or
    by name), and tx.save's file read by np.load."""
    arrays = {"x": np.arange(6, dtype=np.float32).reshape(2, 3), "y": np.array([1, -2], np.int64),
              "s": np.array([b"ab", b"c"])}
    for write in (np.savez, np.savez_compressed):
        p = tmp_path / f"{write.__name__}.npz"
        write(p, **arrays)
        got = tx.load(p)
        assert list(got) == list(arrays)
        for k, v in arrays.items():  # strings come as the package's string dtype (object)
            assert got[k].tolist() == v.tolist() and (k == "s" or got[k].dtype == v.dtype)
        assert np.array_equal(tx.load(p, "y"), arrays["y"])
    p = tmp_path / "t.npz"
    tx.save(p, arrays)
    with np.load(p) as f:
        assert list(f) == list(arrays)
        for k, v in arrays.items():
            assert f[k].tolist() == v.tolist()
    with pytest.raises(tx.InvalidArgumentError, match="no tensor 'z' in"):
        tx.load(p, "z")


def test_safetensors_view_outlives_the_file_handle(tmp_path):
    p = tmp_path / "m.safetensors"
    tx.save(p, {"x": np.arange(1 << 16, dtype=np.int32)})
    x = tx.load(p, "x")
    base = x
    while getattr(base, "base", None) is not None and isinstance(base.base, np.ndarray):
        base = base.base
    gc.collect()
    assert int(x.sum()) == sum(range(1 << 16))  # the mapping is alive through the array
    mv = memoryview(x)
    del x, base
    gc.collect()
    assert mv.readonly and mv.nbytes == 4 << 16 and np.frombuffer(mv, np.int32)[12345] == 12345


def test_safetensors_errors_name_file_and_tensor(tmp_path):
    p = tmp_path / "m.safetensors"
    tx.save(p, {"a": np.zeros(2, np.uint8), "b": np.ones(3, np.uint8)})
    with pytest.raises(tx.InvalidArgumentError,
                       match=r"no tensor 'w' in .*m\.safetensors; it has: a, b"):
        tx.load(p, "w")
    bad = tmp_path / "bad.safetensors"
    bad.write_bytes(struct.pack("<Q", 4) + b"{}xx")
    with pytest.raises(tx.InvalidArgumentError, match="bad.safetensors"):
        tx.load(bad)
    with pytest.raises(OSError, match="missing.safetensors"):
        tx.load(tmp_path / "missing.safetensors")
    with pytest.raises(TypeError, match="dict"):
        tx.save(p, np.zeros(2))


def test_idx_round_trip_plain_and_gzip(tmp_path):
    img = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    p = tmp_path / "img.idx"
    tx.save(p, img)
    raw = p.read_bytes()
    assert raw[:4] == b"\x00\x00\x08\x03" and raw[4:16] == struct.pack(">3I", 2, 3, 4)
    a = tx.load(p)
    assert np.array_equal(a, img) and not a.flags.writeable  # uint8: a view of the mapping
    f = np.array([[1.5, -2.0]], dtype=np.float32)
    tx.save(tmp_path / "f.idx.gz", f)
    assert gzip.decompress((tmp_path / "f.idx.gz").read_bytes())[2] == 0x0D
    g = tx.load(tmp_path / "f.idx.gz")
    assert g.dtype == np.float32 and np.array_equal(g, f) and g.flags.writeable
    # MNIST's own file names
    (tmp_path / "t10k-labels-idx1-ubyte.gz").write_bytes(
        gzip.compress(b"\x00\x00\x08\x01" + struct.pack(">I", 3) + bytes([7, 2, 1])))
    assert tx.load(tmp_path / "t10k-labels-idx1-ubyte.gz").tolist() == [7, 2, 1]


def test_idx_errors(tmp_path):
    p = tmp_path / "cut.idx"
    p.write_bytes(b"\x00\x00\x08\x01" + struct.pack(">I", 5) + b"ab")
    with pytest.raises(tx.DataLossError, match="truncated"):
        tx.load(p)
    with pytest.raises(tx.InvalidArgumentError,
                       match=r"cut.idx holds one tensor \(format idx\), not one named 'x'"):
        tx.load(p, "x")
    with pytest.raises(tx.InvalidArgumentError, match="int64"):
        tx.save(tmp_path / "x.idx", np.zeros(2, np.int64))


def test_format_argument_and_unknown_suffix(tmp_path):
    p = tmp_path / "data.bin"
    tx.save(p, np.arange(3, dtype=np.int16), format="npy")
    assert tx.load(p, format="npy").tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match="not known from its name"):
        tx.load(p)
    with pytest.raises(ValueError, match="format='zip'"):
        tx.load(p, format="zip")


def test_safetensors_package_reads_and_writes(tmp_path):
    st = pytest.importorskip("safetensors.numpy")
    arrays = {"w": np.arange(12, dtype=np.float32).reshape(3, 4), "i": np.array([1, 2], np.int64)}
    mine, theirs = tmp_path / "mine.safetensors", tmp_path / "theirs.safetensors"
    tx.save(mine, arrays)
    st.save_file(arrays, str(theirs))
    assert mine.read_bytes() == theirs.read_bytes()  # the package's bytes exactly
    back = st.load_file(str(mine))
    assert all(np.array_equal(back[k], arrays[k]) for k in arrays)
    got = tx.load(theirs)
    assert all(np.array_equal(got[k], arrays[k]) for k in arrays)


# ---- TFRecord ------------------------------------------------------------------------------

RECORDS = [b"", b"a", b"hello world", bytes(range(256)) * 40]


def test_tfrecord_reader_is_zero_copy_and_matches_the_format(tmp_path):
    p = tmp_path / "r.tfrecord"
    p.write_bytes(b"".join(_record(r) for r in RECORDS))
    with tx.TFRecordReader(p) as r:
        got = list(r)
        assert r.index().tolist() == [0, 16, 33, 60]
    assert all(isinstance(g, memoryview) and g.readonly for g in got)
    assert [bytes(g) for g in got] == RECORDS  # valid after close
    assert [bytes(g) for g in tx.tfrecord_records(p)] == RECORDS
    tx.tfrecord_write(tmp_path / "w.tfrecord", RECORDS)
    assert (tmp_path / "w.tfrecord").read_bytes() == p.read_bytes()


@pytest.mark.parametrize("compression", ["ZLIB", "GZIP"])
def test_tfrecord_compressed_round_trip(tmp_path, compression):
    p = tmp_path / "c.tfrecord"
    tx.tfrecord_write(p, RECORDS, compression=compression)
    raw = b"".join(_record(r) for r in RECORDS)
    data = p.read_bytes()
    plain = gzip.decompress(data) if compression == "GZIP" else zlib.decompress(data)
    assert plain == raw
    got = list(tx.tfrecord_records(p, compression=compression.lower()))
    assert got == RECORDS and all(isinstance(g, bytes) for g in got)


def test_tfrecord_seek_and_read(tmp_path):
    p = tmp_path / "r.tfrecord"
    tx.tfrecord_write(p, RECORDS)
    r = tx.TFRecordReader(p)
    offs = r.index()
    r.seek(int(offs[2]))
    assert [bytes(x) for x in r.read(10)] == RECORDS[2:]
    assert r.read(5) == []
    r.close()
    assert r.closed
    with pytest.raises(ValueError, match="closed"):
        r.read(1)


def test_tfrecord_corruption_after_the_good_records(tmp_path):
    p = tmp_path / "bad.tfrecord"
    good = _record(b"one") + _record(b"two")
    broken = bytearray(_record(b"three"))
    broken[-1] ^= 1
    p.write_bytes(good + bytes(broken))
    it = tx.tfrecord_records(p)
    assert bytes(next(it)) == b"one" and bytes(next(it)) == b"two"
    with pytest.raises(tx.DataLossError, match=f"corrupted record at {len(good) + 12}"):
        next(it)
    p.write_bytes(good[:-3])
    with pytest.raises(tx.DataLossError, match="truncated record at 19"):
        list(tx.tfrecord_records(p))


def test_tfrecord_errors(tmp_path):
    with pytest.raises(tx.InvalidArgumentError, match="missing.tfrecord"):
        tx.TFRecordReader(tmp_path / "missing.tfrecord")
    with pytest.raises(ValueError, match="compression='LZ4'"):
        tx.TFRecordReader(tmp_path / "x", compression="LZ4")
    with pytest.raises(TypeError, match="element 1"):
        tx.tfrecord_write(tmp_path / "x.tfrecord", [b"a", 3])


def test_tfrecord_as_a_tensor_file(tmp_path):
    """The format table's tfrecord row: a file's records as a 1-D string array, and back."""
    p = tmp_path / "r.tfrecord.gz"
    tx.tfrecord_write(p, RECORDS, compression="GZIP")
    a = tx.load(p)
    assert a.dtype == object and a.tolist() == RECORDS
    tx.save(tmp_path / "copy.tfrecord", a)
    assert (tmp_path / "copy.tfrecord").read_bytes() == b"".join(_record(r) for r in RECORDS)
    with pytest.raises(tx.InvalidArgumentError, match="string"):
        tx.save(tmp_path / "n.tfrecord", np.arange(3))
