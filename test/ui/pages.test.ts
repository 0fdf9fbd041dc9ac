/**
 * The `ui` pages in headless Chromium (Debian's `chromium`, driven by playwright-core, which downloads no browser):
 * the warm-up page creates an AUTO schedule, draws its curve and pauses it; the classifier page classifies a batch
 * and a bounce email given through its file picker; a missing or wrong API key (the host's `API_KEY`) says so.
 * Screenshots of each page go to `test/.screenshots/` (git-ignored).
 */
import { existsSync, mkdirSync } from 'node:fs';
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

test.before(async () => {
  if (!present) return;
  mkdirSync(SHOTS, { recursive: true });
  const dir = tempDir();
  // The host's key alone, as the README's quick start sets it, puts both APIs behind it
  host = await startHost(
    document([
      // Low thresholds, so that a few reported events apply backoff policies for the policies page
      {
        id: 'ip-schedule',
        config: {
          backoff: {
            policies: {
              RATE_LIMIT__IP_RATE_LIMIT: { threshold: 2, window: 600, ttl: 1800 },
              RATE_LIMIT__GENERAL: { threshold: 2, window: 600, ttl: 1800 },
              CONTENT_REJECTED_SPAM: { threshold: 2, window: 600, ttl: 900 },
            },
          },
        },
      },
      { id: 'bounce-classifier', config: { cache: { enabled: false } } },
      { id: 'ui' },
    ]),
    {
      baseDir: dir,
      ephemeralPorts: true,
      env: { API_KEY: KEY },
      log: createLogger({ service: 'test', write: () => {} }),
    },
  );
  base = host.urls[0]!;
  // Root has no user namespace sandbox here; the pages are our own, served from loopback
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

test.after(async () => {
  await browser?.close();
  await host?.close();
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
  // API errors are the pages' to show (the tests provoke some); a page's own file must always load
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      pageErrors.push(`${path}: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/ui/') && response.status() >= 400)
      pageErrors.push(`${path}: ${response.url()} answered ${response.status()}`);
  });
  await page.goto(`${base}${path}`);
  return page;
}

async function useKey(page: Page, key: string): Promise<void> {
  await page.fill('#key-input', key);
  await page.click('#key-form button[type=submit]');
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

it('warm-up page: asks for the key, creates an AUTO schedule, shows its curve with today, pauses, resumes, edits and deletes it', async () => {
  const page = await open('/ui/warmup.html');
  await page.waitForSelector('#alert:has-text("needs an API key")');
  await useKey(page, KEY);
  await page.waitForSelector('#summary:has-text("0 of 0 schedules")');

  await page.click('#new');
  await page.fill('[name=ip]', '192.0.2.10');
  await page.fill('[name=grouping]', '&warm');
  await page.selectOption('[name=mode]', 'AUTO');
  await page.fill('[name=startDate]', day(-5));
  await page.fill('[name=endDate]', day(24));
  await page.fill('[name=endVolume]', '10000');
  await page.click('#save');
  // The API's message, next to the field it names
  const missing = page.locator('.field-error[data-for="start.volume"]');
  await missing.waitFor();
  assert.match(
    (await missing.textContent()) ?? '',
    /Missing "groupings\[0\]\.start\.volume": required for mode "AUTO"/,
  );

  await page.fill('[name=startVolume]', '100');
  await page.click('#save');
  const row = page.locator('tr[data-ip="192.0.2.10"][data-grouping="&warm"]');
  await row.waitFor();
  assert.is(await row.locator('.status').textContent(), 'ONSCHEDULE');
  assert.is(await row.locator('.day').textContent(), '6 / 30');
  await page.waitForSelector('#chart canvas');
  assert.is(await page.getAttribute('#chart', 'data-days'), '30');
  assert.is(await page.getAttribute('#chart', 'data-today'), '6');
  assert.match(
    (await page.textContent('#chart-note')) ?? '',
    /^Today is day 6 of 30: [\d,]+ messages per day \(ONSCHEDULE, TOKENBUCKET\)$/,
  );
  await page.screenshot({ path: join(SHOTS, 'warmup-created.png'), fullPage: true });

  // A key that stops working (rotated) refuses Pause with a plain message, and nothing changes
  await page.evaluate(() => sessionStorage.setItem('capstan.apiKey', 'rotated-away'));
  await row.getByRole('button', { name: 'Pause' }).click();
  await page.waitForSelector('#alert[role=alert]:has-text("The API key was refused")');
  const unchanged = await fetch(`${base}/status/192.0.2.10/%26warm`, { headers: { 'x-api-key': KEY } }).then((r) =>
    r.json(),
  );
  assert.is(unchanged.status, 'ONSCHEDULE');
  await useKey(page, KEY);
  await page.waitForSelector('#alert[role=status]', { state: 'attached' });

  await row.getByRole('button', { name: 'Pause' }).click();
  await page.waitForSelector('tr[data-ip="192.0.2.10"] .status:has-text("PAUSED")');
  assert.is(await row.getByRole('button', { name: 'Resume' }).count(), 1);
  const stored = await fetch(`${base}/status/192.0.2.10/%26warm`, { headers: { 'x-api-key': KEY } }).then((r) =>
    r.json(),
  );
  assert.is(stored.status, 'PAUSED', 'the page paused it through the API');
  await page.screenshot({ path: join(SHOTS, 'warmup-paused.png'), fullPage: true });

  await row.getByRole('button', { name: 'Resume' }).click();
  await page.waitForSelector('tr[data-ip="192.0.2.10"] .status:has-text("ONSCHEDULE")');
  await row.getByRole('button', { name: 'Edit' }).click();
  await page.fill('[name=endVolume]', '20000');
  await page.click('#save');
  await page.waitForSelector('tr[data-ip="192.0.2.10"] td:has-text("(20,000)")');
  const edited = await fetch(`${base}/config/192.0.2.10/%26warm`, { headers: { 'x-api-key': KEY } }).then((r) =>
    r.json(),
  );
  assert.equal(edited.end, { date: day(24), volume: 20000 });
  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.waitForSelector('#summary:has-text("0 of 0 schedules")');
  assert.is((await fetch(`${base}/config/192.0.2.10`, { headers: { 'x-api-key': KEY } })).status, 404);
  await page.close();
});

it('warm-up page: the filter box and paging keep 1,000 IPs usable', async () => {
  const record = {
    groupings: [
      { grouping: '&bulk', mode: 'AUTO', start: { date: day(-1), volume: 10 }, end: { date: day(8), volume: 100 } },
    ],
  };
  for (let start = 0; start < 1000; start += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, k) =>
        fetch(`${base}/config/10.0.${(start + k) >> 8}.${(start + k) & 255}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': KEY },
          body: JSON.stringify(record),
        }).then((r) => assert.is(r.status, 200)),
      ),
    );
  }
  const page = await open('/ui/warmup.html');
  await useKey(page, KEY);
  await page.waitForSelector('#summary:has-text("1,000 of 1,000 schedules")');
  assert.is(await page.locator('#rows tr').count(), 50, 'one page of rows');
  assert.is(await page.textContent('#page'), 'Page 1 of 20');
  await page.click('#next');
  // The page asks the server for the next page of rows
  await page.waitForSelector('#page:has-text("Page 2 of 20")');
  await page.fill('#filter', '10.0.3.231');
  await page.waitForSelector('#summary:has-text("1 of 1,000 schedules")');
  assert.is(await page.locator('#rows tr').getAttribute('data-ip'), '10.0.3.231');
  await page.screenshot({ path: join(SHOTS, 'warmup-filter.png'), fullPage: true });
  await page.close();
});

/** The classifier page with the key given, the replies pasted and classified */
async function classified(replies: readonly string[]): Promise<Page> {
  const page = await open('/ui/classifier.html');
  await useKey(page, KEY);
  await page.fill('#replies', replies.join('\n'));
  await page.click('#classify');
  await page.waitForSelector(`#summary:has-text("${replies.length} replies classified")`);
  return page;
}

it('classifier page: a pasted batch shows classes, probabilities, backoff fields, normalised text and counts', async () => {
  const replies = [
    '451 4.7.1 Greylisting in effect, please come back later',
    '550 5.1.1 <jane@example.com>: Recipient address rejected: User unknown in virtual mailbox table',
    '451 4.7.1 Greylisting in effect, please come back later',
  ];
  const page = await classified(replies);
  assert.is(await page.locator('#results tbody tr').count(), 3);
  const bnac = await fetch(`${base}/v2/bnac`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: JSON.stringify({ messages: replies }),
  }).then((r) => r.json());
  for (let i = 0; i < 3; i++)
    assert.is(await page.textContent(`#results tr[data-row="${i + 1}"] .bnac`), bnac[i].class);
  assert.match((await page.textContent('#results tr[data-row="1"] td:nth-child(4)')) ?? '', /^\d+\.\d %$/);
  assert.match((await page.textContent('#results tr[data-row="2"] td:nth-child(9)')) ?? '', /user unknown/i);
  const greyCount = page.locator(`#counts tr[data-model="BNAC"][data-class="${bnac[0].class}"] td:nth-child(3)`);
  assert.is(await greyCount.textContent(), '2');
  assert.is((await page.locator('#counts tr[data-model="backoff"]').count()) >= 1, true);
  await page.screenshot({ path: join(SHOTS, 'classifier.png'), fullPage: true });
  await page.close();
});

it('classifier page: a row corrected in place answers corrected with its near-duplicates, and is removed again', async () => {
  const replies = [
    '550 5.7.1 <anna@example.org>: Recipient address rejected: Access denied [192.0.2.1]',
    '550 5.7.1 <bob@other.example>: Recipient address rejected: Access denied [198.51.100.23]',
    '552 5.2.2 Mailbox full',
  ];
  const page = await classified(replies);
  const cell = (row: number, model: string) => page.locator(`#results tr[data-row="${row}"] .${model}`);
  const before = await cell(1, 'bnac').textContent();
  assert.is.not(before, 'RECIPIENT_NOT_FOUND', 'the model answers something else');
  assert.is(await page.textContent('#corrections-summary'), '0 corrections in force');

  // Escape closes the form and gives the focus back to the button that opened it
  await page.click('#results tr[data-row="3"] button:has-text("Correct")');
  await page.locator('tr.correct-form[data-for-row="3"] select[name=bnac]').press('Escape');
  assert.is(await page.locator('tr.correct-form').count(), 0);
  const focused = () => (globalThis as any).document.activeElement?.getAttribute('aria-label');
  assert.is(await page.evaluate(focused), 'Correct reply 3');

  await page.click('#results tr[data-row="1"] button:has-text("Correct")');
  const form = page.locator('tr.correct-form[data-for-row="1"] form');
  await form.locator('button[type=submit]').click();
  assert.is(await form.locator('.field-error').textContent(), 'Choose a BNAC class, a backoff class or both');
  await form.locator('select[name=bnac]').selectOption('RECIPIENT_NOT_FOUND');
  await form.locator('input[name=note]').fill('their unknown-user reply');
  await form.locator('button[type=submit]').click();
  await page.waitForSelector('#summary:has-text("Correction of reply 1 saved")');

  // The row and its near-duplicate (other address and IP) answer the operator's class; the backoff and the other row
  // stay the classifier's
  for (const row of [1, 2]) {
    assert.is(await cell(row, 'bnac').textContent(), 'RECIPIENT_NOT_FOUND');
    assert.ok(await cell(row, 'bnac').evaluate((td) => td.classList.contains('corrected')), `row ${row} marked`);
    assert.match((await page.textContent(`#results tr[data-row="${row}"] td.correction`)) ?? '', /Corrected \(BNAC\)/);
  }
  assert.not.ok(await cell(1, 'backoff').evaluate((td) => td.classList.contains('corrected')));
  assert.not.match((await page.textContent('#results tr[data-row="3"] td.correction')) ?? '', /Corrected/);
  await page.hover('#results tr[data-row="1"] td:nth-child(2)');
  await page.waitForSelector('#results tr[data-row="1"] .decided [data-model="BNAC"] .by:has-text("correction")');
  const stored = await fetch(`${base}/v1/corrections`, { headers: { 'x-api-key': KEY } }).then((r) => r.json());
  assert.equal(
    stored.corrections.map((c: { message: string; bnac: string; note: string }) => [c.message, c.bnac, c.note]),
    [[replies[0], 'RECIPIENT_NOT_FOUND', 'their unknown-user reply']],
  );
  assert.is(await page.textContent('#corrections-summary'), '1 correction in force');
  assert.is(
    await page.textContent(`#corrections tr[data-correction="${stored.corrections[0].id}"] td:nth-child(4)`),
    'their unknown-user reply',
  );
  await page.screenshot({ path: join(SHOTS, 'classifier-corrected.png'), fullPage: true });

  // The corrections store out of reach (its 503, as corrections-faults.test.ts provokes it) leaves classifying alone,
  // and the rows still show the correction the host answers with
  const unreadable = { error: 'Cannot read the corrections: connect ECONNREFUSED 127.0.0.1:5432' };
  const listing = /\/v1\/corrections(\?|$)/;
  await page.route(listing, (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify(unreadable) })
      : route.continue(),
  );
  await page.click('#classify');
  await page.waitForSelector(`#corrections-summary:has-text("${unreadable.error}")`);
  assert.is(await page.textContent('#summary'), '3 replies classified');
  assert.match(
    (await page.textContent('#results tr[data-row="2"] td.correction')) ?? '',
    /^Corrected \(BNAC\): their unknown-user reply Remove/,
  );
  await page.unroute(listing);

  await page.click('#results tr[data-row="2"] button:has-text("Remove")');
  await page.waitForSelector('#summary:has-text("Correction of reply 2 removed")');
  assert.is(await cell(1, 'bnac').textContent(), before, 'the classifier answers again');
  assert.is(await page.textContent('#corrections-summary'), '0 corrections in force');
  const left = await fetch(`${base}/v1/corrections`, { headers: { 'x-api-key': KEY } }).then((r) => r.json());
  assert.equal(left, { corrections: [], total: 0 });

  await page.close();
});

it('classifier page: a bounce email given through the file picker shows its kind, format and each recipient with its classes', async () => {
  const page = await open('/ui/classifier.html');
  await useKey(page, KEY);
  await page.setInputFiles('#email-file', {
    name: 'bounce.eml',
    mimeType: 'message/rfc822',
    buffer: Buffer.from(BOUNCE_EMAIL),
  });
  await page.waitForSelector('#email-summary:has-text("bounce.eml: 1 recipient")');
  const expected = await fetch(`${base}/v1/bounce-email`, {
    method: 'POST',
    headers: { 'content-type': 'message/rfc822', 'x-api-key': KEY },
    body: BOUNCE_EMAIL,
  }).then((r) => r.json());
  assert.is(expected.recipients[0].recipient, 'nobody-here@example.org');
  assert.is(await page.textContent('#email-kind'), 'failed');
  assert.is(await page.textContent('#email-format'), 'rfc3464');
  const row = page.locator('#email-recipients tr[data-recipient="1"]');
  assert.equal(await row.locator('td').allTextContents(), [
    'nobody-here@example.org',
    'failed',
    '5.1.1',
    '550 5.1.1 <nobody-here@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
    'mx1.example.org',
    expected.recipients[0].bnac.class,
    `${(expected.recipients[0].bnac.probability * 100).toFixed(1)} %`,
    expected.recipients[0].backoff.class,
    expected.recipients[0].backoff.fields.join(', ') || '—',
    expected.recipients[0].backoff.actions.join(', ') || '—',
  ]);
  await page.screenshot({ path: join(SHOTS, 'classifier-email.png'), fullPage: true });
  // The API's refusal (NUL bytes in the headers: not an email) is shown as the page's other errors are
  await page.setInputFiles('#email-file', {
    name: 'binary.eml',
    mimeType: 'message/rfc822',
    buffer: Buffer.from('From: a\u0000b\r\n\r\nbody'),
  });
  const alert = page.locator('#alert[role=alert]');
  await alert.waitFor();
  assert.match((await alert.textContent()) ?? '', /^Cannot classify the email: .+/);
  await page.close();
});

it('a wrong API key shows a clear message, and the right one recovers', async () => {
  const page = await open('/ui/classifier.html');
  await useKey(page, 'not-the-key');
  await page.fill('#replies', '552 5.2.2 Mailbox full');
  await page.click('#classify');
  const alert = page.locator('#alert[role=alert]');
  await alert.waitFor();
  assert.match(
    (await alert.textContent()) ?? '',
    /^The API key was refused \(Invalid API key in the "x-api-key" header\)\. Enter the right key above\.$/,
  );
  await page.screenshot({ path: join(SHOTS, 'wrong-key.png'), fullPage: true });
  await useKey(page, KEY);
  await page.click('#classify');
  await page.waitForSelector('#summary:has-text("1 replies classified")');
  assert.is(await alert.count(), 0, 'the message goes once the key works');
  await page.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY },
    body: JSON.stringify(body),
  });

const GMAIL_RATE =
  '421 4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from ' +
  'your IP address. To protect our users from spam, mail sent from your IP address has been ' +
  'temporarily rate limited. Please visit https://support.google.com/mail/?p=UnsolicitedRateLimitError ' +
  'to review our Bulk Email Senders Guidelines. jane@gmail.com';
const YAHOO_SPAM = '550 5.7.1 <jim@yahoo.com>: Message rejected as spam by Content Filtering.';

it('policies page: lists backoff policies with provider, class and explanation, filters them, draws the class mix and lifts one', async () => {
  const events = (message: string, n: number, context: Record<string, string>) =>
    Array.from({ length: n }, () => ({ message, ...context }));
  const answer = await post('/v1/backoff/events', {
    events: [
      ...events(GMAIL_RATE, 2, {
        localip: '192.0.2.1',
        grouping: '&gmail',
        remotemx: 'gmail-smtp-in.l.google.com',
        remoteip: '198.51.100.7',
      }),
      ...events(YAHOO_SPAM, 2, {
        localip: '192.0.2.2',
        grouping: '&yahoo',
        tenantid: 't1',
        jobid: 'j9',
        recipientdomain: 'yahoo.com',
        remoteip: '198.51.100.8',
      }),
    ],
  }).then((r) => r.json());
  const applied = answer.events.flatMap((e: { policies: string[] }) => e.policies) as string[];
  assert.is(applied.length, 2, `two policies applied: ${JSON.stringify(answer.events)}`);
  const [gmail, yahoo] = await Promise.all(
    applied.map((id) =>
      fetch(`${base}/v1/policies/${encodeURIComponent(id)}`, { headers: { 'x-api-key': KEY } }).then((r) => r.json()),
    ),
  );

  const page = await open('/ui/policies.html');
  await useKey(page, KEY);
  await page.waitForSelector('#summary:has-text("2 of 2 backoff policies and suspensions in force")');
  const gmailRow = page.locator(`#policies tr[data-id="${applied[0]}"]`);
  assert.is(await gmailRow.locator('.provider').textContent(), 'google');
  assert.is(await gmailRow.locator('.class').textContent(), gmail.reason.class);
  assert.match(
    (await gmailRow.locator('.applies').textContent()) ?? '',
    gmail.policy ? /^rate \d+ per \d+ s/ : /^suspend/,
  );
  // A live countdown from the expiry the audit trail recorded: 1800 s TTL, so just under 30 min, and it moves
  const left = await gmailRow.locator('.left').textContent();
  assert.match(left ?? '', /^(29|30) min \d\d s$/);
  // Run in the page, where the DOM's document is the global one (`document` here is the fixtures' builder)
  type Dom = { document: { querySelector(selector: string): { textContent: string | null } | null } };
  await page.waitForFunction(
    (before) =>
      (globalThis as unknown as Dom).document.querySelector('#policies tr[data-id] .left')?.textContent !== before,
    left,
  );

  // The explanation opens from the keyboard and says what triggered it, against what, and what decided the class
  const why = gmailRow.getByRole('button', { name: 'Why' });
  await why.focus();
  await page.keyboard.press('Enter');
  assert.is(await why.getAttribute('aria-expanded'), 'true');
  const detail = page.locator(`#${await why.getAttribute('aria-controls')}`);
  assert.is(await detail.isVisible(), true);
  assert.is(
    await detail.locator('[data-field=trigger]').textContent(),
    `count: ${gmail.reason.trigger.observed} events reached the threshold of 2`,
  );
  assert.is(await detail.locator('[data-field=window]').textContent(), '600 s');
  assert.is(await detail.locator('[data-field=events]').textContent(), String(gmail.reason.events));
  const decided =
    gmail.reason.decidedBy?.rule !== undefined
      ? `rule ${gmail.reason.decidedBy.rule}`
      : `model ${gmail.reason.decidedBy?.model}`;
  assert.ok((await detail.locator('[data-field=decided]').textContent())?.startsWith(decided));
  assert.is(await detail.locator('[data-field=sample]').textContent(), gmail.reason.sample);
  assert.not.match(gmail.reason.sample, /jane@/, 'the sample is masked');

  // Filters: by provider, by class, by IP (on the scope's local IP)
  await page.getByLabel('Provider', { exact: true }).selectOption(yahoo.reason.provider);
  await page.waitForSelector('#summary:has-text("1 of 2")');
  assert.equal(
    await page.locator('#policies tr[data-id]').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).dataset.id)),
    [applied[1]],
  );
  await page.getByLabel('Provider', { exact: true }).selectOption('');
  await page.getByLabel('Class', { exact: true }).selectOption(gmail.reason.class);
  await page.waitForSelector('#summary:has-text("1 of 2")');
  assert.is(await page.locator('#policies tr[data-id]').getAttribute('data-id'), applied[0]);
  await page.getByLabel('Class', { exact: true }).selectOption('');
  await page.getByLabel('IP', { exact: true }).fill('192.0.2.2');
  await page.waitForSelector('#summary:has-text("1 of 2")');
  assert.is(await page.locator('#policies tr[data-id]').getAttribute('data-id'), applied[1]);
  await page.getByLabel('IP', { exact: true }).fill('');

  // The class mix: one bar segment per provider and class applied in the last hour and day
  for (const explained of [gmail, yahoo]) {
    for (const column of [2, 3]) {
      const segment = page.locator(
        `#mix-chart tr[data-provider="${explained.reason.provider}"] td:nth-child(${column}) rect[data-class="${explained.reason.class}"]`,
      );
      assert.is(await segment.getAttribute('data-count'), '1');
    }
  }
  assert.match(
    (await page.locator(`#mix-chart tr[data-provider="google"] td:nth-child(2) svg`).getAttribute('aria-label')) ?? '',
    new RegExp(`^1 ${gmail.reason.class}$`),
  );
  await page.screenshot({ path: join(SHOTS, 'policies.png'), fullPage: true });

  // Lift, confirmed, goes through DELETE; the row goes and the policy is no longer in force
  const deletes: string[] = [];
  page.on('request', (request) => request.method() === 'DELETE' && deletes.push(new URL(request.url()).pathname));
  let asked = '';
  page.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await page.locator(`#policies tr[data-id="${applied[1]}"]`).getByRole('button', { name: 'Lift' }).click();
  await page.waitForSelector(`#done:has-text('Lifted "${applied[1]}".')`);
  assert.match(asked, /^Lift the (policy|suspension) ".+"\? The MTA stops applying it now\.$/);
  assert.equal(deletes, [`/v1/policies/${encodeURIComponent(applied[1]!)}`]);
  assert.is(await page.locator(`#policies tr[data-id="${applied[1]}"]`).count(), 0);
  assert.is(await page.textContent('#summary'), '1 of 1 backoff policies and suspensions in force');
  assert.is(
    (await fetch(`${base}/v1/policies/${encodeURIComponent(applied[1]!)}`, { headers: { 'x-api-key': KEY } })).status,
    404,
  );
  await page.close();
});

it('holds: the overview links its Held count to the warm-up rows held, each marked with its reason', async () => {
  // Two IPs no other test uses, each with an adaptive grouping and a plain one
  const ramp = (grouping: string, extra: object = {}) => ({
    grouping,
    mode: 'AUTO',
    start: { date: day(-4), volume: 100 },
    end: { date: day(25), volume: 50_000 },
    ...extra,
  });
  for (const ip of ['198.51.100.1', '198.51.100.2']) {
    const adaptive = { adaptive: { hold: 0.02, stepBack: 0.5, minAttempts: 100 } };
    const written = await post(`/config/${ip}`, { groupings: [ramp('&gmail', adaptive), ramp('&plain')] });
    assert.is(written.status, 200, await written.text());
  }
  // 5 block-list replies in 200 attempts from 198.51.100.1 to Google: 2.5 %, over the hold of 2 %; the other IP
  // sends cleanly
  const gmail = { localip: '198.51.100.1', remotemx: 'gmail-smtp-in.l.google.com', grouping: '&gmail' };
  const listed = '550 5.7.1 Service unavailable; Client host [198.51.100.1] blocked using zen.spamhaus.org';
  const events = [
    ...Array.from({ length: 195 }, () => ({ ...gmail, outcome: 'delivered' })),
    ...Array.from({ length: 5 }, () => ({ ...gmail, message: listed })),
    ...Array.from({ length: 200 }, () => ({ ...gmail, localip: '198.51.100.2', outcome: 'delivered' })),
  ];
  assert.is((await post('/v1/backoff/events', { events })).status, 200);

  const page = await open('/ui/');
  await useKey(page, KEY);
  await page.waitForSelector('.stat[data-count="held"] .value:has-text("1")');
  await page.locator('.stat[data-count="held"] a:has-text("Held")').click();
  await page.waitForURL(/\/ui\/warmup\.html\?q=held$/);
  await page.waitForSelector('#rows tr[data-ip="198.51.100.1"][data-grouping="&gmail"]');
  assert.is(await page.inputValue('#filter'), 'held');
  assert.is(await page.locator('#rows tr').count(), 1, 'only the held row');
  const mark = page.locator('#rows tr .held-mark');
  assert.is(await mark.textContent(), 'held');
  assert.match(
    (await mark.getAttribute('title')) ?? '',
    /^Held since \d{4}-\d\d-\d\dT[\d:.]+Z: google reputation 2\.5% of 200 attempts in 900s \(hold >= 2%\)\.$/,
  );

  // The two IPs' four rows again, and only the held one carries the mark
  await page.fill('#filter', '198.51.100.0/24');
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#rows tr').length === 4);
  assert.is(await page.locator('#rows .held-mark').count(), 1);
  await page.close();
});

it('no page logged an error', () => {
  assert.equal(pageErrors, []);
});

test.run();
