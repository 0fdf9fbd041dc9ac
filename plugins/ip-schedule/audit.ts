/**
 * The audit trail of `ip-schedule`: `GET /v1/audit` (operation `getAudit`) over the store's `queryAudit`, with an
 * opaque cursor (the last id answered), and the entries the plugin's changes record.
 */
import type { AppliedPolicy, AuditChange, Handler, HandlerRequest, ScheduleStore } from '../../runtime/mod.ts';
import { errors } from './errors.ts';

/** Principal of what the service does by itself, such as a policy lapsing */
export const SYSTEM = 'system';

/** The change of an applied policy written over `before` (what was in force, if anything) */
export function policyChange(
  policy: AppliedPolicy,
  before: AppliedPolicy | undefined,
  principal: string | undefined,
): AuditChange {
  return {
    action: policy.level === 0 ? 'policy.apply' : 'policy.escalate',
    subject: { policy: policy.id },
    principal,
    before: before ?? null,
    after: policy,
    reason: { kind: policy.kind, level: policy.level },
  };
}

/** The audit operation, bound by operationId */
export function auditHandlers(store: ScheduleStore): Record<string, Handler> {
  return {
    getAudit: async (request: HandlerRequest) => {
      if (!store.queryAudit) throw errors.SCHEDULE_ERR_NO_AUDIT_STORE();
      const { cursor, limit = 100, ...filters } = request.query as Record<string, string | number | undefined>;
      const before = cursor === undefined ? undefined : decodeCursor(String(cursor));
      // One more than asked tells whether a next page exists
      const entries = await store.queryAudit({ ...filters, ...(before ? { before } : {}), limit: Number(limit) + 1 });
      const page = entries.slice(0, Number(limit));
      return {
        body: {
          entries: page,
          ...(entries.length > page.length ? { next: encodeCursor(page[page.length - 1]!.id) } : {}),
        },
      };
    },
  };
}

function encodeCursor(id: string): string {
  return Buffer.from(JSON.stringify({ before: id })).toString('base64url');
}

function decodeCursor(cursor: string): string {
  try {
    const { before } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { before?: unknown };
    if (typeof before === 'string' && /^[0-9a-f-]{36}$/.test(before)) return before;
  } catch {
    // Not ours: answered below
  }
  throw errors.SCHEDULE_ERR_AUDIT_CURSOR(cursor);
}
