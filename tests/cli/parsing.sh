#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Golden CLI tests for the parsing family: parse_example and parse_single_example of hand-written
# tf.train.Example records (TF 2.21's answers), and TF's errors.
. "$(dirname "$0")/lib.sh"

# {"label": int64 [7], "tags": bytes ["a","bc"], "xy": float packed [1.5, 2]}
R1='\x0a\x37\x0a\x0e\x0a\x05label\x12\x05\x1a\x03\x0a\x01\x07\x0a\x11\x0a\x04tags\x12\x09\x0a\x07\x0a\x01\x61\x0a\x02\x62\x63\x0a\x12\x0a\x02xy\x12\x0c\x12\x0a\x0a\x08\x00\x00\xc0\x3f\x00\x00\x00\x40'
# {"label": int64 unpacked [3], "xy": float packed [-1, 0.5]}
R2='\x0a\x23\x0a\x0d\x0a\x05label\x12\x04\x1a\x02\x08\x03\x0a\x12\x0a\x02xy\x12\x0c\x12\x0a\x0a\x08\x00\x00\x80\xbf\x00\x00\x00\x3f'

expect parse_batch "array([[0, 0],
       [0, 1]], dtype=int64)
array([b'a', b'bc'], dtype=string)
array([2, 2], dtype=int64)
array([7, 3], dtype=int64)
array([[1.5, 2.0],
       [-1.0, 0.5]], dtype=float32)" -- parse_example "serialized=[\"$R1\",\"$R2\"]" 'sparse_keys=["tags"]' sparse_types=string 'dense_keys=["label","xy"]' 'dense_defaults=[]:int64,[]:float32' 'dense_shapes=[],[2]'
expect parse_single "array([[0],
       [1]], dtype=int64)
array([b'a', b'bc'], dtype=string)
array([2], dtype=int64)
array([7], dtype=int64)" -- parse_single_example "serialized=\"$R1\"" 'sparse_keys=["tags"]' sparse_types=string 'dense_keys=["label"]' 'dense_defaults=[]:int64' 'dense_shapes=[1]'
# a default fills a missing feature; a sparse feature a record lacks has no values there
expect parse_default "array([[1, 0],
       [1, 1]], dtype=int64)
array([b'a', b'bc'], dtype=string)
array([2, 2], dtype=int64)
array([5, 5], dtype=int64)" -- parse_example "serialized=[\"$R2\",\"$R1\"]" 'sparse_keys=["tags"]' sparse_types=string 'dense_keys=["missing"]' 'dense_defaults=5:int64' 'dense_shapes=[]'
expect_fail parse_kind invalid_argument "Name: <unknown>, Key: xy, Index: 0.  Data types don't match. Expected type: string, Actual type: float" -- parse_example "serialized=[\"$R2\",\"$R1\"]" 'sparse_keys=["xy"]' sparse_types=string
expect_fail parse_required invalid_argument 'Name: <unknown>, Feature: tags (data type: string) is required but could not be found.' -- parse_example "serialized=[\"$R1\",\"$R2\"]" 'dense_keys=["tags"]' 'dense_defaults=[]:string' 'dense_shapes=[2]'
expect_fail parse_count invalid_argument 'Name: <unknown>, Key: xy, Index: 0.  Number of float values != expected.  Values size: 2 but output shape: [3]' -- parse_example "serialized=[\"$R1\"]" 'dense_keys=["xy"]' 'dense_defaults=[]:float32' 'dense_shapes=[3]'
expect_fail parse_single_count invalid_argument 'Key: xy.  Can'"'"'t parse serialized Example: Some float_list slice was not parsed.' -- parse_single_example "serialized=\"$R1\"" 'dense_keys=["xy"]' 'dense_defaults=[]:float32' 'dense_shapes=[3]'
# a group (wire type 3) is no Example; "junk" is one (field 13, a length past the end: skipped)
expect_fail parse_garbage invalid_argument "parse_example: Could not parse example input, value: '\\013junk'" -- parse_example 'serialized=["\x0bjunk"]' 'sparse_keys=["a"]' sparse_types=int64
expect parse_junk "array([], shape=(0, 2), dtype=int64)
array([], dtype=int64)
array([1, 0], dtype=int64)" -- parse_example 'serialized=["junk"]' 'sparse_keys=["a"]' sparse_types=int64
# without features no record is read (TF's rule): a group is no error then
expect parse_no_features '' -- parse_example 'serialized=["\x0bjunk"]'
expect_fail parse_types invalid_argument 'sparse_types must name one dtype per sparse key (1)' -- parse_example "serialized=[\"$R1\"]" 'sparse_keys=["a"]' sparse_types=int64,string
expect_fail parse_dtype unimplemented 'sparse_types[0] is int32; a feature'"'"'s dtype is float32, int64 or string' -- parse_example "serialized=[\"$R1\"]" 'sparse_keys=["a"]' sparse_types=int32

finish
