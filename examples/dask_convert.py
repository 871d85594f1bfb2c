# SPDX-License-Identifier: Apache-2.0
"""docs/dask.md's example as a script: raw big-endian int16 dumps (1024 values a row) and int32
label files become a transposed float32 .npy and a one-hot .npy, written by a Dask cluster's
workers with tensorx.dask.

  python3 examples/dask_convert.py
      a LocalCluster of 2 worker processes on 127.0.0.1, on sample files it writes to a temporary
      folder, and a check that both outputs equal NumPy's result on the whole arrays
  python3 examples/dask_convert.py --scheduler tcp://10.0.0.5:8786 --out /shared/out \\
      /shared/dumps/part*.raw
      a cluster of machines (`dask scheduler`, `dask worker ...`), on files every worker sees
      under the same paths (each PATH.raw with its PATH.labels beside it)

The cluster's worker processes start the Python interpreter anew (multiprocessing's "spawn") and
import this file again, so everything that starts work is under `if __name__ == "__main__":`;
without that guard each new worker would run the conversion again instead of starting, and the
parent would wait for workers that never come.
"""
import argparse
import os
import sys
import tempfile

import distributed
import numpy as np

import tensorx.dask as txd


def convert(paths, out):
    """The example of docs/dask.md: the same calls on any cluster."""
    x = txd.from_raw_files(paths, "int16", (-1, 1024), little_endian=False, chunk_bytes=64 << 20)
    y = txd.transpose(txd.cast(x, "float32"))                # chunk-local: one task per chunk
    labels = txd.from_raw_files([p.replace(".raw", ".labels") for p in paths], "int32", (-1,))
    txd.to_npy(y, os.path.join(out, "samples.npy"))          # written by the workers
    txd.to_npy(txd.one_hot(labels, 10), os.path.join(out, "labels.npy"))


def write_samples(folder, files=4, rows=64):
    """Sample dumps: FILES pairs of part*.raw (ROWS x 1024 big-endian int16) and part*.labels."""
    rng = np.random.default_rng(7)
    paths, samples, labels = [], [], []
    for i in range(files):
        s = rng.integers(-2**15, 2**15, size=(rows, 1024), dtype=np.int16)
        lab = rng.integers(0, 10, size=rows, dtype=np.int32)
        path = os.path.join(folder, f"part{i:03d}.raw")
        s.astype(">i2").tofile(path)
        lab.tofile(path.replace(".raw", ".labels"))
        paths.append(path)
        samples.append(s)
        labels.append(lab)
    return paths, np.concatenate(samples), np.concatenate(labels)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="raw files (default: sample files it writes)")
    ap.add_argument("--scheduler", help="a scheduler's address (default: a LocalCluster here)")
    ap.add_argument("--out", help="the output folder (default: a temporary folder)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tx-dask-example-") as tmp:
        out = args.out or tmp
        paths, samples, labels = (args.paths, None, None) if args.paths else write_samples(tmp)
        if args.scheduler:
            client = distributed.Client(args.scheduler, timeout=60)
        else:
            cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                               host="127.0.0.1", dashboard_address=None)
            client = distributed.Client(cluster, timeout=60)
            client.wait_for_workers(2, timeout=60)
        with client:
            convert(paths, out)
        if not args.scheduler:
            cluster.close()
        got_y = np.load(os.path.join(out, "samples.npy"))
        got_l = np.load(os.path.join(out, "labels.npy"))
        print(f"wrote {os.path.join(out, 'samples.npy')} {got_y.dtype}{list(got_y.shape)} and "
              f"{os.path.join(out, 'labels.npy')} {got_l.dtype}{list(got_l.shape)}")
        if samples is not None:
            ok = (np.array_equal(got_y, samples.astype(np.float32).T)
                  and np.array_equal(got_l, np.eye(10, dtype=np.float32)[labels]))
            print("equal to NumPy's result on the whole arrays" if ok else "MISMATCH")
            return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
