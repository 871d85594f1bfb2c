/* copy.c -- the generic N-d strided copy (see kernels/copy.h): planning (drop unit dims, merge
 * contiguous dims, fold the contiguous innermost run into a wider element) and the loops, with the
 * innermost loop specialised by element width. */
#include "copy.h"

void tx__contiguous_strides(size_t rank, const int64_t *dims, size_t elem, int64_t *strides) {
    int64_t s = (int64_t)elem;
    for (size_t d = rank; d-- > 0;) {
        strides[d] = s;
        s *= dims[d] ? dims[d] : 1;
    }
}

void tx__copy_plan_make(tx__copy_plan *p, size_t rank, const int64_t *dims,
                        const int64_t *dst_strides, const int64_t *src_strides, size_t elem) {
    size_t r = 0;
    p->count = 1;
    for (size_t d = 0; d < rank; d++) {
        p->count *= dims[d];
        if (dims[d] == 1) continue;
        /* Merge into the previous dim when stepping the previous one equals stepping this one
         * dims[d] times, on both sides. */
        if (r > 0 && p->dst_strides[r - 1] == dims[d] * dst_strides[d] &&
            p->src_strides[r - 1] == dims[d] * src_strides[d]) {
            p->dims[r - 1] *= dims[d];
            p->dst_strides[r - 1] = dst_strides[d];
            p->src_strides[r - 1] = src_strides[d];
            continue;
        }
        p->dims[r] = dims[d];
        p->dst_strides[r] = dst_strides[d];
        p->src_strides[r] = src_strides[d];
        r++;
    }
    p->width = elem;
    if (p->count == 0) {
        p->rank = 0;
        p->width = 0;
        return;
    }
    /* Fold a contiguous innermost dim into the element width: one memcpy per row. */
    if (r > 0 && p->dst_strides[r - 1] == (int64_t)elem && p->src_strides[r - 1] == (int64_t)elem) {
        p->width = elem * (size_t)p->dims[r - 1];
        r--;
    }
    p->rank = r;
    p->count = 1;
    for (size_t d = 0; d < r; d++) p->count *= p->dims[d];
}

int64_t tx__copy_plan_rows(const tx__copy_plan *p) {
    if (p->width == 0) return 0;
    if (p->rank == 0) return 1;
    return p->count / p->dims[p->rank - 1];
}

#define INNER_LOOP(T)                                                                            \
    for (int64_t k = 0; k < n; k++) {                                                            \
        T v;                                                                                     \
        memcpy(&v, s + k * ss, sizeof v);                                                        \
        memcpy(d + k * ds, &v, sizeof v);                                                        \
    }

static void inner(char *d, const char *s, int64_t n, int64_t ds, int64_t ss, size_t width) {
    switch (width) {
    case 1: INNER_LOOP(uint8_t); break;
    case 2: INNER_LOOP(uint16_t); break;
    case 4: INNER_LOOP(uint32_t); break;
    case 8: INNER_LOOP(uint64_t); break;
    case 16: {
        typedef struct { uint64_t a, b; } u128;
        INNER_LOOP(u128);
        break;
    }
    default:
        for (int64_t k = 0; k < n; k++) memcpy(d + k * ds, s + k * ss, width);
    }
}

void tx__copy_plan_run(const tx__copy_plan *p, char *dst, const char *src, int64_t begin,
                       int64_t end) {
    if (p->width == 0 || begin >= end) return;
    if (p->rank == 0) {
        memcpy(dst, src, p->width);
        return;
    }
    size_t r = p->rank;
    int64_t n = p->dims[r - 1];
    /* Odometer over the outer dims, starting at row `begin`. */
    int64_t idx[TX_MAX_RANK];
    int64_t rem = begin;
    const char *s = src;
    char *d = dst;
    for (size_t k = r - 1; k-- > 0;) {
        idx[k] = rem % p->dims[k];
        rem /= p->dims[k];
        s += idx[k] * p->src_strides[k];
        d += idx[k] * p->dst_strides[k];
    }
    for (int64_t row = begin; row < end; row++) {
        inner(d, s, n, p->dst_strides[r - 1], p->src_strides[r - 1], p->width);
        for (size_t k = r - 1; k-- > 0;) {
            if (++idx[k] < p->dims[k]) {
                s += p->src_strides[k];
                d += p->dst_strides[k];
                break;
            }
            idx[k] = 0;
            s -= (p->dims[k] - 1) * p->src_strides[k];
            d -= (p->dims[k] - 1) * p->dst_strides[k];
        }
    }
}

void tx__copy_nd(char *dst, const char *src, size_t rank, const int64_t *dims,
                 const int64_t *dst_strides, const int64_t *src_strides, size_t elem) {
    tx__copy_plan p;
    tx__copy_plan_make(&p, rank, dims, dst_strides, src_strides, elem);
    tx__copy_plan_run(&p, dst, src, 0, tx__copy_plan_rows(&p));
}
