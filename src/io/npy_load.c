/* SPDX-License-Identifier: Apache-2.0 */
/* npy_load.c -- .npy reading from memory and from file descriptors: the data converted into the
 * tensor (byte order, Fortran order, bools, 4-bit values, 'S' and 'U' strings), or mapped in
 * place.  The header is npy_header.c's. */
#include "core/internal.h"
#include "core/byteorder.h"
#include "core/tuning.h"
#include "exec/byteswap.h"
#include "io/mmap_internal.h"
#include "io/npy_internal.h"
#include "io/zstream.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#if TX_NPY_POSIX
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

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
    /* ml_dtypes leaves the high bits unspecified: keep the value bits */
    if (tx__is_subbyte(h->dtype))
        tx__normalise_subbyte(h->dtype, t->data, t->numel);
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

/* The name a compressed .npy's messages give it, whichever loader reads it: the loaders' messages
 * are the same for the same bytes (checked by fuzz_npy), and none names its file. */
#define COMPRESSED_NPY "the compressed .npy"

/* A gzip'd or zlib'd .npy in memory: decompressed straight into the tensor (tx__npy_load_z). */
static tx_status load_buffer_compressed(const void *buffer, size_t size, tx__zformat zf,
                                        tx_tensor **out) {
    tx__zsource *z;
    TX_TRY(tx__zsource_open("npy", COMPRESSED_NPY, zf, buffer, size, &z));
    tx_status st = tx__npy_load_z(z, COMPRESSED_NPY, out);
    tx__zsource_close(z);
    return st;
}

tx_status tx_npy_load_buffer(const void *buffer, size_t size, tx_tensor **out) {
    TX_REQUIRE_OUT("npy", out);
    *out = NULL;
    TX_REQUIRE(buffer != NULL || size == 0, TX_INVALID_ARGUMENT, "npy: data is NULL");
    tx__zformat zf = tx__zformat_of(buffer, size);
    if (zf) return load_buffer_compressed(buffer, size, zf, out);
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

typedef struct {
    int fd;
    bool seekable;          /* a regular file: pread from pos; else read */
    uint64_t pos;           /* the next byte's offset (seekable) */
    tx__zsource *z;         /* set: the bytes are decompressed from z (never seekable) */
    unsigned char back[2];  /* bytes read ahead (the compression magic), given out first */
    size_t nback;
    char name[TX_FILE_NAME_CAP];
} npy_src;

/* Reads n bytes into buf, fewer only where the input ends; *got receives the count.  A read
 * error is invalid_argument naming the file, with errno kept. */
static tx_status src_read(npy_src *s, void *buf, size_t n, size_t *got) {
    size_t done = 0;
    if (s->z) return tx__zsource_read(s->z, buf, n, got);
    for (; s->nback > 0 && done < n; done++) {
        ((unsigned char *)buf)[done] = s->back[0];
        s->back[0] = s->back[1];
        s->nback--;
    }
    while (done < n) {
        size_t want = n - done < TX__NPY_IO_CHUNK ? n - done : TX__NPY_IO_CHUNK;
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
    tx_status drained = src_drain(s, &rest); /* a read error; data_loss from a stream */
    if (drained != TX_OK) return drained;
    if (read + rest != h->data_size) return tx__npy_wrong_size(h, read + rest);
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
                         : tx__npy_parse_header(buf, whole, UINT64_MAX, h);
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
        if (got < need) return tx__npy_wrong_size(h, got);
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
        if (st == TX_OK && got < n) st = tx__npy_wrong_size(h, done + got);
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
        if (got < n) return tx__npy_wrong_size(h, done + got);
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

static tx_status load_src(npy_src *src, uint64_t file_size, unsigned flags, tx_tensor **out);

/* The .npy in the decompressed stream z (its decompressed size is known to be `size`, or
 * UINT64_MAX): read front to back once, as a pipe is; the stream must end where the data end. */
static tx_status load_z(tx__zsource *z, const char *name, tx_tensor **out) {
    npy_src s = {.fd = -1, .z = z};
    snprintf(s.name, sizeof s.name, "%s", name);
    tx_status st = load_src(&s, UINT64_MAX, 0, out);
    if (st != TX_OK && st != TX_DATA_LOSS && st != TX_RESOURCE_EXHAUSTED && !tx__zsource_ended(z)) {
        /* A stream that stops early reports that rather than the short .npy it gives (not
         * memory that ran out: where it ran out, the rest was not read). */
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", tx_last_error());
        unsigned char probe;
        size_t got;
        TX_TRY(tx__zsource_read(z, &probe, 1, &got));
        if (got == 0 && !tx__zsource_ended(z)) st = TX_OK;
        else return tx__fail(st, "%s", msg);
    }
    if (st != TX_OK) return st;
    if (*out == NULL || !tx__zsource_ended(z)) {
        tx_tensor_free(*out);
        *out = NULL;
        return tx__fail(TX_DATA_LOSS, "npy: %s: truncated: the compressed stream stops before "
                        "its end", name);
    }
    return TX_OK;
}

tx_status tx__npy_load_z(tx__zsource *z, const char *name, tx_tensor **out) {
    *out = NULL;
    return load_z(z, name, out);
}

static tx_status pull_fd(void *ctx, void *buf, size_t cap, size_t *got) {
    return src_read(ctx, buf, cap, got);
}

/* A gzip'd or zlib'd .npy at s: decompressed as it is read (tx__zsource_open_pull). */
static tx_status load_compressed(npy_src *s, tx__zformat zf, tx_tensor **out) {
    tx__zsource *z;
    TX_TRY(tx__zsource_open_pull("npy", COMPRESSED_NPY, zf, pull_fd, s, &z));
    tx_status st = load_z(z, COMPRESSED_NPY, out);
    tx__zsource_close(z);
    return st;
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
    unsigned char magic[2];
    size_t got;
    TX_TRY(src_read(&s, magic, 2, &got));
    tx__zformat zf = tx__zformat_of(magic, got);
    if (s.seekable) s.pos -= got;
    else memcpy(s.back, magic, s.nback = got);
    if (zf) return load_compressed(&s, zf, out);
    return load_src(&s, file_size, flags, out);
}

/* The .npy at s: mapped when s is a regular file whose data can be used in place, else read. */
static tx_status load_src(npy_src *src, uint64_t file_size, unsigned flags, tx_tensor **out) {
    npy_src s = *src;
    uint64_t base = s.pos;
    int64_t dims[TX_MAX_RANK];
    tx_npy_info h = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    TX_TRY(src_header(&s, file_size, (flags & TX__NPY_EMPTY_IS_EOF) != 0, &h));
    if (s.seekable && !(flags & TX__NPY_READ) && usable_in_place(&h, base + h.data_offset) &&
        (h.data_size >= TX_NPY_MAP_MIN_BYTES || (flags & TX__NPY_MAP))) {
        int64_t numel; /* the tensor limit applies as to a tensor read into memory */
        TX_TRY(tx__check_output("npy", h.dtype, h.rank, h.dims, &numel));
        bool refused;
        tx_status st = tx__map_cow("npy", s.name, s.fd, base + h.data_offset, h.dtype, h.rank,
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
        if (st == TX_OK && extra) st = tx__npy_wrong_size(&h, h.data_size + extra);
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

tx_status tx__npy_load_z(tx__zsource *z, const char *name, tx_tensor **out) {
    (void)z;
    *out = NULL;
    return tx__fail(TX_UNIMPLEMENTED, "npy: %s: compressed .npy files need POSIX I/O", name);
}

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
