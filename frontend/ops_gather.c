/* SPDX-License-Identifier: Apache-2.0 */
/* ops_gather.c -- the op spec's rows of the gather family (src/ops/gather.c, partition.c,
 * unique.c, encode.c): gather, gather_nd, unique_with_counts, dynamic_partition, dynamic_stitch,
 * boolean_mask, one_hot and sequence_mask.  Parameter names and defaults are TF's; where TF's
 * Python wrapper decides a default from other arguments (gather's axis, one_hot's dtype) the run
 * function does the same.  The `oob` attribute (not TF's; default "error" = TF) picks the
 * out-of-range policy of gather, gather_nd, dynamic_stitch and one_hot. */
#include "opreg.h"
#include "values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static tx_status run_gather(const op_args *a, op_outputs *o) {
    /* tf.gather uses axis = batch_dims when no axis is given (0 unless batch_dims is set). */
    long long bd = arg_int(a, "batch_dims");
    long long axis = arg_has(a, "axis") ? arg_int(a, "axis") : bd;
    tx_oob_policy oob = TX_OOB_ERROR;
    tx_status s = arg_oob("gather", a, &oob);
    if (s != TX_OK) return s;
    TX_CLI_ONE(o, tx_gather_oob(arg_tensor(a, "params"), arg_tensor(a, "indices"), axis, bd, oob, OUT));
}

static tx_status run_gather_nd(const op_args *a, op_outputs *o) {
    tx_oob_policy oob = TX_OOB_ERROR;
    tx_status s = arg_oob("gather_nd", a, &oob);
    if (s != TX_OK) return s;
    TX_CLI_ONE(o, tx_gather_nd_oob(arg_tensor(a, "params"), arg_tensor(a, "indices"), oob, OUT));
}

static tx_status run_unique_with_counts(const op_args *a, op_outputs *o) {
    tx_status s = op_outputs_reserve(o, 3);
    if (s != TX_OK) return s;
    /* sorted=true: ONNX Unique's sorted=1 preset (y ascending, np.unique's rules). */
    tx_unique_mode mode = arg_bool(a, "sorted") ? TX_UNIQUE_SORTED : TX_UNIQUE_FIRST_SEEN;
    return OP_CALL(o, tx_unique_with_counts_in_mode(arg_tensor(a, "x"), arg_dtype(a, "out_idx"), mode,
                                                    o->t));
}

static tx_status run_dynamic_partition(const op_args *a, op_outputs *o) {
    long long n = arg_int(a, "num_partitions");
    /* The library checks the range too; this only keeps the output array sane. */
    if (n < 1 || n > 1000000)
        return op_fail(TX_INVALID_ARGUMENT, "dynamic_partition: num_partitions must be in [1, 1000000] on the command line, got %lld", n);
    tx_status s = op_outputs_reserve(o, (size_t)n);
    if (s != TX_OK) return s;
    return OP_CALL(o, tx_dynamic_partition(arg_tensor(a, "data"), arg_tensor(a, "partitions"), n, o->t));
}

static tx_status run_dynamic_stitch(const op_args *a, op_outputs *o) {
    size_t ni, nd;
    const tx_tensor *const *ind = arg_list(a, "indices", &ni);
    const tx_tensor *const *data = arg_list(a, "data", &nd);
    tx_oob_policy oob = TX_OOB_ERROR;
    tx_status s = arg_oob("dynamic_stitch", a, &oob);
    if (s != TX_OK) return s;
    TX_CLI_ONE(o, tx_dynamic_stitch_oob(ind, ni, data, nd, oob, OUT));
}

static tx_status run_boolean_mask(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_boolean_mask(arg_tensor(a, "tensor"), arg_tensor(a, "mask"), arg_int(a, "axis"), OUT));
}

/* The dtype TF's Python gives a Python scalar: bool, int32 (int64 when it does not fit), float32,
 * else a string. */
static tx_dtype infer_dtype(const char *s) {
    if (!strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "True") || !strcmp(s, "False")) return TX_BOOL;
    char *end;
    if (*s) {
        long long v = strtoll(s, &end, 10);
        if (*end == '\0') return v >= INT32_MIN && v <= INT32_MAX ? TX_INT32 : TX_INT64;
        (void)strtod(s, &end);
        if (*end == '\0') return TX_FLOAT32;
    }
    const char *p = *s == '-' || *s == '+' ? s + 1 : s;
    if (!strcasecmp(p, "nan") || !strcasecmp(p, "inf") || !strcasecmp(p, "infinity")) return TX_FLOAT32;
    return TX_STRING;
}

/* A scalar tensor of `dtype` from an attribute's text. */
static tx_status value_tensor(const char *name, const char *text, tx_dtype dtype, tx_tensor **out) {
    *out = NULL;
    tx_status st;
    if (dtype == TX_STRING) {
        size_t len = strlen(text);
        return tx_tensor_new_strings(0, NULL, &text, &len, out);
    }
    st = tx_tensor_new(dtype, 0, NULL, out);
    if (st != TX_OK) return st;
    st = tv_set_number(*out, 0, text, NULL);
    if (st != TX_OK) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", op_error());
        tx_tensor_free(*out);
        *out = NULL;
        return op_fail(st, "one_hot: %s: %s", name, msg);
    }
    return TX_OK;
}

static tx_status run_one_hot(const op_args *a, op_outputs *o) {
    bool has_on = arg_has(a, "on_value"), has_off = arg_has(a, "off_value");
    const char *on_text = arg_str(a, "on_value"), *off_text = arg_str(a, "off_value");
    tx_dtype dtype = TX_FLOAT32;
    if (arg_has(a, "dtype")) {
        dtype = arg_dtype(a, "dtype");
    } else if (has_on || has_off) {
        /* TF's Python takes the dtype of on_value (else off_value); both must agree. */
        tx_dtype on_t = has_on ? infer_dtype(on_text) : TX_INVALID_DTYPE;
        tx_dtype off_t = has_off ? infer_dtype(off_text) : TX_INVALID_DTYPE;
        if (has_on && has_off && on_t != off_t)
            return op_fail(TX_INVALID_ARGUMENT, "one_hot: on_value (%s) and off_value (%s) have different dtypes",
                           tx_dtype_name(on_t), tx_dtype_name(off_t));
        dtype = has_on ? on_t : off_t;
    }
    tx_tensor *on = NULL, *off = NULL;
    tx_oob_policy oob = TX_OOB_ERROR;
    tx_status st = arg_oob("one_hot", a, &oob);
    if (st != TX_OK) return st;
    if (has_on) st = value_tensor("on_value", on_text, dtype, &on);
    if (st == TX_OK && has_off) st = value_tensor("off_value", off_text, dtype, &off);
    if (st == TX_OK) st = op_outputs_reserve(o, 1);
    if (st == TX_OK)
        st = OP_CALL(o, tx_one_hot_oob(arg_tensor(a, "indices"), arg_int(a, "depth"), on, off,
                                      arg_int(a, "axis"), dtype, oob, &o->t[0]));
    tx_tensor_free(on);
    tx_tensor_free(off);
    return st;
}

static tx_status run_sequence_mask(const op_args *a, op_outputs *o) {
    const tx_tensor *maxlen = arg_has(a, "maxlen") ? arg_tensor(a, "maxlen") : NULL;
    TX_CLI_ONE(o, tx_sequence_mask(arg_tensor(a, "lengths"), maxlen, arg_dtype(a, "dtype"), OUT));
}

const op_def tx_cli_ops_gather[] = {
    {"gather", "slices of params along axis picked by indices", run_gather,
     {{"params", P_TENSOR, PARAM_REQUIRED, "any tensor of rank >= 1"},
      {"indices", P_TENSOR, PARAM_REQUIRED, "int16/int32/int64, any rank, entries in [0, params.shape[axis])", TX_INT32},
      {"axis", P_INT, PARAM_OPTIONAL, "axis of params (negative counts from the end); absent: batch_dims, i.e. 0"},
      {"batch_dims", P_INT, "0", "leading dims shared by params and indices"},
      {"oob", P_STRING, "error", "out-of-range indices: error, zero (zero slice), clamp, wrap (mod dim)"}},
     .outputs = {"output"}, .doc = "gather.md", .data_inputs = {"params", "indices"}},
    {"gather_nd", "elements or slices of params picked by index vectors", run_gather_nd,
     {{"params", P_TENSOR, PARAM_REQUIRED, "any tensor of rank >= 1"},
      {"indices", P_TENSOR, PARAM_REQUIRED, "int16/int32/int64 [..., K], K <= rank(params)", TX_INT32},
      {"oob", P_STRING, "error", "out-of-range components: error, zero (zero slice), clamp, wrap (mod dim)"}},
     .outputs = {"output"}, .doc = "gather.md", .data_inputs = {"params", "indices"}},
    {"unique_with_counts", "distinct values in first-occurrence order, with idx and counts", run_unique_with_counts,
     {{"x", P_TENSOR, PARAM_REQUIRED, "1-D tensor (not complex or quantized)"},
      {"out_idx", P_DTYPE, "int32", "int32 or int64 (dtype of idx and count)"},
      {"sorted", P_BOOL, "false", "ONNX Unique sorted=1 preset: y ascending (np.unique's rules)"}},
     .outputs = {"y", "idx", "count"}, .outputs_bounded = true, .doc = "gather.md"},
    {"dynamic_partition", "split data into num_partitions tensors by partition id", run_dynamic_partition,
     {{"data", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"partitions", P_TENSOR, PARAM_REQUIRED, "int32, shape a prefix of data's, ids in [0, num_partitions)", TX_INT32},
      {"num_partitions", P_INT, PARAM_REQUIRED, ">= 1"}},
     .outputs = {"outputs"}, .outputs_list = true, .doc = "gather.md"},
    {"dynamic_stitch", "interleave data slices at the rows named by indices (later wins)", run_dynamic_stitch,
     {{"indices", P_TENSOR_LIST, PARAM_REQUIRED, "list of int32 tensors"},
      {"data", P_TENSOR_LIST, PARAM_REQUIRED, "list of tensors, data[m].shape = indices[m].shape + C"},
      {"oob", P_STRING, "error", "negative indices: error, zero (dropped), clamp (row 0), wrap (mod rows)"}},
     .outputs = {"merged"}, .doc = "gather.md"},
    {"boolean_mask", "the slices of tensor where the K-D mask is true", run_boolean_mask,
     {{"tensor", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"mask", P_TENSOR, PARAM_REQUIRED, "bool, shape = tensor.shape[axis:axis+K]", TX_BOOL},
      {"axis", P_INT, "0", "first dim the mask covers"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "gather.md"},
    {"one_hot", "one-hot encoding of indices along a new axis", run_one_hot,
     {{"indices", P_TENSOR, PARAM_REQUIRED, "uint8/int8/int32/int64, any rank", TX_INT32},
      {"depth", P_INT, PARAM_REQUIRED, ">= 0"},
      {"on_value", P_STRING, PARAM_OPTIONAL, "a number or text (for dtype string); absent: 1"},
      {"off_value", P_STRING, PARAM_OPTIONAL, "a number or text (for dtype string); absent: 0"},
      {"axis", P_INT, "-1", "-1 (last) or 0..rank(indices)"},
      {"dtype", P_DTYPE, PARAM_OPTIONAL, "absent: on_value's (else off_value's) type, else float32"},
      {"oob", P_STRING, "error", "indices outside [0, depth): error/zero (all-off row), clamp, wrap (mod depth)"}},
     .outputs = {"output"}, .doc = "gather.md", .data_inputs = {"indices"}},
    {"sequence_mask", "mask of the first lengths[i] positions of each row", run_sequence_mask,
     {{"lengths", P_TENSOR, PARAM_REQUIRED, "integer tensor, any rank", TX_INT32},
      {"maxlen", P_TENSOR, PARAM_OPTIONAL, "int32/int64 scalar >= 0; absent: max(lengths)"},
      {"dtype", P_DTYPE, "bool", "bool or any numeric dtype"}},
     .outputs = {"output"}, .doc = "gather.md", .data_inputs = {"lengths"}},
    {NULL, NULL, NULL, {{NULL}}},
};
