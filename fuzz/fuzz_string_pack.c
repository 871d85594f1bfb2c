/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_string_pack.c -- OpenVINO's StringTensorPack on arbitrary begins/ends/symbols and
 * StringTensorUnpack on what it makes (src/ops/string_pack.c).  Input:
 *   u8 flags: bit 0 begins int64 (else int32), bit 1 ends of the other index dtype, bits 2-3 the
 *      shape: 0 [n], 1 [n/2, 2], 2 scalar (n = 1), 3 ends one element longer than begins;
 *      bit 4 symbols of another dtype (int8), bit 5 symbols 2-D
 *   u8 n (mod 64), then n begins and n ends (fz_int each), then the symbol bytes.
 * A successful pack is checked element by element against symbols[begin:end], then unpacked and
 * packed again, which must give the same strings. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

static tx_tensor *index_tensor(tx_dtype dt, size_t rank, const int64_t *dims, const int64_t *v, size_t n) {
    tx_tensor *t = NULL;
    if (tx_tensor_new(dt, rank, dims, &t) != TX_OK) fz_die("index tensor: %s", tx_last_error());
    for (size_t i = 0; i < n; i++) {
        if (dt == TX_INT64) ((int64_t *)tx_tensor_data(t))[i] = v[i];
        else ((int32_t *)tx_tensor_data(t))[i] = (int32_t)(uint32_t)(uint64_t)v[i];
    }
    return t;
}

static int64_t get_index(const tx_tensor *t, int64_t i) {
    if (tx_tensor_dtype(t) == TX_INT64) return ((const int64_t *)tx_tensor_data_const(t))[i];
    return ((const int32_t *)tx_tensor_data_const(t))[i];
}

static bool same_strings(const tx_tensor *a, const tx_tensor *b) {
    if (tx_tensor_numel(a) != tx_tensor_numel(b) || tx_tensor_rank(a) != tx_tensor_rank(b)) return false;
    for (int64_t i = 0; i < tx_tensor_numel(a); i++) {
        const tx_string *x = tx_tensor_string(a, i), *y = tx_tensor_string(b, i);
        if (x->size != y->size || (x->size && memcmp(x->data, y->data, (size_t)x->size))) return false;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_alloc_setup();
    fz_in in = {data, size};
    uint8_t flags = fz_u8(&in);
    size_t n = fz_u8(&in) % 64;
    int shape = (flags >> 2) & 3;
    if (shape == 2) n = 1;
    int64_t b[65], e[65];
    for (size_t i = 0; i < n; i++) b[i] = fz_int(&in);
    for (size_t i = 0; i < n + 1; i++) e[i] = fz_int(&in);
    const uint8_t *sym;
    size_t nsym = fz_bytes(&in, in.n, &sym);

    long live = fz_alloc_live();
    tx_dtype bt = (flags & 1) ? TX_INT64 : TX_INT32;
    tx_dtype et = (flags & 2) ? (bt == TX_INT64 ? TX_INT32 : TX_INT64) : bt;
    int64_t bdims[2], edims[2];
    size_t brank, erank;
    switch (shape) {
    case 0: brank = erank = 1; bdims[0] = edims[0] = (int64_t)n; break;
    case 1: brank = erank = 2; bdims[0] = edims[0] = (int64_t)n / 2; bdims[1] = edims[1] = 2; break;
    case 2: brank = erank = 0; break;
    default: brank = erank = 1; bdims[0] = (int64_t)n; edims[0] = (int64_t)n + 1; break;
    }
    size_t count = shape == 1 ? n / 2 * 2 : n;
    tx_tensor *begins = index_tensor(bt, brank, bdims, b, count);
    tx_tensor *ends = index_tensor(et, erank, edims, e, shape == 3 ? n + 1 : count);
    int64_t sdims[2] = {(int64_t)nsym, 1};
    tx_tensor *symbols = NULL;
    if (tx_tensor_from_data((flags & 16) ? TX_INT8 : TX_UINT8, (flags & 32) ? 2 : 1, sdims, sym, nsym, &symbols) != TX_OK)
        fz_die("symbols tensor: %s", tx_last_error());

    tx_tensor *out = NULL;
    tx_status st = tx_string_tensor_pack(begins, ends, symbols, &out);
    if (st != TX_OK) {
        fz_check_failure(st, "string_tensor_pack", tx_last_error());
        if (out) fz_die("string_tensor_pack failed but set *out");
    } else {
        fz_check_tensor(out, "string_tensor_pack");
        for (int64_t i = 0; i < tx_tensor_numel(out); i++) {
            int64_t bi = get_index(begins, i), ei = get_index(ends, i);
            const tx_string *s = tx_tensor_string(out, i);
            if (bi < 0 || ei < bi || (uint64_t)ei > nsym) fz_die("string_tensor_pack accepted [%lld, %lld) of %zu symbols", (long long)bi, (long long)ei, nsym);
            if (s->size != (uint64_t)(ei - bi) || (s->size && memcmp(s->data, sym + bi, (size_t)s->size)))
                fz_die("string_tensor_pack: element %lld is not symbols[%lld:%lld]", (long long)i, (long long)bi, (long long)ei);
        }
    }
    tx_tensor_free(begins);
    tx_tensor_free(ends);
    tx_tensor_free(symbols);
    if (out) {
        fz_check_tensor(out, "string_tensor_pack after its inputs were freed");
        tx_tensor *parts[3] = {NULL, NULL, NULL};
        st = tx_string_tensor_unpack(out, parts);
        if (st != TX_OK) fz_die("string_tensor_unpack of a packed tensor: %s", tx_last_error());
        tx_tensor *again = NULL;
        st = tx_string_tensor_pack(parts[0], parts[1], parts[2], &again);
        if (st != TX_OK) fz_die("pack(unpack(x)): %s", tx_last_error());
        if (!same_strings(out, again)) fz_die("pack(unpack(x)) differs from x");
        for (int i = 0; i < 3; i++) tx_tensor_free(parts[i]);
        tx_tensor_free(again);
        tx_tensor_free(out);
    }
    if (fz_alloc_live() != live) fz_die("string pack leaked %ld block(s)", fz_alloc_live() - live);
    return 0;
}
