/* SPDX-License-Identifier: Apache-2.0 */
/* test_npy.c -- .npy reading and writing: round trips of every dtype (incl. the structured-dtype
 * convention for bfloat16 and the quantized types), versions 2.0/3.0, Fortran order, big-endian
 * data, and hostile headers that must give clean errors. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static tx_tensor *load(const char *bytes, size_t n, tx_status want) {
    tx_tensor *t = (tx_tensor *)1;
    tx_status st = tx_npy_load_buffer(bytes, n, &t);
    if (st != want) fail_msg("status %s, want %s: %s", tx_status_name(st), tx_status_name(want), tx_last_error());
    if (st != TX_OK) assert_null(t);
    return st == TX_OK ? t : NULL;
}

/* Builds a v1.0 file from a header dict and data bytes. */
static size_t make_npy(char *buf, const char *dict, const void *data, size_t n) {
    size_t total = tu_npy_header(buf, dict);
    memcpy(buf + total, data, n);
    return total + n;
}

static void test_round_trip_all_dtypes(void **state) {
    (void)state;
    static const tx_dtype all[] = {TX_BOOL, TX_INT8, TX_UINT8, TX_INT16, TX_UINT16, TX_INT32, TX_UINT32,
                                   TX_INT64, TX_UINT64, TX_FLOAT16, TX_BFLOAT16, TX_FLOAT32, TX_FLOAT64,
                                   TX_COMPLEX64, TX_COMPLEX128, TX_QINT8, TX_QUINT8, TX_QINT16, TX_QUINT16, TX_QINT32};
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        tx_tensor *t = NULL, *back = NULL;
        assert_int_equal(tx_tensor_new(all[k], 3, TU_DIMS(2, 3, 4), &t), TX_OK);
        unsigned char *d = tx_tensor_data(t);
        for (size_t i = 0; i < tx_tensor_nbytes(t); i++) d[i] = (unsigned char)(i * 7 + 1);
        if (all[k] == TX_BOOL)
            for (size_t i = 0; i < tx_tensor_nbytes(t); i++) d[i] &= 1;
        void *buf;
        size_t size;
        assert_int_equal(tx_npy_save_buffer(t, &buf, &size), TX_OK);
        assert_int_equal(size % 64, (size_t)tx_tensor_nbytes(t) % 64);
        back = load(buf, size, TX_OK);
        tu_assert_shape(back, all[k], 3, TU_DIMS(2, 3, 4));
        assert_memory_equal(tx_tensor_data(back), d, tx_tensor_nbytes(t));
        tx_buffer_free(buf, size);
        tx_tensor_free(t);
        tx_tensor_free(back);
    }
}

static void test_strings(void **state) {
    (void)state;
    const char *vals[] = {"Intel", "", "Open\x01VINO"};
    tx_tensor *t = tu_strings(1, TU_DIMS(3), vals), *back;
    void *buf;
    size_t size;
    assert_int_equal(tx_npy_save_buffer(t, &buf, &size), TX_OK);
    assert_non_null(strstr((char *)buf + 10, "'|S9'"));
    back = load(buf, size, TX_OK);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(tx_tensor_string(back, i)->size, strlen(vals[i]));
        assert_memory_equal(tx_tensor_string(back, i)->data, vals[i], strlen(vals[i]));
    }
    tx_buffer_free(buf, size);
    tx_tensor_free(t);
    tx_tensor_free(back);
    /* 'U' (UTF-32, here little-endian) becomes UTF-8: "é€😀" */
    const unsigned char u[12] = {0xE9, 0, 0, 0, 0xAC, 0x20, 0, 0, 0x00, 0xF6, 0x01, 0};
    char file[256];
    size_t n = make_npy(file, "{'descr': '<U3', 'fortran_order': False, 'shape': (), }", u, sizeof u);
    back = load(file, n, TX_OK);
    assert_int_equal(tx_tensor_rank(back), 0);
    assert_int_equal(tx_tensor_string(back, 0)->size, 2 + 3 + 4);
    assert_memory_equal(tx_tensor_string(back, 0)->data, "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 9);
    tx_tensor_free(back);
    const unsigned char bad[4] = {0x00, 0xD8, 0, 0}; /* a surrogate, 0xD800 */
    n = make_npy(file, "{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }", bad, 4);
    load(file, n, TX_INVALID_ARGUMENT);
    assert_non_null(strstr(tx_last_error(), "invalid code point"));
    /* big-endian 'U': the same text */
    const unsigned char ube[8] = {0, 0, 0, 0xE9, 0, 0, 0x20, 0xAC};
    n = make_npy(file, "{'descr': '>U2', 'fortran_order': False, 'shape': (), }", ube, sizeof ube);
    back = load(file, n, TX_OK);
    assert_int_equal(tx_tensor_string(back, 0)->size, 2 + 3);
    assert_memory_equal(tx_tensor_string(back, 0)->data, "\xC3\xA9\xE2\x82\xAC", 5);
    tx_tensor_free(back);
}

/* Each byte-order character of a descr, on either host: '<' and '>' say the data's order, '='
 * and '|' mean the host's own (numpy reads both as native), and a saved file is '<' with
 * little-endian data on every host. */
static void test_byte_order_characters(void **state) {
    (void)state;
    const unsigned char le[4] = {1, 0, 2, 1}, be[4] = {0, 1, 1, 2}; /* int16 [1, 258] */
    const int16_t host[2] = {1, 258};
    struct { const char *dict; const void *data; int swapped; } cases[] = {
        {"{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }", le, !TX_HOST_LITTLE_ENDIAN},
        {"{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }", be, TX_HOST_LITTLE_ENDIAN},
        {"{'descr': '=i2', 'fortran_order': False, 'shape': (2,), }", host, 0},
        {"{'descr': '|i2', 'fortran_order': False, 'shape': (2,), }", host, 0},
    };
    char file[256];
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        size_t n = make_npy(file, cases[k].dict, cases[k].data, 4);
        tx_tensor *t = load(file, n, TX_OK);
        tu_assert_shape(t, TX_INT16, 1, TU_DIMS(2));
        tu_assert_values(t, TU_VALS(1, 258));
        tx_tensor_free(t);
        char path[] = "/tmp/tx_npy_order_XXXXXX";
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *f = fdopen(fd, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(file, 1, n, f), n);
        fclose(f);
        int64_t dims[TX_MAX_RANK];
        tx_npy_info info = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
        assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
        assert_int_equal(info.byte_swapped, cases[k].swapped);
        unlink(path);
    }
    /* '|' on one-byte items and 'S' strings never swaps */
    const unsigned char b1[2] = {0x81, 2};
    size_t n = make_npy(file, "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }", b1, 2);
    tx_tensor *t = load(file, n, TX_OK);
    tu_assert_values(t, TU_VALS(0x81, 2));
    tx_tensor_free(t);
    /* saving: '<i2' and little-endian bytes whatever the host */
    t = tu_tensor(TX_INT16, 1, TU_DIMS(2), TU_VALS(1, 258));
    void *buf;
    size_t size;
    assert_int_equal(tx_npy_save_buffer(t, &buf, &size), TX_OK);
    assert_non_null(strstr((char *)buf + 10, "'<i2'"));
    assert_memory_equal((char *)buf + size - 4, le, 4);
    tx_buffer_free(buf, size);
    tx_tensor_free(t);
    /* complex: each part little-endian, real part first */
    t = tu_tensor(TX_COMPLEX64, 0, NULL, NULL);
    const float c[2] = {1.0f, 2.0f};
    memcpy(tx_tensor_data(t), c, sizeof c);
    assert_int_equal(tx_npy_save_buffer(t, &buf, &size), TX_OK);
    const unsigned char cle[8] = {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40};
    assert_memory_equal((char *)buf + size - 8, cle, 8);
    tx_buffer_free(buf, size);
    tx_tensor_free(t);
}

static void test_fortran_and_big_endian(void **state) {
    (void)state;
    /* 2x3 int16 big-endian in Fortran order: column-major 1,4,2,5,3,6 */
    unsigned char data[12] = {0, 1, 0, 4, 0, 2, 0, 5, 0, 3, 0, 6};
    char file[256];
    size_t n = make_npy(file, "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3), }", data, 12);
    tx_tensor *t = load(file, n, TX_OK);
    tu_assert_shape(t, TX_INT16, 2, TU_DIMS(2, 3));
    tu_assert_values(t, TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor_free(t);
    /* complex swaps each part separately */
    unsigned char c[8] = {0x3f, 0x80, 0, 0, 0x40, 0, 0, 0};
    n = make_npy(file, "{'descr': '>c8', 'fortran_order': False, 'shape': (), }", c, 8);
    t = load(file, n, TX_OK);
    float *f = tx_tensor_data(t);
    assert_true(f[0] == 1.0f && f[1] == 2.0f);
    tx_tensor_free(t);
    /* bools are normalised to 0/1 */
    unsigned char b[2] = {0, 7};
    n = make_npy(file, "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", b, 2);
    t = load(file, n, TX_OK);
    tu_assert_values(t, TU_VALS(0, 1));
    tx_tensor_free(t);
    /* version 3.0 with a 4-byte header length */
    char v3[128];
    const char *dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }";
    size_t hl = 128 - 12 - 4;
    memcpy(v3, "\x93NUMPY\x03\x00", 8);
    v3[8] = (char)hl; v3[9] = v3[10] = v3[11] = 0;
    memset(v3 + 12, ' ', hl);
    memcpy(v3 + 12, dict, strlen(dict));
    v3[12 + hl - 1] = '\n';
    const unsigned char one[4] = {0, 0, 0x80, 0x3f}; /* 1.0f, little-endian */
    memcpy(v3 + 124, one, 4);
    t = load(v3, 128, TX_OK);
    tu_assert_values(t, TU_VALS(1));
    tx_tensor_free(t);
}

static void test_hostile_headers(void **state) {
    (void)state;
    char file[1024];
    int32_t d[4] = {1, 2, 3, 4};
    struct { const char *dict; size_t data; const char *fragment; } cases[] = {
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }", 16, "need 20 data bytes, the file has 16"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", 16, "need 12 data bytes, the file has 16"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (-1,), }", 16, "shape entries"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", 16, "overflow"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999999999999,), }", 16, "shape entries"},
        {"{'descr': '<i4', 'fortran_order': False}", 16, "required"},
        {"{'descr': '<i4', 'fortran_order': Maybe, 'shape': (4,), }", 16, "fortran_order"},
        {"{'descr': 'O', 'fortran_order': False, 'shape': (4,), }", 16, "byte-order"},
        {"{'descr': '|O8', 'fortran_order': False, 'shape': (4,), }", 16, "not supported"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,), 'x': 1}", 16, "unexpected or repeated key"},
        {"{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (4,)}", 16, "repeated"},
        {"{'descr': [('a', '<i4'), ('b', '<i4')], 'fortran_order': False, 'shape': (2,)}", 16, "one field"},
        {"{'descr': [('bfloat16', '<u4')], 'fortran_order': False, 'shape': (4,)}", 16, "stored as i2 or u2"},
        {"{'descr': '<U99999999999999999', 'fortran_order': False, 'shape': (1,)}", 16, "data bytes"},
        {"{'descr': '<U9999999999999999999', 'fortran_order': False, 'shape': (1,)}", 16, "item size"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,) junk", 16, "expected"},
        {"{'descr': \"<i4", 16, "descr"},
        {"", 16, "expected '{'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = make_npy(file, cases[i].dict, d, cases[i].data);
        load(file, n, TX_INVALID_ARGUMENT);
        if (!strstr(tx_last_error(), cases[i].fragment))
            fail_msg("case %zu: message '%s' lacks '%s'", i, tx_last_error(), cases[i].fragment);
    }
    /* Truncations of a valid file at every length never read past the end (ASan checks). */
    size_t n = make_npy(file, "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", d, 16);
    for (size_t cut = 0; cut < n; cut++) {
        char *copy = malloc(cut ? cut : 1);
        memcpy(copy, file, cut);
        load(copy, cut, TX_INVALID_ARGUMENT);
        free(copy);
    }
    /* Header length beyond the file; bad magic; bad version. */
    file[8] = (char)0xFF;
    file[9] = (char)0xFF;
    load(file, n, TX_INVALID_ARGUMENT);
    assert_non_null(strstr(tx_last_error(), "header claims"));
    load("\x93NUMPX\x01\x00\x00\x00", 10, TX_INVALID_ARGUMENT);
    load("\x93NUMPY\x04\x00\x00\x00", 10, TX_INVALID_ARGUMENT);
    assert_non_null(strstr(tx_last_error(), "version 4.0"));
    tx_tensor *t = NULL;
    tu_assert_error(tx_npy_load("/nonexistent/x.npy", &t), TX_INVALID_ARGUMENT, "cannot open");
}

static void test_files_and_alloc_failure(void **state) {
    (void)state;
    char path[] = "/tmp/tx_npy_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    tx_tensor *t = tu_tensor(TX_FLOAT64, 2, TU_DIMS(3, 2), TU_VALS(1, 2, 3, 4, 5, 6)), *back = NULL;
    assert_int_equal(tx_npy_save(path, t), TX_OK);
    tu_alloc_install();
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        tx_status st = tx_npy_load(path, &back);
        if (st == TX_OK) break;
        assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        assert_int_equal(tu_alloc_live(), 0);
    }
    tu_assert_values(back, TU_VALS(1, 2, 3, 4, 5, 6));
    tx_tensor_free(back);
    const char *vals[] = {"a", "bc"};
    tx_tensor *s = NULL;
    tu_alloc_fail_at(0);
    s = tu_strings(1, TU_DIMS(2), vals);
    void *buf;
    size_t size;
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        long before = tu_alloc_live();
        tx_status st = tx_npy_save_buffer(s, &buf, &size);
        if (st == TX_OK) break;
        assert_int_equal(tu_alloc_live(), before);
    }
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        long before = tu_alloc_live();
        tx_status st = tx_npy_load_buffer(buf, size, &back);
        if (st == TX_OK) break;
        assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        assert_int_equal(tu_alloc_live(), before);
    }
    tx_tensor_free(back);
    tx_buffer_free(buf, size);
    tx_tensor_free(s);
    assert_int_equal(tu_alloc_live(), 0);
    tu_alloc_uninstall();
    tx_tensor_free(t);
    remove(path);
}

/* tx_npy_info is grow-safe: struct_size must be a size the library knows; a bad one is refused
 * naming the member, and nothing of the struct is written. */
static void test_read_info_struct_size(void **state) {
    (void)state;
    char file[256], path[] = "/tmp/tx_npy_info_XXXXXX";
    const int16_t v[3] = {1, 2, 3};
    size_t n = make_npy(file, "{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }", v, sizeof v);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, file, n), (ssize_t)n);
    close(fd);
    int64_t dims[1];
    tx_npy_info info = TX_NPY_INFO_INIT(dims, 1);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.struct_size, sizeof info);
    assert_ptr_equal(info.dims, dims);
    assert_int_equal(info.dtype, TX_INT16);
    assert_int_equal(info.rank, 1);
    assert_int_equal(info.dims[0], 3);
    assert_int_equal(info.data_offset, n - sizeof v);
    assert_int_equal(info.data_size, sizeof v);
    const size_t bad[] = {0, sizeof info - 8, sizeof info + 8};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&info, 0x5A, sizeof info);
        info.struct_size = bad[i];
        tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT,
                        "npy: info->struct_size is");
        assert_non_null(strstr(tx_last_error(), "make it with TX_NPY_INFO_INIT"));
        assert_int_equal(info.struct_size, bad[i]);
        assert_int_equal(info.rank, 0x5A5A5A5A5A5A5A5Aull);
    }
    /* A failure with a good struct_size zeroes the members after it but the caller's dims. */
    memset(&info, 0x5A, sizeof info);
    info.struct_size = sizeof info;
    info.dims = dims;
    assert_int_equal(tx_npy_read_info("/nonexistent/x.npy", &info), TX_INVALID_ARGUMENT);
    assert_int_equal(info.struct_size, sizeof info);
    assert_int_equal(info.rank, 0);
    assert_int_equal(info.data_size, 0);
    assert_ptr_equal(info.dims, dims);
    assert_int_equal(info.dims_capacity, 0x5A5A5A5A5A5A5A5Aull);
    /* The shape needs room: a rank above dims_capacity is refused with the rank to make room for
     * (dims NULL with capacity 0 asks for the rank alone); dims NULL with room is refused. */
    info = (tx_npy_info)TX_NPY_INFO_INIT(NULL, 0);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT,
                    "has rank 1, more than info->dims_capacity 0");
    assert_int_equal(info.rank, 1);
    assert_int_equal(info.data_size, 0);
    assert_null(info.dims);
    info = (tx_npy_info)TX_NPY_INFO_INIT(NULL, 1);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT,
                    "npy: info->dims is NULL with dims_capacity 1");
    unlink(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_all_dtypes), cmocka_unit_test(test_strings),
        cmocka_unit_test(test_fortran_and_big_endian), cmocka_unit_test(test_byte_order_characters),
        cmocka_unit_test(test_hostile_headers),
        cmocka_unit_test(test_files_and_alloc_failure),
        cmocka_unit_test(test_read_info_struct_size),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
