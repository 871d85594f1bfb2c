/* SPDX-License-Identifier: Apache-2.0 */
/* test_idx.c -- IDX files (src/io/idx.c): every type code and rank 0..4 round-trips through
 * buffers, files and gzip'd files, and the saved bytes equal files built here by hand (big-endian
 * dims and data); known bytes read as known values; every truncation gives data_loss, lying and
 * overflowing dims, bad magic, type codes and ranks, and trailing bytes invalid_argument; corrupt
 * gzip data data_loss and an oversized one resource_exhausted before it is read; 1-byte files are
 * views of the mapping; every allocation failing in turn gives resource_exhausted and no leak.
 * (Files NumPy writes are read in tests/oracle/test_idx.py.) */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static const char *path_in_dir(const char *name) {
    static char p[128];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/tx_idx_XXXXXX");
        assert_non_null(mkdtemp(dir));
    }
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return p;
}

static const struct {
    tx_dtype dtype;
    unsigned char code;
} TYPES[] = {{TX_UINT8, 0x08}, {TX_INT8, 0x09},    {TX_INT16, 0x0B},
             {TX_INT32, 0x0C}, {TX_FLOAT32, 0x0D}, {TX_FLOAT64, 0x0E}};
#define NTYPES (sizeof TYPES / sizeof TYPES[0])

static tx_tensor *random_tensor(tx_dtype dt, size_t rank, const int64_t *dims, unsigned seed) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    size_t bytes = (size_t)n * tx_dtype_size(dt);
    unsigned char *b = malloc(bytes ? bytes : 1);
    for (size_t i = 0; i < bytes; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = (unsigned char)(seed >> 16);
    }
    tx_tensor *t;
    assert_int_equal(tx_tensor_from_data(dt, rank, dims, b, bytes, &t), TX_OK);
    free(b);
    return t;
}

/* The IDX file of t built byte by byte: the header, then each element's bytes most significant
 * first (reversed from the host's order on a little-endian host). */
static unsigned char *hand_built(const tx_tensor *t, unsigned char code, size_t *len) {
    size_t rank = tx_tensor_rank(t), size = tx_dtype_size(tx_tensor_dtype(t));
    size_t nbytes = tx_tensor_nbytes(t);
    *len = 4 + 4 * rank + nbytes;
    unsigned char *f = malloc(*len), *p = f;
    *p++ = 0, *p++ = 0, *p++ = code, *p++ = (unsigned char)rank;
    for (size_t i = 0; i < rank; i++) {
        uint32_t d = (uint32_t)tx_tensor_dims(t)[i];
        *p++ = (unsigned char)(d >> 24), *p++ = (unsigned char)(d >> 16);
        *p++ = (unsigned char)(d >> 8), *p++ = (unsigned char)d;
    }
    const unsigned char *src = tx_tensor_data_const(t);
    uint16_t probe = 1;
    bool little = *(unsigned char *)&probe == 1;
    for (size_t e = 0; e < nbytes; e += size)
        for (size_t b = 0; b < size; b++) p[e + b] = src[e + (little ? size - 1 - b : b)];
    return f;
}

static void assert_same(const tx_tensor *a, const tx_tensor *b) {
    assert_int_equal(tx_tensor_dtype(a), tx_tensor_dtype(b));
    assert_int_equal(tx_tensor_rank(a), tx_tensor_rank(b));
    for (size_t i = 0; i < tx_tensor_rank(a); i++)
        assert_int_equal(tx_tensor_dims(a)[i], tx_tensor_dims(b)[i]);
    assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
    if (tx_tensor_nbytes(a))
        assert_memory_equal(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a));
}

static unsigned char *read_whole(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*len ? *len : 1);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static void write_whole(const char *path, const void *b, size_t len) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len, f), len);
    fclose(f);
}

static const int64_t SHAPES[5][4] = {{0}, {5}, {2, 3}, {2, 1, 3}, {2, 3, 1, 2}};

/* Every type code at rank 0..4 (and an empty tensor): the saved bytes are the hand-built file;
 * buffer, file and gzip'd file read back the tensor. */
static void test_round_trips(void **state) {
    (void)state;
    for (size_t k = 0; k < NTYPES; k++)
        for (size_t rank = 0; rank <= 5; rank++) {
            const int64_t *dims = rank < 5 ? SHAPES[rank] : TU_DIMS(3, 0, 2);
            size_t r = rank < 5 ? rank : 3;
            tx_tensor *t = random_tensor(TYPES[k].dtype, r, dims, (unsigned)(k * 7 + rank));
            size_t want_len, len;
            unsigned char *want = hand_built(t, TYPES[k].code, &want_len);
            void *buf;
            assert_int_equal(tx_idx_save_buffer(t, &buf, &len), TX_OK);
            assert_int_equal(len, want_len);
            assert_memory_equal(buf, want, len);
            tx_tensor *u;
            assert_int_equal(tx_idx_load_buffer(want, want_len, &u), TX_OK);
            assert_same(t, u);
            tu_assert_writable(u);
            tx_tensor_free(u);
            const char *p = path_in_dir("t.idx");
            assert_int_equal(tx_idx_save(p, t), TX_OK);
            size_t flen;
            unsigned char *fb = read_whole(p, &flen);
            assert_int_equal(flen, want_len);
            assert_memory_equal(fb, want, flen);
            free(fb);
            assert_int_equal(tx_idx_load(p, &u), TX_OK);
            assert_same(t, u);
            tx_tensor_free(u);
            if (TX_HAVE_ZLIB) {
                p = path_in_dir("t.idx.gz");
                assert_int_equal(tx_idx_save(p, t), TX_OK);
                fb = read_whole(p, &flen);
                assert_true(flen > 2 && fb[0] == 0x1f && fb[1] == 0x8b);
                assert_int_equal(tx_idx_load_buffer(fb, flen, &u), TX_OK);
                assert_same(t, u);
                tx_tensor_free(u);
                free(fb);
                assert_int_equal(tx_idx_load(p, &u), TX_OK);
                assert_same(t, u);
                tx_tensor_free(u);
            }
            tx_buffer_free(buf, len);
            free(want);
            tx_tensor_free(t);
        }
}

/* Bytes written here read as the values they encode, whatever the host. */
static void test_known_bytes(void **state) {
    (void)state;
    static const unsigned char i32[] = {0, 0, 0x0C, 1, 0, 0, 0, 2, 0x01, 0x02, 0x03, 0x04,
                                        0xff, 0xff, 0xff, 0xfe};
    tx_tensor *t;
    assert_int_equal(tx_idx_load_buffer(i32, sizeof i32, &t), TX_OK);
    tu_assert_shape(t, TX_INT32, 1, TU_DIMS(2));
    tu_assert_values(t, TU_VALS(16909060, -2));
    tx_tensor_free(t);
    static const unsigned char f[] = {0, 0, 0x0D, 0, 0x3f, 0x80, 0, 0};
    assert_int_equal(tx_idx_load_buffer(f, sizeof f, &t), TX_OK);
    tu_assert_shape(t, TX_FLOAT32, 0, NULL);
    tu_assert_values(t, TU_VALS(1.0));
    tx_tensor_free(t);
    static const unsigned char d[] = {0, 0, 0x0E, 1, 0, 0, 0, 1, 0xc0, 0, 0, 0, 0, 0, 0, 0};
    assert_int_equal(tx_idx_load_buffer(d, sizeof d, &t), TX_OK);
    tu_assert_values(t, TU_VALS(-2.0));
    tx_tensor_free(t);
    static const unsigned char s[] = {0, 0, 0x0B, 1, 0, 0, 0, 2, 0xff, 0xfe, 0x01, 0x00};
    assert_int_equal(tx_idx_load_buffer(s, sizeof s, &t), TX_OK);
    tu_assert_values(t, TU_VALS(-2, 256));
    tx_tensor_free(t);
    static const unsigned char b[] = {0, 0, 0x09, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0x80, 0x7f};
    assert_int_equal(tx_idx_load_buffer(b, sizeof b, &t), TX_OK);
    tu_assert_shape(t, TX_INT8, 2, TU_DIMS(1, 2));
    tu_assert_values(t, TU_VALS(-128, 127));
    tx_tensor_free(t);
}

/* Every prefix of a file (plain, and gzip'd) is data_loss. */
static void test_truncated_at_every_byte(void **state) {
    (void)state;
    tx_tensor *t = random_tensor(TX_INT32, 2, TU_DIMS(2, 3), 5), *u;
    void *buf;
    size_t len;
    assert_int_equal(tx_idx_save_buffer(t, &buf, &len), TX_OK);
    for (size_t n = 0; n < len; n++) {
        assert_int_equal(tx_idx_load_buffer(buf, n, &u), TX_DATA_LOSS);
        assert_null(u);
        assert_non_null(strstr(tx_last_error(), n < 12 ? "cut short" : "truncated"));
    }
    tu_assert_error(tx_idx_load_buffer(buf, 20, &u), TX_DATA_LOSS,
                    "truncated: the dims announce 24 bytes of data, 8 remain");
    const char *p = path_in_dir("cut.idx");
    write_whole(p, buf, len - 1);
    tu_assert_error(tx_idx_load(p, &u), TX_DATA_LOSS, "truncated");
    tx_buffer_free(buf, len);
    if (TX_HAVE_ZLIB) {
        p = path_in_dir("cut.idx.gz");
        assert_int_equal(tx_idx_save(p, t), TX_OK);
        unsigned char *gz = read_whole(p, &len);
        for (size_t n = 0; n < len; n++) {
            tx_status st = tx_idx_load_buffer(gz, n, &u);
            assert_int_equal(st, TX_DATA_LOSS);
            assert_null(u);
        }
        free(gz);
    }
    tx_tensor_free(t);
}

/* Headers that break a rule, each refused naming the field and the rule. */
static void test_bad_headers(void **state) {
    (void)state;
    tx_tensor *u;
    static const unsigned char magic[] = {0, 1, 0x08, 0};
    tu_assert_error(tx_idx_load_buffer(magic, 4, &u), TX_INVALID_ARGUMENT,
                    "magic: bytes 0 and 1 must be 0, found 0x00 0x01");
    static const unsigned char type[] = {0, 0, 0x0A, 0};
    tu_assert_error(tx_idx_load_buffer(type, 4, &u), TX_INVALID_ARGUMENT,
                    "type code (byte 2) 0x0a is not one of 0x08 (uint8)");
    unsigned char rank[4 + 4 * 255] = {0, 0, 0x08, 255};
    tu_assert_error(tx_idx_load_buffer(rank, sizeof rank, &u), TX_INVALID_ARGUMENT,
                    "rank (byte 3) 255 exceeds the maximum of 254");
    /* dims that claim far more than the file holds: refused before anything is allocated */
    static const unsigned char lie[] = {0, 0, 0x0E, 1, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4};
    tu_assert_error(tx_idx_load_buffer(lie, sizeof lie, &u), TX_DATA_LOSS,
                    "the dims announce 34359738360 bytes of data, 4 remain");
    static const unsigned char big[] = {0,    0,    0x0E, 3,    0xff, 0xff, 0xff, 0xff,
                                        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    tu_assert_error(tx_idx_load_buffer(big, sizeof big, &u), TX_INVALID_ARGUMENT,
                    "dims: the data's byte count overflows at dim 1 (4294967295)");
    static const unsigned char extra[] = {0, 0, 0x08, 1, 0, 0, 0, 1, 7, 8};
    tu_assert_error(tx_idx_load_buffer(extra, sizeof extra, &u), TX_INVALID_ARGUMENT,
                    "1 bytes follow the 1 bytes of data the dims announce");
    tu_assert_error(tx_idx_load_buffer(NULL, 3, &u), TX_INVALID_ARGUMENT, "data is NULL");
    tu_assert_error(tx_idx_load(NULL, &u), TX_INVALID_ARGUMENT, "path is NULL");
    tu_assert_error(tx_idx_load(path_in_dir("missing.idx"), &u), TX_INVALID_ARGUMENT,
                    "cannot open");
    tu_assert_error(tx_idx_load(dir, &u), TX_INVALID_ARGUMENT, "is not a regular file");
}

static void test_gzip(void **state) {
    (void)state;
    tx_tensor *t = random_tensor(TX_FLOAT32, 2, TU_DIMS(28, 28), 9), *u;
    const char *p = path_in_dir("g.idx.gz");
    if (!TX_HAVE_ZLIB) {
        tu_assert_error(tx_idx_save(p, t), TX_UNIMPLEMENTED, "TX_WITH_ZLIB");
        static const unsigned char gz[] = {0x1f, 0x8b, 8, 0};
        tu_assert_error(tx_idx_load_buffer(gz, 4, &u), TX_UNIMPLEMENTED, "TX_WITH_ZLIB");
        tx_tensor_free(t);
        return;
    }
    assert_int_equal(tx_idx_save(p, t), TX_OK);
    size_t len;
    unsigned char *gz = read_whole(p, &len);
    gz[len / 2] ^= 0x55; /* corrupt the deflate data (or its CRC) */
    tu_assert_error(tx_idx_load_buffer(gz, len, &u), TX_DATA_LOSS, "");
    gz[len / 2] ^= 0x55;
    gz[len - 6] ^= 1; /* the CRC-32 of the trailer */
    tu_assert_error(tx_idx_load_buffer(gz, len, &u), TX_DATA_LOSS, "incorrect data check");
    gz[len - 6] ^= 1;
    /* the cap: refused from the header, before the data is inflated */
    tx_set_max_tensor_bytes(1024);
    tu_assert_error(tx_idx_load_buffer(gz, len, &u), TX_RESOURCE_EXHAUSTED,
                    "announce 3136 bytes of data, more than tx_max_tensor_bytes() (1024)");
    tx_set_max_tensor_bytes(0);
    free(gz);
    /* two gzip members (gunzip reads them as one stream): the second is bytes after the data */
    tx_tensor *b = random_tensor(TX_UINT8, 1, TU_DIMS(3), 1);
    assert_int_equal(tx_idx_save(p, b), TX_OK);
    gz = read_whole(p, &len);
    assert_int_equal(tx_idx_load_buffer(gz, len, &u), TX_OK);
    assert_same(b, u);
    tx_tensor_free(u);
    unsigned char *two = malloc(2 * len);
    memcpy(two, gz, len);
    memcpy(two + len, gz, len);
    tu_assert_error(tx_idx_load_buffer(two, 2 * len, &u), TX_INVALID_ARGUMENT,
                    "bytes follow the 3 bytes of data the dims announce");
    free(two);
    free(gz);
    tx_tensor_free(b);
    tx_tensor_free(t);
}

/* A plain 1-byte file is a read-only view of the mapping (which outlives the file's name);
 * other dtypes are new writable tensors. */
static void test_views(void **state) {
    (void)state;
    tx_tensor *t = random_tensor(TX_UINT8, 3, TU_DIMS(4, 28, 28), 3), *u, *w;
    const char *p = path_in_dir("images.idx");
    assert_int_equal(tx_idx_save(p, t), TX_OK);
    assert_int_equal(tx_idx_load(p, &u), TX_OK);
    assert_int_equal(unlink(p), 0);
    assert_same(t, u);
    tu_assert_read_only(u);
    tx_tensor_free(u);
    tx_tensor *i = random_tensor(TX_INT16, 1, TU_DIMS(5), 4);
    assert_int_equal(tx_idx_save(p, i), TX_OK);
    assert_int_equal(tx_idx_load(p, &w), TX_OK);
    assert_same(i, w);
    tu_assert_writable(w);
    tx_tensor_free(w);
    tx_tensor_free(i);
    tx_tensor_free(t);
}

static void test_save_rules(void **state) {
    (void)state;
    tx_tensor *h = random_tensor(TX_FLOAT16, 1, TU_DIMS(2), 1);
    void *buf;
    size_t len;
    tu_assert_error(tx_idx_save_buffer(h, &buf, &len), TX_INVALID_ARGUMENT,
                    "tensor: dtype float16 has no IDX type code (IDX holds uint8, int8, int16, "
                    "int32, float32 and float64)");
    assert_null(buf);
    tu_assert_error(tx_idx_save(path_in_dir("h.idx"), h), TX_INVALID_ARGUMENT, "float16");
    struct stat sb;
    assert_int_not_equal(stat(path_in_dir("h.idx"), &sb), 0);
    tu_assert_error(tx_idx_save_buffer(NULL, &buf, &len), TX_INVALID_ARGUMENT, "tensor is NULL");
    tu_assert_error(tx_idx_save_buffer(h, NULL, &len), TX_INVALID_ARGUMENT, "data or size");
    tu_assert_error(tx_idx_save(NULL, h), TX_INVALID_ARGUMENT, "path is NULL");
    tx_tensor *big;
    assert_int_equal(tx_tensor_from_data(TX_UINT8, 2, TU_DIMS(0, 4294967296LL), NULL, 0, &big),
                     TX_OK);
    tu_assert_error(tx_idx_save_buffer(big, &buf, &len), TX_INVALID_ARGUMENT,
                    "dim 1 (4294967296) exceeds an IDX dim's maximum");
    tx_tensor_free(big);
    tx_tensor_free(h);
}

/* Every allocation of save_buffer, load_buffer, load and the gzip paths failing in turn. */
static void test_allocation_failures(void **state) {
    (void)state;
    tx_tensor *ts[2] = {random_tensor(TX_INT32, 2, TU_DIMS(3, 4), 1),
                        random_tensor(TX_UINT8, 1, TU_DIMS(7), 2)};
    for (size_t c = 0; c < 2 * (TX_HAVE_ZLIB ? 2 : 1); c++) {
        const tx_tensor *t = ts[c % 2];
        const char *p = path_in_dir(c < 2 ? "oom.idx" : "oom.idx.gz");
        tu_alloc_install();
        long live = tu_alloc_live();
        for (long k = 1;; k++) {
            void *buf = NULL;
            size_t size = 0;
            tu_alloc_fail_at(k);
            tx_status st = tx_idx_save_buffer(t, &buf, &size);
            tu_alloc_fail_at(0);
            if (st == TX_OK) {
                tx_buffer_free(buf, size);
                break;
            }
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
            assert_int_equal(tu_alloc_live(), live);
        }
        for (long k = 1;; k++) {
            tu_alloc_fail_at(k);
            tx_status st = tx_idx_save(p, t);
            tu_alloc_fail_at(0);
            assert_int_equal(tu_alloc_live(), live);
            if (st == TX_OK) break;
            assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
        }
        size_t len;
        unsigned char *file = read_whole(p, &len);
        for (int from_path = 0; from_path < 2; from_path++)
            for (long k = 1;; k++) {
                tx_tensor *u = NULL;
                tu_alloc_fail_at(k);
                tx_status st = from_path ? tx_idx_load(p, &u) : tx_idx_load_buffer(file, len, &u);
                tu_alloc_fail_at(0);
                if (st == TX_OK) {
                    assert_same(t, u);
                    tx_tensor_free(u);
                    assert_int_equal(tu_alloc_live(), live);
                    break;
                }
                assert_int_equal(st, TX_RESOURCE_EXHAUSTED);
                assert_null(u);
                assert_int_equal(tu_alloc_live(), live);
            }
        free(file);
        assert_int_equal(tu_alloc_live(), live);
        tu_alloc_uninstall();
    }
    tx_tensor_free(ts[0]);
    tx_tensor_free(ts[1]);
}

static int cleanup(void **state) {
    (void)state;
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
        cmocka_unit_test(test_known_bytes),
        cmocka_unit_test(test_truncated_at_every_byte),
        cmocka_unit_test(test_bad_headers),
        cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_save_rules),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, cleanup);
}
