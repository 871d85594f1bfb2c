/* SPDX-License-Identifier: Apache-2.0 */
/* opreg.c -- argument accessors and bookkeeping for the op table (see opreg.h). */
#include "opreg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Per thread, like tx_last_error(): run functions fail from any thread. */
static _Thread_local char tool_message[512];

tx_status op_fail(tx_status s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tool_message, sizeof tool_message, fmt, ap);
    va_end(ap);
    return s;
}

const char *op_error(void) {
    if (tool_message[0]) return tool_message;
    return tx_last_error();
}

const char *op_status_name(tx_status s) {
    switch ((int)s) {
#define NAME_CASE(NAME, code, name) \
    case code: return name;
        OP_STATUS_LIST(NAME_CASE)
#undef NAME_CASE
    }
    return tx_status_name(s);
}

tx_status op_fail_io(const char *verb, const char *path, int errnum) {
    if (strcmp(path, "-") == 0)
        return op_fail(OP_IO_ERROR, "cannot %s %s: %s", verb, *verb == 'r' ? "stdin" : "stdout", strerror(errnum));
    return op_fail(OP_IO_ERROR, "cannot %s '%s': %s", verb, path, strerror(errnum));
}

int op_param_index(const op_def *d, const char *name, size_t len) {
    for (int i = 0; i < OP_MAX_PARAMS && d->params[i].name; i++)
        if (strncmp(d->params[i].name, name, len) == 0 && d->params[i].name[len] == '\0') return i;
    return -1;
}

static const op_value empty_value;

/* The value of parameter `name` of kind `kind`, or an empty one.  Run functions name their
 * parameters with the same literals as the table, which the linker usually merges: the pointer
 * comparison finds those without reading the names. */
static const op_value *find(const op_args *a, const char *name, param_kind kind) {
    const op_param *ps = a->def->params;
    int i = 0;
    while (i < OP_MAX_PARAMS && ps[i].name && ps[i].name != name) i++;
    if (i == OP_MAX_PARAMS || !ps[i].name) i = op_param_index(a->def, name, strlen(name));
    return i >= 0 && ps[i].kind == kind ? &a->v[i] : &empty_value;
}

const tx_tensor *arg_tensor(const op_args *a, const char *name) { return find(a, name, P_TENSOR)->tensor; }
const tx_tensor *const *arg_list(const op_args *a, const char *name, size_t *n) {
    const op_value *v = find(a, name, P_TENSOR_LIST);
    *n = v->nlist;
    return (const tx_tensor *const *)v->list;
}
long long arg_int(const op_args *a, const char *name) { return find(a, name, P_INT)->i; }
bool arg_bool(const op_args *a, const char *name) { return find(a, name, P_BOOL)->b; }
const char *arg_str(const op_args *a, const char *name) {
    const char *s = find(a, name, P_STRING)->s;
    return s ? s : "";
}
tx_dtype arg_dtype(const op_args *a, const char *name) { return find(a, name, P_DTYPE)->dtype; }
const int64_t *arg_ints(const op_args *a, const char *name, size_t *n) {
    const op_value *v = find(a, name, P_INT_LIST);
    *n = v->nints;
    return v->ints;
}
bool arg_has(const op_args *a, const char *name) {
    int i = op_param_index(a->def, name, strlen(name));
    return i >= 0 && a->v[i].present;
}

/* Bytes one output costs at least: its list entry, a tensor header (64-byte aligned) and a buffer
 * header (64 bytes plus the 1-byte minimum allocation, aligned), or under --plan its
 * tx_output_info and up to TX_MAX_RANK dims. */
#define OUTPUT_COST (sizeof(tx_output_info) + TX_MAX_RANK * sizeof(int64_t) + 256)
#define OUTPUT_MIN_BUDGET ((size_t)1 << 20)

tx_status op_outputs_reserve(op_outputs *o, size_t n) {
    op_outputs_clear(o);
    /* Outputs are memory the input's shape asks for (unpack of an empty [2^29, 0] makes 2^29
     * tensors), so together, at OUTPUT_COST each, they obey the byte cap too; a tiny cap meant for
     * tensors still leaves room for OUTPUT_MIN_BUDGET of them. */
    size_t budget = tx_max_tensor_bytes();
    if (budget < OUTPUT_MIN_BUDGET) budget = OUTPUT_MIN_BUDGET;
    if (n > budget / OUTPUT_COST)
        return op_fail(TX_RESOURCE_EXHAUSTED,
                       "%zu outputs need about %zu bytes even when empty, over the byte limit %zu "
                       "(--max-bytes)",
                       n, n > SIZE_MAX / OUTPUT_COST ? SIZE_MAX : n * OUTPUT_COST, budget);
    if (n <= OP_MAX_OUTPUTS) {
        memset(o->inline_t, 0, sizeof o->inline_t);
        o->t = o->inline_t;
    } else {
        o->t = calloc(n, sizeof *o->t);
        if (!o->t) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    }
    o->n = n;
    return TX_OK;
}

void op_outputs_move(op_outputs *to, op_outputs *from) {
    *to = *from;
    if (from->t == from->inline_t) to->t = to->inline_t;
    from->t = NULL;
    from->n = 0;
}

void op_outputs_clear(op_outputs *o) {
    for (size_t i = 0; o->t && i < o->n; i++) tx_tensor_free(o->t[i]);
    if (o->t != o->inline_t) free(o->t);
    o->t = NULL;
    o->n = 0;
}

/* Called for every parameter of every call, most of them plain values: only what is set is freed. */
void op_value_clear(op_value *v) {
    if (v->tensor) tx_tensor_free(v->tensor);
    if (v->list) {
        for (size_t i = 0; i < v->nlist; i++) tx_tensor_free(v->list[i]);
        free(v->list);
    }
    if (v->s) free(v->s);
    if (v->ints) free(v->ints);
    memset(v, 0, sizeof *v);
}

/* A tensor's bytes: its elements, and for strings their bytes too (counted while n <= stop). */
static uint64_t tensor_bytes(const tx_tensor *t, uint64_t n, uint64_t stop) {
    n += tx_tensor_nbytes(t);
    if (tx_tensor_dtype(t) == TX_STRING)
        for (int64_t i = 0; i < tx_tensor_numel(t) && n <= stop; i++) n += tx_tensor_string(t, i)->size;
    return n;
}

uint64_t op_args_tensor_bytes(const op_args *a, uint64_t stop) {
    uint64_t n = 0;
    for (size_t i = 0; i < OP_MAX_PARAMS && a->def->params[i].name && n <= stop; i++) {
        if (a->v[i].tensor) n = tensor_bytes(a->v[i].tensor, n, stop);
        for (size_t k = 0; k < a->v[i].nlist && n <= stop; k++) n = tensor_bytes(a->v[i].list[k], n, stop);
    }
    return n;
}

bool op_outputs_bounded(const op_args *a, const op_outputs *o, char *why, size_t cap) {
    if (!a->def->outputs_bounded) return true;
    uint64_t in = op_args_tensor_bytes(a, UINT64_MAX), out = 0;
    for (size_t i = 0; i < o->n; i++)
        if (o->t[i]) out = tensor_bytes(o->t[i], out, UINT64_MAX);
    if (out <= in * OP_BOUND_PER_BYTE + OP_BOUND_SLACK) return true;
    snprintf(why, cap, "outputs of %llu bytes from tensors of %llu: over the op table's bound "
             "(outputs_bounded: %d per byte + %d)", (unsigned long long)out,
             (unsigned long long)in, OP_BOUND_PER_BYTE, OP_BOUND_SLACK);
    return false;
}

void op_args_clear(op_args *a) {
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) op_value_clear(&a->v[i]);
}

/* ---- size before run checks ---- */

/* One plan of the call into r->plan, whose dims storage is set. */
static void plan_once(const op_def *def, const op_args *a, op_plan_result *r) {
    op_outputs po = {0};
    po.plan = &r->plan;
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    r->st = def->run(a, &po);
    snprintf(r->msg, sizeof r->msg, "%s", r->st == TX_OK ? "" : op_error());
    r->leaked = false;
    for (size_t i = 0; i < po.n; i++) r->leaked |= po.t[i] != NULL;
    op_outputs_clear(&po);
}

void op_plan_run(const op_def *def, const op_args *a, op_plan_result *r) {
    r->plan = (tx_plan)TX_PLAN_INIT(r->info, OP_PLAN_CAP, r->dims, OP_PLAN_DIMS);
    r->dims_heap = NULL;
    plan_once(def, a, r);
    if (r->st != TX_OK || r->plan.dims_count <= OP_PLAN_DIMS) return;
    /* Outputs with more dims than r->dims holds: again, with room for all of them. */
    size_t n = r->plan.dims_count;
    r->dims_heap = malloc(n * sizeof *r->dims_heap);
    if (r->dims_heap == NULL) {
        r->st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
        snprintf(r->msg, sizeof r->msg, "%s", op_error());
        return;
    }
    r->plan.dims = r->dims_heap;
    r->plan.dims_capacity = n;
    plan_once(def, a, r);
}

void op_plan_result_clear(op_plan_result *r) {
    free(r->dims_heap);
    r->dims_heap = NULL;
}

bool op_plan_agrees(const op_plan_result *r, tx_status st, const op_outputs *o, char *why,
                         size_t cap) {
    why[0] = '\0';
    if (r->leaked) {
        snprintf(why, cap, "plan: an output was made in plan mode");
    } else if (r->st != st) {
        snprintf(why, cap, "plan: status %s (%.300s), the run gives %s", op_status_name(r->st), r->msg,
                 op_status_name(st));
    } else if (st != TX_OK) {
        if (strcmp(r->msg, op_error()) != 0)
            snprintf(why, cap, "plan: message '%.200s', the run gives '%.200s'", r->msg, op_error());
    } else if (r->plan.count != o->n) {
        snprintf(why, cap, "plan: %zu outputs, the run gives %zu", r->plan.count, o->n);
    } else {
        for (size_t i = 0; i < o->n && i < OP_PLAN_CAP && !why[0]; i++) {
            const tx_output_info *p = &r->info[i];
            const tx_tensor *t = o->t[i];
            bool bound = p->flags & TX_OUTPUT_UPPER_BOUND, dims_ok = p->rank == tx_tensor_rank(t);
            for (size_t d = 0; dims_ok && d < p->rank; d++)
                dims_ok = bound ? p->dims[d] >= tx_tensor_dims(t)[d] : p->dims[d] == tx_tensor_dims(t)[d];
            bool ok = p->dtype == tx_tensor_dtype(t) && dims_ok &&
                      (bound ? p->numel >= tx_tensor_numel(t) && p->nbytes >= tx_tensor_nbytes(t)
                             : p->numel == tx_tensor_numel(t) && p->nbytes == tx_tensor_nbytes(t));
            if (!ok)
                snprintf(why, cap, "plan: output %zu is %s rank %zu, %zu bytes; the run gives %s rank %zu, %zu bytes",
                         i, tx_dtype_name(p->dtype), p->rank, p->nbytes, tx_dtype_name(tx_tensor_dtype(t)),
                         tx_tensor_rank(t), tx_tensor_nbytes(t));
        }
    }
    return why[0] == '\0';
}

tx_status arg_oob(const char *op, const op_args *a, tx_oob_policy *oob) {
    const char *t = arg_str(a, "oob");
    if (!strcasecmp(t, "error")) *oob = TX_OOB_ERROR;
    else if (!strcasecmp(t, "zero")) *oob = TX_OOB_ZERO;
    else if (!strcasecmp(t, "clamp")) *oob = TX_OOB_CLAMP;
    else if (!strcasecmp(t, "wrap")) *oob = TX_OOB_WRAP;
    else
        return op_fail(TX_INVALID_ARGUMENT, "%s: oob '%s' is not one of error, zero, clamp, wrap",
                       op, t);
    return TX_OK;
}
