/* SPDX-License-Identifier: Apache-2.0 */
/* transpose_perm_tmpl.h -- the cross-lane permute paths of the AVX-512 2-D transpose kernels
 * (x86/avx512/transpose.c) for one element width of 2, 4 or 8 bytes: narrow planes (zn_) and
 * streaming into destination rows that are not line-aligned (zc_).  Included by
 * x86/avx512/transpose.c once per width, after its tiles; not a .c file, so that cmake/isa.cmake
 * does not compile it on its own.  No include guard: every inclusion defines one width's paths.
 * The includer defines:
 *     ZP_W          the element width in bytes (2, 4, 8); the functions are named with it:
 *                   zn_ncols_w2, zn_nrows_w2, zc_w2 (the driver's entry points) and their
 *                   helpers zn_gather_w2, zn_cols_w2, zn_rows_w2, zc_band_w2
 *     ZP_EPI(op)    the intrinsic `op` for elements of that width: op##_epi16 (_epi32, _epi64),
 *                   e.g. ZP_EPI(_mm512_permutexvar) is _mm512_permutexvar_epi16
 *     ZP_MASK       the mask type with one bit per element: __mmask32 (__mmask16, __mmask8)
 *     ZP_VC         the main tile's columns (ZP_REGS's output registers)
 *     ZP_REGS       the main tile in registers: void (const char *s, int64_t ss, __m512i *out),
 *                   out[j] = source column j of 64 / ZP_W rows
 * and this file #undefs them at its end.  It also uses, from x86/avx512/transpose.c, zn_plan,
 * zn_build, store_z, CARRY_COLS and STRIP_MAX_BYTES, and from x86/transpose_x86.h TP_INLINE,
 * TP_CAT, TP_NARROW_MAX, tp_edge, tp_narrow_cols and tp_narrow_rows. */

#define ZP_FN(name) TP_CAT(name, ZP_W) /* ZP_FN(zn_cols_w): zn_cols_w2 */

/* ---- narrow planes (see zn_plan in x86/avx512/transpose.c) ---------------------------------- */

/* Output register o of a plan over n registers in[]: pair 0 by a two-source permute (one-source
 * when n is 1), each further pair merged in under its mask. */
TP_INLINE __m512i ZP_FN(zn_gather_w)(const zn_plan *pl, const __m512i *in, int o, int n) {
    const int P = (n + 1) / 2;
    const __m512i *ix = pl->idx + o * P;
    __m512i v = n == 1 ? ZP_EPI(_mm512_permutexvar)(ix[0], in[0])
                       : ZP_EPI(_mm512_permutex2var)(in[0], ix[0], in[1]);
    for (int p = 1; p < P; p++) {
        ZP_MASK m = (ZP_MASK)pl->msk[o * P + p];
        if (2 * p + 1 < n)
            v = ZP_EPI(_mm512_mask_mov)(
                v, m, ZP_EPI(_mm512_permutex2var)(in[2 * p], ix[p], in[2 * p + 1]));
        else
            v = ZP_EPI(_mm512_mask_permutexvar)(v, m, ix[p], in[2 * p]);
    }
    return v;
}

/* Narrow columns streamed into destination rows that are not a multiple of 64 bytes apart (an
 * NHWC image of W * H * 4 bytes per channel plane, W * H odd): each row keeps its last register
 * (its carry), and the line that ends inside a new register is the carry's last m lanes and the
 * register's first V - m (one permute, as in the zc_ kernels below), stored streaming; each row's
 * first and last partial lines are masked stores.  Rows are at least 2V. */
TP_INLINE void ZP_FN(zn_cols_carry_w)(char *dst, const char *src, int64_t rows, int64_t ds,
                                      const zn_plan *pl, int n) {
    enum { V = 64 / (ZP_W) };
    __m512i idx[V], carry[TP_NARROW_MAX];
    int mis[TP_NARROW_MAX];
    for (int m = 0; m < V; m++) { /* idx[m]: carry lanes V - m .. V - 1, then new lanes 0 .. */
        unsigned char b[64];
        for (int i = 0; i < V; i++) {
            uint64_t x = (uint64_t)(V - m + i);
            memcpy(b + (size_t)i * (ZP_W), &x, (ZP_W)); /* little-endian: the low W bytes */
        }
        idx[m] = _mm512_loadu_si512((const void *)b);
    }
    for (int j = 0; j < n; j++) {
        mis[j] = (int)(((uintptr_t)(dst + j * ds) & 63) / (ZP_W));
        carry[j] = _mm512_setzero_si512();
    }
    const int64_t rb = rows - rows % V;
    for (int64_t r = 0; r < rb; r += V, src += 64 * n) {
        __m512i in[TP_NARROW_MAX];
        for (int i = 0; i < n; i++) in[i] = _mm512_loadu_si512((const void *)(src + 64 * i));
        for (int j = 0; j < n; j++) {
            const __m512i out = ZP_FN(zn_gather_w)(pl, in, j, n);
            const int m = mis[j];
            char *line = dst + j * ds + (r - m) * (ZP_W);
            if (m == 0)
                _mm512_stream_si512((void *)line, out);
            else if (r == 0) /* the head: lanes [0, V - m) at the row's start */
                ZP_EPI(_mm512_mask_storeu)(line + m * (ZP_W), ~(uint64_t)0 >> (64 - V + m), out);
            else
                _mm512_stream_si512((void *)line, ZP_EPI(_mm512_permutex2var)(carry[j], idx[m], out));
            carry[j] = out;
        }
    }
    for (int j = 0; j < n; j++) {
        const int m = mis[j];
        if (m != 0) /* the tail: the carry's last m lanes */
            ZP_EPI(_mm512_mask_storeu)(dst + j * ds + (rb - m) * (ZP_W), ~(uint64_t)0 >> (64 - m),
                                       ZP_EPI(_mm512_permutex2var)(carry[j], idx[m], carry[j]));
    }
    _mm_sfence();
    tp_narrow_cols(dst + rb * (ZP_W), src, rows - rb, n, ds, (ZP_W), false);
}

/* Narrow columns: C = n, source rows packed. */
TP_INLINE void ZP_FN(zn_cols_w)(char *dst, const char *src, int64_t rows, int64_t ds, bool stream,
                                int n) {
    const int V = 64 / (ZP_W);
    if (rows < 2 * V) {
        tp_narrow_cols(dst, src, rows, n, ds, (ZP_W), false);
        return;
    }
    if (stream && ds % 64 != 0 && ds % (ZP_W) == 0 && (uintptr_t)dst % (ZP_W) == 0) {
        zn_plan pl;
        zn_build(&pl, n, (ZP_W), true);
        ZP_FN(zn_cols_carry_w)(dst, src, rows, ds, &pl, n);
        return;
    }
    bool nt = false;
    if (stream && ds % 64 == 0 && (uintptr_t)dst % (ZP_W) == 0) {
        int64_t head = (int64_t)((-(uintptr_t)dst & 63) / (ZP_W));
        tp_edge(dst, src, head, n, (int64_t)n * (ZP_W), ds, (ZP_W));
        dst += head * (ZP_W);
        src += head * n * (ZP_W);
        rows -= head;
        nt = true;
    }
    zn_plan pl;
    zn_build(&pl, n, (ZP_W), true);
    int64_t r = 0;
    for (; r + V <= rows; r += V, src += 64 * n, dst += 64) {
        __m512i in[TP_NARROW_MAX];
        for (int i = 0; i < n; i++) in[i] = _mm512_loadu_si512((const void *)(src + 64 * i));
        for (int j = 0; j < n; j++) store_z(dst + j * ds, ZP_FN(zn_gather_w)(&pl, in, j, n), nt);
    }
    if (nt) _mm_sfence();
    tp_narrow_cols(dst, src, rows - r, n, ds, (ZP_W), false);
}

/* The driver's narrow-columns entry (tp_narrow_fn), with the column count as a constant so that
 * the loops unroll. */
static void ZP_FN(zn_ncols_w)(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                              int64_t ds, bool stream) {
    (void)ss;
    switch (cols) {
    case 1: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, 1); break;
    case 2: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, 2); break;
    case 3: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, 3); break;
    case 4: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, 4); break;
    case 5: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, 5); break;
    case 6: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, 6); break;
    case 7: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, 7); break;
    case 8: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, 8); break;
    default: ZP_FN(zn_cols_w)(dst, src, rows, ds, stream, cols); break;
    }
}

/* Narrow rows: R = n, destination rows packed. */
TP_INLINE void ZP_FN(zn_rows_w)(char *dst, const char *src, int64_t cols, int64_t ss, bool stream,
                                int n) {
    const int V = 64 / (ZP_W);
    if (cols < 2 * V) {
        tp_narrow_rows(dst, src, n, cols, ss, (ZP_W), false);
        return;
    }
    bool nt = false;
    if (stream) { /* peel columns until the output is on a line (within 64, or never) */
        int64_t head = 0;
        while (head < 64 && ((uintptr_t)dst + (uintptr_t)(head * n * (ZP_W))) % 64 != 0) head++;
        if (head < 64 && head < cols) {
            tp_edge(dst, src, n, head, ss, (int64_t)n * (ZP_W), (ZP_W));
            dst += head * n * (ZP_W);
            src += head * (ZP_W);
            cols -= head;
            nt = true;
        }
    }
    zn_plan pl;
    zn_build(&pl, n, (ZP_W), false);
    int64_t c = 0;
    for (; c + V <= cols; c += V, src += 64, dst += 64 * n) {
        __m512i in[TP_NARROW_MAX];
        for (int i = 0; i < n; i++) in[i] = _mm512_loadu_si512((const void *)(src + i * ss));
        for (int m = 0; m < n; m++) store_z(dst + 64 * m, ZP_FN(zn_gather_w)(&pl, in, m, n), nt);
    }
    if (nt) _mm_sfence();
    tp_narrow_rows(dst, src, n, cols - c, ss, (ZP_W), false);
}

/* The driver's narrow-rows entry (tp_narrow_fn), the row count as a constant. */
static void ZP_FN(zn_nrows_w)(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                              int64_t ds, bool stream) {
    (void)ds;
    switch (rows) {
    case 1: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, 1); break;
    case 2: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, 2); break;
    case 3: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, 3); break;
    case 4: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, 4); break;
    case 5: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, 5); break;
    case 6: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, 6); break;
    case 7: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, 7); break;
    case 8: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, 8); break;
    default: ZP_FN(zn_rows_w)(dst, src, cols, ss, stream, rows); break;
    }
}

/* ---- streaming into destination rows that are not line-aligned ------------------------------
 * When destination rows are not a multiple of 64 bytes apart, each row's line boundaries fall at
 * a different element, so a tile's register for row c straddles two lines.  Each column keeps the
 * register of the tile above it (its carry); the line that ends inside the current tile is the
 * last m_c lanes of the carry followed by the first V - m_c lanes of the new register -- one
 * VPERMT2 -- and goes out with a streaming store.  Only the first and last (partial) line of each
 * row segment is a plain masked store.  Needs dst and ds to be multiples of W.
 * Two walks.  Narrow source rows (a band of V rows spans at most STRIP_MAX_BYTES): down one strip
 * of VC columns at a time, the carries in registers.  Wide rows: band by band across the columns
 * as the aligned path does (the source is then read in long runs), the carries in an array
 * (CARRY_COLS columns at a time) -- slower (each carry store can falsely alias a later source
 * load 4 KiB away), but a strip of a wide plane reads every source line from a different page and
 * ran slower still. */

/* In both walks, for the tile at row r, column c (its destination row at d0 + c * ds, its first
 * line boundary m = mis[c] lanes in) emits the line that ends in the tile from the tile's register
 * out[j]: the whole register when m == 0, the row's head (a masked store) when r == 0, else the
 * carry's last m lanes and the register's first V - m by one permute with idx[m].  After the last
 * tile (at row rb) comes the tail: the carry's last m lanes.  (Written out in both walks, not in
 * an inline helper: through a helper GCC 12 schedules and allocates the walks' loops
 * differently.) */

/* The wide-rows walk: bands of V rows across CARRY_COLS columns at a time, carries in an array. */
static void ZP_FN(zc_band_w)(char *dst, const char *src, int64_t rb, int64_t cols, int64_t ss,
                             int64_t ds, const __m512i *idx) {
    enum { V = 64 / (ZP_W) };
    __m512i carry[CARRY_COLS];
    int mis[CARRY_COLS];
    for (int64_t c0 = 0; c0 < cols; c0 += CARRY_COLS) {
        const int64_t cb = cols - c0 < CARRY_COLS ? cols - c0 : CARRY_COLS;
        char *d0 = dst + c0 * ds;
        const char *s0 = src + c0 * (ZP_W);
        for (int64_t c = 0; c < cb; c++) {
            mis[c] = (int)(((uintptr_t)(d0 + c * ds) & 63) / (ZP_W));
            carry[c] = _mm512_setzero_si512();
        }
        for (int64_t r = 0; r < rb; r += V)
            for (int64_t ct = 0; ct < cb; ct += (ZP_VC)) {
                __m512i out[ZP_VC];
                ZP_REGS(s0 + r * ss + ct * (ZP_W), ss, out);
                for (int j = 0; j < (ZP_VC); j++) {
                    const int64_t c = ct + j;
                    const int m = mis[c];
                    char *line = d0 + c * ds + (r - m) * (ZP_W);
                    if (m == 0)
                        _mm512_stream_si512((void *)line, out[j]);
                    else if (r == 0) /* the head: lanes [0, V - m) at the row's start */
                        ZP_EPI(_mm512_mask_storeu)(line + m * (ZP_W), ~(uint64_t)0 >> (64 - V + m),
                                                   out[j]);
                    else
                        _mm512_stream_si512((void *)line,
                                            ZP_EPI(_mm512_permutex2var)(carry[c], idx[m], out[j]));
                    carry[c] = out[j];
                }
            }
        for (int64_t c = 0; c < cb; c++) {
            const int m = mis[c];
            if (m != 0) /* the tail */
                ZP_EPI(_mm512_mask_storeu)(d0 + c * ds + (rb - m) * (ZP_W),
                                           ~(uint64_t)0 >> (64 - m),
                                           ZP_EPI(_mm512_permutex2var)(carry[c], idx[m], carry[c]));
        }
    }
}

/* The driver's unaligned streaming kernel (DRV_UNALIGNED). */
static void ZP_FN(zc_w)(char *dst, const char *src, int64_t rows, int64_t cols, int64_t ss,
                        int64_t ds) {
    enum { V = 64 / (ZP_W) };
    __m512i idx[V];
    /* Line indices: idx[m] lane i is carry lane V - m + i for i < m, then new lane i - m. */
    for (int m = 0; m < V; m++) {
        unsigned char b[64];
        for (int i = 0; i < V; i++) {
            uint64_t x = (uint64_t)(V - m + i);
            memcpy(b + (size_t)i * (ZP_W), &x, (ZP_W)); /* little-endian: the low W bytes */
        }
        idx[m] = _mm512_loadu_si512((const void *)b);
    }
    const int64_t rb = rows - rows % V, cb = cols - cols % (ZP_VC);
    if (ss * V > STRIP_MAX_BYTES) {
        ZP_FN(zc_band_w)(dst, src, rb, cb, ss, ds, idx);
    } else {
        for (int64_t ct = 0; ct < cb; ct += (ZP_VC)) { /* strips, the carries in registers */
            __m512i carry[ZP_VC];
            int mis[ZP_VC];
            char *d0 = dst + ct * ds;
            const char *s0 = src + ct * (ZP_W);
            for (int j = 0; j < (ZP_VC); j++) {
                mis[j] = (int)(((uintptr_t)(d0 + j * ds) & 63) / (ZP_W));
                carry[j] = _mm512_setzero_si512();
            }
            for (int64_t r = 0; r < rb; r += V) {
                __m512i out[ZP_VC];
                ZP_REGS(s0 + r * ss, ss, out);
                for (int j = 0; j < (ZP_VC); j++) {
                    const int m = mis[j];
                    char *line = d0 + j * ds + (r - m) * (ZP_W);
                    if (m == 0)
                        _mm512_stream_si512((void *)line, out[j]);
                    else if (r == 0) /* the head: lanes [0, V - m) at the row's start */
                        ZP_EPI(_mm512_mask_storeu)(line + m * (ZP_W), ~(uint64_t)0 >> (64 - V + m),
                                                   out[j]);
                    else
                        _mm512_stream_si512((void *)line,
                                            ZP_EPI(_mm512_permutex2var)(carry[j], idx[m], out[j]));
                    carry[j] = out[j];
                }
            }
            for (int j = 0; j < (ZP_VC); j++) {
                const int m = mis[j];
                if (m != 0) /* the tail */
                    ZP_EPI(_mm512_mask_storeu)(
                        d0 + j * ds + (rb - m) * (ZP_W), ~(uint64_t)0 >> (64 - m),
                        ZP_EPI(_mm512_permutex2var)(carry[j], idx[m], carry[j]));
            }
        }
    }
    tp_edge(dst + rb * (ZP_W), src + rb * ss, rows - rb, cb, ss, ds, (ZP_W));
    tp_edge(dst + cb * ds, src + cb * (ZP_W), rows, cols - cb, ss, ds, (ZP_W));
    _mm_sfence();
}

#undef ZP_FN
#undef ZP_W
#undef ZP_EPI
#undef ZP_MASK
#undef ZP_VC
#undef ZP_REGS
