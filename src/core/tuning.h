/* SPDX-License-Identifier: Apache-2.0 */
/* tuning.h -- the size thresholds every layer shares, each with the measurement behind it
 * (docs/performance.md has the runs).  A constant that only one loop uses stays beside that loop;
 * one that several ops must agree on lives here. */
#ifndef TX_CORE_TUNING_H
#define TX_CORE_TUNING_H

#include <stdint.h>

/* Work moving fewer bytes stays on the calling thread: waking a worker costs tens of
 * microseconds, the time of a copy of about a megabyte. */
#define TX_PARALLEL_MIN_BYTES ((int64_t)1 << 20)

/* The smallest piece a thread takes: 256 KiB keeps a piece's start-up cost under 2% of its copy
 * time while leaving a 1 MiB job four pieces. */
#define TX_GRAIN_BYTES ((int64_t)256 << 10)

/* Outputs of this many bytes and more are written with streaming (non-temporal) stores where a
 * kernel can: the destination cannot stay in the caches (a few MiB per core here), and skipping
 * the read of each destination line measured 1.3-1.6x faster than memcpy for 2-32 MiB copies
 * and equal at 256 MiB, where glibc switches to streaming stores itself. */
#define TX_STREAM_MIN_BYTES ((int64_t)8 << 20)

/* In a streaming copy, contiguous blocks and reversed runs of at least this many bytes go to the
 * streaming kernels (reverse of 8192x8192 float32 measured 1.5x faster with them); shorter ones
 * gain nothing from them. */
#define TX_STREAM_MIN_RUN 1024

/* Forward strided runs stream from one cache line up: space_to_depth's 512-byte and
 * depth_to_space's 128-byte runs ran at 4x memcpy's time with ordinary stores (1 KiB threshold)
 * and 1.5-2x faster with this one. */
#define TX_STREAM_MIN_WIDTH 64

#endif
