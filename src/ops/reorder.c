/* SPDX-License-Identifier: Apache-2.0 */
/* reorder.c -- TF's reordering ops: reverse (the page's legacy Reverse with a bool `dims` vector),
 * reverse_v2 (current tf.reverse with an axis list), reverse_sequence and transpose (with
 * tf.transpose's conjugate flag).  Each op validates with TensorFlow's rules, plans the copy on a
 * normalised shape, and hands the loops to kernels: reverse is a strided copy with negative
 * source strides (exec/copy.h: whole runs move with memcpy when the innermost dim is not
 * reversed), transpose merges dims that stay adjacent and hands the plan to the transpose executor
 * (exec/transpose.h: batches of tiled 2-D transposes keyed by element width). */
#include "core/internal.h"
#include "core/tuning.h"

#include <inttypes.h>

#include "exec/copy.h"
#include "exec/pool.h"
#include "exec/transpose.h"


static int64_t at_least_one(int64_t v) { return v < 1 ? 1 : v; }

/* TensorFlow's Reverse and ReverseV2 kernels stop at rank 8 (reverse_op.cc). */
#define TX_REVERSE_MAX_RANK 8

/* A new tensor of t's dtype and `dims`; string outputs keep t's byte storages alive.  Done before
 * any data moves so that a failure leaves nothing behind. */
static tx_status alloc_like(const char *op, const tx_tensor *t, size_t rank, const int64_t *dims,
                            tx_tensor **out) {
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, t->dtype, rank, dims, &o));
    tx_status st = tx__share_strings(o, t);
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}

/* ---- reverse ------------------------------------------------------------------------------- */

/* reverse and reverse_v2 are one strided copy (tx__offset_copy): a reversed dim is read with a
 * negative stride from its last index; the copy planner merges runs of dims with the same flag
 * and moves the unreversed innermost run with memcpy.
 * Copies t into a new tensor (or the caller's output strides) with every dim d with flip[d]
 * reversed; flip NULL reverses nothing (the inputs TensorFlow's kernels return as they are:
 * tensorx ops other than views always return their own buffer). */
static tx_status reverse_call(const char *op, const tx_tensor *t, const bool *flip,
                              tx_tensor **out) {
    size_t w = tx_dtype_size(t->dtype);
    int64_t in_strides[TX_MAX_RANK], src[TX_MAX_RANK];
    tx__contiguous_strides(t->rank, t->dims, w, in_strides);
    const int64_t *dst = tx__output_strides(0);
    if (dst == NULL) dst = in_strides;
    tx__offset_copy p; /* not zero-initialised: the copy plan is 6 KB, and the planner sets it */
    p.offset = 0;
    for (size_t d = 0; d < t->rank; d++) {
        src[d] = in_strides[d];
        /* strides and offset are inside a non-empty t */
        if (flip && flip[d] && t->dims[d] > 1 && t->numel > 0) {
            p.offset += (t->dims[d] - 1) * in_strides[d];
            src[d] = -in_strides[d];
        }
    }
    tx__copy_plan_make(&p.copy, t->rank, t->dims, dst, src, w);
    TX_TRY(tx__prepared_step(op, tx__offset_copy_run, &p, sizeof p, 1, &t, -1));
    tx_tensor *o;
    TX_TRY(alloc_like(op, t, t->rank, t->dims, &o));
    tx__offset_copy_run(&p, &(tx__run_io){(const char *[]){t->data}, &o->data});
    *out = o;
    return TX_OK;
}

tx_status tx_reverse(const tx_tensor *tensor, const tx_tensor *dims, tx_tensor **out) {
    static const char *op = "reverse";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, tensor, "tensor");
    TX_REQUIRE_TENSOR(op, dims, "dims");
    TX_REQUIRE(dims->dtype == TX_BOOL, TX_INVALID_ARGUMENT, "%s: dims must be bool, got %s", op,
               tx_dtype_name(dims->dtype));
    /* ReverseOp (reverse_op.cc) refuses an empty first dim before anything else it checks. */
    if (tensor->rank > 0 && tensor->dims[0] == 0) {
        char sbuf[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT,
                        "%s: Invalid input first dimension. Found 0. (tensor has shape %s; the "
                        "bool-dims Reverse refuses an empty first dim, ReverseV2 does not)",
                        op, tx__format_dims(sbuf, sizeof sbuf, tensor->rank, tensor->dims));
    }
    if (tensor->rank == 0) return reverse_call(op, tensor, NULL, out);
    TX_REQUIRE(dims->rank == 1, TX_INVALID_ARGUMENT, "%s: dims must be 1-D, got rank %zu", op,
               dims->rank);
    TX_REQUIRE(dims->numel == (int64_t)tensor->rank, TX_INVALID_ARGUMENT,
               "%s: dims has %" PRId64 " values but tensor has rank %zu; they must be equal", op,
               dims->numel, tensor->rank);
    TX_REQUIRE(tensor->rank <= TX_REVERSE_MAX_RANK, TX_UNIMPLEMENTED,
               "%s: tensor has rank %zu; reverse is not implemented for rank > %d (as in "
               "TensorFlow)", op, tensor->rank, TX_REVERSE_MAX_RANK);
    bool flip[TX_REVERSE_MAX_RANK];
    /* Any non-zero byte is true: a bool tensor filled from foreign memory may hold other bytes. */
    for (size_t d = 0; d < tensor->rank; d++) flip[d] = ((const uint8_t *)dims->data)[d] != 0;
    return reverse_call(op, tensor, flip, out);
}

tx_status tx_reverse_v2(const tx_tensor *tensor, const int64_t *axis, size_t n_axis,
                        tx_tensor **out) {
    static const char *op = "reverse_v2";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, tensor, "tensor");
    TX_REQUIRE(axis != NULL || n_axis == 0, TX_INVALID_ARGUMENT, "%s: axis is NULL", op);
    /* ReverseV2Op (reverse_op.cc) returns a scalar or a tensor with no elements before it reads
     * axis: no range, duplicate or rank check applies to them. */
    if (tensor->rank == 0 || tensor->numel == 0) return reverse_call(op, tensor, NULL, out);
    int64_t r = (int64_t)tensor->rank;
    bool flip[TX_MAX_RANK] = {false};
    for (size_t i = 0; i < n_axis; i++) {
        int64_t a = axis[i];
        TX_REQUIRE(a >= -r && a < r, TX_INVALID_ARGUMENT,
                   "%s: axis[%zu] = %" PRId64 " is out of range [%" PRId64 ", %" PRId64 ")", op, i,
                   a, -r, r);
        int64_t c = a < 0 ? a + r : a;
        TX_REQUIRE(!flip[c], TX_INVALID_ARGUMENT,
                   "%s: axis %" PRId64 " is specified more than once (axis[%zu] = %" PRId64 ")", op,
                   c, i, a);
        flip[c] = true;
    }
    TX_REQUIRE(tensor->rank <= TX_REVERSE_MAX_RANK, TX_UNIMPLEMENTED,
               "%s: tensor has rank %zu; reverse is not implemented for rank > %d (as in "
               "TensorFlow)", op, tensor->rank, TX_REVERSE_MAX_RANK);
    return reverse_call(op, tensor, flip, out);
}

/* ---- reverse_sequence ---------------------------------------------------------------------- */

/* Moves one row of `n` bytes; rows of one element take a fixed-size move. */
static inline void copy_row(char *d, const char *s, size_t n) {
    switch (n) {
    case 1: *d = *s; break;
    case 2: memcpy(d, s, 2); break;
    case 4: memcpy(d, s, 4); break;
    case 8: memcpy(d, s, 8); break;
    case 16: memcpy(d, s, 16); break;
    default: memcpy(d, s, n);
    }
}

/* The run half of reverse_sequence.  The input is seen as [P, X, M, Y, Q]: X and Y are the batch
 * and sequence dims (in that order when batch_first), P, M and Q the products of the dims before,
 * between and after them; a row is Q contiguous elements (`row` bytes).  A unit of work is one
 * (p, x, m): Y rows.  The lengths are a data input: each run checks them (TF's check, then TF's
 * rank limit, in TF's order) and the copy reads each once more, clamped. */
typedef struct reverse_sequence_plan {
    int64_t X, M, Y;
    int64_t units, grain; /* units 0: an empty input */
    size_t row;
    bool batch_first, serial;
    size_t len_w;             /* seq_lengths' element size: int32 or int64 */
    int64_t nb, ns, seq_dim;  /* the lengths' count and bound, for the check and its message */
    int64_t rank;             /* the input's: TF's kernel handles 2 to 5 */
} reverse_sequence_plan;

typedef struct reverse_sequence_job {
    const reverse_sequence_plan *p;
    char *dst;
    const char *src, *lens;
} reverse_sequence_job;

static inline int64_t seq_length_at(size_t w, const char *lens, int64_t b) {
    if (w == 4) {
        int32_t v;
        memcpy(&v, lens + 4 * b, 4);
        return v;
    }
    int64_t v;
    memcpy(&v, lens + 8 * b, 8);
    return v;
}

/* Length b clamped into [0, ns]: the run checked it, and a value another thread has written
 * since cannot send the copy out of bounds. */
static inline int64_t seq_length(const reverse_sequence_job *j, int64_t b) {
    int64_t L = seq_length_at(j->p->len_w, j->lens, b);
    return L < 0 ? 0 : L > j->p->ns ? j->p->ns : L;
}

static void reverse_sequence_piece(void *ctx, int64_t begin, int64_t end) {
    const reverse_sequence_job *j = ctx;
    const reverse_sequence_plan *p = j->p;
    const int64_t sy = (int64_t)p->row, sm = p->Y * sy, sx = p->M * sm;
    const size_t row = p->row;
    for (int64_t u = begin; u < end; u++) {
        int64_t x = (u / p->M) % p->X;
        /* Units are laid out like the data: unit u = (p, x, m) starts u * sm bytes in. */
        char *d = j->dst + u * sm;
        const char *s = j->src + u * sm;
        if (p->batch_first) {
            /* x is the batch index: reverse rows [0, L) of this run, copy the rest whole. */
            int64_t L = seq_length(j, x);
            for (int64_t y = 0; y < L; y++) copy_row(d + y * sy, s + (L - 1 - y) * sy, row);
            if (L < p->Y) memcpy(d + L * sy, s + L * sy, (size_t)((p->Y - L) * sy));
        } else {
            /* x is the sequence index, y the batch index. */
            for (int64_t y = 0; y < p->Y; y++) {
                int64_t L = seq_length(j, y);
                int64_t from = x < L ? L - 1 - x : x;
                copy_row(d + y * sy, s + (from - x) * sx + y * sy, row);
            }
        }
    }
}

/* TF's checks of the lengths (every one in [0, ns]), then of the input's rank, which it makes
 * after them. */
static tx_status check_seq_lengths(const reverse_sequence_plan *p, const char *lens) {
    static const char *op = "reverse_sequence";
    for (int64_t b = 0; b < p->nb; b++) {
        const int64_t L = seq_length_at(p->len_w, lens, b);
        TX_REQUIRE(L >= 0, TX_INVALID_ARGUMENT, "%s: seq_lengths[%" PRId64 "] = %" PRId64
                   " is negative", op, b, L);
        TX_REQUIRE(L <= p->ns, TX_INVALID_ARGUMENT, "%s: seq_lengths[%" PRId64 "] = %" PRId64
                   " is above input.dims[seq_dim=%" PRId64 "] = %" PRId64, op, b, L, p->seq_dim,
                   p->ns);
    }
    TX_REQUIRE(p->rank >= 2 && p->rank <= 5, TX_INVALID_ARGUMENT,
               "%s: input has rank %" PRId64 "; TensorFlow's kernel handles ranks 2 to 5 only", op,
               p->rank);
    return TX_OK;
}

static tx_status reverse_sequence_run(const void *plan, const tx__run_io *io) {
    const reverse_sequence_plan *p = plan;
    TX_TRY(check_seq_lengths(p, io->in[1]));
    if (p->units == 0) return TX_OK;
    reverse_sequence_job j = {p, io->out[0], io->in[0], io->in[1]};
    if (p->serial) reverse_sequence_piece(&j, 0, p->units);
    else tx__parallel_for(p->units, p->grain, reverse_sequence_piece, &j);
    return TX_OK;
}

tx_status tx_reverse_sequence(const tx_tensor *input, const tx_tensor *seq_lengths,
                              int64_t seq_dim, int64_t batch_dim, tx_tensor **out) {
    static const char *op = "reverse_sequence";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_REQUIRE_TENSOR(op, seq_lengths, "seq_lengths");
    /* TensorFlow's checks, in its order: the op definition's dtypes (another dtype is
     * unimplemented, TF 2.21 decides), then reverse_sequence_op.cc's. */
    TX_REQUIRE(seq_lengths->dtype == TX_INT32 || seq_lengths->dtype == TX_INT64,
               TX_UNIMPLEMENTED, "%s: seq_lengths must be int32 or int64, got %s", op,
               tx_dtype_name(seq_lengths->dtype));
    TX_REQUIRE(batch_dim >= 0, TX_INVALID_ARGUMENT, "%s: batch_dim %" PRId64 " is negative", op,
               batch_dim);
    TX_REQUIRE(seq_dim >= 0, TX_INVALID_ARGUMENT, "%s: seq_dim %" PRId64 " is negative", op,
               seq_dim);
    TX_REQUIRE(seq_lengths->rank == 1, TX_INVALID_ARGUMENT,
               "%s: seq_lengths must be 1-D, got rank %zu", op, seq_lengths->rank);
    TX_REQUIRE(batch_dim != seq_dim, TX_INVALID_ARGUMENT,
               "%s: batch_dim and seq_dim must differ, both are %" PRId64, op, seq_dim);
    int64_t r = (int64_t)input->rank;
    TX_REQUIRE(seq_dim < r, TX_INVALID_ARGUMENT,
               "%s: seq_dim %" PRId64 " must be < the input rank %" PRId64, op, seq_dim, r);
    TX_REQUIRE(batch_dim < r, TX_INVALID_ARGUMENT,
               "%s: batch_dim %" PRId64 " must be < the input rank %" PRId64, op, batch_dim, r);
    int64_t nb = input->dims[batch_dim], ns = input->dims[seq_dim];
    TX_REQUIRE(seq_lengths->numel == nb, TX_INVALID_ARGUMENT,
               "%s: seq_lengths has %" PRId64 " values, input.dims[batch_dim=%" PRId64
               "] is %" PRId64 "; they must be equal", op, seq_lengths->numel, batch_dim, nb);
    reverse_sequence_plan p = {.len_w = tx_dtype_size(seq_lengths->dtype), .nb = nb, .ns = ns,
                               .seq_dim = seq_dim, .rank = r, .batch_first = batch_dim < seq_dim};
    if (input->numel > 0) {
        int64_t lo = p.batch_first ? batch_dim : seq_dim, hi = p.batch_first ? seq_dim : batch_dim;
        /* Products of the dims of the non-empty input: at most its element count. */
        const int64_t P = tx__dims_product(input->dims, 0, (size_t)lo),
                      Q = tx__dims_product(input->dims, (size_t)hi + 1, (size_t)r);
        p.X = input->dims[lo];
        p.M = tx__dims_product(input->dims, (size_t)lo + 1, (size_t)hi);
        p.Y = input->dims[hi];
        p.row = (size_t)Q * tx_dtype_size(input->dtype);
        p.units = P * p.X * p.M;
        const int64_t nbytes = (int64_t)input->nbytes, unit_bytes = nbytes / p.units;
        p.serial = nbytes < TX_PARALLEL_MIN_BYTES;
        p.grain = at_least_one(TX_GRAIN_BYTES / unit_bytes);
    }
    TX_TRY(tx__prepared_step(op, reverse_sequence_run, &p, sizeof p, 2,
                             (const tx_tensor *const[]){input, seq_lengths}, -1));
    /* A plan gives the call's error, found in the values; a prepare leaves them to the runs. */
    if (tx__planning() && !tx__preparing()) TX_TRY(check_seq_lengths(&p, seq_lengths->data));
    tx_tensor *o;
    TX_TRY(alloc_like(op, input, input->rank, input->dims, &o));
    tx_status st = reverse_sequence_run(&p, &(tx__run_io){
        (const char *[]){input->data, seq_lengths->data}, &o->data});
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}

/* ---- transpose ----------------------------------------------------------------------------- */

/* Reads and checks perm as TensorFlow's TransposeOp does: int64 entries are narrowed to int32,
 * a negative entry gets rank added once, every entry must then be in [0, rank) and appear once. */
static tx_status read_perm(const char *op, const tx_tensor *a, const tx_tensor *perm, size_t *p) {
    size_t r = a->rank;
    if (perm == NULL) {
        for (size_t i = 0; i < r; i++) p[i] = r - 1 - i;
        return TX_OK;
    }
    TX_REQUIRE(perm->dtype == TX_INT32 || perm->dtype == TX_INT64, TX_UNIMPLEMENTED,
               "%s: perm must be int32 or int64, got %s", op, tx_dtype_name(perm->dtype));
    char buf[TX_DIMS_STR_CAP];
    TX_REQUIRE(perm->rank == 1, TX_INVALID_ARGUMENT, "%s: perm must be rank 1, got shape %s", op,
               tx__format_dims(buf, sizeof buf, perm->rank, perm->dims));
    TX_REQUIRE(perm->numel == (int64_t)r, TX_INVALID_ARGUMENT,
               "%s: perm has %" PRId64 " entries but a has rank %zu; they must be equal", op,
               perm->numel, r);
    bool seen[TX_MAX_RANK] = {false};
    int64_t norm[TX_MAX_RANK];
    for (size_t i = 0; i < r; i++) {
        int64_t raw = tx__index_at(perm, (int64_t)i);
        /* TensorFlow keeps perm as int32; the low 32 bits of an int64 entry, as signed, count. */
        int64_t d = (int64_t)(uint32_t)(uint64_t)raw;
        if (d > INT32_MAX) d -= (int64_t)1 << 32;
        bool narrowed = d != raw;
        if (d < 0) d += (int64_t)r;
        TX_REQUIRE(d >= 0 && d < (int64_t)r, TX_INVALID_ARGUMENT,
                   "%s: perm[%zu] = %" PRId64 " is out of range [%" PRId64 ", %zu)%s", op, i, raw,
                   -(int64_t)r, r,
                   narrowed ? " (int64 entries are narrowed to int32, as in TensorFlow)" : "");
        norm[i] = d;
        seen[d] = true;
        p[i] = (size_t)d;
    }
    for (size_t i = 0; i < r; i++)
        TX_REQUIRE(seen[i], TX_INVALID_ARGUMENT,
                   "%s: perm %s is not a permutation of [0, %zu): %zu is missing", op,
                   tx__format_dims(buf, sizeof buf, r, norm), r, i);
    return TX_OK;
}

/* Negates the imaginary part of complex values [begin, end): flipping the sign bit is exactly
 * what negation does to an IEEE value, NaN and zero included. */
typedef struct conj_job {
    char *data;
    tx_dtype dtype;
} conj_job;

static void conjugate_piece(void *ctx, int64_t begin, int64_t end) {
    const conj_job *j = ctx;
    if (j->dtype == TX_COMPLEX64) {
        for (int64_t i = begin; i < end; i++) {
            uint32_t im;
            memcpy(&im, j->data + 8 * i + 4, 4);
            im ^= UINT32_C(0x80000000);
            memcpy(j->data + 8 * i + 4, &im, 4);
        }
    } else {
        for (int64_t i = begin; i < end; i++) {
            uint64_t im;
            memcpy(&im, j->data + 16 * i + 8, 8);
            im ^= UINT64_C(0x8000000000000000);
            memcpy(j->data + 16 * i + 8, &im, 8);
        }
    }
}

static void conjugate_in_place(char *data, tx_dtype dtype, int64_t numel) {
    conj_job j = {data, dtype};
    int64_t w = (int64_t)tx_dtype_size(dtype);
    if (numel * w < TX_PARALLEL_MIN_BYTES) conjugate_piece(&j, 0, numel);
    else tx__parallel_for(numel, TX_GRAIN_BYTES / w, conjugate_piece, &j);
}

/* The run half: the transpose kernels into a contiguous output, or one strided copy into the
 * caller's output strides; then TF's conjugation of complex values. */
typedef struct transpose_plan {
    bool strided;
    bool conjugate;
    tx_dtype dtype;
    int64_t numel;
    union {
        tx__transpose_job kernel;
        tx__copy_plan copy;
    } u;
} transpose_plan;

static tx_status transpose_run(const void *plan, const tx__run_io *io) {
    const transpose_plan *p = plan;
    if (p->numel == 0) return TX_OK;
    if (p->strided) tx__copy_plan_exec(&p->u.copy, io->out[0], io->in[0]);
    else tx__transpose_job_run(&p->u.kernel, io->out[0], io->in[0]);
    if (p->conjugate) conjugate_in_place(io->out[0], p->dtype, p->numel);
    return TX_OK;
}

tx_status tx_transpose(const tx_tensor *a, const tx_tensor *perm, int conjugate,
                       tx_tensor **out) {
    static const char *op = "transpose";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, a, "a");
    size_t p[TX_MAX_RANK];
    TX_TRY(read_perm(op, a, perm, p));
    int64_t odims[TX_MAX_RANK];
    for (size_t i = 0; i < a->rank; i++) odims[i] = a->dims[p[i]];
    /* Set member by member: an initialiser would clear the kilobytes of the union in every call. */
    transpose_plan pl;
    pl.strided = false;
    /* tf.transpose(conjugate=True) uses ConjugateTranspose only for complex dtypes. */
    pl.conjugate = conjugate && (a->dtype == TX_COMPLEX64 || a->dtype == TX_COMPLEX128);
    pl.dtype = a->dtype;
    pl.numel = a->numel;
    size_t elem = tx_dtype_size(a->dtype);
    /* Conjugation runs over a contiguous output: strided outputs take the copy without it. */
    const int64_t *dst_strides = pl.conjugate ? NULL : tx__output_strides(0);
    if (dst_strides != NULL) { /* output dim i reads input dim p[i] */
        int64_t in_strides[TX_MAX_RANK], src_strides[TX_MAX_RANK];
        tx__contiguous_strides(a->rank, a->dims, elem, in_strides);
        for (size_t i = 0; i < a->rank; i++) src_strides[i] = in_strides[p[i]];
        pl.strided = true;
        tx__copy_plan_make(&pl.u.copy, a->rank, odims, dst_strides, src_strides, elem);
    } else if (a->numel > 0) {
        tx__transpose_plan tp;
        tx__transpose_plan_make(&tp, a->rank, a->dims, elem, p);
        tx__transpose_job_make(&pl.u.kernel, &tp);
    }
    TX_TRY(tx__prepared_step(op, transpose_run, &pl, sizeof pl, 1, &a, -1));
    tx_tensor *o;
    TX_TRY(alloc_like(op, a, a->rank, odims, &o));
    transpose_run(&pl, &(tx__run_io){(const char *[]){a->data}, &o->data});
    *out = o;
    return TX_OK;
}
