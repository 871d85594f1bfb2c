/* SPDX-License-Identifier: Apache-2.0 */
/* tuning.h -- the size thresholds of core, exec and ops, each with the measurement or the reason
 * behind it (docs/performance.md has the runs), so that retuning for another machine is one file.
 * Semantic limits (TF's rank limits, file-format limits) stay with the code they belong to. */
#ifndef TX_CORE_TUNING_H
#define TX_CORE_TUNING_H

#include <stdint.h>

#include "core/internal.h"

/* How long a pool thread spins for the next job (and the caller for the workers) before it
 * sleeps: waking a sleeping thread took 50-70 us on the 2-core VM, so without the spin a split
 * 1 MiB cast took 80 us against 14 us on one thread.  100 us covers the gap between
 * back-to-back ops of a loop while bounding the CPU burnt after the last one. */
#define TX_POOL_SPIN_NS 100000u

/* The smallest piece a thread takes.  Whether work of a few grains is split at all is measured
 * (exec/pool.c), so the grain only sets the smallest work that may be tried on two threads:
 * with 256 KiB (two grains, 512 KiB, before a split) the inference-shape ops of 200-600 KiB
 * always ran on one thread; with 64 KiB the pool found splitting them faster on this 2-CPU VM
 * (embedding gather of 128 x 3 KiB rows 8.4 -> 5.5 us, NHWC->NCHW of 1x224x224x3 13.4 -> 8 us,
 * one_hot 128 x 1000 9.7 -> 5.5 us) and kept one thread where it was not.  With 32 KiB (since
 * 2026-12-07, when a split's hand-off fell to about 100 ns) 64 KiB of work may split too:
 * float32 -> float16 of 64 KiB 0.51 -> 0.33 us, depth_to_space 0.80 -> 0.60 us (size sweep). */
#define TX_GRAIN_BYTES ((int64_t)32 << 10)

/* Work of fewer bytes than two grains cannot be split (tx__parallel_for needs two grains), so
 * ops that would otherwise set up a split job run it directly.  Above it, whether to split is
 * measured (exec/pool.c). */
#define TX_PARALLEL_MIN_BYTES (2 * TX_GRAIN_BYTES)

/* Outputs of this many bytes and more are written with streaming (non-temporal) stores where a
 * kernel can: the destination cannot stay in the caches, and skipping the read of each
 * destination line saves a third of the traffic.  At 16 MiB (8 MiB until 2026-11-27) the
 * ordinary stores were faster in the size sweep, whose repeated calls find their output still in
 * this VM's large L3 -- as an op's output is when the next op reads it: concat 801 -> 635 us, pad
 * 828 -> 639 us, strided_slice 418 -> 328 us, level with XNNPACK, which streams nothing; from
 * 64 MiB the two were equal. */
#define TX_STREAM_MIN_BYTES ((int64_t)32 << 20)

/* That threshold is for writes out of order: transposes, runs shorter than
 * TX_STREAM_SEQ_MIN_RUN, one_hot.  Copies that go front to back in long runs -- copies, slices
 * of long rows, concat, pad, decode_raw, casts -- keep ordinary stores until the destination
 * they write into (a cast: the larger of what it reads and writes) reaches 64 MiB.  At 32-48
 * MiB the cache kept up and streaming cost 5-18% (size sweep shapes, 2 threads: strided_slice
 * of [4096, 4096] 1.48 -> 1.25 ms, of [6144, 4096] 2.2 -> 2.0 ms, pad of [2048, 4096] 1.48 ->
 * 1.25 ms, a 32 MiB decode_raw 1.28 -> 1.22 ms, cast uint8 -> float32 of 8M 0.84 -> 0.78 ms),
 * while depth_to_space's 512-byte runs (1.34 -> 1.46 ms without) and transposes (2.0 -> 8.5
 * ms) want streaming from 32 MiB, float32 -> float16 of 16M elements from its 64 MiB read
 * (1.86 -> 2.10 ms without), and a concat into 64 MiB at 64 MiB (2.9 -> 3.2 ms without). */
#define TX_STREAM_SEQ_MIN_BYTES ((int64_t)64 << 20)
#define TX_STREAM_SEQ_MIN_RUN 4096

/* The two thresholds as ops and kernels read them (src/core/tuning.c): the values above,
 * except in the differential fuzzer, which sets both to 0 in one of its configurations so that
 * its small tensors go through the streaming paths too.  Changed only while no op runs. */
TX_HIDDEN extern int64_t tx__stream_min_bytes, tx__stream_seq_min_bytes;

/* In a streaming copy, contiguous blocks and reversed runs of at least this many bytes go to the
 * streaming kernels (reverse of 8192x8192 float32 measured 1.5x faster with them); shorter ones
 * gain nothing from them. */
#define TX_STREAM_MIN_RUN 1024

/* Forward strided runs stream from one cache line up: space_to_depth's 512-byte and
 * depth_to_space's 128-byte runs ran at 4x memcpy's time with ordinary stores (1 KiB threshold)
 * and 1.5-2x faster with this one. */
#define TX_STREAM_MIN_WIDTH 64

/* A constant pad of an output up to this size, whose input rows are at most
 * TX_PAD_FILL_FIRST_ROW bytes, fills the whole output first and then copies the rows in: its
 * per-row border fills cost more (float32 [32, 32] padded by 1 on every side: 400 -> 230 ns,
 * [64, 64] 750 -> 460 ns).  Outputs beyond L1 or long rows pay for writing the interior twice
 * ([128, 128]: 2.3 -> 2.8 us, [16, 1024]: 1.8 -> 2.8 us). */
#define TX_PAD_FILL_FIRST_BYTES ((size_t)32 << 10)
#define TX_PAD_FILL_FIRST_ROW 512

/* ---- the allocator (core/alloc.c) ------------------------------------------------------------ */

/* Requests from this size on are rounded to a size class and kept in the block cache: a reused
 * block is written at 10.4 GB/s against 1.7 GB/s for malloc's fresh, page-faulting memory.  1 MiB
 * until 2026-11-27; below it glibc's malloc maps and unmaps (or trims) blocks of a few hundred
 * KiB call after call, and the inference-shape ops of 200-600 KiB took up to 1.5x their time into
 * existing memory (one_hot 128 x 1000: 9.0 against 6.3 us); from 64 KiB the two agree. */
#define TX_ALLOC_LARGE_MIN ((size_t)64 << 10)

/* Size classes from this size on are 2 MiB aligned and madvised for transparent huge pages:
 * first writes ran at 4.8 GB/s against 1.7 GB/s with 4 KiB page faults. */
#define TX_ALLOC_HUGE_MIN ((size_t)4 << 20)

/* ---- the generic strided copy (exec/copy.c) -------------------------------------------------- */

/* One contiguous block is split over the pool at multiples of this (a 4 KiB page), so no two
 * threads fault in or write the same page. */
#define TX_COPY_BLOCK_UNIT 4096

/* ---- ops ------------------------------------------------------------------------------------ */

/* concat: inputs whose rows average at least this many bytes are copied one by one with the
 * generic strided copy (parallel, streaming stores for large outputs); narrower rows are joined
 * row block by row block, so that each output block is written while it is in cache.  No run
 * compared other values; 1 KiB matches TX_STREAM_MIN_RUN. */
#define TX_CONCAT_WIDE_CHUNK_BYTES 1024

/* tile: blocks of up to this many bytes are replicated by a strided-copy plan (typed moves for
 * 1..16-byte blocks, the widest the copy kernels move as one element); larger ones by doubling
 * memcpys per block.  Set by that widest typed move, not by a timing. */
#define TX_TILE_PLAN_MAX_BLOCK 16

/* tile: repeated runs of at least this many bytes make the whole output one strided copy with
 * stride-0 dims for the multiples (parallel, streaming runs) instead of doubling memcpys that
 * read the output back on one thread: tile_1024x1024_4x4, CPU time on one thread against
 * memcpy's for the same bytes, 2.9 -> 1.25. */
#define TX_TILE_ONE_COPY_MIN_RUN 256

/* saturate_cast: the bytes of the on-stack scratch block a piece is clamped in between its read
 * and its write: 16 KiB stays in L1 between the three passes.  No run compared other values. */
#define TX_SATURATE_BLOCK_BYTES 16384

/* cast_pack: the elements cast into an on-stack tile of codes (one byte each) and packed from
 * it; a multiple of 4, so that every tile starts on a byte of the packed output.  Tiles of 1024
 * to 16384 float32 -> float4_e2m1fn elements ran alike on one thread in cache (0.090-0.091 ns an
 * element: the AVX-512 cast kernel 0.080, the pack 0.009), 256 at 0.102; 4096 keeps the codes
 * and the source they come from (4 + 16 KiB for float32) in L1. */
#define TX_CAST_PACK_TILE 4096
/* cast_pack: each tile is cast in chunks of this many source bytes, each after prefetching the
 * source this far ahead into L2 (the plain cast kernel does not prefetch, and the tile's output
 * stays in cache, so the reading is what waits).  64M float32 -> float4_e2m1fn on one thread:
 * 8.3-8.9 ms without, 7.7-7.8 with 8, 16 or 32 KiB ahead (the cast kernels' streaming loops
 * prefetch 8 KiB ahead too). */
#define TX_CAST_PACK_CHUNK_BYTES 512
#define TX_CAST_PACK_PREFETCH 8192

/* transpose: elements this wide or wider (without a SIMD kernel of their width) move as memcpy
 * runs of the generic strided copy, long enough to run at memcpy's speed; narrower ones go
 * through the tiled width-generic tx__transpose2d_any.  No run compared other values. */
#define TX_TRANSPOSE_ANY_MAX_WIDTH 512

/* transpose: planes of up to this many bytes are cut into column stripes, larger ones into
 * blocks of about a grain (ops/reorder.c).  Stripes keep each thread's part of the source and of
 * the destination in its core's L2 from one call to the next; two threads on float32 planes:
 * 512x512 35 -> 22 us, 768x768 110 -> 76 us; from 1024x1024 (4 MiB) on the two were even. */
#define TX_TRANSPOSE_STRIPES_MAX_BYTES ((int64_t)4 << 20)

/* transpose: destination rows a multiple of this many bytes apart fall into one or two sets of a
 * 64-set L1 (48 KiB, 12 ways here; 32 KiB, 8 ways on older cores), so a block that writes 64 of
 * them at a time evicts its own lines.  Such planes of elements of 2 bytes and more, up to
 * TX_TRANSPOSE_ALIASED_MAX_BYTES, are cut into stripes of TX_TRANSPOSE_ALIASED_COLS source
 * columns (16 destination rows in flight) instead.  Float32 on one thread, stripes of 16 against
 * the 64 before: 512x512 64 -> 26 us, 1024x1024 421 -> 193 us, 8192x128 (blocks of 128x128 before)
 * 621 -> 155 us, 2048x2048 (blocks before) 1.74 -> 1.33 ms; at 4096x4096 the blocks were faster.
 * Single bytes keep the wider cuts: a 16-byte piece of a source line is a quarter of it. */
#define TX_TRANSPOSE_ALIASED_STRIDE 2048
#define TX_TRANSPOSE_ALIASED_COLS 16
#define TX_TRANSPOSE_ALIASED_MAX_BYTES ((int64_t)16 << 20)

/* one_hot whose off value is one repeated byte (0, 0.0, -1 as an integer) and whose new axis
 * holds at least TX_ONE_HOT_FILL_MIN_ROW_BYTES (at most one on value in so many bytes) memsets
 * blocks of TX_ONE_HOT_FILL_BLOCK_BYTES of rows and then stores the on values (ops/encode.c). */
#define TX_ONE_HOT_FILL_MIN_ROW_BYTES 256
#define TX_ONE_HOT_FILL_BLOCK_BYTES ((int64_t)32 << 10)

/* unique_with_counts (ops/unique_numeric.c).  Measured on 16M int32 with 1000 distinct values:
 * the blocked probe with the seed took 38 -> 22 ms on one thread and 22-40 -> 13-17 ms on two;
 * making many-valued inputs single-threaded took 100k distinct 247 -> 110 ms and 16M drawn
 * (10.4M distinct) from 1.4-1.6x the one-thread time on two threads to 657 ms against 715. */

/* Elements per block of the 4-byte probe scan: its ids stay in L1 between the lookup and the
 * counting. */
#define TX_UNIQUE_PROBE_BLOCK 1024

/* Keys looked up one at a time from a key the probe kernel did not find (a new value) on. */
#define TX_UNIQUE_PROBE_SCALAR 32

/* From this many idx bytes in a chunk on, idx is written with streaming stores (it is too large
 * to stay in cache; they save reading each line first). */
#define TX_UNIQUE_PROBE_STREAM_BYTES ((int64_t)1 << 20)

/* Below this many elements one chunk does it all (waking a worker costs more). */
#define TX_UNIQUE_PARALLEL_MIN ((int64_t)1 << 16)

/* A chunk with more values than this makes the scan single-threaded: the merge and the idx
 * rewrite then cost more than the threads save. */
#define TX_UNIQUE_PARALLEL_MAX_VALUES ((int64_t)1 << 16)

/* Values a chunk's table starts with room for (a chunk that needs more grows). */
#define TX_UNIQUE_START_VALUES 1024

/* Elements chunk 0 scans alone before the others start from its values (at most an eighth of its
 * chunk), so idx is not rewritten after the merge unless a chunk meets values of its own. */
#define TX_UNIQUE_SEED ((int64_t)1 << 16)

/* ---- .npy files (io/npy_load.c, io/npy_save.c) ---------------------------------------------- */

/* tx_npy_load maps data of at least this many bytes that can be used in place, and reads smaller
 * ones: one read of a small file costs less than mmap, munmap and the page faults, and a program
 * holding many small loaded tensors does not use up its mappings (vm.max_map_count, 65530 by
 * default).  Set by those costs, not by a timing. */
#define TX_NPY_MAP_MIN_BYTES ((uint64_t)1 << 20)

/* The window through which .npy data are converted on the way in or out (Fortran order, strings,
 * byte swaps on save): the memory a load or save needs beyond the tensor.  A multiple of every
 * item size of a numeric dtype and of 4 ('U' code points). */
#define TX_NPY_WINDOW_BYTES ((size_t)1 << 20)

#endif
