/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/plan.h -- size before run.  One part of the public header: include <tensorx.h>, which
 * includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/plan.h"
#endif
#ifndef TENSORX_PLAN_H
#define TENSORX_PLAN_H

/* ------------------------------------------------------------------------------------------------
 * Size before run
 *
 * Any op call can be sized without running it: between tx_plan_enter() and tx_plan_leave() the
 * calling thread is in plan mode, where an op validates its arguments exactly as it does when it
 * runs (same checks, same order, same status and message) and then, instead of allocating its
 * outputs, records each output's dtype, shape and byte size (overflow-checked) in the plan and
 * returns.  Plan mode allocates nothing, writes no *out (they stay NULL) and reads only what
 * validation reads (shapes, and the values of index-like inputs that decide errors or shapes).
 * The op uses the same code path in both modes, so a plan can never disagree with a run.
 *
 *     tx_output_info info[4];
 *     int64_t dims[16];
 *     tx_plan plan = TX_PLAN_INIT(info, 4, dims, 16);
 *     tx_status st = TX_PLAN(&plan, tx_tile(x, multiples, &y));   // y stays NULL
 *     // st: TX_OK and plan.count outputs (info[0].dims points into dims), or the error
 *     // tx_tile would return (message included)
 *
 * Output shapes that depend on input values: boolean_mask, dynamic_stitch, sequence_mask without
 * maxlen, decode_raw without fixed_length, string_tensor_pack's bytes and string_tensor_unpack's
 * symbols are exact (the values are read, as the op reads them) and flagged
 * TX_OUTPUT_DATA_DEPENDENT; unique_with_counts (y, count) and dynamic_partition record upper bounds
 * (the input's length), flagged TX_OUTPUT_UPPER_BOUND.  See docs/sizes.md.
 * --------------------------------------------------------------------------------------------- */
/* The bits of tx_output_info.flags: TX_OUTPUT_VIEW, TX_OUTPUT_DATA_DEPENDENT and
 * TX_OUTPUT_UPPER_BOUND, each described beside it. */
#define TX_OUTPUT_VIEW 1u           /* a view of an input's buffer: needs no new data bytes */
#define TX_OUTPUT_DATA_DEPENDENT 2u /* the shape was computed from input values, not only shapes */
#define TX_OUTPUT_UPPER_BOUND 4u    /* dims, numel and nbytes are upper bounds of the real ones */

/* One output of a planned call (see "Structs the library fills" at the top). */
typedef struct tx_output_info {
    size_t struct_size;  /* set by the library to the plan's output_size */
    tx_dtype dtype;      /* the output's dtype */
    size_t rank;         /* the output's rank */
    const int64_t *dims; /* the output's rank dims, in the plan's dims storage; NULL when rank is
                          * 0 or they did not fit (plan->dims_count > plan->dims_capacity) */
    int64_t numel;       /* the output's element count */
    size_t nbytes;       /* numel * dtype size: tx_tensor_nbytes() of the output (16 per string) */
    size_t string_bytes; /* new storage for string bytes besides nbytes (0 when the output's
                          * strings share the inputs' storage, as data-movement ops do) */
    unsigned flags;      /* TX_OUTPUT_* */
} tx_output_info;

/* The caller's record of one op call: `outputs` holds `capacity` entries of output_size bytes
 * each; the op sets `count` to its number of outputs and fills the first min(count, capacity)
 * entries.  The outputs' dims go one after another into `dims`, which holds `dims_capacity`
 * entries; the op sets `dims_count` to the sum of all its outputs' ranks.  Both counts are the
 * full ones even past the room given (a split into more parts than capacity, or outputs with
 * more dims than dims_capacity), so the caller can retry with more room; the storage is the
 * caller's, so plans on different threads share nothing.  Initialise it with TX_PLAN_INIT. */
typedef struct tx_plan {
    size_t struct_size;      /* sizeof(tx_plan) */
    size_t output_size;      /* sizeof(tx_output_info): the size of each entry of outputs */
    tx_output_info *outputs; /* capacity entries, or NULL with capacity 0 (count only) */
    size_t capacity;         /* the number of entries outputs has room for */
    size_t count;            /* set by the library */
    int64_t *dims;           /* dims_capacity entries for the outputs' dims, or NULL with 0 */
    size_t dims_capacity;    /* the number of entries dims has room for */
    size_t dims_count;       /* set by the library: the dims all outputs have */
} tx_plan;
/* An initialiser for a tx_plan recording into outputs[0..capacity) and dims[0..dims_capacity):
 * tx_plan p = TX_PLAN_INIT(info, 4, dims, 16); sets struct_size and output_size to this
 * header's sizes, count and dims_count to 0.  Since 0.3. */
#define TX_PLAN_INIT(outputs, capacity, dims, dims_capacity)                      \
    { sizeof(tx_plan), sizeof(tx_output_info), (outputs), (capacity), 0, (dims), \
      (dims_capacity), 0 }

/* Puts the calling thread in plan mode for the next op call, recording into `plan` (count and
 * dims_count are reset to 0).  Plan mode does not nest; NULL leaves plan mode.  The allocator is
 * never called in plan mode. */
TX_API void tx_plan_enter(tx_plan *plan);
/* Leaves plan mode and turns op_result, the status of the op call made in plan mode, into the
 * plan's: TX_OK when the op's arguments are
 * valid (plan->count outputs recorded, possibly 0), else the op's own error status, with its
 * message in tx_last_error() and plan->count and dims_count 0.  A plan whose struct_size or
 * output_size this library does not know (not made with TX_PLAN_INIT) gives invalid_argument
 * ("plan: plan->struct_size is 0 ...") whatever the op did; the library wrote nothing into it,
 * and the op still ran in plan mode (nothing allocated).  Errors that only running can meet
 * (allocation failure, or a limit met by an upper-bound output's real size) are not predicted.
 * A NULL plan returns op_result unchanged.
 * Errors: the op's own; invalid_argument for an unknown struct_size or output_size. */
TX_API tx_status tx_plan_leave(tx_plan *plan, tx_status op_result);
/* Sizes one op call: TX_PLAN(&plan, tx_tile(x, m, &y)) runs the validation of the call in plan
 * mode and evaluates to tx_plan_leave's status.  The call's outputs stay NULL. */
#define TX_PLAN(plan, call) (tx_plan_enter(plan), tx_plan_leave((plan), (call)))

#endif /* TENSORX_PLAN_H */
