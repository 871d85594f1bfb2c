/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm.c -- every kernel of every family list (src/kernels/<family>.inc) at every CPU level
 * this machine has, against a naive loop written here (dav1d's checkasm, XNNPACK's per-kernel
 * tests): destinations with guard bytes on both sides (checked untouched), unaligned source and
 * destination starts, every tail length around the vector widths, sizes past each streaming
 * threshold, and the source allocated to its exact end so that ASan sees any over-read.  Also
 * checks that each level's dispatch table holds the list's kernel for every slot.
 *   checkasm              run the checks; exit status 1 on any failure
 *   checkasm --bench      time every kernel on a few sizes and print a table (no checks)
 *   checkasm [--bench] PATTERN   only the kernels whose function name contains PATTERN
 * A kernel added to a list is covered here without any change to this file. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/tuning.h"
#include "dispatch/dispatch.h"

typedef void (*any_fn)(void);

typedef struct kernel kernel;
struct kernel {
    tx_isa_level level;
    const char *slot;
    size_t width; /* the key: element width (0 for the slots without one) or cast pair */
    const char *key;  /* the key as the list spells it */
    const char *name;
    any_fn fn;
    void (*check)(const kernel *);
    void (*bench)(const kernel *);
    any_fn (*in_table)(const tx__kernels *, size_t width); /* the table's entry for the slot */
};

#define GUARD 128
#define GUARD_BYTE 0xA5

static const kernel *current;
static long failures, checks;

/* The key as printed: w<width>, the cast pair's name, or - for none. */
static const char *key_label(const kernel *k, char *buf, size_t cap) {
    if (strncmp(k->key, "TX__CP_", 7) == 0) snprintf(buf, cap, "%s", k->key + 7);
    else if (k->width) snprintf(buf, cap, "w%zu", k->width);
    else snprintf(buf, cap, "-");
    return buf;
}

static void fail(const char *fmt, ...) {
    failures++;
    if (failures > 50) return;
    va_list ap;
    va_start(ap, fmt);
    char key[32];
    fprintf(stderr, "FAIL %s (%s, %s, %s): ", current->name, tx_isa_level_name(current->level),
            current->slot, key_label(current, key, sizeof key));
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void *xmalloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "checkasm: out of memory (%zu bytes)\n", n);
        exit(2);
    }
    return p;
}

/* Eight bytes per draw: the large cases fill hundreds of MB, which under valgrind is most of the
 * program's time when it is done a byte at a time. */
static void fill_random(unsigned char *p, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const uint64_t r = rnd();
        memcpy(p + i, &r, 8);
    }
    if (i < n) {
        const uint64_t r = rnd();
        memcpy(p + i, &r, n - i);
    }
}

/* A source of n bytes at `off` bytes into a block that ends where the source ends. */
static unsigned char *source(size_t n, size_t off, unsigned char **block) {
    *block = xmalloc(off + n);
    fill_random(*block, off + n);
    return *block + off;
}

/* Two destinations of n bytes, each GUARD + mis bytes into a 64-byte aligned block (mis 0: the
 * destination starts on a cache line) with at least GUARD bytes after it, both filled with the same bytes: `want` for the naive loop, `got` for the kernel. */
typedef struct dest {
    unsigned char *want_block, *got_block, *want, *got;
    size_t n, mis, size;
} dest;

static dest dest_new(size_t n, size_t mis) {
    const size_t size = (GUARD + mis + n + GUARD + 63) / 64 * 64;
    dest d = {aligned_alloc(64, size), aligned_alloc(64, size), NULL, NULL, n, mis, size};
    if (!d.want_block || !d.got_block) {
        fprintf(stderr, "checkasm: out of memory (%zu bytes)\n", size);
        exit(2);
    }
    memset(d.want_block, GUARD_BYTE, size);
    d.want = d.want_block + GUARD + mis;
    d.got = d.got_block + GUARD + mis;
    fill_random(d.want, n); /* bytes the kernel must overwrite, or leave as they are */
    memcpy(d.got_block, d.want_block, size);
    return d;
}

/* Compares the whole blocks (guards included) and frees them; false on a difference. */
static bool dest_check(dest *d, const char *what) {
    bool ok = true;
    checks++;
    const bool differ = memcmp(d->want_block, d->got_block, d->size) != 0;
    for (size_t i = 0; differ && i < d->size; i++) { /* where they first differ */
        if (d->want_block[i] != d->got_block[i]) {
            const long long at = (long long)i - (long long)(GUARD + d->mis);
            fail("%s: first difference at byte %lld of the destination (%s)", what, at,
                 at < 0 || at >= (long long)d->n ? "a guard byte" : "inside");
            ok = false;
            break;
        }
    }
    free(d->want_block);
    free(d->got_block);
    return ok;
}

/* ---- copy family (kernels/copy.h) -------------------------------------------------------------- */

static void check_bulk_copy(const kernel *k) {
    tx__bulk_copy_fn fn = (tx__bulk_copy_fn)k->fn;
    /* every length to 3 lines and 3 vectors, then each side of the page thresholds with every
     * tail length past them, then large blocks */
    size_t sizes[600], ns = 0;
    for (size_t n = 0; n <= 200; n++) sizes[ns++] = n;
    const size_t bases[] = {4096, 8192, 16384, 3 * 4096};
    for (size_t b = 0; b < sizeof bases / sizeof *bases; b++)
        for (size_t t = 0; t < 130; t += b == 1 ? 1 : 9) sizes[ns++] = bases[b] - 2 + t;
    const size_t big[] = {65536 + 31, 100003, (size_t)1 << 20, ((size_t)3 << 20) + 17};
    for (size_t b = 0; b < sizeof big / sizeof *big; b++) sizes[ns++] = big[b];
    for (size_t si = 0; si < ns; si++) {
        const size_t n = sizes[si];
        const size_t step = n <= 200 ? 1 : 13;
        for (size_t mis = 0; mis < 64; mis += step) {
            const size_t smis = (mis * 7 + 3) % 64;
            unsigned char *sblock, *src = source(n, smis, &sblock);
            dest d = dest_new(n, mis);
            for (size_t i = 0; i < n; i++) d.want[i] = src[i];
            fn(d.got, src, n);
            char what[96];
            snprintf(what, sizeof what, "n=%zu dst_mis=%zu src_mis=%zu", n, mis, smis);
            bool ok = dest_check(&d, what);
            free(sblock);
            if (!ok) return;
        }
    }
}

/* Runs: every width class (partial lines only, lines plus ends, two pages and more), run starts
 * at every alignment, gaps between runs left untouched; and whole lines into line-aligned runs
 * (depth_to_space's case) from sources at every alignment. */
static bool runs_case(tx__runs_copy_fn fn, int64_t nruns, size_t w, int64_t ds, int64_t ss,
                      size_t dmis, size_t smis) {
    const size_t dn = (size_t)((nruns - 1) * ds) + w, sn = (size_t)((nruns - 1) * ss) + w;
    unsigned char *sblock, *src = source(sn, smis, &sblock);
    dest d = dest_new(dn, dmis);
    for (int64_t r = 0; r < nruns; r++)
        for (size_t i = 0; i < w; i++) d.want[r * ds + (int64_t)i] = src[r * ss + (int64_t)i];
    fn((char *)d.got, (const char *)src, nruns, ds, ss, w);
    char what[128];
    snprintf(what, sizeof what, "runs=%lld width=%zu ds=%lld ss=%lld dst_mis=%zu src_mis=%zu",
             (long long)nruns, w, (long long)ds, (long long)ss, dmis, smis);
    bool ok = dest_check(&d, what);
    free(sblock);
    return ok;
}

static void check_copy_runs_stream(const kernel *k) {
    tx__runs_copy_fn fn = (tx__runs_copy_fn)k->fn;
    size_t widths[200], nw = 0;
    for (size_t w = 64; w <= 200; w++) widths[nw++] = w;
    const size_t more[] = {255, 256, 257, 512, 1000, 8191, 8192, 9000};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) widths[nw++] = more[i];
    for (size_t wi = 0; wi < nw; wi++) {
        const size_t w = widths[wi];
        for (size_t mis = 0; mis < 64; mis += w <= 200 ? 9 : 5) {
            const int64_t ds = (int64_t)w + (int64_t)(mis * 3 % 70), ss = (int64_t)w + 17;
            if (!runs_case(fn, 5, w, ds, ss, mis, mis / 2)) return;
            /* whole lines into line-aligned runs: the destination block is 64-aligned + GUARD */
            const size_t wl = (w + 63) / 64 * 64;
            const int64_t dsl = (int64_t)wl + 64 * (int64_t)(mis % 3);
            const int64_t ssl = (int64_t)wl + (int64_t)(mis % 5);
            if (!runs_case(fn, 5, wl, dsl, ssl, 0, mis)) return;
        }
    }
    if (!runs_case(fn, 1, 64, 64, 64, 0, 0)) return;
    runs_case(fn, 0, 64, 64, 64, 0, 0);
}

static void check_reversed(const kernel *k, tx__reverse_fn fn) {
    const size_t w = k->width;
    int64_t counts[160];
    size_t nc = 0;
    for (int64_t n = 0; n <= 140; n++) counts[nc++] = n;
    const int64_t more[] = {255, 256, 257, 1000, 4097};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) counts[nc++] = more[i];
    /* 0, odd (elements off their alignment: no streaming), multiples of the width that leave
     * dst off the vector boundary */
    const size_t miss[] = {0, 1, w, 2 * w, 3 * w, 64 - w, 33};
    for (size_t ci = 0; ci < nc; ci++) {
        const int64_t n = counts[ci];
        for (size_t mi = 0; mi < sizeof miss / sizeof *miss; mi++) {
            const size_t mis = miss[mi], bytes = (size_t)n * w, smis = (mis * 5 + 3) % 64;
            unsigned char *sblock, *lo = source(bytes, smis, &sblock);
            /* the run's first output element is its highest address */
            const unsigned char *s = lo + (n > 0 ? (size_t)(n - 1) * w : 0);
            dest d = dest_new(bytes, mis);
            for (int64_t e = 0; e < n; e++)
                for (size_t b = 0; b < w; b++) d.want[e * (int64_t)w + (int64_t)b] = s[-e * (int64_t)w + (int64_t)b];
            fn((char *)d.got, (const char *)s, n);
            char what[96];
            snprintf(what, sizeof what, "n=%lld dst_mis=%zu src_mis=%zu", (long long)n, mis, smis);
            bool ok = dest_check(&d, what);
            free(sblock);
            if (!ok) return;
        }
    }
}

static void check_copy_reversed(const kernel *k) { check_reversed(k, (tx__reverse_fn)k->fn); }
static void check_copy_reversed_stream(const kernel *k) { check_reversed(k, (tx__reverse_fn)k->fn); }

static any_fn get_bulk_copy(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->bulk_copy;
}
static any_fn get_copy_runs_stream(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->copy_runs_stream;
}
static any_fn get_copy_reversed(const tx__kernels *t, size_t w) {
    return (any_fn)t->copy_reversed[tx__width_index(w)];
}
static any_fn get_copy_reversed_stream(const tx__kernels *t, size_t w) {
    return (any_fn)t->copy_reversed_stream[tx__width_index(w)];
}

/* ---- transpose family (kernels/transpose.h) ----------------------------------------------------- */

static bool transpose_case(tx__transpose2d_fn fn, size_t w, int64_t rows, int64_t cols, int64_t ss,
                           int64_t ds, size_t dmis, size_t smis, bool stream) {
    const bool empty = rows <= 0 || cols <= 0;
    const size_t sn = empty ? 0 : (size_t)((rows - 1) * ss + cols * (int64_t)w);
    const size_t dn = empty ? 0 : (size_t)((cols - 1) * ds + rows * (int64_t)w);
    unsigned char *sblock, *src = source(sn, smis, &sblock);
    dest d = dest_new(dn, dmis);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++)
            for (size_t b = 0; b < w; b++)
                d.want[c * ds + r * (int64_t)w + (int64_t)b] = src[r * ss + c * (int64_t)w + (int64_t)b];
    fn((char *)d.got, (const char *)src, rows, cols, ss, ds, stream);
    char what[160];
    snprintf(what, sizeof what, "rows=%lld cols=%lld ss=%lld ds=%lld dst_mis=%zu src_mis=%zu stream=%d",
             (long long)rows, (long long)cols, (long long)ss, (long long)ds, dmis, smis, (int)stream);
    bool ok = dest_check(&d, what);
    free(sblock);
    return ok;
}

static void check_transpose2d(const kernel *k) {
    tx__transpose2d_fn fn = (tx__transpose2d_fn)k->fn;
    const int64_t W = (int64_t)k->width, lane = 64 / W; /* elements per cache line */
    /* every row and column count to two tiles and a tail (a tile is at most one line of
     * elements each way; the narrow paths take up to 15), packed and padded strides, the
     * destination on a line and off it, the element misaligned, streaming on and off */
    const int64_t maxr = 2 * lane + 3, maxc = 2 * lane + 3 < 35 ? 2 * lane + 3 : 35;
    for (int64_t rows = 0; rows <= maxr; rows++) {
        for (int64_t cols = 0; cols <= maxc; cols++) {
            const int64_t ssp = cols * W, dsp = rows * W;
            for (int stream = 0; stream < 2; stream++)
                if (!transpose_case(fn, k->width, rows, cols, ssp, dsp, 0, 0, stream)) return;
            if (!transpose_case(fn, k->width, rows, cols, ssp + 3 * W + 1, dsp + W, k->width, 5, true))
                return;
            const int64_t dsl = (dsp + 63) / 64 * 64 + 64; /* rows on lines: streaming stores */
            if (!transpose_case(fn, k->width, rows, cols, ssp + W, dsl, 0, 1, true)) return;
            if (!transpose_case(fn, k->width, rows, cols, ssp, dsp + 1, 1, 0, false)) return;
        }
    }
    /* large blocks: many tiles each way, the streaming paths (aligned rows, rows off the lines,
     * the buffered one), and long thin shapes */
    const int64_t shapes[][2] = {{512, 384}, {509, 383}, {1024, 3}, {3, 1024}, {300, 700}, {333, 70}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        const int64_t rows = shapes[i][0], cols = shapes[i][1];
        const int64_t dsl = (rows * W + 63) / 64 * 64;
        for (int stream = 0; stream < 2; stream++) {
            if (!transpose_case(fn, k->width, rows, cols, cols * W, rows * W, 0, 3, stream)) return;
            if (!transpose_case(fn, k->width, rows, cols, cols * W + W, dsl, 0, 0, stream)) return;
            if (!transpose_case(fn, k->width, rows, cols, cols * W, dsl + W, k->width, 0, stream)) return;
            if (!transpose_case(fn, k->width, rows, cols, cols * W, rows * W, 7, 1, stream)) return;
        }
    }
}

static any_fn get_transpose2d(const tx__kernels *t, size_t w) {
    return (any_fn)t->transpose2d[tx__width_index(w)];
}

/* ---- hash-probe family (kernels/hash_probe.h) --------------------------------------------------- */

typedef struct probe_table {
    tx__slot32 *slots;
    unsigned bits;
    uint32_t *keys; /* the keys in the table, in insertion order (id = position) */
    int64_t used;
} probe_table;

/* The naive lookup: the key's id, walking from its home slot, or -1 at an empty slot. */
static int32_t naive_probe(const probe_table *t, uint32_t key, bool neg_zero) {
    if (neg_zero && key == 0x80000000u) key = 0;
    const uint32_t mask = (uint32_t)((1ull << t->bits) - 1);
    for (uint32_t s = (uint32_t)((key * 0x9E3779B1ull) & 0xFFFFFFFFu) >> (32 - t->bits);; s = (s + 1) & mask) {
        if (t->slots[s].id < 0) return -1;
        if (t->slots[s].key == key) return t->slots[s].id;
    }
}

static void probe_insert(probe_table *t, uint32_t key) {
    if (naive_probe(t, key, false) >= 0) return;
    const uint32_t mask = (uint32_t)((1ull << t->bits) - 1);
    uint32_t s = tx__slot32_home(key, t->bits);
    while (t->slots[s].id >= 0) s = (s + 1) & mask;
    t->slots[s] = (tx__slot32){key, (int32_t)t->used};
    t->keys[t->used++] = key;
}

/* Keys with a meaning of their own to the table (0xFFFFFFFF: the empty slots' key) or to floats
 * (-0.0, NaNs, infinity). */
static const uint32_t PROBE_SPECIAL[] = {0xFFFFFFFFu, 0x80000000u, 0, 1, 0x7FC00000u, 0xFFC00001u,
                                         0x7F800000u};

/* 2^bits slots holding `fill` keys: the special ones, with `cluster` 40 sharing one home slot
 * (long displaced runs), then random ones. */
static probe_table probe_table_new(unsigned bits, int64_t fill, bool cluster) {
    probe_table t = {xmalloc(sizeof(tx__slot32) << bits), bits, xmalloc((size_t)fill * 4 + 64), 0};
    for (size_t s = 0; s < (size_t)1 << bits; s++) t.slots[s] = (tx__slot32){(uint32_t)rnd(), -1};
    for (size_t i = 0; i < sizeof PROBE_SPECIAL / sizeof *PROBE_SPECIAL && t.used < fill; i++)
        probe_insert(&t, PROBE_SPECIAL[i]);
    const uint32_t home = (uint32_t)rnd() >> (32 - bits);
    for (int tries = 0; cluster && t.used < fill && t.used < 40 && tries < 1 << 22; tries++) {
        const uint32_t key = (uint32_t)rnd();
        if (tx__slot32_home(key, bits) == home) probe_insert(&t, key);
    }
    while (t.used < fill) probe_insert(&t, (uint32_t)rnd());
    return t;
}

/* A key the table lacks (with neg_zero: not -0.0 when 0 is there either). */
static uint32_t probe_absent(const probe_table *t) {
    for (;;) {
        const uint32_t key = (uint32_t)rnd();
        if (naive_probe(t, key, false) < 0 && naive_probe(t, key, true) < 0) return key;
    }
}

/* One call on keys[0, n), copied to `xmis` bytes past an aligned start and ending where its
 * block ends; the ids (4-byte aligned) have guards and noise after the stop. */
static bool probe_case(tx__probe32_fn fn, const probe_table *t, const uint32_t *keys, int64_t n,
                       bool neg_zero, size_t xmis, size_t imis) {
    unsigned char *xblock = xmalloc(xmis + (size_t)n * 4);
    memcpy(xblock + xmis, keys, (size_t)n * 4);
    const uint32_t *x = (const uint32_t *)(const void *)(xblock + xmis);
    dest d = dest_new((size_t)n * 4, imis);
    int64_t want = n;
    for (int64_t i = 0; i < n; i++) {
        const int32_t id = naive_probe(t, keys[i], neg_zero);
        if (id < 0) {
            want = i;
            break;
        }
        memcpy(d.want + 4 * i, &id, 4);
    }
    const int64_t got = fn(t->slots, t->bits, neg_zero, x, n, (int32_t *)(void *)d.got);
    char what[128];
    snprintf(what, sizeof what, "bits=%u keys=%lld n=%lld neg_zero=%d x_mis=%zu", t->bits,
             (long long)t->used, (long long)n, (int)neg_zero, xmis);
    bool ok = true;
    if (got != want) {
        fail("%s: stopped at %lld, want %lld", what, (long long)got, (long long)want);
        ok = false;
    }
    ok = dest_check(&d, what) && ok;
    free(xblock);
    return ok;
}

static void check_probe32(const kernel *k) {
    tx__probe32_fn fn = (tx__probe32_fn)k->fn;
    const unsigned bits_list[] = {4, 6, 10, 14, 18};
    uint32_t keys[1000];
    for (size_t bi = 0; bi < sizeof bits_list / sizeof *bits_list; bi++) {
        const unsigned bits = bits_list[bi];
        const int64_t size = (int64_t)1 << bits, fills[] = {1, size / 4, size / 2, size - 1};
        for (size_t fi = 0; fi < sizeof fills / sizeof *fills; fi++) {
            probe_table t = probe_table_new(bits, fills[fi], fi != 2);
            for (int neg_zero = 0; neg_zero < 2; neg_zero++) {
                /* present keys only: every count to three vectors of 16 keys, then longer */
                for (int64_t i = 0; i < 1000; i++) keys[i] = t.keys[rnd() % (uint64_t)t.used];
                for (int64_t n = 0; n <= 1000; n += n < 50 ? 1 : 317)
                    for (size_t xmis = 0; xmis < 4; xmis++)
                        if (!probe_case(fn, &t, keys, n, neg_zero, xmis, 4 * xmis)) goto next;
                /* one absent key at each position of 40 keys, and in a long run */
                for (int64_t p = 0; p < 40; p++) {
                    const uint32_t keep = keys[p];
                    keys[p] = probe_absent(&t);
                    if (!probe_case(fn, &t, keys, 40, neg_zero, (size_t)p % 4, 0)) goto next;
                    keys[p] = keep;
                }
                keys[777] = probe_absent(&t);
                if (!probe_case(fn, &t, keys, 1000, neg_zero, 1, 4)) goto next;
            }
        next:
            free(t.slots);
            free(t.keys);
        }
    }
}

static any_fn get_probe32(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->probe32;
}

/* ---- cast family (kernels/cast.h) -------------------------------------------------------------- */

/* Each pair's rule (kernels/cast.h: the scalar rules of convert.h, one element), or a byte
 * reversal. */
typedef struct cast_rule {
    size_t in, out;
    void (*one)(void *d, const void *s); /* NULL: reverse the bytes */
} cast_rule;

static const cast_rule CAST_RULES[TX__CP_COUNT] = {
    [TX__CP_F32_F16] = {4, 2, tx__cast_one_f32_f16},
    [TX__CP_F16_F32] = {2, 4, tx__cast_one_f16_f32},
    [TX__CP_F32_BF16] = {4, 2, tx__cast_one_f32_bf16},
    [TX__CP_BF16_F32] = {2, 4, tx__cast_one_bf16_f32},
    [TX__CP_F32_I32] = {4, 4, tx__cast_one_f32_i32},
    [TX__CP_I32_F32] = {4, 4, tx__cast_one_i32_f32},
    [TX__CP_F64_F32] = {8, 4, tx__cast_one_f64_f32},
    [TX__CP_U8_F32] = {1, 4, tx__cast_one_u8_f32},
    [TX__CP_SAT_F32_U8] = {4, 1, tx__cast_one_sat_f32_u8},
};

static cast_rule rule_of(const kernel *k) {
    if (strncmp(k->slot, "byteswap", 8) == 0) return (cast_rule){k->width, k->width, NULL};
    return CAST_RULES[k->width];
}

/* Bit patterns where instructions and TF's rules part ways: signed zeros, infinities, quiet and
 * signalling NaNs with payloads, subnormals, the edges of each target's range and rounding ties. */
static const uint16_t SPECIAL16[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfd55,
                                     0x0001, 0x83ff, 0x7f80, 0x7f81, 0xff80, 0x7fc0, 0xffff};
static const uint32_t SPECIAL32[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc12345,
    0x7fffffff, 0x00000001, 0x807fffff, 0x4f000000, 0xcf000000, 0x4effffff, 0x437f0000,
    0x437f8000, 0x437f7fff, 0xbf000000, 0xbf800000, 0x477fe000, 0x477ff000, 0x477fefff,
    0x33000000, 0x33000001, 0x387fc000, 0x3f808000, 0x3f818000, 0x7f7fffff};
static const uint64_t SPECIAL64[] = {
    0x0000000000000000, 0x8000000000000000, 0x7ff0000000000000, 0x7ff0000000000001,
    0xfff8000000000123, 0x3810000000000000, 0x36a0000000000000, 0x47efffffe0000000,
    0x47effffff0000000, 0x47efffffefffffff, 0x3ff0000010000000, 0x3ff0000030000000,
    0x0000000000000001};

/* Random elements of `w` bytes with about one in four replaced by a special pattern. */
static void fill_cast_input(unsigned char *p, size_t n, size_t w) {
    fill_random(p, n * w);
    /* gaps of 1-7 elements: one in four on average, without a draw per element */
    for (size_t i = rnd() % 4; i < n; i += 1 + rnd() % 7) {
        const uint64_t r = rnd() >> 3;
        if (w == 2) memcpy(p + i * w, &SPECIAL16[r % (sizeof SPECIAL16 / 2)], 2);
        if (w == 4) memcpy(p + i * w, &SPECIAL32[r % (sizeof SPECIAL32 / 4)], 4);
        if (w == 8) memcpy(p + i * w, &SPECIAL64[r % (sizeof SPECIAL64 / 8)], 8);
    }
}

/* dst `mis` bytes past a line, src at another offset; both element-aligned for the cast slots
 * (tensor data always are: kernels/cast.h), any offset for the byte swaps. */
static bool cast_case(const kernel *k, cast_rule r, size_t n, size_t mis) {
    size_t smis = (mis * 7 + 5) % 64;
    if (r.one) smis -= smis % r.in;
    unsigned char *sblock = xmalloc(smis + n * r.in), *src = sblock + smis;
    fill_cast_input(src, n, r.in);
    dest d = dest_new(n * r.out, mis);
    for (size_t i = 0; i < n; i++) {
        if (r.one) r.one(d.want + i * r.out, src + i * r.in);
        else
            for (size_t b = 0; b < r.in; b++) d.want[i * r.out + b] = src[i * r.in + r.in - 1 - b];
    }
    ((tx__cast_fn)k->fn)(d.got, src, (int64_t)n);
    char what[96];
    snprintf(what, sizeof what, "n=%zu dst_mis=%zu src_mis=%zu", n, mis, smis);
    bool ok = dest_check(&d, what);
    free(sblock);
    return ok;
}

static void check_cast_family(const kernel *k) {
    const cast_rule r = rule_of(k);
    /* every count to 3 x 32 lanes and past, then around the streaming threshold's element count */
    size_t counts[200], nc = 0;
    for (size_t n = 0; n <= 140; n++) counts[nc++] = n;
    const size_t more[] = {255, 256, 257, 1000, 4097,
                           (size_t)TX_STREAM_MIN_BYTES / r.out + 37};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++) counts[nc++] = more[i];
    /* on a line, multiples of the output width that leave dst off the vector boundary, and for
     * the byte swaps odd ones (elements off their alignment: no streaming) */
    const size_t miss[] = {0, r.out, 2 * r.out, 3 * r.out, 64 - r.out, r.one ? 5 * r.out : 1,
                           r.one ? 9 * r.out : 33};
    for (size_t ci = 0; ci < nc; ci++) {
        const size_t nm = counts[ci] > 5000 ? 2 : sizeof miss / sizeof *miss;
        for (size_t mi = 0; mi < nm; mi++)
            if (!cast_case(k, r, counts[ci], miss[mi])) return;
    }
}
static void check_cast(const kernel *k) { check_cast_family(k); }
static void check_cast_stream(const kernel *k) { check_cast_family(k); }
static void check_byteswap(const kernel *k) { check_cast_family(k); }
static void check_byteswap_stream(const kernel *k) { check_cast_family(k); }

static any_fn get_cast(const tx__kernels *t, size_t pair) { return (any_fn)t->cast[pair]; }
static any_fn get_cast_stream(const tx__kernels *t, size_t pair) {
    return (any_fn)t->cast_stream[pair];
}
static any_fn get_byteswap(const tx__kernels *t, size_t w) {
    return (any_fn)t->byteswap[tx__swap_index(w)];
}
static any_fn get_byteswap_stream(const tx__kernels *t, size_t w) {
    return (any_fn)t->byteswap_stream[tx__swap_index(w)];
}

/* ---- gather family (kernels/gather.h) ----------------------------------------------------------- */

static const tx_oob_policy POLICIES[] = {TX_OOB_ERROR, TX_OOB_ZERO, TX_OOB_CLAMP, TX_OOB_WRAP};
static const size_t INDEX_WIDTHS[] = {2, 4, 8};
/* slice sizes: the fixed-size moves and the memcpy path */
static const size_t SLICES[] = {1, 2, 3, 4, 8, 12, 16, 24};
#define COUNT_OF(a) (sizeof(a) / sizeof *(a))

static void index_put(void *p, size_t iw, int64_t i, int64_t v) {
    if (iw == 2) ((int16_t *)p)[i] = (int16_t)v;
    else if (iw == 4) ((int32_t *)p)[i] = (int32_t)v;
    else ((int64_t *)p)[i] = v;
}

/* An index for a dim of `dim`: in range under the error policy (dim > 0), else anything the
 * index width holds, mostly near the range (negative, past the end) with the extremes too. */
static int64_t random_index(int64_t dim, tx_oob_policy policy, size_t iw) {
    /* Under the error policy the op checked every index, but one may change after that (an
     * input written by another thread): one in eight is then outside and reads row 0. */
    if (policy == TX_OOB_ERROR && rnd() % 8 != 0) return (int64_t)(rnd() % (uint64_t)dim);
    const int64_t max = iw == 2 ? INT16_MAX : iw == 4 ? INT32_MAX : INT64_MAX;
    switch (rnd() % 8) {
    case 0: return max;
    case 1: return -max - 1;
    default: return (int64_t)(rnd() % (uint64_t)(4 * dim + 3)) - 2 * dim - 1;
    }
}

/* The position an index takes under a policy, -1 for a zero slice. */
static int64_t naive_position(int64_t v, int64_t dim, tx_oob_policy policy) {
    if (v >= 0 && v < dim) return v;
    if (policy == TX_OOB_CLAMP) return v < 0 ? 0 : dim - 1;
    if (policy == TX_OOB_WRAP) return (v % dim + dim) % dim;
    return -1;
}

/* Where a gather or gather_nd reads: under the error policy an index that changed after the op's
 * check reads row 0. */
static int64_t gather_position(int64_t v, int64_t dim, tx_oob_policy policy) {
    return policy == TX_OOB_ERROR && (v < 0 || v >= dim) ? 0 : naive_position(v, dim, policy);
}

static bool gather_case(tx__gather_fn fn, size_t iw, tx_oob_policy policy, size_t sb,
                        int64_t nbatch, int64_t nouter, int64_t n, int64_t dim) {
    const size_t pbytes = (size_t)(nbatch * nouter * dim) * sb;
    unsigned char *pblock, *params = source(pbytes, 3, &pblock);
    unsigned char *ix = xmalloc((size_t)(nbatch * n) * iw);
    int64_t *v = xmalloc((size_t)(nbatch * n) * sizeof *v + 8);
    for (int64_t i = 0; i < nbatch * n; i++) {
        v[i] = random_index(dim, policy, iw);
        index_put(ix, iw, i, v[i]);
    }
    dest d = dest_new((size_t)(nbatch * nouter * n) * sb, sb % 7);
    unsigned char *w = d.want;
    for (int64_t b = 0; b < nbatch; b++)
        for (int64_t o = 0; o < nouter; o++)
            for (int64_t i = 0; i < n; i++, w += sb) {
                const int64_t at = gather_position(v[b * n + i], dim, policy);
                if (at < 0) memset(w, 0, sb);
                else memcpy(w, params + (size_t)((b * nouter + o) * dim + at) * sb, sb);
            }
    fn((char *)d.got, (const char *)params, ix, iw, nbatch, nouter, n, dim, sb, policy);
    char what[128];
    snprintf(what, sizeof what, "iw=%zu policy=%d slice=%zu batch=%lld outer=%lld n=%lld dim=%lld",
             iw, (int)policy, sb, (long long)nbatch, (long long)nouter, (long long)n,
             (long long)dim);
    bool ok = dest_check(&d, what);
    free(pblock);
    free(ix);
    free(v);
    return ok;
}

static void check_gather(const kernel *k) {
    const int64_t shapes[][4] = {{1, 1, 0, 3}, {1, 1, 5, 1}, {2, 3, 7, 5}, {1, 4, 33, 17},
                                 {3, 2, 100, 64}, {1, 1, 1000, 999}};
    for (size_t a = 0; a < COUNT_OF(INDEX_WIDTHS); a++)
        for (size_t p = 0; p < COUNT_OF(POLICIES); p++)
            for (size_t s = 0; s < COUNT_OF(SLICES); s++)
                for (size_t h = 0; h < COUNT_OF(shapes); h++)
                    if (!gather_case((tx__gather_fn)k->fn, INDEX_WIDTHS[a], POLICIES[p], SLICES[s],
                                     shapes[h][0], shapes[h][1], shapes[h][2], shapes[h][3]))
                        return;
}

static bool gather_nd_case(tx__gather_nd_fn fn, size_t iw, tx_oob_policy policy, size_t sb,
                           size_t kd, const int64_t *dims, int64_t n) {
    int64_t strides[4], rows = 1;
    for (size_t j = kd; j-- > 0;) {
        strides[j] = rows * (int64_t)sb;
        rows *= dims[j];
    }
    unsigned char *pblock, *params = source((size_t)rows * sb, 5, &pblock);
    unsigned char *ix = xmalloc((size_t)n * kd * iw + 8);
    int64_t *v = xmalloc((size_t)n * kd * sizeof *v + 8);
    for (int64_t i = 0; i < n * (int64_t)kd; i++) {
        v[i] = random_index(dims[(size_t)i % kd], policy, iw);
        index_put(ix, iw, i, v[i]);
    }
    dest d = dest_new((size_t)n * sb, 1);
    for (int64_t i = 0; i < n; i++) {
        int64_t off = 0;
        for (size_t j = 0; j < kd && off >= 0; j++) {
            const int64_t at = gather_position(v[i * (int64_t)kd + (int64_t)j], dims[j], policy);
            off = at < 0 ? -1 : off + at * strides[j];
        }
        if (off < 0) memset(d.want + (size_t)i * sb, 0, sb);
        else memcpy(d.want + (size_t)i * sb, params + off, sb);
    }
    fn((char *)d.got, (const char *)params, ix, iw, n, kd, dims, strides, sb, policy);
    char what[128];
    snprintf(what, sizeof what, "iw=%zu policy=%d slice=%zu k=%zu n=%lld", iw, (int)policy, sb,
             kd, (long long)n);
    bool ok = dest_check(&d, what);
    free(pblock);
    free(ix);
    free(v);
    return ok;
}

static void check_gather_nd(const kernel *k) {
    const int64_t dims[] = {7, 1, 13, 4};
    const int64_t counts[] = {0, 1, 9, 200};
    for (size_t a = 0; a < COUNT_OF(INDEX_WIDTHS); a++)
        for (size_t p = 0; p < COUNT_OF(POLICIES); p++)
            for (size_t s = 0; s < COUNT_OF(SLICES); s++)
                for (size_t kd = 1; kd <= 4; kd++)
                    for (size_t c = 0; c < COUNT_OF(counts); c++)
                        if (!gather_nd_case((tx__gather_nd_fn)k->fn, INDEX_WIDTHS[a], POLICIES[p],
                                            SLICES[s], kd, dims, counts[c]))
                            return;
}

/* dynamic_partition into `np` outputs, each checked with its guards.  With `changed`, ids are
 * rewritten after they were counted (as another thread may): some leave [0, np), some move to
 * another partition, whose rows then run out; neither may move a slice outside the outputs. */
static bool partition_case(tx__partition_fn fn, size_t sb, int64_t n, int32_t np, bool changed) {
    unsigned char *sblock, *data = source((size_t)n * sb, 1, &sblock);
    int32_t *parts = xmalloc((size_t)n * 4 + 4);
    int64_t count[8] = {0}, pos[8] = {0};
    for (int64_t i = 0; i < n; i++) count[parts[i] = (int32_t)(rnd() % (uint64_t)np)]++;
    for (int64_t i = 0; changed && i < n; i++) {
        const uint64_t r = rnd() % 4;
        if (r == 0) parts[i] = rnd() % 2 ? -1 - (int32_t)(rnd() % 9) : np + (int32_t)(rnd() % 9);
        else if (r == 1) parts[i] = 0;
    }
    dest d[8];
    char *outs[8];
    for (int32_t p = 0; p < np; p++) {
        d[p] = dest_new((size_t)count[p] * sb, (size_t)p);
        outs[p] = (char *)d[p].got;
    }
    int64_t at[8] = {0};
    for (int64_t i = 0; i < n; i++) {
        const int32_t p = parts[i];
        if (p < 0 || p >= np || at[p] == count[p]) continue;
        memcpy(d[p].want + (size_t)at[p]++ * sb, data + (size_t)i * sb, sb);
    }
    fn(outs, pos, count, np, parts, n, (const char *)data, sb);
    char what[96];
    snprintf(what, sizeof what, "slice=%zu n=%lld partitions=%d changed=%d", sb, (long long)n,
             (int)np, (int)changed);
    bool ok = true;
    for (int32_t p = 0; p < np; p++) {
        if (pos[p] != at[p]) {
            fail("%s: partition %d's position %lld, want %lld", what, (int)p, (long long)pos[p],
                 (long long)at[p]);
            ok = false;
        }
        ok = dest_check(&d[p], what) && ok;
    }
    free(sblock);
    free(parts);
    return ok;
}

static void check_partition(const kernel *k) {
    const int64_t counts[] = {0, 1, 2, 17, 300};
    for (size_t s = 0; s < COUNT_OF(SLICES); s++)
        for (size_t c = 0; c < COUNT_OF(counts); c++)
            for (int32_t np = 1; np <= 8; np += 3)
                for (int changed = 0; changed <= 1; changed++)
                    if (!partition_case((tx__partition_fn)k->fn, SLICES[s], counts[c], np, changed))
                        return;
}

/* dynamic_stitch: indices below `rows` (negative ones only outside the error policy), later
 * slices winning; one in ten is then made `rows` or more, or negative (an index another thread
 * changed after the op's checks), and must be skipped (negative: mapped by clamp and wrap). */
static bool stitch_case(tx__stitch_fn fn, size_t sb, int64_t n, int64_t rows,
                        tx_oob_policy policy) {
    unsigned char *sblock, *data = source((size_t)n * sb, 2, &sblock);
    int32_t *idx = xmalloc((size_t)n * 4 + 4);
    for (int64_t i = 0; i < n; i++) {
        const int64_t r = (int64_t)(rnd() % (uint64_t)rows);
        idx[i] = (int32_t)(policy != TX_OOB_ERROR && rnd() % 3 == 0 ? -1 - r * 2 : r);
        if (rnd() % 10 == 0) idx[i] = rnd() % 2 ? (int32_t)(rows + r) : INT32_MIN + (int32_t)r;
    }
    dest d = dest_new((size_t)rows * sb, 3);
    for (int64_t i = 0; i < n; i++) {
        int64_t at = idx[i] < 0 ? naive_position(idx[i], rows, policy) : idx[i];
        if (at >= rows) at = -1;
        if (at >= 0) memcpy(d.want + (size_t)at * sb, data + (size_t)i * sb, sb);
    }
    fn((char *)d.got, idx, n, (const char *)data, sb, rows, policy);
    char what[96];
    snprintf(what, sizeof what, "slice=%zu n=%lld rows=%lld policy=%d", sb, (long long)n,
             (long long)rows, (int)policy);
    bool ok = dest_check(&d, what);
    free(sblock);
    free(idx);
    return ok;
}

static void check_stitch(const kernel *k) {
    const int64_t counts[] = {0, 1, 5, 64, 301};
    for (size_t s = 0; s < COUNT_OF(SLICES); s++)
        for (size_t c = 0; c < COUNT_OF(counts); c++)
            for (size_t p = 0; p < COUNT_OF(POLICIES); p++)
                for (int64_t rows = 1; rows <= 50; rows += 7)
                    if (!stitch_case((tx__stitch_fn)k->fn, SLICES[s], counts[c], rows, POLICIES[p]))
                        return;
}

/* boolean_mask over nouter blocks of m slices; mask bytes 0, 1 and other non-zero values.
 * `room` slices fit the output (the op counted the mask once; if it has more true bytes now, the
 * kernel stops at the output's end). */
static bool mask_case(tx__mask_fn fn, size_t sb, int64_t nouter, int64_t m, unsigned density,
                      bool short_room) {
    unsigned char *sblock, *src = source((size_t)(nouter * m) * sb, 4, &sblock);
    uint8_t *mask = xmalloc((size_t)m + 1);
    int64_t kept = 0;
    for (int64_t i = 0; i < m; i++) {
        mask[i] = rnd() % 4 < density ? (uint8_t)(1 + rnd() % 255) : 0;
        kept += mask[i] != 0;
    }
    const int64_t room = short_room ? nouter * kept / 2 : nouter * kept;
    dest d = dest_new((size_t)room * sb, 5);
    unsigned char *w = d.want;
    for (int64_t o = 0; o < nouter; o++)
        for (int64_t i = 0; i < m; i++)
            if (mask[i] && w < d.want + (size_t)room * sb) {
                memcpy(w, src + (size_t)(o * m + i) * sb, sb);
                w += sb;
            }
    char *end = fn((char *)d.got, (char *)d.got + (size_t)room * sb, (const char *)src, mask,
                   nouter, m, sb);
    char what[96];
    snprintf(what, sizeof what, "slice=%zu outer=%lld m=%lld kept=%lld room=%lld", sb,
             (long long)nouter, (long long)m, (long long)kept, (long long)room);
    bool ok = true;
    if (end != (char *)d.got + (w - d.want)) {
        fail("%s: returned end %lld bytes in, want %lld", what, (long long)(end - (char *)d.got),
             (long long)(w - d.want));
        ok = false;
    }
    ok = dest_check(&d, what) && ok;
    free(sblock);
    free(mask);
    return ok;
}

static void check_mask(const kernel *k) {
    const int64_t ms[] = {0, 1, 7, 64, 333};
    for (size_t s = 0; s < COUNT_OF(SLICES); s++)
        for (size_t c = 0; c < COUNT_OF(ms); c++)
            for (unsigned density = 0; density <= 4; density++)
                for (int64_t nouter = 1; nouter <= 3; nouter++)
                    for (int short_room = 0; short_room <= 1; short_room++)
                        if (!mask_case((tx__mask_fn)k->fn, SLICES[s], nouter, ms[c], density,
                                       short_room))
                            return;
}

static void check_fill(const kernel *k) {
    for (size_t s = 0; s < COUNT_OF(SLICES); s++)
        for (int64_t count = 0; count <= 70; count++) {
            const size_t w = SLICES[s];
            unsigned char value[32];
            fill_random(value, sizeof value);
            dest d = dest_new((size_t)count * w, (size_t)count % 5);
            for (int64_t i = 0; i < count; i++) memcpy(d.want + (size_t)i * w, value, w);
            ((tx__fill_fn)k->fn)((char *)d.got, value, w, count);
            char what[64];
            snprintf(what, sizeof what, "width=%zu count=%lld", w, (long long)count);
            if (!dest_check(&d, what)) return;
        }
}

static bool one_hot_case(tx__one_hot_fn fn, tx_dtype ti, int64_t prefix, int64_t depth,
                         int64_t suffix, size_t w, tx_oob_policy policy, size_t mis) {
    const size_t iw = tx_dtype_size(ti);
    unsigned char *ix = xmalloc((size_t)(prefix * suffix) * iw + 8);
    int64_t *v = xmalloc((size_t)(prefix * suffix) * sizeof *v + 8);
    for (int64_t i = 0; i < prefix * suffix; i++) {
        int64_t x = (int64_t)(rnd() % (uint64_t)(2 * depth + 5)) - depth - 2;
        if (ti == TX_UINT8) x = (uint8_t)x;
        if (ti == TX_INT8) x = (int8_t)x;
        if (ti == TX_INT64 && rnd() % 16 == 0) x = rnd() % 2 ? INT64_MAX : INT64_MIN;
        v[i] = x;
        if (ti == TX_UINT8 || ti == TX_INT8) ix[i] = (unsigned char)x;
        else index_put(ix, iw, i, x);
    }
    unsigned char on[16], off[16];
    fill_random(on, sizeof on);
    fill_random(off, sizeof off);
    dest d = dest_new((size_t)(prefix * depth * suffix) * w, mis);
    unsigned char *o = d.want;
    for (int64_t p = 0; p < prefix; p++)
        for (int64_t dd = 0; dd < depth; dd++)
            for (int64_t s = 0; s < suffix; s++, o += w) {
                const int64_t at = naive_position(v[p * suffix + s], depth, policy);
                memcpy(o, at == dd ? on : off, w);
            }
    fn((char *)d.got, ix, ti, prefix, depth, suffix, on, off, w, policy);
    char what[128];
    snprintf(what, sizeof what,
             "indices=%s prefix=%lld depth=%lld suffix=%lld width=%zu policy=%d misaligned=%zu",
             tx_dtype_name(ti), (long long)prefix, (long long)depth, (long long)suffix, w,
             (int)policy, mis);
    bool ok = dest_check(&d, what);
    free(ix);
    free(v);
    return ok;
}

static void check_one_hot(const kernel *k) {
    const tx_dtype types[] = {TX_UINT8, TX_INT8, TX_INT32, TX_INT64};
    const size_t widths[] = {1, 2, 4, 8, 16};
    /* Rows of every length against the 64-byte lines a SIMD kernel writes: many rows per line
     * (depth 1, 3), rows across lines (17, 100). */
    const int64_t shapes[][3] = {{0, 3, 1},  {1, 1, 1},   {5, 4, 1},   {9, 17, 1},  {3, 5, 3},
                                 {2, 70, 4}, {70, 1, 1}, {301, 3, 1}, {37, 100, 1}};
    for (size_t t = 0; t < COUNT_OF(types); t++)
        for (size_t w = 0; w < COUNT_OF(widths); w++)
            for (size_t h = 0; h < COUNT_OF(shapes); h++)
                for (size_t p = 0; p < COUNT_OF(POLICIES); p++)
                    /* a destination not aligned to the element, and one aligned to it but not to
                     * a line (tensors' data: the kernels' usual case) */
                    for (size_t m = 0; m < 2; m++)
                        if (!one_hot_case((tx__one_hot_fn)k->fn, types[t], shapes[h][0],
                                          shapes[h][1], shapes[h][2], widths[w], POLICIES[p],
                                          m == 0 ? 7 : 3 * widths[w]))
                            return;
}

/* Strided element moves: every count to 40, strides of one element and more, padded. */
static void check_strided(const kernel *k, bool scatter) {
    for (size_t s = 0; s < COUNT_OF(SLICES); s++)
        for (int64_t n = 0; n <= 40; n++)
            for (int64_t mult = 1; mult <= 3; mult++)
                for (int64_t pad = 0; pad <= 5; pad += 5) {
                    const size_t w = SLICES[s];
                    const int64_t stride = mult * (int64_t)w + pad;
                    const size_t far = n > 0 ? (size_t)((n - 1) * stride) + w : 0;
                    const size_t near = (size_t)n * w;
                    unsigned char *sblock, *src = source(scatter ? near : far, 3, &sblock);
                    dest d = dest_new(scatter ? far : near, (size_t)n % 3);
                    for (int64_t i = 0; i < n; i++) {
                        const int64_t si = scatter ? i * (int64_t)w : i * stride;
                        const int64_t di = scatter ? i * stride : i * (int64_t)w;
                        memcpy(d.want + di, src + si, w);
                    }
                    ((tx__strided_fn)k->fn)((char *)d.got, (const char *)src, n, stride, w);
                    char what[64];
                    snprintf(what, sizeof what, "width=%zu n=%lld stride=%lld", w, (long long)n,
                             (long long)stride);
                    bool ok = dest_check(&d, what);
                    free(sblock);
                    if (!ok) return;
                }
}
static void check_gather_strided(const kernel *k) { check_strided(k, false); }
static void check_scatter_strided(const kernel *k) { check_strided(k, true); }

static any_fn get_gather(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->gather;
}
static any_fn get_gather_nd(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->gather_nd;
}
static any_fn get_partition(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->partition;
}
static any_fn get_stitch(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->stitch;
}
static any_fn get_mask(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->mask;
}
static any_fn get_fill(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->fill;
}
static any_fn get_one_hot(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->one_hot;
}
static any_fn get_gather_strided(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->gather_strided;
}
static any_fn get_scatter_strided(const tx__kernels *t, size_t w) {
    (void)w;
    return (any_fn)t->scatter_strided;
}

/* ---- benchmarks -------------------------------------------------------------------------------- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Calls run(arg) until about 0.1 s has passed (at least 3 times) and prints the best time. */
static void bench_row(const kernel *k, const char *size, double bytes, void (*run)(void *),
                      void *arg) {
    double best = 1e30, start = now();
    for (int it = 0; it < 3 || (now() - start < 0.1 && it < 100000); it++) {
        double t0 = now();
        run(arg);
        double t = now() - t0;
        if (t < best) best = t;
    }
    char slot[48], key[32];
    if (strcmp(key_label(k, key, sizeof key), "-") != 0)
        snprintf(slot, sizeof slot, "%s[%s]", k->slot, key);
    else snprintf(slot, sizeof slot, "%s", k->slot);
    printf("%-7s %-26s %-36s %-22s %10.2f %8.2f\n", tx_isa_level_name(k->level), slot, k->name,
           size, best * 1e6, bytes / best / 1e9);
}

typedef struct copy_args {
    const kernel *k;
    unsigned char *dst, *src;
    size_t n, w;
    int64_t runs;
} copy_args;

static void run_bulk(void *p) {
    copy_args *a = p;
    ((tx__bulk_copy_fn)a->k->fn)(a->dst, a->src, a->n);
}
static void run_runs(void *p) {
    copy_args *a = p;
    ((tx__runs_copy_fn)a->k->fn)((char *)a->dst, (const char *)a->src, a->runs,
                                 (int64_t)a->w + 64, (int64_t)a->w + 64, a->w);
}
static void run_reversed(void *p) {
    copy_args *a = p;
    int64_t n = (int64_t)(a->n / a->w);
    ((tx__reverse_fn)a->k->fn)((char *)a->dst, (const char *)a->src + (n - 1) * (int64_t)a->w, n);
}

static const size_t BENCH_BYTES[] = {(size_t)16 << 10, (size_t)1 << 20, (size_t)32 << 20};
#define NBENCH (sizeof BENCH_BYTES / sizeof *BENCH_BYTES)

static void size_name(char *buf, size_t cap, size_t bytes) {
    if (bytes >= (1u << 20)) snprintf(buf, cap, "%zu MiB", bytes >> 20);
    else snprintf(buf, cap, "%zu KiB", bytes >> 10);
}

static void bench_copy(const kernel *k, void (*run)(void *), size_t run_width) {
    for (size_t b = 0; b < NBENCH; b++) {
        const size_t n = BENCH_BYTES[b];
        copy_args a = {k, xmalloc(n + n / 2 + 64), xmalloc(n + n / 2 + 64), n, k->width ? k->width : 1, 0};
        fill_random(a.src, n + n / 2 + 64);
        memset(a.dst, 0, n + n / 2 + 64);
        char size[48];
        size_name(size, sizeof size, n);
        if (run_width) {
            a.w = run_width;
            a.runs = (int64_t)(n / run_width);
            snprintf(size + strlen(size), sizeof size - strlen(size), " (%zu B runs)", run_width);
        }
        bench_row(k, size, (double)n, run, &a);
        free(a.dst);
        free(a.src);
    }
}

static void bench_bulk_copy(const kernel *k) { bench_copy(k, run_bulk, 0); }
static void bench_copy_runs_stream(const kernel *k) {
    bench_copy(k, run_runs, 128);
    bench_copy(k, run_runs, 1000);
}
static void bench_copy_reversed(const kernel *k) { bench_copy(k, run_reversed, 0); }
static void bench_copy_reversed_stream(const kernel *k) { bench_copy(k, run_reversed, 0); }

typedef struct transpose_args {
    const kernel *k;
    unsigned char *dst, *src;
    int64_t side;
    bool stream;
} transpose_args;

static void run_transpose(void *p) {
    transpose_args *a = p;
    const int64_t rowb = a->side * (int64_t)a->k->width;
    ((tx__transpose2d_fn)a->k->fn)((char *)a->dst, (const char *)a->src, a->side, a->side, rowb,
                                   rowb, a->stream);
}

/* Square matrices of each benchmark size; streaming from TX_STREAM_MIN_BYTES, as the op does. */
static void bench_transpose2d(const kernel *k) {
    for (size_t b = 0; b < NBENCH; b++) {
        int64_t side = 1;
        while ((size_t)((side + 1) * (side + 1)) * k->width <= BENCH_BYTES[b]) side++;
        const size_t n = (size_t)(side * side) * k->width;
        transpose_args a = {k, xmalloc(n), xmalloc(n), side, (int64_t)n >= TX_STREAM_MIN_BYTES};
        fill_random(a.src, n);
        memset(a.dst, 0, n);
        char size[48];
        snprintf(size, sizeof size, "%lldx%lld%s", (long long)side, (long long)side,
                 a.stream ? " nt" : "");
        bench_row(k, size, (double)n, run_transpose, &a);
        free(a.dst);
        free(a.src);
    }
}

typedef struct probe_args {
    const kernel *k;
    probe_table t;
    uint32_t *x;
    int32_t *ids;
    int64_t n;
} probe_args;

static void run_probe(void *p) {
    probe_args *a = p;
    int64_t at = ((tx__probe32_fn)a->k->fn)(a->t.slots, a->t.bits, false, a->x, a->n, a->ids);
    if (at != a->n) fprintf(stderr, "checkasm: %s stopped at %lld of %lld\n", a->k->name, (long long)at, (long long)a->n);
}

/* 1M lookups of present keys in tables half full of random keys, from L1-sized to far past the caches. */
static void bench_probe32(const kernel *k) {
    const unsigned bits_list[] = {10, 16, 22};
    for (size_t b = 0; b < sizeof bits_list / sizeof *bits_list; b++) {
        probe_args a = {k, probe_table_new(bits_list[b], (int64_t)1 << (bits_list[b] - 1), false), NULL, NULL, 1 << 20};
        a.x = xmalloc((size_t)a.n * 4);
        a.ids = xmalloc((size_t)a.n * 4);
        for (int64_t i = 0; i < a.n; i++) a.x[i] = a.t.keys[rnd() % (uint64_t)a.t.used];
        char size[48];
        snprintf(size, sizeof size, "2^%u slots", bits_list[b]);
        bench_row(k, size, (double)a.n * 4, run_probe, &a);
        free(a.t.slots);
        free(a.t.keys);
        free(a.x);
        free(a.ids);
    }
}

typedef struct cast_args {
    const kernel *k;
    unsigned char *dst, *src;
    int64_t n;
} cast_args;

static void run_cast(void *p) {
    cast_args *a = p;
    ((tx__cast_fn)a->k->fn)(a->dst, a->src, a->n);
}

/* Outputs of each benchmark size (the rate counts input and output bytes). */
static void bench_cast_family(const kernel *k) {
    const cast_rule r = rule_of(k);
    for (size_t b = 0; b < NBENCH; b++) {
        const size_t n = BENCH_BYTES[b] / r.out;
        cast_args a = {k, xmalloc(n * r.out), xmalloc(n * r.in), (int64_t)n};
        fill_cast_input(a.src, n, r.in);
        memset(a.dst, 0, n * r.out);
        char size[48];
        size_name(size, sizeof size, BENCH_BYTES[b]);
        bench_row(k, size, (double)(n * (r.in + r.out)), run_cast, &a);
        free(a.dst);
        free(a.src);
    }
}
static void bench_cast(const kernel *k) { bench_cast_family(k); }
static void bench_cast_stream(const kernel *k) { bench_cast_family(k); }
static void bench_byteswap(const kernel *k) { bench_cast_family(k); }
static void bench_byteswap_stream(const kernel *k) { bench_cast_family(k); }

/* The gather family on each benchmark size of output: 4-byte elements (one float), int32
 * indices spread over a table as large as the output, the default policy. */
typedef struct gather_args {
    const kernel *k;
    unsigned char *dst, *src, *aux;
    int64_t n;
} gather_args;

static void run_gather_family(void *p) {
    gather_args *a = p;
    const kernel *k = a->k;
    const char *slot = k->slot;
    if (strcmp(slot, "gather") == 0)
        ((tx__gather_fn)k->fn)((char *)a->dst, (const char *)a->src, a->aux, 4, 1, 1, a->n, a->n,
                               4, TX_OOB_ERROR);
    else if (strcmp(slot, "gather_nd") == 0)
        ((tx__gather_nd_fn)k->fn)((char *)a->dst, (const char *)a->src, a->aux, 4, a->n, 1,
                                  &a->n, (const int64_t[]){4}, 4, TX_OOB_ERROR);
    else if (strcmp(slot, "stitch") == 0)
        ((tx__stitch_fn)k->fn)((char *)a->dst, (const int32_t *)(void *)a->aux, a->n,
                               (const char *)a->src, 4, a->n, TX_OOB_ERROR);
    else if (strcmp(slot, "mask") == 0)
        ((tx__mask_fn)k->fn)((char *)a->dst, (char *)a->dst + a->n * 4, (const char *)a->src,
                             a->aux, 1, a->n, 4);
    else if (strcmp(slot, "fill") == 0)
        ((tx__fill_fn)k->fn)((char *)a->dst, a->src, 4, a->n);
    else if (strcmp(slot, "one_hot") == 0) /* 256 classes: n / 256 indices */
        ((tx__one_hot_fn)k->fn)((char *)a->dst, a->aux, TX_INT32, a->n / 256, 256, 1, a->src,
                                a->src + 4, 4, TX_OOB_ERROR);
    else if (strcmp(slot, "gather_strided") == 0) /* every other element */
        ((tx__strided_fn)k->fn)((char *)a->dst, (const char *)a->src, a->n / 2, 8, 4);
    else if (strcmp(slot, "scatter_strided") == 0)
        ((tx__strided_fn)k->fn)((char *)a->dst, (const char *)a->src, a->n / 2, 8, 4);
    else { /* partition: two outputs */
        char *outs[2] = {(char *)a->dst, (char *)a->dst + a->n * 2};
        int64_t pos[2] = {0, 0}, rows[2] = {a->n / 2, a->n - a->n / 2};
        ((tx__partition_fn)k->fn)(outs, pos, rows, 2, (const int32_t *)(void *)a->aux, a->n,
                                  (const char *)a->src, 4);
    }
}

static void bench_gather_family(const kernel *k) {
    for (size_t b = 0; b < NBENCH; b++) {
        const int64_t n = (int64_t)(BENCH_BYTES[b] / 4);
        gather_args a = {k, xmalloc((size_t)n * 4 + 64), xmalloc((size_t)n * 4 + 64),
                         xmalloc((size_t)n * 4), n};
        fill_random(a.src, (size_t)n * 4 + 64);
        memset(a.dst, 0, (size_t)n * 4 + 64);
        int32_t *ix = (int32_t *)(void *)a.aux;
        const bool binary = strcmp(k->slot, "mask") == 0 || strcmp(k->slot, "partition") == 0;
        for (int64_t i = 0; i < n; i++)
            ix[i] = binary ? (int32_t)(rnd() % 2) : (int32_t)(rnd() % (uint64_t)n);
        if (strcmp(k->slot, "mask") == 0)
            for (int64_t i = 0; i < n; i++) a.aux[i] = (unsigned char)(rnd() % 2);
        if (strcmp(k->slot, "one_hot") == 0)
            for (int64_t i = 0; i < n; i++) ix[i] = (int32_t)(rnd() % 256);
        if (strcmp(k->slot, "partition") == 0) /* half each: outputs of n / 2 elements */
            for (int64_t i = 0; i < n; i++) ix[i] = (int32_t)(i % 2);
        char size[48];
        size_name(size, sizeof size, BENCH_BYTES[b]);
        bench_row(k, size, (double)n * 4, run_gather_family, &a);
        free(a.dst);
        free(a.src);
        free(a.aux);
    }
}
static void bench_gather(const kernel *k) { bench_gather_family(k); }
static void bench_gather_nd(const kernel *k) { bench_gather_family(k); }
static void bench_partition(const kernel *k) { bench_gather_family(k); }
static void bench_stitch(const kernel *k) { bench_gather_family(k); }
static void bench_mask(const kernel *k) { bench_gather_family(k); }
static void bench_fill(const kernel *k) { bench_gather_family(k); }
static void bench_one_hot(const kernel *k) { bench_gather_family(k); }
static void bench_gather_strided(const kernel *k) { bench_gather_family(k); }
static void bench_scatter_strided(const kernel *k) { bench_gather_family(k); }

/* ---- the lists ----------------------------------------------------------------------------------- */

#define TX__KERNEL(lv, slot, w, fn)                                                              \
    {TX_ISA_##lv, #slot, (w), #w, #fn, (any_fn)fn, check_##slot, bench_##slot, get_##slot},
static const kernel KERNELS[] = {
#include "kernels/copy.inc"
#include "kernels/transpose.inc"
#include "kernels/hash_probe.inc"
#include "kernels/cast.inc"
#include "kernels/gather.inc"
};
#undef TX__KERNEL
#define NKERNELS (sizeof KERNELS / sizeof *KERNELS)

/* Each level's table holds, for every slot, the kernel of the highest list level up to its own;
 * every slot has a scalar kernel (the tables start from them). */
static void check_tables(tx_isa_level have) {
    for (size_t i = 0; i < NKERNELS; i++) {
        bool scalar = false;
        for (size_t j = 0; j < NKERNELS; j++)
            scalar |= KERNELS[j].level == TX_ISA_SCALAR && KERNELS[j].width == KERNELS[i].width &&
                      strcmp(KERNELS[j].slot, KERNELS[i].slot) == 0;
        checks++;
        if (!scalar) {
            current = &KERNELS[i];
            fail("the slot has no scalar kernel in the list");
        }
    }
    for (int lv = TX_ISA_SCALAR; lv <= (int)have; lv++) {
        const tx__kernels *t = tx__kernels_at((tx_isa_level)lv);
        for (size_t i = 0; i < NKERNELS; i++) {
            const kernel *k = &KERNELS[i], *best = NULL;
            if ((int)k->level > lv) continue;
            for (size_t j = 0; j < NKERNELS; j++) {
                const kernel *o = &KERNELS[j];
                if (strcmp(o->slot, k->slot) != 0 || o->width != k->width || (int)o->level > lv) continue;
                if (o != k && o->level == k->level) {
                    current = k;
                    fail("the list has two kernels for this slot and level (also %s)", o->name);
                }
                if (!best || o->level > best->level) best = o;
            }
            checks++;
            if (best == k && k->in_table(t, k->width) != k->fn) {
                current = k;
                fail("not in the %s table", tx_isa_level_name((tx_isa_level)lv));
            }
        }
    }
}

int main(int argc, char **argv) {
    bool bench = false;
    const char *pattern = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--bench") == 0) {
            bench = true;
        } else if (argv[i][0] == '-' || pattern) {
            fprintf(stderr, "usage: checkasm [--bench] [PATTERN]\n");
            return 2;
        } else {
            pattern = argv[i];
        }
    }
    const tx_isa_level have = tx_cpu_detected_level();
    if (bench)
        printf("%-7s %-26s %-36s %-22s %10s %8s\n", "level", "slot", "kernel", "size", "best us",
               "GB/s");
    else
        check_tables(have);
    int ran = 0, skipped = 0;
    for (size_t i = 0; i < NKERNELS; i++) {
        const kernel *k = &KERNELS[i];
        if (pattern && !strstr(k->name, pattern)) continue;
        if (k->level > have) {
            skipped++;
            continue;
        }
        current = k;
        long before = failures;
        if (bench) {
            k->bench(k);
        } else {
            k->check(k);
            char key[32];
            printf("%-4s %-7s %-22s %-10s %s\n", failures == before ? "ok" : "FAIL",
                   tx_isa_level_name(k->level), k->slot, key_label(k, key, sizeof key), k->name);
        }
        ran++;
    }
    if (ran + skipped == 0) {
        fprintf(stderr, "checkasm: no kernel's name contains \"%s\"\n", pattern);
        return 2;
    }
    if (!bench)
        printf("checkasm: %d kernels checked (%ld checks), %d above this CPU's level (%s) skipped, "
               "%ld failures\n",
               ran, checks, skipped, tx_isa_level_name(have), failures);
    tx_shutdown();
    return failures ? 1 : 0;
}
