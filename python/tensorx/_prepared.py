# SPDX-License-Identifier: Apache-2.0
"""tensorx.prepare: an op call prepared once and run many times into your arrays (PreparedOp, in
the extension: _tensorx_prepared.c).  The arguments are bound by the op function's own signature,
so every op of the op table whose spec names data inputs has a prepared form here without code of
its own.  See docs/python.md, "Prepared ops"."""
import collections
import inspect
from collections.abc import Callable
from typing import Any

from . import _tensorx as _C

TensorSpec = collections.namedtuple("TensorSpec", "name dtype shape")
TensorSpec.__doc__ = ("One input or output of a PreparedOp: its name (the parameter's, values[2] "
                      "for an item of a tensor list; the output's), NumPy dtype and shape.")
TensorSpec.__module__ = "tensorx"
PreparedOp = _C._prepared_types(TensorSpec)


class _Binder:
    """One op's arguments bound as its function binds them, into the values _C.run takes."""
    __slots__ = ("index", "sig", "tabled", "multi", "result_type")

    def __init__(self, index: int, fn: Callable[..., Any], table_params: list[Any], multi: bool,
                 result_type: Any) -> None:
        self.index = index
        params = list(inspect.signature(fn).parameters.values())[:len(table_params)]
        if len(params) != len(table_params):
            raise RuntimeError(f"{fn.__name__}: its signature lacks the op table's parameters")
        self.sig = inspect.Signature(params)
        # a parameter whose table default is text: the table's own default applies when the
        # signature's default value is passed (as the op function does)
        self.tabled = tuple(bool(p[2]) for p in table_params)
        self.multi = multi
        self.result_type = result_type

    def values(self, absent: object, args: tuple[Any, ...],
               kwargs: dict[str, Any]) -> tuple[Any, ...]:
        bound = self.sig.bind(*args, **kwargs).arguments
        out = []
        for p, tabled in zip(self.sig.parameters.values(), self.tabled):
            v = bound.get(p.name, p.default)
            out.append(absent if tabled and v is p.default else v)
        return tuple(out)


def _preparer(ops: dict[str, Callable[..., Any]], absent: object, tuples: dict[str, Any],
              lists: set[str]) -> Callable[..., Any]:
    """tensorx.prepare over the package's op functions, its sentinel for "the table's default",
    and its named tuples and list results (tensorx/__init__.py)."""
    table = {name: (i, params) for i, (name, _s, params) in enumerate(_C.ops())}
    binders: dict[str, _Binder] = {}

    def prepare(op: Any, *args: Any, **kwargs: Any) -> Any:
        """Prepares one op call for running many times: ``p = tensorx.prepare(tensorx.transpose,
        x, perm=[1, 0])`` (or ``prepare("transpose", ...)``) takes the op function's arguments;
        those the op spec names data inputs (``p.inputs``) give only their dtype and shape, the
        others are fixed.  Every check of the call runs here, raising what the call raises; an op
        without a prepared form, or string tensors, raise UnimplementedError.  Returns a
        PreparedOp: ``p(x2)`` runs it on arrays of exactly the prepared dtypes and shapes
        (C-contiguous: never copied) into new arrays, ``p(x2, out=y)`` into ``y`` (returned),
        with the call's bits.  docs/python.md, "Prepared ops"."""
        name = op if isinstance(op, str) else getattr(op, "_tx_op", None)
        if name not in ops:
            raise ValueError(f"not a tensorx op: {op!r}")
        b = binders.get(name)
        if b is None:
            index, params = table[name]
            b = binders[name] = _Binder(index, ops[name], params, name in tuples or name in lists,
                                        tuples.get(name))
        return _C.prepare(b.index, b.values(absent, args, kwargs), b.multi, b.result_type)

    prepare.__module__ = "tensorx"
    return prepare
