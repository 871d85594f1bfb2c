/* SPDX-License-Identifier: Apache-2.0 */
/* pad_tile.c -- TF's Tile (tf.tile) and Pad, PadV2, MirrorPad (tf.pad in CONSTANT, REFLECT and
 * SYMMETRIC modes), plus ONNX Pad's 'edge' and 'wrap' modes as presets (TX_PAD_EDGE, TX_PAD_WRAP).  Validation follows TF's kernels (tile_ops.cc, pad_op.cc, mirror_pad_op.cc);
 * output shapes are built with TF TensorShape's rules, so an output dim or element count that
 * overflows int64 is invalid_argument, while an output too large to allocate is
 * resource_exhausted.
 *
 * Kernels (the pure loops at the top of the file) move bytes without validating:
 *  - tile copies the input into the first block of the output, then replicates along each axis
 *    from the innermost out, each time copying the already complete block of that axis: with
 *    doubling memcpys when blocks are large or many, with one strided-copy plan (exec/copy.h)
 *    when they are small.
 *  - pad walks the output once, in order: borders are filled (CONSTANT) or mirrored from the input
 *    (REFLECT, SYMMETRIC), replicated (EDGE) or wrapped (WRAP) from the input, and the interior of
 *    each row is one memcpy.  Dims without padding are
 *    merged first so rows are as long as possible. */
#include "exec/copy.h"

#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "exec/pool.h"

#include <inttypes.h>

/* ================================================================================================
 * Kernels
 * ============================================================================================== */

/* n copies of the w-byte element at pat (w is 1, 2, 4, 8 or 16: every dtype's size). */
static void fill_elems(char *dst, int64_t n, const char *pat, size_t w, bool zero) {
    if (n <= 0) return;
    /* A short border (a row's few elements of padding) is faster as inline stores than as a
     * memset call. */
    if (zero && (size_t)n * w >= 64) {
        memset(dst, 0, (size_t)n * w);
        return;
    }
    switch (w) {
    case 1: memset(dst, (unsigned char)pat[0], (size_t)n); return;
    case 2: {
        uint16_t v;
        memcpy(&v, pat, 2);
        for (int64_t i = 0; i < n; i++) memcpy(dst + 2 * i, &v, 2);
        return;
    }
    case 4: {
        uint32_t v;
        memcpy(&v, pat, 4);
        for (int64_t i = 0; i < n; i++) memcpy(dst + 4 * i, &v, 4);
        return;
    }
    case 8: {
        uint64_t v;
        memcpy(&v, pat, 8);
        for (int64_t i = 0; i < n; i++) memcpy(dst + 8 * i, &v, 8);
        return;
    }
    default: {
        /* Other widths: copy the first element, then double the filled prefix. */
        memcpy(dst, pat, w);
        size_t done = w, total = (size_t)n * w;
        while (done < total) {
            size_t k = done < total - done ? done : total - done;
            memcpy(dst + done, dst, k);
            done += k;
        }
        return;
    }
    }
}

/* dst[j] = src[start - j] for j < n, elements of w bytes (mirror borders). */
static void copy_reversed(char *dst, const char *src, int64_t start, int64_t n, size_t w) {
    switch (w) {
    case 1:
        for (int64_t j = 0; j < n; j++) dst[j] = src[start - j];
        return;
    case 2:
        for (int64_t j = 0; j < n; j++) memcpy(dst + 2 * j, src + 2 * (start - j), 2);
        return;
    case 4:
        for (int64_t j = 0; j < n; j++) memcpy(dst + 4 * j, src + 4 * (start - j), 4);
        return;
    case 8:
        for (int64_t j = 0; j < n; j++) memcpy(dst + 8 * j, src + 8 * (start - j), 8);
        return;
    default:
        for (int64_t j = 0; j < n; j++)
            memcpy(dst + (size_t)j * w, src + (size_t)(start - j) * w, w);
        return;
    }
}

/* A pad problem after merging: `rank` dims, each with input size, padding before and after, and
 * byte strides; elements of `w` bytes (for the non-CONSTANT modes, w may cover trailing unpadded dims). */
typedef struct pad_plan {
    tx__pad_shape s; /* the normalised shape (exec/normalize.h) */
    tx_pad_mode mode;
    char pat[16];    /* CONSTANT: the fill element (every dtype's size is at most 16) */
    bool zero;       /* CONSTANT: the fill element is all zero bytes */
    tx__bulk_copy_fn copy; /* the rows' interiors: streaming stores for a large output */
    bool whole;      /* no padding: the input is copied as it is */
    int64_t numel;   /* the output's elements and bytes */
    size_t nbytes;
} pad_plan;

static void pad_constant_rec(const pad_plan *p, size_t k, char *dst, const char *src) {
    int64_t os = p->s.out_stride[k], is = p->s.in_stride[k], n = p->s.in[k];
    size_t w = p->s.w;
    if (k + 1 == p->s.rank) {
        fill_elems(dst, p->s.before[k], p->pat, w, p->zero);
        dst += p->s.before[k] * os;
        if (n) p->copy(dst, src, (size_t)n * w);
        fill_elems(dst + n * os, p->s.after[k], p->pat, w, p->zero);
        return;
    }
    /* A whole border slab is one contiguous fill. */
    int64_t slab = os / (int64_t)w;
    fill_elems(dst, p->s.before[k] * slab, p->pat, w, p->zero);
    dst += p->s.before[k] * os;
    for (int64_t i = 0; i < n; i++) pad_constant_rec(p, k + 1, dst + i * os, src + i * is);
    fill_elems(dst + n * os, p->s.after[k] * slab, p->pat, w, p->zero);
}

/* The input's rows into the interior of an output already filled with the constant: for small
 * outputs with short rows, where the fills of each row's borders cost more than filling the
 * whole output once (tuning.h, TX_PAD_FILL_FIRST_BYTES). */
static void pad_constant_copy_rows(const pad_plan *p, size_t k, char *dst, const char *src) {
    int64_t os = p->s.out_stride[k], is = p->s.in_stride[k], n = p->s.in[k];
    dst += p->s.before[k] * os;
    if (k + 1 == p->s.rank) {
        if (n) memcpy(dst, src, (size_t)n * p->s.w);
        return;
    }
    for (int64_t i = 0; i < n; i++) pad_constant_copy_rows(p, k + 1, dst + i * os, src + i * is);
}

static void pad_mirror_rec(const pad_plan *p, size_t k, char *dst, const char *src) {
    int64_t os = p->s.out_stride[k], is = p->s.in_stride[k], n = p->s.in[k];
    int64_t b = p->s.before[k], a = p->s.after[k];
    /* REFLECT leaves the edge element out of the mirror image; SYMMETRIC repeats it. */
    int64_t off = p->mode == TX_PAD_REFLECT ? 1 : 0;
    size_t w = p->s.w;
    if (k + 1 == p->s.rank) {
        copy_reversed(dst, src, b - 1 + off, b, w);
        p->copy(dst + b * os, src, (size_t)n * w);
        copy_reversed(dst + (b + n) * os, src, n - 1 - off, a, w);
        return;
    }
    for (int64_t o = 0; o < b; o++) pad_mirror_rec(p, k + 1, dst + o * os, src + (b - 1 + off - o) * is);
    for (int64_t i = 0; i < n; i++) pad_mirror_rec(p, k + 1, dst + (b + i) * os, src + i * is);
    for (int64_t o = 0; o < a; o++)
        pad_mirror_rec(p, k + 1, dst + (b + n + o) * os, src + (n - 1 - off - o) * is);
}

/* CONSTANT, REFLECT and SYMMETRIC write each output index of the outermost dim from the input
 * alone, so a large output is split over the threads along that dim (EDGE and WRAP copy borders
 * from output rows written before them, and stay on one thread). */
typedef struct pad_job {
    const pad_plan *p;
    char *dst;
    const char *src;
} pad_job;

static void pad_piece(void *ctx, int64_t begin, int64_t end) {
    const pad_job *j = ctx;
    const pad_plan *p = j->p;
    const int64_t os = p->s.out_stride[0], is = p->s.in_stride[0];
    const int64_t b = p->s.before[0], n = p->s.in[0];
    const int64_t off = p->mode == TX_PAD_REFLECT ? 1 : 0;
    for (int64_t o = begin; o < end; o++) {
        char *dst = j->dst + o * os;
        if (p->mode == TX_PAD_CONSTANT) {
            if (o < b || o >= b + n) fill_elems(dst, os / (int64_t)p->s.w, p->pat, p->s.w, p->zero);
            else pad_constant_rec(p, 1, dst, j->src + (o - b) * is);
        } else {
            int64_t i = o < b ? b - 1 + off - o : o < b + n ? o - b : n - 1 - off - (o - b - n);
            pad_mirror_rec(p, 1, dst, j->src + i * is);
        }
    }
}

/* dst[j] = src[(start + j) mod n] for j < count (0 <= start < n): WRAP borders, in runs. */
static void copy_cyclic(char *dst, const char *src, int64_t start, int64_t count, int64_t n, size_t w) {
    while (count > 0) {
        int64_t run = n - start < count ? n - start : count;
        memcpy(dst, src + (size_t)start * w, (size_t)run * w);
        dst += (size_t)run * w;
        count -= run;
        start = 0;
    }
}

/* Source row of output position j < before along a dim of size n (n > 0) for EDGE / WRAP; the
 * positions after the interior use (j - before) too, so one rule serves both borders. */
static inline int64_t edge_wrap_src(tx_pad_mode mode, int64_t j, int64_t before, int64_t n) {
    int64_t t = j - before;
    if (mode == TX_PAD_EDGE) return t < 0 ? 0 : t >= n ? n - 1 : t;
    int64_t m = t % n;
    return m < 0 ? m + n : m;
}

static void pad_edge_wrap_rec(const pad_plan *p, size_t k, char *dst, const char *src) {
    int64_t os = p->s.out_stride[k], is = p->s.in_stride[k], n = p->s.in[k];
    int64_t b = p->s.before[k], a = p->s.after[k];
    size_t w = p->s.w;
    if (k + 1 == p->s.rank) {
        if (p->mode == TX_PAD_EDGE) {
            fill_elems(dst, b, src, w, false);
            memcpy(dst + b * os, src, (size_t)n * w);
            fill_elems(dst + (b + n) * os, a, src + (n - 1) * is, w, false);
        } else {
            copy_cyclic(dst, src, edge_wrap_src(TX_PAD_WRAP, 0, b, n), b, n, w);
            memcpy(dst + b * os, src, (size_t)n * w);
            copy_cyclic(dst + (b + n) * os, src, 0, a, n, w);
        }
        return;
    }
    /* Border rows are copies of interior rows: build the interior, then copy whole rows. */
    for (int64_t i = 0; i < n; i++) pad_edge_wrap_rec(p, k + 1, dst + (b + i) * os, src + i * is);
    for (int64_t o = 0; o < b; o++)
        memcpy(dst + o * os, dst + (b + edge_wrap_src(p->mode, o, b, n)) * os, (size_t)os);
    for (int64_t o = b + n; o < b + n + a; o++)
        memcpy(dst + o * os, dst + (b + edge_wrap_src(p->mode, o, b, n)) * os, (size_t)os);
}

/* Tiles `in` (dims d, elements of `elem` bytes) into `out` (dims d[i] * m[i], no zero dims).  Every
 * product below is of d[i] <= d[i] * m[i] and the output's strides: at most the output's bytes. */
static void tile_copy(char *out, const char *in, size_t r, const int64_t *d, const int64_t *m,
                      size_t elem) {
    int64_t od[TX_MAX_RANK], os[TX_MAX_RANK], is[TX_MAX_RANK];
    for (size_t i = 0; i < r; i++) od[i] = d[i] * m[i];
    tx__contiguous_strides(r, od, elem, os);
    tx__contiguous_strides(r, d, elem, is);
    /* When the input's rows that get repeated are long, the whole output is one strided copy of
     * (m[i], d[i]) pairs, the m dims reading the input with stride 0: split over the threads,
     * with streaming stores when large, and each input row read from cache m times, where the
     * doubling below reads the output back (1024x1024 float32 tiled 4x4 on one thread: 2.9x ->
     * 1.25x memcpy's CPU time for the same bytes). */
    int64_t run = (int64_t)elem;
    for (size_t k = r; k-- > 0;) {
        run *= d[k];
        if (m[k] > 1) break;
    }
    if (run >= TX_TILE_ONE_COPY_MIN_RUN && 2 * r <= TX_MAX_RANK) {
        int64_t cd[TX_MAX_RANK], cs[TX_MAX_RANK], ss[TX_MAX_RANK];
        for (size_t i = 0; i < r; i++) {
            cd[2 * i] = m[i], cs[2 * i] = d[i] * os[i], ss[2 * i] = 0;
            cd[2 * i + 1] = d[i], cs[2 * i + 1] = os[i], ss[2 * i + 1] = is[i];
        }
        tx__copy_nd(out, in, 2 * r, cd, cs, ss, elem);
        return;
    }
    tx__copy_nd(out, in, r, d, os, is, elem);
    /* Axis k: dims > k are complete, so block 0 of axis k (d[k] * os[k] bytes) is contiguous for
     * each index of the dims < k within their first block. */
    for (size_t k = r; k-- > 0;) {
        if (m[k] <= 1) continue;
        int64_t block = d[k] * os[k];
        if (block <= TX_TILE_PLAN_MAX_BLOCK) {
            int64_t cd[TX_MAX_RANK + 1], cs[TX_MAX_RANK + 1], ss[TX_MAX_RANK + 1];
            for (size_t j = 0; j < k; j++) cd[j] = d[j], cs[j] = os[j], ss[j] = os[j];
            cd[k] = m[k] - 1, cs[k] = block, ss[k] = 0;
            cd[k + 1] = block, cs[k + 1] = 1, ss[k + 1] = 1;
            tx__copy_nd(out + block, out, k + 2, cd, cs, ss, 1);
            continue;
        }
        /* Odometer over the first blocks of the dims < k. */
        int64_t idx[TX_MAX_RANK] = {0};
        int64_t total = block * m[k];
        for (;;) {
            int64_t base = 0;
            for (size_t j = 0; j < k; j++) base += idx[j] * os[j];
            char *p = out + base;
            int64_t done = block;
            while (done < total) {
                int64_t c = done < total - done ? done : total - done;
                memcpy(p + done, p, (size_t)c);
                done += c;
            }
            size_t j = k;
            while (j-- > 0) {
                if (++idx[j] < d[j]) break;
                idx[j] = 0;
            }
            if (j == (size_t)-1) break;
        }
    }
}

/* ================================================================================================
 * Ops
 * ============================================================================================== */

/* TensorShape::AddDimWithStatus's element count: overflow is an error, except that a running
 * count of 0 stays 0. */
static tx_status add_dim_count(const char *op, int64_t *count, int64_t dim) {
    if (*count == 0 || dim == 0) {
        *count = 0;
        return TX_OK;
    }
    TX_REQUIRE(tx__mul_i64(*count, dim, count), TX_INVALID_ARGUMENT,
               "%s: the output's element count overflows int64 (TF: encountered overflow when "
               "multiplying)", op);
    return TX_OK;
}

/* The run half of tile: the tiling of a non-empty output, or a scalar's copy. */
typedef struct tile_plan {
    size_t rank;   /* 0: a scalar, copied */
    size_t elem;
    int64_t numel; /* the output's elements: 0 writes nothing */
    int64_t dims[TX_MAX_RANK], multiples[TX_MAX_RANK];
} tile_plan;

static tx_status tile_run(const void *plan, const tx__run_io *io) {
    const tile_plan *p = plan;
    if (p->numel == 0) return TX_OK;
    if (p->rank == 0) memcpy(io->out[0], io->in[0], p->elem);
    else tile_copy(io->out[0], io->in[0], p->rank, p->dims, p->multiples, p->elem);
    return TX_OK;
}

/* A new tensor of `in`'s dtype and `dims` that keeps the string storages of `in` and `also`
 * (NULL: none) alive; then the op's run on it. */
static tx_status output_and_run(const char *op, const tx_tensor *in, const tx_tensor *also,
                                size_t rank, const int64_t *dims, tx__run_fn run,
                                const void *plan, tx_tensor **out) {
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, in->dtype, rank, dims, &o));
    tx_status st = tx__share_strings(o, in);
    if (st == TX_OK && also != NULL) st = tx__share_strings(o, also);
    if (st != TX_OK) {
        tx_tensor_free(o);
        return st;
    }
    run(plan, &(tx__run_io){(const char *[]){in->data}, &o->data});
    *out = o;
    return TX_OK;
}

tx_status tx_tile(const tx_tensor *input, const tx_tensor *multiples, tx_tensor **out) {
    static const char *op = "tile";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_REQUIRE_TENSOR(op, multiples, "multiples");
    /* Tile's Tmultiples is {int32, int64}: another dtype is unimplemented (TF 2.21 decides). */
    TX_REQUIRE(multiples->dtype == TX_INT32 || multiples->dtype == TX_INT64, TX_UNIMPLEMENTED,
               "%s: multiples must be int32 or int64, got %s", op, tx_dtype_name(multiples->dtype));
    size_t r = input->rank;
    /* TF 2.21 decides: TileOp wants a 1-D multiples ("Expected multiples to be 1-D"); a
     * one-element scalar is refused too. */
    TX_REQUIRE(multiples->rank == 1 && multiples->numel == (int64_t)r, TX_INVALID_ARGUMENT,
               "%s: expected multiples argument to be a vector of length %zu (the rank of input) "
               "but got %" PRId64 " entries (rank %zu)",
               op, r, multiples->numel, multiples->rank);
    /* The plan is not zero-initialised (its arrays are 4 KB): the rank's entries are set. */
    tile_plan p;
    int64_t *m = p.multiples, od[TX_MAX_RANK], count = 1;
    for (size_t i = 0; i < r; i++) {
        m[i] = tx__index_at(multiples, (int64_t)i);
        TX_REQUIRE(m[i] >= 0, TX_INVALID_ARGUMENT, "%s: expected multiples[%zu] >= 0, but got %" PRId64,
                   op, i, m[i]);
        TX_REQUIRE(tx__mul_i64(input->dims[i], m[i], &od[i]), TX_INVALID_ARGUMENT,
                   "%s: output dim %zu = %" PRId64 " * %" PRId64 " overflows int64", op, i,
                   input->dims[i], m[i]);
        TX_TRY(add_dim_count(op, &count, od[i]));
    }
    p.rank = r, p.elem = tx_dtype_size(input->dtype), p.numel = count;
    memcpy(p.dims, input->dims, r * sizeof *p.dims);
    TX_TRY(tx__prepared_step(op, tile_run, &p, sizeof p, 1, &input, -1));
    return output_and_run(op, input, NULL, r, od, tile_run, &p, out);
}

/* The pad of `tensor` by pads ((before, after) per dim) into an output of `count` elements that
 * passed the output checks. */
static void pad_plan_make(pad_plan *p, const tx_tensor *tensor, const int64_t *pads,
                          tx_pad_mode mode, const tx_tensor *constant_values, int64_t count) {
    p->mode = mode;
    p->numel = count;
    p->nbytes = (size_t)count * tx_dtype_size(tensor->dtype); /* a checked output's size */
    /* No padding (or nothing to write): TF forwards the input; we copy it. */
    p->whole = count == tensor->numel;
    if (p->whole) return;
    /* Mirror, edge and wrap modes copy whole rows of the input: they keep rows whole. */
    tx__pad_shape_make(&p->s, tensor->rank, tensor->dims, tx_dtype_size(tensor->dtype), pads,
                       mode != TX_PAD_CONSTANT);
    p->copy = (int64_t)p->nbytes >= tx__stream_seq_min_bytes ? tx__kernels_get()->bulk_copy_stream
                                                             : tx__kernels_get()->bulk_copy;
    if (mode == TX_PAD_CONSTANT) {
        memset(p->pat, 0, sizeof p->pat);
        if (constant_values) memcpy(p->pat, constant_values->data, tx_dtype_size(tensor->dtype));
        p->zero = true;
        for (size_t i = 0; i < p->s.w; i++) p->zero &= p->pat[i] == 0;
    }
}

static tx_status pad_run(const void *plan, const tx__run_io *io) {
    const pad_plan *p = plan;
    char *dst = io->out[0];
    const char *src = io->in[0];
    if (p->whole) {
        if (p->nbytes) memcpy(dst, src, p->nbytes);
    } else if (p->s.rank >= 2 && p->mode != TX_PAD_EDGE && p->mode != TX_PAD_WRAP &&
               (int64_t)p->nbytes >= TX_PARALLEL_MIN_BYTES) {
        pad_job j = {p, dst, src};
        const int64_t rows = p->s.before[0] + p->s.in[0] + p->s.after[0];
        const int64_t grain = TX_GRAIN_BYTES / p->s.out_stride[0];
        tx__parallel_for(rows, grain > 0 ? grain : 1, pad_piece, &j);
    } else if (p->mode == TX_PAD_CONSTANT && p->nbytes <= TX_PAD_FILL_FIRST_BYTES &&
               p->s.in[p->s.rank - 1] * (int64_t)p->s.w <= TX_PAD_FILL_FIRST_ROW) {
        fill_elems(dst, p->numel, p->pat, p->s.w, p->zero);
        pad_constant_copy_rows(p, 0, dst, src);
    } else if (p->mode == TX_PAD_CONSTANT) {
        pad_constant_rec(p, 0, dst, src);
    } else if (p->mode == TX_PAD_EDGE || p->mode == TX_PAD_WRAP) {
        pad_edge_wrap_rec(p, 0, dst, src);
    } else {
        pad_mirror_rec(p, 0, dst, src);
    }
    return TX_OK;
}

tx_status tx_pad(const tx_tensor *tensor, const tx_tensor *paddings, tx_pad_mode mode,
                 const tx_tensor *constant_values, tx_tensor **out) {
    static const char *op = "pad";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, tensor, "tensor");
    TX_REQUIRE_TENSOR(op, paddings, "paddings");
    /* Pad's Tpaddings is {int32, int64}: another dtype is unimplemented, checked before the other
     * rules (TF 2.21 decides: the op definition comes first). */
    TX_REQUIRE(paddings->dtype == TX_INT32 || paddings->dtype == TX_INT64, TX_UNIMPLEMENTED,
               "%s: paddings must be int32 or int64, got %s", op, tx_dtype_name(paddings->dtype));
    TX_REQUIRE(mode == TX_PAD_CONSTANT || mode == TX_PAD_REFLECT || mode == TX_PAD_SYMMETRIC ||
                   mode == TX_PAD_EDGE || mode == TX_PAD_WRAP,
               TX_INVALID_ARGUMENT, "%s: mode %d is not one of CONSTANT, REFLECT, SYMMETRIC, EDGE, WRAP",
               op, (int)mode);
    size_t r = tensor->rank;
    char pbuf[TX_DIMS_STR_CAP], tbuf[TX_DIMS_STR_CAP];
    TX_REQUIRE(paddings->rank == 2 && paddings->dims[1] == 2, TX_INVALID_ARGUMENT,
               "%s: paddings must be a matrix with 2 columns, got shape %s", op,
               tx__format_dims(pbuf, sizeof pbuf, paddings->rank, paddings->dims));
    TX_REQUIRE(paddings->dims[0] == (int64_t)r, TX_INVALID_ARGUMENT,
               "%s: the first dimension of paddings must be the rank of tensor: paddings %s, "
               "tensor %s",
               op, tx__format_dims(pbuf, sizeof pbuf, paddings->rank, paddings->dims),
               tx__format_dims(tbuf, sizeof tbuf, r, tensor->dims));
    if (mode == TX_PAD_CONSTANT && constant_values != NULL) {
        TX_REQUIRE(constant_values->rank == 0, TX_INVALID_ARGUMENT,
                   "%s: constant_values must be a scalar, got shape %s", op,
                   tx__format_dims(pbuf, sizeof pbuf, constant_values->rank, constant_values->dims));
        TX_REQUIRE(constant_values->dtype == tensor->dtype, TX_INVALID_ARGUMENT,
                   "%s: constant_values must have the tensor's dtype %s, got %s", op,
                   tx_dtype_name(tensor->dtype), tx_dtype_name(constant_values->dtype));
    }
    int64_t pads[2 * TX_MAX_RANK], od[TX_MAX_RANK], count = 1;
    for (size_t d = 0; d < r; d++) {
        int64_t b = tx__index_at(paddings, (int64_t)(2 * d));
        int64_t a = tx__index_at(paddings, (int64_t)(2 * d + 1));
        int64_t n = tensor->dims[d];
        TX_REQUIRE(b >= 0 && a >= 0, TX_INVALID_ARGUMENT,
                   "%s: paddings must be non-negative, got %" PRId64 " %" PRId64 " for dim %zu", op,
                   b, a, d);
        if (mode == TX_PAD_SYMMETRIC)
            TX_REQUIRE(b <= n && a <= n, TX_INVALID_ARGUMENT,
                       "%s: SYMMETRIC paddings must be no greater than the dimension size: %" PRId64
                       ", %" PRId64 " greater than %" PRId64 " (dim %zu)",
                       op, b, a, n, d);
        if (mode == TX_PAD_REFLECT)
            TX_REQUIRE(b < n && a < n, TX_INVALID_ARGUMENT,
                       "%s: REFLECT paddings must be less than the dimension size: %" PRId64
                       ", %" PRId64 " not less than %" PRId64 " (dim %zu)",
                       op, b, a, n, d);
        /* np.pad (ONNX's reference) cannot extend an empty axis except with a constant. */
        if (mode == TX_PAD_EDGE || mode == TX_PAD_WRAP)
            TX_REQUIRE(n > 0 || (b == 0 && a == 0), TX_INVALID_ARGUMENT,
                       "%s: %s cannot pad dim %zu of size 0 (paddings %" PRId64 ", %" PRId64 ")",
                       op, mode == TX_PAD_EDGE ? "EDGE" : "WRAP", d, b, a);
        TX_REQUIRE(tx__add_i64(b, n, &od[d]) && tx__add_i64(od[d], a, &od[d]), TX_INVALID_ARGUMENT,
                   "%s: output dim %zu = %" PRId64 " + %" PRId64 " + %" PRId64 " overflows int64", op,
                   d, b, n, a);
        TX_TRY(add_dim_count(op, &count, od[d]));
        pads[2 * d] = b;
        pads[2 * d + 1] = a;
    }
    /* The constructor's checks of the output (same messages) before the plan: the pad shape's
     * products fit only for an output that passes them. */
    TX_TRY(tx__check_output(op, tensor->dtype, r, od, &count));
    pad_plan p;
    pad_plan_make(&p, tensor, pads, mode, constant_values, count);
    TX_TRY(tx__prepared_step(op, pad_run, &p, sizeof p, 1, &tensor, -1));
    return output_and_run(op, tensor, mode == TX_PAD_CONSTANT && !p.whole ? constant_values : NULL,
                          r, od, pad_run, &p, out);
}
