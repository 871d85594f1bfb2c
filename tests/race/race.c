/* SPDX-License-Identifier: Apache-2.0 */
/* race.c -- the racing mutator harness: one thread calls every op of the CLI's table while other
 * threads rewrite the bytes of its inputs (issue 34; scripts/race.sh; docs/reliability.md).  The
 * Python package wraps NumPy arrays in place and releases the GIL during an op, and the CLI maps
 * .npy inputs in place, so an input may change while an op reads it: no op's memory safety may
 * depend on an input's bytes staying the same between two reads.
 *
 * The calls of an op: its calls in tests/unit/op_examples.h, with oob=zero, clamp and wrap added
 * where the op has the parameter and the example leaves it out; each also scaled (opcodec.h's
 * flags) to about 16 KiB and 300 KiB, the first scaling that still succeeds; and, for the ops that
 * validate an index, mask, length or offset input in one pass and use it in another, calls made
 * here with wide windows between the two (64K-element masks, ids and indices, 32K offsets and
 * ranges, 8K TF_TString records).  Every input tensor is replaced by one over memory this program
 * owns, wrapped in place (tx_tensor_wrap; strings: tx_tensor_wrap_strings over one byte buffer), as
 * Python and the CLI hand memory to the library.
 *
 * Op by op, each with an equal share of the time left (its calls are made in it), the main thread
 * calls the op's calls in turn.  Before each call the inputs' bytes are put back as made; during
 * the call THREADS writer threads each wait a random time within the call's undisturbed duration
 * and rewrite input bytes (data bytes only, never a tensor's header): a bit; a 32-bit word (a
 * TF_TString size or offset: any, grown a little, all ones); a record's type bits or inline size;
 * or a run of elements set to one value: for integers one of the input's own range (partition
 * ids: other counts), past its maximum (stitch indices, lengths, offsets), a dim further,
 * INT32_MAX, INT64_MAX, -1, -(maximum + 1), INT32_MIN, INT64_MIN, 0 or any bits; for bool 1, 0
 * or 2..255; for float32/64 NaN, infinities and huge values; other bytes (strings, float16, ...)
 * any.  Results are never compared (a changed input may give a changed answer): a call returns
 * any status, and after the writers have stopped a success's outputs are read byte by byte
 * (fz_check_tensor, every string's bytes too) and every output is freed.  The harness fails on a
 * crash or a sanitizer report (under ASan + UBSan: scripts/race.sh --asan, the ctest race.c of an
 * ASan build), or when a block of its counting allocator is alive after tx_shutdown(); a crash
 * names the call, and after how many tries and seconds on its op it came.
 *
 * Usage: tx_race [SECONDS] [THREADS] [--seed N] [--pool N] [-R REGEX] [--max-bytes N] [-v]
 *   SECONDS 20 in all, THREADS 2 writers, --pool 2 library threads, -R only the ops whose name
 *   matches the extended regular expression (a name alone also picks the ops containing it:
 *   '^gather$' for gather only), --max-bytes the tensor limit (64 MiB), -v each call's size,
 *   undisturbed time, tries and successes. */
#include "op_examples.h"
#include "../../frontend/args.h"
#include "../../fuzz/opcodec.h"

#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define RACE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RACE_ASAN 1
#endif
#endif
#ifdef RACE_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#define NEX (sizeof tx_op_examples / sizeof tx_op_examples[0])
#define MAX_REGIONS 40

/* ---- the counting allocator (tests/stress/counting_alloc.h, without failures) ---- */
static void die(const char *what) {
    fprintf(stderr, "race: %s\n", what);
    abort();
}

#include "counting_alloc.h"

static void *rc_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    return counted_alloc(size, align);
}

/* ---- random numbers: xorshift64*, one state per thread ---- */
static uint64_t rnd(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- the inputs: memory this program owns, wrapped in place ---- */
typedef struct region {
    unsigned char *buf;  /* what the library reads */
    unsigned char *orig; /* the bytes as made, put back before each call */
    size_t n, es;        /* bytes; element size (1 for a string tensor's bytes) */
    tx_dtype dt;         /* the elements' dtype; TX_STRING for a string tensor's bytes */
    bool integer;        /* bool, integer, quantized: lo and hi hold the range as made */
    int64_t lo, hi;
} region;

typedef struct rcall {
    op_args args;
    char label[128]; /* op #example variant, or what a made call holds */
    region reg[MAX_REGIONS];
    size_t nreg;
    double clean_s; /* the call's time with no writer */
    tx_status clean_st;
    long tries, ok;
} rcall;

static rcall *calls;
static size_t ncalls, calls_cap;

static bool is_signed(tx_dtype dt) {
    tx_dtype_kind k = tx_dtype_kind_of(dt);
    return k == TX_KIND_SIGNED || dt == TX_QINT8 || dt == TX_QINT16 || dt == TX_QINT32;
}

static int64_t int_get(const unsigned char *p, tx_dtype dt, size_t es) {
    bool s = is_signed(dt);
    switch (es) {
    case 1: { uint8_t v; memcpy(&v, p, 1); return s ? (int8_t)v : (int64_t)v; }
    case 2: { uint16_t v; memcpy(&v, p, 2); return s ? (int16_t)v : (int64_t)v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return s ? (int32_t)v : (int64_t)v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* The low es bytes of v, in host order. */
static void int_put(unsigned char *p, size_t es, int64_t v) {
    uint64_t u = (uint64_t)v;
    switch (es) {
    case 1: { uint8_t w = (uint8_t)u; memcpy(p, &w, 1); break; }
    case 2: { uint16_t w = (uint16_t)u; memcpy(p, &w, 2); break; }
    case 4: { uint32_t w = (uint32_t)u; memcpy(p, &w, 4); break; }
    default: memcpy(p, &u, 8); break;
    }
}

static unsigned char *own(size_t n) {
    void *p = NULL;
    if (posix_memalign(&p, 64, n ? n : 1)) die("out of memory");
    return p;
}

static void add_region(rcall *c, unsigned char *buf, size_t n, tx_dtype dt) {
    if (c->nreg == MAX_REGIONS) die("too many input tensors in one call");
    region *r = &c->reg[c->nreg++];
    r->buf = buf;
    r->n = n;
    r->dt = dt;
    r->es = dt == TX_STRING ? 1 : tx_dtype_size(dt);
    r->orig = own(n);
    memcpy(r->orig, buf, n);
    tx_dtype_kind k = tx_dtype_kind_of(dt);
    r->integer = k == TX_KIND_BOOL || k == TX_KIND_SIGNED || k == TX_KIND_UNSIGNED || k == TX_KIND_QUANTIZED;
    r->lo = INT64_MAX;
    r->hi = INT64_MIN;
    for (size_t i = 0; r->integer && i < n / r->es; i++) {
        int64_t v = int_get(buf + i * r->es, dt, r->es);
        if (v < r->lo) r->lo = v;
        if (v > r->hi) r->hi = v;
    }
}

/* A tensor like t over memory of c's (a new region), as Python wraps an array: numbers through
 * tx_tensor_wrap, strings through tx_tensor_wrap_strings over one buffer of their bytes. */
static tx_tensor *wrap_copy(rcall *c, tx_tensor *t) {
    tx_dtype dt = tx_tensor_dtype(t);
    size_t rank = tx_tensor_rank(t), n = (size_t)tx_tensor_numel(t);
    const int64_t *dims = tx_tensor_dims(t);
    tx_tensor *w = NULL;
    tx_status st;
    if (dt == TX_STRING) {
        size_t total = 0;
        for (size_t i = 0; i < n; i++) total += (size_t)tx_tensor_string(t, (int64_t)i)->size;
        unsigned char *bytes = own(total);
        tx_string *recs = calloc(n + 1, sizeof *recs);
        if (!recs) die("out of memory");
        for (size_t i = 0, at = 0; i < n; i++) {
            const tx_string *s = tx_tensor_string(t, (int64_t)i);
            if (s->size) memcpy(bytes + at, s->data, (size_t)s->size);
            recs[i].size = s->size;
            recs[i].data = (const char *)bytes + at;
            at += (size_t)s->size;
        }
        st = tx_tensor_wrap_strings(rank, dims, recs, total ? bytes : NULL, total, NULL, NULL, &w);
        free(recs);
        if (st == TX_OK && total) add_region(c, bytes, total, TX_STRING);
        else free(bytes);
    } else if (tx_tensor_nbytes(t) == 0) {
        st = tx_tensor_new(dt, rank, dims, &w); /* nothing to wrap (Python does the same) */
    } else {
        size_t nb = tx_tensor_nbytes(t);
        unsigned char *buf = own(nb);
        memcpy(buf, tx_tensor_data_const(t), nb);
        st = tx_tensor_wrap(dt, rank, dims, buf, nb, NULL, NULL, &w);
        if (st == TX_OK) add_region(c, buf, nb, dt);
        else free(buf);
    }
    if (st != TX_OK) {
        fprintf(stderr, "race: cannot wrap an input of %s: %s\n", c->label, tx_last_error());
        exit(2);
    }
    tx_tensor_free(t);
    return w;
}

static void wrap_inputs(rcall *c) {
    for (size_t i = 0; i < OP_MAX_PARAMS; i++) {
        op_value *v = &c->args.v[i];
        if (v->tensor) v->tensor = wrap_copy(c, v->tensor);
        for (size_t k = 0; k < v->nlist; k++) v->list[k] = wrap_copy(c, v->list[k]);
    }
}

static size_t input_bytes(const rcall *c) {
    size_t n = 0;
    for (size_t i = 0; i < c->nreg; i++) n += c->reg[i].n;
    return n;
}

static void free_call(rcall *c) {
    op_args_clear(&c->args);
    for (size_t i = 0; i < c->nreg; i++) {
        free(c->reg[i].buf);
        free(c->reg[i].orig);
    }
    c->nreg = 0;
}

/* ---- running a call ---- */
static tx_status run_args(const op_args *a, op_outputs *o) {
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    memset(o, 0, sizeof *o);
    return a->def->run(a, o);
}

/* Runs c once with no writer: its status and time. */
static void run_clean(rcall *c) {
    op_outputs o;
    double t0 = now();
    c->clean_st = run_args(&c->args, &o);
    c->clean_s = now() - t0;
    op_outputs_clear(&o);
}

static rcall *new_call(void) {
    if (ncalls == calls_cap) {
        calls_cap = calls_cap ? 2 * calls_cap : 256;
        calls = realloc(calls, calls_cap * sizeof *calls);
        if (!calls) die("out of memory");
    }
    rcall *c = &calls[ncalls];
    memset(c, 0, sizeof *c);
    return c;
}

/* Decodes enc (scaled by its flags) into a call, wraps its inputs and runs it once: kept when
 * `always`, or when it succeeds with more input bytes than `than`.  Returns its input bytes, 0 if
 * not kept. */
static size_t add_encoded(const uint8_t *enc, size_t n, const char *label, bool always, size_t than) {
    fz_op_case fc;
    if (!fz_op_decode_scaled(enc, n, &fc)) return 0;
    rcall *c = new_call();
    c->args = fc.args;
    snprintf(c->label, sizeof c->label, "%s", label);
    wrap_inputs(c);
    size_t bytes = input_bytes(c);
    if (!always && bytes <= than) {
        free_call(c);
        return 0;
    }
    run_clean(c);
    if (!always && c->clean_st != TX_OK) {
        free_call(c);
        return 0;
    }
    ncalls++;
    return bytes ? bytes : 1;
}

/* Scalings tried, in order (opcodec.h's flags: which tensors << 4 | dims << 6): every tensor along
 * the first dim, the last, every dim, the second; then each tensor alone. */
static const uint8_t scalings[] = {
    3 << 4 | 2 << 6, 3 << 4 | 1 << 6, 3 << 4 | 0 << 6, 3 << 4 | 3 << 6,
    0 << 4 | 2 << 6, 1 << 4 | 2 << 6, 2 << 4 | 2 << 6, 0 << 4 | 1 << 6, 1 << 4 | 1 << 6, 2 << 4 | 1 << 6,
};

/* The calls of one example with an extra argument (NULL: none): as given, and scaled to about
 * 16 KiB and about 300 KiB (size classes 3 and 4), the first scaling that succeeds (the one that
 * did at 16 KiB tried first at 300 KiB).  1 MiB made the short CI run's tries too few under
 * ASan; the made calls below hold the wide windows. */
static void add_example(size_t ex, const char *extra) {
    const op_example *e = &tx_op_examples[ex];
    const char *argv[OPX_MAX_ARGS + 1];
    int argc = opx_argc(e);
    memcpy(argv, e->args, (size_t)argc * sizeof *argv);
    if (extra) argv[argc++] = extra;
    const op_def *d = op_find(e->op);
    op_args a;
    op_cmdline cl = {.no_defaults = true};
    if (!d || op_args_parse(&a, d, argc, argv, &cl) != TX_OK) {
        fprintf(stderr, "race: example %zu (%s) does not parse: %s\n", ex, e->op, op_error());
        exit(2);
    }
    fz_buf enc = {0};
    fz_op_encode(&a, 0, 1 << 1, &enc); /* class 1: unscaled */
    op_args_clear(&a);
    char label[96];
    snprintf(label, sizeof label, "%s #%zu%s%s", e->op, ex, extra ? " " : "", extra ? extra : "");
    size_t base = add_encoded(enc.p, enc.n, label, true, 0);
    static const unsigned classes[] = {3, 4};
    size_t won = 0;
    for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
        char sl[128];
        snprintf(sl, sizeof sl, "%s %s", label, classes[k] == 3 ? "16K" : "300K");
        for (size_t t = 0; t <= sizeof scalings; t++) {
            size_t s = t == 0 ? won : t - 1;
            if (t > 0 && s == won) continue;
            enc.p[3] = (uint8_t)(classes[k] << 1 | scalings[s]);
            size_t got = add_encoded(enc.p, enc.n, sl, false, base);
            if (got) {
                base = got;
                won = s;
                break;
            }
        }
    }
    free(enc.p);
}

/* ---- calls with wide race windows, made here ---- */
static tx_tensor *made(tx_dtype dt, size_t rank, const int64_t *dims, const void *data) {
    tx_tensor *t = NULL;
    size_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= (size_t)dims[i];
    if (tx_tensor_from_data(dt, rank, dims, data, n * tx_dtype_size(dt), &t) != TX_OK) die(tx_last_error());
    return t;
}

static op_value *param(op_args *a, const char *name) {
    int i = op_param_index(a->def, name, strlen(name));
    if (i < 0) die("a made call names a parameter its op lacks");
    a->v[i].present = true;
    return &a->v[i];
}

/* Finishes a made call (defaults, wrapping, a clean run) and keeps it. */
static void keep_made(rcall *c, const char *what) {
    snprintf(c->label, sizeof c->label, "%s (made: %s)", c->args.def->name, what);
    if (op_args_finish(&c->args) != TX_OK) die(op_error());
    wrap_inputs(c);
    run_clean(c);
    ncalls++;
}

static rcall *made_call(const char *op) {
    rcall *c = new_call();
    c->args.def = op_find(op);
    if (!c->args.def) die("a made call's op is not in the table");
    return c;
}

static void set_str(rcall *c, const char *name, const char *s) {
    op_value *v = param(&c->args, name);
    v->s = strdup(s);
    if (!v->s) die("out of memory");
}

/* Random ints in [lo, hi) as dtype dt (int32 or int64). */
static tx_tensor *random_ints(uint64_t *rs, tx_dtype dt, size_t rank, const int64_t *dims, int64_t lo, int64_t hi) {
    size_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= (size_t)dims[i];
    size_t es = tx_dtype_size(dt);
    unsigned char *b = own(n * es);
    for (size_t i = 0; i < n; i++) int_put(b + i * es, es, lo + (int64_t)(rnd(rs) % (uint64_t)(hi - lo)));
    tx_tensor *t = made(dt, rank, dims, b);
    free(b);
    return t;
}

static tx_tensor *iota_data(tx_dtype dt, size_t rank, const int64_t *dims) {
    size_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= (size_t)dims[i];
    size_t es = tx_dtype_size(dt);
    unsigned char *b = own(n * es);
    for (size_t i = 0; i < n; i++) int_put(b + i * es, es, (int64_t)(i % 1000));
    tx_tensor *t = made(dt, rank, dims, b);
    free(b);
    return t;
}

static void made_boolean_mask(uint64_t *rs) {
    enum { N = 1 << 16 };
    rcall *c = made_call("boolean_mask");
    param(&c->args, "tensor")->tensor = iota_data(TX_INT32, 2, (int64_t[]){N, 4});
    unsigned char *m = own(N);
    for (size_t i = 0; i < N; i++) m[i] = rnd(rs) % 4 == 0; /* sparse: a writer adds many */
    param(&c->args, "mask")->tensor = made(TX_BOOL, 1, (int64_t[]){N}, m);
    free(m);
    keep_made(c, "mask of 64K, a quarter true");
}

static void made_gather(uint64_t *rs, const char *oob) {
    rcall *c = made_call("gather");
    param(&c->args, "params")->tensor = iota_data(TX_INT32, 2, (int64_t[]){1000, 8});
    param(&c->args, "indices")->tensor = random_ints(rs, TX_INT32, 1, (int64_t[]){1 << 16}, 0, 1000);
    if (oob) set_str(c, "oob", oob);
    char what[64];
    snprintf(what, sizeof what, "64K indices into 1000 rows, oob=%s", oob ? oob : "error");
    keep_made(c, what);
}

static void made_gather_nd(uint64_t *rs, const char *oob) {
    rcall *c = made_call("gather_nd");
    param(&c->args, "params")->tensor = iota_data(TX_INT32, 3, (int64_t[]){200, 300, 4});
    tx_tensor *ix = random_ints(rs, TX_INT64, 2, (int64_t[]){1 << 15, 2}, 0, 200);
    param(&c->args, "indices")->tensor = ix;
    if (oob) set_str(c, "oob", oob);
    char what[64];
    snprintf(what, sizeof what, "32K index pairs into 200x300, oob=%s", oob ? oob : "error");
    keep_made(c, what);
}

static void made_dynamic_partition(uint64_t *rs) {
    enum { N = 1 << 16 };
    rcall *c = made_call("dynamic_partition");
    param(&c->args, "data")->tensor = iota_data(TX_INT32, 2, (int64_t[]){N, 4});
    param(&c->args, "partitions")->tensor = random_ints(rs, TX_INT32, 1, (int64_t[]){N}, 0, 4);
    param(&c->args, "num_partitions")->i = 4;
    keep_made(c, "64K ids in [0, 4)");
}

/* Two index lists that together name each row of [0, 2N) once, shuffled. */
static void made_dynamic_stitch(uint64_t *rs, const char *oob) {
    enum { N = 1 << 15 };
    rcall *c = made_call("dynamic_stitch");
    int32_t *ix = malloc(2 * N * sizeof *ix);
    if (!ix) die("out of memory");
    for (int32_t i = 0; i < 2 * N; i++) ix[i] = i;
    for (size_t i = 2 * N - 1; i > 0; i--) {
        size_t j = rnd(rs) % (i + 1);
        int32_t t = ix[i];
        ix[i] = ix[j];
        ix[j] = t;
    }
    op_value *iv = param(&c->args, "indices"), *dv = param(&c->args, "data");
    iv->list = calloc(2, sizeof *iv->list);
    dv->list = calloc(2, sizeof *dv->list);
    if (!iv->list || !dv->list) die("out of memory");
    for (size_t k = 0; k < 2; k++) {
        iv->list[k] = made(TX_INT32, 1, (int64_t[]){N}, ix + k * N);
        dv->list[k] = iota_data(TX_FLOAT32, 2, (int64_t[]){N, 4});
    }
    iv->nlist = dv->nlist = 2;
    free(ix);
    if (oob) set_str(c, "oob", oob);
    char what[64];
    snprintf(what, sizeof what, "2 x 32K indices, a permutation, oob=%s", oob ? oob : "error");
    keep_made(c, what);
}

static void made_reverse_sequence(uint64_t *rs) {
    enum { B = 2048, T = 64 };
    rcall *c = made_call("reverse_sequence");
    param(&c->args, "input")->tensor = iota_data(TX_INT32, 3, (int64_t[]){B, T, 4});
    param(&c->args, "seq_lengths")->tensor = random_ints(rs, TX_INT64, 1, (int64_t[]){B}, 0, T + 1);
    param(&c->args, "seq_dim")->i = 1;
    keep_made(c, "2048 lengths in [0, 64]");
}

static tx_tensor *letters(uint64_t *rs, size_t n) {
    unsigned char *b = own(n);
    for (size_t i = 0; i < n; i++) b[i] = (unsigned char)('a' + rnd(rs) % 26);
    tx_tensor *t = made(TX_UINT8, 1, (int64_t[]){(int64_t)n}, b);
    free(b);
    return t;
}

/* begins/ends: n ranges inside [0, len) (begin <= end), as dt. */
static void ranges(uint64_t *rs, tx_dtype dt, size_t n, size_t len, tx_tensor **b, tx_tensor **e) {
    size_t es = tx_dtype_size(dt);
    unsigned char *bb = own(n * es), *eb = own(n * es);
    for (size_t i = 0; i < n; i++) {
        int64_t x = (int64_t)(rnd(rs) % len), y = x + (int64_t)(rnd(rs) % 32);
        if (y > (int64_t)len) y = (int64_t)len;
        int_put(bb + i * es, es, x);
        int_put(eb + i * es, es, y);
    }
    *b = made(dt, 1, (int64_t[]){(int64_t)n}, bb);
    *e = made(dt, 1, (int64_t[]){(int64_t)n}, eb);
    free(bb);
    free(eb);
}

static void made_string_pack(uint64_t *rs, tx_dtype dt) {
    enum { N = 1 << 15, L = 1 << 16 };
    rcall *c = made_call("string_tensor_pack");
    ranges(rs, dt, N, L, &param(&c->args, "begins")->tensor, &param(&c->args, "ends")->tensor);
    param(&c->args, "symbols")->tensor = letters(rs, L);
    keep_made(c, dt == TX_INT32 ? "32K int32 ranges of 64 KiB" : "32K int64 ranges of 64 KiB");
}

/* ONNX Runtime offsets: n starts, 0 first, not decreasing, inside content. */
static void made_string_from_ort(uint64_t *rs, tx_dtype dt) {
    enum { N = 1 << 15 };
    rcall *c = made_call("string_tensor_from_ort");
    uint64_t *off = malloc(N * sizeof *off);
    if (!off) die("out of memory");
    uint64_t at = 0;
    for (size_t i = 0; i < N; i++) {
        off[i] = at;
        at += rnd(rs) % 16;
    }
    param(&c->args, "content")->tensor = letters(rs, (size_t)at);
    param(&c->args, "offsets")->tensor = made(dt, 1, (int64_t[]){N}, off);
    free(off);
    keep_made(c, dt == TX_UINT64 ? "32K uint64 offsets" : "32K int64 offsets");
}

/* TF_TString records (OFFSET form for strings past 22 bytes, SMALL for the rest) of n strings. */
static void made_string_from_tf(uint64_t *rs) {
    enum { N = 1 << 13 };
    rcall *c = made_call("string_tensor_from_tf");
    const char **p = calloc(N, sizeof *p);
    size_t *len = calloc(N, sizeof *len);
    static char text[64];
    memset(text, 'x', sizeof text);
    if (!p || !len) die("out of memory");
    for (size_t i = 0; i < N; i++) {
        p[i] = text;
        len[i] = rnd(rs) % sizeof text;
    }
    tx_tensor *s = NULL, *rec = NULL;
    if (tx_tensor_new_strings(1, (int64_t[]){N}, p, len, &s) != TX_OK ||
        tx_string_tensor_to_tf(s, TX_TSTRING_OFFSET, &rec) != TX_OK)
        die(tx_last_error());
    free(p);
    free(len);
    tx_tensor_free(s);
    param(&c->args, "records")->tensor = rec;
    op_value *shape = param(&c->args, "shape");
    shape->ints = malloc(sizeof *shape->ints);
    if (!shape->ints) die("out of memory");
    shape->ints[0] = N;
    shape->nints = 1;
    keep_made(c, "8K records, OFFSET and SMALL");
}

/* The made calls of each op that has some. */
static void made_for(const op_def *d, uint64_t *rs) {
    static const char *const oobs[] = {NULL, "zero", "clamp", "wrap"};
    const char *op = d->name;
    if (!strcmp(op, "boolean_mask")) made_boolean_mask(rs);
    if (!strcmp(op, "dynamic_partition")) made_dynamic_partition(rs);
    if (!strcmp(op, "reverse_sequence")) made_reverse_sequence(rs);
    if (!strcmp(op, "string_tensor_pack")) {
        made_string_pack(rs, TX_INT32);
        made_string_pack(rs, TX_INT64);
    }
    if (!strcmp(op, "string_tensor_from_ort")) {
        made_string_from_ort(rs, TX_UINT64);
        made_string_from_ort(rs, TX_INT64);
    }
    if (!strcmp(op, "string_tensor_from_tf")) made_string_from_tf(rs);
    for (size_t k = 0; k < 4; k++) {
        if (!strcmp(op, "gather")) made_gather(rs, oobs[k]);
        if (!strcmp(op, "gather_nd")) made_gather_nd(rs, oobs[k]);
        if (!strcmp(op, "dynamic_stitch")) made_dynamic_stitch(rs, oobs[k]);
    }
}

/* Every call of op d: its examples (with each oob policy where it has the parameter and the
 * example leaves it out) and its made calls. */
static void make_calls(const op_def *d, uint64_t *rs) {
    static const char *const oobs[] = {"oob=zero", "oob=clamp", "oob=wrap"};
    bool has_oob = op_param_index(d, "oob", 3) >= 0;
    for (size_t i = 0; i < NEX; i++) {
        const op_example *e = &tx_op_examples[i];
        if (strcmp(e->op, d->name)) continue;
        add_example(i, NULL);
        bool own_oob = false;
        for (int k = 0; k < opx_argc(e); k++) own_oob |= !strncmp(e->args[k], "oob=", 4);
        for (size_t k = 0; has_oob && !own_oob && k < 3; k++) add_example(i, oobs[k]);
    }
    made_for(d, rs);
}

/* ---- the writers ---- */
/* gen is odd while a call runs; the writers write only then, into cur's regions, and each says
 * when it has seen an even gen (idle), before the main thread puts the bytes back. */
static atomic_ulong gen;
static _Atomic(rcall *) cur;
static atomic_ulong idle_gen[64];
static atomic_bool stopping;
static atomic_long writes;

/* A value that breaks an op that trusts what it validated: one of the input's own range (other
 * counts), past its maximum, a dim further, the limits of int32 and int64, negatives. */
static int64_t bad_int(const region *r, uint64_t *rs) {
    int64_t span = r->hi >= r->lo ? (int64_t)((uint64_t)r->hi - (uint64_t)r->lo) + 1 : 1;
    if (span <= 0) span = INT64_MAX;
    uint64_t hi = (uint64_t)r->hi;
    switch (rnd(rs) % 14) {
    case 0: case 1: return (int64_t)((uint64_t)r->lo + rnd(rs) % (uint64_t)span);
    case 2: return (int64_t)(hi + 1);
    case 3: return (int64_t)(hi + 1 + rnd(rs) % (uint64_t)span);
    case 4: return (int64_t)(2 * hi + 1);
    case 5: return (int64_t)(hi + ((uint64_t)1 << (rnd(rs) % 31)));
    case 6: return INT32_MAX;
    case 7: return INT64_MAX;
    case 8: return -1;
    case 9: return -(int64_t)(hi & INT64_MAX) - 1;
    case 10: return INT32_MIN;
    case 11: return INT64_MIN;
    case 12: return 0;
    default: return (int64_t)rnd(rs);
    }
}

/* An element's new bytes (es of them) at p. */
static void bad_element(const region *r, unsigned char *p, uint64_t *rs) {
    if (r->dt == TX_BOOL) {
        uint64_t k = rnd(rs) % 8;
        *p = k < 4 ? 1 : k == 4 ? 0 : (unsigned char)(2 + rnd(rs) % 254);
    } else if (r->integer) {
        int_put(p, r->es, bad_int(r, rs));
    } else if (r->dt == TX_FLOAT32 || r->dt == TX_FLOAT64 || r->dt == TX_COMPLEX64 || r->dt == TX_COMPLEX128) {
        static const double specials[] = {NAN, INFINITY, -INFINITY, 1e300, -1e300, 3e38, -0.0, 2147483648.0, 0.5};
        double v = specials[rnd(rs) % (sizeof specials / sizeof specials[0])];
        if (r->dt == TX_FLOAT32 || r->dt == TX_COMPLEX64) {
            float f = (float)v;
            memcpy(p, &f, 4);
        } else {
            memcpy(p, &v, 8);
        }
    } else {
        /* string bytes, float16, bfloat16, float8: any bytes */
        uint64_t v = rnd(rs) % 3 == 0 ? UINT64_MAX : rnd(rs);
        memcpy(p, &v, r->es < 8 ? r->es : 8);
    }
}

/* One burst of writes into a random input of c. */
static void burst(rcall *c, uint64_t *rs) {
    region *r = &c->reg[rnd(rs) % c->nreg];
    size_t nel = r->n / r->es, at = (size_t)(rnd(rs) % nel);
    switch (rnd(rs) % 8) {
    case 0: /* a bit */
        r->buf[rnd(rs) % r->n] ^= (unsigned char)(1u << (rnd(rs) % 8));
        break;
    case 1: { /* a 32-bit word: a TF_TString record's size or offset, half of an int64 */
        if (r->n < 4) break;
        size_t w = (size_t)(rnd(rs) % (r->n / 4)) * 4;
        uint32_t v;
        memcpy(&v, r->buf + w, 4);
        uint64_t k = rnd(rs) % 4;
        /* a bit of the size or offset, any size or offset (the type bits kept), all ones, a
         * size grown by a little (past what was counted, still inside the buffer) */
        v = k == 0 ? v ^ (1u << (2 + rnd(rs) % 30)) : k == 1 ? (uint32_t)rnd(rs) << 2 | (v & 3) : k == 2 ? UINT32_MAX
                                                                                          : v + ((1 + (uint32_t)(rnd(rs) % 64)) << 2);
        memcpy(r->buf + w, &v, 4);
        break;
    }
    case 2: { /* a record's type (TF_TString: the low 2 bits of byte 0), or its inline size grown */
        size_t b = (size_t)(rnd(rs) % ((r->n + 7) / 8)) * 8;
        if (rnd(rs) % 2) r->buf[b] = (unsigned char)((r->buf[b] & ~3u) | (rnd(rs) & 3));
        else r->buf[b] = (unsigned char)(r->buf[b] + 4 * (1 + rnd(rs) % 8));
        break;
    }
    default: { /* a run of elements, one value: one, a few, or up to 32K */
        uint64_t k = rnd(rs) % 4;
        size_t len = k < 2 ? 1 : k == 2 ? 1 + rnd(rs) % 16 : 1 + rnd(rs) % ((size_t)1 << (rnd(rs) % 16));
        if (len > nel - at) len = nel - at;
        unsigned char v[16];
        bad_element(r, v, rs);
        for (size_t i = 0; i < len; i++) memcpy(r->buf + (at + i) * r->es, v, r->es);
        break;
    }
    }
    atomic_fetch_add_explicit(&writes, 1, memory_order_relaxed);
}

typedef struct writer_arg {
    size_t me;
    uint64_t seed;
} writer_arg;

static void *writer(void *arg) {
    const writer_arg *wa = arg;
    size_t me = wa->me;
    uint64_t rs = wa->seed * 0x9E3779B97F4A7C15ull + 1;
    while (!atomic_load(&stopping)) {
        unsigned long g = atomic_load(&gen);
        if (!(g & 1)) {
            atomic_store(&idle_gen[me], g);
            while (atomic_load(&gen) == g && !atomic_load(&stopping)) sched_yield();
            continue;
        }
        rcall *c = atomic_load(&cur);
        /* Bursts at random times within the call's undisturbed duration, until it returns. */
        double t = now(), span = c->clean_s > 1e-6 ? c->clean_s : 1e-6;
        while (atomic_load(&gen) == g) {
            double at = t + span * (double)(rnd(&rs) % 1024) / 1024;
            while ((t = now()) < at && atomic_load(&gen) == g) sched_yield();
            if (atomic_load(&gen) != g || c->nreg == 0) break;
            burst(c, &rs);
        }
    }
    return NULL;
}

/* ---- the main thread ---- */
static long nwriters;
static char crash_note[160];   /* what runs now, for a crash report */
static atomic_long crash_tries;
static double crash_since;

static void put_str(const char *s) {
    ssize_t w = write(2, s, strlen(s));
    (void)w;
}

/* Says which call died, after how many tries and seconds (a sanitizer's death callback or a
 * signal handler: only write(2) and clock_gettime). */
static void on_death(void) {
    static atomic_flag said = ATOMIC_FLAG_INIT;
    if (atomic_flag_test_and_set(&said)) return;
    char num[32];
    long n = atomic_load(&crash_tries), secs = (long)(now() - crash_since);
    put_str("race: died in ");
    put_str(crash_note);
    size_t i = sizeof num - 1;
    num[i] = '\0';
    do num[--i] = (char)('0' + n % 10); while ((n /= 10) && i);
    put_str(" at try ");
    put_str(num + i);
    i = sizeof num - 1;
    do num[--i] = (char)('0' + secs % 10); while ((secs /= 10) && i);
    put_str(" of this op, after ");
    put_str(num + i);
    put_str(" s on it\n");
}

static void on_signal(int sig) {
    on_death();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void start_call(rcall *c) {
    for (size_t i = 0; i < c->nreg; i++) memcpy(c->reg[i].buf, c->reg[i].orig, c->reg[i].n);
    atomic_store(&cur, c);
    atomic_fetch_add(&gen, 1); /* odd: the writers go */
}

static void end_call(void) {
    unsigned long g = atomic_fetch_add(&gen, 1) + 1;
    for (long w = 0; w < nwriters; w++)
        while (atomic_load(&idle_gen[w]) != g) sched_yield();
}

static long total_tries;

static void race_call(rcall *c) {
    snprintf(crash_note, sizeof crash_note, "%s", c->label);
    op_outputs o;
    start_call(c);
    tx_status st = run_args(&c->args, &o);
    end_call();
    c->tries++;
    total_tries++;
    if (st == TX_OK) {
        c->ok++;
        for (size_t i = 0; i < o.n; i++) {
            char what[160];
            snprintf(what, sizeof what, "%s output %zu", c->label, i);
            fz_check_tensor(o.t[i], what);
        }
    }
    op_outputs_clear(&o);
}

/* Makes op d's calls, runs them in turn until `secs` have passed since it began (each at least
 * once), prints what happened and frees them. */
static void race_op(const op_def *d, double secs, bool verbose, uint64_t *rs) {
    crash_since = now();
    snprintf(crash_note, sizeof crash_note, "%s (making its calls)", d->name);
    atomic_store(&crash_tries, 0);
    make_calls(d, rs);
    size_t n = ncalls;
    if (n == 0) return;
    double made_s = now() - crash_since, end = crash_since + secs;
    long tries = 0, ok = 0, failing = 0;
    for (size_t k = 0; k < n || now() < end; k++, tries++) {
        atomic_store(&crash_tries, tries + 1);
        race_call(&calls[k % n]);
    }
    for (size_t k = 0; k < n; k++) {
        ok += calls[k].ok;
        failing += calls[k].clean_st != TX_OK;
    }
    printf("race: %-34s %3zu calls (%ld fail undisturbed, made in %.1f s), %6ld tries (%ld succeeded), %.1f s\n",
           d->name, n, failing, made_s, tries, ok, now() - crash_since);
    for (size_t k = 0; k < n; k++) {
        rcall *c = &calls[k];
        if (verbose)
            printf("race:   %-60s %7zu input bytes, %8.3f ms undisturbed (%s), %ld tries, %ld succeeded\n", c->label,
                   input_bytes(c), c->clean_s * 1e3, tx_status_name(c->clean_st), c->tries, c->ok);
        free_call(c);
    }
    ncalls = 0;
    fflush(stdout);
}

static long arg_long(const char *s, const char *what) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0) {
        fprintf(stderr, "race: %s: '%s' is not a number\n", what, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv) {
    setenv("TENSORX_THREAD_POLICY", "split", 0); /* the split paths run, whatever is measured */
    long seconds = 20, pool = 2, seed = 1, max_bytes = 64l << 20;
    const char *filter = NULL;
    bool verbose = false;
    nwriters = 2;
    int pos = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--pool") && i + 1 < argc) pool = arg_long(argv[++i], "--pool");
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = arg_long(argv[++i], "--seed");
        else if (!strcmp(argv[i], "--max-bytes") && i + 1 < argc) max_bytes = arg_long(argv[++i], "--max-bytes");
        else if (!strcmp(argv[i], "-R") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "-v")) verbose = true;
        else if (argv[i][0] != '-' && pos == 0 && ++pos) seconds = arg_long(argv[i], "SECONDS");
        else if (argv[i][0] != '-' && pos == 1 && ++pos) nwriters = arg_long(argv[i], "THREADS");
        else {
            fprintf(stderr, "usage: %s [SECONDS] [THREADS] [--seed N] [--pool N] [-R REGEX] [--max-bytes N] [-v]\n", argv[0]);
            return 2;
        }
    }
    if (nwriters < 1 || nwriters > 64) {
        fprintf(stderr, "race: THREADS must be 1 to 64\n");
        return 2;
    }
    regex_t re;
    if (filter && regcomp(&re, filter, REG_EXTENDED | REG_NOSUB)) {
        fprintf(stderr, "race: -R: '%s' is not an extended regular expression\n", filter);
        return 2;
    }
    /* fz_check_tensor's findings abort; under ASan its handlers report the rest. */
    signal(SIGABRT, on_signal);
#ifdef RACE_ASAN
    __sanitizer_set_death_callback(on_death);
#else
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
#endif
    static const tx_allocator counting = {rc_alloc, counted_free, NULL};
    tx_set_allocator(&counting);
    tx_set_max_tensor_bytes((size_t)max_bytes);
    tx_set_num_threads((int)pool);
    uint64_t rs = (uint64_t)seed * 0x9E3779B97F4A7C15ull + 7;

    const op_def *ops[256];
    size_t nops = 0;
    for (size_t k = 0; op_at(k) && nops < 256; k++) {
        const op_def *d = op_at(k);
        bool example = false;
        for (size_t i = 0; i < NEX && !example; i++) example = !strcmp(tx_op_examples[i].op, d->name);
        if (example && (!filter || regexec(&re, d->name, 0, NULL, 0) == 0)) ops[nops++] = d;
    }
    if (filter) regfree(&re);
    if (nops == 0) {
        fprintf(stderr, "race: no op matches '%s'\n", filter ? filter : "");
        return 2;
    }
    printf("race: %zu ops, %.2f s each; %ld writer threads, library pool %ld, seed %ld\n", nops,
           (double)seconds / (double)nops, nwriters, pool, seed);
    fflush(stdout);

    pthread_t tid[64];
    static writer_arg wargs[64];
    for (long w = 0; w < nwriters; w++) {
        wargs[w] = (writer_arg){(size_t)w, (uint64_t)seed * 64 + (uint64_t)w + 1};
        if (pthread_create(&tid[w], NULL, writer, &wargs[w])) die("cannot create a thread");
    }
    double start = now();
    /* Each op gets an equal share of the time left: one that took longer leaves less to the rest. */
    for (size_t k = 0; k < nops; k++) {
        double left = start + (double)seconds - now();
        race_op(ops[k], left > 0 ? left / (double)(nops - k) : 0, verbose, &rs);
    }
    atomic_store(&stopping, true);
    for (long w = 0; w < nwriters; w++) pthread_join(tid[w], NULL);
    double took = now() - start;

    free(calls);
    tx_shutdown();
    long blocks = atomic_load(&live_blocks), bytes = atomic_load(&live_bytes);
    printf("race: %ld tries in %.1f s, %ld bursts of writes, %ld blocks (%ld bytes) alive at the end\n", total_tries, took,
           atomic_load(&writes), blocks, bytes);
    if (blocks || bytes) {
        printf("race: FAILED (memory not returned)\n");
        return 1;
    }
    printf("race: passed\n");
    return 0;
}
