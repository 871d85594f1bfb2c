# SPDX-License-Identifier: Apache-2.0
"""peers_output.py -- bench/peers.py's output: the merged JSON lines or the side-by-side table, the
inference-shape table and the per-call overhead rows."""
import json
import math


# The package index's current releases (bench/peers_current.py); the rest are Debian 12's
CURRENT_PEERS = ["numpy_cur", "pandas_cur", "torch1_cur", "torch2_cur", "tf", "jax", "ort_cur",
                 "openvino"]
PEER_ORDER = ["numpy", "pandas", "torch1", "torch2", "ort", "xnnpack", "xnnpack_cur"] + CURRENT_PEERS
# txpy (txpy_cur: built against NumPy 2) is tensorx itself called through the Python package: its
# own column (and txpy/numpy), not a peer, so it never enters "peers" or the best-peer ratio.
BAR_PEER, BAR_FLOOR = 0.7, 1.1  # a workload's bar: <= 0.7x the best peer or <= 1.1x the copy floor
GOAL_GEOMEAN_CURRENT = 0.35


def bar_met(o):
    """True or False; None where there is nothing to hold tensorx to (no peer, no floor)."""
    rb, rf = o.get("ratio_best_peer"), o.get("ratio_floor")
    if rb is None and rf is None:
        return None
    return (rb is not None and rb <= BAR_PEER) or (rf is not None and rf <= BAR_FLOOR)


# Column heads of at most 8 characters ("_c": the current release)
LABEL = {"numpy_cur": "numpy_c", "pandas_cur": "pandas_c", "torch1_cur": "torch1_c",
         "torch2_cur": "torch2_c", "xnnpack_cur": "xnn_cur", "txpy_cur": "txpy_c"}


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def fmt_ms(s):
    if s is None:
        return "-"
    return f"{s * 1e3:.4f}" if s < 1e-3 else f"{s * 1e3:.2f}"


def merge_and_print(tx_lines, peers, as_json, overhead=None):
    rows, probe = [], None
    for o in tx_lines:
        if "probe" in o:
            probe = o
            continue
        w = o["workload"]
        o["peers"] = {k: peers.get(w, {})[k] for k in PEER_ORDER if k in peers.get(w, {})}
        best = min(o["peers"].values()) if o["peers"] else None
        o["ratio_best_peer"] = (o["tensorx_s"] / best) if best else None
        cur = [o["peers"][k] for k in CURRENT_PEERS if k in o["peers"]]
        o["ratio_best_current"] = (o["tensorx_s"] / min(cur)) if cur else None
        if o.get("floor_s"):
            o["ratio_floor"] = o["tensorx_s"] / o["floor_s"]
        floor_cur = peers.get(w, {}).get("ort_cur_session")
        if floor_cur is not None:  # not a peer: the Python API's fixed session.run cost
            o["ort_cur_session_s"] = floor_cur
        floor = peers.get(w, {}).get("ort_session")
        if floor is not None:  # not a peer: ONNX Runtime's fixed session.run cost
            o["ort_session_s"] = floor
        py = peers.get(w, {}).get("txpy")
        if py is not None:
            o["txpy_s"] = py
            npy = o["peers"].get("numpy")
            o["ratio_txpy_numpy"] = py / npy if npy else None
        py = peers.get(w, {}).get("txpy_cur")
        if py is not None:
            o["txpy_cur_s"] = py
            npy = o["peers"].get("numpy_cur")
            o["ratio_txpy_numpy_cur"] = py / npy if npy else None
        rows.append(o)
    if as_json:
        for o in rows:
            keys = ["workload", "bytes", "tensorx_s", "peers", "memcpy_gbps", "ratio_best_peer",
                    "ratio_memcpy"]
            extra = [k for k in o if k not in keys]
            print(json.dumps({k: o[k] for k in keys + extra}))
        if probe:
            print(json.dumps(probe))
        for o in overhead or []:
            print(json.dumps(o))
        return rows
    m1 = sorted(r["memcpy_gbps"] for r in rows) or [float("nan")]
    m2 = sorted(r.get("memcpy2_gbps", float("nan")) for r in rows) or [float("nan")]
    if m1[0] == m1[-1]:
        print(f"memcpy (same run): {m1[0]:.1f} GB/s on 1 thread, {m2[0]:.1f} GB/s on 2 (read + write)")
    else:
        print(f"memcpy (same run, measured next to each workload; column memcpy): median "
              f"{m1[len(m1) // 2]:.1f} GB/s on 1 thread ({m1[0]:.1f}-{m1[-1]:.1f}), median "
              f"{m2[len(m2) // 2]:.1f} on 2 ({m2[0]:.1f}-{m2[-1]:.1f}) (read + write)")
    if probe:
        print(f"write into new memory: malloc+memset {probe['fresh_libc_gbps']:.1f} GB/s, "
              f"tensorx fresh {probe['fresh_tensorx_gbps']:.1f}, tensorx reused "
              f"{probe['reused_tensorx_gbps']:.1f}")
    cols = [p for p in PEER_ORDER if any(p in r["peers"] for r in rows)]
    pys = [(k, n) for k, n in (("txpy", "numpy"), ("txpy_cur", "numpy_cur"))
           if any(f"{k}_s" in r for r in rows)]
    has_cur = any(r.get("ratio_best_current") for r in rows)
    has_floor = any(r.get("ratio_floor") for r in rows)
    head = f"{'workload':34s} {'tensorx':>9s} {'into':>8s} "
    for k, n in pys:
        head += f"{LABEL.get(k, k):>8s} {'/' + LABEL.get(n, n):>8s} "
    head += " ".join(f"{LABEL.get(c, c):>8s}" for c in cols)
    head += f" {'tx/best':>8s}" + (f" {'tx/cur':>7s}" if has_cur else "")
    head += f" {'floor':>8s} {'tx/floor':>8s} {'bar':>4s}" if has_floor else ""
    head += f" {'MB':>8s} {'GB/s':>6s} {'memcpy':>6s} {'x memcpy':>8s}"
    print(head)
    print("(times in ms, medians; tx/best < 1 means tensorx is faster than every peer, tx/cur "
          "than every current peer (the package index's releases: *_cur, tf, jax, openvino); "
          "floor: memcpy of the same bytes; bar: tx/best <= 0.7 or tx/floor <= 1.1; txpy, "
          "txpy_cur: tensorx from Python (Debian's NumPy, NumPy 2), not peers, next to their "
          "ratio to that NumPy)")
    ratios, cur_ratios, cur_rows, missed = [], [], [], []
    py_ratios = {k: [] for k, _ in pys}
    for r in rows:
        line = f"{r['workload']:34s} {fmt_ms(r['tensorx_s']):>9s} "
        line += f"{fmt_ms(r.get('tensorx_into_s')):>8s} "
        for k, n in pys:
            py = r.get(f"{k}_s")
            rp = py / r["peers"][n] if py and r["peers"].get(n) else None
            if rp and r["bytes"]:
                py_ratios[k].append(rp)
            line += f"{fmt_ms(py):>8s} {('%.2f' % rp) if rp else '-':>8s} "
        line += " ".join(f"{fmt_ms(r['peers'].get(c)):>8s}" for c in cols)
        rb, rc = r["ratio_best_peer"], r.get("ratio_best_current")
        if rb and r["bytes"]:
            ratios.append(rb)
        if rc and r["bytes"]:
            cur_ratios.append(rc)
            cur_rows.append((r, rc))
        line += f" {('%.2f' % rb) if rb else '-':>8s}"
        line += f" {('%.2f' % rc) if rc else '-':>7s}" if has_cur else ""
        if has_floor:
            rf = r.get("ratio_floor")
            ok = bar_met(r)
            if ok is False and r["bytes"]:
                missed.append(r["workload"])
            line += (f" {fmt_ms(r.get('floor_s')):>8s} {('%.2f' % rf) if rf else '-':>8s}"
                     f" {'-' if ok is None else 'ok' if ok else 'NO':>4s}")
        gb = r["bytes"] / r["tensorx_s"] / 1e9 if r["bytes"] and r["tensorx_s"] else None
        rm = r.get("ratio_memcpy")
        line += f" {r['bytes'] / 1e6:8.1f}"
        line += f" {('%.1f' % gb) if gb else '-':>6s} {r['memcpy_gbps']:6.1f} {('%.2f' % rm) if rm else '-':>8s}"
        print(line)
    if ratios:
        print(f"geometric mean tensorx/best-peer: {geomean(ratios):.2f} over {len(ratios)} "
              f"workloads; tensorx faster on {sum(1 for x in ratios if x < 1)}")
    if cur_ratios:
        gm = geomean(cur_ratios)
        print(f"geometric mean tensorx/best current peer: {gm:.2f} over {len(cur_ratios)} "
              f"workloads (goal <= {GOAL_GEOMEAN_CURRENT}: {'met' if gm <= GOAL_GEOMEAN_CURRENT else 'not met'}); "
              f"tensorx faster on {sum(1 for x in cur_ratios if x < 1)}")
        # What any implementation could reach: the workloads past the caches at the fastest copy
        # of their bytes (bench/floor.c's ceiling), the rest as measured.
        at = [(min(r["tensorx_s"], r.get("ceiling_s") or r["tensorx_s"]) / r["tensorx_s"]) * x
              for r, x in cur_rows]
        n_ceil = sum(1 for r, _ in cur_rows if r.get("ceiling_s"))
        if n_ceil:
            print(f"  the same at the copy ceiling: {geomean(at):.2f} (the {n_ceil} workloads past "
                  f"the caches at the fastest copy of their bytes this run measured, "
                  f"{len(at) - n_ceil} others as measured)")
    if has_floor:
        n = sum(1 for r in rows if r["bytes"] and bar_met(r) is not None)
        print(f"bar (<= {BAR_PEER}x the best peer or <= {BAR_FLOOR}x the copy floor): met on "
              f"{n - len(missed)} of {n}" + (f"; not on {', '.join(missed)}" if missed else ""))
    for k, n in pys:
        if py_ratios[k]:
            x = py_ratios[k]
            print(f"geometric mean {k}/{n}: {geomean(x):.2f} over {len(x)} workloads; "
                  f"tensorx from Python faster than that NumPy on {sum(1 for v in x if v < 1)}")
    print_inference(rows, cols)
    for o in overhead or []:
        print_overhead(o)
    return rows


def plot_ratios(rows, path):
    """The picture of the table: per workload, tensorx's time over the best peer's (log scale,
    lower is better), one bar against all peers and one against the current releases only, with
    the 0.7 bar; a workload whose bar is met by the copy floor (tx/floor <= 1.1) is marked."""
    import matplotlib  # noqa: PLC0415  (Debian's python3-matplotlib)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415
    rs = [r for r in rows if r.get("ratio_best_peer") and r["bytes"]]
    if not rs:
        return
    fig, ax = plt.subplots(figsize=(9, 0.26 * len(rs) + 1.4))
    ys = range(len(rs))
    ax.barh([y + 0.2 for y in ys], [r["ratio_best_peer"] for r in rs], height=0.4,
            color="#d62728", label="tensorx / best peer (all)")
    cur = [(y, r["ratio_best_current"]) for y, r in zip(ys, rs) if r.get("ratio_best_current")]
    if cur:
        ax.barh([y - 0.2 for y, _ in cur], [v for _, v in cur], height=0.4, color="#ff9896",
                label="tensorx / best current peer")
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.axvline(BAR_PEER, color="#2ca02c", linestyle="--", linewidth=1,
               label=f"bar: {BAR_PEER}x the best peer")
    ax.set_xscale("log")
    ax.set_yticks(list(ys))
    ax.set_yticklabels([r["workload"] + (" *" if (r.get("ratio_floor") or 9) <= BAR_FLOOR else "")
                        for r in rs], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("tensorx time / best peer's time (log; < 1: tensorx faster)")
    ax.set_title(f"tensorx against its peers, per workload (* within {BAR_FLOOR}x of the copy "
                 "floor)", fontsize=10)
    fig.legend(*ax.get_legend_handles_labels(), fontsize=7, loc="lower center", ncol=3)
    ax.grid(True, axis="x", which="both", alpha=0.3)
    fig.tight_layout(rect=(0, 0.3 / (0.26 * len(rs) + 1.4), 1, 1))  # room for the legend
    fig.savefig(path, dpi=110)
    plt.close(fig)


def print_inference(rows, cols):
    """The inference-shape rows again, per call: microseconds and calls per second."""
    inf = [r for r in rows if r.get("family") == "inference"]
    if not inf:
        return
    print("inference shapes, per call (us per call / thousand calls per second; prep: "
          "tensorx's prepared run, into memory set up beforehand as xnnpack's operators; ort-run and "
          "ort_cur-run are ONNX Runtime's session.run of a one-node Identity graph (node's "
          "onnxruntime, the Python API's), measured next to the workload: the part of the ort "
          "column that is not the op)")
    cols = [c for c in cols if any(c in r["peers"] for r in inf)]
    pys = [k for k in ("txpy", "txpy_cur") if any(f"{k}_s" in r for r in inf)]
    runs = [k for k in ("ort_session", "ort_cur_session") if any(f"{k}_s" in r for r in inf)]
    names = ["tensorx", "into", "prep"] + [LABEL.get(k, k) for k in pys] + \
        [LABEL.get(c, c) for c in cols] + \
        [{"ort_session": "ort-run", "ort_cur_session": "ort_cur-run"}[k] for k in runs]
    print(f"{'workload':38s} " + " ".join(f"{c:>15s}" for c in names))

    def cell(s):
        return "-" if s is None else f"{s * 1e6:.2f}/{1e-3 / s:.1f}k"
    for r in inf:
        vals = [r["tensorx_s"], r.get("tensorx_into_s"), r.get("tensorx_prepared_s")]
        vals += [r.get(f"{k}_s") for k in pys]
        vals += [r["peers"].get(c) for c in cols]
        vals += [r.get(f"{k}_s") for k in runs]
        print(f"{r['workload']:38s} " + " ".join(f"{cell(v):>15s}" for v in vals))
    pr = [(r["workload"], r["tensorx_prepared_s"] / min(r["peers"].values())) for r in inf
          if r.get("tensorx_prepared_s") and r["peers"]]
    if pr:
        print("prepared run / best peer: " + ", ".join(f"{w} {x:.2f}" for w, x in pr))


OVERHEAD_CALLS = {
    "reshape_16": ("tx.reshape(x, [4, 4])", "x.reshape(4, 4)", "np.reshape(x, [4, 4])",
                   "t.reshape(4, 4)"),
    "cast_16_f32_f16": ('tx.cast(x, "float16")', "x.astype(np.float16)", None,
                        "t.to(torch.float16)"),
}


def print_overhead(o):
    print(f"per-call overhead, NumPy {o.get('numpy_version', '?')} (x: 16 float32; best of "
          f"{o['rounds']} x {o['calls']:,} calls; us per call)")
    print(f"{'row':16s} {'side':8s} {'us':>6s} {'x numpy':>8s}  call")
    for row, sides in o["overhead"].items():
        calls = OVERHEAD_CALLS[row]
        np_us = sides.get("numpy")
        for side, k in (("txpy", 0), ("numpy", 1), ("numpy_fn", 2), ("torch", 3)):
            if side not in sides:
                continue
            r = sides[side] / np_us if np_us else None
            print(f"{row:16s} {side:8s} {sides[side]:6.3f} {('%.2f' % r) if r else '-':>8s}"
                  f"  {calls[k]}")
        side, bar = o.get("goals", {}).get(row, (None, None))
        if "txpy" in sides and sides.get(side):
            r = sides["txpy"] / sides[side]
            call = calls[{"numpy": 1, "numpy_fn": 2}[side]]
            print(f"{row:16s} goal {'met' if r <= bar else 'not met'}: txpy {r:.2f}x {call} "
                  f"(at most {bar:g}x)")
