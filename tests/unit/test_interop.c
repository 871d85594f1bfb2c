/* SPDX-License-Identifier: Apache-2.0 */
/* test_interop.c -- the library's interop parts besides DLPack: string tensors over caller bytes,
 * mapped file windows, and the streaming .npy header helpers (byte-identical to tx_npy_save's
 * headers). */
#include "dlpack_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- strings over caller bytes ---- */

static int released;
static void *released_ptr;
static void count_release(void *data, void *ctx) {
    released++;
    released_ptr = data;
    assert_ptr_equal(ctx, &released);
}

static void test_wrap_strings(void **state) {
    (void)state;
    static char bytes[] = "IntelOpenVINO";
    const tx_string recs[4] = {{5, bytes}, {8, bytes + 5}, {0, NULL}, {13, bytes}};
    tx_tensor *t = NULL, *c = NULL;
    released = 0;
    assert_int_equal(tx_tensor_wrap_strings(2, TU_DIMS(2, 2), recs, bytes, 13, count_release,
                                            &released, &t), TX_OK);
    tu_assert_shape(t, TX_STRING, 2, TU_DIMS(2, 2));
    assert_ptr_equal(tx_tensor_string(t, 1)->data, bytes + 5); /* no copy */
    assert_int_equal(tx_tensor_string(t, 2)->size, 0);
    assert_non_null(tx_tensor_string(t, 2)->data);
    assert_int_equal(tx_tensor_copy(t, &c), TX_OK); /* a copy of the records shares the bytes */
    tx_tensor_free(t);
    assert_int_equal(released, 0);
    assert_memory_equal(tx_tensor_string(c, 3)->data, "IntelOpenVINO", 13);
    tx_tensor_free(c);
    assert_int_equal(released, 1);
    assert_ptr_equal(released_ptr, bytes);

    /* A scalar, and a NULL release. */
    const tx_string one = {3, bytes + 2};
    assert_int_equal(tx_tensor_wrap_strings(0, NULL, &one, bytes, 13, NULL, NULL, &t), TX_OK);
    assert_int_equal(tx_tensor_numel(t), 1);
    tx_tensor_free(t);

    /* Errors: release never runs. */
    released = 0;
    const tx_string out_of_range[2] = {{2, bytes}, {3, bytes + 11}};
    tu_assert_error(tx_tensor_wrap_strings(1, TU_DIMS(2), out_of_range, bytes, 13, count_release,
                                           &released, &t),
                    TX_INVALID_ARGUMENT, "strings[1] (3 bytes) is not inside the 13 bytes");
    assert_null(t);
    const tx_string before[1] = {{1, bytes}}; /* one byte before the range given */
    assert_int_equal(tx_tensor_wrap_strings(1, TU_DIMS(1), before, bytes + 1, 12, NULL, NULL, &t),
                     TX_INVALID_ARGUMENT);
    tu_assert_error(tx_tensor_wrap_strings(1, TU_DIMS(1), recs, NULL, 13, NULL, NULL, &t),
                    TX_INVALID_ARGUMENT, "bytes is NULL");
    tu_assert_error(tx_tensor_wrap_strings(1, TU_DIMS(1), NULL, bytes, 13, NULL, NULL, &t),
                    TX_INVALID_ARGUMENT, "strings is NULL");
    tu_assert_error(tx_tensor_wrap_strings(1, TU_DIMS(-1), recs, bytes, 13, NULL, NULL, &t),
                    TX_INVALID_ARGUMENT, "negative dimension");
    tu_assert_error(tx_tensor_wrap_strings(1, NULL, recs, bytes, 13, NULL, NULL, &t),
                    TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_tensor_wrap_strings(TX_MAX_RANK + 1, TU_DIMS(1), recs, bytes, 13, NULL,
                                           NULL, &t),
                    TX_INVALID_ARGUMENT, "exceeds the maximum");
    tu_assert_error(tx_tensor_wrap_strings(0, NULL, recs, bytes, 13, NULL, NULL, NULL),
                    TX_INVALID_ARGUMENT, "out is NULL");
    assert_int_equal(released, 0);

    /* Allocation failure: nothing leaks, release is not called. */
    tu_alloc_install();
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        tx_status st = tx_tensor_wrap_strings(2, TU_DIMS(2, 2), recs, bytes, 13, count_release,
                                              &released, &t);
        tu_alloc_fail_at(0);
        if (st == TX_OK) {
            tx_tensor_free(t);
            assert_int_equal(released, 1);
            assert_int_equal(tu_alloc_live(), 0);
            break;
        }
        assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        assert_null(t);
        assert_int_equal(released, 0);
        assert_int_equal(tu_alloc_live(), 0);
    }
    tu_alloc_uninstall();
}

/* ---- mapped file windows ---- */

static void test_file_map(void **state) {
    (void)state;
    unsigned char data[64];
    for (int i = 0; i < 64; i++) data[i] = (unsigned char)i;
    char *path = temp_file(data, sizeof data);
    tx_tensor *t = NULL;
    /* int16 [2,3] at byte 8 */
    assert_int_equal(tx_file_map(path, 8, TX_INT16, 2, TU_DIMS(2, 3), 0, &t), TX_OK);
    tu_assert_shape(t, TX_INT16, 2, TU_DIMS(2, 3));
    const int16_t *v = tx_tensor_data_const(t);
    assert_int_equal(v[0], mem16(8, 9));
    assert_int_equal(v[5], mem16(18, 19));
    tx_tensor_free(t);
    /* the same bytes swapped */
    assert_int_equal(tx_file_map(path, 8, TX_INT16, 2, TU_DIMS(2, 3), 1, &t), TX_OK);
    v = tx_tensor_data_const(t);
    assert_int_equal(v[0], mem16(9, 8));
    tx_tensor_free(t);
    /* complex64 swaps each part */
    assert_int_equal(tx_file_map(path, 0, TX_COMPLEX64, 1, TU_DIMS(1), 1, &t), TX_OK);
    assert_memory_equal(tx_tensor_data_const(t), "\x03\x02\x01\x00\x07\x06\x05\x04", 8);
    tx_tensor_free(t);
    /* bool bytes > 1 read as 1; the file is untouched */
    assert_int_equal(tx_file_map(path, 0, TX_BOOL, 1, TU_DIMS(4), 0, &t), TX_OK);
    assert_memory_equal(tx_tensor_data_const(t), "\x00\x01\x01\x01", 4);
    tx_tensor_free(t);
    FILE *f = fopen(path, "rb");
    unsigned char back[64];
    assert_int_equal(fread(back, 1, 64, f), 64);
    fclose(f);
    assert_memory_equal(back, data, 64);
    /* a window that ends exactly at the end, an empty one, a scalar string */
    assert_int_equal(tx_file_map(path, 56, TX_FLOAT64, 0, NULL, 0, &t), TX_OK);
    tx_tensor_free(t);
    assert_int_equal(tx_file_map(path, 64, TX_FLOAT32, 1, TU_DIMS(0), 0, &t), TX_OK);
    tx_tensor_free(t);
    assert_int_equal(tx_file_map_string(path, 60, 4, &t), TX_OK);
    assert_int_equal(tx_tensor_rank(t), 0);
    assert_int_equal(tx_tensor_string(t, 0)->size, 4);
    assert_memory_equal(tx_tensor_string(t, 0)->data, data + 60, 4);
    tx_tensor *c = NULL;
    assert_int_equal(tx_tensor_copy(t, &c), TX_OK);
    tx_tensor_free(t); /* the copy keeps the mapping */
    assert_memory_equal(tx_tensor_string(c, 0)->data, data + 60, 4);
    tx_tensor_free(c);
    assert_int_equal(tx_file_map_string(path, 64, 0, &t), TX_OK);
    assert_int_equal(tx_tensor_string(t, 0)->size, 0);
    tx_tensor_free(t);

    /* errors */
    tu_assert_error(tx_file_map(path, 60, TX_INT32, 1, TU_DIMS(2), 0, &t), TX_INVALID_ARGUMENT,
                    "extend past the end");
    assert_null(t);
    tu_assert_error(tx_file_map(path, 2, TX_INT32, 1, TU_DIMS(2), 0, &t), TX_INVALID_ARGUMENT,
                    "offset 2 is not a multiple of 4");
    tu_assert_error(tx_file_map(path, 0, TX_STRING, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "tx_file_map_string");
    tu_assert_error(tx_file_map(path, 0, (tx_dtype)99, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "unknown dtype 99");
    tu_assert_error(tx_file_map(path, 0, TX_INT8, 1, TU_DIMS(-3), 0, &t), TX_INVALID_ARGUMENT,
                    "negative dimension");
    tu_assert_error(tx_file_map(path, 0, TX_INT8, 1, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "dims is NULL");
    tu_assert_error(tx_file_map("/nonexistent/x", 0, TX_INT8, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "cannot open '/nonexistent/x'");
    tu_assert_error(tx_file_map("/tmp", 0, TX_INT8, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "not a regular file");
    tu_assert_error(tx_file_map(NULL, 0, TX_INT8, 0, NULL, 0, &t), TX_INVALID_ARGUMENT,
                    "path is NULL");
    tu_assert_error(tx_file_map_string(path, 65, 0, &t), TX_INVALID_ARGUMENT, "extend past the end");
    tu_assert_error(tx_file_map_string(path, 1, UINT64_MAX, &t), TX_INVALID_ARGUMENT,
                    "extend past the end");

    /* allocation failure sweep over both */
    tu_alloc_install();
    for (int mode = 0; mode < 2; mode++)
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_status st = mode ? tx_file_map_string(path, 3, 20, &t)
                                : tx_file_map(path, 16, TX_FLOAT32, 1, TU_DIMS(4), 1, &t);
            tu_alloc_fail_at(0);
            if (st == TX_OK) {
                tx_tensor_free(t);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_null(t);
            assert_int_equal(tu_alloc_live(), 0);
        }
    tu_alloc_uninstall();
    unlink(path);
}

/* ---- streaming .npy headers ---- */

static void test_npy_write_header_matches_save(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_BOOL,    TX_INT8,     TX_UINT8,    TX_INT16,     TX_UINT16,
                                   TX_INT32,   TX_UINT32,   TX_INT64,    TX_UINT64,    TX_FLOAT16,
                                   TX_BFLOAT16, TX_FLOAT32, TX_FLOAT64,  TX_COMPLEX64, TX_COMPLEX128,
                                   TX_QINT8,   TX_QUINT8,   TX_QINT16,   TX_QUINT16,   TX_QINT32};
    static int64_t many[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) many[i] = 1;
    const struct {
        size_t rank;
        const int64_t *dims;
    } shapes[] = {{0, NULL}, {1, TU_DIMS(0)}, {1, TU_DIMS(7)}, {3, TU_DIMS(2, 0, 3)},
                  {4, TU_DIMS(1, 2, 3, 4)}, {TX_MAX_RANK, many}};
    for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++)
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            tx_tensor *t = NULL;
            assert_int_equal(tx_tensor_new(dts[i], shapes[s].rank, shapes[s].dims, &t), TX_OK);
            void *buf;
            size_t size;
            assert_int_equal(tx_npy_save_buffer(t, &buf, &size), TX_OK);
            unsigned char hdr[TX_NPY_HEADER_MAX];
            size_t len = 0;
            assert_int_equal(tx_npy_write_header(dts[i], shapes[s].rank, shapes[s].dims, hdr,
                                                 sizeof hdr, &len), TX_OK);
            assert_int_equal(len % 64, 0);
            assert_int_equal(len + tx_tensor_nbytes(t), size);
            assert_memory_equal(hdr, buf, len);
            tx_buffer_free(buf, size);
            tx_tensor_free(t);
        }
    /* A large shape needs the 2.0 format only past 65535 bytes, which rank <= 254 never reaches;
     * the biggest header still fits TX_NPY_HEADER_MAX. */
    static int64_t big[TX_MAX_RANK];
    for (int i = 0; i < TX_MAX_RANK; i++) big[i] = INT64_MAX;
    unsigned char hdr[TX_NPY_HEADER_MAX];
    size_t len = 0;
    assert_int_equal(tx_npy_write_header(TX_INT8, TX_MAX_RANK, big, hdr, sizeof hdr, &len), TX_OK);
    tu_assert_error(tx_npy_write_header(TX_INT8, 1, TU_DIMS(3), hdr, 63, &len), TX_INVALID_ARGUMENT,
                    "cap is 63");
    tu_assert_error(tx_npy_write_header(TX_STRING, 1, TU_DIMS(3), hdr, sizeof hdr, &len),
                    TX_UNIMPLEMENTED, "string");
    tu_assert_error(tx_npy_write_header((tx_dtype)42, 0, NULL, hdr, sizeof hdr, &len),
                    TX_INVALID_ARGUMENT, "unknown dtype 42");
    tu_assert_error(tx_npy_write_header(TX_INT8, 1, TU_DIMS(-1), hdr, sizeof hdr, &len),
                    TX_INVALID_ARGUMENT, "dims[0] = -1 is negative");
    tu_assert_error(tx_npy_write_header(TX_INT8, 1, NULL, hdr, sizeof hdr, &len),
                    TX_INVALID_ARGUMENT, "dims is NULL");
    tu_assert_error(tx_npy_write_header(TX_INT8, TX_MAX_RANK + 1, big, hdr, sizeof hdr, &len),
                    TX_INVALID_ARGUMENT, "exceeds the maximum");
    tu_assert_error(tx_npy_write_header(TX_INT8, 0, NULL, NULL, 0, &len), TX_INVALID_ARGUMENT,
                    "buf or len is NULL");
}

static char *temp_text_npy(const char *header_text, size_t data_bytes) {
    /* version 1.0 with the given dict text, padded to 64, then data_bytes of 0xAB */
    unsigned char buf[4096];
    size_t n = strlen(header_text), total = (10 + n + 1 + 63) / 64 * 64;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)((total - 10) & 0xFF);
    buf[9] = (unsigned char)((total - 10) >> 8);
    memcpy(buf + 10, header_text, n);
    memset(buf + 10 + n, ' ', total - 11 - n);
    buf[total - 1] = '\n';
    memset(buf + total, 0xAB, data_bytes);
    return temp_file(buf, total + data_bytes);
}

static void test_npy_read_info(void **state) {
    (void)state;
    int64_t dims[TX_MAX_RANK];
    tx_npy_info info = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    /* Files written by tx_npy_save read back with their dtype and shape. */
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(TX_BFLOAT16, 3, TU_DIMS(2, 3, 5), &t), TX_OK);
    char *path = temp_file("", 0);
    assert_int_equal(tx_npy_save(path, t), TX_OK);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.dtype, TX_BFLOAT16);
    assert_int_equal(info.rank, 3);
    assert_int_equal(info.dims[2], 5);
    assert_int_equal(info.item_size, 2);
    assert_int_equal(info.data_offset, 128);
    assert_int_equal(info.data_size, 60);
    assert_int_equal(info.fortran_order, 0);
    assert_int_equal(info.byte_swapped, !TX_HOST_LITTLE_ENDIAN); /* saved little-endian */
    unlink(path);
    tx_tensor_free(t);

    path = temp_text_npy("{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }", 24);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.dtype, TX_INT32);
    assert_int_equal(info.byte_swapped, TX_HOST_LITTLE_ENDIAN); /* '>i4' */
    assert_int_equal(info.fortran_order, 1);
    assert_int_equal(info.data_offset, 128);
    unlink(path);
    path = temp_text_npy("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", 24);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.dtype, TX_STRING);
    assert_int_equal(info.string_kind, 'U');
    assert_int_equal(info.item_size, 12);
    unlink(path);
    path = temp_text_npy("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", 1);
    assert_int_equal(tx_npy_read_info(path, &info), TX_OK);
    assert_int_equal(info.dtype, TX_BOOL);
    assert_int_equal(info.rank, 0);
    unlink(path);

    /* Hostile or wrong files: every one is invalid_argument, and loads fail the same way. */
    static const struct {
        const char *text;
        size_t data;
        const char *fragment;
    } bad[] = {
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 7, "need 8 data bytes, the file has 7"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (2,), }", 9, "need 8 data bytes, the file has 9"},
        {"{'descr': '<i4', 'fortran_order': False}", 0, "descr, fortran_order and shape are required"},
        {"{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': ()}", 4, "repeated key 'descr'"},
        {"{'descr': 'i4', 'fortran_order': False, 'shape': ()}", 4, "no byte-order character"},
        {"{'descr': '<q7', 'fortran_order': False, 'shape': ()}", 4, "descr '<q7' is not supported"},
        {"{'descr': '<i', 'fortran_order': False, 'shape': ()}", 4, "no valid item size"},
        {"{'descr': [('x', '<u2')], 'fortran_order': False, 'shape': ()}", 2, "field 'x' is not supported"},
        {"{'descr': [('bfloat16', '<f2')], 'fortran_order': False, 'shape': ()}", 2, "must be stored as i2 or u2"},
        {"{'descr': '<i4', 'fortran_order': Maybe, 'shape': ()}", 4, "fortran_order must be True or False"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (-1,)}", 0, "non-negative integers"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (99999999999, 99999999999)}", 0, "overflows int64"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': ()} x", 4, "trailing characters"},
        {"['descr']", 4, "expected '{'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        path = temp_text_npy(bad[i].text, bad[i].data);
        tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, bad[i].fragment);
        assert_int_equal(info.rank, 0);
        assert_int_equal(tx_npy_load(path, &t), TX_INVALID_ARGUMENT);
        unlink(path);
    }
    path = temp_file("\x93NUMPY\x01\x00\xff\x7f{", 11);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, "header claims 32767 bytes");
    unlink(path);
    path = temp_file("\x93NUMPX\x01\x00\x00\x00", 10);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, "not a .npy file");
    unlink(path);
    path = temp_file("\x93NUMPY\x04\x00\x00\x00", 10);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, "unsupported format version 4.0");
    unlink(path);
    path = temp_file("\x93NUMPY\x02\x00\x00\x00", 10);
    tu_assert_error(tx_npy_read_info(path, &info), TX_INVALID_ARGUMENT, "truncated header length");
    unlink(path);
    tu_assert_error(tx_npy_read_info("/nonexistent.npy", &info), TX_INVALID_ARGUMENT, "cannot open");
    tu_assert_error(tx_npy_read_info(NULL, &info), TX_INVALID_ARGUMENT, "path or info is NULL");

    /* allocation failure */
    assert_int_equal(tx_tensor_new(TX_INT8, 1, TU_DIMS(3), &t), TX_OK);
    path = temp_file("", 0);
    assert_int_equal(tx_npy_save(path, t), TX_OK);
    tx_tensor_free(t);
    tu_alloc_install();
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        tx_status st = tx_npy_read_info(path, &info);
        tu_alloc_fail_at(0);
        assert_int_equal(tu_alloc_live(), 0);
        if (st == TX_OK) break;
        assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
    }
    tu_alloc_uninstall();
    unlink(path);
}

/* decode_raw (the casting family's op) on a mapped window: the streaming CLI's building block. */
static void test_decode_mapped_window(void **state) {
    (void)state;
    const unsigned char be[8] = {0x01, 0x02, 0xff, 0xfe, 0x00, 0x7f, 0x80, 0x00};
    char *path = temp_file(be, sizeof be);
    tx_tensor *s = NULL, *out = NULL;
    assert_int_equal(tx_file_map_string(path, 2, 6, &s), TX_OK);
    assert_int_equal(tx_decode_raw(s, TX_INT16, 0, NULL, &out), TX_OK);
    tx_tensor_free(s);
    tu_assert_shape(out, TX_INT16, 1, TU_DIMS(3));
    tu_assert_values(out, TU_VALS(-2, 127, -32768));
    tx_tensor_free(out);
    unlink(path);
}


int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_strings),
        cmocka_unit_test(test_file_map),
        cmocka_unit_test(test_npy_write_header_matches_save),
        cmocka_unit_test(test_npy_read_info),
        cmocka_unit_test(test_decode_mapped_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
