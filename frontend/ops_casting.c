/* SPDX-License-Identifier: Apache-2.0 */
/* ops_casting.c -- the op spec's rows of the casting family: cast, saturate_cast, the to_*
 * ops, bitcast (src/ops/cast.c), decode_raw, encode_raw, string_to_number (src/ops/decode.c),
 * pack_subbyte, unpack_subbyte, cast_pack (src/ops/pack_subbyte.c),
 * OpenVINO's string_tensor_pack / string_tensor_unpack (src/ops/string_pack.c) and the
 * TF_TString / ONNX Runtime string layouts (src/io/string_layouts.c).  Parameter names and
 * defaults are TF's (OpenVINO's for the string tensors). */
#include "opreg.h"

#include <string.h>

/* mode=default|saturate|checked|onnx (tx_cast_in_mode); exact_float=true adds TX_CAST_EXACT_FLOAT;
 * with mode=onnx, saturate=false and round_mode=down|nearest add the TX_CAST_ONNX_* flags. */
static tx_status run_cast(const op_args *a, op_outputs *o) {
    const char *ms = arg_str(a, "mode"), *rm = arg_str(a, "round_mode");
    tx_cast_mode mode;
    if (!strcmp(ms, "default")) mode = TX_CAST_DEFAULT;
    else if (!strcmp(ms, "saturate")) mode = TX_CAST_SATURATE;
    else if (!strcmp(ms, "checked")) mode = TX_CAST_CHECKED;
    else if (!strcmp(ms, "onnx")) mode = TX_CAST_ONNX;
    else return op_fail(TX_INVALID_ARGUMENT, "cast: mode '%s' is not default, saturate, checked or onnx", ms);
    unsigned flags = arg_bool(a, "exact_float") ? TX_CAST_EXACT_FLOAT : 0u;
    if (!arg_bool(a, "saturate")) flags |= TX_CAST_ONNX_NO_SATURATE;
    if (!strcmp(rm, "down")) flags |= TX_CAST_ONNX_ROUND_DOWN;
    else if (!strcmp(rm, "nearest")) flags |= TX_CAST_ONNX_ROUND_NEAREST;
    else if (strcmp(rm, "up")) return op_fail(TX_INVALID_ARGUMENT, "cast: round_mode '%s' is not up, down or nearest", rm);
    TX_CLI_ONE(o, tx_cast_in_mode(arg_tensor(a, "x"), arg_dtype(a, "dtype"), mode, flags, OUT));
}

static tx_status run_saturate_cast(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_saturate_cast(arg_tensor(a, "value"), arg_dtype(a, "dtype"), OUT));
}

static tx_status run_to_double(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_to_double(arg_tensor(a, "x"), OUT));
}
static tx_status run_to_float(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_to_float(arg_tensor(a, "x"), OUT));
}
static tx_status run_to_bfloat16(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_to_bfloat16(arg_tensor(a, "x"), OUT));
}
static tx_status run_to_int32(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_to_int32(arg_tensor(a, "x"), OUT));
}
static tx_status run_to_int64(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_to_int64(arg_tensor(a, "x"), OUT));
}

static tx_status run_bitcast(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_bitcast(arg_tensor(a, "input"), arg_dtype(a, "type"), OUT));
}

static tx_status run_string_to_number(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_string_to_number(arg_tensor(a, "string_tensor"), arg_dtype(a, "out_type"), OUT));
}

static tx_status run_decode_raw(const op_args *a, op_outputs *o) {
    int64_t fixed = (int64_t)arg_int(a, "fixed_length");
    const int64_t *fl = arg_has(a, "fixed_length") ? &fixed : NULL;
    TX_CLI_ONE(o, tx_decode_raw(arg_tensor(a, "input_bytes"), arg_dtype(a, "out_type"),
                                arg_bool(a, "little_endian"), fl, OUT));
}

static tx_status run_encode_raw(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_encode_raw(arg_tensor(a, "x"), arg_bool(a, "little_endian"), OUT));
}

/* For the CLI, symbols may also be given as a string scalar ("IntelOpenVINO", @FILE): its bytes
 * are used as the 1-D uint8 symbols tensor. */
static tx_status run_string_tensor_pack(const op_args *a, op_outputs *o) {
    const tx_tensor *symbols = arg_tensor(a, "symbols");
    tx_tensor *bytes = NULL;
    if (symbols && tx_tensor_dtype(symbols) == TX_STRING && tx_tensor_rank(symbols) == 0) {
        tx_status s = tx_decode_raw(symbols, TX_UINT8, 1, NULL, &bytes);
        if (s != TX_OK) return s;
        symbols = bytes;
    }
    tx_status s = op_outputs_reserve(o, 1);
    if (s == TX_OK)
        s = OP_CALL(o, tx_string_tensor_pack(arg_tensor(a, "begins"), arg_tensor(a, "ends"), symbols, &o->t[0]));
    tx_tensor_free(bytes);
    return s;
}

/* The bytes of a byte-buffer argument: a 1-D uint8 tensor, or a string scalar (@FILE, a literal)
 * whose bytes are used, as for string_tensor_pack's symbols.  *tmp is set when one is made. */
static tx_status byte_tensor(const tx_tensor *t, tx_tensor **tmp, const tx_tensor **bytes) {
    *tmp = NULL;
    *bytes = t;
    if (t && tx_tensor_dtype(t) == TX_STRING && tx_tensor_rank(t) == 0) {
        tx_status s = tx_decode_raw(t, TX_UINT8, 1, NULL, tmp);
        if (s != TX_OK) return s;
        *bytes = *tmp;
    }
    return TX_OK;
}

/* The CLI writes the position-independent OFFSET form (a file cannot hold VIEW pointers) and
 * reads without pointers. */
static tx_status run_string_tensor_to_tf(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_string_tensor_to_tf(arg_tensor(a, "data"), TX_TSTRING_OFFSET, OUT));
}

static tx_status run_string_tensor_from_tf(const op_args *a, op_outputs *o) {
    tx_tensor *tmp;
    const tx_tensor *rec;
    tx_status s = byte_tensor(arg_tensor(a, "records"), &tmp, &rec);
    if (s != TX_OK) return s;
    if (tx_tensor_dtype(rec) != TX_UINT8 || tx_tensor_rank(rec) != 1) {
        tx_tensor_free(tmp);
        return op_fail(TX_INVALID_ARGUMENT, "string_tensor_from_tf: records must be 1-D uint8 or a "
                       "string scalar, got %s of rank %zu", tx_dtype_name(tx_tensor_dtype(rec)),
                       tx_tensor_rank(rec));
    }
    size_t rank;
    const int64_t *dims = arg_ints(a, "shape", &rank);
    s = op_outputs_reserve(o, 1);
    if (s == TX_OK)
        s = OP_CALL(o, tx_string_tensor_from_tf(tx_tensor_data_const(rec), tx_tensor_nbytes(rec), rank,
                                                dims, 0, &o->t[0]));
    tx_tensor_free(tmp);
    return s;
}

static tx_status run_pack_subbyte(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_pack_subbyte(arg_tensor(a, "x"), OUT));
}

static tx_status run_cast_pack(const op_args *a, op_outputs *o) {
    TX_CLI_ONE(o, tx_cast_pack(arg_tensor(a, "x"), arg_dtype(a, "dtype"), OUT));
}

/* packed may also be a string scalar (@FILE, a literal): its bytes. */
static tx_status run_unpack_subbyte(const op_args *a, op_outputs *o) {
    tx_tensor *tmp;
    const tx_tensor *packed;
    tx_status s = byte_tensor(arg_tensor(a, "packed"), &tmp, &packed);
    if (s != TX_OK) return s;
    size_t rank;
    const int64_t *dims = arg_ints(a, "shape", &rank);
    s = op_outputs_reserve(o, 1);
    if (s == TX_OK)
        s = OP_CALL(o, tx_unpack_subbyte(packed, arg_dtype(a, "dtype"), rank, dims, &o->t[0]));
    tx_tensor_free(tmp);
    return s;
}

static tx_status run_string_tensor_to_ort(const op_args *a, op_outputs *o) {
    tx_status s = op_outputs_reserve(o, 2);
    if (s != TX_OK) return s;
    return OP_CALL(o, tx_string_tensor_to_ort(arg_tensor(a, "data"), o->t));
}

static tx_status run_string_tensor_from_ort(const op_args *a, op_outputs *o) {
    tx_tensor *tmp;
    const tx_tensor *content;
    tx_status s = byte_tensor(arg_tensor(a, "content"), &tmp, &content);
    if (s != TX_OK) return s;
    s = op_outputs_reserve(o, 1);
    if (s == TX_OK) s = OP_CALL(o, tx_string_tensor_from_ort(content, arg_tensor(a, "offsets"), &o->t[0]));
    tx_tensor_free(tmp);
    return s;
}

static tx_status run_string_tensor_unpack(const op_args *a, op_outputs *o) {
    tx_status s = op_outputs_reserve(o, 3);
    if (s != TX_OK) return s;
    return OP_CALL(o, tx_string_tensor_unpack(arg_tensor(a, "data"), o->t));
}

/* ---- streaming over big files (tools/stream.c) ---- */

/* Checked mode names the first bad element by its index in the whole tensor: it runs in memory. */
static bool cast_streams(const op_args *a) {
    const char *ms = arg_str(a, "mode");
    return !strcmp(ms, "default") || !strcmp(ms, "saturate") || !strcmp(ms, "onnx");
}

/* With fixed_length only the first fixed_length bytes count: not a result per window. */
static bool decode_raw_streams(const op_args *a) { return !arg_has(a, "fixed_length"); }

static const op_stream cast_stream = {"x", OP_STREAM_NPY, cast_streams};
static const op_stream bitcast_stream = {"input", OP_STREAM_NPY, NULL};
static const op_stream decode_raw_stream = {"input_bytes", OP_STREAM_RAW, decode_raw_streams};

#define TO_OP(name, fn, what)                                                                     \
    {name, "cast to " what " (tf." name ")", fn, {{"x", P_TENSOR, PARAM_REQUIRED, "any numeric tensor"}}, \
     .outputs = {"y"}, .outputs_bounded = true, .doc = "casting.md", .data_inputs = {"x"}}

const op_def tx_cli_ops_casting[] = {
    {"string_to_number", "parse strings as numbers (tf.strings.to_number)", run_string_to_number,
     {{"string_tensor", P_TENSOR, PARAM_REQUIRED, "string tensor"},
      {"out_type", P_DTYPE, "float32", "float32, float64, int32, int64, uint32 or uint64"}},
     .outputs = {"output"}, .doc = "casting.md"},
    TO_OP("to_double", run_to_double, "float64"),
    TO_OP("to_float", run_to_float, "float32"),
    TO_OP("to_bfloat16", run_to_bfloat16, "bfloat16"),
    TO_OP("to_int32", run_to_int32, "int32"),
    TO_OP("to_int64", run_to_int64, "int64"),
    {"cast", "convert elements to another dtype (tf.cast)", run_cast,
     {{"x", P_TENSOR, PARAM_REQUIRED, "any tensor"},
      {"dtype", P_DTYPE, PARAM_REQUIRED, "target dtype"},
      {"mode", P_STRING, "default", "default (TF's bits), saturate, checked (fail on inexact), or the ONNX Cast-25 preset onnx"},
      {"exact_float", P_BOOL, "false", "checked mode: float targets must not round either"},
      {"saturate", P_BOOL, "true", "onnx mode: ONNX's saturate (false: overflow gives inf or NaN)"},
      {"round_mode", P_STRING, "up", "onnx mode: ONNX's round_mode for float8_e8m0fnu: up, down or nearest"}},
     &cast_stream,
     .outputs = {"y"}, .outputs_bounded = true, .doc = "casting.md", .data_inputs = {"x"}},
    {"bitcast", "reinterpret the bytes as another dtype (a view; tf.bitcast)", run_bitcast,
     {{"input", P_TENSOR, PARAM_REQUIRED, "numeric tensor (not bool)"},
      {"type", P_DTYPE, PARAM_REQUIRED, "numeric dtype (not bool)"}},
     &bitcast_stream,
     .outputs = {"output"}, .outputs_bounded = true, .doc = "casting.md", .data_inputs = {"input"}},
    {"saturate_cast", "cast after clamping to the target's range (tf.saturate_cast)",
     run_saturate_cast,
     {{"value", P_TENSOR, PARAM_REQUIRED, "numeric tensor"},
      {"dtype", P_DTYPE, PARAM_REQUIRED, "numeric dtype"}},
     .outputs = {"y"}, .outputs_bounded = true, .doc = "casting.md", .data_inputs = {"value"}},
    {"decode_raw", "reinterpret each string's bytes as numbers (tf.io.decode_raw)", run_decode_raw,
     {{"input_bytes", P_TENSOR, PARAM_REQUIRED, "string tensor"},
      {"out_type", P_DTYPE, PARAM_REQUIRED, "float16..uint64, complex, bool, bfloat16"},
      {"little_endian", P_BOOL, "true", "byte order of the data"},
      {"fixed_length", P_INT, PARAM_OPTIONAL, "pad/truncate each string to this many bytes"}},
     &decode_raw_stream,
     .outputs = {"output"}, .doc = "casting.md"},
    {"encode_raw", "the bytes of each last-dim row as a string (inverse of decode_raw)",
     run_encode_raw,
     {{"x", P_TENSOR, PARAM_REQUIRED, "tensor of rank >= 1, any dtype but string"},
      {"little_endian", P_BOOL, "true", "byte order to write"}},
     .outputs = {"output"}, .doc = "casting.md"},
    {"pack_subbyte", "the packed bytes of a sub-byte tensor, 8/bits per byte (tensorx)",
     run_pack_subbyte,
     {{"x", P_TENSOR, PARAM_REQUIRED, "int4, uint4, int2, uint2, float4_e2m1fn or float6 tensor"}},
     .outputs = {"packed"}, .outputs_bounded = true, .doc = "casting.md", .data_inputs = {"x"}},
    {"unpack_subbyte", "a sub-byte tensor of dtype and shape from packed bytes (tensorx)",
     run_unpack_subbyte,
     {{"packed", P_TENSOR, PARAM_REQUIRED, "1-D uint8 (or a string scalar, e.g. @FILE: its bytes)", TX_UINT8},
      {"dtype", P_DTYPE, PARAM_REQUIRED, "int4, uint4, int2, uint2, float4_e2m1fn or float6"},
      {"shape", P_INT_LIST, PARAM_REQUIRED, "shape of the result ([] for a scalar)"}},
     .outputs = {"output"}, .outputs_bounded = true, .doc = "casting.md", .data_inputs = {"packed"}},
    {"cast_pack", "cast to a sub-byte dtype and pack, 8/bits per byte, in one pass (tensorx)",
     run_cast_pack,
     {{"x", P_TENSOR, PARAM_REQUIRED, "any numeric tensor"},
      {"dtype", P_DTYPE, PARAM_REQUIRED, "int4, uint4, int2, uint2, float4_e2m1fn or float6"}},
     .outputs = {"packed"}, .outputs_bounded = true, .doc = "casting.md", .data_inputs = {"x"}},
    {"string_tensor_pack", "strings from [begin, end) ranges of symbols (OpenVINO)",
     run_string_tensor_pack,
     {{"begins", P_TENSOR, PARAM_REQUIRED, "int32/int64 tensor", TX_INT64},
      {"ends", P_TENSOR, PARAM_REQUIRED, "int32/int64 tensor, begins' shape", TX_INT64},
      {"symbols", P_TENSOR, PARAM_REQUIRED, "1-D uint8 tensor (or a string scalar: its bytes)", TX_UINT8}},
     .outputs = {"output"}, .doc = "casting.md"},
    {"string_tensor_unpack", "begins, ends and symbols of a string tensor (OpenVINO)",
     run_string_tensor_unpack, {{"data", P_TENSOR, PARAM_REQUIRED, "string tensor"}},
     .outputs = {"begins", "ends", "symbols"}, .doc = "casting.md"},
    {"string_tensor_to_tf", "TF_TString records (OFFSET form) of a string tensor, as 1-D uint8",
     run_string_tensor_to_tf, {{"data", P_TENSOR, PARAM_REQUIRED, "string tensor"}},
     .outputs = {"records"}, .doc = "interop.md"},
    {"string_tensor_from_tf", "a string tensor from TF_TString records (SMALL and OFFSET)",
     run_string_tensor_from_tf,
     {{"records", P_TENSOR, PARAM_REQUIRED, "1-D uint8 (or a string scalar, e.g. @FILE: its bytes)", TX_UINT8},
      {"shape", P_INT_LIST, PARAM_REQUIRED, "shape of the string tensor ([] for a scalar)"}},
     .outputs = {"data"}, .doc = "interop.md"},
    {"string_tensor_to_ort", "ONNX Runtime's content bytes and size_t start offsets",
     run_string_tensor_to_ort, {{"data", P_TENSOR, PARAM_REQUIRED, "string tensor"}},
     .outputs = {"content", "offsets"}, .doc = "interop.md"},
    {"string_tensor_from_ort", "a string tensor from ONNX Runtime's content and offsets",
     run_string_tensor_from_ort,
     {{"content", P_TENSOR, PARAM_REQUIRED, "1-D uint8 (or a string scalar: its bytes)", TX_UINT8},
      {"offsets", P_TENSOR, PARAM_REQUIRED, "uint64/int64 start offsets, the strings' shape", TX_UINT64}},
     .outputs = {"data"}, .doc = "interop.md"},
    {NULL, NULL, NULL, {{NULL}}},
};
