# SPDX-License-Identifier: Apache-2.0
"""tensorx ops on Dask arrays, chunk by chunk (docs/dask.md).

Each function here takes a Dask array and returns one whose every output chunk is one tensorx call
on one input chunk (or, for gather, on one chunk of indices and the in-memory params): cast,
saturate_cast, bitcast, decode_raw, reverse, transpose, one_hot, sequence_mask, gather,
strided_slice.  reverse and transpose reorder the chunk grid (output chunk j along a reversed axis
is input chunk n-1-j, reversed; transpose permutes the grid with the dims), so no task ever sees
more than one input chunk.  Every other op of tensorx's table, and the arguments that would make
one of these need the whole array (sequence_mask without maxlen, gather with batch_dims, a Dask
array as params or as strided_slice's begin), raise NotChunkLocalError instead of computing the
whole array in one task.

from_raw_files(paths, dtype, shape) reads raw dumps with tensorx's mapped path inside the tasks
(tx_file_map_string + tx_decode_raw, the CLI's streaming path); from_safetensors(paths, name),
from_npz(paths, name) and from_idx(paths) read one tensor per file (tensorx.load on the worker:
mapped, no copy where the format allows) concatenated along axis 0; tfrecord_bag(paths) is a
Dask bag of TFRecord records, a partition per file; from_tfrecord(paths, features) the features
of their tf.train.Example records (an array per FixedLenFeature, a bag per VarLenFeature, one
parse per chunk); to_npy(array, path) writes one .npy from the workers: the header first, then
each chunk at its offset.
"""
import functools
import gzip
import itertools
import math
import operator
import os
import zipfile

import numpy as np

import tensorx as tx
from tensorx import _features, _tensorx as _C

import dask
import dask.array as da
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

__all__ = ["NotChunkLocalError", "CHUNK_LOCAL", "cast", "saturate_cast", "bitcast", "decode_raw",
           "reverse", "transpose", "one_hot", "sequence_mask", "gather", "strided_slice",
           "from_raw_files", "from_safetensors", "from_npz", "from_idx", "tfrecord_bag",
           "from_tfrecord", "to_npy"]

CHUNK_LOCAL = ("cast", "saturate_cast", "bitcast", "decode_raw", "reverse", "transpose",
               "one_hot", "sequence_mask", "gather", "strided_slice")


class NotChunkLocalError(tx.Error, NotImplementedError):
    """The op (or these arguments of it) needs more than one chunk per output chunk: tensorx.dask
    will not compute it by gathering the whole array into one task."""
    status = "unimplemented"


def _not_local(op, why):
    return NotChunkLocalError(
        f"tensorx.dask.{op}: {why}; tensorx.dask runs only chunk-local ops ("
        + ", ".join(CHUNK_LOCAL) + "). Compute the array first (x.compute(), then tensorx."
        f"{op}) if it fits in one process, or use dask.array's own operation")


def __getattr__(name):
    if name in tx.OPS:
        def refuse(*args, **kwargs):
            raise _not_local(name, "an output chunk depends on more than one input chunk "
                             "(or on the whole array)")
        refuse.__name__ = name
        refuse.__doc__ = f"Not chunk-local: raises NotChunkLocalError (tensorx.{name} is)."
        return refuse
    raise AttributeError(f"module 'tensorx.dask' has no attribute {name!r}")


# ---- helpers --------------------------------------------------------------------------------
def _as_dask(x, op):
    if isinstance(x, da.Array):
        return x
    if isinstance(x, np.ndarray):
        return da.from_array(x, chunks=x.shape or ())
    raise TypeError(f"tensorx.dask.{op}: expected a Dask array (or a NumPy array), "
                    f"got {type(x).__name__}")


def _sample(x):
    """A one-element (or empty) NumPy array with x's dtype and rank: runs the op once at graph
    build time, so a bad argument raises tensorx's error here, and gives the output dtype."""
    shape = tuple(1 if n else 0 for n in x.shape)
    if x.dtype == object:
        a = np.empty(shape, dtype=object)
        a[...] = b""
        return a
    return np.zeros(shape, dtype=x.dtype)


def _per_block(op, x, fn, out_chunks, src_of, dtype, extra=None):
    """A Dask array whose block at index i is fn(block src_of(i) of x): the whole of tensorx.dask's
    graph building.  extra: {key: value} put in the graph once (gather's params)."""
    name = f"tx-{op}-" + tokenize(x.name, fn, out_chunks, extra and list(extra))
    dsk = dict(extra or {})
    for idx in itertools.product(*(range(len(c)) for c in out_chunks)):
        dsk[(name,) + idx] = (fn, (x.name,) + tuple(src_of(idx)))
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    dtype = np.dtype(dtype)
    return da.Array(graph, name, out_chunks, dtype=dtype,
                    meta=np.empty((0,) * len(out_chunks), dtype=dtype))


def _elementwise(op, x, fn):
    out = fn(_sample(x))
    return _per_block(op, x, fn, x.chunks, lambda i: i, out.dtype)


def _run(op, kwargs, block):
    return getattr(tx, op)(block, **kwargs)


# ---- casting --------------------------------------------------------------------------------
def cast(x, dtype, mode="default", exact_float=False):
    """tensorx.cast on each chunk (modes default, saturate and checked: all per element)."""
    x = _as_dask(x, "cast")
    return _elementwise("cast", x, functools.partial(
        _run, "cast", dict(dtype=tx.dtype_name(dtype), mode=mode, exact_float=exact_float)))


def saturate_cast(value, dtype):
    """tensorx.saturate_cast on each chunk."""
    x = _as_dask(value, "saturate_cast")
    return _elementwise("saturate_cast", x, functools.partial(
        _run, "saturate_cast", dict(dtype=tx.dtype_name(dtype))))


def bitcast(input, type):  # noqa: A002 (TF's names)
    """tensorx.bitcast on each chunk.  To a narrower type a last dim of size ratio is added (one
    chunk); to a wider one the last dim (of size ratio) goes, so it is first made one chunk."""
    x = _as_dask(input, "bitcast")
    fn = functools.partial(_run, "bitcast", dict(type=tx.dtype_name(type)))
    sample = _sample(x)
    if x.ndim:  # to a wider type the last dim is the ratio: the sample keeps it (up to 64)
        sample = np.zeros(sample.shape[:-1] + (min(x.shape[-1], 64),), x.dtype)
    out = fn(sample)
    if out.ndim == x.ndim:
        chunks, src = x.chunks, (lambda i: i)
    elif out.ndim == x.ndim + 1:
        chunks, src = x.chunks + ((out.shape[-1],),), (lambda i: i[:-1])
    else:
        if x.numblocks[-1] != 1:
            x = x.rechunk({x.ndim - 1: -1})  # the last dim is the size ratio: at most 8
        chunks, src = x.chunks[:-1], (lambda i: i + (0,))
    return _per_block("bitcast", x, fn, chunks, src, out.dtype)


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, length=None):
    """tensorx.decode_raw on each chunk of a Dask array of byte strings (byte-range shards).
    The new last dim has fixed_length / size elements when fixed_length is given, else
    length / size when every string has `length` bytes (say so), else unknown (NaN) sizes."""
    x = _as_dask(input_bytes, "decode_raw")
    kw = dict(out_type=tx.dtype_name(out_type), little_endian=little_endian,
              fixed_length=fixed_length)
    fn = functools.partial(_run, "decode_raw", kw)
    size = tx.plan(tx.decode_raw, b"", **kw)  # checks out_type
    itemsize = np.dtype(tx._numpy_dtype(size[0].dtype)).itemsize
    n = fixed_length if fixed_length is not None else length
    last = (n // itemsize,) if n is not None else (np.nan,)
    return _per_block("decode_raw", x, fn, x.chunks + (last,), lambda i: i[:-1],
                      tx._numpy_dtype(size[0].dtype))


def _read_raw(code, row_shape, little_endian, path, offset, length):
    flat = _C.decode_raw_file(os.fsencode(path), offset, length, code, little_endian)
    return flat.reshape((-1,) + tuple(row_shape))


def from_raw_files(paths, dtype, shape, little_endian=True, chunk_bytes=64 << 20):
    """A Dask array of the raw dumps `paths`, in order, along dim 0: `shape` is the whole array's
    (shape[0] may be -1: the files' total), each file holds whole rows of shape[1:] of `dtype`
    in the byte order little_endian says, and is cut into chunks of at most chunk_bytes (whole
    rows).  Each task maps its byte range (tx_file_map_string) and decodes it (tx_decode_raw):
    only that range is read, on the worker.  The files are looked at (their sizes) here, so on a
    cluster the paths must name the same files on every machine (a shared file system)."""
    name_ = tx.dtype_name(dtype)
    code = _C.dtype_code(name_)
    if code == 0 or name_ == "string":
        raise ValueError(f"from_raw_files: not a numeric dtype: {dtype!r}")
    itemsize = tx._numpy_dtype(name_).itemsize
    shape = tuple(int(n) for n in shape)
    if not shape:
        raise ValueError("from_raw_files: shape needs at least one dim (the rows)")
    row_shape = shape[1:]
    row_bytes = itemsize * math.prod(row_shape)
    if row_bytes == 0:
        raise ValueError("from_raw_files: rows of zero bytes")
    rows_per_chunk = max(1, int(chunk_bytes) // row_bytes)
    paths = [os.fspath(p) for p in paths]
    name = "tx-from-raw-files-" + tokenize(paths, [os.stat(p).st_mtime_ns for p in paths],
                                           name_, shape, little_endian, chunk_bytes)
    dsk, rows = {}, []
    read = functools.partial(_read_raw, code, row_shape, bool(little_endian))
    for p in paths:
        size = os.stat(p).st_size
        if size % row_bytes:
            raise ValueError(f"from_raw_files: {p} has {size} bytes, not a whole number of "
                             f"rows of {row_bytes} bytes ({name_} {list(row_shape)})")
        n = size // row_bytes
        for start in range(0, n, rows_per_chunk):
            k = min(rows_per_chunk, n - start)
            dsk[(name, len(rows)) + (0,) * len(row_shape)] = (
                read, p, start * row_bytes, k * row_bytes)
            rows.append(k)
    total = sum(rows)
    if shape[0] not in (-1, total):
        raise ValueError(f"from_raw_files: the files hold {total} rows, shape says {shape[0]}")
    if not rows:
        raise ValueError("from_raw_files: no rows (no files, or empty ones)")
    chunks = (tuple(rows),) + tuple((n,) for n in row_shape)
    dt = tx._numpy_dtype(name_)
    return da.Array(HighLevelGraph.from_collections(name, dsk, dependencies=[]), name, chunks,
                    dtype=dt, meta=np.empty((0,) * len(shape), dtype=dt))


# ---- tensor files: one task per file --------------------------------------------------------
def _files_array(what, paths, heads, load):
    """A Dask array of one tensor per file concatenated along axis 0, from each file's (dtype,
    shape) read at graph build time (heads) and a task load(path) per file."""
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ValueError(f"{what}: no files")
    metas = [heads(p) for p in paths]
    dt, shape0 = metas[0]
    for p, (d, shape) in zip(paths, metas):
        if not shape:
            raise ValueError(f"{what}: {p}: a scalar has no axis 0 to concatenate along")
        if d != dt or shape[1:] != shape0[1:]:
            raise ValueError(f"{what}: {p} holds {d} {list(shape)}, {paths[0]} {dt} "
                             f"{list(shape0)}: the files must agree in dtype and in every dim "
                             "but the first")
    name = f"tx-{what.replace('_', '-')}-" + tokenize(
        what, paths, [os.stat(p).st_mtime_ns for p in paths], metas)
    dsk = {(name, i) + (0,) * (len(shape0) - 1): (load, p) for i, p in enumerate(paths)}
    chunks = (tuple(s[0] for _d, s in metas),) + tuple((n,) for n in shape0[1:])
    return da.Array(HighLevelGraph.from_collections(name, dsk, dependencies=[]), name, chunks,
                    dtype=dt, meta=np.empty((0,) * len(shape0), dtype=dt))


def _load_named(name, path):
    return tx.load(path, name, format="safetensors")


def _safetensors_head(name):
    def head(path):
        a = tx.load(path, name, format="safetensors")  # a view of the mapping: no data read
        return a.dtype, a.shape
    return head


def from_safetensors(paths, name):
    """A Dask array of tensor `name` of each safetensors file of `paths`, concatenated along axis
    0, one task (and chunk) per file.  The dtypes and shapes are read from the headers here; each
    task reads its tensor with tensorx.load (a read-only view of the mapped file)."""
    return _files_array("from_safetensors", paths, _safetensors_head(name),
                        functools.partial(_load_named, name))


def _load_npz_member(name, path):
    return tx.load(path, name, format="npz")


def _npz_head(name):
    def head(path):
        # The member's .npy header alone (a deflated member is inflated only as far as that);
        # format 3.0 headers, which NumPy reads through a private function, load the array.
        with zipfile.ZipFile(path) as z:
            if name + ".npy" in z.namelist():
                with z.open(name + ".npy") as f:
                    version = np.lib.format.read_magic(f)
                    read = {(1, 0): np.lib.format.read_array_header_1_0,
                            (2, 0): np.lib.format.read_array_header_2_0}.get(version)
                    if read is not None:
                        shape, _fortran, dtype = read(f)
                        return np.dtype(dtype), tuple(shape)
        a = tx.load(path, name, format="npz")  # raises the library's error for the file or name
        return a.dtype, a.shape
    return head


def from_npz(paths, name):
    """A Dask array of array `name` of each .npz file of `paths` (np.savez or np.savez_compressed),
    concatenated along axis 0, one task (and chunk) per file.  The dtypes and shapes are read from
    the members' .npy headers here; each task reads its array with tensorx.load."""
    return _files_array("from_npz", paths, _npz_head(name),
                        functools.partial(_load_npz_member, name))


# IDX type codes (include/tensorx/idx.h) -> NumPy dtypes
_IDX_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: np.int16, 0x0C: np.int32, 0x0D: np.float32,
               0x0E: np.float64}


def _idx_head(path):
    """(dtype, shape) from an IDX file's header (gzip'd or not): its first 4 + 4 * rank bytes."""
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    with (gzip.open(path, "rb") if gz else open(path, "rb")) as f:
        head = f.read(4)
        if len(head) == 4 and head[:2] == b"\0\0" and head[2] in _IDX_DTYPES:
            dims = f.read(4 * head[3])
            if len(dims) == 4 * head[3]:
                return (np.dtype(_IDX_DTYPES[head[2]]),
                        tuple(int.from_bytes(dims[i:i + 4], "big") for i in range(0, len(dims), 4)))
    tx.load(path, format="idx")  # raises the library's error for the header
    raise tx.InvalidArgumentError(f"from_idx: {path}: not an IDX file")


def _load_idx(path):
    return tx.load(path, format="idx")


def from_idx(paths):
    """A Dask array of the IDX files `paths` (plain or gzip'd), concatenated along axis 0, one
    task (and chunk) per file; the shapes are read from the headers here."""
    return _files_array("from_idx", paths, _idx_head, _load_idx)


def _tfrecord_partition(path, compression):
    # bytes, not the reader's memoryviews: a partition may be pickled to another process
    return [bytes(r) for r in tx.tfrecord_records(path, compression)]


def tfrecord_bag(paths, compression=None):
    """A Dask bag of the records (bytes) of the TFRecord files `paths`, one partition per file,
    read by tensorx.tfrecord_records in the task (checksums verified; a damaged record raises
    DataLossError)."""
    import dask.bag as db
    paths = [os.fspath(p) for p in paths]
    if not paths:
        raise ValueError("tfrecord_bag: no files")
    tx._files._compression(compression, "tfrecord_bag")  # checked here, not in the tasks
    name = "tx-tfrecord-bag-" + tokenize(paths, [os.stat(p).st_mtime_ns for p in paths],
                                         compression)
    dsk = {(name, i): (_tfrecord_partition, p, compression) for i, p in enumerate(paths)}
    return db.Bag(HighLevelGraph.from_collections(name, dsk, dependencies=[]), name, len(paths))


def from_tfrecord(paths, features, decode=None, compression=None, records_per_chunk=None):
    """The features of the tf.train.Example records of the TFRecord files `paths`: per
    FixedLenFeature a Dask array [records] + shape (+ the last dim of `decode`, as in
    tensorx.tfrecord_batches), per VarLenFeature a bag of each record's values (1-D arrays).
    One task parses a chunk (a file, or records_per_chunk records of an uncompressed one) for
    every feature.  The records are counted here (the files' indexes): chunk sizes are known."""
    import dask.bag as db
    spec = _features._Spec(features, "from_tfrecord")
    decoder = spec.decoder(decode, "from_tfrecord")
    chunks, widths = _features._chunks(spec, decoder, paths, compression, records_per_chunk)
    token = tokenize(chunks, [os.stat(c[0]).st_mtime_ns for c in chunks], compression,
                     vars(spec), decoder)
    pname = "tx-from-tfrecord-" + token
    layer = {(pname, i): (_features._parse_chunk, spec, decoder, widths, compression) + c
             for i, c in enumerate(chunks)}
    out = {}
    for key in spec.sparse + spec.dense:  # each a getitem of the one parse per chunk
        name = f"tx-from-tfrecord-{key}-{token}"
        shape = () if key in spec.sparse else tuple(spec.shapes[spec.dense.index(key)].tolist())
        shape += (widths[key][0],) if key in decoder else ()
        items = {(name, i) + (0,) * len(shape): (operator.getitem, (pname, i), key)
                 for i in range(len(chunks))}
        graph = HighLevelGraph({pname: layer, name: items}, {pname: set(), name: {pname}})
        if key in spec.sparse:
            out[key] = db.Bag(graph, name, len(chunks))
            continue
        dtype = tx._numpy_dtype(decoder[key][0] if key in decoder else spec.dtypes[key])
        out[key] = da.Array(graph, name, (tuple(c[2] for c in chunks),) +
                            tuple((d,) for d in shape), dtype=dtype,
                            meta=np.empty((0,) * (1 + len(shape)), dtype=dtype))
    return out


# ---- reordering -----------------------------------------------------------------------------
def _axis(a, ndim, op):
    if not -ndim <= a < ndim:
        raise tx.InvalidArgumentError(f"{op}: axis {a} out of range for rank {ndim}")
    return a % ndim


def reverse(tensor, dims=None, axis=None):
    """tensorx.reverse on each chunk, and the chunk grid reversed along the same axes: output
    chunk j along a reversed axis is input chunk n-1-j, reversed."""
    x = _as_dask(tensor, "reverse")
    if (dims is None) == (axis is None):
        raise TypeError("tensorx.dask.reverse: give dims (a bool per dim) or axis (a list)")
    if dims is not None:
        if isinstance(dims, da.Array):
            raise _not_local("reverse", "dims as a Dask array is not static")
        d = [bool(v) for v in np.asarray(dims).reshape(-1)]
        if len(d) != x.ndim:
            raise tx.InvalidArgumentError(
                f"reverse: dims has {len(d)} entries for a tensor of rank {x.ndim}")
        axes = sorted(i for i, v in enumerate(d) if v)
    else:
        axes = sorted({_axis(int(a), x.ndim, "reverse") for a in tx._int_list(axis)})
    fn = functools.partial(_run, "reverse", dict(axis=tuple(axes)))
    fn(_sample(x))
    chunks = tuple(c[::-1] if i in axes else c for i, c in enumerate(x.chunks))
    nb = x.numblocks
    return _per_block("reverse", x, fn, chunks,
                      lambda idx: tuple(nb[i] - 1 - j if i in axes else j
                                        for i, j in enumerate(idx)), x.dtype)


def transpose(a, perm=None, conjugate=False):
    """tensorx.transpose on each chunk, and the chunk grid permuted the same way: output block
    (i_0, ..., i_r-1) is input block b with b[perm[k]] = i_k, transposed."""
    x = _as_dask(a, "transpose")
    if isinstance(perm, da.Array):
        raise _not_local("transpose", "perm as a Dask array is not static")
    perm = tuple(range(x.ndim))[::-1] if perm is None else \
        tuple(int(p) for p in np.asarray(perm).reshape(-1))
    if sorted(p % x.ndim if -x.ndim <= p < x.ndim else -1 for p in perm) != list(range(x.ndim)):
        tx.transpose(_sample(x), np.asarray(perm, dtype=np.int64))  # tensorx's error
    perm = tuple(p % x.ndim for p in perm)
    fn = functools.partial(_run, "transpose",
                           dict(perm=np.asarray(perm, dtype=np.int32), conjugate=conjugate))
    out = fn(_sample(x))
    inv = [perm.index(i) for i in range(x.ndim)]
    return _per_block("transpose", x, fn, tuple(x.chunks[p] for p in perm),
                      lambda idx: tuple(idx[inv[i]] for i in range(x.ndim)), out.dtype)


# ---- gathering and encoding -----------------------------------------------------------------
def one_hot(indices, depth, on_value=None, off_value=None, axis=-1, dtype=None, oob="error"):
    """tensorx.one_hot on each chunk of indices: the new axis (of size depth) is one chunk."""
    x = _as_dask(indices, "one_hot")
    kw = dict(depth=depth, on_value=on_value, off_value=off_value, axis=axis, dtype=dtype,
              oob=oob)
    fn = functools.partial(_run, "one_hot", kw)
    out = fn(_sample(x).astype(x.dtype))
    pos = x.ndim if axis == -1 else axis
    chunks = x.chunks[:pos] + ((depth,),) + x.chunks[pos:]
    return _per_block("one_hot", x, fn, chunks, lambda i: i[:pos] + i[pos + 1:], out.dtype)


def sequence_mask(lengths, maxlen=None, dtype="bool"):
    """tensorx.sequence_mask on each chunk of lengths; maxlen must be given (an int): its
    default, max(lengths), needs the whole array."""
    x = _as_dask(lengths, "sequence_mask")
    if maxlen is None or isinstance(maxlen, da.Array):
        raise _not_local("sequence_mask", "without a static maxlen the mask's width is "
                         "max(lengths), which needs every chunk")
    maxlen = int(maxlen)
    kw = dict(maxlen=np.asarray(maxlen, dtype=np.int64 if maxlen > 2**31 - 1 else np.int32),
              dtype=tx.dtype_name(dtype))
    fn = functools.partial(_run, "sequence_mask", kw)
    out = fn(_sample(x))
    return _per_block("sequence_mask", x, fn, x.chunks + ((maxlen,),), lambda i: i[:-1],
                      out.dtype)


def _gather_block(axis, oob, params, block):
    return tx.gather(params, block, axis=axis, oob=oob)


def gather(params, indices, axis=None, batch_dims=0, oob="error"):
    """tensorx.gather of in-memory params (a NumPy array, put in the graph once) at each chunk
    of a Dask array of indices: output shape params.shape[:axis] + indices.shape +
    params.shape[axis+1:], with params' dims as single chunks."""
    if isinstance(params, da.Array):
        raise _not_local("gather", "params must be in memory (a NumPy array): every output "
                         "chunk may need any row of them")
    if batch_dims:
        raise _not_local("gather", "batch_dims pairs chunks of params with chunks of indices")
    params = tx._tensor(params)
    x = _as_dask(indices, "gather")
    ax = 0 if axis is None else _axis(int(axis), params.ndim, "gather")
    fn = functools.partial(_gather_block, ax, oob)
    out = fn(params, _sample(x) if x.size == 0 else np.zeros(_sample(x).shape, x.dtype))
    pkey = ("tx-gather-params-" + tokenize(params),)
    chunks = tuple((n,) for n in params.shape[:ax]) + x.chunks + \
        tuple((n,) for n in params.shape[ax + 1:])
    lead = ax
    name = "tx-gather-" + tokenize(x.name, pkey, ax, oob)
    dsk = {pkey: params}
    for idx in itertools.product(*(range(len(c)) for c in chunks)):
        dsk[(name,) + idx] = (fn, pkey, (x.name,) + idx[lead:lead + x.ndim])
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, chunks, dtype=out.dtype,
                    meta=np.empty((0,) * len(chunks), dtype=out.dtype))


# ---- strided_slice --------------------------------------------------------------------------
def _dense_spec(ndim, begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                shrink_axis_mask):
    """TF's sparse-to-dense spec (BuildDenseSpec): per input dim (begin, end, stride, begin
    masked, end masked, shrink), and the output dims in order ('new' or an input dim)."""
    n = len(begin)
    if ellipsis_mask & (ellipsis_mask - 1):
        raise tx.InvalidArgumentError("strided_slice: multiple ellipses in slice spec")
    if not ellipsis_mask:  # an implicit ellipsis at the end
        ellipsis_mask |= 1 << n
        n += 1
        begin, end, strides = list(begin) + [0], list(end) + [0], list(strides) + [1]
    dense, out_dims, full = [], [], 0
    for i in range(n):
        bit = 1 << i
        if ellipsis_mask & bit:
            after = sum(1 for j in range(i + 1, n) if new_axis_mask & (1 << j)
                        and not ellipsis_mask & (1 << j))
            stop = min(ndim - (n - i) + 1 + after, ndim)
            for _ in range(full, stop):
                dense.append((0, 0, 1, True, True, False))
                out_dims.append(full)
                full += 1
        elif new_axis_mask & bit:
            out_dims.append("new")
        else:
            if full == ndim:
                raise tx.InvalidArgumentError(
                    f"strided_slice: index {i} out of range using input dim {full}")
            shrink = bool(shrink_axis_mask & bit)
            dense.append((int(begin[i]), int(end[i]), int(strides[i]), bool(begin_mask & bit),
                          bool(end_mask & bit), shrink))
            if not shrink:
                out_dims.append(full)
            full += 1
    return dense, out_dims


def _slice_block(begin, end, strides, end_mask, shrink, out_shape, block):
    y = tx.strided_slice(block, np.asarray(begin, np.int64), np.asarray(end, np.int64),
                         np.asarray(strides, np.int64), end_mask=end_mask,
                         shrink_axis_mask=shrink)
    return y.reshape(out_shape)


def strided_slice(input_, begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                  new_axis_mask=0, shrink_axis_mask=0):
    """tensorx.strided_slice with static begin/end/strides (lists or NumPy arrays) and TF's five
    masks: each output chunk is the slice of one input chunk (an axis with a negative stride
    takes the input chunks in reverse order), new axes are single chunks."""
    x = _as_dask(input_, "strided_slice")
    if any(isinstance(v, da.Array) for v in (begin, end, strides)):
        raise _not_local("strided_slice", "begin, end and strides must be static (not Dask "
                         "arrays)")
    begin, end, strides = (np.asarray(v).reshape(-1).tolist() for v in (begin, end, strides))
    if not len(begin) == len(end) == len(strides):
        raise tx.InvalidArgumentError("strided_slice: begin, end and strides differ in length")
    if 0 in strides:
        raise tx.InvalidArgumentError("strided_slice: strides[i] must be non-zero")
    dense, out_dims = _dense_spec(x.ndim, begin, end, strides, begin_mask, end_mask,
                                  ellipsis_mask, new_axis_mask, shrink_axis_mask)
    # per input dim: a list of (input chunk, local begin, local end or None, count)
    per_dim = []
    for d, ((b, e, s, bm, em, shrink), n) in enumerate(zip(dense, x.shape)):
        starts = np.cumsum((0,) + x.chunks[d])
        if shrink:
            i = b + n if b < 0 else b
            if not 0 <= i < n or s <= 0:
                tx.strided_slice(np.zeros(x.shape[d:d + 1] or (0,), np.int8), [b], [e], [s],
                                 shrink_axis_mask=1)  # tensorx's own error
                raise tx.InvalidArgumentError(f"strided_slice: bad shrink index {b} of dim {d}")
            c = int(np.searchsorted(starts, i, side="right") - 1)
            per_dim.append([(c, i - starts[c], None, 1)])
            continue
        sel = range(*slice(None if bm else b, None if em else e, s).indices(n))
        order = range(len(x.chunks[d])) if s > 0 else range(len(x.chunks[d]) - 1, -1, -1)
        pieces = []
        for c in order:
            lo, hi = starts[c], starts[c + 1]
            if s > 0:
                first = sel.start if sel.start >= lo else \
                    sel.start + -(-(lo - sel.start) // s) * s
                if not sel or first >= hi or first >= sel.stop:
                    continue
                last = min(hi - 1, sel[-1])
                cnt = (last - first) // s + 1
                pieces.append((c, first - lo, first - lo + (cnt - 1) * s + 1, cnt))
            else:
                first = sel.start if sel.start < hi else \
                    sel.start - -(-(sel.start - (hi - 1)) // -s) * -s
                if not sel or first < lo or first <= sel.stop:
                    continue
                last = max(lo, sel[-1])
                cnt = (first - last) // -s + 1
                endl = first - lo - (cnt - 1) * -s - 1
                pieces.append((c, first - lo, None if endl < 0 else endl, cnt))
        if not pieces:
            pieces = [(0, 0, 0, 0)]
        per_dim.append(pieces)
    out_chunks = []
    for od in out_dims:
        out_chunks.append((1,) if od == "new" else tuple(p[3] for p in per_dim[od]))
    name = "tx-strided-slice-" + tokenize(x.name, dense, out_dims)
    dsk = {}
    for idx in itertools.product(*(range(len(c)) for c in out_chunks)):
        pick = {od: per_dim[od][j] for od, j in zip(out_dims, idx) if od != "new"}
        src, bs, es, steps, em, sh = [], [], [], [], 0, 0
        for d, (_b, _e, s, _bm, _em, shrink) in enumerate(dense):
            p = pick.get(d, per_dim[d][0])  # a shrunk dim has one piece
            src.append(p[0])
            bs.append(int(p[1]))
            steps.append(1 if shrink else s)
            if shrink:
                es.append(int(p[1]) + 1)
                sh |= 1 << d
            elif p[2] is None:  # a negative stride down to the chunk's first element
                es.append(0)
                em |= 1 << d
            else:
                es.append(int(p[2]))
        shape = tuple(c[j] for c, j in zip(out_chunks, idx))
        fn = functools.partial(_slice_block, bs, es, steps, em, sh, shape)
        dsk[(name,) + idx] = (fn, (x.name,) + tuple(src))
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, tuple(out_chunks), dtype=x.dtype,
                    meta=np.empty((0,) * len(out_chunks), dtype=x.dtype))


# ---- writing one .npy -----------------------------------------------------------------------
def _npy_header(dtype, shape):
    import io
    d = {"descr": np.lib.format.dtype_to_descr(dtype), "fortran_order": False,
         "shape": tuple(shape)}
    buf = io.BytesIO()
    try:
        np.lib.format.write_array_header_1_0(buf, d)
    except ValueError:  # a header past 64 KiB: version 2.0
        buf = io.BytesIO()
        np.lib.format.write_array_header_2_0(buf, d)
    return buf.getvalue()


def _pwrite_all(fd, data, offset):
    view = memoryview(data)
    while len(view):
        n = os.pwrite(fd, view, offset)
        view, offset = view[n:], offset + n


def _write_block(path, data_offset, shape, dtype, starts, block):
    """Writes one chunk into the .npy at `path` (its data start at data_offset): the block's rows
    are contiguous runs of the file along its innermost partial dim, one pwrite per run."""
    b = np.ascontiguousarray(block, dtype=dtype)
    isz = b.dtype.itemsize
    raw = b.reshape(-1).view(np.uint8)
    nd = len(shape)
    fstride = [math.prod(shape[i + 1:]) for i in range(nd)]
    k = nd - 1
    while k > 0 and b.shape[k] == shape[k]:
        k -= 1  # dims after k are whole in the block: a run is b.shape[k] of them
    run = b.shape[k] * fstride[k] if nd else 1
    fd = os.open(path, os.O_WRONLY)
    try:
        if nd == 0 or b.size == 0:
            if b.size:
                _pwrite_all(fd, raw, data_offset)
            return b.nbytes
        for j, prefix in enumerate(np.ndindex(*b.shape[:k])):
            elem = sum((starts[i] + prefix[i]) * fstride[i] for i in range(k)) + \
                starts[k] * fstride[k]
            _pwrite_all(fd, raw[j * run * isz:(j + 1) * run * isz], data_offset + elem * isz)
    finally:
        os.close(fd)
    return b.nbytes


def to_npy(array, path):
    """Writes the Dask array `array` to one .npy at `path` without gathering it: the header and
    the file's size are set here, then each task writes its chunk at its offset in C order
    (header length + the chunk's first element's row-major index * itemsize, one run per
    contiguous stretch).  The file is written as `path`.tx-dask-tmp beside it and renamed once
    every chunk is in, so `path` never holds a partial file.  On a cluster, `path` must be on a
    file system every worker sees under that name.  Runs on the current scheduler (the
    distributed Client, if there is one) and returns the number of data bytes written."""
    x = _as_dask(array, "to_npy")
    if any(math.isnan(c) for cs in x.chunks for c in cs):
        raise ValueError("to_npy: unknown chunk sizes (compute_chunk_sizes() first)")
    if x.dtype == object or x.dtype.hasobject:
        raise TypeError("to_npy: string (object) arrays have no fixed-size .npy layout")
    shape = tuple(int(n) for n in x.shape)
    header = _npy_header(x.dtype, shape)
    path = os.fspath(path)
    tmp = path + ".tx-dask-tmp"
    nbytes = math.prod(shape) * x.dtype.itemsize
    with open(tmp, "wb") as f:
        f.write(header)
        f.truncate(len(header) + nbytes)
    try:
        offs = [np.cumsum((0,) + c).tolist() for c in x.chunks]
        blocks = x.to_delayed().reshape(-1)  # C order, as itertools.product below
        writes = []
        for idx, blk in zip(itertools.product(*(range(len(c)) for c in x.chunks)), blocks):
            starts = tuple(offs[d][j] for d, j in enumerate(idx))
            writes.append(dask.delayed(_write_block, pure=False)(
                tmp, len(header), shape, x.dtype, starts, blk))
        written = sum(dask.compute(*writes))
        if written != nbytes:
            raise RuntimeError(f"to_npy: {written} bytes written of {nbytes}")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return nbytes
