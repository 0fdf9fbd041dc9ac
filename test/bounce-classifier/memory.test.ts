import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cacheBytesOnDisk } from '../_cache-files.ts';

const MiB = 1024 * 1024;
const MAX_SIZE = 16 * MiB;
/** Bytes of replies sent of each kind: enough to fill the cache and compact it */
const STREAM_BYTES = 2 * MAX_SIZE;
/** Body bytes per request, about: large enough to stream fast, small enough that request buffers stay out of the figure */
const BODY_BYTES = 128 * 1024;
const SERVICE = fileURLToPath(new URL('./fixtures/memory-service.ts', import.meta.url));

/** Unique replies of one kind, `n` selecting which */
const KINDS: Record<string, (n: number) => string> = {
  cjk: (n) => `${digits(n, 0x4e00, 20_000)}${'邮箱已满请稍后再试'.repeat(11)}`,
  emoji: (n) => `${digits(n, 0x1f300, 512)}${'📬🚫'.repeat(25)}`,
  'lone surrogates': (n) => `550 reply ${n} ${'\ud800'.repeat(200)}`,
  '4 KB': (n) => `550 5.1.1 reply ${n} ${'mailbox unavailable '.repeat(205)}`.slice(0, 4096),
};

function digits(n: number, base: number, radix: number): string {
  let text = '';
  do {
    text += String.fromCodePoint(base + (n % radix));
    n = Math.floor(n / radix);
  } while (n > 0);
  return text;
}

interface Service {
  url: string;
  folder: string;
  child: ChildProcess;
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

async function start(): Promise<Service> {
  const child = fork(SERVICE, [String(MAX_SIZE)], { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: 'inherit' });
  const { url, folder } = await next<{ url: string; folder: string }>(child);
  return { url, folder, child };
}

async function measure(service: Service): Promise<{ rss: number; logs: string[] }> {
  service.child.send('measure');
  return next(service.child);
}

/** Posts unique replies of `kind` until about `bytes` of UTF-8 went out; `path` picks cached or uncached */
async function stream(service: Service, path: string, kind: string, from: number, bytes: number): Promise<number> {
  let n = from;
  for (let sent = 0; sent < bytes;) {
    const messages: string[] = [];
    for (let size = 0; size < BODY_BYTES; size += Buffer.byteLength(JSON.stringify(messages.at(-1)))) {
      messages.push(KINDS[kind]!(n++));
    }
    const body = JSON.stringify({ messages });
    sent += Buffer.byteLength(body);
    const response = await fetch(service.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.is(response.status, 200, `${kind}: ${await response.text()}`);
    await response.arrayBuffer().catch(() => undefined);
  }
  return n;
}

test('RSS stays within 1.5 × max_size over baseline when unique replies of any text stream through the cache', async () => {
  const service = await start();
  try {
    // The baseline is the highest RSS the same traffic reaches without the cache: HTTP buffers, the young
    // generation and the allocator's swings of several MiB are the process's, not the cache's
    let n = 0;
    let baseline = 0;
    for (const kind of Object.keys(KINDS)) {
      n = await stream(service, '/v1/backoff?bypass_cache=true', kind, n, STREAM_BYTES);
      baseline = Math.max(baseline, (await measure(service)).rss);
    }
    const figures: string[] = [];
    let peak = 0;
    for (const kind of Object.keys(KINDS)) {
      n = await stream(service, '/v2/bnac', kind, n, STREAM_BYTES);
      const { rss, logs } = await measure(service);
      const disk = await cacheBytesOnDisk(service.folder);
      peak = Math.max(peak, rss - baseline);
      figures.push(`${kind}: RSS +${(rss - baseline) / MiB} MiB, file ${disk} bytes`);
      assert.ok(disk <= MAX_SIZE, `cache file over max_size after ${kind}: ${figures.join('; ')}`);
      assert.equal(logs, [], `${kind}: logged ${logs.join('\n')}`);
    }
    const stats = await (await fetch(`${service.url}/v1/cache/stats`)).json();
    assert.ok(stats.size_in_bytes <= MAX_SIZE && stats.number_of_elements > 0, JSON.stringify(stats));
    assert.ok(
      peak <= 1.5 * MAX_SIZE,
      `RSS grew ${peak / MiB} MiB over a baseline of ${baseline / MiB} MiB: ${figures.join('; ')}`,
    );
    if (process.env.CAPSTAN_MEMORY_FIGURES) console.log(`baseline ${baseline / MiB} MiB; ${figures.join('; ')}`);
  } finally {
    service.child.send('close');
    await new Promise((resolve) => service.child.once('exit', resolve));
  }
});

test.run();
