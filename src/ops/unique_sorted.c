/* SPDX-License-Identifier: Apache-2.0 */
/* unique_sorted.c -- tx_unique_with_counts_in_mode(TX_UNIQUE_SORTED), the ONNX Unique sorted=1 preset,
 * whose reference is np.unique: y ascending, -0.0 == 0.0 for every float dtype, all NaNs one
 * value placed last.  Each element maps to an order-preserving 64-bit key (NaN: the largest key);
 * (key, position) pairs go through a bottom-up merge sort (strings: positions, by bytes), and y,
 * idx and count are read off the runs of equal keys: the first position of a run is the value's
 * first occurrence, whose bits y keeps.  The op itself is unique.c. */
#include "ops/unique.h"

typedef struct {
    uint64_t key;
    int64_t pos;
} sort_item;

/* Order-preserving key of a float of `bits` width given its bit pattern b: NaN (exponent all ones,
 * mantissa nonzero: magnitude above inf) is the largest key, -0 is +0. */
static inline uint64_t float_key(uint64_t b, unsigned bits, uint64_t inf) {
    uint64_t sign = 1ull << (bits - 1), mag = b & (sign - 1);
    if (mag > inf) return UINT64_MAX;
    if (mag == 0) return sign;
    return (b & sign) ? (~b & (sign | (sign - 1))) : (b | sign);
}

/* Fills keys for a numeric x; returns false for a dtype without an ordering here (keep
 * tx__unique_sorted_orders in step). */
static bool sort_keys(const tx_tensor *x, sort_item *it) {
    const int64_t n = x->numel;
    const char *p = x->data;
#define KEYS(T, EXPR)                                                                             \
    for (int64_t i = 0; i < n; i++) {                                                             \
        T v;                                                                                      \
        memcpy(&v, p + i * (int64_t)sizeof v, sizeof v);                                          \
        it[i].key = (EXPR);                                                                       \
        it[i].pos = i;                                                                            \
    }
    switch (x->dtype) {
    case TX_BOOL: KEYS(uint8_t, v != 0) break;
    case TX_UINT8: KEYS(uint8_t, v) break;
    case TX_UINT16: KEYS(uint16_t, v) break;
    case TX_UINT32: KEYS(uint32_t, v) break;
    case TX_UINT64: KEYS(uint64_t, v) break;
    case TX_INT8: KEYS(uint8_t, (uint8_t)(v ^ 0x80u)) break;
    case TX_INT16: KEYS(uint16_t, (uint16_t)(v ^ 0x8000u)) break;
    case TX_INT32: KEYS(uint32_t, v ^ 0x80000000u) break;
    case TX_INT64: KEYS(uint64_t, v ^ 0x8000000000000000ull) break;
    case TX_FLOAT16: KEYS(uint16_t, float_key(v, 16, 0x7C00)) break;
    case TX_BFLOAT16: KEYS(uint16_t, float_key(v, 16, 0x7F80)) break;
    case TX_FLOAT32: KEYS(uint32_t, float_key(v, 32, 0x7F800000u)) break;
    case TX_FLOAT64: KEYS(uint64_t, float_key(v, 64, 0x7FF0000000000000ull)) break;
    default: return false;
    }
#undef KEYS
    return true;
}

bool tx__unique_sorted_orders(tx_dtype t) {
    switch (t) {
    case TX_BOOL: case TX_UINT8: case TX_UINT16: case TX_UINT32: case TX_UINT64:
    case TX_INT8: case TX_INT16: case TX_INT32: case TX_INT64:
    case TX_FLOAT16: case TX_BFLOAT16: case TX_FLOAT32: case TX_FLOAT64:
    case TX_STRING: return true;
    default: return false;
    }
}

static inline bool item_le(const sort_item *a, const sort_item *b) {
    return a->key < b->key || (a->key == b->key && a->pos <= b->pos);
}

/* Bottom-up merge sort of a[0..n) using tmp; returns the buffer that holds the result.  n is at
 * most INT32_MAX (the op's check), so 2 * width and lo + 2 * width stay far inside int64. */
static sort_item *sort_items(sort_item *a, sort_item *tmp, int64_t n) {
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = item_le(&a[i], &a[j]) ? a[i++] : a[j++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        sort_item *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

/* Bytewise order, a proper prefix first; equal strings by position (so a run starts at the
 * first occurrence). */
static inline int string_cmp(const tx_string *a, const tx_string *b) {
    uint64_t m = a->size < b->size ? a->size : b->size;
    int c = m ? memcmp(a->data, b->data, (size_t)m) : 0;
    if (c) return c;
    return a->size < b->size ? -1 : a->size > b->size;
}

static int32_t *sort_positions(const tx_string *xv, int32_t *a, int32_t *tmp, int64_t n) {
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = string_cmp(&xv[a[i]], &xv[a[j]]) <= 0 ? a[i++] : a[j++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        int32_t *t = a;
        a = tmp;
        tmp = t;
    }
    return a;
}

/* Sorted unique into first[] (position in x of each value of y, ascending) and idx; returns the
 * number of values, or -1 when a scratch allocation fails. */
static int64_t sorted_run(const char *op, const tx_tensor *x, int32_t *first, void *idx, bool i64) {
    const int64_t n = x->numel;
    int64_t u = 0;
    if (x->dtype == TX_STRING) {
        const size_t bytes = (size_t)(n ? n : 1) * sizeof(int32_t);
        int32_t *a = tx__alloc(bytes, op), *b = a ? tx__alloc(bytes, op) : NULL;
        if (b == NULL) {
            tx__free(a, bytes);
            return -1;
        }
        for (int64_t i = 0; i < n; i++) a[i] = (int32_t)i;
        const tx_string *xv = (const tx_string *)x->data;
        const int32_t *s = sort_positions(xv, a, b, n);
        for (int64_t i = 0; i < n; i++) {
            if (i == 0 || string_cmp(&xv[s[i - 1]], &xv[s[i]]) != 0) first[u++] = s[i];
            tx__put_index(idx, i64, s[i], u - 1);
        }
        tx__free(a, bytes);
        tx__free(b, bytes);
        return u;
    }
    const size_t bytes = (size_t)(n ? n : 1) * sizeof(sort_item);
    sort_item *a = tx__alloc(bytes, op), *b = a ? tx__alloc(bytes, op) : NULL;
    if (b == NULL) {
        tx__free(a, bytes);
        return -1;
    }
    const bool ordered = sort_keys(x, a);
    assert(ordered); /* the op checked tx__unique_sorted_orders */
    (void)ordered;
    const sort_item *s = sort_items(a, b, n);
    for (int64_t i = 0; i < n; i++) {
        if (i == 0 || s[i - 1].key != s[i].key) first[u++] = (int32_t)s[i].pos;
        tx__put_index(idx, i64, s[i].pos, u - 1);
    }
    tx__free(a, bytes);
    tx__free(b, bytes);
    return u;
}

tx_status tx__unique_sorted(const char *op, const tx_tensor *x, int32_t *first, void *idx,
                            bool i64, int64_t *u) {
    *u = sorted_run(op, x, first, idx, i64);
    return *u < 0 ? TX_RESOURCE_EXHAUSTED : TX_OK;
}
