/**
 * `ctx.audit` of every plugin: builds audit entries (a UUID version 7 id, the time, this host's name) and writes each
 * committed one as a JSON log line. Where entries are kept is the plugin's `commit`: a store keeps them with the
 * change.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from '../core/types.ts';
import type { AuditEntry, PluginAudit } from '../core/audit.ts';

const HOST = hostname();
let lastMs = 0;
let counter = 0;

/**
 * A UUID version 7 (RFC 9562): 48 bits of milliseconds, then a 12-bit counter within the millisecond (method 1 of
 * section 6.2), so ids of one host sort in the order they were made and `time` sorts with them. The clock stepping
 * back reuses the last millisecond
 */
export function uuidv7(now = Date.now()): { id: string; ms: number } {
  if (now > lastMs) {
    lastMs = now;
    counter = randomBytes(2).readUInt16BE() & 0x3ff;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes.writeUInt16BE(0x7000 | counter, 6);
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return {
    id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
    ms: lastMs,
  };
}

/** The audit trail of one plugin instance, logging through its logger */
export function pluginAudit(log: Logger): PluginAudit {
  return {
    async record(change, commit) {
      const { id, ms } = uuidv7();
      const entry: AuditEntry = {
        id,
        time: new Date(ms).toISOString(),
        action: change.action,
        subject: { ...change.subject },
        principal: change.principal ?? 'anonymous',
        before: change.before ?? null,
        after: change.after ?? null,
        ...(change.reason ? { reason: change.reason } : {}),
        host: HOST,
      };
      const result = await commit(entry);
      if (result !== undefined && (result as unknown) !== false) log.info('audit', { audit: entry });
      return result;
    },
  };
}
