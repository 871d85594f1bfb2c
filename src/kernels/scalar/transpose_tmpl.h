/* SPDX-License-Identifier: Apache-2.0 */
/* transpose_tmpl.h -- one portable 2-D transpose kernel (kernels/transpose.h) for one element
 * width, included by kernels/scalar/transpose.c once per width.  No include guard: every inclusion
 * defines one kernel.  The includer defines:
 *     TT_NAME    the kernel's name (a tx__transpose2d_ft), e.g. tx__transpose2d_w1; its static
 *                helpers are TT_NAME_gather, TT_NAME_direct and TT_NAME_tiles
 *     TT_T       the element type (its size is the width)
 *     TT_TR      the tile's source rows
 *     TT_TC      the tile's source columns
 *     TT_B       blocks of TT_B x TT_B elements transposed inside 64-bit words (TT_B * width == 8),
 *                or 1 for no block path
 *     TT_BLOCK   the in-register transpose of such a block (void (uint64_t *rows)); unused when
 *                TT_B is 1
 *     TT_SB      the TLB block: SB x SB elements
 * and this file #undefs them at its end.  See kernels/scalar/transpose.c for the tiling.
 *
 * Elements move through memcpy of a fixed size, which compiles to plain loads and stores and
 * assumes no alignment.  Pointers advance by increments so that no index product can overflow. */

#define TT_CAT_(a, b) a##b
#define TT_CAT(a, b) TT_CAT_(a, b)
#define TT_FN(suffix) TT_CAT(TT_NAME, suffix) /* TT_FN(_gather): tx__transpose2d_w1_gather */

/* buf[c][r] = src[r][c] for a tile of rn x cn elements; buf rows are rn elements long. */
static inline void TT_FN(_gather)(TT_T *buf, const char *src, int rn, int cn, int64_t ss) {
    int r = 0;
#if TT_B > 1
    /* Whole B x B blocks in registers (B rows of 8 bytes, read as little-endian words and
     * transposed by TT_BLOCK, written to B buffer rows); the rest of their rows element by
     * element.  (The block is written out here, not in an inline helper: through a helper GCC 12
     * allocates the tile loop's registers differently.) */
    for (; r + TT_B <= rn; r += TT_B) {
        const char *s = src + r * ss;
        int c = 0;
        for (; c + TT_B <= cn; c += TT_B) {
            uint64_t x[8];
            for (int i = 0; i < TT_B; i++) {
                memcpy(&x[i], s + c * (int)sizeof(TT_T) + i * ss, 8);
                x[i] = tx__le64_host(x[i]);
            }
            TT_BLOCK(x);
            for (int i = 0; i < TT_B; i++) {
                x[i] = tx__le64_host(x[i]);
                memcpy(buf + c * rn + r + i * rn, &x[i], 8);
            }
        }
        for (int i = 0; i < TT_B; i++) {
            const char *si = s + i * ss + c * (int)sizeof(TT_T);
            TT_T *bi = buf + c * rn + r + i;
            for (int cc = c; cc < cn; cc++, si += sizeof(TT_T), bi += rn)
                memcpy(bi, si, sizeof(TT_T));
        }
    }
#endif
    for (; r + 4 <= rn; r += 4) {
        const char *s = src + r * ss;
        TT_T *b = buf + r;
        for (int c = 0; c < cn; c++, s += sizeof(TT_T), b += rn) {
            TT_T v[4];
            memcpy(&v[0], s, sizeof(TT_T));
            memcpy(&v[1], s + ss, sizeof(TT_T));
            memcpy(&v[2], s + 2 * ss, sizeof(TT_T));
            memcpy(&v[3], s + 3 * ss, sizeof(TT_T));
            memcpy(b, v, sizeof v);
        }
    }
    for (; r < rn; r++) {
        const char *s = src + r * ss;
        TT_T *b = buf + r;
        for (int c = 0; c < cn; c++, s += sizeof(TT_T), b += rn) memcpy(b, s, sizeof(TT_T));
    }
}

/* Few rows: each destination row is short; walk four source columns per pass. */
static void TT_FN(_direct)(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                           int64_t ds) {
    int64_t c = 0;
    for (; c + 4 <= cols; c += 4, src += 4 * sizeof(TT_T), dst += 4 * ds) {
        const char *s = src;
        char *d = dst;
        for (int64_t r = 0; r < rows; r++, s += ss, d += sizeof(TT_T)) {
            TT_T v[4];
            memcpy(v, s, sizeof v);
            memcpy(d, &v[0], sizeof(TT_T));
            memcpy(d + ds, &v[1], sizeof(TT_T));
            memcpy(d + 2 * ds, &v[2], sizeof(TT_T));
            memcpy(d + 3 * ds, &v[3], sizeof(TT_T));
        }
    }
    for (; c < cols; c++, src += sizeof(TT_T), dst += ds) {
        const char *s = src;
        char *d = dst;
        for (int64_t r = 0; r < rows; r++, s += ss, d += sizeof(TT_T)) memcpy(d, s, sizeof(TT_T));
    }
}

/* The tiles of a rows x cols block, row of tiles by row of tiles. */
static void TT_FN(_tiles)(char *dst, const char *src, int64_t rows, int64_t cols,
                          int64_t src_stride, int64_t dst_stride) {
    TT_T buf[(TT_TR) * (TT_TC)];
    for (int64_t r0 = 0; r0 < rows; r0 += (TT_TR)) {
        int rn = rows - r0 < (TT_TR) ? (int)(rows - r0) : (TT_TR);
        const char *s = src + r0 * src_stride;
        char *d = dst + r0 * (int64_t)sizeof(TT_T);
        for (int64_t c0 = 0; c0 < cols; c0 += (TT_TC)) {
            int cn = cols - c0 < (TT_TC) ? (int)(cols - c0) : (TT_TC);
            if (rn == (TT_TR) && cn == (TT_TC)) {
                /* Constant trip counts let the compiler unroll the full tiles. */
                TT_FN(_gather)(buf, s, (TT_TR), (TT_TC), src_stride);
                for (int c = 0; c < (TT_TC); c++, d += dst_stride)
                    memcpy(d, buf + c * (TT_TR), (TT_TR) * sizeof(TT_T));
            } else {
                TT_FN(_gather)(buf, s, rn, cn, src_stride);
                for (int c = 0; c < cn; c++, d += dst_stride)
                    memcpy(d, buf + c * rn, (size_t)rn * sizeof(TT_T));
            }
            s += (TT_TC) * sizeof(TT_T);
        }
    }
}

void TT_NAME(char *dst, const char *src, int64_t rows, int64_t cols, int64_t src_stride,
             int64_t dst_stride, bool stream) {
    (void)stream; /* plain stores only: streaming needs SIMD registers of a line */
    if (rows < (TT_TR)) {
        TT_FN(_direct)(dst, src, rows, cols, src_stride, dst_stride);
        return;
    }
    /* Blocks of SB x SB elements bound the pages one pass of tiles touches on either side
     * (SB source rows, SB destination rows), so they stay in the TLB while it is reused. */
    for (int64_t R0 = 0; R0 < rows; R0 += TT_SB)
        for (int64_t C0 = 0; C0 < cols; C0 += TT_SB)
            TT_FN(_tiles)(dst + C0 * dst_stride + R0 * (int64_t)sizeof(TT_T),
                          src + R0 * src_stride + C0 * (int64_t)sizeof(TT_T),
                          rows - R0 < TT_SB ? rows - R0 : TT_SB,
                          cols - C0 < TT_SB ? cols - C0 : TT_SB, src_stride, dst_stride);
}

#undef TT_FN
#undef TT_CAT
#undef TT_CAT_
#undef TT_NAME
#undef TT_T
#undef TT_TR
#undef TT_TC
#undef TT_B
#undef TT_BLOCK
#undef TT_SB
