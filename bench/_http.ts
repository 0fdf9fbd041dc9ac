import autocannon from 'autocannon';
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
  pipelining?: number;
}

/** Drives `url` with autocannon (in this process, so keep the server in a child or accept sharing a core) */
export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5),
    method: options.method ?? 'GET',
    body: options.body,
    headers: options.body ? { 'content-type': 'application/json', accept: 'application/json', ...options.headers } : options.headers,
    pipelining: options.pipelining ?? 1,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
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

/** Prints one row of a benchmark table */
export function row(name: string, value: string, ratio?: number): void {
  console.log(`${name.padEnd(48)} ${value.padStart(16)}${ratio === undefined ? '' : `   ratio ${ratio.toFixed(2)}`}`);
}
