# SPDX-License-Identifier: Apache-2.0
"""peer_openvino.py -- OpenVINO's CPU plugin as a peer of bench/peers_current.py: the op as a
one-op model (its parameters the op's tensors, its attributes constants), compiled once per
thread count (INFERENCE_NUM_THREADS 1 and 2, the faster is the column) with
INFERENCE_PRECISION_HINT f32, so that float tensors are not run in bf16 or f16.  What is timed is
one request.infer() of an infer request made beforehand, inputs and outputs shared with NumPy
(share_inputs, share_outputs: the inputs are not copied in and the output is a view of the
request's own tensor, written again by each call), so only the op's own writes are timed.

identity is Convert to the input's own type, which the CPU plugin keeps as a copy (a model of
Parameter -> Result alone would hand back the input's buffer); a model the plugin compiles to
nothing between its parameters and results is left out.  Convert's float8 results differ from
TF's, so the runner leaves them out: to f8e4m3 it rounds twice (through f16: 272.08 -> 272 ->
256, where TF gives 288), to f8e8m0 it makes negatives 0x00 (TF: NaN, 0xff).

Left out (no single OpenVINO op does TF's): saturate_cast (Convert promises no clamping to the
destination's range), bitcast, decode_raw, boolean_mask, and space_to_depth / depth_to_space
(OpenVINO's are NCHW only, TF's NHWC)."""
import numpy as np

PEER = "openvino"
ov = ops = nodes = core = None

# TF dtype names -> OpenVINO element types (bf16, f8e4m3 and f8e8m0 come back as f16/u8 arrays
# of the same bits)
TYPES = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
         "int32": "i32", "uint8": "u8", "float8_e4m3fn": "f8e4m3", "float8_e8m0fnu": "f8e8m0"}


def load():
    global ov, ops, nodes, core
    import openvino  # noqa: PLC0415
    import openvino.opset16 as opset  # noqa: PLC0415  (the newest full opset of the package)
    from openvino.utils.node_factory import NodeFactory  # noqa: PLC0415
    ov, ops, core = openvino, opset, openvino.Core()
    nodes = NodeFactory("opset1")  # Reverse-1 has no Python builder
    return ov.__version__.split("-")[0]


def _i64(v):
    return ops.constant(np.array(v, dtype=np.int64))


def _build(op, ps, attrs):
    """The op's node on parameters ps, or None when OpenVINO has no single op for it."""
    a = attrs
    if op == "identity":
        return ops.convert(ps[0], ps[0].get_element_type())
    if op == "cast":
        t = TYPES.get(a["dtype"])
        return ops.convert(ps[0], t) if t else None
    if op == "transpose":
        return ops.transpose(ps[0], _i64(a["perm"]))
    if op == "concat":
        return ops.concat(ps, a.get("axis", 0))
    if op == "reverse":
        return nodes.create("Reverse", [ps[0].output(0), _i64(a["axis"]).output(0)],
                            {"mode": "index"})
    if op == "pad":
        p = np.array(a["paddings"], dtype=np.int64)
        modes = {"CONSTANT": "constant", "REFLECT": "reflect", "SYMMETRIC": "symmetric"}
        mode = modes[a.get("mode", "CONSTANT")]
        zero = np.zeros((), ps[0].get_element_type().to_dtype())
        return ops.pad(ps[0], p[:, 0], p[:, 1], mode, zero if mode == "constant" else None)
    if op == "tile":
        return ops.tile(ps[0], _i64(a["multiples"]))
    if op == "strided_slice":
        def bits(mask):  # TF's bit i -> OpenVINO's list entry i (1: ignore begin/end there)
            return [(mask >> i) & 1 for i in range(len(a["begin"]))]
        return ops.strided_slice(ps[0], _i64(a["begin"]), _i64(a["end"]), _i64(a["strides"]),
                                 bits(a.get("begin_mask", 0)), bits(a.get("end_mask", 0)))
    if op == "split":
        return ops.split(ps[0], a["split_dim"], a["num_split"]).outputs()
    if op in ("space_to_batch_nd", "batch_to_space_nd"):
        # OpenVINO's block and pads span every dim (batch and channels: 1 and 0)
        block = _i64([1] + list(a["block_shape"]) + [1])
        p = np.array([[0, 0]] + list(a.get("paddings", a.get("crops"))) + [[0, 0]], np.int64)
        f = ops.space_to_batch if op == "space_to_batch_nd" else ops.batch_to_space
        return f(ps[0], block, _i64(p[:, 0]), _i64(p[:, 1]))
    if op == "gather":
        return ops.gather(ps[0], ps[1], _i64(a.get("axis", 0)))
    if op == "gather_nd":
        return ops.gather_nd(ps[0], ps[1])
    if op == "one_hot":
        return ops.one_hot(ps[0], _i64(a["depth"]), np.float32(1), np.float32(0), -1)
    if op == "unique_with_counts":
        # Unique-10 unsorted keeps first-occurrence order, as TF's; its outputs are the
        # elements, their first indices, each input's index into them and the counts
        u = ops.unique(ps[0], sorted=False, index_element_type="i32", count_element_type="i32")
        return [u.output(0), u.output(2), u.output(3)]
    return None


def variants(op, inputs, attrs):
    if not all(isinstance(v, np.ndarray) and v.dtype != object for v in inputs):
        return []
    ps = [ops.parameter(list(v.shape), ov.Type(v.dtype)) for v in inputs]
    node = _build(op, ps, attrs)
    if node is None:
        return []
    outs = node if isinstance(node, list) else node.outputs()
    model = ov.Model(outs, ps)
    xs = list(inputs)
    out = []
    for n in (1, 2):
        compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32",
                                                     "INFERENCE_NUM_THREADS": n})
        if len(compiled.get_runtime_model().get_ordered_ops()) <= len(ps) + len(outs):
            return []  # optimized away: the results would be the inputs' own buffers
        req = compiled.create_infer_request()
        out.append((f"{n} thread{'s' if n > 1 else ''}",
                    lambda req=req: req.infer(xs, share_inputs=True, share_outputs=True)))
    return out


def to_numpy(r):
    vals = tuple(np.array(v, copy=True) for v in r.to_tuple())
    return vals if len(vals) > 1 else vals[0]
