#!/usr/bin/env node
// Runs the TypeScript CLI without a build step: tsx compiles on the fly and caches what it compiled. `capstan config`
// uses the bundle made at install time (scripts/build-cli.js) while it is up to date, to start faster.
import { readFileSync, statSync, writeSync } from 'node:fs';

const args = process.argv.slice(2);
const build = new URL('../../.build/', import.meta.url);
const command = args[0] === '--config' ? args[2] : args[0]?.startsWith('--config=') ? args[1] : args[0];

// Output nobody reads any more (`capstan config schema | head`) ends a command quietly, with the status of a process
// killed by SIGPIPE as other Unix tools are (Node ignores the signal itself); any other failed write (a full disk)
// ends it with one line, not a stack trace. `serve` keeps serving: its log drops such lines and counts them
// (runtime/observability/log-sink.ts), and a stray write of a plugin to a broken stdout must not stop it either.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (command === 'serve') return;
    if (error.code === 'EPIPE') process.exit(141);
    try {
      writeSync(2, `capstan: cannot write output: ${error.message}\n`);
    } catch {
      // Standard error failed too: the status says it
    }
    process.exit(1);
  });
}

function freshBundle() {
  try {
    const built = statSync(new URL('config.mjs', build)).mtimeMs;
    const inputs = JSON.parse(readFileSync(new URL('config.inputs.json', build), 'utf8'));
    return inputs.every((file) => statSync(new URL(`../${file}`, build)).mtimeMs <= built);
  } catch {
    return false;
  }
}

/** Lets Node load TypeScript: the CLI's own sources, and plugins given by path */
async function registerTypeScript() {
  const { register } = await import('tsx/esm/api');
  register();
  // A plugin's .ts outside an ESM package (no "type": "module" near it) loads as CommonJS; without tsx's CommonJS hook
  // too, Node 20's require(esm) refuses it as "in a cycle", and `serve --config` could not load such a plugin
  (await import('tsx/cjs/api')).register();
}

if (args[0] === 'config' && freshBundle()) {
  const { configCommand } = await import(new URL('config.mjs', build).href);
  // The bundle needs no compiler; a document naming a plugin by path (TypeScript, most likely) registers it then
  process.exitCode = await configCommand(args.slice(1), { beforePluginLoad: registerTypeScript });
} else {
  // Loaded before tsx's hooks are in place, the big dependencies skip a loader round trip per module (TypeBox alone
  // has hundreds): start-up is about a third faster
  await Promise.all(
    ['typebox', 'typebox/schema', 'koa', '@koa/router', 'yaml', 'piscina', 'lru-cache'].map((name) => import(name)),
  );
  await registerTypeScript();
  const { main } = await import('./main.ts');
  process.exitCode = await main(args);
}
