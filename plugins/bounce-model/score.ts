/*
 * Scoring: for every feature the model knows, its value times its row's scale times the row's weight for each
 * situation, added to the situation's bias. Most of a prediction's time is spent here, so it runs in WebAssembly
 * SIMD, four situations per instruction; the JS loop serves where WebAssembly is missing (node --jitless).
 *
 * The SIMD module is small enough to emit here, instruction by instruction, so it needs no toolchain and no build
 * step. Its memory holds, in this order: the reply's feature buckets and values (features are extracted straight
 * into it), the sums, the row scales, the bucket -> row table, and the weight rows, Int8, each padded to a multiple
 * of 16 bytes. The module looks each bucket up itself, so JS only starts it and reads the sums. The sums are f32
 * where the JS loop adds in f64: a logit moves by about 1e-6 of itself, far below the margin any class is won by
 * (on the corpus and the dev set no answer changes).
 */
import { MAX_FEATURES, newFeatures, type Features } from './features.ts';
import type { CompactModel } from './model-file.ts';

/** Writes the raw situation scores (logits) of a reply's features into `scores`. */
export type Scorer = (f: Features, scores: Float64Array) => void;

/** A scorer, the feature buffer it reads fastest, and the bucket -> row table it reads (for the SIMD one, both in its own memory) */
export interface Scoring {
  readonly score: Scorer;
  readonly features: Features;
  readonly rowOf: Uint16Array | Uint32Array;
}

const LANES = 4;
const BUCKETS = 0;
const VALUES = BUCKETS + 4 * MAX_FEATURES;
const OUT = VALUES + 4 * MAX_FEATURES;
const PAGE = 65536;

// Opcodes (WebAssembly core and SIMD specifications); SIMD ones follow the 0xfd prefix as LEB128.
const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: 0x02, loop: 0x03, end: 0x0b, br: 0x0c, brIf: 0x0d, localGet: 0x20, localSet: 0x21, localTee: 0x22,
  i32Load: 0x28, f32Load: 0x2a, i32Load16U: 0x2f, i32Const: 0x41, i32Eqz: 0x45, i32GeU: 0x4f, i32Add: 0x6a,
  i32Sub: 0x6b, i32Mul: 0x6c, i32Shl: 0x74, f32Mul: 0x94,
} as const;
const simd = {
  load: 0x00, store: 0x0b, f32x4Splat: 0x13, i16x8ExtendLowI8x16S: 0x87, i16x8ExtendHighI8x16S: 0x88,
  i32x4ExtendLowI16x8S: 0xa7, i32x4ExtendHighI16x8S: 0xa8, f32x4Add: 0xe4, f32x4Mul: 0xe6, f32x4ConvertI32x4S: 0xfa,
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

/** Where the model's tables sit in the module's memory */
interface Layout {
  readonly rowBytes: number;
  readonly scales: number;
  readonly rowOf: number;
  /** Bytes per rowOf entry: 2 (Uint16) or 4 (Uint32) */
  readonly rowOfWidth: 2 | 4;
  readonly weights: number;
}

function layout(model: CompactModel): Layout {
  const rowBytes = 16 * Math.ceil(model.situations.length / 16);
  const scales = OUT + 4 * rowBytes;
  const rowOf = scales + 4 * model.scales.length;
  const rowOfWidth = model.rowOf.BYTES_PER_ELEMENT as 2 | 4;
  const weights = 16 * Math.ceil((rowOf + rowOfWidth * model.rowOf.length) / 16);
  return { rowBytes, scales, rowOf, rowOfWidth, weights };
}

/** The module for a layout: `s(n)` adds the rows of the first n features into OUT; memory `e.m` is imported. */
function moduleBytes(at: Layout): Uint8Array<ArrayBuffer> {
  // Locals: 0 n (param); 1 i (byte offset of a feature), 2 end, 3 row (i32); 4 value, 5 bytes, 6 low, 7 high,
  // 8.. one sum per 4 situations (v128)
  const [n, i, end, row, value, bytes, low, high, sum0] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const sums = at.rowBytes / LANES;
  const body: number[] = [op.localGet, n, op.i32Const, 2, op.i32Shl, op.localSet, end, op.block, 0x40, op.loop, 0x40];
  body.push(op.localGet, i, op.localGet, end, op.i32GeU, op.brIf, 1, op.block, 0x40);
  // row = rowOf[bucket] - 1; a bucket training never saw has none
  body.push(op.localGet, i, op.i32Load, 2, ...leb(BUCKETS), op.i32Const, at.rowOfWidth === 2 ? 1 : 2, op.i32Shl);
  body.push(...(at.rowOfWidth === 2 ? [op.i32Load16U, 1] : [op.i32Load, 2]), ...leb(at.rowOf), op.localTee, row, op.i32Eqz, op.brIf, 0);
  body.push(op.localGet, row, op.i32Const, 1, op.i32Sub, op.localSet, row);
  body.push(op.localGet, i, op.f32Load, 2, ...leb(VALUES), op.localGet, row, op.i32Const, 2, op.i32Shl, op.f32Load, 2, ...leb(at.scales));
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
  for (let k = 0; k < sums; k++) body.push(op.i32Const, ...sleb(OUT), op.localGet, sum0 + k, ...simdOp(simd.store), 4, ...leb(16 * k));
  body.push(op.end);
  const locals = vector([[3, I32], [4 + sums, V128]]);
  const code = [...locals, ...body];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([[0x60, 1, I32, 0]])),
    ...section(2, vector([[...name('e'), ...name('m'), 0x02, 0x00, 1]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('s'), 0x00, 0]])),
    ...section(10, vector([[...leb(code.length), ...code]])),
  ]);
}

/**
 * A SIMD scorer holding its own copy of the model's tables (the model's can be dropped), or undefined where
 * WebAssembly SIMD is missing. Each model gets its module: the table addresses are constants in its code.
 */
export function simdScorer(model: CompactModel): Scoring | undefined {
  const at = layout(model);
  const bytes = moduleBytes(at);
  if (typeof WebAssembly !== 'object' || !WebAssembly.validate(bytes)) return undefined;
  const k = model.situations.length;
  const rows = model.scales.length;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((at.weights + rows * at.rowBytes) / PAGE) });
  const run = new WebAssembly.Instance(new WebAssembly.Module(bytes), { e: { m: memory } }).exports.s as (n: number) => void;
  const { buffer } = memory;
  new Float32Array(buffer, at.scales, rows).set(model.scales);
  const rowOf = at.rowOfWidth === 2 ? new Uint16Array(buffer, at.rowOf, model.rowOf.length) : new Uint32Array(buffer, at.rowOf, model.rowOf.length);
  rowOf.set(model.rowOf);
  const weights = new Int8Array(buffer, at.weights, rows * at.rowBytes);
  for (let r = 0; r < rows; r++) weights.set(model.weights.subarray(r * k, r * k + k), r * at.rowBytes);
  const features = newFeatures(new Int32Array(buffer, BUCKETS, MAX_FEATURES), new Float32Array(buffer, VALUES, MAX_FEATURES));
  const buckets = features.index;
  const values = features.value;
  const out = new Float32Array(buffer, OUT, k);
  const { bias } = model;
  const score: Scorer = (f, scores) => {
    // Features extracted elsewhere are copied in; the scorer's own buffer already is there
    if (f.index !== buckets) {
      buckets.set(f.index.subarray(0, f.length));
      values.set(f.value.subarray(0, f.length));
    }
    run(f.length);
    for (let c = 0; c < k; c++) scores[c] = bias[c]! + out[c]!;
  };
  return { score, features, rowOf };
}

/** The scoring loop in JS, in f64. */
export function jsScorer(model: CompactModel): Scoring {
  // Locals, not property reads, inside the loops: this is the hot path
  const k = model.situations.length;
  const { weights, rowOf, scales, bias } = model;
  // Eight situations per step: written out, the loop body is about a third faster in V8 than one per step; each
  // situation still adds its terms in feature order.
  const k8 = k - (k % 8);
  const score: Scorer = ({ index, value, length }, scores) => {
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
  };
  return { score, features: newFeatures(), rowOf };
}
