/* SPDX-License-Identifier: Apache-2.0 */
/* transpose.c -- portable scalar 2-D transpose kernels (see kernels/transpose.h) for elements of
 * 1, 2, 4, 8 and 16 bytes, used by tf.transpose (src/ops/reorder.c) at the scalar CPU level and
 * as the reference the SIMD kernels are tested against.
 *
 * The plane is cut into tiles of TR source rows by TC source columns, and every tile goes through
 * a small contiguous buffer: the tile's source rows are read front to back, four rows at a time,
 * and scattered into the buffer already transposed; then each buffer row is written to its
 * destination row in one run.  Memory is thus only touched in whole-row bursts on both sides, so
 * each cache line fetched or written is used whole at once.  Walking a tile directly would revisit
 * every source line once per column strip, and with power-of-two row strides (a 4096-float matrix)
 * all rows of a tile fall into one cache set and evict each other before the revisit.  A plane
 * with fewer rows than a tile has short destination rows, where the buffer's extra pass costs more
 * than it saves: it is transposed directly, four columns per pass.  Tiles are visited in blocks of
 * SB x SB elements so that the pages one pass touches on either side stay in the TLB, and 1- and
 * 2-byte elements move in 8x8 and 4x4 blocks transposed inside 64-bit words. */
#include "kernels/transpose.h"

#include "core/byteorder.h"

typedef struct tx__u128 {
    uint64_t lo, hi;
} tx__u128;

/* In-register transposes of small square blocks held one row per 64-bit word, read as a
 * little-endian word on every host so that element j of a row is its j-th lowest unit: each stage
 * swaps the off-diagonal halves of 2x2 blocks of units between pairs of rows, from single units up
 * to half words.  8x8 bytes take three stages, 4x4 16-bit units two. */
#define SWAP_UNITS(a, b, shift, mask)                                                            \
    do {                                                                                         \
        uint64_t t_ = (((a) >> (shift)) ^ (b)) & (mask);                                         \
        (b) ^= t_;                                                                               \
        (a) ^= t_ << (shift);                                                                    \
    } while (0)

static inline void block8x8_u8(uint64_t *x) {
    uint64_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
    const uint64_t m8 = UINT64_C(0x00FF00FF00FF00FF), m16 = UINT64_C(0x0000FFFF0000FFFF),
                   m32 = UINT64_C(0x00000000FFFFFFFF);
    SWAP_UNITS(x0, x1, 8, m8);
    SWAP_UNITS(x2, x3, 8, m8);
    SWAP_UNITS(x4, x5, 8, m8);
    SWAP_UNITS(x6, x7, 8, m8);
    SWAP_UNITS(x0, x2, 16, m16);
    SWAP_UNITS(x1, x3, 16, m16);
    SWAP_UNITS(x4, x6, 16, m16);
    SWAP_UNITS(x5, x7, 16, m16);
    SWAP_UNITS(x0, x4, 32, m32);
    SWAP_UNITS(x1, x5, 32, m32);
    SWAP_UNITS(x2, x6, 32, m32);
    SWAP_UNITS(x3, x7, 32, m32);
    x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3, x[4] = x4, x[5] = x5, x[6] = x6, x[7] = x7;
}

static inline void block4x4_u16(uint64_t *x) {
    uint64_t x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3];
    const uint64_t m16 = UINT64_C(0x0000FFFF0000FFFF), m32 = UINT64_C(0x00000000FFFFFFFF);
    SWAP_UNITS(x0, x1, 16, m16);
    SWAP_UNITS(x2, x3, 16, m16);
    SWAP_UNITS(x0, x2, 32, m32);
    SWAP_UNITS(x1, x3, 32, m32);
    x[0] = x0, x[1] = x1, x[2] = x2, x[3] = x3;
}

/* Transposes the B x B block at src (rows ss bytes apart) into buf rows rn elements apart, for
 * elements of 8 / B bytes.  B == 1 means no block path. */
#define BLOCK_GATHER(B, FN, buf, src, rn, ss)                                                    \
    do {                                                                                         \
        uint64_t x_[8];                                                                          \
        for (int i_ = 0; i_ < (B); i_++) {                                                       \
            memcpy(&x_[i_], (src) + i_ * (ss), 8);                                               \
            x_[i_] = tx__le64_host(x_[i_]);                                                      \
        }                                                                                        \
        FN(x_);                                                                                  \
        for (int i_ = 0; i_ < (B); i_++) {                                                       \
            x_[i_] = tx__le64_host(x_[i_]);                                                      \
            memcpy((buf) + i_ * (rn), &x_[i_], 8);                                               \
        }                                                                                        \
    } while (0)

/* Elements move through memcpy of a fixed size, which compiles to plain loads and stores and
 * assumes no alignment.  Pointers advance by increments so that no index product can overflow. */
#define DEFINE_TRANSPOSE2D(NAME, T, TR, TC, B, BFN, SB)                                                      \
    /* buf[c][r] = src[r][c] for a tile of rn x cn elements; buf rows are rn elements long. */   \
    static inline void NAME##_gather(T *buf, const char *src, int rn, int cn, int64_t ss) {      \
        int r = 0;                                                                               \
        if ((B) > 1) {                                                                           \
            /* Whole B x B blocks in registers; the rest of their rows element by element. */    \
            for (; r + (B) <= rn; r += (B)) {                                                    \
                const char *s = src + r * ss;                                                    \
                int c = 0;                                                                       \
                for (; c + (B) <= cn; c += (B)) BLOCK_GATHER(B, BFN, buf + c * rn + r,           \
                                                             s + c * (int)sizeof(T), rn, ss);    \
                for (int i = 0; i < (B); i++) {                                                  \
                    const char *si = s + i * ss + c * (int)sizeof(T);                            \
                    T *bi = buf + c * rn + r + i;                                                \
                    for (int cc = c; cc < cn; cc++, si += sizeof(T), bi += rn)                   \
                        memcpy(bi, si, sizeof(T));                                               \
                }                                                                                \
            }                                                                                    \
        }                                                                                        \
        for (; r + 4 <= rn; r += 4) {                                                            \
            const char *s = src + r * ss;                                                        \
            T *b = buf + r;                                                                      \
            for (int c = 0; c < cn; c++, s += sizeof(T), b += rn) {                              \
                T v[4];                                                                          \
                memcpy(&v[0], s, sizeof(T));                                                     \
                memcpy(&v[1], s + ss, sizeof(T));                                                \
                memcpy(&v[2], s + 2 * ss, sizeof(T));                                            \
                memcpy(&v[3], s + 3 * ss, sizeof(T));                                            \
                memcpy(b, v, sizeof v);                                                          \
            }                                                                                    \
        }                                                                                        \
        for (; r < rn; r++) {                                                                    \
            const char *s = src + r * ss;                                                        \
            T *b = buf + r;                                                                      \
            for (int c = 0; c < cn; c++, s += sizeof(T), b += rn) memcpy(b, s, sizeof(T));       \
        }                                                                                        \
    }                                                                                            \
    /* Few rows: each destination row is short; walk four source columns per pass. */            \
    static void NAME##_direct(char *dst, const char *src, int64_t rows, int64_t cols,            \
                              int64_t ss, int64_t ds) {                                          \
        int64_t c = 0;                                                                           \
        for (; c + 4 <= cols; c += 4, src += 4 * sizeof(T), dst += 4 * ds) {                     \
            const char *s = src;                                                                 \
            char *d = dst;                                                                       \
            for (int64_t r = 0; r < rows; r++, s += ss, d += sizeof(T)) {                       \
                T v[4];                                                                          \
                memcpy(v, s, sizeof v);                                                          \
                memcpy(d, &v[0], sizeof(T));                                                     \
                memcpy(d + ds, &v[1], sizeof(T));                                                \
                memcpy(d + 2 * ds, &v[2], sizeof(T));                                            \
                memcpy(d + 3 * ds, &v[3], sizeof(T));                                            \
            }                                                                                    \
        }                                                                                        \
        for (; c < cols; c++, src += sizeof(T), dst += ds) {                                     \
            const char *s = src;                                                                 \
            char *d = dst;                                                                       \
            for (int64_t r = 0; r < rows; r++, s += ss, d += sizeof(T)) memcpy(d, s, sizeof(T)); \
        }                                                                                        \
    }                                                                                            \
    /* The tiles of a rows x cols block, row of tiles by row of tiles. */                       \
    static void NAME##_tiles(char *dst, const char *src, int64_t rows, int64_t cols,             \
                             int64_t src_stride, int64_t dst_stride) {                           \
        T buf[(TR) * (TC)];                                                                      \
        for (int64_t r0 = 0; r0 < rows; r0 += (TR)) {                                            \
            int rn = rows - r0 < (TR) ? (int)(rows - r0) : (TR);                                 \
            const char *s = src + r0 * src_stride;                                               \
            char *d = dst + r0 * (int64_t)sizeof(T);                                             \
            for (int64_t c0 = 0; c0 < cols; c0 += (TC)) {                                        \
                int cn = cols - c0 < (TC) ? (int)(cols - c0) : (TC);                             \
                if (rn == (TR) && cn == (TC)) {                                                  \
                    /* Constant trip counts let the compiler unroll the full tiles. */           \
                    NAME##_gather(buf, s, (TR), (TC), src_stride);                               \
                    for (int c = 0; c < (TC); c++, d += dst_stride)                              \
                        memcpy(d, buf + c * (TR), (TR) * sizeof(T));                             \
                } else {                                                                         \
                    NAME##_gather(buf, s, rn, cn, src_stride);                                   \
                    for (int c = 0; c < cn; c++, d += dst_stride)                                \
                        memcpy(d, buf + c * rn, (size_t)rn * sizeof(T));                         \
                }                                                                                \
                s += (TC) * sizeof(T);                                                           \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
    void NAME(char *dst, const char *src, int64_t rows, int64_t cols, int64_t src_stride,        \
              int64_t dst_stride, bool stream) {                                                 \
        (void)stream; /* plain stores only: streaming needs SIMD registers of a line */          \
        if (rows < (TR)) {                                                                       \
            NAME##_direct(dst, src, rows, cols, src_stride, dst_stride);                         \
            return;                                                                              \
        }                                                                                        \
        /* Blocks of SB x SB elements bound the pages one pass of tiles touches on either side  \
         * (SB source rows, SB destination rows), so they stay in the TLB while it is reused. */ \
        for (int64_t R0 = 0; R0 < rows; R0 += SB)                                                \
            for (int64_t C0 = 0; C0 < cols; C0 += SB)                                            \
                NAME##_tiles(dst + C0 * dst_stride + R0 * (int64_t)sizeof(T),                    \
                             src + R0 * src_stride + C0 * (int64_t)sizeof(T),                    \
                             rows - R0 < SB ? rows - R0 : SB, cols - C0 < SB ? cols - C0 : SB,   \
                             src_stride, dst_stride);                                            \
    }

#define NO_BLOCK(x) ((void)(x))

/* Tiles: 64 x 64 elements of 1 and 2 bytes, 32 x 32 of 4 and 8, 16 x 16 of 16 (buffers of 4 to
 * 8 KB, bursts of at least one 64-byte line); TLB blocks of 256, 256, 128, 128 and 64 elements. */
DEFINE_TRANSPOSE2D(tx__transpose2d_w1, uint8_t, 64, 64, 8, block8x8_u8, 256)
DEFINE_TRANSPOSE2D(tx__transpose2d_w2, uint16_t, 64, 64, 4, block4x4_u16, 256)
DEFINE_TRANSPOSE2D(tx__transpose2d_w4, uint32_t, 32, 32, 1, NO_BLOCK, 128)
DEFINE_TRANSPOSE2D(tx__transpose2d_w8, uint64_t, 32, 32, 1, NO_BLOCK, 128)
DEFINE_TRANSPOSE2D(tx__transpose2d_w16, tx__u128, 16, 16, 1, NO_BLOCK, 64)

/* Tiles of TILE x TILE elements walked row of tiles by row of tiles: each tile reads TILE source
 * rows and writes TILE destination rows in short runs, all of which stay in L1 while the tile is
 * done.  COPY moves one element. */
#define ANY_TILES(COPY, w)                                                                       \
    for (int64_t r0 = 0; r0 < rows; r0 += tile) {                                                \
        const int64_t rn = rows - r0 < tile ? rows - r0 : tile;                                  \
        for (int64_t c0 = 0; c0 < cols; c0 += tile) {                                            \
            const int64_t cn = cols - c0 < tile ? cols - c0 : tile;                              \
            for (int64_t c = 0; c < cn; c++) {                                                   \
                const char *s = src + r0 * ss + (c0 + c) * (w);                                  \
                char *d = dst + (c0 + c) * ds + r0 * (w);                                        \
                for (int64_t r = 0; r < rn; r++, s += ss, d += (w)) COPY;                        \
            }                                                                                    \
        }                                                                                        \
    }

/* Common widths with a constant size (the copy becomes a few plain moves). */
#define DEFINE_ANY_FIXED(W)                                                                      \
    static void any_fixed_##W(char *dst, const char *src, int64_t rows, int64_t cols,            \
                              int64_t ss, int64_t ds, int64_t tile) {                            \
        ANY_TILES(memcpy(d, s, (W)), (W))                                                        \
    }
DEFINE_ANY_FIXED(3)
DEFINE_ANY_FIXED(6)
DEFINE_ANY_FIXED(12)
DEFINE_ANY_FIXED(24)
DEFINE_ANY_FIXED(32)
DEFINE_ANY_FIXED(48)
DEFINE_ANY_FIXED(64)

/* Any other width: n words of type T per element. */
#define DEFINE_ANY(NAME, T)                                                                      \
    static void NAME(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,         \
                     int64_t ds, size_t n, int64_t tile) {                                       \
        const int64_t w = (int64_t)(n * sizeof(T));                                              \
        ANY_TILES(for (size_t k = 0; k < n; k++) {                                               \
            T v;                                                                                 \
            memcpy(&v, s + k * sizeof(T), sizeof(T));                                            \
            memcpy(d + k * sizeof(T), &v, sizeof(T));                                            \
        }, w)                                                                                    \
    }
DEFINE_ANY(any_u64, uint64_t)
DEFINE_ANY(any_u32, uint32_t)
DEFINE_ANY(any_u16, uint16_t)
DEFINE_ANY(any_u8, uint8_t)

void tx__transpose2d_any(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                         int64_t ds, size_t width) {
    int64_t tile = 2048 / (int64_t)width;
    if (tile < 4) tile = 4;
    if (tile > 64) tile = 64;
    switch (width) {
    case 3: any_fixed_3(dst, src, rows, cols, ss, ds, tile); return;
    case 6: any_fixed_6(dst, src, rows, cols, ss, ds, tile); return;
    case 12: any_fixed_12(dst, src, rows, cols, ss, ds, tile); return;
    case 24: any_fixed_24(dst, src, rows, cols, ss, ds, tile); return;
    case 32: any_fixed_32(dst, src, rows, cols, ss, ds, tile); return;
    case 48: any_fixed_48(dst, src, rows, cols, ss, ds, tile); return;
    case 64: any_fixed_64(dst, src, rows, cols, ss, ds, tile); return;
    }
    if (width % 8 == 0) any_u64(dst, src, rows, cols, ss, ds, width / 8, tile);
    else if (width % 4 == 0) any_u32(dst, src, rows, cols, ss, ds, width / 4, tile);
    else if (width % 2 == 0) any_u16(dst, src, rows, cols, ss, ds, width / 2, tile);
    else any_u8(dst, src, rows, cols, ss, ds, width, tile);
}

tx__transpose2d_fn tx__transpose2d_kernel(size_t width) {
    switch (width) {
    case 1: return tx__transpose2d_w1;
    case 2: return tx__transpose2d_w2;
    case 4: return tx__transpose2d_w4;
    case 8: return tx__transpose2d_w8;
    case 16: return tx__transpose2d_w16;
    default: return NULL;
    }
}
