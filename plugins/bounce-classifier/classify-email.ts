import { classifyNormalised } from './classify.ts';
import type { Answer, ClassifyDeps } from './classify.ts';
import type { ClassifierModel } from '../../runtime/mod.ts';
import { withExplanations, type ApiExplanation } from './explain.ts';
import { backoffFormat, bnacV2, type Format } from './format.ts';
import { classifiedText } from './email/reply.ts';
import { statusText } from './status-text.ts';
import type { BounceReport, ReportedRecipient } from './email/types.ts';

const backoffPlain = backoffFormat(false);

/** A recipient as answered: what the report says, and its classes when it failed or is delayed */
export interface ClassifiedRecipient extends ReportedRecipient {
  bnac?: { class: string; probability: number; explanation?: ApiExplanation };
  backoff?: { class: string; fields: string[]; actions: string[]; explanation?: ApiExplanation };
}

/** The `/v1/bounce-email` answer */
export interface BounceAnswer {
  kind: BounceReport['kind'];
  format: string;
  recipients: ClassifiedRecipient[];
  recipients_omitted?: number;
  feedback?: BounceReport['feedback'];
}

/**
 * Classifies the failed and delayed recipients of reports through the same path as `/v2/bnac` and `/v1/backoff`
 * (the classifier's normaliser, run once per reply for both models, the cache, one classifier call per model for the
 * distinct replies of all the reports). A recipient without a reply is classified on its status code with the
 * description its standard gives it (`statusText`: a bare code weighs too little to decide alone); one with neither is
 * answered unclassified. The classifier reads the reply less what names a peer, not a cause (`classifiedText`).
 * `explain`: each class carries what decided it, as `?explain=true` answers on `/v2/bnac` and `/v1/backoff`.
 */
export async function classifyReports(
  deps: ClassifyDeps & { normalise: (message: string) => string },
  reports: readonly BounceReport[],
  options: { useCache: boolean; signal?: AbortSignal; explain?: boolean },
): Promise<BounceAnswer[]> {
  const chosen: ClassifiedRecipient[] = [];
  const answers = reports.map((report) => {
    const recipients: ClassifiedRecipient[] = report.recipients.map((r) => ({ ...r }));
    const answer: BounceAnswer = { kind: report.kind, format: report.format, recipients };
    if (report.omitted > 0) answer.recipients_omitted = report.omitted;
    if (report.feedback) answer.feedback = report.feedback;
    if (report.kind === 'failed' || report.kind === 'delayed') {
      for (const r of recipients)
        if ((r.action === 'failed' || r.action === 'delayed') && (r.reply ?? r.status)) chosen.push(r);
    }
    return answer;
  });
  if (chosen.length === 0) return answers;
  const texts = chosen.map((r) =>
    deps.normalise(r.reply === undefined ? statusText(r.status!) : classifiedText(r.reply)),
  );
  const [bnac, backoff] = await Promise.all([
    classifyNormalised(deps, 'bnac', texts, options),
    classifyNormalised(deps, 'backoff', texts, options),
  ]);
  const answered = (results: Answer[], format: Format, model: ClassifierModel) => {
    const formatted = results.map((result) => format(result) as object);
    return options.explain
      ? withExplanations(deps.classifier, model, texts, results, formatted, options.signal)
      : formatted;
  };
  const [bnacAnswers, backoffAnswers] = await Promise.all([
    answered(bnac, bnacV2, 'bnac'),
    answered(backoff, backoffPlain, 'backoff'),
  ]);
  chosen.forEach((recipient, i) => {
    const { sources } = recipient;
    delete recipient.sources;
    recipient.bnac = bnacAnswers[i] as ClassifiedRecipient['bnac'];
    recipient.backoff = backoffAnswers[i] as ClassifiedRecipient['backoff'];
    // Where the fields came from reads last, after what they gave
    if (sources) recipient.sources = sources;
  });
  return answers;
}
