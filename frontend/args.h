/* SPDX-License-Identifier: Apache-2.0 */
/* args.h -- parsing the text of arguments (args.c): an op's command line of `name=value` words,
 * tensor literals and sources, attribute values by parameter kind, byte counts, and the "did you
 * mean" hints.  Every frontend that reads text comes here: the CLI, its streaming path, the
 * conformance runner, the fuzz seed maker, the tests that run the op examples and Python. */
#ifndef TX_FRONTEND_ARGS_H
#define TX_FRONTEND_ARGS_H

#include "opreg.h"

#include <stdbool.h>
#include <stddef.h>

/* How op_args_parse reads a command line.  Zero-initialised, it takes name=value words only,
 * fills in defaults and checks that required arguments are there. */
typedef struct op_cmdline {
    /* A word that begins with '-' (an option such as `-o FILE`): handles argv[*i], taking any
     * words after it by moving *i on, and returns TX_OK, or fails (op_fail; OP_USAGE for an option
     * it does not know).  NULL: every such word is an unknown option. */
    tx_status (*option)(void *ctx, int argc, const char *const *argv, int *i);
    void *ctx;
    /* A parameter whose text is recorded in text[] and marked present but not parsed (the input
     * the streaming path maps itself); NULL: none. */
    const char *unparsed;
    /* Leave absent parameters absent: no defaults, no required check (op_args_finish later). */
    bool no_defaults;
    /* Out: the text after '=' of each argument given, by parameter index (NULL when absent),
     * pointing into argv.  Set before the value is parsed, so a failed parse leaves its text. */
    const char *text[OP_MAX_PARAMS];
} op_cmdline;

/* Parses the arguments of op d from argv[0..argc): `name=value` words, whose value is parsed by
 * the parameter's kind, and options (cl->option); then, unless cl->no_defaults, op_args_finish.
 * cl may be NULL (the zero-initialised behaviour).  Every word is checked before any value is
 * parsed, so usage errors (OP_USAGE) come first, in argv order:
 *   "unknown option '-x'" (no cl->option), "expected name=value, got 'w'",
 *   "unknown argument 'n'; did you mean 'm'? (tensorx OP --help lists them)",
 *   "argument 'n' given twice", then "missing required argument 'n' (see tensorx OP --help)".
 * Then the values, in argv order, those that read no file first (literals, attributes), then
 * those that do (.npy, -, @FILE), so a mistyped small argument is reported before a big input
 * is read; a value that does not parse fails with its own status, as "argument 'n': why".  On failure a
 * holds nothing (it is cleared); on success the caller clears it with op_args_clear. */
tx_status op_args_parse(op_args *a, const op_def *d, int argc, const char *const *argv, op_cmdline *cl);
/* Parses CLI text for one parameter into v (v->present = true).  On failure returns a status and
 * sets tx-style message via op_error(). */
tx_status op_parse_value(const op_param *p, const char *text, op_value *v);
/* Parses a tensor literal or source: "[[1,2],[3,4]]:float32", "1,0", "x.npy", "@file". */
tx_status op_parse_tensor(const char *text, tx_tensor **out);
/* Parses a tensor literal only: text that would name a source ("x.npy", "-", "@file") is read as
 * a literal (and fails as one), never opened.  For attributes given as text. */
tx_status op_parse_literal(const char *text, tx_tensor **out);
/* Fills every absent parameter with its default (parsing the default text); checks required
 * ones.  A missing required parameter is OP_USAGE, naming it. */
tx_status op_args_finish(op_args *a);
/* The name among names[0..n) nearest to `word` (a few edits, or the only name it begins), or
 * NULL when none is near: for "did you mean" hints. */
const char *op_nearest(const char *word, const char *const *names, size_t n);
/* "; did you mean 'NAME'?" when op_nearest finds a name (written to buf), else "". */
const char *op_did_you_mean(const char *word, const char *const *names, size_t n, char *buf, size_t cap);

/* The CLI's byte counts (--max-bytes, TENSORX_MAX_BYTES, Python's set_max_bytes): digits,
 * optionally K, M, G or T (powers of 1024; "Ki", "KiB", "KB" too).  false when text is not one or
 * it overflows size_t. */
bool op_parse_size(const char *text, size_t *out);

#endif
