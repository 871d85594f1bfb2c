# SPDX-License-Identifier: Apache-2.0
"""peers_workloads.py -- the workloads of bench/peers.py: for each of bench/workloads.c's (the same
names and sizes), a builder that makes its inputs once and returns a thunk per peer."""
import inspect
import sys

import numpy as np


# ---- sizes (mirror bench/workloads.c) ---------------------------------------------------------


def side4096(div):
    return 1024 if div >= 16 else 2048 if div >= 4 else 4096


def side8192(div):
    return 2048 if div >= 16 else 4096 if div >= 4 else 8192


N64M = 64 << 20
RNG = np.random.default_rng(7)


def floats(n, lo=-1000.0, hi=1000.0, dtype=np.float32):
    return RNG.uniform(lo, hi, n).astype(dtype)


def rand_f32(shape):
    return RNG.standard_normal(shape, dtype=np.float32)


# ---- workloads: name -> builder(div) returning {peer: thunk} ---------------------------------
# Each builder makes its inputs once and returns closures that run the op and return the result.


def torch_mod():
    import torch  # noqa: PLC0415  (optional peer)
    return torch


def with_torch(d, fn):
    """Adds torch1/torch2 entries (the same thunk; the thread count is set when timing)."""
    try:
        torch = torch_mod()
    except Exception:
        return d
    t = fn(torch)
    if t is not None:
        d["torch1"] = t
        d["torch2"] = t
    return d


def tx_mod():
    """The tensorx package (the txpy column), or None when it cannot be imported."""
    global TX
    if TX is False:
        try:
            import tensorx  # noqa: PLC0415  (optional: scripts/bench.sh installs it into a venv)
            TX = tensorx
        except Exception as e:  # noqa: BLE001
            print(f"peers: the tensorx package cannot be imported ({e}); txpy is left out",
                  file=sys.stderr)
            TX = None
    return TX


TX = False
WANT_TXPY = True  # peers.py's main() clears it when --peers leaves txpy out


def with_txpy(d, fn, ref=None):
    """Adds the txpy entry: fn(tensorx) returns the thunk that does the workload's work through
    the Python package, on the same NumPy inputs as the numpy thunk.  Its result is checked once,
    before timing, against ref() (default: the numpy thunk's result), bit for bit."""
    tx = tx_mod() if WANT_TXPY else None
    if tx is not None:
        d["txpy"] = fn(tx)
        d["txpy_ref"] = ref or d.get("numpy")
    return d


def with_spec(d, op, inputs, **attrs):
    """The workload as one call of a TensorFlow op (TF's names): `inputs` its tensors (NumPy arrays
    or bytes; concat's values one by one), `attrs` the rest.  bench/peers_current.py builds each
    current peer's call from it and runs it through tensorx for the result every peer must equal;
    the attrs' names are fixed there (current_peers/README in bench/peers_current.py)."""
    d["spec"] = (op, list(inputs), attrs)
    return d


NP_T = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "f64": np.float64, "u8": np.uint8}


def cast_builder(src, dst):
    def build(div):
        n = N64M // div
        if src == "u8":
            x = RNG.integers(0, 256, n, dtype=np.uint8)
        elif src == "i32":
            x = floats(n).astype(np.int32)
        else:
            x = floats(n, dtype=NP_T[src])
        d = {}
        if dst != "bf16":
            d["numpy"] = lambda: x.astype(NP_T[dst])
        names = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i32": "int32",
                 "f64": "float64", "u8": "uint8"}

        def tb(torch):
            tt = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
                  "i32": torch.int32, "f64": torch.float64, "u8": torch.uint8}[dst]
            t = torch.from_numpy(x)
            return lambda: t.to(tt)

        def bf16_ref():  # NumPy has no bfloat16: PyTorch's (round to nearest even, as TF)
            return torch_mod().from_numpy(x).to(torch_mod().bfloat16).view(
                torch_mod().int16).numpy()
        with_txpy(d, lambda tx: lambda: tx.cast(x, names[dst]),
                  bf16_ref if dst == "bf16" else None)
        with_spec(d, "cast", [x], dtype=names[dst])
        return with_torch(d, tb)
    return build


def saturate_builder(div):
    x = floats(N64M // div, -100.0, 400.0)
    d = {"numpy": lambda: np.clip(x, 0, 255).astype(np.uint8)}
    with_txpy(d, lambda tx: lambda: tx.saturate_cast(x, "uint8"))
    with_spec(d, "saturate_cast", [x], dtype="uint8")

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.clamp(0, 255).to(torch.uint8)
    return with_torch(d, tb)


def ml_dtypes_mod():
    import ml_dtypes  # noqa: PLC0415  (optional: the numpy column of the low-bit casts)
    return ml_dtypes


def lowbit_builder(dst, packed=False):
    """float32 -> an ml_dtypes type: the numpy column is NumPy's astype with ml_dtypes' dtype
    (their reference conversion); float4_e2m1fn packed two per byte (first element in the low
    nibble) by NumPy, as tensorx's row (and the txpy column) does in one call of cast_pack.
    PyTorch 2.7+ has float8_e4m3fn and float8_e8m0fnu (no unpacked float4); it is used where it has
    the dtype."""
    def build(div):
        x = floats(N64M // div)
        d = {}
        try:
            t = getattr(ml_dtypes_mod(), dst)
        except Exception as e:  # noqa: BLE001
            print(f"peers: ml_dtypes unavailable ({e}); no numpy column for {dst}", file=sys.stderr)
            return d
        if packed:
            def pack():
                a = x.astype(t).view(np.uint8)
                return a[0::2] | (a[1::2] << 4)
            d["numpy"] = pack
            return with_txpy(d, lambda tx: lambda: tx.cast_pack(x, dst))
        d["numpy"] = lambda: x.astype(t)
        with_txpy(d, lambda tx: lambda: tx.cast(x, dst))
        with_spec(d, "cast", [x], dtype=dst)

        def tb(torch):
            tt = getattr(torch, dst, None)
            if tt is None:
                return None
            xt = torch.from_numpy(x)
            return lambda: xt.to(tt).view(torch.uint8)
        return with_torch(d, tb)
    return build


def bitcast_builder(div):
    x = floats(N64M // div)
    d = {"numpy": lambda: x.view(np.int32)}
    with_txpy(d, lambda tx: lambda: tx.bitcast(x, "int32"))
    with_spec(d, "bitcast", [x], type="int32")

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.view(torch.int32)
    return with_torch(d, tb)


def decode_one_builder(dt, little):
    def build(div):
        n = (256 << 20) // div
        b = RNG.integers(0, 1 << 62, n // 8, dtype=np.int64).tobytes()
        npt = np.dtype(dt).newbyteorder("<" if little else ">")
        d = {"numpy": (lambda: np.frombuffer(b, npt).copy()) if little
             else (lambda: np.frombuffer(b, npt).astype(np.dtype(dt)))}
        with_txpy(d, lambda tx: lambda: tx.decode_raw(b, dt, little_endian=little))
        with_spec(d, "decode_raw", [b], out_type=dt, little_endian=little)

        def tb(torch):
            tt = {"int16": torch.int16, "float32": torch.float32}[dt]
            size = np.dtype(dt).itemsize
            if little:
                return lambda: torch.frombuffer(b, dtype=tt).clone()
            return lambda: (torch.frombuffer(b, dtype=torch.uint8).view(-1, size).flip(1)
                            .contiguous().view(tt).reshape(-1))
        return with_torch(d, tb)
    return build


def decode_records_builder(div):
    n = (1 << 20) // div
    buf = RNG.integers(0, 1 << 62, n * 8, dtype=np.int64).tobytes()
    recs = [buf[i * 64:(i + 1) * 64] for i in range(n)]  # a string tensor's elements
    d = {"numpy": lambda: np.frombuffer(b"".join(recs), "<f4").reshape(n, 16)}
    # tensorx takes the records as a string tensor: an object array of the same bytes objects,
    # made once (each record is used in place, not copied)
    rec_arr = np.empty(n, dtype=object)
    rec_arr[:] = recs
    with_txpy(d, lambda tx: lambda: tx.decode_raw(rec_arr, "float32"))
    with_spec(d, "decode_raw", [rec_arr], out_type="float32", little_endian=True)

    def tb(torch):
        return lambda: torch.frombuffer(b"".join(recs), dtype=torch.float32).reshape(n, 16)
    return with_torch(d, tb)


def transpose_builder(case):
    def build(div):
        if case == 0:
            s = side8192(div)
            shape, perm = (s, s), (1, 0)
        elif case in (1, 2):
            shape = (max(64 // div, 1), 512, 512)
            perm = (0, 2, 1) if case == 1 else (2, 0, 1)
        else:
            shape, perm = (max(32 // div, 1), 224, 224, 3), (0, 3, 1, 2)
        x = rand_f32(shape)
        d = {"numpy": lambda: np.ascontiguousarray(x.transpose(perm))}
        with_txpy(d, lambda tx: lambda: tx.transpose(x, list(perm)))
        with_spec(d, "transpose", [x], perm=list(perm))

        def tb(torch):
            t = torch.from_numpy(x)
            return lambda: t.permute(perm).contiguous()
        return with_torch(d, tb)
    return build


def concat_builder(axis):
    def build(div):
        s = side4096(div)
        a, b = rand_f32((s, s)), rand_f32((s, s))
        d = {"numpy": lambda: np.concatenate((a, b), axis)}
        with_txpy(d, lambda tx: lambda: tx.concat([a, b], axis))
        with_spec(d, "concat", [a, b], axis=axis)

        def tb(torch):
            ta, tb_ = torch.from_numpy(a), torch.from_numpy(b)
            return lambda: torch.cat((ta, tb_), axis)
        return with_torch(d, tb)
    return build


def reverse_builder(div):
    s = side8192(div)
    x = rand_f32((s, s))
    d = {"numpy": lambda: np.flip(x, 1).copy()}
    with_txpy(d, lambda tx: lambda: tx.reverse(x, axis=[1]))
    with_spec(d, "reverse", [x], axis=[1])

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: torch.flip(t, [1])
    return with_torch(d, tb)


def split_builder(div):
    """4 parts along axis 1, each a contiguous array (NumPy's and PyTorch's split give views)."""
    s = side4096(div)
    x = rand_f32((s, s))
    d = {"numpy": lambda: tuple(np.ascontiguousarray(p) for p in np.split(x, 4, axis=1))}
    with_txpy(d, lambda tx: lambda: tuple(tx.split(x, 1, 4)))
    with_spec(d, "split", [x], split_dim=1, num_split=4)

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: tuple(p.contiguous() for p in torch.split(t, s // 4, dim=1))
    return with_torch(d, tb)


def pad_builder(mode):
    def build(div):
        s = side4096(div)
        x = rand_f32((s, s))
        d = {"numpy": (lambda: np.pad(x, 16)) if mode == "constant"
             else (lambda: np.pad(x, 16, mode="reflect"))}
        with_txpy(d, lambda tx: lambda: tx.pad(x, [[16, 16], [16, 16]], mode=mode.upper()))
        with_spec(d, "pad", [x], paddings=[[16, 16], [16, 16]], mode=mode.upper())

        def tb(torch):
            import torch.nn.functional as F  # noqa: PLC0415
            t = torch.from_numpy(x)
            if mode == "constant":
                return lambda: F.pad(t, (16, 16, 16, 16))
            return lambda: F.pad(t[None], (16, 16, 16, 16), mode="reflect")[0]
        return with_torch(d, tb)
    return build


def tile_builder(div):
    s = 512 if div >= 4 else 1024
    x = rand_f32((s, s))
    d = {"numpy": lambda: np.tile(x, (4, 4))}
    with_txpy(d, lambda tx: lambda: tx.tile(x, [4, 4]))
    with_spec(d, "tile", [x], multiples=[4, 4])

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.repeat(4, 4)
    return with_torch(d, tb)


def strided_builder(div):
    s = side8192(div)
    x = rand_f32((s, s))
    d = {"numpy": lambda: x[::2, ::-1].copy()}
    with_txpy(d, lambda tx: lambda: tx.strided_slice(x, [0, 0], [0, 0], [2, -1], begin_mask=3,
                                                     end_mask=3))
    with_spec(d, "strided_slice", [x], begin=[0, 0], end=[0, 0], strides=[2, -1], begin_mask=3,
              end_mask=3)

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t[::2].flip(1)
    return with_torch(d, tb)


def take_rows(x, idx):
    """Rows idx of x: NumPy's take, tensorx's gather, PyTorch's index_select."""
    d = {"numpy": lambda: np.take(x, idx, axis=0)}
    with_txpy(d, lambda tx: lambda: tx.gather(x, idx, axis=0))
    with_spec(d, "gather", [x, idx], axis=0)

    def tb(torch):
        t, i = torch.from_numpy(x), torch.from_numpy(idx.astype(np.int64))
        return lambda: torch.index_select(t, 0, i)
    return with_torch(d, tb)


def gather_rows_builder(div):
    rows = (1 << 20) // div
    x = rand_f32((rows, 64))
    return take_rows(x, RNG.integers(0, rows, rows, dtype=np.int32))


def gather_axis1_builder(div):
    s = side4096(div)
    x = rand_f32((s, s))
    idx = RNG.integers(0, s, s, dtype=np.int32)
    d = {"numpy": lambda: np.take(x, idx, axis=1)}
    with_txpy(d, lambda tx: lambda: tx.gather(x, idx, axis=1))
    with_spec(d, "gather", [x, idx], axis=1)

    def tb(torch):
        t, i = torch.from_numpy(x), torch.from_numpy(idx.astype(np.int64))
        return lambda: torch.index_select(t, 1, i)
    return with_torch(d, tb)


def boolean_mask_builder(div):
    s = side4096(div)
    x = rand_f32((s, s))
    m = RNG.integers(0, 2, (s, s)).astype(bool)
    d = {"numpy": lambda: x[m]}
    with_txpy(d, lambda tx: lambda: tx.boolean_mask(x, m))
    with_spec(d, "boolean_mask", [x, m])

    def tb(torch):
        t, tm = torch.from_numpy(x), torch.from_numpy(m)
        return lambda: t[tm]
    return with_torch(d, tb)


def gather_nd_builder(div):
    n = (1 << 20) // div
    x = rand_f32((1024, 1024, 16))
    i0 = RNG.integers(0, 1024, n, dtype=np.int32)
    i1 = RNG.integers(0, 1024, n, dtype=np.int32)
    d = {"numpy": lambda: x[i0, i1]}
    i01 = np.stack([i0, i1], 1)  # gather_nd's [n, 2] indices, made once
    with_txpy(d, lambda tx: lambda: tx.gather_nd(x, i01))
    with_spec(d, "gather_nd", [x, i01])

    def tb(torch):
        t = torch.from_numpy(x)
        a, b = torch.from_numpy(i0.astype(np.int64)), torch.from_numpy(i1.astype(np.int64))
        return lambda: t[a, b]
    return with_torch(d, tb)


def one_hot_of(idx, depth):
    """one_hot of int32 labels idx at depth, float32: NumPy's fancy assignment, tensorx, PyTorch's
    scatter_."""
    n, rows = len(idx), np.arange(len(idx))

    def np_one_hot():
        out = np.zeros((n, depth), np.float32)
        out[rows, idx] = 1.0
        return out
    d = {"numpy": np_one_hot}
    with_txpy(d, lambda tx: lambda: tx.one_hot(idx, depth))
    with_spec(d, "one_hot", [idx], depth=depth)

    def tb(torch):
        i = torch.from_numpy(idx.astype(np.int64))[:, None]
        return lambda: torch.zeros(n, depth).scatter_(1, i, 1.0)
    return with_torch(d, tb)


def one_hot_builder(div):
    n = (1 << 20) // div
    return one_hot_of(RNG.integers(0, 1000, n, dtype=np.int32), 1000)


def unique_builder(div):
    n = (16 << 20) // div
    vals = RNG.integers(0, 1 << 31, 1000, dtype=np.int64).astype(np.int32)
    x = vals[RNG.integers(0, 1000, n)]
    d = {"numpy": lambda: np.unique(x, return_inverse=True, return_counts=True)}
    if "sorted" in inspect.signature(np.unique).parameters:  # NumPy 2.3+: its hash-based unique
        d["numpy_unsorted"] = lambda: np.unique(x, return_inverse=True, return_counts=True,
                                                sorted=False)

    def first_order():  # TF's order (first occurrence), as pandas.factorize gives it
        import pandas as pd  # noqa: PLC0415
        codes, uniq = pd.factorize(x)
        return uniq, codes.astype(np.int32), np.bincount(codes).astype(np.int32)
    with_txpy(d, lambda tx: lambda: tuple(tx.unique_with_counts(x)), first_order)
    with_spec(d, "unique_with_counts", [x])
    try:
        import pandas as pd  # noqa: PLC0415

        def pd_unique():
            codes, uniq = pd.factorize(x)
            return uniq, codes, np.bincount(codes)
        d["pandas"] = pd_unique
    except Exception:
        pass

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: torch.unique(t, return_inverse=True, return_counts=True)
    return with_torch(d, tb)


def s2d_builder(inverse):
    def build(div):
        n = 8 // min(div, 8)
        x = rand_f32((n, 256, 256, 64))
        if inverse:
            def np_f():
                return (x.reshape(n, 256, 256, 2, 2, 16).transpose(0, 1, 3, 2, 4, 5)
                        .reshape(n, 512, 512, 16))
        else:
            def np_f():
                return (x.reshape(n, 128, 2, 128, 2, 64).transpose(0, 1, 3, 2, 4, 5)
                        .reshape(n, 128, 128, 256))
        d = {"numpy": np_f}
        with_txpy(d, lambda tx: (lambda: tx.depth_to_space(x, 2)) if inverse
                  else (lambda: tx.space_to_depth(x, 2)))
        with_spec(d, "depth_to_space" if inverse else "space_to_depth", [x], block_size=2)

        def tb(torch):
            t = torch.from_numpy(x)
            if inverse:
                return lambda: (t.reshape(n, 256, 256, 2, 2, 16).permute(0, 1, 3, 2, 4, 5)
                                .reshape(n, 512, 512, 16))
            return lambda: (t.reshape(n, 128, 2, 128, 2, 64).permute(0, 1, 3, 2, 4, 5)
                            .reshape(n, 128, 128, 256))
        return with_torch(d, tb)
    return build


def s2b_builder(inverse):
    """space_to_batch_nd [n, 256, 256, 64] -> [4n, 128, 128, 64], block [2, 2], no padding (and
    batch_to_space_nd back): as a reshape/transpose for NumPy and PyTorch."""
    def build(div):
        n = 8 // min(div, 8)
        zeros = [[0, 0], [0, 0]]
        if inverse:
            x = rand_f32((4 * n, 128, 128, 64))
            shape, perm, out = (2, 2, n, 128, 128, 64), (2, 3, 0, 4, 1, 5), (n, 256, 256, 64)
        else:
            x = rand_f32((n, 256, 256, 64))
            shape, perm, out = (n, 128, 2, 128, 2, 64), (2, 4, 0, 1, 3, 5), (4 * n, 128, 128, 64)
        d = {"numpy": lambda: np.ascontiguousarray(x.reshape(shape).transpose(perm)).reshape(out)}
        op = "batch_to_space_nd" if inverse else "space_to_batch_nd"
        with_txpy(d, lambda tx: lambda: getattr(tx, op)(x, [2, 2], zeros))
        if inverse:
            with_spec(d, op, [x], block_shape=[2, 2], crops=zeros)
        else:
            with_spec(d, op, [x], block_shape=[2, 2], paddings=zeros)

        def tb(torch):
            t = torch.from_numpy(x)
            return lambda: t.reshape(shape).permute(perm).contiguous().reshape(out)
        return with_torch(d, tb)
    return build


def copy_builder(div):
    x = rand_f32(N64M // div)
    d = {"numpy": lambda: x.copy()}
    with_spec(d, "identity", [x])

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.clone()
    return with_torch(d, tb)


# ---- inference shapes (fixed sizes, quick or not; mirror workloads.c's setup_infer) -----------


def infer_embedding_builder(div):
    table = rand_f32((30522, 768))
    return take_rows(table, RNG.integers(0, 30522, 128, dtype=np.int32))


def infer_nhwc_nchw_builder(div):
    x = rand_f32((1, 224, 224, 3))
    d = {"numpy": lambda: np.ascontiguousarray(x.transpose(0, 3, 1, 2))}
    with_txpy(d, lambda tx: lambda: tx.transpose(x, [0, 3, 1, 2]))
    with_spec(d, "transpose", [x], perm=[0, 3, 1, 2])

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.permute(0, 3, 1, 2).contiguous()
    return with_torch(d, tb)


def infer_strided_slice_builder(div):
    x = rand_f32((1, 128, 768))
    d = {"numpy": lambda: x[:, ::2].copy()}
    with_txpy(d, lambda tx: lambda: tx.strided_slice(x, [0, 0, 0], [0, 0, 0], [1, 2, 1],
                                                     begin_mask=7, end_mask=7))
    with_spec(d, "strided_slice", [x], begin=[0, 0, 0], end=[0, 0, 0], strides=[1, 2, 1],
              begin_mask=7, end_mask=7)

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t[:, ::2].contiguous()
    return with_torch(d, tb)


def infer_concat_kv_builder(div):
    a = rand_f32((1, 32, 512, 128)).astype(np.float16)
    b = rand_f32((1, 32, 512, 128)).astype(np.float16)
    d = {"numpy": lambda: np.concatenate((a, b), 2)}
    with_txpy(d, lambda tx: lambda: tx.concat([a, b], 2))
    with_spec(d, "concat", [a, b], axis=2)

    def tb(torch):
        ta, tb_ = torch.from_numpy(a), torch.from_numpy(b)
        return lambda: torch.cat((ta, tb_), 2)
    return with_torch(d, tb)


def infer_one_hot_builder(div):
    return one_hot_of(RNG.integers(0, 1000, 128, dtype=np.int32), 1000)


def infer_cast_bf16_builder(div):
    x = floats(4096).reshape(1, 4096)
    d = {}

    def bf16_ref():  # NumPy has no bfloat16: PyTorch's (round to nearest even, as TF)
        torch = torch_mod()
        return torch.from_numpy(x).to(torch.bfloat16).view(torch.int16).numpy()
    with_txpy(d, lambda tx: lambda: tx.cast(x, "bfloat16"), bf16_ref)
    with_spec(d, "cast", [x], dtype="bfloat16")

    def tb(torch):
        t = torch.from_numpy(x)
        return lambda: t.to(torch.bfloat16)
    return with_torch(d, tb)


WORKLOADS = [
    ("copy_f32_64M", copy_builder),
    ("cast_f32_f16", cast_builder("f32", "f16")),
    ("cast_f16_f32", cast_builder("f16", "f32")),
    ("cast_f32_bf16", cast_builder("f32", "bf16")),
    ("cast_f32_i32", cast_builder("f32", "i32")),
    ("cast_i32_f32", cast_builder("i32", "f32")),
    ("cast_f64_f32", cast_builder("f64", "f32")),
    ("cast_u8_f32", cast_builder("u8", "f32")),
    ("saturate_cast_f32_u8", saturate_builder),
    ("cast_f32_e4m3fn", lowbit_builder("float8_e4m3fn")),
    ("cast_f32_e2m1fn_packed", lowbit_builder("float4_e2m1fn", packed=True)),
    ("cast_f32_e8m0", lowbit_builder("float8_e8m0fnu")),
    ("bitcast_f32_i32", bitcast_builder),
    ("decode_raw_le_i16", decode_one_builder("int16", True)),
    ("decode_raw_be_i16", decode_one_builder("int16", False)),
    ("decode_raw_le_f32", decode_one_builder("float32", True)),
    ("decode_raw_be_f32", decode_one_builder("float32", False)),
    ("decode_raw_records_1M_x64", decode_records_builder),
    ("transpose_8192x8192", transpose_builder(0)),
    ("transpose_64x512x512_021", transpose_builder(1)),
    ("transpose_64x512x512_201", transpose_builder(2)),
    ("transpose_nhwc_nchw_32x224x224x3", transpose_builder(3)),
    ("concat_2x4096x4096_axis0", concat_builder(0)),
    ("concat_2x4096x4096_axis1", concat_builder(1)),
    ("reverse_8192x8192_axis1", reverse_builder),
    ("split_4096x4096_axis1_x4", split_builder),
    ("pad_4096x4096_16_constant", pad_builder("constant")),
    ("pad_4096x4096_16_reflect", pad_builder("reflect")),
    ("tile_1024x1024_4x4", tile_builder),
    ("strided_slice_8192x8192_s2_rev", strided_builder),
    ("gather_rows_1Mx64_1M", gather_rows_builder),
    ("gather_axis1_4096x4096", gather_axis1_builder),
    ("boolean_mask_4096x4096_half", boolean_mask_builder),
    ("gather_nd_1024x1024x16_1M", gather_nd_builder),
    ("one_hot_1M_depth1000", one_hot_builder),
    ("unique_with_counts_16M_1000", unique_builder),
    ("space_to_depth_8x256x256x64_b2", s2d_builder(False)),
    ("depth_to_space_8x256x256x64_b2", s2d_builder(True)),
    ("space_to_batch_nd_8x256x256x64_b2", s2b_builder(False)),
    ("batch_to_space_nd_32x128x128x64_b2", s2b_builder(True)),
    ("infer_embedding_gather_30522x768_128", infer_embedding_builder),
    ("infer_nhwc_nchw_1x224x224x3", infer_nhwc_nchw_builder),
    ("infer_strided_slice_1x128x768_s2", infer_strided_slice_builder),
    ("infer_concat_kv_f16_1x32x512x128_x2", infer_concat_kv_builder),
    ("infer_one_hot_128_depth1000", infer_one_hot_builder),
    ("infer_cast_f32_bf16_1x4096", infer_cast_bf16_builder),
]
