/* SPDX-License-Identifier: Apache-2.0 */
/* transpose_any_tmpl.h -- one tile walk of tx__transpose2d_any (kernels/scalar/transpose.c), the
 * 2-D transpose of elements of any width, included by kernels/scalar/transpose.c once per way of
 * moving an element.  No include guard: every inclusion defines one static function.  The
 * includer defines:
 *     ANY_NAME   the function's name
 *     ANY_W      for a width known here: the width in bytes (an element is one memcpy of that
 *                constant size, a few plain moves); the function takes (dst, src, rows, cols, ss,
 *                ds, tile)
 *  or ANY_WORD   for any other width: the type of the words an element moves in, n of them; the
 *                function takes (dst, src, rows, cols, ss, ds, n, tile)
 * and this file #undefs them at its end.
 *
 * Tiles of tile x tile elements walked row of tiles by row of tiles: each tile reads `tile` source
 * rows and writes `tile` destination rows in short runs, all of which stay in L1 while the tile is
 * done.  (A template rather than one inline function taking the element's word size and count as
 * parameters: GCC 12 compiled that to different code, 15% slower on a 1 MiB plane of 5-byte
 * elements.) */

#ifdef ANY_W
static void ANY_NAME(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                     int64_t ds, int64_t tile) {
    enum { w = ANY_W };
#else
static void ANY_NAME(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                     int64_t ds, size_t n, int64_t tile) {
    const int64_t w = (int64_t)(n * sizeof(ANY_WORD));
#endif
    for (int64_t r0 = 0; r0 < rows; r0 += tile) {
        const int64_t rn = rows - r0 < tile ? rows - r0 : tile;
        for (int64_t c0 = 0; c0 < cols; c0 += tile) {
            const int64_t cn = cols - c0 < tile ? cols - c0 : tile;
            for (int64_t c = 0; c < cn; c++) {
                const char *s = src + r0 * ss + (c0 + c) * w;
                char *d = dst + (c0 + c) * ds + r0 * w;
                for (int64_t r = 0; r < rn; r++, s += ss, d += w) {
#ifdef ANY_W
                    memcpy(d, s, ANY_W);
#else
                    for (size_t k = 0; k < n; k++) {
                        ANY_WORD v;
                        memcpy(&v, s + k * sizeof(ANY_WORD), sizeof(ANY_WORD));
                        memcpy(d + k * sizeof(ANY_WORD), &v, sizeof(ANY_WORD));
                    }
#endif
                }
            }
        }
    }
}

#undef ANY_NAME
#undef ANY_W
#undef ANY_WORD
