/* SPDX-License-Identifier: Apache-2.0 */
/* test_spatial_random.c -- space_to_batch_nd / batch_to_space_nd, extract_image_patches and
 * space_to_depth / depth_to_space on random shapes against naive per-element references. */
#include "spatial_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- naive references on random shapes --------------------------------------------------------- */

static uint64_t rng_state = 88172645463325252ULL;
static int64_t rnd(int64_t n) { /* [0, n) */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (int64_t)(rng_state % (uint64_t)n);
}

/* Row-major linear index of idx[0..rank) in dims. */
static int64_t lin(size_t rank, const int64_t *dims, const int64_t *idx) {
    int64_t l = 0;
    for (size_t i = 0; i < rank; i++) l = l * dims[i] + idx[i];
    return l;
}

static void test_space_batch_random(void **state) {
    (void)state;
    for (int iter = 0; iter < 400; iter++) {
        size_t m = (size_t)rnd(4), rest = (size_t)rnd(3), rank = 1 + m + rest;
        int64_t dims[8], block[4], pads[8], odims[8];
        dims[0] = rnd(3);
        int64_t nb = 1;
        for (size_t k = 0; k < m; k++) {
            block[k] = 1 + rnd(3);
            dims[1 + k] = rnd(5);
            pads[2 * k] = rnd(3);
            pads[2 * k + 1] = rnd(3);
            /* make the padded size divisible */
            int64_t tot = dims[1 + k] + pads[2 * k] + pads[2 * k + 1];
            pads[2 * k + 1] += (block[k] - tot % block[k]) % block[k];
            if (rnd(4) == 0) pads[2 * k] = pads[2 * k + 1] = 0, block[k] = 1;
            if (rnd(4) == 0) { /* no padding: pick a divisible size */
                pads[2 * k] = pads[2 * k + 1] = 0;
                dims[1 + k] = block[k] * rnd(3);
            }
            odims[1 + k] = (dims[1 + k] + pads[2 * k] + pads[2 * k + 1]) / block[k];
            nb *= block[k];
        }
        for (size_t d = 1 + m; d < rank; d++) dims[d] = odims[d] = rnd(4);
        odims[0] = dims[0] * nb;
        tx_tensor *x = iota(rank, dims), *bt = tu_i64(m, block), *pt = pairs((int64_t)m, pads);
        tx_tensor *o = NULL, *back = NULL;
        assert_int_equal(tx_space_to_batch_nd(x, bt, pt, &o), TX_OK);
        tu_assert_shape(o, TX_INT32, rank, odims);
        const int32_t *xv = tx_tensor_data(x), *ov = tx_tensor_data(o);
        int64_t idx[8], src[8];
        for (int64_t l = 0; l < tx_tensor_numel(o); l++) {
            int64_t r = l;
            for (size_t d = rank; d-- > 0;) idx[d] = r % odims[d], r /= odims[d];
            int64_t b = idx[0] % dims[0], oi = idx[0] / dims[0];
            bool inside = true;
            for (size_t k = m; k-- > 0;) {
                int64_t off = oi % block[k];
                oi /= block[k];
                src[1 + k] = idx[1 + k] * block[k] + off - pads[2 * k];
                if (src[1 + k] < 0 || src[1 + k] >= dims[1 + k]) inside = false;
            }
            src[0] = b;
            for (size_t d = 1 + m; d < rank; d++) src[d] = idx[d];
            int32_t want = inside ? xv[lin(rank, dims, src)] : 0;
            if (ov[l] != want) fail_msg("iter %d: element %lld: got %d want %d", iter, (long long)l, ov[l], want);
        }
        /* batch_to_space_nd with crops = paddings inverts it. */
        assert_int_equal(tx_batch_to_space_nd(o, bt, pt, &back), TX_OK);
        tu_assert_shape(back, TX_INT32, rank, dims);
        if (tx_tensor_numel(x)) assert_memory_equal(tx_tensor_data(back), xv, (size_t)tx_tensor_numel(x) * 4);
        tx_tensor_free(back);
        /* batch_to_space_nd of a random batch tensor against its own per-element reference. */
        if (dims[0] > 0) {
            tx_tensor *y = iota(rank, odims), *z = NULL;
            assert_int_equal(tx_batch_to_space_nd(y, bt, pt, &z), TX_OK);
            tu_assert_shape(z, TX_INT32, rank, dims);
            const int32_t *yv = tx_tensor_data(y), *zv = tx_tensor_data(z);
            for (int64_t l = 0; l < tx_tensor_numel(z); l++) {
                int64_t r = l;
                for (size_t d = rank; d-- > 0;) idx[d] = r % dims[d], r /= dims[d];
                int64_t oi = 0;
                for (size_t k = 0; k < m; k++) {
                    int64_t u = idx[1 + k] + pads[2 * k];
                    oi = oi * block[k] + u % block[k];
                    src[1 + k] = u / block[k];
                }
                src[0] = oi * dims[0] + idx[0];
                for (size_t d = 1 + m; d < rank; d++) src[d] = idx[d];
                assert_int_equal(zv[l], yv[lin(rank, odims, src)]);
            }
            tx_tensor_free(z);
            tx_tensor_free(y);
        }
        tx_tensor_free(o);
        tx_tensor_free(x);
        tx_tensor_free(bt);
        tx_tensor_free(pt);
    }
}

static void test_patches_random(void **state) {
    (void)state;
    for (int iter = 0; iter < 300; iter++) {
        int64_t B = rnd(3), R = rnd(7), C = rnd(7), D = 1 + rnd(3);
        int64_t kr = 1 + rnd(3), kc = 1 + rnd(3), sr = 1 + rnd(3), sc = 1 + rnd(3);
        int64_t rr = 1 + rnd(3), rc = 1 + rnd(3);
        tx_padding pad = rnd(2) ? TX_PADDING_SAME : TX_PADDING_VALID;
        tx_dtype dt = rnd(2) ? TX_INT32 : TX_INT8;
        tx_tensor *x = tu_tensor(dt, 4, TU_DIMS(B, R, C, D), NULL), *o = NULL;
        for (int64_t i = 0; i < tx_tensor_numel(x); i++) {
            if (dt == TX_INT32) ((int32_t *)tx_tensor_data(x))[i] = (int32_t)i + 1;
            else ((int8_t *)tx_tensor_data(x))[i] = (int8_t)(i % 100 + 1);
        }
        int64_t ker = (kr - 1) * rr + 1, kec = (kc - 1) * rc + 1, OR, OC, pt = 0, pl = 0;
        if (pad == TX_PADDING_VALID) {
            OR = (R - ker + sr) / sr;
            OC = (C - kec + sc) / sc;
        } else {
            OR = (R + sr - 1) / sr;
            OC = (C + sc - 1) / sc;
            int64_t nr = (OR - 1) * sr + ker - R, nc = (OC - 1) * sc + kec - C;
            pt = nr > 0 ? nr / 2 : 0;
            pl = nc > 0 ? nc / 2 : 0;
        }
        tx_status st = patches(x, kr, kc, sr, sc, rr, rc, pad, &o);
        if (OR < 0 || OC < 0) {
            tu_assert_error(st, TX_INVALID_ARGUMENT, "would be negative");
            tx_tensor_free(x);
            continue;
        }
        assert_int_equal(st, TX_OK);
        tu_assert_shape(o, dt, 4, TU_DIMS(B, OR, OC, kr * kc * D));
        for (int64_t b = 0; b < B; b++)
            for (int64_t r = 0; r < OR; r++)
                for (int64_t c = 0; c < OC; c++)
                    for (int64_t i = 0; i < kr; i++)
                        for (int64_t j = 0; j < kc; j++)
                            for (int64_t d = 0; d < D; d++) {
                                int64_t y = r * sr + i * rr - pt, xx = c * sc + j * rc - pl;
                                int64_t ol = ((b * OR + r) * OC + c) * kr * kc * D + (i * kc + j) * D + d;
                                int64_t il = ((b * R + y) * C + xx) * D + d;
                                bool in = y >= 0 && y < R && xx >= 0 && xx < C;
                                if (dt == TX_INT32)
                                    assert_int_equal(((int32_t *)tx_tensor_data(o))[ol],
                                                     in ? ((int32_t *)tx_tensor_data(x))[il] : 0);
                                else
                                    assert_int_equal(((int8_t *)tx_tensor_data(o))[ol],
                                                     in ? ((int8_t *)tx_tensor_data(x))[il] : 0);
                            }
        tx_tensor_free(o);
        tx_tensor_free(x);
    }
}

static void test_depth_random(void **state) {
    (void)state;
    const tx_dtype dts[] = {TX_INT8, TX_INT16, TX_INT32, TX_FLOAT64, TX_COMPLEX128, TX_BOOL};
    for (int iter = 0; iter < 200; iter++) {
        int64_t bs = 2 + rnd(3), N = rnd(3), H = bs * rnd(3), W = bs * rnd(3), C = 1 + rnd(3);
        tx_data_format f = rnd(2) ? TX_FORMAT_NCHW : TX_FORMAT_NHWC;
        tx_dtype dt = dts[rnd(6)];
        int64_t dims[4] = {N, H, W, C};
        if (f == TX_FORMAT_NCHW) dims[1] = C, dims[2] = H, dims[3] = W;
        tx_tensor *y = NULL, *z = NULL, *xt = NULL;
        assert_int_equal(tx_tensor_new(dt, 4, dims, &xt), TX_OK);
        unsigned char *bytes = tx_tensor_data(xt);
        for (size_t i = 0; i < tx_tensor_nbytes(xt); i++) bytes[i] = (unsigned char)(dt == TX_BOOL ? rnd(2) : rnd(256));
        assert_int_equal(tx_space_to_depth(xt, bs, f, &y), TX_OK);
        int64_t want[4] = {N, H / bs, W / bs, C * bs * bs};
        if (f == TX_FORMAT_NCHW) want[1] = C * bs * bs, want[2] = H / bs, want[3] = W / bs;
        tu_assert_shape(y, dt, 4, want);
        /* NHWC: check one element formula; both formats: depth_to_space inverts. */
        if (f == TX_FORMAT_NHWC && tx_tensor_numel(y) > 0) {
            size_t e = tx_dtype_size(dt);
            int64_t n = rnd(N), oy = rnd(H / bs), ox = rnd(W / bs), dy = rnd(bs), dx = rnd(bs), k = rnd(C);
            int64_t ol = ((n * (H / bs) + oy) * (W / bs) + ox) * C * bs * bs + (dy * bs + dx) * C + k;
            int64_t il = ((n * H + oy * bs + dy) * W + ox * bs + dx) * C + k;
            assert_memory_equal((char *)tx_tensor_data(y) + ol * (int64_t)e, bytes + il * (int64_t)e, e);
        }
        assert_int_equal(tx_depth_to_space(y, bs, f, &z), TX_OK);
        tu_assert_shape(z, dt, 4, dims);
        if (tx_tensor_nbytes(xt)) assert_memory_equal(tx_tensor_data(z), bytes, tx_tensor_nbytes(xt));
        tx_tensor_free(y);
        tx_tensor_free(z);
        tx_tensor_free(xt);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_space_batch_random),  cmocka_unit_test(test_patches_random),
        cmocka_unit_test(test_depth_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
