/* SPDX-License-Identifier: Apache-2.0 */
/* ops_parsing.c -- the op spec's rows of the parsing family: parse_example and
 * parse_single_example (src/io/example.c).  The features are TF's raw op's parallel lists
 * (ParseExampleV2, ParseSingleExample): sparse_keys with sparse_types (dtype names separated by
 * commas), dense_keys with dense_defaults (a tensor per key, whose dtype is the feature's; empty
 * for a required feature) and dense_shapes (a 1-D integer tensor per key, [] for a scalar). */
#include "opreg.h"

#include <stdlib.h>
#include <string.h>

/* The dense features' shapes: one 1-D integer tensor (or an empty tensor) per dense key.  *dims
 * (malloc'd, freed by the caller) holds them one after the other. */
static tx_status dense_shapes(const char *op, const op_args *a, size_t nd, size_t *ranks,
                              const int64_t **shapes, int64_t **dims) {
    size_t n = 0, total = 0;
    const tx_tensor *const *list = arg_list(a, "dense_shapes", &n);
    if (n != nd)
        return op_fail(TX_INVALID_ARGUMENT, "%s: dense_shapes has %zu shapes, dense_keys %zu keys",
                       op, n, nd);
    for (size_t d = 0; d < nd; d++) {
        tx_dtype t = tx_tensor_dtype(list[d]);
        bool empty = tx_tensor_numel(list[d]) == 0;
        if (tx_tensor_rank(list[d]) != 1 || (!empty && t != TX_INT32 && t != TX_INT64))
            return op_fail(TX_INVALID_ARGUMENT, "%s: dense_shapes[%zu] must be a 1-D int32/int64 "
                           "tensor ([] for a scalar)", op, d);
        total += (size_t)tx_tensor_numel(list[d]);
    }
    *dims = malloc((total ? total : 1) * sizeof **dims);
    if (!*dims) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    size_t at = 0;
    for (size_t d = 0; d < nd; d++) {
        ranks[d] = (size_t)tx_tensor_numel(list[d]);
        shapes[d] = *dims + at;
        const void *p = tx_tensor_data_const(list[d]);
        for (size_t k = 0; k < ranks[d]; k++)
            (*dims)[at++] = tx_tensor_dtype(list[d]) == TX_INT32 ? ((const int32_t *)p)[k]
                                                                 : ((const int64_t *)p)[k];
    }
    return TX_OK;
}

/* sparse_types: dtype names separated by commas, one per sparse key. */
static tx_status sparse_types(const char *op, const op_args *a, size_t ns, tx_dtype *types) {
    const char *p = arg_str(a, "sparse_types");
    size_t n = 0;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char name[32];
        if (len >= sizeof name || n == ns)
            return op_fail(TX_INVALID_ARGUMENT, "%s: sparse_types must name one dtype per sparse "
                           "key (%zu)", op, ns);
        memcpy(name, p, len);
        name[len] = '\0';
        types[n] = tx_dtype_from_name(name);
        if (types[n] == TX_INVALID_DTYPE)
            return op_fail(TX_INVALID_ARGUMENT, "%s: sparse_types: '%s' is not a dtype", op, name);
        n++;
        p += len + (e != NULL);
    }
    if (n != ns)
        return op_fail(TX_INVALID_ARGUMENT, "%s: sparse_types has %zu dtypes, sparse_keys %zu keys",
                       op, n, ns);
    return TX_OK;
}

static size_t key_count(const tx_tensor *keys) {
    return keys ? (size_t)tx_tensor_numel(keys) : 0;
}

static tx_status run_parse(const op_args *a, op_outputs *o, bool single) {
    const char *op = single ? "parse_single_example" : "parse_example";
    const tx_tensor *skeys = arg_tensor(a, "sparse_keys"), *dkeys = arg_tensor(a, "dense_keys");
    const size_t ns = key_count(skeys), nd = key_count(dkeys);
    size_t ndef = 0;
    const tx_tensor *const *defaults = arg_list(a, "dense_defaults", &ndef);
    if (ndef != nd)
        return op_fail(TX_INVALID_ARGUMENT, "%s: dense_defaults has %zu tensors, dense_keys %zu "
                       "keys", op, ndef, nd);
    tx_dtype *types = calloc(ns + 1, sizeof *types);
    size_t *ranks = calloc(nd + 1, sizeof *ranks);
    const int64_t **shapes = calloc(nd + 1, sizeof *shapes);
    int64_t *dims = NULL;
    tx_status s = types && ranks && shapes ? TX_OK : op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    if (s == TX_OK) s = sparse_types(op, a, ns, types);
    if (s == TX_OK) s = dense_shapes(op, a, nd, ranks, shapes, &dims);
    if (s == TX_OK) s = op_outputs_reserve(o, 3 * ns + nd);
    if (s == TX_OK)
        s = single ? OP_CALL(o, tx_parse_single_example(arg_tensor(a, "serialized"), skeys, types,
                                                        dkeys, defaults, ranks, shapes, o->t))
                   : OP_CALL(o, tx_parse_example(arg_tensor(a, "serialized"), arg_tensor(a, "names"),
                                                 skeys, types, dkeys, defaults, ranks, shapes, o->t));
    free(types);
    free(ranks);
    free(shapes);
    free(dims);
    return s;
}

static tx_status run_parse_example(const op_args *a, op_outputs *o) { return run_parse(a, o, false); }
static tx_status run_parse_single_example(const op_args *a, op_outputs *o) {
    return run_parse(a, o, true);
}

#define FEATURE_PARAMS                                                                          \
    {"sparse_keys", P_TENSOR, PARAM_OPTIONAL, "1-D string tensor: the VarLenFeature keys"},      \
    {"dense_keys", P_TENSOR, PARAM_OPTIONAL, "1-D string tensor: the FixedLenFeature keys"},     \
    {"sparse_types", P_STRING, PARAM_OPTIONAL, "a dtype per sparse key, by commas: float32, int64, string"}, \
    {"dense_defaults", P_TENSOR_LIST, PARAM_OPTIONAL, "a default per dense key, of its dtype (empty: required)"}, \
    {"dense_shapes", P_TENSOR_LIST, PARAM_OPTIONAL, "a 1-D int tensor per dense key: its shape ([] scalar)", TX_INT64}

const op_def tx_cli_ops_parsing[] = {
    {"parse_example", "the features of serialized tf.train.Example records (tf.io.parse_example)",
     run_parse_example,
     {{"serialized", P_TENSOR, PARAM_REQUIRED, "1-D string tensor of records (a scalar: one)"},
      {"names", P_TENSOR, PARAM_OPTIONAL, "string tensor: a name per record, for the errors"},
      FEATURE_PARAMS},
     .outputs = {"outputs"}, .outputs_list = true, .doc = "example.md"},
    {"parse_single_example", "the features of one serialized tf.train.Example (tf.io.parse_single_example)",
     run_parse_single_example,
     {{"serialized", P_TENSOR, PARAM_REQUIRED, "string scalar: one record"},
      FEATURE_PARAMS},
     .outputs = {"outputs"}, .outputs_list = true, .doc = "example.md"},
    {NULL, NULL, NULL, {{NULL}}},
};
