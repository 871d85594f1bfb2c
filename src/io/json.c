/* SPDX-License-Identifier: Apache-2.0 */
/* json.c -- the strict JSON tokenizer of json.h, for the safetensors header.  Two passes over the
 * text: the first checks it and counts its values, the second (into an array of that size) fills
 * the tokens, so memory is one array whatever the text holds.  Recursion is bounded by
 * TX__JSON_MAX_DEPTH. */
#include "io/json.h"

typedef struct {
    const char *op, *what;
    const unsigned char *s;
    size_t len, pos;
    tx__json_token *tok; /* NULL in the counting pass */
    size_t n;            /* tokens so far */
} jp;

static tx_status bad(jp *p, const char *rule) {
    return tx__fail(TX_INVALID_ARGUMENT, "%s: %s: %s at byte %zu", p->op, p->what, rule, p->pos);
}

static void skip_ws(jp *p) {
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int hex(unsigned c) {
    if (c >= '0' && c <= '9') return (int)(c - '0');
    if (c >= 'a' && c <= 'f') return (int)(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return (int)(c - 'A' + 10);
    return -1;
}

/* The 4 hex digits at s (the caller checked that they are there), or -1. */
static long hex4(const unsigned char *s) {
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex(s[i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

/* A \u escape at p->pos (after the backslash and 'u'): one code point, or a surrogate pair. */
static tx_status unicode_escape(jp *p) {
    if (p->len - p->pos < 4 || hex4(p->s + p->pos) < 0) return bad(p, "\\u needs 4 hex digits");
    long cp = hex4(p->s + p->pos);
    p->pos += 4;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return bad(p, "a \\u escape is a lone low surrogate");
    if (cp < 0xD800 || cp > 0xDBFF) return TX_OK;
    if (p->len - p->pos < 6 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
        return bad(p, "a \\u high surrogate is not followed by a \\u low surrogate");
    long lo = hex4(p->s + p->pos + 2);
    if (lo < 0xDC00 || lo > 0xDFFF)
        return bad(p, "a \\u high surrogate is not followed by a \\u low surrogate");
    p->pos += 6;
    return TX_OK;
}

/* A string from its opening quote; p->pos ends after the closing one. */
static tx_status string(jp *p, size_t *start, size_t *end) {
    *start = ++p->pos;
    for (;;) {
        if (p->pos >= p->len) return bad(p, "a string is not closed");
        unsigned c = p->s[p->pos];
        if (c == '"') break;
        if (c < 0x20) return bad(p, "a control character in a string must be escaped");
        p->pos++;
        if (c != '\\') continue;
        if (p->pos >= p->len) return bad(p, "a string is not closed");
        c = p->s[p->pos++];
        if (c == 'u') {
            TX_TRY(unicode_escape(p));
        } else if (!strchr("\"\\/bfnrt", (int)c) || c == 0) {
            p->pos--;
            return bad(p, "an unknown escape in a string");
        }
    }
    *end = p->pos++;
    return TX_OK;
}

static size_t digits(jp *p) {
    size_t from = p->pos;
    while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') p->pos++;
    return p->pos - from;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static tx_status number(jp *p) {
    if (p->s[p->pos] == '-') p->pos++;
    size_t at = p->pos;
    size_t n = digits(p);
    if (n == 0) return bad(p, "a number needs a digit");
    if (n > 1 && p->s[at] == '0') return bad(p, "a number has a leading zero");
    if (p->pos < p->len && p->s[p->pos] == '.') {
        p->pos++;
        if (digits(p) == 0) return bad(p, "a number needs a digit after '.'");
    }
    if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-')) p->pos++;
        if (digits(p) == 0) return bad(p, "a number needs a digit in its exponent");
    }
    return TX_OK;
}

static tx_status value(jp *p, int depth);

/* An array or object from its opening bracket. */
static tx_status container(jp *p, size_t self, bool object, int depth) {
    const unsigned char close = object ? '}' : ']';
    size_t count = 0;
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
    } else {
        for (;;) {
            skip_ws(p);
            if (object) {
                if (p->pos >= p->len || p->s[p->pos] != '"')
                    return bad(p, "an object member must start with a string key");
                size_t ks, ke;
                TX_TRY(string(p, &ks, &ke));
                if (p->tok) p->tok[p->n] = (tx__json_token){TX__JSON_STRING, (uint32_t)ks, (uint32_t)ke, 0, (uint32_t)p->n + 1};
                p->n++;
                skip_ws(p);
                if (p->pos >= p->len || p->s[p->pos] != ':')
                    return bad(p, "an object key must be followed by ':'");
                p->pos++;
            }
            TX_TRY(value(p, depth + 1));
            count++;
            skip_ws(p);
            if (p->pos < p->len && p->s[p->pos] == ',') {
                p->pos++;
                skip_ws(p);
                if (p->pos < p->len && p->s[p->pos] == close) return bad(p, "a trailing comma");
                continue;
            }
            if (p->pos < p->len && p->s[p->pos] == close) {
                p->pos++;
                break;
            }
            return bad(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    if (p->tok) {
        p->tok[self].count = (uint32_t)count;
        p->tok[self].end = (uint32_t)p->pos;
        p->tok[self].next = (uint32_t)p->n;
    }
    return TX_OK;
}

static bool word(jp *p, const char *w) {
    size_t n = strlen(w);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n) != 0) return false;
    p->pos += n;
    return true;
}

static tx_status value(jp *p, int depth) {
    if (depth > TX__JSON_MAX_DEPTH) return bad(p, "nesting deeper than 128");
    skip_ws(p);
    if (p->pos >= p->len) return bad(p, "a value is missing");
    size_t self = p->n++, start = p->pos, end;
    unsigned c = p->s[p->pos];
    tx__json_kind kind;
    tx_status st = TX_OK;
    if (c == '{' || c == '[') {
        kind = c == '{' ? TX__JSON_OBJECT : TX__JSON_ARRAY;
        if (p->tok) p->tok[self] = (tx__json_token){kind, (uint32_t)start, 0, 0, 0};
        return container(p, self, c == '{', depth);
    }
    if (c == '"') {
        kind = TX__JSON_STRING;
        st = string(p, &start, &end);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        kind = TX__JSON_NUMBER;
        st = number(p);
        end = p->pos;
    } else if (word(p, "true")) {
        kind = TX__JSON_TRUE;
        end = p->pos;
    } else if (word(p, "false")) {
        kind = TX__JSON_FALSE;
        end = p->pos;
    } else if (word(p, "null")) {
        kind = TX__JSON_NULL;
        end = p->pos;
    } else {
        return bad(p, "expected a value");
    }
    if (st == TX_OK && p->tok)
        p->tok[self] = (tx__json_token){kind, (uint32_t)start, (uint32_t)end, 0, (uint32_t)self + 1};
    return st;
}

static tx_status document(jp *p) {
    p->pos = 0;
    p->n = 0;
    TX_TRY(value(p, 1));
    skip_ws(p);
    if (p->pos != p->len) return bad(p, "trailing characters after the value");
    return TX_OK;
}

tx_status tx__json_parse(const char *op, const char *what, const char *text, size_t len,
                         tx__json_token **tokens, size_t *count) {
    *tokens = NULL;
    *count = 0;
    jp p = {op, what, (const unsigned char *)text, len, 0, NULL, 0};
    TX_REQUIRE(len < UINT32_MAX, TX_INVALID_ARGUMENT, "%s: %s: %zu bytes of JSON, more than 4 GiB",
               op, what, len);
    size_t at;
    if (!tx__utf8_valid(p.s, len, &at)) {
        p.pos = at;
        return bad(&p, "invalid UTF-8");
    }
    TX_TRY(document(&p));
    size_t n = p.n;
    p.tok = tx__calloc_array(n, sizeof *p.tok, "json: tokens");
    if (p.tok == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = document(&p);
    assert(st == TX_OK && p.n == n);
    (void)st;
    *tokens = p.tok;
    *count = n;
    return TX_OK;
}

/* Appends code point cp as UTF-8. */
static size_t put_utf8(char *o, unsigned long cp) {
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t tx__json_string(const char *text, const tx__json_token *tok, char *out) {
    const unsigned char *s = (const unsigned char *)text;
    size_t n = 0;
    for (size_t i = tok->start; i < tok->end;) {
        if (s[i] != '\\') {
            out[n++] = (char)s[i++];
            continue;
        }
        unsigned char e = s[i + 1];
        i += 2;
        if (e != 'u') {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            out[n++] = to[strchr(from, e) - from];
            continue;
        }
        unsigned long cp = (unsigned long)hex4(s + i);
        i += 4;
        if (cp >= 0xD800 && cp <= 0xDBFF) { /* the tokenizer checked the pair */
            cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned long)hex4(s + i + 2) - 0xDC00);
            i += 6;
        }
        n += put_utf8(out + n, cp);
    }
    return n;
}

bool tx__json_string_is(const char *text, const tx__json_token *tok, const char *s) {
    size_t n = strlen(s);
    if (tok->kind != TX__JSON_STRING || tok->end - tok->start < n) return false;
    if (memchr(text + tok->start, '\\', tok->end - tok->start) == NULL)
        return tok->end - tok->start == n && memcmp(text + tok->start, s, n) == 0;
    char buf[128]; /* an escaped key: only the short names the readers look for can match */
    if (tok->end - tok->start > sizeof buf) return false; /* 6 bytes a character at most */
    return tx__json_string(text, tok, buf) == n && memcmp(buf, s, n) == 0;
}

bool tx__json_uint(const char *text, const tx__json_token *tok, uint64_t *value) {
    if (tok->kind != TX__JSON_NUMBER) return false;
    uint64_t v = 0;
    for (size_t i = tok->start; i < tok->end; i++) {
        unsigned d = (unsigned)(text[i] - '0');
        if (d > 9 || v > (UINT64_MAX - d) / 10) return false;
        v = v * 10 + d;
    }
    *value = v;
    return true;
}

bool tx__utf8_valid(const unsigned char *s, size_t len, size_t *bad_at) {
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        size_t n = c < 0x80             ? 1
                   : (c & 0xE0) == 0xC0 ? 2
                   : (c & 0xF0) == 0xE0 ? 3
                   : (c & 0xF8) == 0xF0 ? 4
                                        : 0;
        unsigned long cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
        bool ok = n != 0 && len - i >= n;
        for (size_t k = 1; ok && k < n; k++) {
            ok = (s[i + k] & 0xC0) == 0x80;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
        if (!ok || cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            *bad_at = i;
            return false;
        }
        i += n;
    }
    return true;
}
