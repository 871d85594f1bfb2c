# SPDX-License-Identifier: Apache-2.0
"""The tensorx.dask benchmark row (docs/dask.md#measured): raw big-endian int16 dumps -> float32,
transposed, -> one .npy, larger in total than one worker's memory limit, in one run:

  cluster   tensorx.dask on a distributed.LocalCluster of 2 worker processes (1 thread each,
            --memory-limit each) on 127.0.0.1
  process   tensorx.dask in one process (Dask's threaded scheduler, 2 threads)
  whole     tensorx on whole arrays in one process, no Dask (the whole array in memory)
  numpy     NumPy + Dask without tensorx's ops on the same kind of 2-worker cluster: np.fromfile
            per chunk, astype(float32), .T, written by to_npy's writer (NumPy and os.pwrite)

Each variant runs in its own Python process (fresh workers), so its peak RSS (ru_maxrss) is its
own; the outputs are compared byte for byte.  Usage, with the installed package:

  python3 python/bench_dask.py [--total-mib 512] [--files 8] [--memory-limit 256MiB]
                               [--chunk-mib 8] [--dir DIR] [--variants cluster,process,...]
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

# python/ holds the package's sources without the built extension: import the installed one
sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(
    os.path.abspath(__file__))]
COLS = 1024


def mib(n):
    return n / (1 << 20)


def peak_kib():
    """This process's peak RSS: VmHWM (ru_maxrss would keep the parent's peak across exec)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def paths_of(d, files):
    return [os.path.join(d, f"part{i:03d}.raw") for i in range(files)]


def make_files(d, total_mib, files):
    rows = (total_mib << 20) // (2 * COLS * files)
    r = np.random.default_rng(1)
    for p in paths_of(d, files):
        if os.path.exists(p) and os.path.getsize(p) == rows * COLS * 2:
            continue
        r.integers(-32768, 32768, size=(rows, COLS), dtype=np.int16).astype(">i2").tofile(p)
    return rows * files


def start_cluster(limit):
    import logging

    import dask
    import distributed
    # fork: Debian's distributed 2022.12 cannot restart a worker under spawn on Python 3.11
    dask.config.set({"distributed.worker.multiprocessing-method": "fork"})
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, memory_limit=limit,
        host="127.0.0.1", scheduler_port=0, dashboard_address=None,
        silence_logs=logging.WARNING)
    client = distributed.Client(cluster, timeout=60)
    client.wait_for_workers(2, timeout=60)
    return cluster, client


def tx_graph(paths, chunk_bytes):
    import tensorx.dask as txd
    x = txd.from_raw_files(paths, "int16", (-1, COLS), little_endian=False,
                           chunk_bytes=chunk_bytes)
    return txd.transpose(txd.cast(x, "float32"))


def read_chunk(path, offset, rows):
    return np.fromfile(path, dtype=">i2", count=rows * COLS, offset=offset).reshape(rows, COLS)


def numpy_run(paths, out, chunk_bytes):
    """NumPy's ops only (np.fromfile, astype, .T) under Dask; the .npy is written by to_npy's
    offset writer, which is NumPy and os.pwrite (no tensorx code): NumPy's own way, each chunk
    assigned into np.lib.format.open_memmap(out, "r+"), lost its workers in this benchmark
    (KilledWorker, at 256 MiB and at 1 GiB limits)."""
    import dask
    import dask.array as da

    import tensorx.dask as txd
    rows_per = max(1, chunk_bytes // (2 * COLS))
    parts = []
    for p in paths:
        n = os.path.getsize(p) // (2 * COLS)
        for s in range(0, n, rows_per):
            k = min(rows_per, n - s)
            parts.append(da.from_delayed(dask.delayed(read_chunk)(p, s * 2 * COLS, k),
                                         (k, COLS), dtype=">i2"))
    x = da.concatenate(parts).astype(np.float32).T
    return txd.to_npy(x, out)


def run_variant(name, a):
    paths = paths_of(a.dir, a.files)
    out = os.path.join(a.dir, f"out-{name}.npy")
    chunk = a.chunk_mib << 20
    res = {"variant": name}
    cluster = client = None
    try:
        if name in ("cluster", "numpy"):
            cluster, client = start_cluster(a.memory_limit)
            res["worker_idle_mib"] = sorted(
                mib(v * 1024) for v in client.run(peak_kib).values())
        t0 = time.perf_counter()
        if name in ("cluster", "process"):
            import dask

            import tensorx.dask as txd
            sched = {"scheduler": client.get} if client else \
                {"scheduler": "threads", "num_workers": 2}
            with dask.config.set(**sched):
                txd.to_npy(tx_graph(paths, chunk), out)
        elif name == "numpy":
            import dask
            with dask.config.set(scheduler=client.get):
                numpy_run(paths, out, chunk)
        elif name == "whole":
            import tensorx as tx
            from tensorx import _tensorx
            code = _tensorx.dtype_code("int16")
            parts = [_tensorx.decode_raw_file(os.fsencode(p), 0, os.path.getsize(p), code, False)
                     for p in paths]
            x = tx.reshape(tx.concat(parts, 0), [-1, COLS])
            del parts
            np.save(out, tx.transpose(tx.cast(x, "float32")))
        res["seconds"] = time.perf_counter() - t0
        if client is not None:
            res["worker_peak_mib"] = sorted(
                mib(v * 1024) for v in client.run(peak_kib).values())
        res["process_peak_mib"] = mib(peak_kib() * 1024)
    finally:
        if client is not None:
            client.close(timeout=60)
        if cluster is not None:
            cluster.close(timeout=60)
    return res


def same_files(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 24), fb.read(1 << 24)
            if x != y:
                return False
            if not x:
                return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--total-mib", type=int, default=512, help="raw int16 input, MiB")
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--memory-limit", default="256MiB", help="per worker")
    ap.add_argument("--chunk-mib", type=int, default=8, help="input bytes per chunk")
    ap.add_argument("--dir", default=None, help="where the files go (default: a temp dir)")
    ap.add_argument("--variants", default="cluster,process,whole,numpy")
    ap.add_argument("--run", help=argparse.SUPPRESS)
    ap.add_argument("--keep", action="store_true", help="keep the files")
    a = ap.parse_args()
    if a.run:
        print(json.dumps(run_variant(a.run, a)))
        return
    own = a.dir is None
    a.dir = a.dir or tempfile.mkdtemp(prefix="tx-bench-dask-")
    os.makedirs(a.dir, exist_ok=True)
    try:
        rows = make_files(a.dir, a.total_mib, a.files)
        print(f"input: {a.files} files, {rows} x {COLS} big-endian int16 "
              f"({mib(rows * COLS * 2):.0f} MiB) -> float32 {COLS} x {rows} "
              f"({mib(rows * COLS * 4):.0f} MiB .npy); chunks of {a.chunk_mib} MiB in; "
              f"worker memory limit {a.memory_limit}; {os.cpu_count()} cores", flush=True)
        results = []
        for v in a.variants.split(","):
            cmd = [sys.executable, os.path.abspath(__file__), "--run", v, "--dir", a.dir,
                   "--files", str(a.files), "--memory-limit", a.memory_limit,
                   "--chunk-mib", str(a.chunk_mib), "--total-mib", str(a.total_mib)]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
            if out.returncode:
                sys.exit(f"variant {v} failed:\n{out.stderr[-4000:]}")
            r = json.loads(out.stdout.strip().splitlines()[-1])
            results.append(r)
            print(json.dumps(r), flush=True)
        ref = os.path.join(a.dir, f"out-{results[0]['variant']}.npy")
        print("| variant | seconds | peak RSS per worker (MiB) | idle worker (MiB) "
              "| process peak (MiB) | output |")
        print("|---|---|---|---|---|---|")
        for r in results:
            same = same_files(ref, os.path.join(a.dir, f"out-{r['variant']}.npy"))
            peaks = ", ".join(f"{p:.0f}" for p in r.get("worker_peak_mib", [])) or "-"
            idle = ", ".join(f"{p:.0f}" for p in r.get("worker_idle_mib", [])) or "-"
            print(f"| {r['variant']} | {r['seconds']:.1f} | {peaks} | {idle} | "
                  f"{r['process_peak_mib']:.0f} | {'identical' if same else 'DIFFERS'} |")
    finally:
        if own and not a.keep:
            shutil.rmtree(a.dir, ignore_errors=True)


if __name__ == "__main__":
    main()
