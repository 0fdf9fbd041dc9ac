/**
 * `POST /v1/schedules/bulk` (operation `bulkSchedules`): pause, resume, delete or restore many groupings in one
 * request, each IP written once through the single routes' queue and compare-and-set, with an `undo` request built
 * from what changed alone, so that undoing needs no state kept on the server.
 */
import type { GroupingRecord, Handler, IpRecord } from '../../runtime/mod.ts';
import { errors } from './errors.ts';
import { eachLimited } from './limited.ts';
import type { IpChange, IpWriter } from './handlers.ts';
import { canonicalIp } from './ip.ts';
import { toRecord, type GroupingInput } from './records.ts';
import type { ScheduleTable, TableFilter } from './table.ts';

/** Most groupings one bulk request changes: its answer and its undo stay a few megabytes */
const MAX_BULK = 10_000;
/** IPs written at once: enough to keep a store's group commits full, few enough to leave room for other clients */
const CONCURRENCY = 16;

type Action = 'pause' | 'resume' | 'delete' | 'restore';

interface Target {
  ip: string;
  grouping?: string;
}

interface BulkRequest {
  action: Action;
  targets?: Target[];
  filter?: TableFilter;
  configs?: { ip: string; groupings: GroupingInput[] }[];
}

/** What one IP's write did, for the answer */
interface Outcome {
  changed: Target[];
  unchanged: Target[];
  missing: Target[];
  /** Groupings a delete removed, for its undo */
  removed: GroupingRecord[];
}

/** Per IP: the groupings named, or `all` of them (a target naming the IP alone) */
type Selection = Map<string, Set<string> | 'all'>;

export function bulkHandlers(options: { table: ScheduleTable; write: IpWriter }): Record<string, Handler> {
  const { table, write } = options;
  return {
    bulkSchedules: async (request) => {
      const body = request.body as BulkRequest;
      const work = body.action === 'restore' ? restoreWork(body) : await selectionWork(body, table);
      const outcomes = new Map<string, Outcome>();
      const failed: Target[] = [];
      await eachLimited([...work.keys()], CONCURRENCY, async (ip) => {
        const plan = work.get(ip)!;
        let outcome: Outcome | undefined;
        const written = await write(ip, request.principal, (record) => {
          const result = plan(record);
          outcome = result.outcome;
          return result.change;
        });
        if (written === 'busy') failed.push({ ip });
        else if (outcome) outcomes.set(ip, outcome);
      });
      return {
        body: answer(
          body.action,
          [...work.keys()].flatMap((ip) => outcomes.get(ip) ?? []),
          failed,
        ),
      };
    },
  };
}

type Plan = (record: IpRecord | undefined) => { change?: IpChange; outcome: Outcome };

/** Pause, resume or delete over `targets` or `filter`: a plan per IP */
async function selectionWork(body: BulkRequest, table: ScheduleTable): Promise<Map<string, Plan>> {
  if ((body.targets === undefined) === (body.filter === undefined))
    throw errors.SCHEDULE_ERR_BULK_TARGETS('request', `"${body.action}" needs "targets" or "filter", one of them`);
  if (body.configs) throw errors.SCHEDULE_ERR_BULK_TARGETS('request', '"configs" go with "restore" only');
  const selection: Selection = new Map();
  if (body.targets) {
    for (const [index, target] of body.targets.entries()) {
      const ip = canonicalIp(target.ip);
      if (ip === undefined)
        throw errors.SCHEDULE_ERR_BULK_TARGETS(`targets[${index}].ip`, `"${target.ip}" is not an IP address`);
      const names = selection.get(ip);
      if (target.grouping === undefined) selection.set(ip, 'all');
      else if (names === undefined) selection.set(ip, new Set([target.grouping]));
      else if (names !== 'all') names.add(target.grouping);
    }
  } else {
    const rows = await table.matching(body.filter!);
    if (rows.length > MAX_BULK) throw errors.SCHEDULE_ERR_BULK_TOO_MANY(rows.length, MAX_BULK);
    for (const row of rows) {
      const names = selection.get(row.ip);
      if (names instanceof Set) names.add(row.config.grouping);
      else selection.set(row.ip, new Set([row.config.grouping]));
    }
  }
  const plans = new Map<string, Plan>();
  for (const [ip, names] of selection) plans.set(ip, selectionPlan(ip, names, body.action));
  return plans;
}

function selectionPlan(ip: string, names: Set<string> | 'all', action: Action): Plan {
  return (record) => {
    const outcome: Outcome = { changed: [], unchanged: [], missing: [], removed: [] };
    if (!record) {
      outcome.missing = names === 'all' ? [{ ip }] : [...names].map((grouping) => ({ ip, grouping }));
      return { outcome };
    }
    const chosen = names === 'all' ? record.groupings : record.groupings.filter((g) => names.has(g.grouping));
    if (names !== 'all') {
      const present = new Set(chosen.map((g) => g.grouping));
      outcome.missing = [...names].filter((name) => !present.has(name)).map((grouping) => ({ ip, grouping }));
    }
    if (action === 'delete') {
      if (names === 'all') outcome.changed = [{ ip }];
      else outcome.changed = chosen.map((g) => ({ ip, grouping: g.grouping }));
      outcome.removed = chosen;
      if (names !== 'all' && chosen.length === 0) return { outcome };
      const kept = record.groupings.filter((g) => !chosen.includes(g));
      // An IP whose last grouping goes would linger as a row-less IP: it goes with it
      const next = kept.length === 0 ? null : { groupings: kept };
      return { change: { next, ...subject('schedule.delete', names, outcome.changed) }, outcome };
    }
    const paused = action === 'pause';
    const flip = new Set(chosen.filter((g) => g.paused !== paused));
    for (const g of chosen) (flip.has(g) ? outcome.changed : outcome.unchanged).push({ ip, grouping: g.grouping });
    if (flip.size === 0) return { outcome };
    const next = { groupings: record.groupings.map((g) => (flip.has(g) ? { ...g, paused } : g)) };
    return { change: { next, ...subject(`schedule.${action}`, names, outcome.changed) }, outcome };
  };
}

/** The audit subject: the grouping when one of the IP's changed, else the IP, naming the groupings when not all */
function subject(
  action: string,
  names: Set<string> | 'all',
  changed: Target[],
): { action: string; grouping?: string; reason?: Record<string, unknown> } {
  if (names === 'all') return { action, reason: { bulk: true } };
  if (changed.length === 1) return { action, grouping: changed[0]!.grouping!, reason: { bulk: true } };
  return { action, reason: { bulk: true, groupings: changed.map((target) => target.grouping) } };
}

/** Restore: each IP's groupings added back, each checked first, so that a bad one writes nothing */
function restoreWork(body: BulkRequest): Map<string, Plan> {
  if (!body.configs || body.targets || body.filter)
    throw errors.SCHEDULE_ERR_BULK_TARGETS('request', '"restore" needs "configs", and only them');
  const plans = new Map<string, Plan>();
  let count = 0;
  for (const [index, config] of body.configs.entries()) {
    const ip = canonicalIp(config.ip);
    if (ip === undefined)
      throw errors.SCHEDULE_ERR_BULK_TARGETS(`configs[${index}].ip`, `"${config.ip}" is not an IP address`);
    if (plans.has(ip)) throw errors.SCHEDULE_ERR_BULK_TARGETS(`configs[${index}].ip`, `IP "${ip}" is given twice`);
    toRecord({ groupings: config.groupings });
    count += config.groupings.length;
    plans.set(ip, restorePlan(ip, config.groupings));
  }
  if (count > MAX_BULK) throw errors.SCHEDULE_ERR_BULK_TOO_MANY(count, MAX_BULK);
  return plans;
}

function restorePlan(ip: string, groupings: GroupingInput[]): Plan {
  return (record) => {
    const outcome: Outcome = { changed: [], unchanged: [], missing: [], removed: [] };
    const existing = new Set(record?.groupings.map((g) => g.grouping));
    const added = groupings.filter((g) => !existing.has(g.grouping));
    for (const g of groupings)
      (existing.has(g.grouping) ? outcome.unchanged : outcome.changed).push({ ip, grouping: g.grouping });
    if (added.length === 0) return { outcome };
    const next = toRecord({ groupings: [...(record?.groupings ?? []), ...added] }, record);
    const action = record ? 'schedule.update' : 'schedule.create';
    return { change: { next, action, reason: { bulk: true, restored: added.map((g) => g.grouping) } }, outcome };
  };
}

function answer(action: Action, outcomes: Outcome[], failed: Target[]) {
  const changed = outcomes.flatMap((o) => o.changed);
  let undo: BulkRequest | null = null;
  if (changed.length > 0) {
    if (action === 'pause' || action === 'resume')
      undo = { action: action === 'pause' ? 'resume' : 'pause', targets: changed };
    else if (action === 'restore') undo = { action: 'delete', targets: changed };
    else {
      const configs = outcomes
        .filter((o) => o.removed.length > 0)
        .map((o) => ({ ip: (o.changed[0] ?? o.unchanged[0])!.ip, groupings: o.removed.map(restorable) }));
      undo = configs.length > 0 ? { action: 'restore', configs } : null;
    }
  }
  return {
    action,
    changed,
    unchanged: outcomes.flatMap((o) => o.unchanged),
    missing: outcomes.flatMap((o) => o.missing),
    ...(failed.length > 0 ? { failed } : {}),
    undo,
  };
}

/** A stored grouping as a request takes it back: the host's warm-up state is not the client's to give */
function restorable(grouping: GroupingRecord): GroupingInput {
  const { warmup: _state, ...input } = grouping;
  return input;
}
