/**
 * The hostile bounce emails of issue 20 (`test/_hostile-email.ts`) against a normal bounce of about 10 KB, measured
 * in the same run on a server in another process (the built-in model, default limits): each email's answer time, the
 * server's RSS growth over the run of that email, and the p99 and longest latency of another client's
 * `/v2/bnac/single` requests (one every 10 ms) while it is being answered. Each email is sent `BENCH_REPEAT` times
 * (default 5). Run: `npm run bench bounce-email-hostile`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHost } from '../runtime/mod.ts';
import { HOSTILE_EMAILS } from '../test/_hostile-email.ts';
import { row, startServers } from './_http.ts';

const REPEAT = Number(process.env.BENCH_REPEAT) || 5;

const servers = await startServers(
  import.meta.filename,
  async () => {
    const host = await startHost(
      {
        version: '6.10',
        servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
        plugins: [{ id: 'bounce-classifier', config: { cache: { enabled: false } } }],
      },
      { ephemeralPorts: true, env: {} },
    );
    return { url: host.urls[0]! };
  },
  { calls: { rss: async () => String(process.memoryUsage().rss) } },
);

if (servers) {
  const { url } = servers.urls;
  const fixture = readFileSync(
    join(import.meta.dirname, '../plugins/bounce-classifier/email/fixtures/postfix-dsn.eml'),
    'latin1',
  );
  const normal = Buffer.from(
    `${fixture}\n${'Your order is on its way and should reach you within three working days.\n'.repeat(120)}`,
    'latin1',
  );
  const post = (body: Buffer) =>
    fetch(`${url}/v1/bounce-email`, {
      method: 'POST',
      headers: { 'content-type': 'message/rfc822' },
      body: new Uint8Array(body),
    }).then(async (r) => ({ status: r.status, body: await r.text() }));
  const probe = () =>
    fetch(`${url}/v2/bnac/single`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":"550 5.1.1 User unknown"}',
    }).then((r) => r.text());
  const percentile = (values: number[], p: number) =>
    [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * values.length) - 1)] ?? 0;

  async function measure(name: string, body: Buffer): Promise<number> {
    const times: number[] = [];
    const latencies: number[] = [];
    const rssBefore = Number(await servers!.call('rss', ''));
    let status = 0;
    for (let i = 0; i < REPEAT; i++) {
      let running = true;
      const probing = (async () => {
        while (running) {
          const started = performance.now();
          await probe();
          latencies.push(performance.now() - started);
          await new Promise((done) => setTimeout(done, 10));
        }
      })();
      const started = performance.now();
      status = (await post(body)).status;
      times.push(performance.now() - started);
      running = false;
      await probing;
    }
    const rss = Number(await servers!.call('rss', '')) - rssBefore;
    const median = percentile(times, 50);
    row(
      `${name} (${(body.length / 2 ** 20).toFixed(1)} MiB, ${status})`,
      `${median.toFixed(1)} ms`,
      `others p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms, RSS +${(rss / 2 ** 20).toFixed(0)} MiB`,
    );
    return median;
  }

  try {
    for (let i = 0; i < 20; i++) await post(normal);
    const base = await measure('BASELINE normal bounce', normal);
    for (const hostile of HOSTILE_EMAILS) {
      const median = await measure(hostile.name, hostile.build());
      console.log(`${''.padEnd(44)} ${(median / base).toFixed(1)} x baseline`);
    }
  } finally {
    servers.stop();
  }
}
