/* SPDX-License-Identifier: Apache-2.0 */
/* checkasm_gather.c -- checkasm's checks and benchmarks of the gather family
 * (kernels/gather.h): every policy, index width and slice size against naive loops, with indices
 * that change after the op's checks. */
#include "checkasm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const tx_oob_policy POLICIES[] = {TX_OOB_ERROR, TX_OOB_ZERO, TX_OOB_CLAMP, TX_OOB_WRAP};
static const size_t INDEX_WIDTHS[] = {2, 4, 8};
/* slice sizes: the fixed-size moves and the memcpy path */
static const size_t SLICES[] = {1, 2, 3, 4, 8, 12, 16, 24};

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

void check_gather(const kernel *k) {
    /* n around the vector kernels' 8 and 16 lanes too: whole vectors, masked tails */
    const int64_t shapes[][4] = {{1, 1, 0, 3}, {1, 1, 5, 1}, {2, 3, 7, 5}, {1, 4, 33, 17},
                                 {3, 2, 100, 64}, {1, 1, 1000, 999}, {1, 2, 16, 40},
                                 {2, 1, 17, 9}, {1, 3, 8, 2}, {1, 1, 63, 5000}};
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

void check_gather_nd(const kernel *k) {
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

void check_partition(const kernel *k) {
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

void check_stitch(const kernel *k) {
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
 * kernel stops at the output's end; with fewer (room 0: short, 1: exact, 2: two slices more) the
 * bytes between the kept slices' end and the output's end are the kernel's to write, the op
 * zero-fills them). */
static bool mask_case(tx__mask_fn fn, size_t sb, int64_t nouter, int64_t m, unsigned density,
                      int room_kind) {
    unsigned char *sblock, *src = source((size_t)(nouter * m) * sb, 4, &sblock);
    uint8_t *mask = xmalloc((size_t)m + 1);
    int64_t kept = 0;
    for (int64_t i = 0; i < m; i++) {
        mask[i] = rnd() % 4 < density ? (uint8_t)(1 + rnd() % 255) : 0;
        kept += mask[i] != 0;
    }
    const int64_t room = room_kind == 0 ? nouter * kept / 2 : nouter * kept + (room_kind == 2) * 2;
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
    /* what lies past the kept slices, inside the output, is not compared */
    memcpy(w, d.got + (w - d.want), (size_t)(d.want + (size_t)room * sb - w));
    ok = dest_check(&d, what) && ok;
    free(sblock);
    free(mask);
    return ok;
}

void check_mask(const kernel *k) {
    const int64_t ms[] = {0, 1, 7, 64, 333};
    for (size_t s = 0; s < COUNT_OF(SLICES); s++)
        for (size_t c = 0; c < COUNT_OF(ms); c++)
            for (unsigned density = 0; density <= 4; density++)
                for (int64_t nouter = 1; nouter <= 3; nouter++)
                    for (int room_kind = 0; room_kind <= 2; room_kind++)
                        if (!mask_case((tx__mask_fn)k->fn, SLICES[s], nouter, ms[c], density,
                                       room_kind))
                            return;
}

void check_fill(const kernel *k) {
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

void check_one_hot(const kernel *k) {
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
void check_gather_strided(const kernel *k) { check_strided(k, false); }
void check_scatter_strided(const kernel *k) { check_strided(k, true); }


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
    const tx__slot slot = k->slot;
    if (slot == TX__SLOT_gather)
        ((tx__gather_fn)k->fn)((char *)a->dst, (const char *)a->src, a->aux, 4, 1, 1, a->n, a->n,
                               4, TX_OOB_ERROR);
    else if (slot == TX__SLOT_gather_nd)
        ((tx__gather_nd_fn)k->fn)((char *)a->dst, (const char *)a->src, a->aux, 4, a->n, 1,
                                  &a->n, (const int64_t[]){4}, 4, TX_OOB_ERROR);
    else if (slot == TX__SLOT_stitch)
        ((tx__stitch_fn)k->fn)((char *)a->dst, (const int32_t *)(void *)a->aux, a->n,
                               (const char *)a->src, 4, a->n, TX_OOB_ERROR);
    else if (slot == TX__SLOT_mask)
        ((tx__mask_fn)k->fn)((char *)a->dst, (char *)a->dst + a->n * 4, (const char *)a->src,
                             a->aux, 1, a->n, 4);
    else if (slot == TX__SLOT_fill)
        ((tx__fill_fn)k->fn)((char *)a->dst, a->src, 4, a->n);
    else if (slot == TX__SLOT_one_hot) /* 256 classes: n / 256 indices */
        ((tx__one_hot_fn)k->fn)((char *)a->dst, a->aux, TX_INT32, a->n / 256, 256, 1, a->src,
                                a->src + 4, 4, TX_OOB_ERROR);
    else if (slot == TX__SLOT_gather_strided) /* every other element */
        ((tx__strided_fn)k->fn)((char *)a->dst, (const char *)a->src, a->n / 2, 8, 4);
    else if (slot == TX__SLOT_scatter_strided)
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
        const bool binary = k->slot == TX__SLOT_mask || k->slot == TX__SLOT_partition;
        for (int64_t i = 0; i < n; i++)
            ix[i] = binary ? (int32_t)(rnd() % 2) : (int32_t)(rnd() % (uint64_t)n);
        if (k->slot == TX__SLOT_mask)
            for (int64_t i = 0; i < n; i++) a.aux[i] = (unsigned char)(rnd() % 2);
        if (k->slot == TX__SLOT_one_hot)
            for (int64_t i = 0; i < n; i++) ix[i] = (int32_t)(rnd() % 256);
        if (k->slot == TX__SLOT_partition) /* half each: outputs of n / 2 elements */
            for (int64_t i = 0; i < n; i++) ix[i] = (int32_t)(i % 2);
        char size[48];
        size_name(size, sizeof size, BENCH_BYTES[b]);
        bench_row(k, size, (double)n * 4, run_gather_family, &a);
        free(a.dst);
        free(a.src);
        free(a.aux);
    }
}
void bench_gather(const kernel *k) { bench_gather_family(k); }
void bench_gather_nd(const kernel *k) { bench_gather_family(k); }
void bench_partition(const kernel *k) { bench_gather_family(k); }
void bench_stitch(const kernel *k) { bench_gather_family(k); }
void bench_mask(const kernel *k) { bench_gather_family(k); }
void bench_fill(const kernel *k) { bench_gather_family(k); }
void bench_one_hot(const kernel *k) { bench_gather_family(k); }
void bench_gather_strided(const kernel *k) { bench_gather_family(k); }
void bench_scatter_strided(const kernel *k) { bench_gather_family(k); }
