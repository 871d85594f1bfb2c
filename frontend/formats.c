/* SPDX-License-Identifier: Apache-2.0 */
/* formats.c -- the table of tensor file formats (formats.h): one row per format over the
 * library's readers and writers (tx_npy_*, tx_safetensors_*, tx_npz_*, tx_idx_*, tx_tfrecord_*), the
 * source syntax FILE.suffix[:NAME], and loading with messages that name the file, the tensor and the rule. */
#include "formats.h"

#include "opreg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A named format over the library's tx_FMT_open, _count, _name, _get and _close (the shape of
 * tx_safetensors_*): the row's functions, typed for any such format. */
#define NAMED_FORMAT(fmt)                                                                       \
    static tx_status fmt##_open(const char *path, void **file) {                               \
        tx_##fmt *f = NULL;                                                                     \
        tx_status st = tx_##fmt##_open(path, &f);                                               \
        *file = f;                                                                              \
        return st;                                                                              \
    }                                                                                           \
    static size_t fmt##_count(const void *file) { return tx_##fmt##_count(file); }              \
    static const char *fmt##_name(const void *file, size_t i) { return tx_##fmt##_name(file, i); } \
    static tx_status fmt##_get(const void *file, const char *name, tx_tensor **out) {           \
        return tx_##fmt##_get(file, name, out);                                                 \
    }                                                                                           \
    static void fmt##_close(void *file) { tx_##fmt##_close(file); }
#define NAMED_ROW(fmt) \
    .named = true, .open = fmt##_open, .count = fmt##_count, .name_at = fmt##_name, \
    .get = fmt##_get, .close = fmt##_close

NAMED_FORMAT(safetensors)
NAMED_FORMAT(npz)

static tx_status safetensors_save(const char *path, size_t count, const char *const *names,
                                  const tx_tensor *const *tensors) {
    return tx_safetensors_save(path, count, names, tensors, 0, NULL);
}

/* As np.savez: stored members (np.savez_compressed's deflated ones are read, not written here). */
static tx_status npz_save(const char *path, size_t count, const char *const *names,
                          const tx_tensor *const *tensors) {
    return tx_npz_save(path, count, names, tensors, 0);
}

static tx_status npy_save(const char *path, size_t count, const char *const *names,
                          const tx_tensor *const *tensors) {
    (void)count;
    (void)names;
    return tx_npy_save(path, tensors[0]);
}

static tx_status idx_save(const char *path, size_t count, const char *const *names,
                          const tx_tensor *const *tensors) {
    (void)count;
    (void)names;
    return tx_idx_save(path, tensors[0]);
}

static bool ends_with(const char *s, size_t n, const char *suffix) {
    size_t b = strlen(suffix);
    return n > b && memcmp(s + n - b, suffix, b) == 0;
}

/* A TFRecord file as one tensor: its records, a 1-D string tensor (over the mapping when
 * uncompressed); gzip'd when the name ends in ".gz" (TF names no suffix for ZLIB). */
tx_tfrecord_compression ff_tfrecord_compression(const char *path) {
    return ends_with(path, strlen(path), ".gz") ? TX_TFRECORD_GZIP : TX_TFRECORD_NONE;
}

static tx_status tfrecord_load(const char *path, tx_tensor **out) {
    tx_tfrecord_reader *r = NULL;
    tx_status st = tx_tfrecord_open(path, ff_tfrecord_compression(path), &r);
    if (st == TX_OK) st = tx_tfrecord_read(r, -1, out);
    tx_tfrecord_close(r);
    return st;
}

static tx_status tfrecord_save(const char *path, size_t count, const char *const *names,
                               const tx_tensor *const *tensors) {
    (void)count;
    (void)names;
    return tx_tfrecord_write(path, tensors[0], ff_tfrecord_compression(path));
}

static const file_format formats[] = {
    {.name = "npy", .suffixes = {".npy"}, .load = tx_npy_load, .save = npy_save},
    {.name = "safetensors", .suffixes = {".safetensors"}, NAMED_ROW(safetensors),
     .save = safetensors_save},
    {.name = "npz", .suffixes = {".npz"}, NAMED_ROW(npz), .save = npz_save},
    /* MNIST's files are named train-images-idx3-ubyte(.gz) */
    {.name = "idx", .suffixes = {".idx", ".idx.gz", "-ubyte", "-ubyte.gz"}, .load = tx_idx_load,
     .save = idx_save},
    {.name = "tfrecord", .suffixes = {".tfrecord", ".tfrecords", ".tfrecord.gz", ".tfrecords.gz"},
     .load = tfrecord_load, .save = tfrecord_save},
};

const file_format *ff_at(size_t i) {
    return i < sizeof formats / sizeof *formats ? &formats[i] : NULL;
}

const file_format *ff_named(const char *name) {
    for (size_t i = 0; ff_at(i); i++)
        if (strcmp(formats[i].name, name) == 0) return &formats[i];
    return NULL;
}

const file_format *ff_of_path(const char *path) {
    size_t n = strlen(path);
    for (size_t i = 0; ff_at(i); i++)
        for (size_t k = 0; formats[i].suffixes[k]; k++)
            if (ends_with(path, n, formats[i].suffixes[k])) return &formats[i];
    return NULL;
}

/* Where "SUFFIX:" of a format first occurs in text (the end of PATH), or NULL.  One-tensor
 * formats too, so that "x.idx:w" is refused as such rather than read as a literal. */
static const char *colon_split(const char *text, const file_format **fmt) {
    const char *best = NULL;
    for (size_t i = 0; ff_at(i); i++) {
        for (size_t k = 0; formats[i].suffixes[k]; k++) {
            size_t b = strlen(formats[i].suffixes[k]);
            for (const char *p = strstr(text, formats[i].suffixes[k]); p;
                 p = strstr(p + 1, formats[i].suffixes[k]))
                if (p > text && p[b] == ':' && (!best || p + b < best)) {
                    best = p + b;
                    *fmt = &formats[i];
                    break;
                }
        }
    }
    return best;
}

bool ff_split(const char *text, const file_format **fmt, char **path, const char **name) {
    *fmt = NULL;
    *path = NULL;
    *name = NULL;
    if (text[0] == '[' || text[0] == '"' || text[0] == '\'' || text[0] == '\0') return false;
    const char *colon = colon_split(text, fmt);
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (!colon && !(*fmt = ff_of_path(text))) return false;
    if (!(*path = malloc(n + 1))) return true;
    memcpy(*path, text, n);
    (*path)[n] = '\0';
    *name = colon ? colon + 1 : NULL;
    return true;
}

bool ff_mentions_file(const char *text) {
    for (size_t i = 0; ff_at(i); i++)
        for (size_t k = 0; formats[i].suffixes[k]; k++)
            if (strstr(text, formats[i].suffixes[k])) return true;
    return false;
}

tx_status ff_check_readable(const char *path) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return op_fail_io("read", path, errno);
    struct stat sb;
    int err = fstat(fd, &sb) != 0 ? errno : S_ISDIR(sb.st_mode) ? EISDIR : 0;
    close(fd);
    return err ? op_fail_io("read", path, err) : TX_OK;
}

/* The library's failure st (its message, tx_last_error()) as the frontend's, prefixed with the
 * file's name when the message does not say it. */
static tx_status fail_in(tx_status st, const char *path) {
    char why[1024];
    snprintf(why, sizeof why, "%s", tx_last_error());
    if (strstr(why, path)) return op_fail(st, "%s", why);
    return op_fail(st, "%s: %s", path, why);
}

/* "a, b, c" of the first names of file (at most 20, then how many more) into buf. */
static void list_names(const file_format *f, const void *file, char *buf, size_t cap) {
    size_t n = f->count(file), used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && used < cap; i++) {
        int w = i == 20 ? snprintf(buf + used, cap - used, ", ... (%zu more)", n - 20)
                        : snprintf(buf + used, cap - used, "%s%s", i ? ", " : "",
                                   f->name_at(file, i));
        if (w < 0 || i == 20) break;
        used += (size_t)w;
    }
    if (n == 0) snprintf(buf, cap, "no tensor");
}

static tx_status get_named(const file_format *f, void *file, const char *path, const char *name,
                           tx_tensor **out) {
    size_t n = f->count(file);
    char have[1024];
    if (!name && n == 1) name = f->name_at(file, 0);
    if (!name) {
        list_names(f, file, have, sizeof have);
        return op_fail(TX_INVALID_ARGUMENT,
                       "%s holds %zu tensors: name one as %s:NAME (it has: %s)", path, n, path,
                       have);
    }
    size_t i = 0;
    while (i < n && strcmp(f->name_at(file, i), name) != 0) i++;
    if (i == n) {
        list_names(f, file, have, sizeof have);
        return op_fail(TX_INVALID_ARGUMENT, "no tensor '%s' in %s; it has: %s", name, path, have);
    }
    tx_status st = f->get(file, name, out);
    return st == TX_OK ? st : fail_in(st, path);
}

tx_status ff_load(const file_format *f, const char *path, const char *name, tx_tensor **out) {
    *out = NULL;
    tx_status st = ff_check_readable(path);
    if (st != TX_OK) return st;
    if (!f->named && name)
        return op_fail(TX_INVALID_ARGUMENT,
                       "%s holds one tensor (format %s), not one named '%s' (drop ':%s')", path,
                       f->name, name, name);
    if (f->named) {
        void *file = NULL;
        st = f->open(path, &file);
        if (st == TX_OK) st = get_named(f, file, path, name, out);
        else st = fail_in(st, path);
        f->close(file);
    } else {
        st = f->load(path, out);
        if (st != TX_OK) st = fail_in(st, path);
    }
    return st;
}

bool ff_load_source(const char *text, tx_tensor **out, tx_status *st) {
    const file_format *f;
    char *path;
    const char *name;
    if (!ff_split(text, &f, &path, &name)) return false;
    *st = path ? ff_load(f, path, name, out) : op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    free(path);
    return true;
}

void ff_names_free(char **names, size_t count) {
    for (size_t i = 0; names && i < count; i++) free(names[i]);
    free(names);
}

tx_status ff_names(const file_format *f, const char *path, char ***names, size_t *count,
                   tx_tensor ***tensors) {
    *names = NULL;
    *count = 0;
    if (tensors) *tensors = NULL;
    if (!f->named) return TX_OK;
    tx_status st = ff_check_readable(path);
    void *file = NULL;
    if (st == TX_OK && (st = f->open(path, &file)) != TX_OK) st = fail_in(st, path);
    size_t n = st == TX_OK ? f->count(file) : 0;
    char **v = st == TX_OK ? calloc(n ? n : 1, sizeof *v) : NULL;
    if (st == TX_OK && !v) st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    tx_tensor **t = st == TX_OK && tensors ? calloc(n ? n : 1, sizeof *t) : NULL;
    if (st == TX_OK && tensors && !t) st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    for (size_t i = 0; st == TX_OK && i < n; i++) {
        if (!(v[i] = strdup(f->name_at(file, i))))
            st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
        else if (t && (st = f->get(file, v[i], &t[i])) != TX_OK)
            st = fail_in(st, path);
    }
    f->close(file);
    if (st != TX_OK) {
        for (size_t i = 0; t && i < n; i++) tx_tensor_free(t[i]);
        free(t);
        ff_names_free(v, n);
        return st;
    }
    *names = v;
    *count = n;
    if (tensors) *tensors = t;
    return TX_OK;
}

tx_status ff_save(const file_format *f, const char *path, size_t count, const char *const *names,
                  const tx_tensor *const *tensors) {
    if (!f->named && count != 1)
        return op_fail(TX_INVALID_ARGUMENT, "%s holds one tensor (format %s), not %zu", path,
                       f->name, count);
    tx_status st = f->save(path, count, names, tensors);
    return st == TX_OK ? st : fail_in(st, path);
}
