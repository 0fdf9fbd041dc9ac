import autocannon, { type Request } from 'autocannon';
import { fork } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One load run's figures */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Options of one load run */
export interface LoadOptions {
  connections?: number;
  seconds?: number;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: string;
  headers?: Record<string, string>;
  /** A request sequence instead of one fixed request (e.g. `setupRequest` giving each a fresh body) */
  requests?: Request[];
  /** Fail when any answer is not 2xx */
  strict?: boolean;
}

/** Seconds per measurement: `BENCH_SECONDS`, 5 by default */
const SECONDS = Number(process.env.BENCH_SECONDS) || 5;

/** Drives `url` with autocannon after a one-second warm-up; run servers in another process (see `startServers`) */
export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const run = (duration: number) =>
    autocannon({
      url,
      connections: options.connections ?? 50,
      duration,
      method: options.method ?? 'GET',
      body: options.body,
      headers: options.body || options.requests ? { 'content-type': 'application/json', accept: 'application/json', ...options.headers } : options.headers,
      requests: options.requests,
    });
  await run(1);
  const result = await run(options.seconds ?? SECONDS);
  if (options.strict && result.non2xx + result.errors > 0) {
    throw new Error(`Load on "${url}" got ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

/** The baseline every HTTP figure is divided by: a raw `node:http` hello world */
export async function rawHello(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"hello":"world"}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * Runs `serve` in a child process (the same bench file, re-run with `--serve`) so the load generator does not share
 * the servers' event loop; the parent gets whatever `serve` returns (URLs). Call it first thing in a bench file.
 */
export async function startServers<T extends object>(file: string, serve: () => Promise<T>): Promise<{ urls: T; stop(): void } | undefined> {
  if (process.argv.includes('--serve')) {
    process.send!(await serve());
    process.on('disconnect', () => process.exit(0));
    return undefined;
  }
  const child = fork(file, ['--serve'], { execArgv: ['--import', 'tsx'] });
  const urls = await new Promise<T>((done, fail) => {
    child.once('message', (message) => done(message as T));
    child.once('exit', (code) => fail(new Error(`Bench servers exited with code ${code}`)));
  });
  return { urls, stop: () => child.kill() };
}

/** Prints one row of a benchmark table */
export function row(name: string, value: string, note = ''): void {
  console.log(`${name.padEnd(44)} ${value.padStart(18)}   ${note}`);
}
