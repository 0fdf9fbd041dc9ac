/**
 * Bounce-classifier HTTP benchmark: uncached and cached batches of 1,000 messages (messages/s) and
 * `/v2/bnac/single` (requests/s and p99 at 50 connections) as a ratio to a raw `node:http` hello world
 * measured in the same run. Servers run in a child process, autocannon in this one.
 *
 * Run: `node --import tsx bench/bounce-classifier.bench.ts` (BENCH_SECONDS sets each measurement's length)
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;

// autocannon ships no types; this is the slice of its programmatic API the bench uses
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const SECONDS = Number(process.env.BENCH_SECONDS) || 5;
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
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

/** Child process mode: serve `kind` on a free port and report the URL */
async function serve(kind: string): Promise<void> {
  if (kind === 'raw') {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"hello":"world"}');
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      process.send!({ url: `http://127.0.0.1:${address.port}` });
    });
    return;
  }
  const { startHost } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/host/logger.ts');
  const folder = await mkdtemp(join(tmpdir(), 'capstan-bench-'));
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [{ id: 'bounce-classifier', config: { cache: { folder, maxSize: 512 * 1024 * 1024 } } }],
    },
    { ephemeralPorts: true, env: {}, log: createLogger({ service: 'bench', level: 'error' }) },
  );
  process.on('disconnect', () => void host.close().then(() => rm(folder, { recursive: true, force: true })));
  process.send!({ url: host.urls[0] });
}

async function startChild(kind: string): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(new URL(import.meta.url).pathname, ['--serve', kind], { execArgv: ['--import', 'tsx'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`Bench server "${kind}" exited with code "${code}"`)));
  });
  return { url, child };
}

async function measure(url: string, connections: number, request: AutocannonRequest): Promise<AutocannonResult> {
  await autocannon({ url, connections, duration: 1, requests: [request] });
  const result = await autocannon({ url, connections, duration: SECONDS, requests: [request] });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`"${result.non2xx}" non-2xx answers and "${result.errors}" errors`);
  return result;
}

async function main(): Promise<void> {
  const raw = await startChild('raw');
  const hello = await measure(raw.url, 50, { method: 'GET', path: '/' });
  raw.child.disconnect();
  raw.child.kill();

  const capstan = await startChild('capstan');
  const single = await measure(capstan.url, 50, {
    method: 'POST',
    path: '/v2/bnac/single',
    headers: JSON_HEADERS,
    setupRequest: (request) => ({ ...request, body: JSON.stringify({ message: `${TEMPLATES[counter % 8]} ${word(counter++ % 997)}` }) }),
  });
  const uncached = await measure(capstan.url, 4, {
    method: 'POST',
    path: '/v2/bnac',
    headers: JSON_HEADERS,
    setupRequest: (request) => ({ ...request, body: freshBatch() }),
  });
  const cachedBody = freshBatch();
  const cached = await measure(capstan.url, 4, { method: 'POST', path: '/v2/bnac', headers: JSON_HEADERS, body: cachedBody });
  capstan.child.disconnect();

  const ratio = single.requests.average / hello.requests.average;
  const rows = [
    ['raw node:http hello world', `${hello.requests.average.toFixed(0)} req/s`, `p99 ${hello.latency.p99} ms`, ''],
    ['/v2/bnac/single (50 conn)', `${single.requests.average.toFixed(0)} req/s`, `p99 ${single.latency.p99} ms`, `ratio ${ratio.toFixed(2)} (goal 0.4, p99 goal 10 ms)`],
    ['/v2/bnac uncached x1000', `${(uncached.requests.average * 1000).toFixed(0)} msg/s`, `p99 ${uncached.latency.p99} ms`, 'goal 50000 msg/s'],
    ['/v2/bnac cached x1000', `${(cached.requests.average * 1000).toFixed(0)} msg/s`, `p99 ${cached.latency.p99} ms`, 'goal 300000 msg/s'],
  ];
  for (const row of rows) console.log(`${row[0]!.padEnd(28)} ${row[1]!.padStart(16)}  ${row[2]!.padEnd(14)} ${row[3]}`);
}

const serveIndex = process.argv.indexOf('--serve');
if (serveIndex >= 0) await serve(process.argv[serveIndex + 1]!);
else await main();
