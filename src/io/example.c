/* SPDX-License-Identifier: Apache-2.0 */
/* example.c -- TF's tf.io.parse_example and tf.io.parse_single_example (the raw ops
 * ParseExampleV2 and ParseSingleExample): serialized tf.train.Example protos into the values of
 * FixedLenFeature (dense) and VarLenFeature (sparse) features.  The rules are those of TF 2.21's
 * fast parser (example_proto_fast_parsing.cc), which differ from protobuf's in places: a Feature's
 * kind is its first byte; only the first list of a Feature is read; a packed float list holds
 * length / 4 values; map entries are read from the last to the first, so that the last entry of a
 * key wins; a batch (a vector of records) and one record (a scalar) word their errors
 * differently.  The wire format is read by src/io/proto_wire.c.
 * The op checks every record first (the first failing record, and in it the error TF meets first,
 * decide the error), sizes the outputs, then fills them: the strings it returns point into the
 * records (and the defaults), which the outputs keep alive; nothing is copied or allocated besides
 * the outputs. */
#include "core/internal.h"
#include "io/proto_wire.h"

#include <inttypes.h>
#include <stdio.h>

static const char *const OP_BATCH = "parse_example";
static const char *const OP_SINGLE = "parse_single_example";

/* The kinds of a Feature (its oneof), by the tag byte that starts it. */
enum kind { K_NONE = -1, K_BYTES = 0, K_FLOAT = 1, K_INT64 = 2, K_BAD = 3 };

static const char *kind_dtype_name(int k) {
    return k == K_BYTES ? "string" : k == K_FLOAT ? "float" : "int64";
}
static int dtype_kind(tx_dtype t) {
    return t == TX_STRING ? K_BYTES : t == TX_FLOAT32 ? K_FLOAT : t == TX_INT64 ? K_INT64 : K_BAD;
}

/* ---- the call ---------------------------------------------------------------------------- */

typedef struct spec {
    const char *op;
    bool single;               /* a scalar record: ParseSingleExample's rules and messages */
    int64_t batch;             /* records */
    const tx_string *records;
    const tx_string *names;    /* NULL: "<unknown>" */
    size_t ns, nd;
    const tx_string *skeys, *dkeys;
    const tx_dtype *stypes;
    const tx_tensor *const *defaults;
    const size_t *ranks;
    const int64_t *const *shapes;
} spec;

static int64_t dense_numel(const spec *s, size_t d) {
    int64_t n = 1;
    for (size_t i = 0; i < s->ranks[d]; i++) n *= s->shapes[d][i]; /* checked in check_call */
    return n;
}

static bool same_key(tx_string a, const uint8_t *k, uint64_t n) {
    return a.size == n && (n == 0 || memcmp(a.data, k, n) == 0);
}

/* Whether key (n bytes) is one of the call's features. */
static bool config_key(const spec *s, const uint8_t *k, uint64_t n) {
    for (size_t i = 0; i < s->ns; i++)
        if (same_key(s->skeys[i], k, n)) return true;
    for (size_t i = 0; i < s->nd; i++)
        if (same_key(s->dkeys[i], k, n)) return true;
    return false;
}

/* ---- walking an Example: its feature map's entries, in order ------------------------------- */

typedef struct entry {
    const uint8_t *key, *value;
    uint64_t key_size, value_size;
} entry;

typedef struct walk {
    tx__pw r;
    const uint8_t *end;      /* the record's end */
    const uint8_t *outer;    /* the limit to restore after a Features message */
    bool in_features;
} walk;

static walk walk_start(tx_string rec) {
    walk w = {tx__pw_reader(rec.data, (size_t)rec.size), NULL, NULL, false};
    w.end = w.r.limit;
    return w;
}

/* A string field's bytes (ParseString): a length, then that many bytes before the limit. */
static bool read_string(tx__pw *r, const uint8_t **b, uint64_t *n) {
    uint32_t len;
    if (!tx__pw_varint32(r, &len)) return false;
    *n = len;
    *b = r->p;
    return tx__pw_bytes(r, len, b);
}

/* One map entry: a length, then exactly two fields, each the key (1) or the value (2), in any
 * order; a field given twice leaves the other empty, as TF's parser does. */
static bool read_entry(tx__pw *r, entry *e) {
    uint32_t len, tag;
    e->key = e->value = NULL;
    e->key_size = e->value_size = 0;
    if (!tx__pw_varint32(r, &len)) return false;
    const uint8_t *old = tx__pw_push(r, len);
    for (int i = 0; i < 2; i++) {
        if (tx__pw_at_end(r) || !tx__pw_varint32(r, &tag)) return false;
        if (tag == TX__PW_TAG(1, TX__PW_LEN)) {
            if (!read_string(r, &e->key, &e->key_size)) return false;
        } else if (tag == TX__PW_TAG(2, TX__PW_LEN)) {
            if (!read_string(r, &e->value, &e->value_size)) return false;
        } else {
            return false;
        }
    }
    if (!tx__pw_at_end(r)) return false;
    tx__pw_pop(r, old);
    return true;
}

/* A field of the Example other than its features (field 1), skipped as TF skips it: a length
 * of 2^31 or more skips nothing (protobuf's Skip refuses a negative int), one past the end
 * skips to the end. */
static bool skip_extraneous(tx__pw *r) {
    uint32_t tag, len;
    if (!tx__pw_varint32(r, &tag)) return false;
    switch (tag & 7) {
    case TX__PW_LEN:
        if (!tx__pw_varint32(r, &len)) return false;
        if (len <= INT32_MAX) r->p += len < tx__pw_left(r) ? len : tx__pw_left(r);
        return true;
    case TX__PW_VARINT: case TX__PW_FIXED64: case TX__PW_FIXED32:
        return tx__pw_skip(r, tag & 7);
    default:
        return false; /* groups and wire types 6 and 7 */
    }
}

/* The next entry: 1, 0 at the record's end, -1 when the record is not an Example as TF reads
 * it.  Several Features messages (concatenated Examples) are read as one. */
static int walk_next(walk *w, entry *e) {
    tx__pw *r = &w->r;
    for (;;) {
        if (w->in_features) {
            if (tx__pw_at_end(r)) {
                tx__pw_pop(r, w->outer);
                w->in_features = false;
                continue;
            }
            if (!tx__pw_expect(r, TX__PW_TAG(1, TX__PW_LEN))) return -1;
            return read_entry(r, e) ? 1 : -1;
        }
        if (tx__pw_at_end(r)) return 0;
        if (tx__pw_expect(r, TX__PW_TAG(1, TX__PW_LEN))) {
            uint32_t len;
            if (!tx__pw_varint32(r, &len)) return -1;
            w->outer = tx__pw_push(r, len);
            w->in_features = true;
        } else if (!skip_extraneous(r)) {
            return -1;
        }
    }
}

/* ---- a Feature's list of values -------------------------------------------------------------- */

static int value_kind(const entry *e) {
    if (e->value_size == 0) return K_NONE;
    switch (e->value[0]) {
    case TX__PW_TAG(1, TX__PW_LEN): return K_BYTES;
    case TX__PW_TAG(2, TX__PW_LEN): return K_FLOAT;
    case TX__PW_TAG(3, TX__PW_LEN): return K_INT64;
    default: return K_BAD;
    }
}

/* The values of a Feature of kind k (its bytes after the kind's tag), as TF's fast parser reads
 * them.  cap >= 0: a FixedLenFeature of cap values, which TF parses into a slice of cap (a bytes
 * list longer than cap fails; float and int64 lists are counted whole).  cap < 0: every value.
 * out (NULL: count only) receives at most cap values (all when cap < 0): tx_string records
 * pointing into the bytes, floats or int64s.  *count receives the count TF reports.  Returns
 * false where TF's parser fails. */
static bool read_list(const entry *e, int k, int64_t cap, void *out, int64_t *count) {
    tx__pw r = tx__pw_reader(e->value + 1, (size_t)e->value_size - 1);
    uint32_t len, plen, u32;
    uint64_t u64;
    int64_t n = 0;
    *count = 0;
    if (!tx__pw_varint32(&r, &len)) return false;
    tx__pw_push(&r, len); /* what follows the list is ignored */
    const bool room_all = cap < 0;
    if (k == K_BYTES) {
        while (!tx__pw_at_end(&r)) {
            const uint8_t *b;
            uint64_t bn;
            if (!tx__pw_expect(&r, TX__PW_TAG(1, TX__PW_LEN))) return false;
            if (!room_all && n == cap) return false;
            if (!read_string(&r, &b, &bn)) return false;
            if (out) ((tx_string *)out)[n] = (tx_string){bn, (const char *)b};
            n++;
        }
    } else if (tx__pw_at_end(&r)) {
        /* an empty list */
    } else if (tx__pw_peek(&r) == TX__PW_TAG(1, TX__PW_LEN)) { /* packed */
        r.p++;
        if (!tx__pw_varint32(&r, &plen)) return false;
        tx__pw_push(&r, plen);
        if (k == K_FLOAT) {
            /* TF sizes the list as plen / 4 values and reads the bytes of those it has room
             * for in one go: trailing bytes are ignored, missing ones fail. */
            n = plen / 4;
            int64_t take = room_all || n < cap ? n : cap;
            if ((uint64_t)take * 4 > tx__pw_left(&r)) return false;
            for (int64_t i = 0; i < take; i++) {
                tx__pw_fixed32(&r, &u32);
                if (out) memcpy((float *)out + i, &u32, 4);
            }
        } else {
            while (!tx__pw_at_end(&r)) {
                if (!tx__pw_varint64(&r, &u64)) return false;
                if (out && (room_all || n < cap)) ((int64_t *)out)[n] = (int64_t)u64;
                n++;
            }
        }
    } else if (k == K_FLOAT && tx__pw_peek(&r) == TX__PW_TAG(1, TX__PW_FIXED32)) {
        while (!tx__pw_at_end(&r)) {
            if (!tx__pw_expect(&r, TX__PW_TAG(1, TX__PW_FIXED32)) || !tx__pw_fixed32(&r, &u32))
                return false;
            if (out && (room_all || n < cap)) memcpy((float *)out + n, &u32, 4);
            n++;
        }
    } else if (k == K_INT64 && tx__pw_peek(&r) == TX__PW_TAG(1, TX__PW_VARINT)) {
        while (!tx__pw_at_end(&r)) {
            if (!tx__pw_expect(&r, TX__PW_TAG(1, TX__PW_VARINT)) || !tx__pw_varint64(&r, &u64))
                return false;
            if (out && (room_all || n < cap)) ((int64_t *)out)[n] = (int64_t)u64;
            n++;
        }
    } else {
        return false;
    }
    *count = n;
    return true;
}

/* ---- one record: which entry each feature takes, and the first error --------------------------- */

/* The entry feature `key` takes from a record, as TF's reverse walk picks it: the last entry of
 * the key whose kind is known, or, for a batch's sparse feature, also the last empty one (TF marks
 * the feature seen then, with no values).  Returns its position, or -1. */
static int64_t winner(const spec *s, tx_string rec, tx_string key, bool sparse, entry *out) {
    walk w = walk_start(rec);
    entry e = {0};
    int64_t pos = -1;
    for (int64_t i = 0; walk_next(&w, &e) == 1; i++) {
        if (!same_key(key, e.key, e.key_size)) continue;
        int k = value_kind(&e);
        if (k == K_BAD || (k == K_NONE && !(sparse && !s->single))) continue;
        pos = i;
        *out = e;
    }
    return pos;
}

enum fault { F_NONE, F_KIND, F_PARSE, F_COUNT, F_BYTES_COUNT };

typedef struct verdict {
    enum fault fault;
    int kind;      /* the entry's kind (F_KIND) */
    int64_t count; /* values found (F_COUNT) */
} verdict;

/* What TF makes of the entry a feature takes.  dense: index d of the dense features, else of
 * the sparse ones. */
static verdict judge(const spec *s, bool dense, size_t d, const entry *e) {
    verdict v = {F_NONE, value_kind(e), 0};
    int want = dense ? dtype_kind(s->defaults[d]->dtype) : dtype_kind(s->stypes[d]);
    if (v.kind == K_NONE) return v; /* a batch's empty sparse entry: no values */
    if (v.kind != want) {
        v.fault = F_KIND;
        return v;
    }
    int64_t cap = dense ? dense_numel(s, d) : -1;
    if (!read_list(e, v.kind, cap, NULL, &v.count))
        v.fault = s->single && !dense && v.kind == K_BYTES ? F_BYTES_COUNT : F_PARSE;
    else if (dense && v.count != cap)
        v.fault = F_COUNT;
    return v;
}

static const char *list_name(int k) {
    return k == K_BYTES ? "bytes_list" : k == K_FLOAT ? "float_list" : "int64_list";
}

/* TensorShape::DebugString: "[2,3]", "[]" (cut to cap bytes). */
static void dims_text(size_t rank, const int64_t *dims, char *buf, size_t cap) {
    size_t at = (size_t)snprintf(buf, cap, "[");
    for (size_t i = 0; i < rank && at < cap; i++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%" PRId64, i ? "," : "", dims[i]);
    if (at < cap) snprintf(buf + at, cap - at, "]");
}

static void shape_text(const spec *s, size_t d, char *buf, size_t cap) {
    dims_text(s->ranks[d], s->shapes[d], buf, cap);
}

static tx_status fail_entry(const spec *s, int64_t ex, bool dense, size_t d, verdict v) {
    tx_string key = dense ? s->dkeys[d] : s->skeys[d];
    int want = dense ? dtype_kind(s->defaults[d]->dtype) : dtype_kind(s->stypes[d]);
    const int kl = (int)key.size;
    if (s->single) {
        switch (v.fault) {
        case F_KIND:
            if (dense)
                return tx__fail(TX_INVALID_ARGUMENT, "%s: Key: %.*s.  Data types don't match. Data "
                                "type: %s but expected type: %s", s->op, kl, key.data,
                                kind_dtype_name(v.kind), kind_dtype_name(want));
            return tx__fail(TX_INVALID_ARGUMENT, "%s: Key: %.*s.  Data types don't match. Expected "
                            "type: %s, Actual type: %s", s->op, kl, key.data,
                            kind_dtype_name(want), kind_dtype_name(v.kind));
        case F_BYTES_COUNT:
            return tx__fail(TX_INVALID_ARGUMENT, "%s: Key: %.*s.  Can't parse serialized Example: "
                            "Could not get num elements in bytes_list.", s->op, kl, key.data);
        case F_PARSE:
            return tx__fail(TX_INVALID_ARGUMENT, "%s: Key: %.*s.  Can't parse serialized Example: "
                            "Parsing %s failed.", s->op, kl, key.data, list_name(want));
        default:
            return tx__fail(TX_INVALID_ARGUMENT, "%s: Key: %.*s.  Can't parse serialized Example: "
                            "Some %s slice was not parsed.", s->op, kl, key.data, list_name(want));
        }
    }
    const tx_string name = s->names ? s->names[ex] : (tx_string){9, "<unknown>"};
    const int nl = (int)name.size;
    char shape[256];
    switch (v.fault) {
    case F_KIND:
        if (dense)
            return tx__fail(TX_INVALID_ARGUMENT, "%s: Name: %.*s, Key: %.*s, Index: %" PRId64 ".  "
                            "Data types don't match. Data type: %s but expected type: %s", s->op,
                            nl, name.data, kl, key.data, ex, kind_dtype_name(v.kind),
                            kind_dtype_name(want));
        return tx__fail(TX_INVALID_ARGUMENT, "%s: Name: %.*s, Key: %.*s, Index: %" PRId64 ".  "
                        "Data types don't match. Expected type: %s, Actual type: %s", s->op, nl,
                        name.data, kl, key.data, ex, kind_dtype_name(want), kind_dtype_name(v.kind));
    case F_COUNT:
        shape_text(s, d, shape, sizeof shape);
        return tx__fail(TX_INVALID_ARGUMENT, "%s: Name: %.*s, Key: %.*s, Index: %" PRId64 ".  "
                        "Number of %s values != expected.  Values size: %" PRId64 " but output "
                        "shape: %s", s->op, nl, name.data, kl, key.data, ex,
                        want == K_BYTES ? "bytes" : kind_dtype_name(want), v.count, shape);
    default:
        return tx__fail(TX_INVALID_ARGUMENT, "%s: Name: %.*s, Key: %.*s, Index: %" PRId64 ".  "
                        "Can't parse serialized Example.", s->op, nl, name.data, kl, key.data, ex);
    }
}

/* "Could not parse example input, value: '...'": the record's first bytes, escaped as absl's
 * CEscape does (\n \r \t \" \' \\ and \ooo for the other bytes outside ' '..'~'). */
static tx_status fail_unparseable(const spec *s, tx_string rec) {
    char buf[1100];
    size_t at = 0;
    const size_t shown = rec.size < 256 ? (size_t)rec.size : 256;
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)rec.data[i];
        const char *esc = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == '"' ? "\\\""
                        : c == '\'' ? "\\'" : c == '\\' ? "\\\\" : NULL;
        if (esc) at += (size_t)snprintf(buf + at, sizeof buf - at, "%s", esc);
        else if (c < 0x20 || c > 0x7e) at += (size_t)snprintf(buf + at, sizeof buf - at, "\\%03o", c);
        else buf[at++] = (char)c;
    }
    buf[at] = '\0';
    return tx__fail(TX_INVALID_ARGUMENT, "%s: Could not parse example input, value: '%s%s'", s->op,
                    buf, rec.size > shown ? "..." : "");
}

/* Checks record ex as TF does: the record must parse; then the entries are met from the last,
 * each of a feature's key checked (its kind byte) and the one a feature takes judged, so the
 * error TF reports is the one of the highest position; then a missing dense feature without a
 * default. */
static tx_status check_record(const spec *s, int64_t ex) {
    const tx_string rec = s->records[ex];
    walk w = walk_start(rec);
    entry e = {0};
    int st;
    int64_t bad = -1, n = 0;
    while ((st = walk_next(&w, &e)) == 1) {
        if (value_kind(&e) == K_BAD && config_key(s, e.key, e.key_size)) bad = n;
        n++;
    }
    if (st < 0) return fail_unparseable(s, rec);
    int64_t err_pos = bad;
    bool err_dense = false;
    size_t err_d = 0;
    verdict err_v = {F_NONE, K_NONE, 0};
    for (size_t i = 0; i < s->ns + s->nd; i++) {
        const bool dense = i >= s->ns;
        const size_t d = dense ? i - s->ns : i;
        int64_t pos = winner(s, rec, dense ? s->dkeys[d] : s->skeys[d], !dense, &e);
        if (pos <= err_pos) continue;
        verdict v = judge(s, dense, d, &e);
        if (v.fault == F_NONE) continue;
        err_pos = pos;
        err_dense = dense;
        err_d = d;
        err_v = v;
    }
    if (err_v.fault != F_NONE) return fail_entry(s, ex, err_dense, err_d, err_v);
    if (err_pos >= 0) return tx__fail(TX_INVALID_ARGUMENT, "%s: Unsupported datatype.", s->op);
    for (size_t d = 0; d < s->nd; d++) {
        if (s->defaults[d]->numel > 0 || winner(s, rec, s->dkeys[d], false, &e) >= 0) continue;
        const tx_string key = s->dkeys[d];
        const char *type = kind_dtype_name(dtype_kind(s->defaults[d]->dtype));
        if (s->single)
            return tx__fail(TX_INVALID_ARGUMENT, "%s: Feature: %.*s (data type: %s) is required but "
                            "could not be found.", s->op, (int)key.size, key.data, type);
        const tx_string name = s->names ? s->names[ex] : (tx_string){9, "<unknown>"};
        return tx__fail(TX_INVALID_ARGUMENT, "%s: Name: %.*s, Feature: %.*s (data type: %s) is "
                        "required but could not be found.", s->op, (int)name.size, name.data,
                        (int)key.size, key.data, type);
    }
    return TX_OK;
}

/* ---- outputs ------------------------------------------------------------------------------------ */

/* The values of sparse feature d in record ex (0 when it takes no entry or an empty one). */
static int64_t sparse_count(const spec *s, size_t d, int64_t ex, entry *e) {
    int64_t n = 0;
    if (winner(s, s->records[ex], s->skeys[d], true, e) >= 0 && value_kind(e) != K_NONE)
        read_list(e, value_kind(e), -1, NULL, &n);
    return n;
}

typedef struct out_ctx {
    const spec *s;
    const int64_t *total; /* values per sparse feature */
} out_ctx;

static void out_spec(void *ctx, size_t i, tx__out_spec *o) {
    const out_ctx *c = ctx;
    const spec *s = c->s;
    const size_t ns = s->ns;
    if (i < 3 * ns) {
        const size_t d = i % ns;
        const int64_t total = c->total[d];
        if (i < ns) { /* indices */
            o->dtype = TX_INT64;
            o->rank = 2;
            o->dims[0] = total;
            o->dims[1] = s->single ? 1 : 2;
        } else if (i < 2 * ns) { /* values */
            o->dtype = s->stypes[d];
            o->rank = 1;
            o->dims[0] = total;
        } else { /* dense_shape */
            o->dtype = TX_INT64;
            o->rank = 1;
            o->dims[0] = s->single ? 1 : 2;
        }
        return;
    }
    const size_t d = i - 3 * ns;
    o->dtype = s->defaults[d]->dtype;
    o->rank = 0;
    if (!s->single) o->dims[o->rank++] = s->batch;
    for (size_t k = 0; k < s->ranks[d]; k++) o->dims[o->rank++] = s->shapes[d][k];
}

/* The fills below write only what the outputs hold: the records were checked by the first pass,
 * but another thread may have changed them since (tests/race), and then a feature may have another
 * kind, another count or no entry.  Such a value is left out (sparse) or its row is zeros (dense):
 * defined bytes, never a write past an output or a read past a default. */

/* n elements of dtype t at dst: zeros (empty strings). */
static void zero_values(char *dst, int64_t n, tx_dtype t) {
    if (t == TX_STRING)
        for (int64_t i = 0; i < n; i++) ((tx_string *)dst)[i] = (tx_string){0, ""};
    else
        memset(dst, 0, (size_t)n * tx_dtype_size(t));
}

static void fill_sparse(const spec *s, size_t d, int64_t total, int64_t max, tx_tensor *ind,
                        tx_tensor *val, tx_tensor *shp) {
    int64_t *ix = (int64_t *)ind->data, at = 0;
    const size_t width = tx_dtype_size(s->stypes[d]);
    const int want = dtype_kind(s->stypes[d]);
    entry e = {0};
    for (int64_t ex = 0; ex < s->batch; ex++) {
        int64_t n = 0;
        if (winner(s, s->records[ex], s->skeys[d], true, &e) >= 0 && value_kind(&e) == want &&
            (!read_list(&e, want, total - at, val->data + (size_t)at * width, &n) ||
             n > total - at))
            n = 0; /* changed since it was counted: left out */
        for (int64_t j = 0; j < n; j++, at++) {
            if (s->single) {
                ix[at] = j;
            } else {
                ix[2 * at] = ex;
                ix[2 * at + 1] = j;
            }
        }
    }
    if (at < total) { /* fewer values than counted (records changed): zeros */
        zero_values(val->data + (size_t)at * width, total - at, s->stypes[d]);
        memset(ix + (s->single ? at : 2 * at), 0,
               (size_t)(total - at) * (s->single ? 1 : 2) * sizeof *ix);
    }
    int64_t *sh = (int64_t *)shp->data;
    if (s->single) {
        sh[0] = at;
    } else {
        sh[0] = s->batch;
        sh[1] = max;
    }
}

static void fill_dense(const spec *s, size_t d, tx_tensor *out) {
    const int64_t per = dense_numel(s, d);
    const size_t width = tx_dtype_size(out->dtype), row = (size_t)per * width;
    const int want = dtype_kind(out->dtype);
    const bool has_default = s->defaults[d]->numel == per;
    entry e = {0};
    int64_t n;
    for (int64_t ex = 0; ex < s->batch; ex++) {
        char *dst = out->data + (size_t)ex * row;
        if (winner(s, s->records[ex], s->dkeys[d], false, &e) >= 0) {
            if (value_kind(&e) != want || !read_list(&e, want, per, dst, &n) || n != per)
                zero_values(dst, per, out->dtype); /* changed since it was checked */
        } else if (has_default) {
            if (row) memcpy(dst, s->defaults[d]->data, row); /* strings point into its storage */
        } else {
            zero_values(dst, per, out->dtype); /* required, and gone since it was checked */
        }
    }
}

/* ---- argument checks ---------------------------------------------------------------------------- */

static tx_status check_keys(const char *op, const tx_tensor *keys, const char *what, size_t *n) {
    *n = 0;
    if (keys == NULL) return TX_OK;
    TX_REQUIRE(keys->dtype == TX_STRING && keys->rank == 1, TX_INVALID_ARGUMENT,
               "%s: %s must be a 1-D string tensor, got %s of rank %zu", op, what,
               tx_dtype_name(keys->dtype), keys->rank);
    *n = (size_t)keys->numel;
    return TX_OK;
}

static tx_status check_dense(const char *op, const spec *s, const size_t *ranks,
                             const int64_t *const *shapes) {
    if (s->nd == 0) return TX_OK;
    TX_REQUIRE(s->defaults && ranks && shapes, TX_INVALID_ARGUMENT,
               "%s: dense_defaults, dense_ranks and dense_shapes must be given with dense_keys", op);
    for (size_t d = 0; d < s->nd; d++) {
        const tx_tensor *def = s->defaults[d];
        TX_REQUIRE(def != NULL, TX_INVALID_ARGUMENT, "%s: dense_defaults[%zu] is NULL (an empty "
                   "tensor of the feature's dtype makes it required)", op, d);
        TX_REQUIRE(dtype_kind(def->dtype) != K_BAD, TX_UNIMPLEMENTED, "%s: dense_defaults[%zu] is "
                   "%s; a feature's dtype is float32, int64 or string", op, d,
                   tx_dtype_name(def->dtype));
        TX_REQUIRE(ranks[d] < TX_MAX_RANK && (ranks[d] == 0 || shapes[d]), TX_INVALID_ARGUMENT,
                   "%s: dense_shapes[%zu] has rank %zu: at most %d, with dims", op, d, ranks[d],
                   TX_MAX_RANK - 1);
        int64_t numel;
        int64_t dims[TX_MAX_RANK];
        dims[0] = 1;
        for (size_t k = 0; k < ranks[d]; k++) {
            TX_REQUIRE(shapes[d][k] >= 0, TX_INVALID_ARGUMENT, "%s: dense_shapes[%zu][%zu] is "
                       "%" PRId64 ": a FixedLenFeature's dims are >= 0", op, d, k, shapes[d][k]);
            dims[k + 1] = shapes[d][k];
        }
        /* the batch of outputs must be possible at all: checks the product too */
        TX_TRY(tx__check_output(op, def->dtype, ranks[d] + 1, dims, &numel));
        (void)numel;
        bool same = def->rank == ranks[d];
        for (size_t k = 0; same && k < ranks[d]; k++) same = def->dims[k] == shapes[d][k];
        if (def->numel > 0 && !same) { /* an empty default: a required feature, any shape */
            char a[128], b[128];
            dims_text(def->rank, def->dims, a, sizeof a);
            dims_text(ranks[d], shapes[d], b, sizeof b);
            return tx__fail(TX_INVALID_ARGUMENT, "%s: def_value[%zu].shape() == %s is not "
                            "compatible with dense_shapes_[%zu] == %s", op, d, a, d, b);
        }
    }
    return TX_OK;
}

static tx_status check_unique_keys(const char *op, const spec *s) {
    for (size_t i = 0; i < s->ns + s->nd; i++) {
        tx_string a = i < s->ns ? s->skeys[i] : s->dkeys[i - s->ns];
        for (size_t j = 0; j < i; j++) {
            tx_string b = j < s->ns ? s->skeys[j] : s->dkeys[j - s->ns];
            TX_REQUIRE(!same_key(a, (const uint8_t *)b.data, b.size), TX_INVALID_ARGUMENT,
                       "%s: the feature key '%.*s' is given twice", op, (int)a.size, a.data);
        }
    }
    return TX_OK;
}

/* The sparse features' counts live on the stack, so a call has at most this many of them. */
#define MAX_SPARSE 1024

static tx_status parse(const char *op, bool single_op, const tx_tensor *serialized,
                       const tx_tensor *names, const tx_tensor *sparse_keys,
                       const tx_dtype *sparse_types, const tx_tensor *dense_keys,
                       const tx_tensor *const *dense_defaults, const size_t *dense_ranks,
                       const int64_t *const *dense_shapes, tx_tensor **outs) {
    TX_REQUIRE(outs != NULL, TX_INVALID_ARGUMENT, "%s: outs is NULL", op);
    TX_REQUIRE_TENSOR(op, serialized, "serialized");
    TX_REQUIRE(serialized->dtype == TX_STRING, TX_INVALID_ARGUMENT,
               "%s: serialized must be a string tensor, got %s", op,
               tx_dtype_name(serialized->dtype));
    if (single_op)
        TX_REQUIRE(serialized->rank == 0, TX_INVALID_ARGUMENT, "%s: serialized must be a scalar, "
                   "got rank %zu", op, serialized->rank);
    TX_REQUIRE(serialized->rank <= 1, TX_INVALID_ARGUMENT, "%s: Expected serialized to be a scalar "
               "or vector, got rank %zu", op, serialized->rank);
    spec s = {op, serialized->rank == 0, serialized->numel, (const tx_string *)serialized->data,
              NULL, 0, 0, NULL, NULL, sparse_types, dense_defaults, dense_ranks, dense_shapes};
    if (names && names->numel > 0) {
        TX_REQUIRE(names->dtype == TX_STRING && names->numel == serialized->numel,
                   TX_INVALID_ARGUMENT, "%s: names must be a string tensor with one name per "
                   "record (%" PRId64 "), or empty", op, serialized->numel);
        s.names = (const tx_string *)names->data;
    }
    TX_TRY(check_keys(op, sparse_keys, "sparse_keys", &s.ns));
    TX_TRY(check_keys(op, dense_keys, "dense_keys", &s.nd));
    TX_REQUIRE(s.ns <= MAX_SPARSE, TX_INVALID_ARGUMENT, "%s: %zu sparse features; at most %d",
               op, s.ns, MAX_SPARSE);
    for (size_t i = 0; i < 3 * s.ns + s.nd; i++) outs[i] = NULL;
    if (s.ns) s.skeys = (const tx_string *)sparse_keys->data;
    if (s.nd) s.dkeys = (const tx_string *)dense_keys->data;
    TX_REQUIRE(s.ns == 0 || sparse_types, TX_INVALID_ARGUMENT,
               "%s: sparse_types must be given with sparse_keys", op);
    for (size_t d = 0; d < s.ns; d++)
        TX_REQUIRE(dtype_kind(sparse_types[d]) != K_BAD, TX_UNIMPLEMENTED, "%s: sparse_types[%zu] "
                   "is %s; a feature's dtype is float32, int64 or string", op, d,
                   tx_dtype_name(sparse_types[d]));
    TX_TRY(check_dense(op, &s, dense_ranks, dense_shapes));
    TX_TRY(check_unique_keys(op, &s));
    /* Without features TF reads no record (a record that is no Example is no error then). */
    for (int64_t ex = 0; ex < s.batch && s.ns + s.nd > 0; ex++) TX_TRY(check_record(&s, ex));

    int64_t total[MAX_SPARSE], max[MAX_SPARSE];
    entry e = {0};
    for (size_t d = 0; d < s.ns; d++) {
        total[d] = max[d] = 0;
        for (int64_t ex = 0; ex < s.batch; ex++) {
            int64_t n = sparse_count(&s, d, ex, &e);
            total[d] += n; /* at most the records' bytes: no overflow */
            if (n > max[d]) max[d] = n;
        }
    }
    const size_t nout = 3 * s.ns + s.nd;
    out_ctx c = {&s, total};
    tx_status st = tx__tensor_alloc_n(op, nout, out_spec, &c, outs);
    if (st != TX_OK) return st;
    for (size_t d = 0; d < s.ns; d++)
        fill_sparse(&s, d, total[d], max[d], outs[d], outs[s.ns + d], outs[2 * s.ns + d]);
    for (size_t d = 0; d < s.nd; d++) fill_dense(&s, d, outs[3 * s.ns + d]);
    /* String values point into the records and the defaults: the outputs keep them alive. */
    for (size_t i = 0; i < nout && st == TX_OK; i++) {
        if (outs[i]->dtype != TX_STRING) continue;
        st = tx__share_strings(outs[i], serialized);
        if (st == TX_OK && i >= 3 * s.ns) st = tx__share_strings(outs[i], dense_defaults[i - 3 * s.ns]);
    }
    if (st != TX_OK) tx__free_all(outs, nout);
    return st;
}

tx_status tx_parse_example(const tx_tensor *serialized, const tx_tensor *names,
                           const tx_tensor *sparse_keys, const tx_dtype *sparse_types,
                           const tx_tensor *dense_keys, const tx_tensor *const *dense_defaults,
                           const size_t *dense_ranks, const int64_t *const *dense_shapes,
                           tx_tensor **outs) {
    return parse(OP_BATCH, false, serialized, names, sparse_keys, sparse_types, dense_keys,
                 dense_defaults, dense_ranks, dense_shapes, outs);
}

tx_status tx_parse_single_example(const tx_tensor *serialized, const tx_tensor *sparse_keys,
                                  const tx_dtype *sparse_types, const tx_tensor *dense_keys,
                                  const tx_tensor *const *dense_defaults, const size_t *dense_ranks,
                                  const int64_t *const *dense_shapes, tx_tensor **outs) {
    return parse(OP_SINGLE, true, serialized, NULL, sparse_keys, sparse_types, dense_keys,
                 dense_defaults, dense_ranks, dense_shapes, outs);
}
