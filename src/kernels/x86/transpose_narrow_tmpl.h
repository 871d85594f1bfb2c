/* SPDX-License-Identifier: Apache-2.0 */
/* transpose_narrow_tmpl.h -- the narrow entry points of the SIMD 2-D transpose driver for one
 * element width, tp_ncols_w<W> and tp_nrows_w<W> (tp_narrow_fn: DRV_NCOLS and DRV_NROWS of
 * x86/transpose_driver_tmpl.h), on the byte-shuffle paths tp_narrow_cols and tp_narrow_rows.
 * Included by x86/transpose_x86.h once per width.  No include guard: every inclusion defines one
 * width's pair.  The includer defines:
 *     NARROW_W   the element width in bytes (1, 2, 4, 8)
 * and this file #undefs it at its end.  It uses TP_CAT, tp_narrow_cols and tp_narrow_rows of
 * x86/transpose_x86.h.
 *
 * The column (row) count is passed as a constant for the counts up to 8, so that the paths' loops
 * unroll.  The switch is written out in each function, not in a shared inline helper: inlined
 * through a helper that takes the width as a parameter, GCC 12 compiles the paths to different
 * (not faster) code. */

__attribute__((unused)) static void TP_CAT(tp_ncols_w, NARROW_W)(char *dst, const char *src,
                                                                 int64_t rows, int64_t cols,
                                                                 int64_t ss, int64_t ds,
                                                                 bool stream) {
    (void)ss;
    switch (cols) {
    case 1: tp_narrow_cols(dst, src, rows, 1, ds, (NARROW_W), stream); break;
    case 2: tp_narrow_cols(dst, src, rows, 2, ds, (NARROW_W), stream); break;
    case 3: tp_narrow_cols(dst, src, rows, 3, ds, (NARROW_W), stream); break;
    case 4: tp_narrow_cols(dst, src, rows, 4, ds, (NARROW_W), stream); break;
    case 5: tp_narrow_cols(dst, src, rows, 5, ds, (NARROW_W), stream); break;
    case 6: tp_narrow_cols(dst, src, rows, 6, ds, (NARROW_W), stream); break;
    case 7: tp_narrow_cols(dst, src, rows, 7, ds, (NARROW_W), stream); break;
    case 8: tp_narrow_cols(dst, src, rows, 8, ds, (NARROW_W), stream); break;
    default: tp_narrow_cols(dst, src, rows, cols, ds, (NARROW_W), stream); break;
    }
}

__attribute__((unused)) static void TP_CAT(tp_nrows_w, NARROW_W)(char *dst, const char *src,
                                                                 int64_t rows, int64_t cols,
                                                                 int64_t ss, int64_t ds,
                                                                 bool stream) {
    (void)ds;
    switch (rows) {
    case 1: tp_narrow_rows(dst, src, 1, cols, ss, (NARROW_W), stream); break;
    case 2: tp_narrow_rows(dst, src, 2, cols, ss, (NARROW_W), stream); break;
    case 3: tp_narrow_rows(dst, src, 3, cols, ss, (NARROW_W), stream); break;
    case 4: tp_narrow_rows(dst, src, 4, cols, ss, (NARROW_W), stream); break;
    case 5: tp_narrow_rows(dst, src, 5, cols, ss, (NARROW_W), stream); break;
    case 6: tp_narrow_rows(dst, src, 6, cols, ss, (NARROW_W), stream); break;
    case 7: tp_narrow_rows(dst, src, 7, cols, ss, (NARROW_W), stream); break;
    case 8: tp_narrow_rows(dst, src, 8, cols, ss, (NARROW_W), stream); break;
    default: tp_narrow_rows(dst, src, rows, cols, ss, (NARROW_W), stream); break;
    }
}

#undef NARROW_W
