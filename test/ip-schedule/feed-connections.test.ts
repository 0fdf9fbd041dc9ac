/**
 * How the host serves the feed's WebSocket: the key check on the upgrade (header or `api_key`), refusals before any
 * handshake, other paths and plain GETs, wss on https, malformed frames, and shutdown; each drop is counted by reason
 * in `capstan_feed_clients_dropped_total`
 */
import { once } from 'node:events';
import { request } from 'node:http';
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { selfSigned, tempDir } from '../host/_fixtures.ts';
import { MtaClient } from './_mta-client.ts';
import { autoGrouping, startScheduleHost, utcDate, withScheduleHost, type ScheduleHost } from './_host.ts';

const KEYS = { authentication: { apikeys: ['k1', 'k2'] } };
const running = (name: string, volume = 100) => autoGrouping(name, [utcDate(0), volume], [utcDate(9), 1000]);

/** `capstan_feed_clients_dropped_total` of the ip-schedule plugin by reason, from the host's /metrics */
async function dropped(host: ScheduleHost): Promise<Record<string, number>> {
  const text = await (await fetch(`${host.url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const [, reason, count] of text.matchAll(
    /^capstan_feed_clients_dropped_total\{reason="(\w+)",plugin="ip-schedule"\} (\d+)$/gm,
  ))
    counts[reason!] = Number(count);
  return counts;
}

/** Opens a WebSocket; resolves with the socket once open, or with the HTTP answer that refused it */
function upgrade(
  address: string,
  options: WebSocket.ClientOptions = {},
): Promise<{ ws?: WebSocket; status?: number; headers?: Record<string, unknown>; body?: string }> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(address, options);
    ws.once('open', () => done({ ws }));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => done({ status: response.statusCode, headers: response.headers, body }));
    });
    ws.once('error', fail);
  });
}

test('the upgrade is answered 401 with a JSON error, before any handshake, without a valid key', async () => {
  await withScheduleHost({ config: KEYS }, async (host) => {
    for (const [address, headers] of [
      [host.feed, {}],
      [`${host.feed}?api_key=k3`, {}],
      [`${host.feed}?api_key=`, {}],
      [host.feed, { 'x-api-key': 'k3' }],
    ] as const) {
      const answer = await upgrade(address, { headers });
      assert.is(answer.status, 401, `${address} ${JSON.stringify(headers)}`);
      assert.type(JSON.parse(answer.body!).error, 'string');
      assert.match(String(answer.headers!['www-authenticate']), /ApiKey/);
    }
  });
});

test('the upgrade opens with the key in X-Api-Key or in api_key, the address configured on the MTA', async () => {
  await withScheduleHost({ config: KEYS }, async (host) => {
    const viaHeader = await upgrade(host.feed, { headers: { 'X-Api-Key': 'k1' } });
    assert.ok(viaHeader.ws, 'opened with the header');
    viaHeader.ws!.close();
    const client = new MtaClient(`${host.feed}?api_key=k2`);
    await client.start();
    assert.is(client.syncs, 1);
    await client.stop();
    assert.is((await host.call('GET', '/v1/policies?api_key=k1')).status, 401, 'HTTP requests still need the header');
    assert.is((await host.call('GET', '/v1/policies', undefined, { 'x-api-key': 'k1' })).status, 200);
  });
});

test('a feed path in CAPSTAN_AUTH_EXEMPT opens without a key; the other paths still ask for one', async () => {
  await withScheduleHost({ config: KEYS, env: { CAPSTAN_AUTH_EXEMPT: '/v1/policies/feed' } }, async (host) => {
    const open = await upgrade(host.feed);
    assert.ok(open.ws, 'opened without a key');
    open.ws!.close();
    assert.is((await upgrade(`${host.url.replace('http', 'ws')}/v1/nothing`)).status, 401);
  });
});

test('an upgrade of a path without a socket is answered as plain HTTP: 404 for an unknown path, the answer for a route', async () => {
  await withScheduleHost({}, async (host) => {
    const unknown = await upgrade(host.feed.replace('/v1/policies/feed', '/v1/nothing'));
    assert.is(unknown.status, 404);
    assert.match(JSON.parse(unknown.body!).error, /No route/);
    // curl --http2 on http:// asks for h2c this way: the request is served as HTTP/1.1
    const status = await new Promise<{ status: number; body: string }>((done) => {
      request(
        `${host.url}/status`,
        { headers: { Connection: 'Upgrade, HTTP2-Settings', Upgrade: 'h2c', 'HTTP2-Settings': '' } },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => done({ status: response.statusCode!, body }));
        },
      ).end();
    });
    assert.equal(status, { status: 200, body: '{"ips":{}}' });
  });
});

test('an upgrade of an unknown path needs a key too when keys are configured', async () => {
  await withScheduleHost({ config: KEYS }, async (host) => {
    assert.is((await upgrade(`${host.url.replace('http', 'ws')}/v1/nothing`)).status, 401);
    assert.is(
      (await upgrade(`${host.url.replace('http', 'ws')}/v1/nothing`, { headers: { 'x-api-key': 'k1' } })).status,
      404,
    );
  });
});

test('a plain GET of the feed gets 426 with Upgrade: websocket', async () => {
  await withScheduleHost({}, async (host) => {
    const response = await fetch(`${host.url}/v1/policies/feed`);
    assert.is(response.status, 426);
    assert.is(response.headers.get('upgrade'), 'websocket');
    assert.match((await response.json()).error, /Upgrade required/);
  });
});

test('an https server serves the feed as wss://', async () => {
  const dir = tempDir();
  const { key, cert } = selfSigned(dir);
  const host = await startScheduleHost({
    folder: dir,
    servers: [{ id: 'secure', type: 'https', listeners: [{ address: '127.0.0.1', port: 8443 }] }],
    pki: { private: [{ id: 'secure', privatekey: { path: key }, certificate: { path: cert } }] },
  });
  try {
    assert.match(host.feed, /^wss:\/\//);
    const { ws } = await upgrade(host.feed, { ca: (await import('node:fs')).readFileSync(cert) });
    const [first] = await once(ws!, 'message');
    assert.equal(JSON.parse(first.toString()), { action: 'VERSION', version: 1 });
    ws!.close();
  } finally {
    await host.close();
  }
});

test('a malformed frame closes that client only; the others keep getting changes', async () => {
  await withScheduleHost({}, async (host) => {
    const good = new MtaClient(host.feed);
    await good.start();
    const { ws: bad } = await upgrade(host.feed);
    const closed = once(bad!, 'close');
    // Opcode 0x3 is reserved: a protocol error
    (bad as unknown as { _socket: { write(b: Buffer): void } })._socket.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]));
    const [code] = await closed;
    assert.is(code, 1002, 'closed for a protocol error');
    const { ws: chatty } = await upgrade(host.feed);
    chatty!.send('{"action":"HELLO"}');
    chatty!.send('not json');
    await host.call('POST', '/config/192.0.2.1', { groupings: [running('&gmail')] });
    await good.until(() => good.policies.size === 1, 1000);
    assert.is(chatty!.readyState, WebSocket.OPEN, 'well-formed messages are ignored');
    assert.equal(await dropped(host), { slow_reader: 0, missed_ping: 0, malformed_frame: 1 });
    chatty!.close();
    await good.stop();
    assert.equal(good.errors, []);
  });
});

test('shutdown closes every feed client with 1001 and does not wait for them', async () => {
  const host = await startScheduleHost();
  const sockets = await Promise.all(Array.from({ length: 5 }, () => upgrade(host.feed)));
  const codes = Promise.all(sockets.map(({ ws }) => once(ws!, 'close').then(([code]) => code)));
  const started = Date.now();
  await host.close();
  assert.equal(await codes, [1001, 1001, 1001, 1001, 1001]);
  assert.ok(Date.now() - started < 2000, `closed in ${Date.now() - started} ms`);
});

test('a client that does not answer pings is dropped, and one that does stays', async () => {
  const lines: string[] = [];
  await withScheduleHost({ config: { feed: { pingInterval: 0.1 } }, log: (line) => lines.push(line) }, async (host) => {
    const { ws: mute } = await upgrade(host.feed, { autoPong: false });
    const { ws: alive } = await upgrade(host.feed);
    const [code] = await once(mute!, 'close');
    assert.is(code, 1006, 'terminated without a close frame');
    assert.ok(lines.some((l) => l.includes('no answer to the last ping')));
    await new Promise((done) => setTimeout(done, 300));
    assert.is(alive!.readyState, WebSocket.OPEN);
    assert.equal(await dropped(host), { slow_reader: 0, missed_ping: 1, malformed_frame: 0 });
    alive!.close();
  });
});

test('a client that stops reading is dropped once it falls maxBufferedBytes behind; it resyncs when it comes back', async () => {
  const lines: string[] = [];
  await withScheduleHost(
    { config: { feed: { maxBufferedBytes: 65536 } }, log: (line) => lines.push(line) },
    async (host) => {
      const groupings = Array.from({ length: 400 }, (_, i) => running(`&g${i}`));
      await host.call('POST', '/config/192.0.2.1', { groupings });
      const reader = new MtaClient(host.feed, { keepFrames: false });
      await reader.start();
      const slow = new MtaClient(host.feed, { keepFrames: false, reconnectMs: 50 });
      await slow.start();
      // Stop reading: the socket's buffers fill, then the server's
      const ws = slow.socket!;
      ws.pause();
      let puts = 0;
      for (let volume = 101; volume < 400; volume++) {
        await host.call('PUT', '/config/192.0.2.1', {
          groupings: groupings.map((g) => ({ ...g, start: { ...g.start, volume } })),
        });
        if (lines.some((l) => l.includes('too far behind'))) break;
        puts++;
      }
      assert.ok(
        lines.some((l) => l.includes('"feed client dropped"') && l.includes('too far behind')),
        'the slow client was dropped',
      );
      assert.ok(puts > 1, `the client was dropped only once behind, not for one large change (after ${puts} changes)`);
      ws.resume();
      const expected = (await host.call('GET', '/v1/policies')).json;
      await reader.until(
        () => JSON.stringify(reader.state()) === JSON.stringify(expected),
        2000,
        'the reader has everything',
      );
      await slow.until(
        () => slow.syncs >= 2 && JSON.stringify(slow.state()) === JSON.stringify(expected),
        3000,
        'the slow client resynced',
      );
      assert.is(reader.connections, 1, 'the reading client was never dropped');
      assert.equal(await dropped(host), { slow_reader: 1, missed_ping: 0, malformed_frame: 0 });
      assert.equal([...reader.errors, ...slow.errors], []);
      await Promise.all([reader.stop(), slow.stop()]);
    },
  );
});

test.run();
