/* SPDX-License-Identifier: Apache-2.0 */
/* prepared.c -- prepared ops (tensorx/prepared.h): the prepare state of a thread, the tx_op a
 * prepare makes, and its runs.  A prepare is plan mode plus a draft: the plan records the
 * outputs, tx__prepared_step the op's run function and plan; tx_prepare_leave packs them into
 * one block, the tx_op. */
#include "core/internal.h"

struct tx_op {
    size_t bytes; /* the block's size */
    const char *name;
    tx__run_fn run;
    const void *plan;
    size_t n_in, n_out;
    tx_output_info *in, *out; /* their dims point into the block too */
    int in_place_input;
};

/* A prepare in progress.  The step's parts (plan, inputs) are allocated when the op reaches
 * tx__prepared_step, outside plan mode's refusal of allocations. */
typedef struct draft {
    tx_status error; /* the options' or the step's failure, reported by tx_prepare_leave */
    tx_plan plan;
    tx_output_info outs[TX_OP_MAX_OUTPUTS];
    int64_t dims[TX_OP_MAX_OUTPUTS * TX_MAX_RANK];
    size_t strides_count;
    const int64_t *strides[TX_OP_MAX_OUTPUTS];
    bool strides_asked[TX_OP_MAX_OUTPUTS];
    bool stepped;
    const char *name;
    tx__run_fn run;
    void *step; /* plan_size bytes of plan, then n_in input infos, then their dims */
    size_t step_bytes, plan_size, n_in;
    int in_place_input;
} draft;

/* Read by every op call (tx__prepared_step, tx__output_strides), after plan mode's flag. */
static _Thread_local draft *active;
_Thread_local const tx_runner *tx__runner_active;
/* The plan of a prepare whose draft could not be allocated: plan mode still stops the call. */
static _Thread_local tx_plan count_only;

static const size_t options_sizes[] = {sizeof(tx_prepare_options)};
static const size_t runner_sizes[] = {sizeof(tx_runner)};
static const size_t info_sizes[] = {sizeof(tx_output_info)};

static void draft_free(draft *d) {
    if (d == NULL) return;
    if (d->step) tx__free(d->step, d->step_bytes);
    tx__free(d, sizeof *d);
}

static tx_status take_options(draft *d, const tx_prepare_options *o) {
    if (o == NULL) return TX_OK;
    TX_TRY(tx__check_struct_size("prepare", "options->struct_size", o->struct_size, options_sizes,
                                 1, "tx_prepare_options", "TX_PREPARE_OPTIONS_INIT"));
    TX_REQUIRE(o->output_count <= TX_OP_MAX_OUTPUTS, TX_INVALID_ARGUMENT,
               "prepare: options->output_count is %zu; a prepared op has at most %d outputs",
               o->output_count, TX_OP_MAX_OUTPUTS);
    TX_REQUIRE(o->output_count == 0 || o->output_strides != NULL, TX_INVALID_ARGUMENT,
               "prepare: options->output_strides is NULL for %zu outputs", o->output_count);
    d->strides_count = o->output_count;
    for (size_t i = 0; i < o->output_count; i++) d->strides[i] = o->output_strides[i];
    return TX_OK;
}

void tx_prepare_enter(const tx_prepare_options *options) {
    draft_free(active);
    active = NULL;
    draft *d = tx__alloc(sizeof *d, "prepare");
    if (d == NULL) {
        count_only = (tx_plan)TX_PLAN_INIT(NULL, 0, NULL, 0);
        tx_plan_enter(&count_only);
        return;
    }
    memset(d, 0, sizeof *d);
    d->in_place_input = -1;
    d->plan = (tx_plan)TX_PLAN_INIT(d->outs, TX_OP_MAX_OUTPUTS, d->dims,
                                    TX_OP_MAX_OUTPUTS * TX_MAX_RANK);
    d->error = take_options(d, options);
    active = d;
    tx_plan_enter(&d->plan);
}

bool tx__preparing(void) { return tx__planning() && active != NULL; }

const int64_t *tx__output_strides(size_t i) {
    if (TX_LIKELY(!tx__planning())) return NULL; /* the call: plan mode's flag first, one load */
    draft *d = active;
    if (d == NULL || i >= d->strides_count) return NULL;
    d->strides_asked[i] = true;
    return d->strides[i];
}

/* The record of a tensor as a tx_output_info whose dims are written to `dims`. */
static void describe(const tx_tensor *t, int64_t *dims, tx_output_info *info) {
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
    info->dtype = t->dtype;
    info->rank = t->rank;
    memcpy(dims, t->dims, t->rank * sizeof *dims);
    info->dims = t->rank ? dims : NULL;
    info->numel = t->numel;
    info->nbytes = t->nbytes;
}

tx_status tx__prepared_step(const char *op, tx__run_fn run, const void *plan, size_t plan_size,
                            size_t n_in, const tx_tensor *const *in, int in_place_input) {
    if (TX_LIKELY(!tx__planning())) return TX_OK; /* the call: plan mode's flag first, one load */
    draft *d = active;
    if (d == NULL) return TX_OK;
    TX_REQUIRE(!d->stepped, TX_UNIMPLEMENTED, "%s: the call runs two prepared steps; it has no "
               "prepared form", op);
    for (size_t i = 0; i < n_in; i++)
        TX_REQUIRE(in[i]->dtype != TX_STRING, TX_UNIMPLEMENTED,
                   "%s: prepared ops take fixed-size dtypes; string inputs need the op call", op);
    size_t ranks = 0;
    for (size_t i = 0; i < n_in; i++) ranks += in[i]->rank;
    /* plan, then the infos (aligned for their int64 dims and pointers), then the dims */
    size_t plan_room = (plan_size + 15) & ~(size_t)15;
    size_t bytes = plan_room + n_in * sizeof(tx_output_info) + ranks * sizeof(int64_t);
    tx_plan *p = tx__plan_active; /* allocations are refused in plan mode: step out of it */
    tx__plan_active = NULL;
    char *step = tx__alloc(bytes, op);
    tx__plan_active = p;
    if (step == NULL) return TX_RESOURCE_EXHAUSTED;
    memcpy(step, plan, plan_size);
    tx_output_info *infos = (tx_output_info *)(void *)(step + plan_room);
    int64_t *dims = (int64_t *)(void *)(infos + n_in);
    for (size_t i = 0; i < n_in; i++) {
        describe(in[i], dims, &infos[i]);
        dims += in[i]->rank;
    }
    d->stepped = true;
    d->name = op;
    d->run = run;
    d->step = step;
    d->step_bytes = bytes;
    d->plan_size = plan_size;
    d->n_in = n_in;
    d->in_place_input = in_place_input;
    return TX_OK;
}

/* Strides of output i that no two elements share: sorted by stride, each dim's stride steps over
 * the whole extent of the dims inside it.  Also bounds the bytes a run writes by int64. */
static tx_status check_strides(const char *op, size_t i, const tx_output_info *o,
                               const int64_t *s) {
    size_t order[TX_MAX_RANK], n = 0;
    for (size_t k = 0; k < o->rank; k++) {
        TX_REQUIRE(s[k] >= 0, TX_INVALID_ARGUMENT,
                   "%s: output_strides[%zu][%zu] is %lld; strides must be >= 0", op, i, k,
                   (long long)s[k]);
        if (o->dims[k] > 1) order[n++] = k;
    }
    if (o->numel == 0) return TX_OK;
    for (size_t a = 1; a < n; a++) /* insertion sort by stride: rank is small */
        for (size_t b = a; b > 0 && s[order[b]] < s[order[b - 1]]; b--) {
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    int64_t extent = (int64_t)tx_dtype_size(o->dtype); /* bytes covered by the dims so far */
    for (size_t a = 0; a < n; a++) {
        size_t k = order[a];
        TX_REQUIRE(s[k] >= extent, TX_INVALID_ARGUMENT,
                   "%s: output_strides[%zu][%zu] = %lld overlaps the %lld bytes of the dims inside "
                   "it; elements of an output may not share bytes", op, i, k, (long long)s[k],
                   (long long)extent);
        TX_REQUIRE(tx__mul_i64(s[k], o->dims[k], &extent), TX_INVALID_ARGUMENT,
                   "%s: output_strides[%zu][%zu] = %lld times dim %lld passes int64", op, i, k,
                   (long long)s[k], (long long)o->dims[k]);
    }
    return TX_OK;
}

/* Checks what the op recorded and packs it into a tx_op. */
static tx_status finish(draft *d, tx_op **out) {
    const char *op = d->name;
    size_t n_out = d->plan.count;
    TX_REQUIRE(n_out <= TX_OP_MAX_OUTPUTS, TX_UNIMPLEMENTED,
               "%s: the call makes %zu outputs; a prepared op makes at most %d", op, n_out,
               TX_OP_MAX_OUTPUTS);
    size_t out_ranks = 0;
    for (size_t i = 0; i < n_out; i++) {
        const tx_output_info *o = &d->outs[i];
        TX_REQUIRE(o->dtype != TX_STRING, TX_UNIMPLEMENTED,
                   "%s: prepared ops make fixed-size dtypes; string outputs need the op call", op);
        TX_REQUIRE(!(o->flags & (TX_OUTPUT_DATA_DEPENDENT | TX_OUTPUT_UPPER_BOUND)),
                   TX_UNIMPLEMENTED, "%s: output %zu's shape depends on input values; it has "
                   "no prepared form", op, i);
        out_ranks += o->rank;
    }
    for (size_t i = 0; i < d->strides_count; i++) {
        if (d->strides[i] == NULL) continue;
        TX_REQUIRE(i < n_out, TX_INVALID_ARGUMENT,
                   "prepare: options give strides for output %zu; %s makes %zu outputs", i, op,
                   n_out);
        TX_REQUIRE(d->strides_asked[i], TX_UNIMPLEMENTED,
                   "%s: the prepared op writes output %zu row-major only; its output_strides "
                   "must be NULL", op, i);
        TX_TRY(check_strides(op, i, &d->outs[i], d->strides[i]));
    }
    size_t plan_room = (d->plan_size + 15) & ~(size_t)15;
    size_t head = (sizeof(tx_op) + 15) & ~(size_t)15;
    size_t bytes = head + d->step_bytes + n_out * sizeof(tx_output_info) +
                   out_ranks * sizeof(int64_t);
    char *block = tx__alloc(bytes, op);
    if (block == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_op *o = (tx_op *)(void *)block;
    memcpy(block + head, d->step, d->step_bytes);
    o->bytes = bytes;
    o->name = op;
    o->run = d->run;
    o->plan = block + head;
    o->n_in = d->n_in;
    o->in = (tx_output_info *)(void *)(block + head + plan_room);
    o->n_out = n_out;
    o->out = (tx_output_info *)(void *)(block + head + d->step_bytes);
    o->in_place_input = d->in_place_input;
    /* the copied infos' dims still point into the draft: point them into the block */
    int64_t *dims = (int64_t *)(void *)(o->in + o->n_in);
    for (size_t i = 0; i < o->n_in; i++) {
        if (o->in[i].rank) o->in[i].dims = dims;
        dims += o->in[i].rank;
    }
    dims = (int64_t *)(void *)(o->out + n_out);
    for (size_t i = 0; i < n_out; i++) {
        o->out[i] = d->outs[i];
        o->out[i].struct_size = sizeof(tx_output_info);
        if (o->out[i].rank) memcpy(dims, d->outs[i].dims, o->out[i].rank * sizeof *dims);
        o->out[i].dims = o->out[i].rank ? dims : NULL;
        dims += o->out[i].rank;
    }
    *out = o;
    return TX_OK;
}

tx_status tx_prepare_leave(tx_op **op, tx_status op_result) {
    draft *d = active;
    active = NULL;
    bool drafted = d != NULL;
    tx_status st = tx_plan_leave(drafted ? &d->plan : &count_only, op_result);
    const char *name = tx__plan_op;
    if (op == NULL) {
        draft_free(d);
        return tx__fail(TX_INVALID_ARGUMENT, "prepare: op is NULL");
    }
    *op = NULL;
    if (!drafted) return tx__fail(TX_RESOURCE_EXHAUSTED, "prepare: out of memory");
    if (d->error != TX_OK) {
        tx_status e = d->error; /* its message is still the thread's last error */
        draft_free(d);
        return e;
    }
    if (st == TX_OK && op_result != TX__PLANNED && !d->stepped)
        st = tx__fail(TX_UNIMPLEMENTED, "prepare: the call made no outputs: nothing to prepare");
    else if (st == TX_OK && !d->stepped)
        st = tx__fail(TX_UNIMPLEMENTED, "%s: has no prepared form yet (docs/prepared.md lists "
                      "the ops that have); call it directly", name ? name : "the op");
    if (st == TX_OK) st = finish(d, op);
    draft_free(d);
    return st;
}

void tx_op_free(tx_op *op) {
    if (op) tx__free(op, op->bytes);
}

size_t tx_op_input_count(const tx_op *op) { return op ? op->n_in : 0; }
size_t tx_op_output_count(const tx_op *op) { return op ? op->n_out : 0; }

static tx_status describe_one(const char *fn, const tx_op *op, size_t i, size_t n,
                              const tx_output_info *infos, tx_output_info *info) {
    TX_REQUIRE(op != NULL, TX_INVALID_ARGUMENT, "%s: op is NULL", fn);
    TX_REQUIRE(info != NULL, TX_INVALID_ARGUMENT, "%s: info is NULL", fn);
    TX_TRY(tx__check_struct_size(fn, "info->struct_size", info->struct_size, info_sizes, 1,
                                 "tx_output_info", "sizeof(tx_output_info)"));
    TX_REQUIRE(i < n, TX_INVALID_ARGUMENT, "%s: index %zu is out of range: %s has %zu", fn, i,
               op->name, n);
    tx__fill_struct(info, info->struct_size, &infos[i]);
    return TX_OK;
}
tx_status tx_op_input(const tx_op *op, size_t i, tx_output_info *info) {
    return describe_one("op_input", op, i, op ? op->n_in : 0, op ? op->in : NULL, info);
}
tx_status tx_op_output(const tx_op *op, size_t i, tx_output_info *info) {
    return describe_one("op_output", op, i, op ? op->n_out : 0, op ? op->out : NULL, info);
}

int tx_op_in_place(const tx_op *op, size_t out, size_t in) {
    return op && out < op->n_out && in < op->n_in && op->in_place_input == (int)in;
}

tx_status tx_op_run(const tx_op *op, const void *const *inputs, void *const *outputs,
                    const tx_runner *runner) {
    TX_REQUIRE(op != NULL, TX_INVALID_ARGUMENT, "op_run: op is NULL");
    TX_REQUIRE(inputs != NULL || op->n_in == 0, TX_INVALID_ARGUMENT,
               "op_run: inputs is NULL; %s takes %zu", op->name, op->n_in);
    TX_REQUIRE(outputs != NULL, TX_INVALID_ARGUMENT, "op_run: outputs is NULL; %s makes %zu",
               op->name, op->n_out);
    for (size_t i = 0; i < op->n_in; i++)
        TX_REQUIRE(inputs[i] != NULL || op->in[i].numel == 0, TX_INVALID_ARGUMENT,
                   "op_run: inputs[%zu] of %s is NULL for %lld elements", i, op->name,
                   (long long)op->in[i].numel);
    for (size_t i = 0; i < op->n_out; i++)
        TX_REQUIRE(outputs[i] != NULL || op->out[i].numel == 0, TX_INVALID_ARGUMENT,
                   "op_run: outputs[%zu] of %s is NULL for %lld elements", i, op->name,
                   (long long)op->out[i].numel);
    if (runner != NULL) {
        TX_TRY(tx__check_struct_size("op_run", "runner->struct_size", runner->struct_size,
                                     runner_sizes, 1, "tx_runner", "TX_RUNNER_INIT"));
        TX_REQUIRE(runner->parallel_for != NULL, TX_INVALID_ARGUMENT,
                   "op_run: runner->parallel_for is NULL");
        TX_REQUIRE(runner->threads >= 1 && runner->threads <= TX_MAX_THREADS,
                   TX_INVALID_ARGUMENT, "op_run: runner->threads is %d; it must be in 1..%d",
                   runner->threads, TX_MAX_THREADS);
    }
    tx__run_io io = {(const char *const *)inputs, (char *const *)outputs};
    const tx_runner *saved = tx__runner_active;
    tx__runner_active = runner;
    tx_status st = op->run(op->plan, &io);
    tx__runner_active = saved;
    return st;
}
