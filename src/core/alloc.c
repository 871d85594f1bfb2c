/* SPDX-License-Identifier: Apache-2.0 */
/* alloc.c -- the replaceable allocator, the default allocator and its cache of large blocks, and
 * the tensor byte-size limit.  Every allocation of the library goes through tx__alloc, so a test
 * allocator can fail the k-th one.
 *
 * Why a cache: writing into freshly mapped memory costs a page fault per 4 KiB page (measured
 * 3-4 GB/s against 20+ GB/s into memory already touched), so for large outputs the allocation
 * decided the speed of the op.  The default allocator therefore
 *  - rounds a large request (>= TX_ALLOC_LARGE_MIN) up to a size class (8 classes per power of
 *    two, so at most 12.5% more address space, which is never touched and so never resident),
 *  - asks the OS for transparent huge pages on it (madvise(MADV_HUGEPAGE); the kernel's default
 *    policy on Debian is "madvise", i.e. only regions that ask get them), and
 *  - keeps freed large blocks in a bounded cache, keyed by size class, from which a later request
 *    of the same class is served with memory that is already mapped and faulted in.
 * The cache holds at most tx_alloc_cache_bytes() bytes and CACHE_SLOTS blocks (oldest evicted
 * first), is guarded by a mutex, and is emptied by tx_shutdown().  Every large block is plain
 * posix_memalign memory, and under AddressSanitizer the
 * cached blocks and the slack after each request are poisoned, so a use after free is still
 * reported.  Custom allocators (tx_set_allocator) never see the cache. */
#define _DEFAULT_SOURCE 1 /* madvise, MADV_HUGEPAGE */
#include "core/internal.h"
#include "core/tuning.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>


#if defined(__SANITIZE_ADDRESS__)
#define TX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TX_ASAN 1
#endif
#endif
#ifdef TX_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define HUGE_PAGE ((size_t)2 << 20)
#define CACHE_SLOTS 64
#define DEFAULT_CACHE_MAX ((size_t)1 << 30)

/* ---- the default allocator -------------------------------------------------------------------- */

typedef struct cache_entry {
    void *ptr;
    size_t cap;
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry cache[CACHE_SLOTS]; /* oldest first */
static size_t cache_n, cache_bytes;
static size_t cache_max;
static bool cache_max_set;
static uint64_t stat_large, stat_hits;

/* The size class of a large request: size rounded up to a multiple of 1/8 of its power of two
 * (at least a page).  0 if that overflows. */
static size_t size_class(size_t size) {
    int lg = 63 - __builtin_clzll((unsigned long long)size);
    size_t step = lg >= 3 + 12 ? (size_t)1 << (lg - 3) : 4096;
    if (size > SIZE_MAX - (step - 1)) return 0;
    return (size + step - 1) / step * step;
}

/* Under cache_lock. */
static size_t cache_limit(void) {
    if (!cache_max_set) {
        cache_max = DEFAULT_CACHE_MAX;
        long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
        if (pages > 0 && psize > 0) {
            uint64_t phys = (uint64_t)pages * (uint64_t)psize;
            if (phys / 16 < cache_max) cache_max = (size_t)(phys / 16);
        }
        cache_max_set = true;
    }
    return cache_max;
}

/* Under cache_lock: removes the oldest entries until `need` more bytes fit (or everything when
 * need is SIZE_MAX) and moves them into victims[]; returns how many. */
static size_t cache_evict(size_t need, cache_entry *victims) {
    size_t limit = cache_limit(), nv = 0;
    bool slot = need > 0; /* room for one more entry is needed too */
    while (cache_n > 0 && (need == SIZE_MAX || cache_bytes + need > limit ||
                           (slot && cache_n == CACHE_SLOTS))) {
        victims[nv++] = cache[0];
        cache_bytes -= cache[0].cap;
        memmove(cache, cache + 1, (cache_n - 1) * sizeof cache[0]);
        cache_n--;
    }
    return nv;
}

static void release_victims(const cache_entry *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        UNPOISON(v[i].ptr, v[i].cap);
        free(v[i].ptr);
    }
}

/* fork() from a thread while another one holds cache_lock would leave the child's copy locked:
 * the child gets a fresh lock (the cached blocks are its own copies and stay valid). */
static void atfork_child(void) {
    static const pthread_mutex_t init = PTHREAD_MUTEX_INITIALIZER;
    cache_lock = init;
}
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void atfork_register(void) { pthread_atfork(NULL, NULL, atfork_child); }

static void *large_alloc(size_t size, size_t alignment) {
    size_t cap = size_class(size);
    if (cap == 0) return NULL;
    pthread_once(&atfork_once, atfork_register);
    pthread_mutex_lock(&cache_lock);
    stat_large++;
    for (size_t i = cache_n; i-- > 0;) { /* newest first: its pages are likelier in cache */
        if (cache[i].cap != cap) continue;
        void *p = cache[i].ptr;
        cache_bytes -= cap;
        memmove(cache + i, cache + i + 1, (cache_n - i - 1) * sizeof cache[0]);
        cache_n--;
        stat_hits++;
        pthread_mutex_unlock(&cache_lock);
        UNPOISON(p, size);
        return p;
    }
    pthread_mutex_unlock(&cache_lock);
    size_t align = cap >= TX_ALLOC_HUGE_MIN ? HUGE_PAGE : alignment < 4096 ? 4096 : alignment;
    void *p = NULL;
    if (posix_memalign(&p, align, cap) != 0) {
        /* Cached blocks may be what is missing: give them back and try once more. */
        cache_entry victims[CACHE_SLOTS];
        pthread_mutex_lock(&cache_lock);
        size_t nv = cache_evict(SIZE_MAX, victims);
        pthread_mutex_unlock(&cache_lock);
        release_victims(victims, nv);
        if (nv == 0 || posix_memalign(&p, align, cap) != 0) return NULL;
    }
#ifdef MADV_HUGEPAGE
    /* a hint: failure is harmless */
    if (cap >= TX_ALLOC_HUGE_MIN) (void)madvise(p, cap, MADV_HUGEPAGE);
#endif
    POISON((char *)p + size, cap - size);
    return p;
}

static void large_free(void *ptr, size_t size) {
    size_t cap = size_class(size);
    cache_entry victims[CACHE_SLOTS] = {{0}}; /* only [0, nv) is read; gcc -O1 cannot tell */
    size_t nv = 0;
    bool kept = false;
    POISON(ptr, cap); /* before it is shared: another thread may take it as soon as it is in */
    pthread_mutex_lock(&cache_lock);
    if (cap <= cache_limit()) {
        nv = cache_evict(cap, victims);
        cache[cache_n].ptr = ptr;
        cache[cache_n].cap = cap;
        cache_n++;
        cache_bytes += cap;
        kept = true;
    }
    pthread_mutex_unlock(&cache_lock);
    release_victims(victims, nv);
    if (!kept) {
        UNPOISON(ptr, cap);
        free(ptr);
    }
}

/* A small block is malloc memory with its start moved up to the alignment; the distance from
 * malloc's pointer is kept in the size_t just before the block.  glibc's posix_memalign splits a
 * chunk on every call and cost more than the rest of a 16-element op together; malloc with
 * `alignment` bytes of slack does not. */
static void *small_alloc(size_t size, size_t alignment) {
    if (alignment < _Alignof(max_align_t)) alignment = _Alignof(max_align_t);
    size_t offset;
    char *raw = malloc(size + alignment + sizeof offset); /* size < TX_ALLOC_LARGE_MIN */
    if (raw == NULL) return NULL;
    uintptr_t at = ((uintptr_t)raw + sizeof offset + alignment - 1) & ~(uintptr_t)(alignment - 1);
    char *p = (char *)at;
    offset = (size_t)(p - raw);
    memcpy(p - sizeof offset, &offset, sizeof offset);
    return p;
}

static void small_free(void *ptr) {
    size_t offset;
    memcpy(&offset, (char *)ptr - sizeof offset, sizeof offset);
    free((char *)ptr - offset);
}

static void *default_alloc(size_t size, size_t alignment, void *ctx) {
    (void)ctx;
    if (size >= TX_ALLOC_LARGE_MIN) return large_alloc(size, alignment);
    return small_alloc(size, alignment);
}

static void default_free(void *ptr, size_t size, void *ctx) {
    (void)ctx;
    if (ptr == NULL) return;
    if (size >= TX_ALLOC_LARGE_MIN)
        large_free(ptr, size);
    else
        small_free(ptr);
}

bool tx__page_resident(const void *p) {
    static long page;
    if (page == 0) page = sysconf(_SC_PAGESIZE);
    if (page <= 0) return true;
    unsigned char in = 1;
    void *start = (void *)((uintptr_t)p & ~(uintptr_t)(page - 1));
    return mincore(start, 1, &in) != 0 || (in & 1) != 0;
}

static const tx_allocator default_allocator = {default_alloc, default_free, NULL};
static tx_allocator current = {default_alloc, default_free, NULL};

const tx_allocator *tx_default_allocator(void) { return &default_allocator; }

void tx_set_alloc_cache_bytes(size_t max_bytes) {
    cache_entry victims[CACHE_SLOTS];
    pthread_mutex_lock(&cache_lock);
    cache_max = max_bytes;
    cache_max_set = true;
    size_t nv = cache_evict(0, victims);
    pthread_mutex_unlock(&cache_lock);
    release_victims(victims, nv);
}

size_t tx_alloc_cache_bytes(void) {
    pthread_mutex_lock(&cache_lock);
    size_t v = cache_limit();
    pthread_mutex_unlock(&cache_lock);
    return v;
}

/* Sizes of the released layouts of tx_alloc_stats (see tx__check_struct_size). */
static const size_t alloc_stats_sizes[] = {sizeof(tx_alloc_stats)};

tx_status tx_alloc_stats_get(tx_alloc_stats *stats) {
    TX_REQUIRE(stats != NULL, TX_INVALID_ARGUMENT, "alloc_stats: stats is NULL");
    const size_t n_sizes = sizeof alloc_stats_sizes / sizeof alloc_stats_sizes[0];
    TX_TRY(tx__check_struct_size("alloc_stats", "stats->struct_size", stats->struct_size,
                                 alloc_stats_sizes, n_sizes, "tx_alloc_stats", "TX_ALLOC_STATS_INIT"));
    tx_alloc_stats full = {sizeof full, 0, 0, 0, 0};
    pthread_mutex_lock(&cache_lock);
    full.cached_bytes = cache_bytes;
    full.cached_blocks = cache_n;
    full.large_allocs = stat_large;
    full.cache_hits = stat_hits;
    pthread_mutex_unlock(&cache_lock);
    tx__fill_struct(stats, stats->struct_size, &full);
    return TX_OK;
}

void tx__alloc_cache_release_all(void) {
    cache_entry victims[CACHE_SLOTS];
    pthread_mutex_lock(&cache_lock);
    size_t nv = cache_evict(SIZE_MAX, victims);
    pthread_mutex_unlock(&cache_lock);
    release_victims(victims, nv);
}

/* ---- the current allocator and the limit ------------------------------------------------------- */

/* The default is also the ceiling: no object can be larger than PTRDIFF_MAX, and keeping every
 * tensor's byte size within it keeps byte counts in int64 and a buffer's header plus its data
 * within size_t. */
#define DEFAULT_MAX_BYTES (SIZE_MAX / 2)
static size_t max_tensor_bytes = DEFAULT_MAX_BYTES;

void tx_set_allocator(const tx_allocator *allocator) {
    if (allocator == NULL || allocator->alloc == NULL || allocator->free == NULL)
        current = default_allocator;
    else
        current = *allocator;
}

void tx_set_max_tensor_bytes(size_t max_bytes) {
    max_tensor_bytes = max_bytes && max_bytes < DEFAULT_MAX_BYTES ? max_bytes : DEFAULT_MAX_BYTES;
}
size_t tx_max_tensor_bytes(void) { return max_tensor_bytes; }

/* Size 0 is asked for as 1 byte so that every buffer has a distinct, non-NULL address. */
static void *alloc_aligned(size_t size, size_t alignment, const char *what) {
    /* Plan mode never allocates: an op that reaches this while sizing is a tensorx bug, refused
     * here rather than allowed to touch the allocator. */
    if (TX_UNLIKELY(tx__planning())) {
        tx__fail(TX_INTERNAL, "%s: allocation of %zu bytes while sizing (a tensorx bug)", what, size);
        return NULL;
    }
    if (size == 0) size = 1;
    void *p = current.alloc(size, alignment, current.ctx);
    if (p == NULL) tx__fail(TX_RESOURCE_EXHAUSTED, "%s: out of memory allocating %zu bytes", what, size);
    return p;
}

void *tx__alloc(size_t size, const char *what) { return alloc_aligned(size, TX_ALIGNMENT, what); }

void *tx__alloc_header(size_t size, const char *what) {
    return alloc_aligned(size, _Alignof(max_align_t), what);
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
