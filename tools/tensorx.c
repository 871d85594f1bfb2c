/* SPDX-License-Identifier: Apache-2.0 */
/* tensorx.c -- the command-line tool: `tensorx OP name=value ... [-o FILE.npy]...`, `info`,
 * `conform`, `help`.  Built only on the public API (tensorx.h). */
#include "conform.h"
#include "opreg.h"
#include "print.h"
#include "stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(param_kind k) {
    switch (k) {
    case P_TENSOR: return "tensor";
    case P_TENSOR_LIST: return "tensor list";
    case P_INT: return "int";
    case P_BOOL: return "bool";
    case P_STRING: return "string";
    case P_DTYPE: return "dtype";
    case P_INT_LIST: return "int list";
    }
    return "?";
}

static void usage(FILE *f) {
    fprintf(f,
            "tensorx %s -- TensorFlow's tensor transformations, bit-exact, from the command line\n\n"
            "usage:\n"
            "  tensorx OP name=value ... [-o OUT.npy]...   run an op (results print unless -o is given)\n"
            "  tensorx OP --help                           an op's arguments and defaults\n"
            "  tensorx OP name=value ... --plan[=json]     the outputs' dtypes, shapes and bytes, or\n"
            "                                              the error, without running the op\n"
            "  tensorx info FILE.npy                       dtype, shape, size and a preview\n"
            "  tensorx conform FILE.json|DIR ...           run conformance suites\n"
            "  tensorx help | --version\n\n"
            "tensor values: FILE.npy, - (.npy on stdin), @FILE (raw bytes as a string scalar),\n"
            "  or a literal: 5, 1,0, [[1,2],[3,4]]:float32, [\"ab\",\"c\"]\n"
            "-o: once per output, or once with {} in the name (replaced by the output index)\n\n"
            "ops:\n",
            tx_version_string());
    for (size_t i = 0; op_at(i); i++) fprintf(f, "  %-36s %s\n", op_at(i)->name, op_at(i)->summary);
}

static void op_help(const op_def *d) {
    printf("tensorx %s -- %s\n\narguments:\n", d->name, d->summary);
    for (size_t i = 0; i < OP_MAX_PARAMS && d->params[i].name; i++) {
        const op_param *p = &d->params[i];
        const char *def = p->def == PARAM_REQUIRED ? "required" : p->def[0] ? p->def : "optional";
        printf("  %-16s %-12s %-10s %s\n", p->name, kind_name(p->kind), def, p->help ? p->help : "");
    }
}

static int info(const char *path) {
    tx_tensor *t = NULL;
    tx_status st = stream_load_npy(path, &t); /* big files are mapped: the preview reads little */
    if (st != TX_OK) {
        fprintf(stderr, "tensorx: info: %s: %s\n", tx_status_name(st), tx_last_error());
        return 1;
    }
    printf("dtype: %s\nshape: [", tx_dtype_name(tx_tensor_dtype(t)));
    for (size_t d = 0; d < tx_tensor_rank(t); d++) printf(d ? ", %lld" : "%lld", (long long)tx_tensor_dims(t)[d]);
    printf("]\nsize: %lld elements, %zu bytes\n", (long long)tx_tensor_numel(t), tx_tensor_nbytes(t));
    print_tensor(stdout, t);
    tx_tensor_free(t);
    return 0;
}

static int fail(tx_status st, const char *op) {
    progress_stop();
    fprintf(stderr, "tensorx: %s: %s: %s\n", op, tx_status_name(st), op_error());
    return 1;
}

/* --plan: what the call would make (dtype, shape, bytes of each output) or the error it would
 * give, without running it (the library's plan mode). */
static void print_plan(const op_def *d, const tx_plan *p, bool json) {
    size_t total = 0;
    if (json) printf("{\"op\": \"%s\", \"outputs\": [", d->name);
    for (size_t i = 0; i < p->count; i++) {
        const tx_output_info *o = &p->outputs[i];
        bool view = o->flags & TX_OUTPUT_VIEW, bound = o->flags & TX_OUTPUT_UPPER_BOUND,
             dd = o->flags & TX_OUTPUT_DATA_DEPENDENT;
        if (!view) total += o->nbytes + o->string_bytes;
        if (json) printf("%s{\"dtype\": \"%s\", \"shape\": [", i ? ", " : "", tx_dtype_name(o->dtype));
        else printf("output %zu: %s [", i, tx_dtype_name(o->dtype));
        for (size_t k = 0; k < o->rank; k++) printf(k ? ", %lld" : "%lld", (long long)o->dims[k]);
        if (json) {
            printf("], \"numel\": %lld, \"nbytes\": %zu, \"string_bytes\": %zu, \"view\": %s, "
                   "\"upper_bound\": %s, \"data_dependent\": %s}",
                   (long long)o->numel, o->nbytes, o->string_bytes, view ? "true" : "false",
                   bound ? "true" : "false", dd ? "true" : "false");
            continue;
        }
        printf("], %s%lld elements, %zu bytes", bound ? "at most " : "", (long long)o->numel, o->nbytes);
        if (o->string_bytes) printf(" + %zu string bytes", o->string_bytes);
        if (view) printf(", view");
        if (dd) printf(", data-dependent");
        printf("\n");
    }
    if (json) printf("], \"new_bytes\": %zu}\n", total);
    else printf("new bytes: %zu\n", total);
}

static int fail(tx_status st, const char *op);

static int plan_op(const op_def *d, const op_args *a, bool json) {
    tx_plan p = {NULL, 0, 0};
    tx_status st;
    for (;;) { /* again with room for every output if the first guess was short */
        op_outputs o = {0};
        o.plan = &p;
        op_fail(TX_OK, "%s", "");
        st = d->run(a, &o);
        op_outputs_clear(&o);
        if (st != TX_OK || p.count <= p.capacity) break;
        free(p.outputs);
        p.capacity = p.count;
        p.outputs = calloc(p.capacity, sizeof *p.outputs);
        if (!p.outputs) {
            st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
            break;
        }
    }
    int rc = st == TX_OK ? (print_plan(d, &p, json), 0) : fail(st, d->name);
    free(p.outputs);
    return rc;
}

static int run_op(const op_def *d, int argc, char **argv) {
    int rc = 0;
    int plan = 0; /* 1: --plan, 2: --plan=json */
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--plan")) plan = 1;
        else if (!strcmp(argv[i], "--plan=json")) plan = 2;
    }
    /* Big files: decode_raw / cast / bitcast chunk by chunk over mapped windows (stream.c). */
    if (!plan && stream_run(d, argc, argv, &rc)) return rc;
    op_args a;
    memset(&a, 0, sizeof a);
    a.def = d;
    const char *outs[256];
    size_t nouts = 0;
    tx_status st = TX_OK;
    progress_start(d->name, 0);
    for (int i = 0; i < argc && st == TX_OK; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            progress_stop();
            op_help(d);
            op_args_clear(&a);
            return 0;
        }
        if (!strcmp(argv[i], "--plan") || !strcmp(argv[i], "--plan=json")) continue;
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc) st = op_fail(TX_INVALID_ARGUMENT, "-o needs a file name");
            else if (nouts == 256) st = op_fail(TX_INVALID_ARGUMENT, "too many -o");
            else outs[nouts++] = argv[++i];
            continue;
        }
        char *eq = strchr(argv[i], '=');
        if (!eq) {
            st = op_fail(TX_INVALID_ARGUMENT, "expected name=value, got '%s'", argv[i]);
            break;
        }
        size_t k;
        for (k = 0; k < OP_MAX_PARAMS && d->params[k].name; k++)
            if (strlen(d->params[k].name) == (size_t)(eq - argv[i]) && !strncmp(d->params[k].name, argv[i], (size_t)(eq - argv[i])))
                break;
        if (k == OP_MAX_PARAMS || !d->params[k].name) {
            st = op_fail(TX_INVALID_ARGUMENT, "unknown argument '%.*s' (see tensorx %s --help)", (int)(eq - argv[i]), argv[i], d->name);
            break;
        }
        if (a.v[k].present) {
            st = op_fail(TX_INVALID_ARGUMENT, "argument '%s' given twice", d->params[k].name);
            break;
        }
        st = op_parse_value(&d->params[k], eq + 1, &a.v[k]);
        if (st != TX_OK) {
            char msg[600];
            snprintf(msg, sizeof msg, "%s", op_error());
            st = op_fail(st, "argument '%s': %s", d->params[k].name, msg);
        }
    }
    if (st == TX_OK) st = op_args_finish(&a);
    if (st == TX_OK && plan) {
        progress_stop();
        rc = plan_op(d, &a, plan == 2);
        op_args_clear(&a);
        return rc;
    }
    op_outputs o = {0};
    if (st == TX_OK) {
        op_fail(TX_OK, "%s", "");
        st = d->run(&a, &o);
    }
    if (st != TX_OK) {
        rc = fail(st, d->name);
    } else if (nouts == 0) {
        progress_stop();
        for (size_t i = 0; i < o.n; i++) print_tensor(stdout, o.t[i]);
    } else if (nouts == 1 && strstr(outs[0], "{}")) {
        for (size_t i = 0; i < o.n && rc == 0; i++) {
            const char *p = strstr(outs[0], "{}");
            char name[4096];
            snprintf(name, sizeof name, "%.*s%zu%s", (int)(p - outs[0]), outs[0], i, p + 2);
            if ((st = stream_save(name, o.t[i])) != TX_OK) rc = fail(st, d->name);
        }
    } else if (nouts != o.n) {
        rc = fail(op_fail(TX_INVALID_ARGUMENT, "%zu -o given for %zu outputs (use one -o with {} in the name)", nouts, o.n), d->name);
    } else {
        for (size_t i = 0; i < o.n && rc == 0; i++)
            if ((st = stream_save(outs[i], o.t[i])) != TX_OK) rc = fail(st, d->name);
    }
    progress_stop();
    op_outputs_clear(&o);
    op_args_clear(&a);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
        printf("tensorx %s\n", tx_version_string());
        return 0;
    }
    if (!strcmp(argv[1], "info")) {
        if (argc != 3) {
            fprintf(stderr, "usage: tensorx info FILE.npy\n");
            return 2;
        }
        return info(argv[2]);
    }
    if (!strcmp(argv[1], "conform")) return conform_main(argc - 2, argv + 2);
    const op_def *d = op_find(argv[1]);
    if (!d) {
        fprintf(stderr, "tensorx: unknown op or command '%s' (see tensorx help)\n", argv[1]);
        return 2;
    }
    return run_op(d, argc - 2, argv + 2);
}
