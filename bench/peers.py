#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""peers.py -- runs the peers of the tensorx benchmark on bench.c's workloads, in the same run, and
merges their medians with tensorx's.

Peers: NumPy (one thread: its copies are single-threaded), PyTorch at 1 and 2 threads (torch1,
torch2), pandas for unique_with_counts (factorize keeps first-occurrence order as TF does), and,
through small helper programs, ONNX Runtime (bench/ort_peer.js on node with onnxruntime-node) and
XNNPACK (bench/xnn_peer.c: Debian's, "xnnpack", and with --xnn-cur-cmd a current build,
"xnnpack_cur") where the op exists there.  A peer that cannot run a workload is left out of that
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
peers' own JSON lines.  Sizes and workload names must match bench/bench.c (the same scale rules are below).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")

# ---- sizes (mirror bench.c) ------------------------------------------------------------------


def side4096(div):
    return 1024 if div >= 16 else 2048 if div >= 4 else 4096


def side8192(div):
    return 2048 if div >= 16 else 4096 if div >= 4 else 8192


N64M = 64 << 20
RNG = np.random.default_rng(7)


def floats(n, lo=-1000.0, hi=1000.0, dtype=np.float32):
    return RNG.uniform(lo, hi, n).astype(dtype)


def rand_f32(shape):
    return RNG.standard_normal(shape, dtype=np.float32)


# ---- workloads: name -> builder(div) returning {peer: thunk} ---------------------------------
# Each builder makes its inputs once and returns closures that run the op and return the result.


def torch_mod():
    import torch  # noqa: PLC0415  (optional peer)
    return torch


def with_torch(d, fn):
    """Adds torch1/torch2 entries (the same thunk; the thread count is set when timing)."""
    try:
        torch = torch_mod()
    except Exception:
        return d
    t = fn(torch)
    if t is not None:
        d["torch1"] = t
        d["torch2"] = t
    return d


def tx_mod():
    """The tensorx package (the txpy column), or None when it cannot be imported."""
    global TX
    if TX is False:
        try:
            import tensorx  # noqa: PLC0415  (optional: scripts/bench.sh installs it into a venv)
            TX = tensorx
        except Exception as e:  # noqa: BLE001
            print(f"peers: the tensorx package cannot be imported ({e}); txpy is left out",
                  file=sys.stderr)
            TX = None
    return TX


TX = False
WANT_TXPY = True  # main() clears it when --peers leaves txpy out


def with_txpy(d, fn, ref=None):
    """Adds the txpy entry: fn(tensorx) returns the thunk that does the workload's work through
    the Python package, on the same NumPy inputs as the numpy thunk.  Its result is checked once,
    before timing, against ref() (default: the numpy thunk's result), bit for bit."""
    tx = tx_mod() if WANT_TXPY else None
    if tx is not None:
        d["txpy"] = fn(tx)
        d["txpy_ref"] = ref or d.get("numpy")
    return d


NP_T = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "f64": np.float64, "u8": np.uint8}


def cast_builder(src, dst):
    def build(div):
        n = N64M // div
        if src == "u8":
            x = RNG.integers(0, 256, n, dtype=np.uint8)
        elif src == "i32":
            x = floats(n).astype(np.int32)
        else:
            x = floats(n, dtype=NP_T[src])
        d = {}
        if dst != "bf16":
            d["numpy"] = lambda: x.astype(NP_T[dst])
        names = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i32": "int32",
                 "f64": "float64", "u8": "uint8"}

        def tb(torch):
            tt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
                  "i32": torch.int32, "f64": torch.float64, "u8": torch.uint8}[dst]
            t = torch.from_numpy(x)
            return lambda: t.to(tt)

        def bf16_ref():  # NumPy has no bfloat16: PyTorch's (round to nearest even, as TF)
            return torch_mod().from_numpy(x).to(torch_mod().bfloat16).view(
                torch_mod().int16).numpy()
        with_txpy(d, lambda tx: lambda: tx.cast(x, names[dst]),
                  bf16_ref if dst == "bf16" else None)
        return with_torch(d, tb)
    return build


def saturate_builder(div):
    x = floats(N64M // div, -100.0, 400.0)
    d = {"numpy": lambda: np.clip(x, 0, 255).astype(np.uint8)}
    with_txpy(d, lambda tx: lambda: tx.saturate_cast(x, "uint8"))

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.clamp(0, 255).to(torch.uint8)
    return with_torch(d, tb)


def bitcast_builder(div):
    x = floats(N64M // div)
    d = {"numpy": lambda: x.view(np.int32)}
    with_txpy(d, lambda tx: lambda: tx.bitcast(x, "int32"))

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.view(torch.int32)
    return with_torch(d, tb)


def decode_one_builder(dt, little):
    def build(div):
        n = (256 << 20) // div
        b = RNG.integers(0, 1 << 62, n // 8, dtype=np.int64).tobytes()
        npt = np.dtype(dt).newbyteorder("<" if little else ">")
        d = {"numpy": (lambda: np.frombuffer(b, npt).copy()) if little
             else (lambda: np.frombuffer(b, npt).astype(np.dtype(dt)))}
        with_txpy(d, lambda tx: lambda: tx.decode_raw(b, dt, little_endian=little))

        def tb(torch):
            tt = {"int16": torch.int16, "float32": torch.float32}[dt]
            size = np.dtype(dt).itemsize
            if little:
                return lambda: torch.frombuffer(b, dtype=tt).clone()
            return lambda: (torch.frombuffer(b, dtype=torch.uint8).view(-1, size).flip(1)
                            .contiguous().view(tt).reshape(-1))
        return with_torch(d, tb)
    return build


def decode_records_builder(div):
    n = (1 << 20) // div
    buf = RNG.integers(0, 1 << 62, n * 8, dtype=np.int64).tobytes()
    recs = [buf[i * 64:(i + 1) * 64] for i in range(n)]  # a string tensor's elements
    d = {"numpy": lambda: np.frombuffer(b"".join(recs), "<f4").reshape(n, 16)}
    # tensorx takes the records as a string tensor: an object array of the same bytes objects,
    # made once (each record is used in place, not copied)
    rec_arr = np.empty(n, dtype=object)
    rec_arr[:] = recs
    with_txpy(d, lambda tx: lambda: tx.decode_raw(rec_arr, "float32"))

    def tb(torch):
        return lambda: torch.frombuffer(b"".join(recs), dtype=torch.float32).reshape(n, 16)
    return with_torch(d, tb)


def transpose_builder(case):
    def build(div):
        if case == 0:
            s = side8192(div)
            shape, perm = (s, s), (1, 0)
        elif case in (1, 2):
            shape = (max(64 // div, 1), 512, 512)
            perm = (0, 2, 1) if case == 1 else (2, 0, 1)
        else:
            shape, perm = (max(32 // div, 1), 224, 224, 3), (0, 3, 1, 2)
        x = rand_f32(shape)
        d = {"numpy": lambda: np.ascontiguousarray(x.transpose(perm))}
        with_txpy(d, lambda tx: lambda: tx.transpose(x, list(perm)))

        def tb(torch):
            t = torch.from_numpy(x)
            return lambda: t.permute(perm).contiguous()
        return with_torch(d, tb)
    return build


def concat_builder(axis):
    def build(div):
        s = side4096(div)
        a, b = rand_f32((s, s)), rand_f32((s, s))
        d = {"numpy": lambda: np.concatenate((a, b), axis)}
        with_txpy(d, lambda tx: lambda: tx.concat([a, b], axis))

        def tb(torch):
            ta, tb_ = torch.from_numpy(a), torch.from_numpy(b)
            return lambda: torch.cat((ta, tb_), axis)
        return with_torch(d, tb)
    return build


def reverse_builder(div):
    s = side8192(div)
    x = rand_f32((s, s))
    d = {"numpy": lambda: np.flip(x, 1).copy()}
    with_txpy(d, lambda tx: lambda: tx.reverse(x, axis=[1]))

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: torch.flip(t, [1])
    return with_torch(d, tb)


def pad_builder(mode):
    def build(div):
        s = side4096(div)
        x = rand_f32((s, s))
        d = {"numpy": (lambda: np.pad(x, 16)) if mode == "constant"
             else (lambda: np.pad(x, 16, mode="reflect"))}
        with_txpy(d, lambda tx: lambda: tx.pad(x, [[16, 16], [16, 16]], mode=mode.upper()))

        def tb(torch):
            import torch.nn.functional as F  # noqa: PLC0415
            t = torch.from_numpy(x)
            if mode == "constant":
                return lambda: F.pad(t, (16, 16, 16, 16))
            return lambda: F.pad(t[None], (16, 16, 16, 16), mode="reflect")[0]
        return with_torch(d, tb)
    return build


def tile_builder(div):
    s = 512 if div >= 4 else 1024
    x = rand_f32((s, s))
    d = {"numpy": lambda: np.tile(x, (4, 4))}
    with_txpy(d, lambda tx: lambda: tx.tile(x, [4, 4]))

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.repeat(4, 4)
    return with_torch(d, tb)


def strided_builder(div):
    s = side8192(div)
    x = rand_f32((s, s))
    d = {"numpy": lambda: x[::2, ::-1].copy()}
    with_txpy(d, lambda tx: lambda: tx.strided_slice(x, [0, 0], [0, 0], [2, -1], begin_mask=3,
                                                     end_mask=3))

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t[::2].flip(1)
    return with_torch(d, tb)


def take_rows(x, idx):
    """Rows idx of x: NumPy's take, tensorx's gather, PyTorch's index_select."""
    d = {"numpy": lambda: np.take(x, idx, axis=0)}
    with_txpy(d, lambda tx: lambda: tx.gather(x, idx, axis=0))

    def tb(torch):
        t, i = torch.from_numpy(x), torch.from_numpy(idx.astype(np.int64))
        return lambda: torch.index_select(t, 0, i)
    return with_torch(d, tb)


def gather_rows_builder(div):
    rows = (1 << 20) // div
    x = rand_f32((rows, 64))
    return take_rows(x, RNG.integers(0, rows, rows, dtype=np.int32))


def gather_axis1_builder(div):
    s = side4096(div)
    x = rand_f32((s, s))
    idx = RNG.integers(0, s, s, dtype=np.int32)
    d = {"numpy": lambda: np.take(x, idx, axis=1)}
    with_txpy(d, lambda tx: lambda: tx.gather(x, idx, axis=1))

    def tb(torch):
        t, i = torch.from_numpy(x), torch.from_numpy(idx.astype(np.int64))
        return lambda: torch.index_select(t, 1, i)
    return with_torch(d, tb)


def boolean_mask_builder(div):
    s = side4096(div)
    x = rand_f32((s, s))
    m = RNG.integers(0, 2, (s, s)).astype(bool)
    d = {"numpy": lambda: x[m]}
    with_txpy(d, lambda tx: lambda: tx.boolean_mask(x, m))

    def tb(torch):
        t, tm = torch.from_numpy(x), torch.from_numpy(m)
        return lambda: t[tm]
    return with_torch(d, tb)


def gather_nd_builder(div):
    n = (1 << 20) // div
    x = rand_f32((1024, 1024, 16))
    i0 = RNG.integers(0, 1024, n, dtype=np.int32)
    i1 = RNG.integers(0, 1024, n, dtype=np.int32)
    d = {"numpy": lambda: x[i0, i1]}
    i01 = np.stack([i0, i1], 1)  # gather_nd's [n, 2] indices, made once
    with_txpy(d, lambda tx: lambda: tx.gather_nd(x, i01))

    def tb(torch):
        t = torch.from_numpy(x)
        a, b = torch.from_numpy(i0.astype(np.int64)), torch.from_numpy(i1.astype(np.int64))
        return lambda: t[a, b]
    return with_torch(d, tb)


def one_hot_of(idx, depth):
    """one_hot of int32 labels idx at depth, float32: NumPy's fancy assignment, tensorx, PyTorch's
    scatter_."""
    n, rows = len(idx), np.arange(len(idx))

    def np_one_hot():
        out = np.zeros((n, depth), np.float32)
        out[rows, idx] = 1.0
        return out
    d = {"numpy": np_one_hot}
    with_txpy(d, lambda tx: lambda: tx.one_hot(idx, depth))

    def tb(torch):
        i = torch.from_numpy(idx.astype(np.int64))[:, None]
        return lambda: torch.zeros(n, depth).scatter_(1, i, 1.0)
    return with_torch(d, tb)


def one_hot_builder(div):
    n = (1 << 20) // div
    return one_hot_of(RNG.integers(0, 1000, n, dtype=np.int32), 1000)


def unique_builder(div):
    n = (16 << 20) // div
    vals = RNG.integers(0, 1 << 31, 1000, dtype=np.int64).astype(np.int32)
    x = vals[RNG.integers(0, 1000, n)]
    d = {"numpy": lambda: np.unique(x, return_inverse=True, return_counts=True)}

    def first_order():  # TF's order (first occurrence), as pandas.factorize gives it
        import pandas as pd  # noqa: PLC0415
        codes, uniq = pd.factorize(x)
        return uniq, codes.astype(np.int32), np.bincount(codes).astype(np.int32)
    with_txpy(d, lambda tx: lambda: tuple(tx.unique_with_counts(x)), first_order)
    try:
        import pandas as pd  # noqa: PLC0415

        def pd_unique():
            codes, uniq = pd.factorize(x)
            return uniq, codes, np.bincount(codes)
        d["pandas"] = pd_unique
    except Exception:
        pass

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: torch.unique(t, return_inverse=True, return_counts=True)
    return with_torch(d, tb)


def s2d_builder(inverse):
    def build(div):
        n = 8 // min(div, 8)
        x = rand_f32((n, 256, 256, 64))
        if inverse:
            def np_f():
                return (x.reshape(n, 256, 256, 2, 2, 16).transpose(0, 1, 3, 2, 4, 5)
                        .reshape(n, 512, 512, 16))
        else:
            def np_f():
                return (x.reshape(n, 128, 2, 128, 2, 64).transpose(0, 1, 3, 2, 4, 5)
                        .reshape(n, 128, 128, 256))
        d = {"numpy": np_f}
        with_txpy(d, lambda tx: (lambda: tx.depth_to_space(x, 2)) if inverse
                  else (lambda: tx.space_to_depth(x, 2)))

        def tb(torch):
            t = torch.from_numpy(x)
            if inverse:
                return lambda: (t.reshape(n, 256, 256, 2, 2, 16).permute(0, 1, 3, 2, 4, 5)
                                .reshape(n, 512, 512, 16))
            return lambda: (t.reshape(n, 128, 2, 128, 2, 64).permute(0, 1, 3, 2, 4, 5)
                            .reshape(n, 128, 128, 256))
        return with_torch(d, tb)
    return build


def copy_builder(div):
    x = rand_f32(N64M // div)
    d = {"numpy": lambda: x.copy()}

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.clone()
    return with_torch(d, tb)


# ---- inference shapes (fixed sizes, quick or not; mirror bench.c's setup_infer) ----------------


def infer_embedding_builder(div):
    table = rand_f32((30522, 768))
    return take_rows(table, RNG.integers(0, 30522, 128, dtype=np.int32))


def infer_nhwc_nchw_builder(div):
    x = rand_f32((1, 224, 224, 3))
    d = {"numpy": lambda: np.ascontiguousarray(x.transpose(0, 3, 1, 2))}
    with_txpy(d, lambda tx: lambda: tx.transpose(x, [0, 3, 1, 2]))

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.permute(0, 3, 1, 2).contiguous()
    return with_torch(d, tb)


def infer_strided_slice_builder(div):
    x = rand_f32((1, 128, 768))
    d = {"numpy": lambda: x[:, ::2].copy()}
    with_txpy(d, lambda tx: lambda: tx.strided_slice(x, [0, 0, 0], [0, 0, 0], [1, 2, 1],
                                                     begin_mask=7, end_mask=7))

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t[:, ::2].contiguous()
    return with_torch(d, tb)


def infer_concat_kv_builder(div):
    a = rand_f32((1, 32, 512, 128)).astype(np.float16)
    b = rand_f32((1, 32, 512, 128)).astype(np.float16)
    d = {"numpy": lambda: np.concatenate((a, b), 2)}
    with_txpy(d, lambda tx: lambda: tx.concat([a, b], 2))

    def tb(torch):
        ta, tb_ = torch.from_numpy(a), torch.from_numpy(b)
        return lambda: torch.cat((ta, tb_), 2)
    return with_torch(d, tb)


def infer_one_hot_builder(div):
    return one_hot_of(RNG.integers(0, 1000, 128, dtype=np.int32), 1000)


def infer_cast_bf16_builder(div):
    x = floats(4096).reshape(1, 4096)
    d = {}

    def bf16_ref():  # NumPy has no bfloat16: PyTorch's (round to nearest even, as TF)
        torch = torch_mod()
        return torch.from_numpy(x).to(torch.bfloat16).view(torch.int16).numpy()
    with_txpy(d, lambda tx: lambda: tx.cast(x, "bfloat16"), bf16_ref)

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.to(torch.bfloat16)
    return with_torch(d, tb)


WORKLOADS = [
    ("copy_f32_64M", copy_builder),
    ("cast_f32_f16", cast_builder("f32", "f16")),
    ("cast_f16_f32", cast_builder("f16", "f32")),
    ("cast_f32_bf16", cast_builder("f32", "bf16")),
    ("cast_f32_i32", cast_builder("f32", "i32")),
    ("cast_i32_f32", cast_builder("i32", "f32")),
    ("cast_f64_f32", cast_builder("f64", "f32")),
    ("cast_u8_f32", cast_builder("u8", "f32")),
    ("saturate_cast_f32_u8", saturate_builder),
    ("bitcast_f32_i32", bitcast_builder),
    ("decode_raw_le_i16", decode_one_builder("int16", True)),
    ("decode_raw_be_i16", decode_one_builder("int16", False)),
    ("decode_raw_le_f32", decode_one_builder("float32", True)),
    ("decode_raw_be_f32", decode_one_builder("float32", False)),
    ("decode_raw_records_1M_x64", decode_records_builder),
    ("transpose_8192x8192", transpose_builder(0)),
    ("transpose_64x512x512_021", transpose_builder(1)),
    ("transpose_64x512x512_201", transpose_builder(2)),
    ("transpose_nhwc_nchw_32x224x224x3", transpose_builder(3)),
    ("concat_2x4096x4096_axis0", concat_builder(0)),
    ("concat_2x4096x4096_axis1", concat_builder(1)),
    ("reverse_8192x8192_axis1", reverse_builder),
    ("pad_4096x4096_16_constant", pad_builder("constant")),
    ("pad_4096x4096_16_reflect", pad_builder("reflect")),
    ("tile_1024x1024_4x4", tile_builder),
    ("strided_slice_8192x8192_s2_rev", strided_builder),
    ("gather_rows_1Mx64_1M", gather_rows_builder),
    ("gather_axis1_4096x4096", gather_axis1_builder),
    ("boolean_mask_4096x4096_half", boolean_mask_builder),
    ("gather_nd_1024x1024x16_1M", gather_nd_builder),
    ("one_hot_1M_depth1000", one_hot_builder),
    ("unique_with_counts_16M_1000", unique_builder),
    ("space_to_depth_8x256x256x64_b2", s2d_builder(False)),
    ("depth_to_space_8x256x256x64_b2", s2d_builder(True)),
    ("infer_embedding_gather_30522x768_128", infer_embedding_builder),
    ("infer_nhwc_nchw_1x224x224x3", infer_nhwc_nchw_builder),
    ("infer_strided_slice_1x128x768_s2", infer_strided_slice_builder),
    ("infer_concat_kv_f16_1x32x512x128_x2", infer_concat_kv_builder),
    ("infer_one_hot_128_depth1000", infer_one_hot_builder),
    ("infer_cast_f32_bf16_1x4096", infer_cast_bf16_builder),
]

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


# ---- output -------------------------------------------------------------------------------------

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


# ---- per-call overhead ---------------------------------------------------------------------------

GOAL = 2.0  # tensorx's per-call overhead from Python: within 2x of NumPy's own


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
            "goal_txpy_over_numpy": GOAL}


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
        if n in known:
            for w, d in run_python_peers({n}, div, reps, peers).items():
                res.setdefault(w, {}).update(d)
        for cmd, have in ((ort, ort_names), (xnn, xnn_names), (xnn_cur, xnn_cur_names)):
            if cmd and n in have:
                for w, d in run_external(cmd, div, {n}, ["--exact", n]).items():
                    res.setdefault(w, {}).update(d)
    return tx, res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--filter")
    ap.add_argument("--peers", default="numpy,pandas,torch1,torch2,ort,xnnpack,xnnpack_cur,txpy")
    ap.add_argument("--no-overhead", action="store_true",
                    help="leave out the per-call overhead rows")
    ap.add_argument("--tensorx", help="tensorx_bench --json output to merge")
    ap.add_argument("--tx-bench", help="tensorx_bench to run workload by workload, interleaved "
                    "with the peers (the fairest comparison on a busy machine)")
    ap.add_argument("--threads", type=int, default=0, help="tensorx's thread count (--tx-bench)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--ort-cmd", help="command line of the ONNX Runtime peer")
    ap.add_argument("--xnn-cmd", help="command line of the XNNPACK peer (Debian's)")
    ap.add_argument("--xnn-cur-cmd", help="command line of the current XNNPACK's peer")
    a = ap.parse_args()
    div = 8 if a.quick else 1
    reps = a.reps or (3 if a.quick else 5)
    peers = set(a.peers.split(","))
    global WANT_TXPY
    WANT_TXPY = "txpy" in peers
    names = [n for n, _ in WORKLOADS if not a.filter or a.filter in n]
    overhead = None
    if a.tx_bench:
        tx_lines, res = interleaved(a, div, reps, peers)
        if not a.no_overhead:
            print("peers: per-call overhead", file=sys.stderr)
            overhead = measure_overhead(peers, rounds=3 if a.quick else 5)
        merge_and_print(tx_lines, res, a.json, overhead)
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
    if not a.no_overhead:
        overhead = measure_overhead(peers, rounds=3 if a.quick else 5)
    if a.tensorx:
        merge_and_print(tx_lines, res, a.json, overhead)
    else:
        for w in names:
            for p, s in res.get(w, {}).items():
                print(json.dumps({"workload": w, "peer": p, "s": s}))
        if overhead:
            print(json.dumps(overhead))


if __name__ == "__main__":
    main()
