/* SPDX-License-Identifier: Apache-2.0 */
/* gather.c -- portable loops of the gather family (see kernels/gather.h): gather, gather_nd,
 * dynamic_partition, dynamic_stitch, boolean_mask, one_hot, the fill used by one_hot and
 * sequence_mask, and the strided element moves of the spatial ops.  Each loop is instantiated per
 * moved width (1, 2, 4, 8, 16 bytes get a fixed-size move the compiler turns into one load and
 * store; any other slice size uses memcpy) and, where it reads indices, per index width (int16,
 * int32, int64) and out-of-range policy, so no hot loop branches on a dtype or a policy. */
#include "kernels/gather.h"

typedef struct {
    uint64_t a, b;
} u128;

/* Expands BODY(W) with W a compile-time constant for the common widths, else the runtime size. */
#define WIDTH_SWITCH(sb, BODY)                                                                   \
    switch (sb) {                                                                                \
    case 1: BODY(1); break;                                                                      \
    case 2: BODY(2); break;                                                                      \
    case 4: BODY(4); break;                                                                      \
    case 8: BODY(8); break;                                                                      \
    case 16: BODY(16); break;                                                                    \
    default: BODY(sb); break;                                                                    \
    }

/* Expands LOOP(IT, W, HOW) with IT the signed index type of `iw` bytes (TF's int16, int32 and
 * int64 Tindices) and W as WIDTH_SWITCH gives it: one instantiation per index width and slice
 * width, so no loop reads its indices through a per-element switch. */
#define INDEX_LOOP_W(LOOP, IT, sb, HOW)                                                          \
    switch (sb) {                                                                                \
    case 1: LOOP(IT, 1, HOW); break;                                                             \
    case 2: LOOP(IT, 2, HOW); break;                                                             \
    case 4: LOOP(IT, 4, HOW); break;                                                             \
    case 8: LOOP(IT, 8, HOW); break;                                                             \
    case 16: LOOP(IT, 16, HOW); break;                                                           \
    default: LOOP(IT, sb, HOW); break;                                                           \
    }
#define INDEX_SWITCH(iw, sb, LOOP, HOW)                                                          \
    switch (iw) {                                                                                \
    case 2: INDEX_LOOP_W(LOOP, int16_t, sb, HOW) break;                                          \
    case 4: INDEX_LOOP_W(LOOP, int32_t, sb, HOW) break;                                          \
    default: INDEX_LOOP_W(LOOP, int64_t, sb, HOW) break;                                         \
    }

/* ---- gather ---------------------------------------------------------------------------------- */

/* How one index v fetches its slice into `out`, per policy.  p is the [dim, slice] block. */
#define FETCH_PLAIN(v, W) memcpy(out, p + (v) * sb_, (W))
#define FETCH_ZERO(v, W)                                                                         \
    do {                                                                                         \
        if ((uint64_t)(v) < (uint64_t)dim) memcpy(out, p + (v) * sb_, (W));                      \
        else memset(out, 0, (W));                                                                \
    } while (0)
#define FETCH_CLAMP(v, W) memcpy(out, p + tx__clamp_index((v), dim) * sb_, (W))
#define FETCH_WRAP(v, W)                                                                         \
    memcpy(out, p + ((uint64_t)(v) < (uint64_t)dim ? (v) : tx__wrap_index((v), dim)) * sb_, (W))

#define GATHER_LOOP(IT, W, FETCH)                                                                \
    do {                                                                                         \
        const int64_t sb_ = (int64_t)(W);                                                        \
        for (int64_t b = 0; b < nbatch; b++) {                                                   \
            const IT *ix = (const IT *)indices + b * n;                                          \
            for (int64_t o = 0; o < nouter; o++) {                                               \
                const char *p = params + ((b * nouter + o) * dim) * sb_;                         \
                for (int64_t i = 0; i < n; i++) {                                                \
                    const int64_t v_ = (int64_t)ix[i];                                           \
                    FETCH(v_, W);                                                                \
                    out += sb_;                                                                  \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
    } while (0)

/* The policy loops are kept out of line so the default loop compiles exactly as before. */
static void gather_zero(char *out, const char *params, const void *indices, size_t index_width,
                        int64_t nbatch, int64_t nouter, int64_t n, int64_t dim, size_t slice_bytes) {
    INDEX_SWITCH(index_width, slice_bytes, GATHER_LOOP, FETCH_ZERO)
}

static void gather_clamp(char *out, const char *params, const void *indices, size_t index_width,
                         int64_t nbatch, int64_t nouter, int64_t n, int64_t dim,
                         size_t slice_bytes) {
    INDEX_SWITCH(index_width, slice_bytes, GATHER_LOOP, FETCH_CLAMP)
}

static void gather_wrap(char *out, const char *params, const void *indices, size_t index_width,
                        int64_t nbatch, int64_t nouter, int64_t n, int64_t dim, size_t slice_bytes) {
    INDEX_SWITCH(index_width, slice_bytes, GATHER_LOOP, FETCH_WRAP)
}

void tx__gather_scalar(char *out, const char *params, const void *indices, size_t index_width,
                       int64_t nbatch, int64_t nouter, int64_t n, int64_t dim,
                       size_t slice_bytes, tx_oob_policy policy) {
    switch (policy) {
    case TX_OOB_ZERO:
        gather_zero(out, params, indices, index_width, nbatch, nouter, n, dim, slice_bytes);
        return;
    case TX_OOB_CLAMP:
        gather_clamp(out, params, indices, index_width, nbatch, nouter, n, dim, slice_bytes);
        return;
    case TX_OOB_WRAP:
        gather_wrap(out, params, indices, index_width, nbatch, nouter, n, dim, slice_bytes);
        return;
    default:
        break;
    }
    INDEX_SWITCH(index_width, slice_bytes, GATHER_LOOP, FETCH_PLAIN)
}

/* ---- gather_nd ------------------------------------------------------------------------------- */

/* How component v of index vector entry j adds to `off`, per policy; ZERO clears ok_ instead. */
#define ND_PLAIN(v, j) off += (v) * strides[j]
#define ND_ZERO(v, j)                                                                            \
    do {                                                                                         \
        if ((uint64_t)(v) < (uint64_t)dims[j]) off += (v) * strides[j];                          \
        else ok_ = false;                                                                        \
    } while (0)
#define ND_CLAMP(v, j) off += tx__clamp_index((v), dims[j]) * strides[j]
#define ND_WRAP(v, j)                                                                            \
    off += ((uint64_t)(v) < (uint64_t)dims[j] ? (v) : tx__wrap_index((v), dims[j])) * strides[j]

#define GATHER_ND_LOOP(IT, W, ADD)                                                               \
    do {                                                                                         \
        const IT *ix = (const IT *)indices;                                                      \
        for (int64_t i = 0; i < n; i++, ix += k) {                                               \
            int64_t off = 0;                                                                     \
            bool ok_ = true;                                                                     \
            for (size_t j = 0; j < k; j++) {                                                     \
                const int64_t v_ = (int64_t)ix[j];                                               \
                ADD(v_, j);                                                                      \
            }                                                                                    \
            if (ok_) memcpy(out, params + off, (W));                                             \
            else memset(out, 0, (W));                                                            \
            out += (W);                                                                          \
        }                                                                                        \
    } while (0)

void tx__gather_nd_scalar(char *out, const char *params, const void *indices, size_t index_width,
                          int64_t n, size_t k, const int64_t *dims, const int64_t *strides,
                          size_t slice_bytes, tx_oob_policy policy) {
    switch (policy) {
    case TX_OOB_ZERO: INDEX_SWITCH(index_width, slice_bytes, GATHER_ND_LOOP, ND_ZERO) return;
    case TX_OOB_CLAMP: INDEX_SWITCH(index_width, slice_bytes, GATHER_ND_LOOP, ND_CLAMP) return;
    case TX_OOB_WRAP: INDEX_SWITCH(index_width, slice_bytes, GATHER_ND_LOOP, ND_WRAP) return;
    default: break;
    }
    INDEX_SWITCH(index_width, slice_bytes, GATHER_ND_LOOP, ND_PLAIN)
}

/* ---- dynamic_partition / dynamic_stitch ------------------------------------------------------ */

#define PARTITION_LOOP(W)                                                                        \
    for (int64_t i = 0; i < n; i++) {                                                            \
        int32_t p = parts[i];                                                                    \
        memcpy(outs[p] + pos[p] * (int64_t)(W), data + i * (int64_t)(W), (W));                   \
        pos[p]++;                                                                                \
    }

void tx__partition_scalar(char *const *outs, int64_t *pos, const int32_t *parts, int64_t n,
                          const char *data, size_t slice_bytes) {
    WIDTH_SWITCH(slice_bytes, PARTITION_LOOP)
}

#define STITCH_LOOP(W)                                                                           \
    for (int64_t i = 0; i < n; i++)                                                              \
        memcpy(out + (int64_t)idx[i] * (int64_t)(W), data + i * (int64_t)(W), (W));

/* Negative indices only: every index is < rows by construction (rows = max + 1). */
#define STITCH_POLICY_LOOP(W)                                                                    \
    for (int64_t i = 0; i < n; i++) {                                                            \
        int64_t r = idx[i];                                                                      \
        if (r < 0) {                                                                             \
            if (policy == TX_OOB_ZERO) continue;                                                 \
            r = policy == TX_OOB_CLAMP ? 0 : tx__wrap_index(r, rows);                            \
        }                                                                                        \
        memcpy(out + r * (int64_t)(W), data + i * (int64_t)(W), (W));                           \
    }

void tx__stitch_scalar(char *out, const int32_t *idx, int64_t n, const char *data,
                       size_t slice_bytes, int64_t rows, tx_oob_policy policy) {
    if (policy == TX_OOB_ERROR) {
        WIDTH_SWITCH(slice_bytes, STITCH_LOOP)
    } else {
        WIDTH_SWITCH(slice_bytes, STITCH_POLICY_LOOP)
    }
}

/* ---- boolean_mask ---------------------------------------------------------------------------- */

char *tx__mask_scalar(char *out, const char *src, const uint8_t *mask, int64_t nouter, int64_t m,
                      size_t slice_bytes) {
    const int64_t sb = (int64_t)slice_bytes;
    for (int64_t o = 0; o < nouter; o++) {
        const char *base = src + o * m * sb;
        int64_t i = 0;
        while (i < m) {
            while (i < m && !mask[i]) i++;
            int64_t start = i;
            while (i < m && mask[i]) i++;
            if (i > start) {
                memcpy(out, base + start * sb, (size_t)((i - start) * sb));
                out += (i - start) * sb;
            }
        }
    }
    return out;
}

/* ---- fill and one_hot ------------------------------------------------------------------------ */

#define FILL_LOOP(T)                                                                             \
    do {                                                                                         \
        T v_;                                                                                    \
        memcpy(&v_, value, sizeof v_);                                                           \
        for (int64_t i = 0; i < count; i++) memcpy(dst + i * (int64_t)sizeof v_, &v_, sizeof v_); \
    } while (0)

void tx__fill_scalar(char *dst, const void *value, size_t width, int64_t count) {
    switch (width) {
    case 1: memset(dst, *(const uint8_t *)value, (size_t)count); break;
    case 2: FILL_LOOP(uint16_t); break;
    case 4: FILL_LOOP(uint32_t); break;
    case 8: FILL_LOOP(uint64_t); break;
    case 16: FILL_LOOP(u128); break;
    default:
        for (int64_t i = 0; i < count; i++) memcpy(dst + i * (int64_t)width, value, width);
    }
}

/* With suffix 1 (the new axis last) a row is off...off on off...off: two fills and one store.
 * Otherwise each element is a select between the two values.  Either way every output element
 * is written exactly once.  MAP turns a raw index into the hot position (identity for the error
 * and zero policies, whose out-of-range rows stay all off). */
#define MAP_NONE(v) (v)
#define MAP_CLAMP(v) tx__clamp_index((v), depth)
#define MAP_WRAP(v) ((uint64_t)(v) < (uint64_t)depth ? (v) : tx__wrap_index((v), depth))

#define ONE_HOT_LOOP(TI, T, MAP)                                                                 \
    do {                                                                                         \
        const TI *ix = (const TI *)indices;                                                      \
        T on_, off_;                                                                             \
        memcpy(&on_, on, sizeof on_);                                                            \
        memcpy(&off_, off, sizeof off_);                                                         \
        const int64_t w_ = (int64_t)sizeof(T);                                                   \
        char *o = out;                                                                           \
        if (suffix == 1) {                                                                       \
            for (int64_t p = 0; p < prefix; p++) {                                               \
                const int64_t raw_ = (int64_t)ix[p];                                             \
                int64_t v = MAP(raw_);                                                           \
                if (v >= 0 && v < depth) {                                                       \
                    for (int64_t d = 0; d < v; d++) memcpy(o + d * w_, &off_, sizeof off_);      \
                    memcpy(o + v * w_, &on_, sizeof on_);                                        \
                    for (int64_t d = v + 1; d < depth; d++) memcpy(o + d * w_, &off_, sizeof off_); \
                } else {                                                                         \
                    for (int64_t d = 0; d < depth; d++) memcpy(o + d * w_, &off_, sizeof off_);  \
                }                                                                                \
                o += depth * w_;                                                                 \
            }                                                                                    \
        } else {                                                                                 \
            for (int64_t p = 0; p < prefix; p++, ix += suffix)                                   \
                for (int64_t d = 0; d < depth; d++)                                              \
                    for (int64_t s = 0; s < suffix; s++, o += w_) {                              \
                        const int64_t raw_ = (int64_t)ix[s];                                     \
                        memcpy(o, MAP(raw_) == d ? &on_ : &off_, sizeof on_);                    \
                    }                                                                            \
        }                                                                                        \
    } while (0)

#define ONE_HOT_TI(T, MAP)                                                                       \
    do {                                                                                         \
        switch (ti) {                                                                            \
        case TX_UINT8: ONE_HOT_LOOP(uint8_t, T, MAP); break;                                     \
        case TX_INT8: ONE_HOT_LOOP(int8_t, T, MAP); break;                                       \
        case TX_INT32: ONE_HOT_LOOP(int32_t, T, MAP); break;                                     \
        default: ONE_HOT_LOOP(int64_t, T, MAP); break;                                           \
        }                                                                                        \
    } while (0)

#define ONE_HOT_WIDTH(MAP)                                                                       \
    do {                                                                                         \
        switch (width) {                                                                         \
        case 1: ONE_HOT_TI(uint8_t, MAP); break;                                                 \
        case 2: ONE_HOT_TI(uint16_t, MAP); break;                                                \
        case 4: ONE_HOT_TI(uint32_t, MAP); break;                                                \
        case 8: ONE_HOT_TI(uint64_t, MAP); break;                                                \
        default: ONE_HOT_TI(u128, MAP); break;                                                   \
        }                                                                                        \
    } while (0)

void tx__one_hot_scalar(char *out, const void *indices, tx_dtype ti, int64_t prefix, int64_t depth,
                        int64_t suffix, const void *on, const void *off, size_t width,
                        tx_oob_policy policy) {
    if (policy == TX_OOB_CLAMP) ONE_HOT_WIDTH(MAP_CLAMP);
    else if (policy == TX_OOB_WRAP) ONE_HOT_WIDTH(MAP_WRAP);
    else ONE_HOT_WIDTH(MAP_NONE);
}

/* ---- strided element moves (space/depth NCHW, extract_image_patches) ------------------------- */

#define GATHER_STRIDED_LOOP(T)                                                                   \
    for (int64_t k = 0; k < n; k++) {                                                            \
        T v;                                                                                     \
        memcpy(&v, src + k * stride, sizeof v);                                                  \
        memcpy(dst + k * (int64_t)sizeof v, &v, sizeof v);                                       \
    }

void tx__gather_strided_scalar(char *dst, const char *src, int64_t n, int64_t stride,
                               size_t width) {
    switch (width) {
    case 1: GATHER_STRIDED_LOOP(uint8_t); break;
    case 2: GATHER_STRIDED_LOOP(uint16_t); break;
    case 4: GATHER_STRIDED_LOOP(uint32_t); break;
    case 8: GATHER_STRIDED_LOOP(uint64_t); break;
    case 16: GATHER_STRIDED_LOOP(u128); break;
    default:
        for (int64_t k = 0; k < n; k++) memcpy(dst + k * (int64_t)width, src + k * stride, width);
    }
}

#define SCATTER_STRIDED_LOOP(T)                                                                  \
    for (int64_t k = 0; k < n; k++) {                                                            \
        T v;                                                                                     \
        memcpy(&v, src + k * (int64_t)sizeof v, sizeof v);                                       \
        memcpy(dst + k * stride, &v, sizeof v);                                                  \
    }

void tx__scatter_strided_scalar(char *dst, const char *src, int64_t n, int64_t stride,
                                size_t width) {
    switch (width) {
    case 1: SCATTER_STRIDED_LOOP(uint8_t); break;
    case 2: SCATTER_STRIDED_LOOP(uint16_t); break;
    case 4: SCATTER_STRIDED_LOOP(uint32_t); break;
    case 8: SCATTER_STRIDED_LOOP(uint64_t); break;
    case 16: SCATTER_STRIDED_LOOP(u128); break;
    default:
        for (int64_t k = 0; k < n; k++) memcpy(dst + k * stride, src + k * (int64_t)width, width);
    }
}
