// SPDX-License-Identifier: Apache-2.0
// ort_peer.js -- the ONNX Runtime peer of the tensorx benchmark (bench/peers.py runs it).  For each
// workload that has an ONNX operator it builds a one-node (or two-node) model in memory -- a
// minimal protobuf writer below, so no onnx package is needed -- and times InferenceSession.run
// with 1 and 2 intra-op threads, each both with ORT allocating the output and with a preallocated
// output tensor; the best of the four is reported.  Prints JSON lines {"workload", "peer", "s"}.
// Needs onnxruntime-node in bench/node_modules:
//   cd bench && ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save onnxruntime-node
// Usage: node bench/ort_peer.js [--quick] [--filter SUBSTR] [--exact NAME] [--reps N] [--list]
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

// ---- workloads (sizes mirror bench/bench.c) ----------------------------------------------------
const side4096 = (div) => (div >= 16 ? 1024 : div >= 4 ? 2048 : 4096);
const side8192 = (div) => (div >= 16 ? 2048 : div >= 4 ? 4096 : 8192);
const N64M = 64 << 20;
const I64MIN = -(2n ** 63n), I64MAX = 2n ** 63n - 1n;

function castWl(from, to) {
  return (div) => {
    const n = N64M / div;
    const x = from === 'uint8' ? filled('uint8', n, 0, 256) : filled(from, n, -1000, 1000);
    return {model: model([node('Cast', ['x'], ['y'], {to: T[to]})], [['x', from, [n]]], [['y', to, [n]]]),
      feeds: {x: tensor(from, x, [n])}, out: ['y', to, [n]]};
  };
}
function transposeWl(c) {
  return (div) => {
    let dims, perm;
    if (c === 0) { const s = side8192(div); dims = [s, s]; perm = [1, 0]; }
    else if (c === 1 || c === 2) { dims = [Math.max(64 / div, 1), 512, 512]; perm = c === 1 ? [0, 2, 1] : [2, 0, 1]; }
    else { dims = [Math.max(32 / div, 1), 224, 224, 3]; perm = [0, 3, 1, 2]; }
    const od = perm.map((p) => dims[p]);
    return {model: model([node('Transpose', ['x'], ['y'], {perm})], [['x', 'float32', dims]], [['y', 'float32', od]]),
      feeds: {x: tensor('float32', filled('float32', prod(dims), -1, 1), dims)}, out: ['y', 'float32', od]};
  };
}
function sliceWl(div, starts, ends, axes, steps, s, od) {
  const dims = [s, s];
  const i64 = (v) => tensor('int64', BigInt64Array.from(v), [v.length]);
  return {model: model([node('Slice', ['x', 'st', 'en', 'ax', 'sp'], ['y'])],
    [['x', 'float32', dims], ['st', 'int64', [starts.length]], ['en', 'int64', [ends.length]],
      ['ax', 'int64', [axes.length]], ['sp', 'int64', [steps.length]]], [['y', 'float32', od]]),
  feeds: {x: tensor('float32', filled('float32', s * s, -1, 1), dims), st: i64(starts), en: i64(ends),
    ax: i64(axes), sp: i64(steps)}, out: ['y', 'float32', od]};
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
    const n = N64M / div;
    return {model: model([node('Clip', ['x', 'lo', 'hi'], ['c']), node('Cast', ['c'], ['y'], {to: T.uint8})],
      [['x', 'float32', [n]], ['lo', 'float32', []], ['hi', 'float32', []]], [['y', 'uint8', [n]]]),
    feeds: {x: tensor('float32', filled('float32', n, -100, 400), [n]),
      lo: tensor('float32', Float32Array.from([0]), []), hi: tensor('float32', Float32Array.from([255]), [])},
    out: ['y', 'uint8', [n]]};
  },
  transpose_8192x8192: transposeWl(0),
  transpose_64x512x512_021: transposeWl(1),
  transpose_64x512x512_201: transposeWl(2),
  transpose_nhwc_nchw_32x224x224x3: transposeWl(3),
  concat_2x4096x4096_axis0: (div) => concatWl(div, 0),
  concat_2x4096x4096_axis1: (div) => concatWl(div, 1),
  reverse_8192x8192_axis1: (div) => { const s = side8192(div); return sliceWl(div, [-1n], [I64MIN], [1n], [-1n], s, [s, s]); },
  strided_slice_8192x8192_s2_rev: (div) => {
    const s = side8192(div);
    return sliceWl(div, [0n, -1n], [I64MAX, I64MIN], [0n, 1n], [2n, -1n], s, [s / 2, s]);
  },
  pad_4096x4096_16_constant: (div) => padWl(div, 'constant'),
  pad_4096x4096_16_reflect: (div) => padWl(div, 'reflect'),
  tile_1024x1024_4x4: (div) => {
    const s = div >= 4 ? 512 : 1024;
    return {model: model([node('Tile', ['x', 'r'], ['y'])], [['x', 'float32', [s, s]], ['r', 'int64', [2]]],
      [['y', 'float32', [4 * s, 4 * s]]]),
    feeds: {x: tensor('float32', filled('float32', s * s, -1, 1), [s, s]), r: tensor('int64', BigInt64Array.from([4n, 4n]), [2])},
    out: ['y', 'float32', [4 * s, 4 * s]]};
  },
  gather_rows_1Mx64_1M: (div) => {
    const r = (1 << 20) / div;
    return gatherWl([r, 64], r, r, 0, [r, 64]);
  },
  gather_axis1_4096x4096: (div) => { const s = side4096(div); return gatherWl([s, s], s, s, 1, [s, s]); },
  gather_nd_1024x1024x16_1M: (div) => {
    const n = (1 << 20) / div;
    return {model: model([node('GatherND', ['x', 'i'], ['y'])], [['x', 'float32', [1024, 1024, 16]], ['i', 'int64', [n, 2]]],
      [['y', 'float32', [n, 16]]]),
    feeds: {x: tensor('float32', filled('float32', 1024 * 1024 * 16, -1, 1), [1024, 1024, 16]),
      i: tensor('int64', filled('int64', 2 * n, 0, 1024), [n, 2])}, out: ['y', 'float32', [n, 16]]};
  },
  one_hot_1M_depth1000: (div) => {
    const n = (1 << 20) / div;
    return {model: model([node('OneHot', ['i', 'd', 'v'], ['y'], {axis: -1})],
      [['i', 'int32', [n]], ['d', 'int32', []], ['v', 'float32', [2]]], [['y', 'float32', [n, 1000]]]),
    feeds: {i: tensor('int32', filled('int32', n, 0, 1000), [n]), d: tensor('int32', Int32Array.from([1000]), []),
      v: tensor('float32', Float32Array.from([0, 1]), [2])}, out: ['y', 'float32', [n, 1000]]};
  },
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
function concatWl(div, axis) {
  const s = side4096(div);
  const od = axis ? [s, 2 * s] : [2 * s, s];
  return {model: model([node('Concat', ['a', 'b'], ['y'], {axis})], [['a', 'float32', [s, s]], ['b', 'float32', [s, s]]],
    [['y', 'float32', od]]),
  feeds: {a: tensor('float32', filled('float32', s * s, -1, 1), [s, s]), b: tensor('float32', filled('float32', s * s, -1, 1), [s, s])},
  out: ['y', 'float32', od]};
}
function padWl(div, mode) {
  const s = side4096(div);
  return {model: model([node('Pad', ['x', 'p'], ['y'], {mode})], [['x', 'float32', [s, s]], ['p', 'int64', [4]]],
    [['y', 'float32', [s + 32, s + 32]]]),
  feeds: {x: tensor('float32', filled('float32', s * s, -1, 1), [s, s]), p: tensor('int64', BigInt64Array.from([16n, 16n, 16n, 16n]), [4])},
  out: ['y', 'float32', [s + 32, s + 32]]};
}
function gatherWl(dims, n, range, axis, od) {
  return {model: model([node('Gather', ['x', 'i'], ['y'], {axis})], [['x', 'float32', dims], ['i', 'int32', [n]]],
    [['y', 'float32', od]]),
  feeds: {x: tensor('float32', filled('float32', prod(dims), -1, 1), dims), i: tensor('int32', filled('int32', n, 0, range), [n])},
  out: ['y', 'float32', od]};
}

// ---- timing ----------------------------------------------------------------------------------
async function timeRun(session, feeds, fetches, reps) {
  const ts = [];
  let t0 = process.hrtime.bigint();
  await (fetches ? session.run(feeds, fetches) : session.run(feeds));
  const first = Number(process.hrtime.bigint() - t0) / 1e9;
  if (first > 2) reps = 1; else if (first > 0.5) reps = Math.min(reps, 3);
  for (let r = 0; r < reps; r++) {
    t0 = process.hrtime.bigint();
    await (fetches ? session.run(feeds, fetches) : session.run(feeds));
    ts.push(Number(process.hrtime.bigint() - t0) / 1e9);
  }
  ts.sort((a, b) => a - b);
  const k = ts.length;
  return k % 2 ? ts[(k - 1) / 2] : 0.5 * (ts[k / 2 - 1] + ts[k / 2]);
}

async function main() {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const fi = args.indexOf('--filter');
  const filter = fi >= 0 ? args[fi + 1] : null;
  const ei = args.indexOf('--exact');
  const exact = ei >= 0 ? args[ei + 1] : null;
  if (args.includes('--list')) {
    for (const name of Object.keys(WORKLOADS)) console.log(name);
    return;
  }
  const ri = args.indexOf('--reps');
  const reps = ri >= 0 ? Number(args[ri + 1]) : quick ? 3 : 5;
  const div = quick ? 8 : 1;
  for (const [name, build] of Object.entries(WORKLOADS)) {
    if (filter && !name.includes(filter)) continue;
    if (exact && name !== exact) continue;
    let best = Infinity;
    try {
      const w = build(div);
      for (const threads of quick ? [2] : [1, 2]) {
        if (Number.isFinite(best) && best > 2) break; /* very slow: one variant is enough */
        const session = await ort.InferenceSession.create(w.model, {intraOpNumThreads: threads,
          interOpNumThreads: 1, graphOptimizationLevel: 'all'});
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
      }
    } catch (e) {
      process.stderr.write(`ort_peer: ${name}: ${e.message}\n`);
      continue;
    }
    if (Number.isFinite(best)) console.log(JSON.stringify({workload: name, peer: 'ort', s: best}));
  }
}
main();
