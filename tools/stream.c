/* SPDX-License-Identifier: Apache-2.0 */
/* stream.c -- files larger than memory for the CLI.  An op whose op_def has a
 * stream hook (opreg.h; the op tables set it) runs on a big file chunk by chunk: each window of
 * the input is memory-mapped (tx_file_map / tx_file_map_string), handed to the op's own run
 * function, and the result is appended to the output .npy after a header written up front
 * (tx_npy_write_header), so memory stays bounded by the chunk size whatever the file size.  The
 * header's shape and any error come from the op's plan (size before run), so the errors read
 * exactly as for small inputs.  A call the streaming path cannot take (an argument error, a
 * Fortran-order or string .npy) goes to the normal path, which reports it.  Only tensorx.h is
 * used. */
#include "stream.h"

#include "args.h"
#include "console.h"
#include "fault.h"
#include "files.h"
#include "progress.h"
#include "values.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024u * 1024u)

/* ---- the output file ----------------------------------------------------------------------------- */

typedef struct {
    outfile f; /* a file: through a temporary one renamed over it at the end (files.h) */
    int fd;
    const char *path;
    bool is_stdout, open;
} sink;

static tx_status sink_open(sink *s, const char *path) {
    s->path = path;
    s->is_stdout = strcmp(path, "-") == 0;
    if (s->is_stdout) {
        if (isatty(STDOUT_FILENO))
            return op_fail(TX_INVALID_ARGUMENT,
                           "-o -: refusing to write .npy data to a terminal (redirect or pipe it)");
        fflush(stdout); /* anything printed goes first */
        s->fd = STDOUT_FILENO;
        return TX_OK;
    }
    tx_status st = outfile_open(&s->f, path);
    s->open = st == TX_OK;
    s->fd = s->f.fd;
    return st;
}

static tx_status sink_write(sink *s, const void *data, size_t n) {
    return fd_write_all(s->fd, s->path, data, n);
}

/* Closes the sink: a file is renamed over its path, or after a failure removed, leaving the path
 * as it was (a device such as /dev/full is only closed). */
static tx_status sink_close(sink *s, tx_status st) {
    if (!s->open) return st;
    s->open = false;
    if (st != TX_OK) {
        outfile_abort(&s->f);
        return st;
    }
    return outfile_commit(&s->f);
}

/* ---- streaming ---------------------------------------------------------------------------------- */

/* Ops stream when their op_def has a stream hook (opreg.h): the hook names the input parameter,
 * where it comes from (raw bytes or .npy) and whether a call's other arguments allow it.  All the
 * rest comes from the op itself, through its run function: the whole result's shape and any error
 * from its plan (size before run), the window sizes from the shapes it plans, each window's
 * result from running it.  So no rule of any op is restated here. */

/* A command the streaming path took: the op's arguments, parsed as the normal path parses them,
 * except the input, which is only named. */
typedef struct {
    const op_def *d;
    op_args a;
    int input_k;       /* the streamed parameter's index */
    const char *path;  /* the input file */
    const char *out;   /* the one -o */
    uint64_t size;     /* the input file's size */
    tx_status st;      /* a failure to report (STREAM_FAIL) */
} stream_cmd;

/* How the input is cut into windows and what the whole result is. */
typedef struct {
    bool raw;             /* the input is raw bytes (else a .npy) */
    tx_npy_info npy;      /* a .npy input's header */
    int64_t npy_dims[TX_MAX_RANK]; /* its shape (npy.dims) */
    uint64_t items;       /* input items: bytes (raw) or elements (.npy) */
    uint64_t item_bytes;  /* bytes per item */
    uint64_t unit;        /* items per window step: they make whole output elements */
    uint64_t step;        /* items per window (a multiple of unit) */
    tx_output_info out;   /* the whole result, for the header */
    int64_t out_dims[TX_MAX_RANK]; /* its shape (out.dims) */
} stream_plan;

typedef enum { STREAM_DECLINE, STREAM_FAIL, STREAM_GO } stream_verdict;

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

/* The streaming path's one option: a single -o whose name has no {} (one output, one file). */
static tx_status one_output(void *ctx, int argc, const char *const *argv, int *i) {
    stream_cmd *c = ctx;
    if (strcmp(argv[*i], "-o") != 0 || *i + 1 >= argc || c->out != NULL || strstr(argv[*i + 1], "{}"))
        return op_fail(OP_USAGE, "not streamed");
    c->out = argv[++*i];
    return TX_OK;
}

/* Parses argv for d, whose hook names the input (recorded, not parsed), and checks that the call
 * and its input file are ones to stream.  false = leave it to the normal path, which reports any
 * error. */
static bool parse_cmd(const op_def *d, int argc, char **argv, stream_cmd *c) {
    const op_stream *h = d->stream;
    memset(c, 0, sizeof *c);
    c->d = d;
    c->input_k = op_param_index(d, h->input, strlen(h->input));
    op_cmdline cl = {.option = one_output, .ctx = c, .unparsed = h->input};
    bool ok = c->input_k >= 0 && op_args_parse(&c->a, d, argc, (const char *const *)argv, &cl) == TX_OK;
    op_fail(TX_OK, "%s", ""); /* parsing errors are the normal path's to report */
    const char *text = ok ? cl.text[c->input_k] : NULL;
    ok = ok && text && c->out && outfile_is_npy(c->out) && (!h->accepts || h->accepts(&c->a));
    if (ok && h->source == OP_STREAM_RAW) { /* @FILE, not @- (stdin) */
        ok = text[0] == '@' && strcmp(text, "@-") != 0 && !ends_with(text, ".gz") &&
             !ends_with(text, ".zz"); /* compressed: the normal path decompresses it */
        c->path = text + 1;
    } else if (ok) {
        ok = ends_with(text, ".npy");
        c->path = text;
    }
    ok = ok && regular_file(c->path, &c->size) &&
         c->size >= env_bytes("TENSORX_STREAM_MIN_BYTES", 64 * MIB) && !same_file(c->path, c->out);
    if (!ok) op_args_clear(&c->a);
    return ok;
}

static int report(const op_def *d, tx_status st) {
    progress_stop();
    fprintf(cli_err(), "tensorx: %s: %s: %s\n", d->name, op_status_name(st), op_error());
    return 1;
}

/* Bytes of input per window; a window and its result stay within the tensor cap. */
static uint64_t chunk_bytes(void) {
    uint64_t c = env_bytes("TENSORX_CHUNK_BYTES", 16 * MIB);
    if (c == 0) c = 16 * MIB;
    return c < tx_max_tensor_bytes() ? c : tx_max_tensor_bytes();
}

/* Runs the op (plan NULL) or sizes it into plan, with `input` as its streamed argument. */
static tx_status call(stream_cmd *c, tx_tensor *input, tx_plan *plan, op_outputs *o) {
    c->a.v[c->input_k].tensor = input;
    o->plan = plan;
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    tx_status st = c->d->run(&c->a, o);
    c->a.v[c->input_k].tensor = NULL; /* the caller's: not the args' to free */
    return st;
}

/* The op's plan with `input`: its status, and whether it makes exactly one output (*info, its
 * dims in dims[TX_MAX_RANK]). */
static tx_status plan_one(stream_cmd *c, tx_tensor *input, tx_output_info *info, int64_t *dims,
                          bool *one) {
    tx_plan p = TX_PLAN_INIT(info, 1, dims, TX_MAX_RANK);
    op_outputs o = {0};
    tx_status st = call(c, input, &p, &o);
    op_outputs_clear(&o);
    *one = st == TX_OK && p.count == 1;
    return st;
}

/* Items [off, off + n) of the input as the tensor the op takes: a string scalar of raw bytes, or
 * the .npy's elements, flat or as [n / unit, unit] when whole units make an output element. */
static tx_status window(const stream_cmd *c, const stream_plan *p, uint64_t off, uint64_t n, tx_tensor **w) {
    if (p->raw) return tx_file_map_string(c->path, off, n, w);
    int64_t dims[2] = {(int64_t)(n / p->unit), (int64_t)p->unit};
    if (p->unit == 1) dims[0] = (int64_t)n;
    return tx_file_map(c->path, p->npy.data_offset + off * p->item_bytes, p->npy.dtype, p->unit > 1 ? 2 : 1,
                       dims, p->npy.byte_swapped, w);
}

static void unmap_bytes(void *data, void *bytes) {
    (void)data;
    tx_tensor_free(bytes);
}

/* A .npy's data for a plan, which reads no element: the file's bytes mapped as they are, under
 * its dtype and shape.  Nothing is read or copied (tx_file_map would byte-swap the whole file, or
 * normalise its bool or int4 bytes, which a plan does not need). */
static tx_status map_npy_as_is(const char *path, const tx_npy_info *in, tx_tensor **out) {
    tx_tensor *bytes = NULL;
    int64_t n = (int64_t)in->data_size;
    tx_status st = tx_file_map(path, in->data_offset, TX_UINT8, 1, &n, 0, &bytes);
    if (st == TX_OK)
        st = tx_tensor_wrap(in->dtype, in->rank, in->dims, (void *)tx_tensor_data_const(bytes),
                            (size_t)in->data_size, unmap_bytes, bytes, out);
    if (st != TX_OK) tx_tensor_free(bytes);
    return st;
}

/* The op's plan on the whole input, mapped with the tensor cap lifted, since the result is
 * written piecewise.  For the exact error of a call that fails, and for shapes the cheaper
 * stand-ins cannot give.  Declines when the file cannot be mapped whole (address space). */
static stream_verdict plan_whole(stream_cmd *c, const stream_plan *p, tx_output_info *info,
                                 int64_t *dims) {
    size_t cap = tx_max_tensor_bytes();
    tx_set_max_tensor_bytes(0);
    tx_tensor *all = NULL;
    tx_status st = p->raw ? tx_file_map_string(c->path, 0, c->size, &all) : map_npy_as_is(c->path, &p->npy, &all);
    bool one = false;
    if (st == TX_OK) st = plan_one(c, all, info, dims, &one);
    tx_set_max_tensor_bytes(cap);
    bool mapped = all != NULL;
    tx_tensor_free(all);
    if (!mapped) return STREAM_DECLINE;
    if (st != TX_OK) {
        c->st = st;
        return STREAM_FAIL;
    }
    return one ? STREAM_GO : STREAM_DECLINE;
}

/* numel and nbytes of the whole result from its dtype and dims; false on overflow. */
static bool whole_sizes(tx_output_info *o) {
    uint64_t numel = 1, nbytes;
    for (size_t i = 0; i < o->rank; i++)
        if (o->dims[i] < 0 || (o->dims[i] && numel > INT64_MAX / (uint64_t)o->dims[i])) return false;
        else numel *= (uint64_t)o->dims[i];
    if (__builtin_mul_overflow(numel, (uint64_t)tx_dtype_size(o->dtype), &nbytes) || nbytes > SIZE_MAX) return false;
    o->numel = (int64_t)numel;
    o->nbytes = (size_t)nbytes;
    return true;
}

/* Items per window: whole units, the window and its result within chunk_bytes(). */
static void set_step(stream_plan *p) {
    uint64_t unit_bytes = p->unit * p->item_bytes, units = p->items / p->unit;
    uint64_t out_per_unit = units ? p->out.nbytes / units : 0;
    uint64_t grow = out_per_unit > unit_bytes ? (out_per_unit + unit_bytes - 1) / unit_bytes : 1;
    uint64_t per = chunk_bytes() / (unit_bytes * grow);
    p->step = (per ? per : 1) * p->unit;
}

/* The length of the op's 1-D result for the raw bytes [off, off + len): its plan. */
static tx_status window_length(stream_cmd *c, const stream_plan *p, uint64_t off, uint64_t len, int64_t *n) {
    tx_tensor *w = NULL;
    tx_output_info info;
    int64_t dims[TX_MAX_RANK];
    bool one = false;
    tx_status st = window(c, p, off, len, &w);
    if (st == TX_OK) st = plan_one(c, w, &info, dims, &one);
    tx_tensor_free(w);
    if (st == TX_OK && (!one || info.rank != 1)) st = op_fail(TX_INTERNAL, "%s: not a 1-D result", c->d->name);
    *n = st == TX_OK ? info.numel : 0;
    return st;
}

/* Raw bytes: the op's result is 1-D, one element of its dtype per that dtype's size in bytes.
 * Its plan on no bytes checks the other arguments and names the dtype; its plans on the first
 * window and on the last (which holds any bytes short of a whole element) give the length. */
static stream_verdict plan_raw(stream_cmd *c, stream_plan *p) {
    p->raw = true;
    p->items = c->size;
    p->item_bytes = 1;
    tx_tensor *none = NULL;
    const char *nothing = "";
    size_t zero = 0;
    bool one = false;
    tx_status st = tx_tensor_new_strings(0, NULL, &nothing, &zero, &none);
    if (st == TX_OK) st = plan_one(c, none, &p->out, p->out_dims, &one);
    tx_tensor_free(none);
    if (st != TX_OK) {
        c->st = st;
        return STREAM_FAIL;
    }
    if (!one || p->out.rank != 1 || p->out.dtype == TX_STRING) return STREAM_DECLINE;
    /* As many result bytes as input bytes: windows of chunk_bytes() at most, whole elements. */
    p->unit = tx_dtype_size(p->out.dtype);
    p->step = chunk_bytes() / p->unit * p->unit;
    if (p->step == 0) p->step = p->unit;
    uint64_t full = p->items / p->step, last = p->items % p->step;
    int64_t per_window = 0, in_last = 0;
    if (full && (window_length(c, p, 0, p->step, &per_window) != TX_OK ||
                 (uint64_t)per_window * p->unit != p->step))
        return STREAM_DECLINE;
    if (last && window_length(c, p, full * p->step, last, &in_last) != TX_OK) {
        tx_output_info whole; /* a short last element: the op's error names the whole length */
        int64_t dims[TX_MAX_RANK];
        return plan_whole(c, p, &whole, dims) == STREAM_FAIL ? STREAM_FAIL : STREAM_DECLINE;
    }
    if (__builtin_mul_overflow((int64_t)full, per_window, &p->out_dims[0]) ||
        __builtin_add_overflow(p->out_dims[0], in_last, &p->out_dims[0]))
        return STREAM_DECLINE;
    return whole_sizes(&p->out) ? STREAM_GO : STREAM_DECLINE;
}

/* .npy: the op maps input rows (along axis 0) to output rows.  Its plan on a stand-in with no
 * rows and the input's other dims gives the result's dtype and row shape at no cost; a scalar
 * input, or a stand-in the op refuses, is planned whole instead (exact shape or exact error). */
static stream_verdict plan_npy(stream_cmd *c, stream_plan *p) {
    tx_npy_info *in = &p->npy;
    *in = (tx_npy_info)TX_NPY_INFO_INIT(p->npy_dims, TX_MAX_RANK);
    if (tx_npy_read_info(c->path, in) != TX_OK || in->dtype == TX_STRING || (in->fortran_order && in->rank > 1) ||
        in->item_size == 0)
        return STREAM_DECLINE;
    p->items = in->data_size / in->item_size;
    p->item_bytes = in->item_size;
    uint64_t rows_in = 1, rows_out = 1; /* elements per row, or the whole input and result */
    bool one = false;
    tx_status st = TX_UNIMPLEMENTED;
    if (in->rank > 0) {
        int64_t dims[TX_MAX_RANK];
        memcpy(dims, in->dims, in->rank * sizeof *dims);
        dims[0] = 0;
        tx_tensor *none = NULL;
        st = tx_tensor_new(in->dtype, in->rank, dims, &none);
        if (st == TX_OK) st = plan_one(c, none, &p->out, p->out_dims, &one);
        tx_tensor_free(none);
        one = one && p->out.rank > 0 && p->out.dims[0] == 0;
        for (size_t i = 1; one && i < in->rank; i++)
            one = !__builtin_mul_overflow(rows_in, (uint64_t)in->dims[i], &rows_in);
        for (size_t i = 1; one && i < p->out.rank; i++)
            one = !__builtin_mul_overflow(rows_out, (uint64_t)p->out.dims[i], &rows_out);
        p->out_dims[0] = in->dims[0];
    }
    if (st != TX_OK || !one) {
        stream_verdict v = plan_whole(c, p, &p->out, p->out_dims);
        if (v != STREAM_GO) return v;
        rows_in = p->items;
        rows_out = (uint64_t)p->out.numel;
    }
    if (!whole_sizes(&p->out) || p->out.dtype == TX_STRING) return STREAM_DECLINE;
    /* Input elements per output element when the op merges them (a bitcast to a wider type);
     * else 1, each input element making one or more output elements. */
    p->unit = 1;
    if (!rows_in || !rows_out) {
        if (p->items) return STREAM_DECLINE; /* nothing to stream but a header otherwise */
    } else if (rows_in > rows_out) {
        p->unit = rows_in / rows_out;
        if (rows_in % rows_out || p->items % p->unit) return STREAM_DECLINE;
    } else if (rows_out % rows_in) {
        return STREAM_DECLINE;
    }
    set_step(p);
    return STREAM_GO;
}

/* Writes the header, then the op's result for each window, one after the other. */
static tx_status run_windows(stream_cmd *c, const stream_plan *p) {
    unsigned char hdr[TX_NPY_HEADER_MAX];
    size_t hlen;
    sink s = {0};
    tx_status st = tx_npy_write_header(p->out.dtype, p->out.rank, p->out.dims, hdr, sizeof hdr, &hlen);
    if (st == TX_OK) st = sink_open(&s, c->out);
    if (st == TX_OK) st = sink_write(&s, hdr, hlen);
    int64_t made = 0;
    progress_start(c->d->name, p->items * p->item_bytes);
    for (uint64_t off = 0; st == TX_OK && off < p->items; off += p->step) {
        uint64_t n = p->items - off < p->step ? p->items - off : p->step;
        tx_tensor *w = NULL;
        op_outputs o = {0};
        st = window(c, p, off, n, &w);
        if (st == TX_OK) st = call(c, w, NULL, &o);
        if (st == TX_OK && (o.n != 1 || tx_tensor_dtype(o.t[0]) != p->out.dtype))
            st = op_fail(TX_INTERNAL, "%s: a window's result is not the planned one", c->d->name);
        if (st == TX_OK) {
            st = fd_write_npy_data(s.fd, s.path, tx_tensor_data_const(o.t[0]), tx_tensor_nbytes(o.t[0]), p->out.dtype);
            made += tx_tensor_numel(o.t[0]);
        }
        op_outputs_clear(&o);
        tx_tensor_free(w);
        progress_set((off + n) * p->item_bytes);
    }
    if (st == TX_OK && made != p->out.numel)
        st = op_fail(TX_INTERNAL, "%s: the windows made %lld elements, the plan %lld", c->d->name,
                     (long long)made, (long long)p->out.numel);
    st = sink_close(&s, st);
    progress_stop();
    return st;
}

tx_status stream_load_npy(const char *path, tx_tensor **out) {
    int64_t dims[TX_MAX_RANK];
    tx_npy_info info = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    uint64_t min = env_bytes("TENSORX_STREAM_MIN_BYTES", 64 * MIB);
    if (strcmp(path, "-") != 0 && tx_npy_read_info(path, &info) == TX_OK && info.dtype != TX_STRING &&
        !info.byte_swapped && (!info.fortran_order || info.rank <= 1) && info.data_size >= min) {
        /* A mapped file takes no memory: the tensor cap does not apply to it. */
        size_t cap = tx_max_tensor_bytes();
        tx_set_max_tensor_bytes(0);
        tx_status st = tx_file_map(path, info.data_offset, info.dtype, info.rank, info.dims, 0, out);
        tx_set_max_tensor_bytes(cap);
        if (st == TX_OK) {
            fault_watch(tx_tensor_data_const(*out), tx_tensor_nbytes(*out), path, false);
            return TX_OK;
        }
    }
    return tv_load_npy(path, out);
}

/* Whether the normal path can take the command without holding the data in memory: its output
 * goes to a file, where it is made in the mapped file (files.h), and its input is mapped in place
 * (raw bytes; a .npy in host byte order, C order, not strings), from the size at which outputs
 * are mapped up. */
static bool in_place_to_file(const stream_cmd *c) {
    if (!outfile_replaces(c->out) || c->size < mapout_min_bytes()) return false;
    if (c->d->stream->source == OP_STREAM_RAW) return true;
    int64_t dims[TX_MAX_RANK];
    tx_npy_info in = TX_NPY_INFO_INIT(dims, TX_MAX_RANK);
    return tx_npy_read_info(c->path, &in) == TX_OK && !in.byte_swapped && in.dtype != TX_STRING &&
           (!in.fortran_order || in.rank <= 1);
}

bool stream_run(const op_def *d, int argc, char **argv, int *rc) {
    if (!d->stream) return false;
    for (int i = 0; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return false;
    stream_cmd c;
    if (!parse_cmd(d, argc, argv, &c)) return false;
    if (in_place_to_file(&c)) { /* the normal path maps both files: faster, and no window */
        op_args_clear(&c.a);
        return false;
    }
    stream_plan p;
    memset(&p, 0, sizeof p);
    int slot = fault_watch(NULL, 0, c.path, false); /* its windows: a SIGBUS names the file */
    stream_verdict v = d->stream->source == OP_STREAM_RAW ? plan_raw(&c, &p) : plan_npy(&c, &p);
    if (v == STREAM_FAIL) *rc = report(d, c.st);
    else if (v == STREAM_GO) {
        tx_status st = run_windows(&c, &p);
        *rc = st == TX_OK ? 0 : report(d, st);
    }
    op_args_clear(&c.a);
    fault_unwatch(slot);
    return v != STREAM_DECLINE;
}
