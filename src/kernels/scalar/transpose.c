/* transpose.c -- portable scalar 2-D transpose kernels (see kernels/transpose.h) for elements of
 * 1, 2, 4, 8 and 16 bytes.  The plane is walked in square tiles small enough that a tile's source
 * rows and destination rows both stay in L1 while it is transposed, so every cache line fetched
 * from either side is used whole instead of once per element; inside a tile the destination is
 * written in 4-column strips so that each source row is read 4 elements at a time. */
#include "transpose.h"

/* Tile edges in elements: 64-byte lines on both sides and at most ~8 KB of each per tile. */
#define TILE_W1 64
#define TILE_W2 64
#define TILE_W4 32
#define TILE_W8 32
#define TILE_W16 16

typedef struct tx__u128 {
    uint64_t lo, hi;
} tx__u128;

/* Elements move through memcpy of a fixed size, which compiles to one load and one store and
 * assumes no alignment. */
#define DEFINE_TRANSPOSE2D(NAME, T, TILE)                                                        \
    static inline void NAME##_tile(char *dst, const char *src, int64_t rn, int64_t cn,           \
                                   int64_t ss, int64_t ds) {                                     \
        const int64_t w = (int64_t)sizeof(T);                                                    \
        int64_t c = 0;                                                                           \
        for (; c + 4 <= cn; c += 4) {                                                            \
            char *d0 = dst + c * ds, *d1 = d0 + ds, *d2 = d1 + ds, *d3 = d2 + ds;                \
            const char *s = src + c * w;                                                         \
            for (int64_t r = 0; r < rn; r++, s += ss) {                                          \
                T a[4];                                                                          \
                memcpy(a, s, sizeof a);                                                          \
                memcpy(d0 + r * w, &a[0], sizeof(T));                                            \
                memcpy(d1 + r * w, &a[1], sizeof(T));                                            \
                memcpy(d2 + r * w, &a[2], sizeof(T));                                            \
                memcpy(d3 + r * w, &a[3], sizeof(T));                                            \
            }                                                                                    \
        }                                                                                        \
        for (; c < cn; c++) {                                                                    \
            char *d = dst + c * ds;                                                              \
            const char *s = src + c * w;                                                         \
            for (int64_t r = 0; r < rn; r++, s += ss) {                                          \
                T v;                                                                             \
                memcpy(&v, s, sizeof v);                                                         \
                memcpy(d + r * w, &v, sizeof v);                                                 \
            }                                                                                    \
        }                                                                                        \
    }                                                                                            \
    void NAME(char *dst, const char *src, int64_t rows, int64_t cols, int64_t src_stride,        \
              int64_t dst_stride) {                                                              \
        const int64_t w = (int64_t)sizeof(T);                                                    \
        for (int64_t r0 = 0; r0 < rows; r0 += (TILE)) {                                          \
            int64_t rn = rows - r0 < (TILE) ? rows - r0 : (TILE);                                \
            for (int64_t c0 = 0; c0 < cols; c0 += (TILE)) {                                      \
                int64_t cn = cols - c0 < (TILE) ? cols - c0 : (TILE);                            \
                NAME##_tile(dst + c0 * dst_stride + r0 * w, src + r0 * src_stride + c0 * w, rn,  \
                            cn, src_stride, dst_stride);                                         \
            }                                                                                    \
        }                                                                                        \
    }

DEFINE_TRANSPOSE2D(tx__transpose2d_w1, uint8_t, TILE_W1)
DEFINE_TRANSPOSE2D(tx__transpose2d_w2, uint16_t, TILE_W2)
DEFINE_TRANSPOSE2D(tx__transpose2d_w4, uint32_t, TILE_W4)
DEFINE_TRANSPOSE2D(tx__transpose2d_w8, uint64_t, TILE_W8)
DEFINE_TRANSPOSE2D(tx__transpose2d_w16, tx__u128, TILE_W16)

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
