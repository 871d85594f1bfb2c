/* SPDX-License-Identifier: Apache-2.0 */
/* dispatch.h -- the table of kernels chosen for the CPU (struct tx__kernels), filled once per
 * instruction-set level with the portable kernels first and then each SIMD level's overrides
 * (dav1d's pattern).  Ops fetch the table with tx__kernels_get().  A kernel is a line in its
 * family's list (kernels/<family>.inc); a new kind of kernel is a field here and a put_<slot> in
 * dispatch.c (docs/kernels.md). */
#ifndef TX_DISPATCH_DISPATCH_H
#define TX_DISPATCH_DISPATCH_H

#include "core/internal.h"
#include "kernels/copy.h"
#include "kernels/transpose.h"
#include "kernels/cast.h"
#include "kernels/gather.h"
#include "kernels/hash_probe.h"

/* Index of an element width in the per-width arrays below (1, 2, 4, 8, 16 -> 0..4); -1 otherwise. */
static inline int tx__width_index(size_t width) {
    switch (width) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    }
    return -1;
}
#define TX_NUM_WIDTHS 5

typedef struct tx__kernels {
    tx_isa_level level;                           /* the level this table was filled for */
    tx__bulk_copy_fn bulk_copy;                   /* large contiguous copies, streaming stores */
    tx__runs_copy_fn copy_runs_stream;            /* strided runs of >= 64 bytes, streaming stores */
    tx__reverse_fn copy_reversed[TX_NUM_WIDTHS];  /* dst[k] = src[-k], by element width */
    tx__reverse_fn copy_reversed_stream[TX_NUM_WIDTHS]; /* the same with streaming stores */
    tx__transpose2d_fn transpose2d[TX_NUM_WIDTHS]; /* 2-D transposes, by element width */
    tx__cast_fn cast[TX__CP_COUNT];               /* the hot cast pairs, by tx__cast_pair */
    tx__cast_fn cast_stream[TX__CP_COUNT];        /* the same with streaming stores */
    tx__cast_fn byteswap[TX__SWAP_WIDTHS];        /* decode_raw's byte swaps, by tx__swap_index */
    tx__cast_fn byteswap_stream[TX__SWAP_WIDTHS]; /* the same with streaming stores */
    tx__probe32_fn probe32;                       /* unique's hash lookups, keys of <= 4 bytes */
    tx__gather_fn gather;                         /* the gather family (kernels/gather.h) */
    tx__gather_nd_fn gather_nd;
    tx__partition_fn partition;
    tx__stitch_fn stitch;
    tx__mask_fn mask;
    tx__fill_fn fill;
    tx__one_hot_fn one_hot;
    tx__strided_fn gather_strided;                /* strided elements to contiguous ones */
    tx__strided_fn scatter_strided;               /* contiguous elements to strided ones */
} tx__kernels;

/* The table for the level in use (tx_cpu_level()). */
TX_HIDDEN const tx__kernels *tx__kernels_get(void);
/* The table of the highest level the CPU has at or below `level` (tx__cpu_best_at_most), for
 * tests and benchmarks. */
TX_HIDDEN const tx__kernels *tx__kernels_at(tx_isa_level level);

#endif
