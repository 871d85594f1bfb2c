/* SPDX-License-Identifier: Apache-2.0 */
/* spatial.c -- the loops behind space_to_batch(_nd), batch_to_space(_nd) (with crops under the
 * oob policies too), NCHW space/depth and extract_image_patches (see spatial.h).  No validation and no allocation here.
 *
 * space/batch: for each block offset the cells of the batch tensor that map inside the space
 * tensor form a box (one index range per spatial dim), so each offset is one strided copy of
 * contiguous cells (the remaining dims are contiguous on both sides) plus, towards the batch
 * tensor, a zero fill of the rest of the slab by whole runs.  Each output byte is written once.
 *
 * patches: each output cell (b, r, c) is kr runs of kc * depth elements; the part of a run that
 * falls inside the image is one memcpy when rate_cols == 1 (else depth-sized pieces) and the
 * rest is zeroed. */
#include "exec/spatial.h"

#include "dispatch/dispatch.h"
#include "exec/copy.h"

/* ceil(x / b) for b > 0, clamped below at 0; written so that it cannot overflow. */
static int64_t ceil_div_pos(int64_t x, int64_t b) { return x <= 0 ? 0 : (x - 1) / b + 1; }

typedef struct sb_box {
    int64_t lo[TX_MAX_RANK], hi[TX_MAX_RANK];
    bool need[TX_MAX_RANK + 1]; /* some dim >= k has cells outside the box */
} sb_box;

/* Zeroes the cells of one batch-side slab (rooted at dim k) that lie outside the box. */
static void zero_outside(char *d, size_t k, size_t m, const sb_box *box, const int64_t *n,
                         const int64_t *stride) {
    if (k == m || !box->need[k]) return;
    int64_t lo = box->lo[k], hi = box->hi[k], st = stride[k];
    if (lo > 0) memset(d, 0, (size_t)(lo * st));
    if (hi < n[k]) memset(d + hi * st, 0, (size_t)((n[k] - hi) * st));
    if (k + 1 < m && box->need[k + 1])
        for (int64_t i = lo; i < hi; i++) zero_outside(d + i * st, k + 1, m, box, n, stride);
}

/* Bounds: T is non-empty when this runs, so batch >= 1; S's spatial sizes are each at most
 * bsp[k] * block[k] (the padded size), or 0, so every product here (strides, offsets, the block
 * count) is at most the byte size of T, or of S when S is the destination (then non-empty). */
static void space_batch(const tx__space_batch_plan *p, const char *src, char *dst, bool to_batch) {
    const size_t m = p->m;
    int64_t s_str[TX_MAX_RANK + 1], t_str[TX_MAX_RANK + 1];
    int64_t s = (int64_t)p->inner, t = (int64_t)p->inner, nblocks = 1;
    for (size_t k = m; k-- > 0;) {
        s_str[k + 1] = s;
        t_str[k + 1] = t;
        s *= p->space[k];
        t *= p->bsp[k];
        nblocks *= p->block[k];
    }
    s_str[0] = s;
    t_str[0] = t;

    sb_box box;
    int64_t off[TX_MAX_RANK] = {0};
    int64_t dims[TX_MAX_RANK], sst[TX_MAX_RANK], tst[TX_MAX_RANK];
    dims[0] = p->batch;
    sst[0] = s_str[0];
    tst[0] = t_str[0];
    for (size_t k = 0; k < m; k++) {
        sst[k + 1] = p->block[k] * s_str[k + 1];
        tst[k + 1] = t_str[k + 1];
    }
    for (int64_t oi = 0; oi < nblocks; oi++) {
        int64_t t_off = oi * p->batch * t_str[0], s_off = 0;
        bool empty = false;
        for (size_t k = 0; k < m; k++) {
            int64_t lo = ceil_div_pos(p->pad[k] - off[k], p->block[k]);
            int64_t hi = ceil_div_pos(p->space[k] + p->pad[k] - off[k], p->block[k]);
            if (hi > p->bsp[k]) hi = p->bsp[k];
            if (lo >= hi) {
                empty = true;
                lo = hi = 0;
            }
            box.lo[k] = lo;
            box.hi[k] = hi;
            dims[k + 1] = hi - lo;
        }
        if (!empty) {
            for (size_t k = 0; k < m; k++) {
                t_off += box.lo[k] * t_str[k + 1];
                s_off += (box.lo[k] * p->block[k] + off[k] - p->pad[k]) * s_str[k + 1];
            }
            if (to_batch)
                tx__copy_nd(dst + t_off, src + s_off, m + 1, dims, tst, sst, p->inner);
            else
                tx__copy_nd(dst + s_off, src + t_off, m + 1, dims, sst, tst, p->inner);
        }
        if (to_batch) {
            char *slab = dst + oi * p->batch * t_str[0];
            if (empty) {
                memset(slab, 0, (size_t)(p->batch * t_str[0]));
            } else {
                box.need[m] = false;
                for (size_t k = m; k-- > 0;)
                    box.need[k] = box.need[k + 1] || box.lo[k] > 0 || box.hi[k] < p->bsp[k];
                if (box.need[0])
                    for (int64_t b = 0; b < p->batch; b++)
                        zero_outside(slab + b * t_str[0], 0, m, &box, p->bsp, t_str + 1);
            }
        }
        /* Next block offset, row-major (the last spatial dim varies fastest). */
        for (size_t k = m; k-- > 0;) {
            if (++off[k] < p->block[k]) break;
            off[k] = 0;
        }
    }
}

void tx__space_to_batch_run(const tx__space_batch_plan *p, const char *space, char *batch) {
    space_batch(p, space, batch, true);
}

void tx__batch_to_space_run(const tx__space_batch_plan *p, const char *batch, char *space) {
    space_batch(p, batch, space, false);
}

/* Expanded position (block-expanded spatial index) that output position j of a dim reads under
 * `oob`, or -1 for a zero cell: j + cs, resolved by the policy when outside [0, full). */
static int64_t crop_source(int64_t j, int64_t cs, int64_t full, tx_oob_policy oob) {
    int64_t p;
    bool over = __builtin_add_overflow(j, cs, &p); /* j >= 0: only upwards */
    if (!over && p >= 0 && p < full) return p;
    switch (oob) {
    case TX_OOB_CLAMP: return over ? full - 1 : tx__clamp_index(p, full);
    case TX_OOB_WRAP: /* (j + cs) mod full without forming j + cs, which may overflow */
        return tx__wrap_index(tx__wrap_index(j, full) + tx__wrap_index(cs, full), full);
    default: return -1;
    }
}

/* Where output index j of dim k reads: block row *q and offset *r of its expanded position, or
 * *q = -1 for a zero cell. */
static void locate(const tx__crop_plan *p, size_t k, int64_t j, int64_t *q, int64_t *r) {
    int64_t pos = crop_source(j, p->crop[k], p->full[k], p->oob);
    *q = pos < 0 ? -1 : pos / p->block[k];
    *r = pos < 0 ? 0 : pos % p->block[k];
}

/* A plain per-cell loop: this is the rare path.  Each dim's position is resolved when its index
 * changes, so the run needs no table (and no allocation). */
void tx__batch_to_space_crop_run(const tx__crop_plan *p, const char *batch, char *space) {
    const size_t m = p->m;
    int64_t j[TX_MAX_RANK], q[TX_MAX_RANK], r[TX_MAX_RANK], b = 0;
    for (size_t k = 0; k < m; k++) {
        j[k] = 0;
        locate(p, k, 0, &q[k], &r[k]);
    }
    char *dst = space;
    for (int64_t cell = 0; cell < p->cells; cell++) {
        int64_t off = 0;
        bool zero = false;
        for (size_t k = 0; k < m && !zero; k++) {
            zero = q[k] < 0;
            off = off * p->block[k] + r[k];
        }
        if (zero) {
            memset(dst, 0, p->inner);
        } else { /* an input position in every dim, so the input has elements */
            int64_t src = off * p->batch + b;
            for (size_t k = 0; k < m; k++) src = src * p->in_sp[k] + q[k];
            memcpy(dst, batch + (size_t)src * p->inner, p->inner);
        }
        dst += p->inner;
        for (size_t k = m; k-- > 0;) { /* odometer over j, then b */
            if (++j[k] < p->out_sp[k]) {
                locate(p, k, j[k], &q[k], &r[k]);
                goto next;
            }
            j[k] = 0;
            locate(p, k, 0, &q[k], &r[k]);
        }
        b++;
    next:;
    }
}

static void depth_nchw(const tx__depth_nchw_plan *p, const char *src, char *dst, bool to_depth) {
    const int64_t e = (int64_t)p->elem, bs = p->bs, c = p->c, h = p->h, w = p->w;
    const int64_t srow = w * bs * e, drow = w * e; /* bytes of a space row / a depth row */
    const tx__kernels *K = tx__kernels_get();
    for (int64_t b = 0; b < p->n; b++)
        for (int64_t k = 0; k < c; k++)
            for (int64_t y = 0; y < h; y++)
                for (int64_t dy = 0; dy < bs; dy++) {
                    const int64_t so = ((b * c + k) * h * bs + y * bs + dy) * srow;
                    for (int64_t dx = 0; dx < bs; dx++) {
                        const int64_t dof = ((b * bs * bs + dy * bs + dx) * c + k) * h * drow + y * drow;
                        if (to_depth)
                            K->gather_strided(dst + dof, src + so + dx * e, w, bs * e, p->elem);
                        else
                            K->scatter_strided(dst + so + dx * e, src + dof, w, bs * e, p->elem);
                    }
                }
}

void tx__space_to_depth_nchw_run(const tx__depth_nchw_plan *p, const char *space, char *depth) {
    depth_nchw(p, space, depth, true);
}

void tx__depth_to_space_nchw_run(const tx__depth_nchw_plan *p, const char *depth, char *space) {
    depth_nchw(p, depth, space, false);
}

/* Sizes and offsets below are inside the input or the output, both non-empty, so bounded by
 * their byte sizes, except two sums that add a kernel reach (< 2^62: k and rate fit int32) to an
 * image position: they are checked, and past int64 they are past the image. */
void tx__extract_patches_run(const tx__patches_plan *p, const char *images, char *out) {
    const int64_t dep = (int64_t)p->depth_bytes;
    const int64_t run = p->kc * dep;     /* bytes of one (i, all j, all d) run */
    const int64_t cell = p->kr * run;    /* bytes of one output (b, r, c) */
    const int64_t in_row = p->in_cols * dep, in_img = p->in_rows * in_row;
    tx__strided_fn gather_strided = tx__kernels_get()->gather_strided;
    char *o = out;
    for (int64_t b = 0; b < p->batch; b++) {
        const char *img = images + b * in_img;
        for (int64_t r = 0; r < p->out_rows; r++) {
            const int64_t y0 = r * p->sr - p->pad_top;
            for (int64_t c = 0; c < p->out_cols; c++, o += cell) {
                /* Kernel columns j with 0 <= x0 + j * rc < in_cols. */
                const int64_t x0 = c * p->sc - p->pad_left;
                int64_t jlo = ceil_div_pos(-x0, p->rc), left; /* x0 >= -pad_left > -2^62 */
                if (__builtin_sub_overflow(p->in_cols, x0, &left)) left = INT64_MAX;
                int64_t jhi = ceil_div_pos(left, p->rc);
                if (jhi > p->kc) jhi = p->kc;
                if (jlo >= jhi) {
                    memset(o, 0, (size_t)cell);
                    continue;
                }
                for (int64_t i = 0; i < p->kr; i++) {
                    char *d = o + i * run;
                    int64_t y;
                    if (!tx__add_i64(y0, i * p->rr, &y) || y < 0 || y >= p->in_rows) {
                        memset(d, 0, (size_t)run);
                        continue;
                    }
                    if (jlo > 0) memset(d, 0, (size_t)(jlo * dep));
                    const char *s = img + y * in_row + (x0 + jlo * p->rc) * dep;
                    if (p->rc == 1)
                        memcpy(d + jlo * dep, s, (size_t)((jhi - jlo) * dep));
                    else
                        gather_strided(d + jlo * dep, s, jhi - jlo, p->rc * dep, p->depth_bytes);
                    if (jhi < p->kc) memset(d + jhi * dep, 0, (size_t)((p->kc - jhi) * dep));
                }
            }
        }
    }
}
