/* SPDX-License-Identifier: Apache-2.0 */
/* test_oom.c -- allocation-failure sweeps and size limits for every op and for .npy I/O.
 *
 * Every op of the op spec (frontend/ops_*.c, so every op of include/tensorx.h that has a CLI
 * row) runs on the representative valid calls of op_examples.h (CLI text, one line per call;
 * a new op is covered by adding a line there) with the testutil allocator failing its k-th
 * allocation, k = 1, 2, ... until a run needs fewer than k: each failing run must return
 * TX_RESOURCE_EXHAUSTED with a message, leave every output NULL and leak nothing, and the last run
 * must succeed.  Two guards keep the coverage complete: every op of the CLI table needs a line in
 * op_examples.h, and every op declared in include/tensorx.h needs a CLI op (directly or through
 * the alias list below).
 *
 * .npy: load and save, from and to buffers, files (each load path: mapped, read, read as a
 * stream) and file descriptors, for many dtypes and layouts (Fortran order, big-endian, unicode,
 * structured bfloat16, zero-size), swept the same way.
 *
 * Limits: the output-size-heavy ops (tile, pad, one_hot, space_to_batch(_nd),
 * extract_image_patches, sequence_mask, meshgrid) must refuse a result above
 * tx_set_max_tensor_bytes() with TX_RESOURCE_EXHAUSTED without asking the allocator for it, and
 * succeed once the limit is lifted; shapes whose products or sums overflow int64 (built from
 * zero-size tensors with huge dims) must be refused before allocation. */
#include "io/npy_internal.h"
#include "testutil.h"

#include "opreg.h"
#include "op_examples.h"
#include "op_case.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Optional runtime knob (the thread pool's): one thread keeps allocation counts deterministic. */
extern __typeof__(tx_set_num_threads) tx_set_num_threads __attribute__((weak));

#define NCASES (sizeof tx_op_examples / sizeof tx_op_examples[0])

/* Header functions whose CLI op has another name (the CLI picks the TF op by its arguments). */
static const char *const aliases[][2] = {
    {"split_v", "split"},
    {"reverse_v2", "reverse"},
    /* Options of the same CLI ops (ONNX presets, out-of-range policies, cast modes). */
    {"split_uneven", "split"},                       /* uneven=true */
    {"depth_to_space_in_mode", "depth_to_space"},         /* mode=CRD */
    {"unique_with_counts_in_mode", "unique_with_counts"}, /* sorted=true */
    {"gather_oob", "gather"},                         /* oob=... */
    {"gather_nd_oob", "gather_nd"},
    {"one_hot_oob", "one_hot"},
    {"dynamic_stitch_oob", "dynamic_stitch"},
    {"batch_to_space_nd_oob", "batch_to_space_nd"},   /* oob=... */
    {"batch_to_space_oob", "batch_to_space"},
    {"cast_in_mode", "cast"}, /* mode=saturate/checked */
};

/* ---- running a case through the CLI's table ---- */

static tx_status run(const op_args *a, op_outputs *o) {
    tx_clear_error();
    op_fail(TX_OK, "%s", "");
    memset(o, 0, sizeof *o);
    return a->def->run(a, o);
}

static void sweep_case(const op_example *c) {
    op_args a;
    tu_alloc_fail_at(0);
    parse_case(c, &a);
    long live_inputs = tu_alloc_live();
    op_outputs o;
    tu_alloc_fail_at(0);
    tx_status st = run(&a, &o);
    if (st != TX_OK) fail_msg("%s: the representative call fails: %s: %s", c->op, tx_status_name(st), op_error());
    long n = tu_alloc_count();
    op_outputs_clear(&o);
    if (tu_alloc_live() != live_inputs) fail_msg("%s: a successful run leaked %ld block(s)", c->op, tu_alloc_live() - live_inputs);
    if (n < 1) fail_msg("%s: made no allocation at all (its output needs one)", c->op);
    for (long k = 1;; k++) {
        tu_alloc_fail_at(k);
        st = run(&a, &o);
        long made = tu_alloc_count();
        if (made < k) {
            if (st != TX_OK) fail_msg("%s: with no allocation failing (k=%ld) the call fails: %s", c->op, k, op_error());
            op_outputs_clear(&o);
            tu_alloc_fail_at(0);
            break;
        }
        if (st != TX_RESOURCE_EXHAUSTED)
            fail_msg("%s: allocation %ld failed, status %s (%s)", c->op, k, tx_status_name(st), op_error());
        if (!op_error()[0]) fail_msg("%s: allocation %ld failed without a message", c->op, k);
        for (size_t i = 0; i < o.n; i++)
            if (o.t[i]) fail_msg("%s: allocation %ld failed but output %zu is set", c->op, k, i);
        op_outputs_clear(&o);
        if (tu_alloc_live() != live_inputs)
            fail_msg("%s: allocation %ld failed and %ld block(s) leaked", c->op, k, tu_alloc_live() - live_inputs);
        if (k > 10000) fail_msg("%s: more than 10000 allocations", c->op);
    }
    op_args_clear(&a);
    if (tu_alloc_live() != 0) fail_msg("%s: %ld block(s) still live after freeing everything", c->op, tu_alloc_live());
}

static void test_ops_sweep(void **state) {
    (void)state;
    if (tx_set_num_threads) tx_set_num_threads(1);
    tu_alloc_install();
    for (size_t i = 0; i < NCASES; i++) sweep_case(&tx_op_examples[i]);
    tu_alloc_uninstall();
}

static void test_every_table_op_has_a_case(void **state) {
    (void)state;
    char missing[4096] = "";
    for (size_t i = 0; op_at(i); i++) {
        bool found = false;
        for (size_t k = 0; k < NCASES && !found; k++) found = !strcmp(tx_op_examples[k].op, op_at(i)->name);
        if (!found && strlen(missing) + strlen(op_at(i)->name) + 2 < sizeof missing) {
            strcat(missing, " ");
            strcat(missing, op_at(i)->name);
        }
    }
    if (missing[0]) fail_msg("ops without a line in tests/unit/op_examples.h:%s", missing);
}

/* Every `TX_API tx_status tx_NAME(` of the header's operation parts (include/tensorx/ops_*.h). */
static void test_every_header_op_is_covered(void **state) {
    (void)state;
    static const char *const parts[] = {"ops_casting.h", "ops_shaping.h", "ops_spatial.h", "ops_gather.h"};
    char line[1024], missing[4096] = "";
    int seen = 0;
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/include/tensorx/%s", TX_SOURCE_DIR, parts[k]);
        FILE *f = fopen(path, "r");
        if (!f) fail_msg("cannot open %s", path);
        while (fgets(line, sizeof line, f)) {
            const char *p = strstr(line, "TX_API tx_status tx_");
            if (!p) continue;
            p += strlen("TX_API tx_status tx_");
            char name[128];
            size_t n = strcspn(p, "(");
            if (n == 0 || n >= sizeof name) continue;
            memcpy(name, p, n);
            name[n] = '\0';
            seen++;
            const char *cli = name;
            for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
                if (!strcmp(aliases[i][0], name)) cli = aliases[i][1];
            if (!op_find(cli) && strlen(missing) + n + 2 < sizeof missing) {
                strcat(missing, " ");
                strcat(missing, name);
            }
        }
        fclose(f);
    }
    assert_true(seen > 40);
    if (missing[0]) fail_msg("ops declared in include/tensorx/ops_*.h with no CLI op (so no OOM sweep):%s", missing);
}

/* ---- .npy ---- */
typedef struct npy_case {
    const char *name;
    unsigned char *bytes;
    size_t size;
} npy_case;

/* A version-1.0 .npy file: header text padded to 64 bytes, then the data. */
static npy_case npy_make(const char *name, const char *dict, const void *data, size_t n) {
    size_t dl = strlen(dict), hl = 10 + dl + 1;
    size_t total_hdr = (hl + 63) / 64 * 64;
    npy_case c = {name, malloc(total_hdr + n), total_hdr + n};
    assert_non_null(c.bytes);
    memcpy(c.bytes, "\x93NUMPY\x01\x00", 8);
    c.bytes[8] = (unsigned char)((total_hdr - 10) & 0xFF);
    c.bytes[9] = (unsigned char)((total_hdr - 10) >> 8);
    memcpy(c.bytes + 10, dict, dl);
    memset(c.bytes + 10 + dl, ' ', total_hdr - 10 - dl - 1);
    c.bytes[total_hdr - 1] = '\n';
    if (n) memcpy(c.bytes + total_hdr, data, n);
    return c;
}

static size_t npy_cases(npy_case *out) {
    size_t n = 0;
    static const float f32[6] = {1, 2, 3, 4, 5, 6};
    static const unsigned char be_i32[8] = {0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xFE};
    static const unsigned char ustr[24] = {'a', 0, 0, 0, 0xe9, 0, 0, 0, 0, 0, 0, 0,
                                           0x00, 0xF6, 0x01, 0, 'b', 0, 0, 0, 0, 0, 0, 0};
    static const double f64[6] = {1, 2, 3, 4, 5, 6};
    static const unsigned char bools[4] = {1, 0, 1, 1};
    static const uint16_t bf16[3] = {0x3F80, 0x4000, 0xC040};
    static const char sbytes[9] = {'a', 'b', 'c', 'x', 0, 0, 'q', 'r', 's'};
    out[n++] = npy_make("float32", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f32, sizeof f32);
    out[n++] = npy_make("fortran float64", "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 3), }", f64, sizeof f64);
    out[n++] = npy_make("big-endian int32", "{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }", be_i32, sizeof be_i32);
    out[n++] = npy_make("unicode", "{'descr': '<U2', 'fortran_order': False, 'shape': (3,), }", ustr, sizeof ustr);
    out[n++] = npy_make("bytes", "{'descr': '|S3', 'fortran_order': False, 'shape': (3,), }", sbytes, sizeof sbytes);
    out[n++] = npy_make("bool", "{'descr': '|b1', 'fortran_order': False, 'shape': (2, 2), }", bools, sizeof bools);
    out[n++] = npy_make("bfloat16", "{'descr': [('bfloat16', '<u2')], 'fortran_order': False, 'shape': (3,), }", bf16, sizeof bf16);
    out[n++] = npy_make("zero-size", "{'descr': '<i8', 'fortran_order': False, 'shape': (0, 5), }", NULL, 0);
    static const unsigned char i4[4] = {0x0F, 0x87, 1, 2};
    out[n++] = npy_make("fortran unicode",
                        "{'descr': '<U2', 'fortran_order': True, 'shape': (1, 3), }", ustr,
                        sizeof ustr);
    out[n++] = npy_make("int4",
                        "{'descr': [('int4', '|i1')], 'fortran_order': False, 'shape': (4,), }",
                        i4, sizeof i4);
    out[n++] = npy_make("scalar", "{'descr': '<c8', 'fortran_order': False, 'shape': (), }", f32, 8);
    return n;
}

typedef tx_status (*npy_fn)(const npy_case *c, const char *path, tx_tensor **t);

static tx_status load_buffer(const npy_case *c, const char *path, tx_tensor **t) {
    (void)path;
    return tx_npy_load_buffer(c->bytes, c->size, t);
}

static tx_status load_file(const npy_case *c, const char *path, tx_tensor **t) {
    (void)c;
    return tx_npy_load(path, t);
}

/* tx__npy_load_fd with its test flags: the mapped, read and stream paths each swept. */
static tx_status load_flags(const char *path, unsigned flags, tx_tensor **t) {
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    tx_status st = tx__npy_load_fd(fd, path, flags, t);
    close(fd);
    return st;
}

static tx_status load_mapped(const npy_case *c, const char *path, tx_tensor **t) {
    (void)c;
    return load_flags(path, TX__NPY_MAP, t);
}

static tx_status load_read(const npy_case *c, const char *path, tx_tensor **t) {
    (void)c;
    return load_flags(path, TX__NPY_READ, t);
}

static tx_status load_stream(const npy_case *c, const char *path, tx_tensor **t) {
    (void)c;
    return load_flags(path, TX__NPY_AS_STREAM, t);
}

/* Sweeps fn; returns the tensor of the successful run. */
static tx_tensor *npy_sweep(const char *what, const npy_case *c, const char *path, npy_fn fn) {
    long base = tu_alloc_live();
    for (long k = 1;; k++) {
        tx_tensor *t = NULL;
        tu_alloc_fail_at(k);
        tx_clear_error();
        tx_status st = fn(c, path, &t);
        if (tu_alloc_count() < k) {
            if (st != TX_OK) fail_msg("%s %s: fails with no allocation failing: %s", what, c->name, tx_last_error());
            return t;
        }
        if (st != TX_RESOURCE_EXHAUSTED)
            fail_msg("%s %s: allocation %ld failed, status %s (%s)", what, c->name, k, tx_status_name(st), tx_last_error());
        if (t) fail_msg("%s %s: failed but set the output", what, c->name);
        if (tu_alloc_live() != base) fail_msg("%s %s: allocation %ld failed and %ld block(s) leaked", what, c->name, k, tu_alloc_live() - base);
    }
}

static void save_sweep(const char *what, const tx_tensor *t, const char *name, const char *path) {
    long base = tu_alloc_live();
    for (long k = 1;; k++) {
        void *buf = NULL;
        size_t len = 0;
        tu_alloc_fail_at(k);
        tx_clear_error();
        tx_status st;
        if (path && strcmp(path, "fd") == 0) { /* tx_npy_save_fd to /dev/null */
            int fd = open("/dev/null", O_WRONLY);
            assert_true(fd >= 0);
            st = tx_npy_save_fd(fd, t);
            close(fd);
        } else {
            st = path ? tx_npy_save(path, t) : tx_npy_save_buffer(t, &buf, &len);
        }
        if (tu_alloc_count() < k) {
            if (st != TX_OK) fail_msg("%s %s: fails with no allocation failing: %s", what, name, tx_last_error());
            if (!path) tx_buffer_free(buf, len);
            assert_int_equal(tu_alloc_live(), base);
            return;
        }
        if (st != TX_RESOURCE_EXHAUSTED)
            fail_msg("%s %s: allocation %ld failed, status %s (%s)", what, name, k, tx_status_name(st), tx_last_error());
        if (buf) fail_msg("%s %s: failed but set the buffer", what, name);
        if (tu_alloc_live() != base) fail_msg("%s %s: allocation %ld failed and %ld block(s) leaked", what, name, k, tu_alloc_live() - base);
    }
}

static void test_npy_sweep(void **state) {
    (void)state;
    npy_case cs[16];
    size_t n = npy_cases(cs);
    char path[] = "/tmp/tx_oom_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char saved[sizeof path + 8];
    snprintf(saved, sizeof saved, "%s.npy", path);
    tu_alloc_install();
    for (size_t i = 0; i < n; i++) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(cs[i].bytes, 1, cs[i].size, f), cs[i].size);
        fclose(f);
        tx_tensor *a = npy_sweep("npy load_buffer", &cs[i], path, load_buffer);
        tx_tensor *b = npy_sweep("npy load", &cs[i], path, load_file);
        assert_int_equal(tx_tensor_nbytes(a), tx_tensor_nbytes(b));
        npy_fn more[] = {load_mapped, load_read, load_stream};
        for (size_t m = 0; m < sizeof more / sizeof more[0]; m++)
            tx_tensor_free(npy_sweep("npy load (mapped, read, stream)", &cs[i], path, more[m]));
        save_sweep("npy save_buffer", a, cs[i].name, NULL);
        save_sweep("npy save", a, cs[i].name, saved);
        save_sweep("npy save_fd", a, cs[i].name, "fd");
        tx_tensor_free(a);
        tx_tensor_free(b);
        assert_int_equal(tu_alloc_live(), 0);
        free(cs[i].bytes);
    }
    tu_alloc_uninstall();
    unlink(path);
    unlink(saved);
}

/* ---- limits ----
 * An allocator that records the largest request: a refused result must not have been asked for. */
static size_t largest;
static long requests;

static void *rec_alloc(size_t size, size_t align, void *ctx) {
    (void)ctx;
    requests++;
    if (size > largest) largest = size;
    void *p = NULL;
    return posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size) ? NULL : p;
}

static void rec_free(void *p, size_t size, void *ctx) {
    (void)size;
    (void)ctx;
    free(p);
}

#define LIMIT ((size_t)1 << 20)

typedef struct limit_case {
    const char *op;
    const char *args[OPX_MAX_ARGS];
    bool fits_without_limit; /* below 64 MiB: must succeed once the limit is lifted */
} limit_case;

/* Results above LIMIT (1 MiB): refused with resource_exhausted before allocation. */
static const limit_case over_limit[] = {
    {"tile", {"input=[[1,2],[3,4]]", "multiples=1024,256"}, true},
    {"tile", {"input=[\"a\",\"b\"]", "multiples=[65536]"}, true},
    {"pad", {"tensor=[1,2]", "paddings=[[0,1048576]]"}, true},
    {"pad", {"tensor=[[1,2],[3,4]]", "paddings=[[1,1],[1,1000000000000]]", "mode=CONSTANT"}, false},
    {"one_hot", {"indices=[0,1,2,3]", "depth=1000000"}, true},
    {"one_hot", {"indices=[0,1,2,3]", "depth=2147483647", "dtype=float64"}, false},
    {"space_to_batch_nd", {"input=[[[[1],[2]],[[3],[4]]]]", "block_shape=1,1", "paddings=[[0,1022],[0,1022]]"}, true},
    {"space_to_batch_nd",
     {"input=[[[[1],[2]],[[3],[4]]]]", "block_shape=1,1", "paddings=[[0,4294967296],[0,4294967296]]"}, false},
    {"space_to_batch", {"input=[[[[1],[2]],[[3],[4]]]]", "paddings=[[0,2046],[0,2046]]", "block_size=2"}, true},
    {"sequence_mask", {"lengths=[1,2]", "maxlen=1048577"}, true},
    {"sequence_mask", {"lengths=[1,2]", "maxlen=1099511627776:int64"}, false},
    {"meshgrid", {"args=[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8]"
                  ",[1,2,3,4,5,6,7,8],[1,2,3,4,5,6,7,8]"}, true},
};

static void expect_refused(const char *what, tx_status st, tx_tensor *const *outs, size_t n, bool must_be_re) {
    if (st == TX_OK) fail_msg("%s: accepted", what);
    if (must_be_re ? st != TX_RESOURCE_EXHAUSTED : st != TX_RESOURCE_EXHAUSTED && st != TX_INVALID_ARGUMENT)
        fail_msg("%s: status %s (%s)", what, tx_status_name(st), tx_last_error());
    for (size_t i = 0; i < n; i++)
        if (outs[i]) fail_msg("%s: output %zu set on failure", what, i);
    if (largest >= LIMIT) fail_msg("%s: asked the allocator for %zu bytes", what, largest);
}

static void test_limits_table_ops(void **state) {
    (void)state;
    static const tx_allocator rec = {rec_alloc, rec_free, NULL};
    tx_set_allocator(&rec);
    tx_set_max_tensor_bytes(LIMIT);
    char what[256];
    for (size_t i = 0; i < sizeof over_limit / sizeof over_limit[0]; i++) {
        const limit_case *lc = &over_limit[i];
        op_example c = {lc->op, {NULL}};
        memcpy(c.args, lc->args, sizeof c.args);
        op_args a;
        parse_case(&c, &a);
        snprintf(what, sizeof what, "%s %.60s %.60s", lc->op, lc->args[0], lc->args[1] ? lc->args[1] : "");
        largest = 0;
        op_outputs o;
        tx_status st = run(&a, &o);
        expect_refused(what, st, o.t, o.n, true);
        op_outputs_clear(&o);
        if (lc->fits_without_limit) {
            tx_set_max_tensor_bytes(0);
            st = run(&a, &o);
            if (st != TX_OK) fail_msg("%s: fails without the limit too: %s", what, op_error());
            op_outputs_clear(&o);
            tx_set_max_tensor_bytes(LIMIT);
        }
        op_args_clear(&a);
    }
    tx_set_max_tensor_bytes(0);
    tx_set_allocator(NULL);
}

static void test_limits_direct(void **state) {
    (void)state;
    static const tx_allocator rec = {rec_alloc, rec_free, NULL};
    tx_set_allocator(&rec);
    tx_set_max_tensor_bytes(LIMIT);
    tx_tensor *t = NULL, *u = NULL, *o1 = NULL;

    /* extract_image_patches: a 32 x 32 image, 32 x 32 windows, SAME: 1024 x 1024 floats. */
    tx_tensor *img = NULL;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 4, TU_DIMS(1, 32, 32, 1), &img), TX_OK);
    const int64_t k32[4] = {1, 32, 32, 1}, ones4[4] = {1, 1, 1, 1};
    largest = 0;
    expect_refused("extract_image_patches 32x32 SAME",
                   tx_extract_image_patches(img, k32, 4, ones4, 4, ones4, 4, TX_PADDING_SAME, &o1), &o1, 1, true);
    tx_set_max_tensor_bytes(0);
    assert_int_equal(tx_extract_image_patches(img, k32, 4, ones4, 4, ones4, 4, TX_PADDING_SAME, &o1), TX_OK);
    tx_tensor_free(o1);
    o1 = NULL;
    tx_set_max_tensor_bytes(LIMIT);
    tx_tensor_free(img);

    /* Element counts that overflow size_t bytes or int64. */
    largest = 0;
    expect_refused("tensor_new [2^62, 4] float32", tx_tensor_new(TX_FLOAT32, 2, TU_DIMS((int64_t)1 << 62, 4), &t), &t, 1, true);
    expect_refused("tensor_new [2^32, 2^32] int8", tx_tensor_new(TX_INT8, 2, TU_DIMS((int64_t)1 << 32, (int64_t)1 << 32), &t), &t, 1, false);

    /* [2^40, 0] holds no element and is a legal input; results whose dims overflow int64 must be
     * refused (TF's TensorShape refuses them too). */
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 2, TU_DIMS((int64_t)1 << 40, 0), &t), TX_OK);
    tx_tensor *mult = tu_i64(2, (const int64_t[]){(int64_t)1 << 30, 1});
    largest = 0;
    expect_refused("tile [2^40, 0] by [2^30, 1]", tx_tile(t, mult, &o1), &o1, 1, false);
    tx_tensor_free(mult);
    tx_tensor *pads = tu_tensor(TX_INT64, 2, TU_DIMS(2, 2), TU_VALS(0, 0, 0, 0));
    ((int64_t *)tx_tensor_data(pads))[1] = INT64_MAX - 10;
    expect_refused("pad [2^40, 0] by INT64_MAX - 10", tx_pad(t, pads, TX_PAD_CONSTANT, NULL, &o1), &o1, 1, false);
    tx_tensor_free(pads);
    tx_tensor_free(t);
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 2, TU_DIMS(INT64_MAX / 2 + 1, 0), &u), TX_OK);
    const tx_tensor *two[2] = {u, u};
    expect_refused("concat 2 x [2^62, 0] on dim 0", tx_concat(two, 2, 0, &o1), &o1, 1, false);
    tx_tensor_free(u);

    /* space_to_batch_nd: a padded size past INT64_MAX. */
    tx_tensor *bpads = tu_tensor(TX_INT64, 2, TU_DIMS(1, 2), TU_VALS(0, 0));
    ((int64_t *)tx_tensor_data(bpads))[1] = INT64_MAX - 1;
    assert_int_equal(tx_tensor_new(TX_FLOAT32, 3, TU_DIMS(1, 4, 1), &img), TX_OK);
    tx_tensor *one = tu_i64(1, (const int64_t[]){1});
    expect_refused("space_to_batch_nd padded to INT64_MAX + 3", tx_space_to_batch_nd(img, one, bpads, &o1), &o1, 1, false);
    tx_tensor_free(one);
    tx_tensor_free(img);
    tx_tensor_free(bpads);
    tx_set_max_tensor_bytes(0);
    tx_set_allocator(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_table_op_has_a_case),
        cmocka_unit_test(test_every_header_op_is_covered),
        cmocka_unit_test(test_ops_sweep),
        cmocka_unit_test(test_npy_sweep),
        cmocka_unit_test(test_limits_table_ops),
        cmocka_unit_test(test_limits_direct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
