/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/ops_parsing.h -- parsing tf.train.Example protos, and TensorProtos both ways.  One
 * part of the public header: include <tensorx.h>, which includes every part in the manual's
 * order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/ops_parsing.h"
#endif
#ifndef TENSORX_OPS_PARSING_H
#define TENSORX_OPS_PARSING_H

/* ---- Parsing ---------------------------------------------------------------------------------
 * Implemented in src/io/example.c and src/io/tensor_proto.c (the wire format:
 * src/io/proto_wire.c).  docs/example.md has the rules, the errors and examples. */

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

/* tf.io.parse_tensor (the raw op ParseTensor): the tensor a serialized TensorProto holds, as TF
 * 2.21 reads it: protobuf's rules for the message (any field order, the last of a field wins,
 * repeated numbers packed or not, unknown fields skipped), then TF's: the shape's dims >= 0 (at
 * most 254, their product in int64); tensor_content, when not empty, the elements' little-endian
 * bytes (a bool byte 0 or 1; strings as TF encodes them: every length as a varint, then the
 * bytes); else the dtype's typed field (float_val, double_val, int_val for the 8-, 16- and
 * 32-bit integers and the quantized and 2- and 4-bit ones, int64_val, uint32_val, uint64_val,
 * bool_val, half_val for float16 and bfloat16, scomplex_val / dcomplex_val as pairs, string_val,
 * float8_val for the float8 and float4 types), its values converted to the dtype as C converts,
 * its last value repeated for the elements it lacks, zeros when it has none, its first n taken
 * when it has more.  serialized: a string scalar; out_type: the dtype the proto must name.
 * *out receives a new tensor of out_type with the proto's shape; string elements point into
 * serialized's bytes, which *out keeps alive.
 * Errors: invalid_argument (serialized NULL, not string or not a scalar, "Expected `serialized`
 * to be a scalar, got shape: [1]"; out_type not a TensorFlow dtype; bytes protobuf cannot parse,
 * "Could not parse `serialized` as TensorProto, base64: ..." (TF's text); a proto TF cannot make
 * a tensor of, "Cannot parse tensor from proto: ..." (TF's prefix; the rest says why, where TF
 * prints the proto); another dtype, "Type mismatch between parsed tensor (float) and dtype
 * (double)" (TF's dtype names)); resource_exhausted.  No prepared form (string input).  Since
 * 0.3. */
TX_API tx_status tx_parse_tensor(const tx_tensor *serialized, tx_dtype out_type, tx_tensor **out);

/* tf.io.serialize_tensor (the raw op SerializeTensor): tensor as a serialized TensorProto, the
 * bytes TF 2.21 writes: dtype, tensor_shape, then tensor_content (the elements' little-endian
 * bytes, on any host; none for an empty tensor) or, for a string tensor, a string_val per element.
 * *out receives a new string scalar.
 * Errors: invalid_argument (tensor NULL; a dtype TensorFlow has no DataType for: float8_e8m0fnu,
 * the float6 types; a proto of 2 GiB or more, protobuf's limit); resource_exhausted.  TF 2.21 has
 * no kernel for the quantized, float8, float4, int4, uint4, int2 and uint2 dtypes; tensorx writes
 * their proto as TF's AsProtoTensorContent does (parse_tensor reads it back).  No prepared form.
 * Since 0.3. */
TX_API tx_status tx_serialize_tensor(const tx_tensor *tensor, tx_tensor **out);

#endif
