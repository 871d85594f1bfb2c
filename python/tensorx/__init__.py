# SPDX-License-Identifier: Apache-2.0
"""tensorx: TensorFlow's tensor transformations, bit for bit, on NumPy arrays.

Every op of tensorx's op table (the one the `tensorx` CLI and the conformance runner use) is a
function here, with TensorFlow's parameter names and defaults: ``tensorx.cast(x, "float16")``,
``tensorx.strided_slice(x, begin, end, strides, begin_mask=0, ...)``.  Tensors are NumPy arrays
(C-contiguous ones are used without a copy), Python scalars and lists, ``bytes``/``str`` (string
scalars) or objects with ``__dlpack__``; results are NumPy arrays over tensorx's buffers, without a
copy.  Errors raise tensorx.Error subclasses carrying tensorx's message.  The GIL is released while
an op runs.  See docs/python.md.
"""
import collections
import keyword
import numbers

import numpy as np

from . import _tensorx as _C

__version__ = _C.version()


# ---- errors ---------------------------------------------------------------------------------
class Error(Exception):
    """A tensorx status other than OK; the message is tensorx's."""
    status = None


class InvalidArgumentError(Error, ValueError):
    status = "invalid_argument"


class OutOfRangeError(Error, IndexError):
    status = "out_of_range"


class ResourceExhaustedError(Error, MemoryError):
    status = "resource_exhausted"


class UnimplementedError(Error, NotImplementedError):
    status = "unimplemented"


class InternalError(Error, RuntimeError):
    status = "internal"


_ERRORS = {3: InvalidArgumentError, 8: ResourceExhaustedError, 11: OutOfRangeError,
           12: UnimplementedError, 13: InternalError}


# ---- dtypes ---------------------------------------------------------------------------------
_ABSENT = type("_Absent", (), {"__repr__": lambda self: "<default>"})()
_DTYPE_NAMES = {c: _C.dtype_name(c) for c in range(64) if _C.dtype_name(c) != "invalid"}
_CODES = {name: code for code, name in _DTYPE_NAMES.items()}
# dtypes NumPy lacks, with their storage: ml_dtypes' dtypes when it is importable, else tensorx's
# .npy convention, a one-field structured dtype named after the dtype ([('bfloat16', '<u2')]).
_STORAGE = {"bfloat16": np.uint16, "float8_e5m2": np.uint8, "float8_e4m3fn": np.uint8,
            "int4": np.int8, "uint4": np.uint8, "qint8": np.int8, "quint8": np.uint8,
            "qint16": np.int16, "quint16": np.uint16, "qint32": np.int32}
try:
    import ml_dtypes as _ml
except ImportError:  # ml_dtypes is optional
    _ml = None


def _numpy_dtype(name):
    if name in _STORAGE:
        if _ml is not None and hasattr(_ml, name):
            return np.dtype(getattr(_ml, name))
        return np.dtype([(name, _STORAGE[name])])
    if name == "string":
        return np.dtype(object)
    return np.dtype(name)


_OUT = [None] * (max(_DTYPE_NAMES) + 1)
_IN = {}
for _code, _name in _DTYPE_NAMES.items():
    _OUT[_code] = _numpy_dtype(_name)
    if _name in _STORAGE:
        _IN[np.dtype([(_name, _STORAGE[_name])])] = _code
        if _ml is not None and hasattr(_ml, _name):
            _IN[np.dtype(getattr(_ml, _name))] = _code


_DTYPE_CACHE = {}  # NumPy dtypes and types already named: np.dtype() of a type costs ~1 us


def dtype_name(dtype):
    """tensorx's name of a dtype given as a name ("float16", "half", "tf.float32"), a NumPy dtype
    or type (np.int16, ml_dtypes.bfloat16, the structured convention), or anything with a
    ``name`` (tf.DType).  Raises TypeError for something that is none of these."""
    if isinstance(dtype, str):
        return dtype
    cacheable = isinstance(dtype, (np.dtype, type))
    if cacheable:
        name = _DTYPE_CACHE.get(dtype)
        if name is not None:
            return name
    name = _dtype_name(dtype)
    if cacheable and len(_DTYPE_CACHE) < 256:
        _DTYPE_CACHE[dtype] = name
    return name


def _dtype_name(dtype):
    if isinstance(dtype, bytes):
        return dtype.decode()
    if dtype is str or dtype is bytes or dtype is object:
        return "string"
    try:
        d = np.dtype(dtype)
    except TypeError:
        d = None
    if d is not None:
        if d in _IN:
            return _DTYPE_NAMES[_IN[d]]
        if d.kind in "SUO":
            return "string"
        if d.kind in "biufc" and d.name in _CODES:
            return d.name
        raise TypeError(f"tensorx has no dtype for NumPy's {d!r}")
    name = getattr(dtype, "name", None)
    if isinstance(name, str):
        return name
    raise TypeError(f"not a dtype: {dtype!r}")


# ---- values ---------------------------------------------------------------------------------
_I32 = np.iinfo(np.int32)


def _from_python(v, empty):
    """A NumPy array of Python data with TensorFlow's conversion: int -> int32 (int64 when a value
    needs it), float -> float32, complex -> complex128, bool, bytes/str -> string; [] -> `empty`."""
    if isinstance(v, (bytes, str)):
        a = np.empty((), dtype=object)
        a[()] = v.encode() if isinstance(v, str) else v
        return a
    a = np.asarray(v)
    if a.dtype.kind in "US":  # keep each bytes' trailing NULs, which 'S' would drop
        return _strings(np.array(v, dtype=object))
    if a.dtype == object:
        return a  # bytes/str elements; the extension checks each
    if a.size == 0 and not isinstance(v, np.ndarray):
        return a.astype(empty)
    if a.dtype.kind == "i" and a.dtype.itemsize == 8:
        if a.size == 0 or (a.min() >= _I32.min and a.max() <= _I32.max):
            return a.astype(np.int32)
    elif a.dtype == np.float64:
        return a.astype(np.float32)
    return a


def _strings(a):
    if a.dtype.kind == "U":
        return np.char.encode(a, "utf-8").astype(object) if a.size else a.astype(object)
    return a


def _tensor(v, empty="float32"):
    if type(v) is np.ndarray:
        return _strings(v) if v.dtype.kind == "U" else v
    if isinstance(v, np.ndarray):
        return np.asarray(v)
    if v is None:
        raise TypeError("a tensor argument must not be None")
    if isinstance(v, np.generic):
        return _strings(np.asarray(v))
    if hasattr(v, "__dlpack__") and not isinstance(v, (list, tuple)):
        return from_dlpack(v)
    if hasattr(v, "__array_interface__") or hasattr(v, "__array__"):
        return np.asarray(v)
    return _from_python(v, empty)


def from_dlpack(obj):
    """An ndarray over the memory of `obj`, which has ``__dlpack__`` (a PyTorch tensor, a NumPy
    array, a JAX array on the host, ``tensorx.dlpack(...)``), or over a DLPack capsule.  A DLPack
    1.x producer is asked for a versioned tensor (``max_version=(1, 0)``), which tensorx imports
    (``tx_tensor_from_dlpack_versioned``): the result is read-only when the producer marks its
    memory read-only.  Older producers (NumPy < 2, PyTorch < 2.4) refuse ``max_version``: their
    unversioned tensor is imported by tensorx too (``tx_tensor_from_dlpack``; writable, as such
    producers refuse to export read-only memory), which takes bfloat16 and bool where NumPy
    1.24's ``np.from_dlpack`` fails; a ``__dlpack__`` that returns no capsule falls back to
    ``np.from_dlpack``.  No copy when the memory is row-major and aligned."""
    if type(obj).__name__ == "PyCapsule":
        return _C.from_dlpack_capsule(obj)
    try:
        cap = obj.__dlpack__(max_version=(1, 0))
    except TypeError:  # a producer that predates DLPack 1.0's max_version
        cap = None
    if cap is None:  # (out of the except: the producer's own errors are not chained to it)
        cap = obj.__dlpack__()
    if type(cap).__name__ != "PyCapsule":
        return np.from_dlpack(obj)
    return _C.from_dlpack_capsule(cap)


def to_dlpack(array, *, max_version=(1, 0), copy=None):
    """A DLPack capsule of `array` (an op's result or any ndarray), without a copy when it is
    C-contiguous, aligned and in host byte order.  With ``max_version`` >= (1, 0) (the default)
    the capsule holds DLPack 1.x's versioned tensor (``tx_tensor_to_dlpack_versioned``), flagged
    read-only when `array` is, so read-only results export too; with ``max_version=None`` (or
    below 1.0) it holds the unversioned tensor, which cannot say "read-only": a read-only array
    then raises BufferError unless ``copy=True``.  ``copy``: None (copy only when the layout needs
    it), True (always), False (never: BufferError instead).  Each capsule is consumed once."""
    array = np.asarray(array) if not isinstance(array, np.ndarray) else array
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _C.to_dlpack(array, versioned, copy)


class DLPackArray:
    """`array` as a DLPack producer: ``torch.from_dlpack(tensorx.dlpack(y))``,
    ``np.from_dlpack(tensorx.dlpack(y))``, ``tensorx.from_dlpack(tensorx.dlpack(y))``.  A consumer
    that passes ``max_version`` >= (1, 0) gets a versioned capsule (read-only results included);
    an older one the unversioned capsule (read-only results refused with BufferError).  Results
    are plain ndarrays, whose own ``__dlpack__`` (NumPy's) works for writable ones."""
    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if stream is not None and stream != -1:
            raise BufferError("tensorx: host memory takes no stream")
        if dl_device is not None and tuple(dl_device) != (1, 0):
            raise BufferError(f"tensorx: cannot export to device {dl_device}")
        return to_dlpack(self.array, max_version=max_version, copy=copy)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0

    def __repr__(self):
        return f"tensorx.DLPackArray({self.array!r})"


def dlpack(array):
    """`array` wrapped as a DLPack producer (DLPackArray): it has ``__dlpack__`` and
    ``__dlpack_device__``, so any DLPack consumer takes it, read-only results included when the
    consumer speaks DLPack 1.x."""
    return DLPackArray(array)


def _tensor_list(v):
    if isinstance(v, (np.ndarray, bytes, str)) or not hasattr(v, "__iter__"):
        raise TypeError(f"expected a list of tensors, got {type(v).__name__}")
    return [_tensor(t) for t in v]


def _attr_text(v):
    """A string attribute (pad's constant_values, one_hot's on_value...): text as given; numbers
    in the CLI's spelling."""
    if isinstance(v, (str, bytes)):
        return v
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, numbers.Integral):
        return str(int(v))
    if isinstance(v, numbers.Real):
        return repr(float(v))
    if isinstance(v, np.ndarray) and v.ndim == 0:
        return _attr_text(v[()])
    raise TypeError(f"expected a str or a number, got {type(v).__name__}")


def _int_list(v):
    if isinstance(v, numbers.Integral):
        return (v,)
    if isinstance(v, np.ndarray):
        return v.tolist() if v.ndim else [v.tolist()]
    return v


# Ops that return several tensors: a named tuple of fixed fields, or a list.
_NAMED = {
    "unique_with_counts": ("y", "idx", "count"),
    "string_tensor_unpack": ("begins", "ends", "symbols"),
    "required_space_to_batch_paddings": ("paddings", "crops"),
    "string_tensor_to_ort": ("content", "offsets"),
}
_LISTS = {"split", "unpack", "dynamic_partition", "shape_n", "meshgrid"}
_TUPLES = {name: collections.namedtuple(
    "".join(w.capitalize() for w in name.split("_")), fields) for name, fields in _NAMED.items()}

OutputInfo = collections.namedtuple(
    "OutputInfo", "dtype shape nbytes string_bytes view data_dependent upper_bound")


def _finish(name, outs):
    if name in _TUPLES:
        return _TUPLES[name](*outs)
    if name in _LISTS:
        return list(outs)
    if len(outs) != 1:
        raise InternalError(f"{name}: {len(outs)} outputs where one was expected")
    return outs[0]


def _plan_info(entries):
    return [OutputInfo(d, s, n, sb, bool(f & 1), bool(f & 2), bool(f & 4))
            for d, s, n, sb, f in entries]


# ---- the ops, generated from the op table ----------------------------------------------------
def _default_value(kind, text):
    if text is None:
        return None  # required (no default in the signature)
    if text == "":
        return None  # may be absent: None
    if kind == "int":
        return int(text)
    if kind == "bool":
        return text in ("true", "True", "1")
    if kind == "int_list":
        inner = text.strip("[] ")
        return tuple(int(x) for x in inner.split(",")) if inner else ()
    return text  # string, dtype (tensors have no table defaults)


# The values go to _C.run as given: the extension takes the common forms itself (an ndarray or a
# flat list of ints for a tensor, a str for a string or a dtype, a list or tuple for an int list,
# None for an optional parameter) and calls the converters registered below for the rest.
_C._register(_ABSENT, _ERRORS, _OUT, _IN,
             (_tensor, _tensor_list, _attr_text, dtype_name, _int_list))
OPS = {}
_PLANNERS = {}


def _make(index, name, summary, params):
    names = [p[0] + "_" if keyword.iskeyword(p[0]) else p[0] for p in params]
    env = {"_run": _C.run, "_finish": _finish, "_plan_info": _plan_info, "_A": _ABSENT}
    sig, conv, seen_default = [], [], False
    doc = [summary, "", "Parameters (tensorx's op table; TensorFlow's names):"]
    for k, ((pname, kind, text, help_, empty), arg) in enumerate(zip(params, names)):
        expr = arg
        if text is None:
            if seen_default and "*" not in sig:  # required after defaults: keyword-only
                sig.append("*")
            sig.append(arg)
            conv.append(expr)
        else:
            seen_default = True
            env[f"_D{k}"] = _default_value(kind, text)
            sig.append(f"{arg}=_D{k}")
            if text:  # a real default: the table's own text applies when it is not overridden
                conv.append(f"(_A if {arg} is _D{k} else {expr})")
            else:  # None: absent (the extension's rule for a parameter that may be absent)
                conv.append(expr)
        shown = "required" if text is None else "optional" if text == "" else f"default {text}"
        doc.append(f"  {arg} ({kind}, {shown}): {help_}")
    values = "(" + "".join(c + ", " for c in conv) + ")"
    # One output: the extension returns it itself (mode 2), so the call needs no _finish.
    call = (f"_run({index}, {values}, 2)" if name not in _TUPLES and name not in _LISTS
            else f"_finish({name!r}, _run({index}, {values}))")
    src = (f"def {name}({', '.join(sig)}):\n    return {call}\n"
           f"def plan_{name}({', '.join(sig)}):\n"
           f"    return _plan_info(_run({index}, {values}, 1))\n")
    exec(compile(src, f"<tensorx.{name}>", "exec"), env)  # names from tensorx's own op table
    fn = env[name]
    fn.__doc__ = "\n".join(doc)
    fn.__module__ = __name__
    fn._tx_op = name
    _PLANNERS[name] = env["plan_" + name]
    return fn


for _i, (_name, _summary, _params) in enumerate(_C.ops()):
    OPS[_name] = globals()[_name] = _make(_i, _name, _summary, _params)


def plan(op, *args, **kwargs):
    """Sizes an op call without running it: ``plan(tile, x, multiples)`` or ``plan("tile", ...)``
    returns one OutputInfo per output (dtype name, shape, nbytes, string_bytes and the flags view,
    data_dependent, upper_bound), or raises the error the call would raise (docs/sizes.md)."""
    name = op if isinstance(op, str) else getattr(op, "_tx_op", None)
    if name not in _PLANNERS:
        raise ValueError(f"not a tensorx op: {op!r}")
    return _PLANNERS[name](*args, **kwargs)


__all__ = ["Error", "InvalidArgumentError", "OutOfRangeError", "ResourceExhaustedError",
           "UnimplementedError", "InternalError", "OutputInfo", "OPS", "plan", "dtype_name",
           "from_dlpack", "to_dlpack", "dlpack", "DLPackArray"] + \
    sorted(OPS)
