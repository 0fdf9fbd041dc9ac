/**
 * The README's screenshot of `capstan replay --html` (docs/images/replay-report.png): a synthetic week from the seeded
 * generator, replayed by the CLI as a process with a policy table that makes its throttling episode fire, the page
 * opened in headless Chromium (Debian's `chromium`, driven by playwright-core, which downloads no browser) and its top
 * captured. Run again after a change of the report's look.
 *
 * Run: `npx tsx scripts/replay/screenshot.ts [--out FILE] [--chromium PATH]`
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { synthWeek } from './synth-week.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join(ROOT, 'docs/images/replay-report.png') },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});

const dir = await mkdtemp(join(tmpdir(), 'capstan-screenshot-'));
try {
  const log = join(dir, 'maillog');
  await writeFile(log, `${[...synthWeek({ seed: 7, perHour: 120, format: 'postfix', iso: true })].join('\n')}\n`);
  // The replay test's table: the episode applies, escalates and steps back up
  const config = join(dir, 'capstan.yaml');
  await writeFile(
    config,
    `version: '6.10'\nplugins:\n  - id: ip-schedule\n    config:\n      backoff:\n        policies:\n          RATE_LIMIT__IP_RATE_LIMIT: { threshold: 10, window: 60, ttl: 300, maxTtl: 1200 }\n`,
  );
  const html = join(dir, 'report.html');
  await promisify(execFile)(process.execPath, [
    join(ROOT, 'runtime/cli/capstan.js'),
    'replay',
    '--config',
    config,
    '--html',
    html,
    log,
  ]);
  const browser = await chromium.launch({ executablePath: values.chromium });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`file://${html}`);
    await page.waitForSelector('.uplot');
    await page.screenshot({ path: values.out });
  } finally {
    await browser.close();
  }
  console.log(`wrote ${values.out}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
