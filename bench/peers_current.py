#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""peers_current.py -- the benchmark's current peers (releases from the package index), run with
the python of the venv scripts/bench.sh makes for them ($build/curvenv), one workload per process,
printing JSON lines as the other helper peers do (bench/peers.py and bench/sweep.py merge them).

Columns, each a peer of its own:
  numpy_cur     NumPy 2 (with ml_dtypes' dtypes for the narrow casts): the NumPy thunk of
                bench/peers_workloads.py (or bench/sweep.py), run against NumPy 2
  pandas_cur    pandas' factorize, unique_with_counts only (numpy_cur and torch*_cur sort the values;
                their unique is checked as the same values, counts and inverse index in any order)
  torch1_cur, torch2_cur   PyTorch 2 at 1 and 2 threads
  tf            TensorFlow's own kernels: eager op and the op in a tf.function, the faster
  jax           JAX on the CPU: the op jitted, compiled once (before timing), result blocked on
  ort_cur       ONNX Runtime's Python API: a one-node model per workload, 1 and 2 intra-op
                threads, the faster; ort_cur_session (not a peer) is its session.run of a
                one-node Identity on one float, the fixed part of each run
  openvino      OpenVINO's CPU plugin: a one-op model compiled once, infer() timed
  txpy_cur      not a peer: tensorx's Python package built against NumPy 2, to be read against
                numpy_cur (tensorx from Python against NumPy 2)
Every column's result is compared bit for bit with tensorx's before it is timed -- tensorx's
package in this venv running the workload's spec, the op as TensorFlow names it (with_spec in
bench/peers_workloads.py) -- and a peer that differs, or lacks the op, is left out with a message
on stderr.  Times: bench/peers.py's time_thunk (median of samples; a sample of many calls when a
call is short), seconds per call.

The frameworks are adapters beside this file, bench/peer_<name>.py, each with
  PEER                      its column's name
  load()                    imports the framework, returns its version (raises when missing)
  variants(op, inputs, attrs) -> [(variant, thunk)]   [] when it lacks the op; thunk() runs the
                            op on inputs prepared beforehand and returns the finished result
  to_numpy(result)          the result as an ndarray (a tuple of them for unique_with_counts)
and optionally floor() -> seconds (a fixed per-call cost, printed as PEER_session).

  peers_current.py --list
  peers_current.py --exact NAME[,NAME...] [--quick] [--peers P1,P2] [--reps N] [--check-only]
  peers_current.py --sweep FAMILY --dims 'D;D;...' [--reps N] [--peers P1,P2]
  peers_current.py --versions
  peers_current.py --overhead [--quick]   the per-call overhead rows of bench/peers.py, here
"""
import argparse
import importlib
import json
import os
import sys
import warnings

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # TensorFlow's start-up lines on stderr
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers as P  # noqa: E402  (timing and bit comparison)
import peers_workloads as W  # noqa: E402

warnings.filterwarnings("ignore")

ADAPTERS = ["tf", "jax", "ort", "openvino"]
IN_PROCESS = ["numpy_cur", "pandas_cur", "torch1_cur", "torch2_cur", "txpy_cur"]
COLUMNS = IN_PROCESS + ["tf", "jax", "ort_cur", "openvino"]


def say(msg):
    print(f"peers_current: {msg}", file=sys.stderr)


def tx_reference(tx, spec):
    """tensorx's result of the spec: what every column must equal."""
    op, inputs, attrs = spec
    if op == "identity":
        return np.array(inputs[0], copy=True)
    if op == "concat":
        return tx.concat(list(inputs), attrs["axis"])
    r = getattr(tx, op)(*inputs, **attrs)
    return tuple(r) if op == "unique_with_counts" else r


def load_adapters(want):
    out = []
    for name in ADAPTERS:
        try:
            mod = importlib.import_module(f"peer_{name}")
        except Exception as e:  # noqa: BLE001
            say(f"peer_{name}.py: {e}")
            continue
        if mod.PEER not in want:
            continue
        try:
            mod.load()
        except Exception as e:  # noqa: BLE001  (not installed here: its column is left out)
            say(f"{mod.PEER} unavailable ({e}); left out")
            continue
        out.append(mod)
    return out


def same_unique(got, want, x):
    """unique_with_counts' results compared without their order: NumPy's and PyTorch's unique sort
    the values (TF's keep first occurrences, which is more work), so the same values with the same
    counts, and an index that rebuilds the input, are the same answer."""
    y, idx, count = (np.asarray(v) for v in got)
    wy, _, wcount = (np.asarray(v) for v in want)
    oy, owy = np.argsort(y, kind="stable"), np.argsort(wy, kind="stable")
    return (np.array_equal(y[oy], wy[owy]) and np.array_equal(count[oy], wcount[owy])
            and np.array_equal(y[idx.astype(np.int64)], x))


def agrees(label, peer, got, want, spec=None):
    if spec is not None and spec[0] == "unique_with_counts" and isinstance(got, tuple):
        if same_unique(got, want, spec[1][0]):
            return True
    elif P.same_bits(got, want):
        return True
    say(f"{peer}'s result on {label} differs from tensorx's; left out")
    return False


def run(label, thunks, spec, want, reps, adapters, timer=P.time_thunk):
    """{column: seconds} for one workload (or one sweep size); timer(thunk, reps) times a thunk
    whose result agreed (--check-only: none, only the check)."""
    res = {}
    tx = W.tx_mod()
    ref = tx_reference(tx, spec) if (tx is not None and spec is not None) else None
    if ref is None:
        say(f"{label}: no tensorx reference (no spec or no package); nothing is checked or timed")
        return res
    # a column's variants: numpy_cur's unique also with sorted=False (NumPy 2.3's hash table)
    in_process = {"numpy_cur": [("", thunks.get("numpy")),
                                ("sorted=False", thunks.get("numpy_unsorted"))],
                  "pandas_cur": [("", thunks.get("pandas"))], "txpy_cur": [("", thunks.get("txpy"))]}
    for col, vs in in_process.items():
        best = None
        for variant, f in vs:
            if col in want and f is not None and agrees(label, col, f(), ref, spec):
                s = timer(f, reps)
                best = (s, variant) if best is None or s < best[0] else best
        if best is not None:
            res[col] = best
    tt = thunks.get("torch1", thunks.get("torch"))  # the sweep's thunks call it "torch"
    if tt is not None and ({"torch1_cur", "torch2_cur"} & want):
        torch = W.torch_mod()
        if agrees(label, "torch", _torch_np(tt()), ref, spec):
            for col, n in (("torch1_cur", 1), ("torch2_cur", 2)):
                if col in want:
                    torch.set_num_threads(n)
                    res[col] = timer(tt, reps)
    for mod in adapters:
        op, inputs, attrs = spec
        try:
            vs = mod.variants(op, inputs, attrs)
        except Exception as e:  # noqa: BLE001
            say(f"{mod.PEER} could not build {label}: {e}")
            continue
        best = None
        for variant, f in vs:
            try:
                got = mod.to_numpy(f())
            except Exception as e:  # noqa: BLE001
                say(f"{mod.PEER} ({variant}) failed on {label}: {e}")
                continue
            if not agrees(label, f"{mod.PEER} ({variant})", got, ref, spec):
                continue
            s = timer(f, reps)
            if best is None or s < best[0]:
                best = (s, variant)
        if best is not None:
            res[mod.PEER] = best
        if hasattr(mod, "floor") and vs and timer is P.time_thunk:
            res[mod.PEER + "_session"] = mod.floor()
    return res


def _torch_np(got):
    if isinstance(got, tuple):
        return tuple(_torch_np(g) for g in got)
    if hasattr(got, "numpy"):
        import torch  # noqa: PLC0415
        if got.dtype == torch.bfloat16:
            got = got.view(torch.int16)
        return got.numpy()
    return got


def emit(key, res):
    for col, v in res.items():
        s, variant = v if isinstance(v, tuple) else (v, None)
        o = dict(key, peer=col, s=s)
        if variant:
            o["variant"] = variant
        print(json.dumps(o), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--versions", action="store_true")
    ap.add_argument("--overhead", action="store_true",
                    help="bench/peers.py's per-call overhead rows against this venv's NumPy")
    ap.add_argument("--exact", help="a workload (comma-separated: several, in one process)")
    ap.add_argument("--check-only", action="store_true",
                    help="compare every column with tensorx, time nothing (the tests' use)")
    ap.add_argument("--sweep")
    ap.add_argument("--dims")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--peers", default=",".join(COLUMNS))
    a = ap.parse_args()
    want = set(a.peers.split(","))
    if "ort_cur" in want:
        want.add("ort")  # the adapter's PEER is the column name; ort's is ort_cur
    if a.overhead:
        print(json.dumps(P.measure_overhead({"txpy", "torch1"}, rounds=3 if a.quick else 5)))
        return
    if a.list:
        for name, _ in W.WORKLOADS:
            print(name)
        return
    adapters = load_adapters(want | {"tf", "jax", "ort_cur", "openvino"} if a.versions else want)
    if a.versions:
        import pandas  # noqa: PLC0415
        v = {"numpy": np.__version__, "pandas": pandas.__version__}
        try:
            v["torch"] = W.torch_mod().__version__
        except Exception:  # noqa: BLE001
            pass
        v["ml_dtypes"] = W.ml_dtypes_mod().__version__
        for m in adapters:
            v[m.PEER] = m.load()
        print(json.dumps(v))
        return
    reps = a.reps or (3 if a.quick else 5)
    timer = (lambda f, reps: 0.0) if a.check_only else P.time_thunk
    if a.exact:
        for name in a.exact.split(","):
            build = dict(W.WORKLOADS).get(name)
            if build is None:
                sys.exit(f"peers_current: no workload {name}")
            thunks = build(8 if a.quick else 1)
            emit({"workload": name},
                 run(name, thunks, thunks.get("spec"), want, reps, adapters, timer))
        return
    if a.sweep:
        import sweep  # noqa: PLC0415
        for dims_s in a.dims.split(";"):
            dims = [int(v) for v in dims_s.split(",")]
            thunks = sweep.python_thunks(a.sweep, dims, {"numpy", "torch1"})[0]
            label = f"{a.sweep} {dims_s}"
            res = run(label, thunks, thunks.get("spec"), want, reps, adapters, timer)
            emit({"family": a.sweep, "dims": dims_s}, res)
        return
    ap.error("one of --list, --versions, --exact, --sweep")


if __name__ == "__main__":
    main()
