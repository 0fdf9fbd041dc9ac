/** The policy feed through a real host, with a client that behaves as the MTA's (see _mta-client.ts) */
import { once } from 'node:events';
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import { WebSocketServer } from 'ws';
import { MtaClient } from './_mta-client.ts';
import { autoGrouping, utcDate, withScheduleHost, type ScheduleHost } from './_host.ts';

const IP = '192.0.2.1';
const running = (name: string, extra: Record<string, unknown> = {}) =>
  autoGrouping(name, [utcDate(-2), 100], [utcDate(7), 51_200], extra);
const notStarted = (name: string) => autoGrouping(name, [utcDate(3), 100], [utcDate(9), 1000]);
const finished = (name: string) => autoGrouping(name, [utcDate(-20), 100], [utcDate(-10), 1000]);
const HOLD = { id: `warmup-hold:${IP}`, type: 'WARMUP', localip: IP, tag: 'Hold' };

/** Runs `body` with a host and a started client; checks the client saw nothing the real one would refuse */
async function withFeed(
  body: (host: ScheduleHost, client: MtaClient) => Promise<void>,
  options: Parameters<typeof withScheduleHost>[0] = {},
) {
  await withScheduleHost(options, async (host) => {
    const client = new MtaClient(host.feed, { reconnectMs: 100 });
    try {
      await client.start();
      await body(host, client);
      assert.equal(client.errors, [], 'nothing the MTA client would refuse');
    } finally {
      await client.stop();
    }
  });
}

/** Frames after `from` as `ACTION id` */
const actions = (client: MtaClient, from: number) =>
  client.frames.slice(from).map((f) => `${f.action} ${(f.policy ?? f.suspend)?.id ?? ''}`.trim());

/** Makes a write and waits (up to 1 s, the bound) until the client holds what GET /v1/policies answers */
async function change(
  host: ScheduleHost,
  client: MtaClient,
  method: string,
  path: string,
  body?: unknown,
): Promise<number> {
  const from = client.frames.length;
  const response = await host.call(method, path, body);
  assert.is(response.status, 200, `${method} ${path}: ${response.text}`);
  const { json } = await host.call('GET', '/v1/policies');
  await client.until(
    () => JSON.stringify(client.state()) === JSON.stringify(json),
    1000,
    `the state after ${method} ${path}`,
  );
  return from;
}

test('a client gets VERSION 1, a CREATE per policy and suspension in force, then SYNCED', async () => {
  await withScheduleHost({}, async (host) => {
    await host.call('POST', `/config/${IP}`, { groupings: [running('&gmail', { properties: { pool: 'a' } })] });
    await host.call('POST', '/config/192.0.2.2', { groupings: [notStarted('&gmail')] });
    const client = new MtaClient(host.feed);
    await client.start();
    assert.equal(client.frames, [
      { action: 'VERSION', version: 1 },
      {
        action: 'CREATE',
        policy: {
          id: `warmup:${IP}:&gmail`,
          type: 'WARMUP',
          fields: ['LOCALIP', 'GROUPING'],
          if: { localip: IP, grouping: '&gmail' },
          then: {
            rate: { count: 400, interval: 86400, algorithm: 'TOKENBUCKET' },
            tag: 'Day_3',
            properties: { pool: 'a' },
          },
        },
      },
      { action: 'CREATE', suspend: { id: 'warmup-hold:192.0.2.2', type: 'WARMUP', localip: '192.0.2.2', tag: 'Hold' } },
      { action: 'SYNCED' },
    ]);
    assert.equal(
      client.state(),
      (await host.call('GET', '/v1/policies')).json,
      'GET /v1/policies holds the objects the feed sent',
    );
    await client.stop();
  });
});

test('creating, changing and deleting schedules reaches the client within a second as CREATE, UPDATE and DELETE', async () => {
  await withFeed(async (host, client) => {
    let from = await change(host, client, 'POST', `/config/${IP}`, {
      groupings: [running('&gmail'), running('&yahoo')],
    });
    assert.equal(actions(client, from), [`CREATE warmup:${IP}:&gmail`, `CREATE warmup:${IP}:&yahoo`]);
    from = await change(host, client, 'PUT', `/config/${IP}`, {
      groupings: [running('&gmail', { interval: 3600 }), running('&yahoo')],
    });
    assert.equal(actions(client, from), [`UPDATE warmup:${IP}:&gmail`]);
    assert.equal(client.policies.get(`warmup:${IP}:&gmail`)!.then, {
      rate: { count: 400, interval: 3600, algorithm: 'TOKENBUCKET' },
      tag: 'Day_3',
    });
    from = await change(host, client, 'DELETE', `/config/${IP}/%26yahoo`);
    assert.equal(actions(client, from), [`DELETE warmup:${IP}:&yahoo`], 'table row 10');
    from = await change(host, client, 'DELETE', `/config/${IP}`);
    assert.equal(actions(client, from), [`DELETE warmup:${IP}:&gmail`], 'table row 11');
    assert.equal(client.state(), { policies: [], suspends: [] });
  });
});

test('pausing and resuming a grouping beside a running one deletes and creates its policy, holding nothing', async () => {
  await withFeed(async (host, client) => {
    await change(host, client, 'POST', `/config/${IP}`, { groupings: [running('&gmail'), running('&yahoo')] });
    let from = await change(host, client, 'PUT', `/config/${IP}/%26gmail/pause`);
    assert.equal(actions(client, from), [`DELETE warmup:${IP}:&gmail`], 'table row 3');
    from = await change(host, client, 'PUT', `/config/${IP}/%26gmail/resume`);
    assert.equal(actions(client, from), [`CREATE warmup:${IP}:&gmail`], 'table row 7');
    assert.equal(client.suspends.size, 0);
  });
});

test('pausing a whole IP holds it with one suspension created before its policies go, and resuming reverses it', async () => {
  await withFeed(async (host, client) => {
    await change(host, client, 'POST', `/config/${IP}`, { groupings: [running('&gmail'), running('&yahoo')] });
    let from = await change(host, client, 'PUT', `/config/${IP}/pause`);
    assert.equal(
      actions(client, from),
      [`CREATE warmup-hold:${IP}`, `DELETE warmup:${IP}:&gmail`, `DELETE warmup:${IP}:&yahoo`],
      'table row 4',
    );
    assert.equal(client.state(), { policies: [], suspends: [HOLD] });
    from = await change(host, client, 'PUT', `/config/${IP}/resume`);
    assert.equal(
      actions(client, from),
      [`CREATE warmup:${IP}:&gmail`, `CREATE warmup:${IP}:&yahoo`, `DELETE warmup-hold:${IP}`],
      'table row 7',
    );
  });
});

test('a schedule that has not started holds its IP alone, and stays out of the way of a running sibling', async () => {
  await withFeed(async (host, client) => {
    let from = await change(host, client, 'POST', `/config/${IP}`, { groupings: [notStarted('&gmail')] });
    assert.equal(actions(client, from), [`CREATE warmup-hold:${IP}`], 'table row 5');
    from = await change(host, client, 'PUT', `/config/${IP}`, { groupings: [notStarted('&gmail'), running('&yahoo')] });
    assert.equal(actions(client, from), [`CREATE warmup:${IP}:&yahoo`, `DELETE warmup-hold:${IP}`]);
  });
});

test('a finished schedule keeps a policy without a rate while its IP warms up, and nothing once all are done', async () => {
  await withFeed(async (host, client) => {
    await change(host, client, 'POST', `/config/${IP}`, { groupings: [finished('&gmail'), running('&yahoo')] });
    assert.equal(client.policies.get(`warmup:${IP}:&gmail`)!.then, { tag: 'Finished' }, 'table row 8');
    const from = await change(host, client, 'PUT', `/config/${IP}`, {
      groupings: [finished('&gmail'), finished('&yahoo')],
    });
    assert.equal(actions(client, from), [`DELETE warmup:${IP}:&gmail`, `DELETE warmup:${IP}:&yahoo`], 'table row 9');
  });
});

test('a MANUAL day of 0 messages holds the IP', async () => {
  await withFeed(async (host, client) => {
    const manual = {
      grouping: '&gmail',
      mode: 'MANUAL',
      start: { date: utcDate(0) },
      schedule: [
        { day: 1, messages: 0 },
        { day: 2, messages: 10 },
      ],
    };
    await change(host, client, 'POST', `/config/${IP}`, { groupings: [manual] });
    assert.equal(client.state(), { policies: [], suspends: [HOLD] }, 'table row 6');
  });
});

test('a client that reconnects gets the whole state again and drops what was not re-sent', async () => {
  await withFeed(async (host, client) => {
    await change(host, client, 'POST', `/config/${IP}`, { groupings: [running('&gmail'), running('&yahoo')] });
    await change(host, client, 'POST', '/config/192.0.2.2', { groupings: [notStarted('&gmail')] });
    client.drop();
    // While it is away: one policy changes, one goes, a suspension goes, a policy comes
    await host.call('PUT', `/config/${IP}`, { groupings: [running('&gmail', { interval: 60 })] });
    await host.call('DELETE', '/config/192.0.2.2');
    await host.call('POST', '/config/192.0.2.3', { groupings: [running('&gmail')] });
    await client.until(() => client.syncs === 2, 2000, 'the second SYNCED');
    assert.equal(client.state(), (await host.call('GET', '/v1/policies')).json);
    assert.equal([...client.policies.keys()].sort(), [`warmup:${IP}:&gmail`, 'warmup:192.0.2.3:&gmail']);
    assert.is(
      (client.policies.get(`warmup:${IP}:&gmail`)!.then.rate as { interval: number }).interval,
      60,
      'the CREATE of a held id updated it',
    );
    assert.is(client.suspends.size, 0);
  });
});

test('GET /v1/policies reflects a write this host answered, at once', async () => {
  await withScheduleHost({}, async (host) => {
    for (let i = 0; i < 20; i++) {
      await host.call('POST', `/config/10.0.0.${i}`, { groupings: [running('&gmail')] });
      const { json } = await host.call('GET', '/v1/policies');
      assert.is(json.policies.length, i + 1);
    }
  });
});

test('the MTA client stops when the first frame is not VERSION 1', async () => {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  server.on('connection', (ws) => ws.send(JSON.stringify({ action: 'VERSION', version: 2 })));
  const client = new MtaClient(`ws://127.0.0.1:${(server.address() as { port: number }).port}`, { reconnectMs: 50 });
  await client.start(300).catch(() => undefined);
  await new Promise((done) => setTimeout(done, 300));
  assert.is(client.connections, 1, 'it did not reconnect');
  assert.equal(client.errors, ['version 2: the client stops']);
  server.close();
});

test.run();
