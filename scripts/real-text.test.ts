import { existsSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_DEV_FILE, readDevSet } from './eval.ts';
import { screen } from './real-text.ts';
import { nearCopy, readRealText, splitOf } from './train/real-text.ts';

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

test.run();
