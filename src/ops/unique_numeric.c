/* SPDX-License-Identifier: Apache-2.0 */
/* unique_numeric.c -- tf.unique_with_counts of a numeric tensor, in expected O(n):
 * open-addressing hash tables (linear probing) map each value to its position in y.  Each thread
 * scans its chunk of x with its own table, sized by the values seen (small and sparse while the
 * values are few, so lookups stay in cache and rarely probe twice), counting as it goes; the
 * chunks' value lists are merged in chunk order and the idx of the chunks that met values of their
 * own rewritten (see unique_numeric; with many distinct values one chunk does it all).  Keys of 4
 * bytes go through the dispatched probe kernel of kernels/hash_probe.h a block at a time; 1- and
 * 2-byte integers through a direct-mapped id table.  Float keys follow TF's equality (unique.c's
 * opening comment): -0.0 == 0.0 for float32 and float64 only, and every NaN a value of its own.
 * The op itself is unique.c. */
#include "ops/unique.h"
#include "core/tuning.h"
#include "dispatch/dispatch.h"
#include "exec/pool.h"

#include <inttypes.h>

/* How an element's bits become a key: the width, and for floats the -0.0 rule and the NaN test. */
/* K_BOOL: any non-zero byte is true, as TF reads a bool (a byte that is not 0 or 1 can come from
 * memory tensorx wraps, e.g. a NumPy uint8 array viewed as bool). */
enum key_kind { K_U8, K_BOOL, K_U16, K_U32, K_U64, K_F16, K_BF16, K_F32, K_F64 };

static inline uint64_t load_key(const char *x, int64_t i, int kind) {
    switch (kind) {
    case K_U8: return (uint8_t)x[i];
    case K_BOOL: return x[i] != 0;
    case K_U16: case K_F16: case K_BF16: {
        uint16_t v;
        memcpy(&v, x + 2 * i, 2);
        return v;
    }
    case K_U32: case K_F32: {
        uint32_t v;
        memcpy(&v, x + 4 * i, 4);
        return kind == K_F32 && v == 0x80000000u ? 0 : v; /* -0.0 == 0.0 */
    }
    default: {
        uint64_t v;
        memcpy(&v, x + 8 * i, 8);
        return kind == K_F64 && v == 0x8000000000000000ull ? 0 : v;
    }
    }
}

/* NaN never equals anything, itself included: every NaN element is a value of its own. */
static inline bool key_is_nan(uint64_t k, int kind) {
    switch (kind) {
    case K_F16: return (k & 0x7FFF) > 0x7C00;
    case K_BF16: return (k & 0x7FFF) > 0x7F80;
    case K_F32: return (k & 0x7FFFFFFFu) > 0x7F800000u;
    case K_F64: return (k & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull;
    default: return false;
    }
}

/* A key's home slot in a table of 2^bits slots: multiplicative (Fibonacci) hashing, the table
 * index being the product's top bits, which every key bit reaches.  Keys of up to 4 bytes use the
 * probe kernels' 32-bit rule (kernels/hash_probe.h); wider ones fold their high half in first. */
static inline uint64_t home_slot(uint64_t k, unsigned bits, bool w8) {
    if (w8) return ((k ^ (k >> 32)) * 0x9E3779B97F4A7C15ull) >> (64 - bits);
    return tx__slot32_home((uint32_t)k, bits);
}

/* Table slots: keys of up to 4 bytes in 8-byte slots (tx__slot32: 1000 distinct keys fit L1),
 * wider in 16. */
typedef tx__slot32 slot32;
typedef struct {
    uint64_t key;
    int64_t id;
} slot64;

/* One chunk [pos, end) of x, or (chunk 0 after the merge) the whole result.  Values get local ids
 * in order of first occurrence in the chunk.  The table holds the non-NaN values; vcap bounds the
 * values and the table keeps at least twice that many slots, so the table's load stays <= 1/2 and
 * a chunk that would pass vcap stops (pos tells where) for the caller to grow it. */
typedef struct {
    int64_t pos, end;
    void *tab; /* slot32 or slot64 */
    uint64_t mask;
    unsigned bits; /* the table has 2^bits slots */
    size_t tab_bytes;
    uint64_t *vkey;  /* per value: key */
    int32_t *vfirst; /* per value: position of the first occurrence; after the merge, the global id */
    int32_t *vcount; /* per value: occurrences */
    int64_t used, vcap;
    int64_t seeded; /* values it began with: chunk 0's seed, ids 0 .. seeded - 1 (chunks 1..) */
    size_t vbytes;
    int32_t *dense; /* 1- and 2-byte integer keys: key -> id (-1: not seen), or NULL */
} chunk_t;

/* Integer keys of 1 or 2 bytes go through a direct-mapped id table instead of the hash: one load
 * per element.  256 KiB per chunk, within L2. */
#define DENSE_KEYS ((uint64_t)1 << 16)

static void chunk_free(chunk_t *c) {
    tx__free(c->tab, c->tab_bytes);
    tx__free(c->vkey, c->vbytes);
    tx__free(c->dense, DENSE_KEYS * sizeof *c->dense);
    c->tab = c->vkey = NULL;
    c->dense = NULL;
}

static inline void table_put(void *tab, uint64_t mask, unsigned bits, bool w8, uint64_t k, int64_t id) {
    for (uint64_t s = home_slot(k, bits, w8);; s = (s + 1) & mask) {
        if (w8) {
            slot64 *e = (slot64 *)tab + s;
            if (e->id < 0) {
                e->key = k;
                e->id = id;
                return;
            }
        } else {
            slot32 *e = (slot32 *)tab + s;
            if (e->id < 0) {
                e->key = (uint32_t)k;
                e->id = (int32_t)id;
                return;
            }
        }
    }
}

/* Gives c room for vcap values (>= c->used), rebuilding the table; span is how many elements c
 * looks up (its seed included), which bounds the table's size.  Runs on the calling thread only
 * (a caller's allocator need not be thread-safe). */
static tx_status chunk_grow(const char *op, chunk_t *c, int64_t vcap, int64_t span, int kind) {
    const bool w8 = kind == K_U64 || kind == K_F64;
    const size_t slot = w8 ? sizeof(slot64) : sizeof(slot32);
    /* Load <= 1/2, and far lower while the table is small (up to 1 MiB, within L2): the fewer
     * collisions, the fewer second probe rounds, each a mispredicted branch and more gathers
     * (1000 int32 keys: 1/2 -> 1/32 load is 4x faster, 1/32 -> 1/128 another 10%).  At most a
     * slot per element looked up, so a short x does not pay for clearing a large table. */
    const uint64_t sparse_max = ((uint64_t)1 << 20) / slot;
    uint64_t want = 128 * (uint64_t)vcap < sparse_max ? 128 * (uint64_t)vcap : sparse_max;
    if (want > (uint64_t)span) want = (uint64_t)span;
    uint64_t cap = 16;
    unsigned bits = 4;
    while (cap < want || cap < 2 * (uint64_t)vcap) {
        cap <<= 1;
        bits++;
    }
    size_t tab_bytes, vbytes;
    if (cap > SIZE_MAX / slot || __builtin_mul_overflow((size_t)cap, slot, &tab_bytes) ||
        __builtin_mul_overflow((size_t)(vcap ? vcap : 1), sizeof(uint64_t) + 2 * sizeof(int32_t), &vbytes))
        return tx__fail(TX_RESOURCE_EXHAUSTED, "%s: hash table of %" PRIu64 " slots is too large",
                        op, cap);
    void *tab = tx__alloc(tab_bytes, op);
    uint64_t *vkey = tab ? tx__alloc(vbytes, op) : NULL;
    if (vkey == NULL) {
        tx__free(tab, tab_bytes);
        return TX_RESOURCE_EXHAUSTED;
    }
    memset(tab, 0xFF, tab_bytes); /* id -1: empty */
    int32_t *vfirst = (int32_t *)(vkey + vcap), *vcount = vfirst + vcap;
    if (c->used) {
        memcpy(vkey, c->vkey, (size_t)c->used * sizeof *vkey);
        memcpy(vfirst, c->vfirst, (size_t)c->used * sizeof *vfirst);
        memcpy(vcount, c->vcount, (size_t)c->used * sizeof *vcount);
    }
    for (int64_t j = 0; j < c->used; j++)
        if (!key_is_nan(vkey[j], kind)) table_put(tab, cap - 1, bits, w8, vkey[j], j);
    int32_t *dense = c->dense; /* ids do not change: the direct map stays valid */
    c->dense = NULL;
    chunk_free(c);
    c->dense = dense;
    c->tab = tab;
    c->tab_bytes = tab_bytes;
    c->mask = cap - 1;
    c->bits = bits;
    c->vkey = vkey;
    c->vfirst = vfirst;
    c->vcount = vcount;
    c->vcap = vcap;
    c->vbytes = vbytes;
    return TX_OK;
}

/* The id of key k in c, adding it as a new value first seen at `pos` when it is not there (a NaN
 * always is new); -1 when c is full. */
static inline int64_t chunk_find(chunk_t *c, uint64_t k, int64_t pos, int kind) {
    const bool w8 = kind == K_U64 || kind == K_F64;
    uint64_t s = 0;
    if (!key_is_nan(k, kind)) {
        for (s = home_slot(k, c->bits, w8);; s = (s + 1) & c->mask) {
            if (w8) {
                const slot64 *e = (const slot64 *)c->tab + s;
                if (e->id < 0) break;
                if (e->key == k) return e->id;
            } else {
                const slot32 *e = (const slot32 *)c->tab + s;
                if (e->id < 0) break;
                if (e->key == (uint32_t)k) return e->id;
            }
        }
    }
    if (c->used == c->vcap) return -1;
    const int64_t id = c->used++;
    if (!key_is_nan(k, kind)) {
        if (w8) {
            slot64 *e = (slot64 *)c->tab + s;
            e->key = k;
            e->id = id;
        } else {
            slot32 *e = (slot32 *)c->tab + s;
            e->key = (uint32_t)k;
            e->id = (int32_t)id;
        }
    }
    c->vkey[id] = k;
    c->vfirst[id] = (int32_t)pos;
    c->vcount[id] = 0;
    return id;
}

/* The hot loop, specialised per key kind and index type by the constant arguments: a run of equal
 * elements skips the table, and a value the table has is found without leaving the loop. */
static inline __attribute__((always_inline)) void chunk_scan(chunk_t *c, const char *x, void *idx,
                                                             const int kind, const bool i64) {
    const bool w8 = kind == K_U64 || kind == K_F64;
    uint64_t last_k = 0;
    int64_t last_id = -1;
    const void *tab = c->tab;
    uint64_t mask = c->mask;
    unsigned bits = c->bits;
    int32_t *count = c->vcount;
    int32_t *const dense = (kind == K_U8 || kind == K_BOOL || kind == K_U16) ? c->dense : NULL;
    for (int64_t i = c->pos; i < c->end; i++) {
        const uint64_t k = load_key(x, i, kind);
        int64_t id = last_id;
        if (dense != NULL && k < DENSE_KEYS) {
            id = dense[k];
            if (TX_UNLIKELY(id < 0)) {
                id = chunk_find(c, k, i, kind);
                if (TX_UNLIKELY(id < 0)) {
                    c->pos = i; /* full: the caller grows c and runs the rest */
                    return;
                }
                dense[k] = (int32_t)id;
            }
        } else if (k != last_k || id < 0) {
            id = -1;
            if (!key_is_nan(k, kind)) {
                for (uint64_t s = home_slot(k, bits, w8);; s = (s + 1) & mask) {
                    if (w8) {
                        const slot64 *e = (const slot64 *)tab + s;
                        if (e->key == k && e->id >= 0) id = e->id;
                        if (e->key == k || e->id < 0) break;
                    } else {
                        const slot32 *e = (const slot32 *)tab + s;
                        if (e->key == (uint32_t)k && e->id >= 0) id = e->id;
                        if (e->key == (uint32_t)k || e->id < 0) break;
                    }
                }
                last_k = k;
            }
            if (id < 0) {
                id = chunk_find(c, k, i, kind);
                if (TX_UNLIKELY(id < 0)) {
                    c->pos = i; /* full: the caller grows c and runs the rest */
                    return;
                }
            }
            if (!key_is_nan(k, kind)) last_id = id;
        }
        count[id]++;
        if (i64) ((int64_t *)idx)[i] = id;
        else ((int32_t *)idx)[i] = (int32_t)id;
    }
    c->pos = c->end;
}

/* Counts ids[0, m) and writes them to idx[b, b + m). */
static void put_block(chunk_t *c, const int32_t *ids, int64_t m, void *idx, int64_t b, bool i64,
                      const tx__kernels *kern, bool stream) {
    int32_t *count = c->vcount;
    for (int64_t j = 0; j < m; j++) count[ids[j]]++;
    if (i64) {
        int64_t *out = (int64_t *)idx + b;
        for (int64_t j = 0; j < m; j++) out[j] = ids[j];
    } else if (stream && m * 4 >= 64) {
        kern->copy_runs_stream((char *)((int32_t *)idx + b), (const char *)ids, 1, 0, 0, (size_t)m * 4);
    } else if (m) {
        memcpy((int32_t *)idx + b, ids, (size_t)m * 4);
    }
}

/* The scan of 4-byte keys (int32, uint32, float32): blocks of x go through the probe kernel (the
 * SIMD one looks up 16 keys at once) into ids in L1, then are counted and written out.  A key the
 * table lacks (a new value; a NaN, never in the table) goes through chunk_find. */
static void chunk_scan_probe32(chunk_t *c, const char *x, void *idx, int kind, bool i64,
                               const tx__kernels *kern) {
    int32_t ids[TX_UNIQUE_PROBE_BLOCK] __attribute__((aligned(64)));
    const tx__probe32_fn probe = kern->probe32;
    const bool neg_zero = kind == K_F32;
    const bool stream = (c->end - c->pos) * (i64 ? 8 : 4) >= TX_UNIQUE_PROBE_STREAM_BYTES;
    const uint32_t *xv = (const uint32_t *)(const void *)x;
    while (c->pos < c->end) {
        const int64_t b = c->pos;
        const int64_t m = c->end - b < TX_UNIQUE_PROBE_BLOCK ? c->end - b : TX_UNIQUE_PROBE_BLOCK;
        int64_t j = 0;
        bool full = false;
        while (j < m) {
            j += probe((const slot32 *)c->tab, c->bits, neg_zero, xv + b + j, m - j, ids + j);
            /* A key the table lacks, and the next few keys, go through chunk_find: where new
             * values are common, restarting the kernel at each one would cost more. */
            const int64_t scalar_end =
                m - j < TX_UNIQUE_PROBE_SCALAR ? m : j + TX_UNIQUE_PROBE_SCALAR;
            for (; j < scalar_end; j++) {
                const int64_t id = chunk_find(c, load_key(x, b + j, kind), b + j, kind);
                if (TX_UNLIKELY(id < 0)) {
                    full = true; /* the caller grows c and runs the rest */
                    break;
                }
                ids[j] = (int32_t)id;
            }
            if (full) break;
        }
        put_block(c, ids, j, idx, b, i64, kern, stream);
        c->pos = b + j;
        if (full) return;
    }
}

static void chunk_run(chunk_t *c, const char *x, void *idx, int kind, bool i64,
                      const tx__kernels *kern) {
    if (kind == K_U32 || kind == K_F32) {
        chunk_scan_probe32(c, x, idx, kind, i64, kern);
        return;
    }
#define SCAN_KIND(K)                                                                              \
    case K:                                                                                       \
        if (i64) chunk_scan(c, x, idx, K, true);                                                  \
        else chunk_scan(c, x, idx, K, false);                                                     \
        return;
    switch (kind) {
        SCAN_KIND(K_U8)
        SCAN_KIND(K_BOOL)
        SCAN_KIND(K_U16)
        SCAN_KIND(K_U64)
        SCAN_KIND(K_F16)
        SCAN_KIND(K_BF16)
        SCAN_KIND(K_F64)
    }
#undef SCAN_KIND
}

typedef struct {
    chunk_t *chunks;
    const char *x;
    void *idx;
    int kind;
    bool i64;
    const tx__kernels *kern;
    const int64_t *starts; /* remap pass: chunk boundaries */
    int nchunks;
} scan_job;

static void scan_piece(void *ctx, int64_t begin, int64_t end) {
    const scan_job *j = ctx;
    for (int64_t c = begin; c < end; c++)
        if (j->chunks[c].pos < j->chunks[c].end) chunk_run(&j->chunks[c], j->x, j->idx, j->kind, j->i64, j->kern);
}

/* idx[i] = vfirst[idx[i]] of i's chunk (the merge left the global ids there), for i in [begin,
 * end) offset by the start of chunk 1 (chunk 0's ids are global already). */
static void remap_piece(void *ctx, int64_t begin, int64_t end) {
    const scan_job *j = ctx;
    begin += j->starts[1];
    end += j->starts[1];
    for (int c = 1; c < j->nchunks; c++) {
        const int64_t b = begin > j->starts[c] ? begin : j->starts[c];
        const int64_t e = end < j->starts[c + 1] ? end : j->starts[c + 1];
        const int32_t *map = j->chunks[c].vfirst;
        if (b >= e || map == NULL) continue;
        if (j->i64) {
            int64_t *iv = j->idx;
            for (int64_t i = b; i < e; i++) iv[i] = map[iv[i]];
        } else {
            int32_t *iv = j->idx;
            for (int64_t i = b; i < e; i++) iv[i] = map[iv[i]];
        }
    }
}

static int key_kind_of(tx_dtype t) {
    switch (t) {
    case TX_FLOAT16: return K_F16;
    case TX_BFLOAT16: return K_BF16;
    case TX_BOOL: return K_BOOL;
    case TX_FLOAT32: return K_F32;
    case TX_FLOAT64: return K_F64;
    default:
        switch (tx_dtype_size(t)) {
        case 1: return K_U8;
        case 2: return K_U16;
        case 4: return K_U32;
        default: return K_U64;
        }
    }
}

/* Bytes an element costs the scan: its key read and its idx written. */
static uint64_t element_bytes(const scan_job *j) {
    static const uint8_t key_bytes[] = {[K_U8] = 1, [K_BOOL] = 1, [K_U16] = 2, [K_U32] = 4, [K_U64] = 8,
                                        [K_F16] = 2, [K_BF16] = 2, [K_F32] = 4, [K_F64] = 8};
    return (uint64_t)key_bytes[j->kind] + (j->i64 ? 8 : 4);
}

/* Runs every chunk from pos to end, growing those that fill up, until all are done.  Many
 * distinct values make chunk 0 go on alone over the rest of x (k becomes 1). */
static tx_status run_chunks(const char *op, scan_job *j, int64_t *starts, int *k, int64_t n) {
    chunk_t *chunks = j->chunks;
    const int kind = j->kind;
    for (;;) {
        /* a chunk is a grain: the work is what the chunks have left (the seed: chunk 0 alone) */
        uint64_t left = 0;
        bool others = false;
        for (int c = 0; c < *k; c++) {
            left += (uint64_t)(chunks[c].end - chunks[c].pos);
            others |= c > 0 && chunks[c].pos < chunks[c].end;
        }
        if (others) tx__parallel_for_work(*k, 1, left * element_bytes(j), scan_piece, j);
        else scan_piece(j, 0, *k);
        /* Many distinct values: the merge and the idx rewrite would cost more than the threads
         * save, so chunk 0 goes on alone over all of x (overwriting the others' idx). */
        bool many = false, more = false;
        for (int c = 0; c < *k; c++)
            many |= chunks[c].pos < chunks[c].end && chunks[c].vcap >= TX_UNIQUE_PARALLEL_MAX_VALUES;
        if (*k > 1 && many) {
            for (int c = 1; c < *k; c++) chunk_free(&chunks[c]);
            *k = j->nchunks = 1;
            starts[1] = chunks[0].end = n;
        }
        for (int c = 0; c < *k; c++) {
            chunk_t *ch = &chunks[c];
            if (ch->pos == ch->end) continue;
            /* 4x, or (one chunk, a sixteenth of it scanned) room for as many values as the part
             * scanned suggests if more: one step instead of rehashing millions of values every 4x
             * when most values are distinct; at most one per element.  Several chunks grow 4x up
             * to TX_UNIQUE_PARALLEL_MAX_VALUES.  `len` bounds the values: the seed's and one per
             * element. */
            const int64_t len = ch->end - starts[c] + ch->seeded, seen = ch->pos - starts[c];
            const double guess = 1.25 * (double)ch->used / (double)(seen > 0 ? seen : 1) * (double)len;
            int64_t want = ch->vcap > len / 4 ? len : 4 * ch->vcap;
            if (*k == 1 && seen >= len / 16 && guess > (double)want) want = guess < (double)len ? (int64_t)guess : len;
            TX_TRY(chunk_grow(op, ch, want, len, kind));
            more = true;
        }
        if (!more) return TX_OK;
    }
}

/* Unique of a numeric x: chunk c of x (one per thread) gets its own table and first-occurrence
 * list, and all chunks run in parallel; then chunk 0 absorbs chunks 1.. in order, which gives TF's
 * global first-occurrence order (a value new in chunk c comes after every value of chunks < c and
 * in its chunk's order), and a last pass rewrites the idx of the chunks whose ids changed.  To
 * spare that pass in the usual case, chunk 0 first scans the start of x alone (the seed) and the
 * other chunks begin with its values under the same ids: a chunk that meets no other value keeps
 * its idx as written.  The result does not depend on the number of chunks.  On success *out is
 * chunk 0, the whole result, owned by the caller (chunk_free). */
static tx_status unique_numeric(const char *op, const tx_tensor *x, void *idx, bool i64,
                               chunk_t *out) {
    const int64_t n = x->numel;
    const int kind = key_kind_of(x->dtype);
    int64_t starts[TX_MAX_THREADS + 1];
    chunk_t chunks[TX_MAX_THREADS];
    int k = 1;
    starts[0] = 0;
    starts[1] = n;
    if (n >= TX_UNIQUE_PARALLEL_MIN && tx_num_threads() > 1)
        k = tx__parallel_split(n, TX_UNIQUE_PARALLEL_MIN / 2, tx_num_threads(), starts);
    memset(chunks, 0, sizeof chunks);
    tx_status st = TX_OK;
    for (int c = 0; c < k && st == TX_OK; c++) {
        chunks[c].pos = chunks[c].end = starts[c]; /* chunks 1.. wait for the seed */
        const int64_t len = starts[c + 1] - starts[c];
        int64_t start = len < TX_UNIQUE_START_VALUES ? len : TX_UNIQUE_START_VALUES;
        st = chunk_grow(op, &chunks[c], start, len, kind);
        if (st == TX_OK && len >= (int64_t)DENSE_KEYS &&
            (kind == K_U8 || kind == K_BOOL || kind == K_U16)) {
            chunks[c].dense = tx__alloc(DENSE_KEYS * sizeof *chunks[c].dense, op);
            if (chunks[c].dense == NULL) st = TX_RESOURCE_EXHAUSTED;
            else memset(chunks[c].dense, 0xFF, DENSE_KEYS * sizeof *chunks[c].dense);
        }
    }
    scan_job j = {chunks, x->data, idx, kind, i64, tx__kernels_get(), starts, k};
    if (st == TX_OK && k > 1) {
        chunks[0].end = starts[1] / 8 < TX_UNIQUE_SEED ? starts[1] / 8 : TX_UNIQUE_SEED;
        st = run_chunks(op, &j, starts, &k, n);
    }
    chunks[0].end = starts[1];
    /* The seed's values, in order, open every other chunk: ids 0 .. seeded - 1 mean the same
     * values everywhere (a NaN among them is never met again: its copies stay at count 0). */
    const int64_t seeded = chunks[0].used;
    for (int c = 1; c < k && st == TX_OK; c++) {
        chunk_t *ch = &chunks[c];
        ch->end = starts[c + 1];
        ch->seeded = seeded;
        if (seeded + TX_UNIQUE_START_VALUES > ch->vcap)
            st = chunk_grow(op, ch, seeded + TX_UNIQUE_START_VALUES, ch->end - starts[c] + seeded,
                            kind);
        for (int64_t v = 0; v < seeded && st == TX_OK; v++) {
            const int64_t id = chunk_find(ch, chunks[0].vkey[v], chunks[0].vfirst[v], kind);
            assert(id == v);
            (void)id;
        }
    }
    if (st == TX_OK) st = run_chunks(op, &j, starts, &k, n);
    /* The merge: chunk 0 takes every value of chunks 1.. (room for all of them first; the other
     * chunks' tables are not needed any more, which bounds the peak memory). */
    for (int c = 1; c < k; c++) {
        tx__free(chunks[c].tab, chunks[c].tab_bytes);
        chunks[c].tab = NULL;
    }
    int64_t total = 0;
    for (int c = 0; c < k; c++) total += chunks[c].used - (c ? seeded : 0);
    if (st == TX_OK && k > 1 && total > chunks[0].vcap)
        st = chunk_grow(op, &chunks[0], total, total, kind);
    bool remap = false;
    for (int c = 1; c < k && st == TX_OK; c++) {
        chunk_t *ch = &chunks[c];
        bool identity = true;
        for (int64_t v = 0; v < ch->used; v++) {
            const int64_t g = v < seeded ? v : chunk_find(&chunks[0], ch->vkey[v], ch->vfirst[v], kind);
            assert(g >= 0);
            chunks[0].vcount[g] += ch->vcount[v];
            ch->vfirst[v] = (int32_t)g;
            identity &= g == v;
        }
        if (identity) {
            chunk_free(ch); /* remap_piece skips it */
            ch->vfirst = NULL;
        }
        remap |= !identity;
    }
    if (st == TX_OK && remap) tx__parallel_for(n - starts[1], (int64_t)1 << 16, remap_piece, &j);
    for (int c = 1; c < k; c++) chunk_free(&chunks[c]);
    if (st != TX_OK) {
        chunk_free(&chunks[0]);
        return st;
    }
    *out = chunks[0];
    return TX_OK;
}

tx_status tx__unique_numeric(const char *op, const tx_tensor *x, void *idx, bool i64,
                             tx__unique_counted *res) {
    chunk_t c = {0};
    TX_TRY(unique_numeric(op, x, idx, i64, &c));
    /* Only the value lists are needed from here on: the tables go now. */
    tx__free(c.tab, c.tab_bytes);
    tx__free(c.dense, DENSE_KEYS * sizeof *c.dense);
    *res = (tx__unique_counted){c.used, c.vfirst, c.vcount, c.vkey, c.vbytes};
    return TX_OK;
}

void tx__unique_counted_free(tx__unique_counted *res) {
    tx__free(res->block, res->bytes);
    res->block = NULL;
    res->first = res->count = NULL;
}
