/* SPDX-License-Identifier: Apache-2.0 */
/* encode.c -- TF's tf.one_hot (OneHot) and tf.sequence_mask: ops that encode integer positions
 * as dense tensors.  Both write each output element exactly once (a fill of the off/zero value
 * around the on/one values, never a fill followed by a second pass).  The rules follow TF's
 * one_hot_op.cc and the Python sequence_mask (a Range compared with the lengths, then a Cast).
 * tx_one_hot_oob maps out-of-range indices under clamp/wrap; error and zero keep TF's all-off
 * row. */
#include "ops/gather.h"

#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "exec/pool.h"

#include <inttypes.h>

/* ---- one_hot --------------------------------------------------------------------------------- */

/* The run half: the kernel, the output as [prefix, depth, suffix] (prefix 0: empty), and the
 * on and off values, fixed at prepare time (16 bytes hold every dtype's element). */
typedef struct one_hot_plan {
    tx__one_hot_fn fn;
    tx_dtype ti;
    tx_oob_policy oob;
    int64_t prefix, depth, suffix, grain;
    size_t width;
    unsigned char on[16], off[16];
    bool fill;      /* fill_then_set instead of the kernel */
    int fill_byte;  /* then: the one byte the off value is made of */
} one_hot_plan;

typedef struct {
    const one_hot_plan *p;
    char *out;
    const char *indices;
} one_hot_job;

/* Rows [begin, end) when the off value is one repeated byte: a block of rows at a time (so that
 * the on values land while it is in L1), memset, then each on value stored.  The C library's
 * fill writes whole lines without reading them first (x86's fast rep stosb), which the
 * kernel's line-by-line stores cannot: float32 one_hot of depth 1000, one thread, into an
 * output written before: 1 MiB 17.2 -> 6.6 us, 16 MiB 280 -> 137 us.  Each index is read once
 * and checked, as the kernels do. */
static void fill_then_set(const one_hot_plan *p, char *out, const char *indices, int64_t begin,
                          int64_t end) {
    const int64_t row = p->depth * p->suffix * (int64_t)p->width;
    const int64_t block = TX_ONE_HOT_FILL_BLOCK_BYTES / row > 0 ? TX_ONE_HOT_FILL_BLOCK_BYTES / row : 1;
    for (int64_t b = begin; b < end; b += block) {
        const int64_t e = end - b < block ? end : b + block;
        memset(out + b * row, p->fill_byte, (size_t)((e - b) * row));
        for (int64_t r = b; r < e; r++)
            for (int64_t s = 0; s < p->suffix; s++) {
                const int64_t v = tx__oob_position(tx__one_hot_index(indices, p->ti, r * p->suffix + s),
                                                   p->depth, p->oob);
                if (v >= 0 && v < p->depth)
                    memcpy(out + ((r * p->depth + v) * p->suffix + s) * (int64_t)p->width, p->on, p->width);
            }
    }
}

/* Rows [begin, end) of the [prefix, depth, suffix] output: each piece writes its own rows, so the
 * bits do not depend on the thread count, and a large fresh output's page faults are spread over
 * the threads. */
static void one_hot_rows(void *ctx, int64_t begin, int64_t end) {
    const one_hot_job *j = ctx;
    const one_hot_plan *p = j->p;
    if (p->fill) {
        fill_then_set(p, j->out, j->indices, begin, end);
        return;
    }
    /* Bytes of an output row and of an indices row: at most the (non-empty) tensors' sizes. */
    const size_t row = (size_t)(p->depth * p->suffix) * p->width;
    const size_t irow = (size_t)p->suffix * tx_dtype_size(p->ti);
    p->fn(j->out + (size_t)begin * row, j->indices + (size_t)begin * irow, p->ti, end - begin,
          p->depth, p->suffix, p->on, p->off, p->width, p->oob);
}

static tx_status one_hot_run(const void *plan, const tx__run_io *io) {
    const one_hot_plan *p = plan;
    if (p->prefix == 0) return TX_OK;
    one_hot_job j = {p, io->out[0], io->in[0]};
    tx__parallel_for(p->prefix, p->grain, one_hot_rows, &j);
    return TX_OK;
}

static tx_status check_value(const char *op, const char *what, const tx_tensor *v, tx_dtype dtype) {
    if (v == NULL) {
        TX_REQUIRE(dtype != TX_STRING, TX_INVALID_ARGUMENT,
                   "%s: %s must be given for a string dtype (TF has no default for it)", op, what);
        return TX_OK;
    }
    char sbuf[TX_DIMS_STR_CAP];
    TX_REQUIRE(v->rank == 0, TX_INVALID_ARGUMENT, "%s: %s must be a scalar, but got shape %s", op,
               what, tx__format_dims(sbuf, sizeof sbuf, v->rank, v->dims));
    TX_REQUIRE(v->dtype == dtype, TX_INVALID_ARGUMENT, "%s: %s is %s but dtype is %s", op, what,
               tx_dtype_name(v->dtype), tx_dtype_name(dtype));
    return TX_OK;
}

tx_status tx_one_hot(const tx_tensor *indices, int64_t depth, const tx_tensor *on_value,
                     const tx_tensor *off_value, int64_t axis, tx_dtype dtype, tx_tensor **out) {
    return tx_one_hot_oob(indices, depth, on_value, off_value, axis, dtype, TX_OOB_ERROR, out);
}

tx_status tx_one_hot_oob(const tx_tensor *indices, int64_t depth, const tx_tensor *on_value,
                         const tx_tensor *off_value, int64_t axis, tx_dtype dtype,
                         tx_oob_policy oob, tx_tensor **out) {
    static const char *op = "one_hot";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(tx__check_oob(op, oob));
    TX_REQUIRE_TENSOR(op, indices, "indices");
    tx_dtype ti = indices->dtype;
    TX_REQUIRE(ti == TX_UINT8 || ti == TX_INT8 || ti == TX_INT32 || ti == TX_INT64,
               TX_UNIMPLEMENTED, "%s: indices must be uint8, int8, int32 or int64, got %s", op,
               tx_dtype_name(ti));
    TX_REQUIRE(tx__dtype(dtype) != NULL, TX_INVALID_ARGUMENT, "%s: unknown dtype %d", op, (int)dtype);
    const int64_t irank = (int64_t)indices->rank;
    TX_REQUIRE(axis == -1 || (axis >= 0 && axis <= irank), TX_INVALID_ARGUMENT,
               "%s: axis must be -1 or in [0, %" PRId64 "], got %" PRId64, op, irank, axis);
    TX_REQUIRE(depth >= 0, TX_INVALID_ARGUMENT, "%s: depth must be non-negative, got %" PRId64, op,
               depth);
    TX_REQUIRE(depth <= INT32_MAX, TX_INVALID_ARGUMENT, "%s: depth %" PRId64 " does not fit int32",
               op, depth);
    TX_TRY(check_value(op, "on_value", on_value, dtype));
    TX_TRY(check_value(op, "off_value", off_value, dtype));
    one_hot_plan p = {.fn = tx__kernels_get()->one_hot, .ti = ti, .oob = oob, .depth = depth,
                      .width = tx_dtype_size(dtype)};
    tx__one_value(dtype, p.on); /* unused for strings: both values are given then */
    if (on_value) memcpy(p.on, on_value->data, p.width);
    if (off_value) memcpy(p.off, off_value->data, p.width);

    const size_t a = axis == -1 ? indices->rank : (size_t)axis;
    int64_t dims[TX_MAX_RANK + 1];
    memcpy(dims, indices->dims, a * sizeof *dims);
    dims[a] = depth;
    memcpy(dims + a + 1, indices->dims + a, (indices->rank - a) * sizeof *dims);
    int64_t onumel;
    TX_TRY(tx__check_output(op, dtype, indices->rank + 1, dims, &onumel));
    if (onumel > 0) {
        /* Only for a non-empty output: then no dim is 0 and every partial product is at most
         * numel (with a 0 dim elsewhere, the products before it could overflow). */
        p.prefix = tx__dims_product(indices->dims, 0, a);
        p.suffix = tx__dims_product(indices->dims, a, indices->rank);
        const int64_t row_bytes = depth * p.suffix * (int64_t)p.width; /* <= the output's bytes */
        const int64_t grain = TX_GRAIN_BYTES / row_bytes; /* rows of about a grain of output */
        p.grain = grain > 0 ? grain : 1;
        /* Fill and set where on values are sparse and the output is below the streaming
         * threshold (from there the kernel's streaming stores write it without reading). */
        p.fill = depth * (int64_t)p.width >= TX_ONE_HOT_FILL_MIN_ROW_BYTES &&
                 onumel * (int64_t)p.width < tx__stream_min_bytes &&
                 memcmp(p.off, p.off + 1, p.width - 1) == 0;
        p.fill_byte = p.off[0];
    }
    TX_TRY(tx__prepared_step(op, one_hot_run, &p, sizeof p, 1, &indices, -1));
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, dtype, indices->rank + 1, dims, &o));
    (void)one_hot_run(&p, &(tx__run_io){(const char *[]){indices->data}, &o->data});
    tx_status st = TX_OK;
    if (on_value) st = tx__share_strings(o, on_value);
    if (st == TX_OK && off_value) st = tx__share_strings(o, off_value);
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    *out = o;
    return TX_OK;
}

/* ---- sequence_mask --------------------------------------------------------------------------- */

/* The run half of sequence_mask: row i of the [numel, m] output is `one` in its first
 * clamp(lengths[i], 0, m) elements and zeros after.  The lengths are a data input when maxlen is
 * given: m is then fixed at prepare time. */
typedef struct sequence_mask_plan {
    tx_dtype ldtype;     /* the lengths' */
    bool wrap32;         /* each length is first cast to int32, as TF casts it to maxlen's dtype */
    int64_t numel, m;
    size_t w;
    tx__fill_fn fill;
    unsigned char one[16];
} sequence_mask_plan;

/* Element i of the lengths as int64; a uint64 above INT64_MAX wraps (two's complement), as
 * TF's Cast to int64 does.  With wrap32 the value is first cast to int32 (two's complement wrap),
 * as TF casts lengths to maxlen's dtype. */
static int64_t length_at(const char *lengths, tx_dtype dtype, int64_t i, bool wrap32) {
    int64_t v = tx__int_at(lengths, dtype, i);
    if (wrap32) {
        uint32_t low = (uint32_t)v;
        return low > INT32_MAX ? (int64_t)low - 4294967296LL : (int64_t)low;
    }
    return v;
}

static tx_status sequence_mask_run(const void *plan, const tx__run_io *io) {
    const sequence_mask_plan *p = plan;
    if (p->m == 0) return TX_OK;
    char *row = io->out[0]; /* steps of m * w bytes: rows of the non-empty output */
    for (int64_t i = 0; i < p->numel; i++, row += p->m * (int64_t)p->w) {
        int64_t len = length_at(io->in[0], p->ldtype, i, p->wrap32);
        int64_t c = len < 0 ? 0 : len > p->m ? p->m : len;
        p->fill(row, p->one, p->w, c);
        memset(row + c * (int64_t)p->w, 0, (size_t)(p->m - c) * p->w);
    }
    return TX_OK;
}

tx_status tx_sequence_mask(const tx_tensor *lengths, const tx_tensor *maxlen, tx_dtype dtype,
                           tx_tensor **out) {
    static const char *op = "sequence_mask";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, lengths, "lengths");
    tx_dtype_kind lk = tx_dtype_kind_of(lengths->dtype);
    /* A dtype TF's Max / Cast / Less do not list is unimplemented, tensorx's category for a
     * dtype an op does not take. */
    TX_REQUIRE(lk == TX_KIND_SIGNED || lk == TX_KIND_UNSIGNED, TX_UNIMPLEMENTED,
               "%s: lengths must be an integer tensor, got %s", op, tx_dtype_name(lengths->dtype));
    /* TF 2.21 decides: without maxlen TF computes max(lengths), whose Max does not list sub-byte
     * dtypes; with maxlen the lengths are cast to its dtype, which works for int4/uint4 too. */
    TX_REQUIRE(maxlen != NULL || !tx__is_subbyte(lengths->dtype), TX_UNIMPLEMENTED,
               "%s: lengths dtype %s needs maxlen (TF's Max takes no sub-byte dtype)",
               op, tx_dtype_name(lengths->dtype));
    TX_REQUIRE(tx__dtype(dtype) != NULL, TX_INVALID_ARGUMENT, "%s: unknown dtype %d", op, (int)dtype);
    /* TF casts the bool mask to dtype; its Cast has no bool kernel to the string, sub-byte and
     * 8-bit float types. */
    TX_REQUIRE(dtype != TX_STRING && !tx__is_subbyte(dtype) && !tx__is_small_float(dtype),
               TX_UNIMPLEMENTED,
               "%s: dtype %s is not supported (TF cannot cast bool to %s)", op,
               tx_dtype_name(dtype), tx_dtype_name(dtype));
    sequence_mask_plan p = {.ldtype = lengths->dtype, .numel = lengths->numel,
                            .w = tx_dtype_size(dtype), .fill = tx__kernels_get()->fill};
    tx__one_value(dtype, p.one);
    if (maxlen != NULL) {
        char sbuf[TX_DIMS_STR_CAP];
        TX_REQUIRE(maxlen->rank == 0, TX_INVALID_ARGUMENT, "%s: maxlen must be a scalar, got shape %s",
                   op, tx__format_dims(sbuf, sizeof sbuf, maxlen->rank, maxlen->dims));
        TX_REQUIRE(maxlen->dtype == TX_INT32 || maxlen->dtype == TX_INT64, TX_UNIMPLEMENTED,
                   "%s: maxlen must be int32 or int64, got %s", op, tx_dtype_name(maxlen->dtype));
        TX_TRY(tx__read_int_scalar(op, "maxlen", maxlen, &p.m));
        TX_REQUIRE(p.m >= 0, TX_INVALID_ARGUMENT,
                   "%s: maxlen %" PRId64 " is negative (TF's Range needs 0 <= maxlen)", op, p.m);
        p.wrap32 = maxlen->dtype == TX_INT32;
    } else {
        /* The last dim is max(lengths): a value, which a prepare does not read. */
        TX_REQUIRE(!tx__preparing(), TX_UNIMPLEMENTED, "%s: without maxlen the output's shape "
                   "depends on the values of lengths; a prepared op needs maxlen", op);
        for (int64_t i = 0; i < lengths->numel; i++) {
            int64_t v = length_at(lengths->data, lengths->dtype, i, false);
            if (v > p.m) p.m = v;
        }
    }
    int64_t dims[TX_MAX_RANK + 1];
    memcpy(dims, lengths->dims, lengths->rank * sizeof *dims);
    dims[lengths->rank] = p.m;
    if (maxlen != NULL)
        TX_TRY(tx__prepared_step(op, sequence_mask_run, &p, sizeof p, 1, &lengths, -1));
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc_flags(op, dtype, lengths->rank + 1, dims,
                                  maxlen ? 0u : TX_OUTPUT_DATA_DEPENDENT, &o));
    (void)sequence_mask_run(&p, &(tx__run_io){(const char *[]){lengths->data}, &o->data});
    *out = o;
    return TX_OK;
}
