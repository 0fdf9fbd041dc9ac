import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createLogger } from '../../runtime/observability/logger.ts';

/** A host logger that writes nowhere, for tests (plugins' own tests among them) that start a host */
export const quietLog = createLogger({ service: 'test', write: () => {} });

/** Absolute path of `runtime/mod.ts`, for plugins written outside the repository */
export const RUNTIME = resolve(import.meta.dirname, '../../runtime/mod.ts');
/** The CLI entry */
export const CLI = resolve(import.meta.dirname, '../../runtime/cli/capstan.js');

/** What one run of the CLI printed, and its exit code */
export interface CliRun {
  code: number | null;
  /** The signal that ended the process, when one did (`code` is then null) */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `capstan ARGS` as a process, with `stdin` as its whole input (none by default) */
export function runCli(args: readonly string[], stdin = '', env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** A fresh temporary folder */
export function tempDir(prefix = 'capstan-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a TypeScript plugin folder (`mod.ts` and any extra files) and answers its path */
export function writePlugin(dir: string, name: string, files: Record<string, string>): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  for (const [file, text] of Object.entries(files))
    writeFileSync(join(folder, file), text.replaceAll('@capstan', RUNTIME));
  return folder;
}

/** A plugin serving `getStatusAll` of the ip-schedule API, with a slow operation for shutdown tests */
export const HELLO_PLUGIN = `
import { definePlugin, Type, httpError } from '@capstan';
export default definePlugin({
  id: 'hello',
  kind: 'api',
  api: 'ip-schedule',
  apiVersion: '^1.0.0',
  config: Type.Object({ greeting: Type.String({ default: 'hi' }), delayMs: Type.Integer({ default: 0 }), keys: Type.Array(Type.String(), { default: [] }) }, { additionalProperties: false }),
  setup(ctx) {
    const greeting: string = ctx.config.greeting;
    return {
      auth: { header: 'X-Api-Key', keys: ctx.config.keys },
      handlers: {
        getStatusAll: async () => {
          await new Promise((r) => setTimeout(r, ctx.config.delayMs));
          return { body: { ips: {}, greeting } };
        },
        getStatus: ({ params }) => ({ body: { ip: params.ip } }),
        getGroupingStatus: ({ params }) => ({ body: { ip: params.ip, grouping: params.grouping } }),
        createConfig: ({ body }) => {
          if (body.groupings.length > 2) throw httpError(400, 'Too many groupings');
          return { body: { status: 'success' } };
        },
      },
    };
  },
});
`;

/** A self-signed certificate and key for `127.0.0.1`, made with openssl */
export function selfSigned(dir: string): { key: string; cert: string } {
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key, cert };
}

/** A startup document with one http server on a loopback port (tests bind it ephemerally) */
export function document(plugins: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: '6.10',
    servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
    plugins,
    ...extra,
  };
}

/** A free TCP port on 127.0.0.1, for a process that binds the port its document names */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer()
      .listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => done(port));
      })
      .on('error', fail);
  });
}
