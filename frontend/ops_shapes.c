/* SPDX-License-Identifier: Apache-2.0 */
/* ops_shapes.c -- the op spec's rows of TF's "Shapes and Shaping" ops (src/ops/shapes.c). */
#include "opreg.h"

static tx_status run_shape(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_shape(arg_tensor(a, "input"), arg_dtype(a, "out_type"), OUT));
}

static tx_status run_shape_n(const op_args *a, op_outputs *o) {
    size_t n;
    const tx_tensor *const *in = arg_list(a, "input", &n);
    tx_status s = op_outputs_reserve(o, n);
    if (s != TX_OK) return s;
    return OP_CALL(o, tx_shape_n(in, n, arg_dtype(a, "out_type"), o->t));
}

static tx_status run_size(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_size(arg_tensor(a, "input"), arg_dtype(a, "out_type"), OUT));
}

static tx_status run_rank(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_rank(arg_tensor(a, "input"), OUT));
}

static tx_status run_reshape(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_reshape(arg_tensor(a, "tensor"), arg_tensor(a, "shape"), OUT));
}

static tx_status run_squeeze(const op_args *a, op_outputs *o) {
    size_t n;
    const int64_t *dims = arg_ints(a, "squeeze_dims", &n);
    TX_CLI_ONE(o, tx_squeeze(arg_tensor(a, "input"), dims, n, OUT));
}

static tx_status run_expand_dims(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_expand_dims(arg_tensor(a, "input"), arg_int(a, "dim"), OUT));
}

const op_def tx_cli_ops_shapes[] = {
    {"shape", "1-D tensor of the input's dims", run_shape,
     {{"input", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"out_type", P_DTYPE, "int32", "int32 or int64"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "shapes.md", .data_inputs = {"input"}},
    {"shape_n", "the shape of each input", run_shape_n,
     {{"input", P_TENSOR_LIST, PARAM_REQUIRED, "list of tensors"},
      {"out_type", P_DTYPE, "int32", "int32 or int64"}},
     .outputs = {"output"}, .outputs_list = true, .doc = "shapes.md", .data_inputs = {"input"}},
    {"size", "number of elements", run_size,
     {{"input", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"out_type", P_DTYPE, "int32", "int32 or int64"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "shapes.md", .data_inputs = {"input"}},
    {"rank", "number of dimensions", run_rank, {{"input", P_TENSOR, PARAM_REQUIRED, "any tensor"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "shapes.md", .data_inputs = {"input"}},
    {"reshape", "same data, new shape (a view; at most one -1)", run_reshape,
     {{"tensor", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"shape", P_TENSOR, PARAM_REQUIRED, "1-D int32/int64", TX_INT32}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "shapes.md", .data_inputs = {"tensor"}},
    {"squeeze", "drop size-1 dims (a view)", run_squeeze,
     {{"input", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"squeeze_dims", P_INT_LIST, "[]", "dims to drop; [] drops every size-1 dim"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "shapes.md", .data_inputs = {"input"}},
    {"expand_dims", "insert a size-1 dim (a view)", run_expand_dims,
     {{"input", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"dim", P_INT, PARAM_REQUIRED, "-1-rank <= dim <= rank"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "shapes.md", .data_inputs = {"input"}},
    {NULL, NULL, NULL, {{NULL}}},
};
