/* SPDX-License-Identifier: Apache-2.0 */
/* dlpack_util.h -- helpers that the interop unit tests share (test_dlpack.c,
 * test_dlpack_versioned.c, test_dlpack_lowbit.c, test_interop.c): DLPack producers (both forms),
 * a temporary file, host-order int16. */
#ifndef TX_DLPACK_UTIL_H
#define TX_DLPACK_UTIL_H

#include "testutil.h"

#if TX_HAVE_DLPACK
#include "tensorx_dlpack.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The int16 whose bytes in memory are first, second (the host reads them in its own order). */
static inline int16_t mem16(unsigned char first, unsigned char second) {
    const unsigned char b[2] = {first, second};
    int16_t v;
    memcpy(&v, b, 2);
    return v;
}

static inline char *temp_file(const void *data, size_t n) {
    static char path[64];
    snprintf(path, sizeof path, "/tmp/tx_dlpack_test_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, n), (ssize_t)n);
    close(fd);
    return path;
}

#if TX_HAVE_DLPACK

/* ---- a test producer: a DLManagedTensor over a malloc'd block, counting deleter calls ---- */

typedef struct {
    DLManagedTensor m;
    int64_t shape[8], strides[8];
    void *block;
    int *deleted;
} producer;

static inline void producer_delete(DLManagedTensor *self) {
    producer *p = self->manager_ctx;
    (*p->deleted)++;
    free(p->block);
    free(p);
}

/* A CPU tensor of `bits`-bit elements with code `code`; data = block + offset; strides may be
 * NULL.  The block holds `block_bytes` bytes filled with 0, 1, 2, ... */
static inline producer *make_producer(uint8_t code, uint8_t bits, int ndim, const int64_t *shape,
                                      const int64_t *strides, size_t block_bytes, size_t offset,
                                      int *deleted) {
    producer *p = calloc(1, sizeof *p);
    assert_non_null(p);
    p->block = malloc(block_bytes ? block_bytes : 1);
    assert_non_null(p->block);
    for (size_t i = 0; i < block_bytes; i++) ((unsigned char *)p->block)[i] = (unsigned char)i;
    p->deleted = deleted;
    for (int d = 0; d < ndim; d++) {
        p->shape[d] = shape[d];
        if (strides) p->strides[d] = strides[d];
    }
    DLTensor *t = &p->m.dl_tensor;
    t->data = p->block;
    t->byte_offset = offset;
    t->device.device_type = kDLCPU;
    t->ndim = ndim;
    t->dtype.code = code;
    t->dtype.bits = bits;
    t->dtype.lanes = 1;
    t->shape = p->shape;
    t->strides = strides ? p->strides : NULL;
    p->m.manager_ctx = p;
    p->m.deleter = producer_delete;
    return p;
}

/* A versioned producer: make_producer's tensor in a DLManagedTensorVersioned with `flags`. */
typedef struct {
    DLManagedTensorVersioned m;
    int64_t shape[8], strides[8];
    void *block;
    int *deleted;
} vproducer;

static inline void vproducer_delete(DLManagedTensorVersioned *self) {
    vproducer *p = self->manager_ctx;
    (*p->deleted)++;
    free(p->block);
    free(p);
}

static inline vproducer *make_vproducer(uint8_t code, uint8_t bits, int ndim, const int64_t *shape,
                                 const int64_t *strides, size_t block_bytes, size_t offset,
                                 uint64_t flags, int *deleted) {
    producer *u = make_producer(code, bits, ndim, shape, strides, block_bytes, offset, deleted);
    vproducer *p = calloc(1, sizeof *p);
    assert_non_null(p);
    memcpy(p->shape, u->shape, sizeof p->shape);
    memcpy(p->strides, u->strides, sizeof p->strides);
    p->block = u->block;
    p->deleted = deleted;
    p->m.version.major = 1;
    p->m.version.minor = 0;
    p->m.flags = flags;
    p->m.dl_tensor = u->m.dl_tensor;
    p->m.dl_tensor.shape = p->shape;
    p->m.dl_tensor.strides = strides ? p->strides : NULL;
    p->m.manager_ctx = p;
    p->m.deleter = vproducer_delete;
    free(u);
    return p;
}

#endif /* TX_HAVE_DLPACK */

#endif
