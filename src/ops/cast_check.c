/* SPDX-License-Identifier: Apache-2.0 */
/* cast_check.c -- cast_in_mode's checked mode (src/ops/cast.c): whether each element of a cast
 * converted exactly, read exactly from both sides, and the message naming the first that did
 * not. */
#include "ops/cast.h"

#include "dispatch/dispatch.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

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
    tx__to_float_dtype(r, INFINITY, b);
    double top = tx__from_float_dtype(r, b);
    if (isinf(top) || top != top) return 0;
    return top + (top - tx__toward_zero(r, top)) / 2;
}

/* The element at p of dtype t as text, with the digits that identify it. */
static void format_element(char *buf, size_t cap, tx_dtype t, const char *p) {
    tx_dtype r = tx__real_of(t);
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

static tx_status report_inexact(const tx__check_spec *c, const char *x, int64_t i, inexact why) {
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
tx_status tx__cast_check(const tx__check_spec *c, const char *x, const char *y, int64_t begin,
                             int64_t end) {
    tx_dtype sr = tx__real_of(c->from), dr = tx__real_of(c->to);
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
tx_status tx__cast_check_planned(const tx__check_spec *c, const char *x, int64_t numel) {
    _Alignas(64) char buf[4096];
    tx__cast_fn fn = tx__cast_select(c->from, c->to, false, 0);
    int64_t block = (int64_t)(sizeof buf / tx_dtype_size(c->to));
    for (int64_t b = 0; b < numel; b += block) {
        int64_t n = numel - b < block ? numel - b : block;
        fn(buf, x + (size_t)b * tx_dtype_size(c->from), n);
        TX_TRY(tx__cast_check(c, x, buf, b, b + n));
    }
    return TX_OK;
}

