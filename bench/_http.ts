import autocannon, { type Request } from 'autocannon';
import { fork } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One load run's figures */
export interface LoadResult {
  rps: number;
  /** Latency percentiles of single requests in ms, waiting behind the other connections included */
  p50: number;
  p90: number;
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
      headers:
        options.body || options.requests
          ? { 'content-type': 'application/json', accept: 'application/json', ...options.headers }
          : options.headers,
      requests: options.requests,
    });
  await run(1);
  const result = await run(options.seconds ?? SECONDS);
  if (options.strict && result.non2xx + result.errors > 0) {
    throw new Error(`Load on "${url}" got ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
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

/** Options of `startServers` */
export interface ServerOptions {
  /** Extra arguments of the server process (read from `process.argv` in `serve`) */
  args?: string[];
  /**
   * Work the parent asks of the server process after start, by name (`call`): e.g. a baseline that must not be
   * built before the parent has measured a cold request
   */
  calls?: Record<string, (argument: string) => Promise<string>>;
}

/** A server process seen from the load generator */
export interface Servers<T> {
  urls: T;
  call(name: string, argument: string): Promise<string>;
  stop(): void;
}

/**
 * Runs `serve` in a child process (the same bench file, re-run with `--serve`) so the load generator does not share
 * the servers' event loop; the parent gets whatever `serve` returns (URLs). Call it first thing in a bench file.
 */
export async function startServers<T extends object>(
  file: string,
  serve: () => Promise<T>,
  options: ServerOptions = {},
): Promise<Servers<T> | undefined> {
  if (process.argv.includes('--serve')) {
    process.on('message', async ({ name, argument }: { name: string; argument: string }) => {
      const call = options.calls?.[name];
      process.send!(call ? { result: await call(argument) } : { error: `no call "${name}"` });
    });
    process.send!(await serve());
    process.on('disconnect', () => process.exit(0));
    return undefined;
  }
  const child = fork(file, ['--serve', ...(options.args ?? [])], { execArgv: ['--import', 'tsx'] });
  const reply = () =>
    new Promise<unknown>((done, fail) => {
      const exited = (code: number | null) => fail(new Error(`Bench servers exited with code ${code}`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        done(message);
      });
    });
  const urls = (await reply()) as T;
  return {
    urls,
    async call(name, argument) {
      const answer = reply();
      child.send({ name, argument });
      const { result, error } = (await answer) as { result?: string; error?: string };
      if (error !== undefined) throw new Error(error);
      return result!;
    },
    stop: () => child.kill(),
  };
}

/** Prints one row of a benchmark table */
export function row(name: string, value: string, note = ''): void {
  console.log(`${name.padEnd(44)} ${value.padStart(18)}   ${note}`);
}
