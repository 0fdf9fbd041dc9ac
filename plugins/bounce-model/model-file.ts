/*
 * Binary model file: "BNCM", u32 LE header length, header JSON, then the
 * body: bias (Float32 × K), indices of non-zero buckets (Uint32 × rows,
 * ascending), per-row scales (Float32 × rows), weights (Int8 × rows × K).
 * Only buckets seen in training are stored and each row is quantised to
 * Int8 with its own scale, so a 2^18-bucket model takes a few MB on disk.
 * The version is a hash of labels, settings and body, so caches keyed on
 * it change exactly when predictions can change.
 */
import { createHash } from 'node:crypto';
import type { LinearModel } from './linear-model.ts';

const MAGIC = 'BNCM';
const FORMAT = 1;

interface Header {
  format: number;
  name: string;
  version: string;
  labels: string[];
  bits: number;
  temperature: number;
  rows: number;
}

/** A model as read from a file, with its name and version. */
export interface ModelFile {
  readonly name: string;
  readonly version: string;
  readonly model: LinearModel;
}

/** Serialises a trained model into the binary format (deterministic bytes). */
export function encodeModel(name: string, model: LinearModel): Buffer {
  const k = model.labels.length;
  const rows: number[] = [];
  for (let b = 0; b < 1 << model.bits; b++) {
    for (let c = 0; c < k; c++) {
      if (model.weights[b * k + c] !== 0) {
        rows.push(b);
        break;
      }
    }
  }
  const body = Buffer.alloc(4 * k + 8 * rows.length + rows.length * k);
  let at = 0;
  for (let c = 0; c < k; c++) at = body.writeFloatLE(model.bias[c]!, at);
  for (const b of rows) at = body.writeUInt32LE(b, at);
  const quantised = Buffer.alloc(rows.length * k);
  rows.forEach((b, r) => {
    let max = 0;
    for (let c = 0; c < k; c++) max = Math.max(max, Math.abs(model.weights[b * k + c]!));
    const scale = Math.fround(max / 127);
    at = body.writeFloatLE(scale, at);
    for (let c = 0; c < k; c++) quantised.writeInt8(Math.round(model.weights[b * k + c]! / scale), r * k + c);
  });
  quantised.copy(body, at);
  const settings = { format: FORMAT, name, labels: [...model.labels], bits: model.bits, temperature: model.temperature, rows: rows.length };
  const version = createHash('sha256').update(JSON.stringify(settings)).update(body).digest('hex').slice(0, 16);
  const header: Header = { ...settings, version };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(8);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(json.length, 4);
  return Buffer.concat([prefix, json, body]);
}

/** Parses a model file; throws with a clear message on a malformed one. */
export function decodeModel(bytes: Uint8Array): ModelFile {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 8 || buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a bounce model file (bad magic)');
  const headerEnd = 8 + buf.readUInt32LE(4);
  const header = JSON.parse(buf.toString('utf8', 8, headerEnd)) as Header;
  if (header.format !== FORMAT) throw new Error(`unsupported bounce model format ${header.format}`);
  const k = header.labels.length;
  const rows = header.rows;
  if (buf.length !== headerEnd + 4 * k + 8 * rows + rows * k) throw new Error('truncated bounce model file');
  const bias = new Float32Array(k);
  let at = headerEnd;
  for (let c = 0; c < k; c++, at += 4) bias[c] = buf.readFloatLE(at);
  const indexAt = at;
  const scaleAt = indexAt + 4 * rows;
  const weightAt = scaleAt + 4 * rows;
  const weights = new Float32Array((1 << header.bits) * k);
  for (let r = 0; r < rows; r++) {
    const b = buf.readUInt32LE(indexAt + 4 * r);
    const scale = buf.readFloatLE(scaleAt + 4 * r);
    for (let c = 0; c < k; c++) weights[b * k + c] = buf.readInt8(weightAt + r * k + c) * scale;
  }
  const model: LinearModel = { labels: header.labels, bits: header.bits, temperature: header.temperature, weights, bias };
  return { name: header.name, version: header.version, model };
}
