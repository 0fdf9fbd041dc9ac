/**
 * The holds in force, from the overview to the warm-up page, in headless Chromium: an adaptive grouping held by a
 * provider's block-list replies shows on the overview's Held count, whose link opens the warm-up page filtered to the
 * held rows (`?q=held`), each marked held with its reason
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost, type Host } from '../../runtime/mod.ts';
import { test as deadlineTest } from '../_deadline.ts';
import { document, tempDir } from '../host/_fixtures.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const KEY = 'holds-test-key';
const present = existsSync(CHROMIUM);
const it = present ? deadlineTest : deadlineTest.skip;
if (!present)
  console.log(
    `Browser tests skipped: no Chromium at "${CHROMIUM}" (.ci/run installs Debian's "chromium"; CHROMIUM_PATH names another)`,
  );

/** A block list naming the IP: INFRASTRUCTURE_BLOCK, in the reputation group */
const LISTED = '550 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

let browser: Browser;
let host: Host;
let base: string;
const pageErrors: string[] = [];

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, json: await r.json() }));

deadlineTest.before(async () => {
  if (!present) return;
  host = await startHost(
    document([{ id: 'ip-schedule' }, { id: 'bounce-classifier', config: { cache: { enabled: false } } }, { id: 'ui' }]),
    {
      baseDir: tempDir(),
      ephemeralPorts: true,
      env: { API_KEY: KEY },
      log: createLogger({ service: 'test', write: () => {} }),
    },
  );
  base = host.urls[0]!;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const ramp = (grouping: string, extra: object = {}) => ({
    grouping,
    mode: 'AUTO',
    start: { date: day(-4), volume: 100 },
    end: { date: day(25), volume: 50_000 },
    ...extra,
  });
  for (const ip of ['192.0.2.1', '192.0.2.2']) {
    const adaptive = { adaptive: { hold: 0.02, stepBack: 0.5, minAttempts: 100 } };
    const written = await call('POST', `/config/${ip}`, { groupings: [ramp('&gmail', adaptive), ramp('&plain')] });
    assert.is(written.status, 200, JSON.stringify(written.json));
  }
  // 5 listings of 200 attempts from 192.0.2.1 to Google: 2.5 %, over the hold of 2 %; 192.0.2.2 sends cleanly
  const gmail = { localip: '192.0.2.1', remotemx: 'gmail-smtp-in.l.google.com', grouping: '&gmail' };
  const events = [
    ...Array.from({ length: 195 }, () => ({ ...gmail, outcome: 'delivered' })),
    ...Array.from({ length: 5 }, () => ({ ...gmail, message: LISTED })),
    ...Array.from({ length: 200 }, () => ({ ...gmail, localip: '192.0.2.2', outcome: 'delivered' })),
  ];
  assert.is((await call('POST', '/v1/backoff/events', { events })).status, 200);
});

deadlineTest.after(async () => {
  await browser?.close();
  await host?.close();
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
  await page.goto(`${base}${path}`);
  await page.evaluate((key) => sessionStorage.setItem('capstan.apiKey', key), KEY);
  await page.reload();
  return page;
}

it('the overview links its Held count to the warm-up rows held, each marked with its reason', async () => {
  const page = await open('/ui/');
  const held = page.locator('.stat[data-count="held"]');
  await page.waitForSelector('.stat[data-count="held"] .value:has-text("1")');
  await held.locator('a:has-text("Held")').click();
  await page.waitForURL(/\/ui\/warmup\.html\?q=held$/);
  await page.waitForSelector('#rows tr[data-ip="192.0.2.1"][data-grouping="&gmail"]');
  assert.is(await page.inputValue('#filter'), 'held');
  assert.is(await page.locator('#rows tr').count(), 1, 'only the held row');
  const mark = page.locator('#rows tr .held-mark');
  assert.is(await mark.textContent(), 'held');
  assert.match(
    (await mark.getAttribute('title')) ?? '',
    /^Held since \d{4}-\d\d-\d\dT[\d:.]+Z: google reputation 2\.5% of 200 attempts in 900s \(hold >= 2%\)\.$/,
  );

  // Emptied, the filter lists all four again, and only the held one carries the mark
  await page.fill('#filter', '');
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#rows tr').length === 4);
  assert.is(await page.locator('#rows .held-mark').count(), 1);
  assert.equal(pageErrors, []);
  await page.close();
});

deadlineTest.run();
