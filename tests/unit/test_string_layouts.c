/* SPDX-License-Identifier: Apache-2.0 */
/* test_string_layouts.c -- string tensors to and from TF's TF_TString records and ONNX Runtime's
 * content + offsets (src/io/string_layouts.c), and string_tensor_unpack's zero-copy symbols:
 * byte-exact records by hand, round trips with NUL bytes and every size class, hostile records
 * and offsets (each error with its message), the size word of LARGE/VIEW records for both byte
 * orders, and an allocation-failure sweep. */
#include "testutil.h"

#include "core/byteorder.h"
#include "io/tstring_word.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The host's LARGE/VIEW size word as TF writes it (sizes below 2^54, 64-bit size_t): the type in
 * the low bits of the word's first byte in memory, the low byte on a little-endian host and the
 * top byte on a big-endian one. */
#define TSTR_WORD(size, type)                                                                    \
    (TX_HOST_LITTLE_ENDIAN ? (uint64_t)(size) << 2 | (type)                                      \
                           : (uint64_t)(size) | (uint64_t)(type) << 56)

/* A rank-1 string tensor of n (bytes, length) pairs. */
static tx_tensor *strs(size_t n, const char *const *v, const size_t *len) {
    tx_tensor *t = NULL;
    int64_t d = (int64_t)n;
    assert_int_equal(tx_tensor_new_strings(1, &d, v, len, &t), TX_OK);
    return t;
}

static void assert_same_strings(const tx_tensor *a, const tx_tensor *b) {
    assert_int_equal(tx_tensor_dtype(b), TX_STRING);
    assert_int_equal(tx_tensor_rank(a), tx_tensor_rank(b));
    for (size_t d = 0; d < tx_tensor_rank(a); d++) assert_int_equal(tx_tensor_dims(a)[d], tx_tensor_dims(b)[d]);
    for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
        const tx_string *x = tx_tensor_string(a, i), *y = tx_tensor_string(b, i);
        assert_int_equal(x->size, y->size);
        if (x->size) assert_memory_equal(x->data, y->data, (size_t)x->size);
    }
}

/* Strings of every size class: empty, with NUL bytes, exactly 22 (the SMALL capacity), 23 and
 * long ones. */
static tx_tensor *sample(void) {
    static char longer[300];
    for (size_t i = 0; i < sizeof longer; i++) longer[i] = (char)(i * 7);
    const char *v[6] = {"", "a\0b", "0123456789012345678901", "01234567890123456789012", longer, "\0"};
    const size_t len[6] = {0, 3, 22, 23, sizeof longer, 1};
    return strs(6, v, len);
}

/* ---- TF_TString ------------------------------------------------------------------------------ */

static void test_tf_records_by_hand(void **state) {
    (void)state;
    const char *v[2] = {"hi\0", "abcdefghijklmnopqrstuvwxyz"};
    const size_t len[2] = {3, 26};
    tx_tensor *x = strs(2, v, len), *r = NULL;
    assert_int_equal(tx_string_tensor_to_tf(x, TX_TSTRING_OFFSET, &r), TX_OK);
    tu_assert_shape(r, TX_UINT8, 1, TU_DIMS(48 + 26));
    const unsigned char *b = tx_tensor_data(r);
    /* SMALL: size 3 << 2, the bytes, a NUL, zeros */
    assert_int_equal(b[0], 12);
    assert_memory_equal(b + 1, "hi\0\0", 4);
    /* OFFSET: LE (26 << 2 | 2), LE offset 48 - 24 = 24 from the record, count 0 */
    const unsigned char off[12] = {26 << 2 | 2, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(b + 24, off, 12);
    assert_memory_equal(b + 48, "abcdefghijklmnopqrstuvwxyz", 26);
    tx_tensor *back = NULL;
    assert_int_equal(tx_string_tensor_from_tf(b, tx_tensor_nbytes(r), 1, TU_DIMS(2), 0, &back), TX_OK);
    assert_same_strings(x, back);
    tx_tensor_free(back);
    tx_tensor_free(r);
    /* VIEW: a size_t word (26 << 2 | 3 on a little-endian host), then a pointer into the same
     * buffer; the type is in byte 0 on every host */
    assert_int_equal(tx_string_tensor_to_tf(x, TX_TSTRING_VIEW, &r), TX_OK);
    b = tx_tensor_data(r);
    uint64_t word;
    const char *ptr;
    memcpy(&word, b + 24, 8);
    memcpy(&ptr, b + 32, 8);
    assert_int_equal(word, TSTR_WORD(26, 3));
    assert_int_equal(b[24] & 3, 3);
    assert_ptr_equal(ptr, (const char *)b + 48);
    tu_assert_error(tx_string_tensor_from_tf(b, tx_tensor_nbytes(r), 1, TU_DIMS(2), 0, &back), TX_INVALID_ARGUMENT,
                    "element 1 is a VIEW string, which holds a pointer: only accepted with allow_pointers");
    assert_int_equal(tx_string_tensor_from_tf(b, tx_tensor_nbytes(r), 1, TU_DIMS(2), 1, &back), TX_OK);
    tx_tensor_free(r); /* the result owns a copy */
    assert_same_strings(x, back);
    tx_tensor_free(back);
    tx_tensor_free(x);
    /* a LARGE record as TF allocates it: size, capacity, pointer */
    unsigned char rec[24] = {0};
    static const char heap[40] = "a large string of thirty-one by";
    word = TSTR_WORD(31, 1);
    uint64_t cap = 39;
    ptr = heap;
    memcpy(rec, &word, 8);
    memcpy(rec + 8, &cap, 8);
    memcpy(rec + 16, &ptr, 8);
    assert_int_equal(tx_string_tensor_from_tf(rec, 24, 0, NULL, 1, &back), TX_OK);
    tu_assert_shape(back, TX_STRING, 0, NULL);
    assert_int_equal(tx_tensor_string(back, 0)->size, 31);
    assert_memory_equal(tx_tensor_string(back, 0)->data, heap, 31);
    tx_tensor_free(back);
    tu_assert_error(tx_string_tensor_from_tf(rec, 24, 0, NULL, 0, &back), TX_INVALID_ARGUMENT,
                    "element 0 is a LARGE string");
}

/* The LARGE/VIEW size word for either byte order, on any host: TF's layout (the type in the low
 * bits of the first byte in memory), and sizes read back with their type (every size below 2^54,
 * beyond any tensor). */
static void test_tf_size_word_both_orders(void **state) {
    (void)state;
    if (sizeof(size_t) != 8) skip();
    for (unsigned type = 1; type <= 3; type += 2) {
        const size_t sizes[] = {0, 1, 22, 23, 26, 0x123456789abcdull, ((size_t)1 << 54) - 1};
        for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
            const size_t n = sizes[k];
            size_t le = tx__tstring_word(n, type, true), be = tx__tstring_word(n, type, false);
            assert_int_equal(le, n << 2 | type);
            assert_int_equal(be, n | (size_t)type << 56);
            /* the first byte in memory: the low byte of the little-endian word, the top byte of
             * the big-endian one (seen here as the little-endian word of the same bytes) */
            assert_int_equal(le & 0xFF, (n << 2 | type) & 0xFF);
            assert_int_equal(tx__bswap64(be) & 3, type);
            assert_int_equal(tx__tstring_word_size(le, true), n);
            assert_int_equal(tx__tstring_word_size(be, false), n);
        }
    }
    /* big-endian, a size with a non-zero top byte: its bits move up past the type and back */
    const size_t big = (size_t)0x2A << 56 | 5;
    assert_int_equal(tx__tstring_word(big, 3, false), (size_t)0xAB << 56 | 5);
    assert_int_equal(tx__tstring_word_size((size_t)0xAB << 56 | 5, false), big);
}

static void test_tf_round_trips(void **state) {
    (void)state;
    tx_tensor *x = sample(), *r = NULL, *back = NULL;
    for (int form = 0; form < 2; form++) {
        assert_int_equal(tx_string_tensor_to_tf(x, (tx_tstring_form)form, &r), TX_OK);
        assert_int_equal(tx_tensor_nbytes(r), 6 * 24 + 23 + 300);
        assert_int_equal(tx_string_tensor_from_tf(tx_tensor_data(r), tx_tensor_nbytes(r), 2, TU_DIMS(2, 3), form == 0, &back),
                         TX_OK);
        tu_assert_shape(back, TX_STRING, 2, TU_DIMS(2, 3));
        for (int64_t i = 0; i < 6; i++) {
            assert_int_equal(tx_tensor_string(back, i)->size, tx_tensor_string(x, i)->size);
            if (tx_tensor_string(x, i)->size)
                assert_memory_equal(tx_tensor_string(back, i)->data, tx_tensor_string(x, i)->data, tx_tensor_string(x, i)->size);
        }
        tx_tensor_free(back);
        tx_tensor_free(r);
    }
    tx_tensor_free(x);
    /* empty tensors and scalars */
    x = tu_strings(2, TU_DIMS(0, 4), NULL);
    assert_int_equal(tx_string_tensor_to_tf(x, TX_TSTRING_OFFSET, &r), TX_OK);
    tu_assert_shape(r, TX_UINT8, 1, TU_DIMS(0));
    assert_int_equal(tx_string_tensor_from_tf(NULL, 0, 2, TU_DIMS(0, 4), 0, &back), TX_OK);
    tu_assert_shape(back, TX_STRING, 2, TU_DIMS(0, 4));
    tx_tensor_free(back);
    tx_tensor_free(r);
    tx_tensor_free(x);
}

static void test_tf_hostile(void **state) {
    (void)state;
    tx_tensor *o = (tx_tensor *)1;
    unsigned char buf[64] = {0};
    /* SMALL size above 22 */
    buf[0] = 23 << 2;
    tu_assert_error(tx_string_tensor_from_tf(buf, 24, 1, TU_DIMS(1), 1, &o), TX_INVALID_ARGUMENT,
                    "element 0 is a SMALL string of size 23, above the inline capacity of 22 bytes");
    assert_null(o);
    /* OFFSET past the buffer: by its size, by its offset, and a wrapping offset */
    const unsigned char off1[8] = {10 << 2 | 2, 0, 0, 0, 24, 0, 0, 0};
    memcpy(buf, off1, 8);
    assert_int_equal(tx_string_tensor_from_tf(buf, 34, 1, TU_DIMS(1), 0, &o), TX_OK); /* bytes 24..33 */
    tx_tensor_free(o);
    tu_assert_error(tx_string_tensor_from_tf(buf, 33, 1, TU_DIMS(1), 0, &o), TX_INVALID_ARGUMENT,
                    "element 0 is an OFFSET string of 10 bytes at offset 24 from its record (at byte 0), past the end of the 33-byte buffer");
    const unsigned char off2[8] = {0x02, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
    memcpy(buf + 24, off2, 8);
    tu_assert_error(tx_string_tensor_from_tf(buf, 64, 1, TU_DIMS(2), 0, &o), TX_INVALID_ARGUMENT,
                    "element 1 is an OFFSET string of 0 bytes at offset 4294967295");
    const unsigned char off3[8] = {0xfe, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    memcpy(buf + 24, off3, 8);
    tu_assert_error(tx_string_tensor_from_tf(buf, 64, 1, TU_DIMS(2), 0, &o), TX_INVALID_ARGUMENT,
                    "element 1 is an OFFSET string of 1073741823 bytes");
    /* too few records; NULL records; bad dims */
    tu_assert_error(tx_string_tensor_from_tf(buf, 47, 1, TU_DIMS(2), 0, &o), TX_INVALID_ARGUMENT,
                    "2 elements need 2 * 24 bytes of records, got 47 bytes");
    tu_assert_error(tx_string_tensor_from_tf(NULL, 24, 1, TU_DIMS(1), 0, &o), TX_INVALID_ARGUMENT, "records is NULL");
    tu_assert_error(tx_string_tensor_from_tf(buf, 64, 1, TU_DIMS(-1), 0, &o), TX_INVALID_ARGUMENT, "string_tensor_from_tf");
    tu_assert_error(tx_string_tensor_from_tf(buf, 64, 1, NULL, 0, &o), TX_INVALID_ARGUMENT, "NULL dims");
    tu_assert_error(tx_string_tensor_from_tf(buf, 64, 1, TU_DIMS(INT64_MAX), 0, &o), TX_INVALID_ARGUMENT,
                    "elements need");
    /* pointer records: a NULL pointer with a size, and a size above the limit */
    unsigned char rec[24] = {0};
    uint64_t word = TSTR_WORD(5, 3);
    memcpy(rec, &word, 8);
    tu_assert_error(tx_string_tensor_from_tf(rec, 24, 0, NULL, 1, &o), TX_INVALID_ARGUMENT,
                    "element 0 is a VIEW string of 5 bytes at NULL");
    word = TSTR_WORD(2000, 3);
    memcpy(rec, &word, 8);
    const void *bp = buf; /* never read: the size is checked first */
    memcpy(rec + 8, &bp, sizeof bp);
    tx_set_max_tensor_bytes(1000);
    tu_assert_error(tx_string_tensor_from_tf(rec, 24, 0, NULL, 1, &o), TX_INVALID_ARGUMENT,
                    "element 0 is a VIEW string of 2000 bytes, above the tensor size limit");
    tx_set_max_tensor_bytes(0);
    /* the writer's argument checks */
    tx_tensor *num = tu_tensor(TX_INT32, 1, TU_DIMS(1), NULL);
    tu_assert_error(tx_string_tensor_to_tf(num, TX_TSTRING_VIEW, &o), TX_INVALID_ARGUMENT, "data must be a string tensor, got int32");
    tx_tensor_free(num);
    tx_tensor *x = sample();
    tu_assert_error(tx_string_tensor_to_tf(x, (tx_tstring_form)7, &o), TX_INVALID_ARGUMENT, "form 7 is not");
    tu_assert_error(tx_string_tensor_to_tf(NULL, TX_TSTRING_VIEW, &o), TX_INVALID_ARGUMENT, "data is NULL");
    tu_assert_error(tx_string_tensor_to_tf(x, TX_TSTRING_VIEW, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tx_tensor_free(x);
    /* random bytes never crash and never read outside the buffer (ASan build) */
    srand(7);
    for (int iter = 0; iter < 2000; iter++) {
        size_t n = (size_t)(rand() % 4), size = n * 24 + (size_t)(rand() % 40);
        unsigned char *r = malloc(size + 1);
        for (size_t k = 0; k < size; k++) r[k] = (unsigned char)rand();
        for (size_t k = 0; k < n && (iter & 1); k++) r[k * 24] &= 0xfe; /* SMALL or OFFSET */
        int64_t d = (int64_t)n;
        tx_status st = tx_string_tensor_from_tf(r, size, 1, &d, 0, &o);
        assert_true(st == TX_OK || st == TX_INVALID_ARGUMENT);
        if (st == TX_OK) {
            tx_tensor *again = NULL, *back = NULL;
            assert_int_equal(tx_string_tensor_to_tf(o, TX_TSTRING_OFFSET, &again), TX_OK);
            assert_int_equal(tx_string_tensor_from_tf(tx_tensor_data(again), tx_tensor_nbytes(again), 1, &d, 0, &back), TX_OK);
            assert_same_strings(o, back);
            tx_tensor_free(again);
            tx_tensor_free(back);
        }
        tx_tensor_free(o);
        free(r);
    }
}

/* ---- ONNX Runtime ---------------------------------------------------------------------------- */

static void test_ort(void **state) {
    (void)state;
    tx_tensor *x = sample(), *parts[2] = {NULL, NULL}, *back = NULL;
    assert_int_equal(tx_string_tensor_to_ort(x, parts), TX_OK);
    tu_assert_shape(parts[0], TX_UINT8, 1, TU_DIMS(3 + 22 + 23 + 300 + 1));
    tu_assert_shape(parts[1], TX_UINT64, 1, TU_DIMS(6));
    const uint64_t want[6] = {0, 0, 3, 25, 48, 348};
    assert_memory_equal(tx_tensor_data(parts[1]), want, sizeof want);
    assert_memory_equal(tx_tensor_data(parts[0]), "a\0b", 3);
    assert_int_equal(tx_string_tensor_from_ort(parts[0], parts[1], &back), TX_OK);
    assert_same_strings(x, back);
    tx_tensor_free(back);
    /* int64 offsets of another shape give that shape */
    const int64_t o2[6] = {0, 0, 3, 25, 48, 348};
    tx_tensor *off = NULL;
    assert_int_equal(tx_tensor_from_data(TX_INT64, 2, TU_DIMS(3, 2), o2, sizeof o2, &off), TX_OK);
    assert_int_equal(tx_string_tensor_from_ort(parts[0], off, &back), TX_OK);
    tu_assert_shape(back, TX_STRING, 2, TU_DIMS(3, 2));
    assert_int_equal(tx_tensor_string(back, 5)->size, 1);
    tx_tensor_free(back);
    tx_tensor_free(off);
    /* hostile offsets */
    const struct {
        int64_t v[3];
        const char *msg;
    } bad[] = {
        {{1, 2, 3}, "offsets[0] = 1 must be 0 (content starts with element 0)"},
        {{0, 5, 4}, "offsets[2] = 4 is less than offsets[1] = 5 (offsets must not decrease)"},
        {{0, 2, 400}, "offsets[2] = 400 is past the end of content (349 bytes)"},
        {{0, -1, 4}, "offsets[1] = 18446744073709551615 is past the end of content"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        assert_int_equal(tx_tensor_from_data(TX_INT64, 1, TU_DIMS(3), bad[k].v, sizeof bad[k].v, &off), TX_OK);
        tu_assert_error(tx_string_tensor_from_ort(parts[0], off, &back), TX_INVALID_ARGUMENT, bad[k].msg);
        assert_null(back);
        tx_tensor_free(off);
    }
    tx_tensor *none = tu_tensor(TX_UINT64, 1, TU_DIMS(0), NULL);
    tu_assert_error(tx_string_tensor_from_ort(parts[0], none, &back), TX_INVALID_ARGUMENT, "no elements, but content holds 349 bytes");
    tx_tensor *empty = tu_tensor(TX_UINT8, 1, TU_DIMS(0), NULL);
    assert_int_equal(tx_string_tensor_from_ort(empty, none, &back), TX_OK);
    tu_assert_shape(back, TX_STRING, 1, TU_DIMS(0));
    tx_tensor_free(back);
    tu_assert_error(tx_string_tensor_from_ort(none, none, &back), TX_INVALID_ARGUMENT, "content must be a 1-D uint8 tensor, got uint64");
    tu_assert_error(tx_string_tensor_from_ort(empty, empty, &back), TX_INVALID_ARGUMENT, "offsets must be uint64 (size_t) or int64, got uint8");
    tu_assert_error(tx_string_tensor_from_ort(NULL, none, &back), TX_INVALID_ARGUMENT, "content is NULL");
    tx_tensor_free(parts[0]);
    tx_tensor_free(parts[1]);
    tu_assert_error(tx_string_tensor_to_ort(none, parts), TX_INVALID_ARGUMENT, "data must be a string tensor");
    assert_null(parts[0]);
    assert_null(parts[1]);
    tx_tensor_free(none);
    tx_tensor_free(empty);
    tx_tensor_free(x);
}

/* ---- string_tensor_unpack: symbols as a view --------------------------------------------------- */

static void test_unpack_zero_copy(void **state) {
    (void)state;
    tx_tensor *x = sample(), *p[3] = {NULL, NULL, NULL}, *q[3] = {NULL, NULL, NULL};
    assert_int_equal(tx_string_tensor_unpack(x, p), TX_OK);
    /* the symbols are the storage itself: the first non-empty string's bytes */
    assert_ptr_equal(tx_tensor_data_const(p[2]), tx_tensor_string(x, 1)->data);
    assert_int_equal(tx_tensor_numel(p[2]), 349);
    /* a view of string bytes, which are immutable: read-only */
    assert_false(tx_tensor_is_writable(p[2]));
    assert_null(tx_tensor_data(p[2]));
    assert_int_equal(tx_string_tensor_unpack(x, q), TX_OK);
    assert_true(tx_tensor_shares_buffer(p[2], q[2])); /* one storage, shared */
    for (int k = 0; k < 3; k++) tx_tensor_free(q[k]);
    tx_tensor_free(x); /* the view keeps the bytes alive */
    assert_memory_equal(tx_tensor_data_const(p[2]), "a\0b0123", 7);
    tx_tensor *back = NULL;
    assert_int_equal(tx_string_tensor_pack(p[0], p[1], p[2], &back), TX_OK);
    x = sample();
    assert_same_strings(x, back);
    tx_tensor_free(back);
    for (int k = 0; k < 3; k++) tx_tensor_free(p[k]);
    /* reordered strings (a reverse) are not contiguous: a copy */
    const uint8_t yes = 1;
    tx_tensor *axis = NULL, *rev = NULL;
    assert_int_equal(tx_tensor_from_data(TX_BOOL, 1, TU_DIMS(1), &yes, 1, &axis), TX_OK);
    assert_int_equal(tx_reverse(x, axis, &rev), TX_OK);
    assert_int_equal(tx_string_tensor_unpack(rev, p), TX_OK);
    assert_ptr_not_equal(tx_tensor_data(p[2]), tx_tensor_string(rev, 0)->data);
    assert_memory_equal(tx_tensor_data(p[2]), "\0", 1);
    assert_true(tx_tensor_is_writable(p[2])); /* a copy of its own */
    for (int k = 0; k < 3; k++) tx_tensor_free(p[k]);
    tx_tensor_free(rev);
    tx_tensor_free(axis);
    /* a view of a tensor (a reshape) finds the same storage; all-empty strings need none */
    tx_tensor *shape = tu_i64(2, TU_DIMS(3, 2)), *r = NULL;
    assert_int_equal(tx_reshape(x, shape, &r), TX_OK);
    assert_int_equal(tx_string_tensor_unpack(r, p), TX_OK);
    assert_ptr_equal(tx_tensor_data_const(p[2]), tx_tensor_string(x, 1)->data);
    for (int k = 0; k < 3; k++) tx_tensor_free(p[k]);
    tx_tensor_free(r);
    tx_tensor_free(shape);
    tx_tensor_free(x);
    x = tu_strings(1, TU_DIMS(2), (const char *[]){"", ""});
    assert_int_equal(tx_string_tensor_unpack(x, p), TX_OK);
    tu_assert_shape(p[2], TX_UINT8, 1, TU_DIMS(0));
    for (int k = 0; k < 3; k++) tx_tensor_free(p[k]);
    tx_tensor_free(x);
}

/* ---- allocation failures --------------------------------------------------------------------- */

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *x = sample(), *r = NULL, *parts[2] = {NULL, NULL};
    assert_int_equal(tx_string_tensor_to_tf(x, TX_TSTRING_OFFSET, &r), TX_OK);
    assert_int_equal(tx_string_tensor_to_ort(x, parts), TX_OK);
    tu_alloc_install();
    for (int op = 0; op < 5; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[3] = {NULL, NULL, NULL};
            tx_status st;
            switch (op) {
            case 0: st = tx_string_tensor_to_tf(x, TX_TSTRING_VIEW, &o); break;
            case 1: st = tx_string_tensor_from_tf(tx_tensor_data(r), tx_tensor_nbytes(r), 1, TU_DIMS(6), 0, &o); break;
            case 2: st = tx_string_tensor_to_ort(x, outs); o = outs[0]; break;
            case 3: st = tx_string_tensor_from_ort(parts[0], parts[1], &o); break;
            default: st = tx_string_tensor_unpack(x, outs); o = outs[0]; break;
            }
            if (tu_alloc_sweep_step(st, o, outs)) break;
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(x);
    tx_tensor_free(r);
    tx_tensor_free(parts[0]);
    tx_tensor_free(parts[1]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tf_records_by_hand), cmocka_unit_test(test_tf_size_word_both_orders),
        cmocka_unit_test(test_tf_round_trips),
        cmocka_unit_test(test_tf_hostile),         cmocka_unit_test(test_ort),
        cmocka_unit_test(test_unpack_zero_copy),   cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
