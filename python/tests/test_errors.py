# SPDX-License-Identifier: Apache-2.0
"""tensorx's statuses as Python exceptions carrying its messages; bad Python input as TypeError or
ValueError, never a crash."""
import numpy as np
import pytest
import tensorx as tx

X = np.arange(6, dtype=np.float32)
IMG = np.zeros((1, 3, 3, 1), np.float32)


def test_hierarchy():
    for cls, base in [(tx.InvalidArgumentError, ValueError), (tx.OutOfRangeError, IndexError),
                      (tx.ResourceExhaustedError, MemoryError),
                      (tx.UnimplementedError, NotImplementedError),
                      (tx.InternalError, RuntimeError)]:
        assert issubclass(cls, tx.Error) and issubclass(cls, base)
    assert issubclass(tx.Error, Exception)


@pytest.mark.parametrize("cls,message,call", [
    (tx.InvalidArgumentError, "reshape: cannot infer the -1 in shape [4,-1]",
     lambda: tx.reshape(X, [4, -1])),
    (tx.InvalidArgumentError, "gather:", lambda: tx.gather(X, [6])),
    (tx.OutOfRangeError, "strides = [1, 0, 1, 1] is out of range",
     lambda: tx.extract_image_patches(IMG, [1, 2, 2, 1], [1, 0, 1, 1], [1, 1, 1, 1], "VALID")),
    (tx.ResourceExhaustedError, "tile: 4611686018427387904 elements of float32 overflow size_t",
     lambda: tx.tile([1.0], [4611686018427387904])),
    (tx.UnimplementedError, "Cast string to float", lambda: tx.cast([b"1"], "float32")),
    (tx.InvalidArgumentError, "oob 'sideways' is not one of error, zero, clamp, wrap",
     lambda: tx.gather(X, [0], oob="sideways")),
    (tx.InvalidArgumentError, "unknown dtype 'float33'", lambda: tx.cast(X, "float33")),
    (tx.InvalidArgumentError, "mode 'fast' is not default, saturate or checked",
     lambda: tx.cast(X, "int8", mode="fast")),
])
def test_statuses_raise_their_exception_with_tensorxs_message(cls, message, call):
    with pytest.raises(cls) as e:
        call()
    assert message in str(e.value)


def test_plan_predicts_the_error():
    with pytest.raises(tx.ResourceExhaustedError, match="overflow size_t"):
        tx.plan(tx.tile, [1.0], [4611686018427387904])
    with pytest.raises(tx.OutOfRangeError):
        tx.plan(tx.extract_image_patches, IMG, [1, 2, 2, 1], [1, 0, 1, 1], [1, 1, 1, 1], "VALID")


@pytest.mark.parametrize("exc,call", [
    (TypeError, lambda: tx.reshape(None, [2])),                 # None tensor
    (TypeError, lambda: tx.reshape(X, None)),
    (TypeError, lambda: tx.cast(X)),                            # missing argument
    (TypeError, lambda: tx.cast(X, "int8", bogus=1)),           # unknown argument
    (TypeError, lambda: tx.cast(X, "int8", "default", False, 5)),  # too many
    (TypeError, lambda: tx.cast(X, "int8", mode=None)),         # None for an attribute
    (TypeError, lambda: tx.cast(X, ["int8"])),                  # unhashable dtype
    (TypeError, lambda: tx.cast(X, {})),
    (TypeError, lambda: tx.cast(X, 3.5)),
    (TypeError, lambda: tx.expand_dims(X, 1.5)),                # float for int
    (TypeError, lambda: tx.expand_dims(X, [1])),                # list for int
    (TypeError, lambda: tx.expand_dims(X, {1: 2})),             # unhashable
    (TypeError, lambda: tx.encode_raw(X, little_endian="yes")),  # str for bool
    (TypeError, lambda: tx.squeeze(X, squeeze_dims=[1.5])),
    (TypeError, lambda: tx.squeeze(X, squeeze_dims=object())),
    (TypeError, lambda: tx.concat(X, 0)),                       # a tensor for a list
    (TypeError, lambda: tx.concat([X, None], 0)),
    (TypeError, lambda: tx.reshape(np.array([1, b"a"], dtype=object), [2])),
    (TypeError, lambda: tx.reshape(np.zeros(2, np.longdouble), [2])),
    (TypeError, lambda: tx.reshape(object(), [1])),
    (TypeError, lambda: tx.pad(X, [[1, 1]], constant_values=[1])),
    (ValueError, lambda: tx.expand_dims(X, 2**64)),
    (ValueError, lambda: tx.gather(X, [0], oob="err\0or")),
    (ValueError, lambda: tx.reshape([[1, 2], [3]], [3])),       # ragged list
])
def test_bad_python_input_is_type_or_value_error(exc, call):
    with pytest.raises(exc):
        call()
