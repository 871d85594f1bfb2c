/* SPDX-License-Identifier: Apache-2.0 */
/* mkseed.c -- makes fuzz seeds from CLI invocations: `fuzz_mkseed OP name=value ...` parses the
 * arguments exactly as the tensorx CLI does and writes (1) the op call in the generic op fuzzer's
 * encoding (opcodec.h) to $FZ_OPS_DIR and (2) each argument text, and the command line, as the
 * argument fuzzer's inputs, to $FZ_ARGS_DIR; file names are the op or kind plus a hash of the
 * bytes, so repeats collapse.  fuzz/make_seeds.sh runs the CLI golden tests with TX pointing here
 * to harvest their calls, and `fuzz_mkseed --examples` for every call of tests/unit/op_examples.h, which also
 * writes scaled versions of each call, and each op's first call with its dtype attributes set to
 * every dtype, to $FZ_OPS_DIFF_DIR (seeds of the differential fuzzer).  Anything it cannot parse
 * is skipped silently (exit 0): the golden tests also try bad input.  `fuzz_mkseed --cli NAME OP
 * WORD...` writes one seed of the argument fuzzer's whole-CLI mode as $FZ_ARGS_DIR/cli-NAME. */
#include "op_examples.h"
#include "../frontend/args.h"
#include "opcodec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_seed(const char *dir, const char *prefix, const uint8_t *data, size_t n) {
    if (!dir || !*dir) return;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ data[i]) * 1099511628211ull;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s-%016llx", dir, prefix, (unsigned long long)h);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fwrite(data, 1, n, f);
    fclose(f);
}

static int make(int argc, char **argv);
static bool examples_mode;

/* The CLI's -o FILE is not part of the call; any other option makes the command one to skip. */
static tx_status skip_output(void *ctx, int argc, const char *const *argv, int *i) {
    (void)ctx;
    if (strcmp(argv[*i], "-o") != 0 || *i + 1 >= argc) return op_fail(OP_USAGE, "skipped");
    ++*i;
    return TX_OK;
}

/* `fuzz_mkseed --cli NAME OP WORD...`: the argument fuzzer's whole-CLI seed $FZ_ARGS_DIR/cli-NAME:
 * mode 9, the op's index in the table, the words joined by newlines (fuzz_args.c). */
static int cli_seed(int argc, char **argv) {
    const op_def *d = argc >= 2 ? op_find(argv[1]) : NULL;
    const char *dir = getenv("FZ_ARGS_DIR");
    if (!d || !dir || !*dir) {
        fprintf(stderr, "usage: FZ_ARGS_DIR=DIR fuzz_mkseed --cli NAME OP WORD...\n");
        return 2;
    }
    size_t index = 0;
    while (op_at(index) != d) index++;
    fz_buf b = {0};
    fz_buf_u8(&b, 9);
    fz_buf_u8(&b, (uint8_t)index);
    for (int i = 2; i < argc; i++) {
        if (i > 2) fz_buf_u8(&b, '\n');
        fz_buf_put(&b, argv[i], strlen(argv[i]));
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/cli-%s", dir, argv[0]);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b.p, 1, b.n, f) != b.n || fclose(f) != 0) {
        perror(path);
        return 1;
    }
    free(b.p);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "--cli")) return cli_seed(argc - 2, argv + 2);
    if (argc == 2 && !strcmp(argv[1], "--examples")) {
        examples_mode = true;
        for (size_t i = 0; i < sizeof tx_op_examples / sizeof tx_op_examples[0]; i++) {
            char *args[OPX_MAX_ARGS + 2] = {argv[0], (char *)tx_op_examples[i].op};
            int n = 2;
            for (size_t k = 0; k < OPX_MAX_ARGS && tx_op_examples[i].args[k]; k++) args[n++] = (char *)tx_op_examples[i].args[k];
            if (make(n, args) != 0) return 1;
        }
        return 0;
    }
    return make(argc, argv);
}

/* The differential fuzzer's seeds for the first example of each op: each dtype attribute set to
 * each dtype in turn (every cast pair from the example's input, at every level), at the default
 * 1 KiB scale.  A variant the op refuses is a seed all the same. */
static void dtype_variants(op_args *a) {
    static const op_def *done[256];
    static size_t ndone;
    const char *dir = getenv("FZ_OPS_DIFF_DIR");
    if (!dir || !*dir) return;
    for (size_t i = 0; i < ndone; i++)
        if (done[i] == a->def) return;
    if (ndone < sizeof done / sizeof *done) done[ndone++] = a->def;
    for (size_t k = 0; k < OP_MAX_PARAMS && a->def->params[k].name; k++) {
        if (a->def->params[k].kind != P_DTYPE) continue;
        op_value keep = a->v[k];
        for (size_t t = 0; t < FZ_NDTYPES; t++) {
            a->v[k].present = true;
            a->v[k].dtype = fz_dtypes[t];
            fz_buf b = {0};
            fz_op_encode(a, 0, 0, &b);
            write_seed(dir, a->def->name, b.p, b.n);
            free(b.p);
        }
        a->v[k] = keep;
    }
}

/* The argument fuzzer's command-line seed: kind 8, the op's index in the table, the op's words
 * joined by newlines.  Not for calls naming files (the fuzzer skips them) or paths (temporary
 * ones differ from run to run). */
static void command_seed(const op_def *d, int argc, char **argv) {
    size_t index = 0;
    while (op_at(index) != d) index++;
    fz_buf b = {0};
    fz_buf_u8(&b, 8);
    fz_buf_u8(&b, (uint8_t)index);
    for (int i = 0; i < argc; i++) {
        if (strpbrk(argv[i], "@/\n") || strstr(argv[i], ".npy")) {
            free(b.p);
            return;
        }
        if (i) fz_buf_u8(&b, '\n');
        fz_buf_put(&b, argv[i], strlen(argv[i]));
    }
    write_seed(getenv("FZ_ARGS_DIR"), "cmd", b.p, b.n);
    free(b.p);
}

static int make(int argc, char **argv) {
    if (argc < 2) return 0;
    const op_def *d = op_find(argv[1]);
    if (!d) return 0;
    if (fz_op_select(fz_op_hash(d->name)) != d) {
        fprintf(stderr, "mkseed: op name hash of '%s' collides; change fz_op_hash\n", d->name);
        return 1;
    }
    command_seed(d, argc - 2, argv + 2);
    op_args a; /* the defaults are filled in after the encoding below */
    op_cmdline cl = {.option = skip_output, .no_defaults = true};
    bool parsed = op_args_parse(&a, d, argc - 2, (const char *const *)argv + 2, &cl) == TX_OK;
    /* The argument fuzzer's seeds, bad values included: kind byte, empty-literal dtype byte, the
     * text (files and stdin left out). */
    for (size_t k = 0; k < OP_MAX_PARAMS; k++) {
        const char *text = cl.text[k];
        if (!text || strchr(text, '@') || strstr(text, ".npy") || !strcmp(text, "-")) continue;
        fz_buf b = {0};
        fz_buf_u8(&b, (uint8_t)d->params[k].kind);
        fz_buf_u8(&b, (uint8_t)d->params[k].empty_dtype);
        fz_buf_put(&b, text, strlen(text));
        write_seed(getenv("FZ_ARGS_DIR"), "arg", b.p, b.n);
        free(b.p);
    }
    if (!parsed) return 0;
    /* Encoded before the defaults are filled in, so the seed leaves out what the call left out. */
    fz_buf b = {0};
    fz_op_encode(&a, 0, 0, &b);
    if (examples_mode) dtype_variants(&a);
    bool ok = op_args_finish(&a) == TX_OK;
    if (ok) write_seed(getenv("FZ_OPS_DIR"), d->name, b.p, b.n);
    /* The differential fuzzer's seeds (it also reads the ops seeds, which it scales to about
     * 1 KiB over every dim): the call unscaled, scaled to about 1 KiB along the last dim, and to
     * about 1 MiB over every dim (the thread pool's size); opcodec.h's flags. */
    static const uint8_t scaled[] = {1 << 1, 1 << 6, 5 << 1};
    for (size_t k = 0; ok && examples_mode && k < sizeof scaled; k++) {
        b.p[3] = scaled[k]; /* the flags byte, after the u16 op and the u8 fail_k */
        write_seed(getenv("FZ_OPS_DIFF_DIR"), d->name, b.p, b.n);
    }
    free(b.p);
    op_args_clear(&a);
    return 0;
}
