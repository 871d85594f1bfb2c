/* SPDX-License-Identifier: Apache-2.0 */
/* xnn_peer.c -- the XNNPACK peer of the tensorx benchmark (bench/peers.py and bench/sweep.py run
 * it).  One source, two builds (bench/CMakeLists.txt):
 *   tensorx_xnn_peer          Debian's libxnnpack-dev (2022): create + setup + run operators;
 *                             peer name "xnnpack"
 *   tensorx_xnn_peer_current  a current XNNPACK (scripts/build-xnnpack.sh): create + reshape +
 *                             setup + run (TX_XNN_RESHAPE) and the unary-elementwise convert
 *                             (TX_XNN_UNARY), both detected by CMake; peer name "xnnpack_cur"
 * Operators per workload (only where XNNPACK has one): copy_nc (copy; concat as two strided
 * copies into the output's halves), convert f32<->f16 and f32->bf16 (current only: unary
 * convert), constant_pad_nd, depth_to_space_nhwc, and with the current API transpose_nd,
 * space_to_depth_nhwc and slice_nd (a stride-2 slice of axis k is a slice of the reshaped
 * [.., n/2, 2, ..] that keeps index 0 of the new axis; a reversal cannot be expressed).
 * Each workload is timed with pthreadpool at 1 and 2 threads; the better of the two is reported.
 * XNNPACK always writes into caller memory, so this is its into-existing-memory time.  Before it is
 * timed, each result is compared byte for byte with tensorx's result of the same op on the same
 * input (the program links tensorx for that); a workload that differs is reported on stderr and
 * left out.  Small workloads are timed over many calls per sample (time per call, median of
 * samples).  Prints JSON lines {"workload", "peer", "s"} (sweep: {"family", "dims", "peer", "s"}).
 *   tensorx_xnn_peer [--quick] [--filter SUBSTR] [--exact NAME] [--reps N] [--list]
 *   tensorx_xnn_peer --sweep FAMILY --dims "D0,D1,..[;D0,D1,..]" [--reps N]
 *   tensorx_xnn_peer --sweep-list   (the sweep families it has) */
#define _DEFAULT_SOURCE 1
#include <pthreadpool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xnnpack.h>

#include "tensorx.h"

#ifndef TX_XNN_PEER_NAME
#define TX_XNN_PEER_NAME "xnnpack"
#endif

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Aligned memory; fill: bytes with the top two bits clear, so every float32/float16 is finite. */
static void *buf(size_t n, int fill) {
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 1)) exit(1);
    unsigned char *c = p;
    for (size_t i = 0; i < n; i++) c[i] = (unsigned char)(fill ? (i * 2654435761u >> 13) & 0x3F : 0);
    return p;
}

/* ---- what to run: an op kind on a shape ------------------------------------------------------- */

enum kind { K_COPY, K_F32_F16, K_F16_F32, K_F32_BF16, K_TRANSPOSE, K_CONCAT, K_PAD, K_D2S, K_S2D,
            K_SLICE2 };

typedef struct spec {
    enum kind kind;
    size_t esize;     /* element bytes of the input */
    size_t nd, dims[6];
    size_t perm[6];   /* K_TRANSPOSE */
    size_t axis;      /* K_CONCAT: the axis; K_SLICE2: the axis taken with stride 2 */
    size_t pad;       /* K_PAD: on both sides of every axis */
} spec;

static size_t numel(const spec *s) {
    size_t n = 1;
    for (size_t i = 0; i < s->nd; i++) n *= s->dims[i];
    return n;
}

typedef struct job {
    xnn_operator_t op[2];
    int nops;
    void *in, *in2, *out;
    size_t in_bytes, out_bytes;
} job;

/* -- the operators, behind the two APIs -- */

static enum xnn_status copy_op(size_t esize, size_t batch, size_t ch, size_t istride,
                               size_t ostride, const void *in, void *out, pthreadpool_t tp,
                               xnn_operator_t *op) {
    enum xnn_status st;
#ifdef TX_XNN_RESHAPE
    st = esize == 2 ? xnn_create_copy_nc_x16(0, op) : xnn_create_copy_nc_x32(0, op);
    if (st) return st;
    st = esize == 2 ? xnn_reshape_copy_nc_x16(*op, batch, ch, istride, ostride, tp)
                    : xnn_reshape_copy_nc_x32(*op, batch, ch, istride, ostride, tp);
    if (st) return st;
    return esize == 2 ? xnn_setup_copy_nc_x16(*op, in, out) : xnn_setup_copy_nc_x32(*op, in, out);
#else
    st = esize == 2 ? xnn_create_copy_nc_x16(ch, istride, ostride, 0, op)
                    : xnn_create_copy_nc_x32(ch, istride, ostride, 0, op);
    if (st) return st;
    return esize == 2 ? xnn_setup_copy_nc_x16(*op, batch, in, out, tp)
                      : xnn_setup_copy_nc_x32(*op, batch, in, out, tp);
#endif
}

static enum xnn_status convert_op(enum kind k, size_t n, const void *in, void *out,
                                  pthreadpool_t tp, xnn_operator_t *op) {
#ifdef TX_XNN_UNARY
    enum xnn_datatype from = k == K_F16_F32 ? xnn_datatype_fp16 : xnn_datatype_fp32;
    enum xnn_datatype to = k == K_F32_F16 ? xnn_datatype_fp16
                         : k == K_F32_BF16 ? xnn_datatype_bf16 : xnn_datatype_fp32;
    enum xnn_status st = xnn_create_unary_elementwise_nc(xnn_unary_convert, from, to, NULL, NULL,
                                                         NULL, NULL, 0, op);
    if (st) return st;
    st = xnn_reshape_unary_elementwise_nc(*op, 1, n, n, n, tp);
    if (st) return st;
    return xnn_setup_unary_elementwise_nc(*op, in, out);
#else
    enum xnn_status st;
    if (k == K_F32_BF16) return xnn_status_unsupported_parameter; /* no bfloat16 in 2022 */
    if (k == K_F32_F16) {
        st = xnn_create_convert_nc_f32_f16(1, 1, 1, 0, op);
        return st ? st : xnn_setup_convert_nc_f32_f16(*op, n, in, out, tp);
    }
    st = xnn_create_convert_nc_f16_f32(1, 1, 1, 0, op);
    return st ? st : xnn_setup_convert_nc_f16_f32(*op, n, in, out, tp);
#endif
}

static enum xnn_status pad_op(const spec *s, const void *in, void *out, pthreadpool_t tp,
                              xnn_operator_t *op) {
    static const float zero = 0.0f;
    size_t pre[6], post[6];
    for (size_t i = 0; i < s->nd; i++) pre[i] = post[i] = s->pad;
    enum xnn_status st = xnn_create_constant_pad_nd_x32(&zero, 0, op);
    if (st) return st;
#ifdef TX_XNN_RESHAPE
    st = xnn_reshape_constant_pad_nd_x32(*op, s->nd, s->dims, pre, post, tp);
    return st ? st : xnn_setup_constant_pad_nd_x32(*op, in, out);
#else
    return xnn_setup_constant_pad_nd_x32(*op, s->nd, s->dims, pre, post, in, out, tp);
#endif
}

static enum xnn_status d2s_op(const spec *s, const void *in, void *out, pthreadpool_t tp,
                              xnn_operator_t *op) {
    size_t b = s->dims[0], h = s->dims[1], w = s->dims[2], c = s->dims[3];
#ifdef TX_XNN_RESHAPE
    size_t oh, ow, oc;
    enum xnn_status st = s->kind == K_D2S ? xnn_create_depth_to_space_nhwc_x32(2, 0, op)
                                          : xnn_create_space_to_depth_nhwc_x32(2, 0, op);
    if (st) return st;
    st = s->kind == K_D2S
             ? xnn_reshape_depth_to_space_nhwc_x32(*op, b, h, w, c, &oh, &ow, &oc, tp)
             : xnn_reshape_space_to_depth_nhwc_x32(*op, b, h, w, c, &oh, &ow, &oc, tp);
    if (st) return st;
    return s->kind == K_D2S ? xnn_setup_depth_to_space_nhwc_x32(*op, in, out)
                            : xnn_setup_space_to_depth_nhwc_x32(*op, in, out);
#else
    if (s->kind == K_S2D) return xnn_status_unsupported_parameter; /* no space_to_depth in 2022 */
    enum xnn_status st = xnn_create_depth_to_space_nhwc_x32(c / 4, c, c / 4, 2, 0, op);
    return st ? st : xnn_setup_depth_to_space_nhwc_x32(*op, b, h, w, in, out, tp);
#endif
}

#ifdef TX_XNN_RESHAPE
static enum xnn_status transpose_op(const spec *s, const void *in, void *out, pthreadpool_t tp,
                                    xnn_operator_t *op) {
    enum xnn_status st = xnn_create_transpose_nd_x32(0, op);
    if (st) return st;
    st = xnn_reshape_transpose_nd_x32(*op, s->nd, s->dims, s->perm, tp);
    return st ? st : xnn_setup_transpose_nd_x32(*op, in, out);
}

/* Every other index of axis `axis` (even length): slice_nd of the shape [outer, n/2, 2, inner]
 * keeping index 0 of the size-2 axis. */
static enum xnn_status slice2_op(const spec *s, const void *in, void *out, pthreadpool_t tp,
                                 xnn_operator_t *op) {
    size_t outer = 1, inner = 1;
    for (size_t i = 0; i < s->axis; i++) outer *= s->dims[i];
    for (size_t i = s->axis + 1; i < s->nd; i++) inner *= s->dims[i];
    size_t shape[4] = {outer, s->dims[s->axis] / 2, 2, inner}, off[4] = {0, 0, 0, 0};
    size_t size[4] = {outer, s->dims[s->axis] / 2, 1, inner};
    enum xnn_status st = s->esize == 2 ? xnn_create_slice_nd_x16(0, op)
                                       : xnn_create_slice_nd_x32(0, op);
    if (st) return st;
    st = s->esize == 2 ? xnn_reshape_slice_nd_x16(*op, 4, shape, off, size, tp)
                       : xnn_reshape_slice_nd_x32(*op, 4, shape, off, size, tp);
    if (st) return st;
    return s->esize == 2 ? xnn_setup_slice_nd_x16(*op, in, out)
                         : xnn_setup_slice_nd_x32(*op, in, out);
}
#endif

/* Creates the operators and buffers of spec s.  xnn_status_unsupported_parameter: this XNNPACK
 * has no operator for it. */
static enum xnn_status make_job(const spec *s, pthreadpool_t tp, job *j) {
    size_t n = numel(s);
    memset(j, 0, sizeof *j);
    j->nops = 1;
    j->in_bytes = n * s->esize;
    j->in = buf(j->in_bytes, 1);
    switch (s->kind) {
    case K_COPY:
        j->out_bytes = j->in_bytes;
        j->out = buf(j->out_bytes, 0);
        return copy_op(s->esize, 1, n, n, n, j->in, j->out, tp, &j->op[0]);
    case K_F32_F16: case K_F16_F32: case K_F32_BF16:
        j->out_bytes = n * (s->kind == K_F16_F32 ? 4 : 2);
        j->out = buf(j->out_bytes, 0);
        return convert_op(s->kind, n, j->in, j->out, tp, &j->op[0]);
    case K_CONCAT: { /* two inputs of shape dims: each is `outer` rows of `inner` elements */
        size_t outer = 1, inner = 1;
        for (size_t i = 0; i < s->axis; i++) outer *= s->dims[i];
        for (size_t i = s->axis; i < s->nd; i++) inner *= s->dims[i];
        j->in2 = buf(j->in_bytes, 1);
        j->out_bytes = 2 * j->in_bytes;
        j->out = buf(j->out_bytes, 0);
        j->nops = 2;
        enum xnn_status st = copy_op(s->esize, outer, inner, inner, 2 * inner, j->in, j->out, tp,
                                     &j->op[0]);
        if (st) return st;
        return copy_op(s->esize, outer, inner, inner, 2 * inner, j->in2,
                       (char *)j->out + inner * s->esize, tp, &j->op[1]);
    }
    case K_PAD: {
        size_t m = 1;
        for (size_t i = 0; i < s->nd; i++) m *= s->dims[i] + 2 * s->pad;
        j->out_bytes = m * 4;
        j->out = buf(j->out_bytes, 0);
        return pad_op(s, j->in, j->out, tp, &j->op[0]);
    }
    case K_D2S: case K_S2D:
        j->out_bytes = j->in_bytes;
        j->out = buf(j->out_bytes, 0);
        return d2s_op(s, j->in, j->out, tp, &j->op[0]);
    case K_TRANSPOSE: case K_SLICE2:
        j->out_bytes = s->kind == K_SLICE2 ? j->in_bytes / 2 : j->in_bytes;
        j->out = buf(j->out_bytes, 0);
#ifdef TX_XNN_RESHAPE
        return s->kind == K_TRANSPOSE ? transpose_op(s, j->in, j->out, tp, &j->op[0])
                                      : slice2_op(s, j->in, j->out, tp, &j->op[0]);
#else
        return xnn_status_unsupported_parameter; /* no transpose_nd or slice_nd in 2022 */
#endif
    }
    return xnn_status_unsupported_parameter;
}

static void free_job(job *j) {
    for (int k = 0; k < 2; k++)
        if (j->op[k]) xnn_delete_operator(j->op[k]);
    free(j->in);
    free(j->in2);
    free(j->out);
}

static int run_job(const job *j, pthreadpool_t tp) {
    for (int k = 0; k < j->nops; k++)
        if (xnn_run_operator(j->op[k], tp) != xnn_status_success) return -1;
    return 0;
}

/* ---- the check: tensorx's result of the same op on the same input ----------------------------- */

static tx_tensor *wrap_in(const spec *s, const void *data, tx_dtype dt) {
    int64_t d[6];
    for (size_t i = 0; i < s->nd; i++) d[i] = (int64_t)s->dims[i];
    tx_tensor *t = NULL;
    if (tx_tensor_from_data(dt, s->nd, d, data, numel(s) * s->esize, &t) != TX_OK) return NULL;
    return t;
}

static tx_tensor *ints(size_t rank, const int64_t *dims, const int32_t *v, size_t n) {
    tx_tensor *t = NULL;
    if (tx_tensor_from_data(TX_INT32, rank, dims, v, n * 4, &t) != TX_OK) return NULL;
    return t;
}

/* 1: XNNPACK's output equals tensorx's; 0: it differs (or tensorx could not run it). */
static int check_job(const spec *s, const job *j) {
    if (s->kind == K_COPY) return memcmp(j->in, j->out, j->out_bytes) == 0;
    if (s->kind == K_SLICE2) { /* the reference is a plain loop */
        size_t outer = 1, inner = 1, half = s->dims[s->axis] / 2, es = s->esize;
        for (size_t i = 0; i < s->axis; i++) outer *= s->dims[i];
        for (size_t i = s->axis + 1; i < s->nd; i++) inner *= s->dims[i];
        const char *in = j->in;
        const char *out = j->out;
        for (size_t o = 0; o < outer; o++)
            for (size_t k = 0; k < half; k++)
                if (memcmp(out + (o * half + k) * inner * es,
                           in + (o * 2 * half + 2 * k) * inner * es, inner * es) != 0)
                    return 0;
        return 1;
    }
    tx_dtype dt = s->esize == 2 ? TX_FLOAT16 : TX_FLOAT32;
    tx_tensor *a = wrap_in(s, j->in, dt), *b = NULL, *r = NULL, *o = NULL;
    tx_status st = a ? TX_OK : TX_INTERNAL;
    int64_t rank = (int64_t)s->nd;
    switch (s->kind) {
    case K_F32_F16: case K_F16_F32: case K_F32_BF16:
        if (!st) st = tx_cast(a, s->kind == K_F32_F16 ? TX_FLOAT16 : s->kind == K_F32_BF16
                                                                  ? TX_BFLOAT16 : TX_FLOAT32, &o);
        break;
    case K_TRANSPOSE: {
        int32_t p[6];
        for (size_t i = 0; i < s->nd; i++) p[i] = (int32_t)s->perm[i];
        r = ints(1, &rank, p, s->nd);
        if (!st) st = r ? tx_transpose(a, r, 0, &o) : TX_INTERNAL;
        break;
    }
    case K_CONCAT: {
        b = wrap_in(s, j->in2, dt);
        const tx_tensor *v[2] = {a, b};
        if (!st) st = b ? tx_concat(v, 2, (int64_t)s->axis, &o) : TX_INTERNAL;
        break;
    }
    case K_PAD: {
        int32_t p[12];
        int64_t pd[2] = {rank, 2};
        for (size_t i = 0; i < 2 * s->nd; i++) p[i] = (int32_t)s->pad;
        r = ints(2, pd, p, 2 * s->nd);
        if (!st) st = r ? tx_pad(a, r, TX_PAD_CONSTANT, NULL, &o) : TX_INTERNAL;
        break;
    }
    case K_D2S: case K_S2D:
        if (!st) st = s->kind == K_D2S ? tx_depth_to_space(a, 2, TX_FORMAT_NHWC, &o)
                                       : tx_space_to_depth(a, 2, TX_FORMAT_NHWC, &o);
        break;
    default:
        st = TX_INTERNAL;
    }
    int same = st == TX_OK && o && tx_tensor_nbytes(o) == j->out_bytes &&
               memcmp(tx_tensor_data(o), j->out, j->out_bytes) == 0;
    tx_tensor_free(a);
    tx_tensor_free(b);
    tx_tensor_free(r);
    tx_tensor_free(o);
    return same;
}

/* ---- timing ----------------------------------------------------------------------------------- */

/* Seconds per call: median over reps samples; a sample is enough calls to last about 2 ms (one
 * call for the large workloads).  The warm-up (5 calls, or fewer when they pass 1 s; the first
 * touches the output) is not counted, as in bench.c's time_op. */
static double time_job(const job *j, pthreadpool_t tp, int reps) {
    double t[64];
    if (reps > 64) reps = 64;
    double start = now_s(), last = 0;
    for (int k = 0; k < 5 && (k == 0 || now_s() - start < 1.0); k++) {
        double t0 = now_s();
        if (run_job(j, tp)) return -1;
        last = now_s() - t0;
    }
    long calls = last >= 2e-3 ? 1 : (long)(2e-3 / (last > 1e-8 ? last : 1e-8)) + 1;
    if (calls > 100000) calls = 100000;
    if (last > 1.0 && reps > 3) reps = 3; /* long workloads: fewer runs */
    for (int r = 0; r < reps; r++) {
        double t0 = now_s();
        for (long c = 0; c < calls; c++)
            if (run_job(j, tp)) return -1;
        t[r] = (now_s() - t0) / (double)calls;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    const char *stat = getenv("TX_BENCH_STAT"); /* as bench.c's median() */
    if (stat && !strcmp(stat, "min")) return t[0];
    return reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
}

/* Best seconds per call of spec s over 1 and 2 threads, checked first; -1 when XNNPACK has no
 * operator for it or its result differs from tensorx's. */
static double measure(const spec *s, const char *what, int reps) {
    double best = -1;
    int checked = 0;
    for (int threads = 1; threads <= 2; threads++) {
        pthreadpool_t tp = pthreadpool_create((size_t)threads);
        job j;
        int timed = 0;
        enum xnn_status st = make_job(s, tp, &j);
        if (st == xnn_status_success) {
            if (run_job(&j, tp) != 0) {
                fprintf(stderr, "xnn_peer: %s: run failed\n", what);
            } else if (!checked && !check_job(s, &j)) {
                fprintf(stderr, "xnn_peer: %s: the result differs from tensorx's; left out\n",
                        what);
            } else {
                checked = timed = 1;
                double t = time_job(&j, tp, reps);
                if (t > 0 && (best < 0 || t < best)) best = t;
            }
        } else if (st != xnn_status_unsupported_parameter) {
            fprintf(stderr, "xnn_peer: %s: status %d\n", what, (int)st);
        }
        free_job(&j);
        pthreadpool_destroy(tp);
        if (!timed) break; /* no operator, a failure or a wrong result: nothing more to time */
    }
    return best;
}

/* ---- the workloads of the main table (sizes mirror bench/workloads.c) ------------------------- */

static size_t side4096(size_t div) { return div >= 16 ? 1024 : div >= 4 ? 2048 : 4096; }
static size_t side8192(size_t div) { return div >= 16 ? 2048 : div >= 4 ? 4096 : 8192; }

static spec sp(enum kind k, size_t esize, size_t nd, const size_t *dims) {
    spec s;
    memset(&s, 0, sizeof s);
    s.kind = k;
    s.esize = esize;
    s.nd = nd;
    memcpy(s.dims, dims, nd * sizeof *dims);
    return s;
}
static spec sp_perm(size_t nd, const size_t *dims, const size_t *perm) {
    spec s = sp(K_TRANSPOSE, 4, nd, dims);
    memcpy(s.perm, perm, nd * sizeof *perm);
    return s;
}

static const char *const NAMES[] = {
    "copy_f32_64M", "cast_f32_f16", "cast_f16_f32", "cast_f32_bf16", "transpose_8192x8192",
    "transpose_64x512x512_021", "transpose_64x512x512_201", "transpose_nhwc_nchw_32x224x224x3",
    "concat_2x4096x4096_axis0", "concat_2x4096x4096_axis1", "pad_4096x4096_16_constant",
    "space_to_depth_8x256x256x64_b2", "depth_to_space_8x256x256x64_b2",
    "infer_nhwc_nchw_1x224x224x3", "infer_strided_slice_1x128x768_s2",
    "infer_concat_kv_f16_1x32x512x128_x2", "infer_cast_f32_bf16_1x4096"};
#define NUM_NAMES (sizeof NAMES / sizeof *NAMES)

static spec main_spec(size_t w, size_t div) {
    size_t n = ((size_t)64 << 20) / div, s4 = side4096(div), s8 = side8192(div);
    size_t b3 = 64 / div ? 64 / div : 1, b4 = 32 / div ? 32 / div : 1;
    size_t b8 = 8 / (div >= 8 ? 8 : div);
    switch (w) {
    case 0: return sp(K_COPY, 4, 1, &n);
    case 1: return sp(K_F32_F16, 4, 1, &n);
    case 2: return sp(K_F16_F32, 2, 1, &n);
    case 3: return sp(K_F32_BF16, 4, 1, &n);
    case 4: return sp_perm(2, (size_t[]){s8, s8}, (size_t[]){1, 0});
    case 5: return sp_perm(3, (size_t[]){b3, 512, 512}, (size_t[]){0, 2, 1});
    case 6: return sp_perm(3, (size_t[]){b3, 512, 512}, (size_t[]){2, 0, 1});
    case 7: return sp_perm(4, (size_t[]){b4, 224, 224, 3}, (size_t[]){0, 3, 1, 2});
    case 8: case 9: {
        spec s = sp(K_CONCAT, 4, 2, (size_t[]){s4, s4});
        s.axis = w - 8;
        return s;
    }
    case 10: {
        spec s = sp(K_PAD, 4, 2, (size_t[]){s4, s4});
        s.pad = 16;
        return s;
    }
    case 11: return sp(K_S2D, 4, 4, (size_t[]){b8, 256, 256, 64});
    case 12: return sp(K_D2S, 4, 4, (size_t[]){b8, 256, 256, 64});
    /* the inference shapes: the same size in quick mode */
    case 13: return sp_perm(4, (size_t[]){1, 224, 224, 3}, (size_t[]){0, 3, 1, 2});
    case 14: {
        spec s = sp(K_SLICE2, 4, 3, (size_t[]){1, 128, 768});
        s.axis = 1;
        return s;
    }
    case 15: {
        spec s = sp(K_CONCAT, 2, 4, (size_t[]){1, 32, 512, 128});
        s.axis = 2;
        return s;
    }
    default: return sp(K_F32_BF16, 4, 2, (size_t[]){1, 4096});
    }
}

/* ---- the size sweep (bench/sweep.py gives the shapes) ----------------------------------------- */

static const char *const FAMILIES[] = {"cast_f32_f16", "transpose_2d", "nhwc_nchw", "nchw_nhwc",
                                       "concat", "pad", "strided_slice", "depth_to_space"};
#define NUM_FAMILIES (sizeof FAMILIES / sizeof *FAMILIES)

/* The spec of a sweep family on dims (see bench/sweep.py for what each family's dims are). */
static int sweep_spec(const char *fam, size_t nd, const size_t *dims, spec *out) {
    if (!strcmp(fam, "cast_f32_f16")) *out = sp(K_F32_F16, 4, nd, dims);
    else if (!strcmp(fam, "transpose_2d") && nd == 2) *out = sp_perm(2, dims, (size_t[]){1, 0});
    else if (!strcmp(fam, "nhwc_nchw") && nd == 4) *out = sp_perm(4, dims, (size_t[]){0, 3, 1, 2});
    else if (!strcmp(fam, "nchw_nhwc") && nd == 4) *out = sp_perm(4, dims, (size_t[]){0, 2, 3, 1});
    else if (!strcmp(fam, "concat") && nd == 2) { *out = sp(K_CONCAT, 4, 2, dims); out->axis = 1; }
    else if (!strcmp(fam, "pad") && nd == 2) { *out = sp(K_PAD, 4, 2, dims); out->pad = 1; }
    else if (!strcmp(fam, "strided_slice") && nd == 2) {
        *out = sp(K_SLICE2, 4, 2, dims);
        out->axis = 0;
    }
    else if (!strcmp(fam, "depth_to_space") && nd == 4) *out = sp(K_D2S, 4, 4, dims);
    else return 0;
    return 1;
}

static int run_sweep(const char *fam, const char *dims_list, int reps) {
    char *copy = strdup(dims_list), *save = NULL;
    if (!copy) return 1;
    for (char *item = strtok_r(copy, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
        size_t dims[6], nd = 0;
        for (char *p = item; *p && nd < 6;) {
            dims[nd++] = (size_t)strtoull(p, &p, 10);
            if (*p == ',') p++;
            else if (*p) break;
        }
        spec s;
        if (!sweep_spec(fam, nd, dims, &s)) {
            fprintf(stderr, "xnn_peer: no sweep family %s with %zu dims\n", fam, nd);
            free(copy);
            return 2;
        }
        char what[128];
        snprintf(what, sizeof what, "%s %s", fam, item);
        double t = measure(&s, what, reps);
        if (t > 0)
            printf("{\"family\": \"%s\", \"dims\": \"%s\", \"peer\": \"%s\", \"s\": %.6g}\n", fam,
                   item, TX_XNN_PEER_NAME, t);
        fflush(stdout);
    }
    free(copy);
    return 0;
}

/* Whether this build has an operator for spec s (without running it). */
static int supported(const spec *s) {
#ifdef TX_XNN_RESHAPE
    (void)s;
    return 1;
#else
    return s->kind != K_TRANSPOSE && s->kind != K_SLICE2 && s->kind != K_S2D &&
           s->kind != K_F32_BF16;
#endif
}

int main(int argc, char **argv) {
    int quick = 0, reps = 0, list = 0, sweep_list = 0;
    const char *filter = NULL, *exact = NULL, *sweep = NULL, *dims = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--exact") && i + 1 < argc) exact = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = 1;
        else if (!strcmp(argv[i], "--sweep-list")) sweep_list = 1;
        else if (!strcmp(argv[i], "--sweep") && i + 1 < argc) sweep = argv[++i];
        else if (!strcmp(argv[i], "--dims") && i + 1 < argc) dims = argv[++i];
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else {
            fprintf(stderr, "xnn_peer: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (reps <= 0) reps = quick ? 3 : 5;
    size_t div = quick ? 8 : 1;
    if (list || sweep_list) {
        if (list)
            for (size_t w = 0; w < NUM_NAMES; w++) {
                spec s = main_spec(w, 1);
                if (supported(&s)) printf("%s\n", NAMES[w]);
            }
        if (sweep_list)
            for (size_t f = 0; f < NUM_FAMILIES; f++) {
                spec s;
                size_t d4[4] = {1, 2, 2, 4};
                sweep_spec(FAMILIES[f], f == 2 || f == 3 || f == 7 ? 4 : 2, d4, &s);
                if (supported(&s)) printf("%s\n", FAMILIES[f]);
            }
        return 0;
    }
    if (xnn_initialize(NULL) != xnn_status_success) {
        fprintf(stderr, "xnn_peer: xnn_initialize failed\n");
        return 1;
    }
    tx_set_num_threads(1); /* tensorx only makes the reference results here */
    if (sweep) {
        if (!dims) {
            fprintf(stderr, "xnn_peer: --sweep needs --dims\n");
            return 2;
        }
        return run_sweep(sweep, dims, reps);
    }
    for (size_t w = 0; w < NUM_NAMES; w++) {
        if (filter && !strstr(NAMES[w], filter)) continue;
        if (exact && strcmp(NAMES[w], exact) != 0) continue;
        spec s = main_spec(w, div);
        if (!supported(&s)) continue;
        double best = measure(&s, NAMES[w], reps);
        if (best > 0)
            printf("{\"workload\": \"%s\", \"peer\": \"%s\", \"s\": %.6g}\n", NAMES[w],
                   TX_XNN_PEER_NAME, best);
        fflush(stdout);
    }
    tx_shutdown();
    return 0;
}
