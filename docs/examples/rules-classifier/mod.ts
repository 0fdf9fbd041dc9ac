/**
 * A rules-based classifier plugin: the worked example of `docs/bounce-classifier.md`. Ordered regular
 * expressions over the normalised text; the first match wins, otherwise a default class. It runs on the main
 * thread (no pool): a few regular expressions cost less than a pool task.
 *
 * Swap it in by configuration alone:
 *
 * @example
 * ```yaml
 * plugins:
 *   - id: rules
 *     path: ./docs/examples/rules-classifier
 *   - id: bounce-classifier
 *     config:
 *       classifier: rules
 * ```
 */
import { definePlugin, Type } from 'capstan';
import type { Classification, Classifier, ClassifierModel } from 'capstan';

type Rule = readonly [pattern: RegExp, label: string];

// Texts arrive through `normalise` below: lower case, status codes as `5_7_1`
const RULES: Record<ClassifierModel, readonly Rule[]> = {
  bnac: [
    [/virus|malware|infected/, 'VIRUS'],
    [/spamhaus|spamcop|barracuda|blocklist|blacklist|\bdnsbl\b|\brbl\b/, 'BLOCK_LIST'],
    [/greylist|graylist/, 'GRAYLISTING'],
    [/\bdkim\b/, 'DKIM'],
    [/\bdmarc\b/, 'DMARC'],
    [/\bspf\b/, 'SPF'],
    [/\bptr\b|reverse dns|rdns/, 'DNS_PTR'],
    [/starttls|\btls\b|\bssl\b/, 'TLS'],
    [/rate limit|too many|try again later|throttl/, 'RATE_LIMIT'],
    [/5_1_1|user unknown|does not exist|no such user|recipient not found|unknown recipient/, 'RECIPIENT_NOT_FOUND'],
    [/mailbox full|quota|5_2_2|4_2_2/, 'RECIPIENT_ERROR'],
    [/ip reputation|poor reputation.*ip/, 'IP_REPUTATION'],
    [/reputation/, 'DOMAIN_REPUTATION'],
    [/\bspam\b|content|message rejected/, 'MESSAGE_CONTENT'],
    [/\bmx\b|host not found|no route/, 'MX_ERROR'],
    [/blocked|denied|refused/, 'BLOCKED'],
    [/syntax|command|protocol/, 'PROTOCOL_ERROR'],
  ],
  backoff: [
    [/virus|malware|infected/, 'CONTENT_REJECTED_VIRUS'],
    [/\bspam\b/, 'CONTENT_REJECTED_SPAM'],
    [/greylist|graylist/, 'GRAYLISTING'],
    [/\bdkim\b/, 'POLICY_VIOLATION_SPF_DMARC__DKIM_FAIL'],
    [/\bspf\b|\bdmarc\b/, 'POLICY_VIOLATION_SPF_DMARC__SPF_OR_DMARC_FAIL'],
    [/too many connections|concurrenc/, 'CONCURRENCY_LIMIT'],
    [/rate limit|too many|throttl/, 'RATE_LIMIT__GENERAL'],
    [/server busy|try again later/, 'RATE_LIMIT__SERVER_BUSY'],
    [/mailbox full|quota|5_2_2|4_2_2/, 'MAILBOX_FULL'],
    [/5_1_1|user unknown|does not exist|no such user/, 'RECIPIENT_ERROR'],
    [/spamhaus|spamcop|barracuda|blocklist|blacklist/, 'INFRASTRUCTURE_BLOCK'],
    [/reputation/, 'SENDER_REPUTATION__DOMAIN'],
    [/auth/, 'AUTHENTICATION_ERROR'],
    [/blocked|denied|refused/, 'GENERIC_BLOCK'],
    [/syntax|command|protocol/, 'PROTOCOL_ERROR'],
  ],
};
const DEFAULT_LABEL: Record<ClassifierModel, string> = { bnac: 'TEMPORARY_ERROR', backoff: 'TEMPORARY_SYSTEM_FAILURE' };
// Rules carry no calibration: a fixed, modest confidence for a match and a low one for the fallback
const MATCHED = 0.8;
const FALLBACK = 0.2;

function classifyText(model: ClassifierModel, text: string): Classification {
  for (const [pattern, label] of RULES[model]) if (pattern.test(text)) return { label, probability: MATCHED };
  return { label: DEFAULT_LABEL[model], probability: FALLBACK };
}

const STATUS_RE = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/g;

const rulesClassifier: Classifier = {
  version: 'rules-2',
  // The input contract of these rules; the API keys its cache on it and `/normalise` answers it
  normalise: (message) => message.toLowerCase().replace(STATUS_RE, '$1_$2_$3').replace(/\s+/g, ' ').trim(),
  async classify(model, texts, options) {
    options?.signal?.throwIfAborted();
    return texts.map((text) => classifyText(model, text));
  },
};

export default definePlugin({
  id: 'rules-classifier',
  kind: 'classifier',
  apiVersion: '^1.1.0',
  description: 'Rules-based bounce classifier (worked example)',
  config: Type.Object({}, { additionalProperties: false }),
  setup: () => ({ service: rulesClassifier }),
});
