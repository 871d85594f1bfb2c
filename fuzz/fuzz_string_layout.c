/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_string_layout.c -- the readers of foreign string layouts (src/io/string_layouts.c) on
 * arbitrary bytes.  Input:
 *   u8 flags: bit 0 ONNX Runtime (else TF_TString records), bit 1 int64 offsets (else uint64),
 *      bits 2-3 the shape: 0 [n], 1 [n/2, 2], 2 scalar (n = 1), 3 [n] with n records or offsets
 *      fewer than the data hold;
 *   u8 n (mod 16);
 *   TF: the record bytes (24 per element, then the OFFSET strings' bytes: any bytes);
 *   ORT: n offsets (fz_int each), then the content bytes.
 * A successful read is checked element by element against the layout's rule, written back in the
 * same layout, read again and compared; the unpack of the result must give the same bytes. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

static bool same_strings(const tx_tensor *a, const tx_tensor *b) {
    if (tx_tensor_numel(a) != tx_tensor_numel(b) || tx_tensor_rank(a) != tx_tensor_rank(b)) return false;
    for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
        const tx_string *x = tx_tensor_string(a, i), *y = tx_tensor_string(b, i);
        if (x->size != y->size || (x->size && memcmp(x->data, y->data, (size_t)x->size))) return false;
    }
    return true;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Element i of TF records as the layout defines it (SMALL or OFFSET; the reader accepted it). */
static void check_tf_element(const uint8_t *rec, size_t size, int64_t i, const tx_string *s) {
    const uint8_t *r = rec + (size_t)i * 24;
    size_t len;
    const uint8_t *src;
    if ((r[0] & 3) == 0) {
        len = r[0] >> 2;
        src = r + 1;
    } else if ((r[0] & 3) == 2) {
        len = le32(r) >> 2;
        src = r + le32(r + 4);
        if ((size_t)(src - rec) > size || len > size - (size_t)(src - rec)) fz_die("string_tensor_from_tf accepted an OFFSET past the buffer");
    } else {
        fz_die("string_tensor_from_tf accepted a pointer record without allow_pointers");
    }
    if (s->size != len || (len && memcmp(s->data, src, len))) fz_die("string_tensor_from_tf: element %lld differs from its record", (long long)i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    fz_in in = {data, size};
    uint8_t flags = fz_u8(&in);
    size_t n = fz_u8(&in) % 16;
    int shape = (flags >> 2) & 3;
    if (shape == 2) n = 1;
    if (shape == 1) n = n / 2 * 2;
    int64_t dims[2] = {(int64_t)n, 2};
    size_t rank = shape == 2 ? 0 : 1;
    if (shape == 1) dims[0] = (int64_t)n / 2, rank = 2;
    const bool ort = flags & 1;
    int64_t offs[16];
    if (ort)
        for (size_t i = 0; i < n; i++) offs[i] = fz_int(&in);
    const uint8_t *bytes;
    size_t nbytes = fz_bytes(&in, in.n, &bytes);
    if (shape == 3 && n > 0) n--, dims[0]--; /* fewer elements than the data describe */

    long live = fz_alloc_live();
    tx_tensor *out = NULL, *content = NULL, *offsets = NULL;
    tx_status st;
    if (ort) {
        int64_t cd = (int64_t)nbytes;
        if (tx_tensor_from_data(TX_UINT8, 1, &cd, bytes, nbytes, &content) != TX_OK ||
            tx_tensor_from_data((flags & 2) ? TX_INT64 : TX_UINT64, rank, dims, offs, n * 8, &offsets) != TX_OK)
            fz_die("ort inputs: %s", tx_last_error());
        st = tx_string_tensor_from_ort(content, offsets, &out);
    } else {
        st = tx_string_tensor_from_tf(nbytes ? bytes : NULL, nbytes, rank, dims, 0, &out);
    }
    const char *what = ort ? "string_tensor_from_ort" : "string_tensor_from_tf";
    if (st != TX_OK) {
        fz_check_failure(st, what, tx_last_error());
        if (out) fz_die("%s failed but set *out", what);
    } else {
        fz_check_tensor(out, what);
        for (int64_t i = 0; i < tx_tensor_numel(out); i++) {
            const tx_string *s = tx_tensor_string(out, i);
            if (!ort) {
                check_tf_element(bytes, nbytes, i, s);
                continue;
            }
            uint64_t b = (uint64_t)offs[i], e = i + 1 < (int64_t)n ? (uint64_t)offs[i + 1] : nbytes;
            if ((i == 0 && b != 0) || e < b || e > nbytes) fz_die("string_tensor_from_ort accepted offsets [%llu, %llu)", (unsigned long long)b, (unsigned long long)e);
            if (s->size != e - b || (s->size && memcmp(s->data, bytes + b, (size_t)s->size))) fz_die("string_tensor_from_ort: element %lld differs", (long long)i);
        }
    }
    tx_tensor_free(content);
    tx_tensor_free(offsets);
    if (out) { /* write it back, read it again, unpack it */
        tx_tensor *again = NULL, *parts[3] = {NULL, NULL, NULL};
        if (ort) {
            if (tx_string_tensor_to_ort(out, parts) != TX_OK) fz_die("to_ort: %s", tx_last_error());
            if (tx_string_tensor_from_ort(parts[0], parts[1], &again) != TX_OK) fz_die("from_ort(to_ort(x)): %s", tx_last_error());
        } else {
            if (tx_string_tensor_to_tf(out, (flags & 2) ? TX_TSTRING_VIEW : TX_TSTRING_OFFSET, &parts[0]) != TX_OK) fz_die("to_tf: %s", tx_last_error());
            if (tx_string_tensor_from_tf(tx_tensor_data_const(parts[0]), tx_tensor_nbytes(parts[0]), rank, dims, (flags & 2) != 0, &again) != TX_OK)
                fz_die("from_tf(to_tf(x)): %s", tx_last_error());
        }
        if (!same_strings(out, again)) fz_die("%s: the round trip differs", what);
        for (int k = 0; k < 3; k++) tx_tensor_free(parts[k]);
        if (tx_string_tensor_unpack(again, parts) != TX_OK) fz_die("unpack: %s", tx_last_error());
        tx_tensor_free(again);
        again = NULL;
        if (tx_string_tensor_pack(parts[0], parts[1], parts[2], &again) != TX_OK) fz_die("pack(unpack(x)): %s", tx_last_error());
        for (int k = 0; k < 3; k++) tx_tensor_free(parts[k]);
        if (!same_strings(out, again)) fz_die("pack(unpack(x)) differs");
        tx_tensor_free(again);
        tx_tensor_free(out);
    }
    if (fz_alloc_live() != live) fz_die("string layouts leaked %ld block(s)", fz_alloc_live() - live);
    return 0;
}
