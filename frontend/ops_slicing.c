/* SPDX-License-Identifier: Apache-2.0 */
/* ops_slicing.c -- the op spec's rows of the slicing family: slice, strided_slice, split
 * (count or size list), unpack, tile, pad (src/ops/slice.c, strided_slice.c, split.c,
 * pad_tile.c).  Parameter names and defaults are TF's; split's uneven is an ONNX preset. */
#include "args.h"
#include "opreg.h"
#include "values.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static tx_status run_slice(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_slice(arg_tensor(a, "input_"), arg_tensor(a, "begin"), arg_tensor(a, "size"), OUT));
}

/* TF reads the masks as int32 attrs; a value outside int32 is TF's "out of range for an int32". */
static tx_status mask_arg(const op_args *a, const char *name, int32_t *mask) {
    long long v = arg_int(a, name);
    if (v < INT32_MIN || v > INT32_MAX)
        return op_fail(TX_INVALID_ARGUMENT, "strided_slice: %s = %lld is out of range for an int32", name, v);
    *mask = (int32_t)v;
    return TX_OK;
}

static tx_status run_strided_slice(const op_args *a, op_outputs *o) {
    int32_t m[5];
    static const char *const names[5] = {"begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                                         "shrink_axis_mask"};
    for (int i = 0; i < 5; i++) {
        tx_status s = mask_arg(a, names[i], &m[i]);
        if (s != TX_OK) return s;
    }
    TX_CLI_ONE(o, tx_strided_slice(arg_tensor(a, "input_"), arg_tensor(a, "begin"), arg_tensor(a, "end"),
                                   arg_tensor(a, "strides"), m[0], m[1], m[2], m[3], m[4], OUT));
}

/* The split dim's size, or -1 when split_dim is out of range (the library reports it). */
static int64_t axis_dim(const tx_tensor *t, long long axis) {
    long long r = t ? (long long)tx_tensor_rank(t) : 0;
    if (axis < -r || axis >= r) return -1;
    return tx_tensor_dims(t)[axis < 0 ? axis + r : axis];
}

static tx_status run_split(const op_args *a, op_outputs *o) {
    const tx_tensor *value = arg_tensor(a, "value");
    long long split_dim = arg_int(a, "split_dim");
    bool has_num = arg_has(a, "num_split"), has_sizes = arg_has(a, "size_splits");
    if (has_num == has_sizes)
        return op_fail(TX_INVALID_ARGUMENT, "split: give exactly one of num_split and size_splits");
    tx_status s;
    if (has_sizes) {
        if (arg_bool(a, "uneven"))
            return op_fail(TX_INVALID_ARGUMENT, "split: uneven=true applies to num_split, not size_splits");
        size_t n;
        const int64_t *sizes = arg_ints(a, "size_splits", &n);
        if ((s = op_outputs_reserve(o, n)) != TX_OK) return s;
        return OP_CALL(o, tx_split_v(value, sizes, n, split_dim, o->t));
    }
    long long num = arg_int(a, "num_split");
    bool uneven = arg_bool(a, "uneven");
    /* Room for the outputs only when num_split can be right; otherwise the library refuses it
     * without writing to the array. */
    int64_t dim = axis_dim(value, split_dim);
    /* ONNX's uneven rule allows up to dim + 1 parts (the last one empty). */
    size_t room = num >= 1 && num <= INT32_MAX && dim >= 0 && (dim == 0 || num <= dim + uneven) ? (size_t)num : 0;
    if ((s = op_outputs_reserve(o, room)) != TX_OK) return s;
    if (uneven) return OP_CALL(o, tx_split_uneven(value, split_dim, num, o->t));
    return OP_CALL(o, tx_split(value, split_dim, num, o->t));
}

static tx_status run_unpack(const op_args *a, op_outputs *o) {
    const tx_tensor *value = arg_tensor(a, "value");
    long long axis = arg_int(a, "axis");
    long long num = arg_has(a, "num") ? arg_int(a, "num") : TX_UNPACK_INFER_NUM;
    /* TF's attr is `num: int >= 0`; only an absent num infers (the C API's -1 is not a user value). */
    if (arg_has(a, "num") && num < 0)
        return op_fail(TX_INVALID_ARGUMENT,
                       "unpack: num must be >= 0, got %lld (leave num out to take value.shape[axis])", num);
    int64_t dim = axis_dim(value, axis);
    size_t room = dim >= 0 && (num == TX_UNPACK_INFER_NUM || num == dim) ? (size_t)dim : 0;
    tx_status s = op_outputs_reserve(o, room);
    if (s != TX_OK) return s;
    return OP_CALL(o, tx_unpack(value, num, axis, o->t));
}

static tx_status run_tile(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_tile(arg_tensor(a, "input"), arg_tensor(a, "multiples"), OUT));
}

/* constant_values arrives as text (a number, true/false, or a string's bytes -- raw, or as a
 * quoted literal with escapes) and becomes a scalar of the tensor's dtype. */
static tx_status constant_scalar(const tx_tensor *tensor, const char *text, tx_tensor **out) {
    *out = NULL;
    if (!tensor) return TX_OK; /* the library reports the missing tensor */
    tx_dtype dt = tx_tensor_dtype(tensor);
    if (dt == TX_STRING) {
        if (text[0] == '"') {
            tx_status s = op_parse_literal(text, out);
            if (s == TX_OK && (tx_tensor_dtype(*out) != TX_STRING || tx_tensor_rank(*out) != 0)) {
                tx_tensor_free(*out);
                *out = NULL;
                return op_fail(TX_INVALID_ARGUMENT, "pad: constant_values '%s' is not one string", text);
            }
            return s;
        }
        size_t len = strlen(text);
        return tx_tensor_new_strings(0, NULL, &text, &len, out);
    }
    tx_status s = tx_tensor_new(dt, 0, NULL, out);
    if (s == TX_OK) s = tv_set_number(*out, 0, text, NULL);
    if (s != TX_OK) {
        tx_tensor_free(*out);
        *out = NULL;
    }
    return s;
}

static tx_status run_pad(const op_args *a, op_outputs *o) {
    const char *mode_text = arg_str(a, "mode");
    tx_pad_mode mode;
    /* tf.pad upper-cases the mode. */
    if (!strcasecmp(mode_text, "CONSTANT")) mode = TX_PAD_CONSTANT;
    else if (!strcasecmp(mode_text, "REFLECT")) mode = TX_PAD_REFLECT;
    else if (!strcasecmp(mode_text, "SYMMETRIC")) mode = TX_PAD_SYMMETRIC;
    else if (!strcasecmp(mode_text, "EDGE")) mode = TX_PAD_EDGE; /* ONNX presets */
    else if (!strcasecmp(mode_text, "WRAP")) mode = TX_PAD_WRAP;
    else
        return op_fail(TX_INVALID_ARGUMENT, /* TF 2.21: MirrorPad's mode attr, tf.pad's ValueError */
                       "pad: mode '%s' is not one of CONSTANT, REFLECT, SYMMETRIC, EDGE, WRAP", mode_text);
    const tx_tensor *tensor = arg_tensor(a, "tensor");
    tx_tensor *cv = NULL;
    if (mode == TX_PAD_CONSTANT && arg_has(a, "constant_values")) {
        tx_status s = constant_scalar(tensor, arg_str(a, "constant_values"), &cv);
        if (s != TX_OK) return s;
    }
    tx_status s = op_outputs_reserve(o, 1);
    if (s == TX_OK) s = OP_CALL(o, tx_pad(tensor, arg_tensor(a, "paddings"), mode, cv, &o->t[0]));
    tx_tensor_free(cv);
    return s;
}

const op_def tx_cli_ops_slicing[] = {
    {"slice", "the block at begin with size elements per dim (size -1: to the end)", run_slice,
     {{"input_", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"begin", P_TENSOR, PARAM_REQUIRED, "1-D int32/int64, one entry per dim", TX_INT32},
      {"size", P_TENSOR, PARAM_REQUIRED, "1-D int32/int64, one entry per dim; -1 = to the end", TX_INT32}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "slicing.md", .data_inputs = {"input_"}},
    {"strided_slice", "NumPy-style input_[begin:end:strides, ...] with TF's five masks", run_strided_slice,
     {{"input_", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"begin", P_TENSOR, PARAM_REQUIRED, "1-D int16/int32/int64", TX_INT32},
      {"end", P_TENSOR, PARAM_REQUIRED, "1-D int16/int32/int64 (begin's dtype), as long as begin", TX_INT32},
      {"strides", P_TENSOR, PARAM_REQUIRED, "1-D int16/int32/int64 (begin's dtype), as long as begin; no zero", TX_INT32},
      {"begin_mask", P_INT, "0", "bit i: ignore begin[i], take the fullest range"},
      {"end_mask", P_INT, "0", "bit i: ignore end[i], take the fullest range"},
      {"ellipsis_mask", P_INT, "0", "bit i: spec i is '...' (one bit at most)"},
      {"new_axis_mask", P_INT, "0", "bit i: spec i inserts a size-1 dim"},
      {"shrink_axis_mask", P_INT, "0", "bit i: spec i is the single index begin[i]; its dim goes"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "slicing.md", .data_inputs = {"input_"}},
    {"split", "equal parts (num_split) or parts of size_splits along split_dim", run_split,
     {{"value", P_TENSOR, PARAM_REQUIRED, "any tensor of rank >= 1"},
      {"split_dim", P_INT, PARAM_REQUIRED, "the dim to cut; negative counts from the end"},
      {"num_split", P_INT, PARAM_OPTIONAL, "number of equal parts (must divide the dim)"},
      {"size_splits", P_INT_LIST, PARAM_OPTIONAL, "sizes of the parts, one -1 allowed (instead of num_split)"},
      {"uneven", P_BOOL, "false", "ONNX Split-18 preset: num_split parts of ceil(dim / num_split), the last smaller"}},
     .outputs = {"output"}, .outputs_list = true, .doc = "slicing.md", .data_inputs = {"value"}},
    {"unpack", "the slices value[..., i, ...] along axis, each of rank R-1", run_unpack,
     {{"value", P_TENSOR, PARAM_REQUIRED, "any tensor of rank >= 1"},
      {"num", P_INT, PARAM_OPTIONAL, "expected count >= 0 (absent: value.shape[axis])"},
      {"axis", P_INT, "0", "negative counts from the end"}},
     .outputs = {"output"}, .outputs_list = true, .doc = "slicing.md", .data_inputs = {"value"}},
    {"tile", "input repeated multiples[i] times along dim i", run_tile,
     {{"input", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"multiples", P_TENSOR, PARAM_REQUIRED, "1-D int32/int64, one entry >= 0 per dim", TX_INT32}},
     .outputs = {"output"}, .doc = "slicing.md", .data_inputs = {"input"}},
    {"pad", "pad each dim by paddings[i] = [before, after]", run_pad,
     {{"tensor", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"paddings", P_TENSOR, PARAM_REQUIRED, "int32/int64 [rank, 2]", TX_INT32},
      {"mode", P_STRING, "CONSTANT", "CONSTANT, REFLECT, SYMMETRIC, or the ONNX presets EDGE, WRAP (any case)"},
      {"constant_values", P_STRING, PARAM_OPTIONAL,
       "CONSTANT fill value as text, default 0 (the empty string for strings)"}},
     .outputs = {"output"}, .doc = "slicing.md", .data_inputs = {"tensor"}},
    {NULL, NULL, NULL, {{NULL}}},
};
