/* SPDX-License-Identifier: Apache-2.0 */
/* cast.h -- what src/ops/cast.c (the cast ops) and src/ops/cast_check.c (cast_in_mode's checked
 * mode) share: float dtype helpers and the check of a cast's result. */
#ifndef TX_OPS_CAST_H
#define TX_OPS_CAST_H

#include "core/internal.h"
#include "kernels/scalar/convert.h"

/* The part type of a complex dtype; any other dtype itself. */
static inline tx_dtype tx__real_of(tx_dtype t) {
    return t == TX_COMPLEX64 ? TX_FLOAT32 : t == TX_COMPLEX128 ? TX_FLOAT64 : t;
}

/* d in the float dtype r by r's own conversion rules (the portable cast kernels): its bits in
 * b[0, size of r), and back. */
static inline void tx__to_float_dtype(tx_dtype r, double d, unsigned char b[8]) {
    tx__cast_kernel(TX_FLOAT64, r)(b, &d, 1);
}
static inline double tx__from_float_dtype(tx_dtype r, const unsigned char b[8]) {
    double d;
    tx__cast_kernel(r, TX_FLOAT64)(&d, b, 1);
    return d;
}

/* np.nextafter(v, 0) in the float dtype r, for a finite v: its bits as an integer, one less. */
static inline double tx__toward_zero(tx_dtype r, double v) {
    if (v == 0) return v;
    _Alignas(8) unsigned char b[8];
    tx__to_float_dtype(r, v, b);
    size_t n = tx_dtype_size(r);
    if (TX_HOST_LITTLE_ENDIAN)
        for (size_t k = 0; k < n && b[k]-- == 0; k++) {} /* borrow up from the low byte */
    else
        for (size_t k = n; k-- > 0 && b[k]-- == 0;) {}
    return tx__from_float_dtype(r, b);
}

/* tf.cast's kernel from `from` to `to` for numel elements (a count of 0 for a destination that
 * stays in cache: the count picks streaming stores for large ones) into *fn; unimplemented in TF's
 * wording, naming op, when the pair has none (string to anything else). */
TX_HIDDEN tx_status tx__cast_plain_kernel(const char *op, tx_dtype from, tx_dtype to, int64_t numel,
                                          tx__cast_fn *fn);

/* Checked mode's check after the cast: what it compares and what its message names. */
typedef struct tx__check_spec {
    const char *op;
    tx_dtype from, to;
    bool exact_float;
    size_t rank;
    int64_t dims[TX_MAX_RANK]; /* rank entries set: 2 KB at TX_MAX_RANK, never cleared whole */
} tx__check_spec;

/* Checked mode's pass over elements [begin, end) of x (c->from, row-major), whose plain casts to
 * c->to are at y (element begin first): invalid_argument naming the first inexact element (flat
 * index, multi-index, value, why), else TX_OK. */
TX_HIDDEN tx_status tx__cast_check(const tx__check_spec *c, const char *x, const char *y,
                                   int64_t begin, int64_t end);
/* The same check of numel elements of x with no output to read (plan mode): x is cast a block
 * at a time into a buffer on the stack. */
TX_HIDDEN tx_status tx__cast_check_planned(const tx__check_spec *c, const char *x,
                                           int64_t numel);

#endif
