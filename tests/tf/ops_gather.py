# SPDX-License-Identifier: Apache-2.0
"""The oracle's cases for gathering and encoding: gather, gather_nd, unique_with_counts,
dynamic_partition, dynamic_stitch, boolean_mask, one_hot, sequence_mask."""
import tensorflow as tf
from oracle import ALL, Case, op

R = tf.raw_ops


@op("gather", tf=lambda params, indices, axis=0, batch_dims=0:
    R.GatherV2(params=params, indices=indices, axis=axis, batch_dims=batch_dims), tf_name="GatherV2",
    moves_bits=True)
def gather(g):
    for dt in ALL:  # every dtype once, a plain case
        yield Case({"params": g.array(dt, (3, 2)), "indices": g.ints(-1, 3, (4,))}, {"axis": 0})
    while True:
        shape = g.shape(g.choice([1, 1, 2, 3, 4]))
        rank = len(shape)
        axis = int(g.rng.integers(-rank - 1, rank + 1))
        dim = shape[axis] if -rank <= axis < rank else 1
        idx_shape = g.shape(g.choice([0, 1, 2]))
        indices = g.ints(-1, dim, idx_shape, g.choice(["int32", "int64"]))
        bd = int(g.rng.integers(0, 2)) if rank > 1 and len(idx_shape) > 0 else 0
        yield Case({"params": g.array(g.choice(ALL), shape), "indices": indices},
                   {"axis": axis, "batch_dims": bd})
