/* SPDX-License-Identifier: Apache-2.0 */
/* split.c -- TF's Split, SplitV (tf.split with a count or a list of sizes) and Unpack
 * (tf.unpack / tf.unstack), plus ONNX Split-18's uneven num_outputs rule as a preset
 * (tx_split_uneven).  All three cut the input along one axis into consecutive parts; each
 * part is one strided-copy plan (exec/copy.h) over [rows before the axis, part x inner block],
 * so every row of a part moves with one memcpy.  Validation follows TF's kernels (split_op.cc,
 * split_v_op.cc, unpack_op.cc) in their order. */
#include "exec/copy.h"

#include <inttypes.h>

/* The parts: part i has sizes[i] entries along the axis (or `part` when sizes is NULL), except
 * part `special`, which has `special_len` (the inferred -1 of split_v, the short last part of an
 * uneven split; special >= n for none). */
typedef struct {
    const tx_tensor *value;
    size_t axis;
    const int64_t *sizes;
    int64_t part;
    size_t special;
    int64_t special_len;
    bool drop_axis;
} parts_t;

static int64_t part_len(const parts_t *p, size_t i) {
    return i == p->special ? p->special_len : p->sizes ? p->sizes[i] : p->part;
}

static void part_spec(void *ctx, size_t i, tx__out_spec *s) {
    const parts_t *p = ctx;
    s->dtype = p->value->dtype;
    s->rank = 0;
    for (size_t d = 0; d < p->value->rank; d++) {
        if (d == p->axis) {
            if (!p->drop_axis) s->dims[s->rank++] = part_len(p, i);
        } else {
            s->dims[s->rank++] = p->value->dims[d];
        }
    }
}

/* One part's copy: `rows` rows of `row` bytes each, read from the input at `offset` with rows
 * `src_row` bytes apart, written one after another. */
typedef struct part_copy {
    int64_t rows, row, src_row, offset;
} part_copy;

static void copy_part(const part_copy *c, size_t elem, char *dst, const char *src) {
    if (c->rows == 0 || c->row == 0) return;
    int64_t dims[2] = {c->rows, c->row / (int64_t)elem};
    int64_t dst_strides[2] = {c->row, (int64_t)elem}, src_strides[2] = {c->src_row, (int64_t)elem};
    tx__copy_nd(dst, src + c->offset, 2, dims, dst_strides, src_strides, elem);
}

/* The run half of a split into at most TX_OP_MAX_OUTPUTS parts (a prepared op's limit): each
 * part's copy.  A call with more parts copies part by part in make_parts instead. */
typedef struct split_plan {
    size_t n, elem;
    part_copy part[TX_OP_MAX_OUTPUTS];
} split_plan;

static tx_status split_run(const void *plan, const tx__run_io *io) {
    const split_plan *p = plan;
    for (size_t i = 0; i < p->n; i++) copy_part(&p->part[i], p->elem, io->out[i], io->in[0]);
    return TX_OK;
}

/* Makes outs[i] for i < n, the consecutive parts of `value` along `axis`.  With `drop_axis`
 * (unpack) each part has size 1 and the axis is left out of the output's shape.  On failure
 * every outs[i] is NULL. */
static tx_status make_parts(const char *op, const parts_t *p, size_t n, tx_tensor **outs) {
    const tx_tensor *value = p->value;
    size_t r = value->rank, elem = tx_dtype_size(value->dtype), axis = p->axis;
    /* The input as [outer, dim, inner]; only used when the input has elements, and then the
     * products fit int64 because numel does (a part with elements means an input with them). */
    const int64_t dim = value->dims[axis];
    const int64_t outer = value->numel > 0 ? tx__dims_product(value->dims, 0, axis) : 0,
                  inner = value->numel > 0 ? tx__dims_product(value->dims, axis + 1, r) : 0;
    /* Up to TX_OP_MAX_OUTPUTS parts: the lengths are read once, here, and both the outputs' shapes
     * and the copies come from that read (a caller's size_splits that another thread changes
     * during the call cannot make them disagree).  More parts cannot be prepared (the step's
     * empty plan makes the prepare refuse the count) and are copied part by part below, each by
     * its output's own length. */
    split_plan plan = {.n = 0, .elem = elem};
    int64_t lens[TX_OP_MAX_OUTPUTS];
    parts_t read_once = *p;
    if (n <= TX_OP_MAX_OUTPUTS) {
        int64_t start = 0;
        for (size_t i = 0; i < n; i++) {
            lens[i] = p->drop_axis ? 1 : part_len(p, i);
            TX_REQUIRE(lens[i] >= 0 && lens[i] <= dim - start, TX_INVALID_ARGUMENT,
                       "%s: size_splits changed during the call", op);
            plan.part[i] = (part_copy){outer, lens[i] * inner * (int64_t)elem,
                                       dim * inner * (int64_t)elem, start * inner * (int64_t)elem};
            start += lens[i];
        }
        plan.n = n;
        read_once.sizes = lens;
        read_once.special = SIZE_MAX;
    }
    TX_TRY(tx__prepared_step(op, split_run, &plan, sizeof plan, 1, &value, -1));
    TX_TRY(tx__tensor_alloc_n(op, n, part_spec, &read_once, outs));
    for (size_t i = 0; i < n; i++) {
        tx_status st = tx__share_strings(outs[i], value);
        if (st != TX_OK) {
            tx__free_all(outs, n);
            return st;
        }
    }
    if (plan.n == n) {
        char *out_data[TX_OP_MAX_OUTPUTS];
        for (size_t i = 0; i < n; i++) out_data[i] = outs[i]->data;
        return split_run(&plan, &(tx__run_io){(const char *[]){value->data}, out_data});
    }
    int64_t start = 0;
    for (size_t i = 0; i < n; i++) {
        /* The part's length as its output was made. */
        const int64_t len = p->drop_axis ? 1 : outs[i]->dims[axis];
        if (len > dim - start) {
            tx__free_all(outs, n);
            return tx__fail(TX_INVALID_ARGUMENT, "%s: size_splits changed during the call", op);
        }
        part_copy c = {outer, len * inner * (int64_t)elem, dim * inner * (int64_t)elem,
                       start * inner * (int64_t)elem};
        copy_part(&c, elem, outs[i]->data, value->data);
        start += len;
    }
    return TX_OK;
}

static tx_status check_split_dim(const char *op, const tx_tensor *value, int64_t split_dim,
                                 size_t *axis) {
    int64_t r = (int64_t)value->rank;
    TX_REQUIRE(split_dim >= -r && split_dim < r, TX_INVALID_ARGUMENT,
               "%s: expected -input rank (%" PRId64 ") <= split_dim < input rank (%" PRId64
               "), but got %" PRId64,
               op, -r, r, split_dim);
    *axis = (size_t)(split_dim < 0 ? split_dim + r : split_dim);
    return TX_OK;
}

tx_status tx_split(const tx_tensor *value, int64_t split_dim, int64_t num_split, tx_tensor **outs) {
    static const char *op = "split";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    TX_REQUIRE_TENSOR(op, value, "value");
    size_t axis = 0;
    TX_TRY(check_split_dim(op, value, split_dim, &axis));
    TX_REQUIRE(num_split > 0, TX_INVALID_ARGUMENT,
               "%s: number of ways to split should be > 0, but got %" PRId64, op, num_split);
    /* num_split is TF's int32 attr "num_split: int >= 1". */
    TX_REQUIRE(num_split <= INT32_MAX, TX_INVALID_ARGUMENT,
               "%s: num_split %" PRId64 " exceeds TF's int32 limit", op, num_split);
    int64_t dim = value->dims[axis];
    TX_REQUIRE(dim % num_split == 0, TX_INVALID_ARGUMENT,
               "%s: number of ways to split should evenly divide the split dimension, but got "
               "split_dim %zu (size = %" PRId64 ") and num_split %" PRId64,
               op, axis, dim, num_split);
    parts_t p = {value, axis, NULL, dim / num_split, SIZE_MAX, 0, false};
    return make_parts(op, &p, (size_t)num_split, outs);
}

/* ONNX Split-18 with num_outputs: parts of ceil(dim / k), the last one taking what is left.  The
 * validation order and messages are tx_split's, so the TF and ONNX forms can be diffed. */
tx_status tx_split_uneven(const tx_tensor *value, int64_t split_dim, int64_t num_split,
                          tx_tensor **outs) {
    static const char *op = "split";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    TX_REQUIRE_TENSOR(op, value, "value");
    size_t axis = 0;
    TX_TRY(check_split_dim(op, value, split_dim, &axis));
    TX_REQUIRE(num_split > 0, TX_INVALID_ARGUMENT,
               "%s: number of ways to split should be > 0, but got %" PRId64, op, num_split);
    TX_REQUIRE(num_split <= INT32_MAX, TX_INVALID_ARGUMENT,
               "%s: num_split %" PRId64 " exceeds TF's int32 limit", op, num_split);
    int64_t dim = value->dims[axis];
    /* ceil without overflow: dim >= 0 and num_split >= 1. */
    int64_t chunk = dim / num_split + (dim % num_split != 0);
    /* (num_split - 1) * chunk <= dim is checked by division so it cannot overflow. */
    TX_REQUIRE(num_split == 1 || chunk <= dim / (num_split - 1), TX_INVALID_ARGUMENT,
               "%s: uneven split of dim %zu (size = %" PRId64 ") into %" PRId64
               " parts of ceil(%" PRId64 " / %" PRId64 ") = %" PRId64
               " leaves nothing for the last part (the %" PRId64 " parts before it need more than %"
               PRId64 ")",
               op, axis, dim, num_split, dim, num_split, chunk, num_split - 1, dim);
    /* The last part takes what is left (all of chunk when num_split divides dim). */
    parts_t p = {value, axis, NULL, chunk, (size_t)num_split - 1, dim - chunk * (num_split - 1),
                 false};
    return make_parts(op, &p, (size_t)num_split, outs);
}

tx_status tx_split_v(const tx_tensor *value, const int64_t *size_splits, size_t n,
                     int64_t split_dim, tx_tensor **outs) {
    static const char *op = "split";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    for (size_t i = 0; i < n; i++) outs[i] = NULL;
    TX_REQUIRE_TENSOR(op, value, "value");
    TX_REQUIRE(n == 0 || size_splits != NULL, TX_INVALID_ARGUMENT, "%s: size_splits is NULL", op);
    TX_REQUIRE(n > 0, TX_INVALID_ARGUMENT,
               "%s: number of ways to split should be > 0, but size_splits is empty", op);
    TX_REQUIRE(n <= INT32_MAX, TX_INVALID_ARGUMENT,
               "%s: size_splits has %zu entries, above TF's int32 limit", op, n);
    size_t axis = 0;
    TX_TRY(check_split_dim(op, value, split_dim, &axis));
    int64_t dim = value->dims[axis];
    /* TF's special case: one output must be the whole dim, so a lone -1 is refused. */
    if (n == 1) {
        TX_REQUIRE(size_splits[0] == dim, TX_INVALID_ARGUMENT,
                   "%s: if there is only one output, it must have the same size as the input. "
                   "Input size: %" PRId64 " output size: %" PRId64,
                   op, dim, size_splits[0]);
        parts_t p = {value, axis, size_splits, 0, SIZE_MAX, 0, false};
        return make_parts(op, &p, 1, outs);
    }
    size_t neg_one = n;
    int64_t determined = 0;
    for (size_t i = 0; i < n; i++) {
        if (size_splits[i] == -1) {
            TX_REQUIRE(neg_one == n, TX_INVALID_ARGUMENT,
                       "%s: size_splits can only have one -1 (at %zu and %zu)", op, neg_one, i);
            neg_one = i;
        } else {
            TX_REQUIRE(tx__add_i64(determined, size_splits[i], &determined), TX_INVALID_ARGUMENT,
                       "%s: the sum of size_splits overflows int64", op);
        }
    }
    TX_REQUIRE((neg_one == n && determined == dim) || (neg_one < n && determined <= dim),
               TX_INVALID_ARGUMENT,
               "%s: determined shape must either match input shape along split_dim exactly if "
               "fully specified, or be less than the size of the input along split_dim if not "
               "fully specified.  Got: %" PRId64 " for dim %zu of size %" PRId64,
               op, determined, axis, dim);
    for (size_t i = 0; i < n; i++)
        TX_REQUIRE(i == neg_one || size_splits[i] >= 0, TX_INVALID_ARGUMENT,
                   "%s: split size at index %zu must be >= 0. Got: %" PRId64, op, i,
                   size_splits[i]);
    parts_t p = {value, axis, size_splits, 0, neg_one, dim - determined, false};
    return make_parts(op, &p, n, outs);
}

tx_status tx_unpack(const tx_tensor *value, int64_t num, int64_t axis, tx_tensor **outs) {
    static const char *op = "unpack";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    TX_REQUIRE_TENSOR(op, value, "value");
    TX_REQUIRE(num >= TX_UNPACK_INFER_NUM, TX_INVALID_ARGUMENT,
               "%s: num must be >= 0 (or TX_UNPACK_INFER_NUM), got %" PRId64, op, num);
    int64_t r = (int64_t)value->rank;
    TX_REQUIRE(axis >= -r && axis < r, TX_INVALID_ARGUMENT,
               "%s: axis = %" PRId64 " not in [%" PRId64 ", %" PRId64 ")", op, axis, -r, r);
    size_t a = (size_t)(axis < 0 ? axis + r : axis);
    int64_t dim = value->dims[a];
    if (num == TX_UNPACK_INFER_NUM) num = dim;
    if (num != dim) {
        char sbuf[TX_DIMS_STR_CAP];
        return tx__fail(TX_INVALID_ARGUMENT, "%s: input shape axis %zu must equal num %" PRId64
                        ", got shape %s", op, a, num,
                        tx__format_dims(sbuf, sizeof sbuf, value->rank, value->dims));
    }
    parts_t p = {value, a, NULL, 1, SIZE_MAX, 0, true};
    return make_parts(op, &p, (size_t)num, outs);
}
