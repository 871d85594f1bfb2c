# SPDX-License-Identifier: Apache-2.0
"""txoracle -- run tensorx's CLI on NumPy arrays, for randomized comparison with NumPy.

    import txoracle as tx
    y = tx.run("transpose", a=x, perm=[1, 0])          # one output -> ndarray
    ys = tx.run("split", value=x, split_dim=0, num_split=2, outputs=2)   # list of ndarrays
    tx.fails("reshape", tensor=x, shape=[3, -1, -1])   # -> (status, message) of a failure

Arrays are passed as .npy files; lists of arrays (concat's values) as comma-joined paths;
Python ints/bools/strings/lists as CLI literals.  Results come back through -o FILE.npy.
Comparison helpers: assert_same(a, b, what) checks dtype, shape and bits (any NaN equals any NaN);
host_view(a, dst) is ndarray.view as the CLI's host (TARGET_BYTE_ORDER) gives it.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np

TX = os.environ.get("TX") or sys.exit("TX must point at the tensorx binary")
# The byte order of the host the CLI runs on ("little" or "big"): the cross builds run it under an
# emulator and say so (tests/cross.cmake); natively it is this interpreter's.
TARGET_BYTE_ORDER = os.environ.get("TX_TARGET_BYTE_ORDER") or sys.byteorder


def load_library():
    """libtensorx.so beside the CLI through ctypes, with tx_tensor_free and tx_last_error typed;
    exits 77 (skipped) when it cannot be loaded (static and sanitizer builds), probed in a child so
    that a failed load cannot take this process down."""
    import ctypes
    so = os.path.join(os.path.dirname(os.path.abspath(TX)), "libtensorx.so")
    probe = subprocess.run([sys.executable, "-c", "import ctypes, sys; ctypes.CDLL(sys.argv[1])",
                            so], capture_output=True, text=True)
    if probe.returncode != 0:
        last = (probe.stderr.strip().splitlines() or ["?"])[-1][:120]
        print("skipped: cannot load %s (%s)" % (so, last))
        sys.exit(77)
    lib = ctypes.CDLL(so)
    lib.tx_tensor_free.argtypes = [ctypes.c_void_p]
    lib.tx_last_error.restype = ctypes.c_char_p
    return lib


def host_view(a, dst):
    """a.view(dst) as it comes out on the CLI's host: a view reinterprets the host's bytes, so on
    a host of the other byte order than this interpreter's the bytes are those of that order."""
    if TARGET_BYTE_ORDER == sys.byteorder:
        return a.view(dst)
    order = ">" if TARGET_BYTE_ORDER == "big" else "<"
    a = np.asarray(a)  # a NumPy scalar is always native: astype would not reorder its bytes
    foreign = a.astype(a.dtype.newbyteorder(order))
    return foreign.view(np.dtype(dst).newbyteorder(order)).astype(dst)
_tmp = tempfile.TemporaryDirectory()
_count = [0]


def _path(arr):
    _count[0] += 1
    p = os.path.join(_tmp.name, "in%d.npy" % _count[0])
    np.save(p, arr, allow_pickle=False)
    return p


def _literal(v):
    if isinstance(v, (np.ndarray, np.generic)):  # numpy scalars too (0-d results of astype)
        return _path(np.asarray(v))
    if isinstance(v, (list, tuple)) and v and all(isinstance(e, np.ndarray) for e in v):
        return ",".join(_path(e) for e in v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(str(int(e)) for e in v) + "]"
    return str(v)


def _argv(op, outputs, kwargs):
    argv = [TX, op] + ["%s=%s" % (k, _literal(v)) for k, v in kwargs.items()]
    outs = []
    for i in range(outputs):
        _count[0] += 1
        outs.append(os.path.join(_tmp.name, "out%d.npy" % _count[0]))
        argv += ["-o", outs[-1]]
    return argv, outs


def run(op, outputs=1, **kwargs):
    argv, outs = _argv(op, outputs, kwargs)
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        raise AssertionError("%s failed: %s\nargv: %s" % (op, r.stderr.strip(), argv))
    res = [np.load(p, allow_pickle=False) for p in outs]
    return res[0] if outputs == 1 else res


def fails(op, outputs=1, **kwargs):
    """Runs op expecting failure; returns stderr.  Raises if it succeeded."""
    argv, _ = _argv(op, outputs, kwargs)
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode == 0:
        raise AssertionError("%s succeeded but should fail: %s" % (op, argv))
    return r.stderr


def assert_same(got, want, what):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        raise AssertionError("%s: got %s%s, want %s%s" % (what, got.dtype, got.shape, want.dtype, want.shape))
    if want.dtype.kind in "fc":
        gn, wn = np.isnan(got), np.isnan(want)
        if not np.array_equal(gn, wn):
            raise AssertionError("%s: NaN positions differ" % what)
        if got[~gn].tobytes() != want[~wn].tobytes():
            bad = np.argwhere((got != want) & ~gn)[:1]
            raise AssertionError("%s: bits differ, first at %s: got %r want %r"
                                 % (what, bad[0] if len(bad) else "?", got[tuple(bad[0])] if len(bad) else got,
                                    want[tuple(bad[0])] if len(bad) else want))
    elif got.tobytes() != want.tobytes() if want.dtype.kind != "S" else not np.array_equal(got, want):
        bad = np.argwhere(got != want)[:1]
        raise AssertionError("%s: values differ at %s: got %r want %r"
                             % (what, bad[0] if len(bad) else "?", got[tuple(bad[0])] if len(bad) else got,
                                want[tuple(bad[0])] if len(bad) else want))


class Counter:
    """Counts checks and prints the closing line 'N passed, N failed'."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, what, fn):
        try:
            fn()
            self.passed += 1
        except AssertionError as e:
            self.failed += 1
            print("FAIL", what, e)

    def finish(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        sys.exit(1 if self.failed else 0)
