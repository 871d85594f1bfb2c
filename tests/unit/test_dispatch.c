/* SPDX-License-Identifier: Apache-2.0 */
/* test_dispatch.c -- CPU dispatch (src/dispatch/): the detected level and the mask
 * (TENSORX_CPU, tx_set_cpu_mask), the kernel tables per level, the copy through tx__copy_nd and a
 * public op at each level.  The kernels themselves, one by one against naive loops, are
 * tests/kernels/checkasm.c's (kernels.checkasm). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "dispatch/cpu.h"
#include "dispatch/dispatch.h"
#include "exec/copy.h"

#define GUARD 128
#define GUARD_BYTE 0xA5

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* The level a cap gives on this machine, worked out from the architecture by hand: x86-64 has
 * scalar <= AVX2 <= AVX512 <= AVX512_BF16 up to the detected one (NEON's value, 3, lies between
 * the last two), aarch64 scalar and NEON. */
static tx_isa_level expected_at_cap(int cap, tx_isa_level have) {
    if (cap <= TX_ISA_SCALAR || have == TX_ISA_SCALAR) return TX_ISA_SCALAR;
#if defined(TX_HAVE_ARM_NEON)
    return cap >= TX_ISA_NEON ? TX_ISA_NEON : TX_ISA_SCALAR;
#else
    int at = cap >= (int)have ? (int)have : cap;
    return at == TX_ISA_NEON ? TX_ISA_AVX512 : (tx_isa_level)at;
#endif
}

/* Run first: main() sets TENSORX_CPU=scalar before anything reads it, unless the test is run with
 * TENSORX_CPU set (tests/CMakeLists.txt runs it with neon and avx2 too). */
static void env_mask_applies(void **state) {
    (void)state;
    tx_isa_level have = tx_cpu_detected_level();
    tx_isa_level want = expected_at_cap(tx__cpu_parse_level(getenv("TENSORX_CPU")), have);
    assert_int_equal(tx_cpu_level(), want);
    assert_int_equal(tx__kernels_get()->level, want);
    assert_int_equal(tx_set_cpu_mask(TX__ISA_TOP), have); /* the top level: no cap */
    assert_int_equal(tx_cpu_level(), have);
    assert_int_equal(tx__kernels_get()->level, have);
    assert_int_equal(tx_set_cpu_mask(TX_ISA_SCALAR), TX_ISA_SCALAR);
    assert_int_equal(tx_set_cpu_mask((tx_isa_level)99), have);      /* above the top: no cap */
    assert_int_equal(tx_set_cpu_mask((tx_isa_level)-3), TX_ISA_SCALAR); /* below: scalar */
    /* every cap: the highest level this CPU has at or below it */
    for (int c = TX_ISA_SCALAR; c <= TX__ISA_TOP; c++) {
        assert_int_equal(tx_set_cpu_mask((tx_isa_level)c), expected_at_cap(c, have));
        assert_int_equal(tx__kernels_get()->level, expected_at_cap(c, have));
    }
    tx_set_cpu_mask(TX__ISA_TOP);
}

static void levels_and_names(void **state) {
    (void)state;
    assert_string_equal(tx_isa_level_name(TX_ISA_SCALAR), "scalar");
    assert_string_equal(tx_isa_level_name(TX_ISA_AVX2), "avx2");
    assert_string_equal(tx_isa_level_name(TX_ISA_AVX512), "avx512");
    assert_string_equal(tx_isa_level_name(TX_ISA_NEON), "neon");
    assert_string_equal(tx_isa_level_name(TX_ISA_AVX512_BF16), "avx512_bf16");
    assert_string_equal(tx_isa_level_name((tx_isa_level)7), "unknown");
    assert_int_equal(tx__cpu_parse_level("scalar"), TX_ISA_SCALAR);
    assert_int_equal(tx__cpu_parse_level("AVX2"), TX_ISA_AVX2);
    assert_int_equal(tx__cpu_parse_level("avx512"), TX_ISA_AVX512);
    assert_int_equal(tx__cpu_parse_level("neon"), TX_ISA_NEON);
    assert_int_equal(tx__cpu_parse_level("NEON"), TX_ISA_NEON);
    assert_int_equal(tx__cpu_parse_level("AVX512_BF16"), TX_ISA_AVX512_BF16);
    assert_int_equal(tx__cpu_parse_level("sse2"), -1);
    assert_int_equal(tx__cpu_parse_level(""), -1);
    assert_int_equal(tx__cpu_parse_level(NULL), -1);
    /* the values are kept: programs built against 0.2 pass 0, 1, 2 */
    assert_int_equal(TX_ISA_SCALAR, 0);
    assert_int_equal(TX_ISA_AVX2, 1);
    assert_int_equal(TX_ISA_AVX512, 2);
    assert_int_equal(TX_ISA_NEON, 3);
    assert_int_equal(TX_ISA_AVX512_BF16, 4);
    tx_isa_level have = tx_cpu_detected_level();
#if defined(TX_HAVE_X86_SIMD)
    assert_true(have >= TX_ISA_SCALAR && have <= TX__ISA_TOP && have != TX_ISA_NEON);
    assert_false(tx__cpu_has(TX_ISA_NEON));
#elif defined(TX_HAVE_ARM_NEON)
    assert_int_equal(have, TX_ISA_NEON); /* Advanced SIMD is baseline on aarch64 */
    assert_true(tx__cpu_has(TX_ISA_NEON));
    assert_false(tx__cpu_has(TX_ISA_AVX2));
    assert_false(tx__cpu_has(TX_ISA_AVX512));
    assert_false(tx__cpu_has(TX_ISA_AVX512_BF16));
#else
    assert_int_equal(have, TX_ISA_SCALAR);
#endif
    assert_true(tx__cpu_has(TX_ISA_SCALAR));
    assert_true(tx__cpu_has(have));
    /* a level the CPU lacks gives the table of the highest one it has below; each table says its
     * level */
    for (int lv = TX_ISA_SCALAR; lv <= TX__ISA_TOP; lv++) {
        const tx__kernels *k = tx__kernels_at((tx_isa_level)lv);
        assert_int_equal(k->level, expected_at_cap(lv, have));
        assert_int_equal(tx__cpu_has((tx_isa_level)lv), (int)expected_at_cap(lv, have) == lv);
        assert_non_null(k->bulk_copy);
        assert_non_null(k->copy_runs_stream);
        for (int w = 0; w < TX_NUM_WIDTHS; w++) assert_non_null(k->copy_reversed[w]);
    }
    assert_int_equal(tx__width_index(1), 0);
    assert_int_equal(tx__width_index(16), 4);
    assert_int_equal(tx__width_index(3), -1);
    assert_int_equal(tx__width_index(32), -1);
}

/* tx__copy_nd at each level: a reversed-row copy (reverse / [::-1]) and a large contiguous one
 * (streaming stores), against the scalar level's bytes. */
static void copy_nd_same_bits_at_every_level(void **state) {
    (void)state;
    const int64_t rows = 37, cols = 70001;
    const size_t elems[] = {1, 2, 4, 8, 16};
    tx_isa_level have = tx_cpu_detected_level();
    for (size_t e = 0; e < 5; e++) {
        size_t w = elems[e], bytes = (size_t)(rows * cols) * w;
        unsigned char *src = malloc(bytes), *ref = malloc(bytes + 2 * GUARD), *got = malloc(bytes + 2 * GUARD);
        assert_non_null(src);
        assert_non_null(ref);
        assert_non_null(got);
        for (size_t i = 0; i < bytes; i++) src[i] = (unsigned char)rnd();
        const int64_t dims[2] = {rows, cols};
        int64_t dst_st[2], src_st[2] = {cols * (int64_t)w, -(int64_t)w};
        tx__contiguous_strides(2, dims, w, dst_st);
        const char *base = (const char *)src + (cols - 1) * (int64_t)w;
        for (int pass = 0; pass < 2; pass++) { /* pass 1: contiguous (one large block) */
            int64_t sst[2] = {src_st[0], pass ? (int64_t)w : src_st[1]};
            const char *b = pass ? (const char *)src : base;
            for (int lv = TX_ISA_SCALAR; lv <= (int)have; lv++) {
                if (!tx__cpu_has((tx_isa_level)lv)) continue;
                tx_set_cpu_mask((tx_isa_level)lv);
                unsigned char *out = lv == TX_ISA_SCALAR ? ref : got;
                memset(out, GUARD_BYTE, bytes + 2 * GUARD);
                tx__copy_nd((char *)out + GUARD, b, 2, dims, dst_st, sst, w);
                for (size_t g = 0; g < GUARD; g++) {
                    assert_int_equal(out[g], GUARD_BYTE);
                    assert_int_equal(out[GUARD + bytes + g], GUARD_BYTE);
                }
                if (lv > TX_ISA_SCALAR) assert_memory_equal(ref, got, bytes + 2 * GUARD);
            }
            if (pass) assert_memory_equal(ref + GUARD, src, bytes);
            else
                for (int64_t r = 0; r < rows; r += 5)
                    for (int64_t c = 0; c < cols; c += 997)
                        assert_memory_equal(ref + GUARD + (r * cols + c) * (int64_t)w,
                                            src + (r * cols + cols - 1 - c) * (int64_t)w, w);
        }
        free(src);
        free(ref);
        free(got);
    }
    tx_set_cpu_mask(TX__ISA_TOP);
}

/* A public op (reverse, which runs through the reversed-run kernels) at each level. */
static void public_op_same_bits_at_every_level(void **state) {
    (void)state;
    const int64_t dims[3] = {3, 5, 1001};
    const tx_dtype types[] = {TX_UINT8, TX_INT16, TX_FLOAT32, TX_FLOAT64, TX_COMPLEX128};
    tx_isa_level have = tx_cpu_detected_level();
    for (size_t t = 0; t < 5; t++) {
        tx_tensor *x = NULL;
        assert_int_equal(tx_tensor_new(types[t], 3, dims, &x), TX_OK);
        unsigned char *p = tx_tensor_data(x);
        for (size_t i = 0; i < tx_tensor_nbytes(x); i++) p[i] = (unsigned char)rnd();
        const int64_t axis[2] = {2, 0};
        tx_tensor *ref = NULL;
        tx_set_cpu_mask(TX_ISA_SCALAR);
        assert_int_equal(tx_reverse_v2(x, axis, 2, &ref), TX_OK);
        for (int lv = TX_ISA_AVX2; lv <= (int)have; lv++) {
            if (!tx__cpu_has((tx_isa_level)lv)) continue;
            tx_set_cpu_mask((tx_isa_level)lv);
            tx_tensor *got = NULL;
            assert_int_equal(tx_reverse_v2(x, axis, 2, &got), TX_OK);
            assert_memory_equal(tx_tensor_data(ref), tx_tensor_data(got), tx_tensor_nbytes(ref));
            tx_tensor_free(got);
        }
        size_t w = tx_dtype_size(types[t]);
        const unsigned char *r = tx_tensor_data(ref);
        for (int64_t i = 0; i < 3; i++)
            for (int64_t j = 0; j < 5; j++)
                for (int64_t k = 0; k < 1001; k += 7)
                    assert_memory_equal(r + ((i * 5 + j) * 1001 + k) * w,
                                        p + (((2 - i) * 5 + j) * 1001 + 1000 - k) * w, w);
        tx_tensor_free(ref);
        tx_tensor_free(x);
    }
    tx_set_cpu_mask(TX__ISA_TOP);
}

int main(void) {
    setenv("TENSORX_CPU", "scalar", 0); /* unless the environment sets it */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(env_mask_applies),
        cmocka_unit_test(levels_and_names),
        cmocka_unit_test(copy_nd_same_bits_at_every_level),
        cmocka_unit_test(public_op_same_bits_at_every_level),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    tx_shutdown();
    return rc;
}
