# SPDX-License-Identifier: Apache-2.0
"""peers_output.py -- bench/peers.py's output: the merged JSON lines or the side-by-side table, the
inference-shape table and the per-call overhead rows."""
import json
import math


PEER_ORDER = ["numpy", "pandas", "torch1", "torch2", "ort", "xnnpack", "xnnpack_cur"]
# txpy is tensorx itself called through the Python package: its own column (and txpy/numpy), not a
# peer, so it never enters "peers" or the best-peer ratio.


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
        floor = peers.get(w, {}).get("ort_session")
        if floor is not None:  # not a peer: ONNX Runtime's fixed session.run cost
            o["ort_session_s"] = floor
        py = peers.get(w, {}).get("txpy")
        if py is not None:
            o["txpy_s"] = py
            npy = o["peers"].get("numpy")
            o["ratio_txpy_numpy"] = py / npy if npy else None
        rows.append(o)
    if as_json:
        for o in rows:
            keys = ["workload", "bytes", "tensorx_s", "peers", "memcpy_gbps", "ratio_best_peer",
                    "ratio_memcpy"]
            extra = [k for k in o if k not in keys]
            print(json.dumps({k: o[k] for k in keys + extra}))
        if probe:
            print(json.dumps(probe))
        if overhead:
            print(json.dumps(overhead))
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
    has_py = any("txpy_s" in r for r in rows)
    head = f"{'workload':34s} {'tensorx':>9s} {'into':>8s} "
    if has_py:
        head += f"{'txpy':>8s} {'py/np':>6s} "
    head += " ".join(f"{c:>8s}" for c in cols)
    head += f" {'tx/best':>8s} {'MB':>8s} {'GB/s':>6s} {'memcpy':>6s} {'x memcpy':>8s}"
    print(head)
    print("(times in ms, medians; tx/best < 1 means tensorx is faster than every peer; txpy is "
          "tensorx from Python, not a peer; py/np = txpy/numpy)")
    ratios, py_ratios = [], []
    for r in rows:
        line = f"{r['workload']:34s} {fmt_ms(r['tensorx_s']):>9s} "
        line += f"{fmt_ms(r.get('tensorx_into_s')):>8s} "
        if has_py:
            rp = r.get("ratio_txpy_numpy")
            if rp and r["bytes"]:
                py_ratios.append(rp)
            line += f"{fmt_ms(r.get('txpy_s')):>8s} {('%.2f' % rp) if rp else '-':>6s} "
        line += " ".join(f"{fmt_ms(r['peers'].get(c)):>8s}" for c in cols)
        rb = r["ratio_best_peer"]
        if rb and r["bytes"]:
            ratios.append(rb)
        gb = r["bytes"] / r["tensorx_s"] / 1e9 if r["bytes"] and r["tensorx_s"] else None
        rm = r.get("ratio_memcpy")
        line += f" {('%.2f' % rb) if rb else '-':>8s} {r['bytes'] / 1e6:8.1f}"
        line += f" {('%.1f' % gb) if gb else '-':>6s} {r['memcpy_gbps']:6.1f} {('%.2f' % rm) if rm else '-':>8s}"
        print(line)
    if ratios:
        gm = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        wins = sum(1 for x in ratios if x < 1)
        print(f"geometric mean tensorx/best-peer: {gm:.2f} over {len(ratios)} workloads; "
              f"tensorx faster on {wins}")
    if py_ratios:
        gm = math.exp(sum(math.log(x) for x in py_ratios) / len(py_ratios))
        wins = sum(1 for x in py_ratios if x < 1)
        print(f"geometric mean txpy/numpy: {gm:.2f} over {len(py_ratios)} workloads; "
              f"tensorx from Python faster than NumPy on {wins}")
    print_inference(rows, cols)
    if overhead:
        print_overhead(overhead)
    return rows


def print_inference(rows, cols):
    """The inference-shape rows again, per call: microseconds and calls per second."""
    inf = [r for r in rows if r.get("family") == "inference"]
    if not inf:
        return
    print("inference shapes, per call (us per call / thousand calls per second; ort-run is "
          "ONNX Runtime's session.run of a one-node Identity graph, measured next to the "
          "workload: the part of the ort column that is not the op)")
    cols = [c for c in cols if any(c in r["peers"] for r in inf)]
    has_py = any("txpy_s" in r for r in inf)
    has_floor = any("ort_session_s" in r for r in inf)
    names = ["tensorx", "into"] + (["txpy"] if has_py else []) + cols + \
        (["ort-run"] if has_floor else [])
    print(f"{'workload':38s} " + " ".join(f"{c:>15s}" for c in names))

    def cell(s):
        return "-" if s is None else f"{s * 1e6:.2f}/{1e-3 / s:.1f}k"
    for r in inf:
        vals = [r["tensorx_s"], r.get("tensorx_into_s")]
        vals += [r.get("txpy_s")] if has_py else []
        vals += [r["peers"].get(c) for c in cols]
        vals += [r.get("ort_session_s")] if has_floor else []
        print(f"{r['workload']:38s} " + " ".join(f"{cell(v):>15s}" for v in vals))


OVERHEAD_CALLS = {
    "reshape_16": ("tx.reshape(x, [4, 4])", "x.reshape(4, 4)", "np.reshape(x, [4, 4])",
                   "t.reshape(4, 4)"),
    "cast_16_f32_f16": ('tx.cast(x, "float16")', "x.astype(np.float16)", None,
                        "t.to(torch.float16)"),
}


def print_overhead(o):
    print(f"per-call overhead (x: 16 float32; best of {o['rounds']} x {o['calls']:,} calls; "
          f"us per call; goal: txpy within {o['goal_txpy_over_numpy']:g}x of NumPy's own)")
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
        if "txpy" in sides and np_us:
            r = sides["txpy"] / np_us
            met = "met" if r <= o["goal_txpy_over_numpy"] else "not met"
            line = f"{row:16s} goal {met}: txpy {r:.2f}x numpy's {calls[1]}"
            if "numpy_fn" in sides:
                r2 = sides["txpy"] / sides["numpy_fn"]
                met2 = "met" if r2 <= o["goal_txpy_over_numpy"] else "not met"
                line += f"; {met2} against {calls[2]} ({r2:.2f}x)"
            print(line)
