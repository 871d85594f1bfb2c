/* SPDX-License-Identifier: Apache-2.0 */
/* tfrecord.c -- reading TFRecord files (tensorx/tfrecord.h): the framing of
 * tensorflow/core/lib/io/record_reader.cc with its checks and messages, over a file mapped into
 * memory (records are pointers into the mapping) or, for ZLIB and GZIP files, over the
 * decompressing source of zstream.c (records are read into a buffer that grows as bytes arrive,
 * so a length that lies costs no memory). */
#include "io/tfrecord_internal.h"
#include "io/mmap_internal.h"
#include "io/zstream.h"

#include <errno.h>
#include <stdio.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/stat.h>
#endif

static const char *const OP = "tfrecord";

struct tx_tfrecord_reader {
    tx_tensor *file;                /* scalar string: the file's bytes, mapped or the caller's */
    const unsigned char *base;      /* those bytes */
    uint64_t size;
    tx__zsource *z;                 /* compressed: the decompressed stream, else NULL */
    uint64_t pos;                   /* the next record's offset */
    unsigned char *rec;             /* compressed: the last record read (header, data, footer) */
    size_t rec_cap;
    char name[TX_FILE_NAME_CAP];    /* "'path'" or "buffer", for messages */
};

/* ---- errors, with TF's messages ---------------------------------------------------------------- */

static tx_status corrupted(const tx_tfrecord_reader *r, uint64_t at) {
    return tx__fail(TX_DATA_LOSS, "%s: %s: corrupted record at %llu%s", OP, r->name,
                    (unsigned long long)at, at == 0 ? " (Is this even a TFRecord file?)" : "");
}

static tx_status truncated(const tx_tfrecord_reader *r, uint64_t at, uint64_t len,
                           uint64_t have) {
    return tx__fail(TX_DATA_LOSS,
                    "%s: %s: truncated record at %llu (its header announces %llu bytes of data "
                    "and a 4-byte checksum; %llu bytes follow the header)",
                    OP, r->name, (unsigned long long)at, (unsigned long long)len,
                    (unsigned long long)have);
}

static tx_status eof(void) { return tx__fail(TX_OUT_OF_RANGE, "%s: eof", OP); }

/* The length in a header, after its checksum. */
static tx_status header_length(const tx_tfrecord_reader *r, uint64_t at, const unsigned char *h,
                               uint64_t *len) {
    if (tx__tfrecord_crc(h, 8) != tx__load_le32(h + 8)) return corrupted(r, at);
    *len = tx__load_le64(h);
    return TX_OK;
}

/* ---- one record ------------------------------------------------------------------------------ */

/* The record at `at` of a mapped file: *data, *len; *end when fewer than a header's bytes are
 * left.  check_data: verify the data's checksum too. */
static tx_status mapped_record(const tx_tfrecord_reader *r, uint64_t at, bool check_data,
                               const unsigned char **data, uint64_t *len, bool *end) {
    *end = at > r->size || r->size - at < TX_TFRECORD_HEADER;
    if (*end) return TX_OK;
    const unsigned char *h = r->base + at;
    TX_TRY(header_length(r, at, h, len));
    const uint64_t left = r->size - at - TX_TFRECORD_HEADER;
    if (*len > left || left - *len < TX_TFRECORD_FOOTER) return truncated(r, at, *len, left);
    *data = h + TX_TFRECORD_HEADER;
    if (check_data && tx__tfrecord_crc(*data, (size_t)*len) != tx__load_le32(*data + *len))
        return corrupted(r, at + TX_TFRECORD_HEADER);
    return TX_OK;
}

/* Puts the compressed stream at r->pos (after a failure or an index scan it may be elsewhere). */
static tx_status z_position(tx_tfrecord_reader *r, uint64_t to) {
    if (tx__zsource_tell(r->z) > to) TX_TRY(tx__zsource_rewind(r->z));
    unsigned char scratch[4096];
    while (tx__zsource_tell(r->z) < to) {
        const uint64_t gap = to - tx__zsource_tell(r->z);
        size_t got;
        TX_TRY(tx__zsource_read(r->z, scratch, gap < sizeof scratch ? (size_t)gap : sizeof scratch,
                                &got));
        if (got == 0)
            return tx__fail(TX_INVALID_ARGUMENT, "%s: %s: offset %llu is past the end (%llu bytes)",
                            OP, r->name, (unsigned long long)to,
                            (unsigned long long)tx__zsource_tell(r->z));
    }
    return TX_OK;
}

/* Makes r->rec hold at least `need` bytes, keeping the first `keep`. */
static tx_status rec_reserve(tx_tfrecord_reader *r, size_t need, size_t keep) {
    if (need <= r->rec_cap) return TX_OK;
    size_t cap = r->rec_cap < 4096 ? 4096 : r->rec_cap;
    while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    unsigned char *p = tx__alloc(cap, "tfrecord: record buffer");
    if (p == NULL) return TX_RESOURCE_EXHAUSTED;
    if (keep) memcpy(p, r->rec, keep);
    tx__free(r->rec, r->rec_cap);
    r->rec = p;
    r->rec_cap = cap;
    return TX_OK;
}

/* The record at r->pos of a compressed file, into r->rec (data at r->rec + 12).  The buffer grows
 * with the bytes that actually arrive.  skip_data: index scans read the data without keeping or
 * checking it. */
static tx_status z_record(tx_tfrecord_reader *r, bool skip_data, uint64_t *len, bool *end) {
    const uint64_t at = r->pos;
    TX_TRY(z_position(r, at));
    TX_TRY(rec_reserve(r, TX_TFRECORD_HEADER, 0));
    size_t got;
    TX_TRY(tx__zsource_read(r->z, r->rec, TX_TFRECORD_HEADER, &got));
    *end = got < TX_TFRECORD_HEADER;
    if (*end) return TX_OK;
    TX_TRY(header_length(r, at, r->rec, len));
    const size_t max = tx_max_tensor_bytes();
    if (!skip_data && *len > max)
        return tx__fail(TX_RESOURCE_EXHAUSTED,
                        "%s: %s: the record at %llu is %llu bytes, more than "
                        "tx_max_tensor_bytes() (%zu)",
                        OP, r->name, (unsigned long long)at, (unsigned long long)*len, max);
    /* a record that would end past 2^64 cannot be in any stream */
    if (*len > UINT64_MAX - at - TX_TFRECORD_HEADER - TX_TFRECORD_FOOTER)
        return truncated(r, at, *len, 0);
    const uint64_t want = *len + TX_TFRECORD_FOOTER;
    uint64_t have = 0;
    while (have < want) {
        size_t step = (size_t)(want - have < (1u << 20) ? want - have : (1u << 20));
        unsigned char *dst;
        if (skip_data) {
            TX_TRY(rec_reserve(r, TX_TFRECORD_HEADER + step, TX_TFRECORD_HEADER));
            dst = r->rec + TX_TFRECORD_HEADER;
        } else {
            TX_TRY(rec_reserve(r, TX_TFRECORD_HEADER + (size_t)have + step,
                               TX_TFRECORD_HEADER + (size_t)have));
            dst = r->rec + TX_TFRECORD_HEADER + have;
        }
        TX_TRY(tx__zsource_read(r->z, dst, step, &got));
        have += got;
        if (got < step) return truncated(r, at, *len, have);
    }
    const unsigned char *data = r->rec + TX_TFRECORD_HEADER;
    if (!skip_data && tx__tfrecord_crc(data, (size_t)*len) != tx__load_le32(data + *len))
        return corrupted(r, at + TX_TFRECORD_HEADER);
    return TX_OK;
}

/* The record at r->pos, verified, and r->pos moved past it. */
static tx_status next_record(tx_tfrecord_reader *r, const unsigned char **data, uint64_t *len,
                             bool *end) {
    if (r->z) {
        TX_TRY(z_record(r, false, len, end));
        *data = r->rec + TX_TFRECORD_HEADER;
    } else {
        TX_TRY(mapped_record(r, r->pos, true, data, len, end));
    }
    if (!*end) r->pos += TX_TFRECORD_HEADER + *len + TX_TFRECORD_FOOTER;
    return TX_OK;
}

/* ---- the public functions -------------------------------------------------------------------- */

static tx_status open_over(tx_tensor *file, tx_tfrecord_compression compression,
                           const char *name, tx_tfrecord_reader **reader) {
    tx_tfrecord_reader *r = tx__alloc(sizeof *r, "tfrecord: reader");
    if (r == NULL) {
        tx_tensor_free(file);
        return TX_RESOURCE_EXHAUSTED;
    }
    memset(r, 0, sizeof *r);
    r->file = file;
    const tx_string *s = tx_tensor_data_const(file);
    r->base = (const unsigned char *)s->data;
    r->size = s->size;
    snprintf(r->name, sizeof r->name, "%s", name);
    if (compression != TX_TFRECORD_NONE) {
        const tx__zformat f = compression == TX_TFRECORD_GZIP ? TX__Z_GZIP : TX__Z_ZLIB;
        tx_status st = tx__zsource_open(OP, r->name, f, r->base, (size_t)r->size, &r->z);
        if (st != TX_OK) {
            tx_tfrecord_close(r);
            return st;
        }
    }
    *reader = r;
    return TX_OK;
}

#define REQUIRE_COMPRESSION(c)                                                                   \
    TX_REQUIRE((c) == TX_TFRECORD_NONE || (c) == TX_TFRECORD_ZLIB || (c) == TX_TFRECORD_GZIP,   \
               TX_INVALID_ARGUMENT, "%s: compression %d is not NONE (0), ZLIB (1) or GZIP (2)", \
               OP, (int)(c))

tx_status tx_tfrecord_open(const char *path, tx_tfrecord_compression compression,
                           tx_tfrecord_reader **reader) {
    TX_REQUIRE(reader != NULL, TX_INVALID_ARGUMENT, "%s: reader is NULL", OP);
    *reader = NULL;
    TX_REQUIRE(path != NULL, TX_INVALID_ARGUMENT, "%s: path is NULL", OP);
    REQUIRE_COMPRESSION(compression);
    char name[TX_FILE_NAME_CAP];
    snprintf(name, sizeof name, "'%s'", path);
#if defined(__unix__) || defined(__APPLE__)
    struct stat sb;
    if (stat(path, &sb) != 0) {
        const int err = errno;
        tx__fail(TX_INVALID_ARGUMENT, "%s: cannot open %s: %s", OP, name, strerror(err));
        errno = err;
        return TX_INVALID_ARGUMENT;
    }
    TX_REQUIRE(S_ISREG(sb.st_mode), TX_INVALID_ARGUMENT, "%s: %s is not a regular file", OP, name);
    tx_tensor *file;
    TX_TRY(tx_file_map_string(path, 0, (uint64_t)sb.st_size, &file));
    return open_over(file, compression, name, reader);
#else
    return tx__fail(TX_UNIMPLEMENTED, "%s: this platform cannot map files", OP);
#endif
}

tx_status tx_tfrecord_open_buffer(const void *data, size_t size,
                                  tx_tfrecord_compression compression,
                                  tx_tfrecord_reader **reader) {
    TX_REQUIRE(reader != NULL, TX_INVALID_ARGUMENT, "%s: reader is NULL", OP);
    *reader = NULL;
    TX_REQUIRE(size == 0 || data != NULL, TX_INVALID_ARGUMENT, "%s: data is NULL with size %zu",
               OP, size);
    REQUIRE_COMPRESSION(compression);
    const tx_string whole = {size, data};
    tx_tensor *file;
    TX_TRY(tx_tensor_wrap_strings(0, NULL, &whole, (void *)(uintptr_t)data, size, NULL, NULL,
                                  &file));
    return open_over(file, compression, "buffer", reader);
}

void tx_tfrecord_close(tx_tfrecord_reader *r) {
    if (r == NULL) return;
    tx__zsource_close(r->z);
    tx__free(r->rec, r->rec_cap);
    tx_tensor_free(r->file);
    tx__free(r, sizeof *r);
}

tx_status tx_tfrecord_next(tx_tfrecord_reader *r, tx_string *record, uint64_t *offset) {
    TX_REQUIRE(r != NULL, TX_INVALID_ARGUMENT, "%s: reader is NULL", OP);
    TX_REQUIRE(record != NULL, TX_INVALID_ARGUMENT, "%s: record is NULL", OP);
    const uint64_t at = r->pos;
    const unsigned char *data;
    uint64_t len;
    bool end;
    TX_TRY(next_record(r, &data, &len, &end));
    if (end) return eof();
    record->size = len;
    record->data = (const char *)data;
    if (offset) *offset = at;
    return TX_OK;
}

tx_status tx_tfrecord_seek(tx_tfrecord_reader *r, uint64_t offset) {
    TX_REQUIRE(r != NULL, TX_INVALID_ARGUMENT, "%s: reader is NULL", OP);
    if (r->z) {
        TX_TRY(z_position(r, offset));
    } else {
        TX_REQUIRE(offset <= r->size, TX_INVALID_ARGUMENT,
                   "%s: %s: offset %llu is past the end (%llu bytes)", OP, r->name,
                   (unsigned long long)offset, (unsigned long long)r->size);
    }
    r->pos = offset;
    return TX_OK;
}

/* A growing array of uint64 (offsets, or offset/length pairs). */
typedef struct {
    uint64_t *v;
    size_t n, cap;
} u64s;

static tx_status push(u64s *a, uint64_t x) {
    if (a->n == a->cap) {
        const size_t cap = a->cap ? a->cap * 2 : 64;
        uint64_t *p = tx__alloc(cap * sizeof *p, "tfrecord: list");
        if (p == NULL) return TX_RESOURCE_EXHAUSTED;
        if (a->n) memcpy(p, a->v, a->n * sizeof *p);
        tx__free(a->v, a->cap * sizeof *p);
        a->v = p;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return TX_OK;
}

static void u64s_free(u64s *a) { tx__free(a->v, a->cap * sizeof *a->v); }

static tx_status index_scan(tx_tfrecord_reader *r, u64s *offs) {
    for (uint64_t at = 0;;) {
        uint64_t len;
        bool end;
        if (r->z) {
            r->pos = at;
            TX_TRY(z_record(r, true, &len, &end));
        } else {
            const unsigned char *data;
            TX_TRY(mapped_record(r, at, false, &data, &len, &end));
        }
        if (end) return TX_OK;
        TX_TRY(push(offs, at));
        at += TX_TFRECORD_HEADER + len + TX_TFRECORD_FOOTER;
    }
}

tx_status tx_tfrecord_index(tx_tfrecord_reader *r, tx_tensor **out) {
    TX_REQUIRE_OUT(OP, out);
    *out = NULL;
    TX_REQUIRE(r != NULL, TX_INVALID_ARGUMENT, "%s: reader is NULL", OP);
    const uint64_t pos = r->pos;
    u64s offs = {0};
    tx_status st = index_scan(r, &offs);
    r->pos = pos;
    if (st == TX_OK) {
        const int64_t n = (int64_t)offs.n;
        st = tx__tensor_alloc(OP, TX_INT64, 1, &n, out);
        if (st == TX_OK && n) memcpy((*out)->data, offs.v, offs.n * sizeof *offs.v);
    }
    u64s_free(&offs);
    return st;
}

/* Bytes gathered from a compressed file's records. */
typedef struct {
    unsigned char *p;
    size_t n, cap;
} bytebuf;

static tx_status append(bytebuf *b, const unsigned char *p, size_t n) {
    /* the batch becomes one tensor's string storage: refused before it outgrows the limit */
    const size_t max = tx_max_tensor_bytes();
    TX_REQUIRE(n <= max && b->n <= max - n, TX_RESOURCE_EXHAUSTED,
               "%s: the records read exceed tx_max_tensor_bytes() (%zu bytes)", OP, max);
    if (n > b->cap - b->n) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->n < n) {
            TX_REQUIRE(cap <= SIZE_MAX / 2, TX_RESOURCE_EXHAUSTED,
                       "%s: the records do not fit in memory", OP);
            cap *= 2;
        }
        unsigned char *q = tx__alloc(cap, "tfrecord: records");
        if (q == NULL) return TX_RESOURCE_EXHAUSTED;
        if (b->n) memcpy(q, b->p, b->n);
        tx__free(b->p, b->cap);
        b->p = q;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->n, p, n);
    b->n += n;
    return TX_OK;
}

/* The records of the call as (position, length) pairs: positions in the mapping, or in `bytes`
 * where a compressed file's records are gathered. */
static tx_status gather(tx_tfrecord_reader *r, int64_t max, u64s *recs, bytebuf *bytes) {
    for (int64_t k = 0; max < 0 || k < max; k++) {
        const unsigned char *data;
        uint64_t len;
        bool end;
        TX_TRY(next_record(r, &data, &len, &end));
        if (end) break;
        TX_TRY(push(recs, r->z ? bytes->n : (uint64_t)(data - r->base)));
        TX_TRY(push(recs, len));
        if (r->z) TX_TRY(append(bytes, data, (size_t)len));
    }
    return TX_OK;
}

tx_status tx_tfrecord_read(tx_tfrecord_reader *r, int64_t max_records, tx_tensor **out) {
    TX_REQUIRE_OUT(OP, out);
    *out = NULL;
    TX_REQUIRE(r != NULL, TX_INVALID_ARGUMENT, "%s: reader is NULL", OP);
    const uint64_t pos = r->pos;
    u64s recs = {0};
    bytebuf bytes = {0};
    tx_status st = gather(r, max_records, &recs, &bytes);
    const int64_t n = (int64_t)(recs.n / 2);
    char *dst = NULL;
    if (st == TX_OK && r->z)
        st = tx__string_tensor_alloc(OP, 1, &n, bytes.n, 0, &dst, out);
    else if (st == TX_OK)
        st = tx__tensor_alloc(OP, TX_STRING, 1, &n, out);
    if (st == TX_OK) {
        tx_string *s = (tx_string *)(void *)(*out)->data;
        const char *src = r->z ? dst : (const char *)r->base;
        if (bytes.n) memcpy(dst, bytes.p, bytes.n);
        for (int64_t i = 0; i < n; i++) {
            const uint64_t at = recs.v[2 * i], len = recs.v[2 * i + 1];
            s[i] = (tx_string){len, len ? src + at : ""};
        }
        /* the elements point into the mapping: the tensor keeps it */
        if (!r->z) st = tx__share_strings(*out, r->file);
        if (st != TX_OK) {
            tx_tensor_free(*out);
            *out = NULL;
        }
    }
    if (st != TX_OK) r->pos = pos;
    tx__free(bytes.p, bytes.cap);
    u64s_free(&recs);
    return st;
}
