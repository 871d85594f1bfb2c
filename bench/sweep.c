/* SPDX-License-Identifier: Apache-2.0 */
/* sweep.c -- tensorx_bench --sweep (bench/sweep.py's size sweep): one op family at each shape it
 * is given, at the default thread count and at one thread. */
#define _DEFAULT_SOURCE 1
#define TX_EXPERIMENTAL_API /* CPU levels and the allocation cache (tensorx.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "dispatch/dispatch.h" /* the bare kernel's time (tensorx_kernel) */

/* ---- the size sweep (bench/sweep.py): one family at the shapes it is given -------------------- */

/* Sets up family `fam` on dims (what each family's dims mean: bench/sweep.py) and picks its run
 * function; 0 if there is no such family or the dims do not fit it. */
static int sweep_setup(const char *fam, size_t nd, const int64_t *dims, wl_state *s, workload *w) {
    memset(s, 0, sizeof *s);
    memset(w, 0, sizeof *w);
    w->name = fam;
    w->family = "sweep";
    int64_t two = 2, four = 4;
    if (!strcmp(fam, "cast_f32_f16") && nd == 1) {
        s->in[0] = mk(TX_FLOAT32, 1, dims, FILL_FLOAT);
        s->a = TX_FLOAT16;
        w->run = run_cast;
        w->call = call_cast;
    } else if (!strcmp(fam, "decode_raw_le_f32") && nd == 1) {
        size_t n = (size_t)dims[0];
        char *b = big_buffer(n);
        for (size_t i = 0; i < n / 8; i++) ((uint64_t *)b)[i] = next_rand() & 0x3F7F3F7F3F7F3F7Full;
        const char *p = b;
        tx_status st = tx_tensor_new_strings(0, NULL, &p, &n, &s->in[0]);
        if (st != TX_OK) die("tensor_new_strings", st);
        free(b);
        s->a = TX_FLOAT32;
        s->b = 1;
        w->run = run_decode;
    } else if ((!strcmp(fam, "transpose_2d") && nd == 2) ||
               ((!strcmp(fam, "nhwc_nchw") || !strcmp(fam, "nchw_nhwc")) && nd == 4)) {
        static const int32_t p2[2] = {1, 0}, to_nchw[4] = {0, 3, 1, 2}, to_nhwc[4] = {0, 2, 3, 1};
        s->in[0] = mk(TX_FLOAT32, nd, dims, FILL_BYTES);
        s->in[1] = mk_ints(1, nd == 2 ? &two : &four,
                           nd == 2 ? p2 : !strcmp(fam, "nhwc_nchw") ? to_nchw : to_nhwc);
        w->run = run_transpose;
        w->call = call_transpose;
    } else if (!strcmp(fam, "concat") && nd == 2) { /* two [r, c] along axis 1 */
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->a = 1;
        w->run = run_concat;
        w->call = call_concat;
    } else if (!strcmp(fam, "pad") && nd == 2) { /* 1 on every side, constant */
        const int64_t pd[2] = {2, 2};
        const int32_t pv[4] = {1, 1, 1, 1};
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk_ints(2, pd, pv);
        s->a = TX_PAD_CONSTANT;
        w->run = run_pad;
        w->call = call_pad;
    } else if (!strcmp(fam, "strided_slice") && nd == 2) { /* x[::2, :] */
        const int32_t zero[2] = {0, 0}, strides[2] = {2, 1};
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk_ints(1, &two, zero);
        s->in[2] = mk_ints(1, &two, zero);
        s->in[3] = mk_ints(1, &two, strides);
        s->a = s->b = 3;
        w->run = run_strided;
        w->call = call_strided;
    } else if (!strcmp(fam, "gather_rows") && nd == 2) { /* as many random rows as the table has */
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk_index(dims[0], dims[0], NULL);
        s->a = 0;
        w->run = run_gather;
        w->call = call_gather;
    } else if (!strcmp(fam, "depth_to_space") && nd == 4) { /* NHWC, block 2 */
        s->in[0] = mk(TX_FLOAT32, 4, dims, FILL_BYTES);
        s->a = 1;
        w->run = run_s2d;
        w->call = call_s2d;
    } else if (!strcmp(fam, "one_hot") && nd == 1) { /* dims[0] labels, depth 1000 */
        s->in[0] = mk_index(dims[0], 1000, NULL);
        w->run = run_one_hot;
        w->call = call_one_hot;
    } else {
        return 0;
    }
    return 1;
}

static void print_time(const char *fam, const char *dims, const char *peer, double s) {
    printf("{\"family\": \"%s\", \"dims\": \"%s\", \"peer\": \"%s\", \"s\": %.6g, "
           "\"threads\": %d}\n", fam, dims, peer, s, tx_num_threads());
    fflush(stdout);
}

/* Seconds per call of the transpose kernel itself on a [r, c] float32: the dispatched 2-D kernel
 * called on the whole plane, one thread.  What a prepared run costs beyond it is its own overhead
 * (above 64 KiB the op cuts the plane into stripes, which this call does not, so there the ratio
 * can fall below 1). */
static double time_bare_transpose(const tx_tensor *x, int reps) {
    const int64_t *d = tx_tensor_dims(x);
    const int64_t rows = d[0], cols = d[1];
    tx__transpose2d_fn kernel = tx__kernels_get()->transpose2d[tx__width_index(4)];
    size_t n = tx_tensor_nbytes(x);
    char *out = big_buffer(n);
    const char *in = tx_tensor_data_const(x);
    double t0 = now_s(), t[64], last;
    kernel(out, in, rows, cols, cols * 4, rows * 4, false);
    last = now_s() - t0;
    for (int k = 0; k < 50 && now_s() - t0 < 1.0; k++) {
        double t1 = now_s();
        kernel(out, in, rows, cols, cols * 4, rows * 4, false);
        last = now_s() - t1;
    }
    long calls = calls_per_sample(last);
    if (reps > 64) reps = 64;
    for (int r = 0; r < reps; r++) {
        double t1 = now_s();
        for (long c = 0; c < calls; c++) kernel(out, in, rows, cols, cols * 4, rows * 4, false);
        t[r] = (now_s() - t1) / (double)calls;
    }
    free(out);
    return median(t, reps);
}

/* For each shape of `dims_list` ("D0,D1;D0,D1;..."): seconds per call of tensorx at its default
 * thread count, then at one thread, as JSON lines {"family", "dims", "peer", "s"} with peer
 * "tensorx" and "tensorx_1t"; the prepared path's runs as "tensorx_prep" and "tensorx_prep_1t"
 * where the family's op has one; transpose_2d's bare kernel as "tensorx_kernel". */
int run_sweep(const char *fam, const char *dims_list, int reps) {
    char *list = strdup(dims_list), *save = NULL;
    if (!list) return 1;
    for (char *item = strtok_r(list, ";", &save); item; item = strtok_r(NULL, ";", &save)) {
        int64_t dims[6];
        size_t nd = 0;
        for (char *p = item; *p && nd < 6;) {
            dims[nd++] = strtoll(p, &p, 10);
            if (*p == ',') p++;
            else if (*p) break;
        }
        wl_state s;
        workload w;
        if (!sweep_setup(fam, nd, dims, &s, &w)) {
            fprintf(stderr, "bench: no sweep family %s with %zu dims\n", fam, nd);
            free(list);
            return 2;
        }
        for (int one = 0; one < 2; one++) {
            tx_set_num_threads(one ? 1 : 0);
            double t = time_op(&w, &s, reps, NULL);
            print_time(fam, item, one ? "tensorx_1t" : "tensorx", t);
            /* The prepared path: the same call prepared once, then runs into touched memory. */
            t = time_prepared(&w, &s, reps, NULL);
            if (t == t) print_time(fam, item, one ? "tensorx_prep_1t" : "tensorx_prep", t);
        }
        if (!strcmp(fam, "transpose_2d")) { /* the floor of a prepared run: the kernel alone */
            tx_set_num_threads(1);
            print_time(fam, item, "tensorx_kernel", time_bare_transpose(s.in[0], reps));
        }
        tx_set_num_threads(0);
        for (int k = 0; k < 4; k++) tx_tensor_free(s.in[k]);
    }
    free(list);
    return 0;
}
