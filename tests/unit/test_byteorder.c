/* SPDX-License-Identifier: Apache-2.0 */
/* test_byteorder.c -- the byte-order rules, in forms that hold on hosts of either order (the
 * cross stage runs this file on big-endian s390x too): the byte swaps and explicit-order loads and
 * stores of core/byteorder.h on fixed bytes; decode_raw and encode_raw with an explicit order give
 * the same values and bytes everywhere; bitcast between widths gives the bytes the host itself
 * stores; the host's order agrees with TX_HOST_LITTLE_ENDIAN. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/byteorder.h"
#include "exec/byteswap.h"

static const unsigned char B8[8] = {1, 2, 3, 4, 5, 6, 7, 8};

static void test_host_order_is_the_switch(void **state) {
    (void)state;
    const uint16_t one = 1;
    unsigned char b[2];
    memcpy(b, &one, 2);
    assert_int_equal(b[0] == 1, TX_HOST_LITTLE_ENDIAN);
}

static void test_swaps(void **state) {
    (void)state;
    assert_int_equal(tx__bswap16(0x0102), 0x0201);
    assert_int_equal(tx__bswap32(0x01020304u), 0x04030201u);
    assert_true(tx__bswap64(0x0102030405060708ull) == 0x0807060504030201ull);
    assert_true(tx__bswap64(tx__bswap64(0x8000000000000001ull)) == 0x8000000000000001ull);
    unsigned char p[16];
    for (size_t unit = 1; unit <= 8; unit *= 2) {
        memcpy(p, B8, 8);
        memcpy(p + 8, B8, 8);
        tx__swap_units(p, 16 / unit, unit);
        for (size_t i = 0; i < 16; i++)
            assert_int_equal(p[i], B8[(i % 8) / unit * unit + unit - 1 - i % unit]);
    }
}

/* The in-place swap of whole buffers runs the byteswap kernels: at every level this CPU has, long
 * enough for their vector loops and tails, on a misaligned buffer. */
static void test_swap_units_in_place_at_every_level(void **state) {
    (void)state;
    enum { N = 1003 };
    unsigned char *buf = malloc(N + 1), *want = malloc(N);
    assert_non_null(buf);
    assert_non_null(want);
    tx_isa_level was = tx_cpu_level();
    for (int level = TX_ISA_SCALAR; level <= TX_ISA_NEON; level++) {
        if (tx_set_cpu_mask((tx_isa_level)level) != (tx_isa_level)level) continue;
        for (size_t unit = 2; unit <= 8; unit *= 2) {
            size_t n = N / unit;
            for (size_t i = 0; i < N; i++) buf[1 + i] = (unsigned char)(i * 7 + unit);
            for (size_t i = 0; i < n * unit; i++)
                want[i] = buf[1 + i / unit * unit + unit - 1 - i % unit];
            tx__swap_units(buf + 1, n, unit);
            assert_memory_equal(buf + 1, want, n * unit);
            /* the bytes after the last whole unit are left */
            assert_int_equal(buf[1 + n * unit], (unsigned char)(n * unit * 7 + unit));
        }
    }
    assert_int_equal(tx_set_cpu_mask(was), was);
    free(buf);
    free(want);
}

/* Little-endian words read and written by value: the same on every host. */
static void test_explicit_order_words(void **state) {
    (void)state;
    assert_int_equal(tx__load_le32(B8), 0x04030201u);
    assert_int_equal(tx__load_le32(B8 + 4), 0x08070605u);
    unsigned char out[4];
    tx__store_le32(out, 0xA1B2C3D4u);
    assert_int_equal(out[0], 0xD4);
    assert_int_equal(out[3], 0xA1);
    uint64_t w;
    memcpy(&w, B8, 8);
    assert_true(tx__le64_host(w) == 0x0807060504030201ull);
    uint32_t h;
    memcpy(&h, B8, 4);
    assert_int_equal(tx__le32_host(h), 0x04030201u);
}

/* decode_raw / encode_raw with an explicit order: values and bytes do not depend on the host. */
static void test_explicit_order_ops(void **state) {
    (void)state;
    const char *bytes[1] = {(const char *)B8};
    const size_t len[1] = {8};
    const int64_t one = 1;
    tx_tensor *s = NULL, *le = NULL, *be = NULL;
    assert_int_equal(tx_tensor_new_strings(1, &one, bytes, len, &s), TX_OK);
    assert_int_equal(tx_decode_raw(s, TX_UINT32, 1, NULL, &le), TX_OK);
    assert_int_equal(tx_decode_raw(s, TX_UINT32, 0, NULL, &be), TX_OK);
    tu_assert_values(le, (const double[]){0x04030201, 0x08070605});
    tu_assert_values(be, (const double[]){0x01020304, 0x05060708});
    tx_tensor *e = NULL;
    assert_int_equal(tx_encode_raw(be, 0, &e), TX_OK);
    assert_int_equal(tx_tensor_string(e, 0)->size, 8);
    assert_memory_equal(tx_tensor_string(e, 0)->data, B8, 8);
    tx_tensor_free(e);
    assert_int_equal(tx_encode_raw(le, 1, &e), TX_OK);
    assert_memory_equal(tx_tensor_string(e, 0)->data, B8, 8);
    tx_tensor_free(e);
    /* complex: each part reversed on its own, real part first */
    tx_tensor *c = NULL;
    const unsigned char cbe[8] = {0x3f, 0x80, 0, 0, 0x40, 0, 0, 0};
    const char *cb[1] = {(const char *)cbe};
    tx_tensor_free(s);
    assert_int_equal(tx_tensor_new_strings(1, &one, cb, len, &s), TX_OK);
    assert_int_equal(tx_decode_raw(s, TX_COMPLEX64, 0, NULL, &c), TX_OK);
    const float *f = tx_tensor_data(c);
    assert_true(f[0] == 1.0f && f[1] == 2.0f);
    tx_tensor_free(c);
    tx_tensor_free(s);
    tx_tensor_free(le);
    tx_tensor_free(be);
}

/* bitcast between widths reinterprets the host's own bytes, as TF does: int32 0x01020304 as
 * uint8 is the bytes the host keeps it in ([4, 3, 2, 1] little-endian, [1, 2, 3, 4] big-endian);
 * same-width bitcasts keep each value's bits. */
static void test_bitcast_is_the_hosts_bytes(void **state) {
    (void)state;
    const int32_t v[2] = {0x01020304, -2};
    tx_tensor *x = NULL, *o = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT32, 1, TU_DIMS(2), v, sizeof v, &x), TX_OK);
    assert_int_equal(tx_bitcast(x, TX_UINT8, &o), TX_OK);
    tu_assert_shape(o, TX_UINT8, 2, TU_DIMS(2, 4));
    assert_memory_equal(tx_tensor_data(o), v, sizeof v);
    const unsigned char *b = tx_tensor_data(o);
    assert_int_equal(b[0], TX_HOST_LITTLE_ENDIAN ? 4 : 1);
    tx_tensor_free(o);
    assert_int_equal(tx_bitcast(x, TX_FLOAT32, &o), TX_OK);
    uint32_t bits;
    memcpy(&bits, tx_tensor_data(o), 4);
    assert_int_equal(bits, 0x01020304u);
    tx_tensor_free(o);
    tx_tensor_free(x);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_order_is_the_switch), cmocka_unit_test(test_swaps),
        cmocka_unit_test(test_explicit_order_words),     cmocka_unit_test(test_explicit_order_ops),
        cmocka_unit_test(test_bitcast_is_the_hosts_bytes),
        cmocka_unit_test(test_swap_units_in_place_at_every_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
