/* SPDX-License-Identifier: Apache-2.0 */
/* prepared_check.c -- the check that an op's prepared form agrees with its call (opreg.h): the
 * conformance runner's --prepared, the op fuzzers and the unit tests put every case through it. */
#include "opreg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A runner of one thread that runs the pieces last to first: results must not depend on the
 * order or the threads. */
static void backwards_for(void *ctx, tx_task_fn task, void *task_ctx, size_t n) {
    (void)ctx;
    for (size_t i = n; i-- > 0;) task(task_ctx, i);
}

bool op_data_inputs(const op_def *def, const op_args *a, const void **in, size_t cap, size_t *n) {
    *n = 0;
    for (size_t k = 0; k < OP_MAX_OUTPUTS && def->data_inputs[k]; k++) {
        int p = op_param_index(def, def->data_inputs[k], strlen(def->data_inputs[k]));
        if (p < 0) return false;
        if (def->params[p].kind == P_TENSOR_LIST) {
            size_t m = 0;
            const tx_tensor *const *list = arg_list(a, def->data_inputs[k], &m);
            for (size_t i = 0; i < m; i++) {
                if (*n == cap) return false;
                in[(*n)++] = tx_tensor_data_const(list[i]);
            }
        } else {
            if (*n == cap) return false;
            in[(*n)++] = tx_tensor_data_const(arg_tensor(a, def->data_inputs[k]));
        }
    }
    return true;
}

/* Runs op into fresh buffers (one guard byte each) and compares them with the call's outputs. */
static bool run_and_compare(const tx_op *op, const void *const *in, tx_status st,
                            const char *call_msg, const op_outputs *o, const tx_runner *runner,
                            char *why, size_t cap) {
    size_t n = tx_op_output_count(op);
    void *out[TX_OP_MAX_OUTPUTS] = {0};
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        tx_output_info info = {sizeof info};
        if (tx_op_output(op, i, &info) != TX_OK || (out[i] = malloc(info.nbytes + 1)) == NULL) {
            snprintf(why, cap, "prepared: output %zu: no room", i);
            ok = false;
        } else {
            memset(out[i], 0x5A, info.nbytes + 1);
        }
    }
    const char *how = runner ? "a runner" : "tensorx's pool";
    tx_status rs = ok ? tx_op_run(op, in, out, runner) : TX_OK;
    if (!ok) {
        /* why[] says it */
    } else if (rs != st) {
        snprintf(why, cap, "prepared run on %s: status %s (%.200s), the call gives %s", how,
                 tx_status_name(rs), rs ? tx_last_error() : "", tx_status_name(st));
        ok = false;
    } else if (st != TX_OK) {
        if (strcmp(tx_last_error(), call_msg) != 0) {
            snprintf(why, cap, "prepared run: message '%.200s', the call gives '%.200s'",
                     tx_last_error(), call_msg);
            ok = false;
        }
    } else if (n != o->n) {
        snprintf(why, cap, "prepared: %zu outputs, the call gives %zu", n, o->n);
        ok = false;
    } else {
        for (size_t i = 0; i < n && ok; i++) {
            tx_output_info info = {sizeof info};
            (void)tx_op_output(op, i, &info);
            const tx_tensor *t = o->t[i];
            bool same = info.dtype == tx_tensor_dtype(t) && info.rank == tx_tensor_rank(t) &&
                        info.nbytes == tx_tensor_nbytes(t);
            for (size_t d = 0; same && d < info.rank; d++) same = info.dims[d] == tx_tensor_dims(t)[d];
            if (!same) {
                snprintf(why, cap, "prepared: output %zu is %s rank %zu, %zu bytes; the call "
                         "gives %s rank %zu, %zu bytes", i, tx_dtype_name(info.dtype), info.rank,
                         info.nbytes, tx_dtype_name(tx_tensor_dtype(t)), tx_tensor_rank(t),
                         tx_tensor_nbytes(t));
                ok = false;
            } else if (info.nbytes && memcmp(out[i], tx_tensor_data_const(t), info.nbytes) != 0) {
                snprintf(why, cap, "prepared run on %s: output %zu differs from the call's", how,
                         i);
                ok = false;
            } else if (((unsigned char *)out[i])[info.nbytes] != 0x5A) {
                snprintf(why, cap, "prepared run on %s: output %zu written past its %zu bytes",
                         how, i, info.nbytes);
                ok = false;
            }
        }
    }
    for (size_t i = 0; i < n; i++) free(out[i]);
    return ok;
}

bool op_prepared_agrees(const op_def *def, const op_args *a, tx_status st, const op_outputs *o,
                        char *why, size_t cap) {
    why[0] = '\0';
    if (def->data_inputs[0] == NULL) return true;
    char call_msg[512];
    snprintf(call_msg, sizeof call_msg, "%s", st == TX_OK ? "" : op_error());
    tx_op *op = NULL;
    op_outputs po = {0};
    po.prepare = &op;
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    tx_status ps = def->run(a, &po);
    bool leaked = false;
    for (size_t i = 0; i < po.n; i++) leaked |= po.t[i] != NULL;
    op_outputs_clear(&po);
    if (leaked) {
        snprintf(why, cap, "prepared: an output was made in prepare mode");
        tx_op_free(op);
        return false;
    }
    if (ps != TX_OK) {
        /* The limits of prepared forms (docs/prepared.md: string tensors, more than
         * TX_OP_MAX_OUTPUTS outputs, concat's values), whose messages say "prepared op": the call
         * alone decides. */
        if (ps == TX_UNIMPLEMENTED && strstr(op_error(), "prepared op")) return true;
        if (ps != st || strcmp(op_error(), call_msg) != 0)
            snprintf(why, cap, "prepare: status %s (%.200s), the call gives %s (%.200s)",
                     tx_status_name(ps), op_error(), tx_status_name(st), call_msg);
        return why[0] == '\0';
    }
    const void *in[64];
    size_t n_in = 0;
    bool ok = op_data_inputs(def, a, in, 64, &n_in);
    if (!ok || n_in != tx_op_input_count(op)) {
        snprintf(why, cap, "prepared: the spec's data_inputs give %zu inputs, the op takes %zu",
                 n_in, tx_op_input_count(op));
        ok = false;
    }
    tx_runner backwards = TX_RUNNER_INIT(backwards_for, NULL, 3);
    if (ok) ok = run_and_compare(op, in, st, call_msg, o, NULL, why, cap);
    if (ok) ok = run_and_compare(op, in, st, call_msg, o, &backwards, why, cap);
    tx_op_free(op);
    /* leave the call's message as the thread's, as it was */
    if (st != TX_OK) op_fail(st, "%s", call_msg);
    return ok;
}
