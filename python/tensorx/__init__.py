# SPDX-License-Identifier: Apache-2.0
"""tensorx: TensorFlow's tensor transformations, bit for bit, on NumPy arrays.

Every op of tensorx's op table (the one the `tensorx` CLI and the conformance runner use) is a
function here, with TensorFlow's parameter names and defaults: ``tensorx.cast(x, "float16")``,
``tensorx.strided_slice(x, begin, end, strides, begin_mask=0, ...)``.  Tensors are NumPy arrays
(C-contiguous ones are used without a copy), Python scalars and lists, ``bytes``/``str`` (string
scalars) or objects with ``__dlpack__``; results are NumPy arrays over tensorx's buffers, without a
copy, or, for an op with one output given ``out=``, written into that array (NumPy's convention:
the result's dtype and shape exactly, writeable, C-contiguous), which is returned.  Errors raise tensorx.Error subclasses carrying tensorx's message.  The GIL is released while
an op runs.  See docs/python.md.
"""
import collections
import contextlib
import contextvars
import difflib
import keyword
import mmap
import numbers
import os
import sys

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


class DataLossError(Error, OSError):
    """A damaged file: a checksum that fails, a record cut short (TF's DataLossError); an OSError
    as Python's gzip.BadGzipFile is."""
    status = "data_loss"


# By status name: the extension takes the codes from the library's status list, and refuses a
# name the list lacks or a status of the list without its class.
_ERRORS = {c.status: c for c in (InvalidArgumentError, OutOfRangeError, ResourceExhaustedError,
                                 UnimplementedError, InternalError, DataLossError)}


class StructuredDtypeWarning(UserWarning):
    """Given once, at the first bfloat16, float8 or 4-bit result made without ml_dtypes: such
    results are structured arrays of their bits, on which NumPy does no arithmetic."""


# ---- dtypes ---------------------------------------------------------------------------------
_ABSENT = type("_Absent", (), {"__repr__": lambda self: "<default>"})()
_DTYPE_TABLE = _C.dtype_table()  # the C library's dtype table (src/core/dtypes.def), a dict a row
_DTYPE_NAMES = {row["code"]: row["name"] for row in _DTYPE_TABLE}
_CODES = {name: code for code, name in _DTYPE_NAMES.items()}
# dtypes NumPy lacks (no .npy descr), with the NumPy type of their storage: ml_dtypes' dtypes when
# it is importable, else tensorx's .npy convention, a one-field structured dtype named after the
# dtype ([('bfloat16', '<u2')]).
_STORAGE = {row["name"]: np.dtype(_DTYPE_NAMES[row["storage"]]).type for row in _DTYPE_TABLE
            if row["npy_descr"] is None and row["kind"] != "string"}
try:
    import ml_dtypes as _ml
except ImportError:  # ml_dtypes is optional
    _ml = None
# what ml_dtypes has: the types NumPy lacks that have a NumPy-world name
_ML_NAMES = tuple(row["name"] for row in _DTYPE_TABLE
                  if row["name"] in _STORAGE and row["numpy_name"] is not None)
_StringDType = getattr(getattr(np, "dtypes", None), "StringDType", None)  # NumPy >= 2


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
    """tensorx's name of a dtype given as a name (tensorx's and TensorFlow's: "float16", "half",
    "tf.float32"; else NumPy's spellings: "f4", "<i2", "int", "str"), a NumPy dtype or type
    (np.int16, ml_dtypes.bfloat16, the structured convention, StringDType), or anything with a
    ``name`` (tf.DType).  tensorx's names come first: "float" is float32, as in TensorFlow;
    "i8", "u8" and "U8", which the CLI reads as int8 and uint8 and NumPy otherwise, are
    refused.  Raises InvalidArgumentError for an unknown or ambiguous name (suggesting a near
    one), TypeError for something that is no dtype, or a NumPy dtype tensorx lacks."""
    if isinstance(dtype, str):
        if dtype in _CODES:
            return dtype
        if dtype in _AMBIGUOUS:
            raise InvalidArgumentError(_AMBIGUOUS[dtype].format(dtype))
        if _C.dtype_code(dtype):
            return dtype  # an alias the op table reads (not case-sensitive there)
        return _text_dtype_name(dtype)
    cacheable = isinstance(dtype, (np.dtype, type))
    if cacheable:
        name = _DTYPE_CACHE.get(dtype)
        if name is not None:
            return name
    name = _dtype_name(dtype)
    if cacheable and len(_DTYPE_CACHE) < 256:
        _DTYPE_CACHE[dtype] = name
    return name


# The op table's aliases that NumPy reads as another dtype: refused, not guessed.
_AMBIGUOUS = {
    "i8": "dtype {!r} is ambiguous: the CLI's int8, NumPy's int64 (write 'int8' or 'int64')",
    "u8": "dtype {!r} is ambiguous: the CLI's uint8, NumPy's uint64 (write 'uint8' or 'uint64')",
    "U8": "dtype {!r} is ambiguous: the CLI's uint8, NumPy's 8-character str (write 'uint8' or "
          "'string')",
}


def _text_dtype_name(text):
    """A dtype name the op table lacks, read as NumPy reads it ("f4", "<i2", "int": int64)."""
    try:
        d = np.dtype(text)
    except (TypeError, ValueError, SyntaxError):  # SyntaxError: its comma-list parser's, for ","
        d = None
    if d is not None and text.strip():
        return _dtype_name(d)
    near = difflib.get_close_matches(text.lower(), sorted(_CODES), n=1, cutoff=0.6)
    hint = (f"did you mean {near[0]!r}?" if near else
            "tensorx's names: " + ", ".join(sorted(_CODES)) + "; NumPy's spellings too")
    raise InvalidArgumentError(f"unknown dtype {text!r} ({hint})")


def _dtype_name(dtype):
    if isinstance(dtype, bytes):
        return dtype_name(dtype.decode())
    if dtype is str or dtype is bytes or dtype is object:
        return "string"
    if _StringDType is not None and isinstance(dtype, type) and issubclass(dtype, _StringDType):
        return "string"  # np.dtype() of the class itself is object's
    try:
        d = np.dtype(dtype)
    except TypeError:
        d = None
    if d is not None:
        if d in _IN:
            return _DTYPE_NAMES[_IN[d]]
        if d.kind in "SUOT":
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


def _bytes_like(v):
    """bytearray, mmap, and memoryviews of bytes: string scalars, as bytes are (their memory is
    used in place).  A memoryview of another format (a float32 array's) is a numeric tensor."""
    if isinstance(v, (bytearray, mmap.mmap)):
        return True
    return isinstance(v, memoryview) and v.format in ("B", "c") and v.ndim <= 1


def _objects(a):
    """An object array NumPy made of a list: strings (an element is bytes, str or bytes-like: the
    extension checks each), or Python values no NumPy dtype holds, each named with its rule."""
    flat = a.ravel()
    if any(isinstance(e, (bytes, str)) or _bytes_like(e) for e in flat):
        return a
    for i, e in enumerate(flat):
        where = ("the value" if a.ndim == 0 else f"element {i}" if a.ndim == 1 else
                 "element " + "".join(f"[{k}]" for k in np.unravel_index(i, a.shape)))
        if isinstance(e, numbers.Integral) and not isinstance(e, (bool, np.bool_)):
            if not -2**63 <= e < 2**64:
                raise ValueError(f"{where} ({e}) does not fit in 64 bits: a tensor's integers "
                                 "are int32, int64 or uint64")
        elif not isinstance(e, (numbers.Number, np.bool_)):
            raise TypeError(f"{where} is {'None' if e is None else type(e).__name__}: a tensor's "
                            "elements are numbers and bools, or bytes and str")
    raise TypeError(f"a list whose numbers NumPy holds in no one dtype ({flat[:4].tolist()}...)")


def _from_python(v, empty):
    """A NumPy array of Python data with TensorFlow's conversion: int -> int32 (int64 when a value
    needs it), float -> float32, complex -> complex128, bool, bytes/str -> string; [] -> `empty`;
    bytes-like objects (bytearray, mmap, memoryview) -> string, their memory used in place."""
    if isinstance(v, (bytes, str)) or _bytes_like(v):
        a = np.empty((), dtype=object)
        a[()] = v.encode() if isinstance(v, str) else v
        return a
    if isinstance(v, (list, tuple)) and v and (isinstance(v[0], bytes) or _bytes_like(v[0])):
        return np.fromiter(v, dtype=object, count=len(v))  # each bytes' trailing NULs kept
    a = np.asarray(v)
    if a.dtype.kind in "US":  # keep each bytes' trailing NULs, which 'S' would drop
        return _strings(np.array(v, dtype=object))
    if a.dtype == object:
        return _objects(a)
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
    if a.dtype.kind == "T":  # StringDType: its str elements (the extension takes their UTF-8)
        return a.astype(object)
    return a


def _tensor(v, empty="float32"):
    if type(v) is np.ndarray:
        return _strings(v) if v.dtype.kind in "UT" else v
    if isinstance(v, np.ndarray):
        return _strings(np.asarray(v))
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
    1.x producer is asked for a versioned tensor (``max_version=(1, 1)``), which tensorx imports
    (``tx_tensor_from_dlpack_versioned``): the result is read-only when the producer marks its
    memory read-only.  DLPack 1.1's float8, float6, float4, int4 and int2 types come in as
    ml_dtypes arrays, sub-byte ones one per byte (packed producers are unpacked: a copy).  Older producers (NumPy < 2, PyTorch < 2.4) refuse ``max_version``: their
    unversioned tensor is imported by tensorx too (``tx_tensor_from_dlpack``; writable, as such
    producers refuse to export read-only memory), which takes bfloat16 and bool where NumPy
    1.24's ``np.from_dlpack`` fails; a ``__dlpack__`` that returns no capsule falls back to
    ``np.from_dlpack``.  No copy when the memory is row-major and aligned."""
    if type(obj).__name__ == "PyCapsule":
        return _C.from_dlpack_capsule(obj)
    try:
        cap = obj.__dlpack__(max_version=(1, 1))
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
    it), True (always), False (never: BufferError instead).  Sub-byte dtypes (ml_dtypes' int4,
    uint4, int2, uint2, float4_e2m1fn, float6_*) are one per byte in the versioned capsule (DLPack
    1.1's padded flag) and a packed copy in the unversioned one (read-only arrays included).
    Each capsule is consumed once."""
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
    if isinstance(v, (np.ndarray, bytes, str, memoryview, bytearray, mmap.mmap)) or \
            not hasattr(v, "__iter__"):
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
        v = np.asarray(v)  # a subclass's tolist() may fail (NumPy 1.24's masked 0-d arrays)
        if v.ndim > 1:  # (tolist() of a (2**40, 0) array would build 2**40 lists)
            raise TypeError(f"expected a list of ints, got an array of shape {v.shape}")
        return v.tolist() if v.ndim else [v.tolist()]
    if isinstance(v, memoryview) and v.ndim > 1:  # (iterating one raises NotImplementedError)
        raise TypeError(f"expected a list of ints, got a memoryview of shape {v.shape}")
    return v


# Ops that return several tensors, from the op spec's outputs: a named tuple of its fixed outputs'
# names, or a list.
_NAMED = {name: outs for name, outs, is_list in _C.outputs() if not is_list and len(outs) > 1}
_LISTS = {name for name, _outs, is_list in _C.outputs() if is_list}
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


# ---- out=: NumPy's convention, on the ops with one output ------------------------------------
def _out_array(op, out):
    """The rules `out` must meet before the op runs: an ndarray (a subclass too), writeable and
    C-contiguous (tensorx writes an output as one block; a strided array is refused, where NumPy's
    ufuncs take any strides)."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{op}: out: must be a numpy.ndarray, got {type(out).__name__}")
    flags = out.flags
    if not flags.writeable:
        raise ValueError(f"{op}: out: the array is read-only")
    if not flags.c_contiguous:
        raise ValueError(f"{op}: out: the array must be C-contiguous (shape {out.shape}, strides "
                         f"{out.strides}); write into a contiguous one and copy from it")


def _write_out(op, result, out):
    """Writes the op's result into `out` and returns `out`.  The dtype and shape must be the
    result's exactly: no cast (NumPy's casting='no') and no broadcast.  The result is complete
    before `out` is written, so `out` may be an input's memory (NumPy's assignment copies
    through a buffer when they overlap), and a failed call leaves `out` as it was.  ndarray's own
    assignment (not a subclass's __setitem__) writes the bytes, as a ufunc's out= does, at half
    np.copyto's cost."""
    if out.dtype != result.dtype:
        raise TypeError(f"{op}: out: dtype {out.dtype} is not the result's dtype {result.dtype} "
                        "(out= does not cast)")
    if out.shape != result.shape:
        raise ValueError(f"{op}: out: shape {out.shape} is not the result's shape {result.shape}")
    _ASSIGN(out, Ellipsis, result)
    return out


_ASSIGN = np.ndarray.__setitem__


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
_STRING_DTYPE = contextvars.ContextVar("tensorx.string_dtype", default=None)
_C._setup(_STRING_DTYPE, StructuredDtypeWarning,
          tuple(_CODES[n] for n in _ML_NAMES if _ml is None or not hasattr(_ml, n)))
OPS = {}
_PLANNERS = {}


# ---- settings --------------------------------------------------------------------------------
def _string_dtype_setting(dtype):
    if dtype is None:
        return None
    if dtype is object or dtype is bytes or (isinstance(dtype, str) and dtype in ("O", "object")):
        return np.dtype(object)
    if _StringDType is not None:
        if isinstance(dtype, type) and issubclass(dtype, _StringDType):
            return dtype()
        if isinstance(dtype, _StringDType):
            return dtype
    try:
        d = np.dtype(dtype)
    except TypeError:
        d = None
    if d is not None and d.kind in "OT":
        return d
    if _StringDType is None and (dtype in ("T", "StringDType") or d is None):
        raise TypeError(f"string dtype {dtype!r}: StringDType ('T') needs NumPy 2 (this is "
                        f"NumPy {np.__version__}); None or object are what it has")
    raise TypeError(f"string dtype {dtype!r}: string results are StringDType ('T', "
                    "np.dtypes.StringDType()) or object arrays of bytes (object, 'O'), or None "
                    "(the default: StringDType when a string input is)")


def set_string_dtype(dtype):
    """Sets the dtype of the string results of ops called in the current context (this thread or
    asyncio task, as NumPy's errstate settings are): ``"T"`` (or ``np.dtypes.StringDType()``, or
    one with an ``na_object``): NumPy 2's StringDType arrays of str, each result's UTF-8 decoded
    (a result that is not UTF-8 raises ValueError); ``object`` (``"O"``): object arrays of
    ``bytes``; None (the default): object arrays of bytes, or StringDType when a string input of
    the call is a StringDType array (of that dtype), as NumPy's string functions keep their
    input's dtype.  Returns the setting before.  ``with tensorx.string_dtype("T"):`` sets it for
    a block."""
    before = _STRING_DTYPE.get()
    _STRING_DTYPE.set(_string_dtype_setting(dtype))
    return before


def get_string_dtype():
    """The current setting of set_string_dtype: None, np.dtype(object) or a StringDType."""
    return _STRING_DTYPE.get()


@contextlib.contextmanager
def string_dtype(dtype):
    """``with tensorx.string_dtype("T"): ...``: set_string_dtype(dtype) for the block."""
    token = _STRING_DTYPE.set(_string_dtype_setting(dtype))
    try:
        yield
    finally:
        _STRING_DTYPE.reset(token)


def set_max_bytes(max_bytes):
    """Sets the largest tensor tensorx makes, in bytes: an int, or the CLI's spelling of a byte
    count ("1073741824", "64M", "2G": powers of 1024).  0 (or None) lifts the cap to the
    library's own limit (SIZE_MAX / 2).  A call that would make a larger tensor raises
    ResourceExhaustedError (a MemoryError) before allocating it, with the CLI's message; so does
    its plan.  At import the cap is $TENSORX_MAX_BYTES, else half of physical memory: the CLI's
    --max-bytes default.  Returns the cap in force before.  The cap is the process's: set it
    before threads that run ops start (ops read it as they allocate)."""
    if max_bytes is None:
        n = 0
    elif isinstance(max_bytes, (str, bytes)):
        text = max_bytes.decode() if isinstance(max_bytes, bytes) else max_bytes
        n = _C.parse_size(text, "set_max_bytes")
    elif isinstance(max_bytes, numbers.Integral) and not isinstance(max_bytes, (bool, np.bool_)):
        n = int(max_bytes)
        if n < 0:
            raise ValueError(f"set_max_bytes: {n} is not a byte count (e.g. 1073741824, 64M, 2G)")
    else:
        raise TypeError(f"set_max_bytes: a byte count (an int, or text like '64M'), got "
                        f"{type(max_bytes).__name__}")
    return _C.set_max_bytes(min(n, 2**64 - 1))


def get_max_bytes():
    """The largest tensor tensorx makes, in bytes (set_max_bytes)."""
    return _C.max_bytes()


def _initial_max_bytes():
    text = os.environ.get("TENSORX_MAX_BYTES", "")
    return _C.parse_size(text, "TENSORX_MAX_BYTES") if text else _C.default_max_bytes()


_C.set_max_bytes(_initial_max_bytes())  # the CLI's rule, and its message for a bad value


def _make(index, name, summary, params):
    names = [p[0] + "_" if keyword.iskeyword(p[0]) else p[0] for p in params]
    env = {"_run": _C.run, "_finish": _finish, "_plan_info": _plan_info, "_A": _ABSENT,
           "_out_array": _out_array, "_write_out": _write_out}
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
    if name in _TUPLES or name in _LISTS:
        body = f"    return _finish({name!r}, _run({index}, {values}))\n"
        op_sig = sig
    else:  # one output: the extension returns it itself (mode 2); out= may take it
        body = (f"    if out is None:\n        return _run({index}, {values}, 2)\n"
                f"    _out_array({name!r}, out)\n"
                f"    return _write_out({name!r}, _run({index}, {values}, 2), out)\n")
        op_sig = sig + ([] if "*" in sig else ["*"]) + ["out=None"]
        doc.append("  out (ndarray, keyword-only, optional): receives the result and is returned "
                   "(NumPy's out=)")
    src = (f"def {name}({', '.join(op_sig)}):\n{body}"
           f"def plan_{name}({', '.join(sig)}):\n"
           f"    return _plan_info(_run({index}, {values}, 1))\n")
    exec(compile(src, f"<tensorx.{name}>", "exec"), env)  # names from tensorx's own op table
    fn = env[name]
    fn.__doc__ = "\n".join(doc)
    fn.__module__ = __name__
    fn._tx_op = name
    _PLANNERS[name] = env["plan_" + name]
    if name in _TUPLES or name in _LISTS:
        return fn
    # The same binding done in C (the extension's op_function): fn's frame and tuple cost a
    # quarter of a small op's call; fn still takes out=, reports bad calls, and gives the
    # signature and docs (__wrapped__).
    npos = sig.index("*") if "*" in sig else len(names)
    return _C.op_function(index, tuple(sys.intern(n) for n in names), npos, fn)


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
           "UnimplementedError", "InternalError", "DataLossError", "StructuredDtypeWarning",
           "OutputInfo", "OPS",
           "plan", "dtype_name", "from_dlpack", "to_dlpack", "dlpack", "DLPackArray",
           "set_max_bytes", "get_max_bytes", "set_string_dtype", "get_string_dtype",
           "string_dtype"] + \
    sorted(OPS)

from ._prepared import PreparedOp, TensorSpec, _preparer  # noqa: E402
prepare = _preparer(OPS, _ABSENT, _TUPLES, _LISTS)  # binds an op's arguments as its function does
__all__ += ["PreparedOp", "TensorSpec", "prepare"]

from ._files import TFRecordReader, load, save, tfrecord_records, tfrecord_write  # noqa: E402
__all__ += ["load", "save", "TFRecordReader", "tfrecord_records", "tfrecord_write"]

from ._features import (FixedLenFeature, SparseTensorValue, VarLenFeature,  # noqa: E402
                        parse_features, tfrecord_batches)
__all__ += ["FixedLenFeature", "VarLenFeature", "SparseTensorValue", "parse_features",
            "tfrecord_batches"]
