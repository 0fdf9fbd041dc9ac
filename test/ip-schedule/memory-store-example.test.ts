import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { usePlugin } from '../../runtime/mod.ts';
import type { ScheduleStore } from '../../runtime/mod.ts';
import { storeConformance } from '../conformance/store.ts';
import { autoGrouping, withScheduleHost } from './_host.ts';

const EXAMPLE = fileURLToPath(new URL('../../docs/examples/memory-store', import.meta.url));

const NO_AUDIT = 'the example keeps nothing across a restart, so it keeps no audit trail (the host still logs every entry)';
storeConformance('memory-store (docs example)', async () => {
  const plugin = await usePlugin<ScheduleStore>({ id: 'memory', path: EXAMPLE });
  return { store: plugin.service, close: plugin.close };
}, {
  skip: Object.fromEntries([
    'audit entries go with the writes that succeed, and only those',
    'audit queries filter by time, action, subject and principal',
    'audit queries page newest first with limit and before',
    'audit entries survive a restart',
  ].map((title) => [title, NO_AUDIT])),
});

test('the docs memory store serves the API when ip-schedule config names it', async () => {
  await withScheduleHost({ plugins: [{ id: 'memory', path: EXAMPLE }], config: { store: 'memory' } }, async (host) => {
    assert.is((await host.call('POST', '/config/192.0.2.1', { groupings: [autoGrouping('&a', ['2025-01-01', 1], ['2025-01-02', 2])] })).status, 200);
    assert.equal(Object.keys((await host.call('GET', '/status')).json.ips), ['192.0.2.1']);
  });
});

test.run();
