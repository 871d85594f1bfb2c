/* SPDX-License-Identifier: Apache-2.0 */
/* nhwc_to_nchw.c -- batch preparation for a channels-first model: a uint8 image batch in NHWC
 * (data/images_nhwc.npy, [2, 4, 4, 3]) becomes float32 NCHW ([2, 3, 4, 4]) with tf.cast and
 * tf.transpose(perm = [0, 3, 1, 2]).  The program checks every element and exits non-zero on a
 * mismatch.  usage: nhwc_to_nchw [DATA_DIR] */
#include <stdio.h>
#include <tensorx.h>

static int check(tx_status st, const char *what) {
    if (st != TX_OK) fprintf(stderr, "%s: %s: %s\n", what, tx_status_name(st), tx_last_error());
    return st != TX_OK;
}

int main(int argc, char **argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/images_nhwc.npy", argc > 1 ? argv[1] : "data");
    tx_tensor *nhwc = NULL, *f32 = NULL, *perm = NULL, *nchw = NULL;
    const int32_t order[4] = {0, 3, 1, 2};
    const int64_t four[1] = {4};
    int bad = check(tx_npy_load(path, &nhwc), "load") ||
              check(tx_cast(nhwc, TX_FLOAT32, &f32), "cast") ||
              check(tx_tensor_from_data(TX_INT32, 1, four, order, sizeof order, &perm), "perm") ||
              check(tx_transpose(f32, perm, 0, &nchw), "transpose");
    if (!bad && (tx_tensor_rank(nhwc) != 4 || tx_tensor_dtype(nhwc) != TX_UINT8)) {
        fprintf(stderr, "%s is not a 4-D uint8 batch\n", path);
        bad = 1;
    }
    if (!bad) {
        const int64_t *d = tx_tensor_dims(nhwc);
        int64_t N = d[0], H = d[1], W = d[2], C = d[3];
        const int64_t *o = tx_tensor_dims(nchw);
        bad = o[0] != N || o[1] != C || o[2] != H || o[3] != W;
        const unsigned char *in = tx_tensor_data_const(nhwc);
        const float *out = tx_tensor_data_const(nchw);
        for (int64_t n = 0; n < N && !bad; n++)
            for (int64_t c = 0; c < C; c++)
                for (int64_t h = 0; h < H; h++)
                    for (int64_t w = 0; w < W; w++)
                        if (out[((n * C + c) * H + h) * W + w] != (float)in[((n * H + h) * W + w) * C + c])
                            bad = 1;
        if (bad) fprintf(stderr, "NCHW result differs from the NHWC input\n");
        else printf("nhwc_to_nchw: [%lld, %lld, %lld, %lld] uint8 -> [%lld, %lld, %lld, %lld] float32\n",
                    (long long)N, (long long)H, (long long)W, (long long)C, (long long)N,
                    (long long)C, (long long)H, (long long)W);
    }
    tx_tensor_free(nhwc);
    tx_tensor_free(f32);
    tx_tensor_free(perm);
    tx_tensor_free(nchw);
    tx_shutdown(); /* joins tensorx's worker threads, empties its allocation cache */
    return bad;
}
