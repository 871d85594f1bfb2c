/* SPDX-License-Identifier: Apache-2.0 */
/* concat.c -- TF's joining ops that build one tensor from a list: concat (ConcatV2, with
 * tf.concat's single-value shortcut), pack (tf.stack) and meshgrid.  concat and pack see every
 * input as [outer, chunk] and the output as [outer, sum of chunks], so each output row is the
 * inputs' rows side by side: one run per input per row, walked in blocks of rows that stay in
 * cache while every input writes into them.  meshgrid writes one block (an argument broadcast over
 * the dims after its own) and replicates it with doubling memcpy. */
#include "core/internal.h"
#include "core/tuning.h"

#include <inttypes.h>

#include "dispatch/dispatch.h"
#include "exec/copy.h"
#include "exec/pool.h"

static int64_t at_least_one(int64_t v) { return v < 1 ? 1 : v; }

/* ---- kernels ------------------------------------------------------------------------------- */

/* Copies `rows` rows of `chunk` bytes, contiguous in src, to dst rows `stride` bytes apart.
 * Chunks of one element move with a fixed-size copy, others with the copy_runs kernel, instead of
 * a memcpy call per row. */
static void copy_rows(char *dst, int64_t stride, const char *src, size_t chunk, int64_t rows) {
#define ROWS_FIXED(N)                                                                             \
    for (int64_t k = 0; k < rows; k++) memcpy(dst + k * stride, src + (size_t)k * (N), (N));      \
    break;
    switch (chunk) {
    case 1: ROWS_FIXED(1)
    case 2: ROWS_FIXED(2)
    case 4: ROWS_FIXED(4)
    case 8: ROWS_FIXED(8)
    case 16: ROWS_FIXED(16)
    default: /* whole vectors per row where the CPU has them (kernels/copy.h) */
        tx__kernels_get()->copy_runs(dst, src, rows, stride, (int64_t)chunk, chunk);
    }
#undef ROWS_FIXED
}

/* The most values one join plan holds: a prepared concat or pack takes up to this many, and the
 * call joins more in groups of this many (each group the same run at its offset in the rows). */
#define JOIN_PLAN_VALUES 512

/* The run half of concat and pack: output row k (out_row bytes) = row k of value 0 | row k of
 * value 1 | ...; this plan's values fill the part of each row that starts `offset` bytes in. */
typedef struct join_plan {
    int64_t outer;   /* output rows; 0 for an empty output */
    size_t out_row;  /* bytes of an output row */
    size_t offset;   /* bytes from a row's start to this plan's first value's part */
    bool wide;       /* the values' parts of a row are long: one strided copy per value */
    size_t n;        /* values */
    size_t chunk[JOIN_PLAN_VALUES]; /* bytes of a row of each value */
} join_plan;

/* A unit of work is one output row. */
typedef struct join_job {
    const join_plan *p;
    char *dst;
    const char *const *in;
} join_job;

static void join_piece(void *ctx, int64_t begin, int64_t end) {
    const join_job *j = ctx;
    const join_plan *p = j->p;
    /* Rows per block: about 32 KB of output, so the block is still in L1/L2 when the next input
     * writes its column of it. */
    int64_t block = p->out_row >= 32768 ? 1 : (int64_t)(32768 / p->out_row);
    for (int64_t r0 = begin; r0 < end; r0 += block) {
        int64_t rn = end - r0 < block ? end - r0 : block;
        size_t off = p->offset;
        for (size_t i = 0; i < p->n; i++) {
            size_t chunk = p->chunk[i];
            if (chunk)
                copy_rows(j->dst + (size_t)r0 * p->out_row + off, (int64_t)p->out_row,
                          j->in[i] + (size_t)r0 * chunk, chunk, rn);
            off += chunk;
        }
    }
}

static tx_status join_run(const void *plan, const tx__run_io *io) {
    const join_plan *p = plan;
    if (p->outer == 0) return TX_OK;
    char *dst = io->out[0];
    if (p->wide) {
        size_t off = p->offset;
        for (size_t i = 0; i < p->n; i++) {
            size_t chunk = p->chunk[i];
            int64_t dims[2] = {p->outer, (int64_t)chunk}, ds[2] = {(int64_t)p->out_row, 1},
                    ss[2] = {(int64_t)chunk, 1};
            if (chunk) tx__copy_nd(dst + off, io->in[i], 2, dims, ds, ss, 1);
            off += chunk;
        }
        return TX_OK;
    }
    join_job j = {p, dst, io->in};
    size_t total = (size_t)p->outer * p->out_row;
    if ((int64_t)total < TX_PARALLEL_MIN_BYTES) join_piece(&j, 0, p->outer);
    else tx__parallel_for(p->outer, at_least_one(TX_GRAIN_BYTES / (int64_t)p->out_row), join_piece,
                          &j);
    return TX_OK;
}

/* Plans a join of n values into an output of `rank` dims `dims` whose rows are the dims from
 * `axis` on, up to the first JOIN_PLAN_VALUES values (join_plan_next moves to the next ones). */
static void join_plan_make(join_plan *p, const tx_tensor *const *values, size_t n, size_t rank,
                           const int64_t *dims, size_t axis) {
    bool empty = false;
    for (size_t d = 0; d < rank; d++) empty |= dims[d] == 0;
    /* A non-empty output has a non-empty value with its dims before the axis: their product
     * fits.  The row sum can wrap only for an output the constructor refuses (above the byte
     * limit), and then the plan is not used. */
    p->outer = empty ? 0 : tx__dims_product(dims, 0, axis);
    p->out_row = p->offset = 0;
    p->n = n < JOIN_PLAN_VALUES ? n : JOIN_PLAN_VALUES;
    for (size_t i = 0; i < n && !empty; i++) {
        size_t chunk = values[i]->nbytes / (size_t)p->outer;
        if (i < p->n) p->chunk[i] = chunk;
        p->out_row += chunk;
    }
    p->wide = p->out_row / n >= TX_CONCAT_WIDE_CHUNK_BYTES;
}

/* Moves the plan on to values[first, ...), the group after its values. */
static void join_plan_next(join_plan *p, const tx_tensor *const *values, size_t n, size_t first) {
    for (size_t i = 0; i < p->n && p->outer > 0; i++) p->offset += p->chunk[i];
    p->n = n - first < JOIN_PLAN_VALUES ? n - first : JOIN_PLAN_VALUES;
    for (size_t i = 0; i < p->n && p->outer > 0; i++)
        p->chunk[i] = values[first + i]->nbytes / (size_t)p->outer;
}

/* Fills `count` elements of `w` bytes at dst with the element at v. */
static void fill_value(char *dst, const char *v, int64_t count, size_t w) {
#define FILL_FIXED(T)                                                                             \
    {                                                                                             \
        T x;                                                                                      \
        memcpy(&x, v, sizeof x);                                                                  \
        for (int64_t k = 0; k < count; k++) memcpy(dst + k * (int64_t)sizeof x, &x, sizeof x);    \
        break;                                                                                    \
    }
    switch (w) {
    case 1: memset(dst, (unsigned char)*v, (size_t)count); break;
    case 2: FILL_FIXED(uint16_t)
    case 4: FILL_FIXED(uint32_t)
    case 8: FILL_FIXED(uint64_t)
    default:
        for (int64_t k = 0; k < count; k++) memcpy(dst + (size_t)k * w, v, w);
    }
#undef FILL_FIXED
}

/* dst[k * size .. (k+1) * size) = dst[0 .. size) for k < copies: doubling memcpy. */
static void replicate(char *dst, size_t size, int64_t copies) {
    int64_t have = 1;
    while (have < copies) {
        int64_t take = copies - have < have ? copies - have : have;
        memcpy(dst + (size_t)have * size, dst, (size_t)take * size);
        have += take;
    }
}

/* TensorFlow's meshgrid multiplies by ones; for complex values that is the plain complex product
 * with (1+0i), which turns a -0 real part into +0 next to a negative imaginary part and spreads a
 * non-finite part as NaN into the other part.  Eigen's vectorised product computes exactly these
 * two expressions. */
static void complex_times_one(char *dst, const char *src, tx_dtype dtype) {
    if (dtype == TX_COMPLEX64) {
        tx__c64 z, r;
        memcpy(&z, src, sizeof z);
        r.re = z.re * 1.0f - z.im * 0.0f;
        r.im = z.re * 0.0f + z.im * 1.0f;
        memcpy(dst, &r, sizeof r);
    } else {
        tx__c128 z, r;
        memcpy(&z, src, sizeof z);
        r.re = z.re * 1.0 - z.im * 0.0;
        r.im = z.re * 0.0 + z.im * 1.0;
        memcpy(dst, &r, sizeof r);
    }
}

/* ---- shared validation --------------------------------------------------------------------- */

/* Every values[i] present and of values[0]'s dtype; `what` names the list argument. */
static tx_status check_list(const char *op, const char *what, const tx_tensor *const *values,
                            size_t n, size_t min_n) {
    TX_REQUIRE(n >= min_n, TX_INVALID_ARGUMENT, "%s: %s must hold at least %zu tensor%s, got %zu",
               op, what, min_n, min_n == 1 ? "" : "s", n);
    TX_REQUIRE(values != NULL, TX_INVALID_ARGUMENT, "%s: %s is NULL", op, what);
    for (size_t i = 0; i < n; i++)
        TX_REQUIRE(values[i] != NULL, TX_INVALID_ARGUMENT, "%s: %s[%zu] is NULL", op, what, i);
    for (size_t i = 1; i < n; i++)
        TX_REQUIRE(values[i]->dtype == values[0]->dtype, TX_INVALID_ARGUMENT,
                   "%s: %s[%zu] has dtype %s but %s[0] has dtype %s; all must match", op, what, i,
                   tx_dtype_name(values[i]->dtype), what, tx_dtype_name(values[0]->dtype));
    return TX_OK;
}

/* A new tensor of values[0]'s dtype keeping every string input's storages alive. */
static tx_status alloc_joined(const char *op, const tx_tensor *const *values, size_t n,
                              size_t rank, const int64_t *dims, tx_tensor **out) {
    tx_tensor *o;
    TX_TRY(tx__tensor_alloc(op, values[0]->dtype, rank, dims, &o));
    for (size_t i = 0; i < n && o->dtype == TX_STRING; i++) {
        tx_status st = tx__share_strings(o, values[i]);
        if (st != TX_OK) {
            tx_tensor_free(o);
            return st;
        }
    }
    *out = o;
    return TX_OK;
}

/* The join after the op's checks: the prepared step (up to JOIN_PLAN_VALUES values), the output
 * and the runs of the plans. */
static tx_status join(const char *op, const tx_tensor *const *values, size_t n, size_t rank,
                      const int64_t *dims, size_t axis, tx_tensor **out) {
    join_plan p;
    join_plan_make(&p, values, n, rank, dims, axis);
    if (n <= JOIN_PLAN_VALUES) TX_TRY(tx__prepared_step(op, join_run, &p, sizeof p, n, values, -1));
    else if (tx__preparing())
        return tx__fail(TX_UNIMPLEMENTED, "%s: a prepared op takes at most %d values, got %zu", op,
                        JOIN_PLAN_VALUES, n);
    tx_tensor *o;
    TX_TRY(alloc_joined(op, values, n, rank, dims, &o));
    const char *in[JOIN_PLAN_VALUES];
    for (size_t first = 0; first < n; first += JOIN_PLAN_VALUES) {
        if (first > 0) join_plan_next(&p, values, n, first);
        for (size_t i = 0; i < p.n; i++) in[i] = values[first + i]->data;
        join_run(&p, &(tx__run_io){in, &o->data});
    }
    *out = o;
    return TX_OK;
}

/* ---- concat -------------------------------------------------------------------------------- */

tx_status tx_concat(const tx_tensor *const *values, size_t n, int64_t concat_dim,
                    tx_tensor **out) {
    static const char *op = "concat";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(check_list(op, "values", values, n, 1));
    const tx_tensor *v0 = values[0];
    /* tf.concat returns identity(values[0]) for one value and never reads concat_dim: a copy,
     * one row of the whole value. */
    if (n == 1) return join(op, values, 1, v0->rank, v0->dims, 0, out);
    size_t r = v0->rank;
    TX_REQUIRE(r > 0, TX_INVALID_ARGUMENT,
               "%s: values[0] is a scalar; scalars cannot be concatenated (concat_dim %" PRId64
               " is out of range [0, 0)); use pack", op, concat_dim);
    size_t axis;
    TX_TRY(tx__normalize_axis(op, "concat_dim", concat_dim, r, &axis));
    char b0[TX_DIMS_STR_CAP], bi[TX_DIMS_STR_CAP];
    int64_t dims[TX_MAX_RANK];
    memcpy(dims, v0->dims, r * sizeof *dims);
    for (size_t i = 1; i < n; i++) {
        const tx_tensor *v = values[i];
        TX_REQUIRE(v->rank == r, TX_INVALID_ARGUMENT,
                   "%s: values[%zu] has rank %zu but values[0] has rank %zu; ranks must match "
                   "(shape[0] = %s vs. shape[%zu] = %s)", op, i, v->rank, r,
                   tx__format_dims(b0, sizeof b0, r, v0->dims), i,
                   tx__format_dims(bi, sizeof bi, v->rank, v->dims));
        for (size_t j = 0; j < r; j++) {
            if (j == axis) continue;
            TX_REQUIRE(v->dims[j] == v0->dims[j], TX_INVALID_ARGUMENT,
                       "%s: values[%zu] differs from values[0] in dimension %zu, which is not "
                       "concat_dim (shape[0] = %s vs. shape[%zu] = %s)", op, i, j,
                       tx__format_dims(b0, sizeof b0, r, v0->dims), i,
                       tx__format_dims(bi, sizeof bi, r, v->dims));
        }
        TX_REQUIRE(tx__add_i64(dims[axis], v->dims[axis], &dims[axis]), TX_INVALID_ARGUMENT,
                   "%s: the sizes of dimension %zu add up to more than int64 holds", op, axis);
    }
    return join(op, values, n, r, dims, axis, out);
}

/* ---- pack ---------------------------------------------------------------------------------- */

tx_status tx_pack(const tx_tensor *const *values, size_t n, int64_t axis, tx_tensor **out) {
    static const char *op = "pack";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_TRY(check_list(op, "values", values, n, 1));
    const tx_tensor *v0 = values[0];
    size_t r = v0->rank;
    /* TensorFlow checks axis against the output rank R+1 before comparing shapes. */
    size_t ax;
    TX_TRY(tx__normalize_axis(op, "axis", axis, r + 1, &ax));
    TX_REQUIRE(r + 1 <= TX_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: values have rank %zu; the result's rank %zu would exceed %d", op, r, r + 1,
               TX_MAX_RANK);
    char b0[TX_DIMS_STR_CAP], bi[TX_DIMS_STR_CAP];
    for (size_t i = 1; i < n; i++) {
        const tx_tensor *v = values[i];
        bool same = v->rank == r;
        for (size_t j = 0; same && j < r; j++) same = v->dims[j] == v0->dims[j];
        TX_REQUIRE(same, TX_INVALID_ARGUMENT,
                   "%s: shapes of all inputs must match: values[0].shape = %s != values[%zu].shape "
                   "= %s", op, tx__format_dims(b0, sizeof b0, r, v0->dims), i,
                   tx__format_dims(bi, sizeof bi, v->rank, v->dims));
    }
    TX_REQUIRE(n <= (size_t)INT64_MAX, TX_INVALID_ARGUMENT, "%s: too many values", op);
    int64_t dims[TX_MAX_RANK];
    for (size_t d = 0, k = 0; d <= r; d++) dims[d] = d == ax ? (int64_t)n : v0->dims[k++];
    return join(op, values, n, r + 1, dims, ax, out);
}

/* ---- meshgrid ------------------------------------------------------------------------------ */

/* Output `o` of meshgrid is [outer, mid, inner] with the argument (mid elements) varying along
 * the middle: block [mid, inner] holds element m repeated inner times, and the other outer
 * positions repeat the block. */
typedef struct mesh_job {
    char *out;
    const char *arg;
    tx_dtype dtype;
    size_t w;
    int64_t mid, inner;
    size_t block; /* bytes of one [mid, inner] block */
} mesh_job;

/* Elements m in [begin, end) of the first block. */
static void mesh_fill_piece(void *ctx, int64_t begin, int64_t end) {
    const mesh_job *j = ctx;
    bool complex = j->dtype == TX_COMPLEX64 || j->dtype == TX_COMPLEX128;
    if (j->inner == 1 && !complex) {
        memcpy(j->out + (size_t)begin * j->w, j->arg + (size_t)begin * j->w,
               (size_t)(end - begin) * j->w);
        return;
    }
    for (int64_t m = begin; m < end; m++) {
        char v[16];
        if (complex) complex_times_one(v, j->arg + (size_t)m * j->w, j->dtype);
        else memcpy(v, j->arg + (size_t)m * j->w, j->w);
        fill_value(j->out + (size_t)(m * j->inner) * j->w, v, j->inner, j->w);
    }
}

/* Copies of the first block at outer positions [begin, end) (begin >= 1): one copy from the first
 * block, then doubling within the range. */
static void mesh_copy_piece(void *ctx, int64_t begin, int64_t end) {
    const mesh_job *j = ctx;
    if (begin < 1) begin = 1;
    if (begin >= end) return;
    char *first = j->out + (size_t)begin * j->block;
    memcpy(first, j->out, j->block);
    replicate(first, j->block, end - begin);
}

/* The run half of meshgrid: output i (the grid's dims) holds argument i along axis i, or with
 * xy indexing and two or more arguments, 0 and 1 swapped. */
typedef struct mesh_plan {
    tx_dtype dtype;
    size_t n, w;
    bool swap;
    int64_t numel;                /* of each output */
    int64_t dims[TX_MAX_RANK];    /* the grid's, n of them */
} mesh_plan;

/* Output `out` along axis ax from arg, for a non-empty grid: every product below is of its dims,
 * at most its element count. */
static void meshgrid_fill(const mesh_plan *p, char *out, const char *arg, size_t ax) {
    mesh_job j = {out, arg, p->dtype, p->w, p->dims[ax], tx__dims_product(p->dims, ax + 1, p->n), 0};
    const int64_t outer = tx__dims_product(p->dims, 0, ax);
    j.block = (size_t)(j.mid * j.inner) * j.w;
    bool serial = p->numel * (int64_t)p->w < TX_PARALLEL_MIN_BYTES;
    int64_t row = (int64_t)j.w * j.inner;
    if (serial || (int64_t)j.block < TX_PARALLEL_MIN_BYTES) mesh_fill_piece(&j, 0, j.mid);
    else tx__parallel_for(j.mid, at_least_one(TX_GRAIN_BYTES / row), mesh_fill_piece, &j);
    if (serial) mesh_copy_piece(&j, 1, outer);
    else tx__parallel_for(outer, at_least_one(TX_GRAIN_BYTES / (int64_t)j.block), mesh_copy_piece, &j);
}

static tx_status mesh_run(const void *plan, const tx__run_io *io) {
    const mesh_plan *p = plan;
    for (size_t i = 0; i < p->n && p->numel > 0; i++)
        meshgrid_fill(p, io->out[i], io->in[i], p->swap && i < 2 ? 1 - i : i);
    return TX_OK;
}

/* Every output has the grid's shape and the arguments' dtype. */
static void mesh_spec(void *ctx, size_t i, tx__out_spec *s) {
    (void)i;
    const mesh_plan *p = ctx;
    s->dtype = p->dtype;
    s->rank = p->n;
    memcpy(s->dims, p->dims, p->n * sizeof *s->dims);
}

tx_status tx_meshgrid(const tx_tensor *const *args, size_t n, tx_meshgrid_indexing indexing,
                      tx_tensor **outs) {
    static const char *op = "meshgrid";
    TX_REQUIRE(outs != NULL || n == 0, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    for (size_t i = 0; i < n; i++) outs[i] = NULL;
    TX_REQUIRE(indexing == TX_MESHGRID_XY || indexing == TX_MESHGRID_IJ, TX_INVALID_ARGUMENT,
               "%s: indexing must be 'xy' or 'ij' (TX_MESHGRID_XY or TX_MESHGRID_IJ), got %d", op,
               (int)indexing);
    mesh_plan p; /* member by member: the dims past n stay unwritten */
    p.n = n;
    p.numel = 0;
    p.dtype = TX_FLOAT32;
    p.w = 0;
    p.swap = false;
    if (n == 0) return tx__prepared_step(op, mesh_run, &p, sizeof p, 0, NULL, -1);
    TX_TRY(check_list(op, "args", args, n, 1));
    /* tf.meshgrid reshapes each arg to rank n, and Reshape wants fewer than 254 dims. */
    TX_REQUIRE(n <= TX_RESHAPE_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: %zu args would give outputs of rank %zu: too many dimensions: must be < %d "
               "(tf.meshgrid reshapes each arg to that rank)", op, n, n, TX_MAX_RANK);
    /* Each argument counts as 1-D of its element count, whatever its rank (tf.meshgrid reshapes
     * every argument to [-1]). */
    for (size_t i = 0; i < n; i++) p.dims[i] = args[i]->numel;
    p.swap = indexing == TX_MESHGRID_XY && n >= 2;
    if (p.swap) {
        int64_t t = p.dims[0];
        p.dims[0] = p.dims[1];
        p.dims[1] = t;
    }
    TX_TRY(tx__shape_numel(op, "the outputs", n, p.dims, &p.numel));
    p.dtype = args[0]->dtype;
    p.w = tx_dtype_size(p.dtype);
    TX_TRY(tx__prepared_step(op, mesh_run, &p, sizeof p, n, args, -1));
    TX_TRY(tx__tensor_alloc_n(op, n, mesh_spec, &p, outs));
    const char *in[TX_MAX_RANK];
    char *out[TX_MAX_RANK];
    for (size_t i = 0; i < n; i++) {
        tx_status st = tx__share_strings(outs[i], args[i]);
        if (st != TX_OK) {
            tx__free_all(outs, n);
            return st;
        }
        in[i] = args[i]->data;
        out[i] = outs[i]->data;
    }
    return mesh_run(&p, &(tx__run_io){in, out});
}
