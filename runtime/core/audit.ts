/**
 * The audit trail of the plugin API (since 1.4): every change a plugin makes on someone's behalf, as one entry of a
 * stable shape (`AuditEntry`, spec/openapi/host.yaml), logged by the host and kept by a store.
 */
import type { components } from '../../generated/types/host.ts';

/** One recorded change */
export type AuditEntry = components['schemas']['AuditEntry'];

/** What a plugin says of a change; the host adds `id`, `time`, `host` and, when absent, `principal: "anonymous"` */
export interface AuditChange {
  /** `<object>.<verb>`, such as `schedule.update` */
  action: string;
  /** What changed: `ip`, `grouping`, `policy`, or another name of the plugin's; string values */
  subject: Readonly<Record<string, string>>;
  /** `request.principal`: the key's name or fingerprint; absent when the API is open */
  principal?: string;
  /** The object before the change (`null`: it did not exist) and after it (`null`: it no longer exists) */
  before: unknown;
  after: unknown;
  reason?: Record<string, unknown>;
}

/** What `ctx.audit` offers. Since plugin API 1.4 */
export interface PluginAudit {
  /**
   * Records one change: builds its entry and hands it to `commit`, which makes the change and keeps the entry with it
   * in one commit (a store write given `{ audit: entry }`), or keeps the entry alone (`appendAudit`). When `commit`
   * resolves to anything but `false` or `undefined` (which mean nothing changed, such as a compare-and-set that
   * lost), the host writes the entry as one JSON log line, message `audit` at level info. Answers what `commit`
   * answered; a `commit` that throws is thrown, and nothing is logged
   */
  record<T>(change: AuditChange, commit: (entry: AuditEntry) => Promise<T>): Promise<T>;
}
