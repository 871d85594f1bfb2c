/* SPDX-License-Identifier: Apache-2.0 */
/* tfrecord_parse.c -- `tensorx tfrecord parse FILE ...` (tfrecord.h): the Examples of a TFRecord
 * file to .npy files in one pass.  The records are read a batch at a time (pointers into the
 * mapped file when it is not compressed), parsed by the op table's parse_example (so its
 * arguments, rules and errors are the op's), the bytes features named by decode= turned into
 * numbers by decode_raw, and each output's rows appended to its .npy file.  Memory stays bounded
 * by one batch, whatever the file's size.  A .npy header is written with the first batch's shape
 * and rewritten in place at the end with the whole row count: tx_npy_write_header leaves room for
 * the first dim to grow, as np.save does.  The files are replaced together at the end, or none. */
#include "tfrecord.h"

#include "args.h"
#include "console.h"
#include "files.h"
#include "formats.h"
#include "opreg.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PARSE_USAGE                                                                                 \
    "tensorx tfrecord parse FILE [compression=GZIP|ZLIB|NONE] [batch=N] [decode=KEY:DTYPE,...] "     \
    "[little_endian=true|false] sparse_keys=... sparse_types=... dense_keys=... dense_defaults=... " \
    "dense_shapes=... -o OUT{}.npy"
#define DEFAULT_BATCH 1024

/* parse_example's outputs, in its order: every sparse feature's indices, values, dense_shape,
 * then every dense feature's values. */
typedef enum { OUT_INDICES, OUT_VALUES, OUT_DENSE_SHAPE, OUT_DENSE } out_kind;

typedef struct {
    out_kind kind;
    tx_string key;       /* the feature's key (points into the keys tensor) */
    char *path;          /* the .npy file (malloc'd) */
    tx_dtype decode;     /* a dense bytes feature's decode_raw dtype; TX_INVALID_DTYPE: none */
    int64_t decode_len;  /* the byte length every one of its values must have (-1: none read yet) */
    int64_t cols;        /* OUT_DENSE_SHAPE: the most values a record has had */
    bool open;           /* its file has its header (written with the first batch) */
    size_t hlen;         /* the header's bytes */
    tx_dtype dtype;      /* the rows written so far: dtype and shape, dims[0] the row count */
    size_t rank;
    int64_t dims[TX_MAX_RANK];
} parse_out;

typedef struct {
    const char *file;
    tx_tfrecord_compression compression;
    int64_t batch;
    int little_endian;
    const char *decode;  /* decode='s text, or NULL */
    op_args a;           /* parse_example's arguments; serialized is set per batch */
    int serialized_k;
    const char **o;      /* the -o words */
    int no;
    parse_out *out;      /* parse_example's outputs */
    outfile *files;      /* their files (an array, for outfile_commit_all) */
    size_t n;
    int64_t records;     /* records parsed so far */
} parse_cmd;

/* The -o words, collected for op_args_parse. */
static tx_status take_o(void *ctx, int argc, const char *const *argv, int *i) {
    parse_cmd *c = ctx;
    if (strcmp(argv[*i], "-o") != 0) return op_fail(OP_USAGE, "unknown option '%s'", argv[*i]);
    if (*i + 1 >= argc) return op_fail(OP_USAGE, "-o needs a file name");
    c->o[c->no++] = argv[++*i];
    return TX_OK;
}

/* The command's own words (compression=, batch=, decode=, little_endian=) are taken here; the
 * others, with serialized= the file (recorded, not read), are parse_example's. */
static tx_status parse_words(int argc, char **argv, parse_cmd *c, const op_def *d) {
    const char **rest = calloc((size_t)argc + 1, sizeof *rest);
    c->o = calloc((size_t)argc + 1, sizeof *c->o);
    if (!rest || !c->o) {
        free(rest);
        return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    }
    int nrest = 0;
    tx_status st = TX_OK;
    rest[nrest++] = "serialized=-"; /* a stand-in: the records come batch by batch */
    for (int i = 1; st == TX_OK && i < argc; i++) {
        const char *w = argv[i];
        if (!strncmp(w, "compression=", 12)) {
            st = tfrecord_parse_compression(w + 12, &c->compression);
        } else if (!strncmp(w, "batch=", 6)) {
            char *end = NULL;
            long long b = strtoll(w + 6, &end, 10);
            if (end == w + 6 || *end || b < 1 || b > (1LL << 30))
                st = op_fail(OP_USAGE, "batch='%s': a number of records from 1 to 2^30", w + 6);
            c->batch = b;
        } else if (!strncmp(w, "decode=", 7)) {
            c->decode = w + 7;
        } else if (!strncmp(w, "little_endian=", 14)) {
            if (!strcmp(w + 14, "true") || !strcmp(w + 14, "false")) c->little_endian = w[14] == 't';
            else st = op_fail(OP_USAGE, "little_endian='%s' is not true or false", w + 14);
        } else if (!strncmp(w, "serialized=", 11) || !strncmp(w, "names=", 6)) {
            st = op_fail(OP_USAGE, "'%.*s' is not taken: the records are FILE's, named by their "
                         "number in it", (int)(strchr(w, '=') - w), w);
        } else {
            rest[nrest++] = w;
        }
    }
    op_cmdline cl = {.option = take_o, .ctx = c, .unparsed = "serialized"};
    if (st == TX_OK) st = op_args_parse(&c->a, d, nrest, rest, &cl);
    free(rest);
    c->serialized_k = op_param_index(d, "serialized", 10);
    return st;
}

/* parse_example on `records` (named by their numbers in the file when `named`, for an error's
 * message: the op names the record it fails on). */
static tx_status run_batch(parse_cmd *c, const tx_tensor *records, bool named, op_outputs *o) {
    tx_tensor *names = NULL;
    tx_status st = TX_OK;
    int names_k = op_param_index(c->a.def, "names", 5);
    if (named) {
        int64_t n = tx_tensor_numel(records);
        char **text = calloc((size_t)n + 1, sizeof *text);
        size_t *lens = calloc((size_t)n + 1, sizeof *lens);
        st = text && lens ? TX_OK : op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
        for (int64_t i = 0; st == TX_OK && i < n; i++) {
            char buf[64];
            lens[i] = (size_t)snprintf(buf, sizeof buf, "record %" PRId64, c->records + i);
            if (!(text[i] = strdup(buf))) st = op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
        }
        if (st == TX_OK && (st = tx_tensor_new_strings(1, &n, (const char *const *)text, lens, &names)) != TX_OK)
            op_fail(st, "%s", tx_last_error());
        for (int64_t i = 0; text && i < n; i++) free(text[i]);
        free(text);
        free(lens);
        if (st != TX_OK) return st;
    }
    c->a.v[c->serialized_k].tensor = (tx_tensor *)records;
    c->a.v[names_k].tensor = names;
    c->a.v[names_k].present = names != NULL;
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    st = c->a.def->run(&c->a, o);
    c->a.v[c->serialized_k].tensor = NULL; /* the caller's */
    c->a.v[names_k].tensor = NULL;
    c->a.v[names_k].present = false;
    tx_tensor_free(names);
    if (st != TX_OK && op_error()[0] == '\0') op_fail(st, "%s", tx_last_error());
    return st;
}

/* A file name's part for a key: its bytes, each one outside [A-Za-z0-9._-] as '_'. */
static void key_part(tx_string key, char *buf, size_t cap) {
    size_t n = key.size < cap - 1 ? (size_t)key.size : cap - 1;
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)key.data[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                  ch == '.' || ch == '_' || ch == '-';
        buf[i] = ok ? (char)ch : '_';
    }
    buf[n] = '\0';
}

static const char *const kind_suffix[] = {".indices", ".values", ".dense_shape", ""};

/* Each output's kind, key and file: -o once per output, or once with {} for the output's name
 * (KEY, KEY.indices, KEY.values, KEY.dense_shape). */
static tx_status name_outputs(parse_cmd *c, const op_outputs *o0) {
    const tx_tensor *skeys = c->a.v[op_param_index(c->a.def, "sparse_keys", 11)].tensor;
    const tx_tensor *dkeys = c->a.v[op_param_index(c->a.def, "dense_keys", 10)].tensor;
    size_t ns = skeys ? (size_t)tx_tensor_numel(skeys) : 0;
    c->n = o0->n;
    c->out = calloc(c->n + 1, sizeof *c->out);
    c->files = calloc(c->n + 1, sizeof *c->files);
    if (!c->out || !c->files) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
    bool one = c->no == 1 && strstr(c->o[0], "{}");
    if (!one && (size_t)c->no != c->n)
        return op_fail(OP_USAGE, "the call makes %zu outputs and -o is given %d times: give it once "
                       "per output, or once with {} (the output's name) in it", c->n, c->no);
    for (size_t i = 0; i < c->n; i++) {
        parse_out *p = &c->out[i];
        p->kind = i < 3 * ns ? (out_kind)(i / ns) : OUT_DENSE;
        p->key = *tx_tensor_string(p->kind == OUT_DENSE ? dkeys : skeys,
                                   (int64_t)(p->kind == OUT_DENSE ? i - 3 * ns : i % ns));
        p->decode = TX_INVALID_DTYPE;
        p->decode_len = -1;
        char part[200];
        key_part(p->key, part, sizeof part);
        const char *o = one ? c->o[0] : c->o[i];
        const char *hole = one ? strstr(o, "{}") : NULL;
        size_t len = strlen(o) + (hole ? strlen(part) + strlen(kind_suffix[p->kind]) : 0) + 1;
        if (!(p->path = malloc(len))) return op_fail(TX_RESOURCE_EXHAUSTED, "out of memory");
        if (hole)
            snprintf(p->path, len, "%.*s%s%s%s", (int)(hole - o), o, part, kind_suffix[p->kind], hole + 2);
        else
            memcpy(p->path, o, len);
        if (!strcmp(p->path, "-") || !outfile_is_npy(p->path))
            return op_fail(OP_USAGE, "-o %s: tfrecord parse writes .npy files (not stdout, nor "
                           "another format)", p->path);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(c->out[j].path, p->path))
                return op_fail(OP_USAGE, "-o: outputs %zu and %zu would both be written to %s", j, i,
                               p->path);
    }
    return TX_OK;
}

/* decode=KEY:DTYPE,...: dense bytes features that decode_raw turns into numbers. */
static tx_status take_decode(parse_cmd *c) {
    for (const char *p = c->decode; p && *p;) {
        const char *end = strchr(p, ','), *stop = end ? end : p + strlen(p);
        const char *colon = NULL;
        for (const char *q = p; q < stop; q++)
            if (*q == ':') colon = q; /* the last: a key may hold ':' */
        if (!colon) return op_fail(OP_USAGE, "decode='%.*s': not KEY:DTYPE", (int)(stop - p), p);
        char dt[32];
        snprintf(dt, sizeof dt, "%.*s", (int)(stop - colon - 1), colon + 1);
        tx_dtype dtype = tx_dtype_from_name(dt);
        if (dtype == TX_INVALID_DTYPE) return op_fail(OP_USAGE, "decode: unknown dtype '%s'", dt);
        parse_out *f = NULL;
        for (size_t i = 0; i < c->n; i++)
            if (c->out[i].kind == OUT_DENSE && c->out[i].key.size == (uint64_t)(colon - p) &&
                !memcmp(c->out[i].key.data, p, (size_t)(colon - p)))
                f = &c->out[i];
        if (!f) return op_fail(OP_USAGE, "decode: '%.*s' is not a key of dense_keys", (int)(colon - p), p);
        f->decode = dtype;
        p = end ? end + 1 : stop;
    }
    return TX_OK;
}

/* Appends t's rows to p's file, which gets its header with the first rows. */
static tx_status append(parse_out *p, outfile *f, const tx_tensor *t) {
    tx_status st = TX_OK;
    if (!p->open) {
        p->dtype = tx_tensor_dtype(t);
        p->rank = tx_tensor_rank(t);
        memcpy(p->dims, tx_tensor_dims(t), p->rank * sizeof *p->dims);
        char header[TX_NPY_HEADER_MAX];
        st = tx_npy_write_header(p->dtype, p->rank, p->dims, header, sizeof header, &p->hlen);
        if (st != TX_OK) return op_fail(st, "%s", tx_last_error());
        st = outfile_open(f, p->path);
        if (st != TX_OK) return st;
        p->open = true;
        st = fd_write_all(f->fd, p->path, header, p->hlen);
    } else {
        p->dims[0] += tx_tensor_dims(t)[0];
    }
    if (st == TX_OK) st = fd_write_npy_data(f->fd, p->path, tx_tensor_data_const(t), tx_tensor_nbytes(t), p->dtype);
    return st;
}

/* decode_raw of a dense bytes feature's batch.  Every value must have the first record's length
 * (TF's rule for one decode_raw of the whole feature), checked here across batches, with the
 * value's number in the whole feature. */
static tx_status decode(parse_cmd *c, parse_out *p, const tx_tensor *t, tx_tensor **out) {
    int64_t n = tx_tensor_numel(t), rows = tx_tensor_dims(t)[0], per_record = rows ? n / rows : 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t size = tx_tensor_string(t, i)->size;
        if (p->decode_len < 0) p->decode_len = (int64_t)size;
        if (size != (uint64_t)p->decode_len)
            return op_fail(TX_INVALID_ARGUMENT, "decode_raw of '%.*s': DecodeRaw requires input strings "
                           "to all be the same size, but element %" PRId64 " has size %" PRIu64 " != %" PRId64,
                           (int)p->key.size, p->key.data, c->records * per_record + i, size, p->decode_len);
    }
    tx_status st = tx_decode_raw(t, p->decode, c->little_endian, NULL, out);
    return st == TX_OK ? st : op_fail(st, "decode=%.*s: %s", (int)p->key.size, p->key.data, tx_last_error());
}

/* One batch's outputs into the files. */
static tx_status write_batch(parse_cmd *c, op_outputs *o) {
    tx_status st = TX_OK;
    for (size_t i = 0; st == TX_OK && i < c->n; i++) {
        parse_out *p = &c->out[i];
        tx_tensor *t = o->t[i], *decoded = NULL;
        if (p->kind == OUT_DENSE_SHAPE) {
            const int64_t *shape = tx_tensor_data_const(t);
            if (shape[1] > p->cols) p->cols = shape[1];
            continue;
        }
        if (p->kind == OUT_INDICES) { /* the batch's record numbers become the file's */
            int64_t *ix = tx_tensor_data(t), rows = tx_tensor_dims(t)[0];
            for (int64_t r = 0; r < rows; r++) ix[2 * r] += c->records;
        }
        if (p->decode != TX_INVALID_DTYPE) st = decode(c, p, t, &decoded);
        if (st == TX_OK) st = append(p, &c->files[i], decoded ? decoded : t);
        tx_tensor_free(decoded);
    }
    return st;
}

/* The end: each dense_shape written whole, each output no record reached written as the call
 * on no records makes it (o0), and every other header rewritten with the row count. */
static tx_status finish(parse_cmd *c, op_outputs *o0) {
    tx_status st = TX_OK;
    for (size_t i = 0; st == TX_OK && i < c->n; i++) {
        parse_out *p = &c->out[i];
        tx_tensor *t = NULL;
        if (p->kind == OUT_DENSE_SHAPE) {
            int64_t two = 2;
            if ((st = tx_tensor_new(TX_INT64, 1, &two, &t)) != TX_OK) return op_fail(st, "%s", tx_last_error());
            int64_t *shape = tx_tensor_data(t);
            shape[0] = c->records;
            shape[1] = p->cols;
        } else if (!p->open && p->decode != TX_INVALID_DTYPE && (st = decode(c, p, o0->t[i], &t)) != TX_OK) {
            return st;
        }
        if (!p->open) {
            st = append(p, &c->files[i], t ? t : o0->t[i]);
        } else {
            char header[TX_NPY_HEADER_MAX];
            size_t len = 0;
            st = tx_npy_write_header(p->dtype, p->rank, p->dims, header, sizeof header, &len);
            if (st == TX_OK && len != p->hlen)
                st = op_fail(TX_INTERNAL, "%s: the header grew from %zu to %zu bytes", p->path, p->hlen, len);
            else if (st == TX_OK)
                st = fd_pwrite_all(c->files[i].fd, p->path, header, len, 0);
            else
                op_fail(st, "%s", tx_last_error());
        }
        tx_tensor_free(t);
    }
    return st == TX_OK ? outfile_commit_all(c->files, c->n) : st;
}

/* What a string output needs, checked before any file is read: .npy cannot stream strings. */
static tx_status check_numeric(const parse_cmd *c, const op_outputs *o0) {
    for (size_t i = 0; i < c->n; i++) {
        const parse_out *p = &c->out[i];
        if (tx_tensor_dtype(o0->t[i]) != TX_STRING) {
            if (p->decode != TX_INVALID_DTYPE)
                return op_fail(OP_USAGE, "decode: '%.*s' is %s, not bytes", (int)p->key.size, p->key.data,
                               tx_dtype_name(tx_tensor_dtype(o0->t[i])));
        } else if (p->decode == TX_INVALID_DTYPE) {
            return op_fail(OP_USAGE, "'%.*s' holds bytes, which a streamed .npy cannot: %s", (int)p->key.size,
                           p->key.data, p->kind == OUT_DENSE ? "decode=KEY:DTYPE makes numbers of them"
                                                             : "parse_example serialized=FILE writes them whole");
        }
    }
    return TX_OK;
}

/* The library's error, naming the file when it does not. */
static void file_error(tx_status st, const char *file) {
    const char *m = tx_last_error();
    if (strstr(m, file)) op_fail(st, "%s", m);
    else op_fail(st, "%s: %s", file, m);
}

int tfrecord_parse_main(int argc, char **argv, int (*report)(tx_status, const char *)) {
    parse_cmd c = {.file = argc > 0 ? argv[0] : NULL, .batch = DEFAULT_BATCH, .little_endian = 1};
    const op_def *d = op_find("parse_example");
    tx_status st = c.file && d ? TX_OK : op_fail(OP_USAGE, "usage: " PARSE_USAGE);
    if (st == TX_OK) c.compression = ff_tfrecord_compression(c.file);
    if (st == TX_OK) st = parse_words(argc, argv, &c, d);
    /* The call on no records checks every argument and gives the outputs' kinds. */
    op_outputs o0 = {0};
    tx_tensor *none = NULL;
    if (st == TX_OK) st = tx_tensor_new_strings(1, (int64_t[]){0}, NULL, NULL, &none);
    if (st == TX_OK) st = run_batch(&c, none, false, &o0);
    if (st == TX_OK) st = name_outputs(&c, &o0);
    if (st == TX_OK) st = take_decode(&c);
    if (st == TX_OK) st = check_numeric(&c, &o0);
    tx_tfrecord_reader *r = NULL;
    if (st == TX_OK) st = ff_check_readable(c.file);
    if (st == TX_OK && (st = tx_tfrecord_open(c.file, c.compression, &r)) != TX_OK) file_error(st, c.file);
    while (st == TX_OK) {
        tx_tensor *recs = NULL;
        if ((st = tx_tfrecord_read(r, c.batch, &recs)) != TX_OK) {
            file_error(st, c.file);
            break;
        }
        int64_t b = tx_tensor_numel(recs);
        op_outputs o = {0};
        if (b > 0 && (st = run_batch(&c, recs, false, &o)) != TX_OK) {
            op_outputs_clear(&o);
            run_batch(&c, recs, true, &o); /* again, to name the record in the message */
        }
        if (b > 0 && st == TX_OK) st = write_batch(&c, &o);
        op_outputs_clear(&o);
        tx_tensor_free(recs);
        if (b == 0) break;
        c.records += b;
    }
    if (st == TX_OK) st = finish(&c, &o0);
    if (st != TX_OK)
        for (size_t i = 0; i < c.n; i++)
            if (c.out[i].open) outfile_abort(&c.files[i]);
    tx_tfrecord_close(r);
    op_outputs_clear(&o0);
    tx_tensor_free(none);
    op_args_clear(&c.a);
    for (size_t i = 0; i < c.n; i++) free(c.out[i].path);
    free(c.out);
    free(c.files);
    free(c.o);
    return st == TX_OK ? 0 : report(st, op_error());
}
