/* SPDX-License-Identifier: Apache-2.0 */
/* spatial.h -- the executors of the space/batch/depth family and of extract_image_patches, planned
 * and validated by src/ops/spatial.c: space_to_batch(_nd) and batch_to_space(_nd) share a box copy
 * over the generic N-d copy (crops outside TF's rule: a per-cell loop), NCHW space/depth has a row
 * routine, extract_image_patches its own loop.  space_to_depth and depth_to_space in NHWC need none (one strided copy each). */
#ifndef TX_EXEC_SPATIAL_H
#define TX_EXEC_SPATIAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/internal.h"

/* The relation between a "space" tensor S of shape [batch, space[0..m), inner bytes] and a
 * "batch" tensor T of shape [prod(block) * batch, bsp[0..m), inner bytes]:
 *   T[o * batch + b, p[0..m)] == S[b, p[k] * block[k] + off[k] - pad[k] ...]
 * where o is the row-major index of the block offsets off[k] in [0, block[k]), and a T cell whose
 * S position falls outside S is padding.  pad is paddings[:, 0] for space_to_batch and
 * crops[:, 0] for batch_to_space.  The op has checked every size and calls these only for a
 * non-empty destination (the source may be empty: a zero-size spatial dim padded up to a block). */
typedef struct tx__space_batch_plan {
    size_t m;
    int64_t batch;               /* S's batch */
    size_t inner;                /* bytes of one cell (remaining dims times the element size) */
    int64_t space[TX_MAX_RANK];  /* S's spatial sizes */
    int64_t bsp[TX_MAX_RANK];    /* T's spatial sizes */
    int64_t block[TX_MAX_RANK];
    int64_t pad[TX_MAX_RANK];
} tx__space_batch_plan;

/* S -> T: every T cell is written, padding cells with zero bytes. */
TX_HIDDEN void tx__space_to_batch_run(const tx__space_batch_plan *p, const char *space,
                                      char *batch);
/* T -> S: every S cell is written once (cropped T cells are skipped). */
TX_HIDDEN void tx__batch_to_space_run(const tx__space_batch_plan *p, const char *batch,
                                      char *space);

/* batch_to_space with crops outside TF's rule (the zero/clamp/wrap policies of tx_oob_policy):
 * output cell (b, j[0..m)) reads input batch off * batch + b at spatial p[k] / block[k], where
 * p[k] is j[k] + crop[k] resolved by the policy when outside [0, full[k]) and off the row-major
 * index of the p[k] % block[k]; a cell with a position outside under TX_OOB_ZERO is zero bytes.
 * The op has checked every size, and that full[k] > 0 for clamp and wrap; it calls this only for
 * a non-empty output. */
typedef struct tx__crop_plan {
    size_t m;
    tx_oob_policy oob;
    int64_t batch;                /* the output's batch */
    int64_t cells;                /* the output's cells: batch times its spatial sizes */
    size_t inner;                 /* bytes of one cell */
    int64_t in_sp[TX_MAX_RANK];   /* the input's spatial sizes */
    int64_t out_sp[TX_MAX_RANK];  /* the output's spatial sizes */
    int64_t block[TX_MAX_RANK];
    int64_t crop[TX_MAX_RANK];    /* crops[:, 0] */
    int64_t full[TX_MAX_RANK];    /* in_sp[k] * block[k], the block-expanded size */
} tx__crop_plan;

TX_HIDDEN void tx__batch_to_space_crop_run(const tx__crop_plan *p, const char *batch,
                                           char *space);

/* space_to_depth / depth_to_space in NCHW.  The space side is [n, c, h * bs, w * bs], the depth
 * side [n, bs * bs * c, h, w]; depth channel (dy * bs + dx) * c + k holds space[.., k, y * bs + dy,
 * x * bs + dx].  Each space row is split into (or woven from) bs depth rows while it is in cache,
 * so both tensors stream through memory once. */
typedef struct tx__depth_nchw_plan {
    int64_t n, c, h, w, bs;
    size_t elem;
} tx__depth_nchw_plan;

TX_HIDDEN void tx__space_to_depth_nchw_run(const tx__depth_nchw_plan *p, const char *space,
                                           char *depth);
TX_HIDDEN void tx__depth_to_space_nchw_run(const tx__depth_nchw_plan *p, const char *depth,
                                           char *space);

/* extract_image_patches on [batch, in_rows, in_cols, depth] -> [batch, out_rows, out_cols,
 * kr * kc * depth]; cells outside the image are zero bytes. */
typedef struct tx__patches_plan {
    int64_t batch, in_rows, in_cols, out_rows, out_cols;
    int64_t kr, kc, sr, sc, rr, rc, pad_top, pad_left;
    size_t depth_bytes; /* depth * element size (> 0) */
} tx__patches_plan;

TX_HIDDEN void tx__extract_patches_run(const tx__patches_plan *p, const char *images, char *out);

#endif
