/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_safetensors.c -- the safetensors reader and writer (src/io/safetensors*.c) and the JSON
 * tokenizer under them (src/io/json.c) on arbitrary bytes.
 *  - The input as JSON text: tx__json_parse either refuses it with invalid_argument and a message,
 *    or gives tokens that nest properly inside the text (each value's span and `next` inside its
 *    parent's, strings that decode into no more bytes than they span).
 *  - The input as a file: a file tx_safetensors_open_buffer accepts hands out every tensor it
 *    names (views or copies whose bytes are the file's), saves again, and the saved bytes open to
 *    the same names, metadata and tensors and save to the very same bytes; the same bytes as a
 *    mapped file (a memfd by its /proc/self/fd path) give the same verdict and tensors; opening,
 *    getting and saving with each allocation failing in turn give resource_exhausted and no
 *    leak. */
#define _GNU_SOURCE
#include "fuzz.h"
#include "io/json.h"

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

/* Token i and everything inside it lie in [lo, hi) of the text and end at `end` tokens. */
static size_t check_token(const tx__json_token *tok, size_t n, size_t i, size_t lo, size_t hi,
                          const char *text, char *scratch) {
    const tx__json_token *t = &tok[i];
    if (t->start < lo || t->end > hi || t->start > t->end || t->next <= i || t->next > n)
        fz_die("json: token %zu [%zu, %zu) next %zu outside [%zu, %zu) / %zu", i,
               (size_t)t->start, (size_t)t->end, (size_t)t->next, lo, hi, n);
    if (t->kind == TX__JSON_STRING && tx__json_string(text, t, scratch) > t->end - t->start)
        fz_die("json: string token %zu decodes longer than its span", i);
    if (t->kind != TX__JSON_ARRAY && t->kind != TX__JSON_OBJECT) {
        if (t->next != i + 1) fz_die("json: scalar token %zu has children", i);
        return t->next;
    }
    size_t c = i + 1;
    for (size_t k = 0; k < t->count; k++) {
        if (t->kind == TX__JSON_OBJECT) {
            if (c >= n || tok[c].kind != TX__JSON_STRING) fz_die("json: member %zu has no key", k);
            c = check_token(tok, n, c, t->start, t->end, text, scratch);
        }
        if (c >= n) fz_die("json: token %zu's item %zu is missing", i, k);
        c = check_token(tok, n, c, t->start, t->end, text, scratch);
    }
    if (c != t->next) fz_die("json: token %zu ends at %zu, next says %zu", i, c, (size_t)t->next);
    return c;
}

static void fuzz_json(const uint8_t *data, size_t size) {
    tx__json_token *tok;
    size_t n;
    tx_status st = tx__json_parse("fuzz", "text", (const char *)data, size, &tok, &n);
    if (st != TX_OK) {
        fz_check_failure(st, "json", tx_last_error());
        if (tok != NULL || n != 0) fz_die("json: failed but gave tokens");
        return;
    }
    char *scratch = malloc(size + 1);
    if (check_token(tok, n, 0, 0, size, (const char *)data, scratch) != n)
        fz_die("json: the first value does not span every token");
    free(scratch);
    tx__free(tok, n * sizeof *tok);
}

static void same_tensor(const tx_tensor *a, const tx_tensor *b, const char *what) {
    if (tx_tensor_dtype(a) != tx_tensor_dtype(b) || tx_tensor_rank(a) != tx_tensor_rank(b))
        fz_die("%s: dtype or rank differs", what);
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        if (tx_tensor_dims(a)[i] != tx_tensor_dims(b)[i]) fz_die("%s: dim %zu differs", what, i);
    if (memcmp(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a)) != 0)
        fz_die("%s: bytes differ", what);
}

/* Every tensor of f, in file order (each a new tensor; NULL-terminated list not needed: count). */
static tx_tensor **get_all(const tx_safetensors *f, const char *what) {
    size_t n = tx_safetensors_count(f);
    tx_tensor **ts = calloc(n ? n : 1, sizeof *ts);
    for (size_t i = 0; i < n; i++) {
        tx_status st = tx_safetensors_get(f, tx_safetensors_name(f, i), &ts[i]);
        if (st != TX_OK && st != TX_RESOURCE_EXHAUSTED) /* the tensor size limit */
            fz_die("%s: get \"%s\": %s: %s", what, tx_safetensors_name(f, i), tx_status_name(st),
                   tx_last_error());
        if (st == TX_OK) fz_check_tensor(ts[i], what);
    }
    return ts;
}

static void free_all(tx_tensor **ts, size_t n) {
    for (size_t i = 0; i < n; i++) tx_tensor_free(ts[i]);
    free(ts);
}

/* Saves f's tensors and metadata; *out is the buffer (tx_buffer_free). */
static tx_status save_again(const tx_safetensors *f, tx_tensor **ts, void **buf, size_t *len) {
    size_t n = tx_safetensors_count(f), m = tx_safetensors_metadata_count(f);
    const char **names = calloc(n ? n : 1, sizeof *names), **meta = calloc(2 * m + 1, sizeof *meta);
    for (size_t i = 0; i < n; i++) names[i] = tx_safetensors_name(f, i);
    for (size_t i = 0; i < m; i++) {
        meta[2 * i] = tx_safetensors_metadata_key(f, i);
        meta[2 * i + 1] = tx_safetensors_metadata_value(f, i);
    }
    tx_status st = tx_safetensors_save_buffer(n, names, (const tx_tensor *const *)ts, m, meta, buf,
                                              len);
    free(names);
    free(meta);
    return st;
}

static void round_trip(const tx_safetensors *f) {
    size_t n = tx_safetensors_count(f);
    tx_tensor **ts = get_all(f, "safetensors get");
    for (size_t i = 0; i < n; i++)
        if (ts[i] == NULL) { /* a tensor past the size limit: no round trip */
            free_all(ts, n);
            return;
        }
    void *buf, *buf2;
    size_t len, len2;
    tx_status st = save_again(f, ts, &buf, &len);
    if (st != TX_OK) fz_die("safetensors save of a read file: %s", tx_last_error());
    tx_safetensors *g;
    if (tx_safetensors_open_buffer(buf, len, &g) != TX_OK)
        fz_die("safetensors reopen of a saved file: %s", tx_last_error());
    if (tx_safetensors_count(g) != n || tx_safetensors_metadata_count(g) != tx_safetensors_metadata_count(f))
        fz_die("safetensors round trip: counts differ");
    for (size_t i = 0; i < tx_safetensors_metadata_count(f); i++)
        if (strcmp(tx_safetensors_metadata_key(f, i), tx_safetensors_metadata_key(g, i)) ||
            strcmp(tx_safetensors_metadata_value(f, i), tx_safetensors_metadata_value(g, i)))
            fz_die("safetensors round trip: metadata %zu differs", i);
    for (size_t i = 0; i < n; i++) {
        tx_tensor *t;
        if (tx_safetensors_get(g, tx_safetensors_name(f, i), &t) != TX_OK)
            fz_die("safetensors round trip: \"%s\" is missing", tx_safetensors_name(f, i));
        same_tensor(ts[i], t, "safetensors round trip");
        tx_tensor_free(t);
    }
    tx_tensor **ts2 = get_all(g, "safetensors get (saved)");
    if (save_again(g, ts2, &buf2, &len2) != TX_OK || len2 != len || memcmp(buf, buf2, len))
        fz_die("safetensors: saving a saved file changed its bytes");
    free_all(ts2, n);
    tx_buffer_free(buf2, len2);
    tx_safetensors_close(g);
    /* The save with each allocation failing in turn. */
    long live = fz_alloc_live();
    for (long k = 1;; k++) {
        void *b = NULL;
        size_t l = 0;
        fz_alloc_fail_at(k);
        st = save_again(f, ts, &b, &l);
        bool hit = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (hit && st != TX_RESOURCE_EXHAUSTED) fz_die("safetensors save: allocation %ld failed but the status is %s", k, tx_status_name(st));
        if (st == TX_OK) tx_buffer_free(b, l);
        if (fz_alloc_live() != live) fz_die("safetensors save with allocation %ld failing leaked", k);
        if (!hit) break;
    }
    tx_buffer_free(buf, len);
    free_all(ts, n);
}

/* The same bytes as a mapped file: the same verdict, and the same tensors. */
static void check_mapped(const uint8_t *data, size_t size, tx_status want,
                         const tx_safetensors *f) {
    const char *file_path = fz_file_of(data, size, NULL);
    tx_safetensors *g = NULL;
    tx_status st = tx_safetensors_open(file_path, &g);
    if (st != want) fz_die("safetensors open: %s (%s), the buffer's %s", tx_status_name(st), tx_last_error(), tx_status_name(want));
    if (st != TX_OK) return;
    size_t n = tx_safetensors_count(f);
    if (tx_safetensors_count(g) != n) fz_die("safetensors open: counts differ");
    tx_tensor **a = get_all(f, "get"), **b = get_all(g, "get (mapped)");
    for (size_t i = 0; i < n; i++) {
        if (strcmp(tx_safetensors_name(f, i), tx_safetensors_name(g, i)) != 0) fz_die("safetensors open: names differ");
        if (a[i] && b[i]) same_tensor(a[i], b[i], "safetensors mapped");
    }
    free_all(a, n);
    free_all(b, n);
    tx_safetensors_close(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    long live = fz_alloc_live();
    fuzz_json(data, size);
    tx_safetensors *f = NULL;
    fz_alloc_fail_at(0);
    tx_status st = tx_safetensors_open_buffer(data, size, &f);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    check_mapped(data, size, st, f);
    if (st != TX_OK) {
        fz_check_failure(st, "safetensors open", msg);
        if (f) fz_die("safetensors open failed but set *out");
    } else {
        round_trip(f);
        tx_safetensors_close(f);
    }
    if (fz_alloc_live() != live) fz_die("safetensors leaked");
    /* Opening and getting every tensor with each allocation failing in turn. */
    for (long k = 1;; k++) {
        fz_alloc_fail_at(k);
        tx_safetensors *g = NULL;
        tx_status s = tx_safetensors_open_buffer(data, size, &g);
        for (size_t i = 0; s == TX_OK && i < tx_safetensors_count(g); i++) {
            tx_tensor *t = NULL;
            tx_status sg = tx_safetensors_get(g, tx_safetensors_name(g, i), &t);
            if (sg != TX_OK && sg != TX_RESOURCE_EXHAUSTED) fz_die("get: %s", tx_last_error());
            tx_tensor_free(t);
        }
        bool hit = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (hit && s != TX_OK && s != TX_RESOURCE_EXHAUSTED)
            fz_die("safetensors open: allocation %ld failed but the status is %s: %s", k, tx_status_name(s), tx_last_error());
        tx_safetensors_close(g);
        if (fz_alloc_live() != live) fz_die("safetensors open with allocation %ld failing leaked", k);
        if (!hit) break;
    }
    return 0;
}
