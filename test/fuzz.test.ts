/**
 * Issue 9, "Proof": a seeded fuzz run across every route of both APIs and the host's own answers (`/openapi.json`,
 * unknown paths, wrong and unknown methods, OPTIONS, malformed HTTP), on one host serving both, with API keys.
 * Every answer must be below 500 (a method no route takes is 405, an unknown path 404), every error a JSON
 * `{"error": string}`, every valid request 200; afterwards the server still classifies and answers `GET /status`.
 *
 * `FUZZ_SEED` picks the stream (default 1, so the suite is deterministic; the seed is printed), `FUZZ_CASES` sets its
 * length (default 3,000),
 * `FUZZ_CONCURRENCY` the requests in flight (default 1, so a seed replays exactly; nothing here overloads the host,
 * so a 503 is a failure).
 *
 * The classifier is the built-in model (`bounce-model`): the real normaliser and pool are what meet odd input, and it
 * costs about 3 ms a new message on 2 cores, so a few thousand cases stay well under a minute.
 */
import { Agent } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../runtime/observability/logger.ts';
import { startHost } from '../runtime/mod.ts';
import { Fuzz, KEYS, prefix, problem, send, watchHost, type Case } from './_fuzz.ts';

const SEED = Number(process.env.FUZZ_SEED) || 1;
const CASES = Number(process.env.FUZZ_CASES) || 3000;
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY) || 1;
const TIMEOUT_MS = 15_000;

test(`fuzz both APIs (seed ${SEED}): no 5xx, errors as JSON, the server healthy afterwards`, async () => {
  console.log(`fuzz: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${CASES} cases, concurrency ${CONCURRENCY}`);
  const folder = await mkdtemp(join(tmpdir(), 'capstan-fuzz-'));
  const watch = watchHost();
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [
        { id: 'bounce-classifier', config: { apiKey: KEYS.bc, cache: { folder: join(folder, 'cache') } } },
        { id: 'ip-schedule', config: { authentication: { apikeys: [KEYS.ips] } } },
      ],
    },
    // checkResponses: an answer that does not match the spec becomes a 500, which this test catches
    // A short headers timeout: the stream holds requests that never finish their headers, answered 408 after it
    {
      baseDir: folder,
      ephemeralPorts: true,
      env: { CAPSTAN_HEADERS_TIMEOUT_MS: '1000' },
      checkResponses: true,
      log: createLogger({ service: 'fuzz', level: 'warn', write: watch.log }),
    },
  );
  const base = new URL(host.urls[0]!);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const violations: string[] = [];
  // Listed first: the 5xx answers
  const serverErrors: string[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  let sent = 0;
  let clientSide = 0;
  let valid = 0;
  try {
    const fuzz = new Fuzz(SEED);
    const cases: Case[] = Array.from({ length: CASES }, () => fuzz.next());
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let c = cases.shift(); c; c = cases.shift()) {
          const answer = await send(base, agent, c, TIMEOUT_MS);
          sent += 1;
          if (c.expect200) valid += 1;
          const request = `#${c.n} ${c.method} ${prefix(Buffer.from(c.raw ? '' : c.path, 'latin1'), 100)} body ${prefix(c.raw ?? c.body, 80)}`;
          if (answer instanceof Error) {
            if ((answer as Error & { clientSide?: boolean }).clientSide) clientSide += 1;
            else violations.push(`${request} -> no answer: ${answer.message}`);
            continue;
          }
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const wrong = problem(c, answer);
          if (wrong)
            (answer.status >= 500 ? serverErrors : violations).push(
              `${request} -> ${answer.status} ${prefix(answer.body, 160)}: ${wrong}`,
            );
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `fuzz: ${sent} requests (${valid} valid with the right key, which must answer 200) in ${seconds.toFixed(1)} s; ` +
        `statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}` +
        `${clientSide ? `; ${clientSide} refused by the client library` : ''}`,
    );

    // Healthy afterwards: a valid classification and GET /status answer 200 with the right shapes
    const classified = await fetch(`${base.origin}/v2/bnac/single`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEYS.bc },
      body: JSON.stringify({ message: '451 4.7.1 Greylisting in effect, please come back later' }),
    });
    const result = await classified.json();
    if (
      classified.status !== 200 ||
      typeof result.class !== 'string' ||
      !(result.probability >= 0 && result.probability <= 1)
    ) {
      violations.push(`afterwards: POST /v2/bnac/single -> ${classified.status} ${JSON.stringify(result)}`);
    }
    const status = await fetch(`${base.origin}/status`, { headers: { 'x-api-key': KEYS.ips } });
    const all = await status.json();
    const ipsOk =
      all?.ips !== null &&
      typeof all?.ips === 'object' &&
      Object.values(all.ips).every((ip: any) => Array.isArray(ip?.groupings));
    if (status.status !== 200 || !ipsOk)
      violations.push(`afterwards: GET /status -> ${status.status} ${JSON.stringify(all).slice(0, 200)}`);
    const created = await fetch(`${base.origin}/config/203.0.113.250`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-api-key': KEYS.ips },
      body: JSON.stringify({
        groupings: [
          {
            grouping: '&after',
            mode: 'AUTO',
            start: { date: '2025-01-01', volume: 10 },
            end: { date: '2025-01-10', volume: 1000 },
          },
        ],
      }),
    });
    // PUT on an IP that does not exist answers 404: create it then
    const write =
      created.status === 404
        ? await fetch(`${base.origin}/config/203.0.113.250`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': KEYS.ips },
            body: JSON.stringify({
              groupings: [
                {
                  grouping: '&after',
                  mode: 'AUTO',
                  start: { date: '2025-01-01', volume: 10 },
                  end: { date: '2025-01-10', volume: 1000 },
                },
              ],
            }),
          })
        : created;
    const written = await write.text();
    const one = await fetch(`${base.origin}/status/203.0.113.250/%26after`, { headers: { 'x-api-key': KEYS.ips } });
    const grouping = await one.json();
    if (write.status !== 200 || one.status !== 200 || grouping.end?.volume !== 1000) {
      violations.push(
        `afterwards: write ${write.status} ${written}, GET /status/203.0.113.250/%26after -> ${one.status} ${JSON.stringify(grouping).slice(0, 200)}`,
      );
    }
  } finally {
    agent.destroy();
    await host.close();
    violations.push(...watch.stop());
    await rm(folder, { recursive: true, force: true });
  }
  violations.unshift(...serverErrors);
  assert.ok(
    violations.length === 0,
    `${violations.length} violations with FUZZ_SEED=${SEED} (first 20):\n${violations.slice(0, 20).join('\n')}`,
  );
});

test.run();
