/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_npz.c -- the .npz reader and writer (src/io/npz.c, src/io/npz_save.c), the raw deflate
 * path under them and the compressed .npy path (src/io/zstream.c, src/io/npy_load.c) on
 * arbitrary bytes.
 *  - The input as a buffer: tx_npz_open_buffer refuses it with a status and a message, or opens
 *    it, and then every array reads (a tensor whose bytes all read) or is refused.
 *  - The same bytes as a mapped file (a memfd by its /proc/self/fd path): the same verdicts and
 *    tensors.
 *  - An archive whose arrays all read saves (stored and deflated) to an archive that reads back
 *    to the same names and tensors.
 *  - The input gzip'd as a .npy: tx_npy_load_buffer gives the plain input's verdict (accepted or
 *    not) and tensor.
 *  - Opening and reading with each allocation failing in turn: resource_exhausted, no leak. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "io/zstream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

/* The arrays compared: at most this many of an archive. */
#define MAXN 16

static void same_tensor(const tx_tensor *a, const tx_tensor *b, const char *what) {
    if (tx_tensor_dtype(a) != tx_tensor_dtype(b) || tx_tensor_rank(a) != tx_tensor_rank(b))
        fz_die("%s: dtype or rank differs", what);
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        if (tx_tensor_dims(a)[i] != tx_tensor_dims(b)[i]) fz_die("%s: dim %zu differs", what, i);
    if (tx_tensor_dtype(a) == TX_STRING) {
        const tx_string *x = tx_tensor_data_const(a), *y = tx_tensor_data_const(b);
        for (int64_t i = 0; i < tx_tensor_numel(a); i++)
            if (x[i].size != y[i].size || memcmp(x[i].data, y[i].data, x[i].size) != 0)
                fz_die("%s: string %lld differs", what, (long long)i);
        return;
    }
    if (tx_tensor_nbytes(a) != tx_tensor_nbytes(b) ||
        memcmp(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a)) != 0)
        fz_die("%s: bytes differ", what);
}

/* Reads every array of f (up to MAXN) into t[] (NULL where refused); returns how many read. */
static size_t read_all(tx_npz *f, tx_tensor **t, tx_status *st, const char *what) {
    size_t n = tx_npz_count(f) < MAXN ? tx_npz_count(f) : MAXN, ok = 0;
    for (size_t i = 0; i < n; i++) {
        t[i] = NULL;
        st[i] = tx_npz_get(f, tx_npz_name(f, i), &t[i]);
        if (st[i] == TX_OK) {
            fz_check_tensor(t[i], what);
            ok++;
        } else {
            fz_check_failure(st[i], what, tx_last_error());
            if (t[i]) fz_die("%s: failed but set *out", what);
        }
    }
    return ok;
}

static void free_all(tx_tensor **t, size_t n) {
    for (size_t i = 0; i < n; i++) tx_tensor_free(t[i]);
}

/* The mapped file: the buffer's verdicts and tensors. */
static void check_mapped(const uint8_t *data, size_t size, tx_status want, tx_tensor **t,
                         const tx_status *st, size_t n) {
    const char *path = fz_file_of(data, size, NULL);
    tx_npz *f = NULL;
    tx_status s = tx_npz_open(path, &f);
    if (s != want)
        fz_die("npz_open (mapped): %s, the buffer's %s", tx_status_name(s), tx_status_name(want));
    if (s != TX_OK) return;
    tx_tensor *u[MAXN];
    tx_status us[MAXN];
    read_all(f, u, us, "npz_get (mapped)");
    for (size_t i = 0; i < n; i++) {
        if (us[i] != st[i])
            fz_die("npz_get (mapped) %zu: %s, the buffer's %s", i, tx_status_name(us[i]),
                   tx_status_name(st[i]));
        if (us[i] == TX_OK) same_tensor(t[i], u[i], "npz_get (mapped)");
    }
    free_all(u, n);
    tx_npz_close(f);
}

/* Every array read: saved stored and deflated, each reads back the same. */
static void check_save(tx_npz *f, tx_tensor **t, size_t n) {
    const char *names[MAXN];
    for (size_t i = 0; i < n; i++) names[i] = tx_npz_name(f, i);
    for (int c = 0; c < (TX_HAVE_ZLIB ? 2 : 1); c++) {
        void *buf;
        size_t len;
        tx_status st = tx_npz_save_buffer(n, names, (const tx_tensor *const *)t, c, &buf, &len);
        if (st == TX_INVALID_ARGUMENT && strstr(tx_last_error(), "UTF-8")) return;
        if (st != TX_OK) fz_die("npz save of read arrays: %s", tx_last_error());
        tx_npz *g;
        if (tx_npz_open_buffer(buf, len, &g) != TX_OK) fz_die("npz reopen: %s", tx_last_error());
        for (size_t i = 0; i < n; i++) {
            tx_tensor *u;
            if (strcmp(tx_npz_name(g, i), names[i]) != 0) fz_die("npz reopen: name %zu differs", i);
            if (tx_npz_get(g, names[i], &u) != TX_OK) fz_die("npz reread: %s", tx_last_error());
            same_tensor(t[i], u, "npz round trip");
            tx_tensor_free(u);
        }
        tx_npz_close(g);
        tx_buffer_free(buf, len);
    }
}

/* The input gzip'd, as a .npy: accepted when the plain bytes are, to the same tensor. */
static void check_gzipped_npy(const uint8_t *data, size_t size) {
    if (tx__zformat_of(data, size) != 0) return; /* compressed already: read as such */
    size_t n;
    uint8_t *zipped = fz_gzip(data, size, &n);
    if (zipped == NULL) return; /* no zlib */
    tx_tensor *plain = NULL, *gz = NULL;
    tx_status a = tx_npy_load_buffer(data, size, &plain);
    tx_status g = tx_npy_load_buffer(zipped, n, &gz);
    if (g != TX_OK) fz_check_failure(g, "npy load (gzip'd)", tx_last_error());
    if ((a == TX_OK) != (g == TX_OK))
        fz_die("npy: plain %s, gzip'd %s", tx_status_name(a), tx_status_name(g));
    if (a == TX_OK) {
        fz_check_tensor(gz, "npy load (gzip'd)");
        same_tensor(plain, gz, "npy gzip'd");
    }
    tx_tensor_free(plain);
    tx_tensor_free(gz);
    free(zipped);
}

/* Opening and reading every array with allocation k failing, for k = 1, 2, ...: the failing
 * step gives resource_exhausted (or the verdict it gives anyway, want / ws[]), nothing leaks. */
static void check_allocation_failures(const uint8_t *data, size_t size, long live, tx_status want,
                                      const tx_status *ws) {
    for (long k = 1;; k++) {
        tx_npz *f = NULL;
        fz_alloc_fail_at(k);
        tx_status st = tx_npz_open_buffer(data, size, &f);
        bool hit = fz_alloc_failed();
        if (hit && st != TX_RESOURCE_EXHAUSTED && st != want)
            fz_die("npz open: allocation %ld failed but the status is %s", k, tx_status_name(st));
        if (st != TX_OK && f) fz_die("npz open failed but set *out");
        for (size_t i = 0; st == TX_OK && !hit && i < tx_npz_count(f) && i < MAXN; i++) {
            tx_tensor *t = NULL;
            tx_status s = tx_npz_get(f, tx_npz_name(f, i), &t);
            hit = fz_alloc_failed();
            if (hit && s != TX_RESOURCE_EXHAUSTED && s != ws[i])
                fz_die("npz get %zu: allocation %ld failed but the status is %s: %s", i, k,
                       tx_status_name(s), tx_last_error());
            if (s != TX_OK && t) fz_die("npz get failed but set *out");
            tx_tensor_free(t);
        }
        fz_alloc_fail_at(0);
        tx_npz_close(f);
        if (fz_alloc_live() != live) fz_die("npz with allocation %ld failing leaked", k);
        if (!hit) break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    long live = fz_alloc_live();
    fz_alloc_fail_at(0);
    tx_npz *f = NULL;
    tx_status st = tx_npz_open_buffer(data, size, &f);
    tx_tensor *t[MAXN];
    tx_status ts[MAXN];
    size_t n = 0;
    if (st != TX_OK) {
        fz_check_failure(st, "npz open", tx_last_error());
        if (f) fz_die("npz open failed but set *out");
    } else {
        n = tx_npz_count(f) < MAXN ? tx_npz_count(f) : MAXN;
        size_t ok = read_all(f, t, ts, "npz get");
        if (ok == n && n == tx_npz_count(f)) check_save(f, t, n);
    }
    check_mapped(data, size, st, t, ts, n);
    free_all(t, n);
    tx_npz_close(f);
    check_gzipped_npy(data, size);
    if (fz_alloc_live() != live) fz_die("npz leaked");
    check_allocation_failures(data, size, live, st, ts);
    return 0;
}
