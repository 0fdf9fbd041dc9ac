/*
 * Public loader API of the bounce models. Inputs are NORMALISED texts (./normalise.ts, the models' input
 * contract); predict is synchronous and allocation-light, meant for the request thread or a worker.
 * The weights score situations (causes of a bounce, shared by both models); a class's probability is the sum
 * of its situations'. A prediction is the first matching rule of ./rules.json when one decides this model (certain
 * cases:
 * named block lists, greylisting, SPF/DKIM/DMARC, vendor tags), otherwise the linear model's class with its
 * calibrated probability, flattened when most of the reply's words were never seen in training.
 * A rule's answer carries that rule's precision measured on held-out real replies (./models/rule-probabilities.json,
 * written by `npm run train`), not a constant: rules differ in how often their class is right. The linear model's
 * probability goes through a monotone map fitted on held-out real replies (./models/calibration.json): how often
 * answers of that probability were right there; then its class's shift, as some classes' answers were right more or
 * less often than others' of the same probability. One situation is text that is not a bounce (an acceptance, an
 * auto-reply): it maps to no class, so the map reads the class's share among bounces and the answer carries that
 * times the probability that the text is a bounce at all.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { extractFeatures } from './features.ts';
import { bounceShare, coverage, temperatureAt } from './linear-model.ts';
import { decodeModel, type CompactModel } from './model-file.ts';
import { NORMALISER_VERSION } from './normalise.ts';
import { matchRule, RULES_VERSION } from './rules.ts';
import { jsScorer, simdScorer } from './score.ts';

/** Measured precision of each rule per model, with the pooled figure for rules the held-out replies never fired. */
export interface RuleProbabilities {
  readonly bnac: RuleTable;
  readonly backoff: RuleTable;
}

/** One model's rule figures: `pooled` for a rule the held-out rows never fired, `measuredOn` the rows that fired one. */
export interface RuleTable {
  readonly pooled: number;
  readonly rules: Readonly<Record<string, number>>;
  readonly measuredOn?: number;
}

const RULE_PROBABILITY_FILE = new URL('./models/rule-probabilities.json', import.meta.url);
const CALIBRATION_FILE = new URL('./models/calibration.json', import.meta.url);

/**
 * A step map from the linear model's probability to the share of such answers found right on held-out real replies:
 * a probability p maps to `to[i]` for the last `i` with `from[i] <= p` (`from[0]` is 0; both ascending; no steps: p).
 */
export interface ProbabilityMap {
  readonly from: readonly number[];
  readonly to: readonly number[];
  /** Held-out answers the map was fitted on */
  readonly measuredOn?: number;
  /**
   * Per answered class, a shift of the mapped probability's log-odds: how much more (or less) often that class's
   * answers were right than the map says, shrunk towards none for a class answered few times (no entry: none)
   */
  readonly classShift?: Readonly<Record<string, number>>;
}

/** The linear model's probability map per model. */
export interface ModelCalibration {
  readonly bnac: ProbabilityMap;
  readonly backoff: ProbabilityMap;
}

/** The map that changes nothing: for a model trained without held-out replies to fit one on. */
export const IDENTITY_MAP: ProbabilityMap = { from: [], to: [] };

/** Reads and checks a calibration file: per model, ascending steps from 0 to probabilities in (0, 1). */
export function readModelCalibration(bytes: Uint8Array = readFileSync(CALIBRATION_FILE)): ModelCalibration {
  const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as ModelCalibration;
  const ascending = (xs: readonly number[]) => xs.every((x, i) => i === 0 || x >= xs[i - 1]!);
  for (const name of ['bnac', 'backoff'] as const) {
    const { from, to } = parsed[name] ?? {};
    const ok =
      Array.isArray(from) &&
      Array.isArray(to) &&
      from.length === to.length &&
      (from.length === 0 || from[0] === 0) &&
      ascending(from) &&
      ascending(to) &&
      to.every((p) => typeof p === 'number' && p > 0 && p < 1);
    if (!ok)
      throw new Error(`bounce model calibration: "${name}" needs ascending steps from 0 to probabilities in (0, 1)`);
    if (!Object.values(parsed[name].classShift ?? {}).every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw new Error(`bounce model calibration: "${name}" needs finite numbers as class shifts`);
  }
  return parsed;
}

/** The calibrated probability of a linear-model answer of probability `p` (unchanged by an empty map). */
export function calibrated(map: ProbabilityMap, p: number): number {
  let i = map.to.length - 1;
  while (i > 0 && map.from[i]! > p) i--;
  return i < 0 ? p : map.to[i]!;
}

/** The calibrated probability of an answer of class `label` and probability `p`: its step, then its class's shift. */
export function calibratedAs(map: ProbabilityMap, label: string, p: number): number {
  const stepped = calibrated(map, p);
  const shift = map.classShift?.[label];
  return shift ? 1 / (1 + Math.exp(-(Math.log(stepped / (1 - stepped)) + shift))) : stepped;
}

/** Reads and checks a rule-probability file: every figure a probability in (0, 1). */
export function readRuleProbabilities(bytes: Uint8Array = readFileSync(RULE_PROBABILITY_FILE)): RuleProbabilities {
  const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as RuleProbabilities;
  const isProbability = (p: unknown) => typeof p === 'number' && p > 0 && p < 1;
  for (const name of ['bnac', 'backoff'] as const) {
    const table = parsed[name];
    if (!table || !isProbability(table.pooled) || !Object.values(table.rules ?? {}).every(isProbability)) {
      throw new Error(
        `bounce rule probabilities: "${name}" needs a pooled probability and per-rule probabilities in (0, 1)`,
      );
    }
  }
  return parsed;
}

/** How a model is loaded. */
export interface LoadOptions {
  /** Whether the rule table decides where it matches (default true); false measures the trained model alone. */
  readonly rules?: boolean;
  /** Rule probabilities; default the file shipped beside the models. */
  readonly ruleProbabilities?: RuleProbabilities;
  /** The linear model's probability maps; default the file shipped beside the models. */
  readonly calibration?: ModelCalibration;
}
/** A class with its probability in (0, 1], and the rule that decided it, if one did. */
export interface Prediction {
  readonly label: string;
  readonly probability: number;
  readonly rule?: string;
}

/** A word of the reply and how much it raised the answered class: ln p(class | reply) - ln p(class | reply without it). */
export interface FeatureWeight {
  readonly feature: string;
  readonly weight: number;
}

/** A prediction and, when the linear model decided it, every word that raised its class, heaviest first (callers keep the top few). */
export interface ExplainedPrediction extends Prediction {
  readonly features?: readonly FeatureWeight[];
}

// Distinct words scored without them at most: an explanation of a very long reply stays a few milliseconds
const MAX_EXPLAINED_WORDS = 128;

/** A loaded classifier. */
export interface Model {
  /** Model name stored in the file (`bnac` or `backoff`). */
  readonly name: string;
  /** Hash of the weights, settings, normaliser and rules; cache keys should include it. */
  readonly version: string;
  /** Closed list of classes the model can return. */
  readonly labels: readonly string[];
  /** Classifies one normalised text. */
  predict(normalisedText: string): Prediction;
  /** Classifies normalised texts, in input order. */
  predictBatch(normalisedTexts: readonly string[]): Prediction[];
  /** Classifies one normalised text as `predict` does and says what decided it. Costs a prediction per distinct word. */
  explain(normalisedText: string): ExplainedPrediction;
}

/** Loads a model from a file path or the file's bytes; refuses a model trained on another normaliser. */
export function loadModel(source: string | Uint8Array, options: LoadOptions = {}): Model {
  const useRules = options.rules ?? true;
  const ruleProbabilities = options.ruleProbabilities ?? readRuleProbabilities();
  const modelCalibration = options.calibration ?? readModelCalibration();
  const file = decodeModel(typeof source === 'string' ? readFileSync(source) : source);
  if (file.normaliser !== NORMALISER_VERSION) {
    throw new Error(
      `bounce model "${file.name}" was trained with normaliser "${file.normaliser}", this code has "${NORMALISER_VERSION}": retrain with npm run train`,
    );
  }
  const { name } = file;
  if (name !== 'bnac' && name !== 'backoff') throw new Error(`unknown bounce model name "${name}"`);
  // The SIMD scorer keeps the weight rows, scales and row table in its own memory: the JS copies are dropped when it
  // runs
  const simd = simdScorer(file.model);
  const model: CompactModel = simd
    ? { ...file.model, weights: new Int8Array(0), scales: new Float32Array(0), rowOf: simd.rowOf }
    : file.model;
  const { classify, probabilities, features } = simd ?? jsScorer(model);
  const seen = (bucket: number): boolean => model.rowOf[bucket]! > 0;
  const ruleTable = ruleProbabilities[name];
  const map = modelCalibration[name];
  // The linear model alone: its best class; `probabilities` then holds every class's (uncalibrated) probability
  const linear = (text: string): number => {
    const f = extractFeatures(text, model.bits, features);
    return classify(
      f,
      model.coverageAlpha === 0
        ? model.temperature
        : temperatureAt(model.temperature, model.coverageAlpha, coverage(f, seen)),
    );
  };
  const predict = (text: string): Prediction => {
    const rule = useRules ? matchRule(name, text) : undefined;
    if (rule) return { label: rule.label, probability: ruleTable.rules[rule.id] ?? ruleTable.pooled, rule: rule.id };
    const best = linear(text);
    // The map was fitted on bounces: it reads the class's probability among bounces, and the answer is right only if
    // the text is a bounce at all
    const share = bounceShare(probabilities);
    const label = model.labels[best]!;
    const probability = share > 0 ? calibratedAs(map, label, probabilities[best]! / share) * share : 0;
    return { label, probability };
  };
  // Occlusion: each distinct word is taken out of the reply and the class's probability read again. Features are hashed
  // buckets with no names, and a word (with its bigrams and character n-grams) is what an operator can read and act on
  const explain = (text: string): ExplainedPrediction => {
    const prediction = predict(text);
    if (prediction.rule !== undefined) return prediction;
    const label = model.labels.indexOf(prediction.label);
    // predict left every class's probability of the whole reply in `probabilities`
    const base = Math.log(probabilities[label]!);
    const words = text.split(' ');
    const weights: FeatureWeight[] = [];
    for (const word of [...new Set(words)].filter((w) => w !== '').slice(0, MAX_EXPLAINED_WORDS)) {
      const without = words.filter((w) => w !== word).join(' ');
      linear(without);
      const weight = Math.round((base - Math.log(Math.max(probabilities[label]!, Number.MIN_VALUE))) * 1e4) / 1e4;
      if (weight > 0) weights.push({ feature: word, weight });
    }
    weights.sort((a, b) => b.weight - a.weight || (a.feature < b.feature ? -1 : 1));
    return { ...prediction, features: weights };
  };
  return {
    explain,
    name,
    version: `${file.version}.${NORMALISER_VERSION}.${useRules ? RULES_VERSION : 'no-rules'}.${createHash('sha256')
      .update(JSON.stringify(useRules ? [ruleProbabilities, map] : [map]))
      .digest('hex')
      .slice(0, 8)}`,
    labels: model.labels,
    predict,
    predictBatch: (texts) => texts.map(predict),
  };
}
