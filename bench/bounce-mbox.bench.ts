/**
 * `capstan classify --email --json MBOX` on a large mbox, as a process: MB/s and its resident memory while it runs.
 * The mbox is written from the fixtures of `plugins/bounce-classifier/email/fixtures/`, each message carrying a
 * returned
 * original of 5-20 KB as real bounces do, up to BENCH_MBOX_MB megabytes (default 256; 1024 shows the 1 GB case).
 * BASELINE: a Node process that streams the same file in the same 1 MiB chunks and does nothing with them (the disk
 * and page cache's share). Memory is the child's VmRSS, sampled every 50 ms from /proc: flat memory shows as a peak
 * that does not grow with the file (run it with two sizes to see).
 *
 * Run: `node --import tsx bench/bounce-mbox.bench.ts` (Linux: reads /proc)
 */
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../scripts/corpus/random.ts';

const MB = 1024 * 1024;
const TARGET = (Number(process.env.BENCH_MBOX_MB) || 256) * MB;
const ROOT = join(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'plugins/bounce-classifier/email/fixtures');
const PARAGRAPH =
  'Thank you for your order. Your parcel leaves our warehouse today and should reach you within three working days.\n';

const rng = new Rng(7);
const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.eml'))
  .sort()
  .map((f) => readFileSync(join(FIXTURES, f), 'latin1').replace(/\r\n/g, '\n'));
const folder = await mkdtemp(join(tmpdir(), 'capstan-bench-mbox-'));
const mbox = join(folder, 'bounces.mbox');

/** Writes the mbox: fixtures in turn, each followed by a quoted original of 5-20 KB (lines starting `From ` quoted) */
async function writeMbox(): Promise<number> {
  const out = createWriteStream(mbox);
  let written = 0;
  let messages = 0;
  while (written < TARGET) {
    const email = fixtures[messages % fixtures.length]!;
    const size = rng.int(5 * 1024, 20 * 1024);
    const quoted = `\n--- Below this line is a copy of the message.\n\nSubject: Order ${messages}\n\n${PARAGRAPH.repeat(Math.ceil(size / PARAGRAPH.length))}`;
    const text = `From MAILER-DAEMON Thu Nov 26 10:00:00 2026\n${email.replace(/^From /gm, '>From ').trimEnd()}\n${quoted}\n`;
    written += Buffer.byteLength(text, 'latin1');
    messages++;
    if (!out.write(text, 'latin1')) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return messages;
}

/** Peak and last VmRSS of a process in MB, and its wall time, while `args` runs with stdout discarded */
async function run(args: string[]): Promise<{ seconds: number; peakMb: number; code: number | null; lines: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let lines = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) lines++;
  });
  let peak = 0;
  const sample = setInterval(async () => {
    const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kb / 1024);
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sample);
  return { seconds: (performance.now() - started) / 1000, peakMb: peak, code, lines };
}

try {
  const messages = await writeMbox();
  const size = (await stat(mbox)).size;
  console.log(`mbox of ${messages} messages, ${(size / MB).toFixed(0)} MB`);
  const read = `const s = require('node:fs').createReadStream(process.argv[1], { highWaterMark: ${MB} }); let n = 0; s.on('data', (c) => { n += c.length; });`;
  const baseline = await run(['-e', read, mbox]);
  const classify = await run([join(ROOT, 'runtime/cli/capstan.js'), 'classify', '--email', '--json', mbox]);
  if (classify.code !== 0) console.log(`classify exited ${classify.code}`);
  console.log(
    `${''.padEnd(40)} ${'MB/s'.padStart(8)} ${'emails/s'.padStart(9)} ${'peak RSS MB'.padStart(12)}  vs baseline`,
  );
  for (const [name, figure] of [
    ['BASELINE stream the file, 1 MiB chunks', baseline],
    ['classify --email --json (parse+classify)', classify],
  ] as const) {
    const rate = size / MB / figure.seconds;
    const emails = figure === classify ? String(Math.round(figure.lines / figure.seconds)) : '';
    console.log(
      `${name.padEnd(40)} ${rate.toFixed(1).padStart(8)} ${emails.padStart(9)} ${figure.peakMb.toFixed(0).padStart(12)}  ${(rate / (size / MB / baseline.seconds)).toFixed(3)} x`,
    );
  }
  console.log(`answers: ${classify.lines} of ${messages} messages`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
