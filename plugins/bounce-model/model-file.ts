/*
 * Binary model file: "BNCM", u32 LE header length, header JSON, then the body: bias (Float32 × K), indices
 * of non-zero buckets (Uint32 × rows, ascending), per-row scales (Float32 × rows), weights (Int8 × rows × K).
 * Only buckets seen in training are stored and each row is quantised to Int8 with its own scale. The loaded
 * model keeps that layout (a bucket -> row table plus the Int8 rows), so it takes about a quarter of the
 * dense Float32 matrix training uses. The K inner classes are situations (causes of a bounce); the header
 * maps each to one of the output `labels` (the BNAC or backoff classes), and a class's probability is the
 * sum of its situations'. The header records the normaliser version the model was trained on:
 * the normaliser is the model's input contract, and a model read through another normaliser is refused.
 * The version is a hash of labels, settings and body, so caches keyed on it change exactly when
 * predictions can change.
 */
export const MAGIC = 'BNCM';
// 3: a situation may map to no class (null in the header)
export const FORMAT = 3;
/** The loaded map's entry for a situation that maps to no class (text that is not a bounce). */
export const NO_CLASS = 255;

export interface Header {
  format: number;
  name: string;
  version: string;
  /** The output classes */
  labels: string[];
  /** The inner classes the weights score */
  situations: string[];
  /** Output label index of each situation; null: the situation is not a bounce and its probability goes to no class */
  map: (number | null)[];
  bits: number;
  temperature: number;
  coverageAlpha: number;
  normaliser: string;
  rows: number;
}

/** A model ready to score: quantised rows of the buckets training saw. */
export interface CompactModel {
  readonly labels: readonly string[];
  readonly situations: readonly string[];
  /** Output label index of each situation, NO_CLASS for one that is not a bounce */
  readonly map: Uint8Array;
  readonly bits: number;
  readonly temperature: number;
  readonly coverageAlpha: number;
  readonly bias: Float32Array;
  /** Row of each bucket plus one, 0 for buckets training never saw (16 bits when the rows fit: half the memory) */
  readonly rowOf: Uint16Array | Uint32Array;
  readonly scales: Float32Array;
  /** rows × K (K situations), row-major */
  readonly weights: Int8Array;
}

/** A model as read from a file, with its name, version and the normaliser version it was trained on. */
export interface ModelFile {
  readonly name: string;
  readonly version: string;
  readonly normaliser: string;
  readonly model: CompactModel;
}

/** Parses a model file; throws with a clear message on a malformed one. */
export function decodeModel(bytes: Uint8Array): ModelFile {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 8 || buf.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a bounce model file (bad magic)');
  const headerEnd = 8 + buf.readUInt32LE(4);
  const header = JSON.parse(buf.toString('utf8', 8, headerEnd)) as Header;
  if (header.format !== FORMAT)
    throw new Error(`unsupported bounce model format ${header.format}, expected ${FORMAT}: retrain with npm run train`);
  const k = header.situations.length;
  if (
    header.labels.length >= NO_CLASS ||
    header.map.length !== k ||
    header.map.some((i) => i !== null && !(i >= 0 && i < header.labels.length))
  )
    throw new Error('bounce model file maps a situation to an unknown class');
  const rows = header.rows;
  if (buf.length !== headerEnd + 4 * k + 8 * rows + rows * k) throw new Error('truncated bounce model file');
  const bias = new Float32Array(k);
  let at = headerEnd;
  for (let c = 0; c < k; c++, at += 4) bias[c] = buf.readFloatLE(at);
  const rowOf = rows < 0xffff ? new Uint16Array(1 << header.bits) : new Uint32Array(1 << header.bits);
  const scales = new Float32Array(rows);
  const scaleAt = at + 4 * rows;
  for (let r = 0; r < rows; r++) {
    rowOf[buf.readUInt32LE(at + 4 * r)] = r + 1;
    scales[r] = buf.readFloatLE(scaleAt + 4 * r);
  }
  const weightAt = scaleAt + 4 * rows;
  // A copy, so the loaded model does not pin the file's whole buffer
  const weights = new Int8Array(rows * k);
  weights.set(new Int8Array(buf.buffer, buf.byteOffset + weightAt, rows * k));
  const model: CompactModel = {
    labels: header.labels,
    situations: header.situations,
    map: Uint8Array.from(header.map, (i) => i ?? NO_CLASS),
    bits: header.bits,
    temperature: header.temperature,
    coverageAlpha: header.coverageAlpha,
    bias,
    rowOf,
    scales,
    weights,
  };
  return { name: header.name, version: header.version, normaliser: header.normaliser, model };
}
