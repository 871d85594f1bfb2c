# SPDX-License-Identifier: Apache-2.0
"""fuzz_python_objects: the misbehaving objects of fuzz/fuzz_python.py (its arguments whose
__index__, __array__, __dlpack__, iteration or ``name`` raise, lie or return the wrong type), and
the HarnessError they raise, which must pass through a call unchanged."""
import ctypes
import math

import numpy as np


class HarnessError(Exception):
    """Raised by the harness's misbehaving objects: must pass through the call unchanged."""


# ---- misbehaving objects ---------------------------------------------------------------------
class Index:
    """An integer through __index__ only."""

    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v

    def __repr__(self):
        return f"Index({self.v!r})"


class IndexRaises:
    def __index__(self):
        raise HarnessError("__index__")

    def __repr__(self):
        return "IndexRaises()"


class IndexNotInt:
    def __index__(self):
        return 1.5  # Python raises TypeError: __index__ returned non-int

    def __repr__(self):
        return "IndexNotInt()"


class IndexClears:
    """__index__ empties the list that holds it, then returns v."""

    def __init__(self, v):
        self.v = v
        self.holder = None

    def __index__(self):
        if self.holder is not None:
            self.holder.clear()
        return self.v

    def __repr__(self):
        return f"IndexClears({self.v!r})"


class IntSub(int):
    def __index__(self):
        raise HarnessError("IntSub.__index__")


class StrSub(str):
    pass


class ArrayWrap:
    """__array__ giving the array (NumPy 2 passes copy=)."""

    def __init__(self, a):
        self.a = a

    def __array__(self, dtype=None, copy=None):
        return self.a if dtype is None else self.a.astype(dtype)

    def __repr__(self):
        return f"ArrayWrap({self.a!r})"


class ArrayRaises:
    def __array__(self, dtype=None, copy=None):
        raise HarnessError("__array__")

    def __repr__(self):
        return "ArrayRaises()"


class ArrayNotArray:
    def __init__(self, v):
        self.v = v

    def __array__(self, dtype=None, copy=None):
        return self.v

    def __repr__(self):
        return f"ArrayNotArray({self.v!r})"


class ArrayOldSignature:
    """__array__ that takes no arguments (NumPy passes dtype/copy only when it needs to)."""

    def __init__(self, a):
        self.a = a

    def __array__(self):
        return self.a

    def __repr__(self):
        return f"ArrayOldSignature({self.a!r})"


class Interface:
    """__array_interface__ over a bytes buffer at least as large as it says: NumPy does not
    check a buffer's size against the shape (a lying producer is the producer's bug)."""

    def __init__(self, buf, typestr, shape):
        try:
            need = math.prod(shape) * np.dtype(typestr).itemsize
        except TypeError:
            need = 0
        if need > 1 << 16:  # (a huge shape cut short)
            shape, need = (0,), 0
        buf = buf + bytes(max(0, need - len(buf)))
        self.buf = buf
        self.__array_interface__ = {"data": buf, "typestr": typestr, "shape": shape,
                                    "version": 3}

    def __repr__(self):
        return f"Interface({self.buf!r}, {self.__array_interface__['typestr']!r}, " \
               f"{self.__array_interface__['shape']!r})"


class DLPack:
    """A DLPack producer over an ndarray: forwards, raises, refuses max_version, or returns
    something other than a capsule."""

    def __init__(self, a, how):
        self.a = a
        self.how = how

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        how = self.how
        if how == 0:
            return self.a.__dlpack__()
        if how == 1:
            if max_version is not None:
                raise TypeError("max_version")  # a pre-1.0 producer
            return self.a.__dlpack__()
        if how == 2:
            raise HarnessError("__dlpack__")
        if how == 3:
            return None
        if how == 4:
            return b"not a capsule"
        return _bogus_capsule()

    def __dlpack_device__(self):
        return (1, 0)

    def __repr__(self):
        return f"DLPack({self.a!r}, how={self.how})"


_BOGUS_TARGET = ctypes.create_string_buffer(256)


def _bogus_capsule():
    """A capsule named neither 'dltensor' nor 'dltensor_versioned' (over valid memory)."""
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.addressof(_BOGUS_TARGET), b"not_a_dltensor", None)


class Seq:
    """A sequence for NumPy's discovery and for the list snapshots, misbehaving by `how`:
    0 honest, 1 __len__ raises, 2 __len__ lies (larger), 3 __len__ lies (smaller),
    4 __getitem__ raises at the last item, 5 __len__ negative, 6 __iter__ raises midway."""

    def __init__(self, items, how):
        self.items = list(items)
        self.how = how

    def __len__(self):
        n = len(self.items)
        if self.how == 1:
            raise HarnessError("__len__")
        if self.how == 2:
            return n + 3
        if self.how == 3:
            return max(0, n - 1)
        if self.how == 5:
            return -1
        return n

    def __getitem__(self, k):
        if self.how == 4 and k == len(self.items) - 1:
            raise HarnessError("__getitem__")
        return self.items[k]

    def __iter__(self):
        for k, v in enumerate(self.items):
            if self.how == 6 and k == len(self.items) // 2:
                raise HarnessError("__iter__")
            yield v

    def __repr__(self):
        return f"Seq({self.items!r}, how={self.how})"


class ListSub(list):
    """A list whose iteration raises and whose length lies (PyList_AsTuple reads its items
    directly).  An empty one says 0: a lying "non-empty" would only make v[0] raise list's own
    IndexError in the caller, the object's fault rather than tensorx's."""

    def __iter__(self):
        raise HarnessError("ListSub.__iter__")

    def __len__(self):
        n = list.__len__(self)
        return n + 3 if n else 0


class Named:
    """A dtype as anything with a ``name`` (tf.DType)."""

    def __init__(self, name):
        self._name = name

    @property
    def name(self):
        if isinstance(self._name, HarnessError):
            raise self._name
        return self._name

    def __repr__(self):
        return f"Named({self._name!r})"


class BoolRaises:
    def __bool__(self):
        raise HarnessError("__bool__")

    def __repr__(self):
        return "BoolRaises()"


class FloatRaises:
    def __float__(self):
        raise HarnessError("__float__")

    def __repr__(self):
        return "FloatRaises()"


class SubArray(np.ndarray):
    pass

