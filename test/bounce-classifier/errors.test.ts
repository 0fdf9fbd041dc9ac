import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startService } from './_host.ts';
import type { TestService } from './_host.ts';

async function assertError(response: Response, status: number, pattern?: RegExp): Promise<void> {
  assert.is(response.status, status);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  const body = await response.json();
  assert.equal(Object.keys(body), ['error']);
  assert.type(body.error, 'string');
  if (pattern) assert.match(body.error, pattern);
}

const input = suite<{ service?: TestService }>('bounce-classifier bad input', {});
input.before(async (context) => {
  context.service = await startService({
    classifier: 'rules',
    config: { limits: { batchMessages: 5, bodyBytes: 4_096 } },
  });
});
input.after(async (context) => context.service?.close());

input('endpoints answer 400 when JSON is malformed', async ({ service }) => {
  for (const body of ['{"message": ', '', 'null', '[]', '"text"'])
    await assertError(await service!.post('/v1/bnac/single', body), 400);
});

input('endpoints answer 400 when content type is not JSON', async ({ service }) => {
  const body = JSON.stringify({ message: 'x' });
  await assertError(await service!.post('/v1/bnac', body, { 'content-type': 'text/plain' }), 400);
  await assertError(
    await service!.post('/v1/backoff', body, { 'content-type': 'application/x-www-form-urlencoded' }),
    400,
  );
});

input('a batch body mixing or missing both forms is named for what the client meant', async ({ service }) => {
  const cases: [string, unknown, RegExp][] = [
    ['/v2/bnac', { message: 'x', messages: ['y'] }, /^body takes either "message" or "messages", not both$/],
    ['/v1/bnac', { message: 'x', z: 1 }, /^body has unknown property "z"$/],
    ['/v1/bnac', { messages: ['x'], z: 1 }, /^body has unknown property "z"$/],
    ['/v2/bnac', {}, /^body is missing required property "messages" or "message"$/],
  ];
  for (const [path, body, pattern] of cases) await assertError(await service!.post(path, body), 400, pattern);
});

input('endpoints answer 400 when a field is missing, mistyped or unknown', async ({ service }) => {
  const cases: [string, unknown][] = [
    ['/v1/bnac/single', {}],
    ['/v2/bnac/single', { message: 42 }],
    ['/v2/bnac/single', { messages: ['x'] }],
    ['/v1/bnac', { messages: 'x' }],
    ['/v2/bnac', { messages: ['x', 7] }],
    ['/v2/bnac', { message: 'x', messages: ['x'] }],
    ['/v1/backoff', { message: null }],
    ['/v1/backoff', { message: 'x', extra: true }],
    ['/normalise', { text: 'x' }],
  ];
  for (const [path, body] of cases) await assertError(await service!.post(path, body), 400);
});

input('/v1/backoff answers 400 when a query flag is not a boolean', async ({ service }) => {
  await assertError(await service!.post('/v1/backoff?return_probability=maybe', { message: 'x' }), 400);
});

input('batch endpoints answer 413 when the batch is over the limit', async ({ service }) => {
  const messages = Array.from({ length: 6 }, (_, i) => `message ${i}`);
  for (const path of ['/v1/bnac', '/v2/bnac', '/v1/backoff', '/normalise']) {
    await assertError(await service!.post(path, { messages }), 413, /"6" messages: at most "5"/);
    assert.is((await service!.post(path, { messages: messages.slice(0, 5) })).status, 200, `${path} takes 5`);
  }
});

input('endpoints answer 413 when the body is over the limit', async ({ service }) => {
  await assertError(await service!.post('/v1/bnac/single', { message: 'x'.repeat(5_000) }), 413);
  assert.is((await service!.post('/v1/bnac/single', { message: 'still alive' })).status, 200);
});

input.run();

const auth = suite('bounce-classifier API key');

auth(
  "endpoints answer 401 when a key is configured and the header is missing or wrong; the host's and the config's key both open them",
  async () => {
    const service = await startService({
      classifier: 'rules',
      env: { API_KEY: 's3cret' },
      config: { apiKey: 'from-config' },
    });
    try {
      await assertError(await service.get('/v1/cache/info'), 401);
      await assertError(await service.post('/v1/bnac/single', { message: 'x' }, { 'x-api-key': 'wrong' }), 401);
      assert.is((await service.post('/v1/bnac/single', { message: 'x' }, { 'x-api-key': 'from-config' })).status, 200);
      assert.is((await service.post('/v1/bnac/single', { message: 'x' }, { 'X-API-Key': 's3cret' })).status, 200);
      assert.is((await service.get('/v1/cache/stats', { 'x-api-key': 's3cret' })).status, 200);
    } finally {
      await service.close();
    }
  },
);

auth('endpoints answer without a key when none is configured', async () => {
  const service = await startService({ classifier: 'rules' });
  try {
    assert.is((await service.post('/normalise', { message: 'x' }, { 'x-api-key': 'anything' })).status, 200);
  } finally {
    await service.close();
  }
});

auth.run();
