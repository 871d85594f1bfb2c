/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_example.c -- parse_example and parse_single_example (src/io/example.c, over the wire reader
 * src/io/proto_wire.c) on arbitrary records.  Input: u8 flags (bit 0: one record through
 * parse_single_example, else a batch), u8 sparse count (% 3) and a u8 dtype each, u8 dense count
 * (% 3) and for each a u8 dtype, a u8 rank (% 3) with u8 dims (% 4) and a u8 whether it has a
 * default; then u8 records (% 4 + 1), each a u16 length and its bytes; the keys are fixed ("a",
 * "b", "c", "", "image").  Checked:
 *   - the call succeeds or fails with invalid_argument (resource_exhausted only with an allocation
 *     failing), every output slot NULL on failure, each output readable to its last byte (string
 *     values too: they point into the records and the defaults);
 *   - sparse indices lie inside their dense_shape, in record order, and dense outputs have the
 *     batch and shape asked for;
 *   - the plan of the call (TX_PLAN) gives the run's status and, on success, its outputs' shapes;
 *   - replaying, every allocation of the call failed in turn: resource_exhausted, nothing returned,
 *     nothing leaked. */
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

#define MAX_REC 4
#define MAX_OUT 8 /* 3 * 2 sparse + 2 dense */

static const char *const KEYS[] = {"a", "b", "c", "", "image"};
static const size_t KEY_LENS[] = {1, 1, 1, 0, 5};
static const tx_dtype KINDS[] = {TX_FLOAT32, TX_INT64, TX_STRING};

typedef struct call {
    bool single;
    size_t ns, nd, nrec;
    tx_dtype stypes[2];
    size_t ranks[2];
    int64_t dims[2][2];
    const int64_t *shapes[2];
    tx_tensor *serialized, *skeys, *dkeys, *defaults[2];
} call;

static tx_tensor *strings_or_die(size_t rank, size_t n, const char *const *data, const size_t *lens) {
    tx_tensor *t = NULL;
    const int64_t dims[1] = {(int64_t)n};
    if (tx_tensor_new_strings(rank, dims, data, lens, &t) != TX_OK)
        fz_die("example: tensor_new_strings failed: %s", tx_last_error());
    return t;
}

/* A default of dtype t and shape dims[0..rank) (a constant pattern), or an empty one (required). */
static tx_tensor *default_of(tx_dtype t, size_t rank, const int64_t *dims, bool empty) {
    tx_tensor *d = NULL;
    const int64_t none[1] = {0};
    if (empty) rank = 1, dims = none;
    if (t == TX_STRING) {
        const char *vals[16];
        size_t lens[16];
        for (int i = 0; i < 16; i++) vals[i] = i % 2 ? "d1" : "d0", lens[i] = 2;
        if (tx_tensor_new_strings(rank, dims, vals, lens, &d) != TX_OK)
            fz_die("example: tensor_new_strings failed: %s", tx_last_error());
        return d;
    }
    if (tx_tensor_new(t, rank, dims, &d) != TX_OK)
        fz_die("example: tensor_new failed: %s", tx_last_error());
    return d;
}

static void read_call(fz_in *in, call *c) {
    memset(c, 0, sizeof *c);
    c->single = fz_u8(in) & 1;
    c->ns = fz_u8(in) % 3;
    for (size_t i = 0; i < c->ns; i++) c->stypes[i] = KINDS[fz_u8(in) % 3];
    c->nd = fz_u8(in) % 3;
    for (size_t d = 0; d < c->nd; d++) {
        tx_dtype t = KINDS[fz_u8(in) % 3];
        c->ranks[d] = fz_u8(in) % 3;
        for (size_t k = 0; k < c->ranks[d]; k++) c->dims[d][k] = fz_u8(in) % 4;
        c->shapes[d] = c->dims[d];
        c->defaults[d] = default_of(t, c->ranks[d], c->dims[d], !(fz_u8(in) & 1));
    }
    c->skeys = strings_or_die(1, c->ns, KEYS, KEY_LENS);
    c->dkeys = strings_or_die(1, c->nd, KEYS + c->ns, KEY_LENS + c->ns);
    c->nrec = c->single ? 1 : fz_u8(in) % MAX_REC + 1;
    const char *recs[MAX_REC];
    size_t lens[MAX_REC];
    for (size_t r = 0; r < c->nrec; r++) {
        const uint8_t *b;
        lens[r] = fz_bytes(in, fz_u16(in), &b);
        recs[r] = (const char *)b;
    }
    c->serialized = strings_or_die(c->single ? 0 : 1, c->nrec, recs, lens);
}

static void free_call(call *c) {
    tx_tensor_free(c->serialized);
    tx_tensor_free(c->skeys);
    tx_tensor_free(c->dkeys);
    for (size_t d = 0; d < c->nd; d++) tx_tensor_free(c->defaults[d]);
}

static tx_status run(const call *c, tx_tensor **o) {
    const tx_tensor *defs[2] = {c->defaults[0], c->defaults[1]};
    if (c->single)
        return tx_parse_single_example(c->serialized, c->skeys, c->stypes, c->dkeys, defs, c->ranks,
                                       c->shapes, o);
    return tx_parse_example(c->serialized, NULL, c->skeys, c->stypes, c->dkeys, defs, c->ranks,
                            c->shapes, o);
}

static void check_outputs(const call *c, tx_tensor **o) {
    const size_t ns = c->ns, nrec = c->nrec;
    for (size_t i = 0; i < 3 * ns + c->nd; i++) fz_check_tensor(o[i], "example output");
    for (size_t d = 0; d < ns; d++) {
        const int64_t *ix = tx_tensor_data_const(o[d]), *shape = tx_tensor_data_const(o[2 * ns + d]);
        const int64_t n = tx_tensor_numel(o[ns + d]), w = c->single ? 1 : 2;
        if (tx_tensor_dims(o[d])[0] != n) fz_die("example: %lld indices for %lld values",
                                                 (long long)tx_tensor_dims(o[d])[0], (long long)n);
        for (int64_t i = 0; i < n; i++) {
            const int64_t *at = ix + w * i;
            for (int64_t k = 0; k < w; k++)
                if (at[k] < 0 || at[k] >= shape[k]) fz_die("example: index outside dense_shape");
            if (i > 0 && !c->single && at[0] < at[-2]) fz_die("example: indices out of record order");
        }
        if (!c->single && shape[0] != (int64_t)nrec) fz_die("example: dense_shape[0] is not the batch");
    }
    for (size_t d = 0; d < c->nd; d++) {
        const tx_tensor *t = o[3 * ns + d];
        size_t base = c->single ? 0 : 1;
        if (tx_tensor_rank(t) != base + c->ranks[d]) fz_die("example: a dense output's rank");
        if (!c->single && tx_tensor_dims(t)[0] != (int64_t)nrec) fz_die("example: a dense batch");
        for (size_t k = 0; k < c->ranks[d]; k++)
            if (tx_tensor_dims(t)[base + k] != c->dims[d][k]) fz_die("example: a dense dim");
    }
}

/* The plan of the call agrees with the run: status, or every output's dims. */
static void check_plan(const call *c, tx_status st, tx_tensor **o) {
    tx_output_info info[MAX_OUT];
    int64_t dims[3 * MAX_OUT];
    tx_plan plan = TX_PLAN_INIT(info, MAX_OUT, dims, 3 * MAX_OUT);
    tx_tensor *po[MAX_OUT] = {NULL};
    tx_status ps = TX_PLAN(&plan, run(c, po));
    if (ps != st) fz_die("example: plan status %d, run %d (%s)", (int)ps, (int)st, tx_last_error());
    if (st != TX_OK) return;
    size_t at = 0, n = 3 * c->ns + c->nd;
    if (plan.count != n) fz_die("example: the plan has %zu outputs, the run %zu", plan.count, n);
    for (size_t i = 0; i < n; i++) {
        if (info[i].rank != tx_tensor_rank(o[i])) fz_die("example: plan rank of output %zu", i);
        for (size_t k = 0; k < info[i].rank; k++)
            if (dims[at + k] != tx_tensor_dims(o[i])[k]) fz_die("example: plan dims of output %zu", i);
        at += info[i].rank;
    }
}

static void sweep_allocations(const call *c, long live) {
    for (long k = 1;; k++) {
        fz_alloc_fail_at(k);
        tx_tensor *o[MAX_OUT] = {NULL};
        tx_status st = run(c, o);
        bool failed = fz_alloc_failed();
        fz_alloc_fail_at(0);
        for (size_t i = 0; i < MAX_OUT; i++) {
            if (st != TX_OK && o[i]) fz_die("example: output %zu set on failure", i);
            tx_tensor_free(o[i]);
        }
        if (fz_alloc_live() != live) fz_die("example: a leak with allocation %ld failing", k);
        if (!failed) return;
        if (st != TX_RESOURCE_EXHAUSTED) fz_die("example: allocation %ld failed, status %d", k, (int)st);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_in in = {data, size};
    call c;
    read_call(&in, &c);
    const long live = fz_alloc_live();
    tx_tensor *o[MAX_OUT] = {NULL};
    tx_status st = run(&c, o);
    if (st == TX_OK) {
        check_outputs(&c, o);
    } else {
        fz_check_failure(st, "example", tx_last_error());
        if (st != TX_INVALID_ARGUMENT) fz_die("example: status %d: %s", (int)st, tx_last_error());
        for (size_t i = 0; i < MAX_OUT; i++)
            if (o[i]) fz_die("example: output %zu set on failure", i);
    }
    check_plan(&c, st, o);
    for (size_t i = 0; i < MAX_OUT; i++) tx_tensor_free(o[i]);
    if (fz_alloc_live() != live) fz_die("example: %ld blocks leaked", fz_alloc_live() - live);
    if (fz_replay_mode && st == TX_OK) sweep_allocations(&c, live);
    free_call(&c);
    return 0;
}
