/* SPDX-License-Identifier: Apache-2.0 */
/* files_c.c -- the "C API" side of the benchmark's file workloads (bench/files.py): a program a
 * user would write with the public API, loading a file (tx_npy_load: mapped copy-on-write;
 * tx_file_map_string for a raw dump), running one op into a tensor of its own (the default
 * allocator) and saving it (tx_npy_save: written from the tensor, temporary file renamed).
 *
 *   tensorx_files WORKLOAD IN OUT [INDICES.npy]
 *   WORKLOAD: reverse (axis 1), transpose (1,0), cast (float16), decode_raw (float32, from a raw
 *             file), gather (rows INDICES, axis 0), strided_slice ([:, ::2])
 */
#include "tensorx.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

static int fail(const char *what) {
    fprintf(stderr, "tensorx_files: %s: %s\n", what, tx_last_error());
    tx_shutdown();
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: tensorx_files WORKLOAD IN OUT [INDICES.npy]\n");
        return 2;
    }
    const char *w = argv[1], *in = argv[2], *out = argv[3];
    tx_tensor *x = NULL, *y = NULL, *aux = NULL;
    tx_status st;
    if (!strcmp(w, "decode_raw")) {
        struct stat sb;
        if (stat(in, &sb) != 0) return fail("stat");
        st = tx_file_map_string(in, 0, (uint64_t)sb.st_size, &x);
    } else {
        st = tx_npy_load(in, &x);
    }
    if (st != TX_OK) return fail("load");
    if (!strcmp(w, "reverse")) {
        const int64_t axis = 1;
        st = tx_reverse_v2(x, &axis, 1, &y);
    } else if (!strcmp(w, "transpose")) {
        const int32_t perm[2] = {1, 0};
        st = tx_tensor_from_data(TX_INT32, 1, (int64_t[]){2}, perm, sizeof perm, &aux);
        if (st == TX_OK) st = tx_transpose(x, aux, 0, &y);
    } else if (!strcmp(w, "cast")) {
        st = tx_cast(x, TX_FLOAT16, &y);
    } else if (!strcmp(w, "decode_raw")) {
        st = tx_decode_raw(x, TX_FLOAT32, 1, NULL, &y);
    } else if (!strcmp(w, "gather")) {
        st = argc > 4 ? tx_npy_load(argv[4], &aux) : TX_INVALID_ARGUMENT;
        if (st == TX_OK) st = tx_gather(x, aux, 0, 0, &y);
    } else if (!strcmp(w, "strided_slice")) {
        const int32_t b[2] = {0, 0}, e[2] = {0, 0}, s[2] = {1, 2};
        tx_tensor *tb = NULL, *te = NULL, *ts = NULL;
        const int64_t two = 2;
        st = tx_tensor_from_data(TX_INT32, 1, &two, b, sizeof b, &tb);
        if (st == TX_OK) st = tx_tensor_from_data(TX_INT32, 1, &two, e, sizeof e, &te);
        if (st == TX_OK) st = tx_tensor_from_data(TX_INT32, 1, &two, s, sizeof s, &ts);
        /* end_mask 3: to the end of both dims */
        if (st == TX_OK) st = tx_strided_slice(x, tb, te, ts, 0, 3, 0, 0, 0, &y);
        tx_tensor_free(tb);
        tx_tensor_free(te);
        tx_tensor_free(ts);
    } else {
        fprintf(stderr, "tensorx_files: unknown workload '%s'\n", w);
        return 2;
    }
    if (st != TX_OK) return fail(w);
    tx_tensor_free(x);
    tx_tensor_free(aux);
    if (tx_npy_save(out, y) != TX_OK) return fail("save");
    tx_tensor_free(y);
    tx_shutdown();
    return 0;
}
