/* SPDX-License-Identifier: Apache-2.0 */
/* cast_onnx.c -- the element loops of ONNX Cast's presets (tx_cast_in_mode's TX_CAST_ONNX):
 * float8 with saturate=1, float8_e8m0fnu with round_mode and saturate, and the rounding casts
 * to int4 / uint4 / int2 / uint2.  The rules are convert.h's; src/ops/cast.c chooses them and
 * reads the source into float64 (float32 for float8_e8m0fnu) a block at a time. */
#include "kernels/scalar/convert.h"

/* float8 with saturate=1: clamp to the dtype table's largest finite value, then the format's
 * ordinary rounding. */
static void f8_saturate(tx_dtype to, uint8_t *d, const double *s, int64_t n) {
    const double max = tx__dtype(to)->max_finite;
    for (int64_t i = 0; i < n; i++) {
        double v = tx__clamp_abs(s[i], max);
        switch (to) {
        case TX_FLOAT8_E4M3FN: d[i] = tx__f64_to_e4m3fn(v); break;
        case TX_FLOAT8_E5M2: d[i] = tx__f64_to_e5m2(v); break;
        case TX_FLOAT8_E4M3FNUZ: d[i] = tx__f64_to_fnuz(v, TX__E4M3FNUZ); break;
        default: d[i] = tx__f64_to_fnuz(v, TX__E5M2FNUZ); break; /* float8_e5m2fnuz */
        }
    }
}

/* int4 / uint4 / int2 / uint2: round to nearest even, clamp, then the low bits of the byte. */
static void int_round(tx_dtype to, uint8_t *d, const double *s, int64_t n) {
    int bits = to == TX_INT4 || to == TX_UINT4 ? 4 : 2;
    bool is_signed = to == TX_INT4 || to == TX_INT2;
    double hi = is_signed ? (double)((1 << (bits - 1)) - 1) : (double)((1 << bits) - 1);
    double lo = is_signed ? -hi - 1.0 : 0.0;
    uint8_t mask = (uint8_t)((1u << bits) - 1u);
    for (int64_t i = 0; i < n; i++)
        d[i] = (uint8_t)((uint64_t)tx__onnx_round_clamp(s[i], lo, hi) & mask);
}

void tx__onnx_convert(tx_dtype to, bool saturate, int round, void *dst, const void *src,
                      int64_t n) {
    uint8_t *d = dst;
    if (to == TX_FLOAT8_E8M0FNU) {
        const float *s = src;
        for (int64_t i = 0; i < n; i++) d[i] = tx__onnx_e8m0(s[i], saturate, round);
    } else if (to == TX_INT4 || to == TX_UINT4 || to == TX_INT2 || to == TX_UINT2) {
        int_round(to, d, src, n);
    } else {
        f8_saturate(to, d, src, n);
    }
}
