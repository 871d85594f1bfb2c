#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""datasets.py -- the benchmark's dataset files: tensorx's Python package against TensorFlow's
own input pipeline, the `tfrecord` package, the `safetensors` package, np.load and np.memmap,
side by side in one run.  Each side runs in its own subprocess and times itself after its
imports; for each: the best wall time of --reps runs (the sides take turns, round after round),
the peaks of private memory (RssAnon, sampled: pages of mapped files are page cache and not
counted) and of the resident set (VmHWM), and the RssAnon right after the imports (the
interpreter, NumPy, TensorFlow: not the reader's cost).

  datasets.py [--quick] [--reps N] [--dir DIR] [--records N] [--array-mib M] [--sections LIST]
              [--check-only] [--json]

scripts/bench.sh --datasets runs it in a venv with TensorFlow, safetensors and tfrecord.  The
sections (--sections tfrecord,safetensors,npz):
  tfrecord     N (default 200000; --quick 20000) MNIST-like tf.train.Example records ("image": a
               784-byte bytes_list, "label": an int64_list), written by tensorx.tfrecord_write, read
               in batches of 256 into uint8 [B, 784] and int64 [B] NumPy arrays: TF's
               TFRecordDataset.batch.map(parse_example) + decode_raw at one thread and at its
               defaults; the tfrecord package's tfrecord_loader + np.frombuffer per record + np.stack
               per batch; tensorx.TFRecordReader.read(B) + parse_example + decode_raw at 1 and 2
               threads (TENSORX_NUM_THREADS).
  safetensors  32 tensors (float32, float16, int8), 1 GiB (--quick 64 MiB), written by the
               safetensors package: safetensors.numpy.load_file; safe_open(framework="np") and
               get_tensor of each; tensorx.load (read-only views of the mapped file).
  npz          the same tensors by np.savez and np.savez_compressed: np.load + each array read,
               tensorx.load; and a folder of .npy files through np.load(mmap_mode="r") (np.memmap) and
               tensorx.load of each (mapped).
After the load, every side reads every byte of every array once: the checksum is the sum of the
array's bytes as little-endian uint64 words (wrapping), so that a lazy mapping pays for its page
faults and a copy for nothing more than the same pass.  Both times are reported: load only, and
load + that read.  Before timing, every side's result is checked equal to what was written
(TFRecord: SHA-256 of all images and of all labels; arrays: the checksum of each), and
--check-only stops there.  A side whose package is missing is left out, and said so.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peakmem  # noqa: E402

MIB = 1 << 20
UNSUPPORTED = 3  # a side's exit status: its package cannot read this file
BATCH = 256
ME = os.path.abspath(__file__)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # fewer of TensorFlow's notices, in every side


def anon_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    return 0


def checksum(a):
    """The sum of the bytes of a as little-endian uint64 words, wrapping (sizes are multiples of 8)."""
    import numpy as np
    return int(np.add.reduce(a.reshape(-1).view(np.uint8).view("<u8"), dtype=np.uint64))


# ---- the sides (in the subprocess) -----------------------------------------------------------------

def tfr_tf(path, threads):
    import tensorflow as tf
    if threads == 1:
        tf.config.threading.set_inter_op_parallelism_threads(1)
        tf.config.threading.set_intra_op_parallelism_threads(1)
    yield "imported"
    spec = {"image": tf.io.FixedLenFeature([], tf.string),
            "label": tf.io.FixedLenFeature([], tf.int64)}

    def parse(x):
        p = tf.io.parse_example(x, spec)
        return tf.io.decode_raw(p["image"], tf.uint8), p["label"]

    ds = tf.data.TFRecordDataset(path).batch(BATCH).map(parse)
    if threads == 1:
        opt = tf.data.Options()
        opt.threading.private_threadpool_size = 1
        opt.threading.max_intra_op_parallelism = 1
        ds = ds.with_options(opt)
    for img, lab in ds:
        yield img.numpy(), lab.numpy()


def tfr_tfrecord(path, threads):
    import numpy as np
    from tfrecord.reader import tfrecord_loader
    yield "imported"
    imgs, labs = [], []
    for rec in tfrecord_loader(path, None, {"image": "byte", "label": "int"}):
        imgs.append(np.frombuffer(rec["image"], dtype=np.uint8))
        labs.append(rec["label"])
        if len(imgs) == BATCH:
            yield np.stack(imgs), np.concatenate(labs)
            imgs, labs = [], []
    if imgs:
        yield np.stack(imgs), np.concatenate(labs)


def tfr_tensorx(path, threads):
    os.environ["TENSORX_NUM_THREADS"] = str(threads)  # read when the library starts its pool
    import numpy as np
    import tensorx as tx
    yield "imported"
    keys = np.array([b"image", b"label"], dtype=object)
    defaults = [np.array([], dtype=object), np.array([], dtype=np.int64)]
    shapes = [np.array([], dtype=np.int64), np.array([], dtype=np.int64)]
    with tx.TFRecordReader(path) as r:
        while True:
            recs = r.read(BATCH)
            if not recs:
                break
            img, lab = tx.parse_example(recs, dense_keys=keys, dense_defaults=defaults,
                                        dense_shapes=shapes)
            yield tx.decode_raw(img, "uint8"), lab


def arr_st_load_file(path):
    from safetensors.numpy import load_file
    yield "imported"
    yield load_file(path)


def arr_st_safe_open(path):
    from safetensors import safe_open
    yield "imported"
    with safe_open(path, framework="np") as f:
        yield {k: f.get_tensor(k) for k in f.keys()}


def arr_tensorx(path):
    import tensorx as tx
    yield "imported"
    try:
        if os.path.isdir(path):  # the .npy files
            arrays = {f[:-4]: tx.load(os.path.join(path, f)) for f in sorted(os.listdir(path))}
        else:
            arrays = tx.load(path)
    except ValueError as e:
        if "format is not known" in str(e):  # a tensorx.load without this format
            print(e, file=sys.stderr)
            sys.exit(UNSUPPORTED)
        raise
    yield arrays


def arr_np_load(path):
    import numpy as np
    yield "imported"
    with np.load(path) as z:
        yield {k: z[k] for k in z.files}


def arr_np_memmap(path):
    import numpy as np
    yield "imported"
    yield {f[:-4]: np.load(os.path.join(path, f), mmap_mode="r") for f in sorted(os.listdir(path))}


TFR_SIDES = {"tf": tfr_tf, "tfrecord": tfr_tfrecord, "tensorx": tfr_tensorx}
ARR_SIDES = {"st_load_file": arr_st_load_file, "st_safe_open": arr_st_safe_open,
             "tensorx": arr_tensorx, "np_load": arr_np_load, "np_memmap": arr_np_memmap}


def peer_main(argv):
    """--peer tfr|arr SIDE PATH [THREADS] [--check]: one run; one JSON line on stdout."""
    kind, side, path = argv[:3]
    check = "--check" in argv
    if kind == "tfr":
        gen = TFR_SIDES[side](path, int(argv[3]))
        next(gen)
        anon0 = anon_kib()
        t0 = time.perf_counter()
        n = 0
        hi, hl = hashlib.sha256(), hashlib.sha256()
        for img, lab in gen:
            n += len(lab)
            if check:
                if img.dtype.str != "|u1" or img.shape != (len(lab), 784) or lab.dtype.str != "<i8":
                    raise SystemExit(f"{side}: a batch of {img.dtype}{img.shape}, {lab.dtype}")
                hi.update(img.tobytes())
                hl.update(lab.tobytes())
        dt = time.perf_counter() - t0
        out = {"s": dt, "records": n, "anon0": anon0}
        if check:
            out["images"], out["labels"] = hi.hexdigest(), hl.hexdigest()
    else:
        gen = ARR_SIDES[side](path)
        next(gen)
        anon0 = anon_kib()
        t0 = time.perf_counter()
        arrays = next(gen)
        t1 = time.perf_counter()
        sums = {k: checksum(v) for k, v in arrays.items()}
        t2 = time.perf_counter()
        out = {"load_s": t1 - t0, "s": t2 - t0, "anon0": anon0}
        if check:
            out["sums"] = sums
            out["dtypes"] = {k: v.dtype.str for k, v in arrays.items()}
    print(json.dumps(out))
    return 0


# ---- the inputs ------------------------------------------------------------------------------------

def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(num, payload):
    """A length-delimited field."""
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def example(image, label):
    """tf.train.Example {"image": bytes_list [image], "label": int64_list [label]}, by hand."""
    img = field(1, field(1, image))              # Feature.bytes_list{value}
    lab = field(3, field(1, varint(label)))       # Feature.int64_list{value (packed)}
    feats = field(1, field(1, b"image") + field(2, img)) + field(1, field(1, b"label") + field(2, lab))
    return field(1, feats)                        # Example.features


def make_tfrecord(d, n):
    import numpy as np
    import tensorx as tx
    rng = np.random.default_rng(7)
    images = rng.integers(0, 256, (n, 784), dtype=np.uint8)
    labels = rng.integers(0, 10, n).astype("<i8")
    path = os.path.join(d, "mnist.tfrecord")
    tx.tfrecord_write(path, (example(images[i].tobytes(), int(labels[i])) for i in range(n)))
    return path, {"images": hashlib.sha256(images.tobytes()).hexdigest(),
                  "labels": hashlib.sha256(labels.tobytes()).hexdigest()}


def make_arrays(d, total):
    """32 tensors of total/32 bytes: float32, float16, int8 in turn (safetensors.numpy has no
    bfloat16), as .safetensors, .npz (stored and deflated) and a folder of .npy files."""
    import numpy as np
    from safetensors.numpy import save_file
    rng = np.random.default_rng(11)
    each = total // 32
    arrays = {}
    for i in range(32):
        dt = (np.float32, np.float16, np.int8)[i % 3]
        cnt = each // np.dtype(dt).itemsize
        shape = (cnt // 1024, 1024)
        if dt == np.int8:
            a = rng.integers(-128, 128, shape, dtype=np.int8)
        else:
            a = rng.standard_normal(shape, dtype=np.float32).astype(dt, copy=False)
        arrays[f"layer{i:02d}.{np.dtype(dt).name}"] = a
    paths = {"safetensors": os.path.join(d, "t.safetensors"), "npz": os.path.join(d, "t.npz"),
             "npz_deflated": os.path.join(d, "t_deflated.npz"), "npy_dir": os.path.join(d, "npy")}
    save_file(arrays, paths["safetensors"])
    np.savez(paths["npz"], **arrays)
    np.savez_compressed(paths["npz_deflated"], **arrays)
    os.makedirs(paths["npy_dir"], exist_ok=True)
    for k, a in arrays.items():
        np.save(os.path.join(paths["npy_dir"], k + ".npy"), a)
    sums = {k: checksum(a) for k, a in arrays.items()}
    dtypes = {k: a.dtype.str for k, a in arrays.items()}
    return paths, sums, dtypes


def into_page_cache(paths):
    subprocess.run(["sync"], check=False)
    for p in paths:
        files = [os.path.join(p, f) for f in os.listdir(p)] if os.path.isdir(p) else [p]
        for f in files:
            with open(f, "rb") as fh:
                while fh.read(64 * MIB):
                    pass


# ---- the parent -----------------------------------------------------------------------------------

def have(module):
    """Whether module is installed (not imported here: TensorFlow and the tfrecord package each
    register tensorflow.Example's protos, and in one process the second fails)."""
    import importlib.util
    return importlib.util.find_spec(module) is not None


class Unsupported(Exception):
    pass


def run_peer(args, out):
    dt, anon, rss, code = peakmem.run([sys.executable, ME, "--peer"] + args, out)
    with open(out) as f:
        text = f.read()
    if code == UNSUPPORTED:
        raise Unsupported()
    if code != 0:
        raise RuntimeError(f"datasets.py --peer {' '.join(args)} exited with {code}")
    return json.loads(text.splitlines()[-1]), anon, rss


def measure(sides, reps, out):
    """{name: (result of the best run, peak RssAnon KiB, peak VmHWM KiB)}, the sides in turn."""
    res = {}
    for _ in range(reps):
        for name, args in sides:
            r, a, h = run_peer(args, out)
            best, anon, rss = res.get(name, (None, 0, 0))
            if best is None or r["s"] < best["s"]:
                best = r
            res[name] = (best, max(anon, a), max(rss, h))
    return res


def check_sides(sides, out, want):
    """Runs each side once with --check: the names of those whose result differs from want.
    A side that cannot read the file is taken out of sides (and said so)."""
    bad = []
    for name, args in list(sides):
        try:
            r, _, _ = run_peer(args + ["--check"], out)
        except Unsupported:
            print(f"datasets.py: {name}: cannot read this file; left out", file=sys.stderr)
            sides.remove((name, args))
            continue
        got = {k: r.get(k) for k in want}
        if got != want:
            bad.append(name)
            print(f"datasets.py: {name}: the result differs from what was written", file=sys.stderr)
    return bad


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        return peer_main(sys.argv[2:])
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--records", type=int, default=0)
    ap.add_argument("--array-mib", type=int, default=0)
    ap.add_argument("--sections", default="tfrecord,safetensors,npz")
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--json", action="store_true")
    o = ap.parse_args()
    n = o.records or (20000 if o.quick else 200000)
    total = (o.array_mib or (64 if o.quick else 1024)) * MIB
    reps = o.reps or (1 if o.quick else 3)
    sections = [s for s in o.sections.split(",") if s]
    d = os.path.abspath(o.dir or os.path.join(os.path.dirname(ME), "..", "build-bench", "datasets"))
    made_dir = not os.path.isdir(d)
    os.makedirs(d, exist_ok=True)
    out = os.path.join(d, "peer.out")
    if not have("tensorx"):
        print("datasets.py: the tensorx package is not installed", file=sys.stderr)
        return 2
    rows, failed = [], []
    try:
        if "tfrecord" in sections:
            path, want = make_tfrecord(d, n)
            into_page_cache([path])
            sides = []
            if have("tensorflow"):
                sides += [("TF 1 thread", ["tfr", "tf", path, "1"]),
                          ("TF default", ["tfr", "tf", path, "0"])]
            else:
                print("datasets.py: TensorFlow is not installed; left out", file=sys.stderr)
            if have("tfrecord"):
                sides.append(("tfrecord pkg", ["tfr", "tfrecord", path, "1"]))
            else:
                print("datasets.py: the tfrecord package is not installed; left out", file=sys.stderr)
            sides += [("tensorx 1 thread", ["tfr", "tensorx", path, "1"]),
                      ("tensorx 2 threads", ["tfr", "tensorx", path, "2"])]
            failed += check_sides(sides, out, want)
            if not o.check_only:
                res = measure(sides, reps, out)
                for name, (r, anon, rss) in res.items():
                    if r["records"] != n:
                        raise RuntimeError(f"{name} read {r['records']} records of {n}")
                    rows.append({"section": "tfrecord", "side": name, "file_mib": os.path.getsize(path) / MIB,
                                 "s": r["s"], "records_per_s": n / r["s"], "rss_anon_kib": anon,
                                 "rss_kib": rss, "anon_after_imports_kib": r["anon0"]})
            os.unlink(path)
        if "safetensors" in sections or "npz" in sections:
            if not have("safetensors"):
                print("datasets.py: the safetensors package is not installed (it writes the "
                      "arrays); the array sections are left out", file=sys.stderr)
                sections = [s for s in sections if s == "tfrecord"]
        if "safetensors" in sections or "npz" in sections:
            paths, sums, dtypes = make_arrays(d, total)
            want = {"sums": sums, "dtypes": dtypes}
            for sec in ("safetensors", "npz"):
                if sec not in sections:
                    continue
                if sec == "safetensors":
                    files = [("safetensors", paths["safetensors"], ["st_load_file", "st_safe_open", "tensorx"])]
                else:
                    files = [("npz stored", paths["npz"], ["np_load", "tensorx"]),
                             ("npz deflated", paths["npz_deflated"], ["np_load", "tensorx"]),
                             (".npy files", paths["npy_dir"], ["np_memmap", "tensorx"])]
                names = {"st_load_file": "safetensors.numpy.load_file",
                         "st_safe_open": "safe_open + get_tensor", "tensorx": "tensorx.load",
                         "np_load": "np.load", "np_memmap": "np.load(mmap_mode='r')"}
                for fname, p, kinds in files:
                    into_page_cache([p])
                    sides = [(f"{fname}: {names[k]}", ["arr", k, p]) for k in kinds]
                    failed += check_sides(sides, out, want)
                    if o.check_only:
                        continue
                    size = (sum(os.path.getsize(os.path.join(p, f)) for f in os.listdir(p))
                            if os.path.isdir(p) else os.path.getsize(p))
                    res = measure(sides, reps, out)
                    for name, (r, anon, rss) in res.items():
                        rows.append({"section": sec, "side": name, "file_mib": size / MIB,
                                     "load_s": r["load_s"], "s": r["s"], "rss_anon_kib": anon,
                                     "rss_kib": rss, "anon_after_imports_kib": r["anon0"]})
    finally:  # the inputs this run made, and the folder if it made it
        for f in ("mnist.tfrecord", "peer.out", "t.safetensors", "t.npz", "t_deflated.npz"):
            if os.path.exists(os.path.join(d, f)):
                os.unlink(os.path.join(d, f))
        shutil.rmtree(os.path.join(d, "npy"), ignore_errors=True)
        if made_dir and not os.listdir(d):
            os.rmdir(d)
    if o.json:
        for row in rows:
            print(json.dumps(row))
    else:
        print_tables(rows)
    if failed:
        print(f"datasets.py: results differ: {', '.join(failed)}", file=sys.stderr)
        return 1
    if o.check_only:
        print("datasets.py: every side's result equals what was written")
    return 0


def print_tables(rows):
    tfr = [r for r in rows if r["section"] == "tfrecord"]
    if tfr:
        print(f"TFRecord -> tensors: {tfr[0]['file_mib']:.0f} MiB, batches of {BATCH}")
        print(f"{'side':20} {'time s':>7} {'records/s':>10} {'RssAnon MiB':>11} {'after imports':>13} "
              f"{'RSS MiB':>8}")
        by = {r["side"]: r for r in tfr}
        for r in tfr:
            print(f"{r['side']:20} {r['s']:7.3f} {r['records_per_s']:10.0f} {r['rss_anon_kib'] / 1024:11.0f} "
                  f"{r['anon_after_imports_kib'] / 1024:13.0f} {r['rss_kib'] / 1024:8.0f}")
        for tx, tf in (("tensorx 1 thread", "TF 1 thread"), ("tensorx 2 threads", "TF default")):
            if tx in by and tf in by:
                print(f"{tx} / {tf}: {by[tx]['records_per_s'] / by[tf]['records_per_s']:.2f}x the "
                      f"records per second")
        print()
    arr = [r for r in rows if r["section"] != "tfrecord"]
    if arr:
        print("Arrays (32 tensors; read = every byte summed once)")
        print(f"{'file, side':46} {'MiB':>5} {'load s':>7} {'+read s':>7} {'RssAnon MiB':>11} "
              f"{'after imports':>13} {'RSS MiB':>8}")
        for r in arr:
            print(f"{r['side']:46} {r['file_mib']:5.0f} {r['load_s']:7.3f} {r['s']:7.3f} "
                  f"{r['rss_anon_kib'] / 1024:11.0f} {r['anon_after_imports_kib'] / 1024:13.0f} "
                  f"{r['rss_kib'] / 1024:8.0f}")


if __name__ == "__main__":
    sys.exit(main())
