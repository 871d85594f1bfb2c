/* npy.c -- .npy reading and writing (format versions 1.0, 2.0 and 3.0), safe on hostile input:
 * every length in the header is checked against the bytes actually present before any read.
 * Conventions for dtypes numpy lacks are described in tensorx.h. */
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

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

typedef struct {
    char descr[64];
    char field[64]; /* structured descr: the one field's name; "" otherwise */
    int fortran;    /* -1 = missing */
    size_t rank;
    int64_t dims[TX_MAX_RANK];
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

static tx_status parse_header(const char *text, size_t len, npy_header *h) {
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
                if (h->rank >= TX_MAX_RANK)
                    return tx__fail(TX_INVALID_ARGUMENT, "npy: shape has more than %d dims", TX_MAX_RANK);
                if (!parse_int(&c, &h->dims[h->rank])) return bad("shape entries must be non-negative integers");
                h->rank++;
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

typedef struct {
    tx_dtype dtype;
    bool swap;        /* data are in the other byte order */
    size_t item;      /* bytes per element in the file */
    char str_kind;    /* 'S', 'U' or 0 */
    size_t swap_unit; /* byte-swap granularity (element, or half of it for complex) */
} npy_type;

static tx_status decode_descr(const npy_header *h, npy_type *t) {
    const char *d = h->descr;
    memset(t, 0, sizeof *t);
    char order = d[0];
    if (order != '<' && order != '>' && order != '|' && order != '=')
        return tx__fail(TX_INVALID_ARGUMENT, "npy: descr '%s' has no byte-order character", d);
    bool little = order == '<' || order == '|' || (order == '=' && TX_HOST_LITTLE_ENDIAN);
    t->swap = little != (bool)TX_HOST_LITTLE_ENDIAN;
    char kind = d[1];
    int64_t n = 0;
    cursor c = {d + 2, d + strlen(d)};
    if (!parse_int(&c, &n) || c.p != c.end)
        return tx__fail(TX_INVALID_ARGUMENT, "npy: descr '%s' has no valid item size", d);
    if (kind == 'S' || kind == 'U') {
        if (h->field[0]) return tx__fail(TX_INVALID_ARGUMENT, "npy: structured string descr is not supported");
        int64_t unit = kind == 'U' ? 4 : 1;
        if (n > (int64_t)(SIZE_MAX / 8) / unit)
            return tx__fail(TX_INVALID_ARGUMENT, "npy: string item size %" PRId64 " is too large", n);
        t->dtype = TX_STRING;
        t->str_kind = kind;
        t->item = (size_t)(n * unit);
        t->swap_unit = (size_t)unit;
        return TX_OK;
    }
    /* Match against the table's little-endian descr by kind and size. */
    char want[16];
    snprintf(want, sizeof want, "%c%" PRId64, kind, n);
    if (h->field[0]) {
        /* tensorx's convention: [('bfloat16', '<u2')] */
        for (size_t i = 0; i < tx__dtype_count(); i++) {
            const tx__dtype_info *info = tx__dtype_at(i);
            if (strcmp(info->name, h->field) != 0 || info->kind == TX_KIND_STRING) continue;
            if ((kind != 'u' && kind != 'i') || (size_t)n != info->size)
                return tx__fail(TX_INVALID_ARGUMENT, "npy: field '%s' must be stored as i%zu or u%zu, got '%s'",
                                h->field, info->size, info->size, d);
            t->dtype = info->id;
            t->item = info->size;
            t->swap_unit = info->size;
            return TX_OK;
        }
        return tx__fail(TX_INVALID_ARGUMENT, "npy: structured dtype with field '%s' is not supported", h->field);
    }
    for (size_t i = 0; i < tx__dtype_count(); i++) {
        const tx__dtype_info *info = tx__dtype_at(i);
        if (info->npy_descr == NULL || strcmp(info->npy_descr + 1, want) != 0) continue;
        t->dtype = info->id;
        t->item = info->size;
        t->swap_unit = info->kind == TX_KIND_COMPLEX ? info->size / 2 : info->size;
        return TX_OK;
    }
    return tx__fail(TX_INVALID_ARGUMENT, "npy: descr '%s' is not supported", d);
}

/* ---- reading ------------------------------------------------------------------------------------ */

static void swap_bytes(char *p, size_t unit) {
    for (size_t i = 0, j = unit - 1; i < j; i++, j--) {
        char tmp = p[i];
        p[i] = p[j];
        p[j] = tmp;
    }
}

/* Row-major index -> byte offset of that element in a column-major (Fortran) layout. */
static size_t fortran_offset(const npy_header *h, const int64_t *idx, size_t item) {
    size_t off = 0, stride = item;
    for (size_t d = 0; d < h->rank; d++) {
        off += (size_t)idx[d] * stride;
        stride *= (size_t)h->dims[d];
    }
    return off;
}

static void next_index(const npy_header *h, int64_t *idx) {
    for (size_t d = h->rank; d-- > 0;) {
        if (++idx[d] < h->dims[d]) return;
        idx[d] = 0;
    }
}

static size_t utf8_encode(uint32_t cp, char *out) {
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) { out[0] = (char)(0xC0 | (cp >> 6)); out[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12)); out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F)); return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18)); out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); out[3] = (char)(0x80 | (cp & 0x3F)); return 4;
}

static uint32_t read_u32(const unsigned char *p, bool big) {
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static tx_status load_strings(const npy_header *h, const npy_type *ty, const char *data,
                              tx_tensor *t) {
    /* First pass: the UTF-8 size of every element (validating code points), then one storage. */
    size_t total = 0;
    int64_t idx[TX_MAX_RANK] = {0};
    bool big = ty->swap ? TX_HOST_LITTLE_ENDIAN : !TX_HOST_LITTLE_ENDIAN;
    for (int pass = 0; pass < 2; pass++) {
        char *bytes = NULL;
        if (pass == 1 && total) TX_TRY(tx__string_storage(t, total, &bytes));
        size_t pos = 0;
        memset(idx, 0, sizeof idx);
        tx_string *rec = (tx_string *)t->data;
        for (int64_t i = 0; i < t->numel; i++) {
            size_t off = h->fortran ? fortran_offset(h, idx, ty->item) : (size_t)i * ty->item;
            const unsigned char *e = (const unsigned char *)data + off;
            size_t len = 0;
            if (ty->str_kind == 'S') {
                len = ty->item;
                while (len && e[len - 1] == 0) len--;
                if (pass == 1 && len) memcpy(bytes + pos, e, len);
            } else {
                size_t ncp = ty->item / 4;
                while (ncp && read_u32(e + 4 * (ncp - 1), big) == 0) ncp--;
                for (size_t k = 0; k < ncp; k++) {
                    uint32_t cp = read_u32(e + 4 * k, big);
                    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                        return tx__fail(TX_INVALID_ARGUMENT,
                                        "npy: element %" PRId64 " holds invalid code point 0x%X", i, cp);
                    char tmp[4];
                    size_t w = utf8_encode(cp, tmp);
                    if (pass == 1) memcpy(bytes + pos + len, tmp, w);
                    len += w;
                }
            }
            if (pass == 0) {
                total += len;
            } else {
                rec[i].size = len;
                rec[i].data = len ? bytes + pos : "";
                pos += len;
            }
            if (h->fortran) next_index(h, idx);
        }
    }
    return TX_OK;
}

tx_status tx_npy_load_buffer(const void *buffer, size_t size, tx_tensor **out) {
    TX_REQUIRE_OUT("npy", out);
    *out = NULL;
    TX_REQUIRE(buffer != NULL || size == 0, TX_INVALID_ARGUMENT, "npy: data is NULL");
    const unsigned char *b = buffer;
    TX_REQUIRE(size >= 10 && memcmp(b, MAGIC, 6) == 0, TX_INVALID_ARGUMENT,
               "npy: not a .npy file (bad magic or shorter than 10 bytes)");
    unsigned major = b[6];
    TX_REQUIRE(major >= 1 && major <= 3, TX_INVALID_ARGUMENT, "npy: unsupported format version %u.%u",
               major, b[7]);
    size_t hlen, hstart;
    if (major == 1) {
        hlen = (size_t)b[8] | (size_t)b[9] << 8;
        hstart = 10;
    } else {
        TX_REQUIRE(size >= 12, TX_INVALID_ARGUMENT, "npy: truncated header length");
        hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
        hstart = 12;
    }
    TX_REQUIRE(hlen <= size - hstart, TX_INVALID_ARGUMENT,
               "npy: header claims %zu bytes, only %zu remain", hlen, size - hstart);
    npy_header h;
    TX_TRY(parse_header((const char *)b + hstart, hlen, &h));
    npy_type ty;
    TX_TRY(decode_descr(&h, &ty));
    int64_t numel;
    /* A shape whose product overflows cannot describe bytes that exist: the file lies. */
    TX_REQUIRE(tx__shape_numel("npy", "shape", h.rank, h.dims, &numel) == TX_OK,
               TX_INVALID_ARGUMENT, "npy: the number of elements of the shape overflows int64");
    size_t need;
    TX_REQUIRE((uint64_t)numel <= SIZE_MAX && !__builtin_mul_overflow((size_t)numel, ty.item, &need),
               TX_INVALID_ARGUMENT, "npy: data size overflows");
    size_t have = size - hstart - hlen;
    TX_REQUIRE(have == need, TX_INVALID_ARGUMENT,
               "npy: shape and descr need %zu data bytes, the file has %zu", need, have);
    const char *data = (const char *)b + hstart + hlen;

    tx_tensor *t;
    TX_TRY(tx__tensor_alloc("npy", ty.dtype, h.rank, h.dims, &t));
    if (ty.dtype == TX_STRING) {
        tx_status st = load_strings(&h, &ty, data, t);
        if (st != TX_OK) {
            tx_tensor_free(t);
            return st;
        }
        *out = t;
        return TX_OK;
    }
    if (!h.fortran || h.rank <= 1) {
        memcpy(t->data, data, need);
    } else {
        int64_t idx[TX_MAX_RANK] = {0};
        for (int64_t i = 0; i < numel; i++) {
            memcpy(t->data + (size_t)i * ty.item, data + fortran_offset(&h, idx, ty.item), ty.item);
            next_index(&h, idx);
        }
    }
    if (ty.swap && ty.swap_unit > 1)
        for (size_t off = 0; off < need; off += ty.swap_unit) swap_bytes(t->data + off, ty.swap_unit);
    if (ty.dtype == TX_BOOL) /* TF bools are 0 or 1 */
        for (int64_t i = 0; i < numel; i++) t->data[i] = t->data[i] != 0;
    *out = t;
    return TX_OK;
}

tx_status tx_npy_load(const char *path, tx_tensor **out) {
    TX_REQUIRE_OUT("npy", out);
    *out = NULL;
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "npy: path is NULL");
    FILE *f = fopen(path, "rb");
    TX_REQUIRE(f != NULL, TX_INVALID_ARGUMENT, "npy: cannot open '%s': %s", path, strerror(errno));
    char *buf = NULL;
    size_t size = 0, cap = 0;
    tx_status st = TX_OK;
    for (;;) {
        if (size == cap) {
            size_t ncap = cap ? cap * 2 : 1 << 16;
            char *nb = tx__alloc(ncap, "npy: reading file");
            if (nb == NULL) {
                st = TX_RESOURCE_EXHAUSTED;
                break;
            }
            if (size) memcpy(nb, buf, size);
            tx__free(buf, cap);
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + size, 1, cap - size, f);
        size += got;
        if (got == 0) {
            if (ferror(f)) st = tx__fail(TX_INVALID_ARGUMENT, "npy: error reading '%s'", path);
            break;
        }
    }
    fclose(f);
    if (st == TX_OK) st = tx_npy_load_buffer(buf, size, out);
    tx__free(buf, cap);
    return st;
}

/* ---- writing ------------------------------------------------------------------------------------ */

static tx_status build_header(const tx_tensor *t, char *hdr, size_t cap, size_t *hlen,
                              size_t *item, size_t *maxlen) {
    const tx__dtype_info *info = tx__dtype(t->dtype);
    char descr[96];
    *maxlen = 0;
    if (t->dtype == TX_STRING) {
        const tx_string *rec = (const tx_string *)t->data;
        for (int64_t i = 0; i < t->numel; i++)
            if (rec[i].size > *maxlen) *maxlen = (size_t)rec[i].size;
        *item = *maxlen ? *maxlen : 1;
        snprintf(descr, sizeof descr, "'|S%zu'", *item);
    } else if (info->npy_descr) {
        *item = info->size;
        snprintf(descr, sizeof descr, "'%s'", info->npy_descr);
    } else {
        *item = info->size;
        bool is_unsigned = t->dtype == TX_QUINT8 || t->dtype == TX_QUINT16 || t->dtype == TX_BFLOAT16;
        snprintf(descr, sizeof descr, "[('%s', '%c%c%zu')]", info->name, info->size == 1 ? '|' : '<',
                 is_unsigned ? 'u' : 'i', info->size);
    }
    size_t n = (size_t)snprintf(hdr, cap, "{'descr': %s, 'fortran_order': False, 'shape': (", descr);
    for (size_t d = 0; d < t->rank; d++) {
        if (n + 32 >= cap) return tx__fail(TX_INTERNAL, "npy: header too long");
        n += (size_t)snprintf(hdr + n, cap - n, t->rank == 1 ? "%" PRId64 "," : (d ? ", %" PRId64 : "%" PRId64),
                              t->dims[d]);
    }
    n += (size_t)snprintf(hdr + n, cap - n, "), }");
    *hlen = n;
    return TX_OK;
}

tx_status tx_npy_save_buffer(const tx_tensor *t, void **data, size_t *size) {
    static const char *op = "npy";
    TX_REQUIRE(data != NULL && size != NULL, TX_INVALID_ARGUMENT, "%s: data or size is NULL", op);
    *data = NULL;
    *size = 0;
    TX_REQUIRE_TENSOR(op, t, "tensor");
    char hdr[TX_MAX_RANK * 24 + 256];
    size_t hlen = 0, item = 0, maxlen = 0;
    TX_TRY(build_header(t, hdr, sizeof hdr, &hlen, &item, &maxlen));
    /* Version 1.0 takes a 16-bit header length; larger headers need 2.0.  The total header is
     * padded with spaces to a multiple of 64 and ends in '\n'. */
    size_t pre = 10;
    size_t total_hdr = (pre + hlen + 1 + 63) / 64 * 64;
    if (total_hdr - pre > 65535) {
        pre = 12;
        total_hdr = (pre + hlen + 1 + 63) / 64 * 64;
    }
    size_t body;
    TX_REQUIRE(!__builtin_mul_overflow((size_t)t->numel, item, &body) &&
                   body <= SIZE_MAX - total_hdr, TX_RESOURCE_EXHAUSTED, "%s: file size overflows", op);
    char *buf = tx__alloc(total_hdr + body, op);
    if (buf == NULL) return TX_RESOURCE_EXHAUSTED;
    memcpy(buf, MAGIC, 6);
    buf[6] = pre == 10 ? 1 : 2;
    buf[7] = 0;
    size_t field = total_hdr - pre;
    buf[8] = (char)(field & 0xFF);
    buf[9] = (char)(field >> 8 & 0xFF);
    if (pre == 12) {
        buf[10] = (char)(field >> 16 & 0xFF);
        buf[11] = (char)(field >> 24 & 0xFF);
    }
    memcpy(buf + pre, hdr, hlen);
    memset(buf + pre + hlen, ' ', total_hdr - pre - hlen - 1);
    buf[total_hdr - 1] = '\n';
    char *dst = buf + total_hdr;
    if (t->dtype == TX_STRING) {
        const tx_string *rec = (const tx_string *)t->data;
        memset(dst, 0, body);
        for (int64_t i = 0; i < t->numel; i++)
            if (rec[i].size) memcpy(dst + (size_t)i * item, rec[i].data, (size_t)rec[i].size);
    } else if (body) {
        memcpy(dst, t->data, body);
        if (!TX_HOST_LITTLE_ENDIAN) {
            const tx__dtype_info *info = tx__dtype(t->dtype);
            size_t unit = info->kind == TX_KIND_COMPLEX ? info->size / 2 : info->size;
            for (size_t off = 0; unit > 1 && off < body; off += unit) swap_bytes(dst + off, unit);
        }
    }
    *data = buf;
    *size = total_hdr + body;
    return TX_OK;
}

tx_status tx_npy_save(const char *path, const tx_tensor *t) {
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "npy: path is NULL");
    void *buf;
    size_t size;
    TX_TRY(tx_npy_save_buffer(t, &buf, &size));
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        tx__free(buf, size);
        return tx__fail(TX_INVALID_ARGUMENT, "npy: cannot create '%s': %s", path, strerror(errno));
    }
    size_t w = fwrite(buf, 1, size, f);
    int closed = fclose(f);
    tx__free(buf, size);
    TX_REQUIRE(w == size && closed == 0, TX_INVALID_ARGUMENT, "npy: error writing '%s'", path);
    return TX_OK;
}
