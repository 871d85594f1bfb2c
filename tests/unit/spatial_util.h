/* SPDX-License-Identifier: Apache-2.0 */
/* spatial_util.h -- helpers that the spatial family's unit tests share (test_spatial.c,
 * test_spatial_random.c, test_spatial_edges.c, test_spatial_oob.c). */
#ifndef TX_SPATIAL_UTIL_H
#define TX_SPATIAL_UTIL_H

#include "testutil.h"

/* int32 tensor holding 1, 2, 3, ... (so that 0 marks padding). */
static inline tx_tensor *iota(size_t rank, const int64_t *dims) {
    tx_tensor *t = tu_tensor(TX_INT32, rank, dims, NULL);
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) ((int32_t *)tx_tensor_data(t))[i] = (int32_t)i + 1;
    return t;
}

/* [m, 2] int64 matrix (m may be 0). */
static inline tx_tensor *pairs(int64_t m, const int64_t *v) {
    int64_t dims[2] = {m, 2};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT64, 2, dims, v, (size_t)m * 16, &t), TX_OK);
    return t;
}

/* [m, 2] int32 matrix. */
static inline tx_tensor *pairs32(int64_t m, const int32_t *v) {
    int64_t dims[2] = {m, 2};
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT32, 2, dims, v, (size_t)m * 8, &t), TX_OK);
    return t;
}

#define P64(...) ((const int64_t[]){__VA_ARGS__})
#define P32(...) ((const int32_t[]){__VA_ARGS__})

static inline void expect(tx_tensor *o, size_t rank, const int64_t *dims, const double *vals) {
    tu_assert_shape(o, TX_INT32, rank, dims);
    tu_assert_values(o, vals);
    tx_tensor_free(o);
}

static inline void check_s2b_nd(tx_tensor *x, tx_tensor *block, tx_tensor *pads, size_t rank,
                                const int64_t *dims, const double *vals) {
    tx_tensor *o = NULL;
    assert_int_equal(tx_space_to_batch_nd(x, block, pads, &o), TX_OK);
    expect(o, rank, dims, vals);
}

static inline void check_b2s_nd(tx_tensor *x, tx_tensor *block, tx_tensor *crops, size_t rank,
                                const int64_t *dims, const double *vals) {
    tx_tensor *o = NULL;
    assert_int_equal(tx_batch_to_space_nd(x, block, crops, &o), TX_OK);
    expect(o, rank, dims, vals);
}

static inline tx_status patches(const tx_tensor *x, int64_t kr, int64_t kc, int64_t sr, int64_t sc, int64_t rr,
                                int64_t rc, tx_padding pad, tx_tensor **o) {
    int64_t k[4] = {1, kr, kc, 1}, s[4] = {1, sr, sc, 1}, r[4] = {1, rr, rc, 1};
    return tx_extract_image_patches(x, k, 4, s, 4, r, 4, pad, o);
}

#endif
