/**
 * `--html FILE`: one self-contained page (uPlot's script and styles inlined from node_modules, the report's data
 * embedded) that an operator can mail to a colleague: per provider, the backoff class mix of failures over time; the
 * policies on a timeline (inline SVG); with `--schedules`, each warm-up's plan against what was sent per hour; the
 * provider table.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ReplayReport } from './report.ts';

const require = createRequire(import.meta.url);
const PROVIDERS_CHARTED = 8;
const POLICIES_DRAWN = 60;
const WARMUPS_CHARTED = 20;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Each policy's spans in force, from its decisions: applied or escalated until it expired, or the log's end */
function spans(
  report: ReplayReport,
): Array<{ id: string; provider: string; from: number; to: number; levels: number; reason: string }> {
  const open = new Map<
    string,
    { id: string; provider: string; from: number; to: number; levels: number; reason: string }
  >();
  const done = [];
  const end = report.to ? Date.parse(report.to) : 0;
  for (const d of report.decisions) {
    const time = Date.parse(d.time);
    const span = open.get(d.policyId);
    if (d.kind === 'apply' || d.kind === 'escalate') {
      if (span) span.levels++;
      else
        open.set(d.policyId, {
          id: d.policyId,
          provider: d.provider,
          from: time,
          to: end,
          levels: 1,
          reason: d.reason,
        });
    } else if ((d.kind === 'expire' || d.kind === 'lift') && span) {
      span.to = time;
      done.push(span);
      open.delete(d.policyId);
    }
  }
  return [...done, ...open.values()].sort((a, b) => a.from - b.from);
}

const DAY = 86_400_000;

/** A tick and date at each UTC midnight (each week's when the log spans more than a fortnight) */
function axis(start: number, end: number, x: (t: number) => string, height: number): string {
  const step = end - start > 14 * DAY ? 7 * DAY : DAY;
  const ticks = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) {
    ticks.push(
      `<line x1="${x(t)}" x2="${x(t)}" y1="0" y2="${height}" class="tick"/><text x="${x(t)}" y="${height + 12}">${new Date(t).toISOString().slice(0, 10)}</text>`,
    );
  }
  return ticks.join('');
}

function timeline(report: ReplayReport): string {
  const all = spans(report);
  if (all.length === 0 || !report.from || !report.to) return '<p>No policy would have fired.</p>';
  const shown = all.slice(0, POLICIES_DRAWN);
  const start = Date.parse(report.from);
  const span = Math.max(1, Date.parse(report.to) - start);
  const width = 1000;
  const row = 16;
  const x = (t: number) => (((t - start) / span) * width).toFixed(1);
  const bars = shown
    .map((s, i) => {
      const w = Math.max(2, Number(x(s.to)) - Number(x(s.from)));
      return (
        `<g><title>${escape(`${s.id}\n${new Date(s.from).toISOString()} to ${new Date(s.to).toISOString()}\n${s.levels} trigger(s); first: ${s.reason}`)}</title>` +
        `<rect x="${x(s.from)}" y="${i * row + 2}" width="${w.toFixed(1)}" height="${row - 4}" class="bar"/>` +
        `<text x="${Math.min(Number(x(s.from)) + w + 4, width - 300)}" y="${i * row + row - 4}">${escape(s.provider)} · ${escape(s.id.replace(/^backoff:/, ''))}</text></g>`
      );
    })
    .join('');
  const more = all.length > shown.length ? `<p>${all.length - shown.length} more policies in the JSON report.</p>` : '';
  const height = shown.length * row + 4;
  return `<svg viewBox="0 0 ${width} ${height + 16}" class="timeline">${axis(start, start + span, x, height)}${bars}</svg>${more}`;
}

function providerTable(report: ReplayReport): string {
  const rows = report.providers
    .slice(0, 200)
    .map((p) => {
      const classes = Object.entries(p.backoff)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([c, k]) => `${escape(c)} ${k}`)
        .join(', ');
      const decisions = Object.entries(p.decisions)
        .map(([kind, k]) => `${kind} ${k}`)
        .join(', ');
      return (
        `<tr><td>${escape(p.provider)}</td><td>${p.attempts}</td>` +
        `<td>${p.outcomes.sent}</td><td>${p.outcomes.deferred}</td><td>${p.outcomes.bounced}</td>` +
        `<td>${classes}</td><td>${decisions}</td></tr>`
      );
    })
    .join('');
  return `<table><tr><th>provider</th><th>attempts</th><th>sent</th><th>deferred</th><th>bounced</th><th>backoff classes</th><th>policies</th></tr>${rows}</table>`;
}

/** The page */
export function renderHtml(report: ReplayReport): string {
  const script = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
  const styles = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
  const charted = report.providers.slice(0, PROVIDERS_CHARTED).map((p) => ({ provider: p.provider, hours: p.hours }));
  // Inside <script>, "</" would end it: every "<" of the data is escaped
  const data = JSON.stringify(charted).replace(/</g, '\\u003c');
  const plans = JSON.stringify((report.warmup ?? []).slice(0, WARMUPS_CHARTED)).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>capstan replay ${escape(report.from ?? '')} to ${escape(report.to ?? '')}</title>
<style>${styles}
body{font:14px system-ui,sans-serif;margin:2em;color:#222}h2{margin-top:2em}table{border-collapse:collapse}
td,th{border-bottom:1px solid #ddd;padding:2px 8px;text-align:left}.timeline{width:100%;font:10px sans-serif}
.bar{fill:#c0392b;opacity:.7}.tick{stroke:#ddd}.chart{margin:1em 0}</style></head><body>
<h1>What Capstan would have done</h1>
<p>${report.lines} lines, ${report.attempts} attempts, ${escape(report.from ?? '-')} to ${escape(report.to ?? '-')}; engine ${escape(report.engine)};
${report.decisions.length + report.decisionsOmitted} decisions, ${report.inForceAtEnd} policies in force at the end.</p>
<h2>Policies on a timeline</h2>${timeline(report)}
<h2>Backoff classes of failures per hour, by provider</h2><div id="charts"></div>
${report.warmup ? '<h2>Warm-up plan against actual, per hour</h2><div id="warmup"></div>' : ''}
<h2>Providers</h2>${providerTable(report)}
<script>${script}</script>
<script>
const providers = ${data};
const palette = ['#2980b9','#c0392b','#27ae60','#8e44ad','#d35400','#16a085','#7f8c8d','#f39c12'];
for (const p of providers) {
  const totals = {};
  for (const h of p.hours) for (const [c, k] of Object.entries(h.backoff)) totals[c] = (totals[c] || 0) + k;
  const classes = Object.keys(totals).sort((a, b) => totals[b] - totals[a]).slice(0, palette.length - 1);
  const xs = p.hours.map((h) => Date.parse(h.hour) / 1000);
  const series = [{}, { label: 'sent', stroke: '#95a5a6', scale: 'sent' }].concat(classes.map((c, i) => ({ label: c, stroke: palette[i] })));
  const rows = [xs, p.hours.map((h) => h.outcomes.sent)].concat(classes.map((c) => p.hours.map((h) => h.backoff[c] || 0)));
  const box = document.createElement('div');
  box.className = 'chart';
  box.innerHTML = '<h3></h3>';
  box.firstChild.textContent = p.provider;
  document.getElementById('charts').appendChild(box);
  new uPlot({ width: Math.min(1100, innerWidth - 60), height: 220, series, axes: [{}, { label: 'failures' }, { scale: 'sent', side: 1, label: 'sent', grid: { show: false } }] }, rows, box);
}
const plans = ${plans};
for (const w of plans) {
  const box = document.createElement('div');
  box.className = 'chart';
  box.innerHTML = '<h3></h3>';
  box.firstChild.textContent = w.ip + ' ' + w.grouping + ' to ' + (w.provider || '?') + ': ' + w.sent + ' sent, ' + w.hoursOver + ' hours over plan';
  document.getElementById('warmup').appendChild(box);
  const xs = w.hours.map((h) => Date.parse(h.hour) / 1000);
  const series = [{}, { label: 'allowed', stroke: '#27ae60', fill: 'rgba(39,174,96,.12)' }, { label: 'sent', stroke: '#2980b9' }];
  new uPlot({ width: Math.min(1100, innerWidth - 60), height: 200, series, axes: [{}, { label: 'per hour' }] }, [xs, w.hours.map((h) => h.allowed), w.hours.map((h) => h.sent)], box);
}
</script></body></html>
`;
}
