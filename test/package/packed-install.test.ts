/**
 * The package as a user gets it: `npm pack`, the tarball installed into an empty folder, the docs examples copied
 * there as a plugin author copies them, mounted by the startup document of docs/plugin-api.md, checked, served, and
 * their conformance suites run. Slow for a test (about 30 s: an install and four processes), one file on purpose.
 *
 * The install is offline: `npm ci --offline` with a lockfile made from the project's own (its entries that are not
 * dev-only), so it takes what `npm ci` put in the npm cache. A plain `npm install <tarball> --offline` cannot work:
 * the cache holds tarballs, not the registry documents npm needs to resolve ranges. When the cache lacks a package
 * (node_modules copied from elsewhere) the same install runs online.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as assert from 'uvu/assert';
import { suite } from '../_deadline.ts';
import { freePort, tempDir } from '../host/_fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The startup document of docs/plugin-api.md mounting the examples: the test serves exactly what the page shows */
function documentedStartup(): string {
  const page = readFileSync(join(ROOT, 'docs/plugin-api.md'), 'utf8');
  const block = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((yaml) => yaml.includes('./my-plugins/memory-store'));
  assert.ok(block, 'docs/plugin-api.md has no yaml block mounting ./my-plugins/memory-store');
  return block;
}

function run(command: string, args: string[], cwd: string): { status: number | null; stdout: string; out: string } {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: result.status, stdout: result.stdout, out: `${result.stdout}${result.stderr}${result.error ?? ''}` };
}

/** A lockfile for a folder depending only on the tarball: the project's locked dependencies, dev-only ones left out */
function lockFor(tarball: string): Record<string, unknown> {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));
  const packages: Record<string, unknown> = {
    '': { name: 'plugin-author', dependencies: { capstan: `file:${tarball}` } },
    'node_modules/capstan': {
      version: pkg.version,
      resolved: `file:${tarball}`,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries<{ dev?: boolean; devOptional?: boolean }>(lock.packages)) {
    if (path.startsWith('node_modules/') && !entry.dev && !entry.devOptional) packages[path] = entry;
  }
  return { name: 'plugin-author', lockfileVersion: 3, requires: true, packages };
}

/** `capstan serve` of the installed package, resolved once it prints where it listens */
async function serve(cwd: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(cwd, 'node_modules/.bin/capstan'), 'serve', '--config', 'capstan.yaml'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^listening on (\S+)$/m.exec(out);
      if (m) done(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url };
}

/** `capstan config check capstan.yaml` of the package installed in `dir` */
const configCheck = (dir: string) =>
  run(process.execPath, [join(dir, 'node_modules/.bin/capstan'), 'config', 'check', 'capstan.yaml'], dir);

const packed = suite('packed install', 150_000);
const DIR = tempDir('capstan-packed-');

/**
 * Packs and installs once, for the first test that needs it (uvu reports a failing hook without its message; a
 * failing test shows it)
 */
let installing: Promise<{ dir: string; yaml: string }> | undefined;
const installed = () => (installing ??= install());

async function install(): Promise<{ dir: string; yaml: string }> {
  const dir = DIR;
  const pack = run(NPM, ['pack', '--json', '--pack-destination', dir], ROOT);
  assert.is(pack.status, 0, `npm pack failed:\n${pack.out}`);
  const tarball = JSON.parse(pack.stdout)[0].filename as string;
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'plugin-author', private: true, dependencies: { capstan: `file:${tarball}` } }),
  );
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lockFor(tarball)));
  let install = run(NPM, ['ci', '--offline', '--no-audit', '--no-fund'], dir);
  if (install.status !== 0 && /ENOTCACHED/.test(install.out)) {
    console.log('packed install: the npm cache lacks a package, installing online');
    install = run(NPM, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], dir);
  }
  assert.is(install.status, 0, `npm ci of the tarball failed:\n${install.out}`);
  cpSync(join(dir, 'node_modules/capstan/docs/examples'), join(dir, 'my-plugins'), { recursive: true });
  return { dir, yaml: documentedStartup() };
}

packed('package holds the runtime and the model, not tests, benches or the training corpus', () => {
  const list = run(NPM, ['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT);
  const files = (JSON.parse(list.stdout)[0].files as { path: string }[]).map((f) => f.path);
  for (const needed of [
    'runtime/mod.ts',
    'conformance/mod.ts',
    'plugins/bounce-model/models/bnac.model',
    'plugins/bounce-model/rules.json',
    'spec/openapi/ip-schedule.yaml',
  ]) {
    assert.ok(files.includes(needed), `${needed} is not in the package`);
  }
  const stray = files.filter(
    // Training and evaluation data (corpus lines, gathered replies: `.jsonl`) stay in the checkout
    (f) =>
      /^(test|bench|scripts)\/|\/corpus\/|\/fixtures\/|\.test\.ts$|\.jsonl$/.test(f) && !f.startsWith('docs/examples/'),
  );
  assert.equal(stray, []);
});

packed('config check accepts the documented startup document in the installed package', async () => {
  const at = await installed();
  writeFileSync(join(at.dir, 'capstan.yaml'), at.yaml);
  const check = configCheck(at.dir);
  assert.is(check.status, 0, check.out);
  assert.match(check.out, /1 valid/);
});

packed('config check in the installed package runs the bundle packed with it, not the compiler', async () => {
  const at = await installed();
  writeFileSync(join(at.dir, 'capstan.yaml'), at.yaml);
  const bundle = join(at.dir, 'node_modules/capstan/.build/config.mjs');
  const original = readFileSync(bundle, 'utf8');
  // A bundle that says it ran: its sources are unchanged, so the CLI must take it
  writeFileSync(bundle, 'export async function configCommand() { console.log("bundle ran"); return 0; }\n');
  try {
    const check = configCheck(at.dir);
    assert.is(check.status, 0, check.out);
    assert.match(check.out, /bundle ran/);
    // A source edited since leaves the bundle aside
    const source = join(at.dir, 'node_modules/capstan/runtime/cli/config.ts');
    const text = readFileSync(source, 'utf8');
    writeFileSync(source, `${text}\n// edited after the bundle was built\n`);
    try {
      const compiled = configCheck(at.dir);
      assert.is(compiled.status, 0, compiled.out);
      assert.not.match(compiled.out, /bundle ran/);
      assert.match(compiled.out, /1 valid/);
    } finally {
      writeFileSync(source, text);
    }
  } finally {
    writeFileSync(bundle, original);
  }
});

packed('installed capstan serves the examples mounted by the documented startup document', async () => {
  const at = await installed();
  const port = await freePort();
  writeFileSync(join(at.dir, 'capstan.yaml'), at.yaml.replace(/port: 8080/, `port: ${port}`));
  const { child, url } = await serve(at.dir);
  try {
    const classified = await fetch(`${url}/v2/bnac/single`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '451 4.7.1 Greylisting in effect' }),
    });
    // 0.8 is the rules example's confidence for a match: the answer came from the mounted example, not the model
    assert.equal(await classified.json(), { class: 'GRAYLISTING', probability: 0.8 });
    const grouping = {
      grouping: '&a',
      mode: 'AUTO',
      start: { date: '2025-01-01', volume: 1 },
      end: { date: '2025-01-02', volume: 2 },
    };
    const put = await fetch(`${url}/config/192.0.2.1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ groupings: [grouping] }),
    });
    assert.is(put.status, 200, await put.text());
    assert.equal(Object.keys((await (await fetch(`${url}/status`)).json()).ips), ['192.0.2.1']);
    // The schedule went to the mounted memory store: the built-in file store, the default, wrote nothing
    assert.not.ok(existsSync(join(at.dir, 'var/schedule-store-file')), 'ip-schedule used the file store');
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
});

packed('installed capstan classifies with its own model', async () => {
  const at = await installed();
  const classify = run(
    process.execPath,
    [join(at.dir, 'node_modules/.bin/capstan'), 'classify', '451 4.7.1 Greylisting in effect, please come back later'],
    at.dir,
  );
  assert.is(classify.status, 0, classify.out);
  assert.match(classify.out, /^GRAYLISTING\t/);
});

for (const example of ['memory-store', 'rules-classifier']) {
  packed(`conformance suite passes from the installed package against the ${example} example`, async () => {
    const at = await installed();
    // What `npx tsx FILE` runs, without npm's start-up
    const suiteRun = run(
      process.execPath,
      [join(at.dir, 'node_modules/.bin/tsx'), `my-plugins/${example}/conformance.test.ts`],
      at.dir,
    );
    assert.is(suiteRun.status, 0, suiteRun.out);
    assert.match(suiteRun.out, /Passed:\s+[1-9]/);
    assert.not.match(suiteRun.out, /Cannot find module/);
  });
}

packed.after(() => rmSync(DIR, { recursive: true, force: true }));

packed.run();
