/**
 * `capstan replay` as a process over a synthetic week (scripts/replay/synth-week.ts): the policies it reports are
 * checked against ones this test computes itself from the generator's known throttling episode and the documented
 * counting rule (threshold events within the window trigger; a trigger while in force escalates, TTL doubling up to
 * maxTtl; a lapsed policy steps its rate back up, doubling every step, then is deleted).
 */
import { writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { runCli, tempDir, writePlugin } from '../host/_fixtures.ts';
import { Providers } from '../../plugins/ip-schedule/backoff/providers.ts';
import { episode, SENDERS, synthWeek, WEEK_START } from '../../scripts/replay/synth-week.ts';

const dir = tempDir('capstan-replay-');
const POLICY = { threshold: 10, window: 60, ttl: 300, maxTtl: 1200 };
const config = join(dir, 'capstan.yaml');
// Share triggers off: the expected decisions below model the class's count trigger alone
const NO_SHARES = { reputation: { enabled: false }, rate_limit: { enabled: false }, authentication: { enabled: false }, content: { enabled: false } };
writeFileSync(config, `version: '6.10'\nplugins:\n  - id: ip-schedule\n    config:\n      backoff:\n        policies:\n          RATE_LIMIT__IP_RATE_LIMIT: ${JSON.stringify(POLICY)}\n        triggers: ${JSON.stringify(NO_SHARES)}\n`);

const week = (format: 'postfix' | 'exim') => [...synthWeek({ seed: 7, perHour: 40, format, iso: true })];

interface Expected {
  time: string;
  kind: string;
  localIp: string;
  provider: string;
  class: string;
}

/** Gradual recovery as the server's defaults have it: the rate doubles every 5 minutes back to the class's */
const RECOVERY = { factor: 2, stepMs: 300_000 };
/** The class's default rate (the spec's class table): 60 per 60 s */
const RATE = 60;

/**
 * The decisions the episode must bring, computed from its parameters alone: counted per window, applied, escalated
 * (rate halved, TTL doubled up to maxTtl) or extended when as far as it goes, then stepped back up once it lapses
 */
function expectedDecisions(localIp: string): Expected[] {
  const out: Expected[] = [];
  const base = { localIp, provider: new Providers().of(undefined, episode.provider), class: 'RATE_LIMIT__IP_RATE_LIMIT' };
  const ttlAt = (level: number) => Math.min(POLICY.ttl * 2 ** level, POLICY.maxTtl);
  const rateAt = (level: number) => Math.max(1, Math.floor(RATE / 2 ** level));
  let windowStart = -Infinity;
  let count = 0;
  let held: { level: number; expires: number; rate: number; ttl: number } | undefined;
  /** Lapses by `time` (inclusive): each a recovery step until the rate is the class's again, then deleted */
  const lapse = (time: number) => {
    while (held && held.expires <= time) {
      const at = new Date(held.expires).toISOString();
      if (held.rate >= RATE) {
        out.push({ ...base, time: at, kind: 'expire' });
        held = undefined;
      } else {
        held = { ...held, rate: Math.min(RATE, Math.max(held.rate + 1, Math.floor(held.rate * RECOVERY.factor))), ttl: RECOVERY.stepMs / 1000, expires: held.expires + RECOVERY.stepMs };
        out.push({ ...base, time: at, kind: 'recover' });
      }
    }
  };
  for (let time = episode.start; time < episode.start + episode.durationMs; time += episode.everyMs) {
    lapse(time);
    if (time - windowStart >= POLICY.window * 1000) [windowStart, count] = [time, 0];
    if (++count < POLICY.threshold) continue;
    [windowStart, count] = [time, 0];
    let level = held ? held.level + 1 : 0;
    if (held && rateAt(level) === held.rate && ttlAt(level) === held.ttl) {
      // Escalated as far as it goes: only extended, once less than half its TTL is left
      if (held.expires - time > (ttlAt(level) * 1000) / 2) continue;
      level = held.level;
    }
    held = { level, expires: time + ttlAt(level) * 1000, rate: rateAt(level), ttl: ttlAt(level) };
    out.push({ ...base, time: new Date(time).toISOString(), kind: level === 0 ? 'apply' : 'escalate' });
  }
  lapse(Infinity);
  return out;
}

const pick = (decisions: Array<Record<string, unknown>>) => decisions.map(({ time, kind, localIp, provider, class: cls }) => ({ time, kind, localIp, provider, class: cls }));

test.after(() => rm(dir, { recursive: true, force: true }));

test('a Postfix week split in a rotated set (one part gzip, given in any order) brings the episode\'s policies, and only those', async () => {
  const lines = week('postfix');
  const half = Math.floor(lines.length / 2);
  writeFileSync(join(dir, 'maillog.1.gz'), gzipSync(`${lines.slice(0, half).join('\n')}\n`));
  writeFileSync(join(dir, 'maillog'), `${lines.slice(half).join('\n')}\n`);
  const run = await runCli(['replay', '--config', config, '--json', '--html', join(dir, 'report.html'), join(dir, 'maillog'), join(dir, 'maillog.1.gz')]);
  assert.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const expected = expectedDecisions(SENDERS.postfix[0]);
  assert.ok(expected.length > 5, 'the episode escalates, then is extended');
  assert.equal(pick(report.decisions), expected);
  assert.equal([report.lines, report.attempts, report.outOfOrder], [lines.length, lines.length, 0]);
  assert.equal(report.inputs.map((i: { format: string }) => i.format), ['postfix', 'postfix']);
  assert.is(report.from, new Date(WEEK_START).toISOString());
  const gmail = report.providers.find((p: { provider: string }) => p.provider === new Providers().of(undefined, episode.provider));
  assert.is(gmail.backoff.RATE_LIMIT__IP_RATE_LIMIT, episode.durationMs / episode.everyMs);
  const steps = expected.filter((d) => d.kind === 'recover').length;
  assert.ok(steps >= 2, 'an escalated policy steps back up');
  assert.equal(gmail.decisions, { apply: 1, escalate: expected.length - 2 - steps, recover: steps, expire: 1 });
  assert.is(report.inForceAtEnd, 0);
});

test('the same week as Exim\'s main log on stdin gives the same policies, scoped by the I= address', async () => {
  const run = await runCli(['replay', '--config', config, '--json', '-'], `${week('exim').join('\n')}\n`);
  assert.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  assert.equal(report.inputs[0].format, 'exim');
  assert.equal(pick(report.decisions), expectedDecisions(SENDERS.exim[0]));
});

test('the HTML report is one page with uPlot inlined, the timeline and charts; --from/--to leave the episode out', async () => {
  const { readFileSync } = await import('node:fs');
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.match(html, /^<!doctype html>/);
  assert.match(html, 'uPlot');
  assert.match(html, '<svg viewBox');
  assert.match(html, 'google · RATE_LIMIT__IP_RATE_LIMIT?localip=mx1%2Fpostfix-out1');
  assert.not.match(html, /<(script|link)[^>]+(src|href)=/, 'nothing fetched from elsewhere');
  const after = new Date(episode.start + episode.durationMs + 3_600_000).toISOString();
  const run = await runCli(['replay', '--config', config, '--from', after, '--to', '2025-03-17', join(dir, 'maillog')]);
  assert.is(run.code, 0, run.stderr);
  assert.match(run.stdout, /No policy would have fired\./);
  assert.match(run.stdout, /google\s+[\d,]+/);
});

test('the classifier is the one the document gives bounce-classifier: a classifier plugin of your own, its config from a file', async () => {
  // Every reply is a rate limit (and BLOCKED) to this classifier, whatever it says: the week's ordinary failures too
  const folder = writePlugin(dir, 'all-throttled', {
    'mod.ts': `import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: 'all-throttled', kind: 'classifier', apiVersion: '^1.2.0', description: 'test', config: Type.Object({ label: Type.String() }),
  setup: (ctx) => ({ service: { version: 't1', classify: async (model: string, texts: string[]) => texts.map(() => ({ label: model === 'backoff' ? ctx.config.label : 'BLOCKED', probability: 1 })) } }),
});
`,
  });
  writeFileSync(join(dir, 'all-throttled.yaml'), 'label: RATE_LIMIT__IP_RATE_LIMIT\n');
  const custom = join(dir, 'custom.yaml');
  writeFileSync(custom, `version: '6.10'\nplugins:\n  - id: all-throttled\n    path: ${JSON.stringify(folder)}\n    config: all-throttled.yaml\n  - id: bounce-classifier\n    config: { classifier: all-throttled }\n  - id: ip-schedule\n    config:\n      backoff:\n        policies:\n          RATE_LIMIT__IP_RATE_LIMIT: ${JSON.stringify(POLICY)}\n        triggers: ${JSON.stringify(NO_SHARES)}\n`);
  const run = await runCli(['replay', '--config', custom, '--json', '-'], `${week('exim').join('\n')}\n`);
  assert.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const failures = report.providers.reduce((sum: number, p: { outcomes: { deferred: number; bounced: number } }) => sum + p.outcomes.deferred + p.outcomes.bounced, 0);
  const throttled = report.providers.reduce((sum: number, p: { backoff: Record<string, number> }) => sum + (p.backoff.RATE_LIMIT__IP_RATE_LIMIT ?? 0), 0);
  assert.equal([throttled, Object.keys(report.providers[0].bnac)], [failures, ['BLOCKED']]);
});

test('usage errors end with 2 and the usage; an unreadable log with 1 and its name', async () => {
  const usage = await runCli(['replay', '--format', 'sendmail', 'x.log']);
  assert.is(usage.code, 2);
  assert.match(usage.stderr, 'unknown format "sendmail"');
  assert.match(usage.stderr, 'Usage: capstan replay');
  const missing = await runCli(['replay', join(dir, 'absent.log')]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, 'absent.log');
  const unknown = join(dir, 'notes.txt');
  writeFileSync(unknown, 'just some notes\n');
  const undetected = await runCli(['replay', unknown]);
  assert.is(undetected.code, 1);
  assert.match(undetected.stderr, `Cannot tell the format of "${unknown}" from its first lines: give --format`);
});

test.run();
