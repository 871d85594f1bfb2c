/* SPDX-License-Identifier: Apache-2.0 */
/* workloads.c -- the benchmark's workloads: their inputs, a setup and a run function each, and the
 * table bench.c times, grouped by op family (one block each) so a family's entries are easy to
 * find.  bench/peers_workloads.py mirrors its names and sizes. */
#define _DEFAULT_SOURCE 1
#define TX_EXPERIMENTAL_API /* CPU levels and the allocation cache (tensorx.h) */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

/* ---- inputs ------------------------------------------------------------------------------------ */

tx_tensor *mk(tx_dtype dt, size_t rank, const int64_t *dims, fill_kind fill) {
    tx_tensor *t = NULL;
    tx_status st = tx_tensor_new(dt, rank, dims, &t);
    if (st != TX_OK) die("tensor_new", st);
    int64_t n = tx_tensor_numel(t);
    void *d = tx_tensor_data(t);
    if (fill == FILL_BYTES || dt == TX_FLOAT16 || dt == TX_UINT8) {
        uint64_t *w = d;
        size_t words = tx_tensor_nbytes(t) / 8;
        for (size_t i = 0; i < words; i++) w[i] = next_rand();
        if (dt == TX_FLOAT16) /* finite halves only: clear the top exponent bit */
            for (int64_t i = 0; i < n; i++) ((uint16_t *)d)[i] &= 0xBFFF;
        return t;
    }
    for (int64_t i = 0; i < n; i++) {
        double r = (double)(next_rand() >> 11) * (1.0 / 9007199254740992.0);
        double v = fill == FILL_SAT ? -100 + 500 * r : fill == FILL_INT ? floor(-1e6 + 2e6 * r)
                                                                        : -1000 + 2000 * r;
        switch (dt) {
        case TX_FLOAT32: ((float *)d)[i] = (float)v; break;
        case TX_FLOAT64: ((double *)d)[i] = v; break;
        case TX_INT32: ((int32_t *)d)[i] = (int32_t)v; break;
        default: break;
        }
    }
    return t;
}

/* int32 vector of n values in [0, range) (or the given list when vals != NULL). */
tx_tensor *mk_index(int64_t n, int64_t range, const int32_t *vals) {
    tx_tensor *t = NULL;
    tx_status st = tx_tensor_new(TX_INT32, 1, &n, &t);
    if (st != TX_OK) die("tensor_new", st);
    int32_t *d = tx_tensor_data(t);
    for (int64_t i = 0; i < n; i++) d[i] = vals ? vals[i] : (int32_t)(next_rand() % (uint64_t)range);
    return t;
}

tx_tensor *mk_ints(size_t rank, const int64_t *dims, const int32_t *vals) {
    int64_t n = 1;
    for (size_t i = 0; i < rank; i++) n *= dims[i];
    tx_tensor *t = NULL;
    tx_status st = tx_tensor_from_data(TX_INT32, rank, dims, vals, (size_t)n * 4, &t);
    if (st != TX_OK) die("tensor_from_data", st);
    return t;
}

/* ---- workloads -------------------------------------------------------------------------------- */

/* Elements of the "64M" workloads, divided by the scale. */
#define N64M ((int64_t)64 << 20)

/* -- casting -- */
static void setup_cast(wl_state *s, int64_t div, const workload *w) {
    int64_t n = N64M / div;
    tx_dtype from = (tx_dtype)w->arg;
    s->in[0] = mk(from, 1, &n, from == TX_UINT8 ? FILL_BYTES : FILL_FLOAT);
    s->a = w->arg2;
    s->bytes = nb(s->in[0]) + (uint64_t)n * tx_dtype_size((tx_dtype)w->arg2);
}
tx_status call_cast(const wl_state *s, tx_tensor **o) {
    return tx_cast(s->in[0], (tx_dtype)s->a, o);
}
int run_cast(const wl_state *s, tx_tensor **o) {
    tx_status st = call_cast(s, o);
    if (st != TX_OK) die("cast", st);
    return 1;
}
/* float32 -> float4_e2m1fn packed two codes per byte (the first in the low nibble, as ONNX, DLPack
 * and safetensors pack them) by the one op cast_pack (the bytes of cast, then pack_subbyte, in one
 * pass): the packed storage an MX checkpoint writes. */
static void setup_cast_packed(wl_state *s, int64_t div, const workload *w) {
    setup_cast(s, div, w);
    s->bytes = nb(s->in[0]) + (uint64_t)(tx_tensor_numel(s->in[0]) + 1) / 2;
}
static tx_status call_cast_pack(const wl_state *s, tx_tensor **o) {
    return tx_cast_pack(s->in[0], (tx_dtype)s->a, o);
}
static int run_cast_packed(const wl_state *s, tx_tensor **o) {
    tx_status st = call_cast_pack(s, o);
    if (st != TX_OK) die("cast_pack", st);
    return 1;
}
static void setup_saturate(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = N64M / div;
    s->in[0] = mk(TX_FLOAT32, 1, &n, FILL_SAT);
    s->bytes = nb(s->in[0]) + (uint64_t)n;
}
static int run_saturate(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_saturate_cast(s->in[0], TX_UINT8, o);
    if (st != TX_OK) die("saturate_cast", st);
    return 1;
}
static void setup_bitcast(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = N64M / div;
    s->in[0] = mk(TX_FLOAT32, 1, &n, FILL_FLOAT);
    s->bytes = 0; /* a view: nothing moves */
}
static int run_bitcast(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_bitcast(s->in[0], TX_INT32, o);
    if (st != TX_OK) die("bitcast", st);
    return 1;
}
/* decode_raw of one string of 256 MiB (arg = out dtype, arg2 = little endian) */
static void setup_decode_one(wl_state *s, int64_t div, const workload *w) {
    size_t n = ((size_t)256 << 20) / (size_t)div;
    char *buf = big_buffer(n);
    for (size_t i = 0; i < n / 8; i++) ((uint64_t *)buf)[i] = next_rand() & 0x3F7F3F7F3F7F3F7Full;
    const char *p = buf;
    tx_status st = tx_tensor_new_strings(0, NULL, &p, &n, &s->in[0]);
    if (st != TX_OK) die("tensor_new_strings", st);
    free(buf);
    s->a = w->arg;
    s->b = w->arg2;
    s->bytes = 2 * (uint64_t)n;
}
/* decode_raw of 1M records of 64 bytes (float32, little-endian) */
static void setup_decode_records(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = ((int64_t)1 << 20) / div;
    char *buf = big_buffer((size_t)n * 64);
    for (int64_t i = 0; i < n * 8; i++) ((uint64_t *)buf)[i] = next_rand() & 0x3F7FFFFF3F7FFFFFull;
    const char **ptrs = malloc((size_t)n * sizeof *ptrs);
    size_t *lens = malloc((size_t)n * sizeof *lens);
    if (!ptrs || !lens) exit(1);
    for (int64_t i = 0; i < n; i++) {
        ptrs[i] = buf + i * 64;
        lens[i] = 64;
    }
    tx_status st = tx_tensor_new_strings(1, &n, ptrs, lens, &s->in[0]);
    if (st != TX_OK) die("tensor_new_strings", st);
    free(buf);
    free(ptrs);
    free(lens);
    s->a = TX_FLOAT32;
    s->b = 1;
    s->bytes = 2 * (uint64_t)n * 64;
}
int run_decode(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_decode_raw(s->in[0], (tx_dtype)s->a, (int)s->b, NULL, o);
    if (st != TX_OK) die("decode_raw", st);
    return 1;
}

/* Square sides scaled so that the element count drops about as much as the scale asks. */
static int64_t side4096(int64_t div) { return div >= 16 ? 1024 : div >= 4 ? 2048 : 4096; }
static int64_t side8192(int64_t div) { return div >= 16 ? 2048 : div >= 4 ? 4096 : 8192; }

/* -- reorder: transpose (arg = case), concat (arg = axis), reverse -- */
static void setup_transpose(wl_state *s, int64_t div, const workload *w) {
    int64_t dims[4];
    int32_t perm[4];
    size_t rank;
    switch (w->arg) {
    case 0: rank = 2; dims[0] = dims[1] = side8192(div); perm[0] = 1; perm[1] = 0; break;
    case 1: case 2: rank = 3; dims[0] = 64 / div; dims[1] = 512; dims[2] = 512;
        if (w->arg == 1) { perm[0] = 0; perm[1] = 2; perm[2] = 1; }
        else { perm[0] = 2; perm[1] = 0; perm[2] = 1; }
        break;
    default: rank = 4; dims[0] = 32 / div; dims[1] = 224; dims[2] = 224; dims[3] = 3;
        perm[0] = 0; perm[1] = 3; perm[2] = 1; perm[3] = 2; break;
    }
    if (dims[0] < 1) dims[0] = 1;
    s->in[0] = mk(TX_FLOAT32, rank, dims, FILL_BYTES);
    int64_t r = (int64_t)rank;
    s->in[1] = mk_ints(1, &r, perm);
    s->bytes = 2 * nb(s->in[0]);
}
tx_status call_transpose(const wl_state *s, tx_tensor **o) {
    return tx_transpose(s->in[0], s->in[1], 0, o);
}
int run_transpose(const wl_state *s, tx_tensor **o) {
    tx_status st = call_transpose(s, o);
    if (st != TX_OK) die("transpose", st);
    return 1;
}
static void setup_concat(wl_state *s, int64_t div, const workload *w) {
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->in[1] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->a = w->arg;
    s->bytes = 4 * nb(s->in[0]);
}
tx_status call_concat(const wl_state *s, tx_tensor **o) {
    const tx_tensor *v[2] = {s->in[0], s->in[1]};
    return tx_concat(v, 2, s->a, o);
}
int run_concat(const wl_state *s, tx_tensor **o) {
    tx_status st = call_concat(s, o);
    if (st != TX_OK) die("concat", st);
    return 1;
}
static void setup_reverse(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side8192(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->bytes = 2 * nb(s->in[0]);
}
static int run_reverse(const wl_state *s, tx_tensor **o) {
    const int64_t axis[1] = {1};
    tx_status st = tx_reverse_v2(s->in[0], axis, 1, o);
    if (st != TX_OK) die("reverse_v2", st);
    return 1;
}

/* -- slicing: pad (arg = mode), tile, strided_slice -- */
static void setup_pad(wl_state *s, int64_t div, const workload *w) {
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    const int64_t pd[2] = {2, 2};
    const int32_t pv[4] = {16, 16, 16, 16};
    s->in[1] = mk_ints(2, pd, pv);
    s->a = w->arg;
    s->bytes = nb(s->in[0]) + (uint64_t)(d + 32) * (uint64_t)(d + 32) * 4;
}
tx_status call_pad(const wl_state *s, tx_tensor **o) {
    return tx_pad(s->in[0], s->in[1], (tx_pad_mode)s->a, NULL, o);
}
int run_pad(const wl_state *s, tx_tensor **o) {
    tx_status st = call_pad(s, o);
    if (st != TX_OK) die("pad", st);
    return 1;
}
static void setup_tile(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = div >= 4 ? 512 : 1024, dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    const int64_t two = 2;
    const int32_t m[2] = {4, 4};
    s->in[1] = mk_ints(1, &two, m);
    s->bytes = nb(s->in[0]) + 16 * nb(s->in[0]);
}
static int run_tile(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_tile(s->in[0], s->in[1], o);
    if (st != TX_OK) die("tile", st);
    return 1;
}
static void setup_strided(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side8192(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    const int64_t two = 2;
    const int32_t zero[2] = {0, 0}, strides[2] = {2, -1};
    s->in[1] = mk_ints(1, &two, zero);
    s->in[2] = mk_ints(1, &two, zero);
    s->in[3] = mk_ints(1, &two, strides);
    s->a = s->b = 3; /* begin_mask, end_mask: every axis whole */
    s->bytes = nb(s->in[0]) / 2 * 2; /* reads half the rows, writes as much */
}
tx_status call_strided(const wl_state *s, tx_tensor **o) {
    return tx_strided_slice(s->in[0], s->in[1], s->in[2], s->in[3], s->a, s->b, 0, 0, 0,
                                    o);
}
int run_strided(const wl_state *s, tx_tensor **o) {
    tx_status st = call_strided(s, o);
    if (st != TX_OK) die("strided_slice", st);
    return 1;
}

/* -- gather family -- */
static void setup_gather_rows(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t rows = ((int64_t)1 << 20) / div, dims[2] = {rows, 64};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->in[1] = mk_index(rows, rows, NULL);
    s->a = 0;
    s->bytes = nb(s->in[1]) + 2 * nb(s->in[0]);
}
static void setup_gather_axis1(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->in[1] = mk_index(d, d, NULL);
    s->a = 1;
    s->bytes = nb(s->in[1]) + 2 * nb(s->in[0]);
}
/* boolean_mask of a [d, d] float32 table by a random [d, d] mask (about half true): the mask is
 * as large as the data, the case where counting it and reading it again cost most. */
static void setup_boolean_mask(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->in[1] = mk(TX_BOOL, 2, dims, FILL_INT); /* filled below */
    uint8_t *m = tx_tensor_data(s->in[1]);
    int64_t kept = 0;
    for (int64_t i = 0; i < d * d; i++) kept += m[i] = (uint8_t)(next_rand() & 1);
    s->bytes = nb(s->in[1]) + nb(s->in[0]) + 2 * (size_t)kept * 4; /* mask, scan, kept rows out */
}
static int run_boolean_mask(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_boolean_mask(s->in[0], s->in[1], 0, o);
    if (st != TX_OK) die("boolean_mask", st);
    return 1;
}
tx_status call_gather(const wl_state *s, tx_tensor **o) {
    return tx_gather(s->in[0], s->in[1], s->a, 0, o);
}
int run_gather(const wl_state *s, tx_tensor **o) {
    tx_status st = call_gather(s, o);
    if (st != TX_OK) die("gather", st);
    return 1;
}
static void setup_gather_nd(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t dims[3] = {1024, 1024, 16}, n = ((int64_t)1 << 20) / div;
    s->in[0] = mk(TX_FLOAT32, 3, dims, FILL_BYTES);
    int64_t idims[2] = {n, 2};
    int32_t *iv = malloc((size_t)n * 2 * sizeof *iv);
    if (!iv) exit(1);
    for (int64_t i = 0; i < 2 * n; i++) iv[i] = (int32_t)(next_rand() % 1024);
    s->in[1] = mk_ints(2, idims, iv);
    free(iv);
    s->bytes = nb(s->in[1]) + 2 * (uint64_t)n * 64;
}
static int run_gather_nd(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_gather_nd(s->in[0], s->in[1], o);
    if (st != TX_OK) die("gather_nd", st);
    return 1;
}
static void setup_one_hot(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = ((int64_t)1 << 20) / div;
    s->in[0] = mk_index(n, 1000, NULL);
    s->bytes = nb(s->in[0]) + (uint64_t)n * 1000 * 4;
}
tx_status call_one_hot(const wl_state *s, tx_tensor **o) {
    return tx_one_hot(s->in[0], 1000, NULL, NULL, -1, TX_FLOAT32, o);
}
int run_one_hot(const wl_state *s, tx_tensor **o) {
    tx_status st = call_one_hot(s, o);
    if (st != TX_OK) die("one_hot", st);
    return 1;
}
static void setup_unique(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = ((int64_t)16 << 20) / div;
    int32_t vals[1000];
    for (int i = 0; i < 1000; i++) vals[i] = (int32_t)(next_rand() & 0x7FFFFFFF);
    s->in[0] = mk_index(n, 1000, NULL);
    int32_t *d = tx_tensor_data(s->in[0]);
    for (int64_t i = 0; i < n; i++) d[i] = vals[d[i]];
    s->bytes = 2 * nb(s->in[0]);
}
static int run_unique(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_unique_with_counts(s->in[0], TX_INT32, o);
    if (st != TX_OK) die("unique_with_counts", st);
    return 3;
}

/* -- spatial -- */
static void setup_s2d(wl_state *s, int64_t div, const workload *w) {
    int64_t dims[4] = {8 / (div >= 8 ? 8 : div), 256, 256, 64};
    s->in[0] = mk(TX_FLOAT32, 4, dims, FILL_BYTES);
    s->a = w->arg;
    s->bytes = 2 * nb(s->in[0]);
}
tx_status call_s2d(const wl_state *s, tx_tensor **o) {
    return s->a ? tx_depth_to_space(s->in[0], 2, TX_FORMAT_NHWC, o)
                        : tx_space_to_depth(s->in[0], 2, TX_FORMAT_NHWC, o);
}
int run_s2d(const wl_state *s, tx_tensor **o) {
    tx_status st = call_s2d(s, o);
    if (st != TX_OK) die("space/depth", st);
    return 1;
}

/* space_to_batch_nd [8, 256, 256, 64] -> [32, 128, 128, 64] and batch_to_space_nd back (arg 1), block
 * [2, 2], no padding or crops */
static void setup_s2b(wl_state *s, int64_t div, const workload *w) {
    int64_t n = 8 / (div >= 8 ? 8 : div);
    int64_t dims[4] = {n, 256, 256, 64}, inv[4] = {4 * n, 128, 128, 64}, two = 2, pd[2] = {2, 2};
    const int32_t block[2] = {2, 2}, zeros[4] = {0, 0, 0, 0};
    s->a = w->arg;
    s->in[0] = mk(TX_FLOAT32, 4, s->a ? inv : dims, FILL_BYTES);
    s->in[1] = mk_ints(1, &two, block);
    s->in[2] = mk_ints(2, pd, zeros);
    s->bytes = 2 * nb(s->in[0]);
}
static int run_s2b(const wl_state *s, tx_tensor **o) {
    tx_status st = s->a ? tx_batch_to_space_nd(s->in[0], s->in[1], s->in[2], o)
                        : tx_space_to_batch_nd(s->in[0], s->in[1], s->in[2], o);
    if (st != TX_OK) die("space_to_batch_nd / batch_to_space_nd", st);
    return 1;
}

/* -- shaping: split [4096, 4096] into 4 along axis 1 (each part a strided copy) -- */
static void setup_split(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t d = side4096(div), dims[2] = {d, d};
    s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
    s->bytes = 2 * nb(s->in[0]);
}
static int run_split(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_split(s->in[0], 1, 4, o);
    if (st != TX_OK) die("split", st);
    return 4;
}

/* -- core: a plain deep copy (the copy kernel) -- */
static void setup_copy(wl_state *s, int64_t div, const workload *w) {
    (void)w;
    int64_t n = N64M / div;
    s->in[0] = mk(TX_FLOAT32, 1, &n, FILL_BYTES);
    s->bytes = 2 * nb(s->in[0]);
}
static int run_copy(const wl_state *s, tx_tensor **o) {
    tx_status st = tx_tensor_copy(s->in[0], o);
    if (st != TX_OK) die("tensor_copy", st);
    return 1;
}

/* -- inference shapes: small tensors of a model's forward pass; the same size in quick mode -- */
static void setup_infer(wl_state *s, int64_t div, const workload *w) {
    (void)div;
    switch (w->arg) {
    case 0: { /* embedding lookup: 128 token ids into a 30522 x 768 float32 table (BERT's) */
        int64_t dims[2] = {30522, 768};
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_BYTES);
        s->in[1] = mk_index(128, 30522, NULL);
        s->a = 0;
        s->bytes = nb(s->in[1]) + 2 * 128 * 768 * 4;
        break;
    }
    case 1: { /* an image batch of one, NHWC -> NCHW */
        int64_t dims[4] = {1, 224, 224, 3}, four = 4;
        const int32_t perm[4] = {0, 3, 1, 2};
        s->in[0] = mk(TX_FLOAT32, 4, dims, FILL_BYTES);
        s->in[1] = mk_ints(1, &four, perm);
        s->bytes = 2 * nb(s->in[0]);
        break;
    }
    case 2: { /* every other token of [1, 128, 768]: x[:, ::2, :] */
        int64_t dims[3] = {1, 128, 768}, three = 3;
        const int32_t zero[3] = {0, 0, 0}, strides[3] = {1, 2, 1};
        s->in[0] = mk(TX_FLOAT32, 3, dims, FILL_BYTES);
        s->in[1] = mk_ints(1, &three, zero);
        s->in[2] = mk_ints(1, &three, zero);
        s->in[3] = mk_ints(1, &three, strides);
        s->a = s->b = 7;
        s->bytes = nb(s->in[0]); /* reads half, writes half */
        break;
    }
    case 3: { /* a KV cache: two [1, 32, 512, 128] float16 blocks joined along the sequence */
        int64_t dims[4] = {1, 32, 512, 128};
        s->in[0] = mk(TX_FLOAT16, 4, dims, FILL_BYTES);
        s->in[1] = mk(TX_FLOAT16, 4, dims, FILL_BYTES);
        s->a = 2;
        s->bytes = 4 * nb(s->in[0]);
        break;
    }
    case 4: /* 128 class labels, depth 1000 */
        s->in[0] = mk_index(128, 1000, NULL);
        s->bytes = nb(s->in[0]) + 128 * 1000 * 4;
        break;
    default: { /* one hidden vector to bfloat16 */
        int64_t dims[2] = {1, 4096};
        s->in[0] = mk(TX_FLOAT32, 2, dims, FILL_FLOAT);
        s->a = TX_BFLOAT16;
        s->bytes = nb(s->in[0]) + 4096 * 2;
        break;
    }
    }
}

const workload WORKLOADS[] = {
    /* core */
    {"copy_f32_64M", "core", setup_copy, run_copy, 0, 0},
    /* casting */
    {"cast_f32_f16", "casting", setup_cast, run_cast, TX_FLOAT32, TX_FLOAT16, call_cast},
    {"cast_f16_f32", "casting", setup_cast, run_cast, TX_FLOAT16, TX_FLOAT32, call_cast},
    {"cast_f32_bf16", "casting", setup_cast, run_cast, TX_FLOAT32, TX_BFLOAT16, call_cast},
    {"cast_f32_i32", "casting", setup_cast, run_cast, TX_FLOAT32, TX_INT32, call_cast},
    {"cast_i32_f32", "casting", setup_cast, run_cast, TX_INT32, TX_FLOAT32, call_cast},
    {"cast_f64_f32", "casting", setup_cast, run_cast, TX_FLOAT64, TX_FLOAT32, call_cast},
    {"cast_u8_f32", "casting", setup_cast, run_cast, TX_UINT8, TX_FLOAT32, call_cast},
    {"saturate_cast_f32_u8", "casting", setup_saturate, run_saturate, 0, 0},
    {"cast_f32_e4m3fn", "casting", setup_cast, run_cast, TX_FLOAT32, TX_FLOAT8_E4M3FN, call_cast},
    {"cast_f32_e2m1fn_packed", "casting", setup_cast_packed, run_cast_packed, TX_FLOAT32,
     TX_FLOAT4_E2M1FN, call_cast_pack},
    {"cast_f32_e8m0", "casting", setup_cast, run_cast, TX_FLOAT32, TX_FLOAT8_E8M0FNU, call_cast},
    {"bitcast_f32_i32", "casting", setup_bitcast, run_bitcast, 0, 0},
    {"decode_raw_le_i16", "casting", setup_decode_one, run_decode, TX_INT16, 1},
    {"decode_raw_be_i16", "casting", setup_decode_one, run_decode, TX_INT16, 0},
    {"decode_raw_le_f32", "casting", setup_decode_one, run_decode, TX_FLOAT32, 1},
    {"decode_raw_be_f32", "casting", setup_decode_one, run_decode, TX_FLOAT32, 0},
    {"decode_raw_records_1M_x64", "casting", setup_decode_records, run_decode, 0, 0},
    /* reorder */
    {"transpose_8192x8192", "reorder", setup_transpose, run_transpose, 0, 0, call_transpose},
    {"transpose_64x512x512_021", "reorder", setup_transpose, run_transpose, 1, 0, call_transpose},
    {"transpose_64x512x512_201", "reorder", setup_transpose, run_transpose, 2, 0, call_transpose},
    {"transpose_nhwc_nchw_32x224x224x3", "reorder", setup_transpose, run_transpose, 3, 0, call_transpose},
    {"concat_2x4096x4096_axis0", "reorder", setup_concat, run_concat, 0, 0, call_concat},
    {"concat_2x4096x4096_axis1", "reorder", setup_concat, run_concat, 1, 0, call_concat},
    {"reverse_8192x8192_axis1", "reorder", setup_reverse, run_reverse, 0, 0},
    {"split_4096x4096_axis1_x4", "reorder", setup_split, run_split, 0, 0},
    /* slicing */
    {"pad_4096x4096_16_constant", "slicing", setup_pad, run_pad, TX_PAD_CONSTANT, 0, call_pad},
    {"pad_4096x4096_16_reflect", "slicing", setup_pad, run_pad, TX_PAD_REFLECT, 0, call_pad},
    {"tile_1024x1024_4x4", "slicing", setup_tile, run_tile, 0, 0},
    {"strided_slice_8192x8192_s2_rev", "slicing", setup_strided, run_strided, 0, 0, call_strided},
    /* gather */
    {"gather_rows_1Mx64_1M", "gather", setup_gather_rows, run_gather, 0, 0, call_gather},
    {"gather_axis1_4096x4096", "gather", setup_gather_axis1, run_gather, 0, 0, call_gather},
    {"gather_nd_1024x1024x16_1M", "gather", setup_gather_nd, run_gather_nd, 0, 0},
    {"boolean_mask_4096x4096_half", "gather", setup_boolean_mask, run_boolean_mask, 0, 0},
    {"one_hot_1M_depth1000", "gather", setup_one_hot, run_one_hot, 0, 0, call_one_hot},
    {"unique_with_counts_16M_1000", "gather", setup_unique, run_unique, 0, 0},
    /* spatial */
    {"space_to_depth_8x256x256x64_b2", "spatial", setup_s2d, run_s2d, 0, 0, call_s2d},
    {"depth_to_space_8x256x256x64_b2", "spatial", setup_s2d, run_s2d, 1, 0, call_s2d},
    {"space_to_batch_nd_8x256x256x64_b2", "spatial", setup_s2b, run_s2b, 0, 0},
    {"batch_to_space_nd_32x128x128x64_b2", "spatial", setup_s2b, run_s2b, 1, 0},
    /* inference shapes (per-call cost matters here: timed over many calls) */
    {"infer_embedding_gather_30522x768_128", "inference", setup_infer, run_gather, 0, 0, call_gather},
    {"infer_nhwc_nchw_1x224x224x3", "inference", setup_infer, run_transpose, 1, 0, call_transpose},
    {"infer_strided_slice_1x128x768_s2", "inference", setup_infer, run_strided, 2, 0, call_strided},
    {"infer_concat_kv_f16_1x32x512x128_x2", "inference", setup_infer, run_concat, 3, 0, call_concat},
    {"infer_one_hot_128_depth1000", "inference", setup_infer, run_one_hot, 4, 0, call_one_hot},
    {"infer_cast_f32_bf16_1x4096", "inference", setup_infer, run_cast, 5, 0, call_cast},
};
const size_t NUM_WORKLOADS = sizeof WORKLOADS / sizeof *WORKLOADS;
