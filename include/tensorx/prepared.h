/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx/prepared.h -- prepared ops: validate once, run many times.  One part of the public
 * header: include <tensorx.h>, which includes every part in the manual's order, not this file. */
#ifndef TENSORX_H
#error "include <tensorx.h>, not tensorx/prepared.h"
#endif
#ifndef TENSORX_PREPARED_H
#define TENSORX_PREPARED_H

/* ------------------------------------------------------------------------------------------------
 * Prepared ops
 *
 * A runtime that calls the same op on the same shapes many times prepares the call once and then
 * runs it on raw pointers into memory it owns:
 *
 *     tx_op *op = NULL;
 *     tx_status st = TX_PREPARE(&op, NULL, tx_transpose(x, perm, 0, &y));  // y stays NULL
 *     for (...) st = tx_op_run(op, inputs, outputs, NULL);  // const void *inputs[1] = {x_data}
 *     tx_op_free(op);
 *
 * Preparing is the op call itself, made in prepare mode: the op checks its arguments exactly as
 * the call does (same checks, same status and message), computes its outputs' shapes, chooses its
 * kernels and its thread split, stores all of it in the tx_op and returns without running.  Its
 * tensor arguments are of two kinds.  Attributes (transpose's perm, slice's begin and size, pad's
 * paddings, cast's dtype, ...) are read now and fixed in the tx_op.  Data inputs are only looked
 * at for dtype and shape: the data of the tensors given at prepare time are never read or written
 * (tx_tensor_wrap over the runtime's arena will do); each run reads its data from the pointers it
 * is given.  Each op's documentation names its data inputs ("Prepared: ..."); runs take them in
 * that order, and tx_op_input() describes them.  A new shape is a new TX_PREPARE.
 *
 * A run does no allocation, no validation of shapes and no system call: tx_op_run checks only
 * that the pointers it needs are non-NULL, then runs the same kernels with the same split as the
 * call (one code path: an op call is its prepare step, an allocation and its run step), so the
 * results are bit-identical to the call's.  Runs read the inputs and write only the outputs, so
 * one tx_op may run on many threads at once.  Ops whose output shapes depend on input values
 * (boolean_mask, unique_with_counts, sequence_mask without maxlen, ...), string tensors and the
 * limits docs/prepared.md lists return unimplemented from TX_PREPARE, naming the op.
 *
 * Threads.  A run splits its work as the call does, over tensorx's pool by default.  A runtime
 * with its own threads passes a tx_runner instead: the pieces are then handed to its parallel_for
 * and tensorx's pool is not used.  The split (which elements each piece computes) is the same
 * static split for a given thread count, and every piece writes disjoint outputs, so results are
 * the same bits for any runner and any number of threads.
 * --------------------------------------------------------------------------------------------- */

/* A prepared op call (opaque): made by TX_PREPARE, released by tx_op_free.  Immutable once made,
 * so it may be run from several threads at once. */
typedef struct tx_op tx_op;

/* The most outputs a prepared op makes; a call with more (split or unstack into many parts)
 * returns unimplemented from TX_PREPARE.  Since 0.3. */
#define TX_OP_MAX_OUTPUTS 16

/* How outputs are laid out, for TX_PREPARE; NULL there means every output row-major contiguous.
 * output_strides[i] (for i < output_count) is NULL for a row-major contiguous output i, or points
 * to rank byte strides, one per dim of output i: a run then writes element (i0, i1, ...) of that
 * output at its pointer + i0 * strides[0] + i1 * strides[1] + ..., so an output can be a window of
 * a larger buffer (the part of a concat result that it fills, a row range of a batch).  Strides
 * are >= 0 and no two elements may share a byte (checked at prepare time); ops whose prepared
 * form writes only contiguous outputs refuse them (unimplemented).  Initialise with
 * TX_PREPARE_OPTIONS_INIT. */
typedef struct tx_prepare_options {
    size_t struct_size;                   /* sizeof(tx_prepare_options) */
    size_t output_count;                  /* the entries of output_strides */
    const int64_t *const *output_strides; /* per output: NULL or rank byte strides */
} tx_prepare_options;
/* An initialiser for `count` outputs whose strides are `strides` (an array of count pointers):
 * tx_prepare_options o = TX_PREPARE_OPTIONS_INIT(2, strides);  Since 0.3. */
#define TX_PREPARE_OPTIONS_INIT(count, strides) \
    { sizeof(tx_prepare_options), (count), (strides) }

/* Puts the calling thread in prepare mode for the next op call, which is recorded into a new
 * tx_op; options as above (read until tx_prepare_leave returns).  Prepare mode does not nest
 * and is also plan mode (see "Size before run"): the op's *out stay NULL.  Use TX_PREPARE. */
TX_API void tx_prepare_enter(const tx_prepare_options *options);
/* Leaves prepare mode and turns op_result, the status of the op call made in it, into the
 * prepare's status: TX_OK with *op the new prepared op, or the op's own error (message in
 * tx_last_error()) with *op NULL.  *op is written in both cases and never read.
 * Errors: the op's own; unimplemented (an op with no prepared form, string tensors, a shape
 * that depends on input values, more than TX_OP_MAX_OUTPUTS outputs, output strides for an op
 * that writes contiguous outputs only); invalid_argument (op NULL, options of an unknown
 * struct_size, output strides that are negative, of the wrong count, or overlap);
 * resource_exhausted. */
TX_API tx_status tx_prepare_leave(tx_op **op, tx_status op_result);
/* Prepares one op call: TX_PREPARE(&op, options, tx_slice(x, begin, size, &y)).  Since 0.3. */
#define TX_PREPARE(op, options, call) (tx_prepare_enter(options), tx_prepare_leave((op), (call)))

/* Releases a prepared op; NULL is ignored. */
TX_API void tx_op_free(tx_op *op);

/* tx_task_fn is one piece of a run's work: task(task_ctx, i) computes piece i.
 * tx_parallel_for_fn is the caller's parallel-for: called with the runner's ctx as runner_ctx, it
 * runs task(task_ctx, i) for every i in [0, n), on any threads, and returns when all n calls have
 * returned (their writes visible to the caller).  tensorx calls it only with 2 <= n <= threads. */
typedef void (*tx_task_fn)(void *task_ctx, size_t i);
typedef void (*tx_parallel_for_fn)(void *runner_ctx, tx_task_fn task, void *task_ctx, size_t n);
/* A runtime's threads, for tx_op_run: up to `threads` pieces of work (1..64) are
 * handed to parallel_for(ctx, ...).  Initialise with TX_RUNNER_INIT. */
typedef struct tx_runner {
    size_t struct_size;              /* sizeof(tx_runner) */
    tx_parallel_for_fn parallel_for; /* required */
    void *ctx;                       /* passed to parallel_for as runner_ctx */
    int threads;                     /* how many pieces at most */
} tx_runner;
/* An initialiser of a runner calling parallel_for with ctx, in up to `threads` pieces:
 * tx_runner r = TX_RUNNER_INIT(my_parallel_for, pool, 8);  Since 0.3. */
#define TX_RUNNER_INIT(parallel_for, ctx, threads) \
    { sizeof(tx_runner), (parallel_for), (ctx), (threads) }

/* Runs a prepared op: inputs[i] points to data input i's elements (row-major, the dtype and shape
 * it was prepared with), outputs[i] to room for output i (its prepared layout).  The memory is the
 * caller's, tensorx keeps no pointer to it after the run, and an output may not overlap an input
 * unless tx_op_in_place allows it.  runner NULL: tensorx's pool (tx_set_num_threads).  No
 * allocation, no system call with a runner (tensorx's own pool wakes its threads through the
 * kernel).  A pointer of an input or output with no elements is not used and may be NULL.
 * Errors: invalid_argument (op, inputs or outputs NULL, a NULL pointer for a tensor with
 * elements, a runner of unknown struct_size, no parallel_for or threads outside
 * 1..64); an op's own data errors (an index out of range) as the call reports
 * them, the outputs then partly written. */
TX_API tx_status tx_op_run(const tx_op *op, const void *const *inputs, void *const *outputs,
                           const tx_runner *runner);

/* tx_op_input_count returns the number of data inputs of op, tx_op_output_count the number of
 * its outputs (0 for a NULL op). */
TX_API size_t tx_op_input_count(const tx_op *op);
TX_API size_t tx_op_output_count(const tx_op *op);
/* tx_op_input describes data input i of op (dtype, rank, dims, numel, nbytes) into *info, and
 * tx_op_output output i (also its flags), as a plan's entries are filled; the caller sets
 * info->struct_size to sizeof(tx_output_info) first.  dims point into the op and live as long as
 * it.  Output nbytes is the row-major size; with output strides the run writes the bytes those
 * strides reach.
 * Errors: invalid_argument (op or info NULL, i out of range, unknown struct_size). */
TX_API tx_status tx_op_input(const tx_op *op, size_t i, tx_output_info *info);
TX_API tx_status tx_op_output(const tx_op *op, size_t i, tx_output_info *info);
/* Returns whether output `out` of op may be exactly input `in`'s memory (the same pointer, the
 * same bytes) in a run: 1 for ops that read each element before writing the one at its place
 * (a cast between types of one size, the view ops' copies), 0 otherwise and for indices out of
 * range.  Any other overlap is never allowed. */
TX_API int tx_op_in_place(const tx_op *op, size_t out, size_t in);

#endif /* TENSORX_PREPARED_H */
