/* SPDX-License-Identifier: Apache-2.0 */
/* op_examples.h -- one representative valid call per line for every op of the CLI's table, as the
 * CLI's name=value text.  Used by tests/unit/test_plan.c (each call runs through the op table and
 * must succeed, its plan agreeing with the run), tests/unit/test_oom.c (the allocation-failure
 * sweep of every op, which fails if an op of the table has no line here),
 * tests/unit/test_reentrancy.c (every op run concurrently), tests/stress/stress.c (every op from
 * many threads, mutated) and fuzz/mkseed.c --examples (seeds for the generic op fuzzers).  An op
 * gets all of them by adding a line; an op may have several (a string variant, another mode). */
#ifndef TX_TESTS_OP_EXAMPLES_H
#define TX_TESTS_OP_EXAMPLES_H

#define OPX_MAX_ARGS 8
typedef struct op_example {
    const char *op;
    const char *args[OPX_MAX_ARGS]; /* "name=value" as on the command line */
} op_example;

/* The number of arguments e gives (its argc for op_args_parse). */
static inline int opx_argc(const op_example *e) {
    int n = 0;
    while (n < OPX_MAX_ARGS && e->args[n]) n++;
    return n;
}

static const op_example tx_op_examples[] = {
    {"string_to_number", {"string_tensor=[\"1.5\",\" -7\",\"0x1F\",\"nan\"]", "out_type=float64"}},
    {"string_to_number", {"string_tensor=[\"12\",\"-3\"]", "out_type=int64"}},
    {"to_double", {"x=[[1,2],[3,4]]"}},
    {"to_float", {"x=[1,2,3]:int64"}},
    {"to_bfloat16", {"x=[1.5,2.5]"}},
    {"to_int32", {"x=[1.9,-2.5]:float64"}},
    {"to_int64", {"x=[1,2]:uint8"}},
    {"cast", {"x=[[1.5,-2.5],[300,-1]]", "dtype=uint8"}},
    {"cast", {"x=[\"a\",\"bc\"]", "dtype=string"}},
    {"cast", {"x=[1,0,2]", "dtype=complex64"}},
    {"cast", {"x=[[1.5,-2.5],[300,-1]]", "dtype=int8", "mode=saturate"}},
    {"cast", {"x=[[1,-2],[30,-1]]", "dtype=int8", "mode=checked"}},
    {"cast", {"x=[0.5,0.25,nan]", "dtype=float16", "mode=checked", "exact_float=true"}},
    {"cast", {"x=[0.1,448,500,-inf,nan]", "dtype=float8_e4m3fn"}},
    {"cast", {"x=[[0.5,60000],[1e-6,3]]:float8_e5m2", "dtype=float32"}},
    {"cast", {"x=[500,-1e6]", "dtype=float8_e5m2", "mode=saturate"}},
    {"cast", {"x=[7.9,-8.9,300,nan]", "dtype=int4"}},
    {"cast", {"x=[[-8,7],[0,-1]]:int4", "dtype=uint4", "mode=saturate"}},
    {"bitcast", {"input=[1,2,3]:int32", "type=uint8"}},
    {"bitcast", {"input=[[1,2],[3,4]]:uint8", "type=uint16"}},
    {"saturate_cast", {"value=[-1e10,3.5,1e10]", "dtype=int32"}},
    {"decode_raw", {"input_bytes=[\"abcd\",\"efgh\"]", "out_type=int16"}},
    {"decode_raw", {"input_bytes=[\"abcd\",\"ef\"]", "out_type=int16", "little_endian=false", "fixed_length=4"}},
    {"decode_raw", {"input_bytes=[\"abcdefgh\"]", "out_type=uint64", "little_endian=false"}},
    {"encode_raw", {"x=[[1,2],[3,4]]:int16"}},
    {"encode_raw", {"x=[[1.5,-2],[0,1]]:complex64", "little_endian=false"}},
    {"pack_subbyte", {"x=[[-8,7,1],[0,-1,2]]:int4"}},
    {"pack_subbyte", {"x=[1,-0.5,6]:float6_e2m3fn"}},
    {"unpack_subbyte", {"packed=[27,2]:uint8", "dtype=uint2", "shape=[5]"}},
    {"unpack_subbyte", {"packed=[8,127]:uint8", "dtype=float4_e2m1fn", "shape=[2,2]"}},
    {"string_tensor_pack", {"begins=[0,5]", "ends=[5,13]", "symbols=\"IntelOpenVINO\""}},
    {"string_tensor_pack", {"begins=[[0,1],[2,2]]:int64", "ends=[[1,2],[2,4]]:int64", "symbols=[65,66,67,68]:uint8"}},
    {"string_tensor_unpack", {"data=[[\"Intel\",\"\"],[\"OpenVINO\",\"x\"]]"}},
    {"parse_example", {"serialized=[\"\\x0a\\x37\\x0a\\x0e\\x0a\\x05label\\x12\\x05\\x1a\\x03\\x0a\\x01\\x07\\x0a\\x11\\x0a\\x04tags\\x12\\x09\\x0a\\x07\\x0a\\x01\\x61\\x0a\\x02\\x62\\x63\\x0a\\x12\\x0a\\x02xy\\x12\\x0c\\x12\\x0a\\x0a\\x08\\x00\\x00\\xc0\\x3f\\x00\\x00\\x00\\x40\",\"\\x0a\\x23\\x0a\\x0d\\x0a\\x05label\\x12\\x04\\x1a\\x02\\x08\\x03\\x0a\\x12\\x0a\\x02xy\\x12\\x0c\\x12\\x0a\\x0a\\x08\\x00\\x00\\x80\\xbf\\x00\\x00\\x00\\x3f\"]", "sparse_keys=[\"tags\"]", "sparse_types=string",
                      "dense_keys=[\"label\",\"xy\"]", "dense_defaults=[]:int64,[0.5,0]:float32", "dense_shapes=[],[2]"}},
    {"parse_single_example", {"serialized=\"\\x0a\\x37\\x0a\\x0e\\x0a\\x05label\\x12\\x05\\x1a\\x03\\x0a\\x01\\x07\\x0a\\x11\\x0a\\x04tags\\x12\\x09\\x0a\\x07\\x0a\\x01\\x61\\x0a\\x02\\x62\\x63\\x0a\\x12\\x0a\\x02xy\\x12\\x0c\\x12\\x0a\\x0a\\x08\\x00\\x00\\xc0\\x3f\\x00\\x00\\x00\\x40\"", "sparse_keys=[\"tags\",\"xy\"]",
                             "sparse_types=string,float32", "dense_keys=[\"label\"]", "dense_defaults=[]:int64",
                             "dense_shapes=[]"}},
    {"string_tensor_to_tf", {"data=[\"ab\",\"\",\"0123456789abcdefghijklmnop\"]"}},
    {"string_tensor_from_tf", {"records=[8,104,105,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]:uint8", "shape=[]"}},
    {"string_tensor_to_ort", {"data=[[\"ab\",\"\"],[\"c\",\"de\"]]"}},
    {"string_tensor_from_ort", {"content=\"abcde\"", "offsets=[[0,2],[2,3]]:uint64"}},
    {"shape", {"input=[[1,2,3],[4,5,6]]"}},
    {"shape_n", {"input=[[1,2,3],[4,5,6]],[1],7", "out_type=int64"}},
    {"size", {"input=[[1,2,3],[4,5,6]]", "out_type=int64"}},
    {"rank", {"input=[[1,2,3],[4,5,6]]"}},
    {"reshape", {"tensor=[1,2,3,4,5,6]", "shape=3,-1"}},
    {"reshape", {"tensor=[\"a\",\"b\",\"c\",\"d\"]", "shape=2,2"}},
    {"squeeze", {"input=[[[1],[2]]]"}},
    {"squeeze", {"input=[[[1],[2]]]", "squeeze_dims=[0]"}},
    {"expand_dims", {"input=[1,2]", "dim=-1"}},
    {"slice", {"input_=[[1,2,3],[4,5,6]]", "begin=0,1", "size=2,-1"}},
    {"slice", {"input_=[[\"a\",\"b\"],[\"c\",\"d\"]]", "begin=1,0", "size=1,2"}},
    {"strided_slice", {"input_=[[1,2,3],[4,5,6]]", "begin=0,2", "end=2,0", "strides=1,-1"}},
    {"strided_slice", {"input_=[[1,2,3],[4,5,6]]", "begin=0,1", "end=1,2", "strides=1,1", "shrink_axis_mask=1", "new_axis_mask=2"}},
    {"split", {"value=[[1,2,3,4],[5,6,7,8]]", "split_dim=1", "num_split=2"}},
    {"split", {"value=[[\"a\",\"b\",\"c\"]]", "split_dim=1", "size_splits=1,-1"}},
    {"unpack", {"value=[[1,2],[3,4],[5,6]]", "axis=1"}},
    {"unpack", {"value=[[\"a\",\"b\"],[\"c\",\"d\"]]"}},
    {"tile", {"input=[[1,2],[3,4]]", "multiples=2,3"}},
    {"tile", {"input=[\"a\",\"b\"]", "multiples=[2]"}},
    {"pad", {"tensor=[[1,2],[3,4]]", "paddings=[[1,1],[2,2]]", "constant_values=9"}},
    {"pad", {"tensor=[[1,2,3],[4,5,6]]", "paddings=[[1,1],[2,2]]", "mode=REFLECT"}},
    {"pad", {"tensor=[[1,2,3],[4,5,6]]", "paddings=[[1,1],[2,2]]", "mode=SYMMETRIC"}},
    {"pad", {"tensor=[\"a\",\"b\"]", "paddings=[[1,2]]", "constant_values=z"}},
    {"meshgrid", {"args=[1,2,3],[4,5]"}},
    {"meshgrid", {"args=[\"a\",\"b\"],[\"c\"]", "indexing=ij"}},
    {"concat", {"values=[[1,2]],[[3,4]]", "concat_dim=0"}},
    {"concat", {"values=[[1,-2]]:int4,[[3,-8]]:int4", "concat_dim=1"}},
    {"concat", {"values=[[1,2]]:float8_e4m3fn,[[3,448]]:float8_e4m3fn", "concat_dim=0"}},
    {"concat", {"values=[\"a\"],[\"b\",\"c\"]", "concat_dim=-1"}},
    {"pack", {"values=[1,2],[3,4],[5,6]", "axis=1"}},
    {"pack", {"values=[\"a\"],[\"b\"]"}},
    {"reverse_sequence", {"input=[[1,2,3],[4,5,6]]", "seq_lengths=2,3", "seq_dim=1"}},
    {"reverse_sequence", {"input=[[1,2],[3,4],[5,6]]", "seq_lengths=[3,1]:int64", "seq_dim=0", "batch_dim=1"}},
    {"reverse", {"tensor=[[1,2,3],[4,5,6]]", "dims=[false,true]"}},
    {"reverse", {"tensor=[[\"a\",\"b\"],[\"c\",\"d\"]]", "axis=0,1"}},
    {"transpose", {"a=[[1,2,3],[4,5,6]]"}},
    {"transpose", {"a=[[1,2,3],[4,5,6]]:float8_e5m2"}},
    {"transpose", {"a=[[1,2,3],[4,5,6]]:uint4"}},
    {"transpose", {"a=[[[1,2],[3,4]],[[5,6],[7,8]]]", "perm=2,0,1"}},
    {"transpose", {"a=[[\"a\",\"b\"],[\"c\",\"d\"]]", "perm=1,0"}},
    {"extract_image_patches", {"images=[[[[1],[2],[3]],[[4],[5],[6]],[[7],[8],[9]]]]", "ksizes=1,2,2,1", "strides=1,1,1,1", "rates=1,1,1,1", "padding=SAME"}},
    {"space_to_batch_nd", {"input=[[[[1],[2]],[[3],[4]]]]", "block_shape=2,2", "paddings=[[0,0],[0,0]]"}},
    {"space_to_batch", {"input=[[[[1],[2]],[[3],[4]]]]", "paddings=[[0,0],[0,2]]", "block_size=2"}},
    {"required_space_to_batch_paddings", {"input_shape=4,5", "block_shape=2,3", "base_paddings=[[1,0],[0,1]]"}},
    {"required_space_to_batch_paddings", {"input_shape=[7]:int64", "block_shape=[3]:int64"}},
    {"batch_to_space_nd", {"input=[[[[1]]],[[[2]]],[[[3]]],[[[4]]]]", "block_shape=2,2", "crops=[[0,0],[0,1]]"}},
    {"batch_to_space_nd", {"input=[[[[1]]],[[[2]]],[[[3]]],[[[4]]]]", "block_shape=2,2", "crops=[[-1,0],[1,-1]]", "oob=wrap"}},
    {"batch_to_space_nd", {"input=[[[\"a\"],[\"b\"]],[[\"c\"],[\"d\"]]]", "block_shape=[2]", "crops=[[3,-2]]", "oob=zero"}},
    {"batch_to_space", {"input=[[[[1]]],[[[2]]],[[[3]]],[[[4]]]]", "crops=[[0,0],[0,0]]", "block_size=2"}},
    {"batch_to_space", {"input=[[[[1]]],[[[2]]],[[[3]]],[[[4]]]]", "crops=[[0,-1],[1,0]]", "block_size=2", "oob=clamp"}},
    {"space_to_depth", {"input=[[[[1],[2]],[[3],[4]]]]", "block_size=2"}},
    {"space_to_depth", {"input=[[[[1,2],[3,4]]]]", "block_size=2", "data_format=NCHW"}},
    {"depth_to_space", {"input=[[[[1,2,3,4]]]]", "block_size=2"}},
    {"gather", {"params=[[1,2],[3,4],[5,6]]", "indices=[2,0]"}},
    {"gather", {"params=[[\"a\",\"b\"],[\"c\",\"d\"]]", "indices=[[1],[0]]", "axis=1", "batch_dims=1"}},
    {"gather_nd", {"params=[[\"a\",\"b\"],[\"c\",\"d\"]]", "indices=[[0,0],[1,1]]"}},
    {"gather_nd", {"params=[[[1,2],[3,4]],[[5,6],[7,8]]]", "indices=[[1,0],[0,1],[1,1]]"}},
    {"unique_with_counts", {"x=[1,1,2,4,4,4,7,8,8]", "out_idx=int64"}},
    {"unique_with_counts", {"x=[\"b\",\"a\",\"b\"]"}},
    {"dynamic_partition", {"data=[10,20,30,40,50]", "partitions=[0,0,1,1,0]", "num_partitions=2"}},
    {"dynamic_partition", {"data=[\"a\",\"b\",\"c\"]", "partitions=[1,0,1]", "num_partitions=3"}},
    {"dynamic_stitch", {"indices=[0,2],[1]", "data=[[1,2],[5,6]],[[3,4]]"}},
    {"dynamic_stitch", {"indices=[1],[0]", "data=[\"x\"],[\"y\"]"}},
    {"boolean_mask", {"tensor=[[1,2],[3,4],[5,6]]", "mask=[true,false,true]"}},
    {"boolean_mask", {"tensor=[\"a\",\"b\"]", "mask=[false,true]"}},
    {"one_hot", {"indices=[0,2,-1]", "depth=3"}},
    {"one_hot", {"indices=[[0,2],[1,5]]", "depth=3", "on_value=on", "off_value=off", "axis=0", "dtype=string"}},
    {"sequence_mask", {"lengths=[1,3,2]", "maxlen=4"}},
    {"sequence_mask", {"lengths=[[1],[3]]", "dtype=float32"}},
};

#endif
