/* SPDX-License-Identifier: Apache-2.0 */
/* testutil.h -- small helpers shared by the cmocka unit tests. */
#ifndef TX_TESTUTIL_H
#define TX_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tensorx.h"

/* A tensor of `dtype` and shape dims[0..rank) from doubles (cast with C rules; ints exact up to
 * 2^53).  Fails the test on error. */
tx_tensor *tu_tensor(tx_dtype dtype, size_t rank, const int64_t *dims, const double *values);
/* 1-D int64 / int32 tensor from a list. */
tx_tensor *tu_i64(size_t n, const int64_t *values);
tx_tensor *tu_i32(size_t n, const int32_t *values);
/* 1-D string tensor from NUL-terminated C strings. */
tx_tensor *tu_strings(size_t rank, const int64_t *dims, const char *const *values);
/* Asserts dtype and shape. */
void tu_assert_shape(const tx_tensor *t, tx_dtype dtype, size_t rank, const int64_t *dims);
/* Asserts every element equals values[i] after conversion to double. */
void tu_assert_values(const tx_tensor *t, const double *values);
/* Asserts status and that the message contains `fragment`. */
void tu_assert_error(tx_status got, tx_status want, const char *fragment);

/* Asserts that t is read-only everywhere the API could hand out its memory for writing:
 * tx_tensor_is_writable is 0, tx_tensor_data is NULL with "tensor_data: t is read-only ...",
 * tx_tensor_data_const still reads it; every view (tx_tensor_ref, reshape, expand_dims, squeeze,
 * and bitcast to uint8 where bitcast takes the dtype) is read-only over the same bytes; and
 * tx_tensor_copy gives a writable copy with the same bytes that can be changed. */
void tu_assert_read_only(tx_tensor *t);
/* Asserts that t is writable: tx_tensor_is_writable, and tx_tensor_data == tx_tensor_data_const. */
void tu_assert_writable(tx_tensor *t);

#define TU_DIMS(...) ((const int64_t[]){__VA_ARGS__})
#define TU_VALS(...) ((const double[]){__VA_ARGS__})
#define TU_LEN(...) (sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t))

/* Writes a .npy 1.0 header with the dict text `dict` (padded to a multiple of 64 bytes, ending
 * in '\n') at buf; returns its length.  buf must hold strlen(dict) + 74 bytes. */
size_t tu_npy_header(char *buf, const char *dict);
/* Saves x as .npy into a new buffer (free it with tx_buffer_free) and asserts that the header's
 * descr is `descr`, e.g. "[('int4', '|i1')]". */
void tu_npy_save_with_descr(const tx_tensor *x, const char *descr, void **buf, size_t *size);

/* Failure-injecting allocator: fails the k-th allocation from now (1-based; 0 = never) and counts
 * live allocations so tests can check for leaks. */
void tu_alloc_install(void);
void tu_alloc_fail_at(long k);
long tu_alloc_live(void);
long tu_alloc_count(void);
void tu_alloc_uninstall(void);
/* One step of an allocation-failure sweep over an op with outputs o (one output) and outs[1..2]
 * (multi-output ops put outs[0] in o): on TX_OK frees them, checks nothing leaked and returns true
 * (the sweep is done); otherwise requires resource_exhausted with every output NULL and nothing
 * leaked, and returns false (try the next k). */
bool tu_alloc_sweep_step(tx_status st, tx_tensor *o, tx_tensor *const outs[3]);

/* The byte tensorx holds for byte b of dtype dt: for a sub-byte integer (int4, uint4, int2,
 * uint2) its low value bits; for float4 / float6 the magnitude bits and the sign bit, set when any
 * bit at or above it is (as ml_dtypes reads such a byte); bool 0 or 1; b for any other dtype.
 * Written from the formats, apart from the library's normalisation. */
static inline unsigned char tu_canonical_byte(tx_dtype dt, unsigned char b) {
    int bits = dt == TX_INT4 || dt == TX_UINT4 || dt == TX_FLOAT4_E2M1FN ? 4
             : dt == TX_INT2 || dt == TX_UINT2                         ? 2
             : dt == TX_FLOAT6_E2M3FN || dt == TX_FLOAT6_E3M2FN         ? 6 : 8;
    if (dt == TX_BOOL) return b != 0;
    if (bits == 8) return b;
    if (tx_dtype_kind_of(dt) != TX_KIND_FLOAT) return (unsigned char)(b & ((1u << bits) - 1u));
    unsigned sign = 1u << (bits - 1);
    return (unsigned char)((b & (sign - 1u)) | (b >= sign ? sign : 0u));
}

#endif
