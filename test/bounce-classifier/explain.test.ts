/**
 * `?explain=true` on /v2/bnac/single, /v2/bnac and /v1/backoff, over HTTP with the built-in model and with a classifier
 * that cannot explain: what decided each class, answers unchanged without the flag, and the cache left as it was
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { suite } from '../_deadline.ts';
import { startService } from './_host.ts';
import type { TestService } from './_host.ts';
import { calls } from './fixtures/counting-classifier.ts';

const GREY = '451 4.7.1 Greylisting in effect, please come back later';
// No rule of the model reads it: the trained model decides
const BUSY = '421 Server overloaded, please slow down your delivery to bob@example.org';

const built = suite('explanations with the built-in model');
let service: TestService;
built.before(async () => {
  service = await startService();
});
built.after(async () => service?.close());

const post = async (path: string, body: unknown) => {
  const response = await service.post(path, body);
  assert.is(response.status, 200, path);
  return response.json();
};

built('/v2/bnac/single answers as before without the flag', async () => {
  assert.equal(Object.keys(await post('/v2/bnac/single', { message: BUSY })), ['class', 'probability']);
  assert.equal(Object.keys(await post('/v2/bnac/single?explain=false', { message: BUSY })), ['class', 'probability']);
});

built('/v2/bnac/single names the rule when a rule decided, the top words when the model did', async () => {
  const rule = await post('/v2/bnac/single?explain=true', { message: GREY });
  assert.equal(rule.explanation, { by: 'rule', rule: 'greylisting' });
  const model = await post('/v2/bnac/single?explain=true', { message: BUSY });
  const plain = await post('/v2/bnac/single', { message: BUSY });
  assert.is(model.class, plain.class);
  assert.is(model.probability, plain.probability);
  assert.is(model.explanation.by, 'model');
  const { features } = model.explanation;
  assert.ok(features.length >= 1 && features.length <= 5, JSON.stringify(features));
  assert.is(features[0].feature, 'overloaded');
  const weights = features.map((f: { weight: number }) => f.weight);
  assert.equal(
    weights,
    [...weights].sort((a, b) => b - a),
    'heaviest first',
  );
  assert.ok(weights.every((w: number) => w > 0));
  assert.not.ok(JSON.stringify(features).includes('bob'), 'words of the normalised reply: the address is masked');
});

built('/v2/bnac explains each message of a batch in input order; a {message} body answers one object', async () => {
  const batch = await post('/v2/bnac?explain=true', { messages: [BUSY, GREY, BUSY] });
  assert.equal(
    batch.map((r: { explanation: { by: string } }) => r.explanation.by),
    ['model', 'rule', 'model'],
  );
  assert.equal(batch[0], batch[2]);
  assert.equal(await post('/v2/bnac?explain=true', { message: GREY }), batch[1]);
});

built(
  '/v1/backoff explains with and without probability and with the cache bypassed; /v1/bnac ignores the flag',
  async () => {
    for (const query of ['explain=true', 'explain=true&return_probability=true', 'explain=true&bypass_cache=true']) {
      const [result] = await post(`/v1/backoff?${query}`, { message: BUSY });
      assert.is(result.explanation.by, 'model', query);
      assert.is(result.explanation.features[0].feature, 'overloaded', query);
    }
    const [plain] = await post('/v1/backoff', { message: BUSY });
    assert.equal(Object.keys(plain), ['class', 'fields', 'actions']);
    assert.equal(Object.keys(await post('/v1/bnac/single?explain=true', { message: BUSY })), ['class']);
  },
);

built('explanations leave the cache as it was: the cached class is answered, nothing more is stored', async () => {
  const message = `${BUSY} (cache probe)`;
  await post('/v2/bnac/single', { message });
  const before = await (await service.get('/v1/cache/stats')).json();
  await post('/v2/bnac/single?explain=true', { message });
  const after = await (await service.get('/v1/cache/stats')).json();
  assert.is(after.hit_requests, before.hit_requests + 1, 'the class came from the cache');
  assert.is(after.number_of_elements, before.number_of_elements, 'no entry added');
});

built(
  'a large explained batch leaves room for other requests: a plain one sent after it is answered first',
  async () => {
    const messages = Array.from(
      { length: 600 },
      (_, i) => `421 Server overloaded, please slow down your delivery of batch ${i} word${i}`,
    );
    // Classes from the cache, so that the batch is explaining by the time the plain request arrives
    await post('/v2/bnac', { messages });
    let explainedDone = false;
    const explained = post('/v2/bnac?explain=true', { messages }).then((body) => {
      explainedDone = true;
      return body;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await post('/v2/bnac/single', { message: GREY });
    assert.not.ok(explainedDone, 'the plain request waited for the whole explained batch');
    assert.is((await explained).length, messages.length);
  },
);

built('a non-boolean explain answers 400', async () => {
  const response = await service.post('/v2/bnac/single?explain=maybe', { message: GREY });
  assert.is(response.status, 400);
});

built("/v1/bounce-email explains each classified recipient's classes as /v2/bnac and /v1/backoff do", async () => {
  const raw = readFileSync(
    join(import.meta.dirname, '../../plugins/bounce-classifier/email/fixtures/exim.eml'),
    'utf8',
  );
  const send = async (query: string) => {
    const response = await service.post(`/v1/bounce-email${query}`, raw, { 'content-type': 'message/rfc822' });
    assert.is(response.status, 200, query);
    return (await response.json()).recipients.filter((r: { bnac?: unknown }) => r.bnac);
  };
  const plain = await send('');
  const explained = await send('?explain=true');
  assert.ok(plain.length >= 2, 'the fixture has classified recipients');
  for (const r of plain) assert.not.ok('explanation' in r.bnac || 'explanation' in r.backoff, r.recipient);
  for (const [i, r] of explained.entries()) {
    // The same classes, each with what decided it, as the reply's own explanation on the classify endpoints
    assert.equal([r.bnac.class, r.backoff.class], [plain[i].bnac.class, plain[i].backoff.class]);
    const bnac = await post('/v2/bnac/single?explain=true', { message: r.reply });
    const [backoff] = await post('/v1/backoff?explain=true', { message: r.reply });
    assert.equal([r.bnac.explanation, r.backoff.explanation], [bnac.explanation, backoff.explanation], r.reply);
  }
});

built.run();

const echo = suite('explanations with a classifier that cannot explain');
echo('its answers carry no explanation', async () => {
  const other = await startService({ classifier: 'echo' });
  try {
    const body = await (await other.post('/v2/bnac/single?explain=true', { message: GREY })).json();
    assert.not.ok('explanation' in body, JSON.stringify(body));
  } finally {
    await other.close();
  }
});
echo.run();

const counting = suite('explanations with a classifier that normalises');
counting('each reply of an explained batch is normalised once', async () => {
  const other = await startService({ classifier: 'counting' });
  try {
    const before = calls.normalise;
    const response = await other.post('/v2/bnac?explain=true', { messages: [GREY, BUSY, GREY] });
    assert.is(response.status, 200);
    const body = await response.json();
    assert.equal(
      body.map((r: { explanation: unknown }) => r.explanation),
      [
        { by: 'rule', rule: 'counted' },
        { by: 'rule', rule: 'counted' },
        { by: 'rule', rule: 'counted' },
      ],
    );
    assert.is(calls.normalise - before, 3);
  } finally {
    await other.close();
  }
});
counting.run();
