#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""files.py -- the benchmark's file workloads: end to end, a .npy (or raw dump) in the page cache
to a .npy written, for the tensorx CLI, a C program on the public API, NumPy (np.load + op +
np.save), PyTorch (np.load + torch.from_numpy + op + np.save; where it has the op) and cp of the
same input and output bytes (the physical floor), all in the same run.  For each: the best wall
time of --reps runs (the sides take turns, round after round) and the peaks of private memory (RssAnon, sampled; pages of mapped files are
page cache and not counted) and of the whole resident set (ru_maxrss).

  files.py --tensorx CLI --c-api PROGRAM [--quick] [--reps N] [--dir DIR] [--filter SUBSTR]
           [--peers numpy,torch] [--json]

scripts/bench.sh --files runs it.  Inputs (1 GiB; 64 MiB with --quick) are made in DIR (default
build-bench/files, not /tmp), read once so they are in the page cache, and removed at the end;
each output is removed after its run, so that dirty pages never pile up into writeback.  The
Python peers time themselves after their imports (loading NumPy and PyTorch is not the op's
cost); their RssAnon includes the interpreter's own (about 20 MiB for NumPy, 150+ for PyTorch).
The bars (docs/performance.md): the CLI faster than NumPy on every workload and within 1.3x of
cp on the data-movement ones (all but cast); the CLI's RssAnon at most 64 MiB (its output goes
to a file), the C API's at most output + 64 MiB.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peakmem  # noqa: E402

MIB = 1 << 20
DATA_MOVEMENT = {"reverse", "transpose", "decode_raw", "gather", "strided_slice"}


def peer_main(argv):
    """--peer numpy|torch WORKLOAD IN OUT [IDX]: one run, its own time on stdout."""
    peer, w, src, dst = argv[:4]
    idx = argv[4] if len(argv) > 4 else None
    import numpy as np
    if peer == "torch":
        import torch
        torch.set_num_threads(os.cpu_count() or 1)
    t0 = time.perf_counter()
    if w == "decode_raw":
        a = np.fromfile(src, dtype="<f4")
    else:
        a = np.load(src)
    if peer == "numpy":
        if w == "reverse":
            r = np.ascontiguousarray(a[:, ::-1])
        elif w == "transpose":
            r = np.ascontiguousarray(a.T)
        elif w == "cast":
            r = a.astype(np.float16)
        elif w == "decode_raw":
            r = a
        elif w == "gather":
            r = np.take(a, np.load(idx), axis=0)
        elif w == "strided_slice":
            r = np.ascontiguousarray(a[:, ::2])
    else:
        t = torch.from_numpy(a)
        if w == "reverse":
            r = torch.flip(t, [1])
        elif w == "transpose":
            r = t.T.contiguous()
        elif w == "cast":
            r = t.half()
        elif w == "decode_raw":
            r = t
        elif w == "gather":
            r = torch.index_select(t, 0, torch.from_numpy(np.load(idx)).long())
        elif w == "strided_slice":
            r = t[:, ::2].contiguous()
        r = r.numpy()
    np.save(dst, r)
    print(f"{time.perf_counter() - t0:.6f}")
    return 0


def make_inputs(d, n):
    import numpy as np
    os.makedirs(d, exist_ok=True)
    f = os.path.join(d, "x.npy")
    a = np.lib.format.open_memmap(f, mode="w+", dtype=np.float32, shape=(n, n))
    rng = np.random.default_rng(7)
    step = max(1, (16 * MIB) // (4 * n))
    for r in range(0, n, step):
        a[r:r + step] = rng.standard_normal((min(step, n - r), n), dtype=np.float32)
    a.flush()
    del a
    raw = os.path.join(d, "x.raw")
    with open(f, "rb") as src, open(raw, "wb") as dst:
        src.seek(128)
        shutil.copyfileobj(src, dst, 16 * MIB)
    idx = os.path.join(d, "idx.npy")
    np.save(idx, rng.permutation(n)[: n // 2].astype(np.int32))
    subprocess.run(["sync"], check=False)
    for p in (f, raw):  # into the page cache
        with open(p, "rb") as fh:
            while fh.read(64 * MIB):
                pass
    return f, raw, idx


def workloads(x, raw, idx, n):
    full = 4 * n * n
    return [
        ("reverse", x, full, ["reverse", f"tensor={x}", "axis=[1]"]),
        ("transpose", x, full, ["transpose", f"a={x}", "perm=1,0"]),
        ("cast", x, full // 2, ["cast", f"x={x}", "dtype=float16"]),
        ("decode_raw", raw, full, ["decode_raw", f"input_bytes=@{raw}", "out_type=float32"]),
        ("gather", x, full // 2, ["gather", f"params={x}", f"indices={idx}", "axis=0"]),
        ("strided_slice", x, full // 2,
         ["strided_slice", f"input_={x}", "begin=[0,0]", f"end=[{n},{n}]", "strides=[1,2]"]),
    ]


def measure(sides, reps, out):
    """{side: (best seconds, peak RssAnon KiB, peak RSS KiB)}: the sides run in turn, reps rounds,
    so that a noisy moment of a shared machine lands on every side, not on one side's runs."""
    res = {side: (None, 0, 0) for side, _, _ in sides}
    for _ in range(reps):
        for side, cmd, stdout in sides:
            dt, a, r, code = peakmem.run(cmd, stdout)
            if code != 0:
                raise RuntimeError(f"{' '.join(cmd)} exited with {code}")
            if stdout != "/dev/null":
                with open(stdout) as f:
                    dt = float(f.read().split()[-1])
            best, anon, rss = res[side]
            res[side] = (dt if best is None else min(best, dt), max(anon, a), max(rss, r))
            if os.path.exists(out):
                os.unlink(out)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tensorx", required=True)
    ap.add_argument("--c-api", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--dir", default=None)
    ap.add_argument("--filter", default=None)
    ap.add_argument("--peers", default="numpy,torch")
    ap.add_argument("--current-python", help="a python with the package index's NumPy 2 and "
                    "PyTorch 2 (scripts/bench.sh's curvenv): the sides NumPy 2 and PyTorch 2")
    ap.add_argument("--json", action="store_true")
    o = ap.parse_args()
    n = 4096 if o.quick else 16384
    reps = o.reps or (1 if o.quick else 3)
    d = o.dir or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build-bench", "files")
    d = os.path.abspath(d)
    peers = [p for p in o.peers.split(",") if p]
    if "torch" in peers:
        try:
            import torch  # noqa: F401
        except ImportError:
            print("files.py: PyTorch is not installed; left out", file=sys.stderr)
            peers.remove("torch")
    x, raw, idx = make_inputs(d, n)
    out = os.path.join(d, "out.npy")
    tmo = os.path.join(d, "peer.out")
    me = os.path.abspath(__file__)
    rows = []
    try:
        if not o.json:
            print(f"{'workload':14} {'in MiB':>7} {'out MiB':>7} {'side':11} {'time s':>7} "
                  f"{'x cp':>6} {'RssAnon MiB':>11} {'RSS MiB':>8}")
        for name, src, out_bytes, args in workloads(x, raw, idx, n):
            if o.filter and o.filter not in name:
                continue
            in_bytes = os.path.getsize(src)
            prefix = os.path.join(d, "prefix.bin")
            if out_bytes != in_bytes:  # cp's floor: read the input, write the output's bytes
                with open(src, "rb") as s, open(prefix, "wb") as p:
                    left = out_bytes
                    while left:
                        left -= p.write(s.read(min(left, 16 * MIB)))
                cp = ["sh", "-c", f"cat '{src}' >/dev/null && cp '{prefix}' '{out}'"]
            else:
                cp = ["cp", src, out]
            sides = [("cp", cp, "/dev/null"),
                     ("tensorx CLI", [o.tensorx] + args + ["-o", out], "/dev/null"),
                     ("tensorx C", [o.c_api, name, src, out] + ([idx] if name == "gather" else []),
                      "/dev/null")]
            for py, suffix in ((sys.executable, ""), (o.current_python, " 2")):
                for p in peers if py else []:
                    sides.append(({"numpy": "NumPy", "torch": "PyTorch"}[p] + suffix,
                                  [py, me, "--peer", p, name, src, out] +
                                  ([idx] if name == "gather" else []), tmo))
            res = measure(sides, reps, out)
            if os.path.exists(prefix):
                os.unlink(prefix)
            tcp = res["cp"][0]
            row = {"workload": name, "in_bytes": in_bytes, "out_bytes": out_bytes, "sides": {}}
            for side, (t, anon, rss) in res.items():
                row["sides"][side] = {"s": round(t, 4), "rss_anon_kib": anon, "rss_kib": rss}
                if not o.json:
                    print(f"{name:14} {in_bytes / MIB:7.0f} {out_bytes / MIB:7.0f} {side:11} {t:7.3f} "
                          f"{t / tcp:6.2f} {anon / 1024:11.1f} {rss / 1024:8.1f}")
            rows.append(row)
            if o.json:
                print(json.dumps(row))
            sys.stdout.flush()
    finally:
        for p in (x, raw, idx, out, tmo):
            if os.path.exists(p):
                os.unlink(p)
    # The bars.
    ok = True
    for r in rows:
        s, name = r["sides"], r["workload"]
        cli, c = s["tensorx CLI"], s["tensorx C"]
        checks = []
        for numpy in ("NumPy", "NumPy 2"):
            if numpy in s:
                checks.append((f"CLI faster than {numpy} ({cli['s']:.3f} vs "
                               f"{s[numpy]['s']:.3f} s)", cli["s"] < s[numpy]["s"]))
        if name in DATA_MOVEMENT:
            checks.append((f"CLI within 1.3x of cp ({cli['s'] / s['cp']['s']:.2f}x)",
                           cli["s"] <= 1.3 * s["cp"]["s"]))
        checks.append((f"CLI RssAnon {cli['rss_anon_kib'] / 1024:.1f} MiB <= 64 MiB",
                       cli["rss_anon_kib"] <= 64 * 1024))
        lim = r["out_bytes"] / MIB + 64
        checks.append((f"C API RssAnon {c['rss_anon_kib'] / 1024:.1f} MiB <= {lim:.0f} MiB",
                       c["rss_anon_kib"] <= lim * 1024))
        for what, good in checks:
            ok &= good
            if not o.json:
                print(f"bar {name:14} {'met ' if good else 'MISSED'} {what}")
    return 0 if ok else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--peer":
        sys.exit(peer_main(sys.argv[2:]))
    sys.exit(main())
