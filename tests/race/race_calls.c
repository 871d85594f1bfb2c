/* SPDX-License-Identifier: Apache-2.0 */
/* race_calls.c -- the calls that the racing mutator harness (race.c) races, and their inputs.
 *
 * The calls of an op: its calls in tests/unit/op_examples.h, with oob=zero, clamp and wrap added
 * where the op has the parameter and the example leaves it out; each also scaled (opcodec.h's
 * flags) to about 16 KiB and 300 KiB, the first scaling that still succeeds; and, for the ops that
 * validate an index, mask, length or offset input in one pass and use it in another, calls made
 * here with wide windows between the two (64K-element masks, ids and indices, 32K offsets and
 * ranges, 8K TF_TString records).  Every input tensor is replaced by one over memory this program
 * owns, wrapped in place (tx_tensor_wrap; strings: tx_tensor_wrap_strings over one byte buffer), as
 * Python and the CLI hand memory to the library. */
#include "race.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the inputs: memory this program owns, wrapped in place ---- */
rcall *calls;
size_t ncalls;
static size_t calls_cap;

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

size_t input_bytes(const rcall *c) {
    size_t n = 0;
    for (size_t i = 0; i < c->nreg; i++) n += c->reg[i].n;
    return n;
}

void free_call(rcall *c) {
    for (size_t i = 0; c->prepared && i < tx_op_output_count(c->prepared); i++)
        free(c->prepared_out[i]);
    tx_op_free(c->prepared);
    c->prepared = NULL;
    op_args_clear(&c->args);
    for (size_t i = 0; i < c->nreg; i++) {
        free(c->reg[i].buf);
        free(c->reg[i].orig);
    }
    c->nreg = 0;
}

/* ---- running a call ---- */
tx_status run_args(const op_args *a, op_outputs *o) {
    op_fail(TX_OK, "%s", "");
    tx_clear_error();
    memset(o, 0, sizeof *o);
    return a->def->run(a, o);
}

/* Prepares c where its op has a prepared form, with outputs of its own (race.c alternates the
 * call and the prepared run). */
static void prepare_call(rcall *c) {
    op_outputs o;
    memset(&o, 0, sizeof o);
    o.prepare = &c->prepared;
    size_t n = 0;
    if (!c->args.def->data_inputs[0] || c->args.def->run(&c->args, &o) != TX_OK) {
        op_outputs_clear(&o);
        return;
    }
    op_outputs_clear(&o);
    if (!op_data_inputs(c->args.def, &c->args, c->prepared_in, MAX_REGIONS, &n) ||
        n != tx_op_input_count(c->prepared))
        die("prepared: the spec's data inputs do not match the op's");
    for (size_t i = 0; i < tx_op_output_count(c->prepared); i++) {
        tx_output_info info = {sizeof info};
        if (tx_op_output(c->prepared, i, &info) != TX_OK) die("tx_op_output");
        c->prepared_out[i] = own(info.nbytes);
    }
}

/* Runs c once with no writer: its status and time; prepares it. */
static void run_clean(rcall *c) {
    op_outputs o;
    double t0 = now();
    c->clean_st = run_args(&c->args, &o);
    c->clean_s = now() - t0;
    op_outputs_clear(&o);
    prepare_call(c);
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
void make_calls(const op_def *d, uint64_t *rs) {
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
