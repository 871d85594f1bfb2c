/* SPDX-License-Identifier: Apache-2.0 */
/* args.c -- parsing of CLI argument text: an op's command line (`name=value` words matched to
 * its parameters, with "did you mean" hints), tensor literals ("[[1,2],[3,4]]:float32", "1,0",
 * "[\"ab\",\"c\"]"), tensor sources (FILE.npy, @FILE for raw bytes, "-" for .npy on stdin, and the
 * other files of formats.h's table: FILE.safetensors:NAME, FILE.idx), and
 * attribute values by parameter kind.  Every tool that reads `name=value` words comes here: the
 * CLI, its streaming path, the fuzz seed maker and the tests that run the op examples. */
#include "args.h"

#include "fault.h"
#include "formats.h"
#include "opreg.h"
#include "values.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* @FILE from this size up is mapped instead of read. */
#define MAP_RAW_MIN_BYTES ((off_t)1 << 20)

typedef struct {
    char kind; /* 'n' number-ish word, 's' quoted string */
    char *text;
    size_t len;
} leaf;

typedef struct {
    const char *p;
    leaf *leaves;
    size_t n, cap;
    size_t rank;
    int64_t dims[TX_MAX_RANK];
    bool dim_seen[TX_MAX_RANK];
    bool bad_shape;
    long leaf_depth; /* depth of the first leaf; every leaf must sit at the same depth */
} lit;

static void leaves_free(lit *l) {
    for (size_t i = 0; i < l->n; i++) free(l->leaves[i].text);
    free(l->leaves);
}

static tx_status push(lit *l, char kind, char *text, size_t len) {
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 16;
        leaf *nl = realloc(l->leaves, nc * sizeof *nl);
        if (!nl) {
            free(text);
            return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory parsing a literal");
        }
        l->leaves = nl;
        l->cap = nc;
    }
    l->leaves[l->n++] = (leaf){kind, text, len};
    return TX_OK;
}

static void ws(lit *l) {
    while (*l->p == ' ' || *l->p == '\t' || *l->p == '\n') l->p++;
}

static int hexv(char c) {
    return isdigit((unsigned char)c) ? c - '0' : isxdigit((unsigned char)c) ? (tolower(c) - 'a' + 10) : -1;
}

static tx_status scalar(lit *l) {
    ws(l);
    if (*l->p == '"' || *l->p == '\'') {
        char q = *l->p++;
        size_t cap = strlen(l->p) + 1, n = 0;
        char *s = malloc(cap);
        if (!s) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory parsing a literal");
        while (*l->p && *l->p != q) {
            char c = *l->p++;
            if (c == '\\') {
                /* A backslash ending the text must not step over the terminating NUL. */
                if (*l->p == '\0') break;
                char e = *l->p++;
                switch (e) {
                case 'n': c = '\n'; break;
                case 't': c = '\t'; break;
                case 'r': c = '\r'; break;
                case '0': c = '\0'; break;
                case '\\': case '"': case '\'': c = e; break;
                case 'x': {
                    int a = hexv(l->p[0]), b = a >= 0 ? hexv(l->p[1]) : -1;
                    if (a < 0 || b < 0) { free(s); return op_fail(TX_INVALID_ARGUMENT, "bad \\x escape in a string literal"); }
                    c = (char)(a * 16 + b);
                    l->p += 2;
                    break;
                }
                default: free(s); return op_fail(TX_INVALID_ARGUMENT, "unknown escape '\\%c' in a string literal", e ? e : '0');
                }
            }
            s[n++] = c;
        }
        if (*l->p != q) { free(s); return op_fail(TX_INVALID_ARGUMENT, "unterminated string literal"); }
        l->p++;
        return push(l, 's', s, n);
    }
    const char *start = l->p;
    while (*l->p && (isalnum((unsigned char)*l->p) || strchr("+-._", *l->p))) l->p++;
    if (l->p == start) return op_fail(TX_INVALID_ARGUMENT, "expected a value at '%.20s'", start);
    size_t n = (size_t)(l->p - start);
    char *s = malloc(n + 1);
    if (!s) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory parsing a literal");
    memcpy(s, start, n);
    s[n] = '\0';
    return push(l, 'n', s, n);
}

static void note_dim(lit *l, size_t depth, int64_t count) {
    if (depth >= TX_MAX_RANK) { l->bad_shape = true; return; }
    if (!l->dim_seen[depth]) {
        l->dim_seen[depth] = true;
        l->dims[depth] = count;
        if (depth + 1 > l->rank) l->rank = depth + 1;
    } else if (l->dims[depth] != count) l->bad_shape = true;
}

static tx_status nested(lit *l, size_t depth) {
    ws(l);
    if (*l->p != '[') {
        if (l->leaf_depth < 0) l->leaf_depth = (long)depth;
        else if (l->leaf_depth != (long)depth) l->bad_shape = true;
        return scalar(l);
    }
    if (depth >= TX_MAX_RANK) return op_fail(TX_INVALID_ARGUMENT, "literal nests deeper than %d", TX_MAX_RANK);
    l->p++;
    int64_t count = 0;
    ws(l);
    if (*l->p == ']') {
        l->p++;
        note_dim(l, depth, 0);
        return TX_OK;
    }
    for (;;) {
        tx_status s = nested(l, depth + 1);
        if (s != TX_OK) return s;
        count++;
        ws(l);
        if (*l->p == ',') { l->p++; continue; }
        if (*l->p == ']') { l->p++; break; }
        return op_fail(TX_INVALID_ARGUMENT, "expected ',' or ']' at '%.20s'", l->p);
    }
    note_dim(l, depth, count);
    return TX_OK;
}

static bool looks_float(const char *s) {
    if (*s == '+' || *s == '-') s++;
    return strpbrk(s, ".eE") || !strcasecmp(s, "nan") || !strcasecmp(s, "inf") ||
           !strcasecmp(s, "infinity");
}

static tx_status literal(const char *text, tx_dtype empty_dtype, tx_tensor **out) {
    lit l = {0};
    l.p = text;
    l.leaf_depth = -1;
    tx_status st;
    ws(&l);
    bool bracketed = *l.p == '[';
    if (bracketed) {
        st = nested(&l, 0);
    } else {
        /* "5" is a scalar; "1,0" a vector. */
        st = scalar(&l);
        ws(&l);
        if (st == TX_OK && *l.p == ',') {
            while (st == TX_OK && *l.p == ',') {
                l.p++;
                st = scalar(&l);
                ws(&l);
            }
            l.rank = 1;
            l.dims[0] = (int64_t)l.n;
        }
    }
    tx_dtype dtype = TX_INVALID_DTYPE;
    if (st == TX_OK) {
        ws(&l);
        if (*l.p == ':') {
            dtype = tx_dtype_from_name(l.p + 1);
            if (dtype == TX_INVALID_DTYPE) st = op_fail(TX_INVALID_ARGUMENT, "unknown dtype '%s' in a literal", l.p + 1);
        } else if (*l.p) {
            st = op_fail(TX_INVALID_ARGUMENT, "unexpected '%.20s' after a literal", l.p);
        }
    }
    if (st == TX_OK && bracketed && l.leaf_depth >= 0 && (size_t)l.leaf_depth != l.rank) l.bad_shape = true;
    if (st == TX_OK && l.bad_shape) st = op_fail(TX_INVALID_ARGUMENT, "literal '%.40s' is not rectangular", text);
    if (st != TX_OK) {
        leaves_free(&l);
        return st;
    }
    bool strings = l.n > 0 && l.leaves[0].kind == 's';
    for (size_t i = 0; i < l.n; i++)
        if ((l.leaves[i].kind == 's') != strings) {
            leaves_free(&l);
            return op_fail(TX_INVALID_ARGUMENT, "literal mixes strings and numbers");
        }
    if (dtype == TX_INVALID_DTYPE) {
        if (strings) dtype = TX_STRING;
        else if (l.n == 0) dtype = empty_dtype ? empty_dtype : TX_FLOAT32; /* TF's default for [] */
        else {
            bool fl = false, bo = true, big = false;
            for (size_t i = 0; i < l.n; i++) {
                const char *s = l.leaves[i].text;
                bool isb = !strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "True") || !strcmp(s, "False");
                bo &= isb;
                if (!isb && looks_float(s)) fl = true;
                else if (!isb) {
                    long long v = strtoll(s, NULL, 10);
                    if (v > INT32_MAX || v < INT32_MIN) big = true;
                }
            }
            dtype = bo ? TX_BOOL : fl ? TX_FLOAT32 : big ? TX_INT64 : TX_INT32;
        }
    }
    if (l.n > 0 && strings != (dtype == TX_STRING)) { /* an empty literal fits every dtype, string too */
        leaves_free(&l);
        return op_fail(TX_INVALID_ARGUMENT, "literal values do not fit dtype %s", tx_dtype_name(dtype));
    }
    tx_tensor *t = NULL;
    if (dtype == TX_STRING) {
        const char **ptrs = calloc(l.n + 1, sizeof *ptrs);
        size_t *lens = calloc(l.n + 1, sizeof *lens);
        for (size_t i = 0; ptrs && lens && i < l.n; i++) {
            ptrs[i] = l.leaves[i].text;
            lens[i] = l.leaves[i].len;
        }
        st = ptrs && lens ? tx_tensor_new_strings(l.rank, l.dims, ptrs, lens, &t)
                          : op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
        free(ptrs);
        free(lens);
    } else {
        st = tx_tensor_new(dtype, l.rank, l.dims, &t);
        for (size_t i = 0; st == TX_OK && i < l.n; i++) st = tv_set_number(t, (int64_t)i, l.leaves[i].text, NULL);
    }
    leaves_free(&l);
    if (st != TX_OK) {
        tx_tensor_free(t);
        return st;
    }
    *out = t;
    return TX_OK;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

static tx_status parse_tensor(const char *text, tx_dtype empty_dtype, tx_tensor **out) {
    *out = NULL;
    /* @FILE.gz / @FILE.zz: the decompressed bytes (the name decides: raw bytes may start with
     * any magic; the library checks the magic) */
    struct stat sb;
    if (text[0] == '@' && (ends_with(text, ".gz") || ends_with(text, ".zz"))) {
        if (stat(text + 1, &sb) != 0) return op_fail_io("read", text + 1, errno);
        return tx_file_read_decompressed(text + 1, out);
    }
    if (text[0] == '@' && strcmp(text, "@-") != 0 && stat(text + 1, &sb) == 0 && S_ISREG(sb.st_mode) &&
        sb.st_size >= MAP_RAW_MIN_BYTES) {
        /* A big file is mapped, not read: its bytes cost no memory until an op reads them (a
         * mapped window is not counted against the tensor cap). */
        size_t cap = tx_max_tensor_bytes();
        tx_set_max_tensor_bytes(0);
        tx_status st = tx_file_map_string(text + 1, 0, (uint64_t)sb.st_size, out);
        tx_set_max_tensor_bytes(cap);
        if (st == TX_OK) {
            const tx_string *s = tx_tensor_data_const(*out);
            fault_watch(s->data, (size_t)s->size, text + 1, false);
            return TX_OK;
        }
        tx_tensor_free(*out);
        *out = NULL; /* not mapped: read below, which reports any error */
    }
    if (text[0] == '@') {
        char *data;
        size_t size;
        tx_status st = tv_read_file(text + 1, &data, &size);
        if (st != TX_OK) return st;
        const char *ptr = data;
        st = tx_tensor_new_strings(0, NULL, &ptr, &size, out);
        free(data);
        return st;
    }
    if (strcmp(text, "-") == 0 || ends_with(text, ".npy") || ends_with(text, ".npy.gz") ||
        ends_with(text, ".npy.zz"))
        return tv_load_npy(text, out); /* gzip'd / zlib'd by magic, whatever the name */
    /* FILE.safetensors:NAME, FILE.idx, ...: a mapped file that shrinks under us raises SIGBUS,
     * which the CLI's handler names */
    int slot = fault_watch(NULL, 0, text, false);
    tx_status st;
    bool is_file = ff_load_source(text, out, &st);
    fault_unwatch(slot);
    if (is_file && st == TX_OK && tx_tensor_dtype(*out) != TX_STRING)
        fault_watch(tx_tensor_data_const(*out), tx_tensor_nbytes(*out), text, false);
    if (is_file) return st;
    return literal(text, empty_dtype, out);
}

tx_status op_parse_tensor(const char *text, tx_tensor **out) {
    return parse_tensor(text, TX_INVALID_DTYPE, out);
}

tx_status op_parse_literal(const char *text, tx_tensor **out) {
    *out = NULL;
    return literal(text, TX_INVALID_DTYPE, out);
}

/* Splits a list argument at commas outside brackets and quotes. */
static tx_status parse_list(const char *text, op_value *v) {
    size_t cap = 4;
    v->list = calloc(cap, sizeof *v->list);
    if (!v->list) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    const char *p = text;
    while (*p) {
        const char *s = p;
        int depth = 0;
        char q = 0;
        for (; *p; p++) {
            if (q) {
                if (*p == '\\' && p[1]) p++;
                else if (*p == q) q = 0;
            } else if (*p == '"' || *p == '\'') q = *p;
            else if (*p == '[') depth++;
            else if (*p == ']') depth--;
            else if (*p == ',' && depth == 0) break;
        }
        size_t n = (size_t)(p - s);
        char *item = malloc(n + 1);
        if (!item) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
        memcpy(item, s, n);
        item[n] = '\0';
        if (v->nlist == cap) {
            tx_tensor **nl = realloc(v->list, 2 * cap * sizeof *nl);
            if (!nl) { free(item); return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory"); }
            v->list = nl;
            cap *= 2;
        }
        tx_status st = op_parse_tensor(item, &v->list[v->nlist]);
        free(item);
        if (st != TX_OK) return st;
        v->nlist++;
        if (*p == ',') p++;
    }
    return TX_OK;
}

static tx_status parse_ints(const char *text, op_value *v) {
    const char *p = text;
    while (*p == ' ') p++;
    bool br = *p == '[';
    if (br) p++;
    size_t cap = 8;
    v->ints = calloc(cap, sizeof *v->ints);
    if (!v->ints) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    for (;;) {
        while (*p == ' ') p++;
        if (*p == ']' || *p == '\0') break;
        char *end;
        long long x = strtoll(p, &end, 10);
        if (end == p) return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a list of integers", text);
        if (v->nints == cap) {
            int64_t *ni = realloc(v->ints, 2 * cap * sizeof *ni);
            if (!ni) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
            v->ints = ni;
            cap *= 2;
        }
        v->ints[v->nints++] = x;
        p = end;
        while (*p == ' ') p++;
        if (*p == ',') p++;
        else break;
    }
    if (br && *p++ != ']') return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a list of integers", text);
    while (*p == ' ') p++;
    if (*p) return op_fail(TX_INVALID_ARGUMENT, "'%s' is not a list of integers", text);
    return TX_OK;
}

tx_status op_parse_value(const op_param *p, const char *text, op_value *v) {
    op_value_clear(v);
    tx_status st = TX_OK;
    char *end;
    switch (p->kind) {
    case P_TENSOR: st = parse_tensor(text, p->empty_dtype, &v->tensor); break;
    case P_TENSOR_LIST: st = parse_list(text, v); break;
    case P_INT:
        v->i = strtoll(text, &end, 10);
        if (end == text || *end) st = op_fail(TX_INVALID_ARGUMENT, "%s: '%s' is not an integer", p->name, text);
        break;
    case P_BOOL:
        if (!strcmp(text, "true") || !strcmp(text, "True") || !strcmp(text, "1")) v->b = true;
        else if (!strcmp(text, "false") || !strcmp(text, "False") || !strcmp(text, "0")) v->b = false;
        else st = op_fail(TX_INVALID_ARGUMENT, "%s: '%s' is not true or false", p->name, text);
        break;
    case P_STRING:
        v->s = strdup(text);
        if (!v->s) st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
        break;
    case P_DTYPE:
        v->dtype = tx_dtype_from_name(text);
        if (v->dtype == TX_INVALID_DTYPE) st = op_fail(TX_INVALID_ARGUMENT, "%s: unknown dtype '%s'", p->name, text);
        break;
    case P_INT_LIST: st = parse_ints(text, v); break;
    }
    if (st != TX_OK) {
        op_value_clear(v);
        return st;
    }
    v->present = true;
    return TX_OK;
}

/* ---- command lines ---- */

/* Edits between a and b, a swap of neighbours counting as one (optimal string alignment), case
 * ignored; names longer than 63 bytes are never near. */
static size_t edit_distance(const char *a, const char *b) {
    size_t n = strlen(a), m = strlen(b), d[64][64];
    if (n > 63 || m > 63) return SIZE_MAX;
    for (size_t i = 0; i <= n; i++) d[i][0] = i;
    for (size_t j = 0; j <= m; j++) d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int ai = tolower((unsigned char)a[i - 1]), bj = tolower((unsigned char)b[j - 1]);
            size_t v = d[i - 1][j - 1] + (ai != bj);
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && ai == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == bj && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

/* The fewest edits, at most 3 and at most half the shorter name (reshap -> reshape, stack ->
 * pack), else the only name `word` begins (3 letters or more: out -> out_type). */
const char *op_nearest(const char *word, const char *const *names, size_t n) {
    const char *best = NULL, *prefix = NULL;
    size_t best_d = SIZE_MAX, wl = strlen(word), nprefix = 0;
    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(word, names[i]), nl = strlen(names[i]);
        if (d <= 3 && 2 * d <= (wl < nl ? wl : nl) && d < best_d) best = names[i], best_d = d;
        if (wl >= 3 && wl < nl && strncasecmp(names[i], word, wl) == 0) prefix = names[i], nprefix++;
    }
    return best ? best : nprefix == 1 ? prefix : NULL;
}

const char *op_did_you_mean(const char *word, const char *const *names, size_t n, char *buf, size_t cap) {
    const char *s = op_nearest(word, names, n);
    if (!s) return "";
    snprintf(buf, cap, "; did you mean '%s'?", s);
    return buf;
}

/* An argument name op d does not have: usage, with the nearest name. */
static tx_status unknown_argument(const op_def *d, const char *name, size_t len) {
    const char *names[OP_MAX_PARAMS];
    size_t n = 0;
    while (n < OP_MAX_PARAMS && d->params[n].name) names[n] = d->params[n].name, n++;
    char word[128], buf[128];
    snprintf(word, sizeof word, "%.*s", (int)len, name);
    return op_fail(OP_USAGE, "unknown argument '%s'%s (tensorx %s --help lists them)", word,
                   op_did_you_mean(word, names, n, buf, sizeof buf), d->name);
}

/* One `name=value` word, checked (a known name, given once) and its text recorded in cl->text; its
 * value is parsed later (parse_value), once every word has been checked. */
static tx_status check_word(op_args *a, const char *word, op_cmdline *cl, bool *given, size_t *order,
                            size_t *n) {
    const op_def *d = a->def;
    const char *eq = strchr(word, '=');
    if (!eq || eq == word) return op_fail(OP_USAGE, "expected name=value, got '%s'", word);
    int k = op_param_index(d, word, (size_t)(eq - word));
    if (k < 0) return unknown_argument(d, word, (size_t)(eq - word));
    const op_param *p = &d->params[k];
    if (given[k]) return op_fail(OP_USAGE, "argument '%s' given twice", p->name);
    given[k] = true;
    order[(*n)++] = (size_t)k;
    cl->text[k] = eq + 1;
    return TX_OK;
}

static tx_status parse_value(op_args *a, size_t k, op_cmdline *cl) {
    const op_param *p = &a->def->params[k];
    if (cl->unparsed && !strcmp(p->name, cl->unparsed)) {
        a->v[k].present = true; /* its text is the caller's to use */
        return TX_OK;
    }
    tx_status st = op_parse_value(p, cl->text[k], &a->v[k]);
    if (st != TX_OK) {
        char why[600];
        snprintf(why, sizeof why, "%s", op_error());
        st = op_fail(st, "argument '%s': %s", p->name, why);
    }
    return st;
}

/* A value that reads a file or stdin (a .npy, -, @FILE, a list naming one): parsed after the
 * literals, so that a mistyped small argument is reported before a big input is read. */
static bool reads_input(const op_param *p, const char *text) {
    if (p->kind != P_TENSOR && p->kind != P_TENSOR_LIST) return false;
    return text[0] == '@' || ff_mentions_file(text) || !strcmp(text, "-") || strstr(text, ",-") ||
           !strncmp(text, "-,", 2);
}

tx_status op_args_parse(op_args *a, const op_def *d, int argc, const char *const *argv, op_cmdline *cl) {
    op_cmdline plain = {0};
    if (!cl) cl = &plain;
    memset(cl->text, 0, sizeof cl->text);
    memset(a, 0, sizeof *a);
    a->def = d;
    tx_status st = TX_OK;
    bool given[OP_MAX_PARAMS] = {false};
    size_t order[OP_MAX_PARAMS], n = 0; /* the parameters given, in argv order */
    /* Usage first, in argv order: options, names, repeats, then missing arguments -- before any
     * value is parsed or any file read. */
    for (int i = 0; i < argc && st == TX_OK; i++) {
        if (argv[i][0] != '-') st = check_word(a, argv[i], cl, given, order, &n);
        else if (cl->option) st = cl->option(cl->ctx, argc, argv, &i);
        else st = op_fail(OP_USAGE, "unknown option '%s'", argv[i]);
    }
    for (size_t k = 0; st == TX_OK && !cl->no_defaults && k < OP_MAX_PARAMS && d->params[k].name; k++)
        if (!given[k] && d->params[k].def == PARAM_REQUIRED)
            st = op_fail(OP_USAGE, "missing required argument '%s' (see tensorx %s --help)",
                         d->params[k].name, d->name);
    /* Then the values: literals and attributes, then those that read files or stdin, each group
     * in argv order. */
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = 0; st == TX_OK && j < n; j++)
            if (reads_input(&d->params[order[j]], cl->text[order[j]]) == (pass == 1))
                st = parse_value(a, order[j], cl);
    if (st == TX_OK && !cl->no_defaults) st = op_args_finish(a);
    if (st != TX_OK) op_args_clear(a);
    return st;
}

tx_status op_args_finish(op_args *a) {
    for (size_t i = 0; i < OP_MAX_PARAMS && a->def->params[i].name; i++) {
        const op_param *p = &a->def->params[i];
        if (a->v[i].present) continue;
        if (p->def == PARAM_REQUIRED)
            return op_fail(OP_USAGE, "missing required argument '%s' (see tensorx %s --help)", p->name, a->def->name);
        if (p->def[0] == '\0') continue; /* PARAM_OPTIONAL: stays absent */
        tx_status st = op_parse_value(p, p->def, &a->v[i]);
        if (st != TX_OK) return st;
    }
    return TX_OK;
}

/* A byte count: digits, optionally K, M, G or T (powers of 1024; "Ki", "KiB", "KB" too). */
bool op_parse_size(const char *s, size_t *out) {
    if (!isdigit((unsigned char)*s)) return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || v > SIZE_MAX) return false;
    static const char units[] = "KMGT";
    const char *u = *end ? strchr(units, toupper((unsigned char)*end)) : NULL;
    unsigned shift = 0;
    if (u) {
        shift = 10 * (unsigned)(u - units + 1);
        end++;
        if (*end == 'i') end++;
    }
    if (*end == 'B') end++;
    if (*end || (shift && v > (SIZE_MAX >> shift))) return false;
    *out = (size_t)v << shift;
    return true;
}
