/* SPDX-License-Identifier: Apache-2.0 */
/* one_hot_labels.c -- class labels to one-hot rows for a classifier's loss: data/labels.npy
 * (int32 [5], classes 0..3) becomes float32 [5, 4] with tf.one_hot(depth = 4), then an out-of-range
 * label shows TF's rule (an all-zero row, no error).  The program checks every element and exits
 * non-zero on a mismatch.  usage: one_hot_labels [DATA_DIR] */
#include <stdio.h>
#include <tensorx.h>

static int check(tx_status st, const char *what) {
    if (st != TX_OK) fprintf(stderr, "%s: %s: %s\n", what, tx_status_name(st), tx_last_error());
    return st != TX_OK;
}

int main(int argc, char **argv) {
    char path[4096];
    snprintf(path, sizeof path, "%s/labels.npy", argc > 1 ? argv[1] : "data");
    tx_tensor *labels = NULL, *rows = NULL, *odd = NULL, *odd_rows = NULL;
    const int depth = 4;
    int bad = check(tx_npy_load(path, &labels), "load") ||
              check(tx_one_hot(labels, depth, NULL, NULL, -1, TX_FLOAT32, &rows), "one_hot");
    if (!bad) {
        int64_t n = tx_tensor_numel(labels);
        const float *r = tx_tensor_data_const(rows);
        bad = tx_tensor_rank(rows) != 2 || tx_tensor_dim(rows, 0) != n || tx_tensor_dim(rows, 1) != depth;
        for (int64_t i = 0; i < n && !bad; i++) {
            int64_t label;
            bad = check(tx_tensor_get_int(labels, i, &label), "label");
            for (int j = 0; j < depth && !bad; j++)
                if (r[i * depth + j] != (j == label ? 1.0f : 0.0f)) bad = 1;
        }
        if (bad) fprintf(stderr, "one_hot rows are wrong\n");
        else printf("one_hot_labels: %lld labels -> [%lld, %d] float32\n", (long long)n, (long long)n, depth);
    }
    /* TF's rule: a label outside [0, depth) gives a row of off_value, not an error. */
    const int32_t weird[2] = {-1, 7};
    const int64_t two[1] = {2};
    if (!bad)
        bad = check(tx_tensor_from_data(TX_INT32, 1, two, weird, sizeof weird, &odd), "labels") ||
              check(tx_one_hot(odd, depth, NULL, NULL, -1, TX_FLOAT32, &odd_rows), "one_hot");
    if (!bad) {
        const float *r = tx_tensor_data_const(odd_rows);
        for (int k = 0; k < 2 * depth; k++) bad |= r[k] != 0.0f;
        if (bad) fprintf(stderr, "out-of-range labels did not give zero rows\n");
    }
    tx_tensor_free(labels);
    tx_tensor_free(rows);
    tx_tensor_free(odd);
    tx_tensor_free(odd_rows);
    tx_shutdown(); /* joins tensorx's worker threads, empties its allocation cache */
    return bad;
}
