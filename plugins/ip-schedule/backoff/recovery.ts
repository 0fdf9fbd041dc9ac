/**
 * Gradual recovery (`backoff.recovery`): a rate policy that lapses does not let the traffic snap back at once; its
 * rate (and concurrency) step back up by `factor` every `step` seconds until they reach its class's configured ones,
 * or, where the policy limits a grouping that warms up, that grouping's scheduled rate when it is higher (the MTA
 * then sends at the warm-up's rate, which deleting the policy leaves it), then it is deleted. Each step replaces the
 * lapsed policy in the store on the condition that it is still the one that lapsed, so exactly one host writes it;
 * every host's feed sends it as an `UPDATE`.
 */
import type { AppliedPolicy } from '../../../runtime/mod.ts';
import type { Rate } from '../schedule.ts';
import type { ClassPolicy } from './table.ts';

/** `backoff.recovery` as the config schema fills it */
export interface RecoverySettings {
  enabled: boolean;
  factor: number;
  /** Seconds */
  step: number;
}

type Then = {
  rate?: { count: number; interval: number; algorithm: string };
  concurrency?: number;
  [key: string]: unknown;
};

/**
 * What replaces `lapsed` at `now`: the next step up toward its class's limits (or `scheduled`, the warm-up rate of the
 * grouping it limits, when higher), or undefined when there is none (it is at them already, recovery is off, it is a
 * suspension or a class no longer configured): then it is deleted
 */
export function recoveryStep(
  lapsed: AppliedPolicy,
  table: ReadonlyMap<string, ClassPolicy>,
  settings: RecoverySettings,
  now: number,
  scheduled?: Rate,
): AppliedPolicy | undefined {
  if (!settings.enabled || lapsed.kind !== 'policy') return undefined;
  const cls = (lapsed.reason as { class?: string } | undefined)?.class;
  const policy = cls === undefined ? undefined : table.get(cls);
  const then = lapsed.object.then as Then | undefined;
  if (!policy || !then) return undefined;
  const up = (value: number | undefined, ceiling: number | undefined) =>
    value === undefined || ceiling === undefined || value >= ceiling
      ? undefined
      : Math.min(ceiling, Math.max(value + 1, Math.floor(value * settings.factor)));
  const rate = then.rate;
  // The warm-up's rate over the policy's own interval: 20,000 a day is 13 a minute
  const warmup = rate && scheduled ? Math.floor((scheduled.count * rate.interval) / scheduled.interval) : undefined;
  const count = up(rate?.count, policy.rate && Math.max(policy.rate.count, warmup ?? 0));
  const concurrency = up(then.concurrency, policy.concurrency);
  if (count === undefined && concurrency === undefined) return undefined;
  const next: Then = {
    ...then,
    ...(count !== undefined ? { rate: { ...then.rate!, count } } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
  };
  return {
    ...lapsed,
    object: { ...lapsed.object, then: next, ttl: settings.step },
    expires: now + settings.step * 1000,
  };
}
