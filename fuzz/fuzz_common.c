/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_common.c -- the byte reader, the checking allocator and the output checks shared by every
 * fuzz target (see fuzz.h). */
#define _GNU_SOURCE
#include "fuzz.h"
#include "io/zstream.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

bool fz_replay_mode;

/* ---- input reader ---- */
uint8_t fz_u8(fz_in *in) {
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}

uint16_t fz_u16(fz_in *in) {
    uint16_t lo = fz_u8(in);
    return (uint16_t)(lo | (uint16_t)fz_u8(in) << 8);
}

uint64_t fz_u64(fz_in *in) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)fz_u8(in) << (8 * i);
    return v;
}

/* Values that sit on the edges tensorx must get right: -1, the int32/uint32 limits and one past
 * them, the int64 limits, powers of two whose products overflow, TX_MAX_RANK. */
const int64_t fz_special[FZ_NSPECIAL] = {
    -1, -2, INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1,
    UINT32_MAX, (int64_t)1 << 32, ((int64_t)1 << 32) + 1, 65536, INT16_MAX, UINT16_MAX, 255, 256,
    (int64_t)1 << 20, (int64_t)1 << 30, (int64_t)1 << 40, (int64_t)1 << 53, (int64_t)1 << 62,
    -((int64_t)1 << 62), ((int64_t)1 << 61) + 1, INT64_MIN + 1, INT64_MAX - 1, 1000003, -1000,
    3037000500, 6442450944, -INT32_MAX, TX_MAX_RANK,
};

static int64_t raw_i64(fz_in *in) {
    uint64_t u = fz_u64(in);
    int64_t v;
    memcpy(&v, &u, sizeof v);
    return v;
}

int64_t fz_int(fz_in *in) {
    uint8_t c = fz_u8(in);
    if (c < 0xE0) return (int64_t)c - 0x70;
    if (c < 0xFF) return fz_special[c - 0xE0];
    return raw_i64(in);
}

int64_t fz_dim(fz_in *in) {
    uint8_t c = fz_u8(in);
    if (c < 0xE0) return c;
    if (c < 0xFF) return fz_special[c - 0xE0];
    return raw_i64(in);
}

size_t fz_bytes(fz_in *in, size_t max, const uint8_t **out) {
    size_t n = in->n < max ? in->n : max;
    *out = in->p;
    in->p += n;
    in->n -= n;
    return n;
}

const tx_dtype fz_dtypes[FZ_NDTYPES + 2] = {
    TX_FLOAT32, TX_FLOAT64, TX_INT32,   TX_UINT8,   TX_INT16,      TX_INT8,    TX_STRING,  TX_COMPLEX64,
    TX_INT64,   TX_BOOL,    TX_QINT8,   TX_QUINT8,  TX_QINT32,     TX_BFLOAT16, TX_QINT16, TX_QUINT16,
    TX_UINT16,  TX_COMPLEX128, TX_FLOAT16, TX_UINT32, TX_UINT64,
    (tx_dtype)0, (tx_dtype)99,
};

/* ---- checking allocator ----
 * Every block carries a header just before the pointer handed out: a magic word and the size that
 * was asked for, so that a free with another size (a library bug that breaks size-keyed
 * allocators) or a double free is caught at once. */
#define FZ_MAGIC 0x7458A110CA7Eull
#define FZ_HDR 64

typedef struct {
    uint64_t magic;
    uint64_t size;
    uint64_t offset;
} fz_hdr;

static atomic_long fail_at, count, live;
static atomic_bool failed;

static void *fz_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    if (align == 0 || (align & (align - 1)) || align > 4096) fz_die("allocator: alignment %zu is not a power of two <= 4096", align);
    long c = atomic_fetch_add(&count, 1) + 1;
    long k = atomic_load(&fail_at);
    if (k && c == k) {
        atomic_store(&failed, true);
        return NULL;
    }
    size_t off = align > FZ_HDR ? align : FZ_HDR;
    if (size > SIZE_MAX - off) return NULL;
    void *base = NULL;
    if (posix_memalign(&base, off, off + size)) return NULL;
    unsigned char *p = (unsigned char *)base + off;
    fz_hdr h = {FZ_MAGIC, size, off};
    memcpy(p - sizeof h, &h, sizeof h);
    atomic_fetch_add(&live, 1);
    return p;
}

static void fz_free(void *ptr, size_t size, void *ctx) {
    (void)ctx;
    if (!ptr) return;
    unsigned char *p = ptr;
    fz_hdr h;
    memcpy(&h, p - sizeof h, sizeof h);
    if (h.magic != FZ_MAGIC) fz_die("allocator: free of a pointer it did not hand out (or a double free)");
    if (h.size != size) fz_die("allocator: block of %llu bytes freed as %zu bytes", (unsigned long long)h.size, size);
    h.magic = 0;
    memcpy(p - sizeof h, &h, sizeof h);
    atomic_fetch_sub(&live, 1);
    free(p - h.offset);
}

static const tx_allocator fz_allocator_struct = {fz_alloc, fz_free, NULL};

const tx_allocator *fz_allocator(void) { return &fz_allocator_struct; }

void fz_alloc_setup(void) {
    static bool done;
    if (done) return;
    done = true;
    tx_set_allocator(&fz_allocator_struct);
    /* Small enough to keep every run fast, large enough for real work. */
    tx_set_max_tensor_bytes((size_t)4 << 20);
}

void fz_alloc_fail_at(long k) {
    atomic_store(&fail_at, k);
    atomic_store(&count, 0);
    atomic_store(&failed, false);
}
long fz_alloc_count(void) { return atomic_load(&count); }
bool fz_alloc_failed(void) { return atomic_load(&failed); }
long fz_alloc_live(void) { return atomic_load(&live); }

/* ---- invariants ---- */
void fz_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("FUZZ INVARIANT BROKEN: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}

static volatile unsigned char sink;

static void touch(const void *data, size_t n) {
    const unsigned char *p = data;
    unsigned char acc = 0;
    for (size_t i = 0; i < n; i++) acc ^= p[i];
    sink ^= acc;
}

void fz_check_tensor(tx_tensor *t, const char *what) {
    if (!t) fz_die("%s: a successful call left an output NULL", what);
    tx_dtype dt = tx_tensor_dtype(t);
    size_t es = tx_dtype_size(dt);
    if (es == 0) fz_die("%s: output has unknown dtype %d", what, (int)dt);
    size_t rank = tx_tensor_rank(t);
    if (rank > TX_MAX_RANK) fz_die("%s: output rank %zu > TX_MAX_RANK", what, rank);
    const int64_t *dims = tx_tensor_dims(t);
    if (rank && !dims) fz_die("%s: output dims NULL", what);
    int64_t numel = 1;
    bool zero = false, ovf = false;
    for (size_t i = 0; i < rank; i++) {
        if (dims[i] < 0) fz_die("%s: output dim %zu is %lld", what, i, (long long)dims[i]);
        if (dims[i] == 0) zero = true;
        else if (!ovf && __builtin_mul_overflow(numel, dims[i], &numel)) ovf = true;
    }
    if (zero) numel = 0;
    else if (ovf) fz_die("%s: output numel overflows int64", what);
    if (numel != tx_tensor_numel(t)) fz_die("%s: numel %lld, dims say %lld", what, (long long)tx_tensor_numel(t), (long long)numel);
    size_t nbytes;
    if (__builtin_mul_overflow((size_t)numel, es, &nbytes) || nbytes != tx_tensor_nbytes(t))
        fz_die("%s: nbytes %zu for %lld elements of %zu bytes", what, tx_tensor_nbytes(t), (long long)numel, es);
    const void *data = tx_tensor_data_const(t);
    if (!data) fz_die("%s: tx_tensor_data_const is NULL", what);
    /* The writable accessor answers exactly for the tensors tx_tensor_is_writable allows. */
    if ((tx_tensor_data(t) != NULL) != (tx_tensor_is_writable(t) != 0))
        fz_die("%s: tx_tensor_data and tx_tensor_is_writable disagree", what);
    touch(data, nbytes);
    if (dt == TX_STRING) {
        for (int64_t i = 0; i < numel; i++) {
            const tx_string *s = tx_tensor_string(t, i);
            if (!s) fz_die("%s: string %lld is NULL", what, (long long)i);
            if (s->size && !s->data) fz_die("%s: string %lld has %llu bytes at NULL", what, (long long)i, (unsigned long long)s->size);
            if (s->size > ((uint64_t)1 << 40)) fz_die("%s: string %lld claims %llu bytes", what, (long long)i, (unsigned long long)s->size);
            touch(s->data, (size_t)s->size);
        }
    }
}

void fz_check_failure(tx_status st, const char *what, const char *message) {
    switch (st) {
    case TX_INVALID_ARGUMENT: case TX_RESOURCE_EXHAUSTED: case TX_OUT_OF_RANGE: case TX_UNIMPLEMENTED:
    case TX_DATA_LOSS: break;
    case TX_INTERNAL: fz_die("%s: internal error (a safety net caught what validation missed): %s", what, message);
    default: fz_die("%s: unknown status %d", what, (int)st);
    }
    if (!message || !message[0]) fz_die("%s: failed with %s and no message", what, tx_status_name(st));
}

typedef struct {
    uint8_t *p;
    size_t n, cap;
} grow_buf;

static tx_status grow_put(void *ctx, const void *p, size_t n) {
    grow_buf *b = ctx;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2;
        b->p = realloc(b->p, b->cap);
        if (b->p == NULL) fz_die("fz_gzip: out of memory");
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
    return TX_OK;
}

uint8_t *fz_gzip(const uint8_t *data, size_t size, size_t *n) {
    grow_buf b = {NULL, 0, 0};
    tx__zsink *z;
    if (tx__zsink_open("fuzz", TX__Z_GZIP, grow_put, &b, &z) != TX_OK) {
        if (!TX_HAVE_ZLIB) return NULL;
        fz_die("fz_gzip: zsink_open: %s", tx_last_error());
    }
    if (tx__zsink_write(z, data, size) != TX_OK || tx__zsink_finish(z) != TX_OK)
        fz_die("fz_gzip: deflate: %s", tx_last_error());
    tx__zsink_close(z);
    *n = b.n;
    return b.p;
}

const char *fz_file_of(const uint8_t *data, size_t size, int *fd) {
    static int file_fd = -1;
    static char file_path[64];
    if (file_fd < 0) {
        file_fd = memfd_create("fuzz", MFD_CLOEXEC);
        if (file_fd < 0) {
            char tmp[] = "/tmp/fuzz_XXXXXX";
            file_fd = mkstemp(tmp);
            if (file_fd < 0) fz_die("fz_file_of: no temporary file");
            unlink(tmp);
        }
        snprintf(file_path, sizeof file_path, "/proc/self/fd/%d", file_fd);
    }
    if (ftruncate(file_fd, 0) != 0 || (size && pwrite(file_fd, data, size, 0) != (ssize_t)size) ||
        lseek(file_fd, 0, SEEK_SET) != 0)
        fz_die("fz_file_of: writing the file failed");
    if (fd) *fd = file_fd;
    return file_path;
}
