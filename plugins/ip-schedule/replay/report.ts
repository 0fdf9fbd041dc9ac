/**
 * What a replay found, built as attempts stream past: counts per provider and per hour, and the decisions. Memory
 * follows the number of providers and hours, not of lines. `ReplayReport` is the `--json` output (docs/replay.md
 * documents it; `REPORT_VERSION` changes when a field changes meaning or goes).
 */
import { detach, type FormatName, type Outcome } from './attempt.ts';
import type { ClassifiedAttempt, Decision, DecisionKind } from './simulate.ts';
import type { WarmupReport } from './warmup-plan.ts';

export const REPORT_VERSION = 1;
/** Decisions listed at most; past it they are counted (per provider and kind) but not listed */
export const MAX_DECISIONS = 10_000;
const HOUR = 3_600_000;

type Counts = Record<string, number>;

export interface ProviderReport {
  provider: string;
  attempts: number;
  outcomes: Record<Outcome, number>;
  /** BNAC and backoff classes of the failed attempts (deferred and bounced) */
  bnac: Counts;
  backoff: Counts;
  /** Decisions about this provider, by kind */
  decisions: Partial<Record<DecisionKind, number>>;
  /** Per hour with attempts: its start (ISO 8601), outcomes, and the backoff classes of its failures */
  hours: Array<{ hour: string; outcomes: Record<Outcome, number>; backoff: Counts }>;
}

export interface ReplayReport {
  version: number;
  engine: string;
  inputs: Array<{ name: string; format: FormatName | null; lines: number; attempts: number }>;
  /** Time of the first and last attempt replayed (ISO 8601), null when none was */
  from: string | null;
  to: string | null;
  lines: number;
  attempts: number;
  /** Attempts logged before one already replayed (several files of one period, clocks apart): replayed at that later time */
  outOfOrder: number;
  /** Distinct replies the classifier was asked about */
  distinctReplies: number;
  /** Providers by attempts, most first */
  providers: ProviderReport[];
  /** Decisions in time order, times ISO 8601, at most MAX_DECISIONS */
  decisions: Array<Omit<Decision, 'time'> & { time: string }>;
  decisionsOmitted: number;
  /** Policies still in force when the log ended */
  inForceAtEnd: number;
  /** Sent attempts per local IP and UTC day: what went out, to set against a warm-up schedule's plan */
  sentPerIpDay: Record<string, Record<string, number>>;
  /** With `--schedules`: each grouping's plan per hour against what was sent */
  warmup?: WarmupReport[];
}

const noOutcomes = (): Record<Outcome, number> => ({ sent: 0, deferred: 0, bounced: 0 });

interface ProviderState {
  attempts: number;
  outcomes: Record<Outcome, number>;
  bnac: Counts;
  backoff: Counts;
  decisions: Partial<Record<DecisionKind, number>>;
  hours: Map<number, { outcomes: Record<Outcome, number>; backoff: Counts }>;
}

export class ReportBuilder {
  readonly #providers = new Map<string, ProviderState>();
  readonly #decisions: Decision[] = [];
  /** Sent attempts per local IP and day number since the epoch (named at build: a date string per line costs) */
  readonly #sent = new Map<string, Map<number, number>>();
  readonly #active = new Set<string>();
  #omitted = 0;
  #first = Infinity;
  #last = -Infinity;
  attempts = 0;

  #provider(name: string): ProviderState {
    let state = this.#providers.get(name);
    if (!state)
      this.#providers.set(
        detach(name),
        (state = { attempts: 0, outcomes: noOutcomes(), bnac: {}, backoff: {}, decisions: {}, hours: new Map() }),
      );
    return state;
  }

  add(attempt: ClassifiedAttempt): void {
    this.attempts++;
    if (attempt.time < this.#first) this.#first = attempt.time;
    if (attempt.time > this.#last) this.#last = attempt.time;
    const state = this.#provider(attempt.provider);
    state.attempts++;
    state.outcomes[attempt.outcome]++;
    const hourStart = attempt.time - (attempt.time % HOUR);
    let hour = state.hours.get(hourStart);
    if (!hour) state.hours.set(hourStart, (hour = { outcomes: noOutcomes(), backoff: {} }));
    hour.outcomes[attempt.outcome]++;
    if (attempt.outcome === 'sent') {
      const day = Math.floor(attempt.time / 86_400_000);
      let days = this.#sent.get(attempt.localIp);
      if (!days) this.#sent.set(detach(attempt.localIp), (days = new Map()));
      days.set(day, (days.get(day) ?? 0) + 1);
    }
    if (attempt.bnac) state.bnac[attempt.bnac] = (state.bnac[attempt.bnac] ?? 0) + 1;
    if (attempt.backoff) {
      state.backoff[attempt.backoff] = (state.backoff[attempt.backoff] ?? 0) + 1;
      hour.backoff[attempt.backoff] = (hour.backoff[attempt.backoff] ?? 0) + 1;
    }
  }

  decide(decisions: readonly Decision[]): void {
    for (const decision of decisions) {
      const counts = this.#provider(decision.provider).decisions;
      counts[decision.kind] = (counts[decision.kind] ?? 0) + 1;
      if (decision.kind === 'expire' || decision.kind === 'lift') this.#active.delete(decision.policyId);
      else if (decision.kind === 'apply' || decision.kind === 'escalate' || decision.kind === 'recover')
        this.#active.add(decision.policyId);
      if (this.#decisions.length < MAX_DECISIONS) this.#decisions.push(decision);
      else this.#omitted++;
    }
  }

  build(meta: Pick<ReplayReport, 'engine' | 'inputs' | 'outOfOrder' | 'distinctReplies'>): ReplayReport {
    const iso = (ms: number) => new Date(ms).toISOString();
    const providers = [...this.#providers]
      .map(([provider, s]): ProviderReport => ({
        provider,
        attempts: s.attempts,
        outcomes: s.outcomes,
        bnac: s.bnac,
        backoff: s.backoff,
        decisions: s.decisions,
        hours: [...s.hours].sort((a, b) => a[0] - b[0]).map(([start, h]) => ({ hour: iso(start), ...h })),
      }))
      .sort((a, b) => b.attempts - a.attempts || a.provider.localeCompare(b.provider));
    return {
      version: REPORT_VERSION,
      engine: meta.engine,
      inputs: meta.inputs,
      from: this.attempts === 0 ? null : iso(this.#first),
      to: this.attempts === 0 ? null : iso(this.#last),
      lines: meta.inputs.reduce((sum, input) => sum + input.lines, 0),
      attempts: this.attempts,
      outOfOrder: meta.outOfOrder,
      distinctReplies: meta.distinctReplies,
      providers,
      decisions: this.#decisions.map((d) => ({ ...d, time: iso(d.time) })),
      decisionsOmitted: this.#omitted,
      inForceAtEnd: this.#active.size,
      sentPerIpDay: Object.fromEntries(
        [...this.#sent].map(([ip, days]) => [
          ip,
          Object.fromEntries(
            [...days].sort((a, b) => a[0] - b[0]).map(([day, count]) => [iso(day * 86_400_000).slice(0, 10), count]),
          ),
        ]),
      ),
    };
  }
}
