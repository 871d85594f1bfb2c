/* SPDX-License-Identifier: Apache-2.0 */
/* json.c -- a small recursive-descent JSON reader for the conformance suites (tools only).  Strings
 * are decoded to UTF-8 (\u escapes, surrogate pairs); numbers keep their text so that integers
 * are read exactly. */
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *start, *p, *end;
    char *err;
    size_t cap;
    int depth;
} parser;

static void ws(parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\n' || *ps->p == '\r' || *ps->p == '\t')) ps->p++;
}

static json *fail(parser *ps, const char *what) {
    if (ps->err && ps->err[0] == '\0') snprintf(ps->err, ps->cap, "%s at byte offset %ld", what, (long)(ps->p - ps->start));
    return NULL;
}

/* calloc, or NULL with the error "out of memory" (the first error is the one reported, so the
 * callers' own "bad string" / "bad array" that follow do not replace it). */
static void *xcalloc(parser *ps, size_t n, size_t s) {
    void *p = calloc(n ? n : 1, s);
    if (!p) fail(ps, "out of memory");
    return p;
}

static json *value(parser *ps);

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool read_u4(parser *ps, unsigned *out) {
    if (ps->end - ps->p < 4) return false;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(ps->p[i]);
        if (h < 0) return false;
        v = v * 16 + (unsigned)h;
    }
    ps->p += 4;
    *out = v;
    return true;
}

static char *string_body(parser *ps, size_t *len) {
    /* Output is never longer than the input span. */
    const char *start = ++ps->p;
    const char *q = start;
    while (q < ps->end && *q != '"') q += (*q == '\\') ? 2 : 1;
    if (q >= ps->end) return NULL;
    char *out = xcalloc(ps, (size_t)(q - start) + 1, 1);
    if (!out) return NULL;
    size_t n = 0;
    while (ps->p < ps->end && *ps->p != '"') {
        char c = *ps->p++;
        if (c != '\\') {
            out[n++] = c;
            continue;
        }
        if (ps->p >= ps->end) break;
        char e = *ps->p++;
        switch (e) {
        case '"': out[n++] = '"'; break;
        case '\\': out[n++] = '\\'; break;
        case '/': out[n++] = '/'; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            unsigned cp;
            if (!read_u4(ps, &cp)) goto bad;
            if (cp >= 0xD800 && cp < 0xDC00 && ps->end - ps->p >= 6 && ps->p[0] == '\\' && ps->p[1] == 'u') {
                unsigned lo;
                ps->p += 2;
                if (!read_u4(ps, &lo) || lo < 0xDC00 || lo > 0xDFFF) goto bad;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            if (cp < 0x80) out[n++] = (char)cp;
            else if (cp < 0x800) { out[n++] = (char)(0xC0 | cp >> 6); out[n++] = (char)(0x80 | (cp & 0x3F)); }
            else if (cp < 0x10000) {
                out[n++] = (char)(0xE0 | cp >> 12); out[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
                out[n++] = (char)(0x80 | (cp & 0x3F));
            } else {
                out[n++] = (char)(0xF0 | cp >> 18); out[n++] = (char)(0x80 | (cp >> 12 & 0x3F));
                out[n++] = (char)(0x80 | (cp >> 6 & 0x3F)); out[n++] = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default: goto bad;
        }
    }
    if (ps->p >= ps->end) goto bad;
    ps->p++; /* closing quote */
    *len = n;
    return out;
bad:
    free(out);
    return NULL;
}

static json *node(parser *ps, json_type t) {
    json *j = xcalloc(ps, 1, sizeof *j);
    if (j) j->type = t;
    return j;
}

static json *container(parser *ps, bool object) {
    json *j = node(ps, object ? J_OBJECT : J_ARRAY);
    if (!j) return NULL;
    size_t cap = 0;
    ps->p++;
    ws(ps);
    if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) {
        ps->p++;
        return j;
    }
    for (;;) {
        char *key = NULL;
        if (object) {
            ws(ps);
            size_t klen;
            if (ps->p >= ps->end || *ps->p != '"' || !(key = string_body(ps, &klen))) goto bad;
            ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') { free(key); goto bad; }
            ps->p++;
        }
        json *v = value(ps);
        if (!v) { free(key); goto bad; }
        if (j->n == cap) {
            cap = cap ? cap * 2 : 8;
            json **ni = realloc(j->items, cap * sizeof *ni);
            if (ni) j->items = ni;
            char **nk = object && ni ? realloc(j->keys, cap * sizeof *nk) : NULL;
            if (nk) j->keys = nk;
            if (!ni || (object && !nk)) {
                fail(ps, "out of memory");
                json_free(v);
                free(key);
                goto bad;
            }
        }
        if (object) j->keys[j->n] = key;
        j->items[j->n++] = v;
        ws(ps);
        if (ps->p < ps->end && *ps->p == ',') { ps->p++; continue; }
        if (ps->p < ps->end && *ps->p == (object ? '}' : ']')) { ps->p++; return j; }
        goto bad;
    }
bad:
    json_free(j);
    return fail(ps, object ? "bad object" : "bad array");
}

static json *value(parser *ps) {
    if (++ps->depth > 200) return fail(ps, "nesting too deep");
    ws(ps);
    json *r = NULL;
    if (ps->p >= ps->end) r = fail(ps, "unexpected end");
    else if (*ps->p == '{') r = container(ps, true);
    else if (*ps->p == '[') r = container(ps, false);
    else if (*ps->p == '"') {
        size_t len;
        char *s = string_body(ps, &len);
        if (s && (r = node(ps, J_STRING)) != NULL) { r->text = s; r->len = len; }
        else if (s) free(s);
        else r = fail(ps, "bad string");
    } else if (ps->end - ps->p >= 4 && !memcmp(ps->p, "true", 4)) { ps->p += 4; r = node(ps, J_BOOL); if (r) r->b = true; }
    else if (ps->end - ps->p >= 5 && !memcmp(ps->p, "false", 5)) { ps->p += 5; r = node(ps, J_BOOL); }
    else if (ps->end - ps->p >= 4 && !memcmp(ps->p, "null", 4)) { ps->p += 4; r = node(ps, J_NULL); }
    else {
        const char *s = ps->p;
        while (ps->p < ps->end && strchr("+-0123456789.eE", *ps->p)) ps->p++;
        if (ps->p == s) r = fail(ps, "unexpected character");
        else {
            r = node(ps, J_NUMBER);
            if (r && (r->text = xcalloc(ps, (size_t)(ps->p - s) + 1, 1)) == NULL) {
                free(r);
                r = NULL;
            } else if (r) {
                memcpy(r->text, s, (size_t)(ps->p - s));
                r->len = (size_t)(ps->p - s);
            }
        }
    }
    ps->depth--;
    return r;
}

json *json_parse(const char *text, size_t len, char *err, size_t cap) {
    parser ps = {text, text, text + len, err, cap, 0};
    if (err && cap) err[0] = '\0';
    json *j = value(&ps);
    if (j) {
        ws(&ps);
        if (ps.p != ps.end) {
            json_free(j);
            return fail(&ps, "trailing characters");
        }
    }
    return j;
}

void json_free(json *j) {
    if (!j) return;
    for (size_t i = 0; i < j->n; i++) {
        json_free(j->items[i]);
        if (j->keys) free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
    free(j->text);
    free(j);
}

const json *json_get(const json *obj, const char *key) {
    if (!obj || obj->type != J_OBJECT) return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
    return NULL;
}
