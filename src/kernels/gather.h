/* SPDX-License-Identifier: Apache-2.0 */
/* gather.h -- the gather family: the loops of gather, gather_nd, dynamic_partition,
 * dynamic_stitch, boolean_mask, one_hot and sequence_mask, and the strided element moves of the
 * space/depth family and extract_image_patches (exec/spatial.c): pure data movement over raw
 * memory, keyed by the byte width of the moved unit (a slice of 1, 2, 4, 8, 16 bytes gets a
 * fixed-size move, any other size a memcpy).  One line per kernel in kernels/gather.inc, which the
 * CPU dispatch puts in its tables (portable, and one_hot and gather for AVX-512 too).  No validation and no allocation here: the
 * ops in src/ops/{gather,partition,encode,spatial}.c have checked every index and size before
 * calling. */
#ifndef TX_KERNELS_GATHER_H
#define TX_KERNELS_GATHER_H

#include "core/internal.h"

/* gather: out is [nbatch, nouter, n, slice], params [nbatch, nouter, dim, slice], indices
 * [nbatch, n] (signed integers of index_width bytes: 2, 4 or 8, TF's int16/int32/int64
 * Tindices), slice `slice_bytes` bytes.  Under TX_OOB_ERROR every
 * index is in [0, dim) (checked by the op); under zero an out-of-range index writes a zero slice;
 * under clamp/wrap dim > 0 and the index is mapped.  The policy picks a loop once, outside the
 * copy loops, so the default loop has no per-index test. */
typedef void tx__gather_ft(char *out, const char *params, const void *indices, size_t index_width,
                           int64_t nbatch, int64_t nouter, int64_t n, int64_t dim,
                           size_t slice_bytes, tx_oob_policy policy);

/* gather_nd: out[i] = params + sum_j indices[i*k + j] * strides[j] (strides in bytes), each a
 * slice of `slice_bytes` bytes, for i < n; indices are signed integers of index_width bytes.
 * dims[j] is params' dim j.  Under TX_OOB_ERROR every index vector is in bounds; under zero a
 * vector with a component outside [0, dims[j]) writes a zero slice; under clamp/wrap every
 * dims[j] > 0 and each component is mapped. */
typedef void tx__gather_nd_ft(char *out, const char *params, const void *indices,
                              size_t index_width, int64_t n, size_t k, const int64_t *dims,
                              const int64_t *strides, size_t slice_bytes, tx_oob_policy policy);

/* dynamic_partition: slice i of `data` goes to outs[parts[i]] at row pos[parts[i]]++, while
 * that row is below rows[parts[i]]; an id outside [0, nparts) or past its output's rows (ids
 * that changed after the op counted them) moves nothing, and the row stays as it was. */
typedef void tx__partition_ft(char *const *outs, int64_t *pos, const int64_t *rows,
                              int64_t nparts, const int32_t *parts, int64_t n, const char *data,
                              size_t slice_bytes);

/* dynamic_stitch: row idx[i] of out receives slice i of data, in order (later wins).  The op
 * made every index < rows; a negative one is skipped (zero, error), sent to row 0 (clamp) or to
 * idx mod rows (wrap).  An index at or past rows (one that changed after the op took the max) is
 * skipped under every policy. */
typedef void tx__stitch_ft(char *out, const int32_t *idx, int64_t n, const char *data,
                           size_t slice_bytes, int64_t rows, tx_oob_policy policy);

/* boolean_mask: for each of nouter blocks of m slices, appends the slices whose mask byte is
 * non-zero to out, never past out_end (a mask that gained true bytes after the op counted them
 * stops there).  Returns the end of the kept slices; the bytes from there to out_end may have been
 * written too (narrow slices are stored before their mask byte decides; the op zero-fills that
 * part, which a mask that lost true bytes leaves). */
typedef char *tx__mask_ft(char *out, char *out_end, const char *src, const uint8_t *mask,
                          int64_t nouter, int64_t m, size_t slice_bytes);

/* Writes `count` copies of the `width`-byte value at `value` to dst. */
typedef void tx__fill_ft(char *dst, const void *value, size_t width, int64_t count);

/* one_hot: out is [prefix, depth, suffix] elements of `width` bytes; element (p, d, s) is *on when
 * indices[p*suffix + s] == d, else *off.  ti is the index dtype (uint8, int8, int32, int64).
 * Under clamp/wrap an index outside [0, depth) is first mapped into it (depth > 0); error and
 * zero leave it, giving an all-off row. */
typedef void tx__one_hot_ft(char *out, const void *indices, tx_dtype ti, int64_t prefix,
                            int64_t depth, int64_t suffix, const void *on, const void *off,
                            size_t width, tx_oob_policy policy);

/* n elements of `width` bytes from src, elements `stride` bytes apart, to contiguous dst
 * (gather_strided), or from contiguous src to dst elements `stride` bytes apart
 * (scatter_strided).  The regions do not overlap. */
typedef void tx__gather_strided_ft(char *dst, const char *src, int64_t n, int64_t stride,
                                   size_t width);
typedef tx__gather_strided_ft tx__scatter_strided_ft;

typedef tx__gather_ft *tx__gather_fn;
typedef tx__gather_nd_ft *tx__gather_nd_fn;
typedef tx__partition_ft *tx__partition_fn;
typedef tx__stitch_ft *tx__stitch_fn;
typedef tx__mask_ft *tx__mask_fn;
typedef tx__fill_ft *tx__fill_fn;
typedef tx__one_hot_ft *tx__one_hot_fn;
typedef tx__gather_strided_ft *tx__strided_fn;

/* Where index v reads in [0, dim) under a policy: the mapped position under clamp/wrap, v itself
 * when it is in range, else -1 (a zero slice, or one_hot's all-off row). */
static inline int64_t tx__oob_position(int64_t v, int64_t dim, tx_oob_policy policy) {
    switch (policy) {
    case TX_OOB_ZERO: return (uint64_t)v < (uint64_t)dim ? v : -1;
    case TX_OOB_CLAMP: return tx__clamp_index(v, dim);
    case TX_OOB_WRAP: return (uint64_t)v < (uint64_t)dim ? v : tx__wrap_index(v, dim);
    default: return (uint64_t)v < (uint64_t)dim ? v : -1;
    }
}

/* Where a gather reads index v under the error policy.  The op has checked every index, yet it
 * is checked again here: an input that another thread or process writes can change between the
 * op's check and this read (docs/reliability.md, "Inputs that change while an op runs"), and a
 * changed index must read a wrong row (row 0; dim > 0 whenever an index is read), never outside
 * params.  A select, not a branch: the default loop stays as fast as it was. */
static inline int64_t tx__checked_position(int64_t v, int64_t dim) {
    return (uint64_t)v < (uint64_t)dim ? v : 0;
}

/* Index i of one_hot's indices (uint8, int8, int32 or int64). */
static inline int64_t tx__one_hot_index(const void *ix, tx_dtype ti, int64_t i) {
    return tx__int_at(ix, ti, i);
}

/* The kernels: one line each in kernels/gather.inc. */
#define TX__KERNEL(level, slot, key, fn) TX_HIDDEN tx__##slot##_ft fn;
#include "kernels/gather.inc"
#undef TX__KERNEL

#endif
