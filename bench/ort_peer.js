// SPDX-License-Identifier: Apache-2.0
// ort_peer.js -- the ONNX Runtime peer of the tensorx benchmark (bench/peers.py runs it).  For each
// workload that has an ONNX operator it builds a one-node (or two-node) model in memory -- a
// minimal protobuf writer below, so no onnx package is needed -- and times InferenceSession.run
// with 1 and 2 intra-op threads, each both with ORT allocating the output and with a preallocated
// output tensor; the best of the four is reported.  Prints JSON lines {"workload", "peer", "s"}.
// A call shorter than 2 ms is timed over many calls per sample (time per call).  For the
// inference-shape workloads (infer_*) it also prints {"workload", "peer": "ort_session", "s"}: the
// same timing of a one-node Identity graph on one float32 with the same session options, i.e. the
// fixed cost of a session.run that the op's time includes.  The workloads that have an `expect`
// (all but unique_with_counts) are checked once before timing: every output element (or, above
// 256K elements, 256K evenly spaced ones) against a reference computed here.
// --sweep (bench/sweep.py) times one family at each of the given shapes and prints
// {"family", "dims", "peer": "ort", "s"}.
// Needs onnxruntime-node in bench/node_modules:
//   cd bench && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save onnxruntime-node
// Usage: node bench/ort_peer.js [--quick] [--filter SUBSTR] [--exact NAME] [--reps N] [--list]
//        node bench/ort_peer.js --sweep FAMILY --dims "D0,D1,..[;D0,D1,..]" [--reps N]
//        node bench/ort_peer.js --sweep-list
'use strict';
const ort = require('onnxruntime-node');

// ---- a minimal protobuf writer for ModelProto ------------------------------------------------
function varint(n) {
  const out = [];
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const key = (field, wire) => varint((field << 3) | wire);
const vint = (field, n) => [...key(field, 0), ...varint(n)];
function bytesField(field, bytes) {
  return [...key(field, 2), ...varint(bytes.length), ...bytes];
}
const str = (field, s) => bytesField(field, [...Buffer.from(s, 'utf8')]);
const msg = (field, parts) => bytesField(field, parts.flat());

const T = {float32: 1, uint8: 2, int16: 5, int32: 6, int64: 7, float16: 10, float64: 11,
  bfloat16: 16};
function valueInfo(field, name, elem, dims) {
  const shape = dims.map((d) => msg(1, [vint(1, d)]));
  const tensorType = [vint(1, T[elem]), msg(2, shape)];
  return msg(field, [str(1, name), msg(2, [msg(1, tensorType)])]);
}
function attr(name, v) {
  if (Array.isArray(v)) return msg(5, [str(1, name), ...v.map((x) => vint(8, x)), vint(20, 7)]);
  if (typeof v === 'string') return msg(5, [str(1, name), str(4, v), vint(20, 3)]);
  return msg(5, [str(1, name), vint(3, v), vint(20, 2)]);
}
function node(op, inputs, outputs, attrs = {}) {
  return msg(1, [...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(4, op),
    ...Object.entries(attrs).map(([k, v]) => attr(k, v))]);
}
// inputs/outputs: [name, elem, dims]
function model(nodes, inputs, outputs) {
  const graph = [...nodes, str(2, 'g'), ...inputs.map(([n, e, d]) => valueInfo(11, n, e, d)),
    ...outputs.map(([n, e, d]) => valueInfo(12, n, e, d))];
  return Uint8Array.from([...vint(1, 8), ...msg(8, [str(1, ''), vint(2, 17)]), ...msg(7, graph)]);
}

// ---- inputs ----------------------------------------------------------------------------------
let seed = 12345;
function rnd() { // xorshift32 in [0, 1)
  seed ^= seed << 13; seed >>>= 0; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
  return seed / 4294967296;
}
const ARR = {float32: Float32Array, float64: Float64Array, int32: Int32Array, uint8: Uint8Array,
  int64: BigInt64Array, float16: Uint16Array, int16: Int16Array};
function filled(elem, n, lo, hi) {
  const a = new ARR[elem](n);
  if (elem === 'float16') { for (let i = 0; i < n; i++) a[i] = (rnd() * 65536) & 0xBFFF; return a; }
  if (elem === 'int64') { for (let i = 0; i < n; i++) a[i] = BigInt(Math.floor(lo + (hi - lo) * rnd())); return a; }
  const int = elem !== 'float32' && elem !== 'float64';
  for (let i = 0; i < n; i++) { const v = lo + (hi - lo) * rnd(); a[i] = int ? Math.floor(v) : v; }
  return a;
}
const tensor = (elem, data, dims) => new ort.Tensor(elem, data, dims);
const prod = (d) => d.reduce((a, b) => a * b, 1);

// ---- workloads (sizes mirror bench/workloads.c) ------------------------------------------------
const side4096 = (div) => (div >= 16 ? 1024 : div >= 4 ? 2048 : 4096);
const side8192 = (div) => (div >= 16 ? 2048 : div >= 4 ? 4096 : 8192);
const N64M = 64 << 20;
const I64MIN = -(2n ** 63n), I64MAX = 2n ** 63n - 1n;

function castN(from, to, n) {
  const x = from === 'uint8' ? filled('uint8', n, 0, 256) : filled(from, n, -1000, 1000);
  const conv = {float16: f32ToF16Bits, int32: Math.trunc, float32: from === 'float16' ? f16BitsToF32 : Math.fround}[to];
  return {model: model([node('Cast', ['x'], ['y'], {to: T[to]})], [['x', from, [n]]], [['y', to, [n]]]),
    feeds: {x: tensor(from, x, [n])}, out: ['y', to, [n]], expect: (k) => conv(x[k])};
}
const castWl = (from, to) => (div) => castN(from, to, N64M / div);
function transposeWl(c) {
  return (div) => {
    let dims, perm;
    if (c === 0) { const s = side8192(div); dims = [s, s]; perm = [1, 0]; }
    else if (c === 1 || c === 2) { dims = [Math.max(64 / div, 1), 512, 512]; perm = c === 1 ? [0, 2, 1] : [2, 0, 1]; }
    else { dims = [Math.max(32 / div, 1), 224, 224, 3]; perm = [0, 3, 1, 2]; }
    return transposeShape(dims, perm);
  };
}
// A Slice of an s x s float32 matrix; rowStep 1 or 2, columns reversed (what reverse and
// strided_slice take of it).
function sliceWl(div, starts, ends, axes, steps, s, od, rowStep) {
  const dims = [s, s], x = filled('float32', s * s, -1, 1);
  const i64 = (v) => tensor('int64', BigInt64Array.from(v), [v.length]);
  return {model: model([node('Slice', ['x', 'st', 'en', 'ax', 'sp'], ['y'])],
    [['x', 'float32', dims], ['st', 'int64', [starts.length]], ['en', 'int64', [ends.length]],
      ['ax', 'int64', [axes.length]], ['sp', 'int64', [steps.length]]], [['y', 'float32', od]]),
  feeds: {x: tensor('float32', x, dims), st: i64(starts), en: i64(ends),
    ax: i64(axes), sp: i64(steps)}, out: ['y', 'float32', od],
  expect: (k) => x[Math.floor(k / s) * rowStep * s + (s - 1 - (k % s))]};
}

// ---- references for the check: the expected output element at flat index k ------------------
const F32 = new Float32Array(1), U32 = new Uint32Array(F32.buffer);
function f32ToF16Bits(f) { // round to nearest even, as IEEE conversion does
  F32[0] = f;
  const x = U32[0], sign = (x >>> 16) & 0x8000, exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e, rem = mant & ((1 << shift) - 1), halfway = 1 << (shift - 1);
    let h = mant >>> shift;
    if (rem > halfway || (rem === halfway && (h & 1))) h++;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h++;
  return sign | h;
}
const strides = (d) => { const s = new Array(d.length).fill(1); for (let i = d.length - 2; i >= 0; i--) s[i] = s[i + 1] * d[i + 1]; return s; };
function coords(k, dims) { const c = new Array(dims.length); for (let i = dims.length - 1; i >= 0; i--) { c[i] = k % dims[i]; k = Math.floor(k / dims[i]); } return c; }
const dot = (c, s) => c.reduce((a, v, i) => a + v * s[i], 0);
function expectTranspose(x, dims, perm) {
  const od = perm.map((p) => dims[p]), is = strides(dims);
  return (k) => { const c = coords(k, od); let j = 0; for (let i = 0; i < c.length; i++) j += c[i] * is[perm[i]]; return x[j]; };
}
function expectConcat(a, b, dims, axis) {
  const od = dims.slice(); od[axis] *= 2;
  const is = strides(dims);
  return (k) => { const c = coords(k, od); const second = c[axis] >= dims[axis]; if (second) c[axis] -= dims[axis]; return (second ? b : a)[dot(c, is)]; };
}
function expectPad(x, dims, p, mode = 'constant') { // constant 0, or reflect (edge not repeated)
  const od = dims.map((d) => d + 2 * p), is = strides(dims);
  return (k) => {
    const c = coords(k, od);
    for (let i = 0; i < c.length; i++) {
      c[i] -= p;
      if (c[i] >= 0 && c[i] < dims[i]) continue;
      if (mode === 'constant') return 0;
      c[i] = c[i] < 0 ? -c[i] : 2 * (dims[i] - 1) - c[i];
    }
    return x[dot(c, is)];
  };
}
function expectEveryOther(x, dims, axis) {
  const od = dims.slice(); od[axis] /= 2;
  const is = strides(dims);
  return (k) => { const c = coords(k, od); c[axis] *= 2; return x[dot(c, is)]; };
}
const expectGatherRows = (x, idx, cols) => (k) => x[idx[Math.floor(k / cols)] * cols + (k % cols)];
const expectOneHot = (idx, depth) => (k) => (idx[Math.floor(k / depth)] === k % depth ? 1 : 0);
const expectCastF16 = (x) => (k) => f32ToF16Bits(x[k]);
function f16BitsToF32(h) {
  const e = (h >>> 10) & 0x1f, m = h & 0x3ff;
  const v = e === 0 ? m * 2 ** -24 : e === 31 ? (m ? NaN : Infinity) : (1 + m / 1024) * 2 ** (e - 15);
  return h & 0x8000 ? -v : v;
}
// Whether output data y matches expect at every index (up to 256K elements) or at 256K evenly
// spaced ones and the last (enough to catch a wrong layout; the check stays well under a second).
function matches(y, expect) {
  const n = y.length, step = n > (1 << 18) ? Math.floor(n / (1 << 18)) : 1;
  for (let k = 0; k < n; k += step) if (y[k] !== expect(k)) return false;
  return y[n - 1] === expect(n - 1);
}

const WORKLOADS = {
  cast_f32_f16: castWl('float32', 'float16'),
  cast_f16_f32: castWl('float16', 'float32'),
  // cast_f32_bf16: onnxruntime-node has no bfloat16 tensors on the JavaScript side.
  cast_f32_i32: castWl('float32', 'int32'),
  cast_i32_f32: castWl('int32', 'float32'),
  cast_f64_f32: castWl('float64', 'float32'),
  cast_u8_f32: castWl('uint8', 'float32'),
  saturate_cast_f32_u8: (div) => {
    const n = N64M / div, x = filled('float32', n, -100, 400);
    return {model: model([node('Clip', ['x', 'lo', 'hi'], ['c']), node('Cast', ['c'], ['y'], {to: T.uint8})],
      [['x', 'float32', [n]], ['lo', 'float32', []], ['hi', 'float32', []]], [['y', 'uint8', [n]]]),
    feeds: {x: tensor('float32', x, [n]),
      lo: tensor('float32', Float32Array.from([0]), []), hi: tensor('float32', Float32Array.from([255]), [])},
    out: ['y', 'uint8', [n]], expect: (k) => Math.trunc(Math.min(255, Math.max(0, x[k])))};
  },
  transpose_8192x8192: transposeWl(0),
  transpose_64x512x512_021: transposeWl(1),
  transpose_64x512x512_201: transposeWl(2),
  transpose_nhwc_nchw_32x224x224x3: transposeWl(3),
  concat_2x4096x4096_axis0: (div) => concatWl(div, 0),
  concat_2x4096x4096_axis1: (div) => concatWl(div, 1),
  reverse_8192x8192_axis1: (div) => { const s = side8192(div); return sliceWl(div, [-1n], [I64MIN], [1n], [-1n], s, [s, s], 1); },
  strided_slice_8192x8192_s2_rev: (div) => {
    const s = side8192(div);
    return sliceWl(div, [0n, -1n], [I64MAX, I64MIN], [0n, 1n], [2n, -1n], s, [s / 2, s], 2);
  },
  pad_4096x4096_16_constant: (div) => padWl(div, 'constant'),
  pad_4096x4096_16_reflect: (div) => padWl(div, 'reflect'),
  tile_1024x1024_4x4: (div) => {
    const s = div >= 4 ? 512 : 1024, x = filled('float32', s * s, -1, 1);
    return {model: model([node('Tile', ['x', 'r'], ['y'])], [['x', 'float32', [s, s]], ['r', 'int64', [2]]],
      [['y', 'float32', [4 * s, 4 * s]]]),
    feeds: {x: tensor('float32', x, [s, s]), r: tensor('int64', BigInt64Array.from([4n, 4n]), [2])},
    out: ['y', 'float32', [4 * s, 4 * s]], expect: (k) => x[(Math.floor(k / (4 * s)) % s) * s + (k % s)]};
  },
  gather_rows_1Mx64_1M: (div) => {
    const r = (1 << 20) / div;
    return gatherWl([r, 64], r, r, 0, [r, 64]);
  },
  gather_axis1_4096x4096: (div) => { const s = side4096(div); return gatherWl([s, s], s, s, 1, [s, s]); },
  gather_nd_1024x1024x16_1M: (div) => {
    const n = (1 << 20) / div, x = filled('float32', 1024 * 1024 * 16, -1, 1), i = filled('int64', 2 * n, 0, 1024);
    return {model: model([node('GatherND', ['x', 'i'], ['y'])], [['x', 'float32', [1024, 1024, 16]], ['i', 'int64', [n, 2]]],
      [['y', 'float32', [n, 16]]]),
    feeds: {x: tensor('float32', x, [1024, 1024, 16]), i: tensor('int64', i, [n, 2])}, out: ['y', 'float32', [n, 16]],
    expect: (k) => { const r = Math.floor(k / 16); return x[(Number(i[2 * r]) * 1024 + Number(i[2 * r + 1])) * 16 + (k % 16)]; }};
  },
  one_hot_1M_depth1000: (div) => oneHotWl((1 << 20) / div),
  // ORT's CPU Unique has no int32 kernel: it gets the same values as int64.
  unique_with_counts_16M_1000: (div) => {
    const n = (16 << 20) / div;
    const vals = filled('int32', 1000, 0, 2147483647);
    const x = new BigInt64Array(n);
    for (let i = 0; i < n; i++) x[i] = BigInt(vals[Math.floor(rnd() * 1000)]);
    return {model: model([node('Unique', ['x'], ['y', 'idx', 'inv', 'cnt'], {sorted: 0})], [['x', 'int64', [n]]],
      [['y', 'int64', [1000]], ['idx', 'int64', [1000]], ['inv', 'int64', [n]], ['cnt', 'int64', [1000]]]),
    feeds: {x: tensor('int64', x, [n])}, out: null};
  },
};
// The inference shapes (fixed sizes, quick or not; mirror bench/workloads.c's setup_infer).
Object.assign(WORKLOADS, {
  infer_embedding_gather_30522x768_128: () => {
    const w = gatherWl([30522, 768], 128, 30522, 0, [128, 768]);
    w.expect = expectGatherRows(w.feeds.x.data, w.feeds.i.data, 768);
    return w;
  },
  infer_nhwc_nchw_1x224x224x3: () => transposeShape([1, 224, 224, 3], [0, 3, 1, 2]),
  infer_strided_slice_1x128x768_s2: () => everyOtherWl([1, 128, 768], 1),
  infer_concat_kv_f16_1x32x512x128_x2: () => concatShape('float16', [1, 32, 512, 128], 2),
  infer_one_hot_128_depth1000: () => oneHotWl(128),
  // infer_cast_f32_bf16_1x4096: no bfloat16 tensors on the JavaScript side (as cast_f32_bf16).
});
function transposeShape(dims, perm) {
  const od = perm.map((p) => dims[p]), x = filled('float32', prod(dims), -1, 1);
  return {model: model([node('Transpose', ['x'], ['y'], {perm})], [['x', 'float32', dims]], [['y', 'float32', od]]),
    feeds: {x: tensor('float32', x, dims)}, out: ['y', 'float32', od], expect: expectTranspose(x, dims, perm)};
}
function concatShape(elem, dims, axis) {
  const od = dims.slice(); od[axis] *= 2;
  const a = filled(elem, prod(dims), -1, 1), b = filled(elem, prod(dims), -1, 1);
  return {model: model([node('Concat', ['a', 'b'], ['y'], {axis})], [['a', elem, dims], ['b', elem, dims]], [['y', elem, od]]),
    feeds: {a: tensor(elem, a, dims), b: tensor(elem, b, dims)}, out: ['y', elem, od], expect: expectConcat(a, b, dims, axis)};
}
function everyOtherWl(dims, axis) { // x[..., ::2 on axis, ...] as an ONNX Slice with step 2
  const od = dims.slice(); od[axis] /= 2;
  const x = filled('float32', prod(dims), -1, 1);
  const i64 = (v) => tensor('int64', BigInt64Array.from(v), [1]);
  return {model: model([node('Slice', ['x', 'st', 'en', 'ax', 'sp'], ['y'])],
    [['x', 'float32', dims], ['st', 'int64', [1]], ['en', 'int64', [1]], ['ax', 'int64', [1]], ['sp', 'int64', [1]]],
    [['y', 'float32', od]]),
  feeds: {x: tensor('float32', x, dims), st: i64([0n]), en: i64([I64MAX]), ax: i64([BigInt(axis)]), sp: i64([2n])},
  out: ['y', 'float32', od], expect: expectEveryOther(x, dims, axis)};
}
function oneHotN(n) { // n labels, depth 1000
  return {model: model([node('OneHot', ['i', 'd', 'v'], ['y'], {axis: -1})],
    [['i', 'int32', [n]], ['d', 'int32', []], ['v', 'float32', [2]]], [['y', 'float32', [n, 1000]]]),
  feeds: {i: tensor('int32', filled('int32', n, 0, 1000), [n]), d: tensor('int32', Int32Array.from([1000]), []),
    v: tensor('float32', Float32Array.from([0, 1]), [2])}, out: ['y', 'float32', [n, 1000]]};
}
function oneHotWl(n) { // oneHotN with its check
  const w = oneHotN(n);
  w.expect = expectOneHot(w.feeds.i.data, 1000);
  return w;
}

// ---- the size sweep (bench/sweep.py gives the shapes; what each family's dims mean is there) ---
const SWEEP = {
  cast_f32_f16: ([n]) => { const w = castN('float32', 'float16', n); w.expect = expectCastF16(w.feeds.x.data); return w; },
  transpose_2d: (d) => transposeShape(d, [1, 0]),
  nhwc_nchw: (d) => transposeShape(d, [0, 3, 1, 2]),
  nchw_nhwc: (d) => transposeShape(d, [0, 2, 3, 1]),
  concat: (d) => concatShape('float32', d, 1),
  pad: ([r, c]) => {
    const x = filled('float32', r * c, -1, 1);
    return {model: model([node('Pad', ['x', 'p'], ['y'], {mode: 'constant'})], [['x', 'float32', [r, c]], ['p', 'int64', [4]]],
      [['y', 'float32', [r + 2, c + 2]]]),
    feeds: {x: tensor('float32', x, [r, c]), p: tensor('int64', BigInt64Array.from([1n, 1n, 1n, 1n]), [4])},
    out: ['y', 'float32', [r + 2, c + 2]], expect: expectPad(x, [r, c], 1)};
  },
  strided_slice: (d) => everyOtherWl(d, 0),
  gather_rows: ([r, c]) => { const w = gatherWl([r, c], r, r, 0, [r, c]); w.expect = expectGatherRows(w.feeds.x.data, w.feeds.i.data, c); return w; },
  one_hot: ([n]) => oneHotWl(n),
};

const concatWl = (div, axis) => { const s = side4096(div); return concatShape('float32', [s, s], axis); };
function padWl(div, mode) {
  const s = side4096(div), x = filled('float32', s * s, -1, 1);
  return {model: model([node('Pad', ['x', 'p'], ['y'], {mode})], [['x', 'float32', [s, s]], ['p', 'int64', [4]]],
    [['y', 'float32', [s + 32, s + 32]]]),
  feeds: {x: tensor('float32', x, [s, s]), p: tensor('int64', BigInt64Array.from([16n, 16n, 16n, 16n]), [4])},
  out: ['y', 'float32', [s + 32, s + 32]], expect: expectPad(x, [s, s], 16, mode)};
}
// Gather along axis 0 or 1 of a 2-D float32 table (od: the output's dims).
function gatherWl(dims, n, range, axis, od) {
  const x = filled('float32', prod(dims), -1, 1), i = filled('int32', n, 0, range);
  return {model: model([node('Gather', ['x', 'i'], ['y'], {axis})], [['x', 'float32', dims], ['i', 'int32', [n]]],
    [['y', 'float32', od]]),
  feeds: {x: tensor('float32', x, dims), i: tensor('int32', i, [n])}, out: ['y', 'float32', od],
  expect: axis === 0 ? expectGatherRows(x, i, dims[1]) : (k) => x[Math.floor(k / n) * dims[1] + i[k % n]]};
}

// ---- timing ----------------------------------------------------------------------------------
const since = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;
// One call per sample from 2 ms up; below, enough calls to last about 2 ms.
const callsPerSample = (s) => (s >= 2e-3 ? 1 : Math.min(100000, Math.floor(2e-3 / Math.max(s, 1e-8)) + 1));
// The warm-up: 5 calls, or fewer when they pass 1 s (as in bench.c's time_op).
async function timeRun(session, feeds, fetches, reps) {
  const run = () => (fetches ? session.run(feeds, fetches) : session.run(feeds));
  const ts = [];
  const start = process.hrtime.bigint();
  let t0, last = 0;
  for (let k = 0; k < 5 && (k === 0 || since(start) < 1.0); k++) {
    t0 = process.hrtime.bigint();
    await run();
    last = since(t0);
  }
  if (last > 2) reps = 1; else if (last > 0.5) reps = Math.min(reps, 3);
  const calls = callsPerSample(last);
  for (let r = 0; r < reps; r++) {
    t0 = process.hrtime.bigint();
    for (let c = 0; c < calls; c++) await run();
    ts.push(since(t0) / calls);
  }
  ts.sort((a, b) => a - b);
  const k = ts.length;
  return k % 2 ? ts[(k - 1) / 2] : 0.5 * (ts[k / 2 - 1] + ts[k / 2]);
}

const IDENTITY = model([node('Identity', ['x'], ['y'])], [['x', 'float32', [1]]], [['y', 'float32', [1]]]);
const sessionOptions = (threads) => ({intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all'});

// {best, floor}: the best seconds per call of workload w over the thread counts (each with ORT
// allocating the output and with a preallocated one), and with withFloor the best time of the
// Identity graph under the same options.  Throws when the check fails.
async function measure(w, reps, threadList, withFloor) {
  let best = Infinity, floor = Infinity, checked = !w.expect;
  for (const threads of threadList) {
    if (Number.isFinite(best) && best > 2) break; /* very slow: one variant is enough */
    const session = await ort.InferenceSession.create(w.model, sessionOptions(threads));
    if (!checked) {
      const res = await session.run(w.feeds);
      if (!matches(res[w.out[0]].data, w.expect)) throw new Error('the result differs from the reference; left out');
      checked = true;
    }
    best = Math.min(best, await timeRun(session, w.feeds, null, reps));
    if (w.out && best <= 2) {
      const [oname, elem, dims] = w.out;
      let pre = null;
      try {
        const Arr = elem === 'bfloat16' ? Uint16Array : ARR[elem];
        pre = {[oname]: new ort.Tensor(elem, new Arr(prod(dims)), dims)};
      } catch (e) { pre = null; }
      if (pre) {
        try { best = Math.min(best, await timeRun(session, w.feeds, pre, reps)); } catch (e) { /* no preallocation */ }
      }
    }
    await session.release();
    if (withFloor) {
      const id = await ort.InferenceSession.create(IDENTITY, sessionOptions(threads));
      floor = Math.min(floor, await timeRun(id, {x: tensor('float32', Float32Array.from([1]), [1])}, null, reps));
      await id.release();
    }
  }
  return {best, floor};
}

async function sweep(family, dimsList, reps) {
  for (const item of dimsList.split(';')) {
    const dims = item.split(',').map(Number);
    try {
      const {best} = await measure(SWEEP[family](dims), reps, [1, 2], false);
      if (Number.isFinite(best)) console.log(JSON.stringify({family, dims: item, peer: 'ort', s: best}));
    } catch (e) {
      process.stderr.write(`ort_peer: ${family} ${item}: ${e.message}\n`);
    }
  }
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : null; };
  const filter = opt('--filter'), exact = opt('--exact');
  if (args.includes('--list')) {
    for (const name of Object.keys(WORKLOADS)) console.log(name);
    return;
  }
  if (args.includes('--sweep-list')) {
    for (const name of Object.keys(SWEEP)) console.log(name);
    return;
  }
  const reps = opt('--reps') ? Number(opt('--reps')) : quick ? 3 : 5;
  if (opt('--sweep')) {
    if (!SWEEP[opt('--sweep')] || !opt('--dims')) throw new Error('--sweep needs a known family and --dims');
    await sweep(opt('--sweep'), opt('--dims'), reps);
    return;
  }
  const div = quick ? 8 : 1;
  for (const [name, build] of Object.entries(WORKLOADS)) {
    if (filter && !name.includes(filter)) continue;
    if (exact && name !== exact) continue;
    const infer = name.startsWith('infer_');
    let r;
    try {
      r = await measure(build(div), reps, quick && !infer ? [2] : [1, 2], infer);
    } catch (e) {
      process.stderr.write(`ort_peer: ${name}: ${e.message}\n`);
      continue;
    }
    if (Number.isFinite(r.best)) console.log(JSON.stringify({workload: name, peer: 'ort', s: r.best}));
    if (Number.isFinite(r.floor)) console.log(JSON.stringify({workload: name, peer: 'ort_session', s: r.floor}));
  }
}
main();
