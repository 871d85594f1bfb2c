/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_args.c -- the CLI's argument parser (frontend/args.c op_parse_value: tensor literals, lists of
 * tensors, ints, bools, strings, dtypes, int lists; frontend/values.c number parsing), the numpy-like
 * printer (tools/print.c) on what it parses, the command-line parser (op_args_parse: name=value
 * words, options, defaults), the conformance suites' JSON reader (tools/json.c), and whole
 * command lines through the CLI itself (tools/cli.c cli_main: --max-bytes, --plan, --help, -o, the
 * op's run, printing or saving its outputs, its messages and exit status).  Input: byte 0 picks
 * the mode (0..6 = param_kind, 7 = JSON, 8 = a command line for op_args_parse, 9 = a command
 * line for cli_main), byte 1 is the dtype an empty literal "[]" takes (for a command line: the
 * op, op_at(byte % count)), the rest is the text (a command line's words separated by newlines).
 * Texts naming files ('@', .npy) are skipped; stdin ("-") is /dev/null, which is the tools'
 * io_error "no input on stdin".  Mode 9 runs `tensorx OP --max-bytes 1M WORDS...` with the word
 * after every -o made /dev/null (so no file is ever made), every --max-bytes value above 1 MiB (or
 * 0) made 1M, the CLI's output to /dev/null and its diagnostics to a buffer; inputs with a word
 * that names an existing path (other than "-") are skipped.  It requires an exit status of 0, 1 or
 * 2, nothing on stderr for 0 and one "tensorx: [OP: ]STATUS: MESSAGE" line otherwise (usage for
 * 2, no internal error), no block left, and puts back the allocator, the tensor cap and the
 * SIGBUS and SIGXFSZ handlers that cli_main sets; replays also fail each allocation in turn. */
#include "../frontend/args.h"
#include "../frontend/opreg.h"
#include "../tools/cli.h"
#include "../tools/console.h"
#include "../tools/files.h"
#include "../tools/json.h"
#include "../tools/print.h"
#include "fuzz.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    if (!freopen("/dev/null", "rb", stdin)) fz_die("cannot redirect stdin");
    devnull = fopen("/dev/null", "w");
    if (!devnull) fz_die("cannot open /dev/null");
    /* The CLI's caps come from its command line only; its allocator forwards to ours. */
    unsetenv("TENSORX_MAX_BYTES");
    unsetenv("TENSORX_MAP_OUTPUT_MIN_BYTES");
    mapout_set_base(fz_allocator());
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
#define MAX_WORDS 64

/* Cuts text at its newlines into at most MAX_WORDS words (the rest is dropped). */
static int split_words(char *text, const char **words) {
    int n = 0;
    for (char *w = text; n < MAX_WORDS; n++) {
        words[n] = w;
        char *nl = strchr(w, '\n');
        if (!nl) {
            n++;
            break;
        }
        *nl = '\0';
        w = nl + 1;
    }
    return n;
}

static void command_line(const op_def *d, char *text, size_t len) {
    const char *words[MAX_WORDS];
    int n = split_words(text, words);
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

/* ---- mode 9: whole command lines through cli_main ------------------------------------------- */

#define CLI_MAX_BYTES ((size_t)1 << 20)

/* A word that would make the CLI read a file: @FILE, a .npy, an existing path ("-" is stdin). */
static bool names_file(const char *w) {
    struct stat sb;
    return strchr(w, '@') || strstr(w, ".npy") || (strcmp(w, "-") != 0 && lstat(w, &sb) == 0);
}

/* A --max-bytes value kept as given when it is a byte count of at most 1 MiB (or not a byte count:
 * a usage error, nothing runs), else "1M" (0 would lift the cap). */
static const char *capped(const char *v, const char *cap) {
    size_t n;
    return op_parse_size(v, &n) && (n == 0 || n > CLI_MAX_BYTES) ? cap : v;
}

/* Checks what cli_main printed on stderr (err[0..len)) against its exit status rc. */
static void check_cli_report(const op_def *d, int rc, const char *err, size_t len) {
    if (rc < 0 || rc > 2) fz_die("cli_main: exit status %d (the CLI documents 0, 1 and 2)", rc);
    if (rc == 0) {
        if (len) fz_die("cli_main: status 0 with '%.300s' on stderr", err);
        return;
    }
    if (len == 0 || err[len - 1] != '\n' || strlen(err) != len)
        fz_die("cli_main: status %d without one message line on stderr ('%.300s')", rc, err);
    const char *p = err;
    if (strncmp(p, "tensorx: ", 9) != 0) fz_die("cli_main: message '%.300s'", err);
    p += 9;
    size_t op = strlen(d->name);
    if (!strncmp(p, d->name, op) && !strncmp(p + op, ": ", 2)) p += op + 2;
    static const tx_status known[] = {OP_USAGE, OP_IO_ERROR, TX_INVALID_ARGUMENT,
                                      TX_RESOURCE_EXHAUSTED, TX_OUT_OF_RANGE, TX_UNIMPLEMENTED};
    tx_status st = TX_INTERNAL;
    for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
        const char *name = op_status_name(known[i]);
        size_t k = strlen(name);
        if (!strncmp(p, name, k) && !strncmp(p + k, ": ", 2) && p[k + 2] != '\n') st = known[i];
    }
    if (st == TX_INTERNAL) fz_die("cli_main: status %d, message '%.300s'", rc, err);
    if ((st == OP_USAGE) != (rc == 2)) fz_die("cli_main: exit status %d for '%.300s'", rc, err);
}

/* Runs argv through cli_main with its output to /dev/null and its diagnostics to a buffer, puts
 * back what cli_main sets for the process, and checks the run; returns the exit status. */
static int cli_once(const op_def *d, int argc, const char **argv) {
    const char *copy[2 * MAX_WORDS + 8]; /* cli_main reorders its argv */
    memcpy(copy, argv, (size_t)(argc + 1) * sizeof *argv);
    size_t cap = tx_max_tensor_bytes();
    struct sigaction bus, xfsz;
    sigaction(SIGBUS, NULL, &bus);
    sigaction(SIGXFSZ, NULL, &xfsz);
    char *err = NULL;
    size_t len = 0;
    FILE *ef = open_memstream(&err, &len);
    if (!ef) fz_die("open_memstream failed");
    long live = fz_alloc_live();
    cli_set_streams(devnull, ef);
    int rc = cli_main(argc, (char **)copy);
    cli_set_streams(NULL, NULL);
    fclose(ef);
    /* What cli_main leaves for the process after it: the harness's own put back. */
    tx_set_allocator(fz_allocator());
    tx_set_max_tensor_bytes(cap);
    sigaction(SIGBUS, &bus, NULL);
    sigaction(SIGXFSZ, &xfsz, NULL);
    if (fz_alloc_live() != live) fz_die("cli_main leaked %ld block(s)", fz_alloc_live() - live);
    if (getenv("FZ_VERBOSE") && !fz_alloc_failed()) {
        fprintf(stderr, " ");
        for (int i = 0; i < argc; i++) fprintf(stderr, " %s", argv[i]);
        fprintf(stderr, "\n  status %d%s%s", rc, len ? ", " : "\n", err);
    }
    check_cli_report(d, rc, err, len);
    free(err);
    return rc;
}

/* `tensorx OP --max-bytes 1M WORDS...` from text, or nothing when a word names a file. */
static void cli_run(const op_def *d, char *text, size_t len) {
    const char *words[MAX_WORDS];
    int n = len ? split_words(text, words) : 0;
    const char *argv[2 * MAX_WORDS + 8];
    int argc = 0;
    argv[argc++] = "tensorx";
    argv[argc++] = d->name;
    /* Right after OP, where no -o can take it for a file name; a later --max-bytes wins. */
    argv[argc++] = "--max-bytes";
    argv[argc++] = "1M";
    /* Pairs as set_max_bytes pairs them (cli.c; it runs first): -o and the word after it, the
     * file name whatever it looks like; --max-bytes and its value. */
    for (int i = 0; i < n; i++) {
        const char *w = words[i];
        argv[argc++] = w;
        if (!strcmp(w, "-o") && i + 1 < n) {
            argv[argc++] = "/dev/null";
            i++;
            continue;
        }
        if (names_file(w)) return;
        if (!strcmp(w, "--max-bytes") && i + 1 < n) {
            if (names_file(words[++i])) return;
            argv[argc++] = capped(words[i], "1M");
        } else if (!strncmp(w, "--max-bytes=", 12)) {
            argv[argc - 1] = capped(w + 12, "--max-bytes=1M") == w + 12 ? w : "--max-bytes=1M";
        }
    }
    argv[argc] = NULL;
    /* No -o may name anything but /dev/null: the harness runs as whoever starts it (root, too). */
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--max-bytes")) i++;
        else if (!strcmp(argv[i], "-o") && strcmp(argv[++i], "/dev/null") != 0)
            fz_die("harness: -o '%s' is not /dev/null", argv[i]);
    }
    int rc = cli_once(d, argc, argv);
    /* Replays: each allocation of the call failing in turn, the CLI reporting it. */
    for (long k = 1; fz_replay_mode && k <= 100000; k++) {
        fz_alloc_fail_at(k);
        int rk = cli_once(d, argc, argv);
        bool failed = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (!failed) {
            if (rk != rc) fz_die("cli_main: status %d, then %d with no allocation failing", rc, rk);
            if (getenv("FZ_VERBOSE")) fprintf(stderr, "  %ld allocation failure(s) reported\n", k - 1);
            break;
        }
        if (rk == 0) fz_die("cli_main: status 0 though allocation %ld failed", k);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!devnull) LLVMFuzzerInitialize(NULL, NULL);
    if (size < 2) return 0;
    int kind = data[0] % 10;
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
    size_t nops = 0;
    while (op_at(nops)) nops++;
    if (kind == 9) {
        cli_run(op_at(data[1] % nops), text, len);
        free(text);
        return 0;
    }
    if (strchr(text, '@') || strstr(text, ".npy")) {
        free(text);
        return 0;
    }
    long live = fz_alloc_live();
    if (kind == 8) {
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
