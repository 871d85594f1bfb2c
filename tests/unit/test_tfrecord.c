/* SPDX-License-Identifier: Apache-2.0 */
/* test_tfrecord.c -- TFRecord files (tensorx/tfrecord.h) and their checksum: CRC-32C's known
 * answers at every CPU level, round trips through buffers and files (plain, ZLIB, GZIP), the
 * index and seeking, and hostile files -- cut at every byte, a bit flipped in every byte, lengths
 * that lie, empty input, corrupt compressed data -- each with TF's message; allocation failures.
 * tests/tf/tfrecord.py holds the same files to TensorFlow's own reader and writer. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch/cpu.h"
#include "dispatch/dispatch.h"
#include "io/zstream.h"

/* ---- CRC-32C ----------------------------------------------------------------------------------- */

/* RFC 3720's (iSCSI) test vectors, which TF's crc32c test uses too, and the classic check value. */
static void test_crc32c_known_answers(void **state) {
    (void)state;
    unsigned char zeros[32] = {0}, ones[32], up[32], down[32];
    memset(ones, 0xFF, sizeof ones);
    for (int i = 0; i < 32; i++) up[i] = (unsigned char)i, down[i] = (unsigned char)(31 - i);
    for (int lv = 0; lv <= TX__ISA_TOP; lv++) {
        if (!tx__cpu_has((tx_isa_level)lv)) continue;
        tx__crc32c_fn crc = tx__kernels_at((tx_isa_level)lv)->crc32c;
        assert_int_equal(crc(0, "123456789", 9), 0xE3069283u);
        assert_int_equal(crc(0, zeros, 32), 0x8A9136AAu);
        assert_int_equal(crc(0, ones, 32), 0x62A8AB43u);
        assert_int_equal(crc(0, up, 32), 0x46DD794Eu);
        assert_int_equal(crc(0, down, 32), 0x113FDB5Cu);
        assert_int_equal(crc(crc(0, "1234", 4), "56789", 5), 0xE3069283u);
    }
}

/* ---- helpers ----------------------------------------------------------------------------------- */

/* The compressions this build reads and writes (ZLIB and GZIP need zlib: TX_WITH_ZLIB). */
static const tx_tfrecord_compression COMPRESSIONS[] = {TX_TFRECORD_NONE, TX_TFRECORD_ZLIB,
                                                       TX_TFRECORD_GZIP};
#define NCOMP (TX_HAVE_ZLIB ? 3 : 1)

static const char *const RECORDS[] = {"hello", "", "a record\0with a NUL", "x"};
static const size_t RECORD_LENS[] = {5, 0, 19, 1};
#define NREC 4

/* The records as a string tensor (with a long one of 3000 bytes last, past any small buffer). */
static tx_tensor *records_tensor(void) {
    static char big[3000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (char)(i * 7);
    tx_string s[NREC + 1];
    for (int i = 0; i < NREC; i++) s[i] = (tx_string){RECORD_LENS[i], RECORDS[i]};
    s[NREC] = (tx_string){sizeof big, big};
    tx_tensor *t = NULL;
    const int64_t n = NREC + 1;
    const char *ptrs[NREC + 1];
    size_t lens[NREC + 1];
    for (int i = 0; i <= NREC; i++) ptrs[i] = s[i].data, lens[i] = (size_t)s[i].size;
    assert_int_equal(tx_tensor_new_strings(1, &n, ptrs, lens, &t), TX_OK);
    return t;
}

static void *write_buffer(const tx_tensor *t, tx_tfrecord_compression c, size_t *size) {
    void *data = NULL;
    tx_status st = tx_tfrecord_write_buffer(t, c, &data, size);
    if (st != TX_OK) fail_msg("write_buffer: %s", tx_last_error());
    return data;
}

static tx_tfrecord_reader *open_buf(const void *data, size_t size, tx_tfrecord_compression c) {
    tx_tfrecord_reader *r = NULL;
    tx_status st = tx_tfrecord_open_buffer(data, size, c, &r);
    if (st != TX_OK) fail_msg("open_buffer: %s", tx_last_error());
    return r;
}

/* Asserts that r's remaining records equal t's elements from `from` on, then the end. */
static void assert_records(tx_tfrecord_reader *r, const tx_tensor *t, int64_t from) {
    const tx_string *want = tx_tensor_data_const(t);
    for (int64_t i = from; i < tx_tensor_numel(t); i++) {
        tx_string got;
        uint64_t off;
        tx_status st = tx_tfrecord_next(r, &got, &off);
        if (st != TX_OK) fail_msg("record %lld: %s", (long long)i, tx_last_error());
        assert_int_equal(got.size, want[i].size);
        assert_memory_equal(got.data, want[i].data, got.size);
    }
    tx_string got;
    tu_assert_error(tx_tfrecord_next(r, &got, NULL), TX_OUT_OF_RANGE, "tfrecord: eof");
}

/* Record starts of the uncompressed file of t. */
static void record_starts(const tx_tensor *t, uint64_t *starts) {
    const tx_string *s = tx_tensor_data_const(t);
    uint64_t at = 0;
    for (int64_t i = 0; i <= tx_tensor_numel(t); i++) {
        starts[i] = at;
        if (i < tx_tensor_numel(t)) at += 16 + s[i].size;
    }
}

/* ---- round trips ------------------------------------------------------------------------------- */

static void test_framing_bytes(void **state) {
    (void)state;
    /* tf.io.TFRecordWriter's bytes for the record "hello": length 5, its masked CRC 0x3e04b2ea */
    const int64_t one = 1;
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new_strings(1, &one, (const char *[]){"hello"}, (size_t[]){5}, &t),
                     TX_OK);
    size_t size;
    unsigned char *b = write_buffer(t, TX_TFRECORD_NONE, &size);
    assert_int_equal(size, 21);
    const unsigned char head[12] = {5, 0, 0, 0, 0, 0, 0, 0, 0xea, 0xb2, 0x04, 0x3e};
    assert_memory_equal(b, head, 12);
    assert_memory_equal(b + 12, "hello", 5);
    tx_buffer_free(b, size);
    tx_tensor_free(t);
}

static void test_round_trip(void **state) {
    (void)state;
    tx_tensor *t = records_tensor();
    const tx_tfrecord_compression *cs = COMPRESSIONS;
    for (size_t c = 0; c < NCOMP; c++) {
        size_t size;
        void *b = write_buffer(t, cs[c], &size);
        tx_tfrecord_reader *r = open_buf(b, size, cs[c]);
        assert_records(r, t, 0);
        /* the index, and every record again through seek */
        tx_tensor *idx = NULL;
        assert_int_equal(tx_tfrecord_index(r, &idx), TX_OK);
        uint64_t starts[NREC + 2];
        record_starts(t, starts);
        tu_assert_shape(idx, TX_INT64, 1, TU_DIMS(NREC + 1));
        const int64_t *ix = tx_tensor_data_const(idx);
        for (int i = NREC; i >= 0; i--) {
            assert_int_equal(ix[i], starts[i]);
            assert_int_equal(tx_tfrecord_seek(r, (uint64_t)ix[i]), TX_OK);
            assert_records(r, t, i);
        }
        tx_tensor_free(idx);
        /* all at once, then in batches of 2 */
        assert_int_equal(tx_tfrecord_seek(r, 0), TX_OK);
        tx_tensor *all = NULL;
        assert_int_equal(tx_tfrecord_read(r, -1, &all), TX_OK);
        tu_assert_shape(all, TX_STRING, 1, TU_DIMS(NREC + 1));
        for (int64_t i = 0; i <= NREC; i++) {
            const tx_string *a = tx_tensor_data_const(all), *w = tx_tensor_data_const(t);
            assert_int_equal(a[i].size, w[i].size);
            assert_memory_equal(a[i].data, w[i].data, a[i].size);
            /* uncompressed: views into the bytes read */
            if (cs[c] == TX_TFRECORD_NONE && a[i].size)
                assert_true(a[i].data > (const char *)b && a[i].data < (const char *)b + size);
        }
        tx_tensor_free(all);
        assert_int_equal(tx_tfrecord_seek(r, 0), TX_OK);
        for (int64_t want = 2, got = 0; want > 0; got += want, want = NREC + 1 - got < 2 ? NREC + 1 - got : 2) {
            tx_tensor *part = NULL;
            assert_int_equal(tx_tfrecord_read(r, 2, &part), TX_OK);
            tu_assert_shape(part, TX_STRING, 1, TU_DIMS(want));
            tx_tensor_free(part);
        }
        tx_tensor *none = NULL;
        assert_int_equal(tx_tfrecord_read(r, 2, &none), TX_OK);
        tu_assert_shape(none, TX_STRING, 1, TU_DIMS(0));
        tx_tensor_free(none);
        tx_tfrecord_close(r);
        tx_buffer_free(b, size);
    }
    tx_tensor_free(t);
}

static void test_files(void **state) {
    (void)state;
    char path[] = "/tmp/tx_tfrecord_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    tx_tensor *t = records_tensor(), *all = NULL;
    const tx_tfrecord_compression *cs = COMPRESSIONS;
    for (size_t c = 0; c < NCOMP; c++) {
        assert_int_equal(tx_tfrecord_write(path, t, cs[c]), TX_OK);
        tx_tfrecord_reader *r = NULL;
        assert_int_equal(tx_tfrecord_open(path, cs[c], &r), TX_OK);
        assert_int_equal(tx_tfrecord_read(r, -1, &all), TX_OK);
        tx_tfrecord_close(r); /* the records outlive the reader: they keep the mapping */
        const tx_string *a = tx_tensor_data_const(all), *w = tx_tensor_data_const(t);
        for (int64_t i = 0; i <= NREC; i++) {
            assert_int_equal(a[i].size, w[i].size);
            assert_memory_equal(a[i].data, w[i].data, a[i].size);
        }
        tx_tensor_free(all);
    }
    /* the wrong compression (a GZIP file, the loop's last, read as none) is an error */
    tx_tfrecord_reader *r = NULL;
    if (TX_HAVE_ZLIB) {
        assert_int_equal(tx_tfrecord_open(path, TX_TFRECORD_NONE, &r), TX_OK);
        tu_assert_error(tx_tfrecord_read(r, -1, &all), TX_DATA_LOSS,
                        "corrupted record at 0 (Is this even a TFRecord file?)");
        assert_null(all);
        tx_tfrecord_close(r);
    }
    unlink(path);
    tu_assert_error(tx_tfrecord_open(path, TX_TFRECORD_NONE, &r), TX_INVALID_ARGUMENT,
                    "tfrecord: cannot open");
    assert_null(r);
    tu_assert_error(tx_tfrecord_open("/tmp", TX_TFRECORD_NONE, &r), TX_INVALID_ARGUMENT,
                    "is not a regular file");
    tu_assert_error(tx_tfrecord_write("/tmp", t, TX_TFRECORD_NONE), TX_INVALID_ARGUMENT,
                    "tfrecord: cannot write '/tmp'");
    tx_tensor_free(t);
}

/* ---- hostile input ----------------------------------------------------------------------------- */

/* Reads everything from the n bytes at b: the count of records before the first failure, and its
 * status (TX_OUT_OF_RANGE at a clean end). */
static tx_status read_all(const void *b, size_t n, tx_tfrecord_compression c, int *count) {
    tx_tfrecord_reader *r = open_buf(b, n, c);
    tx_status st;
    tx_string rec;
    *count = 0;
    while ((st = tx_tfrecord_next(r, &rec, NULL)) == TX_OK) ++*count;
    tx_tfrecord_close(r);
    return st;
}

static void test_truncated_at_every_byte(void **state) {
    (void)state;
    tx_tensor *t = records_tensor();
    uint64_t starts[NREC + 2];
    record_starts(t, starts);
    size_t size;
    unsigned char *b = write_buffer(t, TX_TFRECORD_NONE, &size);
    for (size_t cut = 0; cut <= size; cut++) {
        unsigned char *copy = malloc(cut ? cut : 1); /* exact size: ASan sees any over-read */
        memcpy(copy, b, cut);
        int count, whole = 0;
        while (whole <= NREC && starts[whole + 1] <= cut) whole++;
        const tx_status st = read_all(copy, cut, TX_TFRECORD_NONE, &count);
        assert_int_equal(count, whole);
        if (cut == size || cut - starts[whole] < 12) {
            assert_int_equal(st, TX_OUT_OF_RANGE); /* a partial header ends the records, as TF */
        } else {
            char want[64];
            snprintf(want, sizeof want, "truncated record at %llu", (unsigned long long)starts[whole]);
            tu_assert_error(st, TX_DATA_LOSS, want);
        }
        free(copy);
    }
    tx_buffer_free(b, size);
    tx_tensor_free(t);
}

static void test_flipped_bits(void **state) {
    (void)state;
    tx_tensor *t = records_tensor();
    uint64_t starts[NREC + 2];
    record_starts(t, starts);
    size_t size;
    unsigned char *b = write_buffer(t, TX_TFRECORD_NONE, &size);
    for (size_t at = 0; at < size; at++) {
        b[at] ^= (unsigned char)(1u << (at % 8));
        int rec = 0;
        while (starts[rec + 1] <= at) rec++;
        /* a bit of the length or its checksum: the header's checksum fails at the record's
         * start; a bit of the data or its checksum: the data's checksum at the data's start */
        const uint64_t where = at - starts[rec] < 12 ? starts[rec] : starts[rec] + 12;
        char want[80];
        snprintf(want, sizeof want, "corrupted record at %llu%s", (unsigned long long)where,
                 where == 0 ? " (Is this even a TFRecord file?)" : "");
        int count;
        tu_assert_error(read_all(b, size, TX_TFRECORD_NONE, &count), TX_DATA_LOSS, want);
        assert_int_equal(count, rec);
        b[at] ^= (unsigned char)(1u << (at % 8));
    }
    tx_buffer_free(b, size);
    tx_tensor_free(t);
}

/* A header claiming `len` bytes, with a valid checksum, and `tail` bytes after it. */
static unsigned char *lying_file(uint64_t len, size_t tail, size_t *size) {
    unsigned char h[8];
    for (int i = 0; i < 8; i++) h[i] = (unsigned char)(len >> (8 * i));
    const uint32_t c = tx__kernels_get()->crc32c(0, h, 8);
    const uint32_t m = ((c >> 15) | (c << 17)) + 0xa282ead8u;
    *size = 12 + tail;
    unsigned char *f = calloc(1, *size);
    memcpy(f, h, 8);
    for (int i = 0; i < 4; i++) f[8 + i] = (unsigned char)(m >> (8 * i));
    return f;
}

/* Compresses the n bytes at p into a new malloc'ed buffer (*size) with zstream.c's sink. */
typedef struct {
    unsigned char *p;
    size_t n;
} mem;

static tx_status mem_write(void *ctx, const void *p, size_t n) {
    mem *m = ctx;
    m->p = realloc(m->p, m->n + n);
    assert_non_null(m->p);
    memcpy(m->p + m->n, p, n);
    m->n += n;
    return TX_OK;
}

static unsigned char *compress(const void *p, size_t n, tx__zformat f, size_t *size) {
    mem m = {NULL, 0};
    tx__zsink *z = NULL;
    assert_int_equal(tx__zsink_open("test", f, mem_write, &m, &z), TX_OK);
    assert_int_equal(tx__zsink_write(z, p, n), TX_OK);
    assert_int_equal(tx__zsink_finish(z), TX_OK);
    tx__zsink_close(z);
    *size = m.n;
    return m.p;
}

static void test_lying_lengths(void **state) {
    (void)state;
    const uint64_t lens[] = {UINT64_MAX, UINT64_MAX - 3, (uint64_t)1 << 62, 1 << 20, 100, 7};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        size_t size, zsize;
        unsigned char *f = lying_file(lens[i], 10, &size);
        int count;
        tu_assert_error(read_all(f, size, TX_TFRECORD_NONE, &count), TX_DATA_LOSS,
                        "truncated record at 0");
        tx_tfrecord_reader *r = open_buf(f, size, TX_TFRECORD_NONE);
        tx_tensor *idx = NULL;
        tu_assert_error(tx_tfrecord_index(r, &idx), TX_DATA_LOSS, "truncated record at 0");
        tx_tfrecord_close(r);
        /* compressed: a length past the size cap is refused before anything is read; one
         * under it ends in a truncation, the buffer having grown only with the bytes that came */
        if (!TX_HAVE_ZLIB) {
            free(f);
            continue;
        }
        unsigned char *z = compress(f, size, TX__Z_GZIP, &zsize);
        r = open_buf(z, zsize, TX_TFRECORD_GZIP);
        tu_assert_error(tx_tfrecord_index(r, &idx), TX_DATA_LOSS, "truncated record at 0");
        tx_tfrecord_close(r);
        tu_alloc_install();
        const tx_status st = read_all(z, zsize, TX_TFRECORD_GZIP, &count);
        if (lens[i] > tx_max_tensor_bytes()) {
            tu_assert_error(st, TX_RESOURCE_EXHAUSTED, "more than tx_max_tensor_bytes()");
        } else {
            tu_assert_error(st, TX_DATA_LOSS, "truncated record at 0");
        }
        assert_int_equal(tu_alloc_live(), 0);
        tu_alloc_uninstall();
        free(z);
        free(f);
    }
}

static void test_compressed_damage(void **state) {
    (void)state;
    if (!TX_HAVE_ZLIB) skip(); /* test_without_zlib instead */
    tx_tensor *t = records_tensor();
    const tx_tfrecord_compression cs[] = {TX_TFRECORD_ZLIB, TX_TFRECORD_GZIP};
    for (size_t c = 0; c < 2; c++) {
        size_t size;
        unsigned char *b = write_buffer(t, cs[c], &size);
        /* cut anywhere, or a bit flipped anywhere: the records read are the first ones, then
         * the end or an error.  As in TF, a stream that stops early ends the records (a cut
         * inside a record is a truncation), and damage that zlib does not see (gzip's time
         * stamp, the last bytes) may end them early or not at all. */
        for (size_t k = 0; k < 2 * size; k++) {
            const size_t cut = k < size ? k : size, at = k - size;
            unsigned char *copy = malloc(cut ? cut : 1);
            memcpy(copy, b, cut);
            if (k >= size) copy[at] ^= 0x10;
            tx_tfrecord_reader *r = open_buf(copy, cut, cs[c]);
            const tx_string *w = tx_tensor_data_const(t);
            tx_string rec;
            tx_status st;
            for (int i = 0; (st = tx_tfrecord_next(r, &rec, NULL)) == TX_OK; i++) {
                assert_true(i <= NREC);
                assert_int_equal(rec.size, w[i].size);
                assert_memory_equal(rec.data, w[i].data, rec.size);
            }
            assert_true(st == TX_OUT_OF_RANGE || st == TX_DATA_LOSS);
            tx_tfrecord_close(r);
            free(copy);
        }
        tx_buffer_free(b, size);
    }
    /* the wrong format */
    size_t size;
    unsigned char *b = write_buffer(t, TX_TFRECORD_GZIP, &size);
    int count;
    tu_assert_error(read_all(b, size, TX_TFRECORD_ZLIB, &count), TX_DATA_LOSS,
                    "inflate() failed with error -3: incorrect header check (the ZLIB stream is corrupt");
    tx_buffer_free(b, size);
    tx_tensor_free(t);
}

/* A compressed batch stops at the tensor limit, however small its records. */
static void test_compressed_batch_limit(void **state) {
    (void)state;
    if (!TX_HAVE_ZLIB) skip();
    tx_tensor *t = records_tensor(); /* 3025 bytes of records */
    size_t size;
    void *b = write_buffer(t, TX_TFRECORD_GZIP, &size);
    const size_t keep = tx_max_tensor_bytes();
    tx_set_max_tensor_bytes(3000);
    tx_tfrecord_reader *r = open_buf(b, size, TX_TFRECORD_GZIP);
    tx_tensor *o = NULL;
    tu_assert_error(tx_tfrecord_read(r, -1, &o), TX_RESOURCE_EXHAUSTED,
                    "the records read exceed tx_max_tensor_bytes() (3000 bytes)");
    assert_null(o);
    assert_int_equal(tx_tfrecord_read(r, NREC, &o), TX_OK); /* the reader stayed at the start */
    tu_assert_shape(o, TX_STRING, 1, TU_DIMS(NREC));
    tx_tensor_free(o);
    tx_set_max_tensor_bytes(keep);
    tx_tfrecord_close(r);
    tx_buffer_free(b, size);
    tx_tensor_free(t);
}

static void test_empty(void **state) {
    (void)state;
    int count;
    assert_int_equal(read_all(NULL, 0, TX_TFRECORD_NONE, &count), TX_OUT_OF_RANGE);
    assert_int_equal(count, 0);
    tx_tfrecord_reader *r = open_buf(NULL, 0, TX_TFRECORD_NONE);
    tx_tensor *o = NULL;
    assert_int_equal(tx_tfrecord_read(r, -1, &o), TX_OK);
    tu_assert_shape(o, TX_STRING, 1, TU_DIMS(0));
    tx_tensor_free(o);
    assert_int_equal(tx_tfrecord_index(r, &o), TX_OK);
    tu_assert_shape(o, TX_INT64, 1, TU_DIMS(0));
    tx_tensor_free(o);
    tx_tfrecord_close(r);
    /* an empty compressed file has no records either; a tensor of none writes an empty file */
    const int64_t zero = 0;
    tx_tensor *none = NULL;
    assert_int_equal(tx_tensor_new_strings(1, &zero, NULL, NULL, &none), TX_OK);
    size_t size;
    void *b = write_buffer(none, TX_TFRECORD_NONE, &size);
    assert_int_equal(size, 0);
    tx_buffer_free(b, size);
    if (TX_HAVE_ZLIB) {
        b = write_buffer(none, TX_TFRECORD_GZIP, &size);
        assert_int_equal(read_all(b, size, TX_TFRECORD_GZIP, &count), TX_OUT_OF_RANGE);
        assert_int_equal(count, 0);
        tx_buffer_free(b, size);
    }
    tx_tensor_free(none);
}

static void test_arguments(void **state) {
    (void)state;
    tx_tfrecord_reader *r = (tx_tfrecord_reader *)1;
    tu_assert_error(tx_tfrecord_open(NULL, TX_TFRECORD_NONE, &r), TX_INVALID_ARGUMENT,
                    "tfrecord: path is NULL");
    assert_null(r);
    tu_assert_error(tx_tfrecord_open("x", TX_TFRECORD_NONE, NULL), TX_INVALID_ARGUMENT,
                    "tfrecord: reader is NULL");
    tu_assert_error(tx_tfrecord_open_buffer(NULL, 3, TX_TFRECORD_NONE, &r), TX_INVALID_ARGUMENT,
                    "data is NULL with size 3");
    tu_assert_error(tx_tfrecord_open_buffer("", 0, (tx_tfrecord_compression)7, &r),
                    TX_INVALID_ARGUMENT, "compression 7 is not NONE (0), ZLIB (1) or GZIP (2)");
    tx_string rec;
    tu_assert_error(tx_tfrecord_next(NULL, &rec, NULL), TX_INVALID_ARGUMENT, "reader is NULL");
    r = open_buf("", 0, TX_TFRECORD_NONE);
    tu_assert_error(tx_tfrecord_next(r, NULL, NULL), TX_INVALID_ARGUMENT, "record is NULL");
    tu_assert_error(tx_tfrecord_read(r, 1, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_tfrecord_seek(r, 1), TX_INVALID_ARGUMENT, "offset 1 is past the end (0 bytes)");
    tx_tfrecord_close(r);
    tx_tfrecord_close(NULL);
    tx_tensor *f = tu_tensor(TX_FLOAT32, 1, TU_DIMS(1), TU_VALS(1));
    void *data = (void *)1;
    size_t size = 1;
    tu_assert_error(tx_tfrecord_write_buffer(f, TX_TFRECORD_NONE, &data, &size),
                    TX_INVALID_ARGUMENT, "records is float32, not a string tensor");
    assert_null(data);
    assert_int_equal(size, 0);
    tu_assert_error(tx_tfrecord_write_buffer(NULL, TX_TFRECORD_NONE, &data, &size),
                    TX_INVALID_ARGUMENT, "records is NULL");
    tu_assert_error(tx_tfrecord_write(NULL, f, TX_TFRECORD_NONE), TX_INVALID_ARGUMENT,
                    "path is NULL");
    tx_tensor_free(f);
}

/* Every allocation of a read and a write, failed in turn: resource_exhausted, nothing leaked. */
static void test_allocation_failures(void **state) {
    (void)state;
    tx_tensor *t = records_tensor();
    const tx_tfrecord_compression *cs = COMPRESSIONS;
    for (size_t c = 0; c < NCOMP; c++) {
        size_t size;
        void *b = write_buffer(t, cs[c], &size);
        tu_alloc_install();
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            void *data = NULL;
            size_t n = 0;
            tx_status st = tx_tfrecord_write_buffer(t, cs[c], &data, &n);
            tu_alloc_fail_at(0);
            if (st == TX_OK) {
                assert_int_equal(n, size);
                tx_buffer_free(data, n);
                assert_int_equal(tu_alloc_live(), 0);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_int_equal(tu_alloc_live(), 0);
        }
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_tfrecord_reader *r = NULL;
            tx_tensor *o = NULL, *idx = NULL;
            tx_status st = tx_tfrecord_open_buffer(b, size, cs[c], &r);
            if (st == TX_OK) st = tx_tfrecord_index(r, &idx);
            if (st == TX_OK) st = tx_tfrecord_read(r, -1, &o);
            tu_alloc_fail_at(0);
            tx_tfrecord_close(r);
            tx_tensor_free(o);
            tx_tensor_free(idx);
            assert_int_equal(tu_alloc_live(), 0);
            if (st == TX_OK) break;
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        }
        tu_alloc_uninstall();
        tx_buffer_free(b, size);
    }
    tx_tensor_free(t);
}

/* Built without zlib: compressed files are refused, naming the CMake option. */
static void test_without_zlib(void **state) {
    (void)state;
    if (TX_HAVE_ZLIB) skip(); /* the other tests read and write them */
    tx_tensor *t = records_tensor();
    void *data = NULL;
    size_t size = 0;
    tx_tfrecord_reader *r = NULL;
    for (int c = TX_TFRECORD_ZLIB; c <= TX_TFRECORD_GZIP; c++) {
        tu_assert_error(tx_tfrecord_write_buffer(t, (tx_tfrecord_compression)c, &data, &size),
                        TX_UNIMPLEMENTED, "built without zlib");
        tu_assert_error(tx_tfrecord_open_buffer("abc", 3, (tx_tfrecord_compression)c, &r),
                        TX_UNIMPLEMENTED, "-DTX_WITH_ZLIB=ON");
        assert_null(r);
    }
    tx_tensor_free(t);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32c_known_answers),
        cmocka_unit_test(test_framing_bytes),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_truncated_at_every_byte),
        cmocka_unit_test(test_flipped_bits),
        cmocka_unit_test(test_lying_lengths),
        cmocka_unit_test(test_compressed_damage),
        cmocka_unit_test(test_compressed_batch_limit),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_without_zlib),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
