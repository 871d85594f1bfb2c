#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""sweep.py -- the size sweep of the tensorx benchmark: each op family at sizes from 4 KiB to
256 MiB by factors of 4, for tensorx at its default thread count and at one thread and for every
peer that has the op, printed as a table (and --json) and drawn as a PNG.

Sizes are input bytes (one_hot: output bytes, its input being a few labels); a family whose shape
cannot hit the size exactly (NHWC/NCHW with 3 channels, one_hot at depth 1000) is labelled with
the nominal size and its ns/byte uses the bytes it really has.  What each family runs (dims as
given to the helpers with --dims):
  cast_f32_f16       [n] float32 -> float16
  decode_raw_le_f32  one string of n bytes -> float32, little-endian
  transpose_2d       [r, c] float32, perm (1, 0)
  nhwc_nchw          [1, H, W, 3] float32 -> [1, 3, H, W]
  nchw_nhwc          [1, 3, H, W] float32 -> [1, H, W, 3]
  concat             two [r, c] float32 along axis 1 (input bytes: both)
  pad                [r, c] float32, constant 0, 1 on every side
  strided_slice      [r, c] float32, x[::2, :]
  gather_rows        [rows, 64] float32 table, `rows` random row indices
  depth_to_space     [1, H, W, 64] float32 NHWC, block 2
  one_hot            n int32 labels, depth 1000, float32 output
Implementations: tensorx (default threads), tensorx_1t (tx_set_num_threads(1)), both from
tensorx_bench --sweep; numpy; torch1 / torch2 (PyTorch at 1 / 2 threads); ort (bench/ort_peer.js,
best of 1 and 2 intra-op threads); xnnpack and xnnpack_cur (bench/xnn_peer.c, best of 1 and 2
threads); with --cur-cmd, the current releases of bench/peers_current.py (numpy_cur, torch1_cur,
torch2_cur, tf, jax, ort_cur, openvino: each checked against tensorx before it is timed).  tensorx, NumPy and PyTorch allocate their output in every call, XNNPACK writes into
memory it was set up with, ONNX Runtime's time is the better of an allocated and a preallocated
output (as in the main table).  Each time is the median of samples of many
calls (a sample lasts at least about 2 ms), as seconds per call, and the best of --rounds rounds
(default 2): a family runs every implementation in turn, then again, so that a slow minute of a
shared machine's memory (this VM's bandwidth moves by 2x from minute to minute) does not land on
one implementation alone.  From 16 MiB a round of a family lasts minutes, over which the
bandwidth moves more than the implementations differ, so each such size then gets a duel:
DUEL_ROUNDS more runs of that size alone, tensorx and each peer within DUEL_BAND of the best
one taking turns (the order alternating), each keeping its best.  The PyTorch result is compared
with NumPy's once per size (ort_peer and xnn_peer check theirs themselves).

tensorx_prep / tensorx_prep_1t: the same op prepared once (docs/prepared.md) and run into memory
allocated beforehand, as XNNPACK's prepared operators are; tensorx_kernel (transpose_2d only): the
dispatched 2-D kernel called bare on the whole plane, the floor of a prepared run.

Ratios: own = tensorx / min(tensorx, tensorx_1t) (1.00: the default thread count was the better
one; the bar is <= 1.05); peer = tensorx / the best peer (< 1: tensorx is faster); prep = the
better prepared time / the best peer.

  sweep.py --tx-bench PATH [--ort-cmd CMD] [--xnn-cmd CMD] [--xnn-cur-cmd CMD]
           [--peers numpy,torch1,torch2,ort,xnnpack,xnnpack_cur] [--families F1,F2]
           [--quick] [--max-bytes N] [--reps N] [--json] [--plot PNG]
  --quick       sizes up to 1 MiB and 3 samples (to check that it works)
"""
import argparse
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import peers as P  # noqa: E402  (the timing and comparison helpers of the main benchmark)

KIB = 1024
SIZES = [4 * KIB * 4 ** i for i in range(9)]  # 4 KiB .. 256 MiB
FAMILIES = ["cast_f32_f16", "decode_raw_le_f32", "transpose_2d", "nhwc_nchw", "nchw_nhwc",
            "concat", "pad", "strided_slice", "gather_rows", "depth_to_space", "one_hot"]
OURS = ["tensorx", "tensorx_1t", "tensorx_prep", "tensorx_prep_1t", "tensorx_kernel"]
# Debian's peers and the helper programs, then the package index's current releases
# (bench/peers_current.py, --cur-cmd; pandas has no op of the sweep)
PEERS_CURRENT = [p for p in P.CURRENT_PEERS if p != "pandas_cur"]
PEERS = ["numpy", "torch1", "torch2", "ort", "xnnpack", "xnnpack_cur"] + PEERS_CURRENT
IMPLS = OURS + PEERS
# The duels of large sizes (main): tensorx against each peer within DUEL_BAND of the best one,
# DUEL_ROUNDS turns each, at sizes of DUEL_MIN_BYTES and more.
DUEL_MIN_BYTES = 16 << 20
DUEL_ROUNDS = 3
DUEL_BAND = 1.5
PYTHON_PEERS = {"numpy", "torch1", "torch2"}


def split2(n):
    """n (a power of two) as r x c with r <= c, both powers of two."""
    k = n.bit_length() - 1
    return 1 << (k // 2), 1 << (k - k // 2)


def dims_of(family, size):
    """The shape the helpers get for `family` at nominal byte size `size`."""
    if family == "cast_f32_f16":
        return [size // 4]
    if family == "decode_raw_le_f32":
        return [size]
    if family in ("transpose_2d", "pad", "strided_slice"):
        return list(split2(size // 4))
    if family == "concat":
        return list(split2(size // 8))
    if family in ("nhwc_nchw", "nchw_nhwc"):
        side = max(1, round(math.sqrt(size / 12)))
        return [1, side, side, 3] if family == "nhwc_nchw" else [1, 3, side, side]
    if family == "gather_rows":
        return [size // 256, 64]
    if family == "depth_to_space":
        h, w = split2(size // 256)
        return [1, h, w, 64]
    if family == "one_hot":
        return [max(1, round(size / 4000))]
    raise ValueError(family)


def bytes_of(family, dims):
    """The bytes the sweep's x-axis counts: input bytes (one_hot: output bytes)."""
    n = math.prod(dims)
    if family == "decode_raw_le_f32":
        return n
    if family == "concat":
        return 2 * 4 * n
    if family == "one_hot":
        return n * 1000 * 4
    return 4 * n


# ---- the in-process peers: family, dims -> {peer: thunk} -----------------------------------------


def python_thunks(family, dims, want):
    rng = np.random.default_rng(11)
    d = {}
    x = None
    if family not in ("decode_raw_le_f32", "one_hot"):
        x = rng.standard_normal(dims, dtype=np.float32)
    torch = None
    if "torch1" in want or "torch2" in want:
        try:
            torch = P.torch_mod()
        except Exception:  # noqa: BLE001  (no PyTorch: the numpy column only)
            torch = None
    t = torch.from_numpy(x) if torch is not None and x is not None else None
    spec = P.peers_workloads.with_spec
    if family == "cast_f32_f16":
        spec(d, "cast", [x], dtype="float16")
        d["numpy"] = lambda: x.astype(np.float16)
        if t is not None:
            d["torch"] = lambda: t.to(torch.float16)
    elif family == "decode_raw_le_f32":
        b = rng.integers(0, 1 << 62, dims[0] // 8, dtype=np.int64).tobytes()
        spec(d, "decode_raw", [b], out_type="float32", little_endian=True)
        d["numpy"] = lambda: np.frombuffer(b, "<f4").copy()
        if torch is not None:
            d["torch"] = lambda: torch.frombuffer(b, dtype=torch.float32).clone()
    elif family in ("transpose_2d", "nhwc_nchw", "nchw_nhwc"):
        perm = {"transpose_2d": (1, 0), "nhwc_nchw": (0, 3, 1, 2),
                "nchw_nhwc": (0, 2, 3, 1)}[family]
        spec(d, "transpose", [x], perm=list(perm))
        d["numpy"] = lambda: np.ascontiguousarray(x.transpose(perm))
        if t is not None:
            d["torch"] = lambda: t.permute(perm).contiguous()
    elif family == "concat":
        y = rng.standard_normal(dims, dtype=np.float32)
        spec(d, "concat", [x, y], axis=1)
        d["numpy"] = lambda: np.concatenate((x, y), 1)
        if t is not None:
            ty = torch.from_numpy(y)
            d["torch"] = lambda: torch.cat((t, ty), 1)
    elif family == "pad":
        spec(d, "pad", [x], paddings=[[1, 1], [1, 1]], mode="CONSTANT")
        d["numpy"] = lambda: np.pad(x, 1)
        if t is not None:
            import torch.nn.functional as F  # noqa: PLC0415
            d["torch"] = lambda: F.pad(t, (1, 1, 1, 1))
    elif family == "strided_slice":
        spec(d, "strided_slice", [x], begin=[0, 0], end=[0, 0], strides=[2, 1], begin_mask=3,
             end_mask=3)
        d["numpy"] = lambda: x[::2].copy()
        if t is not None:
            d["torch"] = lambda: t[::2].contiguous()
    elif family == "gather_rows":
        idx = rng.integers(0, dims[0], dims[0], dtype=np.int32)
        spec(d, "gather", [x, idx], axis=0)
        d["numpy"] = lambda: np.take(x, idx, axis=0)
        if t is not None:
            ti = torch.from_numpy(idx.astype(np.int64))
            d["torch"] = lambda: torch.index_select(t, 0, ti)
    elif family == "depth_to_space":
        n, h, w, c = dims
        shape, out = (n, h, w, 2, 2, c // 4), (n, 2 * h, 2 * w, c // 4)
        spec(d, "depth_to_space", [x], block_size=2)
        d["numpy"] = lambda: x.reshape(shape).transpose(0, 1, 3, 2, 4, 5).reshape(out)
        if t is not None:
            d["torch"] = lambda: t.reshape(shape).permute(0, 1, 3, 2, 4, 5).reshape(out)
    elif family == "one_hot":
        n = dims[0]
        idx = rng.integers(0, 1000, n, dtype=np.int32)
        spec(d, "one_hot", [idx], depth=1000)
        rows = np.arange(n)

        def np_one_hot():
            out = np.zeros((n, 1000), np.float32)
            out[rows, idx] = 1.0
            return out
        d["numpy"] = np_one_hot
        if torch is not None:
            ti = torch.from_numpy(idx.astype(np.int64))[:, None]
            d["torch"] = lambda: torch.zeros(n, 1000).scatter_(1, ti, 1.0)
    return d, torch


def run_python(family, dims, want, reps):
    thunks, torch = python_thunks(family, dims, want)
    out = {}
    if "numpy" in want and "numpy" in thunks:
        out["numpy"] = P.time_thunk(thunks["numpy"], reps)
    if "torch" in thunks and ("torch1" in want or "torch2" in want):
        got = thunks["torch"]()
        ref = thunks["numpy"]()
        if not P.same_bits(got.numpy(), ref):
            print(f"sweep: torch's result on {family} {dims} differs from NumPy's; left out",
                  file=sys.stderr)
        else:
            for peer, n in (("torch1", 1), ("torch2", 2)):
                if peer in want:
                    torch.set_num_threads(n)
                    out[peer] = P.time_thunk(thunks["torch"], reps)
    return out


def rivals_of(times):
    """The peers timed within DUEL_BAND of the best peer."""
    peers = {p: t for p, t in times.items() if p in PEERS}
    best = min(peers.values(), default=None)
    return sorted(p for p, t in peers.items() if t <= DUEL_BAND * best)


def run_helper(cmd, family, dims_list, reps):
    """{dims string: {peer: s}} from a helper's --sweep JSON lines."""
    out = {}
    arg = ";".join(",".join(map(str, d)) for d in dims_list)
    for line in P.lines_of(cmd + ["--sweep", family, "--dims", arg, "--reps", str(reps)]):
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get("family") == family and isinstance(o.get("s"), (int, float)):
            out.setdefault(o["dims"], {})[o["peer"]] = o["s"]
    return out


# ---- output ------------------------------------------------------------------------------------


def fmt_size(n):
    return f"{n // (1 << 20)} MiB" if n >= 1 << 20 else f"{n // 1024} KiB"


def fmt_time(s):
    if s is None:
        return "-"
    if s < 1e-3:
        return f"{s * 1e6:.2f}us"
    return f"{s * 1e3:.2f}ms" if s < 1 else f"{s:.2f}s"


def summarize(row):
    t = row["times"]
    tx, one = t.get("tensorx"), t.get("tensorx_1t")
    row["ratio_own"] = tx / min(tx, one) if tx and one else None
    peers = [t[p] for p in PEERS if p in t]
    row["best_peer"] = min((p for p in PEERS if p in t), key=lambda p: t[p]) if peers else None
    row["ratio_best_peer"] = tx / min(peers) if tx and peers else None
    prep = [t[p] for p in ("tensorx_prep", "tensorx_prep_1t") if p in t]
    row["ratio_prep_peer"] = min(prep) / min(peers) if prep and peers else None
    k, p1 = t.get("tensorx_kernel"), t.get("tensorx_prep_1t")
    row["ratio_prep_kernel"] = p1 / k if k and p1 else None
    row["ns_per_byte"] = {k: v / row["bytes"] * 1e9 for k, v in t.items()}
    return row


def print_table(rows):
    cols = [c for c in IMPLS if any(c in r["times"] for r in rows)]
    print("size sweep: seconds per call (median of samples of many calls, best of the rounds), "
          "tensorx's ns per byte, own = tensorx / min(tensorx, tensorx_1t), peer = tensorx / "
          "best peer")
    fam = None
    for r in rows:
        if r["family"] != fam:
            fam = r["family"]
            print(f"\n{fam}")
            print(f"{'size':>8s} {'bytes':>10s} " + " ".join(f"{c:>11s}" for c in cols)
                  + f" {'tx ns/B':>8s} {'own':>5s} {'peer':>5s} {'prep':>5s} {'best peer':>11s}")
        t = r["times"]
        nsb = r["ns_per_byte"].get("tensorx")
        ro, rp, rq = r["ratio_own"], r["ratio_best_peer"], r["ratio_prep_peer"]
        print(f"{fmt_size(r['size']):>8s} {r['bytes']:>10d} "
              + " ".join(f"{fmt_time(t.get(c)):>11s}" for c in cols)
              + f" {('%.3f' % nsb) if nsb else '-':>8s} {('%.2f' % ro) if ro else '-':>5s}"
              + f" {('%.2f' % rp) if rp else '-':>5s} {('%.2f' % rq) if rq else '-':>5s}"
              + f" {r['best_peer'] or '-':>11s}")
    own = [r["ratio_own"] for r in rows if r["ratio_own"]]
    rp = [r["ratio_best_peer"] for r in rows if r["ratio_best_peer"]]
    if own:
        met = sum(x <= 1.05 for x in own)
        print(f"\ntensorx default within 5% of its better thread setting at {met} of {len(own)} "
              f"sizes (worst {max(own):.2f})")
    if rp:
        print(f"tensorx faster than every peer at {sum(x < 1 for x in rp)} of {len(rp)} sizes "
              f"(worst tensorx/best peer {max(rp):.2f})")
    rq = [r["ratio_prep_peer"] for r in rows if r["ratio_prep_peer"]]
    if rq:
        print(f"tensorx prepared faster than every peer at {sum(x < 1 for x in rq)} of {len(rq)} "
              f"sizes (worst prepared/best peer {max(rq):.2f})")
    rk = [(r["size"], r["ratio_prep_kernel"]) for r in rows if r["ratio_prep_kernel"]]
    if rk:
        print("prepared run / bare kernel (transpose_2d, one thread): "
              + ", ".join(f"{fmt_size(n)} {x:.2f}" for n, x in rk))


COLORS = {"tensorx": "#d62728", "tensorx_1t": "#ff9896", "tensorx_prep": "#ff7f0e",
          "tensorx_prep_1t": "#ffbb78", "tensorx_kernel": "#7f7f7f", "numpy": "#1f77b4", "torch1": "#2ca02c",
          "torch2": "#98df8a", "ort": "#9467bd", "xnnpack": "#8c564b", "xnnpack_cur": "#e377c2",
          "numpy_cur": "#17becf", "torch1_cur": "#bcbd22", "torch2_cur": "#dbdb8d",
          "tf": "#ff00ff", "jax": "#393b79", "ort_cur": "#c5b0d5", "openvino": "#000000"}


def plot(rows, path):
    import matplotlib  # noqa: PLC0415  (Debian's python3-matplotlib)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415
    fams = [f for f in FAMILIES if any(r["family"] == f for r in rows)]
    ncol = 4
    nrow = (len(fams) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.3 * nrow), squeeze=False)
    for ax, fam in zip(axes.flat, fams):
        rs = [r for r in rows if r["family"] == fam]
        for impl in IMPLS:
            pts = [(r["size"], r["ns_per_byte"][impl]) for r in rs if impl in r["ns_per_byte"]]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3,
                        label=impl, color=COLORS[impl],
                        linewidth=2.2 if impl == "tensorx" else 1.2,
                        linestyle="--" if impl.endswith("_1t") else "-")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(fam, fontsize=10)
        ax.set_xticks([s for s in SIZES if any(r["size"] == s for r in rs)])
        ax.set_xticklabels([fmt_size(s).replace(" ", "") for s in SIZES
                            if any(r["size"] == s for r in rs)], rotation=45, fontsize=7)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(True, which="major", alpha=0.3)
    for ax in list(axes.flat)[len(fams):]:
        ax.axis("off")
    handles, labels = {}, []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in handles:
                handles[lab] = h
                labels.append(lab)
    fig.legend([handles[lab] for lab in labels], labels, loc="lower right", fontsize=9,
               ncol=2 if len(fams) % ncol == 0 else 1)
    fig.suptitle("tensorx size sweep: time per byte (ns/B, log) against size (input bytes; "
                 "one_hot: output bytes); lower is better", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tx-bench", required=True, help="the tensorx_bench program")
    ap.add_argument("--ort-cmd", help="command line of the ONNX Runtime peer")
    ap.add_argument("--xnn-cmd", help="command line of the XNNPACK peer (Debian's)")
    ap.add_argument("--xnn-cur-cmd", help="command line of the current XNNPACK's peer")
    ap.add_argument("--cur-cmd", help="command line of bench/peers_current.py in the current "
                    "peers' venv")
    ap.add_argument("--peers", default=",".join(PEERS))
    ap.add_argument("--families", help="comma-separated subset (default: all)")
    ap.add_argument("--quick", action="store_true", help="sizes up to 1 MiB, 3 samples")
    ap.add_argument("--max-bytes", type=int, default=0)
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--rounds", type=int, default=0,
                    help="times each family runs, every implementation in turn; each keeps its "
                    "best round (default 2, --quick 1)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--plot", help="write the PNG here")
    a = ap.parse_args()
    want = set(a.peers.split(","))
    reps = a.reps or (3 if a.quick else 5)
    rounds = max(1, a.rounds or (1 if a.quick else 2))
    top = a.max_bytes or (1 << 20 if a.quick else SIZES[-1])
    sizes = [s for s in SIZES if s <= top]
    fams = a.families.split(",") if a.families else FAMILIES
    unknown = [f for f in fams if f not in FAMILIES]
    if unknown:
        sys.exit(f"sweep: no family {', '.join(unknown)} (families: {', '.join(FAMILIES)})")
    helpers = []
    for peer, cmd in (("ort", a.ort_cmd), ("xnnpack", a.xnn_cmd), ("xnnpack_cur", a.xnn_cur_cmd)):
        if cmd and peer in want:
            has = set(P.lines_of(cmd.split() + ["--sweep-list"]))
            helpers.append(({peer}, cmd.split(), has))
    cur = sorted(want & set(PEERS_CURRENT))
    if a.cur_cmd and cur:
        helpers.append((set(cur), a.cur_cmd.split() + ["--peers", ",".join(cur)], set(fams)))
    rows = []
    for fam in fams:
        dims = [dims_of(fam, s) for s in sizes]
        keys = [",".join(map(str, d)) for d in dims]
        res = {k: {} for k in keys}

        def keep(k, d):  # each implementation's best round
            for p, t in d.items():
                res[k][p] = min(t, res[k].get(p, t))
        for r in range(rounds):
            print(f"sweep: {fam}" + (f" (round {r + 1} of {rounds})" if rounds > 1 else ""),
                  file=sys.stderr)
            for k, d in run_helper([a.tx_bench], fam, dims, reps).items():
                if k in res:
                    keep(k, d)
            for k, d in zip(keys, dims):
                keep(k, run_python(fam, d, want, reps))
            for cols, cmd, has in helpers:
                if fam in has:
                    for k, d in run_helper(cmd, fam, dims, reps).items():
                        if k in res:
                            keep(k, {p: t for p, t in d.items() if p in cols})
        for size, d, k in zip(sizes, dims, keys):
            rivals = rivals_of(res[k]) if size >= DUEL_MIN_BYTES else []
            for r in range(DUEL_ROUNDS if rivals else 0):
                print(f"sweep: {fam} {fmt_size(size)}, duel {r + 1} of {DUEL_ROUNDS} with "
                      f"{', '.join(rivals)}", file=sys.stderr)
                turns = [lambda: run_helper([a.tx_bench], fam, [d], reps).get(k, {})]
                if PYTHON_PEERS & set(rivals):
                    turns.append(lambda: run_python(fam, d, PYTHON_PEERS & set(rivals), reps))
                for cols, cmd, has in helpers:
                    mine = sorted(cols & set(rivals))
                    if mine and fam in has:
                        c = cmd + (["--peers", ",".join(mine)] if cols & set(PEERS_CURRENT) else [])
                        turns.append(lambda c=c, mine=mine: {
                            p: t for p, t in run_helper(c, fam, [d], reps).get(k, {}).items()
                            if p in mine})
                for turn in (turns if r % 2 == 0 else turns[::-1]):
                    keep(k, turn())
        for size, d, k in zip(sizes, dims, keys):
            rows.append(summarize({"family": fam, "size": size, "bytes": bytes_of(fam, d),
                                   "dims": k, "times": res[k]}))
    if a.json:
        for r in rows:
            print(json.dumps(r))
    else:
        print_table(rows)
    if a.plot:
        P.write_plot(plot, rows, a.plot, "sweep")
    missing = [f"{r['family']} {r['dims']}" for r in rows
               if "tensorx" not in r["times"] or "tensorx_1t" not in r["times"]]
    if missing:  # tensorx_bench failed there: say so in the exit status (the smoke test's check)
        sys.exit(f"sweep: no tensorx time for {', '.join(missing)}")


if __name__ == "__main__":
    main()
