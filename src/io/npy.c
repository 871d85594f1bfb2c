/* SPDX-License-Identifier: Apache-2.0 */
/* npy.c -- .npy reading and writing (format versions 1.0, 2.0 and 3.0), safe on hostile input:
 * every length in the header is checked against the bytes actually present before any read.
 * Conventions for dtypes numpy lacks are described in tensorx.h. */
#define _DEFAULT_SOURCE 1 /* realpath */
#include "core/internal.h"
#include "core/byteorder.h"
#include "core/tuning.h"
#include "io/mmap_internal.h"
#include "io/npy_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#if TX_NPY_POSIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

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

/* tx__npy_parse without its last check: the header of b[0, have) (prefix checked against
 * file_size) into info, data_offset and data_size included, however many bytes follow. */
static tx_status parse_header(const unsigned char *b, size_t have, uint64_t file_size,
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

/* The rule every loader applies: exactly data_size bytes follow the header. */
static tx_status wrong_size(const tx_npy_info *info, uint64_t have) {
    return tx__fail(TX_INVALID_ARGUMENT,
                    "npy: shape and descr need %llu data bytes, the file has %llu",
                    (unsigned long long)info->data_size, (unsigned long long)have);
}

tx_status tx__npy_parse(const unsigned char *b, size_t have, uint64_t file_size,
                        tx_npy_info *info) {
    TX_TRY(parse_header(b, have, file_size, info));
    if (file_size - info->data_offset != info->data_size)
        return wrong_size(info, file_size - info->data_offset);
    return TX_OK;
}

/* ---- converting the data ---------------------------------------------------------------------
 * Every loader feeds the data in the file's order, in chunks of any size (a whole buffer, or
 * windows of a file); the walker gives each element's place in the row-major tensor. */

typedef struct {
    size_t rank;
    bool fortran;                 /* the file is column-major (and rank > 1) */
    int64_t dims[TX_MAX_RANK];
    int64_t stride[TX_MAX_RANK];  /* row-major strides, in elements */
    int64_t idx[TX_MAX_RANK];     /* the current element's index; dim 0 moves fastest */
    int64_t dst;                  /* its row-major position */
} walker;

/* Bounded: strides and positions are products of the dims of a tensor that has elements (the
 * walker is only advanced over elements), at most its element count. */
static void walk_init(walker *w, const tx_npy_info *h) {
    memset(w, 0, sizeof *w);
    w->rank = h->rank;
    w->fortran = h->fortran_order && h->rank > 1;
    int64_t numel = 1;
    for (size_t d = 0; d < h->rank; d++) numel = h->dims[d] ? numel : 0;
    for (size_t d = h->rank; d-- > 0;) {
        w->dims[d] = h->dims[d];
        w->stride[d] = numel ? (d + 1 < h->rank ? w->stride[d + 1] * h->dims[d + 1] : 1) : 0;
    }
}

static void walk_next(walker *w) {
    if (!w->fortran) {
        w->dst++;
        return;
    }
    for (size_t d = 0; d < w->rank; d++) {
        w->dst += w->stride[d];
        if (++w->idx[d] < w->dims[d]) return;
        w->dst -= w->stride[d] * w->dims[d];
        w->idx[d] = 0;
    }
}

/* Numeric elements of a Fortran-order file (n bytes, whole elements) to their row-major places. */
static void scatter(walker *w, char *dst, const char *src, size_t n, size_t item) {
    for (size_t k = 0; k < n; k += item) {
        memcpy(dst + (size_t)w->dst * item, src + k, item);
        walk_next(w);
    }
}

/* Numeric data in the tensor, as the file holds them, to host order and TF's values. */
static void finish_numeric(const tx_npy_info *h, tx_tensor *t) {
    size_t item = h->item_size, need = (size_t)h->data_size;
    /* Complex parts are swapped separately. */
    size_t unit = tx_dtype_kind_of(h->dtype) == TX_KIND_COMPLEX ? item / 2 : item;
    if (h->byte_swapped && unit > 1) tx__swap_units(t->data, need / unit, unit);
    if (h->dtype == TX_BOOL) /* TF bools are 0 or 1 */
        for (int64_t i = 0; i < t->numel; i++) t->data[i] = t->data[i] != 0;
    if (tx__is_4bit(h->dtype)) /* ml_dtypes leaves the high bits unspecified: keep the low nibble */
        tx__normalise_4bit(h->dtype, t->data, t->numel);
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

/* 'S' and 'U' elements to string records: an 'S' element is its bytes without the trailing
 * NULs, a 'U' element the UTF-8 of its code points without the trailing zeros.  STR_SIZES sets
 * each record's size (and checks the code points); STR_COPY then writes each element's bytes
 * where str_place pointed the records; STR_BOUNDED does both in one pass, into storage of the
 * data's size (which no element's output exceeds), for a source that can be read only once. */
typedef enum { STR_SIZES, STR_COPY, STR_BOUNDED } str_pass;

typedef struct {
    const tx_npy_info *h;
    tx_string *rec;
    str_pass pass;
    walker w;
    bool big;          /* 'U' units are big-endian */
    size_t in;         /* bytes of the current element seen */
    size_t run;        /* its output bytes so far */
    size_t len;        /* its output bytes up to its last non-NUL unit */
    bool bad;          /* it holds an invalid code point */
    int64_t bad_elem;  /* the first (row-major) element holding one, or -1; bad_cp the code point */
    uint32_t bad_cp;
    char *bytes;       /* STR_BOUNDED: the storage, pos bytes of it used */
    size_t pos;
    size_t total;      /* STR_SIZES: the sum of the sizes, at most the data size */
} str_reader;

static void str_start(str_reader *r, const tx_npy_info *h, tx_tensor *t, str_pass pass) {
    memset(r, 0, sizeof *r);
    r->h = h;
    r->rec = (tx_string *)t->data;
    r->pass = pass;
    walk_init(&r->w, h);
    r->big = h->byte_swapped ? TX_HOST_LITTLE_ENDIAN : !TX_HOST_LITTLE_ENDIAN;
    r->bad_elem = -1;
}

static void str_element_end(str_reader *r) {
    tx_string *e = &r->rec[r->w.dst];
    if (r->pass == STR_SIZES) {
        e->size = r->len;
        r->total += r->len;
    } else if (r->pass == STR_BOUNDED) {
        e->size = r->len;
        e->data = r->len ? r->bytes + r->pos : "";
        r->pos += r->len;
    }
    r->in = r->run = r->len = 0;
    r->bad = false;
    walk_next(&r->w);
}

/* n bytes of the data, continuing where the last chunk ended ('U': n is a multiple of 4).
 * Bounded: run and len stay within the element's item_size, pos + item_size within the data. */
static void str_feed(str_reader *r, const unsigned char *p, size_t n) {
    size_t item = r->h->item_size;
    while (n) {
        size_t take = n < item - r->in ? n : item - r->in;
        tx_string *e = &r->rec[r->w.dst];
        char *out = r->pass == STR_BOUNDED ? r->bytes + r->pos
                    : r->pass == STR_COPY  ? (char *)(uintptr_t)e->data
                                           : NULL;
        if (r->h->string_kind == 'S') {
            size_t keep = r->pass == STR_COPY ? (e->size > r->in ? (size_t)e->size - r->in : 0)
                                              : take;
            if (out && keep) memcpy(out + r->in, p, keep < take ? keep : take);
            for (size_t k = take; k-- > 0;)
                if (p[k]) {
                    r->len = r->in + k + 1;
                    break;
                }
        } else {
            for (size_t k = 0; k < take; k += 4) {
                uint32_t cp = read_u32(p + k, r->big);
                if (!r->bad && (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) {
                    r->bad = true;
                    if (r->bad_elem < 0 || r->w.dst < r->bad_elem) {
                        r->bad_elem = r->w.dst;
                        r->bad_cp = cp;
                    }
                }
                char tmp[4];
                size_t width = utf8_encode(cp, tmp);
                /* STR_COPY: within the size pass 1 measured, even if the file changed since */
                if (out && (r->pass == STR_BOUNDED || r->run + width <= e->size))
                    memcpy(out + r->run, tmp, width);
                r->run += width;
                if (cp) r->len = r->run;
            }
        }
        r->in += take;
        p += take;
        n -= take;
        if (r->in == item) str_element_end(r);
    }
}

/* After a STR_SIZES or STR_BOUNDED pass: the first invalid code point, as an error. */
static tx_status str_check(const str_reader *r) {
    if (r->bad_elem < 0) return TX_OK;
    return tx__fail(TX_INVALID_ARGUMENT, "npy: element %" PRId64 " holds invalid code point 0x%X",
                    r->bad_elem, r->bad_cp);
}

/* After STR_SIZES: one storage for all the bytes, the records pointing into it in row-major
 * order; then r is ready for STR_COPY. */
static tx_status str_place(str_reader *r, tx_tensor *t) {
    char *bytes = NULL;
    if (r->total) TX_TRY(tx__string_storage(t, r->total, &bytes));
    size_t pos = 0;
    for (int64_t i = 0; i < t->numel; i++) {
        r->rec[i].data = r->rec[i].size ? bytes + pos : "";
        pos += (size_t)r->rec[i].size;
    }
    str_start(r, r->h, t, STR_COPY);
    return TX_OK;
}

/* Elements of item size 0 are never fed: each is "". */
static void str_empty_items(const tx_npy_info *h, tx_tensor *t) {
    if (h->item_size != 0) return;
    tx_string *rec = (tx_string *)t->data;
    for (int64_t i = 0; i < t->numel; i++) rec[i].data = "";
}

/* ---- loading from memory --------------------------------------------------------------------- */

tx_status tx_npy_load_buffer(const void *buffer, size_t size, tx_tensor **out) {
    TX_REQUIRE_OUT("npy", out);
    *out = NULL;
    TX_REQUIRE(buffer != NULL || size == 0, TX_INVALID_ARGUMENT, "npy: data is NULL");
    int64_t dims[TX_MAX_RANK];
    tx_npy_info h = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    TX_TRY(tx__npy_parse(buffer, size, size, &h));
    const char *data = (const char *)buffer + h.data_offset;
    size_t need = (size_t)h.data_size;

    tx_tensor *t;
    TX_TRY(tx__tensor_alloc("npy", h.dtype, h.rank, h.dims, &t));
    if (h.dtype == TX_STRING) {
        str_reader r;
        str_start(&r, &h, t, STR_SIZES);
        str_feed(&r, (const unsigned char *)data, need);
        tx_status st = str_check(&r);
        if (st == TX_OK) st = str_place(&r, t);
        if (st != TX_OK) {
            tx_tensor_free(t);
            return st;
        }
        str_feed(&r, (const unsigned char *)data, need);
        str_empty_items(&h, t);
        *out = t;
        return TX_OK;
    }
    if (!h.fortran_order || h.rank <= 1) {
        memcpy(t->data, data, need);
    } else {
        walker w;
        walk_init(&w, &h);
        scatter(&w, t->data, data, need, h.item_size);
    }
    finish_numeric(&h, t);
    *out = t;
    return TX_OK;
}

/* ---- loading from a file descriptor ------------------------------------------------------------
 * A regular file whose data can be used in place is mapped (tx__map_cow: private, copy-on-write);
 * otherwise the header is read, the tensor allocated once and the data read straight into it,
 * converted in place (byte order, bools, 4-bit values) or through a window of
 * TX_NPY_WINDOW_BYTES (Fortran order, strings).  A stream (a pipe, or TX__NPY_AS_STREAM) is read
 * once, front to back. */
#if TX_NPY_POSIX

/* Header text longer than this is refused (numpy writes a few hundred bytes at most); it bounds
 * the header's buffer when the input is a stream whose size is unknown. */
#define MAX_HEADER_TEXT (16u << 20)

/* Larger reads are split (Linux moves at most 2 GiB - 4 KiB per call). */
#define IO_CHUNK ((size_t)1 << 30)

typedef struct {
    int fd;
    bool seekable;          /* a regular file: pread from pos; else read */
    uint64_t pos;           /* the next byte's offset (seekable) */
    char name[TX_FILE_NAME_CAP];
} npy_src;

/* Reads n bytes into buf, fewer only where the input ends; *got receives the count.  A read
 * error is invalid_argument naming the file, with errno kept. */
static tx_status src_read(npy_src *s, void *buf, size_t n, size_t *got) {
    size_t done = 0;
    while (done < n) {
        size_t want = n - done < IO_CHUNK ? n - done : IO_CHUNK;
        ssize_t r = s->seekable ? pread(s->fd, (char *)buf + done, want, (off_t)s->pos)
                                : read(s->fd, (char *)buf + done, want);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) {
            int err = errno;
            *got = done;
            tx__fail(TX_INVALID_ARGUMENT, "npy: cannot read %s: %s", s->name, strerror(err));
            errno = err;
            return TX_INVALID_ARGUMENT;
        }
        if (r == 0) break;
        done += (size_t)r;
        s->pos += (uint64_t)r;
    }
    *got = done;
    return TX_OK;
}

/* A stream's bytes from here to its end, counted and dropped (for a size error's count). */
static tx_status src_drain(npy_src *s, uint64_t *count) {
    unsigned char sink[1 << 16];
    *count = 0;
    for (;;) {
        size_t got;
        TX_TRY(src_read(s, sink, sizeof sink, &got));
        *count += got;
        if (got < sizeof sink) return TX_OK;
    }
}

/* A stream's load failed with st after `read` of its data bytes: the buffer loader checks the
 * size first, so a stream that does not hold exactly the data reports that instead. */
static tx_status stream_failed(npy_src *s, const tx_npy_info *h, tx_status st, uint64_t read) {
    if (s->seekable) return st;
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    uint64_t rest;
    if (src_drain(s, &rest) != TX_OK) return TX_INVALID_ARGUMENT;
    if (read + rest != h->data_size) return wrong_size(h, read + rest);
    return tx__fail(st, "%s", msg);
}

/* Reads the header; for a regular file also checks that exactly data_size bytes follow. */
static tx_status src_header(npy_src *s, uint64_t file_size, bool empty_is_eof, tx_npy_info *h) {
    unsigned char pre[12];
    size_t got, more = 0;
    /* The prefix is 10 bytes (1.0) or 12 (2.0, 3.0): a stream gives no byte past the header. */
    TX_TRY(src_read(s, pre, 10, &got));
    if (got == 0 && empty_is_eof)
        return tx__fail(TX_OUT_OF_RANGE, "npy: %s is empty (no bytes to read)", s->name);
    if (got == 10 && pre[6] >= 2) TX_TRY(src_read(s, pre + 10, 2, &more));
    got += more;
    bool ended = got < 10 || (pre[6] >= 2 && got < 12); /* a stream's size is known at its end */
    uint64_t known = s->seekable ? file_size : ended ? got : UINT64_MAX;
    size_t hstart;
    uint64_t hlen;
    TX_TRY(tx__npy_prefix(pre, got, known, &hstart, &hlen));
    if (hlen > MAX_HEADER_TEXT && !s->seekable) { /* the buffer loader's error if it is short */
        uint64_t rest;
        TX_TRY(src_drain(s, &rest));
        TX_TRY(tx__npy_prefix(pre, got, got + rest, &hstart, &hlen));
    }
    TX_REQUIRE(hlen <= MAX_HEADER_TEXT, TX_INVALID_ARGUMENT,
               "npy: header of %llu bytes is longer than %u", (unsigned long long)hlen,
               MAX_HEADER_TEXT);
    size_t whole = hstart + (size_t)hlen, rest;
    unsigned char *buf = tx__alloc(whole, "npy: header");
    if (buf == NULL) return TX_RESOURCE_EXHAUSTED;
    memcpy(buf, pre, hstart);
    tx_status st = src_read(s, buf + hstart, (size_t)hlen, &rest);
    if (st == TX_OK && rest < hlen) /* the input ended inside the header */
        st = tx__npy_prefix(buf, hstart + rest, hstart + rest, &hstart, &hlen);
    if (st == TX_OK)
        st = s->seekable ? tx__npy_parse(buf, whole, file_size, h)
                         : parse_header(buf, whole, UINT64_MAX, h);
    tx__free(buf, whole);
    return st;
}

/* Numeric data, read straight into the tensor (Fortran order through a window).  *read counts
 * the data bytes read. */
static tx_status src_numeric(npy_src *s, const tx_npy_info *h, tx_tensor *t, uint64_t *read) {
    size_t need = (size_t)h->data_size, got;
    *read = 0;
    if (!h->fortran_order || h->rank <= 1) {
        TX_TRY(src_read(s, t->data, need, &got));
        *read = got;
        if (got < need) return wrong_size(h, got);
        finish_numeric(h, t);
        return TX_OK;
    }
    /* A window of whole elements: TX_NPY_WINDOW_BYTES is a multiple of every item size. */
    size_t cap = need < TX_NPY_WINDOW_BYTES ? need : TX_NPY_WINDOW_BYTES;
    char *win = tx__alloc(cap, "npy: read window");
    if (win == NULL) return TX_RESOURCE_EXHAUSTED;
    walker w;
    walk_init(&w, h);
    tx_status st = TX_OK;
    for (size_t done = 0; st == TX_OK && done < need; done += got) {
        size_t n = need - done < cap ? need - done : cap;
        st = src_read(s, win, n, &got);
        *read += got;
        if (st == TX_OK && got < n) st = wrong_size(h, done + got);
        if (st == TX_OK) scatter(&w, t->data, win, n, h->item_size);
    }
    tx__free(win, cap);
    if (st == TX_OK) finish_numeric(h, t);
    return st;
}

/* One pass of the string conversion over the data, through a window. */
static tx_status src_strings_pass(npy_src *s, const tx_npy_info *h, str_reader *r, char *win,
                                  size_t cap, uint64_t *read) {
    size_t need = (size_t)h->data_size, got;
    *read = 0;
    for (size_t done = 0; done < need; done += got) {
        size_t n = need - done < cap ? need - done : cap;
        TX_TRY(src_read(s, win, n, &got));
        *read += got;
        if (got < n) return wrong_size(h, done + got);
        str_feed(r, (const unsigned char *)win, n);
    }
    return TX_OK;
}

/* 'S' / 'U' data: a regular file in two passes (sizes, then bytes into exact storage); a stream
 * in one, into storage of the data's size. */
static tx_status src_strings(npy_src *s, const tx_npy_info *h, tx_tensor *t, uint64_t *read) {
    size_t need = (size_t)h->data_size;
    uint64_t start = s->pos;
    *read = 0;
    /* A multiple of 4, so 'U' units never straddle two windows. */
    size_t cap = need < TX_NPY_WINDOW_BYTES ? need : TX_NPY_WINDOW_BYTES;
    char *win = cap ? tx__alloc(cap, "npy: read window") : NULL;
    if (cap && win == NULL) return TX_RESOURCE_EXHAUSTED;
    str_reader r;
    tx_status st = TX_OK;
    if (s->seekable) {
        str_start(&r, h, t, STR_SIZES);
        st = src_strings_pass(s, h, &r, win, cap, read);
        if (st == TX_OK) st = str_check(&r);
        if (st == TX_OK) st = str_place(&r, t);
        s->pos = start;
        if (st == TX_OK) st = src_strings_pass(s, h, &r, win, cap, read);
    } else {
        str_start(&r, h, t, STR_BOUNDED);
        if (need) st = tx__string_storage(t, need, &r.bytes);
        if (st == TX_OK) st = src_strings_pass(s, h, &r, win, cap, read);
        if (st == TX_OK) st = str_check(&r);
    }
    tx__free(win, cap);
    if (st == TX_OK) str_empty_items(h, t);
    return st;
}

/* The data can be used where they lie: numeric, row-major, host order (or 1-byte units), at an
 * offset aligned for the dtype. */
static bool usable_in_place(const tx_npy_info *h, uint64_t offset) {
    if (h->dtype == TX_STRING || (h->fortran_order && h->rank > 1)) return false;
    size_t unit = tx_dtype_kind_of(h->dtype) == TX_KIND_COMPLEX ? h->item_size / 2 : h->item_size;
    size_t align = h->item_size > 8 ? 8 : h->item_size;
    return (!h->byte_swapped || unit == 1) && offset % align == 0;
}

tx_status tx__npy_load_fd(int fd, const char *name, unsigned flags, tx_tensor **out) {
    *out = NULL;
    npy_src s = {.fd = fd};
    if (name) snprintf(s.name, sizeof s.name, "'%s'", name);
    else snprintf(s.name, sizeof s.name, "fd %d", fd);
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int err = errno;
        tx__fail(TX_INVALID_ARGUMENT, "npy: cannot read %s: %s", s.name, strerror(err));
        errno = err;
        return TX_INVALID_ARGUMENT;
    }
    if (S_ISDIR(sb.st_mode)) {
        tx__fail(TX_INVALID_ARGUMENT, "npy: cannot read %s: %s", s.name, strerror(EISDIR));
        errno = EISDIR;
        return TX_INVALID_ARGUMENT;
    }
    uint64_t file_size = UINT64_MAX;
    if (S_ISREG(sb.st_mode) && !(flags & TX__NPY_AS_STREAM)) {
        off_t cur = lseek(fd, 0, SEEK_CUR);
        if (cur >= 0) {
            s.seekable = true;
            s.pos = (uint64_t)cur;
            file_size = sb.st_size > cur ? (uint64_t)(sb.st_size - cur) : 0;
        }
    }
    uint64_t base = s.pos;
    int64_t dims[TX_MAX_RANK];
    tx_npy_info h = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    TX_TRY(src_header(&s, file_size, (flags & TX__NPY_EMPTY_IS_EOF) != 0, &h));
    if (s.seekable && !(flags & TX__NPY_READ) && usable_in_place(&h, base + h.data_offset) &&
        (h.data_size >= TX_NPY_MAP_MIN_BYTES || (flags & TX__NPY_MAP))) {
        int64_t numel; /* the tensor limit applies as to a tensor read into memory */
        TX_TRY(tx__check_output("npy", h.dtype, h.rank, h.dims, &numel));
        bool refused;
        tx_status st = tx__map_cow("npy", s.name, fd, base + h.data_offset, h.dtype, h.rank,
                                   h.dims, &refused, out);
        if (st == TX_OK || !refused) return st;
        /* The system would not map it (no mmap, address space, map count): read it. */
    }
    tx_tensor *t;
    tx_status st = tx__tensor_alloc("npy", h.dtype, h.rank, h.dims, &t);
    if (st != TX_OK) return stream_failed(&s, &h, st, 0);
    uint64_t read = 0;
    st = h.dtype == TX_STRING ? src_strings(&s, &h, t, &read) : src_numeric(&s, &h, t, &read);
    if (st == TX_OK && !s.seekable) { /* nothing may follow the data */
        uint64_t extra;
        st = src_drain(&s, &extra);
        if (st == TX_OK && extra) st = wrong_size(&h, h.data_size + extra);
    } else if (st != TX_OK && (st == TX_RESOURCE_EXHAUSTED || read == h.data_size)) {
        /* an allocation, or a code point after all the data: the size decides first */
        st = stream_failed(&s, &h, st, read);
    }
    if (st != TX_OK) {
        tx_tensor_free(t);
        return st;
    }
    *out = t;
    return TX_OK;
}

tx_status tx_npy_load_fd(int fd, tx_tensor **out) {
    TX_REQUIRE_OUT("npy", out);
    *out = NULL;
    TX_REQUIRE(fd >= 0, TX_INVALID_ARGUMENT, "npy: fd %d is not a file descriptor", fd);
    return tx__npy_load_fd(fd, NULL, TX__NPY_EMPTY_IS_EOF, out);
}

tx_status tx_npy_load(const char *path, tx_tensor **out) {
    TX_REQUIRE_OUT("npy", out);
    *out = NULL;
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "npy: path is NULL");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int err = errno;
        tx__fail(TX_INVALID_ARGUMENT, "npy: cannot open '%s': %s", path, strerror(err));
        errno = err;
        return TX_INVALID_ARGUMENT;
    }
    tx_status st = tx__npy_load_fd(fd, path, 0, out);
    int err = errno;
    close(fd); /* a mapping keeps the file */
    errno = err;
    return st;
}

#else /* no POSIX I/O: read the whole file, then parse it */

tx_status tx__npy_load_fd(int fd, const char *name, unsigned flags, tx_tensor **out) {
    (void)fd;
    (void)name;
    (void)flags;
    *out = NULL;
    return tx__fail(TX_UNIMPLEMENTED, "npy: this platform has no file descriptors");
}

tx_status tx_npy_load_fd(int fd, tx_tensor **out) {
    TX_REQUIRE_OUT("npy", out);
    return tx__npy_load_fd(fd, NULL, 0, out);
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
            if (ferror(f)) st = tx__fail(TX_INVALID_ARGUMENT, "npy: cannot read '%s'", path);
            break;
        }
    }
    fclose(f);
    if (st == TX_OK) st = tx_npy_load_buffer(buf, size, out);
    tx__free(buf, cap);
    return st;
}
#endif

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
        /* Float types without a NumPy dtype (bfloat16, float8) are stored as their bit patterns. */
        bool is_unsigned = dtype == TX_QUINT8 || dtype == TX_QUINT16 || dtype == TX_UINT4 ||
                           info->kind == TX_KIND_FLOAT;
        snprintf(descr, sizeof descr, "[('%s', '%c%c%zu')]", info->name, info->size == 1 ? '|' : '<',
                 is_unsigned ? 'u' : 'i', info->size);
    }
    /* numpy's own dict layout. */
    char text[TX_MAX_RANK * 24 + 256];
    size_t n = (size_t)snprintf(text, sizeof text, "{'descr': %s, 'fortran_order': False, 'shape': (", descr);
    for (size_t d = 0; d < rank; d++)
        n += (size_t)snprintf(text + n, sizeof text - n,
                              rank == 1 ? "%" PRId64 "," : (d ? ", %" PRId64 : "%" PRId64), dims[d]);
    n += (size_t)snprintf(text + n, sizeof text - n, "), }");
    /* Version 1.0 takes a 16-bit header length; larger headers need 2.0.  The total header is
     * padded with spaces to a multiple of 64 and ends in '\n'. */
    size_t pre = 10, total = (pre + n + 1 + 63) / 64 * 64;
    if (total - pre > 65535) {
        pre = 12;
        total = (pre + n + 1 + 63) / 64 * 64;
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

/* ---- saving to files -------------------------------------------------------------------------
 * The header, then the tensor's own bytes: contiguous data in large writes; conversions (string
 * records, byte swaps on a big-endian host) through a window of at most TX_NPY_WINDOW_BYTES. */

/* The 'S' item size tx_npy_save_buffer uses for a string tensor, and the data's byte count. */
static tx_status save_layout(const tx_tensor *t, size_t *item, size_t *body) {
    *item = tx_dtype_size(t->dtype);
    if (t->dtype == TX_STRING) { /* 'S<longest>', at least S1 as numpy writes */
        const tx_string *rec = (const tx_string *)t->data;
        *item = 1;
        for (int64_t i = 0; i < t->numel; i++)
            if (rec[i].size > *item) *item = (size_t)rec[i].size;
    }
    TX_REQUIRE(!__builtin_mul_overflow((size_t)t->numel, *item, body), TX_RESOURCE_EXHAUSTED,
               "npy: file size overflows");
    return TX_OK;
}

tx_status tx_npy_save_buffer(const tx_tensor *t, void **data, size_t *size) {
    static const char *op = "npy";
    TX_REQUIRE(data != NULL && size != NULL, TX_INVALID_ARGUMENT, "%s: data or size is NULL", op);
    *data = NULL;
    *size = 0;
    TX_REQUIRE_TENSOR(op, t, "tensor");
    size_t item, body;
    TX_TRY(save_layout(t, &item, &body));
    char hdr[TX_NPY_HEADER_MAX];
    size_t total_hdr = 0;
    TX_TRY(tx__npy_header(t->dtype, t->rank, t->dims, item, hdr, sizeof hdr, &total_hdr));
    TX_REQUIRE(body <= SIZE_MAX - total_hdr, TX_RESOURCE_EXHAUSTED, "%s: file size overflows", op);
    char *buf = tx__alloc(total_hdr + body, op);
    if (buf == NULL) return TX_RESOURCE_EXHAUSTED;
    memcpy(buf, hdr, total_hdr);
    char *dst = buf + total_hdr;
    if (t->dtype == TX_STRING) {
        const tx_string *rec = (const tx_string *)t->data;
        memset(dst, 0, body);
        for (int64_t i = 0; i < t->numel; i++)
            if (rec[i].size) memcpy(dst + (size_t)i * item, rec[i].data, (size_t)rec[i].size);
    } else if (body) {
        memcpy(dst, t->data, body);
        if (!TX_HOST_LITTLE_ENDIAN) { /* .npy data are little-endian, as the header says */
            size_t unit = tx_dtype_kind_of(t->dtype) == TX_KIND_COMPLEX ? item / 2 : item;
            if (unit > 1) tx__swap_units(dst, body / unit, unit);
        }
    }
    *data = buf;
    *size = total_hdr + body;
    return TX_OK;
}

#if TX_NPY_POSIX
typedef struct {
    int fd;
    const char *name;  /* "'path'" or "fd 3", for messages */
    char *win;         /* the conversion window (NULL when none is needed) */
    size_t cap, used;
} npy_sink;

/* Writes all n bytes (a write error, or a write of nothing, is invalid_argument with errno
 * kept). */
static tx_status sink_write(npy_sink *k, const void *p, size_t n) {
    const char *c = p;
    while (n) {
        ssize_t w = write(k->fd, c, n < IO_CHUNK ? n : IO_CHUNK);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            int err = w < 0 ? errno : EIO;
            tx__fail(TX_INVALID_ARGUMENT, "npy: cannot write %s: %s", k->name, strerror(err));
            errno = err;
            return TX_INVALID_ARGUMENT;
        }
        c += w;
        n -= (size_t)w;
    }
    return TX_OK;
}

static tx_status sink_flush(npy_sink *k) {
    tx_status st = sink_write(k, k->win, k->used);
    k->used = 0;
    return st;
}

/* n bytes through the window: p's bytes, or zeros when p is NULL. */
static tx_status sink_put(npy_sink *k, const char *p, size_t n) {
    while (n) {
        if (k->used == k->cap) TX_TRY(sink_flush(k));
        size_t m = n < k->cap - k->used ? n : k->cap - k->used;
        if (p) memcpy(k->win + k->used, p, m);
        else memset(k->win + k->used, 0, m);
        k->used += m;
        n -= m;
        if (p) p += m;
    }
    return TX_OK;
}

/* The whole .npy of t to k->fd at its position. */
static tx_status save_to(npy_sink *k, const tx_tensor *t) {
    size_t item, body, hlen;
    TX_TRY(save_layout(t, &item, &body));
    char hdr[TX_NPY_HEADER_MAX];
    TX_TRY(tx__npy_header(t->dtype, t->rank, t->dims, item, hdr, sizeof hdr, &hlen));
    size_t unit = tx_dtype_kind_of(t->dtype) == TX_KIND_COMPLEX ? item / 2 : item;
    bool convert = t->dtype == TX_STRING || (!TX_HOST_LITTLE_ENDIAN && unit > 1);
    if (!convert || body == 0) {
        TX_TRY(sink_write(k, hdr, hlen));
        return sink_write(k, t->data, body);
    }
    /* A multiple of the unit, so that no element's swap straddles two windows. */
    k->cap = body < TX_NPY_WINDOW_BYTES ? body : TX_NPY_WINDOW_BYTES;
    k->win = tx__alloc(k->cap, "npy: write window");
    if (k->win == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = sink_write(k, hdr, hlen);
    if (t->dtype == TX_STRING) {
        const tx_string *rec = (const tx_string *)t->data;
        for (int64_t i = 0; st == TX_OK && i < t->numel; i++) {
            st = sink_put(k, rec[i].data, (size_t)rec[i].size);
            if (st == TX_OK) st = sink_put(k, NULL, item - (size_t)rec[i].size);
        }
    } else { /* .npy data are little-endian, as the header says */
        for (size_t done = 0; st == TX_OK && done < body; done += k->used) {
            k->used = body - done < k->cap ? body - done : k->cap;
            memcpy(k->win, t->data + done, k->used);
            tx__swap_units(k->win, k->used / unit, unit);
            st = sink_write(k, k->win, k->used);
        }
        k->used = 0;
    }
    if (st == TX_OK) st = sink_flush(k);
    int err = errno;
    tx__free(k->win, k->cap);
    k->win = NULL;
    errno = err;
    return st;
}

tx_status tx_npy_save_fd(int fd, const tx_tensor *t) {
    TX_REQUIRE(fd >= 0, TX_INVALID_ARGUMENT, "npy: fd %d is not a file descriptor", fd);
    TX_REQUIRE_TENSOR("npy", t, "tensor");
    char name[32];
    snprintf(name, sizeof name, "fd %d", fd);
    npy_sink k = {.fd = fd, .name = name};
    return save_to(&k, t);
}

/* Where tx_npy_save writes: a temporary file beside path, renamed over it at the end, when path
 * is a regular file (or a link to one: the file it ends at) or names none; path itself otherwise
 * (a device, a FIFO, a link to one). */
static tx_status save_file(const char *path, const char *name, const tx_tensor *t) {
    struct stat sb, to;
    bool exists = lstat(path, &sb) == 0, in_place = exists && !S_ISREG(sb.st_mode);
    /* A link to a regular file: that file is replaced through a temporary one beside it, like
     * any regular file (opening the link with O_TRUNC would empty a file that may be the very
     * input being saved, still mapped). */
    char *real = exists && S_ISLNK(sb.st_mode) && stat(path, &to) == 0 && S_ISREG(to.st_mode)
                     ? realpath(path, NULL)
                     : NULL;
    if (real != NULL) {
        tx_status st = save_file(real, name, t);
        free(real);
        return st;
    }
    if (in_place && S_ISDIR(sb.st_mode)) {
        tx__fail(TX_INVALID_ARGUMENT, "npy: cannot write %s: %s", name, strerror(EISDIR));
        errno = EISDIR;
        return TX_INVALID_ARGUMENT;
    }
    char *tmp = NULL;
    size_t tmp_cap = 0;
    int fd;
    if (in_place) {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    } else {
        /* Beside path, so the rename stays in one file system; a short name, so it fits. */
        static _Atomic unsigned serial;
        const char *slash = strrchr(path, '/');
        size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
        tmp_cap = dir + 64;
        tmp = tx__alloc(tmp_cap, "npy: temporary name");
        if (tmp == NULL) return TX_RESOURCE_EXHAUSTED;
        fd = -1;
        errno = EEXIST;
        for (int tries = 0; fd < 0 && errno == EEXIST && tries < 100; tries++) {
            snprintf(tmp, tmp_cap, "%.*s.tx-save-%ld-%u.npy.tmp", (int)dir, path, (long)getpid(),
                     atomic_fetch_add(&serial, 1));
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        }
        /* A replaced file keeps its permissions (umask applies to a new one). */
        if (fd >= 0 && exists) (void)fchmod(fd, sb.st_mode & 07777);
    }
    if (fd < 0) {
        int err = errno;
        tx__free(tmp, tmp_cap);
        tx__fail(TX_INVALID_ARGUMENT, "npy: cannot create %s: %s", name, strerror(err));
        errno = err;
        return TX_INVALID_ARGUMENT;
    }
    npy_sink k = {.fd = fd, .name = name};
    tx_status st = save_to(&k, t);
    int err = errno;
    if (close(fd) != 0 && st == TX_OK) {
        err = errno;
        st = tx__fail(TX_INVALID_ARGUMENT, "npy: cannot write %s: %s", name, strerror(err));
    }
    if (st == TX_OK && tmp && rename(tmp, path) != 0) {
        err = errno;
        st = tx__fail(TX_INVALID_ARGUMENT, "npy: cannot write %s: %s", name, strerror(err));
    }
    if (st != TX_OK && tmp) unlink(tmp);
    tx__free(tmp, tmp_cap);
    errno = err;
    return st;
}

tx_status tx_npy_save(const char *path, const tx_tensor *t) {
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "npy: path is NULL");
    TX_REQUIRE_TENSOR("npy", t, "tensor");
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
    return save_file(path, name, t);
}

#else /* no POSIX I/O: the buffer, written with stdio */

tx_status tx_npy_save_fd(int fd, const tx_tensor *t) {
    (void)fd;
    (void)t;
    return tx__fail(TX_UNIMPLEMENTED, "npy: this platform has no file descriptors");
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
    TX_REQUIRE(w == size && closed == 0, TX_INVALID_ARGUMENT, "npy: cannot write '%s'", path);
    return TX_OK;
}
#endif
