/* SPDX-License-Identifier: Apache-2.0 */
/* test_npz.c -- .npz files (src/io/npz.c, src/io/npz_save.c) and compressed .npy input
 * (src/io/npy_load.c through src/io/zstream.c): stored and deflated archives round-trip through
 * buffers and files; the writer's bytes follow the ZIP layout byte for byte (offsets checked
 * here by hand); ZIP64 end records, comments and data descriptors are read; every rule of the
 * reader, broken by patching a valid archive, gives its status and message; every truncation and
 * every one-byte change is refused or read without a crash; gzip'd and zlib'd .npy files and
 * buffers and pipes load, and tx_file_read_decompressed gives a compressed file's bytes; every
 * allocation failing in turn gives resource_exhausted and no leak.  (Files
 * NumPy writes, and byte equality with np.savez, are checked in tests/oracle/test_npz.py.) */
#include "testutil.h"

#include "io/zstream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static const char *path_in_dir(const char *name) {
    static char p[128];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/tx_npz_XXXXXX");
        assert_non_null(mkdtemp(dir));
    }
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static void write_whole(const char *path, const void *b, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

static uint32_t rd32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr16(unsigned char *p, unsigned v) {
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
}
static void wr32(unsigned char *p, uint32_t v) { wr16(p, v & 0xFFFF), wr16(p + 2, v >> 16); }
static void wr64(unsigned char *p, uint64_t v) {
    wr32(p, (uint32_t)v), wr32(p + 4, (uint32_t)(v >> 32));
}

static void assert_same(const tx_tensor *a, const tx_tensor *b) {
    assert_int_equal(tx_tensor_dtype(a), tx_tensor_dtype(b));
    assert_int_equal(tx_tensor_rank(a), tx_tensor_rank(b));
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        assert_int_equal(tx_tensor_dims(a)[i], tx_tensor_dims(b)[i]);
    if (tx_tensor_dtype(a) == TX_STRING) {
        const tx_string *x = tx_tensor_data_const(a), *y = tx_tensor_data_const(b);
        for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
            assert_int_equal(x[i].size, y[i].size);
            assert_memory_equal(x[i].data, y[i].data, (size_t)x[i].size);
        }
        return;
    }
    assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
    if (tx_tensor_nbytes(a))
        assert_memory_equal(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
}

/* The tensors the tests save: several dtypes, a 0-d, an empty, a string. */
#define NT 5
static const char *const NAMES[NT] = {"w", "bias", "scalar", "empty", "words"};
static tx_tensor *T[NT];

static int setup(void **state) {
    (void)state;
    T[0] = tu_tensor(TX_INT32, 2, TU_DIMS(2, 3), TU_VALS(1, -2, 3, -4, 5, 6));
    T[1] = tu_tensor(TX_UINT8, 1, TU_DIMS(7), TU_VALS(0, 1, 2, 3, 250, 251, 252));
    T[2] = tu_tensor(TX_BOOL, 0, NULL, TU_VALS(1));
    T[3] = tu_tensor(TX_FLOAT64, 2, TU_DIMS(0, 4), NULL);
    T[4] = tu_strings(1, TU_DIMS(3), (const char *const[]){"a", "", "xyz"});
    return 0;
}

static unsigned char *save(size_t n, bool compressed, size_t *size) {
    void *data;
    assert_int_equal(tx_npz_save_buffer(n, NAMES, (const tx_tensor *const *)T, compressed, &data,
                                        size), TX_OK);
    unsigned char *copy = malloc(*size);
    memcpy(copy, data, *size);
    tx_buffer_free(data, *size);
    return copy;
}

static void assert_reads_back(tx_npz *f, size_t n) {
    assert_int_equal(tx_npz_count(f), n);
    for (size_t i = 0; i < n; i++) {
        assert_string_equal(tx_npz_name(f, i), NAMES[i]);
        tx_tensor *t;
        assert_int_equal(tx_npz_get(f, NAMES[i], &t), TX_OK);
        assert_same(t, T[i]);
        tu_assert_read_only(t);
        tx_tensor_free(t);
    }
    assert_null(tx_npz_name(f, n));
}

static void test_round_trips(void **state) {
    (void)state;
    for (int c = 0; c < (TX_HAVE_ZLIB ? 2 : 1); c++) {
        size_t size;
        unsigned char *b = save(NT, c, &size);
        tx_npz *f;
        assert_int_equal(tx_npz_open_buffer(b, size, &f), TX_OK);
        assert_reads_back(f, NT);
        tx_npz_close(f);
        const char *p = path_in_dir("a.npz");
        assert_int_equal(tx_npz_save(p, NT, NAMES, (const tx_tensor *const *)T, c), TX_OK);
        assert_int_equal(tx_npz_open(p, &f), TX_OK);
        tx_tensor *first;
        assert_int_equal(tx_npz_get(f, "w", &first), TX_OK);
        assert_reads_back(f, NT);
        tx_npz_close(f);
        assert_same(first, T[0]); /* a tensor outlives its file */
        tx_tensor_free(first);
        FILE *fh = fopen(p, "rb");
        unsigned char *fb = malloc(size + 1);
        assert_int_equal(fread(fb, 1, size + 1, fh), size); /* the file is the buffer's bytes */
        fclose(fh);
        assert_memory_equal(fb, b, size);
        free(fb);
        free(b);
    }
    /* no member at all: the end record alone */
    size_t size;
    unsigned char *b = save(0, false, &size);
    assert_int_equal(size, 22);
    tx_npz *f;
    assert_int_equal(tx_npz_open_buffer(b, size, &f), TX_OK);
    assert_int_equal(tx_npz_count(f), 0);
    tx_npz_close(f);
    free(b);
    assert_int_equal(tx_npz_count(NULL), 0);
    assert_null(tx_npz_name(NULL, 0));
    tx_npz_close(NULL);
}

/* The layout of a one-member stored archive "w.npy" written here: local header at 0 (30 bytes,
 * the 5-byte name, the 20-byte ZIP64 extra), the .npy at 55, the central directory entry, the end
 * record; every field as zipfile writes it. */
static void test_layout(void **state) {
    (void)state;
    size_t size;
    unsigned char *b = save(1, false, &size);
    void *npy;
    size_t npy_size;
    assert_int_equal(tx_npy_save_buffer(T[0], &npy, &npy_size), TX_OK);
    assert_int_equal(size, 55 + npy_size + 51 + 22);
    static const unsigned char local[10] = {0x50, 0x4b, 3, 4, 20, 0, 0, 0, 0, 0};
    assert_memory_equal(b, local, 10);
    assert_int_equal(rd32(b + 10), 0x00210000u); /* time 0, date 1980-01-01 */
    assert_int_equal(rd32(b + 14), tx__crc32(0, npy, npy_size));
    assert_int_equal(rd32(b + 18), npy_size);
    assert_int_equal(rd32(b + 22), npy_size);
    assert_memory_equal(b + 26, "\x05\x00\x14\x00w.npy\x01\x00\x10\x00", 13);
    assert_memory_equal(b + 55, npy, npy_size);
    const unsigned char *c = b + 55 + npy_size;
    assert_int_equal(rd32(c), 0x02014b50u);
    assert_memory_equal(c + 4, "\x14\x03\x14\x00", 4);
    assert_int_equal(rd32(c + 38), 0600u << 16);
    assert_int_equal(rd32(c + 42), 0);
    const unsigned char *e = c + 51;
    assert_int_equal(rd32(e), 0x06054b50u);
    assert_int_equal(rd32(e + 12), 51);
    assert_int_equal(rd32(e + 16), 55 + npy_size);
    tx_buffer_free(npy, npy_size);
    free(b);
}

static void expect_open(const unsigned char *b, size_t size, tx_status want, const char *frag) {
    tx_npz *f = (tx_npz *)(uintptr_t)1;
    tu_assert_error(tx_npz_open_buffer(b, size, &f), want, frag);
    assert_null(f);
}

static void expect_get(const unsigned char *b, size_t size, const char *name, tx_status want,
                       const char *frag) {
    tx_npz *f;
    assert_int_equal(tx_npz_open_buffer(b, size, &f), TX_OK);
    tx_tensor *t = (tx_tensor *)(uintptr_t)1;
    tu_assert_error(tx_npz_get(f, name, &t), want, frag);
    assert_null(t);
    tx_npz_close(f);
}

/* A copy of the n bytes at b with the 4 bytes at `at` set to v (width 2 or 4). */
static unsigned char *patched(const unsigned char *b, size_t n, size_t at, uint32_t v, int width) {
    unsigned char *p = malloc(n);
    memcpy(p, b, n);
    if (width == 1) p[at] = (unsigned char)v;
    else if (width == 2) wr16(p + at, v);
    else wr32(p + at, v);
    return p;
}

#define EXPECT_PATCH(b, n, at, v, w, st, frag)                                                    \
    do {                                                                                          \
        unsigned char *p_ = patched(b, n, at, v, w);                                              \
        expect_open(p_, n, st, frag);                                                             \
        free(p_);                                                                                 \
    } while (0)

/* Each rule of the directory, broken in a one-member stored archive ("w", layout above). */
static void test_directory_rules(void **state) {
    (void)state;
    size_t n;
    unsigned char *b = save(1, false, &n);
    size_t cd = rd32(b + n - 6), eocd = n - 22, usize = rd32(b + 22);
    expect_open(b, 21, TX_INVALID_ARGUMENT, "too few for a ZIP file");
    static const unsigned char junk[40] = {1, 2, 3};
    expect_open(junk, sizeof junk, TX_INVALID_ARGUMENT, "not a ZIP file");
    EXPECT_PATCH(b, n, eocd + 20, 1, 2, TX_INVALID_ARGUMENT, "not a ZIP file"); /* comment */
    EXPECT_PATCH(b, n, eocd + 4, 1, 2, TX_UNIMPLEMENTED, "multi-disk");
    EXPECT_PATCH(b, n, eocd + 16, (uint32_t)cd + 1, 4, TX_INVALID_ARGUMENT,
                 "does not end where the end record starts");
    EXPECT_PATCH(b, n, eocd + 12, 50, 4, TX_INVALID_ARGUMENT,
                 "does not end where the end record starts");
    EXPECT_PATCH(b, n, eocd + 10, 2, 2, TX_UNIMPLEMENTED, "1 of its 2 entries on this disk");
    unsigned char *p = patched(b, n, eocd + 10, 2, 2);
    wr16(p + eocd + 8, 2);
    expect_open(p, n, TX_INVALID_ARGUMENT, "more than the central directory");
    free(p);
    p = patched(b, n, eocd + 10, 0, 2);
    wr16(p + eocd + 8, 0);
    expect_open(p, n, TX_INVALID_ARGUMENT, "51 bytes follow the 0 central directory entries");
    free(p);
    EXPECT_PATCH(b, n, cd, 0x02014b51u, 4, TX_INVALID_ARGUMENT, "no signature 0x02014b50");
    EXPECT_PATCH(b, n, cd + 28, 6, 2, TX_INVALID_ARGUMENT, "run past the central directory");
    EXPECT_PATCH(b, n, cd + 28, 0, 2, TX_INVALID_ARGUMENT, "the member's name is empty");
    EXPECT_PATCH(b, n, cd + 46, 0, 1, TX_INVALID_ARGUMENT, "holds a NUL byte");
    EXPECT_PATCH(b, n, cd + 8, 1, 2, TX_UNIMPLEMENTED, "is encrypted");
    EXPECT_PATCH(b, n, cd + 10, 12, 2, TX_UNIMPLEMENTED, "compression method 12");
    EXPECT_PATCH(b, n, cd + 34, 2, 2, TX_UNIMPLEMENTED, "starts on disk 2");
    EXPECT_PATCH(b, n, cd + 24, 0xFFFFFFFFu, 4, TX_INVALID_ARGUMENT, "has no ZIP64 extra field");
    EXPECT_PATCH(b, n, cd + 42, (uint32_t)cd, 4, TX_DATA_LOSS,
                 "does not fit before the central directory");
    EXPECT_PATCH(b, n, 0, 0x04034b51u, 4, TX_INVALID_ARGUMENT, "no local header signature");
    EXPECT_PATCH(b, n, 28, 0xF000, 2, TX_DATA_LOSS, "run past the central directory");
    EXPECT_PATCH(b, n, 30, 'v', 1, TX_INVALID_ARGUMENT, "names another member");
    EXPECT_PATCH(b, n, 6, 0x800, 2, TX_INVALID_ARGUMENT, "disagree with the central directory");
    EXPECT_PATCH(b, n, 14, 0, 4, TX_INVALID_ARGUMENT, "disagree with the central directory's");
    EXPECT_PATCH(b, n, 37, 17, 2, TX_INVALID_ARGUMENT, "runs past the extra data");
    p = patched(b, n, 22, 0xFFFFFFFFu, 4); /* the size from the ZIP64 extra field, lying */
    wr64(p + 39, usize + 1);
    expect_open(p, n, TX_INVALID_ARGUMENT, "disagree with the central directory's");
    free(p);
    /* data past the central directory: both headers lie alike */
    p = patched(b, n, cd + 20, (uint32_t)usize + 100, 4);
    wr32(p + cd + 24, (uint32_t)usize + 100), wr32(p + 18, (uint32_t)usize + 100);
    wr32(p + 22, (uint32_t)usize + 100);
    wr64(p + 30 + 5 + 4, usize + 100), wr64(p + 30 + 5 + 12, usize + 100);
    expect_open(p, n, TX_DATA_LOSS, "run past the central directory");
    /* a stored member whose two sizes differ */
    wr32(p + cd + 20, (uint32_t)usize - 1), wr32(p + cd + 24, (uint32_t)usize);
    wr32(p + 18, (uint32_t)usize - 1), wr32(p + 22, (uint32_t)usize);
    expect_open(p, n, TX_INVALID_ARGUMENT, "is stored (method 0) with compressed size");
    free(p);
    free(b);
}

/* Two identical tensors "w" and "v": members that overlap, and two that hold one array. */
static void test_member_rules(void **state) {
    (void)state;
    const char *names[2] = {"w", "v"};
    const tx_tensor *ts[2] = {T[0], T[0]};
    void *data;
    size_t n;
    assert_int_equal(tx_npz_save_buffer(2, names, ts, 0, &data, &n), TX_OK);
    unsigned char *b = malloc(n);
    memcpy(b, data, n);
    tx_buffer_free(data, n);
    size_t cd = rd32(b + n - 6), second = cd + 51, local2 = rd32(b + second + 42);
    unsigned char *p = patched(b, n, second + 46, 'w', 1);
    wr32(p + second + 42, 0);
    expect_open(p, n, TX_INVALID_ARGUMENT, "members \"w.npy\" and \"w.npy\" overlap");
    free(p);
    p = patched(b, n, second + 46, 'w', 1);
    p[local2 + 30] = 'w';
    expect_open(p, n, TX_INVALID_ARGUMENT, "both hold array \"w\"");
    free(p);
    /* a member that is not a .npy: listed under its whole name, not read */
    p = patched(b, n, second + 46 + 3, 'z', 1);
    p[second + 46 + 4] = 'z';
    p[local2 + 30 + 3] = 'z';
    p[local2 + 30 + 4] = 'z';
    tx_npz *f;
    assert_int_equal(tx_npz_open_buffer(p, n, &f), TX_OK);
    assert_string_equal(tx_npz_name(f, 1), "v.nzz");
    tx_tensor *t;
    tu_assert_error(tx_npz_get(f, "v.nzz", &t), TX_UNIMPLEMENTED, "is not a .npy file");
    tu_assert_error(tx_npz_get(f, "v", &t), TX_INVALID_ARGUMENT, "no array \"v\" in the file");
    tu_assert_error(tx_npz_get(f, NULL, &t), TX_INVALID_ARGUMENT, "name is NULL");
    tu_assert_error(tx_npz_get(NULL, "w", &t), TX_INVALID_ARGUMENT, "file is NULL");
    tu_assert_error(tx_npz_get(f, "w", NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tx_npz_close(f);
    free(p);
    /* a broken .npy inside a member */
    p = patched(b, n, 55, 0x4d554e94u, 4);
    expect_get(p, n, "w", TX_INVALID_ARGUMENT, "member \"w.npy\": npy");
    free(p);
    free(b);
    tu_assert_error(tx_npz_open_buffer(NULL, 3, &f), TX_INVALID_ARGUMENT, "data is NULL");
    tu_assert_error(tx_npz_open_buffer("", 0, NULL), TX_INVALID_ARGUMENT, "out is NULL");
    tu_assert_error(tx_npz_open(NULL, &f), TX_INVALID_ARGUMENT, "path is NULL");
    tu_assert_error(tx_npz_open(path_in_dir("missing.npz"), &f), TX_INVALID_ARGUMENT,
                    "cannot open");
}

/* A ZIP64 end record and locator before the end record (as zipfile writes past its limits), a
 * comment after it, and a data descriptor (flag bit 3) are read. */
static void test_zip64_comment_descriptor(void **state) {
    (void)state;
    size_t n;
    unsigned char *b = save(NT, false, &n);
    size_t cd = rd32(b + n - 6), cds = rd32(b + n - 10), eocd = n - 22;
    size_t m = n + 76 + 3;
    unsigned char *z = malloc(m);
    memcpy(z, b, eocd);
    unsigned char *r = z + eocd;
    wr32(r, 0x06064b50u), wr64(r + 4, 44), wr16(r + 12, 45), wr16(r + 14, 45);
    wr32(r + 16, 0), wr32(r + 20, 0), wr64(r + 24, NT), wr64(r + 32, NT);
    wr64(r + 40, cds), wr64(r + 48, cd);
    wr32(r + 56, 0x07064b50u), wr32(r + 60, 0), wr64(r + 64, eocd), wr32(r + 72, 1);
    memcpy(r + 76, b + eocd, 22);
    wr16(r + 76 + 8, 0xFFFF), wr16(r + 76 + 10, 0xFFFF);
    wr32(r + 76 + 12, 0xFFFFFFFFu), wr32(r + 76 + 16, 0xFFFFFFFFu), wr16(r + 76 + 20, 3);
    memcpy(r + 98, "hi!", 3);
    tx_npz *f;
    assert_int_equal(tx_npz_open_buffer(z, m, &f), TX_OK);
    assert_reads_back(f, NT);
    tx_npz_close(f);
    size_t loc = eocd + 56;
    EXPECT_PATCH(z, m, loc + 16, 2, 4, TX_UNIMPLEMENTED, "multi-disk");
    EXPECT_PATCH(z, m, loc + 8, (uint32_t)eocd + 1, 4, TX_INVALID_ARGUMENT,
                 "no 56-byte ZIP64 end of central directory record fits");
    EXPECT_PATCH(z, m, eocd, 0, 4, TX_INVALID_ARGUMENT, "no ZIP64 end of central directory");
    EXPECT_PATCH(z, m, eocd + 4, 45, 4, TX_INVALID_ARGUMENT, "does not reach the locator");
    EXPECT_PATCH(z, m, eocd + 40, (uint32_t)cds - 1, 4, TX_INVALID_ARGUMENT,
                 "does not end where the ZIP64 end record starts");
    EXPECT_PATCH(z, m, eocd + 16, 1, 4, TX_UNIMPLEMENTED, "multi-disk");
    free(z);
    /* data descriptor: flag bit 3 in both headers, zeros for the local CRC and sizes */
    unsigned char *d = malloc(n);
    memcpy(d, b, n);
    for (size_t i = 0, at = cd; i < NT; i++) {
        size_t local = rd32(d + at + 42);
        wr16(d + at + 8, 8);
        wr16(d + local + 6, 8);
        memset(d + local + 14, 0, 12);
        at += 46 + (d[at + 28] | d[at + 29] << 8) + (d[at + 30] | d[at + 31] << 8);
    }
    assert_int_equal(tx_npz_open_buffer(d, n, &f), TX_OK);
    assert_reads_back(f, NT);
    tx_npz_close(f);
    free(d);
    free(b);
}

/* Deflated members: a CRC, size or stream that lies gives data_loss at get. */
static void test_deflated_rules(void **state) {
    (void)state;
    if (!TX_HAVE_ZLIB) {
        size_t n;
        unsigned char *b = save(1, false, &n);
        free(b);
        void *data;
        tu_assert_error(tx_npz_save_buffer(1, NAMES, (const tx_tensor *const *)T, 1, &data, &n),
                        TX_UNIMPLEMENTED, "TX_WITH_ZLIB");
        return;
    }
    size_t n;
    unsigned char *b = save(1, true, &n);
    size_t cd = rd32(b + n - 6), usize = rd32(b + 22), csize = rd32(b + 18);
    unsigned char *p = patched(b, n, 14, 0x12345678u, 4);
    wr32(p + cd + 16, 0x12345678u);
    expect_get(p, n, "w", TX_DATA_LOSS, "CRC-32 mismatch");
    free(p);
    for (int d = -1; d <= 1; d += 2) { /* declared one byte short, one byte long */
        p = patched(b, n, 22, (uint32_t)(usize + d), 4);
        wr32(p + cd + 24, (uint32_t)(usize + d));
        wr64(p + 39, usize + d);
        expect_get(p, n, "w", TX_DATA_LOSS,
                   d < 0 ? "decompresses to more than the" : "decompresses to");
        free(p);
    }
    p = patched(b, n, 18, (uint32_t)csize - 3, 4); /* the stream cut short */
    wr32(p + cd + 20, (uint32_t)csize - 3);
    wr64(p + 47, csize - 3);
    expect_get(p, n, "w", TX_DATA_LOSS, "stops before its end");
    free(p);
    p = patched(b, n, 55, 0xFFFFFFFFu, 4); /* corrupt deflate data */
    expect_get(p, n, "w", TX_DATA_LOSS, "corrupt");
    free(p);
    free(b);
}

static bool allowed(tx_status st) {
    return st == TX_OK || st == TX_INVALID_ARGUMENT || st == TX_DATA_LOSS ||
           st == TX_UNIMPLEMENTED;
}

/* Every prefix is refused; every one-byte change opens or is refused, and every array of what
 * opens reads or is refused (ASan and valgrind builds check the reads). */
static void test_truncations_and_flips(void **state) {
    (void)state;
    for (int c = 0; c < (TX_HAVE_ZLIB ? 2 : 1); c++) {
        size_t n;
        unsigned char *b = save(NT, c, &n);
        tx_npz *f;
        for (size_t k = 0; k < n; k++) {
            tx_status st = tx_npz_open_buffer(b, k, &f);
            assert_true(st == TX_INVALID_ARGUMENT || st == TX_DATA_LOSS);
        }
        unsigned char *p = malloc(n);
        for (size_t k = 0; k < n; k++) {
            memcpy(p, b, n);
            p[k] ^= (unsigned char)(0x5A + k);
            tx_status st = tx_npz_open_buffer(p, n, &f);
            assert_true(allowed(st));
            if (st != TX_OK) continue;
            for (size_t i = 0; i < tx_npz_count(f); i++) {
                tx_tensor *t;
                st = tx_npz_get(f, tx_npz_name(f, i), &t);
                assert_true(allowed(st));
                tx_tensor_free(t);
            }
            tx_npz_close(f);
        }
        free(p);
        free(b);
    }
}

static void test_save_rules(void **state) {
    (void)state;
    void *data;
    size_t size;
    const tx_tensor *ts[2] = {T[0], T[1]};
    tu_assert_error(tx_npz_save_buffer(1, NAMES, ts, 0, NULL, &size), TX_INVALID_ARGUMENT,
                    "data or size is NULL");
    tu_assert_error(tx_npz_save_buffer(1, NULL, ts, 0, &data, &size), TX_INVALID_ARGUMENT,
                    "names or tensors is NULL with count 1");
    const char *dup[2] = {"a", "a"};
    tu_assert_error(tx_npz_save_buffer(2, dup, ts, 0, &data, &size), TX_INVALID_ARGUMENT,
                    "names[0] and names[1] are both \"a\"");
    const char *bad[1] = {"\xff"};
    tu_assert_error(tx_npz_save_buffer(1, bad, ts, 0, &data, &size), TX_INVALID_ARGUMENT,
                    "names[0] is not valid UTF-8");
    const char *null_name[1] = {NULL};
    tu_assert_error(tx_npz_save_buffer(1, null_name, ts, 0, &data, &size), TX_INVALID_ARGUMENT,
                    "names[0] is NULL");
    const tx_tensor *null_t[1] = {NULL};
    tu_assert_error(tx_npz_save_buffer(1, NAMES, null_t, 0, &data, &size), TX_INVALID_ARGUMENT,
                    "tensors[0] is NULL");
    assert_null(data);
    assert_int_equal(size, 0);
    tu_assert_error(tx_npz_save(NULL, 1, NAMES, ts, 0), TX_INVALID_ARGUMENT, "path is NULL");
    tu_assert_error(tx_npz_save(dir, 1, NAMES, ts, 0), TX_INVALID_ARGUMENT, "npz_save");
    /* a non-ASCII name is flagged UTF-8 (bit 11) in both headers */
    const char *utf[1] = {"\xc3\xa9"};
    assert_int_equal(tx_npz_save_buffer(1, utf, ts, 0, &data, &size), TX_OK);
    const unsigned char *b = data;
    assert_int_equal(b[6] | b[7] << 8, 0x800);
    tx_npz *f;
    assert_int_equal(tx_npz_open_buffer(data, size, &f), TX_OK);
    assert_string_equal(tx_npz_name(f, 0), "\xc3\xa9");
    tx_npz_close(f);
    tx_buffer_free(data, size);
}

/* A growable buffer as a zstream sink. */
typedef struct {
    unsigned char *p;
    size_t n;
} gbuf;

static tx_status gbuf_write(void *ctx, const void *p, size_t n) {
    gbuf *g = ctx;
    g->p = realloc(g->p, g->n + n);
    memcpy(g->p + g->n, p, n);
    g->n += n;
    return TX_OK;
}

static gbuf compress(tx__zformat format, const void *p, size_t n) {
    gbuf g = {NULL, 0};
    tx__zsink *z;
    assert_int_equal(tx__zsink_open("test", format, gbuf_write, &g, &z), TX_OK);
    assert_int_equal(tx__zsink_write(z, p, n), TX_OK);
    assert_int_equal(tx__zsink_finish(z), TX_OK);
    tx__zsink_close(z);
    return g;
}

/* gzip'd and zlib'd .npy files, buffers and pipes load as the plain file; cut short, with bytes
 * after the data, or corrupt, they are refused. */
static void test_compressed_npy(void **state) {
    (void)state;
    if (!TX_HAVE_ZLIB) return;
    for (size_t i = 0; i < NT; i++) {
        void *npy;
        size_t n;
        assert_int_equal(tx_npy_save_buffer(T[i], &npy, &n), TX_OK);
        for (int fmt = TX__Z_ZLIB; fmt <= TX__Z_GZIP; fmt++) {
            gbuf g = compress((tx__zformat)fmt, npy, n);
            assert_int_equal(tx__zformat_of(g.p, g.n), fmt);
            tx_tensor *t;
            assert_int_equal(tx_npy_load_buffer(g.p, g.n, &t), TX_OK);
            assert_same(t, T[i]);
            tx_tensor_free(t);
            const char *p = path_in_dir("c.npy");
            write_whole(p, g.p, g.n);
            assert_int_equal(tx_npy_load(p, &t), TX_OK);
            assert_same(t, T[i]);
            tx_tensor_free(t);
            int fds[2];
            assert_int_equal(pipe(fds), 0);
            assert_int_equal(write(fds[1], g.p, g.n), (ssize_t)g.n);
            close(fds[1]);
            assert_int_equal(tx_npy_load_fd(fds[0], &t), TX_OK);
            close(fds[0]);
            assert_same(t, T[i]);
            tx_tensor_free(t);
            tu_assert_error(tx_npy_load_buffer(g.p, g.n - 1, &t), TX_DATA_LOSS,
                            i == 3 ? "stops before its end" : "");
            free(g.p);
        }
        /* bytes after the data, inside the stream */
        unsigned char *more = malloc(n + 1);
        memcpy(more, npy, n);
        more[n] = 0;
        gbuf g = compress(TX__Z_GZIP, more, n + 1);
        tx_tensor *t;
        tu_assert_error(tx_npy_load_buffer(g.p, g.n, &t), TX_INVALID_ARGUMENT, "npy");
        g.p[g.n / 2] ^= 0x55;
        tx_status st = tx_npy_load_buffer(g.p, g.n, &t);
        assert_true(st == TX_DATA_LOSS || st == TX_INVALID_ARGUMENT);
        free(g.p);
        free(more);
        tx_buffer_free(npy, n);
    }
    tx_tensor *t;
    tu_assert_error(tx_npy_load_buffer("\x1f\x8b", 2, &t), TX_DATA_LOSS, "");
    assert_int_equal(tx__zformat_of("\x78\x9c", 2), TX__Z_ZLIB);
    assert_int_equal(tx__zformat_of("\x93NUMPY", 6), 0);
}

static void assert_scalar_string(const tx_tensor *t, const void *bytes, size_t n) {
    assert_int_equal(tx_tensor_dtype(t), TX_STRING);
    assert_int_equal(tx_tensor_rank(t), 0);
    const tx_string *s = tx_tensor_data_const(t);
    assert_int_equal(s->size, n);
    if (n) assert_memory_equal(s->data, bytes, n);
}

/* tx_file_read_decompressed: gzip'd, zlib'd, concatenated gzip members, empty content; a plain
 * file, a cut stream, corrupt data and an output over the tensor cap are refused. */
static void test_read_decompressed(void **state) {
    (void)state;
    const char *p = path_in_dir("raw.gz");
    tx_tensor *t;
    if (!TX_HAVE_ZLIB) {
        write_whole(p, "\x1f\x8b", 2);
        tu_assert_error(tx_file_read_decompressed(p, &t), TX_UNIMPLEMENTED, "TX_WITH_ZLIB");
        return;
    }
    static const char text[] = "0123456789abcdefghij";
    for (int fmt = TX__Z_ZLIB; fmt <= TX__Z_GZIP; fmt++) {
        gbuf g = compress((tx__zformat)fmt, text, 20);
        write_whole(p, g.p, g.n);
        assert_int_equal(tx_file_read_decompressed(p, &t), TX_OK);
        assert_scalar_string(t, text, 20);
        tx_tensor_free(t);
        write_whole(p, g.p, g.n - 1);
        tu_assert_error(tx_file_read_decompressed(p, &t), TX_DATA_LOSS, "stops before its end");
        assert_null(t);
        free(g.p);
        /* 4000 bytes from a file of a few dozen, over a cap of 1000 */
        static char zeros[4000];
        g = compress((tx__zformat)fmt, zeros, sizeof zeros);
        write_whole(p, g.p, g.n);
        size_t cap = tx_max_tensor_bytes();
        tx_set_max_tensor_bytes(1000);
        tx_status st = tx_file_read_decompressed(p, &t);
        tx_set_max_tensor_bytes(cap);
        tu_assert_error(st, TX_RESOURCE_EXHAUSTED, "more than tx_max_tensor_bytes() (1000");
        free(g.p);
    }
    gbuf a = compress(TX__Z_GZIP, text, 10), b = compress(TX__Z_GZIP, text + 10, 10);
    a.p = realloc(a.p, a.n + b.n);
    memcpy(a.p + a.n, b.p, b.n);
    write_whole(p, a.p, a.n + b.n);
    assert_int_equal(tx_file_read_decompressed(p, &t), TX_OK);
    assert_scalar_string(t, text, 20);
    tx_tensor_free(t);
    a.p[a.n + b.n - 12] ^= 0x40; /* a flipped byte in the second member's data */
    write_whole(p, a.p, a.n + b.n);
    tu_assert_error(tx_file_read_decompressed(p, &t), TX_DATA_LOSS, "GZIP");
    free(a.p);
    free(b.p);
    gbuf e = compress(TX__Z_GZIP, "", 0);
    write_whole(p, e.p, e.n);
    assert_int_equal(tx_file_read_decompressed(p, &t), TX_OK);
    assert_scalar_string(t, "", 0);
    tx_tensor_free(t);
    free(e.p);
    write_whole(p, "plain", 5);
    tu_assert_error(tx_file_read_decompressed(p, &t), TX_INVALID_ARGUMENT,
                    "is neither gzip'd (magic 1f 8b) nor zlib'd");
    tu_assert_error(tx_file_read_decompressed(NULL, &t), TX_INVALID_ARGUMENT, "path is NULL");
    tu_assert_error(tx_file_read_decompressed(path_in_dir("none.gz"), &t), TX_INVALID_ARGUMENT,
                    "cannot open");
}

/* Every allocation of save_buffer, open_buffer and get failing in turn. */
static void test_allocation_failures(void **state) {
    (void)state;
    for (int c = 0; c < (TX_HAVE_ZLIB ? 2 : 1); c++) {
        tu_alloc_install();
        long live = tu_alloc_live();
        void *data = NULL;
        size_t size = 0;
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_status st = tx_npz_save_buffer(NT, NAMES, (const tx_tensor *const *)T, c, &data,
                                              &size);
            tu_alloc_fail_at(0);
            if (st == TX_OK) break;
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_int_equal(tu_alloc_live(), live);
        }
        for (long k = 1;; k++) {
            tx_npz *f = NULL;
            tu_alloc_fail_at(k);
            tx_status st = tx_npz_open_buffer(data, size, &f);
            tu_alloc_fail_at(0);
            if (st != TX_OK) {
                assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
                assert_null(f);
                continue;
            }
            bool done = true;
            for (size_t i = 0; i < NT; i++) {
                tx_tensor *t = NULL;
                tu_alloc_fail_at(k);
                st = tx_npz_get(f, NAMES[i], &t);
                tu_alloc_fail_at(0);
                if (st == TX_OK) assert_same(t, T[i]);
                else assert_int_equal(st, TX_RESOURCE_EXHAUSTED), done = false;
                tx_tensor_free(t);
            }
            tx_npz_close(f);
            if (done) break;
        }
        tx_buffer_free(data, size);
        assert_int_equal(tu_alloc_live(), live);
        tu_alloc_uninstall();
    }
}

static int cleanup(void **state) {
    (void)state;
    for (size_t i = 0; i < NT; i++) tx_tensor_free(T[i]);
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        return system(cmd) == 0 ? 0 : 1;
    }
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trips),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_directory_rules),
        cmocka_unit_test(test_member_rules),
        cmocka_unit_test(test_zip64_comment_descriptor),
        cmocka_unit_test(test_deflated_rules),
        cmocka_unit_test(test_truncations_and_flips),
        cmocka_unit_test(test_save_rules),
        cmocka_unit_test(test_compressed_npy),
        cmocka_unit_test(test_read_decompressed),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, setup, cleanup);
}
