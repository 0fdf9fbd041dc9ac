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
import { usePlugin, type ReplyClassifier } from '../../runtime/mod.ts';
import { Providers } from '../../plugins/ip-schedule/backoff/providers.ts';
import { episode, SENDERS, synthWeek, WEEK_START } from '../../scripts/replay/synth-week.ts';

const dir = tempDir('capstan-replay-');
const POLICY = { threshold: 10, window: 60, ttl: 300, maxTtl: 1200 };
const config = join(dir, 'capstan.yaml');
// Share triggers off: the expected decisions below model the class's count trigger alone
const NO_SHARES = {
  reputation: { enabled: false },
  rate_limit: { enabled: false },
  authentication: { enabled: false },
  content: { enabled: false },
};
/** The ip-schedule entry of a startup document: POLICY for the class, no share triggers */
const IP_SCHEDULE_ENTRY =
  '  - id: ip-schedule\n' +
  '    config:\n' +
  '      backoff:\n' +
  '        policies:\n' +
  `          RATE_LIMIT__IP_RATE_LIMIT: ${JSON.stringify(POLICY)}\n` +
  `        triggers: ${JSON.stringify(NO_SHARES)}\n`;
writeFileSync(config, `version: '6.10'\nplugins:\n${IP_SCHEDULE_ENTRY}`);

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
  const base = {
    localIp,
    provider: new Providers().of(undefined, episode.provider),
    class: 'RATE_LIMIT__IP_RATE_LIMIT',
  };
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
        held = {
          ...held,
          rate: Math.min(RATE, Math.max(held.rate + 1, Math.floor(held.rate * RECOVERY.factor))),
          ttl: RECOVERY.stepMs / 1000,
          expires: held.expires + RECOVERY.stepMs,
        };
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

const pick = (decisions: Array<Record<string, unknown>>) =>
  decisions.map(({ time, kind, localIp, provider, class: cls }) => ({ time, kind, localIp, provider, class: cls }));

test.after(() => rm(dir, { recursive: true, force: true }));

test("a Postfix week split in a rotated set (one part gzip, given in any order) brings the episode's policies, and only those", async () => {
  const lines = week('postfix');
  const half = Math.floor(lines.length / 2);
  writeFileSync(join(dir, 'maillog.1.gz'), gzipSync(`${lines.slice(0, half).join('\n')}\n`));
  writeFileSync(join(dir, 'maillog'), `${lines.slice(half).join('\n')}\n`);
  const run = await runCli([
    'replay',
    '--config',
    config,
    '--json',
    '--html',
    join(dir, 'report.html'),
    join(dir, 'maillog'),
    join(dir, 'maillog.1.gz'),
  ]);
  assert.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const expected = expectedDecisions(SENDERS.postfix[0]);
  assert.ok(expected.length > 5, 'the episode escalates, then is extended');
  assert.equal(pick(report.decisions), expected);
  assert.equal([report.lines, report.attempts, report.outOfOrder], [lines.length, lines.length, 0]);
  assert.equal(
    report.inputs.map((i: { format: string }) => i.format),
    ['postfix', 'postfix'],
  );
  assert.is(report.from, new Date(WEEK_START).toISOString());
  const gmail = report.providers.find(
    (p: { provider: string }) => p.provider === new Providers().of(undefined, episode.provider),
  );
  assert.is(gmail.backoff.RATE_LIMIT__IP_RATE_LIMIT, episode.durationMs / episode.everyMs);
  const steps = expected.filter((d) => d.kind === 'recover').length;
  assert.ok(steps >= 2, 'an escalated policy steps back up');
  assert.equal(gmail.decisions, { apply: 1, escalate: expected.length - 2 - steps, recover: steps, expire: 1 });
  assert.is(report.inForceAtEnd, 0);

  // Each policy applied says what decided its class, as the server's engine stores it: here the classifier's rule
  const classifier = await usePlugin<ReplyClassifier>({ id: 'bounce-classifier' });
  let rule;
  try {
    rule = classifier.service.explainReply!('backoff', episode.reply)?.rule;
  } finally {
    await classifier.close();
  }
  assert.type(rule, 'string');
  const decisions: { kind: string; reason: string; decidedBy?: unknown }[] = report.decisions;
  const fired = decisions.filter((d) => d.kind === 'apply' || d.kind === 'escalate');
  assert.equal(
    fired.map((d) => d.decidedBy),
    fired.map(() => ({ rule })),
  );
  for (const d of fired) assert.match(d.reason, `; class from rule "${rule}"; `);
  // A step back up or an expiry decides no class
  assert.ok(decisions.every((d) => fired.includes(d) || d.decidedBy === undefined));
});

test("the same week as Exim's main log on stdin gives the same policies, scoped by the I= address", async () => {
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

test("--schedules: each grouping's plan per hour against what was sent, counted here from the log lines", async () => {
  const lines = week('exim');
  const schedules = join(dir, 'schedules.json');
  // The JSON of GET /config: a MANUAL &gmail warm-up of the first sender, 240 on 11 March, 24 on the 12th
  writeFileSync(
    schedules,
    JSON.stringify({
      ips: {
        [SENDERS.exim[0]]: {
          groupings: [
            {
              grouping: '&gmail',
              mode: 'MANUAL',
              start: { date: '2025-03-11' },
              schedule: [
                { day: 1, messages: 240 },
                { day: 2, messages: 24 },
              ],
              interval: 86400,
              algorithm: 'TOKENBUCKET',
              paused: false,
              properties: null,
            },
          ],
        },
      },
    }),
  );
  const run = await runCli(
    ['replay', '--config', config, '--schedules', schedules, '--json', '-'],
    `${lines.join('\n')}\n`,
  );
  assert.is(run.code, 0, run.stderr);
  const [plan, ...others] = JSON.parse(run.stdout).warmup;
  assert.equal(others, []);
  // Sent from the first sender to gmail.com, per hour: the Exim "=>" lines themselves
  const sent = new Map<string, number>();
  for (const line of lines) {
    if (!line.includes(' => ') || !line.includes(`I=[${SENDERS.exim[0]}]`) || !/@gmail\.com /.test(line)) continue;
    const hour = `${line.slice(0, 10)}T${line.slice(11, 13)}:00:00.000Z`;
    sent.set(hour, (sent.get(hour) ?? 0) + 1);
  }
  const allowedOn = (day: string) =>
    day < '2025-03-11' ? 0 : day === '2025-03-11' ? 10 : day === '2025-03-12' ? 1 : null;
  const expected = plan.hours.map((h: { hour: string }) => ({
    hour: h.hour,
    allowed: allowedOn(h.hour.slice(0, 10)),
    sent: sent.get(h.hour) ?? 0,
  }));
  assert.is(plan.hours.length, 7 * 24);
  assert.equal(
    plan.hours.map(({ hour, allowed, sent: count }: { hour: string; allowed: number | null; sent: number }) => ({
      hour,
      allowed,
      sent: count,
    })),
    expected,
  );
  assert.equal(
    [plan.grouping, plan.provider, plan.sent, plan.allowed],
    ['&gmail', 'google', [...sent.values()].reduce((a, b) => a + b, 0), null],
  );
  assert.is(
    plan.hoursOver,
    expected.filter((h: { allowed: number | null; sent: number }) => h.allowed !== null && h.sent > h.allowed).length,
  );
  assert.ok(plan.hoursOver > 24, 'the first day sent with nothing allowed');
  const text = await runCli(
    ['replay', '--config', config, '--schedules', schedules, '--html', join(dir, 'plan.html'), '-'],
    `${lines.join('\n')}\n`,
  );
  assert.match(
    text.stdout,
    `${SENDERS.exim[0]} &gmail to google: ${plan.sent} sent, no limit once finished; ${plan.hoursOver} hours over plan`,
  );
  assert.match((await import('node:fs')).readFileSync(join(dir, 'plan.html'), 'utf8'), 'Warm-up plan against actual');
});

test('the classifier is the one the document gives bounce-classifier: a classifier plugin of your own, its config from a file', async () => {
  // Every reply is a rate limit (and BLOCKED) to this classifier, whatever it says: the week's ordinary failures too
  const folder = writePlugin(dir, 'all-throttled', {
    'mod.ts':
      `import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: 'all-throttled', kind: 'classifier', apiVersion: '^1.2.0', description: 'test', config: Type.Object({ label: Type.String() }),
  setup: (ctx) => ({ service: { version: 't1', classify: async (model: string, texts: string[]) =>` +
      ` texts.map(() => ({ label: model === 'backoff' ? ctx.config.label : 'BLOCKED', probability: 1 })) } }),
});
`,
  });
  writeFileSync(join(dir, 'all-throttled.yaml'), 'label: RATE_LIMIT__IP_RATE_LIMIT\n');
  const custom = join(dir, 'custom.yaml');
  writeFileSync(
    custom,
    "version: '6.10'\n" +
      'plugins:\n' +
      '  - id: all-throttled\n' +
      `    path: ${JSON.stringify(folder)}\n` +
      '    config: all-throttled.yaml\n' +
      '  - id: bounce-classifier\n' +
      '    config: { classifier: all-throttled }\n' +
      IP_SCHEDULE_ENTRY,
  );
  const run = await runCli(['replay', '--config', custom, '--json', '-'], `${week('exim').join('\n')}\n`);
  assert.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const failures = report.providers.reduce(
    (sum: number, p: { outcomes: { deferred: number; bounced: number } }) =>
      sum + p.outcomes.deferred + p.outcomes.bounced,
    0,
  );
  const throttled = report.providers.reduce(
    (sum: number, p: { backoff: Record<string, number> }) => sum + (p.backoff.RATE_LIMIT__IP_RATE_LIMIT ?? 0),
    0,
  );
  assert.equal([throttled, Object.keys(report.providers[0].bnac)], [failures, ['BLOCKED']]);
  // It cannot explain its classes: no decision says what decided one
  assert.ok(report.decisions.length > 0, 'its throttling fires policies');
  for (const d of report.decisions) assert.not.ok('decidedBy' in d || d.reason.includes('class from'), d.reason);
});

test('an adaptive warm-up is held and stepped back on the reputation share, with reasons; the plan follows the holds', async () => {
  // Every failure (a tenth of the steady traffic) a block to this classifier: a reputation share well over stepBack
  const folder = join(dir, 'all-throttled');
  writeFileSync(join(dir, 'blocked.yaml'), 'label: INFRASTRUCTURE_BLOCK\n');
  const blocked = join(dir, 'blocked-doc.yaml');
  writeFileSync(
    blocked,
    "version: '6.10'\n" +
      'plugins:\n' +
      '  - id: all-throttled\n' +
      `    path: ${JSON.stringify(folder)}\n` +
      '    config: blocked.yaml\n' +
      '  - id: bounce-classifier\n' +
      '    config: { classifier: all-throttled }\n' +
      '  - id: ip-schedule\n',
  );
  const ramp = {
    grouping: '&gmail',
    mode: 'AUTO',
    start: { date: '2025-03-08', volume: 1000 },
    end: { date: '2025-03-30', volume: 100000 },
  };
  const schedules = join(dir, 'adaptive.json');
  // The same ramp twice: adaptive from the first sender, plain (never held) from the second
  writeFileSync(
    schedules,
    JSON.stringify({
      ips: {
        [SENDERS.exim[0]]: { groupings: [{ ...ramp, adaptive: { minAttempts: 20 } }] },
        [SENDERS.exim[1]]: { groupings: [ramp] },
      },
    }),
  );
  const lines = [...synthWeek({ seed: 7, perHour: 2000, format: 'exim' })];
  const run = await runCli(
    ['replay', '--config', blocked, '--schedules', schedules, '--json', '-'],
    `${lines.join('\n')}\n`,
  );
  assert.is(run.code, 0, run.stderr);
  const report = JSON.parse(run.stdout);
  const holds = report.decisions.filter((d: { kind: string }) => d.kind === 'hold');
  assert.ok(holds.length > 1, 'held, then stepped back again after its window');
  assert.equal([...new Set(holds.map((d: { policyId: string }) => d.policyId))], [`warmup:${SENDERS.exim[0]}:&gmail`]);
  assert.match(
    holds[0].reason,
    /^google reputation \d+(\.\d)?% of \d+ attempts in 900s \(step back >= 5%\): held at day 2$/,
  );
  const [adaptive, plain] = report.warmup;
  assert.equal([adaptive.ip, plain.ip], [SENDERS.exim[0], SENDERS.exim[1]]);
  const firstHold = Date.parse(holds[0].time);
  adaptive.hours.forEach((h: { hour: string; allowed: number }, i: number) => {
    const unheld = plain.hours[i].allowed;
    if (Date.parse(h.hour) < firstHold) assert.is(h.allowed, unheld, `${h.hour}: as planned before the first hold`);
    else assert.ok(h.allowed < unheld, `${h.hour}: held below the plan's ${unheld}, at ${h.allowed}`);
  });
});

test('usage errors (swapped --from and --to too) end with 2 and the usage; an unreadable log with 1 and its name', async () => {
  const usage = await runCli(['replay', '--format', 'sendmail', 'x.log']);
  assert.is(usage.code, 2);
  assert.match(usage.stderr, 'unknown format "sendmail"');
  assert.match(usage.stderr, 'Usage: capstan replay');
  const swapped = await runCli(['replay', '--from', '2025-03-12', '--to', '2025-03-11', 'x.log']);
  assert.is(swapped.code, 2);
  assert.match(swapped.stderr, '--from "2025-03-12" is not before --to "2025-03-11": nothing would be replayed');
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
