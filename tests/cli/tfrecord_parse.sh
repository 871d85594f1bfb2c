#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tfrecord_parse.sh -- `tensorx tfrecord parse`: a TFRecord file's Examples through parse_example
# and decode_raw to .npy files in one streamed pass.  The records are written here from the
# formats' definitions (protobuf wire format, TFRecord framing); the expected arrays are computed
# here with NumPy and saved with np.save, so every output must be np.save's very bytes, whatever
# the batch size (one record, a few, all).  Also: compressed files, an empty file, the errors,
# all outputs or none, and memory bounded by a batch (ulimit -d), not by the file.
source "$(dirname "$0")/lib.sh"
T=$TX_TMP
/usr/bin/python3 - "$T" <<'PY'
import gzip, os, struct, sys
import numpy as np
d = sys.argv[1]
TABLE = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ (0x82F63B78 & -(c & 1))
    TABLE.append(c)
def crc32c(data):
    c = 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF
def masked(data):
    c = crc32c(data)
    return struct.pack("<I", (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF)
def framed(recs):
    out = b""
    for r in recs:
        n = struct.pack("<Q", len(r))
        out += n + masked(n) + r + masked(r)
    return out
def varint(n):
    n &= (1 << 64) - 1
    out = b""
    while True:
        b, n = n & 0x7F, n >> 7
        if not n:
            return out + bytes([b])
        out += bytes([b | 0x80])
def ld(field, payload):
    return bytes([field << 3 | 2]) + varint(len(payload)) + payload
def example(features):  # {key: ("bytes"|"float"|"int64", [values])}
    body = b""
    for k, (kind, vals) in features.items():
        if kind == "bytes":
            lst = ld(1, b"".join(ld(1, v) for v in vals))
        elif kind == "float":
            lst = ld(2, ld(1, struct.pack("<%df" % len(vals), *vals)))
        else:
            lst = ld(3, ld(1, b"".join(varint(v) for v in vals)))
        body += ld(1, ld(1, k.encode()) + ld(2, lst))
    return ld(1, body)
rng = np.random.default_rng(7)
N = 37
labels = rng.integers(-2**40, 2**40, N)
pixels = rng.integers(0, 256, (N, 6), dtype=np.uint8)
weights = rng.random((N, 2), dtype=np.float32)
tags = [list(rng.integers(-5, 100, i % 4)) for i in range(N)]
recs = [example({"label": ("int64", [int(labels[i])]), "image/raw": ("bytes", [pixels[i].tobytes()]),
                 "w": ("float", list(weights[i])), "tags": ("int64", [int(t) for t in tags[i]])})
        for i in range(N)]
open(os.path.join(d, "d.tfrecord"), "wb").write(framed(recs))
open(os.path.join(d, "d.tfrecord.gz"), "wb").write(gzip.compress(framed(recs)))
open(os.path.join(d, "empty.tfrecord"), "wb").write(b"")
np.save(os.path.join(d, "want_label.npy"), labels.astype(np.int64))
np.save(os.path.join(d, "want_image_raw.npy"), pixels)
np.save(os.path.join(d, "want_w.npy"), weights)
# image/raw as int16 in big-endian byte order: three values a record
np.save(os.path.join(d, "want_image_be.npy"), pixels.view(">i2").astype(np.int16))
idx = [(i, j) for i in range(N) for j in range(len(tags[i]))]
np.save(os.path.join(d, "want_tags.indices.npy"), np.array(idx, dtype=np.int64).reshape(-1, 2))
np.save(os.path.join(d, "want_tags.values.npy"), np.array([t for ts in tags for t in ts], dtype=np.int64))
np.save(os.path.join(d, "want_tags.dense_shape.npy"), np.array([N, max(map(len, tags))], dtype=np.int64))
np.save(os.path.join(d, "want_empty_label.npy"), np.zeros(0, np.int64))
np.save(os.path.join(d, "want_empty_w.npy"), np.zeros((0, 2), np.float32))
np.save(os.path.join(d, "want_empty_tags.dense_shape.npy"), np.zeros(2, np.int64))
# A record whose image is a byte short (the 30th), a record that is no Example (the 20th), and a
# damaged one (the 12th's data checksum).
short = list(recs)
short[29] = example({"label": ("int64", [1]), "image/raw": ("bytes", [b"12345"]), "w": ("float", [0, 0])})
open(os.path.join(d, "short.tfrecord"), "wb").write(framed(short))
bad = list(recs)
bad[19] = b"\xff\xff"
open(os.path.join(d, "bad_example.tfrecord"), "wb").write(framed(bad))
damaged = bytearray(framed(recs))
off = sum(16 + len(r) for r in recs[:11])
damaged[off + 12] ^= 1
open(os.path.join(d, "damaged.tfrecord"), "wb").write(bytes(damaged))
# For the memory check: 2,000 records of an 8 KiB bytes feature (16 MiB), as a string array
# that tensorx writes as a TFRecord file below.
big = np.array([example({"img": ("bytes", [bytes([i % 251 + 1]) * 8192])}) for i in range(2000)])
np.save(os.path.join(d, "big_records.npy"), big)
PY

FEATURES=(sparse_keys='["tags"]' sparse_types=int64 dense_keys='["label","image/raw","w"]'
          dense_defaults='[]:int64,[]:string,[]' dense_shapes='[],[],[2]')
same_files() { # DIR PREFIX: every output equals its want_ file
    local f
    for f in label image_raw w tags.indices tags.values tags.dense_shape; do
        cmp "$1/$2$f.npy" "$T/want_$f.npy" || return 1
    done
}
for batch in 1 5 36 37 1024; do
    mkdir -p "$T/b$batch"
    "$TX" tfrecord parse "$T/d.tfrecord" batch=$batch "${FEATURES[@]}" decode=image/raw:uint8 -o "$T/b$batch/{}.npy"
    check "batch=$batch: np.save's bytes of every output" same_files "$T/b$batch" ""
done
if [ "$TX_ZLIB" = 1 ]; then
    mkdir -p "$T/gz"
    "$TX" tfrecord parse "$T/d.tfrecord.gz" batch=10 "${FEATURES[@]}" decode=image/raw:uint8 -o "$T/gz/{}.npy"
    check "a gzip'd file (compression from the name)" same_files "$T/gz" ""
fi
mkdir -p "$T/each"
"$TX" tfrecord parse "$T/d.tfrecord" "${FEATURES[@]}" decode=image/raw:uint8 -o "$T/each/i.npy" \
    -o "$T/each/v.npy" -o "$T/each/s.npy" -o "$T/each/l.npy" -o "$T/each/p.npy" -o "$T/each/w.npy"
check "-o once per output, in parse_example's order" bash -c "cmp '$T/each/i.npy' '$T/want_tags.indices.npy' &&
    cmp '$T/each/s.npy' '$T/want_tags.dense_shape.npy' && cmp '$T/each/p.npy' '$T/want_image_raw.npy'"
"$TX" tfrecord parse "$T/d.tfrecord" batch=4 dense_keys='["image/raw"]' dense_defaults='[]:string' \
    dense_shapes='[]' decode=image/raw:int16 little_endian=false -o "$T/be{}.npy"
check "decode= with little_endian=false" cmp "$T/beimage_raw.npy" "$T/want_image_be.npy"
"$TX" tfrecord parse "$T/empty.tfrecord" "${FEATURES[@]}" decode=image/raw:uint8 -o "$T/empty_{}.npy"
check "an empty file: empty outputs" bash -c "cmp '$T/empty_label.npy' '$T/want_empty_label.npy' &&
    cmp '$T/empty_w.npy' '$T/want_empty_w.npy' && cmp '$T/empty_tags.dense_shape.npy' '$T/want_empty_tags.dense_shape.npy'"

# ---- errors: nothing is written, and files already there are kept ----
echo keep >"$T/k_label.npy"
expect_fail "a value of another length, in a later batch" invalid_argument \
    "decode_raw of 'image/raw': DecodeRaw requires input strings to all be the same size, but element 29 has size 5 != 6" -- \
    tfrecord parse "$T/short.tfrecord" batch=8 "${FEATURES[@]}" decode=image/raw:uint8 -o "$T/k_{}.npy"
check "a failure keeps the files there" bash -c "[ \"\$(cat '$T/k_label.npy')\" = keep ] && [ ! -e '$T/k_w.npy' ]"
expect_fail "a record that is no Example: its number" invalid_argument "parse_example: Could not parse example input" -- \
    tfrecord parse "$T/bad_example.tfrecord" batch=8 "${FEATURES[@]}" decode=image/raw:uint8 -o "$T/k_{}.npy"
expect_fail "a wrong kind of list names the record" invalid_argument "Name: record 0, Key: w, Index: 0.  Data types don't match" -- \
    tfrecord parse "$T/d.tfrecord" dense_keys='["w"]' dense_defaults='[]:int64' dense_shapes='[2]' -o "$T/k_{}.npy"
expect_fail "a damaged record" data_loss "corrupted record at" -- \
    tfrecord parse "$T/damaged.tfrecord" batch=3 "${FEATURES[@]}" decode=image/raw:uint8 -o "$T/k_{}.npy"
check "a damaged record leaves no file" bash -c "[ \"\$(cat '$T/k_label.npy')\" = keep ] && [ ! -e '$T/k_w.npy' ]"
expect_fail "bytes without decode=" usage "'image/raw' holds bytes, which a streamed .npy cannot" -- \
    tfrecord parse "$T/d.tfrecord" "${FEATURES[@]}" -o "$T/k_{}.npy"
expect_fail "decode= of a key that is not dense" usage "decode: 'tags' is not a key of dense_keys" -- \
    tfrecord parse "$T/d.tfrecord" "${FEATURES[@]}" decode=tags:uint8 -o "$T/k_{}.npy"
expect_fail "decode= of numbers" usage "decode: 'label' is int64, not bytes" -- \
    tfrecord parse "$T/d.tfrecord" "${FEATURES[@]}" decode=image/raw:uint8,label:uint8 -o "$T/k_{}.npy"
expect_fail "decode= an unknown dtype" usage "decode: unknown dtype 'uint7'" -- \
    tfrecord parse "$T/d.tfrecord" "${FEATURES[@]}" decode=image/raw:uint7 -o "$T/k_{}.npy"
expect_fail "decode_raw's own rule" invalid_argument "decode=image/raw: decode_raw: Input to DecodeRaw has length 6 that is not a multiple of 4" -- \
    tfrecord parse "$T/d.tfrecord" "${FEATURES[@]}" decode=image/raw:float32 -o "$T/k_{}.npy"
expect_fail "-o count" usage "the call makes 6 outputs and -o is given 2 times" -- \
    tfrecord parse "$T/d.tfrecord" "${FEATURES[@]}" decode=image/raw:uint8 -o "$T/a.npy" -o "$T/b.npy"
expect_fail "-o stdout" usage "tfrecord parse writes .npy files" -- \
    tfrecord parse "$T/d.tfrecord" dense_keys='["label"]' dense_defaults='[]:int64' dense_shapes='[]' -o -
expect_fail "-o two outputs to one file" usage "would both be written to" -- \
    tfrecord parse "$T/d.tfrecord" dense_keys='["a/b","a_b"]' dense_defaults='[]:int64,[]:int64' dense_shapes='[],[]' -o "$T/{}.npy"
expect_fail "batch=0" usage "batch='0': a number of records from 1 to 2^30" -- \
    tfrecord parse "$T/d.tfrecord" "${FEATURES[@]}" batch=0 -o "$T/k_{}.npy"
expect_fail "serialized= is the file's" usage "'serialized' is not taken" -- \
    tfrecord parse "$T/d.tfrecord" serialized='["x"]' "${FEATURES[@]}" -o "$T/k_{}.npy"
expect_fail "parse_example's own argument check" usage "unknown argument 'dense_key'; did you mean 'dense_keys'?" -- \
    tfrecord parse "$T/d.tfrecord" dense_key='["label"]' -o "$T/k_{}.npy"
expect_fail "a missing file" io_error "cannot read '$T/no.tfrecord'" -- \
    tfrecord parse "$T/no.tfrecord" dense_keys='["label"]' dense_defaults='[]:int64' dense_shapes='[]' -o "$T/k_{}.npy"

# ---- memory: bounded by a batch, not by the file ----
# 16 MiB of records through batches of 16 (128 KiB decoded each) under an 8 MiB data limit.
# Sanitizer builds keep shadow memory and an emulator its own heap: there the check is skipped.
"$TX" reshape tensor="$T/big_records.npy" shape=-1 -o "$T/big.tfrecord"
if [ -z "${TX_TEST_EMULATOR:-}" ] && bash -c "ulimit -d 8192; \"\$0\" --version; exit \$?" "$TX" >/dev/null 2>&1; then
    check "ulimit -d 8 MiB: 16 MiB of records to a 16 MiB .npy" bash -c "(ulimit -d 8192; exec '$TX' tfrecord parse '$T/big.tfrecord' \
        batch=16 dense_keys='[\"img\"]' dense_defaults='[]:string' dense_shapes='[]' decode=img:uint8 -o '$T/big_{}.npy') &&
        /usr/bin/python3 -c \"import numpy as np; a = np.load('$T/big_img.npy'); assert a.shape == (2000, 8192); assert (a[:, 0] == np.arange(2000) % 251 + 1).all() and (a == a[:, :1]).all()\""
    check "ulimit -d: the limit bites (all records in one batch do not fit)" bash -c "! (ulimit -d 8192; exec '$TX' tfrecord parse '$T/big.tfrecord' \
        batch=2000 dense_keys='[\"img\"]' dense_defaults='[]:string' dense_shapes='[]' decode=img:uint8 -o '$T/big_{}.npy') 2>/dev/null"
else
    echo "note: ulimit -d checks skipped (a sanitizer build or an emulator)"
fi
finish
