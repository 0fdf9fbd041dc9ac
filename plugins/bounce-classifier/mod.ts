/**
 * The bounce-classifier API (`spec/openapi/bounce-classifier.yaml`): BNAC and backoff classification of
 * SMTP bounce replies, `/normalise`, the cache endpoints, and whole bounce emails read per recipient
 * (`/v1/bounce-email`, in `email/`). The model is a classifier plugin found through
 * the config key `classifier` (default `bounce-model`), so a user swaps in their own by configuration alone.
 * Its `service` (a `ReplyClassifier`) classifies raw replies the same way for other plugins, such as the backoff events
 * of `ip-schedule`. Settings come from the config; the environment variables `SERVICE_BNAC_CACHE`,
 * `SERVICE_BNAC_CACHE_FOLDER` and `SERVICE_BNAC_CACHE_SIZE` win over it. The key in `API_KEY` is the host's, accepted
 * here besides the config's `apiKey`.
 *
 * @example
 * ```ts
 * import { startHost } from '../../runtime/mod.ts';
 * const host = await startHost({
 *   version: '6.10',
 *   servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
 *   plugins: [{ id: 'bounce-classifier', config: { cache: { maxSize: 16777216 } } }],
 * }, { ephemeralPorts: true });
 * const response = await fetch(`${host.urls[0]}/v2/bnac/single`, {
 *   method: 'POST',
 *   headers: { 'content-type': 'application/json', accept: 'application/json' },
 *   body: JSON.stringify({ message: '451 4.7.1 Greylisting in effect, please come back later' }),
 * });
 * console.log(await response.json()); // { class: 'GRAYLISTING', probability: 0.97 }
 * await host.close();
 * ```
 */
import { bounceClassifierConfigSchema } from '../../generated/validators/plugins/bounce-classifier.ts';
import { definePlugin } from '../../runtime/mod.ts';
import { classifyCommand } from './classify-command.ts';
import { errors } from './errors.ts';
import type { Classifier, ReplyClassifier, ScheduleStore } from '../../runtime/mod.ts';
import { Corrections } from './corrections/corrections.ts';
import { openCorrectionStore } from './corrections/open.ts';
import { ResultCache } from './cache/result-cache.ts';
import { classifyNormalised, normaliserOf } from './classify.ts';
import { createHandlers } from './handlers.ts';
import { classifierMetrics } from './metrics.ts';
import { ENV_NAMES, resolveSettings } from './settings.ts';

export default definePlugin({
  id: 'bounce-classifier',
  kind: 'api',
  api: 'bounce-classifier',
  apiVersion: '^1.9.0',
  description: 'Classifies SMTP bounce replies (BNAC and backoff) with a classifier plugin, behind a cache',
  config: bounceClassifierConfigSchema,
  errors,
  commands: { classify: classifyCommand },
  capabilities: {
    env: ENV_NAMES,
    // Large emails are read in the pool, off the event loop (email/read-off-thread.ts)
    pool: { worker: new URL('./email/worker.ts', import.meta.url).href },
    services: {
      classifier: { kind: 'classifier', configKey: 'classifier', default: 'bounce-model' },
      // Keeps the audit entries of corrections, so that ip-schedule's GET /v1/audit answers them
      auditStore: { kind: 'store', configKey: 'auditStore', default: 'schedule-store-file', optional: true },
    },
  },
  async setup(ctx) {
    const settings = resolveSettings(ctx.config, ctx.env, ctx);
    const classifier = ctx.services.classifier as Classifier | undefined;
    if (typeof classifier?.classify !== 'function' || typeof classifier.version !== 'string') {
      throw errors.BOUNCE_ERR_NO_CLASSIFIER(ctx.config.classifier);
    }
    let cache: ResultCache | undefined;
    const metrics = classifierMetrics(ctx.metrics, () => cache);
    cache = await ResultCache.open(settings.cache, {
      version: classifier.version,
      log: ctx.log,
      onLookup: metrics.looked,
    });
    ctx.log.info('Bounce classifier ready', { classifier: classifier.version, cache: cache.info() });
    const normalise = normaliserOf(classifier);
    const auditStore = ctx.services.auditStore as ScheduleStore | undefined;
    // Said at start, as an operator who looks for a correction in GET /v1/audit would otherwise find nothing there
    if (typeof auditStore?.appendAudit !== 'function') {
      ctx.log.info('Corrections are audited in the log only: no store keeps them ("auditStore")');
    }
    let corrections: Corrections;
    try {
      const store = await openCorrectionStore(ctx.config.corrections, settings.cache.folder, ctx.log);
      corrections = await Corrections.open({
        store,
        normalise,
        maxCount: ctx.config.corrections.maxCount,
        audit: ctx.audit,
        auditSink: auditStore?.appendAudit?.bind(auditStore),
        log: ctx.log,
      });
    } catch (error) {
      await cache.close();
      throw error;
    }
    // Other plugins (ip-schedule's backoff events) classify through the same normaliser, cache, corrections and metrics
    // as the endpoints
    // A caller asking both models about one batch (capstan replay) passes the same array twice: normalised once, the
    // normaliser being most of the cost of a reply never seen
    const normalised = new WeakMap<readonly string[], string[]>();
    const service: ReplyClassifier = {
      classifyReplies: (model, messages, options) => {
        let texts = normalised.get(messages);
        if (!texts) normalised.set(messages, (texts = messages.map(normalise)));
        return classifyNormalised({ classifier, cache, metrics, corrections }, model, texts, {
          useCache: true,
          signal: options?.signal,
        });
      },
      explainReply: (model, message) => classifier.explain?.(model, normalise(message)),
    };
    return {
      service,
      handlers: createHandlers({
        classifier,
        normalise,
        cache,
        batchMessages: settings.limits.batchMessages,
        metrics,
        pool: ctx.pool,
        corrections,
      }),
      auth: { header: 'x-api-key', keys: ctx.config.apiKey === '' ? [] : [ctx.config.apiKey] },
      bodyLimit: settings.limits.bodyBytes,
      close: () => Promise.all([cache.close(), corrections.close()]).then(() => undefined),
    };
  },
});
