/**
 * Capstan's plugin API: the only module plugin authors import.
 *
 * @example
 * ```ts
 * import { definePlugin, Type } from 'capstan';
 * export default definePlugin({
 *   id: 'hello', kind: 'api', api: 'ip-schedule', apiVersion: '^1.0.0',
 *   config: Type.Object({}),
 *   setup: () => ({ handlers: { getStatusAll: () => ({ body: { ips: {} } }) } }),
 * });
 * ```
 */
export { Type } from 'typebox';
export type { Static, TSchema } from 'typebox';
export { definePlugin } from './plugins/define.ts';
export { PLUGIN_API_VERSION } from './core/types.ts';
export type * from './core/types.ts';
export { CapstanError, httpError } from './core/errors.ts';
export type { CreateOptions, ErrorFactory, ErrorSet, ErrorSpec, TemplateValues } from './core/errors.ts';
export { defineErrors } from './core/host-errors.ts';
export type { ErrorCode } from './core/host-errors.ts';
export { SYNC_POINT, writeFileAtomic } from './fs/write-atomic.ts';
export { makeFolder } from './fs/make-folder.ts';
export { encodeBlock, scanBlocks } from './fs/checksummed-blocks.ts';
export type { ScannedBlock } from './fs/checksummed-blocks.ts';
export { NotificationListener } from './postgres/notifications.ts';
export { terminatedByServer } from './postgres/terminated.ts';
export type { Notification, NotificationClient, NotificationListenerOptions } from './postgres/notifications.ts';
export type * from './contracts/classifier.ts';
export type * from './contracts/store.ts';
export type * from './core/audit.ts';
export { meteredStore } from './contracts/metered-store.ts';
export { startHost } from './host/serve.ts';
export type { Host, HostOptions } from './host/serve.ts';
export { usePlugin } from './plugins/use.ts';
// What the loader fills a plugin's config with: tools that read a startup document without a host (capstan replay) use
// the same
export { fillDefaults } from './config/defaults.ts';
// The check the host validates requests with, for a plugin that validates values of its own against the spec's schemas
export { compileChecker } from './config/validator.ts';
export type { FieldProblem } from './config/validator.ts';
// The closed class lists a classifier answers from, generated from spec/openapi/bounce-classifier.yaml
export { BACKOFF_CLASSES, BNAC_CLASSES } from '../generated/data/bounce-classifier.ts';
export type { BackoffClass, BnacClass } from '../generated/data/bounce-classifier.ts';
// The most features an explanation names, from the same spec
export { EXPLANATION_FEATURES } from './contracts/classifier.ts';
// The mailbox providers backoff policies are scoped by (ids, MX suffixes, domains, a source per row), generated from
// spec/openapi/ip-schedule.yaml: a store or tool of your own names providers as the host does
export { PROVIDERS, PROVIDER_TABLE } from '../generated/data/ip-schedule.ts';
export type { UsedPlugin } from './plugins/use.ts';
