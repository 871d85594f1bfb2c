/* SPDX-License-Identifier: Apache-2.0 */
/* test_readonly.c -- read-only tensors: windows of files mapped by tx_file_map and
 * tx_file_map_string, their views (ref, reshape, expand_dims, squeeze, bitcast) and unpack's bytes
 * view are read-only (tx_tensor_is_writable 0, tx_tensor_data NULL with a message, the mapping
 * without write permission), tx_tensor_data_const reads them, and copies and op outputs are
 * writable.  The DLPack side (read-only imports, exports of read-only tensors) is in
 * test_dlpack_versioned.c. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Const-correct access: the writable accessor takes a handle one may modify and the read-only one
 * gives a pointer to const, so C refuses a write through a `const tx_tensor *` at compile time. */
_Static_assert(_Generic(&tx_tensor_data, void *(*)(tx_tensor *): 1, default: 0),
               "tx_tensor_data takes a non-const tensor and returns void *");
_Static_assert(_Generic(&tx_tensor_data_const, const void *(*)(const tx_tensor *): 1, default: 0),
               "tx_tensor_data_const takes a const tensor and returns const void *");

static char path[64];

static void write_file(const void *data, size_t n) {
    snprintf(path, sizeof path, "/tmp/tx_readonly_test_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, n), (ssize_t)n);
    close(fd);
}

/* Asserts that the page holding p is mapped without write permission (Linux: /proc/self/maps). */
static void assert_page_read_only(const void *p) {
#ifdef __linux__
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[512], perms[8] = "";
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char pr[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, pr) == 3 && (uintptr_t)p >= lo && (uintptr_t)p < hi) {
            strcpy(perms, pr);
            break;
        }
    }
    fclose(f);
    if (perms[0] != 'r' || perms[1] != '-')
        fail_msg("the page at %p is mapped '%s', not read-only", p, perms);
#else
    (void)p;
#endif
}

static void test_accessors(void **state) {
    (void)state;
    assert_int_equal(tx_tensor_is_writable(NULL), 0);
    assert_null(tx_tensor_data_const(NULL));
    tx_clear_error();
    assert_null(tx_tensor_data(NULL));
    assert_string_equal(tx_last_error(), "tensor_data: t is NULL");
    /* Tensors the library makes, and their views, are writable. */
    tx_tensor *x = tu_tensor(TX_FLOAT32, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6)), *v = NULL;
    tu_assert_writable(x);
    assert_int_equal(tx_expand_dims(x, 0, &v), TX_OK);
    tu_assert_writable(v);
    tx_tensor_free(v);
    assert_int_equal(tx_bitcast(x, TX_INT32, &v), TX_OK);
    tu_assert_writable(v);
    tx_tensor_free(v);
    tx_tensor *e = NULL; /* no elements: still a pointer */
    assert_int_equal(tx_tensor_new(TX_INT8, 1, TU_DIMS(0), &e), TX_OK);
    tu_assert_writable(e);
    tx_tensor_free(e);
    tx_tensor_free(x);
    /* Wrapped caller memory is the caller's to write. */
    static int32_t mine[4] = {1, 2, 3, 4};
    assert_int_equal(tx_tensor_wrap(TX_INT32, 1, TU_DIMS(4), mine, sizeof mine, NULL, NULL, &x), TX_OK);
    tu_assert_writable(x);
    assert_ptr_equal(tx_tensor_data(x), mine);
    tx_tensor_free(x);
}

static void test_file_map_read_only(void **state) {
    (void)state;
    unsigned char data[64];
    for (int i = 0; i < 64; i++) data[i] = (unsigned char)(i * 7);
    write_file(data, sizeof data);
    /* In place, byte-swapped (a private copy), bools and 4-bit values fixed up (a private copy of
     * the pages that change), the whole file, and an empty window (no mapping at all). */
    static const struct {
        uint64_t offset;
        tx_dtype dtype;
        int64_t n;
        int swapped;
    } cases[] = {
        {8, TX_INT16, 6, 0}, {8, TX_INT16, 6, 1}, {0, TX_COMPLEX64, 2, 1}, {0, TX_BOOL, 16, 0},
        {0, TX_INT4, 16, 0}, {0, TX_UINT8, 64, 0}, {16, TX_FLOAT32, 0, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tx_tensor *t = NULL;
        assert_int_equal(tx_file_map(path, cases[k].offset, cases[k].dtype, 1, &cases[k].n,
                                     cases[k].swapped, &t),
                         TX_OK);
        tu_assert_read_only(t);
        if (cases[k].n) assert_page_read_only(tx_tensor_data_const(t));
        tx_tensor_free(t);
    }
    /* The bytes are the file's, read through the const accessor. */
    tx_tensor *t = NULL;
    assert_int_equal(tx_file_map(path, 8, TX_UINT8, 2, TU_DIMS(2, 4), 0, &t), TX_OK);
    assert_memory_equal(tx_tensor_data_const(t), data + 8, 8);
    tx_tensor_free(t);
    /* Nothing was written to the file. */
    unsigned char back[64];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(back, 1, 64, f), 64);
    fclose(f);
    assert_memory_equal(back, data, 64);
    unlink(path);
}

static void test_file_map_string_read_only(void **state) {
    (void)state;
    const char text[] = "0123456789abcdef";
    write_file(text, 16);
    tx_tensor *s = NULL, *parts[3] = {NULL, NULL, NULL}, *d = NULL;
    assert_int_equal(tx_file_map_string(path, 4, 8, &s), TX_OK);
    tu_assert_read_only(s);
    const tx_string *e = tx_tensor_string(s, 0);
    assert_int_equal(e->size, 8);
    assert_memory_equal(e->data, "456789ab", 8);
    assert_page_read_only(e->data);
    /* unpack's symbols are a view of the mapped bytes: read-only; begins and ends are new. */
    assert_int_equal(tx_string_tensor_unpack(s, parts), TX_OK);
    assert_ptr_equal(tx_tensor_data_const(parts[2]), e->data);
    tu_assert_read_only(parts[2]);
    tu_assert_writable(parts[0]);
    tu_assert_writable(parts[1]);
    /* decode_raw copies: its output is writable. */
    assert_int_equal(tx_decode_raw(s, TX_UINT8, 1, NULL, &d), TX_OK);
    tu_assert_writable(d);
    assert_memory_equal(tx_tensor_data(d), "456789ab", 8);
    tx_tensor_free(d);
    tx_tensor_free(s); /* the view keeps the mapping alive */
    assert_memory_equal(tx_tensor_data_const(parts[2]), "456789ab", 8);
    for (int i = 0; i < 3; i++) tx_tensor_free(parts[i]);
    unlink(path);
}

/* Ops only read their inputs: a read-only tensor is an ordinary input, and what they return is
 * new and writable. */
static void test_ops_read_read_only_inputs(void **state) {
    (void)state;
    const int16_t v[6] = {1, -2, 3, -4, 5, -6};
    write_file(v, sizeof v);
    tx_tensor *x = NULL, *y = NULL, *z = NULL, *m = NULL, *idx = tu_i32(2, (const int32_t[]){1, 0});
    assert_int_equal(tx_file_map(path, 0, TX_INT16, 2, TU_DIMS(2, 3), 0, &x), TX_OK);
    assert_int_equal(tx_transpose(x, NULL, 0, &y), TX_OK);
    tu_assert_writable(y);
    tu_assert_values(y, TU_VALS(1, -4, -2, 5, 3, -6));
    assert_int_equal(tx_cast(x, TX_FLOAT32, &z), TX_OK);
    tu_assert_writable(z);
    tu_assert_values(z, TU_VALS(1, -2, 3, -4, 5, -6));
    assert_int_equal(tx_gather(x, idx, 0, 0, &m), TX_OK);
    tu_assert_writable(m);
    tu_assert_values(m, TU_VALS(-4, 5, -6, 1, -2, 3));
    tx_tensor_free(m);
    assert_int_equal(tx_cast(x, TX_INT16, &m), TX_OK); /* a cast to the same dtype is a copy */
    tu_assert_writable(m);
    tx_tensor_free(m);
    tx_tensor_free(idx);
    tx_tensor_free(z);
    tx_tensor_free(y);
    tx_tensor_free(x);
    unlink(path);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accessors),
        cmocka_unit_test(test_file_map_read_only),
        cmocka_unit_test(test_file_map_string_read_only),
        cmocka_unit_test(test_ops_read_read_only_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
