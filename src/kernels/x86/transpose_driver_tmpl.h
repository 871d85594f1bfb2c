/* SPDX-License-Identifier: Apache-2.0 */
/* transpose_driver_tmpl.h -- the driver of one SIMD 2-D transpose kernel (kernels/transpose.h):
 * how a plane is cut into tiles, narrow paths, streaming and edges (see x86/transpose_x86.h).
 * Included by x86/avx2/transpose.c and x86/avx512/transpose.c once per kernel.  No include guard:
 * every inclusion defines one kernel.  The includer defines:
 *     DRV_NAME       the kernel's name (a tx__transpose2d_ft), e.g. tx__transpose2d_w1_avx2; its
 *                    static helpers are DRV_NAME_bands and DRV_NAME_buffered
 *     DRV_W          the element width in bytes
 *     DRV_VR, DRV_VC the main tile's source rows and columns (DRV_VR * DRV_W == 64: a tile writes
 *                    one whole line of each of its destination rows)
 *     DRV_TILE       the main tile (void (char *d, const char *s, int64_t ss, int64_t ds,
 *                    bool nt); nt: streaming stores, d is then line-aligned)
 *     DRV_VR2, DRV_VC2, DRV_TILE2   the small tile, for the rows below the last band of DRV_VR
 *                    and the columns right of the last main tile (plain stores)
 *     DRV_NCOLS, DRV_NROWS   the narrow paths (tp_narrow_fn), or NULL for none
 *     DRV_UNALIGNED  a streaming kernel for destination rows that are not line-aligned (the
 *                    kernel's arguments without `stream`), or NULL for the buffered path
 * and this file #undefs them at its end.  It uses x86/transpose_x86.h's tp_edge, tp_stream_row,
 * tp_narrow_fn, TP_CAT, TP_NARROW_MAX, TP_BUF_BYTES and TP_BUF_COLS. */

#define DRV_FN(suffix) TP_CAT(DRV_NAME, suffix) /* DRV_FN(_bands): tx__transpose2d_w1_avx2_bands */

static void DRV_FN(_bands)(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                           int64_t ds, bool nt) {
    const int64_t rb = rows - rows % (DRV_VR), cb = cols - cols % (DRV_VC),
                  cb2 = cols - cols % (DRV_VC2);
    int64_t r = 0;
    for (; r < rb; r += (DRV_VR)) {
        const char *s = src + r * ss;
        char *d = dst + r * (DRV_W);
        for (int64_t c = 0; c < cb; c += (DRV_VC), s += (DRV_VC) * (DRV_W), d += (DRV_VC) * ds)
            DRV_TILE(d, s, ss, ds, nt);
        /* the columns right of the last tile: small tiles, then scalar */
        for (int64_t rr = 0; rr < (DRV_VR); rr += (DRV_VR2)) {
            const char *s2 = s + rr * ss;
            char *d2 = d + rr * (DRV_W);
            for (int64_t c = cb; c < cb2;
                 c += (DRV_VC2), s2 += (DRV_VC2) * (DRV_W), d2 += (DRV_VC2) * ds)
                DRV_TILE2(d2, s2, ss, ds, false);
            tp_edge(d2, s2, (DRV_VR2), cols - cb2, ss, ds, (DRV_W));
        }
    }
    const int64_t rb2 = r + (rows - r) / (DRV_VR2) * (DRV_VR2);
    for (; r < rb2; r += (DRV_VR2)) {
        const char *s = src + r * ss;
        char *d = dst + r * (DRV_W);
        for (int64_t c = 0; c < cb2; c += (DRV_VC2), s += (DRV_VC2) * (DRV_W), d += (DRV_VC2) * ds)
            DRV_TILE2(d, s, ss, ds, false);
        tp_edge(d, s, (DRV_VR2), cols - cb2, ss, ds, (DRV_W));
    }
    tp_edge(dst + r * (DRV_W), src + r * ss, rows - r, cols, ss, ds, (DRV_W));
}

/* Streaming when destination lines do not line up with the tiles: blocks of TP_BUF_BYTES / W
 * rows by TP_BUF_COLS columns are transposed into a buffer in L1, and each buffer row goes to its
 * destination row with streaming stores for its whole lines. */
static void DRV_FN(_buffered)(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                              int64_t ds) {
    _Alignas(64) char buf[TP_BUF_COLS * TP_BUF_BYTES];
    const int64_t br = TP_BUF_BYTES / (DRV_W);
    for (int64_t r0 = 0; r0 < rows; r0 += br) {
        const int64_t rn = rows - r0 < br ? rows - r0 : br;
        for (int64_t c0 = 0; c0 < cols; c0 += TP_BUF_COLS) {
            const int64_t cn = cols - c0 < TP_BUF_COLS ? cols - c0 : TP_BUF_COLS;
            DRV_FN(_bands)(buf, src + r0 * ss + c0 * (DRV_W), rn, cn, ss, TP_BUF_BYTES, false);
            for (int64_t c = 0; c < cn; c++)
                tp_stream_row(dst + (c0 + c) * ds + r0 * (DRV_W), buf + c * TP_BUF_BYTES,
                              rn * (DRV_W));
        }
    }
    _mm_sfence();
}

void DRV_NAME(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss, int64_t ds,
              bool stream) {
    if (rows <= 0 || cols <= 0) return;
    const tp_narrow_fn ncols = DRV_NCOLS, nrows = DRV_NROWS;
    if (ncols && cols < (DRV_VC) && cols <= TP_NARROW_MAX && ss == cols * (DRV_W)) {
        ncols(dst, src, rows, cols, ss, ds, stream);
        return;
    }
    if (nrows && rows < (DRV_VR) && rows <= TP_NARROW_MAX && ds == rows * (DRV_W)) {
        nrows(dst, src, rows, cols, ss, ds, stream);
        return;
    }
    /* Streaming stores need every tile's lines aligned: destination rows a multiple of 64
     * bytes apart, and the first rows peeled off until the tiles start on a line. */
    uintptr_t mis = (uintptr_t)dst & 63;
    if (stream && ds % 64 == 0 && mis % (DRV_W) == 0) {
        int64_t head = (int64_t)(((64 - mis) & 63) / (DRV_W));
        if (head > rows) head = rows;
        DRV_FN(_bands)(dst, src, head, cols, ss, ds, false);
        DRV_FN(_bands)(dst + head * (DRV_W), src + head * ss, rows - head, cols, ss, ds, true);
        _mm_sfence();
        return;
    }
    if (stream) {
        void (*unaligned)(char *, const char *, int64_t, int64_t, int64_t, int64_t) =
            DRV_UNALIGNED;
        if (unaligned && ds % (DRV_W) == 0 && mis % (DRV_W) == 0 && rows >= 4 * (DRV_VR))
            unaligned(dst, src, rows, cols, ss, ds);
        else
            DRV_FN(_buffered)(dst, src, rows, cols, ss, ds);
        return;
    }
    DRV_FN(_bands)(dst, src, rows, cols, ss, ds, false);
}

#undef DRV_FN
#undef DRV_NAME
#undef DRV_W
#undef DRV_VR
#undef DRV_VC
#undef DRV_TILE
#undef DRV_VR2
#undef DRV_VC2
#undef DRV_TILE2
#undef DRV_NCOLS
#undef DRV_NROWS
#undef DRV_UNALIGNED
