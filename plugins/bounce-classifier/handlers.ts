import type { components, operations } from '../../generated/types/bounce-classifier.ts';
import { errors } from './errors.ts';
import type { Classifier, ClassifierModel, Handler, HandlerRequest, PoolHandle } from '../../runtime/mod.ts';
import type { ResultCache } from './cache/result-cache.ts';
import type { CorrectionRequest, Corrections } from './corrections/corrections.ts';
import { classifyNormalised } from './classify.ts';
import { classifyReports } from './classify-email.ts';
import { readRequestEmail } from './email/read-off-thread.ts';
import { withExplanations } from './explain.ts';
import { backoffFormat, bnacV1, bnacV2 } from './format.ts';
import type { ClassifierMetrics } from './metrics.ts';
import type { Format } from './format.ts';

/** What the handlers work with */
export interface HandlerDeps {
  classifier: Classifier;
  cache: ResultCache;
  /** Most messages one batch may hold */
  batchMessages: number;
  /** Counts every classification: passed down to `classifyNormalised`, not counted here */
  metrics: ClassifierMetrics;
  /** The classifier's normaliser, as `normaliserOf(classifier)` answers it */
  normalise: (message: string) => string;
  /** Where emails too large to read on the request thread are read (`readRequestEmail`); none: all on it */
  pool?: PoolHandle;
  /** Operators' corrections: laid over every answer, and the `/v1/corrections` routes */
  corrections: Corrections;
}

type SingleBody = components['schemas']['SingleRequest'];
type BatchBody = components['schemas']['BatchRequest'];
type BounceEmailBody = components['schemas']['BounceEmailRequest'] | Buffer;
type BackoffQuery = NonNullable<operations['classifyBackoff']['parameters']['query']>;
type ExplainQuery = { explain?: boolean };
const backoffPlain = backoffFormat(false);
const backoffWithProbability = backoffFormat(true);

/** The bounce-classifier API's handlers, keyed by operationId */
export function createHandlers(deps: HandlerDeps): Record<string, Handler> {
  const withinLimit = (messages: readonly string[]): readonly string[] => {
    if (messages.length > deps.batchMessages) throw errors.BOUNCE_ERR_BATCH_SIZE(messages.length, deps.batchMessages);
    return messages;
  };
  // The bnac and backoff endpoints all answer through here, so that the batch limit, the cache and `?explain=true`
  // work alike on each: formatted answers, with an explanation when asked for and the classifier gives one
  const run = async (
    model: ClassifierModel,
    messages: readonly string[],
    request: HandlerRequest<unknown, Record<string, string>, ExplainQuery>,
    format: Format,
    useCache = true,
  ) => {
    // Normalised once: the explanations read the same texts the classifier did
    const texts = withinLimit(messages).map(deps.normalise);
    const results = await classifyNormalised(deps, model, texts, { useCache, signal: request.signal });
    const answers = results.map(format) as Record<string, unknown>[];
    if (request.query?.explain !== true) return answers;
    return withExplanations(deps.classifier, model, texts, results, answers, request.signal);
  };
  const single =
    (format: Format): Handler =>
    async (request: HandlerRequest<SingleBody>) => {
      const [answer] = await run('bnac', [request.body.message], request, format);
      return { body: answer };
    };
  // A `{message}` body answers one object, as the original service's batch endpoint did
  const batch =
    (format: Format): Handler =>
    async (request: HandlerRequest<BatchBody>) => {
      if ('message' in request.body) return single(format)(request as HandlerRequest<SingleBody>);
      return { body: await run('bnac', request.body.messages, request, format) };
    };
  return {
    classifyBnacSingleV1: single(bnacV1),
    classifyBnacSingleV2: single(bnacV2),
    classifyBnacV1: batch(bnacV1),
    classifyBnacV2: batch(bnacV2),
    async classifyBackoff(request: HandlerRequest<BatchBody, Record<string, string>, BackoffQuery>) {
      const messages = 'message' in request.body ? [request.body.message] : request.body.messages;
      const format = request.query.return_probability === true ? backoffWithProbability : backoffPlain;
      return { body: await run('backoff', messages, request, format, request.query.bypass_cache !== true) };
    },
    // The host hands a `message/rfc822` body over as its bytes, a JSON one parsed
    async classifyBounceEmail(request: HandlerRequest<BounceEmailBody, Record<string, string>, ExplainQuery>) {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body.email, 'utf8');
      if (raw.length === 0) throw errors.BOUNCE_ERR_EMAIL_EMPTY();
      const report = await readRequestEmail(raw, deps.pool, request.signal);
      const [answer] = await classifyReports(deps, [report], {
        useCache: true,
        signal: request.signal,
        explain: request.query?.explain === true,
      });
      return { body: answer };
    },
    normalise: (request: HandlerRequest<BatchBody>) => ({
      body: {
        normalised:
          'message' in request.body
            ? deps.normalise(request.body.message)
            : withinLimit(request.body.messages).map(deps.normalise),
      },
    }),
    async createCorrection(request: HandlerRequest<CorrectionRequest>) {
      return { status: 201, body: await deps.corrections.create(request.body, request.principal) };
    },
    listCorrections: async (request: HandlerRequest) => ({
      body: await deps.corrections.list((request.query as { limit?: number } | undefined)?.limit),
    }),
    matchCorrections: (request: HandlerRequest<{ messages: string[] }>) => ({
      body: { corrections: deps.corrections.match(withinLimit(request.body.messages)) },
    }),
    async deleteCorrection(request: HandlerRequest) {
      const { id } = request.params as { id: string };
      const removed = await deps.corrections.delete(id, request.principal);
      if (!removed) throw errors.BOUNCE_ERR_CORRECTION_NOT_FOUND(id);
      return { body: removed };
    },
    getCacheStats: () => ({ body: deps.cache.stats() }),
    getCacheInfo: () => ({ body: deps.cache.info() }),
  };
}
