/* SPDX-License-Identifier: Apache-2.0 */
/* safetensors_internal.h -- what the safetensors reader (safetensors.c) and writer
 * (safetensors_save.c) share: the format's dtype names and limits. */
#ifndef TX_IO_SAFETENSORS_INTERNAL_H
#define TX_IO_SAFETENSORS_INTERNAL_H

#include "core/internal.h"

/* The format's largest header, in bytes (the safetensors crate's MAX_HEADER_SIZE). */
#define TX__SAFETENSORS_MAX_HEADER 100000000u

/* A safetensors dtype: its name in the header, the tensorx dtype, its bits per element and its
 * place in the crate's Dtype enum (the writer orders tensors by it, largest first). */
typedef struct {
    const char *name;
    tx_dtype dtype;
    unsigned bits;
    unsigned order;
} tx__st_dtype;

/* The entry for a header name (len bytes at s), or NULL. */
TX_HIDDEN const tx__st_dtype *tx__st_dtype_by_name(const char *s, size_t len);
/* The entry for a tensorx dtype, or NULL when safetensors has none. */
TX_HIDDEN const tx__st_dtype *tx__st_dtype_of(tx_dtype dtype);

#endif
