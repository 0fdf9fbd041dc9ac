/**
 * The per-class backoff policy table: for each backoff class that has `fields` (what to scope by) and `actions` (what
 * to apply) in the spec's class table, how many events in what window trigger it and what is applied. Defaults come
 * from each class's actions; `ip-schedule` config `backoff.policies.<CLASS>` overrides any part of a class's row.
 * Beside counts, share triggers (`shareTriggers`): a class group of the spec's group table, or a class, whose share of
 * the attempts from one local IP to one provider reaches a threshold; config `backoff.triggers` overrides them.
 */
import {
  BACKOFF_CLASS_GROUPS,
  BACKOFF_CLASSES,
  BACKOFF_GROUP_TABLE,
  BACKOFF_TABLE,
} from '../../../generated/data/bounce-classifier.ts';
import type { IpScheduleConfig } from '../../../generated/types/plugins/ip-schedule.ts';
import { errors } from '../errors.ts';

/** The backoff section of the plugin config (spec/schema/plugins/ip-schedule.schema.json) */
export type BackoffConfig = IpScheduleConfig['backoff'];

/** A share trigger, defaults filled */
export interface ShareTrigger {
  /** The group's or the class's name */
  name: string;
  /** Set for a group's trigger */
  group?: string;
  classes: ReadonlySet<string>;
  /** Fraction of the attempts */
  threshold: number;
  minAttempts: number;
  /** Milliseconds */
  windowMs: number;
}

/**
 * The share triggers: each group of the spec's group table with its default share, and each class given one in
 * `config.triggers` (a class has none of its own by default); a group or class with `enabled: false` has none
 */
export function shareTriggers(config: Pick<BackoffConfig, 'triggers'>): ShareTrigger[] {
  const groups = BACKOFF_GROUP_TABLE as Record<
    string,
    { classes: readonly string[]; share: { threshold: number; minAttempts: number; window: number } }
  >;
  for (const name of Object.keys(config.triggers)) {
    if (!(name in groups) && !(name in BACKOFF_TABLE)) {
      throw errors.SCHEDULE_ERR_BACKOFF_TRIGGER(name, [...BACKOFF_CLASS_GROUPS, ...BACKOFF_CLASSES].join('", "'));
    }
  }
  const triggers: ShareTrigger[] = [];
  for (const name of [...BACKOFF_CLASS_GROUPS, ...BACKOFF_CLASSES]) {
    const own = config.triggers[name];
    const group = groups[name];
    if (own?.enabled === false || (!group && !own)) continue;
    // A class's own trigger starts from its group's (the first that lists it), else from the default share
    const defaults =
      group?.share ?? Object.values(groups).find((g) => g.classes.includes(name))?.share ?? DEFAULTS.share;
    triggers.push({
      name,
      ...(group ? { group: name } : {}),
      classes: new Set(group?.classes ?? [name]),
      threshold: own?.threshold ?? defaults.threshold,
      minAttempts: own?.minAttempts ?? defaults.minAttempts,
      windowMs: (own?.window ?? defaults.window) * 1000,
    });
  }
  return triggers;
}

/** One class's row, defaults filled */
export interface ClassPolicy {
  class: string;
  /** Lower-case fields the policy is scoped by, from the spec's class table */
  fields: readonly string[];
  threshold: number;
  /** Milliseconds */
  windowMs: number;
  /** Seconds */
  ttl: number;
  maxTtl: number;
  rate?: { count: number; interval: number; algorithm: 'TOKENBUCKET' | 'FIXEDWINDOW' };
  concurrency?: number;
  suspend: boolean;
}

/** Defaults per action, as docs/policy-feed.md lists them */
const DEFAULTS = {
  threshold: 50,
  suspendThreshold: 20,
  window: 60,
  ttl: 600,
  suspendTtl: 300,
  maxTtl: 21600,
  rate: { count: 60, interval: 60, algorithm: 'TOKENBUCKET' as const },
  concurrency: 2,
  /** A class's own share trigger, when its class is in no group */
  share: { threshold: 0.05, minAttempts: 200, window: 900 },
};

/** The row of every class that can be applied, defaults overridden by `config` */
export function policyTable(config: Pick<BackoffConfig, 'policies'>): Map<string, ClassPolicy> {
  for (const name of Object.keys(config.policies)) {
    const row = (BACKOFF_TABLE as Record<string, { fields: readonly string[] } | undefined>)[name];
    if (!row) throw errors.SCHEDULE_ERR_BACKOFF_CLASS(name, BACKOFF_CLASSES.join('", "'));
    if (row.fields.length === 0) throw errors.SCHEDULE_ERR_BACKOFF_NO_FIELDS(name);
  }
  const table = new Map<string, ClassPolicy>();
  for (const name of BACKOFF_CLASSES) {
    const { fields, actions } = BACKOFF_TABLE[name] as { fields: readonly string[]; actions: readonly string[] };
    if (fields.length === 0) continue;
    const own = config.policies[name] ?? {};
    if (own.enabled === false || (actions.length === 0 && Object.keys(own).length === 0)) continue;
    const suspend =
      own.suspend ?? (own.rate === undefined && own.concurrency === undefined && actions.includes('suspend'));
    const rate = suspend
      ? undefined
      : own.rate
        ? { algorithm: 'TOKENBUCKET' as const, ...own.rate }
        : actions.includes('rate')
          ? DEFAULTS.rate
          : undefined;
    const concurrency = suspend
      ? undefined
      : (own.concurrency ?? (actions.includes('concurrency') ? DEFAULTS.concurrency : undefined));
    if (!suspend && rate === undefined && concurrency === undefined) {
      throw errors.SCHEDULE_ERR_BACKOFF_NO_ACTION(name);
    }
    const ttl = own.ttl ?? (suspend ? DEFAULTS.suspendTtl : DEFAULTS.ttl);
    table.set(name, {
      class: name,
      fields,
      threshold: own.threshold ?? (suspend ? DEFAULTS.suspendThreshold : DEFAULTS.threshold),
      windowMs: (own.window ?? DEFAULTS.window) * 1000,
      ttl,
      maxTtl: Math.max(ttl, own.maxTtl ?? DEFAULTS.maxTtl),
      rate,
      concurrency,
      suspend,
    });
  }
  return table;
}
