# SPDX-License-Identifier: Apache-2.0
"""pack_subbyte / unpack_subbyte, the packed form of the sub-byte dtypes, against a packing written
here with NumPy's own bit routines (element i is bits [i * bits, (i + 1) * bits) of the
little-endian bit string: np.unpackbits / np.packbits with bitorder="little"), and against ONNX's
packing of int4, uint4, float4e2m1, int2, uint2 and (onnx >= 1.23) float6e2m3 and float6e3m2
(onnx.numpy_helper) where onnx is installed.
Odd counts and shapes, every dtype, every byte; the errors.  cast_pack against pack_subbyte of cast
and against NumPy's packing of ml_dtypes' conversion."""
import numpy as np
import pytest
import tensorx as tx

ml = pytest.importorskip("ml_dtypes")

BITS = {"int4": 4, "uint4": 4, "float4_e2m1fn": 4, "int2": 2, "uint2": 2,
        "float6_e2m3fn": 6, "float6_e3m2fn": 6}
SHAPES = [(), (0,), (1,), (2,), (3,), (5,), (7,), (13,), (0, 5), (5, 7), (3, 5, 7), (2, 1, 9, 11)]


def dtype(name):
    return np.dtype(getattr(ml, name))


def canonical(name, shape, rng):
    """Random elements of the dtype as tensorx holds them (ml_dtypes' bytes of their values)."""
    mask = (1 << BITS[name]) - 1
    fields = rng.integers(0, 256, shape, dtype=np.uint8) & mask
    if name.startswith("int"):  # the signed field's value, which ml_dtypes stores in the low bits
        half = 1 << (BITS[name] - 1)
        return np.where(fields >= half, fields.astype(np.int16) - 2 * half, fields).astype(dtype(name))
    return fields.view(dtype(name))


def fields_of(a, name):
    """The value bits of each element (its field in the packed form)."""
    return np.ascontiguousarray(a).reshape(-1).view(np.uint8) & ((1 << BITS[name]) - 1)


def numpy_pack(a, name):
    bits = BITS[name]
    stream = np.unpackbits(fields_of(a, name)[:, None], axis=1, bitorder="little")[:, :bits].reshape(-1)
    return np.packbits(stream, bitorder="little")  # packbits pads the last byte with zeros


def numpy_unpack(packed, name, shape):
    bits, n = BITS[name], int(np.prod(shape, dtype=np.int64))
    stream = np.unpackbits(np.asarray(packed, np.uint8), bitorder="little")[:n * bits]
    fields = np.packbits(stream.reshape(n, bits), axis=1, bitorder="little").reshape(-1)
    if name.startswith("int"):
        half = 1 << (bits - 1)
        return np.where(fields >= half, fields.astype(np.int16) - 2 * half, fields).astype(dtype(name)).reshape(shape)
    return fields.view(dtype(name)).reshape(shape)


def same_bits(want, got, what):
    want, got = np.ascontiguousarray(want), np.ascontiguousarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape, what
    assert np.array_equal(want.view(np.uint8), got.view(np.uint8)), what


@pytest.mark.parametrize("name", sorted(BITS))
def test_pack_and_unpack_against_numpy(name):
    rng = np.random.default_rng(38)
    for shape in SHAPES:
        a = canonical(name, shape, rng)
        want = numpy_pack(a, name)
        got = np.asarray(tx.pack_subbyte(a))
        assert got.dtype == np.uint8 and got.shape == want.shape, (name, shape)
        assert np.array_equal(got, want), (name, shape)
        same_bits(a, tx.unpack_subbyte(want, dtype(name), list(shape)), "%s %s" % (name, shape))


@pytest.mark.parametrize("name", sorted(BITS))
def test_every_byte_unpacks_as_numpy_reads_it(name):
    packed = np.tile(np.arange(256, dtype=np.uint8), 3)  # 768 bytes: whole groups, no padding
    n = 768 * 8 // BITS[name]
    got = tx.unpack_subbyte(packed, dtype(name), [n])
    same_bits(numpy_unpack(packed, name, (n,)), got, name)
    assert np.array_equal(np.asarray(tx.pack_subbyte(got)), packed)


@pytest.mark.parametrize("name", sorted(BITS))
def test_padding_bits_refused(name):
    bits = BITS[name]
    for n in range(1, 9):
        nbytes = (n * bits + 7) // 8
        used = n * bits - 8 * (nbytes - 1)
        for b in range(used, 8):
            packed = np.zeros(nbytes, np.uint8)
            packed[-1] = 1 << b
            with pytest.raises(tx.InvalidArgumentError, match="byte %d, 0x%02x" % (nbytes - 1, 1 << b)):
                tx.unpack_subbyte(packed, dtype(name), [n])


def test_errors():
    with pytest.raises(tx.InvalidArgumentError, match=r"need 4 \(ceil\(7 \* 4 / 8\)\)"):
        tx.unpack_subbyte(np.zeros(3, np.uint8), dtype("uint4"), [7])
    with pytest.raises(tx.InvalidArgumentError, match="dtype must be a sub-byte dtype"):
        tx.unpack_subbyte(np.zeros(1, np.uint8), np.int8, [1])
    with pytest.raises(tx.InvalidArgumentError, match="x must be a sub-byte dtype"):
        tx.pack_subbyte(np.zeros(4, np.float32))
    with pytest.raises(tx.InvalidArgumentError, match="packed must be a 1-D uint8 tensor"):
        tx.unpack_subbyte(np.zeros((2, 2), np.uint8), dtype("int4"), [8])
    with pytest.raises(tx.ResourceExhaustedError):
        tx.unpack_subbyte(np.zeros(1, np.uint8), dtype("int2"), [1 << 40, 1 << 40])


def test_plan_sizes_the_ops():
    (p,) = tx.plan(tx.pack_subbyte, np.zeros((3, 35), dtype("float6_e3m2fn")))
    assert (p.dtype, p.shape, p.nbytes) == ("uint8", (79,), 79)
    (u,) = tx.plan("unpack_subbyte", np.zeros(7, np.uint8), "int2", [4, 7])
    assert (u.dtype, u.shape, u.nbytes) == ("int2", (4, 7), 28)


@pytest.mark.parametrize("name", sorted(BITS))
def test_cast_pack(name):
    rng = np.random.default_rng(41)
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1e30, -1e30, 6.5, -7.0, 0.25,
                         2.5, 300.0, -129.0], np.float32)
    for n in (0, 1, 3, 4, 5, 14, 4097, 70001):
        x = np.concatenate([specials, rng.uniform(-40, 40, n).astype(np.float32)])[:max(n, 1)]
        with np.errstate(invalid="ignore"):  # NaN and inf to int32: whatever NumPy makes of them
            ints = (x * 8).astype(np.int32).reshape(-1, 1)
        for src in (x, x.astype(np.float64), ints):
            got = np.asarray(tx.cast_pack(src, name))
            assert got.dtype == np.uint8 and got.shape == ((src.size * BITS[name] + 7) // 8,)
            assert np.array_equal(got, np.asarray(tx.pack_subbyte(tx.cast(src, name)))), (name, n, src.dtype)
        if not name.startswith(("int", "uint")):  # within range, the float types round as ml_dtypes
            y = rng.uniform(-6, 6, n).astype(np.float32)
            assert np.array_equal(np.asarray(tx.cast_pack(y, name)), numpy_pack(y.astype(dtype(name)), name))
    with pytest.raises(tx.InvalidArgumentError, match="dtype must be a sub-byte dtype"):
        tx.cast_pack(np.zeros(4, np.float32), np.float32)
    with pytest.raises(tx.UnimplementedError, match="Cast string to"):
        tx.cast_pack(np.array([b"1"], dtype=object), name)
    (p,) = tx.plan("cast_pack", np.zeros((3, 35), np.float32), name)
    assert (p.dtype, p.shape) == ("uint8", ((105 * BITS[name] + 7) // 8,))


ONNX_TYPES = {"int4": "INT4", "uint4": "UINT4", "float4_e2m1fn": "FLOAT4E2M1", "int2": "INT2",
              "uint2": "UINT2", "float6_e2m3fn": "FLOAT6E2M3", "float6_e3m2fn": "FLOAT6E3M2"}


@pytest.mark.parametrize("name", sorted(ONNX_TYPES))
def test_against_onnx_packing(name):
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper
    if not hasattr(onnx.TensorProto, ONNX_TYPES[name]):
        pytest.skip("onnx %s has no %s" % (onnx.__version__, ONNX_TYPES[name]))
    rng = np.random.default_rng(25)
    for shape in SHAPES:
        a = canonical(name, shape, rng)
        proto = numpy_helper.from_array(a)
        assert proto.data_type == getattr(onnx.TensorProto, ONNX_TYPES[name])
        assert np.array_equal(np.asarray(tx.pack_subbyte(a)), np.frombuffer(proto.raw_data, np.uint8)), (name, shape)
        # and ONNX reads tensorx's bytes back as the same values
        mine = onnx.helper.make_tensor("t", proto.data_type, list(shape),
                                       np.asarray(tx.pack_subbyte(a)).tobytes(), raw=True)
        same_bits(a, numpy_helper.to_array(mine), "%s %s through onnx" % (name, shape))
