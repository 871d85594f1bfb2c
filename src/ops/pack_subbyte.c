/* SPDX-License-Identifier: Apache-2.0 */
/* pack_subbyte.c -- pack_subbyte and unpack_subbyte, tensorx extensions (TF has no such ops):
 * the conversions between the one-per-byte storage of the sub-byte dtypes and their packed
 * interchange form (the rules and the bit loops are core/packed.c's). */
#include "core/internal.h"

tx_status tx_pack_subbyte(const tx_tensor *x, tx_tensor **out) {
    static const char *op = "pack_subbyte";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, x, "x");
    TX_TRY(tx__check_packable(op, "x", x->dtype));
    const int64_t n = (int64_t)tx__packed_size(tx__dtype(x->dtype)->value_bits, x->numel);
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, TX_UINT8, 1, &n, &o));
    tx__pack_bits(x, (uint8_t *)o->data);
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
    return tx__from_packed(op, dtype, rank, dims, packed->data, packed->nbytes, out);
}
