/* SPDX-License-Identifier: Apache-2.0 */
/* pack_subbyte.c -- pack_subbyte, unpack_subbyte and cast_pack, tensorx extensions (TF has no such
 * ops): the conversions between the one-per-byte storage of the sub-byte dtypes and their packed
 * interchange form (the rules and the bit loops are exec/packed.c's), and tf.cast to a sub-byte
 * dtype straight into that form (the cast kernels are tf.cast's, ops/cast.c). */
#include "core/internal.h"
#include "core/tuning.h"
#include "exec/packed.h"
#include "exec/pool.h"
#include "ops/cast.h"

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

/* ---- cast_pack: a tile at a time through a buffer on the stack, one pass over memory ---- */

_Static_assert(TX_CAST_PACK_TILE % TX__PACK_GROUP == 0, "a tile starts on a packed byte");

typedef struct cast_pack_plan {
    tx__cast_fn fn; /* tf.cast's kernel for x's dtype -> dtype */
    tx_dtype dtype;
    int64_t numel, grain;
    size_t src_size, group_bytes; /* x's element size; the packed bytes of TX__PACK_GROUP codes */
} cast_pack_plan;

typedef struct cast_pack_job {
    const cast_pack_plan *p;
    const char *src;
    uint8_t *dst;
} cast_pack_job;

/* Casts n elements of x at s into codes a chunk at a time, each chunk's call preceded by the
 * prefetch of the source TX_CAST_PACK_PREFETCH bytes ahead (while it lies within the piece). */
static void cast_chunks(const cast_pack_plan *p, uint8_t *codes, const char *s, int64_t n,
                        const char *piece_end) {
    const int64_t chunk = TX_CAST_PACK_CHUNK_BYTES / (int64_t)p->src_size;
    for (int64_t c = 0; c < n; c += chunk) {
        const char *at = s + (size_t)c * p->src_size;
        if (piece_end - at > TX_CAST_PACK_PREFETCH + TX_CAST_PACK_CHUNK_BYTES)
            for (int l = 0; l < TX_CAST_PACK_CHUNK_BYTES; l += 64)
                __builtin_prefetch(at + TX_CAST_PACK_PREFETCH + l, 0, 2);
        p->fn(codes + c, at, n - c < chunk ? n - c : chunk);
    }
}

/* Elements [begin, end): begin is a multiple of the grain, a multiple of TX__PACK_GROUP, and so
 * is every tile's start, so each tile writes whole bytes of its own. */
static void cast_pack_piece(void *ctx, int64_t begin, int64_t end) {
    const cast_pack_job *j = ctx;
    const cast_pack_plan *p = j->p;
    _Alignas(16) uint8_t codes[TX_CAST_PACK_TILE];
    const char *piece_end = j->src + (size_t)end * p->src_size;
    for (int64_t i = begin; i < end; i += TX_CAST_PACK_TILE) {
        int64_t k = end - i < TX_CAST_PACK_TILE ? end - i : TX_CAST_PACK_TILE;
        cast_chunks(p, codes, j->src + (size_t)i * p->src_size, k, piece_end);
        uint8_t *to = j->dst + (size_t)(i / TX__PACK_GROUP) * p->group_bytes;
        tx__pack_bits_serial(p->dtype, k, codes, to);
    }
}

static tx_status cast_pack_run(const void *plan, const tx__run_io *io) {
    const cast_pack_plan *p = plan;
    cast_pack_job j = {p, io->in[0], (uint8_t *)io->out[0]};
    tx__parallel_for(p->numel, p->grain, cast_pack_piece, &j);
    return TX_OK;
}

tx_status tx_cast_pack(const tx_tensor *x, tx_dtype dtype, tx_tensor **out) {
    static const char *op = "cast_pack";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, x, "x");
    TX_TRY(tx__check_packable(op, "dtype", dtype));
    cast_pack_plan plan = {NULL, dtype, x->numel, 0, tx_dtype_size(x->dtype),
                           tx__dtype(dtype)->value_bits / 2};
    /* The tile stays in cache: the kernel with ordinary stores, whatever x's size. */
    TX_TRY(tx__cast_plain_kernel(op, x->dtype, dtype, 0, &plan.fn));
    /* About TX_GRAIN_BYTES of x per grain, in whole groups (element sizes: powers of two <= 16). */
    plan.grain = TX_GRAIN_BYTES / (int64_t)plan.src_size;
    assert(plan.grain % TX__PACK_GROUP == 0);
    const int64_t n = (int64_t)tx__packed_size(tx__dtype(dtype)->value_bits, x->numel);
    TX_TRY(tx__prepared_step(op, cast_pack_run, &plan, sizeof plan, 1, &x, -1));
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, TX_UINT8, 1, &n, &o));
    cast_pack_run(&plan, &(tx__run_io){(const char *[]){x->data}, &o->data});
    *out = o;
    return TX_OK;
}
