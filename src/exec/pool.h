/* SPDX-License-Identifier: Apache-2.0 */
/* pool.h -- the library's thread pool and tx__parallel_for, which every op uses for the parts of
 * its work above a size threshold (copies, casts, transposes, gathers ...).  Work is split
 * statically: the range [0, n) is cut into at most one piece per thread, each piece a whole number
 * of grains (the last one also takes the partial grain at the end), so an op whose pieces compute disjoint outputs gives the same bits
 * for any thread count. */
#ifndef TX_EXEC_POOL_H
#define TX_EXEC_POOL_H

#include <stdint.h>

#include "core/internal.h"

/* Computes the part [begin, end) of a range; called once per piece, from any thread. */
typedef void (*tx__range_fn)(void *ctx, int64_t begin, int64_t end);

/* The threads a split may use now: the runner's of the tx_op_run in progress on this thread, or
 * tx_num_threads(). */
TX_HIDDEN int tx__run_threads(void);

/* Runs fn over [0, n) in pieces of at least `grain` indices (grain < 1 counts as 1): one piece per
 * thread, at most tx_num_threads() pieces, and a single call fn(ctx, 0, n) when n < 2 * grain, when
 * one thread is configured, when the pool is busy with another caller's work (or this is a nested
 * call from inside a piece), when the workers cannot be created, or when the split policy
 * (below) predicts that one thread is faster.  Returns when every piece is done; the pieces'
 * writes are then visible to the caller.  n <= 0 does nothing.  Callers size `grain` to about
 * TX_GRAIN_BYTES of work: the policy's costs are per grain. */
TX_HIDDEN void tx__parallel_for(int64_t n, int64_t grain, tx__range_fn fn, void *ctx);

/* tx__parallel_for for a range whose grains are not about TX_GRAIN_BYTES of work each: work_bytes
 * is what the whole range moves, which the split policy's costs are measured against. */
TX_HIDDEN void tx__parallel_for_work(int64_t n, int64_t grain, uint64_t work_bytes,
                                     tx__range_fn fn, void *ctx);

/* When a range of two grains or more is split: MEASURED (the default) when the costs measured
 * at that call site and size predict a gain (pool.c); ALWAYS whenever the thread count allows
 * (TENSORX_THREAD_POLICY=split; the tests use it so that split paths run on any machine). */
typedef enum tx__split_policy { TX__SPLIT_MEASURED = 1, TX__SPLIT_ALWAYS = 2 } tx__split_policy;
TX_HIDDEN void tx__set_split_policy(tx__split_policy p);

/* While held, workers that see a new job wait before they claim a piece: the caller runs every
 * piece itself (as it does those of workers that are late for any reason).  For the tests. */
TX_HIDDEN void tx__pool_hold_workers(bool hold);

/* The pieces tx__parallel_for uses for n indices, grain and `threads` threads: returns the number
 * of pieces k and writes piece i's start to starts[i] for i <= k (starts[k] = n).  starts must have
 * room for TX_MAX_THREADS + 1 entries.  Exposed for the tests. */
TX_HIDDEN int tx__parallel_split(int64_t n, int64_t grain, int threads, int64_t *starts);

#endif
