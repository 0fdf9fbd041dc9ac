import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoGrouping, startScheduleHost } from './_host.ts';

test('configurations survive when the host restarts with the default file store', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-restart-'));
  const first = await startScheduleHost({ folder });
  await first.call('POST', '/config/2001:db8::5', {
    groupings: [autoGrouping('&gmail', ['2025-01-01', 1], ['2025-01-05', 5])],
  });
  await first.call('POST', '/config/192.0.2.1', {
    groupings: [autoGrouping('&a', ['2025-01-01', 1], ['2025-01-05', 5])],
  });
  await first.call('PUT', '/config/2001:db8::5/%26gmail/pause');
  await first.call('DELETE', '/config/192.0.2.1');
  const before = (await first.call('GET', '/config')).text;
  await first.close();

  const second = await startScheduleHost({ folder });
  try {
    assert.is((await second.call('GET', '/config')).text, before);
    assert.is((await second.call('GET', '/status/2001:db8::5/%26gmail')).json.status, 'PAUSED');
    assert.is((await second.call('POST', '/config/2001:db8::5', { groupings: [] })).status, 400);
  } finally {
    await second.close();
    await rm(folder, { recursive: true, force: true });
  }
});

test('concurrent pauses and resumes of different groupings lose no update when they race', async () => {
  const host = await startScheduleHost();
  const names = Array.from({ length: 20 }, (_, i) => `&g${i}`);
  await host.call('POST', '/config/192.0.2.2', {
    groupings: names.map((n) => autoGrouping(n, ['2025-01-01', 1], ['2025-01-02', 2])),
  });
  await Promise.all(
    names.map((n, i) => host.call('PUT', `/config/192.0.2.2/${encodeURIComponent(n)}/${i % 2 ? 'pause' : 'resume'}`)),
  );
  await Promise.all(
    names
      .filter((_, i) => i % 2 === 0)
      .map((n) => host.call('PUT', `/config/192.0.2.2/${encodeURIComponent(n)}/pause`)),
  );
  const paused = (await host.call('GET', '/config/192.0.2.2')).json.groupings.map((g: any) => g.paused);
  assert.equal(
    paused,
    names.map(() => true),
  );
  await host.close();
});

test.run();
