/*
 * Scoring and softmax: for every feature the model knows, its value times its row's scale times the row's weight
 * for each situation, added to the situation's bias; the situations' softmax at a temperature; each output class's
 * probability, the sum of its situations'. This is most of a prediction's time, so it runs in WebAssembly SIMD,
 * four situations per instruction; the JS loop serves where WebAssembly is missing (node --jitless).
 *
 * The SIMD module is small enough to emit here, instruction by instruction, so it needs no toolchain and no build
 * step. Its memory holds, in this order: the reply's feature buckets and values (features are extracted straight
 * into it), the situations' exponentials, the biases, the class probabilities, the row scales, the bucket -> row
 * table, and the weight rows, Int8, each padded to a multiple of 16 bytes. The module looks each bucket up itself,
 * so JS only starts it and reads the best class's probability. It computes in f32 where the JS loop uses f64, and
 * its exponential is Cephes' expf polynomial (relative error about 1e-7): a probability moves by about 1e-6, far
 * below the margin any class is won by (on the corpus and the dev set no answer changes).
 */
import { MAX_FEATURES, newFeatures, type Features } from './features.ts';
import { aggregate, softmax } from './linear-model.ts';
import type { CompactModel } from './model-file.ts';

/**
 * Scores a reply's features and takes the softmax of the scores at `temperature`: returns the most probable
 * output class (the first of equals); the output classes' probabilities are in `probabilities` until the next call.
 */
export type Classify = (f: Features, temperature: number) => number;

/** A classifier, the feature buffer it reads fastest, and the bucket -> row table it reads (for the SIMD one, both in its own memory) */
export interface Scoring {
  readonly classify: Classify;
  readonly probabilities: Float32Array | Float64Array;
  readonly features: Features;
  readonly rowOf: Uint16Array | Uint32Array;
}

const LANES = 4;
const BUCKETS = 0;
const VALUES = BUCKETS + 4 * MAX_FEATURES;
const OUT = VALUES + 4 * MAX_FEATURES;
const PAGE = 65536;
// Bias of the padding lanes (situations past the last, up to a multiple of 16): far below any logit, so that none is
// the maximum the exponentials are taken from; no class sums them
const PAD_BIAS = -1e30;

// Opcodes (WebAssembly core and SIMD specifications); SIMD ones follow the 0xfd prefix as LEB128.
const I32 = 0x7f;
const F32 = 0x7d;
const V128 = 0x7b;
const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  f32Load: 0x2a,
  i32Load16U: 0x2f,
  f32Store: 0x38,
  i32Const: 0x41,
  f32Const: 0x43,
  i32Eqz: 0x45,
  i32GeU: 0x4f,
  f32Gt: 0x5e,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Mul: 0x6c,
  i32Shl: 0x74,
  f32Add: 0x92,
  f32Mul: 0x94,
  f32Div: 0x95,
  f32Max: 0x97,
} as const;
const simd = {
  load: 0x00,
  store: 0x0b,
  const: 0x0c,
  f32x4Splat: 0x13,
  f32x4ExtractLane: 0x1f,
  f32x4Nearest: 0x6a,
  i16x8ExtendLowI8x16S: 0x87,
  i16x8ExtendHighI8x16S: 0x88,
  i32x4ExtendLowI16x8S: 0xa7,
  i32x4ExtendHighI16x8S: 0xa8,
  i32x4Shl: 0xab,
  i32x4Add: 0xae,
  f32x4Add: 0xe4,
  f32x4Sub: 0xe5,
  f32x4Mul: 0xe6,
  f32x4Max: 0xe9,
  i32x4TruncSatF32x4S: 0xf8,
  f32x4ConvertI32x4S: 0xfa,
} as const;

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128, as i32.const reads its operand (64 in unsigned LEB would read as -64) */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const simdOp = (code: number): number[] => [0xfd, ...leb(code)];
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const vector = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const name = (s: string): number[] => [...leb(s.length), ...Buffer.from(s, 'latin1')];
const f32Bytes = (x: number): number[] => [...new Uint8Array(Float32Array.of(x).buffer)];
const f32x4Const = (x: number): number[] => [
  ...simdOp(simd.const),
  ...f32Bytes(x),
  ...f32Bytes(x),
  ...f32Bytes(x),
  ...f32Bytes(x),
];
const i32x4Const = (x: number): number[] => [
  ...simdOp(simd.const),
  ...new Uint8Array(Int32Array.of(x, x, x, x).buffer),
];
// A memory operand at a constant address: address 0 plus the offset
const at0 = (instruction: number[], offset: number, align = 0): number[] => [
  op.i32Const,
  0,
  ...instruction,
  align,
  ...leb(offset),
];

// Cephes' expf: e^x = 2^n e^r, n = round(x log2 e), r = x - n ln 2 in two parts, e^r by a degree-7 polynomial
const LOG2E = 1.44269504088896341;
const LN2_HI = 0.693359375;
const LN2_LO = -2.1219444e-4;
const EXP_POLY = [1.98756915e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1];
// e^x of x below this is the smallest normal f32 or less: 2^n stays normal
const EXP_MIN = -87;

/** Where the model's tables sit in the module's memory */
interface Layout {
  readonly rowBytes: number;
  readonly bias: number;
  readonly classes: number;
  readonly scales: number;
  readonly rowOf: number;
  /** Bytes per rowOf entry: 2 (Uint16) or 4 (Uint32) */
  readonly rowOfWidth: 2 | 4;
  readonly weights: number;
}

function layout(model: CompactModel): Layout {
  const rowBytes = 16 * Math.ceil(model.situations.length / 16);
  const bias = OUT + 4 * rowBytes;
  const classes = bias + 4 * rowBytes;
  const scales = classes + 16 * Math.ceil(model.labels.length / 4);
  const rowOf = scales + 4 * model.scales.length;
  const rowOfWidth = model.rowOf.BYTES_PER_ELEMENT as 2 | 4;
  const weights = 16 * Math.ceil((rowOf + rowOfWidth * model.rowOf.length) / 16);
  return { rowBytes, bias, classes, scales, rowOf, rowOfWidth, weights };
}

/**
 * The module for a model and its layout: `s(n, 1 / temperature)` scores the first n features, writes the output
 * classes' probabilities and returns the best class; memory `e.m` is imported.
 */
function moduleBytes(model: CompactModel, at: Layout): Uint8Array<ArrayBuffer> {
  const classes = model.labels.length;
  const sums = at.rowBytes / LANES;
  // Locals: 0 n, 1 inverse temperature (params); 2 i (byte offset of a feature), 3 end, 4 row, 5 best (i32);
  // 6 max, 7 total, 8.. one sum per class (f32); then v128: value, bytes, low, high, x, n, p, and one sum per 4
  // situations
  const [n, inverse, i, end, row, best, max, total, class0] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const v = class0 + classes;
  const [value, bytes, low, high, x, nearest, p, sum0] = [v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7];
  const body: number[] = [op.localGet, n, op.i32Const, 2, op.i32Shl, op.localSet, end, op.block, 0x40, op.loop, 0x40];
  body.push(op.localGet, i, op.localGet, end, op.i32GeU, op.brIf, 1, op.block, 0x40);
  // row = rowOf[bucket] - 1; a bucket training never saw has none
  body.push(op.localGet, i, op.i32Load, 2, ...leb(BUCKETS), op.i32Const, at.rowOfWidth === 2 ? 1 : 2, op.i32Shl);
  body.push(
    ...(at.rowOfWidth === 2 ? [op.i32Load16U, 1] : [op.i32Load, 2]),
    ...leb(at.rowOf),
    op.localTee,
    row,
    op.i32Eqz,
    op.brIf,
    0,
  );
  body.push(op.localGet, row, op.i32Const, 1, op.i32Sub, op.localSet, row);
  body.push(
    op.localGet,
    i,
    op.f32Load,
    2,
    ...leb(VALUES),
    op.localGet,
    row,
    op.i32Const,
    2,
    op.i32Shl,
    op.f32Load,
    2,
    ...leb(at.scales),
  );
  body.push(op.f32Mul, ...simdOp(simd.f32x4Splat), op.localSet, value);
  body.push(op.localGet, row, op.i32Const, ...sleb(at.rowBytes), op.i32Mul, op.localSet, row);
  for (let block = 0; block < at.rowBytes / 16; block++) {
    body.push(op.localGet, row, ...simdOp(simd.load), 0, ...leb(at.weights + 16 * block), op.localSet, bytes);
    body.push(op.localGet, bytes, ...simdOp(simd.i16x8ExtendLowI8x16S), op.localSet, low);
    body.push(op.localGet, bytes, ...simdOp(simd.i16x8ExtendHighI8x16S), op.localSet, high);
    const quarters: [number, number][] = [
      [low, simd.i32x4ExtendLowI16x8S],
      [low, simd.i32x4ExtendHighI16x8S],
      [high, simd.i32x4ExtendLowI16x8S],
      [high, simd.i32x4ExtendHighI16x8S],
    ];
    quarters.forEach(([half, extend], q) => {
      const sum = sum0 + 4 * block + q;
      body.push(op.localGet, sum, op.localGet, half, ...simdOp(extend), ...simdOp(simd.f32x4ConvertI32x4S));
      body.push(op.localGet, value, ...simdOp(simd.f32x4Mul), ...simdOp(simd.f32x4Add), op.localSet, sum);
    });
  }
  body.push(op.end, op.localGet, i, op.i32Const, 4, op.i32Add, op.localSet, i, op.br, 0, op.end, op.end);
  // Logits: (sum + bias) / temperature, and their maximum
  for (let v = 0; v < sums; v++) {
    body.push(op.localGet, sum0 + v, ...at0(simdOp(simd.load), at.bias + 16 * v), ...simdOp(simd.f32x4Add));
    body.push(op.localGet, inverse, ...simdOp(simd.f32x4Splat), ...simdOp(simd.f32x4Mul), op.localSet, sum0 + v);
  }
  body.push(op.localGet, sum0);
  for (let v = 1; v < sums; v++) body.push(op.localGet, sum0 + v, ...simdOp(simd.f32x4Max));
  body.push(op.localSet, x, op.localGet, x, ...simdOp(simd.f32x4ExtractLane), 0);
  for (let lane = 1; lane < LANES; lane++) body.push(op.localGet, x, ...simdOp(simd.f32x4ExtractLane), lane, op.f32Max);
  body.push(...simdOp(simd.f32x4Splat), op.localSet, value);
  // e^(logit - max) of every situation, stored at OUT
  for (let v = 0; v < sums; v++) {
    body.push(
      op.localGet,
      sum0 + v,
      op.localGet,
      value,
      ...simdOp(simd.f32x4Sub),
      ...f32x4Const(EXP_MIN),
      ...simdOp(simd.f32x4Max),
      op.localTee,
      x,
    );
    body.push(...f32x4Const(LOG2E), ...simdOp(simd.f32x4Mul), ...simdOp(simd.f32x4Nearest), op.localSet, nearest);
    body.push(
      op.localGet,
      x,
      op.localGet,
      nearest,
      ...f32x4Const(LN2_HI),
      ...simdOp(simd.f32x4Mul),
      ...simdOp(simd.f32x4Sub),
    );
    body.push(
      op.localGet,
      nearest,
      ...f32x4Const(LN2_LO),
      ...simdOp(simd.f32x4Mul),
      ...simdOp(simd.f32x4Sub),
      op.localSet,
      x,
    );
    body.push(...f32x4Const(EXP_POLY[0]!));
    for (const c of EXP_POLY.slice(1))
      body.push(op.localGet, x, ...simdOp(simd.f32x4Mul), ...f32x4Const(c), ...simdOp(simd.f32x4Add));
    body.push(
      op.localGet,
      x,
      ...simdOp(simd.f32x4Mul),
      op.localGet,
      x,
      ...simdOp(simd.f32x4Mul),
      op.localGet,
      x,
      ...simdOp(simd.f32x4Add),
    );
    body.push(...f32x4Const(1), ...simdOp(simd.f32x4Add), op.localSet, p);
    body.push(
      op.i32Const,
      0,
      op.localGet,
      p,
      op.localGet,
      nearest,
      ...simdOp(simd.i32x4TruncSatF32x4S),
      ...i32x4Const(127),
      ...simdOp(simd.i32x4Add),
    );
    body.push(
      op.i32Const,
      23,
      ...simdOp(simd.i32x4Shl),
      ...simdOp(simd.f32x4Mul),
      ...simdOp(simd.store),
      0,
      ...leb(OUT + 16 * v),
    );
  }
  // Each class's sum, their total, the best class (the first of equals), and the probabilities
  for (let c = 0; c < classes; c++) {
    body.push(op.f32Const, ...f32Bytes(0));
    model.map.forEach((label, j) => {
      if (label === c) body.push(...at0([op.f32Load], OUT + 4 * j, 2), op.f32Add);
    });
    body.push(op.localTee, class0 + c);
    if (c > 0) body.push(op.localGet, total, op.f32Add);
    body.push(op.localSet, total);
  }
  // A situation of no class (not a bounce) counts in the total only: the classes then sum to the share of bounce
  model.map.forEach((label, j) => {
    if (label >= classes)
      body.push(op.localGet, total, ...at0([op.f32Load], OUT + 4 * j, 2), op.f32Add, op.localSet, total);
  });
  body.push(op.localGet, class0, op.localSet, max);
  for (let c = 1; c < classes; c++) {
    body.push(op.localGet, class0 + c, op.localGet, max, op.f32Gt, op.if, 0x40);
    body.push(op.localGet, class0 + c, op.localSet, max, op.i32Const, ...sleb(c), op.localSet, best, op.end);
  }
  for (let c = 0; c < classes; c++) {
    body.push(
      op.i32Const,
      0,
      op.localGet,
      class0 + c,
      op.localGet,
      total,
      op.f32Div,
      op.f32Store,
      2,
      ...leb(at.classes + 4 * c),
    );
  }
  body.push(op.localGet, best, op.end);
  const locals = vector([
    [4, I32],
    [2 + classes, F32],
    [7 + sums, V128],
  ]);
  const code = [...locals, ...body];
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vector([[0x60, 2, I32, F32, 1, I32]])),
    ...section(2, vector([[...name('e'), ...name('m'), 0x02, 0x00, 1]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('s'), 0x00, 0]])),
    ...section(10, vector([[...leb(code.length), ...code]])),
  ]);
}

/**
 * A SIMD classifier holding its own copy of the model's tables (the model's can be dropped), or undefined where
 * WebAssembly SIMD is missing. Each model gets its module: the table addresses and the class map are in its code.
 */
export function simdScorer(model: CompactModel): Scoring | undefined {
  const at = layout(model);
  const bytes = moduleBytes(model, at);
  if (typeof WebAssembly !== 'object' || !WebAssembly.validate(bytes)) return undefined;
  const k = model.situations.length;
  const rows = model.scales.length;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((at.weights + rows * at.rowBytes) / PAGE) });
  const run = new WebAssembly.Instance(new WebAssembly.Module(bytes), { e: { m: memory } }).exports.s as (
    n: number,
    inverse: number,
  ) => number;
  const { buffer } = memory;
  new Float32Array(buffer, at.bias, at.rowBytes).fill(PAD_BIAS).set(model.bias);
  new Float32Array(buffer, at.scales, rows).set(model.scales);
  const rowOf =
    at.rowOfWidth === 2
      ? new Uint16Array(buffer, at.rowOf, model.rowOf.length)
      : new Uint32Array(buffer, at.rowOf, model.rowOf.length);
  rowOf.set(model.rowOf);
  const weights = new Int8Array(buffer, at.weights, rows * at.rowBytes);
  for (let r = 0; r < rows; r++) weights.set(model.weights.subarray(r * k, r * k + k), r * at.rowBytes);
  const features = newFeatures(
    new Int32Array(buffer, BUCKETS, MAX_FEATURES),
    new Float32Array(buffer, VALUES, MAX_FEATURES),
  );
  const buckets = features.index;
  const values = features.value;
  const classify: Classify = (f, temperature) => {
    // Features extracted elsewhere are copied in; the scorer's own buffer already is there
    if (f.index !== buckets) {
      buckets.set(f.index.subarray(0, f.length));
      values.set(f.value.subarray(0, f.length));
    }
    return run(f.length, 1 / temperature);
  };
  return { classify, probabilities: new Float32Array(buffer, at.classes, model.labels.length), features, rowOf };
}

/** The same in JS, in f64. */
export function jsScorer(model: CompactModel): Scoring {
  // Locals, not property reads, inside the loops: this is the hot path
  const k = model.situations.length;
  const { weights, rowOf, scales, bias, map } = model;
  const scores = new Float64Array(k);
  const probabilities = new Float64Array(model.labels.length);
  // Eight situations per step: written out, the loop body is about a third faster in V8 than one per step; each
  // situation still adds its terms in feature order.
  const k8 = k - (k % 8);
  const classify: Classify = ({ index, value, length }, temperature) => {
    for (let c = 0; c < k; c++) scores[c] = bias[c]!;
    for (let i = 0; i < length; i++) {
      const r = rowOf[index[i]!]! - 1;
      if (r < 0) continue;
      const v = value[i]! * scales[r]!;
      const at = r * k;
      let c = 0;
      for (; c < k8; c += 8) {
        scores[c] += v * weights[at + c]!;
        scores[c + 1] += v * weights[at + c + 1]!;
        scores[c + 2] += v * weights[at + c + 2]!;
        scores[c + 3] += v * weights[at + c + 3]!;
        scores[c + 4] += v * weights[at + c + 4]!;
        scores[c + 5] += v * weights[at + c + 5]!;
        scores[c + 6] += v * weights[at + c + 6]!;
        scores[c + 7] += v * weights[at + c + 7]!;
      }
      for (; c < k; c++) scores[c] += v * weights[at + c]!;
    }
    softmax(scores, k, temperature);
    return aggregate(scores, map, probabilities);
  };
  return { classify, probabilities, features: newFeatures(), rowOf };
}
