/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_tfrecord.c -- the TFRecord reader (src/io/tfrecord.c, src/io/zstream.c) on arbitrary
 * bytes.  Input: u8 compression (value % 3: none, ZLIB, GZIP), then the file.  Checked:
 *   - record by record (tx_tfrecord_next) and in one batch (tx_tfrecord_read) give the same
 *     records and end the same way: out_of_range "eof", or invalid_argument / resource_exhausted
 *     with the same message; an uncompressed file's records lie inside the input;
 *   - the records read so far, written again (tx_tfrecord_write_buffer, same compression) and
 *     read back, are the same records, ending cleanly; uncompressed, the written bytes are the
 *     input's first bytes;
 *   - on a file that reads cleanly, tx_tfrecord_index gives the offsets next() gave, and seeking
 *     to each one reads its record;
 *   - replaying, every allocation of the batch read failed in turn: resource_exhausted, nothing
 *     returned, nothing leaked. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

#define MAX_RECORDS 4096

typedef struct {
    tx_string rec[MAX_RECORDS];
    uint64_t off[MAX_RECORDS];
    char *copy[MAX_RECORDS]; /* compressed records change at the next call: kept copies */
    int n;
    tx_status end;
    char msg[256];
} seen;

static tx_tfrecord_reader *open_or_die(const void *p, size_t n, tx_tfrecord_compression c) {
    tx_tfrecord_reader *r = NULL;
    const tx_status st = tx_tfrecord_open_buffer(p, n, c, &r);
    if (st != TX_OK) fz_die("tfrecord: open_buffer failed: %s", tx_last_error());
    return r;
}

/* Reads record by record into s (at most MAX_RECORDS). */
static void read_each(const uint8_t *p, size_t n, tx_tfrecord_compression c, seen *s) {
    s->n = 0;
    tx_tfrecord_reader *r = NULL;
    s->end = tx_tfrecord_open_buffer(p, n, c, &r);
    if (s->end == TX_UNIMPLEMENTED) return; /* compressed, built without zlib */
    if (s->end != TX_OK) fz_die("tfrecord: open_buffer failed: %s", tx_last_error());
    for (;;) {
        tx_string rec;
        uint64_t off;
        s->end = tx_tfrecord_next(r, &rec, &off);
        if (s->end != TX_OK || s->n == MAX_RECORDS) break;
        if (c == TX_TFRECORD_NONE && rec.size &&
            (rec.data < (const char *)p || rec.size > n ||
             rec.data + rec.size > (const char *)p + n))
            fz_die("tfrecord: record %d lies outside the input", s->n);
        char *copy = malloc(rec.size ? (size_t)rec.size : 1);
        if (rec.size) memcpy(copy, rec.data, (size_t)rec.size);
        s->copy[s->n] = copy;
        s->rec[s->n] = (tx_string){rec.size, copy};
        s->off[s->n++] = off;
    }
    snprintf(s->msg, sizeof s->msg, "%s", tx_last_error());
    if (s->end != TX_OK) fz_check_failure(s->end, "tfrecord_next", s->msg);
    if (s->end == TX_OK) s->end = TX_OUT_OF_RANGE, s->msg[0] = 0; /* stopped at MAX_RECORDS */
    tx_tfrecord_close(r);
}

static void free_seen(seen *s) {
    for (int i = 0; i < s->n; i++) free(s->copy[i]);
}

static void same_records(const tx_tensor *t, const seen *s, const char *what) {
    if (tx_tensor_numel(t) != s->n)
        fz_die("tfrecord: %s gave %lld records, next() %d", what, (long long)tx_tensor_numel(t), s->n);
    for (int i = 0; i < s->n; i++) {
        const tx_string *a = tx_tensor_string(t, i);
        if (a->size != s->rec[i].size || memcmp(a->data, s->rec[i].data, (size_t)a->size))
            fz_die("tfrecord: %s: record %d differs", what, i);
    }
}

/* The batch read: the same records and the same end as record by record. */
static void check_batch(const uint8_t *p, size_t n, tx_tfrecord_compression c, const seen *s) {
    tx_tfrecord_reader *r = open_or_die(p, n, c);
    tx_tensor *t = NULL;
    const tx_status st = tx_tfrecord_read(r, s->n == MAX_RECORDS ? MAX_RECORDS : -1, &t);
    if (s->end == TX_OUT_OF_RANGE) {
        if (st != TX_OK) fz_die("tfrecord: read failed (%s) where next() ended cleanly", tx_last_error());
        fz_check_tensor(t, "tfrecord_read");
        same_records(t, s, "read");
    } else if (st != s->end || strcmp(tx_last_error(), s->msg) != 0 || t != NULL) {
        fz_die("tfrecord: read gave %d '%s', next() %d '%s'", (int)st, tx_last_error(),
               (int)s->end, s->msg);
    }
    tx_tensor_free(t);
    tx_tfrecord_close(r);
}

/* The records read, written again and read back. */
static void check_rewrite(const uint8_t *p, size_t n, tx_tfrecord_compression c, const seen *s) {
    const char *ptrs[MAX_RECORDS];
    size_t lens[MAX_RECORDS];
    for (int i = 0; i < s->n; i++) ptrs[i] = s->rec[i].data, lens[i] = (size_t)s->rec[i].size;
    const int64_t count = s->n;
    tx_tensor *t = NULL;
    if (tx_tensor_new_strings(1, &count, ptrs, lens, &t) != TX_OK) return; /* over the size cap */
    void *buf = NULL;
    size_t size = 0;
    const tx_status st = tx_tfrecord_write_buffer(t, c, &buf, &size);
    if (st != TX_OK) fz_check_failure(st, "tfrecord_write_buffer", tx_last_error());
    if (st == TX_OK) {
        if (c == TX_TFRECORD_NONE && (size > n || (size && memcmp(buf, p, size) != 0)))
            fz_die("tfrecord: rewriting %d records did not give the input's bytes", s->n);
        seen *again = malloc(sizeof *again);
        read_each(buf, size, c, again);
        if (again->end != TX_OUT_OF_RANGE) fz_die("tfrecord: a written file failed: %s", again->msg);
        same_records(t, again, "rewrite");
        free_seen(again);
        free(again);
        tx_buffer_free(buf, size);
    }
    tx_tensor_free(t);
}

/* A file that reads cleanly: the index and seeks agree with next(). */
static void check_index(const uint8_t *p, size_t n, tx_tfrecord_compression c, const seen *s) {
    tx_tfrecord_reader *r = open_or_die(p, n, c);
    tx_tensor *idx = NULL;
    if (tx_tfrecord_index(r, &idx) != TX_OK) fz_die("tfrecord: index failed: %s", tx_last_error());
    if (tx_tensor_numel(idx) != s->n) fz_die("tfrecord: the index has %lld records, next() %d", (long long)tx_tensor_numel(idx), s->n);
    const int64_t *off = tx_tensor_data_const(idx);
    for (int i = s->n - 1; i >= 0; i -= 1 + i / 8) {
        if ((uint64_t)off[i] != s->off[i]) fz_die("tfrecord: index offset %d differs", i);
        tx_string rec;
        if (tx_tfrecord_seek(r, (uint64_t)off[i]) != TX_OK || tx_tfrecord_next(r, &rec, NULL) != TX_OK ||
            rec.size != s->rec[i].size || memcmp(rec.data, s->rec[i].data, (size_t)rec.size))
            fz_die("tfrecord: seek to record %d did not read it: %s", i, tx_last_error());
    }
    tx_tensor_free(idx);
    tx_tfrecord_close(r);
}

static void sweep_allocations(const uint8_t *p, size_t n, tx_tfrecord_compression c, long live) {
    for (long k = 1; k < 10000; k++) {
        fz_alloc_fail_at(k);
        tx_tfrecord_reader *r = NULL;
        tx_tensor *t = NULL;
        tx_status st = tx_tfrecord_open_buffer(p, n, c, &r);
        if (st == TX_OK) st = tx_tfrecord_read(r, -1, &t);
        const bool failed = fz_alloc_failed();
        fz_alloc_fail_at(0);
        tx_tensor_free(t);
        tx_tfrecord_close(r);
        if (fz_alloc_live() != live) fz_die("tfrecord: a leak with allocation %ld failing", k);
        if (!failed) return;
        if (st != TX_RESOURCE_EXHAUSTED && st != TX_INVALID_ARGUMENT && st != TX_DATA_LOSS &&
            st != TX_UNIMPLEMENTED)
            fz_die("tfrecord: allocation %ld failing gave status %d", k, (int)st);
        if (t != NULL) fz_die("tfrecord: an output after a failure");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    const tx_tfrecord_compression c = (tx_tfrecord_compression)(data[0] % 3);
    const uint8_t *p = data + 1;
    const size_t n = size - 1;
    const long live = fz_alloc_live();
    seen *s = malloc(sizeof *s);
    read_each(p, n, c, s);
    if (s->end != TX_UNIMPLEMENTED) { /* compressed, built without zlib: nothing else to see */
        check_batch(p, n, c, s);
        check_rewrite(p, n, c, s);
        if (s->end == TX_OUT_OF_RANGE && s->n < MAX_RECORDS) check_index(p, n, c, s);
        if (fz_replay_mode) sweep_allocations(p, n, c, live);
    }
    free_seen(s);
    free(s);
    if (fz_alloc_live() != live) fz_die("tfrecord: %ld blocks leaked", fz_alloc_live() - live);
    return 0;
}
