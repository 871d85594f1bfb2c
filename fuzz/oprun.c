/* SPDX-License-Identifier: Apache-2.0 */
/* oprun.c -- the checked call of one op case and the comparison of results (see oprun.h). */
#include "oprun.h"

#include <stdio.h>
#include <string.h>

void fz_op_check_leaks(const char *name, long live_before, long fail_k, tx_status st) {
    if (fz_alloc_live() > live_before) tx_shutdown();
    if (fz_alloc_live() > live_before)
        fz_die("%s: %ld block(s) leaked (fail_k %ld, status %s)", name, fz_alloc_live() - live_before, fail_k,
               tx_status_name(st));
}

void fz_op_run(fz_op_case *c, long fail_k, long live_before, bool keep, fz_op_outcome *r) {
    const char *name = c->def->name;
    memset(r, 0, sizeof *r);
    /* Size before run: without failing allocations, the plan of the call must agree with it. */
    op_plan_result plan;
    if (fail_k == 0) op_plan_run(c->def, &c->args, &plan);
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    op_outputs o = {0};
    fz_alloc_fail_at(fail_k);
    tx_status st = c->def->run(&c->args, &o);
    r->st = st;
    r->allocs = fz_alloc_count();
    bool failed_alloc = fz_alloc_failed();
    fz_alloc_fail_at(0);
    char why[512];
    if (fail_k == 0 && !op_plan_agrees(&plan, st, &o, why, sizeof why)) fz_die("%s: %s", name, why);
    /* The prepared form, where the op has one, must agree with the call too. */
    if (fail_k == 0 && !op_prepared_agrees(c->def, &c->args, st, &o, why, sizeof why))
        fz_die("%s: %s", name, why);
    if (fail_k == 0) op_plan_result_clear(&plan);
    if (st != TX_OK) {
        fz_check_failure(st, name, op_error());
        for (size_t i = 0; i < o.n; i++)
            if (o.t[i]) fz_die("%s: failed (%s: %s) but left output %zu set", name, tx_status_name(st), op_error(), i);
        if (failed_alloc && st != TX_RESOURCE_EXHAUSTED)
            fz_die("%s: allocation %ld failed but the op returned %s: %s", name, fail_k, tx_status_name(st), op_error());
        snprintf(r->msg, sizeof r->msg, "%s", op_error());
    }
    /* Inputs go first: outputs must not depend on the input handles. */
    op_args_clear(&c->args);
    if (st == TX_OK) {
        char what[96];
        for (size_t i = 0; i < o.n; i++) {
            snprintf(what, sizeof what, "%s output %zu", name, i);
            fz_check_tensor(o.t[i], what);
        }
    }
    if (keep && st == TX_OK) {
        op_outputs_move(&r->out, &o);
        return;
    }
    op_outputs_clear(&o);
    fz_op_check_leaks(name, live_before, fail_k, st);
}

/* First differing byte of two buffers, or -1.  memcmp first: outputs reach hundreds of MB, and
 * a byte loop built with coverage instrumentation took over the fuzzer's 10 s timeout. */
static long long first_diff(const void *a, const void *b, size_t n) {
    const unsigned char *x = a, *y = b;
    if (n == 0 || memcmp(a, b, n) == 0) return -1;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i]) return (long long)i;
    return -1;
}

static bool same_tensor(const tx_tensor *a, const tx_tensor *b, size_t k, char *why, size_t cap) {
    if (!a || !b) {
        snprintf(why, cap, "output %zu is %s in one result only", k, a ? "missing" : "present");
        return a == b;
    }
    if (tx_tensor_dtype(a) != tx_tensor_dtype(b)) {
        snprintf(why, cap, "output %zu: dtype %s vs %s", k, tx_dtype_name(tx_tensor_dtype(a)),
                 tx_dtype_name(tx_tensor_dtype(b)));
        return false;
    }
    size_t rank = tx_tensor_rank(a);
    bool dims = rank == tx_tensor_rank(b);
    for (size_t i = 0; dims && i < rank; i++) dims = tx_tensor_dims(a)[i] == tx_tensor_dims(b)[i];
    if (!dims) {
        snprintf(why, cap, "output %zu: rank %zu vs %zu or another dim", k, rank, tx_tensor_rank(b));
        return false;
    }
    if (tx_tensor_dtype(a) != TX_STRING) {
        size_t es = tx_dtype_size(tx_tensor_dtype(a));
        long long at = first_diff(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
        if (at >= 0)
            snprintf(why, cap, "output %zu (%s, %lld elements): byte %lld (element %lld) is 0x%02x vs 0x%02x", k,
                     tx_dtype_name(tx_tensor_dtype(a)), (long long)tx_tensor_numel(a), at, es ? at / (long long)es : at,
                     ((const unsigned char *)tx_tensor_data_const(a))[at], ((const unsigned char *)tx_tensor_data_const(b))[at]);
        return at < 0;
    }
    for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
        const tx_string *x = tx_tensor_string(a, i), *y = tx_tensor_string(b, i);
        if (x->size != y->size || (x->size && memcmp(x->data, y->data, (size_t)x->size))) {
            snprintf(why, cap, "output %zu: string %lld differs (%llu vs %llu bytes)", k, (long long)i,
                     (unsigned long long)x->size, (unsigned long long)y->size);
            return false;
        }
    }
    return true;
}

bool fz_op_same(tx_status sa, const char *ma, const op_outputs *a, tx_status sb, const char *mb,
                const op_outputs *b, char *why, size_t cap) {
    why[0] = '\0';
    if (sa != sb) {
        snprintf(why, cap, "status %s (%.200s) vs %s (%.200s)", tx_status_name(sa), ma, tx_status_name(sb), mb);
        return false;
    }
    if (sa != TX_OK) {
        if (strcmp(ma, mb) == 0) return true;
        snprintf(why, cap, "message '%.200s' vs '%.200s'", ma, mb);
        return false;
    }
    if (a->n != b->n) {
        snprintf(why, cap, "%zu outputs vs %zu", a->n, b->n);
        return false;
    }
    for (size_t i = 0; i < a->n; i++)
        if (!same_tensor(a->t[i], b->t[i], i, why, cap)) return false;
    return true;
}
