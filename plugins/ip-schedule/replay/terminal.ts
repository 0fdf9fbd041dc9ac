/** The terminal summary: totals, one line per provider (the busiest first), and the first decisions */
import type { ReplayReport } from './report.ts';

const PROVIDERS_SHOWN = 20;
const DECISIONS_SHOWN = 30;

const n = (value: number) => value.toLocaleString('en-US');
const pct = (part: number, whole: number) => (whole === 0 ? '-' : `${((part / whole) * 100).toFixed(1)}%`);

function top(counts: Record<string, number>, k: number): string {
  return Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([name, count]) => `${name} ${n(count)}`)
    .join(', ');
}

export function summary(report: ReplayReport): string {
  const out: string[] = [];
  const formats = [...new Set(report.inputs.map((i) => i.format ?? '-'))].join(', ');
  out.push(
    `Replayed ${n(report.lines)} lines (${formats}): ${n(report.attempts)} attempts, ${report.from ?? '-'} to ${report.to ?? '-'}`,
  );
  out.push(
    `Engine ${report.engine}; ${n(report.distinctReplies)} distinct failure replies classified${report.outOfOrder ? `; ${n(report.outOfOrder)} attempts logged out of time order` : ''}`,
  );
  out.push('');
  const rows = [['provider', 'attempts', 'sent', 'deferred', 'bounced', 'backoff classes (failures)', 'policies']];
  for (const p of report.providers.slice(0, PROVIDERS_SHOWN)) {
    const policies = Object.entries(p.decisions)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(', ');
    rows.push([
      p.provider,
      n(p.attempts),
      pct(p.outcomes.sent, p.attempts),
      pct(p.outcomes.deferred, p.attempts),
      pct(p.outcomes.bounced, p.attempts),
      top(p.backoff, 3) || '-',
      policies || '-',
    ]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const row of rows)
    out.push(
      row
        .map((cell, c) => (c === 0 || c >= 5 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join('  ')
        .trimEnd(),
    );
  if (report.providers.length > PROVIDERS_SHOWN)
    out.push(`… and ${n(report.providers.length - PROVIDERS_SHOWN)} more providers (--json or --html for all)`);
  out.push('');
  const listed = report.decisions.length + report.decisionsOmitted;
  out.push(
    listed === 0
      ? 'No policy would have fired.'
      : `Decisions: ${n(listed)} (${n(report.inForceAtEnd)} policies still in force at the end)`,
  );
  for (const d of report.decisions.slice(0, DECISIONS_SHOWN))
    out.push(`  ${d.time}  ${d.kind.padEnd(8)} ${d.provider} from ${d.localIp || '-'}: ${d.reason}`);
  if (listed > DECISIONS_SHOWN) out.push(`  … ${n(listed - DECISIONS_SHOWN)} more (--json or --html for all)`);
  if (report.warmup) {
    out.push('', 'Warm-up plan against actual (per hour: what the schedule allowed, what was sent):');
    for (const w of report.warmup) {
      const allowed = w.allowed === null ? 'no limit once finished' : `${n(w.allowed)} allowed`;
      out.push(
        `  ${w.ip} ${w.grouping} to ${w.provider ?? '(no provider: nothing counted)'}: ${n(w.sent)} sent, ${allowed}; ${w.hoursOver} hours over plan`,
      );
    }
  }
  return `${out.join('\n')}\n`;
}
