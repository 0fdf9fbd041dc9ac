import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { policyTable } from './table.ts';

test('policyTable gives every class with fields and actions its defaults by action', () => {
  const table = policyTable({ policies: {} });
  assert.equal(table.get('RATE_LIMIT__IP_RATE_LIMIT'), {
    class: 'RATE_LIMIT__IP_RATE_LIMIT',
    fields: ['localip', 'grouping'],
    threshold: 50,
    windowMs: 60_000,
    ttl: 600,
    maxTtl: 21600,
    rate: { count: 60, interval: 60, algorithm: 'TOKENBUCKET' },
    concurrency: undefined,
    suspend: false,
  });
  assert.equal(table.get('CONCURRENCY_LIMIT')!.concurrency, 2);
  assert.equal(table.get('RATE_LIMIT__SERVER_BUSY')!.concurrency, 2, 'both actions');
  assert.ok(table.get('RATE_LIMIT__SERVER_BUSY')!.rate);
  const spam = table.get('CONTENT_REJECTED_SPAM')!;
  assert.equal(
    [spam.suspend, spam.threshold, spam.ttl, spam.fields],
    [true, 20, 300, ['tenantid', 'jobid', 'grouping']],
  );
  assert.is(table.has('GRAYLISTING'), false, 'no fields: nothing to scope by');
  assert.is(table.has('RATE_LIMIT__RECIPIENT_LIMIT'), false);
  assert.equal([...table.keys()].length, 14);
});

test("policyTable takes a class's row from config over its defaults, and drops a disabled class", () => {
  const table = policyTable({
    policies: {
      RATE_LIMIT__GENERAL: { threshold: 5, window: 10, rate: { count: 10, interval: 1 } },
      CONTENT_REJECTED_SPAM: { suspend: false, concurrency: 1, ttl: 60, maxTtl: 30 },
      CONCURRENCY_LIMIT: { enabled: false },
    },
  });
  const general = table.get('RATE_LIMIT__GENERAL')!;
  assert.equal(
    [general.threshold, general.windowMs, general.rate],
    [5, 10_000, { algorithm: 'TOKENBUCKET', count: 10, interval: 1 }],
  );
  const spam = table.get('CONTENT_REJECTED_SPAM')!;
  assert.equal(
    [spam.suspend, spam.concurrency, spam.rate, spam.ttl, spam.maxTtl],
    [false, 1, undefined, 60, 60],
    'maxTtl never below ttl',
  );
  assert.is(table.has('CONCURRENCY_LIMIT'), false);
});

test('policyTable refuses unknown classes, classes without fields and rows that apply nothing', () => {
  assert.throws(() => policyTable({ policies: { NOPE: {} } }), /Unknown backoff class "NOPE" in "backoff.policies"/);
  assert.throws(
    () => policyTable({ policies: { GRAYLISTING: { threshold: 1 } } }),
    /"GRAYLISTING" has no fields to scope a policy by/,
  );
  assert.throws(
    () => policyTable({ policies: { CONTENT_REJECTED_SPAM: { suspend: false } } }),
    /applies nothing: give it "rate", "concurrency" or "suspend": true/,
  );
});

test.run();
