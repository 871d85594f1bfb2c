/* SPDX-License-Identifier: Apache-2.0 */
/* space_paddings.c -- TF's tf.required_space_to_batch_paddings: the paddings and crops that make
 * a spatial shape a multiple of a block shape (the Python function of array_ops.py, whose int32
 * arithmetic is done here in int64 with its values checked).  Its prepared form takes input_shape
 * as data; block_shape and base_paddings are fixed at prepare time. */
#include "ops/spatial.h"

#include <inttypes.h>

/* TF's Python function converts every argument to int32, so each value must fit int32; it does not
 * check signs, but its documented rules (base_paddings >= 0) and meaningful shapes are enforced
 * here with clean errors instead of numpy's division by zero or wrap-around. */
static tx_status int32_value(const char *what, const char *data, tx_dtype dtype, int64_t i,
                             int64_t min, int64_t *v) {
    *v = tx__int_at(data, dtype, i);
    TX_REQUIRE(*v >= min && *v <= INT32_MAX, TX_INVALID_ARGUMENT,
               "required_space_to_batch_paddings: %s entry %" PRId64 " = %" PRId64 " must be in [%"
               PRId64 ", %d]", what, i, *v, min, INT32_MAX);
    return TX_OK;
}

/* The run half, for rows [first, first + m) of the result (every row when there are at most
 * TX_MAX_RANK): block_shape and base_paddings are attributes, checked into the plan at prepare
 * time; input_shape is the data input, whose values the run reads once each and checks. */
typedef struct paddings_plan {
    int64_t first, m;
    tx_dtype idtype; /* input_shape's */
    int32_t blk[TX_MAX_RANK], b0[TX_MAX_RANK], b1[TX_MAX_RANK];
} paddings_plan;

/* Row i: base paddings b0, b1 and the extra end padding that makes the padded dim a multiple of
 * the block, written when pad is not NULL. */
static tx_status paddings_rows(const paddings_plan *p, const char *input_shape, char *pad,
                               char *crop) {
    for (int64_t k = 0, i = p->first; k < p->m; k++, i++) {
        int64_t in, blk = p->blk[k], b0 = p->b0[k], b1 = p->b1[k];
        TX_TRY(int32_value("input_shape", input_shape, p->idtype, i, 0, &in));
        int64_t extra = (blk - (in + b0 + b1) % blk) % blk; /* each term is in [0, INT32_MAX] */
        TX_REQUIRE(b1 + extra <= INT32_MAX, TX_INVALID_ARGUMENT,
                   "required_space_to_batch_paddings: padding end %" PRId64 " of dim %" PRId64
                   " does not fit int32", b1 + extra, i);
        int32_t pv[2] = {(int32_t)b0, (int32_t)(b1 + extra)}, cv[2] = {0, (int32_t)extra};
        if (pad) memcpy(pad + 8 * i, pv, 8);
        if (crop) memcpy(crop + 8 * i, cv, 8);
    }
    return TX_OK;
}
static tx_status paddings_run(const void *plan, const tx__run_io *io) {
    return paddings_rows(plan, io->in[0], io->out[0], io->out[1]);
}

/* The attributes of rows [first, first + TX_MAX_RANK) of m into p, every value read once and
 * checked. */
static tx_status paddings_plan_make(paddings_plan *p, const tx_tensor *block_shape,
                                    const tx_tensor *base_paddings, int64_t first, int64_t m) {
    p->first = first;
    p->m = m - first < TX_MAX_RANK ? m - first : TX_MAX_RANK;
    for (int64_t k = 0, i = first; k < p->m; k++, i++) {
        int64_t blk, b0 = 0, b1 = 0;
        TX_TRY(int32_value("block_shape", block_shape->data, block_shape->dtype, i, 1, &blk));
        if (base_paddings != NULL) {
            TX_TRY(int32_value("base_paddings", base_paddings->data, base_paddings->dtype, 2 * i,
                               0, &b0));
            TX_TRY(int32_value("base_paddings", base_paddings->data, base_paddings->dtype,
                               2 * i + 1, 0, &b1));
        }
        p->blk[k] = (int32_t)blk;
        p->b0[k] = (int32_t)b0;
        p->b1[k] = (int32_t)b1;
    }
    return TX_OK;
}

/* All m rows in plans of TX_MAX_RANK, the attributes read and checked again (values another
 * thread changed since, a block size of 0, fail instead of dividing by zero); pad NULL: checks. */
static tx_status paddings_all(const tx_tensor *input_shape, const tx_tensor *block_shape,
                              const tx_tensor *base_paddings, int64_t m, char *pad, char *crop) {
    paddings_plan p;
    p.idtype = input_shape->dtype;
    for (int64_t first = 0; first < m; first += TX_MAX_RANK) {
        TX_TRY(paddings_plan_make(&p, block_shape, base_paddings, first, m));
        TX_TRY(paddings_rows(&p, input_shape->data, pad, crop));
    }
    return TX_OK;
}

/* Both outputs are int32 [m, 2]; ctx is those dims. */
static void paddings_spec(void *ctx, size_t i, tx__out_spec *s) {
    (void)i;
    s->dtype = TX_INT32;
    s->rank = 2;
    memcpy(s->dims, ctx, 2 * sizeof *s->dims);
}

tx_status tx_required_space_to_batch_paddings(const tx_tensor *input_shape,
                                              const tx_tensor *block_shape,
                                              const tx_tensor *base_paddings, tx_tensor **outs) {
    static const char *op = "required_space_to_batch_paddings";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    outs[0] = outs[1] = NULL;
    TX_TRY(tx__check_int_tensor(op, "input_shape", input_shape));
    TX_TRY(tx__check_int_tensor(op, "block_shape", block_shape));
    if (base_paddings != NULL) TX_TRY(tx__check_int_tensor(op, "base_paddings", base_paddings));
    TX_REQUIRE(block_shape->rank == 1, TX_INVALID_ARGUMENT,
               "%s: block_shape must be 1-D, got rank %zu", op, block_shape->rank);
    const int64_t m = block_shape->dims[0];
    int64_t dims[2] = {m, 2};
    paddings_plan p; /* member by member: the rows past m stay unwritten */
    p.first = p.m = 0;
    p.idtype = input_shape->dtype;
    if (m > 0) {
        if (input_shape->rank != 1 || input_shape->dims[0] != m) {
            char buf[TX_DIMS_STR_CAP];
            return tx__fail(TX_INVALID_ARGUMENT, "%s: input_shape must have shape [%" PRId64
                            "], got %s", op, m,
                            tx__format_dims(buf, sizeof buf, input_shape->rank, input_shape->dims));
        }
        if (base_paddings != NULL) TX_TRY(tx__check_pairs(op, "base_paddings", base_paddings, m));
        /* The attributes' values first, every row, then input_shape's (a run's); p keeps the
         * first TX_MAX_RANK rows. */
        for (int64_t first = 0; first < m; first += TX_MAX_RANK)
            TX_TRY(paddings_plan_make(&p, block_shape, base_paddings, first, m));
    }
    if (m <= TX_MAX_RANK) TX_TRY(tx__prepared_step(op, paddings_run, &p, sizeof p, 1, &input_shape, -1));
    else if (tx__preparing())
        return tx__fail(TX_UNIMPLEMENTED, "%s: a prepared op takes at most %d block dims, got %"
                        PRId64, op, TX_MAX_RANK, m);
    if (tx__planning() && !tx__preparing())
        TX_TRY(paddings_all(input_shape, block_shape, base_paddings, m, NULL, NULL));
    TX_TRY(tx__tensor_alloc_n(op, 2, paddings_spec, dims, outs));
    tx_status st = m <= TX_MAX_RANK
                       ? paddings_run(&p, &(tx__run_io){(const char *[]){input_shape->data},
                                                        (char *[]){outs[0]->data, outs[1]->data}})
                       : paddings_all(input_shape, block_shape, base_paddings, m, outs[0]->data,
                                      outs[1]->data);
    if (st != TX_OK) tx__free_all(outs, 2);
    return st;
}
