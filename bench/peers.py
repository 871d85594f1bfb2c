#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""peers.py -- runs the peers of the tensorx benchmark on bench.c's workloads, in the same run, and
merges their medians with tensorx's.

Peers: NumPy (one thread: its copies are single-threaded), PyTorch at 1 and 2 threads (torch1,
torch2), pandas for unique_with_counts (factorize keeps first-occurrence order as TF does), and,
through small helper programs, ONNX Runtime (bench/ort_peer.js on node with onnxruntime-node) and
XNNPACK (bench/xnn_peer.c: Debian's, "xnnpack", and with --xnn-cur-cmd a current build,
"xnnpack_cur") where the op exists there.  Those are Debian 12's; with --cur-cmd, the package
index's current releases too (bench/peers_current.py in their own venv: numpy_cur, pandas_cur,
torch1_cur, torch2_cur, tf, jax, ort_cur, openvino, and txpy_cur), each checked bit for bit against
tensorx before it is timed.  Next to each workload, tensorx_bench --floor measures the copy floor
(memcpy of the same bytes, the better of one and two threads): the "floor" column.
A peer that cannot run a workload is left out of that
workload's "peers" object.  The helper programs check their results themselves before timing
(xnn_peer against tensorx, ort_peer against a reference in JavaScript for the workloads it checks).

The inference-shape workloads (family "inference", names infer_*) take microseconds: every timing
here and in the helpers runs many calls per sample when a call is short (time per call).  They get
a second table of time per call and calls per second; ONNX Runtime's fixed cost of a
session.run (a one-node Identity graph on one float, measured by ort_peer.js next to each
workload: "ort_session") is its own column there, so the ort column can be read as floor plus op.

txpy is not a peer: it is tensorx itself called through the `tensorx` Python package (run this
script with a python that imports it: scripts/bench.sh uses its venv), on the NumPy peer's inputs,
returning NumPy arrays; each result is compared once, bit for bit, with NumPy's (PyTorch's for
bfloat16, pandas' first-occurrence order for unique_with_counts) before it is timed.  It is its
own column with txpy/numpy, and never enters the best-peer ratio.  After the table come the
per-call overhead rows (a view op and a 16-element float32 -> float16 cast, microseconds per call,
best of 5 x 100,000 calls; 3 rounds in quick mode) for txpy, NumPy and PyTorch.

  peers.py [--quick] [--filter SUBSTR]
           [--peers numpy,torch1,torch2,pandas,ort,xnnpack,xnnpack_cur,txpy]
           [--tx-bench PATH [--threads N] | --tensorx BENCH.jsonl] [--json] [--no-overhead]
           [--ort-cmd CMD] [--xnn-cmd CMD] [--xnn-cur-cmd CMD]

With --tx-bench (what scripts/bench.sh uses), runs tensorx_bench itself one workload at a time,
each followed at once by the peers on the same workload, and prints the side-by-side table (or,
with --json, one JSON object per workload, its first seven keys workload, bytes, tensorx_s, peers,
memcpy_gbps, ratio_best_peer and ratio_memcpy, as docs/performance.md describes).  With --tensorx
(the output of an earlier `tensorx_bench --json`), merges that instead.  With neither, prints the
peers' own JSON lines.  Sizes and workload names must match bench/workloads.c (the same scale rules are in
bench/peers_workloads.py, the workload builders; bench/peers_output.py prints the table).
"""
import argparse
import json
import os
import subprocess
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # its modules beside it, from any cwd
import peers_workloads  # noqa: E402
from peers_output import CURRENT_PEERS, merge_and_print, plot_ratios  # noqa: E402
from peers_workloads import WORKLOADS, torch_mod, tx_mod  # noqa: E402

warnings.filterwarnings("ignore")

# The peers' columns: Debian 12's packages (and the two helper programs), then the package index's
# current releases, run by bench/peers_current.py in their own venv (--cur-cmd).  txpy/txpy_cur
# are tensorx from Python: their own columns, never a peer.
DEBIAN = ["numpy", "pandas", "torch1", "torch2", "ort", "xnnpack", "xnnpack_cur", "txpy"]
CURRENT = CURRENT_PEERS + ["txpy_cur"]

# ---- timing -------------------------------------------------------------------------------------


def calls_per_sample(call_s):
    """One call per sample from 2 ms up; below, enough calls to last about 2 ms (a single short
    call is too close to the timer's resolution and jitter)."""
    if call_s >= 2e-3:
        return 1
    return min(100_000, int(2e-3 / max(call_s, 1e-8)) + 1)


def time_thunk(f, reps):
    """Median seconds per call of f() after the warm-up (5 calls, or fewer when they pass 1 s, as
    in bench.c's time_op).  With one call per sample the result is dropped outside the timed
    region; with many (short calls) each result is dropped inside it, as in a caller's loop."""
    start = time.perf_counter()
    last = 0.0
    for k in range(5):
        if k > 0 and time.perf_counter() - start >= 1.0:
            break
        t0 = time.perf_counter()
        r = f()
        last = time.perf_counter() - t0
        del r
    if last > 2.0:
        reps = 1
    elif last > 0.5:
        reps = min(reps, 3)
    calls = calls_per_sample(last)
    ts = []
    for _ in range(reps):
        if calls == 1:
            t0 = time.perf_counter()
            r = f()
            ts.append(time.perf_counter() - t0)
            del r
        else:
            t0 = time.perf_counter()
            for _ in range(calls):
                f()
            ts.append((time.perf_counter() - t0) / calls)
    ts.sort()
    k = len(ts)
    return ts[k // 2] if k % 2 else 0.5 * (ts[k // 2 - 1] + ts[k // 2])


def same_bits(a, b):
    """Whether a and b (arrays, or tuples of arrays) hold the same shapes and the same bytes.
    Element sizes must match; signedness and dtype names may differ (int16 bits of PyTorch's
    bfloat16 against tensorx's bfloat16 storage, pandas' int64 codes against int32)."""
    if isinstance(a, (tuple, list)):
        return (isinstance(b, (tuple, list)) and len(a) == len(b)
                and all(same_bits(x, y) for x, y in zip(a, b)))
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.itemsize != b.dtype.itemsize:
        if a.dtype.kind in "iu" and b.dtype.kind in "iu":
            return bool(np.array_equal(a.astype(np.int64), b.astype(np.int64)))
        return False
    u = f"u{a.dtype.itemsize}" if a.dtype.itemsize in (1, 2, 4, 8) else None
    if u is None:
        return a.tobytes() == b.tobytes()
    return bool(np.array_equal(np.ascontiguousarray(a).view(u), np.ascontiguousarray(b).view(u)))


def check_txpy(name, thunks):
    """Runs the txpy thunk and its reference once; False (with a message) when they differ."""
    ref = thunks.get("txpy_ref")
    try:
        got = thunks["txpy"]()
    except Exception as e:  # noqa: BLE001
        print(f"peers: txpy failed on {name}: {e}", file=sys.stderr)
        return False
    if ref is None:
        return True
    try:
        want = ref()
    except Exception as e:  # noqa: BLE001  (a reference peer missing: timed, unchecked)
        print(f"peers: txpy on {name} unchecked (no reference: {e})", file=sys.stderr)
        return True
    if not same_bits(got, want):
        print(f"peers: txpy's result on {name} differs from the reference; left out",
              file=sys.stderr)
        return False
    return True


CHECK_MAX_BYTES = 1 << 30  # larger results (one_hot's 4 GiB) are not held twice for a check


def check_torch(name, thunks):
    """Runs PyTorch's thunk and NumPy's once; False (with a message) when they differ.  True when
    there is nothing to compare with (no NumPy thunk: PyTorch is the reference there) or the
    result is too large to hold twice."""
    if "numpy" not in thunks:
        return True
    want = thunks["numpy"]()
    parts = want if isinstance(want, tuple) else (want,)
    if sum(np.asarray(w).nbytes for w in parts) > CHECK_MAX_BYTES:
        return True
    got = thunks["torch1"]()
    got = tuple(g.numpy() for g in got) if isinstance(got, tuple) else got.numpy()
    if not same_bits(got, want):
        print(f"peers: torch's result on {name} differs from NumPy's; left out", file=sys.stderr)
        return False
    return True


def run_python_peers(names, div, reps, peers):
    """{workload: {peer: seconds}} for the in-process peers.  PyTorch's result is compared with
    NumPy's once and txpy's with its reference (see with_txpy) before they are timed; pandas is
    itself the reference of unique_with_counts' order."""
    out = {}
    torch = None
    if "torch1" in peers or "torch2" in peers:
        try:
            torch = torch_mod()
        except Exception as e:  # pragma: no cover - depends on the machine
            print(f"peers: PyTorch unavailable ({e}); skipping torch1/torch2", file=sys.stderr)
    for name, build in WORKLOADS:
        if name not in names:
            continue
        thunks = build(div)
        res = {}
        torch_ok = None
        for peer in ("numpy", "pandas", "torch1", "torch2", "txpy"):
            if peer not in peers or peer not in thunks:
                continue
            if peer == "txpy" and not check_txpy(name, thunks):
                continue
            if peer.startswith("torch"):
                if torch is None:
                    continue
                torch.set_num_threads(1 if peer == "torch1" else 2)
                if torch_ok is None:
                    torch_ok = check_torch(name, thunks)
                if not torch_ok:
                    continue
            try:
                res[peer] = time_thunk(thunks[peer], reps)
            except Exception as e:  # a peer that cannot run it is left out
                print(f"peers: {peer} failed on {name}: {e}", file=sys.stderr)
        out[name] = res
        del thunks
    return out


def run_external(cmd, div, names, extra=()):
    """Runs a helper peer that prints JSON lines {"workload", "peer", "s"}; merges them."""
    out = {}
    if not cmd:
        return out
    full = cmd + (["--quick"] if div > 1 else []) + list(extra)
    try:
        p = subprocess.run(full, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"peers: {' '.join(cmd)} could not run: {e}", file=sys.stderr)
        return out
    if p.returncode != 0:
        print(f"peers: {' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()[-400:]}",
              file=sys.stderr)
    for line in p.stdout.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get("workload") in names and isinstance(o.get("s"), (int, float)):
            out.setdefault(o["workload"], {})[o["peer"]] = o["s"]
    return out


# ---- per-call overhead ---------------------------------------------------------------------------

# tensorx's per-call overhead from Python, per row: (NumPy's call it is held to, at most this
# ratio): a 16-element cast within 1.5x of astype, a view op no slower than np.reshape
GOALS = {"cast_16_f32_f16": ("numpy", 1.5), "reshape_16": ("numpy_fn", 1.0)}


def per_call_us(f, calls, rounds):
    """Best of `rounds` rounds of `calls` calls of f, in microseconds per call."""
    best = None
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            f()
        t = time.perf_counter_ns() - t0
        best = t if best is None or t < best else best
    return best / calls / 1e3


def measure_overhead(peers, calls=100_000, rounds=5):
    """{"overhead": {row: {side: us}}, ...}: the per-call cost of a view op and of a 16-element
    float32 -> float16 cast, for tensorx from Python, NumPy and PyTorch (one thread)."""
    x = np.arange(16, dtype=np.float32)
    rows = {"reshape_16": {"numpy": lambda: x.reshape(4, 4),
                           "numpy_fn": lambda: np.reshape(x, [4, 4])},
            "cast_16_f32_f16": {"numpy": lambda: x.astype(np.float16)}}
    tx = tx_mod() if "txpy" in peers else None
    if tx is not None:
        want = x.astype(np.float16)
        got = tx.cast(x, "float16")
        if not same_bits(got, want) or not same_bits(tx.reshape(x, [4, 4]), x.reshape(4, 4)):
            print("peers: txpy's 16-element results differ from NumPy's", file=sys.stderr)
        else:
            rows["reshape_16"]["txpy"] = lambda: tx.reshape(x, [4, 4])
            rows["cast_16_f32_f16"]["txpy"] = lambda: tx.cast(x, "float16")
    if "torch1" in peers or "torch2" in peers:
        try:
            torch = torch_mod()
            torch.set_num_threads(1)
            t = torch.from_numpy(x)
            rows["reshape_16"]["torch"] = lambda: t.reshape(4, 4)
            rows["cast_16_f32_f16"]["torch"] = lambda: t.to(torch.float16)
        except Exception:  # noqa: BLE001
            pass
    out = {}
    for row, sides in rows.items():
        out[row] = {side: per_call_us(f, calls, rounds) for side, f in sides.items()}
    return {"overhead": out, "unit": "us_per_call", "calls": calls, "rounds": rounds,
            "goals": GOALS, "numpy_version": np.__version__}


def write_plot(draw, rows, path, who):
    """draw(rows, path), or a line saying why there is no picture (matplotlib missing)."""
    try:
        draw(rows, path)
        print(f"{who}: plot written to {path}", file=sys.stderr)
    except ImportError as e:
        print(f"{who}: no plot ({e}; Debian: python3-matplotlib)", file=sys.stderr)


def lines_of(cmd):
    """stdout lines of a command, [] if it cannot run."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"peers: {' '.join(cmd)} could not run: {e}", file=sys.stderr)
        return []
    if p.returncode != 0:
        print(f"peers: {' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()[-400:]}",
              file=sys.stderr)
    return p.stdout.splitlines()


def interleaved(a, div, reps, peers):
    """Runs tensorx_bench one workload at a time, each followed at once by every peer on the same
    workload, so that both see the same machine load.  Returns (tensorx JSON objects, peers)."""
    base = [a.tx_bench, "--json"] + (["--quick"] if a.quick else [])
    if a.threads:
        base += ["--threads", str(a.threads)]
    tx = [json.loads(x) for x in lines_of(base + ["--probes-only"]) if x.startswith("{")]
    mem = next((o for o in tx if o.get("probe") == "memcpy"), None)
    if mem is None:
        sys.exit("peers: tensorx_bench --probes-only gave no memcpy figure")
    tx = [o for o in tx if o.get("probe") != "memcpy"]
    names = [x.split()[1] for x in lines_of([a.tx_bench, "--list"]) if len(x.split()) == 2]
    names = [n for n in names if not a.filter or a.filter in n]
    ort = a.ort_cmd.split() if a.ort_cmd and "ort" in peers else None
    cur_peers = sorted(peers & set(CURRENT))
    cur = a.cur_cmd.split() + ["--peers", ",".join(cur_peers)] if a.cur_cmd and cur_peers else None
    cur_names = set(lines_of(cur[:-2] + ["--list"])) if cur else set()
    xnn = a.xnn_cmd.split() if a.xnn_cmd and "xnnpack" in peers else None
    xnn_cur = a.xnn_cur_cmd.split() if a.xnn_cur_cmd and "xnnpack_cur" in peers else None
    ort_names = set(lines_of(ort + ["--list"])) if ort else set()
    xnn_names = set(lines_of(xnn + ["--list"])) if xnn else set()
    xnn_cur_names = set(lines_of(xnn_cur + ["--list"])) if xnn_cur else set()
    known = {n for n, _ in WORKLOADS}
    res = {}
    if ort and a.quick:
        # Quick mode: one ONNX Runtime process for every workload (node and the runtime take about
        # a second to start, which would double the run); the full run interleaves it too.
        extra = ["--filter", a.filter] if a.filter else []
        for w, d in run_external(ort, div, set(names) & ort_names, extra).items():
            res.setdefault(w, {}).update(d)
        ort = None
    for n in names:
        print(f"peers: {n}", file=sys.stderr)
        # No --memcpy: the process measures memcpy itself, just before the workload, and the row's
        # ratio uses that figure (this machine's memcpy bandwidth drifts by a quarter within
        # minutes; one figure from the start of the run would carry the drift into every ratio).
        got = [json.loads(x) for x in lines_of(base + ["--exact", n, "--no-alloc-probe"])
               if x.startswith("{")]
        tx += got
        # The copy floor of the same bytes, measured next to the workload (bench/floor.c)
        for o in (json.loads(x) for x in lines_of(base + ["--floor", "--exact", n])
                  if x.startswith("{")):
            for t in got:
                if t.get("workload") == n:
                    t["floor_s"] = o["floor_s"]
                    if o.get("ceiling_s"):
                        t["ceiling_s"] = o["ceiling_s"]
        if n in known:
            for w, d in run_python_peers({n}, div, reps, peers).items():
                res.setdefault(w, {}).update(d)
        for cmd, have in ((ort, ort_names), (xnn, xnn_names), (xnn_cur, xnn_cur_names),
                          (cur, cur_names)):
            if cmd and n in have:
                for w, d in run_external(cmd, div, {n}, ["--exact", n]).items():
                    res.setdefault(w, {}).update(d)
    return tx, res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--filter")
    ap.add_argument("--peers", default=",".join(DEBIAN + CURRENT))
    ap.add_argument("--no-overhead", action="store_true",
                    help="leave out the per-call overhead rows")
    ap.add_argument("--tensorx", help="tensorx_bench --json output to merge")
    ap.add_argument("--tx-bench", help="tensorx_bench to run workload by workload, interleaved "
                    "with the peers (the fairest comparison on a busy machine)")
    ap.add_argument("--threads", type=int, default=0, help="tensorx's thread count (--tx-bench)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--plot", help="write the per-workload ratio picture here (PNG)")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--ort-cmd", help="command line of the ONNX Runtime peer")
    ap.add_argument("--xnn-cmd", help="command line of the XNNPACK peer (Debian's)")
    ap.add_argument("--xnn-cur-cmd", help="command line of the current XNNPACK's peer")
    ap.add_argument("--cur-cmd", help="command line of bench/peers_current.py in the current "
                    "peers' venv (the package index's NumPy 2, PyTorch 2, TensorFlow, JAX, "
                    "ONNX Runtime, OpenVINO)")
    a = ap.parse_args()
    div = 8 if a.quick else 1
    reps = a.reps or (3 if a.quick else 5)
    peers = set(a.peers.split(","))
    peers_workloads.WANT_TXPY = "txpy" in peers
    names = [n for n, _ in WORKLOADS if not a.filter or a.filter in n]
    overhead = None
    if a.tx_bench:
        tx_lines, res = interleaved(a, div, reps, peers)
        if not a.no_overhead:
            print("peers: per-call overhead", file=sys.stderr)
            overhead = [measure_overhead(peers, rounds=3 if a.quick else 5)]
            if a.cur_cmd and "txpy_cur" in peers:  # the same rows against NumPy 2
                overhead += [json.loads(x) for x in lines_of(a.cur_cmd.split() + ["--overhead"] +
                                                             (["--quick"] if a.quick else []))
                             if x.startswith("{")]
        rows = merge_and_print(tx_lines, res, a.json, overhead)
        if a.plot:
            write_plot(plot_ratios, rows, a.plot, "peers")
        return
    tx_lines = []
    if a.tensorx:
        with open(a.tensorx) as f:
            tx_lines = [json.loads(x) for x in f if x.strip().startswith("{")]
        have = {o["workload"] for o in tx_lines if "workload" in o}
        names = [n for n in names if n in have]
    res = run_python_peers(set(names), div, reps, peers)
    for peer, cmd in (("ort", a.ort_cmd), ("xnnpack", a.xnn_cmd), ("xnnpack_cur", a.xnn_cur_cmd)):
        if peer in peers and cmd:
            for w, d in run_external(cmd.split(), div, set(names)).items():
                res.setdefault(w, {}).update(d)
    cur_peers = ",".join(sorted(peers & set(CURRENT)))
    if a.cur_cmd and cur_peers:  # one process per workload, as in the interleaved run
        for n in sorted(names):
            for w, d in run_external(a.cur_cmd.split(), div, {n},
                                     ["--peers", cur_peers, "--exact", n]).items():
                res.setdefault(w, {}).update(d)
    if not a.no_overhead:
        overhead = [measure_overhead(peers, rounds=3 if a.quick else 5)]
    if a.tensorx:
        merge_and_print(tx_lines, res, a.json, overhead)
    else:
        for w in names:
            for p, s in res.get(w, {}).items():
                print(json.dumps({"workload": w, "peer": p, "s": s}))
        for o in overhead or []:
            print(json.dumps(o))


if __name__ == "__main__":
    main()
