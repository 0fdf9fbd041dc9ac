import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoGrouping, withScheduleHost } from './_host.ts';

const groupings = (count: number) =>
  Array.from({ length: count }, (_, i) => autoGrouping(`&g${i}`, ['2025-01-01', 1], ['2025-01-02', 2]));

test('every write to one IP succeeds and none is lost when 60 writers write to it at once', async () => {
  await withScheduleHost({ checkResponses: false }, async (host) => {
    await host.call('POST', '/config/192.0.2.1', { groupings: groupings(60) });
    const statuses: Record<number, number> = {};
    // Each writer pauses, resumes and pauses its own grouping: a lost update would leave some grouping unpaused
    await Promise.all(
      Array.from({ length: 60 }, async (_, w) => {
        for (const action of ['pause', 'resume', 'pause']) {
          const { status } = await host.call('PUT', `/config/192.0.2.1/%26g${w}/${action}`);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      }),
    );
    assert.equal(statuses, { 200: 180 });
    assert.ok((await host.call('GET', '/config/192.0.2.1')).json.groupings.every((g: { paused: boolean }) => g.paused));
  });
});

test('writes past 128 waiting for one IP answer 503 with Retry-After when they arrive at once', async () => {
  await withScheduleHost({ checkResponses: false }, async (host) => {
    await host.call('POST', '/config/192.0.2.1', { groupings: groupings(1) });
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => fetch(`${host.url}/config/192.0.2.1/pause`, { method: 'PUT' })),
    );
    const refused = responses.filter((r) => r.status === 503);
    assert.ok(refused.length > 0 && refused.length <= 200 - 128, `${refused.length} refused`);
    assert.is(responses.filter((r) => r.status === 200).length, 200 - refused.length);
    assert.equal(new Set(refused.map((r) => r.headers.get('retry-after'))), new Set(['1']));
    assert.equal(await refused[0]!.json(), { error: 'Too many writes waiting for IP "192.0.2.1": retry after "1" s' });
    const other = await host.call('PUT', '/config/192.0.2.1/resume');
    assert.is(other.status, 200, 'the IP takes writes again once its queue drains');
  });
});

test.run();
