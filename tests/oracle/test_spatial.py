# SPDX-License-Identifier: Apache-2.0
"""NumPy oracle for the space/batch/depth family and extract_image_patches.

space_to_batch_nd / batch_to_space_nd against pad + reshape + transpose + reshape (and reshape +
transpose + reshape + crop) over random M, blocks, paddings/crops, remaining dims, ranks up to 6,
zero-size dims, every kind of dtype (strings included) and int32/int64 arguments; the round trip
s2b -> b2s with crops = paddings; the legacy 4-D forms; required_space_to_batch_paddings against
TF's Python formula; space_to_depth / depth_to_space against reshape + transpose in NHWC and NCHW
and their round trip; depth_to_space mode=CRD (the ONNX preset) against ONNX's own NCHW
reshape + transpose formula; extract_image_patches against a NumPy loop (SAME/VALID, strides, rates > 1).
"""
import numpy as np
import txoracle as tx

rng = np.random.default_rng(20)
c = tx.Counter()
DTYPES = [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32, np.float64,
          np.complex64, "S"]


def arr(shape, dt):
    n = int(np.prod(shape)) if shape else 1
    if dt == "S":
        words = np.array([b"", b"a", b"xy", b"hello", b"\xff\x01", b"long string value"], dtype="S")
        return words[rng.integers(0, len(words), size=n)].reshape(shape)
    if dt == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    a = (rng.standard_normal(shape) * 100).astype(dt)
    if np.issubdtype(dt, np.complexfloating):
        a = a + 1j * (rng.standard_normal(shape) * 10).astype(dt)
    if a.size and rng.random() < 0.3:
        a.flat[int(rng.integers(0, a.size))] = np.nan
    return a.astype(dt)


def int_arr(values, shape=None):
    dt = np.int64 if rng.random() < 0.5 else np.int32
    a = np.array(values, dtype=dt)
    return a.reshape(shape) if shape is not None else a


def same(got, want, what):
    """tx.assert_same, except that byte strings compare by value: the .npy writer picks the width
    'S<n>' from the longest element present, so an output may be narrower than the input."""
    got, want = np.asarray(got), np.asarray(want)
    if want.dtype.kind == "S":
        if got.dtype.kind != "S" or got.shape != want.shape or not np.array_equal(got, want):
            raise AssertionError("%s: got %s%s %r, want %s%s %r" % (what, got.dtype, got.shape, got, want.dtype, want.shape, want))
        return
    tx.assert_same(got, want, what)


def zeros_like_pad(shape, dtype):
    return np.zeros(shape, dtype=dtype)  # b'' for bytes, False, 0, 0.0


# ---- references ----------------------------------------------------------------------------------

def s2b_ref(x, block, pads):
    m = len(block)
    B = x.shape[0]
    pshape = [B] + [x.shape[1 + k] + pads[k][0] + pads[k][1] for k in range(m)] + list(x.shape[1 + m:])
    padded = zeros_like_pad(pshape, x.dtype)
    sl = (slice(None),) + tuple(slice(pads[k][0], pads[k][0] + x.shape[1 + k]) for k in range(m))
    padded[sl] = x
    shp = [B]
    for k in range(m):
        shp += [pshape[1 + k] // block[k], block[k]]
    shp += list(x.shape[1 + m:])
    r = padded.reshape(shp)
    perm = [2 + 2 * k for k in range(m)] + [0] + [1 + 2 * k for k in range(m)] + list(range(1 + 2 * m, r.ndim))
    out = [B * int(np.prod(block, dtype=np.int64))] + [pshape[1 + k] // block[k] for k in range(m)] + list(x.shape[1 + m:])
    return r.transpose(perm).reshape(out)


def b2s_ref(x, block, crops):
    m = len(block)
    B = x.shape[0]
    P = int(np.prod(block, dtype=np.int64))
    r = x.reshape(list(block) + [B // P] + list(x.shape[1:]))
    perm = [m] + sum([[m + 1 + k, k] for k in range(m)], []) + list(range(2 * m + 1, r.ndim))
    full = [B // P] + [x.shape[1 + k] * block[k] for k in range(m)] + list(x.shape[1 + m:])
    t = r.transpose(perm).reshape(full)
    sl = (slice(None),) + tuple(slice(crops[k][0], full[1 + k] - crops[k][1]) for k in range(m))
    return t[sl]


def s2d_ref(x, bs, fmt):
    if fmt == "NCHW":
        return s2d_ref(x.transpose(0, 2, 3, 1), bs, "NHWC").transpose(0, 3, 1, 2)
    n, h, w, ch = x.shape
    return x.reshape(n, h // bs, bs, w // bs, bs, ch).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // bs, w // bs, bs * bs * ch)


def d2s_ref(x, bs, fmt):
    if fmt == "NCHW":
        return d2s_ref(x.transpose(0, 2, 3, 1), bs, "NHWC").transpose(0, 3, 1, 2)
    n, h, w, ch = x.shape
    oc = ch // (bs * bs)
    return x.reshape(n, h, w, bs, bs, oc).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * bs, w * bs, oc)


def windowed(n, k, rate, s, padding):
    keff = (k - 1) * rate + 1
    if padding == "VALID":
        num = n - keff + s
        out = abs(num) // s * (1 if num >= 0 else -1)  # C division truncates toward zero
        return out, 0
    out = (n + s - 1) // s
    need = max(0, (out - 1) * s + keff - n)
    return out, need // 2


def patches_ref(img, k, s, r, padding):
    B, R, C, D = img.shape
    orows, top = windowed(R, k[0], r[0], s[0], padding)
    ocols, left = windowed(C, k[1], r[1], s[1], padding)
    out = np.zeros((B, orows, ocols, k[0], k[1], D), dtype=img.dtype)
    for y in range(orows):
        for x in range(ocols):
            for i in range(k[0]):
                for j in range(k[1]):
                    yy, xx = y * s[0] + i * r[0] - top, x * s[1] + j * r[1] - left
                    if 0 <= yy < R and 0 <= xx < C:
                        out[:, y, x, i, j, :] = img[:, yy, xx, :]
    return out.reshape(B, orows, ocols, k[0] * k[1] * D)


# ---- space_to_batch_nd / batch_to_space_nd -----------------------------------------------------------

def random_s2b_case(i):
    rank = int(rng.integers(1, 7))
    m = int(rng.integers(0, rank))
    shape = [int(rng.integers(0, 4))]
    block, pads = [], []
    for _ in range(m):
        b = int(rng.integers(1, 4))
        d = int(rng.integers(0, 6))
        p0 = int(rng.integers(0, 3))
        p1 = int(rng.integers(0, 3))
        p1 += (b - (d + p0 + p1) % b) % b
        if rng.random() < 0.2:
            p0 = p1 = 0
            d = b * int(rng.integers(0, 3))
        block.append(b)
        pads.append([p0, p1])
        shape.append(d)
    while len(shape) < rank:
        shape.append(int(rng.choice([0, 1, 2, 3]) if rng.random() < 0.15 else rng.integers(1, 4)))
    if int(np.prod(shape)) > 3000:
        shape[0] = 1
    dt = DTYPES[i % len(DTYPES)]
    return arr(tuple(shape), dt), block, pads


for i in range(150):
    x, block, pads = random_s2b_case(i)

    def s2b_case():
        bl = int_arr(block, (len(block),))
        pd = int_arr(pads, (len(pads), 2))
        want = s2b_ref(x, block, pads)
        got = tx.run("space_to_batch_nd", input=x, block_shape=bl, paddings=pd)
        same(got, want, "space_to_batch_nd %s %s block %s pads %s" % (x.dtype, x.shape, block, pads))
        # round trip: crops = paddings gives the input back
        back = tx.run("batch_to_space_nd", input=got, block_shape=bl, crops=int_arr(pads, (len(pads), 2)))
        same(back, x, "round trip %s %s block %s pads %s" % (x.dtype, x.shape, block, pads))

    def b2s_case():
        # a random batch tensor whose batch is a multiple of prod(block), random crops
        P = int(np.prod(block, dtype=np.int64))
        bshape = [P * int(rng.integers(0, 3))] + [int(rng.integers(0, 4)) for _ in block] + list(x.shape[1 + len(block):])
        y = arr(tuple(bshape), x.dtype if x.dtype.kind != "S" else "S")
        crops = []
        for k, b in enumerate(block):
            full = bshape[1 + k] * b
            c0 = int(rng.integers(0, full + 1))
            c1 = int(rng.integers(0, full - c0 + 1))
            crops.append([c0, c1])
        want = b2s_ref(y, block, crops)
        got = tx.run("batch_to_space_nd", input=y, block_shape=int_arr(block, (len(block),)),
                     crops=int_arr(crops, (len(crops), 2)))
        same(got, want, "batch_to_space_nd %s %s block %s crops %s" % (y.dtype, y.shape, block, crops))

    c.check("s2b_nd%d" % i, s2b_case)
    c.check("b2s_nd%d" % i, b2s_case)


# ---- batch_to_space_nd crops policies: NumPy's take(mode='clip' / 'wrap') and zero padding ----------

def b2s_policy_ref(x, block, crops, oob):
    t = b2s_ref(x, block, [[0, 0]] * len(block))  # the whole block-expanded tensor
    for k, (cs, ce) in enumerate(crops):
        full = t.shape[1 + k]
        idx = cs + np.arange(max(0, full - cs - ce))
        if full == 0:  # nothing to take: zeros (the op fails instead if that is not empty)
            shape = list(t.shape)
            shape[1 + k] = len(idx)
            t = zeros_like_pad(shape, t.dtype)
        elif oob == "zero":
            valid = (idx >= 0) & (idx < full)
            t = np.take(t, np.where(valid, idx, 0), axis=1 + k)
            v = np.moveaxis(t, 1 + k, 0)  # a view: zero the out-of-range positions
            v[~valid] = zeros_like_pad(v[~valid].shape, t.dtype)
        else:
            t = np.take(t, idx, axis=1 + k, mode="clip" if oob == "clamp" else "wrap")
    return t


for i in range(90):
    x, block, _ = random_s2b_case(i + 1000)
    oob = ("zero", "clamp", "wrap")[i % 3]

    def b2s_policy_case():
        P = int(np.prod(block, dtype=np.int64))
        bshape = [P * int(rng.integers(0, 3))] + [int(rng.integers(0, 4)) for _ in block] + list(x.shape[1 + len(block):])
        y = arr(tuple(bshape), x.dtype if x.dtype.kind != "S" else "S")
        crops = []
        for k, b in enumerate(block):
            full = bshape[1 + k] * b
            crops.append([int(rng.integers(-3, full + 4)), int(rng.integers(-3, full + 4))])
        kw = dict(input=y, block_shape=int_arr(block, (len(block),)), crops=int_arr(crops, (len(crops), 2)), oob=oob)
        out_dims = [max(0, bshape[1 + k] * b - c[0] - c[1]) for k, (b, c) in enumerate(zip(block, crops))]
        empty_src = any(bshape[1 + k] == 0 for k in range(len(block)))
        nonempty = bshape[0] > 0 and all(out_dims) and all(d > 0 for d in bshape[1 + len(block):])
        if oob != "zero" and empty_src and nonempty:
            msg = tx.fails("batch_to_space_nd", **kw)
            assert "has nothing to take" in msg, (oob, y.shape, block, crops, msg)
            return
        want = b2s_policy_ref(y, block, crops, oob)
        got = tx.run("batch_to_space_nd", **kw)
        same(got, want, "batch_to_space_nd oob=%s %s %s block %s crops %s" % (oob, y.dtype, y.shape, block, crops))
        inside = all(0 <= c0 and 0 <= c1 and c0 + c1 <= bshape[1 + k] * b for k, (b, (c0, c1)) in enumerate(zip(block, crops)))
        if inside:  # TF's own result when TF accepts the crops
            same(tx.run("batch_to_space_nd", **dict(kw, oob="error")), want, "oob=%s vs error" % oob)

    c.check("b2s_policy%d" % i, b2s_policy_case)


# ---- legacy 4-D forms ---------------------------------------------------------------------------------

for i in range(16):
    bs = int(rng.integers(2, 4))
    dt = DTYPES[(3 * i) % len(DTYPES)]
    h, w = int(rng.integers(0, 6)), int(rng.integers(0, 6))
    pads = []
    for d in (h, w):
        p0 = int(rng.integers(0, 3))
        p1 = int(rng.integers(0, 3))
        p1 += (bs - (d + p0 + p1) % bs) % bs
        pads.append([p0, p1])
    x = arr((int(rng.integers(1, 3)), h, w, int(rng.integers(1, 3))), dt)

    def legacy_case():
        got = tx.run("space_to_batch", input=x, paddings=int_arr(pads, (2, 2)), block_size=bs)
        same(got, s2b_ref(x, [bs, bs], pads), "space_to_batch %s bs %d pads %s" % (x.shape, bs, pads))
        back = tx.run("batch_to_space", input=got, crops=int_arr(pads, (2, 2)), block_size=bs)
        same(back, x, "batch_to_space %s bs %d" % (x.shape, bs))

    c.check("legacy%d" % i, legacy_case)


# ---- required_space_to_batch_paddings -----------------------------------------------------------------

for i in range(20):
    m = int(rng.integers(1, 5))
    shape = rng.integers(0, 20, size=m)
    block = rng.integers(1, 6, size=m)
    base = rng.integers(0, 4, size=(m, 2)) if i % 2 else None

    def req_case():
        b = np.zeros((m, 2), np.int64) if base is None else base
        full = shape + b[:, 0] + b[:, 1]
        extra = (block - full % block) % block
        want_p = np.stack([b[:, 0], b[:, 1] + extra], axis=1).astype(np.int32)
        want_c = np.stack([np.zeros(m, np.int64), extra], axis=1).astype(np.int32)
        kw = dict(input_shape=int_arr(shape), block_shape=int_arr(block))
        if base is not None:
            kw["base_paddings"] = int_arr(base)
        got = tx.run("required_space_to_batch_paddings", outputs=2, **kw)
        same(got[0], want_p, "paddings %s %s %s" % (shape, block, base))
        same(got[1], want_c, "crops %s %s %s" % (shape, block, base))
        # the result really makes space_to_batch_nd valid and batch_to_space_nd undo it
        if m <= 3 and int(np.prod(shape[:m] + want_p.sum(axis=1))) <= 4000:
            x = arr(tuple([1] + [int(s) for s in shape]), np.int16)
            y = tx.run("space_to_batch_nd", input=x, block_shape=block.astype(np.int32), paddings=got[0])
            z = tx.run("batch_to_space_nd", input=y, block_shape=block.astype(np.int32), crops=got[1])
            # crops remove only the extra padding: the result is x with base_paddings around it
            b = np.zeros((m, 2), np.int64) if base is None else base
            want = np.zeros([1] + [int(v) for v in shape + b[:, 0] + b[:, 1]], np.int16)
            want[(slice(None),) + tuple(slice(int(p0), int(p0) + int(v)) for v, p0 in zip(shape, b[:, 0]))] = x
            same(z, want, "required paddings round trip %s %s %s" % (shape, block, base))

    c.check("required%d" % i, req_case)


# ---- space_to_depth / depth_to_space ----------------------------------------------------------------------

for i in range(40):
    bs = int(rng.integers(2, 5))
    fmt = "NCHW" if i % 2 else "NHWC"
    dt = DTYPES[i % len(DTYPES)]
    n, h, w, ch = int(rng.integers(0, 3)), bs * int(rng.integers(0, 4)), bs * int(rng.integers(0, 4)), int(rng.integers(1, 4))
    if rng.random() < 0.1:
        ch = 0
    x = arr((n, h, w, ch) if fmt == "NHWC" else (n, ch, h, w), dt)

    def depth_case():
        got = tx.run("space_to_depth", input=x, block_size=bs, data_format=fmt)
        same(got, s2d_ref(x, bs, fmt), "space_to_depth %s %s bs %d %s" % (x.dtype, x.shape, bs, fmt))
        back = tx.run("depth_to_space", input=got, block_size=bs, data_format=fmt)
        same(back, x, "depth_to_space(space_to_depth) %s %s bs %d %s" % (x.dtype, x.shape, bs, fmt))
        y = arr(x.shape[:3] + (bs * bs * (x.shape[3] if fmt == "NHWC" else 1),) if fmt == "NHWC"
                else (x.shape[0], bs * bs * x.shape[1]) + x.shape[2:], dt)
        same(tx.run("depth_to_space", input=y, block_size=bs, data_format=fmt), d2s_ref(y, bs, fmt),
                       "depth_to_space %s %s bs %d %s" % (y.dtype, y.shape, bs, fmt))

    c.check("depth%d" % i, depth_case)


def d2s_crd_ref(x, bs, fmt):
    """ONNX DepthToSpace, mode CRD, as its specification writes it (NCHW)."""
    if fmt == "NHWC":
        return d2s_crd_ref(x.transpose(0, 3, 1, 2), bs, "NCHW").transpose(0, 2, 3, 1)
    b, ch, h, w = x.shape
    tmp = x.reshape(b, ch // (bs * bs), bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3)
    return tmp.reshape(b, ch // (bs * bs), h * bs, w * bs)


for i in range(40):
    bs = int(rng.integers(2, 5))
    fmt = "NCHW" if i % 2 else "NHWC"
    dt = DTYPES[i % len(DTYPES)]
    n, h, w, oc = int(rng.integers(0, 3)), int(rng.integers(0, 4)), int(rng.integers(0, 4)), int(rng.integers(0, 4))
    y = arr((n, h, w, bs * bs * oc) if fmt == "NHWC" else (n, bs * bs * oc, h, w), dt)

    def crd_case():
        same(tx.run("depth_to_space", input=y, block_size=bs, data_format=fmt, mode="CRD"),
             d2s_crd_ref(y, bs, fmt), "depth_to_space CRD %s %s bs %d %s" % (y.dtype, y.shape, bs, fmt))

    c.check("depth_crd%d" % i, crd_case)


# ---- extract_image_patches ----------------------------------------------------------------------------------

for i in range(60):
    dt = [np.float32, np.int32, np.uint8, np.float64, np.int16, np.float16, np.int64, "S", np.complex64][i % 9]
    img = arr((int(rng.integers(0, 3)), int(rng.integers(0, 8)), int(rng.integers(0, 8)), int(rng.integers(1, 4))), dt)
    k = [int(rng.integers(1, 4)), int(rng.integers(1, 4))]
    s = [int(rng.integers(1, 4)), int(rng.integers(1, 4))]
    r = [int(rng.integers(1, 4)), int(rng.integers(1, 4))]
    padding = "SAME" if i % 2 else "VALID"

    def patches_case():
        args = dict(images=img, ksizes=[1] + k + [1], strides=[1] + s + [1], rates=[1] + r + [1], padding=padding)
        orows, _ = windowed(img.shape[1], k[0], r[0], s[0], padding)
        ocols, _ = windowed(img.shape[2], k[1], r[1], s[1], padding)
        if orows < 0 or ocols < 0:
            err = tx.fails("extract_image_patches", **args)
            assert "output size would be negative" in err, err
            return
        same(tx.run("extract_image_patches", **args), patches_ref(img, k, s, r, padding),
                       "patches %s %s k %s s %s r %s %s" % (img.dtype, img.shape, k, s, r, padding))

    c.check("patches%d" % i, patches_case)


# ---- errors --------------------------------------------------------------------------------------------------

def errors():
    x = np.zeros((1, 4, 4, 1), np.float32)
    assert "not divisible by block_shape[0] = 3" in tx.fails("space_to_batch_nd", input=x, block_shape=np.array([3, 2], np.int32), paddings=np.zeros((2, 2), np.int32))
    assert "must be non-negative" in tx.fails("space_to_batch_nd", input=x, block_shape=np.array([2, 2], np.int64), paddings=np.array([[0, 0], [-2, 2]], np.int64))
    assert "must be >= 1" in tx.fails("batch_to_space_nd", input=x, block_shape=np.array([1, 0], np.int32), crops=np.zeros((2, 2), np.int32))
    assert "not divisible by the product of block_shape 4" in tx.fails("batch_to_space_nd", input=x, block_shape=np.array([2, 2], np.int32), crops=np.zeros((2, 2), np.int32))
    assert "larger than spatial dim" in tx.fails("batch_to_space_nd", input=np.zeros((4, 1, 1, 1), np.int8), block_shape=np.array([2, 2], np.int32), crops=np.array([[1, 2], [0, 0]], np.int32))
    assert "must have shape [2, 2]" in tx.fails("space_to_batch_nd", input=x, block_shape=np.array([2, 2], np.int32), paddings=np.zeros((2, 3), np.int32))
    assert "input rank must be >= 1 + M" in tx.fails("space_to_batch_nd", input=x, block_shape=np.array([1, 1, 1, 1], np.int32), paddings=np.zeros((4, 2), np.int32))
    assert "block_size must be > 1" in tx.fails("space_to_depth", input=x, block_size=1)
    assert "must be divisible by block_size * block_size" in tx.fails("depth_to_space", input=x, block_size=2)
    assert "unimplemented" in tx.fails("space_to_depth", input=x, block_size=2, data_format="NCHW_VECT_C")
    assert "out_of_range" in tx.fails("extract_image_patches", images=x, ksizes=[1, 0, 1, 1], strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="SAME")


c.check("errors", errors)
c.finish()
