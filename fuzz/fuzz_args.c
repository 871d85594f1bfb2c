/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_args.c -- the CLI's argument parser (tools/args.c op_parse_value: tensor literals, lists of
 * tensors, ints, bools, strings, dtypes, int lists; tools/values.c number parsing), the numpy-like
 * printer (tools/print.c) on what it parses, the command-line parser (op_args_parse: name=value
 * words, options, defaults), and the conformance suites' JSON reader (tools/json.c).  Input:
 * byte 0 picks the parameter kind (0..6 = param_kind, 7 = JSON, 8 = a command line), byte 1 is
 * the dtype an empty literal "[]" takes (for a command line: the op, op_at(byte % count)), the
 * rest is the text (a command line's words separated by newlines).  Texts naming files ('@',
 * .npy) are skipped; stdin ("-") is /dev/null, which is the tools' io_error "no input on stdin". */
#include "../tools/json.h"
#include "../tools/opreg.h"
#include "../tools/print.h"
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    if (!freopen("/dev/null", "rb", stdin)) fz_die("cannot redirect stdin");
    devnull = fopen("/dev/null", "w");
    return 0;
}

static void walk(const json *j, int depth) {
    if (!j || depth > 64) return;
    if (j->type == J_STRING || j->type == J_NUMBER) {
        if (!j->text) fz_die("json: string or number without text");
        volatile char c = j->len ? j->text[j->len - 1] : 0;
        (void)c;
    }
    for (size_t i = 0; (j->type == J_ARRAY || j->type == J_OBJECT) && i < j->n; i++) {
        walk(j->items[i], depth + 1);
        if (j->type == J_OBJECT) {
            if (!j->keys[i]) fz_die("json: NULL key");
            if (json_get(j, j->keys[i]) == NULL) fz_die("json: key '%s' not found again", j->keys[i]);
        }
    }
}

/* A failure of the tools: a status of the library's, or usage / io_error, with a message. */
static void check_tools_failure(tx_status st, const char *what) {
    if (st == OP_USAGE || st == OP_IO_ERROR) {
        if (!op_error()[0]) fz_die("%s: %s without a message", what, op_status_name(st));
    } else {
        fz_check_failure(st, what, op_error());
    }
}

/* The CLI's -o FILE (the next word, whatever it looks like); other options are usage errors. */
static tx_status output_option(void *ctx, int argc, const char *const *argv, int *i) {
    (void)ctx;
    if (strcmp(argv[*i], "-o") != 0) return op_fail(OP_USAGE, "unknown option '%s'", argv[*i]);
    if (*i + 1 >= argc) return op_fail(OP_USAGE, "-o needs a file name");
    ++*i;
    return TX_OK;
}

/* A command line (text[0..len): words separated by newlines) for op d: parsed, or refused with a
 * message and nothing left behind; when parsed, every required parameter is present. */
static void command_line(const op_def *d, char *text, size_t len) {
    const char *words[64];
    int n = 0;
    for (char *w = text; n < 64; n++) {
        words[n] = w;
        char *nl = strchr(w, '\n');
        if (!nl) {
            n++;
            break;
        }
        *nl = '\0';
        w = nl + 1;
    }
    op_args a;
    op_cmdline cl = {.option = output_option};
    op_fail(TX_OK, "%s", "");
    tx_status st = op_args_parse(&a, d, n, words, &cl);
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) {
        const op_value *v = &a.v[i];
        if (st != TX_OK && (v->present || v->tensor || v->list || v->s || v->ints))
            fz_die("op_args_parse failed but left a value");
        if (st == TX_OK && d->params[i].name && d->params[i].def == PARAM_REQUIRED && !v->present)
            fz_die("op_args_parse: required '%s' absent", d->params[i].name);
        if (cl.text[i] && (cl.text[i] < text || cl.text[i] > text + len))
            fz_die("op_args_parse: text[%zu] does not point into argv", i);
    }
    if (st != TX_OK) check_tools_failure(st, "op_args_parse");
    op_args_clear(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!devnull) LLVMFuzzerInitialize(NULL, NULL);
    if (size < 2) return 0;
    int kind = data[0] % 9;
    tx_dtype empty = tx_dtype_size((tx_dtype)data[1]) ? (tx_dtype)data[1] : TX_INVALID_DTYPE;
    const char *body = (const char *)data + 2;
    size_t len = size - 2;
    if (kind == 7) {
        char err[256] = "";
        json *j = json_parse(body, len, err, sizeof err);
        if (!j && !err[0]) fz_die("json_parse failed without a message");
        walk(j, 0);
        json_free(j);
        return 0;
    }
    char *text = malloc(len + 1);
    if (!text) return 0;
    memcpy(text, body, len);
    text[len] = '\0';
    if (strchr(text, '@') || strstr(text, ".npy")) {
        free(text);
        return 0;
    }
    long live = fz_alloc_live();
    if (kind == 8) {
        size_t nops = 0;
        while (op_at(nops)) nops++;
        command_line(op_at(data[1] % nops), text, len);
        free(text);
        if (fz_alloc_live() != live) fz_die("command-line parsing leaked %ld block(s)", fz_alloc_live() - live);
        return 0;
    }
    op_param p = {"arg", (param_kind)kind, PARAM_REQUIRED, NULL, empty};
    op_value v;
    memset(&v, 0, sizeof v);
    op_fail(TX_OK, "%s", "");
    tx_status st = op_parse_value(&p, text, &v);
    if (st == OP_IO_ERROR) {
        /* "-" on an empty stdin: the tools' own status, with a message. */
        if (!op_error()[0]) fz_die("op_parse_value: io_error without a message");
        if (v.present || v.tensor || v.list || v.s || v.ints) fz_die("op_parse_value failed but left a value");
    } else if (st != TX_OK) {
        fz_check_failure(st, "op_parse_value", op_error());
        if (v.present || v.tensor || v.list || v.s || v.ints) fz_die("op_parse_value failed but left a value");
    } else {
        if (!v.present) fz_die("op_parse_value succeeded without marking the value present");
        if (kind == P_TENSOR) {
            fz_check_tensor(v.tensor, "literal");
            print_tensor(devnull, v.tensor);
        }
        for (size_t i = 0; i < v.nlist; i++) {
            fz_check_tensor(v.list[i], "list item");
            print_tensor(devnull, v.list[i]);
        }
    }
    op_value_clear(&v);
    free(text);
    if (fz_alloc_live() != live) fz_die("argument parsing leaked %ld block(s)", fz_alloc_live() - live);
    return 0;
}
