/**
 * Bounce-classifier HTTP benchmark against a raw `node:http` hello world measured in the same run (servers in a child
 * process, autocannon in this one). Messages are realistic replies: phrasing templates of `scripts/corpus/phrasings/`
 * expanded with seeded slot values, half of the coded ones inside a sending MTA's report, as the corpus has them.
 * Figures, each with requests/s (ratio to the hello world's) and per-request latency p50/p90/p99:
 * - `/v2/bnac/single` UNCACHED, 50 connections: every message unique after normalisation, so each request is a cache
 *   miss that runs the model and stores its result (the path a reply seen for the first time takes);
 * - `/v2/bnac/single` CACHED, 50 connections: 1,000 fixed messages, classified once before, asked again in turn,
 *   so each request is a cache hit;
 * - `/v2/bnac` UNCACHED and CACHED batches of 1,000 messages at 4 connections, the same two ways, in messages/s.
 * The normaliser erases most slot values (the phrasings give only about 90,000 distinct normalised texts), so each
 * message also carries a letters-only word unique in the run at the end of the remote reply. The cache's own hit and
 * miss counters are checked after each run: a run that was not all misses or all hits fails the benchmark.
 * Latencies are of requests waiting behind the other connections' (50 or 4), not of a request alone.
 *
 * Run: `node --import tsx bench/bounce-classifier.bench.ts` (BENCH_SECONDS sets each measurement's length)
 */
import type { Request } from 'autocannon';
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../runtime/observability/logger.ts';
import { startHost } from '../runtime/mod.ts';
import { loadPhrasingFiles } from '../scripts/corpus/generate-corpus.ts';
import { Rng } from '../scripts/corpus/random.ts';
import { expand, wrapReply } from '../scripts/corpus/slots.ts';
import { load, rawHello, row, startServers, type LoadResult } from './_http.ts';

const BATCH = 1_000;
const CACHED_SET = 1_000;
/** Expanded replies to choose from; the unique words, not this pool, make messages distinct */
const POOL = 5_000;
/** A word that no template holds, to find where the normaliser keeps the unique word */
const PROBE = 'zqxjkv';
/** Marks where the remote reply ends inside its wrapper, where the unique word goes */
const END = '\u0000';

const servers = await startServers(import.meta.filename, async () => {
  // A raw POST handler shows what reading and answering a JSON body costs without any framework
  const rawPost = createServer((request, response) => {
    let text = '';
    request
      .on('data', (chunk) => (text += chunk))
      .on('end', () => {
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
      plugins: [{ id: 'bounce-classifier', config: { cache: { enabled: true, folder, maxSize: 512 * 1024 * 1024 } } }],
    },
    { ephemeralPorts: true, env: {}, log: createLogger({ service: 'bench', level: 'error' }) },
  );
  return {
    raw: (await rawHello()).url,
    rawPost: `http://127.0.0.1:${(rawPost.address() as { port: number }).port}`,
    capstan: host.urls[0],
  };
});

if (servers) {
  const { urls } = servers;
  const message = await messages(urls.capstan);
  const cachedSet = Array.from({ length: CACHED_SET }, message);
  let turn = 0;
  const single = (next: () => string): Request => ({
    method: 'POST',
    path: '/v2/bnac/single',
    setupRequest: (request: Request) => ({ ...request, body: JSON.stringify({ message: next() }) }),
  });
  const batch = (next: () => string[]): Request => ({
    method: 'POST',
    path: '/v2/bnac',
    setupRequest: (request: Request) => ({ ...request, body: JSON.stringify({ messages: next() }) }),
  });
  const freshBatch = () => Array.from({ length: BATCH }, message);

  const hello = await load(urls.raw);
  const rawPost = await load(urls.rawPost, { requests: [single(message)], strict: true });
  const singleUncached = await checked(urls.capstan, 'misses', () =>
    load(urls.capstan, { requests: [single(message)], strict: true }),
  );
  const warm = await fetch(`${urls.capstan}/v2/bnac`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: cachedSet }),
  });
  if (!warm.ok) throw new Error(`Classifying the cached set answered ${warm.status}`);
  const singleCached = await checked(urls.capstan, 'hits', () =>
    load(urls.capstan, { requests: [single(() => cachedSet[turn++ % CACHED_SET]!)], strict: true }),
  );
  const batchUncached = await checked(urls.capstan, 'misses', () =>
    load(urls.capstan, { connections: 4, strict: true, requests: [batch(freshBatch)] }),
  );
  const batchCached = await checked(urls.capstan, 'hits', () =>
    load(urls.capstan, { connections: 4, strict: true, requests: [batch(() => cachedSet)] }),
  );
  servers.stop();

  const latency = (r: LoadResult) => `p50 ${r.p50} ms, p90 ${r.p90} ms, p99 ${r.p99} ms`;
  const ratio = (rps: number) => `ratio ${(rps / hello.rps).toFixed(2)}`;
  console.log('HTTP on this machine; servers in one process, load generator in another');
  row('raw node:http GET hello world', `${hello.rps.toFixed(0)} req/s`, latency(hello));
  row(
    'raw node:http POST, JSON in and out',
    `${rawPost.rps.toFixed(0)} req/s`,
    `${latency(rawPost)}   ${ratio(rawPost.rps)}`,
  );
  row(
    '/v2/bnac/single uncached, 50 connections',
    `${singleUncached.rps.toFixed(0)} req/s`,
    `${latency(singleUncached)}   ${ratio(singleUncached.rps)} (goal 0.4, p99 10 ms)`,
  );
  row(
    '/v2/bnac/single cached, 50 connections',
    `${singleCached.rps.toFixed(0)} req/s`,
    `${latency(singleCached)}   ${ratio(singleCached.rps)} (goal 0.4, p99 10 ms)`,
  );
  row(
    '/v2/bnac uncached, batches of 1,000',
    `${(batchUncached.rps * BATCH).toFixed(0)} msg/s`,
    `per batch ${latency(batchUncached)}   ${ratio(batchUncached.rps * BATCH)} msg/s to hello req/s (goal 50,000 msg/s)`,
  );
  row(
    '/v2/bnac cached, batches of 1,000',
    `${(batchCached.rps * BATCH).toFixed(0)} msg/s`,
    `per batch ${latency(batchCached)}   ${ratio(batchCached.rps * BATCH)} msg/s to hello req/s (goal 300,000 msg/s)`,
  );
}

/**
 * A generator of realistic replies, each distinct from every other after normalisation: templates expanded into a
 * pool, each pooled reply then carrying a unique word where the remote reply ends. Replies whose normalised text
 * loses that word (a quoted reply inside the template, for one) are left out of the pool.
 */
async function messages(url: string): Promise<() => string> {
  const templates = (await loadPhrasingFiles()).flatMap((file) =>
    file.phrasings.flatMap((p) => Object.values(p.templates).flat()),
  );
  const rng = new Rng(20261122);
  const candidates = Array.from({ length: POOL }, (_, i) => {
    const reply = expand(rng, templates[i % templates.length]!) + END;
    // As the corpus generator does: a reply starting with a code may be reported inside the sending MTA's wording
    return (/^\d{3}[ -]/.test(reply) && rng.next() < 0.5 ? wrapReply(rng, reply) : reply).split(END) as [
      string,
      string,
    ];
  });
  const pool: [string, string][] = [];
  for (let i = 0; i < candidates.length; i += 100) {
    const kept = await Promise.all(
      candidates.slice(i, i + 100).map(async ([before, after]) => {
        const response = await fetch(`${url}/normalise`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: `${before} ${PROBE}${after}` }),
        });
        return ((await response.json()) as { normalised: string }).normalised.includes(PROBE);
      }),
    );
    pool.push(...candidates.slice(i, i + 100).filter((_, j) => kept[j]));
  }
  rng.shuffle(pool);
  let counter = 0;
  return () => {
    const [before, after] = pool[counter % pool.length]!;
    // Four letters at least: a word of one or two letters might be dropped by a normaliser
    return `${before} ${word(26 ** 3 + counter++)}${after}`;
  };
}

/** Letters only, so that the normaliser keeps the token */
function word(n: number): string {
  let out = '';
  do {
    out += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

/** Runs `measure` and fails unless every cache lookup during it was a miss (`misses`) or a hit (`hits`) */
async function checked(
  url: string,
  expect: 'hits' | 'misses',
  measure: () => Promise<LoadResult>,
): Promise<LoadResult> {
  const stats = async () =>
    (await (await fetch(`${url}/v1/cache/stats`)).json()) as { hit_requests: number; miss_requests: number };
  const before = await stats();
  const result = await measure();
  const after = await stats();
  const hits = after.hit_requests - before.hit_requests;
  const misses = after.miss_requests - before.miss_requests;
  if ((expect === 'hits' ? misses : hits) > 0 || hits + misses === 0) {
    throw new Error(
      `Expected only cache ${expect}, got ${hits} hits and ${misses} misses: the figure would mix the model and the cache`,
    );
  }
  return result;
}
