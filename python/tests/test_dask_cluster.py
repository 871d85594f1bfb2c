# SPDX-License-Identifier: Apache-2.0
"""tensorx.dask on a real cluster of processes: a distributed.LocalCluster of 2 worker processes
(one thread each, a 256 MiB memory limit each) on 127.0.0.1 only.  Several raw files
(big-endian int16) become a transposed float32 .npy, and label files a one_hot .npy, written by
the workers (to_npy); both must equal, byte for byte, np.save of tensorx's in-process result.
Then the same run with a worker killed (SIGKILL) mid-run: Dask reschedules its tasks on the
restarted worker and the files are still identical.  Every wait has a timeout; the cluster is
closed by the fixture; faulthandler ends the process if all of that still hangs."""
import faulthandler
import logging
import os
import signal
import sys

import numpy as np
import pytest
import tensorx as tx

pytest.importorskip("dask", reason="tensorx.dask needs dask (python3-dask; "
                    "scripts/install-deps.sh --python installs it)")
distributed = pytest.importorskip(
    "distributed", reason="the cluster tests need distributed (python3-distributed; "
    "scripts/install-deps.sh --python installs it)")
import dask  # noqa: E402
import tensorx.dask as txd  # noqa: E402

# The workers are forked (see `client`), so they inherit the state of the process that forks
# them.  Run after the rest of the suite in one pytest process, the conversion's compute hung
# until faulthandler ended the run (2026-11-27, with the package of the commit before too, once
# python3-matplotlib and its dependencies were on the machine); run in a process of its own it
# passes.  So the tests below run in a fresh interpreter: in a suite, one test starts
# `pytest THIS_FILE` in a subprocess and the others are skipped in the suite's own process.
ISOLATED = os.environ.get("TX_DASK_CLUSTER_ISOLATED") == "1"


def test_the_cluster_tests_in_a_fresh_interpreter():
    if ISOLATED:
        pytest.skip("this is the fresh interpreter")
    import subprocess
    env = dict(os.environ, TX_DASK_CLUSTER_ISOLATED="1")
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        os.path.abspath(__file__)], env=env, capture_output=True, text=True,
                       timeout=600, cwd=os.path.dirname(os.path.abspath(__file__)))
    assert r.returncode == 0 and "5 passed" in r.stdout, r.stdout[-3000:] + r.stderr[-3000:]


in_fresh_interpreter = pytest.mark.skipif(not ISOLATED, reason="run by "
                                          "test_the_cluster_tests_in_a_fresh_interpreter")

WAIT = 60  # seconds, for any one wait on the cluster
ROWS, COLS, FILES, DEPTH = 256, 1024, 4, 10  # 4 files of 512 KiB: 2 MiB in, 4 MiB out


@pytest.fixture(scope="module")
def client():
    # The last resort: never hang the suite.  The real stderr: under pytest's --capture=sys (the
    # asan stage) sys.stderr has no file descriptor.
    faulthandler.dump_traceback_later(300, exit=True, file=sys.__stderr__)
    cluster = c = None
    # The nanny restarts a killed worker by starting a new process; with the default "spawn"
    # distributed 2022.12 on Python 3.11 fails to pickle the new process object ("Can't pickle
    # local object 'Event.wait.<locals>.<lambda>'", dask/distributed#3345's symptom), so
    # the workers are forked.
    mp = dask.config.set({"distributed.worker.multiprocessing-method": "fork"})
    try:
        cluster = distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, memory_limit="256MiB",
            host="127.0.0.1", scheduler_port=0, dashboard_address=None,
            silence_logs=logging.CRITICAL)
        c = distributed.Client(cluster, timeout=WAIT)
        c.wait_for_workers(2, timeout=WAIT)
        yield c
    finally:
        if c is not None:
            c.close(timeout=WAIT)
        if cluster is not None:
            cluster.close(timeout=WAIT)
        mp.__exit__(None, None, None)
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("dask-cluster")
    r = np.random.default_rng(3)
    samples, labels = [], []
    for i in range(FILES):
        s = r.integers(-32768, 32768, size=(ROWS, COLS)).astype(">i2")
        s.tofile(d / f"samples{i}.raw")
        lab = r.integers(0, DEPTH, size=ROWS).astype("<i4")
        lab.tofile(d / f"labels{i}.raw")
        samples.append(str(d / f"samples{i}.raw"))
        labels.append(str(d / f"labels{i}.raw"))
    # in process, with tensorx on whole arrays: the reference files
    whole = b"".join(open(p, "rb").read() for p in samples)
    x = tx.reshape(tx.decode_raw(whole, "int16", little_endian=False), [-1, COLS])
    np.save(d / "want_x.npy", tx.transpose(tx.cast(x, "float32")))
    lab = tx.decode_raw(b"".join(open(p, "rb").read() for p in labels), "int32")
    np.save(d / "want_y.npy", tx.one_hot(lab, DEPTH))
    return d, samples, labels


def convert(d, samples, labels, tag, hook=None):
    x = txd.from_raw_files(samples, "int16", (-1, COLS), little_endian=False,
                           chunk_bytes=128 << 10)  # 4 chunks a file
    assert x.npartitions == 4 * FILES
    if hook is not None:
        x = x.map_blocks(hook, dtype=x.dtype)
    xt = txd.transpose(txd.cast(x, "float32"))
    y = txd.one_hot(txd.from_raw_files(labels, "int32", (-1,)), DEPTH)
    txd.to_npy(xt, d / f"{tag}_x.npy")
    txd.to_npy(y, d / f"{tag}_y.npy")
    for name in ("x", "y"):
        assert (d / f"{tag}_{name}.npy").read_bytes() == (d / f"want_{name}.npy").read_bytes()


@in_fresh_interpreter
def test_cluster_is_two_worker_processes_on_loopback(client):
    info = client.scheduler_info()
    assert len(info["workers"]) == 2
    assert all(a.startswith("tcp://127.0.0.1:") for a in info["workers"])
    assert client.scheduler.address.startswith("tcp://127.0.0.1:")
    assert all(w["memory_limit"] == 256 << 20 for w in info["workers"].values())
    pids = client.run(os.getpid)
    assert len(set(pids.values()) | {os.getpid()}) == 3  # two processes besides this one


@in_fresh_interpreter
def test_conversion_on_the_cluster_is_bit_identical(client, data):
    d, samples, labels = data
    with dask.config.set(scheduler=client.get):  # this client, not whatever is the default
        convert(d, samples, labels, "cluster")
    executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert len(executed) == 2 and all(n > 0 for n in executed.values())  # both did work


@in_fresh_interpreter
def test_a_killed_worker_is_retried_and_the_result_is_identical(client, data):
    d, samples, labels = data
    marker = str(d / "killed-once")
    before = set(client.run(os.getpid).values())

    def kill_once(block, block_info=None):
        # the worker process running chunk 5 dies the first time, half-way through the work
        if block_info[0]["chunk-location"][0] == 5:
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return block
            os.kill(os.getpid(), signal.SIGKILL)
        return block

    with dask.config.set(scheduler=client.get):
        convert(d, samples, labels, "killed", hook=kill_once)
    assert os.path.exists(marker)  # the kill happened
    client.wait_for_workers(2, timeout=WAIT)  # the nanny restarted it
    after = set(client.run(os.getpid).values())
    assert len(before - after) == 1  # exactly one worker process is a new one


@in_fresh_interpreter
def test_tensor_files_and_records_on_the_cluster(client, tmp_path):
    parts = [np.arange(n * 6, dtype=np.int32).reshape(n, 6) + n for n in (2, 3, 4, 5)]
    st, npz, idx, rec = [], [], [], []
    for i, a in enumerate(parts):
        st.append(str(tmp_path / f"p{i}.safetensors"))
        tx.save(st[-1], {"w": a})
        npz.append(str(tmp_path / f"p{i}.npz"))
        np.savez_compressed(npz[-1], w=a)
        idx.append(str(tmp_path / f"p{i}.idx.gz"))
        tx.save(idx[-1], a)
        rec.append(str(tmp_path / f"p{i}.tfrecord"))
        tx.tfrecord_write(rec[-1], [r.tobytes() for r in a])
    with dask.config.set(scheduler=client.get):
        for d in (txd.from_safetensors(st, "w"), txd.from_npz(npz, "w"), txd.from_idx(idx)):
            assert d.npartitions == 4
            assert np.array_equal(d.compute(), np.concatenate(parts))
        got = txd.tfrecord_bag(rec).compute()
    assert got == [r.tobytes() for a in parts for r in a]


@in_fresh_interpreter
def test_example_features_on_the_cluster(client, tmp_path):
    """from_tfrecord's tasks on the workers: shards (one empty) plain and GZIP'd, in chunks of
    records, equal to parse_features of every record in this process; a damaged shard raises
    DataLossError from the worker (a GZIP'd one when it is counted, at graph time)."""
    from example_proto import example
    F, V = tx.FixedLenFeature, tx.VarLenFeature
    features = {"label": F([], "int64"), "pix": F([2], "string"), "ids": V("int64"),
                "w": F([], "float32", default_value=-1.0)}
    records = [example({"label": ("int64", [i]), "ids": ("int64", list(range(i % 5))),
                        "pix": ("bytes", [bytes([i, 0, 0, i]), bytes(4)])}) for i in range(40)]
    whole = tx.parse_features(records, features)
    pix = tx.decode_raw(whole["pix"], "uint16")
    ids = [whole["ids"].values[whole["ids"].indices[:, 0] == r].tolist() for r in range(40)]
    shards = {c: [str(tmp_path / f"{c}{k}.tfrecord") for k in range(3)] for c in (None, "GZIP")}
    for compression, per_chunk in ((None, 7), ("GZIP", None)):
        paths = shards[compression]
        for p, part in zip(paths, (records[:25], [], records[25:])):
            tx.tfrecord_write(p, part, compression=compression)
        out = txd.from_tfrecord(paths, features, decode={"pix": "uint16"},
                                compression=compression, records_per_chunk=per_chunk)
        with dask.config.set(scheduler=client.get):
            got = dask.compute(*out.values())
        assert out["pix"].chunks[0] == ((7, 7, 7, 4, 0, 7, 7, 1) if per_chunk else (25, 0, 15))
        assert [v.tolist() for v in got[0]] == ids
        for key, g in zip(out, got):
            if key != "ids":
                want = pix if key == "pix" else whole[key]
                assert g.dtype == want.dtype and np.array_equal(g, want)
    plain, gz = shards[None], shards["GZIP"]
    data = bytearray(open(plain[2], "rb").read())
    data[-5] ^= 1  # a data byte: the headers still index
    open(plain[2], "wb").write(bytes(data))
    out = txd.from_tfrecord(plain, features, records_per_chunk=7)
    with dask.config.set(scheduler=client.get), pytest.raises(tx.DataLossError,
                                                              match="corrupted record at"):
        out["label"].compute()
    data = bytearray(open(gz[2], "rb").read())
    data[40] ^= 1  # GZIP'd: the records are counted through the stream, here
    open(gz[2], "wb").write(bytes(data))
    with pytest.raises(tx.DataLossError, match="GZIP stream is corrupt"):
        txd.from_tfrecord(gz, features, compression="GZIP")
