# SPDX-License-Identifier: Apache-2.0
"""fuzz_python: the Python extension's argument conversion, under atheris (libFuzzer for Python).

Each input is decoded (by the byte reader of fuzz_python_values.py beside this file, not by atheris,
so that a corpus replays without atheris) into one call of an op of tensorx's op table, through the
package's generated function (the values: fuzz_python_values.py; the misbehaving objects:
fuzz_python_objects.py):

  byte 0 % 4 == 0  an example call (python/tests/examples.py: one per op) with each argument kept
                   or mutated: converted to an ndarray of another dtype or layout (strided,
                   Fortran order, negative strides, byte-swapped, misaligned, read-only, zero
                   strides, a subclass, a masked array), to a tuple, generator or misbehaving
                   sequence, wrapped (__array__, __array_interface__, __dlpack__, memoryview,
                   bytearray), edged (int32/int64 limits and one past them, NaN), or replaced by a
                   fresh value of the parameter's kind or one of another kind;
  byte 0 % 4 in (1, 2)  every parameter of the op generated from its kind (tensor, tensor list,
                   int, bool, string, dtype, int list): ndarrays of every NumPy dtype (and odd ones:
                   datetime, void, structured, 'U', 'S', object, the bfloat16 convention),
                   Python scalars and nested (ragged) lists, buffers (bytes, bytearray,
                   memoryview, array.array), dtype names, spellings and objects, and objects whose
                   __index__, __len__, __iter__, __getitem__, __array__, __dlpack__ or ``name``
                   misbehave: raise, lie, return the wrong type, or empty the list that holds them;
  byte 0 % 4 == 3  the helpers: dtype_name, to_dlpack / from_dlpack / dlpack round trips.

A call is first sized with tensorx.plan (the same arguments, built again from the same bytes) and
run only when its outputs fit in 32 MiB.  What a call may do: return, or raise tensorx.Error
(not InternalError: that is a safety net catching what validation missed), TypeError, ValueError
(UnicodeError included), OverflowError -- docs/python.md's "Errors" -- or the harness's own
HarnessError raised by a misbehaving object, passed through (BufferError too where a DLPack
producer of the harness's is in the call).  Anything else (SystemError, KeyError, a crash, an
ASan or UBSan report) is a finding; so is a plan that disagrees with the run (a different
exception or message, or a different output count, dtype or shape where the plan is exact).
Each output is read whole (every byte; every element of a string output must be bytes) after
the arguments were dropped.

  python fuzz/fuzz_python.py [libFuzzer flags] [CORPUS...]  atheris (scripts/fuzz-python.sh)
  python fuzz/fuzz_python.py --replay FILE_OR_DIR...         no atheris: run each input once
  python fuzz/fuzz_python.py --make-seeds DIR                write the seed corpus
                                                             (fuzz/corpora/python/)
FZ_VERBOSE=1 prints each call.
"""
import copy
import os
import re
import sys
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the harness's own modules, however this file is loaded
try:
    import fuzz_python_values
    from fuzz_python_objects import DLPack, HarnessError
    from fuzz_python_values import (KIND_GEN, Ctx, Reader, gen_dtype, gen_ndarray, gen_other_kind,
                                    mutate)
finally:
    sys.path.pop(0)

ROOT = HERE.parent
VERBOSE = bool(os.environ.get("FZ_VERBOSE"))
MAX_OUTPUT_BYTES = 32 << 20

tx = None  # imported by _import_tensorx (under atheris' instrumentation when fuzzing)
EXAMPLES = None


def _import_tensorx(instrument=None):
    global tx, EXAMPLES
    if instrument is not None:
        with instrument():
            import tensorx
    else:
        import tensorx
    tx = tensorx
    sys.path.insert(0, str(ROOT / "python" / "tests"))
    try:
        import examples
    finally:
        sys.path.pop(0)
    EXAMPLES = examples.EXAMPLES
    _init_tables()


class Finding(AssertionError):
    """What the fuzzer reports."""


OPS = []  # (name, function, params) in table order
_TUPLES = {}
_LISTS = set()


def _init_tables():
    global OPS, _TUPLES, _LISTS
    fuzz_python_values.tx = tx
    fuzz_python_values.TX_NAMES = [n for n in (tx._C.dtype_name(c) for c in range(64))
                                   if n != "invalid"]
    OPS = [(name, tx.OPS[name], params) for name, _summary, params in tx._C.ops()]
    _TUPLES = {name: len(cls._fields) for name, cls in getattr(tx, "_TUPLES", {}).items()}
    _LISTS = set(getattr(tx, "_LISTS", ()))


# ---- building a call -------------------------------------------------------------------------
def build_call(data):
    """(description, function, args, kwargs, ctx) from the input, or None for a helper input."""
    r = Reader(data)
    ctx = Ctx()
    mode = r.byte() % 4
    if mode == 3:
        return None
    if mode == 0:
        name, args, kwargs = EXAMPLES[r.below(len(EXAMPLES))]
        fn = tx.OPS[name]
        params = next(p for n, _f, p in OPS if n == name)
        kinds = {p[0]: p[1] for p in params}
        order = [p[0] for p in params]
        args, kwargs = copy.deepcopy((list(args), dict(kwargs)))
        args = [mutate(r, ctx, v, kinds[order[k]]) for k, v in enumerate(args)]
        kwargs = {k: mutate(r, ctx, v, kinds[k]) for k, v in kwargs.items()}
        extra = r.below(8)
        if extra == 5:  # one more keyword: a parameter not given yet
            free = [p for p in order[len(args):] if p not in kwargs]
            if free:
                p = r.choice(free)
                kwargs[p] = KIND_GEN[kinds[p]](r, ctx)
        elif extra == 6 and kwargs:  # drop one keyword
            kwargs.pop(r.choice(sorted(kwargs)))
        elif extra == 7:
            kwargs["no_such_parameter"] = 1
        return name, fn, args, kwargs, ctx
    name, fn, params = OPS[r.below(len(OPS))]
    shape = r.byte()
    args, kwargs = [], {}
    names = list(_signature_names(fn))
    for k, (pname, kind, default, _help, _empty) in enumerate(params):
        presence = r.below(8)
        required = default is None
        if not required and presence < 4:
            continue  # the default
        if required and presence == 7 and r.chance(4):
            continue  # left out: TypeError
        v = KIND_GEN[kind](r, ctx) if presence != 6 else gen_other_kind(r, ctx)
        if required and not kwargs and not shape & 1:
            args.append(v)
        else:
            kwargs[names[k]] = v
    if shape & 6 == 6:
        kwargs["no_such_parameter"] = 0
    if shape & 0x18 == 0x18 and args:  # the first argument both ways: TypeError
        kwargs[names[0]] = args[0]
    return name, fn, args, kwargs, ctx


def _signature_names(fn):
    import inspect
    return list(inspect.signature(fn).parameters)


# ---- running and checking --------------------------------------------------------------------
# Findings already reported and not yet fixed, by name: FZ_PYTHON_KNOWN=name,name (or "all") lets a
# long run go on past them (each is counted in the log's last line instead).  Off by default: the
# replay test and a plain run stop on them.
KNOWN = {
    # name: a test of the exception, e.g. lambda e: isinstance(e, BufferError) and "..." in str(e).
    # Fixed and removed (stop 44): memoryview-list, strided-memoryview, intlist-tolist,
    # dtype-syntax (python/tests/test_errors.py and test_arrays.py keep their reproducers).
}


def _frames(e):
    """The names of the functions an exception passed through."""
    names, tb = [], e.__traceback__
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    return names
_known_on = {k for k in os.environ.get("FZ_PYTHON_KNOWN", "").split(",") if k}
if "all" in _known_on:
    _known_on = set(KNOWN)
KNOWN_SEEN = {}


def _known(e):
    for k in _known_on:
        if k in KNOWN and KNOWN[k](e):
            KNOWN_SEEN[k] = KNOWN_SEEN.get(k, 0) + 1
            return True
    return False


def _allowed(e, ctx):
    if isinstance(e, tx.InternalError):
        return False
    if isinstance(e, (tx.Error, TypeError, ValueError, OverflowError, HarnessError)):
        return True
    return any(isinstance(e, t) for t in ctx.allow) or _known(e)


def _outputs(name, result):
    if name in _TUPLES:
        if not isinstance(result, tuple) or len(result) != _TUPLES[name]:
            raise Finding(f"{name}: result {type(result).__name__} is not its named tuple")
        return list(result)
    if name in _LISTS:
        if type(result) is not list:
            raise Finding(f"{name}: result {type(result).__name__} is not a list")
        return result
    return [result]


def _read_whole(name, k, o):
    if type(o) is not np.ndarray:
        raise Finding(f"{name}: output {k} is a {type(o).__name__}, not an ndarray")
    if o.dtype == object:
        for e in o.reshape(-1):
            if type(e) is not bytes:
                raise Finding(f"{name}: string output {k} holds a {type(e).__name__}")
            len(e)
    elif o.dtype.kind == "T":  # NumPy 2's StringDType (an input's, or set_string_dtype's)
        na = getattr(o.dtype, "na_object", None)
        for e in o.reshape(-1).tolist():
            if type(e) is not str and not (hasattr(o.dtype, "na_object") and e is na):
                raise Finding(f"{name}: StringDType output {k} holds a {type(e).__name__}")
    else:
        o.tobytes()
        if o.size and o.dtype.kind in "biufc":
            with np.errstate(all="ignore"):
                o.astype(np.float64 if o.dtype.kind != "c" else np.complex128).sum()
    return o


def _message(e, name):
    """An exception's message without what differs between two builds of the same arguments:
    object addresses, and the name of the planner (plan_<op>) in Python's own messages."""
    return re.sub(r"0x[0-9a-fA-F]+", "0x?", str(e).replace(f"plan_{name}(", f"{name}("))


def _call(fn, args, kwargs):
    try:
        return fn(*args, **kwargs), None
    except BaseException as e:  # noqa: B036 -- classified by the caller
        return None, e


def _describe(v):
    s = repr(v)
    return s if len(s) < 300 else s[:300] + "..."


def run_op(data):
    built = build_call(data)
    if built is None:
        return run_helpers(data)
    name, fn, args, kwargs, ctx = built
    if VERBOSE:
        print(f"fuzz_python: {name}(" + ", ".join([_describe(a) for a in args] + [
            f"{k}={_describe(v)}" for k, v in kwargs.items()]) + ")", file=sys.stderr)
    _, _, pargs, pkwargs, _ = build_call(data)  # the same call, built again for plan
    infos, perr = _call(tx.plan, [fn] + pargs, pkwargs)
    del pargs, pkwargs
    if perr is not None and not _allowed(perr, ctx):
        raise Finding(f"plan({name}): {type(perr).__name__}: {perr}") from perr
    if infos is not None:
        if type(infos) is not list or not all(isinstance(i, tx.OutputInfo) for i in infos):
            raise Finding(f"plan({name}) returned {infos!r}")
        total = sum(max(i.nbytes, 0) + max(i.string_bytes, 0) for i in infos)
        if total > MAX_OUTPUT_BYTES:
            return "big"
    result, err = _call(fn, args, kwargs)
    del args, kwargs, built
    if err is not None:
        if not _allowed(err, ctx):
            raise Finding(f"{name}: {type(err).__name__}: {err}") from err
        if perr is not None and (type(perr) is not type(err) or
                                 _message(perr, name) != _message(err, name)):
            raise Finding(f"{name}: plan raised {type(perr).__name__}: {perr} but the run "
                          f"{type(err).__name__}: {err}")
        return "error"
    if perr is not None:
        raise Finding(f"{name}: plan raised {type(perr).__name__}: {perr}, the run succeeded")
    outs = _outputs(name, result)
    del result
    if len(outs) != len(infos):
        raise Finding(f"{name}: {len(outs)} outputs, the plan said {len(infos)}")
    for k, (o, info) in enumerate(zip(outs, infos)):
        _read_whole(name, k, o)
        if info.data_dependent or info.upper_bound:
            continue
        if tuple(o.shape) != tuple(info.shape):
            raise Finding(f"{name}: output {k} has shape {o.shape}, the plan said {info.shape}")
        got = tx.dtype_name(o.dtype)
        if got != info.dtype:
            raise Finding(f"{name}: output {k} is {got}, the plan said {info.dtype}")
    return "ok"


def run_helpers(data):
    r = Reader(data)
    r.byte()
    ctx = Ctx()
    k = r.below(4)
    if k == 0:
        d = gen_dtype(r, ctx)
        try:
            name = tx.dtype_name(d)
        except BaseException as e:
            if not isinstance(e, (TypeError, ValueError, HarnessError)) and not _known(e):
                raise Finding(f"dtype_name({d!r}): {type(e).__name__}: {e}") from e
            return "error"
        if not isinstance(name, str):
            raise Finding(f"dtype_name({d!r}) returned {name!r}")
        return "ok"
    a = gen_ndarray(r, ctx)
    max_version = r.choice([(1, 0), None, (0, 8), (2, 0)])
    copy_ = r.choice([None, True, False])
    try:
        if k == 1:
            cap = tx.to_dlpack(a, max_version=max_version, copy=copy_)
            b = tx.from_dlpack(cap)
        elif k == 2:
            b = tx.from_dlpack(tx.dlpack(a))
        else:  # (np.ascontiguousarray makes a 0-d array 1-d on NumPy < 2)
            a = np.ascontiguousarray(a)
            b = tx.from_dlpack(DLPack(a, r.below(6)))
    except BaseException as e:
        if (not isinstance(e, (tx.Error, TypeError, ValueError, BufferError, HarnessError))
                and not _known(e)) or isinstance(e, tx.InternalError):
            raise Finding(f"dlpack round trip of {a.dtype} {a.shape}: {type(e).__name__}: "
                          f"{e}") from e
        return "error"
    ref = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("="))
    if b.shape != a.shape or b.tobytes() != ref.tobytes():
        if a.dtype.kind != "b":  # bools other than 0/1 may be normalised
            raise Finding(f"dlpack round trip of {a.dtype} {a.shape} changed the array")
    return "ok"


CALLS = {"n": 0}


def TestOneInput(data):
    CALLS["n"] += 1
    if CALLS["n"] % 50000 == 0:
        print(f"fuzz_python: {CALLS['n']} calls; known findings met: {KNOWN_SEEN or 'none'}",
              file=sys.stderr, flush=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return run_op(data)


# ---- seeds, replay, main ---------------------------------------------------------------------
def seeds():
    """The seed corpus: every example call as it is, every op with its parameters generated
    plainly (a zero byte stream picks the plainest value of each kind), and a few helpers."""
    out = {}
    for k, (name, _a, _kw) in enumerate(EXAMPLES):
        out[f"example-{k:02d}-{name}"] = bytes([0, k])
    for k, (name, _f, params) in enumerate(OPS):
        out[f"gen-{name}"] = bytes([1, k])
        # every parameter present, as an ndarray / the first word / dtype name
        out[f"gen-{name}-all"] = bytes([1, k, 0] + [4, 0, 0, 0] * len(params))
    for k in range(4):
        out[f"helper-{k}"] = bytes([3, k])
    return out


def replay(paths):
    files = []
    for p in map(Path, paths):
        files += sorted(f for f in p.rglob("*") if f.is_file()) if p.is_dir() else [p]
    counts = {}
    for f in files:
        what = TestOneInput(f.read_bytes())
        counts[what] = counts.get(what, 0) + 1
    print(f"fuzz_python: replayed {len(files)} inputs: " +
          ", ".join(f"{n} {w}" for w, n in sorted(counts.items())))


def main(argv):
    if len(argv) > 1 and argv[1] == "--replay":
        _import_tensorx()
        replay(argv[2:])
        return 0
    if len(argv) > 1 and argv[1] == "--make-seeds":
        _import_tensorx()
        d = Path(argv[2])
        d.mkdir(parents=True, exist_ok=True)
        for n, b in seeds().items():
            (d / n).write_bytes(b)
        print(f"fuzz_python: wrote {len(seeds())} seeds to {d}")
        return 0
    import atheris

    # tensorx's Python layer instrumented too (its converters), not NumPy (imported above)
    _import_tensorx(lambda: atheris.instrument_imports(include=["tensorx"]))
    atheris.Setup(argv, TestOneInput)
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
