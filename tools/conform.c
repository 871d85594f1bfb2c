/* SPDX-License-Identifier: Apache-2.0 */
/* conform.c -- `tensorx conform FILE.json|DIR ...`: runs conformance suites in the format of
 * tests/conformance/FORMAT.md through the same op table as the CLI, compares bit for bit (any NaN
 * equals any NaN), and reports failing cases, skipped (unimplemented) ops and the cases
 * skipped because they hold for hosts of the other byte order. */
#include "conform.h"

#include "args.h"
#include "console.h"
#include "json.h"
#include "opreg.h"
#include "print.h"
#include "values.h"

#include <dirent.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    long passed, failed, skipped, skipped_order; /* skipped_order: cases for the other byte order */
    char skipped_ops[64][48];
    size_t nskipped_ops;
} tally;

static int hexv(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static bool unhex(const char *s, size_t n, char *out) {
    if (n % 2) return false;
    for (size_t i = 0; i < n / 2; i++) {
        int a = hexv(s[2 * i]), b = hexv(s[2 * i + 1]);
        if (a < 0 || b < 0) return false;
        out[i] = (char)(a * 16 + b);
    }
    return true;
}

/* The case format's hex holds each element little-endian (complex: each part); tensor data are
 * host order, so on a big-endian host every unit is reversed after unhex. */
static void le_to_host(tx_tensor *t) {
    if (TX_HOST_LITTLE_ENDIAN) return;
    tx_dtype dt = tx_tensor_dtype(t);
    size_t unit = tx_dtype_size(dt) / (dt == TX_COMPLEX64 || dt == TX_COMPLEX128 ? 2 : 1);
    unsigned char *p = tx_tensor_data(t);
    size_t n = tx_tensor_nbytes(t);
    for (size_t off = 0; unit > 1 && off < n; off += unit)
        for (size_t i = off, j = off + unit - 1; i < j; i++, j--) {
            unsigned char c = p[i];
            p[i] = p[j];
            p[j] = c;
        }
}

/* Text of a JSON scalar for tv_set_number. */
static const char *num_text(const json *j) {
    if (!j) return NULL;
    if (j->type == J_NUMBER || j->type == J_STRING) return j->text;
    if (j->type == J_BOOL) return j->b ? "true" : "false";
    return NULL;
}

static tx_status tensor_from_json(const json *spec, tx_tensor **out) {
    *out = NULL;
    const json *jd = json_get(spec, "dtype"), *js = json_get(spec, "shape");
    if (!jd || jd->type != J_STRING || !js || js->type != J_ARRAY)
        return op_fail(TX_INVALID_ARGUMENT, "tensor needs dtype and shape");
    tx_dtype dt = tx_dtype_from_name(jd->text);
    if (dt == TX_INVALID_DTYPE) return op_fail(TX_INVALID_ARGUMENT, "unknown dtype '%s'", jd->text);
    if (js->n > TX_MAX_RANK) return op_fail(TX_INVALID_ARGUMENT, "rank too large");
    int64_t dims[TX_MAX_RANK];
    for (size_t i = 0; i < js->n; i++) {
        if (js->items[i]->type != J_NUMBER) return op_fail(TX_INVALID_ARGUMENT, "bad shape");
        dims[i] = strtoll(js->items[i]->text, NULL, 10);
    }
    const json *hex = json_get(spec, "hex"), *vals = json_get(spec, "values"), *shex = json_get(spec, "strings_hex");
    tx_status st;
    if (dt == TX_STRING) {
        const json *src = shex ? shex : vals;
        if (!src || src->type != J_ARRAY) return op_fail(TX_INVALID_ARGUMENT, "string tensor needs values");
        const char **ptrs = calloc(src->n + 1, sizeof *ptrs);
        size_t *lens = calloc(src->n + 1, sizeof *lens);
        char **bufs = calloc(src->n + 1, sizeof *bufs);
        st = TX_OK;
        for (size_t i = 0; i < src->n && st == TX_OK; i++) {
            const json *e = src->items[i];
            if (e->type != J_STRING) { st = op_fail(TX_INVALID_ARGUMENT, "string values must be strings"); break; }
            if (shex) {
                bufs[i] = malloc(e->len / 2 + 1);
                if (!unhex(e->text, e->len, bufs[i])) st = op_fail(TX_INVALID_ARGUMENT, "bad strings_hex");
                ptrs[i] = bufs[i];
                lens[i] = e->len / 2;
            } else {
                ptrs[i] = e->text;
                lens[i] = e->len;
            }
        }
        if (st == TX_OK) {
            /* The element count as tensorx counts it: 0 with a 0 dim, whatever the others (a
             * negative dim is left to tx_tensor_new_strings to refuse). */
            int64_t n = 1;
            bool zero = false, neg = false, ovf = false;
            for (size_t i = 0; i < js->n; i++) {
                if (dims[i] < 0) neg = true;
                else if (dims[i] == 0) zero = true;
                else if (!ovf && __builtin_mul_overflow(n, dims[i], &n)) ovf = true;
            }
            if (zero) n = 0, ovf = false;
            if (!neg && (ovf || (uint64_t)n != src->n))
                st = op_fail(TX_INVALID_ARGUMENT, "shape and value count differ");
        }
        if (st == TX_OK) st = tx_tensor_new_strings(js->n, dims, ptrs, lens, out);
        for (size_t i = 0; i < src->n; i++) free(bufs[i]);
        free(bufs);
        free(ptrs);
        free(lens);
        return st;
    }
    tx_tensor *t;
    st = tx_tensor_new(dt, js->n, dims, &t);
    if (st != TX_OK) return st;
    if (hex && hex->type == J_STRING) {
        if (hex->len != 2 * tx_tensor_nbytes(t) || !unhex(hex->text, hex->len, tx_tensor_data(t)))
            st = op_fail(TX_INVALID_ARGUMENT, "hex has %zu digits, the tensor needs %zu", hex->len, 2 * tx_tensor_nbytes(t));
        else le_to_host(t);
    } else if (vals && vals->type == J_ARRAY) {
        if ((int64_t)vals->n != tx_tensor_numel(t)) st = op_fail(TX_INVALID_ARGUMENT, "shape and value count differ");
        for (size_t i = 0; st == TX_OK && i < vals->n; i++) {
            const json *e = vals->items[i];
            if (e->type == J_ARRAY && e->n == 2) st = tv_set_number(t, (int64_t)i, num_text(e->items[0]), num_text(e->items[1]));
            else st = tv_set_number(t, (int64_t)i, num_text(e), NULL);
        }
    } else {
        st = op_fail(TX_INVALID_ARGUMENT, "tensor needs hex or values");
    }
    if (st != TX_OK) {
        tx_tensor_free(t);
        return st;
    }
    *out = t;
    return TX_OK;
}

/* Builds CLI text for an attribute value so it goes through the same parser as the CLI. */
static char *attr_text(const op_param *p, const json *v) {
    size_t cap = 64;
    if (v->type == J_STRING) cap += 4 * v->len;
    if (v->type == J_ARRAY) cap += 24 * v->n;
    char *s = calloc(cap, 1);
    if (!s) return NULL;
    switch (v->type) {
    case J_NUMBER: snprintf(s, cap, "%s", v->text); break;
    case J_BOOL: snprintf(s, cap, "%s", v->b ? "true" : "false"); break;
    case J_STRING:
        if (p->kind == P_TENSOR) {
            size_t n = 0;
            s[n++] = '"';
            for (size_t i = 0; i < v->len; i++) n += (size_t)snprintf(s + n, cap - n, "\\x%02x", (unsigned char)v->text[i]);
            s[n++] = '"';
        } else {
            memcpy(s, v->text, v->len);
        }
        break;
    case J_ARRAY: {
        size_t n = 0;
        s[n++] = '[';
        for (size_t i = 0; i < v->n; i++)
            n += (size_t)snprintf(s + n, cap - n, i ? ",%s" : "%s", v->items[i]->text ? v->items[i]->text : "?");
        s[n++] = ']';
        break;
    }
    default: snprintf(s, cap, "?");
    }
    return s;
}

static tx_status build_args(const op_def *def, const json *c, op_args *a) {
    memset(a, 0, sizeof *a);
    a->def = def;
    const json *inputs = json_get(c, "inputs"), *attrs = json_get(c, "attrs");
    for (size_t i = 0; i < OP_MAX_PARAMS && def->params[i].name; i++) {
        const op_param *p = &def->params[i];
        const json *in = json_get(inputs, p->name);
        const json *at = json_get(attrs, p->name);
        tx_status st = TX_OK;
        if (in && p->kind == P_TENSOR) {
            st = tensor_from_json(in, &a->v[i].tensor);
            a->v[i].present = st == TX_OK;
        } else if (in && p->kind == P_TENSOR_LIST && in->type == J_ARRAY) {
            a->v[i].list = calloc(in->n + 1, sizeof *a->v[i].list);
            for (size_t k = 0; st == TX_OK && k < in->n; k++) {
                st = tensor_from_json(in->items[k], &a->v[i].list[k]);
                if (st == TX_OK) a->v[i].nlist++;
            }
            a->v[i].present = st == TX_OK;
        } else if (at || in) {
            char *text = attr_text(p, at ? at : in);
            st = text ? op_parse_value(p, text, &a->v[i]) : op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
            free(text);
        }
        if (st != TX_OK) return st;
    }
    /* Names in the case that the op does not know are a harness error, not a library one. */
    for (int pass = 0; pass < 2; pass++) {
        const json *obj = pass ? attrs : inputs;
        for (size_t k = 0; obj && k < obj->n; k++)
            if (op_param_index(def, obj->keys[k], strlen(obj->keys[k])) < 0)
                return op_fail(TX_INTERNAL, "case argument '%s' is unknown to op %s", obj->keys[k], def->name);
    }
    return op_args_finish(a);
}

static bool is_nan_at(const tx_tensor *t, int64_t i) {
    const char *d = tx_tensor_data_const(t);
    switch (tx_tensor_dtype(t)) {
    case TX_FLOAT16: { uint16_t h; memcpy(&h, d + 2 * i, 2); return (h & 0x7FFF) > 0x7C00; }
    case TX_BFLOAT16: { uint16_t h; memcpy(&h, d + 2 * i, 2); return (h & 0x7FFF) > 0x7F80; }
    case TX_FLOAT32: return isnan(((const float *)d)[i]);
    case TX_FLOAT64: return isnan(((const double *)d)[i]);
    default: return false;
    }
}

/* Compares got with want; on a difference writes a description into why. */
static bool same(const tx_tensor *got, const tx_tensor *want, char *why, size_t cap) {
    if (tx_tensor_dtype(got) != tx_tensor_dtype(want)) {
        snprintf(why, cap, "dtype %s, want %s", tx_dtype_name(tx_tensor_dtype(got)), tx_dtype_name(tx_tensor_dtype(want)));
        return false;
    }
    size_t r = tx_tensor_rank(got);
    bool shape_ok = r == tx_tensor_rank(want);
    for (size_t d = 0; shape_ok && d < r; d++) shape_ok = tx_tensor_dims(got)[d] == tx_tensor_dims(want)[d];
    if (!shape_ok) {
        size_t n = (size_t)snprintf(why, cap, "shape [");
        for (size_t d = 0; d < r && n < cap; d++) n += (size_t)snprintf(why + n, cap - n, d ? ",%" PRId64 : "%" PRId64, tx_tensor_dims(got)[d]);
        n += (size_t)snprintf(why + n, n < cap ? cap - n : 0, "], want [");
        for (size_t d = 0; d < tx_tensor_rank(want) && n < cap; d++) n += (size_t)snprintf(why + n, cap - n, d ? ",%" PRId64 : "%" PRId64, tx_tensor_dims(want)[d]);
        if (n < cap) snprintf(why + n, cap - n, "]");
        return false;
    }
    tx_dtype dt = tx_tensor_dtype(got);
    size_t w = tx_dtype_size(dt);
    bool complex = dt == TX_COMPLEX64 || dt == TX_COMPLEX128;
    for (int64_t i = 0; i < tx_tensor_numel(got); i++) {
        bool eq;
        if (dt == TX_STRING) {
            const tx_string *a = tx_tensor_string(got, i), *b = tx_tensor_string(want, i);
            eq = a->size == b->size && (a->size == 0 || !memcmp(a->data, b->data, (size_t)a->size));
        } else if (complex) {
            const char *a = (const char *)tx_tensor_data_const(got) + i * (int64_t)w, *b = (const char *)tx_tensor_data_const(want) + i * (int64_t)w;
            eq = true;
            for (int part = 0; part < 2; part++) {
                const char *pa = a + part * w / 2, *pb = b + part * w / 2;
                bool na = w == 8 ? isnan(*(const float *)pa) : isnan(*(const double *)pa);
                bool nb = w == 8 ? isnan(*(const float *)pb) : isnan(*(const double *)pb);
                eq &= (na && nb) || (!na && !nb && !memcmp(pa, pb, w / 2));
            }
        } else {
            bool na = is_nan_at(got, i), nb = is_nan_at(want, i);
            eq = (na && nb) || (!na && !nb && !memcmp((const char *)tx_tensor_data_const(got) + i * (int64_t)w,
                                                      (const char *)tx_tensor_data_const(want) + i * (int64_t)w, w));
        }
        if (!eq) {
            char *buf = NULL;
            size_t len = 0;
            FILE *m = open_memstream(&buf, &len);
            if (m) {
                fprintf(m, "element %" PRId64 ": got ", i);
                print_element(m, got, i);
                fputs(", want ", m);
                print_element(m, want, i);
                fclose(m);
                snprintf(why, cap, "%s", buf);
                free(buf);
            }
            return false;
        }
    }
    return true;
}

static void note_skip(tally *t, const char *op) {
    t->skipped++;
    for (size_t i = 0; i < t->nskipped_ops; i++)
        if (!strcmp(t->skipped_ops[i], op)) return;
    if (t->nskipped_ops < 64) snprintf(t->skipped_ops[t->nskipped_ops++], 48, "%s", op);
}

/* --plan: each case is first sized (TX_PLAN through the same run function) and the plan must
 * agree with the real run (op_plan_agrees).  --prepared: each case of an op with a prepared form
 * is also prepared and run on raw pointers, and must agree with the call (op_prepared_agrees). */
static bool plan_check, prepared_check;

static void run_case(const json *c, tally *t) {
    const json *jn = json_get(c, "name"), *jo = json_get(c, "op");
    const char *name = jn && jn->type == J_STRING ? jn->text : "?";
    if (!jo || jo->type != J_STRING) {
        fprintf(cli_out(), "FAIL %s: case has no op\n", name);
        t->failed++;
        return;
    }
    const op_def *def = op_find(jo->text);
    if (!def) {
        note_skip(t, jo->text);
        return;
    }
    /* A case whose expected bits hold on hosts of one byte order only (bitcast across widths):
     * skipped, never passed, on a host of the other order. */
    const json *jb = json_get(c, "byte_order");
    if (jb) {
        if (jb->type != J_STRING || (strcmp(jb->text, "little") && strcmp(jb->text, "big"))) {
            fprintf(cli_out(), "FAIL %s: harness: byte_order must be \"little\" or \"big\"\n",
                    name);
            t->failed++;
            return;
        }
        const char *host = TX_HOST_LITTLE_ENDIAN ? "little" : "big";
        if (strcmp(jb->text, host) != 0) {
            fprintf(cli_out(), "SKIP %s: expects a %s-endian host, this one is %s-endian\n", name,
                    jb->text, host);
            t->skipped++;
            t->skipped_order++;
            return;
        }
    }
    const json *expect = json_get(c, "expect"), *experr = json_get(c, "expect_error");
    op_args a;
    op_outputs o = {0};
    tx_clear_error();
    tx_status st = build_args(def, c, &a);
    if (st == TX_INTERNAL) {
        fprintf(cli_out(), "FAIL %s: harness: %s\n", name, op_error());
        t->failed++;
        op_args_clear(&a);
        return;
    }
    op_plan_result pr;
    bool planned = false;
    if (st == TX_OK && plan_check) {
        op_plan_run(def, &a, &pr);
        planned = true;
    }
    bool build_ok = st == TX_OK;
    if (st == TX_OK) {
        op_fail(TX_OK, "%s", "");
        tx_clear_error();
        st = def->run(&a, &o);
    }
    char why[512] = "";
    bool ok;
    if (planned && !op_plan_agrees(&pr, st, &o, why, sizeof why)) {
        ok = false;
    } else if (prepared_check && build_ok && !op_prepared_agrees(def, &a, st, &o, why, sizeof why)) {
        ok = false;
    } else if (st == TX_OK && !op_outputs_bounded(&a, &o, why, sizeof why)) {
        ok = false;
    } else if (experr) {
        ok = st != TX_OK;
        if (!ok) snprintf(why, sizeof why, "succeeded, want error %s", experr->text ? experr->text : "?");
        else if (experr->type == J_STRING && strcmp(op_status_name(st), experr->text) != 0)
            fprintf(cli_out(), "NOTE %s: error category %s, case says %s (%s)\n", name, op_status_name(st), experr->text, op_error());
    } else if (st != TX_OK) {
        ok = false;
        snprintf(why, sizeof why, "%s: %s", op_status_name(st), op_error());
    } else if (!expect || expect->type != J_ARRAY || expect->n != o.n) {
        ok = false;
        snprintf(why, sizeof why, "%zu outputs, want %zu", o.n, expect && expect->type == J_ARRAY ? expect->n : 0);
    } else {
        ok = true;
        for (size_t i = 0; ok && i < o.n; i++) {
            tx_tensor *w = NULL;
            if (tensor_from_json(expect->items[i], &w) != TX_OK) {
                snprintf(why, sizeof why, "harness: bad expected tensor %zu: %s", i, op_error());
                ok = false;
            } else {
                int n = snprintf(why, sizeof why, "output %zu: ", i);
                ok = same(o.t[i], w, why + n, sizeof why - (size_t)n);
            }
            tx_tensor_free(w);
        }
    }
    if (planned) op_plan_result_clear(&pr);
    if (ok) t->passed++;
    else {
        t->failed++;
        fprintf(cli_out(), "FAIL %s: %s\n", name, why);
    }
    op_outputs_clear(&o);
    op_args_clear(&a);
}

static void run_file(const char *path, tally *t) {
    char *data;
    size_t size;
    if (tv_read_file(path, &data, &size) != TX_OK) {
        fprintf(cli_out(), "FAIL %s: %s\n", path, op_error());
        t->failed++;
        return;
    }
    char err[256];
    json *j = json_parse(data, size, err, sizeof err);
    free(data);
    const json *cases = json_get(j, "cases");
    if (!j || !cases || cases->type != J_ARRAY) {
        fprintf(cli_out(), "FAIL %s: not a suite (%s)\n", path, j ? "no cases" : err);
        t->failed++;
        json_free(j);
        return;
    }
    for (size_t i = 0; i < cases->n; i++) run_case(cases->items[i], t);
    json_free(j);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void run_path(const char *path, tally *t) {
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(cli_out(), "FAIL %s: no such file or directory\n", path);
        t->failed++;
        return;
    }
    if (!S_ISDIR(sb.st_mode)) {
        run_file(path, t);
        return;
    }
    DIR *d = opendir(path);
    if (!d) return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *full = malloc(len);
        snprintf(full, len, "%s/%s", path, e->d_name);
        char **nn = realloc(names, (n + 1) * sizeof *nn);
        if (!nn || !full) { free(full); break; }
        names = nn;
        names[n++] = full;
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat cb;
        size_t len = strlen(names[i]);
        if (stat(names[i], &cb) == 0 && (S_ISDIR(cb.st_mode) || (len > 5 && !strcmp(names[i] + len - 5, ".json"))))
            run_path(names[i], t);
        free(names[i]);
    }
    free(names);
}

int conform_main(int argc, char **argv) {
    for (; argc >= 1 && (!strcmp(argv[0], "--plan") || !strcmp(argv[0], "--prepared")); argc--, argv++)
        *(!strcmp(argv[0], "--plan") ? &plan_check : &prepared_check) = true;
    for (int i = 0; i < argc; i++)
        if (argv[i][0] == '-') {
            fprintf(cli_err(), "tensorx: conform: usage: unknown option '%s' (tensorx conform [--plan] [--prepared] FILE.json|DIR ...)\n", argv[i]);
            return 2;
        }
    if (argc < 1) {
        fprintf(cli_err(), "tensorx: conform: usage: tensorx conform [--plan] [--prepared] FILE.json|DIR ...\n");
        return 2;
    }
    tally t = {0};
    for (int i = 0; i < argc; i++) run_path(argv[i], &t);
    if (t.nskipped_ops) {
        fprintf(cli_out(), "skipped ops (not implemented):");
        for (size_t i = 0; i < t.nskipped_ops; i++) fprintf(cli_out(), " %s", t.skipped_ops[i]);
        fprintf(cli_out(), "\n");
    }
    if (t.skipped_order)
        fprintf(cli_out(), "skipped cases for the other byte order: %ld (this host is %s-endian)\n",
               t.skipped_order, TX_HOST_LITTLE_ENDIAN ? "little" : "big");
    if (t.skipped)
        fprintf(cli_out(), "%ld passed, %ld failed, %ld skipped\n", t.passed, t.failed, t.skipped);
    else fprintf(cli_out(), "%ld passed, %ld failed\n", t.passed, t.failed);
    return t.failed ? 1 : 0;
}
