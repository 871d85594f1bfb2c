# SPDX-License-Identifier: Apache-2.0
"""100,000 calls of every op family leave memory (RSS), the interpreter's allocated blocks
(sys.getallocatedblocks; sys.gettotalrefcount too on a debug build of Python) and the inputs'
reference counts flat.  The families are those of the op table (frontend/ops_<family>.c, one page of
docs/ each), with the string layout ops and unique on their own: casting, strings, shapes,
slicing, reorder, spatial, gather, unique; each runs its examples (examples.py, failing calls
added) in turn until it has made TX_PY_LEAK_CALLS calls (default 100,000), and so does a ninth
group of DLPack exports and imports, a tenth of prepared ops (prepare, runs,
refusals), and an eleventh of files (tensorx.load / save, the TFRecord reader and writer, their
refusals).  About 1,000,000 calls, 10 s on a loaded 2-core machine;
scripts/test.sh's asan stage sets TX_PY_LEAK_CALLS lower.  `pytest -s` prints each family's
figures."""
import gc
import os
import sys
import time

import numpy as np
import pytest
import tensorx as tx
from examples import EXAMPLES
from tensorx import _tensorx

CALLS = int(os.environ.get("TX_PY_LEAK_CALLS", "100000"))
# Under AddressSanitizer (scripts/test.sh's asan stage preloads its runtime) freed memory waits in
# a quarantine, so RSS grows without a leak: the calls run, RSS is not judged.
ASAN = "libclang_rt.asan" in os.environ.get("LD_PRELOAD", "")
FAMILIES = {
    "casting": {"string_to_number", "to_double", "to_float", "to_bfloat16", "to_int32",
                "to_int64", "cast", "bitcast", "saturate_cast", "decode_raw", "encode_raw",
                "pack_subbyte", "unpack_subbyte", "cast_pack"},
    "strings": {"string_tensor_pack", "string_tensor_unpack", "string_tensor_to_tf",
                "string_tensor_from_tf", "string_tensor_to_ort", "string_tensor_from_ort"},
    "shapes": {"shape", "shape_n", "size", "rank", "reshape", "squeeze", "expand_dims"},
    "slicing": {"slice", "strided_slice", "split", "unpack", "tile", "pad"},
    "reorder": {"meshgrid", "concat", "pack", "reverse_sequence", "reverse", "transpose"},
    "spatial": {"extract_image_patches", "space_to_batch_nd", "space_to_batch",
                "required_space_to_batch_paddings", "batch_to_space_nd", "batch_to_space",
                "space_to_depth", "depth_to_space"},
    "gather": {"gather", "gather_nd", "dynamic_partition", "dynamic_stitch", "boolean_mask",
               "one_hot", "sequence_mask"},
    "unique": {"unique_with_counts"},
    "parsing": {"parse_example", "parse_single_example", "parse_tensor", "serialize_tensor"},
}
X = np.arange(12, dtype=np.float32)
S = np.array([b"ab", b"cde"], dtype="S3")
# A failing call per family (errors must not leak either): op, args, kwargs.
FAILING = {
    "casting": ("cast", (X, "float33"), {}), "strings": ("string_tensor_pack", ([0], [9], S), {}),
    "shapes": ("reshape", (X, [7, -1]), {}), "slicing": ("tile", (X, [1 << 62]), {}),
    "reorder": ("transpose", (X,), {"perm": [1, 0]}), "spatial": ("space_to_depth", (X, 2), {}),
    "gather": ("gather", (X, [99]), {}), "unique": ("unique_with_counts", (S.reshape(1, 2),), {}),
    "parsing": ("parse_example", (S,), {"sparse_keys": S[:1], "sparse_types": "int64"}),
}


def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    pytest.skip("no /proc/self/status")


def frozen(examples):
    """The examples with their tensor inputs made NumPy arrays once (as tensorx converts them), so
    that their reference counts can be read."""
    kinds = {name: params for name, _, params in _tensorx.ops()}
    out = []
    for op, args, kwargs in examples:
        args = tuple(tx._tensor(a, p[4]) if p[1] == "tensor" else a
                     for a, p in zip(args, kinds[op]))
        out.append((getattr(tx, op), args, kwargs))
    return out


def calls_of(family):
    if family == "dlpack":
        v = tx.reshape(np.frombuffer(bytes(range(12)), np.uint8), [3, 4])  # read-only result
        return [(lambda a: tx.from_dlpack(tx.to_dlpack(a)), (X,), {}),
                (lambda a: tx.from_dlpack(tx.dlpack(a)), (v,), {}),
                (lambda a: tx.to_dlpack(a, max_version=None), (v,), {}),  # refused
                (np.from_dlpack, (tx.dlpack(tx.tile(X, [2])),), {}),
                (tx.from_dlpack, (X,), {})]
    if family == "prepared":  # tensorx.prepare and PreparedOp runs, made, refused and freed
        x = np.arange(12, dtype=np.float32).reshape(3, 4)
        p = tx.prepare(tx.transpose, x, [1, 0])
        return [(lambda a: tx.prepare(tx.transpose, a, [1, 0])(a), (x,), {}),
                (p, (x,), {"out": np.empty((4, 3), np.float32)}), (p, (x,), {}),
                (p, (x.astype(np.float64),), {}),  # refused: dtype
                (tx.prepare, (tx.boolean_mask, x, [True, False, True]), {})]  # no prepared form
    if family == "files":  # tensor files and TFRecord files, read, written and refused
        import tempfile
        d = tempfile.mkdtemp()
        st, idx, rec = (os.path.join(d, n) for n in ("m.safetensors", "a.idx.gz", "r.tfrecord"))
        tx.save(st, {"w": X, "b": np.arange(3)})
        tx.save(idx, np.arange(6, dtype=np.uint8))
        tx.tfrecord_write(rec, [b"a", b"bc", b""])
        bad = os.path.join(d, "bad.tfrecord")
        with open(bad, "wb") as f:
            f.write(open(rec, "rb").read()[:-2])
        return [(tx.load, (st, "w"), {}), (tx.load, (st,), {}), (tx.load, (st, "zz"), {}),
                (tx.load, (idx,), {}), (tx.load, (rec,), {}),
                (lambda p: [bytes(r) for r in tx.TFRecordReader(p).records()], (rec,), {}),
                (lambda p: list(tx.tfrecord_records(p)), (bad,), {}),
                (lambda p: tx.TFRecordReader(p).index(), (rec,), {}),
                (tx.tfrecord_write, (os.path.join(d, "w.tfrecord"), [b"x", b"yz"]), {}),
                (tx.save, (os.path.join(d, "w.safetensors"), {"x": X}), {})]
    calls = frozen([e for e in EXAMPLES if e[0] in FAMILIES[family]])
    fn, args, kwargs = FAILING[family]
    calls.append((getattr(tx, fn), args, kwargs))
    return calls


def run(calls, n):
    done = 0
    while done < n:
        for fn, args, kwargs in calls:
            try:
                out = fn(*args, **kwargs)
                del out
            except (tx.Error, TypeError, ValueError, BufferError):
                pass
        done += len(calls)
    return done


def test_every_example_has_a_family():
    assert {op for op, _, _ in EXAMPLES} == set().union(*FAMILIES.values())


@pytest.mark.parametrize("family", list(FAMILIES) + ["dlpack", "prepared", "files"])
def test_rss_and_refcounts_stay_flat(family):
    calls = calls_of(family)
    # file calls are system calls (open, mmap, rename): a tenth as many, still 10,000
    n_calls = CALLS // 10 if family == "files" else CALLS
    arrays = [a for _, args, _ in calls for a in args if isinstance(a, np.ndarray)]
    refs = [sys.getrefcount(a) for a in arrays]
    run(calls, max(n_calls // 20, 200))  # warm up: allocator caches, interned objects
    gc.collect()
    rss, blocks = rss_kb(), sys.getallocatedblocks()
    total = sys.gettotalrefcount() if hasattr(sys, "gettotalrefcount") else None
    start = time.perf_counter()
    n = run(calls, n_calls)
    seconds = time.perf_counter() - start
    gc.collect()
    grown, more_blocks = rss_kb() - rss, sys.getallocatedblocks() - blocks
    more_refs = sys.gettotalrefcount() - total if total is not None else "n/a"
    print(f"\nleaks {family}: {n} calls in {seconds:.1f} s, RSS {grown:+d} kB, "
          f"allocated blocks {more_blocks:+d}, total refcount {more_refs}")
    assert [sys.getrefcount(a) for a in arrays] == refs
    # A leak of one 64-byte header per call would be 6 MB over 100,000 calls, and one object
    # per call 100,000 blocks.
    assert ASAN or grown < 2048, f"RSS grew by {grown} kB over {n} calls"
    assert more_blocks < 1000, f"{more_blocks} more Python blocks after {n} calls"
    if total is not None:
        assert more_refs < 1000
