#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every float32 bit pattern (all 2^32, streamed in blocks) cast to each low-bit dtype by tensorx and
by ml_dtypes, compared bit for bit; and every code of each type cast to float16, bfloat16, float32
and float64.  The sampled form of the same checks runs in every test run
(python/tests/test_lowbit.py); this is the exhaustive one, run by hand with its figures in
docs/casting.md ("The low-bit dtypes").  int2 / uint2 are compared with TF's int4 rule (truncate
as x86 does, then wrap), and with ml_dtypes where ml_dtypes' cast is defined (in range).

usage: python scripts/lowbit-exhaustive.py [--block-log2 N] [TYPE ...]
  (an interpreter with tensorx, NumPy and ml_dtypes: e.g. the venv of
   scripts/install-python.sh --venv DIR --index)
"""
import argparse
import sys
import time
import warnings

import ml_dtypes as ml
import numpy as np
import tensorx as tx

FLOATS = ["float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
          "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn"]
INTS = ["int2", "uint2"]


def tf_int_rule(x, name):
    """TF's float -> int4 rule with 2 bits: x86's truncation to int32 (INT32_MIN for NaN and out of
    range), then the low 2 bits."""
    with np.errstate(all="ignore"):
        ok = np.isfinite(x) & (x >= -2.0 ** 31) & (x < 2.0 ** 31)
        t = np.where(ok, np.trunc(x), -(2.0 ** 31)).astype(np.int64)
    return (t & 3).astype(np.uint8)


def check_type(name, block_log2):
    t = np.dtype(getattr(ml, name))
    mismatches, first = 0, None
    codes = np.arange(256, dtype=np.uint8).view(t)
    for dst in (np.float16, ml.bfloat16, np.float32, np.float64):
        ref = codes.astype(dst)
        got = np.asarray(tx.cast(codes, np.dtype(dst)))
        w = "u%d" % ref.dtype.itemsize
        bad = np.nonzero(ref.view(w) != got.view(w))[0]
        mismatches += len(bad)
        if len(bad) and first is None:
            first = "code %#x -> %s" % (bad[0], np.dtype(dst).name)
    n = 1 << block_log2
    for start in range(0, 1 << 32, n):
        x = np.arange(start, start + n, dtype=np.uint64).astype(np.uint32).view(np.float32)
        got = np.asarray(tx.cast(x, t)).view(np.uint8)
        if name in INTS:
            ref = tf_int_rule(x, name)
            lo, hi = (-3, 2) if name == "int2" else (-1, 4)
            with np.errstate(all="ignore"):
                inside = np.isfinite(x) & (x > lo) & (x < hi)
            ml_ref = x[inside].astype(t).view(np.uint8)
            bad = np.nonzero(got[inside] != ml_ref)[0]
            mismatches += len(bad)
            if len(bad) and first is None:
                first = "float32 %#x (ml_dtypes)" % x[inside].view(np.uint32)[bad[0]]
        else:
            ref = x.astype(t).view(np.uint8)
        bad = np.nonzero(got != ref)[0]
        mismatches += len(bad)
        if len(bad) and first is None:
            first = "float32 %#x" % x.view(np.uint32)[bad[0]]
    return mismatches, first


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--block-log2", type=int, default=24)
    ap.add_argument("types", nargs="*", default=FLOATS + INTS)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    print("tensorx %s, NumPy %s, ml_dtypes %s" % (tx.__version__, np.__version__, ml.__version__))
    failed = 0
    for name in args.types:
        t0 = time.time()
        bad, first = check_type(name, args.block_log2)
        failed += bad != 0
        print("%-20s 2^32 float32 + 256 codes x 4 targets: %d mismatches%s (%.0f s)" % (
            name, bad, "" if first is None else ", first " + first, time.time() - t0), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
