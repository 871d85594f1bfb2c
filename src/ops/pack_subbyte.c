/* SPDX-License-Identifier: Apache-2.0 */
/* pack_subbyte.c -- pack_subbyte and unpack_subbyte, tensorx extensions (TF has no such ops):
 * the conversions between the one-per-byte storage of the sub-byte dtypes and their packed
 * interchange form (the rules and the bit loops are core/packed.c's). */
#include "core/internal.h"

/* The run half of both: the dtype of the one-per-byte side and its element count. */
typedef struct subbyte_plan {
    tx_dtype dtype;
    int64_t numel;
    size_t nbytes;       /* the packed side's bytes */
    bool check_pad_bits; /* unpack, prepared: the padding bits are the run's to check */
} subbyte_plan;

static tx_status pack_run(const void *plan, const tx__run_io *io) {
    const subbyte_plan *p = plan;
    tx__pack_bits(p->dtype, p->numel, (const uint8_t *)io->in[0], (uint8_t *)io->out[0]);
    return TX_OK;
}

static tx_status unpack_run(const void *plan, const tx__run_io *io) {
    const subbyte_plan *p = plan;
    const uint8_t *packed = (const uint8_t *)io->in[0];
    if (p->check_pad_bits)
        TX_TRY(tx__check_pad_bits("unpack_subbyte", p->dtype, p->numel, packed, p->nbytes));
    tx__unpack_bits(p->dtype, p->numel, packed, (uint8_t *)io->out[0]);
    return TX_OK;
}

tx_status tx_pack_subbyte(const tx_tensor *x, tx_tensor **out) {
    static const char *op = "pack_subbyte";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, x, "x");
    TX_TRY(tx__check_packable(op, "x", x->dtype));
    const int64_t n = (int64_t)tx__packed_size(tx__dtype(x->dtype)->value_bits, x->numel);
    subbyte_plan plan = {x->dtype, x->numel, (size_t)n, false};
    TX_TRY(tx__prepared_step(op, pack_run, &plan, sizeof plan, 1, &x, -1));
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, TX_UINT8, 1, &n, &o));
    pack_run(&plan, &(tx__run_io){(const char *[]){x->data}, &o->data});
    *out = o;
    return TX_OK;
}

tx_status tx_unpack_subbyte(const tx_tensor *packed, tx_dtype dtype, size_t rank,
                            const int64_t *dims, tx_tensor **out) {
    static const char *op = "unpack_subbyte";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, packed, "packed");
    TX_REQUIRE(packed->dtype == TX_UINT8 && packed->rank == 1, TX_INVALID_ARGUMENT,
               "%s: packed must be a 1-D uint8 tensor, got %s of rank %zu", op,
               tx_dtype_name(packed->dtype), packed->rank);
    subbyte_plan plan = {dtype, 0, packed->nbytes, false};
    TX_TRY(tx__packed_layout(op, dtype, rank, dims, packed->nbytes, &plan.numel));
    /* The padding bits are data: checked before anything is allocated, as the call always did,
     * except when preparing, which does not read data inputs (each run checks them). */
    if (tx__preparing()) plan.check_pad_bits = true;
    else TX_TRY(tx__check_pad_bits(op, dtype, plan.numel, (const uint8_t *)packed->data, packed->nbytes));
    TX_TRY(tx__prepared_step(op, unpack_run, &plan, sizeof plan, 1, &packed, -1));
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, dtype, rank, dims, &o));
    unpack_run(&plan, &(tx__run_io){(const char *[]){packed->data}, &o->data});
    *out = o;
    return TX_OK;
}
