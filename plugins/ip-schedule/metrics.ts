import type { PluginMetrics, ScheduleStore } from '../../runtime/mod.ts';
import { statusOn } from './schedule.ts';

const STATUSES = ['NOTSTARTED', 'ONSCHEDULE', 'PAUSED', 'FINISHED'] as const;
type Counts = Record<(typeof STATUSES)[number], number>;

/**
 * Declares `capstan_schedules{status}`: groupings by status, counted at scrape time from the store's list. Each IP's
 * counts are kept until its record changes (store version) or the day turns, so a scrape reads records only of
 * what changed
 */
export function scheduleMetrics(metrics: PluginMetrics, store: ScheduleStore, currentDay: () => number): void {
  let byIp = new Map<string, { version: number; day: number; counts: Counts }>();
  metrics.gauge({
    name: 'schedules',
    help: 'Groupings (warm-up schedules) by status: NOTSTARTED, ONSCHEDULE, PAUSED, FINISHED',
    labelNames: ['status'],
    async collect(gauge) {
      const day = currentDay();
      const totals: Counts = { NOTSTARTED: 0, ONSCHEDULE: 0, PAUSED: 0, FINISHED: 0 };
      const fresh = new Map<string, { version: number; day: number; counts: Counts }>();
      for (const stored of await store.list()) {
        let entry = byIp.get(stored.ip);
        if (entry?.version !== stored.version || entry.day !== day) {
          const counts: Counts = { NOTSTARTED: 0, ONSCHEDULE: 0, PAUSED: 0, FINISHED: 0 };
          for (const grouping of stored.record.groupings) counts[statusOn(grouping, day)]++;
          entry = { version: stored.version, day, counts };
        }
        fresh.set(stored.ip, entry);
        for (const status of STATUSES) totals[status] += entry.counts[status];
      }
      byIp = fresh;
      for (const status of STATUSES) gauge.set({ status }, totals[status]);
    },
  });
}
