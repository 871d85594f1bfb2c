# SPDX-License-Identifier: Apache-2.0
"""peer_tf.py -- TensorFlow as a peer of bench/peers_current.py: its own CPU kernels, called
eagerly and from a tf.function traced once (the faster is the column).  The inputs become
tensors before timing; each call makes a new output tensor, as tensorx's allocating call does."""
import os

import numpy as np

PEER = "tf"
tf = None


def load():
    global tf
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")  # no start-up chatter on stderr
    import tensorflow  # noqa: PLC0415
    tf = tensorflow
    return tf.__version__


def _fn(op, attrs):
    """The op as a function of its tensors, or None when TensorFlow has no single op for it."""
    a = attrs
    dt = tf.as_dtype(a["dtype"]) if "dtype" in a else None
    ops = {
        # tf.identity may hand back its input's buffer; DeepCopy is TF's copy of a tensor
        "identity": lambda x: tf.raw_ops.DeepCopy(x=x),
        "cast": lambda x: tf.cast(x, dt),
        "saturate_cast": lambda x: tf.dtypes.saturate_cast(x, dt),
        "bitcast": lambda x: tf.bitcast(x, tf.as_dtype(a.get("type", "int32"))),
        "decode_raw": lambda x: tf.io.decode_raw(x, tf.as_dtype(a.get("out_type", "uint8")),
                                                 little_endian=a.get("little_endian", True)),
        "transpose": lambda x: tf.transpose(x, a.get("perm")),
        "concat": lambda *xs: tf.concat(xs, a.get("axis", 0)),
        "reverse": lambda x: tf.reverse(x, a.get("axis", [])),
        "pad": lambda x: tf.pad(x, a.get("paddings"), mode=a.get("mode", "CONSTANT")),
        "tile": lambda x: tf.tile(x, a.get("multiples")),
        "strided_slice": lambda x: tf.strided_slice(
            x, a["begin"], a["end"], a["strides"], begin_mask=a.get("begin_mask", 0),
            end_mask=a.get("end_mask", 0)),
        "gather": lambda x, i: tf.gather(x, i, axis=a.get("axis", 0)),
        "boolean_mask": lambda x, m: tf.boolean_mask(x, m),
        "gather_nd": lambda x, i: tf.gather_nd(x, i),
        "one_hot": lambda i: tf.one_hot(i, a["depth"]),
        "unique_with_counts": lambda x: tuple(tf.unique_with_counts(x)),
        "split": lambda x: tuple(tf.split(x, a["num_split"], axis=a["split_dim"])),
        "space_to_batch_nd": lambda x: tf.space_to_batch_nd(x, a["block_shape"], a["paddings"]),
        "batch_to_space_nd": lambda x: tf.batch_to_space(x, a["block_shape"], a["crops"]),
        "space_to_depth": lambda x: tf.nn.space_to_depth(x, a["block_size"]),
        "depth_to_space": lambda x: tf.nn.depth_to_space(x, a["block_size"]),
    }
    return ops.get(op)


def _tensor(v):
    if isinstance(v, (bytes, bytearray)):
        return tf.constant(bytes(v))
    if isinstance(v, np.ndarray) and v.dtype == object:  # a string tensor's elements
        return tf.constant(list(v), dtype=tf.string)
    return tf.constant(v)


def variants(op, inputs, attrs):
    f = _fn(op, attrs)
    if f is None:
        return []
    with tf.device("/CPU:0"):
        ts = [_tensor(v) for v in inputs]
    g = tf.function(f)
    g(*ts)  # traced (and compiled) once, before timing
    return [("eager", lambda: f(*ts)), ("tf.function", lambda: g(*ts))]


def to_numpy(r):
    if isinstance(r, (tuple, list)):
        return tuple(to_numpy(x) for x in r)
    return r.numpy()
