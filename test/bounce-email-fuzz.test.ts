/**
 * Issue 13, "Bad input": a seeded fuzz run of `POST /v1/bounce-email` on a real listener with the built-in model and
 * a 24 MiB body limit. Every answer must come within the timeout, be below 500 and, when an error, a JSON
 * `{"error": string}`; every 200 must match the spec (the host checks responses and answers 500 otherwise); the
 * process must not crash, log an error or hang, and must still classify afterwards.
 *
 * `FUZZ_SEED` picks the stream (default 1; printed for replay), `FUZZ_EMAIL_CASES` its length (default 400).
 */
import { Agent } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../runtime/observability/logger.ts';
import { startHost } from '../runtime/mod.ts';
import { prefix, problem, send, watchHost } from './_fuzz.ts';
import { EmailFuzz } from './_fuzz-email.ts';

const SEED = Number(process.env.FUZZ_SEED) || 1;
const CASES = Number(process.env.FUZZ_EMAIL_CASES) || 400;
const TIMEOUT_MS = 15_000;
const KEY = 'fuzz-email-key';

test(`fuzz POST /v1/bounce-email (seed ${SEED}): no 5xx, no hang, errors as JSON, healthy afterwards`, async () => {
  console.log(`fuzz-email: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${CASES} cases`);
  const folder = await mkdtemp(join(tmpdir(), 'capstan-fuzz-email-'));
  const watch = watchHost();
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [
        {
          id: 'bounce-classifier',
          config: { apiKey: KEY, cache: { folder: join(folder, 'cache') }, limits: { bodyBytes: 24 * 1024 * 1024 } },
        },
      ],
    },
    {
      baseDir: folder,
      ephemeralPorts: true,
      env: {},
      checkResponses: true,
      log: createLogger({ service: 'fuzz', level: 'warn', write: watch.log }),
    },
  );
  const base = new URL(host.urls[0]!);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const violations: string[] = [];
  const statuses = new Map<number, number>();
  let slowest = 0;
  try {
    const fuzz = new EmailFuzz(SEED);
    for (let i = 0; i < CASES; i++) {
      const c = fuzz.next('/v1/bounce-email', KEY);
      const started = performance.now();
      const answer = await send(base, agent, c, TIMEOUT_MS);
      slowest = Math.max(slowest, performance.now() - started);
      const request = `#${c.n} ${c.headers['content-type'] ?? '(no type)'} body ${prefix(c.body, 80)}`;
      if (answer instanceof Error) {
        violations.push(`${request} -> no answer: ${answer.message}`);
        continue;
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const wrong = problem(c, answer);
      if (wrong) violations.push(`${request} -> ${answer.status} ${prefix(answer.body, 160)}: ${wrong}`);
    }
    console.log(
      `fuzz-email: statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}, slowest answer ${Math.round(slowest)} ms`,
    );
    const after = await fetch(`${base.origin}/v2/bnac/single`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': KEY },
      body: JSON.stringify({ message: '550 5.1.1 User unknown' }),
    });
    if (after.status !== 200)
      violations.push(`afterwards: POST /v2/bnac/single -> ${after.status} ${await after.text()}`);
  } finally {
    agent.destroy();
    await host.close();
    violations.push(...watch.stop());
    await rm(folder, { recursive: true, force: true });
  }
  assert.ok(
    violations.length === 0,
    `${violations.length} violations with FUZZ_SEED=${SEED} (first 20):\n${violations.slice(0, 20).join('\n')}`,
  );
});

test.run();
