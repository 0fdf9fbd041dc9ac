/**
 * Operators' corrections over HTTP: the overlay on every classify endpoint, near-duplicates (other addresses and IPs),
 * explanations, the audit trail (ip-schedule's GET /v1/audit over the schedule store), delete, persistence in the cache
 * folder, and two hosts sharing one PostgreSQL schema
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import * as assert from 'uvu/assert';
import { suite } from '../_deadline.ts';
import { DATABASE_URL, dropSchema, requirePostgres } from '../_postgres.ts';
import { startScheduleHost, type ScheduleHost } from '../ip-schedule/_host.ts';
import { correctionsHost, FULL, REPLY, SAME_WORDING } from './_corrections.ts';

const RULES_CLASSIFIER = fileURLToPath(new URL('../../docs/examples/rules-classifier/mod.ts', import.meta.url));

const bnac = async (h: ScheduleHost, message: string, query = '') =>
  (await h.call('POST', `/v2/bnac/single${query}`, { message })).json;
const backoff = async (h: ScheduleHost, message: string) =>
  (await h.call('POST', '/v1/backoff?return_probability=true', { message })).json[0];

const file = suite('corrections in the cache folder');

file(
  'a correction answers the reply and its near-duplicates, marked; delete restores the model; all audited',
  async () => {
    const h = await correctionsHost();
    try {
      const before = await bnac(h, SAME_WORDING);
      assert.is.not(before.class, 'RECIPIENT_NOT_FOUND', 'the model alone gets it wrong');
      const backoffBefore = await backoff(h, SAME_WORDING);
      const created = await h.call('POST', '/v1/corrections', {
        message: REPLY,
        bnac: 'RECIPIENT_NOT_FOUND',
        note: 'their unknown-user reply',
      });
      assert.is(created.status, 201, created.text);
      const { id } = created.json;
      assert.equal(created.json.normalised, (await h.call('POST', '/normalise', { message: REPLY })).json.normalised);
      assert.is(created.json.principal, 'anonymous');

      assert.equal(await bnac(h, SAME_WORDING), { class: 'RECIPIENT_NOT_FOUND', probability: 1, corrected: true });
      assert.equal((await h.call('POST', '/v2/bnac', { messages: [FULL, SAME_WORDING] })).json[1], {
        class: 'RECIPIENT_NOT_FOUND',
        probability: 1,
        corrected: true,
      });
      assert.equal(
        (await h.call('POST', '/v1/bnac/single', { message: SAME_WORDING })).json,
        { class: 'RECIPIENT_NOT_FOUND' },
        'v1 answers the class only',
      );
      assert.equal((await bnac(h, SAME_WORDING, '?explain=true')).explanation, { by: 'correction', correction: id });
      assert.not.ok('corrected' in (await bnac(h, FULL)), "other replies are the model's");
      assert.equal(await backoff(h, SAME_WORDING), backoffBefore, 'a correction of bnac leaves backoff to the model');

      assert.equal((await h.call('GET', '/v1/corrections')).json, { corrections: [created.json], total: 1 });
      const removed = await h.call('DELETE', `/v1/corrections/${id}`);
      assert.equal([removed.status, removed.json], [200, created.json]);
      assert.equal(await bnac(h, SAME_WORDING), before);
      const again = await h.call('DELETE', `/v1/corrections/${id}`);
      assert.equal([again.status, again.json], [404, { error: `Correction "${id}" not found` }]);

      const audit = (await h.call('GET', '/v1/audit')).json.entries.filter((e: { action: string }) =>
        e.action.startsWith('correction.'),
      );
      assert.equal(
        audit.map((e: { action: string }) => e.action),
        ['correction.delete', 'correction.create'],
      );
      assert.equal(audit[1].after, created.json);
      assert.equal([audit[0].before, audit[0].after, audit[0].subject], [created.json, null, { correction: id }]);
    } finally {
      await h.close();
    }
  },
);

file('a correction of the same text replaces the earlier one; bad bodies answer 400', async () => {
  const h = await correctionsHost();
  try {
    const first = (await h.call('POST', '/v1/corrections', { message: REPLY, backoff: 'RECIPIENT_ERROR' })).json;
    const second = (
      await h.call('POST', '/v1/corrections', {
        message: SAME_WORDING,
        backoff: 'MAILBOX_FULL',
        bnac: 'RECIPIENT_ERROR',
      })
    ).json;
    assert.equal(
      (await h.call('GET', '/v1/corrections')).json.corrections.map((c: { id: string }) => c.id),
      [second.id],
    );
    assert.is((await backoff(h, REPLY)).class, 'MAILBOX_FULL');
    const replaced = (await h.call('GET', '/v1/audit?action=correction.replace')).json.entries;
    assert.equal(
      replaced.map((e: { before: unknown }) => e.before),
      [first],
    );
    for (const body of [
      { message: REPLY },
      { message: REPLY, note: 'no class' },
      { message: REPLY, bnac: 'NOT_A_CLASS' },
      { message: REPLY, bnac: 'SPF', colour: 'red' },
    ]) {
      const response = await h.call('POST', '/v1/corrections', body);
      assert.is(response.status, 400, JSON.stringify(body));
    }
  } finally {
    await h.close();
  }
});

file('a page asks for the newest corrections and for those answering its replies', async () => {
  const h = await correctionsHost();
  try {
    const made = [];
    for (const message of [REPLY, FULL, '421 4.7.0 Too many connections from your host'])
      made.push((await h.call('POST', '/v1/corrections', { message, bnac: 'RATE_LIMIT' })).json);
    assert.equal((await h.call('GET', '/v1/corrections?limit=2')).json, { corrections: made.slice(1), total: 3 });
    assert.equal((await h.call('GET', '/v1/corrections?limit=5')).json, { corrections: made, total: 3 });
    for (const query of ['?limit=0', '?limit=two', '?limit=100001']) {
      const refused = await h.call('GET', `/v1/corrections${query}`);
      assert.is(refused.status, 400, query);
      assert.type(refused.json.error, 'string');
    }

    const asked = [SAME_WORDING, '550 5.1.1 No such user here', FULL];
    assert.equal((await h.call('POST', '/v1/corrections/match', { messages: asked })).json, {
      corrections: [made[0], null, made[1]],
    });
    assert.is((await h.call('POST', '/v1/corrections/match', { message: REPLY })).status, 400, 'a batch only');
    const many = await h.call('POST', '/v1/corrections/match', { messages: Array(10_001).fill(FULL) });
    assert.is(many.status, 413);
  } finally {
    await h.close();
  }
});

file('corrections outlive a restart: they are read back from the cache folder', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-corrections-'));
  const first = await correctionsHost({}, folder);
  let second: ScheduleHost | undefined;
  try {
    await first.call('POST', '/v1/corrections', { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' });
    await first.close();
    second = await correctionsHost({}, folder);
    assert.is((await bnac(second, SAME_WORDING)).class, 'RECIPIENT_NOT_FOUND');
  } finally {
    await second?.close();
    await rm(folder, { recursive: true, force: true });
  }
});

file("a correction stored under another normaliser's text still answers, and a new one replaces it", async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-corrections-'));
  // The example classifier's normaliser keeps addresses and IPs as they are: the text it stores is not the built-in's
  const first = await startScheduleHost({
    plugins: [
      { id: 'schedule-store-file' },
      { id: 'rules', path: RULES_CLASSIFIER },
      { id: 'bounce-classifier', config: { classifier: 'rules' } },
    ],
    folder,
  });
  let second: ScheduleHost | undefined;
  try {
    const old = (await first.call('POST', '/v1/corrections', { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' })).json;
    await first.close();
    second = await correctionsHost({}, folder);
    const normalised = (await second.call('POST', '/normalise', { message: REPLY })).json.normalised;
    assert.is.not(old.normalised, normalised, 'the two normalisers differ');

    assert.equal(await bnac(second, SAME_WORDING), { class: 'RECIPIENT_NOT_FOUND', probability: 1, corrected: true });
    assert.equal((await second.call('GET', '/v1/corrections')).json, {
      corrections: [{ ...old, normalised }],
      total: 1,
    });

    const replacing = (await second.call('POST', '/v1/corrections', { message: SAME_WORDING, bnac: 'BLOCKED' })).json;
    assert.equal(
      (await second.call('GET', '/v1/corrections')).json.corrections.map((c: { id: string }) => c.id),
      [replacing.id],
    );
    assert.equal((await second.call('GET', '/v1/audit?action=correction.replace')).json.entries[0].before, old);
    await second.call('DELETE', `/v1/corrections/${replacing.id}`);
    assert.not.ok('corrected' in (await bnac(second, REPLY)), 'the replaced correction is gone from the store');
  } finally {
    await second?.close();
    await rm(folder, { recursive: true, force: true });
  }
});

file.run();

const shared = suite('corrections shared by two hosts on one PostgreSQL schema');
const SCHEMA = `h22_corrections_${process.pid}`;
const until = async (check: () => Promise<boolean>, ms: number, what: string) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

shared('a correction made on one host is answered by the other within a second, and so is its removal', async () => {
  await requirePostgres();
  const corrections = { connectionString: DATABASE_URL, schema: SCHEMA, applicationName: 'h22-corrections-test' };
  // Both at once: the first start creates the table while the other waits on the migration lock
  const [a, b] = await Promise.all([correctionsHost({ corrections }), correctionsHost({ corrections })]);
  try {
    const model = await bnac(b, SAME_WORDING);
    const created = (await a.call('POST', '/v1/corrections', { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' })).json;
    await until(async () => (await bnac(b, SAME_WORDING)).corrected === true, 1000, 'the correction on host b');
    assert.equal((await b.call('GET', '/v1/corrections')).json, { corrections: [created], total: 1 });
    assert.equal((await b.call('POST', '/v1/corrections/match', { messages: [FULL, SAME_WORDING] })).json, {
      corrections: [null, created],
    });
    const later = (await b.call('POST', '/v1/corrections', { message: FULL, bnac: 'RATE_LIMIT' })).json;
    assert.equal(
      (await a.call('GET', '/v1/corrections?limit=1')).json,
      { corrections: [later], total: 2 },
      'the newest one, counted with the rest, from the database',
    );
    assert.is((await b.call('DELETE', `/v1/corrections/${created.id}`)).status, 200);
    await until(async () => (await bnac(a, SAME_WORDING)).corrected === undefined, 1000, 'the removal on host a');
    assert.equal(await bnac(a, SAME_WORDING), model);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await dropSchema(SCHEMA);
  }
});

shared('cut database connections: corrections stay in force, and a later one reaches the other host', async () => {
  await requirePostgres();
  const name = `h22-corrections-cut-${process.pid}`;
  const corrections = { connectionString: DATABASE_URL, schema: SCHEMA, applicationName: name };
  const [a, b] = await Promise.all([correctionsHost({ corrections }), correctionsHost({ corrections })]);
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    await a.call('POST', '/v1/corrections', { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' });
    await until(async () => (await bnac(b, SAME_WORDING)).corrected === true, 1000, 'the correction on host b');
    // Every connection of both hosts' stores: the pools' and the listening ones
    const { rowCount } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [name],
    );
    assert.ok((rowCount ?? 0) >= 3, `the pools' and both listeners' connections were cut (${rowCount})`);
    assert.equal(
      await bnac(b, SAME_WORDING),
      { class: 'RECIPIENT_NOT_FOUND', probability: 1, corrected: true },
      'the corrections read before stay in force',
    );
    const later = await a.call('POST', '/v1/corrections', { message: FULL, bnac: 'RATE_LIMIT' });
    assert.is(later.status, 201, later.text);
    await until(async () => (await bnac(b, FULL)).corrected === true, 5000, 'the later correction on host b');
  } finally {
    await admin.end();
    await Promise.all([a.close(), b.close()]);
    await dropSchema(SCHEMA);
  }
});

shared.run();
