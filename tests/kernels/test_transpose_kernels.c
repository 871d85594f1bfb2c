/* SPDX-License-Identifier: Apache-2.0 */
/* test_transpose_kernels.c -- the 2-D transpose kernels of tf.transpose (kernels/transpose.h),
 * checkasm-style: every SIMD kernel at every CPU level this machine has, for every element width,
 * against the portable kernel on the same random input, byte for byte: sizes around every tile
 * size (0 .. 3 tiles plus tails), packed and padded and odd-byte strides, misaligned pointers, the
 * streaming flag on and off (with destinations aligned so that streaming stores really happen), the
 * narrow paths (1..15 columns or rows, packed), a destination prefilled with noise (the bytes
 * between destination rows must survive) and guard bytes on both sides.  Then the public op:
 * tx_transpose gives the same bytes with the CPU capped to scalar as at the default level, for
 * every dtype width and the benchmark's layouts in small, at one and two threads. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "dispatch/cpu.h"
#include "dispatch/dispatch.h"
#include "kernels/transpose.h"

#define GUARD 192
#define GUARD_BYTE 0x5A

static const size_t WIDTHS[TX_NUM_WIDTHS] = {1, 2, 4, 8, 16};

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void fill_random(unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(rnd() >> 24);
}

/* One kernel call against the reference.  The source is a random block with src_mis bytes of
 * misalignment; both destinations are the same noise with guards around them. */
static void check_one(tx__transpose2d_fn fn, tx__transpose2d_fn ref, size_t w, int64_t rows,
                      int64_t cols, int64_t ss, int64_t ds, size_t src_mis, size_t dst_mis,
                      bool stream, const char *what) {
    size_t sn = rows > 0 && cols > 0 ? (size_t)((rows - 1) * ss + cols * (int64_t)w) : 0;
    size_t dn = rows > 0 && cols > 0 ? (size_t)((cols - 1) * ds + rows * (int64_t)w) : 0;
    /* The source block is allocated to its exact end so that ASan catches any over-read. */
    size_t sbytes = sn + src_mis > 0 ? sn + src_mis : 1;
    unsigned char *sblock = malloc(sbytes);
    unsigned char *a = malloc(dn + 2 * GUARD + 64), *b = malloc(dn + 2 * GUARD + 64);
    assert_non_null(sblock);
    assert_non_null(a);
    assert_non_null(b);
    fill_random(sblock, sbytes);
    const char *src = (const char *)sblock + src_mis;
    memset(a, GUARD_BYTE, dn + 2 * GUARD + 64);
    fill_random(a + GUARD + dst_mis, dn);
    memcpy(b, a, dn + 2 * GUARD + 64);
    ref((char *)a + GUARD + dst_mis, src, rows, cols, ss, ds, false);
    fn((char *)b + GUARD + dst_mis, src, rows, cols, ss, ds, stream);
    if (memcmp(a, b, dn + 2 * GUARD + 64) != 0) {
        size_t k = 0;
        while (a[k] == b[k]) k++;
        fail_msg("%s: w=%zu rows=%lld cols=%lld ss=%lld ds=%lld src_mis=%zu dst_mis=%zu stream=%d: "
                 "first difference at byte %lld of the destination (%s)",
                 what, w, (long long)rows, (long long)cols, (long long)ss, (long long)ds, src_mis,
                 dst_mis, (int)stream, (long long)k - GUARD - (long long)dst_mis,
                 k < GUARD + dst_mis || k >= GUARD + dst_mis + dn ? "guard" : "inside");
    }
    /* The guards themselves are intact on both (the reference writes only inside). */
    for (size_t i = 0; i < GUARD + dst_mis; i++) assert_int_equal(b[i], GUARD_BYTE);
    for (size_t i = GUARD + dst_mis + dn; i < dn + 2 * GUARD + 64; i++)
        assert_int_equal(b[i], GUARD_BYTE);
    free(sblock);
    free(a);
    free(b);
}

/* The levels above scalar that this CPU has (none on a scalar build). */
static int simd_levels(tx_isa_level *lv) {
    int n = 0;
    tx_isa_level have = tx_cpu_detected_level();
    for (int l = TX_ISA_AVX2; l <= (int)have; l++)
        if (tx__cpu_has((tx_isa_level)l)) lv[n++] = (tx_isa_level)l;
    return n;
}

static void tables_filled(void **state) {
    (void)state;
    for (int l = TX_ISA_SCALAR; l <= TX__ISA_TOP; l++) {
        const tx__kernels *k = tx__kernels_at((tx_isa_level)l);
        for (int wi = 0; wi < TX_NUM_WIDTHS; wi++) {
            assert_non_null(k->transpose2d[wi]);
            if (k->level == TX_ISA_SCALAR)
                assert_ptr_equal(k->transpose2d[wi], tx__transpose2d_kernel(WIDTHS[wi]));
        }
    }
#ifdef TX_HAVE_X86_SIMD
    if (tx_cpu_detected_level() >= TX_ISA_AVX2)
        assert_ptr_equal(tx__kernels_at(TX_ISA_AVX2)->transpose2d[2], tx__transpose2d_w4_avx2);
    if (tx_cpu_detected_level() >= TX_ISA_AVX512)
        assert_ptr_equal(tx__kernels_at(TX_ISA_AVX512)->transpose2d[2], tx__transpose2d_w4_avx512);
#endif
#ifdef TX_HAVE_ARM_NEON
    assert_ptr_equal(tx__kernels_at(TX_ISA_NEON)->transpose2d[2], tx__transpose2d_w4_neon);
    assert_ptr_equal(tx__kernels_at(TX_ISA_NEON)->transpose2d[4], tx__transpose2d_w16);
    assert_ptr_equal(tx__kernels_at(TX_ISA_AVX512)->transpose2d[2], tx__transpose2d_w4);
#endif
    assert_null(tx__transpose2d_kernel(3));
    assert_null(tx__transpose2d_kernel(32));
}

/* Sizes around the tiles of every width: 4 .. 64 rows, 2 .. 16 columns, up to three tiles plus
 * tails. */
static const int64_t SIZES[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33,
                                47, 63, 64, 65, 96, 127, 128, 129, 193, 200};
#define NSIZES (sizeof SIZES / sizeof *SIZES)

static void every_size(void **state) {
    (void)state;
    tx_isa_level lv[4];
    int nl = simd_levels(lv);
    if (nl == 0) skip();
    for (int l = 0; l < nl; l++) {
        const tx__kernels *k = tx__kernels_at(lv[l]);
        for (int wi = 0; wi < TX_NUM_WIDTHS; wi++) {
            size_t w = WIDTHS[wi];
            tx__transpose2d_fn ref = tx__transpose2d_kernel(w);
            for (size_t i = 0; i < NSIZES; i++)
                for (size_t j = 0; j < NSIZES; j++) {
                    int64_t rows = SIZES[i], cols = SIZES[j];
                    /* packed: the narrow paths where a side is small */
                    check_one(k->transpose2d[wi], ref, w, rows, cols, cols * (int64_t)w,
                              rows * (int64_t)w, rnd() % 64, rnd() % 64, rnd() & 1, "packed");
                    /* padded by a few elements, random misalignment */
                    int64_t ss = (cols + 1 + (int64_t)(rnd() % 5)) * (int64_t)w;
                    int64_t ds = (rows + 1 + (int64_t)(rnd() % 5)) * (int64_t)w;
                    check_one(k->transpose2d[wi], ref, w, rows, cols, ss, ds, rnd() % 64,
                              rnd() % 64, rnd() & 1, "padded");
                }
        }
    }
}

/* Strides that are not multiples of the element size (elements at odd addresses). */
static void odd_strides(void **state) {
    (void)state;
    tx_isa_level lv[4];
    int nl = simd_levels(lv);
    if (nl == 0) skip();
    for (int l = 0; l < nl; l++) {
        const tx__kernels *k = tx__kernels_at(lv[l]);
        for (int wi = 0; wi < TX_NUM_WIDTHS; wi++) {
            size_t w = WIDTHS[wi];
            for (int rep = 0; rep < 60; rep++) {
                int64_t rows = 1 + (int64_t)(rnd() % 150), cols = 1 + (int64_t)(rnd() % 150);
                int64_t ss = cols * (int64_t)w + 1 + (int64_t)(rnd() % 13);
                int64_t ds = rows * (int64_t)w + 1 + (int64_t)(rnd() % 13);
                check_one(k->transpose2d[wi], tx__transpose2d_kernel(w), w, rows, cols, ss, ds,
                          rnd() % 64, rnd() % 64, rnd() & 1, "odd strides");
            }
        }
    }
}

/* stream = true with destinations where streaming stores happen: rows a multiple of 64 bytes
 * apart, with the start aligned or misaligned by whole elements (the head rows peeled off). */
static void streaming(void **state) {
    (void)state;
    tx_isa_level lv[4];
    int nl = simd_levels(lv);
    if (nl == 0) skip();
    static const int64_t rs[] = {64, 65, 100, 129, 256, 300};
    static const int64_t cs[] = {16, 17, 40, 64, 100, 257};
    for (int l = 0; l < nl; l++) {
        const tx__kernels *k = tx__kernels_at(lv[l]);
        for (int wi = 0; wi < TX_NUM_WIDTHS; wi++) {
            size_t w = WIDTHS[wi];
            for (size_t i = 0; i < sizeof rs / sizeof *rs; i++)
                for (size_t j = 0; j < sizeof cs / sizeof *cs; j++) {
                    int64_t rows = rs[i], cols = cs[j];
                    int64_t ds = (rows * (int64_t)w + 63) / 64 * 64 + 64 * (int64_t)(rnd() % 2);
                    size_t mis = (rnd() % (64 / w)) * w;
                    check_one(k->transpose2d[wi], tx__transpose2d_kernel(w), w, rows, cols,
                              cols * (int64_t)w, ds, rnd() % 64, rnd() % 2 ? 0 : mis, true,
                              "streaming");
                }
        }
    }
}

/* The narrow paths: 1 .. 15 columns (rows) with the packed side, many rows (columns), and the
 * same shapes unpacked (which must take the general path). */
static void narrow(void **state) {
    (void)state;
    tx_isa_level lv[4];
    int nl = simd_levels(lv);
    if (nl == 0) skip();
    static const int64_t longs[] = {1, 31, 32, 33, 64, 100, 1000, 4099};
    for (int l = 0; l < nl; l++) {
        const tx__kernels *k = tx__kernels_at(lv[l]);
        for (int wi = 0; wi < TX_NUM_WIDTHS; wi++) {
            size_t w = WIDTHS[wi];
            tx__transpose2d_fn fn = k->transpose2d[wi], ref = tx__transpose2d_kernel(w);
            for (int64_t n = 1; n <= 17; n++)
                for (size_t i = 0; i < sizeof longs / sizeof *longs; i++) {
                    int64_t m = longs[i], W = (int64_t)w;
                    bool st = rnd() & 1;
                    check_one(fn, ref, w, m, n, n * W, m * W, rnd() % 64, rnd() % 64, st, "cols");
                    check_one(fn, ref, w, m, n, n * W, m * W + W, rnd() % 64, rnd() % 64, st,
                              "cols, padded dst");
                    check_one(fn, ref, w, m, n, n * W + W, m * W, rnd() % 64, rnd() % 64, st,
                              "cols, padded src");
                    check_one(fn, ref, w, n, m, m * W, n * W, rnd() % 64, rnd() % 64, st, "rows");
                    check_one(fn, ref, w, n, m, m * W + 3, n * W, rnd() % 64, rnd() % 64, st,
                              "rows, padded src");
                    check_one(fn, ref, w, n, m, m * W, n * W + W, rnd() % 64, rnd() % 64, st,
                              "rows, padded dst");
                }
        }
    }
}

/* A few large planes (many tiles, both flags). */
static void large(void **state) {
    (void)state;
    tx_isa_level lv[4];
    int nl = simd_levels(lv);
    if (nl == 0) skip();
    for (int l = 0; l < nl; l++) {
        const tx__kernels *k = tx__kernels_at(lv[l]);
        for (int wi = 0; wi < TX_NUM_WIDTHS; wi++) {
            size_t w = WIDTHS[wi];
            int64_t W = (int64_t)w;
            check_one(k->transpose2d[wi], tx__transpose2d_kernel(w), w, 512, 384, 384 * W,
                      512 * W, 0, 0, true, "large aligned");
            check_one(k->transpose2d[wi], tx__transpose2d_kernel(w), w, 509, 383, 383 * W,
                      509 * W, 1, 3, true, "large odd");
            check_one(k->transpose2d[wi], tx__transpose2d_kernel(w), w, 1024, 3, 3 * W,
                      1024 * W, 0, 0, true, "large narrow");
            check_one(k->transpose2d[wi], tx__transpose2d_kernel(w), w, 1021, 3, 3 * W,
                      1021 * W, 0, 0, true, "large narrow, planes not line-aligned");
            /* streaming into unaligned destination rows, wide source rows (the band walk) and
             * narrow ones (the strip walk) */
            check_one(k->transpose2d[wi], tx__transpose2d_kernel(w), w, 300, 700, 700 * W + W,
                      300 * W + W, 5, W, true, "large unaligned wide");
            check_one(k->transpose2d[wi], tx__transpose2d_kernel(w), w, 333, 70, 70 * W,
                      333 * W, 0, 2 * W, true, "large unaligned narrow");
        }
    }
}

/* The width-generic kernel against an element-by-element loop. */
static void naive_any(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                      int64_t ds, size_t w, bool stream) {
    (void)stream;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) memcpy(dst + c * ds + r * (int64_t)w, src + r * ss + c * (int64_t)w, w);
}
static size_t any_width;
static void any_at_width(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                         int64_t ds, bool stream) {
    (void)stream;
    tx__transpose2d_any(dst, src, rows, cols, ss, ds, any_width);
}
static void naive_at_width(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                           int64_t ds, bool stream) {
    naive_any(dst, src, rows, cols, ss, ds, any_width, stream);
}

static void any_width_kernel(void **state) {
    (void)state;
    static const size_t ws[] = {3, 5, 6, 7, 12, 20, 24, 32, 40, 48, 64, 100, 200};
    static const int64_t n[] = {1, 2, 5, 17, 64, 70, 131};
    for (size_t k = 0; k < sizeof ws / sizeof *ws; k++) {
        any_width = ws[k];
        int64_t W = (int64_t)ws[k];
        for (size_t i = 0; i < sizeof n / sizeof *n; i++)
            for (size_t j = 0; j < sizeof n / sizeof *n; j++) {
                check_one(any_at_width, naive_at_width, ws[k], n[i], n[j], n[j] * W, n[i] * W,
                          rnd() % 64, rnd() % 64, false, "any width, packed");
                check_one(any_at_width, naive_at_width, ws[k], n[i], n[j], n[j] * W + 3,
                          n[i] * W + 1, rnd() % 64, rnd() % 64, false, "any width, padded");
            }
    }
}

/* ---- the public op at each level --------------------------------------------------------------- */

static tx_tensor *random_tensor(tx_dtype dt, size_t rank, const int64_t *dims) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(dt, rank, dims, &t), TX_OK);
    fill_random(tx_tensor_data(t), tx_tensor_nbytes(t));
    return t;
}

static tx_tensor *perm_tensor(size_t rank, const int64_t *p) {
    return tu_i64(rank, p);
}

/* Transposes x by perm with the CPU capped to scalar and at the default level, at `threads`
 * threads, and requires the same bytes. */
static void same_at_levels(const tx_tensor *x, const tx_tensor *perm, int threads) {
    tx_set_num_threads(threads);
    tx_isa_level have = tx_cpu_detected_level();
    tx_tensor *outs[TX__ISA_TOP + 1] = {NULL};
    for (int l = TX_ISA_SCALAR; l <= (int)have; l++) {
        if (!tx__cpu_has((tx_isa_level)l)) continue; /* x86-64 levels on aarch64 */
        tx_set_cpu_mask((tx_isa_level)l);
        assert_int_equal(tx_transpose(x, perm, 0, &outs[l]), TX_OK);
    }
    tx_set_cpu_mask(TX__ISA_TOP);
    tx_tensor *dflt = NULL;
    assert_int_equal(tx_transpose(x, perm, 0, &dflt), TX_OK);
    size_t n = tx_tensor_nbytes(outs[0]);
    for (int l = TX_ISA_SCALAR + 1; l <= (int)have; l++) {
        if (!outs[l]) continue;
        assert_int_equal(tx_tensor_nbytes(outs[l]), n);
        assert_memory_equal(tx_tensor_data(outs[0]), tx_tensor_data(outs[l]), n);
    }
    assert_memory_equal(tx_tensor_data(outs[0]), tx_tensor_data(dflt), n);
    for (int l = TX_ISA_SCALAR; l <= (int)have; l++) tx_tensor_free(outs[l]);
    tx_tensor_free(dflt);
    tx_set_num_threads(0);
}

static void public_levels(void **state) {
    (void)state;
    static const tx_dtype dts[] = {TX_UINT8, TX_INT16, TX_FLOAT32, TX_FLOAT64, TX_COMPLEX128};
    struct {
        size_t rank;
        int64_t dims[4], perm[4];
    } cases[] = {
        {2, {300, 517}, {1, 0}},
        {3, {4, 130, 70}, {0, 2, 1}},
        {3, {4, 130, 70}, {2, 0, 1}},
        {4, {3, 56, 56, 3}, {0, 3, 1, 2}}, /* NHWC -> NCHW */
        {4, {3, 3, 56, 56}, {0, 2, 3, 1}}, /* and back */
        {4, {5, 6, 7, 8}, {3, 1, 0, 2}},
        {2, {1, 1000}, {1, 0}},
        {3, {40, 70, 3}, {1, 0, 2}},       /* 3-element runs: the width-generic kernel */
        {4, {9, 8, 7, 5}, {2, 0, 1, 3}},
        {3, {2, 1024, 1024}, {0, 2, 1}},   /* large enough to stream and to use both threads */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
            tx_tensor *x = random_tensor(dts[d], cases[c].rank, cases[c].dims);
            tx_tensor *p = perm_tensor(cases[c].rank, cases[c].perm);
            same_at_levels(x, p, 1);
            same_at_levels(x, p, 2);
            tx_tensor_free(x);
            tx_tensor_free(p);
        }
}

/* Under TENSORX_CPU=scalar (set by main before anything reads it) the default level is scalar, and
 * the default kernels are the portable ones. */
static void env_scalar(void **state) {
    (void)state;
    assert_int_equal(tx_cpu_level(), TX_ISA_SCALAR);
    assert_ptr_equal(tx__kernels_get()->transpose2d[2], tx__transpose2d_w4);
    tx_set_cpu_mask(TX__ISA_TOP);
}

int main(void) {
    setenv("TENSORX_CPU", "scalar", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(env_scalar),     cmocka_unit_test(tables_filled),
        cmocka_unit_test(every_size),     cmocka_unit_test(odd_strides),
        cmocka_unit_test(streaming),      cmocka_unit_test(narrow),
        cmocka_unit_test(large),          cmocka_unit_test(any_width_kernel),
        cmocka_unit_test(public_levels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
