# SPDX-License-Identifier: Apache-2.0
"""peer_ort.py -- ONNX Runtime's Python API as a peer of bench/peers_current.py (column ort_cur).
Each spec becomes a one-node ONNX model built in memory with onnx.helper (attribute-like tensors --
Slice's starts/ends, Pad's pads, Tile's repeats, OneHot's depth and values -- as initializers),
run by one InferenceSession per intra-op thread count (1 and 2; graph optimizations at their
default).  As bench/ort_peer.js does, each session is timed both with ORT allocating the output
(session.run) and writing into an output allocated once (IOBinding, "prealloc"); the runner keeps
the fastest.  Inputs are made OrtValues (NumPy's memory, not copied) once, before timing.
ORT's Identity copies (its output is a buffer of its own), so identity is a peer of copy.

Left out, having no single ONNX op with TF's result: saturate_cast (Clip then Cast is two ops, and
Cast's saturate applies to float8 only), decode_raw, space_to_depth / depth_to_space (ONNX's are
NCHW: NHWC needs two Transposes more), cast to float8_e4m3fn (see _plan)."""
import ctypes
import math

import numpy as np

PEER = "ort_cur"
ort = onnx = None
THREADS = (1, 2)
I64_MIN, I64_MAX = -2 ** 63, 2 ** 63 - 1


def load():
    global ort, onnx
    import onnx as onnx_mod  # noqa: PLC0415
    import onnxruntime  # noqa: PLC0415
    ort, onnx = onnxruntime, onnx_mod
    return ort.__version__


def _elem(name):
    TP = onnx.TensorProto
    return {"float16": TP.FLOAT16, "bfloat16": TP.BFLOAT16, "int32": TP.INT32, "float32": TP.FLOAT,
            "float64": TP.DOUBLE, "uint8": TP.UINT8, "int16": TP.INT16, "int64": TP.INT64,
            "float8_e4m3fn": TP.FLOAT8E4M3FN, "float8_e8m0fnu": TP.FLOAT8E8M0}[name]


def _slice(begin, end, strides, begin_mask=0, end_mask=0, **rest):
    """TF's strided_slice as ONNX Slice's constant inputs (a masked bound: the whole axis)."""
    if any(rest.values()):  # ellipsis, new_axis, shrink_axis: not one Slice
        return None
    starts = [(0 if s > 0 else -1) if begin_mask >> i & 1 else b
              for i, (b, s) in enumerate(zip(begin, strides))]
    ends = [(I64_MAX if s > 0 else I64_MIN) if end_mask >> i & 1 else e
            for i, (e, s) in enumerate(zip(end, strides))]
    return [np.array(v, np.int64) for v in (starts, ends, range(len(strides)), strides)]


def _plan(op, xs, a):
    """(ONNX op, node attributes, data inputs, constant inputs, output names, output element
    type, opset) for the spec, or None when ONNX has no single op giving TF's result."""
    x = xs[0]
    same = None  # the output's element type: the first input's unless given
    if op == "identity":
        return "Identity", {}, xs, [], ["y"], same, 21
    if op == "cast":
        to, opts, opset = _elem(a["dtype"]), {}, 21
        if a["dtype"] == "float8_e4m3fn":
            # saturating, ORT gives 448 for inf; not saturating, it still gives 448 for |x| in
            # [480, 496), where TF's cast (ml_dtypes') gives NaN
            return None
        if a["dtype"] == "float8_e8m0fnu":
            # saturate=0 (inf, NaN, zero and negatives become NaN) and rounding to nearest: TF's
            # result, but for float32 subnormals (ORT: NaN, TF: 2^-127), none in the workloads
            opts, opset = {"saturate": 0, "round_mode": "nearest"}, 24
        return "Cast", {"to": to, **opts}, xs, [], ["y"], to, opset
    if op == "bitcast":
        to = _elem(a["type"])
        return "BitCast", {"to": to}, xs, [], ["y"], to, 26
    if op == "transpose":
        return "Transpose", {"perm": a["perm"]}, xs, [], ["y"], same, 21
    if op == "concat":
        return "Concat", {"axis": a["axis"]}, xs, [], ["y"], same, 21
    if op == "reverse":
        k = len(a["axis"])  # each axis from its last element down, step -1
        c = [np.full(k, -1), np.full(k, I64_MIN), np.array(a["axis"]), np.full(k, -1)]
        return "Slice", {}, xs, [v.astype(np.int64) for v in c], ["y"], same, 21
    if op == "strided_slice":
        c = _slice(**a)
        return None if c is None else ("Slice", {}, xs, c, ["y"], same, 21)
    if op == "pad":
        p = np.array(a["paddings"], np.int64)
        return "Pad", {"mode": a["mode"].lower()}, xs, [p.T.reshape(-1)], ["y"], same, 21
    if op == "tile":
        return "Tile", {}, xs, [np.array(a["multiples"], np.int64)], ["y"], same, 21
    if op == "gather":
        return "Gather", {"axis": a["axis"]}, xs, [], ["y"], same, 21
    if op == "split":  # equal parts (num_outputs: opset 18+)
        n = a["num_split"]
        return ("Split", {"axis": a["split_dim"], "num_outputs": n}, xs, [],
                [f"y{i}" for i in range(n)], same, 21)
    if op == "gather_nd":  # ONNX's GatherND takes int64 indices only
        return "GatherND", {}, [x, xs[1].astype(np.int64)], [], ["y"], same, 21
    if op == "boolean_mask":
        # Compress without an axis takes the flattened input: tf.boolean_mask's result when the
        # mask covers every axis (its flattening is a view)
        if xs[1].shape != x.shape:
            return None
        return "Compress", {}, [x, xs[1].reshape(-1)], [], ["y"], same, 21
    if op == "one_hot":  # int32 labels and depth, off/on 0/1: TF's float32 one_hot
        c = [np.array(a["depth"], np.int32), np.array([0, 1], np.float32)]
        return "OneHot", {"axis": -1}, xs, c, ["y"], onnx.TensorProto.FLOAT, 21
    if op == "unique_with_counts":
        # sorted=0: first-occurrence order, as TF's.  ORT's CPU Unique has no int32 kernel: the
        # values are given as int64 (converted once, before timing); every output is int64.
        # The outputs fetched: Y, inverse_indices, counts (TF's y, idx, count).
        y = x.astype(np.int64) if x.dtype == np.int32 else x
        return "Unique", {"sorted": 0}, [y], [], ["y", "", "idx", "count"], same, 21
    return None


def _model(onnx_op, attrs, data, consts, outs, out_elem, opset):
    h = onnx.helper
    ins = [f"x{i}" for i in range(len(data))]
    cnames = [f"c{i}" for i in range(len(consts))]
    elem = out_elem or h.np_dtype_to_tensor_dtype(data[0].dtype)
    node = h.make_node(onnx_op, ins + cnames, outs, **attrs)
    graph = h.make_graph(
        [node], "g",
        [h.make_tensor_value_info(n, h.np_dtype_to_tensor_dtype(v.dtype), v.shape)
         for n, v in zip(ins, data)],
        [h.make_tensor_value_info(n, elem, None) for n in outs if n],
        [onnx.numpy_helper.from_array(v, n) for n, v in zip(cnames, consts)])
    ir = 11 if opset >= 24 else 10  # the IR versions those opsets came with
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], ir_version=ir)
    return m.SerializeToString(), dict(zip(ins, data)), elem


def _session(model, threads):
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    return ort.InferenceSession(model, so, providers=["CPUExecutionProvider"])


def _runs(s, feeds, fetch, elem, t):
    """The session's variants: ORT allocating the output, and (one output) a preallocated one."""
    vals = {k: ort.OrtValue.ortvalue_from_numpy(v) for k, v in feeds.items()}
    first = s.run_with_ort_values(fetch, vals)
    try:
        s.run(fetch, feeds)
        alloc = lambda: s.run(fetch, feeds)  # noqa: E731
    except Exception:  # noqa: BLE001  (bfloat16, float8_e8m0: NumPy has no such type)
        alloc = lambda: s.run_with_ort_values(fetch, vals)  # noqa: E731  (results as OrtValues)
    vs = [(f"{t}t", alloc)]
    if len(fetch) == 1:
        pre = ort.OrtValue.ortvalue_from_shape_and_type(first[0].shape(), elem)
        io = s.io_binding()
        for k, v in vals.items():
            io.bind_ortvalue_input(k, v)
        io.bind_ortvalue_output(fetch[0], pre)
        # the result is the output bound (what the caller reads), as session.run's list
        vs.append((f"{t}t prealloc", lambda: (s.run_with_iobinding(io), [pre])[1]))
    return vs


def variants(op, inputs, attrs):
    p = _plan(op, inputs, attrs)
    if p is None:
        return []
    model, feeds, elem = _model(*p)
    fetch = [n for n in p[4] if n]
    return [v for t in THREADS for v in _runs(_session(model, t), feeds, fetch, elem, t)]


def _array(v):
    """An OrtValue's contents; raw bits when NumPy lacks its type (bfloat16, float8_e8m0)."""
    if isinstance(v, np.ndarray):
        return v
    try:
        return v.numpy()
    except Exception:  # noqa: BLE001
        n, shape = v.tensor_size_in_bytes(), v.shape()
        size = math.prod(shape)
        raw = np.frombuffer(ctypes.string_at(v.data_ptr(), n), np.uint8)
        return raw.view(f"u{n // size}").reshape(shape) if size else raw.reshape(shape)


def to_numpy(r):
    return _array(r[0]) if len(r) == 1 else tuple(_array(v) for v in r)


def floor():
    """Seconds per session.run of a one-node Identity on one float32 (the better thread count),
    as bench/ort_peer.js's ort_session.  run_with_iobinding's fixed cost is lower (about 1.7
    against 2.8 us here), so a small op's prealloc time can be below this floor."""
    import peers as P  # noqa: PLC0415
    x = np.ones(1, np.float32)
    model, feeds, _ = _model("Identity", {}, [x], [], ["y"], None, 21)
    return min(P.time_thunk(lambda s=_session(model, t): s.run(None, feeds), 3) for t in THREADS)
