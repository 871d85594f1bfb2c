/* SPDX-License-Identifier: Apache-2.0 */
/* cli.c -- the command-line tool (cli.h): `tensorx OP name=value ... [-o FILE.npy]...`, `info`,
 * `conform`, `help`.  Built only on the public API (tensorx.h).  Exit status: 0 success, 1 the
 * operation (or a file) failed, 2 a command line the tool cannot take ("usage:"). */
#define TX_EXPERIMENTAL_API /* tx_cpu_kernel_name, for info --cpu */
#include "cli.h"

#include "args.h"
#include "conform.h"
#include "console.h"
#include "fault.h"
#include "files.h"
#include "formats.h"
#include "opreg.h"
#include "print.h"
#include "progress.h"
#include "save.h"
#include "stream.h"
#include "tfrecord.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
            "  tensorx OP --help | tensorx help OP         an op's arguments and defaults\n"
            "  tensorx OP name=value ... --plan[=json]     the outputs' dtypes, shapes and bytes, or\n"
            "                                              the error, without running the op\n"
            "  tensorx info FILE|-                         a tensor file's dtype, shape, size and a preview\n"
            "  tensorx info --cpu                          the CPU level and the kernel of each slot\n"
            "  tensorx conform [--plan] [--prepared] FILE.json|DIR ...  run conformance suites\n"
            "  tensorx tfrecord count|index|cat FILE [compression=GZIP|ZLIB] [-o OUT]\n"
            "                                              a TFRecord file's record count, offsets\n"
            "                                              or records (a string tensor)\n"
            "  tensorx tfrecord parse FILE [batch=N] [decode=KEY:DTYPE,...] FEATURES... -o OUT{}.npy\n"
            "                                              its Examples through parse_example (and\n"
            "                                              decode_raw) to .npy files, streamed\n"
            "  tensorx help | --version\n\n"
            "tensor values: FILE.npy, - (.npy on stdin), @FILE (raw bytes as a string scalar),\n"
            "  FILE.safetensors[:NAME], FILE.idx[.gz], FILE.tfrecord[.gz] (its records),\n"
            "  or a literal: 5, [4], 1,0, [[1,2],[3,4]]:float32, [\"ab\",\"c\"]\n"
            "-o: once per output, or once with {} in the name (replaced by the output index);\n"
            "  FILE.npy, - (.npy on stdout), FILE.safetensors[:NAME], FILE.idx[.gz], FILE.tfrecord[.gz]\n"
            "--max-bytes N (or TENSORX_MAX_BYTES=N): the largest tensor made, e.g. 64M, 2G\n"
            "  (default: half of physical memory; 0: no cap)\n"
            "exit status: 0 success, 1 the operation or a file failed, 2 usage\n\n"
            "ops:\n",
            tx_version_string());
    for (size_t i = 0; op_at(i); i++) fprintf(f, "  %-36s %s\n", op_at(i)->name, op_at(i)->summary);
}

static void op_help(const op_def *d) {
    FILE *f = cli_out();
    fprintf(f, "tensorx %s -- %s\n\narguments:\n", d->name, d->summary);
    for (size_t i = 0; i < OP_MAX_PARAMS && d->params[i].name; i++) {
        const op_param *p = &d->params[i];
        const char *def = p->def == PARAM_REQUIRED ? "required" : p->def[0] ? p->def : "optional";
        fprintf(f, "  %-16s %-12s %-10s %s\n", p->name, kind_name(p->kind), def, p->help ? p->help : "");
    }
    fputs("\noutputs:", f);
    for (size_t i = 0; i < OP_MAX_OUTPUTS && d->outputs[i]; i++) fprintf(f, "%s %s", i ? "," : "", d->outputs[i]);
    fprintf(f, "%s\ndocs: docs/%s\n", d->outputs_list ? " (a list)" : "", d->doc);
}

/* Prints a failure as `tensorx: OP: STATUS: MESSAGE` (`tensorx: STATUS: MESSAGE` without an op)
 * and returns the exit status: 2 for usage, 1 otherwise. */
static int report(const char *op, tx_status st, const char *msg) {
    progress_stop();
    fprintf(cli_err(), "tensorx: %s%s%s: %s\n", op ? op : "", op ? ": " : "", op_status_name(st), msg);
    return st == OP_USAGE ? 2 : 1;
}

static int usage_error(const char *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(const char *op, const char *fmt, ...) {
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return report(op, OP_USAGE, msg);
}

/* ---- suggestions ------------------------------------------------------------------------------ */

static const char *const commands[] = {"info", "conform", "tfrecord", "help", "version"};

static int unknown_command(const char *word) {
    const char *names[256];
    size_t n = 0;
    for (size_t i = 0; op_at(i) && n < 250; i++) names[n++] = op_at(i)->name;
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) names[n++] = commands[i];
    char buf[128];
    return usage_error(NULL, "unknown op or command '%s'%s (tensorx help lists them)", word,
                       op_did_you_mean(word, names, n, buf, sizeof buf));
}

/* ---- a scalar where a vector is needed --------------------------------------------------------- */

/* TF refuses `shape=4` where it wants a vector; the rule stays, and the message gains how to write
 * one.  Found without a table of vector arguments: the op's message makes the argument the subject
 * of a rank rule, and the same call sized (plan mode: nothing runs or is allocated) with the
 * argument as a 1-element vector no longer objects to its rank. */

/* `name` as a whole word, the subject of a rule: "shape must ...", "begin and size to be ...",
 * "params of rank ...", "multiples argument to be ...", "begin, end, and strides ...". */
static bool names_subject(const char *msg, const char *name) {
    static const char *const next[] = {" must", " cannot", " to be", " and ", ",", " of rank", " argument"};
    size_t n = strlen(name);
    for (const char *p = strstr(msg, name); p; p = strstr(p + 1, name)) {
        if (p > msg && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
        for (size_t i = 0; i < sizeof next / sizeof *next; i++)
            if (!strncmp(p + n, next[i], strlen(next[i]))) return true;
    }
    return false;
}

static bool has_word(const char *msg, const char *const *words, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strstr(msg, words[i])) return true;
    return false;
}

/* A rule about the rank of argument `name`. */
static bool rank_rule(const char *msg, const char *name) {
    static const char *const w[] = {"vector", "-D", "rank", "matrix", "scalar", "[]"};
    return names_subject(msg, name) && has_word(msg, w, sizeof w / sizeof *w);
}

/* The message asks for a rank other than 1: a matrix, a scalar, "4-D". */
static bool wants_other_rank(const char *msg) {
    static const char *const w[] = {"matrix", "scalar"};
    if (has_word(msg, w, 2)) return true;
    for (const char *p = strstr(msg, "-D"); p; p = strstr(p + 1, "-D"))
        if (p > msg && isdigit((unsigned char)p[-1]) && p[-1] != '1') return true;
    return false;
}

/* A literal written without brackets (not a file, not stdin). */
static bool bare_literal(const char *text) {
    size_t n = strlen(text);
    return strcmp(text, "-") != 0 && text[0] != '@' && !strchr(text, '[') &&
           !(n >= 4 && !strcmp(text + n - 4, ".npy"));
}

/* Appends " NAME=[VALUE]" (the dtype suffix kept outside: [4]:int64) to hint. */
static void append_vector(char *hint, size_t cap, const char *name, const char *text) {
    const char *colon = strrchr(text, ':');
    if (colon && tx_dtype_from_name(colon + 1) == TX_INVALID_DTYPE) colon = NULL;
    size_t len = strlen(hint), vlen = colon ? (size_t)(colon - text) : strlen(text);
    snprintf(hint + len, cap - len, " %s=[%.*s]%s", name, (int)vlen, text, colon ? colon : "");
}

/* hint: "(write shape=[4] for a vector)" or "" -- for the failure `msg` of op d with arguments a
 * given as text[k] on the command line. */
static void vector_hint(const op_def *d, const op_args *a, const char *const *text, const char *msg,
                        char *hint, size_t cap) {
    op_plan_result r;
    op_args b = *a; /* the same values, but the candidates as vectors (views) */
    bool cand[OP_MAX_PARAMS] = {false};
    size_t ncand = 0, nhint = 0;
    char list[512] = "";
    hint[0] = '\0';
    for (size_t k = 0; k < OP_MAX_PARAMS && d->params[k].name; k++) {
        const tx_tensor *t = a->v[k].tensor;
        if (d->params[k].kind != P_TENSOR || !text[k] || !t || tx_tensor_rank(t) != 0 ||
            !bare_literal(text[k]) || !rank_rule(msg, d->params[k].name))
            continue;
        tx_tensor *v = NULL;
        if (tx_expand_dims(t, 0, &v) != TX_OK) continue;
        b.v[k].tensor = v;
        cand[k] = true;
        ncand++;
    }
    if (ncand) op_plan_run(d, &b, &r);
    for (size_t k = 0; k < OP_MAX_PARAMS; k++) {
        if (!cand[k]) continue;
        const char *name = d->params[k].name;
        static const char *const vec[] = {"vector", "1-D"};
        if (r.st == TX_OK || !rank_rule(r.msg, name) ||
            (has_word(r.msg, vec, 2) && !wants_other_rank(r.msg))) {
            append_vector(list, sizeof list, name, text[k]);
            nhint++;
        }
        tx_tensor_free(b.v[k].tensor);
    }
    if (ncand) op_plan_result_clear(&r);
    if (nhint) snprintf(hint, cap, " (write%s for %s)", list, nhint == 1 ? "a vector" : "vectors");
}

/* ---- running an op ---------------------------------------------------------------------------- */

/* Reports the failure of op d: a scalar given for a vector gains the vector's spelling, and a
 * tensor over the cap says where the cap comes from. */
static int fail_op(const op_def *d, const op_args *a, const char *const *text, tx_status st) {
    char msg[600], hint[600] = "";
    snprintf(msg, sizeof msg, "%s", op_error());
    if (st == TX_INVALID_ARGUMENT && a && text) vector_hint(d, a, text, msg, hint, sizeof hint);
    if (st == TX_RESOURCE_EXHAUSTED && strstr(msg, "the limit of"))
        snprintf(hint, sizeof hint, " (the cap: --max-bytes or TENSORX_MAX_BYTES)");
    char line[1200];
    snprintf(line, sizeof line, "%s%s", msg, hint);
    return report(d->name, st, line);
}

static int fail(tx_status st, const op_def *d) { return fail_op(d, NULL, NULL, st); }

/* The CPU level in use, what it was detected as, the cap, and the kernel of each dispatch slot. */
static int info_cpu(void) {
    const char *cap = getenv("TENSORX_CPU"), *slot, *key, *name;
    fprintf(cli_out(), "level: %s\ndetected: %s\ncap: %s%s\n", tx_isa_level_name(tx_cpu_level()),
            tx_isa_level_name(tx_cpu_detected_level()), cap ? "TENSORX_CPU=" : "none",
            cap ? cap : "");
    for (size_t i = 0; (name = tx_cpu_kernel_name(i, &slot, &key)) != NULL; i++)
        fprintf(cli_out(), "%s%s%s%s %s\n", slot, *key ? "[" : "", key, *key ? "]" : "", name);
    return 0;
}

static int info(const char *path) {
    if (!strcmp(path, "--cpu")) return info_cpu();
    tx_tensor *t = NULL;
    op_fail(TX_OK, "%s", "");
    fault_install("info");
    /* big files are mapped: the preview reads little */
    tx_status st;
    if (outfile_is_npy(path) || !ff_load_source(path, &t, &st)) st = stream_load_npy(path, &t);
    if (st != TX_OK) return report("info", st, op_error());
    FILE *f = cli_out();
    fprintf(f, "dtype: %s\nshape: [", tx_dtype_name(tx_tensor_dtype(t)));
    for (size_t d = 0; d < tx_tensor_rank(t); d++)
        fprintf(f, d ? ", %lld" : "%lld", (long long)tx_tensor_dims(t)[d]);
    fprintf(f, "]\nsize: %lld elements, %zu bytes\n", (long long)tx_tensor_numel(t),
            tx_tensor_nbytes(t));
    print_tensor(f, t);
    tx_tensor_free(t);
    return 0;
}

/* --plan: what the call would make (dtype, shape, bytes of each output) or the error it would
 * give, without running it (the library's plan mode). */
static void print_plan(const op_def *d, const tx_plan *p, bool json) {
    FILE *f = cli_out();
    size_t total = 0;
    if (json) fprintf(f, "{\"op\": \"%s\", \"outputs\": [", d->name);
    for (size_t i = 0; i < p->count; i++) {
        const tx_output_info *o = &p->outputs[i];
        bool view = o->flags & TX_OUTPUT_VIEW, bound = o->flags & TX_OUTPUT_UPPER_BOUND,
             dd = o->flags & TX_OUTPUT_DATA_DEPENDENT;
        if (!view) total += o->nbytes + o->string_bytes;
        const char *dt = tx_dtype_name(o->dtype);
        if (json) fprintf(f, "%s{\"dtype\": \"%s\", \"shape\": [", i ? ", " : "", dt);
        else fprintf(f, "output %zu: %s [", i, dt);
        for (size_t k = 0; k < o->rank; k++)
            fprintf(f, k ? ", %lld" : "%lld", (long long)o->dims[k]);
        if (json) {
            fprintf(f, "], \"numel\": %lld, \"nbytes\": %zu, \"string_bytes\": %zu, \"view\": %s, "
                    "\"upper_bound\": %s, \"data_dependent\": %s}",
                    (long long)o->numel, o->nbytes, o->string_bytes, view ? "true" : "false",
                    bound ? "true" : "false", dd ? "true" : "false");
            continue;
        }
        fprintf(f, "], %s%lld elements, %zu bytes", bound ? "at most " : "", (long long)o->numel,
                o->nbytes);
        if (o->string_bytes) fprintf(f, " + %zu string bytes", o->string_bytes);
        if (view) fprintf(f, ", view");
        if (dd) fprintf(f, ", data-dependent");
        fprintf(f, "\n");
    }
    if (json) fprintf(f, "], \"new_bytes\": %zu}\n", total);
    else fprintf(f, "new bytes: %zu\n", total);
}

static int plan_op(const op_def *d, const op_args *a, const char *const *text, bool json) {
    tx_plan p = TX_PLAN_INIT(NULL, 0, NULL, 0);
    tx_status st;
    for (;;) { /* again with room for every output and dim if the first guess was short */
        op_outputs o = {0};
        o.plan = &p;
        op_fail(TX_OK, "%s", "");
        st = d->run(a, &o);
        op_outputs_clear(&o);
        if (st != TX_OK || (p.count <= p.capacity && p.dims_count <= p.dims_capacity)) break;
        free(p.outputs);
        free(p.dims);
        p.capacity = p.count;
        p.dims_capacity = p.dims_count;
        p.outputs = calloc(p.capacity, sizeof *p.outputs);
        p.dims = calloc(p.dims_capacity ? p.dims_capacity : 1, sizeof *p.dims);
        if (!p.outputs || !p.dims) {
            st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
            break;
        }
    }
    int rc = st == TX_OK ? (print_plan(d, &p, json), 0) : fail_op(d, a, text, st);
    free(p.outputs);
    free(p.dims);
    return rc;
}

/* The CLI's options after an op's arguments: -o FILE (once per output, kept in outs) and --plan
 * (read before parsing); anything else is usage, with the nearest option. */
typedef struct cli_options {
    const char *outs[256];
    size_t nouts;
} cli_options;

static tx_status cli_option(void *ctx, int argc, const char *const *argv, int *i) {
    cli_options *c = ctx;
    const char *arg = argv[*i];
    if (!strcmp(arg, "--plan") || !strcmp(arg, "--plan=json")) return TX_OK;
    if (!strcmp(arg, "-o")) {
        if (*i + 1 >= argc) return op_fail(OP_USAGE, "-o needs a file name");
        if (c->nouts == 256) return op_fail(OP_USAGE, "too many -o");
        c->outs[c->nouts++] = argv[++*i];
        return TX_OK;
    }
    static const char *const options[] = {"-o", "--plan", "--plan=json", "--help", "--max-bytes"};
    char buf[128];
    return op_fail(OP_USAGE, "unknown option '%s'%s", arg,
                   op_did_you_mean(arg, options, sizeof options / sizeof *options, buf, sizeof buf));
}

/* Writes output i to `pattern` with its first {} replaced by i, all outputs or none
 * (save_all). */
static tx_status save_indexed(const op_def *d, const char *pattern, const op_outputs *o) {
    const char *p = strstr(pattern, "{}");
    size_t cap = strlen(pattern) + 24; /* room for any size_t */
    char **names = calloc(o->n ? o->n : 1, sizeof *names);
    tx_status st = names ? TX_OK : op_fail(TX_RESOURCE_EXHAUSTED, "out of memory for %zu output names", o->n);
    for (size_t i = 0; st == TX_OK && i < o->n; i++) {
        if ((names[i] = malloc(cap)) == NULL)
            st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory for %zu output names", o->n);
        else snprintf(names[i], cap, "%.*s%zu%s", (int)(p - pattern), pattern, i, p + 2);
    }
    if (st == TX_OK) st = save_all(d, o->n, (const char *const *)names, o->t);
    for (size_t i = 0; names && i < o->n; i++) free(names[i]);
    free(names);
    return st;
}

static int run_op(const op_def *d, int argc, char **argv) {
    int rc = 0;
    int plan = 0; /* 1: --plan, 2: --plan=json */
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) i++; /* a file name, whatever it looks like */
        else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            op_help(d);
            return 0;
        } else if (!strcmp(argv[i], "--plan")) plan = 1;
        else if (!strcmp(argv[i], "--plan=json")) plan = 2;
    }
    fault_install(d->name); /* a mapped file that shrinks: an io_error naming it, not a crash */
    mapout_install();       /* before any tensor: outputs may be made in their output file */
    /* Big files: ops that stream run chunk by chunk over mapped windows (stream.c). */
    if (!plan && stream_run(d, argc, argv, &rc)) return rc;
    op_args a;
    cli_options opts = {.nouts = 0};
    op_cmdline cl = {.option = cli_option, .ctx = &opts};
    progress_start(d->name, 0); /* big inputs take a while to load */
    tx_status st = op_args_parse(&a, d, argc, (const char *const *)argv, &cl);
    const char *const *text = cl.text; /* each argument's text on the command line */
    const char *const *outs = opts.outs;
    size_t nouts = opts.nouts;
    if (st == TX_OK && plan) {
        progress_stop();
        rc = plan_op(d, &a, text, plan == 2);
        op_args_clear(&a);
        return rc;
    }
    op_outputs o = {0};
    bool ran = false, made = false;
    /* One output to a file: made in the mapped file itself when the op's plan allows (files.c),
     * so a big result costs no memory of its own and no copy. */
    mapout mo;
    bool mapping = st == TX_OK && nouts == 1 && mapout_begin(&mo, d, &a, outs[0], &st);
    if (st == TX_OK) {
        op_fail(TX_OK, "%s", "");
        st = d->run(&a, &o);
        ran = true;
    }
    if (mapping) {
        tx_status ran_st = st;
        st = mapout_end(&mo, st, &o, &made);
        if (st != ran_st) ran = false; /* writing the file failed: no hint about arguments */
    }
    if (st != TX_OK) {
        rc = fail_op(d, ran ? &a : NULL, text, st);
    } else if (made) {
        /* written */
    } else if (nouts == 0) {
        progress_stop();
        for (size_t i = 0; i < o.n; i++) print_tensor(cli_out(), o.t[i]);
    } else if (nouts == 1 && strstr(outs[0], "{}")) {
        if ((st = save_indexed(d, outs[0], &o)) != TX_OK) rc = fail(st, d);
    } else if (nouts != o.n) {
        rc = fail(op_fail(OP_USAGE, "%zu -o given for %zu outputs (use one -o with {} in the name)", nouts, o.n), d);
    } else if ((st = save_all(d, o.n, outs, o.t)) != TX_OK) {
        rc = fail(st, d);
    }
    progress_stop();
    op_outputs_clear(&o);
    op_args_clear(&a);
    fault_unwatch_all();
    return rc;
}

/* ---- the tensor cap --------------------------------------------------------------------------- */

/* Half of physical memory, or 0 (the library's own limit) when the system does not say. */
static size_t default_cap(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return 0;
    uint64_t half = (uint64_t)pages / 2 * (uint64_t)page;
    return half > SIZE_MAX ? 0 : (size_t)half;
}

/* Sets the largest tensor the tool makes (tx_set_max_tensor_bytes): --max-bytes N anywhere on
 * the command line (taken out of argv), else TENSORX_MAX_BYTES, else default_cap(); 0 lifts the
 * cap.  Returns 0, or 2 after reporting a usage error. */
static int set_max_bytes(int *argc, char **argv) {
    const char *text = NULL, *from = NULL;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < *argc) {
            argv[out++] = argv[i++];
            argv[out++] = argv[i];
        } else if (!strcmp(argv[i], "--max-bytes")) {
            if (i + 1 >= *argc) return usage_error(NULL, "--max-bytes needs a size (e.g. 64M, 2G)");
            text = argv[++i];
            from = "--max-bytes";
        } else if (!strncmp(argv[i], "--max-bytes=", 12)) {
            text = argv[i] + 12;
            from = "--max-bytes";
        } else {
            argv[out++] = argv[i];
        }
    }
    *argc = out;
    argv[out] = NULL;
    if (!from && (text = getenv("TENSORX_MAX_BYTES")) != NULL && *text) from = "TENSORX_MAX_BYTES";
    size_t cap = 0;
    if (!from) cap = default_cap();
    else if (!op_parse_size(text, &cap))
        return usage_error(NULL, "%s: '%s' is not a byte count (e.g. 1073741824, 64M, 2G)", from, text);
    tx_set_max_tensor_bytes(cap);
    return 0;
}

/* ---- commands --------------------------------------------------------------------------------- */

/* tensorx help [OP]: every op, or one op's arguments (as OP --help). */
static int help(int argc, char **argv) {
    if (argc == 0) {
        usage(cli_out());
        return 0;
    }
    if (argc > 1) return usage_error("help", "tensorx help [OP] takes one op, got %d words", argc);
    const op_def *d = op_find(argv[0]);
    if (d) {
        op_help(d);
        return 0;
    }
    if (!strcmp(argv[0], "info")) fprintf(cli_out(), "usage: tensorx info FILE|- | --cpu\n");
    else if (!strcmp(argv[0], "conform"))
        fprintf(cli_out(), "usage: tensorx conform [--plan] [--prepared] FILE.json|DIR ...\n");
    else if (!strcmp(argv[0], "tfrecord"))
        fprintf(cli_out(), "usage: tensorx tfrecord count|index|cat FILE "
                "[compression=GZIP|ZLIB|NONE] [-o OUT]\n"
                "       tensorx tfrecord parse FILE [compression=...] [batch=N] [decode=KEY:DTYPE,...]\n"
                "           [little_endian=true|false] FEATURES (parse_example's arguments) -o OUT{}.npy\n");
    else if (!strcmp(argv[0], "help") || !strcmp(argv[0], "version")) usage(cli_out());
    else return unknown_command(argv[0]);
    return 0;
}

static int run_command(int argc, char **argv) {
    if (argc < 2) {
        usage(cli_err());
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) return help(argc - 2, argv + 2);
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        fprintf(cli_out(), "tensorx %s\n", tx_version_string());
        return 0;
    }
    if (!strcmp(cmd, "info")) {
        if (argc != 3) return usage_error("info", "tensorx info FILE|- takes one file (or --cpu)");
        return info(argv[2]);
    }
    if (!strcmp(cmd, "conform")) return conform_main(argc - 2, argv + 2);
    if (!strcmp(cmd, "tfrecord")) return tfrecord_main(argc - 2, argv + 2);
    const op_def *d = op_find(cmd);
    if (!d) return unknown_command(cmd);
    return run_op(d, argc - 2, argv + 2);
}

/* Standard output, checked once for every command: what was printed (results, info, --plan, help,
 * --version) and could not all be written -- a full disk, /dev/full, a closed descriptor -- is
 * an io_error, not a silent 0.  A command that failed already keeps its one message line. */
static int check_stdout(const char *cmd, int rc) {
    FILE *out = cli_out();
    errno = 0;
    bool bad = fflush(out) != 0 || ferror(out);
    int err = errno ? errno : EIO; /* an error kept from an earlier write: its reason is gone */
    clearerr(out);
    if (!bad || rc != 0) return rc;
    op_fail_io("write", "-", err);
    return report(cmd, OP_IO_ERROR, op_error());
}

int cli_main(int argc, char **argv) {
    int rc = set_max_bytes(&argc, argv);
    if (rc) return rc;
    rc = run_command(argc, argv);
    /* Named as a failure of the command: an op, info or conform (not help or --version). */
    const char *cmd = argc >= 2 && (op_find(argv[1]) || !strcmp(argv[1], "info") ||
                                    !strcmp(argv[1], "conform") || !strcmp(argv[1], "tfrecord"))
                          ? argv[1] : NULL;
    return check_stdout(cmd, rc);
}
