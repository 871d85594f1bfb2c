/* SPDX-License-Identifier: Apache-2.0 */
/* tuning.c -- the thresholds of core/tuning.h that a test may change at run time. */
#include "core/tuning.h"

int64_t tx__stream_min_bytes = TX_STREAM_MIN_BYTES;
int64_t tx__stream_seq_min_bytes = TX_STREAM_SEQ_MIN_BYTES;
