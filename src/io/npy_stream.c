/* npy_stream.c -- .npy headers on their own, for reading and writing files piecewise: the CLI's
 * streaming of decode_raw / cast / bitcast over files larger than memory reads a header with
 * tx_npy_read_info, maps windows of the data with tx_file_map, and writes its output as
 * tx_npy_write_header followed by the data chunk by chunk.  The rules are tx_npy_load's and
 * tx_npy_save's (src/io/npy.c): the same accepted header grammar, the same descr conventions, and
 * byte-identical headers on output. */
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/stat.h>

static const char MAGIC[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* Header text longer than this is refused (numpy writes a few hundred bytes at most). */
#define MAX_HEADER_TEXT (16u << 20)

/* ---- the header's Python dict literal ---------------------------------------------------------- */

typedef struct {
    const char *p, *end;
} cur;

static void ws(cur *c) {
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static bool eat(cur *c, char ch) {
    ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

static bool word(cur *c, const char *w) {
    ws(c);
    size_t n = strlen(w);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, w, n) != 0) return false;
    c->p += n;
    return true;
}

/* A quoted string without escapes, into buf (NUL-terminated). */
static bool quoted(cur *c, char *buf, size_t cap) {
    ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"')) return false;
    char q = *c->p++;
    size_t n = 0;
    for (; c->p < c->end && *c->p != q; c->p++) {
        if (*c->p == '\\' || n + 1 >= cap) return false;
        buf[n++] = *c->p;
    }
    if (c->p >= c->end) return false;
    c->p++;
    buf[n] = '\0';
    return true;
}

static bool integer(cur *c, int64_t *v) {
    ws(c);
    const char *s = c->p;
    int64_t x = 0;
    for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++)
        if (!tx__mul_i64(x, 10, &x) || !tx__add_i64(x, *c->p - '0', &x)) return false;
    if (c->p < c->end && *c->p == 'L') c->p++; /* Python 2 longs */
    *v = x;
    return c->p > s;
}

typedef struct {
    char descr[64], field[64];
    int fortran;
    bool has_descr, has_shape;
} raw_header;

static tx_status malformed(const char *what) {
    return tx__fail(TX_INVALID_ARGUMENT, "npy: malformed header: %s", what);
}

static tx_status parse_dict(const char *text, size_t len, raw_header *h, tx_npy_info *info) {
    cur c = {text, text + len};
    h->fortran = -1;
    if (!eat(&c, '{')) return malformed("expected '{'");
    while (!eat(&c, '}')) {
        char key[32];
        if (!quoted(&c, key, sizeof key)) return malformed("expected a quoted key");
        if (!eat(&c, ':')) return malformed("expected ':' after a key");
        if (!strcmp(key, "descr") && !h->has_descr) {
            if (eat(&c, '[')) { /* tensorx's one-field convention: [('bfloat16', '<u2')] */
                if (!eat(&c, '(') || !quoted(&c, h->field, sizeof h->field) || !eat(&c, ',') ||
                    !quoted(&c, h->descr, sizeof h->descr))
                    return malformed("descr list must hold one (name, type) tuple");
                eat(&c, ',');
                if (!eat(&c, ')')) return malformed("descr tuple must hold a name and a type only");
                eat(&c, ',');
                if (!eat(&c, ']')) return malformed("descr list must hold exactly one field");
                if (!h->field[0]) return malformed("descr field name is empty");
            } else if (!quoted(&c, h->descr, sizeof h->descr)) {
                return malformed("descr must be a type string");
            }
            h->has_descr = true;
        } else if (!strcmp(key, "fortran_order") && h->fortran < 0) {
            if (word(&c, "True")) h->fortran = 1;
            else if (word(&c, "False")) h->fortran = 0;
            else return malformed("fortran_order must be True or False");
        } else if (!strcmp(key, "shape") && !h->has_shape) {
            if (!eat(&c, '(')) return malformed("shape must be a tuple");
            while (!eat(&c, ')')) {
                TX_REQUIRE(info->rank < TX_MAX_RANK, TX_INVALID_ARGUMENT,
                           "npy: shape has more than %d dims", TX_MAX_RANK);
                if (!integer(&c, &info->dims[info->rank]))
                    return malformed("shape entries must be non-negative integers");
                info->rank++;
                if (!eat(&c, ',')) {
                    if (!eat(&c, ')')) return malformed("expected ',' or ')' in shape");
                    break;
                }
            }
            h->has_shape = true;
        } else {
            return tx__fail(TX_INVALID_ARGUMENT,
                            "npy: malformed header: unexpected or repeated key '%s'", key);
        }
        if (!eat(&c, ',')) {
            if (!eat(&c, '}')) return malformed("expected ',' or '}'");
            break;
        }
    }
    ws(&c);
    if (c.p != c.end) return malformed("trailing characters after the dict");
    if (!h->has_descr || h->fortran < 0 || !h->has_shape)
        return malformed("descr, fortran_order and shape are required");
    return TX_OK;
}

/* descr -> dtype, item size, byte order, as tx_npy_load reads them. */
static tx_status decode(const raw_header *h, tx_npy_info *info) {
    const char *d = h->descr;
    char order = d[0];
    TX_REQUIRE(order == '<' || order == '>' || order == '|' || order == '=', TX_INVALID_ARGUMENT,
               "npy: descr '%s' has no byte-order character", d);
    bool little = order == '<' || order == '|' || (order == '=' && TX_HOST_LITTLE_ENDIAN);
    info->byte_swapped = little != (bool)TX_HOST_LITTLE_ENDIAN;
    char kind = d[1];
    int64_t n = 0;
    cur c = {d + 2, d + strlen(d)};
    TX_REQUIRE(kind != '\0' && integer(&c, &n) && c.p == c.end, TX_INVALID_ARGUMENT,
               "npy: descr '%s' has no valid item size", d);
    if (kind == 'S' || kind == 'U') {
        TX_REQUIRE(!h->field[0], TX_INVALID_ARGUMENT, "npy: structured string descr is not supported");
        int64_t unit = kind == 'U' ? 4 : 1;
        TX_REQUIRE(n <= (int64_t)(SIZE_MAX / 8) / unit, TX_INVALID_ARGUMENT,
                   "npy: string item size %" PRId64 " is too large", n);
        info->dtype = TX_STRING;
        info->string_kind = kind;
        info->item_size = (size_t)(n * unit);
        return TX_OK;
    }
    for (size_t i = 0; i < tx__dtype_count(); i++) {
        const tx__dtype_info *t = tx__dtype_at(i);
        if (h->field[0]) {
            if (strcmp(t->name, h->field) != 0 || t->kind == TX_KIND_STRING) continue;
            TX_REQUIRE((kind == 'u' || kind == 'i') && (size_t)n == t->size, TX_INVALID_ARGUMENT,
                       "npy: field '%s' must be stored as i%zu or u%zu, got '%s'", h->field,
                       t->size, t->size, d);
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
        return tx__fail(TX_INVALID_ARGUMENT, "npy: structured dtype with field '%s' is not supported",
                        h->field);
    return tx__fail(TX_INVALID_ARGUMENT, "npy: descr '%s' is not supported", d);
}

/* ---- reading ----------------------------------------------------------------------------------- */

static tx_status read_info(FILE *f, const char *path, tx_npy_info *info) {
    unsigned char pre[12];
    size_t got = fread(pre, 1, sizeof pre, f);
    TX_REQUIRE(got >= 10 && memcmp(pre, MAGIC, 6) == 0, TX_INVALID_ARGUMENT,
               "npy: '%s' is not a .npy file (bad magic or shorter than 10 bytes)", path);
    unsigned major = pre[6];
    TX_REQUIRE(major >= 1 && major <= 3, TX_INVALID_ARGUMENT, "npy: unsupported format version %u.%u",
               major, pre[7]);
    size_t start = major == 1 ? 10 : 12;
    TX_REQUIRE(got >= start, TX_INVALID_ARGUMENT, "npy: truncated header length");
    uint64_t hlen = major == 1 ? (uint64_t)pre[8] | (uint64_t)pre[9] << 8
                               : (uint64_t)pre[8] | (uint64_t)pre[9] << 8 |
                                     (uint64_t)pre[10] << 16 | (uint64_t)pre[11] << 24;
    struct stat sb;
    TX_REQUIRE(fstat(fileno(f), &sb) == 0, TX_INVALID_ARGUMENT, "npy: cannot stat '%s': %s", path,
               strerror(errno));
    uint64_t fsize = (uint64_t)sb.st_size;
    TX_REQUIRE(S_ISREG(sb.st_mode), TX_INVALID_ARGUMENT, "npy: '%s' is not a regular file", path);
    TX_REQUIRE(hlen <= fsize - start, TX_INVALID_ARGUMENT,
               "npy: header claims %llu bytes, only %llu remain", (unsigned long long)hlen,
               (unsigned long long)(fsize - start));
    TX_REQUIRE(hlen <= MAX_HEADER_TEXT, TX_INVALID_ARGUMENT,
               "npy: header of %llu bytes is longer than %u", (unsigned long long)hlen,
               MAX_HEADER_TEXT);
    char *text = tx__alloc((size_t)hlen, "npy: header");
    if (text == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = TX_OK;
    if (fseek(f, (long)start, SEEK_SET) != 0 || fread(text, 1, (size_t)hlen, f) != hlen)
        st = tx__fail(TX_INVALID_ARGUMENT, "npy: error reading the header of '%s'", path);
    raw_header h;
    memset(&h, 0, sizeof h);
    if (st == TX_OK) st = parse_dict(text, (size_t)hlen, &h, info);
    tx__free(text, (size_t)hlen);
    TX_TRY(st);
    TX_TRY(decode(&h, info));
    info->fortran_order = h.fortran;
    int64_t numel;
    TX_REQUIRE(tx__shape_numel("npy", "shape", info->rank, info->dims, &numel) == TX_OK,
               TX_INVALID_ARGUMENT, "npy: the number of elements of the shape overflows int64");
    TX_REQUIRE(!__builtin_mul_overflow((uint64_t)numel, (uint64_t)info->item_size,
                                       &info->data_size),
               TX_INVALID_ARGUMENT, "npy: data size overflows");
    info->data_offset = start + hlen;
    TX_REQUIRE(fsize - info->data_offset == info->data_size, TX_INVALID_ARGUMENT,
               "npy: shape and descr need %llu data bytes, the file has %llu",
               (unsigned long long)info->data_size,
               (unsigned long long)(fsize - info->data_offset));
    return TX_OK;
}

tx_status tx_npy_read_info(const char *path, tx_npy_info *info) {
    TX_REQUIRE(path != NULL && info != NULL, TX_INVALID_ARGUMENT, "npy: path or info is NULL");
    memset(info, 0, sizeof *info);
    FILE *f = fopen(path, "rb");
    TX_REQUIRE(f != NULL, TX_INVALID_ARGUMENT, "npy: cannot open '%s': %s", path, strerror(errno));
    tx_status st = read_info(f, path, info);
    fclose(f);
    if (st != TX_OK) memset(info, 0, sizeof *info);
    return st;
}

/* ---- writing ----------------------------------------------------------------------------------- */

tx_status tx_npy_write_header(tx_dtype dtype, size_t rank, const int64_t *dims, void *buf,
                              size_t cap, size_t *len) {
    static const char *op = "npy";
    TX_REQUIRE(buf != NULL && len != NULL, TX_INVALID_ARGUMENT, "%s: buf or len is NULL", op);
    *len = 0;
    const tx__dtype_info *info = tx__dtype(dtype);
    TX_REQUIRE(info != NULL, TX_INVALID_ARGUMENT, "%s: unknown dtype %d", op, (int)dtype);
    TX_REQUIRE(dtype != TX_STRING, TX_UNIMPLEMENTED,
               "%s: a string header depends on the longest string; use tx_npy_save", op);
    TX_REQUIRE(rank <= TX_MAX_RANK, TX_INVALID_ARGUMENT, "%s: rank %zu exceeds the maximum of %d",
               op, rank, TX_MAX_RANK);
    TX_REQUIRE(rank == 0 || dims != NULL, TX_INVALID_ARGUMENT, "%s: dims is NULL", op);
    for (size_t d = 0; d < rank; d++)
        TX_REQUIRE(dims[d] >= 0, TX_INVALID_ARGUMENT, "%s: dims[%zu] = %" PRId64 " is negative", op,
                   d, dims[d]);
    /* The same text tx_npy_save writes: numpy's own dict layout. */
    char text[TX_MAX_RANK * 24 + 256];
    char descr[96];
    if (info->npy_descr) {
        snprintf(descr, sizeof descr, "'%s'", info->npy_descr);
    } else {
        bool is_unsigned = dtype == TX_QUINT8 || dtype == TX_QUINT16 || dtype == TX_BFLOAT16;
        snprintf(descr, sizeof descr, "[('%s', '%c%c%zu')]", info->name,
                 info->size == 1 ? '|' : '<', is_unsigned ? 'u' : 'i', info->size);
    }
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{'descr': %s, 'fortran_order': False, 'shape': (", descr);
    for (size_t d = 0; d < rank; d++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              rank == 1 ? "%" PRId64 "," : (d ? ", %" PRId64 : "%" PRId64), dims[d]);
    n += (size_t)snprintf(text + n, sizeof text - n, "), }");
    size_t pre = 10, total = (pre + n + 1 + 63) / 64 * 64;
    if (total - pre > 65535) {
        pre = 12;
        total = (pre + n + 1 + 63) / 64 * 64;
    }
    TX_REQUIRE(total <= cap, TX_INVALID_ARGUMENT, "%s: the header needs %zu bytes, cap is %zu", op,
               total, cap);
    unsigned char *b = buf;
    size_t field = total - pre;
    memcpy(b, MAGIC, 6);
    b[6] = pre == 10 ? 1 : 2;
    b[7] = 0;
    b[8] = (unsigned char)(field & 0xFF);
    b[9] = (unsigned char)(field >> 8 & 0xFF);
    if (pre == 12) {
        b[10] = (unsigned char)(field >> 16 & 0xFF);
        b[11] = (unsigned char)(field >> 24 & 0xFF);
    }
    memcpy(b + pre, text, n);
    memset(b + pre + n, ' ', total - pre - n - 1);
    b[total - 1] = '\n';
    *len = total;
    return TX_OK;
}
