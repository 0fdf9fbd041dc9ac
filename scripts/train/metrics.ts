/** Held-out results of one label set. */
export interface Evaluation {
  readonly labels: readonly string[];
  readonly accuracy: number;
  readonly macroF1: number;
  readonly perClass: { label: string; precision: number; recall: number; f1: number; support: number }[];
  readonly perFamily: { family: string; accuracy: number; n: number }[];
  /** confusion[true][predicted] counts. */
  readonly confusion: number[][];
  /** Mean predicted probability of the chosen class, to compare with accuracy. */
  readonly meanConfidence: number;
}

/** Computes accuracy, per-class P/R/F1, per-family accuracy and the confusion matrix. */
export function evaluate(
  labels: readonly string[],
  truth: readonly number[],
  predicted: readonly number[],
  confidence: readonly number[],
  families: readonly string[],
): Evaluation {
  const k = labels.length;
  const confusion = labels.map(() => new Array<number>(k).fill(0));
  const fam = new Map<string, { ok: number; n: number }>();
  let ok = 0;
  truth.forEach((t, i) => {
    const p = predicted[i]!;
    confusion[t]![p]!++;
    const f = fam.get(families[i]!) ?? { ok: 0, n: 0 };
    f.n++;
    if (t === p) {
      ok++;
      f.ok++;
    }
    fam.set(families[i]!, f);
  });
  const perClass = labels.map((label, c) => {
    const tp = confusion[c]![c]!;
    const support = confusion[c]!.reduce((a, b) => a + b, 0);
    const predictedN = confusion.reduce((a, row) => a + row[c]!, 0);
    const precision = predictedN ? tp / predictedN : 0;
    const recall = support ? tp / support : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    return { label, precision, recall, f1, support };
  });
  return {
    labels,
    accuracy: ok / truth.length,
    macroF1: perClass.reduce((a, c) => a + c.f1, 0) / k,
    perClass,
    perFamily: [...fam].sort(([a], [b]) => a.localeCompare(b)).map(([family, f]) => ({ family, accuracy: f.ok / f.n, n: f.n })),
    confusion,
    meanConfidence: confidence.reduce((a, b) => a + b, 0) / confidence.length,
  };
}

const pct = (x: number): string => (100 * x).toFixed(1);

/** Markdown section for one label set. */
export function evaluationMarkdown(title: string, e: Evaluation): string {
  const lines = [
    `## ${title}`,
    '',
    `Held-out accuracy **${pct(e.accuracy)} %**, macro-F1 ${pct(e.macroF1)} %, mean confidence ${pct(e.meanConfidence)} %.`,
    '',
    '| class | precision % | recall % | F1 % | support |',
    '|---|---|---|---|---|',
    ...e.perClass.map((c) => `| ${c.label} | ${pct(c.precision)} | ${pct(c.recall)} | ${pct(c.f1)} | ${c.support} |`),
    '',
    '| held-out family | accuracy % | n |',
    '|---|---|---|',
    ...e.perFamily.map((f) => `| ${f.family} | ${pct(f.accuracy)} | ${f.n} |`),
    '',
    'Confusion matrix (rows: true class, columns: predicted, by row number):',
    '',
    `| # | true \\ predicted | ${e.labels.map((_, i) => i + 1).join(' | ')} |`,
    `|---|---|${e.labels.map(() => '---').join('|')}|`,
    ...e.confusion.map((row, i) => `| ${i + 1} | ${e.labels[i]} | ${row.map((n) => (n ? String(n) : '.')).join(' | ')} |`),
    '',
  ];
  return lines.join('\n');
}
