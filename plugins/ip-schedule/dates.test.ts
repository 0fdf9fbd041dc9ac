import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatDate, offsetMinutes, parseDate, today } from './dates.ts';

test('parseDate accepts a date when it exists in the calendar', () => {
  for (const text of ['2024-02-29', '2000-02-29', '2025-12-31', '1970-01-01', '2025-01-31', '0099-03-01']) {
    const day = parseDate(text);
    assert.type(day, 'number', text);
    assert.is(formatDate(day!), text);
  }
});

test('parseDate rejects a date when it is not in the calendar or badly written', () => {
  for (const text of [
    '2025-02-29',
    '1900-02-29',
    '2025-04-31',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '2025-1-01',
    '20250101',
    '2025-01-01T00:00:00Z',
    ' 2025-01-01',
  ]) {
    assert.is(parseDate(text), undefined, text);
  }
});

test('parseDate counts days when crossing month, year and leap-day boundaries', () => {
  const span = (a: string, b: string) => parseDate(b)! - parseDate(a)!;
  assert.is(span('2025-01-31', '2025-02-01'), 1);
  assert.is(span('2024-12-31', '2025-01-01'), 1);
  assert.is(span('2024-02-28', '2024-03-01'), 2);
  assert.is(span('2025-02-28', '2025-03-01'), 1);
  assert.is(span('2024-01-01', '2025-01-01'), 366);
  assert.is(span('2100-02-28', '2100-03-01'), 1);
  assert.is(formatDate(parseDate('2024-02-28')! + 1), '2024-02-29');
});

test('today follows the time zone when the UTC date differs from the local one', () => {
  const instant = new Date('2025-01-01T02:30:00Z');
  assert.is(formatDate(today('UTC', instant)), '2025-01-01');
  assert.is(formatDate(today('America/New_York', instant)), '2024-12-31');
  assert.is(formatDate(today('Pacific/Kiritimati', new Date('2024-12-31T10:00:00Z'))), '2025-01-01');
  assert.is(formatDate(today('Asia/Kolkata', new Date('2024-02-28T18:30:00Z'))), '2024-02-29');
});

test('offsetMinutes gives minutes east of UTC when the zone observes daylight saving', () => {
  assert.is(offsetMinutes('UTC', new Date('2025-06-01T12:00:00Z')), 0);
  assert.is(offsetMinutes('Europe/Stockholm', new Date('2025-01-15T12:00:00Z')), 60);
  assert.is(offsetMinutes('Europe/Stockholm', new Date('2025-07-15T12:00:00Z')), 120);
  assert.is(offsetMinutes('America/New_York', new Date('2025-01-15T12:00:00Z')), -300);
  assert.is(offsetMinutes('Asia/Kathmandu', new Date('2025-01-15T12:00:00.999Z')), 345);
  // one second before and after the spring-forward instant in Stockholm (01:00 UTC)
  assert.is(offsetMinutes('Europe/Stockholm', new Date('2025-03-30T00:59:59Z')), 60);
  assert.is(offsetMinutes('Europe/Stockholm', new Date('2025-03-30T01:00:00Z')), 120);
});

test.run();
