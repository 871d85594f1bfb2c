/* SPDX-License-Identifier: Apache-2.0 */
/* spatial.c -- TF's "space, batch and depth" ops and image patches: space_to_batch_nd,
 * batch_to_space_nd, their 4-D legacy forms space_to_batch and batch_to_space, space_to_depth,
 * depth_to_space (NHWC and NCHW; TF's DCR order and, as an ONNX preset, CRD) and
 * extract_image_patches (required_space_to_batch_paddings is in space_paddings.c).  Each op
 * validates its arguments in TF's order with TF's status categories, computes the output shape
 * with overflow checks and fills a plan, which its run function (the call's and the prepared op's, tensorx/prepared.h) executes in one pass: the
 * space/batch ops and patches through the routines of exec/spatial.c, space/depth as a
 * single strided copy (exec/copy.h) whose contiguous runs are block_size * depth elements in
 * NHWC, and a row kernel in NCHW.  All of them move bytes only, so every dtype works, strings
 * included (the call; a prepared op takes fixed-size dtypes). */
#include "ops/spatial.h"
#include "ops/gather.h"

#include <inttypes.h>

#include "exec/copy.h"
#include "exec/spatial.h"

/* ---- shared helpers ---------------------------------------------------------------------------- */

/* Declared in ops/spatial.h (required_space_to_batch_paddings, in space_paddings.c, shares them). */
tx_status tx__check_int_tensor(const char *op, const char *what, const tx_tensor *t) {
    TX_REQUIRE_TENSOR(op, t, what);
    TX_REQUIRE(t->dtype == TX_INT32 || t->dtype == TX_INT64, TX_UNIMPLEMENTED,
               "%s: %s must be int32 or int64, got %s", op, what, tx_dtype_name(t->dtype));
    return TX_OK;
}

tx_status tx__check_pairs(const char *op, const char *what, const tx_tensor *t, int64_t m) {
    TX_TRY(tx__check_int_tensor(op, what, t));
    if (t->rank != 2 || t->dims[0] != m || t->dims[1] != 2) {
        char buf[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT, "%s: %s must have shape [%" PRId64 ", 2], got %s", op,
                        what, m, tx__format_dims(buf, sizeof buf, t->rank, t->dims));
    }
    return TX_OK;
}

/* The end of every op here once its checks are done and its plan made: the prepared step, the
 * output (of the input's dtype and rank) and the run into it.  String outputs keep the input's
 * bytes. */
static tx_status emit(const char *op, const tx_tensor *input, const int64_t *dims, tx__run_fn run,
                      const void *plan, size_t plan_size, tx_tensor **out) {
    TX_TRY(tx__prepared_step(op, run, plan, plan_size, 1, &input, -1));
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, input->dtype, input->rank, dims, &o));
    tx_status st = run(plan, &(tx__run_io){(const char *[]){input->data}, &o->data});
    if (st == TX_OK) st = tx__share_strings(o, input);
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}

/* ---- space_to_batch_nd / batch_to_space_nd ------------------------------------------------------ */

/* block_shape and the [M, 2] paddings/crops, read once (TF copies them too, so that a caller
 * changing them concurrently cannot make the op index out of bounds). */
typedef struct sb_args {
    size_t m;
    int64_t block[TX_MAX_RANK];
    int64_t pairs[2 * TX_MAX_RANK];
} sb_args;

/* TF's argument shape rules of SpaceToBatchND / BatchToSpaceND (both kernels check the same). */
static tx_status read_sb_args(const char *op, const tx_tensor *input, const tx_tensor *block_shape,
                              const tx_tensor *pairs, const char *pairs_name, sb_args *a) {
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_TRY(tx__check_int_tensor(op, "block_shape", block_shape));
    TX_TRY(tx__check_int_tensor(op, pairs_name, pairs));
    TX_REQUIRE(block_shape->rank == 1, TX_INVALID_ARGUMENT,
               "%s: block_shape must be 1-D, got rank %zu", op, block_shape->rank);
    int64_t m = block_shape->dims[0];
    TX_REQUIRE(m < (int64_t)input->rank, TX_INVALID_ARGUMENT,
               "%s: input rank must be >= 1 + M = %" PRId64 " for a block_shape of %" PRId64
               " entries, got rank %zu", op, m + 1, m, input->rank);
    TX_TRY(tx__check_pairs(op, pairs_name, pairs, m));
    a->m = (size_t)m;
    for (int64_t i = 0; i < m; i++) {
        a->block[i] = tx__index_at(block_shape, i);
        a->pairs[2 * i] = tx__index_at(pairs, 2 * i);
        a->pairs[2 * i + 1] = tx__index_at(pairs, 2 * i + 1);
    }
    return TX_OK;
}

static tx_status check_blocks(const char *op, const sb_args *a, int64_t *nblocks) {
    int64_t p = 1;
    for (size_t k = 0; k < a->m; k++)
        TX_REQUIRE(a->block[k] >= 1, TX_INVALID_ARGUMENT,
                   "%s: block_shape[%zu] = %" PRId64 " must be >= 1", op, k, a->block[k]);
    for (size_t k = 0; k < a->m; k++)
        TX_REQUIRE(tx__mul_i64(p, a->block[k], &p), TX_INVALID_ARGUMENT,
                   "%s: the product of block_shape overflows int64", op);
    *nblocks = p;
    return TX_OK;
}

/* Kernel plan from the space-side tensor S ([batch, s_1..s_M] + remaining: `rank` dims `space` of
 * `dtype`) and the batch-side spatial sizes.  Leading spatial dims with block 1 and no
 * padding/cropping are folded into the batch and trailing ones into the contiguous cell, as TF
 * does, so copies get longer runs. */
static void make_plan(tx__space_batch_plan *p, tx_dtype dtype, size_t rank, const int64_t *space,
                      const int64_t *bsp, const sb_args *a) {
    size_t m = a->m, first = 0, last = m;
    while (first < m && a->block[first] == 1 && a->pairs[2 * first] == 0 &&
           a->pairs[2 * first + 1] == 0)
        first++;
    while (last > first && a->block[last - 1] == 1 && a->pairs[2 * (last - 1)] == 0 &&
           a->pairs[2 * (last - 1) + 1] == 0)
        last--;
    /* The folded dims (block 1, no padding) and the batch are dims of the non-empty output too
     * (times the block count for the batch), so their products are at most its size. */
    p->batch = tx__dims_product(space, 0, 1 + first);
    p->inner = (size_t)tx__dims_product(space, 1 + last, rank) * tx_dtype_size(dtype);
    p->m = last - first;
    for (size_t k = first; k < last; k++) {
        p->space[k - first] = space[1 + k];
        p->bsp[k - first] = bsp[k];
        p->block[k - first] = a->block[k];
        p->pad[k - first] = a->pairs[2 * k];
    }
}

/* The run half of the space/batch ops: one of the three routines of exec/spatial.c. */
typedef enum { SB_NOTHING, SB_TO_BATCH, SB_TO_SPACE, SB_CROP } sb_kind;
typedef struct sb_plan {
    sb_kind kind;
    union {
        tx__space_batch_plan box;
        tx__crop_plan crop;
    } u;
} sb_plan;

static tx_status sb_run(const void *plan, const tx__run_io *io) {
    const sb_plan *p = plan;
    switch (p->kind) {
    case SB_TO_BATCH: tx__space_to_batch_run(&p->u.box, io->in[0], io->out[0]); break;
    case SB_TO_SPACE: tx__batch_to_space_run(&p->u.box, io->in[0], io->out[0]); break;
    case SB_CROP: tx__batch_to_space_crop_run(&p->u.crop, io->in[0], io->out[0]); break;
    case SB_NOTHING: break;
    }
    return TX_OK;
}

static tx_status space_to_batch_core(const char *op, const tx_tensor *input, const sb_args *a,
                                     tx_tensor **out) {
    int64_t nblocks = 1, dims[TX_MAX_RANK];
    TX_TRY(check_blocks(op, a, &nblocks));
    TX_REQUIRE(tx__mul_i64(input->dims[0], nblocks, &dims[0]), TX_INVALID_ARGUMENT,
               "%s: output batch %" PRId64 " * %" PRId64 " overflows int64", op, input->dims[0],
               nblocks);
    for (size_t k = 0; k < a->m; k++) {
        int64_t ps = a->pairs[2 * k], pe = a->pairs[2 * k + 1], padded;
        TX_REQUIRE(ps >= 0 && pe >= 0, TX_INVALID_ARGUMENT,
                   "%s: paddings[%zu] = [%" PRId64 ", %" PRId64 "] must be non-negative", op, k,
                   ps, pe);
        TX_REQUIRE(tx__add_i64(input->dims[1 + k], ps, &padded) && tx__add_i64(padded, pe, &padded),
                   TX_INVALID_ARGUMENT, "%s: padded size of spatial dim %zu overflows int64", op,
                   k);
        TX_REQUIRE(padded % a->block[k] == 0, TX_INVALID_ARGUMENT,
                   "%s: padded size %" PRId64 " of spatial dim %zu (%" PRId64 " + %" PRId64
                   " + %" PRId64 ") is not divisible by block_shape[%zu] = %" PRId64, op, padded,
                   k, input->dims[1 + k], ps, pe, k, a->block[k]);
        dims[1 + k] = padded / a->block[k];
    }
    for (size_t d = 1 + a->m; d < input->rank; d++) dims[d] = input->dims[d];
    int64_t numel;
    TX_TRY(tx__check_output(op, input->dtype, input->rank, dims, &numel));
    sb_plan p; /* the union is filled only for the kind chosen */
    p.kind = SB_NOTHING;
    if (numel > 0) {
        p.kind = SB_TO_BATCH;
        make_plan(&p.u.box, input->dtype, input->rank, input->dims, dims + 1, a);
    }
    return emit(op, input, dims, sb_run, &p, sizeof p, out);
}

/* A crop pair inside TF's rule: 0 <= cs, 0 <= ce, cs + ce <= full. */
static bool crops_inside(int64_t cs, int64_t ce, int64_t full) {
    return cs >= 0 && ce >= 0 && cs <= full && ce <= full - cs;
}

/* The plan of batch_to_space with crops outside TF's rule, for a non-empty output of `dims`. */
static void make_crop_plan(tx__crop_plan *c, const tx_tensor *in, const int64_t *dims,
                           const int64_t *full, const sb_args *a, tx_oob_policy oob) {
    c->m = a->m;
    c->oob = oob;
    c->batch = dims[0];
    c->cells = tx__dims_product(dims, 0, 1 + a->m);
    /* the remaining dims are the input's and the output's, which has elements */
    c->inner = (size_t)tx__dims_product(dims, 1 + a->m, in->rank) * tx_dtype_size(in->dtype);
    for (size_t k = 0; k < a->m; k++) {
        c->in_sp[k] = in->dims[1 + k];
        c->out_sp[k] = dims[1 + k];
        c->block[k] = a->block[k];
        c->crop[k] = a->pairs[2 * k];
        c->full[k] = full[k];
    }
}

static tx_status batch_to_space_core(const char *op, const tx_tensor *input, const sb_args *a,
                                     tx_oob_policy oob, tx_tensor **out) {
    int64_t nblocks = 1, dims[TX_MAX_RANK], full[TX_MAX_RANK];
    TX_TRY(check_blocks(op, a, &nblocks));
    TX_REQUIRE(input->dims[0] % nblocks == 0, TX_INVALID_ARGUMENT,
               "%s: input batch %" PRId64 " is not divisible by the product of block_shape %" PRId64,
               op, input->dims[0], nblocks);
    dims[0] = input->dims[0] / nblocks;
    bool inside = true;
    for (size_t k = 0; k < a->m; k++) {
        int64_t cs = a->pairs[2 * k], ce = a->pairs[2 * k + 1];
        if (oob == TX_OOB_ERROR)
            TX_REQUIRE(cs >= 0 && ce >= 0, TX_INVALID_ARGUMENT,
                       "%s: crops[%zu] = [%" PRId64 ", %" PRId64 "] must be non-negative", op, k,
                       cs, ce);
        TX_REQUIRE(tx__mul_i64(input->dims[1 + k], a->block[k], &full[k]), TX_INVALID_ARGUMENT,
                   "%s: spatial dim %zu of size %" PRId64 " times block_shape[%zu] = %" PRId64
                   " overflows int64", op, k, input->dims[1 + k], k, a->block[k]);
        if (oob == TX_OOB_ERROR) {
            TX_REQUIRE(crops_inside(cs, ce, full[k]), TX_INVALID_ARGUMENT,
                       "%s: crops[%zu] = [%" PRId64 ", %" PRId64 "] are larger than spatial dim "
                       "%zu of size %" PRId64 " * %" PRId64 " = %" PRId64, op, k, cs, ce, k,
                       input->dims[1 + k], a->block[k], full[k]);
            dims[1 + k] = full[k] - cs - ce;
        } else { /* any crops: the output dim is max(0, full - cs - ce) */
            int64_t size;
            TX_REQUIRE(!__builtin_sub_overflow(full[k], cs, &size) &&
                           !__builtin_sub_overflow(size, ce, &size),
                       TX_INVALID_ARGUMENT,
                       "%s: crops[%zu] = [%" PRId64 ", %" PRId64 "]: the size of spatial dim %zu"
                       " overflows int64", op, k, cs, ce, k);
            dims[1 + k] = size > 0 ? size : 0;
            inside = inside && crops_inside(cs, ce, full[k]);
        }
    }
    for (size_t d = 1 + a->m; d < input->rank; d++) dims[d] = input->dims[d];
    /* Every check before the output exists, so a plan gives the same error (sizes.md). */
    bool nonempty = true;
    for (size_t d = 0; d < input->rank; d++) nonempty = nonempty && dims[d] > 0;
    for (size_t k = 0; nonempty && !inside && k < a->m; k++)
        TX_REQUIRE(full[k] != 0 || oob == TX_OOB_ZERO, TX_INVALID_ARGUMENT,
                   "%s: crops[%zu] = [%" PRId64 ", %" PRId64 "] select %" PRId64
                   " positions of spatial dim %zu, which is empty (size 0 * %" PRId64
                   "): oob=%s has nothing to take", op, k, a->pairs[2 * k], a->pairs[2 * k + 1],
                   dims[1 + k], k, a->block[k], tx__oob_name(oob));
    int64_t numel;
    TX_TRY(tx__check_output(op, input->dtype, input->rank, dims, &numel));
    sb_plan p; /* the union is filled only for the kind chosen */
    p.kind = SB_NOTHING;
    if (numel > 0 && inside) {
        p.kind = SB_TO_SPACE;
        make_plan(&p.u.box, input->dtype, input->rank, dims, input->dims + 1, a);
    } else if (numel > 0) {
        p.kind = SB_CROP;
        make_crop_plan(&p.u.crop, input, dims, full, a, oob);
    }
    return emit(op, input, dims, sb_run, &p, sizeof p, out);
}

tx_status tx_space_to_batch_nd(const tx_tensor *input, const tx_tensor *block_shape,
                               const tx_tensor *paddings, tx_tensor **out) {
    static const char *op = "space_to_batch_nd";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    sb_args a;
    TX_TRY(read_sb_args(op, input, block_shape, paddings, "paddings", &a));
    return space_to_batch_core(op, input, &a, out);
}

tx_status tx_batch_to_space_nd(const tx_tensor *input, const tx_tensor *block_shape,
                               const tx_tensor *crops, tx_tensor **out) {
    return tx_batch_to_space_nd_oob(input, block_shape, crops, TX_OOB_ERROR, out);
}

tx_status tx_batch_to_space_nd_oob(const tx_tensor *input, const tx_tensor *block_shape,
                                   const tx_tensor *crops, tx_oob_policy oob, tx_tensor **out) {
    static const char *op = "batch_to_space_nd";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(tx__check_oob(op, oob));
    sb_args a;
    TX_TRY(read_sb_args(op, input, block_shape, crops, "crops", &a));
    return batch_to_space_core(op, input, &a, oob, out);
}

/* The legacy ops: TF checks block_size > 1 when the kernel is built, then rank 4. */
static tx_status legacy_args(const char *op, const tx_tensor *input, const tx_tensor *pairs,
                             const char *pairs_name, int64_t block_size, sb_args *a) {
    TX_TRY(tx__check_int_tensor(op, pairs_name, pairs)); /* the op definition's dtypes come first */
    TX_REQUIRE(block_size > 1, TX_INVALID_ARGUMENT, "%s: block_size must be > 1, got %" PRId64, op,
               block_size);
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_REQUIRE(input->rank == 4, TX_INVALID_ARGUMENT, "%s: input must be 4-D, got rank %zu", op,
               input->rank);
    TX_TRY(tx__check_pairs(op, pairs_name, pairs, 2));
    a->m = 2;
    a->block[0] = a->block[1] = block_size;
    for (int64_t i = 0; i < 4; i++) a->pairs[i] = tx__index_at(pairs, i);
    return TX_OK;
}

tx_status tx_space_to_batch(const tx_tensor *input, const tx_tensor *paddings, int64_t block_size,
                            tx_tensor **out) {
    static const char *op = "space_to_batch";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    sb_args a;
    TX_TRY(legacy_args(op, input, paddings, "paddings", block_size, &a));
    return space_to_batch_core(op, input, &a, out);
}

tx_status tx_batch_to_space(const tx_tensor *input, const tx_tensor *crops, int64_t block_size,
                            tx_tensor **out) {
    return tx_batch_to_space_oob(input, crops, block_size, TX_OOB_ERROR, out);
}

tx_status tx_batch_to_space_oob(const tx_tensor *input, const tx_tensor *crops, int64_t block_size,
                                tx_oob_policy oob, tx_tensor **out) {
    static const char *op = "batch_to_space";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(tx__check_oob(op, oob));
    sb_args a;
    TX_TRY(legacy_args(op, input, crops, "crops", block_size, &a));
    return batch_to_space_core(op, input, &a, oob, out);
}

/* ---- space_to_depth / depth_to_space ------------------------------------------------------------ */

static tx_status check_depth_args(const char *op, const tx_tensor *input, int64_t block_size,
                                  tx_data_format fmt) {
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_REQUIRE(fmt == TX_FORMAT_NHWC || fmt == TX_FORMAT_NCHW || fmt == TX_FORMAT_NCHW_VECT_C,
               TX_INVALID_ARGUMENT, "%s: data_format %d is not NHWC (0), NCHW (1) or NCHW_VECT_C (2)",
               op, (int)fmt);
    TX_REQUIRE(block_size > 1, TX_INVALID_ARGUMENT, "%s: block_size must be > 1, got %" PRId64, op,
               block_size);
    /* TF runs NCHW_VECT_C (qint8 packed by 4, rank 5) on GPUs only. */
    TX_REQUIRE(fmt != TX_FORMAT_NCHW_VECT_C, TX_UNIMPLEMENTED,
               "%s: data_format NCHW_VECT_C is not supported (use NHWC or NCHW)", op);
    TX_REQUIRE(input->rank == 4, TX_INVALID_ARGUMENT, "%s: input must be 4-D, got rank %zu", op,
               input->rank);
    return TX_OK;
}

/* The run half of space_to_depth / depth_to_space: one strided copy of 6 dims, or, in NCHW DCR
 * into a contiguous output, the row routines of exec/spatial.c. */
typedef enum { DEPTH_NOTHING, DEPTH_COPY, DEPTH_ROWS_TO_DEPTH, DEPTH_ROWS_TO_SPACE } depth_kind;
typedef struct depth_plan {
    depth_kind kind;
    union {
        tx__copy_plan copy;
        tx__depth_nchw_plan rows;
    } u;
} depth_plan;

static tx_status depth_run(const void *plan, const tx__run_io *io) {
    const depth_plan *p = plan;
    switch (p->kind) {
    case DEPTH_COPY: tx__copy_plan_exec(&p->u.copy, io->out[0], io->in[0]); break;
    case DEPTH_ROWS_TO_DEPTH: tx__space_to_depth_nchw_run(&p->u.rows, io->in[0], io->out[0]); break;
    case DEPTH_ROWS_TO_SPACE: tx__depth_to_space_nchw_run(&p->u.rows, io->in[0], io->out[0]); break;
    case DEPTH_NOTHING: break;
    }
    return TX_OK;
}

/* a * b, or INT64_MAX past int64: that happens only for caller strides that the prepare then
 * refuses (a stride times its dim past int64), so such a plan never runs. */
static int64_t times(int64_t a, int64_t b) {
    int64_t r;
    return tx__mul_i64(a, b, &r) ? r : INT64_MAX;
}

/* A copy of 6 dims: dim d reads the input at src[d] elements a step and steps dst_mult[d] times
 * along output dim dst_dim[d]. */
typedef struct copy6 {
    int64_t dims[6];
    int dst_dim[6];
    int64_t dst_mult[6];
    int64_t src[6];
} copy6;

/* Plans c into the output of dims odims, laid out by the caller's byte strides ostr or
 * row-major.  Called for a non-empty output of the input's element count: the row-major strides
 * and the source strides, products of their dims, are at most its byte size. */
static void plan_copy6(depth_plan *p, const copy6 *c, size_t elem, const int64_t *odims,
                       const int64_t *ostr) {
    int64_t row_major[4], dst[6], src[6];
    if (ostr == NULL) {
        tx__contiguous_strides(4, odims, elem, row_major);
        ostr = row_major;
    }
    for (int d = 0; d < 6; d++) {
        dst[d] = times(c->dst_mult[d], ostr[c->dst_dim[d]]);
        src[d] = c->src[d] * (int64_t)elem;
    }
    p->kind = DEPTH_COPY;
    tx__copy_plan_make(&p->u.copy, 6, c->dims, dst, src, elem);
}

tx_status tx_space_to_depth(const tx_tensor *input, int64_t block_size, tx_data_format data_format,
                            tx_tensor **out) {
    static const char *op = "space_to_depth";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(check_depth_args(op, input, block_size, data_format));
    const bool nhwc = data_format == TX_FORMAT_NHWC;
    const int64_t bs = block_size, n = input->dims[0];
    const int64_t c = input->dims[nhwc ? 3 : 1], h = input->dims[nhwc ? 1 : 2],
                  w = input->dims[nhwc ? 2 : 3];
    TX_REQUIRE(h % bs == 0 && w % bs == 0, TX_INVALID_ARGUMENT,
               "%s: height %" PRId64 " and width %" PRId64 " must be divisible by block_size %" PRId64,
               op, h, w, bs);
    int64_t oc;
    TX_REQUIRE(tx__mul_i64(c, bs, &oc) && tx__mul_i64(oc, bs, &oc), TX_INVALID_ARGUMENT,
               "%s: output depth %" PRId64 " * %" PRId64 " * %" PRId64 " overflows int64", op, c,
               bs, bs);
    const int64_t oh = h / bs, ow = w / bs;
    int64_t odims[4] = {n, oh, ow, oc};
    if (!nhwc) odims[1] = oc, odims[2] = oh, odims[3] = ow;
    int64_t numel;
    TX_TRY(tx__check_output(op, input->dtype, 4, odims, &numel));
    const int64_t *ostr = tx__output_strides(0);
    const size_t elem = tx_dtype_size(input->dtype);
    depth_plan p; /* the union is filled only for the kind chosen */
    p.kind = DEPTH_NOTHING;
    if (numel > 0 && nhwc) {
        /* [n, oy, dy, ox, dx, k]: dx and k are contiguous on both sides, so every run is
         * block_size * depth elements. */
        copy6 cp = {{n, oh, bs, ow, bs, c}, {0, 1, 3, 2, 3, 3}, {1, 1, bs * c, 1, c, 1},
                    {h * w * c, bs * w * c, w * c, bs * c, c, 1}};
        plan_copy6(&p, &cp, elem, odims, ostr);
    } else if (numel > 0 && ostr != NULL) {
        /* [n, dy, dx, k, oy, ox]: depth channel (dy * bs + dx) * c + k */
        copy6 cp = {{n, bs, bs, c, oh, ow}, {0, 1, 1, 1, 2, 3}, {1, bs * c, c, 1, 1, 1},
                    {c * h * w, w, 1, h * w, bs * w, bs}};
        plan_copy6(&p, &cp, elem, odims, ostr);
    } else if (numel > 0) {
        p.kind = DEPTH_ROWS_TO_DEPTH;
        p.u.rows = (tx__depth_nchw_plan){n, c, oh, ow, bs, elem};
    }
    return emit(op, input, odims, depth_run, &p, sizeof p, out);
}

tx_status tx_depth_to_space(const tx_tensor *input, int64_t block_size, tx_data_format data_format,
                            tx_tensor **out) {
    return tx_depth_to_space_in_mode(input, block_size, data_format, TX_DEPTH_DCR, out);
}

tx_status tx_depth_to_space_in_mode(const tx_tensor *input, int64_t block_size,
                                    tx_data_format data_format, tx_depth_mode mode,
                                    tx_tensor **out) {
    static const char *op = "depth_to_space";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(check_depth_args(op, input, block_size, data_format));
    TX_REQUIRE(mode == TX_DEPTH_DCR || mode == TX_DEPTH_CRD, TX_INVALID_ARGUMENT,
               "%s: mode %d is not DCR (0) or CRD (1)", op, (int)mode);
    const bool nhwc = data_format == TX_FORMAT_NHWC;
    const int64_t bs = block_size, n = input->dims[0];
    const int64_t c = input->dims[nhwc ? 3 : 1], h = input->dims[nhwc ? 1 : 2],
                  w = input->dims[nhwc ? 2 : 3];
    int64_t bs2;
    /* A block_size * block_size past int64 divides only a depth of 0. */
    bool bs2_ok = tx__mul_i64(bs, bs, &bs2);
    TX_REQUIRE(bs2_ok ? c % bs2 == 0 : c == 0, TX_INVALID_ARGUMENT,
               "%s: depth %" PRId64 " must be divisible by block_size * block_size = %" PRId64
               " * %" PRId64, op, c, bs, bs);
    const int64_t oc = bs2_ok ? c / bs2 : 0;
    int64_t oh, ow;
    TX_REQUIRE(tx__mul_i64(h, bs, &oh) && tx__mul_i64(w, bs, &ow), TX_INVALID_ARGUMENT,
               "%s: output height %" PRId64 " * %" PRId64 " or width %" PRId64 " * %" PRId64
               " overflows int64", op, h, bs, w, bs);
    int64_t odims[4] = {n, oh, ow, oc};
    if (!nhwc) odims[1] = oc, odims[2] = oh, odims[3] = ow;
    int64_t numel;
    TX_TRY(tx__check_output(op, input->dtype, 4, odims, &numel));
    const int64_t *ostr = tx__output_strides(0);
    const size_t elem = tx_dtype_size(input->dtype);
    depth_plan p; /* the union is filled only for the kind chosen */
    p.kind = DEPTH_NOTHING;
    /* NHWC: [n, y, dy, x, dx, k]; NCHW: [n, k, y, dy, x, dx]. */
    static const int nhwc_dim[6] = {0, 1, 1, 2, 2, 3}, nchw_dim[6] = {0, 1, 2, 2, 3, 3};
    if (numel > 0 && mode == TX_DEPTH_CRD) {
        /* ONNX CRD: input channel k * bs * bs + dy * bs + dx, so k is the slowest of the three. */
        copy6 cp = nhwc ? (copy6){{n, h, bs, w, bs, oc}, {0}, {1, bs, 1, bs, 1, 1},
                                  {h * w * c, w * c, bs, c, 1, bs2}}
                        : (copy6){{n, oc, h, bs, w, bs}, {0}, {1, 1, bs, 1, bs, 1},
                                  {c * h * w, bs2 * h * w, w, bs * h * w, 1, h * w}};
        memcpy(cp.dst_dim, nhwc ? nhwc_dim : nchw_dim, sizeof cp.dst_dim);
        plan_copy6(&p, &cp, elem, odims, ostr);
    } else if (numel > 0 && (nhwc || ostr != NULL)) {
        /* DCR: input channel (dy * bs + dx) * oc + k; in NHWC, runs of bs * oc elements. */
        copy6 cp = nhwc ? (copy6){{n, h, bs, w, bs, oc}, {0}, {1, bs, 1, bs, 1, 1},
                                  {h * w * c, w * c, bs * oc, c, oc, 1}}
                        : (copy6){{n, oc, h, bs, w, bs}, {0}, {1, 1, bs, 1, bs, 1},
                                  {c * h * w, h * w, w, bs * oc * h * w, 1, oc * h * w}};
        memcpy(cp.dst_dim, nhwc ? nhwc_dim : nchw_dim, sizeof cp.dst_dim);
        plan_copy6(&p, &cp, elem, odims, ostr);
    } else if (numel > 0) {
        p.kind = DEPTH_ROWS_TO_SPACE;
        p.u.rows = (tx__depth_nchw_plan){n, oc, h, w, bs, elem};
    }
    return emit(op, input, odims, depth_run, &p, sizeof p, out);
}

/* ---- extract_image_patches ---------------------------------------------------------------------- */

/* TF reads each list as int32 (an entry outside int32 fails when the attribute is read), then its
 * kernel requires the batch and depth entries to be 1 (unimplemented) and the spatial ones >= 1
 * (out_of_range). */
static tx_status check_vec4(const char *op, const char *what, const int64_t *v, size_t n) {
    TX_REQUIRE(n == 4 && v != NULL, TX_INVALID_ARGUMENT, "%s: %s must have 4 entries, got %zu", op,
               what, v == NULL ? (size_t)0 : n);
    for (size_t i = 0; i < 4; i++)
        TX_REQUIRE(v[i] >= INT32_MIN && v[i] <= INT32_MAX, TX_INVALID_ARGUMENT,
                   "%s: %s[%zu] = %" PRId64 " does not fit int32", op, what, i, v[i]);
    TX_REQUIRE(v[0] == 1 && v[3] == 1, TX_UNIMPLEMENTED,
               "%s: %s = [%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "]: only [1, rows, cols,"
               " 1] is supported (patches are taken across space only)", op, what, v[0], v[1], v[2],
               v[3]);
    TX_REQUIRE(v[1] >= 1 && v[2] >= 1, TX_OUT_OF_RANGE,
               "%s: %s = [1, %" PRId64 ", %" PRId64 ", 1] is out of range: its spatial entries must"
               " be >= 1", op, what, v[1], v[2]);
    return TX_OK;
}

/* TF's GetWindowedOutputSize (kernel_shape_util.cc), with the dilated kernel size. */
static tx_status windowed_size(const char *op, const char *what, int64_t in, int64_t k, int64_t rate,
                               int64_t stride, tx_padding padding, int64_t *out_size,
                               int64_t *pad_before) {
    const int64_t keff = (k - 1) * rate + 1; /* k, rate <= INT32_MAX: no overflow */
    int64_t sz, num;
    *pad_before = 0;
    if (padding == TX_PADDING_VALID) {
        TX_REQUIRE(tx__add_i64(in - keff, stride, &num), TX_INVALID_ARGUMENT,
                   "%s: %s output size overflows int64", op, what);
        sz = num / stride; /* truncates toward zero, as TF's C++ does */
    } else {
        TX_REQUIRE(tx__add_i64(in, stride - 1, &num), TX_INVALID_ARGUMENT,
                   "%s: %s output size overflows int64", op, what);
        sz = num / stride;
        /* TF's (sz - 1) * stride + keff - in, summed so that it cannot pass int64 on the way:
         * in - (sz - 1) * stride is in [1, stride] (sz = ceil(in / stride), in >= 0). */
        int64_t needed = keff - (in - (sz - 1) * stride);
        *pad_before = needed > 0 ? needed / 2 : 0;
    }
    TX_REQUIRE(sz >= 0, TX_INVALID_ARGUMENT,
               "%s: computed output size would be negative: %" PRId64 " [%s input size: %" PRId64
               ", effective filter size: %" PRId64 ", stride: %" PRId64 "]", op, sz, what, in, keff,
               stride);
    *out_size = sz;
    return TX_OK;
}

/* The run half: the patches loop of exec/spatial.c, for an output with elements. */
typedef struct patches_plan {
    bool any;
    tx__patches_plan p;
} patches_plan;

static tx_status patches_run(const void *plan, const tx__run_io *io) {
    const patches_plan *pp = plan;
    if (pp->any) tx__extract_patches_run(&pp->p, io->in[0], io->out[0]);
    return TX_OK;
}

tx_status tx_extract_image_patches(const tx_tensor *images, const int64_t *ksizes, size_t n_ksizes,
                                   const int64_t *strides, size_t n_strides, const int64_t *rates,
                                   size_t n_rates, tx_padding padding, tx_tensor **out) {
    static const char *op = "extract_image_patches";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(check_vec4(op, "ksizes", ksizes, n_ksizes));
    TX_TRY(check_vec4(op, "strides", strides, n_strides));
    TX_TRY(check_vec4(op, "rates", rates, n_rates));
    TX_REQUIRE(padding == TX_PADDING_VALID || padding == TX_PADDING_SAME, TX_INVALID_ARGUMENT,
               "%s: padding %d is not VALID (1) or SAME (2)", op, (int)padding);
    TX_REQUIRE_TENSOR(op, images, "images");
    TX_REQUIRE(images->rank == 4, TX_INVALID_ARGUMENT, "%s: images must be 4-D, got rank %zu", op,
               images->rank);
    tx__patches_plan p;
    p.batch = images->dims[0];
    p.in_rows = images->dims[1];
    p.in_cols = images->dims[2];
    p.kr = ksizes[1], p.kc = ksizes[2];
    p.sr = strides[1], p.sc = strides[2];
    p.rr = rates[1], p.rc = rates[2];
    TX_TRY(windowed_size(op, "rows", p.in_rows, p.kr, p.rr, p.sr, padding, &p.out_rows, &p.pad_top));
    TX_TRY(windowed_size(op, "cols", p.in_cols, p.kc, p.rc, p.sc, padding, &p.out_cols,
                         &p.pad_left));
    int64_t depth = images->dims[3], odepth;
    TX_REQUIRE(tx__mul_i64(p.kr, p.kc, &odepth) && tx__mul_i64(odepth, depth, &odepth),
               TX_INVALID_ARGUMENT, "%s: output depth %" PRId64 " * %" PRId64 " * %" PRId64
               " overflows int64", op, p.kr, p.kc, depth);
    int64_t odims[4] = {p.batch, p.out_rows, p.out_cols, odepth}, numel;
    TX_TRY(tx__check_output(op, images->dtype, 4, odims, &numel));
    /* With output elements images has elements too (an empty dim gives 0 windows). */
    p.depth_bytes = numel > 0 ? (size_t)depth * tx_dtype_size(images->dtype) : 0;
    patches_plan pp = {.any = numel > 0, .p = p};
    return emit(op, images, odims, patches_run, &pp, sizeof pp, out);
}
