/**
 * Every startup document in docs/ and the README goes through `capstan config check` and `capstan serve`, as
 * processes, and both must accept it: the documents operators copy are the ones the linter and the host agree on.
 *
 * A fenced yaml or json block is a startup document when its top level has a property of the startup schema. One
 * without `version` must be marked `<!-- startup-document: partial -->` on the line before its fence; the test
 * completes it with `version: "6.10"` and an http server. One that needs what a test machine lacks (key files,
 * a database) is marked `<!-- startup-document: needs WHAT -->` (`partial, needs WHAT` when both): check must
 * accept it and serve must not refuse its configuration (it may then fail for the missing WHAT). Listener ports are
 * replaced by free ones; the documents run
 * in a folder where `./docs`, `./plugins` and `./my-plugins` (docs/examples) resolve as the docs say.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isMap, parseDocument } from 'yaml';
import { StartupConfigSchema } from '../../generated/validators/startup-config.ts';
import { freePort } from '../host/_fixtures.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const KEYS = new Set(Object.keys(StartupConfigSchema.properties));
const MARK = /^<!-- startup-document: (partial(?:, needs .+)?|needs .+) -->$/;
const SERVE_MS = 90_000;

type Block = { where: string; text: string; mark?: string };

/** The fenced yaml and json blocks of a Markdown file that are startup documents, with the mark before each */
function startupBlocks(file: string): Block[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(yaml|json)\s*$/.test(lines[i])) continue;
    const end = lines.indexOf('```', i + 1);
    const text = lines.slice(i + 1, end).join('\n');
    const value = parseDocument(text).toJS() as unknown;
    const mark = MARK.exec(lines[i - 1] ?? '')?.[1];
    const isStartup =
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.keys(value).some((key) => KEYS.has(key));
    if (mark !== undefined) assert.ok(isStartup, `${file}:${i + 1} is marked as a startup document but is none`);
    if (isStartup) blocks.push({ where: `${file}:${i + 1}`, text, mark });
    i = end;
  }
  return blocks;
}

const files = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const blocks = files.flatMap(startupBlocks);
const dir = mkdtempSync(join(tmpdir(), 'capstan-docs-'));
symlinkSync(join(root, 'docs'), join(dir, 'docs'));
symlinkSync(join(root, 'plugins'), join(dir, 'plugins'));
symlinkSync(join(root, 'docs/examples'), join(dir, 'my-plugins'));

/** The block as a file: completed when partial, listening on free ports */
async function documentFile(block: Block, index: number): Promise<string> {
  const doc = parseDocument(block.text);
  if (block.mark?.startsWith('partial') === true) {
    if (!doc.has('version')) doc.set('version', '6.10');
    if (!doc.has('servers'))
      // As YAML nodes, so that the port below is replaced by a free one (a plain array is not a node and kept 8080,
      // which collided with other tests listening there)
      doc.set(
        'servers',
        doc.createNode([{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }]),
      );
  }
  const servers = doc.get('servers', true);
  for (const [s, server] of ((servers as { items?: unknown[] } | undefined)?.items ?? []).entries()) {
    const listeners = isMap(server)
      ? ((server.get('listeners', true) as { items?: unknown[] } | undefined)?.items ?? [])
      : [];
    for (const [l, listener] of listeners.entries()) {
      if (isMap(listener) && listener.has('port')) doc.setIn(['servers', s, 'listeners', l, 'port'], await freePort());
    }
  }
  const file = join(dir, `${index}-${block.where.replace(/[/:.]/g, '-')}.yaml`);
  writeFileSync(file, doc.toString());
  return file;
}

type CheckResult = {
  file: string;
  valid: boolean;
  errors: { line: number; column: number; path: string; message: string }[];
};

function checkAll(paths: string[]): Promise<CheckResult[]> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      ['runtime/cli/capstan.js', 'config', 'check', '--json', ...paths],
      { cwd: root, timeout: 60_000 },
      (error, stdout, stderr) => {
        try {
          done(JSON.parse(stdout) as CheckResult[]);
        } catch {
          fail(new Error(`config check gave no JSON (${error?.message}): ${stderr}`));
        }
      },
    );
  });
}

type Served = { listening: boolean; refused: boolean; output: string };

/** Starts serve on a document and stops it once it listens; refused: it exited naming the configuration invalid */
function serve(file: string): Promise<Served> {
  const env = { ...process.env };
  for (const name of ['DATABASE_URL', 'API_KEY']) delete env[name];
  return new Promise((done) => {
    const child = spawn(process.execPath, ['runtime/cli/capstan.js', 'serve', '--config', file], { cwd: root, env });
    let output = '';
    let listening = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), SERVE_MS);
    const onData = (data: Buffer): void => {
      output += data;
      if (!listening && /^listening on /m.test(output)) {
        listening = true;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', () => {
      clearTimeout(timer);
      done({ listening, refused: !listening && /capstan serve: Invalid startup configuration/.test(output), output });
    });
  });
}

test('the docs and the README hold startup documents, and each without "version" is marked partial', () => {
  assert.ok(blocks.length >= 8, `found ${blocks.length}`);
  const unmarked = blocks.filter(
    (block) =>
      block.mark?.startsWith('partial') !== true && !/^version:/m.test(block.text) && !/"version"/.test(block.text),
  );
  assert.equal(
    unmarked.map((block) => block.where),
    [],
  );
});

test('config check and serve both accept every startup document of the docs and the README', async () => {
  const paths = await Promise.all(blocks.map(documentFile));
  const checked = await checkAll(paths);
  const verdicts: string[] = [];
  // Two at a time: each serve starts a host with its plugins
  const served: Served[] = [];
  for (let i = 0; i < paths.length; i += 2) served.push(...(await Promise.all(paths.slice(i, i + 2).map(serve))));
  blocks.forEach((block, i) => {
    const errors = checked[i].errors.map((e) => `${e.line}:${e.column} ${e.path} ${e.message}`).join('; ');
    const needs = block.mark?.includes('needs ') === true;
    const serveVerdict = served[i].listening
      ? 'listens'
      : served[i].refused
        ? 'refuses the document'
        : needs
          ? 'fails for what it needs'
          : 'fails to start';
    const ok = checked[i].valid && (served[i].listening || (needs && !served[i].refused));
    if (!ok)
      verdicts.push(
        `${block.where}: check ${checked[i].valid ? 'accepts' : `refuses (${errors})`}, serve ${serveVerdict}:\n${served[i].output.slice(-2000)}`,
      );
  });
  assert.equal(verdicts, []);
});

test('the hello plugin of docs/examples is the manifest example of docs/plugin-api.md', () => {
  const doc = readFileSync(join(root, 'docs/plugin-api.md'), 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(doc)![1];
  assert.fixture(readFileSync(join(root, 'docs/examples/hello/mod.ts'), 'utf8'), example);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
