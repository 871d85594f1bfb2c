/* SPDX-License-Identifier: Apache-2.0 */
/* stream.c -- files larger than memory, pipes and progress for the CLI.  decode_raw, cast and
 * bitcast on a big file run chunk by chunk: each window of the input is memory-mapped
 * (tx_file_map / tx_file_map_string), handed to the op through the public API, and the result is
 * appended to the output .npy after a header written up front (tx_npy_write_header), so memory
 * stays bounded by the chunk size whatever the file size.  Anything the streaming path is not sure
 * of (an argument error, a Fortran-order or string .npy, a shape bitcast would refuse) goes back
 * to the normal path, which reports errors exactly as for small inputs.  Only tensorx.h is used. */
#include "stream.h"

#include "values.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024u * 1024u)

static uint64_t env_bytes(const char *name, uint64_t def) {
    const char *s = getenv(name);
    if (s == NULL || *s == '\0') return def;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return *end == '\0' ? (uint64_t)v : def;
}

/* ---- output ------------------------------------------------------------------------------------- */

typedef struct {
    FILE *f;
    const char *path;
    bool is_stdout;
    bool is_regular; /* a regular file, which a failed run removes */
} sink;

static tx_status sink_open(sink *s, const char *path) {
    s->path = path;
    s->is_stdout = strcmp(path, "-") == 0;
    if (s->is_stdout) {
        if (isatty(STDOUT_FILENO))
            return op_fail(TX_INVALID_ARGUMENT,
                           "-o -: refusing to write .npy data to a terminal (redirect or pipe it)");
        s->f = stdout;
        return TX_OK;
    }
    s->f = fopen(path, "wb");
    if (s->f == NULL) return op_fail_io("write", path, errno);
    struct stat sb;
    s->is_regular = fstat(fileno(s->f), &sb) == 0 && S_ISREG(sb.st_mode);
    return TX_OK;
}

static tx_status sink_write(sink *s, const void *data, size_t n) {
    if (n && fwrite(data, 1, n, s->f) != n) return op_fail_io("write", s->path, errno);
    return TX_OK;
}

/* Writes n bytes of host-order elements of dtype `dt` as .npy data, which is little-endian (the
 * header comes from tx_npy_write_header): on a big-endian host each element (each part of a
 * complex) is reversed on the way, through a small buffer, since the data may be a read-only
 * mapping. */
static tx_status sink_write_elements(sink *s, const void *data, size_t n, tx_dtype dt) {
    size_t unit = tx_dtype_size(dt) / (dt == TX_COMPLEX64 || dt == TX_COMPLEX128 ? 2 : 1);
    if (TX_HOST_LITTLE_ENDIAN || unit < 2) return sink_write(s, data, n);
    unsigned char buf[1 << 16];
    const unsigned char *p = data;
    tx_status st = TX_OK;
    for (size_t done = 0; st == TX_OK && done < n;) {
        size_t len = n - done < sizeof buf ? n - done : sizeof buf; /* a multiple of unit */
        for (size_t k = 0; k < len; k += unit)
            for (size_t b = 0; b < unit; b++) buf[k + b] = p[done + k + unit - 1 - b];
        st = sink_write(s, buf, len);
        done += len;
    }
    return st;
}

/* Closes the sink; a failed run removes a partial output file (never a device such as
 * /dev/full, nor anything but a regular file). */
static tx_status sink_close(sink *s, tx_status st) {
    if (s->f == NULL) return st;
    errno = 0;
    int bad = s->is_stdout ? fflush(s->f) : fclose(s->f);
    if (bad && st == TX_OK) st = op_fail_io("write", s->path, errno ? errno : EIO);
    if (st != TX_OK && s->is_regular) remove(s->path);
    s->f = NULL;
    return st;
}

tx_status stream_save(const char *path, const tx_tensor *t) {
    sink s = {0};
    tx_status st = sink_open(&s, path);
    if (st != TX_OK) return st;
    tx_dtype dt = tx_tensor_dtype(t);
    if (dt != TX_STRING) {
        /* The header, then the data (little-endian on every host): no copy of the tensor. */
        unsigned char hdr[TX_NPY_HEADER_MAX];
        size_t hlen;
        st = tx_npy_write_header(dt, tx_tensor_rank(t), tx_tensor_dims(t), hdr, sizeof hdr, &hlen);
        if (st == TX_OK) st = sink_write(&s, hdr, hlen);
        if (st == TX_OK)
            st = sink_write_elements(&s, tx_tensor_data_const(t), tx_tensor_nbytes(t), dt);
        return sink_close(&s, st);
    }
    void *buf;
    size_t size;
    st = tx_npy_save_buffer(t, &buf, &size);
    if (st == TX_OK) {
        st = sink_write(&s, buf, size);
        tx_buffer_free(buf, size);
    }
    return sink_close(&s, st);
}

/* ---- progress ----------------------------------------------------------------------------------- */

static struct {
    bool active;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    bool stop;
    bool drawn;
    const char *label;
    uint64_t total;
    _Atomic uint64_t done;
    struct timespec start;
    double delay;
} pg = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static double since(const struct timespec *t0) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void human(char *buf, size_t cap, double bytes) {
    const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) bytes /= 1024, u++;
    snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

static void draw(double elapsed) {
    enum { WIDTH = 30 };
    char bar[WIDTH + 1];
    uint64_t done = atomic_load(&pg.done);
    char line[256];
    if (pg.total) {
        double frac = done >= pg.total ? 1.0 : (double)done / (double)pg.total;
        int fill = (int)(frac * WIDTH);
        for (int i = 0; i < WIDTH; i++) bar[i] = i < fill ? '#' : '.';
        bar[WIDTH] = '\0';
        char a[32], b[32];
        human(a, sizeof a, (double)done);
        human(b, sizeof b, (double)pg.total);
        snprintf(line, sizeof line, "tensorx %s [%s] %3d%%  %s / %s  %.1f s", pg.label, bar,
                 (int)(frac * 100), a, b, elapsed);
    } else {
        int pos = (int)(elapsed * 10) % (2 * (WIDTH - 3));
        if (pos >= WIDTH - 3) pos = 2 * (WIDTH - 3) - pos;
        for (int i = 0; i < WIDTH; i++) bar[i] = i >= pos && i < pos + 3 ? '=' : ' ';
        bar[WIDTH] = '\0';
        snprintf(line, sizeof line, "tensorx %s [%s] %.1f s", pg.label, bar, elapsed);
    }
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
    pg.drawn = true;
}

static void *progress_thread(void *arg) {
    (void)arg;
    pthread_mutex_lock(&pg.mu);
    while (!pg.stop) {
        double e = since(&pg.start);
        if (e >= pg.delay) draw(e);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&pg.cv, &pg.mu, &until);
    }
    pthread_mutex_unlock(&pg.mu);
    return NULL;
}

void progress_start(const char *label, uint64_t total) {
    if (pg.active || !isatty(STDERR_FILENO)) return;
    const char *off = getenv("TENSORX_NO_PROGRESS");
    if (off && *off && strcmp(off, "0") != 0) return;
    const char *d = getenv("TENSORX_PROGRESS_DELAY");
    pg.delay = d && *d ? strtod(d, NULL) : 1.0;
    pg.label = label;
    pg.total = total;
    atomic_store(&pg.done, 0);
    pg.stop = false;
    pg.drawn = false;
    clock_gettime(CLOCK_MONOTONIC, &pg.start);
    if (pg.delay <= 0) draw(0); /* no delay asked: show it at once, however short the work */
    pg.active = pthread_create(&pg.thread, NULL, progress_thread, NULL) == 0;
    if (!pg.active && pg.drawn) fputs("\r\033[K", stderr);
}

void progress_set(uint64_t done) { atomic_store(&pg.done, done); }

void progress_stop(void) {
    if (!pg.active) return;
    pthread_mutex_lock(&pg.mu);
    pg.stop = true;
    pthread_cond_signal(&pg.cv);
    pthread_mutex_unlock(&pg.mu);
    pthread_join(pg.thread, NULL);
    pg.active = false;
    if (pg.drawn) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
}

/* ---- streaming ---------------------------------------------------------------------------------- */

/* The op's arguments, parsed as the normal path parses them, except the input, which is only
 * named (stream->path). */
typedef struct {
    op_args a;
    const char *input;  /* the input argument's text */
    const char *out;    /* the one -o */
    uint64_t size;      /* the input file's size */
} stream_cmd;

static bool regular_file(const char *path, uint64_t *size) {
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return false;
    *size = (uint64_t)sb.st_size;
    return true;
}

/* True when `out` names the same file as `in`: writing it would truncate the file being mapped,
 * so such a command goes through the normal path (which reads everything before writing). */
static bool same_file(const char *in, const char *out) {
    struct stat a, b;
    if (!strcmp(out, "-")) return false;
    return stat(in, &a) == 0 && stat(out, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Parses argv for `d` whose input parameter is `input_name`.  false = leave it to the normal path. */
static bool parse_cmd(const op_def *d, const char *input_name, int argc, char **argv, stream_cmd *c) {
    memset(c, 0, sizeof *c);
    c->a.def = d;
    size_t input_k = OP_MAX_PARAMS;
    for (size_t k = 0; k < OP_MAX_PARAMS && d->params[k].name; k++)
        if (!strcmp(d->params[k].name, input_name)) input_k = k;
    if (input_k == OP_MAX_PARAMS) return false;
    bool ok = true;
    for (int i = 0; i < argc && ok; i++) {
        if (!strcmp(argv[i], "-o")) {
            ok = i + 1 < argc && c->out == NULL && !strstr(argv[i + 1], "{}");
            if (ok) c->out = argv[++i];
            continue;
        }
        const char *eq = strchr(argv[i], '=');
        if (eq == NULL) { ok = false; break; }
        size_t n = (size_t)(eq - argv[i]), k;
        for (k = 0; k < OP_MAX_PARAMS && d->params[k].name; k++)
            if (strlen(d->params[k].name) == n && !strncmp(d->params[k].name, argv[i], n)) break;
        if (k == OP_MAX_PARAMS || !d->params[k].name || c->a.v[k].present) { ok = false; break; }
        if (k == input_k) {
            c->input = eq + 1;
            c->a.v[k].present = true; /* a placeholder: op_args_finish must not miss it */
        } else {
            ok = op_parse_value(&d->params[k], eq + 1, &c->a.v[k]) == TX_OK;
        }
    }
    ok = ok && c->input && c->out && op_args_finish(&c->a) == TX_OK;
    if (!ok) op_args_clear(&c->a);
    op_fail(TX_OK, "%s", ""); /* parsing errors are the normal path's to report */
    return ok;
}

static int report(const op_def *d, tx_status st) {
    progress_stop();
    fprintf(stderr, "tensorx: %s: %s: %s\n", d->name, op_status_name(st), op_error());
    return 1;
}

/* Bytes of input per window; a window and its result stay within the tensor cap. */
static uint64_t chunk_bytes(void) {
    uint64_t c = env_bytes("TENSORX_CHUNK_BYTES", 16 * MIB);
    if (c == 0) c = 16 * MIB;
    return c < tx_max_tensor_bytes() ? c : tx_max_tensor_bytes();
}

/* decode_raw input_bytes=@FILE: the file is one string; out is 1-D of size / item elements. */
static bool stream_decode_raw(const op_def *d, stream_cmd *c, int *rc) {
    const char *path = c->input + 1;
    tx_dtype type = arg_dtype(&c->a, "out_type");
    int little = arg_bool(&c->a, "little_endian");
    /* Validate out_type on an empty string: errors then read exactly as for any input. */
    tx_tensor *empty = NULL, *probe = NULL;
    const char *nothing = "";
    size_t zero = 0;
    tx_status st = tx_tensor_new_strings(0, NULL, &nothing, &zero, &empty);
    if (st == TX_OK) st = tx_decode_raw(empty, type, little, NULL, &probe);
    tx_tensor_free(empty);
    tx_tensor_free(probe);
    if (st != TX_OK) {
        *rc = report(d, st);
        return true;
    }
    size_t item = tx_dtype_size(type);
    if (c->size % item != 0) {
        /* The op's own error: decode the whole file mapped (it fails before touching the data). */
        tx_tensor *all = NULL, *o = NULL;
        st = tx_file_map_string(path, 0, c->size, &all);
        if (st != TX_OK) return false; /* cannot map it all: the normal path reports */
        st = tx_decode_raw(all, type, little, NULL, &o);
        tx_tensor_free(all);
        if (st == TX_OK) {
            tx_tensor_free(o);
            return false;
        }
        *rc = report(d, st);
        return true;
    }
    int64_t n = (int64_t)(c->size / item);
    unsigned char hdr[TX_NPY_HEADER_MAX];
    size_t hlen;
    sink s = {0};
    st = tx_npy_write_header(type, 1, &n, hdr, sizeof hdr, &hlen);
    if (st == TX_OK) st = sink_open(&s, c->out);
    if (st == TX_OK) st = sink_write(&s, hdr, hlen);
    uint64_t step = chunk_bytes() / item * item;
    if (step == 0) step = item;
    progress_start(d->name, c->size);
    for (uint64_t off = 0; st == TX_OK && off < c->size; off += step) {
        uint64_t len = c->size - off < step ? c->size - off : step;
        tx_tensor *win = NULL, *o = NULL;
        st = tx_file_map_string(path, off, len, &win);
        if (st == TX_OK) st = tx_decode_raw(win, type, little, NULL, &o);
        if (st == TX_OK)
            st = sink_write_elements(&s, tx_tensor_data_const(o), tx_tensor_nbytes(o), type);
        tx_tensor_free(win);
        tx_tensor_free(o);
        progress_set(off + len);
    }
    st = sink_close(&s, st);
    progress_stop();
    *rc = st == TX_OK ? 0 : report(d, st);
    return true;
}

/* cast x=FILE.npy and bitcast input=FILE.npy: windows of whole elements (whole rows of the last
 * dim for a bitcast to a wider type). */
static bool stream_npy(const op_def *d, stream_cmd *c, bool is_cast, int *rc) {
    tx_npy_info info = TX_NPY_INFO_INIT;
    if (tx_npy_read_info(c->input, &info) != TX_OK) return false;
    if (info.dtype == TX_STRING || (info.fortran_order && info.rank > 1)) return false;
    tx_dtype to = arg_dtype(&c->a, is_cast ? "dtype" : "type");
    /* cast's default and saturate modes are element-wise; checked mode names the first bad
     * element by its index in the whole tensor, so it runs in memory. */
    tx_cast_mode mode = TX_CAST_DEFAULT;
    if (is_cast) {
        const char *ms = arg_str(&c->a, "mode");
        if (!strcmp(ms, "saturate")) mode = TX_CAST_SATURATE;
        else if (strcmp(ms, "default") || arg_bool(&c->a, "exact_float")) return false;
    }
    size_t in = info.item_size, out_size = tx_dtype_size(to);
    /* Rows of `row` input elements go in each op call: bitcast to a wider type takes the last
     * dim (which must be out / in) as one output element. */
    int64_t row = !is_cast && out_size > in ? (int64_t)(out_size / in) : 1;
    int64_t out_dims[TX_MAX_RANK + 1];
    size_t out_rank = info.rank;
    memcpy(out_dims, info.dims, info.rank * sizeof(int64_t));
    if (!is_cast && out_size > in) {
        if (info.rank == 0 || info.dims[info.rank - 1] != row) return false; /* op's error */
        out_rank--;
    } else if (!is_cast && out_size && out_size < in) {
        if (info.rank == TX_MAX_RANK) return false;
        out_dims[out_rank++] = (int64_t)(in / out_size);
    }
    /* Validate the dtypes on a tiny tensor of the input's type (no data of the file involved). */
    tx_tensor *small = NULL, *probe = NULL;
    int64_t pdims[2] = {1, row};
    tx_status st = tx_tensor_new(info.dtype, 2, pdims, &small);
    if (st == TX_OK) st = is_cast ? tx_cast_in_mode(small, to, mode, 0, &probe) : tx_bitcast(small, to, &probe);
    tx_tensor_free(small);
    tx_tensor_free(probe);
    if (st != TX_OK) {
        *rc = report(d, st);
        return true;
    }
    int64_t numel = in ? (int64_t)(info.data_size / in) : 0;
    unsigned char hdr[TX_NPY_HEADER_MAX];
    size_t hlen;
    sink s = {0};
    st = tx_npy_write_header(to, out_rank, out_dims, hdr, sizeof hdr, &hlen);
    if (st == TX_OK) st = sink_open(&s, c->out);
    if (st == TX_OK) st = sink_write(&s, hdr, hlen);
    uint64_t grow = is_cast && out_size > in ? (out_size + in - 1) / in : 1; /* result / window bytes */
    int64_t rows_per = (int64_t)(chunk_bytes() / (in * (uint64_t)row * grow));
    if (rows_per < 1) rows_per = 1;
    int64_t rows = numel / row;
    progress_start(d->name, info.data_size);
    for (int64_t r = 0; st == TX_OK && r < rows; r += rows_per) {
        int64_t k = rows - r < rows_per ? rows - r : rows_per;
        int64_t wdims[2] = {k, row};
        uint64_t off = info.data_offset + (uint64_t)r * (uint64_t)row * in;
        tx_tensor *win = NULL, *o = NULL;
        st = tx_file_map(c->input, off, info.dtype, row > 1 ? 2 : 1, wdims, info.byte_swapped, &win);
        if (st == TX_OK) st = is_cast ? tx_cast_in_mode(win, to, mode, 0, &o) : tx_bitcast(win, to, &o);
        if (st == TX_OK)
            st = sink_write_elements(&s, tx_tensor_data_const(o), tx_tensor_nbytes(o), to);
        tx_tensor_free(win);
        tx_tensor_free(o);
        progress_set((uint64_t)(r + k) * (uint64_t)row * in);
    }
    st = sink_close(&s, st);
    progress_stop();
    *rc = st == TX_OK ? 0 : report(d, st);
    return true;
}

tx_status stream_load_npy(const char *path, tx_tensor **out) {
    tx_npy_info info = TX_NPY_INFO_INIT;
    uint64_t min = env_bytes("TENSORX_STREAM_MIN_BYTES", 64 * MIB);
    if (strcmp(path, "-") != 0 && tx_npy_read_info(path, &info) == TX_OK && info.dtype != TX_STRING &&
        !info.byte_swapped && (!info.fortran_order || info.rank <= 1) && info.data_size >= min) {
        /* A mapped file takes no memory: the tensor cap does not apply to it. */
        size_t cap = tx_max_tensor_bytes();
        tx_set_max_tensor_bytes(0);
        tx_status st = tx_file_map(path, info.data_offset, info.dtype, info.rank, info.dims, 0, out);
        tx_set_max_tensor_bytes(cap);
        if (st == TX_OK) return TX_OK;
    }
    return tv_load_npy(path, out);
}

bool stream_run(const op_def *d, int argc, char **argv, int *rc) {
    bool decode = !strcmp(d->name, "decode_raw"), cast = !strcmp(d->name, "cast"),
         bitcast = !strcmp(d->name, "bitcast");
    if (!decode && !cast && !bitcast) return false;
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return false;
    stream_cmd c;
    if (!parse_cmd(d, decode ? "input_bytes" : cast ? "x" : "input", argc, argv, &c)) return false;
    bool taken = false;
    uint64_t min = env_bytes("TENSORX_STREAM_MIN_BYTES", 64 * MIB);
    if (decode && c.input[0] == '@' && strcmp(c.input, "@-") != 0 && !arg_has(&c.a, "fixed_length") &&
        regular_file(c.input + 1, &c.size) && c.size >= min && !same_file(c.input + 1, c.out))
        taken = stream_decode_raw(d, &c, rc);
    else if (!decode && ends_with(c.input, ".npy") && regular_file(c.input, &c.size) && c.size >= min &&
             !same_file(c.input, c.out))
        taken = stream_npy(d, &c, cast, rc);
    op_args_clear(&c.a);
    return taken;
}
