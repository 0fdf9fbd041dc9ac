/**
 * Realistic batches for `POST /v1/backoff/events` (the backoff benches): 2,000 replies expanded from the corpus's
 * phrasing templates with seeded slot values; context of 64 local IPs, 256 remote IPs, 5 groupings, 10 tenants and 50
 * jobs, so that policies are applied and escalated as a run goes; and, for what issue 21 added, each event's
 * `remotemx` (real MX names of 12 providers and 40 unknown domains) and a `time` within the last 10 minutes.
 */
import { loadPhrasingFiles } from '../scripts/corpus/generate-corpus.ts';
import { Rng } from '../scripts/corpus/random.ts';
import { expand } from '../scripts/corpus/slots.ts';

export const BATCH = 1_000;
const BATCHES = 20;
const REPLIES = 2_000;

/** The replies, the bodies of today's requests (failures only), and bodies with MX and time, deliveries picked by `delivered(i)` */
export async function backoffBatches() {
  const rng = new Rng(20261123);
  const templates = (await loadPhrasingFiles()).flatMap((file) =>
    file.phrasings.flatMap((p) => Object.values(p.templates).flat()),
  );
  const replies = Array.from({ length: REPLIES }, (_, i) => expand(rng, templates[i % templates.length]!));
  const pick = <T>(values: readonly T[]) => values[Math.floor(rng.next() * values.length)]!;
  const ips = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}.${i >> 8}.${i & 255}`);
  const [local, remote] = [ips('10.1', 64), ips('198.51', 256)];
  const groupings = ['&gmail', '&yahoo', '&outlook', '&icloud', '&other'];
  const batches = Array.from({ length: BATCHES }, () =>
    Array.from({ length: BATCH }, () => ({
      message: pick(replies),
      localip: pick(local),
      remoteip: pick(remote),
      grouping: pick(groupings),
      tenantid: `t${Math.floor(rng.next() * 10)}`,
      jobid: `j${Math.floor(rng.next() * 50)}`,
      recipientdomain: 'example.com',
    })),
  );
  const mx = [
    'gmail-smtp-in.l.google.com',
    'hotmail-com.olc.protection.outlook.com',
    'contoso-com.mail.protection.outlook.com',
    'mta7.am0.yahoodns.net',
    'mx01.mail.icloud.com',
    'mx00.gmx.net',
    'smtp-in.orange.fr',
    'mx2c1.comcast.net',
    'mx.yandex.ru',
    'mxs.mail.ru',
    'mx3.qq.com',
    'mx00.t-online.de',
    ...Array.from({ length: 40 }, (_, i) => `mx${i % 3}.mail.domain${i}.example.co.uk`),
  ];
  const started = Date.now();
  return {
    replies,
    eventBodies: batches.map((events) => JSON.stringify({ events })),
    replyBodies: batches.map((events) => JSON.stringify({ messages: events.map((e) => e.message) })),
    timedBodies: (delivered: (i: number) => boolean) =>
      batches.map((events) =>
        JSON.stringify({
          events: events.map((event, i) => ({
            ...(delivered(i)
              ? { localip: event.localip, remoteip: event.remoteip, grouping: event.grouping, outcome: 'delivered' }
              : event),
            remotemx: pick(mx),
            time: new Date(started - Math.floor(rng.next() * 600_000)).toISOString(),
          })),
        }),
      ),
  };
}
