/**
 * Whole bounce emails per second on one core (`POST /v1/bounce-email` without its HTTP layer), on a mix of the
 * fixtures of `plugins/bounce-classifier/email/fixtures/`: every bounce carries its returned original message
 * (headers, a plain and an HTML body) grown to a seeded size between 5 and 20 KB, as real bounces do; the SES
 * notifications, feedback reports and automatic replies keep their own size. Figures, each in emails/s:
 * - BASELINE: postal-mime's `parse` of each whole email alone (the MIME library, as most bounce parsers use one);
 * - parse: `parseBounce` (skipping the bodies no report needs, postal-mime, the delivery-status and per-MTA readers);
 * - parse + classify, cache warm: also every failed and delayed recipient's BNAC and backoff classes through the
 *   result cache, as the HTTP handler does, with replies the cache holds (the common case: replies recur);
 * - parse + classify, no cache: the built-in model classifies every recipient of every email (inline on this
 *   thread, as it does for batches of one or two texts), the cost of replies never seen before.
 * The model runs on the main thread for batches this small, so the work is one core's. Each figure is given per second
 * of wall-clock time and per second of the process's CPU time: on a shared machine the first is what the process got,
 * the second what a core of its own would give. Read them as ranges.
 *
 * Run: `node --import tsx bench/bounce-email.bench.ts` (BENCH_SECONDS sets each measurement's length, default 3)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { ResultCache } from '../plugins/bounce-classifier/cache/result-cache.ts';
import { normaliserOf } from '../plugins/bounce-classifier/classify.ts';
import { classifyReports } from '../plugins/bounce-classifier/classify-email.ts';
import { parseBounce } from '../plugins/bounce-classifier/email/parse.ts';
import { createLogger } from '../runtime/observability/logger.ts';
import { usePlugin } from '../runtime/mod.ts';
import type { Classifier } from '../runtime/mod.ts';
import { Rng } from '../scripts/corpus/random.ts';

const SECONDS = Number(process.env.BENCH_SECONDS) || 3;
const FIXTURES = join(import.meta.dirname, '../plugins/bounce-classifier/email/fixtures');
const VARIANTS = 20;

const PARAGRAPH =
  'Thank you for your order. Your parcel leaves our warehouse today and should reach you within three working days. ';

/** A returned original message of about `size` bytes: headers, then a plain and an HTML alternative */
function original(size: number, n: number): string {
  const half = Math.max(0, Math.floor((size - 700) / 2));
  const plain = PARAGRAPH.repeat(Math.ceil(half / PARAGRAPH.length)).slice(0, half);
  const html = `<html><body><p>${plain.replace(/\. /g, '.</p><p>')}</p></body></html>`.slice(0, half);
  return [
    `Received: from app.example.org (app.example.org [192.0.2.17]) by mail.example.org with ESMTPS id Q${n}`,
    'From: Example Shop <shop@example.org>',
    'To: customer@example.net',
    `Subject: Your order ${n} is on its way`,
    `Message-ID: <order-${n}@example.org>`,
    'MIME-Version: 1.0',
    'Content-Type: multipart/alternative; boundary="alt-orig"',
    '',
    '--alt-orig',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    plain.replace(/(.{72})/g, '$1=\n'),
    '--alt-orig',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '--alt-orig--',
    '',
  ].join('\n');
}

/** The fixture with its original message grown to `size` bytes: a new last part, or quoted below the notice */
function grown(email: string, size: number, n: number): string {
  const boundary = /boundary="?([^";\s]+)"?/i.exec(email.slice(0, email.search(/\r?\n\r?\n/)))?.[1];
  const body = original(size - email.length, n);
  if (!boundary) return `${email}\n--- Below this line is a copy of the message.\n\n${body}`;
  const close = email.lastIndexOf(`--${boundary}--`);
  const part = `--${boundary}\nContent-Description: Undelivered Message\nContent-Type: message/rfc822\n\n${body}\n`;
  return close < 0 ? `${email}\n${part}--${boundary}--\n` : `${email.slice(0, close)}${part}${email.slice(close)}`;
}

const rng = new Rng(13);
const emails: Buffer[] = [];
for (const file of readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.eml'))
  .sort()) {
  const raw = readFileSync(join(FIXTURES, file), 'utf8');
  const report = await parseBounce(Buffer.from(raw));
  const keep = report.format === 'amazon-ses' || (report.kind !== 'failed' && report.kind !== 'delayed');
  for (let i = 0; i < VARIANTS; i++)
    emails.push(Buffer.from(keep ? raw : grown(raw, rng.int(5 * 1024, 20 * 1024), emails.length)));
}
rng.shuffle(emails);
const bytes = emails.reduce((n, e) => n + e.length, 0);
console.log(
  `${emails.length} emails (${readdirSync(FIXTURES).filter((f) => f.endsWith('.eml')).length} fixtures x ` +
    `${VARIANTS}), mean ${(bytes / emails.length / 1024).toFixed(1)} KB, ` +
    `${((emails.filter((e) => e.length >= 5 * 1024).length / emails.length) * 100).toFixed(0)}% of them 5-20 KB`,
);

/**
 * Emails per second of `run` over the mix, after one warm-up pass: per second of wall-clock time, and per second of
 * this process's CPU time (all its threads, GC included), which is what one core of its own would give on a machine
 * shared with other work
 */
async function rate(run: (email: Buffer) => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  for (const email of emails) await run(email);
  let done = 0;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  while (performance.now() - started < SECONDS * 1000) await run(emails[done++ % emails.length]!);
  const cpu = process.cpuUsage(cpuStart);
  return { wall: done / ((performance.now() - started) / 1000), cpu: done / ((cpu.user + cpu.system) / 1e6) };
}

const plugin = await usePlugin<Classifier>({ id: 'bounce-model' });
const folder = await mkdtemp(join(tmpdir(), 'capstan-bench-email-'));
const cache = await ResultCache.open(
  { enabled: true, folder, maxSize: 64 * 1024 * 1024 },
  { version: plugin.service.version, log: createLogger({ service: 'bench', level: 'error' }) },
);
const deps = { classifier: plugin.service, normalise: normaliserOf(plugin.service), cache };
try {
  const figures: [string, { wall: number; cpu: number }][] = [];
  figures.push(['BASELINE postal-mime parse alone', await rate((e) => PostalMime.parse(e))]);
  figures.push(['parse (parseBounce)', await rate((e) => parseBounce(e))]);
  figures.push([
    'parse + classify, cache warm',
    await rate(async (e) => classifyReports(deps, [await parseBounce(e)], { useCache: true })),
  ]);
  figures.push([
    'parse + classify, no cache',
    await rate(async (e) => classifyReports(deps, [await parseBounce(e)], { useCache: false })),
  ]);
  const base = figures[0]![1];
  console.log(`${''.padEnd(36)} ${'emails/s'.padStart(9)} ${'per CPU s'.padStart(10)}  vs baseline (CPU)`);
  for (const [name, { wall, cpu }] of figures) {
    console.log(
      `${name.padEnd(36)} ${String(Math.round(wall)).padStart(9)} ${String(Math.round(cpu)).padStart(10)}  ${(cpu / base.cpu).toFixed(2)} x`,
    );
  }
} finally {
  await cache.close();
  await plugin.close();
  await rm(folder, { recursive: true, force: true });
}
