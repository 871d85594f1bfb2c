/* alloc.c -- the replaceable allocator and the tensor byte-size limit.  Every allocation of the
 * library goes through tx__alloc, so a test allocator can fail the k-th one. */
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>

static void *default_alloc(size_t size, size_t alignment, void *ctx) {
    (void)ctx;
    void *p = NULL;
    if (posix_memalign(&p, alignment < sizeof(void *) ? sizeof(void *) : alignment, size) != 0)
        return NULL;
    return p;
}

static void default_free(void *ptr, size_t size, void *ctx) {
    (void)size;
    (void)ctx;
    free(ptr);
}

static const tx_allocator default_allocator = {default_alloc, default_free, NULL};
static tx_allocator current = {default_alloc, default_free, NULL};

#define DEFAULT_MAX_BYTES (SIZE_MAX / 2)
static size_t max_tensor_bytes = DEFAULT_MAX_BYTES;

void tx_set_allocator(const tx_allocator *allocator) {
    if (allocator == NULL || allocator->alloc == NULL || allocator->free == NULL)
        current = default_allocator;
    else
        current = *allocator;
}

void tx_set_max_tensor_bytes(size_t max_bytes) {
    max_tensor_bytes = max_bytes ? max_bytes : DEFAULT_MAX_BYTES;
}
size_t tx_max_tensor_bytes(void) { return max_tensor_bytes; }

/* Size 0 is asked for as 1 byte so that every buffer has a distinct, non-NULL address. */
void *tx__alloc(size_t size, const char *what) {
    if (size == 0) size = 1;
    void *p = current.alloc(size, TX_ALIGNMENT, current.ctx);
    if (p == NULL) tx__fail(TX_RESOURCE_EXHAUSTED, "%s: out of memory allocating %zu bytes", what, size);
    return p;
}

void tx__free(void *ptr, size_t size) {
    if (ptr != NULL) current.free(ptr, size ? size : 1, current.ctx);
}

void *tx__calloc_array(size_t n, size_t elem, const char *what) {
    size_t bytes;
    if (__builtin_mul_overflow(n, elem, &bytes)) {
        tx__fail(TX_RESOURCE_EXHAUSTED, "%s: %zu x %zu bytes overflow size_t", what, n, elem);
        return NULL;
    }
    void *p = tx__alloc(bytes, what);
    if (p) memset(p, 0, bytes);
    return p;
}

void tx_buffer_free(void *data, size_t size) { tx__free(data, size); }
