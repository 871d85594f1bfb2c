/* SPDX-License-Identifier: Apache-2.0 */
/* test_npy_files.c -- .npy files and file descriptors: every dtype, C and Fortran order, both
 * byte orders, through each way of loading (the buffer, a mapped file, a file read into the
 * tensor, a file read as a stream, a pipe) gives the same tensor; mapped tensors are writable
 * copy-on-write and live as long as their views; truncated, longer and lying files are refused
 * as the buffer loader refuses them; saves go to a temporary file renamed over the path, and a
 * failed one leaves nothing. */
#include "io/npy_internal.h"
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void make_dir(void) {
    if (dir[0]) return;
    snprintf(dir, sizeof dir, "/tmp/tx_npy_files_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

static void write_file(const char *path, const void *data, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static char *read_file(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc(*n + 1);
    assert_int_equal(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

/* A .npy (format 1.0) of a dict and data. */
static char *make_npy(const char *dict, const void *data, size_t n, size_t *size) {
    char *b = malloc(strlen(dict) + 74 + n + 1);
    size_t total = tu_npy_header(b, dict);
    if (n) memcpy(b + total, data, n);
    *size = total + n;
    return b;
}

static void assert_same(const tx_tensor *a, const tx_tensor *b, const char *what) {
    if (tx_tensor_dtype(a) != tx_tensor_dtype(b) || tx_tensor_rank(a) != tx_tensor_rank(b))
        fail_msg("%s: dtype or rank differs", what);
    for (size_t d = 0; d < tx_tensor_rank(a); d++)
        if (tx_tensor_dims(a)[d] != tx_tensor_dims(b)[d]) fail_msg("%s: dim %zu differs", what, d);
    if (tx_tensor_dtype(a) != TX_STRING) {
        if (memcmp(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a)))
            fail_msg("%s: data differ", what);
        return;
    }
    for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
        const tx_string *x = tx_tensor_string(a, i), *y = tx_tensor_string(b, i);
        if (x->size != y->size || (x->size && memcmp(x->data, y->data, (size_t)x->size)))
            fail_msg("%s: string %lld differs", what, (long long)i);
    }
}

typedef struct {
    int fd;
    const char *data;
    size_t n;
} pipe_job;

static void *pipe_writer(void *arg) {
    pipe_job *j = arg;
    for (size_t done = 0; done < j->n;) {
        ssize_t w = write(j->fd, j->data + done, j->n - done);
        if (w <= 0) break; /* the reader stopped early */
        done += (size_t)w;
    }
    close(j->fd);
    return NULL;
}

typedef struct {
    int fd;
    char *data;
    size_t n;
} drain_job;

static void *pipe_reader(void *arg) {
    drain_job *j = arg;
    size_t cap = 1 << 16;
    j->data = malloc(cap);
    for (;;) {
        if (j->n == cap) j->data = realloc(j->data, cap *= 2);
        ssize_t r = read(j->fd, j->data + j->n, cap - j->n);
        if (r <= 0) break;
        j->n += (size_t)r;
    }
    return NULL;
}

/* tx_npy_load_fd on a pipe fed the n bytes of data by a thread. */
static tx_status load_pipe(const char *data, size_t n, tx_tensor **out) {
    int p[2];
    assert_int_equal(pipe(p), 0);
    pipe_job j = {p[1], data, n};
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, pipe_writer, &j), 0);
    tx_status st = tx_npy_load_fd(p[0], out);
    char msg[512];
    snprintf(msg, sizeof msg, "%s", tx_last_error());
    close(p[0]);
    pthread_join(th, NULL);
    if (st != TX_OK) tx__fail(st, "%s", msg); /* the message as the load left it */
    return st;
}

static tx_status load_mode(const char *path, unsigned flags, tx_tensor **out) {
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    tx_status st = tx__npy_load_fd(fd, path, flags, out);
    close(fd);
    return st;
}

/* Loads the bytes every way; each must give the buffer loader's tensor, or its status and its
 * message.  Returns the buffer loader's tensor (or NULL). */
static tx_tensor *load_all(const char *bytes, size_t n, const char *what) {
    make_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/case.npy", dir);
    write_file(path, bytes, n);
    tx_tensor *want = NULL;
    tx_status want_st = tx_npy_load_buffer(bytes, n, &want);
    char want_msg[512];
    snprintf(want_msg, sizeof want_msg, "%s", tx_last_error());
    static const unsigned modes[] = {0, TX__NPY_MAP, TX__NPY_READ, TX__NPY_AS_STREAM, 99};
    static const char *names[] = {"tx_npy_load", "mapped", "read", "read as a stream", "pipe"};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        tx_tensor *got = NULL;
        tx_status st = m == 0    ? tx_npy_load(path, &got)
                       : m == 4 ? load_pipe(bytes, n, &got)
                                : load_mode(path, modes[m], &got);
        if (n == 0 && m == 4) { /* an empty pipe is the end of the input */
            assert_int_equal(st, TX_OUT_OF_RANGE);
            continue;
        }
        if (st != want_st)
            fail_msg("%s, %s: status %s (%s), the buffer loader's %s (%s)", what, names[m],
                     tx_status_name(st), tx_last_error(), tx_status_name(want_st), want_msg);
        if (st != TX_OK) {
            if (strcmp(tx_last_error(), want_msg) != 0)
                fail_msg("%s, %s: message '%s', the buffer loader's '%s'", what, names[m],
                         tx_last_error(), want_msg);
            assert_null(got);
            continue;
        }
        char label[160];
        snprintf(label, sizeof label, "%s, %s", what, names[m]);
        assert_same(got, want, label);
        assert_true(tx_tensor_is_writable(got));
        tx_tensor_free(got);
    }
    unlink(path);
    return want;
}

/* The descr tx_npy_save_buffer writes for dtype (the text between "'descr': " and ", 'fortran"). */
static void descr_of(tx_dtype dtype, char *out, size_t cap) {
    tx_tensor *t = NULL;
    assert_int_equal(tx_tensor_new(dtype, 1, TU_DIMS(1), &t), TX_OK);
    memset(tx_tensor_data(t), 0, tx_tensor_nbytes(t));
    void *buf;
    size_t size;
    assert_int_equal(tx_npy_save_buffer(t, &buf, &size), TX_OK);
    const char *a = strstr((char *)buf + 10, "'descr': ") + 9, *b = strstr(a, ", 'fortran");
    snprintf(out, cap, "%.*s", (int)(b - a), a);
    tx_buffer_free(buf, size);
    tx_tensor_free(t);
}

/* Every numeric dtype, as dims [d0, d1] (C order) written C or Fortran order, little- or
 * big-endian, with raw bytes that need normalising for bool and 4-bit dtypes. */
static void check_numeric(tx_dtype dtype, int64_t d0, int64_t d1) {
    size_t item = tx_dtype_size(dtype), numel = (size_t)(d0 * d1), n = numel * item;
    size_t unit = tx_dtype_kind_of(dtype) == TX_KIND_COMPLEX ? item / 2 : item;
    unsigned char *c = malloc(n + 1), *f = malloc(n + 1), *file = malloc(n + 1);
    for (size_t i = 0; i < n; i++) c[i] = (unsigned char)(i * 131 + 7 + (i >> 8));
    /* Fortran order: element (i, j) at j * d0 + i. */
    for (int64_t i = 0; i < d0; i++)
        for (int64_t j = 0; j < d1; j++)
            memcpy(f + (size_t)(j * d0 + i) * item, c + (size_t)(i * d1 + j) * item, item);
    char descr[64];
    descr_of(dtype, descr, sizeof descr);
    for (int fortran = 0; fortran < 2; fortran++)
        for (int big = 0; big < 2; big++) {
            if (big && unit == 1) continue;
            char d[64], dict[256], what[160];
            snprintf(d, sizeof d, "%s", descr);
            char *order = strchr(d, '<');
            if (big && order) *order = '>';
            memcpy(file, fortran ? f : c, n);
            if (big == TX_HOST_LITTLE_ENDIAN)
                for (size_t k = 0; k < n; k += unit)
                    for (size_t a = 0, b = unit - 1; a < b; a++, b--) {
                        unsigned char tmp = file[k + a];
                        file[k + a] = file[k + b];
                        file[k + b] = tmp;
                    }
            snprintf(dict, sizeof dict,
                     "{'descr': %s, 'fortran_order': %s, 'shape': (%lld, %lld), }", d,
                     fortran ? "True" : "False", (long long)d0, (long long)d1);
            snprintf(what, sizeof what, "%s %s %s [%lld, %lld]", tx_dtype_name(dtype),
                     fortran ? "F" : "C", big ? "big-endian" : "little-endian", (long long)d0,
                     (long long)d1);
            size_t size;
            char *bytes = make_npy(dict, file, n, &size);
            tx_tensor *t = load_all(bytes, size, what);
            assert_non_null(t);
            /* The values: the C-order bytes in host order, normalised. */
            unsigned char *want = malloc(n + 1); /* the file holds c's values in its order */
            memcpy(want, c, n);
            /* bool 0 or 1, the sub-byte types' value bits (TF 2.21 decides for int4) */
            for (size_t i = 0; unit == 1 && i < n; i++) want[i] = tu_canonical_byte(dtype, want[i]);
            if (memcmp(tx_tensor_data_const(t), want, n)) fail_msg("%s: values differ", what);
            free(want);
            tx_tensor_free(t);
            free(bytes);
        }
    free(c);
    free(f);
    free(file);
}

static void test_every_dtype_every_path(void **state) {
    (void)state;
    for (int id = 0; id < 64; id++) {
        tx_dtype dt = (tx_dtype)id;
        if (tx_dtype_size(dt) == 0 || dt == TX_STRING || strcmp(tx_dtype_name(dt), "unknown") == 0)
            continue;
        check_numeric(dt, 3, 5);
        check_numeric(dt, 1, 0);
    }
    /* Larger than the mapping threshold and than the conversion window (several windows). */
    check_numeric(TX_COMPLEX64, 300, 500);
}

/* 'S' and 'U', C and Fortran order, both byte orders for 'U', small and over several windows
 * (items straddling the windows' edges). */
static void check_strings(char kind, size_t chars, int64_t d0, int64_t d1) {
    size_t unit = kind == 'U' ? 4 : 1, item = chars * unit, numel = (size_t)(d0 * d1);
    size_t n = numel * item;
    unsigned char *data = calloc(n + 1, 1);
    static const uint32_t cps[] = {'a', 0xE9, 0x20AC, 0x1F600, 0, 'z'};
    for (size_t e = 0; e < numel; e++) {
        size_t len = (e * 7) % (chars + 1); /* 0..chars units, the rest NUL */
        for (size_t k = 0; k < len; k++) {
            uint32_t cp = kind == 'S' ? (uint32_t)(1 + (e + k) % 200) : cps[(e + k) % 6];
            if (k + 1 == len && cp == 0) cp = 'x';
            unsigned char *p = data + e * item + k * unit;
            if (kind == 'S') p[0] = (unsigned char)cp;
            else for (int b = 0; b < 4; b++) p[b] = (unsigned char)(cp >> (8 * b));
        }
    }
    for (int fortran = 0; fortran < 2; fortran++)
        for (int big = 0; big < (kind == 'U' ? 2 : 1); big++) {
            unsigned char *file = malloc(n + 1);
            memcpy(file, data, n);
            if (big)
                for (size_t k = 0; k < n; k += 4) {
                    unsigned char t0 = file[k], t1 = file[k + 1];
                    file[k] = file[k + 3];
                    file[k + 1] = file[k + 2];
                    file[k + 2] = t1;
                    file[k + 3] = t0;
                }
            char dict[256], what[256];
            snprintf(dict, sizeof dict,
                     "{'descr': '%c%c%zu', 'fortran_order': %s, 'shape': (%lld, %lld), }",
                     kind == 'S' ? '|' : big ? '>' : '<', kind, chars, fortran ? "True" : "False",
                     (long long)d0, (long long)d1);
            snprintf(what, sizeof what, "%s", dict);
            size_t size;
            char *bytes = make_npy(dict, file, n, &size);
            tx_tensor *t = load_all(bytes, size, what);
            assert_non_null(t);
            tx_tensor_free(t);
            free(bytes);
            free(file);
        }
    free(data);
}

static void test_strings_every_path(void **state) {
    (void)state;
    check_strings('S', 5, 3, 4);
    check_strings('U', 3, 4, 3);
    check_strings('S', 0, 2, 2);
    check_strings('U', 2, 0, 3);
    check_strings('S', 7, 300, 500); /* 1.05 MB */
    check_strings('U', 7, 100, 380); /* 1.06 MB */
    /* An invalid code point: the same error every way (the first one in row-major order). */
    unsigned char u[16] = {'a', 0, 0, 0, 0, 0xD8, 0, 0, 'b', 0, 0, 0, 0, 0, 0x11, 0};
    size_t size;
    char *bytes =
        make_npy("{'descr': '<U1', 'fortran_order': True, 'shape': (2, 2), }", u, 16, &size);
    assert_null(load_all(bytes, size, "invalid code points"));
    assert_non_null(strstr(tx_last_error(), "element 2 holds invalid code point 0xD800"));
    free(bytes);
}

/* Truncated at every length, longer than the header says, lying headers: each loader refuses as
 * the buffer loader does, with its message. */
static void test_truncated_longer_lying(void **state) {
    (void)state;
    int32_t v[6] = {1, 2, 3, 4, 5, 6};
    size_t size;
    char *bytes =
        make_npy("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }", v, 24, &size);
    char *longer = malloc(size + 5);
    memcpy(longer, bytes, size);
    memcpy(longer + size, "extra", 5);
    for (size_t cut = 0; cut < size; cut++) assert_null(load_all(bytes, cut, "truncated"));
    assert_null(load_all(longer, size + 5, "longer"));
    assert_non_null(strstr(tx_last_error(), "need 24 data bytes, the file has 29"));
    free(bytes);
    free(longer);
    const char *lies[] = {
        "{'descr': '<i4', 'fortran_order': False, 'shape': (7,), }",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (1000000000000,), }",
        "{'descr': '<U1', 'fortran_order': False, 'shape': (1000000000000,), }",
        "{'descr': '|S3', 'fortran_order': False, 'shape': (9,), }",
    };
    for (size_t i = 0; i < sizeof lies / sizeof lies[0]; i++) {
        bytes = make_npy(lies[i], v, 24, &size);
        assert_null(load_all(bytes, size, lies[i]));
        free(bytes);
    }
    /* A header length beyond the file. */
    bytes = make_npy("{'descr': '<i4', 'fortran_order': False, 'shape': (6,), }", v, 24, &size);
    bytes[8] = bytes[9] = (char)0xFF;
    assert_null(load_all(bytes, size, "header length"));
    assert_non_null(strstr(tx_last_error(), "header claims"));
    /* A header length past the 16 MiB a stream's header may take, and past the end. */
    bytes[6] = 2;
    memcpy(bytes + 8, "\x00\x00\x00\x20", 4);
    assert_null(load_all(bytes, size, "header length past the cap"));
    assert_non_null(strstr(tx_last_error(), "header claims 536870912 bytes"));
    free(bytes);
    /* Over the tensor limit: refused before mapping or reading. */
    bytes = make_npy("{'descr': '<i4', 'fortran_order': False, 'shape': (6,), }", v, 24, &size);
    size_t cap = tx_max_tensor_bytes();
    tx_set_max_tensor_bytes(16);
    assert_null(load_all(bytes, size, "over the limit"));
    assert_non_null(
        strstr(tx_last_error(), "npy: tensor of 24 bytes exceeds the limit of 16 bytes"));
    tx_set_max_tensor_bytes(cap);
    free(bytes);
}

static bool mapped(const char *path) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (f == NULL) return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, path) != NULL;
    fclose(f);
    return found;
}

/* A mapped tensor is writable, its writes stay private, and the mapping lives as long as the
 * last tensor or view on it. */
static void test_mapped_copy_on_write(void **state) {
    (void)state;
    make_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/mapped.npy", dir);
    tx_tensor *t = NULL, *view = NULL;
    /* Written in the host's byte order (tx_npy_save writes little-endian), so that it maps on
     * every host. */
    float *d = malloc(512 * 1024 * sizeof *d);
    for (size_t i = 0; i < 512 * 1024; i++) d[i] = (float)i;
    size_t fsize;
    char *fbytes = make_npy(TX_HOST_LITTLE_ENDIAN
                                ? "{'descr': '<f4', 'fortran_order': False, 'shape': (512, 1024), }"
                                : "{'descr': '>f4', 'fortran_order': False, 'shape': (512, 1024), }",
                            d, 512 * 1024 * sizeof *d, &fsize);
    write_file(path, fbytes, fsize);
    free(fbytes);
    free(d);
    size_t n0;
    char *before = read_file(path, &n0);
    assert_false(mapped(path));
    assert_int_equal(tx_npy_load(path, &t), TX_OK); /* 2 MiB: mapped */
    assert_true(mapped(path));
    tu_assert_writable(t);
    d = tx_tensor_data(t);
    assert_true(d[5] == 5.0f && d[512 * 1024 - 1] == (float)(512 * 1024 - 1));
    d[5] = -1.0f;
    d[300000] = -2.0f;
    size_t n1;
    char *after = read_file(path, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0); /* the file is unchanged */
    free(after);
    tx_tensor *shape = tu_i32(1, (int32_t[]){-1});
    assert_int_equal(tx_reshape(t, shape, &view), TX_OK);
    tx_tensor_free(shape);
    tx_tensor_free(t);
    assert_true(mapped(path)); /* the view keeps it */
    assert_true(((const float *)tx_tensor_data_const(view))[5] == -1.0f);
    tx_tensor_free(view);
    assert_false(mapped(path));
    /* bool: bytes other than 0 and 1 read as 1; the file keeps them. */
    unsigned char *b = malloc(2 << 20);
    for (size_t i = 0; i < (2u << 20); i++) b[i] = (unsigned char)(i % 3 == 0 ? 0 : i % 7);
    size_t size;
    char *bytes = make_npy("{'descr': '|b1', 'fortran_order': False, 'shape': (2097152,), }", b,
                           2 << 20, &size);
    write_file(path, bytes, size);
    assert_int_equal(tx_npy_load(path, &t), TX_OK);
    assert_true(mapped(path));
    const unsigned char *v = tx_tensor_data_const(t);
    for (size_t i = 0; i < (2u << 20); i++)
        if (v[i] != (b[i] != 0)) fail_msg("bool %zu is %d", i, v[i]);
    char *now = read_file(path, &n1);
    assert_memory_equal(now, bytes, size);
    free(now);
    tx_tensor_free(t);
    free(bytes);
    free(b);
    free(before);
    unlink(path);
}

/* tx_npy_load_fd: from the fd's position; an empty input is out_of_range; fd stays open. */
static void test_fd_loader(void **state) {
    (void)state;
    make_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/fd.npy", dir);
    int16_t v[3] = {1, -2, 3}; /* in host order, as the descr says */
    size_t size;
    char *bytes = make_npy(TX_HOST_LITTLE_ENDIAN
                               ? "{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }"
                               : "{'descr': '>i2', 'fortran_order': False, 'shape': (3,), }",
                           v, 6, &size);
    char *shifted = malloc(size + 3);
    memcpy(shifted, "abc", 3);
    memcpy(shifted + 3, bytes, size);
    write_file(path, shifted, size + 3);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(lseek(fd, 3, SEEK_SET), 3);
    tx_tensor *t = NULL;
    assert_int_equal(tx__npy_load_fd(fd, NULL, TX__NPY_MAP, &t), TX_OK); /* unaligned: read */
    tu_assert_values(t, TU_VALS(1, -2, 3));
    tx_tensor_free(t);
    assert_int_equal(lseek(fd, 3, SEEK_SET), 3);
    assert_int_equal(tx_npy_load_fd(fd, &t), TX_OK);
    tu_assert_values(t, TU_VALS(1, -2, 3));
    tx_tensor_free(t);
    assert_int_equal(fcntl(fd, F_GETFD), 0); /* still open */
    assert_int_equal(lseek(fd, 0, SEEK_END), (off_t)size + 3);
    tu_assert_error(tx_npy_load_fd(fd, &t), TX_OUT_OF_RANGE, "npy: fd");
    close(fd);
    tu_assert_error(tx_npy_load_fd(-1, &t), TX_INVALID_ARGUMENT, "not a file descriptor");
    tu_assert_error(tx_npy_load_fd(fd, &t), TX_INVALID_ARGUMENT, "Bad file descriptor");
    assert_int_equal(errno, EBADF);
    assert_int_equal(load_pipe(bytes, size, &t), TX_OK);
    tu_assert_values(t, TU_VALS(1, -2, 3));
    tx_tensor_free(t);
    tu_assert_error(load_pipe("", 0, &t), TX_OUT_OF_RANGE, "is empty");
    tu_assert_error(tx_npy_load(dir, &t), TX_INVALID_ARGUMENT, "Is a directory");
    tu_assert_error(tx_npy_load("/nonexistent/x.npy", &t), TX_INVALID_ARGUMENT, "cannot open");
    assert_int_equal(errno, ENOENT);
    free(bytes);
    free(shifted);
    unlink(path);
}

static bool temp_left(void) {
    char cmd[160];
    snprintf(cmd, sizeof cmd, "ls -A %s | grep -q tx-save", dir);
    return system(cmd) == 0;
}

/* Saves: the bytes of tx_npy_save_buffer, to files and fds; failures leave no file and keep the
 * old one. */
/* Saving through a symbolic link to the very file a tensor maps: the file the link ends at is
 * replaced whole (a new inode, the tensor's bytes), the link stays a link.  Before, the link was
 * opened with O_TRUNC, which emptied the mapped input under the save. */
static void test_save_through_link_to_own_input(void **state) {
    (void)state;
    make_dir();
    char path[128], link[128];
    snprintf(path, sizeof path, "%s/own.npy", dir);
    snprintf(link, sizeof link, "%s/own-link.npy", dir);
    tx_tensor *t = tu_tensor(TX_INT32, 1, TU_DIMS(4096), NULL), *m = NULL;
    for (int i = 0; i < 4096; i++) ((int32_t *)tx_tensor_data(t))[i] = i * 7;
    assert_int_equal(tx_npy_save(path, t), TX_OK);
    assert_int_equal(tx_npy_load(path, &m), TX_OK); /* maps the file */
    unlink(link);
    assert_int_equal(symlink("own.npy", link), 0);
    struct stat before, after, l;
    assert_int_equal(stat(path, &before), 0);
    assert_int_equal(tx_npy_save(link, m), TX_OK);
    assert_int_equal(stat(path, &after), 0);
    assert_int_equal(lstat(link, &l), 0);
    assert_true(S_ISLNK(l.st_mode));
    assert_true(after.st_ino != before.st_ino);
    void *want;
    size_t n, got_n;
    assert_int_equal(tx_npy_save_buffer(t, &want, &n), TX_OK);
    char *got = read_file(path, &got_n);
    assert_int_equal(got_n, n);
    assert_memory_equal(got, want, n);
    free(got);
    tx_buffer_free(want, n);
    tx_tensor_free(m);
    tx_tensor_free(t);
    unlink(link);
    unlink(path);
}

static void test_save(void **state) {
    (void)state;
    make_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/save.npy", dir);
    const char *vals[] = {"Intel", "", "Open\x01VINO", "a"};
    tx_tensor *ts[4] = {
        tu_tensor(TX_FLOAT64, 2, TU_DIMS(2, 3), TU_VALS(1, 2, 3, 4, 5, 6)),
        tu_strings(2, TU_DIMS(2, 2), vals),
        NULL,
        NULL,
    };
    assert_int_equal(tx_tensor_new(TX_COMPLEX64, 1, TU_DIMS(300000), &ts[2]), TX_OK);
    memset(tx_tensor_data(ts[2]), 0x3C, tx_tensor_nbytes(ts[2]));
    /* Strings over several windows, one longer than a window (items are the longest's size). */
    static char big[1100000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (char)('a' + i % 26);
    tx_string recs[4];
    for (size_t i = 0; i < 4; i++) recs[i] = (tx_string){i * 1000, big + i};
    recs[2].size = sizeof big - 2;
    assert_int_equal(
        tx_tensor_wrap_strings(1, TU_DIMS(4), recs, big, sizeof big, NULL, NULL, &ts[3]), TX_OK);
    for (size_t k = 0; k < 4; k++) {
        void *want;
        size_t n, got_n;
        assert_int_equal(tx_npy_save_buffer(ts[k], &want, &n), TX_OK);
        assert_int_equal(tx_npy_save(path, ts[k]), TX_OK);
        char *got = read_file(path, &got_n);
        assert_int_equal(got_n, n);
        assert_memory_equal(got, want, n);
        free(got);
        /* the fd saver to a pipe */
        int p[2];
        assert_int_equal(pipe(p), 0);
        drain_job dj = {p[0], NULL, 0};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, pipe_reader, &dj), 0);
        assert_int_equal(tx_npy_save_fd(p[1], ts[k]), TX_OK);
        close(p[1]);
        pthread_join(th, NULL);
        close(p[0]);
        assert_int_equal(dj.n, n);
        assert_memory_equal(dj.data, want, n);
        free(dj.data);
        /* the fd saver to a file at a position */
        int fd = open(path, O_WRONLY | O_TRUNC);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, "xy", 2), 2);
        assert_int_equal(tx_npy_save_fd(fd, ts[k]), TX_OK);
        close(fd);
        got = read_file(path, &got_n);
        assert_int_equal(got_n, n + 2);
        assert_memory_equal(got + 2, want, n);
        free(got);
        tx_buffer_free(want, n);
    }
    assert_false(temp_left());
    /* A replaced file keeps its permission bits. */
    assert_int_equal(chmod(path, 0640), 0);
    assert_int_equal(tx_npy_save(path, ts[0]), TX_OK);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0640);
    /* A missing directory, a directory, /dev/full. */
    char missing[160];
    snprintf(missing, sizeof missing, "%s/no/x.npy", dir);
    tu_assert_error(tx_npy_save(missing, ts[0]), TX_INVALID_ARGUMENT, "No such file or directory");
    assert_int_equal(errno, ENOENT);
    tu_assert_error(tx_npy_save(dir, ts[0]), TX_INVALID_ARGUMENT, "Is a directory");
    if (access("/dev/full", W_OK) == 0) {
        tu_assert_error(tx_npy_save("/dev/full", ts[2]), TX_INVALID_ARGUMENT,
                        "npy: cannot write '/dev/full': No space left on device");
        assert_int_equal(errno, ENOSPC);
        assert_int_equal(stat("/dev/full", &sb), 0);
        assert_true(S_ISCHR(sb.st_mode));
    }
    tu_assert_error(tx_npy_save_fd(-1, ts[0]), TX_INVALID_ARGUMENT, "not a file descriptor");
    /* A write that fails midway (the file-size limit): the old file stays, no temporary file. */
    size_t n0;
    char *old = read_file(path, &n0);
    struct rlimit rl, small = {4096, 4096};
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &rl), 0);
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > small.rlim_cur) {
        void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
        small.rlim_max = rl.rlim_max;
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
        tu_assert_error(tx_npy_save(path, ts[2]), TX_INVALID_ARGUMENT, "File too large");
        char fresh[160];
        snprintf(fresh, sizeof fresh, "%s/fresh.npy", dir);
        tu_assert_error(tx_npy_save(fresh, ts[3]), TX_INVALID_ARGUMENT, "File too large");
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &rl), 0);
        signal(SIGXFSZ, prev);
        assert_int_equal(access(fresh, F_OK), -1);
        size_t n1;
        char *now = read_file(path, &n1);
        assert_int_equal(n0, n1);
        assert_memory_equal(old, now, n0);
        free(now);
        assert_false(temp_left());
    }
    free(old);
    for (size_t k = 0; k < 4; k++) tx_tensor_free(ts[k]);
    unlink(path);
}

static int cleanup(void **state) {
    (void)state;
    if (dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0) return 1;
    }
    return 0;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_dtype_every_path),
        cmocka_unit_test(test_strings_every_path),
        cmocka_unit_test(test_truncated_longer_lying),
        cmocka_unit_test(test_mapped_copy_on_write),
        cmocka_unit_test(test_fd_loader),
        cmocka_unit_test(test_save),
        cmocka_unit_test(test_save_through_link_to_own_input),
    };
    return cmocka_run_group_tests(tests, NULL, cleanup);
}
