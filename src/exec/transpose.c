/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c -- the transpose executor (exec/transpose.h): a planned transpose runs as batches of
 * tiled 2-D transposes by the dispatched kernel of its element width (kernels/transpose.h), or
 * for very wide elements as the generic strided copy; large planes are cut into blocks that
 * spread over the thread pool. */
#include "exec/transpose.h"

#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "exec/copy.h"
#include "exec/pool.h"
#include "kernels/transpose.h"

static int64_t at_least_one(int64_t v) { return v < 1 ? 1 : v; }

/* A unit of work: a job and the buffers of one run (the job itself is never copied). */
typedef struct transpose_call {
    const tx__transpose_job *j;
    char *dst;
    const char *src;
} transpose_call;

static void transpose_piece(void *ctx, int64_t begin, int64_t end) {
    const transpose_call *call = ctx;
    const tx__transpose_job *j = call->j;
    int64_t idx[TX_MAX_RANK];
    const int64_t per_plane = j->nrc * j->ncc, w = (int64_t)j->width;
    int64_t batch = begin / per_plane, block = begin % per_plane;
    const char *s = call->src;
    char *d = call->dst;
    for (size_t k = j->nb; k-- > 0;) {
        idx[k] = batch % j->bdims[k];
        batch /= j->bdims[k];
        s += idx[k] * j->bsrc[k];
        d += idx[k] * j->bdst[k];
    }
    for (int64_t u = begin; u < end; u++) {
        int64_t r0 = block / j->ncc * j->chunk_rows, c0 = block % j->ncc * j->chunk_cols;
        int64_t rn = j->rows - r0 < j->chunk_rows ? j->rows - r0 : j->chunk_rows;
        int64_t cn = j->cols - c0 < j->chunk_cols ? j->cols - c0 : j->chunk_cols;
        if (j->kernel)
            j->kernel(d + r0 * w + c0 * j->dstride, s + r0 * j->sstride + c0 * w, rn, cn,
                      j->sstride, j->dstride, j->stream);
        else
            j->any(d + r0 * w + c0 * j->dstride, s + r0 * j->sstride + c0 * w, rn, cn, j->sstride,
                   j->dstride, j->width);
        if (++block < per_plane) continue;
        block = 0;
        for (size_t k = j->nb; k-- > 0;) {
            if (++idx[k] < j->bdims[k]) {
                s += j->bsrc[k];
                d += j->bdst[k];
                break;
            }
            idx[k] = 0;
            s -= (j->bdims[k] - 1) * j->bsrc[k];
            d -= (j->bdims[k] - 1) * j->bdst[k];
        }
    }
}

/* The block side for splitting a plane of `n` elements along one side: n itself when small,
 * otherwise `target` elements rounded down to a multiple of 64 (a whole number of tiles of every
 * kernel, so blocks keep the tiles' alignment), at least 64. */
static int64_t block_side(int64_t n, int64_t target) {
    if (n <= 64) return n;
    int64_t b = target / 64 * 64;
    if (b < 64) b = 64;
    return b < n ? b : n;
}

/* Makes the job of a plan: batches of 2-D transposes (the dispatched kernel of the element width,
 * or the width-generic tiled one), or for very wide elements the generic strided copy, whose
 * memcpy runs are then long enough.  Both split large work over the thread pool when run.  The
 * plan is of a non-empty tensor: strides, plane and batch sizes are products of its dims, at most
 * its byte size. */
void tx__transpose_job_make(tx__transpose_job *j, const tx__transpose_plan *pl) {
    size_t r = pl->rank, w = pl->width;
    if (r == 0) {
        j->copy = true;
        tx__copy_plan_make(&j->copy_plan, 0, NULL, NULL, NULL, w);
        return;
    }
    int64_t in_strides[TX_MAX_RANK], odims[TX_MAX_RANK], ostrides[TX_MAX_RANK],
        src_strides[TX_MAX_RANK];
    tx__contiguous_strides(r, pl->dims, w, in_strides);
    for (size_t k = 0; k < r; k++) {
        odims[k] = pl->dims[pl->perm[k]];
        src_strides[k] = in_strides[pl->perm[k]];
    }
    tx__contiguous_strides(r, odims, w, ostrides);
    int wi = tx__width_index(w);
    j->copy = wi < 0 && w >= TX_TRANSPOSE_ANY_MAX_WIDTH;
    if (j->copy) {
        tx__copy_plan_make(&j->copy_plan, r, odims, ostrides, src_strides, w);
        return;
    }
    /* The plane: output-innermost dim a (source rows) by input-innermost dim b (source columns,
     * at output position qb); the other dims form the batch, walked in output order. */
    size_t a = pl->perm[r - 1], b = r - 1, qb = 0;
    while (pl->perm[qb] != b) qb++;
    j->nb = 0;
    int64_t nbatch = 1;
    for (size_t k = 0; k + 1 < r; k++) {
        if (k == qb) continue;
        j->bdims[j->nb] = odims[k];
        j->bsrc[j->nb] = src_strides[k];
        j->bdst[j->nb] = ostrides[k];
        nbatch *= odims[k];
        j->nb++;
    }
    const tx__kernels *K = tx__kernels_get();
    j->kernel = wi >= 0 ? K->transpose2d[wi] : NULL;
    j->any = K->transpose2d_any;
    j->width = w;
    j->rows = pl->dims[a];
    j->cols = pl->dims[b];
    j->sstride = in_strides[a];
    j->dstride = ostrides[qb];
    int64_t plane = j->rows * j->cols * (int64_t)w;
    j->total = nbatch * plane;
    j->stream = j->total >= tx__stream_min_bytes;
    /* Planes above a grain are cut into blocks so that a few large planes -- or one -- still
     * spread over the threads:
     *  - destination rows a multiple of TX_TRANSPOSE_ALIASED_STRIDE apart (power-of-two planes):
     *    stripes of TX_TRANSPOSE_ALIASED_COLS source columns across all rows, so that a block
     *    writes no more destination rows at a time than the L1 sets they share can hold (not
     *    when streaming: those stores bypass L1, and the narrow stripes cost 64 planes of
     *    512x512 float32 3.4 -> 4.1 ms on one thread);
     *  - otherwise up to TX_TRANSPOSE_STRIPES_MAX_BYTES, 16 stripes of at least 64 source columns across
     *    all rows (8 were as fast up to 512x512 float32, slower at 768x768), each writing whole
     *    destination rows: every call gives each thread the same part of the source and a
     *    contiguous part of the destination, which stay in its core's L2.  Not for planes of
     *    fewer than 64 rows: the kernels' paths for a few rows set up per call, which 16 thin
     *    stripes paid 16 times (NCHW -> NHWC of 1x3x74x74 float32, one thread: 2.1 us, against
     *    0.70 for 1x3x73x73 in one block);
     *  - above it, blocks of about a grain (bands of rows across all columns while such a band
     *    is at most a grain, then narrower).  A block has at least 1 KiB of each destination row
     *    it writes (the kernels' streaming unit) and of each source row it reads, when the plane
     *    has that much: 64 KiB blocks of 8192x8192 float32 read 256-byte pieces of the source
     *    rows and took 1.1-1.3x memcpy's time, 1 KiB pieces 0.76x.
     * Either way a plane gets four blocks at least (256x256 float32 was one block of 1 KiB
     * rows: 9 us on one thread, 5.3 us on two). */
    const bool aliased = w >= 2 && j->dstride % TX_TRANSPOSE_ALIASED_STRIDE == 0 &&
                         plane <= TX_TRANSPOSE_ALIASED_MAX_BYTES && !j->stream;
    if (plane > TX_GRAIN_BYTES && aliased) {
        j->chunk_rows = j->rows;
        j->chunk_cols = j->cols < TX_TRANSPOSE_ALIASED_COLS ? j->cols : TX_TRANSPOSE_ALIASED_COLS;
    } else if (plane > TX_GRAIN_BYTES && plane <= TX_TRANSPOSE_STRIPES_MAX_BYTES && j->cols >= 4 * 64 &&
               j->rows >= 64) {
        j->chunk_rows = j->rows;
        j->chunk_cols = block_side(j->cols, j->cols / 16);
    } else if (plane > TX_GRAIN_BYTES) {
        const int64_t least = 1024 / (int64_t)w;
        int64_t want = TX_GRAIN_BYTES / (j->cols * (int64_t)w);
        j->chunk_rows = block_side(j->rows, want > least ? want : least);
        want = TX_GRAIN_BYTES / (j->chunk_rows * (int64_t)w);
        j->chunk_cols = block_side(j->cols, want > least ? want : least);
        int64_t blocks = ((j->rows + j->chunk_rows - 1) / j->chunk_rows) *
                         ((j->cols + j->chunk_cols - 1) / j->chunk_cols);
        if (blocks < 4) j->chunk_rows = block_side(j->rows, j->rows / 4);
    } else {
        j->chunk_rows = j->rows;
        j->chunk_cols = j->cols;
    }
    j->nrc = (j->rows + j->chunk_rows - 1) / j->chunk_rows;
    j->ncc = (j->cols + j->chunk_cols - 1) / j->chunk_cols;
    j->units = nbatch * j->nrc * j->ncc;
    j->unit_bytes = plane / (j->nrc * j->ncc);
}

void tx__transpose_job_run(const tx__transpose_job *j, char *dst, const char *src) {
    if (j->copy) {
        tx__copy_plan_exec(&j->copy_plan, dst, src);
        return;
    }
    if (j->units == 1 && j->kernel != NULL) { /* one plane in one block: a small transpose */
        j->kernel(dst, src, j->rows, j->cols, j->sstride, j->dstride, j->stream);
        return;
    }
    transpose_call call = {j, dst, src};
    if (j->total < TX_PARALLEL_MIN_BYTES) transpose_piece(&call, 0, j->units);
    else tx__parallel_for(j->units, at_least_one(TX_GRAIN_BYTES / at_least_one(j->unit_bytes)),
                          transpose_piece, &call);
}

void tx__transpose_run(const tx__transpose_plan *pl, char *dst, const char *src) {
    tx__transpose_job j;
    tx__transpose_job_make(&j, pl);
    tx__transpose_job_run(&j, dst, src);
}
