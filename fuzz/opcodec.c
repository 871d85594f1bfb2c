/* SPDX-License-Identifier: Apache-2.0 */
/* opcodec.c -- decoding (for fuzz_ops.c) and encoding (for mkseed.c) of one op call; the layout
 * is described in opcodec.h.  Encoder and decoder sit side by side so that they stay inverse. */
#include "opcodec.h"

#include "../frontend/args.h"
#include "../frontend/values.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint16_t fz_op_hash(const char *name) {
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) h = (h ^ *p) * 16777619u;
    return (uint16_t)(h ^ (h >> 16));
}

size_t fz_op_count(void) {
    size_t n = 0;
    while (op_at(n)) n++;
    return n;
}

const op_def *fz_op_select(uint16_t selector) {
    size_t n = fz_op_count();
    for (size_t i = 0; i < n; i++)
        if (fz_op_hash(op_at(i)->name) == selector) return op_at(i);
    return n ? op_at(selector % n) : NULL;
}

/* Words the string attributes take, so the fuzzer reaches past their checks without guessing. */
static const char *const words[] = {
    "CONSTANT", "REFLECT", "SYMMETRIC", "constant", "reflect", "symmetric", "NHWC", "NCHW",
    "NCHW_VECT_C", "VALID", "SAME", "xy", "ij", "", "0", "1", "-1", "nan", "inf", "-inf", "1e+300",
    "true", "false", "a", "\xff\xfe", "65536", "-129", "3.5",
};
#define NWORDS (sizeof words / sizeof words[0])

/* ---- decoding ---- */
#define FILL_MAX 4096

/* Element i = v; with `quarters`, floating dtypes take v / 4 (halves and fractions, which
 * rounding and truncating kernels treat differently). */
static void set_number(tx_tensor *t, int64_t i, int64_t v, bool quarters) {
    unsigned char *d = tx_tensor_data(t);
    tx_dtype dt = tx_tensor_dtype(t);
    size_t es = tx_dtype_size(dt);
    unsigned char *e = d + (size_t)i * es;
    double x = quarters ? (double)v / 4 : (double)v;
    switch (dt) {
    case TX_FLOAT32: { float f = (float)x; memcpy(e, &f, 4); break; }
    case TX_FLOAT64: { memcpy(e, &x, 8); break; }
    case TX_COMPLEX64: { float f[2] = {(float)x, 0}; memcpy(e, f, 8); break; }
    case TX_COMPLEX128: { double f[2] = {x, 0}; memcpy(e, f, 16); break; }
    case TX_FLOAT16: { uint16_t h = tv_f64_to_f16(x); memcpy(e, &h, 2); break; }
    case TX_BFLOAT16: { uint16_t h = tv_f32_to_bf16((float)x); memcpy(e, &h, 2); break; }
    case TX_BOOL: *e = v != 0; break;
    default: {
        /* Integers (quantized included): the low bytes of the two's complement value. */
        uint64_t u = (uint64_t)v;
        for (size_t k = 0; k < es; k++) e[k] = (unsigned char)(u >> (8 * k));
    }
    }
}

static bool decode_strings(fz_in *in, size_t rank, const int64_t *dims, int64_t numel, int fill, tx_tensor **out) {
    size_t n = (size_t)numel;
    const char **ptrs = calloc(n + 1, sizeof *ptrs);
    size_t *lens = calloc(n + 1, sizeof *lens);
    char (*num)[24] = fill == 2 ? calloc(n + 1, sizeof *num) : NULL;
    static const char letters[] = "abcdefgh";
    bool ok = ptrs && lens && (fill != 2 || num);
    const uint8_t *cdata = NULL;
    size_t clen = 0;
    if (ok && fill == 3) {
        clen = fz_u8(in);
        clen = fz_bytes(in, clen, &cdata);
    }
    for (size_t i = 0; ok && i < n; i++) {
        if (fill != 0 && i >= FILL_MAX) {
            lens[i] = 0;
            ptrs[i] = "";
        } else if (fill == 0) {
            size_t len = fz_u8(in);
            if (len == 255) len = fz_u16(in);
            const uint8_t *b;
            lens[i] = fz_bytes(in, len, &b);
            ptrs[i] = (const char *)b;
        } else if (fill == 1) {
            lens[i] = fz_u8(in) & 7;
            ptrs[i] = letters;
        } else if (fill == 2) {
            lens[i] = (size_t)snprintf(num[i], sizeof num[i], "%zu", i);
            ptrs[i] = num[i];
        } else {
            lens[i] = clen;
            ptrs[i] = (const char *)cdata;
        }
    }
    tx_status st = ok ? tx_tensor_new_strings(rank, dims, ptrs, lens, out) : TX_RESOURCE_EXHAUSTED;
    free(ptrs);
    free(lens);
    free(num);
    if (st != TX_OK && ok) fz_check_failure(st, "tx_tensor_new_strings", tx_last_error());
    return st == TX_OK;
}

static bool decode_tensor(fz_in *in, tx_tensor **out) {
    *out = NULL;
    tx_dtype dt = fz_dtypes[fz_u8(in) % FZ_NDTYPES];
    uint8_t r = fz_u8(in);
    size_t rank = r < 0xF8 ? (size_t)(r & 7) : fz_u8(in);
    int64_t dims[256];
    bool bad = rank > TX_MAX_RANK, ovf = false, zero = false;
    int64_t numel = 1;
    for (size_t i = 0; i < rank; i++) {
        dims[i] = fz_dim(in);
        if (dims[i] < 0) bad = true;
        else if (dims[i] == 0) zero = true;
        else if (!ovf && __builtin_mul_overflow(numel, dims[i], &numel)) ovf = true;
    }
    if (zero) numel = 0;
    size_t es = tx_dtype_size(dt), nbytes = 0;
    bool huge = !zero && (ovf || (uint64_t)numel > SIZE_MAX / es || (size_t)numel * es > tx_max_tensor_bytes());
    if (!bad && !huge) nbytes = (size_t)numel * es;
    if (!bad && zero && ovf) {
        /* [2^62, 2^62, 0]: TF refuses the partial product; holding no element, it may also be
         * taken.  Either is fine. */
        tx_tensor *t = NULL;
        tx_status st = tx_tensor_new(dt, rank, dims, &t);
        if (st != TX_OK) {
            fz_check_failure(st, "tx_tensor_new", tx_last_error());
            return false;
        }
        tx_tensor_free(t);
    }
    if (bad || huge) {
        /* tensorx must refuse it, before allocating anything. */
        long before = fz_alloc_count();
        tx_tensor *t = NULL;
        tx_status st = tx_tensor_new(dt, rank, dims, &t);
        if (st == TX_OK) fz_die("tx_tensor_new accepted rank %zu with a negative or oversized shape", rank);
        if (t) fz_die("tx_tensor_new failed but set *out");
        fz_check_failure(st, "tx_tensor_new", tx_last_error());
        if (fz_alloc_count() != before) fz_die("tx_tensor_new allocated before refusing an impossible shape");
        /* With both faults either answer is right. */
        if (bad && !huge && st != TX_INVALID_ARGUMENT)
            fz_die("tx_tensor_new: %s for a negative dim or rank > 254", tx_status_name(st));
        if (!bad && st != TX_RESOURCE_EXHAUSTED) fz_die("tx_tensor_new: %s for an oversized tensor", tx_status_name(st));
        return false;
    }
    int fill = fz_u8(in) & 3;
    if (dt == TX_STRING) return decode_strings(in, rank, dims, numel, fill, out);
    tx_status st = tx_tensor_new(dt, rank, dims, out);
    if (st != TX_OK) {
        fz_check_failure(st, "tx_tensor_new", tx_last_error());
        return false;
    }
    unsigned char *d = tx_tensor_data(*out);
    if (fill == 0) {
        const uint8_t *b;
        size_t got = fz_bytes(in, nbytes, &b);
        if (got) memcpy(d, b, got);
    } else {
        /* Elements past the first FILL_MAX stay zero: big tensors are for size paths, and filling
         * them one by one would make every such run slow. */
        int64_t n = numel < FILL_MAX ? numel : FILL_MAX;
        int64_t v = fill == 3 ? (int8_t)fz_u8(in) : 0;
        for (int64_t i = 0; i < n; i++) set_number(*out, i, fill == 3 ? v : fill == 1 ? (int8_t)fz_u8(in) : i, fill == 1);
    }
    return true;
}

static bool decode_value(fz_in *in, const op_param *p, op_value *v) {
    switch (p->kind) {
    case P_TENSOR: return decode_tensor(in, &v->tensor);
    case P_TENSOR_LIST: {
        size_t n = fz_u8(in) % 16;
        v->list = calloc(n + 1, sizeof *v->list);
        if (!v->list) return false;
        for (size_t i = 0; i < n; i++) {
            if (!decode_tensor(in, &v->list[i])) return false;
            v->nlist++;
        }
        return true;
    }
    case P_INT: v->i = fz_int(in); return true;
    case P_BOOL: v->b = fz_u8(in) & 1; return true;
    case P_STRING: {
        uint8_t c = fz_u8(in);
        if (c >= 0x80) {
            v->s = strdup(words[(c - 0x80) % NWORDS]);
        } else {
            const uint8_t *b;
            size_t n = fz_bytes(in, c, &b);
            v->s = calloc(n + 1, 1);
            if (v->s) memcpy(v->s, b, n);
        }
        return v->s != NULL;
    }
    case P_DTYPE: v->dtype = fz_dtypes[fz_u8(in) % (FZ_NDTYPES + 2)]; return true;
    case P_INT_LIST: {
        size_t n = fz_u8(in) % 32;
        v->ints = calloc(n + 1, sizeof *v->ints);
        if (!v->ints) return false;
        for (size_t i = 0; i < n; i++) v->ints[v->nints++] = fz_int(in);
        return true;
    }
    }
    return false;
}

/* ---- scaling (fz_op_decode_scaled) ---- */
/* Byte sizes the scaled tensors reach: past the SIMD kernels' few dozen elements, past the thread
 * pool's 1 MiB, past the streaming stores' 8 MiB of output.  Class 0, what unscaled encodings
 * (the ops seeds) have, is 1 KiB: every call reaches the SIMD kernels at little cost. */
static const size_t scale_bytes[8] = {
    1024, 0, 96, (size_t)16 << 10, (size_t)300 << 10, ((size_t)1 << 20) + ((size_t)64 << 10),
    (size_t)5 << 19, (size_t)9 << 20,
};

/* Bytes a tensor stands for when sizing the scale: a string counts as its 16-byte handle. */
static size_t weight(const tx_tensor *t) {
    return tx_tensor_dtype(t) == TX_STRING ? (size_t)tx_tensor_numel(t) * 16 : tx_tensor_nbytes(t);
}

/* Element e of the tiled tensor comes from element src_index(e) of t: dim d repeats k times. */
static size_t src_index(size_t e, size_t outer_len, size_t k) {
    size_t o = e / (outer_len * k), r = e % (outer_len * k);
    return o * outer_len + r % outer_len;
}

/* Replaces *tp by t tiled k times along dim d (numpy.tile with reps k on axis d).  Keeps *tp when
 * the limit refuses the tiled tensor; false when an allocation fails. */
static bool tile_dim(tx_tensor **tp, size_t d, int64_t k) {
    const tx_tensor *t = *tp;
    size_t rank = tx_tensor_rank(t);
    int64_t dims[TX_MAX_RANK];
    memcpy(dims, tx_tensor_dims(t), rank * sizeof *dims);
    if (__builtin_mul_overflow(dims[d], k, &dims[d])) return true;
    size_t numel = (size_t)tx_tensor_numel(t), inner = 1;
    for (size_t i = d + 1; i < rank; i++) inner *= (size_t)tx_tensor_dims(t)[i];
    size_t run = (size_t)tx_tensor_dims(t)[d] * inner; /* elements of dims d.. */
    size_t total = numel * (size_t)k;
    tx_tensor *n = NULL;
    tx_status st;
    if (tx_tensor_dtype(t) == TX_STRING) {
        if ((uint64_t)total * 16 > tx_max_tensor_bytes()) return true;
        const char **ptrs = calloc(total, sizeof *ptrs);
        size_t *lens = calloc(total, sizeof *lens);
        if (!ptrs || !lens) {
            free(ptrs);
            free(lens);
            return false;
        }
        for (size_t e = 0; e < total; e++) {
            const tx_string *s = tx_tensor_string(t, (int64_t)src_index(e, run, (size_t)k));
            ptrs[e] = s->data;
            lens[e] = (size_t)s->size;
        }
        st = tx_tensor_new_strings(rank, dims, ptrs, lens, &n);
        free(ptrs);
        free(lens);
    } else {
        st = tx_tensor_new(tx_tensor_dtype(t), rank, dims, &n);
        if (st == TX_OK) {
            size_t bytes = run * tx_dtype_size(tx_tensor_dtype(t));
            const unsigned char *src = tx_tensor_data_const(t);
            unsigned char *dst = tx_tensor_data(n);
            for (size_t o = 0; o < numel / run; o++)
                for (int64_t r = 0; r < k; r++) memcpy(dst + (o * (size_t)k + (size_t)r) * bytes, src + o * bytes, bytes);
        }
    }
    if (st == TX_RESOURCE_EXHAUSTED && !fz_alloc_failed()) return true; /* over the limit */
    if (st != TX_OK) return false;
    tx_tensor_free(*tp);
    *tp = n;
    return true;
}

/* Whether f^r <= k (f >= 1). */
static bool pow_at_most(int64_t f, size_t r, int64_t k) {
    int64_t p = 1;
    for (size_t i = 0; i < r; i++)
        if (__builtin_mul_overflow(p, f, &p) || p > k) return false;
    return true;
}

/* Tiles *tp (rank >= 1) to k times its elements: along the dim flags bits 6-7 pick (1 last,
 * 2 first, 3 second), or for 0 over every dim (f each with f^rank <= k, the last dim taking the
 * rest), so that a matrix grows into a wide one rather than a tall one. */
static bool tile_by(tx_tensor **tp, uint8_t flags, int64_t k) {
    size_t r = tx_tensor_rank(*tp);
    switch (flags >> 6) {
    case 1: return tile_dim(tp, r - 1, k);
    case 2: return tile_dim(tp, 0, k);
    case 3: return tile_dim(tp, 1 % r, k);
    default: break;
    }
    int64_t f = 1, before = 1;
    while (pow_at_most(f + 1, r, k)) f++;
    for (size_t d = 0; d + 1 < r; d++) {
        before *= f;
        if (f > 1 && !tile_dim(tp, d, f)) return false;
    }
    int64_t rest = (k + before - 1) / before;
    return rest > 1 ? tile_dim(tp, r - 1, rest) : true;
}

/* Scales the tensors the flags pick (see opcodec.h): the same factor and dim choice for each, so
 * that tensors of one rank whose shapes must agree (concat's values) still agree. */
static bool scale_case(fz_op_case *c) {
    size_t target = scale_bytes[(c->flags >> 1) & 7];
    if (!target) return true;
    op_value *params[OP_MAX_PARAMS];
    size_t np = 0;
    for (size_t i = 0; i < OP_MAX_PARAMS && c->def->params[i].name; i++) {
        param_kind kind = c->def->params[i].kind;
        if (c->args.v[i].present && (kind == P_TENSOR || kind == P_TENSOR_LIST)) params[np++] = &c->args.v[i];
    }
    if (np == 0) return true;
    unsigned which = (c->flags >> 4) & 3; /* 0-2: that tensor parameter (mod their count), 3: all */
    size_t first = which == 3 ? 0 : which % np, last = which == 3 ? np : first + 1;
    tx_tensor **ts[OP_MAX_PARAMS * 16];
    size_t nt = 0;
    for (size_t i = first; i < last; i++) {
        if (params[i]->tensor) ts[nt++] = &params[i]->tensor;
        for (size_t k = 0; k < params[i]->nlist; k++) ts[nt++] = &params[i]->list[k];
    }
    size_t have = 0;
    for (size_t i = 0; i < nt; i++) have += weight(*ts[i]);
    if (have == 0 || have >= target) return true;
    int64_t k = (int64_t)((target + have - 1) / have);
    for (size_t i = 0; i < nt; i++) {
        if (tx_tensor_rank(*ts[i]) == 0 || tx_tensor_numel(*ts[i]) == 0) continue;
        if (!tile_by(ts[i], c->flags, k)) return false;
    }
    return true;
}

static bool decode(const uint8_t *data, size_t size, fz_op_case *c, bool scale);

bool fz_op_decode(const uint8_t *data, size_t size, fz_op_case *c) { return decode(data, size, c, false); }
bool fz_op_decode_scaled(const uint8_t *data, size_t size, fz_op_case *c) { return decode(data, size, c, true); }

static bool decode(const uint8_t *data, size_t size, fz_op_case *c, bool scale) {
    memset(c, 0, sizeof *c);
    fz_in in = {data, size};
    c->def = fz_op_select(fz_u16(&in));
    if (!c->def) return false;
    c->args.def = c->def;
    c->fail_k = fz_u8(&in);
    c->flags = fz_u8(&in);
    for (size_t i = 0; i < OP_MAX_PARAMS && c->def->params[i].name; i++) {
        /* Past the end of the input the rest take their defaults: a value grown wider by a
         * mutation (a dtype, a dim) does not turn the parameters after it into zeros. */
        if (in.n == 0 || (fz_u8(&in) & 0x80)) continue;
        if (!decode_value(&in, &c->def->params[i], &c->args.v[i])) {
            op_args_clear(&c->args);
            return false;
        }
        c->args.v[i].present = true;
    }
    /* Scaled before the defaults are filled in: only tensors the input gave grow. */
    if ((scale && !scale_case(c)) || op_args_finish(&c->args) != TX_OK) {
        op_args_clear(&c->args);
        return false;
    }
    return true;
}

/* ---- encoding ---- */
void fz_buf_put(fz_buf *b, const void *data, size_t n) {
    if (b->n + n > b->cap) {
        size_t nc = b->cap ? b->cap : 256;
        while (nc < b->n + n) nc *= 2;
        uint8_t *np = realloc(b->p, nc);
        if (!np) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        b->p = np;
        b->cap = nc;
    }
    if (n) memcpy(b->p + b->n, data, n);
    b->n += n;
}

void fz_buf_u8(fz_buf *b, uint8_t v) { fz_buf_put(b, &v, 1); }

static void put_u16(fz_buf *b, uint16_t v) {
    fz_buf_u8(b, (uint8_t)v);
    fz_buf_u8(b, (uint8_t)(v >> 8));
}

static void put_raw_i64(fz_buf *b, int64_t v) {
    uint64_t u = (uint64_t)v;
    fz_buf_u8(b, 0xFF);
    for (int i = 0; i < 8; i++) fz_buf_u8(b, (uint8_t)(u >> (8 * i)));
}

static void put_int(fz_buf *b, int64_t v) {
    if (v >= -0x70 && v < 0xE0 - 0x70) fz_buf_u8(b, (uint8_t)(v + 0x70));
    else put_raw_i64(b, v);
}

static void put_dim(fz_buf *b, int64_t v) {
    if (v >= 0 && v < 0xE0) fz_buf_u8(b, (uint8_t)v);
    else put_raw_i64(b, v);
}

static uint8_t dtype_index(tx_dtype dt) {
    for (size_t i = 0; i < FZ_NDTYPES + 2; i++)
        if (fz_dtypes[i] == dt) return (uint8_t)i;
    return 0;
}

static void put_tensor(fz_buf *b, const tx_tensor *t) {
    fz_buf_u8(b, dtype_index(tx_tensor_dtype(t)));
    size_t rank = tx_tensor_rank(t);
    if (rank < 8) fz_buf_u8(b, (uint8_t)rank);
    else {
        fz_buf_u8(b, 0xF8);
        fz_buf_u8(b, (uint8_t)rank);
    }
    for (size_t i = 0; i < rank; i++) put_dim(b, tx_tensor_dims(t)[i]);
    fz_buf_u8(b, 0); /* raw fill */
    if (tx_tensor_dtype(t) != TX_STRING) {
        fz_buf_put(b, tx_tensor_data_const(t), tx_tensor_nbytes(t));
        return;
    }
    for (int64_t i = 0; i < tx_tensor_numel(t); i++) {
        const tx_string *s = tx_tensor_string(t, i);
        size_t len = s->size > 65535 ? 65535 : (size_t)s->size;
        if (len < 255) fz_buf_u8(b, (uint8_t)len);
        else {
            fz_buf_u8(b, 255);
            put_u16(b, (uint16_t)len);
        }
        fz_buf_put(b, s->data, len);
    }
}

void fz_op_encode(const op_args *a, long fail_k, uint8_t flags, fz_buf *b) {
    put_u16(b, fz_op_hash(a->def->name));
    fz_buf_u8(b, (uint8_t)fail_k);
    fz_buf_u8(b, flags);
    for (size_t i = 0; i < OP_MAX_PARAMS && a->def->params[i].name; i++) {
        const op_param *p = &a->def->params[i];
        const op_value *v = &a->v[i];
        if (!v->present) {
            fz_buf_u8(b, 0x80);
            continue;
        }
        fz_buf_u8(b, 0);
        switch (p->kind) {
        case P_TENSOR: put_tensor(b, v->tensor); break;
        case P_TENSOR_LIST: {
            size_t n = v->nlist < 16 ? v->nlist : 15;
            fz_buf_u8(b, (uint8_t)n);
            for (size_t k = 0; k < n; k++) put_tensor(b, v->list[k]);
            break;
        }
        case P_INT: put_int(b, v->i); break;
        case P_BOOL: fz_buf_u8(b, v->b ? 1 : 0); break;
        case P_STRING: {
            size_t n = strlen(v->s);
            if (n > 127) n = 127;
            fz_buf_u8(b, (uint8_t)n);
            fz_buf_put(b, v->s, n);
            break;
        }
        case P_DTYPE: fz_buf_u8(b, dtype_index(v->dtype)); break;
        case P_INT_LIST: {
            size_t n = v->nints < 32 ? v->nints : 31;
            fz_buf_u8(b, (uint8_t)n);
            for (size_t k = 0; k < n; k++) put_int(b, v->ints[k]);
            break;
        }
        }
    }
}
