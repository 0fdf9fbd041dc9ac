/**
 * `npm run screenshots`: regenerates the pages' screenshots in docs/images/ (`ui-*.png`) that docs/operations.md
 * shows; `npm run screenshots -- <folder>` writes them to another folder (the test that runs this script does).
 * Starts a host of its own in a temporary folder with invented schedules and events (documentation addresses,
 * replies written for the purpose: no dev set row), then takes each page in Debian's Chromium (`CHROMIUM_PATH`
 * names another) at 1280×800, light, and the overview once more in dark.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createLogger } from '../runtime/observability/logger.ts';
import { startHost } from '../runtime/mod.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const OUT = process.argv[2] ?? join(import.meta.dirname, '..', 'docs', 'images');
const KEY = 'screenshots';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const RATE =
  '421 4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from your IP address.';
const SPAM = '550 5.7.1 Message rejected as spam by Content Filtering.';
const FULL = '552 5.2.2 Mailbox full';
// The spec's example of a correction: a receiver that says this for unknown users
const DENIED = '550 5.7.1 <anna@example.org>: Recipient address rejected: Access denied';

if (!existsSync(CHROMIUM)) {
  console.error(`No Chromium at "${CHROMIUM}": install Debian's "chromium" or set CHROMIUM_PATH`);
  process.exit(1);
}
const folder = mkdtempSync(join(tmpdir(), 'capstan-screenshots-'));
const host = await startHost(
  {
    version: '6.10',
    servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
    plugins: [
      {
        id: 'ip-schedule',
        config: { backoff: { policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 3, window: 600, ttl: 1800 } } } },
      },
      { id: 'bounce-classifier' },
      { id: 'ui' },
    ],
  },
  {
    baseDir: folder,
    ephemeralPorts: true,
    env: { API_KEY: KEY },
    log: createLogger({ service: 'screenshots', level: 'error' }),
  },
);
const base = host.urls[0]!;
const call = async (method: string, path: string, body: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
};

try {
  for (let i = 1; i <= 12; i++) {
    const groupings = [
      {
        grouping: '&gmail',
        mode: 'AUTO',
        start: { date: day(-3 - i), volume: 200 },
        end: { date: day(26 - i), volume: 50_000 },
        paused: i === 4,
      },
      {
        grouping: '&yahoo',
        mode: 'AUTO',
        start: { date: day(-2), volume: 50 },
        end: { date: day(20), volume: 8000 },
        interval: 3600,
      },
    ];
    await call('POST', `/config/192.0.2.${i}`, { groupings });
  }
  // An hour of reported attempts, a few minutes apart, and a burst now that applies a policy
  const now = Date.now();
  const events = [];
  for (let minute = 59; minute >= 0; minute--) {
    const time = new Date(now - minute * 60_000).toISOString();
    events.push(
      ...Array.from({ length: 8 + (minute % 5) }, () => ({
        outcome: 'delivered',
        localip: '192.0.2.1',
        remotemx: 'gmail-smtp-in.l.google.com',
        grouping: '&gmail',
        time,
      })),
    );
    if (minute % 6 === 0)
      events.push({ message: FULL, localip: '192.0.2.2', recipientdomain: 'yahoo.com', grouping: '&yahoo', time });
    if (minute % 10 === 0)
      events.push({ message: SPAM, localip: '192.0.2.3', recipientdomain: 'yahoo.com', grouping: '&yahoo', time });
  }
  events.push(
    ...Array.from({ length: 3 }, () => ({
      message: RATE,
      localip: '192.0.2.1',
      remotemx: 'gmail-smtp-in.l.google.com',
      grouping: '&gmail',
    })),
  );
  await call('POST', '/v1/backoff/events', { events });
  await call('POST', '/v1/corrections', {
    message: DENIED,
    bnac: 'RECIPIENT_NOT_FOUND',
    backoff: 'RECIPIENT_ERROR',
    note: 'This receiver says this for unknown users',
  });

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    for (const [name, path, dark] of [
      ['ui-overview', '/ui/', false],
      ['ui-overview-dark', '/ui/', true],
      ['ui-warmup', '/ui/warmup.html', false],
      ['ui-policies', '/ui/policies.html', false],
      ['ui-classifier', '/ui/classifier.html', false],
    ] as const) {
      const page = await browser.newPage({
        viewport: { width: 1280, height: 800 },
        colorScheme: dark ? 'dark' : 'light',
      });
      await page.goto(`${base}${path}`);
      await page.evaluate((key) => sessionStorage.setItem('capstan.apiKey', key), KEY);
      await page.reload();
      if (path === '/ui/') await page.waitForSelector('body[data-loaded]');
      if (path === '/ui/warmup.html') await page.waitForSelector('#rows tr');
      if (path === '/ui/policies.html') await page.waitForSelector('#policies tr[data-id]');
      if (path === '/ui/classifier.html') {
        await page.fill('#replies', [RATE, SPAM, FULL, DENIED].join('\n'));
        await page.click('#classify');
        await page.waitForSelector('#results tbody tr');
        // The replies, one of them corrected, rather than the form above them
        await page.locator('#results-box').scrollIntoViewIfNeeded();
      }
      await page.screenshot({ path: join(OUT, `${name}.png`) });
      console.log(`docs/images/${name}.png`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
} finally {
  await host.close();
  rmSync(folder, { recursive: true, force: true });
}
