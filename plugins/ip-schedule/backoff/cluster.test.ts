import { setTimeout as sleep } from 'node:timers/promises';
import { test } from '../../../test/_deadline.ts';
import * as assert from 'uvu/assert';
import type { CountBatch } from '../../../runtime/mod.ts';
import { CountSync } from './cluster.ts';
import { BackoffEngine } from './engine.ts';
import { Providers } from './providers.ts';
import { policyTable } from './table.ts';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

test("the timer's exchanges follow the injected clock: none while it stands still, one once it has moved on", async () => {
  // A fake clock years behind the system's: a timer reading Date.now would find every exchange long overdue
  let now = Date.parse('2020-01-01T00:00:00Z');
  const exchanges: (CountBatch | undefined)[] = [];
  const sync = new CountSync({
    store: {
      exchangeCounts: async (_host, batch, after) => {
        exchanges.push(batch);
        return { cursor: after, batches: [] };
      },
      claimCounts: async () => [],
    },
    engine: new BackoffEngine(policyTable({ policies: {} }), {
      providers: new Providers(),
      shares: [],
      inForce: () => undefined,
      cluster: true,
    }),
    now: () => now,
    retainMs: 60_000,
    log: silent,
  });
  try {
    await sync.sync();
    assert.is(exchanges.length, 1);
    // Several of the timer's 200 ms ticks, with the clock where the last exchange left it
    await sleep(700);
    assert.is(exchanges.length, 1, 'no exchange while the clock stands still');
    now += 200;
    await sleep(450);
    assert.is(exchanges.length, 2, 'one exchange once the clock has moved past the interval');
  } finally {
    sync.close();
  }
});

test.run();
