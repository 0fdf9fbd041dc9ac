/**
 * `npm run generate`: turns `spec/` into `generated/` (types, validators, data, contracts, route table, documents).
 * Load, then model, then emit; every output kind has its own emitter. Pass `--out DIR` to write elsewhere.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emitted } from './generate/emit.ts';
import { emitContracts } from './generate/emit-contracts.ts';
import { emitData } from './generate/emit-data.ts';
import { emitDocuments, emitRoutes } from './generate/emit-routes.ts';
import { emitTypes } from './generate/emit-types.ts';
import { emitValidators } from './generate/emit-validators.ts';
import { loadSpecs } from './generate/load.ts';
import { buildModel, type GeneratorModel } from './generate/model.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function generatorVersion(): Promise<string> {
  const dir = join(ROOT, 'scripts/generate');
  const files = [join(ROOT, 'scripts/generate.ts'), ...(await readdir(dir)).sort().map((f) => join(dir, f))];
  const hash = createHash('sha256');
  for (const file of files) hash.update(relative(ROOT, file)).update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

async function stamp(model: GeneratorModel): Promise<Emitted> {
  const inputs = Object.fromEntries(
    model.sources.map((s) => [s.file, createHash('sha256').update(s.text).digest('hex')]),
  );
  const body = { generator: await generatorVersion(), inputs };
  return { path: 'STAMP.json', contents: `${JSON.stringify(body, null, 2)}\n` };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

/** Generates every output for the specs under `root` */
export async function generate(root = ROOT): Promise<Emitted[]> {
  const model = buildModel(await loadSpecs(root));
  return [
    ...(await emitTypes(model)),
    ...emitValidators(model),
    ...emitData(model),
    ...emitContracts(model),
    emitRoutes(model),
    emitDocuments(model),
    await stamp(model),
  ];
}

/** Writes the outputs into `out`, removing files no emitter produced */
export async function writeOutputs(out: string, files: Emitted[]): Promise<void> {
  const wanted = new Set(files.map((f) => f.path));
  for (const stale of await listFiles(out)) if (!wanted.has(stale)) await rm(join(out, stale));
  for (const file of files) {
    await mkdir(dirname(join(out, file.path)), { recursive: true });
    await writeFile(join(out, file.path), file.contents);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--out');
  const out = resolve(at > 0 ? process.argv[at + 1] : join(ROOT, 'generated'));
  try {
    const files = await generate();
    await writeOutputs(out, files);
    console.log(`generated ${files.length} files in ${relative(process.cwd(), out) || '.'}`);
  } catch (error) {
    console.error(`generate: ${(error as Error).message}`);
    process.exit(1);
  }
}
