/* SPDX-License-Identifier: Apache-2.0 */
/* shapes.c -- TF's "Shapes and Shaping" ops: shape, shape_n, size, rank, reshape, squeeze and
 * expand_dims.  reshape, squeeze and expand_dims return views that share the input's buffer;
 * their prepared form (and bitcast's, tx__view_step) copies the input's bytes into the output
 * (nothing when the output is the input), which a runtime that aliases the two never needs to run.
 * shape, shape_n, size and rank write values fixed by the inputs' shapes: their runs read no
 * input. */
#include "ops/shapes.h"

#include "exec/copy.h"

#include <inttypes.h>

/* An out_type the op definition does not list (Shape/ShapeN/Size: {int32, int64}) is
 * unimplemented, checked before any other rule (TF 2.21 decides). */
static tx_status check_index_type(const char *op, tx_dtype out_type) {
    TX_REQUIRE(out_type == TX_INT32 || out_type == TX_INT64, TX_UNIMPLEMENTED,
               "%s: out_type must be int32 or int64, got %s", op, tx_dtype_name(out_type));
    return TX_OK;
}

/* The most outputs and values one int_values plan holds: a prepared shape_n takes at most this
 * many inputs and dims in all; the call fills more outputs in groups. */
#define INT_PLAN_OUTPUTS 64
#define INT_PLAN_VALUES 512

/* The run half of shape, shape_n, size and rank: outputs whose values (the inputs' dims, element
 * counts or ranks) are fixed at prepare time, written as out_type.  The inputs' data are never
 * read: a run only writes. */
typedef struct int_values_plan {
    tx_dtype out_type;
    size_t n;                         /* outputs */
    uint8_t count[INT_PLAN_OUTPUTS];  /* values of each output: a rank (<= TX_MAX_RANK) or 1 */
    int64_t vals[INT_PLAN_VALUES];    /* the outputs' values one after another */
} int_values_plan;

static tx_status int_values_run(const void *plan, const tx__run_io *io) {
    const int_values_plan *p = plan;
    const int64_t *v = p->vals;
    for (size_t i = 0; i < p->n; i++) {
        char *o = io->out[i];
        for (size_t k = 0; k < p->count[i]; k++, v++) {
            if (p->out_type == TX_INT32) {
                int32_t x = (int32_t)*v; /* checked to fit at prepare time */
                memcpy(o + 4 * k, &x, 4);
            } else {
                memcpy(o + 8 * k, v, 8);
            }
        }
    }
    return TX_OK;
}

/* The end of shape, size and rank: the value check, the prepared step, the output (1-D, or a
 * scalar with rank 0) and the run into it. */
static tx_status one_output(const char *op, const int_values_plan *p, const tx_tensor *input,
                            size_t rank, tx_tensor **out) {
    if (p->out_type == TX_INT32)
        for (size_t i = 0; i < p->count[0]; i++)
            TX_REQUIRE(p->vals[i] <= INT32_MAX, TX_INVALID_ARGUMENT,
                       "%s: value %" PRId64 " does not fit out_type int32", op, p->vals[i]);
    TX_TRY(tx__prepared_step(op, int_values_run, p, sizeof *p, 1, &input, -1));
    int64_t n = p->count[0];
    tx_tensor *t;
    TX_TRY(tx__tensor_alloc(op, p->out_type, rank, &n, &t));
    (void)int_values_run(p, &(tx__run_io){(const char *[]){input->data}, &t->data});
    *out = t;
    return TX_OK;
}

tx_status tx_shape(const tx_tensor *input, tx_dtype out_type, tx_tensor **out) {
    static const char *op = "shape";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_TRY(check_index_type(op, out_type));
    int_values_plan p; /* member by member: clearing 4 KB would cost more than the op */
    p.out_type = out_type;
    p.n = 1;
    p.count[0] = (uint8_t)input->rank;
    if (input->rank) memcpy(p.vals, input->dims, input->rank * sizeof *p.vals);
    return one_output(op, &p, input, 1, out);
}

typedef struct {
    const tx_tensor *const *inputs;
    tx_dtype out_type;
} shape_n_t;

static void shape_n_spec(void *ctx, size_t i, tx__out_spec *s) {
    const shape_n_t *c = ctx;
    s->dtype = c->out_type;
    s->rank = 1;
    s->dims[0] = (int64_t)c->inputs[i]->rank;
}

/* Plans the shapes of inputs[first, ...) that fit one plan; returns the index after them. */
static size_t shape_n_plan(int_values_plan *p, const tx_tensor *const *inputs, size_t n,
                           size_t first, tx_dtype out_type) {
    size_t i = first, used = 0;
    p->out_type = out_type;
    for (; i < n && i - first < INT_PLAN_OUTPUTS && used + inputs[i]->rank <= INT_PLAN_VALUES; i++) {
        p->count[i - first] = (uint8_t)inputs[i]->rank;
        if (inputs[i]->rank) memcpy(p->vals + used, inputs[i]->dims, inputs[i]->rank * sizeof *p->vals);
        used += inputs[i]->rank;
    }
    p->n = i - first;
    return i;
}

tx_status tx_shape_n(const tx_tensor *const *inputs, size_t n, tx_dtype out_type,
                     tx_tensor **outs) {
    static const char *op = "shape_n";
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    for (size_t i = 0; i < n; i++) outs[i] = NULL;
    TX_REQUIRE(n >= 1 && inputs != NULL, TX_INVALID_ARGUMENT, "%s: input must hold at least 1 tensor", op);
    TX_TRY(check_index_type(op, out_type));
    for (size_t i = 0; i < n; i++) {
        TX_REQUIRE(inputs[i] != NULL, TX_INVALID_ARGUMENT, "%s: input[%zu] is NULL", op, i);
        /* ShapeN's inputs are `N * T`, one dtype for all (array_ops.cc). */
        TX_REQUIRE(inputs[i]->dtype == inputs[0]->dtype, TX_INVALID_ARGUMENT,
                   "%s: input[%zu] has dtype %s but input[0] has dtype %s; ShapeN's inputs share "
                   "one dtype T", op, i, tx_dtype_name(inputs[i]->dtype),
                   tx_dtype_name(inputs[0]->dtype));
        for (size_t d = 0; out_type == TX_INT32 && d < inputs[i]->rank; d++)
            TX_REQUIRE(inputs[i]->dims[d] <= INT32_MAX, TX_INVALID_ARGUMENT,
                       "%s: value %" PRId64 " does not fit out_type int32", op, inputs[i]->dims[d]);
    }
    int_values_plan p;
    size_t next = shape_n_plan(&p, inputs, n, 0, out_type);
    if (next == n) TX_TRY(tx__prepared_step(op, int_values_run, &p, sizeof p, n, inputs, -1));
    else if (tx__preparing())
        return tx__fail(TX_UNIMPLEMENTED, "%s: a prepared op takes at most %d inputs of at most "
                        "%d dims in all; these are more", op, INT_PLAN_OUTPUTS, INT_PLAN_VALUES);
    shape_n_t c = {inputs, out_type};
    TX_TRY(tx__tensor_alloc_n(op, n, shape_n_spec, &c, outs));
    char *o[INT_PLAN_OUTPUTS];
    for (size_t first = 0; first < n; first = next) {
        if (first > 0) next = shape_n_plan(&p, inputs, n, first, out_type);
        for (size_t i = first; i < next; i++) o[i - first] = outs[i]->data;
        (void)int_values_run(&p, &(tx__run_io){NULL, o});
    }
    return TX_OK;
}

tx_status tx_size(const tx_tensor *input, tx_dtype out_type, tx_tensor **out) {
    static const char *op = "size";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_TRY(check_index_type(op, out_type));
    int_values_plan p;
    p.out_type = out_type;
    p.n = 1;
    p.count[0] = 1;
    p.vals[0] = input->numel;
    return one_output(op, &p, input, 0, out);
}

tx_status tx_rank(const tx_tensor *input, tx_tensor **out) {
    static const char *op = "rank";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input, "input");
    int_values_plan p;
    p.out_type = TX_INT32;
    p.n = 1;
    p.count[0] = 1;
    p.vals[0] = (int64_t)input->rank;
    return one_output(op, &p, input, 0, out);
}

/* The run half of a view op: the output's elements are the input's bytes in row-major order. */
typedef struct view_plan {
    bool in_place_ok; /* a contiguous output: the input's own memory is the result */
    tx__copy_plan copy;
} view_plan;

static tx_status view_run(const void *plan, const tx__run_io *io) {
    const view_plan *p = plan;
    if (p->copy.count == 0 || (p->in_place_ok && (const char *)io->out[0] == io->in[0]))
        return TX_OK; /* memcpy onto itself is undefined, and there is nothing to move */
    tx__copy_plan_exec(&p->copy, io->out[0], io->in[0]);
    return TX_OK;
}

static tx_status view_prepare(const char *op, const tx_tensor *input, tx_dtype dtype,
                              size_t rank, const int64_t *dims) {
    view_plan p = {.in_place_ok = true};
    size_t elem = tx_dtype_size(dtype);
    const int64_t *dst_strides = tx__output_strides(0);
    int64_t src_strides[TX_MAX_RANK];
    tx__contiguous_strides(rank, dims, elem, src_strides);
    if (dst_strides != NULL) {
        p.in_place_ok = false;
        tx__copy_plan_make(&p.copy, rank, dims, dst_strides, src_strides, elem);
    } else {
        tx__copy_plan_make(&p.copy, rank, dims, src_strides, src_strides, elem);
    }
    return tx__prepared_step(op, view_run, &p, sizeof p, 1, &input, p.in_place_ok ? 0 : -1);
}
/* Outside plan mode the call makes no plan: its view copies nothing. */
tx_status tx__view_step(const char *op, const tx_tensor *input, tx_dtype dtype, size_t rank,
                        const int64_t *dims) {
    return tx__planning() ? view_prepare(op, input, dtype, rank, dims) : TX_OK;
}

tx_status tx_reshape(const tx_tensor *tensor, const tx_tensor *shape, tx_tensor **out) {
    static const char *op = "reshape";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, tensor, "tensor");
    TX_REQUIRE_TENSOR(op, shape, "shape");
    /* TF 2.21 decides: ReshapeOp takes a scalar shape as a one-entry vector ("legacy use of
     * scalars to represent shape", reshape_op.h). */
    /* Reshape's Tshape is {int32, int64}: another dtype is unimplemented, checked first (TF 2.21
     * decides: the op definition comes before the kernel). */
    TX_REQUIRE(shape->dtype == TX_INT32 || shape->dtype == TX_INT64, TX_UNIMPLEMENTED,
               "%s: shape must be int32 or int64, got %s", op, tx_dtype_name(shape->dtype));
    TX_REQUIRE(shape->rank <= 1, TX_INVALID_ARGUMENT, "%s: shape must be a vector, got rank %zu",
               op, shape->rank);
    const size_t n = (size_t)shape->numel;
    /* ReshapeOp (reshape_op.h) wants fewer than TensorShape::MaxDimensions() entries, one below
     * the rank any other op may produce. */
    TX_REQUIRE(n <= TX_RESHAPE_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: shape has too many dimensions: must be < %d, but received %zu", op,
               TX_MAX_RANK, n);
    int64_t dims[TX_MAX_RANK];
    for (size_t i = 0; i < n; i++)
        dims[i] = tx__index_at(shape, (int64_t)i);
    char sbuf[TX_DIMS_STR_CAP];
    tx_status st = TX_OK;
    /* TF's rules (reshape_op.h): zero entries are left out of `product` so that a -1 can still
     * be inferred next to them; the input's zero dims are then left out of its count as well. */
    int64_t unknown = -1, product = 1, running = 1;
    bool shape_has_zero = false;
    for (size_t i = 0; i < n; i++) {
        if (dims[i] == -1) {
            if (unknown >= 0) {
                st = tx__fail(TX_INVALID_ARGUMENT, "%s: shape %s has more than one -1", op,
                              tx__format_dims(sbuf, sizeof sbuf, n, dims));
                goto done;
            }
            unknown = (int64_t)i;
        } else if (dims[i] < 0) {
            st = tx__fail(TX_INVALID_ARGUMENT, "%s: shape %s has negative entry %" PRId64 " at index %zu",
                          op, tx__format_dims(sbuf, sizeof sbuf, n, dims), dims[i], i);
            goto done;
        } else if (dims[i] == 0) {
            shape_has_zero = true;
            running = 0;
        } else {
            if (!tx__mul_i64(running, dims[i], &running)) {
                st = tx__fail(TX_INVALID_ARGUMENT, "%s: shape %s has more elements than int64 holds",
                              op, tx__format_dims(sbuf, sizeof sbuf, n, dims));
                goto done;
            }
            if (!tx__mul_i64(product, dims[i], &product)) {
                st = tx__fail(TX_INVALID_ARGUMENT, "%s: shape %s has more elements than int64 holds",
                              op, tx__format_dims(sbuf, sizeof sbuf, n, dims));
                goto done;
            }
        }
    }
    if (unknown >= 0) {
        int64_t count = shape_has_zero ? 1 : tensor->numel;
        bool input_has_zero = false;
        for (size_t d = 0; d < tensor->rank && shape_has_zero; d++) {
            if (tensor->dims[d] == 0) input_has_zero = true;
            else if (!tx__mul_i64(count, tensor->dims[d], &count)) {
                st = tx__fail(TX_INVALID_ARGUMENT, "%s: non-zero dims of the input overflow int64", op);
                goto done;
            }
        }
        int64_t missing = count / product;
        if (!input_has_zero && product * missing != count) {
            char ibuf[TX_DIMS_STR_CAP];
            st = tx__fail(TX_INVALID_ARGUMENT,
                          "%s: cannot infer the -1 in shape %s: input of shape %s has %" PRId64
                          " elements, not a multiple of %" PRId64,
                          op, tx__format_dims(sbuf, sizeof sbuf, n, dims),
                          tx__format_dims(ibuf, sizeof ibuf, tensor->rank, tensor->dims),
                          tensor->numel, product);
            goto done;
        }
        dims[unknown] = missing;
    }
    int64_t want;
    st = tx__shape_numel(op, "shape", n, dims, &want);
    if (st != TX_OK) goto done;
    if (want != tensor->numel) {
        char ibuf[TX_DIMS_STR_CAP];
        st = tx__fail(TX_INVALID_ARGUMENT,
                      "%s: input of shape %s has %" PRId64 " elements, shape %s needs %" PRId64, op,
                      tx__format_dims(ibuf, sizeof ibuf, tensor->rank, tensor->dims), tensor->numel,
                      tx__format_dims(sbuf, sizeof sbuf, n, dims), want);
        goto done;
    }
    st = tx__view_step(op, tensor, tensor->dtype, n, dims);
    if (st != TX_OK) goto done;
    st = tx__tensor_view(op, tensor, tensor->dtype, n, dims, out);
done:
    return st;
}

tx_status tx_squeeze(const tx_tensor *input, const int64_t *squeeze_dims, size_t n_dims,
                     tx_tensor **out) {
    static const char *op = "squeeze";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input, "input");
    TX_REQUIRE(n_dims == 0 || squeeze_dims != NULL, TX_INVALID_ARGUMENT, "%s: squeeze_dims is NULL", op);
    bool drop[TX_MAX_RANK] = {false};
    for (size_t i = 0; i < n_dims; i++) {
        size_t d;
        TX_TRY(tx__normalize_axis(op, "squeeze_dims entry", squeeze_dims[i], input->rank, &d));
        TX_REQUIRE(input->dims[d] == 1, TX_INVALID_ARGUMENT,
                   "%s: cannot squeeze dim %" PRId64 ": its size is %" PRId64 ", not 1", op,
                   squeeze_dims[i], input->dims[d]);
        drop[d] = true;
    }
    int64_t dims[TX_MAX_RANK];
    size_t r = 0;
    for (size_t i = 0; i < input->rank; i++) {
        bool squeeze = n_dims ? drop[i] : input->dims[i] == 1;
        if (!squeeze) dims[r++] = input->dims[i];
    }
    TX_TRY(tx__view_step(op, input, input->dtype, r, dims));
    return tx__tensor_view(op, input, input->dtype, r, dims, out);
}

tx_status tx_expand_dims(const tx_tensor *input, int64_t dim, tx_tensor **out) {
    static const char *op = "expand_dims";
    TX_REQUIRE_OUT(op, out);
    *out = NULL;
    TX_REQUIRE_TENSOR(op, input, "input");
    int64_t r = (int64_t)input->rank;
    TX_REQUIRE(dim >= -1 - r && dim <= r, TX_INVALID_ARGUMENT,
               "%s: dim %" PRId64 " is out of range [%" PRId64 ", %" PRId64 "]", op, dim, -1 - r, r);
    TX_REQUIRE(input->rank < TX_MAX_RANK, TX_INVALID_ARGUMENT,
               "%s: the result would exceed the maximum rank %d", op, TX_MAX_RANK);
    size_t at = (size_t)(dim < 0 ? dim + r + 1 : dim);
    int64_t dims[TX_MAX_RANK];
    memcpy(dims, input->dims, at * sizeof *dims);
    dims[at] = 1;
    memcpy(dims + at + 1, input->dims + at, (input->rank - at) * sizeof *dims);
    TX_TRY(tx__view_step(op, input, input->dtype, input->rank + 1, dims));
    return tx__tensor_view(op, input, input->dtype, input->rank + 1, dims, out);
}
