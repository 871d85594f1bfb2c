/* SPDX-License-Identifier: Apache-2.0 */
/* transpose_lanes_tmpl.h -- the in-lane transposes of the SIMD 2-D transpose kernels for one
 * register width: every 128-bit lane of a register transposed independently, so that each lane
 * of a wider register holds rows further down the plane (see x86/transpose_x86.h).  Included by
 * x86/transpose_x86.h for __m128i and __m256i and by x86/avx512/transpose.c for __m512i.  No
 * include guard: every inclusion defines two functions.  The includer defines:
 *     LANE_V              the register type (__m128i, __m256i, __m512i)
 *     LANE_OP(op)         the intrinsic `op` at that width: _mm_##op, _mm256_##op, _mm512_##op
 *     LANE_T16X16_U8      the name of the 16 x 16 byte transpose
 *     LANE_T8X8_U16       the name of the 8 x 8 word transpose
 * and this file #undefs them at its end.  It uses TP_INLINE of x86/transpose_x86.h. */

/* r[i] lane = 16 bytes of row i (i < 16) -> r[j] lane = 16 bytes of column j. */
TP_INLINE void LANE_T16X16_U8(LANE_V *r) {
    LANE_V t[16], u[16];
    for (int i = 0; i < 8; i++) {
        t[2 * i] = LANE_OP(unpacklo_epi8)(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = LANE_OP(unpackhi_epi8)(r[2 * i], r[2 * i + 1]);
    }
    /* u[4p + q]: rows 4p..4p+3, columns 4q..4q+3 */
    for (int p = 0; p < 4; p++)
        for (int h = 0; h < 2; h++) {
            u[4 * p + 2 * h] = LANE_OP(unpacklo_epi16)(t[4 * p + h], t[4 * p + 2 + h]);
            u[4 * p + 2 * h + 1] = LANE_OP(unpackhi_epi16)(t[4 * p + h], t[4 * p + 2 + h]);
        }
    /* t[8g + c]: rows 8g..8g+7, columns 2c, 2c+1 */
    for (int g = 0; g < 2; g++)
        for (int q = 0; q < 4; q++) {
            t[8 * g + 2 * q] = LANE_OP(unpacklo_epi32)(u[8 * g + q], u[8 * g + 4 + q]);
            t[8 * g + 2 * q + 1] = LANE_OP(unpackhi_epi32)(u[8 * g + q], u[8 * g + 4 + q]);
        }
    for (int c = 0; c < 8; c++) {
        r[2 * c] = LANE_OP(unpacklo_epi64)(t[c], t[8 + c]);
        r[2 * c + 1] = LANE_OP(unpackhi_epi64)(t[c], t[8 + c]);
    }
}

/* r[i] lane = 8 words of row i (i < 8) -> r[j] lane = 8 words of column j. */
TP_INLINE void LANE_T8X8_U16(LANE_V *r) {
    LANE_V t[8], u[8];
    for (int i = 0; i < 4; i++) {
        t[2 * i] = LANE_OP(unpacklo_epi16)(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = LANE_OP(unpackhi_epi16)(r[2 * i], r[2 * i + 1]);
    }
    /* u[4p + c]: rows 4p..4p+3, columns 2c, 2c+1 */
    for (int p = 0; p < 2; p++)
        for (int h = 0; h < 2; h++) {
            u[4 * p + 2 * h] = LANE_OP(unpacklo_epi32)(t[4 * p + h], t[4 * p + 2 + h]);
            u[4 * p + 2 * h + 1] = LANE_OP(unpackhi_epi32)(t[4 * p + h], t[4 * p + 2 + h]);
        }
    for (int c = 0; c < 4; c++) {
        r[2 * c] = LANE_OP(unpacklo_epi64)(u[c], u[4 + c]);
        r[2 * c + 1] = LANE_OP(unpackhi_epi64)(u[c], u[4 + c]);
    }
}

#undef LANE_V
#undef LANE_OP
#undef LANE_T16X16_U8
#undef LANE_T8X8_U16
