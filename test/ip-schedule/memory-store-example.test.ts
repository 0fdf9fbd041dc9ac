import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoGrouping, withScheduleHost } from './_host.ts';

// Its conformance run is docs/examples/memory-store/conformance.test.ts, written as a plugin author writes one
const EXAMPLE = fileURLToPath(new URL('../../docs/examples/memory-store', import.meta.url));

test('the docs memory store serves the API when ip-schedule config names it', async () => {
  await withScheduleHost({ plugins: [{ id: 'memory', path: EXAMPLE }], config: { store: 'memory' } }, async (host) => {
    assert.is(
      (
        await host.call('POST', '/config/192.0.2.1', {
          groupings: [autoGrouping('&a', ['2025-01-01', 1], ['2025-01-02', 2])],
        })
      ).status,
      200,
    );
    assert.equal(Object.keys((await host.call('GET', '/status')).json.ips), ['192.0.2.1']);
  });
});

test.run();
