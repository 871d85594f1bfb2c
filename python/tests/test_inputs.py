# SPDX-License-Identifier: Apache-2.0
"""Inputs that change under the extension: list arguments changed by their own items'
Python code or by another thread while they are converted (the extension reads a snapshot of the
items), and NumPy bools holding bytes other than 0 and 1 (read as TensorFlow reads a bool: any
byte other than 0 is true)."""
import threading

import numpy as np
import pytest
import tensorx as tx


# ---- int lists --------------------------------------------------------------------------------
class Clears:
    """An int whose __index__ empties the list that holds it: the extension read the list's
    items again after that (from a NULL item array: SIGSEGV, under ASan too)."""

    def __init__(self, value, holder=None):
        self.value, self.holder = value, holder

    def __index__(self):
        if self.holder is not None:
            del self.holder[:]
        return self.value


class Replaces(Clears):
    """An int whose __index__ replaces the items after it (freeing the old ones): the extension
    read the new items, so the call did not get the values it was given."""

    def __index__(self):
        if self.holder is not None:
            self.holder[1:] = [99] * (len(self.holder) - 1)
        return self.value


X4 = np.zeros((1, 1, 1, 4), np.float32)
IMG = np.arange(1, 10, dtype=np.float32).reshape(1, 3, 3, 1)
TF_RECORD = np.array([8, 104, 105] + [0] * 21, np.uint8)  # one record, "hi"

# (op, the call given the int list, the list's values, what the call gives them)
INT_LISTS = [
    ("squeeze", lambda v: tx.squeeze(X4, v), [0, 1, 2], (4,)),
    ("reverse", lambda v: tx.reverse(X4, axis=v), [0, 1, 3], (1, 1, 1, 4)),
    ("split", lambda v: [a.shape for a in tx.split(X4, 3, size_splits=v)], [1, 1, 2],
     [(1, 1, 1, 1), (1, 1, 1, 1), (1, 1, 1, 2)]),
    ("extract_image_patches.ksizes",
     lambda v: tx.extract_image_patches(IMG, v, [1, 1, 1, 1], [1, 1, 1, 1], "VALID").shape,
     [1, 2, 2, 1], (1, 2, 2, 4)),
    ("extract_image_patches.strides",
     lambda v: tx.extract_image_patches(IMG, [1, 1, 1, 1], v, [1, 1, 1, 1], "VALID").shape,
     [1, 2, 2, 1], (1, 2, 2, 1)),
    ("extract_image_patches.rates",
     lambda v: tx.extract_image_patches(IMG, [1, 2, 2, 1], [1, 1, 1, 1], v, "VALID").shape,
     [1, 2, 2, 1], (1, 1, 1, 4)),
    ("string_tensor_from_tf.shape", lambda v: tx.string_tensor_from_tf(TF_RECORD, v).shape,
     [1, 1, 1], (1, 1, 1)),
]


def _result(got):
    return got.shape if isinstance(got, np.ndarray) else got


@pytest.mark.parametrize("kind", [Clears, Replaces])
@pytest.mark.parametrize("name,call,values,want", INT_LISTS, ids=[c[0] for c in INT_LISTS])
def test_an_int_list_changed_by_its_own_items_index_is_read_from_a_snapshot(
        name, call, values, want, kind):
    items = [kind(values[0])] + values[1:]
    items[0].holder = items
    assert _result(call(items)) == want  # the values the list held when it was passed
    assert items == ([] if kind is Clears else [items[0]] + [99] * (len(values) - 1))


def test_an_int_list_that_is_no_sequence_names_the_argument():
    with pytest.raises(TypeError, match="squeeze: squeeze_dims must be a sequence of integers, "
                                        "got object"):
        tx.squeeze(X4, object())
    assert tx.squeeze(X4, iter([0, 1])).shape == (1, 4)  # any iterable, as before


def test_an_int_list_of_an_array_subclass_is_read_as_np_asarray_reads_it():
    # fuzz_python found NumPy 1.24's masked-array tolist() failing inside _int_list
    m = np.ma.array([0, 2], mask=[False, True])
    assert tx.squeeze(np.zeros((1, 3, 1)), squeeze_dims=m).shape == (3,)
    assert tx.squeeze(np.zeros((1, 3)), squeeze_dims=np.ma.array(0)).shape == (3,)


def test_from_text_reads_a_snapshot_of_its_lists():
    # tests' helper (tensorx._C._from_text): a dim's __index__ empties the shape list; a complex
    # pair's __len__ (called before the fix, not since) emptied the values list and claimed 2
    # items it no longer had
    shape = [Clears(1), 2]
    shape[0].holder = shape
    assert tx._C._from_text("int32", shape, ["1", "2"]).tolist() == [[1, 2]]

    class Pair(list):
        def __len__(self):
            del values[:]
            del self[:]
            return 2

    values = [Pair(["1", "2"]), ["3", "4"]]
    got = tx._C._from_text("complex64", [2], values)
    assert got.tolist() == [1 + 2j, 3 + 4j]


# ---- tensor lists -----------------------------------------------------------------------------
VEC = np.arange(1 << 19, dtype=np.float32)[::2]  # strided: copied, and NumPy copies its 256k
# elements without the GIL, which lets another thread change the list meanwhile
N = 4
# one conversion serves every list of tensors (shape_n, meshgrid, concat, pack, dynamic_stitch)
TENSOR_LISTS = {
    "concat": lambda v: tx.concat(v, 0).shape,
    "pack": lambda v: tx.pack(v).shape,
    "dynamic_stitch": lambda v: tx.dynamic_stitch(
        [np.arange(k * VEC.size, (k + 1) * VEC.size, dtype=np.int32) for k in range(N)],
        v).shape,
    "shape_n": lambda v: len(tx.shape_n(v)),
}


@pytest.mark.parametrize("op", sorted(TENSOR_LISTS))
def test_a_tensor_list_emptied_by_another_thread_while_converted_is_read_from_a_snapshot(op):
    call = TENSOR_LISTS[op]
    want = call([VEC] * N)
    values, stop = [], threading.Event()

    def empty():  # whenever it has the GIL: in NumPy's copies, or during the op
        while not stop.is_set():
            values.clear()

    t = threading.Thread(target=empty)
    t.start()
    try:
        for _ in range(30):  # the original crashed within 30 calls in 12 runs of 12
            values[:] = [VEC] * N
            try:
                got = call(values)
            except tx.Error:
                continue  # the list was empty when it was read: an error is fine
            assert got in (want, 0)  # the whole list or (shape_n) the empty one
    finally:
        stop.set()
        t.join()


# ---- bools --------------------------------------------------------------------------------------
RAW = np.array([0, 1, 2, 255], np.uint8)


def _dirty():
    return RAW.copy().view(bool)  # bools with bytes 2 and 255: NumPy allows them


def test_unique_with_counts_reads_any_nonzero_byte_as_true():
    b = _dirty()
    y, idx, count = tx.unique_with_counts(b)
    assert y.view(np.uint8).tolist() == [0, 1]  # TensorFlow: y=[False, True], count=[1, 3]
    assert idx.tolist() == [0, 1, 1, 1] and count.tolist() == [1, 3]
    assert b.view(np.uint8).tolist() == RAW.tolist()  # the caller's array is not written


def test_cast_of_bools_gives_0_and_1():
    b = _dirty()
    assert tx.cast(b, "int32").tolist() == [0, 1, 1, 1]
    assert tx.cast(b, "bool").view(np.uint8).tolist() == [0, 1, 1, 1]
    assert tx.cast(b[::-1], "bool").view(np.uint8).tolist() == [1, 1, 1, 0]  # a copied layout
    assert b.view(np.uint8).tolist() == RAW.tolist()


def test_boolean_mask_reads_mask_and_data_bools_as_tensorflow():
    b = _dirty()
    assert tx.boolean_mask(np.arange(4), b).tolist() == [1, 2, 3]
    got = tx.boolean_mask(b, np.array([True, True, True, True]))
    assert got.view(np.uint8).tolist() == [0, 1, 1, 1]  # data bytes 0/1, not 2 and 255
    assert tx.dynamic_stitch([[0, 1], [2, 3]], [b[:2], b[2:]]).view(np.uint8).tolist() == \
        [0, 1, 1, 1]  # in a list of tensors too
    assert b.view(np.uint8).tolist() == RAW.tolist()


def test_a_clean_bool_array_is_not_copied_and_a_dirty_one_is():
    clean = np.array([True, False, True, True])
    assert np.shares_memory(tx.reshape(clean, [2, 2]), clean)
    dirty = _dirty()
    out = tx.reshape(dirty, [2, 2])
    assert not np.shares_memory(out, dirty)
    assert out.view(np.uint8).ravel().tolist() == [0, 1, 1, 1]
    ro = _dirty()
    ro.flags.writeable = False
    assert tx.reshape(ro, [4]).view(np.uint8).tolist() == [0, 1, 1, 1]  # read-only: copied too
