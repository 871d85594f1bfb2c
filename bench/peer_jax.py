# SPDX-License-Identifier: Apache-2.0
"""peer_jax.py -- JAX (XLA on the CPU) as a peer of bench/peers_current.py: each op a jax.jit-ed
function of its arrays, compiled once before timing; the inputs are put on the device before
timing, and each call blocks until its result is ready, so the time holds the work.  decode_raw's
bytes go on the device as a uint8 array (as TF's string tensor is made before timing) and are
bitcast there; a string tensor of records has no JAX type and is left out."""
import numpy as np

PEER = "jax"
jax = jnp = lax = None


def load():
    global jax, jnp, lax
    import jax as jax_  # noqa: PLC0415
    jax = jax_
    # float64 inputs would otherwise become float32 on the device; int32/float32 stay as they are
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp_  # noqa: PLC0415
    from jax import lax as lax_  # noqa: PLC0415
    jnp, lax = jnp_, lax_
    return jax.__version__


def _slices(a, rank):
    """strided_slice's begin/end/strides and begin/end masks as Python slices (the other masks
    are not used by the workloads)."""
    out = []
    for k in range(rank):
        if k >= len(a["strides"]):
            out.append(slice(None))
            continue
        b = None if a.get("begin_mask", 0) >> k & 1 else a["begin"][k]
        e = None if a.get("end_mask", 0) >> k & 1 else a["end"][k]
        out.append(slice(b, e, a["strides"][k]))
    return tuple(out)


def _decode(b, a):
    """decode_raw of a uint8 array of the bytes: groups of the element's size, byte-reversed when
    big-endian, bitcast to the element type."""
    dt = jnp.dtype(a.get("out_type", "uint8"))
    if dt.itemsize == 1:
        return lax.bitcast_convert_type(b, dt)
    g = b.reshape(-1, dt.itemsize)
    return lax.bitcast_convert_type(g if a.get("little_endian", True) else g[:, ::-1], dt)


def _s2d(x, b):
    n, h, w, c = x.shape
    return (x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
            .reshape(n, h // b, w // b, b * b * c))


def _d2s(x, b):
    n, h, w, c = x.shape
    return (x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
            .reshape(n, h * b, w * b, c // (b * b)))


def _s2b(x, block, pads):
    """space_to_batch_nd of a 4-D NHWC x with a 2-D block (padding first, as TF)."""
    x = jnp.pad(x, [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)])
    n, h, w, c = x.shape
    bh, bw = block
    return (x.reshape(n, h // bh, bh, w // bw, bw, c).transpose(2, 4, 0, 1, 3, 5)
            .reshape(bh * bw * n, h // bh, w // bw, c))


def _b2s(x, block, crops):
    """batch_to_space_nd of a 4-D NHWC x with a 2-D block (cropping after, as TF)."""
    b, h, w, c = x.shape
    bh, bw = block
    n = b // (bh * bw)
    y = x.reshape(bh, bw, n, h, w, c).transpose(2, 3, 0, 4, 1, 5).reshape(n, h * bh, w * bw, c)
    (t, bo), (left, r) = crops
    return y[:, t:y.shape[1] - bo, left:y.shape[2] - r]


def _range(t):
    i = jnp.finfo(t) if jnp.dtype(t).kind == "f" else jnp.iinfo(t)
    return i.min, i.max


def _saturate(x, dt):
    """TF's saturate_cast: clipped to the range both types hold, then cast."""
    (lo, hi), (xlo, xhi) = _range(dt), _range(x.dtype)
    return jnp.clip(x, x.dtype.type(max(lo, xlo)), x.dtype.type(min(hi, xhi))).astype(dt)


def _fn(op, attrs):
    """The op as a function of its arrays, or None when JAX has no jitted form of it."""
    a = attrs
    dt = jnp.dtype(a["dtype"]) if "dtype" in a else None
    ops = {
        "identity": lambda x: jnp.copy(x),
        "cast": lambda x: x.astype(dt),
        "saturate_cast": lambda x: _saturate(x, dt),
        "bitcast": lambda x: lax.bitcast_convert_type(x, jnp.dtype(a.get("type", "int32"))),
        "decode_raw": lambda b: _decode(b, a),
        "transpose": lambda x: jnp.transpose(x, a.get("perm")),
        "concat": lambda *xs: jnp.concatenate(xs, a.get("axis", 0)),
        "reverse": lambda x: jnp.flip(x, tuple(a.get("axis", []))),
        "pad": lambda x: jnp.pad(x, a.get("paddings"), mode=a.get("mode", "CONSTANT").lower()),
        "tile": lambda x: jnp.tile(x, a.get("multiples")),
        "strided_slice": lambda x: x[_slices(a, x.ndim)],
        "gather": lambda x, i: jnp.take(x, i, axis=a.get("axis", 0)),
        # boolean_mask, unique_with_counts: the output's shape depends on the data, which jit
        # cannot compile (it needs static shapes)
        "gather_nd": lambda x, i: x[tuple(i[..., k] for k in range(i.shape[-1]))],
        "one_hot": lambda i: jax.nn.one_hot(i, a["depth"], dtype=jnp.float32),
        "split": lambda x: tuple(jnp.split(x, a["num_split"], axis=a["split_dim"])),
        "space_to_batch_nd": lambda x: _s2b(x, a["block_shape"], a["paddings"]),
        "batch_to_space_nd": lambda x: _b2s(x, a["block_shape"], a["crops"]),
        "space_to_depth": lambda x: _s2d(x, a["block_size"]),
        "depth_to_space": lambda x: _d2s(x, a["block_size"]),
    }
    return ops.get(op)


def _array(v):
    """An input as an array JAX can hold: bytes as their uint8 view; None for a string tensor
    (an object array of records), which JAX has no type for."""
    if isinstance(v, (bytes, bytearray)):
        return np.frombuffer(v, np.uint8)
    if isinstance(v, np.ndarray) and v.dtype == object:
        return None
    return v


def variants(op, inputs, attrs):
    f = _fn(op, attrs)
    arrays = [_array(v) for v in inputs]
    if f is None or any(v is None for v in arrays):
        return []
    xs = [jax.device_put(v, jax.devices("cpu")[0]) for v in arrays]
    g = jax.jit(f)
    jax.block_until_ready(g(*xs))  # compiled once, before timing
    return [("jit", lambda: jax.block_until_ready(g(*xs)))]  # a tuple for split: each part


def to_numpy(r):
    return tuple(np.asarray(v) for v in r) if isinstance(r, (tuple, list)) else np.asarray(r)
