/* SPDX-License-Identifier: Apache-2.0 */
/* ops_spatial.c -- the op spec's rows of the space/batch/depth family and of
 * extract_image_patches (src/ops/spatial.c).  data_format and padding are TF's strings here and
 * enums in the C API; `oob` (not TF's; default "error" = TF) is batch_to_space's crops policy. */
#include "opreg.h"

#include <string.h>

static tx_status run_space_to_batch_nd(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_space_to_batch_nd(arg_tensor(a, "input"), arg_tensor(a, "block_shape"),
                                       arg_tensor(a, "paddings"), OUT));
}

static tx_status run_batch_to_space_nd(const op_args *a, op_outputs *o) {
    tx_oob_policy oob = TX_OOB_ERROR;
    tx_status s = arg_oob("batch_to_space_nd", a, &oob);
    if (s != TX_OK) return s;
    TX_CLI_ONE(o, tx_batch_to_space_nd_oob(arg_tensor(a, "input"), arg_tensor(a, "block_shape"),
                                          arg_tensor(a, "crops"), oob, OUT));
}

static tx_status run_space_to_batch(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_space_to_batch(arg_tensor(a, "input"), arg_tensor(a, "paddings"),
                                    arg_int(a, "block_size"), OUT));
}

static tx_status run_batch_to_space(const op_args *a, op_outputs *o) {
    tx_oob_policy oob = TX_OOB_ERROR;
    tx_status s = arg_oob("batch_to_space", a, &oob);
    if (s != TX_OK) return s;
    TX_CLI_ONE(o, tx_batch_to_space_oob(arg_tensor(a, "input"), arg_tensor(a, "crops"),
                                       arg_int(a, "block_size"), oob, OUT));
}

static tx_status run_required_paddings(const op_args *a, op_outputs *o) {
    tx_status s = op_outputs_reserve(o, 2);
    if (s != TX_OK) return s;
    const tx_tensor *base = arg_has(a, "base_paddings") ? arg_tensor(a, "base_paddings") : NULL;
    return OP_CALL(o, tx_required_space_to_batch_paddings(arg_tensor(a, "input_shape"),
                                                          arg_tensor(a, "block_shape"), base, o->t));
}

static tx_status data_format(const char *op, const op_args *a, tx_data_format *f) {
    const char *s = arg_str(a, "data_format");
    if (s && strcmp(s, "NHWC") == 0) *f = TX_FORMAT_NHWC;
    else if (s && strcmp(s, "NCHW") == 0) *f = TX_FORMAT_NCHW;
    else if (s && strcmp(s, "NCHW_VECT_C") == 0) *f = TX_FORMAT_NCHW_VECT_C;
    else
        return op_fail(TX_INVALID_ARGUMENT, "%s: data_format '%s' is not NHWC, NCHW or NCHW_VECT_C",
                       op, s ? s : "");
    return TX_OK;
}

static tx_status run_space_to_depth(const op_args *a, op_outputs *o) {
    tx_data_format f = TX_FORMAT_NHWC;
    tx_status s = data_format("space_to_depth", a, &f);
    if (s != TX_OK) return s;
    TX_CLI_ONE(o, tx_space_to_depth(arg_tensor(a, "input"), arg_int(a, "block_size"), f, OUT));
}

static tx_status run_depth_to_space(const op_args *a, op_outputs *o) {
    tx_data_format f = TX_FORMAT_NHWC;
    tx_status s = data_format("depth_to_space", a, &f);
    if (s != TX_OK) return s;
    const char *ms = arg_str(a, "mode");
    tx_depth_mode mode;
    if (ms && strcmp(ms, "DCR") == 0) mode = TX_DEPTH_DCR;
    else if (ms && strcmp(ms, "CRD") == 0) mode = TX_DEPTH_CRD;
    else return op_fail(TX_INVALID_ARGUMENT, "depth_to_space: mode '%s' is not DCR or CRD", ms ? ms : "");
    TX_CLI_ONE(o, tx_depth_to_space_in_mode(arg_tensor(a, "input"), arg_int(a, "block_size"), f, mode, OUT));
}

static tx_status run_extract_image_patches(const op_args *a, op_outputs *o) {
    const char *ps = arg_str(a, "padding");
    tx_padding padding;
    if (ps && strcmp(ps, "VALID") == 0) padding = TX_PADDING_VALID;
    else if (ps && strcmp(ps, "SAME") == 0) padding = TX_PADDING_SAME;
    else
        return op_fail(TX_INVALID_ARGUMENT,
                       "extract_image_patches: padding '%s' is not SAME or VALID", ps ? ps : "");
    size_t nk, ns, nr;
    const int64_t *k = arg_ints(a, "ksizes", &nk);
    const int64_t *s = arg_ints(a, "strides", &ns);
    const int64_t *r = arg_ints(a, "rates", &nr);
    TX_CLI_ONE(o, tx_extract_image_patches(arg_tensor(a, "images"), k, nk, s, ns, r, nr, padding,
                                           OUT));
}

const op_def tx_cli_ops_spatial[] = {
    {"extract_image_patches", "image patches moved into the depth dim", run_extract_image_patches,
     {{"images", P_TENSOR, PARAM_REQUIRED, "4-D [batch, rows, cols, depth]"},
      {"ksizes", P_INT_LIST, PARAM_REQUIRED, "[1, ksize_rows, ksize_cols, 1]"},
      {"strides", P_INT_LIST, PARAM_REQUIRED, "[1, stride_rows, stride_cols, 1]"},
      {"rates", P_INT_LIST, PARAM_REQUIRED, "[1, rate_rows, rate_cols, 1]"},
      {"padding", P_STRING, PARAM_REQUIRED, "SAME or VALID"}},
     .outputs = {"patches"}, .doc = "spatial.md", .data_inputs = {"images"}},
    {"space_to_batch_nd", "zero-pad spatial dims and move blocks into the batch dim",
     run_space_to_batch_nd,
     {{"input", P_TENSOR, PARAM_REQUIRED, "[batch] + spatial (M dims) + remaining"},
      {"block_shape", P_TENSOR, PARAM_REQUIRED, "1-D int32/int64 [M], entries >= 1"},
      {"paddings", P_TENSOR, PARAM_REQUIRED, "int32/int64 [M, 2], entries >= 0"}},
     .outputs = {"output"}, .doc = "spatial.md", .data_inputs = {"input"}},
    {"space_to_batch", "4-D space_to_batch_nd with block [block_size, block_size]",
     run_space_to_batch,
     {{"input", P_TENSOR, PARAM_REQUIRED, "4-D [batch, height, width, depth]"},
      {"paddings", P_TENSOR, PARAM_REQUIRED, "int32/int64 [2, 2]"},
      {"block_size", P_INT, PARAM_REQUIRED, ">= 2"}},
     .outputs = {"output"}, .doc = "spatial.md", .data_inputs = {"input"}},
    {"required_space_to_batch_paddings", "paddings and crops that make block_shape divide the shape",
     run_required_paddings,
     {{"input_shape", P_TENSOR, PARAM_REQUIRED, "int32/int64 [M]"},
      {"block_shape", P_TENSOR, PARAM_REQUIRED, "int32/int64 [M]"},
      {"base_paddings", P_TENSOR, PARAM_OPTIONAL, "int32/int64 [M, 2] (absent: zeros)"}},
     .outputs = {"paddings", "crops"}, .doc = "spatial.md", .data_inputs = {"input_shape"}},
    {"batch_to_space_nd", "move batch blocks back into spatial dims and crop",
     run_batch_to_space_nd,
     {{"input", P_TENSOR, PARAM_REQUIRED, "[batch] + spatial (M dims) + remaining"},
      {"block_shape", P_TENSOR, PARAM_REQUIRED, "1-D int32/int64 [M], entries >= 1"},
      {"crops", P_TENSOR, PARAM_REQUIRED, "int32/int64 [M, 2], entries >= 0 (any with oob)"},
      {"oob", P_STRING, "error", "crops outside the dim: error, zero, clamp (edge), wrap (mod dim)"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "spatial.md", .data_inputs = {"input"}},
    {"batch_to_space", "4-D batch_to_space_nd with block [block_size, block_size]",
     run_batch_to_space,
     {{"input", P_TENSOR, PARAM_REQUIRED, "4-D input"},
      {"crops", P_TENSOR, PARAM_REQUIRED, "int32/int64 [2, 2]"},
      {"block_size", P_INT, PARAM_REQUIRED, ">= 2"},
      {"oob", P_STRING, "error", "crops outside the dim: error, zero, clamp (edge), wrap (mod dim)"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "spatial.md", .data_inputs = {"input"}},
    {"space_to_depth", "move block_size x block_size spatial blocks into depth", run_space_to_depth,
     {{"input", P_TENSOR, PARAM_REQUIRED, "4-D"},
      {"block_size", P_INT, PARAM_REQUIRED, ">= 2"},
      {"data_format", P_STRING, "NHWC", "NHWC or NCHW"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "spatial.md", .data_inputs = {"input"}},
    {"depth_to_space", "move depth into block_size x block_size spatial blocks", run_depth_to_space,
     {{"input", P_TENSOR, PARAM_REQUIRED, "4-D"},
      {"block_size", P_INT, PARAM_REQUIRED, ">= 2"},
      {"data_format", P_STRING, "NHWC", "NHWC or NCHW"},
      {"mode", P_STRING, "DCR", "DCR (TF) or the ONNX preset CRD"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "spatial.md", .data_inputs = {"input"}},
    {NULL, NULL, NULL, {{NULL}}},
};
