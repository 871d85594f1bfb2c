/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz_tensorproto.c -- parse_tensor and serialize_tensor (src/io/tensor_proto.c, over the wire
 * reader and writer src/io/proto_wire.c) on arbitrary bytes.  Input: u8 out_type (its DataType
 * number % 36: every TF dtype, and values tensorx has no dtype for), then the serialized TensorProto (the rest).  Checked:
 *   - parse_tensor succeeds or fails with invalid_argument (resource_exhausted for a shape past
 *     the fuzzer's byte limit), *out NULL on failure, the output readable to its last byte (its
 *     strings point into the input);
 *   - a parsed tensor round-trips: serialize_tensor writes it, parse_tensor reads that back equal,
 *     and serializing that gives the same bytes again (parse(serialize(parse(x))) == parse(x));
 *   - replaying, every allocation of the parse failed in turn: resource_exhausted, nothing
 *     returned, nothing leaked. */
#include "fuzz.h"

#include <string.h>

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    fz_alloc_setup();
    return 0;
}

static tx_tensor *scalar_of(const uint8_t *b, size_t n) {
    const char *data[1] = {(const char *)b};
    size_t lens[1] = {n};
    tx_tensor *t = NULL;
    if (tx_tensor_new_strings(0, NULL, data, lens, &t) != TX_OK)
        fz_die("tensorproto: tensor_new_strings failed: %s", tx_last_error());
    return t;
}

static bool same_tensor(const tx_tensor *a, const tx_tensor *b) {
    if (tx_tensor_dtype(a) != tx_tensor_dtype(b) || tx_tensor_rank(a) != tx_tensor_rank(b) ||
        memcmp(tx_tensor_dims(a), tx_tensor_dims(b), tx_tensor_rank(a) * sizeof(int64_t)) != 0)
        return false;
    if (tx_tensor_dtype(a) != TX_STRING)
        return memcmp(tx_tensor_data_const(a), tx_tensor_data_const(b), tx_tensor_nbytes(a)) == 0;
    const tx_string *x = tx_tensor_data_const(a), *y = tx_tensor_data_const(b);
    for (int64_t i = 0; i < tx_tensor_numel(a); i++)
        if (x[i].size != y[i].size || (x[i].size && memcmp(x[i].data, y[i].data, x[i].size)))
            return false;
    return true;
}

static tx_string bytes_of(const tx_tensor *t) { return *(const tx_string *)tx_tensor_data_const(t); }

/* serialize(t), parse of that, serialize again: equal tensors, equal bytes. */
static void round_trip(const tx_tensor *t, tx_dtype out_type) {
    tx_tensor *s1 = NULL, *t2 = NULL, *s2 = NULL;
    tx_status st = tx_serialize_tensor(t, &s1);
    /* The serialized bytes are larger than the tensor (tags, lengths): a tensor near the size cap
     * may serialize past it.  Any other failure breaks the round trip. */
    if (st == TX_RESOURCE_EXHAUSTED && strstr(tx_last_error(), "exceed the limit")) return;
    if (st != TX_OK) fz_die("tensorproto: serialize of a parsed tensor failed: %s", tx_last_error());
    fz_check_tensor(s1, "tensorproto serialized");
    if (tx_parse_tensor(s1, out_type, &t2) != TX_OK)
        fz_die("tensorproto: parse of serialize_tensor's bytes failed: %s", tx_last_error());
    if (!same_tensor(t, t2)) fz_die("tensorproto: parse(serialize(t)) differs from t");
    if (tx_serialize_tensor(t2, &s2) != TX_OK) fz_die("tensorproto: second serialize failed");
    tx_string a = bytes_of(s1), b = bytes_of(s2);
    if (a.size != b.size || memcmp(a.data, b.data, a.size) != 0)
        fz_die("tensorproto: serialize is not stable over a round trip");
    tx_tensor_free(s2);
    tx_tensor_free(t2);
    tx_tensor_free(s1);
}

static void sweep_allocations(const tx_tensor *ser, tx_dtype out_type, long live) {
    for (long k = 1;; k++) {
        tx_tensor *o = NULL;
        fz_alloc_fail_at(k);
        tx_status st = tx_parse_tensor(ser, out_type, &o);
        bool failed = fz_alloc_failed();
        fz_alloc_fail_at(0);
        if (st != TX_OK && o) fz_die("tensorproto: output set on failure");
        tx_tensor_free(o);
        if (fz_alloc_live() != live) fz_die("tensorproto: a leak with allocation %ld failing", k);
        if (!failed) return;
        if (st != TX_RESOURCE_EXHAUSTED) fz_die("tensorproto: allocation %ld failed, status %d", k, (int)st);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_in in = {data, size};
    const tx_dtype out_type = (tx_dtype)(fz_u8(&in) % 36);
    const uint8_t *b;
    size_t n = fz_bytes(&in, in.n, &b);
    tx_tensor *ser = scalar_of(b, n);
    const long live = fz_alloc_live();
    tx_tensor *o = (tx_tensor *)&o;
    tx_status st = tx_parse_tensor(ser, out_type, &o);
    if (st == TX_OK) {
        fz_check_tensor(o, "tensorproto output");
        if (tx_tensor_dtype(o) != out_type) fz_die("tensorproto: output of another dtype");
        round_trip(o, out_type);
    } else {
        fz_check_failure(st, "tensorproto", tx_last_error());
        if (st != TX_INVALID_ARGUMENT && st != TX_RESOURCE_EXHAUSTED)
            fz_die("tensorproto: status %d: %s", (int)st, tx_last_error());
        if (o) fz_die("tensorproto: output set on failure");
    }
    tx_tensor_free(o);
    if (fz_alloc_live() != live) fz_die("tensorproto: %ld blocks leaked", fz_alloc_live() - live);
    if (fz_replay_mode && st == TX_OK) sweep_allocations(ser, out_type, live);
    tx_tensor_free(ser);
    return 0;
}
