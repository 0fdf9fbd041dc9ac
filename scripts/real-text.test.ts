import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_DEV_FILE, readDevSet } from './eval.ts';
import { admit, invalidRow, screen, screenHoldout } from './real-text.ts';
import { excludedSource } from './train/excluded-sources.ts';
import { holdoutFile, nearCopy, readRealText, REAL_TEXT_FILE, splitOf } from './train/real-text.ts';

const DEV = process.env.BOUNCE_DEV ?? DEFAULT_DEV_FILE;

test('nearCopy matches the same reply with another address or IP, a reply inside another, and not another reply', () => {
  assert.ok(
    nearCopy(
      '550 5.1.1 <ann@a.example>: Recipient address rejected: User unknown in local recipient table',
      '550 5.1.1 <bob@b.example>: Recipient address rejected: User unknown in local recipient table',
    ),
  );
  assert.ok(
    nearCopy(
      'Client host [192.0.2.1] blocked using zen.spamhaus.org',
      '554 5.7.1 Service unavailable; Client host [198.51.100.9] blocked using zen.spamhaus.org; see the site',
    ),
  );
  assert.not.ok(nearCopy('552 5.2.2 Mailbox full', '451 4.7.1 Greylisted, please try again in 300 seconds'));
});

test('screen drops a gathered row that is a dev row and gives every kept row its split by source', () => {
  const rows = readRealText().slice(0, 3);
  const { kept, dropped } = screen(rows, [rows[0]!.text.toUpperCase()]);
  assert.is(dropped, 1);
  assert.equal(
    kept.map((r) => r.split),
    kept.map((r) => splitOf(r.source)),
  );
});

test('excludedSource names reserved and dev-listed sources, whole repositories or single threads', () => {
  // Reserved projects by name under any owner: their forks and ports are reserved too
  assert.match(excludedSource('https://github.com/sisimai/p5-sisimai/blob/abc/lib/Sisimai.pm')!, /sisimai/);
  assert.match(excludedSource('https://github.com/someone/go-sisimai/issues/3')!, /sisimai/);
  assert.match(excludedSource('https://github.com/a-fork/PHP-Bounce-Handler/blob/x/rules.php')!, /php-bounce-handler/);
  assert.is(excludedSource('https://GitHub.com/Mailu/Mailu/issues/2416'), 'github.com/mailu/mailu');
  assert.is(excludedSource('https://github.com/maildev/maildev/issues/96'), 'github.com/maildev/maildev/issues/96');
  // Another thread of a repository only one thread of which is reserved, and a longer repository name, stay allowed
  assert.is(excludedSource('https://github.com/maildev/maildev/issues/961'), undefined);
  assert.is(excludedSource('https://github.com/Mailu/Mailu-extras/issues/1'), undefined);
  assert.is(excludedSource('https://github.com/mozilla/fxa/issues/11575'), 'github.com/mozilla/fxa');
  assert.is(
    excludedSource('https://github.com/mozilla/fxa-auth-server/issues/1'),
    'github.com/mozilla/fxa-auth-server',
  );
  assert.is(excludedSource('https://github.com/postfix/postfix/blob/x/src/smtpd.c'), undefined);
  // Owners whose every repository is out: a dev source's sibling projects
  assert.is(excludedSource('https://github.com/jstedfast/MailKit/issues/1106'), 'github.com/jstedfast/');
  assert.is(excludedSource('https://github.com/hitobito/hitobito_pbs/issues/3'), 'github.com/hitobito/');
  // A port of a reserved parser, and the one part of Exim hidden-set sources copied
  assert.match(excludedSource('https://github.com/prasad83/node-bounce-handler/blob/x/lib/bounce.js')!, /node-bounce/);
  assert.match(excludedSource('https://github.com/Exim/exim/blob/13835a3c/test/mail/0001.userx')!, /test/);
  assert.is(excludedSource('https://github.com/Exim/exim/blob/13835a3c/src/src/deliver.c'), undefined);
});

test('screen drops a row of an excluded source and counts it apart from the dev near-copies', () => {
  const [row] = readRealText().slice(0, 1);
  const reserved = { ...row!, source: 'https://github.com/KumoCorp/kumomta/blob/x/bounce.toml' };
  const { kept, dropped, excluded } = screen([row!, reserved], []);
  assert.equal(kept, [{ ...row!, split: splitOf(row!.source) }]);
  assert.is(dropped, 1);
  assert.is(excluded, 1);
  const holdout = screenHoldout([{ ...reserved, split: 'holdout' }], [], []);
  assert.is(holdout.kept.length, 0);
});

test('no gathered or holdout reply comes from a source reserved for judging or listed by the dev sets', () => {
  for (const r of [...readRealText(), ...readRealText('holdout')])
    assert.is(excludedSource(r.source), undefined, `${r.source}: ${r.text}`);
});

test('the gathered set holds no dev row nor a near-copy of one, and each row is labelled, sourced and split', () => {
  const rows = readRealText();
  assert.ok(rows.length >= 100, `${rows.length} rows`);
  for (const r of rows) {
    assert.ok(
      r.source.startsWith('https://') && r.license && (r.commit || r.date),
      `source, licence and commit or date: ${r.text}`,
    );
    assert.is(r.split, splitOf(r.source), `split of ${r.text}`);
  }
  if (!existsSync(DEV)) {
    console.log(`  (dev set not found at ${DEV}: the comparison with its rows is skipped)`);
    return;
  }
  assert.is(
    screen(
      rows,
      readDevSet(DEV).map((d) => d.text),
    ).dropped,
    0,
    'run npm run real-text',
  );
});

test('screenHoldout drops a holdout row that is a dev row or a gathered row, and keeps the others in the holdout', () => {
  const rows = readRealText().slice(0, 3);
  const { kept, dropped, gathered } = screenHoldout(rows, [rows[0]!.text], [rows[1]!.text.toLowerCase()]);
  assert.is(dropped, 2);
  assert.is(gathered, 1);
  assert.equal(kept, [{ ...rows[2]!, split: 'holdout' }]);
});

test('the holdout shares no source and no reply with the other gathered replies, nor a reply with the dev set', () => {
  const gathered = readRealText();
  const holdout = readRealText('holdout');
  assert.ok(holdout.length >= 100, `${holdout.length} holdout rows`);
  const sources = new Set(gathered.map((r) => r.source));
  for (const r of holdout) {
    assert.is(r.split, 'holdout', r.text);
    assert.ok(/^https?:\/\//.test(r.source) && r.license && (r.commit || r.date), `sourced: ${r.text}`);
    assert.not.ok(sources.has(r.source), `a source of replies.jsonl: ${r.source}`);
  }
  const texts = gathered.map((r) => r.text);
  const dev = existsSync(DEV) ? readDevSet(DEV).map((d) => d.text) : [];
  if (dev.length === 0)
    console.log(`  (dev set not found at ${DEV}: the holdout is compared with the gathered rows only)`);
  assert.is(screenHoldout(holdout, dev, texts).dropped, 0, 'run npm run real-text');
});

// ---- rows handed in by gatherers (`--add`) ----

// Written for these tests, not gathered
const good = {
  text: '451 4.7.1 Sending quota of this account used up, try again in an hour',
  bnac: 'RATE_LIMIT',
  backoff: 'RATE_LIMIT__GENERAL',
  source: 'https://example.org/help/quota',
  date: '2026-11-27',
  license: 'none stated; quoted server reply',
};

test('invalidRow names the first problem of a row handed in, and passes a whole one', () => {
  assert.is(invalidRow(good), undefined);
  assert.is(invalidRow({ ...good, ambiguous_bnac: ['RATE_LIMIT', 'BLOCKED'] }), undefined);
  assert.match(invalidRow({ ...good, text: ' ' })!, /"text"/);
  assert.match(invalidRow({ ...good, bnac: 'RATE_LIMITED' })!, /unknown bnac class "RATE_LIMITED"/);
  assert.match(invalidRow({ ...good, ambiguous_backoff: ['RATE_LIMIT__GENERAL', 'FULL'] })!, /list of backoff classes/);
  assert.match(invalidRow({ ...good, ambiguous_backoff: ['GENERIC_BLOCK', 'RATE_LIMIT__GENERAL'] })!, /first/);
  assert.match(invalidRow({ ...good, ambiguous_bnac: ['RATE_LIMIT'] })!, /two or more/);
  assert.match(invalidRow({ ...good, source: 'example.org/help' })!, /"source"/);
  assert.match(invalidRow({ ...good, license: '' })!, /"license"/);
  assert.match(invalidRow({ ...good, date: undefined })!, /"date"/);
});

test('admit sends https sources to the gathered set by split, http ones to the holdout, and leaves out copies', () => {
  const existing = readRealText()[0]!;
  const held = readRealText('holdout').find((r) => r.source.startsWith('https://'))!;
  const http = {
    ...good,
    text: '550 5.7.1 Message refused: your server is on our own deny list',
    source: 'http://example.net/faq',
  };
  const result = admit(
    [
      { at: 'a:1', row: good },
      { at: 'a:2', row: { ...good, text: good.text.replace('an hour', '60 minutes') } },
      { at: 'a:3', row: { ...good, text: existing.text, source: 'https://example.org/other' } },
      { at: 'a:4', row: { ...good, text: '550 Blocked', source: 'https://github.com/KumoCorp/kumomta/issues/1' } },
      { at: 'b:1', row: http },
      { at: 'b:2', row: { ...good, text: '554 5.7.1 Your mail server has no reverse DNS entry', source: held.source } },
    ],
    [existing, held],
  );
  assert.equal(result.invalid, []);
  assert.equal(result.gathered, [{ ...good, split: splitOf(good.source) }]);
  assert.equal(result.holdout, [{ ...http, split: 'holdout' }]);
  assert.is(result.nearCopies, 2);
  assert.is(result.excluded, 1);
  assert.is(result.holdoutSources, 1, "a source the holdout quotes stays the holdout's");
  // The files' field order: split last
  assert.equal(Object.keys(result.gathered[0]!).at(-1), 'split');
});

test('admit adds nothing while any row handed in is invalid', () => {
  const result = admit(
    [
      { at: 'a:1', row: good },
      { at: 'a:2', row: { ...good, backoff: 'FULL' } },
    ],
    [],
  );
  assert.equal(result.invalid, [{ at: 'a:2', why: 'unknown backoff class "FULL"' }]);
  assert.equal([result.gathered, result.holdout], [[], []]);
});

test('npm run real-text -- --add names each invalid row by file and line, and writes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-real-text-'));
  try {
    const dev = join(dir, 'dev.jsonl');
    writeFileSync(
      dev,
      JSON.stringify({ text: '552 5.2.2 Mailbox full', bnac: 'RECIPIENT_ERROR', backoff: 'MAILBOX_FULL' }) + '\n',
    );
    const batch = join(dir, 'batch.jsonl');
    writeFileSync(
      batch,
      [JSON.stringify(good), '', 'not json', JSON.stringify({ ...good, source: 'ftp://x' })].join('\n'),
    );
    const before = [readFileSync(REAL_TEXT_FILE, 'utf8'), readFileSync(holdoutFile(), 'utf8')];
    const script = fileURLToPath(new URL('./real-text.ts', import.meta.url));
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, '--dev', dev, '--add', batch]);
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('close', (c) => resolve({ code: c, stderr: err }));
    });
    assert.is(code, 1, stderr);
    assert.match(stderr, `${batch}:3: no "text"`);
    assert.match(stderr, `${batch}:4: "source" is not an http(s) address`);
    assert.match(stderr, '2 of 3 rows handed in are invalid; nothing added');
    assert.equal([readFileSync(REAL_TEXT_FILE, 'utf8'), readFileSync(holdoutFile(), 'utf8')], before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
