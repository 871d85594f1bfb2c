/* SPDX-License-Identifier: Apache-2.0 */
/* copy.c -- the portable versions of the copy kernels (kernels/copy.h): the dispatch table's
 * scalar entries, and the reference the SIMD versions are tested against. */
#include "kernels/copy.h"

#include <string.h>

void tx__bulk_copy_scalar(void *dst, const void *src, size_t n) { memcpy(dst, src, n); }

void tx__copy_runs_scalar(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss,
                          size_t width) {
    for (int64_t k = 0; k < n; k++) memcpy(dst + k * ds, src + k * ss, width);
}

#define REVERSED_SCALAR(W, T)                                                                    \
    void tx__copy_reversed_w##W##_scalar(char *dst, const char *src, int64_t n) {                \
        for (int64_t k = 0; k < n; k++) {                                                        \
            T v;                                                                                 \
            memcpy(&v, src - k * (W), sizeof v);                                                 \
            memcpy(dst + k * (W), &v, sizeof v);                                                 \
        }                                                                                        \
    }
typedef struct { uint64_t a, b; } u128;
REVERSED_SCALAR(1, uint8_t)
REVERSED_SCALAR(2, uint16_t)
REVERSED_SCALAR(4, uint32_t)
REVERSED_SCALAR(8, uint64_t)
REVERSED_SCALAR(16, u128)
