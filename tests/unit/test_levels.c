/* SPDX-License-Identifier: Apache-2.0 */
/* test_levels.c -- the public ops whose kernels differ by CPU level give the same bytes at every
 * level this machine has (tx_set_cpu_mask) as at scalar, at one and two threads: tf.cast on every
 * hot pair and tf.saturate_cast float32 -> uint8 on the special inputs of cast_inputs.h,
 * tf.io.decode_raw (byte swaps, fixed lengths, rows split between threads), tf.transpose for
 * every dtype width and the benchmark's layouts in small; and the level TENSORX_CPU sets at the
 * start (run with it unset and with TENSORX_CPU=scalar).  The kernels themselves, one by one
 * against naive loops, are checkasm's (tests/kernels/). */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "dispatch/cpu.h"
#include "dispatch/dispatch.h"

static uint64_t rnd(void); /* for cast_inputs.h */
#include "cast_inputs.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void fill_random(unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(rnd() >> 24);
}

/* ---- casts and decode_raw ---- */

static tx_tensor *random_tensor(tx_dtype t, int64_t n) {
    size_t sz = tx_dtype_size(t);
    unsigned char *p = malloc((size_t)n * sz + 1);
    assert_non_null(p);
    in_kind kind = t == TX_FLOAT32 ? IN_F32 : t == TX_FLOAT64 ? IN_F64 : t == TX_INT32 ? IN_I32
                 : (t == TX_FLOAT16 || t == TX_BFLOAT16) ? IN_H16 : IN_U8;
    fill_input(p, kind, (size_t)n, sz);
    tx_tensor *x = NULL;
    assert_int_equal(tx_tensor_from_data(t, 1, &n, p, (size_t)n * sz, &x), TX_OK);
    free(p);
    return x;
}

typedef tx_status (*op_fn)(const tx_tensor *x, tx_dtype t, tx_tensor **out);

static void same_at_levels(op_fn op, const tx_tensor *x, tx_dtype to) {
    tx_isa_level have = tx_cpu_detected_level();
    tx_set_cpu_mask(TX_ISA_SCALAR);
    tx_tensor *ref = NULL;
    assert_int_equal(op(x, to, &ref), TX_OK);
    for (int lv = TX_ISA_AVX2; lv <= (int)have; lv++) {
        if (!tx__cpu_has((tx_isa_level)lv)) continue; /* x86-64 levels on aarch64 */
        assert_int_equal(tx_set_cpu_mask((tx_isa_level)lv), lv);
        for (int threads = 1; threads <= 2; threads++) {
            tx_set_num_threads(threads);
            tx_tensor *got = NULL;
            assert_int_equal(op(x, to, &got), TX_OK);
            assert_int_equal(tx_tensor_nbytes(got), tx_tensor_nbytes(ref));
            assert_memory_equal(tx_tensor_data(got), tx_tensor_data(ref), tx_tensor_nbytes(ref));
            tx_tensor_free(got);
        }
    }
    tx_set_num_threads(0);
    tx_set_cpu_mask((tx_isa_level)99);
    tx_tensor_free(ref);
}

static void public_casts_same_at_every_level(void **state) {
    (void)state;
    static const struct { tx_dtype from, to; } pairs[] = {
        {TX_FLOAT32, TX_FLOAT16}, {TX_FLOAT16, TX_FLOAT32}, {TX_FLOAT32, TX_BFLOAT16},
        {TX_BFLOAT16, TX_FLOAT32}, {TX_FLOAT32, TX_INT32}, {TX_INT32, TX_FLOAT32},
        {TX_FLOAT64, TX_FLOAT32}, {TX_UINT8, TX_FLOAT32}, {TX_FLOAT32, TX_QINT32},
        {TX_QUINT8, TX_FLOAT32}, {TX_QINT32, TX_FLOAT32}};
    /* small, and large enough to be split over the threads (the streaming kernels, which the op
     * takes from TX_STREAM_SEQ_MIN_BYTES, are checked against the scalar rules by checkasm) */
    const int64_t sizes[] = {1, 37, 100003, ((int64_t)9 << 20) / 2 + 13};
    for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++)
        for (size_t s = 0; s < 4; s++) {
            tx_tensor *x = random_tensor(pairs[p].from, sizes[s]);
            same_at_levels(tx_cast, x, pairs[p].to);
            if (pairs[p].from == TX_FLOAT32 && pairs[p].to == TX_FLOAT16) {
                tx_tensor *y = random_tensor(TX_FLOAT32, sizes[s] * 2 + 1);
                same_at_levels(tx_saturate_cast, y, TX_UINT8);
                tx_tensor_free(y);
            }
            tx_tensor_free(x);
        }
}

static tx_status decode_le(const tx_tensor *x, tx_dtype t, tx_tensor **out) {
    return tx_decode_raw(x, t, 1, NULL, out);
}
static tx_status decode_be(const tx_tensor *x, tx_dtype t, tx_tensor **out) {
    return tx_decode_raw(x, t, 0, NULL, out);
}
static int64_t fixed_len;
static tx_status decode_be_fixed(const tx_tensor *x, tx_dtype t, tx_tensor **out) {
    return tx_decode_raw(x, t, 0, &fixed_len, out);
}

/* A string tensor of `count` strings of `len` bytes (random), or of lengths varying around len. */
static tx_tensor *random_strings(int64_t count, size_t len, bool vary) {
    char **s = malloc((size_t)count * sizeof *s);
    size_t *l = malloc((size_t)count * sizeof *l);
    assert_non_null(s);
    assert_non_null(l);
    for (int64_t i = 0; i < count; i++) {
        l[i] = vary ? len - (size_t)(rnd() % (len / 2 + 1)) + (size_t)(rnd() % 9) : len;
        s[i] = malloc(l[i] + 1);
        assert_non_null(s[i]);
        for (size_t k = 0; k < l[i]; k++) s[i][k] = (char)rnd();
    }
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new_strings(1, &count, (const char *const *)s, l, &t), TX_OK);
    for (int64_t i = 0; i < count; i++) free(s[i]);
    free(s);
    free(l);
    return t;
}

static void public_decode_raw_same_at_every_level(void **state) {
    (void)state;
    const tx_dtype types[] = {TX_INT16, TX_UINT16, TX_FLOAT16, TX_BFLOAT16, TX_INT32, TX_FLOAT32,
                              TX_INT64, TX_FLOAT64, TX_COMPLEX64, TX_COMPLEX128, TX_BOOL, TX_UINT8};
    /* one long string (split between threads inside it), many records, one record */
    tx_tensor *one = random_strings(1, ((size_t)9 << 20) + 4096 * 16, false);
    tx_tensor *recs = random_strings(20001, 64, false);
    tx_tensor *odd = random_strings(3, 48, false);
    tx_tensor *var = random_strings(5003, 40, true);
    /* rows of 24 bytes: the 2-thread split falls inside a row, next to padding and partial
     * elements */
    tx_tensor *var24 = random_strings(30001, 20, true);
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        same_at_levels(decode_le, one, types[t]);
        same_at_levels(decode_be, one, types[t]);
        same_at_levels(decode_be, recs, types[t]);
        same_at_levels(decode_be, odd, types[t]);
        if (types[t] != TX_COMPLEX64 && types[t] != TX_COMPLEX128 && types[t] != TX_BOOL) {
            for (fixed_len = 8; fixed_len <= 64; fixed_len += 56) /* truncation and padding */
                same_at_levels(decode_be_fixed, var, types[t]);
            fixed_len = 24;
            same_at_levels(decode_be_fixed, var24, types[t]);
        }
    }
    /* fixed_length 24, data in the order that is not the host's (big-endian on x86-64): each
     * string zero-padded or cut to 24 bytes, then each element reversed (checked directly, at 2
     * threads so a piece boundary falls inside a row) */
    tx_set_num_threads(2);
    const size_t widths[] = {2, 4, 8};
    const tx_dtype wtypes[] = {TX_INT16, TX_INT32, TX_INT64};
    for (int w = 0; w < 3; w++) {
        tx_tensor *o = NULL;
        int64_t fl = 24;
        assert_int_equal(tx_decode_raw(var24, wtypes[w], !TX_HOST_LITTLE_ENDIAN, &fl, &o), TX_OK);
        const unsigned char *d = tx_tensor_data(o);
        for (int64_t r = 0; r < 30001; r++) {
            const tx_string *e = tx_tensor_string(var24, r);
            unsigned char row[24] = {0};
            memcpy(row, e->data, e->size < 24 ? e->size : 24);
            for (size_t k = 0; k < 24; k++)
                assert_int_equal(d[r * 24 + (int64_t)k],
                                 row[k / widths[w] * widths[w] + widths[w] - 1 - k % widths[w]]);
        }
        tx_tensor_free(o);
    }
    tx_set_num_threads(0);
    /* the big-endian result is the byte-reversed little-endian one, element by element */
    tx_tensor *le = NULL, *be = NULL;
    assert_int_equal(tx_decode_raw(one, TX_COMPLEX128, 1, NULL, &le), TX_OK);
    assert_int_equal(tx_decode_raw(one, TX_COMPLEX128, 0, NULL, &be), TX_OK);
    const unsigned char *a = tx_tensor_data(le), *b = tx_tensor_data(be);
    for (size_t i = 0; i < tx_tensor_nbytes(le); i += 8 * 4099)
        for (size_t k = 0; k < 8; k++) assert_int_equal(a[i + k], b[i + 7 - k]);
    tx_tensor_free(le);
    tx_tensor_free(be);
    tx_tensor_free(one);
    tx_tensor_free(recs);
    tx_tensor_free(odd);
    tx_tensor_free(var);
    tx_tensor_free(var24);
}

/* ---- transpose ---- */

static tx_tensor *random_nd(tx_dtype dt, size_t rank, const int64_t *dims) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(dt, rank, dims, &t), TX_OK);
    fill_random(tx_tensor_data(t), tx_tensor_nbytes(t));
    return t;
}

static tx_tensor *perm_tensor(size_t rank, const int64_t *p) {
    return tu_i64(rank, p);
}

/* out == x transposed by perm, element by element (the levels share the executor's cuts, so
 * they are also checked against this). */
static void assert_transposed(const tx_tensor *x, const int64_t *perm, const tx_tensor *out) {
    const size_t r = tx_tensor_rank(x), w = tx_dtype_size(tx_tensor_dtype(x));
    const int64_t *d = tx_tensor_dims(x);
    int64_t in_stride[4], idx[4] = {0};
    in_stride[r - 1] = 1;
    for (size_t k = r - 1; k-- > 0;) in_stride[k] = in_stride[k + 1] * d[k + 1];
    const char *in = tx_tensor_data_const(x), *o = tx_tensor_data_const(out);
    for (int64_t e = 0, n = tx_tensor_numel(x); e < n; e++) { /* idx: output index of e */
        int64_t src = 0;
        for (size_t k = 0; k < r; k++) src += idx[k] * in_stride[perm[k]];
        if (memcmp(o + e * (int64_t)w, in + src * (int64_t)w, w) != 0)
            fail_msg("transpose: output element %lld differs", (long long)e);
        for (size_t k = r; k-- > 0;)
            if (++idx[k] < d[perm[k]]) break;
            else idx[k] = 0;
    }
}

/* Transposes x by perm with the CPU capped to scalar and at the default level, at `threads`
 * threads, and requires the same bytes. */
static void transpose_same_at_levels(const tx_tensor *x, const tx_tensor *perm, const int64_t *perm_list,
                                     int threads) {
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
    assert_transposed(x, perm_list, dflt);
    for (int l = TX_ISA_SCALAR; l <= (int)have; l++) tx_tensor_free(outs[l]);
    tx_tensor_free(dflt);
    tx_set_num_threads(0);
}

static void public_transpose_same_at_every_level(void **state) {
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
        {3, {2, 512, 1000}, {0, 2, 1}},    /* destination rows 2 KiB apart (stripes), a part stripe */
        {2, {8192, 40}, {1, 0}},           /* and a few columns */
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t d = 0; d < sizeof dts / sizeof *dts; d++) {
            tx_tensor *x = random_nd(dts[d], cases[c].rank, cases[c].dims);
            tx_tensor *p = perm_tensor(cases[c].rank, cases[c].perm);
            transpose_same_at_levels(x, p, cases[c].perm, 1);
            transpose_same_at_levels(x, p, cases[c].perm, 2);
            tx_tensor_free(x);
            tx_tensor_free(p);
        }
}

/* Run first.  Under TENSORX_CPU=scalar (the second ctest registration) the library starts at the
 * scalar level with the portable kernels installed (casts and transposes), and the ops give the
 * same bits as at the detected level once the cap is lifted.  Without the variable the default
 * is the detected level. */
static void env_level_then_default(void **state) {
    (void)state;
    const char *e = getenv("TENSORX_CPU");
    bool forced = e != NULL && strcmp(e, "scalar") == 0;
    assert_int_equal(tx_cpu_level(), forced ? TX_ISA_SCALAR : tx_cpu_detected_level());
    if (forced) {
        assert_ptr_equal(tx__kernels_get()->cast[TX__CP_F32_F16], tx__cast_f32_f16_scalar);
        assert_ptr_equal(tx__kernels_get()->transpose2d[2], tx__transpose2d_w4);
    }
    const tx_dtype from[] = {TX_FLOAT32, TX_FLOAT16, TX_FLOAT64, TX_UINT8};
    const tx_dtype to[] = {TX_FLOAT16, TX_FLOAT32, TX_FLOAT32, TX_FLOAT32};
    for (int p = 0; p < 4; p++) {
        tx_tensor *x = random_tensor(from[p], ((int64_t)5 << 20) + 3), *ref = NULL, *got = NULL;
        assert_int_equal(tx_cast(x, to[p], &ref), TX_OK); /* at the initial level */
        tx_set_cpu_mask((tx_isa_level)99);
        assert_int_equal(tx_cpu_level(), tx_cpu_detected_level());
        assert_int_equal(tx_cast(x, to[p], &got), TX_OK);
        assert_memory_equal(tx_tensor_data(got), tx_tensor_data(ref), tx_tensor_nbytes(ref));
        if (forced) tx_set_cpu_mask(TX_ISA_SCALAR);
        tx_tensor_free(x);
        tx_tensor_free(ref);
        tx_tensor_free(got);
    }
    tx_set_cpu_mask((tx_isa_level)99);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(env_level_then_default),
        cmocka_unit_test(public_casts_same_at_every_level),
        cmocka_unit_test(public_decode_raw_same_at_every_level),
        cmocka_unit_test(public_transpose_same_at_every_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
