/**
 * Lift latency at 500 feed clients (issue 21): a backoff policy applied from a reported deferral is lifted with
 * `DELETE /v1/policies/{id}`, timed from the start of the DELETE to (a) its answer, the same-run baseline, (b) the
 * feed's DELETE reaching the first client and (c) reaching all 500. 100 lifts one after another, each of a policy of
 * its own (the host in a process of its own, file store; the clients in this one). Goal: p99 of (c) under 100 ms.
 *
 * Run: `npm run bench policy-lift`
 */
import WebSocket from 'ws';
import { row, startServers } from './_http.ts';

const CLIENTS = 500;
const LIFTS = 100;
const WARMUP = 10;
const THROTTLED =
  '421-4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from your IP ' +
  'address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.';

/** In the server process: bounce-classifier and ip-schedule on the file store, one deferral applying a rate policy */
async function serve(): Promise<{ url: string }> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { startHost } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/observability/logger.ts');
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [
        { id: 'bounce-classifier' },
        { id: 'ip-schedule', config: { backoff: { policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 1 } } } } },
      ],
    },
    {
      baseDir: mkdtempSync(join(tmpdir(), 'capstan-bench-lift-')),
      ephemeralPorts: true,
      log: createLogger({ service: 'bench', level: 'error' }),
    },
  );
  return { url: host.urls[0]! };
}

if (process.argv.includes('--serve')) await startServers(import.meta.filename, serve);
else await measure();

async function measure() {
  const servers = (await startServers(import.meta.filename, serve))!;
  try {
    const { url } = servers.urls;
    let awaited = '';
    let arrivals: number[] = [];
    const created = new Set<WebSocket>();
    const clients = await Promise.all(
      Array.from({ length: CLIENTS }, () =>
        connect(`${url.replace('http', 'ws')}/v1/policies/feed`, (ws, text) => {
          if (awaited === '' || !text.includes(awaited)) return;
          if (text.startsWith('{"action":"DELETE"')) arrivals.push(performance.now());
          else created.add(ws);
        }),
      ),
    );
    const answers: number[] = [];
    const first: number[] = [];
    const all: number[] = [];
    for (let i = 0; i < LIFTS + WARMUP; i++) {
      const ip = `10.9.${i >> 8}.${i & 255}`;
      const id = `backoff:RATE_LIMIT__IP_RATE_LIMIT?localip=${ip}&grouping=%26gmail`;
      awaited = `"id":${JSON.stringify(id)}`;
      created.clear();
      arrivals = [];
      const posted = await fetch(`${url}/v1/backoff/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          events: [{ message: THROTTLED, localip: ip, grouping: '&gmail', remotemx: 'gmail-smtp-in.l.google.com' }],
        }),
      });
      const applied = (await posted.json()) as { events: { policies: string[] }[] };
      if (applied.events[0]?.policies[0] !== id) throw new Error(`The deferral applied ${JSON.stringify(applied)}`);
      while (created.size < CLIENTS) await new Promise((done) => setTimeout(done, 1));
      const started = performance.now();
      const response = await fetch(`${url}/v1/policies/${encodeURIComponent(id)}`, { method: 'DELETE' });
      const answered = performance.now();
      if (!response.ok) throw new Error(`DELETE answered ${response.status}`);
      await response.arrayBuffer();
      while (arrivals.length < CLIENTS) await new Promise((done) => setTimeout(done, 1));
      // The first ones warm the JIT and the sockets
      if (i < WARMUP) continue;
      answers.push(answered - started);
      first.push(Math.min(...arrivals) - started);
      all.push(Math.max(...arrivals) - started);
    }
    for (const ws of clients) ws.terminate();
    const p = (times: number[], q: number) =>
      [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    const figures = (times: number[]) => `p50 ${p(times, 0.5)} ms, p99 ${p(times, 0.99)} ms`;
    console.log(`Lift → DELETE with ${CLIENTS} clients connected, ${LIFTS} lifts one after another (file store)`);
    row('DELETE round trip (baseline)', figures(answers));
    row(
      'lift → DELETE at the first client',
      figures(first),
      `p99 ×${(Number(p(first, 0.99)) / Number(p(answers, 0.99))).toFixed(2)} the DELETE's`,
    );
    row(
      `lift → DELETE at all ${CLIENTS} clients`,
      figures(all),
      `p99 ×${(Number(p(all, 0.99)) / Number(p(answers, 0.99))).toFixed(2)} the DELETE's (goal p99 < 100 ms)`,
    );
  } finally {
    servers.stop();
  }
}

/** A feed client reading every frame as text; resolves once the replay has ended */
function connect(address: string, onText: (ws: WebSocket, text: string) => void): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(address);
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === '{"action":"SYNCED"}') done(ws);
      else onText(ws, text);
    });
    ws.once('error', fail);
  });
}
