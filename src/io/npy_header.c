/* SPDX-License-Identifier: Apache-2.0 */
/* npy_header.c -- the .npy header (format versions 1.0, 2.0 and 3.0), both ways: the parser of
 * its Python literal, safe on hostile input (every length is checked against the bytes actually
 * present before any read), descr <-> dtype, and the writer.  Conventions for dtypes numpy lacks
 * are described in tensorx.h. */
#include "core/internal.h"
#include "io/npy_internal.h"

#include <inttypes.h>
#include <stdio.h>

static const char MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* ---- a tiny parser for the header's Python literal ---------------------------------------------
 * The header is a dict with the keys 'descr', 'fortran_order' and 'shape'.  descr is a type string
 * or a list of (name, type) tuples; we take a list only with one field (tensorx's convention). */

typedef struct {
    const char *p, *end;
} cursor;

static void skip_ws(cursor *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')) c->p++;
}

static bool eat(cursor *c, char ch) {
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

/* A quoted string without escapes (numpy writes none in the keys and type strings we accept). */
static bool parse_str(cursor *c, char *buf, size_t cap) {
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return false;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || n + 1 >= cap) return false;
        buf[n++] = *c->p++;
    }
    if (c->p >= c->end) return false;
    c->p++;
    buf[n] = '\0';
    return true;
}

static bool parse_word(cursor *c, const char *w) {
    skip_ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0) return false;
    c->p += n;
    return true;
}

static bool parse_int(cursor *c, int64_t *v) {
    skip_ws(c);
    int64_t x = 0;
    const char *s = c->p;
    while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
        if (!tx__mul_i64(x, 10, &x) || !tx__add_i64(x, *c->p - '0', &x)) return false;
        c->p++;
    }
    if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 longs in old files */
    *v = x;
    return c->p > s;
}

/* The header dict before its descr is decoded; rank and dims go straight into tx_npy_info. */
typedef struct {
    char descr[64];
    char field[64]; /* structured descr: the one field's name; "" otherwise */
    int fortran;    /* -1 = missing */
    bool has_shape;
} npy_header;

static tx_status bad(const char *what) {
    return tx__fail(TX_INVALID_ARGUMENT, "npy: malformed header: %s", what);
}

static tx_status parse_descr(cursor *c, npy_header *h) {
    skip_ws(c);
    if (c->p < c->end && *c->p == '[') {
        c->p++;
        if (!eat(c, '(')) return bad("descr list must hold one (name, type) tuple");
        if (!parse_str(c, h->field, sizeof h->field)) return bad("descr field name");
        if (!eat(c, ',')) return bad("descr tuple needs a type");
        if (!parse_str(c, h->descr, sizeof h->descr)) return bad("descr field type");
        eat(c, ',');
        if (!eat(c, ')')) return bad("descr tuple must hold a name and a type only");
        eat(c, ',');
        if (!eat(c, ']')) return bad("descr list must hold exactly one field");
        if (h->field[0] == '\0') return bad("descr field name is empty");
        return TX_OK;
    }
    if (!parse_str(c, h->descr, sizeof h->descr)) return bad("descr must be a type string");
    return TX_OK;
}

static tx_status parse_dict(const char *text, size_t len, npy_header *h, tx_npy_info *info) {
    cursor c = {text, text + len};
    memset(h, 0, sizeof *h);
    h->fortran = -1;
    bool have_descr = false;
    if (!eat(&c, '{')) return bad("expected '{'");
    for (;;) {
        if (eat(&c, '}')) break;
        char key[32];
        if (!parse_str(&c, key, sizeof key)) return bad("expected a quoted key");
        if (!eat(&c, ':')) return bad("expected ':' after a key");
        if (strcmp(key, "descr") == 0 && !have_descr) {
            TX_TRY(parse_descr(&c, h));
            have_descr = true;
        } else if (strcmp(key, "fortran_order") == 0 && h->fortran < 0) {
            if (parse_word(&c, "True")) h->fortran = 1;
            else if (parse_word(&c, "False")) h->fortran = 0;
            else return bad("fortran_order must be True or False");
        } else if (strcmp(key, "shape") == 0 && !h->has_shape) {
            if (!eat(&c, '(')) return bad("shape must be a tuple");
            while (!eat(&c, ')')) {
                if (info->rank >= TX_MAX_RANK)
                    return tx__fail(TX_INVALID_ARGUMENT, "npy: shape has more than %d dims", TX_MAX_RANK);
                if (!parse_int(&c, &info->dims[info->rank]))
                    return bad("shape entries must be non-negative integers");
                info->rank++;
                if (!eat(&c, ',')) {
                    if (!eat(&c, ')')) return bad("expected ',' or ')' in shape");
                    break;
                }
            }
            h->has_shape = true;
        } else {
            return tx__fail(TX_INVALID_ARGUMENT, "npy: malformed header: unexpected or repeated key '%s'", key);
        }
        if (!eat(&c, ',')) {
            if (!eat(&c, '}')) return bad("expected ',' or '}'");
            break;
        }
    }
    skip_ws(&c);
    if (c.p != c.end) return bad("trailing characters after the dict");
    if (!have_descr || h->fortran < 0 || !h->has_shape) return bad("descr, fortran_order and shape are required");
    return TX_OK;
}

/* ---- descr <-> dtype ---------------------------------------------------------------------------- */

static tx_status decode_descr(const npy_header *h, tx_npy_info *info) {
    const char *d = h->descr;
    char order = d[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return tx__fail(TX_INVALID_ARGUMENT, "npy: descr '%s' has no byte-order character", d);
    /* '=' is the reader's order and '|' says order does not apply (bytes, 1-byte items): numpy
     * takes both as native, so only '<' on a big-endian host and '>' on a little-endian one
     * swap. */
    info->byte_swapped = order == (TX_HOST_LITTLE_ENDIAN ? '>' : '<');
    char kind = d[1];
    int64_t n = 0;
    cursor c = {d + 2, d + strlen(d)};
    if (kind == '\0' || !parse_int(&c, &n) || c.p != c.end)
        return tx__fail(TX_INVALID_ARGUMENT, "npy: descr '%s' has no valid item size", d);
    if (kind == 'S' || kind == 'U') {
        if (h->field[0]) return tx__fail(TX_INVALID_ARGUMENT, "npy: structured string descr is not supported");
        int64_t unit = kind == 'U' ? 4 : 1;
        if (n > (int64_t)(SIZE_MAX / 8) / unit)
            return tx__fail(TX_INVALID_ARGUMENT, "npy: string item size %" PRId64 " is too large", n);
        info->dtype = TX_STRING;
        info->string_kind = kind;
        info->item_size = (size_t)(n * unit);
        return TX_OK;
    }
    /* Match against the table's little-endian descr by kind and size, or tensorx's structured
     * convention [('bfloat16', '<u2')] by field name. */
    for (size_t i = 0; i < tx__dtype_count(); i++) {
        const tx__dtype_info *t = tx__dtype_at(i);
        if (h->field[0]) {
            if (strcmp(t->name, h->field) != 0 || t->kind == TX_KIND_STRING) continue;
            if ((kind != 'u' && kind != 'i') || (size_t)n != t->size)
                return tx__fail(TX_INVALID_ARGUMENT, "npy: field '%s' must be stored as i%zu or u%zu, got '%s'",
                                h->field, t->size, t->size, d);
        } else {
            char want[24];
            snprintf(want, sizeof want, "%c%" PRId64, kind, n);
            if (t->npy_descr == NULL || strcmp(t->npy_descr + 1, want) != 0) continue;
        }
        info->dtype = t->id;
        info->item_size = t->size;
        return TX_OK;
    }
    if (h->field[0])
        return tx__fail(TX_INVALID_ARGUMENT, "npy: structured dtype with field '%s' is not supported", h->field);
    return tx__fail(TX_INVALID_ARGUMENT, "npy: descr '%s' is not supported", d);
}

tx_status tx__npy_prefix(const unsigned char *b, size_t have, uint64_t file_size, size_t *hstart,
                         uint64_t *hlen) {
    TX_REQUIRE(have >= 10 && file_size >= 10 && memcmp(b, MAGIC, 6) == 0, TX_INVALID_ARGUMENT,
               "npy: not a .npy file (bad magic or shorter than 10 bytes)");
    unsigned major = b[6];
    TX_REQUIRE(major >= 1 && major <= 3, TX_INVALID_ARGUMENT, "npy: unsupported format version %u.%u",
               major, b[7]);
    if (major == 1) {
        *hlen = (uint64_t)b[8] | (uint64_t)b[9] << 8;
        *hstart = 10;
    } else {
        TX_REQUIRE(have >= 12 && file_size >= 12, TX_INVALID_ARGUMENT, "npy: truncated header length");
        *hlen = (uint64_t)b[8] | (uint64_t)b[9] << 8 | (uint64_t)b[10] << 16 | (uint64_t)b[11] << 24;
        *hstart = 12;
    }
    TX_REQUIRE(*hlen <= file_size - *hstart, TX_INVALID_ARGUMENT,
               "npy: header claims %llu bytes, only %llu remain", (unsigned long long)*hlen,
               (unsigned long long)(file_size - *hstart));
    return TX_OK;
}

tx_status tx__npy_parse_header(const unsigned char *b, size_t have, uint64_t file_size,
                               tx_npy_info *info) {
    int64_t *dims = info->dims;
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
    info->dims = dims;
    info->dims_capacity = TX_MAX_RANK;
    size_t hstart;
    uint64_t hlen;
    TX_TRY(tx__npy_prefix(b, have, file_size, &hstart, &hlen));
    TX_REQUIRE(hlen <= have - hstart, TX_INTERNAL, "npy: header of %llu bytes not in the buffer",
               (unsigned long long)hlen);
    npy_header h;
    TX_TRY(parse_dict((const char *)b + hstart, (size_t)hlen, &h, info));
    TX_TRY(decode_descr(&h, info));
    info->fortran_order = h.fortran;
    int64_t numel;
    /* A shape whose product overflows cannot describe bytes that exist: the file lies. */
    TX_REQUIRE(tx__shape_numel("npy", "shape", info->rank, info->dims, &numel) == TX_OK,
               TX_INVALID_ARGUMENT, "npy: the number of elements of the shape overflows int64");
    TX_REQUIRE(!__builtin_mul_overflow((uint64_t)numel, (uint64_t)info->item_size, &info->data_size),
               TX_INVALID_ARGUMENT, "npy: data size overflows");
    info->data_offset = hstart + hlen;
    return TX_OK;
}

tx_status tx__npy_wrong_size(const tx_npy_info *info, uint64_t have) {
    return tx__fail(TX_INVALID_ARGUMENT,
                    "npy: shape and descr need %llu data bytes, the file has %llu",
                    (unsigned long long)info->data_size, (unsigned long long)have);
}

tx_status tx__npy_parse(const unsigned char *b, size_t have, uint64_t file_size,
                        tx_npy_info *info) {
    TX_TRY(tx__npy_parse_header(b, have, file_size, info));
    if (file_size - info->data_offset != info->data_size)
        return tx__npy_wrong_size(info, file_size - info->data_offset);
    return TX_OK;
}

/* ---- writing ------------------------------------------------------------------------------------ */

tx_status tx__npy_header(tx_dtype dtype, size_t rank, const int64_t *dims, size_t string_item,
                         char *buf, size_t cap, size_t *len) {
    const tx__dtype_info *info = tx__dtype(dtype);
    char descr[96];
    if (dtype == TX_STRING) {
        snprintf(descr, sizeof descr, "'|S%zu'", string_item);
    } else if (info->npy_descr) {
        snprintf(descr, sizeof descr, "'%s'", info->npy_descr);
    } else {
        /* Float types without a NumPy dtype (bfloat16, float8, float6, float4) are stored as their
         * bit patterns. */
        bool is_unsigned = dtype == TX_QUINT8 || dtype == TX_QUINT16 ||
                           info->kind == TX_KIND_UNSIGNED || info->kind == TX_KIND_FLOAT;
        snprintf(descr, sizeof descr, "[('%s', '%c%c%zu')]", info->name, info->size == 1 ? '|' : '<',
                 is_unsigned ? 'u' : 'i', info->size);
    }
    /* numpy's own dict layout. */
    enum { NPY_GROWTH_DIGITS = 21 }; /* numpy.lib.format.GROWTH_AXIS_MAX_DIGITS */
    char text[TX_MAX_RANK * 24 + 256];
    size_t n = (size_t)snprintf(text, sizeof text, "{'descr': %s, 'fortran_order': False, 'shape': (", descr);
    for (size_t d = 0; d < rank; d++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              rank == 1 ? "%" PRId64 "," : (d ? ", %" PRId64 : "%" PRId64), dims[d]);
    n += (size_t)snprintf(text + n, sizeof text - n, "), }");
    /* As numpy's writer does, room for the first dim to grow to NPY_GROWTH_DIGITS digits, so that
     * a writer that learns the row count last can rewrite the header in place. */
    size_t grown = n + (rank > 0 ? NPY_GROWTH_DIGITS - (size_t)snprintf(NULL, 0, "%" PRId64, dims[0]) : 0);
    /* Version 1.0 takes a 16-bit header length; larger headers need 2.0.  Then spaces (at least
     * one, as numpy writes) and a '\n' end the header at a multiple of 64. */
    size_t pre = 10, total = (pre + grown + 1) / 64 * 64 + 64;
    if (total - pre > 65535) {
        pre = 12;
        total = (pre + grown + 1) / 64 * 64 + 64;
    }
    TX_REQUIRE(total <= cap, TX_INVALID_ARGUMENT, "npy: the header needs %zu bytes, cap is %zu",
               total, cap);
    size_t field = total - pre;
    memcpy(buf, MAGIC, 6);
    buf[6] = pre == 10 ? 1 : 2;
    buf[7] = 0;
    buf[8] = (char)(field & 0xFF);
    buf[9] = (char)(field >> 8 & 0xFF);
    if (pre == 12) {
        buf[10] = (char)(field >> 16 & 0xFF);
        buf[11] = (char)(field >> 24 & 0xFF);
    }
    memcpy(buf + pre, text, n);
    memset(buf + pre + n, ' ', total - pre - n - 1);
    buf[total - 1] = '\n';
    *len = total;
    return TX_OK;
}
