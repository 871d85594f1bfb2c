/* SPDX-License-Identifier: Apache-2.0 */
/* dispatch.c -- fills one struct tx__kernels per instruction-set level, once (pthread_once): the
 * scalar kernels, then the AVX2 overrides, then the AVX-512 ones, each only if the CPU has the
 * level.  tx__kernels_get() returns the table of the level in use, so tx_set_cpu_mask() takes
 * effect for every op started afterwards without refilling anything. */
#include "dispatch/dispatch.h"

#include <pthread.h>

#include "dispatch/cpu.h"

static pthread_once_t fill_once = PTHREAD_ONCE_INIT;
static tx__kernels tables[TX_ISA_AVX512 + 1];

static void fill_scalar(tx__kernels *k) {
    k->level = TX_ISA_SCALAR;
    k->bulk_copy = tx__bulk_copy_scalar;
    k->copy_runs_stream = tx__copy_runs_scalar;
    k->copy_reversed[0] = tx__copy_reversed_w1_scalar;
    k->copy_reversed[1] = tx__copy_reversed_w2_scalar;
    k->copy_reversed[2] = tx__copy_reversed_w4_scalar;
    k->copy_reversed[3] = tx__copy_reversed_w8_scalar;
    k->copy_reversed[4] = tx__copy_reversed_w16_scalar;
    for (int w = 0; w < TX_NUM_WIDTHS; w++) k->copy_reversed_stream[w] = k->copy_reversed[w];
    k->transpose2d[0] = tx__transpose2d_w1;
    k->transpose2d[1] = tx__transpose2d_w2;
    k->transpose2d[2] = tx__transpose2d_w4;
    k->transpose2d[3] = tx__transpose2d_w8;
    k->transpose2d[4] = tx__transpose2d_w16;
    k->cast = tx__cast_simd_scalar;
    k->probe32 = tx__probe32_scalar;
}

#ifdef TX_HAVE_X86_SIMD
static void fill_avx2(tx__kernels *k) {
    k->level = TX_ISA_AVX2;
    k->bulk_copy = tx__bulk_copy_avx2;
    k->copy_runs_stream = tx__copy_runs_stream_avx2;
    k->copy_reversed[0] = tx__copy_reversed_w1_avx2;
    k->copy_reversed[1] = tx__copy_reversed_w2_avx2;
    k->copy_reversed[2] = tx__copy_reversed_w4_avx2;
    k->copy_reversed[3] = tx__copy_reversed_w8_avx2;
    k->copy_reversed[4] = tx__copy_reversed_w16_avx2;
    k->copy_reversed_stream[0] = tx__copy_reversed_stream_w1_avx2;
    k->copy_reversed_stream[1] = tx__copy_reversed_stream_w2_avx2;
    k->copy_reversed_stream[2] = tx__copy_reversed_stream_w4_avx2;
    k->copy_reversed_stream[3] = tx__copy_reversed_stream_w8_avx2;
    k->copy_reversed_stream[4] = tx__copy_reversed_stream_w16_avx2;
    k->transpose2d[0] = tx__transpose2d_w1_avx2;
    k->transpose2d[1] = tx__transpose2d_w2_avx2;
    k->transpose2d[2] = tx__transpose2d_w4_avx2;
    k->transpose2d[3] = tx__transpose2d_w8_avx2;
    k->transpose2d[4] = tx__transpose2d_w16_avx2;
    k->cast = tx__cast_simd_avx2;
}

static void fill_avx512(tx__kernels *k) {
    k->level = TX_ISA_AVX512;
    k->bulk_copy = tx__bulk_copy_avx512;
    k->copy_runs_stream = tx__copy_runs_stream_avx512;
    k->copy_reversed[0] = tx__copy_reversed_w1_avx512;
    k->copy_reversed[1] = tx__copy_reversed_w2_avx512;
    k->copy_reversed[2] = tx__copy_reversed_w4_avx512;
    k->copy_reversed[3] = tx__copy_reversed_w8_avx512;
    k->copy_reversed_stream[0] = tx__copy_reversed_stream_w1_avx512;
    k->copy_reversed_stream[1] = tx__copy_reversed_stream_w2_avx512;
    k->copy_reversed_stream[2] = tx__copy_reversed_stream_w4_avx512;
    k->copy_reversed_stream[3] = tx__copy_reversed_stream_w8_avx512;
    k->transpose2d[0] = tx__transpose2d_w1_avx512;
    k->transpose2d[1] = tx__transpose2d_w2_avx512;
    k->transpose2d[2] = tx__transpose2d_w4_avx512;
    k->transpose2d[3] = tx__transpose2d_w8_avx512;
    k->transpose2d[4] = tx__transpose2d_w16_avx512;
    k->cast = tx__cast_simd_avx512;
    k->probe32 = tx__probe32_avx512;
}
#endif

static void fill_all(void) {
    tx_isa_level have = tx__cpu_detect();
    for (int lv = TX_ISA_SCALAR; lv <= TX_ISA_AVX512; lv++) {
        tx__kernels *k = &tables[lv];
        fill_scalar(k);
#ifdef TX_HAVE_X86_SIMD
        if (lv >= TX_ISA_AVX2 && have >= TX_ISA_AVX2) fill_avx2(k);
        if (lv >= TX_ISA_AVX512 && have >= TX_ISA_AVX512) fill_avx512(k);
#else
        (void)have;
#endif
    }
}

const tx__kernels *tx__kernels_at(tx_isa_level level) {
    pthread_once(&fill_once, fill_all);
    int lv = (int)level;
    if (lv < TX_ISA_SCALAR) lv = TX_ISA_SCALAR;
    if (lv > (int)tx__cpu_detect()) lv = (int)tx__cpu_detect();
    return &tables[lv];
}

const tx__kernels *tx__kernels_get(void) { return tx__kernels_at(tx__cpu_active()); }
