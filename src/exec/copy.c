/* SPDX-License-Identifier: Apache-2.0 */
/* copy.c -- the generic N-d strided copy (exec/copy.h) behind slice, strided_slice, reverse,
 * transpose's fallback, tile, pad, concat, split, space/depth and tx_tensor_copy: the loops over a
 * normalised plan (exec/normalize.h; the innermost loop specialised by element width, reversed
 * runs and large contiguous blocks handed to the dispatched kernels) and the split of large
 * copies over the thread pool. */
#include "exec/copy.h"

#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "exec/pool.h"

typedef struct { uint64_t a, b; } u128;

int64_t tx__copy_plan_rows(const tx__copy_plan *p) {
    if (p->width == 0) return 0;
    if (p->rank == 0) return 1;
    return p->count / p->dims[p->rank - 1];
}

/* ---- the loops --------------------------------------------------------------------------------- */

#define INNER_LOOP(T)                                                                            \
    for (int64_t k = 0; k < n; k++) {                                                            \
        T v;                                                                                     \
        memcpy(&v, s + k * ss, sizeof v);                                                        \
        memcpy(d + k * ds, &v, sizeof v);                                                        \
    }

/* n elements of `width` bytes, dst and src stepping by ds and ss bytes. */
static void inner(const tx__kernels *K, char *d, const char *s, int64_t n, int64_t ds, int64_t ss,
                  size_t width, bool stream) {
    if (ds == (int64_t)width && ss == -(int64_t)width) {
        int wi = tx__width_index(width);
        if (wi >= 0) {
            bool long_run = (uint64_t)n * width >= TX_STREAM_MIN_RUN;
            (stream && long_run ? K->copy_reversed_stream : K->copy_reversed)[wi](d, s, n);
            return;
        }
    }
    switch (width) {
    case 1: INNER_LOOP(uint8_t); break;
    case 2: INNER_LOOP(uint16_t); break;
    case 4: INNER_LOOP(uint32_t); break;
    case 8: INNER_LOOP(uint64_t); break;
    case 16: INNER_LOOP(u128); break;
    default:
        (stream && width >= TX_STREAM_MIN_WIDTH ? K->copy_runs_stream : K->copy_runs)(
            d, s, n, ds, ss, width);
    }
}

static void run_rows(const tx__kernels *K, const tx__copy_plan *p, char *dst, const char *src,
                     int64_t begin, int64_t end) {
    if (p->width == 0 || begin >= end) return;
    if (p->rank == 0) {
        (p->stream && p->width >= TX_STREAM_MIN_RUN ? K->bulk_copy_stream : K->bulk_copy)(
            dst, src, p->width);
        return;
    }
    size_t r = p->rank;
    int64_t n = p->dims[r - 1];
    /* Odometer over the outer dims, starting at row `begin`. */
    int64_t idx[TX_MAX_RANK];
    int64_t rem = begin;
    const char *s = src;
    char *d = dst;
    for (size_t k = r - 1; k-- > 0;) {
        idx[k] = rem % p->dims[k];
        rem /= p->dims[k];
        s += idx[k] * p->src_strides[k];
        d += idx[k] * p->dst_strides[k];
    }
    for (int64_t row = begin; row < end; row++) {
        inner(K, d, s, n, p->dst_strides[r - 1], p->src_strides[r - 1], p->width, p->stream);
        for (size_t k = r - 1; k-- > 0;) {
            if (++idx[k] < p->dims[k]) {
                s += p->src_strides[k];
                d += p->dst_strides[k];
                break;
            }
            idx[k] = 0;
            s -= (p->dims[k] - 1) * p->src_strides[k];
            d -= (p->dims[k] - 1) * p->dst_strides[k];
        }
    }
}

void tx__copy_plan_run(const tx__copy_plan *p, char *dst, const char *src, int64_t begin,
                       int64_t end) {
    run_rows(tx__kernels_get(), p, dst, src, begin, end);
}

/* ---- the parallel split ------------------------------------------------------------------------ */

typedef enum { SPLIT_ROWS, SPLIT_ROW, SPLIT_BLOCK } split_mode;

typedef struct copy_job {
    const tx__kernels *K;
    const tx__copy_plan *p;
    char *dst;
    const char *src;
    split_mode mode;
} copy_job;

static void copy_piece(void *ctx, int64_t begin, int64_t end) {
    const copy_job *j = ctx;
    const tx__copy_plan *p = j->p;
    switch (j->mode) {
    case SPLIT_ROWS:
        run_rows(j->K, p, j->dst, j->src, begin, end);
        break;
    case SPLIT_ROW: { /* elements [begin, end) of one row; dst/src point at the row */
        int64_t ds = p->dst_strides[p->rank - 1], ss = p->src_strides[p->rank - 1];
        inner(j->K, j->dst + begin * ds, j->src + begin * ss, end - begin, ds, ss, p->width,
              p->stream);
        break;
    }
    case SPLIT_BLOCK: {
        size_t b = (size_t)begin * TX_COPY_BLOCK_UNIT;
        size_t e = (size_t)end * TX_COPY_BLOCK_UNIT;
        if (e > p->width) e = p->width;
        (p->stream && p->width >= TX_STREAM_MIN_RUN ? j->K->bulk_copy_stream : j->K->bulk_copy)(
            j->dst + b, j->src + b, e - b);
        break;
    }
    }
}

static int64_t at_least_one(int64_t v) { return v < 1 ? 1 : v; }

/* A grain of rows (or of a row's runs), at least `grain`, that deals them out evenly when they
 * are only a few grains: the pool gives each thread whole grains, so 64 runs in grains of 21 went
 * 42 / 22 to two threads.  Any boundary will do for a copy. */
static int64_t balanced_grain(int64_t rows, int64_t grain) {
    int64_t threads = tx__run_threads(), whole = rows / grain;
    if (whole < threads || whole >= 4 * threads) return grain;
    int64_t per = whole / threads * threads; /* grains, a multiple of the threads */
    return (rows + per - 1) / per;
}

void tx__copy_nd(char *dst, const char *src, size_t rank, const int64_t *dims,
                 const int64_t *dst_strides, const int64_t *src_strides, size_t elem) {
    tx__copy_plan p;
    tx__copy_plan_make(&p, rank, dims, dst_strides, src_strides, elem);
    tx__copy_plan_exec(&p, dst, src);
}

tx_status tx__offset_copy_run(const void *plan, const tx__run_io *io) {
    const tx__offset_copy *p = plan;
    if (p->copy.count > 0) tx__copy_plan_exec(&p->copy, io->out[0], io->in[0] + p->offset);
    return TX_OK;
}

void tx__copy_plan_exec(const tx__copy_plan *p, char *dst, const char *src) {
    /* Through p, never a copy of *p: a plan is 6 KB (TX_MAX_RANK dims of three arrays), whose
     * copy cost more than a small copy's whole run. */
    const tx__kernels *K = tx__kernels_get();
    int64_t rows = tx__copy_plan_rows(p);
    uint64_t total = (uint64_t)p->count * p->width;
    if (total < (uint64_t)TX_PARALLEL_MIN_BYTES || tx__run_threads() < 2) {
        run_rows(K, p, dst, src, 0, rows);
        return;
    }
    copy_job j = {K, p, dst, src, SPLIT_ROWS};
    if (p->rank == 0) {
        j.mode = SPLIT_BLOCK;
        int64_t units = (int64_t)((p->width + TX_COPY_BLOCK_UNIT - 1) / TX_COPY_BLOCK_UNIT);
        tx__parallel_for(units, TX_GRAIN_BYTES / TX_COPY_BLOCK_UNIT, copy_piece, &j);
        return;
    }
    int64_t n = p->dims[p->rank - 1];
    int64_t row_bytes = (int64_t)((uint64_t)total / (uint64_t)rows);
    if (rows >= 4 * (int64_t)tx__run_threads() || row_bytes < 2 * TX_GRAIN_BYTES) {
        tx__parallel_for(rows, balanced_grain(rows, at_least_one(TX_GRAIN_BYTES / row_bytes)),
                         copy_piece, &j);
        return;
    }
    /* A few long rows: split each row's elements instead (an inference-shape strided_slice, 64
     * runs of 3 KiB in one row, comes here). */
    j.mode = SPLIT_ROW;
    int64_t grain = balanced_grain(n, at_least_one(TX_GRAIN_BYTES / (int64_t)p->width));
    int64_t idx[TX_MAX_RANK] = {0};
    for (int64_t row = 0; row < rows; row++) {
        int64_t rem = row, doff = 0, soff = 0;
        for (size_t k = p->rank - 1; k-- > 0;) {
            idx[k] = rem % p->dims[k];
            rem /= p->dims[k];
            doff += idx[k] * p->dst_strides[k];
            soff += idx[k] * p->src_strides[k];
        }
        j.dst = dst + doff;
        j.src = src + soff;
        tx__parallel_for(n, grain, copy_piece, &j);
    }
}
