/* SPDX-License-Identifier: Apache-2.0 */
/* cast.c -- TF's casting ops on numeric tensors: cast, saturate_cast, to_double, to_float,
 * to_bfloat16, to_int32, to_int64 and bitcast.  The element rules live in
 * src/kernels/scalar/convert.h and the loops in src/kernels/scalar/cast.c; this file validates,
 * allocates and plans.  bitcast returns a view of the input's buffer. */
#include "core/internal.h"
#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "exec/pool.h"
#include "kernels/scalar/convert.h"
#include "ops/cast.h"
#include "ops/shapes.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

static tx_status check_dtype(const char *op, const char *what, tx_dtype t) {
    TX_REQUIRE(tx__dtype(t) != NULL, TX_INVALID_ARGUMENT, "%s: %s %d is not a dtype", op, what,
               (int)t);
    return TX_OK;
}

/* Same-dtype string cast: TF returns the input itself; tensorx returns an owned copy of the
 * records that keeps the input's bytes alive.  (Numeric same-dtype casts go through the copy
 * kernels of the cast table.) */
static tx_status copy_tensor(const char *op, const tx_tensor *x, tx_tensor **out) {
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, x->dtype, x->rank, x->dims, &t));
    if (x->nbytes) memcpy(t->data, x->data, x->nbytes);
    tx_status st = tx__share_strings(t, x);
    if (st != TX_OK) {
        tx_tensor_free(t);
        return st;
    }
    *out = t;
    return TX_OK;
}


/* Elements per grain for element sizes a and b.  The sizes are powers of two (1-16 bytes), so a
 * shift: a 64-bit division was the costliest instruction of a small cast's own code. */
static int64_t grain_for(size_t a, size_t b) {
    const size_t m = a > b ? a : b;
    int64_t g = (m & (m - 1)) == 0 ? TX_GRAIN_BYTES >> __builtin_ctzll(m)
                                   : TX_GRAIN_BYTES / (int64_t)m;
    return g > 0 ? g : 1;
}

/* ---- the run half: every numeric cast is one of three loops ---------------------------------
 * The kernels are chosen when the call is checked (at prepare time for a prepared cast: the CPU
 * level and the streaming-store threshold as they were then), and a run converts numel elements
 * over the same static split.
 * In place: a cast between dtypes of one size may write x's own memory, since every loop reads
 * elements [i, i + k) before it writes them and never reads them again.  Checked for each
 * kernel a same-size pair can reach: the portable loops (kernels/scalar/cast.c: d[i] from s[i],
 * identity casts by memmove), the AVX2, AVX-512 and NEON float32 <-> int32 kernels (each vector
 * or masked tail loaded, then stored to the same lanes; scalar heads and tails one element at a
 * time; no overlapping last vector), and the scratch loops below (a block is read into the
 * scratch before its part of the output is written). */
typedef enum cast_loop {
    LOOP_KERNEL,   /* fn: x -> y */
    LOOP_SATURATE, /* extract: x -> scratch, clamp in the scratch, fn: scratch -> y */
    LOOP_ONNX      /* fn: x -> scratch, then the preset's rule into y (1-byte targets) */
} cast_loop;

typedef struct cast_plan {
    cast_loop loop;
    int64_t numel, grain;
    size_t dst_size, src_size;
    tx__cast_fn fn, extract;
    tx_dtype real;             /* SATURATE: the element type clamped in the scratch */
    int64_t parts, block;      /* SATURATE: reals per scratch element; scratch elements per block */
    tx__clamp_bounds bounds;   /* SATURATE */
    tx_dtype to;               /* ONNX: the target */
    bool saturate;             /* ONNX: ONNX's saturate */
    int round;                 /* ONNX: the float8_e8m0fnu rounding */
    size_t mid_size;           /* ONNX: the scratch's element size */
    /* A prepared run into the caller's output strides: rows of `inner` elements (the last dim),
     * element i of a row at inner_stride * i, row r at the outer dims' strides. */
    bool strided;
    int64_t rows, inner, inner_stride;
    size_t outer_rank;
    bool checked;              /* checked mode: then the check, which reads x after the cast */
    /* The arrays last (6 KB at TX_MAX_RANK): plan_clear leaves them, set only where used, since
     * clearing them would cost a small cast's time. */
    tx__check_spec check;
    int64_t outer_dims[TX_MAX_RANK], outer_strides[TX_MAX_RANK];
} cast_plan;

/* Every member of p before its arrays zero (NULL kernels, no check, no strides), then loop. */
static void plan_clear(cast_plan *p, cast_loop loop) {
    memset(p, 0, offsetof(cast_plan, check.dims));
    p->loop = loop;
}

typedef struct cast_job {
    const cast_plan *p;
    char *dst;
    const char *src;
} cast_job;

static void kernel_piece(void *ctx, int64_t begin, int64_t end) {
    const cast_job *j = ctx;
    const cast_plan *p = j->p;
    p->fn(j->dst + (size_t)begin * p->dst_size, j->src + (size_t)begin * p->src_size, end - begin);
}

/* n contiguous elements from src to dst by each loop. */
static void convert_kernel(const cast_plan *p, char *dst, const char *src, int64_t n) {
    p->fn(dst, src, n);
}

static void convert_saturate(const cast_plan *p, char *dst, const char *src, int64_t n) {
    _Alignas(16) unsigned char scratch[TX_SATURATE_BLOCK_BYTES];
    for (int64_t i = 0; i < n; i += p->block) {
        int64_t k = n - i < p->block ? n - i : p->block;
        p->extract(scratch, src + (size_t)i * p->src_size, k);
        tx__clamp_real(p->real, scratch, k * p->parts, &p->bounds);
        p->fn(dst + (size_t)i * p->dst_size, scratch, k);
    }
}

static void convert_onnx(const cast_plan *p, char *dst, const char *src, int64_t n) {
    _Alignas(16) unsigned char scratch[TX_SATURATE_BLOCK_BYTES];
    const int64_t block = (int64_t)(sizeof scratch / p->mid_size);
    for (int64_t i = 0; i < n; i += block) {
        int64_t k = n - i < block ? n - i : block;
        p->fn(scratch, src + (size_t)i * p->src_size, k);
        tx__onnx_convert(p->to, p->saturate, p->round, dst + i, scratch, k); /* 1-byte targets */
    }
}

typedef void convert_fn(const cast_plan *p, char *dst, const char *src, int64_t n);
static convert_fn *const converts[] = {convert_kernel, convert_saturate, convert_onnx};

static void loop_piece(void *ctx, int64_t begin, int64_t end) {
    const cast_job *j = ctx;
    const cast_plan *p = j->p;
    converts[p->loop](p, j->dst + (size_t)begin * p->dst_size,
                      j->src + (size_t)begin * p->src_size, end - begin);
}

/* Rows [begin, end) into the caller's strides: a row at a time, or an element at a time when
 * the last dim's elements are not adjacent. */
static void rows_piece(void *ctx, int64_t begin, int64_t end) {
    const cast_job *j = ctx;
    const cast_plan *p = j->p;
    convert_fn *convert = converts[p->loop];
    for (int64_t r = begin; r < end; r++) {
        int64_t at = 0, rest = r; /* within the bytes the strides reach (checked at prepare) */
        for (size_t k = p->outer_rank; k-- > 0; rest /= p->outer_dims[k])
            at += rest % p->outer_dims[k] * p->outer_strides[k];
        char *d = j->dst + at;
        const char *s = j->src + (size_t)(r * p->inner) * p->src_size;
        if (p->inner_stride == (int64_t)p->dst_size) {
            convert(p, d, s, p->inner);
            continue;
        }
        for (int64_t i = 0; i < p->inner; i++)
            convert(p, d + i * p->inner_stride, s + (size_t)i * p->src_size, 1);
    }
}

static tx_status cast_run(const void *plan, const tx__run_io *io) {
    const cast_plan *p = plan;
    if (p->numel == 0) return TX_OK;
    cast_job j = {p, io->out[0], io->in[0]};
    if (p->strided) {
        int64_t g = p->grain / p->inner;
        tx__parallel_for(p->rows, g > 0 ? g : 1, rows_piece, &j);
        return TX_OK;
    }
    tx__parallel_for(p->numel, p->grain, p->loop == LOOP_KERNEL ? kernel_piece : loop_piece, &j);
    return p->checked ? tx__cast_check(&p->check, io->in[0], io->out[0], 0, p->numel) : TX_OK;
}

/* A prepared cast's output strides (checked mode, which reads the output back, takes none). */
static void take_strides(const tx_tensor *x, cast_plan *p) {
    const int64_t *strides = p->checked ? NULL : tx__output_strides(0);
    if (strides == NULL || x->numel == 0) return;
    p->strided = true;
    p->inner = x->rank ? x->dims[x->rank - 1] : 1;
    p->inner_stride = x->rank ? strides[x->rank - 1] : (int64_t)p->dst_size;
    p->rows = x->numel / p->inner;
    p->outer_rank = x->rank ? x->rank - 1 : 0;
    for (size_t k = 0; k < p->outer_rank; k++) {
        p->outer_dims[k] = x->dims[k];
        p->outer_strides[k] = strides[k];
    }
}

/* The second half of every numeric cast, after its checks and its plan's loop: the prepared step,
 * the output, the run (whose error, checked mode's, frees the output). */
static tx_status cast_finish(const char *op, const tx_tensor *x, tx_dtype dtype, cast_plan *p,
                             tx_tensor **out) {
    p->numel = x->numel;
    p->dst_size = tx_dtype_size(dtype);
    p->src_size = tx_dtype_size(x->dtype);
    p->grain = grain_for(p->dst_size, p->src_size);
    take_strides(x, p);
    TX_TRY(tx__prepared_step(op, cast_run, p, sizeof *p, 1, &x,
                             p->dst_size == p->src_size && !p->checked && !p->strided ? 0 : -1));
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, dtype, x->rank, x->dims, &t));
    tx_status st = cast_run(p, &(tx__run_io){(const char *[]){x->data}, &t->data});
    if (st != TX_OK) {
        tx_tensor_free(t);
        return st;
    }
    *out = t;
    return TX_OK;
}

/* Checked mode's check of x cast to dtype. */
static void check_spec_of(const char *op, const tx_tensor *x, tx_dtype dtype, bool exact_float,
                          tx__check_spec *c) {
    c->op = op;
    c->from = x->dtype;
    c->to = dtype;
    c->exact_float = exact_float;
    c->rank = x->rank;
    if (x->rank) memcpy(c->dims, x->dims, x->rank * sizeof *c->dims);
}

tx_status tx__cast_plain_kernel(const char *op, tx_dtype from, tx_dtype to, int64_t numel,
                                tx__cast_fn *fn) {
    *fn = tx__cast_select(from, to, false, numel);
    /* TF's CastOpBase::Unimplemented wording. */
    TX_REQUIRE(*fn != NULL, TX_UNIMPLEMENTED, "%s: Cast %s to %s is not supported", op,
               tx_dtype_name(from), tx_dtype_name(to));
    return TX_OK;
}

/* tf.cast's checks and kernel; with mode TX_CAST_CHECKED (flags: TX_CAST_EXACT_FLOAT) the run
 * checks the result. */
static tx_status cast_op(const char *op, const tx_tensor *x, tx_dtype dtype, tx_cast_mode mode,
                         unsigned flags, tx_tensor **out) {
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, x, "x");
    TX_TRY(check_dtype(op, "dtype", dtype));
    if (x->dtype == dtype && dtype == TX_STRING) {
        /* No prepared form: the step refuses string inputs, saying so. */
        static const cast_plan none;
        TX_TRY(tx__prepared_step(op, cast_run, &none, sizeof none, 1, &x, -1));
        return copy_tensor(op, x, out);
    }
    cast_plan p;
    plan_clear(&p, LOOP_KERNEL);
    TX_TRY(tx__cast_plain_kernel(op, x->dtype, dtype, x->numel, &p.fn));
    p.checked = mode == TX_CAST_CHECKED;
    if (p.checked) check_spec_of(op, x, dtype, (flags & TX_CAST_EXACT_FLOAT) != 0, &p.check);
    return cast_finish(op, x, dtype, &p, out);
}

tx_status tx_cast(const tx_tensor *x, tx_dtype dtype, tx_tensor **out) {
    return cast_op("cast", x, dtype, TX_CAST_DEFAULT, 0, out);
}
tx_status tx_to_double(const tx_tensor *x, tx_tensor **out) {
    return cast_op("to_double", x, TX_FLOAT64, TX_CAST_DEFAULT, 0, out);
}
tx_status tx_to_float(const tx_tensor *x, tx_tensor **out) {
    return cast_op("to_float", x, TX_FLOAT32, TX_CAST_DEFAULT, 0, out);
}
tx_status tx_to_bfloat16(const tx_tensor *x, tx_tensor **out) {
    return cast_op("to_bfloat16", x, TX_BFLOAT16, TX_CAST_DEFAULT, 0, out);
}
tx_status tx_to_int32(const tx_tensor *x, tx_tensor **out) {
    return cast_op("to_int32", x, TX_INT32, TX_CAST_DEFAULT, 0, out);
}
tx_status tx_to_int64(const tx_tensor *x, tx_tensor **out) {
    return cast_op("to_int64", x, TX_INT64, TX_CAST_DEFAULT, 0, out);
}

/* ---- saturate_cast ------------------------------------------------------------------------- */

/* The range of a real dtype as TF's DType.min/max report it. */
typedef struct range {
    bool is_float;
    int64_t imin;  /* integer types */
    uint64_t imax;
    double fmin, fmax; /* float types: the least and largest finite values */
} range;

static range range_of(tx_dtype t) {
    const tx__dtype_info *d = tx__dtype(t);
    range r = {d->kind == TX_KIND_FLOAT, d->min, d->max, d->min_finite, d->max_finite};
    return r;
}

/* Exact comparisons of a double with an integer bound. */
static bool d_gt_u64(double d, uint64_t m) {
    if (!(d < 0x1p64)) return d == d; /* >= 2^64 (NaN never occurs here) */
    if (d < 0) return false;
    uint64_t t = (uint64_t)d;
    return t > m || (t == m && d > floor(d));
}

static bool d_lt_i64(double d, int64_t m) {
    if (d < -0x1p63) return true;
    if (!(d < 0x1p63)) return false;
    int64_t t = (int64_t)d;
    return t < m || (t == m && d < ceil(d));
}

/* d rounded to nearest in the float dtype r (d is finite). */
static double round_to(tx_dtype r, double d) {
    _Alignas(8) unsigned char b[8];
    tx__to_float_dtype(r, d, b);
    return tx__from_float_dtype(r, b);
}

/* TF's saturate_cast bounds (math_ops.py): whether to clamp, and the bounds in type `in`.  TF 2.21
 * clamps a real input always (its forward-compatibility date of 2024-11-01 has passed), so a float
 * input's infinities become its own finite extremes even when the output's range is wider
 * (float16 inf -> 65504 in float32); `always` is false only for complex -> complex, which TF still
 * clamps only when the output's part type is narrower.  An integer input whose range fits the
 * output's needs no clamp: the bounds TF computes are the input's own range. */
static bool saturate_bounds(tx_dtype in, tx_dtype outr, bool always, tx__clamp_bounds *b) {
    range r = range_of(in), o = range_of(outr);
    bool below, above;
    if (!r.is_float && !o.is_float) {
        below = r.imin < o.imin;
        above = r.imax > o.imax;
    } else if (!r.is_float) {
        below = (double)r.imin < o.fmin;
        above = (double)r.imax > o.fmax;
    } else if (!o.is_float) {
        below = d_lt_i64(r.fmin, o.imin);
        above = d_gt_u64(r.fmax, o.imax);
    } else {
        below = r.fmin < o.fmin;
        above = r.fmax > o.fmax;
    }
    if (!below && !above && !(always && r.is_float)) return false;
    memset(b, 0, sizeof *b);
    if (!r.is_float) {
        /* max(in.min, out.min) and min(in.max, out.max) are exact integers of `in`. */
        if (!o.is_float) {
            b->ilo = r.imin > o.imin ? r.imin : o.imin;
            b->ihi = r.imax < o.imax ? r.imax : o.imax;
        } else {
            b->ilo = below ? (int64_t)o.fmin : r.imin;
            b->ihi = above ? (uint64_t)o.fmax : r.imax;
        }
        return true;
    }
    double lo, hi;
    if (!o.is_float) {
        lo = below ? (double)o.imin : r.fmin;
        hi = above ? (double)o.imax : r.fmax;
    } else {
        lo = r.fmin > o.fmin ? r.fmin : o.fmin;
        hi = r.fmax < o.fmax ? r.fmax : o.fmax;
    }
    lo = round_to(in, lo);
    hi = round_to(in, hi);
    /* Rounded outside the output's range: one step toward zero (np.nextafter(x, 0)).  TF compares
     * in float64 and misses 2^63 > INT64_MAX and 2^64 > UINT64_MAX; this comparison is exact. */
    if (!o.is_float ? d_lt_i64(lo, o.imin) : lo < o.fmin) lo = tx__toward_zero(in, lo);
    if (!o.is_float ? d_gt_u64(hi, o.imax) : hi > o.fmax) hi = tx__toward_zero(in, hi);
    b->flo = lo;
    b->fhi = hi;
    return true;
}

static bool saturate_supported(tx_dtype t) {
    tx_dtype_kind k = tx_dtype_kind_of(t);
    return k == TX_KIND_SIGNED || k == TX_KIND_UNSIGNED || k == TX_KIND_FLOAT ||
           k == TX_KIND_COMPLEX;
}

static tx_status saturate_op(const char *op, const tx_tensor *value, tx_dtype dtype,
                             tx_tensor **out) {
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, value, "value");
    TX_TRY(check_dtype(op, "dtype", dtype));
    TX_REQUIRE(saturate_supported(value->dtype), TX_UNIMPLEMENTED,
               "%s: value dtype %s has no min/max to saturate against (use cast)", op,
               tx_dtype_name(value->dtype));
    TX_REQUIRE(saturate_supported(dtype), TX_UNIMPLEMENTED,
               "%s: dtype %s has no min/max to saturate against (use cast)", op,
               tx_dtype_name(dtype));
    tx_dtype in = value->dtype, inr = tx__real_of(in), outr = tx__real_of(dtype);
    bool in_complex = in != inr, out_complex = dtype != outr;
    tx__clamp_bounds b;
    bool clamp = saturate_bounds(inr, outr, !(in_complex && out_complex), &b);
    if (!clamp) return cast_op(op, value, dtype, TX_CAST_DEFAULT, 0, out);
    cast_plan p;
    plan_clear(&p, LOOP_KERNEL);
    if (in == TX_FLOAT32 && dtype == TX_UINT8) {
        /* One pass with the dispatched kernel, whose fixed bounds are the ones computed here. */
        assert(b.flo == 0.0 && b.fhi == 255.0);
        p.fn = tx__cast_select(in, dtype, true, value->numel);
    } else {
        /* Clamp a block at a time in a scratch copy, then cast it: no intermediate tensor. */
        tx_dtype mid = in_complex && !out_complex ? inr : in; /* complex -> real: the real parts */
        p.loop = LOOP_SATURATE;
        p.extract = tx__cast_select(in, mid, false, 0);
        p.fn = tx__cast_select(mid, dtype, false, 0);
        p.real = inr;
        p.bounds = b;
        p.parts = (int64_t)(tx_dtype_size(mid) / tx_dtype_size(inr));
        p.block = (int64_t)(TX_SATURATE_BLOCK_BYTES / tx_dtype_size(mid));
    }
    assert(p.fn != NULL && (p.loop != LOOP_SATURATE || p.extract != NULL));
    return cast_finish(op, value, dtype, &p, out);
}

tx_status tx_saturate_cast(const tx_tensor *value, tx_dtype dtype, tx_tensor **out) {
    return saturate_op("saturate_cast", value, dtype, out);
}

/* ---- cast_in_mode: ONNX Cast's presets ----------------------------------------------------- */

/* The type an ONNX preset reads x in before its own rule writes `dtype`, or TX_STRING when
 * ONNX's Cast is tx_cast for this pair (a same-dtype cast included: ONNX's is the identity). */
static tx_dtype onnx_source(tx_dtype from, tx_dtype to, bool saturate) {
    if (from == to || from == TX_STRING) return TX_STRING;
    if (to == TX_FLOAT8_E8M0FNU) return TX_FLOAT32;
    if (to == TX_FLOAT8_E4M3FN || to == TX_FLOAT8_E4M3FNUZ || to == TX_FLOAT8_E5M2 ||
        to == TX_FLOAT8_E5M2FNUZ)
        return saturate ? TX_FLOAT64 : TX_STRING;
    tx_dtype_kind k = tx_dtype_kind_of(from);
    bool from_float = k == TX_KIND_FLOAT || k == TX_KIND_COMPLEX;
    if ((to == TX_INT4 || to == TX_UINT4 || to == TX_INT2 || to == TX_UINT2) && from_float)
        return TX_FLOAT64;
    return TX_STRING;
}

static tx_status onnx_op(const char *op, const tx_tensor *x, tx_dtype dtype, unsigned flags,
                         tx_tensor **out) {
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, x, "x");
    TX_TRY(check_dtype(op, "dtype", dtype));
    bool saturate = !(flags & TX_CAST_ONNX_NO_SATURATE);
    tx_dtype mid = onnx_source(x->dtype, dtype, saturate);
    tx__cast_fn read = mid == TX_STRING ? NULL : tx__cast_kernel(x->dtype, mid);
    if (read == NULL) return cast_op(op, x, dtype, TX_CAST_DEFAULT, 0, out);
    int round = (flags & TX_CAST_ONNX_ROUND_DOWN)      ? TX__ROUND_DOWN
                : (flags & TX_CAST_ONNX_ROUND_NEAREST) ? TX__ROUND_NEAREST
                                                       : TX__ROUND_UP;
    assert(tx_dtype_size(dtype) == 1);
    cast_plan p;
    plan_clear(&p, LOOP_ONNX);
    p.fn = read;
    p.to = dtype;
    p.saturate = saturate;
    p.round = round;
    p.mid_size = tx_dtype_size(mid);
    return cast_finish(op, x, dtype, &p, out);
}

tx_status tx_cast_in_mode(const tx_tensor *x, tx_dtype dtype, tx_cast_mode mode, unsigned flags,
                          tx_tensor **out) {
    static const char *op = "cast";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    const unsigned onnx_flags =
        TX_CAST_ONNX_NO_SATURATE | TX_CAST_ONNX_ROUND_DOWN | TX_CAST_ONNX_ROUND_NEAREST;
    TX_REQUIRE((unsigned)mode <= TX_CAST_ONNX, TX_INVALID_ARGUMENT,
               "%s: mode %d is not TX_CAST_DEFAULT, TX_CAST_SATURATE, TX_CAST_CHECKED or "
               "TX_CAST_ONNX", op, (int)mode);
    TX_REQUIRE((flags & ~(TX_CAST_EXACT_FLOAT | onnx_flags)) == 0, TX_INVALID_ARGUMENT,
               "%s: flags 0x%x has unknown bits (TX_CAST_EXACT_FLOAT and the TX_CAST_ONNX_* flags "
               "are defined)", op, flags);
    TX_REQUIRE(!(flags & TX_CAST_EXACT_FLOAT) || mode == TX_CAST_CHECKED, TX_INVALID_ARGUMENT,
               "%s: flag TX_CAST_EXACT_FLOAT needs mode TX_CAST_CHECKED", op);
    TX_REQUIRE(!(flags & onnx_flags) || mode == TX_CAST_ONNX, TX_INVALID_ARGUMENT,
               "%s: the TX_CAST_ONNX_* flags need mode TX_CAST_ONNX", op);
    TX_REQUIRE((flags & (TX_CAST_ONNX_ROUND_DOWN | TX_CAST_ONNX_ROUND_NEAREST)) !=
                   (TX_CAST_ONNX_ROUND_DOWN | TX_CAST_ONNX_ROUND_NEAREST),
               TX_INVALID_ARGUMENT,
               "%s: flags TX_CAST_ONNX_ROUND_DOWN and TX_CAST_ONNX_ROUND_NEAREST exclude each other",
               op);
    if (mode == TX_CAST_SATURATE) return saturate_op(op, x, dtype, out);
    if (mode == TX_CAST_ONNX) return onnx_op(op, x, dtype, flags, out);
    tx_status st = cast_op(op, x, dtype, mode, flags, out);
    /* A plan must give the run's error, which here depends on the values; a prepare does not
     * read them (its runs check). */
    if (st == TX__PLANNED && mode == TX_CAST_CHECKED && x->dtype != TX_STRING && !tx__preparing()) {
        tx__check_spec c;
        check_spec_of(op, x, dtype, (flags & TX_CAST_EXACT_FLOAT) != 0, &c);
        TX_TRY(tx__cast_check_planned(&c, x->data, x->numel));
    }
    return st;
}

/* ---- bitcast ------------------------------------------------------------------------------- */

tx_status tx_bitcast(const tx_tensor *input, tx_dtype type, tx_tensor **out) {
    static const char *op = "bitcast";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_TRY(check_dtype(op, "type", type));
    /* TF's Bitcast op takes every numeric type except bool (and never strings).  Nor the sub-byte
     * types (int4, uint4, int2, uint2, float4, float6): not in its type list, and a value of a
     * few bits has no byte pattern of its own to reinterpret. */
    bool in_sub = tx__is_subbyte(input->dtype), out_sub = tx__is_subbyte(type);
    TX_REQUIRE(input->dtype != TX_BOOL && input->dtype != TX_STRING && !in_sub, TX_UNIMPLEMENTED,
               "%s: input dtype %s cannot be bitcast (bool, string and the sub-byte types are not "
               "supported; cast a sub-byte type to int8 or uint8 instead)", op,
               tx_dtype_name(input->dtype));
    TX_REQUIRE(type != TX_BOOL && type != TX_STRING && !out_sub, TX_UNIMPLEMENTED,
               "%s: type %s is not a bitcast target (bool, string and the sub-byte types are not "
               "supported; cast int8 or uint8 to a sub-byte type instead)", op, tx_dtype_name(type));
    size_t in_size = tx_dtype_size(input->dtype), out_size = tx_dtype_size(type);
    int64_t dims[TX_MAX_RANK];
    size_t rank = input->rank;
    if (rank) memcpy(dims, input->dims, rank * sizeof *dims);
    if (in_size > out_size) {
        TX_REQUIRE(rank < TX_MAX_RANK, TX_INVALID_ARGUMENT,
                   "%s: bitcast from %s to %s adds a dim, and rank %zu is the maximum", op,
                   tx_dtype_name(input->dtype), tx_dtype_name(type), rank);
        dims[rank++] = (int64_t)(in_size / out_size);
    } else if (in_size < out_size) {
        int64_t want = (int64_t)(out_size / in_size);
        if (rank == 0 || dims[rank - 1] != want) {
            char sbuf[TX_DIMS_STR_CAP];
            return tx__fail(TX_INVALID_ARGUMENT,
                            "%s: Cannot bitcast from %s to %s: shape %s (the last dimension must be "
                            "%" PRId64 " = sizeof(%s)/sizeof(%s))",
                            op, tx_dtype_name(input->dtype), tx_dtype_name(type),
                            tx__format_dims(sbuf, sizeof sbuf, input->rank, input->dims), want,
                            tx_dtype_name(type), tx_dtype_name(input->dtype));
        }
        rank--;
    }
    TX_TRY(tx__view_step(op, input, type, rank, dims));
    return tx__tensor_view(op, input, type, rank, dims, out);
}
