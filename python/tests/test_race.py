# SPDX-License-Identifier: Apache-2.0
"""Racing writers: every op of the op table runs again and again on NumPy arrays that
other threads rewrite in place meanwhile.  The extension wraps C-contiguous arrays without a copy
and releases the GIL while an op runs, so the writers really race the op: they restore an input's
valid bytes, wait a random moment, then write bad ones -- indices grown past the dim, large and
negative values, mask bytes set to 1 (and to 2 and 255), offsets and sizes past the end, bit
flips, random bytes -- so that an op which validates an input and reads it again sees a changed
value the second time.  An op may then give an error (tensorx.Error) or a wrong result; it must
never crash, read or write out of bounds (the ASan stage of scripts/test.sh runs this file), or
give memory from elsewhere: where the data inputs stand still, each result's values must come
from them (or be 0, a fill).

TX_RACE_SECONDS (default 12) is the time for all the ops together, shared by weight: the ops
that validate an index, mask, length or offset input and use it later get the most (0.84 s each
by default), the ones with other control inputs less, the data-only ones 0.08 s.  A long run by hand:
    TX_RACE_SECONDS=600 python -m pytest -q python/tests/test_race.py
or, one process per op (a crash then names its op and the time it took):
    python python/tests/test_race.py [SECONDS_PER_OP] [OP ...]
"""
import ctypes
import os
import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
import tensorx as tx

SECONDS = float(os.environ.get("TX_RACE_SECONDS", "12"))
WRITERS = 2  # threads per attacked input (the machines have 2 cores and more)
I32 = np.iinfo(np.int32)


# ---- what the writers write -------------------------------------------------------------------
def _bytes_of(value, dtype):
    """value's bytes in dtype, wrapped as C would store it (a bit pattern, not a range check)."""
    return np.array(value, dtype=np.int64).astype(dtype).tobytes() \
        if np.dtype(dtype).kind in "iu" else np.array(value, dtype=dtype).tobytes()


def index_patches(arr, dim, rng, extra=(), sizing=False):
    """Patches (byte offset, bytes) for an integer control input over a dim of size `dim`: one
    element or all of them set to the dim, past it, to huge and negative values; bit flips.
    sizing: the input may size the output (a multiple, a padding, a crop, an index whose max sizes
    it), so its values stay within 4 * dim + 8 either way and only its low bits flip -- a
    legitimately huge output would only spend the run's time and the machine's memory."""
    dt, n, size = arr.dtype, arr.size, arr.dtype.itemsize
    bad = [dim, dim + 1, 2 * dim + 7, 4 * dim + 8, -1, -2, -dim - 1, -2 * dim - 7] + list(extra)
    if not sizing:
        bad += [I32.max, I32.min, 1 << 40, -(1 << 62), (1 << 63) - 1]
    out = []
    for v in bad:
        b = _bytes_of(v, dt)
        out += [(size * int(k), b) for k in rng.integers(0, n, 8)]
        out.append((0, b * n))  # every element
    if sizing:
        raw = arr.reshape(-1).view(np.uint8)
        for k in rng.integers(0, n, 32):  # the low byte (little-endian), bits 0-5
            out.append((size * int(k), bytes([raw[size * k] ^ (1 << int(rng.integers(6)))])))
        return out
    return out + flip_patches(arr, rng)


def flip_patches(arr, rng, count=64):
    """Single-bit flips and random bytes at random places of arr's valid bytes."""
    raw = arr.reshape(-1).view(np.uint8)
    out = []
    for k in rng.integers(0, raw.size, count):
        out.append((int(k), bytes([raw[k] ^ (1 << int(rng.integers(8)))])))
        out.append((int(k), bytes([int(rng.integers(256))])))
    return out


def mask_patches(arr, rng):
    """A bool mask: all bytes 1 (more true entries than counted), single bytes 1, 2, 255."""
    n = arr.size
    out = [(0, b"\x01" * n), (0, b"\x02" * n), (0, b"\xff" * n)]
    for k in rng.integers(0, n, 32):
        out += [(int(k), b"\x01"), (int(k), b"\x02"), (int(k), b"\xff")]
    return out + [(0, b"\x01" * (n // 2))]


class Writer:
    """Threads that rewrite one array's bytes in place until stopped: restore its valid bytes,
    spin a random while, write a patch or two, spin again (ctypes.memmove: the bytes move without
    the GIL)."""

    def __init__(self, arr, patches, seed):
        assert arr.flags.c_contiguous and arr.flags.writeable and arr.dtype != object
        self.arr, self.good, self.patches = arr, arr.tobytes(), patches
        self.seed, self.stop, self.threads = seed, threading.Event(), []

    def _run(self, seed):
        rnd = random.Random(seed)
        base, good, n = self.arr.ctypes.data, self.good, len(self.good)
        patches = [(base + off, b, len(b)) for off, b in self.patches if off + len(b) <= n]
        picks = [rnd.randrange(len(patches)) for _ in range(4096)]
        spins = [rnd.choice((0, 3, 30, 300, 3000)) for _ in range(4096)]  # up to ~50 us
        memmove, i = ctypes.memmove, 0
        while not self.stop.is_set():
            i = (i + 1) & 4095
            memmove(base, good, n)
            for _ in range(spins[i]):
                pass
            addr, b, size = patches[picks[i]]
            memmove(addr, b, size)
            if i & 1:
                addr, b, size = patches[picks[i - 1]]
                memmove(addr, b, size)
            for _ in range(spins[i - 1]):
                pass

    def __enter__(self):
        for k in range(WRITERS):
            t = threading.Thread(target=self._run, args=(self.seed * 10 + k,), daemon=True)
            t.start()
            self.threads.append(t)
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for t in self.threads:
            t.join()
        ctypes.memmove(self.arr.ctypes.data, self.good, len(self.good))


# ---- checks of a result -----------------------------------------------------------------------
def within(*sources):
    """Every value of every numeric result lies in the range of the sources' values (each source
    an arange-like array or a few values), or is 0: memory from elsewhere (heap pointers, ASan's
    fill bytes) does not."""
    flat = np.concatenate([np.asarray(s, np.float64).reshape(-1) for s in sources])
    lo, hi = flat.min(), flat.max()

    def check(out):
        for o in out if isinstance(out, (list, tuple)) else [out]:
            o = np.asarray(o)
            if o.size and o.dtype != object:
                v = o.reshape(-1).astype(np.float64)
                bad = ~(((v >= lo) & (v <= hi)) | (v == 0))
                assert not bad.any(), f"values from nowhere: {o.reshape(-1)[bad][:8]}"
    return check


def substrings_of(buf):
    """Every string of the result is a piece of buf (the symbols or content input)."""
    whole = bytes(buf)

    def check(out):
        for s in np.asarray(out).reshape(-1):
            assert s in whole, f"a string from nowhere: {s[:40]!r}"
    return check


# ---- the cases --------------------------------------------------------------------------------
def _cases():
    """name -> (weight, make(rng) -> (call, [(array, patches)], check)).  The call reads the
    arrays it is given; the attacked arrays are C-contiguous, so tensorx wraps them as they are."""
    C = {}

    def case(name, weight=1):
        def put(make):
            C[name] = (weight, make)
            return make
        return put

    @case("boolean_mask", 10)
    def _(rng):
        data = np.arange(1, 1 + (1 << 16), dtype=np.int32).reshape(1 << 14, 4)
        mask = np.zeros(1 << 14, bool)
        mask[::64] = True
        return (lambda: tx.boolean_mask(data, mask)), [(mask, mask_patches(mask, rng))], \
            within(data)

    @case("dynamic_partition", 10)
    def _(rng):
        data = np.arange(1, 1 + (1 << 14), dtype=np.int32)
        parts = (np.arange(1 << 14) % 4).astype(np.int32)
        patches = index_patches(parts, 4, rng, extra=(0, 3))
        return (lambda: tx.dynamic_partition(data, parts, 4)), [(parts, patches)], within(data)

    @case("dynamic_stitch", 10)
    def _(rng):
        n = 1 << 13
        idx = [np.arange(0, 2 * n, 2, dtype=np.int32), np.arange(1, 2 * n, 2, dtype=np.int32)]
        data = [np.arange(1, n + 1, dtype=np.float32), -np.arange(1, n + 1, dtype=np.float32)]
        return (lambda: tx.dynamic_stitch(idx, data)), \
            [(idx[0], index_patches(idx[0], 2 * n, rng, sizing=True)),
             (idx[1], index_patches(idx[1], 2 * n, rng, extra=(4 * n,), sizing=True))], \
            within(*data)

    for oob in ("error", "zero", "clamp", "wrap"):
        @case(f"gather.{oob}", 10 if oob == "error" else 1)
        def _(rng, oob=oob):
            params = np.arange(1, 1 + 1024 * 8, dtype=np.int64).reshape(1024, 8)
            idx = rng.integers(0, 1024, 4096).astype(np.int32)
            return (lambda: tx.gather(params, idx, oob=oob)), \
                [(idx, index_patches(idx, 1024, rng))], within(params)

    @case("gather_nd", 10)
    def _(rng):
        params = np.arange(1, 1 + 64 * 64 * 4, dtype=np.float64).reshape(64, 64, 4)
        idx = rng.integers(0, 64, (1 << 13, 2)).astype(np.int64)
        return (lambda: tx.gather_nd(params, idx)), [(idx, index_patches(idx, 64, rng))], \
            within(params)

    @case("string_tensor_pack", 10)
    def _(rng):
        symbols = np.frombuffer(bytes(range(256)) * 64, np.uint8).copy()
        n = 4096
        begins = (np.arange(n, dtype=np.int64) * 4)
        ends = begins + 3
        return (lambda: tx.string_tensor_pack(begins, ends, symbols)), \
            [(begins, index_patches(begins, symbols.size, rng, extra=(0,))),
             (ends, index_patches(ends, symbols.size, rng, extra=(symbols.size,)))], \
            substrings_of(symbols)

    @case("string_tensor_from_ort", 10)
    def _(rng):
        content = np.frombuffer(bytes(range(256)) * 64, np.uint8).copy()
        offsets = (np.arange(4096, dtype=np.uint64) * 4)
        return (lambda: tx.string_tensor_from_ort(content, offsets)), \
            [(offsets, index_patches(offsets, content.size, rng, extra=(0, 1)))], \
            substrings_of(content)  # an offset read as 0 the second time: a string too long

    @case("string_tensor_from_tf", 10)
    def _(rng):
        strings = [bytes([65 + k % 26]) * (k % 61) for k in range(2048)]  # SMALL and OFFSET
        records = np.array(tx.string_tensor_to_tf(np.array(strings, dtype=object)))
        n = len(strings)
        patches = flip_patches(records, rng, 256)
        words = records[:24 * n].view("<u4").reshape(n, 6)
        all_grown = records.copy()
        for k in range(n):  # sizes grown but valid: a SMALL string of 22, an OFFSET one to the end
            small = words[k, 0] & 3 == 0
            grown = 22 << 2 if small else ((records.size - 24 * k - int(words[k, 1])) << 2) | 2
            b = _bytes_of(grown, np.uint32)[:1 if small else 4]
            patches.append((24 * k, b))
            all_grown[24 * k:24 * k + len(b)] = np.frombuffer(b, np.uint8)
        patches += [(0, all_grown.tobytes())] * 64  # every size grown at once, often
        for k in rng.integers(0, n, 64):  # each record's size and offset words
            for v in (23 << 2, (1 << 30) | 2, (records.size << 2) | 2, 0xFFFFFFFF, 1, 3):
                patches.append((24 * int(k), _bytes_of(v, np.uint32)))
            for v in (records.size, records.size - 1, 1 << 31, 0xFFFFFFFF):
                patches.append((24 * int(k) + 4, _bytes_of(v, np.uint32)))
        return (lambda: tx.string_tensor_from_tf(records, [n])), [(records, patches)], None

    @case("reverse_sequence", 10)
    def _(rng):
        x = np.arange(1, 1 + 128 * 64 * 32, dtype=np.int32).reshape(128, 64, 32)  # 1 MiB: the
        lens = rng.integers(0, 65, 128).astype(np.int64)  # output's allocation widens the window
        return (lambda: tx.reverse_sequence(x, lens, 1, 0)), \
            [(lens, index_patches(lens, 64, rng))], within(x)

    @case("unique_with_counts", 2)
    def _(rng):
        x = rng.integers(0, 100, 4096).astype(np.int32)
        b = (rng.integers(0, 2, 4096)).astype(bool)
        return (lambda: (tx.unique_with_counts(x), tx.unique_with_counts(b, sorted=True))), \
            [(x, index_patches(x, 100, rng)), (b, mask_patches(b, rng))], None

    @case("one_hot", 2)
    def _(rng):
        idx = rng.integers(0, 16, 4096).astype(np.int32)
        return (lambda: tx.one_hot(idx, 16, on_value=7, off_value=5, dtype="int32")), \
            [(idx, index_patches(idx, 16, rng))], within(np.array([7, 5], np.int32))

    @case("sequence_mask", 2)
    def _(rng):
        lens = rng.integers(0, 64, 2048).astype(np.int32)
        maxlen = np.array(64, np.int32)
        return (lambda: tx.sequence_mask(lens, maxlen)), \
            [(lens, index_patches(lens, 64, rng)),
             (maxlen, index_patches(maxlen, 64, rng, sizing=True))], \
            None

    @case("tile", 2)
    def _(rng):
        x = np.arange(1, 1 + 64 * 16, dtype=np.int16).reshape(64, 16)
        mult = np.array([3, 2], np.int32)
        return (lambda: tx.tile(x, mult)), [(mult, index_patches(mult, 4, rng, sizing=True))], \
            within(x)

    @case("pad", 2)
    def _(rng):
        x = np.arange(1, 1 + 64 * 64, dtype=np.float32).reshape(64, 64)
        pads = np.array([[2, 3], [1, 4]], np.int32)
        return (lambda: (tx.pad(x, pads), tx.pad(x, pads, mode="REFLECT"),
                         tx.pad(x, pads, mode="SYMMETRIC"))), \
            [(pads, index_patches(pads, 64, rng, sizing=True))], within(x)

    @case("slice", 2)
    def _(rng):
        x = np.arange(1, 1 + 128 * 64, dtype=np.int32).reshape(128, 64)
        begin, size = np.array([5, 7], np.int64), np.array([100, 50], np.int64)
        return (lambda: tx.slice(x, begin, size)), \
            [(begin, index_patches(begin, 64, rng)),
             (size, index_patches(size, 128, rng, sizing=True))], \
            within(x)

    @case("strided_slice", 2)
    def _(rng):
        x = np.arange(1, 1 + 128 * 64, dtype=np.int32).reshape(128, 64)
        b, e, s = (np.array(v, np.int32) for v in ([1, 60], [120, 2], [3, -2]))
        return (lambda: tx.strided_slice(x, b, e, s)), \
            [(b, index_patches(b, 128, rng)), (e, index_patches(e, 128, rng)),
             (s, index_patches(s, 4, rng))], within(x)

    @case("split", 1)
    def _(rng):
        x = np.arange(1, 1 + 96 * 64, dtype=np.int32).reshape(96, 64)
        return (lambda: (tx.split(x, 0, num_split=3), tx.split(x, 1, size_splits=[10, -1, 20]))), \
            [(x, flip_patches(x, rng))], None

    @case("reshape", 1)
    def _(rng):
        x = np.arange(1, 1 + 64 * 64, dtype=np.int32)
        shape = np.array([64, -1], np.int32)
        return (lambda: tx.reshape(x, shape)), \
            [(shape, index_patches(shape, 64, rng, sizing=True))], \
            within(x)

    @case("transpose", 1)
    def _(rng):
        x = np.arange(1, 1 + 16 * 32 * 8, dtype=np.int32).reshape(16, 32, 8)
        perm = np.array([2, 0, 1], np.int32)
        return (lambda: tx.transpose(x, perm)), [(perm, index_patches(perm, 3, rng))], within(x)

    @case("reverse", 1)
    def _(rng):
        x = np.arange(1, 1 + 16 * 32 * 8, dtype=np.int32).reshape(16, 32, 8)
        dims = np.array([True, False, True])  # TensorFlow's Reverse: a bool per dim
        return (lambda: tx.reverse(x, dims)), [(dims, mask_patches(dims, rng))], within(x)

    @case("space_to_batch_nd", 1)
    def _(rng):
        x = np.arange(1, 1 + 2 * 16 * 16 * 3, dtype=np.float32).reshape(2, 16, 16, 3)
        block, pads = np.array([2, 4], np.int32), np.array([[0, 2], [4, 0]], np.int32)
        return (lambda: tx.space_to_batch_nd(x, block, pads)), \
            [(block, index_patches(block, 4, rng, sizing=True)),
             (pads, index_patches(pads, 16, rng, sizing=True))], \
            within(x)

    @case("batch_to_space_nd", 1)
    def _(rng):
        x = np.arange(1, 1 + 8 * 8 * 8 * 3, dtype=np.float32).reshape(8, 8, 8, 3)
        block, crops = np.array([2, 4], np.int32), np.array([[1, 2], [3, 0]], np.int32)
        return (lambda: (tx.batch_to_space_nd(x, block, crops),
                         tx.batch_to_space_nd(x, block, crops, oob="clamp"))), \
            [(block, index_patches(block, 4, rng, sizing=True)),
             (crops, index_patches(crops, 8, rng, sizing=True))], \
            within(x)

    @case("required_space_to_batch_paddings", 1)
    def _(rng):
        shape, block = np.array([30, 17], np.int64), np.array([4, 3], np.int64)
        base = np.array([[1, 0], [0, 2]], np.int64)
        return (lambda: tx.required_space_to_batch_paddings(shape, block, base)), \
            [(shape, index_patches(shape, 32, rng, sizing=True)),
             (block, index_patches(block, 4, rng, sizing=True)),
             (base, index_patches(base, 4, rng, sizing=True))], None

    @case("decode_raw", 1)
    def _(rng):
        b = np.array([bytes(range(64)) * 4] * 64, dtype="S256")
        return (lambda: (tx.decode_raw(b, "int32"), tx.decode_raw(b, "int16", fixed_length=200))), \
            [(b, flip_patches(b, rng) + [(256 * int(k) + 255, b"\0") for k in range(64)])], None

    @case("string_to_number", 1)
    def _(rng):
        b = np.array([b"%d.%de%d" % (k, k * 7, k % 30) for k in range(1024)], dtype="S24")
        patches = flip_patches(b, rng, 256) + \
            [(int(k), b"\0") for k in rng.integers(0, b.nbytes, 64)]
        return (lambda: (tx.string_to_number(b, out_type="float64"),)), [(b, patches)], None

    return C


CASES = _cases()
# ops not above: data inputs only (or int attributes), from the per-op examples, with their
# numeric and bytes inputs made writable C-contiguous arrays and attacked with flips and bad values


def _generic(op, args, kwargs):
    params = {p[0]: p[1] for p in next(ps for n, _, ps in tx._C.ops() if n == op)}
    names = list(params)

    def to_array(v):
        a = tx._tensor(v)
        if a.dtype == object:
            a = np.array([x if isinstance(x, bytes) else str(x).encode()
                          for x in a.reshape(-1)]).reshape(a.shape)
        return np.array(a, copy=True, order="C")

    def make(rng):
        args2, kw2, attacked = list(args), dict(kwargs), []
        for k, v in list(enumerate(args)) + list(kwargs.items()):
            kind, into = params[names[k] if isinstance(k, int) else k], \
                args2 if isinstance(k, int) else kw2
            if kind == "tensor":
                into[k] = to_array(v)
                attacked.append(into[k])
            elif kind == "tensor_list":
                into[k] = [to_array(t) for t in v]
                attacked += into[k]
        patches = []
        for a in attacked:
            if a.size == 0:
                continue
            if a.dtype.kind in "iu":  # may size the output (batch_to_space's crops...)
                p = index_patches(a, max(a.shape or (1,)), rng, sizing=True)
            elif a.dtype == bool:
                p = mask_patches(a, rng)
            else:
                p = flip_patches(a, rng)
            patches.append((a, p))
        return (lambda: getattr(tx, op)(*args2, **kw2)), patches, None
    return make


def _all_cases():
    sys.path.insert(0, os.path.dirname(__file__))
    from examples import EXAMPLES
    cases = dict(CASES)
    covered = {name.split(".")[0] for name in cases}
    for op, args, kwargs in EXAMPLES:
        if op not in covered:
            cases.setdefault(op, (1, _generic(op, args, kwargs)))
    return cases


ALL = _all_cases()
TOTAL_WEIGHT = sum(w for w, _ in ALL.values())


def race(name, seconds, seed=1, progress=False):
    """Runs case `name` for `seconds` against its writers; returns (calls, errors).  progress:
    prints the count of calls now and then (main() reports the last one of a crashed run)."""
    rng = np.random.default_rng(seed)
    call, attacked, check = ALL[name][1](rng)
    calls = errors = 0
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)  # the op thread gets the GIL back soon after each op
    writers = [Writer(a, p, seed * 100 + k) for k, (a, p) in enumerate(attacked)]
    try:
        for w in writers:
            w.__enter__()
        end = time.monotonic() + seconds
        while calls < 3 or time.monotonic() < end:
            calls += 1
            if progress and calls % 25 == 0:
                print(f"calls {calls}", flush=True)
            try:
                out = call()
            except tx.Error:
                errors += 1
                continue
            if check:
                check(out)
    finally:
        for w in writers:
            w.__exit__()
        sys.setswitchinterval(old)
    return calls, errors


def test_every_op_of_the_table_has_a_race():
    assert {name.split(".")[0] for name in ALL} == set(tx.OPS)


@pytest.mark.parametrize("name", sorted(ALL))
def test_an_op_racing_writers_of_its_inputs_never_crashes(name):
    calls, errors = race(name, SECONDS * ALL[name][0] / TOTAL_WEIGHT)
    assert calls >= 3


def main(argv):
    """One process per op: each crash is reported with its op and the seconds it took."""
    seconds = float(argv[0]) if argv else 10.0
    names = argv[1:] or sorted(ALL)
    crashed = []
    for name in names:
        try:
            p = subprocess.run([sys.executable, __file__, "--one", name, str(seconds)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=4 * seconds + 60)
        except subprocess.TimeoutExpired as e:
            print(f"{name}: HUNG (no end after {e.timeout:.0f} s)", flush=True)
            crashed.append(name)
            continue
        end, out = time.monotonic(), p.stdout.split("\n")
        start = float(next((ln.split()[1] for ln in out if ln.startswith("start ")), end))
        calls = next((ln.split()[1] for ln in reversed(out) if ln.startswith("calls ")), "0")
        if p.returncode == 0:
            print(f"{name}: ok, {out[-2] if len(out) > 1 else ''} in {end - start:.1f} s",
                  flush=True)
        else:
            what = [ln for ln in p.stderr.splitlines()
                    if "ERROR: AddressSanitizer" in ln or "runtime error" in ln or
                    "Error" in ln][:2]
            print(f"{name}: CRASHED (status {p.returncode}) after {end - start:.2f} s and over "
                  f"{calls} calls: {' | '.join(what) or p.stderr.strip()[-300:]}", flush=True)
            crashed.append(name)
    print(f"{len(crashed)} of {len(names)} crashed: {' '.join(crashed)}")
    return 1 if crashed else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:
        print(f"start {time.monotonic()}", flush=True)
        calls, errors = race(sys.argv[2], float(sys.argv[3]), progress=True)
        print(f"{calls} calls, {errors} errors")
    else:
        sys.exit(main(sys.argv[1:]))
