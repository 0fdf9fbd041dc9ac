#!/usr/bin/env node
// Bundles the `capstan config` command into .build/config.mjs at install time (npm's `prepare`, which `npm pack` runs
// too: the package carries the bundle, and npm gives its files one time, so it is fresh there), so that an operator's
// CI linting a document does not pay for compiling TypeScript on every run. The CLI uses the bundle only while it is
// newer than every source it was built from, and compiles the sources on the fly otherwise.
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const result = await build({
  absWorkingDir: root,
  entryPoints: ['runtime/cli/config.ts'],
  outfile: '.build/config.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs).sort();
writeFileSync(resolve(root, '.build/config.inputs.json'), `${JSON.stringify(inputs, null, 2)}\n`);
