/**
 * The warm-up table in headless Chromium (Debian's `chromium` through playwright-core): CSV import with its dry-run
 * preview, numeric IP order, sorting by column, paging, the debounced filter, bulk pause and delete with confirmation
 * and undo, and export. Screenshots go to `test/.screenshots/` (git-ignored).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost, type Host } from '../../runtime/mod.ts';
import { test as deadlineTest } from '../_deadline.ts';
import { document, tempDir } from '../host/_fixtures.ts';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SHOTS = join(import.meta.dirname, '../.screenshots');
const KEY = 'table-test-key';
const present = existsSync(CHROMIUM);
const it = present ? deadlineTest : deadlineTest.skip;
if (!present)
  console.log(
    `Browser tests skipped: no Chromium at "${CHROMIUM}" (.ci/run installs Debian's "chromium"; CHROMIUM_PATH names another)`,
  );

let browser: Browser;
let host: Host;
let base: string;
const pageErrors: string[] = [];
const IPS = 120;

deadlineTest.before(async () => {
  if (!present) return;
  mkdirSync(SHOTS, { recursive: true });
  host = await startHost(document([{ id: 'ip-schedule' }, { id: 'ui' }]), {
    baseDir: tempDir(),
    ephemeralPorts: true,
    env: { API_KEY: KEY },
    log: createLogger({ service: 'test', write: () => {} }),
  });
  base = host.urls[0]!;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

deadlineTest.after(async () => {
  await browser?.close();
  await host?.close();
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const get = (path: string) => fetch(`${base}${path}`, { headers: { 'x-api-key': KEY } });
const HEADER =
  'ip,grouping,mode,start_date,start_volume,end_date,end_volume,schedule,algorithm,interval,paused,properties';
/** 10.0.0.1 … 10.0.0.120, volumes rising with the IP, hourly intervals: text order and volume order differ from IP order */
const plan = Array.from(
  { length: IPS },
  (_, i) => `10.0.0.${i + 1},&warm,AUTO,${day(0)},${((i * 37) % IPS) + 1},${day(9)},100000,,TOKENBUCKET,3600,,`,
);

async function open(): Promise<{ page: Page; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      pageErrors.push(message.text());
  });
  const requests: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/ui/')) requests.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  await page.goto(`${base}/ui/warmup.html`);
  await page.evaluate((key) => sessionStorage.setItem('capstan.apiKey', key), KEY);
  await page.reload();
  return { page, requests };
}

const ipsShown = (page: Page) =>
  page.locator('#rows tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.ip));

it('import: a file with bad lines lists them and writes nothing; a dry run previews, Apply writes', async () => {
  const { page } = await open();
  await page.waitForSelector('#summary:has-text("0 of 0 schedules")');
  const bad = [
    HEADER,
    plan[0],
    `10.0.0.300,&warm,AUTO,${day(0)},1,${day(1)},2,,,,,`,
    `10.0.0.2,&warm,AUTO,${day(0)},,${day(1)},2,,,,,`,
  ].join('\n');
  await page.setInputFiles('#import-file', { name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await page.waitForSelector('#import-summary:has-text("2 lines to fix; nothing was written")');
  assert.equal(await page.locator('#import-errors li').allTextContents(), [
    'Line 3: Invalid IP address "10.0.0.300"',
    'Line 4: Missing "start.volume": required for mode "AUTO"',
  ]);
  assert.is(await page.locator('#import-apply').isDisabled(), true);
  assert.is((await get('/config/10.0.0.1')).status, 404);

  await page.setInputFiles('#import-file', {
    name: 'plan.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from([HEADER, ...plan].join('\n')),
  });
  await page.waitForSelector(`#import-summary:has-text("Dry run: ${IPS} to create, 0 to update, 0 unchanged")`);
  assert.is(await page.locator('#import-changes tbody tr').count(), IPS);
  assert.is(await page.textContent('#import-changes tr[data-line="2"] td:nth-child(2)'), '10.0.0.1');
  assert.is((await get('/config/10.0.0.1')).status, 404, 'the dry run wrote nothing');
  await page.screenshot({ path: join(SHOTS, 'warmup-import-preview.png'), fullPage: true });
  await page.click('#import-apply');
  await page.waitForSelector(`#done-text:has-text("Imported ${IPS} schedules (0 unchanged).")`);
  await page.waitForSelector(`#summary:has-text("${IPS} of ${IPS} schedules")`);
  assert.is((await get('/config/10.0.0.120')).status, 200);
  await page.close();
});

it('numeric IP order, sorting by column, paging, the volume per interval and a debounced filter', async () => {
  const { page, requests } = await open();
  await page.waitForSelector(`#summary:has-text("${IPS} of ${IPS} schedules")`);
  assert.equal((await ipsShown(page)).slice(0, 3), ['10.0.0.1', '10.0.0.2', '10.0.0.3'], 'numeric, not text, order');
  assert.is(await page.locator('#rows tr').count(), 50);
  assert.is(await page.textContent('#page'), 'Page 1 of 3');
  assert.is(await page.getAttribute('th[data-sort="ip"]', 'aria-sort'), 'ascending');
  const volume = page.locator('tr[data-ip="10.0.0.1"] .volume');
  assert.is(await volume.textContent(), '1 per hour', 'a 3,600 s interval is per hour');
  // Every number of the row says where it comes from, on hover (title) and on focus (data-why)
  const why = async (cell: string) => {
    const number = page.locator(`tr[data-ip="10.0.0.1"] .${cell} .why`);
    await number.hover();
    const title = (await number.getAttribute('title')) ?? '';
    assert.is(await number.getAttribute('data-why'), title);
    return title;
  };
  assert.match(await why('volume'), /^1 messages allowed per 3,600 s \(per hour\) today, day 1 of 10/);
  assert.match(
    await why('volume'),
    /as TOKENBUCKET .* AUTO schedule from .* 1 messages per hour on day 1, .* to 100,000 on the last/,
  );
  assert.match(await why('status'), /^On schedule: today is day 1 of 10/);
  assert.match(await why('day'), new RegExp(`^Day 1 of 10 \\(today\\): days since ${day(0)}, which is day 1`));
  assert.is(await page.textContent('tr[data-ip="10.0.0.1"] .rate'), 'TOKENBUCKET, 3,600 s');

  await page.click('th[data-sort="ip"] button');
  await page.waitForSelector('th[data-sort="ip"][aria-sort="descending"]');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('#rows tr')?.dataset.ip === '10.0.0.120');
  await page.click('th[data-sort="volume"] button');
  await page.waitForSelector('th[data-sort="volume"][aria-sort="ascending"]');
  await page.waitForFunction(
    () => (globalThis as any).document.querySelector('#rows tr .volume')?.textContent === '1 per hour',
  );
  const volumes = await page.locator('#rows .volume').allTextContents();
  assert.equal(volumes.slice(0, 3), ['1 per hour', '2 per hour', '3 per hour']);
  await page.click('#next');
  await page.waitForSelector('#page:has-text("Page 2 of 3")');
  assert.is(await page.locator('#rows .volume').first().textContent(), '51 per hour');
  assert.ok(
    requests.some((r) => r.includes('sort=volume&order=asc') && r.includes('offset=50')),
    'paged on the server',
  );
  assert.ok(!requests.includes('GET /status'), 'never the whole status');

  requests.length = 0;
  // Nine keystrokes as one task of the page, so that a loaded machine cannot space them past the debounce: without
  // it each would ask the server
  await page.evaluate((text: string) => {
    const input = (globalThis as any).document.querySelector('#filter');
    input.focus();
    for (let i = 1; i <= text.length; i++) {
      input.value = text.slice(0, i);
      input.dispatchEvent(new (globalThis as any).InputEvent('input', { bubbles: true, data: text[i - 1] }));
    }
  }, '10.0.0.11');
  await page.waitForSelector(`#summary:has-text("11 of ${IPS} schedules")`);
  const asked = requests.filter((r) => r.startsWith('GET /status?') && r.includes('q='));
  assert.is(asked.length, 1, `the filter asks once typing pauses, not per keystroke: ${asked.join(' | ')}`);
  assert.is(await page.textContent('#page'), 'Page 1 of 1');
  // Sorted while filtered: one request, the page's; the unfiltered count is the one an unfiltered page gave
  await Promise.all([
    page.waitForResponse((response) => response.url().includes('sort=ip&order=asc')),
    page.click('th[data-sort="ip"] button'),
  ]);
  assert.equal(
    requests.filter((r) => /[?&]limit=1(&|$)/.test(r)),
    [],
    'no request for the unfiltered count on each load',
  );
  assert.is(await page.textContent('#summary'), `11 of ${IPS} schedules`);
  await page.screenshot({ path: join(SHOTS, 'warmup-table.png'), fullPage: true });
  // At 1024 px the table still fits the window
  await page.setViewportSize({ width: 1024, height: 768 });
  const widths = await page.evaluate(() => {
    const doc = (globalThis as any).document;
    return {
      table: doc.querySelector('#table').getBoundingClientRect().right,
      window: doc.documentElement.clientWidth,
    };
  });
  await page.screenshot({ path: join(SHOTS, 'warmup-table-1024.png'), fullPage: true });
  assert.ok(widths.table <= widths.window, `the table (${widths.table} px) fits 1024 px (${widths.window})`);
  await page.close();
});

it('bulk pause of a selection and delete of a filter, each confirmed and undone', async () => {
  const { page, requests } = await open();
  await page.waitForSelector(`#summary:has-text("${IPS} of ${IPS} schedules")`);
  for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) await page.check(`tr[data-ip="${ip}"] .pick`);
  await page.waitForSelector('#selected-count:has-text("3 schedules selected")');
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  requests.length = 0;
  await page.click('#bulk-pause');
  await page.waitForSelector('#done-text:has-text("Paused 3 schedules.")');
  assert.match(asked, /^Pause 3 schedules\?/);
  await page.waitForSelector('tr[data-ip="10.0.0.3"] .status:has-text("PAUSED")');
  assert.match((await page.getAttribute('tr[data-ip="10.0.0.3"] .status .why', 'title')) ?? '', /^Paused \(/);
  assert.is(
    await page.getAttribute('tr[data-ip="10.0.0.3"] .volume .why', 'title'),
    'PAUSED: nothing allowed today (day 1 of 10).',
  );
  assert.is((await (await get('/status/10.0.0.2/%26warm')).json()).status, 'PAUSED');
  assert.is((await (await get('/status/10.0.0.4/%26warm')).json()).status, 'ONSCHEDULE');
  assert.equal(
    requests.map((r) => r.split('?')[0]),
    ['POST /v1/schedules/bulk', 'GET /status'],
    'one write, then the page only',
  );
  assert.is(await page.textContent('#selected-count'), 'None selected');
  await page.screenshot({ path: join(SHOTS, 'warmup-bulk-paused.png'), fullPage: true });
  // The page's reload after the undo is held back: the undo of the undo must not be offered meanwhile either
  let release = () => {};
  const held = new Promise<void>((resume) => (release = resume));
  await page.route('**/status?*', async (route) => {
    await held;
    await route.continue();
  });
  await page.click('#undo');
  await page.waitForSelector('#done-text:has-text("Resumed 3 schedules.")');
  assert.is(await page.isHidden('#undo'), true, 'no Undo while the page reloads after an undo');
  release();
  await page.waitForSelector('tr[data-ip="10.0.0.3"] .status:has-text("ONSCHEDULE")');
  await page.unroute('**/status?*');
  assert.is((await (await get('/status/10.0.0.2/%26warm')).json()).status, 'ONSCHEDULE');
  assert.is(await page.isHidden('#undo'), true, 'undo is offered once');

  const before = await (await get('/config/10.0.0.110')).json();
  await page.fill('#filter', '10.0.0.11');
  await page.waitForSelector(`#summary:has-text("11 of ${IPS} schedules")`);
  await page.click('#select-matching');
  await page.waitForSelector('#selected-count:has-text("All 11 schedules matching the filter selected")');
  // A declined confirmation changes nothing
  page.once('dialog', (dialog) => void dialog.dismiss());
  await page.click('#bulk-delete');
  assert.is((await get('/config/10.0.0.110')).status, 200);
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await page.click('#bulk-delete');
  await page.waitForSelector('#done-text:has-text("Deleted 11 schedules.")');
  assert.match(asked, /^Delete 11 schedules\?/);
  await page.waitForSelector(`#summary:has-text("0 of ${IPS - 11} schedules")`);
  assert.is((await get('/config/10.0.0.110')).status, 404);
  await page.click('#undo');
  await page.waitForSelector('#done-text:has-text("Restored 11 schedules.")');
  await page.waitForSelector(`#summary:has-text("11 of ${IPS} schedules")`);
  assert.equal(await (await get('/config/10.0.0.110')).json(), before, 'restored as it was');
  const audit = await (await get('/v1/audit?ip=10.0.0.110')).json();
  assert.equal(
    audit.entries.slice(0, 2).map((e: { action: string }) => e.action),
    ['schedule.create', 'schedule.delete'],
  );
  await page.close();
});

it('keyboard alone: Tab reaches sorting, selection and row actions with focus shown; Enter and Space work them', async () => {
  const { page } = await open();
  await page.waitForSelector(`#summary:has-text("${IPS} of ${IPS} schedules")`);
  const active = () =>
    page.evaluate(() => {
      const element = (globalThis as any).document.activeElement;
      return {
        name: (element.getAttribute('aria-label') ?? element.textContent.trim()).slice(0, 60),
        row: element.closest('tr[data-ip]')?.dataset.ip ?? '',
        outline: getComputedStyle(element).outlineStyle,
      };
    });
  // From the filter box, Tab walks the toolbars, the sort buttons, then the first row's controls, each showing focus
  await page.focus('#filter');
  const walked: string[] = [];
  while (walked.length < 40 && walked.at(-1) !== 'Delete') {
    await page.keyboard.press('Tab');
    const { name, outline } = await active();
    assert.is.not(outline, 'none', `focus shows on "${name}"`);
    walked.push(name);
  }
  const at = (name: string) => walked.indexOf(name);
  assert.ok(at('New schedule') >= 0 && at('Export CSV') > at('New schedule'), walked.join(' | '));
  assert.ok(at('IP') > at('Export CSV') && at('Volume today') > at('IP'), walked.join(' | '));
  assert.ok(at('Select 10.0.0.1 &warm') > at('Volume today'), walked.join(' | '));
  assert.ok(at('Pause') > at('Select 10.0.0.1 &warm') && at('Delete') > at('Pause'), walked.join(' | '));

  await page.focus('th[data-sort="volume"] button');
  await page.keyboard.press('Enter');
  await page.waitForSelector('th[data-sort="volume"][aria-sort="ascending"]');
  await page.focus('th[data-sort="ip"] button');
  await page.keyboard.press('Enter');
  await page.waitForSelector('th[data-sort="ip"][aria-sort="ascending"]');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('#rows tr')?.dataset.ip === '10.0.0.1');
  // Space ticks a row, and focus stays on it: the next Tab goes on from there, not from the top of the page
  await page.focus('tr[data-ip="10.0.0.5"] .pick');
  await page.keyboard.press('Space');
  await page.waitForSelector('#selected-count:has-text("1 schedule selected")');
  assert.equal(await active(), { name: 'Select 10.0.0.5 &warm', row: '10.0.0.5', outline: 'solid' });
  // Enter on a row's Pause, and focus is on that row's Resume once the page has reloaded
  await page.focus('tr[data-ip="10.0.0.6"] button:has-text("Pause")');
  await page.keyboard.press('Enter');
  await page.waitForSelector('tr[data-ip="10.0.0.6"] .status:has-text("PAUSED")');
  assert.equal(await active(), { name: 'Resume', row: '10.0.0.6', outline: 'solid' });
  await page.keyboard.press('Enter');
  await page.waitForSelector('tr[data-ip="10.0.0.6"] .status:has-text("ONSCHEDULE")');
  await page.focus('#bulk-pause');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#done-text:has-text("Paused 1 schedule.")');
  assert.is((await (await get('/status/10.0.0.5/%26warm')).json()).status, 'PAUSED');
  await page.focus('#undo');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#done-text:has-text("Resumed 1 schedule.")');
  assert.is((await (await get('/status/10.0.0.5/%26warm')).json()).status, 'ONSCHEDULE');
  await page.close();
});

it("export downloads the filter's rows as the export route writes them, and a refused key says so", async () => {
  const { page } = await open();
  await page.waitForSelector(`#summary:has-text("${IPS} of ${IPS} schedules")`);
  await page.fill('#filter', '10.0.0.0/29');
  await page.waitForSelector(`#summary:has-text("7 of ${IPS} schedules")`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  assert.is(download.suggestedFilename(), 'schedules.csv');
  const text = readFileSync((await download.path())!, 'utf8');
  assert.is(text, await (await get('/v1/schedules/export?q=10.0.0.0%2F29')).text());
  assert.equal(
    text
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]),
    ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6', '10.0.0.7'],
  );
  // A refused key is met as on every other action: the plain message, and the key box to type the right one in
  await page.evaluate(() => sessionStorage.setItem('capstan.apiKey', 'rotated-away'));
  await page.click('#export');
  await page.waitForSelector('#alert[role=alert]:has-text("The API key was refused")');
  assert.is(await page.evaluate(() => (globalThis as any).document.activeElement.id), 'key-input');
  await page.close();
});

it('no page logged an error', () => {
  assert.equal(pageErrors, []);
});

deadlineTest.run();
