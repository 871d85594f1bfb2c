/* SPDX-License-Identifier: Apache-2.0 */
/* ops_reorder.c -- the op spec's rows of the joining and reordering ops: concat, pack,
 * meshgrid (src/ops/concat.c) and reverse, reverse_sequence, transpose (src/ops/reorder.c). */
#include "opreg.h"

#include <string.h>

static tx_status run_concat(const op_args *a, op_outputs *o) {
    size_t n;
    const tx_tensor *const *values = arg_list(a, "values", &n);
    TX_CLI_ONE(o, tx_concat(values, n, arg_int(a, "concat_dim"), OUT));
}

static tx_status run_pack(const op_args *a, op_outputs *o) {
    size_t n;
    const tx_tensor *const *values = arg_list(a, "values", &n);
    TX_CLI_ONE(o, tx_pack(values, n, arg_int(a, "axis"), OUT));
}

static tx_status run_meshgrid(const op_args *a, op_outputs *o) {
    size_t n;
    const tx_tensor *const *args = arg_list(a, "args", &n);
    const char *ix = arg_str(a, "indexing");
    tx_meshgrid_indexing indexing;
    if (!strcmp(ix, "xy")) indexing = TX_MESHGRID_XY;
    else if (!strcmp(ix, "ij")) indexing = TX_MESHGRID_IJ;
    else return op_fail(TX_INVALID_ARGUMENT, "meshgrid: indexing must be 'xy' or 'ij', got '%s'", ix);
    tx_status s = op_outputs_reserve(o, n);
    if (s != TX_OK) return s;
    return OP_CALL(o, tx_meshgrid(args, n, indexing, o->t));
}

/* The page's Reverse takes a bool vector `dims`; current tf.reverse (ReverseV2) an axis list. */
static tx_status run_reverse(const op_args *a, op_outputs *o) {
    bool has_dims = arg_has(a, "dims"), has_axis = arg_has(a, "axis");
    if (has_dims == has_axis)
        return op_fail(TX_INVALID_ARGUMENT,
                       "reverse: give exactly one of dims (bool vector) and axis (integer list)");
    if (has_dims) TX_CLI_ONE(o, tx_reverse(arg_tensor(a, "tensor"), arg_tensor(a, "dims"), OUT));
    size_t n;
    const int64_t *axis = arg_ints(a, "axis", &n);
    TX_CLI_ONE(o, tx_reverse_v2(arg_tensor(a, "tensor"), axis, n, OUT));
}

static tx_status run_reverse_sequence(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_reverse_sequence(arg_tensor(a, "input"), arg_tensor(a, "seq_lengths"),
                                      arg_int(a, "seq_dim"), arg_int(a, "batch_dim"), OUT));
}

static tx_status run_transpose(const op_args *a, op_outputs *o) {
    const tx_tensor *perm = arg_has(a, "perm") ? arg_tensor(a, "perm") : NULL;
    TX_CLI_ONE(o, tx_transpose(arg_tensor(a, "a"), perm, arg_bool(a, "conjugate"), OUT));
}

const op_def tx_cli_ops_reorder[] = {
    {"meshgrid", "N-D coordinate grids from N 1-D tensors (one output per argument)", run_meshgrid,
     {{"args", P_TENSOR_LIST, PARAM_REQUIRED, "tensors of one dtype, each flattened to 1-D"},
      {"indexing", P_STRING, "xy", "xy (Cartesian, the default) or ij (matrix)"}},
     .outputs = {"outputs"}, .outputs_list = true, .doc = "reorder.md", .data_inputs = {"args"}},
    {"concat", "join tensors along an existing dim", run_concat,
     {{"values", P_TENSOR_LIST, PARAM_REQUIRED, "tensors of one dtype and rank"},
      {"concat_dim", P_INT, PARAM_REQUIRED, "-rank <= concat_dim < rank"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "reorder.md", .data_inputs = {"values"}},
    {"pack", "stack tensors of one shape along a new dim", run_pack,
     {{"values", P_TENSOR_LIST, PARAM_REQUIRED, "tensors of one dtype and shape"},
      {"axis", P_INT, "0", "-(R+1) <= axis < R+1"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "reorder.md", .data_inputs = {"values"}},
    {"reverse_sequence", "reverse the first seq_lengths[b] entries along seq_dim per batch b",
     run_reverse_sequence,
     {{"input", P_TENSOR, PARAM_REQUIRED, "rank 2..5"},
      {"seq_lengths", P_TENSOR, PARAM_REQUIRED, "1-D int32/int64, length input.dims[batch_dim]"},
      {"seq_dim", P_INT, PARAM_REQUIRED, "the dim partly reversed"},
      {"batch_dim", P_INT, "0", "the dim indexing seq_lengths"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "reorder.md", .data_inputs = {"input", "seq_lengths"}},
    {"reverse", "reverse dims: dims=bool vector (the page's form) or axis=list (tf.reverse)",
     run_reverse,
     {{"tensor", P_TENSOR, PARAM_REQUIRED, "rank <= 8"},
      {"dims", P_TENSOR, PARAM_OPTIONAL, "bool vector, one entry per dim"},
      {"axis", P_INT_LIST, PARAM_OPTIONAL, "dims to reverse, negative from the end"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "reorder.md", .data_inputs = {"tensor"}},
    {"transpose", "permute dims (default: reversed order)", run_transpose,
     {{"a", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"perm", P_TENSOR, PARAM_OPTIONAL, "int32/int64 permutation of [0, rank)"},
      {"conjugate", P_BOOL, "false", "negate imaginary parts of complex values"}},
     .outputs = {"y"}, .outputs_bounded = true, .doc = "reorder.md", .data_inputs = {"a"}},
    {NULL, NULL, NULL, {{NULL}}},
};
