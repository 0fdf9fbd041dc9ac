import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost } from '../../runtime/mod.ts';

/** An ip-schedule host on a free port, with a helper to call it */
export interface ScheduleHost {
  url: string;
  /** The policy feed's address: `ws://…/v1/policies/feed` */
  feed: string;
  /** Folder of the startup document: the file store lives under its `var/` */
  folder: string;
  /** Sends a request; `body` is JSON-encoded unless it is a string */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; text: string; json: any }>;
  close(): Promise<void>;
}

/**
 * Starts a host serving `ip-schedule`; `plugins` are extra entries (a store), `folder` reuses a data folder.
 * `checkResponses: false` serves as production does: the check parses every answer at once, which would itself
 * stall the event loop in tests that time large answers
 */
export async function startScheduleHost(
  options: {
    config?: Record<string, unknown>;
    plugins?: { id: string; path?: string; config?: unknown }[];
    folder?: string;
    checkResponses?: boolean;
    /** Receives the host's log lines (JSON), level `info` and up; without it nothing is logged */
    log?: (line: string) => void;
    /** Servers of the startup document (default: one http server on 127.0.0.1) */
    servers?: unknown[];
    pki?: unknown;
    /** The host's environment (default: empty) */
    env?: Record<string, string>;
  } = {},
): Promise<ScheduleHost> {
  const folder = options.folder ?? (await mkdtemp(join(tmpdir(), 'capstan-ips-')));
  const host = await startHost(
    {
      version: '6.10',
      servers: options.servers ?? [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      ...(options.pki ? { pki: options.pki } : {}),
      plugins: [...(options.plugins ?? []), { id: 'ip-schedule', config: options.config ?? {} }],
    },
    {
      baseDir: folder,
      ephemeralPorts: true,
      env: options.env ?? {},
      checkResponses: options.checkResponses ?? true,
      log: createLogger({ service: 'test', level: options.log ? 'info' : 'error', write: options.log ?? (() => {}) }),
    },
  );
  const url = host.urls[0]!;
  return {
    url,
    feed: `${url.replace(/^http/, 'ws')}/v1/policies/feed`,
    folder,
    async call(method, path, body, headers) {
      const response = await fetch(url + path, {
        method,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await host.close();
      if (!options.folder) await rm(folder, { recursive: true, force: true });
    },
  };
}

/** `YYYY-MM-DD` of UTC today plus `days` */
export function utcDate(days = 0): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** An AUTO grouping body */
export function autoGrouping(
  name: string,
  start: [string, number],
  end: [string, number],
  extra: Record<string, unknown> = {},
) {
  return {
    grouping: name,
    mode: 'AUTO',
    start: { date: start[0], volume: start[1] },
    end: { date: end[0], volume: end[1] },
    ...extra,
  };
}

/** Runs `body` against a fresh host and closes it even when an assertion fails (an open host keeps the test process alive) */
export async function withScheduleHost(
  options: Parameters<typeof startScheduleHost>[0],
  body: (host: ScheduleHost) => Promise<void>,
): Promise<void> {
  const host = await startScheduleHost(options);
  try {
    await body(host);
  } finally {
    await host.close();
  }
}
