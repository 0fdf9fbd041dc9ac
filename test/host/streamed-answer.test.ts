/**
 * A handler's `json` as an async iterable of Buffer batches (plugin API 1.7): sent chunked as the batches come, the
 * iterable closed when the client goes away, and a failure past the head cuts the answer instead of ending it short
 */
import { request } from 'node:http';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost, type Host } from '../../runtime/mod.ts';
import { test } from '../_deadline.ts';
import { document, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
// GET /status streams: `?q=fail` throws after the first batch, `?q=endless` never ends; GET /status/<ip> tells how many
// answers were closed (their iterable's `finally` ran) and how often an iterable was asked for a batch after its first
// (`?q=big`: one batch far larger than the socket takes, so that the host waits for it to drain)
const streaming = writePlugin(dir, 'streaming', {
  'mod.ts': `
import { definePlugin, Type } from '@capstan';
let closed = 0;
let resumed = 0;
async function* batches(query) {
  try {
    yield [Buffer.from('{"ips":{'), Buffer.from('"192.0.2.1":{"groupings":[]}')];
    if (query.q === 'big') {
      yield [Buffer.from(',"192.0.2.2":{"groupings":[]}' + ' '.repeat(64 * 1024 * 1024))];
      resumed++;
      yield [Buffer.from('}}')];
      return;
    }
    if (query.q === 'fail') throw new Error('Encoding failed');
    for (let i = 2; query.q === 'endless' || i < 4; i++) {
      await new Promise((done) => setImmediate(done));
      yield [Buffer.from(',"192.0.2.' + i + '":{"groupings":[]}' + ' '.repeat(64 * 1024))];
    }
    yield [Buffer.from('}}')];
  } finally {
    closed++;
  }
}
export default definePlugin({
  id: 'streaming',
  kind: 'api',
  api: 'ip-schedule',
  apiVersion: '^1.7.0',
  config: Type.Object({}),
  setup() {
    return {
      handlers: {
        getStatusAll: ({ query }) => ({ json: batches(query) }),
        getStatus: () => ({ body: { closed, resumed } }),
      },
    };
  },
});
`,
});

let host: Host;
let base: string;

test.before(async () => {
  host = await startHost(document([{ id: 'streaming', path: streaming }]), {
    baseDir: dir,
    ephemeralPorts: true,
    log: createLogger({ service: 'test', write: () => {} }),
  });
  base = host.urls[0]!;
});

test.after(() => host?.close());

const counts = async () =>
  (await (await fetch(`${base}/status/192.0.2.1`)).json()) as { closed: number; resumed: number };
const closed = async () => (await counts()).closed;

test('the batches are sent chunked, one after the other, as one JSON answer', async () => {
  const response = await fetch(`${base}/status`);
  assert.is(response.status, 200);
  assert.is(response.headers.get('transfer-encoding'), 'chunked');
  assert.is(response.headers.get('content-type')?.startsWith('application/json'), true);
  const answer = await response.json();
  assert.equal(Object.keys(answer.ips), ['192.0.2.1', '192.0.2.2', '192.0.2.3']);
  assert.is(await closed(), 1);
});

test('a client that goes away mid-answer closes the iterable', async () => {
  const before = await closed();
  await new Promise<void>((done, fail) => {
    const asked = request(`${base}/status?q=endless`, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        // Gone after a few batches, without reading the rest
        if ((bytes += chunk.length) > 256 * 1024) asked.destroy();
      });
      response.on('close', done);
    });
    asked.on('error', fail);
    asked.end();
  });
  for (let waited = 0; (await closed()) === before && waited < 5000; waited += 50)
    await new Promise((done) => setTimeout(done, 50));
  assert.is(await closed(), before + 1, 'the endless answer stopped');
});

test('a client gone while the host waits for the socket to drain is asked for no further batch', async () => {
  const before = await closed();
  await new Promise<void>((done, fail) => {
    const asked = request(`${base}/status?q=big`, (response) => {
      // Gone once the answer started, reading none of the batch too large for the socket
      response.once('data', () => asked.destroy());
      response.on('close', done);
    });
    asked.on('error', fail);
    asked.end();
  });
  for (let waited = 0; (await closed()) === before && waited < 5000; waited += 50)
    await new Promise((done) => setTimeout(done, 50));
  assert.is(await closed(), before + 1, 'the answer was closed');
  assert.is((await counts()).resumed, 0, 'no batch was made after the client went away');
});

test('a batch failing past the head cuts the answer, and the host keeps serving', async () => {
  const response = await fetch(`${base}/status?q=fail`);
  assert.is(response.status, 200);
  let failed = false;
  try {
    await response.text();
  } catch {
    failed = true;
  }
  assert.ok(failed, 'the client saw the answer cut, not a short answer that ends well');
  assert.is((await fetch(`${base}/status`)).status, 200);
});

test.run();
