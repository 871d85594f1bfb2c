/* SPDX-License-Identifier: Apache-2.0 */
/* unique.h -- what the files of tf.unique_with_counts share: the op (validation, plan, outputs) is
 * unique.c; each way of finding the distinct values is a file of its own, called by unique.c once
 * the idx output exists:
 *   unique_numeric.c  numbers: per-thread hash tables over chunks of x, merged in chunk order;
 *                     it counts as it scans
 *   unique_strings.c  strings: one hash table keyed by a hash of the bytes
 *   unique_sorted.c   the sorted (ONNX Unique sorted=1) preset: a merge sort of order-preserving
 *                     keys (strings: of positions, by bytes)
 * Each writes idx (int32 or int64, n = x->numel elements) and the position in x of each distinct
 * value's first occurrence, in the order of y. */
#ifndef TX_OPS_UNIQUE_H
#define TX_OPS_UNIQUE_H

#include "core/internal.h"

/* Writes id into element i of an int32 or int64 idx buffer. */
static inline void tx__put_index(void *idx, bool i64, int64_t i, int64_t id) {
    if (i64) ((int64_t *)idx)[i] = id;
    else ((int32_t *)idx)[i] = (int32_t)id;
}

/* The numeric scan's result: u distinct values, first[j] the position in x of value j's first
 * occurrence, count[j] its occurrences.  first and count live in one block of `bytes` bytes. */
typedef struct {
    int64_t u;
    int32_t *first, *count;
    void *block;
    size_t bytes;
} tx__unique_counted;

/* Unique of a numeric (non-string) x in TF's order of first occurrence: writes idx and, on
 * success, *res (free it with tx__unique_counted_free).  unique_numeric.c. */
TX_HIDDEN tx_status tx__unique_numeric(const char *op, const tx_tensor *x, void *idx, bool i64,
                                       tx__unique_counted *res);
TX_HIDDEN void tx__unique_counted_free(tx__unique_counted *res);

/* Unique of a string x in TF's order of first occurrence: writes idx and first[0, *u) (first has
 * room for n entries).  unique_strings.c. */
TX_HIDDEN tx_status tx__unique_strings(const char *op, const tx_tensor *x, int32_t *first,
                                       void *idx, bool i64, int64_t *u);

/* Unique of x with y ascending (np.unique's order: -0.0 == 0.0, NaNs one value, last): writes idx
 * and first[0, *u).  x's dtype must be one tx__unique_sorted_orders takes.  unique_sorted.c. */
TX_HIDDEN tx_status tx__unique_sorted(const char *op, const tx_tensor *x, int32_t *first, void *idx,
                                      bool i64, int64_t *u);
/* Whether sorted mode has an ordering for dtype t (bool, the integers, float16, bfloat16,
 * float32, float64 and strings). */
TX_HIDDEN bool tx__unique_sorted_orders(tx_dtype t);

#endif
