/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_idx.c -- the IDX reader and writer (src/io/idx.c) and the gzip path under them
 * (src/io/zstream.c) on arbitrary bytes.
 *  - The input as a buffer: tx_idx_load_buffer refuses it with a status and a message, or gives a
 *    tensor whose bytes all read; an accepted plain file saves back to the very same bytes (IDX
 *    has one encoding of a tensor), and an accepted gzip'd one saves to a file that loads to the
 *    same tensor.
 *  - The same bytes as a mapped file (a memfd by its /proc/self/fd path): the same verdict and
 *    tensor.
 *  - The input gzip'd (when it does not start with gzip's magic itself): the streaming reader
 *    gives the in-memory reader's verdict and tensor (truncations, lying dims, trailing bytes),
 *    except that dims announcing more than tx_max_tensor_bytes() are refused by the cap first.
 *  - Loading and saving with each allocation failing in turn: resource_exhausted, no leak. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "io/zstream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

static void same_tensor(const tx_tensor *a, const tx_tensor *b, const char *what) {
    if (tx_tensor_dtype(a) != tx_tensor_dtype(b) || tx_tensor_rank(a) != tx_tensor_rank(b))
        fz_die("%s: dtype or rank differs", what);
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        if (tx_tensor_dims(a)[i] != tx_tensor_dims(b)[i]) fz_die("%s: dim %zu differs", what, i);
    if (tx_tensor_nbytes(a) != tx_tensor_nbytes(b) ||
        memcmp(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a)) != 0)
        fz_die("%s: bytes differ", what);
}

/* Loads data, checking the verdict against want (and the tensor against t when both are OK). */
static void check_same_verdict(tx_status st, tx_tensor *u, tx_status want, const tx_tensor *t,
                               const char *what) {
    if (st != want)
        fz_die("%s: %s (%s), the buffer's %s", what, tx_status_name(st), tx_last_error(),
               tx_status_name(want));
    if (st == TX_OK) {
        fz_check_tensor(u, what);
        same_tensor(t, u, what);
    }
    tx_tensor_free(u);
}

static void check_mapped(const uint8_t *data, size_t size, tx_status want, const tx_tensor *t) {
    const char *file_path = fz_file_of(data, size, NULL);
    tx_tensor *u = NULL;
    tx_status st = tx_idx_load(file_path, &u);
    check_same_verdict(st, u, want, t, "idx_load (mapped)");
}

/* The input gzip'd through the streaming reader: the in-memory verdict and tensor. */
static void check_gzipped(const uint8_t *data, size_t size, tx_status want, const tx_tensor *t) {
    if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) return; /* already gzip: read as such */
    size_t n;
    uint8_t *zipped = fz_gzip(data, size, &n);
    if (zipped == NULL) return; /* no zlib */
    tx_tensor *u = NULL;
    tx_status st = tx_idx_load_buffer(zipped, n, &u);
    /* Dims that announce more than the cap and more than there is: the stream cannot tell how
     * much there is without inflating it, so the cap refuses it first. */
    if (st == TX_RESOURCE_EXHAUSTED && want == TX_DATA_LOSS &&
        strstr(tx_last_error(), "tx_max_tensor_bytes()") != NULL)
        want = TX_RESOURCE_EXHAUSTED;
    check_same_verdict(st, u, want, t, "idx_load_buffer (gzip'd)");
    free(zipped);
}

/* An accepted file saves to its own bytes (plain) or to a file that loads to t (gzip'd). */
static void check_save(const uint8_t *data, size_t size, const tx_tensor *t) {
    void *buf;
    size_t len;
    if (tx_idx_save_buffer(t, &buf, &len) != TX_OK) fz_die("idx save of a read tensor: %s", tx_last_error());
    bool gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    if (!gz && (len != size || memcmp(buf, data, size) != 0))
        fz_die("idx: saving a read file changed its bytes");
    tx_tensor *u;
    if (tx_idx_load_buffer(buf, len, &u) != TX_OK) fz_die("idx reload: %s", tx_last_error());
    same_tensor(t, u, "idx round trip");
    tx_tensor_free(u);
    tx_buffer_free(buf, len);
    long live = fz_alloc_live();
    for (long k = 1;; k++) {
        void *b = NULL;
        size_t l = 0;
        fz_alloc_fail_at(k);
        tx_status st = tx_idx_save_buffer(t, &b, &l);
        bool hit = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (hit && st != TX_RESOURCE_EXHAUSTED)
            fz_die("idx save: allocation %ld failed but the status is %s", k, tx_status_name(st));
        if (st == TX_OK) tx_buffer_free(b, l);
        if (fz_alloc_live() != live) fz_die("idx save with allocation %ld failing leaked", k);
        if (!hit) break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    long live = fz_alloc_live();
    fz_alloc_fail_at(0);
    tx_tensor *t = NULL;
    tx_status st = tx_idx_load_buffer(data, size, &t);
    if (st != TX_OK) {
        fz_check_failure(st, "idx load", tx_last_error());
        if (t) fz_die("idx load failed but set *out");
    } else {
        fz_check_tensor(t, "idx load");
        check_save(data, size, t);
    }
    check_mapped(data, size, st, t);
    check_gzipped(data, size, st, t);
    tx_tensor_free(t);
    if (fz_alloc_live() != live) fz_die("idx leaked");
    for (long k = 1;; k++) {
        fz_alloc_fail_at(k);
        tx_tensor *u = NULL;
        tx_status s = tx_idx_load_buffer(data, size, &u);
        bool hit = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (hit && s != TX_OK && s != TX_RESOURCE_EXHAUSTED)
            fz_die("idx load: allocation %ld failed but the status is %s: %s", k,
                   tx_status_name(s), tx_last_error());
        if (s != TX_OK && u) fz_die("idx load failed but set *out");
        tx_tensor_free(u);
        if (fz_alloc_live() != live) fz_die("idx load with allocation %ld failing leaked", k);
        if (!hit) break;
    }
    return 0;
}
