/* SPDX-License-Identifier: Apache-2.0 */
/* prepared_loop.c -- an inference runtime's loop with prepared ops (tensorx/prepared.h): one arena
 * allocated up front holds a float32 NHWC frame batch, its NCHW transpose, and a [N, C, 8, 16]
 * result whose left and right halves are two 8x8 crops of the transpose, written in place (output
 * strides: the concat of the crops along the last axis costs no copy).  The ops are prepared once;
 * every frame then runs them on raw pointers into the arena, on the runtime's own parallel-for
 * (here a plain loop), with no allocation: the program counts the allocator's calls during the
 * loop, and checks the last frame against the op calls.  usage: prepared_loop */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tensorx.h>

enum { N = 2, H = 12, W = 12, C = 3, CROP = 8 };

static long allocations;
static void *counting_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    allocations++;
    return aligned_alloc(align, (size + align - 1) / align * align);
}
static void counting_free(void *p, size_t size, void *ctx) {
    (void)size;
    (void)ctx;
    free(p);
}

/* The runtime's parallel-for: a real runtime hands the tasks to its worker threads. */
static void runtime_parallel_for(void *ctx, tx_task_fn task, void *task_ctx, size_t n) {
    (void)ctx;
    for (size_t i = 0; i < n; i++) task(task_ctx, i);
}

static int check(tx_status st, const char *what) {
    if (st != TX_OK) fprintf(stderr, "%s: %s: %s\n", what, tx_status_name(st), tx_last_error());
    return st != TX_OK;
}

int main(void) {
    tx_set_allocator(&(tx_allocator){counting_alloc, counting_free, NULL});
    /* The arena: input frames, the NCHW batch, the [N, C, CROP, 2 * CROP] result. */
    const size_t in_n = N * H * W * C, mid_n = in_n, out_n = N * C * CROP * 2 * CROP;
    float *arena = malloc((in_n + mid_n + out_n) * sizeof(float));
    if (arena == NULL) return 1;
    float *frames = arena, *nchw = arena + in_n, *result = arena + in_n + mid_n;

    /* Prepare: the data inputs are tensors over the arena, looked at for dtype and shape only. */
    const int64_t nhwc_dims[4] = {N, H, W, C}, nchw_dims[4] = {N, C, H, W}, four[1] = {4};
    const int32_t perm_v[4] = {0, 3, 1, 2}, left_v[4] = {0, 0, 0, 0}, right_v[4] = {0, 0, 4, 4};
    const int32_t size_v[4] = {N, C, CROP, CROP};
    tx_tensor *x = NULL, *mid = NULL, *perm = NULL, *left = NULL, *right = NULL, *size = NULL;
    tx_tensor *none = NULL;
    tx_op *to_nchw = NULL, *crop_left = NULL, *crop_right = NULL;
    /* Each crop is a window of the result: rows of 2 * CROP floats, the crop in one half. */
    const int64_t window[4] = {C * CROP * 2 * CROP * 4, CROP * 2 * CROP * 4, 2 * CROP * 4, 4};
    const int64_t *window_of_output[1] = {window};
    tx_prepare_options in_result = TX_PREPARE_OPTIONS_INIT(1, window_of_output);
    int bad = check(tx_tensor_wrap(TX_FLOAT32, 4, nhwc_dims, frames, in_n * 4, NULL, NULL, &x), "x") ||
              check(tx_tensor_wrap(TX_FLOAT32, 4, nchw_dims, nchw, mid_n * 4, NULL, NULL, &mid), "mid") ||
              check(tx_tensor_from_data(TX_INT32, 1, four, perm_v, sizeof perm_v, &perm), "perm") ||
              check(tx_tensor_from_data(TX_INT32, 1, four, left_v, sizeof left_v, &left), "left") ||
              check(tx_tensor_from_data(TX_INT32, 1, four, right_v, sizeof right_v, &right), "right") ||
              check(tx_tensor_from_data(TX_INT32, 1, four, size_v, sizeof size_v, &size), "size") ||
              check(TX_PREPARE(&to_nchw, NULL, tx_transpose(x, perm, 0, &none)), "prepare transpose") ||
              check(TX_PREPARE(&crop_left, &in_result, tx_slice(mid, left, size, &none)), "prepare left crop") ||
              check(TX_PREPARE(&crop_right, &in_result, tx_slice(mid, right, size, &none)), "prepare right crop");

    /* The loop: a new frame batch each time, three runs, nothing allocated. */
    tx_runner runner = TX_RUNNER_INIT(runtime_parallel_for, NULL, 4);
    long before = allocations;
    for (int frame = 0; frame < 100 && !bad; frame++) {
        for (size_t i = 0; i < in_n; i++) frames[i] = (float)((i * 7 + (size_t)frame) % 251);
        const void *in_x[1] = {frames}, *in_mid[1] = {nchw};
        void *out_mid[1] = {nchw}, *out_left[1] = {result}, *out_right[1] = {result + CROP};
        bad = check(tx_op_run(to_nchw, in_x, out_mid, &runner), "run transpose") ||
              check(tx_op_run(crop_left, in_mid, out_left, &runner), "run left crop") ||
              check(tx_op_run(crop_right, in_mid, out_right, &runner), "run right crop");
    }
    if (!bad && allocations != before) {
        fprintf(stderr, "the loop allocated %ld times\n", allocations - before);
        bad = 1;
    }

    /* The last frame against the op calls. */
    tx_tensor *want_mid = NULL, *want_left = NULL, *want_right = NULL;
    bad = bad || check(tx_transpose(x, perm, 0, &want_mid), "transpose") ||
          check(tx_slice(want_mid, left, size, &want_left), "left crop") ||
          check(tx_slice(want_mid, right, size, &want_right), "right crop");
    if (!bad) {
        const float *l = tx_tensor_data_const(want_left), *r = tx_tensor_data_const(want_right);
        for (size_t row = 0; row < N * C * CROP && !bad; row++)
            bad = memcmp(result + row * 2 * CROP, l + row * CROP, CROP * 4) != 0 ||
                  memcmp(result + row * 2 * CROP + CROP, r + row * CROP, CROP * 4) != 0;
        if (bad) fprintf(stderr, "the result differs from the op calls\n");
    }
    if (!bad) printf("100 frames: 3 prepared runs each, 0 allocations; last frame checked\n");
    tx_tensor_free(want_mid);
    tx_tensor_free(want_left);
    tx_tensor_free(want_right);
    tx_op_free(to_nchw);
    tx_op_free(crop_left);
    tx_op_free(crop_right);
    tx_tensor_free(x);
    tx_tensor_free(mid);
    tx_tensor_free(perm);
    tx_tensor_free(left);
    tx_tensor_free(right);
    tx_tensor_free(size);
    free(arena);
    tx_shutdown();
    return bad;
}
