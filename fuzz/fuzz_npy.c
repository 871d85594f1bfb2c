/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_npy.c -- the .npy reader (src/io/npy.c, tx_npy_load_buffer) on arbitrary bytes.  A file
 * it accepts must be well formed, survive tx_npy_save_buffer + reload unchanged (strings that end
 * in NUL excepted: the format cannot keep them), and load and save again with each of their
 * allocations failing in turn: resource_exhausted, no output, no leak. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    long live = fz_alloc_live();
    tx_tensor *t = NULL;
    fz_alloc_fail_at(0);
    tx_status st = tx_npy_load_buffer(data, size, &t);
    long nload = fz_alloc_count();
    if (st != TX_OK) {
        fz_check_failure(st, "npy load", tx_last_error());
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
    return 0;
}
