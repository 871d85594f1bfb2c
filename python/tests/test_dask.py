# SPDX-License-Identifier: Apache-2.0
"""tensorx.dask in one process (Dask's synchronous scheduler): every chunk-local op against
tensorx on the whole array, bit for bit, over several chunkings; from_raw_files and to_npy;
from_tfrecord against parse_features of every record; the refusals.  The cluster tests are test_dask_cluster.py."""
import itertools
import os

import numpy as np
import pytest
import tensorx as tx

dask = pytest.importorskip("dask", reason="tensorx.dask needs dask (python3-dask; "
                           "scripts/install-deps.sh --python installs it)")
da = pytest.importorskip("dask.array", reason="tensorx.dask needs dask.array (python3-dask)")
import tensorx.dask as txd  # noqa: E402

rng = np.random.default_rng(11)
A = rng.integers(-30000, 30000, size=(7, 10, 5)).astype(np.int16)
CHUNKINGS = [(7, 10, 5), (3, 4, 2), (1, 3, 5), (2, 10, 1)]


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield


def same(d, want):
    """d (a Dask array) computes to want bit for bit, with the chunks its metadata announced."""
    assert isinstance(d, da.Array)
    got = d.compute()
    assert got.dtype == want.dtype and got.shape == want.shape == d.shape
    assert got.tobytes() == want.tobytes()
    if d.npartitions <= 64:
        for idx in itertools.product(*(range(len(c)) for c in d.chunks)):
            b = d.blocks[idx].compute()
            assert b.shape == tuple(c[i] for c, i in zip(d.chunks, idx))


@pytest.fixture(params=CHUNKINGS, ids=lambda c: "x".join(map(str, c)))
def x(request):
    return da.from_array(A, chunks=request.param)


def test_casts(x):
    same(txd.cast(x, "float32"), tx.cast(A, "float32"))
    same(txd.cast(x, "bfloat16"), tx.cast(A, "bfloat16"))
    same(txd.cast(x, "uint8", mode="saturate"), tx.cast(A, "uint8", mode="saturate"))
    same(txd.saturate_cast(x, "int8"), tx.saturate_cast(A, "int8"))


def test_bitcast_both_ways(x):
    same(txd.bitcast(x, "uint8"), tx.bitcast(A, "uint8"))
    same(txd.bitcast(txd.bitcast(x, np.uint8), np.int16), A)
    f = txd.cast(x, "float64")
    same(txd.bitcast(f, "float32"), tx.bitcast(tx.cast(A, "float64"), "float32"))


def test_transpose_every_perm_reorders_the_chunk_grid(x):
    for perm in itertools.permutations(range(3)):
        y = txd.transpose(x, perm)
        assert y.chunks == tuple(x.chunks[p] for p in perm)
        assert y.npartitions == x.npartitions  # one task per input chunk, no gather
        same(y, tx.transpose(A, perm))
    same(txd.transpose(x), tx.transpose(A))


def test_reverse_axis_and_dims_forms(x):
    for axes in ([], [0], [1], [2], [0, 2], [-1, 1], [0, 1, 2]):
        y = txd.reverse(x, axis=axes)
        assert y.npartitions == x.npartitions
        same(y, tx.reverse(A, axis=axes))
    same(txd.reverse(x, dims=[True, False, True]), tx.reverse(A, dims=[True, False, True]))


def test_graph_tasks_take_one_input_chunk_each(x):
    y = txd.transpose(txd.reverse(txd.cast(x, "float32"), axis=[0]), [2, 0, 1])
    graph = dict(y.__dask_graph__())
    ours = [v for k, v in graph.items() if isinstance(k, tuple) and k[0] == y.name]
    assert len(ours) == x.npartitions
    for task in ours:  # (fn, input key): exactly one key of the layer below
        assert len(task) == 2 and isinstance(task[1], tuple)


LABELS = rng.integers(0, 10, size=(13, 3)).astype(np.int32)


@pytest.mark.parametrize("chunks", [(13, 3), (4, 1), (5, 2)])
def test_one_hot_sequence_mask_gather(chunks):
    lab = da.from_array(LABELS, chunks=chunks)
    for kw in ({}, {"axis": 0}, {"axis": 1, "on_value": 7, "off_value": -1},
               {"dtype": "uint8"}, {"oob": "wrap"}):
        depth = 6 if "oob" in kw else 10
        same(txd.one_hot(lab, depth, **kw), tx.one_hot(LABELS, depth, **kw))
    same(txd.sequence_mask(lab, 12), tx.sequence_mask(LABELS, 12))
    same(txd.sequence_mask(lab, 4, dtype="float32"), tx.sequence_mask(LABELS, 4, "float32"))
    params = rng.standard_normal((10, 4)).astype(np.float32)
    same(txd.gather(params, lab), tx.gather(params, LABELS))
    same(txd.gather(params.T.copy(), lab, axis=1), tx.gather(params.T.copy(), LABELS, axis=1))
    same(txd.gather(params, lab - 3, oob="zero"), tx.gather(params, LABELS - 3, oob="zero"))
    y = txd.gather(params, lab)
    graph = dict(y.__dask_graph__())
    assert sum(1 for v in graph.values() if v is params) == 1  # params in the graph once


def random_spec(shape, r):
    n = int(r.integers(1, len(shape) + 2))
    begin = r.integers(-12, 12, n).tolist()
    end = r.integers(-12, 12, n).tolist()
    strides = [int(s) for s in r.choice([-3, -2, -1, 1, 2, 3], n)]
    masks = {m: int(r.integers(0, 1 << n)) for m in ("begin_mask", "end_mask")}
    e = int(r.integers(-1, n))
    masks["ellipsis_mask"] = 0 if e < 0 else 1 << e
    masks["new_axis_mask"] = int(r.integers(0, 1 << n)) & int(r.integers(0, 1 << n))
    masks["shrink_axis_mask"] = int(r.integers(0, 1 << n)) & int(r.integers(0, 1 << n))
    return begin, end, strides, masks


def test_strided_slice_random_specs_against_tensorx(x):
    r = np.random.default_rng(5)
    checked = 0
    for _ in range(120):
        b, e, s, kw = random_spec(A.shape, r)
        try:
            want = tx.strided_slice(A, b, e, s, **kw)
        except tx.Error:
            continue  # tensorx rejects it (a bad shrink index...): nothing to compare
        same(txd.strided_slice(x, b, e, s, **kw), want)
        checked += 1
    assert checked >= 40


def test_decode_raw_of_byte_shards():
    shards = np.empty((6,), dtype=object)
    raw = rng.integers(0, 256, size=(6, 16), dtype=np.uint8)
    shards[:] = [bytes(row) for row in raw]
    d = da.from_array(shards, chunks=2)
    for t in ("int16", "float32", "uint64"):
        for le in (True, False):
            want = tx.decode_raw(shards, t, little_endian=le)
            same(txd.decode_raw(d, t, little_endian=le, length=16), want)
    same(txd.decode_raw(d, "int32", fixed_length=8), tx.decode_raw(shards, "int32",
                                                                    fixed_length=8))


def write_raw(tmp_path, arrays):
    paths = []
    for i, a in enumerate(arrays):
        p = tmp_path / f"part{i}.raw"
        a.tofile(p)
        paths.append(str(p))
    return paths


def test_from_raw_files_then_to_npy(tmp_path):
    parts = [rng.integers(-30000, 30000, size=(n, 6)).astype(">i2") for n in (5, 9, 2, 1)]
    paths = write_raw(tmp_path, parts)
    y = txd.from_raw_files(paths, np.int16, (-1, 6), little_endian=False, chunk_bytes=36)
    assert y.chunks == ((3, 2, 3, 3, 3, 2, 1), (6,))  # 3 rows a chunk, never across files
    whole = b"".join(open(p, "rb").read() for p in paths)
    want = tx.reshape(tx.decode_raw(whole, "int16", little_endian=False), [-1, 6])
    same(y, want)
    z = txd.transpose(txd.cast(y, "float32"))
    out = tmp_path / "z.npy"
    assert txd.to_npy(z, out) == want.size * 4
    np.save(tmp_path / "ref.npy", tx.transpose(tx.cast(want, "float32")))
    assert out.read_bytes() == (tmp_path / "ref.npy").read_bytes()  # header and data
    assert not list(tmp_path.glob("*.tx-dask-tmp"))


@pytest.mark.parametrize("chunks", [(7, 10, 5), (3, 4, 2), (1, 1, 5), (7, 1, 1)])
def test_to_npy_writes_every_chunk_at_its_offset(tmp_path, chunks):
    for arr in (A, tx.cast(A, "bfloat16"), A[0, 0, :1].reshape(())):
        d = da.from_array(arr, chunks=chunks[:arr.ndim])
        txd.to_npy(d, tmp_path / "a.npy")
        np.save(tmp_path / "b.npy", arr)
        assert (tmp_path / "a.npy").read_bytes() == (tmp_path / "b.npy").read_bytes()


def test_from_raw_files_errors(tmp_path):
    (tmp_path / "odd.raw").write_bytes(b"\x00" * 7)
    with pytest.raises(ValueError, match="not a whole number of rows"):
        txd.from_raw_files([tmp_path / "odd.raw"], "int16", (-1, 2))
    with pytest.raises(ValueError, match="hold 1 rows, shape says 2"):
        (tmp_path / "r.raw").write_bytes(b"\x00" * 4)
        txd.from_raw_files([tmp_path / "r.raw"], "int16", (2, 2))
    (tmp_path / "short.raw").write_bytes(b"\x00" * 4)
    y = txd.from_raw_files([tmp_path / "short.raw"], "int16", (-1, 2))
    os.truncate(tmp_path / "short.raw", 2)  # the file changed after the graph was built
    with pytest.raises(tx.InvalidArgumentError, match="decode_raw_file"):
        y.compute()


def test_ops_that_are_not_chunk_local_refuse(x):
    for call in (lambda: txd.concat([x, x], 0), lambda: txd.unique_with_counts(x),
                 lambda: txd.tile(x, [2, 1, 1]), lambda: txd.boolean_mask(x, x > 0),
                 lambda: txd.sequence_mask(x),
                 lambda: txd.gather(x, da.from_array(np.array([0]))),
                 lambda: txd.gather(A, x.astype(np.int32), batch_dims=1),
                 lambda: txd.strided_slice(x, da.from_array(np.array([0])), [1], [1])):
        with pytest.raises(txd.NotChunkLocalError, match="chunk-local") as e:
            call()
        assert isinstance(e.value, tx.Error) and isinstance(e.value, NotImplementedError)
    with pytest.raises(AttributeError):
        txd.no_such_op  # noqa: B018
    assert set(txd.CHUNK_LOCAL) <= set(tx.OPS)


def test_argument_errors_are_tensorxs_and_raised_when_the_graph_is_built(x):
    with pytest.raises(tx.UnimplementedError, match="Cast int16 to string"):
        txd.cast(x, "string")
    with pytest.raises(tx.Error):
        txd.transpose(x, [0, 0, 1])
    with pytest.raises(tx.Error):
        txd.one_hot(x, -1)
    with pytest.raises(tx.Error):
        txd.reverse(x, axis=[3])


# ---- tensor files and TFRecord files --------------------------------------------------------
def test_from_safetensors_one_task_per_file(tmp_path):
    parts = [rng.standard_normal((n, 3, 2)).astype(np.float32) for n in (4, 1, 6)]
    paths = []
    for i, p in enumerate(parts):
        paths.append(tmp_path / f"s{i}.safetensors")
        tx.save(paths[-1], {"x": p, "other": np.arange(i + 1)})
    d = txd.from_safetensors(paths, "x")
    assert d.chunks == ((4, 1, 6), (3,), (2,)) and d.dtype == np.float32
    assert len(d.__dask_graph__()) == 3
    same(d, np.concatenate(parts))
    tx.save(tmp_path / "bad.safetensors", {"x": np.zeros((2, 4), np.float32)})
    with pytest.raises(ValueError, match="bad.safetensors holds float32 \\[2, 4\\]"):
        txd.from_safetensors(paths + [tmp_path / "bad.safetensors"], "x")
    with pytest.raises(tx.InvalidArgumentError, match="no tensor 'y' in .*s0.safetensors"):
        txd.from_safetensors(paths, "y")


def test_from_npz_stored_and_deflated(tmp_path):
    parts = [rng.standard_normal((n, 3)).astype(np.float32) for n in (2, 5, 1)]
    paths = []
    for i, p in enumerate(parts):
        paths.append(tmp_path / f"n{i}.npz")
        (np.savez_compressed if i % 2 else np.savez)(paths[-1], x=p, other=np.arange(i + 1))
    d = txd.from_npz(paths, "x")
    assert d.chunks == ((2, 5, 1), (3,)) and d.dtype == np.float32
    assert len(d.__dask_graph__()) == 3
    same(d, np.concatenate(parts))
    np.savez(tmp_path / "bad.npz", x=np.zeros((2, 4), np.float32))
    with pytest.raises(ValueError, match="bad.npz holds float32 \\[2, 4\\]"):
        txd.from_npz(paths + [tmp_path / "bad.npz"], "x")
    with pytest.raises(tx.InvalidArgumentError, match="no tensor 'y' in .*n0.npz"):
        txd.from_npz(paths, "y")


def test_from_idx_plain_and_gzip(tmp_path):
    parts = [rng.integers(0, 256, size=(n, 4, 4)).astype(np.uint8) for n in (3, 5)]
    paths = [tmp_path / "a.idx", tmp_path / "b-idx3-ubyte.gz"]
    for p, a in zip(paths, parts):
        tx.save(p, a)
    d = txd.from_idx(paths)
    assert d.chunks == ((3, 5), (4,), (4,)) and d.dtype == np.uint8
    same(d, np.concatenate(parts))
    tx.save(tmp_path / "f.idx", np.zeros((2, 4, 4), np.float32))
    with pytest.raises(ValueError, match="f.idx holds float32"):
        txd.from_idx(paths + [tmp_path / "f.idx"])
    (tmp_path / "junk.idx").write_bytes(b"\x00\x00\x07\x01")
    with pytest.raises(tx.InvalidArgumentError, match="junk.idx"):
        txd.from_idx([tmp_path / "junk.idx"])


@pytest.mark.parametrize("compression", [None, "GZIP"])
def test_tfrecord_bag_one_partition_per_file(tmp_path, compression):
    shards = [[b"a", b"bc"], [], [bytes(range(100))] * 3]
    paths = []
    for i, recs in enumerate(shards):
        paths.append(tmp_path / f"r{i}.tfrecord")
        tx.tfrecord_write(paths[-1], recs, compression=compression)
    bag = txd.tfrecord_bag(paths, compression=compression)
    assert bag.npartitions == 3
    assert bag.compute() == [r for s in shards for r in s]
    assert bag.map(len).sum().compute() == 303
    with pytest.raises(ValueError, match="compression"):
        txd.tfrecord_bag(paths, compression="LZ4")


# ---- from_tfrecord: Example features of TFRecord shards ----------------------------------------
from example_proto import example  # noqa: E402

F, V = tx.FixedLenFeature, tx.VarLenFeature
EXAMPLE_FEATURES = {"label": F([], "int64"), "xy": F([2], "float32", default_value=[0.5, 0]),
                    "pix": F([], "string"), "tags": V("string"), "ids": V("int64")}


def _example(i, pix_bytes=4):
    feats = {"label": ("int64", [i]), "pix": ("bytes", [bytes(range(i, i + pix_bytes))]),
             "tags": ("bytes", [b"t%d" % j for j in range(i % 3)]), "ids": ("int64", [i] * (i % 4))}
    if i % 2:
        feats["xy"] = ("float", [i / 4, -i])
    return example(feats)


def _shards(tmp_path, sizes, compression=None):
    """TFRecord files of Examples 0, 1, ... split into shards of `sizes` records."""
    paths, records, i = [], [], 0
    for k, n in enumerate(sizes):
        recs = [_example(i + j) for j in range(n)]
        i += n
        paths.append(str(tmp_path / f"s{k}.tfrecord"))
        tx.tfrecord_write(paths[-1], recs, compression=compression)
        records += recs
    return paths, records


def _check_features(out, records, decode=None):
    whole = tx.parse_features(records, EXAMPLE_FEATURES)
    for key, (dtype, little) in (decode or {}).items():
        whole[key] = tx.decode_raw(whole[key], dtype, little)
    assert list(out) == list(whole)  # TF's order: sparse keys, then dense, each sorted
    for key, want in whole.items():
        if isinstance(want, tx.SparseTensorValue):
            per_record = out[key].compute()
            assert len(per_record) == len(records)
            assert all(isinstance(v, np.ndarray) and v.ndim == 1 and v.dtype == want.values.dtype
                       for v in per_record)
            assert [v.tolist() for v in per_record] == [
                want.values[want.indices[:, 0] == r].tolist() for r in range(len(records))]
        elif want.dtype == object:
            got = out[key].compute()
            assert got.dtype == object and got.tolist() == want.tolist()
        else:
            same(out[key], want)


@pytest.mark.parametrize("compression", [None, "GZIP"])
def test_from_tfrecord_one_collection_per_feature(tmp_path, compression):
    paths, records = _shards(tmp_path, [5, 0, 3], compression)
    out = txd.from_tfrecord(paths, EXAMPLE_FEATURES, compression=compression)
    assert isinstance(out["label"], da.Array) and out["label"].chunks == ((5, 0, 3),)
    assert out["xy"].chunks == ((5, 0, 3), (2,)) and out["xy"].dtype == np.float32
    assert out["pix"].dtype == object and out["tags"].npartitions == 3
    _check_features(out, records)
    decode = {"pix": ("uint16", False)}
    out = txd.from_tfrecord(paths, EXAMPLE_FEATURES, decode={"pix": ("uint16", False)},
                            compression=compression)
    assert out["pix"].chunks == ((5, 0, 3), (2,)) and out["pix"].dtype == np.uint16
    _check_features(out, records, decode=decode)


def test_from_tfrecord_parses_each_chunk_once_for_every_feature(tmp_path, monkeypatch):
    paths, records = _shards(tmp_path, [4, 0, 3])
    out = txd.from_tfrecord(paths, EXAMPLE_FEATURES, decode={"pix": "uint8"},
                            records_per_chunk=2)
    assert out["label"].chunks == ((2, 2, 0, 2, 1),) and out["tags"].npartitions == 5
    graphs = [dict(c.__dask_graph__()) for c in out.values()]
    shared = set.intersection(*(set(g) for g in graphs))
    assert len(shared) == 5  # one parse per chunk, in every feature's graph
    assert sum(len(g) for g in graphs) == 5 * len(shared) + 5 * 5  # plus a getitem a chunk
    opened = []

    class Counting(tx.TFRecordReader):
        def __init__(self, *args, **kwargs):
            opened.append(args[0])
            super().__init__(*args, **kwargs)
    monkeypatch.setattr(tx._features, "TFRecordReader", Counting)
    got = dask.compute(*out.values())
    assert sorted(opened) == sorted([paths[0]] * 2 + [paths[1]] + [paths[2]] * 2)
    whole = tx.parse_features(records, EXAMPLE_FEATURES)
    assert np.array_equal(got[2], whole["label"])
    import pickle
    assert pickle.loads(pickle.dumps(graphs))  # what a distributed scheduler ships
    _check_features(out, records, decode={"pix": ("uint8", True)})


def test_from_tfrecord_decode_width_from_the_first_record(tmp_path):
    paths, records = _shards(tmp_path, [0, 3])
    recs = [_example(7, pix_bytes=3), _example(8)]
    paths.append(str(tmp_path / "odd.tfrecord"))
    tx.tfrecord_write(paths[-1], recs)
    out = txd.from_tfrecord(paths, EXAMPLE_FEATURES, decode={"pix": "uint8"})
    assert out["pix"].chunks == ((0, 3, 2), (4,))  # from the first shard that has a record
    strings = tx.parse_features(records + recs, EXAMPLE_FEATURES)["pix"]
    with pytest.raises(tx.InvalidArgumentError) as whole:
        tx.decode_raw(strings, "uint8")  # TF's error on every record at once...
    with pytest.raises(tx.InvalidArgumentError) as chunked:
        out["pix"].compute()
    assert str(chunked.value) == str(whole.value)  # ...is the chunk's, element 3 counted across
    assert "element 3 has size 3 != 4" in str(whole.value)
    with pytest.raises(tx.InvalidArgumentError, match="element 3 has size 3"):
        out["label"].compute()  # the chunk's one task parses and decodes every feature


def test_from_tfrecord_errors(tmp_path):
    paths, _records = _shards(tmp_path, [3, 2])
    with pytest.raises(ValueError, match="no files"):
        txd.from_tfrecord([], EXAMPLE_FEATURES)
    with pytest.raises(ValueError, match="feature 'label': dtype float64"):
        txd.from_tfrecord(paths, {"label": F([], "float64")})
    with pytest.raises(ValueError, match="decode\\['tags'\\]"):
        txd.from_tfrecord(paths, EXAMPLE_FEATURES, decode={"tags": "uint8"})
    with pytest.raises(tx.InvalidArgumentError, match="not a multiple of 8"):  # at graph time
        txd.from_tfrecord(paths, EXAMPLE_FEATURES, decode={"pix": "int64"})
    missing = txd.from_tfrecord(paths, {"nope": F([], "int64")})  # records are read in tasks
    with pytest.raises(tx.InvalidArgumentError, match="Feature: nope .* is required"):
        missing["nope"].compute()
    for bad in (0, 1.5, True):
        with pytest.raises(ValueError, match="records_per_chunk must be an int of at least 1"):
            txd.from_tfrecord(paths, EXAMPLE_FEATURES, records_per_chunk=bad)
    (tmp_path / "gz").mkdir()
    gz, _r = _shards(tmp_path / "gz", [1], "GZIP")
    with pytest.raises(ValueError, match="records_per_chunk needs uncompressed files"):
        txd.from_tfrecord(gz, EXAMPLE_FEATURES, compression="GZIP", records_per_chunk=1)
    with pytest.raises(ValueError, match="compression"):
        txd.from_tfrecord(paths, EXAMPLE_FEATURES, compression="LZ4")


def test_from_tfrecord_a_damaged_shard_fails_at_compute(tmp_path):
    paths, _records = _shards(tmp_path, [3, 2])
    data = bytearray(open(paths[1], "rb").read())
    data[-5] ^= 0x40  # a data byte of the last record: the headers still index
    open(paths[1], "wb").write(bytes(data))
    out = txd.from_tfrecord(paths, EXAMPLE_FEATURES)
    assert out["label"].blocks[0].compute().tolist() == [0, 1, 2]
    with pytest.raises(tx.DataLossError, match="corrupted record at"):
        out["label"].compute()
    with pytest.raises(tx.DataLossError):
        out["tags"].compute()
