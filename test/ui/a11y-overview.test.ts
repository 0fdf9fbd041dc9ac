/**
 * The overview (`/ui/`) in headless Chromium against GET /v1/overview, and every page's craft: an axe-core check
 * (no serious or critical violation, light and dark), names that do not break mid-word at 1024 px and on a phone,
 * and figures whose explanation shows from the keyboard. Screenshots go to `test/.screenshots/` (git-ignored).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost, type Host } from '../../runtime/mod.ts';
import { document, tempDir } from '../host/_fixtures.ts';
import { BOUNCE_EMAIL } from './_bounce-email.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SHOTS = join(import.meta.dirname, '../.screenshots');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const KEY = 'ui-test-key';
const present = existsSync(CHROMIUM);
const it = present ? test : test.skip;
if (!present)
  console.log(
    `Browser tests skipped: no Chromium at "${CHROMIUM}" (.ci/run installs Debian's "chromium"; CHROMIUM_PATH names another)`,
  );

let browser: Browser;
let host: Host;
let base: string;
const pageErrors: string[] = [];

const GMAIL_RATE =
  '421 4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from your IP ' +
  'address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.';
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const call = (method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, json: await r.json() }));

test.before(async () => {
  if (!present) return;
  mkdirSync(SHOTS, { recursive: true });
  host = await startHost(
    document([
      {
        id: 'ip-schedule',
        config: { backoff: { policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 2, window: 600, ttl: 1800 } } } },
      },
      { id: 'bounce-classifier', config: { cache: { enabled: false } } },
      { id: 'ui' },
    ]),
    {
      baseDir: tempDir(),
      ephemeralPorts: true,
      env: { API_KEY: KEY },
      log: createLogger({ service: 'test', write: () => {} }),
    },
  );
  base = host.urls[0]!;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  // Long IPv6 addresses and grouping names: what broke mid-word at 1024 px
  for (const [ip, paused] of [
    ['2001:db8:85a3:1234:5678:8a2e:370:7334', false],
    ['192.0.2.1', false],
    ['192.0.2.2', true],
  ] as const) {
    const groupings = ['&gmail-pool.transactional', '&yahoo'].map((grouping) => ({
      grouping,
      mode: 'AUTO',
      start: { date: day(-2), volume: 100 },
      end: { date: day(20), volume: 20_000 },
      paused,
      interval: grouping === '&yahoo' ? 3600 : 86400,
    }));
    assert.is((await call('POST', `/config/${encodeURIComponent(ip)}`, { groupings })).status, 200);
  }
  const gmail = { localip: '192.0.2.1', remotemx: 'gmail-smtp-in.l.google.com', grouping: '&gmail-pool.transactional' };
  const reported = await call('POST', '/v1/backoff/events', {
    events: [
      { message: GMAIL_RATE, ...gmail },
      { message: GMAIL_RATE, ...gmail, time: new Date(Date.now() - 3 * 3600_000).toISOString() },
      { message: GMAIL_RATE, ...gmail },
      ...Array.from({ length: 5 }, () => ({ outcome: 'delivered', ...gmail })),
      {
        message: '550 5.7.1 <jim@yahoo.com>: Message rejected as spam by Content Filtering.',
        localip: '192.0.2.1',
        recipientdomain: 'yahoo.com',
        grouping: '&yahoo',
      },
    ],
  });
  assert.is(reported.status, 200);
});

test.after(async () => {
  await browser?.close();
  await host?.close();
});

async function open(path: string, options: { width?: number; height?: number; dark?: boolean } = {}): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    colorScheme: options.dark ? 'dark' : 'light',
  });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      pageErrors.push(`${path}: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/ui/') && response.status() >= 400)
      pageErrors.push(`${path}: ${response.url()} answered ${response.status()}`);
  });
  await page.goto(`${base}${path}`);
  await page.evaluate((key) => sessionStorage.setItem('capstan.apiKey', key), KEY);
  await page.reload();
  return page;
}

/** Serious and critical axe-core violations of the page as it is now, one line each */
async function violations(page: Page): Promise<string[]> {
  // Evaluated, not added as a script: the pages' Content-Security-Policy refuses inline scripts, as it should
  await page.evaluate(AXE_SOURCE);
  type Result = { id: string; impact: string; help: string; nodes: { target: string[] }[] };
  const found = await page.evaluate(
    async () =>
      (await (globalThis as unknown as { axe: { run(): Promise<{ violations: Result[] }> } }).axe.run()).violations,
  );
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.impact} ${v.id} (${v.help}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join('; ')}`,
    );
}

it('overview: counts, connected MTAs, charts of the hour and day, planned against delivered, each figure explained', async () => {
  const expected = (await call('GET', '/v1/overview')).json;
  const page = await open('/ui/');
  await page.waitForSelector('body[data-loaded]');
  for (const [status, n] of Object.entries(expected.schedules.statuses)) {
    assert.is(await page.textContent(`.stat[data-status="${status}"] .value`), String(n), status);
  }
  assert.is(await page.textContent('.stat[data-status="ONSCHEDULE"] .value'), '4');
  assert.is(await page.textContent('.stat[data-status="PAUSED"] .value'), '2');
  assert.is(await page.textContent('.stat[data-kind="policies"][data-type="WARMUP"] .value'), '4');
  assert.is(await page.textContent('.stat[data-kind="policies"][data-type="BACKOFF"] .value'), '1');
  assert.is(await page.textContent('.stat[data-count="clients"] .value'), '0');
  // Charts: all providers, then google alone; the day holds the event three hours back, the hour does not
  assert.is(await page.getAttribute('#chart-hour', 'data-total'), '8');
  assert.is(await page.getAttribute('#chart-day', 'data-total'), '9');
  await page.waitForSelector('#chart-hour canvas');
  await page.getByLabel('Provider', { exact: true }).selectOption('google');
  assert.is(await page.getAttribute('#chart-hour', 'data-total'), '7');
  assert.match((await page.getAttribute('#chart-day', 'data-labels')) ?? '', /^delivered,RATE_LIMIT/);
  assert.is(await page.textContent('#bounce-table tr[data-label="delivered"] td:nth-child(2)'), '5');
  // Planned: the day's volume once per interval; &yahoo runs hourly on two IPs
  const yahoo = expected.volume.find((v: { grouping: string }) => v.grouping === '&yahoo');
  assert.is(await page.textContent('#volume tr[data-grouping="&yahoo"] .planned'), yahoo.planned.toLocaleString('en'));
  assert.is(await page.textContent('#volume tr[data-grouping="&gmail-pool.transactional"] .delivered'), '5');
  assert.is(await page.textContent('#volume tr[data-grouping="&yahoo"] .delivered'), '—');
  assert.match(
    (await page.getAttribute('#volume tr[data-grouping="&yahoo"] .planned .why', 'title')) ?? '',
    /times the intervals in a day/,
  );
  // The last day hour by hour, for the grouping chosen: the busiest first, then &yahoo (hourly, on two IPs)
  const hourly = (name: string) => expected.volume.find((v: { grouping: string }) => v.grouping === name).hours;
  const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0).toLocaleString('en');
  await page.waitForSelector('#chart-volume canvas');
  const first = (await page.getAttribute('#chart-volume', 'data-grouping'))!;
  assert.is(
    await page.getAttribute('#chart-volume', 'aria-label'),
    `${first} in the last day: ${sum(hourly(first).planned)} planned (a day's volume spread evenly over its hours), ${sum(hourly(first).delivered)} delivered`,
  );
  await page.getByLabel('Grouping', { exact: true }).selectOption('&gmail-pool.transactional');
  assert.match((await page.getAttribute('#chart-volume', 'aria-label')) ?? '', /, 5 delivered$/);
  // Every figure explains itself, and the explanation shows from the keyboard
  const unexplained = await page.locator('.stat .value:not([title]), #volume td.num > span:not([title])').count();
  assert.is(unexplained, 0);
  await page.focus('#reload');
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => {
    const active = (
      globalThis as unknown as { document: { activeElement: { className: string; dataset: { why?: string } } } }
    ).document.activeElement;
    return { className: active.className, why: active.dataset.why ?? '' };
  });
  assert.match(focused.className, /\bwhy\b/);
  assert.match(focused.why, /ONSCHEDULE/);
  await page.screenshot({ path: join(SHOTS, 'overview.png'), fullPage: true });
  await page.close();
});

it("a class has one colour on every page: the overview's swatches, the policies page's bars and legend", async () => {
  /** Each class's colour as the page paints it, read back as the browser resolves it (rgb()) */
  const colours = (page: Page, selector: string, attribute: string) =>
    page
      .locator(selector)
      .evaluateAll(
        (nodes, name) =>
          nodes.map((node): [string, string] => [
            (node as HTMLElement).closest(`[${name}]`)?.getAttribute(name) ?? '',
            getComputedStyle(node).getPropertyValue(node instanceof SVGElement ? 'fill' : 'background-color'),
          ]),
        attribute,
      );
  const overview = await open('/ui/');
  await overview.waitForSelector('body[data-loaded]');
  const onOverview = new Map(await colours(overview, '#bounce-table tr[data-label] .swatch', 'data-label'));
  await overview.close();
  const policies = await open('/ui/policies.html');
  await policies.waitForSelector('#mix-chart rect[data-class]');
  const onPolicies = [
    ...(await colours(policies, '#mix-chart rect[data-class]', 'data-class')),
    ...(await colours(policies, '#mix-chart .legend [data-class] .swatch', 'data-class')),
  ];
  await policies.close();
  assert.ok(onPolicies.length > 0, 'the policies page draws a class');
  for (const [klass, colour] of onPolicies) assert.is(colour, onOverview.get(klass), `${klass}: the same colour`);
});

it('overview: a feed client counts as a connected MTA', async () => {
  const { default: WebSocket } = await import('ws');
  const client = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/policies/feed`, { headers: { 'x-api-key': KEY } });
  await new Promise((done, fail) => client.once('message', done).once('error', fail));
  try {
    const page = await open('/ui/');
    await page.waitForSelector('body[data-loaded]');
    assert.is(await page.textContent('.stat[data-count="clients"] .value'), '1');
    await page.close();
  } finally {
    client.close();
  }
});

it('classifier page: what decided each class is asked for when its row is opened, never for the whole batch', async () => {
  const page = await open('/ui/classifier.html');
  /** Requests asking for explanations: route and the replies asked about */
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.searchParams.get('explain') === 'true')
      asked.push(`${url.pathname} ${JSON.stringify(request.postDataJSON().messages)}`);
  });
  const probability = (row: number) => `#results tr[data-row="${row}"] td:nth-child(4) .why`;
  const by = (row: number) => `#results tr[data-row="${row}"] .decided [data-model=BNAC] .by`;
  // This service's own answer: with no explanation in it, the page says so instead of guessing
  await page.fill('#replies', '552 5.2.2 Mailbox full');
  await page.click('#classify');
  await page.waitForSelector('#summary:has-text("1 replies classified")');
  assert.equal(asked, [], 'the batch asks for no explanation');
  assert.match((await page.getAttribute(probability(1), 'title')) ?? '', /asked for as this row is pointed at/);
  await page.hover(probability(1));
  await page.waitForSelector(by(1));
  const plain = await call('POST', '/v2/bnac?explain=true', { messages: ['552 5.2.2 Mailbox full'] });
  if (plain.json[0].explanation === undefined) {
    assert.is(await page.textContent(by(1)), '—');
    assert.match(
      (await page.getAttribute(probability(1), 'title')) ?? '',
      /did not say whether a rule or the model decided/,
    );
  }
  assert.equal(asked, ['/v2/bnac ["552 5.2.2 Mailbox full"]', '/v1/backoff ["552 5.2.2 Mailbox full"]']);

  // The documented shape (?explain=true): a rule's id, or the model's heaviest features
  const explanations: Record<string, unknown> = {
    '552 5.2.2 Mailbox full': { by: 'rule', rule: 'mailbox-full-552' },
    [GMAIL_RATE]: {
      by: 'model',
      features: [
        { feature: 'unsolicited', weight: 1.25 },
        { feature: 'rate', weight: 0.5 },
      ],
    },
  };
  await page.route('**/v2/bnac?explain=true', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(
        (route.request().postDataJSON().messages as string[]).map((message) => ({
          class: 'RECIPIENT_ERROR',
          probability: 0.97,
          explanation: explanations[message],
        })),
      ),
    }),
  );
  asked.length = 0;
  await page.fill('#replies', `552 5.2.2 Mailbox full\n${GMAIL_RATE}`);
  await page.click('#classify');
  await page.waitForSelector('#summary:has-text("2 replies classified")');
  assert.equal(asked, [], 'the batch asks for no explanation');
  await page.hover(probability(1));
  await page.waitForSelector(`${by(1)}:has-text("rule mailbox-full-552")`);
  assert.match(
    (await page.getAttribute(probability(1), 'title')) ?? '',
    /rule "mailbox-full-552" matched this reply: the probability is the rule's fixed confidence/,
  );
  // From the keyboard: the row's Explain button asks as it takes focus, and focus moves to what it explained
  await page.focus('#results tr[data-row="2"] button');
  await page.waitForSelector(`${by(2)}:has-text("model")`);
  assert.match(
    (await page.getAttribute(probability(2), 'title')) ?? '',
    /the model decided; what weighed most: "unsolicited" \(1\.25\), "rate" \(0\.50\)/,
  );
  assert.match(
    await page.evaluate(() => (globalThis as any).document.activeElement.closest('td').className),
    /\bdecided\b/,
  );
  // Opened again, a row asks nothing more: one question per model and reply
  await page.hover(probability(1));
  await page.hover(probability(2));
  assert.equal(asked.length, 4, asked.join(' | '));
  assert.ok(
    asked.every((line) => /^\/v[12]\/(bnac|backoff) \["[^"]*"\]$/.test(line)),
    asked.join(' | '),
  );
  await page.screenshot({ path: join(SHOTS, 'classifier-explained.png'), fullPage: true });
  await page.close();
});

/** Each page at its fullest: rows loaded, the classifier's batch classified */
async function ready(page: Page, path: string): Promise<void> {
  if (path === '/ui/') await page.waitForSelector('body[data-loaded]');
  if (path === '/ui/warmup.html') await page.waitForSelector('#rows tr');
  if (path === '/ui/policies.html') await page.waitForSelector('#mix-chart table');
  if (path === '/ui/classifier.html') {
    await page.fill('#replies', `${GMAIL_RATE}\n552 5.2.2 Mailbox full`);
    await page.click('#classify');
    await page.waitForSelector('#results tbody tr');
  }
}

/** What a page shows only when asked: the warm-up editor, curve and import preview, a policy's reason, a reply's
 * explanation and a bounce email's recipients */
async function opened(page: Page, path: string): Promise<void> {
  if (path === '/ui/warmup.html') {
    await page.locator('#rows tr').first().getByRole('button', { name: 'Chart' }).click();
    await page.waitForSelector('#chart canvas');
    await page.click('#new');
    await page.setInputFiles('#import-file', {
      name: 'plan.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `ip,grouping,mode,start_date,start_volume,end_date,end_volume\n192.0.2.9,&new,AUTO,${day(0)},10,${day(9)},1000\n192.0.2.1,&yahoo,AUTO,${day(0)},,${day(9)},1000\n`,
      ),
    });
    await page.waitForSelector('#import-summary:not(:empty)');
  }
  if (path === '/ui/policies.html') {
    await page.locator('#policies tr[data-id]').first().getByRole('button', { name: 'Why' }).click();
    await page.waitForSelector('#policies tr.detail:not(.hidden)');
  }
  if (path === '/ui/classifier.html') {
    await page.hover('#results tr[data-row="1"] td:nth-child(4) .why');
    await page.waitForSelector('#results tr[data-row="1"] .decided [data-model=BNAC] .by');
    await page.setInputFiles('#email-file', {
      name: 'bounce.eml',
      mimeType: 'message/rfc822',
      buffer: Buffer.from(BOUNCE_EMAIL),
    });
    await page.waitForSelector('#email-recipients tbody tr');
  }
}

for (const dark of [false, true]) {
  it(`every page, and each panel it opens, has no serious or critical accessibility violation (${dark ? 'dark' : 'light'})`, async () => {
    const found: string[] = [];
    for (const path of ['/ui/', '/ui/warmup.html', '/ui/policies.html', '/ui/classifier.html']) {
      const page = await open(path, { dark });
      await ready(page, path);
      found.push(...(await violations(page)).map((v) => `${path}: ${v}`));
      await opened(page, path);
      found.push(...(await violations(page)).map((v) => `${path}, opened: ${v}`));
      if (dark)
        await page.screenshot({
          path: join(SHOTS, `dark-${path === '/ui/' ? 'overview' : path.slice(4, -5)}.png`),
          fullPage: true,
        });
      await page.close();
    }
    assert.equal(found, []);
  });
}

/**
 * Contrast (WCAG) of a chart's axis labels, drawn on its canvas where neither CSS nor axe-core reach, against the
 * chart's background: the best of the main opaque colours left of the plot, where the y axis's figures are
 */
async function axisContrast(page: Page, chart: string): Promise<number> {
  const { colours, surface } = await page.evaluate((selector) => {
    const doc = (globalThis as any).document;
    const canvas = doc.querySelector(`${selector} canvas`);
    // The y axis: left of the plot area (uPlot's .u-over), in canvas pixels
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const axis =
      doc.querySelector(`${selector} .u-over`).getBoundingClientRect().left - canvas.getBoundingClientRect().left;
    const { data } = canvas.getContext('2d').getImageData(0, 0, Math.floor(axis * scale), canvas.height);
    const counts = new Map<string, number>();
    for (let i = 0; i < data.length; i += 4)
      if (data[i + 3] === 255) {
        const key = `${data[i]},${data[i + 1]},${data[i + 2]}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    return {
      // Colours of at least a tenth of the opaque pixels: the figures' colour, and the tick marks' beside them
      colours: [...counts]
        .filter(([, n]) => n * 10 >= [...counts.values()].reduce((a, b) => a + b, 0))
        .map(([key]) => key),
      surface: getComputedStyle(canvas.closest('.chart')).backgroundColor,
    };
  }, chart);
  const luminance = (rgb: number[]) => {
    const [r, g, b] = rgb.map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const back = (surface.match(/\d+/g) ?? []).slice(0, 3).map(Number);
  const contrast = (colour: string) => {
    const [hi, lo] = [luminance(colour.split(',').map(Number)), luminance(back)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };
  return Math.max(0, ...colours.map(contrast));
}

it("the charts' axis labels are readable in light and dark", async () => {
  for (const dark of [false, true]) {
    const warmup = await open('/ui/warmup.html', { dark });
    await warmup.locator('#rows tr').first().getByRole('button', { name: 'Chart' }).click();
    await warmup.waitForSelector('#chart canvas');
    const overview = await open('/ui/', { dark });
    await overview.waitForSelector('#chart-hour canvas');
    for (const [page, chart] of [
      [warmup, '#chart'],
      [overview, '#chart-hour'],
    ] as const) {
      const contrast = await axisContrast(page, chart);
      assert.ok(contrast >= 4.5, `${chart} ${dark ? 'dark' : 'light'}: contrast ${contrast.toFixed(2)} under 4.5`);
    }
    await warmup.screenshot({ path: join(SHOTS, `warmup-chart-${dark ? 'dark' : 'light'}.png`), fullPage: true });
    // The system switching theme while the curve is shown: drawn again (a new canvas) in the new theme's colours
    await warmup.$eval('#chart canvas', (canvas) => canvas.setAttribute('data-before', ''));
    await warmup.emulateMedia({ colorScheme: dark ? 'light' : 'dark' });
    await warmup.waitForSelector('#chart canvas:not([data-before])');
    const switched = await axisContrast(warmup, '#chart');
    assert.ok(switched >= 4.5, `#chart switched from ${dark ? 'dark' : 'light'}: contrast ${switched.toFixed(2)}`);
    await warmup.close();
    await overview.close();
  }
});

it('at 1024 px and on a phone, every page fits the window and no IP, grouping or class breaks across lines', async () => {
  for (const [width, height] of [
    [1024, 768],
    [390, 844],
  ]) {
    for (const [path, names] of [
      ['/ui/warmup.html', '#rows td.mono'],
      ['/ui/', '#volume th.mono, #bounce-table th .mono'],
      ['/ui/policies.html', '#policies td.provider, #policies td.class'],
      ['/ui/classifier.html', '#results td.bnac, #results td.backoff, #counts td.mono'],
    ]) {
      const page = await open(path!, { width, height });
      await ready(page, path!);
      const broken = await page.locator(names!).evaluateAll((cells) =>
        cells
          .filter((cell) => {
            // The text's line boxes: more than one top means the name wrapped
            const range = cell.ownerDocument.createRange();
            range.selectNodeContents(cell);
            return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1;
          })
          .map((cell) => cell.textContent),
      );
      assert.equal(broken, [], `${path} at ${width} px`);
      assert.ok((await page.locator(names!).count()) >= 2, `${path}: names to check`);
      // The page itself never scrolls sideways: a wide table scrolls in its own box
      const overflow = await page.evaluate(() => {
        const root = (globalThis as any).document.documentElement;
        return root.scrollWidth - root.clientWidth;
      });
      assert.is(overflow, 0, `${path} at ${width} px is ${overflow} px wider than the window`);
      if (path === '/ui/warmup.html') {
        // Scrolled to its far end, the table still shows each row's IP
        const ip = await page.evaluate(() => {
          const doc = (globalThis as any).document;
          const box = doc.querySelector('.table-box');
          box.scrollLeft = box.scrollWidth;
          const cell = doc.querySelector('#rows td.ip').getBoundingClientRect();
          return {
            left: cell.left - box.getBoundingClientRect().left,
            right: cell.right,
            window: doc.documentElement.clientWidth,
          };
        });
        assert.ok(ip.left >= 0 && ip.right <= ip.window, `the IP stays in view: ${JSON.stringify(ip)}`);
      }
      await page.screenshot({
        path: join(SHOTS, `${path === '/ui/' ? 'overview' : path!.slice(4, -5)}-${width}.png`),
        fullPage: true,
      });
      await page.close();
    }
  }
});

it('no page logged an error', () => {
  assert.equal(pageErrors, []);
});

test.run();
