/*
 * Scoring: for every feature the model knows, its value times its row's scale times the row's weight for each
 * situation, added to the situation's bias. Most of a prediction's time is spent here, so it runs in WebAssembly
 * SIMD, four situations per instruction; the JS loop serves where WebAssembly is missing (node --jitless).
 *
 * The SIMD module is small enough to emit here, instruction by instruction, so it needs no toolchain and no build
 * step. Its memory holds the reply's features at FEATURES as (f32 value × row scale, i32 address of the row), the
 * sums at OUT, then the weight rows, Int8, each padded to a multiple of 16 bytes. The sums are f32 where the JS loop
 * adds in f64: a logit moves by about 1e-6 of itself, far below the margin any class is won by (on the corpus and
 * the dev set no answer changes).
 */
import type { CompactModel } from './model-file.ts';

/** Writes the raw situation scores (logits) of a reply's features into `scores`. */
export type Scorer = (index: Int32Array, value: Float32Array, length: number, scores: Float64Array) => void;

const LANES = 4;
/** Features a reply can have (features.ts's MAX_FEATURES) */
const MAX_FEATURES = 4096;
const FEATURES = 0;
const OUT = FEATURES + 8 * MAX_FEATURES;
const PAGE = 65536;

// Opcodes (WebAssembly core and SIMD specifications); SIMD ones follow the 0xfd prefix as LEB128.
const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: 0x02, loop: 0x03, end: 0x0b, br: 0x0c, brIf: 0x0d, localGet: 0x20, localSet: 0x21,
  i32Load: 0x28, f32Load: 0x2a, i32Const: 0x41, i32GeU: 0x4f, i32Add: 0x6a, i32Shl: 0x74,
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

const simdOp = (code: number): number[] => [0xfd, ...leb(code)];
const section = (id: number, body: number[]): number[] => [id, ...leb(body.length), ...body];
const vector = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
const name = (s: string): number[] => [...leb(s.length), ...Buffer.from(s, 'latin1')];

/** The module for rows of `rowBytes`: `s(n)` adds n features' rows into OUT; memory `e.m` is imported. */
function moduleBytes(rowBytes: number): Uint8Array<ArrayBuffer> {
  // Locals: 0 n (param); 1 p, 2 end, 3 row (i32); 4 value, 5 bytes, 6 low, 7 high, 8.. one sum per 4 situations (v128)
  const [n, p, end, row, value, bytes, low, high, sum0] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const sums = rowBytes / LANES;
  const body: number[] = [op.localGet, n, op.i32Const, 3, op.i32Shl, op.localSet, end, op.block, 0x40, op.loop, 0x40];
  body.push(op.localGet, p, op.localGet, end, op.i32GeU, op.brIf, 1);
  body.push(op.localGet, p, op.f32Load, 2, 0, ...simdOp(simd.f32x4Splat), op.localSet, value);
  body.push(op.localGet, p, op.i32Load, 2, 4, op.localSet, row);
  for (let block = 0; block < rowBytes / 16; block++) {
    body.push(op.localGet, row, ...simdOp(simd.load), 0, ...leb(16 * block), op.localSet, bytes);
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
  body.push(op.localGet, p, op.i32Const, 8, op.i32Add, op.localSet, p, op.br, 0, op.end, op.end);
  for (let s = 0; s < sums; s++) body.push(op.i32Const, ...leb(OUT), op.localGet, sum0 + s, ...simdOp(simd.store), 4, ...leb(16 * s));
  body.push(op.end);
  const locals = vector([[3, I32], [4 + sums, V128]]);
  const code = [...locals, ...body];
  const bytesOut = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([[0x60, 1, I32, 0]])),
    ...section(2, vector([[...name('e'), ...name('m'), 0x02, 0x00, 1]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...name('s'), 0x00, 0]])),
    ...section(10, vector([[...leb(code.length), ...code]])),
  ];
  return Uint8Array.from(bytesOut);
}

const modules = new Map<number, WebAssembly.Module | undefined>();

/** The compiled module for rows of `rowBytes`, or undefined where WebAssembly SIMD is missing. */
function compiled(rowBytes: number): WebAssembly.Module | undefined {
  if (!modules.has(rowBytes)) {
    const bytes = moduleBytes(rowBytes);
    modules.set(rowBytes, typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : undefined);
  }
  return modules.get(rowBytes);
}

/**
 * A SIMD scorer holding its own copy of the weight rows (the model's can be dropped), or undefined where
 * WebAssembly SIMD is missing.
 */
export function simdScorer(model: CompactModel): Scorer | undefined {
  const k = model.situations.length;
  const rowBytes = 16 * Math.ceil(k / 16);
  const module = compiled(rowBytes);
  if (!module) return undefined;
  const rows = model.scales.length;
  const weightsAt = OUT + 4 * rowBytes;
  const memory = new WebAssembly.Memory({ initial: Math.ceil((weightsAt + rows * rowBytes) / PAGE) });
  const run = new WebAssembly.Instance(module, { e: { m: memory } }).exports.s as (n: number) => void;
  const weights = new Int8Array(memory.buffer, weightsAt, rows * rowBytes);
  for (let r = 0; r < rows; r++) weights.set(model.weights.subarray(r * k, r * k + k), r * rowBytes);
  const f32 = new Float32Array(memory.buffer);
  const i32 = new Int32Array(memory.buffer);
  const out = new Float32Array(memory.buffer, OUT, k);
  const { rowOf, scales, bias } = model;
  return (index, value, length, scores) => {
    let n = 0;
    for (let i = 0; i < length && n < MAX_FEATURES; i++) {
      const r = rowOf[index[i]!]! - 1;
      if (r < 0) continue;
      f32[2 * n] = value[i]! * scales[r]!;
      i32[2 * n + 1] = weightsAt + r * rowBytes;
      n++;
    }
    run(n);
    for (let c = 0; c < k; c++) scores[c] = bias[c]! + out[c]!;
  };
}

/** The scoring loop in JS, in f64. */
export function jsScorer(model: CompactModel): Scorer {
  // Locals, not property reads, inside the loops: this is the hot path
  const k = model.situations.length;
  const { weights, rowOf, scales, bias } = model;
  // Eight situations per step: written out, the loop body is about a third faster in V8 than one per step; each
  // situation still adds its terms in feature order.
  const k8 = k - (k % 8);
  return (index, value, length, scores) => {
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
}
