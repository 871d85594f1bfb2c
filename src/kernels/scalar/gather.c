/* SPDX-License-Identifier: Apache-2.0 */
/* gather.c -- portable loops of the gather family (see kernels/gather.h): gather, gather_nd,
 * dynamic_partition, dynamic_stitch, boolean_mask, one_hot, the fill used by one_hot and
 * sequence_mask, and the strided element moves of the spatial ops.  Each loop is instantiated per
 * moved width (1, 2, 4, 8, 16 bytes get a fixed-size move the compiler turns into one load and
 * store; any other slice size uses memcpy) and, where it reads indices, per index width (int16,
 * int32, int64) and out-of-range policy, so no hot loop branches on a dtype or a policy. */
#include "kernels/gather.h"

/* The loops below are inline functions whose width, index width and policy arguments are
 * compile-time constants at each call in the switches: the compiler makes one copy of the loop
 * per combination, with fixed-size moves and no per-element test of a dtype or a policy. */
#define KERNEL_INLINE static inline __attribute__((always_inline))

/* Calls CALL(W) with W a constant for the common widths, else the runtime size. */
#define WIDTH_SWITCH(sb, CALL)                                                                   \
    switch (sb) {                                                                                \
    case 1: CALL(1); break;                                                                      \
    case 2: CALL(2); break;                                                                      \
    case 4: CALL(4); break;                                                                      \
    case 8: CALL(8); break;                                                                      \
    case 16: CALL(16); break;                                                                    \
    default: CALL(sb); break;                                                                    \
    }

/* Index i of a signed index array of iw bytes (TF's int16, int32 and int64 Tindices). */
KERNEL_INLINE int64_t index_at(const void *ix, size_t iw, int64_t i) {
    switch (iw) {
    case 2: return ((const int16_t *)ix)[i];
    case 4: return ((const int32_t *)ix)[i];
    default: return ((const int64_t *)ix)[i];
    }
}

/* ---- gather ---------------------------------------------------------------------------------- */

typedef struct gather_job {
    char *out;
    const char *params;
    const void *indices;
    int64_t nbatch, nouter, n, dim;
} gather_job;

/* Slices of a cache line or more are random reads the hardware cannot foresee: the one
 * GATHER_AHEAD indices on is requested early (its first PREFETCH_LINES lines). */
#define GATHER_AHEAD 8
#define PREFETCH_LINES 4

KERNEL_INLINE void prefetch_slice(const char *p, size_t w) {
    for (size_t l = 0; l < w && l < PREFETCH_LINES * 64; l += 64) __builtin_prefetch(p + l);
}

KERNEL_INLINE void gather_loop(const gather_job *j, size_t iw, size_t w, tx_oob_policy policy) {
    const int64_t sb = (int64_t)w;
    char *out = j->out;
    for (int64_t b = 0; b < j->nbatch; b++) {
        for (int64_t o = 0; o < j->nouter; o++) {
            const char *p = j->params + ((b * j->nouter + o) * j->dim) * sb;
            /* Narrow slices: the next row's lines, one every `every` elements (random loads
             * leave the hardware nothing to foresee: a row not in the cache cost a miss a line,
             * 4096 x 4096 float32 along axis 1 ran 2.4x slower). */
            const int64_t lines = w < 64 && o + 1 < j->nouter ? (j->dim * sb + 63) / 64 : 0;
            const int64_t every = lines && j->n / lines > 1 ? j->n / lines : 1;
            int64_t line = 0, count = every;
            for (int64_t i = 0; i < j->n; i++, out += sb) {
                if (line < lines && --count == 0) {
                    count = every;
                    __builtin_prefetch(p + j->dim * sb + 64 * line++);
                }
                if (w >= 64 && i + GATHER_AHEAD < j->n) {
                    const int64_t ahead = tx__oob_position(
                        index_at(j->indices, iw, b * j->n + i + GATHER_AHEAD), j->dim, policy);
                    if (ahead >= 0) prefetch_slice(p + ahead * sb, w);
                }
                const int64_t v = index_at(j->indices, iw, b * j->n + i);
                const int64_t at = policy == TX_OOB_ERROR ? tx__checked_position(v, j->dim)
                                                          : tx__oob_position(v, j->dim, policy);
                if (policy == TX_OOB_ZERO && at < 0) memset(out, 0, w);
                else memcpy(out, p + at * sb, w);
            }
        }
    }
}

KERNEL_INLINE void gather_widths(const gather_job *j, size_t iw, size_t sb, tx_oob_policy policy) {
#define GATHER_AT(W) gather_loop(j, iw, (W), policy)
    WIDTH_SWITCH(sb, GATHER_AT)
#undef GATHER_AT
}

KERNEL_INLINE void gather_all(const gather_job *j, size_t iw, size_t sb, tx_oob_policy policy) {
    switch (iw) {
    case 2: gather_widths(j, 2, sb, policy); break;
    case 4: gather_widths(j, 4, sb, policy); break;
    default: gather_widths(j, 8, sb, policy); break;
    }
}

/* The policy loops are kept out of line so the default loop compiles on its own. */
static void gather_zero(const gather_job *j, size_t iw, size_t sb) {
    gather_all(j, iw, sb, TX_OOB_ZERO);
}
static void gather_clamp(const gather_job *j, size_t iw, size_t sb) {
    gather_all(j, iw, sb, TX_OOB_CLAMP);
}
static void gather_wrap(const gather_job *j, size_t iw, size_t sb) {
    gather_all(j, iw, sb, TX_OOB_WRAP);
}

void tx__gather_scalar(char *out, const char *params, const void *indices, size_t index_width,
                       int64_t nbatch, int64_t nouter, int64_t n, int64_t dim,
                       size_t slice_bytes, tx_oob_policy policy) {
    const gather_job j = {out, params, indices, nbatch, nouter, n, dim};
    switch (policy) {
    case TX_OOB_ZERO: gather_zero(&j, index_width, slice_bytes); return;
    case TX_OOB_CLAMP: gather_clamp(&j, index_width, slice_bytes); return;
    case TX_OOB_WRAP: gather_wrap(&j, index_width, slice_bytes); return;
    default: gather_all(&j, index_width, slice_bytes, TX_OOB_ERROR); return;
    }
}

/* ---- gather_nd ------------------------------------------------------------------------------- */

typedef struct gather_nd_job {
    char *out;
    const char *params;
    const void *indices;
    int64_t n;
    size_t k;
    const int64_t *dims, *strides;
} gather_nd_job;

KERNEL_INLINE void gather_nd_loop(const gather_nd_job *j, size_t iw, size_t w,
                                  tx_oob_policy policy) {
    char *out = j->out;
    const char *ix = j->indices;
    for (int64_t i = 0; i < j->n; i++, ix += j->k * iw, out += w) {
        if (w >= 64 && i + GATHER_AHEAD < j->n) { /* as in gather_loop */
            const char *ia = ix + GATHER_AHEAD * j->k * iw;
            int64_t off = 0;
            bool inside = true;
            for (size_t c = 0; c < j->k; c++) {
                const int64_t at = tx__oob_position(index_at(ia, iw, (int64_t)c), j->dims[c], policy);
                if (at < 0) inside = false;
                else off += at * j->strides[c];
            }
            if (inside) prefetch_slice(j->params + off, w);
        }
        int64_t off = 0;
        bool inside = true;
        for (size_t c = 0; c < j->k; c++) {
            const int64_t v = index_at(ix, iw, (int64_t)c);
            const int64_t at = policy == TX_OOB_ERROR ? tx__checked_position(v, j->dims[c])
                                                      : tx__oob_position(v, j->dims[c], policy);
            if (policy == TX_OOB_ZERO && at < 0) inside = false;
            else off += at * j->strides[c];
        }
        if (inside) memcpy(out, j->params + off, w);
        else memset(out, 0, w);
    }
}

KERNEL_INLINE void gather_nd_widths(const gather_nd_job *j, size_t iw, size_t sb,
                                    tx_oob_policy policy) {
#define GATHER_ND_AT(W) gather_nd_loop(j, iw, (W), policy)
    WIDTH_SWITCH(sb, GATHER_ND_AT)
#undef GATHER_ND_AT
}

KERNEL_INLINE void gather_nd_all(const gather_nd_job *j, size_t iw, size_t sb,
                                 tx_oob_policy policy) {
    switch (iw) {
    case 2: gather_nd_widths(j, 2, sb, policy); break;
    case 4: gather_nd_widths(j, 4, sb, policy); break;
    default: gather_nd_widths(j, 8, sb, policy); break;
    }
}

void tx__gather_nd_scalar(char *out, const char *params, const void *indices, size_t index_width,
                          int64_t n, size_t k, const int64_t *dims, const int64_t *strides,
                          size_t slice_bytes, tx_oob_policy policy) {
    const gather_nd_job j = {out, params, indices, n, k, dims, strides};
    switch (policy) {
    case TX_OOB_ZERO: gather_nd_all(&j, index_width, slice_bytes, TX_OOB_ZERO); return;
    case TX_OOB_CLAMP: gather_nd_all(&j, index_width, slice_bytes, TX_OOB_CLAMP); return;
    case TX_OOB_WRAP: gather_nd_all(&j, index_width, slice_bytes, TX_OOB_WRAP); return;
    default: gather_nd_all(&j, index_width, slice_bytes, TX_OOB_ERROR); return;
    }
}

/* ---- dynamic_partition / dynamic_stitch ------------------------------------------------------ */

KERNEL_INLINE void partition_loop(char *const *outs, int64_t *pos, const int64_t *rows,
                                  int64_t nparts, const int32_t *parts, int64_t n,
                                  const char *data, size_t w) {
    for (int64_t i = 0; i < n; i++) {
        const int32_t p = parts[i]; /* read once: the bounds below hold for this value */
        if ((uint64_t)(int64_t)p >= (uint64_t)nparts || pos[p] >= rows[p]) continue;
        memcpy(outs[p] + pos[p] * (int64_t)w, data + i * (int64_t)w, w);
        pos[p]++;
    }
}

void tx__partition_scalar(char *const *outs, int64_t *pos, const int64_t *rows, int64_t nparts,
                          const int32_t *parts, int64_t n, const char *data, size_t slice_bytes) {
#define PARTITION_AT(W) partition_loop(outs, pos, rows, nparts, parts, n, data, (W))
    WIDTH_SWITCH(slice_bytes, PARTITION_AT)
#undef PARTITION_AT
}

/* The op made every index < rows (rows = max + 1): negative ones go by the policy (skipped
 * under zero, row 0 under clamp, idx mod rows under wrap; none under error).  Each index is read
 * once and checked again before the write: one that changed after the op's checks is skipped. */
KERNEL_INLINE void stitch_loop(char *out, const int32_t *idx, int64_t n, const char *data,
                               size_t w, int64_t rows, tx_oob_policy policy) {
    for (int64_t i = 0; i < n; i++) {
        int64_t r = idx[i];
        if (policy != TX_OOB_ERROR && policy != TX_OOB_ZERO && r < 0)
            r = policy == TX_OOB_CLAMP ? 0 : tx__wrap_index(r, rows);
        if ((uint64_t)r >= (uint64_t)rows) continue;
        memcpy(out + r * (int64_t)w, data + i * (int64_t)w, w);
    }
}

void tx__stitch_scalar(char *out, const int32_t *idx, int64_t n, const char *data,
                       size_t slice_bytes, int64_t rows, tx_oob_policy policy) {
    if (policy == TX_OOB_ERROR) {
#define STITCH_AT(W) stitch_loop(out, idx, n, data, (W), rows, TX_OOB_ERROR)
        WIDTH_SWITCH(slice_bytes, STITCH_AT)
#undef STITCH_AT
    } else {
#define STITCH_POLICY_AT(W) stitch_loop(out, idx, n, data, (W), rows, policy)
        WIDTH_SWITCH(slice_bytes, STITCH_POLICY_AT)
#undef STITCH_POLICY_AT
    }
}

/* ---- boolean_mask ---------------------------------------------------------------------------- */

/* One block of narrow slices (w <= 16 bytes), branch-free: every slice is stored at `out` and out
 * moves past it only when its mask byte is set.  A random mask has runs of two on average, where
 * a branch per run mispredicts and a memcpy per run costs more than the bytes (a 4096x4096
 * float32 half mask lost about 55 ms that way; its whole boolean_mask now takes 12).  Each store
 * needs one slice of room: with less left, no kept slice fits either, and the block (and the
 * call) is done.  A slice stored and not kept is overwritten by the next store, or by the op's
 * zero fill after the last. */
KERNEL_INLINE char *mask_narrow(char *out, char *out_end, const char *base, const uint8_t *mask,
                                int64_t m, size_t w) {
    for (int64_t i = 0; i < m && (size_t)(out_end - out) >= w; i++) {
        memcpy(out, base + i * (int64_t)w, w);
        out += w & ((size_t)0 - (size_t)(mask[i] != 0)); /* w or 0 */
    }
    return out;
}

char *tx__mask_scalar(char *out, char *out_end, const char *src, const uint8_t *mask,
                      int64_t nouter, int64_t m, size_t slice_bytes) {
    const int64_t sb = (int64_t)slice_bytes;
    if (slice_bytes <= 16) {
        for (int64_t o = 0; o < nouter && (size_t)(out_end - out) >= slice_bytes; o++) {
#define MASK_NARROW(W) out = mask_narrow(out, out_end, src + o * m * sb, mask, m, W)
            WIDTH_SWITCH(slice_bytes, MASK_NARROW)
#undef MASK_NARROW
        }
        return out;
    }
    for (int64_t o = 0; o < nouter; o++) {
        const char *base = src + o * m * sb;
        int64_t i = 0;
        while (i < m) {
            while (i < m && !mask[i]) i++;
            int64_t start = i;
            while (i < m && mask[i]) i++;
            if (i > start) {
                /* The op sized out by counting the mask; one that changed since may want more. */
                size_t run = (size_t)((i - start) * sb), room = (size_t)(out_end - out);
                if (run > room) run = room;
                memcpy(out, base + start * sb, run);
                out += run;
                if (out == out_end) return out;
            }
        }
    }
    return out;
}

/* ---- fill and one_hot ------------------------------------------------------------------------ */

KERNEL_INLINE void fill_loop(char *dst, const void *value, size_t w, int64_t count) {
    unsigned char v[16]; /* a local copy: the stores cannot change it, so it stays in a register */
    memcpy(v, value, w);
    for (int64_t i = 0; i < count; i++) memcpy(dst + i * (int64_t)w, v, w);
}

void tx__fill_scalar(char *dst, const void *value, size_t width, int64_t count) {
    switch (width) {
    case 1: memset(dst, *(const uint8_t *)value, (size_t)count); break;
    case 2: fill_loop(dst, value, 2, count); break;
    case 4: fill_loop(dst, value, 4, count); break;
    case 8: fill_loop(dst, value, 8, count); break;
    case 16: fill_loop(dst, value, 16, count); break;
    default:
        for (int64_t i = 0; i < count; i++) memcpy(dst + i * (int64_t)width, value, width);
    }
}

typedef struct one_hot_job {
    char *out;
    const void *indices;
    int64_t prefix, depth, suffix;
    const void *on, *off;
} one_hot_job;

/* With suffix 1 (the new axis last) a row is off...off on off...off: two fills and one store.
 * Otherwise each element is a select between the two values.  Either way every output element
 * is written exactly once.  Under clamp/wrap an index is first mapped into [0, depth); error and
 * zero leave it, and an out-of-range index gives an all-off row. */
KERNEL_INLINE void one_hot_loop(const one_hot_job *j, tx_dtype ti, size_t w,
                                tx_oob_policy policy) {
    unsigned char on[16], off[16]; /* local copies stay in registers (the stores cannot alias) */
    memcpy(on, j->on, w);
    memcpy(off, j->off, w);
    const int64_t depth = j->depth, sw = (int64_t)w;
    const tx_oob_policy map = policy == TX_OOB_CLAMP || policy == TX_OOB_WRAP ? policy
                                                                              : TX_OOB_ERROR;
    char *o = j->out;
    if (j->suffix == 1) {
        for (int64_t p = 0; p < j->prefix; p++, o += depth * sw) {
            const int64_t v = tx__oob_position(tx__one_hot_index(j->indices, ti, p), depth, map);
            if (v >= 0 && v < depth) {
                for (int64_t d = 0; d < v; d++) memcpy(o + d * sw, off, w);
                memcpy(o + v * sw, on, w);
                for (int64_t d = v + 1; d < depth; d++) memcpy(o + d * sw, off, w);
            } else {
                for (int64_t d = 0; d < depth; d++) memcpy(o + d * sw, off, w);
            }
        }
        return;
    }
    for (int64_t p = 0; p < j->prefix; p++)
        for (int64_t d = 0; d < depth; d++)
            for (int64_t s = 0; s < j->suffix; s++, o += sw) {
                const int64_t v = tx__one_hot_index(j->indices, ti, p * j->suffix + s);
                memcpy(o, tx__oob_position(v, depth, map) == d ? on : off, w);
            }
}

KERNEL_INLINE void one_hot_types(const one_hot_job *j, tx_dtype ti, size_t w,
                                 tx_oob_policy policy) {
    switch (ti) {
    case TX_UINT8: one_hot_loop(j, TX_UINT8, w, policy); break;
    case TX_INT8: one_hot_loop(j, TX_INT8, w, policy); break;
    case TX_INT32: one_hot_loop(j, TX_INT32, w, policy); break;
    default: one_hot_loop(j, TX_INT64, w, policy); break;
    }
}

KERNEL_INLINE void one_hot_widths(const one_hot_job *j, tx_dtype ti, size_t width,
                                  tx_oob_policy policy) {
    switch (width) {
    case 1: one_hot_types(j, ti, 1, policy); break;
    case 2: one_hot_types(j, ti, 2, policy); break;
    case 4: one_hot_types(j, ti, 4, policy); break;
    case 8: one_hot_types(j, ti, 8, policy); break;
    default: one_hot_types(j, ti, 16, policy); break;
    }
}

void tx__one_hot_scalar(char *out, const void *indices, tx_dtype ti, int64_t prefix, int64_t depth,
                        int64_t suffix, const void *on, const void *off, size_t width,
                        tx_oob_policy policy) {
    const one_hot_job j = {out, indices, prefix, depth, suffix, on, off};
    if (policy == TX_OOB_CLAMP) one_hot_widths(&j, ti, width, TX_OOB_CLAMP);
    else if (policy == TX_OOB_WRAP) one_hot_widths(&j, ti, width, TX_OOB_WRAP);
    else one_hot_widths(&j, ti, width, TX_OOB_ERROR);
}

/* ---- strided element moves (space/depth NCHW, extract_image_patches) ------------------------- */

/* The element width is a constant at each call in the switches below. */
KERNEL_INLINE void strided_loop(char *dst, const char *src, int64_t n, int64_t dst_step,
                                int64_t src_step, size_t w) {
    for (int64_t k = 0; k < n; k++) memcpy(dst + k * dst_step, src + k * src_step, w);
}

void tx__gather_strided_scalar(char *dst, const char *src, int64_t n, int64_t stride,
                               size_t width) {
#define GATHER_STRIDED_AT(W) strided_loop(dst, src, n, (int64_t)(W), stride, (W))
    WIDTH_SWITCH(width, GATHER_STRIDED_AT)
#undef GATHER_STRIDED_AT
}

void tx__scatter_strided_scalar(char *dst, const char *src, int64_t n, int64_t stride,
                                size_t width) {
#define SCATTER_STRIDED_AT(W) strided_loop(dst, src, n, stride, (int64_t)(W), (W))
    WIDTH_SWITCH(width, SCATTER_STRIDED_AT)
#undef SCATTER_STRIDED_AT
}
