/**
 * Bounce-classifier HTTP benchmark: uncached and cached batches of 1,000 messages (messages/s) and
 * `/v2/bnac/single` (requests/s and p99 at 50 connections) as a ratio to a raw `node:http` hello world
 * measured in the same run. Servers run in a child process, autocannon in this one.
 *
 * Run: `node --import tsx bench/bounce-classifier.bench.ts` (BENCH_SECONDS sets each measurement's length)
 */
import type { Request } from 'autocannon';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../runtime/host/logger.ts';
import { startHost } from '../runtime/mod.ts';
import { load, rawHello, row, startServers } from './_http.ts';

const TEMPLATES = [
  '451 4.7.1 Greylisting in effect, please come back later',
  "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos",
  '552 5.2.2 Mailbox full: quota exceeded for this recipient',
  '421 4.7.0 Too many connections from your IP, try again later',
  '554 5.7.1 Service unavailable; Client host blocked using zen.spamhaus.org',
  '550 5.7.26 Unauthenticated email is not accepted: SPF and DKIM do not pass',
  '554 5.7.1 Message rejected: a virus was found in the attachment',
  '530 5.7.0 Must issue a STARTTLS command first',
];

/** Letters only, so that the normaliser keeps the token and every generated text stays distinct */
function word(n: number): string {
  let out = '';
  do {
    out += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

let counter = 0;
function freshBatch(): string {
  const messages = Array.from({ length: 1_000 }, (_, i) => `${TEMPLATES[i % TEMPLATES.length]} ref ${word(counter++)}`);
  return JSON.stringify({ messages });
}

const servers = await startServers(import.meta.filename, async () => {
  // A raw POST handler shows what reading and answering a JSON body costs without any framework
  const rawPost = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk)).on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ class: 'GRAYLISTING', length: JSON.parse(text).message.length }));
    });
  });
  await new Promise<void>((done) => rawPost.listen(0, '127.0.0.1', done));
  const folder = await mkdtemp(join(tmpdir(), 'capstan-bench-'));
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [{ id: 'bounce-classifier', config: { cache: { folder, maxSize: 512 * 1024 * 1024 } } }],
    },
    { ephemeralPorts: true, env: {}, log: createLogger({ service: 'bench', level: 'error' }) },
  );
  return { raw: (await rawHello()).url, rawPost: `http://127.0.0.1:${(rawPost.address() as { port: number }).port}`, capstan: host.urls[0] };
});

if (servers) {
  const { urls } = servers;
  const hello = await load(urls.raw);
  const single: Request = { method: 'POST', path: '/v2/bnac/single', setupRequest: (request: Request) => ({ ...request, body: JSON.stringify({ message: `${TEMPLATES[counter % 8]} ${word(counter++ % 997)}` }) }) };
  const rawPost = await load(urls.rawPost, { requests: [single], strict: true });
  const bnac = await load(urls.capstan, { requests: [single], strict: true });
  const uncached = await load(urls.capstan, { connections: 4, strict: true, requests: [{ method: 'POST', path: '/v2/bnac', setupRequest: (request: Request) => ({ ...request, body: freshBatch() }) }] });
  const cached = await load(`${urls.capstan}/v2/bnac`, { connections: 4, strict: true, method: 'POST', body: freshBatch() });
  servers.stop();
  console.log('HTTP on this machine; servers in one process, load generator in another');
  row('raw node:http GET hello world', `${hello.rps.toFixed(0)} req/s`, `p99 ${hello.p99} ms`);
  row('raw node:http POST, JSON in and out', `${rawPost.rps.toFixed(0)} req/s`, `p99 ${rawPost.p99} ms   ratio ${(rawPost.rps / hello.rps).toFixed(2)}`);
  row('/v2/bnac/single, 50 connections', `${bnac.rps.toFixed(0)} req/s`, `p99 ${bnac.p99} ms   ratio ${(bnac.rps / hello.rps).toFixed(2)} (goal 0.4, p99 goal 10 ms)`);
  row('/v2/bnac uncached, batches of 1,000', `${(uncached.rps * 1000).toFixed(0)} msg/s`, `p99 ${uncached.p99} ms   (goal 50,000 msg/s)`);
  row('/v2/bnac cached, batches of 1,000', `${(cached.rps * 1000).toFixed(0)} msg/s`, `p99 ${cached.p99} ms   (goal 300,000 msg/s)`);
}
