/* SPDX-License-Identifier: Apache-2.0 */
/* op_spec.c -- the op spec (frontend/opreg.h) against the pages that list the ops, so none of
 * them drifts from it (the test repo.op_spec):
 *   - every row names its outputs and a docs page that exists and names the op;
 *   - tests/conformance/FORMAT.md's operation table is the one made from the spec (--write
 *     rewrites it);
 *   - README.md's op table puts every op of the spec in one row, whose docs page is the op's;
 *   - docs/index.md's table of family pages names each op of those pages once, in its page's row;
 *   - the man page's op list (docs/tensorx.1, "Operations") names every op, and only ops.
 * Each failure names the file, the op or row, and what differs.
 *
 *   op_spec ROOT            check (exit 1 on a difference)
 *   op_spec --write ROOT    rewrite FORMAT.md's table from the spec, then check */
#include "opreg.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *root;
static int failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("op_spec: ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    failures++;
}

/* The whole file root/rel, NUL-terminated (malloc'd), or NULL. */
static char *slurp(const char *rel) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    size_t got;
    while (s && (got = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) s = realloc(s, cap *= 2);
    }
    fclose(f);
    if (s) s[n] = '\0';
    return s;
}

/* Whether `word` occurs in text as a whole word (letters, digits and '_' around it differ). */
static bool has_word(const char *text, const char *word) {
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        bool before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after) return true;
    }
    return false;
}

static size_t count_ops(void) {
    size_t n = 0;
    while (op_at(n)) n++;
    return n;
}

/* ---- the rows themselves ---- */

static void check_rows(void) {
    for (size_t i = 0; op_at(i); i++) {
        const op_def *d = op_at(i);
        if (!d->outputs[0]) fail("frontend: %s names no output (op_def.outputs)", d->name);
        if (d->outputs_list && d->outputs[1]) fail("frontend: %s: a list of outputs has one name", d->name);
        if (!d->doc) {
            fail("frontend: %s names no docs page (op_def.doc)", d->name);
            continue;
        }
        char rel[256];
        snprintf(rel, sizeof rel, "docs/%s", d->doc);
        char *page = slurp(rel);
        if (!page) fail("frontend: %s: its docs page %s does not exist", d->name, rel);
        else if (!has_word(page, d->name)) fail("%s does not name %s, whose page it is", rel, d->name);
        free(page);
    }
}

/* ---- FORMAT.md's operation table: made from the spec ---- */

#define CELL_CAP 512
#define ROW_CAP (4 * CELL_CAP)

static void cat(char *buf, const char *s) { strncat(buf, s, CELL_CAP - strlen(buf) - 1); }

static void format_row(const op_def *d, char *row) {
    char in[CELL_CAP] = "", attrs[CELL_CAP] = "", outs[CELL_CAP] = "";
    for (size_t k = 0; k < OP_MAX_PARAMS && d->params[k].name; k++) {
        const op_param *p = &d->params[k];
        bool tensor = p->kind == P_TENSOR || p->kind == P_TENSOR_LIST;
        char *col = tensor ? in : attrs;
        if (col[0]) cat(col, ", ");
        cat(col, p->name);
        if (p->kind == P_TENSOR_LIST) cat(col, " (list)");
        if (p->def == PARAM_REQUIRED) continue;
        if (p->def[0] == '\0') {
            cat(col, " (optional)");
        } else {
            cat(col, p->kind == P_STRING ? "=\"" : "=");
            cat(col, p->def);
            if (p->kind == P_STRING) cat(col, "\"");
        }
    }
    for (size_t k = 0; k < OP_MAX_OUTPUTS && d->outputs[k]; k++) {
        if (k) cat(outs, ", ");
        cat(outs, d->outputs[k]);
    }
    if (d->outputs_list) cat(outs, " (list)");
    snprintf(row, ROW_CAP, "| %s | %s%s| %s%s| %s | [%.100s](../../docs/%.100s) |", d->name, in, in[0] ? " " : "",
             attrs, attrs[0] ? " " : "", outs,
             d->doc ? d->doc : "", d->doc ? d->doc : "");
}

static const char FORMAT_HEAD[] = "| op | inputs | attributes | outputs | docs |\n|---|---|---|---|---|\n";

/* The table made from the spec (malloc'd). */
static char *format_table(void) {
    size_t n = count_ops();
    char *t = malloc(sizeof FORMAT_HEAD + n * (ROW_CAP + 1));
    strcpy(t, FORMAT_HEAD);
    char row[ROW_CAP];
    for (size_t i = 0; i < n; i++) {
        format_row(op_at(i), row);
        strcat(t, row);
        strcat(t, "\n");
    }
    return t;
}

/* The first line of text beginning with `head` after the line `after`, or NULL. */
static char *line_after(char *text, const char *after, const char *head) {
    char *p = strstr(text, after);
    while (p && (p = strchr(p, '\n')) != NULL) {
        p++;
        if (strncmp(p, head, strlen(head)) == 0) return p;
    }
    return NULL;
}

/* The end of the table starting at p: the first line that does not begin with '|'. */
static char *table_end(char *p) {
    while (*p == '|') {
        char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    return p;
}

/* The op a table row is about: its first cell. */
static void first_cell(const char *line, char *out, size_t cap) {
    const char *s = line + (*line == '|'), *e;
    while (*s == ' ') s++;
    for (e = s; *e && *e != '|' && *e != '\n'; e++) {}
    while (e > s && e[-1] == ' ') e--;
    snprintf(out, cap, "%.*s", (int)(e - s), s);
}

static void check_format(bool write) {
    const char *rel = "tests/conformance/FORMAT.md";
    char *text = slurp(rel);
    char *start = text ? line_after(text, "## The operation table", "| op |") : NULL;
    if (!start) {
        fail("%s: no operation table (| op | ... after \"## The operation table\")", rel);
        free(text);
        return;
    }
    char *end = table_end(start), *want = format_table();
    if (write && (strlen(want) != (size_t)(end - start) || strncmp(start, want, strlen(want)) != 0)) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root, rel);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(text, 1, (size_t)(start - text), f);
            fputs(want, f);
            fputs(end, f);
            fclose(f);
            printf("op_spec: wrote %s's operation table\n", rel);
        }
        free(text);
        free(want);
        check_format(false);
        return;
    }
    /* Line by line: the first row that differs is named. */
    const char *h = start, *w = want;
    while (h < end || *w) {
        const char *hn = h < end ? strchr(h, '\n') : NULL, *wn = *w ? strchr(w, '\n') : NULL;
        size_t hl = h < end ? (size_t)(hn - h) : 0, wl = *w ? (size_t)(wn - w) : 0;
        if (hl != wl || strncmp(h, w, hl) != 0) {
            char op[128];
            first_cell(*w ? w : h, op, sizeof op);
            fail("%s: the operation table's row of %s differs from the op spec (op_spec --write ROOT "
                 "rewrites the table)\n  table: %.*s\n  spec:  %.*s", rel, op, (int)hl, h, (int)wl, w);
            break;
        }
        h = h < end ? hn + 1 : h;
        w = *w ? wn + 1 : w;
    }
    free(want);
    free(text);
}

/* ---- README's op table and the man page's list: every op once, and only ops ---- */

/* Finds op `name` (len bytes) in the spec; marks it seen (seen[i]++) and returns it, or NULL. */
static const op_def *spec_op(const char *name, size_t len, int *seen) {
    for (size_t i = 0; op_at(i); i++)
        if (strlen(op_at(i)->name) == len && strncmp(op_at(i)->name, name, len) == 0) {
            seen[i]++;
            return op_at(i);
        }
    return NULL;
}

/* Calls each(name, len, ctx) for each name of a list "a, b (note), c; d": parenthesised notes
 * are skipped, commas and semicolons separate. */
static void each_name(const char *s, const char *end, void (*each)(const char *, size_t, void *), void *ctx) {
    while (s < end) {
        while (s < end && (*s == ' ' || *s == ',' || *s == ';' || *s == '\n')) s++;
        if (s < end && *s == '(') {
            while (s < end && *s != ')') s++;
            s++;
            continue;
        }
        const char *e = s;
        while (e < end && (isalnum((unsigned char)*e) || *e == '_')) e++;
        if (e == s) {
            s++;
            continue;
        }
        each(s, (size_t)(e - s), ctx);
        s = e;
    }
}

typedef struct {
    const char *where, *doc;
    int *seen;
} list_ctx;

static void readme_name(const char *name, size_t len, void *ctx) {
    list_ctx *c = ctx;
    const op_def *d = spec_op(name, len, c->seen);
    if (!d) fail("README.md: the op table's row %s names '%.*s', which is not an op of the spec", c->where, (int)len, name);
    else if (d->doc && strcmp(d->doc, c->doc) != 0)
        fail("README.md: the op table's row %s gives %s docs/%s; its page is docs/%s (op_def.doc)", c->where, d->name,
             c->doc, d->doc);
}

static void check_seen(const char *what, const int *seen) {
    for (size_t i = 0; op_at(i); i++)
        if (seen[i] != 1) fail("%s names %s %d times (once, please)", what, op_at(i)->name, seen[i]);
}

static void check_readme(void) {
    char *text = slurp("README.md");
    char *p = text ? line_after(text, "## Operations", "| section |") : NULL;
    int *seen = calloc(count_ops() + 1, sizeof *seen);
    if (!p) fail("README.md: no op table (| section | ops | docs | status | after \"## Operations\")");
    char *end = p ? table_end(p) : NULL;
    for (int row = 0; p && p < end; row++) {
        char *nl = strchr(p, '\n');
        if (row >= 2) { /* the header and the rule first */
            /* | section | ops | docs/page.md | status | */
            char *c1 = strchr(p + 1, '|'), *c2 = c1 ? strchr(c1 + 1, '|') : NULL, *c3 = c2 ? strchr(c2 + 1, '|') : NULL;
            char section[128], doc[128];
            first_cell(p, section, sizeof section);
            first_cell(c2 ? c2 : p, doc, sizeof doc);
            char where[160];
            snprintf(where, sizeof where, "'%s'", section);
            const char *page = strncmp(doc, "docs/", 5) == 0 ? doc + 5 : doc;
            if (!c3) fail("README.md: the op table's row %s has not four cells", where);
            else {
                list_ctx c = {where, page, seen};
                each_name(c1 + 1, c2, readme_name, &c);
            }
        }
        p = nl + 1;
    }
    if (p) check_seen("README.md's op table", seen);
    free(seen);
    free(text);
}

static void index_name(const char *name, size_t len, void *ctx) {
    list_ctx *c = ctx;
    const op_def *d = spec_op(name, len, c->seen);
    if (!d)
        fail("docs/index.md: the row %s names '%.*s', which is not an op of the spec", c->where, (int)len, name);
    else if (d->doc && strcmp(d->doc, c->doc) != 0)
        fail("docs/index.md: the row %s names %s, whose page is %s (op_def.doc)", c->where, d->name, d->doc);
}

/* docs/index.md's "Operations, by family": | [page.md](page.md) | op, op, ... | -- each op named has
 * that page, and every op of a page the table lists is named once. */
static void check_index(void) {
    char *text = slurp("docs/index.md");
    char *p = text ? line_after(text, "## Operations, by family", "| page |") : NULL;
    size_t n = count_ops();
    int *seen = calloc(n + 1, sizeof *seen);
    bool *listed = calloc(n + 1, sizeof *listed); /* the op's page has a row */
    if (!p) fail("docs/index.md: no table of the family pages (| page | ops | after \"## Operations, by family\")");
    char *end = p ? table_end(p) : NULL;
    for (int row = 0; p && p < end; row++) {
        char *nl = strchr(p, '\n');
        char *open = strchr(p, '['), *close = open ? strchr(open, ']') : NULL;
        char *c1 = strchr(p + 1, '|'), *c2 = c1 ? strchr(c1 + 1, '|') : NULL;
        if (row >= 2 && open && close && c1 && c2 && close < c1) {
            char page[128], where[160];
            snprintf(page, sizeof page, "%.*s", (int)(close - open - 1), open + 1);
            snprintf(where, sizeof where, "'%s'", page);
            for (size_t i = 0; i < n; i++) listed[i] |= op_at(i)->doc && strcmp(op_at(i)->doc, page) == 0;
            list_ctx c = {where, page, seen};
            each_name(c1 + 1, c2, index_name, &c);
        }
        p = nl + 1;
    }
    for (size_t i = 0; p && i < n; i++)
        if (listed[i] && seen[i] != 1)
            fail("docs/index.md's table of family pages names %s %d times (once, in its page's row)", op_at(i)->name,
                 seen[i]);
    free(listed);
    free(seen);
    free(text);
}

static void man_name(const char *name, size_t len, void *ctx) {
    list_ctx *c = ctx;
    if (!spec_op(name, len, c->seen))
        fail("docs/tensorx.1: the op list names '%.*s', which is not an op of the spec", (int)len, name);
}

/* The list: lines "Group: op, op (note); op." from ".SS Operations" to the next ".SH". */
static void check_man(void) {
    char *text = slurp("docs/tensorx.1");
    char *p = text ? strstr(text, "\n.SS Operations\n") : NULL;
    int *seen = calloc(count_ops() + 1, sizeof *seen);
    if (!p) fail("docs/tensorx.1: no op list (.SS Operations)");
    char *end = p ? strstr(p + 1, "\n.SH") : NULL;
    if (p && !end) end = p + strlen(p);
    if (p) p = strchr(p + 1, '\n') + 1;
    /* Each group: after its ':' up to the '.' that ends it. */
    while (p && p < end) {
        char *colon = memchr(p, ':', (size_t)(end - p));
        if (!colon) break;
        char *stop = colon + 1;
        while (stop < end && !(*stop == '.' && (stop[1] == '\n' || stop[1] == ' '))) stop++;
        list_ctx c = {"", "", seen};
        each_name(colon + 1, stop, man_name, &c);
        p = stop + 1;
    }
    if (p) check_seen("docs/tensorx.1's op list", seen);
    free(seen);
    free(text);
}

/* ---- docs/prepared.md's table: one row per op with a prepared form, its data inputs ---- */

static void check_prepared(void) {
    static const char head[] = "| op | data inputs |";
    char *page = slurp("docs/prepared.md");
    if (!page) {
        fail("docs/prepared.md does not exist");
        return;
    }
    char *p = line_after(page, "## Ops", head);
    if (!p) {
        fail("docs/prepared.md: no table '%s' under '## Ops'", head);
        free(page);
        return;
    }
    char *end = table_end(p);
    *end = '\0';
    int seen[512] = {0};
    for (char *line = strchr(p, '\n'); line && *++line == '|'; line = strchr(line, '\n')) {
        char name[128], inputs[256] = "";
        first_cell(line, name, sizeof name);
        if (strspn(name, "-") == strlen(name)) continue; /* the separator row */
        const char *second = strchr(line + 1, '|');
        if (second) first_cell(second, inputs, sizeof inputs);
        const op_def *d = spec_op(name, strlen(name), seen);
        if (!d) {
            fail("docs/prepared.md lists %s, which is not an op", name);
            continue;
        }
        char want[256] = "";
        for (size_t k = 0; k < OP_MAX_OUTPUTS && d->data_inputs[k]; k++)
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", k ? ", " : "",
                     d->data_inputs[k]);
        if (!want[0]) fail("docs/prepared.md lists %s, which has no data_inputs in the spec", name);
        else if (strcmp(want, inputs) != 0)
            fail("docs/prepared.md: %s's data inputs are '%s'; the spec says '%s'", name, inputs, want);
    }
    for (size_t i = 0; op_at(i); i++) {
        const op_def *d = op_at(i);
        for (size_t k = 0; k < OP_MAX_OUTPUTS && d->data_inputs[k]; k++) {
            int at = op_param_index(d, d->data_inputs[k], strlen(d->data_inputs[k]));
            if (at < 0 || (d->params[at].kind != P_TENSOR && d->params[at].kind != P_TENSOR_LIST))
                fail("frontend: %s: data input %s is not a tensor parameter", d->name, d->data_inputs[k]);
        }
        if (d->data_inputs[0] && i < 512 && !seen[i])
            fail("docs/prepared.md's table lacks %s, which has a prepared form", d->name);
    }
    free(page);
}

int main(int argc, char **argv) {
    bool write = argc == 3 && strcmp(argv[1], "--write") == 0;
    if (argc != 2 && !write) {
        fprintf(stderr, "usage: op_spec [--write] ROOT\n");
        return 2;
    }
    root = argv[argc - 1];
    check_rows();
    check_format(write);
    check_readme();
    check_index();
    check_man();
    check_prepared();
    if (failures) return 1;
    printf("op_spec: %zu ops; FORMAT.md's table, README's op table, docs/index.md's pages, the man page's list "
           "and docs/prepared.md's table agree with the spec\n",
           count_ops());
    return 0;
}
