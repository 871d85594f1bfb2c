/* SPDX-License-Identifier: Apache-2.0 */
/* shutdown_clean.c -- a user program as the docs ask for one: it frees every tensor and ends with
 * tx_shutdown(), and the test valgrind.shutdown (tests/valgrind/run.sh) requires memcheck to find
 * nothing at all in it, not even "possibly lost" or "still reachable" memory.  It does what leaves
 * memory behind otherwise: a large cast on two threads (the pool's worker thread, whose stack and
 * thread-local storage memcheck calls possibly lost) and large freed blocks (the allocator's
 * cache, still reachable), plus a read-only mapped file.  With --no-shutdown it skips
 * tx_shutdown(), and the test requires memcheck to report that run: the check can fail.
 * usage: shutdown_clean DATA_DIR [--no-shutdown] */
#include <stdio.h>
#include <string.h>
#include <tensorx.h>

static int check(tx_status st, const char *what) {
    if (st != TX_OK) fprintf(stderr, "%s: %s: %s\n", what, tx_status_name(st), tx_last_error());
    return st != TX_OK;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: shutdown_clean DATA_DIR [--no-shutdown]\n");
        return 2;
    }
    int shutdown = !(argc > 2 && strcmp(argv[2], "--no-shutdown") == 0);
    tx_set_num_threads(2); /* a worker thread even on one CPU */
    const int64_t n = (int64_t)1 << 20; /* 4 MiB in, 8 MiB out: split over the threads, cached */
    tx_tensor *x = NULL, *y = NULL, *img = NULL;
    int bad = check(tx_tensor_new(TX_FLOAT32, 1, &n, &x), "new") ||
              check(tx_cast(x, TX_FLOAT64, &y), "cast");
    if (!bad) bad = ((const double *)tx_tensor_data_const(y))[n - 1] != 0.0;

    /* The example batch, mapped in place: read-only, read through the const accessor. */
    char path[4096];
    snprintf(path, sizeof path, "%s/images_nhwc.npy", argv[1]);
    int64_t dims[TX_MAX_RANK];
    tx_npy_info info = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    if (!bad)
        bad = check(tx_npy_read_info(path, &info), "read_info") ||
              check(tx_file_map(path, info.data_offset, info.dtype, info.rank, info.dims,
                                info.byte_swapped, &img), "file_map");
    if (!bad) {
        const unsigned char *p = tx_tensor_data_const(img);
        unsigned sum = 0;
        for (size_t i = 0; i < tx_tensor_nbytes(img); i++) sum += p[i];
        bad = tx_tensor_is_writable(img) || tx_tensor_data(img) != NULL;
        printf("shutdown_clean: %zu mapped bytes (sum %u), %d threads\n", tx_tensor_nbytes(img),
               sum, tx_num_threads());
    }
    tx_tensor_free(img);
    tx_tensor_free(y);
    tx_tensor_free(x);
    if (shutdown) tx_shutdown();
    return bad;
}
