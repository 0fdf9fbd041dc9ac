/*
 * Writes a trained model in the plugin's model file format (plugins/bounce-model/model-file.ts reads it): used by
 * npm run train only.
 */
import { createHash } from 'node:crypto';
import type { LinearModel } from '../../plugins/bounce-model/linear-model.ts';
import { FORMAT, MAGIC, type Header } from '../../plugins/bounce-model/model-file.ts';

/**
 * What a model answers: its output classes and the output class of each of its inner classes (situations); null for
 * a situation that is not a bounce.
 */
export interface OutputClasses {
  readonly labels: readonly string[];
  readonly labelOf: (situation: string) => string | null;
}

/** Serialises a trained model into the binary format (deterministic bytes). */
export function encodeModel(name: string, model: LinearModel, normaliser: string, output: OutputClasses): Buffer {
  const k = model.labels.length;
  const map = model.labels.map((situation) => {
    const label = output.labelOf(situation);
    if (label === null) return null;
    const index = output.labels.indexOf(label);
    if (index < 0) throw new Error(`situation "${situation}" maps to "${label}", not a ${name} class`);
    return index;
  });
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
  const settings = {
    format: FORMAT,
    name,
    labels: [...output.labels],
    situations: [...model.labels],
    map,
    bits: model.bits,
    temperature: model.temperature,
    coverageAlpha: model.coverageAlpha,
    normaliser,
    rows: rows.length,
  };
  const version = createHash('sha256').update(JSON.stringify(settings)).update(body).digest('hex').slice(0, 16);
  const header: Header = { ...settings, version };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const prefix = Buffer.alloc(8);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(json.length, 4);
  return Buffer.concat([prefix, json, body]);
}
