/** The audit trail over HTTP: one entry per change, in the store and in the log, `GET /v1/audit`, and restarts */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../host/_fixtures.ts';
import { kill9, serve, writeStartupDocument } from './_child.ts';
import { autoGrouping, startScheduleHost, utcDate, withScheduleHost, type ScheduleHost } from './_host.ts';

const KEY = 'audit-test-key';
const PRINCIPAL = `key:${createHash('sha256').update(KEY).digest('hex').slice(0, 12)}`;
const AUTH = { 'x-api-key': KEY };
const IP = '192.0.2.1';
const PG_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schemas: string[] = [];
const folders: string[] = [];

const body = (...names: string[]) => ({
  groupings: names.map((name) => autoGrouping(name, [utcDate(1), 10], [utcDate(9), 100])),
});

/** Every entry the API answers for `query`, following `next` */
async function everything(host: ScheduleHost, query = ''): Promise<any[]> {
  const entries: any[] = [];
  let cursor: string | undefined;
  do {
    const { status, json } = await host.call(
      'GET',
      `/v1/audit?limit=1000${query}${cursor ? `&cursor=${cursor}` : ''}`,
      undefined,
      AUTH,
    );
    assert.is(status, 200);
    entries.push(...json.entries);
    cursor = json.next;
  } while (cursor);
  return entries;
}

/** Log lines of message `audit` among `lines` */
const auditLines = (lines: string[]) => lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'audit');

test('each schedule change is one entry with the key, before and after, in the store and as one log line', async () => {
  const lines: string[] = [];
  await withScheduleHost(
    { config: { authentication: { apikeys: [KEY] } }, log: (line) => lines.push(line) },
    async (host) => {
      const calls: [string, string, unknown?][] = [
        ['POST', `/config/${IP}`, body('&a', '&b')],
        ['PUT', `/config/${IP}`, body('&a', '&b', '&c')],
        ['PUT', `/config/${IP}/pause`],
        ['PUT', `/config/${IP}/resume`],
        ['PUT', `/config/${IP}/%26a/pause`],
        ['PUT', `/config/${IP}/%26a/resume`],
        ['DELETE', `/config/${IP}/%26c`],
        ['DELETE', `/config/${IP}`],
      ];
      for (const [method, path, json] of calls)
        assert.is((await host.call(method, path, json, AUTH)).status, 200, `${method} ${path}`);
      assert.is((await host.call('POST', `/config/${IP}`, body('&a'), AUTH)).status, 200);
      assert.is(
        (await host.call('POST', `/config/${IP}`, body('&a'), AUTH)).status,
        400,
        'a create that fails records nothing',
      );
      const entries = (await everything(host)).reverse();
      assert.equal(
        entries.map((e) => [e.action, e.subject]),
        [
          ['schedule.create', { ip: IP }],
          ['schedule.update', { ip: IP }],
          ['schedule.pause', { ip: IP }],
          ['schedule.resume', { ip: IP }],
          ['schedule.pause', { ip: IP, grouping: '&a' }],
          ['schedule.resume', { ip: IP, grouping: '&a' }],
          ['schedule.delete', { ip: IP, grouping: '&c' }],
          ['schedule.delete', { ip: IP }],
          ['schedule.create', { ip: IP }],
        ],
      );
      assert.ok(
        entries.every((e) => e.principal === PRINCIPAL),
        "the key's fingerprint, never the key",
      );
      const [create, update, pause, , pauseA, , deleteC, del] = entries;
      assert.is(create.before, null);
      assert.equal(
        create.after.groupings.map((g: any) => g.grouping),
        ['&a', '&b'],
      );
      assert.equal([update.before.groupings.length, update.after.groupings.length], [2, 3]);
      assert.equal([pause.before.groupings[0].paused, pause.after.groupings[0].paused], [false, true]);
      assert.equal(
        [pauseA.before.grouping, pauseA.before.paused, pauseA.after.paused],
        ['&a', false, true],
        "a grouping's change holds the grouping",
      );
      assert.equal([deleteC.before.grouping, deleteC.after], ['&c', null]);
      assert.equal([del.before.groupings.length, del.after], [2, null]);
      assert.equal(
        auditLines(lines).map((line) => line.audit),
        entries,
        'the log carries each committed entry once, whole',
      );
      assert.equal(
        auditLines(lines).map((line) => [line.level, line.plugin]),
        entries.map(() => ['info', 'ip-schedule']),
      );
      assert.is((await host.call('GET', '/v1/audit')).status, 401, 'the trail needs a key when keys are configured');
    },
  );
});

test('GET /v1/audit filters by action, subject, principal and time, and pages newest first with a cursor', async () => {
  await withScheduleHost({}, async (host) => {
    const ips = Array.from({ length: 7 }, (_, i) => `198.51.100.${i + 1}`);
    for (const ip of ips) assert.is((await host.call('POST', `/config/${ip}`, body('&a'))).status, 200);
    const middle = new Date().toISOString();
    await new Promise((done) => setTimeout(done, 5));
    for (const ip of ips.slice(0, 3)) assert.is((await host.call('PUT', `/config/${ip}/%26a/pause`)).status, 200);
    const all = await everything(host);
    assert.is(all.length, 10);
    assert.ok(
      all.every((e) => e.principal === 'anonymous'),
      'open API: anonymous',
    );
    assert.equal(
      all.map((e) => e.id),
      all
        .map((e) => e.id)
        .sort()
        .reverse(),
      'newest first',
    );
    assert.equal(
      (await everything(host, '&action=schedule.pause')).map((e) => e.subject.ip),
      ips.slice(0, 3).reverse(),
    );
    assert.equal(
      (await everything(host, `&ip=${ips[1]}`)).map((e) => e.action),
      ['schedule.pause', 'schedule.create'],
    );
    assert.equal(
      (await everything(host, `&ip=${ips[1]}&grouping=%26a`)).map((e) => e.action),
      ['schedule.pause'],
    );
    assert.is((await everything(host, '&principal=someone')).length, 0);
    assert.is((await everything(host, `&from=${middle}`)).length, 3);
    assert.is((await everything(host, `&to=${middle}`)).length, 7);
    const pages: string[][] = [];
    let cursor = '';
    for (;;) {
      const { json } = await host.call('GET', `/v1/audit?limit=4${cursor}`);
      pages.push(json.entries.map((e: any) => e.id));
      if (!json.next) break;
      cursor = `&cursor=${json.next}`;
    }
    assert.equal(
      pages.map((p) => p.length),
      [4, 4, 2],
    );
    assert.equal(
      pages.flat(),
      all.map((e) => e.id),
      'pages join into the whole trail',
    );
    assert.is((await host.call('GET', '/v1/audit')).json.entries.length, 10, 'default limit 100');
    for (const bad of ['limit=1001', 'limit=0', 'from=yesterday', 'action=Pause', 'cursor=bm90LW91cnM']) {
      assert.is((await host.call('GET', `/v1/audit?${bad}`)).status, 400, bad);
    }
  });
});

test('backoff policies applied, escalated and expired are recorded once each', async () => {
  await withScheduleHost({ plugins: [{ id: 'bounce-classifier' }] }, async (probe) => {
    const cls = (
      await probe.call('POST', '/v1/backoff', {
        messages: ['421 4.7.0 Too many connections from your IP, try again later'],
      })
    ).json[0].class;
    const host = await startScheduleHost({
      plugins: [{ id: 'bounce-classifier' }],
      config: {
        backoff: { policies: { [cls]: { threshold: 1, ttl: 1, maxTtl: 2, concurrency: 4 } }, recovery: { step: 1 } },
      },
    });
    try {
      const events = {
        events: [
          {
            message: '421 4.7.0 Too many connections from your IP, try again later',
            localip: IP,
            remoteip: '198.51.100.7',
            remotemx: 'mx.example.com',
            recipientdomain: 'example.com',
            grouping: '&a',
          },
        ],
      };
      const first = await host.call('POST', '/v1/backoff/events', events);
      const [id] = first.json.events[0].policies;
      await host.call('GET', '/v1/policies');
      await host.call('POST', '/v1/backoff/events', events);
      const deadline = Date.now() + 5000;
      while ((await everything(host, '&action=policy.expire')).length === 0) {
        assert.ok(Date.now() < deadline, 'the expiry is recorded within 5 s');
        await new Promise((done) => setTimeout(done, 100));
      }
      const entries = (await everything(host, `&policy=${encodeURIComponent(id)}`)).reverse();
      // Escalated to concurrency 2, it steps back to the class's 4 (for a second) before it is deleted
      assert.equal(
        entries.map((e) => [e.action, e.principal]),
        [
          ['policy.apply', 'anonymous'],
          ['policy.escalate', 'anonymous'],
          ['policy.recover', 'system'],
          ['policy.expire', 'system'],
        ],
      );
      const [apply, escalate, recover, expire] = entries;
      assert.equal(
        [recover.before.object.then.concurrency, recover.after.object.then.concurrency, recover.after.object.ttl],
        [2, 4, 1],
      );
      assert.equal([apply.before, apply.after.level, apply.reason.level], [null, 0, 0]);
      assert.equal([escalate.before.level, escalate.after.level], [0, 1]);
      assert.equal([expire.before.level, expire.after], [1, null]);
    } finally {
      await host.close();
    }
  });
});

test('entries survive kill -9 of capstan serve, and each is a JSON line on its stdout', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-audit-'));
  folders.push(folder);
  const config = await writeStartupDocument(folder, await freePort());
  const { child, url } = await serve(config);
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const created = await fetch(`${url}/config/${IP}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body('&a')),
  });
  assert.is(created.status, 200);
  const deadline = Date.now() + 2000;
  while (!stdout.includes('"msg":"audit"') && Date.now() < deadline) await new Promise((done) => setTimeout(done, 20));
  const logged = auditLines(stdout.split('\n').filter((line) => line.startsWith('{')));
  await kill9(child);
  assert.is(logged.length, 1, 'one line for one change');
  const again = await serve(config);
  try {
    const { entries } = (await (await fetch(`${again.url}/v1/audit`)).json()) as { entries: unknown[] };
    assert.equal(entries, [logged[0].audit], 'the store kept what the log says');
  } finally {
    await kill9(again.child);
  }
});

test('entries survive a restart with the PostgreSQL store', async () => {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  const plugins = [{ id: 'schedule-store-postgres', config: { connectionString: PG_URL, schema } }];
  const folder = await mkdtemp(join(tmpdir(), 'capstan-audit-pg-'));
  folders.push(folder);
  let entries: unknown[] = [];
  await withScheduleHost({ plugins, folder, config: { store: 'schedule-store-postgres' } }, async (host) => {
    assert.is((await host.call('POST', `/config/${IP}`, body('&a'))).status, 200);
    assert.is((await host.call('PUT', `/config/${IP}/pause`)).status, 200);
    entries = await everything(host);
    assert.equal(
      entries.map((e: any) => e.action),
      ['schedule.pause', 'schedule.create'],
    );
  });
  await withScheduleHost({ plugins, folder, config: { store: 'schedule-store-postgres' } }, async (host) => {
    assert.equal(await everything(host), entries);
  });
});

test.after(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
  if (schemas.length === 0) return;
  const client = new pg.Client(PG_URL);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

test.run();
