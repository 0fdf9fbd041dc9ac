/** `npm run check-generated`: fails when `generated/` differs from what the specs generate */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './generate.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Lists the differences between `dir` and a fresh generation: changed, missing or extra files */
export async function driftOf(dir: string, root = ROOT): Promise<string[]> {
  const fresh = new Map((await generate(root)).map((f) => [f.path, f.contents]));
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const present = entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
  const drift: string[] = [];
  for (const path of present.sort()) {
    const want = fresh.get(path);
    if (want === undefined) drift.push(`extra: ${path}`);
    else if (want !== (await readFile(join(dir, path), 'utf8'))) drift.push(`changed: ${path}`);
  }
  for (const path of fresh.keys()) if (!present.includes(path)) drift.push(`missing: ${path}`);
  return drift;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const drift = await driftOf(join(ROOT, 'generated'));
  if (drift.length > 0) {
    console.error(
      `generated/ is out of date with spec/ (run \`npm run generate\` and commit):\n  ${drift.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log('generated/ matches spec/');
}
