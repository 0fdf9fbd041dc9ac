/**
 * Backoff events through `POST /v1/backoff/events` in batches of 1,000 at 4 connections (host with bounce-classifier
 * and ip-schedule on the file store, default policy table, in a child process; autocannon in this one), in events/s
 * and per-batch latency. Same-run baseline: the same batches' replies classified by `/v1/backoff` alone (the
 * classifier's cache and nothing else), so the ratio is what counting and applying policies cost. Replies are 2,000
 * realistic ones (phrasing templates expanded with seeded slot values), classified once before: as an MTA reports
 * them, the same replies recur, so both figures are of cache hits. Context: 64 local IPs, 256 remote IPs, 5 groupings,
 * 10 tenants and 50 jobs, so policies are applied and escalated (and stored) as the run goes. A third measurement
 * sends the same failures with what issue 21 added: each event's `remotemx` (real MX names of 12 providers and 40
 * unknown domains, so providers are mapped and share triggers count per local IP and provider), a `time` within the
 * last 10 minutes, and one delivered attempt (no message) for every four failures; a fourth sends nine deliveries for
 * every failure, closer to an MTA reporting every attempt. Goal: 50,000 events/s.
 *
 * Run: `npm run bench backoff-events` (BENCH_SECONDS sets each measurement's length)
 */
import type { Request } from 'autocannon';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../runtime/observability/logger.ts';
import { startHost } from '../runtime/mod.ts';
import { BATCH, backoffBatches } from './_backoff-batches.ts';
import { load, row, startServers, type LoadResult } from './_http.ts';

const servers = await startServers(import.meta.filename, async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-bench-backoff-'));
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [
        { id: 'bounce-classifier', config: { cache: { folder: join(folder, 'cache') } } },
        { id: 'ip-schedule' },
      ],
    },
    { baseDir: folder, ephemeralPorts: true, env: {}, log: createLogger({ service: 'bench', level: 'error' }) },
  );
  return { capstan: host.urls[0]! };
});

if (servers) {
  const { capstan } = servers.urls;
  const { replies, eventBodies, replyBodies, timedBodies } = await backoffBatches();
  // Classify every reply once: both figures are then of the cache, as in steady operation
  const warm = await fetch(`${capstan}/v1/backoff`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: replies }),
  });
  if (!warm.ok) throw new Error(`Classifying the replies answered ${warm.status}`);
  let turn = 0;
  const rotating = (path: string, bodies: string[]): Request => ({
    method: 'POST',
    path,
    setupRequest: (request: Request) => ({ ...request, body: bodies[turn++ % bodies.length] }),
  });
  const classify = await load(capstan, {
    connections: 4,
    strict: true,
    requests: [rotating('/v1/backoff', replyBodies)],
  });
  const events = await load(capstan, {
    connections: 4,
    strict: true,
    requests: [rotating('/v1/backoff/events', eventBodies)],
  });
  const providers = await load(capstan, {
    connections: 4,
    strict: true,
    requests: [
      rotating(
        '/v1/backoff/events',
        timedBodies((i) => i % 5 === 4),
      ),
    ],
  });
  const mostlyDelivered = await load(capstan, {
    connections: 4,
    strict: true,
    requests: [
      rotating(
        '/v1/backoff/events',
        timedBodies((i) => i % 10 !== 0),
      ),
    ],
  });
  const applied = (await (await fetch(`${capstan}/v1/policies`)).json()) as {
    policies: unknown[];
    suspends: unknown[];
  };
  servers.stop();

  const latency = (r: LoadResult) => `per batch p50 ${r.p50} ms, p99 ${r.p99} ms`;
  console.log(
    `HTTP, batches of ${BATCH.toLocaleString('en')} at 4 connections; servers in one process, load generator in another`,
  );
  row('/v1/backoff, the same replies (baseline)', `${Math.round(classify.rps * BATCH)} replies/s`, latency(classify));
  row(
    '/v1/backoff/events',
    `${Math.round(events.rps * BATCH)} events/s`,
    `${latency(events)}   ×${(events.rps / classify.rps).toFixed(2)} the baseline (goal 50,000 events/s)`,
  );
  row(
    '  with MX (providers), time, 20 % delivered',
    `${Math.round(providers.rps * BATCH)} events/s`,
    `${latency(providers)}   ×${(providers.rps / classify.rps).toFixed(2)} the baseline (goal 50,000 events/s)`,
  );
  row(
    '  with MX (providers), time, 90 % delivered',
    `${Math.round(mostlyDelivered.rps * BATCH)} events/s`,
    `${latency(mostlyDelivered)}   ×${(mostlyDelivered.rps / classify.rps).toFixed(2)} the baseline`,
  );
  row('policies and suspensions in force at the end', `${applied.policies.length + applied.suspends.length}`);
}
