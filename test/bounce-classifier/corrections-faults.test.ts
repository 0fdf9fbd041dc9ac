/**
 * Corrections at their bounds and under faults, over HTTP: the limit on how many are kept and on a reply's length, a
 * filesystem that is really full (a small tmpfs, needs root; skipped with a message otherwise), and PostgreSQL out of
 * reach behind a paused relay. A write that cannot be made answers 409 or 503 and changes nothing; the corrections
 * read before stay in force; the store takes writes again once the fault passes
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import * as assert from 'uvu/assert';
import { suite } from '../_deadline.ts';
import { DATABASE_URL, dropSchema, requirePostgres } from '../_postgres.ts';
import { fill, mountSmallDisk } from '../_small-disk.ts';
import { freePort } from '../host/_fixtures.ts';
import type { ScheduleHost } from '../ip-schedule/_host.ts';
import { correctionsHost, FULL, REPLY, SAME_WORDING } from './_corrections.ts';
import { startTcpProxy, type TcpProxy } from '../ip-schedule/_tcp-proxy.ts';

const LOOP = '554 5.4.6 Too many hops';

const corrected = async (h: ScheduleHost, message: string) =>
  (await h.call('POST', '/v2/bnac/single', { message })).json.corrected === true;

const limits = suite('corrections at their limits');

limits('past corrections.maxCount a new text answers 409; a replacing one is taken; a delete makes room', async () => {
  const h = await correctionsHost({ corrections: { maxCount: 2 } });
  try {
    assert.is((await h.call('POST', '/v1/corrections', { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' })).status, 201);
    const full = (await h.call('POST', '/v1/corrections', { message: FULL, bnac: 'RECIPIENT_ERROR' })).json;
    const refused = await h.call('POST', '/v1/corrections', { message: LOOP, bnac: 'MX_ERROR' });
    assert.equal(
      [refused.status, refused.json],
      [409, { error: 'Corrections are full: "2" kept, at most "2": delete some or raise "corrections.maxCount"' }],
    );
    assert.not.ok(await corrected(h, LOOP), 'the refused one is not in force');
    const replacing = await h.call('POST', '/v1/corrections', { message: SAME_WORDING, bnac: 'BLOCKED' });
    assert.is(replacing.status, 201, 'a correction of a text that has one replaces it, full or not');
    assert.is((await h.call('GET', '/v1/corrections')).json.corrections.length, 2);
    assert.is((await h.call('DELETE', `/v1/corrections/${full.id}`)).status, 200);
    assert.is((await h.call('POST', '/v1/corrections', { message: LOOP, bnac: 'MX_ERROR' })).status, 201);
    assert.ok(await corrected(h, LOOP));
  } finally {
    await h.close();
  }
});

limits('a reply longer than the 4,096 characters classified answers 400', async () => {
  const h = await correctionsHost();
  try {
    const long = await h.call('POST', '/v1/corrections', { message: `550 ${'x'.repeat(4093)}`, bnac: 'BLOCKED' });
    assert.is(long.status, 400, long.text);
    assert.match(long.json.error, /message/);
    assert.is(
      (await h.call('POST', '/v1/corrections', { message: `550 ${'x'.repeat(4092)}`, bnac: 'BLOCKED' })).status,
      201,
    );
  } finally {
    await h.close();
  }
});

limits.run();

const disk = suite('corrections on a full filesystem');
const { folder, refusal } = mountSmallDisk('capstan-corrections-full-');

if (refusal) {
  console.log(`skipping the full-disk corrections test: cannot mount a tmpfs on ${folder} (needs root): ${refusal}`);
  rmSync(folder, { recursive: true, force: true });
  disk.skip(
    'a write on a full disk answers 503 with Retry-After, loses nothing, and the next one after room is made works',
    () => {},
  );
} else {
  disk(
    'a write on a full disk answers 503 with Retry-After, loses nothing, and the next one after room is made works',
    async () => {
      const h = await correctionsHost({ cache: { folder: join(folder, 'cache') } }, folder);
      const filler = join(folder, 'filler');
      try {
        assert.is(
          (await h.call('POST', '/v1/corrections', { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' })).status,
          201,
        );
        const file = join(folder, 'cache', 'corrections.json');
        const before = await readFile(file, 'utf8');

        await fill(filler);
        const refused = await fetch(`${h.url}/v1/corrections`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: FULL, bnac: 'RECIPIENT_ERROR' }),
        });
        assert.is(refused.status, 503);
        assert.is(refused.headers.get('retry-after'), '5');
        assert.equal(await refused.json(), { error: 'Cannot write the corrections, nothing was changed: ENOSPC' });
        const removal = await h.call('DELETE', `/v1/corrections/${JSON.parse(before).corrections[0].id}`);
        assert.is(removal.status, 503, 'a delete cannot be written either');

        assert.is(await readFile(file, 'utf8'), before, 'the file is the one before the failed writes');
        assert.ok(await corrected(h, SAME_WORDING), 'the correction read before stays in force');
        assert.not.ok(await corrected(h, FULL));

        await rm(filler);
        assert.is((await h.call('POST', '/v1/corrections', { message: FULL, bnac: 'RECIPIENT_ERROR' })).status, 201);
        assert.ok(await corrected(h, FULL));
        assert.is((await h.call('GET', '/v1/corrections')).json.corrections.length, 2);
      } finally {
        await h.close();
        execFileSync('umount', [folder]);
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );
}
disk.run();

const partition = suite('corrections with PostgreSQL out of reach');
const SCHEMA = `h22_corrections_faults_${process.pid}`;

/** A host whose corrections reach PostgreSQL through a relay the test controls; the host, relay and schema go after */
async function withRelayedHost(
  corrections: Record<string, unknown>,
  body: (h: ScheduleHost, proxy: TcpProxy) => Promise<void>,
): Promise<void> {
  await requirePostgres();
  const target = new URL(DATABASE_URL);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const h = await correctionsHost({
    corrections: { connectionString: proxy.via(DATABASE_URL), schema: SCHEMA, ...corrections },
  });
  try {
    await body(h, proxy);
  } finally {
    proxy.resume();
    await h.close();
    await proxy.close();
    await dropSchema(SCHEMA);
  }
}

partition(
  'writes answer 503 within seconds, reads of the API keep the corrections, writes resume, and the limit holds',
  () =>
    withRelayedHost({ applicationName: 'h22-faults', maxCount: 2 }, async (h, proxy) => {
      assert.is((await h.call('POST', '/v1/corrections', { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' })).status, 201);
      proxy.pause();
      const started = Date.now();
      const refused = await h.call('POST', '/v1/corrections', { message: FULL, bnac: 'RECIPIENT_ERROR' });
      const ms = Date.now() - started;
      assert.is(refused.status, 503, refused.text);
      assert.match(refused.json.error, /^Cannot write the corrections, nothing was changed: /);
      assert.ok(ms < 12_000, `answered in ${ms} ms, within the pool's timeouts`);
      assert.ok(await corrected(h, SAME_WORDING), 'classifying needs no database: the corrections read before answer');
      const list = await h.call('GET', '/v1/corrections');
      assert.is(list.status, 503, list.text);

      proxy.resume();
      const written = await h.call('POST', '/v1/corrections', { message: FULL, bnac: 'RECIPIENT_ERROR' });
      assert.is(written.status, 201, written.text);
      assert.ok(await corrected(h, FULL));
      const refusedPastLimit = await h.call('POST', '/v1/corrections', { message: LOOP, bnac: 'MX_ERROR' });
      assert.is(refusedPastLimit.status, 409, 'the database counts them too');
    }),
);

partition("a write on a pooled connection the server ended is made on a new one, without the client's retry", () =>
  withRelayedHost({ applicationName: 'h22-faults-idle' }, async (h, proxy) => {
    assert.is((await h.call('POST', '/v1/corrections', { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND' })).status, 201);
    // As a restart of the server leaves them: every connection open now dies on its next statement, the pool's idle
    // one included, which the pool hands out as if alive
    proxy.cutOnNextWrite();
    const written = await h.call('POST', '/v1/corrections', { message: FULL, bnac: 'RECIPIENT_ERROR' });
    assert.is(written.status, 201, written.text);
    assert.ok(await corrected(h, FULL));
    assert.is((await h.call('GET', '/v1/corrections')).json.total, 2);
  }),
);

partition('a connection cut while a write holds it answers 503 and leaves the host up', async () => {
  await requirePostgres();
  const name = `h22-faults-held-${process.pid}`;
  const h = await correctionsHost({
    corrections: { connectionString: DATABASE_URL, schema: SCHEMA, applicationName: name },
  });
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  try {
    // The lock every write takes first: held here, the host's write waits inside its transaction, on a connection it
    // has checked out of the pool
    await admin.query('BEGIN');
    await admin.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`"${SCHEMA}".bounce_corrections`]);
    const write = h.call('POST', '/v1/corrections', { message: FULL, bnac: 'RECIPIENT_ERROR' });
    const waiting = async () =>
      (
        await admin.query("SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'", [
          name,
        ])
      ).rowCount === 1;
    for (let i = 0; !(await waiting()); i++) {
      if (i > 100) throw new Error('the write never waited on the lock');
      await new Promise((done) => setTimeout(done, 20));
    }
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
    const answer = await write;
    assert.is(answer.status, 503, answer.text);
    assert.equal(answer.json, {
      error: 'Cannot write the corrections, nothing was changed: terminating connection due to administrator command',
    });
    await admin.query('ROLLBACK');
    assert.is((await h.call('POST', '/v1/corrections', { message: FULL, bnac: 'RECIPIENT_ERROR' })).status, 201);
  } finally {
    await admin.end();
    await h.close();
    await dropSchema(SCHEMA);
  }
});

partition(
  'a host whose corrections database does not answer at start says which database, and starts nothing',
  async () => {
    const port = await freePort();
    const corrections = { connectionString: `postgres://postgres@127.0.0.1:${port}/test`, schema: SCHEMA };
    const started = await correctionsHost({ corrections }).then(
      (h) => h.close().then(() => 'started'),
      (error: Error) => error.message,
    );
    assert.match(
      started,
      /^Cannot start plugin "bounce-classifier": Cannot open the corrections database \("corrections\.connectionString"\): .*ECONNREFUSED/,
    );
  },
);

partition.run();
