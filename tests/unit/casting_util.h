/* SPDX-License-Identifier: Apache-2.0 */
/* casting_util.h -- helpers that the casting family's unit tests share (test_cast.c,
 * test_saturate_cast.c, test_bitcast.c, test_raw_bytes.c, test_string_ops.c, test_casting.c). */
#ifndef TX_CASTING_UTIL_H
#define TX_CASTING_UTIL_H

#include "testutil.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static inline tx_tensor *raw(tx_dtype dt, size_t rank, const int64_t *dims, const void *data) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(dt, rank, dims, data, (size_t)n * tx_dtype_size(dt), &t), TX_OK);
    return t;
}

static inline tx_tensor *raw1(tx_dtype dt, int64_t n, const void *data) {
    return raw(dt, 1, &n, data);
}

/* A string tensor from explicit (bytes, length) pairs. */
static inline tx_tensor *strs(size_t rank, const int64_t *dims, const char *const *v,
                              const size_t *len) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new_strings(rank, dims, v, len, &t), TX_OK);
    return t;
}

static inline tx_tensor *str_scalar(const char *s, size_t len) { return strs(0, NULL, &s, &len); }

static inline void assert_bytes(const tx_tensor *t, const void *want, size_t n) {
    assert_int_equal(tx_tensor_nbytes(t), n);
    if (n && memcmp(tx_tensor_data_const(t), want, n) != 0) {
        const unsigned char *g = tx_tensor_data_const(t), *w = want;
        for (size_t i = 0; i < n; i++)
            if (g[i] != w[i]) fail_msg("byte %zu: got 0x%02x want 0x%02x", i, g[i], w[i]);
    }
}

static inline tx_tensor *cast_ok(const tx_tensor *x, tx_dtype to) {
    tx_tensor *o = NULL;
    tx_status st = tx_cast(x, to, &o);
    if (st != TX_OK) fail_msg("cast to %s: %s", tx_dtype_name(to), tx_last_error());
    return o;
}

#endif
