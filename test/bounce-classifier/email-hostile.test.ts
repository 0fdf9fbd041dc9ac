/**
 * Issue 20, item 6: hostile emails on `POST /v1/bounce-email` (`test/_hostile-email.ts`: 100,000 empty parts, a 7 MB
 * preamble and epilogue, 10,000-deep nesting, huge headers, a report at the kept lines' cap, an HTML flood), each
 * sent over HTTP to a real listener (a server process of its own) with the built-in model while another client probes
 * `/v2/bnac/single` every
 * 20 ms. Each must be answered in time with the expected status, the probes must stay fast (the event loop is not
 * held), the server's RSS must not balloon, and a normal fixture must still get its expected answer.
 * `HOSTILE=<part of a name>` runs only the matching emails.
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HOSTILE_EMAILS } from '../_hostile-email.ts';

const SERVICE = join(import.meta.dirname, 'fixtures/email-service.ts');

/** Each hostile request's answer; today's code took 111 s for the parts, 42 s for the preamble */
const ANSWER_MS = 5_000;
/** Another client's p99 during a hostile request (issue 20: under 250 ms) */
const PROBE_P99_MS = 250;
/** RSS growth over the run; the preamble took 5.6 GiB */
const RSS_GROWTH = 256 * 1024 * 1024;
const FIXTURES = join(import.meta.dirname, '../../plugins/bounce-classifier/email/fixtures');
const RFC822 = { 'content-type': 'message/rfc822' };

const only = process.env.HOSTILE;
const cases = HOSTILE_EMAILS.filter((c) => !only || c.name.includes(only));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function next<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`Service exited with code "${code}"`));
    child.once('exit', exited);
    child.once('message', (message) => {
      child.off('exit', exited);
      resolve(message as T);
    });
  });
}

test('hostile emails: answered in time, other clients stay fast, RSS bounded, normal emails unchanged', async () => {
  const child = fork(SERVICE, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const service = await next<{ url: string }>(child);
  const rss = async () => {
    child.send('rss');
    return (await next<{ rss: number }>(child)).rss;
  };
  const failures: string[] = [];
  try {
    const probe = () =>
      fetch(`${service.url}/v2/bnac/single`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"message":"550 5.1.1 User unknown"}',
      }).then((r) => r.text());
    for (let i = 0; i < 20; i++) await probe();
    // The first email read in the pool loads the readers into the worker thread: once per process, not per request
    const warm = HOSTILE_EMAILS.find((c) => c.name.startsWith('5,000'))!.build();
    assert.is(
      (await fetch(`${service.url}/v1/bounce-email`, { method: 'POST', headers: RFC822, body: new Uint8Array(warm) }))
        .status,
      200,
    );
    const rssBefore = await rss();
    let rssPeak = rssBefore;
    /** Posts one hostile email while a second client probes the host every 20 ms */
    const send = async (raw: Buffer) => {
      const latencies: number[] = [];
      let running = true;
      const probing = (async () => {
        while (running) {
          const started = performance.now();
          await probe();
          latencies.push(performance.now() - started);
          await new Promise((done) => setTimeout(done, 20));
        }
      })();
      const started = performance.now();
      const response = await fetch(`${service.url}/v1/bounce-email`, {
        method: 'POST',
        headers: RFC822,
        body: new Uint8Array(raw),
      });
      const body = await response.json();
      const took = performance.now() - started;
      running = false;
      await probing;
      return { response, body, took, latencies, p99: percentile(latencies, 99) };
    };
    for (const hostile of cases) {
      const raw = hostile.build();
      let { response, body, took, latencies, p99 } = await send(raw);
      // One more try when only the probes were slow: a request lasts a few hundred ms, so its p99 is nearly the
      // slowest of about ten probes, and one GC pause or a neighbour's burst on a shared 2-core machine can pass
      // the bound; a parse that blocks the loop (seconds, as before the linear scan) fails both tries
      if (p99 > PROBE_P99_MS) ({ response, body, took, latencies, p99 } = await send(raw));
      rssPeak = Math.max(rssPeak, await rss());
      console.log(
        `${hostile.name}: ${response.status} in ${Math.round(took)} ms, probes p99 ${Math.round(p99)} ms (${latencies.length}), RSS +${Math.round((rssPeak - rssBefore) / 2 ** 20)} MiB`,
      );
      if (took > ANSWER_MS) failures.push(`${hostile.name}: answered in ${Math.round(took)} ms, over ${ANSWER_MS}`);
      if (response.status !== hostile.expect.status)
        failures.push(`${hostile.name}: ${response.status} ${JSON.stringify(body).slice(0, 200)}`);
      else if (response.status === 200 && body.recipients.length !== hostile.expect.recipients)
        failures.push(`${hostile.name}: ${body.recipients.length} recipients`);
      else if (
        response.status !== 200 &&
        !(Object.keys(body).length === 1 && /^Email has more "[^"]+" than the limit of "\d+"$/.test(body.error))
      )
        failures.push(`${hostile.name}: error ${JSON.stringify(body)}`);
      if (p99 > PROBE_P99_MS)
        failures.push(`${hostile.name}: other client's p99 ${Math.round(p99)} ms, over ${PROBE_P99_MS}`);
    }
    if (rssPeak - rssBefore > RSS_GROWTH)
      failures.push(`RSS grew ${Math.round((rssPeak - rssBefore) / 2 ** 20)} MiB, over ${RSS_GROWTH / 2 ** 20}`);
    // A normal bounce after them all still gets its expected answer
    const expected = JSON.parse(readFileSync(join(FIXTURES, 'postfix-dsn.json'), 'utf8'));
    const normal = await (
      await fetch(`${service.url}/v1/bounce-email`, {
        method: 'POST',
        headers: RFC822,
        body: new Uint8Array(readFileSync(join(FIXTURES, 'postfix-dsn.eml'))),
      })
    ).json();
    assert.equal(
      {
        kind: normal.kind,
        format: normal.format,
        recipients: normal.recipients.map((r: any) => ({ ...r, bnac: r.bnac.class, backoff: r.backoff.class })),
      },
      expected,
    );
  } finally {
    child.send('close');
    await new Promise((done) => child.once('exit', done));
  }
  assert.ok(failures.length === 0, failures.join('\n'));
});

test.run();
