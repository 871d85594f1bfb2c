/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_npy.c -- the .npy reader (src/io/npy_*.c) on arbitrary bytes.  A file tx_npy_load_buffer
 * accepts must be well formed, survive tx_npy_save_buffer + reload unchanged (strings that end in
 * NUL excepted: the format cannot keep them), and load and save again with each of their
 * allocations failing in turn: resource_exhausted, no output, no leak.  The same bytes as a file
 * (a memfd, by its /proc/self/fd path and by fd: mapped, read, read as a stream) and through a
 * pipe must give the same tensor, or the same status and message; the stream path is swept for
 * allocation failures too. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "io/npy_internal.h"

#include <fcntl.h>
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

static bool strings_keep(const tx_tensor *t) {
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        const tx_string *s = tx_tensor_string(t, i);
        if (s->size && s->data[s->size - 1] == '\0') return false;
    }
    return true;
}

static void check_same(const tx_tensor *a, const tx_tensor *b) {
    if (tx_tensor_dtype(a) != tx_tensor_dtype(b)) fz_die("npy round trip: dtype %s became %s", tx_dtype_name(tx_tensor_dtype(a)), tx_dtype_name(tx_tensor_dtype(b)));
    if (tx_tensor_rank(a) != tx_tensor_rank(b)) fz_die("npy round trip: rank changed");
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        if (tx_tensor_dims(a)[i] != tx_tensor_dims(b)[i]) fz_die("npy round trip: dim %zu changed", i);
    if (tx_tensor_dtype(a) != TX_STRING) {
        if (memcmp(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a))) fz_die("npy round trip: data changed");
        return;
    }
    for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
        const tx_string *x = tx_tensor_string(a, i), *y = tx_tensor_string(b, i);
        if (x->size != y->size || (x->size && memcmp(x->data, y->data, (size_t)x->size))) fz_die("npy round trip: string %lld changed", (long long)i);
    }
}

/* Every allocation of a load that succeeded fails once. */
static void sweep_load(const uint8_t *data, size_t size, long n, long live) {
    for (long k = 1; k <= n; k++) {
        tx_tensor *t = NULL;
        fz_alloc_fail_at(k);
        tx_status st = tx_npy_load_buffer(data, size, &t);
        bool hit = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (hit && st != TX_RESOURCE_EXHAUSTED) fz_die("npy load: allocation %ld failed but the status is %s: %s", k, tx_status_name(st), tx_last_error());
        if (st != TX_OK && t) fz_die("npy load failed but set *out");
        tx_tensor_free(t);
        if (fz_alloc_live() != live) fz_die("npy load with allocation %ld failing leaked", k);
    }
}

static void sweep_save(const tx_tensor *t, long n, long live) {
    for (long k = 1; k <= n; k++) {
        void *buf = NULL;
        size_t len = 0;
        fz_alloc_fail_at(k);
        tx_status st = tx_npy_save_buffer(t, &buf, &len);
        bool hit = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (hit && st != TX_RESOURCE_EXHAUSTED) fz_die("npy save: allocation %ld failed but the status is %s: %s", k, tx_status_name(st), tx_last_error());
        if (st == TX_OK) tx_buffer_free(buf, len);
        else if (buf) fz_die("npy save failed but set *data");
        if (fz_alloc_live() != live) fz_die("npy save with allocation %ld failing leaked", k);
    }
}

typedef enum { VIA_PATH, VIA_MAP, VIA_READ, VIA_STREAM, VIA_PIPE, VIA_COUNT } via;
static const char *const via_name[VIA_COUNT] = {"tx_npy_load", "mapped", "read", "stream", "pipe"};

/* Loads the input (already in the file) one way; VIA_PIPE only for inputs a pipe holds whole. */
static tx_status load_via(via v, const char *file_path, int file_fd, const uint8_t *data,
                          size_t size, tx_tensor **t) {
    if (v == VIA_PATH) return tx_npy_load(file_path, t);
    if (v != VIA_PIPE) {
        unsigned flags = v == VIA_MAP    ? TX__NPY_MAP
                         : v == VIA_READ ? TX__NPY_READ
                                         : TX__NPY_AS_STREAM;
        if (lseek(file_fd, 0, SEEK_SET) != 0) fz_die("fuzz_npy: lseek failed");
        return tx__npy_load_fd(file_fd, NULL, flags, t);
    }
    int p[2];
    if (pipe(p) != 0) fz_die("fuzz_npy: pipe failed");
    if (size && write(p[1], data, size) != (ssize_t)size) fz_die("fuzz_npy: pipe write failed");
    close(p[1]);
    tx_status st = tx_npy_load_fd(p[0], t);
    close(p[0]);
    return st;
}

/* Every file and fd loader agrees with the buffer loader (st, msg, want). */
static void check_loaders(const uint8_t *data, size_t size, tx_status st, const char *msg,
                          const tx_tensor *want) {
    int file_fd;
    const char *file_path = fz_file_of(data, size, &file_fd);
    for (int v = 0; v < VIA_COUNT; v++) {
        if (v == VIA_PIPE && size > 4096) continue; /* a pipe holds 4 KiB at least */
        tx_tensor *t = NULL;
        tx_status got = load_via((via)v, file_path, file_fd, data, size, &t);
        if (v == VIA_PIPE && size == 0) { /* an empty stream is its end */
            if (got != TX_OUT_OF_RANGE)
                fz_die("npy pipe: empty input gave %s", tx_status_name(got));
            continue;
        }
        if (got != st)
            fz_die("npy %s: status %s (%s), the buffer loader's %s (%s)", via_name[v],
                   tx_status_name(got), tx_last_error(), tx_status_name(st), msg);
        if (got != TX_OK) {
            if (strcmp(tx_last_error(), msg) != 0)
                fz_die("npy %s: message '%s', the buffer loader's '%s'", via_name[v],
                       tx_last_error(), msg);
            if (t) fz_die("npy %s failed but set *out", via_name[v]);
            continue;
        }
        if (!tx_tensor_is_writable(t)) fz_die("npy %s: the tensor is not writable", via_name[v]);
        check_same(want, t);
        tx_tensor_free(t);
    }
}

/* The stream path with each of its allocations failing in turn. */
static void sweep_stream(const uint8_t *data, size_t size, long live) {
    int file_fd;
    const char *file_path = fz_file_of(data, size, &file_fd);
    for (long k = 1;; k++) {
        tx_tensor *t = NULL;
        fz_alloc_fail_at(k);
        tx_status st = load_via(VIA_STREAM, file_path, file_fd, NULL, 0, &t);
        bool hit = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (hit && st != TX_RESOURCE_EXHAUSTED)
            fz_die("npy stream: allocation %ld failed but the status is %s: %s", k,
                   tx_status_name(st), tx_last_error());
        if (st != TX_OK && t) fz_die("npy stream failed but set *out");
        tx_tensor_free(t);
        if (fz_alloc_live() != live) fz_die("npy stream with allocation %ld failing leaked", k);
        if (!hit) return;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    long live = fz_alloc_live();
    tx_tensor *t = NULL;
    fz_alloc_fail_at(0);
    tx_status st = tx_npy_load_buffer(data, size, &t);
    long nload = fz_alloc_count();
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    check_loaders(data, size, st, msg, t);
    if (st != TX_OK) {
        fz_check_failure(st, "npy load", msg);
        if (t) fz_die("npy load failed but set *out");
        if (fz_alloc_live() != live) fz_die("a failed npy load leaked");
        return 0;
    }
    fz_check_tensor(t, "npy load");
    void *buf = NULL;
    size_t len = 0;
    fz_alloc_fail_at(0);
    st = tx_npy_save_buffer(t, &buf, &len);
    long nsave = fz_alloc_count();
    if (st != TX_OK) fz_die("npy save of a loaded tensor: %s: %s", tx_status_name(st), tx_last_error());
    tx_tensor *back = NULL;
    st = tx_npy_load_buffer(buf, len, &back);
    if (st != TX_OK) fz_die("npy reload of a saved tensor: %s: %s", tx_status_name(st), tx_last_error());
    if (tx_tensor_dtype(t) != TX_STRING || strings_keep(t)) check_same(t, back);
    tx_tensor_free(back);
    tx_buffer_free(buf, len);
    long live_t = fz_alloc_live();
    sweep_save(t, nsave, live_t);
    tx_tensor_free(t);
    if (fz_alloc_live() != live) fz_die("npy load/save leaked");
    sweep_load(data, size, nload, live);
    sweep_stream(data, size, live);
    return 0;
}
