/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_decode.c -- tf.io.decode_raw (with and without fixed_length) and tf.strings.to_number on
 * arbitrary bytes (src/ops/decode.c).  Input:
 *   u8 out_type of decode_raw (index into fz_dtypes, invalid values included)
 *   u8 flags: bit 0 little_endian, bit 1 fixed_length given, bits 2-4 string_to_number's out_type
 *      (float32, float64, int32, int64, then others TF refuses), bits 5-6 the shape: 0 scalar,
 *      1 vector, 2 [2, n/2] (n rounded down), 3 [n, 0...] a vector then a zero-size tensor
 *   fixed_length (fz_int) when bit 1 is set
 *   the strings: u8 length (255: u16 length follows), then the bytes, until the input ends.
 * decode_raw's result is checked against the input: n = length / size elements per string, each
 * string's bytes in order (or reversed per element for big-endian). */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

static const tx_dtype number_types[8] = {TX_FLOAT32, TX_FLOAT64, TX_INT32, TX_INT64,
                                         TX_UINT8,   TX_STRING,  TX_BOOL,  (tx_dtype)77};

#define MAX_STRINGS 64

/* Checks a successful decode_raw without fixed_length against the bytes it read. */
static void check_decoded(const tx_tensor *in, const tx_tensor *out, tx_dtype type, int little) {
    size_t es = tx_dtype_size(type);
    int64_t n = tx_tensor_numel(in);
    size_t r = tx_tensor_rank(in);
    if (tx_tensor_dtype(out) != type || tx_tensor_rank(out) != r + 1) fz_die("decode_raw: result has the wrong dtype or rank");
    for (size_t i = 0; i < r; i++)
        if (tx_tensor_dims(out)[i] != tx_tensor_dims(in)[i]) fz_die("decode_raw: leading dims differ from the input's");
    int64_t per = tx_tensor_dims(out)[r];
    const unsigned char *o = tx_tensor_data_const(out);
    /* Complex types swap each part on their own. */
    size_t unit = tx_dtype_kind_of(type) == TX_KIND_COMPLEX ? es / 2 : es;
    bool swap = (little != 0) != (TX_HOST_LITTLE_ENDIAN != 0) && unit > 1 && type != TX_BOOL;
    for (int64_t i = 0; i < n; i++) {
        const tx_string *s = tx_tensor_string(in, i);
        if ((int64_t)(s->size / es) != per || s->size % es) fz_die("decode_raw: string %lld of %llu bytes gave %lld elements", (long long)i, (unsigned long long)s->size, (long long)per);
        const unsigned char *src = (const unsigned char *)s->data;
        for (uint64_t b = 0; b < s->size; b++) {
            uint64_t within = b % unit, base = b - within;
            unsigned char want = src[swap ? base + unit - 1 - within : b];
            unsigned char got = o[(size_t)i * (size_t)per * es + b];
            if (type == TX_BOOL) want = want != 0;
            if (got != want) fz_die("decode_raw: string %lld byte %llu is %u, want %u", (long long)i, (unsigned long long)b, got, want);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    fz_in in = {data, size};
    tx_dtype raw_type = fz_dtypes[fz_u8(&in) % (FZ_NDTYPES + 2)];
    uint8_t flags = fz_u8(&in);
    int little = flags & 1;
    int64_t fixed = (flags & 2) ? fz_int(&in) : 0;
    tx_dtype num_type = number_types[(flags >> 2) & 7];
    int shape = (flags >> 5) & 3;

    const char *ptrs[MAX_STRINGS];
    size_t lens[MAX_STRINGS];
    size_t n = 0;
    while (in.n && n < MAX_STRINGS) {
        size_t len = fz_u8(&in);
        if (len == 255) len = fz_u16(&in);
        const uint8_t *b;
        lens[n] = fz_bytes(&in, len, &b);
        ptrs[n++] = (const char *)b;
    }
    int64_t dims[3];
    size_t rank;
    switch (shape) {
    case 0: rank = 0; if (n == 0) { ptrs[0] = ""; lens[0] = 0; } break;
    case 1: rank = 1; dims[0] = (int64_t)n; break;
    case 2: rank = 2; dims[0] = 2; dims[1] = (int64_t)n / 2; break;
    default: rank = 3; dims[0] = (int64_t)n; dims[1] = 0; dims[2] = (int64_t)1 << 40; break;
    }
    long live = fz_alloc_live();
    tx_tensor *t = NULL;
    tx_status st = tx_tensor_new_strings(rank, dims, ptrs, lens, &t);
    if (st != TX_OK) fz_die("tx_tensor_new_strings: %s", tx_last_error());

    tx_tensor *out = NULL;
    st = tx_decode_raw(t, raw_type, little, (flags & 2) ? &fixed : NULL, &out);
    if (st != TX_OK) {
        fz_check_failure(st, "decode_raw", tx_last_error());
        if (out) fz_die("decode_raw failed but set *out");
    } else {
        fz_check_tensor(out, "decode_raw");
        if (!(flags & 2)) check_decoded(t, out, raw_type, little);
    }
    tx_tensor *num = NULL;
    st = tx_string_to_number(t, num_type, &num);
    if (st != TX_OK) {
        fz_check_failure(st, "string_to_number", tx_last_error());
        if (num) fz_die("string_to_number failed but set *out");
    } else {
        fz_check_tensor(num, "string_to_number");
    }
    tx_tensor_free(t);
    if (out) fz_check_tensor(out, "decode_raw after its input was freed");
    tx_tensor_free(out);
    tx_tensor_free(num);
    if (fz_alloc_live() != live) fz_die("decode leaked %ld block(s)", fz_alloc_live() - live);
    return 0;
}
