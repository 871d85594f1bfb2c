/* SPDX-License-Identifier: Apache-2.0 */
/* testutil.c -- helpers for the cmocka unit tests (see testutil.h). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double get(const tx_tensor *t, int64_t i) {
    const void *d = tx_tensor_data_const(t);
    switch (tx_tensor_dtype(t)) {
    case TX_BOOL: case TX_UINT8: case TX_QUINT8: return ((const uint8_t *)d)[i];
    case TX_INT8: case TX_QINT8: return ((const int8_t *)d)[i];
    case TX_INT16: case TX_QINT16: return ((const int16_t *)d)[i];
    case TX_UINT16: case TX_QUINT16: return ((const uint16_t *)d)[i];
    case TX_INT32: case TX_QINT32: return ((const int32_t *)d)[i];
    case TX_UINT32: return ((const uint32_t *)d)[i];
    case TX_INT64: return (double)((const int64_t *)d)[i];
    case TX_UINT64: return (double)((const uint64_t *)d)[i];
    case TX_FLOAT32: return ((const float *)d)[i];
    case TX_FLOAT64: return ((const double *)d)[i];
    default: fail_msg("tu: dtype %s not supported by get()", tx_dtype_name(tx_tensor_dtype(t)));
    }
    return 0;
}

static void set(tx_tensor *t, int64_t i, double v) {
    void *d = tx_tensor_data(t);
    switch (tx_tensor_dtype(t)) {
    case TX_BOOL: ((uint8_t *)d)[i] = v != 0; break;
    case TX_UINT8: case TX_QUINT8: ((uint8_t *)d)[i] = (uint8_t)v; break;
    case TX_INT8: case TX_QINT8: ((int8_t *)d)[i] = (int8_t)v; break;
    case TX_INT16: case TX_QINT16: ((int16_t *)d)[i] = (int16_t)v; break;
    case TX_UINT16: case TX_QUINT16: ((uint16_t *)d)[i] = (uint16_t)v; break;
    case TX_INT32: case TX_QINT32: ((int32_t *)d)[i] = (int32_t)v; break;
    case TX_UINT32: ((uint32_t *)d)[i] = (uint32_t)v; break;
    case TX_INT64: ((int64_t *)d)[i] = (int64_t)v; break;
    case TX_UINT64: ((uint64_t *)d)[i] = (uint64_t)v; break;
    case TX_FLOAT32: ((float *)d)[i] = (float)v; break;
    case TX_FLOAT64: ((double *)d)[i] = v; break;
    default: fail_msg("tu: dtype %s not supported by set()", tx_dtype_name(tx_tensor_dtype(t)));
    }
}

tx_tensor *tu_tensor(tx_dtype dtype, size_t rank, const int64_t *dims, const double *values) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(dtype, rank, dims, &t), TX_OK);
    for (int64_t i = 0; values && i < tx_tensor_numel(t); i++) set(t, i, values[i]);
    return t;
}

tx_tensor *tu_i64(size_t n, const int64_t *values) {
    int64_t d = (int64_t)n;
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT64, 1, &d, values, n * 8, &t), TX_OK);
    return t;
}

tx_tensor *tu_i32(size_t n, const int32_t *values) {
    int64_t d = (int64_t)n;
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT32, 1, &d, values, n * 4, &t), TX_OK);
    return t;
}

tx_tensor *tu_strings(size_t rank, const int64_t *dims, const char *const *values) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    size_t *lens = calloc((size_t)n + 1, sizeof *lens);
    for (int64_t i = 0; i < n; i++) lens[i] = strlen(values[i]);
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new_strings(rank, dims, values, lens, &t), TX_OK);
    free(lens);
    return t;
}

void tu_assert_shape(const tx_tensor *t, tx_dtype dtype, size_t rank, const int64_t *dims) {
    assert_non_null(t);
    assert_string_equal(tx_dtype_name(tx_tensor_dtype(t)), tx_dtype_name(dtype));
    assert_int_equal(tx_tensor_rank(t), rank);
    for (size_t i = 0; i < rank; i++) assert_int_equal(tx_tensor_dims(t)[i], dims[i]);
}

void tu_assert_values(const tx_tensor *t, const double *values) {
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        double g = get(t, i);
        if (!(g == values[i] || (g != g && values[i] != values[i])))
            fail_msg("element %lld: got %.17g, want %.17g", (long long)i, g, values[i]);
    }
}

void tu_assert_error(tx_status got, tx_status want, const char *fragment) {
    if (got != want)
        fail_msg("status %s, want %s (message: %s)", tx_status_name(got), tx_status_name(want),
                 tx_last_error());
    if (fragment && !strstr(tx_last_error(), fragment))
        fail_msg("message '%s' lacks '%s'", tx_last_error(), fragment);
}

/* ---- read-only tensors ---- */

void tu_assert_writable(tx_tensor *t) {
    assert_true(tx_tensor_is_writable(t));
    assert_non_null(tx_tensor_data(t));
    assert_ptr_equal(tx_tensor_data(t), tx_tensor_data_const(t));
}

/* The read-only checks of one tensor, without its views. */
static void assert_refuses_writes(tx_tensor *t, const void *bytes) {
    assert_false(tx_tensor_is_writable(t));
    tx_clear_error();
    assert_null(tx_tensor_data(t));
    if (!strstr(tx_last_error(), "tensor_data: t is read-only"))
        fail_msg("tx_tensor_data of a read-only tensor: message '%s'", tx_last_error());
    assert_ptr_equal(tx_tensor_data_const(t), bytes);
}

void tu_assert_read_only(tx_tensor *t) {
    const void *bytes = tx_tensor_data_const(t);
    assert_non_null(bytes);
    assert_refuses_writes(t, bytes);
    int64_t n = tx_tensor_numel(t);
    tx_tensor *v = NULL, *w = NULL, *shape = tu_i64(1, &n);
    assert_int_equal(tx_tensor_ref(t, &v), TX_OK);
    assert_refuses_writes(v, bytes);
    tx_tensor_free(v);
    assert_int_equal(tx_reshape(t, shape, &v), TX_OK);
    assert_refuses_writes(v, bytes);
    tx_tensor_free(shape);
    assert_int_equal(tx_expand_dims(v, 0, &w), TX_OK); /* a view of a view */
    assert_refuses_writes(w, bytes);
    tx_tensor_free(v);
    assert_int_equal(tx_squeeze(w, TU_DIMS(0), 1, &v), TX_OK);
    assert_refuses_writes(v, bytes);
    tx_tensor_free(v);
    tx_tensor_free(w);
    tx_dtype dt = tx_tensor_dtype(t);
    if (dt != TX_STRING && dt != TX_BOOL && dt != TX_INT4 && dt != TX_UINT4) {
        assert_int_equal(tx_bitcast(t, TX_UINT8, &v), TX_OK);
        assert_refuses_writes(v, bytes);
        tx_tensor_free(v);
    }
    /* A copy is the way to change the data: writable, same bytes, and writing leaves t alone. */
    assert_int_equal(tx_tensor_copy(t, &v), TX_OK);
    tu_assert_writable(v);
    size_t nb = tx_tensor_nbytes(t);
    assert_memory_equal(tx_tensor_data(v), bytes, nb);
    if (nb && dt != TX_STRING) {
        unsigned char *c = tx_tensor_data(v);
        unsigned char was = *(const unsigned char *)bytes;
        c[0] = (unsigned char)~c[0];
        assert_int_equal(*(const unsigned char *)bytes, was);
    }
    tx_tensor_free(v);
}

/* ---- failure-injecting allocator ---- */
static long fail_at, count, live;

static void *inj_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    count++;
    if (fail_at && count == fail_at) return NULL;
    void *p = NULL;
    if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size ? size : 1)) return NULL;
    live++;
    return p;
}

static void inj_free(void *p, size_t size, void *ctx) {
    (void)size;
    (void)ctx;
    if (p) live--;
    free(p);
}

void tu_alloc_install(void) {
    static const tx_allocator a = {inj_alloc, inj_free, NULL};
    fail_at = count = live = 0;
    tx_set_allocator(&a);
}
void tu_alloc_fail_at(long k) {
    fail_at = k;
    count = 0;
}
long tu_alloc_live(void) { return live; }

bool tu_alloc_sweep_step(tx_status st, tx_tensor *o, tx_tensor *const outs[3]) {
    if (st == TX_OK) {
        tx_tensor_free(o);
        tx_tensor_free(outs[1]);
        tx_tensor_free(outs[2]);
        assert_int_equal(tu_alloc_live(), 0);
        return true;
    }
    assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
    assert_null(o);
    assert_null(outs[1]);
    assert_null(outs[2]);
    assert_int_equal(tu_alloc_live(), 0);
    return false;
}
long tu_alloc_count(void) { return count; }
void tu_alloc_uninstall(void) { tx_set_allocator(NULL); }

void tu_npy_save_with_descr(const tx_tensor *x, const char *descr, void **buf, size_t *size) {
    assert_int_equal(tx_npy_save_buffer(x, buf, size), TX_OK);
    char head[128] = {0}, want[96];
    /* the header text starts after the 10-byte magic, version and length */
    memcpy(head, (const char *)*buf + 10, *size - 10 < sizeof head - 1 ? *size - 10 : sizeof head - 1);
    snprintf(want, sizeof want, "'descr': %s", descr);
    if (strstr(head, want) == NULL) fail_msg("npy header %s lacks %s", head, want);
}

size_t tu_npy_header(char *buf, const char *dict) {
    size_t hl = strlen(dict), total = (10 + hl + 1 + 63) / 64 * 64;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (char)((total - 10) & 0xFF);
    buf[9] = (char)((total - 10) >> 8);
    memcpy(buf + 10, dict, hl);
    memset(buf + 10 + hl, ' ', total - 10 - hl - 1);
    buf[total - 1] = '\n';
    return total;
}
