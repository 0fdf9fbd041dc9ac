import * as assert from 'uvu/assert';
import { test } from '../../../test/_deadline.ts';
import { Providers } from '../backoff/providers.ts';
import { policyTable } from '../backoff/table.ts';
import { engineSimulator, type ClassifiedAttempt } from './simulate.ts';

const T0 = Date.parse('2025-03-10T12:00:00Z');
const table = policyTable({
  policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 2, window: 60, ttl: 100, maxTtl: 400 } },
});
const attempt = (seconds: number, extra: Partial<ClassifiedAttempt> = {}): ClassifiedAttempt => ({
  time: T0 + seconds * 1000,
  localIp: '192.0.2.1',
  recipientDomain: 'example.com',
  remoteMx: 'mx.example.com',
  remoteIp: '198.51.100.1',
  outcome: 'deferred',
  reply: '421 slow down',
  provider: 'example',
  backoff: 'RATE_LIMIT__IP_RATE_LIMIT',
  bnac: 'x',
  ...extra,
});

test("the engine on a simulated clock: apply, escalate, expire at the TTL's end, each with its reason", () => {
  const sim = engineSimulator(table, { providers: new Providers(), shares: [] });
  const kinds = (seconds: number, extra?: Partial<ClassifiedAttempt>) =>
    sim.observe(attempt(seconds, extra)).map((d) => [d.kind, (d.time - T0) / 1000]);
  assert.equal(kinds(0), []);
  const [applied] = sim.observe(attempt(1));
  assert.equal(applied, {
    time: T0 + 1000,
    kind: 'apply',
    policyId: 'backoff:RATE_LIMIT__IP_RATE_LIMIT?localip=192.0.2.1&grouping=example',
    localIp: '192.0.2.1',
    provider: 'example',
    class: 'RATE_LIMIT__IP_RATE_LIMIT',
    reason: 'RATE_LIMIT__IP_RATE_LIMIT: 2 in 60s (>= 2), 192.0.2.1 to example.com; rate 60/60 s for 100 s',
  });
  assert.equal(kinds(2, { outcome: 'sent', backoff: undefined }), [], 'a delivery counts for nothing');
  assert.equal(kinds(3, { backoff: 'GRAYLISTING' }), [], 'a class without a policy counts for nothing');
  kinds(4);
  assert.equal(
    sim.observe(attempt(5)).map((d) => [d.kind, d.reason]),
    [
      [
        'escalate',
        'again while in force, level 1: RATE_LIMIT__IP_RATE_LIMIT: 2 in 60s (>= 2), 192.0.2.1 to example.com; rate 30/60 s for 200 s',
      ],
    ],
  );
  const sent = { outcome: 'sent', backoff: undefined } as const;
  assert.equal(kinds(204, sent), [], 'in force until 5 + 200 s');
  assert.equal(kinds(230, sent), [['expire', 205]], 'reported at its expiry, by the first attempt after it');
});

test('finish reports what lapsed by the end of the log, and not what is still in force then', () => {
  const sim = engineSimulator(table, { providers: new Providers(), shares: [] });
  sim.observe(attempt(0));
  sim.observe(attempt(1));
  assert.equal(sim.finish(T0 + 101_000), [], 'expires at 101 s: still in force at the end');
  const later = engineSimulator(table, { providers: new Providers(), shares: [] });
  later.observe(attempt(0));
  later.observe(attempt(1));
  assert.equal(
    later.finish(T0 + 150_000).map((d) => [d.kind, (d.time - T0) / 1000]),
    [['expire', 101]],
  );
});

test.run();
