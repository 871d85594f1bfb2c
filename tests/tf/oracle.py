# SPDX-License-Identifier: Apache-2.0
"""The live oracle: every op's cases run through TensorFlow (eagerly, on the CPU) and through tensorx
(the C library through the Python package), compared bit for bit.  README.md beside this file says
how to run it; the op families (cases and TF's call for each op) are the ops_*.py modules.

An op is registered with @op(name, tf=CALL): CALL(**kwargs) runs TF on the case's inputs (converted
to tf.Tensors; lists of tensors stay lists) and attributes (tensorx's names and values) and returns a
tf.Tensor or a list of them.  The decorated function is the case generator: gen(g) yields Case
objects, edge cases first, then random ones drawn from g.rng; a run takes the first N.

An outcome is ("ok", [Out...]) or ("error", category, message); two outcomes agree when both are
errors of one category, or both results have the same number of outputs, each of the same dtype name,
shape and bytes (strings: the same byte strings).  Float outputs compare their bits, NaN payloads
included, unless the case says nan="any" (a NaN TF makes by arithmetic whose payload the C standard
leaves open).  Cases that reach a deliberate difference (DIFFERENCES, docs/tensorflow.md) are
counted as documented, checked to behave as the table says, and never recorded as TF's answer.
"""
import argparse
import dataclasses
import importlib
import os
import re
import sys
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tensorx as tx  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILIES = ["ops_casting", "ops_shapes", "ops_slicing", "ops_reorder", "ops_spatial", "ops_gather",
            "ops_strings", "ops_lowbit", "ops_parsing"]

# ---- dtypes ---------------------------------------------------------------------------------------
_X = tf.dtypes.experimental
TF_DTYPES = {
    "bool": tf.bool, "int8": tf.int8, "uint8": tf.uint8, "int16": tf.int16, "uint16": tf.uint16,
    "int32": tf.int32, "uint32": tf.uint32, "int64": tf.int64, "uint64": tf.uint64,
    "float16": tf.float16, "bfloat16": tf.bfloat16, "float32": tf.float32, "float64": tf.float64,
    "complex64": tf.complex64, "complex128": tf.complex128, "qint8": tf.qint8, "quint8": tf.quint8,
    "qint16": tf.qint16, "quint16": tf.quint16, "qint32": tf.qint32,
    "float8_e5m2": _X.float8_e5m2, "float8_e4m3fn": _X.float8_e4m3fn, "int4": _X.int4,
    "uint4": _X.uint4, "float8_e4m3fnuz": _X.float8_e4m3fnuz,
    "float8_e4m3b11fnuz": _X.float8_e4m3b11fnuz, "float8_e5m2fnuz": _X.float8_e5m2fnuz,
    "int2": _X.int2, "uint2": _X.uint2, "float4_e2m1fn": _X.float4_e2m1fn, "string": tf.string,
}
TF_NAMES = {d: n for n, d in TF_DTYPES.items()}
INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
FLOAT8 = ["float8_e5m2", "float8_e4m3fn"]
COMPLEX = ["complex64", "complex128"]
QUANTIZED = ["qint8", "quint8", "qint16", "quint16", "qint32"]
INT4 = ["int4", "uint4"]
# The dtypes TF 2.21 declares (DataType 26-28, 31-33) but runs no op on except Reshape and the
# shape ops: no Cast to or from them, no data-movement kernel.
LOWBIT_FLOATS = ["float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "float4_e2m1fn"]
INT2 = ["int2", "uint2"]
LOWBIT = LOWBIT_FLOATS + INT2
NUMERIC = ["bool"] + INTS + FLOATS + COMPLEX + FLOAT8 + INT4 + QUANTIZED + LOWBIT
ALL = NUMERIC + ["string"]
_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.uint64}


def np_dtype(name):
    """The NumPy dtype tensorx's Python package uses for `name` (ml_dtypes', structured for the
    quantized ones, object for strings)."""
    return np.dtype(tx._OUT[tx._CODES[name]])


def dtype_of(a):
    """tensorx's name of an array's dtype."""
    return tx.dtype_name(a.dtype)


# ---- cases ----------------------------------------------------------------------------------------
@dataclasses.dataclass
class Case:
    inputs: dict                       # name -> ndarray, or a list of ndarrays
    attrs: dict = dataclasses.field(default_factory=dict)
    nan: str = "bits"                  # "bits" or "any"
    note: str = ""                     # what the case is for (edge cases)
    byte_order: str = ""               # "little" when its result holds on little-endian hosts only


@dataclasses.dataclass
class Spec:
    name: str
    tf: object
    gen: object
    tf_name: str
    moves_bits: bool


OPS = {}


def op(name, tf, tf_name="", moves_bits=False):
    """Registers generator `gen` for tensorx op `name`; `tf` runs TF on a case's kwargs.
    moves_bits: the op only moves elements (no arithmetic on them), so where TF has no kernel for
    a dtype (int4, float8, quantized) the case is run by TF on an integer carrier of the same
    width and the bits compared (carrier())."""
    def register(gen):
        OPS[name] = Spec(name, tf, gen, tf_name, moves_bits)
        return gen
    return register


class Gen:
    """Random inputs from one seeded generator."""

    def __init__(self, seed, name):
        self.rng = np.random.default_rng([seed, zlib.crc32(name.encode())])

    def choice(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def shape(self, rank=None, max_dim=4, zero=0.1):
        """A random shape of `rank` (0-6 when None), a dim 0 with probability `zero` each."""
        if rank is None:
            rank = int(self.rng.integers(0, 7))
        return tuple(0 if self.rng.random() < zero else int(self.rng.integers(1, max_dim + 1))
                     for _ in range(rank))

    def array(self, dtype, shape, kind="bits"):
        """An array of `dtype`: kind "bits" draws every bit pattern (NaN payloads, infinities,
        subnormals), "small" small values (exact in every dtype), "index" small ints."""
        shape = tuple(shape)
        n = int(np.prod(shape, dtype=np.int64))
        dt = np_dtype(dtype)
        if dtype == "string":
            a = np.empty(n, dtype=object)
            for i in range(n):
                a[i] = self.rng.bytes(int(self.rng.integers(0, 24)))
            return a.reshape(shape)
        if dtype == "bool":
            return (self.rng.integers(0, 2, n) == 1).reshape(shape)
        if dtype == "float4_e2m1fn" and kind != "small":  # every 4-bit code, upper bits zero
            return self.rng.integers(0, 16, n, dtype=np.uint8).view(dt).reshape(shape)
        if kind == "small" or dtype in INT4 + INT2:
            lo, hi = (0, 8) if dtype in ("uint4",) or dtype.startswith("u") or dtype.startswith("qu") \
                else (-8, 8)
            lo, hi = {"int2": (-2, 2), "uint2": (0, 4), "float4_e2m1fn": (-4, 5)}.get(dtype,
                                                                                     (lo, hi))
            v = self.rng.integers(lo, hi, n)
            if dtype in COMPLEX:
                return (v + 1j * self.rng.integers(-8, 8, n)).astype(dt).reshape(shape)
            if dtype in QUANTIZED:
                return v.astype(dt.fields[dtype][0]).view(dt).reshape(shape)
            return v.astype(dt).reshape(shape)
        bits = self.rng.integers(0, 2**63, n * max(1, dt.itemsize // 8), dtype=np.uint64,
                                 endpoint=True) if dt.itemsize >= 8 else \
            self.rng.integers(0, 2**(8 * dt.itemsize), n, dtype=_BITS[dt.itemsize])
        return np.frombuffer(bits.tobytes()[:n * dt.itemsize], dt).reshape(shape).copy()

    def ints(self, lo, hi, size=None, dtype="int32"):
        return self.rng.integers(lo, hi, size, endpoint=True).astype(dtype)


def string_array(items, shape=None):
    """A string tensor of `items` (bytes) as tensorx's package takes it: an object array, each
    element kept as given (trailing NULs included)."""
    a = np.empty(len(items), dtype=object)
    for i, s in enumerate(items):
        a[i] = s
    return a.reshape(shape if shape is not None else (len(items),))


# ---- running --------------------------------------------------------------------------------------
@dataclasses.dataclass
class Out:
    dtype: str
    shape: tuple
    data: object  # bytes, or a list of bytes for strings

    @staticmethod
    def of_numpy(a, dtype):
        a = np.asarray(a)
        if dtype == "string":
            return Out(dtype, a.shape, [bytes(e) if not isinstance(e, str) else e.encode()
                                        for e in a.ravel().tolist()])
        return Out(dtype, a.shape, np.ascontiguousarray(a).tobytes())


def to_tf(a):
    """A tf.Tensor of the bits of tensorx's array `a`."""
    if isinstance(a, list):
        return [to_tf(e) for e in a]
    name = dtype_of(a)
    if name in QUANTIZED:  # structured in tensorx's package: through its integer type
        base = a.view(a.dtype.fields[name][0])
        return tf.bitcast(tf.constant(base), TF_DTYPES[name]) if base.size else \
            tf.zeros(base.shape, TF_DTYPES[name])
    if name == "string":
        return tf.constant(a, tf.string) if a.size else tf.zeros(a.shape, tf.string)
    return tf.constant(a, TF_DTYPES[name])


def of_tf(t):
    name = TF_NAMES[t.dtype]
    v = t.numpy()
    if name == "string" and t.shape.rank == 0:
        v = np.array(v, dtype=object)  # a scalar comes back as bytes: as 'S' it would lose its trailing NULs
    return Out.of_numpy(v, name)


TF_ERRORS = [(tf.errors.InvalidArgumentError, "invalid_argument"),
             (tf.errors.OutOfRangeError, "out_of_range"),
             (tf.errors.UnimplementedError, "unimplemented"),
             (tf.errors.NotFoundError, "unimplemented"),  # no kernel registered for the dtype
             (tf.errors.ResourceExhaustedError, "resource_exhausted")]
TX_ERRORS = [(tx.InvalidArgumentError, "invalid_argument"), (tx.OutOfRangeError, "out_of_range"),
             (tx.UnimplementedError, "unimplemented"),
             (tx.ResourceExhaustedError, "resource_exhausted")]


def _category(e, table):
    if re.search(r"Value for attr '\w+' of [a-z0-9_]+ is not in the list of allowed values",
                 str(e)):
        # eager TF's InvalidArgumentError for a dtype its op definition does not list (TypeError
        # in graph mode): "a dtype the operation does not take", unimplemented in tensorx's terms.
        # (A string attribute's value is quoted there, "NCHX": a bad value, invalid_argument.)
        return "unimplemented"
    for cls, cat in table:
        if isinstance(e, cls):
            return cat
    if isinstance(e, TypeError) and ("DataType" in str(e) or "allowed values" in str(e)):
        return "unimplemented"  # TF's op definition does not list the dtype
    if isinstance(e, (ValueError, TypeError)):
        return "invalid_argument"  # TF's Python-level shape and argument checks
    return None


def run_tf(spec, case):
    kwargs = {k: to_tf(v) for k, v in case.inputs.items()}
    kwargs.update(case.attrs)
    try:
        with tf.device("/CPU:0"):
            r = spec.tf(**kwargs)
            outs = r if isinstance(r, (list, tuple)) else [r]
            return ("ok", [of_tf(t) for t in outs])
    except Exception as e:  # noqa: BLE001 (every error is an outcome; unknown ones are reported)
        cat = _category(e, TF_ERRORS)
        return ("error", cat or "unknown:" + type(e).__name__, _first_line(e), type(e).__name__)


def no_kernel(outcome):
    """Whether TF's outcome is "no CPU kernel registered for these dtypes" (the op exists)."""
    return outcome[0] == "error" and (outcome[3] == "NotFoundError" or
                                      "Could not find device for node" in outcome[2] or
                                      "No registered" in outcome[2] or
                                      "not registered" in outcome[2])


# The dtypes TF 2.21 registers few CPU kernels for, and the integer type of each one's width whose
# kernels move the same bits (int4 is stored a value a byte, as int8 holds it).
CARRIERS = {"int4": np.int8, "uint4": np.uint8, "float8_e5m2": np.uint8, "float8_e4m3fn": np.uint8,
            "qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16,
            "qint32": np.int32, "int2": np.int8, "uint2": np.uint8,
            **{f: np.uint8 for f in LOWBIT_FLOATS}}


def _carried(v):
    if isinstance(v, list):
        return [_carried(e) for e in v]
    name = dtype_of(v)
    return v.view(CARRIERS[name]) if name in CARRIERS else v


def carrier(spec, case, got):
    """For an op that moves bits, TF's outcome on the case's inputs viewed as their carriers, with
    each output's dtype named as tensorx's (None when no input has a carried dtype)."""
    if not spec.moves_bits or got[0] != "ok":
        return None
    if not any(dtype_of(e) in CARRIERS for v in case.inputs.values()
               for e in (v if isinstance(v, list) else [v])):
        return None
    want = run_tf(spec, dataclasses.replace(case, inputs={k: _carried(v)
                                                          for k, v in case.inputs.items()}))
    if want[0] != "ok" or len(want[1]) != len(got[1]):
        return want
    return ("ok", [dataclasses.replace(w, dtype=g.dtype) if np_dtype(g.dtype).itemsize ==
                   np_dtype(w.dtype).itemsize else w for w, g in zip(want[1], got[1])])


def run_tx(name, case):
    try:
        r = tx.OPS[name](**case.inputs, **case.attrs)
    except Exception as e:  # noqa: BLE001
        cat = _category(e, TX_ERRORS)
        return ("error", cat or "unknown:" + type(e).__name__, _first_line(e), type(e).__name__)
    outs = list(r) if isinstance(r, (list, tuple)) else [r]
    return ("ok", [Out.of_numpy(a, dtype_of(a)) for a in outs])


def _first_line(e):
    text = str(e).split("\n")[0]
    return text.split("}} ", 1)[-1][:300]  # TF's messages start with the function node's name


def _nan_positions(out):
    dt = np_dtype(out.dtype)
    if dt.kind not in "fcV" and out.dtype not in FLOATS + FLOAT8 + LOWBIT_FLOATS:
        return None
    a = np.frombuffer(out.data, dt)
    if dt.kind == "c":
        a = a.view(np.float32 if dt.itemsize == 8 else np.float64)
    return np.isnan(a.astype(np.float64) if a.dtype.kind != "f" else a)


def agree(case, want, got):
    """None when outcomes agree, else what differs (one line)."""
    if want[0] == "error" or got[0] == "error":
        if want[0] == got[0] == "error":
            return None if want[1] == got[1] else f"error category: TF {want[1]}, tensorx {got[1]}"
        if want[0] == "error":
            return f"TF fails ({want[1]}: {want[2]}), tensorx succeeds"
        return f"tensorx fails ({got[1]}: {got[2]}), TF succeeds"
    w, g = want[1], got[1]
    if len(w) != len(g):
        return f"{len(g)} outputs, TF {len(w)}"
    for i, (a, b) in enumerate(zip(w, g)):
        if a.dtype != b.dtype:
            return f"output {i}: dtype {b.dtype}, TF {a.dtype}"
        if tuple(a.shape) != tuple(b.shape):
            return f"output {i}: shape {tuple(b.shape)}, TF {tuple(a.shape)}"
        if a.data == b.data:
            continue
        if case.nan == "any" and a.dtype != "string":
            na, nb = _nan_positions(a), _nan_positions(b)
            if na is not None and np.array_equal(na, nb):
                dt = np_dtype(a.dtype)
                x, y = np.frombuffer(a.data, dt), np.frombuffer(b.data, dt)
                if dt.kind == "c":
                    x = x.view(np.float32 if dt.itemsize == 8 else np.float64)
                    y = y.view(x.dtype)
                if np.array_equal(x.view(_BITS[x.dtype.itemsize])[~na],
                                  y.view(_BITS[y.dtype.itemsize])[~nb]):
                    continue
        return f"output {i}: {_first_difference(a, b)}"
    return None


def _first_difference(want, got):
    if want.dtype == "string":
        k = next(i for i, (x, y) in enumerate(zip(want.data, got.data)) if x != y)
        return f"element {k}: {got.data[k]!r}, TF {want.data[k]!r}"
    dt = np_dtype(want.dtype)
    x, y = np.frombuffer(want.data, dt), np.frombuffer(got.data, dt)
    k = next(i for i in range(len(x)) if x[i:i + 1].tobytes() != y[i:i + 1].tobytes())
    return (f"element {k}: {y[k]!r} (0x{y[k:k + 1].tobytes()[::-1].hex()}), "
            f"TF {x[k]!r} (0x{x[k:k + 1].tobytes()[::-1].hex()})")


# ---- deliberate differences ----------------------------------------------------------------------
# Each entry: (op, test(case, tf_outcome, tx_outcome) -> bool, the row of docs/tensorflow.md it is).
# A case an entry matches is counted as documented, not as a difference, and is not recorded.
DIFFERENCES = []


def difference(op_name, row):
    """Registers a deliberate difference: `test(case, want, got)` says whether a case shows it."""
    def register(test):
        DIFFERENCES.append((op_name, test, row))
        return test
    return register


BEYOND_TF_ROW = ("every op: where TF 2.21 registers no CPU kernel for one of the inputs' dtypes "
                 "(int4, uint4, float8_e5m2, float8_e4m3fn and the quantized types in most ops; "
                 "float8_e4m3fnuz, float8_e4m3b11fnuz, float8_e5m2fnuz, int2, uint2 and "
                 "float4_e2m1fn, DataType 26-28 and 31-33, in every op but Reshape and the ops "
                 "that keep the buffer (expand_dims, squeeze, shape...): NotFoundError), or its op "
                 "definition does not list it, or TF's Python fails in a Cast of it inside the op "
                 "(meshgrid; one_hot's values and sequence_mask's lengths of int2 / uint2), "
                 "tensorx runs the op as for any dtype; where the op only moves elements, its "
                 "bytes are checked against TF's on the inputs viewed as integers of the same "
                 "width, and one_hot and sequence_mask against TF's on the int2 / uint2 values "
                 "held in int8 / uint8")


@difference("*", BEYOND_TF_ROW)
def _beyond_tf_kernels(case, want, got):
    """TF 2.21 registers no CPU kernel of the op for one of the case's dtypes (int4, float8, the
    quantized types in most ops; the low-bit types of DataType 26-28 and 31-33 in almost all):
    tensorx runs it (checked against TF on carriers where the op moves bits) or refuses it for
    another reason, as for any dtype."""
    return no_kernel(want)


def differences_table():
    """The table of docs/tensorflow.md, from the registered rows (test_frame.py checks that the page
    holds it)."""
    ops = {}
    for op_name, _, row in DIFFERENCES:
        ops.setdefault(row, set()).add("(all)" if op_name == "*" else op_name)
    rows = sorted(ops.items(), key=lambda r: ("(all)" not in r[1], sorted(r[1]), r[0]))
    lines = ["| ops | TensorFlow 2.21, tensorx, and why |", "|---|---|"]
    lines += [f"| {'(all)' if '(all)' in o else ', '.join(sorted(o))} | {r.replace('|', '/')} |"
              for r, o in rows]
    return "\n".join(lines) + "\n"


def documented(name, case, want, got):
    for op_name, test, row in DIFFERENCES:
        if op_name in (name, "*") and test(case, want, got):
            return row
    return None


# ---- the run --------------------------------------------------------------------------------------
def load_families():
    sys.path.insert(0, HERE)
    for fam in FAMILIES:
        if os.path.exists(os.path.join(HERE, fam + ".py")):
            importlib.import_module(fam)


def cases(name, seed, count):
    out = []
    for c in OPS[name].gen(Gen(seed, name)):
        out.append(c)
        if len(out) >= count:
            break
    return out


def describe(a):
    if isinstance(a, list):
        return "[" + ", ".join(describe(e) for e in a) + "]"
    name = dtype_of(a)
    if a.size <= 8:
        vals = [bytes(e) for e in a.ravel()] if name == "string" else \
            a.ravel().view(np.uint8 if a.dtype.itemsize == 1 else _BITS[a.dtype.itemsize]
                           if a.dtype.kind != "c" else np.uint8).tolist()
        return f"{name}{list(a.shape)}{vals}" if name == "string" else \
            f"{name}{list(a.shape)} bits {vals}"
    return f"{name}{list(a.shape)}"


def reproducer(name, seed, index, case):
    args = ", ".join([f"{k}={describe(v)}" for k, v in case.inputs.items()] +
                     [f"{k}={v!r}" for k, v in case.attrs.items()])
    return (f"python3 tests/tf/oracle.py --op {name} --seed {seed} --case {index}   "
            f"# {name}({args})")


def check(name, seed, count, verbose=False):
    """Runs `count` cases of `name`; returns (ran, differences, documented) and prints each
    difference with its reproducer."""
    spec, ran, diffs, docd = OPS[name], 0, [], 0
    for i, case in enumerate(cases(name, seed, count)):
        want, got = run_tf(spec, case), run_tx(name, case)
        ran += 1
        if no_kernel(want):  # a dtype TF has no kernel for: compared through its carrier
            want = carrier(spec, case, got) or want
        why = agree(case, want, got)
        if why is None:
            if verbose:
                print(f"ok {name} #{i} {want[0]}{' ' + want[1] if want[0] == 'error' else ''}")
            continue
        row = documented(name, case, want, got)
        if row:
            docd += 1
            continue
        diffs.append(why)
        print(f"DIFF {name} #{i}: {why}\n  {reproducer(name, seed, i, case)}", flush=True)
    return ran, diffs, docd


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cases", type=int, default=200, help="cases per op")
    p.add_argument("--op", action="append", help="an op (repeatable); default every op")
    p.add_argument("--case", type=int, help="run this one case of --op (a reproducer)")
    p.add_argument("-v", "--verbose", action="store_true")
    p.add_argument("--differences", action="store_true",
                   help="print the table of deliberate differences (docs/tensorflow.md)")
    a = p.parse_args(argv)
    load_families()
    if a.differences:
        print(differences_table(), end="")
        return 0
    names = a.op or sorted(OPS)
    unknown = [n for n in names if n not in OPS]
    if unknown:
        p.error(f"no oracle for {unknown}; known: {sorted(OPS)}")
    if a.case is not None:
        case = cases(names[0], a.seed, a.case + 1)[a.case]
        print(reproducer(names[0], a.seed, a.case, case))
        for k, v in list(case.inputs.items()) + list(case.attrs.items()):
            print(f"  {k} = {v!r}")
        print("  TF:", run_tf(OPS[names[0]], case))
        print("  tensorx:", run_tx(names[0], case))
        return 0
    total = [0, 0, 0]
    print(f"TensorFlow {tf.__version__}, tensorx {tx.__version__}, NumPy {np.__version__}, "
          f"seed {a.seed}, {a.cases} cases per op")
    for name in names:
        ran, diffs, docd = check(name, a.seed, a.cases, a.verbose)
        print(f"{name}: {ran} cases, {len(diffs)} differences, {docd} documented", flush=True)
        total = [total[0] + ran, total[1] + len(diffs), total[2] + docd]
    print(f"{len(names)} ops: {total[0]} cases, {total[1]} differences, {total[2]} documented")
    return 1 if total[1] else 0


if __name__ == "__main__":  # the families register into the module `oracle`, not into __main__
    sys.path.insert(0, HERE)
    import oracle
    sys.exit(oracle.main())
