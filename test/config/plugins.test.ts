/**
 * The plugin checks of `capstan config check`, through the CLI, and `capstan serve` refusing the same documents with
 * the same lines: a plugin's config against its schema (inline or in its own file), plugin ids, service references
 * and the script pool a plugin names. Also: the built-in plugins' definitions say what their spec says.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { builtinPluginSchemas } from '../../generated/validators/plugins.ts';
import { builtinFacts, definitionFacts } from '../../runtime/config/plugins.ts';
import { builtinPluginIds, importPlugin } from '../../runtime/plugins/loader.ts';
import { writePlugin } from '../host/_fixtures.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'capstan-plugins-'));
const HEAD =
  'version: "6.10"\nservers:\n  - id: api\n    type: http\n    listeners: [{ address: 127.0.0.1, port: 1 }]\n';

type Run = { code: number; stdout: string; stderr: string };

function capstan(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['runtime/cli/capstan.js', ...args],
      { cwd: root, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

/** Writes a document, checks it and serves it: check's error lines, and serve's refusal, which must list the same lines */
async function both(name: string, body: string): Promise<string[]> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `${HEAD}${body}`);
  const [check, serve] = await Promise.all([capstan(['config', 'check', file]), capstan(['serve', '--config', file])]);
  assert.is(check.code, 1, check.stdout + check.stderr);
  const lines = check.stdout
    .trimEnd()
    .split('\n')
    .filter((line) => !/ (warning|note): /.test(line))
    .map((line) => line.replace(`${dir}/`, ''));
  assert.is(serve.code, 1, serve.stderr);
  assert.is(
    serve.stderr,
    `capstan serve: Invalid startup configuration "${file}":\n${check.stdout
      .trimEnd()
      .split('\n')
      .filter((line) => !/ (warning|note): /.test(line))
      .join('\n')}\n`,
  );
  return lines;
}

test('a time zone the world does not have is refused at its line and column', async () => {
  const lines = await both('zone', 'plugins:\n  - id: ip-schedule\n    config:\n      timezone: Mars/Olympus\n');
  assert.equal(lines, [
    'zone.yaml:9:7 plugins[0].config.timezone must be an IANA time zone such as "Europe/Stockholm" or "UTC": found "Mars/Olympus"',
  ]);
});

test('API keys given as a string, and "30s" for a number of seconds, are refused where they are written', async () => {
  const lines = await both(
    'types',
    'plugins:\n  - id: ip-schedule\n    config:\n      authentication: { apikeys: s3cret }\n      feed: { pingInterval: "30s" }\n',
  );
  assert.equal(lines, [
    'types.yaml:9:25 plugins[0].config.authentication.apikeys must be a list',
    'types.yaml:10:15 plugins[0].config.feed.pingInterval must be a number',
  ]);
});

test('a misspelt backoff class, or one without fields to scope a policy by, is refused', async () => {
  const lines = await both(
    'classes',
    'plugins:\n  - id: ip-schedule\n    config:\n      backoff:\n        policies:\n          RATE_LIMIT__IP_RATE_LIMT: { threshold: 2 }\n          GRAYLISTING: { threshold: 2 }\n',
  );
  assert.is(lines.length, 2);
  assert.match(
    lines[0],
    /^classes\.yaml:11:11 plugins\[0\]\.config\.backoff\.policies\.RATE_LIMIT__IP_RATE_LIMT is not a valid key: must be one of "AUTHENTICATION_ERROR", .*; did you mean "RATE_LIMIT__IP_RATE_LIMIT"$/,
  );
  assert.is(
    lines[1],
    'classes.yaml:12:11 plugins[0].config.backoff.policies.GRAYLISTING has no fields to scope a policy by, so it takes none',
  );
});

test("a misspelt plugin id, in plugins[] or in a plugin's service reference, is refused with the closest id", async () => {
  const lines = await both(
    'ids',
    'plugins:\n  - id: ip-schedul\n  - id: ip-schedule\n    config: { store: schedule-store-fil }\n  - id: schedule-store-file\n',
  );
  assert.equal(lines, [
    'ids.yaml:7:5 plugins[0].id no built-in plugin is called "ip-schedul": did you mean ' +
      '"ip-schedule"; built-in plugins are "bounce-classifier", "bounce-model", "ip-schedule", ' +
      '"schedule-store-file", "schedule-store-postgres", "ui", and a plugin of your own needs a "path"',
    'ids.yaml:9:15 plugins[1].config.store names plugin "schedule-store-fil" for its "store" service, and "plugins" has no plugin "schedule-store-fil": did you mean "schedule-store-file"',
  ]);
});

test('a service reference naming a plugin of the wrong kind is refused', async () => {
  const lines = await both(
    'kind',
    'plugins:\n  - id: bounce-classifier\n  - id: ip-schedule\n    config: { store: bounce-classifier }\n',
  );
  assert.equal(lines, [
    'kind.yaml:9:15 plugins[1].config.store names plugin "bounce-classifier" for its "store" service, which needs a plugin of kind "store": "bounce-classifier" is of kind "api"',
  ]);
});

test('a plugin whose code names a script pool the document lacks is refused; with the pool it passes', async () => {
  const pooled = writePlugin(dir, 'pooled', {
    'mod.ts':
      `import { definePlugin, Type } from '@capstan';
export default definePlugin({ id: 'pooled', kind: 'store', apiVersion: '^1.2.0',` +
      ` config: Type.Object({ size: Type.Integer({ default: 1 }) }, { additionalProperties: false }),` +
      ` capabilities: { pool: { worker: 'file:///nowhere.js', scriptPool: 'calc' } }, setup: () => ({ service: {} }) });
`,
  });
  const lines = await both('pool', `plugins:\n  - id: pooled\n    path: ${pooled}\n    config: { size: 1.5 }\n`);
  assert.equal(lines, [
    'pool.yaml:7:5 plugins[0].id runs its work in the script thread pool "calc" (its "capabilities.pool.scriptPool"): no script thread pool "calc" in "threads.scripts": add it there',
    'pool.yaml:9:15 plugins[0].config.size must be an integer',
  ]);
  const file = join(dir, 'pool-ok.yaml');
  writeFileSync(file, `${HEAD}threads:\n  scripts: [{ id: calc }]\nplugins:\n  - id: pooled\n    path: ${pooled}\n`);
  const check = await capstan(['config', 'check', file]);
  assert.is(check.code, 0, check.stdout);
});

test('a plugin given by a path that cannot be loaded is refused, naming the path', async () => {
  const lines = await both('missing', 'plugins:\n  - id: hello\n    path: ./no-such-plugin\n');
  assert.equal(lines, [
    `missing.yaml:8:5 plugins[0].path cannot load plugin "hello": "${dir}/no-such-plugin" does not exist`,
  ]);
});

test("a plugin config in a file of its own is checked there, with that file's lines", async () => {
  writeFileSync(
    join(dir, 'schedule.yaml'),
    '# ip-schedule\ntimezone: Europe/Stockholm\nfeed:\n  maxBufferedBytes: 12\n',
  );
  const lines = await both('config-file', 'plugins:\n  - id: ip-schedule\n    config: ./schedule.yaml\n');
  assert.equal(lines, ['schedule.yaml:4:3 feed.maxBufferedBytes must be at least 65536']);
});

test("the built-in plugins' definitions take their config schema, kind and services from their spec", async () => {
  const ids = await builtinPluginIds();
  assert.equal(ids, Object.keys(builtinPluginSchemas).sort());
  for (const id of ids) {
    const definition = await importPlugin({ id }, root);
    const loaded = definitionFacts(definition);
    assert.ok(
      definition.config === (builtinPluginSchemas as Record<string, unknown>)[id],
      `${id} takes its config from generated/`,
    );
    assert.equal(
      { ...loaded, schema: undefined },
      { ...builtinFacts(id)!, schema: undefined, scriptPool: undefined },
      id,
    );
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
