import type { Classifier } from '../../../runtime/mod.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import { classifyMessages } from '../classify.ts';
import { backoffFormat, bnacV2 } from '../format.ts';
import type { BounceReport, ReportedRecipient } from './types.ts';

const backoffPlain = backoffFormat(false);

/** A recipient as answered: what the report says, and its classes when it failed or is delayed */
export interface ClassifiedRecipient extends ReportedRecipient {
  bnac?: { class: string; probability: number };
  backoff?: { class: string; fields: string[]; actions: string[] };
}

/** The `/v1/bounce-email` answer */
export interface BounceAnswer {
  kind: BounceReport['kind'];
  format: string;
  recipients: ClassifiedRecipient[];
  recipients_omitted?: number;
}

/**
 * Classifies the failed and delayed recipients of a report through the same path as `/v2/bnac` and `/v1/backoff`
 * (the classifier's normaliser, the cache, one classifier call per model for the distinct replies). A recipient
 * without a reply is classified on its status code; one with neither is answered unclassified.
 */
export async function classifyReport(
  deps: { classifier: Classifier; normalise: (message: string) => string; cache?: ResultCache },
  report: BounceReport,
  options: { useCache: boolean; signal?: AbortSignal },
): Promise<BounceAnswer> {
  const recipients: ClassifiedRecipient[] = report.recipients.map((r) => ({ ...r }));
  const answer: BounceAnswer = { kind: report.kind, format: report.format, recipients };
  if (report.omitted > 0) answer.recipients_omitted = report.omitted;
  if (report.kind !== 'failed' && report.kind !== 'delayed') return answer;
  const chosen = recipients.filter((r) => (r.action === 'failed' || r.action === 'delayed' || r.action === undefined) && (r.reply ?? r.status));
  if (chosen.length === 0) return answer;
  const texts = chosen.map((r) => r.reply ?? r.status!);
  const [bnac, backoff] = await Promise.all([
    classifyMessages(deps, 'bnac', texts, options),
    classifyMessages(deps, 'backoff', texts, options),
  ]);
  chosen.forEach((recipient, i) => {
    recipient.bnac = bnacV2(bnac[i]!) as ClassifiedRecipient['bnac'];
    recipient.backoff = backoffPlain(backoff[i]!) as ClassifiedRecipient['backoff'];
  });
  return answer;
}
