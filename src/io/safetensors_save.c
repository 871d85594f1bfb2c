/* SPDX-License-Identifier: Apache-2.0 */
/* safetensors_save.c -- writing safetensors files (tx_safetensors_save, _save_buffer) with the
 * bytes the safetensors crate's serialize writes: tensors ordered by dtype (the crate's Dtype
 * enum, last first) then name, the header as serde_json writes it (compact, its string escapes)
 * padded with spaces to a multiple of 8, then each tensor's little-endian bytes (F4 and F6
 * packed).  Files are replaced whole or not at all (file_replace.c). */
#include "exec/byteswap.h"
#include "exec/packed.h"
#include "io/json.h"
#include "io/mmap_internal.h"
#include "io/safetensors_internal.h"
#include "io/file_replace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* Conversions (packing, byte swaps) go through a window of this many bytes. */
#define ST_WINDOW ((size_t)1 << 20)

typedef struct {
    const char *op;
    size_t count, nmeta;
    const char *const *names;
    const tx_tensor *const *tensors;
    const char *const *meta; /* key, value pairs */
    size_t *order;           /* tensor indices in file order */
    char *header;            /* the 8-byte length, then the padded JSON */
    size_t header_size;
    uint64_t data_size;
} st_plan;

static _Thread_local const st_plan *sort_plan; /* qsort has no context argument */

static int file_order(const void *a, const void *b) {
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    unsigned oi = tx__st_dtype_of(sort_plan->tensors[i]->dtype)->order;
    unsigned oj = tx__st_dtype_of(sort_plan->tensors[j]->dtype)->order;
    if (oi != oj) return oi > oj ? -1 : 1;
    return strcmp(sort_plan->names[i], sort_plan->names[j]);
}

static int by_string(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Names of the strings at s[0], s[step], ... (n of them) must be distinct. */
static tx_status distinct(const st_plan *pl, const char *const *s, size_t n, size_t step,
                          const char *what) {
    if (n < 2) return TX_OK;
    const char **v = tx__calloc_array(n, sizeof *v, pl->op);
    if (v == NULL) return TX_RESOURCE_EXHAUSTED;
    for (size_t i = 0; i < n; i++) v[i] = s[i * step];
    qsort(v, n, sizeof *v, by_string);
    tx_status st = TX_OK;
    for (size_t i = 1; st == TX_OK && i < n; i++)
        if (strcmp(v[i], v[i - 1]) == 0)
            st = tx__fail(TX_INVALID_ARGUMENT, "%s: %s \"%s\" appears twice", pl->op, what, v[i]);
    tx__free(v, n * sizeof *v);
    return st;
}

static tx_status check_text(const st_plan *pl, const char *s, const char *what, size_t i) {
    TX_REQUIRE(s != NULL, TX_INVALID_ARGUMENT, "%s: %s[%zu] is NULL", pl->op, what, i);
    size_t bad;
    TX_REQUIRE(tx__utf8_valid((const unsigned char *)s, strlen(s), &bad), TX_INVALID_ARGUMENT,
               "%s: %s[%zu] is not valid UTF-8 (byte %zu)", pl->op, what, i, bad);
    return TX_OK;
}

static tx_status check_inputs(st_plan *pl) {
    TX_REQUIRE(pl->count == 0 || (pl->names != NULL && pl->tensors != NULL), TX_INVALID_ARGUMENT,
               "%s: names or tensors is NULL with count %zu", pl->op, pl->count);
    TX_REQUIRE(pl->nmeta == 0 || pl->meta != NULL, TX_INVALID_ARGUMENT,
               "%s: metadata is NULL with metadata_count %zu", pl->op, pl->nmeta);
    for (size_t i = 0; i < pl->count; i++) {
        TX_TRY(check_text(pl, pl->names[i], "names", i));
        TX_REQUIRE(strcmp(pl->names[i], "__metadata__") != 0, TX_INVALID_ARGUMENT,
                   "%s: names[%zu] is \"__metadata__\", the format's metadata entry", pl->op, i);
        const tx_tensor *t = pl->tensors[i];
        TX_REQUIRE(t != NULL, TX_INVALID_ARGUMENT, "%s: tensors[%zu] is NULL", pl->op, i);
        const tx__st_dtype *d = tx__st_dtype_of(t->dtype);
        TX_REQUIRE(d != NULL, TX_UNIMPLEMENTED, "%s: tensors[%zu] (\"%s\") is %s, which "
                   "safetensors has no dtype for", pl->op, i, pl->names[i],
                   tx_dtype_name(t->dtype));
        TX_REQUIRE((uint64_t)t->numel * d->bits % 8 == 0, TX_INVALID_ARGUMENT,
                   "%s: tensors[%zu] (\"%s\"): %lld elements of %s (%u bits) do not fill whole "
                   "bytes, which the format needs", pl->op, i, pl->names[i],
                   (long long)t->numel, d->name, d->bits);
        pl->data_size += (uint64_t)t->numel * d->bits / 8;
    }
    for (size_t i = 0; i < 2 * pl->nmeta; i++)
        TX_TRY(check_text(pl, pl->meta[i], "metadata", i));
    TX_TRY(distinct(pl, pl->names, pl->count, 1, "tensor name"));
    return distinct(pl, pl->meta, pl->nmeta, 2, "metadata key");
}

/* Appends (or, with o NULL, counts) s as serde_json writes a string. */
static size_t put_string(char *o, const char *s) {
    size_t n = 0;
    if (o) o[n] = '"';
    n++;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        char esc = *c == '"' ? '"' : *c == '\\' ? '\\' : *c == '\b' ? 'b' : *c == '\f' ? 'f'
                   : *c == '\n' ? 'n' : *c == '\r' ? 'r' : *c == '\t' ? 't' : 0;
        char tmp[8];
        size_t k;
        if (esc) k = (size_t)snprintf(tmp, sizeof tmp, "\\%c", esc);
        else if (*c < 0x20) k = (size_t)snprintf(tmp, sizeof tmp, "\\u%04x", *c);
        else tmp[0] = (char)*c, k = 1;
        if (o) memcpy(o + n, tmp, k);
        n += k;
    }
    if (o) o[n] = '"';
    return n + 1;
}

static size_t put_text(char *o, const char *s) {
    size_t n = strlen(s);
    if (o) memcpy(o, s, n);
    return n;
}

/* Writes (or counts, o NULL) the JSON header. */
static size_t put_header(const st_plan *pl, char *o) {
    size_t n = put_text(o, "{");
#define AT (o ? o + n : NULL)
    if (pl->nmeta) {
        n += put_text(AT, "\"__metadata__\":{");
        for (size_t i = 0; i < pl->nmeta; i++) {
            if (i) n += put_text(AT, ",");
            n += put_string(AT, pl->meta[2 * i]);
            n += put_text(AT, ":");
            n += put_string(AT, pl->meta[2 * i + 1]);
        }
        n += put_text(AT, "}");
    }
    uint64_t at = 0;
    for (size_t k = 0; k < pl->count; k++) {
        const tx_tensor *t = pl->tensors[pl->order[k]];
        const tx__st_dtype *d = tx__st_dtype_of(t->dtype);
        char num[48];
        if (pl->nmeta || k) n += put_text(AT, ",");
        n += put_string(AT, pl->names[pl->order[k]]);
        n += put_text(AT, ":{\"dtype\":\"");
        n += put_text(AT, d->name);
        n += put_text(AT, "\",\"shape\":[");
        for (size_t i = 0; i < t->rank; i++) {
            snprintf(num, sizeof num, "%s%lld", i ? "," : "", (long long)t->dims[i]);
            n += put_text(AT, num);
        }
        uint64_t bytes = (uint64_t)t->numel * d->bits / 8;
        snprintf(num, sizeof num, "],\"data_offsets\":[%llu,%llu]}", (unsigned long long)at,
                 (unsigned long long)(at + bytes));
        n += put_text(AT, num);
        at += bytes;
    }
    n += put_text(AT, "}");
#undef AT
    return n;
}

/* Checks the inputs, orders the tensors and makes the header. */
static tx_status plan_file(st_plan *pl) {
    TX_TRY(check_inputs(pl));
    pl->order = tx__calloc_array(pl->count ? pl->count : 1, sizeof *pl->order, pl->op);
    if (pl->order == NULL) return TX_RESOURCE_EXHAUSTED;
    for (size_t i = 0; i < pl->count; i++) pl->order[i] = i;
    sort_plan = pl;
    qsort(pl->order, pl->count, sizeof *pl->order, file_order);
    size_t json = put_header(pl, NULL), padded = (json + 7) / 8 * 8;
    TX_REQUIRE(padded <= TX__SAFETENSORS_MAX_HEADER, TX_INVALID_ARGUMENT,
               "%s: the header needs %zu bytes, more than the format's limit of %u", pl->op,
               padded, TX__SAFETENSORS_MAX_HEADER);
    pl->header_size = 8 + padded;
    pl->header = tx__alloc(pl->header_size, pl->op);
    if (pl->header == NULL) return TX_RESOURCE_EXHAUSTED;
    for (int i = 0; i < 8; i++) pl->header[i] = (char)((uint64_t)padded >> (8 * i));
    put_header(pl, pl->header + 8);
    memset(pl->header + 8 + json, ' ', padded - json);
    return TX_OK;
}

static void plan_free(st_plan *pl) {
    tx__free(pl->order, (pl->count ? pl->count : 1) * sizeof *pl->order);
    tx__free(pl->header, pl->header_size);
}

/* Where the bytes go: memory (buf) or a file descriptor. */
typedef struct {
    char *buf;
    size_t pos;
    int fd;
    const char *name;
    const char *op;
} st_sink;

static tx_status sink_put(st_sink *k, const void *p, size_t n) {
    if (k->buf) {
        if (n) memcpy(k->buf + k->pos, p, n);
        k->pos += n;
        return TX_OK;
    }
    return tx__write_all(k->op, k->fd, k->name, p, n);
}

/* A tensor whose file bytes differ from tensorx's (F4/F6 packed; multi-byte elements on a
 * big-endian host), through a window. */
static tx_status put_converted(st_sink *k, const tx_tensor *t, const tx__st_dtype *d) {
    size_t size = tx_dtype_size(t->dtype);
    /* Elements per round: a multiple of 4, so packed groups never straddle two rounds. */
    size_t per = d->bits < 8 ? ST_WINDOW : ST_WINDOW / size;
    size_t total = (size_t)t->numel, cap = (total < per ? total : per) * size;
    char *win = tx__alloc(cap ? cap : 1, k->op);
    if (win == NULL) return TX_RESOURCE_EXHAUSTED;
    tx_status st = TX_OK;
    for (size_t done = 0; st == TX_OK && done < total; done += per) {
        size_t m = total - done < per ? total - done : per, bytes;
        if (d->bits < 8) {
            tx__pack_bits(t->dtype, (int64_t)m, (const uint8_t *)t->data + done, (uint8_t *)win);
            bytes = m * d->bits / 8 + (m * d->bits % 8 != 0);
        } else {
            bytes = m * size;
            memcpy(win, t->data + done * size, bytes);
            size_t unit = tx_dtype_kind_of(t->dtype) == TX_KIND_COMPLEX ? size / 2 : size;
            tx__swap_units(win, bytes / unit, unit);
        }
        st = sink_put(k, win, bytes);
    }
    int err = errno;
    tx__free(win, cap ? cap : 1);
    errno = err;
    return st;
}

static tx_status put_file(const st_plan *pl, st_sink *k) {
    TX_TRY(sink_put(k, pl->header, pl->header_size));
    for (size_t i = 0; i < pl->count; i++) {
        const tx_tensor *t = pl->tensors[pl->order[i]];
        const tx__st_dtype *d = tx__st_dtype_of(t->dtype);
        if (d->bits < 8 || (!TX_HOST_LITTLE_ENDIAN && tx_dtype_size(t->dtype) > 1))
            TX_TRY(put_converted(k, t, d));
        else
            TX_TRY(sink_put(k, t->data, t->nbytes));
    }
    return TX_OK;
}

tx_status tx_safetensors_save_buffer(size_t count, const char *const *names,
                                     const tx_tensor *const *tensors, size_t metadata_count,
                                     const char *const *metadata, void **data, size_t *size) {
    static const char *op = "safetensors_save_buffer";
    TX_REQUIRE(data != NULL && size != NULL, TX_INVALID_ARGUMENT, "%s: data or size is NULL", op);
    *data = NULL;
    *size = 0;
    st_plan pl = {op, count, metadata_count, names, tensors, metadata, NULL, NULL, 0, 0};
    tx_status st = plan_file(&pl);
    uint64_t total = pl.header_size + pl.data_size;
    if (st == TX_OK && total > SIZE_MAX)
        st = tx__fail(TX_RESOURCE_EXHAUSTED, "%s: %llu bytes do not fit size_t", op,
                      (unsigned long long)total);
    char *buf = st == TX_OK ? tx__alloc(total ? (size_t)total : 1, op) : NULL;
    if (st == TX_OK && buf == NULL) st = TX_RESOURCE_EXHAUSTED;
    if (st == TX_OK) {
        st_sink k = {buf, 0, -1, NULL, op};
        st = put_file(&pl, &k);
    }
    plan_free(&pl);
    if (st != TX_OK) {
        tx__free(buf, total ? (size_t)total : 1);
        return st;
    }
    *data = buf;
    *size = (size_t)total;
    return TX_OK;
}

static tx_status write_plan(int fd, const char *name, void *ctx) {
    const st_plan *pl = ctx;
    st_sink k = {NULL, 0, fd, name, pl->op};
    return put_file(pl, &k);
}

tx_status tx_safetensors_save(const char *path, size_t count, const char *const *names,
                              const tx_tensor *const *tensors, size_t metadata_count,
                              const char *const *metadata) {
    static const char *op = "safetensors_save";
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", op);
    st_plan pl = {op, count, metadata_count, names, tensors, metadata, NULL, NULL, 0, 0};
    tx_status st = plan_file(&pl);
    if (st == TX_OK) {
        char name[TX_FILE_NAME_CAP];
        snprintf(name, sizeof name, "'%s'", path);
        st = tx__file_replace(op, path, name, ".safetensors", write_plan, &pl);
    }
    int err = errno;
    plan_free(&pl);
    errno = err;
    return st;
}
