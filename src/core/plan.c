/* SPDX-License-Identifier: Apache-2.0 */
/* plan.c -- plan mode, the size-before-run state of a thread (TX_PLAN in tensorx.h): whether the
 * thread is sizing, and the plan that the output constructors (tensor.c) record into.  The
 * allocator (alloc.c) reads the same state to refuse allocations while sizing. */
#include "core/internal.h"

/* Read on every allocation. */
_Thread_local tx_plan *tx__plan_active;
/* The active plan's struct sizes are unknown: the op runs in plan mode, nothing is written into
 * the plan, and tx_plan_leave reports the size. */
static _Thread_local bool plan_unusable;
/* The op that recorded the plan's first output (for prepare's messages). */
_Thread_local const char *tx__plan_op;

/* Sizes of the released layouts of tx_plan and tx_output_info (see tx__check_struct_size). */
static const size_t plan_sizes[] = {sizeof(tx_plan)};
static const size_t output_info_sizes[] = {sizeof(tx_output_info)};

static tx_status check_plan(const tx_plan *plan) {
    TX_TRY(tx__check_struct_size("plan", "plan->struct_size", plan->struct_size, plan_sizes,
                                 sizeof plan_sizes / sizeof plan_sizes[0], "tx_plan",
                                 "TX_PLAN_INIT"));
    return tx__check_struct_size("plan", "plan->output_size", plan->output_size, output_info_sizes,
                                 sizeof output_info_sizes / sizeof output_info_sizes[0],
                                 "tx_output_info", "TX_PLAN_INIT");
}

void tx_plan_enter(tx_plan *plan) {
    /* A plan of unknown layout still puts the thread in plan mode, so that the op that follows
     * in TX_PLAN only validates instead of running; none of its fields is touched. */
    plan_unusable = plan != NULL && check_plan(plan) != TX_OK;
    if (plan && !plan_unusable) {
        plan->count = 0;
        plan->dims_count = 0;
    }
    tx__plan_active = plan;
    tx__plan_op = NULL;
}

tx_status tx_plan_leave(tx_plan *plan, tx_status op_result) {
    tx__plan_active = NULL;
    plan_unusable = false;
    if (plan == NULL) return op_result;
    TX_TRY(check_plan(plan));
    if (op_result == TX__PLANNED) return TX_OK;
    if (op_result != TX_OK) plan->count = plan->dims_count = 0;
    return op_result; /* TX_OK: an op with no outputs (an unpack of an empty axis) */
}

/* Appends one output to the active plan, writing only the members the caller's tx_output_info
 * has (plan->output_size bytes per entry); its dims go to plan->dims at the sum of the ranks
 * before it, when they fit. */
void tx__plan_record(const char *op, tx_dtype dtype, size_t rank, const int64_t *dims,
                     int64_t numel, size_t nbytes, size_t string_bytes, unsigned flags) {
    tx_plan *p = tx__plan_active;
    if (p->count == 0) tx__plan_op = op;
    if (plan_unusable) return;
    size_t at = p->dims_count;
    p->dims_count += rank; /* at most TX_MAX_RANK per output: cannot wrap */
    if (p->count < p->capacity && p->outputs != NULL) {
        tx_output_info o;
        memset(&o, 0, sizeof o);
        o.dtype = dtype;
        o.rank = rank;
        if (rank && p->dims != NULL && p->dims_count <= p->dims_capacity) {
            memcpy(p->dims + at, dims, rank * sizeof *dims);
            o.dims = p->dims + at;
        }
        o.numel = numel;
        o.nbytes = nbytes;
        o.string_bytes = string_bytes;
        o.flags = flags;
        char *entry = (char *)p->outputs + p->count * p->output_size;
        tx_output_info *dst = (tx_output_info *)(void *)entry;
        dst->struct_size = p->output_size;
        tx__fill_struct(dst, p->output_size, &o);
    }
    p->count++;
}
