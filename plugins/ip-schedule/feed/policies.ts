/**
 * What the MTA must enforce for one IP's warm-up, as a pure function of its stored record and the day: the `WARMUP`
 * policies and the suspension the feed sends. docs/policy-feed.md gives the table and why each row is what it is;
 * in short, a `WARMUP` policy reserves the IP for the traffic it matches (at most `count` per `interval`, the rest
 * overflows to other IPs), and an IP left with no `WARMUP` policy would take any traffic without limit, so an IP
 * whose warm-up has nothing running is held with a `WARMUP` suspension of the IP instead.
 */
import type { components } from '../../../generated/types/ip-schedule.ts';
import type { IpRecord } from '../../../runtime/mod.ts';
import { scheduleDay } from '../schedule.ts';

/** A policy as the MTA's policy client takes it */
export type Policy = components['schemas']['Policy'];

/** A suspension as the MTA's policy client takes it */
export type Suspend = components['schemas']['Suspend'];

/** The feed objects of one IP */
interface IpPolicies {
  policies: Policy[];
  suspends: Suspend[];
}

/** Tag of a finished grouping's policy, and of the hold suspension */
const FINISHED_TAG = 'Finished';
const HOLD_TAG = 'Hold';

/** Id of the policy of an (IP, grouping) schedule: stable for as long as the grouping exists */
function policyId(ip: string, grouping: string): string {
  return `warmup:${ip}:${grouping}`;
}

/** Id of the suspension holding an IP */
function holdId(ip: string): string {
  return `warmup-hold:${ip}`;
}

/** The policies and suspension the MTA must hold for `ip` on day number `today` (days since 1970-01-01, local) */
export function warmupPolicies(ip: string, record: IpRecord | undefined, today: number): IpPolicies {
  const policies: Policy[] = [];
  let waiting = false;
  for (const grouping of record?.groupings ?? []) {
    const { status, day, messages } = scheduleDay(grouping, today);
    // A day of 0 messages waits as a paused grouping does (docs/policy-feed.md, row 6)
    const running = status === 'ONSCHEDULE' && messages > 0;
    if (running || status === 'FINISHED') {
      const then: Policy['then'] = running
        ? { rate: { count: messages, interval: grouping.interval, algorithm: grouping.algorithm }, tag: `Day_${day}` }
        : { tag: FINISHED_TAG };
      if (grouping.properties) then.properties = { ...grouping.properties };
      // A held day is the same volume with its reason: the MTA's logs say why the warm-up stopped, and the change is an
      // UPDATE
      const hold = running ? grouping.warmup?.hold : undefined;
      if (hold) then.properties = { ...then.properties, hold: hold.reason };
      policies.push({
        id: policyId(ip, grouping.grouping),
        type: 'WARMUP',
        fields: ['LOCALIP', 'GROUPING'],
        if: { localip: ip, grouping: grouping.grouping },
        then,
      });
    } else {
      waiting = true;
    }
  }
  // Every grouping finished (or none left): the IP is warmed up and no longer Capstan's to limit
  if (!waiting && policies.every((p) => p.then.tag === FINISHED_TAG)) return { policies: [], suspends: [] };
  if (policies.length > 0) return { policies, suspends: [] };
  return { policies: [], suspends: [{ id: holdId(ip), type: 'WARMUP', localip: ip, tag: HOLD_TAG }] };
}
