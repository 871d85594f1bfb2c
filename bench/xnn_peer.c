/* SPDX-License-Identifier: Apache-2.0 */
/* xnn_peer.c -- the XNNPACK peer of the tensorx benchmark (bench/peers.py runs it): the workloads
 * that XNNPACK's operators cover (Debian's libxnnpack-dev, 2022: convert f32<->f16, copy, constant
 * pad, depth_to_space NHWC, and concat expressed as strided copies), timed with pthreadpool at 1
 * and 2 threads; the better of the two is reported.  XNNPACK always writes into caller memory, so
 * this is its into-existing-memory time (the output is touched by the warm-up run).  Prints JSON
 * lines {"workload", "peer": "xnnpack", "s"}.  Sizes mirror bench/bench.c.
 *   tensorx_xnn_peer [--quick] [--filter SUBSTR] [--exact NAME] [--reps N] [--list] */
#define _DEFAULT_SOURCE 1
#include <pthreadpool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xnnpack.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void *buf(size_t n, int fill) {
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 1)) exit(1);
    unsigned char *c = p;
    for (size_t i = 0; i < n; i++) c[i] = (unsigned char)(fill ? (i * 2654435761u >> 13) & 0x3F : 0);
    return p;
}

typedef struct job {
    xnn_operator_t op[2];
    int nops;
} job;

static double time_job(const job *j, pthreadpool_t tp, int reps) {
    double t[32];
    if (reps > 32) reps = 32;
    for (int r = -1; r < reps; r++) {
        double t0 = now_s();
        for (int k = 0; k < j->nops; k++)
            if (xnn_run_operator(j->op[k], tp) != xnn_status_success) return -1;
        double dt = now_s() - t0;
        if (r >= 0) t[r] = dt;
    }
    qsort(t, (size_t)reps, sizeof *t, cmp_double);
    return reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
}

static int64_t side4096(int64_t div) { return div >= 16 ? 1024 : div >= 4 ? 2048 : 4096; }

int main(int argc, char **argv) {
    int quick = 0, reps = 0;
    const char *filter = NULL, *exact = NULL;
    int list = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--exact") && i + 1 < argc) exact = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = 1;
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    }
    if (reps <= 0) reps = quick ? 3 : 5;
    int64_t div = quick ? 8 : 1;
    if (xnn_initialize(NULL) != xnn_status_success) {
        fprintf(stderr, "xnn_peer: xnn_initialize failed\n");
        return 1;
    }
    static const char *names[] = {"copy_f32_64M", "cast_f32_f16", "cast_f16_f32",
                                  "pad_4096x4096_16_constant", "concat_2x4096x4096_axis0",
                                  "concat_2x4096x4096_axis1", "depth_to_space_8x256x256x64_b2"};
    if (list) {
        for (int w = 0; w < 7; w++) printf("%s\n", names[w]);
        return 0;
    }
    for (int w = 0; w < 7; w++) {
        if (filter && !strstr(names[w], filter)) continue;
        if (exact && strcmp(names[w], exact) != 0) continue;
        double best = -1;
        for (int threads = 1; threads <= 2; threads++) {
            pthreadpool_t tp = pthreadpool_create((size_t)threads);
            job j = {{NULL, NULL}, 1};
            void *in = NULL, *in2 = NULL, *out = NULL;
            enum xnn_status st = xnn_status_success;
            size_t n = (size_t)((64 << 20) / div), s = (size_t)side4096(div);
            switch (w) {
            case 0:
                in = buf(n * 4, 1);
                out = buf(n * 4, 0);
                st = xnn_create_copy_nc_x32(1, 1, 1, 0, &j.op[0]);
                if (!st) st = xnn_setup_copy_nc_x32(j.op[0], n, in, out, tp);
                break;
            case 1:
                in = buf(n * 4, 1);
                out = buf(n * 2, 0);
                st = xnn_create_convert_nc_f32_f16(1, 1, 1, 0, &j.op[0]);
                if (!st) st = xnn_setup_convert_nc_f32_f16(j.op[0], n, in, out, tp);
                break;
            case 2:
                in = buf(n * 2, 1);
                out = buf(n * 4, 0);
                st = xnn_create_convert_nc_f16_f32(1, 1, 1, 0, &j.op[0]);
                if (!st) st = xnn_setup_convert_nc_f16_f32(j.op[0], n, in, out, tp);
                break;
            case 3: {
                size_t shape[2] = {s, s}, pre[2] = {16, 16}, post[2] = {16, 16};
                const float zero = 0.0f;
                in = buf(s * s * 4, 1);
                out = buf((s + 32) * (s + 32) * 4, 0);
                st = xnn_create_constant_pad_nd_x32(&zero, 0, &j.op[0]);
                if (!st) st = xnn_setup_constant_pad_nd_x32(j.op[0], 2, shape, pre, post, in, out, tp);
                break;
            }
            case 4: /* two contiguous copies into the halves */
            case 5: { /* two strided copies into the left and right halves of each row */
                in = buf(s * s * 4, 1);
                in2 = buf(s * s * 4, 1);
                out = buf(2 * s * s * 4, 0);
                j.nops = 2;
                size_t ch = w == 4 ? 1 : s, ostride = w == 4 ? 1 : 2 * s, batch = w == 4 ? s * s : s;
                float *o2 = (float *)out + (w == 4 ? s * s : s);
                st = xnn_create_copy_nc_x32(ch, ch, ostride, 0, &j.op[0]);
                if (!st) st = xnn_create_copy_nc_x32(ch, ch, ostride, 0, &j.op[1]);
                if (!st) st = xnn_setup_copy_nc_x32(j.op[0], batch, in, out, tp);
                if (!st) st = xnn_setup_copy_nc_x32(j.op[1], batch, in2, o2, tp);
                break;
            }
            default: {
                size_t b = (size_t)(8 / (div >= 8 ? 8 : div));
                in = buf(b * 256 * 256 * 64 * 4, 1);
                out = buf(b * 256 * 256 * 64 * 4, 0);
                st = xnn_create_depth_to_space_nhwc_x32(16, 64, 16, 2, 0, &j.op[0]);
                if (!st) st = xnn_setup_depth_to_space_nhwc_x32(j.op[0], b, 256, 256, in, out, tp);
                break;
            }
            }
            if (st == xnn_status_success) {
                double t = time_job(&j, tp, reps);
                if (t > 0 && (best < 0 || t < best)) best = t;
            } else {
                fprintf(stderr, "xnn_peer: %s: status %d\n", names[w], (int)st);
            }
            for (int k = 0; k < 2; k++)
                if (j.op[k]) xnn_delete_operator(j.op[k]);
            free(in);
            free(in2);
            free(out);
            pthreadpool_destroy(tp);
        }
        if (best > 0) printf("{\"workload\": \"%s\", \"peer\": \"xnnpack\", \"s\": %.6g}\n", names[w], best);
        fflush(stdout);
    }
    return 0;
}
