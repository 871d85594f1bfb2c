/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_args.c -- the CLI's argument parser (tools/args.c op_parse_value: tensor literals, lists of
 * tensors, ints, bools, strings, dtypes, int lists; tools/values.c number parsing), the numpy-like
 * printer (tools/print.c) on what it parses, and the conformance suites' JSON reader
 * (tools/json.c).  Input: byte 0 picks the parameter kind (0..6 = param_kind, 7 = JSON), byte 1
 * is the dtype an empty literal "[]" takes, the rest is the text.  Texts naming files ('@', .npy)
 * are skipped; stdin ("-") is /dev/null, which is the tools' io_error "no input on stdin". */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!devnull) LLVMFuzzerInitialize(NULL, NULL);
    if (size < 2) return 0;
    int kind = data[0] % 8;
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
