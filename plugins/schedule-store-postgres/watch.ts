/**
 * Change notices of the PostgreSQL store: every write runs `pg_notify` on the schema's channel in its own statement, so
 * the notice is delivered when the write commits, to every host listening on the runtime's `NotificationListener`
 * (one dedicated connection per store, reconnecting and reporting `lost` when it drops).
 */
import pg from 'pg';
import { NotificationListener, type Logger, type StoreChangeListener } from '../../runtime/mod.ts';

/** Payload prefix of a notice about an applied policy; IP notices carry the IP alone (no IP starts with "p") */
export const POLICY_NOTICE = 'policy:';

/** The channel of a schema: PostgreSQL cuts identifiers at 63 bytes, and a shared prefix only causes spurious notices */
export function channelOf(schema: string): string {
  return `capstan_ips_${schema}`.slice(0, 63);
}

/** The listening connection of one store, on a client of its own made with `config` */
export function storeListener(config: pg.ClientConfig, schema: string, log: Logger): NotificationListener {
  return new NotificationListener({
    client: () => new pg.Client(config),
    channel: channelOf(schema),
    log,
    lostMessage: 'schedule database listening connection lost; reconnecting, then the feed re-reads every schedule',
  });
}

/** Adds a store change listener to `listener`: notices name an IP or (prefixed) a policy; empty ones are not writes */
export function watchStore(listener: NotificationListener, onChange: StoreChangeListener): Promise<() => void> {
  return listener.listen((notification) => {
    if ('lost' in notification) return onChange(notification);
    const { payload } = notification;
    if (payload === '') return;
    onChange(payload.startsWith(POLICY_NOTICE) ? { policy: payload.slice(POLICY_NOTICE.length) } : { ip: payload });
  });
}
