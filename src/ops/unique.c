/* SPDX-License-Identifier: Apache-2.0 */
/* unique.c -- TF's tf.unique_with_counts (UniqueWithCounts): the distinct elements of a 1-D
 * tensor in order of first occurrence, the index of each element's value in that list, and how
 * often each value occurs.  This file is the op: validation, plan, outputs.  The distinct values
 * are found by one of three files (unique.h): unique_numeric.c (numbers: per-thread hash tables,
 * merged in chunk order), unique_strings.c (strings: one hash table) and unique_sorted.c (the
 * sorted preset: a merge sort).
 *
 * Equality is TF's CPU kernel's (unique_op.cc).  TF keys float and double in a std::unordered_map,
 * whose std::hash sends -0.0 and 0.0 to one bucket and whose == says they are equal, so they are
 * one value (the first seen is kept in y); NaN != NaN, so every NaN is a value of its own.  TF's
 * float16 and bfloat16 keys go through Eigen's std::hash, which hashes the bit pattern, so -0.0
 * and 0.0 land in different buckets and stay distinct (the bucket count is a prime, which never
 * divides 0x8000), while NaNs again never match.  Integers, bool and strings compare by value.
 *
 * tx_unique_with_counts_in_mode(TX_UNIQUE_SORTED) is the ONNX Unique sorted=1 preset, whose
 * reference is np.unique: y ascending, -0.0 == 0.0 for every float dtype, all NaNs one value
 * placed last. */
#include "ops/unique.h"

#include <inttypes.h>

/* y[j] = x[first[j]] for j < u, elements of w bytes (1, 2, 4, 8 or 16: every dtype's size). */
static void gather_first(char *y, const char *x, const int32_t *first, int64_t u, size_t w) {
    switch (w) {
#define GATHER_W(W)                                                                               \
    case W:                                                                                       \
        for (int64_t j = 0; j < u; j++) memcpy(y + j * W, x + (int64_t)first[j] * W, W);          \
        return;
        GATHER_W(1)
        GATHER_W(2)
        GATHER_W(4)
        GATHER_W(8)
        GATHER_W(16)
#undef GATHER_W
    default:
        for (int64_t j = 0; j < u; j++) memcpy(y + (size_t)j * w, x + (size_t)first[j] * w, w);
    }
}

tx_status tx_unique_with_counts(const tx_tensor *x, tx_dtype out_idx, tx_tensor **outs) {
    return tx_unique_with_counts_in_mode(x, out_idx, TX_UNIQUE_FIRST_SEEN, outs);
}

/* Plan records: y [<= n] of x's dtype, idx [n], count [<= n]. */
typedef struct {
    tx_dtype dtype, out_idx;
    int64_t n;
} unique_t;

static void unique_spec(void *ctx, size_t i, tx__out_spec *s) {
    const unique_t *c = ctx;
    s->dtype = i == 0 ? c->dtype : c->out_idx;
    s->rank = 1;
    s->dims[0] = c->n;
    s->flags = i == 1 ? 0u : TX_OUTPUT_DATA_DEPENDENT | TX_OUTPUT_UPPER_BOUND;
}

tx_status tx_unique_with_counts_in_mode(const tx_tensor *x, tx_dtype out_idx, tx_unique_mode mode,
                                        tx_tensor **outs) {
    static const char *op = "unique_with_counts";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    outs[0] = outs[1] = outs[2] = NULL;
    TX_REQUIRE_TENSOR(op, x, "x");
    TX_REQUIRE(mode == TX_UNIQUE_FIRST_SEEN || mode == TX_UNIQUE_SORTED, TX_INVALID_ARGUMENT,
               "%s: mode %d is not a tx_unique_mode (TX_UNIQUE_FIRST_SEEN or TX_UNIQUE_SORTED)", op,
               (int)mode);
    const bool sorted = mode == TX_UNIQUE_SORTED;
    /* out_idx outside UniqueWithCounts' list {int32, int64}: unimplemented (a dtype the op does
     * not take). */
    TX_REQUIRE(out_idx == TX_INT32 || out_idx == TX_INT64, TX_UNIMPLEMENTED,
               "%s: out_idx must be int32 or int64, got %s", op, tx_dtype_name(out_idx));
    TX_REQUIRE(x->rank == 1, TX_INVALID_ARGUMENT, "%s: x must be 1-D (unique expects a 1D vector), got rank %zu",
               op, x->rank);
    TX_REQUIRE(x->numel <= INT32_MAX, TX_INVALID_ARGUMENT,
               "%s: x has %" PRId64 " elements; unique does not support more than %d", op,
               x->numel, INT32_MAX);
    tx_dtype_kind kind = tx_dtype_kind_of(x->dtype);
    TX_REQUIRE(kind != TX_KIND_COMPLEX && kind != TX_KIND_QUANTIZED && !tx__is_small_float(x->dtype) &&
                   !tx__is_subbyte(x->dtype), TX_UNIMPLEMENTED,
               "%s: dtype %s is not supported (TF's Unique kernel takes real numbers, bool and "
               "strings)", op, tx_dtype_name(x->dtype));
    /* Sorted mode takes the dtypes whose ordering unique_sorted.c defines. */
    TX_REQUIRE(!sorted || tx__unique_sorted_orders(x->dtype), TX_UNIMPLEMENTED,
               "%s: sorted mode has no ordering for dtype %s", op, tx_dtype_name(x->dtype));
    const int64_t n = x->numel;
    const bool i64 = out_idx == TX_INT64;
    /* The number of distinct values takes a hash table or a sort to find: a plan records n. */
    unique_t c = {x->dtype, out_idx, n};
    TX_TRY(tx__plan_bounds(op, 3, unique_spec, &c, outs));
    tx_status st = tx__tensor_alloc(op, out_idx, 1, &n, &outs[1]);
    if (st != TX_OK) return st;
    tx__unique_counted res = {0};
    const bool hashed_numeric = !sorted && x->dtype != TX_STRING;
    const size_t first_bytes = (size_t)(n ? n : 1) * sizeof(int32_t);
    int32_t *first = NULL;
    int64_t u = 0;
    if (hashed_numeric) {
        st = tx__unique_numeric(op, x, outs[1]->data, i64, &res);
        first = res.first;
        u = res.u;
    } else {
        first = tx__alloc(first_bytes, op);
        if (first == NULL) st = TX_RESOURCE_EXHAUSTED;
        else if (sorted) st = tx__unique_sorted(op, x, first, outs[1]->data, i64, &u);
        else st = tx__unique_strings(op, x, first, outs[1]->data, i64, &u);
    }
    if (st == TX_OK) {
        st = tx__tensor_alloc(op, x->dtype, 1, &u, &outs[0]);
        if (st == TX_OK) st = tx__tensor_zeros(op, out_idx, 1, &u, &outs[2]);
        if (st == TX_OK) st = tx__share_strings(outs[0], x);
        if (st == TX_OK) {
            gather_first(outs[0]->data, x->data, first, u, tx_dtype_size(x->dtype));
            if (x->dtype == TX_BOOL) tx__normalise_bool(outs[0]->data, u); /* y holds 0 and 1 */
            if (hashed_numeric) {
                /* the scan counted already */
                for (int64_t j = 0; j < u; j++) {
                    if (i64) ((int64_t *)outs[2]->data)[j] = res.count[j];
                    else ((int32_t *)outs[2]->data)[j] = res.count[j];
                }
            } else if (i64) {
                const int64_t *iv = (const int64_t *)outs[1]->data;
                int64_t *cv = (int64_t *)outs[2]->data;
                for (int64_t i = 0; i < n; i++) cv[iv[i]]++;
            } else {
                const int32_t *iv = (const int32_t *)outs[1]->data;
                int32_t *cv = (int32_t *)outs[2]->data;
                for (int64_t i = 0; i < n; i++) cv[iv[i]]++;
            }
        }
    }
    if (hashed_numeric) tx__unique_counted_free(&res);
    else tx__free(first, first_bytes);
    if (st != TX_OK) {
        tx__free_all(outs, 3);
        return st;
    }
    /* The outputs come back in TF's order y, idx, count. */
    return TX_OK;
}
