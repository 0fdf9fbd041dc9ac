/** What the corrections tests share: a host keeping them in its cache folder, and the replies they correct */
import { startScheduleHost, type ScheduleHost } from '../ip-schedule/_host.ts';

// The model reads it as an access block; the operator knows this receiver says it for unknown users
export const REPLY = '550 5.7.1 <anna@example.org>: Recipient address rejected: Access denied [192.0.2.1]';
/** The same wording with another address and IP: the same normalised text */
export const SAME_WORDING =
  '550 5.7.1 <bob.smith@other.example>: Recipient address rejected: Access denied [198.51.100.23]';
export const FULL = '552 5.2.2 Mailbox full, quota exceeded';

/** A host serving ip-schedule (whose audit trail keeps the corrections' entries) and bounce-classifier with `config` */
export function correctionsHost(config: Record<string, unknown> = {}, folder?: string): Promise<ScheduleHost> {
  return startScheduleHost({
    plugins: [{ id: 'schedule-store-file' }, { id: 'bounce-classifier', config }],
    ...(folder ? { folder } : {}),
  });
}
