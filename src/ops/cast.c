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

/* Checked mode's check after the cast: what it compares and what its message names. */
typedef struct check_spec {
    const char *op;
    tx_dtype from, to;
    size_t rank;
    int64_t dims[TX_MAX_RANK];
    bool exact_float;
} check_spec;
static tx_status check_exact(const check_spec *c, const char *x, const char *y, int64_t begin,
                             int64_t end);

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
    bool checked;              /* checked mode: then the check, which reads x after the cast */
    check_spec check;
} cast_plan;

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

static void saturate_piece(void *ctx, int64_t begin, int64_t end) {
    const cast_job *j = ctx;
    const cast_plan *p = j->p;
    _Alignas(16) unsigned char scratch[TX_SATURATE_BLOCK_BYTES];
    for (int64_t i = begin; i < end; i += p->block) {
        int64_t k = end - i < p->block ? end - i : p->block;
        p->extract(scratch, j->src + (size_t)i * p->src_size, k);
        tx__clamp_real(p->real, scratch, k * p->parts, &p->bounds);
        p->fn(j->dst + (size_t)i * p->dst_size, scratch, k);
    }
}

static void onnx_piece(void *ctx, int64_t begin, int64_t end) {
    const cast_job *j = ctx;
    const cast_plan *p = j->p;
    _Alignas(16) unsigned char scratch[TX_SATURATE_BLOCK_BYTES];
    const int64_t block = (int64_t)(sizeof scratch / p->mid_size);
    for (int64_t i = begin; i < end; i += block) {
        int64_t k = end - i < block ? end - i : block;
        p->fn(scratch, j->src + (size_t)i * p->src_size, k);
        tx__onnx_convert(p->to, p->saturate, p->round, j->dst + i, scratch, k); /* 1-byte targets */
    }
}

static tx_status cast_run(const void *plan, const tx__run_io *io) {
    const cast_plan *p = plan;
    static const tx__range_fn pieces[] = {kernel_piece, saturate_piece, onnx_piece};
    if (p->numel == 0) return TX_OK;
    cast_job j = {p, io->out[0], io->in[0]};
    tx__parallel_for(p->numel, p->grain, pieces[p->loop], &j);
    return p->checked ? check_exact(&p->check, io->in[0], io->out[0], 0, p->numel) : TX_OK;
}

/* The second half of every numeric cast, after its checks and its plan's loop: the prepared step,
 * the output, the run (whose error, checked mode's, frees the output). */
static tx_status cast_finish(const char *op, const tx_tensor *x, tx_dtype dtype, cast_plan *p,
                             tx_tensor **out) {
    p->numel = x->numel;
    p->dst_size = tx_dtype_size(dtype);
    p->src_size = tx_dtype_size(x->dtype);
    p->grain = grain_for(p->dst_size, p->src_size);
    TX_TRY(tx__prepared_step(op, cast_run, p, sizeof *p, 1, &x,
                             p->dst_size == p->src_size && !p->checked ? 0 : -1));
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
                          check_spec *c) {
    *c = (check_spec){.op = op, .from = x->dtype, .to = dtype, .rank = x->rank,
                      .exact_float = exact_float};
    if (x->rank) memcpy(c->dims, x->dims, x->rank * sizeof *c->dims);
}

/* tf.cast's checks and kernel; with mode TX_CAST_CHECKED (flags: TX_CAST_EXACT_FLOAT) the run
 * checks the result. */
static tx_status cast_op(const char *op, const tx_tensor *x, tx_dtype dtype, tx_cast_mode mode,
                         unsigned flags, tx_tensor **out) {
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, x, "x");
    TX_TRY(check_dtype(op, "dtype", dtype));
    if (x->dtype == dtype && dtype == TX_STRING) return copy_tensor(op, x, out);
    cast_plan p = {.loop = LOOP_KERNEL, .fn = tx__cast_select(x->dtype, dtype, false, x->numel)};
    /* TF's CastOpBase::Unimplemented wording. */
    TX_REQUIRE(p.fn != NULL, TX_UNIMPLEMENTED, "%s: Cast %s to %s is not supported", op,
               tx_dtype_name(x->dtype), tx_dtype_name(dtype));
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

static tx_dtype real_of(tx_dtype t) {
    return t == TX_COMPLEX64 ? TX_FLOAT32 : t == TX_COMPLEX128 ? TX_FLOAT64 : t;
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

/* d in the float dtype r by r's own conversion rules (the portable cast kernels): its bits in
 * b[0, size of r), and back. */
static void to_float_dtype(tx_dtype r, double d, unsigned char b[8]) {
    tx__cast_kernel(TX_FLOAT64, r)(b, &d, 1);
}
static double from_float_dtype(tx_dtype r, const unsigned char b[8]) {
    double d;
    tx__cast_kernel(r, TX_FLOAT64)(&d, b, 1);
    return d;
}

/* d rounded to nearest in the float dtype r (d is finite). */
static double round_to(tx_dtype r, double d) {
    _Alignas(8) unsigned char b[8];
    to_float_dtype(r, d, b);
    return from_float_dtype(r, b);
}

/* np.nextafter(v, 0) in the float dtype r, for a finite v: its bits as an integer, one less. */
static double toward_zero(tx_dtype r, double v) {
    if (v == 0) return v;
    _Alignas(8) unsigned char b[8];
    to_float_dtype(r, v, b);
    size_t n = tx_dtype_size(r);
    if (TX_HOST_LITTLE_ENDIAN)
        for (size_t k = 0; k < n && b[k]-- == 0; k++) {} /* borrow up from the low byte */
    else
        for (size_t k = n; k-- > 0 && b[k]-- == 0;) {}
    return from_float_dtype(r, b);
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
    if (!o.is_float ? d_lt_i64(lo, o.imin) : lo < o.fmin) lo = toward_zero(in, lo);
    if (!o.is_float ? d_gt_u64(hi, o.imax) : hi > o.fmax) hi = toward_zero(in, hi);
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
    tx_dtype in = value->dtype, inr = real_of(in), outr = real_of(dtype);
    bool in_complex = in != inr, out_complex = dtype != outr;
    tx__clamp_bounds b;
    bool clamp = saturate_bounds(inr, outr, !(in_complex && out_complex), &b);
    if (!clamp) return cast_op(op, value, dtype, TX_CAST_DEFAULT, 0, out);
    cast_plan p = {.loop = LOOP_KERNEL};
    if (in == TX_FLOAT32 && dtype == TX_UINT8) {
        /* One pass with the dispatched kernel, whose fixed bounds are the ones computed here. */
        assert(b.flo == 0.0 && b.fhi == 255.0);
        p.fn = tx__cast_select(in, dtype, true, value->numel);
    } else {
        /* Clamp a block at a time in a scratch copy, then cast it: no intermediate tensor. */
        tx_dtype mid = in_complex && !out_complex ? inr : in; /* complex -> real: the real parts */
        p = (cast_plan){.loop = LOOP_SATURATE, .extract = tx__cast_select(in, mid, false, 0),
                        .fn = tx__cast_select(mid, dtype, false, 0), .real = inr, .bounds = b,
                        .parts = (int64_t)(tx_dtype_size(mid) / tx_dtype_size(inr)),
                        .block = (int64_t)(TX_SATURATE_BLOCK_BYTES / tx_dtype_size(mid))};
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
    cast_plan p = {.loop = LOOP_ONNX, .fn = read, .to = dtype, .saturate = saturate,
                   .round = round, .mid_size = tx_dtype_size(mid)};
    return cast_finish(op, x, dtype, &p, out);
}

/* ---- cast_in_mode: modes ------------------------------------------------------------------- */

/* One real scalar, exactly: an integer as sign and magnitude, or a float as a double (every
 * float dtype's values are doubles). */
typedef struct exact_num {
    bool is_float, neg;
    uint64_t mag;
    double f;
} exact_num;

static exact_num int_num(int64_t v) {
    exact_num n = {false, v < 0, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, 0};
    return n;
}
static exact_num uint_num(uint64_t v) {
    exact_num n = {false, false, v, 0};
    return n;
}
static exact_num float_num(double f) {
    exact_num n = {true, false, 0, f};
    return n;
}

/* How elements of a real dtype are read: integers by the one integer reader, signed when their
 * storage type is (qint8 reads as int8), floats by their conversion rules to float64 (exact). */
typedef struct num_reader {
    tx_dtype t;
    tx__cast_fn to_f64; /* float types; NULL for integer types */
    bool is_bool, is_signed;
} num_reader;

static num_reader num_reader_of(tx_dtype t) {
    const tx__dtype_info *d = tx__dtype(t);
    num_reader r = {t, d->kind == TX_KIND_FLOAT ? tx__cast_kernel(t, TX_FLOAT64) : NULL,
                    d->kind == TX_KIND_BOOL, tx__dtype(d->storage)->min < 0};
    return r;
}

/* The element at p. */
static exact_num read_num(const num_reader *r, const char *p) {
    if (r->to_f64) {
        double v;
        r->to_f64(&v, p, 1);
        return float_num(v);
    }
    int64_t v = tx__int_at(p, r->t, 0);
    if (r->is_bool) return uint_num(v != 0);
    return r->is_signed ? int_num(v) : uint_num((uint64_t)v);
}

/* Whether two finite-or-not numbers are the same value (NaN equals nothing). */
static bool num_equal(exact_num a, exact_num b) {
    if (a.is_float && b.is_float) return a.f == b.f;
    if (!a.is_float && !b.is_float) return a.mag == b.mag && (a.neg == b.neg || a.mag == 0);
    if (!a.is_float) {
        exact_num t = a;
        a = b;
        b = t;
    }
    /* a is the float, b the integer. */
    double f = a.f;
    if (!(f == f) || f != trunc(f)) return false;
    if (b.mag == 0) return f == 0;
    if (b.neg ? !(f < 0 && f > -0x1p64) : !(f > 0 && f < 0x1p64)) return false;
    return (uint64_t)fabs(f) == b.mag;
}

typedef enum inexact {
    EXACT = 0,
    INEXACT_NAN,
    INEXACT_INF,
    INEXACT_FRACTION,
    INEXACT_RANGE,
    INEXACT_ROUND,
    INEXACT_IMAG
} inexact;

static const char *const inexact_text[] = {
    "", "NaN", "infinity", "not an integer", "out of range", "would round",
    "nonzero imaginary part (the cast drops it)",
};

/* Why v (a source part) did not become w (its converted part), or EXACT.  sat_limit: for a float
 * target that saturates (float6, float4: no infinity, no NaN), the least magnitude that overflows
 * (the largest finite value plus half its step, which rounds away); else 0. */
static inexact check_part(exact_num v, exact_num w, bool to_float, bool exact_float,
                          double sat_limit) {
    bool v_nan = v.is_float && v.f != v.f, v_inf = v.is_float && isinf(v.f);
    if (!to_float) {
        if (num_equal(v, w)) return EXACT;
        return v_nan ? INEXACT_NAN : v_inf ? INEXACT_INF
               : v.is_float && v.f != trunc(v.f) ? INEXACT_FRACTION : INEXACT_RANGE;
    }
    if (v_nan) return w.f != w.f ? EXACT : INEXACT_NAN; /* float6 / float4 have no NaN */
    if (w.f != w.f) return v_inf ? INEXACT_INF : INEXACT_RANGE; /* no infinity (or no sign) */
    if (v_inf) return isinf(w.f) ? EXACT : INEXACT_INF;          /* saturated */
    if (isinf(w.f) || (sat_limit > 0 && fabs(v.f) >= sat_limit)) return INEXACT_RANGE;
    if (exact_float && !num_equal(v, w)) return INEXACT_ROUND;
    return EXACT;
}

/* check_part's sat_limit of the float dtype r: where +inf casts to a finite value (the largest),
 * that value plus half the step below it; else 0. */
static double saturation_limit(tx_dtype r) {
    _Alignas(8) unsigned char b[8];
    to_float_dtype(r, INFINITY, b);
    double top = from_float_dtype(r, b);
    if (isinf(top) || top != top) return 0;
    return top + (top - toward_zero(r, top)) / 2;
}

/* The element at p of dtype t as text, with the digits that identify it. */
static void format_element(char *buf, size_t cap, tx_dtype t, const char *p) {
    tx_dtype r = real_of(t);
    num_reader rd = num_reader_of(r);
    exact_num v = read_num(&rd, p);
    int digits = r == TX_FLOAT16 ? 5 : r == TX_BFLOAT16 ? 4 : r == TX_FLOAT32 ? 9
               : r == TX_FLOAT64 ? 17 : 4; /* float8: 4 significant digits tell codes apart */
    if (t != r) {
        exact_num im = read_num(&rd, p + tx_dtype_size(r));
        snprintf(buf, cap, "(%.*g%+.*gj)", digits, v.f, digits, im.f);
    } else if (v.is_float) {
        snprintf(buf, cap, "%.*g", digits, v.f);
    } else {
        snprintf(buf, cap, "%s%" PRIu64, v.neg ? "-" : "", v.mag);
    }
}

static tx_status report_inexact(const check_spec *c, const char *x, int64_t i, inexact why) {
    char ibuf[TX_DIMS_STR_CAP], vbuf[96];
    int64_t idx[TX_MAX_RANK], rest = i;
    for (size_t k = c->rank; k-- > 0;) {
        idx[k] = c->dims[k] ? rest % c->dims[k] : 0;
        rest = c->dims[k] ? rest / c->dims[k] : 0;
    }
    format_element(vbuf, sizeof vbuf, c->from, x + (size_t)i * tx_dtype_size(c->from));
    return tx__fail(TX_INVALID_ARGUMENT,
                    "%s: element %" PRId64 " (index %s) is %s (%s), which %s cannot hold exactly: %s",
                    c->op, i, tx__format_dims(ibuf, sizeof ibuf, c->rank, idx), vbuf,
                    tx_dtype_name(c->from), tx_dtype_name(c->to), inexact_text[why]);
}

/* The checked mode's pass over elements [begin, end) of x, whose plain casts are at y (element
 * begin first): fails at the first inexact element. */
static tx_status check_exact(const check_spec *c, const char *x, const char *y, int64_t begin,
                             int64_t end) {
    tx_dtype sr = real_of(c->from), dr = real_of(c->to);
    bool s_complex = sr != c->from, d_complex = dr != c->to;
    tx_dtype_kind dk = tx_dtype_kind_of(dr);
    bool to_float = dk == TX_KIND_FLOAT;
    size_t ss = tx_dtype_size(c->from), ds = tx_dtype_size(c->to);
    size_t s_im = tx_dtype_size(sr), d_im = tx_dtype_size(dr);
    const num_reader sread = num_reader_of(sr), dread = num_reader_of(dr);
    double sat_limit = to_float ? saturation_limit(dr) : 0;
    for (int64_t i = begin; i < end; i++) {
        const char *s = x + (size_t)i * ss, *d = y + (size_t)(i - begin) * ds;
        inexact why = check_part(read_num(&sread, s), read_num(&dread, d), to_float,
                                 c->exact_float, sat_limit);
        if (why == EXACT && s_complex) {
            exact_num im = read_num(&sread, s + s_im);
            if (d_complex)
                why = check_part(im, read_num(&dread, d + d_im), to_float, c->exact_float,
                                 sat_limit);
            else if (!(im.f == 0))
                why = INEXACT_IMAG;
        }
        if (why != EXACT) return report_inexact(c, x, i, why);
    }
    return TX_OK;
}

/* The same check in plan mode, where there is no output to read: x is cast a block at a time
 * into a buffer on the stack (every level gives the same bits). */
static tx_status check_exact_planned(const check_spec *c, const char *x, int64_t numel) {
    _Alignas(64) char buf[4096];
    tx__cast_fn fn = tx__cast_select(c->from, c->to, false, 0);
    int64_t block = (int64_t)(sizeof buf / tx_dtype_size(c->to));
    for (int64_t b = 0; b < numel; b += block) {
        int64_t n = numel - b < block ? numel - b : block;
        fn(buf, x + (size_t)b * tx_dtype_size(c->from), n);
        TX_TRY(check_exact(c, x, buf, b, b + n));
    }
    return TX_OK;
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
        check_spec c;
        check_spec_of(op, x, dtype, (flags & TX_CAST_EXACT_FLOAT) != 0, &c);
        TX_TRY(check_exact_planned(&c, x->data, x->numel));
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
    return tx__tensor_view(op, input, type, rank, dims, out);
}
