/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/ops_parsing.h -- parsing tf.train.Example protos.  One part of the public header: include
 * <tensorx.h>, which includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/ops_parsing.h"
#endif
#ifndef TENSORX_OPS_PARSING_H
#define TENSORX_OPS_PARSING_H

/* ---- Parsing ---------------------------------------------------------------------------------
 * Implemented in src/io/example.c (the wire format: src/io/proto_wire.c).  docs/example.md
 * has the rules, the errors and examples. */

/* tf.io.parse_example (the raw op ParseExampleV2, without ragged features): the features of a
 * batch of serialized tf.train.Example protos, as TF 2.21's fast parser reads them (packed and
 * unpacked lists, unknown fields skipped, the last entry of a repeated key wins).
 * serialized: a 1-D string tensor of records (a scalar: one record, parsed as
 * tx_parse_single_example parses it).  names: NULL, or a string tensor of one name per record
 * (TF's example_names, used in the errors; empty: none).
 * The features are given as TF's raw op takes them, in parallel lists:
 *  - sparse_keys: NULL (none) or a 1-D string tensor of VarLenFeature keys; sparse_types[i]
 *    (float32, int64 or string) is key i's dtype.
 *  - dense_keys: NULL (none) or a 1-D string tensor of FixedLenFeature keys; for key i,
 *    dense_defaults[i] is its default value, whose dtype (float32, int64 or string) is the
 *    feature's (TF's Tdense), of the feature's shape, or empty (any shape) to make the feature
 *    required; dense_ranks[i] and dense_shapes[i] (dense_ranks[i] dims, each >= 0) its shape.
 * outs must have room for 3 * S + D handles (S sparse, D dense keys), in TF's order: for each
 * sparse key the indices (int64 [N, 2]: record, position), then each one's values (1-D, N values),
 * then each one's dense_shape (int64 [2]: records, the most values a record has) -- TF's
 * SparseTensor triple -- then each dense key's values ([records] + its shape; the default where a
 * record lacks the feature).  String values point into the records' bytes (and the defaults'),
 * which the outputs keep alive: no byte is copied.
 * Errors: invalid_argument (serialized NULL, not string or of rank > 1; names of another size;
 * keys not 1-D string; a list NULL that the keys need; a key given twice; a default of another
 * shape, TF's "def_value[0].shape() == [4] is not compatible with dense_shapes_[0] == [2,2]"; a
 * negative dim; more than 1024 sparse keys; and TF's data errors, with TF's
 * messages after "parse_example: ": a record that is not an Example, "Could not parse example
 * input, value: '...'" (its first 256 bytes, escaped); a Feature whose kind is unknown,
 * "Unsupported datatype."; "Data types don't match..."; "... is required but could not be
 * found."; "Number of int64 values != expected..."; "Can't parse serialized Example."; the first
 * failing record and, in it, the error TF meets first decide which); unimplemented (a feature
 * dtype other than float32, int64 or string); resource_exhausted.  On failure every output slot
 * is NULL (once the keys are valid).  No prepared form (the outputs' shapes depend on the
 * records).  Since 0.3. */
TX_API tx_status tx_parse_example(const tx_tensor *serialized, const tx_tensor *names,
                                  const tx_tensor *sparse_keys, const tx_dtype *sparse_types,
                                  const tx_tensor *dense_keys,
                                  const tx_tensor *const *dense_defaults,
                                  const size_t *dense_ranks, const int64_t *const *dense_shapes,
                                  tx_tensor **outs);

/* tf.io.parse_single_example (the raw op ParseSingleExample; ParseExampleV2 of a scalar): the
 * features of one serialized tf.train.Example, serialized a string scalar.  sparse_keys,
 * sparse_types, dense_keys, dense_defaults, dense_ranks, dense_shapes and outs are
 * tx_parse_example's, and so are the outputs, without the batch: a sparse key's indices are int64 [N, 1], its
 * dense_shape int64 [1] (N); a dense key's values have its shape.  TF's rules for one record
 * differ a little from a batch's: an empty Feature of a sparse key is skipped (in a batch it
 * wins, with no values), and the messages name only the key ("Key: k.  Can't parse serialized
 * Example: Parsing int64_list failed.", "Feature: k (data type: int64) is required but could
 * not be found.").
 * Errors: those of tx_parse_example, with "parse_single_example: " before TF's messages, and
 * invalid_argument for serialized not a scalar.  Since 0.3. */
TX_API tx_status tx_parse_single_example(const tx_tensor *serialized, const tx_tensor *sparse_keys,
                                         const tx_dtype *sparse_types, const tx_tensor *dense_keys,
                                         const tx_tensor *const *dense_defaults,
                                         const size_t *dense_ranks,
                                         const int64_t *const *dense_shapes, tx_tensor **outs);

#endif
