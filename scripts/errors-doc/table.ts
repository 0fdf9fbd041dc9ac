/** Every registered error code (the host's and the built-in plugins'), and the table `docs/errors.md` shows of them */
import { resolve } from 'node:path';
import type { ErrorFactory, ErrorSet, ErrorSpec } from '../../runtime/core/errors.ts';
import { hostErrors } from '../../runtime/core/host-errors.ts';
import { builtinPluginIds, importPlugin } from '../../runtime/plugins/loader.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** A registered code, its entry, its factory and what registered it: `host` or a built-in plugin's id */
export interface RegisteredCode extends ErrorSpec {
  code: string;
  owner: string;
  create: ErrorFactory;
}

const entries = (set: ErrorSet, owner: string): RegisteredCode[] =>
  Object.values(set).map((create) => ({
    code: create.code,
    status: create.status,
    expose: create.expose,
    message: create.message,
    retryAfter: create.retryAfter,
    owner,
    create,
  }));

/** The host's codes, then each built-in plugin's, in the order they are declared */
export async function registeredCodes(): Promise<RegisteredCode[]> {
  const codes = entries(hostErrors, 'host');
  for (const id of await builtinPluginIds())
    codes.push(...entries((await importPlugin({ id }, ROOT)).errors ?? {}, id));
  return codes;
}

// httpError(status, message) sets both per call; the registry's entry is only what `new CapstanError` falls back to
const AD_HOC: Record<string, [string, string]> = { HOST_ERR_HTTP: ['its argument', 'below 500, 501 and 503'] };

/** The markdown table of `codes` */
export function renderTable(codes: readonly RegisteredCode[]): string {
  const status = (c: RegisteredCode) =>
    AD_HOC[c.code]?.[0] ?? (c.retryAfter === undefined ? c.status : `${c.status}, \`Retry-After: ${c.retryAfter}\``);
  const rows = codes.map(
    (c) =>
      `| \`${c.code}\` | ${status(c)} | ${AD_HOC[c.code]?.[1] ?? (c.expose ? 'yes' : 'no')} | \`${c.message.replaceAll('\n', '\\n')}\` | ${c.owner} |`,
  );
  return [
    '| code | status | client sees the message | message template | registered by |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Markers around the table in `docs/errors.md` */
const BEGIN = '<!-- codes: written by `npm run errors-doc`, do not edit -->';
const END = '<!-- end of codes -->';

/** `doc` with the table between its markers replaced by `table` */
export function withTable(doc: string, table: string): string {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/errors.md has no "${BEGIN}" ... "${END}" section`);
  return `${doc.slice(0, start + BEGIN.length)}\n${table}\n${doc.slice(end)}`;
}
