/* SPDX-License-Identifier: Apache-2.0 */
/* dlpack_roundtrip.c -- handing tensors to DLPack consumers (PyTorch, NumPy, JAX...) and taking
 * theirs, without copies.  A producer's DLManagedTensor (here a hand-made one over a static
 * buffer) is imported; a tensorx op runs on it; the result is exported back as a DLManagedTensor
 * whose deleter the consumer calls.  The program checks that no copy happened and that the
 * producer's deleter ran exactly once, and exits non-zero otherwise.  usage: dlpack_roundtrip */
#include <dlpack/dlpack.h>
#include <stdio.h>
#include <tensorx.h>

static int deleted;
static void producer_deleter(DLManagedTensor *self) {
    (void)self;
    deleted++;
}

static int check(tx_status st, const char *what) {
    if (st != TX_OK) fprintf(stderr, "%s: %s: %s\n", what, tx_status_name(st), tx_last_error());
    return st != TX_OK;
}

int main(void) {
    static float pixels[2][3] = {{1, 2, 3}, {4, 5, 6}};
    static int64_t shape[2] = {2, 3};
    DLManagedTensor in = {0};
    in.dl_tensor.data = pixels;
    in.dl_tensor.device.device_type = kDLCPU;
    in.dl_tensor.ndim = 2;
    in.dl_tensor.dtype.code = kDLFloat;
    in.dl_tensor.dtype.bits = 32;
    in.dl_tensor.dtype.lanes = 1;
    in.dl_tensor.shape = shape;
    in.deleter = producer_deleter;

    tx_tensor *x = NULL, *y = NULL;
    DLManagedTensor *out = NULL;
    /* On success tensorx owns `in` and calls its deleter when x (and its views) are gone. */
    int bad = check(tx_tensor_from_dlpack(&in, &x), "from_dlpack") ||
              check(tx_transpose(x, NULL, 0, &y), "transpose") ||
              check(tx_tensor_to_dlpack(y, &out), "to_dlpack");
    bad = bad || tx_tensor_data_const(x) != (const void *)pixels;
    tx_tensor_free(x);
    bad = bad || deleted != 1;
    if (!bad) {
        const float *t = out->dl_tensor.data;
        bad = out->dl_tensor.ndim != 2 || out->dl_tensor.shape[0] != 3 || t[1] != 4.0f || t[5] != 6.0f ||
              t != tx_tensor_data_const(y);
    }
    tx_tensor_free(y);        /* the export still holds the buffer ... */
    if (out) out->deleter(out); /* ... until the consumer is done */
    if (bad) fprintf(stderr, "DLPack round trip failed (deleter called %d times)\n", deleted);
    else printf("dlpack_roundtrip: imported 2x3 float32 without a copy, exported its transpose\n");
    tx_shutdown(); /* joins tensorx's worker threads, empties its allocation cache */
    return bad;
}
