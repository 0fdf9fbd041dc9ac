import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { startService } from './_host.ts';
import type { TestService } from './_host.ts';

const GREY = '451 4.7.1 Greylisting in effect, please come back later';
const UNKNOWN = '550 5.1.1 The email account that you tried to reach does not exist';
const FULL = '552 5.2.2 Mailbox full: quota exceeded';

// Read from the spec rather than from generated/, so a drift in the generator or in the code shows
const SPEC = parse(readFileSync(new URL('../../spec/openapi/bounce-classifier.yaml', import.meta.url), 'utf8'));
const BACKOFF_CLASS = SPEC.components.schemas.BackoffClass;

const rules = suite<{ service?: TestService }>('bounce-classifier API with the rules classifier', {});
rules.before(async (context) => {
  context.service = await startService({ classifier: 'rules' });
});
rules.after(async (context) => context.service?.close());

rules('/v1/bnac/single answers the class only when given a message', async ({ service }) => {
  const response = await service!.post('/v1/bnac/single', { message: GREY });
  assert.is(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(await response.json(), { class: 'GRAYLISTING' });
});

rules('/v2/bnac/single answers class and probability when given a message', async ({ service }) => {
  const body = await (await service!.post('/v2/bnac/single', { message: GREY })).json();
  assert.equal(Object.keys(body), ['class', 'probability']);
  assert.is(body.class, 'GRAYLISTING');
  assert.ok(body.probability >= 0 && body.probability <= 1);
});

rules('/v1/bnac and /v2/bnac answer in input order when given messages', async ({ service }) => {
  const messages = [FULL, GREY, UNKNOWN, GREY];
  const singles = await Promise.all(
    messages.map(async (message) => (await service!.post('/v2/bnac/single', { message })).json()),
  );
  assert.equal(await (await service!.post('/v2/bnac', { messages })).json(), singles);
  assert.equal(
    await (await service!.post('/v1/bnac', { messages })).json(),
    singles.map((s) => ({ class: s.class })),
  );
});

rules('/v1/bnac and /v2/bnac answer one object when given one message', async ({ service }) => {
  assert.equal(await (await service!.post('/v1/bnac', { message: GREY })).json(), { class: 'GRAYLISTING' });
  const v2 = await (await service!.post('/v2/bnac', { message: GREY })).json();
  assert.is(v2.class, 'GRAYLISTING');
  assert.type(v2.probability, 'number');
});

rules('batch endpoints answer an empty array when given no messages', async ({ service }) => {
  for (const path of ['/v1/bnac', '/v2/bnac', '/v1/backoff']) {
    const response = await service!.post(path, { messages: [] });
    assert.is(response.status, 200, path);
    assert.equal(await response.json(), [], path);
  }
});

rules('/v1/backoff answers an array with fields and actions when given one message', async ({ service }) => {
  const body = await (await service!.post('/v1/backoff', { message: '421 Too many connections from your IP' })).json();
  assert.equal(body, [{ class: 'CONCURRENCY_LIMIT', fields: ['localip', 'grouping'], actions: ['concurrency'] }]);
  const empty = await (await service!.post('/v1/backoff', { messages: [GREY] })).json();
  assert.equal(empty, [{ class: 'GRAYLISTING', fields: [], actions: [] }]);
});

rules('/v1/backoff adds probability only when return_probability is true', async ({ service }) => {
  const plain = await (await service!.post('/v1/backoff?return_probability=false', { message: GREY })).json();
  assert.not.ok('probability' in plain[0]);
  const withProbability = await (
    await service!.post('/v1/backoff?return_probability=true', { messages: [GREY, FULL] })
  ).json();
  assert.is(withProbability.length, 2);
  for (const result of withProbability) assert.ok(result.probability >= 0 && result.probability <= 1);
});

rules("/normalise answers the classifier's own normalised text when given a message", async ({ service }) => {
  const body = await (
    await service!.post('/normalise', { message: '550 5.7.1  Blocked, see https://example.com/x' })
  ).json();
  assert.equal(body, { normalised: '550 5_7_1 blocked, see https://example.com/x' });
});

rules('/normalise answers each normalised text in order when given a batch', async ({ service }) => {
  const messages = ['550 5.7.1  Blocked', '', '421 4.7.0 Try later', '550 5.7.1  Blocked'];
  const body = await (await service!.post('/normalise', { messages })).json();
  assert.equal(body, { normalised: ['550 5_7_1 blocked', '', '421 4_7_0 try later', '550 5_7_1 blocked'] });
});

rules('classifying endpoints answer cleanly when text is NUL, odd Unicode or very long', async ({ service }) => {
  const messages = ['\u0000', 'a\u0000b', '\ud800\udfff\ud800', '🙂 550 5.1.1 😀', 'ошибка', '', 'x'.repeat(1_000_000)];
  const response = await service!.post('/v2/bnac', { messages });
  assert.is(response.status, 200);
  assert.is((await response.json()).length, messages.length);
  assert.is((await service!.post('/v1/backoff', { message: messages[2] })).status, 200);
});

rules.run();

const echo = suite<{ service?: TestService }>('bounce-classifier API with the echo classifier', {});
echo.before(async (context) => {
  context.service = await startService({ classifier: 'echo', config: { cache: { enabled: false } } });
});
echo.after(async (context) => context.service?.close());

echo('/v1/backoff answers fields and actions of the class table when given each class', async ({ service }) => {
  const classes: string[] = BACKOFF_CLASS.enum;
  const body = await (await service!.post('/v1/backoff', { messages: classes })).json();
  assert.equal(
    body,
    classes.map((name) => ({ class: name, ...BACKOFF_CLASS['x-table'].rows[name] })),
  );
});

echo("/v1/bnac answers each class of the spec's BnacClass enum", async ({ service }) => {
  const classes: string[] = SPEC.components.schemas.BnacClass.enum;
  const body = await (await service!.post('/v1/bnac', { messages: classes })).json();
  assert.equal(
    body,
    classes.map((name) => ({ class: name })),
  );
});

echo('classifying endpoints answer 500 when the classifier returns an unknown class', async ({ service }) => {
  const response = await service!.post('/v1/bnac/single', { message: 'NOT_A_CLASS' });
  assert.is(response.status, 500);
  assert.type((await response.json()).error, 'string');
  assert.is((await service!.post('/v1/backoff', { message: 'GRAYLISTING' })).status, 200);
});

echo.run();
