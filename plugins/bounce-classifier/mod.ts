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
import { definePlugin, Type } from '../../runtime/mod.ts';
import { classifyCommand } from './classify-command.ts';
import { errors } from './errors.ts';
import type { Classifier, ReplyClassifier } from '../../runtime/mod.ts';
import { ResultCache } from './cache/result-cache.ts';
import { classifyMessages, normaliserOf } from './classify.ts';
import { createHandlers } from './handlers.ts';
import { classifierMetrics } from './metrics.ts';
import { ENV_NAMES, resolveSettings } from './settings.ts';

const MiB = 1024 * 1024;

const config = Type.Object(
  {
    classifier: Type.String({ default: 'bounce-model', description: 'Instance id of the classifier plugin' }),
    apiKey: Type.String({ default: '', description: 'Key accepted in X-API-Key on this plugin\'s routes, besides the host\'s API_KEY; empty: none of its own' }),
    cache: Type.Object(
      {
        enabled: Type.Boolean({ default: true, description: 'Env SERVICE_BNAC_CACHE wins' }),
        folder: Type.String({ default: '', description: 'Empty: <dataDir>/cache (env SERVICE_BNAC_CACHE_FOLDER wins)' }),
        maxSize: Type.Integer({ minimum: 1, default: 64 * MiB, description: 'Bytes (env SERVICE_BNAC_CACHE_SIZE wins)' }),
      },
      { additionalProperties: false, default: {} },
    ),
    limits: Type.Object(
      {
        bodyBytes: Type.Integer({ minimum: 1, default: 8 * MiB, description: 'Larger bodies answer 413' }),
        batchMessages: Type.Integer({ minimum: 1, default: 10_000, description: 'Larger batches answer 413' }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false },
);

export default definePlugin({
  id: 'bounce-classifier',
  kind: 'api',
  api: 'bounce-classifier',
  apiVersion: '^1.5.0',
  description: 'Classifies SMTP bounce replies (BNAC and backoff) with a classifier plugin, behind a cache',
  config,
  errors,
  commands: { classify: classifyCommand },
  capabilities: {
    env: ENV_NAMES,
    services: { classifier: { kind: 'classifier', configKey: 'classifier', default: 'bounce-model' } },
  },
  async setup(ctx) {
    const settings = resolveSettings(ctx.config, ctx.env, ctx);
    const classifier = ctx.services.classifier as Classifier | undefined;
    if (typeof classifier?.classify !== 'function' || typeof classifier.version !== 'string') {
      throw errors.BOUNCE_ERR_NO_CLASSIFIER(ctx.config.classifier);
    }
    let cache: ResultCache | undefined;
    const metrics = classifierMetrics(ctx.metrics, () => cache);
    cache = await ResultCache.open(settings.cache, { version: classifier.version, log: ctx.log, onLookup: metrics.looked });
    ctx.log.info('Bounce classifier ready', { classifier: classifier.version, cache: cache.info() });
    const normalise = normaliserOf(classifier);
    // Other plugins (ip-schedule's backoff events) classify through the same normaliser, cache and metrics as the endpoints
    const service: ReplyClassifier = {
      classifyReplies: (model, messages, options) => classifyMessages({ classifier, normalise, cache, metrics }, model, messages, { useCache: true, signal: options?.signal }),
    };
    return {
      service,
      handlers: createHandlers({ classifier, normalise, cache, batchMessages: settings.limits.batchMessages, metrics }),
      auth: { header: 'x-api-key', keys: ctx.config.apiKey === '' ? [] : [ctx.config.apiKey] },
      bodyLimit: settings.limits.bodyBytes,
      close: () => cache.close(),
    };
  },
});
