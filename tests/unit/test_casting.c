/* SPDX-License-Identifier: Apache-2.0 */
/* test_casting.c -- the casting family as a whole (cast, saturate_cast, to_*, bitcast, decode_raw,
 * encode_raw, string_to_number, string_tensor_pack/unpack): the thread pool's pieces give the
 * same bits as one thread, and an allocation-failure sweep per op.  Each op's own cases are in
 * test_cast.c, test_saturate_cast.c, test_bitcast.c, test_raw_bytes.c and test_string_ops.c. */
#include "casting_util.h"

#include <float.h>
#include <stdbool.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- large tensors: the thread pool's pieces give the same bits as one thread -------------- */

static void test_threads_same_bits(void **state) {
    (void)state;
    enum { N = 3 << 20 };
    double *v = malloc(N * sizeof *v);
    for (int i = 0; i < N; i++) v[i] = (i % 7 == 0) ? NAN : (double)(i - N / 2) * 1234.5678 + (i % 3) * 1e12;
    tx_tensor *x = raw1(TX_FLOAT64, N, v);
    free(v);
    enum { NREC = 200000 };
    const char **recs = malloc(NREC * sizeof *recs);
    size_t *lens = malloc(NREC * sizeof *lens);
    static const char rec_text[] = "abcdefgh";
    for (int i = 0; i < NREC; i++) recs[i] = &rec_text[i % 5], lens[i] = 8 - (size_t)(i % 5);
    tx_tensor *r = strs(1, TU_DIMS(NREC), recs, lens);
    free(recs);
    free(lens);
    int64_t fl = 8;
    tx_tensor *one[5], *many[5];
    for (int pass = 0; pass < 2; pass++) {
        tx_set_num_threads(pass == 0 ? 1 : 4);
        tx_tensor **o = pass == 0 ? one : many;
        assert_int_equal(tx_cast(x, TX_FLOAT16, &o[0]), TX_OK);
        assert_int_equal(tx_cast(x, TX_INT16, &o[1]), TX_OK);
        assert_int_equal(tx_saturate_cast(x, TX_INT8, &o[2]), TX_OK);
        assert_int_equal(tx_decode_raw(r, TX_INT32, 0, &fl, &o[3]), TX_OK);
        assert_int_equal(tx_cast(x, TX_FLOAT64, &o[4]), TX_OK);
    }
    tx_set_num_threads(0);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(tx_tensor_nbytes(one[i]), tx_tensor_nbytes(many[i]));
        assert_memory_equal(tx_tensor_data(one[i]), tx_tensor_data(many[i]), tx_tensor_nbytes(one[i]));
        tx_tensor_free(one[i]);
        tx_tensor_free(many[i]);
    }
    /* spot checks of the results themselves */
    tx_tensor *o = NULL;
    assert_int_equal(tx_saturate_cast(x, TX_INT8, &o), TX_OK);
    const int8_t *q = tx_tensor_data(o);
    assert_int_equal(q[0], 0);         /* NaN: cast(NaN) */
    assert_int_equal(q[3], -128);
    assert_int_equal(q[N - 1], 127);
    tx_tensor_free(o);
    assert_int_equal(tx_decode_raw(r, TX_UINT8, 1, &fl, &o), TX_OK);
    assert_memory_equal((const char *)tx_tensor_data(o) + 8 * 199999, "efgh\0\0\0\0", 8);
    tx_tensor_free(o);
    tx_tensor_free(r);
    tx_tensor_free(x);
}

/* ---- allocation failures ------------------------------------------------------------------ */

static void test_alloc_failure(void **state) {
    (void)state;
    tx_tensor *f = tu_tensor(TX_FLOAT64, 1, TU_DIMS(3), TU_VALS(1e300, 2, -3));
    tx_tensor *sv = tu_strings(1, TU_DIMS(2), (const char *[]){"1.5", "2"});
    tx_tensor *raw4 = tu_strings(1, TU_DIMS(2), (const char *[]){"abcd", "efgh"});
    tx_tensor *b = tu_i64(2, TU_DIMS(0, 2)), *e = tu_i64(2, TU_DIMS(2, 4));
    tx_tensor *sym = raw1(TX_UINT8, 4, "abcd");
    int64_t fl = 6;
    tu_alloc_install();
    for (int op = 0; op < 11; op++) {
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tensor *o = NULL, *outs[3] = {NULL, NULL, NULL};
            tx_status st;
            switch (op) {
            case 0: st = tx_cast(f, TX_FLOAT16, &o); break;
            case 1: st = tx_saturate_cast(f, TX_FLOAT32, &o); break;
            case 2: st = tx_to_int32(f, &o); break;
            case 3: st = tx_bitcast(f, TX_UINT8, &o); break;
            case 4: st = tx_decode_raw(raw4, TX_UINT16, 0, &fl, &o); break;
            case 5: st = tx_string_to_number(sv, TX_FLOAT64, &o); break;
            case 6: st = tx_string_tensor_pack(b, e, sym, &o); break;
            case 7: st = tx_cast(sv, TX_STRING, &o); break;
            case 8: st = tx_encode_raw(f, 0, &o); break;
            case 9: st = tx_decode_raw(raw4, TX_UINT32, 0, NULL, &o); break;
            default: st = tx_string_tensor_unpack(sv, outs); o = outs[0]; break;
            }
            if (tu_alloc_sweep_step(st, o, outs)) break;
        }
    }
    tu_alloc_uninstall();
    tx_tensor_free(f);
    tx_tensor_free(sv);
    tx_tensor_free(raw4);
    tx_tensor_free(b);
    tx_tensor_free(e);
    tx_tensor_free(sym);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads_same_bits),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
