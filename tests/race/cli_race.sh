#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cli_race.sh -- the racing mutator harness, CLI half: the CLI ($TX) runs ops whose .npy inputs it
# maps in place (index, mask, length and offset inputs of 1 MiB or more, tx_npy_load) while a
# second process rewrites those files' data bytes in place, in the same inode (pwrite, never a new
# file): runs of mask bytes set to 1, indices grown past their bound, huge and negative values,
# valid ids moved to another partition, bit flips.  Between its writes it puts the original bytes
# back, so that an op's checks pass at one moment and its later passes see other values.  An op
# may fail (status 1: a changed input is the caller's error), compute a wrong result or succeed;
# it must never die by a signal or make a sanitizer report (docs/reliability.md).
#   TX=build/asan/tensorx bash tests/race/cli_race.sh [CASE...]
# TX_RACE_SECONDS: total time (default 16, split over the cases); TX_RACE_MIN_TRIES: tries per
# case at least, however long they take (default 8); TX_RACE_SEED: the mutators' seed (default:
# random, printed); CASE: run only the cases named (default: all).  Exit status 0 when nothing
# was caught, 1 otherwise (each catch printed with its command and the report), 2 when the
# harness itself cannot run (a case that fails on its untouched inputs, no writer).
set -u
: "${TX:?TX must point at the tensorx binary}"
PY=${TX_RACE_PYTHON:-python3}
SECONDS_TOTAL=${TX_RACE_SECONDS:-16}
SEED=${TX_RACE_SEED:-$RANDOM$RANDOM}
MIN_TRIES=${TX_RACE_MIN_TRIES:-8} # per case, however long they take (a loaded machine)
# A sanitizer build: errors are reported (not aborted on a huge allocation), leaks too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
W=$(mktemp -d)
MUT=
cleanup() {
    [ -n "$MUT" ] && kill "$MUT" 2>/dev/null && wait "$MUT" 2>/dev/null
    rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- the inputs: written once, each data region >= 1 MiB so that the CLI maps it ----
"$PY" - "$W" <<'EOF' || { echo "cli_race: cannot make the inputs"; exit 1; }
import struct, sys
w = sys.argv[1]
def save(name, descr, shape, fmt, values):
    d = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d," % s for s in shape))
    pad = -(10 + len(d) + 1) % 64
    with open("%s/%s" % (w, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(d) + pad + 1) + d.encode() +
                b" " * pad + b"\n")
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))
N = 1 << 20
save("f32.npy", "<f4", [N], "f", [float(i % 977) for i in range(N)])
save("mask.npy", "|b1", [N], "B", [1 if i % 1024 == 0 else 0 for i in range(N)])
save("params.npy", "<f4", [1024, 1024], "f", [float(i % 1013) for i in range(N)])
save("rows.npy", "<f4", [1024, 1], "f", [float(i) for i in range(1024)])
save("idx.npy", "<i4", [N], "i", [(i * 7) % 1024 for i in range(N)])
save("idx_nd.npy", "<i4", [N // 2, 2], "i", [(i * 5) % 1024 for i in range(N)])
save("parts.npy", "<i4", [N], "i", [i % 4 for i in range(N)])
H = N // 2  # dynamic_stitch: evens and odds, each a 2 MiB index file
save("st_i0.npy", "<i4", [H], "i", list(range(0, N, 2)))
save("st_i1.npy", "<i4", [H], "i", list(range(1, N, 2)))
save("st_d0.npy", "<f4", [H], "f", [1.0] * H)
save("st_d1.npy", "<f4", [H], "f", [2.0] * H)
B = N // 4  # reverse_sequence and sequence_mask: 262144 lengths of at most 4
save("rs_in.npy", "<f4", [B, 4], "f", [float(i % 4) for i in range(N)])
save("lens.npy", "<i4", [B], "i", [i % 5 for i in range(B)])
# string_tensor_pack: 262144 strings, all symbols[524286:524288], so that the op copies those 2
# bytes only; a range moved past them (still inside the symbols, which are read into memory, as
# they are under 1 MiB) is read from outside that copy when the result is written.  Only valid
# ranges of at most 128 bytes are written: the .npy is as wide as the longest string.
S = N // 4
save("begins.npy", "<i4", [S], "i", [524286] * S)
save("ends.npy", "<i4", [S], "i", [524288] * S)
save("symbols.npy", "|u1", [1044480], "B", [97 + i % 26 for i in range(1044480)])
O = N // 8  # string_tensor_from_ort: 131072 start offsets of 16 bytes each
save("offsets.npy", "<i8", [O], "q", [16 * i for i in range(O)])
save("content.npy", "|u1", [16 * O], "B", [65 + i % 26 for i in range(16 * O)])
save("rec_b.npy", "<i4", [65536], "i", [24 * i for i in range(65536)])
save("rec_e.npy", "<i4", [65536], "i", [24 * i + 24 for i in range(65536)])
EOF
# string_tensor_from_tf's records: the CLI's own, for 65536 strings of 24 bytes (2 MiB).
"$TX" string_tensor_pack begins="$W/rec_b.npy" ends="$W/rec_e.npy" symbols="$W/content.npy" \
    -o "$W/strs.npy" &&
    "$TX" string_tensor_to_tf data="$W/strs.npy" -o "$W/records.npy" ||
    { echo "cli_race: cannot make the records"; exit 1; }

# ---- the mutator: rewrites the named files' data in place until killed ----
# Each spec is FILE:KIND:LO:HI -- KIND mask (bool bytes set to 1), i4 / i8 (integers; valid
# values in [LO, HI)), i4+ / i8+ (ascending integers: a valid run repeats the value before it),
# i4= / i8= (valid values only), u1 (bytes).  Every write is undone (the original bytes put
# back) within a few milliseconds, then the next burst comes.
cat >"$W/mutate.py" <<'EOF'
import collections, os, random, signal, struct, sys, time
rng = random.Random(int(sys.argv[1]))
files = []
for spec in sys.argv[2:]:
    path, kind, lo, hi = spec.split(":")
    fd = os.open(path, os.O_RDWR)  # the same inode: never truncated, never replaced
    head = os.pread(fd, 10, 0)
    off = 10 + struct.unpack("<H", head[8:10])[0]
    size = os.fstat(fd).st_size - off
    files.append((fd, kind, int(lo), int(hi), off, size, os.pread(fd, size, off)))
open(sys.argv[0] + ".ready", "w").close()  # the files are open: the tries may start
dirty = []
def restore():  # a few ranges one by one, many as the whole file's data in one write
    per_file = collections.Counter(fd for fd, _, _ in dirty)
    many = {fd for fd, n in per_file.items() if n > 32}
    for fd, off, orig in dirty:
        if fd not in many:
            os.pwrite(fd, orig, off)
    for fd, kind, lo, hi, off, size, orig in files:
        if fd in many:
            os.pwrite(fd, orig, off)
    dirty.clear()
def stop(*_):
    restore()
    os._exit(0)
signal.signal(signal.SIGTERM, stop)
def ints(kind, lo, hi, count, valid, prev):
    item, fmt = (8, "q") if kind.startswith("i8") else (4, "i")
    top = (1 << (8 * item - 1)) - 1
    mode = rng.choice((0, 4)) if valid or kind.endswith("=") else rng.randrange(6)
    if mode == 5:
        return None
    if prev is not None and mode in (0, 4):  # ascending: the value before, repeated
        pick = lambda: prev
    elif mode == 0:  # one valid value over a run: counts and maxima move
        one = rng.choice((lo, hi - 1, rng.randrange(lo, hi)))
        pick = lambda: one
    elif mode == 1:  # grown past the bound, a little or a lot
        pick = lambda: rng.choice((hi, hi + 1, hi + rng.randrange(1 << 16), 2 * hi, top))
    elif mode == 2:  # negative
        pick = lambda: rng.choice((-1, -hi, -top - 1, -rng.randrange(1, 1 << 20)))
    elif mode == 3:  # huge
        pick = lambda: top - rng.randrange(1 << 10)
    else:            # anything valid
        pick = lambda: rng.randrange(lo, hi)
    pattern = [pick() for _ in range(min(count, 64))]  # repeated over longer runs: fast
    v = (pattern * (count // len(pattern) + 1))[:count]
    return struct.pack("<%d%s" % (count, fmt), *v), item
def mutate(valid):
    fd, kind, lo, hi, off, size, orig = rng.choice(files)
    item = {"i4": 4, "i8": 8}.get(kind[:2], 1)
    runs = (1, 4, 16, 64) if kind == "mask" else (1, 4, 64, 1024, 16384)  # a mask fills slowly
    count = min(rng.choice(runs), size // item)
    at = rng.randrange(size // item - count + 1) * item
    data = None
    if kind == "mask":
        data = b"\x01" * count
    elif item > 1:
        prev = None
        if kind.endswith("+"):
            prev = struct.unpack_from("<q" if item == 8 else "<i", orig, at - item)[0] if at else lo
        made = ints(kind, lo, hi, count, valid, prev)
        data = made[0] if made else None
    elif rng.randrange(2):
        data = bytes(rng.randrange(256) for _ in range(min(count, 256)))
    if data is None:  # a bit flipped
        at = rng.randrange(size)
        data = bytes([orig[at] ^ (1 << rng.randrange(8))])
    dirty.append((fd, off + at, orig[at:at + len(data)]))
    os.pwrite(fd, data, off + at)
# Half the time, values an op's checks accept (moved partition ids, longer ranges, more true
# mask bytes), written without a pause for up to 30 ms: whatever pass reads them, the counts and
# bounds of an earlier pass no longer hold (a mask only gains true bytes).  Otherwise any value:
# clean for a while (an op's checks pass), then a burst of writes (its later passes see them),
# held a little.  Then undone.
valid_only = all(f[1] == "mask" or f[1].endswith("=") for f in files)
while True:
    restore()
    if valid_only or rng.randrange(2) == 0:
        until = time.monotonic() + rng.uniform(0.002, 0.03)
        while time.monotonic() < until:
            mutate(True)
        continue
    time.sleep(rng.uniform(0, 0.01))
    for _ in range(rng.randrange(1, 40)):
        mutate(False)
        if rng.randrange(4) == 0:
            time.sleep(rng.uniform(0, 0.001))
    time.sleep(rng.uniform(0, 0.003))
EOF

# ---- the cases: NAME|ARGUMENTS (files as @NAME@)|OUTPUT|MUTATED FILE SPECS ----
# OUTPUT: 1 (-o a file or /dev/null), n (-o with {}), p (printed: strings, whose .npy would be
# as wide as the longest string a mutation makes, times their count).
CASES=(
"boolean_mask|tensor=@f32@ mask=@mask@|1|mask:mask:0:2"
"gather|params=@rows@ indices=@idx@ axis=0|1|idx:i4:0:1024"
"gather_clamp|params=@rows@ indices=@idx@ axis=0 oob=clamp|1|idx:i4:0:1024"
"gather_nd|params=@params@ indices=@idx_nd@|1|idx_nd:i4:0:1024"
"dynamic_partition|data=@f32@ partitions=@parts@ num_partitions=4|n|parts:i4:0:4"
"dynamic_stitch|indices=@st_i0@,@st_i1@ data=@st_d0@,@st_d1@|1|st_i0:i4:0:1048576 st_i1:i4:0:1048576"
"reverse_sequence|input=@rs_in@ seq_lengths=@lens@ seq_dim=1 batch_dim=0|1|lens:i4:0:5"
"sequence_mask|lengths=@lens@|1|lens:i4:0:5"
"one_hot|indices=@parts@ depth=4|1|parts:i4:0:4"
"unique_with_counts|x=@idx@|n|idx:i4:0:1024"
"string_tensor_pack|begins=@begins@ ends=@ends@ symbols=@symbols@|1|begins:i4=:524224:524287 ends:i4=:524288:524352"
"string_tensor_from_ort|content=@content@ offsets=@offsets@|p|offsets:i8+:0:2097152"
"string_tensor_from_tf|records=@records@ shape=[65536]|p|records:u1:0:256"
"reverse|tensor=@f32@ axis=[0]|1|f32:u1:0:256"
"transpose|a=@params@ perm=1,0|1|params:u1:0:256"
)
want=("$@")
selected=()
for c in "${CASES[@]}"; do
    name=${c%%|*}
    if [ ${#want[@]} -eq 0 ] || [[ " ${want[*]} " == *" $name "* ]]; then selected+=("$c"); fi
done
[ ${#selected[@]} -gt 0 ] || { echo "cli_race: no case named ${want[*]}"; exit 2; }
# Time per case, in milliseconds (at least 300).
per_ms=$((SECONDS_TOTAL * 1000 / ${#selected[@]}))
[ "$per_ms" -ge 300 ] || per_ms=300
echo "cli_race: $TX, ${#selected[@]} cases, ${per_ms} ms each, seed $SEED"

now_ms() { date +%s%3N; }
# A catch: a signal, a sanitizer report, a status the CLI does not document, or a hang.
caught() { # RC ERRFILE
    [ "$1" -gt 1 ] || grep -qE 'Sanitizer|runtime error:' "$2"
}
catches=()
total_tries=0
start_all=$(now_ms)
for c in "${selected[@]}"; do
    IFS='|' read -r name args outs specs <<<"$c"
    op=${name%%_clamp}
    args=$(sed "s|@\([a-z0-9_]*\)@|$W/\1.npy|g" <<<"$args")
    end=$(($(now_ms) + per_ms))
    mspecs=()
    for s in $specs; do mspecs+=("$W/${s%%:*}.npy:${s#*:}"); done
    # Once untouched first: the case itself must succeed, or the race would prove nothing.
    # shellcheck disable=SC2086
    if ! "$TX" "$op" $args --max-bytes 256M >/dev/null 2>"$W/err"; then
        echo "cli_race: $name fails on its untouched inputs:"
        cat "$W/err"
        exit 2
    fi
    rm -f "$W/mutate.py.ready"
    "$PY" "$W/mutate.py" "$SEED" "${mspecs[@]}" &
    MUT=$!
    while [ ! -e "$W/mutate.py.ready" ] && kill -0 "$MUT" 2>/dev/null; do sleep 0.01; done
    [ -e "$W/mutate.py.ready" ] || { echo "cli_race: the writer did not start"; exit 2; }
    tries=0 ok=0 errs=0 hit=
    while [ "$(now_ms)" -lt "$end" ] || [ "$tries" -lt "$MIN_TRIES" ]; do
        tries=$((tries + 1))
        # Alternately to a device (the result in memory, where ASan sees an overflow) and to a
        # file (a mapped output, made in the file when the plan allows).
        if [ "$outs" = p ]; then out=()
        elif [ "$outs" = n ]; then out=(-o "$W/out{}.npy")
        elif [ $((tries % 2)) = 1 ]; then out=(-o /dev/null)
        else out=(-o "$W/out.npy"); fi
        # shellcheck disable=SC2086
        timeout -k 5 120 "$TX" "$op" $args --max-bytes 256M "${out[@]}" >/dev/null 2>"$W/err"
        rc=$?
        if caught "$rc" "$W/err"; then
            hit=$tries
            echo "CAUGHT $name on try $tries (exit $rc): $TX $op $args --max-bytes 256M ${out[*]}"
            head -n 40 "$W/err"
            break
        fi
        if [ "$rc" = 0 ]; then ok=$((ok + 1)); else errs=$((errs + 1)); fi
    done
    kill "$MUT" 2>/dev/null
    wait "$MUT" 2>/dev/null
    MUT=
    total_tries=$((total_tries + tries))
    if [ -n "$hit" ]; then
        catches+=("$name (try $hit)")
    else
        echo "ok $name: $tries tries ($ok succeeded, $errs op errors)"
    fi
done
secs=$((($(now_ms) - start_all) / 1000))
if [ ${#catches[@]} -gt 0 ]; then
    echo "cli_race: caught ${#catches[@]} of ${#selected[@]} cases in ${secs} s ($total_tries tries, seed $SEED): ${catches[*]}"
    exit 1
fi
echo "cli_race: nothing caught in ${#selected[@]} cases, $total_tries tries, ${secs} s (seed $SEED)"
