import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost } from '../../runtime/mod.ts';

const CLASSIFIERS = {
  rules: fileURLToPath(new URL('../../docs/examples/rules-classifier/mod.ts', import.meta.url)),
  echo: fileURLToPath(new URL('./fixtures/echo-classifier.ts', import.meta.url)),
  counting: fileURLToPath(new URL('./fixtures/counting-classifier.ts', import.meta.url)),
};

/** A bounce-classifier host on a free port, with helpers to call it */
export interface TestService {
  url: string;
  /** The cache folder, a fresh temporary one unless given */
  folder: string;
  /** Warnings and errors the host logged, one JSON line each */
  logs: string[];
  /** A string or bytes are sent as they are (an email's 8-bit bytes stay), anything else as JSON */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** Starts the host with the plugin; `classifier` picks a fixture plugin, omitted for the built-in model */
export async function startService(
  options: {
    classifier?: keyof typeof CLASSIFIERS;
    config?: Record<string, unknown>;
    env?: Record<string, string>;
    folder?: string;
  } = {},
): Promise<TestService> {
  const folder = options.folder ?? (await mkdtemp(join(tmpdir(), 'capstan-bc-')));
  const plugins: { id: string; path?: string; config?: unknown }[] = [];
  if (options.classifier) plugins.push({ id: options.classifier, path: CLASSIFIERS[options.classifier] });
  const cache = { folder, ...(options.config?.cache as object | undefined) };
  const config = { ...options.config, cache, ...(options.classifier && { classifier: options.classifier }) };
  plugins.push({ id: 'bounce-classifier', config });
  const logs: string[] = [];
  const log = createLogger({ service: 'test', level: 'warn', write: (line) => logs.push(line) });
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins,
    },
    { ephemeralPorts: true, env: options.env ?? {}, log, checkResponses: true },
  );
  const url = host.urls[0]!;
  const json = { 'content-type': 'application/json', accept: 'application/json' };
  return {
    url,
    folder,
    logs,
    post: (path, body, headers) =>
      fetch(url + path, {
        method: 'POST',
        headers: { ...json, ...headers },
        body:
          typeof body === 'string'
            ? body
            : body instanceof Uint8Array
              ? new Blob([new Uint8Array(body)])
              : JSON.stringify(body),
      }),
    get: (path, headers) => fetch(url + path, { headers: { accept: 'application/json', ...headers } }),
    async close() {
      await host.close();
      if (!options.folder) await rm(folder, { recursive: true, force: true });
    },
  };
}
